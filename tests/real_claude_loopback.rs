//! The loopback endpoint against the real Claude Code CLI: it starts, sends
//! its first model request to 127.0.0.1 with the project's skill in the
//! listing, and ends with the scripted answer. Skips when `claude` is absent.

mod real_client;

use loopback::anthropic;
use std::time::Duration;

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn claude_reaches_the_loopback_endpoint_and_finishes_with_its_answer() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let server = real_client::anthropic_text_server("scripted answer");
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
    let out = real_client::claude_print(&claude, &ws, &home, &server.url(), "hello")
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
