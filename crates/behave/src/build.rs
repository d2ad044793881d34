//! From a loaded catalog and the command line to a plan: which skill, which
//! cases, which files go into each workspace, which command runs.
//!
//! The cases are the skill's merged suite: its case file and the case
//! sources in its own folder (evals.json, trigger sets, waza files), drafts
//! left out. Everything that can be refused is refused here, before
//! anything is spawned: an unknown skill, a skill without cases, Tier 1
//! errors in any of its case files (they stop Tier 3 from spending tokens),
//! a fixture path or link leading out of the folder it is relative to
//! (`evals/fixtures/`, or the skill folder for evals.json), bad flags or
//! `[behave]` values.

use super::agent::{Agent, AgentKind, Paths};
use super::exec::{AgentMode, Mode};
use super::plan::{
    AgentDoc, Case, CaseDoc, CaseKind, ExpectationDoc, PLAN_FORMAT, PlanDoc, Shard, SiblingDoc,
    SkillDoc, Variant, safe_id,
};
use super::runner;
use super::workspace::Tree;
use crate::args::BehaveArgs;
use crate::catalog::cases::{Check, EvalKind, FixtureBase, Suite};
use crate::catalog::{Catalog, Target};
use crate::config::{BehaveConfig, Config, InstallMode};
use crate::diag::Severity;
use crate::exit::Fatal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// A plan ready to run.
pub struct Built {
    pub plan: PlanDoc,
    pub cases: Vec<Case>,
    pub mode: Mode,
    pub skill_tree: Tree,
    /// The earlier version the baseline arm installs (`--baseline-skill`).
    pub baseline_tree: Option<Tree>,
    /// The other skills both arms install (`--with-siblings`): name, files.
    pub siblings: Vec<(String, Tree)>,
    pub skill_abs: PathBuf,
    pub grace: Duration,
    pub git_timeout: Duration,
    /// The canary's outcome, once it ran or was found cached.
    pub canary: Option<super::canary::Outcome>,
}

/// Checked command-line options.
#[derive(Debug, Clone)]
pub struct Opts {
    pub shard: Shard,
    pub runner: Option<(Vec<String>, Duration, u64)>,
    /// The clients to run, in order (one plan and iteration each).
    pub agents: Vec<AgentKind>,
    /// The client that grades; `None`: each run's own.
    pub grader: Option<AgentKind>,
}

