//! The agent interface: everything Tier 3 needs to know about one headless
//! agent CLI, one file per client: [`claude`] (Claude Code), [`codex`]
//! (Codex CLI), [`gemini`] (Gemini CLI), [`opencode`] (opencode).
//!
//! Tier 3 runs an agent the same way whatever the client: a fresh
//! workspace (a git repository with the cwd at its root, so no client walks
//! up out of it looking for project skills), a fresh *run home* (a temporary
//! folder for the client's own configuration, so nothing personal — skills,
//! plugins, settings, hooks, MCP servers, memory files — reaches a run), the
//! prompt on stdin, a time limit and an output cap. What differs per client
//! is behind [`Agent`]:
//!
//! - how it is started headless: its arguments, the variables set in and
//!   removed from its environment, and the files written into the run home
//!   ([`Agent::executor`], [`Agent::grader`], both returning a [`Call`]);
//! - where a `with` run installs the skill so the client discovers it
//!   natively ([`Agent::install_dir`]), and where else a copy of the skill
//!   would be seen by every run ([`Agent::project_skill_dirs`] inside the
//!   workspace, [`Agent::shared_skill_roots`] outside it) under which names
//!   ([`Agent::answers_to`]): the personal-copy guard ([`copies_of`]);
//! - how its event stream becomes the common [`Trace`]: tool calls, skill
//!   loads that **succeeded** (a load the client refused is kept apart in
//!   [`Trace::failed_loads`]), the final answer, usage and cost, errors, the
//!   tool list, permission denials ([`Agent::parse`]);
//! - a condition in a finished run that makes every further run pointless,
//!   e.g. the client is not logged in ([`Agent::fatal`]);
//! - what to check before the first run ([`Agent::preflight`]): the
//!   installed version, and that this version honours every safety setting
//!   the client is started with (a setting that cannot be guaranteed is
//!   refused, never skipped).
//!
//! The grader is the same client called with no tools at all; its reply is
//! read from the same trace ([`Final::text`]).
//!
//! `--runner` replaces all of this with any harness (see `runner.rs`).

pub mod claude;
pub mod codex;
pub mod gemini;
pub mod opencode;

use crate::config::BehaveConfig;
use crate::exit::Fatal;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::base::AgentKind;

/// The agent `[behave]` configures for this client.
pub fn build(kind: AgentKind, c: &BehaveConfig) -> Result<Box<dyn Agent>, Fatal> {
    Ok(match kind {
        AgentKind::Claude => Box::new(claude::Claude::new(c)?),
        AgentKind::Codex => Box::new(codex::Codex::new(&c.codex)?),
        AgentKind::Gemini => Box::new(gemini::Gemini::new(&c.gemini)?),
        AgentKind::Opencode => Box::new(opencode::Opencode::new(&c.opencode)?),
    })
}

/// One step of the conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Text from the assistant or the user side.
    Text { role: Role, text: String },
    /// A tool call.
    ToolUse { name: String, input: Value },
    /// A tool's answer.
    ToolResult { text: String, is_error: bool },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Assistant,
    User,
}

/// A skill load the client carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Load {
    /// The name the agent asked for (`plugin:name` for plugin skills).
    pub name: String,
    /// The folder the client loaded it from, when the stream says.
    pub dir: Option<String>,
}

/// A tool call the client's permission system refused.
#[derive(Debug, Clone, PartialEq)]
pub struct Denial {
    /// The tool's name.
    pub tool: String,
    /// What the call asked for, as the client reports it.
    pub input: Value,
}

/// How the run ended (Claude Code's `result` line, or its equivalent).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Final {
    pub is_error: bool,
    /// The client's own word for how it ended (`success`, `error_max_turns`…).
    pub subtype: String,
    /// The final answer.
    pub text: String,
    pub cost_usd: Option<f64>,
    /// Every input token, cached ones included (each client's counts are
    /// normalised to this).
    pub input_tokens: u64,
    /// How many of `input_tokens` were read from the provider's cache.
    pub cached_input_tokens: u64,
    /// Output tokens, reasoning included.
    pub output_tokens: u64,
    pub num_turns: Option<u64>,
    pub duration_ms: Option<u64>,
    /// Tool calls the permission system refused.
    pub permission_denials: usize,
}

