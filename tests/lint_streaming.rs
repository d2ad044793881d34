//! `skillsift check` lints each skill as it is read and then keeps only the
//! text its findings need. That must find exactly what loading everything
//! and linting afterwards finds, and reports must still show the lines.

mod common;

use base::diag::{Diagnostic, sort_diagnostics};
use catalog::Catalog;
use config::Config;
use std::path::Path;

fn both_ways(root: &Path, config: &Config) -> (Vec<Diagnostic>, Vec<Diagnostic>, Catalog) {
    let full = Catalog::load(root, config).unwrap();
    let mut after = full.diagnostics.clone();
    after.extend(lint::run(&full, config));
    sort_diagnostics(&mut after);
    let (cut, lint) = lint::load_and_run(root, config).unwrap();
    let mut during = cut.diagnostics.clone();
    during.extend(lint);
    sort_diagnostics(&mut during);
    (after, during, cut)
}

#[test]
fn checking_while_loading_finds_exactly_what_checking_afterwards_finds() {
    for case in [
        "dead-reference",
        "workflow-steps",
        "unquoted-colon",
        "tab-indentation",
        "unterminated-quote",
        "missing-trigger",
        "line-budget",
    ] {
        let root = common::fixture(case);
        let config = config::Config::load_catalog(&root)
            .unwrap()
            .map_or_else(config::Config::default, |(c, _)| c);
        let (after, during, _) = both_ways(&root, &config);
        assert!(!after.is_empty(), "{case}");
        assert_eq!(after, during, "{case}");
    }
}

#[test]
fn the_wild_sample_gives_the_same_findings_either_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/wild-sample");
    if !root.is_dir() {
        eprintln!("skipped: {} does not exist", root.display());
        return;
    }
    let (after, during, cut) = both_ways(&root, &Config::default());
    assert_eq!(after.len(), during.len());
    assert!(after == during);
    // most of the text is dropped, and every finding's line is still there
    let dropped: usize = cut.skills.iter().map(|s| s.cut).sum();
    assert!(dropped > 4_000_000, "only {dropped} bytes dropped");
    for d in &during {
        if let (Some(span), Some(src)) = (d.span, cut.sources.get(&d.file)) {
            assert!(span.end <= src.text.len(), "{d:?}");
        }
    }
}

#[test]
fn the_frontmatter_claude_code_reads_survives_the_cut() {
    // skillsift finds the block never closed (SG012); Claude Code closes it
    // at the tab-indented `---` and lists the description, so the text it
    // reads must be kept for the client rules
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/s0");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\ndescription: Use when: x\n\t---\n# Body\n\nmore\n\nand more\n",
    )
    .unwrap();
    let (after, during, _) = both_ways(dir.path(), &Config::default());
    assert_eq!(after, during);
    assert!(after.iter().any(|d| d.rule == "SG012"));
    assert!(!after.iter().any(|d| d.rule == "SG602"), "{after:?}");
}

mod random {
    use super::both_ways;
    use config::Config;
    use proptest::prelude::*;

    fn piece() -> impl Strategy<Value = &'static str> {
        prop_oneof![
            Just("\n"),
            Just("\r\n"),
            Just("\t"),
            Just("name: a-b\n"),
            Just("description: Use when: x\n"),
            Just("description: \"open\n"),
            Just("metadata:\n  v: 1.0\n"),
            Just("---\n"),
            Just("```\n"),
            Just("## Step 1\n"),
            Just("1. A → b\n"),
            Just("the `x-y` skill\n"),
            Just("[l](../z/SKILL.md)\n"),
            Just("é技 "),
            Just("# t\n"),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn any_skill_text_gets_the_same_findings_either_way(
            files in proptest::collection::vec(proptest::collection::vec(piece(), 0..30), 1..4)
        ) {
            let dir = tempfile::tempdir().unwrap();
            for (i, parts) in files.iter().enumerate() {
                let skill = dir.path().join(format!("skills/s{i}"));
                std::fs::create_dir_all(&skill).unwrap();
                std::fs::write(skill.join("SKILL.md"), format!("---\n{}", parts.concat())).unwrap();
            }
            let every_client = Config::parse(
                "[lint]\nclients = [\"claude-code\", \"codex\", \"gemini-cli\", \"opencode\"]\n",
                "skillsift.toml",
            )
            .unwrap();
            let (after, during, cut) = both_ways(dir.path(), &every_client);
            prop_assert_eq!(&after, &during);
            for d in &during {
                if let (Some(span), Some(src)) = (d.span, cut.sources.get(&d.file)) {
                    prop_assert!(span.end <= src.text.len(), "{:?}", d);
                }
            }
        }
    }
}
