//! `--baseline-skill REF`: the baseline arm runs an earlier version of the
//! skill instead of none, so a release is measured against the version it
//! replaces.
//!
//! REF is a folder when one exists at that path (the skill folder of an
//! earlier version, e.g. an unpacked release; a name that is both a folder
//! and a revision is refused as ambiguous unless written as a path, `./v1`);
//! otherwise a git revision of the repository holding the skill (`main`,
//! `v1.2.0`, `HEAD~3`, a commit),
//! whose copy of the skill folder is read with git's plumbing only
//! (`rev-parse`, `ls-tree`, `cat-file --batch`, with
//! `GIT_OPTIONAL_LOCKS=0`): nothing is checked out, and the user's working
//! tree and index are never written. Either way the files are read once,
//! with the skill hash's rules (no symlinks or submodules, 10,000 files,
//! 100 MB, the top-level `evals/` left out), into the same in-memory tree
//! a `with` run installs from, and installed at the same place in every
//! baseline run.

use super::process;
use super::workspace::{Item, Tree};
use crate::exit::Fatal;
use crate::score::skill::{MAX_BYTES, MAX_FILES, SkillHash, unhashed};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The baseline as `plan.json` records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineDoc {
    /// `git` or `folder`.
    pub source: String,
    /// REF as given.
    pub reference: String,
    /// The commit REF resolved to (`git`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The skill folder read: relative to the repository (`git`), or as
    /// given (`folder`).
    pub path: String,
    /// Its skill hash.
    pub sha256: String,
    /// How reports name the baseline arm: `v1.2.0 (4f5e6d7)`, or the
    /// folder.
    pub label: String,
}

/// A baseline read and ready to install.
pub struct Baseline {
    pub doc: BaselineDoc,
    pub tree: Tree,
    /// Its SKILL.md text (install mode `append-system-prompt`).
    pub skill_md: String,
}

/// Read the baseline `reference` of the skill in `skill_dir`.
pub fn read(skill_dir: &Path, reference: &str, git_timeout: Duration) -> Result<Baseline, Fatal> {
    let as_dir = Path::new(reference);
    let written_as_path = reference.starts_with("./")
        || reference.starts_with("../")
        || reference.starts_with('/')
        || reference.ends_with('/');
    if as_dir.is_dir() {
        if !written_as_path && let Ok(b) = from_git(skill_dir, reference, git_timeout) {
            return Err(Fatal::usage(format!(
                "--compare-skill {reference}: both a folder and a git revision ({})",
                b.doc.commit.as_deref().unwrap_or("")
            ))
            .with_help(format!(
                "write `./{reference}` for the folder, or the commit for the revision"
            )));
        }
        return from_folder(as_dir, reference);
    }
    from_git(skill_dir, reference, git_timeout)
}

fn from_folder(dir: &Path, reference: &str) -> Result<Baseline, Fatal> {
    if !dir.join("SKILL.md").is_file() {
        return Err(Fatal::usage(format!(
            "--compare-skill {reference}: the folder has no SKILL.md"
        ))
        .with_help("pass the skill folder of the earlier version, or a git revision"));
    }
    let (snap, tree) = Tree::read_skill_checked(dir, &format!("--compare-skill {reference}: "))?;
    let skill_md = skill_md_text(&tree);
    Ok(Baseline {
        doc: BaselineDoc {
            source: "folder".into(),
            reference: reference.into(),
            commit: None,
            path: reference.into(),
            label: format!("{reference} ({})", &snap.skill_sha256[..12]),
            sha256: snap.skill_sha256,
        },
        tree,
        skill_md,
    })
}

fn skill_md_text(tree: &Tree) -> String {
    tree.items
        .iter()
        .find(|i| i.rel == "SKILL.md")
        .and_then(|i| i.bytes.as_ref())
        .map(|b| {
            let text = String::from_utf8_lossy(b);
            // given to the agent as its prompt: secrets masked
            crate::catalog::secrets::mask(&text).unwrap_or_else(|| text.into_owned())
        })
        .unwrap_or_default()
}

/// Run git read-only in `cwd`; its standard output.
fn git(
    cwd: &Path,
    args: &[&str],
    stdin: &[u8],
    max: u64,
    timeout: Duration,
) -> Result<Vec<u8>, String> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let out = process::run(&process::Spec {
        program: "git",
        args: &args,
        cwd,
        stdin,
        // read-only: never refresh (write) the index as a side effect
        env: vec![
            ("GIT_OPTIONAL_LOCKS".into(), "0".into()),
            ("GIT_TERMINAL_PROMPT".into(), "0".into()),
        ],
        env_remove: super::workspace::GIT_ENV_REMOVE
            .iter()
            .map(|s| s.to_string())
            .collect(),
        timeout,
        max_stdout: max,
        max_stderr: 64 * 1024,
        grace: Duration::from_secs(2),
    });
    match out.failure("git", timeout, (max, 64 * 1024)) {
        None => Ok(out.stdout),
        Some(f) => {
            let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
            Err(if err.is_empty() {
                f
            } else {
                format!("{f}: {err}")
            })
        }
    }
}

fn text(b: Vec<u8>) -> String {
    String::from_utf8_lossy(&b).trim().to_string()
}

