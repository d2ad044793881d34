//! Codex CLI (`codex exec`). Measured on codex-cli 0.171.0; the facts
//! behind each choice are in `clients/codex.md` of the shared notes, and
//! `tests/real_codex_behave.rs` checks them against the installed CLI.
//!
//! **Start.** `codex exec --json --ephemeral --strict-config
//! --skip-git-repo-check -s workspace-write` and `--config` settings
//! (below),
//! prompt on stdin (no prompt argument: `exec` then reads it from stdin).
//! `--strict-config` makes an unknown setting an error, so a version that
//! no longer knows one of them fails instead of running without it; the
//! preflight runs the exact command against a provider whose key is unset
//! to find that out before the first run. Never `--approve-for-me`, never a
//! `--dangerously-*` flag (`exec` never asks: a blocked command just
//! fails).
//!
//! **Safety.** `-s workspace-write` with
//! `sandbox_workspace_write.exclude_slash_tmp=true` and
//! `exclude_tmpdir_env_var=true` (the sandbox otherwise lets the agent
//! write to `/tmp` and `$TMPDIR`) and `network_access=false`;
//! `approval_policy="never"`; apps, plugins, remote plugins, sub-agents,
//! browser and computer use, image generation, tool suggestions, goals and
//! installing a skill's MCP dependencies off (`features.*=false`);
//! `web_search="disabled"`; analytics and update checks off; bundled
//! system skills off (`skills.bundled.enabled=false`). With
//! `[behave.codex] sandbox = "read-only"` the agent cannot write at all.
//! The grader runs `-s read-only` with the shell tool off too: Codex
//! cannot run without any tool, and what is left (`apply_patch`, refused by
//! the read-only sandbox, `view_image`, `request_user_input`) can neither
//! write nor run anything.
//!
//! **Isolation.** `CODEX_HOME=<run home>/.codex`: configuration, MCP
//! servers, login, sessions, memories, rules and personal skills
//! (`$CODEX_HOME/skills`) live there, so none of yours reaches a run. The
//! run home is **not** in the system temporary folder: Codex refuses to
//! write its helper binaries under `/tmp`. `HOME` is left alone (so the
//! tools the agent runs still work), which leaves one personal folder Codex
//! reads in every run, `~/.agents/skills`: a copy of the skill there (by
//! its frontmatter `name`, else its folder) is refused before the first run
//! ([`Agent::shared_skill_roots`]), as is one in `/etc/codex/skills`. A
//! project's `.codex/config.toml` is ignored (the workspace is never
//! trusted). The environment loses every `CODEX_*` variable except
//! `CODEX_API_KEY`.
//!
//! **Stream.** One JSON object per line: `item.started` /
//! `item.completed` with `agent_message`, `reasoning`,
//! `command_execution` (`command`, `aggregated_output`, `exit_code`),
//! `file_change`, `mcp_tool_call`, `web_search`, `todo_list` items, then
//! `turn.completed` with the turn's usage (`input_tokens` includes
//! `cached_input_tokens`; `output_tokens` includes reasoning) or
//! `turn.failed`. A command the sandbox refused is not reported at all.
//!
//! **Loads.** Codex has no skill tool: a load is a completed
//! `command_execution` with exit code 0 that reads a `SKILL.md` (a reader
//! program — `cat`, `sed`, `head`, `tail`, `nl`, `awk`, `less`, `more`,
//! `bat`, `tac`, `view` — given the file's path, relative paths resolved
//! against the workspace and any `cd` before it), named by the frontmatter
//! `name` the output shows, else by its folder. The same read with another
//! exit code is a failed load.

use super::{Agent, Call, Event, Final, Load, Paths, Preflight, Role, Stop, Trace};
use crate::behave::build::config_error;
use crate::config::{CodexConfig, CodexSandbox};
use crate::exit::Fatal;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// The version whose settings and stream were checked.
pub const TESTED_VERSION: &str = "0.171.0";

