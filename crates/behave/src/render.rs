//! What Tier 3 prints of its own: the `--dry-run` plan, the list of runs
//! that produced no evidence, a shard's summary. The scorer's report is
//! printed by `score::render`.

use super::agent::Paths;
use super::build::{Built, SKILL_TEXT};
use super::exec::{Mode, label};
use super::plan::{CaseKind, PlanDoc, RunKey, Variant};
use super::results::RunRecord;
use crate::base::Format;
use serde_json::json;
use std::io::Write;

/// `arg` as a shell would need it typed (for display only: nothing here is
/// ever run through a shell).
pub fn shell_quote(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=,@%+".contains(c))
    {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

fn command_line(program: &str, args: &[String]) -> String {
    std::iter::once(program.to_string())
        .chain(args.iter().map(|a| {
            if a.len() > 200 || a.contains('\n') {
                format!("{SKILL_TEXT}({} bytes)", a.len())
            } else {
                shell_quote(a)
            }
        }))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The folders of a call as `--dry-run` shows them: a workspace under the
/// system's temporary folder, and `<run-home>`.
fn template() -> Paths<'static> {
    static WS: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    Paths {
        cwd: WS.get_or_init(|| {
            let tmp = std::env::temp_dir();
            tmp.canonicalize().unwrap_or(tmp).join("<workspace>")
        }),
        home: std::path::Path::new("<run-home>"),
    }
}

/// One planned run, for `--dry-run`.
struct PlannedRun {
    key: RunKey,
    workspace: String,
    fixtures: Vec<String>,
    patches: Vec<String>,
    skill_installed: bool,
    /// What is installed under the skill's name: `skill`, `baseline`.
    installed: Option<&'static str>,
    command: Vec<String>,
    graded: bool,
}

fn planned(b: &Built) -> Vec<PlannedRun> {
    b.plan
        .runs()
        .into_iter()
        .filter(|k| b.plan.shard.holds(k.index))
        .map(|key| {
            let case = &b.cases[key.case];
            let with = key.variant == Variant::With;
            let (program, args, discover, graded) = match &b.mode {
                Mode::Agent(a) => (
                    a.agent.program().to_string(),
                    a.agent
                        .executor(
                            &template(),
                            if with {
                                a.append.as_deref()
                            } else {
                                a.baseline_append.as_deref()
                            },
                        )
                        .args,
                    a.append.is_none(),
                    case.doc.kind.is_eval(),
                ),
                Mode::Runner { argv, .. } => (argv[0].clone(), argv[1..].to_vec(), false, false),
            };
            let installed = match (with, discover, b.baseline_tree.is_some()) {
                (true, true, _) => Some("skill"),
                (false, true, true) => Some("baseline"),
                _ => None,
            };
            let workspace = match (case.doc.kind, &b.mode) {
                (CaseKind::Execution, _) => "git repository",
                (_, Mode::Agent(_)) => "empty git repository",
                _ => "empty folder",
            };
            PlannedRun {
                key,
                workspace: workspace.into(),
                fixtures: case.doc.files.clone(),
                patches: case
                    .fixtures
                    .as_ref()
                    .map(|t| t.patches.iter().map(|(p, _)| p.clone()).collect())
                    .unwrap_or_default(),
                skill_installed: with && discover,
                installed,
                command: std::iter::once(program).chain(args).collect(),
                graded,
            }
        })
        .collect()
}

/// The `--dry-run` JSON document of one plan.
fn dry_run_doc(b: &Built) -> serde_json::Value {
    let runs = planned(b);
    let p = &b.plan;
    {
        let list: Vec<_> = runs
            .iter()
            .map(|r| {
                let mut cmd = r.command.clone();
                if let Some(last) = cmd.last_mut()
                    && last.contains('\n')
                {
                    *last = SKILL_TEXT.to_string();
                }
                json!({
                    "run": r.key.index + 1,
                    "case": p.cases[r.key.case].id,
                    "trial": r.key.trial,
                    "variant": r.key.variant.as_str(),
                    "dir": r.key.rel_dir(p),
                    "workspace": r.workspace,
                    "fixtures": r.fixtures,
                    "patches": r.patches,
                    "skill_installed": r.skill_installed,
                    "installed": r.installed,
                    "siblings_installed": b.siblings.len(),
                    "command": cmd,
                    "stdin": "prompt",
                    "graded": r.graded,
                    "first_request_tokens": super::budget::first_request(b, r.key.case, r.key.variant == Variant::With).map(super::budget::tokens),
                })
            })
            .collect();
        let mut doc = json!({"plan": p, "runs": list, "cost": cost(b)});
        let s = super::budget::Sufficiency::of(p);
        if s.insufficient() {
            doc["insufficient"] = json!(s.message());
        }
        if let Mode::Agent(a) = &b.mode {
            let files = |call: crate::behave::agent::Call| -> Vec<serde_json::Value> {
                call.files
                    .iter()
                    .map(|(rel, bytes)| {
                        json!({"path": format!("<run-home>/{rel}"), "text": String::from_utf8_lossy(bytes)})
                    })
                    .collect()
            };
            doc["home_files"] = json!(files(a.agent.executor(&template(), None)));
            doc["grader_home_files"] = json!(files(a.grader().grader(&template())));
            doc["run_homes"] = json!(if a.agent.home_outside_tmp() {
                "skillsift's cache folder, run-homes/ (not the temporary folder)"
            } else {
                "the temporary folder"
            });
        }
        doc
    }
}

/// Print several plans (`--agent a,b`); nothing is spawned.
pub fn dry_runs(plans: &[Built], format: Format, out: &mut dyn Write) -> std::io::Result<()> {
    if format == Format::Json {
        let docs: Vec<_> = plans
            .iter()
            .map(|b| json!({"client": b.plan.agent.kind, "dry_run": dry_run_doc(b)}))
            .collect();
        crate::escape::to_writer_pretty(&mut *out, &json!({"clients": docs}))?;
        return writeln!(out);
    }
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    for (i, b) in plans.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "client   {}", b.plan.agent.kind)?;
        dry_run(b, format, out)?;
    }
    Ok(())
}

