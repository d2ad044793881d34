//! `check --behavioral-routing`: the model's routing of the whole catalog,
//! beside Tier 2's.
//!
//! Every trigger prompt of every skill (positives and negatives, `"lexical":
//! false` ones too, drafts left out) runs through the real client with
//! every skill of its skill's installation installed where that client
//! finds skills (a catalog of plugins, marketplace entries or packs is
//! installed one unit at a time, [`crate::client::install`]: a prompt of
//! one plugin runs with that plugin's skills, not the whole marketplace's),
//! one deciding run per prompt and trial ([`super::decide`]: stopped at the
//! first load, at a write before any load, or after `[behave]
//! trigger-turns` turns). The binary gives each prompt Tier 2's top three
//! (this layer sits above `route` only through the binary); this module
//! runs, compares and writes `evals/results/_routing/iteration-N/
//! routing.json`.
//!
//! A trial is **correct** when, for a positive prompt, the case's skill
//! loaded; for a negative one, it did not load and, when the case names an
//! `owner`, the owner loaded. A prompt is correct when more than half of
//! its trials are. Tier 2 is correct when its first choice is the case's
//! skill (positive), or is not the skill and is the owner when one is named
//! (negative). Tier 2 and the model **agree** on a trial when Tier 2's first
//! choice is the first skill the model loaded (nothing scoring above 0 and
//! nothing loaded agree too); a prompt agrees when more than half of its
//! trials do. A prompt's `with` skills (which it legitimately loads too)
//! are passed over in both first choices, and a load of them alone does
//! not end its run.

use super::agent::{Agent, AgentKind, Paths};
use super::build;
use super::canary;
use super::decide::{self, StopReason};
use super::exec::{self, AgentMode, Mode};
use super::plan::Shard;
use super::process;
use super::redact::Redactor;
use super::results;
use super::workspace::{self, Setup, Tree};
use crate::args::BehaveArgs;
use crate::catalog::{Catalog, Target};
use crate::config::{Config, InstallMode};
use crate::exit::{Exit, Fatal};
use serde::{Deserialize, Serialize};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The results folder's name under `evals/results/` (no skill is named
/// so: a skill name cannot start with `_`).
pub const FOLDER: &str = "_routing";

/// `routing.json`'s format.
pub const FORMAT: u32 = 1;

/// Longest prompt shown in a human line, in characters.
const SHOWN_PROMPT: usize = 160;

/// One trigger prompt of the catalog, with Tier 2's answer.
#[derive(Debug, Clone)]
pub struct Prompt {
    pub prompt: String,
    /// The skill of the case file (its name).
    pub skill: String,
    pub positive: bool,
    pub owner: Option<String>,
    /// Skills the prompt legitimately loads too (`with`).
    pub with: Vec<String>,
    pub lexical: bool,
    /// The case file, relative to the catalog root.
    pub file: String,
    /// Tier 2's first three skills (scores above 0), best first.
    pub tier2: Vec<String>,
    /// The installation its runs install ([`Plan::installations`]).
    pub installation: usize,
}

/// One trial of a prompt.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TrialDoc {
    /// Skills loaded, in order.
    pub loaded: Vec<String>,
    /// Why the run stopped (`skill-loaded`, `workspace-changed`,
    /// `turn-limit`, `ended`).
    pub stop: String,
    pub turns: u64,
    pub tokens: Option<u64>,
    /// Why the run gave no evidence, when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub correct: bool,
    pub agree: bool,
}

/// One prompt of `routing.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PromptDoc {
    pub prompt: String,
    pub skill: String,
    pub expect: String,
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<String>,
    pub lexical: bool,
    pub file: String,
    pub tier2: Vec<String>,
    /// The installation its runs installed, when the catalog is installed
    /// in parts ([`RoutingDoc::installations`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub installation: Option<String>,
    /// Per trial, the skills loaded (the shape).
    pub loaded: Vec<Vec<String>>,
    pub trials: Vec<TrialDoc>,
    pub model_correct: bool,
    pub tier2_correct: bool,
    pub agree: bool,
}

/// The counts over the prompts of `routing.json`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    pub prompts: usize,
    pub model_correct: usize,
    pub tier2_correct: usize,
    pub agree: usize,
    /// Tier 2 right, model wrong: the description misleads the model.
    pub tier2_only: usize,
    /// Tier 2 wrong, model right: a lexical blind spot.
    pub model_only: usize,
    pub both_wrong: usize,
    /// Runs that gave no evidence (counted as not loading anything).
    pub failed_runs: usize,
}

