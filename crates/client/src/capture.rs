//! Capturing the listing a real client sends: `skillsift listing
//! --capture <client>` serves a loopback model endpoint
//! ([`crate::loopback`]) speaking the client's API, runs the installed CLI
//! against it in a throwaway workspace with a fresh home (never through a
//! shell, time limited, its process group killed), and reads the skill
//! listing from the first model request. Nothing reaches the network and
//! no tokens are spent.
//!
//! Claude Code: three runs of about a second each: the catalog's skills
//! installed in `<workspace>/.claude/skills/` and its Markdown commands in
//! `<workspace>/.claude/commands/` (what the model sees for this catalog), an empty workspace (the built-in skills' full text), and an
//! empty workspace with a one-character budget (which built-ins the CLI
//! always shows whole). Codex, Gemini CLI and opencode: two runs, the
//! catalog in `<workspace>/.agents/skills/` and an empty workspace. The
//! built-ins are stored in the skillsift cache folder
//! (`builtins-<client>.json`, and a copy per CLI version); their text comes
//! from the user's own CLI and is never shipped with skillsift.

use super::{Builtin, ClientId, ClientIdExt};
use crate::catalog::Catalog;
use crate::config::Config;
use crate::exit::Fatal;
use crate::loopback::{Api, Server, anthropic};
use crate::process;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn unavailable(message: impl Into<String>) -> Fatal {
    Fatal::new(crate::exit::Exit::Unavailable, message)
}

/// What precedes the listing in the request.
pub const HEADER: &str = "The following skills are available for use with the Skill tool:\n\n";

/// One run's time limit.
const TIMEOUT: Duration = Duration::from_secs(90);

/// A stored capture of the client's built-in skills.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Builtins {
    pub client: ClientId,
    /// The CLI's version, as `claude --version` prints it.
    pub version: String,
    pub builtins: Vec<Builtin>,
}

/// What one capture found.
#[derive(Debug, Clone)]
pub struct Capture {
    pub version: String,
    /// The listing of the catalog run, after the header.
    pub listing: String,
    /// Catalog entries in the listing: (name, text after `- name: `).
    pub entries: Vec<(String, String)>,
    pub builtins: Builtins,
    /// Codex's skills roots table, one `- \`rN\` = \`<folder>\`` line each
    /// (what the aliases cost against its budget depends on it).
    pub roots: Vec<String>,
}

/// Split a captured listing into entries. An entry starts at a line
/// `- NAME: …` (or `- NAME` alone) whose NAME is one of `known` — or,
/// when `known_builtins` is `None`, any name of letters, digits and
/// `:_.-` — so a description holding its own `- x: y` lines stays whole.
pub fn parse(
    listing: &str,
    known: &HashSet<&str>,
    known_builtins: Option<&HashSet<&str>>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, seg) in listing.split("\n- ").enumerate() {
        let seg = if k == 0 {
            match seg.strip_prefix("- ") {
                Some(s) => s,
                None => continue,
            }
        } else {
            seg
        };
        let first = seg.split('\n').next().unwrap_or("");
        let (name, text) = match first.split_once(": ") {
            Some((n, _)) => (n, &seg[n.len() + 2..]),
            None => (first, &seg[first.len()..]),
        };
        let builtin_like = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '.' | '-'));
        let starts = known.contains(name)
            || match known_builtins {
                Some(b) => b.contains(name),
                None => builtin_like,
            };
        if starts && (text.is_empty() || first.contains(": ")) {
            let text = if first.contains(": ") { text } else { "" };
            out.push((name.to_string(), text.to_string()));
        } else if let Some(last) = out.last_mut() {
            last.1.push_str("\n- ");
            last.1.push_str(seg);
        }
    }
    out
}

/// The path of `program`: as given when it holds a `/`, else found on
/// `PATH`.
fn find(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program)).filter(|p| p.is_file());
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(program))
            .find(|p| p.is_file())
    })
}

/// Run `<program> --version`.
fn version(program: &Path) -> Result<String, Fatal> {
    crate::process::version_of(&program.display().to_string(), &["--version"]).map_err(unavailable)
}

fn run(
    program: &Path,
    args: &[String],
    cwd: &Path,
    env: Vec<(String, String)>,
) -> Result<Vec<u8>, Fatal> {
    run_with(program, args, cwd, env, b"")
}

