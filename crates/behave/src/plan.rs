//! The plan: every case, every run, and the record of it (`plan.json`) that
//! shards share and `skillsift merge` checks.
//!
//! Cases, in this order:
//! - each positive trigger prompt, id `positive-<n>`, expected to load the
//!   skill;
//! - each negative trigger prompt, id `negative-<n>`, expected not to;
//! - each behavioral eval, id `eval-<id>`. Its prompt is a task the skill is
//!   written for, so it is also expected to load the skill; its task verdict
//!   is the grader's (see `results.rs` for how that reaches the scorer).
//!
//! Runs are case × trial (1..=N) × variant (`with`, then `without`), in that
//! nesting, numbered from 0. Shard `i/n` takes the runs whose number is
//! `i-1` modulo `n`: a deterministic round-robin slice, so every shard gets a
//! mix of cases and variants.

pub use super::decide::TriggerRuns;
use super::workspace::Tree;
pub use crate::catalog::cases::{Check, ExpectKind};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Arc;

/// With or without the skill: the scorer's own type, so a run and its
/// observation can never disagree on spelling.
pub use crate::score::input::Variant;

/// What kind of case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseKind {
    /// A trigger prompt: only whether the skill loads is observed.
    Trigger,
    /// An execution eval: a git workspace with fixtures, graded on actions.
    Execution,
    /// A dialogue eval: an empty workspace, graded on the conversation.
    Dialogue,
}

impl CaseKind {
    pub fn is_eval(self) -> bool {
        self != CaseKind::Trigger
    }
}

/// One case as recorded in `plan.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseDoc {
    pub id: String,
    pub kind: CaseKind,
    pub prompt: String,
    pub expect_trigger: bool,
    /// The eval's own `id` (evals only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval_id: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub expected_output: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expectations: Vec<ExpectationDoc>,
    /// `files[]` as written (execution evals).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// SHA-256 of the fixture files as copied (execution evals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixtures_sha256: Option<String>,
    /// A trigger case's `split`, passed on to the scorer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<String>,
    /// Where the case is written: `file:line:column`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The sibling skill a trigger prompt belongs to (`--with-siblings`):
    /// the tested skill must not take it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// One expectation as recorded in `plan.json`: a plain string for a
/// quality statement the grader checks (the form plans have always had),
/// else `{"text", "kind", "check"?, …arguments}` in the case file's shape.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectationDoc {
    pub text: String,
    pub kind: ExpectKind,
    /// `None`: the grader judges it.
    pub check: Option<Check>,
}

impl ExpectationDoc {
    /// A quality statement for the grader.
    pub fn graded(text: &str) -> ExpectationDoc {
        ExpectationDoc {
            text: text.to_string(),
            kind: ExpectKind::Quality,
            check: None,
        }
    }
}

impl From<&crate::catalog::cases::Expectation> for ExpectationDoc {
    fn from(e: &crate::catalog::cases::Expectation) -> Self {
        ExpectationDoc {
            text: e.text.clone(),
            kind: e.kind,
            check: e.check.clone(),
        }
    }
}

impl Serialize for ExpectationDoc {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        if self.kind == ExpectKind::Quality && self.check.is_none() {
            return s.serialize_str(&self.text);
        }
        let mut m = serde_json::Map::new();
        m.insert("text".into(), self.text.clone().into());
        m.insert("kind".into(), self.kind.as_str().into());
        if let Some(c) = &self.check {
            match serde_json::to_value(c).map_err(S::Error::custom)? {
                serde_json::Value::Object(args) => m.extend(args),
                _ => return Err(S::Error::custom("a check is an object")),
            }
        }
        serde_json::Value::Object(m).serialize(s)
    }
}

