//! Results on disk.
//!
//! ```text
//! evals/results/<skill>/iteration-N/
//!   plan.json                 what ran (shared by shards, checked by merge)
//!   cases.jsonl               the scorer's cases
//!   observations.jsonl        the scorer's observations
//!   benchmark.json            skill-creator's benchmark shape
//!   <case>/<with_skill|without_skill>/run-<k>/
//!     run.json                the run's record (evidence or why there is none)
//!     stream.jsonl            the agent's stream (built-in agent)
//!     stderr.txt              its standard error, when not empty
//!     grading.json            the grader's validated verdict (evals)
//!     grading.raw.txt         the grader's replies when they were invalid
//!     timing.json             durations, tokens and cost
//! ```
//!
//! How a run reaches the scorer (`cases.jsonl` / `observations.jsonl`):
//! - every case becomes one line of `cases.jsonl`; trigger prompts carry no
//!   task, evals carry `{"check":"exit_code","expected":0}`;
//! - every run with evidence becomes one observation. Its `invokedSkills`
//!   are the skills the agent loaded; its `exitCode` is, for an eval, `0`
//!   when the grader passed every expectation and `1` otherwise (with a
//!   `--runner`, the runner's own `exitCode`); for a trigger prompt `0`.
//! - a run without evidence (no `result` line, a timeout, a grader reply that
//!   stayed invalid, a runner error) becomes no observation at all: the
//!   iteration is then incomplete, is not scored, and exits 4.
//!
//! Every text written here has passed through the [`Redactor`].

use super::grader::Entry;
use super::plan::{CaseKind, ExpectKind, PlanDoc, RunKey, Shard, Variant};
use super::redact::Redactor;
use crate::exit::Fatal;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A grading's figures, kept in `run.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GradeDoc {
    pub passed: usize,
    pub failed: usize,
    pub total: usize,
    pub pass_rate: f64,
    pub expectations: Vec<EntryDoc>,
}

impl GradeDoc {
    /// The figures of these verdicts.
    pub fn new(expectations: Vec<EntryDoc>) -> GradeDoc {
        let s = super::grader::Summary::of(expectations.iter().map(|e| e.passed));
        GradeDoc {
            passed: s.passed,
            failed: s.failed,
            total: s.total,
            pass_rate: s.pass_rate,
            expectations,
        }
    }
}

/// One expectation's verdict (skill-creator's grading.json entry, plus
/// its kind and, for a deterministic check, the check's name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryDoc {
    pub text: String,
    pub passed: bool,
    pub evidence: String,
    #[serde(default)]
    pub kind: ExpectKind,
    /// The deterministic check that gave the verdict (else the grader did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
}

impl From<&Entry> for EntryDoc {
    fn from(e: &Entry) -> Self {
        EntryDoc {
            text: e.text.clone(),
            passed: e.passed,
            evidence: e.evidence.clone(),
            kind: ExpectKind::Quality,
            check: None,
        }
    }
}

/// A tool call the permission system refused, as `run.json` keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DenialDoc {
    pub tool: String,
    /// The call's input as JSON text (cut to 4 KiB, secrets redacted).
    pub input: String,
}

/// `run.json`: one run's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub case_id: String,
    pub trial: u32,
    pub variant: Variant,
    /// The agent client that ran it (`claude`, `codex`, `gemini`,
    /// `opencode`; none for a `--runner`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    /// Its version, as its `--version` printed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_version: Option<String>,
    /// The model the client reported using (its stream's `init` line),
    /// when it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Whether the run produced evidence (a verdict the scorer may use).
    pub evidence: bool,
    /// Why it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub invoked_skills: Vec<String>,
    /// Skill loads the agent asked for and the client refused (an unknown
    /// name): never counted as loads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_loads: Vec<String>,
    /// The agent's final text (cut to [`MAX_OUTPUT`]).
    pub output: String,
    /// The observation's `exitCode` (see the module doc).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grading: Option<GradeDoc>,
    /// Tools listed by the stream's `init` line: the run's tool list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_tools: Option<Vec<String>>,
    /// The tools the client's configuration lets it offer, when its stream
    /// does not list them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configured_tools: Option<Vec<String>>,
    /// MCP servers the client started (the `init` line).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<String>,
    /// Tool calls the client's permission system refused (the `result`
    /// line's `permission_denials`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub permission_denials: Vec<DenialDoc>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tool_calls: BTreeMap<String, u64>,
    pub tokens: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    pub duration_ms: u64,
    /// Problems that do not void the evidence (e.g. MCP tools in `init`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The kept workspace (`--keep-workspace`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    /// The kept run home (`--keep-workspace`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<String>,
    /// Why a deciding trigger run stopped (`behave::decide`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger_stop: Option<super::decide::StopDoc>,
}

