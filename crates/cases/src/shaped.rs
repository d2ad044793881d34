//! Trigger tests found by shape ([`super::detect`]) wherever a catalog
//! keeps them, read into the model.
//!
//! Looked at, beyond the fixed layouts:
//!
//! - in a skill's folder: every JSON, JSONL or YAML file under `evals/`
//!   that no other reader takes, beside SKILL.md, and under `tests/` or
//!   `test/`;
//! - at the catalog root: the files at the top, and under `evals/`,
//!   `tests/` and `test/` (skills' folders, `evals/cases/`, fixtures and
//!   results left out).
//!
//! A file is read (bounded by `[catalog] max-case-bytes`, never outside the
//! catalog, secrets masked) only when its text names a prompt-like field,
//! and parsed quietly: a file that is not valid JSON or YAML is something
//! else, not a broken case file. Each prompt goes to the skill its record
//! or an enclosing key names, else to the skill whose folder holds the
//! file, else to the skill a folder or the file's stem on its path is named
//! for. A file with prompts for several skills becomes one
//! [`CaseSource`] per skill, all pointing at the same text.
//!
//! CSV files count when their header says it all: a prompt column beside
//! a side column (`should_trigger`) or an expected-skill column
//! (`expected_skill`); `evals/<skill>/prompts.csv` at the root takes its
//! skill from the folder.
//!
//! Never silent: what looks like trigger tests and is not read (a prompt
//! naming no skill, a record without prompt text or without a side, a
//! skill the catalog lacks) is SG437 or SG438.

use super::detect::{self, Detected, Node, Owner};
use super::{CaseSource, Decided, Format, Side, SkillNames, TriggerCase};
use crate::rules::shaped as rules;
use aho_corasick::AhoCorasick;
use base::diag::Diagnostic;
use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};
use syntax::{Source, Spanned, json, yaml};

/// File name endings read as data.
pub const EXTENSIONS: &[&str] = &[".json", ".jsonl", ".ndjson", ".yaml", ".yml", ".csv"];

/// Most YAML nodes in one file.
pub const MAX_YAML_NODES: usize = 400_000;

/// Whether `name` is a file this reader parses.
pub fn is_data(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".md") {
        return super::markdown::is_prompts_file(&lower);
    }
    EXTENSIONS.iter().any(|e| lower.ends_with(e))
        // JSON Schemas describe records, they hold none
        && !lower.ends_with(".schema.json")
        && !lower.ends_with("schema.json")
        && !matches!(
            lower.rsplit('/').next().unwrap_or(&lower),
            "package.json"
                | "package-lock.json"
                | "composer.json"
                | "composer.lock"
                | "tsconfig.json"
                | "jsconfig.json"
                | "deno.json"
                | "pnpm-lock.yaml"
                | "yarn.lock"
                | "pubspec.yaml"
                | "docker-compose.yml"
                | "docker-compose.yaml"
                | "mkdocs.yml"
                | "codecov.yml"
                | "renovate.json"
                | "marketplace.json"
                | "plugin.json"
        )
}

/// Words whose presence lets a file be parsed: a prompt field or a side.
static WORTH_PARSING: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build([
            "prompt",
            "query",
            "queries",
            "utterance",
            "question",
            "message",
            "request",
            "input",
            "text",
            "instruction",
            "task",
            "trigger",
            "activat",
            "positive",
            "negative",
        ])
        .expect("fixed patterns")
});

/// The parsed data of a file: one node, or one per JSONL line.
pub enum Data {
    One(Node),
    Lines(Vec<Node>),
    /// A Markdown file of prompt lists ([`super::markdown`]).
    Markdown(Box<str>),
}

/// Parse `text` as the data its name says, quietly: `None` when it is not.
pub fn parse_quiet(name: &str, text: &str, limit: u64) -> Option<Data> {
    if !WORTH_PARSING.is_match(text) {
        return None;
    }
    parse_any(name, text, limit)
}

