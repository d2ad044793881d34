//! SG023: a SKILL.md with no frontmatter inside another skill's folder.

use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Notes, once per file, a `SKILL.md` that has no frontmatter and lies
    /// inside another skill's folder (`review/prepare/SKILL.md` beside
    /// `review/SKILL.md`), and reads it as one of that skill's files, not
    /// as a skill: it is not linted, listed or routed as one.
    ///
    /// ## Why is this bad?
    /// It is a document the outer skill links ("read prepare/SKILL.md"),
    /// not a skill: Claude Code and Gemini CLI never list a SKILL.md
    /// nested in another skill, and no client lists one without
    /// frontmatter. Nothing to fix unless it was meant as a skill: then
    /// move its folder out of the outer skill and give it a `name` and a
    /// `description`.
    pub static SUB_DOCUMENT = ("SG023", "nested-skill-document", Notice, "a SKILL.md without frontmatter inside another skill is a document of that skill");
}

/// The finding for `rel` (a SKILL.md) inside the skill folder `outer`.
pub fn finding(rel: &str, outer: &str) -> Diagnostic {
    SUB_DOCUMENT
        .diag(
            rel,
            format!(
                "`{rel}` has no frontmatter and sits inside the skill `{outer}/`: no client lists it, so skillsift reads it as a file of that skill, not as a skill"
            ),
        )
        .with_help("nothing to do for a document the outer skill links; to make it a skill, move its folder out and start it with `---`, `name:` and `description:`")
}
