//! The one diagnostic type every tier produces and every reporter renders.
//!
//! Checks never print: they return [`Diagnostic`]s. A diagnostic names its
//! rule, its severity, the file (relative to the catalog root) and, where the
//! problem has a place, a [`Span`] with byte offsets plus 1-based line and
//! column (columns count Unicode scalar values).

use serde::Serialize;
use std::fmt;

/// How bad a finding is. Ordered: `Error` sorts first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Notice,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Notice => "notice",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "error" => Some(Severity::Error),
            "warning" | "warn" => Some(Severity::Warning),
            "notice" | "note" | "info" => Some(Severity::Notice),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A place in a file: byte range plus 1-based line/column of both ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Span {
    /// Byte offset of the first byte, in the original file.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
    pub line: u32,
    pub col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable rule id, e.g. `SG101`.
    pub rule: &'static str,
    pub severity: Severity,
    /// Path relative to the catalog root, with `/` separators.
    pub file: String,
    pub span: Option<Span>,
    /// What is wrong, one lowercase sentence.
    pub message: String,
    /// Short text shown under the span.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The edit that repairs it, when one correct edit exists
    /// (`skillsift check --fix`).
    /// Boxed: few findings have one, and every finding pays for the
    /// field (264 bytes a finding unboxed, 168 boxed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Box<Fix>>,
    /// The other places of one finding that stands for many (a custom key
    /// written in 978 skills is one finding): SARIF `relatedLocations`,
    /// `related` in JSON.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
}

/// Another place of the same finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    /// Path relative to the catalog root.
    pub file: String,
    pub span: Option<Span>,
}

/// Whether a fix may be applied without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps what every client lists, except the repair the finding names:
    /// applied by `--fix`.
    Safe,
    /// Changes wording or meaning: applied only with `--unsafe-fixes`.
    Unsafe,
}

/// One replacement in the original file: bytes `start..end` become
/// `replacement`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

/// What the clients read once a fix is applied: the repair the finding
/// names. `None` fields must read as before.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Repair {
    /// The frontmatter `name` the fix makes the clients read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The description the fix makes the clients read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A machine-applicable repair of one finding.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the fix does, imperative ("quote the value").
    pub description: String,
    /// Non-overlapping edits in one file, in byte order.
    pub edits: Vec<Edit>,
    /// What the listings may change to; empty: nothing a client lists may
    /// change.
    #[serde(skip_serializing_if = "Repair::is_empty")]
    pub repair: Repair,
}

impl Repair {
    pub fn is_empty(&self) -> bool {
        self.name.is_none() && self.description.is_none()
    }
}

impl Fix {
    /// A fix of one edit.
    pub fn new(
        applicability: Applicability,
        description: impl Into<String>,
        start: usize,
        end: usize,
        replacement: impl Into<String>,
    ) -> Fix {
        Fix {
            applicability,
            description: description.into(),
            edits: vec![Edit {
                start,
                end,
                replacement: replacement.into(),
            }],
            repair: Repair::default(),
        }
    }

    /// The same fix, allowed to make the clients read `description`.
    pub fn repairing_description(mut self, description: impl Into<String>) -> Fix {
        self.repair.description = Some(description.into());
        self
    }

    /// The same fix, allowed to make the clients read `name`.
    pub fn repairing_name(mut self, name: impl Into<String>) -> Fix {
        self.repair.name = Some(name.into());
        self
    }
}

/// `text` holding no spare capacity: `format!` sizes its buffer from the
/// literal parts, up to twice the text, and a check may hold 150,000
/// findings until it ends.
fn exact(mut text: String) -> String {
    text.shrink_to_fit();
    text
}

impl Diagnostic {
    pub fn new(
        rule: &'static str,
        severity: Severity,
        file: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            rule,
            severity,
            file: exact(file.into()),
            span: None,
            message: exact(message.into()),
            label: None,
            help: None,
            fix: None,
            related: Vec::new(),
        }
    }

    /// Attach the fix that repairs this finding.
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(Box::new(fix));
        self
    }

    pub fn with_span(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    pub fn with_span_opt(mut self, span: Option<Span>) -> Self {
        self.span = span;
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(exact(label.into()));
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(exact(help.into()));
        self
    }

    /// The canonical order of diagnostics in every output: file, position,
    /// rule id, message.
    pub fn sort_key(&self) -> (&str, u32, u32, &str, &str) {
        let (line, col) = self.span.map(|s| (s.line, s.col)).unwrap_or((0, 0));
        (&self.file, line, col, self.rule, &self.message)
    }
}

/// Sort diagnostics into their canonical, deterministic order and drop exact
/// duplicates.
pub fn sort_diagnostics(diags: &mut Vec<Diagnostic>) {
    // a stable sort on every core: the same order as one thread's
    use rayon::slice::ParallelSliceMut;
    diags.par_sort_by(|a, b| {
        a.sort_key()
            .cmp(&b.sort_key())
            .then(a.severity.cmp(&b.severity))
    });
    diags.dedup();
}

