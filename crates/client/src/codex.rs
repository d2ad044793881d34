//! Codex CLI's reading of a catalog, as the installed CLI (0.171.0) does
//! it — each rule below was found by running the real CLI on tricky skills
//! and is held to it by `tests/real_codex_listing.rs`:
//!
//! - **Discovery**: every `SKILL.md` up to 6 folder levels below a skills
//!   root (`.agents/skills/`), folders whose name starts with a dot
//!   skipped.
//! - **Split**: the first line, trimmed, must be `---` (a BOM or a blank
//!   first line means no frontmatter); the frontmatter ends at the next
//!   line that is `---` once trimmed; CRLF is fine. No closing line, or
//!   nothing between the two, means no frontmatter. A skill without one is
//!   dropped.
//! - **YAML** (serde_yaml, libyaml's YAML 1.1 parser; here yaml-rust2 and
//!   libyaml's refusal of tabs in indentation): `name` and `description`
//!   must be scalars (any scalar is read as the text written: `1.10` stays
//!   `1.10`), `metadata` a mapping; a key twice is an error. On an error,
//!   one retry after double-quoting every `key: value` line whose value
//!   (its ` #` comment cut off) holds `: ` or starts with `[`, `{`, `@` or
//!   `` ` `` (a whole flow list without `: ` excepted) — values starting
//!   with a quote or a block indicator are left alone. When the retry fails
//!   too, the skill is dropped.
//! - **Values**: white space runs become one space. No `name` (or an empty
//!   one): the folder's name; a name over 64 characters drops the skill. No
//!   `description` (or an empty one) drops it too.
//! - **Entry**: `- <name>: <description> (file: r<N>/<path>/SKILL.md)`, the
//!   description cut to 1,021 characters + `...` past 1,024.
//! - **Listing**: the bundled system skills first (`r0`), then the
//!   catalog's sorted by name (byte order), then path; two skills with one
//!   name are both listed. The whole list (one line each, `\n` included)
//!   costs `ceil(bytes / 4)` tokens per line against a budget of 2 % of the
//!   model's context window (10,000 tokens for the default model of 0.171,
//!   `gpt-6.2-sol`'s 500,000; 5,440 for `gpt-5.5`'s 272,000), less what the
//!   roots table costs over absolute paths (a few tokens, depending on the
//!   install folders' paths). Over it, descriptions are shortened one
//!   character at a time, round-robin over every skill, until it fits; when
//!   not even the names fit, skills are left out from the end.

use super::{Budget, Builtin, Change, ChangeKind, Client, ClientId, Entry, Hidden, Listing};
use crate::catalog::yaml::{Kind, Node, Style};
use crate::catalog::{Catalog, Skill};
use crate::config::Config;

/// The Codex version this model was checked against.
pub const TESTED_VERSION: &str = "0.171.0";
/// How many folder levels below a skills root Codex looks.
pub const DEPTH: usize = 6;
/// Longest description shown whole, in characters.
pub const DESCRIPTION_CAP: usize = 1024;
/// Longest name accepted, in characters.
pub const NAME_LIMIT: usize = 64;
/// The listing budget of the default model (`gpt-6.2-sol`: a 500,000-token
/// context window × 2 %), in tokens.
pub const BUDGET_TOKENS: usize = 10_000;
/// Bytes per token in the budget's count.
pub const BYTES_PER_TOKEN: usize = 4;

/// The introductions of the skills section, with path aliases and with
/// absolute paths: the difference, with the roots table, is what the
/// aliases cost.
const INTRO_ALIASES: &str = "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.";
const INTRO_ABSOLUTE: &str = "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list of skills that can be used. Each entry includes a name, description, and source locator. `file` locators are on the host filesystem, `executor package` locators are owned by their execution environment, `cloud package` locators are opaque package identifiers, and `custom resource` locators use their provider's access mechanism.";