/// One home file for people: JSON on one line, other text indented below.
fn home_file(out: &mut dyn Write, rel: &str, bytes: &[u8]) -> std::io::Result<()> {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(v) => writeln!(out, "file     <run-home>/{rel}: {v}"),
        Err(_) => {
            writeln!(out, "file     <run-home>/{rel}:")?;
            for l in String::from_utf8_lossy(bytes).lines() {
                writeln!(out, "         | {l}")?;
            }
            Ok(())
        }
    }
}

/// What a plan costs: runs, grader calls and a bound of model turns, as
/// planned and as `--trigger-runs full` would run it (this shard's runs).
fn cost(b: &Built) -> serde_json::Value {
    let p = &b.plan;
    let count = |plan: &PlanDoc| {
        let runs: Vec<RunKey> = plan
            .runs()
            .into_iter()
            .filter(|k| plan.shard.holds(k.index))
            .collect();
        let graded = runs
            .iter()
            .filter(|k| plan.cases[k.case].kind.is_eval() && b.mode.agent().is_some())
            .count();
        let watched = runs.iter().filter(|k| plan.watched(k.case)).count();
        // the first request of every run and every grader call, before the
        // turns that resend the conversation and the transcript graded
        let tokens = runs
            .iter()
            .map(|k| super::budget::first_request(b, k.case, k.variant == Variant::With))
            .chain(std::iter::repeat_n(
                super::budget::grader_request(b),
                graded,
            ))
            .map(|bytes| bytes.map(super::budget::tokens))
            .sum::<Option<usize>>();
        (runs.len(), graded, watched, tokens)
    };
    let (runs, graders, watched, tokens) = count(p);
    let mut full = p.clone();
    full.trigger_runs = super::plan::TriggerRuns::Full;
    let (full_runs, full_graders, _, full_tokens) = count(&full);
    let turns = p
        .trigger_turns
        .unwrap_or(super::decide::DEFAULT_TRIGGER_TURNS) as usize;
    let client = b.mode.agent().map(|a| {
        let size = a.agent.request_size();
        let t = super::budget::tokens;
        json!({
            "agent_tokens": t(size.agent),
            "skills_section_tokens": t(size.skills_section),
            "grader_tokens": t(a.grader().request_size().grader),
            "measured_on": a.agent.tested_version(),
        })
    });
    json!({
        "runs": runs,
        "grader_calls": graders,
        "client_request": client,
        "watched_trigger_runs": watched,
        // a watched run is stopped after its turn limit; one more request
        // may be in flight when it is
        "trigger_turns_at_most": watched * (turns + 1),
        "unbounded_runs": runs - watched,
        "input_tokens_at_least": tokens,
        "full": {"runs": full_runs, "grader_calls": full_graders, "unbounded_runs": full_runs, "input_tokens_at_least": full_tokens},
    })
}

