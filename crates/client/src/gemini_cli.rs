//! Gemini CLI's reading of a catalog, as the installed CLI (0.61.0) does
//! it (`packages/core/src/skills/skillLoader.ts` and `skillManager.ts` of
//! its bundle) — held to the real CLI by `tests/real_gemini_listing.rs`:
//!
//! - **Discovery**: `SKILL.md` and `*/SKILL.md` in `.agents/skills/` (and
//!   `.gemini/skills/`) of the working folder only: a skill one folder
//!   deeper is not found, nor one in a folder whose name starts with a dot.
//! - **Split**: `/^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/`: the
//!   file starts with `---` and a line break (a BOM or a blank first line:
//!   no frontmatter, the skill is dropped), and the frontmatter ends at the
//!   first line that **starts** with `---`.
//! - **YAML** (js-yaml 4, `load`): when the document loads and both `name`
//!   and `description` are strings, they are used as loaded. Otherwise — a
//!   YAML error (an unquoted `: `, a key twice, a tab), or a `name` or
//!   `description` that is a number, a boolean, a date or missing — a line
//!   reader takes over: the last line `name: …` (any indentation) gives the
//!   name and the last `description: …` line the description, with the
//!   indented lines after it appended, all as written (quotes, `>-`, ` #`
//!   comments kept), trimmed and joined by spaces. Without both, the skill
//!   is dropped.
//! - **Name**: `:`, `\`, `/`, `<`, `>`, `*`, `?`, `"` and `|` become `-`.
//! - **Listing**: the built-in skills first, then the project's; a skill
//!   whose name another one has replaces it in its place (the last found
//!   wins). One `<skill>` element each, the text unescaped, no length cap
//!   and no budget.

use super::js::{JsDoc, JsVal, JsYaml, js_yaml_load};
use super::{Builtin, Change, ChangeKind, Client, ClientId, Entry, Hidden, Listing};
use crate::catalog::{Catalog, Skill};
use crate::config::Config;

/// The Gemini CLI version this model was checked against.
pub const TESTED_VERSION: &str = "0.61.0";
/// How many folder levels below a skills root Gemini CLI looks.
pub const DEPTH: usize = 1;

/// Gemini CLI.
pub struct GeminiCli;

/// The name as Gemini CLI stores it: `:\/<>*?"|` become `-`.
pub fn sanitize_name(n: &str) -> String {
    n.chars()
        .map(|c| {
            if matches!(c, ':' | '\\' | '/' | '<' | '>' | '*' | '?' | '"' | '|') {
                '-'
            } else {
                c
            }
        })
        .collect()
}