/// The roots table a listing is priced with when the install folders are
/// not known: a typical home and project.
pub fn default_roots() -> Vec<String> {
    vec![
        "- `r0` = `/home/user/.codex/skills/.system`".into(),
        "- `r1` = `/home/user/project/.agents/skills`".into(),
    ]
}

/// What the roots table costs against the budget: the aliased section's
/// frame over the absolute one's, never below 0.
pub fn table_cost(roots: &[String]) -> usize {
    let mut aliased = vec!["## Skills", INTRO_ALIASES, "### Skill roots"];
    aliased.extend(roots.iter().map(String::as_str));
    aliased.push("### Available skills");
    let aliased = format!("\n{}\n", aliased.join("\n"));
    let absolute = format!("\n## Skills\n{INTRO_ABSOLUTE}\n### Available skills\n");
    tokens(aliased.len()).saturating_sub(tokens(absolute.len()))
}

/// Codex.
pub struct Codex;

/// One SKILL.md as Codex reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub name: String,
    pub description: String,
    pub hidden: Option<Hidden>,
    pub changes: Vec<Change>,
}

/// Codex's frontmatter: the lines between a first line that is `---` and
/// the next such line, joined by `\n`.
pub fn frontmatter(text: &str) -> Result<String, String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(l) if l.trim() == "---" => {}
        Some(l) if l.trim_start_matches('\u{feff}').trim() == "---" => {
            return Err("the file starts with a byte order mark".into());
        }
        Some(l) if l.trim().is_empty() => {
            return Err("the first line is blank, not `---`".into());
        }
        _ => return Err("the first line is not `---`".into()),
    }
    let mut body = Vec::new();
    for l in lines {
        if l.trim() == "---" {
            if body.is_empty() {
                return Err("the frontmatter is empty".into());
            }
            return Ok(body.join("\n"));
        }
        body.push(l);
    }
    Err("the frontmatter is never closed by a `---` line".into())
}

/// What serde_yaml makes of `name`, `description` and `metadata`: the text
/// of a scalar (`None` for null), or why it refuses the document.
fn serde_read(yaml: &str) -> Result<(Option<String>, Option<String>), String> {
    if super::claude_code::bun_refuses_tabs(yaml) {
        return Err("found a tab character where an indentation space is expected".into());
    }
    let tree = crate::catalog::yaml::parse(yaml).map_err(|e| e.message)?;
    if let Some(d) = tree.duplicates.first() {
        return Err(format!("duplicate entry with key \"{}\"", d.key));
    }
    let Some(root) = tree.root else {
        return Err("the frontmatter is empty".into());
    };
    let Kind::Map(entries) = &root.kind else {
        return Err("the frontmatter is not a mapping".into());
    };
    let scalar = |key: &str, v: &Node| -> Result<Option<String>, String> {
        match &v.kind {
            Kind::Scalar { style, .. } if *style == Style::Plain && v.is_null() => Ok(None),
            Kind::Scalar { text, .. } => Ok(Some(text.clone())),
            Kind::Seq(_) => Err(format!(
                "`{key}`: invalid type: sequence, expected a string"
            )),
            Kind::Map(_) => Err(format!("`{key}`: invalid type: map, expected a string")),
        }
    };
    let (mut name, mut description) = (None, None);
    for (k, v) in entries {
        match k.scalar_text() {
            Some("name") => name = scalar("name", v)?,
            Some("description") => description = scalar("description", v)?,
            Some("metadata") => match &v.kind {
                Kind::Map(m) => {
                    for (mk, mv) in m {
                        if mk.scalar_text() == Some("short-description") {
                            scalar("metadata.short-description", mv)?;
                        }
                    }
                }
                _ if v.is_null() => {}
                _ => return Err("`metadata`: invalid type, expected a mapping".into()),
            },
            _ => {}
        }
    }
    Ok((name, description))
}

