//! `skillsift score` reports: verdicts and their exit codes, the JSON shape,
//! determinism, and the example of docs/scorer.md.

mod common;

use assert_cmd::Command;
use predicates::str::contains;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The exact command docs/scorer.md shows, run from the repository root.
const DOCS_COMMAND: &str = "skillsift score --skill tests/fixtures/score/example/refund-policy --cases tests/fixtures/score/example/cases.jsonl --observations tests/fixtures/score/example/observations.jsonl --min-trigger-f1 0.8 --min-uplift 0.1";

fn run_line(line: &str) -> Command {
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("skillsift"));
    let mut c = Command::cargo_bin("skillsift").unwrap();
    c.current_dir(manifest()).args(words);
    c
}

fn example(extra: &[&str]) -> Command {
    let mut c = run_line(DOCS_COMMAND.split(" --min-trigger-f1").next().unwrap());
    c.args(extra);
    c
}

fn json_of(c: &mut Command) -> (i32, Value) {
    let out = c.output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), v)
}

#[test]
fn the_docs_example_is_this_command_and_its_real_output() {
    let (words, shown) = common::doc_example("scorer.md", "Run the example from the repository:");
    assert_eq!(words.join(" "), DOCS_COMMAND);
    let out = run_line(DOCS_COMMAND).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
}

#[test]
fn readme_example_passes_its_gates() {
    let out = run_line(DOCS_COMMAND).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!(String::from_utf8(out.stdout).unwrap());
}

