//! `[[cases.sources]]`: trigger tests the catalog declares, for shapes no
//! detector should guess (deep inside a larger document, CSV, fields of the
//! author's own naming).
//!
//! Each table names its files (a glob from the catalog root), their
//! format, the dotted path to the records and the fields that hold the
//! prompt, the skill, the side, `lexical` and `split`. The files are read
//! like every case source: bounded by `[catalog] max-case-bytes`, never
//! outside the catalog, secrets masked. What the declaration promises and
//! the data does not hold stops the run with exit 2, naming the key: a
//! glob that matches no file, a records path that leads to no array, a
//! declared field no record holds. A record that holds less than the rest
//! (no prompt text, no skill, a side that is not true or false) is SG437,
//! counted per file; a skill the catalog lacks is SG438.

use super::detect::{Detected, Found, Node, NodeKind, Owner};
use super::{CaseSource, Decided, Format, Side, SkillNames, Split, markdown, shaped};
use crate::catalog::discover::SKIP_DIRS;
use crate::catalog::skill::Skill;
use crate::catalog::{json, yaml};
use crate::config::{Config, DeclaredFormat, DeclaredSource};
use crate::diag::Diagnostic;
use crate::exit::Fatal;
use std::collections::BTreeSet;
use std::path::Path;

/// Most entries walked looking for the files of the declarations.
pub const MAX_WALK: usize = 200_000;
/// Deepest folder walked.
pub const MAX_DEPTH: usize = 32;

