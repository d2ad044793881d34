//! What each client shows the model: one [`Client`] per agent client, each
//! reading a loaded [`Catalog`] into a [`Listing`] — which skills are
//! listed, under which name, with exactly which text, which are not and
//! why, and where the client's reading differs from what the author wrote.
//!
//! - [`spec`]: the Agent Skills specification's strict reading, what
//!   portable skills must meet (frontmatter `name` and `description`, both
//!   strings).
//! - [`claude_code`]: Claude Code's own reading, reproduced from the
//!   installed CLI's behaviour (see `../shared/clients/claude-code.md`) and
//!   held to it by `tests/real_claude_listing.rs`.
//!
//! Tier 1 turns a listing's [`Change`]s and [`Hidden`] reasons into
//! findings (`lint::rules::client`), Tier 2 routes the listing's entries
//! (`route::Router`), and `skillgate listing` prints it ([`cmd`]).
//! [`capture`] runs a real client against a loopback endpoint and records
//! the listing it sent, built-in skills included.

pub mod capture;
pub mod claude_code;
pub mod cmd;
pub mod js;
pub mod spec;

use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::Span;
use serde::{Deserialize, Serialize};

/// The clients skillgate can model.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    clap::ValueEnum,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ClientId {
    /// The Agent Skills specification, read strictly.
    Spec,
    /// Claude Code (tested with 2.1.197).
    ClaudeCode,
}

impl ClientId {
    pub fn as_str(self) -> &'static str {
        match self {
            ClientId::Spec => "spec",
            ClientId::ClaudeCode => "claude-code",
        }
    }

    /// Its model.
    pub fn model(self) -> &'static dyn Client {
        match self {
            ClientId::Spec => &spec::Spec,
            ClientId::ClaudeCode => &claude_code::ClaudeCode,
        }
    }

    /// A human name for messages.
    pub fn label(self) -> &'static str {
        match self {
            ClientId::Spec => "the specification",
            ClientId::ClaudeCode => "Claude Code",
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

/// A client's model: how it reads a catalog into what the model is shown.
pub trait Client: Sync {
    fn id(&self) -> ClientId;

    /// The listing of `catalog` under `config` (`[route]` caps and budget),
    /// with the client's built-in skills from `builtins` when given (they
    /// take room in the listing and shadow catalog skills as the client
    /// does).
    fn listing(&self, catalog: &Catalog, config: &Config, builtins: Option<&[Builtin]>) -> Listing;

    /// One entry as the client writes it in its listing (for a skill not
    /// listed, as it would be written).
    fn line(&self, name: &str, text: &str) -> String;
}

/// What a client shows the model for one catalog.
#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    pub client: ClientId,
    /// Every SKILL.md of the catalog: the listed ones in the client's order
    /// first, then the others in catalog order.
    pub entries: Vec<Entry>,
    /// The client's built-in skills in the listing (from a capture).
    pub builtins: Vec<Builtin>,
    /// The listing's length against the client's budget, when it has one.
    pub budget: Option<Budget>,
}

/// One catalog skill in a listing.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// The name the model sees (Claude Code: the folder's).
    pub name: String,
    /// The SKILL.md, relative to the catalog root.
    pub path: String,
    /// Index into `catalog.skills` (not serialized).
    #[serde(skip)]
    pub skill: usize,
    /// The client lists the skill.
    pub listed: bool,
    /// Why it is not listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Hidden>,
    /// Exactly what follows `- <name>: ` in the listing (empty when the
    /// entry shows the name alone, or is not listed).
    pub text: String,
    /// The entry shows the name only: the listing was over budget.
    pub name_only: bool,
    /// The entry as the client writes it.
    pub line: String,
    /// The description as the author wrote it (the specification's
    /// reading), when there is one.
    pub description: Option<String>,
    /// The frontmatter `name` when it is not the name shown (Claude Code:
    /// an alias the `Skill` tool also answers to).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
    /// Where the client's text differs from what the author wrote.
    pub changes: Vec<Change>,
}

