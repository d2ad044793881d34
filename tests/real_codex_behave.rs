//! Tier 3 end to end against the real Codex CLI: `skillgate check
//! --behavioral --agent codex` drives `codex exec` for every run and
//! grading, and the CLI talks to a scripted Responses API on 127.0.0.1
//! (tests/scripted). Run them against your installed version with
//! `SKILLGATE_CODEX=$(command -v codex) cargo test --test
//! real_codex_behave`; each test skips with a message when `codex` is not
//! installed (and fails instead under `SKILLGATE_REQUIRE_CLIENTS=1`).

mod real_client;
mod scripted;

use predicates::prelude::*;
use scripted::{Client, Kind, Lab, Load, Script, cases, execution};
use serde_json::json;

const POSITIVE: &str = "The invoice total is off by a cent, fix it";
const NEGATIVE: &str = "Update the architecture diagram in the docs";

fn lab(script: Script, case_file: &str) -> Option<Lab> {
    let codex = real_client::cli("codex")?;
    Some(Lab::for_client(Client::Codex, &codex, script, case_file))
}

#[test]
fn loads_count_in_with_runs_only_the_eval_is_graded_and_nothing_leaves_loopback() {
    let Some(lab) = lab(
        Script::new("demo-skill")
            .cue("cent")
            .load(Load::Always)
            .bash("echo checked")
            .usage(1000, 400, 50, 20),
        &cases(
            &[POSITIVE],
            &[NEGATIVE],
            execution("The invoice total is off by a cent: fix src/total.js"),
        ),
    ) else {
        return;
    };
    lab.behave(&["--trials", "1"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("TP 2  FP 0  FN 0  TN 1"))
        .stdout(predicate::str::contains(
            "pass rate  with skill 1.000  without 1.000",
        ))
        .stderr(predicate::str::contains(
            "run 1/6 positive-1 with #1: exit code 0, loaded demo-skill",
        ));
    let e = &lab.endpoint;
    let runs = e.runs();
    assert_eq!(runs.len(), 6, "3 cases × 2 arms");
    for (i, r) in runs.iter().enumerate() {
        assert_eq!(
            e.lists(r, "demo-skill"),
            i % 2 == 0,
            "run {}: the listing names the skill in with runs only",
            i + 1
        );
        let x = e.read(r);
        assert!(!e.lists(r, "other-skill"));
        // bundled system skills are off: the workspace's skills are the only root
        assert!(!x.system.contains("imagegen"), "bundled skills are listed");
        assert_eq!(
            x.tools,
            ["exec_command", "write_stdin", "request_user_input", "apply_patch", "view_image"],
            "exactly these tools: no web search, no apps, no sub-agents"
        );
        assert!(x.system.contains("`sandbox_mode` is `workspace-write`"));
    }
    // the guessed load in the baseline read nothing and counted nothing
    for run in ["positive-1/without_skill/run-1", "eval-1/without_skill/run-1"] {
        let r = lab.run(run);
        assert_eq!(r["invoked_skills"], json!([]), "{run}");
        assert_eq!(r["failed_loads"], json!(["demo-skill"]), "{run}");
        assert_eq!(r["evidence"], true, "{run}");
    }
    let with = lab.run("eval-1/with_skill/run-1");
    assert_eq!(with["invoked_skills"], json!(["demo-skill"]));
    assert_eq!(with["client"], "codex");
    assert_eq!(with["client_version"], "0.171.0");
    assert_eq!(with["tool_calls"]["command_execution"], 2);
    assert!(with["configured_tools"].as_array().unwrap().contains(&json!("exec_command")));
    // one grader request per graded run, with no shell
    let graders = e.bodies(Kind::Grader);
    assert_eq!(graders.len(), 2);
    for g in &graders {
        let x = e.read(g);
        assert!(!x.tools.iter().any(|t| t == "exec_command"), "{:?}", x.tools);
        assert!(x.system.contains("`sandbox_mode` is `read-only`"));
    }
    // tokens: input includes the cached ones, output the reasoning
    let t = lab.timing("eval-1/with_skill/run-1");
    assert_eq!(t["executor_input_tokens"], 3000, "three model calls of 1,000");
    assert_eq!(t["executor_cached_input_tokens"], 1200);
    assert_eq!(t["executor_output_tokens"], 210);
    let obs = lab.observations();
    assert_eq!(obs.len(), 6);
    assert!(obs.iter().all(|o| o["client"] == "codex"));
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(lab.iteration(1).join("plan.json")).unwrap())
            .unwrap();
    assert_eq!(plan["agent"]["kind"], "codex");
    assert_eq!(plan["agent"]["version"], "0.171.0");
    assert_eq!(lab.leftovers(), Vec::<String>::new(), "nothing left behind");
    assert_eq!(lab.escaped(), Vec::<String>::new(), "no request left 127.0.0.1");
}
