//! `skillsift.toml`: every threshold, convention and path, with defaults.
//!
//! The file is optional; a missing key takes its default, an unknown key is a
//! configuration error (exit 2) so a typo never silently disables a check.

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
#[allow(clippy::single_component_path_imports)]
use base;
use base::{diag, exit};

use crate::diag::Severity;
use crate::exit::Fatal;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The whole configuration.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    pub catalog: CatalogConfig,
    pub lint: LintConfig,
    pub commands: CommandsConfig,
    pub cases: CasesConfig,
    pub route: RouteConfig,
    pub behave: BehaveConfig,
}

/// `[catalog]`: where skills are found.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct CatalogConfig {
    /// Folders (relative to the root) searched for SKILL.md. Default: `skills`
    /// when it exists, else the root itself.
    pub roots: Vec<String>,
    /// Globs (relative to the root) a SKILL.md path must match. Default: all.
    pub include: Vec<String>,
    /// Globs (relative to the root) that exclude a path.
    pub exclude: Vec<String>,
    /// Largest SKILL.md read, in bytes.
    pub max_file_bytes: u64,
    /// Largest case file read, in bytes.
    pub max_case_bytes: u64,
}

impl Default for CatalogConfig {
    fn default() -> Self {
        CatalogConfig {
            roots: Vec::new(),
            include: Vec::new(),
            exclude: Vec::new(),
            max_file_bytes: 1024 * 1024,
            max_case_bytes: 4 * 1024 * 1024,
        }
    }
}

/// A rule's configured level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Off,
    Notice,
    Warning,
    Error,
}

impl Level {
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Off => None,
            Level::Notice => Some(Severity::Notice),
            Level::Warning => Some(Severity::Warning),
            Level::Error => Some(Severity::Error),
        }
    }
}

/// An exemption from required sections; `reason` is mandatory.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Exemption {
    pub skill: String,
    /// Sections the skill may omit; empty means all required sections.
    #[serde(default)]
    pub sections: Vec<String>,
    pub reason: String,
}

/// A required section: one `## ` heading, or a list of equivalent headings
/// of which any one will do (`["Verification", "Checklist"]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum SectionSpec {
    One(String),
    AnyOf(Vec<String>),
}

impl SectionSpec {
    /// The accepted headings, without leading `#`s.
    pub fn names(&self) -> Vec<&str> {
        let all: &[String] = match self {
            SectionSpec::One(s) => std::slice::from_ref(s),
            SectionSpec::AnyOf(v) => v,
        };
        all.iter()
            .map(|s| s.trim_start_matches('#').trim())
            .collect()
    }

    /// The heading shown in messages (the first one).
    pub fn primary(&self) -> &str {
        self.names().first().copied().unwrap_or("")
    }
}

/// `[lint]`: the catalog's conventions and rule levels.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct LintConfig {
    /// Per-rule level overrides: `SG201 = "error"`, `SG203 = "off"`.
    pub rules: BTreeMap<String, Level>,
    /// `## ` sections every SKILL.md body must have (outside fenced code;
    /// compared ignoring case and repeated spaces). An entry may be a list
    /// of equivalent headings.
    pub required_sections: Vec<SectionSpec>,
    /// Skills allowed to omit required sections, each with a reason.
    pub exemptions: Vec<Exemption>,
    /// Body lines above which a skill is too long.
    pub line_budget: usize,
    /// Client-specific frontmatter keys accepted with a warning.
    pub client_keys: Vec<String>,
    /// Extra top-level keys accepted without any finding.
    pub allowed_keys: Vec<String>,
    /// The clients whose reading of each SKILL.md is checked (SG600–SG609).
    /// Unset: Claude Code and `[route] client`. Claude Code's own rules
    /// (SG600–SG608) run only when it is listed.
    pub clients: Option<Vec<crate::base::ClientId>>,
    /// Rules ignored in some skills: globs of skill folders (relative to
    /// the catalog root, or a bare folder name) to rule ids or names, as
    /// ruff's `per-file-ignores`: `"skills/legacy-*" = ["SG201"]`.
    pub per_skill_ignores: BTreeMap<String, Vec<String>>,
}

