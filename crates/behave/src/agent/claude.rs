//! Claude Code (`claude -p`), the built-in agent. Measured on 2.1.197; the
//! facts behind each choice are in `clients/claude-code.md` of the shared
//! notes, and `tests/real_claude_behave.rs` checks them against the
//! installed CLI.
//!
//! **Start.** `claude -p --verbose --output-format stream-json
//! --permission-mode acceptEdits --allowedTools <[behave] allowed-tools>
//! --disallowedTools "mcp__*" --strict-mcp-config --no-session-persistence`
//! (+ `--model`, + `--append-system-prompt <SKILL.md>` in `with` runs of
//! install mode `append-system-prompt`), prompt on stdin. Never a bypass
//! mode, never `--bare` (it skips skill discovery). The grader: `-p
//! --verbose --output-format stream-json --no-session-persistence --tools ""
//! --strict-mcp-config --disallowedTools "mcp__*"` (+ `--model`).
//!
//! **Isolation.** Claude Code reads every personal file — skills, plugins,
//! `settings.json` (hooks, `env`, permissions), `.claude.json` (MCP servers),
//! `CLAUDE.md` memory, credentials — from `CLAUDE_CONFIG_DIR`, else
//! `~/.claude`. Each call gets `CLAUDE_CONFIG_DIR=<run home>/.claude`, a
//! fresh folder holding only the `settings.json` written here. `HOME` is
//! left alone so the tools the agent runs (rustup, cargo, nvm, …) still find
//! themselves. The settings file excludes every `CLAUDE.md` of the folders
//! above the workspace (`claudeMdExcludes`): Claude Code reads those from
//! every ancestor up to `/`, so a `$TMPDIR` inside a project or under your
//! home would otherwise put its memory files in the prompt. Project skills
//! are read from the workspace up to its git root, and every workspace is a
//! git repository, so no ancestor's `.claude/skills` is seen.
//!
//! The environment loses `CLAUDECODE`, every `CLAUDE_*` and `ANTHROPIC_*`
//! variable except the credentials and provider settings in [`KEEP`], and
//! the few unprefixed settings in [`FAMILIES`] (so e.g. `CLAUDE_CODE_SIMPLE`, which skips skill discovery, or
//! `ANTHROPIC_MODEL`, which would change the model without `plan.json`
//! saying so, never reach a run), and gains
//! `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`: without it every call
//! sends a second request carrying the whole prompt (the grader's prompt
//! holds the trace) to title the session.
//!
//! **Stream.** One JSON object per line; unknown lines and fields are
//! skipped. Kept: the `system`/`init` line (tools, MCP servers, model, the
//! `skills` it announces), every message's text, tool calls and tool
//! results (nested sub-agent messages too), and the `result` line. A skill
//! load is a `Skill` tool_use (`input.skill`, or `input.command` in older
//! versions) **paired by id with a tool_result that is not an error**; the
//! CLI answers an unknown name with `is_error: true` (`Unknown skill: x`),
//! and that call loaded nothing. A call without any result (the run was
//! killed) loaded nothing either. The `Base directory for this skill:`
//! message that follows a load names the folder it came from.

use super::{Agent, Call, Event, Final, Load, Paths, Role, Stop, Trace};
use crate::behave::build::config_error;
use crate::config::BehaveConfig;
use crate::exit::Fatal;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Variables removed from the agent's environment: the `CLAUDE_` and
/// `ANTHROPIC_` families, `CLAUDECODE` (set inside a Claude Code session),
/// and Claude Code's documented settings outside those prefixes that change
/// what a run sees or does (the listing's budget, thinking, tool limits).
const FAMILIES: &[&str] = &[
    "CLAUDECODE",
    "CLAUDE_",
    "ANTHROPIC_",
    "SLASH_COMMAND_TOOL_CHAR_BUDGET",
    "MAX_THINKING_TOKENS",
    "BASH_DEFAULT_TIMEOUT_MS",
    "BASH_MAX_TIMEOUT_MS",
    "BASH_MAX_OUTPUT_LENGTH",
    "MAX_MCP_OUTPUT_TOKENS",
    "MCP_TIMEOUT",
    "MCP_TOOL_TIMEOUT",
];

