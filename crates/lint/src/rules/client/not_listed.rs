//! SG609: a client other than Claude Code does not list the skill.

use crate::rule;

rule! {
    /// ## What it does
    /// Warns when Codex, Gemini CLI or opencode (whichever `[lint] clients`
    /// names, or `[route] client`) leaves a skill out of the listing its
    /// model sees: no frontmatter it can find (a BOM, a blank first line, a
    /// block never closed), YAML its parser refuses (a key written twice
    /// for Codex), a `name` or `description` it drops, a name over its
    /// limit, a folder it does not search, or another skill of the same
    /// name listed instead. The message names the reason and which other
    /// modelled clients do list the skill.
    ///
    /// ## Why is this bad?
    /// The model of that client can never pick the skill: its trigger
    /// prompts cannot fire there, whatever Tier 2 says for another client.
    /// Claude Code's own reading has its rules (SG600–SG608); a listing over
    /// budget is SG520.
    pub static NOT_LISTED = ("SG609", "not-listed-by-client", Warning, "a client other than Claude Code does not list the skill");
}
