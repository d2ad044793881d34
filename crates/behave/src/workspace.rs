//! Throwaway workspaces: one fresh temporary folder per run.
//!
//! - Execution evals: the eval's `files[]` are read from `evals/fixtures/`
//!   (symlinks dereferenced; a path or link leading outside the fixtures
//!   folder is refused), written into the workspace at the same relative
//!   paths, committed as the baseline of a new git repository with a local
//!   identity, then `.eval/working-tree.patch` (when a fixture carries one)
//!   is applied on top as uncommitted work. `.eval/` itself never reaches the
//!   workspace or its history.
//! - Dialogue evals and trigger prompts: an empty folder; for the built-in
//!   agents an empty git repository ([`Setup::git`]), so that no client
//!   walks up out of the workspace looking for project skills.
//! - `with` runs (install mode `discover`): the skill folder, minus its
//!   `evals/`, is copied to where the agent discovers it (Claude Code:
//!   `<workspace>/.claude/skills/<name>/`) and hidden from git through
//!   `.git/info/exclude`.
//! - Run homes ([`scratch`]): a fresh folder per agent or grader call for
//!   the client's own configuration, holding only the files the agent
//!   interface writes there.
//!
//! Files are read once, when the plan is made ([`Tree::read`]), and written
//! from memory into every workspace, so all runs see the same bytes and the
//! plan's digest describes exactly what the agent got.

use super::process;
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Most files in one tree (fixtures of one eval, or one skill).
const MAX_FILES: usize = 20_000;
/// Most bytes in one tree.
const MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Deepest folder nesting followed.
const MAX_DEPTH: usize = 32;
/// Largest `working-tree.patch`.
const MAX_PATCH_BYTES: u64 = 16 * 1024 * 1024;

/// One file or folder to write.
#[derive(Debug, Clone)]
pub struct Item {
    /// Path inside the destination, `/`-separated.
    pub rel: String,
    /// `None` for a folder.
    pub bytes: Option<Arc<Vec<u8>>>,
    /// Permission bits.
    pub mode: u32,
}

/// Files read from disk, ready to be written into workspaces.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    /// Sorted by `rel`; folders before their contents.
    pub items: Vec<Item>,
    /// `.eval/working-tree.patch` files, in `files[]` order, with their
    /// paths relative to the fixtures folder.
    pub patches: Vec<(String, Arc<Vec<u8>>)>,
}

impl Tree {
    /// Number of files (not folders).
    pub fn files(&self) -> usize {
        self.items.iter().filter(|i| i.bytes.is_some()).count()
    }

    /// The skill hash of a tree read by [`Tree::read_skill`]: the same
    /// value `crate::score::skill::snapshot` computes from the folder.
    pub fn skill_sha256(&self) -> String {
        let mut h = crate::score::skill::SkillHash::default();
        let mut files: Vec<_> = self
            .items
            .iter()
            .filter_map(|i| i.bytes.as_ref().map(|b| (i, b)))
            .collect();
        files.sort_by(|a, b| a.0.rel.as_bytes().cmp(b.0.rel.as_bytes()));
        for (i, b) in files {
            h.file(&i.rel, i.mode & 0o111 != 0, b.len() as u64);
            h.bytes(b);
        }
        h.finish()
    }

    /// SHA-256 over every path, mode and content, and the patches (the
    /// fixtures' fingerprint).
    pub fn digest(&self) -> String {
        let mut h = Sha256::new();
        for i in &self.items {
            h.update(i.rel.as_bytes());
            h.update([0]);
            match &i.bytes {
                Some(b) => {
                    h.update(format!("f{:o}:{}:", i.mode & 0o111, b.len()).as_bytes());
                    h.update(b.as_slice());
                }
                None => h.update(b"d"),
            }
            h.update([0]);
        }
        for (p, b) in &self.patches {
            h.update(b"patch:");
            h.update(p.as_bytes());
            h.update([0]);
            h.update(b.as_slice());
        }
        hex(&h.finalize())
    }

    /// Read an eval's `files[]` from `fixtures` (the `evals/fixtures/` folder).
    pub fn read_fixtures(fixtures: &Path, files: &[String]) -> Result<Tree, String> {
        Tree::read_fixtures_in(fixtures, "evals/fixtures", files)
    }

