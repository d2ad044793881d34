//! Reading the scorer's input files: regular files only, size-bounded, read
//! incrementally line by line (LF or CRLF), every problem reported with the
//! file and line.

use super::task::{Check, Json};
use crate::exit::Fatal;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// Largest input file accepted (50 MB).
pub const MAX_FILE_BYTES: u64 = 50_000_000;
/// Longest line accepted (4 MiB, without its line end).
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// Open `path` for reading when it is a regular file of at most `limit`
/// bytes. Symbolic links, devices, FIFOs and sockets are refused before they
/// are opened (opening a FIFO would block); the opened file is checked again.
pub fn open_regular(path: &Path, limit: u64) -> Result<File, Fatal> {
    let shown = path.display();
    let meta = std::fs::symlink_metadata(path).map_err(|e| {
        Fatal::usage(format!("{shown}: cannot read: {e}"))
            .with_help("pass the path of an existing file")
    })?;
    let ft = meta.file_type();
    if ft.is_symlink() {
        return Err(Fatal::usage(format!("{shown}: is a symbolic link"))
            .with_help("pass the path of the file itself; input files must be regular files"));
    }
    if !ft.is_file() {
        return Err(Fatal::usage(format!(
            "{shown}: is not a regular file ({})",
            crate::base::confine::file_kind(ft)
        ))
        .with_help("write the evidence to a regular file first; pipes and devices are not read"));
    }
    let file = File::open(path).map_err(|e| Fatal::usage(format!("{shown}: cannot open: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| Fatal::usage(format!("{shown}: cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(Fatal::usage(format!("{shown}: is not a regular file")));
    }
    if meta.len() > limit {
        return Err(too_large(path, limit));
    }
    Ok(file)
}

fn too_large(path: &Path, limit: u64) -> Fatal {
    Fatal::usage(format!(
        "{}: file is larger than {limit} bytes",
        path.display()
    ))
    .with_help("split the evidence into smaller runs; the scorer reads at most 50 MB per file")
}

/// A bounded line reader: yields one line at a time (line end and a trailing
/// CR removed), never holding more than one line of at most
/// [`MAX_LINE_BYTES`], and fails once the file grows past its byte limit.
/// It also hashes every byte it reads.
pub struct Lines<R> {
    inner: R,
    path: String,
    limit: u64,
    total: u64,
    line_no: usize,
    buf: Vec<u8>,
    hasher: Sha256,
}

impl<R: BufRead> Lines<R> {
    pub fn new(inner: R, path: &Path, limit: u64) -> Self {
        Lines {
            inner,
            path: path.display().to_string(),
            limit,
            total: 0,
            line_no: 0,
            buf: Vec::new(),
            hasher: Sha256::new(),
        }
    }

    /// The next line and its 1-based number, or `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<(usize, &str)>, Fatal> {
        self.buf.clear();
        let mut saw_any = false;
        loop {
            let avail = self
                .inner
                .fill_buf()
                .map_err(|e| Fatal::usage(format!("{}: cannot read: {e}", self.path)))?;
            if avail.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (chunk, used, done) = match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (&avail[..i], i + 1, true),
                None => (avail, avail.len(), false),
            };
            if self.buf.len() + chunk.len() > MAX_LINE_BYTES + 1 {
                return Err(Fatal::usage(format!(
                    "{}:{}: line is longer than {MAX_LINE_BYTES} bytes",
                    self.path,
                    self.line_no + 1
                ))
                .with_help(
                    "each observation must fit on one line of at most 4 MiB; truncate long outputs",
                ));
            }
            self.buf.extend_from_slice(chunk);
            self.hasher.update(&avail[..used]);
            self.inner.consume(used);
            self.total += used as u64;
            if self.total > self.limit {
                return Err(too_large(Path::new(&self.path), self.limit));
            }
            if done {
                break;
            }
        }
        self.line_no += 1;
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.buf.len() > MAX_LINE_BYTES {
            return Err(Fatal::usage(format!(
                "{}:{}: line is longer than {MAX_LINE_BYTES} bytes",
                self.path, self.line_no
            )));
        }
        let mut start = 0;
        if self.line_no == 1 && self.buf.starts_with(&[0xEF, 0xBB, 0xBF]) {
            start = 3;
        }
        match std::str::from_utf8(&self.buf[start..]) {
            Ok(s) => Ok(Some((self.line_no, s))),
            Err(e) => Err(Fatal::usage(format!(
                "{}:{}: invalid UTF-8 at byte {} of the line",
                self.path,
                self.line_no,
                start + e.valid_up_to() + 1
            ))
            .with_help("re-save the file as UTF-8")),
        }
    }

    /// SHA-256 (hex) of every byte read so far.
    pub fn sha256(self) -> String {
        hex(&self.hasher.finalize())
    }
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Open `path` and read it as bounded lines.
pub fn lines(path: &Path) -> Result<Lines<BufReader<File>>, Fatal> {
    let f = open_regular(path, MAX_FILE_BYTES)?;
    Ok(Lines::new(
        BufReader::with_capacity(64 * 1024, f),
        path,
        MAX_FILE_BYTES,
    ))
}

/// A serde_json error as `file:line:col: message`.
pub fn json_error(path: &Path, line: usize, e: &serde_json::Error) -> Fatal {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let msg = full.strip_suffix(&suffix).unwrap_or(&full);
    let col = if e.column() > 0 {
        format!(":{}", e.column())
    } else {
        String::new()
    };
    Fatal::usage(format!("{}:{line}{col}: {msg}", path.display()))
}

/// Which set a case belongs to: the case model's own type.
pub use crate::catalog::cases::Split;

/// A blocker or a quality expectation: the case model's own type.
pub use crate::catalog::cases::ExpectKind;

/// One expectation a case declares (its verdicts come with each
/// observation, in the same order).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    pub text: String,
    #[serde(default)]
    pub kind: ExpectKind,
    /// The deterministic check that judges it; absent: a grader does.
    #[serde(default)]
    pub check: Option<String>,
}

