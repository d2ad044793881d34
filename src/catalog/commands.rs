//! Slash-command files: `.claude/commands/*.md`, `.gemini/commands/*.toml`,
//! `commands/*.toml`.

use super::source::Source;
use crate::diag::Diagnostic;
use std::path::Path;
use std::sync::Arc;

/// One command file.
#[derive(Debug, Clone)]
pub struct CommandFile {
    /// Path relative to the catalog root.
    pub file: String,
    /// Command name (file stem).
    pub name: String,
    pub source: Arc<Source>,
}

/// The three command folders; `None` when a folder does not exist.
#[derive(Debug, Clone, Default)]
pub struct Commands {
    pub claude: Option<Vec<CommandFile>>,
    pub gemini: Option<Vec<CommandFile>>,
    pub plain: Option<Vec<CommandFile>>,
}

impl Commands {
    pub fn all(&self) -> impl Iterator<Item = &CommandFile> {
        [&self.claude, &self.gemini, &self.plain]
            .into_iter()
            .flatten()
            .flatten()
    }
}

/// Load the command folders under `root`.
pub fn load_all(root: &Path) -> (Commands, Vec<Diagnostic>) {
    let _ = root;
    (Commands::default(), Vec::new())
}