    /// Read an eval's `files[]` from `base`, the folder they are relative
    /// to (named `base_name` in messages): `evals/fixtures/`, or the skill
    /// folder for skill-creator's `evals.json`. Each lands in the
    /// workspace at the same relative path.
    pub fn read_fixtures_in(
        base: &Path,
        base_name: &'static str,
        files: &[String],
    ) -> Result<Tree, String> {
        let root = base
            .canonicalize()
            .map_err(|e| format!("{}: cannot open the fixtures folder: {e}", base.display()))?;
        let mut w = Walker::new(root.clone(), base_name);
        w.refuse_git = true;
        let mut patches = Vec::new();
        for rel in files {
            let dest = normalize(rel).map_err(|why| {
                format!("fixture path `{rel}` {why}; paths are relative to {base_name}/")
            })?;
            let src = root.join(&dest);
            let real = w.contain(&src, rel)?;
            let meta = std::fs::metadata(&real).map_err(|e| format!("fixture `{rel}`: {e}"))?;
            let setup = if meta.is_dir() {
                real.join(".eval")
            } else {
                real.parent().unwrap_or(&root).join(".eval")
            };
            w.walk(&src, &dest, 0, Some(&real.join(".eval")))?;
            let patch = setup.join("working-tree.patch");
            if std::fs::symlink_metadata(&patch).is_ok() {
                let real_patch = w.contain(&patch, &format!("{rel}/.eval/working-tree.patch"))?;
                let bytes = crate::catalog::read_bounded(&real_patch, MAX_PATCH_BYTES)
                    .map_err(|e| format!("{}: {e}", patch.display()))?
                    .ok_or_else(|| {
                        format!("{}: larger than {MAX_PATCH_BYTES} bytes", patch.display())
                    })?;
                let label = rel_string(real_patch.strip_prefix(&root).unwrap_or(&real_patch));
                if !patches.iter().any(|(l, _)| *l == label) {
                    patches.push((label, Arc::new(bytes)));
                }
            }
        }
        Ok(w.finish(patches))
    }

    /// Read a skill folder, leaving out its top-level `evals/`.
    pub fn read_skill(dir: &Path) -> Result<Tree, String> {
        let root = dir
            .canonicalize()
            .map_err(|e| format!("{}: cannot open the skill folder: {e}", dir.display()))?;
        let mut w = Walker::new(root.clone(), "the skill folder");
        w.walk(
            &root,
            Path::new(""),
            0,
            Some(&root.join(crate::score::skill::EVALS_DIR)),
        )?;
        Ok(w.finish(Vec::new()))
    }

    /// Read a skill folder as the scorer hashes it and as a run installs
    /// it: its snapshot (the scorer refuses what it cannot hash: links,
    /// devices, too many files) and its files, which must hash the same.
    /// `what` names the folder in messages.
    pub fn read_skill_checked(
        dir: &Path,
        what: &str,
    ) -> Result<(crate::score::skill::Snapshot, Tree), crate::exit::Fatal> {
        let snap = crate::score::skill::snapshot(dir)?;
        let tree =
            Tree::read_skill(dir).map_err(|e| crate::exit::Fatal::usage(format!("{what}{e}")))?;
        if tree.skill_sha256() != snap.skill_sha256 {
            return Err(crate::score::skill::changed(dir));
        }
        Ok((snap, tree))
    }

    /// Drop the files `rels` names (relative to the folder: case sources
    /// such as `trigger_tests.yaml`, which would show the agent its test).
    pub fn leave_out(&mut self, rels: &[String]) {
        self.items.retain(|i| !rels.contains(&i.rel));
    }

    /// Write every item under `dest`, secrets masked
    /// ([`crate::catalog::secrets::mask_bytes`]).
    pub fn write_into(&self, dest: &Path) -> Result<(), String> {
        use std::os::unix::fs::PermissionsExt;
        for i in &self.items {
            let p = dest.join(&i.rel);
            let r = match &i.bytes {
                None => std::fs::create_dir_all(&p),
                Some(b) => {
                    if let Some(parent) = p.parent() {
                        std::fs::create_dir_all(parent)
                            .map_err(|e| format!("{}: {e}", parent.display()))?;
                    }
                    // the catalog's secrets stay out of workspaces, as
                    // out of every output (SG704 reports them)
                    let masked = crate::catalog::secrets::mask_bytes(b);
                    std::fs::write(&p, masked.as_deref().unwrap_or(b.as_slice())).and_then(|()| {
                        std::fs::set_permissions(
                            &p,
                            std::fs::Permissions::from_mode(i.mode & 0o777 | 0o600),
                        )
                    })
                }
            };
            r.map_err(|e| format!("{}: {e}", p.display()))?;
        }
        Ok(())
    }
}

