//! SG414: keys a case file does not define.

use super::{did_you_mean, eval_objects, root};
use crate::catalog::Catalog;
use crate::catalog::cases::{CaseFile, CaseSource, Format, evals_json, trigger_set, waza};
use crate::catalog::json::Value;
use crate::catalog::yaml::Node;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Warns about keys a case file does not define, suggesting the closest
    /// known key. Known keys: at the top level `skill_name`, `trigger`,
    /// `evals` (and `$schema`); in `trigger` `positive`, `negative`; in a
    /// trigger case `prompt`, `top_k`, `owner` (negatives only), `split`;
    /// in an eval `id`, `kind`, `prompt`, `expected_output`, `files`,
    /// `expectations`, `assertions`, `trust_level`, `forbidden_skills`.
    ///
    /// Formats skillsift reads but does not own are open: in an evals file
    /// or a trigger set only a key one or two letters away from a known one
    /// (`shuold_trigger`, `asertions`) is reported. A waza file is closed,
    /// as waza itself refuses unknown keys: every unknown key is reported
    /// (`shouldTriggerPrompts`: did you mean `should_trigger_prompts`?).
    ///
    /// ## Why is this bad?
    /// A misspelt key is ignored: `"topk": 1` leaves the default `top_k` of
    /// 3, and `"expectation": […]` leaves the eval without expectations.
    pub static UNKNOWN_KEY = ("SG414", "case-unknown-key", Warning, "a case-file object has a key the format does not define");
}

const ROOT_KEYS: &[&str] = &["skill_name", "trigger", "evals", "$schema"];
const TRIGGER_KEYS: &[&str] = &["positive", "negative"];
const POSITIVE_KEYS: &[&str] = &["prompt", "top_k", "split", "draft", "lexical", "with"];
const NEGATIVE_KEYS: &[&str] = &[
    "prompt", "top_k", "owner", "split", "draft", "lexical", "with",
];
use crate::catalog::cases::case_file::EVAL_KEYS;

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
    for src in &catalog.case_sources {
        match src.format {
            Format::EvalsJson => {
                let Some(root) = src.json().map(|t| &t.root) else {
                    continue;
                };
                typos(src, root, "the evals file", &[evals_json::ROOT_KEYS], out);
                for e in root
                    .get("evals")
                    .and_then(Value::as_array)
                    .unwrap_or_default()
                {
                    let known = if evals_json::is_trigger_only(e) {
                        [trigger_set::ROW_KEYS, evals_json::EXTRA_TRIGGER_KEYS]
                    } else {
                        [EVAL_KEYS, evals_json::EXTRA_EVAL_KEYS]
                    };
                    typos(src, e, "an entry of `evals`", &known, out);
                }
            }
            Format::TriggerSet => {
                let rows = src
                    .json()
                    .and_then(|t| t.root.as_array())
                    .unwrap_or_default();
                for row in rows {
                    typos(src, row, "a trigger row", &[trigger_set::ROW_KEYS], out);
                }
            }
            Format::Waza => {
                let Some(root) = src.yaml().and_then(|t| t.root.as_ref()) else {
                    continue;
                };
                yaml_keys(src, root, "the file", waza::root_keys(root), out);
                for (list, _) in waza::lists(root) {
                    for item in waza::get(root, list)
                        .and_then(waza::items)
                        .unwrap_or_default()
                    {
                        yaml_keys(src, item, "a prompt", waza::PROMPT_KEYS, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Keys of an open format (`known` in one or more lists): only near misses
/// of known keys are reported.
fn typos(src: &CaseSource, obj: &Value, what: &str, known: &[&[&str]], out: &mut Vec<Diagnostic>) {
    let all = || known.iter().flat_map(|k| k.iter().copied());
    for m in obj.as_object().unwrap_or_default() {
        if all().any(|k| k == m.key) {
            continue;
        }
        let Some(close) = did_you_mean(&m.key, all()) else {
            continue;
        };
        out.push(
            UNKNOWN_KEY
                .diag(&src.file, format!("unknown key `{}` in {what}", m.key))
                .with_span(src.span(m.key_start, m.key_end))
                .with_label("ignored")
                .with_help(format!("did you mean `{close}`?")),
        );
    }
}

/// Keys of a waza mapping: waza refuses every unknown key.
fn yaml_keys(src: &CaseSource, map: &Node, what: &str, known: &[&str], out: &mut Vec<Diagnostic>) {
    for (k, _) in map.as_map().unwrap_or_default() {
        let Some(key) = k.scalar_text() else { continue };
        if known.contains(&key) {
            continue;
        }
        let help = match did_you_mean(key, known.iter().copied()) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!("waza reads only {}", listed(known)),
        };
        let end = (k.start + key.len()).min(src.source.text.len());
        out.push(
            UNKNOWN_KEY
                .diag(
                    &src.file,
                    format!("unknown key `{key}` in {what} (waza refuses it)"),
                )
                .with_span(src.span(k.start, end))
                .with_label("ignored")
                .with_help(help),
        );
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
                None => format!("known keys here: {}", listed(known)),
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

/// `` `a`, `b`, `c` ``.
fn listed(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
