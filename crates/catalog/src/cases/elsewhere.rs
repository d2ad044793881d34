//! Trigger tests kept where no reader looks: never silent.
//!
//! The readers search the fixed layouts, a skill's own folder (beside
//! SKILL.md, `evals/`, `tests/`) and the catalog root (its own files,
//! `evals/`, `tests/`, `test/`). A file anywhere else whose name says it
//! may hold trigger tests (`trigger`, `routing`, `activation`, `prompts`,
//! `skill-tests`, `evals`) is read here, bounded like every case source,
//! and detected by shape ([`super::detect`]): when it holds prompts, a
//! notice (SG437) names it, says how many prompts were left unread, and,
//! when a `[[cases.sources]]` declaration would read it, gives the table to
//! paste; a file named like trigger tests in which nothing is found gets
//! the notice that lists its records' keys. Nothing found here is routed:
//! a file outside the searched places may be an example, a template or
//! someone else's data, and only its author can say it is not.

use super::SkillNames;
use super::detect::{self, Node, NodeKind};
use super::shaped::{self, Data};
use crate::catalog::discover::{EntryKind, Listed, SKIP_DIRS};
use crate::catalog::skill::Skill;
use crate::catalog::source::Source;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::rules::shaped as rules;
use std::collections::HashSet;
use std::path::Path;

/// Most entries walked looking for such files; a larger catalog is not
/// searched beyond the readers' places.
pub const MAX_WALK: usize = 100_000;
/// Deepest folder walked.
pub const MAX_DEPTH: usize = 12;
/// Most files read here.
pub const MAX_FILES: usize = 200;

/// Folders never searched: dependencies, build output, fixtures, results.
const NOT_SEARCHED: &[&str] = &[
    "fixtures",
    "results",
    "node_modules",
    "vendor",
    "dist",
    "build",
];

/// Whether a file's name says it may hold trigger tests.
fn named_like_cases(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file).to_ascii_lowercase();
    shaped::is_data(&name)
        && (shaped::named_like_tests(&name)
            || [
                "prompts",
                "skill-test",
                "skill_test",
                "skilltest",
                "evals",
                "eval-set",
                "eval_set",
            ]
            .iter()
            .any(|w| name.contains(w)))
}

/// Whether `file` is plain text in a folder whose path says trigger tests
/// (`tests/skill-triggering/prompts/<skill>.txt`): one prompt per file,
/// in obra/superpowers' layout and its forks.
fn text_in_trigger_folder(file: &str) -> bool {
    let lower = file.to_ascii_lowercase();
    let Some((dir, name)) = lower.rsplit_once('/') else {
        return false;
    };
    name.ends_with(".txt")
        && dir.split('/').any(|p| {
            ["trigger", "routing", "activation"]
                .iter()
                .any(|w| p.contains(w))
        })
}

/// Whether the readers already search `file`'s place: a skill's folder
/// (beside SKILL.md, under `evals/`, `tests/`, `test/`), the root's own
/// files and its `evals/`, `tests/`, `test/`.
fn searched(file: &str, skill_dirs: &[&str]) -> bool {
    let in_place = |rest: &str| {
        !rest.contains('/')
            || super::root::PLACES
                .iter()
                .any(|p| rest.starts_with(&format!("{p}/")))
    };
    if in_place(file) {
        return true;
    }
    skill_dirs.iter().any(|d| {
        *d == "."
            || file
                .strip_prefix(d)
                .and_then(|r| r.strip_prefix('/'))
                .is_some_and(in_place)
    })
}

