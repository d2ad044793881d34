//! SG307: `[commands] name-map` entries that pair no files.

use crate::catalog::commands::{Commands, Folder};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Warns about a `[commands] name-map` entry `a = "b"` when a Claude
    /// command folder exists without `a.md`, or TOML command folders exist
    /// and none holds `b.toml`.
    ///
    /// ## Why is this bad?
    /// A stale pairing (left after a rename) hides nothing today but pairs
    /// the wrong files the day a command with that name is added.
    pub static NAME_MAP = ("SG307", "name-map-unused", Warning, "a [commands] name-map entry pairs no files");
}

pub fn check(commands: &Commands, config: &Config, out: &mut Vec<Diagnostic>) {
    let has = |f: Folder, stem: &str| {
        commands
            .folder(f)
            .is_some_and(|cmds| cmds.iter().any(|c| c.name == stem))
    };
    let toml_dirs: Vec<Folder> = [Folder::Gemini, Folder::Plain]
        .into_iter()
        .filter(|f| commands.folder(*f).is_some())
        .collect();
    for (claude, toml) in &config.commands.name_map {
        let mut problems = Vec::new();
        if commands.claude.is_some() && !has(Folder::Claude, claude) {
            problems.push(format!("there is no `{}`", Folder::Claude.path_of(claude)));
        }
        if !toml_dirs.is_empty() && !toml_dirs.iter().any(|f| has(*f, toml)) {
            problems.push(format!("no TOML command folder holds `{toml}.toml`"));
        }
        if problems.is_empty() {
            continue;
        }
        out.push(
            NAME_MAP
                .diag(
                    "skillsift.toml",
                    format!(
                        "[commands] name-map pairs `{claude}` with `{toml}`, but {}",
                        problems.join(" and ")
                    ),
                )
                .with_help("remove the entry, or fix the names it pairs"),
        );
    }
}
