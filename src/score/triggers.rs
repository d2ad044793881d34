//! Trigger-set gates for description tuning (`skillgate score triggers`).

use crate::cli::TriggersArgs;
use crate::exit::{Exit, Fatal};
use std::io::Write;

pub fn run(args: &TriggersArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    let _ = (args, out);
    Err(Fatal::usage(
        "`skillgate score triggers` is not available yet",
    ))
}