/// Credentials, endpoints and cloud-provider switches: kept.
pub const KEEP: &[&str] = &[
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_CUSTOM_HEADERS",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_VERTEX_BASE_URL",
    "ANTHROPIC_VERTEX_PROJECT_ID",
    "ANTHROPIC_FOUNDRY_API_KEY",
    "ANTHROPIC_FOUNDRY_BASE_URL",
    "ANTHROPIC_FOUNDRY_RESOURCE",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "CLAUDE_CODE_USE_FOUNDRY",
    "CLAUDE_CODE_SKIP_BEDROCK_AUTH",
    "CLAUDE_CODE_SKIP_VERTEX_AUTH",
    "CLAUDE_CODE_SKIP_FOUNDRY_AUTH",
    "CLAUDE_CODE_CLIENT_CERT",
    "CLAUDE_CODE_CLIENT_KEY",
    "CLAUDE_CODE_CLIENT_KEY_PASSPHRASE",
];

/// The configuration folder inside the run home.
const CONFIG_DIR: &str = ".claude";

/// Claude Code, configured from `[behave]`.
#[derive(Debug, Clone)]
pub struct Claude {
    program: String,
    allowed_tools: Vec<String>,
    model: Option<String>,
    grader_model: Option<String>,
}

impl Claude {
    /// The agent `[behave]` describes; values that would reach its command
    /// line as something else than what they say are refused.
    pub fn new(c: &BehaveConfig) -> Result<Claude, Fatal> {
        if c.claude.trim().is_empty() {
            return Err(config_error("claude", "is empty"));
        }
        for (key, v) in [("model", &c.model), ("grader-model", &c.grader_model)] {
            if let Some(m) = v
                && (m.trim().is_empty() || m.starts_with('-'))
            {
                return Err(config_error(key, format!("`{m}` is not a model name")));
            }
        }
        if c.allowed_tools.is_empty() {
            return Err(config_error("allowed-tools", "is empty").with_help(
                "list the tools the agent may use, e.g. [\"Read\", \"Edit\", \"Bash\", \"Skill\"]",
            ));
        }
        for t in &c.allowed_tools {
            if t.trim().is_empty() || t.starts_with('-') || t.contains(',') {
                return Err(config_error(
                    "allowed-tools",
                    format!("`{t}` is not a tool name (no commas, no leading `-`)"),
                ));
            }
            if t.starts_with("mcp__") {
                return Err(config_error(
                    "allowed-tools",
                    format!("`{t}`: MCP tools are always disallowed in Tier 3 runs"),
                ));
            }
        }
        Ok(Claude {
            program: c.claude.clone(),
            allowed_tools: c.allowed_tools.clone(),
            model: c.model.clone(),
            grader_model: c.grader_model.clone(),
        })
    }

    /// The variables set for every call.
    fn env(home: &Path) -> Vec<(String, String)> {
        vec![
            (
                "CLAUDE_CONFIG_DIR".into(),
                home.join(CONFIG_DIR).display().to_string(),
            ),
            (
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC".into(),
                "1".into(),
            ),
        ]
    }

    fn call(&self, args: Vec<String>, paths: &Paths) -> Call {
        Call {
            args,
            env: Self::env(paths.home),
            env_remove: super::inherited_to_remove(FAMILIES, KEEP),
            files: vec![(
                format!("{CONFIG_DIR}/settings.json"),
                settings(paths.cwd).into_bytes(),
            )],
        }
    }
}

