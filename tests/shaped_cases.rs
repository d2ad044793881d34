//! Trigger tests found by what a file holds, with zero configuration: one
//! catalog per shape real catalogs ship (and three of our own invention),
//! every prompt read and routed for the right skill, each shown by
//! `skillsift cases` at its file, line and column with the shape that found
//! it; look-alike JSON and YAML stay quiet; what looks like trigger tests
//! and cannot be read is said (SG437, SG438), never skipped silently.

mod common;

use common::{check_human, check_json, skill, skillsift, write};
use serde_json::Value;
use std::path::Path;

fn catalog() -> tempfile::TempDir {
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
    dir
}

/// `(positives, negatives)` routed by `check`.
fn routed(root: &Path) -> (u64, u64) {
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &doc["summary"]["route"];
    let positives = r["positives"].as_u64().unwrap();
    let checks = r["checks"].as_u64().unwrap();
    (positives, checks - positives)
}

/// `skillsift cases SKILL --format json`.
fn cases(root: &Path, name: &str) -> Value {
    let out = skillsift()
        .args(["cases", name])
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// The prompts of one side of `cases`, as `(prompt, file:line:col)`.
fn prompts(doc: &Value, side: &str) -> Vec<(String, String)> {
    doc[side]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["prompt"].as_str().unwrap().to_string(),
                format!(
                    "{}:{}:{}",
                    t["file"].as_str().unwrap(),
                    t["line"],
                    t["column"]
                ),
            )
        })
        .collect()
}

fn quiet(root: &Path) {
    let r = check_json(root, &[]);
    assert!(r.of("SG437").is_empty(), "{:#?}", r.findings);
    assert!(r.of("SG438").is_empty(), "{:#?}", r.findings);
}

#[test]
fn per_skill_objects_with_should_trigger_lists_under_a_trigger_set_name() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "skills/pdf-forms/evals/trigger_eval_set.json",
        r#"{
  "skill_name": "pdf-forms",
  "should_trigger": ["fill in this pdf form", "fill the W-9 form for me"],
  "should_not_trigger": ["write a commit message"]
}"#,
    );
    assert_eq!(routed(root), (2, 1));
    let r = check_json(root, &[]);
    assert!(r.of("SG418").is_empty(), "{:#?}", r.findings);
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        prompts(&doc, "positive"),
        [
            (
                "fill in this pdf form".into(),
                "skills/pdf-forms/evals/trigger_eval_set.json:3:22".into()
            ),
            (
                "fill the W-9 form for me".into(),
                "skills/pdf-forms/evals/trigger_eval_set.json:3:47".into()
            )
        ]
    );
    assert_eq!(
        doc["negative"][0]["found_by"],
        "shape: prompts under `should_not_trigger`, skill from `skill_name`"
    );
}

#[test]
fn one_catalog_file_of_records_under_a_cases_key() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "evals/routing.json",
        r#"{"version": 2, "cases": [
  {"prompt": "fill in this pdf form", "expect": "pdf-forms"},
  {"prompt": "my sql query is slow", "expect": "sql-tuning"},
  {"prompt": "commit these changes", "expect": "git-commit"}
]}"#,
    );
    assert_eq!(routed(root), (3, 0));
    quiet(root);
    let doc = cases(root, "sql-tuning");
    assert_eq!(
        prompts(&doc, "positive"),
        [(
            "my sql query is slow".into(),
            "evals/routing.json:3:14".into()
        )]
    );
    assert_eq!(
        doc["positive"][0]["found_by"],
        "shape: records of `prompt`, `expect`"
    );
}

#[test]
fn per_skill_yaml_beside_skill_md_with_skill_and_tests() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "skills/pdf-forms/skill-tests.yaml",
        "skill: pdf-forms\ntests:\n  - prompt: fill in this pdf form\n    should_trigger: true\n  - prompt: \"commit my changes\"\n    should_trigger: false\n",
    );
    assert_eq!(routed(root), (1, 1));
    quiet(root);
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        prompts(&doc, "negative"),
        [(
            "commit my changes".into(),
            "skills/pdf-forms/skill-tests.yaml:5:13".into()
        )]
    );
}

#[test]
fn repository_routing_corpora_in_json_and_jsonl() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "tests/routing/corpus.json",
        r#"[{"prompt": "fill in this pdf form", "expected_skill": "pdf-forms"},
 {"prompt": "speed up my slow sql query", "expected_skill": "sql-tuning"}]"#,
    );
    write(
        root,
        "tests/routing/activation.jsonl",
        concat!(
            r#"{"user_prompt": "commit and write a commit message", "expected_skills": ["git-commit"], "should_activate": true}"#,
            "\n",
            r#"{"user_prompt": "fill the W-9 pdf form and commit it", "expected_skills": ["pdf-forms", "git-commit"], "should_activate": true}"#,
            "\n",
            r#"{"user_prompt": "commit the pdf form", "expected_skills": ["sql-tuning"], "should_activate": false}"#,
            "\n",
        ),
    );
    // the two-skill prompt is positive for both skills
    assert_eq!(routed(root), (5, 1));
    quiet(root);
    let doc = cases(root, "git-commit");
    assert_eq!(
        prompts(&doc, "positive"),
        [
            (
                "commit and write a commit message".into(),
                "tests/routing/activation.jsonl:1:17".into()
            ),
            (
                "fill the W-9 pdf form and commit it".into(),
                "tests/routing/activation.jsonl:2:17".into()
            )
        ]
    );
    assert_eq!(
        doc["positive"][0]["found_by"],
        "shape: records of `user_prompt`, `expected_skills`, `should_activate`"
    );
    let doc = cases(root, "sql-tuning");
    assert_eq!(prompts(&doc, "negative").len(), 1);
}

