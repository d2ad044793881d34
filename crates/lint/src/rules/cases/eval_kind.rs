//! SG410: an eval's `kind` is `execution` or `dialogue`.

use super::{described, did_you_mean, eval_docs};
use crate::catalog::Catalog;
use crate::catalog::cases::EvalKind;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Requires an eval's `kind`, when present, to be `execution` (the
    /// default: the run happens in a throwaway git repository seeded with
    /// the eval's fixtures) or `dialogue` (the conversation is the
    /// artifact; no fixture).
    ///
    /// ## Why is this bad?
    /// An unknown kind cannot be run: no tool knows what to grade.
    /// `dialogue` is an exemption a human reviews, not an escape hatch for
    /// skills whose work changes files.
    pub static EVAL_KIND = ("SG410", "eval-kind", Error, "an eval's kind is not execution or dialogue");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for case in eval_docs(catalog) {
        let Some(root) = case.root() else { continue };
        for eval in case.evals(root) {
            let Some(k) = eval.get("kind") else { continue };
            let message = match k.as_str() {
                Some(s) if EvalKind::parse(s).is_some() => continue,
                Some(s) => format!("eval kind `{s}` is not `execution` or `dialogue`"),
                None => format!("eval `kind` is {}, not a string", described(k)),
            };
            let help = match k.as_str().and_then(|s| did_you_mean(s, EvalKind::ALL)) {
                Some(close) => format!("did you mean \"{close}\"?"),
                None => "use \"execution\" (the default) or \"dialogue\"".to_string(),
            };
            out.push(
                EVAL_KIND
                    .diag(case.file, message)
                    .with_span(case.value_span(k))
                    .with_help(help),
            );
        }
    }
}