fn strings(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// The run home's `settings.json`: every memory file above `cwd` excluded.
pub fn settings(cwd: &Path) -> String {
    let mut excludes = Vec::new();
    for a in cwd.ancestors().skip(1) {
        let base = glob_escape(&a.display().to_string());
        let base = base.trim_end_matches('/');
        for f in ["CLAUDE.md", "CLAUDE.local.md", ".claude/**"] {
            excludes.push(format!("{base}/{f}"));
        }
    }
    let doc = serde_json::json!({ "claudeMdExcludes": excludes });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// `s` with picomatch's special characters escaped.
fn glob_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\*?[]{}()!+@".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

impl Agent for Claude {
    fn edit_tools(&self) -> &'static [&'static str] {
        &["Write", "Edit", "MultiEdit", "NotebookEdit"]
    }

    fn kind(&self) -> &'static str {
        "claude"
    }

    fn cautions(&self) -> Vec<String> {
        self.allowed_tools
            .iter()
            .filter(|t| unscoped_bash(t))
            .map(|t| format!(
                "[behave] allowed-tools holds `{t}`: Claude Code runs every shell command the agent writes without asking, with your permissions, outside the workspace too; scope it to the commands the evals need, e.g. \"Bash(npm test:*)\", or run skillsift in a container"
            ))
            .collect()
    }

    fn product(&self) -> &'static str {
        "Claude Code"
    }

    fn program(&self) -> &str {
        &self.program
    }

    fn set_program(&mut self, program: String) {
        self.program = program;
    }

    fn install_dir(&self, skill: &str) -> PathBuf {
        Path::new(".claude").join("skills").join(skill)
    }

    fn project_skill_dirs(&self) -> &'static [&'static str] {
        &[".claude/skills"]
    }

    fn shared_skill_roots(&self) -> Vec<PathBuf> {
        // The managed (policy) folder every session reads.
        let managed = if cfg!(target_os = "macos") {
            "/Library/Application Support/ClaudeCode"
        } else {
            "/etc/claude-code"
        };
        vec![Path::new(managed).join(".claude").join("skills")]
    }

    /// `Skill("x")` loads the first skill whose folder **or** frontmatter
    /// `name` is `x`.
    fn answers_to(&self, folder: &str, name: Option<&str>, wanted: &str) -> bool {
        folder == wanted || name == Some(wanted)
    }

    fn executor(&self, paths: &Paths, append: Option<&str>) -> Call {
        let mut a = strings(&[
            "-p",
            "--verbose",
            "--output-format",
            "stream-json",
            "--permission-mode",
            "acceptEdits",
            "--allowedTools",
        ]);
        a.push(self.allowed_tools.join(","));
        a.extend(strings(&[
            "--disallowedTools",
            "mcp__*",
            "--strict-mcp-config",
            "--no-session-persistence",
        ]));
        if let Some(m) = &self.model {
            a.push("--model".into());
            a.push(m.clone());
        }
        if let Some(text) = append {
            a.push("--append-system-prompt".into());
            a.push(text.to_string());
        }
        self.call(a, paths)
    }

    fn grader(&self, paths: &Paths) -> Call {
        let mut a = strings(&[
            "-p",
            "--verbose",
            "--output-format",
            "stream-json",
            "--no-session-persistence",
            "--tools",
            "",
            "--strict-mcp-config",
            "--disallowedTools",
            "mcp__*",
        ]);
        if let Some(m) = self.grader_model.as_ref().or(self.model.as_ref()) {
            a.push("--model".into());
            a.push(m.clone());
        }
        self.call(a, paths)
    }

    fn parse(&self, stdout: &[u8], _cwd: &Path) -> Trace {
        parse(stdout)
    }

    fn tested_version(&self) -> &'static str {
        crate::client::claude_code::TESTED_VERSION
    }

    fn request_size(&self) -> super::RequestSize {
        // measured on 2.1.197 (tests/real_claude_behave.rs)
        super::RequestSize {
            agent: 80_718,
            skills_section: 0,
            grader: 8_570,
        }
    }

    fn supports_append(&self) -> bool {
        true
    }

    fn fatal(&self, trace: &Trace, _stderr: &[u8]) -> Option<Stop> {
        let r = trace.result.as_ref()?;
        (r.is_error && r.text.contains("/login")).then(|| Stop {
            message: format!("Claude Code is not logged in: {}", r.text.trim()),
            help: "every run gets a fresh CLAUDE_CONFIG_DIR, so a `claude login` session is not used: set ANTHROPIC_API_KEY, or run `claude setup-token` and set CLAUDE_CODE_OAUTH_TOKEN".into(),
        })
    }

    fn environment_doc(&self) -> (BTreeMap<String, String>, String) {
        let set = Self::env(Path::new("<run-home>")).into_iter().collect();
        (
            set,
            format!(
                "removed: {}; kept: {}",
                FAMILIES
                    .iter()
                    .map(|f| if f.ends_with('_') {
                        format!("{f}*")
                    } else {
                        f.to_string()
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                KEEP.join(", ")
            ),
        )
    }
}

/// Parse a whole stream.
pub fn parse(bytes: &[u8]) -> Trace {
    let mut p = Parser::default();
    for raw in bytes.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        p.t.lines += 1;
        match serde_json::from_str::<Value>(line) {
            Ok(v @ Value::Object(_)) => p.event(&v),
            _ => p.t.skipped_lines += 1,
        }
    }
    p.t
}

#[derive(Default)]
struct Parser {
    t: Trace,
    /// `Skill` calls waiting for their result: id → requested name.
    pending: BTreeMap<String, String>,
    /// The load a `Base directory` message describes.
    last_load: Option<usize>,
    /// Assistant messages whose usage is counted (one message spans
    /// several lines, each repeating its usage).
    counted: std::collections::BTreeSet<String>,
}

