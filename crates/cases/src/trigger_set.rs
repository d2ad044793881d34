//! Trigger sets: a JSON array of rows `{"query": "…", "should_trigger":
//! true}` (plus optional `split`), the shape agentskills.io's description
//! guide and skill-creator's `eval_set.json` use. `should_trigger: true` is
//! a positive prompt, `false` a negative one.
//!
//! Found in a skill's `evals/` folder by shape, whatever the file is called
//! (`evals/trigger-queries.json`, `evals/trigger/eval_queries.json`,
//! `evals/trigger_eval_set.json`, `eval_set.json`, …), and wherever
//! `[cases] trigger-sets` says. skillsift's own keys on a row: `owner` (the
//! skill a negative belongs to), `top_k` (a positive's rank budget) and
//! `draft` (written by `skillsift init`, not routed until a person
//! rewrites it).
//!
//! The same rows, with `runs` (a list of booleans, or a count with
//! `triggers`), are what `skillsift score triggers` reads; skill-creator's
//! `run_eval.py` output (`{"skill_name", "results": [rows], "summary"}`) is
//! read as its `results`. [`row_problems`] is the one check of a row's
//! shape both use.

use super::{Decided, IN_SKILL_FOLDER, Reader, Side, Split, TriggerCase};
use syntax::json::{Kind, Value};

/// File names that are trigger sets by name: a wrong shape in one of them
/// is an error, not a file of another kind.
pub const NAMES: &[&str] = &[
    "eval-queries.json",
    "eval-set.json",
    "eval_queries.json",
    "eval_set.json",
    "trigger-eval-set.json",
    "trigger-evals.json",
    "trigger-queries.json",
    "trigger-set.json",
    "trigger_eval_set.json",
    "trigger_evals.json",
    "trigger_queries.json",
    "trigger_set.json",
    "triggers.json",
];

/// Keys a row may hold.
pub const ROW_KEYS: &[&str] = &[
    "query",
    "prompt",
    "should_trigger",
    "split",
    "owner",
    "top_k",
    "draft",
    "lexical",
    "with",
];

/// Whether `root` has the shape of a trigger set: a non-empty array whose
/// objects carry `query` or `should_trigger`.
pub fn looks_like(root: &Value) -> bool {
    root.as_array().is_some_and(|rows| {
        rows.iter()
            .any(|r| r.get("query").is_some() || r.get("should_trigger").is_some())
    })
}

/// Whether `root` is skill-creator's `run_eval.py` output: an object with
/// a `results` array of rows.
pub fn is_results(root: &Value) -> bool {
    root.get("results").and_then(Value::as_array).is_some() && root.get("evals").is_none()
}

/// The rows of a trigger set: the top-level array, or the `results` of
/// `run_eval.py` output.
pub fn rows(root: &Value) -> Option<&[Value]> {
    root.as_array()
        .or_else(|| root.get("results").and_then(Value::as_array))
}

/// What is wrong with part of a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Byte range it is about.
    pub start: usize,
    pub end: usize,
    pub message: String,
    pub help: String,
}

impl Problem {
    fn at(v: &Value, message: String, help: &str) -> Problem {
        Problem {
            start: v.start,
            end: v.end,
            message,
            help: help.to_string(),
        }
    }
}

/// Everything wrong with a trigger's case conventions: `lexical` not
/// true or false, `with` not an array of skill names.
pub fn convention_problems(row: &Value, what: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Some(l) = row.get("lexical")
        && !matches!(l.kind, Kind::Bool(_))
    {
        out.push(Problem::at(
            l,
            format!("`lexical` of {what} is {}, not true or false", l.described()),
            "write `\"lexical\": false` for a prompt lexical routing cannot match (a paraphrase, another language), or remove it",
        ));
    }
    if let Some(w) = row.get("with") {
        match w.as_array() {
            None => out.push(Problem::at(
                w,
                format!("`with` of {what} is {}, not an array", w.described()),
                "list the skills this prompt also loads: \"with\": [\"other-skill\"]",
            )),
            Some(items) => {
                for item in items {
                    if item.as_str().is_none_or(|s| s.trim().is_empty()) {
                        out.push(Problem::at(
                            item,
                            format!(
                                "an item of `with` of {what} is {}, not a skill's name",
                                item.described()
                            ),
                            "write each skill's name in quotes",
                        ));
                    }
                }
            }
        }
    }
    out
}

/// The text of a row, `query` (or `prompt`, which some tools write).
pub fn text_of(row: &Value) -> Option<&Value> {
    row.get("query").or_else(|| row.get("prompt"))
}

