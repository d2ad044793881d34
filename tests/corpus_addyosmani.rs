//! The vendored addyosmani/agent-skills catalog (tests/fixtures, MIT,
//! never edited), with a test-only skillsift.toml declaring its required
//! sections and exemptions as its docs describe.

mod common;

use common::check_json;
use std::path::{Path, PathBuf};

fn catalog() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/addyosmani-agent-skills")
}

fn config() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/addyosmani-config/skillsift.toml")
        .display()
        .to_string()
}

#[test]
fn performance_optimization_declares_five_steps_but_documents_four() {
    let r = check_json(&catalog(), &["--config", &config()]);
    assert_eq!(r.code, 1);
    assert_eq!(r.summary["skills_checked"], 24);
    let f = r.one("SG209", "skills/performance-optimization/SKILL.md");
    assert_eq!(f.line, Some(37), "the `5. GUARD` line of the outline");
    assert!(
        f.message
            .contains("declares a 5-step workflow but documents only `Step 1`–`4`"),
        "{}",
        f.message
    );
}

#[test]
fn the_catalog_meets_its_own_spec_and_conventions_otherwise() {
    let r = check_json(&catalog(), &["--config", &config()]);
    let tier1: Vec<_> = r
        .findings
        .iter()
        .filter(|f| {
            f.rule.starts_with("SG0") || f.rule.starts_with("SG1") || f.rule.starts_with("SG2")
        })
        .map(|f| (f.rule.as_str(), f.file.as_str(), f.line))
        .collect();
    assert_eq!(
        tier1,
        vec![(
            "SG209",
            "skills/performance-optimization/SKILL.md",
            Some(37)
        )]
    );
}

#[test]
fn without_the_exemptions_the_exempt_skills_miss_sections() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("skillsift.toml");
    std::fs::write(
        &cfg,
        "[lint]\nrequired-sections = [\"Overview\", \"When to Use\", \"Common Rationalizations\", \"Red Flags\", \"Verification\"]\n",
    )
    .unwrap();
    let r = check_json(&catalog(), &["--config", cfg.to_str().unwrap()]);
    let mut skills: Vec<_> = r.of("SG202").iter().map(|f| f.file.clone()).collect();
    skills.dedup();
    assert_eq!(
        skills,
        vec![
            "skills/idea-refine/SKILL.md",
            "skills/using-agent-skills/SKILL.md"
        ]
    );
}