#[test]
fn an_authors_records_with_extra_keys_next_to_a_skill_creator_file() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "skills/git-commit/evals/evals.json",
        r#"{"skill_name": "git-commit", "evals": [{"id": 1, "prompt": "commit this", "expected_output": "a commit", "assertions": ["a commit is made"]}]}"#,
    );
    write(
        root,
        "skills/git-commit/evals/routing-checks.json",
        r#"[{"prompt": "write a commit message for my changes", "expect": "git-commit", "notes": "x", "difficulty": "easy"},
 {"prompt": "fill the pdf form", "expect": "pdf-forms", "difficulty": "hard"}]"#,
    );
    assert_eq!(routed(root), (2, 0));
    quiet(root);
    // the record naming another skill goes to that skill's suite
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        prompts(&doc, "positive"),
        [(
            "fill the pdf form".into(),
            "skills/git-commit/evals/routing-checks.json:2:13".into()
        )]
    );
}

#[test]
fn a_yaml_map_keyed_by_skill_name_with_side_lists() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "tests/routing.yaml",
        "routing:\n  pdf-forms:\n    positive:\n      - fill in this pdf form\n    negative:\n      - write a commit message\n  sql-tuning:\n    positive:\n      - the sql query is slow\n",
    );
    assert_eq!(routed(root), (2, 1));
    quiet(root);
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        doc["negative"][0]["found_by"],
        "shape: prompts under `negative`, skill from `key pdf-forms`"
    );
}

#[test]
fn suites_of_examples_with_a_target_skill_and_camel_case_polarity() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "test/suites.json",
        r#"{"suites": [{"targetSkill": "sql-tuning", "examples": [
  {"utterance": "this sql query is slow, add an index", "shouldFire": true},
  {"utterance": "commit my sql migration", "shouldFire": false}
]}]}"#,
    );
    assert_eq!(routed(root), (1, 1));
    quiet(root);
}

#[test]
fn ndjson_records_with_camel_case_fields_and_a_label() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "evals/routing.ndjson",
        concat!(
            r#"{"userQuery": "fill in this pdf form", "label": "pdf-forms"}"#,
            "\n\n",
            r#"{"userQuery": "write a commit message", "label": "git-commit", "split": "validation"}"#,
            "\n"
        ),
    );
    assert_eq!(routed(root), (2, 0));
    quiet(root);
    let doc = cases(root, "git-commit");
    assert_eq!(doc["positive"][0]["split"], "validation");
    assert_eq!(doc["positive"][0]["line"], 3);
}

#[test]
fn look_alike_json_and_yaml_stay_quiet() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "package.json",
        r#"{"name": "x", "version": "1.0.0", "scripts": {"test": "jest"}}"#,
    );
    write(
        root,
        "skills/pdf-forms/evals/grader.json",
        r#"{"tasks": [{"prompt": "write a function", "graders": [{"type": "regex", "pattern": "x"}]}]}"#,
    );
    write(
        root,
        "tests/data.json",
        r#"[{"input": "2+2", "output": "4"}, {"question": "why", "answer": "because"}]"#,
    );
    write(
        root,
        "tests/fixtures/cases.json",
        r#"[{"prompt": "fill in this pdf form", "expect": "pdf-forms"}]"#,
    );
    write(
        root,
        "test/ci.yaml",
        "name: ci\non: push\njobs:\n  test:\n    steps:\n      - run: echo hi\n",
    );
    write(
        root,
        "skills/sql-tuning/tsconfig.json",
        r#"{"compilerOptions": {"strict": true}}"#,
    );
    write(root, "tests/broken.json", r#"{"prompt": "x", "#);
    assert_eq!(routed(root), (0, 0));
    quiet(root);
}

