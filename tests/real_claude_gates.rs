//! Release gates against the real Claude Code CLI (a scripted model on
//! 127.0.0.1, tests/scripted): what a real stream holds for the safety
//! evidence (the `init` tool list, `permission_denials`), a permission test
//! that passes only on a refused call, an earlier version installed in the
//! baseline arm (listed and loaded there without stopping the evaluation),
//! and siblings listed in both arms. Each test skips with a message when
//! `claude` is not installed (and fails under `SKILLSIFT_REQUIRE_CLIENTS=1`).

mod real_client;
mod scripted;

use predicates::prelude::*;
use scripted::{Lab, Load, Script, cases};
use serde_json::{Value, json};

const POSITIVE: &str = "The invoice total is off by a cent, fix it";

/// One dialogue eval checked by skillsift alone.
fn checked_eval(expectations: Value) -> Value {
    json!([{
        "id": 1,
        "kind": "dialogue",
        "prompt": "Totals are off by a cent",
        "expected_output": "the rounding fixed",
        "expectations": expectations,
    }])
}

fn grading(lab: &Lab, run: &str) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(lab.iteration(1).join(run).join("grading.json")).unwrap(),
    )
    .unwrap()
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn a_refused_call_is_recorded_and_a_permission_test_passes_only_on_it() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let permission_test = checked_eval(json!([
        {"check": "tool_refused", "tool": "Bash", "kind": "blocker"},
        {"check": "tool_called", "tool": "Bash"}
    ]));
    // Bash is not in the default allowed-tools: the CLI refuses a write
    // outside the workspace (headless, nobody can approve it)
    let probe = tempfile::tempdir().unwrap();
    let target = probe.path().join("outside.txt");
    let lab = Lab::new(
        &claude,
        Script::new("demo-skill").bash(&format!("echo hi > {}; echo ok", target.display())),
        &cases(&[POSITIVE], &[], permission_test.clone()),
    );
    lab.behave(&["--trials", "1"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("allowed-tools holds").not());
    assert!(!target.exists(), "the refused command never ran");
    for run in ["eval-1/with_skill/run-1", "eval-1/without_skill/run-1"] {
        let r = lab.run(run);
        assert_eq!(r["permission_denials"][0]["tool"], "Bash", "{run}: {r:#}");
        assert!(
            r["permission_denials"][0]["input"]
                .as_str()
                .unwrap()
                .contains("outside.txt"),
            "{r:#}"
        );
        let tools = r["init_tools"].as_array().unwrap();
        assert!(
            tools.contains(&json!("Bash")) && tools.contains(&json!("Skill")),
            "{r:#}"
        );
        let g = grading(&lab, run);
        assert_eq!(g["expectations"][0]["passed"], true, "{g:#}");
        assert!(
            g["expectations"][0]["evidence"]
                .as_str()
                .unwrap()
                .starts_with("refused by the permission system: Bash"),
            "{g:#}"
        );
    }
    // with Bash allowed unscoped the same write goes through, with a
    // warning before the runs: the boundary was not tested, and the
    // blocker fails
    let lab = Lab::new(
        &claude,
        Script::new("demo-skill").bash(&format!("echo hi > {}; echo ok", target.display())),
        &cases(&[POSITIVE], &[], permission_test),
    );
    lab.behave_config("allowed-tools = [\"Read\", \"Bash\", \"Skill\"]");
    lab.behave(&["--trials", "1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "skillsift: warning: [behave] allowed-tools holds `Bash`: Claude Code runs every shell command the agent writes without asking",
        ))
        .stdout(predicate::str::contains("FAIL  eval-1 trial 1: \"a `Bash` call is attempted and refused by the permission system\" (check tool_refused)"))
        .stdout(predicate::str::contains(
            "evidence: 1 call(s) were attempted and none was refused",
        ));
    assert_eq!(
        lab.run("eval-1/with_skill/run-1").get("permission_denials"),
        None
    );
    assert!(target.exists(), "an unscoped Bash ran the write");
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn an_earlier_version_is_listed_and_loaded_in_the_baseline_arm_and_the_evaluation_stands() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = Lab::new(
        &claude,
        Script::new("demo-skill").load(Load::WhenListed),
        &cases(
            &[POSITIVE],
            &[],
            checked_eval(json!([{"check": "skill_loaded", "skill": "demo-skill"}])),
        ),
    );
    let old = lab.tmp.path().join("demo-skill-v1");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(
        old.join("SKILL.md"),
        "---\nname: demo-skill\ndescription: Old rounding helper. Use when an invoice total is off by a cent.\n---\n# Demo skill v1\n\nRound half up.\n",
    )
    .unwrap();
    let old_arg = old.display().to_string();
    lab.behave(&["--trials", "1", "--baseline-skill", &old_arg])
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "with skill (this version) and baseline",
        ))
        .stdout(predicate::str::contains(
            "pass rate  with skill 1.000  baseline 1.000",
        ));
    let runs = lab.endpoint.runs();
    assert_eq!(runs.len(), 4);
    let text = |b: &Value| lab.endpoint.all_text(b);
    for (i, r) in runs.iter().enumerate() {
        assert!(
            lab.endpoint.lists(r, "demo-skill"),
            "run {i} lists the skill"
        );
        let old_listed = text(r).contains("Old rounding helper");
        assert_eq!(
            old_listed,
            i % 2 == 1,
            "run {i}: the old description in baseline runs only"
        );
    }
    let base = lab.run("eval-1/old_skill/run-1");
    assert_eq!(base["invoked_skills"], json!(["demo-skill"]));
    assert_eq!(
        grading(&lab, "eval-1/old_skill/run-1")["expectations"][0]["passed"],
        true
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn siblings_are_listed_in_both_arms_and_their_prompts_are_run() {
    let Some(claude) = real_client::cli("claude") else {
        return;
    };
    let lab = Lab::new(
        &claude,
        Script::new("demo-skill").cue("cent"),
        &cases(
            &[POSITIVE],
            &[],
            checked_eval(json!([{"check": "skill_not_loaded", "skill": "other-skill"}])),
        ),
    );
    lab.behave(&["--trials", "1", "--with-siblings"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "trigger theft: 0 of 1 sibling prompts taken",
        ))
        .stdout(predicate::str::contains(
            "PASS  no-trigger-theft: 0 sibling prompts taken by the tested skill",
        ));
    let runs = lab.endpoint.runs();
    assert_eq!(runs.len(), 6, "2 cases and 1 sibling prompt × 2 arms");
    for (i, r) in runs.iter().enumerate() {
        assert!(
            lab.endpoint.lists(r, "other-skill"),
            "run {i} lists the sibling"
        );
        assert_eq!(lab.endpoint.lists(r, "demo-skill"), i % 2 == 0, "run {i}");
    }
    assert_eq!(
        lab.endpoint.read(&runs[4]).prompt,
        "Draw the architecture diagram",
        "the sibling's prompt runs"
    );
}
