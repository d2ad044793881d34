//! The conformance test: skillsift's predicted Claude Code listing equals,
//! skill by skill and byte for byte, the listing the real CLI sends to a
//! loopback endpoint. `skillsift listing --verify` runs the installed
//! `claude` (three runs of about a second) and compares.
//!
//! - `tests/fixtures/client/claude-code/`: one skill per fact of
//!   `../shared/clients/claude-code.md` (split at the first `---`, BOM,
//!   blank first line, the YAML retry, tabs, numbers and booleans, body
//!   fallback, duplicates, comments, `when_to_use`, the 1,536-unit cut and
//!   a split emoji, hidden and conditional skills, nesting, names).
//! - `tests/fixtures/client/claude-code-commands/`: a project's slash
//!   commands (`.claude/commands/**/*.md`) beside its skills: nested
//!   (`ns:inner`), no description (the first body line, a heading's text,
//!   `Custom command` for an empty body), `disable-model-invocation`, a
//!   command named like a skill, `: ` in a description, broken YAML,
//!   `when_to_use`, `argument-hint`, `paths:`, the 1,536-unit cut, and the
//!   order (skills by name, then commands by name).
//! - `tests/fixtures/client/claude-code-plugins/`: plugins loaded with
//!   `--plugin-dir` (a manifest with its hooks never copied): a plugin
//!   named differently from its folder (`plugins/tools` is `toolkit`, and
//!   `plugins/aaa` is `zeta`, listed first, in the order loaded), one with
//!   no manifest (its folder's name), a manifest `skills` key (a folder
//!   holding a SKILL.md, named by its frontmatter; a folder read one level
//!   deep; a folder it does not name, not listed), and a SKILL.md nested
//!   in another skill, in a plugin and in the project (not listed).
//! - `../shared/corpora/wild-sample/`: 1,000 real SKILL.md files, with a
//!   budget large enough that every entry shows its text.
//!
//! Skips with a message when `claude` is absent (SKILLSIFT_REQUIRE_CLIENTS
//! makes that a failure), and the wild test when the corpus is absent.

