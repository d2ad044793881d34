//! SG407: at least `[cases] min-positive` / `min-negative` / `min-evals`.

use super::root;
use crate::catalog::Catalog;
use crate::catalog::cases::Suite;
use crate::config::Config;
use crate::diag::{Diagnostic, Severity};
use crate::rule;

rule! {
    /// ## What it does
    /// Requires each case file to hold at least `[cases] min-positive`
    /// positive prompts (default 3) and `min-negative` negative prompts
    /// (default 2): an error when the catalog sets the minimum, a warning
    /// when only the default asks for it (a catalog adopting trigger tests
    /// with one or two per skill is told, not failed), and, when the
    /// catalog sets `min-evals`, that many
    /// behavioral evals (unset by default: evals are Tier 3's, and a
    /// catalog adopting trigger tests is not failed for having none). A skill
    /// whose cases are (also) in its own folder is held to the same
    /// minimums over all its files together; a skill whose cases are
    /// behavioral evals only (skill-creator's `evals/evals.json`) has not
    /// taken up trigger tests, and the trigger minimums do not apply; drafts (SG423) do not count,
    /// and a skill with drafts is SG423's to report: it says what is left
    /// to write.
    /// Every list short of its minimum is named in one finding per file
    /// (per skill, for a skill's own files), with what to add to each.
    ///
    /// ## Why is this bad?
    /// One prompt is an anecdote: a description can match it by luck.
    /// Several paraphrases, prompts that must route elsewhere, and an eval
    /// of the skill's behavior are what make a routing or behavior change
    /// visible.
    ///
    /// ## Example
    /// ```toml
    /// # skillsift.toml
    /// [cases]
    /// min-positive = 5
    /// ```
    pub static MINIMUMS = ("SG407", "case-minimums", Error, "too few positive, negative or behavioral cases");
}

pub fn check(catalog: &Catalog, config: &Config, out: &mut Vec<Diagnostic>) {
    let c = &config.cases;
    // a suite with drafts: SG423 says what is left to write (drafts are
    // drafts, and the minimums wait until they are rewritten)
    let drafted: std::collections::HashSet<&str> = catalog
        .suites
        .iter()
        .filter(|s| !s.drafts.is_empty())
        .flat_map(|s| s.files.iter().map(String::as_str))
        .collect();
    for suite in catalog
        .suites
        .iter()
        .filter(|s| !s.case_files_only() && s.drafts.is_empty())
    {
        check_suite(catalog, suite, config, out);
    }
    // case files merged with the skills' own files: counted above
    let merged: std::collections::HashSet<&str> = catalog
        .suites
        .iter()
        .filter(|s| !s.case_files_only())
        .flat_map(|s| s.files.iter().map(String::as_str))
        .collect();
    for case in &catalog.cases {
        if merged.contains(case.file.as_str()) || drafted.contains(case.file.as_str()) {
            continue;
        }
        let Some(root) = root(case) else { continue };
        let trigger = root.get("trigger").filter(|t| t.as_object().is_some());
        let lists = [
            (
                "positive trigger prompts",
                "trigger.positive",
                trigger.and_then(|t| t.get("positive")),
                trigger.unwrap_or(root),
                c.min_positive(),
                "min-positive",
                "add realistic prompts that should route to this skill, in users' words",
            ),
            (
                "negative trigger prompts",
                "trigger.negative",
                trigger.and_then(|t| t.get("negative")),
                trigger.unwrap_or(root),
                c.min_negative(),
                "min-negative",
                "add prompts that belong to another skill, with that skill as `owner`",
            ),
            (
                "behavioral evals",
                "evals",
                root.get("evals"),
                root,
                c.min_evals(),
                "min-evals",
                "add an eval with id, prompt, expected_output and expectations",
            ),
        ];
        // a case file of behavioral evals only: trigger minimums do not
        // apply (see `check_suite`)
        let evals_only = trigger.is_none()
            && root.get("positive").is_none()
            && root.get("negative").is_none()
            && root
                .get("evals")
                .and_then(|e| e.as_array())
                .is_some_and(|a| !a.is_empty());
        let mut short = Shortfalls::default();
        for (what, key, list, parent, min, config_key, help) in lists {
            if evals_only && config_key != "min-evals" {
                continue;
            }
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
            let item = if list.is_none() {
                format!("0 {what}, no `{key}` (minimum {min})")
            } else {
                format!("{n} {} (minimum {min})", counted(n, what))
            };
            short.add(
                item,
                help,
                (config_key, enforced(c, config_key)),
                Some(span),
            );
        }
        if let Some(d) = short.finish(&case.file, "too few cases", "") {
            out.push(d);
        }
    }
}

/// Whether the catalog set the minimum `key` itself: falling short of a
/// default is a warning, of a minimum the catalog chose an error.
fn enforced(c: &crate::config::CasesConfig, key: &str) -> bool {
    match key {
        "min-positive" => c.min_positive.is_some(),
        "min-negative" => c.min_negative.is_some(),
        _ => true,
    }
}

/// `what` (a plural: "positive trigger prompts") for a count of `n`.
fn counted(n: usize, what: &str) -> String {
    match (n, what.strip_suffix('s')) {
        (1, Some(one)) => one.to_string(),
        _ => what.to_string(),
    }
}

