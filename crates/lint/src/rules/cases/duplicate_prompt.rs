//! SG416: the same trigger prompt twice in one case file.

use super::{root, trigger_lists};
use crate::catalog::Catalog;
use crate::catalog::cases::{Side, is_case_file};
use crate::diag::{Diagnostic, Severity};
use crate::rule;
use std::collections::BTreeMap;

rule! {
    /// ## What it does
    /// Reports a trigger prompt written twice in one case file, or twice
    /// among all the files of one skill's cases (its case file, trigger
    /// sets, evals files, waza files), compared after trimming and ignoring
    /// case. A prompt that is both positive and negative is an error; one
    /// repeated on the same side is a warning.
    ///
    /// ## Why is this bad?
    /// A prompt that must both route here and not rank first here cannot
    /// pass. A repeated prompt counts twice towards the minimums and the
    /// rank-1 rate while testing nothing new.
    pub static DUPLICATE_PROMPT = ("SG416", "duplicate-trigger-prompt", Error, "a trigger prompt is written twice");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for case in &catalog.cases {
        let Some(root) = root(case) else { continue };
        // normalised prompt -> (list, line)
        let mut seen: BTreeMap<String, (&str, u32)> = BTreeMap::new();
        for (list, value) in trigger_lists(root) {
            let items = value.and_then(|v| v.as_array()).unwrap_or_default();
            for item in items {
                let Some(p) = item.get("prompt") else {
                    continue;
                };
                let Some(text) = p.as_str() else { continue };
                let key = text.trim().to_lowercase();
                if key.is_empty() {
                    continue;
                }
                let span = case.value_span(p);
                match seen.get(&key) {
                    None => {
                        seen.insert(key, (list, span.line));
                    }
                    Some(&(first_list, first_line)) => {
                        let d = if first_list == list {
                            DUPLICATE_PROMPT
                                .diag(
                                    &case.file,
                                    format!("{list} prompt repeated (lines {first_line} and {})", span.line),
                                )
                                .with_severity(Severity::Warning)
                                .with_help("remove the repetition, or paraphrase it the way another user would ask")
                        } else {
                            DUPLICATE_PROMPT
                                .diag(
                                    &case.file,
                                    format!(
                                        "the same prompt is both {first_list} (line {first_line}) and {list} (line {})",
                                        span.line
                                    ),
                                )
                                .with_help("a prompt cannot both route to this skill and not rank it first; keep it in one list")
                        };
                        out.push(
                            d.with_span(span)
                                .with_label(format!("first on line {first_line}")),
                        );
                    }
                }
            }
        }
    }
    // across a skill's files, and within files other than case files
    for suite in catalog.suites.iter().filter(|s| !s.case_files_only()) {
        let mut seen: BTreeMap<String, (Side, &str, u32)> = BTreeMap::new();
        for t in suite.positive.iter().chain(&suite.negative) {
            let key = t.prompt.value.trim().to_lowercase();
            let line = t.prompt.span.line;
            let Some(&(side, file, first_line)) = seen.get(&key) else {
                seen.insert(key, (t.side, &t.file, line));
                continue;
            };
            if file == t.file && is_case_file(file) {
                continue; // reported above
            }
            let first = if file == t.file {
                format!("line {first_line}")
            } else {
                format!("{file}:{first_line}")
            };
            let d = if side == t.side {
                DUPLICATE_PROMPT
                    .diag(
                        &t.file,
                        format!(
                            "{} prompt of `{}` repeated ({first} and line {line})",
                            t.side.as_str(),
                            suite.name
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_help(
                        "remove the repetition, or paraphrase it the way another user would ask",
                    )
            } else {
                DUPLICATE_PROMPT
                    .diag(
                        &t.file,
                        format!(
                            "the same prompt of `{}` is both {} ({first}) and {} (line {line})",
                            suite.name,
                            side.as_str(),
                            t.side.as_str()
                        ),
                    )
                    .with_help("a prompt cannot both route to this skill and not rank it first; keep it on one side")
            };
            out.push(
                d.with_span(t.prompt.span)
                    .with_label(format!("first at {first}")),
            );
        }
    }
}
