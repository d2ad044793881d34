//! Timing of the scorer on large evidence (not a test of speed: it prints).
//!
//! cargo test --release --test score_timing -- --ignored --nocapture

use score::{Inputs, Options, score_files};
use std::fmt::Write as _;
use std::time::Instant;

#[test]
#[ignore = "timing: run by hand with --release --ignored --nocapture"]
fn time_ten_thousand_cases() {
    let t = tempfile::tempdir().unwrap();
    let skill = t.path().join("s");
    std::fs::create_dir(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: s\ndescription: d\n---\n",
    )
    .unwrap();
    let (mut cases, mut obs) = (String::new(), String::new());
    let n = 10_000;
    for i in 0..n {
        let expect = i % 2 == 0;
        writeln!(
            cases,
            r#"{{"id":"c{i}","prompt":"prompt {i}","expectTrigger":{expect},"task":{{"check":"json_equals","expected":{{"ok":true,"n":{i}}}}}}}"#
        )
        .unwrap();
        for trial in 1..=3 {
            for v in ["with", "without"] {
                let ok = (i * 7 + trial * 3 + usize::from(v == "with") * 5) % 10 < 7;
                let out = if ok {
                    format!(r#"{{\"n\":{i},\"ok\":true}}"#)
                } else {
                    "no".repeat(100)
                };
                let inv = if v == "with" && expect {
                    r#"["s"]"#
                } else {
                    "[]"
                };
                writeln!(
                    obs,
                    r#"{{"caseId":"c{i}","trial":{trial},"variant":"{v}","invokedSkills":{inv},"output":"{out}","exitCode":0}}"#
                )
                .unwrap();
            }
        }
    }
    std::fs::write(t.path().join("cases.jsonl"), &cases).unwrap();
    std::fs::write(t.path().join("obs.jsonl"), &obs).unwrap();
    let inputs = Inputs {
        skill_dir: &skill,
        cases: &t.path().join("cases.jsonl"),
        observations: &t.path().join("obs.jsonl"),
    };
    for _ in 0..3 {
        let start = Instant::now();
        let r = score_files(&inputs, &Options::default()).unwrap();
        eprintln!(
            "{n} cases, {} observations ({} bytes): {:.3} s, uplift {:?}",
            n * 6,
            obs.len(),
            start.elapsed().as_secs_f64(),
            r.task.map(|t| (t.uplift.ci_low, t.uplift.ci_high))
        );
    }
}