/// `routing.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RoutingDoc {
    pub format: u32,
    pub client: String,
    pub client_version: Option<String>,
    /// The model the first run's stream named, when it named one.
    pub model: Option<String>,
    pub trials: u32,
    pub trigger_turns: u32,
    pub shard: String,
    /// Every skill some run installed, by name.
    pub skills: Vec<String>,
    /// The installations the runs installed one at a time, when the
    /// catalog is installed in parts (plugins, marketplace entries, packs);
    /// empty when every run installed every skill.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub installations: Vec<String>,
    pub prompts: Vec<PromptDoc>,
    pub summary: Summary,
}

/// Whether a load named `load` is of skill `name`.
fn is(agent: &dyn Agent, name: &str, load: &str) -> bool {
    agent.answers_to(name, Some(name), load)
}

/// Whether one trial's loads are what the authors expect of `p`.
pub fn trial_correct(agent: &dyn Agent, p: &Prompt, loaded: &[String]) -> bool {
    let has = |n: &str| loaded.iter().any(|l| is(agent, n, l));
    if p.positive {
        has(&p.skill)
    } else {
        !has(&p.skill) && p.owner.as_deref().is_none_or(has)
    }
}

/// Whether Tier 2's first choice is what the authors expect of `p`.
pub fn tier2_correct(p: &Prompt) -> bool {
    // the skills the prompt legitimately loads too may rank above it
    let first = p
        .tier2
        .iter()
        .find(|t| !p.with.contains(t))
        .map(String::as_str);
    if p.positive {
        first == Some(p.skill.as_str())
    } else {
        first != Some(p.skill.as_str()) && p.owner.as_deref().is_none_or(|o| first == Some(o))
    }
}

/// More than half of `n`.
fn most(k: usize, n: usize) -> bool {
    2 * k > n
}

/// The installations of `catalog` as `config`'s client makes them
/// ([`crate::client::install::installs`]), in their order: one holding
/// every skill when the catalog is installed whole. A prompt's
/// [`Prompt::installation`] indexes this list.
pub fn installations(
    catalog: &Catalog,
    config: &Config,
) -> Result<Vec<crate::client::install::Install>, Fatal> {
    Ok(
        crate::client::install::installs(catalog, config)?.unwrap_or_else(|| {
            vec![crate::client::install::Install {
                label: "the whole catalog".into(),
                skills: (0..catalog.skills.len()).collect(),
                commands: true,
            }]
        }),
    )
}

/// One installation as the runs install it: its label and its skills, as
/// indices into [`Plan::skills`].
#[derive(Debug, Clone)]
pub struct Installation {
    pub label: String,
    pub skills: Vec<usize>,
}

/// Skills read to be installed: name, files.
type Skills = Vec<(String, Tree)>;

/// Every skill of the catalog, read to be installed, and each
/// installation's skills among them. Two skills of one installation under
/// one name are refused (the client would load one for the other); across
/// installations they never meet.
fn trees(catalog: &Catalog, config: &Config) -> Result<(Skills, Vec<Installation>), Fatal> {
    let mut out = Vec::new();
    let mut groups = Vec::new();
    for inst in installations(catalog, config)? {
        let mut installs = build::Installs::new("--behavioral-routing", "the catalog's skills");
        let mut skills = Vec::new();
        for i in inst.skills {
            let s = &catalog.skills[i];
            let name = s.name().unwrap_or(&s.folder).to_string();
            let (_, tree) = installs.read(catalog, i, &name)?;
            skills.push(out.len());
            out.push((name, tree));
        }
        groups.push(Installation {
            label: inst.label,
            skills,
        });
    }
    Ok((out, groups))
}

/// The client of a routing run, checked from the flags.
pub fn client(args: &BehaveArgs, config: &Config) -> Result<AgentKind, Fatal> {
    if args.runner.is_some() {
        return Err(Fatal::usage(
            "--behavioral-routing runs a built-in client: --runner does not apply",
        ));
    }
    if args.behavioral.is_some() {
        return Err(Fatal::usage(
            "--behavioral and --behavioral-routing are two evaluations: pass one",
        ));
    }
    let g = &args.gates;
    let ignored = [
        ("--with-siblings", args.with_siblings),
        ("--compare-skill", args.baseline_skill.is_some()),
        ("--with-skill-only", args.no_baseline),
        ("--grader-agent", args.grader_agent.is_some()),
        (
            "--trigger-runs full",
            args.trigger_runs == decide::TriggerRuns::Full,
        ),
        ("--keep-workspace", args.keep_workspace),
        ("--allow-insufficient", args.allow_insufficient),
        (
            "--min-trigger-f1, --min-uplift and --min-quality-delta",
            g.min_trigger_f1.is_some() || g.min_uplift.is_some() || g.min_quality_delta.is_some(),
        ),
    ];
    if let Some((flag, _)) = ignored.iter().find(|(_, set)| *set) {
        return Err(Fatal::usage(format!(
            "{flag} does not apply to --behavioral-routing"
        ))
        .with_help("it installs the whole catalog, runs each trigger prompt once per trial in one arm, stops each run once decided, and grades nothing"));
    }
    if config.behave.install == InstallMode::AppendSystemPrompt {
        return Err(Fatal::usage(
            "--behavioral-routing needs [behave] install = \"discover\": with the skill in the system prompt, which skill the model would load is not observed",
        ));
    }
    let opts = build::opts(args, &config.behave)?;
    match opts.agents.as_slice() {
        [k] => Ok(*k),
        _ => Err(
            Fatal::usage("--behavioral-routing runs one client at a time")
                .with_help("run it once per client: --agent claude, then --agent codex"),
        ),
    }
}