impl Final {
    pub fn total_tokens(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

/// Everything read from one run's stream, whatever the client.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    /// The tools the client offered the model, when it said.
    pub tools: Option<Vec<String>>,
    /// MCP servers the client started.
    pub mcp_servers: Vec<String>,
    pub model: Option<String>,
    /// The skills the client announced at start, when it did (a hint of
    /// its listing, not necessarily the model's view).
    pub listing: Option<Vec<String>>,
    /// Skills loaded successfully, first-seen order, no repeats.
    pub loads: Vec<Load>,
    /// Skill loads the client refused (an unknown name, a denial), in order,
    /// no repeats: never counted as loads.
    pub failed_loads: Vec<String>,
    pub events: Vec<Event>,
    /// How the run ended; `None` when it did not finish.
    pub result: Option<Final>,
    /// The usage the stream reported turn by turn, summed, for a client
    /// whose end-of-run counts are missing when the run is stopped before
    /// its end (Claude Code's per-message `usage`).
    pub streamed: Option<Final>,
    /// Tool calls the permission system refused, in order (Claude Code:
    /// the `result` line's `permission_denials`).
    pub denials: Vec<Denial>,
    /// Non-empty lines read.
    pub lines: usize,
    /// Lines that were not JSON objects (skipped).
    pub skipped_lines: usize,
}

impl Trace {
    /// The names of the skills loaded.
    pub fn skills(&self) -> Vec<String> {
        self.loads.iter().map(|l| l.name.clone()).collect()
    }

    /// Tool calls per tool name, sorted by name.
    pub fn tool_counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for e in &self.events {
            if let Event::ToolUse { name, .. } = e {
                *m.entry(name.clone()).or_insert(0) += 1;
            }
        }
        m
    }

    /// Offered tools that belong to an MCP server (`mcp__…`).
    pub fn mcp_tools(&self) -> Vec<String> {
        self.tools
            .iter()
            .flatten()
            .filter(|t| t.starts_with("mcp__"))
            .cloned()
            .collect()
    }

    /// Offered MCP tools that may write: every one whose name does not
    /// start with a read-only verb ([`read_only_tool`]). A tool list does
    /// not say what a tool does, so an unknown verb counts as writing.
    pub fn write_capable_mcp_tools(&self) -> Vec<String> {
        self.mcp_tools()
            .into_iter()
            .filter(|t| !read_only_tool(t))
            .collect()
    }
}

/// Verbs that name a tool which only reads.
const READ_VERBS: &[&str] = &[
    "get", "list", "read", "search", "find", "fetch", "query", "describe", "show", "view",
    "lookup", "count", "inspect", "status", "browse", "retrieve", "explain",
];

/// Whether an MCP tool (`mcp__<server>__<tool>`) is named as read-only:
/// its first word (split at `_`, `-`, `.` and lower-to-upper case
/// changes) is a read verb (`get_issue`, `listFiles`, `search`).
pub fn read_only_tool(name: &str) -> bool {
    let tool = name
        .strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__").map(|(_, t)| t))
        .unwrap_or(name);
    let mut word = String::new();
    let mut prev_lower = false;
    for c in tool.chars() {
        if matches!(c, '_' | '-' | '.' | ' ') || (c.is_uppercase() && prev_lower) {
            break;
        }
        prev_lower = c.is_lowercase();
        word.push(c.to_ascii_lowercase());
    }
    READ_VERBS.contains(&word.as_str())
}

/// The folders of one call.
#[derive(Debug, Clone, Copy)]
pub struct Paths<'a> {
    /// The working folder (the run's workspace, or the grader's folder).
    pub cwd: &'a Path,
    /// The fresh run home.
    pub home: &'a Path,
}

/// How one process is started (the program is [`Agent::program`]; the
/// prompt goes to its stdin).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Call {
    pub args: Vec<String>,
    /// Variables set in the child's environment.
    pub env: Vec<(String, String)>,
    /// Variables removed from the inherited environment.
    pub env_remove: Vec<String>,
    /// Files written into the run home before the call, by relative path.
    pub files: Vec<(String, Vec<u8>)>,
}

