//! `--format sarif`: SARIF 2.1.0 for code scanning.
//!
//! `tool.driver.rules[]` carries every rule (id, name, short and full
//! description, help, default level); each result carries its file, start
//! and end line and column (Unicode code points, declared by `columnKind`),
//! byte offsets, a stable `partialFingerprints` entry, and in `properties`
//! everything `--format json` has that SARIF has no field for (label, help,
//! skillsift's own severity). The run's `properties.summary` is the JSON
//! summary.

use super::{Outcome, display_path};
use crate::diag::{Diagnostic, Severity};
use crate::lint::{Rule, registry};
use serde_json::{Value, json};
use std::io::Write;

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Notice => "note",
    }
}

/// The rule's doc comment with one leading space per line removed.
fn doc_text(r: &Rule) -> String {
    r.doc
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

fn rule_json(r: &Rule) -> Value {
    let doc = doc_text(r);
    json!({
        "id": r.id,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": doc.lines().find(|l| !l.trim().is_empty() && !l.starts_with('#')).unwrap_or(r.summary)},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": level(r.severity)},
        "properties": {"tags": [tier_tag(r.id)]},
    })
}

fn tier_tag(id: &str) -> &'static str {
    match id.get(2..3) {
        Some("0") => "load",
        Some("1") => "spec",
        Some("2") => "convention",
        Some("3") => "commands",
        Some("4") => "cases",
        Some("5") => "routing",
        Some("6") => "behavioral",
        _ => "other",
    }
}

/// A fingerprint that survives lines moving, the one `--baseline` matches
/// findings by ([`crate::route::baseline::fingerprint`]): rule, file, the
/// text of the flagged line (trimmed) and the message with its numbers
/// blanked; a finding about the whole catalog (SG520) by its rule and
/// client alone.
fn fingerprint(d: &Diagnostic, o: &Outcome) -> String {
    crate::route::baseline::fingerprint(d, o.sources)
}

/// A relative path as a URI reference (percent-encoding what must be).
fn uri(path: &str) -> String {
    let mut s = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                s.push(b as char)
            }
            _ => s.push_str(&format!("%{b:02X}")),
        }
    }
    if path.starts_with('/') {
        format!("file://{s}")
    } else {
        s
    }
}

pub fn render(o: &Outcome, out: &mut dyn Write) -> std::io::Result<()> {
    let rules: Vec<Value> = registry::RULES.iter().map(|r| rule_json(r)).collect();
    let results: Vec<Value> = o
        .diagnostics
        .iter()
        .map(|d| {
            let mut region = serde_json::Map::new();
            if let Some(s) = d.span {
                region.insert("startLine".into(), json!(s.line));
                region.insert("startColumn".into(), json!(s.col));
                region.insert("endLine".into(), json!(s.end_line));
                region.insert(
                    "endColumn".into(),
                    json!(s.end_col.max(if s.end_line == s.line { s.col } else { 1 })),
                );
                region.insert("byteOffset".into(), json!(s.start));
                region.insert("byteLength".into(), json!(s.end - s.start));
            }
            let mut physical = json!({
                "artifactLocation": {"uri": uri(&display_path(o.path_prefix, &d.file))},
            });
            if !region.is_empty() {
                physical["region"] = Value::Object(region);
            }
            let mut result = json!({
                "ruleId": d.rule,
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [{"physicalLocation": physical}],
                "partialFingerprints": {"skillsift/v2": fingerprint(d, o)},
                "properties": {
                    "severity": d.severity.as_str(),
                    "label": d.label,
                    "help": d.help,
                },
            });
            if let Some(i) = registry::RULES.iter().position(|r| r.id == d.rule) {
                result["ruleIndex"] = json!(i);
            }
            if !d.related.is_empty() {
                let places: Vec<Value> = d
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let mut physical = json!({
                            "artifactLocation": {"uri": uri(&display_path(o.path_prefix, &r.file))},
                        });
                        if let Some(s) = r.span {
                            physical["region"] = json!({
                                "startLine": s.line,
                                "startColumn": s.col,
                                "endLine": s.end_line,
                                "endColumn": s.end_col.max(if s.end_line == s.line { s.col } else { 1 }),
                            });
                        }
                        json!({"id": i + 1, "physicalLocation": physical})
                    })
                    .collect();
                result["relatedLocations"] = Value::Array(places);
            }
            if let Some(fix) = &d.fix {
                let replacements: Vec<Value> = fix
                    .edits
                    .iter()
                    .map(|e| {
                        json!({
                            "deletedRegion": {"byteOffset": e.start, "byteLength": e.end - e.start},
                            "insertedContent": {"text": e.replacement},
                        })
                    })
                    .collect();
                result["fixes"] = json!([{
                    "description": {"text": fix.description},
                    "artifactChanges": [{
                        "artifactLocation": {"uri": uri(&display_path(o.path_prefix, &d.file))},
                        "replacements": replacements,
                    }],
                    "properties": {"applicability": fix.applicability},
                }]);
            }
            result
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skillsift",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://agentskills.io",
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"summary": o.summary},
        }],
    });
    crate::escape::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_encodes_spaces_and_keeps_slashes() {
        assert_eq!(uri("skills/a b/SKILL.md"), "skills/a%20b/SKILL.md");
        assert_eq!(uri("/abs/x"), "file:///abs/x");
    }

    #[test]
    fn tiers_tag_rules() {
        assert_eq!(tier_tag("SG101"), "spec");
        assert_eq!(tier_tag("SG503"), "routing");
    }
}
