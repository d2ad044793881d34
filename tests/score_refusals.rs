//! `skillsift score` refuses inconsistent or unsafe evidence with exit 2 and
//! a message naming the file and line; it never scores a subset.

use assert_cmd::Command;
use predicates::str::contains;
use std::path::{Path, PathBuf};

/// A skill folder plus cases.jsonl and observations.jsonl in a temp dir:
/// `n` cases, 3 trials, every case with an `exit_code` task check.
struct Evidence {
    _dir: tempfile::TempDir,
    root: PathBuf,
    cases: Vec<String>,
    obs: Vec<String>,
}

impl Evidence {
    fn new(n: usize) -> Evidence {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let skill = root.join("demo-skill");
        std::fs::create_dir(&skill).unwrap();
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: demo-skill\ndescription: Demo. Use when testing.\n---\n# Demo\n",
        )
        .unwrap();
        let mut cases = Vec::new();
        let mut obs = Vec::new();
        for i in 0..n {
            let expect = i % 2 == 0;
            cases.push(format!(
                r#"{{"id":"c{i}","prompt":"prompt number {i}","expectTrigger":{expect},"task":{{"check":"exit_code","expected":0}}}}"#
            ));
            for trial in 1..=3 {
                let inv = if expect { r#"["demo-skill"]"# } else { "[]" };
                obs.push(format!(
                    r#"{{"caseId":"c{i}","trial":{trial},"variant":"with","invokedSkills":{inv},"output":"ok","exitCode":0}}"#
                ));
                let code = if i % 3 == 0 { 0 } else { 1 };
                obs.push(format!(
                    r#"{{"caseId":"c{i}","trial":{trial},"variant":"without","invokedSkills":[],"output":"ok","exitCode":{code}}}"#
                ));
            }
        }
        Evidence {
            _dir: dir,
            root,
            cases,
            obs,
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// Write the files and return a command scoring them.
    fn cmd(&self) -> Command {
        std::fs::write(self.path("cases.jsonl"), self.cases.join("\n") + "\n").unwrap();
        std::fs::write(self.path("observations.jsonl"), self.obs.join("\n") + "\n").unwrap();
        let mut c = Command::cargo_bin("skillsift").unwrap();
        c.arg("score")
            .arg("--skill")
            .arg(self.path("demo-skill"))
            .arg("--cases")
            .arg(self.path("cases.jsonl"))
            .arg("--observations")
            .arg(self.path("observations.jsonl"));
        c
    }
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn consistent_evidence_is_scored() {
    Evidence::new(10)
        .cmd()
        .assert()
        .code(0)
        .stdout(contains("verdict  pass"));
}

#[test]
fn duplicate_case_id_is_refused_with_its_line() {
    let mut e = Evidence::new(10);
    e.cases[4] = e.cases[4].replace("\"c4\"", "\"c1\"");
    let want = format!(
        "{}:5: duplicate case id `c1` (first on line 2)",
        shown(&e.path("cases.jsonl"))
    );
    e.cmd().assert().code(2).stderr(contains(want));
}

#[test]
fn duplicate_observation_is_refused_with_both_lines() {
    let mut e = Evidence::new(10);
    let dup = e.obs[0].clone();
    e.obs.push(dup);
    let want = format!(
        "{}:61: duplicate observation for case `c0` trial 1 variant `with` (first on line 1)",
        shown(&e.path("observations.jsonl"))
    );
    e.cmd().assert().code(2).stderr(contains(want));
}

#[test]
fn missing_observation_is_refused_not_scored_on_a_subset() {
    let mut e = Evidence::new(10);
    // Line 10 is c1 trial 2 without.
    let gone = e.obs.remove(9);
    assert!(gone.contains(r#""caseId":"c1","trial":2,"variant":"without""#));
    e.cmd()
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(
            "no observation for case `c1` trial 2 variant `without`",
        ))
        .stderr(contains("1 of 60 observations are missing"));
}

#[test]
fn extra_trial_beyond_trials_is_refused() {
    let mut e = Evidence::new(10);
    e.obs.push(
        r#"{"caseId":"c0","trial":4,"variant":"with","invokedSkills":[],"output":"","exitCode":0}"#
            .into(),
    );
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(":61: case `c0` trial 4 is outside 1..=3"));
}

#[test]
fn trial_zero_is_refused() {
    let mut e = Evidence::new(10);
    e.obs[0] = e.obs[0].replace("\"trial\":1", "\"trial\":0");
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(":1: case `c0` trial 0 is outside 1..=3"));
}

#[test]
fn fewer_trials_than_recorded_is_refused_as_extra() {
    Evidence::new(10)
        .cmd()
        .args(["--trials", "2"])
        .assert()
        .code(2)
        .stderr(contains("trial 3 is outside 1..=2"));
}

#[test]
fn unknown_case_id_is_refused() {
    let mut e = Evidence::new(10);
    e.obs[6] = e.obs[6].replace("\"c1\"", "\"c99\"");
    let want = format!(
        "{}:7: unknown caseId `c99`",
        shown(&e.path("observations.jsonl"))
    );
    e.cmd().assert().code(2).stderr(contains(want));
}

#[test]
fn without_run_that_loaded_the_skill_is_refused() {
    let mut e = Evidence::new(10);
    e.obs[3] = e.obs[3].replace(r#""invokedSkills":[]"#, r#""invokedSkills":["demo-skill"]"#);
    e.cmd().assert().code(2).stderr(contains(
        ":4: the `without` run of case `c0` trial 2 loaded the tested skill `demo-skill`",
    ));
}

#[test]
fn without_run_that_loaded_a_plugin_copy_is_refused() {
    let mut e = Evidence::new(10);
    e.obs[1] = e.obs[1].replace(
        r#""invokedSkills":[]"#,
        r#""invokedSkills":["other","acme:demo-skill"]"#,
    );
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(":2: the `without` run"))
        .stderr(contains("(as `acme:demo-skill`)"));
}

#[test]
fn malformed_observation_line_names_line_and_column() {
    let mut e = Evidence::new(10);
    e.obs[2] = r#"{"caseId":"c0","trial":2,"variant":"with""#.into();
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(format!(
            "{}:3:",
            shown(&e.path("observations.jsonl"))
        )))
        .stderr(contains("EOF while parsing"));
}

#[test]
fn observation_missing_a_field_is_refused() {
    let mut e = Evidence::new(10);
    e.obs[0] = e.obs[0].replace(r#","exitCode":0"#, "");
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(":1:"))
        .stderr(contains("missing field `exitCode`"));
}

#[test]
fn unknown_variant_is_refused() {
    let mut e = Evidence::new(10);
    e.obs[0] = e.obs[0].replace("\"with\"", "\"baseline\"");
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(":1:"))
        .stderr(contains("unknown variant `baseline`"));
}