/// The plan of a routing run, before anything is spawned.
pub struct Plan {
    /// Always a built-in agent.
    pub mode: Mode,
    pub prompts: Vec<Prompt>,
    /// Indices into `prompts` this shard runs.
    pub held: Vec<usize>,
    pub trials: u32,
    pub jobs: usize,
    pub shard: Shard,
    pub turn_limit: u32,
    /// Every skill some run installs: name, files.
    pub skills: Vec<(String, Tree)>,
    /// What each run installs: the installation of its prompt.
    pub installations: Vec<Installation>,
    pub grace: Duration,
    pub git_timeout: Duration,
    /// `--allow-personal-copy`: run although a copy of a catalog skill is
    /// where every run would see it.
    pub allow_copies: bool,
}

impl Plan {
    pub fn agent_mode(&self) -> &AgentMode {
        self.mode
            .agent()
            .expect("a routing plan runs a built-in agent")
    }

    pub fn runs(&self) -> usize {
        self.held.len() * self.trials as usize
    }

    /// Install `text` as the SKILL.md of the skill named `skill` of
    /// installation `k` in every run from now on (`tune --behavioral`: the
    /// same catalog with another description); `false` when that
    /// installation has no skill so named.
    pub fn replace_skill_md(&mut self, k: usize, skill: &str, text: &str) -> bool {
        let Some(&at) = self
            .installations
            .get(k)
            .and_then(|inst| inst.skills.iter().find(|&&j| self.skills[j].0 == skill))
        else {
            return false;
        };
        let tree = &mut self.skills[at].1;
        match tree.items.iter_mut().find(|i| i.rel == "SKILL.md") {
            Some(item) => {
                item.bytes = Some(std::sync::Arc::new(text.as_bytes().to_vec()));
                true
            }
            None => false,
        }
    }
}

/// Check the flags and read what the runs install.
pub fn plan(
    catalog: &Catalog,
    config: &Config,
    args: &BehaveArgs,
    prompts: Vec<Prompt>,
) -> Result<Plan, Fatal> {
    if catalog.target != Target::Catalog {
        return Err(Fatal::usage(format!(
            "{}: --behavioral-routing needs the catalog root (the folder holding the skills), not a single skill",
            catalog.display_root
        )));
    }
    let kind = client(args, config)?;
    let bc = &config.behave;
    if bc.trigger_turns == 0 || bc.trigger_turns > decide::MAX_TRIGGER_TURNS {
        return Err(build::config_error(
            "trigger-turns",
            format!(
                "must be between 1 and {}, not {}",
                decide::MAX_TRIGGER_TURNS,
                bc.trigger_turns
            ),
        ));
    }
    if prompts.is_empty() {
        return Err(Fatal::usage(format!(
            "{}: no skill has a trigger prompt to route",
            catalog.display_root
        ))
        .with_help("write trigger prompts (`skillsift init SKILL` drafts a trigger set)"));
    }
    let shard = match &args.shard {
        Some(s) => Shard::parse(s).map_err(Fatal::usage)?,
        None => Shard::WHOLE,
    };
    let (skills, installations) = trees(catalog, config)?;
    if let Some(q) = prompts
        .iter()
        .find(|q| q.installation >= installations.len())
    {
        return Err(Fatal::usage(format!(
            "{}: the prompt `{}` names an installation this catalog does not make",
            catalog.display_root,
            crate::escape::line(&q.prompt)
        )));
    }
    let held = (0..prompts.len()).filter(|&i| shard.holds(i)).collect();
    let agent = super::agent::build(kind, bc)?;
    let mode = Mode::Agent(AgentMode {
        agent,
        grader_agent: None,
        version: None,
        grader_version: None,
        append: None,
        baseline_append: None,
        exec_timeout: Duration::from_secs(bc.executor_timeout_secs),
        grader_timeout: Duration::from_secs(bc.grader_timeout_secs),
        max_trace: bc.max_trace_bytes,
        max_grader: bc.max_grader_bytes,
    });
    Ok(Plan {
        mode,
        prompts,
        held,
        trials: args.trials,
        jobs: args.jobs,
        shard,
        turn_limit: bc.trigger_turns,
        skills,
        installations,
        grace: Duration::from_millis(bc.kill_grace_ms),
        git_timeout: Duration::from_secs(bc.git_timeout_secs),
        allow_copies: args.allow_personal_copy,
    })
}

