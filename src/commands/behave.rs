//! `skillsift check --behavioral SKILL [ROOT]` (`merge` is in `merge.rs`).
//!
//! `check --behavioral`: build the plan (refusing bad input before anything
//! runs), print it and stop (`--dry-run`), or check that the agent exists and
//! that no copy of the skill other than the one under test is where every
//! run would see it, run this shard's runs (a run that shows such a copy
//! anyway stops the evaluation at once), write the iteration folder, and
//! score it with the shared scorer. `merge`: check that shard folders come from the same plan and
//! together hold every run exactly once, copy them into one iteration, and
//! score it exactly as a whole run would be scored.

use crate::behave::BehaveArgs;
use crate::behave::agent::AgentKind;
use crate::behave::build::{self, Built};
use crate::behave::exec::{self, Ctx, Mode};
use crate::behave::iteration::score_options;
use crate::behave::plan::{PlanDoc, RunKey};
use crate::behave::process;
use crate::behave::progress::Progress;
use crate::behave::redact::Redactor;
use crate::behave::render;
use crate::behave::results::{self, RunRecord};
use crate::behave::workspace::{self, Setup};
use crate::catalog::Catalog;
use crate::cli::Format;
use crate::config::Config;
use crate::exit::{Exit, Fatal};
use crate::report::junit::ClientSuites;
use crate::report::write_error;
use crate::score::Gates;
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
            format.as_str()
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
                    "skillsift: warning: {}",
                    crate::escape::text(&c.to_string())
                );
            }
        }
    }
    // A results folder that leads out of the catalog is refused before
    // anything runs (in the dry run too).
    for b in &plans {
        results::preflight(&catalog.root, &b.plan.skill.name)?;
    }
    if !args.dry_run {
        for b in &plans {
            let s = behave::budget::Sufficiency::of(&b.plan);
            if !s.insufficient() {
                continue;
            }
            if args.allow_insufficient {
                eprintln!("skillsift: warning: {} (--allow-insufficient)", s.message());
            } else {
                return Err(Fatal::new(
                    Exit::Insufficient,
                    format!(
                        "{}: {}; nothing was started",
                        b.plan.skill.name,
                        s.message()
                    ),
                )
                .with_help(behave::budget::add_cases(
                    &b.plan.skill.name,
                    b.prompts_written,
                )));
            }
        }
    }
    if args.dry_run {
        if plans.len() == 1 {
            render::dry_run(&plans[0], format, out).map_err(write_error)?;
        } else {
            render::dry_runs(&plans, format, out).map_err(write_error)?;
        }
        // the real run would end "insufficient" (refused, or scored so
        // with --allow-insufficient): the dry run answers as it would
        let insufficient = plans
            .iter()
            .any(|b| behave::budget::Sufficiency::of(&b.plan).insufficient());
        return Ok(if insufficient {
            Exit::Insufficient
        } else {
            Exit::Ok
        });
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
            "skillsift: removed {}, a workspace left by a skillsift run that was killed",
            crate::escape::line(&p.display().to_string())
        );
    }
    for b in &plans {
        preflight_fixtures(b)?;
    }
    for b in &mut plans {
        if let Mode::Agent(a) = &b.mode {
            let outcome = behave::canary::ensure(&b.plan, a, b.grace, b.git_timeout)?;
            eprintln!(
                "skillsift: canary: {} loads are seen{}",
                a.agent.product(),
                match outcome {
                    behave::canary::Outcome::Passed => " (checked now)",
                    behave::canary::Outcome::Cached =>
                        " (a canary passed before for this version, model and provider)",
                }
            );
            b.canary = Some(outcome);
        }
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
        writeln!(out, "clients  {}", crate::escape::line(&lines.join("; ")))
            .map_err(write_error)?;
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
    let iteration = results::new_iteration(&catalog.root, &b.plan.skill.name)?;
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
        "skillsift: {} runs of {} ({} trial{}, {}) into {}",
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
                        .is_some_and(|m| m.starts_with("skillsift was interrupted")))
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
    let exit = finish(
        &iteration, &b.plan, &records, &scoring, format, out, junit_sink,
    )?;
    Ok(exit.worst(no_load_at_all(&b, &records, format, out)?))
}

/// When no positive trigger prompt loaded any skill at all, the report says
/// that this looks like a harness problem, not a description problem; exit
/// 4 unless the canary passed in this same run (then the client was seen
/// loading a skill minutes ago, and the descriptions are what failed).
fn no_load_at_all(
    b: &Built,
    records: &[(RunKey, RunRecord)],
    format: Format,
    out: &mut dyn Write,
) -> Result<Exit, Fatal> {
    let positives: Vec<&RunRecord> = records
        .iter()
        .filter(|(k, _)| {
            let c = &b.plan.cases[k.case];
            c.kind == behave::plan::CaseKind::Trigger
                && c.expect_trigger
                && k.variant == behave::plan::Variant::With
        })
        .map(|(_, r)| r)
        .collect();
    if positives.is_empty()
        || positives
            .iter()
            .any(|r| !r.evidence || !r.invoked_skills.is_empty())
    {
        return Ok(Exit::Ok);
    }
    let fresh = b.canary == Some(behave::canary::Outcome::Passed);
    let msg = format!(
        "no positive trigger prompt loaded any skill ({} run{}): this looks like a harness problem, not a description problem{}",
        positives.len(),
        if positives.len() == 1 { "" } else { "s" },
        if fresh {
            "; but the canary passed in this run, so the client's loads are seen: the descriptions do not reach the model"
        } else {
            "; the canary that proved loads are seen passed in an earlier run (cached), so the client, its model or the harness may have changed since: exit 4"
        }
    );
    if format == Format::Human {
        writeln!(out, "harness  {msg}").map_err(write_error)?;
    } else {
        eprintln!("skillsift: warning: {msg}");
    }
    Ok(if fresh { Exit::Ok } else { Exit::Unavailable })
}

/// How the finished iteration is scored.
pub(super) struct Scoring {
    pub(super) skill_dir: PathBuf,
    pub(super) gates: Gates,
    /// What is kept out of the scorer's inputs.
    pub(super) redactor: Redactor,
}

/// Write the iteration's summary files and score it (a whole, complete
/// iteration), or say why it is not scored.
pub(super) fn finish(
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
        (None, Some(r)) => crate::report::scored::render(r, format, out).and_then(|()| {
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
    crate::report::scored::render_scored(&scored, format, out).map_err(write_error)?;
    if format != Format::Json {
        writeln!(out, "results  {}", crate::escape::line(&shown)).map_err(write_error)?;
    }
    Ok(scored.exit())
}

/// Several clients' merged evaluations of one plan: each client's folder
/// (`<iteration>/<client>/`) gets its `benchmark.json` and observations,
/// the iteration the combined `cases.jsonl` and `observations.jsonl` (each
/// line naming its client), scored and gated per client.
pub(super) fn finish_clients(
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
        let why = "--with-skill-only ran no without-skill arm, and the scorer only scores paired evidence";
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

/// One client's merged evaluation: its plan, its runs, its folder.
pub(super) type ClientPart = (PlanDoc, Vec<(RunKey, RunRecord)>, PathBuf);
