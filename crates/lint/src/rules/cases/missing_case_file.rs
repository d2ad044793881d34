//! SG406: a skill without a case file, when the catalog keeps case files.

use crate::catalog::cases::CASES_DIR;
use crate::catalog::{Catalog, Target};
use crate::diag::Diagnostic;
use crate::rule;
use std::collections::BTreeSet;

rule! {
    /// ## What it does
    /// When the catalog has an `evals/cases/` folder, requires every skill
    /// to have `evals/cases/<name>.json`, or cases in its own folder
    /// (`evals/evals.json`, a trigger set, a waza file). Catalogs without
    /// the folder are not checked, and neither is a skill with
    /// `disable-model-invocation: true`: the model never chooses it, so
    /// there is nothing to route. A case file holding only drafts
    /// (`skillsift init`'s, SG423) is no case file yet.
    ///
    /// ## Why is this bad?
    /// A skill without cases is never routed or graded, so a description
    /// change that breaks it passes CI. A notice: a catalog adopting
    /// trigger tests one skill at a time is not failed for the others;
    /// `[lint.rules] SG406 = "error"` makes every skill need its cases.
    ///
    /// ## Example
    /// For `skills/tdd/SKILL.md` with `name: tdd`, add `evals/cases/tdd.json`
    /// with at least 3 positive prompts and 2 negative prompts (and, for
    /// Tier 3, an eval).
    pub static MISSING_CASE_FILE = ("SG406", "missing-case-file", Notice, "a skill has no case file");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    if catalog.target != Target::Catalog || !catalog.root.join(CASES_DIR).is_dir() {
        return;
    }
    let stems: BTreeSet<&str> = catalog.cases.iter().map(|c| c.stem.as_str()).collect();
    for (i, skill) in catalog.skills.iter().enumerate() {
        let name = skill.name().unwrap_or(&skill.folder);
        let suite = catalog.suite_of(i);
        // drafts (SG423) are no cases until a person rewrites them
        let drafts_only = suite.is_some_and(|s| {
            !s.drafts.is_empty()
                && s.positive.is_empty()
                && s.negative.is_empty()
                && s.evals.is_empty()
        });
        if ((stems.contains(name) || suite.is_some()) && !drafts_only)
            || skill.model_never_chooses()
        {
            continue;
        }
        if let Some(s) = suite.filter(|_| drafts_only) {
            out.push(
                MISSING_CASE_FILE
                    .diag(
                        &skill.file,
                        format!(
                            "skill `{name}` has only drafts in {}: no trigger prompt or eval a person wrote",
                            s.files.join(", ")
                        ),
                    )
                    .with_span_opt(
                        skill
                            .frontmatter
                            .as_ref()
                            .and_then(|f| f.str("name"))
                            .map(|s| s.span),
                    )
                    .with_help("rewrite the drafts in users' words and remove their draft marks (SG423 says what is left to write)"),
            );
            continue;
        }
        let span = skill
            .frontmatter
            .as_ref()
            .and_then(|f| f.str("name"))
            .map(|s| s.span);
        out.push(
            MISSING_CASE_FILE
                .diag(&skill.file, format!("skill `{name}` has no case file `{CASES_DIR}/{name}.json`"))
                .with_span_opt(span)
                .with_help(format!(
                    "add `{CASES_DIR}/{name}.json` with trigger prompts (and evals, for --behavioral; see `skillsift rule SG406`)"
                )),
        );
    }
}