/// Data files outside the searched places whose names say they may hold
/// trigger tests, sorted; `None` when the catalog is too large to walk. A
/// skill's folder is not walked again: its files are known
/// ([`Skill::files`]).
fn candidates(
    root: &Path,
    skills: &[Skill],
    skill_dirs: &[&str],
    listed: Option<&Listed>,
) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let skill_set: HashSet<&str> = skill_dirs.iter().copied().collect();
    for s in skills {
        for f in &s.files {
            let file = crate::catalog::discover::join_rel(&s.rel_dir, f);
            if named_like_cases(&file) && !searched(&file, skill_dirs)
                || text_in_trigger_folder(&file)
            {
                out.push(file);
            }
        }
    }
    let mut seen = 0usize;
    let mut stack = vec![(root.to_path_buf(), String::new(), 0usize)];
    while let Some((dir, rel, depth)) = stack.pop() {
        // the catalog walk's own listing of the folder, else the disk's; a
        // link is never followed (`file_type` does not follow it)
        let entries: Vec<(String, EntryKind)> = match listed.and_then(|l| l.get(&rel)) {
            Some(list) => list.iter().map(|e| (e.name.to_string(), e.kind)).collect(),
            None => {
                let Ok(rd) = std::fs::read_dir(&dir) else {
                    continue;
                };
                rd.filter_map(Result::ok)
                    .filter_map(|e| {
                        let t = e.file_type().ok()?;
                        let kind = if t.is_dir() {
                            EntryKind::Dir
                        } else if t.is_symlink() {
                            EntryKind::Link
                        } else {
                            EntryKind::Other
                        };
                        Some((e.file_name().into_string().ok()?, kind))
                    })
                    .collect()
            }
        };
        for (name, kind) in entries {
            seen += 1;
            if seen > MAX_WALK {
                return None;
            }
            let child = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if kind == EntryKind::Dir {
                if depth < MAX_DEPTH
                    && !skill_set.contains(child.as_str())
                    && !name.starts_with('.')
                    && !SKIP_DIRS.contains(&name.as_str())
                    && !NOT_SEARCHED.contains(&name.as_str())
                {
                    stack.push((dir.join(&name), child, depth + 1));
                }
            } else if kind == EntryKind::Other
                && (named_like_cases(&child) && !searched(&child, skill_dirs)
                    || text_in_trigger_folder(&child))
            {
                out.push(child);
            }
        }
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// The notices for trigger tests kept where no reader looks; `taken` holds
/// the files some reader (or a declaration) already reads.
/// `listed`: the folders the catalog walk already listed, not read again.
pub fn unsearched(
    root: &Path,
    config: &Config,
    skills: &[Skill],
    taken: &HashSet<String>,
    listed: Option<&Listed>,
) -> Vec<Diagnostic> {
    let skill_dirs: Vec<&str> = skills.iter().map(|s| s.rel_dir.as_str()).collect();
    let Some(files) = candidates(root, skills, &skill_dirs, listed) else {
        return Vec::new();
    };
    let ignore = super::scan::globs(&config.cases.ignore).unwrap_or_default();
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let names = SkillNames::new(skills);
    let limit = config.catalog.max_case_bytes;
    let (texts, files): (Vec<String>, Vec<String>) = files
        .into_iter()
        .filter(|f| !taken.contains(f) && !ignore.is_match(f))
        .partition(|f| text_in_trigger_folder(f));
    let mut out = text_notices(&texts, &names);
    for file in files.into_iter().take(MAX_FILES) {
        let path = root.join(&file);
        if crate::catalog::outside_root(&boundary, &path).is_some() {
            continue;
        }
        let Ok(Some(bytes)) = crate::catalog::read_bounded(&path, limit) else {
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let source = Source::new(text);
        let data = shaped::parse_any(&file, &source.text, limit);
        let found = data.as_ref().map(|d| shaped::detect(d, &names));
        let prompts = found.as_ref().map_or(0, |f| {
            let mut records: Vec<(usize, usize)> = f.prompts.iter().map(|p| p.record).collect();
            records.dedup();
            records.len() + f.unstated.map_or(0, |u| u.1)
        });
        if prompts == 0 {
            if shaped::named_like_tests(&file) {
                out.push(shaped::unread_by_name(&file, data.as_ref()));
            }
            continue;
        }
        let block = match (&data, &found) {
            (Some(Data::Markdown(_)), Some(f)) => markdown_declaration(&file, f, &names),
            (Some(d), _) => declaration(&file, d, &names),
            _ => None,
        };
        let help = match &block {
            Some(b) => format!(
                "to route them, paste into skillsift.toml:\n\n{b}\nor move the file into the skill's folder (or the root's evals/); list a file that is not trigger tests in [cases] ignore"
            ),
            None => "move the file into the skill's folder (or the root's evals/), or declare it in skillsift.toml ([[cases.sources]], `skillsift rule SG437`); list a file that is not trigger tests in [cases] ignore".to_string(),
        };
        let first = found.as_ref().and_then(|f| {
            f.prompts
                .first()
                .map(|p| (p.start, p.end))
                .or(f.unstated.map(|u| u.0))
        });
        let mut d = rules::NOT_READ
            .diag(
                &file,
                format!(
                    "this file holds {prompts} trigger {} in a folder `check` does not search for trigger tests: none is routed",
                    if prompts == 1 { "prompt" } else { "prompts" }
                ),
            )
            .with_help(help);
        if let Some((s, e)) = first {
            d = d.with_span(source.span(s, e)).with_label("first of them");
        }
        out.push(d);
    }
    out
}

/// One notice per folder of plain-text files named for skills in a folder
/// whose path says trigger tests: each file may be one prompt for the skill
/// it is named for, but nothing says whether it should trigger it, so
/// nothing is routed until a declaration says so (the table to paste reads
/// every file as a positive for its skill).
fn text_notices(texts: &[String], names: &SkillNames) -> Vec<Diagnostic> {
    let mut by_dir: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for f in texts {
        if let Some((dir, name)) = f.rsplit_once('/') {
            let stem = name.split_once('.').map_or(name, |(s, _)| s);
            if names.get(stem).is_some() {
                by_dir.entry(dir).or_default().push(name);
            }
        }
    }
    let mut out = Vec::new();
    for (dir, files) in by_dir {
        let n = files.len();
        let shown: Vec<String> = files
            .iter()
            .take(3)
            .map(|f| format!("`{}`", base::escape::line(f)))
            .collect();
        let part = dir.split('/').count();
        let help = if pasteable(dir) {
            format!(
                "if each file is a prompt that should trigger the skill it is named for, paste into skillsift.toml:\n\n[[cases.sources]]\nfiles = \"{dir}/*.txt\"\nformat = \"text\"\nskill-path-part = {part}\n\nlist them in [cases] ignore otherwise"
            )
        } else {
            "declare them in skillsift.toml ([[cases.sources]] with format = \"text\" and skill-path-part), or list them in [cases] ignore".to_string()
        };
        out.push(
            rules::NOT_READ
                .diag(
                    format!("{dir}/{}", files[0]),
                    format!(
                        "{n} plain-text {} in this folder {} named for skills ({}{}) in a folder named for trigger tests: each may be one prompt for its skill, but nothing says whether it should trigger it, so none is routed",
                        if n == 1 { "file" } else { "files" },
                        if n == 1 { "is" } else { "are" },
                        shown.join(", "),
                        if n > 3 { ", …" } else { "" }
                    ),
                )
                .with_help(help),
        );
    }
    out
}

/// Whether a path can be pasted as a glob and shown: no glob or control
/// characters, no quote.
fn pasteable(file: &str) -> bool {
    !file
        .chars()
        .any(|c| c.is_control() || matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\' | '"'))
}

/// The `[[cases.sources]]` table that reads a Markdown file of prompt
/// lists: its title names the skill, else a part of its path.
fn markdown_declaration(
    file: &str,
    found: &detect::Detected,
    names: &SkillNames,
) -> Option<String> {
    if !pasteable(file) || found.prompts.is_empty() {
        return None;
    }
    let mut b = format!("[[cases.sources]]\nfiles = \"{file}\"\nformat = \"markdown\"\n");
    if found
        .prompts
        .iter()
        .any(|p| p.owner == detect::Owner::Unknown)
    {
        let parts: Vec<&str> = file.split('/').collect();
        let last = parts.len() - 1;
        let i = parts.iter().enumerate().position(|(i, p)| {
            let p = if i == last {
                p.split_once('.').map_or(*p, |(s, _)| s)
            } else {
                p
            };
            names.get(p).is_some()
        })?;
        b.push_str(&format!("skill-path-part = {i}\n"));
    }
    Some(b)
}

/// The `[[cases.sources]]` table that reads `file` as its records say,
/// when one can: records under one path, a prompt field, and a skill field
/// or a true/false field saying the prompt should trigger.
fn declaration(file: &str, data: &Data, names: &SkillNames) -> Option<String> {
    // `files` is a glob, shown in a terminal: a path that a glob would
    // read otherwise, or that holds control characters, gets no table
    if !pasteable(file) {
        return None;
    }
    let lower = file.to_ascii_lowercase();
    let format = if lower.ends_with(".csv") {
        "csv"
    } else if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") {
        "jsonl"
    } else if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        "yaml"
    } else {
        "json"
    };
    let (records, first): (String, &[(String, Node)]) = match data {
        Data::Lines(lines) => (String::new(), entries(lines.first()?)?),
        // read by [`markdown_declaration`]
        Data::Markdown(_) => return None,
        Data::One(n) => {
            let (path, list) = records_path(n, 0)?;
            (path, entries(list.first()?)?)
        }
    };
    let prompt = detect::PROMPT_FIELDS
        .iter()
        .find_map(|f| {
            first
                .iter()
                .find(|(k, v)| detect::words(k).join(" ") == *f && v.as_text().is_some())
        })?
        .0
        .clone();
    let skill = first.iter().find_map(|(k, v)| {
        let names_one = match &v.kind {
            NodeKind::Str(s) => {
                names.get(s.trim()).is_some() || shaped::resolve(names, s.trim()).is_some()
            }
            NodeKind::List(l) => l
                .iter()
                .any(|i| i.as_text().is_some_and(|s| names.get(s.trim()).is_some())),
            _ => false,
        };
        (names_one && detect::is_skill_field(k)).then(|| k.clone())
    });
    let polarity = first.iter().find_map(|(k, v)| {
        let boolean = matches!(&v.kind, NodeKind::Bool(_))
            || v.as_text().is_some_and(|s| {
                matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "false")
            });
        (boolean && detect::says_trigger(k)).then(|| k.clone())
    });
    if skill.is_none() && polarity.is_none() {
        return None;
    }
    // without a skill field, the skill comes from a part of the path
    let path_part = if skill.is_none() {
        let parts: Vec<&str> = file.split('/').collect();
        Some(
            parts[..parts.len() - 1]
                .iter()
                .position(|p| names.get(p).is_some())?,
        )
    } else {
        None
    };
    // keys come from the file: one with a control character gets no table
    if [
        Some(&records),
        Some(&prompt),
        skill.as_ref(),
        polarity.as_ref(),
    ]
    .into_iter()
    .flatten()
    .any(|k| k.chars().any(char::is_control))
    {
        return None;
    }
    let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut b = String::from("[[cases.sources]]\n");
    b.push_str(&format!("files = \"{}\"\n", quote(file)));
    b.push_str(&format!("format = \"{format}\"\n"));
    if !records.is_empty() {
        b.push_str(&format!("records = \"{}\"\n", quote(&records)));
    }
    b.push_str(&format!("prompt = \"{}\"\n", quote(&prompt)));
    if let Some(s) = &skill {
        b.push_str(&format!("skill = \"{}\"\n", quote(s)));
    }
    if let Some(i) = path_part {
        b.push_str(&format!("skill-path-part = {i}\n"));
    }
    if let Some(p) = &polarity {
        b.push_str(&format!("polarity = \"{}\"\n", quote(p)));
    }
    Some(b)
}

fn entries(n: &Node) -> Option<&[(String, Node)]> {
    match &n.kind {
        NodeKind::Map(m) => Some(m),
        _ => None,
    }
}

/// The dotted path to the first array of objects holding a prompt field,
/// and that array.
fn records_path(n: &Node, depth: usize) -> Option<(String, &[Node])> {
    if depth > 8 {
        return None;
    }
    match &n.kind {
        NodeKind::List(items)
            if items.first().and_then(entries).is_some_and(|m| {
                m.iter().any(|(k, v)| {
                    v.as_text().is_some()
                        && detect::PROMPT_FIELDS.contains(&detect::words(k).join(" ").as_str())
                })
            }) =>
        {
            Some((String::new(), items))
        }
        NodeKind::Map(m) => m.iter().find_map(|(k, v)| {
            if k.contains('.') {
                return None;
            }
            let (rest, list) = records_path(v, depth + 1)?;
            Some((
                if rest.is_empty() {
                    k.clone()
                } else {
                    format!("{k}.{rest}")
                },
                list,
            ))
        }),
        _ => None,
    }
}
