//! Proof that this client's skill loads are seen, before any suite run.
//!
//! A trigger evaluation whose harness cannot see loads reports a recall of
//! 0 % for every skill, and reads like a description problem. So before the
//! first run of a plan, skillsift runs one *canary*: a throwaway skill with
//! a unique name (`skillsift-canary-<hex>`) installed where the client finds
//! skills, and a prompt that asks for it by name, watched and stopped like a
//! trigger run (`behave::decide`). When the client's stream shows no load of
//! it, the evaluation stops with exit 4 ("skillsift cannot see this client
//! load skills: …") before a token is spent on the suite.
//!
//! A passed canary is cached in skillsift's cache folder
//! (`canaries/<client>-<key>.json`), keyed by client, client version, and
//! model and provider (the run's recorded arguments, which name the model,
//! and the endpoint variables such as `ANTHROPIC_BASE_URL`): a new model or
//! provider runs it again. A failed canary is never cached.

use super::agent::{Agent, Paths};
use super::decide;
use super::exec::AgentMode;
use super::plan::PlanDoc;
use super::process;
use super::workspace::{self, Item, Setup, Tree};
use crate::exit::{Exit, Fatal};
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Endpoint variables whose value decides which provider a client reaches
/// (their values enter the cache key; credentials never do).
const ENDPOINT_VARS: &[&str] = &[
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_MODEL",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "OPENAI_BASE_URL",
    "GOOGLE_GEMINI_BASE_URL",
    "GOOGLE_VERTEX_BASE_URL",
    "GOOGLE_GENAI_USE_VERTEXAI",
    "OPENCODE_CONFIG_CONTENT",
];

/// Turns the canary may take: it asks for the skill by name.
const CANARY_TURNS: u32 = 3;

/// What the canary found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It ran in this evaluation and the load was seen.
    Passed,
    /// A canary of this client, version, model and provider passed before.
    Cached,
}

/// Who runs: the client, its version and the arguments of its runs (which
/// name the model): what a passed canary is cached under.
#[derive(Debug, Clone, Copy)]
pub struct Client<'a> {
    pub kind: &'a str,
    pub version: Option<&'a str>,
    pub args_with: &'a [String],
}

