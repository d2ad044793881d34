//! Case files, `evals/cases/<skill>.json` (ARCHITECTURE.md, "Case files").
//!
//! Each file is read once (bounded by `[catalog] max-case-bytes`), parsed by
//! [`super::json`] so every value keeps its byte range, and turned into a
//! typed [`CaseFile`]. Loading reports only what stops a file from being
//! read at all (unreadable, too large, not UTF-8, not JSON); everything
//! about the file's shape is a Tier 1 rule (`SG4xx`) that reads
//! [`CaseFile::json`].
//!
//! The typed lists are lenient: they hold every trigger case and eval that
//! is well-formed enough to run, and leave out the rest, which Tier 1
//! reports as errors. A tier that runs cases therefore never sees a
//! half-built case, and `check` fails whenever one was left out.

use super::json::{self, Kind, Value};
use super::skill::Spanned;
use super::source::Source;
use crate::config::Config;
use crate::diag::{Diagnostic, Span};
use crate::lint::rules::cases::load as rules;
use rayon::prelude::*;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// Where case files live, relative to the catalog root.
pub const CASES_DIR: &str = "evals/cases";
/// Where execution-eval fixtures live, relative to the catalog root.
pub const FIXTURES_DIR: &str = "evals/fixtures";

/// Which part of a tuning workflow a trigger case belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    Train,
    Validation,
    Fresh,
}

impl Split {
    pub const ALL: [&'static str; 3] = ["train", "validation", "fresh"];

    pub fn parse(s: &str) -> Option<Split> {
        match s {
            "train" => Some(Split::Train),
            "validation" => Some(Split::Validation),
            "fresh" => Some(Split::Fresh),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Validation => "validation",
            Split::Fresh => "fresh",
        }
    }
}

/// One trigger prompt with the span of its `prompt` string.
#[derive(Debug, Clone)]
pub struct TriggerCase {
    pub prompt: Spanned<String>,
    /// `top_k`, when the case sets it to a positive integer.
    pub top_k: Option<usize>,
    /// `owner` of a negative prompt.
    pub owner: Option<Spanned<String>>,
    /// `split`, when the case sets a known one.
    pub split: Option<Split>,
    /// Span of the whole case object.
    pub span: Span,
}

/// What a behavioral eval grades.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// Runs in a throwaway git repository seeded with `files[]` (the default).
    Execution,
    /// The conversation is the artifact; no fixture.
    Dialogue,
}

