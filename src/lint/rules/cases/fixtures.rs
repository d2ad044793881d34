//! SG411: execution evals name fixtures that exist under `evals/fixtures/`.
//! Also raises SG412 ([`super::fixture_escape`]) from the same resolution.

use super::fixture_escape::FIXTURE_ESCAPE;
use super::{eval_objects, is_execution, root};
use crate::catalog::Catalog;
use crate::catalog::cases::{FIXTURES_DIR, FixtureError, FixtureRoot};
use crate::diag::Diagnostic;
use crate::rule;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

rule! {
    /// ## What it does
    /// Requires every execution eval (the default kind) to list at least one
    /// fixture in `files[]`, and every listed path (of any eval) to exist
    /// under `evals/fixtures/`. A path may name a file or a project folder.
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
    if catalog.cases.is_empty() {
        return;
    }
    let fixtures = FixtureRoot::new(&catalog.root);
    // evals often share a fixture: resolve each distinct path once, in
    // parallel (this is file-system work)
    let paths: BTreeSet<&str> = catalog
        .cases
        .iter()
        .filter_map(root)
        .flat_map(eval_objects)
        .filter_map(|e| e.get("files").and_then(|f| f.as_array()))
        .flatten()
        .filter_map(|p| p.as_str())
        .collect();
    let resolved: BTreeMap<&str, Result<(), FixtureError>> = paths
        .into_par_iter()
        .map(|rel| (rel, fixtures.resolve(rel).map(|_| ())))
        .collect();
    for case in &catalog.cases {
        let Some(root) = root(case) else { continue };
        for eval in eval_objects(root) {
            let id = eval
                .get("id")
                .and_then(crate::catalog::cases::eval_id)
                .map(|id| format!("eval `{id}`"))
                .unwrap_or_else(|| "an eval".to_string());
            let files = eval.get("files");
            let items = files.and_then(|f| f.as_array()).unwrap_or_default();
            let has_string = items.iter().any(|i| i.as_str().is_some());
            if is_execution(eval) && !has_string && files.is_none_or(|f| f.as_array().is_some()) {
                let span = match files {
                    Some(f) => case.value_span(f),
                    None => case.span(eval.start, eval.start + 1),
                };
                out.push(
                    FIXTURES
                        .diag(&case.file, format!("execution {id} has no fixture in `files`"))
                        .with_span(span)
                        .with_help(format!(
                            "add the project it works on under `{FIXTURES_DIR}/` and list it in \"files\", or use \"kind\": \"dialogue\" when the conversation is the deliverable"
                        )),
                );
            }
            for item in items {
                let Some(rel) = item.as_str() else { continue };
                let span = case.value_span(item);
                let Some(Err(err)) = resolved.get(rel).cloned() else {
                    continue;
                };
                let d = match err {
                    FixtureError::Empty => FIXTURES
                        .diag(&case.file, format!("{id} lists an empty fixture path"))
                        .with_help(format!("name a file or folder under `{FIXTURES_DIR}/`")),
                    FixtureError::NotFound => FIXTURES
                        .diag(&case.file, format!("fixture `{rel}` of {id} does not exist under `{FIXTURES_DIR}/`"))
                        .with_help(format!("add `{FIXTURES_DIR}/{rel}`, or fix the path (it is relative to `{FIXTURES_DIR}/`)")),
                    FixtureError::Unreadable(e) => FIXTURES
                        .diag(&case.file, format!("fixture `{rel}` of {id} cannot be read: {e}"))
                        .with_help("fix the fixture's permissions"),
                    FixtureError::Absolute => FIXTURE_ESCAPE
                        .diag(&case.file, format!("fixture path `{rel}` of {id} is absolute"))
                        .with_help(format!("write the path relative to `{FIXTURES_DIR}/`")),
                    FixtureError::ParentComponent => FIXTURE_ESCAPE
                        .diag(&case.file, format!("fixture path `{rel}` of {id} contains `..`"))
                        .with_help(format!("fixtures must live under `{FIXTURES_DIR}/`; move the files there")),
                    FixtureError::Escapes { at } => FIXTURE_ESCAPE
                        .diag(
                            &case.file,
                            format!("fixture `{rel}` of {id} resolves outside `{FIXTURES_DIR}/` through the symlink `{FIXTURES_DIR}/{at}`"),
                        )
                        .with_help("copy the files into the fixture instead of linking to them"),
                };
                out.push(d.with_span(span));
            }
        }
    }
}