/// The retry's rewriting of one line, when it rewrites it.
fn retry_line(line: &str) -> Option<String> {
    let b = line.as_bytes();
    let colon =
        (0..b.len()).find(|&i| b[i] == b':' && matches!(b.get(i + 1), Some(b' ' | b'\t')))?;
    let key = &line[..colon];
    let k = key.trim_start();
    let k = k.strip_prefix("- ").unwrap_or(k).trim();
    if k.is_empty() || k.starts_with('#') {
        return None;
    }
    let mut value = line[colon + 1..].trim_start();
    if let Some(c) = [" #", "\t#"].iter().filter_map(|p| value.find(p)).min() {
        value = &value[..c];
    }
    let value = value.trim_end();
    if value.is_empty() || value.starts_with(['"', '\'', '|', '>']) {
        return None;
    }
    let colon = value.contains(": ") || value.contains(":\t");
    let flow_list = value.starts_with('[')
        && value.ends_with(']')
        && matches!(
            crate::catalog::yaml::parse(value).ok().and_then(|t| t.root),
            Some(Node {
                kind: Kind::Seq(_),
                ..
            })
        );
    let special = colon || (value.starts_with(['[', '{', '@', '`']) && !flow_list);
    if !special {
        return None;
    }
    Some(format!(
        "{key}: \"{}\"",
        value.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// The retry's text and whether it changed anything.
pub fn retry_text(yaml: &str) -> (String, bool) {
    let mut changed = false;
    let lines: Vec<String> = yaml
        .split('\n')
        .map(|l| match retry_line(l) {
            Some(q) => {
                changed = true;
                q
            }
            None => l.to_string(),
        })
        .collect();
    (lines.join("\n"), changed)
}

/// White space runs as one space (`split_whitespace` joined).
pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The span of the last `key` entry's value in the skill's frontmatter.
fn value_span(skill: &Skill, key: &str) -> Option<crate::diag::Span> {
    skill
        .frontmatter
        .as_ref()?
        .entries
        .iter()
        .rev()
        .find(|e| e.key == key)
        .map(|e| e.value_span)
}

/// Read one skill.
pub fn read(skill: &Skill) -> Reading {
    let mut r = Reading {
        name: collapse(&skill.folder),
        description: String::new(),
        hidden: None,
        changes: Vec::new(),
    };
    let Some(src) = skill.source.as_deref() else {
        r.hidden = Some(Hidden::Unreadable);
        return r;
    };
    let yaml = match frontmatter(&src.text) {
        Ok(y) => y,
        Err(why) => {
            r.hidden = Some(Hidden::NoFrontmatter { why });
            return r;
        }
    };
    let (name, description) = match serde_read(&yaml) {
        Ok(v) => v,
        Err(first) => {
            let (again, changed) = retry_text(&yaml);
            match changed.then(|| serde_read(&again)) {
                Some(Ok(v)) => {
                    r.changes.push(Change::new(
                        ChangeKind::RetryChanged,
                        None,
                        format!("the frontmatter fails to parse ({first}); Codex retries with values holding `: ` quoted (their ` #` comments cut off) and reads it"),
                    ));
                    v
                }
                Some(Err(again)) => {
                    r.hidden = Some(Hidden::BadFrontmatter {
                        message: format!(
                            "{first}; after its retry with values holding `: ` quoted: {again}"
                        ),
                    });
                    return r;
                }
                None => {
                    r.hidden = Some(Hidden::BadFrontmatter { message: first });
                    return r;
                }
            }
        }
    };
    if let Some(n) = name.as_deref().map(collapse).filter(|n| !n.is_empty()) {
        r.name = n;
    }
    let chars = r.name.chars().count();
    if chars > NAME_LIMIT {
        r.hidden = Some(Hidden::NameTooLong {
            chars,
            limit: NAME_LIMIT,
        });
        return r;
    }
    let raw = description.unwrap_or_default();
    r.description = collapse(&raw);
    if r.description.is_empty() {
        r.hidden = Some(Hidden::NoDescription);
        return r;
    }
    if r.description != raw.trim() {
        r.changes.push(Change::new(
            ChangeKind::Whitespace,
            value_span(skill, "description"),
            "line breaks, tabs and repeated spaces in the description are shown as one space",
        ));
    }
    r
}

/// `description` cut to `cap` characters: its first `cap - 3` and `...`.
fn cut(description: &str, cap: usize) -> Option<String> {
    if description.chars().count() <= cap {
        return None;
    }
    let keep: String = description.chars().take(cap.saturating_sub(3)).collect();
    Some(format!("{keep}..."))
}

/// One line of the listing.
pub fn render(name: &str, description: &str, path: &str) -> String {
    if description.is_empty() {
        format!("- {name}: (file: {path})")
    } else {
        format!("- {name}: {description} (file: {path})")
    }
}

fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(BYTES_PER_TOKEN)
}

/// How many characters of each description fit `limit` tokens: every line
/// whole when they fit; else each line's name and path, and description
/// characters handed out one at a time, round-robin, while they fit; else
/// (`None` for a line) the lines with no description, in order, while they
/// fit. Each line costs `ceil((bytes + 1) / 4)` tokens.
pub fn allocate(lines: &[(String, String, String)], limit: usize) -> Vec<Option<usize>> {
    let full: usize = lines
        .iter()
        .map(|(n, d, p)| tokens(render(n, d, p).len() + 1))
        .sum();
    if full <= limit {
        return lines
            .iter()
            .map(|(_, d, _)| Some(d.chars().count()))
            .collect();
    }
    let min_bytes: Vec<usize> = lines
        .iter()
        .map(|(n, _, p)| render(n, "", p).len() + 1)
        .collect();
    let min_cost: Vec<usize> = min_bytes.iter().map(|b| tokens(*b)).collect();
    if min_cost.iter().sum::<usize>() > limit {
        let mut used = 0;
        return min_cost
            .iter()
            .map(|c| {
                if used + c <= limit {
                    used += c;
                    Some(0)
                } else {
                    None
                }
            })
            .collect();
    }
    // extra[i][k]: tokens over the bare line with k description characters
    let extra: Vec<Vec<usize>> = lines
        .iter()
        .zip(&min_bytes)
        .map(|((_, d, _), &mb)| {
            let base = tokens(mb);
            let mut e = vec![0];
            let mut pb = 0;
            for ch in d.chars() {
                pb += ch.len_utf8();
                e.push(tokens(mb + pb + 1) - base);
            }
            e
        })
        .collect();
    let mut alloc = vec![0usize; lines.len()];
    let mut cur = vec![0usize; lines.len()];
    let mut remaining = limit - min_cost.iter().sum::<usize>();
    loop {
        let mut changed = false;
        for i in 0..lines.len() {
            if alloc[i] + 1 >= extra[i].len() {
                continue;
            }
            let next = extra[i][alloc[i] + 1];
            let delta = next - cur[i];
            if delta <= remaining {
                alloc[i] += 1;
                cur[i] = next;
                remaining -= delta;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    alloc.into_iter().map(Some).collect()
}

impl Client for Codex {
    fn builtin_skills(&self) -> &'static [&'static str] {
        &["skill-creator", "skill-installer"]
    }

    fn id(&self) -> ClientId {
        ClientId::Codex
    }

    fn line(&self, name: &str, text: &str) -> String {
        if text.is_empty() {
            format!("- {name}:")
        } else {
            format!("- {name}: {text}")
        }
    }

    fn listing(&self, catalog: &Catalog, config: &Config, builtins: Option<&[Builtin]>) -> Listing {
        listing_with_roots(catalog, config, builtins, &default_roots())
    }
}

/// Codex's listing of `catalog` when its skills roots table holds `roots`
/// (`- \`r0\` = \`<folder>\`` lines, as a capture records them).
pub fn listing_with_roots(
    catalog: &Catalog,
    config: &Config,
    builtins: Option<&[Builtin]>,
    roots: &[String],
) -> Listing {
    {
        let cap = config
            .route
            .entry_cap_chars
            .unwrap_or(DESCRIPTION_CAP)
            .max(4);
        // a library or a marketplace is never installed whole: no budget
        // unless one is set
        let limit = match config.route.listing_budget_chars {
            Some(b) => b / BYTES_PER_TOKEN,
            None if !crate::install::installed_whole(catalog, config) => usize::MAX,
            None => BUDGET_TOKENS,
        };
        let builtins = builtins.unwrap_or(&[]);
        // the catalog's root is `r1`, after the bundled skills' `r0` (Codex
        // lists them unless its configuration switches them off)
        let alias = 1;
        let mut entries: Vec<Entry> = Vec::with_capacity(catalog.skills.len());
        for (i, skill) in catalog.skills.iter().enumerate() {
            let mut r = read(skill);
            let rel = super::installed_rel(catalog, skill);
            if r.hidden.is_none() {
                r.hidden = super::undiscovered(catalog, skill, &rel, DEPTH, true);
            }
            let mut text = r.description.clone();
            if r.hidden.is_none()
                && let Some(c) = cut(&text, cap)
            {
                r.changes.push(Change::new(
                    ChangeKind::Cut,
                    value_span(skill, "description"),
                    format!(
                        "the description is {} characters; Codex keeps {} and adds `...`",
                        text.chars().count(),
                        cap - 3
                    ),
                ));
                text = c;
            }
            let path = format!("r{alias}/{rel}/SKILL.md");
            let line = render(&r.name, &text, &path);
            entries.push(super::entry(
                skill, i, r.name, text, line, r.hidden, r.changes,
            ));
        }
        let mut order: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].listed).collect();
        order.sort_by(|&a, &b| {
            (entries[a].name.as_bytes(), &entries[a].path)
                .cmp(&(entries[b].name.as_bytes(), &entries[b].path))
        });
        // the budget: bundled skills first, then the catalog's
        let mut lines: Vec<(String, String, String)> = builtins
            .iter()
            .map(|b| {
                (
                    b.name.clone(),
                    b.text.clone(),
                    format!("r0/{}/SKILL.md", b.name),
                )
            })
            .collect();
        for &i in &order {
            let e = &entries[i];
            let path = e
                .line
                .rsplit_once(" (file: ")
                .map(|(_, p)| p.trim_end_matches(')').to_string())
                .unwrap_or_default();
            lines.push((e.name.clone(), e.text.clone(), path));
        }
        let used: usize = lines
            .iter()
            .map(|(n, d, p)| tokens(render(n, d, p).len() + 1))
            .sum();
        let alloc = allocate(&lines, limit.saturating_sub(table_cost(roots)));
        let nb = builtins.len();
        for (k, &i) in order.iter().enumerate() {
            let (n, d, p) = &lines[nb + k];
            let e = &mut entries[i];
            match alloc[nb + k] {
                None => {
                    e.listed = false;
                    e.reason = Some(Hidden::OverBudget);
                    e.text.clear();
                }
                Some(keep) if keep < d.chars().count() => {
                    let shown: String = d.chars().take(keep).collect();
                    e.changes.push(Change::new(
                        ChangeKind::Shortened,
                        None,
                        format!(
                            "the listing is {} tokens, over Codex's {limit}-token budget: the description is shortened to {keep} of its {} characters",
                            used + table_cost(roots),
                            d.chars().count()
                        ),
                    ));
                    e.name_only = keep == 0;
                    e.line = render(n, &shown, p);
                    e.text = shown;
                }
                Some(_) => {}
            }
        }
        let builtins_out = builtins
            .iter()
            .zip(&alloc)
            .filter_map(|(b, a)| {
                a.map(|keep| Builtin {
                    text: b.text.chars().take(keep).collect(),
                    ..b.clone()
                })
            })
            .collect();
        let mut sorted: Vec<Entry> = order
            .iter()
            .filter(|&&i| entries[i].listed)
            .map(|&i| entries[i].clone())
            .collect();
        sorted.extend(entries.into_iter().filter(|e| !e.listed));
        Listing {
            client: ClientId::Codex,
            entries: sorted,
            commands: Vec::new(),
            builtins: builtins_out,
            budget: (limit != usize::MAX).then_some(Budget {
                used: used + table_cost(roots),
                limit,
                unit: "tokens",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frontmatter_is_between_two_dash_lines_trimmed() {
        assert_eq!(
            frontmatter("---\r\nname: x\r\n---  \r\nbody").unwrap(),
            "name: x"
        );
        assert!(
            frontmatter("\u{feff}---\nname: x\n---\n")
                .unwrap_err()
                .contains("byte order")
        );
        assert!(
            frontmatter("\n---\nname: x\n---\n")
                .unwrap_err()
                .contains("blank")
        );
        assert!(frontmatter("---\n---\n").unwrap_err().contains("empty"));
        assert!(
            frontmatter("---\nname: x\n")
                .unwrap_err()
                .contains("never closed")
        );
    }

    #[test]
    fn the_retry_quotes_values_with_a_colon_or_a_flow_start_and_cuts_comments() {
        assert_eq!(
            retry_line("description: a: b # c: d").as_deref(),
            Some("description: \"a: b\"")
        );
        assert_eq!(
            retry_line("name: c17: z").as_deref(),
            Some("name: \"c17: z\"")
        );
        assert_eq!(
            retry_line("description: [x").as_deref(),
            Some("description: \"[x\"")
        );
        assert_eq!(
            retry_line("  - a: b: c").as_deref(),
            Some("  - a: \"b: c\"")
        );
        assert_eq!(retry_line("k y: a: b").as_deref(), Some("k y: \"a: b\""));
        for l in [
            "description: [a, b]",
            "description: \"q\" tail",
            "description: *x",
            "description: |x",
            "description: plain",
            "description: a:b",
            "# note: a: b",
        ] {
            assert_eq!(retry_line(l), None, "{l}");
        }
        assert_eq!(
            retry_line(r#"description: a: b "q" \ c"#).as_deref(),
            Some(r#"description: "a: b \"q\" \\ c""#)
        );
    }

    #[test]
    fn scalars_are_read_as_written_and_collections_refused() {
        assert_eq!(
            serde_read("name: 123\ndescription: 1.10").unwrap(),
            (Some("123".into()), Some("1.10".into()))
        );
        assert_eq!(serde_read("name: x\ndescription: ~").unwrap().1, None);
        assert!(serde_read("description: [a]").is_err());
        assert!(serde_read("description: a\ndescription: b").is_err());
        assert!(serde_read("metadata: text\ndescription: a").is_err());
    }

    #[test]
    fn over_budget_descriptions_shrink_round_robin_and_names_never_do() {
        let lines: Vec<(String, String, String)> = (0..3)
            .map(|i| {
                (
                    format!("s{i}"),
                    "x".repeat(100),
                    format!("r1/s{i}/SKILL.md"),
                )
            })
            .collect();
        let full = allocate(&lines, 1000);
        assert_eq!(full, [Some(100), Some(100), Some(100)]);
        let tight = allocate(&lines, 40);
        let kept: Vec<usize> = tight.iter().map(|k| k.unwrap()).collect();
        assert!(kept.iter().all(|&k| k < 100));
        assert!(
            kept.iter().max().unwrap() - kept.iter().min().unwrap() <= 4,
            "{kept:?}"
        );
        let none = allocate(&lines, 17);
        assert_eq!(none.iter().filter(|k| k.is_none()).count(), 1, "{none:?}");
    }
}
