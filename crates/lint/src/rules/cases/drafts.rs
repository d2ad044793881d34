//! SG423: draft trigger prompts not yet rewritten.

use crate::catalog::Catalog;
use crate::diag::Diagnostic;
use crate::rule;
use std::collections::BTreeMap;

rule! {
    /// ## What it does
    /// Warns about trigger prompts marked as drafts (`"draft": true`, or in
    /// a waza file a `reason` starting with `draft:`), as `skillsift init`
    /// writes them: one finding per file, at the first draft. Drafts are
    /// listed by `skillsift cases` but never routed (Tier 2) or run (Tier
    /// 3), and do not count towards the minimums: this finding says what
    /// is left to write before the skill meets them (SG407 waits until
    /// the drafts are rewritten).
    ///
    /// ## Why is this bad?
    /// A draft is drawn from the skill's own description (positives) or a
    /// sibling's (negatives): it matches by construction and measures
    /// nothing until a person rewrites it the way a user would ask.
    ///
    /// ## Example
    /// Rewrite `{"query": "fill in a PDF form", "should_trigger": true,
    /// "draft": true}` as `{"query": "can you complete the W-9 they sent
    /// me?", "should_trigger": true}`.
    pub static DRAFTS = ("SG423", "draft-cases", Warning, "trigger prompts are drafts nobody has rewritten yet");
}

pub fn check(catalog: &Catalog, config: &crate::config::Config, out: &mut Vec<Diagnostic>) {
    for suite in &catalog.suites {
        // what is left before the minimums are met, said once: at the
        // suite's first file with drafts
        let mut left = super::minimums::left_to_write(suite, config);
        let mut by_file: BTreeMap<&str, Vec<&crate::catalog::cases::TriggerCase>> = BTreeMap::new();
        for d in &suite.drafts {
            by_file.entry(d.file.as_str()).or_default().push(d);
        }
        for (file, drafts) in by_file {
            let n = drafts.len();
            let still = if left.is_empty() {
                String::new()
            } else {
                format!(
                    "; without them the skill is short of the minimums by {}",
                    std::mem::take(&mut left).join(", ")
                )
            };
            out.push(
                DRAFTS
                    .diag(
                        file,
                        format!(
                            "{n} draft trigger prompt{} of `{}` {} not routed or run until rewritten{still}",
                            if n == 1 { "" } else { "s" },
                            suite.name,
                            if n == 1 { "is" } else { "are" }
                        ),
                    )
                    .with_span(drafts[0].prompt.span)
                    .with_label("a draft")
                    .with_help(
                        "rewrite each in the words a user would type, then remove `\"draft\": true` (in a waza file, the `draft:` reason)",
                    ),
            );
        }
    }
}