/// [`parse_quiet`] whatever words the text holds.
pub fn parse_any(name: &str, text: &str, limit: u64) -> Option<Data> {
    let lower = name.to_ascii_lowercase();
    let limits = json::Limits {
        max_bytes: usize::try_from(limit).unwrap_or(usize::MAX),
        ..json::Limits::default()
    };
    if lower.ends_with(".md") {
        return super::markdown::is_prompts_file(&lower).then(|| Data::Markdown(text.into()));
    }
    if lower.ends_with(".csv") {
        // a CSV file is trigger tests only when its header says it all: a
        // prompt column beside a side or an expected-skill column
        let rows = crate::csv::rows(name, text, &mut Vec::new())?;
        let says = rows.first().is_some_and(|r| match &r.kind {
            detect::NodeKind::Map(m) => detect::says_it_all(m.iter().map(|(k, _)| k.as_str())),
            _ => false,
        });
        return says.then_some(Data::Lines(rows));
    }
    if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") {
        return jsonl(text, limits).ok().map(Data::Lines);
    }
    if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        let tree = yaml::parse_with(
            text,
            yaml::Limits {
                max_nodes: MAX_YAML_NODES,
                what: "the file",
            },
        )
        .ok()?;
        return Some(Data::One(Node::from_yaml(tree.root.as_ref()?)));
    }
    let tree = json::parse_with(text, limits).ok()?;
    Some(Data::One(Node::from_json(&tree.root, 0)))
}

/// The values of a JSONL text, one per line (blank lines and `//` comment
/// lines skipped), with offsets in the whole text; or where the first line
/// that is not JSON goes wrong (an offset in the text) and why.
pub fn jsonl(text: &str, limits: json::Limits) -> Result<Vec<Node>, (usize, json::Error)> {
    let mut lines = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim();
        if !body.is_empty() && !body.starts_with("//") {
            let lead = line.len() - line.trim_start().len();
            match json::parse_with(body, limits) {
                Ok(tree) => lines.push(Node::from_json(&tree.root, at + lead)),
                Err(e) => return Err((at + lead + e.offset, e)),
            }
        }
        at += line.len();
    }
    Ok(lines)
}

/// Detect the trigger tests of parsed data.
pub fn detect(data: &Data, names: &SkillNames) -> Detected {
    let is_skill = |s: &str| names.get(s).is_some();
    match data {
        Data::One(n) => detect::detect(n, &is_skill),
        Data::Lines(l) => detect::detect_lines(l, &is_skill),
        Data::Markdown(text) => super::markdown::detect(text, &is_skill),
    }
}

/// The skill a file's place names: the skill whose folder holds it, else
/// the nearest folder on its path, or its stem, that is a skill's name.
/// With it, what said so (for `skillsift cases --format json`).
pub fn place_owner(
    file: &str,
    folder_skill: Option<usize>,
    names: &SkillNames,
) -> Option<(usize, String)> {
    if let Some(i) = folder_skill {
        return Some((i, super::IN_SKILL_FOLDER.to_string()));
    }
    let mut parts: Vec<&str> = file.split('/').collect();
    let name = parts.pop()?;
    let stem = name.split('.').next().unwrap_or(name);
    let stem_full = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let by_name = |s: &str| {
        names
            .get(s)
            .map(|i| (i, format!("the file's name `{}`", base::escape::line(name))))
    };
    by_name(stem_full).or_else(|| by_name(stem)).or_else(|| {
        parts.iter().rev().find_map(|p| {
            names.get(p).map(|i| {
                (
                    i,
                    format!("the folder `{}` on the file's path", base::escape::line(p)),
                )
            })
        })
    })
}

