//! SG605: the skill folder is nested deeper than Claude Code looks.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a skill whose folder is more than one level below its skills
    /// root (`skills/<group>/<name>/SKILL.md`): Claude Code reads only
    /// `<skills dir>/<folder>/SKILL.md`.
    ///
    /// ## Why is this bad?
    /// Installed as it is, the skill is never found. skillsift and clients
    /// that search nested folders (Codex, opencode) accept it.
    pub static TOO_DEEP = ("SG605", "skill-nested-too-deep", Warning, "Claude Code does not find a skill folder this deep");
}
