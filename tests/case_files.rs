//! Case files (`evals/cases/<skill>.json`) through the binary: every
//! `SG4xx` rule on a tiny fixture catalog under `tests/fixtures/cases/`.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cases")
        .join(name)
}

/// Run `skillsift check --no-route --format json` on a fixture; returns the
/// exit code and the diagnostics.
fn check(name: &str) -> (i32, Vec<Value>) {
    check_root(&fixture(name))
}

fn check_root(root: &Path) -> (i32, Vec<Value>) {
    common::check_diagnostics(root)
}

/// The `(rule, file, line)` of every case-file finding (`SG4xx`).
fn case_findings(diags: &[Value]) -> Vec<(String, String, Option<u64>)> {
    common::rule_file_line(diags, |d| d["rule"].as_str().unwrap().starts_with("SG4"))
}

fn finding<'a>(diags: &'a [Value], rule: &str) -> &'a Value {
    diags
        .iter()
        .find(|d| d["rule"] == rule)
        .unwrap_or_else(|| panic!("no {rule} in {diags:#?}"))
}

/// Assert one finding of `rule` at `line`, and return it.
fn at_line<'a>(diags: &'a [Value], rule: &str, line: u64) -> &'a Value {
    diags
        .iter()
        .find(|d| d["rule"] == rule && d["line"] == line)
        .unwrap_or_else(|| panic!("no {rule} at line {line} in {diags:#?}"))
}

/// Copy a fixture into a temporary folder (for tests that add symlinks).
fn copy_fixture(name: &str) -> tempfile::TempDir {
    common::copy_tree(&fixture(name))
}

#[test]
fn a_valid_catalog_has_no_case_findings_and_exits_zero() {
    let (code, diags) = check("valid");
    assert_eq!(case_findings(&diags), vec![]);
    assert_eq!(code, 0, "{diags:#?}");
}

