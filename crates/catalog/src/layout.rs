//! Where skills and units are found: the folder names and layouts that
//! both the walk ([`crate::discover`]) and the units users install
//! ([`crate::units`]) read, kept here so that neither module reaches into
//! the other for them.

/// Folder names never descended into.
pub const SKIP_DIRS: &[&str] = &[".git", "node_modules", "target"];

/// The project skills folders of the clients skillsift stands in for
/// (Claude Code, Codex, Copilot, Gemini CLI, opencode), relative to the
/// catalog root. Next to a `skills/` folder they are skills roots too.
pub const CLIENT_ROOTS: &[&str] = &[
    ".agents/skills",
    ".claude/skills",
    ".codex/skills",
    ".gemini/skills",
    ".github/skills",
    ".opencode/skill",
    ".opencode/skills",
];

/// Plugins keep their skills in `plugins/<plugin>/skills/`.
pub const PLUGINS_DIR: &str = "plugins";

/// APM packs keep theirs in `packs/<pack>/.apm/skills/`.
pub const PACKS_DIR: &str = "packs";

/// Join a root-relative prefix and a name with `/`.
pub fn join_rel(prefix: &str, name: &str) -> String {
    if prefix.is_empty() || prefix == "." {
        name.to_string()
    } else {
        format!("{prefix}/{name}")
    }
}
