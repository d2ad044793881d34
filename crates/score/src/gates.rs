//! The scorer's gates: what `check --behavioral`, `score` and `merge` hold
//! an iteration to (the binary's flags fill them in).

use serde::{Deserialize, Serialize};

/// The scorer's seed and gates, shared by `check --behavioral`, `score`
/// and `merge`.
/// `check --behavioral` records them in `plan.json` (`gates`), so `merge`
/// and `report` judge the iteration the same way unless told otherwise.
#[derive(Debug, Default, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Gates {
    /// Seed of the bootstrap generator (SplitMix64).
    pub seed: u64,
    /// Fail when trigger F1 is below X.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_trigger_f1: Option<f64>,
    /// Fail when the uplift interval's lower bound is below Y.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_uplift: Option<f64>,
    /// Fail when the quality pass rate with the skill is less than PTS
    /// percentage points above the baseline's (passes too when the skill
    /// passes a blocker the baseline fails).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_quality_delta: Option<f64>,
}

impl Gates {
    /// These flags over the gates an iteration recorded: each flag given
    /// wins, the rest are the recorded ones (the seed too, unless given).
    pub fn over(self, recorded: Option<Gates>) -> Gates {
        let Some(r) = recorded else { return self };
        Gates {
            seed: if self.seed != 0 { self.seed } else { r.seed },
            min_trigger_f1: self.min_trigger_f1.or(r.min_trigger_f1),
            min_uplift: self.min_uplift.or(r.min_uplift),
            min_quality_delta: self.min_quality_delta.or(r.min_quality_delta),
        }
    }
}