impl LintConfig {
    /// The clients linted, in order, given the client Tier 2 routes for.
    pub fn linted_clients(&self, route: crate::base::ClientId) -> Vec<crate::base::ClientId> {
        use crate::base::ClientId;
        let mut v = match &self.clients {
            Some(list) => list.clone(),
            None => vec![ClientId::ClaudeCode, route],
        };
        v.retain(|c| *c != ClientId::Spec);
        let mut seen = Vec::new();
        v.retain(|c| {
            let new = !seen.contains(c);
            seen.push(*c);
            new
        });
        v
    }
}

/// Claude Code's documented skill frontmatter extensions: the default
/// `[lint] client-keys`, and keys SG110 accepts silently when `[lint]
/// clients` lists Claude Code alone.
pub const CLAUDE_CODE_KEYS: &[&str] = &[
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "effort",
    "context",
    "agent",
    "hooks",
    "paths",
    "shell",
];

impl LintConfig {
    /// Whether `[lint] clients` is set to Claude Code alone: a catalog
    /// written for Claude Code, whose own keys are no finding there.
    pub fn claude_code_only(&self) -> bool {
        use crate::base::ClientId;
        self.clients.as_deref().is_some_and(|list| {
            list.contains(&ClientId::ClaudeCode)
                && list
                    .iter()
                    .all(|c| matches!(c, ClientId::ClaudeCode | ClientId::Spec))
        })
    }
}

impl Default for LintConfig {
    fn default() -> Self {
        LintConfig {
            rules: BTreeMap::new(),
            required_sections: Vec::new(),
            exemptions: Vec::new(),
            line_budget: 500,
            client_keys: CLAUDE_CODE_KEYS.iter().map(|s| s.to_string()).collect(),
            allowed_keys: Vec::new(),
            clients: None,
            per_skill_ignores: BTreeMap::new(),
        }
    }
}

/// `[commands]`: slash-command parity.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct CommandsConfig {
    /// Names that differ between folders on purpose: `plan = "planning"`
    /// means `.claude/commands/plan.md` pairs with `planning.toml`.
    pub name_map: BTreeMap<String, String>,
    /// Claude Code built-in command names a `.claude/commands/` file must
    /// not shadow. Setting it replaces the default list.
    pub builtins: Vec<String>,
}

impl Default for CommandsConfig {
    fn default() -> Self {
        CommandsConfig {
            name_map: BTreeMap::new(),
            builtins: [
                // Claude Code's documented built-in commands (checked
                // against its slash-command reference, 2026); aliases too
                "add-dir",
                "agents",
                "bashes",
                "branch",
                "btw",
                "bug",
                "clear",
                "compact",
                "config",
                "context",
                "cost",
                "diff",
                "doctor",
                "effort",
                "exit",
                "export",
                "fast",
                "feedback",
                "fork",
                "help",
                "hooks",
                "ide",
                "init",
                "install-github-app",
                "login",
                "logout",
                "mcp",
                "memory",
                "model",
                "output-style",
                "permissions",
                "plugin",
                "pr-comments",
                "pr_comments",
                "privacy-settings",
                "quit",
                "recap",
                "release-notes",
                "rename",
                "resume",
                "review",
                "rewind",
                "sandbox",
                "security-review",
                "stats",
                "status",
                "statusline",
                "terminal-setup",
                "theme",
                "todos",
                "upgrade",
                "usage",
                "vim",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        }
    }
}

/// `[cases]`: where trigger prompts and evals are read from, and the
/// minimums each skill's cases must meet.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct CasesConfig {
    /// Fewest positive trigger prompts a skill's cases may hold (SG407).
    /// Unset: 3, and falling short is a warning; set, an error.
    pub min_positive: Option<usize>,
    /// Fewest negative trigger prompts a skill's cases may hold (SG407).
    /// Unset: 2, and falling short is a warning; set, an error.
    pub min_negative: Option<usize>,
    /// Fewest behavioral evals a skill's cases may hold (SG407). Unset:
    /// none. Behavioral evals are Tier 3's (`--behavioral`, which runs
    /// what there is); a catalog that requires them on every pull request
    /// sets this.
    pub min_evals: Option<usize>,
    /// Globs, relative to each skill folder, of more files to read as
    /// trigger sets (`[{"query", "should_trigger"}]`), e.g.
    /// `["tests/triggers.json"]`. A file matching one is a trigger set even
    /// when its shape is wrong (then SG418 says what is wrong).
    pub trigger_sets: Vec<String>,
    /// Globs, relative to each skill folder, of files never read as case
    /// sources, e.g. `["evals/benchmark.json"]`.
    pub ignore: Vec<String>,
    /// `[[cases.sources]]`: trigger tests in a shape no reader knows,
    /// declared: which files, where the records are and which fields hold
    /// the prompt, the skill and the side.
    pub sources: Vec<DeclaredSource>,
}

