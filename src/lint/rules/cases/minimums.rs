//! SG407: at least `[cases] min-positive` / `min-negative` / `min-evals`.

use super::root;
use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Requires each case file to hold at least `[cases] min-positive`
    /// positive prompts (default 3), `min-negative` negative prompts
    /// (default 2) and `min-evals` behavioral evals (default 1).
    ///
    /// ## Why is this bad?
    /// One prompt is an anecdote: a description can match it by luck.
    /// Several paraphrases, prompts that must route elsewhere, and an eval
    /// of the skill's behavior are what make a routing or behavior change
    /// visible.
    ///
    /// ## Example
    /// ```toml
    /// # skillgate.toml
    /// [cases]
    /// min-positive = 5
    /// ```
    pub static MINIMUMS = ("SG407", "case-minimums", Error, "too few positive, negative or behavioral cases");
}

pub fn check(catalog: &Catalog, config: &Config, out: &mut Vec<Diagnostic>) {
    let c = &config.cases;
    for case in &catalog.cases {
        let Some(root) = root(case) else { continue };
        let trigger = root.get("trigger").filter(|t| t.as_object().is_some());
        let lists = [
            (
                "positive trigger prompts",
                "trigger.positive",
                trigger.and_then(|t| t.get("positive")),
                trigger.unwrap_or(root),
                c.min_positive,
                "min-positive",
                "add realistic prompts that should route to this skill, in users' words",
            ),
            (
                "negative trigger prompts",
                "trigger.negative",
                trigger.and_then(|t| t.get("negative")),
                trigger.unwrap_or(root),
                c.min_negative,
                "min-negative",
                "add prompts that belong to another skill, with that skill as `owner`",
            ),
            (
                "behavioral evals",
                "evals",
                root.get("evals"),
                root,
                c.min_evals,
                "min-evals",
                "add an eval with id, prompt, expected_output and expectations",
            ),
        ];
        for (what, key, list, parent, min, config_key, help) in lists {
            // count what is written; malformed entries are SG403's and SG408's
            let n = match list {
                Some(v) => match v.as_array() {
                    Some(a) => a.len(),
                    None => continue,
                },
                None => 0,
            };
            if n >= min {
                continue;
            }
            let span = match list {
                Some(v) => case.value_span(v),
                None => case.span(parent.start, parent.start + 1),
            };
            let message = if list.is_none() {
                format!("no `{key}`: 0 {what}, fewer than the minimum of {min}")
            } else {
                format!("{n} {what}, fewer than the minimum of {min}")
            };
            out.push(
                MINIMUMS
                    .diag(&case.file, message)
                    .with_span(span)
                    .with_help(format!(
                        "{help} (the minimum is [cases] {config_key} in skillgate.toml)"
                    )),
            );
        }
    }
}
