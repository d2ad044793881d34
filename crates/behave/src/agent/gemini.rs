//! Gemini CLI (`gemini -p`). Measured on 0.61.0; the facts behind each
//! choice are in `clients/gemini-cli.md` of the shared notes, and
//! `tests/real_gemini_behave.rs` checks them against the installed CLI.
//!
//! **Start.** `gemini -p "" -o stream-json --skip-trust --approval-mode
//! default --policy <run home>/policy.toml --extensions none -m <model>`,
//! prompt on stdin (`-p ""` appends nothing to it). `-m` is always
//! given ([`PINNED_MODEL`] when none is configured), which keeps the
//! CLI's model router off. Never `--yolo`, never
//! another approval mode. `--skip-trust` trusts the workspace for this
//! session only, without loading its settings (their MCP servers stay off).
//!
//! **Safety.** In headless `default` mode Gemini CLI offers no tool that
//! would need a confirmation; the policy file allows exactly `[behave.gemini]
//! allowed-tools`, `run_shell_command` only for the `shell-commands`
//! prefixes, and `activate_skill`, and denies every other tool (web search
//! and fetch, sub-agents, MCP tools included), so the model is offered
//! exactly those. Gemini's file tools refuse paths outside the workspace.
//! The settings file pins `mcp.allowed = ["__none__"]` (no MCP server
//! starts), telemetry, usage statistics and auto-update off, API-key
//! authentication, and disables the bundled skills (`skills.disabled`,
//! except one named like the skill under test). The grader's policy denies
//! every tool: it is offered none.
//!
//! **Isolation.** `GEMINI_CLI_HOME=<run home>`: Gemini CLI reads
//! `~/.gemini` (settings, memory, extensions, policies, personal skills)
//! and `~/.agents/skills` from there, so none of yours reaches a run;
//! `HOME` is left alone. The environment loses every `GEMINI_*` variable
//! and the `GOOGLE_*` ones that are not credentials or endpoints.
//!
//! **Stream.** `init`, `message` (user; assistant text in `delta` pieces),
//! `tool_use` (`tool_name`, `tool_id`, `parameters`), `tool_result`
//! (`tool_id`, `status` `success` or `error`, `output`), `error`, and
//! `result` (`status`, `stats` summed over the session: `input_tokens`
//! includes `cached`).
//!
//! **Loads.** An `activate_skill` `tool_use` paired by `tool_id` with a
//! `tool_result` of status `success`; an error (an unknown name, a policy
//! denial) loaded nothing. The result names the folder the skill came
//! from.

use super::{Agent, Call, Event, Final, Load, Paths, Preflight, Role, Stop, Trace};
use crate::behave::build::config_error;
use crate::config::GeminiConfig;
use crate::exit::Fatal;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The version whose settings and stream were checked.
pub const TESTED_VERSION: &str = "0.61.0";

/// The model every call names when `[behave.gemini] model` (or
/// `grader-model`) is unset: 0.61.0's `DEFAULT_GEMINI_MODEL`. Without `-m`
/// the CLI's default, `auto-gemini-2.5`, sends each prompt (the grader's
/// included) first to a "Task Routing" classifier request and then to the
/// model it picks: two requests per turn, the trace being graded read by a
/// second model. A named model skips the router, so exactly one request per
/// turn carries the prompt; `run.json` records the model the stream's
/// `init` line reports.
pub const PINNED_MODEL: &str = "gemini-2.5-pro";

/// Variables removed from the agent's environment.
const FAMILIES: &[&str] = &["GEMINI_", "GOOGLE_"];
/// Kept: credentials, endpoints and Vertex AI switches.
pub const KEEP: &[&str] = &[
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GOOGLE_GEMINI_BASE_URL",
    "GOOGLE_VERTEX_BASE_URL",
    "GOOGLE_GENAI_USE_VERTEXAI",
    "GOOGLE_GENAI_USE_GCA",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
    "GOOGLE_APPLICATION_CREDENTIALS",
];

/// The bundled skills of the tested version (the preflight reads the
/// installed ones when it can find them).
const BUNDLED: &[&str] = &["skill-creator", "antigravity-support"];

/// Gemini CLI, configured from `[behave.gemini]`.
#[derive(Debug, Clone)]
pub struct Gemini {
    program: String,
    model: Option<String>,
    grader_model: Option<String>,
    allowed_tools: Vec<String>,
    shell_commands: Vec<String>,
    bundled: Vec<String>,
    /// The skill under test: never disabled as a bundled skill.
    skill: Option<String>,
}

