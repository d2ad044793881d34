//! Adopting skillsift on a catalog that exists (issue 22, section 2):
//! inline suppressions, `[lint] per-skill-ignores`, unknown rule ids in
//! configuration, and the findings half of `--save-baseline`/`--baseline`,
//! all through the binary.

mod common;
use common::{check_json, skillsift};
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A skill without a "Use when" clause: SG201.
const NO_TRIGGER: &str =
    "---\nname: card\ndescription: A reference card of shell idioms.\n---\n\nBody.\n";

#[test]
fn an_inline_suppression_with_a_reason_hides_the_finding() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "card/SKILL.md",
        "---\nname: card\n# skillsift: ignore[SG201] reference card, loaded by other skills\ndescription: A reference card of shell idioms.\n---\n\nBody.\n",
    );
    let r = common::check_json(root, &[]);
    assert!(r.of("SG201").is_empty(), "{:#?}", r.findings);
    assert!(r.of("SG020").is_empty(), "{:#?}", r.findings);
    // no client shows the comment to the model
    let out = skillsift()
        .args(["listing"])
        .arg(root)
        .args(["--client", "claude-code"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("skillsift:"));
}

#[test]
fn a_suppression_that_matches_nothing_or_gives_no_reason_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "a/SKILL.md",
        "---\nname: a\n# skillsift: ignore[SG103] folder renamed later\ndescription: Formats tables. Use when the user asks for a table.\n---\n\nBody.\n",
    );
    write(
        root,
        "card/SKILL.md",
        "---\nname: card\n# skillsift: ignore[missing-trigger]\ndescription: A reference card of shell idioms.\n---\n\nBody.\n",
    );
    let r = common::check_json(root, &[]);
    let unused = r.one("SG020", "a/SKILL.md");
    assert_eq!(unused.line, Some(3));
    assert!(unused.message.contains("SG103"), "{}", unused.message);
    let bad = r.one("SG021", "card/SKILL.md");
    assert_eq!(bad.line, Some(3));
    assert!(bad.message.contains("no reason"), "{}", bad.message);
    // without a reason it suppresses nothing
    assert_eq!(r.of("SG201").len(), 1);
    assert_eq!(r.code, 1);
}

#[test]
fn an_unknown_rule_in_a_suppression_is_its_finding_not_the_runs_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "card/SKILL.md",
        "---\nname: card\n# skillsift: ignore[SG2O1] reference card\ndescription: A reference card.\n---\n\nBody.\n",
    );
    // a sibling's findings are still reported
    write(
        root,
        "other/SKILL.md",
        "---\nname: other\ndescription: Another card.\n---\n\nBody.\n",
    );
    let r = check_json(root, &[]);
    assert_eq!(r.code, 1);
    let bad = r.one("SG021", "card/SKILL.md");
    assert_eq!(bad.line, Some(3));
    assert!(
        bad.message
            .contains("unknown rule `SG2O1` in this suppression: did you mean `SG201`?"),
        "{}",
        bad.message
    );
    // the help writes the suppression it meant
    assert_eq!(
        bad.help.as_deref(),
        Some("write `# skillsift: ignore[SG201] why the finding does not apply`")
    );
    // it suppresses nothing
    assert_eq!(r.in_file("SG201", "card/SKILL.md").len(), 1);
    assert_eq!(r.in_file("SG201", "other/SKILL.md").len(), 1);
    // a suppression without a reason: the help names its own rules
    write(
        root,
        "card/SKILL.md",
        "---\nname: card\n# skillsift: ignore[SG205, SG201]\ndescription: A reference card.\n---\n\nBody.\n",
    );
    let r = check_json(root, &[]);
    let bad = r.one("SG021", "card/SKILL.md");
    assert_eq!(
        bad.help.as_deref(),
        Some("write `# skillsift: ignore[SG205, SG201] why the finding does not apply`")
    );
}