/// A fatal condition read from a run: stop every further run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    pub message: String,
    pub help: String,
}

/// What [`Agent::preflight`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preflight {
    /// The client's version, as `--version` printed it (`None`: it did
    /// not say).
    pub version: Option<String>,
}

/// One headless agent client.
pub trait Agent: Send + Sync + std::fmt::Debug {
    /// The agent's id in `plan.json` (`claude`).
    fn kind(&self) -> &'static str;
    /// Its name for people (`Claude Code`).
    fn product(&self) -> &'static str;
    /// The program started for every call.
    fn program(&self) -> &str;
    /// Replace the program by its resolved path.
    fn set_program(&mut self, program: String);
    /// The skill under test (a client that switches its bundled skills off
    /// by name keeps one named like it).
    fn set_skill(&mut self, _skill: &str) {}
    /// Where a `with` run installs the skill, relative to the workspace:
    /// the shared `.agents/skills/` unless the client reads its own folder.
    fn install_dir(&self, skill: &str) -> PathBuf {
        std::path::Path::new(".agents").join("skills").join(skill)
    }
    /// Folders, relative to any folder of the workspace, whose subfolders
    /// the client reads as project skills.
    fn project_skill_dirs(&self) -> &'static [&'static str];
    /// Skill folders outside the workspace and the run home that every run
    /// reads (e.g. an administrator's managed skills). Their subfolders are
    /// skills.
    fn shared_skill_roots(&self) -> Vec<PathBuf>;
    /// Whether the skill in `folder` whose frontmatter `name` is `name`
    /// is loaded when the model asks for `wanted`.
    fn answers_to(&self, folder: &str, name: Option<&str>, wanted: &str) -> bool;
    /// The call of a run; `append` is the skill's text to put in the system
    /// prompt (install mode `append-system-prompt`, `with` runs).
    fn executor(&self, paths: &Paths, append: Option<&str>) -> Call;
    /// The grader's call: the same client with no tools at all.
    fn grader(&self, paths: &Paths) -> Call;
    /// Read a call's standard output; `cwd` is the folder it ran in (paths
    /// in the stream are relative to it).
    fn parse(&self, stdout: &[u8], cwd: &Path) -> Trace;
    /// A condition in a finished run (its stream and standard error) that
    /// every further run would meet too.
    fn fatal(&self, trace: &Trace, stderr: &[u8]) -> Option<Stop>;
    /// What the environment rules of [`Agent::executor`] do, for `--dry-run`
    /// and `plan.json`: each set variable with its value (`<run-home>`
    /// standing for the run home), and the removal rule in words.
    fn environment_doc(&self) -> (BTreeMap<String, String>, String);
    /// The client version skillsift's settings and stream reading were
    /// checked against.
    fn tested_version(&self) -> &'static str;
    /// What the client's model requests carry besides the case, as measured
    /// on [`Agent::tested_version`] (the dry run's token estimate).
    fn request_size(&self) -> RequestSize;
    /// Check the installed client before the first run: its version, and
    /// that it honours every setting the runs rely on. A client that cannot
    /// guarantee one is refused with why (exit 4).
    fn preflight(&self) -> Result<Preflight, Stop> {
        Ok(Preflight {
            version: version_of(self.program(), &["--version"]).ok(),
        })
    }
    /// Run homes go outside the system temporary folder (a client that
    /// refuses to put its helpers there).
    fn home_outside_tmp(&self) -> bool {
        false
    }
    /// The tools the configuration lets the client offer, recorded per run
    /// when the stream does not list them.
    fn tools(&self) -> Option<Vec<String>> {
        None
    }
    /// How many folder levels below a skills root the client finds a
    /// `SKILL.md` (1: `<root>/<folder>/SKILL.md` only).
    fn skill_depth(&self) -> usize {
        1
    }
    /// What the configuration lets the agent do that a user should know
    /// before a run (printed as warnings, with the plan too).
    fn cautions(&self) -> Vec<String> {
        Vec::new()
    }
    /// Whether install mode `append-system-prompt` is possible.
    fn supports_append(&self) -> bool {
        false
    }
    /// The tools (as [`Trace::events`] names them) whose call writes or
    /// edits a file: a trigger run that calls one before any load is
    /// decided as not loaded (`behave::decide`).
    fn edit_tools(&self) -> &'static [&'static str];
}

