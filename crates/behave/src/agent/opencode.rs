//! opencode (`opencode run`). Measured on 1.18.33; the facts behind each
//! choice are in `clients/opencode.md` of the shared notes, and
//! `tests/real_opencode_behave.rs` checks them against the installed CLI.
//!
//! **Start.** `opencode run --format json --pure --title skillsift --dir
//! <workspace>` (+ `-m provider/model`), prompt on stdin (a prompt passed
//! as one argument reaches the model in literal quotes). `--title` names
//! the session, so no title request repeats the prompt; `--dir` and `PWD`
//! name the workspace (opencode takes its project from `PWD`, not from the
//! working folder). Never `--auto`.
//!
//! **Safety.** Headless `run` without a `permission` block allows bash,
//! edits and web fetches without asking; the run's configuration
//! (`OPENCODE_CONFIG=<run home>/opencode.json`) holds one that denies every
//! tool (`"*": "deny"`, which also keeps a denied tool from being offered)
//! and then allows reading (`read`, `glob`, `grep`, `list`), `todowrite`,
//! `skill` (but not the bundled `customize-opencode`), `edit` unless
//! `[behave.opencode] edit = false`, and `bash` only for the
//! `shell-commands` prefixes; `external_directory` is denied, so nothing
//! outside the workspace is read or written. No MCP server (`"mcp": {}`),
//! no plugin (`--pure`, `OPENCODE_DISABLE_DEFAULT_PLUGINS`), no project
//! configuration (`OPENCODE_DISABLE_PROJECT_CONFIG`: a workspace
//! `opencode.json` with `mcp` servers is ignored), no auto-update, no
//! sharing, no model list fetched. The grader's configuration denies every
//! tool: it is offered none.
//!
//! **Isolation.** opencode reads its configuration, data, cache and state
//! from the XDG folders and personal skills from `~/.agents/skills`,
//! `~/.claude/skills`, `~/.config/opencode/skill(s)` and
//! `~/.opencode/skills`: every call gets `XDG_CONFIG_HOME`,
//! `XDG_DATA_HOME`, `XDG_CACHE_HOME`, `XDG_STATE_HOME` and
//! `OPENCODE_TEST_HOME` (the home opencode resolves `~` to) inside the run
//! home, and `OPENCODE_DISABLE_CLAUDE_CODE=1`, so none of yours reaches a
//! run; `HOME` is left alone. The environment loses every `OPENCODE_*`
//! variable. The configuration folder gets a `package-lock.json` naming
//! `@opencode-ai/plugin`, without which opencode fetches that package from
//! the npm registry in every run. The skill tool needs `rg` on `PATH` (it would download it
//! otherwise): the preflight refuses to start without it.
//!
//! **Stream.** One JSON object per line: `step_start`, `text`, `tool_use`
//! (one per finished tool call: `part.tool`, `part.state.status`
//! `completed` or `error`, `input`, `output`), `step_finish` (one per model
//! call: `tokens{input,output,reasoning,cache{read,write}}` and `cost`;
//! `input` excludes cached tokens, so they are added back), `error`. There
//! is no result line: the run finished when its last `step_finish` has
//! `reason: "stop"`; a run whose last step asked for tools that never came
//! (a refused permission ends it, exit code 0) did not.
//!
//! **Loads.** A `skill` tool call with status `completed`; `error` ("Skill
//! … not found") loaded nothing. Its metadata names the folder.

use super::{Agent, Call, Event, Final, Load, Paths, Preflight, Role, Stop, Trace};
use crate::behave::build::config_error;
use crate::config::OpencodeConfig;
use crate::exit::Fatal;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The version whose settings and stream were checked.
pub const TESTED_VERSION: &str = "1.18.33";

/// Variables removed from the agent's environment.
const FAMILIES: &[&str] = &["OPENCODE_"];

pub use crate::client::opencode::PLUGIN_LOCK;

/// The bundled skill of the tested version.
const BUNDLED: &str = "customize-opencode";

/// opencode, configured from `[behave.opencode]`.
#[derive(Debug, Clone)]
pub struct Opencode {
    program: String,
    model: Option<String>,
    grader_model: Option<String>,
    edit: bool,
    shell_commands: Vec<String>,
    provider: Option<Value>,
    skill: Option<String>,
}

/// Largest configuration of the user's read for its providers.
const MAX_USER_CONFIG: u64 = 1024 * 1024;

