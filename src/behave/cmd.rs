//! `skillgate check --behavioral SKILL [ROOT]` and `skillgate merge DIR…`.
//!
//! `check --behavioral`: build the plan (refusing bad input before anything
//! runs), print it and stop (`--dry-run`), or check that the agent exists and
//! that no copy of the skill other than the one under test is where every
//! run would see it, run this shard's runs (a run that shows such a copy
//! anyway stops the evaluation at once), write the iteration folder, and
//! score it with the shared scorer. `merge`: check that shard folders come from the same plan and
//! together hold every run exactly once, copy them into one iteration, and
//! score it exactly as a whole run would be scored.

use super::agent::AgentKind;
use super::build::{self, Built};
use super::exec::{self, Ctx, Mode};
use super::plan::{PLAN_FORMAT, PlanDoc, RunKey, Shard};
use super::process;
use super::progress::Progress;
use super::redact::Redactor;
use super::render;
use super::results::{self, RunRecord};
use super::workspace::{self, Setup};
use crate::catalog::Catalog;
use crate::cli::{BehaveArgs, Format, Gates, MergeArgs};
use crate::config::Config;
use crate::exit::{Exit, Fatal};
use crate::report::junit::ClientSuites;
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
    if args.dry_run && !matches!(format, Format::Human | Format::Json) {
        return Err(Fatal::usage(format!(
            "--dry-run prints the plan as human text or JSON, not --format {}",
            clap::ValueEnum::to_possible_value(&format)
                .map_or_else(String::new, |v| v.get_name().to_string())
        ))
        .with_help("drop --format, or pass --format json"));
    }
    let opts = build::opts(args, &config.behave)?;
    let kinds = match &opts.runner {
        Some(_) => vec![AgentKind::Claude],
        None => opts.agents.clone(),
    };
    // every plan first: a refusal in any of them stops before a token is spent
    let mut plans = Vec::new();
    for k in &kinds {
        plans.push(build::build(catalog, config, skill, args, &opts, *k)?);
    }
    for b in &plans {
        if let Mode::Agent(a) = &b.mode {
            for c in a.agent.cautions() {
                eprintln!(
                    "skillgate: warning: {}",
                    crate::escape::text(&c.to_string())
                );
            }
        }
    }
    if args.dry_run {
        if plans.len() == 1 {
            render::dry_run(&plans[0], format, out).map_err(write_error)?;
        } else {
            render::dry_runs(&plans, format, out).map_err(write_error)?;
        }
        return Ok(Exit::Ok);
    }
    for b in &mut plans {
        b.mode.resolve()?;
        if let Mode::Agent(a) = &b.mode {
            b.plan.agent.version = a.version.clone();
            b.plan.agent.grader_version = a.grader_version.clone();
            b.plan.seal();
            if !args.allow_personal_copy {
                refuse_copies(b, a.agent.as_ref())?;
            }
        }
    }
    let mut swept = workspace::sweep_orphans(&std::env::temp_dir());
    if let Ok(root) = workspace::home_root() {
        swept.extend(workspace::sweep_orphans(&root));
    }
    for p in swept {
        eprintln!(
            "skillgate: removed {}, a workspace left by a skillgate run that was killed",
            crate::escape::line(&p.display().to_string())
        );
    }
    for b in &plans {
        preflight_fixtures(b)?;
    }
    if plans.len() == 1 {
        let b = plans.pop().expect("one plan");
        return run_plan(catalog, b, args, format, out, None);
    }
    let mut worst = Exit::Ok;
    if format == Format::Junit {
        // one document: every client's suites under one <testsuites>
        let mut suites = Vec::new();
        for b in plans {
            let exit = run_plan(
                catalog,
                b,
                args,
                format,
                &mut std::io::sink(),
                Some(&mut suites),
            )?;
            worst = worst.worst(exit);
        }
        crate::report::junit::write_clients(skill, &suites, out).map_err(write_error)?;
        return Ok(worst);
    }
    let mut docs = Vec::new();
    let mut lines = Vec::new();
    for b in plans {
        let label = match b.mode.agent() {
            Some(a) => format!(
                "{}{}",
                a.agent.product(),
                a.version
                    .as_ref()
                    .map(|v| format!(" {v}"))
                    .unwrap_or_default()
            ),
            None => "runner".into(),
        };
        let kind = b.plan.agent.kind.clone();
        let mut buf = Vec::new();
        if format != Format::Json {
            // the label quotes the CLI's own `--version` output
            writeln!(out, "client   {}", crate::escape::line(&label)).map_err(write_error)?;
        }
        let exit = run_plan(catalog, b, args, format, &mut buf, None)?;
        worst = worst.worst(exit);
        if format == Format::Json {
            let v: serde_json::Value =
                serde_json::from_slice(&buf).unwrap_or(serde_json::Value::Null);
            docs.push(serde_json::json!({"client": kind, "exit_code": exit.code(), "result": v}));
        } else {
            out.write_all(&buf).map_err(write_error)?;
            writeln!(out).map_err(write_error)?;
        }
        lines.push(format!("{label}: exit {}", exit.code()));
    }
    if format == Format::Json {
        crate::escape::to_writer_pretty(
            &mut *out,
            &serde_json::json!({"clients": docs, "exit_code": worst.code()}),
        )
        .map_err(|e| write_error(e.into()))?;
        writeln!(out).map_err(write_error)?;
    } else {
        writeln!(out, "clients  {}", lines.join("; ")).map_err(write_error)?;
    }
    Ok(worst)
}

