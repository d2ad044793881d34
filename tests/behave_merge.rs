//! `check --behavioral --shard I/N` and `skillsift merge DIR…`.

#[path = "behave_support/mod.rs"]
mod support;

use predicates::prelude::*;
use support::Env;

/// Ten dialogue evals plus the usual trigger prompts: enough distinct cases
/// and task cases for the scorer to reach a verdict.
fn ten_evals() -> String {
    let evals: Vec<_> = (1..=10)
        .map(|i| {
            serde_json::json!({
                "id": i,
                "kind": "dialogue",
                "prompt": format!("[rec:chat] Question number {i}: ask me about rounding first."),
                "expected_output": "questions first",
                "expectations": [format!("The agent asks about rounding before change {i}")],
            })
        })
        .collect();
    support::cases_with_evals(serde_json::Value::Array(evals))
}

const GATES: &[&str] = &[
    "--min-trigger-f1",
    "0.9",
    "--min-uplift",
    "0.5",
    "--format",
    "json",
];

#[test]
fn shards_merge_into_the_same_scores_as_one_whole_run() {
    let env = Env::new();
    env.cases(&ten_evals());
    // trigger runs read whole: one stopped once the skill loads keeps
    // what the stream held when the watcher looked, which a loaded
    // machine makes differ from run to run
    let whole = env
        .behave(&["--trials", "1", "--jobs", "3", "--trigger-runs", "full"])
        .args(GATES)
        .output()
        .unwrap();
    assert_eq!(
        whole.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    assert_eq!(report["verdict"], "pass");
    assert_eq!(report["task"]["cases"], 10);

    for i in 1..=3 {
        env.behave(&[
            "--trials",
            "1",
            "--jobs",
            "3",
            "--trigger-runs",
            "full",
            "--shard",
            &format!("{i}/3"),
            "--format",
            "json",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("\"scored\": false"));
    }
    let shards: Vec<String> = (2..=4)
        .map(|n| env.iteration(n).display().to_string())
        .collect();
    let merged_dir = env.tmp.path().join("merged");
    let merged = env
        .cmd()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged_dir)
        .args(GATES)
        .output()
        .unwrap();
    assert_eq!(
        merged.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&whole.stdout),
        "the merged report (statistics, gates, input hashes) equals the whole run's"
    );
    assert_eq!(
        std::fs::read(merged_dir.join("observations.jsonl")).unwrap(),
        std::fs::read(env.iteration(1).join("observations.jsonl")).unwrap()
    );
    assert!(
        merged_dir
            .join("eval-10/without_skill/run-1/grading.json")
            .is_file()
    );
    let calls = env.executor_calls().len();
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(env.iteration(1).join("plan.json")).unwrap())
            .unwrap();
    assert!(plan["shape"].is_null() && plan["total_runs"].as_u64().unwrap() < 60);
    assert_eq!(
        calls as u64,
        2 * plan["total_runs"].as_u64().unwrap(),
        "the shards together ran each run exactly once (the whole run, then the shards)"
    );
}

fn two_shards(env: &Env) -> (String, String) {
    for i in 1..=2 {
        env.behave(&["--trials", "1", "--shard", &format!("{i}/2")])
            .assert()
            .code(0);
    }
    (
        env.iteration(1).display().to_string(),
        env.iteration(2).display().to_string(),
    )
}

#[test]
fn merge_refuses_a_missing_or_repeated_shard() {
    let env = Env::new();
    let (a, b) = two_shards(&env);
    env.cmd()
        .args(["merge", &a])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("shard 2/2 missing"));
    env.cmd()
        .args(["merge", &a, &a])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("are both shard 1/2"));
    env.cmd().args(["merge", &a, &b]).assert().code(3);
    assert!(
        env.root
            .parent()
            .unwrap()
            .join("evals/results/demo-skill/iteration-1/plan.json")
            .is_file()
    );
}

#[test]
fn merge_refuses_shards_of_different_plans() {
    let env = Env::new();
    env.behave(&["--trials", "1", "--shard", "1/2"])
        .assert()
        .code(0);
    env.behave(&["--trials", "2", "--shard", "2/2"])
        .assert()
        .code(0);
    env.cmd()
        .args(["merge"])
        .arg(env.iteration(1))
        .arg(env.iteration(2))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("come from different plans"));
}

#[test]
fn merge_refuses_a_skill_changed_since_the_shards_ran() {
    let env = Env::new();
    let (a, b) = two_shards(&env);
    std::fs::write(env.root.join("skills/demo-skill/extra.md"), "new").unwrap();
    env.cmd()
        .args(["merge", &a, &b])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the skill changed since the shards ran",
        ));
}

#[test]
fn merge_refuses_an_edited_plan() {
    let env = Env::new();
    let (a, b) = two_shards(&env);
    let p = std::path::Path::new(&a).join("plan.json");
    let text = std::fs::read_to_string(&p)
        .unwrap()
        .replace("\"trials\": 1", "\"trials\": 2");
    std::fs::write(&p, text).unwrap();
    env.cmd()
        .args(["merge", &a, &b])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not match its fingerprint"));
}

#[test]
fn a_shard_with_a_run_lacking_evidence_exits_4_and_so_does_its_merge() {
    let env = Env::new();
    env.cases(&support::one_dialogue_eval(
        "[rec:noresult] Do it.",
        &["It does it"],
    ));
    env.behave(&["--trials", "1", "--shard", "1/2"])
        .assert()
        .code(4);
    env.behave(&["--trials", "1", "--shard", "2/2"])
        .assert()
        .code(4);
    env.cmd()
        .arg("merge")
        .arg(env.iteration(1))
        .arg(env.iteration(2))
        .assert()
        .code(4)
        .stdout(predicate::str::contains("runs produced no verdict"));
}

#[test]
fn shards_run_with_gates_are_judged_by_them_when_merged_and_differing_gates_are_named() {
    let env = Env::new();
    env.cases(&ten_evals());
    // a gate out of range is refused before any run
    env.behave(&["--trials", "1", "--shard", "1/2", "--min-uplift", "1.5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--min-uplift must be between -1 and 1",
        ));
    assert!(env.executor_calls().is_empty());
    // the shards record the gate; the merge, given none, judges by it
    for i in 1..=2 {
        env.behave(&[
            "--trials",
            "1",
            "--shard",
            &format!("{i}/2"),
            "--min-uplift",
            "1",
        ])
        .assert()
        .code(0);
    }
    let (a, b) = (env.iteration(1), env.iteration(2));
    let out = env.tmp.path().join("merged");
    env.cmd()
        .arg("merge")
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "PASS  min-uplift: uplift CI lower bound 1.000 ≥ 1.000",
        ))
        .stderr(predicate::str::contains("judged by other gates").not());
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("plan.json")).unwrap()).unwrap();
    assert_eq!(plan["gates"]["min_uplift"], 1.0);
    // a flag given to merge wins
    env.cmd()
        .arg("merge")
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(env.tmp.path().join("merged-2"))
        .args(["--min-uplift", "0.5"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("lower bound 1.000 ≥ 0.500"));
    // a third shard set whose second shard ran without the gate
    env.behave(&["--trials", "1", "--shard", "2/2"])
        .assert()
        .code(0);
    env.cmd()
        .arg("merge")
        .arg(&a)
        .arg(env.iteration(3))
        .arg("--out")
        .arg(env.tmp.path().join("merged-3"))
        .assert()
        .code(0)
        .stderr(predicate::str::contains(format!(
            "skillsift: warning: {} was judged by other gates than {} (no gate against --min-uplift 1)",
            env.iteration(3).display(),
            a.display()
        )));
}
