//! `skillsift merge DIR…`: check that shard folders come from the same plan
//! and together hold every run exactly once, copy them into one iteration,
//! and score it exactly as a whole run would be scored.

use super::behave::{Scoring, finish, finish_clients};
use crate::behave::exec::{self};
use crate::behave::plan::{PLAN_FORMAT, PlanDoc, RunKey, Shard};
use crate::behave::redact::Redactor;
use crate::behave::results::{self, RunRecord};
use crate::cli::MergeArgs;
use crate::exit::{Exit, Fatal};
use crate::score::Gates;
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    let mut shards: Vec<(PathBuf, PlanDoc)> = Vec::new();
    for d in &args.dirs {
        let p = d.join("plan.json");
        if !p.is_file() {
            return Err(Fatal::usage(format!(
                "{}: no plan.json here; pass the iteration folders written by `check --behavioral --shard I/N`",
                d.display()
            )));
        }
        let plan: PlanDoc = results::read_doc(&p)?;
        if plan.format != PLAN_FORMAT {
            return Err(Fatal::usage(format!(
                "{}: plan format {} is not the {PLAN_FORMAT} this skillsift reads",
                p.display(),
                plan.format
            )));
        }
        if plan.compute_fingerprint() != plan.fingerprint {
            return Err(Fatal::usage(format!(
                "{}: the plan does not match its fingerprint (edited by hand?)",
                p.display()
            )));
        }
        shards.push((d.clone(), plan));
    }
    // one group per client, in the order the folders were named
    let mut groups: Vec<(String, Vec<(PathBuf, PlanDoc)>)> = Vec::new();
    for (d, p) in shards {
        match groups.iter_mut().find(|(k, _)| *k == p.agent.kind) {
            Some((_, g)) => g.push((d, p)),
            None => groups.push((p.agent.kind.clone(), vec![(d, p)])),
        }
    }
    if groups.len() > 1 {
        let kinds: Vec<&str> = groups.iter().map(|(k, _)| k.as_str()).collect();
        if !args.across_clients {
            return Err(Fatal::usage(format!(
                "the folders were run by different clients ({}): merging them would score several clients' runs as one",
                kinds.join(", ")
            ))
            .with_help("pass --across-clients to merge them into one iteration scored and gated per client, or merge each client's shards on their own"));
        }
        let (d0, p0) = &groups[0].1[0];
        for (_, g) in &groups[1..] {
            let (d, p) = &g[0];
            if p.evaluation_fingerprint() != p0.evaluation_fingerprint() {
                return Err(Fatal::usage(format!(
                    "{} and {} evaluate different things (skill, cases, trials or variants differ), not only on different clients",
                    d0.display(),
                    d.display()
                )));
            }
        }
    }
    // every client's shards checked before anything is written
    let checked = groups
        .iter()
        .map(|(_, shards)| check_shards(shards))
        .collect::<Result<Vec<_>, Fatal>>()?;
    let first = groups[0].1[0].1.clone();
    if let Some((d, p)) = groups
        .iter()
        .flat_map(|(_, shards)| shards)
        .find(|(_, p)| p.gates != first.gates)
    {
        eprintln!(
            "skillsift: warning: {} was judged by other gates than {} ({} against {}); the merge uses the first folder's, and the flags given to merge over them",
            crate::escape::line(&d.display().to_string()),
            crate::escape::line(&groups[0].1[0].0.display().to_string()),
            gates_text(p.gates),
            gates_text(first.gates)
        );
    }
    let skill_dir = match &args.skill {
        Some(s) => s.clone(),
        None => [
            PathBuf::from(&first.skill.path),
            PathBuf::from(&first.skill.abs_path),
        ]
        .into_iter()
        .find(|p| p.join("SKILL.md").is_file())
        .ok_or_else(|| {
            Fatal::usage(format!("the skill folder {} is not here", first.skill.path))
                .with_help("pass --skill DIR (the skill the shards evaluated)")
        })?,
    };
    if crate::score::skill::snapshot(&skill_dir)?.skill_sha256 != first.skill.sha256 {
        return Err(Fatal::usage(format!(
            "{}: the skill changed since the shards ran (its files differ from the evaluated ones)",
            skill_dir.display()
        ))
        .with_help("score the skill the shards evaluated, or run the evaluation again"));
    }
    let iteration = match &args.out {
        Some(o) => {
            if o.exists()
                && std::fs::read_dir(o)
                    .map(|mut d| d.next().is_some())
                    .unwrap_or(true)
            {
                return Err(Fatal::usage(format!(
                    "{}: already exists and is not empty",
                    o.display()
                )));
            }
            std::fs::create_dir_all(o).map_err(|e| results::io_fatal(o, e))?;
            o.clone()
        }
        None => results::new_iteration(Path::new("."), &first.skill.name)?,
    };
    let scoring = Scoring {
        skill_dir: skill_dir.clone(),
        gates: Gates::from(args.gates).over(first.gates),
        redactor: Redactor::from_env(),
    };
    let one = groups.len() == 1;
    let mut parts = Vec::new();
    for ((kind, shards), (plan, records)) in groups.iter().zip(checked) {
        let dest = if one {
            iteration.clone()
        } else {
            iteration.join(kind)
        };
        let mut plan = plan;
        // the merged plan records the gates it is judged by
        plan.gates = Some(Gates::from(args.gates).over(plan.gates));
        let merged = copy_shards(shards, plan, records, &dest, &skill_dir)?;
        parts.push((merged.0, merged.1, dest));
    }
    if one {
        let (plan, records, _) = parts.pop().expect("one client");
        return finish(
            &iteration,
            &plan,
            &records,
            &scoring,
            args.format,
            out,
            None,
        );
    }
    finish_clients(&iteration, &parts, &scoring, args.format, out)
}

