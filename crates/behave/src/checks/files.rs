//! `file_exists`, `file_absent`, `file_contains`, `file_matches`: the
//! workspace after the run. A path is resolved inside the workspace only:
//! `..` and absolute paths are refused when the eval is read (SG434), and a
//! symlink (anywhere on the path) that leads out of the workspace fails
//! the check without reading what it points at.

use super::{MAX_READ, Verdict};
use crate::catalog::cases::Check;
use crate::catalog::cases::expectation::{compile, path_problem};
use std::path::{Path, PathBuf};

/// What is at a workspace path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Nothing,
    /// A symlink whose target does not exist (inside the workspace).
    DanglingLink,
    /// A path that resolves outside the workspace (through a symlink).
    Outside(PathBuf),
    Folder,
    /// A regular file, resolved, of this many bytes.
    File(PathBuf, u64),
    /// A FIFO, socket or device.
    Special,
}

/// Resolve `rel` inside `workspace`.
pub fn locate(workspace: &Path, rel: &str) -> Result<Found, String> {
    if let Some(why) = path_problem(rel) {
        return Ok(Found::Outside(PathBuf::from(format!("{rel} ({why})"))));
    }
    let root = workspace
        .canonicalize()
        .map_err(|e| format!("the workspace cannot be read: {e}"))?;
    let p = root.join(rel);
    match p.canonicalize() {
        Ok(real) if !real.starts_with(&root) => Ok(Found::Outside(real)),
        Ok(real) => {
            let meta = std::fs::metadata(&real).map_err(|e| e.to_string())?;
            if meta.is_dir() {
                Ok(Found::Folder)
            } else if meta.is_file() {
                Ok(Found::File(real, meta.len()))
            } else {
                Ok(Found::Special)
            }
        }
        Err(_) => {
            // a link on the way (or at the end) may lead out of the
            // workspace to something that does not exist
            if let Some(out) = escaping_link(&root, rel) {
                return Ok(Found::Outside(out));
            }
            match std::fs::symlink_metadata(&p) {
                Ok(m) if m.file_type().is_symlink() => Ok(Found::DanglingLink),
                _ => Ok(Found::Nothing),
            }
        }
    }
}

/// The first symlink on `rel` whose target resolves (lexically) outside
/// `root`.
fn escaping_link(root: &Path, rel: &str) -> Option<PathBuf> {
    let mut at = root.to_path_buf();
    for part in Path::new(rel).components() {
        at.push(part);
        let Ok(m) = std::fs::symlink_metadata(&at) else {
            return None;
        };
        if m.file_type().is_symlink() {
            let target = std::fs::read_link(&at).ok()?;
            let joined = at.parent()?.join(&target);
            let mut norm = PathBuf::new();
            for c in joined.components() {
                match c {
                    std::path::Component::ParentDir => {
                        norm.pop();
                    }
                    std::path::Component::CurDir => {}
                    c => norm.push(c),
                }
            }
            if !norm.starts_with(root) {
                return Some(norm);
            }
        }
    }
    None
}

fn outside(rel: &str, real: &Path) -> Verdict {
    Verdict::new(
        false,
        format!(
            "`{rel}` leads outside the workspace (to {}); it was not read",
            real.display()
        ),
    )
}