/// Turn what was detected in `file` into case sources, one per skill, and
/// the findings about what could not be read.
#[allow(clippy::too_many_arguments)]
pub fn build(
    file: &str,
    rel: &str,
    source: &Arc<Source>,
    found: Detected,
    folder_skill: Option<usize>,
    names: &SkillNames,
    at_root: bool,
) -> (Vec<CaseSource>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let place = place_owner(file, folder_skill, names);
    let mut of_skill: BTreeMap<usize, Vec<TriggerCase>> = BTreeMap::new();
    let mut unknown: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut no_skill: Option<(usize, usize, usize)> = None;
    let mut unowned: Option<(usize, usize, usize)> = None;
    for p in found.prompts {
        let span = source.span(p.start, p.end);
        let owners: Vec<usize> = match &p.owner {
            Owner::Named(list) => {
                let mut v = Vec::new();
                for n in list {
                    match resolve(names, n) {
                        Some(i) => v.push(i),
                        None => {
                            let e = unknown.entry(n.clone()).or_insert((p.start, p.end, 0));
                            e.2 += 1;
                        }
                    }
                }
                v
            }
            // no skill should take it: a negative for the skill whose
            // folder holds the file, else for every skill
            Owner::NoSkill if p.side == Side::Negative => match &place {
                Some((i, _)) => vec![*i],
                None => (0..names.len()).collect(),
            },
            Owner::NoSkill => {
                no_skill.get_or_insert((p.start, p.end, 0)).2 += 1;
                continue;
            }
            Owner::Unknown => match &place {
                Some((i, _)) => vec![*i],
                None => {
                    unowned.get_or_insert((p.start, p.end, 0)).2 += 1;
                    continue;
                }
            },
        };
        let record = source.span(p.record.0, p.record.1);
        for &i in &owners {
            let with = match &p.owner {
                Owner::Named(list) if p.side == Side::Positive => list
                    .iter()
                    .chain(&p.also)
                    .filter(|n| names.get(n).is_some_and(|k| k != i))
                    .map(|n| Spanned {
                        value: n.clone(),
                        span,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            of_skill.entry(i).or_default().push(TriggerCase {
                prompt: Spanned {
                    value: p.prompt.clone(),
                    span,
                },
                side: p.side,
                top_k: p.top_k.filter(|_| p.side == Side::Positive),
                owner: p.negative_owner.as_ref().map(|(o, s, e)| Spanned {
                    value: o.clone(),
                    span: source.span(*s, *e),
                }),
                split: p.split,
                span: record,
                file: file.to_string(),
                draft: p.draft,
                reason: p.reason.clone(),
                lexical: p.lexical,
                with,
                shape: Some(capped(&p.shape)),
                decided: Decided::new(
                    match (&p.owner, &place) {
                        (Owner::Unknown, Some((_, why))) => why.clone(),
                        (Owner::NoSkill, Some((_, why))) => {
                            format!("{}, as no skill should take it", why)
                        }
                        (Owner::NoSkill, None) => {
                            format!("{}: a negative for every skill", p.decided.owner)
                        }
                        _ => p.decided.owner.clone(),
                    },
                    p.decided.side.clone(),
                ),
            });
        }
    }
    const DECLARE: &str = "`skillsift rule SG437` lists the shapes read; list a file that is not trigger tests in [cases] ignore";
    if let Some((s, e, n)) = unowned {
        diags.push(
            rules::NOT_READ
                .diag(
                    file,
                    format!(
                        "{n} trigger {} here name{} no skill, and the file is in no skill's folder: {} not routed",
                        plural(n, "prompt"),
                        if n == 1 { "s" } else { "" },
                        if n == 1 { "it was" } else { "they were" }
                    ),
                )
                .with_span(source.span(s, e))
                .with_label("no skill for this prompt")
                .with_help(format!(
                    "give each record the skill it should reach (`\"expect\": \"<skill>\"`), put the prompts under a key named for the skill, or move the file into the skill's folder; {DECLARE}"
                )),
        );
    }
    if let Some(((s, e), n)) = found.without_prompt {
        diags.push(
            rules::NOT_READ
                .diag(
                    file,
                    format!(
                        "{n} {} here say{} which skill or side but hold{} no prompt text: not routed",
                        plural(n, "record"),
                        if n == 1 { "s" } else { "" },
                        if n == 1 { "s" } else { "" }
                    ),
                )
                .with_span(source.span(s, e))
                .with_label("no prompt text")
                .with_help(format!(
                    "put the prompt in a `prompt` field as a non-empty string; {DECLARE}"
                )),
        );
    }
    if let Some(((s, e), n)) = found.unstated {
        diags.push(
            rules::NOT_READ
                .diag(
                    file,
                    format!(
                        "{n} {} here {} a prompt but {} not whether it should trigger its skill: not routed",
                        plural(n, "record"),
                        if n == 1 { "holds" } else { "hold" },
                        if n == 1 { "says" } else { "say" },
                    ),
                )
                .with_span(source.span(s, e))
                .with_label("no side said")
                .with_help(format!(
                    "say it in each record (`\"should_trigger\": true` or `false`, or `\"expected_skill\": \"<skill>\"` / `null`), or list the prompts under `should_trigger` / `should_not_trigger`; a folder, a key named for a skill or a `skill` field says whose prompt it is, never its side; {DECLARE}"
                )),
        );
    }
    if let Some((s, e, n)) = no_skill {
        diags.push(
            rules::NOT_READ
                .diag(
                    file,
                    format!(
                        "{n} trigger {} here expect{} no skill at all: lexical routing always ranks some skill first, so {} not checked",
                        plural(n, "prompt"),
                        if n == 1 { "s" } else { "" },
                        if n == 1 { "it is" } else { "they are" }
                    ),
                )
                .with_span(source.span(s, e))
                .with_label("expects no skill")
                .with_help(
                    "to check that a skill does not take such a prompt, name that skill and mark the record negative (`\"should_trigger\": false`); Tier 3 runs are where \"no skill\" can be observed",
                ),
        );
    }
    for (name, (s, e, n)) in unknown {
        let shown = base::escape::line(&name).into_owned();
        diags.push(
            rules::UNKNOWN_SKILL
                .diag(
                    file,
                    format!(
                        "{n} trigger {} here belong{} to skill `{shown}`, which the catalog does not have: not routed",
                        plural(n, "prompt"),
                        if n == 1 { "s" } else { "" }
                    ),
                )
                .with_span(source.span(s, e))
                .with_label("no such skill")
                .with_help(
                    "name the skill by its frontmatter `name` (or its folder), or remove the prompts of a skill that is gone",
                ),
        );
    }
    let sources = of_skill
        .into_iter()
        .map(|(skill, triggers)| CaseSource {
            file: file.to_string(),
            rel: rel.to_string(),
            format: Format::Shaped,
            skill,
            source: source.clone(),
            tree: None,
            named: None,
            triggers,
            evals: Vec::new(),
            by_name: false,
            note: None,
            at_root,
        })
        .collect();
    (sources, diags)
}

/// The skill a name in the data means: a skill's `name` or folder, or a
/// path to its SKILL.md or folder (`skills/pdf-forms/SKILL.md`).
pub fn resolve(names: &SkillNames, name: &str) -> Option<usize> {
    names.get(name).or_else(|| {
        let path = name.trim_end_matches('/');
        let path = path.strip_suffix("SKILL.md").unwrap_or(path);
        let last = path.trim_end_matches('/').rsplit('/').next()?;
        (last != name).then(|| names.get(last)).flatten()
    })
}

/// Most characters of a shape shown (its keys come from the file).
pub const MAX_SHAPE_CHARS: usize = 160;

fn capped(shape: &str) -> String {
    match shape.char_indices().nth(MAX_SHAPE_CHARS) {
        Some((at, _)) => format!("{}…", &shape[..at]),
        None => shape.to_string(),
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// Whether a file's name says it holds trigger tests (`triggers.json`,
/// `routing-cases.yaml`, `activation.jsonl`).
pub fn named_like_tests(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file).to_ascii_lowercase();
    // a Markdown file so named is as often a reference page
    // (`references/routing.md`): named only when it holds prompts
    if name.ends_with(".md") {
        return false;
    }
    ["trigger", "routing", "activation"]
        .iter()
        .any(|w| name.contains(w))
}

/// SG437 for a file named like trigger tests in which nothing was found:
/// the keys its records have, so the author sees what was not understood.
pub fn unread_by_name(file: &str, data: Option<&Data>) -> Diagnostic {
    let keys = data.map(first_keys).unwrap_or_default();
    let seen = if keys.is_empty() {
        String::new()
    } else {
        format!(" (its records have {})", keys.join(", "))
    };
    rules::NOT_READ
        .diag(
            file,
            format!(
                "this file is named like trigger tests, but no record in it has a prompt field with a skill or a side{seen}: nothing in it is routed"
            ),
        )
        .with_help(
            "name the fields as trigger tests do (`prompt` and `expect: <skill>` or `should_trigger: true`); `skillsift rule SG437` lists the shapes read; list a file that is not trigger tests in [cases] ignore",
        )
}

/// The keys of the first object in `data` (at most 8), quoted.
fn first_keys(data: &Data) -> Vec<String> {
    fn find(n: &Node, depth: usize) -> Option<&[(String, Node)]> {
        if depth > 6 {
            return None;
        }
        match &n.kind {
            detect::NodeKind::Map(m) if m.iter().any(|(_, v)| v.as_text().is_some()) => Some(m),
            detect::NodeKind::Map(m) => m.iter().find_map(|(_, v)| find(v, depth + 1)),
            detect::NodeKind::List(l) => l.iter().find_map(|v| find(v, depth + 1)),
            _ => None,
        }
    }
    let first = match data {
        Data::One(n) => find(n, 0),
        Data::Lines(l) => l.iter().find_map(|n| find(n, 0)),
        Data::Markdown(_) => None,
    };
    first
        .unwrap_or_default()
        .iter()
        .take(8)
        .map(|(k, _)| format!("`{}`", base::escape::line(k)))
        .collect()
}
