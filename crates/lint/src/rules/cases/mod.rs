//! Case rules (`SG4xx`): `evals/cases/<skill>.json` and the case sources in
//! skills' own folders (evals.json, trigger sets, waza files), their
//! shapes, the minimums of each skill's merged suite and its fixtures.
//! `load` holds the rules raised while a file is read (and SG417 lives
//! with the waza shape); each other file is one rule that runs over the
//! loaded files, their trees and the suites.
//!
//! A case file is checked exactly as it always was. A check of a whole
//! skill's cases (minimums, repeated prompts or ids, owners) runs on the
//! skill's merged suite once that has a file outside `evals/cases/`.

pub mod drafts;
pub mod duplicate_eval_id;
pub mod duplicate_key;
pub mod duplicate_prompt;
pub mod eval_kind;
pub mod eval_shape;
pub mod evals_json_shape;
pub mod expectations;
pub mod fixture_escape;
pub mod fixtures;
/// The case-file rules raised while a file loads live with the loader.
pub use crate::catalog::rules::cases as load;
pub mod minimums;
pub mod missing_case_file;
pub mod negative_owner;
pub mod provisional;
pub use crate::catalog::rules::repo_level;
pub use crate::catalog::rules::shaped;
pub mod shape;
pub mod skill_name;
pub mod source_skill;
pub mod trigger_set_shape;
pub mod two_places;
pub mod unknown_key;
pub mod unknown_skill;
pub mod waza_shape;

use crate::catalog::Catalog;
use crate::catalog::cases::{CaseFile, FixtureBase, Format, evals_json};
use crate::catalog::json::{self, Value};
use crate::catalog::source::Source;
use crate::config::Config;
use crate::diag::{Diagnostic, Span};

/// Run every case rule over the catalog's case files and sources.
pub fn run(catalog: &Catalog, config: &Config, out: &mut Vec<Diagnostic>) {
    duplicate_key::check(catalog, out);
    super::security::secrets::check_cases(catalog, out);
    shape::check(catalog, out);
    trigger_set_shape::check(catalog, out);
    evals_json_shape::check(catalog, out);
    waza_shape::check(catalog, out);
    source_skill::check(catalog, out);
    two_places::check(catalog, out);
    drafts::check(catalog, config, out);
    skill_name::check(catalog, out);
    unknown_skill::check(catalog, out);
    missing_case_file::check(catalog, out);
    minimums::check(catalog, config, out);
    eval_shape::check(catalog, out);
    expectations::check(catalog, out);
    duplicate_eval_id::check(catalog, out);
    eval_kind::check(catalog, out);
    fixtures::check(catalog, out);
    provisional::check(catalog, out);
    unknown_key::check(catalog, out);
    negative_owner::check(catalog, out);
    duplicate_prompt::check(catalog, out);
}

/// The top-level object of a case file that parsed as one.
pub(crate) fn root(case: &CaseFile) -> Option<&Value> {
    let tree = case.json.as_ref()?;
    tree.root.as_object().map(|_| &tree.root)
}

/// A JSON file of cases: a case file, or a JSON case source in a skill's
/// folder. The rules that check JSON read it through this.
pub(crate) struct JsonDoc<'a> {
    pub file: &'a str,
    pub source: &'a Source,
    pub tree: &'a json::Tree,
    pub format: Format,
    /// What its evals' `files` are relative to.
    pub base: FixtureBase,
}

impl JsonDoc<'_> {
    pub fn span(&self, start: usize, end: usize) -> Span {
        self.source.span(start, end)
    }

    pub fn value_span(&self, v: &Value) -> Span {
        self.source.span(v.start, v.end)
    }

    /// The top-level object, when the document is one.
    pub fn root(&self) -> Option<&Value> {
        self.tree.root.as_object().map(|_| &self.tree.root)
    }

    /// Its eval objects (an evals file's trigger-only entries are not).
    pub fn evals<'v>(&self, root: &'v Value) -> Box<dyn Iterator<Item = &'v Value> + 'v> {
        match self.format {
            Format::EvalsJson => Box::new(evals_json::eval_objects(root)),
            _ => Box::new(eval_objects(root)),
        }
    }

    /// Whether an eval object of this document is of the execution kind:
    /// `kind` says so, or (absent) the format's default does (always for a
    /// case file; with files for evals.json). An unknown kind is neither.
    pub fn is_execution(&self, eval: &Value) -> bool {
        match eval.get("kind") {
            Some(k) => k.as_str() == Some("execution"),
            None => match self.format {
                Format::EvalsJson => eval
                    .get("files")
                    .and_then(Value::as_array)
                    .is_some_and(|f| !f.is_empty()),
                _ => true,
            },
        }
    }
}

/// Every JSON document of cases: the case files, then the skills' JSON
/// sources that hold cases, by path.
pub(crate) fn json_docs(catalog: &Catalog) -> Vec<JsonDoc<'_>> {
    let mut out: Vec<JsonDoc> = catalog
        .cases
        .iter()
        .filter_map(|c| {
            Some(JsonDoc {
                file: &c.file,
                source: &c.source,
                tree: c.json.as_ref()?,
                format: Format::CaseFile,
                base: FixtureBase::Catalog,
            })
        })
        .collect();
    out.extend(
        catalog
            .case_sources
            .iter()
            .filter(|s| s.format.holds_cases())
            .filter_map(|s| {
                let skill = &catalog.skills[s.skill];
                Some(JsonDoc {
                    file: &s.file,
                    source: &s.source,
                    tree: s.json()?,
                    format: s.format,
                    base: FixtureBase::Skill {
                        dir: skill.dir.clone(),
                        rel: skill.rel_dir.clone(),
                    },
                })
            }),
    );
    out
}

/// The JSON documents that hold evals: case files and evals files.
pub(crate) fn eval_docs(catalog: &Catalog) -> Vec<JsonDoc<'_>> {
    json_docs(catalog)
        .into_iter()
        .filter(|d| matches!(d.format, Format::CaseFile | Format::EvalsJson))
        .collect()
}

/// `trigger.positive` and `trigger.negative` of a case file, when present.
pub(crate) fn trigger_lists(root: &Value) -> [(&'static str, Option<&Value>); 2] {
    let trigger = root.get("trigger");
    [
        ("positive", trigger.and_then(|t| t.get("positive"))),
        ("negative", trigger.and_then(|t| t.get("negative"))),
    ]
}

/// The eval objects of a case file (non-objects are SG403's concern).
pub(crate) fn eval_objects(root: &Value) -> impl Iterator<Item = &Value> {
    root.get("evals")
        .and_then(Value::as_array)
        .unwrap_or_default()
        .iter()
        .filter(|e| e.as_object().is_some())
}

/// A value's type with its article, for messages: `null`, `a string`,
/// `an array`.
pub(crate) fn described(v: &Value) -> &'static str {
    v.described()
}

/// Every skill name in the catalog (frontmatter `name`, else folder),
/// sorted and deduplicated for `binary_search` (the names
/// [`Catalog::skill_named`] finds).
pub(crate) fn skill_names(catalog: &Catalog) -> Vec<&str> {
    let mut names: Vec<&str> = catalog
        .skills
        .iter()
        .map(|s| s.name().unwrap_or(&s.folder))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

pub(crate) use crate::catalog::rules::{did_you_mean, edit_distance};
