//! SG413: `trust_level: provisional` on an execution eval.

use super::eval_docs;
use crate::catalog::Catalog;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Refuses `"trust_level": "provisional"` on an execution eval (the
    /// default kind).
    ///
    /// ## Why is this bad?
    /// A provisional eval is one whose grading nobody has reviewed yet.
    /// Execution evals let the agent edit files and run commands in a
    /// workspace and gate releases on the result; they must be reviewed
    /// before they run. Review the eval and drop the marker, or make it a
    /// dialogue eval if the conversation is the deliverable.
    pub static PROVISIONAL_EXECUTION = ("SG413", "provisional-execution-eval", Error, "an execution eval is marked provisional");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for case in eval_docs(catalog) {
        let Some(root) = case.root() else { continue };
        for eval in case.evals(root) {
            let Some(t) = eval.get("trust_level") else {
                continue;
            };
            if t.as_str() != Some("provisional") || !case.is_execution(eval) {
                continue;
            }
            out.push(
                PROVISIONAL_EXECUTION
                    .diag(case.file, "an execution eval is marked `trust_level: provisional`")
                    .with_span(case.value_span(t))
                    .with_label("not allowed on execution evals")
                    .with_help("review the eval and remove `trust_level`, or make it `\"kind\": \"dialogue\"`"),
            );
        }
    }
}