/// Deepest nesting searched for tool calls and results.
const MAX_DEPTH: usize = 64;
/// What the CLI says right after a skill loaded.
const BASE_DIR: &str = "Base directory for this skill: ";

impl Parser {
    fn event(&mut self, v: &Value) {
        self.skill_calls(v, 0);
        match v.get("type").and_then(Value::as_str) {
            Some("system") if v.get("subtype").and_then(Value::as_str) == Some("init") => {
                let names = |key: &str| {
                    v.get(key).and_then(Value::as_array).map(|a| {
                        a.iter()
                            .filter_map(|s| {
                                s.as_str()
                                    .or_else(|| s.get("name").and_then(Value::as_str))
                                    .map(str::to_string)
                            })
                            .collect::<Vec<_>>()
                    })
                };
                self.t.tools = names("tools");
                self.t.mcp_servers = names("mcp_servers").unwrap_or_default();
                self.t.listing = names("skills");
                self.t.model = v.get("model").and_then(Value::as_str).map(str::to_string);
            }
            Some("assistant") => {
                self.usage(v);
                self.message(v, Role::Assistant)
            }
            Some("user") => self.message(v, Role::User),
            Some("result") => {
                self.t.denials = denials(v);
                self.t.result = Some(result(v));
            }
            _ => {}
        }
    }

    /// Add an assistant message's `usage` to [`Trace::streamed`], once per
    /// message id.
    fn usage(&mut self, v: &Value) {
        let m = &v["message"];
        let (Some(id), Some(u)) = (m["id"].as_str(), m.get("usage")) else {
            return;
        };
        if self.counted.len() >= 100_000 || !self.counted.insert(id.to_string()) {
            return;
        }
        let r = result(&serde_json::json!({ "usage": u }));
        let s = self.t.streamed.get_or_insert_with(Final::default);
        s.input_tokens = s.input_tokens.saturating_add(r.input_tokens);
        s.cached_input_tokens = s.cached_input_tokens.saturating_add(r.cached_input_tokens);
        s.output_tokens = s.output_tokens.saturating_add(r.output_tokens);
    }