impl<'de> Deserialize<'de> for ExpectationDoc {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(text) => Ok(ExpectationDoc::graded(&text)),
            serde_json::Value::Object(mut m) => {
                let text = match m.remove("text") {
                    Some(serde_json::Value::String(t)) => t,
                    _ => return Err(D::Error::custom("an expectation needs a string `text`")),
                };
                let kind = match m.remove("kind") {
                    None => ExpectKind::Quality,
                    Some(k) => serde_json::from_value(k).map_err(D::Error::custom)?,
                };
                let check = if m.contains_key("check") {
                    Some(
                        serde_json::from_value(serde_json::Value::Object(m))
                            .map_err(D::Error::custom)?,
                    )
                } else if m.is_empty() {
                    None
                } else {
                    return Err(D::Error::custom("unknown keys in an expectation"));
                };
                Ok(ExpectationDoc { text, kind, check })
            }
            _ => Err(D::Error::custom("an expectation is a string or an object")),
        }
    }
}

/// The skill under test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillDoc {
    pub name: String,
    /// The skill folder as reached from where skillsift ran.
    pub path: String,
    /// The skill folder, absolute.
    pub abs_path: String,
    /// The skill hash (`crate::score::skill`): the skill folder without
    /// its `evals/`.
    pub sha256: String,
    /// Files of the hashed folder a `with` run does not install: case
    /// sources outside `evals/` (a waza `trigger_tests.yaml`), which would
    /// show the agent its test.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_installed: Vec<String>,
}

/// How runs are executed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentDoc {
    /// The agent's id (`claude`), or `runner`.
    pub kind: String,
    /// The program started for each run.
    pub program: String,
    /// Its arguments for a `with` run (`<SKILL.md>` stands for the skill's
    /// text in append-system-prompt mode).
    pub args_with: Vec<String>,
    /// Its arguments for a `without` run.
    pub args_without: Vec<String>,
    /// The agent's version, as its `--version` printed it (built-in agent,
    /// once checked before the first run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The grader's program and arguments (built-in agent only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grader: Option<Vec<String>>,
    /// The grading client when it is not the agent (`--grader-agent`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grader_kind: Option<String>,
    /// Its version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grader_version: Option<String>,
    /// The tools the agent's configuration lets it offer, for clients whose
    /// stream does not list them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// `discover` or `append-system-prompt` (built-in agent only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub install: Option<String>,
    /// Variables set for every agent and grader call (`<run-home>` stands
    /// for the run's fresh home folder).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Which inherited variables are removed, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env_removed: Option<String>,
    /// Files written into each run home, relative to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub home_files: Vec<String>,
    pub timeout_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grader_timeout_ms: Option<u64>,
    pub max_output_bytes: u64,
}

/// A slice of the runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based.
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parse `I/N` with 1 ≤ I ≤ N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("--shard `{s}` is not of the form I/N (e.g. 2/4)"))?;
        let i: usize = i
            .trim()
            .parse()
            .map_err(|_| format!("--shard `{s}`: `{i}` is not a whole number"))?;
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("--shard `{s}`: `{n}` is not a whole number"))?;
        if n == 0 || i == 0 || i > n {
            return Err(format!("--shard `{s}`: need 1 ≤ I ≤ N"));
        }
        Ok(Shard { index: i, count: n })
    }

    pub fn holds(self, run_index: usize) -> bool {
        run_index % self.count == self.index - 1
    }
}

/// `plan.json`: what an iteration ran, enough to rebuild its cases and
/// check that shards belong together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanDoc {
    pub format: u32,
    pub skillsift_version: String,
    /// SHA-256 of everything that decides the runs and their meaning (this
    /// document without `fingerprint`, `shard`, `merged_from` and the
    /// machine-specific skill paths). Shards merge only when it is equal.
    pub fingerprint: String,
    pub skill: SkillDoc,
    /// The case file, relative to the catalog root (the first, when the
    /// cases come from several).
    pub case_file: String,
    /// Every file the cases come from, when there is more than one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub case_files: Vec<String>,
    pub trials: u32,
    pub variants: Vec<Variant>,
    pub agent: AgentDoc,
    pub cases: Vec<CaseDoc>,
    pub total_runs: usize,
    pub shard: Shard,
    /// The shard folders a merged iteration came from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    /// The earlier version the baseline arm ran (`--baseline-skill`);
    /// absent: the baseline ran without the skill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<super::baseline::BaselineDoc>,
    /// The catalog's other skills installed in both arms
    /// (`--with-siblings`), with their skill hashes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub siblings: Vec<SiblingDoc>,
    /// The seed and gates the run was judged by (`--min-…` flags and
    /// `[behave] min-quality-delta`): `merge` and `report` use them unless
    /// given their own. Not part of the fingerprint: they judge the runs,
    /// they do not decide them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gates: Option<crate::score::Gates>,
    /// How trigger cases run (`--trigger-runs`; `full` in plans written
    /// before the option existed).
    #[serde(default = "TriggerRuns::before_decide")]
    pub trigger_runs: TriggerRuns,
    /// The turn limit of a deciding trigger run (`[behave] trigger-turns`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger_turns: Option<u32>,
}

