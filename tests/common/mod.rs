//! Shared helpers for the integration tests: run the real binary and read
//! its JSON report.
#![allow(dead_code)]

pub mod cat;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `tests/fixtures/lint/<case>`.
pub fn fixture(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/lint")
        .join(case)
}

/// A `skillsift` command with a clean environment for output (no colour).
pub fn skillsift() -> Command {
    let mut cmd = Command::cargo_bin("skillsift").unwrap();
    cmd.env("NO_COLOR", "1");
    // `rank` keeps its cache here, not in the user's cache folder
    cmd.env(
        "SKILLSIFT_CACHE_DIR",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("rank-cache"),
    );
    cmd
}

/// One finding as the JSON report gives it.
#[derive(Debug, Clone)]
pub struct Finding {
    pub rule: String,
    pub severity: String,
    pub file: String,
    pub line: Option<u64>,
    pub column: Option<u64>,
    pub message: String,
    pub help: Option<String>,
}

/// The outcome of `skillsift check --format json --no-route`.
#[derive(Debug)]
pub struct Report {
    pub code: i32,
    pub findings: Vec<Finding>,
    pub summary: Value,
}

impl Report {
    /// Findings of `rule`.
    pub fn of(&self, rule: &str) -> Vec<&Finding> {
        self.findings.iter().filter(|f| f.rule == rule).collect()
    }

    /// Findings of `rule` in a file whose path contains `file`.
    pub fn in_file(&self, rule: &str, file: &str) -> Vec<&Finding> {
        self.findings
            .iter()
            .filter(|f| f.rule == rule && f.file.contains(file))
            .collect()
    }

    /// The single finding of `rule` in `file`; panics when there is not
    /// exactly one.
    pub fn one(&self, rule: &str, file: &str) -> &Finding {
        let found = self.in_file(rule, file);
        assert_eq!(
            found.len(),
            1,
            "expected one {rule} in {file}, got {found:#?}\nall: {:#?}",
            self.findings
        );
        found[0]
    }

    /// Rule ids found in `file`.
    pub fn rules_in(&self, file: &str) -> Vec<&str> {
        self.findings
            .iter()
            .filter(|f| f.file.contains(file))
            .map(|f| f.rule.as_str())
            .collect()
    }
}

/// Run `check --no-route --format json` on `root` with extra arguments:
/// the exit code and the whole JSON report.
pub fn check_doc(root: &Path, extra: &[&str]) -> (i32, Value) {
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--no-route", "--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    let code = out.status.code().expect("exit code");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, doc)
}

/// The diagnostics of `check --no-route --format json` on `root`, as JSON,
/// with the exit code.
pub fn check_diagnostics(root: &Path) -> (i32, Vec<Value>) {
    let (code, doc) = check_doc(root, &[]);
    (
        code,
        doc["diagnostics"].as_array().cloned().unwrap_or_default(),
    )
}

/// `(rule, file, line)` of the JSON diagnostics that `keep` accepts.
pub fn rule_file_line(
    diags: &[Value],
    keep: impl Fn(&Value) -> bool,
) -> Vec<(String, String, Option<u64>)> {
    diags
        .iter()
        .filter(|d| keep(d))
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64(),
            )
        })
        .collect()
}

/// Run `check --no-route --format json` on `root` with extra arguments.
pub fn check_json(root: &Path, extra: &[&str]) -> Report {
    let (code, doc) = check_doc(root, extra);
    let findings = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| Finding {
            rule: d["rule"].as_str().unwrap().to_string(),
            severity: d["severity"].as_str().unwrap().to_string(),
            file: d["file"].as_str().unwrap().to_string(),
            line: d["line"].as_u64(),
            column: d["column"].as_u64(),
            message: d["message"].as_str().unwrap().to_string(),
            help: d["help"].as_str().map(str::to_string),
        })
        .collect();
    Report {
        code,
        findings,
        summary: doc["summary"].clone(),
    }
}

/// Run `check` on a fixture case.
pub fn check_case(case: &str) -> Report {
    check_json(&fixture(case), &[])
}

/// The human report of `check --no-route` on `root` (stdout, NO_COLOR,
/// not a terminal) and its exit code.
pub fn check_human(root: &Path, extra: &[&str]) -> (String, i32) {
    let out = skillsift()
        .arg("check")
        .arg(root)
        .arg("--no-route")
        .args(extra)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

/// `../shared/corpora/wild-sample` beside the repository, or `None` (with a
/// message) in a fresh clone that has no `../shared`; CI has it.
pub fn wild_sample() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/wild-sample");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipped: {} does not exist", p.display());
        None
    }
}

/// Every SKILL.md under `root`, root-relative with `/`, sorted, found
/// without skillsift's own discovery.
pub fn skill_files(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            let r = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &r, out);
            } else if name == "SKILL.md" {
                out.push(r);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, "", &mut out);
    out.sort();
    out
}

/// A copy of the folder `from` in a new temporary folder (for tests that
/// change a fixture).
pub fn copy_tree(from: &Path) -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), &target).unwrap();
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    copy(from, dir.path());
    dir
}

/// The example a page of the documentation (`docs/<page>`) shows after the
/// text `marker`: the words of the first ```sh block after it (continuation
/// lines joined) and the text of the plain ``` block that follows (the
/// output), so that a test can run the one and compare the other.
pub fn doc_example(page: &str, marker: &str) -> (Vec<String>, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(page);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("docs/{page}: {e}"));
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("docs/{page} no longer holds {marker:?}"));
    let rest = &text[at..];
    let sh = rest
        .find("```sh\n")
        .expect("a ```sh block after the marker")
        + 6;
    let sh_end = sh + rest[sh..].find("```").unwrap();
    let command = rest[sh..sh_end].replace("\\\n", " ");
    let words = command.split_whitespace().map(str::to_string).collect();
    let after = sh_end + 3;
    let out_start = after
        + rest[after..]
            .find("```\n")
            .expect("a plain ``` block for the output")
        + 4;
    let shown = rest[out_start..][..rest[out_start..].find("```").unwrap()].to_string();
    (words, shown)
}

/// Write `text` to `root/rel`, creating its folders.
pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A minimal `skills/<name>/SKILL.md` under `root`.
pub fn skill(root: &Path, name: &str, description: &str) {
    write(
        root,
        &format!("skills/{name}/SKILL.md"),
        &format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n"),
    );
}

/// Run skillsift with `args` in `dir` on a terminal (a pseudo-terminal
/// that util-linux's `script` opens), as a person at a shell would: its
/// output with the terminal's `\r` taken out. `None`, with a message,
/// where `script` is missing.
#[allow(dead_code)]
pub fn on_terminal(dir: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let quote = |a: &str| format!("'{}'", a.replace('\'', r"'\''"));
    let bin = assert_cmd::cargo::cargo_bin("skillsift");
    let line: Vec<String> = std::iter::once(quote(bin.to_str().unwrap()))
        .chain(args.iter().map(|a| quote(a)))
        .collect();
    let out = match std::process::Command::new("script")
        .args(["-qec", &line.join(" "), "/dev/null"])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: util-linux's `script` cannot run ({e})");
            return None;
        }
    };
    Some(out.stdout.into_iter().filter(|&b| b != b'\r').collect())
}