    fn message(&mut self, v: &Value, role: Role) {
        let Some(content) = v.get("message").and_then(|m| m.get("content")) else {
            return;
        };
        match content {
            Value::String(s) => self.text(role, s),
            Value::Array(blocks) => {
                for b in blocks {
                    match b.get("type").and_then(Value::as_str) {
                        Some("text") => {
                            if let Some(s) = b.get("text").and_then(Value::as_str) {
                                self.text(role, s);
                            }
                        }
                        Some("tool_use") => self.t.events.push(Event::ToolUse {
                            name: b
                                .get("name")
                                .and_then(Value::as_str)
                                .unwrap_or("?")
                                .to_string(),
                            input: b.get("input").cloned().unwrap_or(Value::Null),
                        }),
                        Some("tool_result") => {
                            let text = tool_result_text(b.get("content"));
                            self.t.events.push(Event::ToolResult {
                                is_error: is_error(b, &text),
                                text,
                            });
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    fn text(&mut self, role: Role, s: &str) {
        if role == Role::User
            && let Some(rest) = s.trim_start().strip_prefix(BASE_DIR)
            && let Some(i) = self.last_load.take()
        {
            let dir = rest.lines().next().unwrap_or("").trim();
            if !dir.is_empty() && self.t.loads[i].dir.is_none() {
                self.t.loads[i].dir = Some(dir.to_string());
            }
        }
        self.t.events.push(Event::Text {
            role,
            text: s.to_string(),
        });
    }

    /// Pair `Skill` tool_use blocks with their tool_result blocks at any
    /// depth (sub-agent messages nest them).
    fn skill_calls(&mut self, v: &Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match v {
            Value::Object(m) => {
                match m.get("type").and_then(Value::as_str) {
                    Some("tool_use") if m.get("name").and_then(Value::as_str) == Some("Skill") => {
                        if let (Some(id), Some(name)) = (
                            m.get("id").and_then(Value::as_str),
                            m.get("input").and_then(skill_input_name),
                        ) {
                            self.pending.insert(id.to_string(), name.to_string());
                        }
                    }
                    Some("tool_result") => {
                        let id = m.get("tool_use_id").and_then(Value::as_str).unwrap_or("");
                        if let Some(name) = self.pending.remove(id) {
                            let text = tool_result_text(m.get("content"));
                            if is_error(v, &text) {
                                if !self.t.failed_loads.contains(&name) {
                                    self.t.failed_loads.push(name);
                                }
                            } else {
                                let i = match self.t.loads.iter().position(|l| l.name == name) {
                                    Some(i) => i,
                                    None => {
                                        self.t.loads.push(Load { name, dir: None });
                                        self.t.loads.len() - 1
                                    }
                                };
                                self.last_load = Some(i);
                            }
                        }
                    }
                    _ => {}
                }
                for x in m.values() {
                    self.skill_calls(x, depth + 1);
                }
            }
            Value::Array(a) => {
                for x in a {
                    self.skill_calls(x, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// A tool result is an error when it says so, or when its text is the
/// CLI's error wrapper.
fn is_error(block: &Value, text: &str) -> bool {
    block.get("is_error").and_then(Value::as_bool) == Some(true)
        || text.trim_start().starts_with("<tool_use_error>")
}

fn result(v: &Value) -> Final {
    let usage = v.get("usage");
    let n = |k: &str| {
        usage
            .and_then(|u| u.get(k))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Final {
        is_error: v.get("is_error").and_then(Value::as_bool).unwrap_or(false),
        subtype: v
            .get("subtype")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        text: v
            .get("result")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        cost_usd: v
            .get("total_cost_usd")
            .and_then(Value::as_f64)
            .filter(|c| c.is_finite()),
        // counts come from the agent's output: a hostile or broken stream
        // must not overflow them
        input_tokens: n("input_tokens")
            .saturating_add(n("cache_creation_input_tokens"))
            .saturating_add(n("cache_read_input_tokens")),
        cached_input_tokens: n("cache_read_input_tokens"),
        output_tokens: n("output_tokens"),
        num_turns: v.get("num_turns").and_then(Value::as_u64),
        duration_ms: v.get("duration_ms").and_then(Value::as_u64),
        permission_denials: v
            .get("permission_denials")
            .and_then(Value::as_array)
            .map_or(0, Vec::len),
    }
}

/// The `result` line's `permission_denials`: `{"tool_name", "tool_use_id",
/// "tool_input"}` each (measured on 2.1.197).
fn denials(v: &Value) -> Vec<super::Denial> {
    v.get("permission_denials")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|d| super::Denial {
                    tool: d
                        .get("tool_name")
                        .and_then(Value::as_str)
                        .unwrap_or("?")
                        .to_string(),
                    input: d.get("tool_input").cloned().unwrap_or(Value::Null),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A tool result's content: a string, or blocks whose text parts are joined.
fn tool_result_text(c: Option<&Value>) -> String {
    match c {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(other) if !other.is_null() => other.to_string(),
        _ => String::new(),
    }
}

/// The skill a `Skill` call names: `input.skill` (current), else
/// `input.command` (the key some earlier versions used).
fn skill_input_name(input: &Value) -> Option<&str> {
    ["skill", "command"]
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .map(|s| s.trim().trim_start_matches('/'))
        .filter(|s| !s.is_empty())
}

/// `Bash`, `Bash(*)` or `Bash(:*)`: every command allowed.
fn unscoped_bash(tool: &str) -> bool {
    let t = tool.trim();
    t == "Bash" || t == "Bash(*)" || t == "Bash(:*)"
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUN: &str = r#"{"type":"system","subtype":"hook_started","hook_name":"SessionStart:startup"}
{"type":"system","subtype":"init","cwd":"/tmp/ws","tools":["Task","Bash","Read","Skill"],"mcp_servers":[],"model":"claude-sonnet-5","skills":["debug","acme:test-driven-development"]}
{"type":"assistant","message":{"content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.js"}]}}
not json at all
{"type":"stream_event","event":{"type":"content_block_start","content_block":{"type":"tool_use","id":"t2","name":"Skill","input":{}}}}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"Skill","input":{"skill":"acme:test-driven-development"}}]},"parent_tool_use_id":"t0"}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2","content":"Launching skill: acme:test-driven-development"}]},"parent_tool_use_id":"t0"}
{"type":"user","message":{"content":[{"type":"text","text":"Base directory for this skill: /p/skills/tdd\n\n# TDD"}]}}
{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"}}
{"type":"result","subtype":"success","is_error":false,"num_turns":3,"result":"Done.","total_cost_usd":0.0123,"usage":{"input_tokens":150,"cache_creation_input_tokens":20,"cache_read_input_tokens":400,"output_tokens":25},"permission_denials":[{"tool_name":"Bash"}]}
"#;

    #[test]
    fn reads_init_skill_loads_and_result() {
        let t = parse(RUN.as_bytes());
        assert_eq!(
            t.tools.as_deref(),
            Some(&["Task", "Bash", "Read", "Skill"].map(String::from)[..])
        );
        assert_eq!(
            t.listing.as_deref(),
            Some(&["debug", "acme:test-driven-development"].map(String::from)[..])
        );
        assert_eq!(
            t.loads,
            [Load {
                name: "acme:test-driven-development".into(),
                dir: Some("/p/skills/tdd".into())
            }]
        );
        let r = t.result.clone().unwrap();
        assert_eq!(r.text, "Done.");
        assert_eq!(r.input_tokens, 570);
        assert_eq!(r.output_tokens, 25);
        assert_eq!(r.cost_usd, Some(0.0123));
        assert_eq!(r.permission_denials, 1);
        assert_eq!(t.denials[0].tool, "Bash");
        assert_eq!(t.skipped_lines, 1);
        assert_eq!(t.tool_counts().get("Bash"), Some(&1));
    }

    #[test]
    fn a_refused_or_unanswered_skill_call_is_not_a_load() {
        let s = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Skill","input":{"skill":"nope"}}]}}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","is_error":true,"content":"<tool_use_error>Unknown skill: nope</tool_use_error>"}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"b","name":"Skill","input":{"skill":"wrapped"}}]}}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"<tool_use_error>Unknown skill: wrapped</tool_use_error>"}]}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"c","name":"Skill","input":{"skill":"killed"}}]}}
