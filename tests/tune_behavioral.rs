//! `skillsift tune --behavioral` end to end against the real Claude Code
//! CLI and a scripted model endpoint on 127.0.0.1 (tests/scripted): the
//! skill's validation prompts run once with the current SKILL.md and once
//! with the recommended one, the whole catalog installed; the output
//! gives the model's counts only. Skips with a message when the CLI is not
//! installed (`bash .ci/run` installs it).

mod real_client;
mod scripted;

use scripted::{Client, Lab, Script};
use serde_json::json;

const VALIDATION: [&str; 2] = [
    "a flaky test keeps failing the pipeline",
    "flaky tests break the nightly build",
];

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn the_model_routes_the_validation_prompts_with_both_descriptions() {
    let Some(cli) = real_client::cli("claude") else {
        return;
    };
    let case = json!({
        "skill_name": "demo-skill",
        "trigger": {
            "positive": [
                {"prompt": "my tests are flaky, can you fix them", "split": "train"},
                {"prompt": "flaky tests keep breaking the nightly build", "split": "train"},
                {"prompt": "which flaky test is failing our pipeline again", "split": "train"},
                {"prompt": VALIDATION[0], "split": "validation"},
                {"prompt": VALIDATION[1], "split": "validation"},
            ],
            "negative": [],
        },
        "evals": [],
    })
    .to_string();
    // the scripted model loads demo-skill for every prompt saying "flaky"
    let lab = Lab::for_client(
        Client::Claude,
        &cli,
        Script::new("demo-skill").routes(&[("flaky", "demo-skill")]),
        &case,
    );
    std::fs::write(
        lab.root.join("skills/demo-skill/SKILL.md"),
        "---\nname: demo-skill\ndescription: Diagnoses unreliable tests that pass and fail at random and finds the shared state behind them.\n---\n# Demo\n",
    )
    .unwrap();
    std::fs::create_dir_all(lab.root.join("skills/ci-debug")).unwrap();
    std::fs::write(
        lab.root.join("skills/ci-debug/SKILL.md"),
        "---\nname: ci-debug\ndescription: Debugs failing CI pipelines, reads build logs, finds the failing step and fixes the workflow file.\n---\n# CI\n",
    )
    .unwrap();
    std::fs::create_dir_all(lab.root.join("skills/test-writer")).unwrap();
    std::fs::write(
        lab.root.join("skills/test-writer/SKILL.md"),
        "---\nname: test-writer\ndescription: Writes unit tests for new code, picks cases, mocks dependencies and checks coverage.\n---\n# Tests\n",
    )
    .unwrap();
    let tune = |args: &[&str]| {
        let out = lab
            .skillsift()
            .args([
                "tune",
                "demo-skill",
                "catalog",
                "--behavioral",
                "--trials",
                "1",
            ])
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // the dry run first: nothing spawned
    let (code, dry, err) = tune(&["--dry-run"]);
    assert_eq!(code, 0, "{dry}{err}");
    assert!(dry.contains("= 4 runs of Claude Code, at most"), "{dry}");
    assert!(lab.endpoint.server.requests().is_empty());
    let (code, out, err) = tune(&["--write"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("validation prompts routed as expected 2/2 with the current description → 2/2 with the recommended one (1 trial each, the whole catalog installed)"),
        "{out}\n{err}"
    );
    assert!(out.contains("wrote    "), "{out}");
    for p in VALIDATION {
        assert!(!out.contains(p), "{p:?} shown: {out}");
        assert!(!err.contains(p), "{p:?} shown: {err}");
    }
    // both descriptions reached the model: two runs each
    let systems: Vec<String> = lab
        .endpoint
        .runs()
        .iter()
        .map(|b| lab.endpoint.read(b).all_text())
        .collect();
    let new = systems
        .iter()
        .filter(|s| s.contains("unreliable (flaky) tests"))
        .count();
    let old = systems
        .iter()
        .filter(|s| s.contains("Diagnoses unreliable tests that pass"))
        .count();
    assert_eq!((old, new), (2, 2), "{} runs", systems.len());
    for n in [1, 2] {
        assert!(
            lab.root
                .join(format!("evals/results/_routing/iteration-{n}/routing.json"))
                .is_file()
        );
    }
}