/// One line of cases.jsonl.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub id: String,
    pub prompt: String,
    pub expect_trigger: bool,
    pub task: Option<Check>,
    pub split: Option<Split>,
    /// The expectations each run is judged on, when the harness records
    /// them one by one.
    pub expectations: Vec<Expectation>,
    /// The skill whose prompt this is, for a should-not case that belongs
    /// to a sibling installed beside the tested skill (trigger theft).
    pub owner: Option<String>,
    /// 1-based line in cases.jsonl.
    pub line: usize,
    /// Observed in the `with` arm only (`"withOnly": true`: a trigger
    /// prompt, whose baseline says nothing the trigger statistics use).
    pub with_only: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseLine {
    id: String,
    prompt: String,
    #[serde(rename = "expectTrigger")]
    expect_trigger: bool,
    #[serde(default)]
    task: Option<TaskLine>,
    #[serde(default)]
    split: Option<Split>,
    #[serde(default)]
    expectations: Vec<Expectation>,
    #[serde(default)]
    owner: Option<String>,
    #[serde(default, rename = "withOnly")]
    with_only: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskLine {
    check: String,
    expected: Json,
}

/// Parse one line of cases.jsonl (already known to be non-blank).
pub fn parse_case(path: &Path, line: usize, text: &str) -> Result<Case, Fatal> {
    let c: CaseLine = serde_json::from_str(text).map_err(|e| {
        json_error(path, line, &e).with_help(
            r#"each line is {"id":"…","prompt":"…","expectTrigger":true|false,"task":{"check":"exit_code"|"includes_all"|"json_equals","expected":…}?,"split":"train"|"validation"|"fresh"?,"expectations":[{"text":"…","kind":"blocker"|"quality"}]?,"owner":"…"?,"withOnly":true?}"#,
        )
    })?;
    let at = format!("{}:{line}", path.display());
    if c.id.trim().is_empty() {
        return Err(Fatal::usage(format!("{at}: `id` is empty"))
            .with_help("give every case a unique, non-empty id"));
    }
    if c.prompt.trim().is_empty() {
        return Err(Fatal::usage(format!(
            "{at}: case `{}` has an empty prompt",
            c.id
        )));
    }
    if let Some(e) = c.expectations.iter().find(|e| e.text.trim().is_empty()) {
        return Err(Fatal::usage(format!(
            "{at}: case `{}` has an expectation without text{}",
            c.id,
            e.check
                .as_ref()
                .map(|k| format!(" (check `{k}`)"))
                .unwrap_or_default()
        ))
        .with_help("give every expectation the text reports show for it"));
    }
    if c.owner.is_some() && c.expect_trigger {
        return Err(Fatal::usage(format!(
            "{at}: case `{}` has an `owner` but expects the tested skill to load",
            c.id
        ))
        .with_help("`owner` names the sibling skill a should-not case belongs to; set \"expectTrigger\": false or drop it"));
    }
    if c.with_only && c.task.is_some() {
        return Err(Fatal::usage(format!(
            "{at}: case `{}` has a `task` but `withOnly`: a task is judged against the baseline arm",
            c.id
        ))
        .with_help("drop \"withOnly\" (and record its without observations) or drop the task"));
    }
    let task = match c.task {
        None => None,
        Some(t) => Some(
            Check::from_parts(&t.check, t.expected)
                .map_err(|m| Fatal::usage(format!("{at}: case `{}`: {m}", c.id)))?,
        ),
    };
    Ok(Case {
        id: c.id,
        prompt: c.prompt,
        expect_trigger: c.expect_trigger,
        task,
        split: c.split,
        expectations: c.expectations,
        owner: c.owner.filter(|o| !o.trim().is_empty()),
        line,
        with_only: c.with_only,
    })
}

/// Read every case of cases.jsonl; ids must be unique.
pub fn read_cases(path: &Path) -> Result<(Vec<Case>, String), Fatal> {
    let mut lines = lines(path)?;
    let mut cases: Vec<Case> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    while let Some((no, text)) = lines.next_line()? {
        if text.trim().is_empty() {
            continue;
        }
        let case = parse_case(path, no, text)?;
        if let Some(first) = seen.insert(case.id.clone(), no) {
            return Err(Fatal::usage(format!(
                "{}:{no}: duplicate case id `{}` (first on line {first})",
                path.display(),
                case.id
            ))
            .with_help("case ids must be unique; rename or remove one of the two lines"));
        }
        cases.push(case);
    }
    Ok((cases, lines.sha256()))
}

/// The two arms of a paired run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    With,
    Without,
}

