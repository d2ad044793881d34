//! The conformance test of Gemini CLI's listing: skillsift's prediction
//! equals, skill by skill and byte for byte, the `<available_skills>` that
//! `gemini -p` sends to a loopback Gemini API (`skillsift listing --client
//! gemini-cli --verify`): the tricky skills of
//! `tests/fixtures/client/agents/` and the 1,000 files of the wild sample.
//! Several skills with one name are not compared (Gemini CLI lists one,
//! chosen by the order the file system returns them). Skips with a message
//! when `gemini` is absent, the wild test when the corpus is absent.

mod real_client;

use std::path::Path;

#[test]
#[cfg_attr(
    skillsift_missing_gemini,
    ignore = "needs `gemini` (Gemini CLI) on PATH or at SKILLSIFT_GEMINI; bash .ci/run installs the pinned version"
)]
fn the_tricky_skills_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(gemini) = real_client::cli("gemini") else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/agents");
    let doc = real_client::verify("gemini-cli", &root, &gemini, &[]);
    assert_eq!(doc["verify"]["ambiguous"], serde_json::json!(["twin"]));
    let e = |n: &str| real_client::entry(&doc, n);
    assert_eq!(
        e("number")["text"],
        "1.10",
        "a number falls back to the line as written"
    );
    assert_eq!(
        e("block")["text"],
        "Folded text over lines. Use when folded.",
        "YAML loads, so the block scalar is folded"
    );
    assert_eq!(
        e("comment")["text"],
        "text",
        "YAML loads, so the comment is dropped"
    );
    assert_eq!(e("nested")["reason"]["kind"], "too-deep");
    assert_eq!(e("bom")["reason"]["kind"], "no-frontmatter");
}

#[test]
#[cfg_attr(
    skillsift_missing_gemini,
    ignore = "needs `gemini` (Gemini CLI) on PATH or at SKILLSIFT_GEMINI; bash .ci/run installs the pinned version"
)]
fn a_thousand_real_skills_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(gemini) = real_client::cli("gemini") else {
        return;
    };
    let Some((_tmp, parts)) = real_client::wild_catalogs(1000) else {
        return;
    };
    let doc = real_client::verify("gemini-cli", &parts[0], &gemini, &[]);
    let ambiguous = doc["verify"]["ambiguous"].as_array().unwrap().len();
    assert!(
        doc["verify"]["skills"].as_u64().unwrap() > 850,
        "{ambiguous} names shared"
    );
}

/// A SKILL.md nested inside another skill's folder (the project's and a
/// plugin's, installed as the catalog's skills): what Claude Code never
/// lists, as this CLI lists it.
#[test]
#[cfg_attr(
    skillsift_missing_gemini,
    ignore = "needs `gemini` (Gemini CLI) on PATH or at SKILLSIFT_GEMINI; bash .ci/run installs the pinned version"
)]
fn a_skill_nested_in_another_is_listed_exactly_as_the_real_cli_lists_it() {
    let Some(cli) = real_client::cli("gemini") else {
        return;
    };
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code-plugins");
    let doc = real_client::verify("gemini-cli", &root, &cli, &[]);
    assert_eq!(doc["verify"]["skills"], 10);
    let inner = real_client::entry(&doc, "inner");
    assert_eq!(inner["listed"], false, "it never looks below a skill");
    assert_eq!(inner["reason"]["kind"], "too-deep");
}