fn key_error(key: &str, msg: impl std::fmt::Display) -> Fatal {
    config_error(&format!("gemini.{key}"), msg)
}

impl Gemini {
    pub fn new(c: &GeminiConfig) -> Result<Gemini, Fatal> {
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
        for t in &c.allowed_tools {
            if t.trim().is_empty() || t.contains('*') || t.contains('"') {
                return Err(key_error(
                    "allowed-tools",
                    format!("`{t}` is not a tool name (no wildcards)"),
                ));
            }
            if t.starts_with("mcp_") || t == "google_web_search" || t == "web_fetch" {
                return Err(key_error(
                    "allowed-tools",
                    format!("`{t}`: MCP and web tools are always denied in Tier 3 runs"),
                ));
            }
            if t == "run_shell_command" {
                return Err(key_error(
                    "allowed-tools",
                    "list the commands `run_shell_command` may run in [behave.gemini] shell-commands instead",
                ));
            }
        }
        for s in &c.shell_commands {
            if s.trim().is_empty() {
                return Err(key_error("shell-commands", "holds an empty prefix"));
            }
        }
        Ok(Gemini {
            program: c.program.clone(),
            model: c.model.clone(),
            grader_model: c.grader_model.clone(),
            allowed_tools: c.allowed_tools.clone(),
            shell_commands: c.shell_commands.clone(),
            bundled: BUNDLED.iter().map(|s| s.to_string()).collect(),
            skill: None,
        })
    }

    fn env(home: &Path) -> Vec<(String, String)> {
        vec![("GEMINI_CLI_HOME".into(), home.display().to_string())]
    }

    /// `<run home>/.gemini/settings.json`.
    pub fn settings(&self) -> String {
        let disabled: Vec<&String> = self
            .bundled
            .iter()
            .filter(|b| Some(b.as_str()) != self.skill.as_deref())
            .collect();
        let doc = json!({
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "mcp": {"allowed": ["__none__"]},
            "privacy": {"usageStatisticsEnabled": false},
            "telemetry": {"enabled": false},
            "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
            "skills": {"disabled": disabled},
        });
        let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
        s.push('\n');
        s
    }

