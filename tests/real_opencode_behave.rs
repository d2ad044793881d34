//! Tier 3 end to end against the real opencode: `skillsift check
//! --behavioral --agent opencode` drives `opencode run` for every run and
//! grading, and the CLI talks to a scripted Chat Completions API on 127.0.0.1
//! (tests/scripted). Run them against your installed version with
//! `SKILLSIFT_OPENCODE=$(command -v opencode) cargo test --test
//! real_opencode_behave`; each test skips with a message when `opencode` is
//! not installed (and fails instead under `SKILLSIFT_REQUIRE_CLIENTS=1`).

mod real_client;
mod scripted;

use scripted::{Client, Kind};

#[test]
#[cfg_attr(
    skillsift_missing_opencode,
    ignore = "needs `opencode` on PATH or at SKILLSIFT_OPENCODE; bash .ci/run installs the pinned version"
)]
fn loads_count_in_with_runs_only_the_eval_is_graded_and_nothing_leaves_loopback() {
    let Some(opencode) = real_client::cli("opencode") else {
        return;
    };
    let lab = scripted::end_to_end(Client::Opencode, &opencode);
    scripted::assert_input_estimate(&lab);
    let e = &lab.endpoint;
    for r in e.runs() {
        let x = e.read(&r);
        assert!(
            !x.system.contains("<name>customize-opencode</name>"),
            "the bundled skill is off"
        );
        let mut tools = x.tools.clone();
        tools.sort();
        assert_eq!(
            tools,
            [
                "bash",
                "edit",
                "glob",
                "grep",
                "read",
                "skill",
                "todowrite",
                "write"
            ],
            "exactly the allowed tools: no web fetch, no sub-agents, no MCP"
        );
    }
    let with = lab.run("eval-1/with_skill/run-1");
    assert_eq!(with["tool_calls"]["bash"], 1);
    for g in &e.bodies(Kind::Grader) {
        assert_eq!(
            e.read(g).tools,
            Vec::<String>::new(),
            "the grader is offered no tool"
        );
    }
    assert!(
        e.bodies(Kind::Side).is_empty(),
        "no session-title request repeats a prompt"
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_opencode,
    ignore = "needs `opencode` on PATH or at SKILLSIFT_OPENCODE; bash .ci/run installs the pinned version"
)]
fn a_trigger_run_stops_once_decided_and_runs_in_the_with_arm_only() {
    let Some(cli) = real_client::cli("opencode") else {
        return;
    };
    let (_lab, after) = scripted::trigger_decisions(Client::Opencode, &cli);
    let before = scripted::trigger_runs_full(Client::Opencode, &cli);
    eprintln!(
        "opencode trigger cost per case (requests, tokens): decide {after:?}, full {before:?}"
    );
    assert!(
        before[0].0 >= 7,
        "full: the load, 5 more turns, the answer: {before:?}"
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_opencode,
    ignore = "needs `opencode` on PATH or at SKILLSIFT_OPENCODE; bash .ci/run installs the pinned version"
)]
fn a_model_that_never_loads_a_skill_fails_the_canary_before_any_suite_run() {
    let Some(cli) = real_client::cli("opencode") else {
        return;
    };
    scripted::canary_fails(Client::Opencode, &cli);
}