impl Variant {
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::With => "with",
            Variant::Without => "without",
        }
    }

    /// The results folder name (skill-creator's `configuration`).
    pub fn dir(self) -> &'static str {
        match self {
            Variant::With => "with_skill",
            Variant::Without => "without_skill",
        }
    }
}

/// One line of observations.jsonl. Keys other than these are ignored, so a
/// harness may record more (durations, token counts).
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    pub case_id: String,
    pub trial: u64,
    pub variant: Variant,
    pub invoked_skills: Vec<String>,
    pub output: String,
    /// `None` when the run ended without an exit code (killed, timed out).
    pub exit_code: Option<i64>,
    /// The agent client that ran it, when the line says (`client`).
    pub client: Option<String>,
    /// Each expectation's verdict, when the harness records them.
    pub expectations: Option<Vec<Verdict>>,
}

/// One expectation's verdict in one run.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Verdict {
    pub passed: bool,
    /// What the run showed (the grader's or the check's words).
    #[serde(default)]
    pub evidence: String,
    /// The expectation's text, when the harness repeats it (it must then
    /// be the case's).
    #[serde(default)]
    pub text: Option<String>,
}

#[derive(Deserialize)]
struct ObservationLine {
    #[serde(default)]
    client: Option<String>,
    #[serde(rename = "caseId")]
    case_id: String,
    trial: u64,
    variant: Variant,
    #[serde(rename = "invokedSkills")]
    invoked_skills: Vec<String>,
    output: String,
    /// Required, but may be `null`.
    #[serde(rename = "exitCode")]
    exit_code: serde_json::Value,
    #[serde(default)]
    expectations: Option<Vec<Verdict>>,
}

