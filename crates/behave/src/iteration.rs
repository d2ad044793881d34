//! Reading an iteration folder back (for `skillsift report`): its plan,
//! every run's record, and the scorer's verdict over `cases.jsonl` and
//! `observations.jsonl`, or why it has none ([`results::unscored`], the
//! same rule `check --behavioral` and `merge` apply).
//!
//! A skill's results folder (`evals/results/<skill>/`) is read as its
//! `iteration-N` folders in order of N.

use super::agent::Trace;
use super::plan::{PLAN_FORMAT, PlanDoc, RunKey, safe_id};
use super::results::{self, RunRecord, Unscored};
use crate::exit::Fatal;
use crate::score::{self, Report};
use std::path::{Path, PathBuf};

/// One run the iteration (or its shard) holds.
#[derive(Debug, Clone)]
pub struct Run {
    pub key: RunKey,
    /// The run's folder relative to the iteration folder.
    pub rel_dir: String,
    /// `None` when the folder has no run.json (the run never finished).
    pub record: Option<RunRecord>,
}

/// What the scorer made of an iteration.
#[derive(Debug, Clone)]
pub enum Scored {
    Report(Box<Report>),
    /// Not scored, and why.
    Not(String),
}

/// An iteration folder, read.
#[derive(Debug, Clone)]
pub struct Iteration {
    pub dir: PathBuf,
    /// N of `iteration-N`, when the folder is named so.
    pub number: Option<u64>,
    pub plan: PlanDoc,
    pub runs: Vec<Run>,
    pub scored: Scored,
}

/// N of a folder named `iteration-N`.
pub fn number(dir: &Path) -> Option<u64> {
    dir.file_name()?
        .to_str()?
        .strip_prefix("iteration-")?
        .parse()
        .ok()
}

/// Whether `dir` is an iteration folder.
pub fn is_iteration(dir: &Path) -> bool {
    dir.join("plan.json").is_file()
}

/// The iteration folders of a skill's results folder, by N.
pub fn list(dir: &Path) -> Result<Vec<PathBuf>, Fatal> {
    let rd = std::fs::read_dir(dir).map_err(|e| results::io_fatal(dir, e))?;
    let mut found: Vec<(u64, PathBuf)> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| is_iteration(p))
        .filter_map(|p| number(&p).map(|n| (n, p)))
        .collect();
    found.sort();
    Ok(found.into_iter().map(|(_, p)| p).collect())
}

/// Read one iteration and score it with `gates` (its trials from the plan).
pub fn load(dir: &Path, gates: crate::score::Gates) -> Result<Iteration, Fatal> {
    let plan_path = dir.join("plan.json");
    let plan: PlanDoc = results::read_doc(&plan_path)?;
    if plan.format != PLAN_FORMAT {
        return Err(Fatal::usage(format!(
            "{}: plan format {} is not the {PLAN_FORMAT} this skillsift reads",
            plan_path.display(),
            plan.format
        )));
    }
    if let Some(bad) = plan.cases.iter().find(|c| !safe_id(&c.id)) {
        return Err(Fatal::usage(format!(
            "{}: case id `{}` cannot name a results folder (edited by hand?)",
            plan_path.display(),
            bad.id
        )));
    }
    let gates = gates.over(plan.gates);
    let mut runs = Vec::new();
    for key in plan.runs() {
        if !plan.shard.holds(key.index) {
            continue;
        }
        let rel_dir = key.rel_dir(&plan);
        let path = dir.join(&rel_dir).join("run.json");
        let record = if path.is_file() {
            let r: RunRecord = results::read_doc(&path)?;
            if !r.matches(&key, &plan) {
                return Err(Fatal::usage(format!(
                    "{}: run.json describes another run",
                    path.display()
                )));
            }
            Some(r)
        } else {
            None
        };
        runs.push(Run {
            key,
            rel_dir,
            record,
        });
    }
    let scored = match results::unscored(&plan, runs.iter().map(|r| r.record.as_ref())) {
        Some(why) => Scored::Not(match why {
            Unscored::Missing { .. } if runs.iter().any(|r| r.record.is_none()) => format!(
                "{}; {} have no run.json (the iteration did not finish)",
                why.why(),
                runs.iter().filter(|r| r.record.is_none()).count()
            ),
            _ => why.why(),
        }),
        None => match score::score_evidence(
            &dir.join("cases.jsonl"),
            &dir.join("observations.jsonl"),
            &plan.skill.name,
            None,
            &score_options(&plan, gates),
        ) {
            Ok(r) => Scored::Report(Box::new(r)),
            Err(f) => Scored::Not(format!("the evidence cannot be scored: {}", f.message)),
        },
    };
    Ok(Iteration {
        dir: dir.to_path_buf(),
        number: number(dir),
        plan,
        runs,
        scored,
    })
}

/// Largest stream.jsonl read back (the default `max-trace-bytes`).
pub const MAX_STREAM_BYTES: u64 = 64 * 1024 * 1024;

/// A run's stream, parsed as its agent writes it: `Ok(None)` when the run
/// has none (a runner run, or one that never started), `Err` when it cannot
/// be read.
pub fn trace(iteration: &Iteration, run: &Run) -> Result<Option<Trace>, String> {
    let path = iteration.dir.join(&run.rel_dir).join("stream.jsonl");
    // only Claude Code's runs keep a stream (a runner prints one line)
    if iteration.plan.agent.kind != "claude" || !path.exists() {
        return Ok(None);
    }
    match crate::catalog::read_bounded(&path, MAX_STREAM_BYTES) {
        Ok(Some(bytes)) => Ok(Some(super::agent::claude::parse(&bytes))),
        Ok(None) => Err(format!(
            "stream.jsonl is larger than {MAX_STREAM_BYTES} bytes; not shown"
        )),
        Err(e) => Err(format!("stream.jsonl cannot be read: {e}")),
    }
}

/// Why an append-system-prompt iteration has no trigger statistics.
pub const APPENDED: &str = "the skill was in the system prompt of every with-skill run ([behave] install = \"append-system-prompt\"), so whether the agent would load it was not observed";

/// The scorer's options for an iteration of `plan` under `gates`.
pub fn score_options(plan: &PlanDoc, gates: crate::score::Gates) -> crate::score::Options {
    let mut options = crate::score::Options::new(plan.trials, gates);
    if plan.agent.install.as_deref() == Some("append-system-prompt") {
        options.triggers_unobserved = Some(APPENDED.into());
    }
    options.baseline = plan.baseline.as_ref().map(|b| b.label.clone());
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_iteration_n_names_have_a_number() {
        assert_eq!(number(Path::new("x/iteration-12")), Some(12));
        assert_eq!(number(Path::new("x/iteration-")), None);
        assert_eq!(number(Path::new("x/merged")), None);
    }
}
