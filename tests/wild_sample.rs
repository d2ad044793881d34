//! Robustness over ../shared/corpora/wild-sample: 1,000 real SKILL.md files
//! drawn from 361 public repositories. Every file gets a verdict and the run
//! finishes; the same files saved with CRLF line ends or with a byte order
//! mark get the same verdicts, apart from the notices about exactly that
//! (SG005 BOM, SG006 line ends).
//!
//! Skipped (with a message) when the corpus is absent, as in a fresh clone;
//! CI has it.

mod common;
use assert_cmd::Command;
use catalog::Catalog;
use config::Config;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// `check ROOT --format json`: the document, after asserting the run
/// finished with a verdict (exit 0 or 1).
fn check_json(root: &Path) -> Value {
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .arg("check")
        .arg(root)
        .args(["--format", "json"])
        // the strict reading: what a BOM or CRLF changes in Claude Code's
        // (the whole frontmatter dropped, SG601) is tests/client_listing.rs'
        .args(["--client", "spec"])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "check {} exited {:?}: {}",
        root.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Per file: the sorted (rule, line) of its diagnostics, without `skip`.
fn verdicts(doc: &Value, skip: &[&str]) -> BTreeMap<String, Vec<(String, u64)>> {
    let mut m: BTreeMap<String, Vec<(String, u64)>> = BTreeMap::new();
    for d in doc["diagnostics"].as_array().unwrap() {
        let rule = d["rule"].as_str().unwrap();
        if skip.contains(&rule) {
            continue;
        }
        m.entry(d["file"].as_str().unwrap().to_string())
            .or_default()
            .push((rule.to_string(), d["line"].as_u64().unwrap_or(0)));
    }
    for v in m.values_mut() {
        v.sort();
    }
    m
}

#[test]
fn every_file_of_the_wild_sample_gets_a_verdict() {
    let Some(root) = common::wild_sample() else {
        return;
    };
    let files = common::skill_files(&root);
    assert_eq!(files.len(), 1000, "the corpus holds 1,000 SKILL.md files");

    // The loader sees every one of them, and each is either parsed or
    // carries a load-time diagnostic saying why not.
    let catalog = Catalog::load(&root, &Config::default()).unwrap();
    let loaded: Vec<&str> = catalog.skills.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(loaded, files);
    for s in &catalog.skills {
        if s.frontmatter.is_none() {
            assert!(
                catalog
                    .diagnostics
                    .iter()
                    .any(|d| d.file == s.file && d.rule.starts_with("SG0")),
                "{} was not parsed and nothing says why",
                s.file
            );
        }
    }

    // The binary checks all of them and finishes: a verdict for each file
    // is a diagnostic naming it, or a clean pass.
    let doc = check_json(&root);
    assert_eq!(doc["summary"]["skills_checked"], 1000);
    let by_file = verdicts(&doc, &[]);
    let clean = files.iter().filter(|f| !by_file.contains_key(*f)).count();
    eprintln!(
        "wild sample: {} files with findings, {clean} clean, {} diagnostics",
        files.len() - clean,
        doc["diagnostics"].as_array().unwrap().len()
    );
    for f in by_file.keys() {
        assert!(
            files.contains(f) || f.starts_with('.') || !f.ends_with("SKILL.md"),
            "a diagnostic names {f}, which is not one of the corpus files"
        );
    }
}

/// Copy every SKILL.md of `from` into `to` (same relative paths), each
/// transformed by `f`.
fn copy_with(from: &Path, files: &[String], to: &Path, f: impl Fn(Vec<u8>) -> Vec<u8>) {
    for rel in files {
        let dst = to.join(rel);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::write(dst, f(std::fs::read(from.join(rel)).unwrap())).unwrap();
    }
}

/// Every LF not already part of a CRLF becomes CRLF.
fn to_crlf(bytes: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 20);
    let mut prev = 0u8;
    for b in bytes {
        if b == b'\n' && prev != b'\r' {
            out.push(b'\r');
        }
        out.push(b);
        prev = b;
    }
    out
}

fn with_bom(bytes: Vec<u8>) -> Vec<u8> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return bytes;
    }
    let mut out = vec![0xEF, 0xBB, 0xBF];
    out.extend(bytes);
    out
}

#[test]
fn crlf_and_bom_copies_of_the_wild_sample_get_the_same_verdicts() {
    let Some(root) = common::wild_sample() else {
        return;
    };
    let files = common::skill_files(&root);
    let tmp = tempfile::tempdir().unwrap();
    let (plain, crlf, bom) = (
        tmp.path().join("plain"),
        tmp.path().join("crlf"),
        tmp.path().join("bom"),
    );
    copy_with(&root, &files, &plain, |b| b);
    copy_with(&root, &files, &crlf, to_crlf);
    copy_with(&root, &files, &bom, with_bom);

    // a few corpus files are one line without a line break
    let with_breaks = files
        .iter()
        .filter(|f| std::fs::read(root.join(f)).unwrap().contains(&b'\n'))
        .count();
    let skip = [
        "SG005", "SG006", "SG600", "SG601", "SG602", "SG603", "SG604", "SG605", "SG606", "SG607",
        "SG608", // Claude Code finds no frontmatter after a BOM: its key rules are silent too
        "SG610", "SG611", "SG612", "SG613", "SG614", "SG615", "SG616", "SG617",
    ];
    let want = verdicts(&check_json(&plain), &skip);
    for (what, dir, notice, expected) in [
        ("CRLF", &crlf, "SG006", with_breaks),
        ("BOM", &bom, "SG005", files.len()),
    ] {
        let doc = check_json(dir);
        // the copies are what they claim: each file carries its notice
        let noticed = verdicts(&doc, &[])
            .values()
            .filter(|v| v.iter().any(|(r, _)| r == notice))
            .count();
        assert_eq!(noticed, expected, "{what} copies carrying {notice}");
        let got = verdicts(&doc, &skip);
        let mut differ = Vec::new();
        for f in want.keys().chain(got.keys()) {
            let (a, b) = (want.get(f), got.get(f));
            if a != b && !differ.iter().any(|(g, _, _)| g == f) {
                differ.push((f.clone(), a.cloned(), b.cloned()));
            }
        }
        assert!(
            differ.is_empty(),
            "{} of the {what} copies got other verdicts than the originals; first ones:\n{:#?}",
            differ.len(),
            &differ[..differ.len().min(5)]
        );
    }
}
