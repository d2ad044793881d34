//! SG402: a key that appears twice in one object of a case file or case
//! source (JSON or waza's YAML).

use super::json_docs;
use crate::catalog::Catalog;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Reports a key that appears twice in one object of a case file, an
    /// evals file, a trigger set or a waza file, naming both lines.
    ///
    /// ## Why is this bad?
    /// JSON parsers disagree on which value wins: `JSON.parse` keeps the
    /// last, others the first or refuse the file. A second `"positive"`
    /// list silently replaces the first in one tool and not in another.
    ///
    /// ## Example
    /// ```json
    /// { "prompt": "fix the bug", "top_k": 1, "top_k": 3 }
    /// ```
    /// Keep one `top_k`.
    pub static DUPLICATE_KEY = ("SG402", "case-duplicate-key", Error, "a key appears twice in one case-file object");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for case in json_docs(catalog) {
        let tree = case.tree;
        for dup in &tree.duplicates {
            // the key's quotes are part of its span
            let len = case.source.text[dup.second..].find(':').map_or(1, |i| {
                case.source.text[dup.second..dup.second + i]
                    .trim_end()
                    .len()
            });
            let first = case.span(dup.first, dup.first + 1);
            let second = case.span(dup.second, dup.second + len);
            out.push(
                DUPLICATE_KEY
                    .diag(
                        case.file,
                        if first.line == second.line {
                            format!(
                                "key `{}` appears twice in one object on line {}",
                                dup.key, first.line
                            )
                        } else {
                            format!(
                                "key `{}` appears twice in one object (lines {} and {})",
                                dup.key, first.line, second.line
                            )
                        },
                    )
                    .with_span(second)
                    .with_label(format!(
                        "first defined at line {} column {}",
                        first.line, first.col
                    ))
                    .with_help("keep one of the two; JSON parsers disagree on which one wins"),
            );
        }
    }
    for src in &catalog.case_sources {
        let Some(tree) = src.yaml() else { continue };
        for dup in &tree.duplicates {
            let first = src.span(dup.first, dup.first + dup.key.len());
            let second = src.span(dup.second, dup.second + dup.key.len());
            out.push(
                DUPLICATE_KEY
                    .diag(
                        &src.file,
                        format!(
                            "key `{}` appears twice in one mapping (lines {} and {})",
                            dup.key, first.line, second.line
                        ),
                    )
                    .with_span(second)
                    .with_label(format!(
                        "first defined at line {} column {}",
                        first.line, first.col
                    ))
                    .with_help("keep one of the two; YAML parsers disagree on which one wins"),
            );
        }
    }
}
