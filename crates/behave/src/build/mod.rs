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
//!
//! [`build`] goes step by step: the skill and its suite, the cases
//! (`cases.rs`), the files the runs install, the command that runs them
//! (`mode.rs`: a runner or a client, and its record), the plan. A step's
//! refusals come before the next step reads anything.

mod cases;
mod mode;

use super::agent::AgentKind;
use super::baseline::Baseline;
use super::exec::Mode;
use super::plan::{
    AgentDoc, Case, PLAN_FORMAT, PlanDoc, Shard, SiblingDoc, SkillDoc, Variant, safe_id,
};
use super::runner;
use super::workspace::Tree;
use crate::args::BehaveArgs;
use crate::catalog::cases::Suite;
use crate::catalog::{Catalog, Skill, Target};
use crate::config::{BehaveConfig, Config, InstallMode};
use crate::diag::Severity;
use crate::exit::Fatal;
use std::path::PathBuf;
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
    /// Trigger prompts the skill's suite holds, drafts too (`init`
    /// drafts a starter only for a skill without any).
    pub prompts_written: usize,
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

/// Most agent runs at once (`--jobs`).
pub const MAX_JOBS: usize = 256;

/// `--trials` and `--jobs` within their bounds (every command that runs
/// an agent: a bound is a refusal, never an allocation that cannot end).
pub fn counts(args: &BehaveArgs) -> Result<(), Fatal> {
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
    if args.jobs > MAX_JOBS {
        return Err(Fatal::usage(format!(
            "--jobs must be at most {MAX_JOBS}, not {}",
            args.jobs
        )));
    }
    Ok(())
}

