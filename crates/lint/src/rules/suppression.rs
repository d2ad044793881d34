//! SG020, SG021: the inline suppressions of `crate::suppress`.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports an inline suppression (`# skillsift: ignore[SG201] reason`
    /// in the frontmatter) that matches no finding of its skill.
    ///
    /// ## Why is this bad?
    /// A suppression outliving its finding hides the next, unrelated
    /// finding of the same rule, and tells readers of the file something
    /// that is no longer true.
    ///
    /// ## Example
    /// ```yaml
    /// # skillsift: ignore[SG201] reference card   # the skill has a trigger now
    /// ```
    /// Remove the comment.
    pub static UNUSED_SUPPRESSION = ("SG020", "unused-suppression", Warning, "inline suppression matches no finding");
}

rule! {
    /// ## What it does
    /// Reports a malformed inline suppression: a `# skillsift:` comment that
    /// is not `ignore[RULE, …] reason`, names no rule or an unknown one
    /// (with the closest rule), or gives no reason. The help writes the
    /// suppression for the rules it names.
    ///
    /// ## Why is this bad?
    /// A suppression that does not say why leaves the next reader unable to
    /// tell a deliberate exception from a silenced bug; a malformed one
    /// suppresses nothing.
    ///
    /// ## Example
    /// ```yaml
    /// # skillsift: ignore[SG201]                       # no reason
    /// # skillsift: ignore[SG201] loaded by other skills  # works
    /// ```
    pub static INVALID_SUPPRESSION = ("SG021", "invalid-suppression", Error, "inline suppression is malformed or gives no reason");
}
