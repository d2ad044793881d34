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
//!
//! Version 2 adds `findings`: every other finding of the run (not the
//! per-prompt checks above, nor SG505/SG506), each as its rule,
//! file and a fingerprint of what it is about (the message with its
//! numbers blanked, and the source line it points at, trimmed), never its
//! line number, so editing above a finding does not make it new.
//! `--baseline` hides the findings the file lists ("known") and reports
//! how many remain known and which listed findings are gone. A version 1
//! file (routing only) is still read; it accepts no findings.

use super::cases::{Kind, Outcome};
use super::rules;
use crate::diag::{Diagnostic, Severity};
use crate::exit::Fatal;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// Largest baseline file read.
const MAX_BASELINE_BYTES: u64 = 64 * 1024 * 1024;
const VERSION: u32 = 2;

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
    /// The run's findings (version 2); absent in a routing-only file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub findings: Option<Vec<Finding>>,
}

/// One finding as recorded.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finding {
    pub rule: String,
    pub file: String,
    /// SHA-256 (hex, 16 digits) of what the finding is about.
    pub fingerprint: String,
    /// The message when recorded, for people reading the file.
    pub message: String,
}

/// What a finding is about, independent of its line: the message with
/// digit runs blanked, and the trimmed source line its span starts on. A
/// finding about the whole catalog (SG520: the listing over its budget)
/// is the client's listing alone: its message up to the first `:`, never
/// the skills it names, its file or its line, all of which other files'
/// descriptions change.
pub fn fingerprint(d: &Diagnostic, sources: &crate::catalog::SourceMap) -> String {
    use sha2::{Digest, Sha256};
    let whole_catalog = about_whole_catalog(d.rule);
    let message = if whole_catalog {
        d.message.split(':').next().unwrap_or("")
    } else {
        d.message.as_str()
    };
    let mut blanked = String::with_capacity(message.len());
    let mut digit = false;
    for c in message.chars() {
        if c.is_ascii_digit() {
            if !digit {
                blanked.push('0');
            }
            digit = true;
        } else {
            blanked.push(c);
            digit = false;
        }
    }
    let line = match (d.span, sources.get(&d.file)) {
        _ if whole_catalog => "",
        (Some(s), Some(src)) => src.fingerprint_text(&s),
        _ => "",
    };
    let file = if whole_catalog { "" } else { d.file.as_str() };
    let mut h = Sha256::new();
    for part in [d.rule, file, blanked.as_str(), line] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    let digest = h.finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `rule`'s finding is about the whole catalog, wherever it is
/// shown: matched by rule and fingerprint alone, not by its file.
fn about_whole_catalog(rule: &str) -> bool {
    rule == rules::LISTING_BUDGET.id
}

/// The key a recorded finding is matched by: rule, file (none for a
/// finding about the whole catalog) and fingerprint.
fn match_key(rule: &str, file: &str, fingerprint: String) -> (String, String, String) {
    let file = if about_whole_catalog(rule) { "" } else { file };
    (rule.to_string(), file.to_string(), fingerprint)
}

/// Whether the findings half of a baseline covers `d`: not the per-prompt
/// checks (SG501–SG504), which the routing half matches by prompt, nor the
/// rank-1 floor and regressions (SG505, SG506), which are never accepted.
pub fn recorded(d: &Diagnostic) -> bool {
    ![
        rules::POSITIVE_MISSED.id,
        rules::POSITIVE_NO_VOCABULARY.id,
        rules::NEGATIVE_FIRST.id,
        rules::OWNER_NOT_AHEAD.id,
        rules::RANK1_FLOOR.id,
        rules::BASELINE_REGRESSION.id,
    ]
    .contains(&d.rule)
}

/// The findings a baseline records for `diags`, sorted (see [`recorded`]).
pub fn findings_of(diags: &[Diagnostic], sources: &crate::catalog::SourceMap) -> Vec<Finding> {
    let mut v: Vec<Finding> = diags
        .iter()
        .filter(|d| recorded(d))
        .map(|d| Finding {
            rule: d.rule.to_string(),
            file: d.file.clone(),
            fingerprint: fingerprint(d, sources),
            message: d.message.clone(),
        })
        .collect();
    v.sort();
    v
}

/// What matching this run's findings against a baseline's left.
#[derive(Debug, Default, PartialEq)]
pub struct Known {
    /// Findings hidden as known.
    pub known: usize,
    /// The baseline's findings this run no longer has.
    pub fixed: Vec<Finding>,
}

/// Drop from `diags` the findings `old` lists (each entry accepts one
/// finding: two identical findings need two entries).
pub fn drop_known(
    diags: &mut Vec<Diagnostic>,
    old: &[Finding],
    sources: &crate::catalog::SourceMap,
) -> Known {
    let mut left: HashMap<(String, String, String), usize> = HashMap::new();
    for f in old {
        *left
            .entry(match_key(&f.rule, &f.file, f.fingerprint.clone()))
            .or_insert(0) += 1;
    }
    let mut known = 0;
    diags.retain(|d| {
        if !recorded(d) {
            return true;
        }
        let fp = fingerprint(d, sources);
        match left.get_mut(&match_key(d.rule, &d.file, fp)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                known += 1;
                false
            }
            _ => true,
        }
    });
    let mut fixed = Vec::new();
    for f in old {
        let key = match_key(&f.rule, &f.file, f.fingerprint.clone());
        if let Some(n) = left.get_mut(&key)
            && *n > 0
        {
            *n -= 1;
            fixed.push(f.clone());
        }
    }
    Known { known, fixed }
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
            findings: None,
        }
    }

    pub fn load(path: &Path) -> Result<Baseline, Fatal> {
        let shown = path.display();
        let help = "write one with `skillsift check --save-baseline FILE`";
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
            Fatal::usage(format!("{shown}: not a skillsift baseline: {e}")).with_help(help)
        })?;
        if b.version != VERSION && b.version != 1 {
            return Err(Fatal::usage(format!(
                "{shown}: baseline version {} is not supported (expected 1 or {VERSION})",
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
                        "`skillsift rank \"{}\" --explain` shows which skill overtook it and why",
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
