//! Tier 3 end to end against the real Claude Code CLI: `skillsift check
//! --behavioral` drives `claude -p` for every run and grading, and the CLI
//! talks to a scripted model on 127.0.0.1 (tests/scripted). These are the
//! conformance tests of the built-in agent: run them against your installed
//! version with `SKILLSIFT_CLAUDE=$(command -v claude) cargo test --test
//! real_claude_behave`. Each test skips with a message when `claude` is not
//! installed (and fails instead under `SKILLSIFT_REQUIRE_CLIENTS=1`).

mod real_client;
mod scripted;

use predicates::prelude::*;
use scripted::{Client, Endpoint, Grade, Kind, Lab, Load, Script, cases, dialogue, execution};
use serde_json::json;

const POSITIVE: &str = "The invoice total is off by a cent, fix it";
const NEGATIVE: &str = "Update the architecture diagram in the docs";

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn loads_count_in_with_runs_only_and_each_graded_run_costs_one_grader_request() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = Lab::new(
        &claude,
        Script::new("demo-skill").cue("cent").bash("echo checked"),
        &cases(
            &[POSITIVE],
            &[NEGATIVE],
            execution("The invoice total is off by a cent: fix src/total.js"),
        ),
    );
    lab.behave(&["--trials", "1"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("TP 2  FP 0  FN 0  TN 1"))
        .stdout(predicate::str::contains(
            "pass rate  with skill 1.000  without 1.000",
        ))
        .stderr(predicate::str::contains(
            "run 1/6 positive-1 with #1: exit code 0, loaded demo-skill",
        ))
        .stderr(predicate::str::contains(
            "run 2/6 positive-1 without #1: exit code 0, no skill loaded",
        ));
    scripted::assert_input_estimate(&lab);
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
        assert!(
            !e.lists(r, "other-skill"),
            "only the skill under test is installed"
        );
    }
    assert_eq!(
        e.bodies(Kind::Grader).len(),
        2,
        "one grader request per graded run (the eval, both arms)"
    );
    assert_eq!(
        e.bodies(Kind::Side).len(),
        0,
        "no session-title side request repeats a prompt"
    );
    let obs = lab.observations();
    let loaded: Vec<(String, String, bool)> = obs
        .iter()
        .map(|o| {
            (
                o["caseId"].as_str().unwrap().to_string(),
                o["variant"].as_str().unwrap().to_string(),
                o["invokedSkills"] == json!(["demo-skill"]),
            )
        })
        .collect();
    assert_eq!(
        loaded,
        [
            ("positive-1".into(), "with".into(), true),
            ("positive-1".into(), "without".into(), false),
            ("negative-1".into(), "with".into(), false),
            ("negative-1".into(), "without".into(), false),
            ("eval-1".into(), "with".into(), true),
            ("eval-1".into(), "without".into(), false),
        ]
    );
    let run = lab.run("eval-1/with_skill/run-1");
    assert_eq!(run["tool_calls"], json!({"Bash": 1, "Skill": 1}));
    assert!(
        run["init_tools"]
            .as_array()
            .unwrap()
            .contains(&json!("Skill"))
    );
    let grading: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            lab.iteration(1)
                .join("eval-1/with_skill/run-1/grading.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(grading["summary"]["passed"], 2);
    let bench: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(lab.iteration(1).join("benchmark.json")).unwrap(),
    )
    .unwrap();
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(lab.iteration(1).join("plan.json")).unwrap())
            .unwrap();
    assert_eq!(bench["metadata"]["skill_sha256"], plan["skill"]["sha256"]);
    assert_eq!(lab.leftovers(), Vec::<String>::new(), "nothing left behind");
}

/// A lab whose case file holds one positive prompt and one dialogue eval.
fn one_prompt_one_dialogue(claude: &std::path::Path, script: Script) -> Lab {
    Lab::new(
        claude,
        script,
        &cases(&[POSITIVE], &[], dialogue("Totals are off by a cent")),
    )
}