/// The frontmatter the CLI's regex captures.
pub fn frontmatter(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---")?;
    let rest = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'))?;
    let start = text.len() - rest.len();
    // the lazy group ends at the first `\r?\n---`
    let mut i = 0;
    while i <= rest.len() {
        let tail = &rest[i..];
        if tail.starts_with("\n---") {
            let end = if i > 0 && rest.as_bytes()[i - 1] == b'\r' {
                i - 1
            } else {
                i
            };
            return Some(&text[start..start + end]);
        }
        i += tail.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The CLI's line reader (`parseSimpleFrontmatter`).
pub fn simple(frontmatter: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = frontmatter
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let value = |line: &str, key: &str| -> Option<String> {
        let t = line.trim_start_matches(super::js::is_space);
        let rest = t.strip_prefix(key)?.strip_prefix(':')?;
        Some(super::js::trim(rest).to_string())
    };
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        if let Some(n) = value(lines[i], "name") {
            name = Some(n);
            i += 1;
            continue;
        }
        if let Some(d) = value(lines[i], "description") {
            let mut parts = vec![d];
            while i + 1 < lines.len() {
                let next = lines[i + 1];
                let indent = next.len() - next.trim_start_matches([' ', '\t']).len();
                if indent > 0 && next[indent..].starts_with(|c: char| !c.is_whitespace()) {
                    parts.push(super::js::trim(next).to_string());
                    i += 1;
                } else {
                    break;
                }
            }
            description = Some(
                parts
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        i += 1;
    }
    Some((name?, description?))
}

/// One SKILL.md as Gemini CLI reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub name: String,
    pub description: String,
    pub hidden: Option<Hidden>,
    pub changes: Vec<Change>,
}

/// Read one skill.
pub fn read(skill: &Skill) -> Reading {
    let mut r = Reading {
        name: String::new(),
        description: String::new(),
        hidden: None,
        changes: Vec::new(),
    };
    let Some(src) = skill.source.as_deref() else {
        r.hidden = Some(Hidden::Unreadable);
        return r;
    };
    let Some(fm) = frontmatter(&src.text) else {
        r.hidden = Some(Hidden::NoFrontmatter {
            why: if src.text.starts_with('\u{feff}') {
                "the file starts with a byte order mark".into()
            } else {
                "the file does not start with `---` and a line break, or no line starts with `---` after it".into()
            },
        });
        return r;
    };
    let loaded = js_yaml_load(fm, JsYaml::V4);
    let strings = match &loaded {
        Ok(doc) => match (doc.get("name"), doc.get("description")) {
            (Some(JsVal::Str(n)), Some(JsVal::Str(d))) => Some((n.clone(), d.clone())),
            _ => None,
        },
        Err(_) => None,
    };
    let (name, description) = match strings {
        Some(v) => v,
        None => match simple(fm) {
            Some(v) => {
                let why = match &loaded {
                    Err(e) => format!("the YAML does not load ({e})"),
                    Ok(JsDoc::Map(_)) => "`name` or `description` is not a string".into(),
                    Ok(_) => "the frontmatter is not a mapping".into(),
                };
                r.changes.push(Change::new(
                    ChangeKind::Fallback,
                    None,
                    format!("{why}: Gemini CLI reads the `name:` and `description:` lines as written (quotes, block indicators and comments kept)"),
                ));
                v
            }
            None => {
                r.hidden = Some(match &loaded {
                    Err(e) => Hidden::BadFrontmatter { message: e.clone() },
                    _ => Hidden::NoName,
                });
                return r;
            }
        },
    };
    r.name = sanitize_name(&name);
    if r.name != name {
        r.changes.push(Change::new(
            ChangeKind::NameSanitized,
            None,
            format!(
                "the name `{name}` is listed as `{}`: Gemini CLI replaces `:\\/<>*?\"|` by `-`",
                r.name
            ),
        ));
    }
    r.description = description;
    r
}

/// One `<skill>` element as the CLI writes it.
pub fn render(name: &str, description: &str, location: &str) -> String {
    super::skill_element(name, description, location)
}

impl Client for GeminiCli {
    fn builtin_skills(&self) -> &'static [&'static str] {
        &["skill-creator", "antigravity-support"]
    }

    fn id(&self) -> ClientId {
        ClientId::GeminiCli
    }

    fn line(&self, name: &str, text: &str) -> String {
        super::xml_line(name, text)
    }

    fn listing(
        &self,
        catalog: &Catalog,
        _config: &Config,
        builtins: Option<&[Builtin]>,
    ) -> Listing {
        let mut entries: Vec<Entry> = Vec::with_capacity(catalog.skills.len());
        for (i, skill) in catalog.skills.iter().enumerate() {
            let mut r = read(skill);
            let rel = super::installed_rel(catalog, skill);
            if r.hidden.is_none() {
                r.hidden = super::undiscovered(catalog, skill, &rel, DEPTH, true);
            }
            let line = render(
                &r.name,
                &r.description,
                &format!(".agents/skills/{rel}/SKILL.md"),
            );
            entries.push(super::entry(
                skill,
                i,
                r.name,
                r.description,
                line,
                r.hidden,
                r.changes,
            ));
        }
        // found in path order; a later skill with the same name replaces an
        // earlier one in its place
        let shown = super::last_of_each_name(&mut entries);
        super::assemble(ClientId::GeminiCli, entries, &shown, builtins)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frontmatter_ends_at_the_first_line_starting_with_three_dashes() {
        assert_eq!(frontmatter("---\nname: a\n---\nbody"), Some("name: a"));
        assert_eq!(frontmatter("---\r\nname: a\r\n---x"), Some("name: a"));
        assert_eq!(frontmatter("---\nd: a\n----\n"), Some("d: a"));
        assert_eq!(frontmatter("\u{feff}---\nname: a\n---\n"), None);
        assert_eq!(frontmatter("---\nname: a\n"), None);
    }

    #[test]
    fn the_line_reader_keeps_what_is_written() {
        assert_eq!(
            simple("name: x\ndescription: >-\n  Folded\n  text\nother: y"),
            Some(("x".into(), ">- Folded text".into()))
        );
        assert_eq!(
            simple("name: \"q\"\ndescription: a: b # c"),
            Some(("\"q\"".into(), "a: b # c".into()))
        );
        assert_eq!(simple("description: only"), None);
    }

    #[test]
    fn names_lose_the_characters_the_cli_replaces() {
        assert_eq!(sanitize_name("a:b/c*d"), "a-b-c-d");
    }
}
