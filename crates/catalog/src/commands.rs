//! Slash-command files: `.claude/commands/*.md` (Claude Code: optional YAML
//! frontmatter, then the prompt), `.gemini/commands/*.toml` (Gemini CLI) and
//! `commands/*.toml` (the same TOML shape, for other CLIs). A `commands/`
//! folder without any `.toml` file (a Claude Code plugin's Markdown
//! commands) is not a TOML command folder and is not compared.
//!
//! Each file is read once, bounded by `[catalog] max-file-bytes`, decoded
//! and split by the same code as SKILL.md ([`super::skill::decode`],
//! [`super::skill::parse_frontmatter`]) or parsed by the `toml` crate, so
//! every `description` keeps its span. Parity and collision checks are Tier
//! 1 rules (`SG3xx`) over [`Commands`].

use super::skill::{self, Spanned};
use super::source::Source;
use crate::config::Config;
use crate::diag::{Diagnostic, Span};
use crate::rules::load as load_rules;
use crate::rules::toml_syntax::TOML_SYNTAX;
use rayon::prelude::*;
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;

/// The three command folders, relative to the catalog root.
pub const CLAUDE_DIR: &str = ".claude/commands";
pub const GEMINI_DIR: &str = ".gemini/commands";
pub const PLAIN_DIR: &str = "commands";

/// Which folder a command file lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Folder {
    /// `.claude/commands/*.md`
    Claude,
    /// `.gemini/commands/*.toml`
    Gemini,
    /// `commands/*.toml`
    Plain,
}

impl Folder {
    pub const ALL: [Folder; 3] = [Folder::Claude, Folder::Gemini, Folder::Plain];

    /// The folder relative to the catalog root.
    pub fn dir(self) -> &'static str {
        match self {
            Folder::Claude => CLAUDE_DIR,
            Folder::Gemini => GEMINI_DIR,
            Folder::Plain => PLAIN_DIR,
        }
    }

    /// The file extension of its commands, without the dot.
    pub fn ext(self) -> &'static str {
        match self {
            Folder::Claude => "md",
            Folder::Gemini | Folder::Plain => "toml",
        }
    }

    /// `.claude/commands/<stem>.md` etc.
    pub fn path_of(self, stem: &str) -> String {
        format!("{}/{stem}.{}", self.dir(), self.ext())
    }
}

/// What a command file says about its `description`.
#[derive(Debug, Clone, PartialEq)]
pub enum Description {
    /// The file could not be read or parsed; that is reported already.
    Unparsed,
    /// A Markdown command without a frontmatter block.
    NoFrontmatter,
    /// Parsed, but no `description` key.
    Missing,
    /// `description` is not a string; `found` names its type.
    NotAString { found: &'static str, span: Span },
    /// The description's text (decoded), with the span of its value.
    Text(Spanned<String>),
}

/// One command file.
#[derive(Debug, Clone)]
pub struct CommandFile {
    /// Path relative to the catalog root.
    pub file: String,
    /// Command name (file stem).
    pub name: String,
    pub folder: Folder,
    pub source: Arc<Source>,
    pub description: Description,
    /// For TOML commands: whether a string `prompt` is present (Gemini CLI
    /// refuses a command without one). Always true for Markdown commands,
    /// whose body is the prompt.
    pub has_prompt: bool,
    /// Span of the TOML `prompt` value when it is not a string.
    pub bad_prompt: Option<(&'static str, Span)>,
    /// Markdown commands: the frontmatter's YAML (between the `---` lines)
    /// when it parsed, and where the prompt starts (after the closing
    /// `---`, also when the YAML did not parse; 0 without frontmatter).
    pub yaml: Option<std::ops::Range<usize>>,
    pub body_start: usize,
}

impl CommandFile {
    /// The description text, when there is one.
    pub fn description(&self) -> Option<&Spanned<String>> {
        match &self.description {
            Description::Text(t) => Some(t),
            _ => None,
        }
    }
}

/// The three command folders; `None` when a folder does not exist.
#[derive(Debug, Clone, Default)]
pub struct Commands {
    pub claude: Option<Vec<CommandFile>>,
    pub gemini: Option<Vec<CommandFile>>,
    pub plain: Option<Vec<CommandFile>>,
}

impl Commands {
    pub fn all(&self) -> impl Iterator<Item = &CommandFile> {
        [&self.claude, &self.gemini, &self.plain]
            .into_iter()
            .flatten()
            .flatten()
    }

