//! Executing runs: one workspace, one agent (or runner) call, one grading,
//! one results folder per run; `--jobs J` of them at a time.

use super::agent::{self, Agent, Paths, Trace};
use super::checks;
use super::decide;
use super::grader::{self, Kind};
use super::plan::{Case, CaseKind, Check, ExpectationDoc, PlanDoc, RunKey, Variant};
use super::process::{self, Spec};
use super::progress::Progress;
use super::redact::Redactor;
use super::results::{self, GradeDoc, RunRecord};
use super::runner;
use super::workspace::{self, Setup, Tree};
use crate::exit::{Exit, Fatal};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

/// Largest stderr kept from the agent or grader.
const MAX_STDERR: u64 = 1024 * 1024;

/// A built-in agent and its limits.
#[derive(Debug)]
pub struct AgentMode {
    pub agent: Box<dyn Agent>,
    /// The client that grades (`--grader-agent`); `None`: `agent` itself.
    pub grader_agent: Option<Box<dyn Agent>>,
    /// The agent's version, once [`Mode::resolve`] asked it.
    pub version: Option<String>,
    /// The grading client's version (when it is another client).
    pub grader_version: Option<String>,
    /// The skill's text, put in the system prompt of `with` runs (install
    /// mode `append-system-prompt`); `None`: installed in the workspace.
    pub append: Option<String>,
    /// The baseline version's text, likewise for the baseline arm
    /// (`--baseline-skill` in install mode `append-system-prompt`).
    pub baseline_append: Option<String>,
    pub exec_timeout: Duration,
    pub grader_timeout: Duration,
    pub max_trace: u64,
    pub max_grader: u64,
}

impl AgentMode {
    /// The client that grades.
    pub fn grader(&self) -> &dyn Agent {
        self.grader_agent.as_deref().unwrap_or(self.agent.as_ref())
    }
}

/// Who does the work.
#[derive(Debug)]
pub enum Mode {
    /// A built-in agent (`[behave]`), graded by the same client.
    Agent(AgentMode),
    /// `--runner`.
    Runner {
        /// Resolved program, then its arguments.
        argv: Vec<String>,
        timeout: Duration,
        max_bytes: u64,
    },
}

impl Mode {
    /// Find the program (agent or runner) now, so a missing one stops the
    /// evaluation before any run (exit 4) and a relative path is not read
    /// against the workspace.
    ///
    /// A built-in agent (and its grader, when another client grades) then
    /// passes its [`Agent::preflight`]: its version, and that it honours
    /// every setting the runs rely on. A refusal is exit 4.
    pub fn resolve(&mut self) -> Result<(), Fatal> {
        match self {
            Mode::Runner { argv, .. } => {
                argv[0] = resolve_one(&argv[0], "the runner", "the --runner command")?;
            }
            Mode::Agent(a) => {
                let key = config_key(a.agent.kind());
                let p = resolve_one(a.agent.program(), "the agent binary", &key)?;
                a.agent.set_program(p);
                a.version = preflight(a.agent.as_ref())?;
                if let Some(g) = a.grader_agent.as_mut() {
                    let key = config_key(g.kind());
                    let p = resolve_one(g.program(), "the grader's binary", &key)?;
                    g.set_program(p);
                    a.grader_version = preflight(g.as_ref())?;
                }
            }
        }
        Ok(())
    }
}

/// Where a client's binary is configured.
fn config_key(kind: &str) -> String {
    match kind {
        "claude" => "[behave] claude in skillsift.toml".into(),
        k => format!("[behave.{k}] program in skillsift.toml"),
    }
}

fn resolve_one(program: &str, what: &str, key: &str) -> Result<String, Fatal> {
    match resolve_program(program) {
        Some(p) => Ok(p.display().to_string()),
        None => Err(Fatal::new(
            Exit::Unavailable,
            format!("{what} `{program}` was not found or is not executable"),
        )
        .with_help(format!("install it or name it by path ({key})"))),
    }
}

/// The preflight of `agent`, a refusal as exit 4.
fn preflight(agent: &dyn Agent) -> Result<Option<String>, Fatal> {
    agent
        .preflight()
        .map(|p| p.version)
        .map_err(|s| Fatal::new(Exit::Unavailable, s.message).with_help(s.help))
}

impl Mode {
    /// The agent's record of what ran (`None` for a runner).
    pub fn agent(&self) -> Option<&AgentMode> {
        match self {
            Mode::Agent(a) => Some(a),
            Mode::Runner { .. } => None,
        }
    }
}

