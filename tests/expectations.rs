//! Expectations with a kind (blocker, quality) and deterministic checks,
//! in case files and evals.json alike: Tier 1 (SG430–SG435, each at its
//! file:line:column with a fix), the JSON Schemas, and `skillsift cases`.

mod common;

use serde_json::{Value, json};
use std::path::Path;

/// The `valid` case-file fixture with alpha's evals replaced by `evals`
/// (written one key per line, so each expectation has its own line).
fn catalog_with(evals: Value) -> tempfile::TempDir {
    let dir = common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cases/valid"),
    );
    let p = dir.path().join("evals/cases/alpha.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    doc["evals"] = evals;
    std::fs::write(&p, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    dir
}

/// The line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> u64 {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in {text}")) as u64
        + 1
}

fn eval(expectations: Value) -> Value {
    json!([{
        "id": 1,
        "prompt": "Sort the widgets listed in widgets.txt.",
        "expected_output": "widgets.txt sorted into bins",
        "files": ["alpha"],
        "expectations": expectations,
    }])
}

#[test]
fn well_formed_kinds_and_checks_have_no_finding() {
    let dir = catalog_with(eval(json!([
        "BLOCKER: no widget is lost",
        "QUALITY: bins are labelled",
        "every widget ends up in one bin",
        {"text": "totals reconcile", "kind": "blocker"},
        {"check": "file_exists", "path": "bins/a.txt"},
        {"check": "file_absent", "path": "widgets.tmp", "kind": "blocker"},
        {"check": "file_contains", "path": "bins/a.txt", "value": "widget-1"},
        {"check": "file_matches", "path": "bins/a.txt", "regex": "widget-\\d+"},
        {"check": "command", "argv": ["true"], "timeout_secs": 5},
        {"check": "answer_contains", "value": "sorted"},
        {"check": "answer_matches", "regex": "(?i)sorted \\d+ widgets"},
        {"check": "answer_json", "expected": {"bins": 3}},
        {"check": "tool_called", "tool": "Bash"},
        {"check": "tool_not_called", "tool": "WebFetch"},
        {"check": "tool_refused", "tool": "*"},
        {"check": "skill_loaded", "skill": "alpha"},
        {"check": "skill_not_loaded", "skill": "beta"},
        {"check": "max_turns", "max": 20},
        {"check": "max_tokens", "max": 200000, "text": "stays within the token budget"}
    ])));
    let (code, diags) = common::check_diagnostics(dir.path());
    let ours: Vec<&Value> = diags
        .iter()
        .filter(|d| d["rule"].as_str().unwrap().starts_with("SG43"))
        .collect();
    assert!(ours.is_empty(), "{ours:#?}");
    assert_eq!(code, 0, "{diags:#?}");
}

#[test]
fn each_problem_is_reported_by_its_rule_at_its_place_with_a_fix() {
    let dir = catalog_with(json!([{
        "id": 1,
        "prompt": "Sort the widgets listed in widgets.txt.",
        "expected_output": "widgets.txt sorted into bins",
        "files": ["alpha"],
        "expectations": [
            42,
            "Blocker: nothing is lost",
            {"check": "file_exist", "path": "bins/a.txt"},
            {"check": "command", "args": ["npm", "test"]},
            {"check": "file_absent", "path": "../../etc/passwd"},
            {"check": "answer_matches", "regex": "total: (\\d+"},
            {"kind": "must", "text": "x"}
        ],
        "forbidden_skills": "beta"
    }]));
    let file = "evals/cases/alpha.json";
    let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
    let (code, diags) = common::check_diagnostics(dir.path());
    assert_eq!(code, 1, "{diags:#?}");
    let find = |rule: &str, needle: &str| -> &Value {
        let line = line_of(&text, needle);
        diags
            .iter()
            .find(|d| d["rule"] == rule && d["line"] == line)
            .unwrap_or_else(|| panic!("no {rule} at line {line} ({needle}) in {diags:#?}"))
    };
    let d = find("SG430", "42,");
    assert!(d["help"].as_str().unwrap().contains("check"), "{d}");
    let d = find("SG431", "Blocker: nothing");
    assert_eq!(d["severity"], "warning");
    assert!(d["help"].as_str().unwrap().contains("BLOCKER:"), "{d}");
    let d = find("SG432", "\"file_exist\"");
    assert_eq!(d["help"], "did you mean `file_exists`?");
    assert!(d["column"].as_u64().unwrap() > 1);
    let d = find("SG433", "\"args\"");
    assert_eq!(d["help"], "did you mean `argv`?");
    let d = find("SG434", "../../etc/passwd");
    assert!(d["message"].as_str().unwrap().contains("`..`"), "{d}");
    let d = find("SG435", "total: (");
    assert!(
        d["message"].as_str().unwrap().contains("does not compile"),
        "{d}"
    );
    find("SG430", "\"must\"");
    find("SG430", "\"forbidden_skills\"");
    // a missing argument is reported at the check object
    assert!(
        diags
            .iter()
            .any(|d| d["rule"] == "SG433" && d["message"] == "check `command` has no `argv`"),
        "{diags:#?}"
    );
}

