//! `skillgate score`.

use crate::cli::ScoreArgs;
use crate::exit::{Exit, Fatal};
use std::io::Write;

pub fn run(args: &ScoreArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    let _ = (args, out);
    Err(Fatal::usage("`skillgate score` is not available yet"))
}