#[test]
fn per_skill_ignores_take_globs_and_rule_names() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "legacy-card/SKILL.md",
        &NO_TRIGGER.replace("card", "legacy-card"),
    );
    write(root, "card/SKILL.md", NO_TRIGGER);
    write(
        root,
        "skillsift.toml",
        "[lint.per-skill-ignores]\n\"legacy-*\" = [\"missing-trigger\"]\n",
    );
    let r = common::check_json(root, &[]);
    assert!(
        r.in_file("SG201", "legacy-card/").is_empty(),
        "{:#?}",
        r.findings
    );
    assert_eq!(r.in_file("SG201", "card/SKILL.md").len(), 1);
}

#[test]
fn unknown_rule_ids_in_configuration_are_usage_errors_with_a_suggestion() {
    for (toml, line, given, suggestion) in [
        (
            "[lint.rules]\nSG201 = \"off\"\nSG1O2 = \"off\"\n",
            3,
            "SG1O2",
            Some("SG102"),
        ),
        ("[lint.rules]\nSG999 = \"error\"\n", 2, "SG999", None),
        (
            "[lint.per-skill-ignores]\n\"x\" = [\"SG201\",\n  \"name-fromat\"]\n",
            3,
            "name-fromat",
            Some("name-format"),
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "card/SKILL.md", NO_TRIGGER);
        write(root, "skillsift.toml", toml);
        let out = skillsift()
            .arg("check")
            .arg(root)
            .arg("--no-route")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{toml}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("skillsift.toml:{line}:")), "{err}");
        assert!(err.contains(&format!("unknown rule `{given}`")), "{err}");
        match suggestion {
            Some(s) => assert!(err.contains(&format!("did you mean `{s}`?")), "{err}"),
            None => assert!(!err.contains("did you mean"), "{err}"),
        }
    }
}

#[test]
fn a_findings_baseline_fails_only_on_new_findings_and_names_the_fixed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "card/SKILL.md", NO_TRIGGER);
    write(
        root,
        "bad/SKILL.md",
        "---\nname: bad\ndescription: Formats tables. Use when asked.\nfoo: 1\n---\n\nBody.\n",
    );
    let base = root.join("baseline.json");
    let out = skillsift()
        .arg("check")
        .arg(root)
        .arg("--save-baseline")
        .arg(&base)
        .output()
        .unwrap();
    // saving the baseline is its job: done, exit 0 (the findings are shown)
    assert_eq!(out.status.code(), Some(0));
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&base).unwrap()).unwrap();
    assert_eq!(saved["version"], 2);
    let rules: Vec<&str> = saved["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(
        rules.contains(&"SG201") && rules.contains(&"SG109"),
        "{rules:?}"
    );

    // lines added above the findings: still known, exit 0
    write(
        root,
        "bad/SKILL.md",
        "---\nname: bad\nlicense: MIT\ndescription: Formats tables. Use when asked.\nfoo: 1\n---\n\nBody.\n",
    );
    let out = skillsift()
        .arg("check")
        .arg(root)
        .arg("--baseline")
        .arg(&base)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("baseline: 2 known findings not shown"),
        "{text}"
    );

    // a new finding fails; a fixed one is named
    write(
        root,
        "bad/SKILL.md",
        "---\nname: bad\ndescription: Formats tables. Use when asked.\nbar: 2\n---\n\nBody.\n",
    );
    let out = skillsift()
        .arg("check")
        .arg(root)
        .arg("--baseline")
        .arg(&base)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error[SG109]: `bar`"), "{text}");
    assert!(!text.contains("`foo`"), "{text}");
    assert!(
        text.contains(
            "1 fixed since it was saved: SG109 bad/SKILL.md (refresh it with --save-baseline)"
        ),
        "{text}"
    );
}

#[test]
fn a_routing_only_baseline_of_version_1_is_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "card/SKILL.md", NO_TRIGGER);
    let base = root.join("old.json");
    std::fs::write(
        &base,
        "{\"version\": 1, \"rank1\": 0, \"positives\": 0, \"prompts\": []}\n",
    )
    .unwrap();
    let out = skillsift()
        .arg("check")
        .arg(root)
        .arg("--baseline")
        .arg(&base)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // it accepts no findings: the warning stays, no baseline line
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("warning[SG201]"), "{text}");
    assert!(!text.contains("known finding"), "{text}");
}