#[test]
fn prompts_that_cannot_be_routed_are_said_with_their_place() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "tests/triggers.json",
        r#"{"cases": [
  {"prompt": "fill the form", "should_trigger": true},
  {"prompt": "optimize it", "expect": "sql-optimizer"},
  {"prompt": "", "expect": "pdf-forms"},
  {"prompt": "what is the weather", "expect": null}
]}"#,
    );
    let r = check_json(root, &[]);
    let notices = r.in_file("SG437", "tests/triggers.json");
    let messages: Vec<&str> = notices.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(notices.len(), 2, "{messages:#?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("1 trigger prompt here names no skill")),
        "{messages:#?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("hold no prompt text") || m.contains("holds no prompt text")),
        "{messages:#?}"
    );
    // `"expect": null`: no skill should take it, a negative for each
    for skill in ["pdf-forms", "git-commit", "sql-tuning"] {
        let doc = cases(root, skill);
        assert_eq!(
            prompts(&doc, "negative"),
            [(
                "what is the weather".to_string(),
                "tests/triggers.json:5:14".to_string()
            )],
            "{skill}"
        );
    }
    let unknown = r.one("SG438", "tests/triggers.json");
    assert!(unknown.message.contains("`sql-optimizer`"), "{unknown:?}");
    assert_eq!(unknown.line, Some(3));
    // the summary says that prompts were found and not read
    let (text, _) = check_human(root, &[]);
    assert!(
        text.contains("trigger tests found by shape were not read in full"),
        "{text}"
    );
}

#[test]
fn the_same_file_on_one_line_is_read_with_exact_columns() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "evals/routing.json",
        r#"{"cases": [{"prompt": "fill in this pdf form", "expect": "pdf-forms"}, {"prompt": "my sql query is slow", "expect": "sql-tuning"}]}"#,
    );
    let doc = cases(root, "sql-tuning");
    assert_eq!(
        prompts(&doc, "positive"),
        [(
            "my sql query is slow".into(),
            "evals/routing.json:1:83".into()
        )]
    );
}

#[test]
fn a_trigger_block_beside_the_evals_of_an_evals_file() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "skills/sql-tuning/evals/evals.json",
        r#"{"skill_name": "sql-tuning",
 "evals": [{"id": 1, "prompt": "the report query takes a minute", "expected_output": "an index", "expectations": ["an index is proposed"]}],
 "trigger": {"should_trigger": ["this sql query is slow, add an index"], "should_not_trigger": ["write a commit message"]}}"#,
    );
    assert_eq!(routed(root), (1, 1));
    quiet(root);
    let r = check_json(root, &[]);
    assert!(r.of("SG414").is_empty(), "{:#?}", r.findings);
    let doc = cases(root, "sql-tuning");
    assert_eq!(doc["evals"].as_array().unwrap().len(), 1);
    assert_eq!(
        prompts(&doc, "positive"),
        [(
            "this sql query is slow, add an index".into(),
            "skills/sql-tuning/evals/evals.json:3:33".into()
        )]
    );
}

#[test]
fn records_with_expected_and_avoided_skills() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "tests/triggers.json",
        r#"[
  {"prompt": "fill in this pdf form", "expected": ["pdf-forms"], "avoid": ["git-commit"]},
  {"prompt": "what is 7 times 8?", "expected": [], "avoid": ["sql-tuning"]},
  {"prompt": "speed up this query", "expected_skill": "skills/sql-tuning/SKILL.md", "type": "trigger_positive"}
]"#,
    );
    // positives: pdf-forms, sql-tuning (by its SKILL.md path); negatives:
    // git-commit (pdf-forms must outrank it) and sql-tuning
    assert_eq!(routed(root), (2, 2));
    quiet(root);
    let doc = cases(root, "git-commit");
    assert_eq!(doc["negative"][0]["owner"], "pdf-forms");
    assert_eq!(
        doc["negative"][0]["found_by"],
        "shape: records of `prompt`, `expected`, avoided skill"
    );
}

#[test]
fn a_file_named_like_trigger_tests_that_no_shape_reads_is_said() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "tests/routing-cases.json",
        r#"{"cases": [{"q": "fill in this pdf form", "route": 1}]}"#,
    );
    write(
        root,
        "skills/pdf-forms/evals/trigger-notes.json",
        r#"{"notes": [{"utterance_id": 3, "comment": "fill in this pdf form"}]}"#,
    );
    let r = check_json(root, &[]);
    let one = r.one("SG437", "tests/routing-cases.json");
    assert!(
        one.message.contains("named like trigger tests") && one.message.contains("`q`, `route`"),
        "{one:?}"
    );
    r.one("SG437", "skills/pdf-forms/evals/trigger-notes.json");
    assert_eq!(routed(root), (0, 0));
}

#[test]
fn expected_allowed_and_forbidden_skills() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "evals/triggers.json",
        r#"{"format_version": 1, "criteria": [{"id": "selection", "kind": "required", "check": "expected skills load"}],
 "cases": [{"id": "t1", "fixture": "calc", "prompt": "fill in the W-9 pdf form and commit it",
            "expected_skills": ["pdf-forms"], "allowed_skills": ["git-commit"], "forbidden_skills": ["sql-tuning"]}]}"#,
    );
    assert_eq!(routed(root), (1, 1));
    quiet(root);
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        doc["positive"][0]["found_by"],
        "shape: records of `prompt`, `expected_skills`"
    );
    let doc = cases(root, "sql-tuning");
    assert_eq!(doc["negative"][0]["owner"], "pdf-forms");
}

