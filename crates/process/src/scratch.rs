//! Scratch folders: fresh temporary folders named so that a killed
//! skillsift's leftovers can be swept ([`scratch`], [`sweep_orphans`]), the
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
/// keep: `skillsift-ws-<pid>-`.
pub fn own_prefix() -> String {
    format!("{ORPHAN_PREFIX}{}-", std::process::id())
}

/// What every workspace a run removes itself starts with.
const ORPHAN_PREFIX: &str = "skillsift-ws-";

/// Remove the workspaces that skillsift processes killed before they could
/// clean up (SIGKILL, a cancelled CI job, a power cut) left in `tmp`: the
/// folders named `skillsift-ws-<pid>-…` that this user owns and whose
/// process no longer exists. Kept workspaces (`skillsift-kept-…`) and
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
/// Largest tree [`in_memory`] puts in memory.
pub const MEMORY_MAX_BYTES: u64 = 128 << 20;

/// A fresh scratch folder for `bytes` of files, as [`scratch`] makes one
/// (not kept), in memory where the system has a memory file system
/// (`/dev/shm`) and the files are at most [`MEMORY_MAX_BYTES`]: writing a
/// catalog's thousand files there takes a tenth of the time a disk may
/// (wshobson/agents' 1,155 files, 14 MB: 0.23-0.30 s for `skillsift diff`
/// against 0.8-2.4 s on this machine's /tmp). Workspaces left there by a
/// killed process are swept first, as in the temporary folder.
pub fn in_memory(what: &str, bytes: u64) -> Result<Workspace, String> {
    let shm = Path::new("/dev/shm");
    if cfg!(target_os = "linux") && bytes <= MEMORY_MAX_BYTES && shm.is_dir() {
        sweep_orphans(shm);
        if let Ok(ws) = fresh_in(shm, &format!("{}{what}-", own_prefix())) {
            return Ok(ws);
        }
    }
    scratch(what, false)
}

/// A fresh empty folder named like the workspaces
/// (`skillsift-ws-<pid>-<what>-…`, swept when skillsift is killed;
/// `skillsift-kept-<what>-…` when kept). Used for run homes and the
/// grader's working folder.
pub fn scratch(what: &str, keep: bool) -> Result<Workspace, String> {
    fresh(&if keep {
        format!("skillsift-kept-{what}-")
    } else {
        format!("{}{what}-", own_prefix())
    })
}

/// Where run homes that must not be in the system temporary folder go
/// (Codex refuses to write its helpers there): `run-homes/` in the first
/// of skillsift's cache folders ([`cache_candidates`]) that is outside it.
/// The temporary folder is the one the client started with this
/// environment sees: [`std::env::temp_dir`], `$TMPDIR` or else `/tmp`.
/// `SKILLSIFT_CACHE_DIR`, when set, is the only candidate; otherwise
/// `$XDG_CACHE_HOME/skillsift`, then `~/.cache/skillsift`.
pub fn home_root() -> Result<PathBuf, String> {
    let tmp = std::env::temp_dir();
    let tmp = tmp.canonicalize().unwrap_or(tmp);
    let candidates = cache_candidates();
    if candidates.is_empty() {
        return Err("no cache folder (set SKILLSIFT_CACHE_DIR, XDG_CACHE_HOME or HOME)".into());
    }
    let mut refused: Option<PathBuf> = None;
    let mut failed: Option<String> = None;
    for dir in candidates {
        let root = dir.join("run-homes");
        if canonical_ancestors(&root).starts_with(&tmp) {
            refused.get_or_insert(root);
            continue;
        }
        match std::fs::create_dir_all(&root) {
            Ok(()) => return Ok(root.canonicalize().unwrap_or(root)),
            Err(e) => {
                failed.get_or_insert(format!("{}: {e}", root.display()));
            }
        }
    }
    Err(match (failed, refused) {
        (Some(f), _) => f,
        (None, r) => format!(
            "{} is inside the temporary folder; this client needs its run home outside it: set SKILLSIFT_CACHE_DIR to a folder elsewhere",
            r.unwrap_or_default().display()
        ),
    })
}

/// What to do when [`home_root`] finds no folder.
pub fn home_help() -> String {
    let tmp = std::env::temp_dir();
    format!(
        "set SKILLSIFT_CACHE_DIR (or XDG_CACHE_HOME) to a folder you can write outside {}",
        tmp.display()
    )
}

/// `path` with its longest existing ancestor made canonical (symlinks
/// resolved) and the rest appended: where `path` will be once created.
fn canonical_ancestors(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut at = path;
    loop {
        if let Ok(real) = at.canonicalize() {
            return rest.iter().rev().fold(real, |p, c| p.join(c));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// A fresh run home in [`home_root`], named like [`scratch`]'s folders.
pub fn home_scratch(what: &str, keep: bool) -> Result<Workspace, String> {
    fresh_in(
        &home_root()?,
        &if keep {
            format!("skillsift-kept-{what}-")
        } else {
            format!("{}{what}-", own_prefix())
        },
    )
}

/// skillsift's cache folder (the rank cache, run homes): `dir` when given,
/// else the first of [`cache_candidates`]. `None` when none is known.
pub fn cache_folder(dir: Option<&Path>) -> Option<PathBuf> {
    match dir {
        Some(d) => Some(d.to_path_buf()),
        None => cache_candidates().into_iter().next(),
    }
}

/// The cache folders, in the order they are tried: `$SKILLSIFT_CACHE_DIR`
/// alone when it is set, else the platform's user cache folder
/// (`$XDG_CACHE_HOME/skillsift` when that is absolute, then
/// `~/.cache/skillsift`; `~/Library/Caches/skillsift` on macOS;
/// `%LOCALAPPDATA%\skillsift\cache` on Windows).
pub fn cache_candidates() -> Vec<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("SKILLSIFT_CACHE_DIR") {
        return vec![d];
    }
    if cfg!(windows) {
        return var("LOCALAPPDATA")
            .map(|d| d.join("skillsift").join("cache"))
            .into_iter()
            .collect();
    }
    if cfg!(target_os = "macos") {
        return var("HOME")
            .map(|h| h.join("Library/Caches/skillsift"))
            .into_iter()
            .collect();
    }
    let xdg = var("XDG_CACHE_HOME")
        .filter(|d| d.is_absolute())
        .map(|d| d.join("skillsift"));
    let home = var("HOME").map(|h| h.join(".cache/skillsift"));
    xdg.into_iter().chain(home).collect()
}
