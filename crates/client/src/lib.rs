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
//! - [`codex`], [`gemini_cli`], [`opencode`]: the readings of Codex CLI,
//!   Gemini CLI and opencode, each held to its installed CLI by
//!   `tests/real_<client>_listing.rs`.
//!
//! Tier 1 turns a listing's [`Change`]s and [`Hidden`] reasons into
//! findings (`lint::rules::client`), Tier 2 routes the listing's entries
//! (`route::Router`), and `skillsift listing` prints it ([`cmd`]).
//! [`capture`] runs a real client against a loopback endpoint and records
//! the listing it sent, built-in skills included.

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
pub(crate) use crate as client;
use base::{diag, exit};
#[allow(clippy::single_component_path_imports)]
use {base, catalog, config, loopback, process};

pub mod capture;
pub mod claude_code;
pub mod claude_code_keys;
pub mod cmd;
pub mod codex;
pub mod gemini_cli;
pub mod install;
pub mod js;
pub mod opencode;
pub mod spec;

use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::Span;
use serde::{Deserialize, Serialize};

pub use crate::base::ClientId;

/// What only this crate knows of a [`ClientId`]: its model and the
/// version that model was checked against.
pub trait ClientIdExt {
    /// Its model.
    fn model(self) -> &'static dyn Client;
    /// The client version its model was checked against.
    fn tested_version(self) -> Option<&'static str>;
}

impl ClientIdExt for ClientId {
    fn model(self) -> &'static dyn Client {
        match self {
            ClientId::Spec => &spec::Spec,
            ClientId::ClaudeCode => &claude_code::ClaudeCode,
            ClientId::Codex => &codex::Codex,
            ClientId::GeminiCli => &gemini_cli::GeminiCli,
            ClientId::Opencode => &opencode::Opencode,
        }
    }

    fn tested_version(self) -> Option<&'static str> {
        match self {
            ClientId::Spec => None,
            ClientId::ClaudeCode => Some(claude_code::TESTED_VERSION),
            ClientId::Codex => Some(codex::TESTED_VERSION),
            ClientId::GeminiCli => Some(gemini_cli::TESTED_VERSION),
            ClientId::Opencode => Some(opencode::TESTED_VERSION),
        }
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

    /// One entry's name and text as the client writes them (for a skill
    /// not listed, as they would be written), without the location the
    /// entry may also carry: what `listing --verify` compares.
    fn line(&self, name: &str, text: &str) -> String;

    /// Names of the skills the client ships and always lists beside the
    /// catalog's (its built-in or bundled skills), as recorded from the
    /// real CLI; a catalog's skill may refer to them by name.
    fn builtin_skills(&self) -> &'static [&'static str] {
        &[]
    }
}

/// Whether `name` is a built-in skill of any client skillsift models.
pub fn is_builtin_skill(name: &str) -> bool {
    ClientId::CLIENTS
        .iter()
        .any(|c| c.model().builtin_skills().contains(&name))
}

/// What a client shows the model for one catalog.
#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    pub client: ClientId,
    /// Every SKILL.md of the catalog: the listed ones in the client's order
    /// first, then the others in catalog order.
    pub entries: Vec<Entry>,
    /// The catalog's slash commands the client lists beside the skills
    /// (Claude Code: `.claude/commands/**/*.md`, after the skills), of kind
    /// [`EntryKind::Command`], `skill` indexing `catalog.claude_commands`:
    /// the listed ones in the client's order, then the others. They take
    /// room in the listing's budget; Tier 2 does not route them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<Entry>,
    /// The client's built-in skills in the listing (from a capture).
    pub builtins: Vec<Builtin>,
    /// The listing's length against the client's budget, when it has one.
    pub budget: Option<Budget>,
}

/// What a listing entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EntryKind {
    /// A SKILL.md.
    #[default]
    Skill,
    /// A slash-command file the client lists beside the skills.
    Command,
}

impl Listing {
    /// Every entry in the client's order: the listed skills, the listed
    /// commands, then the skills and commands not listed.
    pub fn all(&self) -> impl Iterator<Item = &Entry> {
        fn listed(v: &[Entry], l: bool) -> Vec<&Entry> {
            v.iter().filter(|e| e.listed == l).collect()
        }
        let mut out = listed(&self.entries, true);
        out.extend(listed(&self.commands, true));
        out.extend(listed(&self.entries, false));
        out.extend(listed(&self.commands, false));
        out.into_iter()
    }
}