/// Variables removed from the agent's environment.
const FAMILIES: &[&str] = &["CODEX_"];
/// Kept: the API key `codex exec` reads.
pub const KEEP: &[&str] = &["CODEX_API_KEY"];

/// The configuration folder inside the run home.
const CONFIG_DIR: &str = ".codex";

/// Features switched off in every call: everything that would reach beyond
/// the workspace and the model (apps and connectors, plugins, sub-agents
/// whose steps the stream does not show, a browser, the computer, image
/// generation, tool suggestions, goals, installing MCP servers a skill asks
/// for).
const FEATURES_OFF: &[&str] = &[
    "apps",
    "plugins",
    "remote_plugin",
    "multi_agent",
    "browser_use",
    "computer_use",
    "image_generation",
    "tool_suggest",
    "goals",
    "skill_mcp_dependency_install",
];

/// Programs whose reading of a `SKILL.md` counts as a load.
const READERS: &[&str] = &[
    "cat", "sed", "head", "tail", "nl", "awk", "less", "more", "bat", "batcat", "tac", "view",
];

/// Codex, configured from `[behave.codex]`.
#[derive(Debug, Clone)]
pub struct Codex {
    program: String,
    model: Option<String>,
    grader_model: Option<String>,
    sandbox: CodexSandbox,
    base_url: Option<String>,
    env_key: String,
}

fn key_error(key: &str, msg: impl std::fmt::Display) -> Fatal {
    config_error(&format!("codex.{key}"), msg)
}

impl Codex {
    pub fn new(c: &CodexConfig) -> Result<Codex, Fatal> {
        if c.program.trim().is_empty() {
            return Err(key_error("program", "is empty"));
        }
        for (key, v) in [("model", &c.model), ("grader-model", &c.grader_model)] {
            if let Some(m) = v
                && (m.trim().is_empty() || m.starts_with('-'))
            {
                return Err(key_error(key, format!("`{m}` is not a model name")));
            }
        }
        if let Some(u) = &c.base_url
            && !(u.starts_with("http://") || u.starts_with("https://"))
        {
            return Err(key_error(
                "base-url",
                format!("`{u}` is not an http(s) URL"),
            ));
        }
        if c.env_key.is_empty()
            || !c
                .env_key
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        {
            return Err(key_error(
                "env-key",
                format!("`{}` is not a variable name", c.env_key),
            ));
        }
        Ok(Codex {
            program: c.program.clone(),
            model: c.model.clone(),
            grader_model: c.grader_model.clone(),
            sandbox: c.sandbox,
            base_url: c.base_url.clone(),
            env_key: c.env_key.clone(),
        })
    }

    fn env(home: &Path) -> Vec<(String, String)> {
        vec![(
            "CODEX_HOME".into(),
            home.join(CONFIG_DIR).display().to_string(),
        )]
    }

    /// The `-c` settings every call shares, and the provider.
    fn common(&self, model: Option<&String>) -> Vec<String> {
        let mut a = Vec::new();
        let mut set = |k: &str, v: &str| {
            a.push("--config".to_string());
            a.push(format!("{k}={v}"));
        };
        set("approval_policy", "\"never\"");
        for f in FEATURES_OFF {
            set(&format!("features.{f}"), "false");
        }
        set("web_search", "\"disabled\"");
        set("analytics.enabled", "false");
        set("check_for_update_on_startup", "false");
        set("skills.bundled.enabled", "false");
        if let Some(u) = &self.base_url {
            set("model_provider", "\"skillsift\"");
            set(
                "model_providers.skillsift",
                &format!(
                    "{{name=\"skillsift\",base_url={},env_key={},wire_api=\"responses\"}}",
                    toml_string(u),
                    toml_string(&self.env_key)
                ),
            );
        }
        if let Some(m) = model {
            a.push("-m".into());
            a.push(m.clone());
        }
        a
    }

    fn call(&self, args: Vec<String>, paths: &Paths) -> Call {
        Call {
            args,
            env: Self::env(paths.home),
            env_remove: super::inherited_to_remove(FAMILIES, KEEP),
            files: vec![(format!("{CONFIG_DIR}/config.toml"), CONFIG_NOTE.into())],
        }
    }