#[cfg(unix)]
#[test]
fn hostile_files_found_by_shape_are_bounded_never_followed_out_and_escaped() {
    let dir = catalog();
    let root = dir.path();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("secret-routing.json"),
        r#"[{"prompt": "OUTSIDE-THE-CATALOG", "expect": "pdf-forms"}]"#,
    )
    .unwrap();
    std::fs::create_dir_all(root.join("tests")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret-routing.json"),
        root.join("tests/routing.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("evals")).unwrap();
    // an alias bomb named like trigger tests
    let mut bomb =
        String::from("a: &a [\"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\"]\n");
    for i in 0..12 {
        let prev = if i == 0 {
            "a".to_string()
        } else {
            format!("l{}", i - 1)
        };
        bomb.push_str(&format!(
            "l{i}: &l{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
        ));
    }
    write(root, "test/trigger-bomb.yaml", &bomb);
    // a key that would move the cursor, in a file named like trigger tests
    write(
        root,
        "tests/activation-cases.json",
        "[{\"\\u001b[2Jq\": \"fill in this pdf form\"}]",
    );
    let out = skillsift().arg("check").arg(root).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("OUTSIDE-THE-CATALOG"), "{stdout}");
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{stdout}");
    assert_eq!(routed(root), (0, 0));
    let r = check_json(root, &[]);
    r.one("SG437", "test/trigger-bomb.yaml");
    r.one("SG437", "tests/activation-cases.json");
}

/// Each way a record says its side is read as that side; a record that
/// says none is never routed, and the notice counts it.
#[test]
fn a_prompts_side_comes_only_from_what_its_record_says() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "skills/pdf-forms/evals/triggers.json",
        r#"{"cases": [
  {"prompt": "fill in my w-9 pdf form", "should_trigger": true},
  {"prompt": "merge two pdf files", "should_trigger": false},
  {"prompt": "complete this tax form", "expected": true},
  {"prompt": "rotate the pdf pages", "expected": false},
  {"prompt": "fill the pdf application form", "kind": "should-trigger"},
  {"prompt": "compress a scanned pdf", "type": "must_not_trigger"},
  {"prompt": "sign the pdf form fields", "side": "positive"},
  {"prompt": "convert the pdf to word", "polarity": "anti-trigger"},
  {"prompt": "what is the weather today", "expected_skill": "none"},
  {"prompt": "fill the pdf form for the bank", "expected_skill": "pdf-forms"},
  {"prompt": "print a pdf form", "kind": "trigger", "name": "should-not-trigger-on-printing"},
  {"prompt": "fill out a pdf", "kind": "trigger", "id": "positive-7"},
  {"prompt": "open the pdf form", "kind": "trigger"},
  {"prompt": "read the pdf form", "skill": "pdf-forms"},
  {"prompt": "email the pdf form"}
]}"#,
    );
    write(
        root,
        "skills/sql-tuning/evals/routing.yaml",
        "should_trigger:\n  - my sql query is slow\nshould_not_trigger:\n  - write a commit message\nprompts:\n  - tune this index\n",
    );
    let doc = cases(root, "pdf-forms");
    let texts =
        |side: &str| -> Vec<String> { prompts(&doc, side).into_iter().map(|(p, _)| p).collect() };
    assert_eq!(
        texts("positive"),
        [
            "fill in my w-9 pdf form",
            "complete this tax form",
            "fill the pdf application form",
            "sign the pdf form fields",
            "fill the pdf form for the bank",
            "fill out a pdf",
        ]
    );
    assert_eq!(
        texts("negative"),
        [
            "merge two pdf files",
            "rotate the pdf pages",
            "compress a scanned pdf",
            "convert the pdf to word",
            "what is the weather today",
            "print a pdf form",
        ]
    );
    let doc = cases(root, "sql-tuning");
    let texts =
        |side: &str| -> Vec<String> { prompts(&doc, side).into_iter().map(|(p, _)| p).collect() };
    assert_eq!(texts("positive"), ["my sql query is slow"]);
    assert_eq!(texts("negative"), ["write a commit message"]);
    let r = check_json(root, &[]);
    let unstated: Vec<String> = [
        "skills/pdf-forms/evals/triggers.json",
        "skills/sql-tuning/evals/routing.yaml",
    ]
    .iter()
    .flat_map(|f| r.in_file("SG437", f))
    .map(|f| f.message.clone())
    .collect();
    assert_eq!(
        unstated,
        [
            "3 records here hold a prompt but say not whether it should trigger its skill: not routed",
            "1 record here holds a prompt but says not whether it should trigger its skill: not routed",
        ]
    );
    let (text, _) = check_human(root, &[]);
    assert!(text.contains("should_trigger"), "{text}");
}

