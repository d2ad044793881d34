//! `skillsift score triggers FILE`: gate a trigger set's recorded runs.

use crate::cli::TriggersArgs;
use crate::exit::{Exit, Fatal};
use crate::report::write_error;
use crate::score::triggers::{Mode, evaluate, read_rows, render};
use std::io::Write;

/// `skillsift score triggers FILE`.
pub fn run(args: &TriggersArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    let rows = read_rows(&args.file)?;
    if rows.is_empty() {
        return Err(Fatal::new(
            Exit::Insufficient,
            format!("{}: the trigger set has no rows", args.file.display()),
        )
        .with_help("add should-trigger and should-not rows for train, validation and fresh"));
    }
    let mode = Mode {
        final_gate: args.final_gate,
        manual_only: args.manual_only,
    };
    let report = evaluate(
        &args.file.display().to_string(),
        &rows,
        mode,
        args.hide_heldout,
    );
    render(&report, args.format, out).map_err(write_error)?;
    Ok(if report.verdict == "pass" {
        Exit::Ok
    } else {
        Exit::Failed
    })
}
