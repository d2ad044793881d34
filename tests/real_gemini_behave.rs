//! Tier 3 end to end against the real Gemini CLI: `skillgate check
//! --behavioral --agent gemini` drives `gemini -p` for every run and
//! grading, and the CLI talks to a scripted Gemini API on 127.0.0.1
//! (tests/scripted). Run them against your installed version with
//! `SKILLGATE_GEMINI=$(command -v gemini) cargo test --test
//! real_gemini_behave`; each test skips with a message when `gemini` is
//! not installed (and fails instead under `SKILLGATE_REQUIRE_CLIENTS=1`).

mod real_client;
mod scripted;

use predicates::prelude::*;
use scripted::{Client, Kind, Lab, Load, Script, cases, execution};
use serde_json::json;

const POSITIVE: &str = "The invoice total is off by a cent, fix it";
const NEGATIVE: &str = "Update the architecture diagram in the docs";

fn lab(script: Script, case_file: &str) -> Option<Lab> {
    let gemini = real_client::cli("gemini")?;
    Some(Lab::for_client(Client::Gemini, &gemini, script, case_file))
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
        assert!(!e.lists(r, "other-skill"));
        let x = e.read(r);
        assert!(
            !x.system.contains("<name>skill-creator</name>"),
            "bundled skills are off"
        );
        let mut tools = x.tools.clone();
        tools.sort();
        assert_eq!(
            tools,
            [
                "activate_skill",
                "glob",
                "grep_search",
                "list_directory",
                "read_file",
                "replace",
                "run_shell_command",
                "write_file"
            ],
            "exactly the configured tools: no web search, no sub-agents, no MCP"
        );
    }
    for run in [
        "positive-1/without_skill/run-1",
        "eval-1/without_skill/run-1",
    ] {
        let r = lab.run(run);
        assert_eq!(r["invoked_skills"], json!([]), "{run}");
        assert_eq!(r["failed_loads"], json!(["demo-skill"]), "{run}");
        assert_eq!(r["evidence"], true, "{run}");
    }
    let with = lab.run("eval-1/with_skill/run-1");
    assert_eq!(with["invoked_skills"], json!(["demo-skill"]));
    assert_eq!(with["client"], "gemini");
    assert_eq!(with["client_version"], "0.61.0");
    assert_eq!(with["tool_calls"]["run_shell_command"], 1);
    let graders = e.bodies(Kind::Grader);
    assert_eq!(graders.len(), 2, "one grader request per graded run");
    for g in &graders {
        assert_eq!(
            e.read(g).tools,
            Vec::<String>::new(),
            "the grader is offered no tool"
        );
    }
    assert!(
        e.bodies(Kind::Side).is_empty(),
        "no router request repeats a prompt"
    );
    let t = lab.timing("eval-1/with_skill/run-1");
    assert_eq!(
        t["executor_input_tokens"], 3000,
        "three model calls of 1,000"
    );
    assert_eq!(t["executor_cached_input_tokens"], 1200);
    let obs = lab.observations();
    assert!(obs.iter().all(|o| o["client"] == "gemini"));
    assert_eq!(lab.leftovers(), Vec::<String>::new(), "nothing left behind");
    assert_eq!(
        lab.escaped(),
        Vec::<String>::new(),
        "no request left 127.0.0.1"
    );
}
