//! The case formats users already have, read natively through the binary:
//! the agentskills.io / skill-creator layout (per-skill `evals/evals.json`
//! with `evals/files/` fixtures), trigger sets under the names people use,
//! waza's `trigger_tests.yaml`, several files per skill merged into one
//! suite, a skill with cases in two places, malformed files of each format
//! (every finding at its file, line and column), `skillsift cases`,
//! `skillsift init`, `check --behavioral --dry-run` and `score triggers`
//! on skill-creator's `run_eval.py` output.

mod common;

use common::{skill, skillsift, write};
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn layout(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/layouts")
        .join(name)
}

/// `check --format json` (Tier 1 and 2) on `root`: exit code and document.
fn check(root: &Path, extra: &[&str]) -> (i32, Value) {
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    let doc = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), doc)
}

/// `(rule, file, line, column)` of every diagnostic.
fn places(doc: &Value) -> Vec<(String, String, u64, u64)> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["column"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

fn place(rule: &str, file: &str, line: u64, column: u64) -> (String, String, u64, u64) {
    (rule.to_string(), file.to_string(), line, column)
}

/// The one diagnostic of `rule` in `file`.
fn one<'a>(doc: &'a Value, rule: &str, file: &str) -> &'a Value {
    let found: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == rule && d["file"] == file)
        .collect();
    assert_eq!(found.len(), 1, "{rule} in {file}: {found:#?}");
    found[0]
}

/// Copy a fixture catalog into a temporary folder.
fn copy(name: &str) -> tempfile::TempDir {
    common::copy_tree(&layout(name))
}

#[test]
fn an_agentskills_catalog_is_routed_without_conversion() {
    let (code, doc) = check(&layout("agentskills"), &[]);
    assert_eq!(code, 0, "{:#?}", doc["diagnostics"]);
    assert_eq!(places(&doc), vec![]);
    let r = &doc["summary"]["route"];
    // 3 + 3 + 3 positives from three trigger sets, 3 from the waza file
    assert_eq!(r["positives"], 12);
    assert_eq!(r["rank1"], 12);
    // and 9 negatives: 2 per trigger set and waza file, 1 trigger-only
    // entry of pdf-forms' evals.json
    assert_eq!(r["checks"], 21);
    assert_eq!(r["checks_passed"], 21);
}

#[test]
fn the_rank1_line_counts_every_trigger_prompt() {
    skillsift()
        .arg("check")
        .arg(layout("agentskills"))
        .assert()
        .code(0)
        .stdout(contains(
            "trigger rank-1 rate: 100% (12/12 positive prompts rank their skill first)",
        ));
}

#[test]
fn a_misrouted_trigger_set_prompt_fails_at_its_line_and_column() {
    let cat = copy("agentskills");
    write(
        cat.path(),
        "skills/pdf-merge/evals/trigger/eval_queries.json",
        "[\n  { \"query\": \"combine PDFs\", \"should_trigger\": true },\n  { \"query\": \"check the VAT on this invoice\", \"should_trigger\": true }\n]\n",
    );
    let (code, doc) = check(cat.path(), &[]);
    assert_eq!(code, 1);
    let d = one(
        &doc,
        "SG502",
        "skills/pdf-merge/evals/trigger/eval_queries.json",
    );
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(14))
    );
    assert!(
        d["help"].as_str().unwrap().contains("`invoice-totals`"),
        "{d:#}"
    );
}