/// One catalog skill (or slash command) in a listing.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// The name the model sees (Claude Code: the folder's; a command's
    /// path below `.claude/commands/` with `:` for `/`).
    pub name: String,
    /// A skill or a command.
    pub kind: EntryKind,
    /// The SKILL.md, relative to the catalog root.
    pub path: String,
    /// Index into `catalog.skills` (a command: `catalog.claude_commands`;
    /// not serialized).
    #[serde(skip)]
    pub skill: usize,
    /// The client lists the skill.
    pub listed: bool,
    /// Why it is not listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Hidden>,
    /// The description as the listing shows it (Claude Code: exactly what
    /// follows `- <name>: `; empty when the entry shows the name alone, or
    /// is not listed).
    pub text: String,
    /// The entry shows the name only: the listing was over budget.
    pub name_only: bool,
    /// The entry as the client writes it, location included (Codex's
    /// `(file: …)`, the `<location>` of Gemini CLI and opencode, relative
    /// to the workspace the skill is installed in).
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
    TooDeep {
        depth: usize,
        root: String,
        limit: usize,
    },
    /// A folder on the way has a name starting with a dot, which the client
    /// skips.
    DotFolder { folder: String },
    /// The folder lies inside another skill's folder: the client never
    /// looks below a skill.
    InsideSkill { outer: String },
    /// A plugin's skill in a folder the plugin does not list (why).
    InPlugin { why: String },
    /// The client finds no frontmatter (why, in words).
    NoFrontmatter { why: String },
    /// The frontmatter does not parse for the client, which drops the
    /// skill.
    BadFrontmatter { message: String },
    /// A value is not a string and the client drops the skill for it.
    NotAString { key: String },
    /// The name is longer than the client accepts.
    NameTooLong { chars: usize, limit: usize },
    /// Another skill with the same name replaces this one.
    Shadowed { by: String },
    /// Not even the name fits the listing budget.
    OverBudget,
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
            Hidden::TooDeep { depth, root, limit } => format!(
                "its folder is {depth} levels below the skills root `{}`; the client only looks {}",
                if root.is_empty() { "." } else { root },
                if *limit == 1 {
                    "one level down".to_string()
                } else {
                    format!("{limit} levels down")
                }
            ),
            Hidden::DotFolder { folder } => {
                format!(
                    "the folder `{folder}` on its path starts with a dot, and the client skips such folders"
                )
            }
            Hidden::InsideSkill { outer } => format!(
                "it sits inside the skill `{outer}/`, and the client never lists a SKILL.md nested in another skill"
            ),
            Hidden::InPlugin { why } => why.clone(),
            Hidden::NoFrontmatter { why } => format!("the client finds no frontmatter: {why}"),
            Hidden::BadFrontmatter { message } => {
                format!(
                    "its frontmatter does not parse for the client ({message}), which drops the skill"
                )
            }
            Hidden::NotAString { key } => {
                format!("its `{key}` is not a string, and the client drops the skill")
            }
            Hidden::NameTooLong { chars, limit } => {
                format!("its name is {chars} characters; the client drops names over {limit}")
            }
            Hidden::Shadowed { by } => {
                format!("another skill with the same name ({by}) is listed instead")
            }
            Hidden::OverBudget => {
                "not even its name fits the client's listing budget, so it is left out".into()
            }
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
    /// Over the listing budget: the description is shortened.
    Shortened,
    /// White space runs (line breaks, tabs, repeated spaces) are shown as
    /// one space.
    Whitespace,
    /// The client's fallback line reader gave the text (quotes, block
    /// indicators and comments kept as written).
    Fallback,
    /// Characters of the name are replaced.
    NameSanitized,
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

/// Depth of a skill folder below the skills root it was found under, and
/// that root; `None` when that root is the catalog folder itself (a folder
/// of anything, whose layout says nothing about how it is installed).
pub fn depth(skill: &crate::catalog::Skill, catalog: &Catalog) -> Option<(usize, String)> {
    let root = skills_folder(catalog, skill).filter(|r| !r.is_empty())?;
    let rel = skill
        .rel_dir
        .strip_prefix(root.as_str())?
        .trim_start_matches('/');
    let depth = if rel.is_empty() || rel == "." {
        0
    } else if catalog.library {
        // each skill of a library is copied on its own
        1
    } else {
        rel.split('/').count()
    };
    Some((depth, root.to_string()))
}

/// The skills folder `skill` is installed from: the deepest skills root or
/// unit skills folder (`plugins/<p>/skills`, `skills/<p>/skills`,
/// `packs/<p>/.apm/skills`: a unit is installed on its own, its skills one
/// level below it) holding it; `""` for the catalog root. (Claude Code
/// reads a plugin's manifest too: [`claude_code`] places its skills by
/// [`crate::catalog::units::Unit::place`].)
pub fn skills_folder(catalog: &Catalog, skill: &crate::catalog::Skill) -> Option<String> {
    let unit = catalog
        .unit_of_skill(skill)
        .map(|u| u.skills_dir.clone())
        .filter(|d| under(&skill.rel_dir, d));
    catalog
        .root_paths()
        .filter(|r| r.is_empty() || under(&skill.rel_dir, r))
        .map(str::to_string)
        .chain(unit)
        .max_by_key(|r| r.len())
}

