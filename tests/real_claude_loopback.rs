//! The loopback endpoint against the real Claude Code CLI: it starts, sends
//! its first model request to 127.0.0.1 with the project's skill in the
//! listing, and ends with the scripted answer. Skips when `claude` is absent.

mod real_client;

use loopback::{Server, anthropic};
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn claude_reaches_the_loopback_endpoint_and_finishes_with_its_answer() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let server = Server::start(|r| {
        anthropic::housekeeping(r)
            .unwrap_or_else(|| anthropic::reply(r, &anthropic::Turn::text("scripted answer")))
    })
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (home, ws) = (tmp.path().join("home"), tmp.path().join("ws"));
    let skill = ws.join(".claude/skills/run-tests");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: run-tests\ndescription: Runs the suite. Use when tests fail.\n---\n# Run\n",
    )
    .unwrap();
    let out = Command::new(claude)
        .args(["-p", "--verbose", "--output-format", "stream-json", "hello"])
        .current_dir(&ws)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("CLAUDE_CONFIG_DIR", home.join(".claude"))
        .env("ANTHROPIC_BASE_URL", server.url())
        .env("ANTHROPIC_API_KEY", "loopback")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "result")
        .expect("a result line");
    assert_eq!(result["result"], "scripted answer");
    let first = server
        .wait_for(Duration::from_secs(5), anthropic::is_messages)
        .expect("a messages request");
    let texts = anthropic::texts(&first.json().unwrap());
    assert!(
        texts
            .iter()
            .any(|t| t.contains("- run-tests: Runs the suite. Use when tests fail.")),
        "the listing names the skill"
    );
}
