//! SG612: a forked skill's `agent` names no agent.

use crate::rule;

rule! {
    /// ## What it does
    /// Warns when a skill with `context: fork` names an `agent` that is
    /// neither one of Claude Code 2.1.197's built-in agents
    /// (`general-purpose`, `Explore`, `Plan`, `statusline-setup`,
    /// `claude-code-guide`, `claude`) nor an agent of the project's
    /// `.claude/agents/` (by its frontmatter `name`; at the catalog root and
    /// beside each `.claude/skills/`). Plugin agents (`plugin:agent`) are
    /// not checked. When a single skill is checked, its project is not
    /// known: only a name no agent file can have is reported then (a
    /// built-in's name in another case, or anything but lowercase letters,
    /// digits and hyphens). Names match exactly: the CLI runs
    /// `activeAgents.find(a => a.agentType === agent)` and, when nothing
    /// matches, forks the skill with `general-purpose`, silently.
    ///
    /// ## Why is this bad?
    /// `agent: explore` (lowercase) or a renamed agent runs the skill with
    /// the general-purpose agent: other tools, another model, none of the
    /// agent's instructions. A personal agent in `~/.claude/agents/` is
    /// found on the author's machine only.
    ///
    /// ## Example
    /// ```yaml
    /// context: fork
    /// agent: Explore
    /// ```
    pub static UNKNOWN_AGENT = ("SG612", "unknown-agent", Warning, "a forked skill's `agent` names no agent Claude Code has");
}
