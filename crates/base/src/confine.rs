//! One way in for every path skillsift opens or writes on a catalog's
//! behalf (its `skillsift.toml`, results, drafts, fixes), and for the files
//! a user names on the command line.
//!
//! A pull request writes every byte of a catalog, links and special files
//! included. So a path of the catalog's is resolved once against the
//! catalog root ([`Root`]) and refused when it leads outside the root or is
//! not a regular file or folder; what was resolved is what is opened
//! (`O_NOFOLLOW`, `O_NONBLOCK`: a link or FIFO swapped in afterwards is
//! refused, not followed or waited on), and output folders are made one
//! component at a time, each checked, so no folder is created through a
//! link that leaves the root. A link that stays inside the catalog keeps
//! working.
//!
//! A file the user names (`--config`, `--baseline`) is theirs and may lie
//! anywhere, but [`read_user`] still reads only a regular file, bounded as
//! it is read: never a device or FIFO, whatever its metadata length says.
//!
//! Every refusal is one [`Refusal`]: the path as written, what it is or
//! where it leads, exit 2 through [`Refusal::fatal`], and nothing of the
//! file's content.

use crate::exit::Fatal;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

/// Why a path was not read or written.
#[derive(Debug)]
pub enum Why {
    /// It leads (through a link) to `to`, outside the catalog root.
    Outside { to: PathBuf },
    /// A link whose target does not exist: `to` as the link says.
    Dangling { to: PathBuf },
    /// It is not a regular file (`what`: "a FIFO", "a device", …).
    NotFile { what: &'static str },
    /// It is not a folder (`what`: "a regular file", …).
    NotFolder { what: &'static str },
    /// It holds more than `limit` bytes.
    TooLarge { limit: u64 },
    /// It exists already (a file that is never replaced).
    Exists,
    /// The system refused (permission, a full disk, …).
    Io(io::Error),
}

/// A refused path: the path as the user or catalog wrote it, and why.
#[derive(Debug)]
pub struct Refusal {
    pub shown: String,
    pub why: Why,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = &self.shown;
        match &self.why {
            Why::Outside { to } => write!(
                f,
                "{shown}: leads outside the catalog (to {}); it was not read or written",
                to.display()
            ),
            Why::Dangling { to } => write!(
                f,
                "{shown}: is a link to {}, which does not exist; it was not read or written",
                to.display()
            ),
            Why::NotFile { what } => write!(
                f,
                "{shown}: is {what}, not a regular file; it was not read or written"
            ),
            Why::NotFolder { what } => write!(
                f,
                "{shown}: is {what}, not a folder; nothing was written into it"
            ),
            Why::TooLarge { limit } => {
                write!(f, "{shown}: is larger than {limit} bytes; it was not read")
            }
            Why::Exists => write!(f, "{shown}: exists already; it was not replaced"),
            Why::Io(e) => write!(f, "{shown}: {e}"),
        }
    }
}

impl Refusal {
    fn new(shown: &Path, why: Why) -> Refusal {
        Refusal {
            shown: shown.display().to_string(),
            why,
        }
    }

    /// Exit 2, with what to do.
    pub fn fatal(self) -> Fatal {
        let help = match &self.why {
            Why::Outside { .. } | Why::Dangling { .. } => Some(
                "replace the link with the file or folder itself: skillsift reads and writes only inside the catalog",
            ),
            Why::NotFile { .. } | Why::NotFolder { .. } => Some(
                "skillsift reads and writes only regular files and folders: replace it with one, or remove it",
            ),
            Why::TooLarge { .. } => Some("make it smaller, or split it"),
            Why::Exists => Some("edit it, or move it away to start over"),
            Why::Io(_) => None,
        };
        let fatal = Fatal::usage(self.to_string());
        match help {
            Some(h) => fatal.with_help(h),
            None => fatal,
        }
    }
}

/// What a file of this type is, in a message ("a FIFO", "a device", …).
pub fn file_kind(ft: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_block_device() || ft.is_char_device() {
            return "a device";
        }
    }
    if ft.is_dir() {
        "a folder"
    } else if ft.is_symlink() {
        "a link"
    } else if ft.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// Open `path` for reading without waiting on a FIFO or following a final
/// link (`follow`: a user's path may be a link), and check it is a regular
/// file.
fn open_regular(path: &Path, shown: &Path, follow: bool) -> Result<File, Refusal> {
    let mut opts = OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK;
        if !follow {
            flags |= libc::O_NOFOLLOW;
        }
        opts.custom_flags(flags);
    }
    let f = opts.open(path).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return Refusal::new(shown, Why::NotFile { what: "a link" });
        }
        Refusal::new(shown, Why::Io(e))
    })?;
    let meta = f.metadata().map_err(|e| Refusal::new(shown, Why::Io(e)))?;
    if !meta.is_file() {
        return Err(Refusal::new(
            shown,
            Why::NotFile {
                what: file_kind(meta.file_type()),
            },
        ));
    }
    Ok(f)
}

