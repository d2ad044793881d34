//! SG611: `agent` on a skill that does not fork.

use crate::rule;

rule! {
    /// ## What it does
    /// Warns about an `agent` key on a skill without `context: fork`.
    /// Claude Code 2.1.197 reads `agent` (as `String(e.agent)`) only when it
    /// runs a forked skill (`c=e.agent??"general-purpose"`, then the agent
    /// of that type); an inline skill runs in the conversation and its
    /// `agent` is never used.
    ///
    /// ## Why is this bad?
    /// The skill runs without the agent's tools, model and instructions
    /// the author chose, and nothing says so.
    ///
    /// ## Example
    /// ```yaml
    /// context: fork
    /// agent: Explore
    /// ```
    pub static AGENT_WITHOUT_FORK = ("SG611", "agent-without-fork", Warning, "`agent` is never used without `context: fork`");
}