/// A relative path without `.` components; absolute paths and `..`
/// components are refused (as Tier 1 refuses them).
fn normalize(rel: &str) -> Result<PathBuf, &'static str> {
    if rel.trim().is_empty() {
        return Err("is empty");
    }
    if rel.starts_with('/') || rel.starts_with('\\') {
        return Err("is absolute");
    }
    let mut out = PathBuf::new();
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(s) => out.push(s),
            Component::CurDir => {}
            Component::ParentDir => return Err("has a `..` component"),
            Component::RootDir | Component::Prefix(_) => return Err("is absolute"),
        }
    }
    Ok(out)
}

fn rel_string(p: &Path) -> String {
    p.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

struct Walker {
    root: PathBuf,
    root_name: &'static str,
    /// Fixtures: a `.git` anywhere is refused (it would be the workspace
    /// repository's own configuration, which git obeys).
    refuse_git: bool,
    items: Vec<Item>,
    seen: HashSet<String>,
    active: Vec<PathBuf>,
    bytes: u64,
}

impl Walker {
    fn new(root: PathBuf, root_name: &'static str) -> Walker {
        Walker {
            root,
            root_name,
            refuse_git: false,
            items: Vec::new(),
            seen: HashSet::new(),
            active: Vec::new(),
            bytes: 0,
        }
    }

    /// The real path of `p`, refused when it lies outside the root.
    fn contain(&self, p: &Path, shown: &str) -> Result<PathBuf, String> {
        let real = p
            .canonicalize()
            .map_err(|e| match std::fs::symlink_metadata(p) {
                Ok(m) if m.file_type().is_symlink() => {
                    format!("`{shown}` is a broken symlink in {}", self.root_name)
                }
                _ => format!("`{shown}` in {}: {e}", self.root_name),
            })?;
        if !real.starts_with(&self.root) {
            return Err(format!(
                "`{shown}` leads outside {} (to {}); fixtures and skills may not link out",
                self.root_name,
                real.display()
            ));
        }
        Ok(real)
    }

    fn walk(
        &mut self,
        src: &Path,
        dest: &Path,
        depth: usize,
        skip: Option<&Path>,
    ) -> Result<(), String> {
        let shown = rel_string(dest);
        let shown = if shown.is_empty() {
            ".".to_string()
        } else {
            shown
        };
        if depth > MAX_DEPTH {
            return Err(format!(
                "`{shown}` is nested more than {MAX_DEPTH} folders deep"
            ));
        }
        if self.refuse_git
            && dest
                .components()
                .any(|c| crate::catalog::cases::is_git_name(&c.as_os_str().to_string_lossy()))
        {
            return Err(format!(
                "`{shown}` in {} is a repository's own `.git`, which git would obey while setting up the workspace (SG412); remove it from the fixture",
                self.root_name
            ));
        }
        let real = self.contain(src, &shown)?;
        let meta = std::fs::metadata(&real).map_err(|e| format!("`{shown}`: {e}"))?;
        let rel = rel_string(dest);
        if meta.is_dir() {
            if self.active.contains(&real) {
                return Err(format!("`{shown}` is a symlink loop in {}", self.root_name));
            }
            if !rel.is_empty() && self.seen.insert(rel.clone()) {
                self.items.push(Item {
                    rel: rel.clone(),
                    bytes: None,
                    mode: 0o755,
                });
            }
            let mut names: Vec<_> = std::fs::read_dir(&real)
                .map_err(|e| format!("`{shown}`: {e}"))?
                .filter_map(|e| e.ok().map(|e| e.file_name()))
                .collect();
            names.sort();
            self.active.push(real.clone());
            for name in names {
                let child = real.join(&name);
                if depth == 0 && skip.is_some_and(|s| s == child) {
                    continue;
                }
                self.walk(&src.join(&name), &dest.join(&name), depth + 1, None)?;
            }
            self.active.pop();
        } else if meta.is_file() {
            if rel.is_empty() {
                return Err(format!("{} is a file, not a folder", self.root_name));
            }
            if !self.seen.insert(rel.clone()) {
                return Ok(());
            }
            if self.items.len() >= MAX_FILES {
                return Err(format!("more than {MAX_FILES} files in {}", self.root_name));
            }
            self.bytes += meta.len();
            if self.bytes > MAX_BYTES {
                return Err(format!("more than {MAX_BYTES} bytes in {}", self.root_name));
            }
            let bytes = crate::catalog::read_bounded(&real, MAX_BYTES)
                .map_err(|e| format!("`{shown}`: {e}"))?
                .ok_or_else(|| format!("`{shown}` is larger than {MAX_BYTES} bytes"))?;
            use std::os::unix::fs::PermissionsExt;
            self.items.push(Item {
                rel,
                bytes: Some(Arc::new(bytes)),
                mode: meta.permissions().mode(),
            });
        } else {
            return Err(format!(
                "`{shown}` in {} is not a regular file or folder",
                self.root_name
            ));
        }
        Ok(())
    }

    fn finish(mut self, patches: Vec<(String, Arc<Vec<u8>>)>) -> Tree {
        self.items.sort_by(|a, b| a.rel.cmp(&b.rel));
        Tree {
            items: self.items,
            patches,
        }
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub use crate::process::scratch::{Workspace, home_root, home_scratch, scratch, sweep_orphans};
use crate::process::scratch::{fresh, own_prefix};

/// What goes into one workspace.
#[derive(Debug, Clone, Copy)]
pub struct Setup<'a> {
    /// Fixtures (execution evals); `None` for an empty folder.
    pub fixtures: Option<&'a Tree>,
    /// Make the folder a git repository even without fixtures.
    pub git: bool,
    /// The skills to install, and where (relative to the workspace): the
    /// one under test (or its baseline), and siblings (`--with-siblings`).
    pub skills: &'a [(PathBuf, &'a Tree)],
    /// Time limit for each git command.
    pub git_timeout: Duration,
    /// The folder will be kept (`--keep-workspace`): it is named
    /// `skillsift-kept-…` so that [`sweep_orphans`] never takes it.
    pub keep: bool,
}

