//! Finding and reading the case sources in each skill's own folder.
//!
//! Looked at, per skill:
//!
//! - every `*.json` under `evals/` (any depth, but not in `evals/files/`,
//!   `evals/fixtures/`, `evals/results/`, hidden folders or nested skills),
//!   classified by shape: a trigger set, an evals file, skill-creator's
//!   `run_eval.py` results, or something else; a file with a known name
//!   ([`super::trigger_set::NAMES`], `evals.json`) is that format even when
//!   its shape is wrong, so the mistake is reported; a file that is not
//!   valid JSON is SG401 when its name or the configuration makes it a
//!   case source or it sits directly in `evals/` (deeper, it is only
//!   listed: it may be a fixture project's file);
//! - `trigger_tests.yaml` next to SKILL.md, under `evals/` or `tests/`;
//! - every file matching `[cases] trigger-sets` (read as a trigger set);
//! - nothing matching `[cases] ignore`.
//!
//! Each file is read once, bounded by `[catalog] max-case-bytes`, inside the
//! catalog only. Skills are scanned in parallel; the result is sorted by
//! path, so it is the same on every run.

use super::read::{self, by_shape, is_yaml};
use super::{CaseSource, FixtureBase, Format, SkillNames, evals_json, shaped, trigger_set, waza};
use crate::catalog::discover::{SKIP_DIRS, join_rel};
use crate::catalog::skill::Skill;
use crate::catalog::source::Source;
use crate::config::Config;
use crate::config::PathGlobs;
use crate::diag::Diagnostic;
use crate::rules::cases as rules;
use rayon::prelude::*;
use std::path::Path;

/// Most entries looked at under one skill's `evals/`.
pub const MAX_EVALS_ENTRIES: usize = 5_000;
/// Deepest folder looked into under a skill's `evals/`.
pub const MAX_EVALS_DEPTH: usize = 8;
/// Folders under `evals/` that hold data, never cases.
pub const DATA_DIRS: &[&str] = &["files", "fixtures", "results"];
/// Most YAML nodes in a waza file (a prompt is about seven).
pub const MAX_WAZA_NODES: usize = 200_000;

pub use crate::config::globs;

/// Every skill's own case sources, sorted by path, and the findings made
/// reading them.
pub fn load_all(
    root: &Path,
    config: &Config,
    skills: &[Skill],
) -> (Vec<CaseSource>, Vec<Diagnostic>) {
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let empty = PathGlobs::default();
    let trigger_sets = globs(&config.cases.trigger_sets).unwrap_or_else(|_| empty.clone());
    let ignore = globs(&config.cases.ignore).unwrap_or(empty);
    let limit = config.catalog.max_case_bytes;
    let names = SkillNames::new(skills);
    let per_skill: Vec<(Vec<CaseSource>, Vec<Diagnostic>)> = skills
        .par_iter()
        .enumerate()
        .map(|(i, skill)| {
            let (found, mut diags) = candidates(&boundary, skill, &trigger_sets, &ignore);
            let mut sources = Vec::with_capacity(found.len());
            for (rel, expected) in found {
                let shape_only = expected == Some(Format::Shaped);
                let expected = expected.filter(|_| !shape_only);
                let (s, d) = if shape_only || (is_yaml(&rel) && expected != Some(Format::Waza)) {
                    load_shaped(&boundary, i, skill, &rel, shape_only, limit, &names)
                } else {
                    let (s, d) = load_one(&boundary, i, skill, &rel, expected, limit);
                    let (s, more) = by_shape(s, &names);
                    (s, d.into_iter().chain(more).collect())
                };
                sources.extend(s);
                diags.extend(d);
            }
            (sources, diags)
        })
        .collect();
    let mut sources = Vec::new();
    let mut diags = Vec::new();
    for (s, d) in per_skill {
        sources.extend(s);
        diags.extend(d);
    }
    sources.sort_by(|a, b| a.file.cmp(&b.file));
    (sources, diags)
}

