//! Per-expectation statistics, beside the per-case task statistics.
//!
//! The task uplift (`task.rs`, `uplift.rs`) counts one verdict per run
//! (every expectation passed, or not) and resamples *cases*. The figures
//! here count one verdict per expectation per run, so they say something
//! else and are reported apart:
//!
//! - **Blockers**: every blocker of every case must pass in every `with`
//!   trial. Each failure is listed with its case, trial and the evidence
//!   (the grader's or the check's words). One failure fails the release.
//! - **Quality delta**: the pass rate of quality expectations with the
//!   skill minus without, in percentage points, pooled over every quality
//!   expectation of every case and trial (a case with more expectations
//!   weighs more; verdicts of one run are not independent, so no interval
//!   is claimed for it). Computed from exact counts, so 3/5 − 2/5 is 20
//!   points, not 19.999….
//! - **Blockers the skill fixes**: a blocker that fails in at least one
//!   `without` trial and passes in every `with` trial (the quality-delta
//!   gate passes on one, whatever the delta).
//! - **Assertions that do not discriminate**: an expectation that passed
//!   in both arms in every trial (it inflates the score: remove it or make
//!   it harder) or failed in both in every trial (it breaks the score:
//!   repair it). A blocker that always passes is a guard doing its job and
//!   is not listed.

use super::Runs;
use super::input::{Case, ExpectKind};
use serde::Serialize;

/// A blocker that failed in a `with` trial.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockerFailure {
    pub case: String,
    pub expectation: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    pub trial: u32,
    pub evidence: String,
}

/// A blocker the baseline fails and the skill passes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FixedBlocker {
    pub case: String,
    pub expectation: String,
    /// `without` trials in which it failed.
    pub without_failed: u32,
    pub trials: u32,
}

/// Every blocker's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Blockers {
    /// Blockers declared (over every case).
    pub expectations: usize,
    /// Their verdicts in `with` runs.
    pub with_verdicts: u64,
    pub failures: Vec<BlockerFailure>,
    pub fixed: Vec<FixedBlocker>,
}

/// The quality pass rates and their difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quality {
    /// Quality expectations declared (over every case).
    pub expectations: usize,
    pub with_passed: u64,
    pub with_total: u64,
    pub without_passed: u64,
    pub without_total: u64,
    pub with_pass_rate: f64,
    pub without_pass_rate: f64,
    /// (with − without) × 100.
    pub delta_points: f64,
}

/// An expectation with the same verdict in both arms in every trial.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NonDiscriminating {
    pub case: String,
    pub expectation: String,
    pub kind: ExpectKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// `passes` or `fails`.
    pub always: &'static str,
    /// What to do about it.
    pub fix: &'static str,
}

/// One expectation's passes per arm.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    pub case: String,
    pub expectation: String,
    pub kind: ExpectKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    pub with_passed: u32,
    pub without_passed: u32,
    pub trials: u32,
}

/// Everything counted per expectation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExpectationReport {
    pub blockers: Blockers,
    /// `null` when no case has a quality expectation.
    pub quality: Option<Quality>,
    pub non_discriminating: Vec<NonDiscriminating>,
    /// Every expectation of every case, in cases.jsonl order.
    pub items: Vec<Item>,
}

/// What a non-discriminating assertion needs.
pub const INFLATES: &str = "remove it, or make it harder: it passes with and without the skill in every trial, so it only inflates the score";
/// What an assertion failing everywhere needs.
pub const BREAKS: &str = "repair it: it fails with and without the skill in every trial (a wrong expectation, an impossible check or a broken fixture), so it only lowers the score";