/// The `tool_result` blocks the CLI sent back for `Skill` calls.
fn skill_results(e: &Endpoint) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = e
        .bodies(Kind::Agent)
        .iter()
        .flat_map(|b| {
            let skill_ids: Vec<String> = loopback::anthropic::tool_uses(b)
                .into_iter()
                .filter(|u| u.name == "Skill")
                .map(|u| u.id)
                .collect();
            loopback::anthropic::tool_results(b)
                .into_iter()
                .filter(move |r| skill_ids.contains(&r.id))
        })
        .map(|r| (r.is_error, r.text))
        .collect();
    out.dedup();
    out
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_model_guessing_the_skill_in_the_baseline_loads_nothing_and_the_iteration_stands() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = one_prompt_one_dialogue(&claude, Script::new("demo-skill").load(Load::Always));
    lab.behave(&["--trials", "1"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("TP 2  FP 0  FN 0  TN 0"))
        .stderr(predicate::str::contains(
            "run 2/4 positive-1 without #1: exit code 0, no skill loaded (refused Skill call: demo-skill)",
        ));
    // The CLI refused each baseline call; skillsift counted none of them.
    let results = skill_results(&lab.endpoint);
    assert!(
        results
            .iter()
            .any(|(err, t)| *err && t.contains("Unknown skill: demo-skill")),
        "{results:?}"
    );
    for run in [
        "positive-1/without_skill/run-1",
        "eval-1/without_skill/run-1",
    ] {
        let r = lab.run(run);
        assert_eq!(r["invoked_skills"], json!([]), "{run}");
        assert_eq!(r["failed_loads"], json!(["demo-skill"]), "{run}");
        assert_eq!(r["evidence"], true, "{run}");
    }
    assert_eq!(
        lab.run("positive-1/with_skill/run-1")["invoked_skills"],
        json!(["demo-skill"])
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn append_system_prompt_mode_counts_no_failed_load_and_reports_no_trigger_statistics() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = one_prompt_one_dialogue(&claude, Script::new("demo-skill").load(Load::Always));
    lab.behave_config("install = \"append-system-prompt\"");
    lab.behave(&["--trials", "1"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "trigger  not observed: the skill was in the system prompt",
        ))
        .stdout(predicate::str::contains("recall").not())
        .stdout(predicate::str::contains("F1").not());
    let runs = lab.endpoint.runs();
    assert_eq!(runs.len(), 2, "trigger prompts are not run in this mode");
    let body = "Write a failing test for the rounding first";
    assert!(lab.endpoint.all_text(&runs[0]).contains(body));
    assert!(!lab.endpoint.all_text(&runs[1]).contains(body));
    for arm in ["with_skill", "without_skill"] {
        let r = lab.run(&format!("eval-1/{arm}/run-1"));
        assert_eq!(r["invoked_skills"], json!([]), "{arm}");
        assert_eq!(r["failed_loads"], json!(["demo-skill"]), "{arm}");
    }
    let run = lab.run("eval-1/with_skill/run-1");
    assert_eq!(run["evidence"], true);
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn nothing_personal_reaches_a_run_and_a_renamed_personal_copy_is_never_loaded() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = one_prompt_one_dialogue(&claude, Script::new("demo-skill").load(Load::Always));
    let h = &lab.home;
    let marker = |n: &str| lab.tmp.path().join(n);
    // A personal copy under another folder name, same frontmatter name.
    let personal = scripted::DEMO_SKILL.replace("Write a failing test", "PERSONAL BODY");
    // (a name no text of the run has otherwise: the scratch folder may sit
    // in a git checkout whose log the client shows the grader)
    std::fs::create_dir_all(h.join(".claude/skills/renamed-personal-copy")).unwrap();
    std::fs::write(
        h.join(".claude/skills/renamed-personal-copy/SKILL.md"),
        personal,
    )
    .unwrap();
    std::fs::write(h.join(".claude/CLAUDE.md"), "PERSONAL MEMORY\n").unwrap();
    std::fs::write(
        h.join(".claude/settings.json"),
        json!({
            "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": format!("touch {}", marker("hook-ran").display())}]}]},
            "env": {"SETTINGS_ENV": "PERSONAL SETTINGS"},
        })
        .to_string(),
    )
    .unwrap();
    std::fs::write(
        h.join(".claude.json"),
        json!({"mcpServers": {"personal": {"command": "touch", "args": [marker("mcp-ran")]}}})
            .to_string(),
    )
    .unwrap();
    std::fs::write(
        h.join(".claude/.claude.json"),
        json!({"mcpServers": {"personal": {"command": "touch", "args": [marker("mcp-ran")]}}})
            .to_string(),
    )
    .unwrap();
    // Memory and a copy in a folder above the workspaces.
    std::fs::write(lab.tmp.path().join("CLAUDE.md"), "ANCESTOR MEMORY\n").unwrap();
    let above = lab.tmp.path().join(".claude/skills/above-copy");
    std::fs::create_dir_all(&above).unwrap();
    std::fs::write(above.join("SKILL.md"), scripted::DEMO_SKILL).unwrap();
    lab.behave(&["--trials", "1"])
        .env("CLAUDE_CONFIG_DIR", h.join(".claude"))
        .env("CLAUDE_CODE_SIMPLE", "1")
        .env("CLAUDECODE", "1")
        .assert()
        .code(3);
    assert!(!marker("hook-ran").exists(), "a personal hook ran");
    assert!(!marker("mcp-ran").exists(), "a personal MCP server started");
    let requests = lab.endpoint.bodies(Kind::Agent);
    let graders = lab.endpoint.bodies(Kind::Grader);
    assert_eq!(graders.len(), 2);
    for b in requests.iter().chain(&graders) {
        let text = lab.endpoint.all_text(b);
        for leak in [
            "PERSONAL MEMORY",
            "ANCESTOR MEMORY",
            "PERSONAL BODY",
            "renamed-personal-copy",
            "above-copy",
        ] {
            assert!(!text.contains(leak), "{leak} reached the model");
        }
    }
    let runs = lab.endpoint.runs();
    assert!(
        lab.endpoint.lists(&runs[0], "demo-skill"),
        "CLAUDE_CODE_SIMPLE did not reach the run: skills are discovered"
    );
    assert!(!lab.endpoint.lists(&runs[1], "demo-skill"));
    for run in [
        "positive-1/without_skill/run-1",
        "eval-1/without_skill/run-1",
    ] {
        assert_eq!(lab.run(run)["failed_loads"], json!(["demo-skill"]), "{run}");
    }
    assert_eq!(lab.leftovers(), Vec::<String>::new());
}

