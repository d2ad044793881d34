//! Case-file rules (`SG4xx`): `evals/cases/<skill>.json`, its shape, its
//! minimums and its fixtures. `load` holds the two rules raised while a
//! file is read; each other file is one rule that runs over the loaded
//! [`CaseFile`]s and their JSON trees.

pub mod duplicate_eval_id;
pub mod duplicate_key;
pub mod duplicate_prompt;
pub mod eval_kind;
pub mod eval_shape;
pub mod fixture_escape;
pub mod fixtures;
pub mod load;
pub mod minimums;
pub mod missing_case_file;
pub mod negative_owner;
pub mod provisional;
pub mod shape;
pub mod skill_name;
pub mod unknown_key;
pub mod unknown_skill;

use crate::catalog::Catalog;
use crate::catalog::cases::CaseFile;
use crate::catalog::json::Value;
use crate::config::Config;
use crate::diag::Diagnostic;

/// Run every case-file rule over the catalog's case files.
pub fn run(catalog: &Catalog, config: &Config, out: &mut Vec<Diagnostic>) {
    duplicate_key::check(catalog, out);
    shape::check(catalog, out);
    skill_name::check(catalog, out);
    unknown_skill::check(catalog, out);
    missing_case_file::check(catalog, out);
    minimums::check(catalog, config, out);
    eval_shape::check(catalog, out);
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

/// Whether an eval object is of the execution kind (absent `kind` means
/// execution; an unknown kind is neither).
pub(crate) fn is_execution(eval: &Value) -> bool {
    match eval.get("kind") {
        None => true,
        Some(k) => k.as_str() == Some("execution"),
    }
}

/// A value's type with its article, for messages: `null`, `a string`,
/// `an array`.
pub(crate) fn described(v: &Value) -> &'static str {
    match v.type_name() {
        "null" => "null",
        "boolean" => "a boolean",
        "number" => "a number",
        "string" => "a string",
        "array" => "an array",
        _ => "an object",
    }
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

/// The candidate closest to `word` when it is close enough to be a typo:
/// an edit distance of at most 2 (or a third of the word's length),
/// ignoring case and treating `-` and `_` alike.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let norm = |s: &str| s.to_lowercase().replace('-', "_");
    let w = norm(word);
    let limit = 2.max(w.chars().count() / 3);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&w, &norm(c)), c))
        .filter(|&(d, c)| d <= limit && c != word)
        .min()
        .map(|(_, c)| c)
}

/// Levenshtein distance over Unicode scalar values.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_finds_close_keys_only() {
        let keys = ["prompt", "top_k", "owner", "split"];
        assert_eq!(did_you_mean("topK", keys), Some("top_k"));
        assert_eq!(did_you_mean("promt", keys), Some("prompt"));
        assert_eq!(did_you_mean("top-k", keys), Some("top_k"));
        assert_eq!(did_you_mean("weight", keys), None);
        assert_eq!(did_you_mean("prompt", keys), None);
    }

    #[test]
    fn edit_distance_counts_scalar_values() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("é", "e"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