/// The files of `skill` to read (relative to its folder), each with the
/// format its name or the configuration gives it, if any.
fn candidates(
    boundary: &Path,
    skill: &Skill,
    trigger_sets: &PathGlobs,
    ignore: &PathGlobs,
) -> (Vec<(String, Option<Format>)>, Vec<Diagnostic>) {
    let mut out: Vec<(String, Option<Format>)> = Vec::new();
    let mut diags = Vec::new();
    for f in &skill.files {
        if ignore.is_match(f) {
            continue;
        }
        if waza::PLACES.contains(&f.as_str()) {
            out.push((f.clone(), Some(Format::Waza)));
        } else if trigger_sets.is_match(f) {
            out.push((f.clone(), Some(Format::TriggerSet)));
        } else if shaped::is_data(f)
            && (!f.contains('/') || f.starts_with("tests/") || f.starts_with("test/"))
        {
            // read only if it holds trigger tests ([`shaped`])
            out.push((f.clone(), Some(Format::Shaped)));
        }
    }
    if skill.evals_dir {
        match list_evals(boundary, &skill.dir) {
            Ok(files) => {
                for f in files {
                    if ignore.is_match(&f) {
                        continue;
                    }
                    let name = f.rsplit('/').next().unwrap_or(&f);
                    let expected = if waza::NAMES.contains(&name) {
                        Some(Format::Waza)
                    } else if trigger_sets.is_match(&f) || trigger_set::NAMES.contains(&name) {
                        Some(Format::TriggerSet)
                    } else if name == evals_json::NAME {
                        Some(Format::EvalsJson)
                    } else if name.ends_with(".json")
                        || name.ends_with(".yaml")
                        || name.ends_with(".yml")
                    {
                        None
                    } else if shaped::is_data(name) {
                        Some(Format::Shaped)
                    } else {
                        continue;
                    };
                    out.push((f, expected));
                }
            }
            Err((message, help)) => diags.push(
                rules::UNREADABLE
                    .diag(join_rel(&skill.rel_dir, "evals"), message)
                    .with_help(help),
            ),
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    (out, diags)
}

/// The files under `dir/evals/` (relative to `dir`, `/`-separated,
/// sorted), or why they could not all be listed: nothing is searched then,
/// rather than a subset. Folders that lead outside `boundary` (the
/// catalog) are not listed (the catalog walk reports them, SG002).
fn list_evals(boundary: &Path, dir: &Path) -> Result<Vec<String>, (String, &'static str)> {
    const MOVE: &str =
        "move data out of the skill's evals/ into evals/files/, or list it in [cases] ignore";
    let mut out = Vec::new();
    let mut seen = 0usize;
    let mut stack = vec![(dir.join("evals"), "evals".to_string(), 0usize)];
    while let Some((d, rel, depth)) = stack.pop() {
        if crate::catalog::outside_root(boundary, &d).is_some() {
            // a link out of the catalog: never followed, and already SG002
            // from the walk, which lists every folder of a skill
            continue;
        }
        let unreadable = |e: std::io::Error| {
            (
                format!("cannot read {rel}/: {e}; the skill's case files were not searched"),
                "fix the folder's permissions",
            )
        };
        let rd = std::fs::read_dir(&d).map_err(unreadable)?;
        for e in rd {
            let e = e.map_err(unreadable)?;
            seen += 1;
            if seen > MAX_EVALS_ENTRIES {
                return Err((
                    format!(
                        "the skill's evals/ holds more than {MAX_EVALS_ENTRIES} entries; its case files were not searched"
                    ),
                    MOVE,
                ));
            }
            let Some(name) = e.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let child = format!("{rel}/{name}");
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir())
                || (e.file_type().is_ok_and(|t| t.is_symlink()) && e.path().is_dir());
            if is_dir {
                let data = depth == 0 && DATA_DIRS.contains(&name.as_str());
                if data
                    || name.starts_with('.')
                    || SKIP_DIRS.contains(&name.as_str())
                    || e.path().join("SKILL.md").exists()
                {
                    continue;
                }
                if depth + 1 > MAX_EVALS_DEPTH {
                    return Err((
                        format!(
                            "{child}/ nests deeper than {MAX_EVALS_DEPTH} folders in the skill's evals/; its case files were not searched"
                        ),
                        MOVE,
                    ));
                }
                stack.push((e.path(), child, depth + 1));
            } else {
                out.push(child);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Read, parse and classify one file of a skill.
fn load_one(
    boundary: &Path,
    index: usize,
    skill: &Skill,
    rel: &str,
    expected: Option<Format>,
    limit: u64,
) -> (CaseSource, Vec<Diagnostic>) {
    let file = join_rel(&skill.rel_dir, rel);
    match super::read_source(boundary, &skill.dir.join(rel), &file, limit) {
        Ok(bytes) => parse(index, skill, rel, expected, bytes, limit),
        Err(d) => {
            let mut src = unread(index, skill, rel, expected);
            src.note = Some("could not be read".into());
            (src, vec![*d])
        }
    }
}

/// Read a file that is a case source only if it holds trigger tests by
/// shape ([`shaped`]): a YAML file in `evals/` other than waza's, a JSONL
/// file, a data file beside SKILL.md or under `tests/`. A file in `evals/`
/// that holds none is listed with why (`shape_only`: it is not listed at
/// all); nothing about it is a finding unless it looks like trigger tests.
fn load_shaped(
    boundary: &Path,
    index: usize,
    skill: &Skill,
    rel: &str,
    shape_only: bool,
    limit: u64,
    names: &SkillNames,
) -> (Vec<CaseSource>, Vec<Diagnostic>) {
    let listed = rel.starts_with("evals/");
    let file = join_rel(&skill.rel_dir, rel);
    let none = |note: &str| {
        if listed {
            let mut src = unread(index, skill, rel, None);
            src.note = Some(note.to_string());
            vec![src]
        } else {
            Vec::new()
        }
    };
    const NO_TESTS: &str = "holds no trigger tests or evals skillsift reads (waza's eval and task specs, fixtures, configuration)";
    let bytes = match super::read_source(boundary, &skill.dir.join(rel), &file, limit) {
        Ok(b) => b,
        Err(d) if listed && !shape_only => return (none("could not be read"), vec![*d]),
        Err(_) => return (none("could not be read"), Vec::new()),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return (none("not UTF-8 text"), Vec::new());
    };
    let source = Source::new(text);
    let named = |data: Option<&shaped::Data>| {
        if shaped::named_like_tests(rel) {
            vec![shaped::unread_by_name(&file, data)]
        } else {
            Vec::new()
        }
    };
    let Some(data) = shaped::parse_quiet(rel, &source.text, limit) else {
        let data = shaped::parse_any(rel, &source.text, limit);
        return (none(NO_TESTS), named(data.as_ref()));
    };
    let found = shaped::detect(&data, names);
    if !found.any() {
        return (none(NO_TESTS), named(Some(&data)));
    }
    shaped::build(&file, rel, &source, found, Some(index), names, false)
}

/// The [`CaseSource`] of a file before (or without) its text.
fn unread(index: usize, skill: &Skill, rel: &str, expected: Option<Format>) -> CaseSource {
    CaseSource::unread(index, join_rel(&skill.rel_dir, rel), rel, expected)
}

/// Decode, parse and classify the bytes (at most `limit`) of file `rel` of
/// skill `index` (`skill`), which its name or the configuration says is
/// `expected`, if anything: what [`load_all`] does after reading a file,
/// and the entry point of the `case_source` fuzz target.
pub fn parse(
    index: usize,
    skill: &Skill,
    rel: &str,
    expected: Option<Format>,
    bytes: Vec<u8>,
    limit: u64,
) -> (CaseSource, Vec<Diagnostic>) {
    let file = join_rel(&skill.rel_dir, rel);
    parse_at(index, skill, &file, rel, expected, bytes, limit)
}

/// [`parse`] of a file of skill `index` kept at `file` (relative to the
/// catalog root) rather than in the skill's folder; `rel` is its path as
/// the layout names it.
pub(super) fn parse_at(
    index: usize,
    skill: &Skill,
    file: &str,
    rel: &str,
    expected: Option<Format>,
    bytes: Vec<u8>,
    limit: u64,
) -> (CaseSource, Vec<Diagnostic>) {
    let base = FixtureBase::Skill {
        dir: skill.dir.clone(),
        rel: skill.rel_dir.clone(),
    };
    read::source(index, file, rel, expected, bytes, limit, &base)
}
