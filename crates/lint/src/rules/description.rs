//! The `description` field: present, a non-empty string, within the limit.

use super::context::{SkillCtx, value_or_key_span};
use super::name::describe_value;
use crate::diag::Diagnostic;
use crate::rule;

/// Longest description the specification allows, in Unicode scalar values.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

rule! {
    /// ## What it does
    /// Requires a `description` that is a non-empty string. It explains the
    /// common trap `description: # Title`: after `: `, a `#` starts a YAML
    /// comment, so the value is empty.
    ///
    /// ## Why is this bad?
    /// Agents choose a skill by its description; a skill without one is
    /// never loaded, and the specification makes it required.
    ///
    /// ## Example
    /// ```yaml
    /// description: Fill PDF forms. Use when the user asks to fill in a form.
    /// ```
    pub static DESCRIPTION_REQUIRED = ("SG104", "description-required", Error, "`description` is missing, empty or not a string");
}

rule! {
    /// ## What it does
    /// Reports a `description` longer than 1,024 characters (Unicode scalar
    /// values, after YAML has folded block scalars).
    ///
    /// ## Why is this bad?
    /// The specification caps it at 1,024; clients truncate or reject longer
    /// ones, and every description is paid for in every session's context.
    pub static DESCRIPTION_TOO_LONG = ("SG105", "description-too-long", Error, "`description` is longer than 1024 characters");
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else { return };
    let file = s.file();
    let Some(entry) = fm.get("description") else {
        out.push(
            DESCRIPTION_REQUIRED
                .diag(file, "frontmatter has no `description`")
                .with_span_opt(s.frontmatter_open_span())
                .with_help("add `description:` saying what the skill does and when to use it (\"Use when …\")"),
        );
        return;
    };
    let empty = || {
        DESCRIPTION_REQUIRED
            .diag(file, "`description` is empty")
            .with_span(entry.value_span)
            .with_help("say what the skill does and when to use it (\"Use when …\")")
    };
    if entry.value.is_null() {
        // `description: # Title` — the `#` after `: ` opens a comment.
        let at = entry.value_span.start;
        let line_end = s.line_span(entry.value_span.line).end;
        let rest = &s.src.text[at.min(line_end)..line_end];
        let trimmed = rest.trim_start_matches([' ', '\t']);
        if trimmed.starts_with('#') {
            let hash = line_end - trimmed.len();
            let comment = trimmed.trim_end();
            out.push(
                DESCRIPTION_REQUIRED
                    .diag(
                        file,
                        format!(
                            "`description` is empty: `#` after `: ` starts a YAML comment, so `{comment}` is not the value"
                        ),
                    )
                    .with_span(s.span(hash, hash + comment.len()))
                    .with_label("a YAML comment, not the description")
                    .with_help(format!(
                        "quote the value (`description: \"{}\"`) or write the description itself",
                        comment.replace('"', "\\\"")
                    )),
            );
        } else {
            out.push(empty());
        }
        return;
    }
    let Some(text) = entry.value.as_str() else {
        let help = match entry.value.type_name() {
            "sequence" | "mapping" => {
                "write one string; for several lines use a block scalar (`description: >-`)"
                    .to_string()
            }
            _ => format!(
                "quote the value: `description: \"{}\"`",
                entry.value.scalar_text().unwrap_or("")
            ),
        };
        out.push(
            DESCRIPTION_REQUIRED
                .diag(
                    file,
                    format!(
                        "`description` is {}, not a string",
                        describe_value(&entry.value)
                    ),
                )
                .with_span(value_or_key_span(entry))
                .with_label(format!("YAML reads this as a {}", entry.value.type_name()))
                .with_help(help),
        );
        return;
    };
    if text.trim().is_empty() {
        out.push(empty());
        return;
    }
    let n = text.chars().count();
    if n > MAX_DESCRIPTION_CHARS {
        out.push(
            DESCRIPTION_TOO_LONG
                .diag(
                    file,
                    format!(
                        "`description` is {n} characters, more than the {MAX_DESCRIPTION_CHARS} allowed"
                    ),
                )
                .with_span(entry.value_span)
                .with_help(format!(
                    "cut {} characters: keep what the skill does and when to use it, move the rest into the body",
                    n - MAX_DESCRIPTION_CHARS
                )),
        );
    }
}