/// CSV files of trigger tests are read where their header says it all:
/// per skill under the root's `evals/<skill>/` (the skill from the path),
/// or naming the expected skill in a column; a CSV of other data stays
/// quiet.
#[test]
fn csv_trigger_tests_are_read_where_their_header_says_it_all() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "evals/pdf-forms/prompts.csv",
        "id,should_trigger,prompt\ntest-01,true,\"Fill in my W-9, please\"\ntest-02,false,merge two pdf files\ntest-03,,print the form\n",
    );
    write(
        root,
        "evals/routing.csv",
        "prompt,expected_skill\nmy sql query is slow,sql-tuning\nwhat is the weather,none\n",
    );
    write(
        root,
        "skills/sql-tuning/tests/sentiment.csv",
        "text,label\ngreat product,positive\nawful,negative\n",
    );
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        prompts(&doc, "positive"),
        [(
            "Fill in my W-9, please".to_string(),
            "evals/pdf-forms/prompts.csv:2:15".to_string()
        )]
    );
    assert_eq!(
        prompts(&doc, "negative"),
        [
            (
                "merge two pdf files".to_string(),
                "evals/pdf-forms/prompts.csv:3:15".to_string()
            ),
            (
                "what is the weather".to_string(),
                "evals/routing.csv:3:1".to_string()
            )
        ]
    );
    let doc = cases(root, "sql-tuning");
    assert_eq!(
        prompts(&doc, "positive"),
        [(
            "my sql query is slow".to_string(),
            "evals/routing.csv:2:1".to_string()
        )]
    );
    let r = check_json(root, &[]);
    let unstated = r.one("SG437", "evals/pdf-forms/prompts.csv");
    assert!(
        unstated
            .message
            .starts_with("1 record here holds a prompt but says not"),
        "{unstated:?}"
    );
    assert_eq!(unstated.line, Some(4));
    assert!(r.in_file("SG437", "sentiment.csv").is_empty());
}

/// A file of trigger tests where no reader looks is named, with the
/// `[[cases.sources]]` table that reads it; pasted, the table reads it.
#[test]
fn trigger_tests_in_an_unsearched_folder_are_named_with_a_table_that_reads_them() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "shared/routing-tests.json",
        r#"{"suite": {"cases": [
 {"prompt": "fill in this pdf form", "expected_skill": "pdf-forms", "should_trigger": true},
 {"prompt": "my sql query is slow", "expected_skill": "sql-tuning", "should_trigger": true},
 {"prompt": "merge pdf files", "expected_skill": "pdf-forms", "should_trigger": false}
]}}"#,
    );
    write(
        root,
        "qa/pdf-forms/prompts.csv",
        "id,should_trigger,prompt\n1,true,fill the pdf form\n2,false,speed up my sql query\n",
    );
    write(
        root,
        "qa/_template/prompts.csv",
        "id,should_trigger,prompt\n1,true,[an explicit request]\n",
    );
    // deep in a skill's folder, where no reader looks either
    write(
        root,
        "skills/sql-tuning/docs/routing-tests.yaml",
        "should_trigger:\n  - my query is slow\n",
    );
    // an example in the docs is named, never read
    write(
        root,
        "docs/examples/package.json",
        r#"{"name": "x", "scripts": {"test": "jest"}}"#,
    );
    assert_eq!(routed(root), (0, 0));
    let r = check_json(root, &[]);
    let shared = r.one("SG437", "shared/routing-tests.json");
    assert_eq!(
        shared.message,
        "this file holds 3 trigger prompts in a folder `check` does not search for trigger tests: none is routed"
    );
    assert_eq!(shared.line, Some(2));
    let deep = r.one("SG437", "skills/sql-tuning/docs/routing-tests.yaml");
    assert!(
        deep.message
            .starts_with("this file holds 1 trigger prompt in")
    );
    let qa = r.one("SG437", "qa/pdf-forms/prompts.csv");
    assert!(qa.message.starts_with("this file holds 2 trigger prompts"));
    // the template names no skill: named, with no table to paste
    let template = r.one("SG437", "qa/_template/prompts.csv");
    assert!(
        !template
            .help
            .as_deref()
            .unwrap_or_default()
            .contains("[[cases.sources]]\n"),
        "{template:?}"
    );
    assert!(r.in_file("SG437", "docs/examples").is_empty());
    // paste the tables
    let toml: String = [&shared.help, &qa.help]
        .iter()
        .map(|h| {
            let h = h.as_deref().unwrap();
            let start = h.find("[[cases.sources]]").expect("a table to paste");
            let end = start + h[start..].find("\n\n").unwrap();
            format!("{}\n", &h[start..end])
        })
        .collect();
    assert_eq!(
        toml,
        "[[cases.sources]]\nfiles = \"shared/routing-tests.json\"\nformat = \"json\"\nrecords = \"suite.cases\"\nprompt = \"prompt\"\nskill = \"expected_skill\"\npolarity = \"should_trigger\"\n\
         [[cases.sources]]\nfiles = \"qa/pdf-forms/prompts.csv\"\nformat = \"csv\"\nprompt = \"prompt\"\nskill-path-part = 1\npolarity = \"should_trigger\"\n"
    );
    write(root, "skillsift.toml", &toml);
    assert_eq!(routed(root), (3, 2));
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        prompts(&doc, "negative"),
        [
            (
                "speed up my sql query".to_string(),
                "qa/pdf-forms/prompts.csv:3:9".to_string()
            ),
            (
                "merge pdf files".to_string(),
                "shared/routing-tests.json:4:13".to_string()
            )
        ]
    );
    let r = check_json(root, &[]);
    assert!(r.in_file("SG437", "shared/").is_empty());
    assert!(r.in_file("SG437", "qa/pdf-forms").is_empty());
    // a path part that names no skill is said, not guessed
    write(
        root,
        "skillsift.toml",
        "[[cases.sources]]\nfiles = \"qa/*/prompts.csv\"\nformat = \"csv\"\nprompt = \"prompt\"\nskill-path-part = 1\npolarity = \"should_trigger\"\n",
    );
    let r = check_json(root, &[]);
    let unknown = r.one("SG438", "qa/_template/prompts.csv");
    assert!(
        unknown
            .message
            .contains("skill-path-part = 1 names `_template`"),
        "{unknown:?}"
    );
    assert_eq!(routed(root), (1, 1));
}

