//! The conformance test of opencode's listing: skillsift's prediction
//! equals, skill by skill and byte for byte, the `<available_skills>` that
//! `opencode run` sends to a loopback Chat Completions API (`skillsift listing --client
//! opencode --verify`): the tricky skills of
//! `tests/fixtures/client/agents/` and the 1,000 files of the wild sample.
//! Several skills with one name are not compared (opencode lists one,
//! the last of its threads to read one). Skips with a message
//! when `opencode` is absent, the wild test when the corpus is absent.

mod real_client;

use std::path::Path;

#[test]
#[cfg_attr(
    skillsift_missing_opencode,
    ignore = "needs `opencode` on PATH or at SKILLSIFT_OPENCODE; bash .ci/run installs the pinned version"
)]
fn the_tricky_skills_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(opencode) = real_client::cli("opencode") else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/agents");
    let doc = real_client::verify("opencode", &root, &opencode, &[]);
    assert_eq!(doc["verify"]["ambiguous"], serde_json::json!(["twin"]));
    let e = |n: &str| real_client::entry(&doc, n);
    assert_eq!(
        e("number")["reason"]["kind"],
        "not-a-string",
        "a number drops the skill"
    );
    assert_eq!(
        e("colon")["text"],
        "Deploys the app. DO NOT USE FOR: local builds",
        "the retry makes it a block scalar"
    );
    assert_eq!(e("no-name")["reason"]["kind"], "no-name");
    assert_eq!(e("bom")["listed"], true, "gray-matter drops the BOM");
    assert_eq!(e("deep7")["listed"], true, "any depth");
    assert_eq!(e("dotted")["listed"], true, "dot folders too");
}

#[test]
#[cfg_attr(
    skillsift_missing_opencode,
    ignore = "needs `opencode` on PATH or at SKILLSIFT_OPENCODE; bash .ci/run installs the pinned version"
)]
fn a_thousand_real_skills_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(opencode) = real_client::cli("opencode") else {
        return;
    };
    let Some((_tmp, parts)) = real_client::wild_catalogs(1000) else {
        return;
    };
    let doc = real_client::verify("opencode", &parts[0], &opencode, &[]);
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
    skillsift_missing_opencode,
    ignore = "needs `opencode` on PATH or at SKILLSIFT_OPENCODE; bash .ci/run installs the pinned version"
)]
fn a_skill_nested_in_another_is_listed_exactly_as_the_real_cli_lists_it() {
    let Some(cli) = real_client::cli("opencode") else {
        return;
    };
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code-plugins");
    let doc = real_client::verify("opencode", &root, &cli, &[]);
    assert_eq!(doc["verify"]["skills"], 10);
    let inner = real_client::entry(&doc, "inner");
    assert_eq!(
        inner["listed"], true,
        "it finds a SKILL.md nested in another skill"
    );
}
