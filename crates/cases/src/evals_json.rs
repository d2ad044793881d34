//! skill-creator's and agentskills.io's `<skill>/evals/evals.json`:
//!
//! ```json
//! {"skill_name": "pdf-forms",
//!  "evals": [{"id": 1, "prompt": "…", "expected_output": "…",
//!             "files": ["evals/files/form.pdf"], "assertions": ["…"]}]}
//! ```
//!
//! The eval objects are the case file's (the same rules check them, SG408
//! to SG414), with two differences the format defines: `files` are
//! relative to the skill folder and land in the workspace at that same
//! relative path, and an eval without files (`"files": []` or none) is a
//! dialogue eval unless it says `"kind": "execution"`. An entry with
//! `should_trigger` and no `expectations` (or `assertions`) is a trigger
//! prompt, not a broken eval. Any other `{"evals": […]}` file in the
//! skill's `evals/` is read the same way, so one suite can be spread over
//! several files (ids unique across them, SG409).

use super::{Decided, EvalKind, FixtureBase, IN_SKILL_FOLDER, Reader, Side, TriggerCase};
use super::{Eval, trigger_set};
use syntax::Spanned;
use syntax::json::{Kind, Value};

/// The file name skill-creator and agentskills.io use.
pub const NAME: &str = "evals.json";

/// Keys of the top-level object.
pub const ROOT_KEYS: &[&str] = &["skill_name", "evals", "$schema"];

/// Keys of an eval beyond the case file's ([`super::case_file::EVAL_KEYS`]).
pub const EXTRA_EVAL_KEYS: &[&str] = &["should_trigger"];

/// Keys of a trigger-only entry beyond a trigger-set row's
/// ([`trigger_set::ROW_KEYS`]).
pub const EXTRA_TRIGGER_KEYS: &[&str] = &["id"];

/// Whether `root` has the shape of an evals file: an object with `evals`.
pub fn looks_like(root: &Value) -> bool {
    root.as_object().is_some() && root.get("evals").is_some()
}

/// An entry that only says whether the skill should load for its prompt:
/// `should_trigger` without `expectations` or `assertions`.
pub fn is_trigger_only(entry: &Value) -> bool {
    entry.get("should_trigger").is_some()
        && entry.get("expectations").is_none()
        && entry.get("assertions").is_none()
}

/// An eval's kind when it does not say: execution with files, dialogue
/// without.
pub fn default_kind(has_files: bool) -> EvalKind {
    if has_files {
        EvalKind::Execution
    } else {
        EvalKind::Dialogue
    }
}

/// The entries of `evals` that are evals (objects, not trigger-only).
pub fn eval_objects(root: &Value) -> impl Iterator<Item = &Value> {
    root.get("evals")
        .and_then(Value::as_array)
        .unwrap_or_default()
        .iter()
        .filter(|e| e.as_object().is_some() && !is_trigger_only(e))
}

/// The evals file reader ([`crate::read::READERS`]).
pub struct EvalsJson;

impl crate::read::FormatReader for EvalsJson {
    fn format(&self) -> crate::Format {
        crate::Format::EvalsJson
    }

    fn accepts(&self, tree: &crate::Tree) -> bool {
        matches!(tree, crate::Tree::Json(t) if looks_like(&t.root))
    }

    fn read(&self, input: &crate::read::Input) -> crate::read::Read {
        let Some((r, root)) = input.json() else {
            return crate::read::Read::default();
        };
        let (named, triggers, evals) = build(&r, root, input.base);
        crate::read::Read {
            named,
            triggers,
            evals,
        }
    }
}

/// What an evals file holds: the skill it names, its trigger-only entries
/// and its evals, each well-formed enough to run.
pub(crate) fn build(
    r: &Reader,
    root: &Value,
    base: &FixtureBase,
) -> (Option<Spanned<String>>, Vec<TriggerCase>, Vec<Eval>) {
    if root.as_object().is_none() {
        return (None, Vec::new(), Vec::new());
    }
    let named = r.string(root.get("skill_name"));
    let mut triggers = Vec::new();
    let mut evals = Vec::new();
    let entries = root
        .get("evals")
        .and_then(Value::as_array)
        .unwrap_or_default();
    for (i, e) in entries.iter().enumerate() {
        if e.as_object().is_none() {
            continue;
        }
        if is_trigger_only(e) {
            if !trigger_set::row_problems(e, &format!("entry {}", i + 1), "prompt").is_empty() {
                continue;
            }
            let side = match e.get("should_trigger").map(|v| &v.kind) {
                Some(Kind::Bool(true)) => Side::Positive,
                _ => Side::Negative,
            };
            let key = if e.get("query").is_some() {
                "query"
            } else {
                "prompt"
            };
            let said = format!("`should_trigger` is {}", side == Side::Positive);
            triggers.extend(r.trigger(e, key, side, Decided::new(IN_SKILL_FOLDER, said)));
        } else if let Some(ev) = r.eval(e, base, default_kind) {
            evals.push(ev);
        }
    }
    (named, triggers, evals)
}