impl<'a> Client<'a> {
    /// The client of `plan`'s `with` runs.
    pub fn of(plan: &'a PlanDoc) -> Client<'a> {
        Client {
            kind: &plan.agent.kind,
            version: plan.agent.version.as_deref(),
            args_with: &plan.agent.args_with,
        }
    }
}

/// The cache key of a client, version, model and provider.
fn key(c: Client) -> String {
    let mut h = Sha256::new();
    h.update(c.kind.as_bytes());
    h.update([0]);
    h.update(c.version.unwrap_or("").as_bytes());
    for a in c.args_with {
        h.update([0]);
        h.update(a.as_bytes());
    }
    for v in ENDPOINT_VARS {
        h.update([1]);
        h.update(v.as_bytes());
        h.update(std::env::var(v).unwrap_or_default().as_bytes());
    }
    workspace::hex(&h.finalize())[..32].to_string()
}

fn cache_file(c: Client) -> Option<PathBuf> {
    crate::process::scratch::cache_folder(None).map(|d| {
        d.join("canaries")
            .join(format!("{}-{}.json", c.kind, key(c)))
    })
}

/// Run the canary of `plan`'s client unless one passed before; a load that
/// is not seen is exit 4.
pub fn ensure(
    plan: &PlanDoc,
    a: &AgentMode,
    grace: Duration,
    git: Duration,
) -> Result<Outcome, Fatal> {
    ensure_for(Client::of(plan), a, grace, git)
}

/// [`ensure`] for `client`, which need not have a plan
/// (`check --behavioral-routing`).
pub fn ensure_for(
    client: Client,
    a: &AgentMode,
    grace: Duration,
    git: Duration,
) -> Result<Outcome, Fatal> {
    let cache = cache_file(client);
    if cache.as_ref().is_some_and(|p| p.is_file()) {
        return Ok(Outcome::Cached);
    }
    let name = format!("skillsift-canary-{}", &super::grader::nonce()[..12]);
    let seen = run(a, &name, grace, git)?;
    if !seen.loaded {
        return Err(Fatal::new(
            Exit::Unavailable,
            format!(
                "skillsift cannot see this client load skills: {} {} was asked for the skill `{name}` by name, and its stream shows {}; no suite run was started",
                a.agent.product(),
                a.version.as_deref().unwrap_or("(version unknown)"),
                seen.what
            ),
        )
        .with_help("a trigger evaluation would report every skill as never loaded; check that this client version is one skillsift supports (`skillsift check --behavioral … --dry-run` names the tested version), and that its model reaches the skill tool"));
    }
    if let Some(p) = cache {
        let doc = serde_json::json!({
            "client": client.kind,
            "client_version": client.version,
            "skill": name,
            "model": seen.model,
        });
        if let Some(dir) = p.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // a cache that cannot be written only means the canary runs again
        let _ = std::fs::write(&p, format!("{doc}\n"));
    }
    Ok(Outcome::Passed)
}

struct Seen {
    loaded: bool,
    /// What the stream showed instead, in words.
    what: String,
    model: Option<String>,
}

/// One canary run: a workspace with the throwaway skill installed, the
/// prompt naming it, stopped once decided.
fn run(a: &AgentMode, name: &str, grace: Duration, git: Duration) -> Result<Seen, Fatal> {
    let unavailable = |e: String| Fatal::new(Exit::Unavailable, format!("the canary run: {e}"));
    let skill_md = format!(
        "---\nname: {name}\ndescription: A throwaway skill skillsift installs to check that it sees skill loads. Use it when the user asks for {name} by name.\n---\n# {name}\n\nReply with the single word: ready.\n"
    );
    let tree = Tree {
        items: vec![Item {
            rel: "SKILL.md".into(),
            bytes: Some(Arc::new(skill_md.into_bytes())),
            mode: 0o644,
        }],
        patches: Vec::new(),
    };
    let agent: &dyn Agent = a.agent.as_ref();
    let skills = [(agent.install_dir(name), &tree)];
    let ws = workspace::create(&Setup {
        fixtures: None,
        git: true,
        skills: &skills,
        git_timeout: git,
        keep: false,
    })
    .map_err(|e| unavailable(format!("the workspace could not be set up: {e}")))?;
    let home = super::exec::home_for(agent, "home", false).map_err(unavailable)?;
    let call = agent.executor(
        &Paths {
            cwd: ws.path(),
            home: home.path(),
        },
        None,
    );
    workspace::write_files(home.path(), &call.files).map_err(|e| unavailable(e.to_string()))?;
    let prompt = format!("Load the skill `{name}` now and follow its instructions.");
    let cwd = ws.path().to_path_buf();
    let watch = |b: &[u8]| decide::decided(&agent.parse(b, &cwd), agent, CANARY_TURNS).is_some();
    let out = process::run_watched(
        &super::exec::spec(
            agent,
            &call,
            ws.path(),
            prompt.as_bytes(),
            (a.exec_timeout, a.max_trace),
            grace,
        ),
        Some(&watch),
    );
    let trace = agent.parse(&out.stdout, ws.path());
    drop((ws, home));
    if let Some(s) = agent.fatal(&trace, &out.stderr) {
        return Err(Fatal::new(Exit::Unavailable, s.message).with_help(s.help));
    }
    let loaded = trace
        .loads
        .iter()
        .any(|l| agent.answers_to(name, Some(name), &l.name));
    let what = if !trace.loads.is_empty() {
        format!("loads of {} only", trace.skills().join(", "))
    } else if !trace.failed_loads.is_empty() {
        format!("a refused load of {}", trace.failed_loads.join(", "))
    } else if let Some(f) = out.failure("the agent", a.exec_timeout, (a.max_trace, a.max_trace)) {
        format!("no load ({f})")
    } else {
        format!(
            "no load in {} and {}",
            crate::base::plural::count(decide::turns(&trace) as usize, "turn"),
            crate::base::plural::count(
                trace.tool_counts().values().sum::<u64>() as usize,
                "tool call"
            )
        )
    };
    Ok(Seen {
        loaded,
        what,
        model: trace.model,
    })
}
