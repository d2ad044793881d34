//! opencode's reading of a catalog, as the installed CLI (1.18.33) does it
//! (its `Skill` service and `ConfigMarkdown.parse`, gray-matter over
//! js-yaml 3) — held to the real CLI by `tests/real_opencode_listing.rs`:
//!
//! - **Discovery**: `skills/**/SKILL.md` under `.agents/` (and `.claude/`)
//!   from the working folder up to the git root: any depth, folders
//!   starting with a dot included.
//! - **Split** (gray-matter): a leading BOM is dropped; the file must start
//!   with `---` not followed by a fourth `-`; the frontmatter ends at the
//!   first `\n---` anywhere after it (`---x` and `----` close it too) or,
//!   with none, runs to the end of the file.
//! - **YAML** (js-yaml 3, `safeLoad`): on an error, one retry after turning
//!   every top-level `key: value` line (a key of letters, digits and `_`)
//!   whose value holds a `:` — and is not empty, `>`, `|` or quoted — into
//!   a block scalar (`key: |-` and the value, indented), which keeps the
//!   value exactly as written (a ` #` comment included). When that fails
//!   too, or the frontmatter is not a mapping, the skill is dropped.
//! - **Values**: `name` must be a string (else the skill is dropped);
//!   `description` a string (a number, a boolean or a date drops the
//!   skill), or absent: then the skill loads but is never listed.
//! - **Listing**: every skill sorted by name (`localeCompare`, ICU root
//!   collation), the bundled `customize-opencode` among them; one
//!   `<skill>` element each, name and description unescaped, no length cap
//!   and no budget. Two skills with one name: one of them, the last read,
//!   replaces the other.

use super::js::{JsDoc, JsVal, JsYaml, js_yaml_load};
use super::{Builtin, Change, ChangeKind, Client, ClientId, Entry, Hidden, Listing};
use crate::catalog::{Catalog, Skill};
use crate::config::Config;

/// The opencode version this model was checked against.
pub const TESTED_VERSION: &str = "1.18.33";
/// How deep opencode's `skills/**/SKILL.md` looks (no limit; this bounds
/// the personal-copy guard's walk).
pub const DEPTH: usize = 32;

/// opencode.
pub struct Opencode;

/// gray-matter's frontmatter of `text`: the YAML text, or `None` when the
/// file has none.
pub fn frontmatter(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text.strip_prefix("---")?;
    if rest.starts_with('-') {
        return None;
    }
    // a language after the opening delimiter (`---yaml`) is skipped
    let first = rest.find(['\r', '\n']).unwrap_or(rest.len());
    let rest = if rest[..first].trim().is_empty() {
        rest
    } else {
        &rest[first..]
    };
    let close = rest.find("\n---").unwrap_or(rest.len());
    Some(&rest[..close])
}

/// opencode's retry (`ConfigMarkdown.sanitize`): top-level `key: value`
/// lines whose value holds a `:` become block scalars.
pub fn sanitize(yaml: &str) -> (String, bool) {
    let mut changed = false;
    let mut out: Vec<String> = Vec::new();
    for line in yaml.split('\n') {
        let l = line.strip_suffix('\r').unwrap_or(line);
        let t = l.trim();
        if t.starts_with('#') || t.is_empty() || l.starts_with(char::is_whitespace) {
            out.push(line.to_string());
            continue;
        }
        let key_len = l
            .char_indices()
            .take_while(|(i, c)| {
                c.is_ascii_alphabetic() || *c == '_' || (*i > 0 && c.is_ascii_digit())
            })
            .count();
        let after = l[key_len..].trim_start();
        let Some(value) = (key_len > 0).then(|| after.strip_prefix(':')).flatten() else {
            out.push(line.to_string());
            continue;
        };
        let v = value.trim();
        if v.is_empty() || v == ">" || v == "|" || v.starts_with(['"', '\'']) || !v.contains(':') {
            out.push(line.to_string());
            continue;
        }
        changed = true;
        out.push(format!("{}: |-", &l[..key_len]));
        out.push(format!("  {v}"));
    }
    (out.join("\n"), changed)
}

/// One SKILL.md as opencode reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub name: String,
    /// `None`: no description; the skill loads but is not listed.
    pub description: Option<String>,
    pub hidden: Option<Hidden>,
    pub changes: Vec<Change>,
}

/// Whether gray-matter sees an empty block: nothing but white space once
/// the comment lines (`#` and at least one more character) are removed.
fn empty_block(yaml: &str) -> bool {
    yaml.split('\n').all(|l| {
        let t = l.trim_start();
        t.trim().is_empty() || (t.starts_with('#') && t.len() > 1)
    })
}