/// What one file or suite lacks, gathered into one finding (one rule, one
/// file, one finding): each list short of its minimum, what to add to
/// each, and the first list's place.
#[derive(Default)]
struct Shortfalls {
    items: Vec<String>,
    helps: Vec<String>,
    keys: Vec<&'static str>,
    span: Option<crate::diag::Span>,
    /// Whether a minimum short of is one the catalog set itself (an
    /// error); the defaults alone make a warning.
    enforced: bool,
}

impl Shortfalls {
    fn add(
        &mut self,
        item: String,
        help: &str,
        (key, enforced): (&'static str, bool),
        span: Option<crate::diag::Span>,
    ) {
        self.enforced |= enforced;
        self.items.push(item);
        self.helps.push(help.to_string());
        self.keys.push(key);
        if self.span.is_none() {
            self.span = span;
        }
    }

    /// The finding, `None` when nothing is short: `lead`, then each list
    /// short of its minimum; `also` ends the help.
    fn finish(self, file: &str, lead: &str, also: &str) -> Option<Diagnostic> {
        if self.items.is_empty() {
            return None;
        }
        let keys: Vec<String> = self.keys.iter().map(|k| format!("[cases] {k}")).collect();
        let (severity, whose) = if self.enforced {
            (Severity::Error, " in skillsift.toml".to_string())
        } else {
            (
                Severity::Warning,
                format!(
                    ", unset in skillsift.toml, so this is a warning; set {} to make falling short an error",
                    if keys.len() == 1 { "it" } else { "them" }
                ),
            )
        };
        Some(
            MINIMUMS
                .diag(file, format!("{lead}: {}", self.items.join("; ")))
                .with_severity(severity)
                .with_span_opt(self.span)
                .with_help(format!(
                    "{} (the {} {}{whose}{also})",
                    self.helps.join("; "),
                    if keys.len() == 1 {
                        "minimum is"
                    } else {
                        "minimums are"
                    },
                    keys.join(", ")
                )),
        )
    }
}

/// The minimums over a whole suite, reported at its first file.
fn check_suite(catalog: &Catalog, suite: &Suite, config: &Config, out: &mut Vec<Diagnostic>) {
    let c = &config.cases;
    let drafts = |positive: bool| {
        suite
            .drafts
            .iter()
            .filter(|d| (d.side == crate::catalog::cases::Side::Positive) == positive)
            .count()
    };
    let lists = [
        (
            "positive trigger prompts",
            suite.positive.len(),
            drafts(true),
            c.min_positive(),
            "min-positive",
            "add realistic prompts that should route to this skill, in users' words (`should_trigger: true` rows of a trigger set)",
        ),
        (
            "negative trigger prompts",
            suite.negative.len(),
            drafts(false),
            c.min_negative(),
            "min-negative",
            "add prompts that belong to another skill (`should_trigger: false` rows, with that skill as `owner`)",
        ),
        (
            "behavioral evals",
            suite.evals.len(),
            0,
            c.min_evals(),
            "min-evals",
            "add an eval with id, prompt, expected_output and expectations to the skill's evals/evals.json",
        ),
    ];
    let Some(first) = suite.files.first() else {
        return;
    };
    // behavioral evals only (skill-creator's evals.json): the skill has
    // not taken up trigger tests, whose minimums then do not apply
    let evals_only = suite.positive.is_empty()
        && suite.negative.is_empty()
        && suite.drafts.is_empty()
        && !suite.evals.is_empty();
    let skill_file = suite.skill.map(|i| catalog.skills[i].file.as_str());
    let mut short = Shortfalls::default();
    for (what, n, draft, min, key, help) in lists {
        if n >= min || (evals_only && key != "min-evals") {
            continue;
        }
        let drafted = match draft {
            0 => String::new(),
            1 => ", 1 draft not counted".to_string(),
            d => format!(", {d} drafts not counted"),
        };
        short.add(
            format!("{n} {what} (minimum {min}{drafted})"),
            help,
            (key, enforced(c, key)),
            None,
        );
    }
    let lead = format!(
        "`{}` has too few cases across {}",
        suite.name,
        suite.files.join(", ")
    );
    let also = skill_file
        .map(|f| format!("; the skill is {f}"))
        .unwrap_or_default();
    if let Some(d) = short.finish(first, &lead, &also) {
        out.push(d);
    }
}

/// What a suite lacks, for SG423: "1 more positive trigger prompt
/// (minimum 3)", in the order of the minimums; drafts do not count.
pub fn left_to_write(suite: &Suite, config: &Config) -> Vec<String> {
    let c = &config.cases;
    [
        (
            suite.positive.len(),
            c.min_positive(),
            "positive trigger prompts",
        ),
        (
            suite.negative.len(),
            c.min_negative(),
            "negative trigger prompts",
        ),
        (suite.evals.len(), c.min_evals(), "behavioral evals"),
    ]
    .into_iter()
    .filter(|(n, min, _)| n < min)
    .map(|(n, min, what)| {
        format!(
            "{} {}{} (minimum {min})",
            min - n,
            if n > 0 { "more " } else { "" },
            counted(min - n, what)
        )
    })
    .collect()
}
