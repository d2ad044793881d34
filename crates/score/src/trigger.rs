//! Trigger metrics over `with` runs (one run = one case × trial).
//!
//! A run *triggered* when its `invokedSkills` names the tested skill. With
//! `expectTrigger` as truth: TP = expected and triggered, FP = not expected
//! and triggered, FN = expected and not triggered, TN = neither.
//!
//! - precision = TP / (TP + FP)
//! - recall    = TP / (TP + FN)
//! - F1        = 2·TP / (2·TP + FP + FN) (the harmonic mean of the two when
//!   both exist)
//!
//! A metric whose denominator is 0 is `None` (`null` in JSON), never 0 or 1.

use serde::Serialize;

/// Confusion counts over runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Confusion {
    pub tp: u64,
    pub fp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
    pub tn: u64,
}

impl Confusion {
    /// Count one run.
    pub fn add(&mut self, expected: bool, triggered: bool) {
        match (expected, triggered) {
            (true, true) => self.tp += 1,
            (false, true) => self.fp += 1,
            (true, false) => self.fn_ += 1,
            (false, false) => self.tn += 1,
        }
    }

    pub fn precision(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fp)
    }

    pub fn recall(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fn_)
    }

    pub fn f1(&self) -> Option<f64> {
        ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }
}

fn ratio(num: u64, den: u64) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

/// Whether a case passes by majority over its runs: a should-trigger case
/// when it triggered in more than half of them (2 of 3), a should-not case
/// when it triggered in fewer than half (at most 1 of 3). An exact tie (2 of
/// 4) passes neither: a coin flip is not a reliable trigger or non-trigger.
pub fn case_passes(expected: bool, triggered: u64, runs: u64) -> bool {
    if expected {
        2 * triggered > runs
    } else {
        2 * triggered < runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conf(tp: u64, fp: u64, fn_: u64, tn: u64) -> Confusion {
        Confusion { tp, fp, fn_, tn }
    }

    #[test]
    fn counts_each_outcome() {
        let mut c = Confusion::default();
        c.add(true, true);
        c.add(true, false);
        c.add(false, true);
        c.add(false, false);
        c.add(false, false);
        assert_eq!(c, conf(1, 1, 1, 2));
    }

    #[test]
    fn hand_checked_metrics() {
        // TP 8, FP 2, FN 4: precision 8/10, recall 8/12, F1 16/22.
        let c = conf(8, 2, 4, 6);
        assert_eq!(c.precision(), Some(0.8));
        assert_eq!(c.recall(), Some(8.0 / 12.0));
        assert_eq!(c.f1(), Some(16.0 / 22.0));
        // F1 equals the harmonic mean of precision and recall.
        let (p, r) = (0.8, 8.0 / 12.0);
        assert!((c.f1().unwrap() - 2.0 * p * r / (p + r)).abs() < 1e-15);
    }

    #[test]
    fn zero_denominators_are_null_not_zero_or_one() {
        // Never triggered, nothing expected: nothing to measure.
        let c = conf(0, 0, 0, 9);
        assert_eq!((c.precision(), c.recall(), c.f1()), (None, None, None));
        // Never triggered, some expected: precision undefined, recall 0.
        let c = conf(0, 0, 3, 3);
        assert_eq!(
            (c.precision(), c.recall(), c.f1()),
            (None, Some(0.0), Some(0.0))
        );
        // Triggered only on should-not prompts: recall undefined.
        let c = conf(0, 2, 0, 3);
        assert_eq!(
            (c.precision(), c.recall(), c.f1()),
            (Some(0.0), None, Some(0.0))
        );
        // Empty.
        let c = Confusion::default();
        assert_eq!((c.precision(), c.recall(), c.f1()), (None, None, None));
    }

    #[test]
    fn perfect_scores_are_one() {
        let c = conf(5, 0, 0, 5);
        assert_eq!(
            (c.precision(), c.recall(), c.f1()),
            (Some(1.0), Some(1.0), Some(1.0))
        );
    }

    #[test]
    fn majority_rule_two_of_three() {
        assert!(case_passes(true, 2, 3));
        assert!(case_passes(true, 3, 3));
        assert!(!case_passes(true, 1, 3));
        assert!(case_passes(false, 1, 3));
        assert!(case_passes(false, 0, 3));
        assert!(!case_passes(false, 2, 3));
    }

    #[test]
    fn majority_rule_tie_passes_neither_side() {
        assert!(!case_passes(true, 2, 4));
        assert!(!case_passes(false, 2, 4));
        assert!(case_passes(true, 3, 4));
        assert!(case_passes(false, 1, 4));
        assert!(case_passes(true, 1, 1));
        assert!(case_passes(false, 0, 1));
    }
}
