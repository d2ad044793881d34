//! `--format sarif` is valid SARIF 2.1.0, loses nothing `--format json`
//! has, and is byte-identical between runs.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A small catalog with findings of several kinds, written to a temp dir.
fn catalog_with_findings() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("skills");
    for (name, text) in [
        (
            "good-skill",
            "---\nname: good-skill\ndescription: Formats tables. Use when a table is messy.\n---\n# Body\n",
        ),
        ("bad name", "---\nname: Bad_Name\ndescription: x\n---\n"),
        ("no-frontmatter", "# Just markdown\n"),
        (
            "bom",
            "\u{feff}---\nname: bom\ndescription: Has a BOM. Use when testing.\n---\n",
        ),
        // one custom key in three skills: one finding, relatedLocations
        (
            "tagged-a",
            "---\nname: tagged-a\ndescription: Sorts lists. Use when a list is unsorted.\ntags: [a]\n---\n",
        ),
        (
            "tagged-b",
            "---\nname: tagged-b\ndescription: Merges lists. Use when two lists are merged.\ntags: [b]\n---\n",
        ),
        (
            "tagged-c",
            "---\nname: tagged-c\ndescription: Splits lists. Use when a list is split.\ntags: [c]\n---\n",
        ),
    ] {
        std::fs::create_dir_all(s.join(name)).unwrap();
        std::fs::write(s.join(name).join("SKILL.md"), text).unwrap();
    }
    dir
}

fn run(root: &Path, format: &str) -> Vec<u8> {
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .args(["check", "--format", format])
        .arg(root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    out.stdout
}

#[test]
fn sarif_output_validates_against_the_official_schema() {
    let text = std::fs::read_to_string(fixtures().join("sarif/sarif-schema-2.1.0.json")).unwrap();
    // The official schema's `run.language` pattern ends in a bare `]`, a
    // literal in ECMAScript regexes but a syntax error for Rust's regex
    // engine; escaping it keeps the same meaning.
    let text = text.replace(
        r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#,
        r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$""#,
    );
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let cat = catalog_with_findings();
    for root in [
        cat.path().to_path_buf(),
        fixtures().join("addyosmani-agent-skills"),
    ] {
        let doc: Value = serde_json::from_slice(&run(&root, "sarif")).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert_eq!(doc["version"], "2.1.0");
        if root == cat.path() {
            let results = doc["runs"][0]["results"].as_array().unwrap();
            assert!(
                results.iter().any(|r| r["relatedLocations"]
                    .as_array()
                    .is_some_and(|l| l.len() == 2)),
                "{results:#?}"
            );
        }
        // the validator does reject a broken document
        let mut broken = doc.clone();
        broken["runs"][0]["results"] = serde_json::json!([{"level": "fatal"}]);
        assert!(!validator.is_valid(&broken));
        let rules = doc["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        assert!(
            rules
                .iter()
                .all(|r| r["shortDescription"]["text"].is_string()
                    && r["fullDescription"]["text"].is_string()
                    && r["help"]["text"].is_string()
                    && r["defaultConfiguration"]["level"].is_string())
        );
    }
}

#[test]
fn sarif_results_carry_everything_json_diagnostics_have() {
    let cat = catalog_with_findings();
    let json: Value = serde_json::from_slice(&run(cat.path(), "json")).unwrap();
    let sarif: Value = serde_json::from_slice(&run(cat.path(), "sarif")).unwrap();
    let diags = json["diagnostics"].as_array().unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(!diags.is_empty());
    assert_eq!(diags.len(), results.len());
    for (d, r) in diags.iter().zip(results) {
        assert_eq!(d["rule"], r["ruleId"]);
        assert_eq!(d["message"], r["message"]["text"]);
        assert_eq!(d["label"], r["properties"]["label"]);
        assert_eq!(d["help"], r["properties"]["help"]);
        assert_eq!(d["severity"], r["properties"]["severity"]);
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(
            loc["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .ends_with(d["file"].as_str().unwrap().replace(' ', "%20").as_str())
        );
        if !d["line"].is_null() {
            assert_eq!(d["line"], loc["region"]["startLine"]);
            assert_eq!(d["column"], loc["region"]["startColumn"]);
            assert_eq!(d["end_line"], loc["region"]["endLine"]);
            assert_eq!(d["start_byte"], loc["region"]["byteOffset"]);
        }
        assert!(
            r["partialFingerprints"]["skillsift/v2"]
                .as_str()
                .unwrap()
                .len()
                == 16
        );
    }
    assert_eq!(json["summary"], sarif["runs"][0]["properties"]["summary"]);
}

#[test]
fn sarif_and_json_are_byte_identical_between_runs() {
    let cat = catalog_with_findings();
    for format in ["sarif", "json"] {
        assert_eq!(run(cat.path(), format), run(cat.path(), format), "{format}");
    }
}

#[test]
fn routing_flags_with_no_route_are_a_usage_error() {
    let cat = catalog_with_findings();
    for flags in [
        vec!["--min-rank1", "50"],
        vec!["--baseline", "b.json"],
        vec!["--save-baseline", "b.json"],
    ] {
        let out = Command::cargo_bin("skillsift")
            .unwrap()
            .arg("check")
            .arg("--no-route")
            .args(&flags)
            .arg(cat.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--no-route"));
    }
}
