//! Findings a user can trust on the catalogs people already have (issue
//! 47): each item of the issue through the binary, on catalogs written
//! here in the shapes the public catalogs use.

mod common;

use common::{check_json, skill, write};

/// A skill whose description is a folded block (`>-`), as the catalogs
/// that write `WHEN: …` lists do.
fn folded(root: &std::path::Path, name: &str, description: &str) {
    write(
        root,
        &format!("skills/{name}/SKILL.md"),
        &format!("---\nname: {name}\ndescription: >-\n  {description}\n---\n\n# {name}\n"),
    );
}

#[test]
fn use_this_skill_to_and_a_when_list_are_routing_clauses() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    skill(
        root,
        "release-notes",
        "Drafts release notes from merged pull requests. Use this skill to generate release notes.",
    );
    folded(
        root,
        "content-review",
        "Reviews documents for AI readiness. WHEN: \"review content for AI readiness\", \"AI content audit\". DO NOT USE FOR: code review.",
    );
    folded(
        root,
        "negated-only",
        "Reviews documents. DO NOT USE FOR: code review.",
    );
    let r = check_json(root, &[]);
    assert!(
        r.in_file("SG201", "release-notes").is_empty(),
        "{:#?}",
        r.findings
    );
    assert!(
        r.in_file("SG201", "content-review").is_empty(),
        "{:#?}",
        r.findings
    );
    let negated = r.one("SG201", "negated-only");
    assert!(negated.message.contains("negated"), "{negated:#?}");
}
