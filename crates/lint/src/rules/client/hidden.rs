//! SG604: the skill is not in Claude Code's listing.

use crate::rule;

rule! {
    /// ## What it does
    /// Notes a skill Claude Code keeps out of the model's listing:
    /// `disable-model-invocation: true` (or `"true"`), `paths:` naming a
    /// pattern (a conditional skill, listed only once a matching file is
    /// touched), or a SKILL.md over 1,000,000 bytes (skipped).
    ///
    /// ## Why is this bad?
    /// The model cannot choose the skill by itself; Tier 2 does not route
    /// it and its trigger prompts are not checked (SG507). When that is
    /// intended, this is only a note. For `disable-model-invocation: true`
    /// SG110 says it already (one cause, one finding): this note appears
    /// only when SG110 is turned off.
    pub static HIDDEN = ("SG604", "hidden-from-model", Notice, "Claude Code does not list the skill for the model");
}