    fn head(sandbox: &str) -> Vec<String> {
        strings(&[
            "exec",
            "--json",
            "--ephemeral",
            "--strict-config",
            "--skip-git-repo-check",
            "-s",
            sandbox,
        ])
    }
}

/// The run home's `config.toml`: every setting is on the command line.
const CONFIG_NOTE: &str = "# Written by skillsift for one run: every setting is passed with --config on\n# the command line (see plan.json), where nothing else can override it.\n";

/// `s` as a TOML basic string.
fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn strings(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

impl Agent for Codex {
    /// `file_change`: the item Codex reports for an `apply_patch` edit.
    fn edit_tools(&self) -> &'static [&'static str] {
        &["file_change", "apply_patch"]
    }

    fn kind(&self) -> &'static str {
        "codex"
    }

    fn product(&self) -> &'static str {
        "Codex"
    }

    fn program(&self) -> &str {
        &self.program
    }

    fn set_program(&mut self, program: String) {
        self.program = program;
    }

    fn project_skill_dirs(&self) -> &'static [&'static str] {
        &[".agents/skills", ".codex/skills"]
    }

    /// `~/.agents/skills` (read in every run: `HOME` is not replaced) and
    /// the administrator's `/etc/codex/skills`.
    fn shared_skill_roots(&self) -> Vec<PathBuf> {
        let mut v = Vec::new();
        if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            v.push(PathBuf::from(h).join(".agents").join("skills"));
        }
        v.push(PathBuf::from("/etc/codex/skills"));
        v
    }

    fn skill_depth(&self) -> usize {
        crate::client::codex::DEPTH
    }

    /// The listed name is the frontmatter `name`, else the folder's.
    fn answers_to(&self, folder: &str, name: Option<&str>, wanted: &str) -> bool {
        match name.map(str::trim).filter(|n| !n.is_empty()) {
            Some(n) => n == wanted,
            None => folder == wanted,
        }
    }

    fn executor(&self, paths: &Paths, _append: Option<&str>) -> Call {
        let mut a = Self::head(self.sandbox.as_str());
        if self.sandbox == CodexSandbox::WorkspaceWrite {
            for (k, v) in [
                ("sandbox_workspace_write.exclude_slash_tmp", "true"),
                ("sandbox_workspace_write.exclude_tmpdir_env_var", "true"),
                ("sandbox_workspace_write.network_access", "false"),
            ] {
                a.push("--config".into());
                a.push(format!("{k}={v}"));
            }
        }
        a.extend(self.common(self.model.as_ref()));
        self.call(a, paths)
    }

    fn grader(&self, paths: &Paths) -> Call {
        let mut a = Self::head("read-only");
        a.push("--config".into());
        a.push("features.shell_tool=false".into());
        a.extend(self.common(self.grader_model.as_ref().or(self.model.as_ref())));
        self.call(a, paths)
    }

    fn parse(&self, stdout: &[u8], cwd: &Path) -> Trace {
        parse(stdout, cwd)
    }

    fn fatal(&self, trace: &Trace, stderr: &[u8]) -> Option<Stop> {
        let refused = ["unknown configuration field", "Error loading config"];
        if let Some(line) = super::line_naming(trace, stderr, &refused) {
            return Some(Stop {
                message: format!(
                    "Codex refused one of skillsift's safety settings, so none of them can be guaranteed: {line}"
                ),
                help: format!(
                    "use codex-cli {TESTED_VERSION} (the version these settings were checked against), or evaluate with another client"
                ),
            });
        }
        let auth = [
            "Missing environment variable",
            "401 Unauthorized",
            "Not logged in",
        ];
        let line = super::line_naming(trace, stderr, &auth)?;
        Some(Stop {
            message: format!("Codex has no credentials: {line}"),
            help: format!(
                "every run gets a fresh CODEX_HOME, so a `codex login` session is not used: set CODEX_API_KEY (or {} with [behave.codex] base-url)",
                self.env_key
            ),
        })
    }

    fn environment_doc(&self) -> (BTreeMap<String, String>, String) {
        (
            Self::env(Path::new("<run-home>")).into_iter().collect(),
            format!("removed: CODEX_*; kept: {}", KEEP.join(", ")),
        )
    }

    fn tested_version(&self) -> &'static str {
        TESTED_VERSION
    }

    fn request_size(&self) -> super::RequestSize {
        // measured on 0.171.0 (tests/real_codex_behave.rs)
        super::RequestSize {
            agent: 29_993,
            skills_section: 3_090,
            grader: 27_010,
        }
    }

    /// The version, then the exact executor command with `--strict-config`
    /// against a provider whose key is unset: Codex loads and checks every
    /// setting, then stops for the missing key before sending anything. An
    /// unknown setting is a refusal.
    fn preflight(&self) -> Result<Preflight, Stop> {
        let pre = super::require_version(self, SETTINGS)?;
        let home =
            crate::behave::workspace::home_scratch("preflight", false).map_err(|e| Stop {
                message: format!("cannot create a folder to check Codex's settings in: {e}"),
                help: crate::process::scratch::home_help(),
            })?;
        let cwd = home.path().join("workspace");
        let writable = || {
            format!(
                "make {} writable, or set SKILLSIFT_CACHE_DIR to a folder that is",
                home.path().display()
            )
        };
        std::fs::create_dir_all(&cwd).map_err(|e| Stop {
            message: format!("cannot create a folder to check Codex's settings in: {e}"),
            help: writable(),
        })?;
        let mut args = self
            .executor(
                &Paths {
                    cwd: &cwd,
                    home: home.path(),
                },
                None,
            )
            .args;
        args.extend(
            [
                "--config",
                "model_provider=\"skillsift-preflight\"",
                "--config",
                "model_providers.skillsift-preflight={name=\"skillsift-preflight\",base_url=\"http://127.0.0.1:9/v1\",env_key=\"SKILLSIFT_PREFLIGHT_UNSET_KEY\",wire_api=\"responses\"}",
            ]
            .map(String::from),
        );
        crate::behave::workspace::write_files(
            home.path(),
            &[(format!("{CONFIG_DIR}/config.toml"), CONFIG_NOTE.into())],
        )
        .map_err(|e| Stop {
            message: e,
            help: writable(),
        })?;
        let timeout = std::time::Duration::from_secs(60);
        let out = crate::behave::process::run(&crate::behave::process::Spec {
            program: &self.program,
            args: &args,
            cwd: &cwd,
            stdin: b"skillsift preflight",
            env: Self::env(home.path()),
            env_remove: {
                let mut v = super::inherited_to_remove(FAMILIES, &[]);
                v.push("SKILLSIFT_PREFLIGHT_UNSET_KEY".into());
                v
            },
            timeout,
            max_stdout: 1 << 20,
            max_stderr: 1 << 20,
            grace: std::time::Duration::from_millis(500),
        });
        // with --json the failure is a `turn.failed` line on stdout
        let err = format!(
            "{}\n{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        if let Some(line) = err.lines().find(|l| {
            l.contains("unknown configuration field") || l.contains("Error loading config")
        }) {
            return Err(Stop {
                message: format!(
                    "Codex {} does not accept one of skillsift's safety settings ({SETTINGS}): {}",
                    pre.version.as_deref().unwrap_or("?"),
                    line.trim()
                ),
                help: format!(
                    "use codex-cli {TESTED_VERSION} (the version these settings were checked against), or evaluate with another client"
                ),
            });
        }
        if !err.contains("SKILLSIFT_PREFLIGHT_UNSET_KEY") {
            let tail: Vec<&str> = err.lines().rev().take(3).collect();
            return Err(Stop {
                message: format!(
                    "Codex {} did not check skillsift's settings as expected (it should have stopped for the unset preflight key): {}",
                    pre.version.as_deref().unwrap_or("?"),
                    tail.join(" / ")
                ),
                help: format!("use codex-cli {TESTED_VERSION}, or evaluate with another client"),
            });
        }
        Ok(pre)
    }

    fn home_outside_tmp(&self) -> bool {
        true
    }

    fn tools(&self) -> Option<Vec<String>> {
        Some(strings(&[
            "exec_command",
            "write_stdin",
            "apply_patch",
            "view_image",
            "request_user_input",
        ]))
    }
}

