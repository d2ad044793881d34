//! Tier 2's scoring through the binary: each word counts once, inflections
//! meet their base word, two-letter words route, BM25 adds up in
//! `rank --explain`, and a tie for first is called one.

mod route_common;

use route_common::{Cat, bin, only};
use serde_json::Value;

fn rank_json(cat: &Cat, prompt: &str) -> Value {
    let out = bin()
        .args(["rank", prompt, "--explain", "--format", "json"])
        .arg(cat.root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The skill weight of the contribution of `term` to the first result.
fn weight_of(v: &Value, term: &str) -> f64 {
    v["results"][0]["contributions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["term"] == term)
        .unwrap_or_else(|| panic!("no {term} in {v:#}"))["skill_weight"]
        .as_f64()
        .unwrap()
}

#[test]
fn a_word_the_stemmer_changes_weighs_the_same_as_one_it_leaves_alone() {
    // `versioning` is stemmed, `design` is not; both appear once in one
    // skill, so each is one term with the same weight
    let cat = Cat::new()
        .simple("api-style", "Versioning and design of public APIs.")
        .simple("log-tools", "Parses server logs.");
    let v = rank_json(&cat, "versioning design");
    assert_eq!(v["results"][0]["name"], "api-style");
    let (a, b) = (weight_of(&v, "version"), weight_of(&v, "design"));
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    assert_eq!(
        v["results"][0]["contributions"].as_array().unwrap().len(),
        2,
        "one term per word: {v:#}"
    );
}

#[test]
fn adding_in_a_description_matches_add_in_a_prompt() {
    let cat = Cat::new()
        .simple("license-headers", "Adding license headers to source files.")
        .simple("changelog", "Writes the changelog of a release.");
    let v = rank_json(&cat, "add a license");
    assert_eq!(v["results"][0]["name"], "license-headers");
    let c = &v["results"][0]["contributions"];
    let add = c
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["term"] == "add")
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(add["words"], serde_json::json!(["add"]));
}

#[test]
fn two_letter_words_route() {
    let cat = Cat::new()
        .simple("pr-review", "Reviews a PR before it is merged.")
        .simple("ci-fix", "Fixes a failing CI pipeline.")
        .simple("code-style", "Formats source code before commits.");
    for (prompt, skill) in [
        ("look at this PR", "pr-review"),
        ("the CI is red", "ci-fix"),
    ] {
        let v = rank_json(&cat, prompt);
        assert_eq!(v["results"][0]["name"], skill, "{prompt}: {v:#}");
        assert_eq!(v["results"].as_array().unwrap().len(), 1, "{v:#}");
    }
    // function words of two letters are still stop words
    let v = rank_json(&cat, "is it on");
    assert_eq!(v["results"].as_array().unwrap().len(), 0, "{v:#}");
}

#[test]
fn explain_adds_up_to_the_bm25_score() {
    let cat = Cat::new()
        .simple(
            "charts",
            "Renders charts and charts of server logs, charts.",
        )
        .simple("logs", "Parses server logs.")
        .simple("tables", "Formats tables.");
    let v = rank_json(&cat, "render charts of the server logs logs");
    for r in v["results"].as_array().unwrap() {
        let sum: f64 = r["contributions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let p = c["prompt_weight"].as_f64().unwrap();
                assert_eq!(p, 1.0, "each prompt term counts once: {c}");
                p * c["skill_weight"].as_f64().unwrap()
            })
            .sum();
        assert!((sum - r["score"].as_f64().unwrap()).abs() < 1e-9, "{v:#}");
    }
    // the term repeated in the prompt counts once
    let terms = v["terms"].as_array().unwrap();
    assert_eq!(terms.iter().filter(|t| t["term"] == "log").count(), 1);
}

#[test]
fn repeating_a_word_saturates() {
    // BM25: a description that says `deploy` three times does not triple
    // its lead over one that says it once
    let cat = Cat::new()
        .simple("a-deploy", "Deploy, deploy, deploy the service.")
        .simple("b-deploy", "Deploy the service.")
        .simple("other", "Parses logs.");
    let v = rank_json(&cat, "deploy");
    let s: Vec<f64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .collect();
    assert_eq!(s.len(), 2);
    assert!(s[0] > s[1] && s[0] < 2.0 * s[1], "{s:?}");
}

#[test]
fn a_tie_for_first_says_so_and_is_not_a_rank1_hit() {
    let cat = Cat::new()
        .simple("alpha", "Renders architecture diagrams.")
        .simple("beta", "Renders architecture diagrams.")
        .simple("gamma", "Parses server logs.")
        .raw_case(
            "alpha",
            r#"{"skill_name": "alpha", "trigger": {"positive": [{"prompt": "render the architecture diagram", "top_k": 1}], "negative": []}}"#,
        );
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1, "{v:#}");
    let d = only(&v, "SG501");
    assert_eq!(
        d["message"],
        "`alpha`: positive prompt tied for #1 with 1 other (need top 1)"
    );
    let route = &v["summary"]["route"];
    assert_eq!(route["rank1"], 0);
    assert_eq!(route["tied_first"], 1);
    assert_eq!(route["top3"], 1);
}