/// A Markdown file of should / should-not lists (sensei's
/// `tests/<skill>/prompts.md`): quoted prompts under headings that say the
/// side, or marked one by one; anything else in the file is not a prompt.
#[test]
fn markdown_should_and_should_not_lists_are_read() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "tests/pdf-forms/prompts.md",
        "# pdf-forms Trigger Prompts\n\n**Skill Type:** WORKFLOW\n\n## Should Trigger\n\nThese prompts should activate the skill:\n\n1. \"Fill in this W-9 PDF form\"\n2. \"Complete the tax form for me\"\n\n## Should NOT Trigger\n\n### Unrelated Topics\n1. \"What is the weather today?\"\n\n### Related But Different Skills\n1. \"My SQL query is slow\" → use sql-tuning instead\n\n## Notes\n\n- \"Trigger phrases based on USE FOR\"\n- ✅ \"sign the PDF form\"\n\n```markdown\n1. \"in a fence\"\n```\n",
    );
    write(
        root,
        "skills/git-commit/README.md",
        "## Should trigger\n- \"a readme is not a prompts file\"\n",
    );
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        prompts(&doc, "positive"),
        [
            (
                "Fill in this W-9 PDF form".to_string(),
                "tests/pdf-forms/prompts.md:9:5".to_string()
            ),
            (
                "Complete the tax form for me".to_string(),
                "tests/pdf-forms/prompts.md:10:5".to_string()
            ),
            (
                "sign the PDF form".to_string(),
                "tests/pdf-forms/prompts.md:23:6".to_string()
            ),
        ]
    );
    assert_eq!(
        prompts(&doc, "negative"),
        [
            (
                "What is the weather today?".to_string(),
                "tests/pdf-forms/prompts.md:15:5".to_string()
            ),
            (
                "My SQL query is slow".to_string(),
                "tests/pdf-forms/prompts.md:18:5".to_string()
            ),
        ]
    );
    assert_eq!(
        doc["negative"][0]["found_by"],
        "shape: a Markdown list, side from heading `Should NOT Trigger`"
    );
    assert_eq!(routed(root), (3, 2));
}

/// vally's eval files (`evals/<plugin>/<skill>/routing-eval.yaml`): a
/// stimulus whose `skill-invocation` grader requires a skill is a positive
/// for it, one it disallows a negative; a multi-turn stimulus is routed on
/// its first turn; a stimulus graded otherwise is no trigger test.
#[test]
fn vally_skill_invocation_graders_are_trigger_tests() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "evals/forms/pdf-forms/routing-eval.yaml",
        r#"name: pdf-forms-routing-eval
tags:
  skill: pdf-forms
stimuli:
  - name: "Fill prompt"
    prompt: "Fill in this W-9 PDF form for me"
    graders:
      - type: skill-invocation
        config:
          required:
            - pdf-forms
      - type: output-not-matches
        config:
          pattern: "(?i)fatal error"
  - name: "Multi-turn"
    turns:
      - "Complete the tax form in form.pdf"
      - "Yes."
    graders:
      - type: skill-invocation
        config:
          required: ["pdf-forms"]
  - name: "Commit is not a form"
    prompt: "Commit these changes with a good message"
    graders:
      - type: skill-invocation
        config:
          disallowed: ["pdf-forms"]
  - name: "Output only"
    prompt: "Describe the form"
    graders:
      - type: file-exists
        config:
          path: "out.pdf"
"#,
    );
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        prompts(&doc, "positive"),
        [
            (
                "Fill in this W-9 PDF form for me".to_string(),
                "evals/forms/pdf-forms/routing-eval.yaml:6:13".to_string()
            ),
            (
                "Complete the tax form in form.pdf".to_string(),
                "evals/forms/pdf-forms/routing-eval.yaml:17:9".to_string()
            ),
        ]
    );
    assert_eq!(
        prompts(&doc, "negative"),
        [(
            "Commit these changes with a good message".to_string(),
            "evals/forms/pdf-forms/routing-eval.yaml:24:13".to_string()
        )]
    );
    let r = check_json(root, &[]);
    assert!(
        r.in_file("SG437", "routing-eval.yaml").is_empty(),
        "{:#?}",
        r.in_file("SG437", "routing-eval.yaml")
    );
}

