//! SG601: Claude Code drops the whole frontmatter.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a SKILL.md whose frontmatter Claude Code ignores as a whole:
    /// the file starts with a byte order mark or a blank line (its
    /// frontmatter must start at byte 0), the block is never closed, the
    /// YAML fails to parse even after Claude Code's retry (values with
    /// `: ` quoted, leading tabs turned into spaces), or it is not a
    /// mapping.
    ///
    /// ## Why is this bad?
    /// Claude Code still lists the skill, silently, with the body's first
    /// line as its description; `disable-model-invocation`, `when_to_use`
    /// and every other key are lost.
    pub static DROPPED = ("SG601", "frontmatter-dropped", Warning, "Claude Code ignores the whole frontmatter");
}