/// What the preflight message calls the settings.
const SETTINGS: &str = "`-s workspace-write` with /tmp excluded, `features.apps=false` and the other features off, web search off, bundled skills off";

/// Parse a whole stream; `cwd` resolves relative paths in commands.
pub fn parse(bytes: &[u8], cwd: &Path) -> Trace {
    let mut t = Trace::default();
    let mut last_text = String::new();
    let mut result: Option<Final> = None;
    for raw in bytes.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        t.lines += 1;
        let v: Value = match serde_json::from_str(line) {
            Ok(v @ Value::Object(_)) => v,
            _ => {
                t.skipped_lines += 1;
                continue;
            }
        };
        match v["type"].as_str() {
            Some("item.completed") => {
                let item = &v["item"];
                match item["type"].as_str() {
                    Some("agent_message") => {
                        let text = item["text"].as_str().unwrap_or("").to_string();
                        last_text = text.clone();
                        t.events.push(Event::Text {
                            role: Role::Assistant,
                            text,
                        });
                    }
                    Some("command_execution") => command(&mut t, item, cwd),
                    Some(kind @ ("file_change" | "mcp_tool_call" | "web_search" | "todo_list")) => {
                        let mut input = item.clone();
                        if let Value::Object(m) = &mut input {
                            m.remove("id");
                            m.remove("result");
                        }
                        t.events.push(Event::ToolUse {
                            name: kind.to_string(),
                            input,
                        });
                        let failed = item["status"] == "failed" || !item["error"].is_null();
                        let text = match kind {
                            "mcp_tool_call" => item["result"].to_string(),
                            _ => item["status"].as_str().unwrap_or("").to_string(),
                        };
                        t.events.push(Event::ToolResult {
                            text,
                            is_error: failed,
                        });
                        if kind == "mcp_tool_call" {
                            let server = item["server"].as_str().unwrap_or("?");
                            if !t.mcp_servers.iter().any(|s| s == server) {
                                t.mcp_servers.push(server.to_string());
                            }
                        }
                    }
                    _ => {}
                }
            }
            Some("turn.completed") => {
                let u = &v["usage"];
                let n = |k: &str| u[k].as_u64().unwrap_or(0);
                let r = result.get_or_insert_with(|| Final {
                    subtype: "success".into(),
                    ..Final::default()
                });
                r.input_tokens = r.input_tokens.saturating_add(n("input_tokens"));
                r.cached_input_tokens = r
                    .cached_input_tokens
                    .saturating_add(n("cached_input_tokens"));
                r.output_tokens = r.output_tokens.saturating_add(n("output_tokens"));
                r.num_turns = Some(r.num_turns.unwrap_or(0) + 1);
            }
            Some("turn.failed") => {
                let r = result.get_or_insert_with(Final::default);
                r.is_error = true;
                r.subtype = "turn.failed".into();
                r.text = v["error"]["message"].as_str().unwrap_or("").to_string();
            }
            _ => {}
        }
    }
    if let Some(r) = &mut result
        && !r.is_error
    {
        r.text = last_text;
    }
    t.result = result;
    t
}

