//! `skillgate rank`.

use crate::cli::RankArgs;
use crate::exit::{Exit, Fatal};
use std::io::Write;

pub fn rank(args: &RankArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    let _ = (args, out);
    Err(Fatal::usage("`skillgate rank` is not available yet"))
}