impl EvalKind {
    pub const ALL: [&'static str; 2] = ["execution", "dialogue"];

    pub fn parse(s: &str) -> Option<EvalKind> {
        match s {
            "execution" => Some(EvalKind::Execution),
            "dialogue" => Some(EvalKind::Dialogue),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            EvalKind::Execution => "execution",
            EvalKind::Dialogue => "dialogue",
        }
    }
}

/// One behavioral eval (skill-creator's `evals.json` entry plus `kind`).
#[derive(Debug, Clone)]
pub struct Eval {
    /// `id` for display: a number as written (`1`) or a string's text.
    pub id: Spanned<String>,
    pub kind: EvalKind,
    pub prompt: Spanned<String>,
    pub expected_output: Option<Spanned<String>>,
    /// Fixture paths relative to `evals/fixtures/`, as written (not yet
    /// checked; see [`resolve_fixture`]).
    pub files: Vec<Spanned<String>>,
    /// `expectations`, or the `assertions` spelling; strings only.
    pub expectations: Vec<String>,
    pub trust_level: Option<Spanned<String>>,
    /// Span of the whole eval object.
    pub span: Span,
}

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
    /// Well-formed positive trigger cases, in file order.
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
    if let Some(real) = super::outside_root(&boundary, &dir) {
        diags.push(
            rules::UNREADABLE
                .diag(CASES_DIR, super::outside_message(&real))
                .with_help(super::OUTSIDE_HELP),
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
    let mut diags = Vec::new();
    if let Some(real) = super::outside_root(boundary, path) {
        diags.push(
            rules::UNREADABLE
                .diag(&file, super::outside_message(&real))
                .with_help(super::OUTSIDE_HELP),
        );
        return (unread(name), diags);
    }
    let bytes = match super::read_bounded(path, limit) {
        Ok(Some(b)) => b,
        Ok(None) => {
            diags.push(
                rules::UNREADABLE
                    .diag(
                        &file,
                        format!("case file is larger than {limit} bytes and was not parsed"),
                    )
                    .with_help(
                        "split the cases, or raise [catalog] max-case-bytes in skillgate.toml",
                    ),
            );
            return (unread(name), diags);
        }
        Err(e) => {
            diags.push(
                rules::UNREADABLE
                    .diag(&file, format!("cannot read case file: {e}"))
                    .with_help(if e.kind() == std::io::ErrorKind::InvalidInput {
                        "replace it with a regular file"
                    } else {
                        "fix the file's permissions"
                    }),
            );
            return (unread(name), diags);
        }
    };
    parse_bytes(name, bytes, limit)
}

/// The [`CaseFile`] of `evals/cases/<name>` before (or without) its text.
fn unread(name: &str) -> CaseFile {
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
/// read, at most `limit` bytes): what [`load_all`] does after reading a
/// file, and the entry point of the `cases` fuzz target.
pub fn parse_bytes(name: &str, bytes: Vec<u8>, limit: u64) -> (CaseFile, Vec<Diagnostic>) {
    let mut case = unread(name);
    let file = case.file.clone();
    let mut diags = Vec::new();
    let (src, bad) = Source::decode(bytes);
    if let Some(bad) = bad {
        diags.push(
            rules::UNREADABLE
                .diag(
                    &file,
                    format!("case file is not valid UTF-8 (byte {})", bad.start),
                )
                .with_span(src.span(bad.start, bad.end))
                .with_label("not UTF-8")
                .with_help("re-save the file as UTF-8; JSON must be UTF-8"),
        );
    }
    case.source = src;
    let limits = json::Limits {
        max_bytes: usize::try_from(limit).unwrap_or(usize::MAX),
        ..json::Limits::default()
    };
    match json::parse_with(&case.source.text, limits) {
        Ok(tree) => {
            build(&mut case, &tree.root);
            case.json = Some(tree);
        }
        Err(e) => {
            let src = &case.source;
            let end = src.text[e.offset.min(src.text.len())..]
                .chars()
                .next()
                .map_or(e.offset, |c| e.offset + c.len_utf8());
            let span = src.span(e.offset, end);
            diags.push(
                rules::JSON_SYNTAX
                    .diag(
                        &file,
                        format!(
                            "invalid JSON at line {} column {}: {}",
                            span.line, span.col, e.message
                        ),
                    )
                    .with_span(span)
                    .with_label(match e.kind {
                        json::ErrorKind::Syntax => "here",
                        json::ErrorKind::Limit => "limit reached here",
                    })
                    .with_help(match e.kind {
                        json::ErrorKind::Syntax => {
                            "fix the JSON at this position (a validator such as `jq . FILE` shows the same place)"
                        }
                        json::ErrorKind::Limit => "flatten the structure; case files need four levels",
                    }),
            );
        }
    }
    (case, diags)
}

/// Fill the typed fields from a parsed tree.
fn build(case: &mut CaseFile, root: &Value) {
    if root.as_object().is_none() {
        return;
    }
    case.parsed = true;
    case.skill_name = spanned_str(case, root.get("skill_name"));
    if let Some(trigger) = root.get("trigger") {
        case.positive = triggers(case, trigger.get("positive"));
        case.negative = triggers(case, trigger.get("negative"));
    }
    if let Some(evals) = root.get("evals").and_then(Value::as_array) {
        case.evals = evals.iter().filter_map(|e| eval(case, e)).collect();
    }
}

fn spanned_str(case: &CaseFile, v: Option<&Value>) -> Option<Spanned<String>> {
    let v = v?;
    v.as_str().map(|s| Spanned {
        value: s.to_string(),
        span: case.value_span(v),
    })
}

fn triggers(case: &CaseFile, list: Option<&Value>) -> Vec<TriggerCase> {
    let Some(items) = list.and_then(Value::as_array) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            item.as_object()?;
            let prompt = spanned_str(case, item.get("prompt"))?;
            if prompt.value.trim().is_empty() {
                return None;
            }
            let top_k = match item.get("top_k") {
                None => None,
                Some(v) => Some(
                    v.as_u64()
                        .filter(|&k| k >= 1)
                        .and_then(|k| usize::try_from(k).ok())?,
                ),
            };
            let owner = match item.get("owner") {
                None => None,
                Some(v) => Some(spanned_str(case, Some(v))?),
            };
            let split = match item.get("split") {
                None => None,
                Some(v) => Some(Split::parse(v.as_str()?)?),
            };
            Some(TriggerCase {
                prompt,
                top_k,
                owner,
                split,
                span: case.value_span(item),
            })
        })
        .collect()
}

/// The display text of an eval id: a number as written, or a non-empty string.
pub fn eval_id(v: &Value) -> Option<String> {
    match &v.kind {
        Kind::Number(n) => Some(n.clone()),
        Kind::String(s) if !s.trim().is_empty() => Some(s.clone()),
        _ => None,
    }
}

fn eval(case: &CaseFile, v: &Value) -> Option<Eval> {
    v.as_object()?;
    let id_value = v.get("id")?;
    let id = Spanned {
        value: eval_id(id_value)?,
        span: case.value_span(id_value),
    };
    let kind = match v.get("kind") {
        None => EvalKind::Execution,
        Some(k) => EvalKind::parse(k.as_str()?)?,
    };
    let prompt = spanned_str(case, v.get("prompt"))?;
    let files = match v.get("files") {
        None => Vec::new(),
        Some(f) => f
            .as_array()?
            .iter()
            .map(|p| spanned_str(case, Some(p)))
            .collect::<Option<Vec<_>>>()?,
    };
    let expectations = v
        .get("expectations")
        .or_else(|| v.get("assertions"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Some(Eval {
        id,
        kind,
        prompt,
        expected_output: spanned_str(case, v.get("expected_output")),
        files,
        expectations,
        trust_level: spanned_str(case, v.get("trust_level")),
        span: case.value_span(v),
    })
}

/// Why a fixture path in `files[]` cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureError {
    /// The path is empty.
    Empty,
    /// The path is absolute (`/x`, `\x`, `C:\x`).
    Absolute,
    /// The path has a `..` component.
    ParentComponent,
    /// Nothing exists at the path.
    NotFound,
    /// The path, or a symlink inside a fixture folder, resolves outside
    /// `evals/fixtures/`; `at` is the offending path relative to the
    /// fixtures folder.
    Escapes { at: String },
    /// The fixture (or the fixtures folder) could not be read.
    Unreadable(String),
}

/// Most entries walked inside one fixture folder while looking for
/// symlinks that point out of it.
const MAX_FIXTURE_ENTRIES: usize = 100_000;

/// Resolve `rel` (a `files[]` entry) against `ROOT/evals/fixtures/`,
/// refusing absolute paths, `..` components, and anything (the path itself,
/// or a symlink anywhere inside a fixture folder) that resolves outside the
/// fixtures folder. Returns the canonical path of the fixture.
///
/// Tier 1 reports the errors; Tier 3 must call this again right before it
/// copies a fixture, so a change after the check is still caught.
pub fn resolve_fixture(root: &Path, rel: &str) -> Result<PathBuf, FixtureError> {
    FixtureRoot::new(root).resolve(rel)
}

/// `ROOT/evals/fixtures/`, canonicalized once for many [`resolve`] calls.
///
/// [`resolve`]: FixtureRoot::resolve
#[derive(Debug, Clone)]
pub struct FixtureRoot {
    base: Result<PathBuf, FixtureError>,
}

impl FixtureRoot {
    pub fn new(root: &Path) -> FixtureRoot {
        let base = match root.join(FIXTURES_DIR).canonicalize() {
            Ok(b) => Ok(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(FixtureError::NotFound),
            Err(e) => Err(FixtureError::Unreadable(e.to_string())),
        };
        FixtureRoot { base }
    }

    /// See [`resolve_fixture`].
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, FixtureError> {
        if rel.trim().is_empty() {
            return Err(FixtureError::Empty);
        }
        let b = rel.as_bytes();
        let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
        if rel.starts_with('/') || rel.starts_with('\\') || drive || Path::new(rel).is_absolute() {
            return Err(FixtureError::Absolute);
        }
        if rel.split(['/', '\\']).any(|c| c == "..") {
            return Err(FixtureError::ParentComponent);
        }
        if rel.contains('\0') {
            return Err(FixtureError::NotFound);
        }
        let base = self.base.as_ref().map_err(Clone::clone)?;
        let joined = base.join(rel);
        if std::fs::symlink_metadata(&joined).is_err() {
            return Err(FixtureError::NotFound);
        }
        let real = match joined.canonicalize() {
            Ok(r) => r,
            // a dangling symlink
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(FixtureError::NotFound);
            }
            Err(e) => return Err(FixtureError::Unreadable(e.to_string())),
        };
        if !real.starts_with(base) {
            return Err(FixtureError::Escapes { at: normalise(rel) });
        }
        if real.is_dir() {
            check_links_inside(base, &real)?;
        }
        Ok(real)
    }
}

/// `rel` with `.` components dropped and `/` separators.
fn normalise(rel: &str) -> String {
    Path::new(rel)
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Walk `dir` (not following links) and refuse any symlink that resolves
/// outside `base`.
fn check_links_inside(base: &Path, dir: &Path) -> Result<(), FixtureError> {
    let mut stack = vec![dir.to_path_buf()];
    let mut seen = 0usize;
    while let Some(d) = stack.pop() {
        let rd = std::fs::read_dir(&d)
            .map_err(|e| FixtureError::Unreadable(format!("{}: {e}", shown(base, &d))))?;
        for entry in rd {
            let entry = entry.map_err(|e| FixtureError::Unreadable(e.to_string()))?;
            seen += 1;
            if seen > MAX_FIXTURE_ENTRIES {
                return Err(FixtureError::Unreadable(format!(
                    "more than {MAX_FIXTURE_ENTRIES} entries under {}",
                    shown(base, dir)
                )));
            }
            let path = entry.path();
            let ft = entry
                .file_type()
                .map_err(|e| FixtureError::Unreadable(e.to_string()))?;
            if ft.is_symlink() {
                let inside = path.canonicalize().is_ok_and(|r| r.starts_with(base));
                if !inside {
                    return Err(FixtureError::Escapes {
                        at: shown(base, &path),
                    });
                }
            } else if ft.is_dir() {
                stack.push(path);
            }
        }
    }
    Ok(())
}

fn shown(base: &Path, p: &Path) -> String {
    p.strip_prefix(base)
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> (CaseFile, Vec<Diagnostic>) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.json");
        std::fs::write(&p, text).unwrap();
        load_one(&dir.path().canonicalize().unwrap(), &p, "x.json", 1 << 20)
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
        assert_eq!(c.evals[0].expectations, ["a", "b"]);
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

    #[test]
    fn fixture_paths_must_stay_inside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let fx = root.join(FIXTURES_DIR);
        std::fs::create_dir_all(fx.join("ok/sub")).unwrap();
        std::fs::write(fx.join("ok/sub/a.txt"), "a").unwrap();
        std::fs::write(root.join("secret"), "s").unwrap();
        assert!(resolve_fixture(root, "ok").is_ok());
        assert!(resolve_fixture(root, "./ok/sub/a.txt").is_ok());
        assert_eq!(resolve_fixture(root, ""), Err(FixtureError::Empty));
        assert_eq!(resolve_fixture(root, "/etc"), Err(FixtureError::Absolute));
        assert_eq!(resolve_fixture(root, "C:\\x"), Err(FixtureError::Absolute));
        assert_eq!(
            resolve_fixture(root, "ok/../../secret"),
            Err(FixtureError::ParentComponent)
        );
        assert_eq!(resolve_fixture(root, "nope"), Err(FixtureError::NotFound));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("secret"), fx.join("link")).unwrap();
            assert_eq!(
                resolve_fixture(root, "link"),
                Err(FixtureError::Escapes { at: "link".into() })
            );
            std::os::unix::fs::symlink(root.join("secret"), fx.join("ok/sub/out")).unwrap();
            assert_eq!(
                resolve_fixture(root, "ok"),
                Err(FixtureError::Escapes {
                    at: "ok/sub/out".into()
                })
            );
            std::fs::create_dir_all(fx.join("inner")).unwrap();
            std::os::unix::fs::symlink(fx.join("ok/sub/a.txt"), fx.join("inner/in")).unwrap();
            assert!(resolve_fixture(root, "inner").is_ok());
        }
    }
}
