//! What Claude Code (2.1.197) does with the values of its own frontmatter
//! keys, read from the CLI's code (`cli.js` inside `bin/claude.exe` of
//! `@anthropic-ai/claude-code@2.1.197`) and, where a run can show it,
//! checked against the real CLI (`tests/real_claude_keys.rs`: the tools
//! offered, the agents, `hooks` dropped, a skill nobody can run). The Tier 1
//! rules SG610–SG616 report from these facts.
//!
//! - `context`: `executionContext: e.context==="fork"?"fork":void 0`; any
//!   other value is dropped and the skill runs inline.
//! - `agent`: `String(e.agent)`, read only when the skill forks: the agent
//!   is `activeAgents.find(a => a.agentType === agent)`, else
//!   `general-purpose` (exact, case-sensitive names).
//! - `hooks`: parsed with a schema whose keys are [`HOOK_EVENTS`]; when it
//!   fails (one unknown event, or a malformed entry), the whole `hooks`
//!   value is dropped with a `--debug` line `Invalid hooks in skill '…'`.
//! - `model`: a string, trimmed; `inherit` is the session's model; the
//!   aliases [`MODEL_ALIASES`] resolve (case-insensitively, `[1m]` allowed);
//!   anything else is kept as the model id (unless an `availableModels`
//!   allowlist excludes it). A non-string is ignored. (Code only: a `-p`
//!   run did not show the skill's model on the following request.)
//! - `allowed-tools`: a string, or the strings of a list, split at commas
//!   and spaces outside parentheses; each entry is a permission rule
//!   `Tool` or `Tool(content)`, its tool name mapped through
//!   [`TOOL_ALIASES`]; a rule naming no tool matches nothing.
//! - `disable-model-invocation`: `true` or `"true"`; `user-invocable`:
//!   absent means true, else only `true` or `"true"` is true.

use super::js::Value;

/// The hook events Claude Code 2.1.197 knows (`u1`), in its order.
pub const HOOK_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "MessageDisplay",
];

/// The tool names Claude Code 2.1.197 defines, and those it expects to be
/// absent from some sessions (`Glob` and `Grep` when search is built into
/// `Bash`; `TeamCreate`, `TeamDelete`, `Frame`, `FrameRead`,
/// `SuggestBackgroundPR`, `WebBrowser`, `StructuredOutput`), sorted.
/// Which are offered depends on the session (`-p` offers no
/// `AskUserQuestion`, Windows offers `PowerShell`), but a permission rule
/// naming any of them is a rule about a real tool.
pub const TOOLS: &[&str] = &[
    "Agent",
    "AskUserQuestion",
    "Bash",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Frame",
    "FrameRead",
    "Glob",
    "Grep",
    "LSP",
    "ListAgents",
    "ListMcpResourcesTool",
    "Monitor",
    "NotebookEdit",
    "PowerShell",
    "Projects",
    "REPL",
    "Read",
    "ReadMcpResourceDirTool",
    "ReadMcpResourceTool",
    "RemoteTrigger",
    "ReportFindings",
    "ScheduleWakeup",
    "SendMessage",
    "SendUserFile",
    "SendUserMessage",
    "ShareOnboardingGuide",
    "ShowOnboardingRolePicker",
    "Skill",
    "StructuredOutput",
    "SuggestBackgroundPR",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TeamCreate",
    "TeamDelete",
    "TestingPermission",
    "TodoWrite",
    "ToolSearch",
    "WebBrowser",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
];

/// Former tool names a permission rule may still use, and the tool each
/// now means (`cPr`).
pub const TOOL_ALIASES: &[(&str, &str)] = &[
    ("Task", "Agent"),
    ("KillShell", "TaskStop"),
    ("KillBash", "TaskStop"),
    ("AgentOutputTool", "TaskOutput"),
    ("BashOutputTool", "TaskOutput"),
    ("AgentOutput", "TaskOutput"),
    ("BashOutput", "TaskOutput"),
    ("ListPeers", "ListAgents"),
    ("Brief", "SendUserMessage"),
    ("ListMcpResources", "ListMcpResourcesTool"),
    ("ReadMcpResource", "ReadMcpResourceTool"),
    ("ReadMcpResourceDir", "ReadMcpResourceDirTool"),
];