/// What a client sends the model besides the case, in bytes of the
/// request body as compact JSON (system prompt, tool definitions and their
/// schemas, the context blocks the client adds to the conversation),
/// measured against the loopback endpoint on the tested version with the
/// settings skillsift gives it. Each real client's conformance test holds
/// the dry run's estimate built from these within a quarter of what the
/// client sent (`tests/scripted`, `assert_input_estimate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestSize {
    /// The first request of a run that lists no skill, its prompt empty.
    pub agent: usize,
    /// What the client adds once it lists a skill (its instructions about
    /// skills), beyond each skill's name and description.
    pub skills_section: usize,
    /// A grading request without its prompt (the transcript and the
    /// expectations, which only the run decides).
    pub grader: usize,
}

/// The first line of `stderr`, or else the run's result text, that names
/// one of `needles` (trimmed): what a client printed when it stopped for a
/// reason no run can get past (credentials, a refused setting).
pub fn line_naming(trace: &Trace, stderr: &[u8], needles: &[&str]) -> Option<String> {
    let err = String::from_utf8_lossy(stderr);
    let text = trace.result.as_ref().map(|r| r.text.as_str()).unwrap_or("");
    let hit = needles
        .iter()
        .find(|n| err.contains(*n) || text.contains(*n))?;
    let line = err
        .lines()
        .chain(std::iter::once(text))
        .find(|l| l.contains(hit))
        .unwrap_or(hit);
    Some(line.trim().to_string())
}

pub use crate::process::version_of;

/// `major.minor.patch` of a version string (missing parts are 0).
pub fn version_triple(v: &str) -> Option<(u64, u64, u64)> {
    let mut it = v
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<u64>().ok());
    let a = it.next()??;
    let b = it.next().flatten().unwrap_or(0);
    let c = it.next().flatten().unwrap_or(0);
    Some((a, b, c))
}

/// The check every client but Claude Code makes before its first run: its
/// version must be at least `tested` (the settings it is started with were
/// verified on that version; an older one may silently ignore a safety
/// setting). `settings` names them for the message.
pub fn require_version(agent: &dyn Agent, settings: &str) -> Result<Preflight, Stop> {
    let tested = agent.tested_version();
    let version = version_of(agent.program(), &["--version"]).map_err(|e| Stop {
        message: format!(
            "{}: cannot tell its version ({e}), so skillsift cannot guarantee its safety settings ({settings})",
            agent.product()
        ),
        help: format!(
            "install {} {tested} or newer, or name it by path in skillsift.toml",
            agent.product()
        ),
    })?;
    match (version_triple(&version), version_triple(tested)) {
        (Some(have), Some(want)) if have >= want => Ok(Preflight {
            version: Some(version),
        }),
        _ => Err(Stop {
            message: format!(
                "{} {version} is older than {tested}, the version whose handling of skillsift's safety settings ({settings}) was verified; an older client may ignore one of them",
                agent.product()
            ),
            help: format!(
                "upgrade {} to {tested} or newer, or evaluate with another client (--agent)",
                agent.product()
            ),
        }),
    }
}

/// A copy of the tested skill that a run would see.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Copy {
    /// Its SKILL.md, as shown to the user.
    pub path: String,
    /// Why it answers to the tested name.
    pub why: String,
}

/// Subfolders looked at in one shared root.
const MAX_ROOT_ENTRIES: usize = 10_000;
/// Largest SKILL.md read for its name.
const MAX_SKILL_MD: u64 = 1024 * 1024;

