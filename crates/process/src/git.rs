//! git, run so that no repository's configuration starts a program.
//!
//! Tier 3 sets up throwaway repositories with git, and `skillsift diff`
//! reads a user's repository at a revision: both run git through
//! [`command`], with every setting through which a configuration file can
//! start a program switched off on the command line (which outranks every
//! configuration file), no system or global configuration, no prompts,
//! and the variables that would point git elsewhere removed.
//!
//! [`export_tree`] writes the files of a revision (below a folder of the
//! repository) into a folder, from git's objects: no checkout, no index,
//! nothing written into the repository.

use std::collections::BTreeMap;
use std::path::{Component, Path};
use std::time::Duration;

/// Variables that would point git somewhere other than the repository it
/// is run in.
pub const ENV_REMOVE: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
];

/// Variables besides [`ENV_REMOVE`] that would make skillsift's own git
/// commands read other configuration or start a program.
pub const SETUP_ENV_REMOVE: &[&str] = &[
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "GIT_TEMPLATE_DIR",
];

/// git's `-c NAME=VALUE` (a setting on the command line), not a shell's.
pub const CONFIG_FLAG: &str = "-c"; // GIT_CONFIG_FLAG

/// Every setting through which a repository's configuration can make git
/// start a program, switched off on the command line for each git command
/// skillsift runs. Filters and diff or merge drivers start programs only
/// for the commands that check files out or compare them, which skillsift
/// never runs on a user's repository (it reads objects); `include.path`
/// and `includeIf` can only add settings these override.
pub const SAFE_CONFIG: &[&str] = &[
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.sshCommand=",
    "core.pager=cat",
    "core.editor=:",
    "core.askPass=",
    "core.gitProxy=",
    "core.alternateRefsCommand=",
    "core.untrackedCache=false",
    "diff.external=",
    "credential.helper=",
    "sequence.editor=:",
    "gpg.program=",
    "commit.gpgSign=false",
    "tag.gpgSign=false",
    "protocol.allow=never",
    "submodule.recurse=false",
    "safe.bareRepository=explicit",
];

/// The program, arguments and environment of `git ARGS` run as this
/// module's documentation says, with `extra` settings (`name=value`) after
/// [`SAFE_CONFIG`].
pub fn command(
    args: &[&str],
    extra: &[String],
) -> (Vec<String>, Vec<(String, String)>, Vec<String>) {
    let args: Vec<String> = SAFE_CONFIG
        .iter()
        .map(|c| c.to_string())
        .chain(extra.iter().cloned())
        .flat_map(|c| [CONFIG_FLAG.to_string(), c])
        .chain(args.iter().map(|s| s.to_string()))
        .collect();
    let env = vec![
        ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
        ("GIT_CONFIG_GLOBAL".into(), "/dev/null".into()),
        ("GIT_TERMINAL_PROMPT".into(), "0".into()),
        ("GIT_OPTIONAL_LOCKS".into(), "0".into()),
    ];
    let remove = ENV_REMOVE
        .iter()
        .chain(SETUP_ENV_REMOVE)
        .map(|s| s.to_string())
        .collect();
    (args, env, remove)
}

/// Why [`export_tree`] could not write a revision's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportError {
    /// The folder is in no git repository, or git could not run.
    NoRepository(String),
    /// The revision names no commit.
    BadRevision(String),
    /// Anything else: git failed, a limit was passed, a file could not be
    /// written.
    Failed(String),
}

/// Most bytes of a revision's files [`export_tree`] writes.
pub const MAX_EXPORT_BYTES: u64 = 1 << 30;
/// Most files it writes.
pub const MAX_EXPORT_FILES: usize = 200_000;
const TIMEOUT: Duration = Duration::from_secs(120);

/// What [`export_tree`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exported {
    /// The full commit id the revision names.
    pub commit: String,
    /// Files written (symbolic links included).
    pub files: usize,
    /// Submodules at the revision (gitlinks): not written, their commits
    /// are not in this repository.
    pub submodules: Vec<String>,
}

