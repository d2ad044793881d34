//! `skillsift rank "<prompt>" [ROOT]` through the binary.

mod route_common;

use route_common::{Cat, bin};
use serde_json::Value;

fn catalog() -> Cat {
    Cat::new()
        .simple("alpha", "Renders architecture diagrams.")
        .simple("beta", "Renders architecture diagrams.")
        .simple("gamma", "Parses server logs and renders log charts.")
        .simple("delta", "Books tables at restaurants.")
}

fn rank(cat: &Cat, args: &[&str]) -> (i32, String) {
    let out = bin()
        .arg("rank")
        .args(args)
        .arg(cat.root())
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn rank_lists_skills_by_score_then_name_and_marks_ties() {
    let (code, out) = rank(&catalog(), &["Render the architecture diagram"]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("prompt terms: render"), "{out}");
    assert!(lines[1].contains("= alpha"), "{out}");
    assert!(lines[2].contains("= beta"), "{out}");
    assert!(lines[3].contains("  gamma"), "{out}");
    assert!(
        out.contains("3 of 4 skills share a term with the prompt"),
        "{out}"
    );
    assert!(!out.contains("delta"));
}

#[test]
fn explain_shows_contributions_that_add_up_to_the_score() {
    let (code, out) = rank(
        &catalog(),
        &[
            "Render charts of the server logs",
            "--explain",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let first = &v["results"][0];
    assert_eq!(first["name"], "gamma");
    let contributions = first["contributions"].as_array().unwrap();
    assert!(!contributions.is_empty());
    let sum: f64 = contributions
        .iter()
        .map(|c| {
            let (p, s) = (
                c["prompt_weight"].as_f64().unwrap(),
                c["skill_weight"].as_f64().unwrap(),
            );
            assert!((p * s - c["contribution"].as_f64().unwrap()).abs() < 1e-12);
            c["contribution"].as_f64().unwrap()
        })
        .sum();
    assert!(
        (sum - first["score"].as_f64().unwrap()).abs() < 1e-9,
        "{v:#}"
    );
    assert_eq!(v["skills_routed"], 4);
    assert_eq!(v["prompt"], "Render charts of the server logs");

    let (_, human) = rank(
        &catalog(),
        &["Render charts of the server logs", "--explain"],
    );
    assert!(human.contains(" × "), "{human}");
}

#[test]
fn json_without_explain_has_no_contributions_and_limit_cuts_the_list() {
    let (_, out) = rank(&catalog(), &["render", "--format", "json", "--limit", "1"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    // one result, and any skill tied with it (a cut never splits a tie)
    let results = v["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in &results[1..] {
        assert_eq!(r["score"], results[0]["score"], "{v:#}");
    }
    assert!(v["results"][0].get("contributions").is_none());
    assert_eq!(v["truncated"], results.len() < 3);
    assert_eq!(v["matched"], 3);
}

#[test]
fn a_prompt_of_stop_words_has_no_terms_and_matches_nothing() {
    let (code, out) = rank(&catalog(), &["please help me with this for you"]);
    assert_eq!(code, 0);
    assert!(out.contains("prompt terms: none"), "{out}");
    assert!(out.contains("0 of 4 skills share a term"), "{out}");
}

#[test]
fn unroutable_skills_are_named() {
    let cat = catalog().skill("broken", "name: broken");
    // the specification does not route it (Claude Code lists it with its
    // body's first line)
    let (_, out) = rank(&cat, &["render", "--client", "spec"]);
    assert!(
        out.contains(
            "not routed (1 skill without a readable name or description): skills/broken/SKILL.md"
        ),
        "{out}"
    );
}

#[test]
fn bad_root_or_format_is_a_usage_error() {
    let out = bin()
        .args(["rank", "x", "/no/such/catalog"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let (code, out) = rank(&catalog(), &["x", "--format", "github"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[possible values: human, json]"), "{out}");
}

#[test]
fn cjk_prompt_ranks_by_character_bigrams() {
    let cat = Cat::new()
        .simple("doc-translate", "将技术文档翻译成中文。")
        .simple("pdf-forms", "Fills in PDF forms.");
    let (_, out) = rank(&cat, &["把文档翻译成中文", "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["results"][0]["name"], "doc-translate");
    let terms: Vec<&str> = v["terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["term"].as_str().unwrap())
        .collect();
    assert_eq!(
        terms,
        ["把文", "文档", "档翻", "翻译", "译成", "成中", "中文"]
    );
}

/// With `[route] language` set, the language's own stop words are not
/// scored: in Italian, "la" and "di" no longer outweigh the words that say
/// what the prompt is about.
#[test]
fn the_catalogs_language_drops_its_own_stop_words() {
    let cat = Cat::new()
        .simple(
            "qualita",
            "Analisi della qualità dei dati aperti di un dataset. Usa quando chiedi di controllare la qualità di un file CSV.",
        )
        .simple(
            "mappe",
            "Crea mappe di dati geografici del territorio. Usa quando chiedi una mappa dei comuni.",
        )
        .config("[route]\nlanguage = \"italian\"\n");
    let config = cat.config_path();
    let (_, out) = rank(
        &cat,
        &[
            "controlla la qualità di questo CSV",
            "--format",
            "json",
            "--config",
            config.to_str().unwrap(),
        ],
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    let terms: Vec<&str> = v["terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["term"].as_str().unwrap())
        .collect();
    assert_eq!(terms, ["controll", "qual", "csv"], "{out}");
    assert_eq!(v["results"][0]["name"], "qualita");
}
