//! SG610: a `context` other than `fork`.

use crate::rule;

rule! {
    /// ## What it does
    /// Warns about a `context` value other than the string `fork`.
    /// Claude Code 2.1.197 reads the key as
    /// `executionContext: e.context==="fork"?"fork":void 0`: only `fork`
    /// (exactly, lowercase) runs the skill in a forked sub-agent; any other
    /// value (`Fork`, `forked`, `subagent`, `isolated`, `inline`, `true`)
    /// is dropped without a message and the skill runs inline, in the
    /// conversation.
    ///
    /// ## Why is this bad?
    /// An author who wrote `context: isolated` expects the skill to run
    /// apart from the conversation, with its own context window; it runs
    /// inline, and an `agent` beside it is never used (SG611).
    ///
    /// ## Example
    /// ```yaml
    /// context: fork
    /// ```
    /// or no `context` at all for an inline skill.
    pub static CONTEXT_NOT_FORK = ("SG610", "context-not-fork", Warning, "Claude Code ignores a `context` other than `fork`");
}
