//! Trigger tests at the catalog root: the root's own data files and those
//! under `evals/`, `tests/` and `test/` (skills' folders, `evals/cases/`,
//! fixtures and results left out), each read bounded and never outside the
//! catalog, then read by shape ([`shaped`]).

use super::SkillNames;
use super::shaped::{
    build, detect, is_data, named_like_tests, parse_any, parse_quiet, unread_by_name,
};
use crate::catalog::discover::SKIP_DIRS;
use crate::catalog::skill::Skill;
use crate::catalog::source::Source;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::rules::shaped as rules;
use ::cases::CaseSource;
use std::path::Path;

/// Folders at the root (and in a skill) searched for trigger tests.
pub const PLACES: &[&str] = &["evals", "tests", "test"];

/// Folders never searched: data, fixtures, recorded results, case files.
const NOT_CASES: &[&str] = &["fixtures", "files", "results", "cases", "node_modules"];

/// Most entries looked at under one searched folder.
pub const MAX_ENTRIES: usize = 5_000;
/// Deepest folder looked into.
pub const MAX_DEPTH: usize = 8;

/// Data files at the catalog root that may hold trigger tests: the root's
/// own files and those under [`PLACES`], relative to the root, sorted;
/// skills' folders, `skip` (files other readers take) and the folders of
/// [`NOT_CASES`] left out.
pub fn root_candidates(
    root: &Path,
    skills: &[Skill],
    skip: &std::collections::HashSet<String>,
) -> Vec<String> {
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let skill_dirs: std::collections::HashSet<&str> =
        skills.iter().map(|s| s.rel_dir.as_str()).collect();
    if skill_dirs.contains(".") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(root) else {
        return out;
    };
    let mut top: Vec<(String, bool)> = rd
        .filter_map(Result::ok)
        .take(MAX_ENTRIES)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            Some((name, e.file_type().ok()?.is_file()))
        })
        .collect();
    top.sort();
    for (name, is_file) in &top {
        if *is_file && is_data(name) && !skip.contains(name) {
            out.push(name.clone());
        }
    }
    for place in PLACES {
        let mut seen = 0usize;
        let mut stack = vec![(root.join(place), place.to_string(), 0usize)];
        while let Some((dir, rel, depth)) = stack.pop() {
            if depth > MAX_DEPTH
                || skill_dirs.contains(rel.as_str())
                || crate::catalog::outside_root(&boundary, &dir).is_some()
            {
                continue;
            }
            let Ok(rd) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in rd.filter_map(Result::ok) {
                seen += 1;
                if seen > MAX_ENTRIES {
                    break;
                }
                let Ok(name) = e.file_name().into_string() else {
                    continue;
                };
                if name.starts_with('.') {
                    continue;
                }
                let child = format!("{rel}/{name}");
                let Ok(t) = e.file_type() else { continue };
                if t.is_dir() {
                    let skipped = SKIP_DIRS.contains(&name.as_str())
                        || (depth == 0 && NOT_CASES.contains(&name.as_str()))
                        || name == "fixtures";
                    if !skipped {
                        stack.push((e.path(), child, depth + 1));
                    }
                } else if t.is_file() && is_data(&name) && !skip.contains(&child) {
                    out.push(child);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Read every root-level candidate and keep what holds trigger tests.
pub fn load_root(
    root: &Path,
    config: &Config,
    skills: &[Skill],
    skip: &std::collections::HashSet<String>,
) -> (Vec<CaseSource>, Vec<Diagnostic>) {
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let ignore = crate::config::globs(&config.cases.ignore).unwrap_or_default();
    let names = SkillNames::new(skills);
    let limit = config.catalog.max_case_bytes;
    let mut sources = Vec::new();
    let mut diags = Vec::new();
    for file in root_candidates(root, skills, skip) {
        if ignore.is_match(&file) {
            continue;
        }
        let path = root.join(&file);
        if crate::catalog::outside_root(&boundary, &path).is_some() {
            continue;
        }
        let bytes = match crate::catalog::read_bounded(&path, limit) {
            Ok(Some(b)) => b,
            Ok(None) if named_like_tests(&file) => {
                diags.push(
                    rules::NOT_READ
                        .diag(
                            &file,
                            format!(
                                "this file is named like trigger tests, but it is larger than {limit} bytes ([catalog] max-case-bytes): nothing in it is routed"
                            ),
                        )
                        .with_help(
                            "split it, or raise [catalog] max-case-bytes in skillsift.toml; list a file that is not trigger tests in [cases] ignore",
                        ),
                );
                continue;
            }
            _ => continue,
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        // masked before anything reads it
        let source = Source::new(text);
        let Some(data) = parse_quiet(&file, &source.text, limit) else {
            if named_like_tests(&file) {
                let data = parse_any(&file, &source.text, limit);
                diags.push(unread_by_name(&file, data.as_ref()));
            }
            continue;
        };
        let found = detect(&data, &names);
        if !found.any() {
            if named_like_tests(&file) {
                diags.push(unread_by_name(&file, Some(&data)));
            }
            continue;
        }
        let (s, d) = build(&file, &file, &source, found, None, &names, true);
        sources.extend(s);
        diags.extend(d);
    }
    (sources, diags)
}