#[test]
fn dry_run_plans_the_evals_with_their_fixtures_from_the_skill_folder() {
    let out = skillsift()
        .args([
            "check",
            "--behavioral",
            "pdf-forms",
            "--dry-run",
            "--trials",
            "1",
        ])
        .args(["--format", "json"])
        .arg(layout("agentskills"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let plan = &doc["plan"];
    assert_eq!(
        plan["case_files"],
        serde_json::json!([
            "skills/pdf-forms/evals/evals.json",
            "skills/pdf-forms/evals/trigger-queries.json"
        ])
    );
    let cases = plan["cases"].as_array().unwrap();
    let ids: Vec<&str> = cases.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "positive-1",
            "positive-2",
            "positive-3",
            "negative-1",
            "negative-2",
            "negative-3",
            "eval-1",
            "eval-2"
        ]
    );
    let e1 = &cases[6];
    assert_eq!(e1["kind"], "execution");
    assert_eq!(
        e1["files"],
        serde_json::json!(["evals/files/w9.txt", "evals/files/details.txt"])
    );
    assert!(e1["fixtures_sha256"].as_str().unwrap().len() == 64);
    assert_eq!(e1["origin"], "skills/pdf-forms/evals/evals.json:4:5");
    assert_eq!(e1["expectations"].as_array().unwrap().len(), 2);
    // "files": [] is a dialogue eval there, not an error
    assert_eq!(cases[7]["kind"], "dialogue");
    assert_eq!(
        cases[3]["origin"],
        "skills/pdf-forms/evals/evals.json:18:17"
    );
    assert_eq!(cases[3]["expect_trigger"], false);
    let runs = doc["runs"].as_array().unwrap();
    let eval_run = runs.iter().find(|r| r["case"] == "eval-1").unwrap();
    assert_eq!(eval_run["workspace"], "git repository");
    assert_eq!(
        eval_run["fixtures"],
        serde_json::json!(["evals/files/w9.txt", "evals/files/details.txt"])
    );
}

#[test]
fn dry_run_of_a_waza_skill_runs_its_prompts_and_leaves_the_file_out_of_the_install() {
    let out = skillsift()
        .args([
            "check",
            "--behavioral",
            "receipt-scanner",
            "--dry-run",
            "--trials",
            "1",
        ])
        .arg(layout("agentskills"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("plan     7 runs for skill receipt-scanner: 6 cases × 1 trial × with and without (5 trigger prompts with only) (skills/receipt-scanner/evals/evals.json, skills/receipt-scanner/trigger_tests.yaml)"),
        "{text}"
    );
    // the skill hash is the folder's without evals/; the trigger tests in
    // it are named as not installed
    let json = skillsift()
        .args([
            "check",
            "--behavioral",
            "receipt-scanner",
            "--dry-run",
            "--format",
            "json",
        ])
        .arg(layout("agentskills"))
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&json.stdout).unwrap();
    let hash = behave::workspace::Tree::read_skill(&layout("agentskills/skills/receipt-scanner"))
        .unwrap()
        .skill_sha256();
    assert_eq!(doc["plan"]["skill"]["sha256"], hash.as_str());
    assert_eq!(
        doc["plan"]["skill"]["not_installed"],
        serde_json::json!(["trigger_tests.yaml"])
    );
}

#[test]
fn cases_lists_every_prompt_and_eval_with_its_origin() {
    skillsift()
        .args(["cases", "pdf-forms"])
        .arg(layout("agentskills"))
        .assert()
        .code(0)
        .stdout(contains(
            "  skills/pdf-forms/evals/trigger-queries.json  trigger set         3 positive, 2 negative",
        ))
        .stdout(contains(
            "  skills/pdf-forms/evals/trigger-queries.json:4:14  \"flatten the filled PDF form so nobody can edit the fields\"  [split validation]",
        ))
        .stdout(contains(
            "  skills/pdf-forms/evals/evals.json:18:17  \"merge these two PDF files into one document\"",
        ))
        .stdout(contains(
            "      files: evals/files/w9.txt, evals/files/details.txt (relative to skills/pdf-forms/)",
        ))
        .stdout(contains("3 positive, 3 negative, 0 draft, 2 evals"));
}

