//! The tested skill: its name and its fingerprint.
//!
//! **The skill hash** (`skill_sha256`, the one definition used by
//! `plan.json`, `benchmark.json` and the scorer's report, where `dir_sha256`
//! is its older name) covers what an agent is given: every regular file of
//! the skill folder except those under its top-level `evals/` folder (test
//! material, never installed). It is the SHA-256 of, for each such file in
//! ascending byte order of its `/`-separated relative path: the path's UTF-8
//! bytes, one 0x00 byte, one byte `x` when any execute bit is set or `-`
//! when none is, the file's length as 8 bytes big-endian, then its bytes.
//! Folders contribute only through the files they hold. A symbolic link,
//! device, FIFO or socket in the hashed part is refused, as is a file name
//! that is not UTF-8. [`SkillHash`] computes it; Tier 3 feeds it the files
//! it installs, the scorer the files on disk.
//!
//! `skill_md_sha256` is the SHA-256 of SKILL.md's bytes.

use super::input::hex;
use crate::catalog::skill as skill_md;
use crate::exit::Fatal;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Most files hashed in one skill folder.
pub const MAX_FILES: usize = 10_000;
/// Most bytes hashed in one skill folder (100 MB).
pub const MAX_BYTES: u64 = 100_000_000;
/// Largest SKILL.md read for its name (as `[catalog] max-file-bytes`).
pub const MAX_SKILL_MD: u64 = 1024 * 1024;
/// Deepest folder nesting followed.
const MAX_DEPTH: usize = 32;

/// The top-level folder left out of the skill hash.
pub const EVALS_DIR: &str = "evals";

/// The skill hash, fed one file at a time in ascending byte order of the
/// relative paths (see the module documentation).
#[derive(Default)]
pub struct SkillHash(Sha256);

impl SkillHash {
    /// Start the next file: its relative path, whether it is executable,
    /// its length. Its bytes follow through [`SkillHash::bytes`].
    pub fn file(&mut self, rel: &str, executable: bool, len: u64) {
        self.0.update(rel.as_bytes());
        self.0.update([0u8, if executable { b'x' } else { b'-' }]);
        self.0.update(len.to_be_bytes());
    }

    pub fn bytes(&mut self, b: &[u8]) {
        self.0.update(b);
    }

    /// The hash, as lowercase hex.
    pub fn finish(self) -> String {
        hex(&self.0.finalize())
    }
}

/// Whether a relative path is left out of the skill hash.
pub fn unhashed(rel: &str) -> bool {
    rel == EVALS_DIR || rel.starts_with("evals/")
}

/// The skill's identity at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// SKILL.md `name`, else the folder's name.
    pub name: String,
    pub skill_md_sha256: String,
    /// The skill hash.
    pub skill_sha256: String,
    pub files: usize,
}

