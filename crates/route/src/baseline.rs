//! `--save-baseline FILE` and `--baseline FILE`: record every trigger
//! prompt's rank, then fail only on regressions.
//!
//! The file is JSON, sorted, byte-identical between runs:
//!
//! ```json
//! {"version": 1, "rank1": 67, "positives": 78,
//!  "prompts": [{"skill": "…", "kind": "positive", "prompt": "…",
//!               "rank": 1, "score": 0.412345, "rank1": true, "passed": true}]}
//! ```
//!
//! Against a baseline, a prompt is matched by (skill, kind, prompt text):
//!
//! - a check that fails now and failed in the baseline is downgraded to a
//!   warning ("already failing in the baseline");
//! - a check that fails now and passed in the baseline, or is new, stays an
//!   error;
//! - a positive whose skill ranked first in the baseline and no longer does
//!   is a regression (SG506), even within `top_k`;
//! - a rank-1 rate below the baseline's is a regression (SG506).

use super::cases::{Kind, Outcome};
use super::rules;
use crate::diag::{Diagnostic, Severity};
use crate::exit::Fatal;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// Largest baseline file read.
const MAX_BASELINE_BYTES: u64 = 64 * 1024 * 1024;
const VERSION: u32 = 1;

/// One prompt's routing as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub skill: String,
    pub kind: Kind,
    pub prompt: String,
    pub rank: usize,
    pub score: f64,
    pub rank1: bool,
    pub passed: bool,
}

/// A recorded run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub version: u32,
    pub rank1: usize,
    pub positives: usize,
    pub prompts: Vec<Entry>,
}

impl Baseline {
    pub fn from_outcome(o: &Outcome) -> Baseline {
        let mut prompts: Vec<Entry> = o
            .prompts
            .iter()
            .map(|p| Entry {
                skill: p.skill.clone(),
                kind: p.kind,
                prompt: p.prompt.clone(),
                rank: p.rank,
                score: (p.score * 1e6).round() / 1e6,
                rank1: p.rank1,
                passed: p.passed,
            })
            .collect();
        prompts.sort_by(|a, b| (&a.skill, a.kind, &a.prompt).cmp(&(&b.skill, b.kind, &b.prompt)));
        Baseline {
            version: VERSION,
            rank1: o.rank1,
            positives: o.positives,
            prompts,
        }
    }

    pub fn load(path: &Path) -> Result<Baseline, Fatal> {
        let shown = path.display();
        let help = "write one with `skillgate check --save-baseline FILE`";
        let bytes = crate::catalog::read_bounded(path, MAX_BASELINE_BYTES)
            .map_err(|e| {
                Fatal::usage(format!("{shown}: cannot read baseline: {e}")).with_help(help)
            })?
            .ok_or_else(|| {
                Fatal::usage(format!(
                    "{shown}: baseline is larger than {MAX_BASELINE_BYTES} bytes"
                ))
            })?;
        let b: Baseline = serde_json::from_slice(&bytes).map_err(|e| {
            Fatal::usage(format!("{shown}: not a skillgate baseline: {e}")).with_help(help)
        })?;
        if b.version != VERSION {
            return Err(Fatal::usage(format!(
                "{shown}: baseline version {} is not supported (expected {VERSION})",
                b.version
            ))
            .with_help(help));
        }
        Ok(b)
    }

    pub fn save(&self, path: &Path) -> Result<(), Fatal> {
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| Fatal::usage(format!("cannot encode baseline: {e}")))?;
        text.push('\n');
        std::fs::write(path, text)
            .map_err(|e| Fatal::usage(format!("{}: cannot write baseline: {e}", path.display())))
    }
}

/// What comparing with a baseline changed.
#[derive(Debug, Default)]
pub struct Comparison {
    /// New findings: regressions and downgraded known failures.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings to drop (each replaced by its downgraded copy).
    pub replaced: Vec<Diagnostic>,
    /// A regression was found.
    pub regressed: bool,
}

fn pct(rank1: usize, positives: usize) -> String {
    if positives == 0 {
        "n/a".into()
    } else {
        format!("{:.0}%", 100.0 * rank1 as f64 / positives as f64)
    }
}

/// Compare this run (`now`, with its `outcome`) against `old`; `origin`
/// names the baseline file in findings.
pub fn compare(old: &Baseline, now: &Baseline, outcome: &Outcome, origin: &str) -> Comparison {
    let mut c = Comparison::default();
    let by_key: HashMap<(&str, Kind, &str), &Entry> = old
        .prompts
        .iter()
        .map(|e| ((e.skill.as_str(), e.kind, e.prompt.as_str()), e))
        .collect();
    for p in &outcome.prompts {
        let before = by_key.get(&(p.skill.as_str(), p.kind, p.prompt.as_str()));
        if !p.passed {
            if before.is_some_and(|b| !b.passed) {
                for d in &p.diagnostics {
                    c.replaced.push(d.clone());
                    let mut w = d.clone().with_severity(Severity::Warning);
                    w.message.push_str(" (already failing in the baseline)");
                    c.diagnostics.push(w);
                }
            }
            continue;
        }
        if p.kind == Kind::Positive && !p.rank1 && before.is_some_and(|b| b.rank1) {
            c.regressed = true;
            c.diagnostics.push(
                rules::BASELINE_REGRESSION
                    .diag(
                        &p.file,
                        format!(
                            "`{}`: positive prompt ranked its skill first in the baseline, now #{}",
                            p.skill, p.rank
                        ),
                    )
                    .with_span(p.span)
                    .with_label(format!("now #{} at {:.2}", p.rank, p.score))
                    .with_help(format!(
                        "`skillgate rank \"{}\" --explain` shows which skill overtook it and why",
                        p.prompt.replace('"', "\\\"")
                    )),
            );
        }
    }
    // rank1/positives < old.rank1/old.positives, without rounding
    let lower = if now.positives == 0 || old.positives == 0 {
        now.positives == 0 && old.positives > 0 && old.rank1 > 0
    } else {
        (now.rank1 as u128) * (old.positives as u128)
            < (old.rank1 as u128) * (now.positives as u128)
    };
    if lower {
        c.regressed = true;
        c.diagnostics.push(
            rules::BASELINE_REGRESSION
                .diag(
                    origin,
                    format!(
                        "trigger rank-1 rate fell from {} ({}/{}) in the baseline to {} ({}/{})",
                        pct(old.rank1, old.positives),
                        old.rank1,
                        old.positives,
                        pct(now.rank1, now.positives),
                        now.rank1,
                        now.positives
                    ),
                )
                .with_help("fix the prompts reported above, or save a new baseline if the change is intended"),
        );
    }
    c
}
