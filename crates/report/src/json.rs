//! `--format json`: one stable, sorted document.
//!
//! ```json
//! {"version":1,"summary":{…},"diagnostics":[{"rule","name","severity","file",
//!   "line","column","end_line","end_column","start_byte","end_byte",
//!   "message","label","help","fix"}]}
//! ```
//! `fix` is present when the finding has one: `{"applicability": "safe" |
//! "unsafe", "description", "edits": [{"start", "end", "replacement"}],
//! "repair": {"name"?, "description"?}}`, byte offsets into the original
//! file.
//!
//! Positions are 1-based; columns count Unicode scalar values; absent
//! positions and texts are `null`. Keys are never renamed; new ones may be
//! added.

use super::Outcome;
use crate::lint::registry;
use serde::Serialize;
use serde_json::{Value, json};
use std::io::Write;

/// The JSON value of one diagnostic.
pub fn diagnostic_json(d: &crate::diag::Diagnostic) -> Value {
    let mut v = diagnostic_fields(d);
    if let (Some(fix), Some(map)) = (&d.fix, v.as_object_mut()) {
        map.insert("fix".into(), json!(fix));
    }
    v
}

fn diagnostic_fields(d: &crate::diag::Diagnostic) -> Value {
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

/// One diagnostic as [`diagnostic_json`] writes it, borrowed rather than
/// copied into a `Value` (fields in the same, alphabetical, order), so a
/// report of 40,000 findings costs kilobytes per thousand, not megabytes.
#[derive(Serialize)]
struct Borrowed<'a> {
    column: Option<u32>,
    end_byte: Option<usize>,
    end_column: Option<u32>,
    end_line: Option<u32>,
    file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: &'a Option<crate::diag::Fix>,
    help: &'a Option<String>,
    label: &'a Option<String>,
    line: Option<u32>,
    message: &'a str,
    name: Option<&'static str>,
    rule: &'static str,
    severity: &'static str,
    start_byte: Option<usize>,
}

impl<'a> From<&'a crate::diag::Diagnostic> for Borrowed<'a> {
    fn from(d: &'a crate::diag::Diagnostic) -> Self {
        let s = d.span;
        Borrowed {
            column: s.map(|s| s.col),
            end_byte: s.map(|s| s.end),
            end_column: s.map(|s| s.end_col),
            end_line: s.map(|s| s.end_line),
            file: &d.file,
            fix: &d.fix,
            help: &d.help,
            label: &d.label,
            line: s.map(|s| s.line),
            message: &d.message,
            name: registry::find(d.rule).map(|r| r.name),
            rule: d.rule,
            severity: d.severity.as_str(),
            start_byte: s.map(|s| s.start),
        }
    }
}

#[derive(Serialize)]
struct Doc<'a> {
    diagnostics: Vec<Borrowed<'a>>,
    summary: Value,
    version: u32,
}

pub fn render(o: &Outcome, out: &mut dyn Write) -> std::io::Result<()> {
    let doc = Doc {
        diagnostics: o.diagnostics.iter().map(Borrowed::from).collect(),
        summary: serde_json::to_value(o.summary)?,
        version: 1,
    };
    crate::escape::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
