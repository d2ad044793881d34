//! Gates and the verdict.
//!
//! - `min_trigger_f1`: passes when trigger F1 ≥ the threshold. An undefined
//!   F1 (no should-trigger run and no trigger at all) fails: a gate never
//!   passes vacuously.
//! - `min_uplift`: passes when the lower bound of the uplift interval ≥ the
//!   threshold. Without task checks there is no interval: the verdict is
//!   `unavailable` (exit 4), not a pass or a zero uplift.
//!
//! - `min_quality_delta`: passes when the quality delta (points) ≥ the
//!   threshold, or when the skill passes a blocker the baseline fails.
//!   Without quality expectations and without such a blocker there is
//!   nothing to compare: `unavailable` (exit 4).
//! - `blockers` (whenever a case has a blocker): passes when every blocker
//!   passed in every `with` trial.
//! - `no_trigger_theft` (whenever cases belong to installed siblings):
//!   passes when the tested skill took none of their prompts.
//!
//! The verdict, first match wins: `fail` when a blocker failed or a
//! sibling's prompt was taken (a failure seen is evidence enough: more
//! cases cannot undo it, exit 1);
//! `insufficient` (fewer than the minimum number of distinct cases,
//! exit 3), `unavailable` (exit 4), `fail` (a gate failed, exit 1), `pass`
//! (exit 0).

use crate::exit::Exit;
use serde::Serialize;

/// One gate's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gate {
    /// `min_trigger_f1` or `min_uplift`.
    pub name: &'static str,
    pub threshold: f64,
    /// The measured value (F1, the interval's lower bound, the quality
    /// delta in points, failures); `null` when it does not exist.
    pub value: Option<f64>,
    pub passed: bool,
    /// Why it passed or failed, when the value alone does not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The quality-delta gate.
pub fn min_quality_delta(
    threshold: f64,
    delta: Option<f64>,
    fixed: &[super::expectations::FixedBlocker],
) -> Gate {
    let by_delta = delta.is_some_and(|d| d >= threshold);
    let note = match (by_delta, fixed.first()) {
        (false, Some(f)) => Some(format!(
            "passed: blocker \"{}\" of {} fails without the skill ({} of {} trials) and passes with it",
            f.expectation, f.case, f.without_failed, f.trials
        )),
        (false, None) if delta.is_none() => {
            Some("no quality expectation to compare, and no blocker the skill fixes".to_string())
        }
        _ => None,
    };
    Gate {
        name: "min_quality_delta",
        threshold,
        value: delta,
        passed: by_delta || !fixed.is_empty(),
        note,
    }
}

/// The blocker gate: no blocker failed in a `with` trial.
pub fn blockers(b: &super::expectations::Blockers) -> Gate {
    let n = b.failures.len();
    Gate {
        name: "blockers",
        threshold: 0.0,
        value: Some(n as f64),
        passed: n == 0,
        note: b.failures.first().map(|f| {
            format!(
                "blocker \"{}\" of {} failed in with-skill trial {}{}",
                f.expectation,
                f.case,
                f.trial,
                if n > 1 {
                    format!(
                        " (and {} more failure{})",
                        n - 1,
                        if n == 2 { "" } else { "s" }
                    )
                } else {
                    String::new()
                }
            )
        }),
    }
}

/// The trigger-theft gate: no sibling prompt taken.
pub fn no_trigger_theft(t: &super::Theft) -> Gate {
    let n = t.stolen.len();
    Gate {
        name: "no_trigger_theft",
        threshold: 0.0,
        value: Some(n as f64),
        passed: n == 0,
        note: t.stolen.first().map(|s| {
            format!(
                "{} of {} sibling prompts taken, first {} (owned by `{}`)",
                n, t.cases, s.case, s.owner
            )
        }),
    }
}

/// The trigger-F1 gate.
pub fn min_trigger_f1(threshold: f64, f1: Option<f64>) -> Gate {
    Gate {
        name: "min_trigger_f1",
        threshold,
        value: f1,
        passed: f1.is_some_and(|v| v >= threshold),
        note: None,
    }
}

/// The uplift gate on the interval's lower bound.
pub fn min_uplift(threshold: f64, ci_low: Option<f64>) -> Gate {
    Gate {
        name: "min_uplift",
        threshold,
        value: ci_low,
        passed: ci_low.is_some_and(|v| v >= threshold),
        note: None,
    }
}

/// What the evidence concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
    Insufficient,
    Unavailable,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Insufficient => "insufficient",
            Verdict::Unavailable => "unavailable",
        }
    }

    pub fn exit(self) -> Exit {
        match self {
            Verdict::Pass => Exit::Ok,
            Verdict::Fail => Exit::Failed,
            Verdict::Insufficient => Exit::Insufficient,
            Verdict::Unavailable => Exit::Unavailable,
        }
    }
}

/// Combine the evidence checks and the gates into a verdict.
pub fn verdict(insufficient: bool, unavailable: bool, gates: &[Gate]) -> Verdict {
    if gates
        .iter()
        .any(|g| matches!(g.name, "blockers" | "no_trigger_theft") && !g.passed)
    {
        Verdict::Fail
    } else if insufficient {
        Verdict::Insufficient
    } else if unavailable {
        Verdict::Unavailable
    } else if gates.iter().any(|g| !g.passed) {
        Verdict::Fail
    } else {
        Verdict::Pass
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f1_gate_passes_at_the_threshold_and_fails_below_or_undefined() {
        assert!(min_trigger_f1(0.9, Some(0.9)).passed);
        assert!(min_trigger_f1(0.9, Some(18.0 / 20.0)).passed);
        assert!(!min_trigger_f1(0.9, Some(17.0 / 19.0)).passed);
        assert!(!min_trigger_f1(0.0, None).passed);
    }

    #[test]
    fn uplift_gate_reads_the_lower_bound() {
        assert!(min_uplift(0.0, Some(0.0)).passed);
        assert!(!min_uplift(0.1, Some(0.05)).passed);
        assert!(!min_uplift(-1.0, None).passed);
    }

    #[test]
    fn verdict_order_and_exit_codes() {
        let fail = [min_trigger_f1(0.9, Some(0.5))];
        let pass = [min_trigger_f1(0.9, Some(1.0))];
        assert_eq!(verdict(true, true, &fail), Verdict::Insufficient);
        assert_eq!(verdict(false, true, &fail), Verdict::Unavailable);
        assert_eq!(verdict(false, false, &fail), Verdict::Fail);
        assert_eq!(verdict(false, false, &pass), Verdict::Pass);
        assert_eq!(verdict(false, false, &[]), Verdict::Pass);
        assert_eq!(Verdict::Pass.exit().code(), 0);
        assert_eq!(Verdict::Fail.exit().code(), 1);
        assert_eq!(Verdict::Insufficient.exit().code(), 3);
        assert_eq!(Verdict::Unavailable.exit().code(), 4);
    }
}