/// Run one client's plan into a new iteration and score it.
fn run_plan(
    catalog: &Catalog,
    b: Built,
    args: &BehaveArgs,
    format: Format,
    out: &mut dyn Write,
    junit_sink: Option<&mut Vec<ClientSuites>>,
) -> Result<Exit, Fatal> {
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
        baseline_tree: b.baseline_tree.as_ref(),
        siblings: &b.siblings,
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
    let gates = b.plan.gates.unwrap_or(args.gates);
    let scoring = Scoring {
        skill_dir: b.skill_abs.clone(),
        gates,
        redactor,
    };
    finish(
        &iteration, &b.plan, &records, &scoring, format, out, junit_sink,
    )
}

/// Why an append-system-prompt iteration has no trigger statistics.
pub const APPENDED: &str = "the skill was in the system prompt of every with-skill run ([behave] install = \"append-system-prompt\"), so whether the agent would load it was not observed";

/// The scorer's options for an iteration of `plan` under `gates`.
pub fn score_options(plan: &PlanDoc, gates: Gates) -> crate::score::Options {
    let mut options = crate::score::Options::new(plan.trials, gates);
    if plan.agent.install.as_deref() == Some("append-system-prompt") {
        options.triggers_unobserved = Some(APPENDED.into());
    }
    options.baseline = plan.baseline.as_ref().map(|b| b.label.clone());
    options
}

/// How the finished iteration is scored.
struct Scoring {
    skill_dir: PathBuf,
    gates: Gates,
    /// What is kept out of the scorer's inputs.
    redactor: Redactor,
}