    /// The executor's policy: the configured tools, `activate_skill`, the
    /// shell prefixes; every other tool denied.
    pub fn policy(&self) -> String {
        let mut s = String::from(
            "# Written by skillsift for one run: exactly these tools are allowed,\n# every other one is denied (and so never offered to the model).\n\n[[rule]]\ntoolName = \"activate_skill\"\ndecision = \"allow\"\npriority = 900\n",
        );
        if !self.allowed_tools.is_empty() {
            s.push_str(&format!(
                "\n[[rule]]\ntoolName = [{}]\ndecision = \"allow\"\npriority = 900\n",
                self.allowed_tools
                    .iter()
                    .map(|t| toml_string(t))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !self.shell_commands.is_empty() {
            s.push_str(&format!(
                "\n[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = [{}]\ndecision = \"allow\"\npriority = 900\n",
                self.shell_commands
                    .iter()
                    .map(|t| toml_string(t))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        s.push_str(DENY_REST);
        s
    }

    fn call(&self, args: Vec<String>, paths: &Paths, policy: String) -> Call {
        Call {
            args,
            env: Self::env(paths.home),
            env_remove: super::inherited_to_remove(FAMILIES, KEEP),
            files: vec![
                (".gemini/settings.json".into(), self.settings().into_bytes()),
                ("policy.toml".into(), policy.into_bytes()),
            ],
        }
    }

    fn args(paths: &Paths, model: Option<&String>) -> Vec<String> {
        let mut a: Vec<String> = [
            "-p",
            "",
            "-o",
            "stream-json",
            "--skip-trust",
            "--approval-mode",
            "default",
            "--policy",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(paths.home.join("policy.toml").display().to_string());
        a.extend(["--extensions".to_string(), "none".to_string()]);
        a.push("-m".into());
        a.push(model.map_or(PINNED_MODEL, String::as_str).to_string());
        a
    }
}

/// Every tool not allowed above is denied.
const DENY_REST: &str = "\n[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 800\n";

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

impl Agent for Gemini {
    fn edit_tools(&self) -> &'static [&'static str] {
        &["write_file", "replace", "edit"]
    }

    fn kind(&self) -> &'static str {
        "gemini"
    }

    fn product(&self) -> &'static str {
        "Gemini CLI"
    }

    fn program(&self) -> &str {
        &self.program
    }

    fn set_program(&mut self, program: String) {
        self.program = program;
    }

    /// The skill under test is never disabled as a bundled skill.
    fn set_skill(&mut self, skill: &str) {
        self.skill = Some(skill.to_string());
    }

    fn project_skill_dirs(&self) -> &'static [&'static str] {
        &[".agents/skills", ".gemini/skills"]
    }

    /// None: `GEMINI_CLI_HOME` replaces every personal folder.
    fn shared_skill_roots(&self) -> Vec<PathBuf> {
        Vec::new()
    }

    /// The frontmatter `name` (compared case-insensitively, as
    /// `activate_skill` resolves it); a skill without one is not listed.
    fn answers_to(&self, _folder: &str, name: Option<&str>, wanted: &str) -> bool {
        name.is_some_and(|n| {
            crate::client::gemini_cli::sanitize_name(n.trim()).to_lowercase()
                == wanted.to_lowercase()
        })
    }

    fn executor(&self, paths: &Paths, _append: Option<&str>) -> Call {
        self.call(Self::args(paths, self.model.as_ref()), paths, self.policy())
    }

    fn grader(&self, paths: &Paths) -> Call {
        let policy = format!(
            "# Written by skillsift for one grader call: every tool is denied.\n{DENY_REST}"
        );
        self.call(
            Self::args(paths, self.grader_model.as_ref().or(self.model.as_ref())),
            paths,
            policy,
        )
    }

    fn parse(&self, stdout: &[u8], _cwd: &Path) -> Trace {
        parse(stdout)
    }

    fn fatal(&self, trace: &Trace, stderr: &[u8]) -> Option<Stop> {
        let line = super::line_naming(
            trace,
            stderr,
            &[
                "GEMINI_API_KEY",
                "Invalid auth method",
                "API key not valid",
                "PERMISSION_DENIED",
            ],
        )?;
        Some(Stop {
            message: format!("Gemini CLI cannot authenticate: {line}"),
            help: "every run gets a fresh GEMINI_CLI_HOME, so a `gemini` login is not used: set GEMINI_API_KEY".into(),
        })
    }

    fn environment_doc(&self) -> (BTreeMap<String, String>, String) {
        (
            Self::env(Path::new("<run-home>")).into_iter().collect(),
            format!("removed: GEMINI_*, GOOGLE_*; kept: {}", KEEP.join(", ")),
        )
    }

    fn tested_version(&self) -> &'static str {
        TESTED_VERSION
    }

    fn request_size(&self) -> super::RequestSize {
        // measured on 0.61.0 (tests/real_gemini_behave.rs)
        super::RequestSize {
            agent: 35_870,
            skills_section: 1_030,
            grader: 22_690,
        }
    }

    fn preflight(&self) -> Result<Preflight, Stop> {
        super::require_version(
            self,
            "`--approval-mode default` with a policy file, `--skip-trust`, `mcp.allowed = [\"__none__\"]`",
        )
    }

    fn tools(&self) -> Option<Vec<String>> {
        let mut t = self.allowed_tools.clone();
        if !self.shell_commands.is_empty() {
            t.push("run_shell_command".into());
        }
        t.push("activate_skill".into());
        Some(t)
    }
}

/// Parse a whole stream.
pub fn parse(bytes: &[u8]) -> Trace {
    let mut t = Trace::default();
    let mut pending: BTreeMap<String, (String, Value)> = BTreeMap::new();
    let mut text = String::new();
    let mut errors: Vec<String> = Vec::new();
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
            Some("init") => t.model = v["model"].as_str().map(str::to_string),
            Some("message") => {
                let content = v["content"].as_str().unwrap_or("").to_string();
                match v["role"].as_str() {
                    Some("assistant") => {
                        text.push_str(&content);
                        match t.events.last_mut() {
                            Some(Event::Text {
                                role: Role::Assistant,
                                text: last,
                            }) if v["delta"] == true => last.push_str(&content),
                            _ => t.events.push(Event::Text {
                                role: Role::Assistant,
                                text: content,
                            }),
                        }
                    }
                    _ => t.events.push(Event::Text {
                        role: Role::User,
                        text: content,
                    }),
                }
            }
            Some("tool_use") => {
                let name = v["tool_name"].as_str().unwrap_or("?").to_string();
                let input = v["parameters"].clone();
                if let Some(id) = v["tool_id"].as_str() {
                    pending.insert(id.to_string(), (name.clone(), input.clone()));
                }
                // a new turn's text starts after a tool call
                text.clear();
                t.events.push(Event::ToolUse { name, input });
            }
            Some("tool_result") => {
                let ok = v["status"] == "success";
                let out = match &v["output"] {
                    Value::String(s) => s.clone(),
                    Value::Null => v["error"]["message"].as_str().unwrap_or("").to_string(),
                    other => other.to_string(),
                };
                t.events.push(Event::ToolResult {
                    text: out.clone(),
                    is_error: !ok,
                });
                let id = v["tool_id"].as_str().unwrap_or("");
                if let Some((name, input)) = pending.remove(id)
                    && name == "activate_skill"
                    && let Some(skill) = input["name"].as_str()
                {
                    let skill = skill.trim().to_string();
                    if ok {
                        if !t.loads.iter().any(|l| l.name == skill) {
                            t.loads.push(Load {
                                dir: loaded_from(&out),
                                name: skill,
                            });
                        }
                    } else if !t.failed_loads.contains(&skill) {
                        t.failed_loads.push(skill);
                    }
                }
            }
            Some("error") => {
                errors.push(v["message"].as_str().unwrap_or("").to_string());
            }
            Some("result") => {
                let s = &v["stats"];
                let n = |k: &str| s[k].as_u64().unwrap_or(0);
                let ok = v["status"] == "success";
                t.result = Some(Final {
                    is_error: !ok,
                    subtype: v["status"].as_str().unwrap_or("").to_string(),
                    text: if ok {
                        text.clone()
                    } else {
                        v["error"]["message"]
                            .as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| errors.join("; "))
                    },
                    cost_usd: None,
                    input_tokens: n("input_tokens"),
                    cached_input_tokens: n("cached"),
                    output_tokens: n("output_tokens"),
                    num_turns: None,
                    duration_ms: s["duration_ms"].as_u64(),
                    permission_denials: 0,
                });
            }
            _ => {}
        }
    }
    t
}