/// Read at most `limit` bytes of an open regular file.
fn read_limited(f: File, shown: &Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    let hint = f.metadata().map_or(0, |m| m.len()).min(limit) as usize;
    let mut buf = Vec::with_capacity(hint + 1);
    f.take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Refusal::new(shown, Why::Io(e)))?;
    if buf.len() as u64 > limit {
        return Err(Refusal::new(shown, Why::TooLarge { limit }));
    }
    Ok(buf)
}

/// A file the user named: anywhere, through links, but a regular file of
/// at most `limit` bytes.
pub fn read_user(path: &Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    let f = open_regular(path, path, true)?;
    read_limited(f, path, limit)
}

/// A catalog root, resolved once: every path of the catalog's is read and
/// written through it.
#[derive(Debug, Clone)]
pub struct Root {
    /// The root as the user wrote it (messages show paths under it).
    shown: PathBuf,
    /// Its canonical path.
    real: PathBuf,
}

impl Root {
    /// `root` is the user's (a link to it is followed); it must exist.
    pub fn new(root: &Path) -> Result<Root, Refusal> {
        let real = root
            .canonicalize()
            .map_err(|e| Refusal::new(root, Why::Io(e)))?;
        Ok(Root {
            shown: root.to_path_buf(),
            real,
        })
    }

    /// The canonical root.
    pub fn real(&self) -> &Path {
        &self.real
    }

    /// `rel` as shown in messages (under the root as the user wrote it).
    pub fn shown(&self, rel: &Path) -> PathBuf {
        self.shown.join(rel)
    }

