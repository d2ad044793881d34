//! SG422: a skill with cases in `evals/cases/` and in its own folder.

use crate::catalog::Catalog;
use crate::catalog::cases::is_case_file;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Warns when a skill's cases are in two places: the catalog's
    /// `evals/cases/<skill>.json` and the skill's own folder (`evals/`,
    /// `trigger_tests.yaml`). Both are read and merged, never one chosen
    /// silently: every trigger prompt is routed and every eval planned,
    /// ids must be unique across the files (SG409), and the minimums count
    /// the merged suite. `skillsift cases SKILL` lists each case and its
    /// file.
    ///
    /// ## Why is this bad?
    /// Two layouts for one skill are usually a migration left half done:
    /// an edit to one copy leaves the other stale, and a prompt kept in
    /// both counts twice.
    pub static TWO_PLACES = ("SG422", "cases-in-two-places", Warning, "a skill has cases in evals/cases/ and in its own folder");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for suite in catalog.suites.iter().filter(|s| s.in_two_places()) {
        let (catalog_level, own): (Vec<&String>, Vec<&String>) =
            suite.files.iter().partition(|f| is_case_file(f));
        let Some(first) = catalog_level.first() else {
            continue;
        };
        let list = |v: &[&String]| v.iter().map(|f| f.as_str()).collect::<Vec<_>>().join(", ");
        let at = catalog
            .cases
            .binary_search_by(|c| c.file.as_str().cmp(first.as_str()))
            .ok()
            .and_then(|i| catalog.cases[i].skill_name.as_ref())
            .map(|n| n.span);
        out.push(
            TWO_PLACES
                .diag(
                    first.as_str(),
                    format!(
                        "`{}` has cases here and in its own folder ({}); both are read: {} trigger prompts and {} evals in all",
                        suite.name,
                        list(&own),
                        suite.positive.len() + suite.negative.len(),
                        suite.evals.len()
                    ),
                )
                .with_span_opt(at)
                .with_help(format!(
                    "keep one layout for the skill: move the cases of {} into the other place (`skillsift cases {}` lists each case and its file)",
                    list(&catalog_level),
                    suite.name
                )),
        );
    }
}
