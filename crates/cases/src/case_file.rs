//! Case files, `evals/cases/<skill>.json` (ARCHITECTURE.md, "Case files").
//!
//! Each file is read once (bounded by `[catalog] max-case-bytes`), parsed by
//! [`syntax::json`] so every value keeps its byte range, and turned
//! into a typed [`CaseFile`]. Loading reports only what stops a file from
//! being read at all (unreadable, too large, not UTF-8, not JSON);
//! everything about the file's shape is a Tier 1 rule (`SG4xx`) that reads
//! [`CaseFile::json`].

use super::{CASES_DIR, Eval};
use super::{Decided, EvalKind, FixtureBase, Format, Reader, Side, Tree, TriggerCase};
use crate::read::{FormatReader, Input, Read};
use base::diag::{Diagnostic, Span};
use std::sync::Arc;
use syntax::json::{self, Value};
use syntax::{Source, Spanned};

/// A loaded case file.
#[derive(Debug, Clone)]
pub struct CaseFile {
    /// Path relative to the catalog root.
    pub file: String,
    /// File name without `.json`.
    pub stem: String,
    /// The file's text (empty when it could not be read).
    pub source: Arc<Source>,
    /// `skill_name`, when present and a string.
    pub skill_name: Option<Spanned<String>>,
    /// Well-formed positive trigger cases (drafts too), in file order.
    pub positive: Vec<TriggerCase>,
    /// Well-formed negative trigger cases, in file order.
    pub negative: Vec<TriggerCase>,
    /// Well-formed evals, in file order.
    pub evals: Vec<Eval>,
    /// Whether the file parsed as a case file at all (valid JSON whose top
    /// level is an object).
    pub parsed: bool,
    /// The JSON tree, when the file is valid JSON (Tier 1 reads it).
    pub json: Option<json::Tree>,
}

impl CaseFile {
    /// A [`Span`] over `start..end` of this file.
    pub fn span(&self, start: usize, end: usize) -> Span {
        self.source.span(start, end)
    }

    /// The span of a JSON value of this file.
    pub fn value_span(&self, v: &Value) -> Span {
        self.source.span(v.start, v.end)
    }
}

/// Keys of an eval object.
pub const EVAL_KEYS: &[&str] = &[
    "id",
    "kind",
    "prompt",
    "expected_output",
    "files",
    "expectations",
    "assertions",
    "trust_level",
    "forbidden_skills",
];

/// The [`CaseFile`] of `evals/cases/<name>` before (or without) its text.
pub fn unread(name: &str) -> CaseFile {
    CaseFile {
        file: format!("{CASES_DIR}/{name}"),
        stem: name.strip_suffix(".json").unwrap_or(name).to_string(),
        source: Source::new(String::new()),
        skill_name: None,
        positive: Vec::new(),
        negative: Vec::new(),
        evals: Vec::new(),
        parsed: false,
        json: None,
    }
}

/// Decode and parse the bytes of case file `evals/cases/<name>` (already
/// read, at most `limit` bytes): what the catalog's loader does after reading a
/// file, and the entry point of the `cases` fuzz target.
pub fn parse_bytes(name: &str, bytes: Vec<u8>, limit: u64) -> (CaseFile, Vec<Diagnostic>) {
    let mut case = unread(name);
    let mut diags = Vec::new();
    case.source = super::decode(&case.file, bytes, &mut diags);
    if let Some(tree) = super::parse_json(&case.file, &case.source, limit, &mut diags) {
        let tree = Tree::Json(tree);
        build(&mut case, &tree);
        if let Tree::Json(t) = tree {
            case.json = Some(t);
        }
    }
    (case, diags)
}

/// The case file reader: `evals/cases/<skill>.json` by its place, so it
/// accepts any object and is not among [`crate::read::READERS`] (which are
/// offered a skill's files).
pub struct CaseFileReader;

impl FormatReader for CaseFileReader {
    fn format(&self) -> Format {
        Format::CaseFile
    }

    fn accepts(&self, tree: &Tree) -> bool {
        matches!(tree, Tree::Json(t) if t.root.as_object().is_some())
    }

    fn read(&self, input: &Input) -> Read {
        let Some((r, root)) = input.json().filter(|(_, root)| root.as_object().is_some()) else {
            return Read::default();
        };
        let mut triggers = Vec::new();
        if let Some(trigger) = root.get("trigger") {
            triggers = self::triggers(&r, trigger.get("positive"), Side::Positive);
            triggers.extend(self::triggers(&r, trigger.get("negative"), Side::Negative));
        }
        let evals: Vec<Eval> = root
            .get("evals")
            .and_then(Value::as_array)
            .map(|evals| {
                evals
                    .iter()
                    .filter_map(|e| r.eval(e, input.base, |_| EvalKind::Execution))
                    .collect()
            })
            .unwrap_or_default();
        Read {
            named: r.string(root.get("skill_name")),
            triggers,
            evals,
        }
    }
}