#[test]
fn cases_says_which_files_it_did_not_read_and_why() {
    let out = skillsift()
        .args(["cases", "receipt-scanner", "--format", "json"])
        .arg(layout("agentskills"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<(String, String, bool)> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["format"].as_str().unwrap().to_string(),
                f["read"].as_bool().unwrap(),
            )
        })
        .collect();
    let row = |f: &str, k: &str, r: bool| (f.to_string(), k.to_string(), r);
    assert_eq!(
        files,
        vec![
            row(
                "skills/receipt-scanner/evals/evals.json",
                "evals.json",
                true
            ),
            row(
                "skills/receipt-scanner/trigger_tests.yaml",
                "waza trigger tests",
                true
            ),
            row(
                "skills/receipt-scanner/evals/benchmark.json",
                "not a case format",
                false
            ),
            row(
                "skills/receipt-scanner/evals/run-1.json",
                "trigger results",
                false
            ),
        ]
    );
    assert!(
        doc["files"][3]["note"]
            .as_str()
            .unwrap()
            .contains("skillsift score triggers")
    );
    let p = &doc["positive"][0];
    assert_eq!(p["file"], "skills/receipt-scanner/trigger_tests.yaml");
    assert_eq!(
        (p["line"].as_u64(), p["column"].as_u64()),
        (Some(4), Some(13))
    );
    assert_eq!(p["reason"], "Receipt photo and an expense");
    assert_eq!(doc["negative"].as_array().unwrap().len(), 2);
    assert_eq!(doc["evals"][0]["kind"], "dialogue");
    assert_eq!(doc["problems"], serde_json::json!([]));
}

#[test]
fn cases_of_an_unknown_skill_is_a_usage_error_naming_the_skills() {
    skillsift()
        .args(["cases", "pdf-form"])
        .arg(layout("agentskills"))
        .assert()
        .code(2)
        .stderr(contains("no skill named `pdf-form`"))
        .stderr(contains(
            "invoice-totals, pdf-forms, pdf-merge, receipt-scanner",
        ));
}

#[test]
fn cases_of_a_skill_with_broken_files_lists_the_problems_and_exits_1() {
    let out = skillsift()
        .args(["cases", "bad-rows"])
        .arg(layout("malformed"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "  skills/bad-rows/evals/trigger-queries.json:3:3: error[SG418]: row 2 has no `query`"
        ),
        "{text}"
    );
    assert!(
        text.contains("1 positive, 1 negative, 0 draft, 0 evals"),
        "{text}"
    );
}

#[test]
fn malformed_trigger_sets_are_reported_at_each_row() {
    let (code, doc) = check(&layout("malformed"), &["--no-route"]);
    assert_eq!(code, 1);
    let f = "skills/bad-rows/evals/trigger-queries.json";
    let found: Vec<_> = places(&doc).into_iter().filter(|p| p.1 == f).collect();
    assert_eq!(
        found,
        vec![
            place("SG418", f, 3, 3),
            place("SG418", f, 4, 72),
            place("SG418", f, 5, 77),
            place("SG418", f, 6, 72),
            place("SG415", f, 7, 78),
            place("SG418", f, 8, 3),
            place("SG414", f, 8, 52),
        ]
    );
    let typo = one(&doc, "SG414", f);
    assert_eq!(typo["severity"], "warning");
    assert_eq!(typo["help"], "did you mean `should_trigger`?");
}

#[test]
fn a_trigger_set_that_is_not_json_is_sg401_at_the_character() {
    let (_, doc) = check(&layout("malformed"), &["--no-route"]);
    let d = one(&doc, "SG401", "skills/json-syntax/evals/eval_set.json");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(76))
    );
    assert_eq!(
        d["message"],
        "invalid JSON at line 3 column 76: trailing comma before `}`"
    );
}

#[test]
fn malformed_evals_files_are_reported_with_the_skill_folder_as_the_fixture_base() {
    let (_, doc) = check(&layout("malformed"), &["--no-route"]);
    let f = "skills/bad-evals/evals/evals.json";
    let found: Vec<_> = places(&doc).into_iter().filter(|p| p.1 == f).collect();
    assert_eq!(
        found,
        vec![
            place("SG411", f, 8, 39),
            place("SG412", f, 8, 65),
            place("SG408", f, 11, 5),
            place("SG411", f, 16, 5),
            place("SG419", f, 23, 78),
            place("SG409", f, 25, 13),
            place("SG419", f, 30, 25),
        ]
    );
    let missing = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "SG411" && d["line"] == 8)
        .unwrap();
    assert_eq!(
        missing["message"],
        "fixture `evals/files/missing.md` of eval `1` does not exist under `skills/bad-evals/`"
    );
}

