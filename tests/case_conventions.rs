//! `"lexical": false` and `"with": [...]` on trigger prompts, through the
//! binary: Tier 1 (shape, unknown keys), Tier 2 (reported as expected, not
//! as failures) and Tier 3's plan.

mod route_common;

use route_common::{Cat, bin, with_rule};
use serde_json::Value;

fn catalog(release_cases: &str) -> Cat {
    Cat::new()
        .simple("tdd", "Write a failing test before fixing a bug.")
        .simple("release", "Cut a release: tag the version and publish it.")
        .simple(
            "changelog",
            "Write the changelog of a release from merged commits.",
        )
        .raw_case("release", release_cases)
}

const CASES: &str = r#"{"skill_name": "release", "trigger": {
 "positive": [
  {"prompt": "tag and publish version 2.0"},
  {"prompt": "write the changelog for the release and tag it", "with": ["changelog"], "top_k": 1},
  {"prompt": "mach ein neues Release", "lexical": false}
 ],
 "negative": [
  {"prompt": "write the changelog of the release", "owner": "changelog", "with": ["release"]},
  {"prompt": "write a failing test first", "owner": "tdd"}
 ]},
 "evals": [{"id": 1, "kind": "dialogue", "prompt": "cut a release", "expected_output": "a tag",
            "expectations": ["It tags the version"]}]}"#;

#[test]
fn lexical_false_is_reported_as_expected_and_not_ranked() {
    let (code, v) = catalog(CASES).check_json(&[]);
    assert_eq!(code, 0, "{v:#}");
    let route = &v["summary"]["route"];
    assert_eq!(route["not_lexical"], 1, "{route}");
    assert_eq!(route["positives"], 2, "{route}");
    assert_eq!(route["rank1"], 2, "{route}");
    assert!(with_rule(&v, "SG414").is_empty(), "{v:#}");
    assert!(with_rule(&v, "SG502").is_empty(), "{v:#}");
    let (_, out, _) = catalog(CASES).check_human(&[]);
    assert!(
        out.contains(
            "1 trigger prompt marked `\"lexical\": false` not ranked (expected: left to Tier 3)"
        ),
        "{out}"
    );
}

#[test]
fn with_skills_do_not_count_against_the_prompts_skill() {
    // without `with`, `changelog` ranks first for both prompts: the positive
    // misses its top_k of 1 and the negative's owner check is the only one
    let plain = CASES.replace(r#", "with": ["changelog"]"#, "");
    let (code, v) = catalog(&plain).check_json(&[]);
    assert_eq!(code, 1, "{v:#}");
    let missed = with_rule(&v, "SG501");
    assert_eq!(missed.len(), 1, "{v:#}");
    assert!(
        missed[0]["message"]
            .as_str()
            .unwrap()
            .contains("positive prompt ranked #2"),
        "{v:#}"
    );
    // with it, the prompt's skill is first among the others
    let (code, v) = catalog(CASES).check_json(&[]);
    assert_eq!(code, 0, "{v:#}");
    assert!(with_rule(&v, "SG501").is_empty(), "{v:#}");
    assert!(with_rule(&v, "SG503").is_empty(), "{v:#}");
}

#[test]
fn a_negative_may_rank_its_with_skill_first() {
    // `release` is first for the changelog prompt, which says it loads
    // `release` too: no SG503
    let negative_only = r#"{"skill_name": "release", "trigger": {"positive": [
      {"prompt": "tag and publish version 2.0"}],
     "negative": [{"prompt": "tag the release and publish it with its changelog", "with": ["release"]}]},
     "evals": []}"#;
    let (_, v) = catalog(negative_only).check_json(&[]);
    assert!(with_rule(&v, "SG503").is_empty(), "{v:#}");
    let (_, v) = catalog(&negative_only.replace(r#", "with": ["release"]"#, "")).check_json(&[]);
    assert_eq!(with_rule(&v, "SG503").len(), 1, "{v:#}");
}

#[test]
fn malformed_conventions_are_shape_errors_at_their_value() {
    let bad = r#"{"skill_name": "release", "trigger": {"positive": [
      {"prompt": "tag and publish version 2.0", "lexical": "no"},
      {"prompt": "publish it", "with": "changelog"}],
     "negative": []}, "evals": []}"#;
    let cat = catalog(bad);
    // every rule on (the helper's configuration turns Tier 1 off)
    let out = bin()
        .arg("check")
        .arg(cat.root())
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(with_rule(&v, "SG414").is_empty(), "{v:#}");
    let shape = with_rule(&v, "SG403");
    let msgs: Vec<&str> = shape
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(
        msgs.contains(&"`lexical` of positive case 1 is a string, not true or false"),
        "{v:#}"
    );
    assert!(
        msgs.contains(&"`with` of positive case 2 is a string, not an array"),
        "{v:#}"
    );
    let lexical = shape
        .iter()
        .find(|d| d["message"].as_str().unwrap().starts_with("`lexical`"))
        .unwrap();
    cat.assert_line(lexical, "evals/cases/release.json", "\"lexical\": \"no\"");
}

#[test]
fn the_cases_schema_documents_both() {
    let out = bin().args(["schema", "cases"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = v.to_string();
    assert!(
        text.contains("\"lexical\"") && text.contains("\"with\""),
        "{text}"
    );
}

#[test]
fn tier3_keeps_lexical_false_and_drops_a_negative_that_may_load_the_skill() {
    let cat = catalog(CASES);
    let out = bin()
        .args(["check", "--behavioral", "release"])
        .arg(cat.root())
        .args(["--dry-run", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<(String, bool)> = v["plan"]["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("{v:#}"))
        .iter()
        .filter(|c| !c["id"].as_str().unwrap().starts_with("eval"))
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_string(),
                c["expect_trigger"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ids,
        [
            ("positive-1".to_string(), true),
            ("positive-2".to_string(), true),
            ("positive-3".to_string(), true),
            ("negative-2".to_string(), false),
        ]
    );
}