/// One run read from a shard: its place, its record, its folder.
type ShardRun = (RunKey, RunRecord, PathBuf);

/// The shards of one client's evaluation, checked: one plan, every shard
/// there once, every run recorded.
fn check_shards(shards: &[(PathBuf, PlanDoc)]) -> Result<(PlanDoc, Vec<ShardRun>), Fatal> {
    let (first_dir, first) = &shards[0];
    for (d, p) in &shards[1..] {
        if p.fingerprint != first.fingerprint {
            return Err(Fatal::usage(format!(
                "{} and {} come from different plans (skill, cases, trials, variants or agent differ)",
                first_dir.display(),
                d.display()
            ))
            .with_help("merge only the shards of one `check --behavioral --shard I/N` evaluation"));
        }
    }
    let count = first.shard.count;
    let mut by_index: Vec<Option<&PathBuf>> = vec![None; count];
    for (d, p) in shards {
        if p.shard.count != count {
            return Err(Fatal::usage(format!(
                "{} is shard {}/{}, but {} is shard {}/{}",
                d.display(),
                p.shard.index,
                p.shard.count,
                first_dir.display(),
                first.shard.index,
                count
            )));
        }
        if let Some(other) = by_index[p.shard.index - 1] {
            return Err(Fatal::usage(format!(
                "{} and {} are both shard {}/{count}",
                other.display(),
                d.display(),
                p.shard.index
            )));
        }
        by_index[p.shard.index - 1] = Some(d);
    }
    let absent: Vec<String> = by_index
        .iter()
        .enumerate()
        .filter(|(_, d)| d.is_none())
        .map(|(i, _)| format!("{}/{count}", i + 1))
        .collect();
    if !absent.is_empty() {
        return Err(Fatal::usage(format!(
            "shard {} missing: merging a subset would score part of the evaluation as the whole",
            absent.join(", ")
        ))
        .with_help("pass the folder of every shard"));
    }

    let plan = first.clone();
    let mut records = Vec::new();
    for key in plan.runs() {
        let shard = Shard {
            index: key.index % count + 1,
            count,
        };
        let dir = by_index[shard.index - 1].expect("every shard is present");
        let run_dir = dir.join(key.rel_dir(&plan));
        let rec: RunRecord = if run_dir.join("run.json").is_file() {
            results::read_doc(&run_dir.join("run.json"))?
        } else {
            return Err(Fatal::usage(format!(
                "{}: no run.json for run {} of shard {}/{count}; the shard did not finish",
                run_dir.display(),
                exec::label(&plan, &key),
                shard.index
            ))
            .with_help("run that shard again, then merge"));
        };
        if !rec.matches(&key, &plan) {
            return Err(Fatal::usage(format!(
                "{}: run.json describes another run",
                run_dir.display()
            )));
        }
        records.push((key, rec, run_dir));
    }

    Ok((plan, records))
}

/// Copy checked shards' runs into `dest`, with the merged `plan.json` and
/// `cases.jsonl`.
fn copy_shards(
    shards: &[(PathBuf, PlanDoc)],
    mut plan: PlanDoc,
    records: Vec<ShardRun>,
    dest: &Path,
    skill_dir: &Path,
) -> Result<(PlanDoc, Vec<(RunKey, RunRecord)>), Fatal> {
    for (key, _, src) in &records {
        copy_run(src, &dest.join(key.rel_dir(&plan)))?;
    }
    plan.shard = Shard::WHOLE;
    plan.merged_from = shards
        .iter()
        .map(|(d, _)| d.display().to_string())
        .collect();
    plan.skill.path = skill_dir.display().to_string();
    plan.skill.abs_path = skill_dir
        .canonicalize()
        .unwrap_or(skill_dir.to_path_buf())
        .display()
        .to_string();
    results::write_json(&dest.join("plan.json"), &plan)?;
    results::write_text(&dest.join("cases.jsonl"), &results::cases_jsonl(&plan))?;
    Ok((plan, records.into_iter().map(|(k, r, _)| (k, r)).collect()))
}

/// Copy a run folder's known files (regular files only).
fn copy_run(src: &Path, dest: &Path) -> Result<(), Fatal> {
    std::fs::create_dir_all(dest).map_err(|e| results::io_fatal(dest, e))?;
    for name in results::RUN_FILES {
        let from = src.join(name);
        match std::fs::symlink_metadata(&from) {
            Ok(m) if m.file_type().is_file() => {
                std::fs::copy(&from, dest.join(name)).map_err(|e| results::io_fatal(&from, e))?;
            }
            Ok(_) => {
                return Err(Fatal::usage(format!(
                    "{}: not a regular file",
                    from.display()
                )));
            }
            Err(_) => {}
        }
    }
    Ok(())
}

/// Recorded gates for a message: `--min-uplift 0.1 --seed 7`, or `none`.
fn gates_text(g: Option<Gates>) -> String {
    let Some(g) = g else {
        return "none recorded".into();
    };
    let mut parts = Vec::new();
    for (flag, v) in [
        ("--min-trigger-f1", g.min_trigger_f1),
        ("--min-uplift", g.min_uplift),
        ("--min-quality-delta", g.min_quality_delta),
    ] {
        if let Some(v) = v {
            parts.push(format!("{flag} {v}"));
        }
    }
    if g.seed != 0 {
        parts.push(format!("--seed {}", g.seed));
    }
    if parts.is_empty() {
        "no gate".into()
    } else {
        parts.join(" ")
    }
}
