//! SG613: `hooks` with an event Claude Code does not know.

use crate::rule;

rule! {
    /// ## What it does
    /// Warns about a key of a skill's `hooks` mapping that is not one of the
    /// hook events of Claude Code 2.1.197, and about a `hooks` that is not a
    /// mapping. The CLI parses `hooks` with a schema whose keys are its
    /// event names; when that fails, it drops the **whole** `hooks` block
    /// (`Invalid hooks in skill '…'`, shown only with `--debug`). The
    /// events it knows:
    /// `PreToolUse`, `PostToolUse`, `PostToolUseFailure`, `PostToolBatch`,
    /// `Notification`, `UserPromptSubmit`, `UserPromptExpansion`,
    /// `SessionStart`, `SessionEnd`, `Stop`, `StopFailure`,
    /// `SubagentStart`, `SubagentStop`, `PreCompact`, `PostCompact`,
    /// `PermissionRequest`, `PermissionDenied`, `Setup`, `TeammateIdle`,
    /// `TaskCreated`, `TaskCompleted`, `Elicitation`, `ElicitationResult`,
    /// `ConfigChange`, `WorktreeCreate`, `WorktreeRemove`,
    /// `InstructionsLoaded`, `CwdChanged`, `FileChanged`, `MessageDisplay`.
    /// Names are case-sensitive.
    ///
    /// ## Why is this bad?
    /// One misspelt event (`preToolUse`, `BeforeTool`) silently disables
    /// every hook of the skill, the correct ones too: a guard the skill
    /// relies on never runs.
    ///
    /// ## Example
    /// ```yaml
    /// hooks:
    ///   PreToolUse:
    ///     - matcher: Bash
    ///       hooks:
    ///         - type: command
    ///           command: ./scripts/guard.sh
    /// ```
    pub static UNKNOWN_HOOK_EVENT = ("SG613", "unknown-hook-event", Warning, "`hooks` names an event Claude Code does not know, which drops the whole block");
}