/// Create a workspace. On error the folder is already removed.
pub fn create(setup: &Setup) -> Result<Workspace, String> {
    let ws = fresh(&if setup.keep {
        "skillsift-kept-".to_string()
    } else {
        own_prefix()
    })?;
    let git = |args: &[&str], stdin: &[u8]| git(ws.path(), args, stdin, setup.git_timeout);
    if setup.fixtures.is_some() || setup.git {
        git(&["init", "--quiet", "--initial-branch=main"], b"")?;
        // A local identity and no conversions or signing, appended as
        // `git config` would write them (one process fewer per setting).
        let config = ws.path().join(".git").join("config");
        use std::io::Write;
        std::fs::OpenOptions::new()
            .append(true)
            .open(&config)
            .and_then(|mut f| f.write_all(LOCAL_CONFIG.as_bytes()))
            .map_err(|e| format!("{}: {e}", config.display()))?;
    }
    if let Some(fx) = setup.fixtures {
        fx.write_into(ws.path())?;
        git(&["add", "--all"], b"")?;
        git(
            &[
                "commit",
                "--quiet",
                "--no-verify",
                "--allow-empty",
                "-m",
                "fixture baseline",
            ],
            b"",
        )?;
        for (label, patch) in &fx.patches {
            let masked = crate::catalog::secrets::mask_bytes(patch);
            git(
                &["apply", "--whitespace=nowarn", "-"],
                masked.as_deref().unwrap_or(patch.as_slice()),
            )
            .map_err(|e| format!("evals/fixtures/{label} does not apply: {e}"))?;
        }
    }
    let mut excluded: Vec<String> = Vec::new();
    for (rel, tree) in setup.skills {
        let dest = ws.path().join(rel);
        std::fs::create_dir_all(&dest).map_err(|e| format!("{}: {e}", dest.display()))?;
        tree.write_into(&dest)?;
        let info = ws.path().join(".git").join("info");
        let top = rel
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().into_owned());
        if let Some(top) = top
            && ws.path().join(".git").is_dir()
            && !excluded.contains(&top)
        {
            std::fs::create_dir_all(&info).map_err(|e| format!("{}: {e}", info.display()))?;
            use std::io::Write;
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(info.join("exclude"))
                .and_then(|mut f| f.write_all(format!("\n/{top}/\n").as_bytes()))
                .map_err(|e| format!("{}: {e}", info.display()))?;
            excluded.push(top);
        }
    }
    Ok(ws)
}