/// The per-expectation figures; `None` when no case declares
/// expectations.
pub fn report(cases: &[Case], runs: &Runs) -> Option<ExpectationReport> {
    if cases.iter().all(|c| c.expectations.is_empty()) {
        return None;
    }
    let n = runs.trials as usize;
    fn verdict(arm: &[Vec<(bool, String)>], at: usize, ei: usize) -> (bool, &str) {
        arm.get(at)
            .and_then(|v| v.get(ei))
            .map_or((false, ""), |(p, e)| (*p, e.as_str()))
    }
    let mut blockers = Blockers {
        expectations: 0,
        with_verdicts: 0,
        failures: Vec::new(),
        fixed: Vec::new(),
    };
    let (mut wp, mut wt, mut op, mut ot, mut quality_n) = (0u64, 0u64, 0u64, 0u64, 0usize);
    let mut non = Vec::new();
    let mut items = Vec::new();
    for (ci, c) in cases.iter().enumerate() {
        for (ei, e) in c.expectations.iter().enumerate() {
            let with: Vec<(bool, &str)> = (0..n)
                .map(|t| verdict(&runs.with_verdicts, ci * n + t, ei))
                .collect();
            let without: Vec<bool> = (0..n)
                .map(|t| verdict(&runs.without_verdicts, ci * n + t, ei).0)
                .collect();
            let w = with.iter().filter(|v| v.0).count() as u32;
            let o = without.iter().filter(|&&p| p).count() as u32;
            match e.kind {
                ExpectKind::Blocker => {
                    blockers.expectations += 1;
                    blockers.with_verdicts += n as u64;
                    for (t, (passed, evidence)) in with.iter().enumerate() {
                        if !passed {
                            blockers.failures.push(BlockerFailure {
                                case: c.id.clone(),
                                expectation: e.text.clone(),
                                check: e.check.clone(),
                                trial: t as u32 + 1,
                                evidence: evidence.to_string(),
                            });
                        }
                    }
                    if w as usize == n && (o as usize) < n {
                        blockers.fixed.push(FixedBlocker {
                            case: c.id.clone(),
                            expectation: e.text.clone(),
                            without_failed: n as u32 - o,
                            trials: n as u32,
                        });
                    }
                }
                ExpectKind::Quality => {
                    quality_n += 1;
                    wp += u64::from(w);
                    op += u64::from(o);
                    wt += n as u64;
                    ot += n as u64;
                }
            }
            let all = n as u32;
            let always = match (w, o) {
                (w, o) if w == all && o == all && e.kind == ExpectKind::Quality => {
                    Some(("passes", INFLATES))
                }
                (0, 0) if n > 0 => Some(("fails", BREAKS)),
                _ => None,
            };
            if let Some((always, fix)) = always {
                non.push(NonDiscriminating {
                    case: c.id.clone(),
                    expectation: e.text.clone(),
                    kind: e.kind,
                    check: e.check.clone(),
                    always,
                    fix,
                });
            }
            items.push(Item {
                case: c.id.clone(),
                expectation: e.text.clone(),
                kind: e.kind,
                check: e.check.clone(),
                with_passed: w,
                without_passed: o,
                trials: n as u32,
            });
        }
    }
    let quality = (quality_n > 0 && wt > 0 && ot > 0).then(|| Quality {
        expectations: quality_n,
        with_passed: wp,
        with_total: wt,
        without_passed: op,
        without_total: ot,
        with_pass_rate: wp as f64 / wt as f64,
        without_pass_rate: op as f64 / ot as f64,
        delta_points: delta_points(wp, wt, op, ot),
    });
    Some(ExpectationReport {
        blockers,
        quality,
        non_discriminating: non,
        items,
    })
}

/// (wp/wt − op/ot) × 100 from exact integers, rounded once.
pub fn delta_points(wp: u64, wt: u64, op: u64, ot: u64) -> f64 {
    let num = 100 * (i128::from(wp) * i128::from(ot) - i128::from(op) * i128::from(wt));
    let den = i128::from(wt) * i128::from(ot);
    num as f64 / den as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::input::Expectation;

    fn case(id: &str, kinds: &[ExpectKind]) -> Case {
        Case {
            id: id.into(),
            prompt: id.into(),
            expect_trigger: true,
            task: None,
            split: None,
            expectations: kinds
                .iter()
                .enumerate()
                .map(|(i, k)| Expectation {
                    text: format!("{id}-e{i}"),
                    kind: *k,
                    check: None,
                })
                .collect(),
            owner: None,
            line: 1,
            with_only: false,
        }
    }

    fn v(passes: &[bool]) -> Vec<(bool, String)> {
        passes.iter().map(|&p| (p, format!("saw {p}"))).collect()
    }

    #[test]
    fn exact_points_blockers_and_assertions_that_do_not_discriminate() {
        use ExpectKind::{Blocker, Quality};
        // one case, 3 trials: [blocker, quality, quality]
        let cases = vec![case("c", &[Blocker, Quality, Quality])];
        let runs = Runs {
            trials: 3,
            with_verdicts: vec![
                v(&[true, true, true]),
                v(&[false, true, false]),
                v(&[true, true, false]),
            ],
            without_verdicts: vec![
                v(&[false, true, false]),
                v(&[true, true, false]),
                v(&[true, true, false]),
            ],
            ..Runs::default()
        };
        let r = report(&cases, &runs).unwrap();
        assert_eq!(r.blockers.failures.len(), 1);
        assert_eq!(r.blockers.failures[0].trial, 2);
        assert_eq!(r.blockers.failures[0].evidence, "saw false");
        assert!(r.blockers.fixed.is_empty());
        let q = r.quality.unwrap();
        // with 4/6, without 3/6
        assert_eq!((q.with_passed, q.with_total), (4, 6));
        assert_eq!((q.without_passed, q.without_total), (3, 6));
        assert_eq!(q.delta_points, 100.0 / 6.0);
        // e1 passes everywhere; e2 fails in both arms except one with trial
        assert_eq!(r.non_discriminating.len(), 1);
        assert_eq!(r.non_discriminating[0].expectation, "c-e1");
        assert_eq!(r.non_discriminating[0].always, "passes");
        assert_eq!(delta_points(3, 5, 2, 5), 20.0);
    }
}
