//! Unsaved editor buffers that stand in for their files (`skillsift lsp`):
//! while a set is installed, every read of a file through this crate
//! ([`crate::read_file`], [`crate::read_text`], [`crate::read_bounded`])
//! returns the buffer's text instead of the bytes on disk. The walk still
//! finds files on disk: a buffer stands in for a file that exists, and a
//! new, never saved file is not part of the catalog until it is.
//!
//! Keys are absolute paths with symlinks resolved, as the walk of a
//! catalog whose root was given that way builds them. Nothing is written.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

/// Texts by path.
pub type Texts = HashMap<PathBuf, Arc<str>>;

/// Whether a set is installed: the one atomic load a read pays when none
/// is (every `check` but the language server's).
static ACTIVE: AtomicBool = AtomicBool::new(false);
static TEXTS: RwLock<Option<Arc<Texts>>> = RwLock::new(None);

/// Install `texts` (replacing any set before); an empty set removes it.
pub fn set(texts: Texts) {
    let mut slot = TEXTS.write().unwrap_or_else(|e| e.into_inner());
    ACTIVE.store(!texts.is_empty(), Ordering::Release);
    *slot = (!texts.is_empty()).then(|| Arc::new(texts));
}

/// The buffer standing in for `path`, when one does.
pub fn get(path: &Path) -> Option<Arc<str>> {
    if !ACTIVE.load(Ordering::Acquire) {
        return None;
    }
    let slot = TEXTS.read().unwrap_or_else(|e| e.into_inner());
    slot.as_ref()?.get(path).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_stands_in_for_its_file_until_removed() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("SKILL.md");
        std::fs::write(&p, "on disk").unwrap();
        set(Texts::from([(p.clone(), Arc::from("unsaved"))]));
        assert_eq!(
            crate::read_file(&p, 100, false).unwrap().as_deref(),
            Some(&b"unsaved"[..])
        );
        assert_eq!(
            crate::read_file(&p, 3, false).unwrap(),
            None,
            "the limit holds"
        );
        set(Texts::new());
        assert_eq!(
            crate::read_file(&p, 100, false).unwrap().as_deref(),
            Some(&b"on disk"[..])
        );
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "on disk");
    }
}
