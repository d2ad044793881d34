//! Capturing the listing a real client sends: `skillgate listing
//! --capture claude-code` serves a loopback model endpoint
//! ([`crate::loopback`]), runs the installed `claude` against it in a
//! throwaway workspace with a fresh `HOME` (never through a shell, time
//! limited, its process group killed), and reads the skill listing from
//! the first model request. Nothing reaches the network and no tokens are
//! spent.
//!
//! Three runs of about a second each: the catalog's skills installed in
//! `<workspace>/.claude/skills/` (what the model sees for this catalog),
//! an empty workspace (the built-in skills' full text), and an empty
//! workspace with a one-character budget (which built-ins the CLI always
//! shows whole). The built-ins are stored in the skillgate cache folder
//! (`builtins-claude-code.json`, and a copy per CLI version); their text
//! comes from the user's own CLI and is never shipped with skillgate.

use super::{Builtin, ClientId};
use crate::behave::process;
use crate::catalog::Catalog;
use crate::exit::Fatal;
use crate::loopback::{Server, anthropic};
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

/// Run `claude --version`.
fn version(claude: &Path) -> Result<String, Fatal> {
    let out = run(claude, &["--version".into()], Path::new("/"), Vec::new())?;
    let v = String::from_utf8_lossy(&out).trim().to_string();
    Ok(v.split_whitespace().next().unwrap_or("").to_string())
}

fn run(
    program: &Path,
    args: &[String],
    cwd: &Path,
    env: Vec<(String, String)>,
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
        stdin: b"",
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
    let args: Vec<String> = [
        "-p",
        "--output-format",
        "json",
        "--no-session-persistence",
        "hello",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
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

/// Where the skills root of each skill is, for installing the catalog as
/// the CLI would find it: `<rel below its root>`.
fn install(catalog: &Catalog, skills: &Path) -> Result<(), Fatal> {
    let io = |e: std::io::Error| unavailable(format!("cannot set up the capture workspace: {e}"));
    for s in &catalog.skills {
        let rel = match catalog
            .roots
            .iter()
            .filter(|r| r.is_empty() || s.rel_dir.starts_with(&format!("{r}/")))
            .max_by_key(|r| r.len())
        {
            Some(r) if !r.is_empty() => s.rel_dir[r.len() + 1..].to_string(),
            _ if s.rel_dir == "." => s.folder.clone(),
            _ => s.rel_dir.clone(),
        };
        let dir = skills.join(&rel);
        if dir.join("SKILL.md").exists() {
            continue;
        }
        std::fs::create_dir_all(&dir).map_err(io)?;
        if let Ok(bytes) = std::fs::read(s.dir.join("SKILL.md")) {
            std::fs::write(dir.join("SKILL.md"), bytes).map_err(io)?;
        }
    }
    Ok(())
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
        .prefix("skillgate-capture-")
        .tempdir()
        .map_err(|e| unavailable(format!("cannot create a temporary folder: {e}")))?;
    // the workspace inside the fresh HOME: the CLI's search for project
    // skills walks up from the workspace and stops at HOME
    let home = tmp.path().join("home");
    let (ws, empty) = (home.join("ws"), home.join("empty"));
    let io = |e: std::io::Error| unavailable(format!("cannot set up the capture workspace: {e}"));
    std::fs::create_dir_all(ws.join(".claude/skills")).map_err(io)?;
    std::fs::create_dir_all(&empty).map_err(io)?;
    install(catalog, &ws.join(".claude/skills"))?;
    let full = listing_of(&claude, &home, &empty, None)?;
    let fixed = listing_of(&claude, &home, &empty, Some(1))?;
    let listing = listing_of(&claude, &home, &ws, budget)?;
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
    let names: HashSet<&str> = catalog.skills.iter().map(|s| s.folder.as_str()).collect();
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