/// The data format of a declared case source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeclaredFormat {
    /// One JSON document.
    Json,
    /// One JSON value per line (blank lines and `//` comments skipped).
    Jsonl,
    /// One YAML document.
    Yaml,
    /// Comma-separated values with a header row naming the fields.
    Csv,
    /// Plain text: the whole file is one prompt (a folder of one prompt per
    /// file, the skill from `skill-path-part` or the folder holding it).
    /// No fields: every prompt is positive.
    Text,
    /// Markdown lists of quoted prompts under headings or markers that say
    /// should / should not (as found by shape); no fields.
    Markdown,
}

impl DeclaredFormat {
    /// Whether the format has records with fields to declare.
    pub fn has_fields(self) -> bool {
        !matches!(self, DeclaredFormat::Text | DeclaredFormat::Markdown)
    }
}

/// One `[[cases.sources]]` table.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DeclaredSource {
    /// The files, a glob relative to the catalog root: `*` and `?` stay
    /// within a folder, `**` crosses folders (`qa/routing/*.jsonl`,
    /// `tests/**/routing.yaml`). It must match at least one file.
    pub files: String,
    /// `json`, `jsonl`, `yaml`, `csv`, `text` or `markdown`.
    pub format: DeclaredFormat,
    /// Dotted path to the array of records (`data.routing`; a number picks
    /// an array item: `suites.0.cases`); empty: the document (each line of
    /// a JSONL file, each row of a CSV file) is the records.
    #[serde(default)]
    pub records: String,
    /// The field holding the prompt (dotted for a nested field); required
    /// but for `text` and `markdown`, which have no fields.
    #[serde(default)]
    pub prompt: String,
    /// The field naming the skill the prompt belongs to (a skill's `name`
    /// or folder, or a list of them); absent: the skill whose folder holds
    /// the file.
    #[serde(default)]
    pub skill: Option<String>,
    /// Which part of each file's path names the skill, counted from 0 at
    /// the catalog root (`evals/<skill>/prompts.csv`: 1; the file's own
    /// name counts by its stem, `prompts/<skill>.txt`: 1), for files that
    /// keep one skill's prompts each; the part must be a skill's `name` or
    /// folder. Instead of `skill`.
    #[serde(default)]
    pub skill_path_part: Option<usize>,
    /// A boolean field: true, the prompt should reach the skill; false, it
    /// should not. Absent: every record is positive.
    #[serde(default)]
    pub polarity: Option<String>,
    /// A value of the `skill` field meaning "no skill should take this
    /// prompt" (`"NONE"`): the record is a negative for every skill of
    /// the catalog.
    #[serde(default)]
    pub negative_when: Option<String>,
    /// A boolean field: false marks a prompt lexical routing cannot match
    /// (as `lexical` in a case file).
    #[serde(default)]
    pub lexical: Option<String>,
    /// A field holding `train`, `validation` or `fresh` (as `split` in a
    /// case file).
    #[serde(default)]
    pub split: Option<String>,
}

/// The trigger-prompt minimums a catalog meets unless it sets its own.
pub const DEFAULT_MIN_POSITIVE: usize = 3;
pub const DEFAULT_MIN_NEGATIVE: usize = 2;

impl CasesConfig {
    /// The fewest behavioral evals required: `min-evals`, else none.
    pub fn min_evals(&self) -> usize {
        self.min_evals.unwrap_or(0)
    }

    /// The fewest positive trigger prompts: `min-positive`, else 3.
    pub fn min_positive(&self) -> usize {
        self.min_positive.unwrap_or(DEFAULT_MIN_POSITIVE)
    }

    /// The fewest negative trigger prompts: `min-negative`, else 2.
    pub fn min_negative(&self) -> usize {
        self.min_negative.unwrap_or(DEFAULT_MIN_NEGATIVE)
    }
}

