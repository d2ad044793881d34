//! Tier 3 end to end against the real Gemini CLI: `skillsift check
//! --behavioral --agent gemini` drives `gemini -p` for every run and
//! grading, and the CLI talks to a scripted Gemini API on 127.0.0.1
//! (tests/scripted). Run them against your installed version with
//! `SKILLSIFT_GEMINI=$(command -v gemini) cargo test --test
//! real_gemini_behave`; each test skips with a message when `gemini` is
//! not installed (and fails instead under `SKILLSIFT_REQUIRE_CLIENTS=1`).

mod real_client;
mod scripted;

use scripted::{Client, Kind};

#[test]
#[cfg_attr(
    skillsift_missing_gemini,
    ignore = "needs `gemini` (Gemini CLI) on PATH or at SKILLSIFT_GEMINI; bash .ci/run installs the pinned version"
)]
fn loads_count_in_with_runs_only_the_eval_is_graded_and_nothing_leaves_loopback() {
    let Some(gemini) = real_client::cli("gemini") else {
        return;
    };
    let lab = scripted::end_to_end(Client::Gemini, &gemini);
    scripted::assert_input_estimate(&lab);
    let e = &lab.endpoint;
    for r in e.runs() {
        let x = e.read(&r);
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
    let with = lab.run("eval-1/with_skill/run-1");
    assert_eq!(with["tool_calls"]["run_shell_command"], 1);
    for g in &e.bodies(Kind::Grader) {
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
}

#[test]
#[cfg_attr(
    skillsift_missing_gemini,
    ignore = "needs `gemini` (Gemini CLI) on PATH or at SKILLSIFT_GEMINI; bash .ci/run installs the pinned version"
)]
fn a_trigger_run_stops_once_decided_and_runs_in_the_with_arm_only() {
    let Some(cli) = real_client::cli("gemini") else {
        return;
    };
    let (_lab, after) = scripted::trigger_decisions(Client::Gemini, &cli);
    let before = scripted::trigger_runs_full(Client::Gemini, &cli);
    eprintln!("gemini trigger cost per case (requests, tokens): decide {after:?}, full {before:?}");
    assert!(
        before[0].0 >= 7,
        "full: the load, 5 more turns, the answer: {before:?}"
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_gemini,
    ignore = "needs `gemini` (Gemini CLI) on PATH or at SKILLSIFT_GEMINI; bash .ci/run installs the pinned version"
)]
fn with_no_model_configured_one_request_per_turn_carries_the_prompt_and_the_model_is_recorded() {
    let Some(gemini) = real_client::cli("gemini") else {
        return;
    };
    let lab = scripted::Lab::for_client(
        Client::Gemini,
        &gemini,
        scripted::Script::new("demo-skill").cue("cent"),
        &scripted::cases(
            &["The invoice total is off by a cent, fix it"],
            &[],
            scripted::dialogue("The invoice total is off by a cent: what rounding rule applies?"),
        ),
    );
    let toml = lab.root.join("skillsift.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("model = \"gemini-2.5-pro\"\n", "")).unwrap();
    lab.behave(&["--trials", "1", "--trigger-runs", "decide"])
        .assert()
        .code(3);
    let e = &lab.endpoint;
    assert_eq!(
        e.bodies(Kind::Side).len(),
        0,
        "no Task Routing classifier request before the real one"
    );
    let requests = e.server.requests();
    let model_calls: Vec<_> = requests
        .iter()
        .filter(|r| r.url.contains(":streamGenerateContent") || r.url.contains(":generateContent"))
        .collect();
    assert!(!model_calls.is_empty());
    assert!(
        model_calls
            .iter()
            .all(|r| r.url.contains("/models/gemini-2.5-pro:")),
        "every request names the pinned model: {:?}",
        model_calls.iter().map(|r| &r.url).collect::<Vec<_>>()
    );
    // the dialogue eval: the load and the answer in the with arm, the
    // answer alone in the baseline: one request per turn, nothing more
    assert_eq!(scripted::requests_for(e, "what rounding rule applies"), 3);
    assert_eq!(e.bodies(Kind::Grader).len(), 2);
    for run in ["eval-1/with_skill/run-1", "positive-1/with_skill/run-1"] {
        assert_eq!(lab.run(run)["model"], "gemini-2.5-pro", "{run}");
    }
}

#[test]
#[cfg_attr(
    skillsift_missing_gemini,
    ignore = "needs `gemini` (Gemini CLI) on PATH or at SKILLSIFT_GEMINI; bash .ci/run installs the pinned version"
)]
fn a_model_that_never_loads_a_skill_fails_the_canary_before_any_suite_run() {
    let Some(cli) = real_client::cli("gemini") else {
        return;
    };
    scripted::canary_fails(Client::Gemini, &cli);
}
