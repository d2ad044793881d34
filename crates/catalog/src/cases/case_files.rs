//! Case files, `evals/cases/<skill>.json`, found and read once each
//! (bounded by `[catalog] max-case-bytes`, never outside the catalog), then
//! parsed by their reader ([`super::case_file`]).

use super::CASES_DIR;
use super::case_file::{CaseFile, parse_bytes, unread};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::rules::cases as rules;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Load every `ROOT/evals/cases/*.json`, sorted by name, in parallel.
///
/// A file that is too large, unreadable or not UTF-8, and a file that is not
/// valid JSON, gets a diagnostic (with the exact line and column for JSON
/// errors) and still a [`CaseFile`] with `parsed == false`, so "this skill
/// has no case file" is never reported for a file that exists.
pub fn load_all(root: &Path, config: &Config) -> (Vec<CaseFile>, Vec<Diagnostic>) {
    let dir = root.join(CASES_DIR);
    let mut diags = Vec::new();
    // nothing outside the catalog is read, whatever symlinks say
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    if let Some(real) = crate::catalog::outside_root(&boundary, &dir) {
        diags.push(
            rules::UNREADABLE
                .diag(CASES_DIR, crate::catalog::outside_message(&real))
                .with_help(crate::catalog::OUTSIDE_HELP),
        );
        return (Vec::new(), diags);
    }
    let entries = match std::fs::read_dir(&dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Vec::new(), diags),
        Err(e) => {
            if dir.is_dir() {
                diags.push(
                    rules::UNREADABLE
                        .diag(CASES_DIR, format!("cannot list the case folder: {e}"))
                        .with_help("fix the folder's permissions"),
                );
            }
            return (Vec::new(), diags);
        }
    };
    let mut paths: Vec<(PathBuf, String)> = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                diags.push(
                    rules::UNREADABLE
                        .diag(CASES_DIR, format!("cannot list the case folder: {e}"))
                        .with_help("fix the folder's permissions"),
                );
                continue;
            }
        };
        let os_name = entry.file_name();
        let Some(name) = os_name.to_str() else {
            let shown = os_name.to_string_lossy();
            if shown.ends_with(".json") {
                diags.push(
                    rules::UNREADABLE
                        .diag(
                            format!("{CASES_DIR}/{shown}"),
                            "case file name is not valid UTF-8",
                        )
                        .with_help("rename the file to `<skill-name>.json`"),
                );
            }
            continue;
        };
        if !name.ends_with(".json") {
            continue;
        }
        // follow symlinks: a linked case file is read like any other; a
        // folder named `x.json` is not a case file
        if entry.path().is_dir() {
            continue;
        }
        paths.push((entry.path(), name.to_string()));
    }
    paths.sort_by(|a, b| a.1.cmp(&b.1));
    let limit = config.catalog.max_case_bytes;
    let loaded: Vec<(CaseFile, Vec<Diagnostic>)> = paths
        .par_iter()
        .map(|(path, name)| load_one(&boundary, path, name, limit))
        .collect();
    let mut files = Vec::with_capacity(loaded.len());
    for (case, d) in loaded {
        diags.extend(d);
        files.push(case);
    }
    (files, diags)
}

/// Read and parse one case file. Never fails: problems become diagnostics.
/// A symlink that leads outside `boundary` (the canonical catalog root) is
/// not read.
fn load_one(boundary: &Path, path: &Path, name: &str, limit: u64) -> (CaseFile, Vec<Diagnostic>) {
    let file = format!("{CASES_DIR}/{name}");
    match super::read_source(boundary, path, &file, limit) {
        Ok(bytes) => parse_bytes(name, bytes, limit),
        Err(d) => (unread(name), vec![*d]),
    }
}