/// `[route]`: Tier 2.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct RouteConfig {
    /// Default `top_k` for positive prompts.
    pub top_k: usize,
    /// How many times a skill's name tokens count in its document.
    pub name_weight: u32,
    /// Cosine similarity at or above which two descriptions are an error.
    pub collision_error: f64,
    /// Cosine similarity at or above which two descriptions are a warning.
    pub collision_warning: f64,
    /// Snowball stemmer language for the catalog's words.
    pub language: String,
    /// Extra stop words.
    pub stop_words: Vec<String>,
    /// Rank-1 floor in percent, as `--min-rank1`.
    pub min_rank1: Option<f64>,
    /// Characters of the whole skill listing a client shows.
    pub listing_budget_chars: Option<usize>,
    /// Characters of one entry a client shows before cutting it.
    pub entry_cap_chars: Option<usize>,
    /// Whose listing Tier 2 routes: `claude-code`, `codex`, `gemini-cli`,
    /// `opencode` (what that client shows the model) or `spec` (the
    /// specification's strict reading).
    pub client: crate::base::ClientId,
    /// Rank the client's built-in skills (from `skillsift listing
    /// --capture`) as competitors of the catalog's.
    pub builtins: bool,
    /// Rank the project's slash commands the client lists beside the
    /// skills (Claude Code: `.claude/commands/**/*.md`) as competitors.
    pub commands: bool,
    /// Which plugins and packs are installed together, and so routed in
    /// one listing: each inner list is one installation, by unit name
    /// (`[["b2c", "b2c-cli"]]`); `[["*"]]` routes every unit and the
    /// catalog's own skills together. A unit named nowhere is routed alone.
    pub installed_together: Vec<Vec<String>>,
}

impl Default for RouteConfig {
    fn default() -> Self {
        RouteConfig {
            top_k: 3,
            name_weight: 2,
            collision_error: 0.75,
            collision_warning: 0.50,
            language: "english".into(),
            stop_words: Vec::new(),
            min_rank1: None,
            listing_budget_chars: None,
            entry_cap_chars: None,
            client: crate::base::ClientId::ClaudeCode,
            builtins: false,
            commands: false,
            installed_together: Vec::new(),
        }
    }
}

/// How the skill reaches the agent in `with` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum InstallMode {
    /// Copy into the client's project skills folder
    /// (`<workspace>/.claude/skills/<name>/` for Claude Code,
    /// `<workspace>/.agents/skills/<name>/` for the others; the default).
    Discover,
    /// Pass SKILL.md through `--append-system-prompt` (Claude Code only).
    AppendSystemPrompt,
}

/// One agent client or several (`agent = "codex"`, `agent = ["claude",
/// "codex"]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum AgentList {
    One(crate::base::AgentKind),
    Many(Vec<crate::base::AgentKind>),
}

impl AgentList {
    pub fn kinds(&self) -> Vec<crate::base::AgentKind> {
        match self {
            AgentList::One(k) => vec![*k],
            AgentList::Many(v) => v.clone(),
        }
    }
}

/// `[behave.codex]`: Codex CLI (`codex exec`).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct CodexConfig {
    /// The `codex` binary (a name searched in `PATH`, or a path).
    pub program: String,
    /// `-m` for the agent; none means the CLI's default model.
    pub model: Option<String>,
    /// `-m` for the grader; none means `model`.
    pub grader_model: Option<String>,
    /// `-s` for the agent: `workspace-write` (writes in the workspace only,
    /// `/tmp` and `$TMPDIR` excluded, no network) or `read-only`.
    pub sandbox: CodexSandbox,
    /// A Responses API endpoint to use instead of OpenAI's (a gateway, a
    /// proxy); skillsift declares it as the provider `skillsift` with
    /// `wire_api = "responses"`.
    pub base_url: Option<String>,
    /// The variable holding the key for `base-url`.
    pub env_key: String,
}

impl Default for CodexConfig {
    fn default() -> Self {
        CodexConfig {
            program: "codex".into(),
            model: None,
            grader_model: None,
            sandbox: CodexSandbox::WorkspaceWrite,
            base_url: None,
            env_key: "OPENAI_API_KEY".into(),
        }
    }
}

/// Codex's sandbox for agent runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CodexSandbox {
    WorkspaceWrite,
    ReadOnly,
}

impl CodexSandbox {
    pub fn as_str(self) -> &'static str {
        match self {
            CodexSandbox::WorkspaceWrite => "workspace-write",
            CodexSandbox::ReadOnly => "read-only",
        }
    }
}

