//! Tier 3 end to end against the real Gemini CLI: `skillgate check
//! --behavioral --agent gemini` drives `gemini -p` for every run and
//! grading, and the CLI talks to a scripted Gemini API on 127.0.0.1
//! (tests/scripted). Run them against your installed version with
//! `SKILLGATE_GEMINI=$(command -v gemini) cargo test --test
//! real_gemini_behave`; each test skips with a message when `gemini` is
//! not installed (and fails instead under `SKILLGATE_REQUIRE_CLIENTS=1`).

mod real_client;
mod scripted;

use scripted::{Client, Kind};

#[test]
fn loads_count_in_with_runs_only_the_eval_is_graded_and_nothing_leaves_loopback() {
    let Some(gemini) = real_client::cli("gemini") else {
        return;
    };
    let lab = scripted::end_to_end(Client::Gemini, &gemini);
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