/// One finished command: a tool call and its result, and a load when it
/// read a `SKILL.md`.
fn command(t: &mut Trace, item: &Value, cwd: &Path) {
    let cmd = item["command"].as_str().unwrap_or("").to_string();
    let output = item["aggregated_output"].as_str().unwrap_or("").to_string();
    let exit = item["exit_code"].as_i64();
    t.events.push(Event::ToolUse {
        name: "command_execution".into(),
        input: serde_json::json!({ "command": cmd }),
    });
    let ok = exit == Some(0) && item["status"] != "failed";
    t.events.push(Event::ToolResult {
        text: output.clone(),
        is_error: !ok,
    });
    for path in skill_reads(&cmd, cwd) {
        let dir = path.parent().map(|p| p.display().to_string());
        let folder = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = if ok {
            frontmatter_name(&output).unwrap_or(folder)
        } else {
            folder
        };
        if name.is_empty() {
            continue;
        }
        if ok {
            if !t.loads.iter().any(|l| l.name == name && l.dir == dir) {
                t.loads.push(Load { name, dir });
            }
        } else if !t.failed_loads.contains(&name) {
            t.failed_loads.push(name);
        }
    }
}

/// The `name` of the frontmatter `output` starts with (a read that shows
/// the file's head).
fn frontmatter_name(output: &str) -> Option<String> {
    let mut lines = output.lines();
    if lines.next()?.trim() != "---" {
        return None;
    }
    for l in lines {
        if l.trim() == "---" {
            return None;
        }
        if let Some(v) = l.strip_prefix("name:") {
            let v = v.trim().trim_matches(|c| c == '"' || c == '\'').trim();
            return (!v.is_empty()).then(|| v.to_string());
        }
    }
    None
}

