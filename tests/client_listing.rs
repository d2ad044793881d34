//! `skillgate listing` and the client model through the binary, without a
//! real CLI: the Claude Code listing of the tricky skills, the
//! client-fidelity rules (SG600–SG608), and routing what the client shows
//! (a `DO NOT USE FOR:` catalog is routed whole).

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/client")
        .join(name)
}

fn run(args: &[&str]) -> (String, Option<i32>) {
    let cache = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("skillgate")
        .unwrap()
        .args(args)
        .env("SKILLGATE_CACHE_DIR", cache.path())
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

fn listing_json(root: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["listing", root.to_str().unwrap(), "--format", "json"];
    args.extend(extra);
    let (out, code) = run(&args);
    assert_eq!(code, Some(0), "{out}");
    serde_json::from_str(&out).unwrap()
}

fn entry<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no entry {name}"))
}

#[test]
fn the_listing_shows_what_claude_code_shows() {
    let doc = listing_json(&fixture("claude-code"), &[]);
    assert_eq!(doc["client"], "claude-code");
    assert_eq!(doc["tested_with"], "2.1.197");
    assert_eq!(entry(&doc, "ends-mid-line")["text"], "Convert A");
    assert_eq!(entry(&doc, "hex")["text"], "16");
    assert_eq!(
        entry(&doc, "comment-after-retry")["text"],
        "Runs tests # shown now - always: yes"
    );
    assert_eq!(entry(&doc, "no-description")["text"], "Renders   charts");
    assert_eq!(entry(&doc, "empty-body")["text"], "Skill");
    let long = entry(&doc, "long-entry")["text"].as_str().unwrap();
    assert_eq!(long.encode_utf16().count(), 1536);
    assert!(long.ends_with('…'));
    let c = entry(&doc, "conditional");
    assert_eq!(c["listed"], false);
    assert_eq!(c["reason"]["kind"], "conditional");
    assert!(
        c["reason"]["message"]
            .as_str()
            .unwrap()
            .contains("`paths:`")
    );
    assert_eq!(entry(&doc, "paths-everything")["listed"], true);
    assert_eq!(entry(&doc, "alias-b")["alias"], "shared");
    // listed skills first, in the CLI's collation order
    let names: Vec<&str> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["listed"] == true)
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    let at = |n: &str| names.iter().position(|x| *x == n).unwrap();
    assert!(at("trailing-spaces") < at("Upper Case") && at("Upper Case") < at("when-to-use"));
    // the specification's reading
    let spec = listing_json(&fixture("claude-code"), &["--client", "spec"]);
    assert_eq!(spec["client"], "spec");
    assert_eq!(entry(&spec, "do-not-use-for")["listed"], false);
    assert_eq!(
        entry(&spec, "shared")["text"],
        "First with the shared name."
    );
}

#[test]
fn the_human_listing_marks_what_differs() {
    let (out, code) = run(&["listing", fixture("claude-code").to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with(
            "39 skills as Claude Code shows them (model of Claude Code 2.1.197): 35 listed, 4 not\n"
        ),
        "{out}"
    );
    assert!(out.contains("- ends-mid-line: Convert A\n    ^ skills/ends-mid-line/SKILL.md:3:23: Claude Code ends the frontmatter at this `---`"), "{out}");
    assert!(out.contains("  too-deep (skills/group/too-deep/SKILL.md): its folder is 2 levels below the skills root `skills`"), "{out}");
    assert!(
        out.contains("none captured yet (`skillgate listing --capture claude-code`)"),
        "{out}"
    );
}

#[test]
fn check_reports_what_claude_code_does_silently() {
    let (out, _) = run(&[
        "check",
        fixture("claude-code").to_str().unwrap(),
        "--format",
        "json",
        "--no-route",
    ]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let has = |rule: &str, file: &str| {
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == rule && d["file"].as_str().unwrap().contains(file))
    };
    for (rule, file) in [
        ("SG600", "ends-mid-line/"),
        ("SG600", "dashes-in-quote/"),
        ("SG601", "bom/"),
        ("SG601", "blank-first-line/"),
        ("SG601", "crlf-colon/"),
        ("SG602", "no-description/"),
        ("SG603", "emoji-cut/"),
        ("SG604", "disabled/"),
        ("SG604", "conditional/"),
        ("SG605", "group/too-deep/"),
        ("SG606", "alias-b/"),
        ("SG607", "comment-after-retry/"),
        ("SG607", "unterminated/"),
        ("SG608", "number/"),
        ("SG608", "boolean/"),
    ] {
        assert!(has(rule, file), "{rule} on {file}");
    }
    assert!(!has("SG606", "alias-a/"), "the first in listing order wins");
    assert!(!has("SG604", "paths-everything/"));
    let d = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "SG600")
        .unwrap();
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("skillgate's YAML parser and other YAML readers read the whole value")
    );
}

#[test]
fn a_catalog_of_do_not_use_for_clauses_is_routed_whole() {
    let root = fixture("do-not-use-for");
    let (out, code) = run(&["check", root.to_str().unwrap()]);
    assert!(
        out.contains("trigger checks: 12/12 passed across 3 routed skills"),
        "{out}"
    );
    assert!(
        out.ends_with("trigger rank-1 rate: 100% (9/9 positive prompts rank their skill first)\n"),
        "{out}"
    );
    assert_eq!(code, Some(1), "the strict parser's SG013 errors still gate");
    let (spec, _) = run(&["check", root.to_str().unwrap(), "--client", "spec"]);
    assert!(spec.contains("across 0 routed skills"), "{spec}");
    let (rank, _) = run(&[
        "rank",
        "deploy the app to production servers",
        root.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let r: Value = serde_json::from_str(&rank).unwrap();
    assert_eq!(r["client"], "claude-code");
    assert_eq!(r["results"][0]["name"], "deploy-app");
}

#[test]
fn builtins_without_a_capture_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("b.toml");
    std::fs::write(
        &cfg,
        "[route]\nbuiltins = true\n[cases]\nmin-evals = 0\nmin-negative = 1\n",
    )
    .unwrap();
    let (out, _) = run(&[
        "check",
        fixture("do-not-use-for").to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(out.contains("\"rule\": \"SG509\""), "{out}");
    assert!(
        out.contains("no capture of Claude Code's built-in skills is stored"),
        "{out}"
    );
}