/// A file found elsewhere whose name a glob would read otherwise, or that
/// holds a line break, gets no table to paste: nothing raw reaches the
/// terminal.
#[test]
fn a_hostile_name_found_elsewhere_gets_no_table() {
    let dir = catalog();
    let root = dir.path();
    let records = r#"[{"prompt": "fill in this pdf form", "expected_skill": "pdf-forms", "should_trigger": true}]"#;
    write(root, "shared/routing\"\n$(id)`.json", records);
    write(root, "shared/routing[1].json", records);
    write(
        root,
        "shared/routing-keys.json",
        "[{\"prompt\u{1b}[31m\": \"fill in this pdf form\", \"expected_skill\": \"pdf-forms\", \"should_trigger\": true}]",
    );
    let r = check_json(root, &[]);
    let found = r.in_file("SG437", "shared/routing");
    assert_eq!(found.len(), 3, "{found:#?}");
    for f in found {
        let help = f.help.as_deref().unwrap_or_default();
        assert!(!help.contains("[[cases.sources]]\n"), "{f:#?}");
        assert!(
            !help.contains('\u{1b}') && !help.contains("$(id)"),
            "{f:#?}"
        );
    }
}

/// `cases --format json` says for every prompt which rule decided whose it
/// is and which side it is on, whatever the reader.
#[test]
fn every_prompt_says_which_rule_decided_its_owner_and_side() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "skills/pdf-forms/evals/triggers.json",
        r#"{"cases": [
  {"prompt": "fill in my w-9 pdf form", "should_trigger": true},
  {"prompt": "what is the weather today", "expected_skill": "none"},
  {"prompt": "fill the pdf form for the bank", "expected_skill": "pdf-forms"},
  {"prompt": "print a pdf form", "kind": "trigger", "name": "should-not-trigger-on-printing"}
]}"#,
    );
    write(
        root,
        "tests/routing.json",
        r#"{"pdf-forms": {"negatives": ["merge two pdf files"]}}"#,
    );
    write(
        root,
        "evals/cases/pdf-forms.json",
        r#"{"trigger": {"positive": [{"prompt": "complete the pdf form"}]}}"#,
    );
    write(
        root,
        "evals/pdf-forms/prompts.csv",
        "id,should_trigger,prompt\nt1,false,rotate the pdf pages\n",
    );
    let doc = cases(root, "pdf-forms");
    let rules: Vec<(String, String, String)> = ["positive", "negative"]
        .iter()
        .flat_map(|side| doc[side].as_array().unwrap().clone())
        .map(|t| {
            (
                t["prompt"].as_str().unwrap().to_string(),
                t["owner_from"].as_str().unwrap().to_string(),
                t["side_from"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        (
            "complete the pdf form",
            "the case file's name",
            "the list `trigger.positive` it stands in",
        ),
        (
            "fill in my w-9 pdf form",
            "the skill folder holding the file",
            "`should_trigger`",
        ),
        (
            "fill the pdf form for the bank",
            "`expected_skill`",
            "`expected_skill` expects a skill: a positive for it",
        ),
        (
            "what is the weather today",
            "the skill folder holding the file, as no skill should take it",
            "`expected_skill` names no skill: a negative for every skill",
        ),
        (
            "print a pdf form",
            "the skill folder holding the file",
            "its `name` (a name saying the side; nothing else in the record does)",
        ),
        (
            "merge two pdf files",
            "the key `pdf-forms` it stands under",
            "the list `negatives` it stands in",
        ),
        (
            "rotate the pdf pages",
            "the folder `pdf-forms` on the file's path",
            "`should_trigger`",
        ),
    ];
    for (prompt, owner, side) in want {
        assert!(
            rules
                .iter()
                .any(|r| r.0 == prompt && r.1 == owner && r.2 == side),
            "{prompt}: want ({owner} / {side}), got {rules:#?}"
        );
    }
    assert_eq!(rules.len(), want.len(), "{rules:#?}");
    assert!(
        rules.iter().all(|r| !r.1.is_empty() && !r.2.is_empty()),
        "{rules:#?}"
    );
}

/// A folder of plain-text prompts named for their skills
/// (`tests/skill-triggering/prompts/<skill>.txt`, obra/superpowers'
/// layout) says no side: it is named with the table that reads each file as
/// a positive for its skill, and pasted, the table reads them.
#[test]
fn plain_text_prompts_named_for_skills_are_named_and_declarable() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "tests/skill-triggering/prompts/pdf-forms.txt",
        "\nPlease fill in the W-9 PDF form attached.\n\nThanks!\n",
    );
    write(
        root,
        "tests/skill-triggering/prompts/sql-tuning.txt",
        "my sql query is slow",
    );
    write(
        root,
        "tests/skill-triggering/prompts/notes.txt",
        "not a skill",
    );
    write(root, "docs/pdf-forms.txt", "docs, not tests");
    let r = check_json(root, &[]);
    let found = r.in_file("SG437", "tests/skill-triggering");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0]
            .message
            .starts_with("2 plain-text files in this folder are named for skills (`pdf-forms.txt`, `sql-tuning.txt`)"),
        "{:?}",
        found[0].message
    );
    assert!(r.in_file("SG437", "docs/").is_empty());
    assert_eq!(routed(root), (0, 0));
    let help = found[0].help.as_deref().unwrap();
    let start = help.find("[[cases.sources]]").expect("a table to paste");
    let end = start + help[start..].find("\n\n").unwrap();
    let table = format!("{}\n", &help[start..end]);
    assert_eq!(
        table,
        "[[cases.sources]]\nfiles = \"tests/skill-triggering/prompts/*.txt\"\nformat = \"text\"\nskill-path-part = 3\n"
    );
    write(root, "skillsift.toml", &table);
    // notes.txt names no skill: said, not routed
    let r = check_json(root, &[]);
    assert_eq!(r.in_file("SG437", "tests/skill-triggering").len(), 0);
    let notes = r.one("SG438", "tests/skill-triggering/prompts/notes.txt");
    assert!(notes.message.contains("names `notes`"), "{notes:?}");
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        prompts(&doc, "positive"),
        [(
            "Please fill in the W-9 PDF form attached.\n\nThanks!".to_string(),
            "tests/skill-triggering/prompts/pdf-forms.txt:2:1".to_string()
        )]
    );
    let t = &doc["positive"][0];
    assert_eq!(
        t["owner_from"],
        "part 3 of the file's path (the declared skill-path-part)"
    );
    assert_eq!(
        t["side_from"],
        "the declaration (it names no polarity field: every prompt is positive)"
    );
    assert_eq!(routed(root), (2, 0));
}