/// `[behave.gemini]`: Gemini CLI (`gemini -p`).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct GeminiConfig {
    /// The `gemini` binary (a name searched in `PATH`, or a path).
    pub program: String,
    /// `-m` for the agent; none means the CLI's default (`auto`, which
    /// sends a router request with the prompt first).
    pub model: Option<String>,
    /// `-m` for the grader; none means `model`.
    pub grader_model: Option<String>,
    /// The tools the policy file allows (besides `activate_skill`, always
    /// allowed); every other tool is denied. `run_shell_command` is allowed
    /// only for `shell-commands`.
    pub allowed_tools: Vec<String>,
    /// Command prefixes `run_shell_command` may run (none: no shell).
    pub shell_commands: Vec<String>,
}

impl Default for GeminiConfig {
    fn default() -> Self {
        GeminiConfig {
            program: "gemini".into(),
            model: None,
            grader_model: None,
            allowed_tools: [
                "read_file",
                "list_directory",
                "glob",
                "grep_search",
                "write_file",
                "replace",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            shell_commands: Vec::new(),
        }
    }
}

/// `[behave.opencode]`: opencode (`opencode run`).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct OpencodeConfig {
    /// The `opencode` binary (a name searched in `PATH`, or a path).
    pub program: String,
    /// `provider/model` for the agent; none means opencode's default.
    pub model: Option<String>,
    /// `provider/model` for the grader; none means `model`.
    pub grader_model: Option<String>,
    /// Allow `edit`/`write` (inside the workspace: `external_directory` is
    /// always denied); `false` denies them.
    pub edit: bool,
    /// Command prefixes `bash` may run (none: no shell).
    pub shell_commands: Vec<String>,
    /// Provider definitions added to the run's configuration (opencode's
    /// `provider` object, e.g. an OpenAI-compatible endpoint).
    pub provider: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Default for OpencodeConfig {
    fn default() -> Self {
        OpencodeConfig {
            program: "opencode".into(),
            model: None,
            grader_model: None,
            edit: true,
            shell_commands: Vec::new(),
            provider: None,
        }
    }
}

/// `[behave]`: Tier 3.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct BehaveConfig {
    /// The client or clients that run the cases (`--agent` overrides).
    pub agent: AgentList,
    /// The client that grades (`--grader-agent` overrides); none means each
    /// run's own client.
    pub grader_agent: Option<crate::base::AgentKind>,
    /// Claude Code's binary (a name searched in `PATH`, or a path).
    pub claude: String,
    /// Claude Code's model for the agent (`--model`); none means the CLI's
    /// default.
    pub model: Option<String>,
    /// Claude Code's model for the grader; none means `model`.
    pub grader_model: Option<String>,
    /// Claude Code's `--allowedTools` for the agent (joined with commas).
    /// No `Bash` by default: an unscoped `Bash` runs every command unasked.
    pub allowed_tools: Vec<String>,
    /// How the skill reaches the agent in `with` runs.
    pub install: InstallMode,
    /// Time limit of one agent run, in seconds.
    pub executor_timeout_secs: u64,
    /// Time limit of one grader call, in seconds.
    pub grader_timeout_secs: u64,
    /// Most bytes of agent stream kept; past it the run is stopped.
    pub max_trace_bytes: u64,
    /// Most bytes of grader output kept; past it the call is stopped.
    pub max_grader_bytes: u64,
    /// Milliseconds between SIGTERM and SIGKILL when a limit is hit.
    pub kill_grace_ms: u64,
    /// Time limit of each git command that sets up a workspace, in seconds.
    pub git_timeout_secs: u64,
    pub codex: CodexConfig,
    pub gemini: GeminiConfig,
    pub opencode: OpencodeConfig,
    /// The quality-delta gate of `check --behavioral`, in percentage points
    /// (`--min-quality-delta` wins).
    pub min_quality_delta: Option<f64>,
    /// Model turns a trigger run may take before it is stopped without a
    /// load (docs/tier3-triggers.md).
    pub trigger_turns: u32,
}

/// The turn limit of a deciding trigger run when `[behave] trigger-turns`
/// is not set (docs/tier3-triggers.md).
pub const DEFAULT_TRIGGER_TURNS: u32 = 5;

