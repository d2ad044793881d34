//! The addyosmani/agent-skills catalog's three command folders: the one
//! finding its own validator reports (`review` shadows a Claude Code
//! built-in), and nothing else, given the `plan = "planning"` pairing that
//! validator hard-codes.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn run(root: &Path) -> (i32, Vec<Value>) {
    let config = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/commands/addyosmani-skillsift.toml");
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .args(["check", "--no-route", "--format", "json", "--config"])
        .arg(config)
        .arg(root)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    (
        out.status.code().unwrap(),
        doc["diagnostics"].as_array().cloned().unwrap(),
    )
}

/// Findings on command files or from command rules.
fn command_findings(diags: &[Value]) -> Vec<(String, String)> {
    diags
        .iter()
        .filter(|d| {
            d["rule"].as_str().unwrap().starts_with("SG3")
                || d["file"].as_str().unwrap().contains("commands/")
        })
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn assert_only_the_review_collision(root: &Path) {
    let (code, diags) = run(root);
    assert_eq!(
        command_findings(&diags),
        vec![(
            "SG305".to_string(),
            ".claude/commands/review.md".to_string()
        )],
        "{diags:#?}"
    );
    let d = diags.iter().find(|d| d["rule"] == "SG305").unwrap();
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("collides with the Claude Code built-in command `/review`")
    );
    assert_eq!(code, 1);
}

#[test]
fn vendored_addyosmani_commands_report_only_the_review_builtin_collision() {
    let root: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/addyosmani-agent-skills");
    assert_only_the_review_collision(&root);
}

#[test]
fn shared_addyosmani_corpus_commands_report_only_the_review_builtin_collision() {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/addyosmani-agent-skills");
    if !root.is_dir() {
        eprintln!("skipped: {} does not exist", root.display());
        return;
    }
    assert_only_the_review_collision(&root);
}