/// A Markdown file of should / should-not lists is declarable wherever it
/// is; a text or Markdown declaration with fields, or a record declaration
/// without `prompt`, is a usage error.
#[test]
fn markdown_and_text_sources_are_declared_without_fields() {
    let dir = catalog();
    let root = dir.path();
    write(
        root,
        "qa/pdf-forms/checklist.md",
        "# pdf-forms\n\n## Should trigger\n\n- \"fill in my W-9 pdf\"\n\n## Should not trigger\n\n- \"merge two pdf files\"\n",
    );
    write(
        root,
        "qa/sql-tuning/prompts.md",
        "## Should trigger\n\n- \"my sql query is slow\"\n",
    );
    // found where no reader looks: named with the table that reads it
    let r = check_json(root, &[]);
    let found = r.one("SG437", "qa/sql-tuning/prompts.md");
    let help = found.help.as_deref().unwrap();
    let start = help.find("[[cases.sources]]").expect("a table to paste");
    let end = start + help[start..].find("\n\n").unwrap();
    let table = format!("{}\n", &help[start..end]);
    assert_eq!(
        table,
        "[[cases.sources]]\nfiles = \"qa/sql-tuning/prompts.md\"\nformat = \"markdown\"\nskill-path-part = 1\n"
    );
    write(
        root,
        "skillsift.toml",
        &format!(
            "{table}[[cases.sources]]\nfiles = \"qa/*/checklist.md\"\nformat = \"markdown\"\n"
        ),
    );
    assert_eq!(routed(root), (2, 1));
    let doc = cases(root, "pdf-forms");
    assert_eq!(
        prompts(&doc, "positive"),
        [(
            "fill in my W-9 pdf".to_string(),
            "qa/pdf-forms/checklist.md:5:4".to_string()
        )]
    );
    assert_eq!(doc["negative"][0]["prompt"], "merge two pdf files");
    assert_eq!(
        doc["negative"][0]["owner_from"],
        "the title naming `pdf-forms`"
    );
    assert_eq!(
        doc["negative"][0]["side_from"],
        "heading `Should not trigger`"
    );
    for (toml, want) in [
        (
            "[[cases.sources]]\nfiles = \"qa/*/checklist.md\"\nformat = \"markdown\"\nprompt = \"q\"\npolarity = \"p\"\n",
            "a markdown source has no fields, and prompt, polarity are declared",
        ),
        (
            "[[cases.sources]]\nfiles = \"qa/*/checklist.md\"\nformat = \"text\"\nskill = \"s\"\n",
            "a text source has no fields, and skill is declared",
        ),
        (
            "[[cases.sources]]\nfiles = \"qa/*/checklist.md\"\nformat = \"json\"\n",
            "no `prompt` field is declared",
        ),
    ] {
        write(root, "skillsift.toml", toml);
        let out = skillsift().arg("check").arg(root).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{toml}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{toml}: {err}");
    }
}