/// Maps byte offsets of one text to 1-based line and column numbers.
///
/// Lines end at `\n`, `\r\n` or a lone `\r`; columns count Unicode scalar
/// values from the start of the line. A column costs no recount of the
/// line: an ASCII text's column is its byte distance from the line start,
/// and any other text keeps a count of scalar values per 256-byte block,
/// so a lookup reads at most two blocks however long the line is (a case
/// file of 4 MiB on one line stays linear).
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset where each line starts.
    starts: Vec<usize>,
    /// Empty for an ASCII text; otherwise `blocks[k]` is the number of
    /// scalar values that start in bytes `0..k * BLOCK`.
    blocks: Vec<usize>,
}

/// Bytes per block of [`LineIndex::blocks`].
const BLOCK: usize = 256;

/// Bytes of `bytes` that start a scalar value (not UTF-8 continuation bytes).
fn scalar_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

fn column_blocks(text: &str) -> Vec<usize> {
    if text.is_ascii() {
        return Vec::new();
    }
    let mut blocks = Vec::with_capacity(text.len() / BLOCK + 1);
    let mut total = 0;
    blocks.push(0);
    for chunk in text.as_bytes().chunks(BLOCK) {
        total += scalar_starts(chunk);
        blocks.push(total);
    }
    blocks
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        if memchr::memchr(b'\r', text.as_bytes()).is_none() {
            // LF only (most files): a vectorised search for each `\n`.
            starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
            starts.shrink_to_fit();
            let blocks = column_blocks(text);
            return LineIndex { starts, blocks };
        }
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' => {
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    starts.push(i + 1);
                }
                _ => {}
            }
            i += 1;
        }
        starts.shrink_to_fit();
        let blocks = column_blocks(text);
        LineIndex { starts, blocks }
    }

    /// Scalar values that start in `text[..offset]`.
    fn scalars_before(&self, text: &str, offset: usize) -> usize {
        if self.blocks.is_empty() {
            return offset;
        }
        let k = offset / BLOCK;
        self.blocks[k] + scalar_starts(&text.as_bytes()[k * BLOCK..offset])
    }

    /// Number of lines (a trailing line break does not open a new line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Byte offset where 1-based `line` starts.
    pub fn line_start(&self, line: u32) -> usize {
        let idx = (line.max(1) as usize - 1).min(self.starts.len() - 1);
        self.starts[idx]
    }

    /// 1-based line of a byte offset (past the end: the last line).
    pub fn line_of(&self, offset: usize) -> u32 {
        self.starts.partition_point(|&s| s <= offset).max(1) as u32
    }

    /// 1-based line and column of a byte offset. Offsets inside a UTF-8
    /// sequence or past the end are clamped.
    pub fn line_col(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let col = self.scalars_before(text, offset) - self.scalars_before(text, start) + 1;
        (line as u32, col as u32)
    }

    /// A [`Span`] over `start..end` of `text`.
    pub fn span(&self, text: &str, start: usize, end: usize) -> Span {
        let end = end.max(start);
        let (line, col) = self.line_col(text, start);
        let (end_line, end_col) = self.line_col(text, end);
        Span {
            start,
            end,
            line,
            col,
            end_line,
            end_col,
        }
    }

    /// The text of 1-based `line` without its line break.
    pub fn line_text<'a>(&self, text: &'a str, line: u32) -> &'a str {
        let idx = line.max(1) as usize - 1;
        if idx >= self.starts.len() {
            return "";
        }
        let start = self.starts[idx];
        let end = self.starts.get(idx + 1).copied().unwrap_or(text.len());
        text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// The largest char boundary at or below `i`.
pub fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    #[test]
    fn indexed_columns_equal_a_recount_at_every_offset() {
        let long: String = "ab\u{e9}\u{1F600}c".repeat(300);
        for text in [
            "plain ascii\nsecond line\r\nthird\rfourth".to_string(),
            format!("{long}\n{long}\r\n\u{e9}{long}"),
            "\u{e9}".repeat(1000),
        ] {
            let idx = LineIndex::new(&text);
            for offset in 0..=text.len() {
                if !text.is_char_boundary(offset) {
                    continue;
                }
                let line = idx.starts.partition_point(|&s| s <= offset).max(1);
                let start = idx.starts[line - 1];
                let want = text[start..offset].chars().count() as u32 + 1;
                assert_eq!(idx.line_col(&text, offset), (line as u32, want), "{offset}");
            }
        }
    }

    use super::*;

    #[test]
    fn line_col_handles_lf_crlf_and_lone_cr() {
        let text = "ab\r\ncd\ref\ngh";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.line_col(text, 0), (1, 1));
        assert_eq!(idx.line_col(text, 4), (2, 1));
        assert_eq!(idx.line_col(text, 7), (3, 1));
        assert_eq!(idx.line_col(text, 11), (4, 2));
        assert_eq!(idx.line_text(text, 2), "cd");
    }

    #[test]
    fn columns_count_scalar_values() {
        let text = "é: x";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 2), (1, 2));
        // an offset inside a multi-byte char is clamped down
        assert_eq!(idx.line_col(text, 1), (1, 1));
    }
}
