//! `skillsift score triggers FILE`: per-client trigger-set gates.

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::Path;

/// The exact trigger-set command docs/scorer.md shows.
const DOCS_COMMAND: &str =
    "skillsift score triggers tests/fixtures/score/example/triggers.json --hide-heldout";

fn run_line(line: &str) -> Command {
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("skillsift"));
    let mut c = Command::cargo_bin("skillsift").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR")).args(words);
    c
}

fn triggers(file: &Path, extra: &[&str]) -> Command {
    let mut c = Command::cargo_bin("skillsift").unwrap();
    c.args(["score", "triggers"]).arg(file).args(extra);
    c
}

fn write(dir: &Path, text: &str) -> std::path::PathBuf {
    let p = dir.join("triggers.json");
    std::fs::write(&p, text).unwrap();
    p
}

/// `n_should` should rows and `n_not` should-not rows in train, `n_fresh`
/// fresh rows, all passing with 3 of 3 / 0 of 3.
fn rows(n_should: usize, n_not: usize, n_fresh: usize) -> Vec<String> {
    let mut v = Vec::new();
    for i in 0..n_should {
        v.push(format!(r#"{{"query":"should {i}","should_trigger":true,"split":"train","runs":[true,true,true]}}"#));
    }
    for i in 0..n_not {
        v.push(format!(r#"{{"query":"not {i}","should_trigger":false,"split":"validation","runs":[false,false,false]}}"#));
    }
    for i in 0..n_fresh {
        v.push(format!(
            r#"{{"query":"fresh {i}","should_trigger":true,"split":"fresh","triggers":3,"runs":3}}"#
        ));
    }
    v
}

fn array(rows: &[String]) -> String {
    format!("[\n{}\n]\n", rows.join(",\n"))
}

#[test]
fn docs_scorer_page_shows_this_command() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scorer.md"))
            .unwrap();
    assert!(
        page.contains(&format!("```sh\n{DOCS_COMMAND}\n```")),
        "docs/scorer.md no longer shows `{DOCS_COMMAND}`"
    );
}

#[test]
fn readme_example_fails_the_client_that_misses_and_hides_heldout_text() {
    run_line(DOCS_COMMAND)
        .assert()
        .code(1)
        .stdout(contains("client claude-code: PASS"))
        .stdout(contains("client codex: FAIL"))
        .stdout(contains("should       8/10 pass"))
        .stdout(contains("\"Can I get a refund on a gift card?\""))
        .stdout(contains(
            "held out: 1 validation and 0 fresh row(s) fail (text hidden)",
        ))
        // The failing validation row's text never appears.
        .stdout(contains("Send the damaged mug back").not());
}

#[test]
fn without_hide_heldout_every_failing_row_is_shown() {
    run_line("skillsift score triggers tests/fixtures/score/example/triggers.json")
        .assert()
        .code(1)
        .stdout(contains("\"Send the damaged mug back for a refund\""));
}

#[test]
fn hide_heldout_keeps_heldout_text_out_of_json_too() {
    let out = run_line(&format!("{DOCS_COMMAND} --format json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("Send the damaged mug back"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let codex = &v["clients"][1];
    assert_eq!(codex["client"], "codex");
    assert_eq!(codex["passed"], false);
    assert_eq!(
        codex["should"],
        serde_json::json!({"passed": 8, "total": 10})
    );
    assert_eq!(codex["hidden_failures"]["validation"], 1);
    assert_eq!(v["verdict"], "fail");
}

#[test]
fn passing_set_exits_0() {
    let t = tempfile::tempdir().unwrap();
    let f = write(t.path(), &array(&rows(10, 10, 5)));
    triggers(&f, &["--final"])
        .assert()
        .code(0)
        .stdout(contains("client default: PASS"));
}

#[test]
fn one_miss_in_ten_passes_two_fail() {
    let t = tempfile::tempdir().unwrap();
    let mut r = rows(10, 10, 0);
    r[0] = r[0].replace("[true,true,true]", "[true,false,false]");
    triggers(&write(t.path(), &array(&r)), &[]).assert().code(0);
    r[1] = r[1].replace("[true,true,true]", "[false,false,true]");
    triggers(&write(t.path(), &array(&r)), &[])
        .assert()
        .code(1)
        .stdout(contains(
            "should-trigger rows (train + validation): 8 of 10 pass",
        ));
}

#[test]
fn final_fails_small_sets_that_otherwise_pass() {
    let t = tempfile::tempdir().unwrap();
    let f = write(t.path(), &array(&rows(9, 10, 4)));
    triggers(&f, &[]).assert().code(0);
    triggers(&f, &["--final"])
        .assert()
        .code(1)
        .stdout(contains(
            "--final: 9 should-trigger rows in train + validation, at least 10 needed",
        ))
        .stdout(contains("--final: 4 fresh rows, at least 5 needed"));
}

#[test]
fn final_fails_rows_with_fewer_than_three_runs() {
    let t = tempfile::tempdir().unwrap();
    let mut r = rows(10, 10, 5);
    r[3] = r[3].replace("[true,true,true]", "[true,true]");
    triggers(&write(t.path(), &array(&r)), &["--final"])
        .assert()
        .code(1)
        .stdout(contains("--final: 1 row(s) with fewer than 3 runs"));
}

#[test]
fn manual_only_fails_any_automatic_trigger() {
    let t = tempfile::tempdir().unwrap();
    let r = vec![
        r#"{"query":"/refund-policy check order 1","should_trigger":true,"split":"train","invocation":"explicit","runs":[true,true,true]}"#.to_string(),
        r#"{"query":"refund order 1","should_trigger":false,"split":"train","runs":[false,false,false]}"#.to_string(),
    ];
    triggers(&write(t.path(), &array(&r)), &["--manual-only"])
        .assert()
        .code(0);
    let mut r2 = r.clone();
    r2[1] = r2[1].replace("[false,false,false]", "[false,true,false]");
    // 1 of 3 passes the majority rule, but not --manual-only.
    triggers(&write(t.path(), &array(&r2)), &[])
        .assert()
        .code(0);
    triggers(&write(t.path(), &array(&r2)), &["--manual-only"])
        .assert()
        .code(1)
        .stdout(contains("--manual-only"));
    let mut r3 = r;
    r3[0] = r3[0].replace("[true,true,true]", "[true,true,false]");
    triggers(&write(t.path(), &array(&r3)), &["--manual-only"])
        .assert()
        .code(1);
}

#[test]
fn clients_are_gated_separately() {
    let t = tempfile::tempdir().unwrap();
    let mut r: Vec<String> = rows(10, 10, 0)
        .into_iter()
        .map(|x| x.replacen('{', r#"{"client":"a","#, 1))
        .collect();
    r.extend(rows(10, 10, 0).into_iter().map(|x| {
        x.replacen('{', r#"{"client":"b","#, 1)
            .replace("[false,false,false]", "[true,true,false]")
    }));
    triggers(&write(t.path(), &array(&r)), &[])
        .assert()
        .code(1)
        .stdout(contains("client a: PASS"))
        .stdout(contains("client b: FAIL"))
        .stdout(contains(
            "should-not rows (train + validation): 0 of 10 pass",
        ));
}

#[test]
fn malformed_json_is_refused_with_line_and_column() {
    let t = tempfile::tempdir().unwrap();
    let f = write(t.path(), "[\n{\"query\": \"x\",\n");
    triggers(&f, &[])
        .assert()
        .code(2)
        .stderr(contains("triggers.json:3:"));
}

#[test]
fn row_errors_name_the_row_and_its_line() {
    let t = tempfile::tempdir().unwrap();
    let mut r = rows(2, 0, 0);
    r.push(r#"{"query":"q","should_trigger":true,"split":"train","triggers":4,"runs":3}"#.into());
    triggers(&write(t.path(), &array(&r)), &[])
        .assert()
        .code(2)
        .stderr(contains(
            "triggers.json:4:1: row 3: `triggers` (4) is more than `runs` (3)",
        ));
    let mut r = rows(1, 0, 0);
    r.push(r#"{"query":"q","should_trigger":true,"split":"train","runs":3}"#.into());
    triggers(&write(t.path(), &array(&r)), &[])
        .assert()
        .code(2)
        .stderr(contains("row 2: `runs` is a count, so `triggers`"));
    let r = vec![r#"{"query":"q","should_trigger":true,"split":"test","runs":[true]}"#.to_string()];
    triggers(&write(t.path(), &array(&r)), &[])
        .assert()
        .code(2)
        .stderr(contains(
            "triggers.json:2:44: `split` of row 1 is not one of `train`, `validation`, `fresh`",
        ));
    let r = vec![r#"{"query":"q","should_trigger":true,"split":"train","runs":[]}"#.to_string()];
    triggers(&write(t.path(), &array(&r)), &[])
        .assert()
        .code(2)
        .stderr(contains("row 1: the row has no runs"));
}

#[test]
fn empty_set_is_insufficient() {
    let t = tempfile::tempdir().unwrap();
    triggers(&write(t.path(), "[]"), &[])
        .assert()
        .code(3)
        .stderr(contains("the trigger set has no rows"));
}

#[cfg(unix)]
#[test]
fn symlinked_trigger_file_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let f = write(t.path(), &array(&rows(1, 1, 0)));
    let link = t.path().join("link.json");
    std::os::unix::fs::symlink(&f, &link).unwrap();
    triggers(&link, &[])
        .assert()
        .code(2)
        .stderr(contains("is a symbolic link"));
}

#[test]
fn score_flags_with_the_triggers_subcommand_are_refused() {
    run_line("skillsift score --skill tests/fixtures/score/example/refund-policy triggers tests/fixtures/score/example/triggers.json")
        .assert()
        .code(2)
        .stderr(contains("`score triggers` reads only its FILE"));
}