/// Check the Tier 3 flags on their own.
pub fn opts(args: &BehaveArgs, config: &BehaveConfig) -> Result<Opts, Fatal> {
    if args.trials == 0 || args.trials > crate::score::MAX_TRIALS {
        return Err(Fatal::usage(format!(
            "--trials must be between 1 and {}, not {}",
            crate::score::MAX_TRIALS,
            args.trials
        )));
    }
    if args.jobs == 0 {
        return Err(Fatal::usage("--jobs must be at least 1"));
    }
    let shard = match &args.shard {
        Some(s) => Shard::parse(s).map_err(Fatal::usage)?,
        None => Shard::WHOLE,
    };
    if args.runner.is_none() && (args.timeout_ms.is_some() || args.max_bytes.is_some()) {
        return Err(Fatal::usage(
            "--timeout-ms and --max-bytes apply to --runner only",
        )
        .with_help("the built-in agent's limits live in skillgate.toml: [behave] executor-timeout-secs, max-trace-bytes"));
    }
    if args.no_baseline
        && (args.gates.min_uplift.is_some()
            || args.gates.min_trigger_f1.is_some()
            || args.gates.min_quality_delta.is_some())
    {
        return Err(Fatal::usage(
            "--with-skill-only leaves nothing to score, so --min-uplift, --min-trigger-f1 and --min-quality-delta cannot be checked",
        )
        .with_help("drop --with-skill-only to run the paired baseline the scorer needs"));
    }
    if args.runner.is_none()
        && config.install == InstallMode::AppendSystemPrompt
        && args.gates.min_trigger_f1.is_some()
    {
        return Err(Fatal::usage(
            "--min-trigger-f1 cannot be checked with [behave] install = \"append-system-prompt\": the skill is always in the prompt, so whether the agent would load it is not observed",
        ));
    }
    let agents = match &args.agent {
        Some(list) => AgentKind::parse_list(list).map_err(|e| {
            Fatal::usage(format!("--agent {list}: {e}"))
                .with_help("e.g. --agent codex, or --agent claude,gemini")
        })?,
        None => {
            let v = config.agent.kinds();
            if v.is_empty() {
                return Err(config_error("agent", "names no client"));
            }
            let mut seen = std::collections::HashSet::new();
            if let Some(k) = v.iter().find(|k| !seen.insert(**k)) {
                return Err(config_error("agent", format!("names `{k}` twice")));
            }
            v
        }
    };
    let grader = args.grader_agent.or(config.grader_agent);
    if args.runner.is_some() && (args.agent.is_some() || args.grader_agent.is_some()) {
        return Err(Fatal::usage(
            "--runner replaces the built-in agents: --agent and --grader-agent do not apply",
        ));
    }
    if args.runner.is_none()
        && config.install == InstallMode::AppendSystemPrompt
        && let Some(k) = agents.iter().find(|k| **k != AgentKind::Claude)
    {
        return Err(Fatal::usage(format!(
            "[behave] install = \"append-system-prompt\" works with Claude Code only (`--append-system-prompt`); {k} has no such flag"
        ))
        .with_help("use install = \"discover\", which copies the skill where each client finds it"));
    }
    if args.runner.is_some() && (args.baseline_skill.is_some() || args.with_siblings) {
        return Err(Fatal::usage(
            "--compare-skill and --with-siblings install skills into the agent's workspace; a --runner installs its own",
        )
        .with_help("run them with the built-in agent, or make your runner read SKILLGATE_VARIANT and install what each arm needs"));
    }
    let runner = match &args.runner {
        None => None,
        Some(cmd) => {
            let argv = runner::split_command(cmd)
                .map_err(|e| Fatal::usage(format!("--runner `{cmd}`: {e}")))?;
            let timeout = args.timeout_ms.unwrap_or(runner::DEFAULT_TIMEOUT_MS);
            if timeout == 0 || timeout > runner::MAX_TIMEOUT_MS {
                return Err(Fatal::usage(format!(
                    "--timeout-ms must be between 1 and {}, not {timeout}",
                    runner::MAX_TIMEOUT_MS
                )));
            }
            let max = args.max_bytes.unwrap_or(runner::DEFAULT_MAX_BYTES);
            if max == 0 || max > runner::MAX_MAX_BYTES {
                return Err(Fatal::usage(format!(
                    "--max-bytes must be between 1 and {}, not {max}",
                    runner::MAX_MAX_BYTES
                )));
            }
            Some((argv, Duration::from_millis(timeout), max))
        }
    };
    Ok(Opts {
        shard,
        runner,
        agents,
        grader,
    })
}

pub(crate) fn config_error(key: &str, msg: impl std::fmt::Display) -> Fatal {
    Fatal::usage(format!("skillgate.toml: [behave] {key}: {msg}"))
}

/// Check the `[behave]` limits.
fn check_limits(c: &BehaveConfig) -> Result<(), Fatal> {
    for (key, v) in [
        ("executor-timeout-secs", c.executor_timeout_secs),
        ("grader-timeout-secs", c.grader_timeout_secs),
        ("max-trace-bytes", c.max_trace_bytes),
        ("max-grader-bytes", c.max_grader_bytes),
        ("git-timeout-secs", c.git_timeout_secs),
    ] {
        if v == 0 {
            return Err(config_error(key, "must be at least 1"));
        }
    }
    if let Some(q) = c.min_quality_delta
        && !(q.is_finite() && (-100.0..=100.0).contains(&q))
    {
        return Err(config_error(
            "min-quality-delta",
            format!("{q} is not between -100 and 100 (percentage points)"),
        ));
    }
    Ok(())
}

/// Longest single argument Linux accepts (`MAX_ARG_STRLEN`, 32 pages),
/// less room for the rest.
const MAX_APPEND_BYTES: usize = 128 * 1024 - 1024;

/// Stands for the skill's text in recorded arguments.
pub const SKILL_TEXT: &str = "<SKILL.md>";
/// Stands for the baseline version's text in recorded arguments.
pub const BASELINE_TEXT: &str = "<baseline SKILL.md>";