#[test]
fn case_line_with_unknown_key_is_refused() {
    let mut e = Evidence::new(10);
    e.cases[2] = e.cases[2].replace("\"expectTrigger\"", "\"expect_trigger\"");
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(format!("{}:3:", shown(&e.path("cases.jsonl")))))
        .stderr(contains("unknown field `expect_trigger`"));
}

#[test]
fn unsafe_integer_in_expected_is_refused() {
    let mut e = Evidence::new(10);
    e.cases[0] = r#"{"id":"c0","prompt":"prompt number 0","expectTrigger":true,"task":{"check":"json_equals","expected":{"n":9007199254740993}}}"#.into();
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(":1:"))
        .stderr(contains("beyond ±9007199254740991"));
}

#[test]
fn unknown_task_check_is_refused() {
    let mut e = Evidence::new(10);
    e.cases[1] = e.cases[1].replace("exit_code", "regex");
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(":2: case `c1`: unknown task check `regex`"));
}

#[test]
fn crlf_line_ends_are_read() {
    let e = Evidence::new(10);
    let mut c = e.cmd();
    let crlf = e.obs.join("\r\n") + "\r\n";
    std::fs::write(e.path("observations.jsonl"), crlf).unwrap();
    c.assert().code(0);
}

#[test]
fn line_longer_than_4_mib_is_refused() {
    let mut e = Evidence::new(10);
    let long = "x".repeat(4 * 1024 * 1024 + 1);
    e.obs[4] = e.obs[4].replace("\"output\":\"ok\"", &format!("\"output\":\"{long}\""));
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains(":5: line is longer than 4194304 bytes"));
}

