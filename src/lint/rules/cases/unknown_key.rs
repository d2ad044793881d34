//! SG414: keys a case file does not define.

use super::{did_you_mean, eval_objects, root};
use crate::catalog::Catalog;
use crate::catalog::cases::CaseFile;
use crate::catalog::json::Value;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Warns about keys a case file does not define, suggesting the closest
    /// known key. Known keys: at the top level `skill_name`, `trigger`,
    /// `evals` (and `$schema`); in `trigger` `positive`, `negative`; in a
    /// trigger case `prompt`, `top_k`, `owner` (negatives only), `split`;
    /// in an eval `id`, `kind`, `prompt`, `expected_output`, `files`,
    /// `expectations`, `assertions`, `trust_level`.
    ///
    /// ## Why is this bad?
    /// A misspelt key is ignored: `"topk": 1` leaves the default `top_k` of
    /// 3, and `"expectation": […]` leaves the eval without expectations.
    pub static UNKNOWN_KEY = ("SG414", "case-unknown-key", Warning, "a case-file object has a key the format does not define");
}

const ROOT_KEYS: &[&str] = &["skill_name", "trigger", "evals", "$schema"];
const TRIGGER_KEYS: &[&str] = &["positive", "negative"];
const POSITIVE_KEYS: &[&str] = &["prompt", "top_k", "split"];
const NEGATIVE_KEYS: &[&str] = &["prompt", "top_k", "owner", "split"];
const EVAL_KEYS: &[&str] = &[
    "id",
    "kind",
    "prompt",
    "expected_output",
    "files",
    "expectations",
    "assertions",
    "trust_level",
];

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for case in &catalog.cases {
        let Some(root) = root(case) else { continue };
        keys(case, root, "the case file", ROOT_KEYS, out);
        if let Some(trigger) = root.get("trigger") {
            keys(case, trigger, "`trigger`", TRIGGER_KEYS, out);
            for (list, known) in [("positive", POSITIVE_KEYS), ("negative", NEGATIVE_KEYS)] {
                let items = trigger
                    .get(list)
                    .and_then(Value::as_array)
                    .unwrap_or_default();
                for item in items {
                    keys(case, item, &format!("a {list} case"), known, out);
                }
            }
        }
        for eval in eval_objects(root) {
            keys(case, eval, "an eval", EVAL_KEYS, out);
        }
    }
}

fn keys(case: &CaseFile, obj: &Value, what: &str, known: &[&str], out: &mut Vec<Diagnostic>) {
    let Some(members) = obj.as_object() else {
        return;
    };
    for m in members {
        if known.contains(&m.key.as_str()) {
            continue;
        }
        let help = if m.key == "owner" {
            "`owner` only applies to negative prompts (the skill that should win instead); remove it here".to_string()
        } else {
            match did_you_mean(&m.key, known.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!(
                    "known keys here: {}",
                    known
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        };
        out.push(
            UNKNOWN_KEY
                .diag(&case.file, format!("unknown key `{}` in {what}", m.key))
                .with_span(case.span(m.key_start, m.key_end))
                .with_label("ignored")
                .with_help(help),
        );
    }
}