/// Read the skill folder: its name and both hashes.
pub fn snapshot(dir: &Path) -> Result<Snapshot, Fatal> {
    let shown = dir.display();
    let meta = std::fs::metadata(dir).map_err(|e| {
        Fatal::usage(format!("{shown}: cannot read the skill folder: {e}"))
            .with_help("pass --skill the folder that holds the tested SKILL.md")
    })?;
    if !meta.is_dir() {
        return Err(Fatal::usage(format!("{shown}: is not a folder"))
            .with_help("pass --skill the folder that holds SKILL.md, not the file"));
    }
    let skill_md = dir.join("SKILL.md");
    match std::fs::symlink_metadata(&skill_md) {
        Ok(m) if m.is_file() => {}
        Ok(_) => {
            return Err(Fatal::usage(format!(
                "{}: is not a regular file",
                skill_md.display()
            )));
        }
        Err(_) => {
            return Err(Fatal::usage(format!("{shown}: has no SKILL.md"))
                .with_help("pass --skill the folder that holds the tested SKILL.md"));
        }
    }
    let mut files = Vec::new();
    walk(dir, "", 0, &mut files)?;
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    if files.len() > MAX_FILES {
        return Err(Fatal::usage(format!(
            "{shown}: more than {MAX_FILES} files in the skill folder"
        )));
    }
    let mut dir_hash = SkillHash::default();
    let mut total = 0u64;
    let mut skill_md_sha256 = String::new();
    let mut skill_md_bytes = Vec::new();
    for (rel, path) in &files {
        let f = std::fs::File::open(path)
            .map_err(|e| Fatal::usage(format!("{}: cannot read: {e}", path.display())))?;
        let meta = f
            .metadata()
            .map_err(|e| Fatal::usage(format!("{}: cannot read: {e}", path.display())))?;
        let len = meta.len();
        total += len;
        if total > MAX_BYTES {
            return Err(Fatal::usage(format!(
                "{shown}: the skill folder holds more than {MAX_BYTES} bytes"
            )));
        }
        let mut file_hash = Sha256::new();
        dir_hash.file(rel, executable(&meta), len);
        let keep = rel == "SKILL.md";
        let mut read = 0u64;
        let mut buf = [0u8; 64 * 1024];
        let mut r = f.take(len + 1);
        loop {
            let n = r
                .read(&mut buf)
                .map_err(|e| Fatal::usage(format!("{}: cannot read: {e}", path.display())))?;
            if n == 0 {
                break;
            }
            read += n as u64;
            dir_hash.bytes(&buf[..n]);
            if keep {
                file_hash.update(&buf[..n]);
                if skill_md_bytes.len() as u64 <= MAX_SKILL_MD {
                    skill_md_bytes.extend_from_slice(&buf[..n]);
                }
            }
        }
        if read != len {
            return Err(changed(dir));
        }
        if keep {
            skill_md_sha256 = hex(&file_hash.finalize());
        }
    }
    let name = skill_name(dir, &skill_md_bytes)?;
    Ok(Snapshot {
        name,
        skill_md_sha256,
        skill_sha256: dir_hash.finish(),
        files: files.len(),
    })
}

/// The refusal when the folder changes while it is read or scored.
pub fn changed(dir: &Path) -> Fatal {
    Fatal::usage(format!(
        "{}: the skill folder changed while scoring; the evidence cannot be tied to one version of the skill",
        dir.display()
    ))
    .with_help("score again once nothing is writing to the skill folder")
}

fn executable(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

fn walk(
    dir: &Path,
    rel: &str,
    depth: usize,
    files: &mut Vec<(String, PathBuf)>,
) -> Result<(), Fatal> {
    if depth > MAX_DEPTH {
        return Err(Fatal::usage(format!(
            "{}: folders nested deeper than {MAX_DEPTH} levels",
            dir.display()
        )));
    }
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Fatal::usage(format!("{}: cannot list: {e}", dir.display())))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| Fatal::usage(format!("{}: cannot list: {e}", dir.display())))?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            return Err(
                Fatal::usage(format!("{}: file name is not UTF-8", path.display()))
                    .with_help("rename the file; skill folders are hashed by their UTF-8 paths"),
            );
        };
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if unhashed(&child) {
            continue;
        }
        let ft = entry
            .file_type()
            .map_err(|e| Fatal::usage(format!("{}: cannot read: {e}", path.display())))?;
        if ft.is_symlink() {
            return Err(Fatal::usage(format!(
                "{}: symbolic link in the skill folder",
                path.display()
            ))
            .with_help("replace the link with the file it points to; a link's target can change without the skill changing"));
        }
        if ft.is_dir() {
            walk(&path, &child, depth + 1, files)?;
        } else if ft.is_file() {
            files.push((child, path));
            if files.len() > MAX_FILES {
                return Err(Fatal::usage(format!(
                    "{}: more than {MAX_FILES} files in the skill folder",
                    dir.display()
                )));
            }
        } else {
            return Err(
                Fatal::usage(format!("{}: not a regular file or folder", path.display()))
                    .with_help("remove devices, FIFOs and sockets from the skill folder"),
            );
        }
    }
    Ok(())
}

/// A SKILL.md's non-empty frontmatter `name`, trimmed.
pub fn frontmatter_name(bytes: &[u8]) -> Option<String> {
    if bytes.len() as u64 > MAX_SKILL_MD {
        return None;
    }
    let mut ignored = Vec::new();
    let (src, start) = skill_md::decode("SKILL.md", bytes.to_vec(), &mut ignored);
    let (fm, _) = skill_md::parse_frontmatter("SKILL.md", &src, start, &mut ignored);
    let name = fm.as_ref()?.str("name")?.value.trim().to_string();
    (!name.is_empty()).then_some(name)
}

