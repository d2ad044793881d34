//! `skillsift score` over per-expectation verdicts: the quality-delta gate
//! on both sides of its threshold (exact points), blockers, blockers the
//! skill fixes, and what the scorer refuses.

mod common;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A skill folder and evidence files in a temporary folder.
struct Evidence {
    dir: tempfile::TempDir,
}

impl Evidence {
    /// Ten cases with `kinds` expectations each; `verdict(case, variant,
    /// expectation)` decides each verdict (one trial).
    fn new(kinds: &[&str], verdict: impl Fn(usize, &str, usize) -> bool) -> Evidence {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("refund-policy");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: refund-policy\ndescription: Refund rules. Use when a refund is asked for.\n---\n# Refunds\n",
        )
        .unwrap();
        let mut cases = String::new();
        let mut obs = String::new();
        for c in 0..10 {
            let ex: Vec<Value> = kinds
                .iter()
                .enumerate()
                .map(|(i, k)| json!({"text": format!("e{i}"), "kind": k}))
                .collect();
            cases.push_str(
                &json!({"id": format!("c{c}"), "prompt": format!("refund question {c}"), "expectTrigger": true,
                        "task": {"check": "exit_code", "expected": 0}, "expectations": ex})
                .to_string(),
            );
            cases.push('\n');
            for v in ["with", "without"] {
                let verdicts: Vec<Value> = (0..kinds.len())
                    .map(
                        |i| json!({"passed": verdict(c, v, i), "evidence": format!("{v} {c} {i}")}),
                    )
                    .collect();
                let all = (0..kinds.len()).all(|i| verdict(c, v, i));
                obs.push_str(
                    &json!({"caseId": format!("c{c}"), "trial": 1, "variant": v,
                            "invokedSkills": if v == "with" { json!(["refund-policy"]) } else { json!([]) },
                            "output": "", "exitCode": if all { 0 } else { 1 }, "expectations": verdicts})
                    .to_string(),
                );
                obs.push('\n');
            }
        }
        std::fs::write(dir.path().join("cases.jsonl"), cases).unwrap();
        std::fs::write(dir.path().join("observations.jsonl"), obs).unwrap();
        Evidence { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn score(&self, extra: &[&str]) -> (i32, String) {
        let out = common::skillsift()
            .args(["score", "--trials", "1", "--skill"])
            .arg(self.path("refund-policy"))
            .arg("--cases")
            .arg(self.path("cases.jsonl"))
            .arg("--observations")
            .arg(self.path("observations.jsonl"))
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    }

    fn json(&self, extra: &[&str]) -> Value {
        let mut a = vec!["--format", "json"];
        a.extend_from_slice(extra);
        let (_, out) = self.score(&a);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
    }
}

const FIVE: [&str; 5] = ["quality"; 5];

/// With the skill 3 of 5 quality expectations pass in every case; without,
/// `without` of 5 (in points: 60 − 20·without).
fn delta(without: usize) -> Evidence {
    Evidence::new(
        &FIVE,
        move |_, v, i| {
            if v == "with" { i < 3 } else { i < without }
        },
    )
}

#[test]
fn the_quality_delta_gate_passes_at_exactly_its_threshold_and_fails_below_it() {
    // 30/50 − 20/50 is 20 points exactly, not 19.999…
    let e = delta(2);
    let (code, out) = e.score(&["--min-quality-delta", "20"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("quality    50 expectations; with skill 0.600 (30/50)  without 0.400 (20/50)  delta +20.0 points"),
        "{out}"
    );
    assert!(
        out.contains("PASS  min-quality-delta: quality delta +20.0 ≥ +20.0 points"),
        "{out}"
    );
    let (code, out) = e.score(&["--min-quality-delta", "20.5"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL  min-quality-delta: quality delta +20.0 < +20.5 points"),
        "{out}"
    );
    let doc = e.json(&["--min-quality-delta", "20"]);
    assert_eq!(doc["expectations"]["quality"]["delta_points"], 20.0);
    assert_eq!(doc["gates"][0]["name"], "min_quality_delta");
    assert_eq!(doc["gates"][0]["value"], 20.0);
    // 18 points (with 30/50, without 21/50) fails at 20; 40 passes
    let e = Evidence::new(&FIVE, |c, v, i| {
        if v == "with" {
            i < 3
        } else {
            i < 2 || (c == 0 && i == 2)
        }
    });
    let (code, out) = e.score(&["--min-quality-delta", "20"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("quality delta +18.0 < +20.0 points"), "{out}");
    let (code, _) = delta(1).score(&["--min-quality-delta", "20"]);
    assert_eq!(code, 0);
}

#[test]
fn the_quality_delta_gate_passes_when_the_skill_fixes_a_blocker_the_baseline_fails() {
    // quality equal in both arms (delta 0); the blocker fails without in case 3
    let e = Evidence::new(&["blocker", "quality"], |c, v, i| {
        i == 1 || v == "with" || c != 3
    });
    let (code, out) = e.score(&["--min-quality-delta", "20"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("PASS  min-quality-delta: quality delta +0.0 < +20.0 points"),
        "{out}"
    );
    assert!(
        out.contains("passed: blocker \"e0\" of c3 fails without the skill (1 of 1 trials) and passes with it"),
        "{out}"
    );
    assert!(
        out.contains("fixed      \"e0\" of c3 fails without 1 of 1 trials and passes in every with-skill trial"),
        "{out}"
    );
    let doc = e.json(&["--min-quality-delta", "20"]);
    assert_eq!(doc["expectations"]["blockers"]["fixed"][0]["case"], "c3");
}

#[test]
fn a_blocker_failing_with_the_skill_fails_whatever_the_quality() {
    let e = Evidence::new(&["blocker", "quality"], |c, v, i| {
        !(v == "with" && c == 7 && i == 0)
    });
    let (code, out) = e.score(&["--min-quality-delta", "-100"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL  c7 trial 1: \"e0\""), "{out}");
    assert!(out.contains("evidence: with 7 0"), "{out}");
    assert!(
        out.contains(
            "verdict  fail: a gate failed: blocker \"e0\" of c7 failed in with-skill trial 1"
        ),
        "{out}"
    );
}

#[test]
fn without_quality_expectations_the_gate_has_nothing_to_compare() {
    let e = Evidence::new(&["blocker"], |_, _, _| true);
    let (code, out) = e.score(&["--min-quality-delta", "20"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("no quality delta (threshold +20.0 points)"),
        "{out}"
    );
    let (code, out) = e.score(&["--min-quality-delta", "101"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("--min-quality-delta must be between -100 and 100"),
        "{out}"
    );
}

fn rewrite(p: &Path, f: impl Fn(&mut Value)) {
    let text: String = std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            f(&mut v);
            v.to_string() + "\n"
        })
        .collect();
    std::fs::write(p, text).unwrap();
}

#[test]
fn verdicts_that_do_not_match_the_case_are_refused_with_their_line() {
    let e = Evidence::new(&FIVE, |_, _, _| true);
    let obs = e.path("observations.jsonl");
    rewrite(&obs, |v| {
        if v["caseId"] == "c2" && v["variant"] == "without" {
            v["expectations"].as_array_mut().unwrap().pop();
        }
    });
    let (code, out) = e.score(&[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(
            "observations.jsonl:6: case `c2` lists 5 expectations; this observation has 4 verdicts"
        ),
        "{out}"
    );
    rewrite(&obs, |v| {
        if v["caseId"] == "c2" && v["variant"] == "without" {
            v.as_object_mut().unwrap().remove("expectations");
        }
    });
    let (code, out) = e.score(&[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("but this observation has no `expectations` verdicts"),
        "{out}"
    );
    rewrite(&obs, |v| {
        if v["caseId"] == "c2" && v["variant"] == "without" {
            v["expectations"] = json!([{"passed": true, "text": "something else"}, {"passed": true}, {"passed": true}, {"passed": true}, {"passed": true}]);
        }
    });
    let (code, out) = e.score(&[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(
            "expectation 1 of case `c2` is \"something else\" here and \"e0\" in cases.jsonl"
        ),
        "{out}"
    );
}

#[test]
fn the_docs_worked_example_is_the_real_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (words, shown) = common::doc_example("tier3-gates.md", "## A worked example");
    assert_eq!(words[0], "skillsift");
    let out = common::skillsift()
        .current_dir(root)
        .args(&words[1..])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
}
