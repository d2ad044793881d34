//! What Claude Code does with the values of its own keys (SG610–SG616),
//! checked against the real CLI where a run can show it: the tools it
//! offers are tools SG615 knows, its agents are built-ins SG612 knows, an
//! unknown hook event drops a skill's `hooks` (SG613), and
//! a skill with `user-invocable: false` and `disable-model-invocation:
//! true` (SG616) is neither listed for the model nor a slash command, and
//! `/name` never reaches the model. Skips when `claude` is absent.

mod real_client;

use client::claude_code_keys::{BUILTIN_AGENTS, TOOLS};
use loopback::{Server, anthropic};
use std::path::Path;
use std::time::Duration;

/// Run `claude -p <prompt>` in `ws` against `server`: stdout.
fn run(claude: &Path, ws: &Path, home: &Path, server: &Server, prompt: &str) -> String {
    let out = real_client::claude_print(claude, ws, home, &server.url(), prompt)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `system`/`init` line of a stream-json run.
fn init_line(stdout: &str) -> serde_json::Value {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "system" && v["subtype"] == "init")
        .expect("an init line")
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn claude_offers_only_tools_sg615_knows_and_never_runs_a_skill_nobody_may_invoke() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let server = real_client::anthropic_text_server("scripted answer");
    let tmp = tempfile::tempdir().unwrap();
    let (home, ws) = (tmp.path().join("home"), tmp.path().join("ws"));
    std::fs::create_dir_all(&home).unwrap();
    let hook = |event: &str| {
        format!(
            "hooks:\n  {event}:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo hi\n"
        )
    };
    for (name, keys) in [
        ("run-tests", String::new()),
        ("hooks-good", hook("PreToolUse")),
        ("hooks-bad", hook("preToolUse")),
        (
            "both-off",
            "user-invocable: false\ndisable-model-invocation: true\n".to_string(),
        ),
    ] {
        let dir = ws.join(".claude/skills").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Runs {name}. Use when asked.\n{keys}---\n# Body of {name}\n"),
        )
        .unwrap();
    }
    let out = real_client::claude_print(&claude, &ws, &home, &server.url(), "hello")
        .arg("--debug")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    // SG613: one unknown event drops the skill's whole `hooks` block; the
    // CLI says so only in its debug log
    let debug: String = std::fs::read_dir(home.join(".claude/debug"))
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "txt"))
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    assert!(
        debug.contains("Invalid hooks in skill 'hooks-bad'"),
        "{debug}"
    );
    assert!(!debug.contains("Invalid hooks in skill 'hooks-good'"));
    assert!(stdout.contains("scripted answer"), "{stdout}");
    let first = server
        .wait_for(Duration::from_secs(5), anthropic::is_messages)
        .expect("a messages request");
    let body = first.json().unwrap();
    let offered = anthropic::tool_names(&body);
    assert!(offered.iter().any(|t| t == "Bash"), "{offered:?}");
    let unknown: Vec<&String> = offered
        .iter()
        .filter(|t| !t.starts_with("mcp__") && !TOOLS.contains(&t.as_str()))
        .collect();
    assert!(unknown.is_empty(), "tools SG615 does not know: {unknown:?}");
    let texts = anthropic::texts(&body).join("\n");
    assert!(
        texts.contains("- run-tests: Runs run-tests."),
        "the listing"
    );
    assert!(
        !texts.contains("both-off"),
        "a skill the model may not invoke is not listed"
    );
    // the session's own report: the agents are built-ins SG612 knows, and
    // the skill is neither a skill nor a slash command of the session
    let init = init_line(&stdout);
    for a in init["agents"].as_array().unwrap() {
        assert!(BUILTIN_AGENTS.contains(&a.as_str().unwrap()), "{a}");
    }
    for list in ["skills", "slash_commands"] {
        let names: Vec<&str> = init[list]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str())
            .collect();
        assert!(names.contains(&"run-tests"), "{list}: {names:?}");
        assert!(!names.contains(&"both-off"), "{list}: {names:?}");
    }
    // the user cannot run it either: `/both-off` never reaches the model
    let stdout = run(&claude, &ws, &home, &server, "/both-off");
    let result = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "result")
        .expect("a result line");
    assert_eq!(result["num_turns"], 0, "{stdout}");
    assert_ne!(result["result"], "scripted answer", "{stdout}");
    assert!(!stdout.contains("Body of both-off"), "{stdout}");
}