/// The user's own opencode configuration, as opencode would find it:
/// `OPENCODE_CONFIG_CONTENT`, else the file `OPENCODE_CONFIG` names, else
/// `opencode.json` in `$XDG_CONFIG_HOME/opencode` (`~/.config/opencode`).
/// With where it was found.
fn users_config() -> Option<(String, Value)> {
    let read = |p: PathBuf| -> Option<(String, Value)> {
        let f = std::fs::File::open(&p).ok()?;
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::Read::take(f, MAX_USER_CONFIG), &mut text)
            .ok()?;
        Some((p.display().to_string(), serde_json::from_str(&text).ok()?))
    };
    if let Ok(text) = std::env::var("OPENCODE_CONFIG_CONTENT") {
        return serde_json::from_str(&text)
            .ok()
            .map(|v| ("OPENCODE_CONFIG_CONTENT".to_string(), v));
    }
    if let Some(p) = std::env::var_os("OPENCODE_CONFIG") {
        return read(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    read(base.join("opencode").join("opencode.json"))
}

/// The provider definitions of the user's own configuration that a run
/// needs (every provider when no model is configured, else the model's),
/// carried into the run's configuration: only `provider`, never the MCP
/// servers, plugins and permissions the isolation removes. A literal API key
/// in them is refused (the run's configuration is printed by `--dry-run`
/// and kept with `--keep-workspace`): it must be an `{env:NAME}` reference.
fn users_providers(model: Option<&str>) -> Result<Option<Value>, Fatal> {
    let Some((place, config)) = users_config() else {
        return Ok(None);
    };
    let Some(all) = config.get("provider").and_then(Value::as_object) else {
        return Ok(None);
    };
    let wanted = model.and_then(|m| m.split_once('/')).map(|(p, _)| p);
    let mut carried = Map::new();
    for (id, def) in all {
        if wanted.is_some_and(|w| w != id) {
            continue;
        }
        if let Some(key) = def["options"]["apiKey"].as_str()
            && !(key.starts_with("{env:") && key.ends_with('}'))
        {
            return Err(key_error(
                "provider",
                format!("your opencode provider `{id}` ({place}) holds its API key in the configuration; skillsift carries provider definitions into every run's configuration, which --dry-run prints"),
            )
            .with_help(format!("put the key in an environment variable and write `\"apiKey\": \"{{env:NAME}}\"` in {place}, or define the provider in skillsift.toml: [behave.opencode.provider.{id}]")));
        }
        carried.insert(id.clone(), def.clone());
    }
    Ok((!carried.is_empty()).then_some(Value::Object(carried)))
}

fn key_error(key: &str, msg: impl std::fmt::Display) -> Fatal {
    config_error(&format!("opencode.{key}"), msg)
}

impl Opencode {
    pub fn new(c: &OpencodeConfig) -> Result<Opencode, Fatal> {
        if c.program.trim().is_empty() {
            return Err(key_error("program", "is empty"));
        }
        for (key, v) in [("model", &c.model), ("grader-model", &c.grader_model)] {
            if let Some(m) = v
                && (m.starts_with('-') || !m.contains('/'))
            {
                return Err(key_error(
                    key,
                    format!("`{m}` is not a `provider/model` name"),
                ));
            }
        }
        for s in &c.shell_commands {
            if s.trim().is_empty() || s.contains('*') {
                return Err(key_error(
                    "shell-commands",
                    format!("`{s}` is not a command prefix (no wildcards)"),
                ));
            }
        }
        let provider = match &c.provider {
            Some(p) => Some(Value::Object(p.clone())),
            None => users_providers(c.model.as_deref())?,
        };
        Ok(Opencode {
            program: c.program.clone(),
            model: c.model.clone(),
            grader_model: c.grader_model.clone(),
            edit: c.edit,
            shell_commands: c.shell_commands.clone(),
            provider,
            skill: None,
        })
    }

    fn env(&self, paths: &Paths) -> Vec<(String, String)> {
        let h = paths.home;
        let p = |rel: &str| h.join(rel).display().to_string();
        let mut v = vec![
            ("OPENCODE_CONFIG".to_string(), p("opencode.json")),
            ("OPENCODE_TEST_HOME".to_string(), h.display().to_string()),
            ("XDG_CONFIG_HOME".to_string(), p(".config")),
            ("XDG_DATA_HOME".to_string(), p(".local/share")),
            ("XDG_CACHE_HOME".to_string(), p(".cache")),
            ("XDG_STATE_HOME".to_string(), p(".local/state")),
        ];
        for k in [
            "OPENCODE_DISABLE_PROJECT_CONFIG",
            "OPENCODE_DISABLE_CLAUDE_CODE",
            "OPENCODE_DISABLE_DEFAULT_PLUGINS",
            "OPENCODE_DISABLE_AUTOUPDATE",
            "OPENCODE_DISABLE_SHARE",
            "OPENCODE_DISABLE_MODELS_FETCH",
            "OPENCODE_DISABLE_LSP_DOWNLOAD",
        ] {
            v.push((k.to_string(), "1".to_string()));
        }
        v.push(("PWD".to_string(), paths.cwd.display().to_string()));
        v
    }

    /// The executor's permissions: every tool denied, then the allowed
    /// ones (the last matching rule wins).
    fn permission(&self) -> Value {
        let mut p = Map::new();
        p.insert("*".into(), json!("deny"));
        for t in ["read", "glob", "grep", "list", "todowrite"] {
            p.insert(t.into(), json!("allow"));
        }
        let mut skill = Map::new();
        skill.insert("*".into(), json!("allow"));
        if self.skill.as_deref() != Some(BUNDLED) {
            skill.insert(BUNDLED.into(), json!("deny"));
        }
        p.insert("skill".into(), Value::Object(skill));
        p.insert(
            "edit".into(),
            json!(if self.edit { "allow" } else { "deny" }),
        );
        if self.shell_commands.is_empty() {
            p.insert("bash".into(), json!("deny"));
        } else {
            let mut b = Map::new();
            b.insert("*".into(), json!("deny"));
            for c in &self.shell_commands {
                b.insert(c.clone(), json!("allow"));
                b.insert(format!("{c} *"), json!("allow"));
            }
            p.insert("bash".into(), Value::Object(b));
        }
        p.insert("external_directory".into(), json!("deny"));
        Value::Object(p)
    }

    /// The run's `opencode.json`.
    pub fn config(&self, model: Option<&String>, permission: Value) -> String {
        let mut c = Map::new();
        c.insert("autoupdate".into(), json!(false));
        c.insert("share".into(), json!("disabled"));
        c.insert("mcp".into(), json!({}));
        c.insert("plugin".into(), json!([]));
        if let Some(m) = model {
            c.insert("model".into(), json!(m));
            c.insert("small_model".into(), json!(m));
        }
        if let Some(p) = &self.provider {
            if let Some(o) = p.as_object() {
                c.insert(
                    "enabled_providers".into(),
                    json!(o.keys().collect::<Vec<_>>()),
                );
            }
            c.insert("provider".into(), p.clone());
        }
        c.insert("permission".into(), permission);
        let mut s = serde_json::to_string_pretty(&Value::Object(c)).unwrap_or_default();
        s.push('\n');
        s
    }

    fn call(&self, paths: &Paths, model: Option<&String>, permission: Value) -> Call {
        let mut a: Vec<String> = [
            "run",
            "--format",
            "json",
            "--pure",
            "--title",
            "skillsift",
            "--dir",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(paths.cwd.display().to_string());
        if let Some(m) = model {
            a.push("-m".into());
            a.push(m.clone());
        }
        Call {
            args: a,
            env: self.env(paths),
            env_remove: super::inherited_to_remove(FAMILIES, &[]),
            files: vec![
                (
                    "opencode.json".into(),
                    self.config(model, permission).into_bytes(),
                ),
                // opencode installs `@opencode-ai/plugin` from the npm registry
                // into its configuration folder unless a lock file already
                // holds it (and `node_modules` exists)
                (
                    ".config/opencode/package-lock.json".into(),
                    PLUGIN_LOCK.as_bytes().to_vec(),
                ),
                (
                    ".config/opencode/node_modules/.skillsift".into(),
                    Vec::new(),
                ),
            ],
        }
    }
}

impl Agent for Opencode {
    fn edit_tools(&self) -> &'static [&'static str] {
        &["write", "edit", "patch", "multiedit", "apply_patch"]
    }

    fn kind(&self) -> &'static str {
        "opencode"
    }

    fn product(&self) -> &'static str {
        "opencode"
    }

    fn program(&self) -> &str {
        &self.program
    }

    fn set_program(&mut self, program: String) {
        self.program = program;
    }

    fn set_skill(&mut self, skill: &str) {
        self.skill = Some(skill.to_string());
    }

    fn project_skill_dirs(&self) -> &'static [&'static str] {
        &[
            ".agents/skills",
            ".claude/skills",
            ".opencode/skill",
            ".opencode/skills",
        ]
    }

    /// None: every personal folder is replaced by the run home.
    fn shared_skill_roots(&self) -> Vec<PathBuf> {
        Vec::new()
    }

    fn skill_depth(&self) -> usize {
        crate::client::opencode::DEPTH
    }

    /// The frontmatter `name`, exactly; a skill without one is not loaded.
    fn answers_to(&self, _folder: &str, name: Option<&str>, wanted: &str) -> bool {
        name == Some(wanted)
    }

    fn executor(&self, paths: &Paths, _append: Option<&str>) -> Call {
        self.call(paths, self.model.as_ref(), self.permission())
    }

    fn grader(&self, paths: &Paths) -> Call {
        self.call(
            paths,
            self.grader_model.as_ref().or(self.model.as_ref()),
            json!({"*": "deny"}),
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
                "API key",
                "401",
                "Unauthorized",
                "ProviderModelNotFoundError",
                "ProviderInitError",
            ],
        )?;
        Some(Stop {
            message: format!("opencode cannot reach its model: {line}"),
            help: "every run gets fresh XDG folders, so `opencode auth login` is not used: set the provider's API key variable, and [behave.opencode] model (and provider, for a custom endpoint)".into(),
        })
    }

    fn environment_doc(&self) -> (BTreeMap<String, String>, String) {
        let paths = Paths {
            cwd: Path::new("<workspace>"),
            home: Path::new("<run-home>"),
        };
        (
            self.env(&paths).into_iter().collect(),
            "removed: OPENCODE_*".into(),
        )
    }

    fn tested_version(&self) -> &'static str {
        TESTED_VERSION
    }

    fn request_size(&self) -> super::RequestSize {
        // measured on 1.18.33 (tests/real_opencode_behave.rs)
        super::RequestSize {
            agent: 25_120,
            skills_section: 200,
            grader: 9_255,
        }
    }

    fn preflight(&self) -> Result<Preflight, Stop> {
        let pre = super::require_version(
            self,
            "a `permission` block denying every tool but the allowed ones, project configuration off",
        )?;
        if crate::behave::exec::resolve_program("rg").is_none() {
            return Err(Stop {
                message: "opencode's skill tool needs `rg` (ripgrep) on PATH, and would try to download it from the network without it".into(),
                help: "install ripgrep (e.g. `apt-get install ripgrep`, `brew install ripgrep`)".into(),
            });
        }
        if self.model.is_none() {
            // opencode's own default comes from the user's configuration
            // and `opencode auth login`, which a run does not see: without a
            // model named here it would connect out to opencode.ai and fail
            return Err(Stop {
                message: "opencode has no model to reach under skillsift: every run gets fresh XDG folders and loses the OPENCODE_* variables, so the model your own configuration and `opencode auth login` choose is not used, and no run was started".into(),
                help: "set [behave.opencode] model = \"<provider>/<model>\" in skillsift.toml, and the provider's API key in its environment variable (e.g. ANTHROPIC_API_KEY for anthropic/…); a custom endpoint defined in your opencode configuration's `provider` is carried into the runs, or define it as [behave.opencode.provider.<id>]".into(),
            });
        }
        Ok(pre)
    }

    fn tools(&self) -> Option<Vec<String>> {
        let mut t: Vec<String> = ["read", "glob", "grep", "todowrite", "skill"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if self.edit {
            t.extend(["edit", "write"].map(String::from));
        }
        if !self.shell_commands.is_empty() {
            t.push("bash".into());
        }
        Some(t)
    }
}