impl RunRecord {
    /// A record for a run that produced no evidence.
    pub fn missing(key: &RunKey, plan: &PlanDoc, reason: String) -> RunRecord {
        RunRecord {
            case_id: plan.cases[key.case].id.clone(),
            trial: key.trial,
            variant: key.variant,
            client: None,
            client_version: None,
            model: None,
            evidence: false,
            reason: Some(reason),
            invoked_skills: Vec::new(),
            failed_loads: Vec::new(),
            output: String::new(),
            exit_code: None,
            grading: None,
            init_tools: None,
            configured_tools: None,
            mcp_servers: Vec::new(),
            permission_denials: Vec::new(),
            tool_calls: BTreeMap::new(),
            tokens: 0,
            cost_usd: None,
            duration_ms: 0,
            warnings: Vec::new(),
            workspace: None,
            home: None,
            trigger_stop: None,
        }
    }

    /// Does this record belong to `key`?
    pub fn matches(&self, key: &RunKey, plan: &PlanDoc) -> bool {
        self.case_id == plan.cases[key.case].id
            && self.trial == key.trial
            && self.variant == key.variant
    }
}

/// Longest `output` kept in an observation.
pub const MAX_OUTPUT: usize = 64 * 1024;

/// `evals/results/<skill>/` under `root`.
pub fn skill_results(root: &Path, skill: &str) -> PathBuf {
    root.join(results_rel(skill))
}

/// `evals/results/<skill>`, relative to the catalog root.
pub fn results_rel(skill: &str) -> PathBuf {
    Path::new("evals").join("results").join(skill)
}

/// Refuse, before anything runs or is written, a results folder
/// `evals/results/<skill>/` that [`new_iteration`] would refuse (a link
/// out of the catalog, a file in the way).
pub fn preflight(root: &Path, skill: &str) -> Result<(), Fatal> {
    crate::base::confine::Root::new(root)
        .and_then(|r| r.check_dirs(&results_rel(skill)))
        .map_err(|r| r.fatal())
}

/// Create the next `iteration-N` folder of `evals/results/<skill>/` under
/// the catalog `root` (N = highest existing + 1, starting at 1). The
/// folders on the way are made as every folder of the catalog's is
/// (`confine`): never through a link that leaves the catalog, never over a
/// file. Returns the folder as shown under `root`.
pub fn new_iteration(root: &Path, skill: &str) -> Result<PathBuf, Fatal> {
    let rel = results_rel(skill);
    let confined = crate::base::confine::Root::new(root).map_err(|r| r.fatal())?;
    let real = confined.create_dirs(&rel).map_err(|r| r.fatal())?;
    let base = root.join(&rel);
    let highest = std::fs::read_dir(&real)
        .map_err(|e| io_fatal(&base, e))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_prefix("iteration-")?
                .parse::<u64>()
                .ok()
        })
        .max()
        .unwrap_or(0);
    for n in highest + 1..highest + 1000 {
        let name = format!("iteration-{n}");
        match std::fs::create_dir(real.join(&name)) {
            Ok(()) => return Ok(base.join(name)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_fatal(&base.join(name), e)),
        }
    }
    Err(Fatal::usage(format!(
        "{}: cannot allocate a new iteration folder",
        base.display()
    )))
}

/// Largest `plan.json` or `run.json` read back.
const MAX_DOC_BYTES: u64 = 64 * 1024 * 1024;

/// Read a JSON results file (`plan.json`, `run.json`) back.
pub fn read_doc<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, Fatal> {
    let bytes = crate::catalog::read_bounded(path, MAX_DOC_BYTES)
        .map_err(|e| Fatal::usage(format!("{}: {e}", path.display())))?
        .ok_or_else(|| {
            Fatal::usage(format!(
                "{}: larger than {MAX_DOC_BYTES} bytes",
                path.display()
            ))
        })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        Fatal::usage(format!(
            "{}: not a skillsift results file: {e}",
            path.display()
        ))
    })
}

/// Why an iteration's runs are not scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unscored {
    /// `missing` of `runs` runs produced no verdict (or no run.json).
    Missing { missing: usize, runs: usize },
    /// A shard holds part of the runs.
    Shard(Shard),
    /// `--no-baseline`: no without-skill arm.
    NoBaseline,
}

impl Unscored {
    pub fn why(&self) -> String {
        match self {
            Unscored::Missing { missing, runs } => {
                format!("{missing} of {runs} runs produced no verdict, so nothing was scored")
            }
            Unscored::Shard(s) => format!(
                "shard {}/{} holds part of the runs; merge every shard's folder with `skillsift merge DIR…` to score them",
                s.index, s.count
            ),
            Unscored::NoBaseline => {
                "--with-skill-only ran no without-skill arm, and the scorer only scores paired evidence"
                    .into()
            }
        }
    }
}

