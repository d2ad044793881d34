//! The optional fields: `compatibility`, `metadata`, `allowed-tools`.

use super::context::{SkillCtx, value_or_key_span};
use super::name::describe_value;
use crate::catalog::yaml::Kind;
use crate::diag::{Diagnostic, Severity};
use crate::rule;

/// Longest `compatibility` the specification allows, in characters.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

rule! {
    /// ## What it does
    /// When `compatibility` is present, requires a string of 1 to 500
    /// characters.
    ///
    /// ## Why is this bad?
    /// The specification defines it as a short free-text note on the
    /// environment a skill needs (a product, packages, network access);
    /// clients show it as text.
    ///
    /// ## Example
    /// ```yaml
    /// compatibility: Requires git and network access
    /// ```
    pub static COMPATIBILITY_INVALID = ("SG106", "compatibility-invalid", Error, "`compatibility` is not a string of 1-500 characters");
}

rule! {
    /// ## What it does
    /// When `metadata` is present, requires a mapping from string keys to
    /// string values. Each key or value of another type (a number, a
    /// boolean, a list, a nested mapping) is reported.
    ///
    /// ## Why is this bad?
    /// The specification defines `metadata` as string-to-string; clients
    /// with typed loaders reject other shapes, and `version: 1.10` silently
    /// becomes the number `1.1`.
    ///
    /// A nested mapping is a warning, not an error: the specification's
    /// reference validator (skills-ref) accepts it. OpenClaw's own key,
    /// `metadata.openclaw` (formerly `clawdbot`), must be a mapping
    /// (`openclaw: {requires: {bins: [git]}}`) and is not reported.
    ///
    /// ## Example
    /// ```yaml
    /// metadata:
    ///   version: "1.10"
    ///   author: example-org
    /// ```
    pub static METADATA_INVALID = ("SG107", "metadata-invalid", Error, "`metadata` is not a mapping of strings to strings");
}

rule! {
    /// ## What it does
    /// When `allowed-tools` is present, requires a string (the
    /// specification's space-delimited tool list). A YAML list of strings,
    /// which Claude Code and the reference validator also accept, is a
    /// warning; any other type is an error.
    ///
    /// ## Why is this bad?
    /// Clients that follow the specification read a string; a list or a
    /// mapping is ignored or rejected there.
    ///
    /// ## Example
    /// ```yaml
    /// allowed-tools: Bash(git:*) Read Grep
    /// ```
    pub static ALLOWED_TOOLS_INVALID = ("SG108", "allowed-tools-invalid", Error, "`allowed-tools` is not a string");
}