    /// `rel` (relative, no `..`) or a refusal.
    fn checked_rel<'a>(&self, rel: &'a Path) -> Result<&'a Path, Refusal> {
        if rel
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        {
            Ok(rel)
        } else {
            Err(Refusal::new(
                &self.shown(rel),
                Why::Outside {
                    to: self.real.join(rel),
                },
            ))
        }
    }

    /// Where `rel` really is: `Ok(None)` when nothing is there, a refusal
    /// when it leads outside the root or through a dangling link.
    pub fn resolve(&self, rel: &Path) -> Result<Option<PathBuf>, Refusal> {
        let rel = self.checked_rel(rel)?;
        let shown = self.shown(rel);
        let joined = self.real.join(rel);
        match joined.canonicalize() {
            Ok(real) if real.starts_with(&self.real) => Ok(Some(real)),
            Ok(real) => Err(Refusal::new(&shown, Why::Outside { to: real })),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // Nothing there, or a link (the path's own or a folder's
                // on the way) to nothing.
                let mut at = self.real.clone();
                for c in rel.components() {
                    at.push(c);
                    match std::fs::symlink_metadata(&at) {
                        Err(_) => return Ok(None),
                        Ok(m) if m.file_type().is_symlink() && at.canonicalize().is_err() => {
                            let to = std::fs::read_link(&at).unwrap_or_default();
                            return Err(Refusal::new(&shown, Why::Dangling { to }));
                        }
                        Ok(_) => {}
                    }
                }
                Ok(None)
            }
            Err(e) => Err(Refusal::new(&shown, Why::Io(e))),
        }
    }

    /// The bytes of the regular file `rel`, at most `limit` of them;
    /// `Ok(None)` when nothing is there.
    pub fn read(&self, rel: &Path, limit: u64) -> Result<Option<Vec<u8>>, Refusal> {
        let shown = self.shown(rel);
        let Some(real) = self.resolve(rel)? else {
            return Ok(None);
        };
        let f = open_regular(&real, &shown, false)?;
        read_limited(f, &shown, limit).map(Some)
    }

    /// Make the folder `rel` and every folder on the way, one component at
    /// a time: an existing component must be a folder inside the root (a
    /// link to one inside is followed); a new one is made with `mkdir` and
    /// checked. Returns its real path.
    pub fn create_dirs(&self, rel: &Path) -> Result<PathBuf, Refusal> {
        self.walk_dirs(rel, true)
    }

    /// What [`Root::create_dirs`] would refuse, without making anything
    /// (for a dry run): every component that exists must be a folder
    /// inside the root.
    pub fn check_dirs(&self, rel: &Path) -> Result<(), Refusal> {
        self.walk_dirs(rel, false).map(|_| ())
    }

    fn walk_dirs(&self, rel: &Path, create: bool) -> Result<PathBuf, Refusal> {
        let rel = self.checked_rel(rel)?;
        let mut real = self.real.clone();
        let mut written = PathBuf::new();
        for c in rel.components() {
            if matches!(c, Component::CurDir) {
                continue;
            }
            written.push(c);
            let shown = self.shown(&written);
            let next = real.join(c);
            match std::fs::symlink_metadata(&next) {
                Ok(m) if m.is_dir() => real = next,
                Ok(m) if m.file_type().is_symlink() => {
                    let to = match next.canonicalize() {
                        Ok(to) => to,
                        Err(_) => {
                            let to = std::fs::read_link(&next).unwrap_or_default();
                            return Err(Refusal::new(&shown, Why::Dangling { to }));
                        }
                    };
                    if !to.starts_with(&self.real) {
                        return Err(Refusal::new(&shown, Why::Outside { to }));
                    }
                    let m = std::fs::metadata(&to).map_err(|e| Refusal::new(&shown, Why::Io(e)))?;
                    if !m.is_dir() {
                        return Err(Refusal::new(
                            &shown,
                            Why::NotFolder {
                                what: file_kind(m.file_type()),
                            },
                        ));
                    }
                    real = to;
                }
                Ok(m) => {
                    return Err(Refusal::new(
                        &shown,
                        Why::NotFolder {
                            what: file_kind(m.file_type()),
                        },
                    ));
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound && !create => {
                    return Ok(next);
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    match std::fs::create_dir(&next) {
                        Ok(()) => {}
                        // made meanwhile: checked below like any other
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                        Err(e) => return Err(Refusal::new(&shown, Why::Io(e))),
                    }
                    let m = std::fs::symlink_metadata(&next)
                        .map_err(|e| Refusal::new(&shown, Why::Io(e)))?;
                    if !m.is_dir() {
                        return Err(Refusal::new(
                            &shown,
                            Why::NotFolder {
                                what: file_kind(m.file_type()),
                            },
                        ));
                    }
                    real = next;
                }
                Err(e) => return Err(Refusal::new(&shown, Why::Io(e))),
            }
        }
        Ok(real)
    }

    /// Write `bytes` to the file `rel`, making its folders as
    /// [`Root::create_dirs`] does; `new_only`: never replace a file. A
    /// link in the file's place is refused, never written through.
    pub fn write(&self, rel: &Path, bytes: &[u8], new_only: bool) -> Result<PathBuf, Refusal> {
        let rel = self.checked_rel(rel)?;
        let shown = self.shown(rel);
        let (parent, name) = match (rel.parent(), rel.file_name()) {
            (Some(p), Some(n)) => (p, n),
            _ => {
                return Err(Refusal::new(
                    &shown,
                    Why::NotFile {
                        what: "the catalog folder",
                    },
                ));
            }
        };
        let dir = self.create_dirs(parent)?;
        let path = dir.join(name);
        let mut opts = OpenOptions::new();
        opts.write(true);
        if new_only {
            opts.create_new(true);
        } else {
            opts.create(true).truncate(false);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        let mut f = opts.open(&path).map_err(|e| {
            if e.kind() == io::ErrorKind::AlreadyExists {
                return Refusal::new(&shown, Why::Exists);
            }
            #[cfg(unix)]
            if e.raw_os_error() == Some(libc::ELOOP) {
                return Refusal::new(&shown, Why::NotFile { what: "a link" });
            }
            #[cfg(unix)]
            if e.raw_os_error() == Some(libc::ENXIO) {
                return Refusal::new(&shown, Why::NotFile { what: "a FIFO" });
            }
            Refusal::new(&shown, Why::Io(e))
        })?;
        let meta = f.metadata().map_err(|e| Refusal::new(&shown, Why::Io(e)))?;
        if !meta.is_file() {
            return Err(Refusal::new(
                &shown,
                Why::NotFile {
                    what: file_kind(meta.file_type()),
                },
            ));
        }
        f.set_len(0)
            .and_then(|()| f.write_all(bytes))
            .and_then(|()| f.sync_all())
            .map_err(|e| Refusal::new(&shown, Why::Io(e)))?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> (tempfile::TempDir, tempfile::TempDir, Root) {
        let cat = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let r = Root::new(cat.path()).unwrap();
        (cat, outside, r)
    }

    #[cfg(unix)]
    fn link(to: &Path, at: &Path) {
        std::os::unix::fs::symlink(to, at).unwrap();
    }

    #[test]
    fn a_file_inside_is_read_and_one_absent_is_none() {
        let (cat, _o, r) = root();
        std::fs::write(cat.path().join("a.toml"), "x = 1").unwrap();
        assert_eq!(r.read(Path::new("a.toml"), 100).unwrap().unwrap(), b"x = 1");
        assert!(r.read(Path::new("b.toml"), 100).unwrap().is_none());
        let big = r.read(Path::new("a.toml"), 2).unwrap_err();
        assert!(matches!(big.why, Why::TooLarge { limit: 2 }), "{big}");
    }

    #[cfg(unix)]
    #[test]
    fn links_out_dangling_links_fifos_and_devices_are_refused_without_their_content() {
        let (cat, out, r) = root();
        std::fs::write(out.path().join("secret"), "SECRET").unwrap();
        link(&out.path().join("secret"), &cat.path().join("out.toml"));
        link(Path::new("/dev/zero"), &cat.path().join("zero.toml"));
        link(
            &out.path().join("nothing"),
            &cat.path().join("dangling.toml"),
        );
        let fifo = std::ffi::CString::new(cat.path().join("fifo.toml").to_str().unwrap()).unwrap();
        // SAFETY: a valid C string naming a path in a folder of ours.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        for (name, want) in [
            ("out.toml", "leads outside the catalog"),
            ("zero.toml", "leads outside the catalog"),
            ("dangling.toml", "which does not exist"),
            ("fifo.toml", "is a FIFO, not a regular file"),
        ] {
            let e = r.read(Path::new(name), 1 << 20).unwrap_err();
            let msg = e.to_string();
            assert!(msg.contains(want), "{name}: {msg}");
            assert!(!msg.contains("SECRET"), "{msg}");
            assert_eq!(e.fatal().exit, crate::exit::Exit::Usage);
        }
        // a link that stays inside is followed
        std::fs::write(cat.path().join("real.toml"), "ok").unwrap();
        link(Path::new("real.toml"), &cat.path().join("alias.toml"));
        assert_eq!(r.read(Path::new("alias.toml"), 10).unwrap().unwrap(), b"ok");
        // `..` never leaves
        assert!(r.read(Path::new("../x"), 10).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn folders_are_made_one_component_at_a_time_and_never_through_a_link_out() {
        let (cat, out, r) = root();
        std::fs::create_dir(cat.path().join("evals")).unwrap();
        link(out.path(), &cat.path().join("evals/results"));
        let e = r
            .create_dirs(Path::new("evals/results/s/iteration-1"))
            .unwrap_err();
        assert!(
            e.to_string().contains("evals/results: leads outside"),
            "{e}"
        );
        assert_eq!(
            std::fs::read_dir(out.path()).unwrap().count(),
            0,
            "nothing made outside"
        );
        // a link inside is followed
        std::fs::create_dir(cat.path().join("store")).unwrap();
        link(Path::new("store"), &cat.path().join("kept"));
        let made = r.create_dirs(Path::new("kept/a/b")).unwrap();
        assert!(
            made.starts_with(r.real().join("store")),
            "{}",
            made.display()
        );
        // a file in the way
        std::fs::write(cat.path().join("file"), "").unwrap();
        let e = r.create_dirs(Path::new("file/x")).unwrap_err();
        assert!(
            e.to_string().contains("is a regular file, not a folder"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_write_never_goes_through_a_link_and_new_only_never_replaces() {
        let (cat, out, r) = root();
        std::fs::write(out.path().join("target"), "outside").unwrap();
        link(&out.path().join("target"), &cat.path().join("w.json"));
        let e = r.write(Path::new("w.json"), b"x", false).unwrap_err();
        assert!(e.to_string().contains("is a link"), "{e}");
        assert_eq!(
            std::fs::read(out.path().join("target")).unwrap(),
            b"outside"
        );
        r.write(Path::new("d/n.json"), b"one", true).unwrap();
        let e = r.write(Path::new("d/n.json"), b"two", true).unwrap_err();
        assert!(matches!(e.why, Why::Exists), "{e}");
        r.write(Path::new("d/n.json"), b"2", false).unwrap();
        assert_eq!(std::fs::read(cat.path().join("d/n.json")).unwrap(), b"2");
    }

    #[cfg(unix)]
    #[test]
    fn a_users_file_may_be_a_link_anywhere_but_never_a_device_or_fifo() {
        let out = tempfile::tempdir().unwrap();
        std::fs::write(out.path().join("c.toml"), "a").unwrap();
        link(&out.path().join("c.toml"), &out.path().join("l.toml"));
        assert_eq!(read_user(&out.path().join("l.toml"), 10).unwrap(), b"a");
        let e = read_user(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("is a device"), "{e}");
    }
}