/// Whether an iteration with these run records (`None`: the run has no
/// run.json) can be scored, and why not: runs without evidence come
/// first, then a shard, then a missing baseline arm.
pub fn unscored<'a>(
    plan: &PlanDoc,
    records: impl Iterator<Item = Option<&'a RunRecord>>,
) -> Option<Unscored> {
    let (mut runs, mut missing) = (0, 0);
    for r in records {
        runs += 1;
        if !r.is_some_and(|r| r.evidence) {
            missing += 1;
        }
    }
    if missing > 0 {
        Some(Unscored::Missing { missing, runs })
    } else if plan.shard.count > 1 {
        Some(Unscored::Shard(plan.shard))
    } else if plan.variants.len() < 2 {
        Some(Unscored::NoBaseline)
    } else {
        None
    }
}

pub fn io_fatal(p: &Path, e: std::io::Error) -> Fatal {
    Fatal::usage(format!("{}: {e}", p.display()))
}

/// Write `value` as pretty JSON with a final newline.
pub fn write_json(path: &Path, value: &impl Serialize) -> Result<(), Fatal> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| Fatal::usage(format!("{}: {e}", path.display())))?;
    text.push('\n');
    write_text(path, &text)
}

pub fn write_text(path: &Path, text: &str) -> Result<(), Fatal> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io_fatal(parent, e))?;
    }
    std::fs::write(path, text).map_err(|e| io_fatal(path, e))
}

/// Files a run folder may hold (merge copies exactly these).
pub const RUN_FILES: &[&str] = &[
    "run.json",
    "stream.jsonl",
    "stderr.txt",
    "runner-output.txt",
    "grading.json",
    "grading.raw.txt",
    "timing.json",
];

/// The scorer's `cases.jsonl`.
pub fn cases_jsonl(plan: &PlanDoc) -> String {
    let mut s = String::new();
    for (ci, c) in plan.cases.iter().enumerate() {
        let mut line = json!({
            "id": c.id,
            "prompt": c.prompt,
            "expectTrigger": c.expect_trigger,
        });
        if c.kind.is_eval() {
            line["task"] = json!({"check": "exit_code", "expected": 0});
            let listed = scored_expectations(plan, c);
            if !listed.is_empty() {
                line["expectations"] = json!(
                    listed
                        .iter()
                        .map(|e| {
                            let mut x = json!({"text": e.text, "kind": e.kind.as_str()});
                            if let Some(check) = &e.check {
                                x["check"] = json!(check.name());
                            }
                            x
                        })
                        .collect::<Vec<_>>()
                );
            }
        }
        if let Some(split) = &c.split {
            line["split"] = json!(split);
        }
        if let Some(owner) = &c.owner {
            line["owner"] = json!(owner);
        }
        if plan.with_only(ci) {
            line["withOnly"] = json!(true);
        }
        s.push_str(&line.to_string());
        s.push('\n');
    }
    s
}

/// The expectations of an eval that get a verdict in each run, and so
/// reach the scorer: all of them, or with a `--runner` (which grades
/// nothing itself) its deterministic checks only.
pub fn scored_expectations<'a>(
    plan: &PlanDoc,
    case: &'a super::plan::CaseDoc,
) -> Vec<&'a super::plan::ExpectationDoc> {
    case.expectations
        .iter()
        .filter(|e| plan.agent.kind != "runner" || e.check.is_some())
        .collect()
}

/// The scorer's `observations.jsonl`: one line per run with evidence, in
/// plan order. An eval run lists each expectation's verdict, in the order
/// of its case's `expectations` in cases.jsonl.
pub fn observations_jsonl(records: &[RunRecord], redactor: &Redactor) -> String {
    let mut s = String::new();
    for r in records.iter().filter(|r| r.evidence) {
        let mut line = json!({
            "caseId": r.case_id,
            "trial": r.trial,
            "variant": r.variant.as_str(),
            "invokedSkills": r.invoked_skills,
            "output": redactor.text(&r.output),
            "exitCode": r.exit_code.unwrap_or(1),
        });
        if let Some(c) = &r.client {
            line["client"] = json!(c);
        }
        if let Some(g) = &r.grading {
            line["expectations"] = json!(
                g.expectations
                    .iter()
                    .map(|e| json!({"passed": e.passed, "evidence": redactor.text(&e.evidence)}))
                    .collect::<Vec<_>>()
            );
        }
        s.push_str(&line.to_string());
        s.push('\n');
    }
    s
}