/// SKILL.md's `name` when it has a non-empty one, else the folder's name.
fn skill_name(dir: &Path, bytes: &[u8]) -> Result<String, Fatal> {
    if let Some(name) = frontmatter_name(bytes) {
        return Ok(name);
    }
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    canonical
        .file_name()
        .and_then(|n| n.to_str())
        .map(str::to_string)
        .ok_or_else(|| {
            Fatal::usage(format!(
                "{}: SKILL.md has no `name` and the folder has no usable name",
                dir.display()
            ))
            .with_help("add `name:` to the frontmatter of SKILL.md")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn hashes_paths_and_bytes_in_path_order() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("my-skill");
        write(
            &d,
            "SKILL.md",
            "---\nname: refund-policy\ndescription: x\n---\nbody\n",
        );
        write(&d, "a/b.md", "B");
        write(&d, "a.txt", "A");
        let s = snapshot(&d).unwrap();
        assert_eq!(s.name, "refund-policy");
        assert_eq!(s.files, 3);
        let mut h = Sha256::new();
        let skill = b"---\nname: refund-policy\ndescription: x\n---\nbody\n";
        // "SKILL.md" < "a.txt" < "a/b.md" in byte order ('.' < '/').
        for (rel, bytes) in [("SKILL.md", &skill[..]), ("a.txt", b"A"), ("a/b.md", b"B")] {
            h.update(rel.as_bytes());
            h.update([0u8, b'-']);
            h.update((bytes.len() as u64).to_be_bytes());
            h.update(bytes);
        }
        assert_eq!(s.skill_sha256, hex(&h.finalize()));
        assert_eq!(s.skill_md_sha256, hex(&Sha256::digest(skill)));
    }

    #[test]
    fn any_byte_or_rename_changes_the_folder_hash() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        write(&d, "SKILL.md", "---\nname: s\ndescription: x\n---\n");
        write(&d, "ref.md", "one");
        let a = snapshot(&d).unwrap();
        write(&d, "ref.md", "two");
        let b = snapshot(&d).unwrap();
        std::fs::rename(d.join("ref.md"), d.join("ref2.md")).unwrap();
        let c = snapshot(&d).unwrap();
        assert_ne!(a.skill_sha256, b.skill_sha256);
        assert_ne!(b.skill_sha256, c.skill_sha256);
        assert_eq!(a.skill_md_sha256, c.skill_md_sha256);
    }

    #[cfg(unix)]
    #[test]
    fn the_execute_bit_counts_and_the_evals_folder_does_not() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        write(&d, "SKILL.md", "---\nname: s\ndescription: x\n---\n");
        write(&d, "run.sh", "echo\n");
        let a = snapshot(&d).unwrap();
        std::fs::set_permissions(d.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let b = snapshot(&d).unwrap();
        assert_ne!(a.skill_sha256, b.skill_sha256);
        write(&d, "evals/evals.json", "[]");
        std::os::unix::fs::symlink("/etc/hostname", d.join("evals/link")).unwrap();
        let c = snapshot(&d).unwrap();
        assert_eq!(b.skill_sha256, c.skill_sha256, "evals/ is not hashed");
        assert_eq!(c.files, 2);
    }

    #[test]
    fn name_falls_back_to_the_folder() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("folder-name");
        write(&d, "SKILL.md", "no frontmatter\n");
        assert_eq!(snapshot(&d).unwrap().name, "folder-name");
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_refused() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        write(&d, "SKILL.md", "---\nname: s\ndescription: x\n---\n");
        std::os::unix::fs::symlink("/etc/hostname", d.join("link")).unwrap();
        let e = snapshot(&d).unwrap_err();
        assert!(e.message.contains("symbolic link"), "{}", e.message);
    }

    #[test]
    fn a_folder_without_skill_md_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let e = snapshot(t.path()).unwrap_err();
        assert!(e.message.contains("has no SKILL.md"), "{}", e.message);
    }
}
