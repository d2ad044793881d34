//! Snapshots of what a user sees: the human report (NO_COLOR, not a
//! terminal) for a few rules, one skill folder each.

mod common;

use common::{check_human, fixture};

fn human(case: &str, skill: &str) -> String {
    let (out, code) = check_human(&fixture(case).join("skills").join(skill), &[]);
    format!("exit code: {code}\n{out}")
}

#[test]
fn description_that_is_a_comment() {
    insta::assert_snapshot!(human("description-required", "comment"));
}

#[test]
fn unquoted_colons() {
    insta::assert_snapshot!(human("unquoted-colon", "colons"));
}

#[test]
fn misspelt_key() {
    insta::assert_snapshot!(human("unknown-key", "typo"));
}

#[test]
fn name_with_an_underscore() {
    insta::assert_snapshot!(human("name-format", "snake_case"));
}

#[test]
fn workflow_missing_a_step() {
    insta::assert_snapshot!(human("workflow-steps", "outlined"));
}

#[test]
fn tab_in_indentation() {
    insta::assert_snapshot!(human("tab-indentation", "tabs"));
}