/// Most files and bytes of all siblings together, written into every
/// workspace.
const MAX_SIBLING_FILES: usize = 20_000;
const MAX_SIBLING_BYTES: u64 = 64 * 1024 * 1024;

/// A trigger prompt as a case of the plan.
fn trigger_case(
    id: String,
    t: &crate::catalog::cases::TriggerCase,
    expect_trigger: bool,
    owner: Option<String>,
) -> Case {
    Case {
        doc: CaseDoc {
            id,
            kind: CaseKind::Trigger,
            prompt: t.prompt.value.clone(),
            expect_trigger,
            eval_id: None,
            expected_output: String::new(),
            expectations: Vec::new(),
            files: Vec::new(),
            fixtures_sha256: None,
            split: t.split.map(|s| s.as_str().to_string()),
            origin: Some(origin(&t.file, t.prompt.span)),
            owner,
        },
        fixtures: None,
    }
}

/// The files of skill `i`'s folder a run does not install: case sources
/// outside `evals/` (a waza file next to SKILL.md) would show the agent its
/// test (the skill hash still covers them: it is the folder's, `evals/`
/// left out).
fn not_installed(catalog: &Catalog, i: usize) -> Vec<String> {
    catalog
        .case_sources
        .iter()
        .filter(|s| s.skill == i && !s.at_root && !s.rel.starts_with("evals/"))
        .map(|s| s.rel.clone())
        .collect()
}

/// `--with-siblings`: every other skill of the catalog, read to be
/// installed in both arms, and its positive trigger prompts as cases the
/// tested skill must not take (each with its sibling as `owner`).
fn siblings(
    catalog: &Catalog,
    tested: usize,
    name: &str,
    cases: &mut Vec<Case>,
) -> Result<Vec<(SiblingDoc, Tree)>, Fatal> {
    let mut out: Vec<(SiblingDoc, Tree)> = Vec::new();
    let (mut files, mut bytes) = (0usize, 0u64);
    let mut seen = std::collections::HashSet::new();
    for (i, s) in catalog.skills.iter().enumerate() {
        if i == tested {
            continue;
        }
        let sib = s.name().unwrap_or(&s.folder).to_string();
        if sib == name || s.folder == name {
            return Err(Fatal::usage(format!(
                "--with-siblings: {} answers to `{name}` too (its folder or its name), so it would be loaded instead of the skill under test",
                s.file
            ))
            .with_help("rename one of the two skills (`skillgate check` reports SG606)"));
        }
        if !safe_id(&sib) || !seen.insert(sib.clone()) {
            return Err(Fatal::usage(format!(
                "--with-siblings: the skill `{sib}` ({}) cannot be installed under its name (not a folder name, or a name two skills share)",
                s.file
            ))
            .with_help("fix the skill's name (`skillgate check` reports it), or leave the skill out with [catalog] exclude"));
        }
        let (snap, mut tree) = Tree::read_skill_checked(&s.dir, "--with-siblings: ")?;
        tree.leave_out(&not_installed(catalog, i));
        files += tree.files();
        bytes += tree
            .items
            .iter()
            .filter_map(|x| x.bytes.as_ref().map(|b| b.len() as u64))
            .sum::<u64>();
        if files > MAX_SIBLING_FILES || bytes > MAX_SIBLING_BYTES {
            return Err(Fatal::usage(format!(
                "--with-siblings: the catalog's other skills hold more than {MAX_SIBLING_FILES} files or {MAX_SIBLING_BYTES} bytes, too much to write into every workspace"
            ))
            .with_help("narrow the catalog with [catalog] include/exclude for the evaluation"));
        }
        if let Some(suite) = catalog.suite_of(i) {
            for (n, t) in suite.positive.iter().enumerate() {
                cases.push(trigger_case(
                    format!("sibling-{sib}-{}", n + 1),
                    t,
                    false,
                    Some(sib.clone()),
                ));
            }
        }
        out.push((
            SiblingDoc {
                name: sib,
                path: s.rel_dir.clone(),
                sha256: snap.skill_sha256,
            },
            tree,
        ));
    }
    Ok(out)
}

