//! `skillgate check --behavioral SKILL [ROOT]` and `skillgate merge DIR…`.
//!
//! `check --behavioral`: build the plan (refusing bad input before anything
//! runs), print it and stop (`--dry-run`), or check that the agent exists and
//! no personal copy of the skill would leak into the baseline, run this
//! shard's runs, write the iteration folder, and score it with the shared
//! scorer. `merge`: check that shard folders come from the same plan and
//! together hold every run exactly once, copy them into one iteration, and
//! score it exactly as a whole run would be scored.

use super::build::{self, Built};
use super::exec::{self, Ctx, Mode};
use super::plan::{PLAN_FORMAT, PlanDoc, RunKey, Shard};
use super::process;
use super::progress::Progress;
use super::redact::Redactor;
use super::render;
use super::results::{self, RunRecord};
use super::workspace::{self, Setup, Tree};
use crate::catalog::Catalog;
use crate::cli::{BehaveArgs, Format, Gates, MergeArgs};
use crate::config::Config;
use crate::exit::{Exit, Fatal};
use crate::report::write_error;
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn check(
    catalog: &Catalog,
    config: &Config,
    skill: &str,
    args: &BehaveArgs,
    format: Format,
    out: &mut dyn Write,
) -> Result<Exit, Fatal> {
    let opts = build::opts(args, &config.behave)?;
    let mut b = build::build(catalog, config, skill, args, &opts)?;
    if args.dry_run {
        render::dry_run(&b, format, out).map_err(write_error)?;
        return Ok(Exit::Ok);
    }
    b.mode.resolve()?;
    if matches!(b.mode, Mode::Claude { .. }) && !args.allow_personal_copy {
        refuse_personal_copies(&b.plan.skill.name)?;
    }
    for p in workspace::sweep_orphans(&std::env::temp_dir()) {
        eprintln!(
            "skillgate: removed {}, a workspace left by a skillgate run that was killed",
            p.display()
        );
    }
    preflight_fixtures(&b)?;

    let base = results::skill_results(&catalog.root, &b.plan.skill.name);
    let iteration = results::new_iteration(&base)?;
    results::write_json(&iteration.join("plan.json"), &b.plan)?;
    results::write_text(
        &iteration.join("cases.jsonl"),
        &results::cases_jsonl(&b.plan),
    )?;
    let keys: Vec<RunKey> = b
        .plan
        .runs()
        .into_iter()
        .filter(|k| b.plan.shard.holds(k.index))
        .collect();
    let progress = Progress::new(keys.len());
    progress.note(&format!(
        "skillgate: {} runs of {} ({} trial{}, {}) into {}",
        keys.len(),
        b.plan.skill.name,
        b.plan.trials,
        if b.plan.trials == 1 { "" } else { "s" },
        if b.plan.shard.count > 1 {
            format!("shard {}/{}", b.plan.shard.index, b.plan.shard.count)
        } else {
            "whole plan".into()
        },
        iteration.display()
    ));
    let redactor = Redactor::from_env();
    let ctx = Ctx {
        plan: &b.plan,
        cases: &b.cases,
        mode: &b.mode,
        skill_name: &b.plan.skill.name,
        skill_tree: &b.skill_tree,
        skill_abs: &b.skill_abs,
        iteration: &iteration,
        keep_workspace: args.keep_workspace,
        redactor: &redactor,
        grace: b.grace,
        git_timeout: b.git_timeout,
    };
    process::install_interrupt_handler();
    let records = exec::run_all(&ctx, &keys, args.jobs, &progress)?;
    if process::interrupted() {
        return Err(Fatal::new(
            Exit::Unavailable,
            format!(
                "interrupted after {} of {} runs; the running agent was stopped and its workspace removed; the runs so far are in {} (not scored)",
                records
                    .iter()
                    .filter(|(_, r)| !r
                        .reason
                        .as_deref()
                        .is_some_and(|m| m.starts_with("skillgate was interrupted")))
                    .count(),
                keys.len(),
                iteration.display()
            ),
        ));
    }
    let scoring = Scoring {
        skill_dir: b.skill_abs.clone(),
        gates: args.gates,
    };
    finish(
        &iteration, &b.plan, &records, &scoring, &redactor, format, out,
    )
}

