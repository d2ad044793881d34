//! Catalog convention rules (SG2xx), driven through the binary on the
//! fixture catalogs under tests/fixtures/lint/.

mod common;

use common::{check_case, check_json, fixture};

#[test]
fn description_without_use_when_is_a_warning() {
    let r = check_case("missing-trigger");
    assert_eq!(r.code, 0, "warnings alone do not fail the check");
    let f = r.one("SG201", "no-clause/");
    assert_eq!((f.line, f.severity.as_str()), (Some(3), "warning"));
}

#[test]
fn negated_use_when_clauses_do_not_count() {
    let r = check_case("missing-trigger");
    assert!(
        r.one("SG201", "skills/negated/")
            .message
            .contains("negated")
    );
    assert!(r.one("SG201", "curly-negated/").message.contains("negated"));
}

#[test]
fn use_this_skill_when_and_use_before_count() {
    let r = check_case("missing-trigger");
    for skill in [
        "use-this-skill-when/",
        "use-before/",
        "negated-then-positive/",
    ] {
        assert!(r.in_file("SG201", skill).is_empty(), "{skill}");
    }
    assert_eq!(r.of("SG201").len(), 3);
}

#[test]
fn missing_required_section_is_an_error_at_the_title() {
    let r = check_case("missing-section");
    assert_eq!(r.code, 1);
    let f = r.one("SG202", "no-overview/");
    assert_eq!(f.line, Some(5));
    assert!(f.message.contains("`## Overview`"), "{}", f.message);
}

#[test]
fn headings_inside_backtick_and_tilde_fences_do_not_count() {
    let r = check_case("missing-section");
    let f = r.one("SG202", "fenced-only/");
    assert!(
        f.message
            .contains("`## Verification` (or one of `## Checklist`)"),
        "{}",
        f.message
    );
}

#[test]
fn any_listed_equivalent_heading_satisfies_a_section() {
    let r = check_case("missing-section");
    assert!(r.rules_in("complete/").is_empty(), "{:#?}", r.findings);
}

#[test]
fn exempt_skill_may_omit_its_exempted_section() {
    let r = check_case("missing-section");
    assert!(r.rules_in("exempt-skill/").is_empty(), "{:#?}", r.findings);
    assert_eq!(r.of("SG202").len(), 2, "{:#?}", r.findings);
}

#[test]
fn skill_claiming_its_own_exemption_is_an_error() {
    let r = check_case("self-exemption");
    assert_eq!(r.code, 1);
    let f = r.one("SG203", "top-level/");
    assert_eq!((f.line, f.column), (Some(4), Some(1)));
    assert!(r.in_file("SG109", "top-level/").is_empty(), "reported once");
    let f = r.one("SG203", "in-metadata/");
    assert_eq!((f.line, f.column), (Some(5), Some(3)));
    assert!(f.message.contains("metadata.skip-sections"));
    r.one("SG203", "meta-type/");
}

#[test]
fn exemption_for_a_missing_skill_or_section_is_a_warning() {
    let r = check_case("stale-exemption");
    assert_eq!(r.code, 0);
    let stale = r.of("SG204");
    assert_eq!(stale.len(), 2, "{stale:#?}");
    assert!(
        stale
            .iter()
            .all(|f| f.file == "skillsift.toml" && f.severity == "warning")
    );
    assert!(stale.iter().any(|f| f.message.contains("`renamed-skill`")));
    assert!(stale.iter().any(|f| f.message.contains("`Verification`")));
}

#[test]
fn body_over_the_line_budget_is_a_warning_at_the_first_extra_line() {
    let r = check_case("line-budget");
    assert_eq!(r.code, 0);
    let f = r.one("SG205", "long/");
    assert_eq!(f.line, Some(10));
    assert!(
        f.message.contains("7 lines, over the 5-line budget"),
        "{}",
        f.message
    );
    assert!(r.in_file("SG205", "short/").is_empty());
}