    /// The commands of one folder; `None` when it does not exist.
    pub fn folder(&self, f: Folder) -> Option<&[CommandFile]> {
        match f {
            Folder::Claude => self.claude.as_deref(),
            Folder::Gemini => self.gemini.as_deref(),
            Folder::Plain => self.plain.as_deref(),
        }
    }
}

/// Load the command folders under `root`.
pub fn load_all(root: &Path, config: &Config) -> (Commands, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let limit = config.catalog.max_file_bytes;
    let mut commands = Commands::default();
    // nothing outside the catalog is read, whatever symlinks say
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    for folder in Folder::ALL {
        if let Some(real) = super::outside_root(&boundary, &root.join(folder.dir())) {
            diags.push(
                load_rules::UNREADABLE
                    .diag(folder.dir(), super::outside_message(&real))
                    .with_help(super::OUTSIDE_HELP),
            );
            continue;
        }
        let Some(files) = list(root, folder, &mut diags) else {
            continue;
        };
        let loaded: Vec<(CommandFile, Vec<Diagnostic>)> = files
            .par_iter()
            .map(|(path, stem)| load_one(&boundary, path, stem, folder, limit))
            .collect();
        let mut out = Vec::with_capacity(loaded.len());
        for (c, d) in loaded {
            diags.extend(d);
            out.push(c);
        }
        match folder {
            Folder::Claude => commands.claude = Some(out),
            Folder::Gemini => commands.gemini = Some(out),
            Folder::Plain => commands.plain = Some(out),
        }
    }
    (commands, diags)
}

/// The command files of one folder, sorted; `None` when it does not exist.
fn list(
    root: &Path,
    folder: Folder,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<(std::path::PathBuf, String)>> {
    let dir = root.join(folder.dir());
    if !dir.is_dir() {
        return None;
    }
    let rd = match std::fs::read_dir(&dir) {
        Ok(rd) => rd,
        Err(e) => {
            diags.push(
                load_rules::UNREADABLE
                    .diag(folder.dir(), format!("cannot list the command folder: {e}"))
                    .with_help("fix the folder's permissions"),
            );
            return Some(Vec::new());
        }
    };
    let suffix = format!(".{}", folder.ext());
    let mut files = Vec::new();
    for entry in rd {
        let Ok(entry) = entry else {
            diags.push(
                load_rules::UNREADABLE
                    .diag(folder.dir(), "cannot list the command folder")
                    .with_help("fix the folder's permissions"),
            );
            continue;
        };
        let os = entry.file_name();
        let Some(name) = os.to_str() else {
            diags.push(
                load_rules::UNREADABLE
                    .diag(
                        format!("{}/{}", folder.dir(), os.to_string_lossy()),
                        "command file name is not valid UTF-8",
                    )
                    .with_help("rename the file; command names are ASCII"),
            );
            continue;
        };
        let Some(stem) = name.strip_suffix(&suffix) else {
            continue;
        };
        if stem.is_empty() || entry.path().is_dir() {
            continue;
        }
        files.push((entry.path(), stem.to_string()));
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    // a Claude Code plugin keeps Markdown commands in `commands/`: without
    // any TOML file there, it is not a TOML command folder
    if folder == Folder::Plain && files.is_empty() {
        return None;
    }
    Some(files)
}

/// The fields of a TOML command that skillsift reads.
#[derive(Deserialize)]
struct TomlCommand {
    description: Option<toml::Spanned<toml::Value>>,
    prompt: Option<toml::Spanned<toml::Value>>,
}

fn toml_type(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a float",
        toml::Value::Boolean(_) => "a boolean",
        toml::Value::Datetime(_) => "a date-time",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}

/// Read and parse one command file. Never fails: problems become diagnostics.
/// A symlink that leads outside `boundary` (the canonical catalog root) is
/// not read.
fn load_one(
    boundary: &Path,
    path: &Path,
    stem: &str,
    folder: Folder,
    limit: u64,
) -> (CommandFile, Vec<Diagnostic>) {
    let file = folder.path_of(stem);
    let mut diags = Vec::new();
    let mut cmd = CommandFile {
        file: file.clone(),
        name: stem.to_string(),
        folder,
        source: Source::new(String::new()),
        description: Description::Unparsed,
        has_prompt: true,
        bad_prompt: None,
        yaml: None,
        body_start: 0,
    };
    if let Some(real) = super::outside_root(boundary, path) {
        diags.push(
            load_rules::UNREADABLE
                .diag(&file, super::outside_message(&real))
                .with_help(super::OUTSIDE_HELP),
        );
        return (cmd, diags);
    }
    let bytes = match super::read_bounded(path, limit) {
        Ok(Some(b)) => b,
        Ok(None) => {
            diags.push(
                load_rules::FILE_TOO_LARGE
                    .diag(
                        &file,
                        format!(
                            "command file is {}, larger than {limit} bytes ([catalog] max-file-bytes), and was not parsed",
                            super::size_of(path)
                        ),
                    )
                    .with_help("shorten the command, or raise [catalog] max-file-bytes"),
            );
            return (cmd, diags);
        }
        Err(e) => {
            diags.push(
                load_rules::UNREADABLE
                    .diag(&file, format!("cannot read command file: {e}"))
                    .with_help("fix the file's permissions"),
            );
            return (cmd, diags);
        }
    };
    let (src, start) = skill::decode(&file, bytes, &mut diags);
    cmd.source = src.clone();
    match folder {
        Folder::Claude => {
            let mut fm_diags = Vec::new();
            let (fm, body_start) = skill::parse_frontmatter(&file, &src, start, &mut fm_diags);
            cmd.yaml = fm.as_ref().map(|f| f.yaml.clone());
            cmd.body_start = body_start;
            // frontmatter is optional for a command; its absence is judged
            // by SG302 (a description is needed for parity), not SG010
            let missing = fm_diags
                .iter()
                .any(|d| d.rule == load_rules::MISSING_FRONTMATTER.id);
            fm_diags.retain(|d| d.rule != load_rules::MISSING_FRONTMATTER.id);
            let failed = !fm_diags.is_empty() && fm.is_none();
            diags.extend(fm_diags);
            cmd.description = match fm {
                None if missing => Description::NoFrontmatter,
                None => {
                    debug_assert!(failed);
                    Description::Unparsed
                }
                Some(fm) => match fm.get("description") {
                    None => Description::Missing,
                    // `description:` with nothing after it, or `# Title`
                    Some(e) if e.value.is_null() => Description::Text(Spanned {
                        value: String::new(),
                        span: e.value_span,
                    }),
                    Some(e) => match e.value.as_str() {
                        Some(s) => Description::Text(Spanned {
                            value: s.to_string(),
                            span: e.value_span,
                        }),
                        None => Description::NotAString {
                            found: match e.value.type_name() {
                                "number" => "a number",
                                "boolean" => "a boolean",
                                "sequence" => "a sequence",
                                _ => "a mapping",
                            },
                            span: e.value_span,
                        },
                    },
                },
            };
        }
        Folder::Gemini | Folder::Plain => {
            let text = &src.text[start..];
            // the parser recovers and may report a later error first: point
            // at the earliest one
            let earliest = toml::de::DeTable::parse_recoverable(text)
                .1
                .into_iter()
                .min_by_key(|e| e.span().map_or(usize::MAX, |r| r.start));
            let parsed = match earliest {
                Some(e) => Err(e),
                None => toml::from_str::<TomlCommand>(text),
            };
            match parsed {
                Ok(t) => {
                    let span_of = |s: &toml::Spanned<toml::Value>| {
                        let r = s.span();
                        src.span(start + r.start, start + r.end)
                    };
                    cmd.description = match &t.description {
                        None => Description::Missing,
                        Some(d) => match d.get_ref() {
                            toml::Value::String(s) => Description::Text(Spanned {
                                value: s.clone(),
                                span: span_of(d),
                            }),
                            other => Description::NotAString {
                                found: toml_type(other),
                                span: span_of(d),
                            },
                        },
                    };
                    match &t.prompt {
                        None => cmd.has_prompt = false,
                        Some(p) => {
                            if !matches!(p.get_ref(), toml::Value::String(_)) {
                                cmd.has_prompt = false;
                                cmd.bad_prompt = Some((toml_type(p.get_ref()), span_of(p)));
                            }
                        }
                    }
                }
                Err(e) => {
                    let (s, end) = e
                        .span()
                        .map(|r| (start + r.start, start + r.end))
                        .unwrap_or((start, start));
                    let span = src.span(s, end.max(s));
                    diags.push(
                        TOML_SYNTAX
                            .diag(
                                &file,
                                format!(
                                    "invalid TOML at line {} column {}: {}",
                                    span.line,
                                    span.col,
                                    e.message().trim_end()
                                ),
                            )
                            .with_span(span)
                            .with_label("here")
                            .with_help("fix the TOML; strings that span lines need triple quotes (\"\"\"…\"\"\")"),
                    );
                }
            }
        }
    }
    (cmd, diags)
}

/// Most Markdown commands read for Claude Code's listing, and deepest
/// folder walked: bounds on an untrusted tree.
const LISTED_MAX: usize = 10_000;
const LISTED_DEPTH: usize = 16;

/// The Markdown commands Claude Code lists for a project, as skills read
/// by its own reader (`client::claude_code`): every `*.md` below
/// `.claude/commands/`, nested folders included (dot folders too), each
/// [`Skill::folder`] its name (`ns/inner.md` is `ns:inner`); a folder
/// holding a `SKILL.md` is one command named after the folder, its other
/// files not read. Sorted by path. Problems are left to the checks of
/// [`load_all`]; here a file that cannot be read is a skill without
/// source, and a link leading outside the catalog is not followed.
pub fn load_listed(root: &Path, limit: u64) -> Vec<super::Skill> {
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let base = root.join(CLAUDE_DIR);
    if !base.is_dir() || super::outside_root(&boundary, &base).is_some() {
        return Vec::new();
    }
    let mut found: Vec<(std::path::PathBuf, String, String)> = Vec::new();
    walk_listed(&boundary, &base, "", 0, &mut found, &mut Vec::new());
    found.sort_by(|a, b| a.1.cmp(&b.1));
    found.truncate(LISTED_MAX);
    found
        .into_par_iter()
        .map(|(path, rel, name)| {
            let (mut s, _) = super::load_skill(
                &path,
                &format!("{CLAUDE_DIR}/{rel}"),
                super::Scope::SkillsOnly,
                limit,
                None,
            );
            s.folder = name;
            s
        })
        .collect()
}

/// What decides [`load_listed`]'s result, relative to the catalog root:
/// `.claude` when it exists, and every folder and command file below
/// `.claude/commands/` (a change to any of them changes its stamp).
pub fn listed_watch(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if !root.join(".claude").is_dir() {
        return out;
    }
    out.push(".claude".to_string());
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let base = root.join(CLAUDE_DIR);
    if !base.is_dir() || super::outside_root(&boundary, &base).is_some() {
        return out;
    }
    let (mut found, mut dirs) = (Vec::new(), Vec::new());
    walk_listed(&boundary, &base, "", 0, &mut found, &mut dirs);
    out.extend(dirs.into_iter().map(|d| match d.as_str() {
        "" => CLAUDE_DIR.to_string(),
        d => format!("{CLAUDE_DIR}/{d}"),
    }));
    out.extend(
        found
            .into_iter()
            .map(|(_, rel, _)| format!("{CLAUDE_DIR}/{rel}")),
    );
    out
}

/// Collect `(path, path below .claude/commands, name)` under `dir`, and
/// the folders walked (below `.claude/commands`, `""` for itself).
fn walk_listed(
    boundary: &Path,
    dir: &Path,
    rel: &str,
    depth: usize,
    out: &mut Vec<(std::path::PathBuf, String, String)>,
    dirs: &mut Vec<String>,
) {
    if depth > LISTED_DEPTH || out.len() >= LISTED_MAX {
        return;
    }
    let join = |name: &str| {
        if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        }
    };
    let skill = dir.join("SKILL.md");
    if depth > 0 && skill.is_file() {
        out.push((skill, join("SKILL.md"), rel.replace('/', ":")));
        return;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    dirs.push(rel.to_string());
    let mut entries: Vec<(String, std::path::PathBuf)> = rd
        .flatten()
        .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
        .collect();
    entries.sort();
    for (name, path) in entries {
        if super::outside_root(boundary, &path).is_some() {
            continue;
        }
        if path.is_dir() {
            walk_listed(boundary, &path, &join(&name), depth + 1, out, dirs);
        } else if let Some(stem) = name.strip_suffix(".md")
            && !stem.is_empty()
        {
            let r = join(stem);
            out.push((path, join(&name), r.replace('/', ":")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(folder: Folder, text: &str) -> (CommandFile, Vec<Diagnostic>) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x");
        std::fs::write(&p, text).unwrap();
        load_one(
            &dir.path().canonicalize().unwrap(),
            &p,
            "x",
            folder,
            1 << 20,
        )
    }

    #[test]
    fn listed_commands_are_named_by_their_path() {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join(CLAUDE_DIR);
        for (rel, text) in [
            ("top.md", "Top\n"),
            ("ns/inner.md", "Inner\n"),
            (".dot/d.md", "Dot\n"),
            ("bundle/SKILL.md", "Bundle\n"),
            ("bundle/ignored.md", "Ignored\n"),
            ("notes.txt", "not a command\n"),
            ("Upper.MD", "not a command either\n"),
        ] {
            let p = c.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let got: Vec<(String, String)> = load_listed(dir.path(), 1 << 20)
            .into_iter()
            .map(|s| (s.folder, s.file))
            .collect();
        let want = [
            (".dot:d", ".claude/commands/.dot/d.md"),
            ("bundle", ".claude/commands/bundle/SKILL.md"),
            ("ns:inner", ".claude/commands/ns/inner.md"),
            ("top", ".claude/commands/top.md"),
        ];
        assert_eq!(
            got,
            want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec()
        );
    }

    #[test]
    fn markdown_description_keeps_its_span() {
        let (c, d) = load(
            Folder::Claude,
            "---\ndescription: Plan the work\n---\nBody\n",
        );
        assert!(d.is_empty(), "{d:?}");
        let t = c.description().unwrap();
        assert_eq!(t.value, "Plan the work");
        assert_eq!((t.span.line, t.span.col), (2, 14));
    }

    #[test]
    fn markdown_without_frontmatter_is_not_a_load_error() {
        let (c, d) = load(Folder::Claude, "Just a prompt\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(c.description, Description::NoFrontmatter);
    }

    #[test]
    fn markdown_with_bad_yaml_reports_the_yaml_error() {
        let (c, d) = load(Folder::Claude, "---\ndescription: [a\n---\nBody\n");
        assert_eq!(c.description, Description::Unparsed);
        assert_eq!(d[0].rule, "SG013");
    }

    #[test]
    fn toml_description_and_prompt() {
        let (c, d) = load(
            Folder::Gemini,
            "description = \"Say \\\"hi\\\"\"\nprompt = \"\"\"\nHello\n\"\"\"\n",
        );
        assert!(d.is_empty(), "{d:?}");
        let t = c.description().unwrap();
        assert_eq!(t.value, "Say \"hi\"");
        assert_eq!((t.span.line, t.span.col), (1, 15));
        assert!(c.has_prompt);
        let (c, _) = load(Folder::Plain, "description = 3\n");
        assert!(matches!(
            c.description,
            Description::NotAString {
                found: "an integer",
                ..
            }
        ));
        assert!(!c.has_prompt);
    }

    #[test]
    fn invalid_toml_is_located() {
        let (c, d) = load(Folder::Gemini, "description = \"a\"\nprompt = \"b\nc\"\n");
        assert_eq!(c.description, Description::Unparsed);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule, "SG301");
        assert_eq!(d[0].span.unwrap().line, 2);
    }
}
