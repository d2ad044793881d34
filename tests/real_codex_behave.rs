//! Tier 3 end to end against the real Codex CLI: `skillsift check
//! --behavioral --agent codex` drives `codex exec` for every run and
//! grading, and the CLI talks to a scripted Responses API on 127.0.0.1
//! (tests/scripted). Run them against your installed version with
//! `SKILLSIFT_CODEX=$(command -v codex) cargo test --test
//! real_codex_behave`; each test skips with a message when `codex` is not
//! installed (and fails instead under `SKILLSIFT_REQUIRE_CLIENTS=1`).

mod real_client;
mod scripted;

use predicates::prelude::*;
use scripted::{Client, Kind, Lab, Script, cases};
use serde_json::json;

const POSITIVE: &str = "The invoice total is off by a cent, fix it";

#[test]
#[cfg_attr(
    skillsift_missing_codex,
    ignore = "needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn loads_count_in_with_runs_only_the_eval_is_graded_and_nothing_leaves_loopback() {
    let Some(codex) = real_client::cli("codex") else {
        return;
    };
    let lab = scripted::end_to_end(Client::Codex, &codex);
    scripted::assert_input_estimate(&lab);
    let e = &lab.endpoint;
    for r in e.runs() {
        let x = e.read(&r);
        // bundled system skills are off: the workspace's skills are the only root
        assert!(!x.system.contains("imagegen"), "bundled skills are listed");
        assert_eq!(
            x.tools,
            [
                "exec_command",
                "write_stdin",
                "request_user_input",
                "apply_patch",
                "view_image"
            ],
            "exactly these tools: no web search, no apps, no sub-agents"
        );
        assert!(x.system.contains("`sandbox_mode` is `workspace-write`"));
    }
    let with = lab.run("eval-1/with_skill/run-1");
    assert_eq!(with["tool_calls"]["command_execution"], 2);
    assert!(
        with["configured_tools"]
            .as_array()
            .unwrap()
            .contains(&json!("exec_command"))
    );
    // the grader has no shell and reads nothing it could change
    for g in &e.bodies(Kind::Grader) {
        let x = e.read(g);
        assert!(
            !x.tools.iter().any(|t| t == "exec_command"),
            "{:?}",
            x.tools
        );
        assert!(x.system.contains("`sandbox_mode` is `read-only`"));
    }
    // output tokens include the reasoning ones
    let t = lab.timing("eval-1/with_skill/run-1");
    assert_eq!(t["executor_output_tokens"], 210);
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(lab.iteration(1).join("plan.json")).unwrap())
            .unwrap();
    assert_eq!(plan["agent"]["kind"], "codex");
    assert_eq!(plan["agent"]["version"], with["client_version"]);
}

