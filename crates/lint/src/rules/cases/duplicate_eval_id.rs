//! SG409: eval ids are unique within a file, and across the files of one
//! skill's cases.

use super::eval_docs;
use crate::catalog::Catalog;
use crate::catalog::cases::eval_id;
use crate::diag::Diagnostic;
use crate::rule;
use std::collections::BTreeMap;

rule! {
    /// ## What it does
    /// Requires the `id` of every eval in a case file (or evals file) to be
    /// unique, and unique across every file a skill's evals come from
    /// (`evals/evals.json` and other `{"evals": […]}` files in its
    /// `evals/`, its case file). The ids `1` and `"1"` are the same id.
    ///
    /// ## Why is this bad?
    /// Results, gradings and observations are keyed by eval id: two evals
    /// with one id overwrite each other's results, and the scorer refuses
    /// the duplicates.
    pub static DUPLICATE_EVAL_ID = ("SG409", "duplicate-eval-id", Error, "two evals share an id");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for case in eval_docs(catalog) {
        let Some(root) = case.root() else { continue };
        let mut seen: BTreeMap<String, u32> = BTreeMap::new();
        for eval in case.evals(root) {
            let Some(v) = eval.get("id") else { continue };
            let Some(id) = eval_id(v) else { continue };
            let span = case.value_span(v);
            match seen.get(&id) {
                None => {
                    seen.insert(id, span.line);
                }
                Some(&first) => out.push(
                    DUPLICATE_EVAL_ID
                        .diag(
                            case.file,
                            format!(
                                "eval id `{id}` is used twice (lines {first} and {})",
                                span.line
                            ),
                        )
                        .with_span(span)
                        .with_label(format!("first used on line {first}"))
                        .with_help("give every eval its own id"),
                ),
            }
        }
    }
    // across the files of one suite (within one file: above)
    for suite in catalog.suites.iter().filter(|s| s.files.len() > 1) {
        let mut seen: BTreeMap<&str, (&str, u32)> = BTreeMap::new();
        for e in &suite.evals {
            match seen.get(e.id.value.as_str()) {
                None => {
                    seen.insert(&e.id.value, (&e.file, e.id.span.line));
                }
                Some(&(file, line)) if file != e.file => out.push(
                    DUPLICATE_EVAL_ID
                        .diag(
                            &e.file,
                            format!(
                                "eval id `{}` of `{}` is used in two files: {file}:{line} and here",
                                e.id.value, suite.name
                            ),
                        )
                        .with_span(e.id.span)
                        .with_label(format!("also used in {file}:{line}"))
                        .with_help(
                            "a skill's evals form one suite: give every eval an id unique across its files",
                        ),
                ),
                Some(_) => {}
            }
        }
    }
}