/// The cost lines of the human dry run.
fn cost_lines(b: &Built, out: &mut dyn Write) -> std::io::Result<()> {
    let c = cost(b);
    let n = |k: &str| c[k].as_u64().unwrap_or(0);
    writeln!(
        out,
        "cost     {}, {}{}; {} stopped once decided (at most {} in all), {} to their end (turns bounded only by [behave] executor-timeout-secs)",
        crate::base::plural::count(n("runs") as usize, "run"),
        crate::base::plural::count(n("grader_calls") as usize, "grader call"),
        match c["input_tokens_at_least"].is_null() {
            true => String::new(),
            false => format!(
                ", ≥ {} input tokens",
                crate::base::plural::thousands(n("input_tokens_at_least") as usize)
            ),
        },
        crate::base::plural::count(n("watched_trigger_runs") as usize, "trigger run"),
        crate::base::plural::count(n("trigger_turns_at_most") as usize, "model turn"),
        crate::base::plural::count(n("unbounded_runs") as usize, "run")
    )?;
    let thousands =
        |v: &serde_json::Value| crate::base::plural::thousands(v.as_u64().unwrap_or(0) as usize);
    let full_tokens = match c["full"]["input_tokens_at_least"].is_null() {
        true => String::new(),
        false => format!(
            ", ≥ {} input tokens",
            thousands(&c["full"]["input_tokens_at_least"])
        ),
    };
    writeln!(
        out,
        "         with --trigger-runs full: {}, {}{full_tokens}, every run to its end",
        crate::base::plural::count(c["full"]["runs"].as_u64().unwrap_or(0) as usize, "run"),
        crate::base::plural::count(
            c["full"]["grader_calls"].as_u64().unwrap_or(0) as usize,
            "grader call"
        )
    )?;
    match &b.mode {
        Mode::Agent(a) => {
            let size = a.agent.request_size();
            let grader = a.grader();
            let t = |bytes| crate::base::plural::thousands(super::budget::tokens(bytes));
            writeln!(
                out,
                "tokens   counted: the first request of each run, ≈ {} tokens of {}'s system prompt and tool definitions (measured on {}) and the prompt and listing; ≈ {} tokens a grader call before the transcript it grades. Not counted: every further model turn resends the conversation, and the output",
                t(size.agent),
                a.agent.product(),
                a.agent.tested_version(),
                t(grader.request_size().grader),
            )
        }
        Mode::Runner { .. } => writeln!(
            out,
            "tokens   not estimated: a runner's requests are its own (each case below gives what its listing and prompt add)"
        ),
    }
}