"#;
        let t = parse(s.as_bytes());
        assert!(t.loads.is_empty(), "{:?}", t.loads);
        assert_eq!(t.failed_loads, ["nope", "wrapped"]);
    }

    #[test]
    fn a_stream_without_result_has_no_verdict() {
        let t = parse(b"{\"type\":\"assistant\",\"message\":{\"content\":[]}}\n");
        assert!(t.result.is_none());
    }

    #[test]
    fn token_counts_saturate_instead_of_overflowing() {
        let line = r#"{"type":"result","usage":{"input_tokens":18446744073709551615,"cache_read_input_tokens":5,"output_tokens":18446744073709551615}}"#;
        let r = parse(line.as_bytes()).result.unwrap();
        assert_eq!(r.input_tokens, u64::MAX);
        assert_eq!(r.total_tokens(), u64::MAX);
    }

    #[test]
    fn repeated_loads_are_listed_once() {
        let s = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"1","name":"Skill","input":{"skill":"a"}},{"type":"tool_use","id":"2","name":"Skill","input":{"skill":"a"}},{"type":"tool_use","id":"3","name":"Skill","input":{"command":"/b"}}]}}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"1","content":"ok"},{"type":"tool_result","tool_use_id":"2","content":"ok"},{"type":"tool_result","tool_use_id":"3","content":"ok"}]}}"#;
        assert_eq!(parse(s.as_bytes()).skills(), vec!["a", "b"]);
    }

    #[test]
    fn settings_exclude_the_memory_files_of_every_folder_above() {
        let s = settings(Path::new("/tmp/a[1]/ws"));
        let v: Value = serde_json::from_str(&s).unwrap();
        let ex: Vec<&str> = v["claudeMdExcludes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert_eq!(
            ex,
            [
                "/tmp/a\\[1\\]/CLAUDE.md",
                "/tmp/a\\[1\\]/CLAUDE.local.md",
                "/tmp/a\\[1\\]/.claude/**",
                "/tmp/CLAUDE.md",
                "/tmp/CLAUDE.local.md",
                "/tmp/.claude/**",
                "/CLAUDE.md",
                "/CLAUDE.local.md",
                "/.claude/**",
            ]
        );
    }

    #[test]
    fn not_logged_in_stops_everything() {
        let s = r#"{"type":"result","subtype":"success","is_error":true,"result":"Not logged in · Please run /login"}"#;
        let c = Claude::new(&BehaveConfig::default()).unwrap();
        let stop = c.fatal(&parse(s.as_bytes()), b"").unwrap();
        assert!(stop.message.contains("not logged in"), "{}", stop.message);
        assert!(stop.help.contains("CLAUDE_CODE_OAUTH_TOKEN"));
        let ok =
            r#"{"type":"result","subtype":"error_max_turns","is_error":true,"result":"stopped"}"#;
        assert!(c.fatal(&parse(ok.as_bytes()), b"").is_none());
    }
}
