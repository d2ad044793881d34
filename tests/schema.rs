//! `skillgate schema cases|config` print JSON Schemas that accept real files
//! and reject broken ones.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn schema(kind: &str) -> jsonschema::Validator {
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .args(["schema", kind])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    jsonschema::validator_for(&v).unwrap()
}

#[test]
fn cases_schema_accepts_every_real_case_file() {
    let v = schema("cases");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/addyosmani-agent-skills/evals/cases");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        n += 1;
    }
    assert_eq!(n, 24);
}

#[test]
fn cases_schema_rejects_an_execution_eval_without_files() {
    let v = schema("cases");
    let doc = serde_json::json!({
        "skill_name": "x",
        "evals": [{"id": 1, "prompt": "p", "expected_output": "o", "expectations": ["e"]}]
    });
    assert!(!v.is_valid(&doc));
    let dialogue = serde_json::json!({
        "skill_name": "x",
        "evals": [{"id": 1, "kind": "dialogue", "prompt": "p", "expected_output": "o", "assertions": ["e"]}]
    });
    assert!(v.is_valid(&dialogue));
}

fn toml_to_json(text: &str) -> Value {
    let t: toml::Value = toml::from_str(text).unwrap();
    serde_json::to_value(t).unwrap()
}

#[test]
fn config_schema_matches_what_the_parser_accepts() {
    let v = schema("config");
    let good = "[route]\ntop-k = 5\ncollision-warning = 0.6\n[lint]\nrequired-sections = [\"Overview\"]\nexemptions = [{ skill = \"a\", reason = \"card\" }]\n";
    assert!(v.is_valid(&toml_to_json(good)));
    assert!(skillgate::config::Config::parse(good, "t").is_ok());
    let typo = "[route]\ntop_k = 5\n";
    assert!(!v.is_valid(&toml_to_json(typo)));
    assert!(skillgate::config::Config::parse(typo, "t").is_err());
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("skillgate.toml");
    if let Ok(text) = std::fs::read_to_string(own) {
        assert!(
            v.is_valid(&toml_to_json(&text)),
            "the repository's own skillgate.toml"
        );
    }
}
