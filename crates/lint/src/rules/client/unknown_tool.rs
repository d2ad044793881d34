//! SG615: `allowed-tools` naming a tool Claude Code does not have.

use crate::rule;

rule! {
    /// ## What it does
    /// Warns about an entry of `allowed-tools` whose tool Claude Code
    /// 2.1.197 does not have. The CLI splits a string (or each string of a
    /// list) at commas and spaces outside parentheses; each entry is a
    /// permission rule, `Tool` or `Tool(content)`, that pre-approves that
    /// tool while the skill runs. Tool names are case-sensitive. The tools
    /// of that version (with those it knows a session may lack):
    /// `Agent`, `AskUserQuestion`, `Bash`, `CronCreate`, `CronDelete`,
    /// `CronList`, `Edit`, `EnterPlanMode`, `EnterWorktree`, `ExitPlanMode`,
    /// `ExitWorktree`, `Frame`, `FrameRead`, `Glob`, `Grep`, `LSP`,
    /// `ListAgents`, `ListMcpResourcesTool`, `Monitor`, `NotebookEdit`,
    /// `PowerShell`, `Projects`, `REPL`, `Read`, `ReadMcpResourceDirTool`,
    /// `ReadMcpResourceTool`, `RemoteTrigger`, `ReportFindings`,
    /// `ScheduleWakeup`, `SendMessage`, `SendUserFile`, `SendUserMessage`,
    /// `ShareOnboardingGuide`, `ShowOnboardingRolePicker`, `Skill`,
    /// `StructuredOutput`, `SuggestBackgroundPR`, `TaskCreate`, `TaskGet`,
    /// `TaskList`, `TaskOutput`, `TaskStop`, `TaskUpdate`, `TeamCreate`,
    /// `TeamDelete`, `TestingPermission`, `TodoWrite`, `ToolSearch`,
    /// `WebBrowser`, `WebFetch`, `WebSearch`, `Workflow`, `Write`; and the former names
    /// it still maps: `Task` (`Agent`), `KillShell`, `KillBash`
    /// (`TaskStop`), `AgentOutputTool`, `BashOutputTool`, `AgentOutput`,
    /// `BashOutput` (`TaskOutput`), `ListPeers` (`ListAgents`), `Brief`
    /// (`SendUserMessage`), `ListMcpResources`, `ReadMcpResource`,
    /// `ReadMcpResourceDir`. MCP tools (`mcp__server__tool`) and `*` are
    /// not checked.
    ///
    /// ## Why is this bad?
    /// A rule naming no tool pre-approves nothing, silently: `bash`,
    /// `MultiEdit` or `LS` (tools of older versions) leave the agent
    /// asking for permission, or stopping in a non-interactive run.
    ///
    /// ## Example
    /// ```yaml
    /// allowed-tools: Bash(git status:*) Read Grep
    /// ```
    pub static UNKNOWN_TOOL = ("SG615", "unknown-allowed-tool", Warning, "`allowed-tools` names a tool Claude Code does not have");
}