impl Default for BehaveConfig {
    fn default() -> Self {
        BehaveConfig {
            agent: AgentList::One(crate::base::AgentKind::Claude),
            grader_agent: None,
            claude: "claude".into(),
            model: None,
            grader_model: None,
            allowed_tools: ["Read", "Edit", "Write", "Glob", "Grep", "Skill"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            install: InstallMode::Discover,
            executor_timeout_secs: 15 * 60,
            grader_timeout_secs: 5 * 60,
            max_trace_bytes: 64 * 1024 * 1024,
            max_grader_bytes: 16 * 1024 * 1024,
            kill_grace_ms: 5000,
            git_timeout_secs: 60,
            codex: CodexConfig::default(),
            gemini: GeminiConfig::default(),
            opencode: OpencodeConfig::default(),
            min_quality_delta: None,
            trigger_turns: DEFAULT_TRIGGER_TURNS,
        }
    }
}

/// The configuration file's name, at the catalog root.
pub const CONFIG_FILE: &str = "skillsift.toml";

/// Largest configuration file read.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

impl Config {
    /// Parse configuration text; `origin` names the file in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Config, Fatal> {
        let config: Config = toml::from_str(text).map_err(|e| {
            let place = e
                .span()
                .map(|s| {
                    let idx = crate::diag::LineIndex::new(text);
                    let (l, c) = idx.line_col(text, s.start);
                    format!(":{l}:{c}")
                })
                .unwrap_or_default();
            Fatal::usage(format!(
                "{origin}{place}: invalid configuration: {}",
                e.message()
            ))
            .with_help("`skillsift schema config` gives every key of skillsift.toml, its type and its default")
        })?;
        config.validate(origin)?;
        Ok(config)
    }

    /// Read the file the user named (`--config`): anywhere, but a regular
    /// file of at most 1 MiB; a missing file is an error. Returns the
    /// configuration and its text.
    pub fn load(path: &Path) -> Result<(Config, String), Fatal> {
        let bytes =
            crate::base::confine::read_user(path, MAX_CONFIG_BYTES).map_err(|r| r.fatal())?;
        Self::from_bytes(bytes, &path.display().to_string())
    }

    /// Read the catalog's own `skillsift.toml` under `root` (a folder), as
    /// every file of the catalog's is read: inside the catalog, a regular
    /// file, at most 1 MiB. `Ok(None)` when there is none.
    pub fn load_catalog(root: &Path) -> Result<Option<(Config, String)>, Fatal> {
        let dir = crate::base::confine::Root::new(root).map_err(|r| r.fatal())?;
        let rel = Path::new(CONFIG_FILE);
        let Some(bytes) = dir.read(rel, MAX_CONFIG_BYTES).map_err(|r| r.fatal())? else {
            return Ok(None);
        };
        Self::from_bytes(bytes, &dir.shown(rel).display().to_string()).map(Some)
    }