/// A sibling skill installed beside the tested one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiblingDoc {
    pub name: String,
    /// Its folder, relative to the catalog root.
    pub path: String,
    pub sha256: String,
}

pub const PLAN_FORMAT: u32 = 2;

impl PlanDoc {
    /// Compute and store the fingerprint.
    pub fn seal(&mut self) {
        self.fingerprint = self.compute_fingerprint();
    }

    pub fn compute_fingerprint(&self) -> String {
        let mut c = self.clone();
        c.fingerprint = String::new();
        c.shard = Shard::WHOLE;
        c.merged_from = Vec::new();
        c.gates = None;
        c.skill.path = String::new();
        c.skill.abs_path = String::new();
        let bytes = serde_json::to_vec(&c).unwrap_or_default();
        super::workspace::hex(&Sha256::digest(&bytes))
    }

    /// The results folder of an arm: `with_skill`, and `without_skill`
    /// (`old_skill` when the baseline is an earlier version, as
    /// skill-creator names it).
    pub fn arm_dir(&self, v: Variant) -> &'static str {
        match (v, &self.baseline) {
            (Variant::Without, Some(_)) => "old_skill",
            (v, _) => v.dir(),
        }
    }

    /// How reports name an arm.
    pub fn arm_label(&self, v: Variant) -> String {
        let arms = crate::score::Arms::new(self.baseline.as_ref().map(|b| b.label.as_str()));
        match v {
            Variant::With => arms.with,
            Variant::Without => arms.without,
        }
    }

    /// `7 cases × 3 trials × with and without`, and which cases run in
    /// the `with` arm only.
    pub fn shape(&self) -> String {
        let only = (0..self.cases.len()).filter(|&c| self.with_only(c)).count();
        let evals = (self.cases.iter())
            .filter(|c| c.kind != CaseKind::Trigger)
            .count();
        if evals == 0 {
            // a suite of trigger prompts alone: say so, not "with and without"
            let arms = if only == self.cases.len() {
                "with".to_string()
            } else {
                (self.variants.iter())
                    .map(|v| v.as_str())
                    .collect::<Vec<_>>()
                    .join(" and ")
            };
            return format!(
                "{} trigger prompt{} × {} trial{} × {arms} (no behavioral eval in the suite: trigger runs only)",
                self.cases.len(),
                if self.cases.len() == 1 { "" } else { "s" },
                self.trials,
                if self.trials == 1 { "" } else { "s" },
            );
        }
        let only = if only > 0 && self.variants.len() > 1 {
            format!(
                " ({only} trigger prompt{} with only)",
                if only == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        };
        format!(
            "{} cases × {} trial{} × {}{only}",
            self.cases.len(),
            self.trials,
            if self.trials == 1 { "" } else { "s" },
            self.variants
                .iter()
                .map(|v| v.as_str())
                .collect::<Vec<_>>()
                .join(" and ")
        )
    }

    /// The fingerprint of what is evaluated, whoever runs it: the plan
    /// without its agent (shards of one evaluation on several clients
    /// share it).
    pub fn evaluation_fingerprint(&self) -> String {
        let mut v = serde_json::to_value(self).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            for k in ["agent", "fingerprint", "shard", "merged_from"] {
                o.remove(k);
            }
            if let Some(skill) = o.get_mut("skill").and_then(|s| s.as_object_mut()) {
                skill.remove("path");
                skill.remove("abs_path");
            }
        }
        super::workspace::hex(&Sha256::digest(v.to_string().as_bytes()))
    }

    /// Whether case `ci` runs in the `with` arm only: a trigger prompt,
    /// unless `--trigger-runs full`. A sibling's prompt (`owner`) keeps its
    /// baseline: whether its owner loads without the tested skill beside
    /// it is what tells trigger theft apart.
    pub fn with_only(&self, ci: usize) -> bool {
        self.decides(ci) && self.cases[ci].owner.is_none()
    }

    /// Whether a run of case `ci` stops once its trigger outcome is known
    /// (a trigger prompt, unless `--trigger-runs full`; a `--runner`'s runs
    /// are never watched, but its trigger prompts run in the `with` arm
    /// only too).
    pub fn decides(&self, ci: usize) -> bool {
        self.trigger_runs == TriggerRuns::Decide && self.cases[ci].kind == CaseKind::Trigger
    }

    /// Whether the runs of case `ci` are watched and stopped once decided.
    pub fn watched(&self, ci: usize) -> bool {
        self.decides(ci) && self.agent.kind != "runner"
    }

    /// The arms case `ci` runs in.
    pub fn arms_of(&self, ci: usize) -> &[Variant] {
        if self.with_only(ci) {
            &self.variants[..1]
        } else {
            &self.variants
        }
    }

    /// Every run of the whole plan, in order.
    pub fn runs(&self) -> Vec<RunKey> {
        let mut out = Vec::new();
        for (ci, _) in self.cases.iter().enumerate() {
            for trial in 1..=self.trials {
                for &variant in self.arms_of(ci) {
                    out.push(RunKey {
                        index: out.len(),
                        case: ci,
                        trial,
                        variant,
                    });
                }
            }
        }
        out
    }
}

