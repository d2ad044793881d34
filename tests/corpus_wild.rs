//! 1,000 real SKILL.md files from public repositories
//! (../shared/corpora/wild-sample): every file gets a verdict, nothing
//! panics, and no finding names a file outside the sample. Skipped when the
//! corpus is absent (a fresh clone has no ../shared).

mod common;

use common::{check_human, check_json};
use std::collections::BTreeSet;

#[test]
fn every_file_gets_a_verdict_and_the_summary_counts_1000() {
    let Some(root) = common::wild_sample() else {
        return;
    };
    assert_eq!(common::skill_files(&root).len(), 1000);
    let (out, code) = check_human(&root, &[]);
    assert!(code == 0 || code == 1, "exit code {code}");
    // the summary line; a line saying how many findings `--fix` repairs
    // may follow it
    let summary = out
        .lines()
        .rev()
        .find(|l| l.contains(" skills checked: "))
        .unwrap();
    assert!(summary.starts_with("1000 skills checked: "), "{summary}");
}

#[test]
fn json_findings_name_only_files_of_the_sample() {
    let Some(root) = common::wild_sample() else {
        return;
    };
    let files: BTreeSet<String> = common::skill_files(&root).into_iter().collect();
    let r = check_json(&root, &[]);
    assert_eq!(r.summary["skills_checked"], 1000);
    assert!(!r.findings.is_empty());
    for f in &r.findings {
        assert!(
            files.contains(&f.file),
            "{} names {}, which is not a SKILL.md of the sample",
            f.rule,
            f.file
        );
    }
}

#[test]
fn known_real_findings_are_reported() {
    let Some(root) = common::wild_sample() else {
        return;
    };
    let r = check_json(&root, &[]);
    // an unquoted `: ` in a description, at the colon
    let f = r.one("SG013", "laravel-verification/SKILL.md");
    assert_eq!((f.line, f.column), (Some(3), Some(52)));
    // a name with an underscore, in a folder of the same name
    let f = r.one("SG102", "drug_warning_report/SKILL.md");
    assert_eq!(f.line, Some(2));
    // a name that breaks the rules and is not its folder's: one finding,
    // whose help gives the folder's name (no SG103 beside it)
    let f = r.one("SG102", "openakita__openakita/0908/tencent-news/SKILL.md");
    assert!(f.message.contains("openakita/skills@tencent-news"));
    assert_eq!(
        f.help.as_deref(),
        Some("write `name: tencent-news`, the folder's name")
    );
    assert!(
        r.in_file("SG103", "openakita__openakita/0908/tencent-news/SKILL.md")
            .is_empty()
    );
    // OpenClaw's nested `metadata.openclaw` is the shape OpenClaw requires
    assert!(
        r.in_file("SG107", "ClawBio__ClawBio/0184/bio-orchestrator/")
            .is_empty()
    );
}

#[test]
fn frontmatter_that_parses_has_no_colon_or_quote_findings() {
    let Some(root) = common::wild_sample() else {
        return;
    };
    let r = check_json(&root, &[]);
    let failed: BTreeSet<_> = r.of("SG013").iter().map(|f| f.file.clone()).collect();
    for f in r.of("SG111").into_iter().chain(r.of("SG113")) {
        assert!(failed.contains(&f.file), "{f:#?}");
    }
}