fn why(agent: &dyn Agent, folder: &str, name: Option<&str>, wanted: &str) -> Option<String> {
    if !agent.answers_to(folder, name, wanted) {
        return None;
    }
    Some(match name {
        Some(n) if n == wanted && folder != wanted => {
            format!("its frontmatter `name` is `{wanted}` (folder `{folder}`)")
        }
        _ => format!("its folder is named `{folder}`"),
    })
}

/// The `SKILL.md` files under `root`, at most `depth` folder levels down
/// (`<root>/<a>/SKILL.md` is depth 1), with the name of the folder holding
/// each; folders whose name starts with a dot are skipped, and at most
/// [`MAX_ROOT_ENTRIES`] entries are looked at.
fn skill_files(root: &Path, depth: usize) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut queue = vec![(root.to_path_buf(), 0usize)];
    let mut seen = 0usize;
    while let Some((dir, d)) = queue.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            seen += 1;
            if seen > MAX_ROOT_ENTRIES {
                return out;
            }
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || !e.path().is_dir() {
                continue;
            }
            let md = e.path().join("SKILL.md");
            if md.is_file() {
                out.push((name.clone(), md));
            }
            if d + 1 < depth {
                queue.push((e.path(), d + 1));
            }
        }
    }
    out.sort();
    out
}

/// Every copy of `skill` a run of `agent` would see besides the one a
/// `with` run installs: in the shared roots, and in the fixture files that
/// execution evals copy into their workspaces (`fixtures`: each eval's
/// files as `(relative path, bytes)`, shown under `shown_prefix`).
pub fn copies_of<'a>(
    agent: &dyn Agent,
    skill: &str,
    fixtures: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    shown_prefix: &str,
) -> Vec<Copy> {
    let mut found = Vec::new();
    for root in agent.shared_skill_roots() {
        for (folder, p) in skill_files(&root, agent.skill_depth()) {
            let Ok(Some(bytes)) = crate::catalog::read_bounded(&p, MAX_SKILL_MD) else {
                continue;
            };
            let name = crate::score::skill::frontmatter_name(&bytes);
            if let Some(why) = why(agent, &folder, name.as_deref(), skill) {
                found.push(Copy {
                    path: p.display().to_string(),
                    why,
                });
            }
        }
    }
    for (rel, bytes) in fixtures {
        let Some(folder) = project_skill_folder(agent, rel) else {
            continue;
        };
        let name = crate::score::skill::frontmatter_name(bytes);
        if let Some(why) = why(agent, folder, name.as_deref(), skill) {
            found.push(Copy {
                path: format!("{shown_prefix}{rel}"),
                why,
            });
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The skill folder's name when `rel` is `…/<dir>/…/<folder>/SKILL.md`
/// for one of the agent's project skill folders, at most
/// [`Agent::skill_depth`] levels below it.
fn project_skill_folder<'r>(agent: &dyn Agent, rel: &'r str) -> Option<&'r str> {
    let parent = rel.strip_suffix("/SKILL.md")?;
    let folder = parent.rsplit('/').next()?;
    let parts: Vec<&str> = parent.split('/').collect();
    for d in agent.project_skill_dirs() {
        let dparts: Vec<&str> = d.split('/').collect();
        for start in 0..parts.len() {
            if parts[start..].starts_with(&dparts) {
                let below = parts.len() - start - dparts.len();
                if below >= 1 && below <= agent.skill_depth() {
                    return Some(folder);
                }
            }
        }
    }
    None
}

/// A copy of the tested skill that a finished run showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreign {
    /// What the run did with it (`loaded \`x\``, `listed \`x\``).
    pub what: String,
    /// The folder it was loaded from, when the client said.
    pub dir: Option<String>,
}

/// What a finished run shows of a copy of `skill` other than the one under
/// test: a load of it from another folder than `installed` (the copy a
/// `with` run installed), or, when nothing was installed, any load of it or
/// an entry for it in the client's listing. `None` when the run is clean.
pub fn foreign_copy(trace: &Trace, skill: &str, installed: Option<&Path>) -> Option<Foreign> {
    use crate::score::input::loads;
    for l in trace.loads.iter().filter(|l| loads(&l.name, skill)) {
        let foreign = match (installed, &l.dir) {
            (Some(want), Some(dir)) => Path::new(dir) != want,
            (Some(_), None) => false,
            (None, _) => true,
        };
        if foreign {
            return Some(Foreign {
                what: format!("loaded `{}`", l.name),
                dir: l.dir.clone(),
            });
        }
    }
    if installed.is_none()
        && let Some(e) = trace.listing.iter().flatten().find(|e| loads(e, skill))
    {
        return Some(Foreign {
            what: format!("listed `{e}` among its skills"),
            dir: None,
        });
    }
    None
}