/// `metadata` keys whose value a client requires to be a mapping:
/// OpenClaw's (`clawdbot` is its former name).
const OPENCLAW_KEYS: &[&str] = &["openclaw", "clawdbot"];

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else { return };
    let file = s.file();
    if let Some(e) = fm.get("compatibility") {
        match e.value.as_str() {
            None => out.push(
                COMPATIBILITY_INVALID
                    .diag(
                        file,
                        format!("`compatibility` is {}, not a string", describe_value(&e.value)),
                    )
                    .with_span(value_or_key_span(e))
                    .with_help(if e.value.is_null() {
                        "remove the empty key, or say what the skill needs (`compatibility: Requires git`)"
                    } else {
                        "write one line of text, e.g. `compatibility: Requires Python 3.11 and network access`"
                    }),
            ),
            Some(t) if t.trim().is_empty() => out.push(
                COMPATIBILITY_INVALID
                    .diag(file, "`compatibility` is empty")
                    .with_span(e.value_span)
                    .with_help("remove the key, or say what the skill needs (`compatibility: Requires git`)"),
            ),
            Some(t) => {
                let n = t.chars().count();
                if n > MAX_COMPATIBILITY_CHARS {
                    out.push(
                        COMPATIBILITY_INVALID
                            .diag(
                                file,
                                format!(
                                    "`compatibility` is {n} characters, more than the {MAX_COMPATIBILITY_CHARS} allowed"
                                ),
                            )
                            .with_span(e.value_span)
                            .with_help("keep it to the environment the skill needs; move the rest into the body"),
                    );
                }
            }
        }
    }
    if let Some(e) = fm.get("metadata") {
        match &e.value.kind {
            Kind::Map(entries) => {
                for (k, v) in entries {
                    let key = k.scalar_text().unwrap_or("");
                    if k.as_str().is_none() {
                        out.push(
                            METADATA_INVALID
                                .diag(
                                    file,
                                    format!(
                                        "`metadata` key is {}, not a string",
                                        describe_value(k)
                                    ),
                                )
                                .with_span(key_span(s, k.start, key))
                                .with_help(format!("quote the key: `\"{key}\": …`")),
                        );
                        continue;
                    }
                    if v.as_str().is_some() {
                        continue;
                    }
                    // OpenClaw's own key: it requires this nested shape
                    // (`openclaw: {requires: {bins: […]}}`)
                    if matches!(v.kind, Kind::Map(_)) && OPENCLAW_KEYS.contains(&key) {
                        continue;
                    }
                    let help = match &v.kind {
                        Kind::Scalar { text, .. } if !v.is_null() => {
                            format!("quote the value: `{key}: \"{text}\"`")
                        }
                        Kind::Scalar { .. } => {
                            format!("give `{key}` a value, or remove it")
                        }
                        Kind::Seq(_) => format!(
                            "write the items as one string (`{key}: \"a, b\"`), or move them out of `metadata`"
                        ),
                        Kind::Map(_) => format!(
                            "flatten the nested keys into string entries (`{key}-…: \"…\"`), or move them out of `metadata`"
                        ),
                    };
                    // the specification's reference validator accepts a
                    // nested mapping; typed loaders (string to string) do not
                    let severity = if matches!(v.kind, Kind::Map(_)) {
                        Severity::Warning
                    } else {
                        METADATA_INVALID.severity
                    };
                    out.push(
                        METADATA_INVALID
                            .diag(
                                file,
                                format!("`metadata.{key}` is {}, not a string", describe_value(v)),
                            )
                            .with_severity(severity)
                            .with_span(key_span(s, k.start, key))
                            .with_label(format!("YAML reads the value as a {}", v.type_name()))
                            .with_help(help),
                    );
                }
            }
            _ => out.push(
                METADATA_INVALID
                    .diag(
                        file,
                        format!("`metadata` is {}, not a mapping", describe_value(&e.value)),
                    )
                    .with_span(value_or_key_span(e))
                    .with_help("write `key: value` lines indented under `metadata:`, or remove it"),
            ),
        }
    }
    if let Some(e) = fm.get("allowed-tools") {
        if e.value.as_str().is_some() {
            return;
        }
        if let Kind::Seq(items) = &e.value.kind
            && items.iter().all(|i| i.as_str().is_some())
        {
            let joined = items
                .iter()
                .filter_map(|i| i.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            out.push(
                ALLOWED_TOOLS_INVALID
                    .diag(
                        file,
                        "`allowed-tools` is a list; the specification defines a space-delimited string",
                    )
                    .with_severity(Severity::Warning)
                    .with_span(e.key_span)
                    .with_help(format!("write `allowed-tools: {joined}`")),
            );
            return;
        }
        out.push(
            ALLOWED_TOOLS_INVALID
                .diag(
                    file,
                    format!(
                        "`allowed-tools` is {}, not a string",
                        describe_value(&e.value)
                    ),
                )
                .with_span(value_or_key_span(e))
                .with_help(
                    "list the tools in one string, separated by spaces: `allowed-tools: Read Grep`",
                ),
        );
    }
}

/// Span of a key at `start` (file offset) of `len` bytes.
fn key_span(s: &SkillCtx, start: usize, key: &str) -> crate::diag::Span {
    let end = (start + key.len().max(1)).min(s.src.text.len());
    s.span(start, crate::diag::floor_char_boundary(&s.src.text, end))
}