fn run_with(
    program: &Path,
    args: &[String],
    cwd: &Path,
    env: Vec<(String, String)>,
    stdin: &[u8],
) -> Result<Vec<u8>, Fatal> {
    let keep: HashSet<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
    let env_remove = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| !keep.contains(k.as_str()) && k != "PATH")
        .collect();
    let program_s = program.display().to_string();
    let spec = process::Spec {
        program: &program_s,
        args,
        cwd,
        stdin,
        env,
        env_remove,
        timeout: TIMEOUT,
        max_stdout: 16 << 20,
        max_stderr: 1 << 20,
        grace: Duration::from_secs(2),
    };
    let out = process::run(&spec);
    if let Some(f) = out.failure(&program_s, TIMEOUT, (16 << 20, 1 << 20)) {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: String = err.lines().rev().take(3).collect::<Vec<_>>().join(" / ");
        return Err(unavailable(format!(
            "{f}{}",
            if tail.is_empty() {
                String::new()
            } else {
                format!(": {tail}")
            }
        )));
    }
    Ok(out.stdout)
}

/// One `claude -p` run against a fresh loopback endpoint in `ws` (under a
/// fresh `home`): the listing its first model request carries.
fn listing_of(
    claude: &Path,
    home: &Path,
    ws: &Path,
    budget: Option<usize>,
    plugins: &[PathBuf],
) -> Result<String, Fatal> {
    let server = Server::start(|r| {
        anthropic::housekeeping(r)
            .unwrap_or_else(|| anthropic::reply(r, &anthropic::Turn::text("ok")))
    })
    .map_err(|e| unavailable(format!("cannot start the loopback endpoint: {e}")))?;
    let mut env = vec![
        ("HOME".to_string(), home.display().to_string()),
        (
            "CLAUDE_CONFIG_DIR".to_string(),
            home.join(".claude").display().to_string(),
        ),
        ("ANTHROPIC_BASE_URL".to_string(), server.url()),
        ("ANTHROPIC_API_KEY".to_string(), "loopback".to_string()),
        (
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC".to_string(),
            "1".to_string(),
        ),
    ];
    if let Some(b) = budget {
        env.push(("SLASH_COMMAND_TOOL_CHAR_BUDGET".to_string(), b.to_string()));
    }
    let mut args: Vec<String> = ["-p", "--output-format", "json", "--no-session-persistence"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for p in plugins {
        args.push("--plugin-dir".into());
        args.push(p.display().to_string());
    }
    args.push("hello".into());
    run(claude, &args, ws, env)?;
    let first = server
        .requests()
        .into_iter()
        .filter(anthropic::is_messages)
        .filter_map(|r| r.json())
        .find(|b| !anthropic::tool_names(b).is_empty())
        .ok_or_else(|| {
            unavailable("the CLI sent no model request with tools to the loopback endpoint")
        })?;
    let listing = anthropic::texts(&first)
        .into_iter()
        .find_map(|t| t.split_once(HEADER).map(|(_, l)| l.to_string()))
        .unwrap_or_default();
    Ok(listing.trim_end_matches('\n').to_string())
}

/// Install the catalog's SKILL.md files below `skills` as the CLI would
/// find them: `<skills>/<path below the catalog's skills root>/`.
fn install(catalog: &Catalog, skills: &Path) -> Result<(), Fatal> {
    install_where(catalog, skills, |_| true)
}

/// [`install`] for the skills `keep` accepts.
fn install_where(
    catalog: &Catalog,
    skills: &Path,
    keep: impl Fn(&crate::catalog::Skill) -> bool,
) -> Result<(), Fatal> {
    let io = |e: std::io::Error| unavailable(format!("cannot set up the capture workspace: {e}"));
    for s in catalog.skills.iter().filter(|s| keep(s)) {
        let rel = super::installed_rel(catalog, s);
        let dir = skills.join(&rel);
        if dir.join("SKILL.md").exists() {
            continue;
        }
        std::fs::create_dir_all(&dir).map_err(io)?;
        // the text as read (secrets masked: the captured listing is printed)
        if let Some(src) = &s.source {
            std::fs::write(dir.join("SKILL.md"), src.text.as_bytes()).map_err(io)?;
        }
    }
    Ok(())
}

/// Whether Claude Code installs `skill` as part of a plugin.
fn in_plugin(catalog: &Catalog, skill: &crate::catalog::Skill) -> bool {
    catalog
        .unit_of_skill(skill)
        .is_some_and(|u| u.kind == crate::catalog::units::UnitKind::Plugin)
}

/// Install each plugin of the catalog below `root` as Claude Code loads
/// one with `--plugin-dir`: its SKILL.md files at their paths in the
/// plugin, and a manifest holding only its `name` and `skills` folders
/// (never its hooks, MCP servers or commands: nothing of a catalog runs
/// during a capture). A plugin without a manifest keeps its folder's name,
/// which is then its prefix. Returns the plugin folders.
fn install_plugins(catalog: &Catalog, root: &Path) -> Result<Vec<PathBuf>, Fatal> {
    let io = |e: std::io::Error| unavailable(format!("cannot set up the capture workspace: {e}"));
    let mut dirs = Vec::new();
    for (k, u) in catalog.units.iter().enumerate() {
        if u.kind != crate::catalog::units::UnitKind::Plugin {
            continue;
        }
        if u.loads_nothing.is_some() {
            continue;
        }
        // an entry's `skills` list is all Claude Code reads: as a
        // plugin.json's `skills` beside no `skills/` folder, the folders
        // moved below `listed/`, only what it lists installed
        let skills: Vec<&crate::catalog::Skill> = (0..catalog.skills.len())
            .filter(|&i| catalog.unit_of(i) == Some(k))
            .map(|i| &catalog.skills[i])
            .filter(|s| {
                !u.only_listed
                    || !matches!(
                        u.place(&s.rel_dir),
                        crate::catalog::units::Placement::Hidden(_)
                    )
            })
            .collect();
        if skills.is_empty() {
            continue;
        }
        let folder = match u.dir.rsplit('/').next() {
            Some(f) if !f.is_empty() && u.manifest.is_none() => f.to_string(),
            _ => "plugin".to_string(),
        };
        let dir = root.join(k.to_string()).join(folder);
        let below = |rel: &str| -> String {
            let rel = if rel == "." { "" } else { rel };
            let rel = if u.dir.is_empty() {
                rel
            } else {
                rel.strip_prefix(u.dir.as_str())
                    .unwrap_or(rel)
                    .trim_start_matches('/')
            };
            if u.only_listed {
                crate::catalog::discover::join_rel("listed", rel)
            } else {
                rel.to_string()
            }
        };
        std::fs::create_dir_all(&dir).map_err(io)?;
        if u.manifest.is_some() || u.only_listed {
            let extra: Vec<String> = u.extra.iter().map(|e| format!("./{}", below(e))).collect();
            let mut manifest = serde_json::json!({ "name": u.name });
            if !extra.is_empty() {
                manifest["skills"] = serde_json::json!(extra);
            }
            std::fs::create_dir_all(dir.join(".claude-plugin")).map_err(io)?;
            std::fs::write(dir.join(".claude-plugin/plugin.json"), manifest.to_string())
                .map_err(io)?;
        }
        if u.has_skills_dir && !u.only_listed {
            std::fs::create_dir_all(dir.join("skills")).map_err(io)?;
        }
        for s in skills {
            let to = dir.join(below(&s.rel_dir));
            std::fs::create_dir_all(&to).map_err(io)?;
            if let Some(src) = &s.source {
                std::fs::write(to.join("SKILL.md"), src.text.as_bytes()).map_err(io)?;
            }
        }
        dirs.push(dir);
    }
    Ok(dirs)
}

/// Capture `client`'s listing of `catalog` with the CLI `[behave]` names.
pub fn capture(client: ClientId, catalog: &Catalog, config: &Config) -> Result<Capture, Fatal> {
    let b = &config.behave;
    match client {
        ClientId::Spec => Err(Fatal::usage(
            "the specification is not a program: there is nothing to capture",
        )),
        ClientId::ClaudeCode => claude_code(catalog, &b.claude, config.route.listing_budget_chars),
        ClientId::Codex => other(client, catalog, &b.codex.program, config),
        ClientId::GeminiCli => other(client, catalog, &b.gemini.program, config),
        ClientId::Opencode => other(client, catalog, &b.opencode.program, config),
    }
}

/// The CLI `program` for `client`, found, or a message saying how to
/// install it.
fn installed(client: ClientId, program: &str) -> Result<PathBuf, Fatal> {
    find(program).ok_or_else(|| {
        let (package, key) = match client {
            ClientId::Codex => ("@openai/codex", "[behave.codex] program"),
            ClientId::GeminiCli => ("@google/gemini-cli", "[behave.gemini] program"),
            ClientId::Opencode => ("opencode-ai", "[behave.opencode] program"),
            _ => ("@anthropic-ai/claude-code", "[behave] claude"),
        };
        Fatal::usage(format!("`{program}` is not installed (not found on PATH)")).with_help(
            format!(
                "install {} (`npm install -g {package}`), or set {key} to its path",
                client.label()
            ),
        )
    })
}

/// Codex, Gemini CLI or opencode: the catalog's listing, and the empty
/// workspace's for the built-ins.
fn other(
    client: ClientId,
    catalog: &Catalog,
    program: &str,
    config: &Config,
) -> Result<Capture, Fatal> {
    let cli = installed(client, program)?;
    let version = version(&cli)?;
    let tmp = tempfile::Builder::new()
        .prefix("skillsift-capture-")
        .tempdir()
        .map_err(|e| unavailable(format!("cannot create a temporary folder: {e}")))?;
    let io = |e: std::io::Error| unavailable(format!("cannot set up the capture workspace: {e}"));
    let (ws, empty) = (tmp.path().join("ws"), tmp.path().join("empty"));
    std::fs::create_dir_all(ws.join(".agents/skills")).map_err(io)?;
    std::fs::create_dir_all(&empty).map_err(io)?;
    install(catalog, &ws.join(".agents/skills"))?;
    for w in [&ws, &empty] {
        // a project root, so no client looks further up for skills
        std::fs::create_dir_all(w.join(".git")).map_err(io)?;
    }
    let (full, _) = other_listing(client, &cli, &empty)?;
    let (listing, roots) = other_listing(client, &cli, &ws)?;
    let builtins: Vec<Builtin> = entries(client, &full, &HashSet::new(), false)
        .into_iter()
        .map(|(name, text)| Builtin {
            name,
            text,
            fixed: false,
        })
        .collect();
    let bnames: HashSet<&str> = builtins.iter().map(|b| b.name.as_str()).collect();
    let predicted = client.model().listing(catalog, config, Some(&builtins));
    let names: HashSet<&str> = predicted.entries.iter().map(|e| e.name.as_str()).collect();
    let entries = entries(client, &listing, &names, listing.contains("(file: r1/"))
        .into_iter()
        .filter(|(n, _)| names.contains(n.as_str()) || !bnames.contains(n.as_str()))
        .collect();
    Ok(Capture {
        builtins: Builtins {
            client,
            version: version.clone(),
            builtins,
        },
        version,
        listing,
        entries,
        roots,
    })
}

/// One run of `client` in `ws` against a fresh loopback endpoint: the
/// skills section of its first model request, and its skills roots table
/// (Codex).
fn other_listing(client: ClientId, cli: &Path, ws: &Path) -> Result<(String, Vec<String>), Fatal> {
    use crate::loopback::{gemini::Gemini, openai_chat::Chat, openai_responses::Responses};
    let api: Box<dyn Api> = match client {
        ClientId::Codex => Box::new(Responses),
        ClientId::GeminiCli => Box::new(Gemini),
        _ => Box::new(Chat),
    };
    let api: std::sync::Arc<dyn Api> = std::sync::Arc::from(api);
    let a = api.clone();
    let server = Server::start(move |r| {
        if a.is_model_call(r) {
            a.reply(r, &crate::loopback::Turn::text("ok"))
        } else {
            a.housekeeping(r)
        }
    })
    .map_err(|e| unavailable(format!("cannot start the loopback endpoint: {e}")))?;
    let home = crate::process::scratch::home_scratch("capture-home", false)
        .or_else(|_| crate::process::scratch::scratch("capture-home", false))
        .map_err(unavailable)?;
    let h = home.path();
    let s = |p: &Path| p.display().to_string();
    let io = |e: std::io::Error| unavailable(format!("cannot set up the capture home: {e}"));
    let mut env = vec![("HOME".to_string(), s(h))];
    let mut args: Vec<String>;
    match client {
        ClientId::Codex => {
            std::fs::create_dir_all(h.join(".codex")).map_err(io)?;
            env.push(("CODEX_HOME".into(), s(&h.join(".codex"))));
            env.push(("SKILLSIFT_CAPTURE_KEY".into(), "loopback".into()));
            args = [
                "exec",
                "--json",
                "--ephemeral",
                "--skip-git-repo-check",
                "-s",
                "read-only",
                "--config",
                "model_provider=\"skillsift-capture\"",
            ]
            .map(String::from)
            .to_vec();
            args.push("--config".into());
            args.push(format!(
                "model_providers.skillsift-capture={{name=\"skillsift-capture\",base_url=\"{}/v1\",env_key=\"SKILLSIFT_CAPTURE_KEY\",wire_api=\"responses\",request_max_retries=0,stream_max_retries=0}}",
                server.url()
            ));
        }
        ClientId::GeminiCli => {
            std::fs::create_dir_all(h.join(".gemini")).map_err(io)?;
            std::fs::write(
                h.join(".gemini/settings.json"),
                r#"{"security":{"auth":{"selectedType":"gemini-api-key"}},"mcp":{"allowed":["__none__"]},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"general":{"enableAutoUpdate":false}}"#,
            )
            .map_err(io)?;
            env.push(("GEMINI_CLI_HOME".into(), s(h)));
            env.push(("GOOGLE_GEMINI_BASE_URL".into(), server.url()));
            env.push(("GEMINI_API_KEY".into(), "loopback".into()));
            args = [
                "-p",
                "",
                "-o",
                "stream-json",
                "--skip-trust",
                "--approval-mode",
                "default",
                "-e",
                "none",
                "-m",
                "gemini-2.5-pro",
            ]
            .map(String::from)
            .to_vec();
        }
        _ => {
            let config = serde_json::json!({
                "model": "skillsift/capture", "small_model": "skillsift/capture",
                "enabled_providers": ["skillsift"], "autoupdate": false, "share": "disabled",
                "mcp": {}, "plugin": [],
                "provider": {"skillsift": {"npm": "@ai-sdk/openai-compatible",
                    "options": {"baseURL": format!("{}/v1", server.url()), "apiKey": "loopback"},
                    "models": {"capture": {"tool_call": true, "limit": {"context": 200000, "output": 8192}}}}},
            });
            std::fs::write(h.join("opencode.json"), config.to_string()).map_err(io)?;
            // keeps opencode from fetching its plugin package from npm
            std::fs::create_dir_all(h.join(".config/opencode/node_modules")).map_err(io)?;
            std::fs::write(
                h.join(".config/opencode/package-lock.json"),
                crate::client::opencode::PLUGIN_LOCK,
            )
            .map_err(io)?;
            env.push(("OPENCODE_CONFIG".into(), s(&h.join("opencode.json"))));
            env.push(("OPENCODE_TEST_HOME".into(), s(h)));
            for (k, rel) in [
                ("XDG_CONFIG_HOME", ".config"),
                ("XDG_DATA_HOME", ".local/share"),
                ("XDG_CACHE_HOME", ".cache"),
                ("XDG_STATE_HOME", ".local/state"),
            ] {
                env.push((k.into(), s(&h.join(rel))));
            }
            for k in [
                "OPENCODE_DISABLE_PROJECT_CONFIG",
                "OPENCODE_DISABLE_DEFAULT_PLUGINS",
                "OPENCODE_DISABLE_AUTOUPDATE",
                "OPENCODE_DISABLE_SHARE",
                "OPENCODE_DISABLE_MODELS_FETCH",
                "OPENCODE_DISABLE_LSP_DOWNLOAD",
            ] {
                env.push((k.into(), "1".into()));
            }
            env.push(("PWD".into(), s(ws)));
            args = [
                "run", "--format", "json", "--pure", "--title", "capture", "--dir",
            ]
            .map(String::from)
            .to_vec();
            args.push(s(ws));
        }
    }
    run_with(cli, &args, ws, env, b"hello")?;
    let first = server
        .requests()
        .into_iter()
        .filter(|r| api.is_model_call(r))
        .filter_map(|r| r.json())
        .find(|b| !api.is_side_request(b) && !api.read(b).tools.is_empty())
        .ok_or_else(|| {
            unavailable("the CLI sent no model request with tools to the loopback endpoint")
        })?;
    let system = api.read(&first).system;
    let roots = system
        .split_once("### Skill roots\n")
        .map(|(_, r)| {
            r.lines()
                .take_while(|l| l.starts_with("- `r"))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Ok((section(client, &system), roots))
}

/// The skills section of a system prompt.
fn section(client: ClientId, system: &str) -> String {
    match client {
        ClientId::Codex => {
            let Some(start) = system.find("### Available skills\n") else {
                return String::new();
            };
            let rest = &system[start + "### Available skills\n".len()..];
            let end = ["\n### How to use skills", "\n</skills_instructions>"]
                .iter()
                .filter_map(|m| rest.find(m))
                .min()
                .unwrap_or(rest.len());
            rest[..end].to_string()
        }
        _ => {
            let Some(start) = system.find("<available_skills>") else {
                return String::new();
            };
            let rest = &system[start..];
            let end = rest
                .find("</available_skills>")
                .map_or(rest.len(), |e| e + "</available_skills>".len());
            rest[..end].to_string()
        }
    }
}

/// The (name, text) entries of a captured section. Codex: one line each,
/// the name the longest of `known` the line starts with (else up to the
/// first `: `), the text up to ` (file: …)`; with `bundled_root`, the
/// lines of the bundled skills' root `r0` are left out. Gemini CLI and opencode: one
/// `<skill>` element each.
pub fn entries(
    client: ClientId,
    section: &str,
    known: &HashSet<&str>,
    bundled_root: bool,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match client {
        ClientId::Codex => {
            for line in section.split('\n') {
                let Some(l) = line.strip_prefix("- ") else {
                    continue;
                };
                let Some((head, path)) = l.rsplit_once(" (file: ") else {
                    continue;
                };
                // the bundled skills' root is r0 when the catalog's is r1
                if bundled_root && path.starts_with("r0/") {
                    continue;
                }
                let name = known
                    .iter()
                    .filter(|n| head == format!("{n}:") || head.starts_with(&format!("{n}: ")))
                    .max_by_key(|n| n.len())
                    .map(|n| n.to_string())
                    .or_else(|| head.split_once(": ").map(|(n, _)| n.to_string()))
                    .unwrap_or_else(|| head.trim_end_matches(':').to_string());
                let rest = &head[name.len().min(head.len())..];
                let text = rest.strip_prefix(": ").unwrap_or("").to_string();
                out.push((name, text));
            }
        }
        _ => {
            let mut rest = section;
            while let Some(i) = rest.find("<skill>\n    <name>") {
                rest = &rest[i + "<skill>\n    <name>".len()..];
                let Some((name, r)) = rest.split_once("</name>\n    <description>") else {
                    break;
                };
                let Some((text, r)) = r.split_once("</description>\n    <location>") else {
                    break;
                };
                out.push((name.to_string(), text.to_string()));
                rest = r;
            }
        }
    }
    out
}

/// Capture Claude Code's listing of `catalog` with the CLI `program`.
pub fn claude_code(
    catalog: &Catalog,
    program: &str,
    budget: Option<usize>,
) -> Result<Capture, Fatal> {
    let claude = find(program).ok_or_else(|| {
        Fatal::usage(format!("`{program}` is not installed (not found on PATH)"))
            .with_help("install Claude Code (`npm install -g @anthropic-ai/claude-code`), or set [behave] claude to its path")
    })?;
    let version = version(&claude)?;
    let tmp = tempfile::Builder::new()
        .prefix("skillsift-capture-")
        .tempdir()
        .map_err(|e| unavailable(format!("cannot create a temporary folder: {e}")))?;
    // the workspace inside the fresh HOME: the CLI's search for project
    // skills walks up from the workspace and stops at HOME
    let home = tmp.path().join("home");
    let (ws, empty) = (home.join("ws"), home.join("empty"));
    let io = |e: std::io::Error| unavailable(format!("cannot set up the capture workspace: {e}"));
    std::fs::create_dir_all(ws.join(".claude/skills")).map_err(io)?;
    std::fs::create_dir_all(&empty).map_err(io)?;
    install_where(catalog, &ws.join(".claude/skills"), |s| {
        !in_plugin(catalog, s)
    })?;
    let plugins = install_plugins(catalog, &tmp.path().join("plugins"))?;
    // the project's Markdown commands, listed after its skills
    for c in &catalog.claude_commands {
        let to = ws.join(&c.file);
        if let (Some(dir), Some(src)) = (to.parent(), &c.source) {
            std::fs::create_dir_all(dir).map_err(io)?;
            std::fs::write(&to, src.text.as_bytes()).map_err(io)?;
        }
    }
    let full = listing_of(&claude, &home, &empty, None, &[])?;
    let fixed = listing_of(&claude, &home, &empty, Some(1), &[])?;
    let listing = listing_of(&claude, &home, &ws, budget, &plugins)?;
    let none = HashSet::new();
    let fixed: HashSet<String> = parse(&fixed, &none, None)
        .into_iter()
        .filter(|(_, t)| !t.is_empty())
        .map(|(n, _)| n)
        .collect();
    let builtins: Vec<Builtin> = parse(&full, &none, None)
        .into_iter()
        .map(|(name, text)| Builtin {
            fixed: fixed.contains(&name),
            name,
            text,
        })
        .collect();
    // the names entries start with: a plugin's skills by their listed
    // name (`<prefix>:<folder>`)
    let listed: Vec<String> = catalog
        .skills
        .iter()
        .map(|s| super::claude_code::listed_name(catalog, s, super::claude_code::Kind::Skill))
        .collect();
    let names: HashSet<&str> = listed
        .iter()
        .map(String::as_str)
        .chain(catalog.claude_commands.iter().map(|s| s.folder.as_str()))
        .collect();
    let bnames: HashSet<&str> = builtins.iter().map(|b| b.name.as_str()).collect();
    let entries = parse(&listing, &names, Some(&bnames))
        .into_iter()
        .filter(|(n, _)| names.contains(n.as_str()))
        .collect();
    Ok(Capture {
        builtins: Builtins {
            client: ClientId::ClaudeCode,
            version: version.clone(),
            builtins,
        },
        version,
        listing,
        entries,
        roots: Vec::new(),
    })
}

/// The stored built-ins file of `client` in `folder`.
fn stored(folder: &Path, client: ClientId, version: Option<&str>) -> PathBuf {
    match version {
        Some(v) => folder.join(format!("builtins-{client}-{v}.json")),
        None => folder.join(format!("builtins-{client}.json")),
    }
}

/// Store `b` as the latest capture and as the one of its version.
pub fn store(folder: &Path, b: &Builtins) -> Result<PathBuf, Fatal> {
    let io = |e: std::io::Error| {
        unavailable(format!(
            "cannot write the capture to {}: {e}",
            folder.display()
        ))
    };
    std::fs::create_dir_all(folder).map_err(io)?;
    let json = serde_json::to_string_pretty(b).unwrap_or_default() + "\n";
    let latest = stored(folder, b.client, None);
    std::fs::write(stored(folder, b.client, Some(&b.version)), &json).map_err(io)?;
    std::fs::write(&latest, &json).map_err(io)?;
    Ok(latest)
}

/// The latest stored capture of `client`'s built-ins, when there is one
/// that reads.
pub fn load(folder: Option<&Path>, client: ClientId) -> Option<(Builtins, PathBuf)> {
    let path = stored(folder?, client, None);
    let bytes = crate::catalog::read_bounded(&path, 16 << 20).ok()??;
    let b: Builtins = serde_json::from_slice(&bytes).ok()?;
    (b.client == client).then_some((b, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_description_with_its_own_list_stays_one_entry() {
        let known: HashSet<&str> = ["a", "b"].into_iter().collect();
        let builtins: HashSet<&str> = ["verify"].into_iter().collect();
        let l = "- a: one\n- x: not an entry\n- b\n- verify: builtin";
        assert_eq!(
            parse(l, &known, Some(&builtins)),
            vec![
                ("a".to_string(), "one\n- x: not an entry".to_string()),
                ("b".to_string(), String::new()),
                ("verify".to_string(), "builtin".to_string()),
            ]
        );
    }
}