/// Everything a run needs.
pub struct Ctx<'a> {
    pub plan: &'a PlanDoc,
    pub cases: &'a [Case],
    pub mode: &'a Mode,
    pub skill_name: &'a str,
    pub skill_tree: &'a Tree,
    /// The version the baseline arm installs (`--baseline-skill`).
    pub baseline_tree: Option<&'a Tree>,
    /// The skills both arms install beside it (`--with-siblings`).
    pub siblings: &'a [(String, Tree)],
    pub skill_abs: &'a Path,
    pub iteration: &'a Path,
    pub keep_workspace: bool,
    pub redactor: &'a Redactor,
    /// Time between TERM and KILL.
    pub grace: Duration,
    pub git_timeout: Duration,
}

/// `timing.json` (skill-creator's fields plus tokens and cost).
#[derive(Debug, Clone, Default, Serialize)]
struct Timing {
    total_tokens: u64,
    duration_ms: u64,
    total_duration_seconds: f64,
    executor_start: String,
    executor_end: String,
    executor_duration_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    grader_start: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grader_end: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grader_duration_seconds: Option<f64>,
    /// Every input token, cached ones included (the same meaning for every
    /// client: see docs/tier3-behavioral.md, "Usage").
    executor_input_tokens: u64,
    executor_cached_input_tokens: u64,
    executor_output_tokens: u64,
    grader_input_tokens: u64,
    grader_output_tokens: u64,
    executor_cost_usd: Option<f64>,
    grader_cost_usd: Option<f64>,
    total_cost_usd: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    num_turns: Option<u64>,
}

fn add_cost(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    }
}