/// Run a file check.
pub fn run(check: &Check, workspace: &Path) -> Verdict {
    let (rel, want) = match check {
        Check::FileExists { path } | Check::FileAbsent { path } => (path, None),
        Check::FileContains { path, .. } | Check::FileMatches { path, .. } => (path, Some(check)),
        _ => unreachable!("files::run is called for file checks"),
    };
    let found = match locate(workspace, rel) {
        Ok(f) => f,
        Err(e) => return Verdict::new(false, e),
    };
    match (check, found) {
        (_, Found::Outside(real)) => outside(rel, &real),
        (Check::FileExists { .. }, Found::Nothing) => {
            Verdict::new(false, format!("`{rel}` does not exist"))
        }
        (Check::FileExists { .. }, Found::DanglingLink) => {
            Verdict::new(false, format!("`{rel}` is a symlink to nothing"))
        }
        (Check::FileExists { .. }, Found::Folder) => {
            Verdict::new(true, format!("`{rel}` exists (a folder)"))
        }
        (Check::FileExists { .. }, Found::File(_, n)) => {
            Verdict::new(true, format!("`{rel}` exists ({n} bytes)"))
        }
        (Check::FileExists { .. }, Found::Special) => {
            Verdict::new(true, format!("`{rel}` exists (a FIFO, socket or device)"))
        }
        (Check::FileAbsent { .. }, Found::Nothing) => {
            Verdict::new(true, format!("nothing exists at `{rel}`"))
        }
        (Check::FileAbsent { .. }, f) => Verdict::new(
            false,
            format!(
                "`{rel}` exists ({})",
                match f {
                    Found::DanglingLink => "a symlink to nothing".to_string(),
                    Found::Folder => "a folder".into(),
                    Found::File(_, n) => format!("{n} bytes"),
                    _ => "a FIFO, socket or device".into(),
                }
            ),
        ),
        (_, Found::Nothing | Found::DanglingLink) => {
            Verdict::new(false, format!("`{rel}` does not exist"))
        }
        (_, Found::Folder) => Verdict::new(false, format!("`{rel}` is a folder, not a file")),
        (_, Found::Special) => Verdict::new(
            false,
            format!("`{rel}` is not a regular file (a FIFO, socket or device); not read"),
        ),
        (_, Found::File(real, n)) => {
            let bytes = match crate::catalog::read_bounded(&real, MAX_READ) {
                Ok(Some(b)) => b,
                Ok(None) => {
                    return Verdict::new(
                        false,
                        format!(
                            "`{rel}` is {n} bytes, more than the {MAX_READ} a check reads; it cannot be verified"
                        ),
                    );
                }
                Err(e) => return Verdict::new(false, format!("`{rel}` cannot be read: {e}")),
            };
            match want {
                Some(Check::FileContains { value: text, .. }) => {
                    match memchr::memmem::find(&bytes, text.as_bytes()) {
                        Some(at) => {
                            Verdict::new(true, format!("`{rel}` contains `{text}` at byte {at}"))
                        }
                        None => Verdict::new(
                            false,
                            format!("`{rel}` ({n} bytes) does not contain `{text}`"),
                        ),
                    }
                }
                Some(Check::FileMatches { regex, .. }) => match compile(regex) {
                    Err(e) => Verdict::new(false, format!("the expression does not compile: {e}")),
                    Ok(re) => match re.find(&bytes) {
                        Some(m) => Verdict::new(
                            true,
                            format!(
                                "`{rel}` matches /{regex}/ at byte {}: `{}`",
                                m.start(),
                                String::from_utf8_lossy(&m.as_bytes()[..m.len().min(200)])
                            ),
                        ),
                        None => Verdict::new(
                            false,
                            format!("`{rel}` ({n} bytes) has no match for /{regex}/"),
                        ),
                    },
                },
                _ => unreachable!("only content checks read the file"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn ws() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("src")).unwrap();
        std::fs::write(d.path().join("src/a.js"), "total = 42;\n").unwrap();
        d
    }

    #[test]
    fn links_out_of_the_workspace_are_never_followed() {
        let d = ws();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s3cret").unwrap();
        symlink(outside.path().join("secret"), d.path().join("leak")).unwrap();
        symlink(outside.path(), d.path().join("out")).unwrap();
        symlink("/nonexistent/x", d.path().join("dangling-out")).unwrap();
        symlink("src/a.js", d.path().join("inside")).unwrap();
        for rel in ["leak", "out/secret", "dangling-out", "out/missing"] {
            for c in [
                Check::FileContains {
                    path: rel.into(),
                    value: "s3cret".into(),
                },
                Check::FileExists { path: rel.into() },
                Check::FileAbsent { path: rel.into() },
            ] {
                let v = run(&c, d.path());
                assert!(!v.passed, "{rel} {c:?}: {v:?}");
                assert!(v.evidence.contains("outside the workspace"), "{v:?}");
                assert!(!v.evidence.contains("s3cret"));
            }
        }
        let v = run(
            &Check::FileContains {
                path: "inside".into(),
                value: "42".into(),
            },
            d.path(),
        );
        assert!(v.passed, "{v:?}");
    }

    #[test]
    fn each_file_check_passes_and_fails() {
        let d = ws();
        let p = |c: Check| run(&c, d.path()).passed;
        assert!(p(Check::FileExists {
            path: "src/a.js".into()
        }));
        assert!(p(Check::FileExists { path: "src".into() }));
        assert!(!p(Check::FileExists {
            path: "src/b.js".into()
        }));
        assert!(p(Check::FileAbsent {
            path: "src/b.js".into()
        }));
        assert!(!p(Check::FileAbsent {
            path: "src/a.js".into()
        }));
        assert!(p(Check::FileContains {
            path: "src/a.js".into(),
            value: "= 42".into()
        }));
        assert!(!p(Check::FileContains {
            path: "src/a.js".into(),
            value: "43".into()
        }));
        assert!(p(Check::FileMatches {
            path: "src/a.js".into(),
            regex: r"total = \d+;".into()
        }));
        assert!(!p(Check::FileMatches {
            path: "src/a.js".into(),
            regex: r"^\d+$".into()
        }));
        assert!(!p(Check::FileContains {
            path: "src".into(),
            value: "x".into()
        }));
    }

    #[test]
    fn a_fifo_is_not_opened_for_reading() {
        let d = ws();
        let fifo = d.path().join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let v = run(
            &Check::FileContains {
                path: "pipe".into(),
                value: "x".into(),
            },
            d.path(),
        );
        assert!(!v.passed);
        assert!(v.evidence.contains("not a regular file"), "{v:?}");
    }
}