#[test]
fn malformed_waza_files_are_reported_as_waza_would_refuse_them() {
    let (_, doc) = check(&layout("malformed"), &["--no-route"]);
    let f = "skills/bad-waza/evals/trigger_tests.yaml";
    let found: Vec<_> = places(&doc).into_iter().filter(|p| p.1 == f).collect();
    assert_eq!(
        found,
        vec![
            place("SG420", f, 1, 1),
            place("SG420", f, 3, 17),
            place("SG420", f, 4, 5),
            place("SG420", f, 5, 5),
            place("SG414", f, 6, 1),
        ]
    );
    assert_eq!(
        one(&doc, "SG414", f)["help"],
        "did you mean `should_not_trigger_prompts`?"
    );
    let y = one(&doc, "SG417", "skills/yaml-syntax/trigger_tests.yaml");
    assert_eq!(
        (y["line"].as_u64(), y["column"].as_u64()),
        (Some(4), Some(13))
    );
}

#[test]
fn a_file_naming_another_skill_is_sg421() {
    let (_, doc) = check(&layout("malformed"), &["--no-route"]);
    let d = one(&doc, "SG421", "skills/wrong-name/evals/evals.json");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(17))
    );
    assert_eq!(
        d["message"],
        "`skill_name` is `recipe-units` but the file is in the folder of skill `wrong-name`"
    );
}

#[test]
fn the_human_report_points_at_a_waza_prompt() {
    skillsift()
        .args(["check", "--no-route"])
        .arg(layout("malformed"))
        .assert()
        .code(1)
        .stdout(contains(
            "╭─[skills/bad-waza/evals/trigger_tests.yaml:3:17]",
        ))
        .stdout(contains(
            "the confidence of item 1 of `should_trigger_prompts` is `low`, not `high` or",
        ));
}

#[test]
fn behavioral_refuses_a_skill_whose_case_sources_have_errors() {
    skillsift()
        .args(["check", "--behavioral", "bad-evals", "--dry-run"])
        .arg(layout("malformed"))
        .assert()
        .code(2)
        .stderr(contains(
            "skills/bad-evals/evals/evals.json has 6 errors; Tier 3 does not spend tokens",
        ))
        .stderr(contains(
            "skills/bad-evals/evals/evals.json:8: error[SG411]",
        ));
}

#[test]
fn cases_in_two_places_are_merged_with_a_warning_never_a_silent_choice() {
    let (code, doc) = check(&layout("mixed"), &[]);
    assert_eq!(
        code, 1,
        "the eval id repeated across the two places is an error"
    );
    assert_eq!(
        places(&doc),
        vec![
            place("SG422", "evals/cases/alpha.json", 2, 17),
            place("SG409", "skills/alpha/evals/evals.json", 5, 13),
            place("SG416", "skills/alpha/evals/trigger-queries.json", 2, 14),
        ]
    );
    let w = one(&doc, "SG422", "evals/cases/alpha.json");
    assert_eq!(w["severity"], "warning");
    assert!(
        w["message"]
            .as_str()
            .unwrap()
            .contains("both are read: 6 trigger prompts and 2 evals in all"),
        "{w:#}"
    );
    // both places are routed: 2 + 2 positives of alpha, 3 of beta
    assert_eq!(doc["summary"]["route"]["positives"], 7);
}

#[test]
fn a_case_file_alone_is_checked_as_before() {
    // beta keeps its cases only in evals/cases/: no finding of the merged
    // checks, and `cases` lists the case file
    skillsift()
        .args(["cases", "beta"])
        .arg(layout("mixed"))
        .assert()
        .code(0)
        .stdout(contains(
            "  evals/cases/beta.json  case file           3 positive, 2 negative, 1 eval",
        ));
}