/// Why a client does not list a skill.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Hidden {
    /// `disable-model-invocation: true`.
    DisableModelInvocation {
        #[serde(skip)]
        span: Option<Span>,
    },
    /// `paths:`: listed only once a matching file is touched.
    Conditional {
        #[serde(skip)]
        span: Option<Span>,
        patterns: Vec<String>,
    },
    /// The folder sits deeper under the skills root than the client looks.
    TooDeep { depth: usize, root: String },
    /// The file is larger than the client reads.
    TooLarge { bytes: u64, limit: u64 },
    /// The file could not be read at all.
    Unreadable,
    /// No usable name (the specification: a string `name`).
    NoName,
    /// No usable description.
    NoDescription,
}

impl Hidden {
    /// Why, in a sentence fragment: "… is not listed: <this>".
    pub fn describe(&self) -> String {
        match self {
            Hidden::DisableModelInvocation { .. } => {
                "`disable-model-invocation: true` keeps it from the model".into()
            }
            Hidden::Conditional { patterns, .. } => format!(
                "`paths:` ({}) makes it conditional: listed only once a matching file is touched",
                patterns.join(", ")
            ),
            Hidden::TooDeep { depth, root } => format!(
                "its folder is {depth} levels below the skills root `{}`; the client only looks one level down",
                if root.is_empty() { "." } else { root }
            ),
            Hidden::TooLarge { bytes, limit } => {
                format!("the file is {bytes} bytes; the client skips files over {limit} bytes")
            }
            Hidden::Unreadable => "the file could not be read".into(),
            Hidden::NoName => "it has no string `name`".into(),
            Hidden::NoDescription => "it has no string `description`".into(),
        }
    }

    pub fn span(&self) -> Option<Span> {
        match self {
            Hidden::DisableModelInvocation { span } | Hidden::Conditional { span, .. } => *span,
            _ => None,
        }
    }
}

/// One way the client's text differs from what the author wrote.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub kind: ChangeKind,
    /// Where in the SKILL.md (not serialized: `line`/`column` are).
    #[serde(skip)]
    pub span: Option<Span>,
    /// 1-based line and column (Unicode scalar values) of `span`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// What happened, in a sentence.
    pub detail: String,
}

impl Change {
    pub fn new(kind: ChangeKind, span: Option<Span>, detail: impl Into<String>) -> Change {
        Change {
            kind,
            span,
            line: span.map(|s| s.line),
            column: span.map(|s| s.col),
            detail: detail.into(),
        }
    }
}

/// The kinds of [`Change`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    /// The frontmatter ends at a `---` inside a value.
    EndsEarly,
    /// The whole frontmatter is ignored.
    FrontmatterDropped,
    /// The text is the body's first line, not a description.
    FromBody,
    /// A value reads differently after the client's YAML retry.
    RetryChanged,
    /// A number or boolean shown as text.
    NotAString,
    /// `when_to_use` appended after ` - `.
    WhenToUse,
    /// Cut at the client's entry cap.
    Cut,
    /// The cut splits a character in two; the model receives U+FFFD.
    SurrogateSplit,
    /// Over the listing budget: only the name is shown.
    NameOnly,
    /// A key appears twice; the client takes the last.
    LastDuplicate,
}

/// The listing's size against the client's budget.
#[derive(Debug, Clone, Serialize)]
pub struct Budget {
    /// The whole listing's length, every entry in full.
    pub used: usize,
    pub limit: usize,
    /// What is counted (`columns`: terminal display width).
    pub unit: &'static str,
}

/// One of the client's own skills in the listing, as captured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Builtin {
    pub name: String,
    /// What follows `- <name>: ` when the listing is within budget.
    pub text: String,
    /// Shown whole even when the listing is over budget (Claude Code's
    /// bundled skills).
    pub fixed: bool,
}

/// The client model `[route] client` (or `--client`) names.
pub fn chosen(config: &Config, flag: Option<ClientId>) -> ClientId {
    flag.unwrap_or(config.route.client)
}
