//! Trigger cases kept at the catalog root, one file per skill
//! (`evals/<skill>/trigger-eval.json`, `evals/triggers/<skill>.json`,
//! `tests/<skill>/trigger_tests.yaml`), found and routed through the binary.

mod common;

use common::{check_json, skill, skillsift, write};
use serde_json::Value;
use std::path::Path;

fn catalog() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    skill(
        root,
        "release-notes",
        "Write release notes and changelogs from merged commits.",
    );
    skill(
        root,
        "pdf-forms",
        "Fill in PDF forms and extract their fields.",
    );
    skill(
        root,
        "sql-tuning",
        "Speed up slow SQL queries with indexes and query plans.",
    );
    write(
        root,
        "evals/release-notes/trigger-eval.json",
        r#"[{"query": "write the release notes for this version", "should_trigger": true},
 {"query": "fill in this PDF form", "should_trigger": false}]"#,
    );
    write(
        root,
        "evals/triggers/pdf-forms.json",
        r#"[{"query": "fill in the fields of this PDF form", "should_trigger": true}]"#,
    );
    write(
        root,
        "tests/sql-tuning/trigger_tests.yaml",
        "name: sql-tuning-triggers\nskill: sql-tuning\nshouldTriggerPrompts:\n  - \"this SQL query is slow, add an index\"\n  - prompt: \"read the query plan\"\nshouldNotTriggerPrompts:\n  - \"write release notes\"\n",
    );
    write(
        root,
        "tests/sql-optimizer/trigger_tests.yaml",
        "skill: sql-optimizer\nshouldTriggerPrompts:\n  - \"optimize this query\"\n",
    );
    dir
}

fn routed(root: &Path) -> (i32, Value) {
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        serde_json::from_slice(&out.stdout).unwrap(),
    )
}

#[test]
fn root_level_layouts_are_read_and_routed_for_the_skill_they_name() {
    let dir = catalog();
    let (_, doc) = routed(dir.path());
    let route = &doc["summary"]["route"];
    // 1 + 1 + 2 positives; the file named for no skill is not routed
    assert_eq!(route["positives"], 4, "{route}");
    assert_eq!(route["rank1"], 4, "{route}");
    // negatives: one in the trigger array, one in the sensei file
    assert_eq!(route["checks"], 6, "{route}");
}

#[test]
fn camel_case_sensei_files_with_plain_string_prompts_are_well_formed() {
    let dir = catalog();
    let r = check_json(dir.path(), &[]);
    let file = "tests/sql-tuning/trigger_tests.yaml";
    let shape: Vec<&str> = r
        .rules_in(file)
        .into_iter()
        .filter(|r| ["SG414", "SG417", "SG420", "SG421"].contains(r))
        .collect();
    assert!(shape.is_empty(), "{:#?}", r.findings);
}

#[test]
fn a_file_named_for_no_skill_is_sg436() {
    let dir = catalog();
    let r = check_json(dir.path(), &[]);
    let f = r.one("SG436", "tests/sql-optimizer/trigger_tests.yaml");
    assert_eq!(f.severity, "warning");
    assert!(
        f.message.contains("cases of skill `sql-optimizer`")
            && f.message.contains("no skill of that name or folder"),
        "{}",
        f.message
    );
    assert!(f.help.as_deref().unwrap().contains("rename the folder"));
    assert_eq!(r.of("SG436").len(), 1, "{:#?}", r.findings);
}

#[test]
fn the_authors_cases_of_three_bench_catalogs_are_found() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/routing-bench");
    if !root.is_dir() {
        eprintln!("skipped: {} does not exist", root.display());
        return;
    }
    let files = |c: &str, skill: &str| {
        let out = skillsift()
            .args(["cases", "--format", "json", skill])
            .arg(root.join(c))
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(
        files("PlagueHO__plagueho.skills", "merge-dependabot-prs")
            .contains("tests/merge-dependabot-prs/trigger_tests.yaml")
    );
    assert!(files("joestump__claude-plugin-sdd", "adr").contains("evals/triggers/adr.json"));
    assert!(files("eliasstravik__skills", "html").contains("evals/html/trigger-eval.json"));
    let r = check_json(&root.join("PlagueHO__plagueho.skills"), &[]);
    r.one(
        "SG436",
        "tests/research-microsoft-technology/trigger_tests.yaml",
    );
}

/// `evals/<skill>/evals.json` and `tests/<skill>/evals.json` at the root
/// are the skill's behavioral evals, read like its own `evals/evals.json`;
/// an assertion written `{"name", "description"}` is graded by its
/// description.
#[test]
fn root_level_evals_files_are_the_named_skills_evals() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "evals/pdf-forms/evals.json",
        r#"{"skill_name": "pdf-forms", "evals": [{"id": 1, "prompt": "Fill in the W-9 in form.pdf", "expected_output": "a filled form", "files": [],
  "assertions": [{"name": "has-tin", "description": "The answer gives the TIN field's value"}]}]}"#,
    );
    write(
        root,
        "tests/sql-tuning/evals.json",
        r#"{"evals": [{"id": "slow", "prompt": "Why is this query slow?", "expectations": ["The answer reads the query plan"]}]}"#,
    );
    let out = skillsift()
        .args(["cases", "pdf-forms"])
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let evals = doc["evals"].as_array().unwrap();
    assert_eq!(evals.len(), 1, "{doc:#}");
    assert_eq!(evals[0]["file"], "evals/pdf-forms/evals.json");
    assert_eq!(
        evals[0]["expectations"][0]["text"],
        "The answer gives the TIN field's value"
    );
    let out = skillsift()
        .args(["cases", "sql-tuning"])
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["evals"][0]["file"], "tests/sql-tuning/evals.json");
    let r = check_json(root, &[]);
    for f in ["evals/pdf-forms/evals.json", "tests/sql-tuning/evals.json"] {
        let errors: Vec<_> = r
            .findings
            .iter()
            .filter(|d| d.file == f && d.severity == "error" && d.rule != "SG407")
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }
}