#[test]
#[cfg_attr(
    any(skillsift_missing_claude, skillsift_missing_codex),
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version; needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn two_clients_run_the_same_cases_are_gated_each_and_merge_only_when_asked() {
    let (Some(codex), Some(claude)) = (real_client::cli("codex"), real_client::cli("claude"))
    else {
        return;
    };
    let script = Script::new("demo-skill").cue("cent");
    let lab = Lab::for_client(
        Client::Codex,
        &codex,
        script.clone(),
        &cases(
            &[POSITIVE],
            &[],
            scripted::dialogue("Totals are off by a cent"),
        ),
    );
    // Claude Code answers from its own scripted endpoint, and grades both
    let anthropic = scripted::Endpoint::for_client(Client::Claude, script);
    lab.behave_config(&format!("claude = {:?}", claude.display().to_string()));
    let run = |extra: &[&str]| {
        let mut c = lab.behave(extra);
        c.env("ANTHROPIC_BASE_URL", anthropic.url())
            .env("ANTHROPIC_API_KEY", "loopback-key");
        c
    };
    run(&[
        "--trials",
        "1",
        "--agent",
        "codex,claude",
        "--grader-agent",
        "claude",
    ])
    .assert()
    .code(3)
    .stdout(predicate::str::contains("client   Codex 0.171.0"))
    .stdout(predicate::str::contains("client   Claude Code 2.1.197"))
    .stdout(predicate::str::contains(
        "clients  Codex 0.171.0: exit 3; Claude Code 2.1.197: exit 3",
    ));
    // Codex's runs and Claude Code's in their own iterations, each graded by Claude Code
    assert_eq!(lab.endpoint.bodies(Kind::Grader).len(), 0);
    assert_eq!(
        anthropic.bodies(Kind::Grader).len(),
        4,
        "2 eval runs per client"
    );
    assert_eq!(lab.run_in(1, "eval-1/with_skill/run-1")["client"], "codex");
    assert_eq!(lab.run_in(2, "eval-1/with_skill/run-1")["client"], "claude");
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(lab.iteration(1).join("plan.json")).unwrap())
            .unwrap();
    assert_eq!(plan["agent"]["grader_kind"], "claude");
    assert_eq!(plan["agent"]["grader_version"], "2.1.197");
    let (one, two) = (lab.iteration(1), lab.iteration(2));
    let merge = |extra: &[&str], out: &std::path::Path| {
        let mut c = assert_cmd::Command::cargo_bin("skillsift").unwrap();
        c.current_dir(lab.root.parent().unwrap())
            .args(["merge"])
            .arg(&one)
            .arg(&two)
            .args(["--skill", "catalog/skills/demo-skill", "--out"])
            .arg(out)
            .args(extra);
        c
    };
    let merged = lab.tmp.path().join("merged");
    merge(&[], &merged)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the folders were run by different clients (codex, claude)",
        ))
        .stderr(predicate::str::contains("--across-clients"));
    merge(&["--across-clients"], &merged)
        .assert()
        .code(3)
        .stdout(predicate::str::contains("client   claude"))
        .stdout(predicate::str::contains("client   codex"))
        .stdout(predicate::str::contains(
            "clients  claude insufficient, codex insufficient",
        ));
    for c in ["codex", "claude"] {
        assert!(merged.join(c).join("plan.json").is_file(), "{c}");
        assert!(
            merged
                .join(c)
                .join("eval-1/with_skill/run-1/run.json")
                .is_file()
        );
    }
    // the scorer reads the merged evidence per client too
    let out = assert_cmd::Command::cargo_bin("skillsift")
        .unwrap()
        .current_dir(lab.root.parent().unwrap())
        .args([
            "score",
            "--trials",
            "1",
            "--skill",
            "catalog/skills/demo-skill",
            "--format",
            "json",
        ])
        .arg("--cases")
        .arg(merged.join("cases.jsonl"))
        .arg("--observations")
        .arg(merged.join("observations.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let clients: Vec<&str> = doc["clients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["client"].as_str().unwrap())
        .collect();
    assert_eq!(clients, ["claude", "codex"]);
    assert_eq!(
        doc["clients"][1]["trigger"]["tp"], 2,
        "codex loaded the skill in both with runs"
    );
    assert_eq!(doc["verdict"], "insufficient");
    // the HTML report is about one client's iteration
    let report = |dir: &std::path::Path, html: &std::path::Path| {
        let mut c = assert_cmd::Command::cargo_bin("skillsift").unwrap();
        c.current_dir(lab.root.parent().unwrap())
            .arg("report")
            .arg(dir)
            .arg("-o")
            .arg(html);
        c
    };
    let html = lab.tmp.path().join("merged.html");
    report(&merged, &html)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "holds one iteration per client (claude, codex), as `merge --across-clients` writes",
        ));
    assert!(!html.exists());
    report(&merged.join("codex"), &html).assert().code(0);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("demo-skill"), "the codex iteration's page");
    // --format junit: one document holding each client's suites
    let junit = |out: &[u8]| {
        let xml = String::from_utf8(out.to_vec()).unwrap();
        assert!(xml.starts_with("<?xml"), "{xml}");
        assert_eq!(xml.matches("<?xml").count(), 1, "{xml}");
        assert_eq!(xml.matches("<testsuites ").count(), 1, "{xml}");
        assert!(!xml.contains("client   "), "{xml}");
        xml
    };
    let merged_junit = lab.tmp.path().join("merged-junit");
    let out = merge(&["--across-clients", "--format", "junit"], &merged_junit)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let xml = junit(&out.stdout);
    for c in ["claude", "codex"] {
        assert!(
            xml.contains(&format!("<testsuite name=\"{c}.demo-skill.trigger\"")),
            "{xml}"
        );
    }
    let out = run(&[
        "--trials",
        "1",
        "--agent",
        "codex,claude",
        "--grader-agent",
        "claude",
        "--format",
        "junit",
    ])
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let xml = junit(&out.stdout);
    let at = |c: &str| {
        xml.find(&format!("<testsuite name=\"{c}.demo-skill.trigger\""))
            .unwrap_or_else(|| panic!("{c}: {xml}"))
    };
    assert!(at("codex") < at("claude"), "in --agent order");
    assert!(xml.contains("<property name=\"client\" value=\"codex\"/>"));
    assert_eq!(lab.leftovers(), Vec::<String>::new());
    assert_eq!(lab.escaped(), Vec::<String>::new());
}

#[test]
#[cfg_attr(
    skillsift_missing_codex,
    ignore = "needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn a_trigger_run_stops_once_decided_and_runs_in_the_with_arm_only() {
    let Some(cli) = real_client::cli("codex") else {
        return;
    };
    let (_lab, after) = scripted::trigger_decisions(Client::Codex, &cli);
    let before = scripted::trigger_runs_full(Client::Codex, &cli);
    eprintln!("codex trigger cost per case (requests, tokens): decide {after:?}, full {before:?}");
    assert!(
        before[0].0 >= 7,
        "full: the load, 5 more turns, the answer: {before:?}"
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_codex,
    ignore = "needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn a_model_that_never_loads_a_skill_fails_the_canary_before_any_suite_run() {
    let Some(cli) = real_client::cli("codex") else {
        return;
    };
    scripted::canary_fails(Client::Codex, &cli);
}
