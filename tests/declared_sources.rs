//! `[[cases.sources]]`: trigger tests declared in `skillsift.toml`, read
//! through the binary in every format (JSON, JSONL, YAML, CSV), with a
//! records path, a boolean polarity and a negative value; what the
//! declaration promises and the data lacks stops the run with exit 2.

mod common;

use common::{check_json, skill, skillsift, write};
use serde_json::Value;
use std::path::Path;

fn catalog(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    skill(
        root,
        "pdf-forms",
        "Fill in PDF forms and W-9 tax forms. Use when the user asks to fill a PDF form.",
    );
    skill(
        root,
        "git-commit",
        "Write git commit messages. Use when the user asks to commit changes or write a commit message.",
    );
    skill(
        root,
        "sql-tuning",
        "Speed up slow SQL queries with indexes. Use when a database query is slow.",
    );
    write(root, "skillsift.toml", config);
    dir
}

/// `(exit code, positives, checks)` of `check --format json`, and stderr.
fn routed(root: &Path) -> (i32, u64, u64, String) {
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if code == 2 {
        return (code, 0, 0, stderr);
    }
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &doc["summary"]["route"];
    (
        code,
        r["positives"].as_u64().unwrap(),
        r["checks"].as_u64().unwrap(),
        stderr,
    )
}

fn cases(root: &Path, name: &str) -> Value {
    let out = skillsift()
        .args(["cases", name])
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn json_records_deep_inside_with_a_boolean_polarity() {
    let dir = catalog(
        "[[cases.sources]]\nfiles = \"qa/suite.json\"\nformat = \"json\"\nrecords = \"data.routing\"\nprompt = \"utterance\"\nskill = \"route_to\"\npolarity = \"fires\"\n",
    );
    let root = dir.path();
    write(
        root,
        "qa/suite.json",
        r#"{"version": 3, "data": {"routing": [
  {"utterance": "fill in this W-9 pdf form", "route_to": "pdf-forms", "fires": true},
  {"utterance": "write a commit message", "route_to": "pdf-forms", "fires": false}
]}}"#,
    );
    let (code, positives, checks, err) = routed(root);
    assert_eq!((positives, checks), (1, 2), "{code} {err}");
    let doc = cases(root, "pdf-forms");
    assert_eq!(doc["positive"][0]["file"], "qa/suite.json");
    assert_eq!(doc["positive"][0]["line"], 2);
    assert_eq!(doc["positive"][0]["column"], 17);
    assert_eq!(
        doc["positive"][0]["found_by"],
        "declared in [[cases.sources]] #1"
    );
    assert_eq!(doc["files"][0]["format"], "declared source");
}

#[test]
fn jsonl_with_a_value_that_means_no_skill() {
    let dir = catalog(
        "[[cases.sources]]\nfiles = \"qa/routing/*.jsonl\"\nformat = \"jsonl\"\nprompt = \"utterance\"\nskill = \"route_to\"\nnegative-when = \"NONE\"\n",
    );
    let root = dir.path();
    write(
        root,
        "qa/routing/a.jsonl",
        "// routing cases\n{\"utterance\": \"my sql query is slow\", \"route_to\": \"sql-tuning\"}\n\n{\"utterance\": \"what is the weather in Oslo\", \"route_to\": \"NONE\"}\n",
    );
    write(
        root,
        "qa/routing/b.jsonl",
        "{\"utterance\": \"commit my changes\", \"route_to\": \"git-commit\"}\n",
    );
    // 2 positives; the NONE prompt is a negative for each of the 3 skills
    let (_, positives, checks, err) = routed(root);
    assert_eq!((positives, checks), (2, 5), "{err}");
    let doc = cases(root, "pdf-forms");
    assert_eq!(doc["negative"][0]["prompt"], "what is the weather in Oslo");
    assert_eq!(doc["negative"][0]["line"], 4);
}