#[test]
fn dead_skill_references_are_reported_once_each() {
    let r = check_case("dead-reference");
    assert_eq!(r.code, 0);
    let dead = r.of("SG206");
    assert_eq!(dead.len(), 2, "{dead:#?}");
    let f = r
        .of("SG206")
        .into_iter()
        .find(|f| f.message.contains("`missing-skill`"))
        .unwrap();
    assert_eq!((f.line, f.column), (Some(8), Some(18)));
    assert!(f.message.contains("mentioned 2 times"), "{}", f.message);
    let f = r
        .of("SG206")
        .into_iter()
        .find(|f| f.message.contains("../gone/SKILL.md"))
        .unwrap();
    assert_eq!((f.line, f.column), (Some(9), Some(21)));
}

#[test]
fn a_single_skill_is_checked_against_its_catalog_or_alone() {
    // inside its catalog: its references are checked against the siblings
    let r = check_json(&fixture("dead-reference").join("skills/refers"), &[]);
    assert!(!r.of("SG206").is_empty(), "{:#?}", r.findings);
    // out of any catalog there are no siblings to check them against
    let t = tempfile::tempdir().unwrap();
    let src = fixture("dead-reference").join("skills/refers/SKILL.md");
    std::fs::create_dir_all(t.path().join("refers")).unwrap();
    std::fs::copy(&src, t.path().join("refers/SKILL.md")).unwrap();
    let r = check_json(&t.path().join("refers"), &[]);
    assert!(r.of("SG206").is_empty(), "{:#?}", r.findings);
}

#[test]
fn supporting_markdown_not_in_kebab_case_is_a_warning() {
    let r = check_case("supporting-file-name");
    assert_eq!(r.code, 0);
    let f = r.one("SG207", "API_Reference.md");
    assert_eq!(f.file, "skills/forms/API_Reference.md");
    assert_eq!(f.line, None);
    let f = r.one("SG207", "Form Fields.md");
    assert!(
        f.help
            .as_deref()
            .unwrap()
            .contains("references/form-fields.md")
    );
    assert_eq!(
        r.of("SG207").len(),
        2,
        "README.md and field-types.md are fine"
    );
}

#[test]
fn empty_subfolder_of_a_skill_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/forms");
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    std::fs::create_dir_all(skill.join("references/deep")).unwrap();
    std::fs::write(skill.join("references/guide.md"), "# Guide\n").unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: forms\ndescription: Fills forms. Use when asked to fill a form.\n---\n# Forms\n",
    )
    .unwrap();
    let r = check_json(dir.path(), &[]);
    assert_eq!(r.code, 0);
    let files: Vec<_> = r.of("SG208").iter().map(|f| f.file.clone()).collect();
    assert_eq!(
        files,
        vec!["skills/forms/references/deep", "skills/forms/scripts"]
    );
}

#[test]
fn outlined_workflow_step_without_its_section_is_an_error() {
    let r = check_case("workflow-steps");
    assert_eq!(r.code, 1);
    let f = r.one("SG209", "outlined/");
    assert_eq!(f.line, Some(12));
    assert!(
        f.message
            .contains("declares a 3-step workflow but documents only `Step 1`–`2`"),
        "{}",
        f.message
    );
}

#[test]
fn step_count_in_a_heading_is_a_declaration_too() {
    let r = check_case("workflow-steps");
    let found = r.in_file("SG209", "headed/");
    let lines: Vec<_> = found.iter().map(|f| f.line).collect();
    assert_eq!(lines, vec![Some(7), Some(13)], "{found:#?}");
    assert!(found[0].message.contains("has no `Step 3`"));
    assert!(found[1].message.contains("`Step 4` is documented"));
}

#[test]
fn consistent_or_unrelated_numbered_lists_pass() {
    let r = check_case("workflow-steps");
    assert!(r.rules_in("checklist/").is_empty(), "{:#?}", r.findings);
    assert!(
        r.rules_in("unrelated-list/").is_empty(),
        "{:#?}",
        r.findings
    );
}

#[test]
fn output_is_identical_between_runs_and_thread_counts() {
    let root = fixture("missing-section");
    let run = |threads: &str| {
        common::skillsift()
            .arg("check")
            .arg(&root)
            .args(["--no-route", "--format", "json", "-j", threads])
            .output()
            .unwrap()
            .stdout
    };
    let one = run("1");
    assert_eq!(one, run("4"));
    assert_eq!(one, run("2"));
}
