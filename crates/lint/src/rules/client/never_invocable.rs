//! SG616: neither the user nor the model can run the skill.

use crate::rule;

rule! {
    /// ## What it does
    /// Warns about a skill with `disable-model-invocation: true` whose
    /// `user-invocable` Claude Code 2.1.197 reads as false. The CLI keeps
    /// such a skill out of the model's listing and refuses its `Skill`
    /// tool call (`cannot be used with Skill tool due to
    /// disable-model-invocation`), and answers a typed `/<name>` with
    /// `This skill can only be invoked by Claude, not directly by users.`
    /// `user-invocable` is true only when absent, `true` or `"true"`:
    /// `user-invocable: "yes"` is false too.
    ///
    /// ## Why is this bad?
    /// Nobody can ever run the skill: it ships, and does nothing.
    ///
    /// ## Example
    /// A slash-command-only skill:
    /// ```yaml
    /// disable-model-invocation: true
    /// ```
    /// (without `user-invocable: false`).
    pub static NEVER_INVOCABLE = ("SG616", "never-invocable", Warning, "neither the user nor the model can run the skill in Claude Code");
}
