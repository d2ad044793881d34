//! SG418: a trigger set's rows.

use crate::catalog::Catalog;
use crate::catalog::cases::{Format, trigger_set};
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Checks a trigger set, a JSON array of rows such as
    /// `{"query": "fill in this form", "should_trigger": true}` in a skill's
    /// `evals/` (or named by `[cases] trigger-sets`): the file is an
    /// array; each row is an object with a non-empty string `query` and a
    /// boolean `should_trigger`; `split`, when present, is `train`,
    /// `validation` or `fresh`; `owner` (a `should_trigger: false` row's
    /// skill) is a non-empty string; `top_k` is a whole number of at least
    /// 1; `draft` is a boolean. A file named like a trigger set
    /// (`eval_set.json`, `trigger-queries.json`, …) is checked even when it
    /// is not an array.
    ///
    /// ## Why is this bad?
    /// A row with the wrong shape is left out of Tier 2 and Tier 3, so the
    /// skill looks tested when it is not.
    ///
    /// ## Example
    /// ```json
    /// [{"query": "fill in this PDF form", "should_trigger": true},
    ///  {"query": "merge two PDFs", "should_trigger": false, "owner": "pdf-merge"}]
    /// ```
    pub static TRIGGER_SET_SHAPE = ("SG418", "trigger-set-shape", Error, "a trigger set is not an array of query/should_trigger rows");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for src in catalog
        .case_sources
        .iter()
        .filter(|s| s.format == Format::TriggerSet)
    {
        let Some(tree) = src.json() else { continue };
        let Some(rows) = tree.root.as_array() else {
            out.push(
                TRIGGER_SET_SHAPE
                    .diag(
                        &src.file,
                        format!(
                            "a trigger set is a JSON array of rows, and this file is a JSON {}",
                            tree.root.type_name()
                        ),
                    )
                    .with_span(src.span(tree.root.start, tree.root.start + 1))
                    .with_help(
                        "write [{ \"query\": \"what a user would type\", \"should_trigger\": true }, …]",
                    ),
            );
            continue;
        };
        for (i, row) in rows.iter().enumerate() {
            for p in trigger_set::row_problems(row, &format!("row {}", i + 1), "query") {
                out.push(
                    TRIGGER_SET_SHAPE
                        .diag(&src.file, p.message)
                        .with_span(src.span(p.start, p.end))
                        .with_help(p.help),
                );
            }
        }
    }
}