/// Print the plan; nothing is spawned.
pub fn dry_run(b: &Built, format: Format, out: &mut dyn Write) -> std::io::Result<()> {
    let runs = planned(b);
    let p = &b.plan;
    if format == Format::Json {
        crate::escape::to_writer_pretty(&mut *out, &dry_run_doc(b))?;
        return writeln!(out);
    }
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    let s = super::budget::Sufficiency::of(p);
    if s.insufficient() {
        writeln!(out, "insufficient  {}", s.message())?;
        writeln!(
            out,
            "              a run is refused without --allow-insufficient; {}",
            super::budget::add_cases(&p.skill.name, b.prompts_written)
        )?;
    }
    writeln!(
        out,
        "plan     {} for skill {}: {} ({})",
        crate::base::plural::count(p.total_runs, "run"),
        p.skill.name,
        p.shape(),
        if p.case_files.is_empty() {
            p.case_file.clone()
        } else {
            p.case_files.join(", ")
        }
    )?;
    if p.shard.count > 1 {
        writeln!(
            out,
            "shard    {}/{}: {} of the {} runs",
            p.shard.index,
            p.shard.count,
            runs.len(),
            p.total_runs
        )?;
    }
    match &b.mode {
        Mode::Agent(a) => {
            let agent = a.agent.as_ref();
            writeln!(
                out,
                "skill    {} ({})",
                p.skill.path,
                if a.append.is_none() {
                    format!(
                        "copied without evals/ into <workspace>/{}/ in with runs",
                        agent.install_dir(&p.skill.name).display()
                    )
                } else {
                    "passed with --append-system-prompt in with runs".to_string()
                }
            )?;
            if let Some(base) = &p.baseline {
                writeln!(
                    out,
                    "baseline {} ({}, skill hash {}): {}",
                    base.label,
                    match &base.commit {
                        Some(c) => format!("{} at commit {c}, read with git", base.path),
                        None => format!("the folder {}", base.path),
                    },
                    &base.sha256[..12],
                    if a.baseline_append.is_some() {
                        "passed with --append-system-prompt in baseline runs".to_string()
                    } else {
                        format!(
                            "copied into <workspace>/{}/ in baseline runs (results in old_skill/)",
                            agent.install_dir(&p.skill.name).display()
                        )
                    }
                )?;
            }
            if !p.siblings.is_empty() {
                writeln!(
                    out,
                    "siblings {} other skill{} installed in both arms: {}",
                    p.siblings.len(),
                    if p.siblings.len() == 1 { "" } else { "s" },
                    p.siblings
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )?;
            }
            writeln!(
                out,
                "agent    {} (tested with {}), every call in a fresh run home (<run-home>, {}, removed afterwards)",
                agent.product(),
                agent.tested_version(),
                if agent.home_outside_tmp() {
                    "in skillsift's cache folder, run-homes/"
                } else {
                    "in the temporary folder"
                }
            )?;
            if let Some(t) = agent.tools() {
                writeln!(out, "tools    {}", t.join(", "))?;
            }
            let (set, removed) = agent.environment_doc();
            for (k, v) in &set {
                writeln!(out, "env      {k}={}", shell_quote(v))?;
            }
            writeln!(out, "env      {removed}")?;
            for (rel, bytes) in agent.executor(&template(), None).files {
                home_file(out, &rel, &bytes)?;
            }
            let g = a.grader();
            writeln!(
                out,
                "grader   {}{}  (prompt on stdin; the trace fenced as untrusted data)",
                if g.kind() != agent.kind() {
                    format!("{}: ", g.product())
                } else {
                    String::new()
                },
                command_line(g.program(), &g.grader(&template()).args)
            )?;
            for (rel, bytes) in g.grader(&template()).files {
                if agent
                    .executor(&template(), None)
                    .files
                    .iter()
                    .any(|(r, b)| *r == rel && *b == bytes)
                {
                    continue;
                }
                write!(out, "grader ")?;
                home_file(out, &rel, &bytes)?;
            }
        }
        Mode::Runner {
            timeout, max_bytes, ..
        } => {
            writeln!(
                out,
                "runner   prompt on stdin; SKILLSIFT_VARIANT and SKILLSIFT_SKILL_DIR={} set; {} ms, {} bytes at most",
                b.skill_abs.display(),
                timeout.as_millis(),
                max_bytes
            )?;
        }
    }
    writeln!(
        out,
        "results  evals/results/{}/iteration-<next>/",
        p.skill.name
    )?;
    cost_lines(b, out)?;
    // the command line, once per arm (every run of an arm starts the same
    // program with the same arguments; the prompt goes to stdin)
    for v in p.variants.iter() {
        if let Some(r) = runs.iter().find(|r| r.key.variant == *v) {
            writeln!(
                out,
                "{:<8} $ {} < prompt",
                v.as_str(),
                command_line(&r.command[0], &r.command[1..])
            )?;
        }
    }
    writeln!(out)?;
    for (ci, c) in p.cases.iter().enumerate() {
        let arms: Vec<String> = p
            .arms_of(ci)
            .iter()
            .map(|v| {
                let with = *v == Variant::With;
                match super::budget::first_request(b, ci, with) {
                    Some(f) => format!(
                        "{} ≈ {} tokens",
                        v.as_str(),
                        crate::base::plural::thousands(super::budget::tokens(f))
                    ),
                    None => {
                        let f = super::budget::input_floor(b, ci, with);
                        format!(
                            "{} ≥ {f} chars ≈ {} tokens",
                            v.as_str(),
                            super::budget::tokens(f)
                        )
                    }
                }
            })
            .collect();
        writeln!(
            out,
            "case     {:<24} {}  ({}: {})",
            c.id,
            super::budget::shown_prompt(&c.prompt, 160),
            match b.mode {
                Mode::Agent(_) => "first request",
                Mode::Runner { .. } => "input per run",
            },
            arms.join(", ")
        )?;
        // A command check is the author's own program, run on this
        // machine: shown in full so a reviewer sees what will run.
        for e in &c.expectations {
            if let Some(crate::catalog::cases::expectation::Check::Command { argv, timeout_secs }) =
                &e.check
            {
                writeln!(
                    out,
                    "command  {:<24} $ {}  (in <workspace>, after the agent, on this machine; timeout {} s; the environment without secret-looking variables)",
                    c.id,
                    argv.iter()
                        .map(|a| shell_quote(a))
                        .collect::<Vec<_>>()
                        .join(" "),
                    timeout_secs
                        .unwrap_or(crate::catalog::cases::expectation::DEFAULT_COMMAND_SECS)
                )?;
            }
        }
    }
    writeln!(out)?;
    for r in &runs {
        let mut ws = r.workspace.clone();
        if !r.fixtures.is_empty() && r.workspace == "git repository" {
            ws.push_str(&format!(" with {} committed", r.fixtures.join(", ")));
        }
        if !r.patches.is_empty() {
            ws.push_str(&format!(", then {} applied", r.patches.join(", ")));
        }
        ws.push_str(match r.installed {
            Some("skill") => "; skill installed",
            Some(_) => "; baseline version installed",
            None => "; no skill",
        });
        if !b.siblings.is_empty() {
            ws.push_str(&format!(" (+ {} siblings)", b.siblings.len()));
        }
        writeln!(
            out,
            "run {:>3}  {:<24} {}{}{}",
            r.key.index + 1,
            label(p, &r.key),
            ws,
            if p.watched(r.key.case) {
                "; stopped once decided"
            } else {
                ""
            },
            if r.graded {
                let ex = &p.cases[r.key.case].expectations;
                let checks = ex.iter().filter(|e| e.check.is_some()).count();
                let blockers = ex
                    .iter()
                    .filter(|e| e.kind == super::plan::ExpectKind::Blocker)
                    .count();
                format!(
                    "; graded on {} expectation(s){}",
                    ex.len(),
                    if checks + blockers > 0 {
                        format!(" ({checks} checked by skillsift itself, {blockers} blocker(s))")
                    } else {
                        String::new()
                    }
                )
            } else {
                String::new()
            }
        )?;
    }
    writeln!(out)?;
    writeln!(out, "dry run: nothing was started")
}