fn git(
    cwd: &Path,
    args: &[&str],
    stdin: &[u8],
    max_stdout: u64,
    extra: &[String],
) -> Result<Vec<u8>, (Option<i32>, String)> {
    let (args, env, env_remove) = command(args, extra);
    let o = crate::run(&crate::Spec {
        program: "git",
        args: &args,
        cwd,
        stdin,
        env,
        env_remove,
        timeout: TIMEOUT,
        max_stdout,
        max_stderr: 1 << 20,
        grace: Duration::from_millis(500),
    });
    match o.failure("git", TIMEOUT, (max_stdout, 1 << 20)) {
        None => Ok(o.stdout),
        Some(f) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let err = err.trim();
            Err((
                o.code(),
                if err.is_empty() {
                    f
                } else {
                    format!("{f}: {err}")
                },
            ))
        }
    }
}

/// Write the files of `rev` below `folder` (a folder of a git working
/// tree) into the folder `dest` gives for their size in bytes (it may
/// choose a folder in memory for a small tree), from git's objects, and
/// say what was written. The
/// repository is only read: no checkout, no index, no lock (git's
/// optional locks are off). A path that would leave `dest` is refused.
pub fn export_tree(
    folder: &Path,
    rev: &str,
    dest: impl FnOnce(u64) -> Result<std::path::PathBuf, String>,
) -> Result<Exported, ExportError> {
    // a repository another user owns (a container's checkout) is read all
    // the same: nothing here starts a program
    let trust = vec!["safe.directory=*".to_string()];
    let top = git(
        folder,
        &["rev-parse", "--show-toplevel"],
        b"",
        1 << 16,
        &trust,
    )
    .map_err(|(_, e)| ExportError::NoRepository(e))?;
    let top = String::from_utf8_lossy(&top)
        .trim_end_matches('\n')
        .to_string();
    let top = Path::new(&top);
    let prefix = git(
        folder,
        &["rev-parse", "--show-prefix"],
        b"",
        1 << 16,
        &trust,
    )
    .map_err(|(_, e)| ExportError::NoRepository(e))?;
    let prefix = String::from_utf8_lossy(&prefix)
        .trim_end_matches('\n')
        .to_string();
    if rev.starts_with('-') || rev.is_empty() {
        return Err(ExportError::BadRevision(format!(
            "`{rev}` is not a revision"
        )));
    }
    let commit = git(
        top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &format!("{rev}^{{commit}}"),
        ],
        b"",
        1 << 16,
        &trust,
    )
    .map_err(|(code, e)| match code {
        Some(1) | Some(128) => {
            ExportError::BadRevision(format!("`{rev}` names no commit in {}", top.display()))
        }
        _ => ExportError::Failed(e),
    })?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", commit.as_str()];
    if !prefix.is_empty() {
        args.extend(["--", prefix.as_str()]);
    }
    let listing =
        git(top, &args, b"", 256 << 20, &trust).map_err(|(_, e)| ExportError::Failed(e))?;
    // mode, type, object, path
    let mut blobs: Vec<(String, bool, String)> = Vec::new();
    let mut submodules = Vec::new();
    for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let text = std::str::from_utf8(entry).map_err(|_| {
            ExportError::Failed("git ls-tree printed a path that is not UTF-8".into())
        })?;
        let Some((meta, path)) = text.split_once('\t') else {
            return Err(ExportError::Failed(format!("git ls-tree printed `{text}`")));
        };
        let mut parts = meta.split(' ');
        let (Some(mode), Some(kind), Some(oid)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ExportError::Failed(format!("git ls-tree printed `{text}`")));
        };
        let Some(rel) = path.strip_prefix(prefix.as_str()) else {
            continue;
        };
        let safe = Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(n) if n != ".git"));
        if !safe || rel.is_empty() {
            return Err(ExportError::Failed(format!(
                "`{}` at {rev} is no path inside the catalog",
                rel.escape_debug()
            )));
        }
        match (kind, mode) {
            ("blob", "120000") => blobs.push((rel.to_string(), true, oid.to_string())),
            ("blob", _) => blobs.push((rel.to_string(), false, oid.to_string())),
            ("commit", _) => submodules.push(rel.to_string()),
            _ => {}
        }
    }
    if blobs.len() > MAX_EXPORT_FILES {
        return Err(ExportError::Failed(format!(
            "{} files at {rev}, more than the {MAX_EXPORT_FILES} skillsift reads",
            blobs.len()
        )));
    }
    // every object at once: `git cat-file --batch` prints each as
    // `<oid> blob <size>\n<bytes>\n`
    let mut wanted: std::collections::BTreeSet<&str> = Default::default();
    let mut input = Vec::new();
    for (_, _, oid) in &blobs {
        if wanted.insert(oid.as_str()) {
            input.extend_from_slice(oid.as_bytes());
            input.push(b'\n');
        }
    }
    let out = git(
        top,
        &["cat-file", "--batch"],
        &input,
        MAX_EXPORT_BYTES,
        &trust,
    )
    .map_err(|(_, e)| {
        ExportError::Failed(format!(
            "reading the files at {rev}: {e} (at most {} MiB are read)",
            MAX_EXPORT_BYTES >> 20
        ))
    })?;
    // where to write them, now that their size is known
    let dest = dest(out.len() as u64).map_err(ExportError::Failed)?;
    let dest = dest.as_path();
    let mut bytes_of: BTreeMap<String, &[u8]> = BTreeMap::new();
    let mut at = 0;
    while at < out.len() {
        let Some(nl) = out[at..].iter().position(|&b| b == b'\n') else {
            break;
        };
        let header = std::str::from_utf8(&out[at..at + nl]).unwrap_or("");
        if let Some(oid) = header.strip_suffix(" missing") {
            let path = blobs
                .iter()
                .find(|(_, _, o)| o == oid)
                .map_or("a file", |(rel, _, _)| rel.as_str());
            return Err(ExportError::Failed(format!(
                "`{}` at {rev}: this repository lacks its contents (object {oid}): a partial or damaged clone; fetch the revision in full (`git fetch origin {rev}`) and run again",
                path.escape_debug()
            )));
        }
        let mut h = header.split(' ');
        let (Some(oid), Some(_kind), Some(size)) = (h.next(), h.next(), h.next()) else {
            return Err(ExportError::Failed(format!(
                "git cat-file printed `{header}`"
            )));
        };
        let size: usize = size
            .parse()
            .map_err(|_| ExportError::Failed(format!("git cat-file printed `{header}`")))?;
        let start = at + nl + 1;
        let end = start + size;
        if end > out.len() {
            return Err(ExportError::Failed(
                "git cat-file's output ended early".into(),
            ));
        }
        bytes_of.insert(oid.to_string(), &out[start..end]);
        at = end + 1;
    }
    // each folder made once, parents first (a mkdir is most of the time
    // spent here)
    let mut made: std::collections::HashSet<std::path::PathBuf> = Default::default();
    for (rel, link, oid) in &blobs {
        let Some(bytes) = bytes_of.get(oid.as_str()) else {
            return Err(ExportError::Failed(format!(
                "git cat-file did not print `{rel}`"
            )));
        };
        let p = dest.join(rel);
        let mut missing: Vec<&Path> = p
            .ancestors()
            .skip(1)
            .take_while(|d| *d != dest && !made.contains(*d))
            .collect();
        missing.reverse();
        for d in missing {
            match std::fs::create_dir(d) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
                Err(e) => return Err(ExportError::Failed(format!("{}: {e}", d.display()))),
            }
            made.insert(d.to_path_buf());
        }
        write_entry(&p, bytes, *link)
            .map_err(|e| ExportError::Failed(format!("{}: {e}", p.display())))?;
    }
    Ok(Exported {
        commit,
        files: blobs.len(),
        submodules,
    })
}

/// A file, or a symbolic link as the working tree would hold it (the
/// catalog reader follows none out of the catalog).
fn write_entry(p: &Path, bytes: &[u8], link: bool) -> std::io::Result<()> {
    #[cfg(unix)]
    if link {
        use std::os::unix::ffi::OsStrExt;
        return std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(bytes), p);
    }
    let _ = link;
    std::fs::write(p, bytes)
}