/// `positive` or `negative`.
fn expect(p: &Prompt) -> &'static str {
    if p.positive { "positive" } else { "negative" }
}

/// A prompt for a human line: bounded, on one line, escaped.
fn shown(s: &str) -> String {
    let cut = match s.char_indices().nth(SHOWN_PROMPT) {
        None => s.to_string(),
        Some((i, _)) => format!("{}…", &s[..i]),
    };
    format!("\"{}\"", crate::escape::line(&cut))
}

fn shard_text(s: Shard) -> String {
    format!("{}/{}", s.index, s.count)
}

/// The input tokens the first requests of this shard's runs send at least:
/// the client's own part and skills section (measured per client), the
/// listing entry of every skill of the prompt's installation, and the
/// prompt, per run.
fn first_request_tokens(p: &Plan) -> usize {
    let size = p.agent_mode().agent.request_size();
    let listing: Vec<usize> = p
        .installations
        .iter()
        .map(|inst| {
            inst.skills
                .iter()
                .map(|&j| super::budget::entry_floor(&p.skills[j].1, &p.skills[j].0))
                .sum()
        })
        .collect();
    let own = size.agent + size.skills_section;
    p.held
        .iter()
        .map(|&i| {
            let q = &p.prompts[i];
            super::budget::tokens(own + listing[q.installation] + q.prompt.chars().count())
        })
        .sum::<usize>()
        * p.trials as usize
}

/// The installation a run of `q` installs, for messages: `None` when the
/// catalog is installed whole.
fn installation_of<'p>(p: &'p Plan, q: &Prompt) -> Option<&'p str> {
    (p.installations.len() > 1).then(|| p.installations[q.installation].label.as_str())
}

