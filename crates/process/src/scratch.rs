//! Scratch folders: fresh temporary folders named so that a killed
//! skillgate's leftovers can be swept ([`scratch`], [`sweep_orphans`]), the
//! run homes a client needs outside the system temporary folder
//! ([`home_scratch`]), and the cache folder they live in
//! ([`cache_folder`]). Used by Tier 3's workspaces and `listing --capture`.

use std::path::{Path, PathBuf};

/// A temporary folder removed on drop unless kept.
#[derive(Debug)]
pub struct Workspace {
    dir: Option<tempfile::TempDir>,
    path: PathBuf,
}

impl Workspace {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Leave the folder on disk and return its path.
    pub fn keep(mut self) -> PathBuf {
        if let Some(d) = self.dir.take() {
            let _ = d.keep();
        }
        self.path.clone()
    }
}

/// The name prefix of the workspaces this process creates and does not
/// keep: `skillgate-ws-<pid>-`.
pub fn own_prefix() -> String {
    format!("{ORPHAN_PREFIX}{}-", std::process::id())
}

/// What every workspace a run removes itself starts with.
const ORPHAN_PREFIX: &str = "skillgate-ws-";

/// Remove the workspaces that skillgate processes killed before they could
/// clean up (SIGKILL, a cancelled CI job, a power cut) left in `tmp`: the
/// folders named `skillgate-ws-<pid>-…` that this user owns and whose
/// process no longer exists. Kept workspaces (`skillgate-kept-…`) and
/// those of running processes are never touched, nor is anything that is
/// not a real folder. Returns the folders removed. Unix only: elsewhere
/// there is no cheap way to ask whether a process lives.
pub fn sweep_orphans(tmp: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(entries) = std::fs::read_dir(tmp) else {
            return removed;
        };
        // SAFETY: getuid has no preconditions and cannot fail.
        let me = unsafe { libc::getuid() };
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(pid) = name
                .to_str()
                .and_then(|n| n.strip_prefix(ORPHAN_PREFIX))
                .and_then(|rest| rest.split_once('-'))
                .and_then(|(pid, _)| pid.parse::<i32>().ok())
                .filter(|&pid| pid > 0)
            else {
                continue;
            };
            let path = e.path();
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if !meta.is_dir() || meta.uid() != me || alive(pid) {
                continue;
            }
            if std::fs::remove_dir_all(&path).is_ok() {
                removed.push(path);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = tmp;
    removed.sort();
    removed
}

/// Whether process `pid` exists (a process of another user counts).
#[cfg(unix)]
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists and may be
    // signalled; nothing is sent.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// A fresh empty folder in the system's temporary folder whose name starts
/// with `prefix`, its path canonical.
pub fn fresh(prefix: &str) -> Result<Workspace, String> {
    fresh_in(&std::env::temp_dir(), prefix)
}

/// A fresh empty folder in `parent` whose name starts with `prefix`, its
/// path canonical.
fn fresh_in(parent: &Path, prefix: &str) -> Result<Workspace, String> {
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(parent)
        .map_err(|e| format!("cannot create a folder in {}: {e}", parent.display()))?;
    let path = dir
        .path()
        .canonicalize()
        .unwrap_or_else(|_| dir.path().to_path_buf());
    Ok(Workspace {
        dir: Some(dir),
        path,
    })
}
/// A fresh empty folder named like the workspaces
/// (`skillgate-ws-<pid>-<what>-…`, swept when skillgate is killed;
/// `skillgate-kept-<what>-…` when kept). Used for run homes and the
/// grader's working folder.
pub fn scratch(what: &str, keep: bool) -> Result<Workspace, String> {
    fresh(&if keep {
        format!("skillgate-kept-{what}-")
    } else {
        format!("{}{what}-", own_prefix())
    })
}

/// Where run homes that must not be in the system temporary folder go:
/// `run-homes/` in skillgate's cache folder (see the rank cache). Refused
/// when that folder is itself in the temporary folder.
pub fn home_root() -> Result<PathBuf, String> {
    let root = cache_folder(None)
        .ok_or("no cache folder (set SKILLGATE_CACHE_DIR, XDG_CACHE_HOME or HOME)")?
        .join("run-homes");
    std::fs::create_dir_all(&root).map_err(|e| format!("{}: {e}", root.display()))?;
    let real = root.canonicalize().unwrap_or_else(|_| root.clone());
    let tmp = std::env::temp_dir();
    let tmp = tmp.canonicalize().unwrap_or(tmp);
    if real.starts_with(&tmp) || real.starts_with("/tmp") {
        return Err(format!(
            "{} is inside the temporary folder; this client needs its run home outside it: set SKILLGATE_CACHE_DIR to a folder elsewhere",
            real.display()
        ));
    }
    Ok(real)
}

/// A fresh run home in [`home_root`], named like [`scratch`]'s folders.
pub fn home_scratch(what: &str, keep: bool) -> Result<Workspace, String> {
    fresh_in(
        &home_root()?,
        &if keep {
            format!("skillgate-kept-{what}-")
        } else {
            format!("{}{what}-", own_prefix())
        },
    )
}

/// skillgate's cache folder (the rank cache, run homes): `dir` when given, else `$SKILLGATE_CACHE_DIR`,
/// else the platform's user cache folder (`$XDG_CACHE_HOME/skillgate`,
/// `~/.cache/skillgate`; `~/Library/Caches/skillgate` on macOS;
/// `%LOCALAPPDATA%\skillgate\cache` on Windows). `None` when none is known.
pub fn cache_folder(dir: Option<&Path>) -> Option<PathBuf> {
    if let Some(d) = dir {
        return Some(d.to_path_buf());
    }
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("SKILLGATE_CACHE_DIR") {
        return Some(d);
    }
    if cfg!(windows) {
        return var("LOCALAPPDATA").map(|d| d.join("skillgate").join("cache"));
    }
    if cfg!(target_os = "macos") {
        return var("HOME").map(|h| h.join("Library/Caches/skillgate"));
    }
    var("XDG_CACHE_HOME")
        .filter(|d| d.is_absolute())
        .map(|d| d.join("skillgate"))
        .or_else(|| var("HOME").map(|h| h.join(".cache/skillgate")))
}