#[test]
fn init_writes_a_draft_trigger_set_in_the_layout_the_catalog_uses() {
    let cat = copy("agentskills");
    skill(
        cat.path(),
        "expense-report",
        "Builds monthly expense reports from logged receipts and invoices. Use when the user asks to compile an expense report, or when a month's expenses must be totalled.",
    );
    skillsift()
        .args(["init", "expense-report"])
        .arg(cat.path())
        .assert()
        .code(0)
        .stdout(contains("wrote skills/expense-report/evals/trigger-queries.json (trigger set; 1 other skill keeps a trigger set there)"))
        .stdout(contains("    \"Compile an expense report.\""))
        .stdout(contains("    \"A month's expenses must be totalled.\""))
        .stdout(contains("(owner receipt-scanner)"));
    let written = cat
        .path()
        .join("skills/expense-report/evals/trigger-queries.json");
    let rows: Value = serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    let rows = rows.as_array().unwrap();
    assert!(rows.iter().all(|r| r["draft"] == true), "{rows:#?}");
    assert!(
        rows.iter()
            .filter(|r| r["should_trigger"] == false)
            .all(|r| r["owner"].is_string())
    );
    // drafts are listed, never routed; SG423 says so once per file
    let (_, doc) = check(cat.path(), &[]);
    assert_eq!(doc["summary"]["route"]["positives"], 12);
    let d = one(
        &doc,
        "SG423",
        "skills/expense-report/evals/trigger-queries.json",
    );
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(14))
    );
    skillsift()
        .args(["cases", "expense-report"])
        .arg(cat.path())
        .assert()
        .stdout(contains("drafts, not routed or run until rewritten ("))
        .stdout(contains("[draft negative, owner "));
}

#[test]
fn init_never_overwrites() {
    let cat = copy("agentskills");
    skill(
        cat.path(),
        "expense-report",
        "Builds expense reports. Use when the user asks to compile an expense report.",
    );
    let target = "skills/expense-report/evals/trigger-queries.json";
    write(cat.path(), target, "[]\n");
    skillsift()
        .args(["init", "expense-report"])
        .arg(cat.path())
        .assert()
        .code(2)
        .stderr(contains("exists; init never overwrites"));
    assert_eq!(
        std::fs::read_to_string(cat.path().join(target)).unwrap(),
        "[]\n"
    );
    // a skill that already has trigger prompts gets no starter either
    skillsift()
        .args(["init", "pdf-forms"])
        .arg(cat.path())
        .assert()
        .code(2)
        .stderr(contains("`pdf-forms` already has 6 trigger prompts"));
}

#[test]
fn init_dry_run_prints_the_file_and_writes_nothing() {
    let cat = copy("agentskills");
    skill(
        cat.path(),
        "expense-report",
        "Builds expense reports. Use when the user asks to compile an expense report.",
    );
    let out = skillsift()
        .args(["init", "expense-report", "--dry-run", "--format", "json"])
        .arg(cat.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["written"], false);
    assert_eq!(doc["positive"][0]["prompt"], "Compile an expense report.");
    let content: Value = serde_json::from_str(doc["content"].as_str().unwrap()).unwrap();
    assert_eq!(content[0]["query"], "Compile an expense report.");
    assert!(!cat.path().join("skills/expense-report/evals").exists());
}