#[test]
fn invalid_json_is_reported_at_its_line_and_column() {
    let (code, diags) = check("invalid-json");
    assert_eq!(code, 1);
    let d = finding(&diags, "SG401");
    assert_eq!(d["file"], "evals/cases/alpha.json");
    assert_eq!(d["line"], 5);
    assert_eq!(d["column"], 44);
    assert!(
        d["message"].as_str().unwrap().contains("trailing comma"),
        "{d}"
    );
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn a_case_file_that_is_not_utf8_is_reported_at_the_bad_byte() {
    let (code, diags) = check("not-utf8");
    assert_eq!(code, 1);
    let d = at_line(&diags, "SG400", 6);
    assert!(d["message"].as_str().unwrap().contains("not valid UTF-8"));
    // the rest of the file is still checked, and is otherwise fine
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn a_case_file_over_max_case_bytes_is_refused_not_parsed() {
    let (code, diags) = check("too-large");
    assert_eq!(code, 1);
    let found = case_findings(&diags);
    assert_eq!(
        found,
        vec![
            ("SG400".into(), "evals/cases/alpha.json".into(), None),
            ("SG400".into(), "evals/cases/beta.json".into(), None),
        ]
    );
    assert!(diags[0]["message"].as_str().unwrap().contains("256 bytes"));
}

#[test]
fn a_key_written_twice_is_an_error() {
    let (code, diags) = check("duplicate-key");
    assert_eq!(code, 1);
    let d = at_line(&diags, "SG402", 5);
    assert_eq!(d["column"], 66);
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn malformed_trigger_cases_are_located() {
    let (code, diags) = check("shape");
    assert_eq!(code, 1);
    let top_k = at_line(&diags, "SG403", 5);
    assert!(top_k["message"].as_str().unwrap().contains("`top_k`"));
    let prompt = at_line(&diags, "SG403", 6);
    assert!(
        prompt["message"]
            .as_str()
            .unwrap()
            .contains("a number, not a string")
    );
    let split = at_line(&diags, "SG403", 7);
    assert!(split["message"].as_str().unwrap().contains("`split`"));
    let neg = at_line(&diags, "SG403", 11);
    assert!(
        neg["message"]
            .as_str()
            .unwrap()
            .contains("negative case 2 is a string")
    );
    assert_eq!(case_findings(&diags).len(), 4, "{diags:#?}");
}

#[test]
fn skill_name_must_match_the_file_name() {
    let (code, diags) = check("skill-name-mismatch");
    assert_eq!(code, 1);
    let d = at_line(&diags, "SG404", 2);
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .contains("\"skill_name\": \"alpha\"")
    );
    // the file name names a real skill, so this is not also "unknown skill"
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn a_case_file_for_a_skill_that_does_not_exist_is_an_error() {
    let (code, diags) = check("unknown-skill");
    assert_eq!(code, 1);
    let d = at_line(&diags, "SG405", 2);
    assert_eq!(d["file"], "evals/cases/gamma.json");
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn every_skill_needs_a_case_file_when_evals_cases_exists() {
    // a notice by default: adopting case files one skill at a time is no
    // failure for the others
    let (code, diags) = check("missing-case-file");
    assert_eq!(code, 0);
    let d = at_line(&diags, "SG406", 2);
    assert_eq!(d["severity"], "notice");
    // the catalog can require them
    let dir = copy_fixture("missing-case-file");
    std::fs::write(
        dir.path().join("skillsift.toml"),
        "[lint.rules]\nSG406 = \"error\"\n",
    )
    .unwrap();
    let (code, diags) = check_root(dir.path());
    assert_eq!(code, 1);
    let d = at_line(&diags, "SG406", 2);
    assert_eq!(d["file"], "skills/beta/SKILL.md");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("evals/cases/beta.json")
    );
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn a_catalog_without_evals_cases_needs_no_case_files() {
    let dir = copy_fixture("valid");
    std::fs::remove_dir_all(dir.path().join("evals")).unwrap();
    let (code, diags) = check_root(dir.path());
    assert_eq!(case_findings(&diags), vec![]);
    assert_eq!(code, 0);
}

#[test]
fn too_few_cases_fail_the_minimums() {
    // the default minimums warn: a catalog adopting trigger tests with a
    // prompt or two per skill is told, not failed
    let (code, diags) = check("minimums");
    assert_eq!(code, 0, "{diags:#?}");
    // behavioral evals are not required by default
    let d = at_line(&diags, "SG407", 4);
    assert_eq!(d["severity"], "warning");
    assert_eq!(
        d["message"],
        "too few cases: 2 positive trigger prompts (minimum 3); 0 negative trigger prompts, no `trigger.negative` (minimum 2)"
    );
    assert!(
        d["help"].as_str().unwrap().contains(
            "unset in skillsift.toml, so this is a warning; set them to make falling short an error"
        ),
        "{d:#?}"
    );
    // minimums the catalog sets are errors
    let dir = copy_fixture("minimums");
    std::fs::write(
        dir.path().join("skillsift.toml"),
        "[cases]\nmin-positive = 3\n",
    )
    .unwrap();
    let (code, diags) = check_root(dir.path());
    assert_eq!(code, 1);
    assert_eq!(at_line(&diags, "SG407", 4)["severity"], "error");
    // a catalog that requires them: one finding for the file, naming
    // every list short of its minimum, at the first of them
    let dir = copy_fixture("minimums");
    std::fs::write(
        dir.path().join("skillsift.toml"),
        "[cases]\nmin-evals = 1\n",
    )
    .unwrap();
    let (code, diags) = check_root(dir.path());
    assert_eq!(code, 1);
    let d = at_line(&diags, "SG407", 4);
    assert_eq!(
        d["message"],
        "too few cases: 2 positive trigger prompts (minimum 3); 0 negative trigger prompts, no `trigger.negative` (minimum 2); 0 behavioral evals, no `evals` (minimum 1)"
    );
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .contains("[cases] min-positive, [cases] min-negative, [cases] min-evals")
    );
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn minimums_come_from_the_cases_section_of_skillsift_toml() {
    let (code, diags) = check("minimums-config");
    assert_eq!(case_findings(&diags), vec![]);
    assert_eq!(code, 0);
}

#[test]
fn an_eval_needs_expected_output_and_non_empty_expectations() {
    let (code, diags) = check("eval-shape");
    assert_eq!(code, 1);
    let missing = at_line(&diags, "SG408", 15);
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("no `expected_output`")
    );
    let empty = at_line(&diags, "SG408", 19);
    assert!(empty["message"].as_str().unwrap().contains("is empty"));
    assert_eq!(case_findings(&diags).len(), 2, "{diags:#?}");
}

#[test]
fn eval_ids_are_unique_across_numbers_and_strings() {
    let (code, diags) = check("duplicate-eval-id");
    assert_eq!(code, 1);
    let d = at_line(&diags, "SG409", 23);
    assert!(d["message"].as_str().unwrap().contains("lines 16 and 23"));
    // the second eval uses `assertions` and `kind: dialogue` without files: fine
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn an_unknown_eval_kind_is_an_error_with_a_suggestion() {
    let (code, diags) = check("eval-kind");
    assert_eq!(code, 1);
    let d = at_line(&diags, "SG410", 17);
    assert_eq!(d["help"], "did you mean \"dialogue\"?");
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn execution_evals_need_fixtures_that_exist() {
    let (code, diags) = check("fixture-missing");
    assert_eq!(code, 1);
    let missing = at_line(&diags, "SG411", 19);
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("`alpha-project`")
    );
    let none = at_line(&diags, "SG411", 22);
    assert!(none["message"].as_str().unwrap().contains("no fixture"));
    assert_eq!(case_findings(&diags).len(), 2, "{diags:#?}");
}

#[test]
fn fixture_paths_that_are_absolute_or_climb_out_are_refused() {
    let (code, diags) = check("fixture-escape");
    assert_eq!(code, 1);
    let dots = at_line(&diags, "SG412", 19);
    assert!(dots["message"].as_str().unwrap().contains("`..`"));
    let abs = at_line(&diags, "SG412", 26);
    assert!(abs["message"].as_str().unwrap().contains("absolute"));
    assert_eq!(case_findings(&diags).len(), 2, "{diags:#?}");
}

#[cfg(unix)]
#[test]
fn a_fixture_symlink_pointing_outside_evals_fixtures_is_refused() {
    let dir = copy_fixture("valid");
    let fixtures = dir.path().join("evals/fixtures/alpha");
    std::os::unix::fs::symlink(dir.path().join("skills"), fixtures.join("leak")).unwrap();
    let (code, diags) = check_root(dir.path());
    assert_eq!(code, 1);
    let d = at_line(&diags, "SG412", 19);
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("evals/fixtures/alpha/leak"),
        "{d}"
    );
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[cfg(unix)]
#[test]
fn a_fixture_that_is_itself_a_symlink_out_is_refused() {
    let dir = copy_fixture("valid");
    let fixtures = dir.path().join("evals/fixtures");
    std::fs::remove_dir_all(fixtures.join("alpha")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("skills/alpha"), fixtures.join("alpha")).unwrap();
    let (code, diags) = check_root(dir.path());
    assert_eq!(code, 1);
    at_line(&diags, "SG412", 19);
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn a_provisional_execution_eval_is_an_error() {
    let (code, diags) = check("provisional");
    assert_eq!(code, 1);
    at_line(&diags, "SG413", 21);
    assert_eq!(case_findings(&diags).len(), 1, "{diags:#?}");
}

#[test]
fn unknown_keys_are_warnings_that_suggest_the_known_key() {
    let (code, diags) = check("unknown-key");
    assert_eq!(code, 0, "warnings alone do not fail: {diags:#?}");
    let topk = at_line(&diags, "SG414", 6);
    assert_eq!(topk["severity"], "warning");
    assert_eq!(topk["help"], "did you mean `top_k`?");
    let exp = at_line(&diags, "SG414", 21);
    assert_eq!(exp["help"], "did you mean `expectations`?");
    assert_eq!(case_findings(&diags).len(), 2, "{diags:#?}");
}

#[test]
fn a_negative_owner_must_be_another_skill_of_the_catalog() {
    let (code, diags) = check("negative-owner");
    assert_eq!(code, 1);
    let unknown = at_line(&diags, "SG415", 10);
    assert_eq!(unknown["help"], "did you mean `beta`?");
    let own = at_line(&diags, "SG415", 11);
    assert!(own["message"].as_str().unwrap().contains("itself"));
    assert_eq!(case_findings(&diags).len(), 2, "{diags:#?}");
}

#[test]
fn a_prompt_both_positive_and_negative_is_an_error_and_a_repeat_a_warning() {
    let (code, diags) = check("duplicate-prompt");
    assert_eq!(code, 1);
    let repeat = at_line(&diags, "SG416", 7);
    assert_eq!(repeat["severity"], "warning");
    let both = at_line(&diags, "SG416", 11);
    assert_eq!(both["severity"], "error");
    assert_eq!(case_findings(&diags).len(), 2, "{diags:#?}");
}

#[test]
fn rule_docs_are_printed_for_every_case_rule() {
    for id in 400..=416 {
        let out = Command::cargo_bin("skillsift")
            .unwrap()
            .args(["rule", &format!("SG{id}")])
            .output()
            .unwrap();
        assert!(out.status.success(), "SG{id}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("## What it does"), "SG{id}: {text}");
    }
}

#[test]
fn the_addyosmani_case_files_have_no_false_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/addyosmani-agent-skills");
    let (_, diags) = check_root(&root);
    assert_eq!(case_findings(&diags), vec![]);
}

#[test]
fn the_shared_addyosmani_corpus_case_files_have_no_false_findings() {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/addyosmani-agent-skills");
    if !root.is_dir() {
        eprintln!("skipped: {} does not exist", root.display());
        return;
    }
    let (_, diags) = check_root(&root);
    assert_eq!(case_findings(&diags), vec![]);
}

/// The human report of a fixture, for snapshots.
fn human(name: &str) -> String {
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .args(["check", "--no-route"])
        .arg(fixture(name))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn human_report_of_invalid_json_points_at_the_character() {
    insta::assert_snapshot!(human("invalid-json"));
}

#[test]
fn human_report_of_a_missing_fixture_names_the_path_and_the_fix() {
    insta::assert_snapshot!(human("fixture-missing"));
}