/// Run `keys` with up to `jobs` at once; records come back in `keys` order.
/// A failure to write results stops the remaining runs.
pub fn run_all(
    ctx: &Ctx,
    keys: &[RunKey],
    jobs: usize,
    progress: &Progress,
) -> Result<Vec<(RunKey, RunRecord)>, Fatal> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let slots: Vec<Mutex<Option<RunRecord>>> = keys.iter().map(|_| Mutex::new(None)).collect();
    let fatal: Mutex<Option<Fatal>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, keys.len().max(1)) {
            s.spawn(|| {
                loop {
                    if stop.load(Ordering::SeqCst) || process::interrupted() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(key) = keys.get(i) else { return };
                    match run_one(ctx, key) {
                        Ok(rec) => {
                            progress.finished(&label(ctx.plan, key), &rec);
                            *slots[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(rec);
                        }
                        Err(f) => {
                            stop.store(true, Ordering::SeqCst);
                            fatal
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .get_or_insert(f);
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(f) = fatal.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(f);
    }
    Ok(keys
        .iter()
        .zip(slots)
        .filter_map(|(k, s)| {
            s.into_inner()
                .unwrap_or_else(|p| p.into_inner())
                .map(|r| (*k, r))
        })
        .collect())
}

/// `eval-1 with #2`.
pub fn label(plan: &PlanDoc, key: &RunKey) -> String {
    format!(
        "{} {} #{}",
        plan.cases[key.case].id,
        key.variant.as_str(),
        key.trial
    )
}

/// Run one case × trial × variant and write its folder.
pub fn run_one(ctx: &Ctx, key: &RunKey) -> Result<RunRecord, Fatal> {
    let dir = ctx.iteration.join(key.rel_dir(ctx.plan));
    std::fs::create_dir_all(&dir).map_err(|e| results::io_fatal(&dir, e))?;
    let (rec, timing, stop) = match ctx.mode {
        Mode::Agent(a) => agent_run(ctx, a, key, &dir)?,
        Mode::Runner { .. } => {
            let (r, t) = runner_run(ctx, key, &dir)?;
            (r, t, None)
        }
    };
    results::write_json(&dir.join("timing.json"), &timing)?;
    results::write_json(&dir.join("run.json"), &rec)?;
    match stop {
        Some(mut f) => {
            f.message.push_str(&format!(
                "\nthe evaluation stopped after this run; the runs so far are in {} (not scored)",
                ctx.iteration.display()
            ));
            Err(f)
        }
        None => Ok(rec),
    }
}

/// A workspace for `case` with `skills` installed.
fn workspace_for(
    ctx: &Ctx,
    case: &Case,
    git: bool,
    skills: &[(PathBuf, &Tree)],
) -> Result<workspace::Workspace, String> {
    workspace::create(&Setup {
        fixtures: case.fixtures.as_deref(),
        git,
        skills,
        git_timeout: ctx.git_timeout,
        keep: ctx.keep_workspace,
    })
    .map_err(|e| format!("the workspace could not be set up: {e}"))
}

/// Remove the workspace, or keep it and say where.
fn finish_workspace(ctx: &Ctx, ws: workspace::Workspace) -> Option<String> {
    if ctx.keep_workspace {
        Some(ws.keep().display().to_string())
    } else {
        drop(ws);
        None
    }
}

fn now() -> (SystemTime, String) {
    let t = SystemTime::now();
    (t, iso8601(t))
}

fn secs(a: SystemTime, b: SystemTime) -> f64 {
    b.duration_since(a).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

fn write_output(ctx: &Ctx, path: &Path, bytes: &[u8]) -> Result<(), Fatal> {
    if bytes.is_empty() && path.file_name().is_some_and(|n| n == "stderr.txt") {
        return Ok(());
    }
    let text = String::from_utf8(ctx.redactor.bytes(bytes)).unwrap_or_default();
    results::write_text(path, &text)
}

/// A fresh run home for `agent` (outside the temporary folder for a client
/// that needs it), or why there is none.
pub(crate) fn home_for(
    agent: &dyn Agent,
    what: &str,
    keep: bool,
) -> Result<workspace::Workspace, String> {
    if agent.home_outside_tmp() {
        workspace::home_scratch(what, keep)
    } else {
        workspace::scratch(what, keep)
    }
    .map_err(|e| format!("the run home could not be set up: {e}"))
}

/// The process spec of an agent or grader call.
pub(crate) fn spec<'a>(
    agent: &'a dyn Agent,
    call: &'a agent::Call,
    cwd: &'a Path,
    stdin: &'a [u8],
    (timeout, max_stdout): (Duration, u64),
    grace: Duration,
) -> Spec<'a> {
    let mut env_remove = call.env_remove.clone();
    env_remove.extend(workspace::GIT_ENV_REMOVE.iter().map(|s| s.to_string()));
    Spec {
        program: agent.program(),
        args: &call.args,
        cwd,
        stdin,
        env: call.env.clone(),
        env_remove,
        timeout,
        max_stdout,
        max_stderr: MAX_STDERR,
        grace,
    }
}

/// One agent run; a third value stops the evaluation after it.
fn agent_run(
    ctx: &Ctx,
    a: &AgentMode,
    key: &RunKey,
    dir: &Path,
) -> Result<(RunRecord, Timing, Option<Fatal>), Fatal> {
    let case = &ctx.cases[key.case];
    let with = key.variant == Variant::With;
    let mut rec = RunRecord::missing(key, ctx.plan, String::new());
    let mut timing = Timing::default();
    let (t0, s0) = now();
    timing.executor_start = s0;
    let install_rel = a.agent.install_dir(ctx.skill_name);
    let turn_limit = ctx
        .plan
        .trigger_turns
        .unwrap_or(decide::DEFAULT_TRIGGER_TURNS);
    rec.client = Some(a.agent.kind().to_string());
    rec.client_version = a.version.clone();
    // what this arm installs under the skill's name: the skill (with), the
    // earlier version (--baseline-skill), or nothing; siblings in both
    let tree = match key.variant {
        Variant::With if a.append.is_none() => Some(ctx.skill_tree),
        Variant::Without if a.baseline_append.is_none() => ctx.baseline_tree,
        _ => None,
    };
    let install = tree.map(|_| install_rel.as_path());
    let mut skills: Vec<(PathBuf, &Tree)> =
        tree.map(|t| (install_rel.clone(), t)).into_iter().collect();
    skills.extend(
        ctx.siblings
            .iter()
            .map(|(name, t)| (a.agent.install_dir(name), t)),
    );
    let set_up = workspace_for(ctx, case, true, &skills).and_then(|ws| {
        home_for(a.agent.as_ref(), "home", ctx.keep_workspace).map(|home| (ws, home))
    });
    let (ws, home) = match set_up {
        Ok(p) => p,
        Err(e) => {
            rec.reason = Some(e);
            timing.executor_end = iso8601(SystemTime::now());
            return Ok((rec, timing, None));
        }
    };
    let paths = Paths {
        cwd: ws.path(),
        home: home.path(),
    };
    let call = a.agent.executor(
        &paths,
        if with {
            a.append.as_deref()
        } else {
            a.baseline_append.as_deref()
        },
    );
    let out = match workspace::write_files(home.path(), &call.files) {
        Err(e) => {
            rec.reason = Some(format!("the run home could not be set up: {e}"));
            None
        }
        Ok(()) => {
            let s = spec(
                a.agent.as_ref(),
                &call,
                ws.path(),
                case.doc.prompt.as_bytes(),
                (a.exec_timeout, a.max_trace),
                ctx.grace,
            );
            let agent = a.agent.as_ref();
            let cwd = ws.path().to_path_buf();
            let watch =
                move |b: &[u8]| decide::decided(&agent.parse(b, &cwd), agent, turn_limit).is_some();
            Some(process::run_watched(
                &s,
                ctx.plan
                    .watched(key.case)
                    .then_some(&watch as process::Watch),
            ))
        }
    };
    let installed_abs = install.map(|rel| ws.path().join(rel));
    let ws_path = ws.path().to_path_buf();
    let Some(out) = out else {
        rec.workspace = finish_workspace(ctx, ws);
        rec.home = finish_workspace(ctx, home);
        timing.executor_end = iso8601(SystemTime::now());
        return Ok((rec, timing, None));
    };
    let (t1, s1) = now();
    timing.executor_end = s1;
    timing.executor_duration_seconds = secs(t0, t1);
    let written = write_output(ctx, &dir.join("stream.jsonl"), &out.stdout)
        .and_then(|()| write_output(ctx, &dir.join("stderr.txt"), &out.stderr));
    let trace = a.agent.parse(&out.stdout, &ws_path);
    let decided = out.ended == process::Ended::Decided;
    if ctx.plan.watched(key.case) {
        rec.trigger_stop = Some(trigger_stop(&trace, a.agent.as_ref(), decided, turn_limit));
    }
    rec.invoked_skills = trace.skills();
    rec.model = trace.model.clone();
    rec.failed_loads = trace.failed_loads.clone();
    rec.init_tools = trace.tools.clone();
    if trace.tools.is_none() {
        rec.configured_tools = a.agent.tools();
    }
    rec.mcp_servers = trace.mcp_servers.clone();
    rec.tool_calls = trace.tool_counts();
    rec.permission_denials = trace
        .denials
        .iter()
        .map(|d| results::DenialDoc {
            tool: d.tool.clone(),
            input: ctx.redactor.text(&cut(&d.input.to_string(), 4096)),
        })
        .collect();
    // a stopped run's end-of-run counts may be missing: the counts its
    // stream reported turn by turn stand in
    let usage = match &trace.result {
        Some(r) if !decided || r.total_tokens() > 0 => Some(r),
        _ if decided => trace.streamed.as_ref(),
        _ => None,
    };
    if let Some(r) = usage {
        rec.output = ctx.redactor.text(&cut(&r.text, results::MAX_OUTPUT));
        timing.executor_input_tokens = r.input_tokens;
        timing.executor_cached_input_tokens = r.cached_input_tokens;
        timing.executor_output_tokens = r.output_tokens;
        timing.executor_cost_usd = r.cost_usd;
        timing.num_turns = r.num_turns;
        if r.permission_denials > 0
            && !case
                .doc
                .expectations
                .iter()
                .any(|e| matches!(e.check, Some(Check::ToolRefused { .. })))
        {
            rec.warnings.push(format!(
                "{} refused by the permission system; see permission_denials in run.json, and [behave] allowed-tools",
                match r.permission_denials {
                    1 => "1 tool call was".to_string(),
                    n => format!("{n} tool calls were"),
                }
            ));
        }
    }
    let mcp = trace.mcp_tools();
    let writing = trace.write_capable_mcp_tools();
    if !mcp.is_empty() && writing.is_empty() {
        rec.warnings.push(format!(
            "the agent offered read-only MCP tools despite --disallowedTools \"mcp__*\": {}",
            mcp.join(", ")
        ));
    }
    if !trace.mcp_servers.is_empty() && trace.tools.is_none() {
        rec.warnings.push(format!(
            "the agent called tools of MCP servers although none is configured: {}",
            trace.mcp_servers.join(", ")
        ));
    }
    let mut stop = None;
    let reason = out
        .failure("the agent", a.exec_timeout, (a.max_trace, MAX_STDERR))
        .or_else(|| match &trace.result {
            // a decided trigger run was stopped on purpose: its stream
            // holds the decision, not an ending
            _ if decided => None,
            None => Some("the stream has no `result` line: the run did not finish".into()),
            Some(r) if r.is_error => Some(format!(
                "the agent's run ended in error ({})",
                if r.subtype.is_empty() {
                    "no subtype"
                } else {
                    &r.subtype
                }
            )),
            Some(_) => None,
        });
    let mut checked = Vec::new();
    rec.reason = None;
    if let Some(s) = a.agent.fatal(&trace, &out.stderr) {
        rec.reason = Some(s.message.clone());
        stop = Some(Fatal::new(Exit::Unavailable, s.message).with_help(s.help));
    } else if !writing.is_empty() {
        let msg = format!(
            "{} offered write-capable MCP tools in run {}: {} (its tool list, the stream's `init` line, is in run.json)",
            a.agent.product(),
            label(ctx.plan, key),
            writing.join(", ")
        );
        rec.reason = Some(msg.clone());
        stop = Some(Fatal::usage(msg).with_help(
            "an evaluation never runs with tools that can change things outside the workspace: remove the MCP servers that reach the agent (its configuration, a managed policy) and run again",
        ));
    } else if let Some(seen) = agent::foreign_copy(&trace, ctx.skill_name, installed_abs.as_deref())
    {
        let msg = contaminated(ctx, a, key, case, &ws_path, &seen);
        rec.reason = Some(msg.clone());
        stop = Some(Fatal::usage(msg).with_help(
            "remove that copy (or move it away) for the evaluation: a baseline that can load the skill, or a with-skill run that loads another copy, measures nothing",
        ));
    } else if let Some(reason) = reason {
        rec.reason = Some(reason);
    } else if case.doc.kind.is_eval() {
        let seen = checks::Seen {
            workspace: ws.path(),
            answer: trace.result.as_ref().map_or("", |r| r.text.as_str()),
            skills: &rec.invoked_skills,
            trace: Some(&trace),
            grace: ctx.grace,
        };
        match run_checks(&case.doc.expectations, &seen) {
            Ok(v) => checked = v,
            Err(e) => rec.reason = Some(e),
        }
    }
    rec.workspace = finish_workspace(ctx, ws);
    rec.home = finish_workspace(ctx, home);
    written?;
    if stop.is_none() && rec.reason.is_none() {
        if case.doc.kind.is_eval() {
            grade(ctx, a, case, &trace, &checked, dir, &mut rec, &mut timing)?;
        } else {
            rec.evidence = true;
            rec.exit_code = Some(0);
        }
    }
    let end = SystemTime::now();
    timing.total_duration_seconds = secs(t0, end);
    timing.duration_ms = end.duration_since(t0).map_or(0, |d| d.as_millis() as u64);
    timing.total_tokens = timing
        .executor_input_tokens
        .saturating_add(timing.executor_output_tokens)
        .saturating_add(timing.grader_input_tokens)
        .saturating_add(timing.grader_output_tokens);
    timing.total_cost_usd = add_cost(timing.executor_cost_usd, timing.grader_cost_usd);
    rec.tokens = timing.total_tokens;
    rec.cost_usd = timing.total_cost_usd;
    rec.duration_ms = timing.duration_ms;
    Ok((rec, timing, stop))
}

/// Why a deciding trigger run stopped, after how many turns, and the tokens
/// its stream reported until then.
pub(crate) fn trigger_stop(
    trace: &Trace,
    agent: &dyn Agent,
    decided: bool,
    turn_limit: u32,
) -> decide::StopDoc {
    let reason = decided
        .then(|| decide::decided(trace, agent, turn_limit))
        .flatten()
        .unwrap_or(decide::StopReason::Ended);
    let usage = match &trace.result {
        Some(r) if !decided || r.total_tokens() > 0 => Some(r),
        _ => trace.streamed.as_ref(),
    };
    decide::StopDoc {
        reason,
        turns: decide::turns(trace),
        turn_limit,
        tokens: usage.map(|u| u.total_tokens()),
    }
}

/// The message for a run that saw a copy of the skill other than the one
/// under test, naming the copy: its folder (inside the workspace shown as
/// `<workspace>/…`, and the fixture it was copied from).
fn contaminated(
    ctx: &Ctx,
    a: &AgentMode,
    key: &RunKey,
    case: &Case,
    ws: &Path,
    seen: &agent::Foreign,
) -> String {
    let arm = match key.variant {
        Variant::With => "with-skill",
        Variant::Without => "without-skill",
    };
    let place = match &seen.dir {
        None => String::new(),
        Some(dir) => match Path::new(dir).strip_prefix(ws) {
            Ok(rel) => {
                let rel = rel.display().to_string();
                let fixture = case
                    .fixtures
                    .as_ref()
                    .is_some_and(|t| t.items.iter().any(|i| i.rel == format!("{rel}/SKILL.md")));
                format!(
                    " from <workspace>/{rel}{}",
                    if fixture {
                        format!(", copied from evals/fixtures/{rel}")
                    } else {
                        String::new()
                    }
                )
            }
            Err(_) => format!(" from {dir}"),
        },
    };
    format!(
        "{} found a copy of `{}` that is not the one under test: {arm} run {} {}{place}",
        a.agent.product(),
        ctx.skill_name,
        label(ctx.plan, key),
        seen.what,
    )
}

/// Run the deterministic checks among `expectations` (`None` for each one
/// the grader judges); `Err` when one could not be judged.
fn run_checks(
    expectations: &[ExpectationDoc],
    seen: &checks::Seen,
) -> Result<Vec<Option<checks::Verdict>>, String> {
    expectations
        .iter()
        .map(|e| match &e.check {
            None => Ok(None),
            Some(c) => checks::run(c, seen)
                .map(Some)
                .map_err(|why| format!("check `{}` has no verdict: {why}", c.name())),
        })
        .collect()
}

/// Every expectation's verdict, in order: the checks' and the grader's
/// (`graded`, one entry per expectation without a check, in order).
fn merge_verdicts(
    ctx: &Ctx,
    expectations: &[ExpectationDoc],
    checked: &[Option<checks::Verdict>],
    graded: &[grader::Entry],
) -> Vec<results::EntryDoc> {
    let mut graded = graded.iter();
    expectations
        .iter()
        .zip(checked.iter().chain(std::iter::repeat(&None)))
        .filter_map(|(e, c)| {
            let (passed, evidence) = match (&e.check, c) {
                (Some(_), Some(v)) => (v.passed, v.evidence.clone()),
                (Some(_), None) => return None,
                (None, _) => {
                    let g = graded.next()?;
                    (g.passed, g.evidence.clone())
                }
            };
            Some(results::EntryDoc {
                text: e.text.clone(),
                passed,
                evidence: ctx.redactor.text(&evidence),
                kind: e.kind,
                check: e.check.as_ref().map(|c| c.name().to_string()),
            })
        })
        .collect()
}

/// Record an eval run's verdict: `grading.json` and the record's figures.
fn record_grading(
    dir: &Path,
    entries: Vec<results::EntryDoc>,
    rec: &mut RunRecord,
) -> Result<(), Fatal> {
    let g = GradeDoc::new(entries);
    let file = serde_json::json!({
        "expectations": g.expectations,
        "summary": {"passed": g.passed, "failed": g.failed, "total": g.total, "pass_rate": g.pass_rate},
    });
    results::write_json(&dir.join("grading.json"), &file)?;
    rec.exit_code = Some(if g.total > 0 && g.failed == 0 { 0 } else { 1 });
    rec.grading = Some(g);
    rec.evidence = true;
    rec.reason = None;
    Ok(())
}

/// Grade an eval run: its checks' verdicts (`checked`) and the grader's
/// for the other expectations; on success the record gets its verdict.
#[allow(clippy::too_many_arguments)]
fn grade(
    ctx: &Ctx,
    a: &AgentMode,
    case: &Case,
    trace: &Trace,
    checked: &[Option<checks::Verdict>],
    dir: &Path,
    rec: &mut RunRecord,
    timing: &mut Timing,
) -> Result<(), Fatal> {
    let graded: Vec<String> = case
        .doc
        .expectations
        .iter()
        .filter(|e| e.check.is_none())
        .map(|e| e.text.clone())
        .collect();
    if graded.is_empty() {
        let entries = merge_verdicts(ctx, &case.doc.expectations, checked, &[]);
        return record_grading(dir, entries, rec);
    }
    let kind = match case.doc.kind {
        CaseKind::Dialogue => Kind::Dialogue,
        _ => Kind::Execution,
    };
    // Secrets the agent echoed never reach the grader model either.
    let transcript = ctx
        .redactor
        .text(&grader::transcript(kind, &case.doc.prompt, trace));
    let req = grader::Request {
        kind,
        expected_output: &case.doc.expected_output,
        expectations: &graded,
        transcript: &transcript,
    };
    let (g0, s0) = now();
    timing.grader_start = Some(s0);
    let mut raw = String::new();
    let mut error: Option<String> = None;
    let mut outcome: Result<grader::Grading, String> = Err(String::new());
    for attempt in 1..=2 {
        let (text, _nonce) = grader::prompt(&req, error.as_deref());
        let g = a.grader();
        let (cwd, home) = workspace::scratch("grader", false)
            .and_then(|c| home_for(g, "grader-home", false).map(|h| (c, h)))
            .map_err(|e| Fatal::new(Exit::Unavailable, e))?;
        let call = g.grader(&Paths {
            cwd: cwd.path(),
            home: home.path(),
        });
        workspace::write_files(home.path(), &call.files)
            .map_err(|e| Fatal::new(Exit::Unavailable, e))?;
        let out = process::run(&spec(
            g,
            &call,
            cwd.path(),
            text.as_bytes(),
            (a.grader_timeout, a.max_grader),
            ctx.grace,
        ));
        let gtrace = g.parse(&out.stdout, cwd.path());
        drop((cwd, home));
        if let Some(s) = g.fatal(&gtrace, &out.stderr) {
            return Err(Fatal::new(Exit::Unavailable, s.message).with_help(s.help));
        }
        if let Some(r) = &gtrace.result {
            timing.grader_input_tokens = timing.grader_input_tokens.saturating_add(r.input_tokens);
            timing.grader_output_tokens =
                timing.grader_output_tokens.saturating_add(r.output_tokens);
            timing.grader_cost_usd = add_cost(timing.grader_cost_usd, r.cost_usd);
        }
        let failure = out
            .failure("the grader", a.grader_timeout, (a.max_grader, MAX_STDERR))
            .or_else(|| match &gtrace.result {
                None => Some("the grader's stream has no `result` line".into()),
                Some(r) if r.is_error => {
                    Some(format!("the grader's run ended in error ({})", r.subtype))
                }
                Some(_) => None,
            });
        if let Some(f) = failure {
            if !out.stdout.is_empty() {
                raw.push_str(&format!("--- attempt {attempt}: grader output ---\n"));
                raw.push_str(&String::from_utf8_lossy(&out.stdout));
                raw.push('\n');
            }
            outcome = Err(f);
            break;
        }
        let reply = gtrace.result.map(|r| r.text).unwrap_or_default();
        match grader::parse_reply(&reply, &graded) {
            Ok(g) => {
                outcome = Ok(g);
                break;
            }
            Err(e) => {
                raw.push_str(&format!("--- attempt {attempt}: grader reply ---\n{reply}\n--- attempt {attempt}: rejected: {e} ---\n"));
                outcome = Err(format!(
                    "the grader's reply was invalid twice; last problem: {e}"
                ));
                error = Some(e);
            }
        }
    }
    let (g1, s1) = now();
    timing.grader_end = Some(s1);
    timing.grader_duration_seconds = Some(secs(g0, g1));
    if !raw.is_empty() && outcome.is_err() {
        results::write_text(&dir.join("grading.raw.txt"), &ctx.redactor.text(&raw))?;
    }
    match outcome {
        Ok(g) => {
            let entries = merge_verdicts(ctx, &case.doc.expectations, checked, &g.expectations);
            record_grading(dir, entries, rec)?;
        }
        Err(e) => {
            rec.reason = Some(if raw.is_empty() {
                e
            } else {
                format!("{e} (raw output kept in grading.raw.txt)")
            });
        }
    }
    Ok(())
}

fn runner_run(ctx: &Ctx, key: &RunKey, dir: &Path) -> Result<(RunRecord, Timing), Fatal> {
    let Mode::Runner {
        argv,
        timeout,
        max_bytes,
    } = ctx.mode
    else {
        unreachable!("runner_run is only called in Runner mode")
    };
    let case = &ctx.cases[key.case];
    let mut rec = RunRecord::missing(key, ctx.plan, String::new());
    let mut timing = Timing::default();
    let (t0, s0) = now();
    timing.executor_start = s0;
    let ws = match workspace_for(ctx, case, false, &[]) {
        Ok(ws) => ws,
        Err(e) => {
            rec.reason = Some(e);
            timing.executor_end = iso8601(SystemTime::now());
            return Ok((rec, timing));
        }
    };
    let out = process::run(&Spec {
        program: &argv[0],
        args: &argv[1..],
        cwd: ws.path(),
        stdin: case.doc.prompt.as_bytes(),
        env: vec![
            ("SKILLSIFT_VARIANT".into(), key.variant.as_str().into()),
            (
                "SKILLSIFT_SKILL_DIR".into(),
                ctx.skill_abs.display().to_string(),
            ),
            ("SKILLSIFT_CASE_ID".into(), case.doc.id.clone()),
            ("SKILLSIFT_TRIAL".into(), key.trial.to_string()),
        ],
        env_remove: workspace::GIT_ENV_REMOVE
            .iter()
            .map(|s| s.to_string())
            .collect(),
        timeout: *timeout,
        max_stdout: *max_bytes,
        max_stderr: *max_bytes,
        grace: ctx.grace,
    });
    let (t1, s1) = now();
    timing.executor_end = s1;
    timing.executor_duration_seconds = secs(t0, t1);
    timing.total_duration_seconds = timing.executor_duration_seconds;
    timing.duration_ms = (timing.executor_duration_seconds * 1000.0) as u64;
    rec.duration_ms = timing.duration_ms;
    let written = write_output(ctx, &dir.join("runner-output.txt"), &out.stdout)
        .and_then(|()| write_output(ctx, &dir.join("stderr.txt"), &out.stderr));
    let parsed = match out.failure("the runner", *timeout, (*max_bytes, *max_bytes)) {
        Some(f) => Err(f),
        None => runner::parse_output(&out.stdout, key.variant),
    };
    // the checks read the workspace the runner left (a runner reports no
    // trace: checks that need one are refused when the plan is made)
    let checked = match &parsed {
        Ok(line) if case.doc.kind.is_eval() => run_checks(
            &case.doc.expectations,
            &checks::Seen {
                workspace: ws.path(),
                answer: &line.output,
                skills: &line.invoked_skills,
                trace: None,
                grace: ctx.grace,
            },
        )
        .map(Some),
        _ => Ok(None),
    };
    rec.workspace = finish_workspace(ctx, ws);
    written?;
    match (parsed, checked) {
        (Err(e), _) | (Ok(_), Err(e)) => rec.reason = Some(e),
        (Ok(line), Ok(checked)) => {
            rec.invoked_skills = line.invoked_skills;
            rec.output = ctx.redactor.text(&cut(&line.output, results::MAX_OUTPUT));
            rec.exit_code = Some(line.exit_code);
            rec.evidence = true;
            rec.reason = None;
            if let Some(checked) = checked.filter(|c| c.iter().any(Option::is_some)) {
                let only: Vec<ExpectationDoc> = case
                    .doc
                    .expectations
                    .iter()
                    .filter(|e| e.check.is_some())
                    .cloned()
                    .collect();
                let verdicts: Vec<Option<checks::Verdict>> =
                    checked.into_iter().filter(Option::is_some).collect();
                let entries = merge_verdicts(ctx, &only, &verdicts, &[]);
                record_grading(dir, entries, &mut rec)?;
                // the runner's own verdict stands; a failed check fails it too
                if line.exit_code != 0 {
                    rec.exit_code = Some(line.exit_code);
                }
            }
        }
    }
    Ok((rec, timing))
}

/// `s` cut to at most about `max` bytes (keeping the start and the end).
pub(crate) fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut head = max / 2;
    while !s.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = s.len() - max / 2;
    while !s.is_char_boundary(tail) {
        tail += 1;
    }
    format!(
        "{}\n[… {} bytes cut …]\n{}",
        &s[..head],
        tail - head,
        &s[tail..]
    )
}

/// `2026-01-15T10:30:00Z` (UTC, whole seconds).
pub fn iso8601(t: SystemTime) -> String {
    let secs = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Find `program` the way `execvp` would: a path containing `/` is taken
/// as is (made absolute), a bare name is searched in `PATH`.
pub fn resolve_program(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    };
    if program.contains('/') {
        let p = std::path::absolute(program).ok()?;
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| executable(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_iso8601() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_768_473_000);
        assert_eq!(iso8601(t), "2026-01-15T10:30:00Z");
        assert_eq!(iso8601(SystemTime::UNIX_EPOCH), "1970-01-01T00:00:00Z");
    }
}