#[test]
fn yaml_in_each_skill_folder_takes_the_skill_from_the_folder() {
    let dir = catalog(
        "[[cases.sources]]\nfiles = \"skills/*/qa/routing.yaml\"\nformat = \"yaml\"\nrecords = \"cases\"\nprompt = \"ask\"\npolarity = \"expected.fires\"\nsplit = \"split\"\n",
    );
    let root = dir.path();
    write(
        root,
        "skills/sql-tuning/qa/routing.yaml",
        "cases:\n  - ask: this sql query is slow, add an index\n    expected: {fires: true}\n    split: validation\n  - ask: write a commit message\n    expected: {fires: false}\n",
    );
    let (_, positives, checks, err) = routed(root);
    assert_eq!((positives, checks), (1, 2), "{err}");
    let doc = cases(root, "sql-tuning");
    assert_eq!(doc["positive"][0]["split"], "validation");
    assert_eq!(doc["negative"][0]["line"], 5);
}

#[test]
fn csv_with_a_header_row() {
    let dir = catalog(
        "[[cases.sources]]\nfiles = \"qa/routing.csv\"\nformat = \"csv\"\nprompt = \"utterance\"\nskill = \"skill\"\npolarity = \"should_fire\"\nsplit = \"split\"\n",
    );
    let root = dir.path();
    write(
        root,
        "qa/routing.csv",
        "utterance,skill,should_fire,split\nfill in this W-9 pdf form,pdf-forms,TRUE,train\n\"merge two PDFs, then email them\",pdf-forms,false,validation\nspeed up the slow sql query,sql-tuning,maybe,train\n",
    );
    let (_, positives, checks, err) = routed(root);
    assert_eq!((positives, checks), (1, 2), "{err}");
    let doc = cases(root, "pdf-forms");
    assert_eq!(doc["positive"][0]["line"], 2);
    assert_eq!(doc["positive"][0]["column"], 1);
    assert_eq!(
        doc["negative"][0]["prompt"],
        "merge two PDFs, then email them"
    );
    // the row whose polarity is no boolean is said, not dropped silently
    let r = check_json(root, &[]);
    let f = r.one("SG437", "qa/routing.csv");
    assert!(f.message.contains("`should_fire`"), "{f:?}");
    assert_eq!(f.line, Some(4));
}

#[test]
fn a_declaration_the_data_does_not_meet_stops_the_run_naming_the_key() {
    let base =
        "[[cases.sources]]\nformat = \"json\"\nprompt = \"utterance\"\nskill = \"route_to\"\n";
    for (extra, file, text, want) in [
        (
            "files = \"qa/none-*.json\"\n",
            "qa/suite.json",
            "[]",
            "matches no file in the catalog",
        ),
        (
            "files = \"qa/suite.json\"\nrecords = \"data.routing\"\n",
            "qa/suite.json",
            r#"{"data": {}}"#,
            "records = \"data.routing\" leads to no array",
        ),
        (
            "files = \"qa/suite.json\"\n",
            "qa/suite.json",
            r#"[{"text": "fill in this W-9", "route_to": "pdf-forms"}]"#,
            "prompt = \"utterance\": no record of qa/suite.json holds that field",
        ),
        (
            "files = \"qa/suite.json\"\ncolour = \"blue\"\n",
            "qa/suite.json",
            "[]",
            "colour",
        ),
    ] {
        let dir = catalog(&format!("{base}{extra}"));
        write(dir.path(), file, text);
        let (code, _, _, err) = routed(dir.path());
        assert_eq!(code, 2, "{extra}: {err}");
        assert!(err.contains(want), "{extra}: {err}");
    }
}