/// Build the plan for `name`, run by `kind` (ignored with a runner).
pub fn build(
    catalog: &Catalog,
    config: &Config,
    name: &str,
    args: &BehaveArgs,
    opts: &Opts,
    kind: AgentKind,
) -> Result<Built, Fatal> {
    let bc = &config.behave;
    if catalog.target != Target::Catalog {
        return Err(Fatal::usage(format!(
            "{}: --behavioral needs the catalog root (the folder holding the skills), not a single skill",
            catalog.display_root
        )));
    }
    let skill_index = catalog.require_skill(name)?;
    let skill = &catalog.skills[skill_index];
    let skill_name = skill.name().unwrap_or(&skill.folder).to_string();
    if !safe_id(&skill_name) {
        return Err(Fatal::usage(format!(
            "the skill name `{skill_name}` cannot name a results folder"
        ))
        .with_help(
            "use lowercase letters, digits and hyphens (`skillgate check` reports the name rules)",
        ));
    }
    let suite = catalog.suite_of(skill_index).ok_or_else(|| {
        Fatal::usage(format!(
            "no cases for skill `{skill_name}`: none in evals/cases/{skill_name}.json nor in {}/evals/",
            skill.rel_dir
        ))
        .with_help(
            "write evals: `evals/cases/<skill>.json` or the skill's own `evals/evals.json` (`skillgate init SKILL` starts a trigger set; ARCHITECTURE.md, \"Case files\", has the format)",
        )
    })?;
    refuse_invalid_case_files(catalog, config, suite)?;
    let sources = suite.files.join(", ");
    if suite.evals.is_empty() {
        return Err(
            Fatal::usage(format!("{sources}: no behavioral evals to run"))
                .with_help("add at least one entry to `evals` with a prompt and expectations"),
        );
    }
    check_limits(bc)?;

    let append = args.runner.is_none() && bc.install == InstallMode::AppendSystemPrompt;
    let mut cases = Vec::new();
    if !append {
        for (kind, list, expect) in [
            ("positive", &suite.positive, true),
            ("negative", &suite.negative, false),
        ] {
            for (i, t) in list.iter().enumerate() {
                // a negative whose `with` names this skill may load it: no
                // forbidden load, no theft (the id keeps its position)
                if !expect && t.with.iter().any(|w| w.value == suite.name) {
                    continue;
                }
                cases.push(trigger_case(format!("{kind}-{}", i + 1), t, expect, None));
            }
        }
    }
    for e in &suite.evals {
        let at = format!("{}:{}", e.file, e.span.line);
        if !safe_id(&e.id.value) {
            return Err(Fatal::usage(format!(
                "{at}: eval id `{}` cannot name a results folder",
                e.id.value
            ))
            .with_help("use a number or letters, digits, `-`, `_` and `.`"));
        }
        if e.expectations.is_empty() {
            return Err(Fatal::usage(format!(
                "{at}: eval {} has no expectations to grade",
                e.id.value
            )));
        }
        if args.runner.is_some()
            && let Some(x) = e
                .expectations
                .iter()
                .find(|x| x.check.as_ref().is_some_and(Check::needs_trace))
        {
            return Err(Fatal::usage(format!(
                "{}:{}:{}: eval {}: check `{}` reads the agent's trace (tool calls, turns, tokens), which a --runner does not report",
                e.file,
                x.span.line,
                x.span.col,
                e.id.value,
                x.check.as_ref().map_or("", |c| c.name())
            ))
            .with_help("run it with the built-in agent, or use checks on the workspace, the final answer or the skills loaded"));
        }
        if args.runner.is_none()
            && let Some((x, what)) = e.expectations.iter().find_map(|x| match &x.check {
                Some(Check::ToolRefused { .. }) if !kind.reports_denials() => {
                    Some((x, "which tool calls its permission system refused"))
                }
                Some(Check::MaxTurns { .. }) if !kind.reports_turns() => {
                    Some((x, "how many turns a run took"))
                }
                _ => None,
            })
        {
            return Err(Fatal::usage(format!(
                "{}:{}:{}: eval {}: check `{}` cannot be run with {}: its stream does not say {what}",
                e.file,
                x.span.line,
                x.span.col,
                e.id.value,
                x.check.as_ref().map_or("", |c| c.name()),
                kind.client().label()
            ))
            .with_help("run this eval with --agent claude, or state the expectation in words for the grader"));
        }
        let (kind, fixtures) = match e.kind {
            EvalKind::Dialogue => (CaseKind::Dialogue, None),
            EvalKind::Execution => {
                let files: Vec<String> = e.files.iter().map(|f| f.value.clone()).collect();
                if files.is_empty() {
                    return Err(Fatal::usage(format!(
                        "{at}: execution eval {} has no files[] fixtures",
                        e.id.value
                    )));
                }
                let (dir, label) = match &e.base {
                    FixtureBase::Catalog => (e.base.dir(&catalog.root), "evals/fixtures"),
                    FixtureBase::Skill { dir, .. } => (dir.clone(), "the skill folder"),
                };
                let tree = Tree::read_fixtures_in(&dir, label, &files)
                    .map_err(|m| Fatal::usage(format!("{at}: eval {}: {m}", e.id.value)))?;
                (CaseKind::Execution, Some(Arc::new(tree)))
            }
        };
        cases.push(Case {
            doc: CaseDoc {
                id: format!("eval-{}", e.id.value),
                kind,
                prompt: e.prompt.value.clone(),
                // an eval forbidding the skill under test is a negative
                // behavioral case: the skill should not load for it
                expect_trigger: !e.expectations.iter().any(|x| {
                    matches!(&x.check, Some(Check::SkillNotLoaded { skill }) if crate::score::input::loads(skill, &skill_name) || skill == &skill_name)
                }),
                eval_id: Some(e.id.value.clone()),
                expected_output: e
                    .expected_output
                    .as_ref()
                    .map(|s| s.value.clone())
                    .unwrap_or_default(),
                expectations: e.expectations.iter().map(ExpectationDoc::from).collect(),
                files: e.files.iter().map(|f| f.value.clone()).collect(),
                fixtures_sha256: fixtures.as_ref().map(|t| t.digest()),
                split: None,
                origin: Some(origin(&e.file, e.span)),
                owner: None,
            },
            fixtures,
        });
    }
    let mut seen = std::collections::HashSet::new();
    for c in &cases {
        if !seen.insert(c.doc.id.clone()) {
            return Err(Fatal::usage(format!(
                "{sources}: two evals share the id `{}`",
                c.doc.id
            )));
        }
    }

    // The scorer's view of the folder first: it refuses what it cannot hash
    // (links, devices, too many files), so no run is paid for evidence the
    // scorer would refuse at the end.
    let (snapshot, mut skill_tree) = Tree::read_skill_checked(&skill.dir, "")?;
    let leave_out = not_installed(catalog, skill_index);
    skill_tree.leave_out(&leave_out);
    let baseline = match &args.baseline_skill {
        None => None,
        Some(r) => {
            let mut b =
                super::baseline::read(&skill.dir, r, Duration::from_secs(bc.git_timeout_secs))?;
            b.tree.leave_out(&leave_out);
            Some(b)
        }
    };
    let siblings = if args.with_siblings {
        siblings(catalog, skill_index, &skill_name, &mut cases)?
    } else {
        Vec::new()
    };
    let skill_abs = skill
        .dir
        .canonicalize()
        .map_err(|e| Fatal::usage(format!("{}: {e}", skill.dir.display())))?;
    let skill_md = skill
        .source
        .as_ref()
        .map(|s| s.text.to_string())
        .ok_or_else(|| Fatal::usage(format!("{}: SKILL.md could not be read", skill.file)))?;

    if append
        && let Some(b) = &baseline
        && b.skill_md.len() > MAX_APPEND_BYTES
    {
        return Err(Fatal::usage(format!(
            "--compare-skill {}: its SKILL.md is {} bytes, too long for one --append-system-prompt argument (the system allows {MAX_APPEND_BYTES})",
            b.doc.reference,
            b.skill_md.len()
        ))
        .with_help("use [behave] install = \"discover\", which copies the skill into the workspace"));
    }
    if append && skill_md.len() > MAX_APPEND_BYTES {
        return Err(Fatal::usage(format!(
            "{}: {} bytes is too long for one --append-system-prompt argument (the system allows {MAX_APPEND_BYTES})",
            skill.file,
            skill_md.len()
        ))
        .with_help("use [behave] install = \"discover\", which copies the skill into the workspace"));
    }
    let (mode, agent) = match &opts.runner {
        Some((argv, timeout, max)) => {
            let doc = AgentDoc {
                kind: "runner".into(),
                program: argv[0].clone(),
                args_with: argv[1..].to_vec(),
                args_without: argv[1..].to_vec(),
                version: None,
                grader: None,
                grader_kind: None,
                grader_version: None,
                tools: None,
                install: None,
                env: Default::default(),
                env_removed: None,
                home_files: Vec::new(),
                timeout_ms: timeout.as_millis() as u64,
                grader_timeout_ms: None,
                max_output_bytes: *max,
            };
            (
                Mode::Runner {
                    argv: argv.clone(),
                    timeout: *timeout,
                    max_bytes: *max,
                },
                doc,
            )
        }
        None => {
            let mut agent: Box<dyn Agent> = super::agent::build(kind, bc)?;
            agent.set_skill(&skill_name);
            let grader_agent = match opts.grader {
                Some(g) if g != kind => {
                    let mut g = super::agent::build(g, bc)?;
                    g.set_skill(&skill_name);
                    Some(g)
                }
                _ => None,
            };
            let template = Paths {
                cwd: Path::new("<workspace>"),
                home: Path::new("<run-home>"),
            };
            let with = agent.executor(&template, append.then_some(skill_md.as_str()));
            let baseline_md = baseline
                .as_ref()
                .filter(|_| append)
                .map(|b| b.skill_md.clone());
            let without = agent.executor(&template, baseline_md.as_deref());
            let grading: &dyn Agent = grader_agent.as_deref().unwrap_or(agent.as_ref());
            let grader = grading.grader(&template);
            let mut recorded_with = with.args.clone();
            if append && let Some(last) = recorded_with.last_mut() {
                *last = SKILL_TEXT.to_string();
            }
            let (env, env_rule) = agent.environment_doc();
            let mut recorded_without = without.args.clone();
            if baseline_md.is_some()
                && let Some(last) = recorded_without.last_mut()
            {
                *last = BASELINE_TEXT.to_string();
            }
            let doc = AgentDoc {
                kind: agent.kind().into(),
                program: agent.program().into(),
                args_with: recorded_with,
                args_without: recorded_without,
                version: None,
                grader: Some(
                    std::iter::once(grading.program().to_string())
                        .chain(grader.args)
                        .collect(),
                ),
                grader_kind: grader_agent.as_ref().map(|g| g.kind().to_string()),
                grader_version: None,
                tools: agent.tools(),
                install: Some(
                    match bc.install {
                        InstallMode::Discover => "discover",
                        InstallMode::AppendSystemPrompt => "append-system-prompt",
                    }
                    .into(),
                ),
                env,
                env_removed: Some(env_rule),
                home_files: with.files.iter().map(|(p, _)| p.clone()).collect(),
                timeout_ms: bc.executor_timeout_secs.saturating_mul(1000),
                grader_timeout_ms: Some(bc.grader_timeout_secs.saturating_mul(1000)),
                max_output_bytes: bc.max_trace_bytes,
            };
            (
                Mode::Agent(AgentMode {
                    agent,
                    grader_agent,
                    version: None,
                    grader_version: None,
                    append: append.then(|| skill_md.clone()),
                    baseline_append: baseline_md,
                    exec_timeout: Duration::from_secs(bc.executor_timeout_secs),
                    grader_timeout: Duration::from_secs(bc.grader_timeout_secs),
                    max_trace: bc.max_trace_bytes,
                    max_grader: bc.max_grader_bytes,
                }),
                doc,
            )
        }
    };

    let variants = if args.no_baseline {
        vec![Variant::With]
    } else {
        vec![Variant::With, Variant::Without]
    };
    let shown_path = if catalog.display_root == "." {
        skill
            .dir
            .strip_prefix("./")
            .unwrap_or(&skill.dir)
            .display()
            .to_string()
    } else {
        skill.dir.display().to_string()
    };
    let mut plan = PlanDoc {
        format: PLAN_FORMAT,
        skillgate_version: env!("CARGO_PKG_VERSION").to_string(),
        fingerprint: String::new(),
        skill: SkillDoc {
            name: skill_name,
            path: shown_path,
            abs_path: skill_abs.display().to_string(),
            sha256: snapshot.skill_sha256,
            not_installed: leave_out,
        },
        case_file: suite.files.first().cloned().unwrap_or_default(),
        case_files: if suite.files.len() > 1 {
            suite.files.clone()
        } else {
            Vec::new()
        },
        trials: args.trials,
        variants,
        agent,
        cases: cases.iter().map(|c| c.doc.clone()).collect(),
        total_runs: 0,
        shard: opts.shard,
        merged_from: Vec::new(),
        baseline: baseline.as_ref().map(|b| b.doc.clone()),
        siblings: siblings.iter().map(|(doc, _)| doc.clone()).collect(),
        gates: Some(crate::score::Gates {
            min_quality_delta: args.gates.min_quality_delta.or(bc.min_quality_delta),
            ..args.gates
        }),
        trigger_runs: args.trigger_runs,
        trigger_turns: None,
    };
    decide_triggers(&mut plan, bc)?;
    plan.seal();
    // a gate the scorer would refuse is refused before any token is spent
    crate::score::validate(&super::iteration::score_options(
        &plan,
        plan.gates.unwrap_or_default(),
    ))?;
    Ok(Built {
        plan,
        cases,
        mode,
        skill_tree,
        baseline_tree: baseline.map(|b| b.tree),
        siblings: siblings
            .into_iter()
            .map(|(doc, tree)| (doc.name, tree))
            .collect(),
        skill_abs,
        grace: Duration::from_millis(bc.kill_grace_ms),
        git_timeout: Duration::from_secs(bc.git_timeout_secs),
        canary: None,
    })
}