/// The `SKILL.md` files a command reads with a reader program, absolute.
pub fn skill_reads(command: &str, cwd: &Path) -> Vec<PathBuf> {
    let words = shell_words(command);
    // Codex wraps every command as `<shell> -lc '<script>'`: the script is
    // what ran
    let script = match words.as_slice() {
        [_, flag, script]
            if flag.len() >= 2
                && flag.starts_with('-')
                && !flag.starts_with("--")
                && flag.ends_with('c')
                && flag[1..].chars().all(|c| c.is_ascii_lowercase()) =>
        {
            script.clone()
        }
        _ => command.to_string(),
    };
    let mut dir = cwd.to_path_buf();
    let mut out = Vec::new();
    for segment in segments(&script) {
        let w = shell_words(&segment);
        let mut w = w.iter().skip_while(|x| is_assignment(x));
        let Some(prog) = w.next() else { continue };
        let prog = prog.rsplit('/').next().unwrap_or(prog);
        let rest: Vec<&String> = w.collect();
        if prog == "cd" {
            if let Some(to) = rest.first() {
                dir = normalize(&dir.join(to));
            }
            continue;
        }
        if !READERS.contains(&prog) {
            continue;
        }
        for a in rest {
            if (a == "SKILL.md" || a.ends_with("/SKILL.md")) && !a.starts_with('-') {
                let p = normalize(&dir.join(a));
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

fn is_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(k, _)| {
        !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// `p` without `.` and `..` components.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A shell script split at `&&`, `||`, `;`, `|` and line breaks outside
/// quotes.
fn segments(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut sq, mut dq, mut esc) = (false, false, false);
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if esc {
            cur.push(c);
            esc = false;
        } else if c == '\\' && !sq {
            cur.push(c);
            esc = true;
        } else if c == '\'' && !dq {
            sq = !sq;
            cur.push(c);
        } else if c == '"' && !sq {
            dq = !dq;
            cur.push(c);
        } else if !sq && !dq && matches!(c, ';' | '|' | '&' | '\n') {
            out.push(std::mem::take(&mut cur));
            while i + 1 < chars.len() && matches!(chars[i + 1], '|' | '&') {
                i += 1;
            }
        } else {
            cur.push(c);
        }
        i += 1;
    }
    out.push(cur);
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

/// Words of a shell command: quotes removed, backslash escapes honoured,
/// nothing expanded.
pub fn shell_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for d in chars.by_ref() {
                    if d == '\'' {
                        break;
                    }
                    cur.push(d);
                }
            }
            '"' => {
                in_word = true;
                while let Some(d) = chars.next() {
                    match d {
                        '"' => break,
                        '\\' => {
                            if let Some(&n) = chars.peek()
                                && matches!(n, '"' | '\\' | '$' | '`')
                            {
                                cur.push(n);
                                chars.next();
                            } else {
                                cur.push('\\');
                            }
                        }
                        _ => cur.push(d),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUN: &str = r#"{"type":"thread.started","thread_id":"t"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc 'cat .agents/skills/run-tests/SKILL.md'","aggregated_output":"---\nname: run-tests\ndescription: Runs it.\n---\n# Run\n","exit_code":0,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc 'cat .agents/skills/guess/SKILL.md'","aggregated_output":"cat: .agents/skills/guess/SKILL.md: No such file or directory\n","exit_code":1,"status":"failed"}}
{"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"/bin/bash -lc 'ls .agents/skills/other/SKILL.md'","aggregated_output":"x","exit_code":0,"status":"completed"}}
not json
{"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"Done."}}
{"type":"turn.completed","usage":{"input_tokens":300,"cached_input_tokens":120,"output_tokens":30,"reasoning_output_tokens":9}}
"#;

    #[test]
    fn a_successful_read_of_a_skill_md_is_a_load_and_a_failed_one_is_not() {
        let t = parse(RUN.as_bytes(), Path::new("/ws"));
        assert_eq!(
            t.loads,
            [Load {
                name: "run-tests".into(),
                dir: Some("/ws/.agents/skills/run-tests".into())
            }]
        );
        assert_eq!(t.failed_loads, ["guess"]);
        let r = t.result.clone().unwrap();
        assert_eq!(r.text, "Done.");
        assert_eq!(
            (r.input_tokens, r.cached_input_tokens, r.output_tokens),
            (300, 120, 30)
        );
        assert_eq!(t.skipped_lines, 1);
        assert_eq!(t.tool_counts().get("command_execution"), Some(&3));
    }

    #[test]
    fn reads_follow_cd_quotes_and_pipelines() {
        let ws = Path::new("/ws");
        assert_eq!(
            skill_reads(
                r#"/bin/bash -lc "cd .agents/skills/x && sed -n '1,200p' SKILL.md | head""#,
                ws
            ),
            [PathBuf::from("/ws/.agents/skills/x/SKILL.md")]
        );
        assert_eq!(
            skill_reads("/bin/bash -lc 'cat \"/abs/my skill/SKILL.md\"'", ws),
            [PathBuf::from("/abs/my skill/SKILL.md")]
        );
        assert!(skill_reads("/bin/bash -lc 'rm x/SKILL.md'", ws).is_empty());
        assert!(skill_reads("/bin/bash -lc 'echo SKILL.md'", ws).is_empty());
    }

    #[test]
    fn a_failed_turn_has_an_error_result() {
        let s = r#"{"type":"turn.failed","error":{"message":"boom"}}"#;
        let r = parse(s.as_bytes(), Path::new("/")).result.unwrap();
        assert!(r.is_error);
        assert_eq!(r.text, "boom");
    }

    #[test]
    fn the_command_line_carries_every_safety_setting_and_never_a_bypass() {
        let c = Codex::new(&CodexConfig::default()).unwrap();
        let p = Paths {
            cwd: Path::new("/ws"),
            home: Path::new("/h"),
        };
        let a = c.executor(&p, None).args.join(" ");
        for s in [
            "exec --json --ephemeral --strict-config --skip-git-repo-check -s workspace-write",
            "--config sandbox_workspace_write.exclude_slash_tmp=true",
            "--config sandbox_workspace_write.exclude_tmpdir_env_var=true",
            "--config features.apps=false",
            "--config web_search=\"disabled\"",
            "--config skills.bundled.enabled=false",
        ] {
            assert!(a.contains(s), "{s} missing from {a}");
        }
        let g = c.grader(&p).args.join(" ");
        assert!(g.contains("-s read-only") && g.contains("features.shell_tool=false"));
        for cmd in [&a, &g] {
            assert!(!cmd.contains("dangerously") && !cmd.contains("approve-for-me"));
        }
    }
}