/// Write the iteration's summary files and score it (a whole, complete
/// iteration), or say why it is not scored.
fn finish(
    iteration: &Path,
    plan: &PlanDoc,
    records: &[(RunKey, RunRecord)],
    scoring: &Scoring,
    format: Format,
    out: &mut dyn Write,
    junit_sink: Option<&mut Vec<ClientSuites>>,
) -> Result<Exit, Fatal> {
    let redactor = &scoring.redactor;
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
        None => {
            let report = crate::score::score_files(
                &crate::score::Inputs {
                    skill_dir: &scoring.skill_dir,
                    cases: &iteration.join("cases.jsonl"),
                    observations: &obs,
                },
                &score_options(plan, scoring.gates),
            )?;
            if report.skill.skill_sha256 != plan.skill.sha256 {
                return Err(Fatal::usage(format!(
                    "{}: the skill changed while it was evaluated (skill hash {} at the start, {} now); the runs so far are in {shown} (not scored)",
                    scoring.skill_dir.display(),
                    plan.skill.sha256,
                    report.skill.skill_sha256
                ))
                .with_help("evaluate the skill again once nothing is writing to its folder"));
            }
            Some(report)
        }
    };
    let written = match (&why, &report) {
        _ if format == Format::Junit => junit(
            plan,
            records,
            report.as_ref(),
            why.as_ref(),
            out,
            junit_sink,
        ),
        (Some(results::Unscored::Missing { .. }), _) => {
            render::missing(plan, &shown, records, format, out)
        }
        (Some(w), _) => render::unscored(plan, &shown, records, &w.why(), format, out),
        (None, Some(r)) => crate::score::render(r, format, out).and_then(|()| {
            if format == Format::Json {
                Ok(())
            } else {
                writeln!(out, "results  {}", crate::escape::line(&shown))
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
    sink: Option<&mut Vec<ClientSuites>>,
) -> std::io::Result<()> {
    use crate::report::junit::{Tier3, client_suites, tier3};
    let mut runs: Vec<Vec<_>> = vec![Vec::new(); plan.cases.len()];
    for (k, r) in records {
        runs[k.case].push((k.variant, k.trial, Some(r)));
    }
    let t = Tier3 {
        skill: &plan.skill.name,
        client: sink.is_some().then_some(plan.agent.kind.as_str()),
        trials: plan.trials,
        cases: Tier3::cases_of(plan, &runs),
        report,
        unscored: why.map(|w| (w.why(), matches!(w, results::Unscored::Missing { .. }))),
    };
    match sink {
        Some(all) => {
            all.push(client_suites(&t));
            Ok(())
        }
        None => tier3(&t, out),
    }
}

/// Score the iteration's `cases.jsonl` and `observations.jsonl` (per
/// client when they hold several), refusing a skill that changed.
fn score_iteration(
    iteration: &Path,
    plan: &PlanDoc,
    options: &crate::score::Options,
    scoring: &Scoring,
    format: Format,
    out: &mut dyn Write,
) -> Result<Exit, Fatal> {
    let shown = iteration.display().to_string();
    let scored = crate::score::score_by_client(
        &crate::score::Inputs {
            skill_dir: &scoring.skill_dir,
            cases: &iteration.join("cases.jsonl"),
            observations: &iteration.join("observations.jsonl"),
        },
        options,
    )?;
    if scored.skill_sha256() != plan.skill.sha256 {
        return Err(Fatal::usage(format!(
            "{}: the skill changed while it was evaluated (skill hash {} at the start, {} now); the runs so far are in {shown} (not scored)",
            scoring.skill_dir.display(),
            plan.skill.sha256,
            scored.skill_sha256()
        ))
        .with_help("evaluate the skill again once nothing is writing to its folder"));
    }
    crate::score::render_scored(&scored, format, out).map_err(write_error)?;
    if format != Format::Json {
        writeln!(out, "results  {}", crate::escape::line(&shown)).map_err(write_error)?;
    }
    Ok(scored.exit())
}

/// Several clients' merged evaluations of one plan: each client's folder
/// (`<iteration>/<client>/`) gets its `benchmark.json` and observations,
/// the iteration the combined `cases.jsonl` and `observations.jsonl` (each
/// line naming its client), scored and gated per client.
fn finish_clients(
    iteration: &Path,
    parts: &[ClientPart],
    scoring: &Scoring,
    format: Format,
    out: &mut dyn Write,
) -> Result<Exit, Fatal> {
    let redactor = &scoring.redactor;
    let mut observations = String::new();
    for (plan, records, dir) in parts {
        results::write_json(
            &dir.join("benchmark.json"),
            &results::benchmark(plan, records),
        )?;
        if records.iter().any(|(_, r)| !r.evidence) {
            render::missing(plan, &dir.display().to_string(), records, format, out)
                .map_err(write_error)?;
            return Ok(Exit::Unavailable);
        }
        let only: Vec<RunRecord> = records.iter().map(|(_, r)| r.clone()).collect();
        let text = results::observations_jsonl(&only, redactor);
        results::write_text(&dir.join("observations.jsonl"), &text)?;
        observations.push_str(&text);
    }
    let plan = &parts[0].0;
    results::write_text(&iteration.join("cases.jsonl"), &results::cases_jsonl(plan))?;
    results::write_text(&iteration.join("observations.jsonl"), &observations)?;
    if plan.variants.len() < 2 {
        let why =
            "--no-baseline ran no without-skill arm, and the scorer only scores paired evidence";
        for (plan, records, dir) in parts {
            render::unscored(plan, &dir.display().to_string(), records, why, format, out)
                .map_err(write_error)?;
        }
        return Ok(Exit::Ok);
    }
    score_iteration(
        iteration,
        plan,
        &score_options(plan, scoring.gates),
        scoring,
        format,
        out,
    )
}

/// Refuse to start when a run would see a copy of the skill besides the
/// one a `with` run installs: in a folder every session of the client reads
/// (e.g. managed skills), or in an eval's fixtures. Names are matched the
/// way the client resolves them (folder or frontmatter `name` for Claude
/// Code). The client's personal folders need no check: every run gets a
/// fresh one.
fn refuse_copies(b: &Built, agent: &dyn crate::behave::agent::Agent) -> Result<(), Fatal> {
    let name = &b.plan.skill.name;
    let fixtures = b
        .cases
        .iter()
        .filter_map(|c| c.fixtures.as_deref())
        .flat_map(|t| t.items.iter())
        .filter_map(|i| {
            i.bytes
                .as_ref()
                .map(|bytes| (i.rel.as_str(), bytes.as_slice()))
        });
    let found = crate::behave::agent::copies_of(agent, name, fixtures, "evals/fixtures/");
    if found.is_empty() {
        return Ok(());
    }
    Err(Fatal::usage(format!(
        "{} would load another copy of `{name}` in every run: {}",
        agent.product(),
        found
            .iter()
            .map(|c| format!("{} ({})", c.path, c.why))
            .collect::<Vec<_>>()
            .join(", ")
    ))
    .with_help("without-skill runs would load it (a contaminated baseline) and with-skill runs could load it instead of the copy under test: move it away for the evaluation, or pass --allow-personal-copy if you accept that (a run that then loads or lists it still stops the evaluation)"))
}

/// Build each execution eval's workspace once before any run, so a fixture
/// whose patch does not apply stops everything with exit 2 instead of
/// leaving every run without evidence.
fn preflight_fixtures(b: &Built) -> Result<(), Fatal> {
    for c in &b.cases {
        if let Some(t) = &c.fixtures {
            workspace::create(&Setup {
                fixtures: Some(t),
                git: false,
                skills: &[],
                git_timeout: b.git_timeout,
                keep: false,
            })
            .map_err(|e| {
                Fatal::usage(format!(
                    "{} ({}): the workspace cannot be set up: {e}",
                    c.doc.id,
                    c.doc.origin.as_deref().unwrap_or(&b.plan.case_file)
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
            "skillgate: warning: {} was judged by other gates than {} ({} against {}); the merge uses the first folder's, and the flags given to merge over them",
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
        None => results::new_iteration(&results::skill_results(Path::new("."), &first.skill.name))?,
    };
    let scoring = Scoring {
        skill_dir: skill_dir.clone(),
        gates: args.gates.over(first.gates),
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
        plan.gates = Some(args.gates.over(plan.gates));
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

/// One client's merged evaluation: its plan, its runs, its folder.
type ClientPart = (PlanDoc, Vec<(RunKey, RunRecord)>, PathBuf);

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