#[test]
fn readme_example_json_has_the_stable_shape() {
    let (code, v) = json_of(example(&["--format", "json"]).args(["--min-uplift", "0.1"]));
    assert_eq!(code, 0);
    for key in [
        "skill", "cases", "trials", "trigger", "task", "gates", "verdict",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    for key in ["name", "skill_md_sha256", "skill_sha256", "dir_sha256"] {
        assert!(v["skill"].get(key).is_some(), "missing skill.{key}");
    }
    assert_eq!(
        v["skill"]["dir_sha256"], v["skill"]["skill_sha256"],
        "dir_sha256 is the older name of the skill hash"
    );
    for key in [
        "tp",
        "fp",
        "fn",
        "tn",
        "precision",
        "recall",
        "f1",
        "false_trigger_cases",
        "missed_trigger_cases",
    ] {
        assert!(v["trigger"].get(key).is_some(), "missing trigger.{key}");
    }
    for key in ["with_pass_rate", "without_pass_rate", "uplift", "sign_test"] {
        assert!(v["task"].get(key).is_some(), "missing task.{key}");
    }
    for key in ["mean", "ci_low", "ci_high", "resamples", "seed", "rng"] {
        assert!(
            v["task"]["uplift"].get(key).is_some(),
            "missing uplift.{key}"
        );
    }
    for key in ["n", "positive", "negative", "p_value"] {
        assert!(
            v["task"]["sign_test"].get(key).is_some(),
            "missing sign_test.{key}"
        );
    }
    assert_eq!(v["skill"]["name"], "refund-policy");
    assert_eq!(v["cases"], 12);
    assert_eq!(v["trials"], 3);
    assert_eq!(v["trigger"]["tp"], 21);
    assert_eq!(v["trigger"]["fn"], 3);
    assert_eq!(v["trigger"]["fp"], 1);
    assert_eq!(v["trigger"]["tn"], 11);
    assert_eq!(
        v["trigger"]["missed_trigger_cases"],
        serde_json::json!(["chargeback-dispute"])
    );
    assert_eq!(v["task"]["uplift"]["resamples"], 10000);
    assert_eq!(v["task"]["uplift"]["seed"], 0);
    assert_eq!(v["task"]["uplift"]["rng"], "splitmix64");
    assert_eq!(v["task"]["sign_test"]["positive"], 8);
    assert_eq!(v["task"]["sign_test"]["negative"], 0);
    // 2 / 2^8
    assert_eq!(v["task"]["sign_test"]["p_value"], 0.0078125);
    assert_eq!(
        v["gates"],
        serde_json::json!([{"name": "min_uplift", "threshold": 0.1, "value": v["task"]["uplift"]["ci_low"], "passed": true}])
    );
    assert_eq!(v["verdict"], "pass");
}

#[test]
fn output_is_byte_identical_between_runs_and_records_the_seed() {
    let a = example(&["--format", "json"]).output().unwrap().stdout;
    let b = example(&["--format", "json"]).output().unwrap().stdout;
    assert_eq!(a, b);
    let (_, v0) = json_of(&mut example(&["--format", "json"]));
    let (_, v7) = json_of(&mut example(&["--format", "json", "--seed", "7"]));
    assert_eq!(v7["task"]["uplift"]["seed"], 7);
    assert_eq!(v0["task"]["uplift"]["mean"], v7["task"]["uplift"]["mean"]);
    // With d in thirds over 10 cases, the bounds are exact multiples of 1/30.
    assert_eq!(v0["task"]["uplift"]["ci_low"], 0.3);
    assert_eq!(v0["task"]["uplift"]["ci_high"], 0.7);
}

#[test]
fn trigger_f1_below_the_gate_exits_1() {
    example(&["--min-trigger-f1", "0.95"])
        .assert()
        .code(1)
        .stdout(contains("FAIL  min-trigger-f1: trigger F1 0.913 < 0.950"))
        .stdout(contains("verdict  fail"));
}

#[test]
fn uplift_lower_bound_below_the_gate_exits_1() {
    let (code, v) = json_of(&mut example(&["--format", "json", "--min-uplift", "0.45"]));
    assert_eq!(code, 1);
    assert_eq!(v["gates"][0]["name"], "min_uplift");
    assert_eq!(v["gates"][0]["passed"], false);
    assert_eq!(v["verdict"], "fail");
}

/// Write a skill and evidence with the given cases (id, prompt, expect,
/// task json or "") and 1 trial; every run passes with, fails without.
fn write_evidence(dir: &Path, cases: &[(&str, &str, bool, &str)]) -> (PathBuf, PathBuf, PathBuf) {
    let skill = dir.join("s");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: s\ndescription: d\n---\n",
    )
    .unwrap();
    let mut c = String::new();
    let mut o = String::new();
    for (id, prompt, expect, task) in cases {
        let task = if task.is_empty() {
            String::new()
        } else {
            format!(",\"task\":{task}")
        };
        c += &format!(
            "{{\"id\":\"{id}\",\"prompt\":\"{prompt}\",\"expectTrigger\":{expect}{task}}}\n"
        );
        let inv = if *expect { "[\"s\"]" } else { "[]" };
        o += &format!(
            "{{\"caseId\":\"{id}\",\"trial\":1,\"variant\":\"with\",\"invokedSkills\":{inv},\"output\":\"done\",\"exitCode\":0}}\n"
        );
        o += &format!(
            "{{\"caseId\":\"{id}\",\"trial\":1,\"variant\":\"without\",\"invokedSkills\":[],\"output\":\"\",\"exitCode\":1}}\n"
        );
    }
    let (cp, op) = (dir.join("cases.jsonl"), dir.join("obs.jsonl"));
    std::fs::write(&cp, c).unwrap();
    std::fs::write(&op, o).unwrap();
    (skill, cp, op)
}

fn score(skill: &Path, cases: &Path, obs: &Path) -> Command {
    let mut c = Command::cargo_bin("skillsift").unwrap();
    c.arg("score")
        .arg("--skill")
        .arg(skill)
        .arg("--cases")
        .arg(cases)
        .arg("--observations")
        .arg(obs)
        .args(["--trials", "1"]);
    c
}

const TASK: &str = r#"{"check":"includes_all","expected":["done"]}"#;