    fn from_bytes(bytes: Vec<u8>, origin: &str) -> Result<(Config, String), Fatal> {
        let text = String::from_utf8(bytes).map_err(|e| {
            Fatal::usage(format!(
                "{origin}: not UTF-8 text (bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ))
            .with_help("save the configuration as UTF-8")
        })?;
        let config = Config::parse(&text, origin)?;
        Ok((config, text))
    }

    fn validate(&self, origin: &str) -> Result<(), Fatal> {
        for spec in &self.lint.required_sections {
            let names = spec.names();
            if names.is_empty() || names.iter().any(|n| n.is_empty()) {
                return Err(Fatal::usage(format!(
                    "{origin}: [lint] required-sections has an empty heading"
                ))
                .with_help("write the heading text, e.g. required-sections = [\"Overview\", \"Verification\"]"));
            }
        }
        if let Some(list) = &self.lint.clients
            && list.contains(&crate::base::ClientId::Spec)
        {
            return Err(Fatal::usage(format!(
                "{origin}: [lint] clients lists `spec`, which is not a client: the specification is always checked (SG1xx)"
            ))
            .with_help("list clients only: claude-code, codex, gemini-cli, opencode"));
        }
        if self.lint.line_budget == 0 {
            return Err(Fatal::usage(format!(
                "{origin}: [lint] line-budget must be at least 1"
            )));
        }
        for ex in &self.lint.exemptions {
            if ex.reason.trim().is_empty() {
                return Err(Fatal::usage(format!(
                    "{origin}: the exemption for `{}` has an empty reason",
                    ex.skill
                ))
                .with_help("say why the skill may omit the section, e.g. reason = \"reference card, no workflow\""));
            }
        }
        for (key, globs) in [
            ("trigger-sets", &self.cases.trigger_sets),
            ("ignore", &self.cases.ignore),
        ] {
            crate::globs(globs).map_err(|e| {
                Fatal::usage(format!("{origin}: [cases] {key}: {e}")).with_help(
                    "write globs relative to each skill folder, e.g. \"evals/*.queries.json\"",
                )
            })?;
        }
        for (i, d) in self.cases.sources.iter().enumerate() {
            let at = format!("{origin}: [[cases.sources]] #{}", i + 1);
            crate::declared_glob(&d.files).map_err(|e| {
                Fatal::usage(format!("{at}: files: {e}")).with_help(
                    "write a glob relative to the catalog root, e.g. \"qa/routing/*.jsonl\"",
                )
            })?;
            if d.files.starts_with('/') || d.files.split('/').any(|c| c == "..") {
                return Err(Fatal::usage(format!(
                    "{at}: files = \"{}\" leaves the catalog",
                    d.files
                ))
                .with_help("write a glob relative to the catalog root, without `..`"));
            }
            if !d.format.has_fields() {
                let given: Vec<&str> = [
                    ("prompt", !d.prompt.is_empty()),
                    ("records", !d.records.is_empty()),
                    ("skill", d.skill.is_some()),
                    ("polarity", d.polarity.is_some()),
                    ("negative-when", d.negative_when.is_some()),
                    ("lexical", d.lexical.is_some()),
                    ("split", d.split.is_some()),
                ]
                .into_iter()
                .filter_map(|(k, on)| on.then_some(k))
                .collect();
                if !given.is_empty() {
                    return Err(Fatal::usage(format!(
                        "{at}: a {} source has no fields, and {} {} declared",
                        if d.format == DeclaredFormat::Text { "text" } else { "markdown" },
                        given.join(", "),
                        if given.len() == 1 { "is" } else { "are" }
                    ))
                    .with_help(
                        "remove them: the skill comes from skill-path-part or the folder holding the file; a text file is one positive prompt, a Markdown file says each prompt's side in its headings or markers",
                    ));
                }
            } else if d.prompt.is_empty() {
                return Err(Fatal::usage(format!("{at}: no `prompt` field is declared"))
                    .with_help("declare prompt = \"<the field holding the prompt>\""));
            }
            for (key, field) in [
                ("prompt", Some(&d.prompt).filter(|_| d.format.has_fields())),
                ("skill", d.skill.as_ref()),
                ("polarity", d.polarity.as_ref()),
                ("lexical", d.lexical.as_ref()),
                ("split", d.split.as_ref()),
            ] {
                if field.is_some_and(|f| f.trim().is_empty()) {
                    return Err(
                        Fatal::usage(format!("{at}: {key} is empty")).with_help(format!(
                            "name the field that holds the {key}, or leave {key} out"
                        )),
                    );
                }
            }
            if d.negative_when.is_some() && d.skill.is_none() {
                return Err(Fatal::usage(format!(
                    "{at}: negative-when compares the `skill` field, and no `skill` is declared"
                ))
                .with_help(
                    "declare skill = \"<field naming the skill>\", or remove negative-when",
                ));
            }
        }
        let r = &self.route;
        for (key, v) in [
            ("collision-error", r.collision_error),
            ("collision-warning", r.collision_warning),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(Fatal::usage(format!(
                    "{origin}: [route] {key} = {v} is outside 0..=1"
                )));
            }
        }
        if let Some(p) = r.min_rank1
            && !(0.0..=100.0).contains(&p)
        {
            return Err(Fatal::usage(format!(
                "{origin}: [route] min-rank1 = {p} is outside 0..=100"
            )));
        }
        if r.top_k == 0 {
            return Err(Fatal::usage(format!(
                "{origin}: [route] top-k must be at least 1"
            )));
        }
        // Every number a time, a size or a count is made of has bounds: a
        // bound is a refusal naming the key, never an overflow or a panic.
        let b = &self.behave;
        let c = &self.catalog;
        for (key, value, min, max) in [
            (
                "[behave] executor-timeout-secs",
                b.executor_timeout_secs,
                1,
                86_400,
            ),
            (
                "[behave] grader-timeout-secs",
                b.grader_timeout_secs,
                1,
                86_400,
            ),
            ("[behave] git-timeout-secs", b.git_timeout_secs, 1, 3_600),
            ("[behave] kill-grace-ms", b.kill_grace_ms, 0, 600_000),
            ("[behave] max-trace-bytes", b.max_trace_bytes, 1, 1 << 32),
            ("[behave] max-grader-bytes", b.max_grader_bytes, 1, 1 << 30),
            ("[catalog] max-file-bytes", c.max_file_bytes, 1, 1 << 30),
            ("[catalog] max-case-bytes", c.max_case_bytes, 1, 1 << 30),
            ("[route] top-k", r.top_k as u64, 1, 1_000),
            ("[route] name-weight", u64::from(r.name_weight), 0, 100),
            (
                "[route] listing-budget-chars",
                r.listing_budget_chars.map_or(1, |v| v as u64),
                1,
                1 << 30,
            ),
            (
                "[route] entry-cap-chars",
                r.entry_cap_chars.map_or(1, |v| v as u64),
                1,
                1 << 30,
            ),
            (
                "[lint] line-budget",
                self.lint.line_budget as u64,
                1,
                1 << 30,
            ),
        ] {
            if !(min..=max).contains(&value) {
                return Err(Fatal::usage(format!(
                    "{origin}: {key} = {value} is outside {min}..={max}"
                ))
                .with_help(format!("set {key} to a value from {min} to {max}")));
            }
        }
        Ok(())
    }
}

/// Globs over root-relative, `/`-separated paths, with gitignore's
/// semantics everywhere a configuration names paths (the `ignore` crate's
/// matcher, as ripgrep and git read a `.gitignore`): `*` and `?` stay
/// within a folder and `**` crosses folders; a pattern with no `/` but a
/// trailing one matches a name at any depth (`SKILL.md`, `drafts`); one
/// with a `/` is anchored at the root (`plugin/skills/*/SKILL.md`); a
/// trailing `/` matches folders only; a match on a folder covers all
/// below it; `!pattern` takes back what an earlier pattern matched.
#[derive(Clone, Debug)]
pub struct PathGlobs {
    set: ignore::gitignore::Gitignore,
}

impl Default for PathGlobs {
    fn default() -> Self {
        PathGlobs {
            set: ignore::gitignore::Gitignore::empty(),
        }
    }
}

impl PathGlobs {
    pub fn new(patterns: &[String]) -> Result<PathGlobs, String> {
        let mut b = ignore::gitignore::GitignoreBuilder::new("");
        for p in patterns {
            if p.trim().is_empty() {
                return Err("an empty glob matches nothing; remove it".into());
            }
            // git lets a broken pattern match nothing; a configuration
            // that names one is told (the same glob engine checks it)
            let body = p.strip_prefix('!').unwrap_or(p).trim_end_matches('/');
            globset::GlobBuilder::new(body)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("invalid glob `{p}`: {e}"))?;
            b.add_line(None, p)
                .map_err(|e| format!("invalid glob `{p}`: {e}"))?;
        }
        let set = b.build().map_err(|e| e.to_string())?;
        Ok(PathGlobs { set })
    }