/// `path` lies below the folder `dir` (both root-relative, `/`-separated).
fn under(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// Where a skill goes below a client's skills folder when the catalog is
/// installed there: its path below the catalog's skills root, its folder
/// name for a single skill, its catalog path otherwise.
pub fn installed_rel(catalog: &Catalog, skill: &crate::catalog::Skill) -> String {
    if catalog.library {
        // a library's skills are copied one by one, each into a folder of
        // its own name
        return skill.folder.clone();
    }
    match skills_folder(catalog, skill) {
        Some(r) if !r.is_empty() && under(&skill.rel_dir, &r) => {
            skill.rel_dir[r.len() + 1..].to_string()
        }
        _ if skill.rel_dir == "." => skill.folder.clone(),
        _ => skill.rel_dir.clone(),
    }
}

/// Why a client that finds skills at most `limit` folders below a skills
/// folder (and, with `skip_dots`, never inside a dot folder) does not find
/// this catalog skill once it is installed at `rel`. Nothing for a single
/// skill or a folder of anything, whose layout says nothing.
pub fn undiscovered(
    catalog: &Catalog,
    skill: &crate::catalog::Skill,
    rel: &str,
    limit: usize,
    skip_dots: bool,
) -> Option<Hidden> {
    if catalog.target != crate::catalog::Target::Catalog {
        return None;
    }
    if let Some((depth, root)) = depth(skill, catalog)
        && depth > limit
    {
        return Some(Hidden::TooDeep { depth, root, limit });
    }
    let dot = rel
        .split('/')
        .find(|c| c.starts_with('.'))
        .filter(|_| skip_dots)?;
    Some(Hidden::DotFolder {
        folder: dot.to_string(),
    })
}

/// An XML-style entry's name and text as [`Client::line`] compares them
/// (Gemini CLI, opencode).
pub fn xml_line(name: &str, text: &str) -> String {
    format!("<name>{name}</name> <description>{text}</description>")
}

/// One `<skill>` element of an XML-style listing (Gemini CLI, opencode).
pub fn skill_element(name: &str, description: &str, location: &str) -> String {
    format!(
        "  <skill>\n    <name>{name}</name>\n    <description>{description}</description>\n    <location>{location}</location>\n  </skill>"
    )
}

/// The entry of a catalog skill whose listed text is `text` (emptied when
/// the skill is hidden). A skill hidden before it has a name goes by its
/// folder's.
pub fn entry(
    skill: &crate::catalog::Skill,
    index: usize,
    name: String,
    text: String,
    line: String,
    reason: Option<Hidden>,
    changes: Vec<Change>,
) -> Entry {
    let listed = reason.is_none();
    Entry {
        line,
        kind: EntryKind::Skill,
        name: if name.is_empty() && !listed {
            skill.folder.clone()
        } else {
            name
        },
        path: skill.file.clone(),
        skill: index,
        listed,
        reason,
        text: if listed { text } else { String::new() },
        name_only: false,
        description: skill.description().map(|d| d.trim().to_string()),
        alias: None,
        changes,
    }
}

/// Read in path order, a later listed skill with an earlier one's name
/// replaces it, which is then hidden as shadowed. The winners' indexes, in
/// the place each name was first seen.
pub fn last_of_each_name(entries: &mut [Entry]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].listed).collect();
    order.sort_by(|&a, &b| entries[a].path.cmp(&entries[b].path));
    let mut slots: Vec<usize> = Vec::new();
    let mut slot_of: std::collections::HashMap<String, usize> = Default::default();
    for i in order {
        match slot_of.get(&entries[i].name) {
            Some(&s) => {
                let old = std::mem::replace(&mut slots[s], i);
                let by = entries[i].path.clone();
                let e = &mut entries[old];
                e.listed = false;
                e.reason = Some(Hidden::Shadowed { by });
                e.text.clear();
            }
            None => {
                slot_of.insert(entries[i].name.clone(), slots.len());
                slots.push(i);
            }
        }
    }
    slots
}

/// The listing of `client`: the entries at `shown` in that order, then the
/// hidden ones, and the bundled skills no catalog skill's name replaces.
pub fn assemble(
    client: ClientId,
    entries: Vec<Entry>,
    shown: &[usize],
    builtins: Option<&[Builtin]>,
) -> Listing {
    let names: std::collections::HashSet<&str> =
        shown.iter().map(|&i| entries[i].name.as_str()).collect();
    let builtins: Vec<Builtin> = builtins
        .unwrap_or(&[])
        .iter()
        .filter(|b| !names.contains(b.name.as_str()))
        .cloned()
        .collect();
    let mut sorted: Vec<Entry> = shown.iter().map(|&i| entries[i].clone()).collect();
    sorted.extend(entries.into_iter().filter(|e| !e.listed));
    Listing {
        client,
        entries: sorted,
        commands: Vec::new(),
        builtins,
        budget: None,
    }
}

/// The client model `[route] client` (or `--client`) names.
pub fn chosen(config: &Config, flag: Option<ClientId>) -> ClientId {
    flag.unwrap_or(config.route.client)
}