/// How the finished iteration is scored.
struct Scoring {
    skill_dir: PathBuf,
    gates: Gates,
}

/// Write the iteration's summary files and score it (a whole, complete
/// iteration), or say why it is not scored.
fn finish(
    iteration: &Path,
    plan: &PlanDoc,
    records: &[(RunKey, RunRecord)],
    scoring: &Scoring,
    redactor: &Redactor,
    format: Format,
    out: &mut dyn Write,
) -> Result<Exit, Fatal> {
    let shown = iteration.display().to_string();
    results::write_json(
        &iteration.join("benchmark.json"),
        &results::benchmark(plan, records),
    )?;
    let why = results::unscored(plan, records.iter().map(|(_, r)| Some(r)));
    let obs = iteration.join("observations.jsonl");
    if !matches!(
        why,
        Some(results::Unscored::Missing { .. } | results::Unscored::Shard(_))
    ) {
        let only: Vec<RunRecord> = records.iter().map(|(_, r)| r.clone()).collect();
        results::write_text(&obs, &results::observations_jsonl(&only, redactor))?;
    }
    let report = match why {
        Some(_) => None,
        None => Some(crate::score::score_files(
            &crate::score::Inputs {
                skill_dir: &scoring.skill_dir,
                cases: &iteration.join("cases.jsonl"),
                observations: &obs,
            },
            &crate::score::Options::new(plan.trials, scoring.gates),
        )?),
    };
    let written = match (&why, &report) {
        _ if format == Format::Junit => junit(plan, records, report.as_ref(), why.as_ref(), out),
        (Some(results::Unscored::Missing { .. }), _) => {
            render::missing(plan, &shown, records, format, out)
        }
        (Some(w), _) => render::unscored(plan, &shown, records, &w.why(), format, out),
        (None, Some(r)) => crate::score::render(r, format, out).and_then(|()| {
            if format == Format::Json {
                Ok(())
            } else {
                writeln!(out, "results  {shown}")
            }
        }),
        (None, None) => unreachable!("an iteration without a reason not to is scored"),
    };
    written.map_err(write_error)?;
    Ok(match (why, report) {
        (Some(results::Unscored::Missing { .. }), _) => Exit::Unavailable,
        (Some(_), _) => Exit::Ok,
        (None, r) => r.map_or(Exit::Ok, |r| r.exit()),
    })
}

/// `--format junit` for an iteration: each case with its runs, scored or
/// not.
fn junit(
    plan: &PlanDoc,
    records: &[(RunKey, RunRecord)],
    report: Option<&crate::score::Report>,
    why: Option<&results::Unscored>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    use crate::report::junit::{Tier3, tier3};
    let mut runs: Vec<Vec<_>> = vec![Vec::new(); plan.cases.len()];
    for (k, r) in records {
        runs[k.case].push((k.variant, k.trial, Some(r)));
    }
    tier3(
        &Tier3 {
            skill: &plan.skill.name,
            trials: plan.trials,
            cases: Tier3::cases_of(plan, &runs),
            report,
            unscored: why.map(|w| (w.why(), matches!(w, results::Unscored::Missing { .. }))),
        },
        out,
    )
}

/// Where the agent would find a personal or plugin copy of `name` in a
/// workspace under the system temporary folder.
pub fn personal_copies(name: &str) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(dir) = std::env::var_os("CLAUDE_CONFIG_DIR") {
        roots.push(PathBuf::from(dir));
    }
    if let Some(home) = std::env::var_os("HOME") {
        roots.push(PathBuf::from(home).join(".claude"));
    }
    let mut found = Vec::new();
    for r in &roots {
        let p = r.join("skills").join(name);
        if p.exists() {
            found.push(p);
        }
        find_plugin_skills(&r.join("plugins"), name, 0, &mut 0, &mut found);
    }
    let tmp = std::env::temp_dir();
    for a in tmp.ancestors() {
        let p = a.join(".claude").join("skills").join(name);
        if p.exists() {
            found.push(p);
        }
    }
    found.sort();
    found.dedup();
    found
}