/// Write `files` (relative paths) under `dir`.
pub fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), String> {
    for (rel, bytes) in files {
        let p = dir.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// The local git configuration of every workspace.
const LOCAL_CONFIG: &str = "[user]\n\tname = skillsift\n\temail = skillsift@example.invalid\n[core]\n\tautocrlf = false\n[commit]\n\tgpgsign = false\n";

/// How every git command runs (see `process::git`): the variables removed,
/// the settings that start no program.
pub use process::git::{
    CONFIG_FLAG as GIT_CONFIG_FLAG, ENV_REMOVE as GIT_ENV_REMOVE, SAFE_CONFIG as GIT_SAFE_CONFIG,
    SETUP_ENV_REMOVE as GIT_SETUP_ENV_REMOVE,
};

/// Run git in `cwd` with no system or global configuration, a fixed date
/// (so the baseline commit is the same in every run) and no prompts.
fn git(cwd: &Path, args: &[&str], stdin: &[u8], timeout: Duration) -> Result<(), String> {
    let shown = args.join(" ");
    let args: Vec<String> = GIT_SAFE_CONFIG
        .iter()
        .flat_map(|c| [GIT_CONFIG_FLAG.to_string(), c.to_string()])
        .chain(args.iter().map(|s| s.to_string()))
        .collect();
    let date = "2000-01-01T00:00:00Z".to_string();
    let o = process::run(&process::Spec {
        program: "git",
        args: &args,
        cwd,
        stdin,
        env: vec![
            ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
            ("GIT_CONFIG_GLOBAL".into(), "/dev/null".into()),
            ("GIT_TERMINAL_PROMPT".into(), "0".into()),
            ("GIT_AUTHOR_DATE".into(), date.clone()),
            ("GIT_COMMITTER_DATE".into(), date),
        ],
        env_remove: GIT_ENV_REMOVE
            .iter()
            .chain(GIT_SETUP_ENV_REMOVE)
            .map(|s| s.to_string())
            .collect(),
        timeout,
        max_stdout: 1 << 20,
        max_stderr: 1 << 20,
        grace: Duration::from_millis(500),
    });
    match o.failure("git", timeout, (1 << 20, 1 << 20)) {
        None => Ok(()),
        Some(f) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let err = err.trim();
            Err(format!(
                "`git {shown}`: {f}{}",
                if err.is_empty() {
                    String::new()
                } else {
                    format!(": {err}")
                }
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A repository whose own configuration names programs (an fsmonitor,
    /// hooks, a pager): skillsift's git commands start none of them, while
    /// plain git does (so the test can fail).
    #[test]
    fn git_in_a_workspace_starts_no_program_its_configuration_names() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        let t = Duration::from_secs(30);
        git(&repo, &["init", "--quiet"], b"", t).unwrap();
        let marker = d.path().join("ran");
        let hooks = d.path().join("hooks");
        std::fs::create_dir_all(&hooks).unwrap();
        let hook = hooks.join("post-commit");
        std::fs::write(&hook, format!("#!/bin/sh\ntouch {}\n", marker.display())).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut config = std::fs::OpenOptions::new()
            .append(true)
            .open(repo.join(".git/config"))
            .unwrap();
        use std::io::Write;
        write!(
            config,
            "[core]\n\tfsmonitor = \"touch {m}\"\n\thooksPath = {h}\n\tpager = touch {m}\n[user]\n\tname = x\n\temail = x@example.invalid\n",
            m = marker.display(),
            h = hooks.display()
        )
        .unwrap();
        std::fs::write(repo.join("a.txt"), "a").unwrap();
        git(&repo, &["add", "--all"], b"", t).unwrap();
        git(&repo, &["commit", "--quiet", "-m", "x"], b"", t).unwrap();
        assert!(
            !marker.exists(),
            "a program of the repository's configuration ran"
        );
        // plain git obeys the same configuration
        std::fs::write(repo.join("b.txt"), "b").unwrap();
        let plain = std::process::Command::new("git")
            .args(["add", "--all"])
            .current_dir(&repo)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        let _ = plain;
        let _ = std::process::Command::new("git")
            .args(["commit", "--quiet", "-m", "y"])
            .current_dir(&repo)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(
            marker.exists(),
            "plain git should have run the fsmonitor or hook"
        );
    }

    fn fixtures() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("fixtures");
        std::fs::create_dir_all(f.join("proj/src")).unwrap();
        std::fs::create_dir_all(f.join("proj/.eval")).unwrap();
        std::fs::write(f.join("proj/src/a.js"), "let a = 1;\n").unwrap();
        std::fs::write(
            f.join("proj/.eval/working-tree.patch"),
            "diff --git a/proj/src/a.js b/proj/src/a.js\n--- a/proj/src/a.js\n+++ b/proj/src/a.js\n@@ -1 +1 @@\n-let a = 1;\n+let a = 2;\n",
        )
        .unwrap();
        std::fs::write(d.path().join("secret.txt"), "outside").unwrap();
        d
    }

    #[test]
    fn fixtures_are_copied_without_eval_and_the_patch_is_kept() {
        let d = fixtures();
        let t = Tree::read_fixtures(&d.path().join("fixtures"), &["proj".into()]).unwrap();
        let rels: Vec<_> = t.items.iter().map(|i| i.rel.as_str()).collect();
        assert_eq!(rels, ["proj", "proj/src", "proj/src/a.js"]);
        assert_eq!(t.patches.len(), 1);
        assert_eq!(t.patches[0].0, "proj/.eval/working-tree.patch");
    }

    #[test]
    fn a_secret_in_a_fixture_is_masked_in_the_workspace() {
        let d = fixtures();
        let key = format!("AIza{}", "Sy8Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc");
        std::fs::write(
            d.path().join("fixtures/proj/src/key.js"),
            format!("module.exports = \"{key}\";\n"),
        )
        .unwrap();
        let t = Tree::read_fixtures(&d.path().join("fixtures"), &["proj".into()]).unwrap();
        let out = d.path().join("ws");
        t.write_into(&out).unwrap();
        let written = std::fs::read_to_string(out.join("proj/src/key.js")).unwrap();
        assert_eq!(
            written,
            format!("module.exports = \"AIza{}\";\n", "X".repeat(35))
        );
        // the rest as it was
        assert_eq!(
            std::fs::read_to_string(out.join("proj/src/a.js")).unwrap(),
            "let a = 1;\n"
        );
    }

    #[test]
    fn a_symlink_out_of_the_fixtures_folder_is_refused() {
        let d = fixtures();
        symlink(
            d.path().join("secret.txt"),
            d.path().join("fixtures/proj/src/leak"),
        )
        .unwrap();
        let e = Tree::read_fixtures(&d.path().join("fixtures"), &["proj".into()]).unwrap_err();
        assert!(e.contains("leads outside evals/fixtures"), "{e}");
    }

    #[test]
    fn a_path_climbing_out_is_refused() {
        let d = fixtures();
        let e =
            Tree::read_fixtures(&d.path().join("fixtures"), &["../secret.txt".into()]).unwrap_err();
        assert!(e.contains("`..`"), "{e}");
        let e =
            Tree::read_fixtures(&d.path().join("fixtures"), &["/etc/passwd".into()]).unwrap_err();
        assert!(e.contains("absolute"), "{e}");
    }

    #[test]
    fn an_inside_symlink_is_dereferenced() {
        let d = fixtures();
        symlink(
            d.path().join("fixtures/proj/src/a.js"),
            d.path().join("fixtures/proj/b.js"),
        )
        .unwrap();
        let t = Tree::read_fixtures(&d.path().join("fixtures"), &["proj".into()]).unwrap();
        let b = t.items.iter().find(|i| i.rel == "proj/b.js").unwrap();
        assert_eq!(b.bytes.as_deref().unwrap().as_slice(), b"let a = 1;\n");
    }

    #[test]
    fn a_workspace_is_a_repo_with_the_baseline_committed_and_the_patch_applied() {
        let d = fixtures();
        let t = Tree::read_fixtures(&d.path().join("fixtures"), &["proj".into()]).unwrap();
        let ws = create(&Setup {
            fixtures: Some(&t),
            git: false,
            skills: &[],
            git_timeout: Duration::from_secs(30),
            keep: false,
        })
        .unwrap();
        let p = ws.path().to_path_buf();
        assert_eq!(
            std::fs::read_to_string(p.join("proj/src/a.js")).unwrap(),
            "let a = 2;\n"
        );
        assert!(!p.join("proj/.eval").exists());
        let out = std::process::Command::new("git")
            .args(["show", "HEAD:proj/src/a.js"])
            .current_dir(&p)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "let a = 1;\n");
        let git = |args: &[&str]| {
            let o = std::process::Command::new("git")
                .args(args)
                .current_dir(&p)
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .output()
                .unwrap();
            String::from_utf8_lossy(&o.stdout).trim().to_string()
        };
        assert_eq!(git(&["config", "user.email"]), "skillsift@example.invalid");
        assert_eq!(git(&["config", "core.autocrlf"]), "false");
        assert_eq!(
            git(&["log", "--format=%an %ad", "--date=iso"]),
            "skillsift 2000-01-01 00:00:00 +0000"
        );
        drop(ws);
        assert!(!p.exists());
    }
}
