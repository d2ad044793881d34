//! `skillsift schema cases|trigger-set|evals|waza|config` print JSON Schemas that accept real files
//! and reject broken ones.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn schema(kind: &str) -> jsonschema::Validator {
    let out = Command::cargo_bin("skillsift")
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
    assert!(config::Config::parse(good, "t").is_ok());
    let typo = "[route]\ntop_k = 5\n";
    assert!(!v.is_valid(&toml_to_json(typo)));
    assert!(config::Config::parse(typo, "t").is_err());
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("skillsift.toml");
    if let Ok(text) = std::fs::read_to_string(own) {
        assert!(
            v.is_valid(&toml_to_json(&text)),
            "the repository's own skillsift.toml"
        );
    }
}

fn layout_file(rel: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/layouts")
        .join(rel);
    serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap()
}

/// A YAML document as JSON (for the waza schema, which YAML language
/// servers apply the same way).
fn yaml_file(rel: &str) -> Value {
    fn conv(y: &yaml_rust2::Yaml) -> Value {
        use yaml_rust2::Yaml;
        match y {
            Yaml::String(s) | Yaml::Real(s) => Value::String(s.clone()),
            Yaml::Integer(i) => Value::from(*i),
            Yaml::Boolean(b) => Value::Bool(*b),
            Yaml::Array(a) => Value::Array(a.iter().map(conv).collect()),
            Yaml::Hash(h) => Value::Object(
                h.iter()
                    .map(|(k, v)| (k.as_str().unwrap_or_default().to_string(), conv(v)))
                    .collect(),
            ),
            _ => Value::Null,
        }
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/layouts")
        .join(rel);
    let docs = yaml_rust2::YamlLoader::load_from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    conv(&docs[0])
}

fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc).map(|e| e.to_string()).collect()
}

#[test]
fn the_case_source_schemas_accept_the_agentskills_catalog() {
    let sets = schema("trigger-set");
    for f in [
        "agentskills/skills/pdf-forms/evals/trigger-queries.json",
        "agentskills/skills/pdf-merge/evals/trigger/eval_queries.json",
        "agentskills/skills/invoice-totals/evals/trigger_eval_set.json",
    ] {
        assert_eq!(errors(&sets, &layout_file(f)), Vec::<String>::new(), "{f}");
    }
    let evals = schema("evals");
    for f in [
        "agentskills/skills/pdf-forms/evals/evals.json",
        "agentskills/skills/pdf-merge/evals/evals.json",
        "agentskills/skills/invoice-totals/evals/evals.json",
        "agentskills/skills/receipt-scanner/evals/evals.json",
    ] {
        assert_eq!(errors(&evals, &layout_file(f)), Vec::<String>::new(), "{f}");
    }
    let waza = schema("waza");
    let doc = yaml_file("agentskills/skills/receipt-scanner/trigger_tests.yaml");
    assert_eq!(errors(&waza, &doc), Vec::<String>::new());
}

#[test]
fn the_case_source_schemas_reject_the_malformed_files() {
    assert!(!schema("trigger-set").is_valid(&layout_file(
        "malformed/skills/bad-rows/evals/trigger-queries.json"
    )));
    assert!(!schema("evals").is_valid(&layout_file("malformed/skills/bad-evals/evals/evals.json")));
    assert!(!schema("waza").is_valid(&yaml_file(
        "malformed/skills/bad-waza/evals/trigger_tests.yaml"
    )));
    let owner_on_positive =
        serde_json::json!([{"query": "q", "should_trigger": true, "owner": "x"}]);
    assert!(!schema("trigger-set").is_valid(&owner_on_positive));
}