fn from_git(skill_dir: &Path, reference: &str, timeout: Duration) -> Result<Baseline, Fatal> {
    let shown = format!("--compare-skill {reference}");
    if reference.is_empty() || reference.starts_with('-') || reference.contains('\0') {
        return Err(Fatal::usage(format!(
            "{shown}: not a folder, and not a git revision"
        )));
    }
    let not_git = |e: String| {
        Fatal::usage(format!(
            "{shown}: no folder of that name, and {} is not in a git repository ({e})",
            skill_dir.display()
        ))
        .with_help(
            "pass the earlier version's skill folder, or run from a git checkout of the catalog",
        )
    };
    let top = text(
        git(
            skill_dir,
            &["rev-parse", "--show-toplevel"],
            b"",
            1 << 16,
            timeout,
        )
        .map_err(not_git)?,
    );
    let prefix = text(
        git(
            skill_dir,
            &["rev-parse", "--show-prefix"],
            b"",
            1 << 16,
            timeout,
        )
        .map_err(not_git)?,
    );
    let top = Path::new(&top);
    let spec = format!("{reference}^{{commit}}");
    let commit = text(
        git(top, &["rev-parse", "--verify", "--quiet", "--end-of-options", &spec], b"", 1 << 16, timeout).map_err(|_| {
            Fatal::usage(format!(
                "{shown}: no folder of that name, and `{reference}` is not a revision of {}",
                top.display()
            ))
            .with_help("name a branch, tag or commit (`git log --oneline -- <skill folder>` lists the skill's history), or an existing folder")
        })?,
    );
    let prefix = prefix.trim_end_matches('/').to_string();
    let listing = git(
        top,
        &[
            "ls-tree",
            "-r",
            "-z",
            "--full-tree",
            &commit,
            "--",
            &format!("{prefix}/"),
        ],
        b"",
        64 * 1024 * 1024,
        timeout,
    )
    .map_err(|e| Fatal::usage(format!("{shown}: {e}")))?;
    let mut blobs: Vec<(String, bool, String)> = Vec::new();
    for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8(entry.to_vec()).map_err(|_| {
            Fatal::usage(format!("{shown}: a file name at {reference} is not UTF-8"))
        })?;
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let mut parts = meta.split(' ');
        let (mode, sha) = (parts.next().unwrap_or(""), parts.nth(1).unwrap_or(""));
        let rel = path
            .strip_prefix(&format!("{prefix}/"))
            .unwrap_or(path)
            .to_string();
        if unhashed(&rel) {
            continue;
        }
        match mode {
            "100644" | "100755" => blobs.push((rel, mode == "100755", sha.to_string())),
            "120000" => {
                return Err(Fatal::usage(format!(
                    "{shown}: `{rel}` is a symbolic link at {reference}; a skill with links cannot be installed or hashed"
                )));
            }
            _ => {
                return Err(Fatal::usage(format!(
                    "{shown}: `{rel}` is a submodule at {reference}; it cannot be installed"
                )));
            }
        }
        if blobs.len() > MAX_FILES {
            return Err(Fatal::usage(format!(
                "{shown}: the skill folder has more than {MAX_FILES} files at {reference}"
            )));
        }
    }
    if !blobs.iter().any(|(rel, _, _)| rel == "SKILL.md") {
        return Err(Fatal::usage(format!(
            "{shown}: {prefix}/SKILL.md does not exist at {reference} ({})",
            &commit[..commit.len().min(12)]
        ))
        .with_help("pick a revision where the skill exists"));
    }
    let ask: String = blobs.iter().map(|(_, _, sha)| format!("{sha}\n")).collect();
    let batch = git(
        top,
        &["cat-file", "--batch"],
        ask.as_bytes(),
        MAX_BYTES + 64 * MAX_FILES as u64 + 1,
        timeout,
    )
    .map_err(|e| {
        Fatal::usage(format!(
            "{shown}: the skill's files at {reference} cannot be read: {e}"
        ))
    })?;
    let mut items = Vec::new();
    let mut at = 0usize;
    let mut total = 0u64;
    for (rel, exec, sha) in &blobs {
        let nl = batch[at..]
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| Fatal::usage(format!("{shown}: git's answer for `{rel}` is cut")))?;
        let header = String::from_utf8_lossy(&batch[at..at + nl]).into_owned();
        at += nl + 1;
        let mut h = header.split(' ');
        let (got, kind, size) = (
            h.next(),
            h.next(),
            h.next().and_then(|s| s.parse::<usize>().ok()),
        );
        let size = match (got, kind, size) {
            (Some(g), Some("blob"), Some(n)) if g == sha => n,
            _ => {
                return Err(Fatal::usage(format!(
                    "{shown}: git did not return `{rel}` ({header})"
                )));
            }
        };
        total += size as u64;
        if total > MAX_BYTES || at + size > batch.len() {
            return Err(Fatal::usage(format!(
                "{shown}: the skill folder holds more than {MAX_BYTES} bytes at {reference}"
            )));
        }
        items.push(Item {
            rel: rel.clone(),
            bytes: Some(Arc::new(batch[at..at + size].to_vec())),
            mode: if *exec { 0o755 } else { 0o644 },
        });
        at += size + 1;
    }
    items.sort_by(|a, b| a.rel.as_bytes().cmp(b.rel.as_bytes()));
    let tree = Tree {
        items,
        patches: Vec::new(),
    };
    let mut h = SkillHash::default();
    for i in &tree.items {
        if let Some(b) = &i.bytes {
            h.file(&i.rel, i.mode & 0o111 != 0, b.len() as u64);
            h.bytes(b);
        }
    }
    let sha256 = h.finish();
    debug_assert_eq!(sha256, tree.skill_sha256());
    let short = &commit[..commit.len().min(7)];
    let skill_md = skill_md_text(&tree);
    Ok(Baseline {
        doc: BaselineDoc {
            source: "git".into(),
            reference: reference.into(),
            label: if commit.starts_with(reference) {
                short.to_string()
            } else {
                format!("{reference} ({short})")
            },
            commit: Some(commit.clone()),
            path: prefix,
            sha256,
        },
        tree,
        skill_md,
    })
}
