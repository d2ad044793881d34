//! SG416: the same trigger prompt twice in one case file.

use super::{root, trigger_lists};
use crate::catalog::Catalog;
use crate::diag::{Diagnostic, Severity};
use crate::rule;
use std::collections::BTreeMap;

rule! {
    /// ## What it does
    /// Reports a trigger prompt written twice in one case file (compared
    /// after trimming and ignoring case). A prompt that is both positive
    /// and negative is an error; one repeated in the same list is a warning.
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
}