/// Runs without evidence: why, and where to look.
pub fn missing(
    plan: &PlanDoc,
    iteration: &str,
    records: &[(RunKey, RunRecord)],
    format: Format,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let missing: Vec<_> = records.iter().filter(|(_, r)| !r.evidence).collect();
    if format == Format::Json {
        let list: Vec<_> = missing
            .iter()
            .map(|(k, r)| {
                json!({
                    "case": r.case_id,
                    "trial": r.trial,
                    "variant": r.variant.as_str(),
                    "dir": format!("{iteration}/{}", k.rel_dir(plan)),
                    "reason": r.reason,
                })
            })
            .collect();
        let doc = json!({
            "skill": plan.skill.name,
            "results": iteration,
            "runs": records.len(),
            "missing": list,
            "verdict": "unavailable",
        });
        crate::escape::to_writer_pretty(&mut *out, &doc)?;
        return writeln!(out);
    }
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    writeln!(
        out,
        "evidence could not be collected: {} of {} runs produced no verdict, so nothing was scored",
        missing.len(),
        records.len()
    )?;
    for (k, r) in &missing {
        writeln!(
            out,
            "  {:<24} {}",
            label(plan, k),
            r.reason.as_deref().unwrap_or("unknown reason")
        )?;
        writeln!(out, "  {:<24} see {iteration}/{}", "", k.rel_dir(plan))?;
    }
    writeln!(out, "results  {iteration}")?;
    writeln!(out, "verdict  unavailable (exit 4)")
}

