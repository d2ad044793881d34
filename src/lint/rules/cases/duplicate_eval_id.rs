//! SG409: eval ids are unique within a case file.

use super::{eval_objects, root};
use crate::catalog::Catalog;
use crate::catalog::cases::eval_id;
use crate::diag::Diagnostic;
use crate::rule;
use std::collections::BTreeMap;

rule! {
    /// ## What it does
    /// Requires the `id` of every eval in a case file to be unique. The ids
    /// `1` and `"1"` are the same id.
    ///
    /// ## Why is this bad?
    /// Results, gradings and observations are keyed by eval id: two evals
    /// with one id overwrite each other's results, and the scorer refuses
    /// the duplicates.
    pub static DUPLICATE_EVAL_ID = ("SG409", "duplicate-eval-id", Error, "two evals share an id");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for case in &catalog.cases {
        let Some(root) = root(case) else { continue };
        let mut seen: BTreeMap<String, u32> = BTreeMap::new();
        for eval in eval_objects(root) {
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
                            &case.file,
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
}
