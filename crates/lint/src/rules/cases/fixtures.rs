//! SG411: execution evals name fixtures that exist under `evals/fixtures/`.
//! Also raises SG412 ([`super::fixture_escape`]) from the same resolution.

use super::eval_docs;
use super::fixture_escape::FIXTURE_ESCAPE;
use crate::catalog::Catalog;
use crate::catalog::cases::{FIXTURES_DIR, FixtureError, FixtureRoot, Format};
use crate::diag::Diagnostic;
use crate::rule;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

rule! {
    /// ## What it does
    /// Requires every execution eval (the default kind in a case file) to
    /// list at least one fixture in `files[]`, and every listed path (of
    /// any eval) to exist under `evals/fixtures/`, or, in a skill's
    /// `evals/evals.json`, under the skill folder (where an eval without
    /// files is a dialogue eval, so `"files": []` is fine). A path may name
    /// a file or a project folder.
    ///
    /// ## Why is this bad?
    /// An execution eval runs in a repository seeded with its fixtures;
    /// without them the agent has nothing real to work on and narrates
    /// instead of acting, which the grader cannot tell from the real thing.
    ///
    /// ## Example
    /// ```json
    /// { "id": 1, "prompt": "Fix the bug in BUG.md", "files": ["tdd-rounding"], … }
    /// ```
    /// with the project in `evals/fixtures/tdd-rounding/`. If the skill's
    /// deliverable is the conversation itself, use `"kind": "dialogue"`.
    pub static FIXTURES = ("SG411", "execution-eval-fixtures", Error, "an execution eval has no fixture, or a fixture does not exist");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    let docs = eval_docs(catalog);
    if docs.is_empty() {
        return;
    }
    // evals often share a fixture: resolve each distinct path once, in
    // parallel (this is file-system work)
    let paths: BTreeSet<(PathBuf, &str)> = docs
        .iter()
        .flat_map(|d| {
            let dir = d.base.dir(&catalog.root);
            d.root()
                .into_iter()
                .flat_map(|r| d.evals(r))
                .filter_map(|e| e.get("files").and_then(|f| f.as_array()))
                .flatten()
                .filter_map(|p| p.as_str())
                .map(move |p| (dir.clone(), p))
        })
        .collect();
    let bases: BTreeMap<PathBuf, FixtureRoot> = paths
        .iter()
        .map(|(d, _)| (d.clone(), FixtureRoot::at(d)))
        .collect();
    let resolved: BTreeMap<(PathBuf, &str), Result<(), FixtureError>> = paths
        .into_par_iter()
        .map(|(dir, rel)| {
            let r = bases[&dir].resolve(rel).map(|_| ());
            ((dir, rel), r)
        })
        .collect();
    for case in &docs {
        let Some(root) = case.root() else { continue };
        let dir = case.base.dir(&catalog.root);
        let base = case.base.shown();
        for eval in case.evals(root) {
            let id = eval
                .get("id")
                .and_then(crate::catalog::cases::eval_id)
                .map(|id| format!("eval `{id}`"))
                .unwrap_or_else(|| "an eval".to_string());
            let files = eval.get("files");
            let items = files.and_then(|f| f.as_array()).unwrap_or_default();
            let has_string = items.iter().any(|i| i.as_str().is_some());
            if case.is_execution(eval)
                && !has_string
                && files.is_none_or(|f| f.as_array().is_some())
            {
                let span = match files {
                    Some(f) => case.value_span(f),
                    None => case.span(eval.start, eval.start + 1),
                };
                out.push(
                    FIXTURES
                        .diag(case.file, format!("execution {id} has no fixture in `files`"))
                        .with_span(span)
                        .with_help(match case.format {
                            Format::EvalsJson => format!(
                                "list the files it works on (relative to {base}, usually evals/files/…) in \"files\", or drop \"kind\": \"execution\" to make it a dialogue eval"
                            ),
                            _ => format!(
                                "add the project it works on under `{FIXTURES_DIR}/` and list it in \"files\", or use \"kind\": \"dialogue\" when the conversation is the deliverable"
                            ),
                        }),
                );
            }
            for item in items {
                let Some(rel) = item.as_str() else { continue };
                let span = case.value_span(item);
                let Some(Err(err)) = resolved.get(&(dir.clone(), rel)).cloned() else {
                    continue;
                };
                let d = match err {
                    FixtureError::Empty => FIXTURES
                        .diag(case.file, format!("{id} lists an empty fixture path"))
                        .with_help(format!("name a file or folder under `{base}`")),
                    FixtureError::NotFound => FIXTURES
                        .diag(case.file, format!("fixture `{rel}` of {id} does not exist under `{base}`"))
                        .with_help(match case.format {
                            Format::EvalsJson => format!("add the file, or fix the path (it is relative to {base})"),
                            _ => format!("add `{FIXTURES_DIR}/{rel}`, or fix the path (it is relative to `{FIXTURES_DIR}/`)"),
                        }),
                    FixtureError::Unreadable(e) => FIXTURES
                        .diag(case.file, format!("fixture `{rel}` of {id} cannot be read: {e}"))
                        .with_help("fix the fixture's permissions"),
                    FixtureError::Absolute => FIXTURE_ESCAPE
                        .diag(case.file, format!("fixture path `{rel}` of {id} is absolute"))
                        .with_help(format!("write the path relative to `{base}`")),
                    FixtureError::ParentComponent => FIXTURE_ESCAPE
                        .diag(case.file, format!("fixture path `{rel}` of {id} contains `..`"))
                        .with_help(format!("fixtures must live under `{base}`; move the files there")),
                    FixtureError::Escapes { at } => FIXTURE_ESCAPE
                        .diag(
                            case.file,
                            format!("fixture `{rel}` of {id} resolves outside `{base}` through the symlink `{}{at}`", if base.ends_with('/') { base.as_str() } else { "" }),
                        )
                        .with_help("copy the files into the fixture instead of linking to them"),
                    FixtureError::GitDir { at } => FIXTURE_ESCAPE
                        .diag(
                            case.file,
                            format!("fixture `{rel}` of {id} holds `.git` (`{at}`): a repository's own configuration, which git would obey (hooks, fsmonitor, filters) while setting up the workspace"),
                        )
                        .with_help("remove it: every workspace is a fresh git repository of skillsift's, with the fixture's files committed; put uncommitted changes in .eval/working-tree.patch"),
                };
                out.push(d.with_span(span));
            }
        }
    }
}