/// A catalog whose eval's fixtures carry a copy of the skill in
/// `.claude/skills/<folder>` (same frontmatter `name`).
fn lab_with_a_fixture_copy(claude: &std::path::Path, folder: &str, script: Script) -> Lab {
    let lab = Lab::new(
        claude,
        script,
        &cases(
            &[],
            &[],
            json!([{
                "id": 1,
                "prompt": "The invoice total is off by a cent: fix src/total.js",
                "expected_output": "a fix",
                "expectations": ["The total is fixed"],
                "files": [".claude", "demo-project"],
            }]),
        ),
    );
    let copy = lab.root.join("evals/fixtures/.claude/skills").join(folder);
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::write(
        copy.join("SKILL.md"),
        scripted::DEMO_SKILL.replace("Write a failing test", "COPY BODY"),
    )
    .unwrap();
    lab
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_copy_in_the_fixtures_under_another_folder_name_is_refused_before_any_run() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = lab_with_a_fixture_copy(&claude, "renamed", Script::new("demo-skill"));
    lab.behave(&["--trials", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "would load another copy of `demo-skill` in every run: evals/fixtures/.claude/skills/renamed/SKILL.md (its frontmatter `name` is `demo-skill` (folder `renamed`))",
        ));
    assert!(lab.endpoint.server.requests().is_empty());
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_run_that_loads_another_copy_stops_the_evaluation_at_once_naming_it() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let script = Script::new("demo-skill").listed_as("Fixes money rounding bugs");
    let lab = lab_with_a_fixture_copy(&claude, "renamed", script);
    // With both copies in the with-skill run, which one `Skill` loads varies
    // between runs of the CLI: either arm may be the first to show it.
    lab.behave(&["--trials", "2", "--allow-personal-copy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "Claude Code found a copy of `demo-skill` that is not the one under test",
        ))
        .stderr(
            predicate::str::contains("run eval-1 with #1 loaded")
                .or(predicate::str::contains("run eval-1 without #1 loaded")),
        )
        .stderr(predicate::str::contains(
            " loaded `demo-skill` from <workspace>/.claude/skills/renamed, copied from evals/fixtures/.claude/skills/renamed",
        ))
        .stderr(predicate::str::contains("the evaluation stopped after this run"));
    let runs = lab.endpoint.runs();
    assert!(
        runs.len() <= 2,
        "stopped at the first run that loaded the copy, not after {} runs",
        runs.len()
    );
    assert!(
        !lab.iteration(1).join("benchmark.json").exists(),
        "not scored"
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_baseline_whose_listing_shows_the_skill_stops_the_evaluation_at_once() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = lab_with_a_fixture_copy(
        &claude,
        "demo-skill",
        Script::new("demo-skill").load(Load::Never),
    );
    lab.behave(&["--trials", "2", "--allow-personal-copy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "without-skill run eval-1 without #1 listed `demo-skill` among its skills",
        ))
        .stderr(predicate::str::contains(
            "the evaluation stopped after this run",
        ));
    assert_eq!(lab.endpoint.runs().len(), 2, "runs 3 and 4 never started");
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn an_invalid_grader_reply_is_retried_once_and_a_fenced_one_is_read() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let case_file = cases(&[], &[], dialogue("Totals are off by a cent"));
    let grade = |g: Grade| {
        let lab = Lab::new(&claude, Script::new("demo-skill").grade(g), &case_file);
        let out = lab
            .behave(&["--trials", "1", "--no-baseline"])
            .output()
            .unwrap();
        (lab, out)
    };
    let (lab, out) = grade(Grade::InvalidThenValid);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let graders = lab.endpoint.bodies(Kind::Grader);
    assert_eq!(graders.len(), 2, "one retry");
    assert!(
        lab.endpoint
            .all_text(&graders[1])
            .contains("Your previous reply was rejected: the reply holds no JSON object")
    );
    assert_eq!(lab.run("eval-1/with_skill/run-1")["grading"]["passed"], 1);

    let (lab, out) = grade(Grade::Invalid);
    assert_eq!(out.status.code(), Some(4), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("the grader's reply was invalid twice"));
    assert_eq!(lab.endpoint.bodies(Kind::Grader).len(), 2);
    let dir = lab.iteration(1).join("eval-1/with_skill/run-1");
    let raw = std::fs::read_to_string(dir.join("grading.raw.txt")).unwrap();
    assert_eq!(
        raw.matches("I think the agent did fine overall.").count(),
        2
    );
    assert_eq!(lab.run("eval-1/with_skill/run-1")["evidence"], false);

    let (lab, out) = grade(Grade::Fenced);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(lab.endpoint.bodies(Kind::Grader).len(), 1);
    assert_eq!(lab.run("eval-1/with_skill/run-1")["grading"]["passed"], 1);
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_run_past_its_time_limit_has_no_evidence_and_leaves_nothing_behind() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = Lab::new(
        &claude,
        Script::new("demo-skill").hang(),
        &cases(&[], &[], dialogue("Totals are off by a cent")),
    );
    // Long enough for the CLI to start and reach the model on a busy machine.
    lab.behave_config("executor-timeout-secs = 10\nkill-grace-ms = 200");
    lab.behave(&["--trials", "1", "--no-baseline"])
        .assert()
        .code(4)
        .stdout(predicate::str::contains("timed out after 10s"))
        .stdout(predicate::str::contains("verdict  unavailable (exit 4)"));
    assert_eq!(lab.endpoint.runs().len(), 1, "the agent reached the model");
    assert!(lab.endpoint.bodies(Kind::Grader).is_empty(), "never graded");
    let stream = std::fs::read_to_string(
        lab.iteration(1)
            .join("eval-1/with_skill/run-1/stream.jsonl"),
    )
    .unwrap();
    assert!(
        stream.contains("\"subtype\":\"init\""),
        "the partial stream is kept"
    );
    assert_eq!(lab.leftovers(), Vec::<String>::new());
    assert!(
        !still_running_in(&lab.tmpdir),
        "a process of the killed run is still running"
    );
}

/// Whether a live process has its working folder under `dir`.
fn still_running_in(dir: &std::path::Path) -> bool {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read_link(e.path().join("cwd")).ok())
        .any(|cwd| cwd.starts_with(dir))
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_client_that_is_not_logged_in_stops_the_evaluation_at_the_canary_before_any_suite_run() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = Lab::new(
        &claude,
        Script::new("demo-skill"),
        &cases(
            &[POSITIVE],
            &[NEGATIVE],
            dialogue("Totals are off by a cent"),
        ),
    );
    lab.behave(&["--trials", "1"])
        .env_remove("ANTHROPIC_API_KEY")
        .assert()
        .code(4)
        .stderr(predicate::str::contains("Claude Code is not logged in"))
        .stderr(predicate::str::contains("claude setup-token"));
    assert!(!lab.root.join("evals/results").exists(), "no suite run");
    assert!(lab.endpoint.runs().is_empty());
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_trigger_run_stops_once_decided_and_runs_in_the_with_arm_only() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let (_lab, after) = scripted::trigger_decisions(Client::Claude, &claude);
    let before = scripted::trigger_runs_full(Client::Claude, &claude);
    eprintln!("claude trigger cost per case (requests, tokens): decide {after:?}, full {before:?}");
    assert!(
        before[0].0 >= 7,
        "full: the load, 5 more turns, the answer: {before:?}"
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_model_that_never_loads_a_skill_fails_the_canary_before_any_suite_run() {
    let Some(cli) = real_client::cli("claude") else {
        return;
    };
    scripted::canary_fails(Client::Claude, &cli);
}
