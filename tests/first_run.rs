//! The first hour of a new user (issue 22, section 3): each test runs the
//! binary as they did and asserts on what they see.

mod common;

use common::{check_json, skillgate};
use std::path::{Path, PathBuf};

/// `../shared/corpora/<rel>` beside the repository, or `None` (with a
/// message) in a clone without it; CI has it.
fn corpus(rel: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} does not exist", p.display());
        None
    }
}

/// Write `files` (path, text) under a new temporary folder.
fn catalog(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, bytes) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    dir
}

const OK: &[u8] =
    b"---\nname: ok\ndescription: Formats tables. Use when the user asks to format a table.\n---\n# Ok\n";

#[test]
fn a_folder_without_any_skill_is_a_usage_error_that_says_where_it_looked() {
    for layout in [&[][..], &[("src/main.rs", &b"fn main() {}\n"[..])][..]] {
        let dir = catalog(layout);
        let out = skillgate().arg("check").arg(dir.path()).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("no SKILL.md found: looked in"), "{err}");
        assert!(err.contains(&dir.path().display().to_string()), "{err}");
        assert!(err.contains("e.g. skills/pdf/SKILL.md"), "{err}");
        assert!(out.stdout.is_empty());
    }
    // an empty skills/ folder: it says it looked there
    let dir = catalog(&[("skills/.keep", b"")]);
    let out = skillgate().arg("check").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("/skills/ and every folder below"), "{err}");
}

#[test]
fn one_skill_folder_reads_its_own_case_sources() {
    let Some(root) = corpus("routing-bench/SalesforceCommerceCloud__b2c-developer-tooling") else {
        return;
    };
    let skill = root.join("skills/b2c-cli/skills/b2c-sites");
    let whole = check_json(&root, &[]);
    assert_eq!(
        whole
            .in_file("SG407", "b2c-sites/evals/trigger-evals.json")
            .len(),
        1
    );
    let alone = check_json(&skill, &[]);
    let f = alone.one("SG407", "evals/trigger-evals.json");
    assert!(f.message.contains("0 behavioral evals"), "{}", f.message);
    // and routing does not rank its prompts against nothing
    let out = skillgate().arg("check").arg(&skill).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("SG503"), "{text}");
    assert!(
        text.contains("trigger prompts: 10 read, not ranked: a skill checked alone"),
        "{text}"
    );
}

#[test]
fn a_binary_skill_md_is_one_finding_with_no_bytes_shown() {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend((0..600u32).map(|i| (i * 37 % 251) as u8));
    let dir = catalog(&[("skills/logo/SKILL.md", &png), ("skills/ok/SKILL.md", OK)]);
    let r = check_json(dir.path(), &[]);
    assert_eq!(
        r.rules_in("skills/logo/"),
        vec!["SG018"],
        "{:#?}",
        r.findings
    );
    let f = r.one("SG018", "skills/logo/SKILL.md");
    assert_eq!(
        f.message,
        "SKILL.md is not text (a PNG image); it was not parsed"
    );
    assert_eq!(f.line, None);
    let out = skillgate()
        .arg("check")
        .arg(dir.path())
        .arg("--no-route")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("error[SG018]"), "{text}");
    assert!(
        !text.contains("PNG\r") && !text.contains('\u{fffd}'),
        "{text}"
    );
}

#[test]
fn a_folder_named_skill_md_is_reported_once() {
    let dir = catalog(&[
        ("skills/pdf/SKILL.md/README.md", b"# pdf\n"),
        ("skills/ok/SKILL.md", OK),
    ]);
    let r = check_json(dir.path(), &[]);
    assert_eq!(r.code, 1);
    assert_eq!(r.rules_in("skills/pdf"), vec!["SG019"], "{:#?}", r.findings);
    let f = r.one("SG019", "skills/pdf/SKILL.md");
    assert!(
        f.message.contains("is a folder, not a file"),
        "{}",
        f.message
    );
}

#[test]
fn a_file_over_the_size_limit_names_its_size_and_the_limit() {
    let mut big = OK.to_vec();
    big.extend(std::iter::repeat_n(b'x', 200));
    big.push(b'\n');
    let dir = catalog(&[
        ("skills/ok/SKILL.md", &big),
        ("skillgate.toml", b"[catalog]\nmax-file-bytes = 64\n"),
    ]);
    let r = check_json(dir.path(), &[]);
    let f = r.one("SG001", "skills/ok/SKILL.md");
    assert_eq!(
        f.message,
        format!(
            "SKILL.md is {} bytes, larger than 64 bytes ([catalog] max-file-bytes), and was not parsed",
            big.len()
        )
    );
}