/// Trigger runs: which arms they run in (`--trigger-runs`), the turn limit
/// of a deciding run (`[behave] trigger-turns`), and the plan's run count.
fn decide_triggers(plan: &mut PlanDoc, bc: &BehaveConfig) -> Result<(), Fatal> {
    use super::decide::MAX_TRIGGER_TURNS;
    if bc.trigger_turns == 0 || bc.trigger_turns > MAX_TRIGGER_TURNS {
        return Err(config_error(
            "trigger-turns",
            format!(
                "must be between 1 and {MAX_TRIGGER_TURNS}, not {}",
                bc.trigger_turns
            ),
        ));
    }
    if (0..plan.cases.len()).any(|ci| plan.watched(ci)) {
        plan.trigger_turns = Some(bc.trigger_turns);
    }
    plan.total_runs = plan.runs().len();
    Ok(())
}

/// `file:line:column` of a case, for the plan.
fn origin(file: &str, span: crate::diag::Span) -> String {
    format!("{file}:{}:{}", span.line, span.col)
}

/// Tier 1 errors in any file of the suite stop Tier 3.
fn refuse_invalid_case_files(
    catalog: &Catalog,
    config: &Config,
    suite: &Suite,
) -> Result<(), Fatal> {
    for cf in catalog
        .cases
        .iter()
        .filter(|c| suite.files.contains(&c.file))
    {
        if !cf.parsed {
            return Err(
                Fatal::usage(format!("{}: not a readable case file", cf.file))
                    .with_help("run `skillgate check` to see what is wrong with it"),
            );
        }
    }
    let mut diags: Vec<_> = catalog
        .diagnostics
        .iter()
        .cloned()
        .chain(crate::lint::run(catalog, config))
        .filter(|d| suite.files.contains(&d.file))
        .collect();
    crate::lint::apply_levels(&mut diags, config);
    crate::diag::sort_diagnostics(&mut diags);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let line = d.span.map(|s| format!(":{}", s.line)).unwrap_or_default();
            format!("{}{line}: error[{}]: {}", d.file, d.rule, d.message)
        })
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    let shown = errors
        .iter()
        .take(5)
        .cloned()
        .collect::<Vec<_>>()
        .join("\n  ");
    Err(Fatal::usage(format!(
        "{} {} {} error(s); Tier 3 does not spend tokens on an invalid case file:\n  {shown}",
        suite.files.join(", "),
        if suite.files.len() == 1 {
            "has"
        } else {
            "have"
        },
        errors.len()
    ))
    .with_help(
        "fix them (`skillgate check` shows each with its place), then run --behavioral again",
    ))
}