/// Whether the variable `name` is in `families` (exact names, or prefixes
/// ending in `_`) and not in `keep`.
pub fn removed(name: &str, families: &[&str], keep: &[&str]) -> bool {
    families
        .iter()
        .any(|f| name == *f || (f.ends_with('_') && name.starts_with(f)))
        && !keep.contains(&name)
}

/// The variables of this process's environment that [`removed`] drops,
/// sorted.
pub fn inherited_to_remove(families: &[&str], keep: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| removed(k, families, keep))
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(loads: &[(&str, Option<&str>)], listing: &[&str]) -> Trace {
        Trace {
            loads: loads
                .iter()
                .map(|(n, d)| Load {
                    name: n.to_string(),
                    dir: d.map(str::to_string),
                })
                .collect(),
            listing: Some(listing.iter().map(|s| s.to_string()).collect()),
            ..Trace::default()
        }
    }

    #[test]
    fn a_foreign_copy_is_a_load_from_elsewhere_or_any_sign_of_it_when_none_is_installed() {
        let mine = Path::new("/ws/.claude/skills/s");
        let clean = trace(&[("s", Some("/ws/.claude/skills/s/"))], &["s"]);
        assert_eq!(foreign_copy(&clean, "s", Some(mine)), None);
        let other = trace(&[("s", Some("/home/u/.claude/skills/x"))], &["s", "x"]);
        let f = foreign_copy(&other, "s", Some(mine)).unwrap();
        assert_eq!(f.dir.as_deref(), Some("/home/u/.claude/skills/x"));
        assert!(foreign_copy(&other, "s", None).is_some());
        let listed = trace(&[], &["p:s"]);
        assert_eq!(
            foreign_copy(&listed, "s", None).unwrap().what,
            "listed `p:s` among its skills"
        );
        let unrelated = trace(&[("t", None)], &["t"]);
        assert_eq!(foreign_copy(&unrelated, "s", None), None);
    }

    #[test]
    fn mcp_tools_count_as_writing_unless_named_with_a_read_verb() {
        for ro in [
            "mcp__github__get_issue",
            "mcp__fs__listFiles",
            "mcp__docs__search",
            "mcp__db__query-rows",
        ] {
            assert!(read_only_tool(ro), "{ro}");
        }
        for rw in [
            "mcp__github__create_issue",
            "mcp__fs__write_file",
            "mcp__db__exec",
            "mcp__x__getaway",
            "mcp__odd",
        ] {
            assert!(!read_only_tool(rw), "{rw}");
        }
        let t = Trace {
            tools: Some(vec![
                "Bash".into(),
                "mcp__github__get_issue".into(),
                "mcp__github__merge_pull_request".into(),
            ]),
            ..Trace::default()
        };
        assert_eq!(
            t.write_capable_mcp_tools(),
            ["mcp__github__merge_pull_request"]
        );
    }

    #[test]
    fn families_match_prefixes_and_exact_names_but_keep_the_kept() {
        let fam = ["CLAUDECODE", "CLAUDE_", "ANTHROPIC_"];
        let keep = ["ANTHROPIC_API_KEY"];
        assert!(removed("CLAUDE_CONFIG_DIR", &fam, &keep));
        assert!(removed("CLAUDECODE", &fam, &keep));
        assert!(removed("ANTHROPIC_MODEL", &fam, &keep));
        assert!(!removed("ANTHROPIC_API_KEY", &fam, &keep));
        assert!(!removed("CLAUDECODEX", &fam, &keep));
        assert!(!removed("PATH", &fam, &keep));
    }
}