    /// No patterns.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The file `rel`, or a folder above it, matches.
    pub fn is_match(&self, rel: &str) -> bool {
        self.matches(rel, false)
    }

    /// `rel` (a folder when `is_dir`), or a folder above it, matches.
    pub fn matches(&self, rel: &str, is_dir: bool) -> bool {
        let rel = rel.trim_start_matches("./");
        if rel.is_empty() || rel.starts_with('/') {
            return false;
        }
        self.set
            .matched_path_or_any_parents(rel, is_dir)
            .is_ignore()
    }
}

/// Build the globs; the patterns were checked when the configuration was
/// read.
pub fn globs(patterns: &[String]) -> Result<PathGlobs, String> {
    PathGlobs::new(patterns)
}

/// The matcher of a `[[cases.sources]]` glob.
pub fn declared_glob(pattern: &str) -> Result<PathGlobs, String> {
    PathGlobs::new(&[pattern.to_string()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_config_takes_defaults() {
        let c = Config::parse("", "skillsift.toml").unwrap();
        assert_eq!(c.route.top_k, 3);
        assert_eq!(c.catalog.max_file_bytes, 1 << 20);
    }

    #[test]
    fn unknown_key_is_an_error_with_a_position() {
        let e = Config::parse("[route]\ntop_k = 3\n", "skillsift.toml").unwrap_err();
        assert_eq!(e.exit, crate::exit::Exit::Usage);
        assert!(e.message.starts_with("skillsift.toml:2:1"), "{}", e.message);
    }

    #[test]
    fn exemption_without_reason_is_refused() {
        let e = Config::parse(
            "[lint]\nexemptions = [{ skill = \"a\", reason = \" \" }]\n",
            "skillsift.toml",
        )
        .unwrap_err();
        assert!(e.message.contains("empty reason"));
    }
}
