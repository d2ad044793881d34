//! Eval fixtures: `files[]` entries resolved inside the folder they are
//! relative to (`evals/fixtures/` for case files, the skill folder for
//! skill-creator's `evals.json`), never outside it.

use super::FIXTURES_DIR;
use std::path::{Component, Path, PathBuf};

/// Why a fixture path in `files[]` cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureError {
    /// The path is empty.
    Empty,
    /// The path is absolute (`/x`, `\x`, `C:\x`).
    Absolute,
    /// The path has a `..` component.
    ParentComponent,
    /// Nothing exists at the path.
    NotFound,
    /// The path, or a symlink inside a fixture folder, resolves outside
    /// the folder it is relative to; `at` is the offending path relative
    /// to that folder.
    Escapes { at: String },
    /// The path names a `.git` file or folder, or a fixture folder holds
    /// one (`at`, relative to the folder fixtures are relative to): a
    /// repository's own configuration, which git obeys (hooks, an
    /// fsmonitor, filters) while the workspace is set up.
    GitDir { at: String },
    /// The fixture (or the fixtures folder) could not be read.
    Unreadable(String),
}

/// Whether `name` is `.git` as a case-insensitive file system reads it.
pub fn is_git_name(name: &str) -> bool {
    name.eq_ignore_ascii_case(".git")
}

/// Most entries walked inside one fixture folder while looking for
/// symlinks that point out of it.
const MAX_FIXTURE_ENTRIES: usize = 100_000;

/// Resolve `rel` (a `files[]` entry) against `ROOT/evals/fixtures/`,
/// refusing absolute paths, `..` components, and anything (the path itself,
/// or a symlink anywhere inside a fixture folder) that resolves outside the
/// fixtures folder. Returns the canonical path of the fixture.
///
/// Tier 1 reports the errors; Tier 3 must call this again right before it
/// copies a fixture, so a change after the check is still caught.
pub fn resolve_fixture(root: &Path, rel: &str) -> Result<PathBuf, FixtureError> {
    FixtureRoot::new(root).resolve(rel)
}

/// The folder fixture paths are relative to (`ROOT/evals/fixtures/`, or a
/// skill folder), canonicalized once for many [`resolve`] calls.
///
/// [`resolve`]: FixtureRoot::resolve
#[derive(Debug, Clone)]
pub struct FixtureRoot {
    base: Result<PathBuf, FixtureError>,
}

impl FixtureRoot {
    /// `ROOT/evals/fixtures/` of the catalog at `root`.
    pub fn new(root: &Path) -> FixtureRoot {
        FixtureRoot::at(&root.join(FIXTURES_DIR))
    }

    /// Any folder paths are relative to (a skill folder, for
    /// skill-creator's `evals.json`).
    pub fn at(dir: &Path) -> FixtureRoot {
        let base = match dir.canonicalize() {
            Ok(b) => Ok(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(FixtureError::NotFound),
            Err(e) => Err(FixtureError::Unreadable(e.to_string())),
        };
        FixtureRoot { base }
    }

    /// See [`resolve_fixture`].
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, FixtureError> {
        if rel.trim().is_empty() {
            return Err(FixtureError::Empty);
        }
        let b = rel.as_bytes();
        let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
        if rel.starts_with('/') || rel.starts_with('\\') || drive || Path::new(rel).is_absolute() {
            return Err(FixtureError::Absolute);
        }
        if rel.split(['/', '\\']).any(|c| c == "..") {
            return Err(FixtureError::ParentComponent);
        }
        if rel.contains('\0') {
            return Err(FixtureError::NotFound);
        }
        if rel.split(['/', '\\']).any(is_git_name) {
            return Err(FixtureError::GitDir { at: normalise(rel) });
        }
        let base = self.base.as_ref().map_err(Clone::clone)?;
        let joined = base.join(rel);
        if std::fs::symlink_metadata(&joined).is_err() {
            return Err(FixtureError::NotFound);
        }
        let real = match joined.canonicalize() {
            Ok(r) => r,
            // a dangling symlink
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(FixtureError::NotFound);
            }
            Err(e) => return Err(FixtureError::Unreadable(e.to_string())),
        };
        if !real.starts_with(base) {
            return Err(FixtureError::Escapes { at: normalise(rel) });
        }
        // a link inside the fixtures to a repository's own files
        if real
            .strip_prefix(base)
            .unwrap_or(&real)
            .components()
            .any(|c| is_git_name(&c.as_os_str().to_string_lossy()))
        {
            return Err(FixtureError::GitDir {
                at: shown(base, &real),
            });
        }
        if real.is_dir() {
            check_links_inside(base, &real)?;
        }
        Ok(real)
    }
}