/// Everything wrong with the shape of a trigger row (`what` names it in
/// messages, e.g. `row 3`; `key` is the name its text goes by, `query` in
/// a trigger set, `prompt` in an evals file): not an object, no non-empty
/// text, no boolean `should_trigger`, an unknown `split`, `owner` on a
/// positive or not a string, `top_k` not a whole number of at least 1,
/// `draft` not a boolean.
pub fn row_problems(row: &Value, what: &str, key: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    if row.as_object().is_none() {
        out.push(Problem::at(
            row,
            format!("{what} is {}, not an object", row.described()),
            &format!("write {{ \"{key}\": \"what a user would type\", \"should_trigger\": true }}"),
        ));
        return out;
    }
    if row.get("query").is_some() && row.get("prompt").is_some() {
        out.push(Problem::at(
            row.get("prompt").unwrap_or(row),
            format!("{what} has both `query` and `prompt`"),
            "keep one: `query` is the trigger-set spelling",
        ));
    }
    match text_of(row) {
        None => out.push(Problem::at(
            row,
            format!("{what} has no `{key}`"),
            &format!("add \"{key}\": \"what a user would type\""),
        )),
        Some(q) => match q.as_str() {
            None => out.push(Problem::at(
                q,
                format!("the {key} of {what} is {}, not a string", q.described()),
                "write it in quotes",
            )),
            Some(s) if s.trim().is_empty() => out.push(Problem::at(
                q,
                format!("the {key} of {what} is empty"),
                "write what a user would type, or remove it",
            )),
            Some(_) => {}
        },
    }
    let side = match row.get("should_trigger") {
        None => {
            out.push(Problem::at(
                row,
                format!("{what} has no `should_trigger`"),
                "add \"should_trigger\": true (the skill should load) or false (it should not)",
            ));
            None
        }
        Some(v) => match v.kind {
            Kind::Bool(true) => Some(Side::Positive),
            Kind::Bool(false) => Some(Side::Negative),
            _ => {
                out.push(Problem::at(
                    v,
                    format!(
                        "`should_trigger` of {what} is {}, not true or false",
                        v.described()
                    ),
                    "write true or false, without quotes",
                ));
                None
            }
        },
    };
    if let Some(s) = row.get("split")
        && s.as_str().and_then(Split::parse).is_none()
    {
        out.push(Problem::at(
            s,
            format!("`split` of {what} is not one of `train`, `validation`, `fresh`"),
            "use \"train\", \"validation\" or \"fresh\", or remove `split`",
        ));
    }
    if let Some(o) = row.get("owner") {
        match o.as_str() {
            None => out.push(Problem::at(
                o,
                format!("`owner` of {what} is {}, not a string", o.described()),
                "write the owning skill's name in quotes",
            )),
            Some(s) if s.trim().is_empty() => out.push(Problem::at(
                o,
                format!("`owner` of {what} is empty"),
                "name the skill this prompt belongs to, or remove `owner`",
            )),
            Some(_) if side == Some(Side::Positive) => out.push(Problem::at(
                o,
                format!("{what} should trigger, so it has no other `owner`"),
                "`owner` names the skill a should_trigger: false row belongs to; remove it here",
            )),
            Some(_) => {}
        }
    }
    if let Some(k) = row.get("top_k")
        && k.as_u64().filter(|&k| k >= 1).is_none()
    {
        out.push(Problem::at(
            k,
            format!("`top_k` of {what} is not a whole number of at least 1"),
            "write a whole number such as 3, or remove it to use the default",
        ));
    }
    if let Some(d) = row.get("draft")
        && !matches!(d.kind, Kind::Bool(_))
    {
        out.push(Problem::at(
            d,
            format!("`draft` of {what} is {}, not true or false", d.described()),
            "remove `draft` once the prompt is rewritten in a user's words",
        ));
    }
    out.extend(convention_problems(row, what));
    out
}

/// The trigger set reader ([`crate::read::READERS`]).
pub struct TriggerSet;

impl crate::read::FormatReader for TriggerSet {
    fn format(&self) -> crate::Format {
        crate::Format::TriggerSet
    }

    fn accepts(&self, tree: &crate::Tree) -> bool {
        matches!(tree, crate::Tree::Json(t) if looks_like(&t.root))
    }

    fn read(&self, input: &crate::read::Input) -> crate::read::Read {
        crate::read::Read {
            triggers: input
                .json()
                .map(|(r, root)| build(&r, root))
                .unwrap_or_default(),
            ..Default::default()
        }
    }
}

/// The rows of a trigger set well-formed enough to route, in file order.
pub(crate) fn build(r: &Reader, root: &Value) -> Vec<TriggerCase> {
    let Some(rows) = root.as_array() else {
        return Vec::new();
    };
    rows.iter()
        .enumerate()
        .filter(|(i, row)| row_problems(row, &format!("row {}", i + 1), "query").is_empty())
        .filter_map(|(_, row)| {
            let side = match row.get("should_trigger")?.kind {
                Kind::Bool(true) => Side::Positive,
                _ => Side::Negative,
            };
            let key = if row.get("query").is_some() {
                "query"
            } else {
                "prompt"
            };
            let said = format!("`should_trigger` is {}", side == Side::Positive);
            r.trigger(row, key, side, Decided::new(IN_SKILL_FOLDER, said))
        })
        .collect()
}
