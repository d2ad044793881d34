//! SG405: a case file whose skill is not in the catalog.

use super::{did_you_mean, root, skill_names};
use crate::catalog::Catalog;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Requires the skill a case file is for to exist in the catalog: its
    /// `skill_name` or its file name must name a skill. Suggests the closest
    /// name when one is near. (When only `skill_name` is wrong, SG404 says
    /// so.)
    ///
    /// ## Why is this bad?
    /// Cases for a skill that was renamed or removed never run; the real
    /// skill is left untested while CI stays green.
    pub static UNKNOWN_SKILL = ("SG405", "case-unknown-skill", Error, "case file names a skill that is not in the catalog");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    let names = skill_names(catalog);
    for case in &catalog.cases {
        let Some(root) = root(case) else { continue };
        let (name, span) = match root.get("skill_name") {
            Some(v) => match v.as_str() {
                Some(s) => (s, case.value_span(v)),
                None => continue,
            },
            None => (case.stem.as_str(), case.span(root.start, root.start + 1)),
        };
        // a typo in `skill_name` for a real skill is SG404's alone
        if names.binary_search(&name).is_ok() || names.binary_search(&case.stem.as_str()).is_ok() {
            continue;
        }
        let help = match did_you_mean(name, names.iter().copied()) {
            Some(close) => {
                format!("did you mean `{close}`? rename the file and `skill_name` to it")
            }
            None => "add the skill, or delete this case file if the skill was removed".to_string(),
        };
        out.push(
            UNKNOWN_SKILL
                .diag(
                    &case.file,
                    format!("no skill named `{name}` in the catalog"),
                )
                .with_span(span)
                .with_help(help),
        );
    }
}