/// The model aliases Claude Code resolves (`Uye`, lowercase; `[1m]` may
/// follow), besides `inherit`.
pub const MODEL_ALIASES: &[&str] = &["sonnet", "opus", "haiku", "fable", "best", "opusplan"];

/// The built-in agents a forked skill may name (`general-purpose` always;
/// the others unless the session turns them off).
pub const BUILTIN_AGENTS: &[&str] = &[
    "general-purpose",
    "Explore",
    "Plan",
    "statusline-setup",
    "claude-code-guide",
    "claude",
];

/// `Yit`: `true` or `"true"`.
pub fn is_true(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Bool(true))) || matches!(v, Some(Value::String(s)) if s == "true")
}

/// The entries of `allowed-tools` as Claude Code splits them (`pfc`, `VN`).
pub fn allowed_tool_rules(v: &Value) -> Vec<String> {
    let items: Vec<&str> = match v {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items
            .iter()
            .filter_map(|i| match i {
                Value::String(s) => Some(s.as_str()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    for s in items {
        let (mut cur, mut paren) = (String::new(), false);
        for c in s.chars() {
            match c {
                '(' => {
                    paren = true;
                    cur.push(c)
                }
                ')' => {
                    paren = false;
                    cur.push(c)
                }
                ',' | ' ' if !paren => {
                    if !cur.trim().is_empty() {
                        out.push(cur.trim().to_string());
                    }
                    cur.clear();
                }
                c => cur.push(c),
            }
        }
        if !cur.trim().is_empty() {
            out.push(cur.trim().to_string());
        }
    }
    out
}

/// The tool a permission rule names (`Ig`): the text before a `(` when the
/// rule ends with `)`, else the whole rule.
pub fn rule_tool(rule: &str) -> &str {
    match (rule.find('('), rule.ends_with(')')) {
        (Some(i), true) if i > 0 => &rule[..i],
        _ => rule,
    }
}

/// Whether Claude Code has the tool `name` (directly or by a former name);
/// `*` and MCP tools (`mcp__server__tool`) are taken as known.
pub fn is_known_tool(name: &str) -> bool {
    name == "*"
        || name.starts_with("mcp__")
        || TOOLS.contains(&name)
        || TOOL_ALIASES.iter().any(|(a, _)| *a == name)
}

/// Whether `model` is a value Claude Code can use: an alias, `inherit`, or
/// what looks like a Claude model id (any provider's spelling holds
/// `claude`; a Bedrock ARN is taken as one).
pub fn is_usable_model(model: &str) -> bool {
    let m = model.trim().to_lowercase();
    let base = m.trim_end_matches("[1m]");
    m == "inherit" || MODEL_ALIASES.contains(&base) || m.contains("claude") || m.starts_with("arn:")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_tools_split_like_the_cli() {
        let v = Value::String("Bash(git add:*), Read  Grep,mcp__gh__x".into());
        assert_eq!(
            allowed_tool_rules(&v),
            vec!["Bash(git add:*)", "Read", "Grep", "mcp__gh__x"]
        );
        let v = Value::Array(vec![Value::String("Read Write".into()), Value::Number(1.0)]);
        assert_eq!(allowed_tool_rules(&v), vec!["Read", "Write"]);
        assert_eq!(rule_tool("Bash(git:*)"), "Bash");
        assert_eq!(rule_tool("Bash("), "Bash(");
        assert!(is_known_tool("Task") && is_known_tool("mcp__a__b") && !is_known_tool("bash"));
        assert!(!is_known_tool("MultiEdit") && !is_known_tool("LS"));
    }

    #[test]
    fn models() {
        for m in [
            "sonnet",
            "Opus",
            "opus[1m]",
            "inherit",
            "claude-sonnet-4-5",
            "us.anthropic.claude-3-7-sonnet-v1:0",
        ] {
            assert!(is_usable_model(m), "{m}");
        }
        for m in ["gpt-4o", "gemini-2.5-pro", "sonnet-4", "default", "o3"] {
            assert!(!is_usable_model(m), "{m}");
        }
    }
}
