//! SG415: a negative prompt's `owner` names another skill of the catalog.

use super::{did_you_mean, root, skill_names};
use crate::catalog::Catalog;
use crate::catalog::cases::is_case_file;
use crate::catalog::json::Value;
use crate::diag::{Diagnostic, Span};
use crate::rule;

rule! {
    /// ## What it does
    /// Requires the `owner` of a negative trigger prompt (in a case file,
    /// or a `should_trigger: false` row of a trigger set) to name a skill
    /// that exists in the catalog and is not the prompt's own skill,
    /// suggesting the closest name when one is near.
    ///
    /// This is the only place an unknown owner is reported: Tier 2 skips
    /// the pairwise check for such a prompt (still checking that the skill
    /// does not rank first) rather than report it again.
    ///
    /// ## Why is this bad?
    /// `owner` turns a negative into a pairwise test: the owner must
    /// outrank this skill. With a misspelt or removed owner the test cannot
    /// run; with the skill itself as owner it can never pass.
    ///
    /// ## Example
    /// ```json
    /// { "prompt": "Update the architecture diagram", "owner": "documentation-and-adrs" }
    /// ```
    pub static NEGATIVE_OWNER = ("SG415", "negative-owner", Error, "a negative prompt's owner names no other skill");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    let names = skill_names(catalog);
    for case in &catalog.cases {
        let Some(root) = root(case) else { continue };
        let own = root
            .get("skill_name")
            .and_then(Value::as_str)
            .unwrap_or(&case.stem);
        let items = root
            .get("trigger")
            .and_then(|t| t.get("negative"))
            .and_then(Value::as_array)
            .unwrap_or_default();
        for item in items {
            let Some(o) = item.get("owner") else { continue };
            let Some(owner) = o.as_str() else { continue };
            owner_finding(&names, &case.file, own, owner, case.value_span(o), out);
        }
    }
    // negatives outside case files (trigger sets), drafts too
    for suite in &catalog.suites {
        for t in suite
            .negative
            .iter()
            .chain(&suite.drafts)
            .filter(|t| !is_case_file(&t.file))
        {
            if let Some(o) = &t.owner {
                owner_finding(&names, &t.file, &suite.name, &o.value, o.span, out);
            }
        }
    }
}

/// SG415 for `owner` (at `span` in `file`) of a negative prompt of skill
/// `own`, when it is `own` itself or names no skill in `names`.
fn owner_finding(
    names: &[&str],
    file: &str,
    own: &str,
    owner: &str,
    span: Span,
    out: &mut Vec<Diagnostic>,
) {
    if owner.trim().is_empty() {
        return; // SG403, SG418
    }
    if owner == own {
        out.push(
            NEGATIVE_OWNER
                .diag(
                    file,
                    format!("a negative prompt of `{own}` names `{own}` itself as owner"),
                )
                .with_span(span)
                .with_label("this pairwise test can never pass")
                .with_help("name the skill that should win this prompt instead"),
        );
    } else if names.binary_search(&owner).is_err() {
        let help = match did_you_mean(owner, names.iter().copied()) {
            Some(close) => format!("did you mean `{close}`?"),
            None => "name a skill of this catalog, or remove `owner`".to_string(),
        };
        out.push(
            NEGATIVE_OWNER
                .diag(
                    file,
                    format!("owner `{owner}` of a negative prompt is not a skill in the catalog"),
                )
                .with_span(span)
                .with_help(help),
        );
    }
}