mod common;
mod real_client;

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn verify(root: &Path, claude: &Path, extra: &[&str]) -> Value {
    let cache = tempfile::tempdir().unwrap();
    let path = format!(
        "{}:{}",
        claude.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .arg("listing")
        .arg(root)
        .args(["--verify", "--format", "json"])
        .args(extra)
        .env("PATH", path)
        .env("SKILLSIFT_CACHE_DIR", cache.path())
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("no JSON: {}", String::from_utf8_lossy(&out.stderr)));
    let v = &doc["verify"];
    assert_eq!(
        v["mismatches"],
        serde_json::json!([]),
        "skills whose captured entry differs from the prediction"
    );
    assert_eq!(out.status.code(), Some(0));
    // the capture stored the built-ins, keyed by version
    assert!(cache.path().join("builtins-claude-code.json").is_file());
    doc
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn the_tricky_skills_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code");
    let doc = verify(&root, &claude, &[]);
    assert_eq!(doc["verify"]["skills"], 39);
    let entry = |name: &str| {
        doc["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("{name}"))
            .clone()
    };
    // what the facts page says, as the CLI confirmed it
    assert_eq!(entry("ends-mid-line")["text"], "Convert A");
    assert_eq!(
        entry("do-not-use-for")["text"],
        "Deploys the app. DO NOT USE FOR: local builds (use build instead)"
    );
    assert_eq!(entry("number")["text"], "1.1");
    assert_eq!(entry("bom")["text"], "---");
    assert_eq!(entry("duplicate-key")["text"], "last text");
    assert_eq!(
        entry("when-to-use")["text"],
        "Reviews code. - Before merging."
    );
    assert!(
        entry("emoji-cut")["text"]
            .as_str()
            .unwrap()
            .ends_with("\u{fffd}…")
    );
    assert_eq!(entry("disabled")["listed"], false);
    assert_eq!(entry("too-deep")["reason"]["kind"], "too-deep");
    assert_eq!(entry("Upper Case")["listed"], true);
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn plugins_and_nested_skills_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code-plugins");
    let doc = verify(&root, &claude, &[]);
    assert_eq!(doc["verify"]["skills"], 10);
    assert_eq!(doc["verify"]["captured_order"], Value::Null, "{doc:#}");
    let listed: Vec<&str> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["listed"] == true)
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        [
            "outer",
            "zeta:z1",
            "bare:b1",
            "kit:top",
            "kit:solo-skill",
            "kit:m1",
            "toolkit:lint-fix"
        ]
    );
    let reason = |name: &str| {
        doc["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("{name}"))["reason"]["kind"]
            .clone()
    };
    assert_eq!(reason("inner"), "inside-skill");
    assert_eq!(reason("toolkit:nested"), "inside-skill");
    assert_eq!(reason("kit:s"), "in-plugin");
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn the_project_commands_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code-commands");
    let doc = verify(&root, &claude, &[]);
    // every entry compared, and the order too (no `captured_order`)
    assert_eq!(doc["verify"]["skills"], 2);
    assert_eq!(doc["verify"]["commands"], 16);
    assert!(doc["verify"].get("captured_order").is_none());
    let commands = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "command" && e["listed"] == true)
        .count();
    assert_eq!(commands, 15);
    // and again over budget, where commands show their name only
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("skillsift.toml");
    std::fs::write(&config, "[route]\nlisting-budget-chars = 3000\n").unwrap();
    let doc = verify(&root, &claude, &["--config", config.to_str().unwrap()]);
    assert!(
        doc["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "command" && e["name_only"] == true)
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_thousand_real_skills_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(wild) = common::wild_sample() else {
        return;
    };
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    // one folder per skill, named uniquely, as a project's .claude/skills
    let tmp = tempfile::tempdir().unwrap();
    let skills = tmp.path().join("skills");
    for (i, f) in common::skill_files(&wild).iter().enumerate() {
        let src = wild.join(f);
        let folder = Path::new(f)
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let dir = skills.join(format!("{i:04}-{folder}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(&src, dir.join("SKILL.md")).unwrap();
    }
    let config = tmp.path().join("skillsift.toml");
    std::fs::write(&config, "[route]\nlisting-budget-chars = 100000000\n").unwrap();
    let doc = verify(tmp.path(), &claude, &["--config", config.to_str().unwrap()]);
    assert_eq!(doc["verify"]["skills"], 1000);
}

/// `claude plugin <args…>` with the private `home`; panics with its output
/// when it fails.
fn claude_plugin(claude: &Path, home: &Path, ws: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new(claude)
        .arg("plugin")
        .args(args)
        .current_dir(ws)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("CLAUDE_CONFIG_DIR", home.join(".claude"))
        .env("ANTHROPIC_API_KEY", "loopback")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The marketplace layouts of `../shared/clients/claude-code.md`
/// ("Marketplace entries that are their own manifest") and docs/clients.md,
/// installed as a user installs them: `claude plugin marketplace add` of
/// the fixture and `claude plugin install` of every entry, in order, then
/// one `claude -p` against a loopback endpoint. The skills the CLI lists
/// are, name for name and in order, the ones `skillsift listing` lists:
/// entries named by their `name` (no plugin.json), a `skills` list
/// replacing the scan of `skills/` (a frontmatter name for a folder
/// holding a SKILL.md, folder names one level below one that does not, a
/// folder no entry lists never shown), a SKILL.md two entries list shown
/// once under the first, an entry without `skills` read from its
/// `skills/`, conflicting manifests and `skills` given as objects loading
/// nothing.
#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn marketplace_entries_are_listed_exactly_as_the_real_cli_installs_them() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code-marketplace");
    let t = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (home, ws) = (t.path().join("home"), t.path().join("ws"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&ws).unwrap();
    let added = claude_plugin(
        &claude,
        &home,
        &ws,
        &["marketplace", "add", fixture.to_str().unwrap()],
    );
    assert!(added.contains("Successfully added"), "{added}");
    let mut refused = Vec::new();
    for entry in ["doc-pack", "art-pack", "tools", "clash", "objects"] {
        let said = claude_plugin(
            &claude,
            &home,
            &ws,
            &["install", &format!("{entry}@skillsift-fixture-market")],
        );
        if !said.contains("Successfully installed") {
            refused.push(entry);
        }
    }
    // the conflicting manifests install "successfully"; objects do not
    assert_eq!(refused, ["objects"]);
    let server = real_client::anthropic_text_server("ok");
    let out = real_client::claude_print(&claude, &ws, &home, &server.url(), "hello")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = server
        .requests()
        .into_iter()
        .filter(loopback::anthropic::is_messages)
        .filter_map(|r| r.json())
        .find(|b| !loopback::anthropic::tool_names(b).is_empty())
        .expect("a model request with tools");
    let listing = loopback::anthropic::texts(&first)
        .into_iter()
        .find_map(|t| {
            t.split_once("The following skills are available for use with the Skill tool:\n\n")
                .map(|(_, l)| l.to_string())
        })
        .expect("the skill listing");
    // the fixture's skills carry `(mkt-…)`; the built-ins do not
    let real: Vec<String> = listing
        .lines()
        .filter(|l| l.contains("(mkt-"))
        .filter_map(|l| {
            l.strip_prefix("- ")?
                .split_once(": ")
                .map(|(n, _)| n.to_string())
        })
        .collect();
    let doc = common::skillsift()
        .arg("listing")
        .arg(&fixture)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&doc.stdout).unwrap();
    let predicted: Vec<String> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["listed"] == true)
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        real,
        [
            "doc-pack:alpha",
            "doc-pack:beta-renamed",
            "doc-pack:nested-one",
            "art-pack:gamma",
            "tools:hammer"
        ]
    );
    assert_eq!(predicted, real);
}

/// A repository that is one plugin (a plugin.json at its root) holding a
/// SKILL.md at its root beside skill folders and no `skills/`, as
/// heygen-com/heygen-stack is laid out: loaded with `--plugin-dir`, the
/// CLI lists the root skill alone, named by its frontmatter; the sibling
/// skills are not listed, and skillsift says why.
#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_root_skill_beside_sibling_skills_in_a_plugin_is_listed_alone_as_the_real_cli_lists_it() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code-plugin-root");
    let doc = verify(&root, &claude, &[]);
    assert_eq!(doc["verify"]["skills"], 3);
    let listed: Vec<&str> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["listed"] == true)
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["stack:stack-root"]);
    for sibling in ["stack:avatar", "stack:video"] {
        let e = real_client::entry(&doc, sibling);
        assert_eq!(e["reason"]["kind"], "in-plugin", "{e:#}");
        assert!(
            e["reason"]["message"]
                .as_str()
                .unwrap()
                .contains("lists only a SKILL.md in . itself (it has no `skills/` folder)"),
            "{e:#}"
        );
    }
}