#[test]
fn fewer_than_10_distinct_cases_exits_3() {
    let t = tempfile::tempdir().unwrap();
    let ids: Vec<String> = (0..9).map(|i| format!("c{i}")).collect();
    let prompts: Vec<String> = (0..9).map(|i| format!("prompt {i}")).collect();
    let cases: Vec<_> = (0..9)
        .map(|i| (ids[i].as_str(), prompts[i].as_str(), true, TASK))
        .collect();
    let (s, c, o) = write_evidence(t.path(), &cases);
    score(&s, &c, &o).assert().code(3).stdout(contains(
        "verdict  insufficient: fewer than 10 distinct cases (9 overall",
    ));
}

#[test]
fn a_repeated_prompt_is_not_a_case() {
    let t = tempfile::tempdir().unwrap();
    let ids: Vec<String> = (0..10).map(|i| format!("c{i}")).collect();
    // c9 repeats c0's prompt with other spacing and case: 9 distinct cases.
    let mut prompts: Vec<String> = (0..10).map(|i| format!("prompt {i}")).collect();
    prompts[9] = "PROMPT   0".into();
    let cases: Vec<_> = (0..10)
        .map(|i| (ids[i].as_str(), prompts[i].as_str(), true, TASK))
        .collect();
    let (s, c, o) = write_evidence(t.path(), &cases);
    let (code, v) = json_of(score(&s, &c, &o).args(["--format", "json"]));
    assert_eq!(code, 3);
    assert_eq!(
        (v["cases"].clone(), v["case_ids"].clone()),
        (9.into(), 10.into())
    );
    assert_eq!(v["task"]["cases"], 9);
    assert_eq!(v["verdict"], "insufficient");
}

#[test]
fn no_task_checks_reports_null_task() {
    let t = tempfile::tempdir().unwrap();
    let ids: Vec<String> = (0..10).map(|i| format!("c{i}")).collect();
    let prompts: Vec<String> = (0..10).map(|i| format!("prompt {i}")).collect();
    let cases: Vec<_> = (0..10)
        .map(|i| (ids[i].as_str(), prompts[i].as_str(), i < 5, ""))
        .collect();
    let (s, c, o) = write_evidence(t.path(), &cases);
    let (code, v) = json_of(score(&s, &c, &o).args(["--format", "json"]));
    assert_eq!(code, 0);
    assert_eq!(v["task"], Value::Null);
    assert_eq!(v["trigger"]["f1"], 1.0);
    score(&s, &c, &o).assert().code(0).stdout(contains(
        "no case has a task check: uplift not measured (task: null)",
    ));
    // Asking for an uplift gate without task evidence: unavailable, exit 4.
    let (code, v) = json_of(score(&s, &c, &o).args(["--format", "json", "--min-uplift", "0"]));
    assert_eq!(code, 4);
    assert_eq!(v["verdict"], "unavailable");
    assert_eq!(v["gates"][0]["value"], Value::Null);
}

#[test]
fn undefined_precision_is_null_in_json() {
    let t = tempfile::tempdir().unwrap();
    let ids: Vec<String> = (0..10).map(|i| format!("c{i}")).collect();
    let prompts: Vec<String> = (0..10).map(|i| format!("prompt {i}")).collect();
    // Nothing should trigger and nothing did: precision, recall and F1 are
    // undefined; a trigger-F1 gate cannot pass vacuously.
    let cases: Vec<_> = (0..10)
        .map(|i| (ids[i].as_str(), prompts[i].as_str(), false, ""))
        .collect();
    let (s, c, o) = write_evidence(t.path(), &cases);
    let (code, v) =
        json_of(score(&s, &c, &o).args(["--format", "json", "--min-trigger-f1", "0.5"]));
    assert_eq!(code, 1);
    assert_eq!(v["trigger"]["precision"], Value::Null);
    assert_eq!(v["trigger"]["recall"], Value::Null);
    assert_eq!(v["trigger"]["f1"], Value::Null);
    assert_eq!(v["trigger"]["tn"], 10);
    score(&s, &c, &o)
        .assert()
        .stdout(contains("precision n/a  recall n/a  F1 n/a"));
}