/// Whether the skill was in the system prompt (no trigger evidence).
fn appended(plan: &PlanDoc) -> bool {
    plan.agent.install.as_deref() == Some("append-system-prompt")
}

/// A shard or a no-baseline run: what ran, and why it is not scored here.
pub fn unscored(
    plan: &PlanDoc,
    iteration: &str,
    records: &[(RunKey, RunRecord)],
    why: &str,
    format: Format,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let with: Vec<_> = records
        .iter()
        .filter(|(k, _)| k.variant == Variant::With)
        .collect();
    let loaded = with
        .iter()
        .filter(|(_, r)| {
            r.invoked_skills
                .iter()
                .any(|s| crate::score::input::loads(s, &plan.skill.name))
        })
        .count();
    let graded: Vec<_> = records
        .iter()
        .filter(|(_, r)| {
            r.exit_code.is_some()
                && plan
                    .cases
                    .iter()
                    .any(|c| c.id == r.case_id && c.kind.is_eval())
        })
        .collect();
    let passed = graded
        .iter()
        .filter(|(_, r)| r.exit_code == Some(0))
        .count();
    if format == Format::Json {
        let doc = json!({
            "skill": plan.skill.name,
            "results": iteration,
            "shard": plan.shard,
            "runs": records.len(),
            "with_runs_loading_skill": (!appended(plan)).then_some(loaded),
            "with_runs": with.len(),
            "eval_runs_passed": passed,
            "eval_runs": graded.len(),
            "scored": false,
            "why": why,
        });
        crate::escape::to_writer_pretty(&mut *out, &doc)?;
        return writeln!(out);
    }
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    writeln!(out, "skill    {}", plan.skill.name)?;
    let loads = if appended(plan) {
        String::new()
    } else {
        format!("the skill loaded in {loaded} of {} with runs; ", with.len())
    };
    writeln!(
        out,
        "runs     {} done; {loads}{passed} of {} eval runs passed every expectation",
        records.len(),
        graded.len()
    )?;
    writeln!(out, "results  {iteration}")?;
    writeln!(out, "not scored: {why}")
}