/// The folder an `activate_skill` result names (`Resources loaded from
/// \`<dir>\``).
fn loaded_from(output: &str) -> Option<String> {
    let rest = output.split_once("loaded from `")?.1;
    let dir = rest.split_once('`')?.0.trim_end_matches('/');
    (!dir.is_empty()).then(|| dir.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUN: &str = r#"{"type":"init","session_id":"s","model":"gemini-2.5-pro"}
{"type":"message","role":"user","content":"run the tests"}
{"type":"tool_use","tool_name":"activate_skill","tool_id":"a1","parameters":{"name":"run-tests"}}
{"type":"tool_result","tool_id":"a1","status":"success","output":"Skill **run-tests** activated. Resources loaded from `/ws/.agents/skills/run-tests`:\n"}
{"type":"tool_use","tool_name":"activate_skill","tool_id":"a2","parameters":{"name":"nope"}}
{"type":"tool_result","tool_id":"a2","status":"error","output":"params/name must be equal to one of the allowed values","error":{"type":"invalid_tool_params"}}
{"type":"message","role":"assistant","content":"all ","delta":true}
{"type":"message","role":"assistant","content":"done","delta":true}
{"type":"result","status":"success","stats":{"total_tokens":550,"input_tokens":500,"output_tokens":50,"cached":200,"input":300,"duration_ms":484,"tool_calls":2}}
"#;

    #[test]
    fn a_load_is_an_activate_skill_call_whose_result_succeeded() {
        let t = parse(RUN.as_bytes());
        assert_eq!(
            t.loads,
            [Load {
                name: "run-tests".into(),
                dir: Some("/ws/.agents/skills/run-tests".into())
            }]
        );
        assert_eq!(t.failed_loads, ["nope"]);
        let r = t.result.clone().unwrap();
        assert_eq!(r.text, "all done");
        assert_eq!(
            (r.input_tokens, r.cached_input_tokens, r.output_tokens),
            (500, 200, 50)
        );
        assert_eq!(t.model.as_deref(), Some("gemini-2.5-pro"));
    }

    #[test]
    fn the_policy_allows_exactly_the_configured_tools() {
        let g = Gemini::new(&GeminiConfig {
            shell_commands: vec!["npm test".into()],
            ..GeminiConfig::default()
        })
        .unwrap();
        let p = g.policy();
        assert!(p.contains("toolName = \"activate_skill\""));
        assert!(p.contains("commandPrefix = [\"npm test\"]"));
        assert!(p.ends_with(DENY_REST));
        let s: Value = serde_json::from_str(&g.settings()).unwrap();
        assert_eq!(s["mcp"]["allowed"], json!(["__none__"]));
        let mut tested = g.clone();
        tested.set_skill("skill-creator");
        let s: Value = serde_json::from_str(&tested.settings()).unwrap();
        assert_eq!(s["skills"]["disabled"], json!(["antigravity-support"]));
    }
}
