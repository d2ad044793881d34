//! `--format json`: one stable, sorted document.
//!
//! ```json
//! {"version":1,"summary":{…},"diagnostics":[{"rule","name","severity","file",
//!   "line","column","end_line","end_column","start_byte","end_byte",
//!   "message","label","help"}]}
//! ```
//! Positions are 1-based; columns count Unicode scalar values; absent
//! positions and texts are `null`. Keys are never renamed; new ones may be
//! added.

use super::Outcome;
use crate::lint::registry;
use serde_json::{Value, json};
use std::io::Write;

/// The JSON value of one diagnostic.
pub fn diagnostic_json(d: &crate::diag::Diagnostic) -> Value {
    let s = d.span;
    json!({
        "rule": d.rule,
        "name": registry::find(d.rule).map(|r| r.name),
        "severity": d.severity.as_str(),
        "file": d.file,
        "line": s.map(|s| s.line),
        "column": s.map(|s| s.col),
        "end_line": s.map(|s| s.end_line),
        "end_column": s.map(|s| s.end_col),
        "start_byte": s.map(|s| s.start),
        "end_byte": s.map(|s| s.end),
        "message": d.message,
        "label": d.label,
        "help": d.help,
    })
}

pub fn render(o: &Outcome, out: &mut dyn Write) -> std::io::Result<()> {
    let doc = json!({
        "version": 1,
        "summary": o.summary,
        "diagnostics": o.diagnostics.iter().map(diagnostic_json).collect::<Vec<_>>(),
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