/// Mean, sample standard deviation, min and max; zeros for no values.
fn stats(xs: &[f64]) -> Value {
    if xs.is_empty() {
        return json!({"mean": null, "stddev": null, "min": null, "max": null, "n": 0});
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let min = xs.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    json!({"mean": round6(mean), "stddev": round6(var.sqrt()), "min": round6(min), "max": round6(max), "n": xs.len()})
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Per-variant values behind `run_summary`.
#[derive(Debug, Clone, Default)]
struct Series {
    pass_rate: Vec<f64>,
    seconds: Vec<f64>,
    tokens: Vec<f64>,
}

/// skill-creator's `benchmark.json` over the eval runs (trigger prompts
/// are not tasks and are left out). `delta` is numeric (with − without).
/// A run without evidence is listed under `missing_runs` and counted in no
/// statistic; `complete` says whether there were any.
pub fn benchmark(plan: &PlanDoc, records: &[(RunKey, RunRecord)]) -> Value {
    let mut runs = Vec::new();
    let mut missing = Vec::new();
    let mut per: BTreeMap<Variant, Series> = BTreeMap::new();
    let evals: Vec<Value> = plan
        .cases
        .iter()
        .filter(|c| c.kind.is_eval())
        .map(|c| eval_id_value(c.eval_id.as_deref().unwrap_or(&c.id)))
        .collect();
    for (key, r) in records {
        let case = &plan.cases[key.case];
        if !case.kind.is_eval() {
            continue;
        }
        let id = eval_id_value(case.eval_id.as_deref().unwrap_or(&case.id));
        if !r.evidence {
            missing.push(json!({
                "eval_id": id,
                "configuration": plan.arm_dir(r.variant),
                "run_number": r.trial,
                "reason": r.reason,
            }));
            continue;
        }
        let (passed, total, pass_rate, expectations) = match &r.grading {
            Some(g) => (g.passed, g.total, g.pass_rate, json!(g.expectations)),
            None => {
                let ok = r.exit_code == Some(0);
                (usize::from(ok), 1, if ok { 1.0 } else { 0.0 }, json!([]))
            }
        };
        let secs = r.duration_ms as f64 / 1000.0;
        let e = per.entry(r.variant).or_default();
        e.pass_rate.push(pass_rate);
        e.seconds.push(secs);
        e.tokens.push(r.tokens as f64);
        runs.push(json!({
            "eval_id": id,
            "eval_name": case.id,
            "configuration": plan.arm_dir(r.variant),
            "run_number": r.trial,
            "result": {
                "pass_rate": round6(pass_rate),
                "passed": passed,
                "failed": total - passed,
                "total": total,
                "time_seconds": round6(secs),
                "tokens": r.tokens,
                "cost_usd": r.cost_usd,
                "tool_calls": r.tool_calls.values().sum::<u64>(),
                "errors": 0,
            },
            "expectations": expectations,
            "notes": r.warnings,
        }));
    }
    let mut summary = serde_json::Map::new();
    for v in &plan.variants {
        let e = per.get(v).cloned().unwrap_or_default();
        summary.insert(
            plan.arm_dir(*v).to_string(),
            json!({"pass_rate": stats(&e.pass_rate), "time_seconds": stats(&e.seconds), "tokens": stats(&e.tokens)}),
        );
    }
    let delta = |f: fn(&Series) -> &Vec<f64>| {
        let mean = |v: Variant| {
            per.get(&v)
                .map(f)
                .filter(|xs| !xs.is_empty())
                .map(|xs| xs.iter().sum::<f64>() / xs.len() as f64)
        };
        match (mean(Variant::With), mean(Variant::Without)) {
            (Some(a), Some(b)) => json!(round6(a - b)),
            _ => Value::Null,
        }
    };
    summary.insert(
        "delta".into(),
        json!({
            "pass_rate": delta(|x| &x.pass_rate),
            "time_seconds": delta(|x| &x.seconds),
            "tokens": delta(|x| &x.tokens),
        }),
    );
    let mut notes = Vec::new();
    if !missing.is_empty() {
        notes.push(format!(
            "{} produced no evidence and {} left out of every statistic",
            crate::base::plural::count(missing.len(), "eval run"),
            if missing.len() == 1 { "is" } else { "are" }
        ));
    }
    json!({
        "metadata": {
            "skill_name": plan.skill.name,
            "skill_path": plan.skill.path,
            "skill_sha256": plan.skill.sha256,
            "executor": plan.agent.kind,
            "evals_run": evals,
            "runs_per_configuration": plan.trials,
        },
        "complete": missing.is_empty(),
        "runs": runs,
        "missing_runs": missing,
        "run_summary": summary,
        "notes": notes,
    })
}

/// An eval id as a JSON number when it is one, else a string.
fn eval_id_value(id: &str) -> Value {
    match id.parse::<i64>() {
        Ok(n) => json!(n),
        Err(_) => json!(id),
    }
}

/// Whether the plan's cases include any trigger prompt.
pub fn has_kind(plan: &PlanDoc, kind: CaseKind) -> bool {
    plan.cases.iter().any(|c| c.kind == kind)
}
