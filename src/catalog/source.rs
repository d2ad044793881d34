//! Loaded file text, kept once so reporters can show source lines without
//! re-reading anything.

use crate::diag::{LineIndex, Span};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One file's text (lossily decoded when it was not valid UTF-8) and its
/// line index. Byte offsets in spans refer to this text.
#[derive(Debug)]
pub struct Source {
    pub text: String,
    pub index: LineIndex,
}

impl Source {
    pub fn new(text: String) -> Arc<Source> {
        let index = LineIndex::new(&text);
        Arc::new(Source { text, index })
    }

    pub fn span(&self, start: usize, end: usize) -> Span {
        self.index.span(&self.text, start, end)
    }

    /// A span covering the whole of 1-based `line` (without its break).
    pub fn line_span(&self, line: u32) -> Span {
        let start = self.index.line_start(line);
        let len = self.index.line_text(&self.text, line).len();
        self.span(start, start + len)
    }
}

/// Every loaded file, keyed by its path relative to the catalog root.
pub type SourceMap = BTreeMap<String, Arc<Source>>;