/// Parse a whole stream.
pub fn parse(bytes: &[u8]) -> Trace {
    let mut t = Trace::default();
    let mut r = Final::default();
    let mut steps = 0u64;
    let mut last_reason: Option<String> = None;
    let mut text_after_last_tool = String::new();
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
        let part = &v["part"];
        match v["type"].as_str() {
            Some("text") => {
                let s = part["text"].as_str().unwrap_or("").to_string();
                text_after_last_tool.push_str(&s);
                t.events.push(Event::Text {
                    role: Role::Assistant,
                    text: s,
                });
            }
            Some("tool_use") => {
                let tool = part["tool"].as_str().unwrap_or("?").to_string();
                let state = &part["state"];
                let ok = state["status"] == "completed";
                let output = match state.get(if ok { "output" } else { "error" }) {
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                };
                t.events.push(Event::ToolUse {
                    name: tool.clone(),
                    input: state["input"].clone(),
                });
                t.events.push(Event::ToolResult {
                    text: output,
                    is_error: !ok,
                });
                text_after_last_tool.clear();
                if tool == "skill"
                    && let Some(name) = state["input"]["name"].as_str()
                {
                    let name = name.to_string();
                    if ok {
                        if !t.loads.iter().any(|l| l.name == name) {
                            t.loads.push(Load {
                                dir: state["metadata"]["dir"].as_str().map(str::to_string),
                                name,
                            });
                        }
                    } else if !t.failed_loads.contains(&name) {
                        t.failed_loads.push(name);
                    }
                }
            }
            Some("step_finish") => {
                steps += 1;
                let k = &part["tokens"];
                let n = |v: &Value| v.as_u64().unwrap_or(0);
                let cached = n(&k["cache"]["read"]).saturating_add(n(&k["cache"]["write"]));
                r.input_tokens = r
                    .input_tokens
                    .saturating_add(n(&k["input"]))
                    .saturating_add(cached);
                r.cached_input_tokens =
                    r.cached_input_tokens.saturating_add(n(&k["cache"]["read"]));
                r.output_tokens = r
                    .output_tokens
                    .saturating_add(n(&k["output"]))
                    .saturating_add(n(&k["reasoning"]));
                if let Some(c) = part["cost"].as_f64().filter(|c| c.is_finite()) {
                    r.cost_usd = Some(r.cost_usd.unwrap_or(0.0) + c);
                }
                last_reason = part["reason"].as_str().map(str::to_string);
            }
            Some("error") => {
                let e = &v["error"];
                errors.push(
                    e["data"]["message"]
                        .as_str()
                        .or_else(|| e["message"].as_str())
                        .or_else(|| e["name"].as_str())
                        .unwrap_or("error")
                        .to_string(),
                );
            }
            _ => {}
        }
    }
    r.num_turns = Some(steps);
    if !errors.is_empty() {
        r.is_error = true;
        r.subtype = "error".into();
        r.text = errors.join("; ");
        t.result = Some(r);
    } else if let Some(reason) = last_reason {
        r.is_error = reason != "stop";
        r.subtype = reason;
        r.text = text_after_last_tool;
        t.result = Some(r);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUN: &str = r#"{"type":"step_start","part":{"type":"step-start"}}
{"type":"tool_use","part":{"type":"tool","tool":"skill","callID":"c2","state":{"status":"completed","input":{"name":"run-tests"},"output":"<skill_content name=\"run-tests\">","metadata":{"name":"run-tests","dir":"/ws/.agents/skills/run-tests"}}}}
{"type":"step_finish","part":{"reason":"tool-calls","tokens":{"total":110,"input":60,"output":10,"reasoning":2,"cache":{"write":0,"read":40}},"cost":0.001}}
{"type":"tool_use","part":{"type":"tool","tool":"skill","callID":"c3","state":{"status":"error","input":{"name":"nope"},"error":"Skill \"nope\" not found. Available skills: run-tests"}}}
{"type":"step_finish","part":{"reason":"tool-calls","tokens":{"input":60,"output":10,"reasoning":0,"cache":{"write":0,"read":40}},"cost":0.001}}
{"type":"text","part":{"type":"text","text":"all done"}}
{"type":"step_finish","part":{"reason":"stop","tokens":{"input":60,"output":10,"reasoning":0,"cache":{"write":0,"read":40}},"cost":0.001}}
"#;

    #[test]
    fn loads_are_completed_skill_calls_and_tokens_get_their_cache_back() {
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
        assert!(!r.is_error);
        assert_eq!(r.text, "all done");
        assert_eq!(
            (r.input_tokens, r.cached_input_tokens, r.output_tokens),
            (300, 120, 32)
        );
        assert!((r.cost_usd.unwrap() - 0.003).abs() < 1e-12);
    }

    #[test]
    fn a_run_ended_by_a_refused_permission_did_not_finish() {
        let s = r#"{"type":"step_finish","part":{"reason":"tool-calls","tokens":{}}}"#;
        let r = parse(s.as_bytes()).result.unwrap();
        assert!(r.is_error);
        assert_eq!(r.subtype, "tool-calls");
    }

    #[test]
    fn the_permission_block_denies_everything_not_allowed() {
        let o = Opencode::new(&OpencodeConfig {
            shell_commands: vec!["npm test".into()],
            ..OpencodeConfig::default()
        })
        .unwrap();
        let p = o.permission();
        let keys: Vec<&String> = p.as_object().unwrap().keys().collect();
        assert_eq!(keys[0], "*");
        assert_eq!(p["*"], "deny");
        assert_eq!(p["external_directory"], "deny");
        assert_eq!(p["bash"]["*"], "deny");
        assert_eq!(p["bash"]["npm test *"], "allow");
        assert_eq!(p["skill"]["customize-opencode"], "deny");
        let g: Value = serde_json::from_str(&o.config(None, json!({"*": "deny"}))).unwrap();
        assert_eq!(g["permission"], json!({"*": "deny"}));
        assert_eq!(g["mcp"], json!({}));
    }
}