#[test]
fn a_declared_file_is_read_once_as_declared_and_never_out_of_the_catalog() {
    let dir = catalog(
        "[[cases.sources]]\nfiles = \"tests/*.json\"\nformat = \"json\"\nprompt = \"prompt\"\nskill = \"expect\"\n",
    );
    let root = dir.path();
    // shape detection would read this file too: it is read once
    write(
        root,
        "tests/routing.json",
        r#"[{"prompt": "fill in this W-9 pdf form", "expect": "pdf-forms"}]"#,
    );
    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(
            outside.path().join("x.json"),
            r#"[{"prompt": "OUTSIDE", "expect": "pdf-forms"}]"#,
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path().join("x.json"), root.join("tests/link.json"))
            .unwrap();
    }
    let (_, positives, _, err) = routed(root);
    assert_eq!(positives, 1, "{err}");
    let out = skillsift().arg("check").arg(root).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("OUTSIDE"));
}

#[test]
fn the_schema_of_the_configuration_shows_the_table() {
    let out = skillsift().args(["schema", "config"]).output().unwrap();
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let props = &schema["$defs"]["DeclaredSource"]["properties"];
    for key in [
        "files",
        "format",
        "records",
        "prompt",
        "skill",
        "polarity",
        "negative-when",
        "lexical",
        "split",
    ] {
        assert!(props[key].is_object(), "{key}: {props}");
    }
    assert_eq!(
        schema["$defs"]["DeclaredSource"]["required"],
        serde_json::json!(["files", "format"])
    );
    // `prompt` is required of the formats with fields, by the loader
    let formats = schema["$defs"]["DeclaredFormat"].to_string();
    for f in ["json", "jsonl", "yaml", "csv", "text", "markdown"] {
        assert!(formats.contains(&format!("\"{f}\"")), "{f}: {formats}");
    }
}

#[test]
fn declared_files_are_bounded_masked_and_stay_inside_the_catalog() {
    let dir = catalog(
        "[catalog]\nmax-case-bytes = 400\n\n[[cases.sources]]\nfiles = \"qa/*.csv\"\nformat = \"csv\"\nprompt = \"utterance\"\nskill = \"skill\"\n",
    );
    let root = dir.path();
    let token = format!(
        "ghp_{}",
        "a1B2c3D4e5F6g7H8i9J0"
            .repeat(2)
            .chars()
            .take(36)
            .collect::<String>()
    );
    write(
        root,
        "qa/a.csv",
        &format!("utterance,skill\nfill in this W-9 pdf form with token {token},pdf-forms\n"),
    );
    write(
        root,
        "qa/big.csv",
        &format!(
            "utterance,skill\n{},pdf-forms\n",
            "fill the form ".repeat(40)
        ),
    );
    let out = skillsift()
        .args(["cases", "pdf-forms"])
        .arg(root)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains(&token), "{text}");
    assert!(text.contains("ghp_XXXX"), "{text}");
    let r = check_json(root, &[]);
    let big = r.one("SG400", "qa/big.csv");
    assert!(big.message.contains("larger than 400 bytes"), "{big:?}");

    for files in ["../outside/*.json", "/etc/*.json"] {
        let dir = catalog(&format!(
            "[[cases.sources]]\nfiles = \"{files}\"\nformat = \"json\"\nprompt = \"p\"\nskill = \"s\"\n"
        ));
        let (code, _, _, err) = routed(dir.path());
        assert_eq!(code, 2, "{files}: {err}");
        assert!(err.contains("leaves the catalog"), "{files}: {err}");
    }
}

#[test]
fn a_declared_jsonl_line_that_is_not_json_is_sg401_at_its_place() {
    let dir = catalog(
        "[[cases.sources]]\nfiles = \"qa/a.jsonl\"\nformat = \"jsonl\"\nprompt = \"utterance\"\nskill = \"route_to\"\n",
    );
    write(
        dir.path(),
        "qa/a.jsonl",
        "{\"utterance\": \"commit my changes\", \"route_to\": \"git-commit\"}\n  {\"utterance\": oops}\n",
    );
    let r = check_json(dir.path(), &[]);
    let f = r.one("SG401", "qa/a.jsonl");
    assert_eq!((f.line, f.column), (Some(2), Some(17)), "{f:?}");
}