#[test]
fn evals_json_expectations_are_checked_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/pdf-forms");
    std::fs::create_dir_all(skill.join("evals")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: pdf-forms\ndescription: Fills PDF forms. Use when a form must be filled.\n---\n# PDF forms\n",
    )
    .unwrap();
    let evals = "{\n  \"skill_name\": \"pdf-forms\",\n  \"evals\": [\n    {\n      \"id\": 1,\n      \"prompt\": \"Fill the form\",\n      \"expected_output\": \"a filled form\",\n      \"assertions\": [\n        \"BLOCKER: no field is invented\",\n        {\"check\": \"file_exists\", \"path\": \"/tmp/out.pdf\"}\n      ]\n    }\n  ]\n}\n";
    std::fs::write(skill.join("evals/evals.json"), evals).unwrap();
    let (_, diags) = common::check_diagnostics(dir.path());
    let d = diags
        .iter()
        .find(|d| d["rule"] == "SG434")
        .unwrap_or_else(|| panic!("{diags:#?}"));
    assert_eq!(d["file"], "skills/pdf-forms/evals/evals.json");
    assert_eq!(d["line"], 10);
    assert_eq!(d["column"], 42);
    assert!(
        d["message"].as_str().unwrap().contains("is absolute"),
        "{d}"
    );
}

#[test]
fn cases_lists_each_expectation_with_its_kind_and_check() {
    let dir = catalog_with(eval(json!([
        "BLOCKER: no widget is lost",
        {"check": "file_exists", "path": "bins/a.txt"}
    ])));
    let out = common::skillsift()
        .args(["cases", "alpha"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("blocker  no widget is lost  (grader, line"),
        "{stdout}"
    );
    assert!(
        stdout.contains("quality  `bins/a.txt` exists  (check `file_exists`, line"),
        "{stdout}"
    );
    let out = common::skillsift()
        .args(["cases", "alpha", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ex = &doc["evals"][0]["expectations"];
    assert_eq!(ex[0]["kind"], "blocker");
    assert_eq!(ex[0]["text"], "no widget is lost");
    assert_eq!(ex[1]["check"], "file_exists");
}

fn schema(kind: &str) -> jsonschema::Validator {
    let out = common::skillsift().args(["schema", kind]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    jsonschema::validator_for(&v).unwrap()
}

#[test]
fn the_schemas_accept_kinds_and_checks_and_refuse_broken_ones() {
    for kind in ["cases", "evals"] {
        let v = schema(kind);
        let doc = |expectations: Value| {
            let mut e = json!({"id": 1, "kind": "dialogue", "prompt": "p", "expected_output": "o", "expectations": expectations, "forbidden_skills": ["beta"]});
            if kind == "evals" {
                e.as_object_mut().unwrap().remove("kind");
            }
            json!({"skill_name": "x", "evals": [e]})
        };
        let good = doc(json!([
            "BLOCKER: x",
            {"text": "y", "kind": "quality"},
            {"check": "command", "argv": ["npm", "test"], "timeout_secs": 30, "kind": "blocker"},
            {"check": "answer_json", "expected": [1, 2]},
            {"check": "tool_refused", "tool": "Write", "text": "the write is refused"}
        ]));
        let errors: Vec<String> = v.iter_errors(&good).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{kind}: {errors:?}");
        for bad in [
            json!([{"check": "file_exist", "path": "a"}]),
            json!([{"check": "command", "args": ["x"]}]),
            json!([{"check": "command", "argv": []}]),
            json!([{"text": "y", "kind": "must"}]),
            json!([{"kind": "blocker"}]),
            json!([{"check": "max_turns", "max": 0}]),
            json!([3]),
        ] {
            assert!(!v.is_valid(&doc(bad.clone())), "{kind} accepts {bad}");
        }
    }
}