/// One run's place in the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunKey {
    pub index: usize,
    /// Index into `PlanDoc::cases`.
    pub case: usize,
    pub trial: u32,
    pub variant: Variant,
}

impl RunKey {
    /// The run's folder relative to the iteration folder.
    pub fn rel_dir(&self, plan: &PlanDoc) -> String {
        format!(
            "{}/{}/run-{}",
            plan.cases[self.case].id,
            plan.arm_dir(self.variant),
            self.trial
        )
    }
}

/// A case in memory: its record plus the files its workspace needs.
#[derive(Debug, Clone)]
pub struct Case {
    pub doc: CaseDoc,
    /// Fixture files (execution evals).
    pub fixtures: Option<Arc<Tree>>,
}

/// Is `id` usable in a folder name?
pub fn safe_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_runs() {
        let n = 3;
        let shards: Vec<_> = (1..=n)
            .map(|i| Shard::parse(&format!("{i}/{n}")).unwrap())
            .collect();
        for run in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.holds(run)).count(), 1);
        }
        assert!(Shard::parse("0/2").is_err());
        assert!(Shard::parse("3/2").is_err());
        assert!(Shard::parse("1-2").is_err());
    }

    #[test]
    fn plain_expectations_stay_strings_and_the_rest_keep_kind_and_check() {
        let docs = vec![
            ExpectationDoc::graded("a test fails first"),
            ExpectationDoc {
                text: "no write".into(),
                kind: ExpectKind::Blocker,
                check: None,
            },
            ExpectationDoc {
                text: "`a` exists".into(),
                kind: ExpectKind::Quality,
                check: Some(Check::FileExists { path: "a".into() }),
            },
        ];
        let v = serde_json::to_value(&docs).unwrap();
        assert_eq!(
            v,
            serde_json::json!([
                "a test fails first",
                {"text": "no write", "kind": "blocker"},
                {"text": "`a` exists", "kind": "quality", "check": "file_exists", "path": "a"}
            ])
        );
        let back: Vec<ExpectationDoc> = serde_json::from_value(v).unwrap();
        assert_eq!(back, docs);
    }

    #[test]
    fn ids_that_could_leave_the_results_folder_are_unsafe() {
        assert!(safe_id("12"));
        assert!(safe_id("lost-cent_2"));
        assert!(!safe_id("../x"));
        assert!(!safe_id("a/b"));
        assert!(!safe_id(".."));
        assert!(!safe_id(""));
    }
}