/// Read one skill.
pub fn read(skill: &Skill) -> Reading {
    let mut r = Reading {
        name: String::new(),
        description: None,
        hidden: None,
        changes: Vec::new(),
    };
    let Some(src) = skill.source.as_deref() else {
        r.hidden = Some(Hidden::Unreadable);
        return r;
    };
    let Some(fm) = frontmatter(&src.text) else {
        r.hidden = Some(Hidden::NoFrontmatter {
            why: "the file does not start with `---`, so the skill has no name".into(),
        });
        return r;
    };
    let doc = if empty_block(fm) {
        Ok(JsDoc::Map(Vec::new()))
    } else {
        js_yaml_load(fm, JsYaml::V3)
    };
    let doc = match doc {
        Ok(d) => d,
        Err(first) => {
            let (again, changed) = sanitize(fm);
            match changed.then(|| js_yaml_load(&again, JsYaml::V3)) {
                Some(Ok(d)) => {
                    r.changes.push(Change::new(
                        ChangeKind::RetryChanged,
                        None,
                        format!("the frontmatter fails to parse ({first}); opencode retries with every top-level value holding `:` read as a block scalar, so it is kept exactly as written"),
                    ));
                    d
                }
                _ => {
                    r.hidden = Some(Hidden::BadFrontmatter { message: first });
                    return r;
                }
            }
        }
    };
    if !matches!(doc, JsDoc::Map(_)) {
        r.hidden = Some(Hidden::BadFrontmatter {
            message: "the frontmatter is not a mapping".into(),
        });
        return r;
    }
    match doc.get("name") {
        Some(JsVal::Str(n)) => r.name = n.clone(),
        None | Some(JsVal::Null) => {
            r.hidden = Some(Hidden::NoName);
            return r;
        }
        Some(JsVal::Other(_)) => {
            r.hidden = Some(Hidden::NotAString { key: "name".into() });
            return r;
        }
    }
    match doc.get("description") {
        Some(JsVal::Str(d)) => r.description = Some(d.clone()),
        None => r.hidden = Some(Hidden::NoDescription),
        Some(_) => {
            r.hidden = Some(Hidden::NotAString {
                key: "description".into(),
            })
        }
    }
    r
}

/// One `<skill>` element as opencode writes it (the location escaped).
pub fn render(name: &str, description: &str, location: &str) -> String {
    let esc = location
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;");
    super::skill_element(name, description, &esc)
}

impl Client for Opencode {
    fn builtin_skills(&self) -> &'static [&'static str] {
        &["customize-opencode"]
    }

    fn id(&self) -> ClientId {
        ClientId::Opencode
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
                r.hidden = super::undiscovered(catalog, skill, &rel, DEPTH, false);
            }
            let text = r.description.clone().unwrap_or_default();
            let line = render(&r.name, &text, &format!(".agents/skills/{rel}/SKILL.md"));
            entries.push(super::entry(
                skill, i, r.name, text, line, r.hidden, r.changes,
            ));
        }
        // one skill per name: the last read (in path order here) wins; the
        // listing is sorted by name
        let shown = super::last_of_each_name(&mut entries);
        let mut names: Vec<(String, usize)> = shown
            .iter()
            .map(|&i| (entries[i].name.clone(), i))
            .collect();
        super::claude_code::collate(&mut names);
        let shown: Vec<usize> = names.into_iter().map(|(_, i)| i).collect();
        super::assemble(ClientId::Opencode, entries, &shown, builtins)
    }
}

/// The lock file that keeps opencode from installing its plugin package.
pub const PLUGIN_LOCK: &str =
    "{\"packages\": {\"\": {\"dependencies\": {\"@opencode-ai/plugin\": \"*\"}}}}\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gray_matter_closes_at_the_first_newline_dashes() {
        assert_eq!(frontmatter("---\nname: a\n---\nb"), Some("\nname: a"));
        assert_eq!(
            frontmatter("\u{feff}---\nname: a\n---\n"),
            Some("\nname: a")
        );
        assert_eq!(frontmatter("---\nd: a---b\n---x"), Some("\nd: a---b"));
        assert_eq!(frontmatter("----\nname: a\n---\n"), None);
        assert_eq!(frontmatter("---\nname: a\n"), Some("\nname: a\n"));
    }

    #[test]
    fn the_retry_makes_colon_values_block_scalars() {
        let (t, c) = sanitize(
            "name: x\ndescription: Deploys. DO NOT USE FOR: builds # c\nallowed-tools: a: b",
        );
        assert!(c);
        assert_eq!(
            t,
            "name: x\ndescription: |-\n  Deploys. DO NOT USE FOR: builds # c\nallowed-tools: a: b"
        );
        assert!(!sanitize("description: \"a: b\"").1);
    }
}