/// Every file under `root` (relative, `/`-separated, sorted), `.git`,
/// `node_modules` and `target` left out, links never followed.
fn walk(root: &Path) -> Result<Vec<String>, Fatal> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    let mut stack = vec![(root.to_path_buf(), String::new(), 0usize)];
    while let Some((dir, rel, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.filter_map(Result::ok) {
            seen += 1;
            if seen > MAX_WALK {
                return Err(Fatal::usage(format!(
                    "[[cases.sources]]: the catalog holds more than {MAX_WALK} entries; its declared sources were not searched"
                ))
                .with_help("check a smaller folder"));
            }
            let Ok(name) = e.file_name().into_string() else {
                continue;
            };
            let child = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                if depth < MAX_DEPTH && !SKIP_DIRS.contains(&name.as_str()) {
                    stack.push((e.path(), child, depth + 1));
                }
            } else if t.is_file() {
                out.push(child);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The files each declaration names, in order; exit 2 for one that names
/// none.
pub fn files_of(root: &Path, config: &Config) -> Result<Vec<Vec<String>>, Fatal> {
    if config.cases.sources.is_empty() {
        return Ok(Vec::new());
    }
    let all = walk(root)?;
    let mut out = Vec::new();
    for (i, d) in config.cases.sources.iter().enumerate() {
        let m = crate::config::declared_glob(&d.files).map_err(Fatal::usage)?;
        let files: Vec<String> = all.iter().filter(|f| m.is_match(f)).cloned().collect();
        if files.is_empty() {
            return Err(Fatal::usage(format!(
                "skillsift.toml: [[cases.sources]] #{}: files = \"{}\" matches no file in the catalog",
                i + 1,
                d.files
            ))
            .with_help(
                "write the glob relative to the catalog root (`*` stays within a folder, `**` crosses folders), or remove the table",
            ));
        }
        out.push(files);
    }
    Ok(out)
}

/// The value at a dotted `path` in `n` (a number picks an array item).
fn at<'a>(n: &'a Node, path: &str) -> Option<&'a Node> {
    if path.is_empty() {
        return Some(n);
    }
    let mut cur = n;
    for part in path.split('.') {
        cur = match &cur.kind {
            NodeKind::Map(m) => m.iter().find(|(k, _)| k == part).map(|(_, v)| v)?,
            NodeKind::List(l) => l.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// The records of a JSON or YAML document: the items of the array at the
/// records path.
fn records<'a>(docs: &'a [Node], path: &str) -> Option<Vec<&'a Node>> {
    match docs.first().and_then(|doc| at(doc, path)) {
        Some(Node {
            kind: NodeKind::List(items),
            ..
        }) => Some(items.iter().collect()),
        _ => None,
    }
}

/// The documents of a file: one, or one per JSONL line or CSV row (rows
/// as objects of header → text); the findings that stop it being read.
fn parse(
    file: &str,
    format: DeclaredFormat,
    src: &crate::catalog::Source,
    limit: u64,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Node>> {
    let text = &src.text;
    match format {
        DeclaredFormat::Json => {
            let tree = super::parse_json(file, src, limit, diags)?;
            Some(vec![Node::from_json(&tree.root, 0)])
        }
        DeclaredFormat::Jsonl => {
            let limits = json::Limits {
                max_bytes: usize::try_from(limit).unwrap_or(usize::MAX),
                ..json::Limits::default()
            };
            match shaped::jsonl(text, limits) {
                Ok(lines) => Some(lines),
                Err((at, e)) => {
                    diags.push(super::json_syntax(file, src, at, &e));
                    None
                }
            }
        }
        DeclaredFormat::Yaml => {
            let limits = yaml::Limits {
                max_nodes: shaped::MAX_YAML_NODES,
                what: "the file",
            };
            match yaml::parse_with(text, limits) {
                Ok(tree) => Some(
                    tree.root
                        .as_ref()
                        .map(Node::from_yaml)
                        .into_iter()
                        .collect(),
                ),
                Err(e) => {
                    diags.push(super::yaml_syntax(file, src, &e));
                    None
                }
            }
        }
        DeclaredFormat::Csv => Some(::cases::csv::rows(file, text, diags)?),
        // one record, the whole file's text (trimmed)
        DeclaredFormat::Text => {
            let start = text.len() - text.trim_start().len();
            let end = text.trim_end().len().max(start);
            let item = Node {
                kind: NodeKind::Str(text[start..end].to_string()),
                start,
                end,
            };
            Some(vec![Node {
                kind: NodeKind::List(vec![item]),
                start: 0,
                end: text.len(),
            }])
        }
        // read by [`markdown::detect`], not as records
        DeclaredFormat::Markdown => Some(Vec::new()),
    }
}

/// A text or boolean field read as a boolean (`true`, `false`, in any case).
fn boolean(n: &Node) -> Option<bool> {
    match &n.kind {
        NodeKind::Bool(b) => Some(*b),
        NodeKind::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// The skill whose folder holds `file`, if any (the deepest).
fn folder_skill(file: &str, skills: &[Skill]) -> Option<usize> {
    skills
        .iter()
        .enumerate()
        .filter(|(_, s)| s.rel_dir == "." || file.starts_with(&format!("{}/", s.rel_dir)))
        .max_by_key(|(_, s)| s.rel_dir.len())
        .map(|(i, _)| i)
}

/// What one declaration reads from one file.
struct Read {
    found: Detected,
    /// Per declared field (prompt, skill, polarity, lexical, split): how
    /// many records hold it.
    held: [usize; 5],
    /// Records that held less than the declaration promises, by why.
    short: Vec<(String, (usize, usize), usize)>,
}

fn read_records(d: &DeclaredSource, recs: &[&Node], all_skills: &[String], shape: &str) -> Read {
    let mut found = Detected::default();
    let mut held = [0usize; 5];
    let mut short: Vec<(String, (usize, usize), usize)> = Vec::new();
    let mut note = |why: &str, n: &Node| match short.iter_mut().find(|s| s.0 == why) {
        Some(s) => s.2 += 1,
        None => short.push((why.to_string(), (n.start, n.end), 1)),
    };
    for r in recs {
        let get = |f: &Option<String>| f.as_deref().and_then(|f| at(r, f));
        let prompt = at(r, &d.prompt);
        let skill = get(&d.skill);
        let polarity = get(&d.polarity);
        let lexical = get(&d.lexical);
        let split = get(&d.split);
        for (i, v) in [prompt, skill, polarity, lexical, split].iter().enumerate() {
            held[i] += usize::from(v.is_some());
        }
        let Some(p) = prompt.filter(|p| p.as_text().is_some_and(|t| !t.trim().is_empty())) else {
            note(&format!("hold no prompt text in `{}`", d.prompt), r);
            continue;
        };
        let text = p.as_text().unwrap_or_default().to_string();
        let mut side_rule = match &d.polarity {
            Some(f) => format!("the declared polarity field `{f}`"),
            None => {
                "the declaration (it names no polarity field: every prompt is positive)".to_string()
            }
        };
        let mut owner_rule = match &d.skill {
            Some(f) => format!("the declared skill field `{f}`"),
            None => String::new(),
        };
        let mut side = match (&d.polarity, polarity.and_then(boolean)) {
            (None, _) => Side::Positive,
            (Some(_), Some(true)) => Side::Positive,
            (Some(_), Some(false)) => Side::Negative,
            (Some(f), None) => {
                note(&format!("have no true or false in `{f}`"), r);
                continue;
            }
        };
        let owner = match (&d.skill, skill) {
            (None, _) => Owner::Unknown,
            (
                Some(_),
                Some(Node {
                    kind: NodeKind::Str(s),
                    ..
                }),
            ) if d.negative_when.as_deref() == Some(s.trim()) => {
                side = Side::Negative;
                side_rule = format!(
                    "the declared skill field `{}` is the declared negative-when value",
                    d.skill.as_deref().unwrap_or_default()
                );
                owner_rule = "the declared negative-when value: a negative for every skill".into();
                Owner::Named(all_skills.to_vec())
            }
            (
                Some(_),
                Some(Node {
                    kind: NodeKind::Str(s),
                    ..
                }),
            ) if !s.trim().is_empty() => Owner::Named(vec![s.trim().to_string()]),
            (
                Some(_),
                Some(Node {
                    kind: NodeKind::List(items),
                    ..
                }),
            ) if !items.is_empty() && items.iter().all(|i| i.as_text().is_some()) => Owner::Named(
                items
                    .iter()
                    .filter_map(Node::as_text)
                    .map(|s| s.trim().to_string())
                    .collect(),
            ),
            (Some(f), _) => {
                note(&format!("name no skill in `{f}`"), r);
                continue;
            }
        };
        found.prompts.push(Found {
            prompt: text,
            start: p.start,
            end: p.end,
            record: (r.start, r.end),
            side,
            owner,
            negative_owner: None,
            split: split.and_then(Node::as_text).and_then(Split::parse),
            top_k: None,
            lexical: lexical.and_then(boolean).unwrap_or(true),
            draft: false,
            reason: None,
            shape: shape.to_string(),
            also: Vec::new(),
            decided: Decided::new(owner_rule, side_rule),
        });
    }
    Read { found, held, short }
}

/// Every declared source, read into case sources (one per skill and file),
/// with the findings about records that could not be read; exit 2 for a
/// declaration the data does not meet.
pub fn load_all(
    root: &Path,
    config: &Config,
    skills: &[Skill],
    files: &[Vec<String>],
) -> Result<(Vec<CaseSource>, Vec<Diagnostic>), Fatal> {
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let names = SkillNames::new(skills);
    let all_skills: Vec<String> = skills
        .iter()
        .map(|s| super::skill_key(s).to_string())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let limit = config.catalog.max_case_bytes;
    let mut sources = Vec::new();
    let mut diags = Vec::new();
    for (i, (d, files)) in config.cases.sources.iter().zip(files).enumerate() {
        let which = format!("skillsift.toml: [[cases.sources]] #{}", i + 1);
        if d.skill.is_some() && d.skill_path_part.is_some() {
            return Err(Fatal::usage(format!(
                "{which}: both `skill` and `skill-path-part` say where the skill is"
            ))
            .with_help("keep `skill` when the records name their skill, `skill-path-part` when the file's path does"));
        }
        let shape = format!("declared in [[cases.sources]] #{}", i + 1);
        let mut held = [0usize; 5];
        let mut read_any = false;
        for file in files {
            let bytes = match super::read_source(&boundary, &root.join(file), file, limit) {
                Ok(b) => b,
                Err(e) => {
                    diags.push(*e);
                    continue;
                }
            };
            let src = super::decode(file, bytes, &mut diags);
            let Some(docs) = parse(file, d.format, &src, limit, &mut diags) else {
                continue;
            };
            let lines = matches!(d.format, DeclaredFormat::Jsonl | DeclaredFormat::Csv);
            let recs: Vec<&Node> = if d.format == DeclaredFormat::Markdown {
                Vec::new()
            } else if lines && d.records.is_empty() {
                docs.iter().collect()
            } else if lines {
                docs.iter()
                    .filter_map(|doc| at(doc, &d.records))
                    .flat_map(|n| match &n.kind {
                        NodeKind::List(items) => items.iter().collect::<Vec<_>>(),
                        _ => vec![n],
                    })
                    .collect()
            } else {
                match records(&docs, &d.records) {
                    Some(r) => r,
                    None => {
                        return Err(Fatal::usage(format!(
                            "{which}: records = \"{}\" leads to no array in {file}",
                            d.records
                        ))
                        .with_help(
                            "give the dotted path to the array of records (\"data.routing\"), or \"\" when the document is the array",
                        ));
                    }
                }
            };
            read_any = true;
            let got = if d.format == DeclaredFormat::Markdown {
                let mut found = markdown::detect(&src.text, &|w| names.get(w).is_some());
                for p in &mut found.prompts {
                    p.shape = format!("{shape}: {}", p.shape);
                }
                Read {
                    held: [found.prompts.len(), 0, 0, 0, 0],
                    found,
                    short: Vec::new(),
                }
            } else {
                read_records(d, &recs, &all_skills, &shape)
            };
            for (k, n) in got.held.iter().enumerate() {
                held[k] += n;
            }
            let place = match d.skill_path_part {
                Some(i) => {
                    // the file's own name counts by its stem
                    // (`prompts/<skill>.txt`)
                    let last = file.split('/').count() - 1;
                    let part = file.split('/').nth(i).map(|p| match i == last {
                        true => p.split_once('.').map_or(p, |(stem, _)| stem),
                        false => p,
                    });
                    match part.and_then(|p| names.get(p)) {
                        Some(k) => Some(k),
                        None => {
                            let shown = base::escape::line(part.unwrap_or("")).into_owned();
                            diags.push(
                                crate::rules::shaped::UNKNOWN_SKILL
                                    .diag(
                                        file,
                                        match part {
                                            Some(_) => format!(
                                                "{which}: skill-path-part = {i} names `{shown}` for this file, which is no skill's name or folder: its prompts are not routed"
                                            ),
                                            None => format!(
                                                "{which}: skill-path-part = {i} is past this file's path: its prompts are not routed"
                                            ),
                                        },
                                    )
                                    .with_help("count the parts of the path from 0 at the catalog root (`evals/<skill>/prompts.csv`: 1; the file's own name counts by its stem, `prompts/<skill>.txt`: 1), rename the folder or file for its skill, or narrow `files`"),
                            );
                            continue;
                        }
                    }
                }
                None => folder_skill(file, skills),
            };
            if place.is_none() && got.found.prompts.iter().any(|p| p.owner == Owner::Unknown) {
                return Err(Fatal::usage(match d.format.has_fields() {
                    true => format!(
                        "{which}: {file} is in no skill's folder, and no `skill` field is declared"
                    ),
                    false => format!(
                        "{which}: {file} is in no skill's folder, and nothing in it names its skill"
                    ),
                })
                .with_help(match d.format.has_fields() {
                    true => "declare skill = \"<the field naming the skill>\" or skill-path-part = <the part of the path naming it>, or keep the file in the skill's folder",
                    false => "declare skill-path-part = <the part of the path naming the skill>, or keep the file in the skill's folder",
                }));
            }
            for (why, (s, e), n) in got.short {
                diags.push(
                    crate::rules::shaped::NOT_READ
                        .diag(
                            file,
                            format!(
                                "{n} {} of this declared source {why}: not routed",
                                if n == 1 { "record" } else { "records" }
                            ),
                        )
                        .with_span(src.span(s, e))
                        .with_label("first of them")
                        .with_help(format!("fix the records, or the fields {which} declares")),
                );
            }
            let (mut s, more) =
                shaped::build(file, file, &src, got.found, place, &names, place.is_none());
            let place_rule = match d.skill_path_part {
                Some(i) => format!("part {i} of the file's path (the declared skill-path-part)"),
                None => super::IN_SKILL_FOLDER.to_string(),
            };
            for c in &mut s {
                c.format = Format::Declared;
                c.by_name = true;
                for t in &mut c.triggers {
                    if t.decided.owner == super::IN_SKILL_FOLDER {
                        t.decided.owner.clone_from(&place_rule);
                    }
                }
            }
            sources.extend(s);
            diags.extend(more);
        }
        if !read_any {
            continue;
        }
        for (k, (key, field)) in [
            ("prompt", Some(&d.prompt).filter(|_| d.format.has_fields())),
            ("skill", d.skill.as_ref()),
            ("polarity", d.polarity.as_ref()),
            ("lexical", d.lexical.as_ref()),
            ("split", d.split.as_ref()),
        ]
        .into_iter()
        .enumerate()
        {
            if let Some(f) = field
                && held[k] == 0
            {
                return Err(Fatal::usage(format!(
                    "{which}: {key} = \"{f}\": no record of {} holds that field",
                    files.join(", ")
                ))
                .with_help(format!(
                    "name the field that holds the {key} (dotted for a nested field), or remove {key}"
                )));
            }
        }
    }
    Ok((sources, diags))
}