/// Check the Tier 3 flags on their own.
pub fn opts(args: &BehaveArgs, config: &BehaveConfig) -> Result<Opts, Fatal> {
    counts(args)?;
    let shard = match &args.shard {
        Some(s) => Shard::parse(s).map_err(Fatal::usage)?,
        None => Shard::WHOLE,
    };
    if args.runner.is_none() && (args.timeout_ms.is_some() || args.max_bytes.is_some()) {
        return Err(Fatal::usage(
            "--timeout-ms and --max-bytes apply to --runner only",
        )
        .with_help("the built-in agent's limits live in skillsift.toml: [behave] executor-timeout-secs, max-trace-bytes"));
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
        .with_help("run them with the built-in agent, or make your runner read SKILLSIFT_VARIANT and install what each arm needs"));
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
    Fatal::usage(format!("skillsift.toml: [behave] {key}: {msg}"))
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
pub(crate) const MAX_SIBLING_FILES: usize = 20_000;
pub(crate) const MAX_SIBLING_BYTES: u64 = 64 * 1024 * 1024;

/// Reads the catalog's skills that every run installs besides the one under
/// test (`--with-siblings`, `--behavioral-routing`): each under a name that
/// is a folder name no other skill takes, its case sources left out, all of
/// them together within [`MAX_SIBLING_FILES`] and [`MAX_SIBLING_BYTES`].
pub(crate) struct Installs {
    /// The flag named in refusals (`--with-siblings`).
    flag: &'static str,
    /// What the bound counts, in refusals ("the catalog's other skills").
    what: &'static str,
    files: usize,
    bytes: u64,
    seen: std::collections::HashSet<String>,
}

impl Installs {
    pub(crate) fn new(flag: &'static str, what: &'static str) -> Installs {
        Installs {
            flag,
            what,
            files: 0,
            bytes: 0,
            seen: std::collections::HashSet::new(),
        }
    }

    /// Skill `i` under `name`, read to be installed.
    pub(crate) fn read(
        &mut self,
        catalog: &Catalog,
        i: usize,
        name: &str,
    ) -> Result<(crate::score::skill::Snapshot, Tree), Fatal> {
        let s = &catalog.skills[i];
        let flag = self.flag;
        if !safe_id(name) || !self.seen.insert(name.to_string()) {
            return Err(Fatal::usage(format!(
                "{flag}: the skill `{}` ({}) cannot be installed under its name (not a folder name, or a name two skills share)",
                crate::escape::line(name),
                s.file
            ))
            .with_help("fix the skill's name (`skillsift check` reports it), or leave the skill out with [catalog] exclude"));
        }
        let (snap, mut tree) = Tree::read_skill_checked(&s.dir, &format!("{flag}: "))?;
        tree.leave_out(&not_installed(catalog, i));
        self.files += tree.files();
        self.bytes += tree
            .items
            .iter()
            .filter_map(|x| x.bytes.as_ref().map(|b| b.len() as u64))
            .sum::<u64>();
        if self.files > MAX_SIBLING_FILES || self.bytes > MAX_SIBLING_BYTES {
            return Err(Fatal::usage(format!(
                "{flag}: {} hold more than {MAX_SIBLING_FILES} files or {MAX_SIBLING_BYTES} bytes, too much to write into every workspace",
                self.what
            ))
            .with_help("narrow the catalog with [catalog] include/exclude for the evaluation"));
        }
        Ok((snap, tree))
    }
}

/// The files of skill `i`'s folder a run does not install: case sources
/// outside `evals/` (a waza file next to SKILL.md) would show the agent its
/// test (the skill hash still covers them: it is the folder's, `evals/`
/// left out).
pub(crate) fn not_installed(catalog: &Catalog, i: usize) -> Vec<String> {
    catalog
        .case_sources
        .iter()
        .filter(|s| s.skill == i && !s.at_root && !s.rel.starts_with("evals/"))
        .map(|s| s.rel.clone())
        .collect()
}

/// `--with-siblings`: every other skill installed with the tested one (the
/// whole catalog's, or its plugin's, marketplace entry's or pack's when the
/// catalog is installed in parts: [`crate::client::install`]), read to be
/// installed in both arms, and its positive trigger prompts as cases the
/// tested skill must not take (each with its sibling as `owner`).
fn siblings(
    catalog: &Catalog,
    config: &Config,
    tested: usize,
    name: &str,
    cases: &mut Vec<Case>,
) -> Result<Vec<(SiblingDoc, Tree)>, Fatal> {
    let mut out: Vec<(SiblingDoc, Tree)> = Vec::new();
    let mut installs = Installs::new("--with-siblings", "the catalog's other skills");
    let together: Vec<usize> = match crate::client::install::installs(catalog, config)? {
        Some(list) => list
            .into_iter()
            .find(|inst| inst.skills.contains(&tested))
            .map(|inst| inst.skills)
            .unwrap_or_default(),
        None => (0..catalog.skills.len()).collect(),
    };
    for i in together {
        if i == tested {
            continue;
        }
        let s = &catalog.skills[i];
        let sib = s.name().unwrap_or(&s.folder).to_string();
        if sib == name || s.folder == name {
            return Err(Fatal::usage(format!(
                "--with-siblings: {} answers to `{name}` too (its folder or its name), so it would be loaded instead of the skill under test",
                s.file
            ))
            .with_help("rename one of the two skills (`skillsift check` reports SG606)"));
        }
        let (snap, tree) = installs.read(catalog, i, &sib)?;
        if let Some(suite) = catalog.suite_of(i) {
            for (n, t) in suite.positive.iter().enumerate() {
                cases.push(cases::trigger_case(
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

/// What the steps of [`build`] read: the catalog, the `[behave]` values, the
/// flags, the client, and the skill under test with its suite.
struct Ctx<'a> {
    catalog: &'a Catalog,
    config: &'a Config,
    bc: &'a BehaveConfig,
    args: &'a BehaveArgs,
    opts: &'a Opts,
    /// The client that runs (ignored with a runner).
    kind: AgentKind,
    /// The skill under test: its place in the catalog, the skill, its name.
    skill_index: usize,
    skill: &'a Skill,
    skill_name: &'a str,
    suite: &'a Suite,
    /// The skill goes into the system prompt, not the workspace
    /// (`install = "append-system-prompt"`, no runner).
    append: bool,
}

/// The files the runs install, read before any run.
struct Files {
    /// The skill hash of the folder, as the scorer reads it.
    sha256: String,
    /// The skill's files a `with` run installs.
    tree: Tree,
    /// The folder's files a run does not install.
    leave_out: Vec<String>,
    /// `--compare-skill`: the earlier version.
    baseline: Option<Baseline>,
    /// `--with-siblings`: the other skills.
    siblings: Vec<(SiblingDoc, Tree)>,
    /// The skill folder, absolute.
    abs: PathBuf,
    /// The text of its SKILL.md.
    skill_md: String,
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
    let (skill_index, skill_name) = skill_under_test(catalog, name)?;
    let suite = suite_to_run(catalog, config, skill_index, skill_name)?;
    check_limits(bc)?;
    let prompts_written = suite.positive.len() + suite.negative.len() + suite.drafts.len();
    let cx = Ctx {
        catalog,
        config,
        bc,
        args,
        opts,
        kind,
        skill_index,
        skill: &catalog.skills[skill_index],
        skill_name,
        suite,
        append: args.runner.is_none() && bc.install == InstallMode::AppendSystemPrompt,
    };
    let mut cases = cases::cases(&cx)?;
    let files = read_files(&cx, &mut cases)?;
    refuse_long_appends(&cx, &files)?;
    let (mode, agent) = match &opts.runner {
        Some((argv, timeout, max)) => mode::runner_mode(argv, *timeout, *max),
        None => mode::agent_mode(&cx, &files)?,
    };
    let mut plan = plan_doc(&cx, agent, &cases, &files);
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
        skill_tree: files.tree,
        baseline_tree: files.baseline.map(|b| b.tree),
        siblings: files
            .siblings
            .into_iter()
            .map(|(doc, tree)| (doc.name, tree))
            .collect(),
        skill_abs: files.abs,
        grace: Duration::from_millis(bc.kill_grace_ms),
        git_timeout: Duration::from_secs(bc.git_timeout_secs),
        canary: None,
        prompts_written,
    })
}

/// The skill `name` of the catalog (which must be a catalog root, not a
/// single skill): its index, and its name, refused when it cannot name a
/// results folder.
fn skill_under_test<'a>(catalog: &'a Catalog, name: &str) -> Result<(usize, &'a str), Fatal> {
    if catalog.target != Target::Catalog {
        return Err(Fatal::usage(format!(
            "{}: --behavioral needs the catalog root (the folder holding the skills), not a single skill",
            catalog.display_root
        )));
    }
    let skill_index = catalog.require_skill(name)?;
    let skill = &catalog.skills[skill_index];
    let skill_name = skill.name().unwrap_or(&skill.folder);
    if !safe_id(skill_name) {
        return Err(Fatal::usage(format!(
            "the skill name `{skill_name}` cannot name a results folder"
        ))
        .with_help(
            "use lowercase letters, digits and hyphens (`skillsift check` reports the name rules)",
        ));
    }
    Ok((skill_index, skill_name))
}

/// The merged suite of skill `skill_index`, refused when there is none,
/// when any of its case files has Tier 1 errors, or when it has no
/// behavioral evals.
fn suite_to_run<'a>(
    catalog: &'a Catalog,
    config: &Config,
    skill_index: usize,
    skill_name: &str,
) -> Result<&'a Suite, Fatal> {
    let skill = &catalog.skills[skill_index];
    let suite = catalog.suite_of(skill_index).ok_or_else(|| {
        Fatal::usage(format!(
            "no cases for skill `{skill_name}`: none in evals/cases/{skill_name}.json nor in {}/evals/",
            skill.rel_dir
        ))
        .with_help(
            "write evals: `evals/cases/<skill>.json` or the skill's own `evals/evals.json` (`skillsift init SKILL` starts a trigger set; `skillsift schema cases` and `skillsift schema evals` give the formats)",
        )
    })?;
    refuse_invalid_case_files(catalog, config, suite)?;
    let sources = suite.files.join(", ");
    let appended = config.behave.install == InstallMode::AppendSystemPrompt;
    let has_prompts = !suite.positive.is_empty() || !suite.negative.is_empty();
    let triggers = !appended && has_prompts;
    if suite.evals.is_empty() && !triggers {
        let why = if appended && !suite.positive.is_empty() {
            " (its trigger prompts do not run with `[behave] install = \"append-system-prompt\"`: the skill is always in the prompt)"
        } else {
            ""
        };
        return Err(Fatal::usage(format!(
            "{sources}: no behavioral evals and no trigger prompts to run{why}"
        ))
        .with_help(
            "add at least one entry to `evals` with a prompt and expectations, or trigger prompts to `trigger.positive`",
        ));
    }
    Ok(suite)
}

/// Read what the runs install: the skill folder (refused first if the
/// scorer could not hash it), the `--compare-skill` version, the
/// `--with-siblings` skills (their trigger prompts added to `cases`), and
/// the skill's absolute path and SKILL.md text.
fn read_files(cx: &Ctx, cases: &mut Vec<Case>) -> Result<Files, Fatal> {
    let skill = cx.skill;
    // The scorer's view of the folder first: it refuses what it cannot hash
    // (links, devices, too many files), so no run is paid for evidence the
    // scorer would refuse at the end.
    let (snapshot, mut tree) = Tree::read_skill_checked(&skill.dir, "")?;
    let leave_out = not_installed(cx.catalog, cx.skill_index);
    tree.leave_out(&leave_out);
    let baseline = match &cx.args.baseline_skill {
        None => None,
        Some(r) => {
            let timeout = Duration::from_secs(cx.bc.git_timeout_secs);
            let mut b = super::baseline::read(&skill.dir, r, timeout)?;
            b.tree.leave_out(&leave_out);
            Some(b)
        }
    };
    let siblings = if cx.args.with_siblings {
        siblings(cx.catalog, cx.config, cx.skill_index, cx.skill_name, cases)?
    } else {
        Vec::new()
    };
    let abs = skill
        .dir
        .canonicalize()
        .map_err(|e| Fatal::usage(format!("{}: {e}", skill.dir.display())))?;
    let skill_md = skill
        .source
        .as_ref()
        .map(|s| s.text.to_string())
        .ok_or_else(|| Fatal::usage(format!("{}: SKILL.md could not be read", skill.file)))?;
    Ok(Files {
        sha256: snapshot.skill_sha256,
        tree,
        leave_out,
        baseline,
        siblings,
        abs,
        skill_md,
    })
}

/// With the skill appended to the system prompt, refuse a SKILL.md (the
/// baseline version's, then the skill's) too long for one argument.
fn refuse_long_appends(cx: &Ctx, files: &Files) -> Result<(), Fatal> {
    if !cx.append {
        return Ok(());
    }
    if let Some(b) = &files.baseline
        && b.skill_md.len() > MAX_APPEND_BYTES
    {
        return Err(Fatal::usage(format!(
            "--compare-skill {}: its SKILL.md is {} bytes, too long for one --append-system-prompt argument (the system allows {MAX_APPEND_BYTES})",
            b.doc.reference,
            b.skill_md.len()
        ))
        .with_help("use [behave] install = \"discover\", which copies the skill into the workspace"));
    }
    if files.skill_md.len() > MAX_APPEND_BYTES {
        return Err(Fatal::usage(format!(
            "{}: {} bytes is too long for one --append-system-prompt argument (the system allows {MAX_APPEND_BYTES})",
            cx.skill.file,
            files.skill_md.len()
        ))
        .with_help("use [behave] install = \"discover\", which copies the skill into the workspace"));
    }
    Ok(())
}

/// The plan, not yet sealed nor its runs counted: the skill, its case
/// files, the arms, the client's record `agent`, the cases, the baseline
/// and siblings, the gates.
fn plan_doc(cx: &Ctx, agent: AgentDoc, cases: &[Case], files: &Files) -> PlanDoc {
    let (args, skill, suite) = (cx.args, cx.skill, cx.suite);
    let variants = if args.no_baseline {
        vec![Variant::With]
    } else {
        vec![Variant::With, Variant::Without]
    };
    let shown_path = if cx.catalog.display_root == "." {
        skill
            .dir
            .strip_prefix("./")
            .unwrap_or(&skill.dir)
            .display()
            .to_string()
    } else {
        skill.dir.display().to_string()
    };
    PlanDoc {
        format: PLAN_FORMAT,
        skillsift_version: env!("CARGO_PKG_VERSION").to_string(),
        fingerprint: String::new(),
        skill: SkillDoc {
            name: cx.skill_name.to_string(),
            path: shown_path,
            abs_path: files.abs.display().to_string(),
            sha256: files.sha256.clone(),
            not_installed: files.leave_out.clone(),
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
        shard: cx.opts.shard,
        merged_from: Vec::new(),
        baseline: files.baseline.as_ref().map(|b| b.doc.clone()),
        siblings: files.siblings.iter().map(|(doc, _)| doc.clone()).collect(),
        gates: Some(crate::score::Gates {
            min_quality_delta: args.gates.min_quality_delta.or(cx.bc.min_quality_delta),
            ..args.gates
        }),
        trigger_runs: args.trigger_runs,
        trigger_turns: None,
    }
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
                    .with_help("run `skillsift check` to see what is wrong with it"),
            );
        }
    }
    let mut diags: Vec<_> = catalog
        .diagnostics
        .iter()
        .cloned()
        .chain(crate::lint::run(catalog, config))
        .filter(|d| suite.files.contains(&d.file))
        // a secret is no flaw of the case file's shape, and what Tier 3
        // sends and writes holds it masked (`check` fails on it)
        .filter(|d| d.rule != crate::lint::rules::security::secrets::SECRET.id)
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
        "{} {} {}; Tier 3 does not spend tokens on an invalid case file:\n  {shown}",
        suite.files.join(", "),
        if suite.files.len() == 1 {
            "has"
        } else {
            "have"
        },
        crate::base::plural::count(errors.len(), "error")
    ))
    .with_help(
        "fix them (`skillsift check` shows each with its place), then run --behavioral again",
    ))
}