#[test]
fn init_writes_a_case_file_when_the_catalog_keeps_case_files() {
    let cat = copy("mixed");
    skill(
        cat.path(),
        "gamma",
        "Polishes gamma gizmos until they shine. Use when the user asks to polish or buff gamma gizmos.",
    );
    skillsift()
        .args(["init", "gamma"])
        .arg(cat.path())
        .assert()
        .code(0)
        .stdout(contains(
            "wrote evals/cases/gamma.json (case file; the catalog keeps its cases in evals/cases/)",
        ));
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(cat.path().join("evals/cases/gamma.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(doc["skill_name"], "gamma");
    assert_eq!(
        doc["trigger"]["positive"][0]["prompt"],
        "Polish or buff gamma gizmos."
    );
    assert_eq!(doc["trigger"]["positive"][0]["draft"], true);
    let (_, check_doc) = check(cat.path(), &["--no-route"]);
    let d = one(&check_doc, "SG423", "evals/cases/gamma.json");
    assert_eq!(d["severity"], "warning");
}

#[test]
fn init_writes_waza_when_the_other_skills_use_only_waza() {
    let cat = tempfile::tempdir().unwrap();
    let root = cat.path();
    skill(
        root,
        "tickets",
        "Summarises support tickets. Use when the user shares a long support ticket.",
    );
    write(
        root,
        "skills/tickets/trigger_tests.yaml",
        "skill: tickets\nshould_trigger_prompts:\n  - prompt: \"summarise this support ticket\"\n",
    );
    skill(
        root,
        "replies",
        "Drafts replies to support tickets. Use when the user wants a reply to a support ticket drafted.",
    );
    skillsift()
        .args(["init", "replies"])
        .arg(root)
        .assert()
        .code(0)
        .stdout(contains("wrote skills/replies/trigger_tests.yaml (waza trigger tests; 1 other skill keeps waza trigger tests there)"))
        .stdout(contains("remove the `draft:` from its reason"));
    skillsift()
        .args(["cases", "replies", "--format", "json"])
        .arg(root)
        .assert()
        .stdout(contains("\"A reply to a support ticket drafted.\""))
        .stdout(contains("\"owner\"").not());
    let (_, doc) = check(root, &["--no-route"]);
    one(&doc, "SG423", "skills/replies/trigger_tests.yaml");
    assert!(
        !places(&doc)
            .iter()
            .any(|p| p.0 == "SG420" || p.0 == "SG414"),
        "the waza file init writes is valid waza: {:#?}",
        doc["diagnostics"]
    );
}

#[test]
fn init_writes_where_the_catalog_keeps_its_trigger_sets_at_the_root() {
    let cat = tempfile::tempdir().unwrap();
    let root = cat.path();
    for (name, what) in [("tickets", "support tickets"), ("invoices", "invoices")] {
        skill(
            root,
            name,
            &format!("Summarises {what}. Use when the user shares long {what}."),
        );
        write(
            root,
            &format!("evals/triggers/{name}.json"),
            &format!("[{{\"query\": \"summarise these {what}\", \"should_trigger\": true}}]"),
        );
    }
    skill(
        root,
        "replies",
        "Drafts replies to support tickets. Use when the user wants a reply to a support ticket drafted.",
    );
    skillsift()
        .args(["init", "replies"])
        .arg(root)
        .assert()
        .code(0)
        .stdout(contains(
            "wrote evals/triggers/replies.json (trigger set; 2 other skills keep a trigger set there)",
        ));
    skillsift()
        .args(["cases", "replies", "--format", "json"])
        .arg(root)
        .assert()
        .stdout(contains("\"A reply to a support ticket drafted.\""));
    assert!(!root.join("skills/replies/evals").exists());
}

#[test]
fn cases_without_any_names_every_place_it_looked_and_each_is_read() {
    let cat = tempfile::tempdir().unwrap();
    let root = cat.path();
    skill(
        root,
        "replies",
        "Drafts replies to support tickets. Use when the user wants a reply drafted.",
    );
    let out = skillsift()
        .args(["cases", "replies", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let looked: Vec<&str> = (doc["looked_in"].as_array().unwrap().iter())
        .filter_map(Value::as_str)
        .collect();
    let places = [
        "evals/cases/replies.json",
        "evals/replies/trigger-eval.json",
        "evals/triggers/replies.json",
        "tests/replies/trigger_tests.yaml",
    ];
    for place in places {
        assert!(looked.contains(&place), "{place}: {looked:?}");
    }
    // and a prompt written at each place is read
    for (i, place) in places.iter().enumerate() {
        let text = match i {
            0 => r#"{"skill_name": "replies", "trigger": {"positive": [{"prompt": "draft a reply to this ticket"}]}}"#.to_string(),
            3 => "skill: replies\nshould_trigger_prompts:\n  - prompt: \"draft a reply to this ticket\"\n".to_string(),
            _ => r#"[{"query": "draft a reply to this ticket", "should_trigger": true}]"#.to_string(),
        };
        let at = tempfile::tempdir().unwrap();
        skill(
            at.path(),
            "replies",
            "Drafts replies to support tickets. Use when the user wants a reply drafted.",
        );
        write(at.path(), place, &text);
        let out = skillsift()
            .args(["cases", "replies", "--format", "json"])
            .arg(at.path())
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            doc["positive"].as_array().map(Vec::len),
            Some(1),
            "{place}: {doc:#}"
        );
    }
}

#[test]
fn score_triggers_reads_run_eval_output_as_it_is() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/score/run-eval/pdf-forms-results.json");
    skillsift()
        .args(["score", "triggers"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(contains("client default: FAIL"))
        .stdout(contains("  rows         20 train, 0 validation, 0 fresh"))
        .stdout(contains("  should       9/10 pass (train + validation)"))
        .stdout(contains("  should not   8/10 pass (train + validation)"));
    let out = skillsift()
        .args(["score", "triggers", "--format", "json"])
        .arg(&file)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let failures = doc["clients"][0]["failures"].as_array().unwrap();
    // run_eval.py passes a should-trigger row at 1 of 2 runs (rate 0.5);
    // skillsift's majority rule does not: a tie passes neither side
    let tie = failures
        .iter()
        .find(|f| f["query"] == "merge the signed form into one PDF")
        .unwrap();
    assert_eq!(
        (tie["triggers"].as_u64(), tie["runs"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(failures.len(), 3, "{failures:#?}");
}

#[test]
fn score_triggers_refuses_a_trigger_set_without_results_at_the_row() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("trigger-queries.json");
    std::fs::write(
        &f,
        "[\n  {\"query\": \"fill in this form\", \"should_trigger\": true}\n]\n",
    )
    .unwrap();
    skillsift()
        .args(["score", "triggers"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(contains(
            "trigger-queries.json:2:3: row 1: no `runs`: this is a trigger set without results",
        ));
}

#[test]
fn configured_trigger_sets_are_read_and_ignored_files_are_not() {
    let cat = copy("agentskills");
    let root = cat.path();
    // a trigger set outside evals/, named by skillsift.toml
    write(
        root,
        "skills/invoice-totals/tests/queries.json",
        "[\n  { \"query\": \"why is the invoice VAT rounded up\", \"should_trigger\": true }\n]\n",
    );
    // broken JSON directly in evals/ is a finding unless ignored
    write(root, "skills/invoice-totals/evals/notes.json", "{ broken");
    // deeper, it is listed but no finding (a fixture project's file)
    write(
        root,
        "skills/invoice-totals/evals/project/tsconfig.json",
        "{ // comment\n}",
    );
    let (_, doc) = check(root, &["--no-route"]);
    let d = one(&doc, "SG401", "skills/invoice-totals/evals/notes.json");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(places(&doc).len(), 1, "{:#?}", doc["diagnostics"]);

    write(
        root,
        "skillsift.toml",
        "[cases]\ntrigger-sets = [\"tests/*.json\"]\nignore = [\"evals/notes.json\"]\n",
    );
    let (code, doc) = check(root, &[]);
    assert_eq!(code, 0, "{:#?}", doc["diagnostics"]);
    assert_eq!(doc["summary"]["route"]["positives"], 13);
    let out = skillsift()
        .args(["cases", "invoice-totals", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "skills/invoice-totals/evals/evals.json",
            "skills/invoice-totals/evals/trigger_eval_set.json",
            "skills/invoice-totals/tests/queries.json",
            "skills/invoice-totals/evals/project/tsconfig.json",
        ]
    );
    assert_eq!(doc["files"][3]["note"], "not valid JSON");
}

#[test]
fn a_bad_glob_in_cases_config_is_a_usage_error() {
    let cat = copy("agentskills");
    write(
        cat.path(),
        "skillsift.toml",
        "[cases]\ntrigger-sets = [\"tests/[.json\"]\n",
    );
    skillsift()
        .arg("check")
        .arg(cat.path())
        .assert()
        .code(2)
        .stderr(contains(
            "[cases] trigger-sets: invalid glob `tests/[.json`",
        ));
}

#[cfg(unix)]
#[test]
fn an_evals_folder_linked_inside_the_catalog_is_read_and_its_fixtures_refused() {
    let cat = copy("agentskills");
    let root = cat.path();
    std::fs::create_dir_all(root.join("shared")).unwrap();
    std::fs::rename(
        root.join("skills/pdf-merge/evals"),
        root.join("shared/pdf-merge-evals"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        "../../shared/pdf-merge-evals",
        root.join("skills/pdf-merge/evals"),
    )
    .unwrap();
    let (_, doc) = check(root, &[]);
    assert_eq!(doc["summary"]["route"]["positives"], 12);
    // its prompts are read; its fixtures now resolve outside the skill
    // folder they are relative to, and are refused
    let f = "skills/pdf-merge/evals/evals.json";
    assert_eq!(
        places(&doc),
        vec![place("SG412", f, 8, 17), place("SG412", f, 8, 43)]
    );
}
