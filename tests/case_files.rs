//! Case files (`evals/cases/<skill>.json`) through the binary: every
//! `SG4xx` rule on a tiny fixture catalog under `tests/fixtures/cases/`.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cases")
        .join(name)
}

/// Run `skillgate check --no-route --format json` on a fixture; returns the
/// exit code and the diagnostics.
fn check(name: &str) -> (i32, Vec<Value>) {
    check_root(&fixture(name))
}

fn check_root(root: &Path) -> (i32, Vec<Value>) {
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .args(["check", "--no-route", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let diags = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    (out.status.code().unwrap(), diags)
}

/// The `(rule, file, line)` of every case-file finding (`SG4xx`).
fn case_findings(diags: &[Value]) -> Vec<(String, String, Option<u64>)> {
    diags
        .iter()
        .filter(|d| d["rule"].as_str().unwrap().starts_with("SG4"))
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64(),
            )
        })
        .collect()
}

fn finding<'a>(diags: &'a [Value], rule: &str) -> &'a Value {
    diags
        .iter()
        .find(|d| d["rule"] == rule)
        .unwrap_or_else(|| panic!("no {rule} in {diags:#?}"))
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
