//! SG617: `allowed-tools` pre-approving every shell command.

use crate::rule;

rule! {
    /// ## What it does
    /// Warns about an `allowed-tools` entry that names a shell tool with no
    /// command pattern: `Bash`, `Bash(*)`, `Bash(:*)` (or `PowerShell`
    /// alike). Claude Code reads each entry as a permission rule; a shell
    /// tool without a pattern matches every command.
    ///
    /// ## Why is this bad?
    /// While the skill runs, the agent may run any shell command without
    /// asking: `rm -rf`, a `curl … | sh`, a push. A skill needs the few
    /// commands its instructions use, each written as a pattern.
    ///
    /// ## Example
    /// ```yaml
    /// allowed-tools: Bash Read
    /// ```
    /// Name the commands instead:
    /// ```yaml
    /// allowed-tools: Bash(git status:*) Bash(git diff:*) Read
    /// ```
    pub static UNSCOPED_SHELL = ("SG617", "unscoped-shell", Warning, "`allowed-tools` pre-approves every shell command");
}