/// Parse one line of observations.jsonl (already known to be non-blank).
pub fn parse_observation(path: &Path, line: usize, text: &str) -> Result<Observation, Fatal> {
    let o: ObservationLine = serde_json::from_str(text).map_err(|e| {
        json_error(path, line, &e).with_help(
            r#"each line is {"caseId":"…","trial":1,"variant":"with"|"without","invokedSkills":["…"],"output":"…","exitCode":0|null,"expectations":[{"passed":true,"evidence":"…"}]?}"#,
        )
    })?;
    let exit_code = match &o.exit_code {
        serde_json::Value::Null => None,
        serde_json::Value::Number(n) if n.as_i64().is_some() => n.as_i64(),
        other => {
            return Err(Fatal::usage(format!(
                "{}:{line}: `exitCode` must be an integer or null, not {other}",
                path.display()
            )));
        }
    };
    Ok(Observation {
        case_id: o.case_id,
        trial: o.trial,
        variant: o.variant,
        invoked_skills: o.invoked_skills,
        output: o.output,
        exit_code,
        client: o.client,
        expectations: o.expectations,
    })
}

/// Whether an `invokedSkills` entry names the skill `name`, directly or
/// namespaced by a plugin (`plugin:name`).
pub fn loads(entry: &str, name: &str) -> bool {
    entry == name || entry.rsplit_once(':').is_some_and(|(_, n)| n == name)
}

/// The key under which prompts count as the same case: Unicode NFC,
/// lowercased, runs of whitespace collapsed to one space, trimmed.
pub fn prompt_key(prompt: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let nfc: String = prompt.nfc().collect();
    nfc.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn all(input: &[u8]) -> Result<Vec<(usize, String)>, Fatal> {
        let mut l = Lines::new(Cursor::new(input.to_vec()), Path::new("f"), 1000);
        let mut v = Vec::new();
        while let Some((n, s)) = l.next_line()? {
            v.push((n, s.to_string()));
        }
        Ok(v)
    }

    #[test]
    fn lines_accept_lf_crlf_and_a_missing_final_newline() {
        let v = all(b"a\r\nb\n\nc").unwrap();
        assert_eq!(
            v,
            vec![
                (1, "a".into()),
                (2, "b".into()),
                (3, "".into()),
                (4, "c".into())
            ]
        );
    }

    #[test]
    fn lines_strip_a_leading_bom() {
        let v = all(b"\xEF\xBB\xBFx\n").unwrap();
        assert_eq!(v, vec![(1, "x".into())]);
    }

    #[test]
    fn lines_report_invalid_utf8_with_the_line() {
        let e = all(b"ok\n\xFF\n").unwrap_err();
        assert!(e.message.starts_with("f:2: invalid UTF-8"), "{}", e.message);
    }

    #[test]
    fn lines_refuse_a_file_that_grows_past_the_limit() {
        let big = vec![b'x'; 1001];
        let e = all(&big).unwrap_err();
        assert!(
            e.message.contains("larger than 1000 bytes"),
            "{}",
            e.message
        );
    }

    #[test]
    fn lines_hash_every_byte() {
        let mut l = Lines::new(Cursor::new(b"abc".to_vec()), Path::new("f"), 1000);
        while l.next_line().unwrap().is_some() {}
        assert_eq!(
            l.sha256(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn repeated_prompts_share_a_key() {
        assert_eq!(prompt_key("  Fix the\tBUG\n"), prompt_key("fix the bug"));
        assert_eq!(prompt_key("caf\u{e9}"), prompt_key("cafe\u{301}"));
        assert_ne!(prompt_key("fix the bug"), prompt_key("fix the bugs"));
    }

    #[test]
    fn plugin_namespaced_loads_count() {
        assert!(loads("refund-policy", "refund-policy"));
        assert!(loads("acme:refund-policy", "refund-policy"));
        assert!(!loads("refund-policy-v2", "refund-policy"));
        assert!(!loads("refund-policy:other", "refund-policy"));
    }
}