#[test]
fn file_larger_than_50_mb_is_refused() {
    let e = Evidence::new(10);
    let mut c = e.cmd();
    let f = std::fs::OpenOptions::new()
        .append(true)
        .open(e.path("observations.jsonl"))
        .unwrap();
    f.set_len(50_000_001).unwrap();
    c.assert()
        .code(2)
        .stderr(contains("file is larger than 50000000 bytes"));
}

#[cfg(unix)]
#[test]
fn symlinked_input_file_is_refused() {
    let e = Evidence::new(10);
    let mut c = e.cmd();
    let real = e.path("real.jsonl");
    std::fs::rename(e.path("cases.jsonl"), &real).unwrap();
    std::os::unix::fs::symlink(&real, e.path("cases.jsonl")).unwrap();
    c.assert().code(2).stderr(contains("is a symbolic link"));
}

#[cfg(unix)]
#[test]
fn fifo_input_is_refused_without_blocking() {
    let e = Evidence::new(10);
    let mut c = e.cmd();
    std::fs::remove_file(e.path("observations.jsonl")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(e.path("observations.jsonl"))
        .status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo unavailable");
        return;
    }
    c.timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(contains("is not a regular file (a FIFO)"));
}

#[test]
fn folder_as_input_file_is_refused() {
    let e = Evidence::new(10);
    let mut c = e.cmd();
    std::fs::remove_file(e.path("cases.jsonl")).unwrap();
    std::fs::create_dir(e.path("cases.jsonl")).unwrap();
    c.assert()
        .code(2)
        .stderr(contains("is not a regular file (a folder)"));
}

#[test]
fn missing_input_file_is_refused() {
    let e = Evidence::new(10);
    let mut c = e.cmd();
    std::fs::remove_file(e.path("observations.jsonl")).unwrap();
    c.assert().code(2).stderr(contains("cannot read"));
}

#[cfg(unix)]
#[test]
fn symlink_in_the_skill_folder_is_refused() {
    let e = Evidence::new(10);
    std::os::unix::fs::symlink("SKILL.md", e.path("demo-skill/alias.md")).unwrap();
    e.cmd()
        .assert()
        .code(2)
        .stderr(contains("alias.md: symbolic link in the skill folder"));
}

#[test]
fn skill_folder_without_skill_md_is_refused() {
    let e = Evidence::new(10);
    std::fs::remove_file(e.path("demo-skill/SKILL.md")).unwrap();
    e.cmd().assert().code(2).stderr(contains("has no SKILL.md"));
}

#[test]
fn missing_flags_are_a_usage_error() {
    Command::cargo_bin("skillsift")
        .unwrap()
        .args(["score", "--cases", "x.jsonl"])
        .assert()
        .code(2)
        .stderr(contains("missing --skill, --observations"));
}

#[test]
fn out_of_range_options_are_refused() {
    for (flag, value, msg) in [
        ("--trials", "0", "--trials must be between 1 and 1000"),
        (
            "--min-trigger-f1",
            "1.5",
            "--min-trigger-f1 must be between 0 and 1",
        ),
        (
            "--min-uplift",
            "NaN",
            "--min-uplift must be between -1 and 1",
        ),
    ] {
        Evidence::new(10)
            .cmd()
            .args([flag, value])
            .assert()
            .code(2)
            .stderr(contains(msg));
    }
}

#[test]
fn sarif_format_is_refused() {
    Evidence::new(10)
        .cmd()
        .args(["--format", "sarif"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'sarif' for '--format <FORMAT>'"))
        .stderr(contains("[possible values: human, json, junit]"));
}
