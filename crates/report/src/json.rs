//! `--format json`: one stable, sorted document.
//!
//! ```json
//! {"version":1,"summary":{…},"diagnostics":[{"rule","name","severity","file",
//!   "line","column","end_line","end_column","start_byte","end_byte",
//!   "message","label","help","fix","related"}]}
//! ```
//! `related` is present when one finding stands for many places (a custom
//! frontmatter key written in many skills): `[{"file", "line", "column",
//! "end_line", "end_column"}]`.
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
    if let (false, Some(map)) = (d.related.is_empty(), v.as_object_mut()) {
        let places: Vec<Value> = d.related.iter().map(related_json).collect();
        map.insert("related".into(), Value::Array(places));
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

/// One other place of a finding that stands for many.
fn related_json(r: &crate::diag::Related) -> Value {
    let s = r.span;
    json!({
        "file": r.file,
        "line": s.map(|s| s.line),
        "column": s.map(|s| s.col),
        "end_line": s.map(|s| s.end_line),
        "end_column": s.map(|s| s.end_col),
    })
}

/// [`related_json`] borrowed, for [`Borrowed`].
#[derive(Serialize)]
struct RelatedPlace<'a> {
    column: Option<u32>,
    end_column: Option<u32>,
    end_line: Option<u32>,
    file: &'a str,
    line: Option<u32>,
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
    fix: &'a Option<Box<crate::diag::Fix>>,
    help: &'a Option<String>,
    label: &'a Option<String>,
    line: Option<u32>,
    message: &'a str,
    name: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<RelatedPlace<'a>>,
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
            related: d
                .related
                .iter()
                .map(|r| RelatedPlace {
                    column: r.span.map(|s| s.col),
                    end_column: r.span.map(|s| s.end_col),
                    end_line: r.span.map(|s| s.end_line),
                    file: &r.file,
                    line: r.span.map(|s| s.line),
                })
                .collect(),
            rule: d.rule,
            severity: d.severity.as_str(),
            start_byte: s.map(|s| s.start),
        }
    }
}

/// Findings rendered at once (on every core) before they are written:
/// what bounds the memory a report of 150,000 findings takes.
const BATCH: usize = 16 * 1024;
/// Findings one thread renders in one piece.
const PIECE: usize = 256;

/// `value` as pretty JSON nested `depth` levels deep: serde_json's pretty
/// output with every line after the first indented by two spaces a
/// level (a string holds no line break: JSON escapes it).
fn nested<T: Serialize + ?Sized>(
    value: &T,
    depth: usize,
    buf: &mut Vec<u8>,
) -> std::io::Result<()> {
    let mut one = Vec::new();
    crate::escape::to_writer_pretty(&mut one, value)?;
    let indent = &b"        "[..2 * depth];
    for (k, line) in one.split(|&b| b == b'\n').enumerate() {
        if k > 0 {
            buf.push(b'\n');
            buf.extend_from_slice(indent);
        }
        buf.extend_from_slice(line);
    }
    Ok(())
}

/// The document serde_json's pretty printer writes for `{"diagnostics":
/// [...], "summary": ..., "version": 1}`, byte for byte, with the findings
/// rendered in parallel, a batch at a time.
pub fn render(o: &Outcome, out: &mut dyn Write) -> std::io::Result<()> {
    use rayon::prelude::*;
    out.write_all(b"{\n  \"diagnostics\": [")?;
    for (b, batch) in o.diagnostics.chunks(BATCH).enumerate() {
        let pieces: Vec<std::io::Result<Vec<u8>>> = batch
            .par_chunks(PIECE)
            .enumerate()
            .map(|(p, piece)| {
                let mut buf = Vec::new();
                for (k, d) in piece.iter().enumerate() {
                    let first = b == 0 && p == 0 && k == 0;
                    buf.extend_from_slice(if first { b"\n    " } else { b",\n    " });
                    nested(&Borrowed::from(d), 2, &mut buf)?;
                }
                Ok(buf)
            })
            .collect();
        for piece in pieces {
            out.write_all(&piece?)?;
        }
    }
    if !o.diagnostics.is_empty() {
        out.write_all(b"\n  ")?;
    }
    out.write_all(b"],\n  \"summary\": ")?;
    let mut summary = Vec::new();
    nested(&serde_json::to_value(o.summary)?, 1, &mut summary)?;
    out.write_all(&summary)?;
    out.write_all(b",\n  \"version\": 1\n}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Applicability, Diagnostic, Fix, Severity, Span};

    /// The document as serde_json writes it in one piece.
    #[derive(Serialize)]
    struct Doc<'a> {
        diagnostics: Vec<Borrowed<'a>>,
        summary: Value,
        version: u32,
    }

    fn whole(o: &Outcome) -> Vec<u8> {
        let doc = Doc {
            diagnostics: o.diagnostics.iter().map(Borrowed::from).collect(),
            summary: serde_json::to_value(o.summary).unwrap(),
            version: 1,
        };
        let mut out = Vec::new();
        crate::escape::to_writer_pretty(&mut out, &doc).unwrap();
        out.push(b'\n');
        out
    }

    #[test]
    fn the_findings_rendered_in_pieces_make_serdes_document() {
        let span = Span {
            start: 3,
            end: 9,
            line: 2,
            col: 1,
            end_line: 2,
            end_col: 7,
        };
        let one = |k: usize| {
            let d = Diagnostic::new(
                "SG201",
                Severity::Warning,
                format!("skills/s{k}/SKILL.md"),
                format!("line {k}: \"quoted\"\n\t \u{202e}é\u{7f} \\ end"),
            )
            .with_span(span)
            .with_label("a label")
            .with_help("the help");
            if k.is_multiple_of(3) {
                d.with_fix(Fix::new(Applicability::Safe, "fix it", 3, 9, "new\ntext"))
            } else {
                d
            }
        };
        let sources = crate::catalog::SourceMap::new();
        for n in [0, 1, 2, PIECE + 1, BATCH + PIECE + 7] {
            let diags: Vec<Diagnostic> = (0..n).map(one).collect();
            let mut summary = crate::Summary::default();
            summary.count(&diags);
            summary.notes.push("a note\u{200b}".into());
            let o = Outcome {
                diagnostics: &diags,
                summary: &summary,
                sources: &sources,
                path_prefix: "",
                checked: Default::default(),
            };
            let mut out = Vec::new();
            render(&o, &mut out).unwrap();
            assert!(out == whole(&o), "{n} findings");
        }
    }
}