/// Fill the typed fields from a parsed tree.
fn build(case: &mut CaseFile, tree: &Tree) {
    if !CaseFileReader.accepts(tree) {
        return;
    }
    case.parsed = true;
    let read = CaseFileReader.read(&Input {
        file: &case.file,
        source: &case.source,
        tree,
        base: &FixtureBase::Catalog,
    });
    case.skill_name = read.named;
    (case.positive, case.negative) = read
        .triggers
        .into_iter()
        .partition(|t| t.side == Side::Positive);
    case.evals = read.evals;
}

fn triggers(r: &Reader, list: Option<&Value>, side: Side) -> Vec<TriggerCase> {
    let Some(items) = list.and_then(Value::as_array) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let list = format!("the list `trigger.{}` it stands in", side.as_str());
            // the owner is decided when the file is merged into a suite
            r.trigger(item, "prompt", side, Decided::new("", list))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Split;

    fn load_text(text: &str) -> (CaseFile, Vec<Diagnostic>) {
        parse_bytes("x.json", text.as_bytes().to_vec(), 1 << 20)
    }

    #[test]
    fn typed_fields_keep_spans_and_defaults() {
        let text = r#"{
  "skill_name": "x",
  "trigger": {
    "positive": [{"prompt": "do the thing", "top_k": 1, "split": "fresh"}],
    "negative": [{"prompt": "other thing", "owner": "y"}]
  },
  "evals": [
    {"id": 7, "prompt": "p", "expected_output": "o", "files": ["x"], "assertions": ["a", "b"]},
    {"id": "talk", "kind": "dialogue", "prompt": "q", "expected_output": "o", "expectations": ["c"], "trust_level": "provisional"}
  ]
}"#;
        let (c, d) = load_text(text);
        assert!(d.is_empty(), "{d:?}");
        assert!(c.parsed);
        assert_eq!(c.skill_name.as_ref().unwrap().value, "x");
        let p = &c.positive[0];
        assert_eq!(p.prompt.value, "do the thing");
        assert_eq!(p.prompt.span.line, 4);
        assert_eq!(p.top_k, Some(1));
        assert_eq!(p.split, Some(Split::Fresh));
        let n = &c.negative[0];
        assert_eq!(n.owner.as_ref().unwrap().value, "y");
        assert_eq!(n.owner.as_ref().unwrap().span.line, 5);
        assert_eq!(n.top_k, None);
        assert_eq!(c.evals.len(), 2);
        assert_eq!(c.evals[0].id.value, "7");
        assert_eq!(c.evals[0].kind, EvalKind::Execution);
        assert_eq!(
            c.evals[0]
                .expectations
                .iter()
                .map(|e| e.text.as_str())
                .collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(c.evals[0].files[0].value, "x");
        assert_eq!(c.evals[1].kind, EvalKind::Dialogue);
        assert_eq!(c.evals[1].span.line, 9);
        assert_eq!(
            c.evals[1].trust_level.as_ref().unwrap().value,
            "provisional"
        );
    }

    #[test]
    fn malformed_entries_are_left_out_of_the_typed_lists() {
        let text = r#"{"skill_name": "x", "trigger": {"positive": [
            {"prompt": 3}, {"prompt": " "}, {"prompt": "ok", "top_k": 0}, "bare", {"prompt": "fine"}]},
            "evals": [{"id": 1, "kind": "chat", "prompt": "p"}, {"prompt": "no id"}, {"id": 2, "prompt": "p"}]}"#;
        let (c, _) = load_text(text);
        assert_eq!(c.positive.len(), 1);
        assert_eq!(c.positive[0].prompt.value, "fine");
        assert_eq!(c.evals.len(), 1);
        assert_eq!(c.evals[0].id.value, "2");
    }

    #[test]
    fn invalid_json_is_located() {
        let (c, d) = load_text("{\n  \"skill_name\": \"x\",\n  \"trigger\": {,}\n}\n");
        assert!(!c.parsed);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rule, "SG401");
        let s = d[0].span.unwrap();
        assert_eq!((s.line, s.col), (3, 15));
        assert!(
            d[0].message.contains("line 3 column 15"),
            "{}",
            d[0].message
        );
    }

    #[test]
    fn a_top_level_array_parses_but_is_not_a_case_file() {
        let (c, d) = load_text("[]");
        assert!(d.is_empty());
        assert!(!c.parsed);
        assert!(c.json.is_some());
    }
}