/// Plugin folders are searched this deep, and this many entries at most.
const PLUGIN_DEPTH: usize = 6;
const PLUGIN_ENTRIES: usize = 20_000;

fn find_plugin_skills(
    dir: &Path,
    name: &str,
    depth: usize,
    seen: &mut usize,
    found: &mut Vec<PathBuf>,
) {
    if depth > PLUGIN_DEPTH {
        return;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        *seen += 1;
        if *seen > PLUGIN_ENTRIES {
            return;
        }
        let Ok(ft) = e.file_type() else { continue };
        if !ft.is_dir() {
            continue;
        }
        let p = e.path();
        if e.file_name() == "skills" && p.join(name).join("SKILL.md").exists() {
            found.push(p.join(name));
        }
        find_plugin_skills(&p, name, depth + 1, seen, found);
    }
}

fn refuse_personal_copies(name: &str) -> Result<(), Fatal> {
    let found = personal_copies(name);
    if found.is_empty() {
        return Ok(());
    }
    Err(Fatal::usage(format!(
        "a copy of `{name}` is installed where the agent finds it in every run: {}",
        found
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ))
    .with_help("without-skill runs would load it (a contaminated baseline) and with-skill runs could load it instead of the copy under test: move it away for the evaluation, or pass --allow-personal-copy if you accept that"))
}

/// Build each execution eval's workspace once before any run, so a fixture
/// whose patch does not apply stops everything with exit 2 instead of
/// leaving every run without evidence.
fn preflight_fixtures(b: &Built) -> Result<(), Fatal> {
    for c in &b.cases {
        if let Some(t) = &c.fixtures {
            workspace::create(&Setup {
                fixtures: Some(t),
                skill: None,
                git_timeout: b.git_timeout,
                keep: false,
            })
            .map_err(|e| {
                Fatal::usage(format!(
                    "{} ({}): the workspace cannot be set up: {e}",
                    c.doc.id, b.plan.case_file
                ))
            })?;
        }
    }
    Ok(())
}

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
                "{}: plan format {} is not the {PLAN_FORMAT} this skillgate reads",
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
    for (d, p) in &shards {
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

    let mut plan = first.clone();
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

    let skill_dir = match &args.skill {
        Some(s) => s.clone(),
        None => [
            PathBuf::from(&plan.skill.path),
            PathBuf::from(&plan.skill.abs_path),
        ]
        .into_iter()
        .find(|p| p.join("SKILL.md").is_file())
        .ok_or_else(|| {
            Fatal::usage(format!("the skill folder {} is not here", plan.skill.path))
                .with_help("pass --skill DIR (the skill the shards evaluated)")
        })?,
    };
    let tree = Tree::read_skill(&skill_dir).map_err(Fatal::usage)?;
    if tree.digest() != plan.skill.sha256 {
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
        None => results::new_iteration(&results::skill_results(Path::new("."), &plan.skill.name))?,
    };
    for (key, _, src) in &records {
        copy_run(src, &iteration.join(key.rel_dir(&plan)))?;
    }
    plan.shard = Shard::WHOLE;
    plan.merged_from = args.dirs.iter().map(|d| d.display().to_string()).collect();
    plan.skill.path = skill_dir.display().to_string();
    plan.skill.abs_path = skill_dir
        .canonicalize()
        .unwrap_or(skill_dir.clone())
        .display()
        .to_string();
    results::write_json(&iteration.join("plan.json"), &plan)?;
    results::write_text(&iteration.join("cases.jsonl"), &results::cases_jsonl(&plan))?;
    let records: Vec<(RunKey, RunRecord)> = records.into_iter().map(|(k, r, _)| (k, r)).collect();
    let scoring = Scoring {
        skill_dir,
        gates: args.gates,
    };
    finish(
        &iteration,
        &plan,
        &records,
        &scoring,
        &Redactor::from_env(),
        args.format,
        out,
    )
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