/// `rel` with `.` components dropped and `/` separators.
fn normalise(rel: &str) -> String {
    Path::new(rel)
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Walk `dir` (not following links) and refuse any symlink that resolves
/// outside `base`, and any `.git` file or folder.
fn check_links_inside(base: &Path, dir: &Path) -> Result<(), FixtureError> {
    let mut stack = vec![dir.to_path_buf()];
    let mut seen = 0usize;
    while let Some(d) = stack.pop() {
        let rd = std::fs::read_dir(&d)
            .map_err(|e| FixtureError::Unreadable(format!("{}: {e}", shown(base, &d))))?;
        for entry in rd {
            let entry = entry.map_err(|e| FixtureError::Unreadable(e.to_string()))?;
            seen += 1;
            if seen > MAX_FIXTURE_ENTRIES {
                return Err(FixtureError::Unreadable(format!(
                    "more than {MAX_FIXTURE_ENTRIES} entries under {}",
                    shown(base, dir)
                )));
            }
            let path = entry.path();
            if is_git_name(&entry.file_name().to_string_lossy()) {
                return Err(FixtureError::GitDir {
                    at: shown(base, &path),
                });
            }
            let ft = entry
                .file_type()
                .map_err(|e| FixtureError::Unreadable(e.to_string()))?;
            if ft.is_symlink() {
                let inside = path.canonicalize().is_ok_and(|r| r.starts_with(base));
                if !inside {
                    return Err(FixtureError::Escapes {
                        at: shown(base, &path),
                    });
                }
            } else if ft.is_dir() {
                stack.push(path);
            }
        }
    }
    Ok(())
}

fn shown(base: &Path, p: &Path) -> String {
    p.strip_prefix(base)
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_paths_must_stay_inside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let fx = root.join(FIXTURES_DIR);
        std::fs::create_dir_all(fx.join("ok/sub")).unwrap();
        std::fs::write(fx.join("ok/sub/a.txt"), "a").unwrap();
        std::fs::write(root.join("secret"), "s").unwrap();
        assert!(resolve_fixture(root, "ok").is_ok());
        assert!(resolve_fixture(root, "./ok/sub/a.txt").is_ok());
        assert_eq!(resolve_fixture(root, ""), Err(FixtureError::Empty));
        assert_eq!(resolve_fixture(root, "/etc"), Err(FixtureError::Absolute));
        assert_eq!(resolve_fixture(root, "C:\\x"), Err(FixtureError::Absolute));
        assert_eq!(
            resolve_fixture(root, "ok/../../secret"),
            Err(FixtureError::ParentComponent)
        );
        assert_eq!(resolve_fixture(root, "nope"), Err(FixtureError::NotFound));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("secret"), fx.join("link")).unwrap();
            assert_eq!(
                resolve_fixture(root, "link"),
                Err(FixtureError::Escapes { at: "link".into() })
            );
            std::os::unix::fs::symlink(root.join("secret"), fx.join("ok/sub/out")).unwrap();
            assert_eq!(
                resolve_fixture(root, "ok"),
                Err(FixtureError::Escapes {
                    at: "ok/sub/out".into()
                })
            );
            std::fs::create_dir_all(fx.join("inner")).unwrap();
            std::os::unix::fs::symlink(fx.join("ok/sub/a.txt"), fx.join("inner/in")).unwrap();
            assert!(resolve_fixture(root, "inner").is_ok());
        }
    }
}