/// The dry run: what would run, and at most how many model turns.
pub fn dry_run(p: &Plan, json: bool, out: &mut dyn Write) -> io::Result<()> {
    let a = p.agent_mode().agent.as_ref();
    let tokens = first_request_tokens(p);
    if json {
        let doc = serde_json::json!({
            "client": a.kind(),
            "trials": p.trials,
            "trigger_turns": p.turn_limit,
            "shard": shard_text(p.shard),
            "skills": p.skills.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            "installations": p.installations.iter().map(|inst| serde_json::json!({
                "label": inst.label,
                "skills": inst.skills.iter().map(|&j| &p.skills[j].0).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "runs": p.runs(),
            "max_model_turns": p.runs() as u64 * u64::from(p.turn_limit),
            "input_tokens_at_least": tokens,
            "prompts": p.held.iter().map(|&i| {
                let q = &p.prompts[i];
                serde_json::json!({
                    "prompt": q.prompt, "skill": q.skill, "expect": expect(q),
                    "owner": q.owner, "lexical": q.lexical, "tier2": q.tier2,
                    "installation": p.installations[q.installation].label,
                })
            }).collect::<Vec<_>>(),
        });
        crate::escape::to_writer_pretty(&mut *out, &doc).map_err(io::Error::other)?;
        return writeln!(out);
    }
    writeln!(
        out,
        "routing  {}: {} of {} × {} = {}{}, nothing spawned (--dry-run)",
        a.product(),
        crate::base::plural::count(p.held.len(), "prompt"),
        crate::base::plural::count(p.skills.len(), "skill"),
        crate::base::plural::count(p.trials as usize, "trial"),
        crate::base::plural::count(p.runs(), "run"),
        if p.shard.count > 1 {
            format!(" (shard {})", shard_text(p.shard))
        } else {
            String::new()
        }
    )?;
    writeln!(
        out,
        "each run installs {} and stops at the first load, a write before any load, or {}: at most {} in all, no grader call",
        if p.installations.len() > 1 {
            format!(
                "the skills of its prompt's installation (one of {}, as users install them)",
                p.installations.len()
            )
        } else {
            "every skill".into()
        },
        crate::base::plural::count(p.turn_limit as usize, "model turn"),
        crate::base::plural::count(p.runs() * p.turn_limit as usize, "model turn")
    )?;
    writeln!(
        out,
        "tokens   ≥ {} input tokens: the first request of each run, {}'s system prompt and tool definitions (≈ {} tokens, measured on {}), the listing of the skills it installs and the prompt; every further turn resends the conversation",
        crate::base::plural::thousands(tokens),
        a.product(),
        crate::base::plural::thousands(super::budget::tokens(a.request_size().agent)),
        a.tested_version()
    )?;
    let call = a.executor(
        &Paths {
            cwd: Path::new("<workspace>"),
            home: Path::new("<run-home>"),
        },
        None,
    );
    writeln!(
        out,
        "command  {} {}",
        crate::escape::line(a.program()),
        crate::escape::line(&call.args.join(" "))
    )?;
    for &i in &p.held {
        let q = &p.prompts[i];
        writeln!(
            out,
            "  {} of {}{}{}: {} (Tier 2: {})",
            expect(q),
            crate::escape::line(&q.skill),
            installation_of(p, q)
                .map(|l| format!(" in {}", crate::escape::line(l)))
                .unwrap_or_default(),
            q.owner
                .as_ref()
                .map(|o| format!(", owner {}", crate::escape::line(o)))
                .unwrap_or_default(),
            shown(&q.prompt),
            first_three(&q.tier2)
        )?;
    }
    Ok(())
}

fn first_three(t: &[String]) -> String {
    if t.is_empty() {
        "no skill scores above 0".into()
    } else {
        crate::escape::line(&t.join(", ")).into_owned()
    }
}

/// Resolve the client (exit 4 when missing or refused) and run its canary.
pub fn prepare(p: &mut Plan) -> Result<canary::Outcome, Fatal> {
    p.mode.resolve()?;
    let a = p.agent_mode();
    if !p.allow_copies {
        refuse_copies(p, a.agent.as_ref())?;
    }
    let args = a
        .agent
        .executor(
            &Paths {
                cwd: Path::new("<workspace>"),
                home: Path::new("<run-home>"),
            },
            None,
        )
        .args;
    canary::ensure_for(
        canary::Client {
            kind: a.agent.kind(),
            version: a.version.as_deref(),
            args_with: &args,
        },
        a,
        p.grace,
        p.git_timeout,
    )
}

/// Refuse a copy of any catalog skill outside the workspace that every run
/// would see (a managed skills folder): the client could load it instead
/// of the catalog's.
fn refuse_copies(p: &Plan, agent: &dyn Agent) -> Result<(), Fatal> {
    let found: Vec<String> = p
        .skills
        .iter()
        .flat_map(|(name, _)| {
            super::agent::copies_of(agent, name, std::iter::empty(), "")
                .into_iter()
                .map(move |c| format!("`{}`: {} ({})", name, c.path, c.why))
        })
        .collect();
    if found.is_empty() {
        return Ok(());
    }
    Err(Fatal::usage(format!(
        "{} would see other copies of catalog skills in every run: {}",
        agent.product(),
        crate::escape::line(&found.join(", "))
    ))
    .with_help("the client could load a copy instead of the catalog's skill: move it away for the evaluation, or pass --allow-personal-copy if you accept that"))
}

/// Whether a routing run is decided: as a trigger run
/// ([`decide::decided`]), except that loads of the prompt's `with` skills
/// alone do not decide it (the model may load the case's skill next).
fn settled(trace: &super::agent::Trace, agent: &dyn Agent, with: &[String], limit: u32) -> bool {
    let only_with = !trace.loads.is_empty()
        && trace
            .loads
            .iter()
            .all(|l| with.iter().any(|w| is(agent, w, &l.name)));
    if only_with {
        let mut rest = trace.clone();
        rest.loads.clear();
        return decide::decided(&rest, agent, limit).is_some();
    }
    decide::decided(trace, agent, limit).is_some()
}

/// The first of `names` that is not one of `with` (else the first).
fn first_besides<'a>(
    agent: &dyn Agent,
    names: &'a [String],
    with: &[String],
) -> Option<&'a String> {
    names
        .iter()
        .find(|n| !with.iter().any(|w| is(agent, w, n)))
        .or(names.first())
}

/// What one run gave.
struct Ran {
    loaded: Vec<String>,
    stop: decide::StopDoc,
    error: Option<String>,
    model: Option<String>,
    stream: Vec<u8>,
}

/// One deciding run of `prompt` with the skills of its installation
/// installed.
fn run_one(p: &Plan, q: &Prompt) -> Result<Ran, Fatal> {
    let prompt = q.prompt.as_str();
    let a = p.agent_mode();
    let agent: &dyn Agent = a.agent.as_ref();
    let skills: Vec<(PathBuf, &Tree)> = p.installations[q.installation]
        .skills
        .iter()
        .map(|&j| (agent.install_dir(&p.skills[j].0), &p.skills[j].1))
        .collect();
    let failed = |e: String| Ran {
        loaded: Vec::new(),
        stop: decide::StopDoc {
            reason: StopReason::Ended,
            turns: 0,
            turn_limit: p.turn_limit,
            tokens: None,
        },
        error: Some(e),
        model: None,
        stream: Vec::new(),
    };
    let ws = match workspace::create(&Setup {
        fixtures: None,
        git: true,
        skills: &skills,
        git_timeout: p.git_timeout,
        keep: false,
    }) {
        Ok(w) => w,
        Err(e) => return Ok(failed(format!("the workspace could not be set up: {e}"))),
    };
    let home = match exec::home_for(agent, "home", false) {
        Ok(h) => h,
        Err(e) => return Ok(failed(e)),
    };
    let call = agent.executor(
        &Paths {
            cwd: ws.path(),
            home: home.path(),
        },
        None,
    );
    if let Err(e) = workspace::write_files(home.path(), &call.files) {
        return Ok(failed(format!("the run home could not be set up: {e}")));
    }
    let cwd = ws.path().to_path_buf();
    let limit = p.turn_limit;
    let watch = |b: &[u8]| settled(&agent.parse(b, &cwd), agent, &q.with, limit);
    let out = process::run_watched(
        &exec::spec(
            agent,
            &call,
            ws.path(),
            prompt.as_bytes(),
            (a.exec_timeout, a.max_trace),
            p.grace,
        ),
        Some(&watch),
    );
    let trace = agent.parse(&out.stdout, ws.path());
    drop((ws, home));
    if let Some(s) = agent.fatal(&trace, &out.stderr) {
        return Err(Fatal::new(Exit::Unavailable, s.message).with_help(s.help));
    }
    let decided = out.ended == process::Ended::Decided;
    let error = out.failure("the agent", a.exec_timeout, (a.max_trace, a.max_trace));
    Ok(Ran {
        loaded: trace.skills(),
        stop: exec::trigger_stop(&trace, agent, decided, limit),
        error,
        model: trace.model.clone(),
        stream: out.stdout,
    })
}

/// Run this shard's prompts, `jobs` at a time, into a new iteration of
/// `evals/results/_routing/`; returns the document and its folder.
pub fn run(catalog: &Catalog, p: &Plan) -> Result<(RoutingDoc, PathBuf), Fatal> {
    let iteration = results::new_iteration(&catalog.root, FOLDER)?;
    let keys: Vec<(usize, u32)> = p
        .held
        .iter()
        .flat_map(|&i| (1..=p.trials).map(move |t| (i, t)))
        .collect();
    eprintln!(
        "skillsift: {} of {} into {}",
        crate::base::plural::count(keys.len(), "routing run"),
        crate::base::plural::count(p.held.len(), "prompt"),
        crate::escape::line(&iteration.display().to_string())
    );
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Ran>>> = keys.iter().map(|_| Mutex::new(None)).collect();
    let fatal: Mutex<Option<Fatal>> = Mutex::new(None);
    let redactor = Redactor::from_env();
    std::thread::scope(|s| {
        for _ in 0..p.jobs.clamp(1, keys.len().max(1)) {
            s.spawn(|| {
                loop {
                    let stopped = fatal.lock().unwrap_or_else(|e| e.into_inner()).is_some();
                    if stopped || process::interrupted() {
                        return;
                    }
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&(i, t)) = keys.get(k) else { return };
                    match run_one(p, &p.prompts[i]) {
                        Ok(r) => {
                            let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                            let dir = iteration.join(format!("prompt-{}/run-{t}", i + 1));
                            let text =
                                String::from_utf8(redactor.bytes(&r.stream)).unwrap_or_default();
                            if let Err(f) = results::write_text(&dir.join("stream.jsonl"), &text) {
                                fatal
                                    .lock()
                                    .unwrap_or_else(|e| e.into_inner())
                                    .get_or_insert(f);
                                return;
                            }
                            eprintln!(
                                "skillsift: routing run {n}/{} prompt-{} #{t}: {}",
                                keys.len(),
                                i + 1,
                                match (&r.error, r.loaded.is_empty()) {
                                    (Some(e), _) => crate::escape::line(e).into_owned(),
                                    (None, true) => format!("no load ({})", r.stop.reason.as_str()),
                                    (None, false) => format!(
                                        "loaded {}",
                                        crate::escape::line(&r.loaded.join(", "))
                                    ),
                                }
                            );
                            *slots[k].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                        }
                        Err(f) => {
                            fatal
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .get_or_insert(f);
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(f) = fatal.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(f);
    }
    if process::interrupted() {
        return Err(Fatal::new(
            Exit::Unavailable,
            format!(
                "interrupted; the streams so far are in {}",
                iteration.display()
            ),
        ));
    }
    let ran: Vec<Ran> = slots
        .into_iter()
        .map(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| Fatal::new(Exit::Unavailable, "a routing run did not finish"))?;
    let doc = document(p, &keys, ran);
    results::write_json(&iteration.join("routing.json"), &doc)?;
    Ok((doc, iteration))
}

/// `routing.json` from the runs (`keys[k]` is the prompt and trial of
/// `ran[k]`).
fn document(p: &Plan, keys: &[(usize, u32)], ran: Vec<Ran>) -> RoutingDoc {
    let agent: &dyn Agent = p.agent_mode().agent.as_ref();
    let model = ran.iter().find_map(|r| r.model.clone());
    let mut per: std::collections::BTreeMap<usize, Vec<TrialDoc>> = Default::default();
    for (&(i, _), r) in keys.iter().zip(ran) {
        let q = &p.prompts[i];
        let first = first_besides(agent, &r.loaded, &q.with);
        let agree = match (first_besides(agent, &q.tier2, &q.with), first) {
            (None, None) => true,
            (Some(t), Some(l)) => is(agent, t, l),
            _ => false,
        };
        per.entry(i).or_default().push(TrialDoc {
            correct: trial_correct(agent, q, &r.loaded),
            agree,
            loaded: r.loaded,
            stop: r.stop.reason.as_str().into(),
            turns: r.stop.turns,
            tokens: r.stop.tokens,
            error: r.error,
        });
    }
    let mut summary = Summary::default();
    let mut prompts = Vec::new();
    for (i, trials) in per {
        let q = &p.prompts[i];
        let n = trials.len();
        let model_correct = most(trials.iter().filter(|t| t.correct).count(), n);
        let agree = most(trials.iter().filter(|t| t.agree).count(), n);
        let t2 = tier2_correct(q);
        summary.prompts += 1;
        summary.model_correct += usize::from(model_correct);
        summary.tier2_correct += usize::from(t2);
        summary.agree += usize::from(agree);
        summary.tier2_only += usize::from(t2 && !model_correct);
        summary.model_only += usize::from(!t2 && model_correct);
        summary.both_wrong += usize::from(!t2 && !model_correct);
        summary.failed_runs += trials.iter().filter(|t| t.error.is_some()).count();
        prompts.push(PromptDoc {
            prompt: q.prompt.clone(),
            skill: q.skill.clone(),
            expect: expect(q).into(),
            owner: q.owner.clone(),
            with: q.with.clone(),
            lexical: q.lexical,
            file: q.file.clone(),
            tier2: q.tier2.clone(),
            installation: installation_of(p, q).map(str::to_string),
            loaded: trials.iter().map(|t| t.loaded.clone()).collect(),
            trials,
            model_correct,
            tier2_correct: t2,
            agree,
        });
    }
    RoutingDoc {
        format: FORMAT,
        client: agent.kind().to_string(),
        client_version: p.agent_mode().version.clone(),
        model,
        trials: p.trials,
        trigger_turns: p.turn_limit,
        shard: shard_text(p.shard),
        skills: p.skills.iter().map(|(n, _)| n.clone()).collect(),
        installations: if p.installations.len() > 1 {
            p.installations.iter().map(|i| i.label.clone()).collect()
        } else {
            Vec::new()
        },
        prompts,
        summary,
    }
}

/// Largest `routing.json` read back.
pub const MAX_DOC_BYTES: u64 = 64 * 1024 * 1024;

/// The `routing.json` of the highest `iteration-N` of the catalog at
/// `root` that has one (for `skillsift report`): `Ok(None)` when there is
/// none, `Err` when the latest cannot be read.
pub fn latest(root: &Path) -> Result<Option<(PathBuf, RoutingDoc)>, String> {
    // Read as every file of the catalog's: never through a link out.
    let confined = crate::base::confine::Root::new(root).map_err(|r| r.to_string())?;
    let rel = results::results_rel(FOLDER);
    let Some(real) = confined.resolve(&rel).map_err(|r| r.to_string())? else {
        return Ok(None);
    };
    let Ok(rd) = std::fs::read_dir(&real) else {
        return Ok(None);
    };
    let mut found: Vec<(u64, PathBuf)> = rd
        .filter_map(|e| e.ok())
        .map(|e| rel.join(e.file_name()))
        .filter_map(|p| super::iteration::number(&p).map(|n| (n, p)))
        .filter(|(_, p)| root.join(p).join("routing.json").is_file())
        .collect();
    found.sort();
    let Some((_, dir)) = found.pop() else {
        return Ok(None);
    };
    let path = root.join(&dir).join("routing.json");
    let bytes = match confined.read(&dir.join("routing.json"), MAX_DOC_BYTES) {
        Ok(Some(b)) => b,
        Ok(None) => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let doc: RoutingDoc =
        serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    if doc.format != FORMAT {
        return Err(format!(
            "{}: format {} is not the {FORMAT} this skillsift reads",
            path.display(),
            doc.format
        ));
    }
    Ok(Some((path, doc)))
}

/// `7/10 (70 %)`.
fn share(k: usize, n: usize) -> String {
    if n == 0 {
        return "0/0".into();
    }
    format!("{k}/{n} ({:.0} %)", 100.0 * k as f64 / n as f64)
}

/// What the model loaded over the trials of `d`, in words.
fn model_said(d: &PromptDoc) -> String {
    let mut seen: Vec<String> = Vec::new();
    for t in &d.trials {
        let s = if t.loaded.is_empty() {
            "nothing".to_string()
        } else {
            t.loaded.join(" + ")
        };
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    crate::escape::line(&seen.join(" / ")).into_owned()
}

/// Which prompts a group holds.
pub type Pick = fn(&PromptDoc) -> bool;

fn tier2_only(d: &PromptDoc) -> bool {
    d.tier2_correct && !d.model_correct
}

fn model_only(d: &PromptDoc) -> bool {
    !d.tier2_correct && d.model_correct
}

fn both_wrong(d: &PromptDoc) -> bool {
    !d.tier2_correct && !d.model_correct
}

/// The prompts where Tier 2 or the model is wrong, in three groups, each
/// with its title.
pub const GROUPS: [(&str, Pick); 3] = [
    (
        "Tier 2 right, model wrong (the description misleads the model)",
        tier2_only,
    ),
    (
        "Tier 2 wrong, model right (a lexical blind spot: candidate for \"lexical\": false)",
        model_only,
    ),
    ("both wrong", both_wrong),
];

/// The human summary of a routing run.
pub fn human(doc: &RoutingDoc, dir: &Path, out: &mut dyn Write) -> io::Result<()> {
    let s = &doc.summary;
    writeln!(
        out,
        "routing  {} {}: {} prompt(s) × {} trial(s), {}",
        crate::escape::line(&doc.client),
        crate::escape::line(doc.client_version.as_deref().unwrap_or("(version unknown)")),
        s.prompts,
        doc.trials,
        match doc.installations.len() {
            0 => format!("{} skill(s) installed in every run", doc.skills.len()),
            n => format!(
                "{} skill(s) in {n} installations, each run installing its prompt's",
                doc.skills.len()
            ),
        }
    )?;
    writeln!(
        out,
        "model    routed as the authors expect: {}",
        share(s.model_correct, s.prompts)
    )?;
    writeln!(
        out,
        "tier 2   first choice as the authors expect: {}; equal to the model's choice: {}",
        share(s.tier2_correct, s.prompts),
        share(s.agree, s.prompts)
    )?;
    if s.failed_runs > 0 {
        writeln!(
            out,
            "warning  {} run(s) gave no evidence (counted as loading nothing); see the streams",
            s.failed_runs
        )?;
    }
    for (title, pick) in GROUPS {
        let hits: Vec<&PromptDoc> = doc.prompts.iter().filter(|d| pick(d)).collect();
        if hits.is_empty() {
            continue;
        }
        writeln!(out, "{title}: {}", hits.len())?;
        for d in hits {
            writeln!(
                out,
                "  {} ({} of {}{}): model loaded {}; Tier 2: {}",
                shown(&d.prompt),
                d.expect,
                crate::escape::line(&d.skill),
                d.owner
                    .as_ref()
                    .map(|o| format!(", owner {}", crate::escape::line(o)))
                    .unwrap_or_default(),
                model_said(d),
                first_three(&d.tier2)
            )?;
        }
    }
    writeln!(
        out,
        "results  {}",
        crate::escape::line(&dir.join("routing.json").display().to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt(positive: bool, owner: Option<&str>, tier2: &[&str]) -> Prompt {
        Prompt {
            prompt: "p".into(),
            skill: "a".into(),
            positive,
            owner: owner.map(str::to_string),
            with: Vec::new(),
            lexical: true,
            file: "evals/cases/a.json".into(),
            tier2: tier2.iter().map(|s| s.to_string()).collect(),
            installation: 0,
        }
    }

    #[test]
    fn correct_means_the_skill_for_a_positive_and_the_owner_for_a_negative() {
        let agent = crate::behave::agent::build(AgentKind::Claude, &Default::default()).unwrap();
        let a = agent.as_ref();
        let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let pos = prompt(true, None, &["a", "b"]);
        assert!(trial_correct(a, &pos, &l(&["a"])));
        assert!(!trial_correct(a, &pos, &l(&[])));
        assert!(tier2_correct(&pos));
        let neg = prompt(false, Some("b"), &["c"]);
        assert!(trial_correct(a, &neg, &l(&["b"])));
        assert!(!trial_correct(a, &neg, &l(&[])));
        assert!(!trial_correct(a, &neg, &l(&["b", "a"])));
        assert!(!tier2_correct(&neg));
        let free = prompt(false, None, &[]);
        assert!(trial_correct(a, &free, &l(&[])));
        assert!(tier2_correct(&free));
        assert!(!most(1, 2) && most(2, 3));
    }
}
