//! The ids every layer shares: the clients whose reading is modelled
//! ([`ClientId`]), the agent CLIs Tier 3 drives ([`AgentKind`]) and the
//! output formats ([`Format`]).

use serde::{Deserialize, Serialize};

/// The clients skillsift can model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ClientId {
    /// The Agent Skills specification, read strictly.
    Spec,
    /// Claude Code (tested with 2.1.197).
    #[serde(alias = "claude")]
    ClaudeCode,
    /// Codex CLI (tested with 0.171.0).
    Codex,
    /// Gemini CLI (tested with 0.61.0).
    #[serde(alias = "gemini")]
    GeminiCli,
    /// opencode (tested with 1.18.33).
    Opencode,
}

impl ClientId {
    pub const CLIENTS: [ClientId; 4] = [
        ClientId::ClaudeCode,
        ClientId::Codex,
        ClientId::GeminiCli,
        ClientId::Opencode,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ClientId::Spec => "spec",
            ClientId::ClaudeCode => "claude-code",
            ClientId::Codex => "codex",
            ClientId::GeminiCli => "gemini-cli",
            ClientId::Opencode => "opencode",
        }
    }

    /// A human name for messages.
    pub fn label(self) -> &'static str {
        match self {
            ClientId::Spec => "the specification",
            ClientId::ClaudeCode => "Claude Code",
            ClientId::Codex => "Codex",
            ClientId::GeminiCli => "Gemini CLI",
            ClientId::Opencode => "opencode",
        }
    }

    /// The agent client that lists skills this way (`None`: the
    /// specification).
    pub fn agent(self) -> Option<AgentKind> {
        match self {
            ClientId::Spec => None,
            ClientId::ClaudeCode => Some(AgentKind::Claude),
            ClientId::Codex => Some(AgentKind::Codex),
            ClientId::GeminiCli => Some(AgentKind::Gemini),
            ClientId::Opencode => Some(AgentKind::Opencode),
        }
    }

    /// Why a skill is not routed, after "N skills": the strict reading
    /// needs a name and a description, a client lists what it lists.
    pub fn unlisted(self) -> String {
        match self {
            ClientId::Spec => "without a readable name or description".into(),
            c => format!("that {} does not list", c.label()),
        }
    }
}

impl std::fmt::Display for ClientId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The agent clients Tier 3 drives (`--agent`, `[behave] agent`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum AgentKind {
    /// Claude Code (`claude -p`).
    Claude,
    /// Codex CLI (`codex exec`).
    Codex,
    /// Gemini CLI (`gemini -p`).
    Gemini,
    /// opencode (`opencode run`).
    Opencode,
}

impl AgentKind {
    pub const ALL: [AgentKind; 4] = [
        AgentKind::Claude,
        AgentKind::Codex,
        AgentKind::Gemini,
        AgentKind::Opencode,
    ];

    /// Its id in `plan.json`, `run.json` and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            AgentKind::Claude => "claude",
            AgentKind::Codex => "codex",
            AgentKind::Gemini => "gemini",
            AgentKind::Opencode => "opencode",
        }
    }

    /// The client model of its listing.
    pub fn client(self) -> ClientId {
        match self {
            AgentKind::Claude => ClientId::ClaudeCode,
            AgentKind::Codex => ClientId::Codex,
            AgentKind::Gemini => ClientId::GeminiCli,
            AgentKind::Opencode => ClientId::Opencode,
        }
    }

    /// Whether its stream says which tool calls the permission system
    /// refused (what `tool_refused` reads). Codex, Gemini CLI and opencode
    /// report a refusal only as a failed tool call, which cannot be told
    /// from any other failure.
    pub fn reports_denials(self) -> bool {
        matches!(self, AgentKind::Claude)
    }

    /// Whether its stream tells how many model turns a run took (what
    /// `max_turns` reads): Gemini CLI's `result` line has no turn count.
    pub fn reports_turns(self) -> bool {
        !matches!(self, AgentKind::Gemini)
    }

    /// Parse `claude,codex` (one or more ids, comma separated).
    pub fn parse_list(s: &str) -> Result<Vec<AgentKind>, String> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim) {
            let k = AgentKind::ALL
                .into_iter()
                .find(|k| k.as_str() == part)
                .ok_or_else(|| {
                    format!(
                        "`{part}` is not an agent client; use {}",
                        AgentKind::ALL
                            .iter()
                            .map(|k| k.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?;
            if out.contains(&k) {
                return Err(format!("`{part}` is named twice"));
            }
            out.push(k);
        }
        Ok(out)
    }
}

impl std::fmt::Display for AgentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The output formats; each command accepts the ones it can write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
    Github,
    Sarif,
    Junit,
}

impl Format {
    /// Its name on the command line (`--format NAME`).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Human => "human",
            Format::Json => "json",
            Format::Github => "github",
            Format::Sarif => "sarif",
            Format::Junit => "junit",
        }
    }
}
