//! Loaded file text, kept once so reporters can show source lines without
//! re-reading anything.

use base::diag::{LineIndex, Span};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One file's text (lossily decoded when it was not valid UTF-8) and its
/// line index. Byte offsets in spans refer to this text.
///
/// The text is held with every secret masked ([`crate::secrets`]): the
/// one copy of the file every tier, command and renderer reads.
#[derive(Debug)]
pub struct Source {
    pub text: String,
    pub index: LineIndex,
    /// The secrets found in the file as read, masked in `text` (SG704
    /// reports them).
    pub secrets: Vec<crate::secrets::Found>,
}

impl Source {
    /// The file's text, with every secret in it masked.
    pub fn new(mut text: String) -> Arc<Source> {
        let secrets = crate::secrets::find(&text);
        crate::secrets::remember(&text, &secrets);
        crate::secrets::mask_in_place(&mut text, &secrets);
        let index = LineIndex::new(&text);
        Arc::new(Source {
            text,
            index,
            secrets,
        })
    }

    /// The first `end` bytes of this source (a line boundary), with the
    /// secrets found there.
    pub fn prefix(&self, end: usize) -> Arc<Source> {
        let text = self.text[..end].to_string();
        let index = LineIndex::new(&text);
        let secrets = self
            .secrets
            .iter()
            .filter(|f| f.start < end)
            .map(|f| crate::secrets::Found {
                end: f.end.min(end),
                masked_from: f.masked_from.min(end),
                ..f.clone()
            })
            .collect();
        Arc::new(Source {
            text,
            index,
            secrets,
        })
    }

    /// Decode bytes as UTF-8, lossily: the text, and where the first
    /// invalid sequence is (the span of its U+FFFD in the text), if any.
    pub fn decode(bytes: Vec<u8>) -> (Arc<Source>, Option<std::ops::Range<usize>>) {
        match String::from_utf8(bytes) {
            Ok(text) => (Source::new(text), None),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                // the lossy text holds U+FFFD (3 bytes) where the bad byte was
                let end = at + text[at..].chars().next().map_or(0, char::len_utf8);
                (Source::new(text), Some(at..end))
            }
        }
    }

    pub fn span(&self, start: usize, end: usize) -> Span {
        self.index.span(&self.text, start, end)
    }

    /// What a finding's fingerprint reads of the line `span` starts on:
    /// the line, trimmed; on a line longer than [`LONG_LINE`] bytes (a
    /// case file written on one line, a minified bundle) only the span's
    /// own text, at most [`LONG_LINE`] bytes of it, so that 40,000
    /// findings on one 2 MB line do not hash the line 40,000 times.
    pub fn fingerprint_text(&self, span: &Span) -> &str {
        let line = self.index.line_text(&self.text, span.line);
        if line.len() <= LONG_LINE {
            return line.trim();
        }
        let start = base::diag::floor_char_boundary(&self.text, span.start.min(self.text.len()));
        let end = span
            .end
            .clamp(start, self.text.len())
            .min(start + LONG_LINE);
        let end = base::diag::floor_char_boundary(&self.text, end);
        self.text[start..end].trim()
    }

    /// A span covering the whole of 1-based `line` (without its break).
    pub fn line_span(&self, line: u32) -> Span {
        let start = self.index.line_start(line);
        let len = self.index.line_text(&self.text, line).len();
        self.span(start, start + len)
    }
}

/// Longest line, in bytes, a fingerprint reads whole
/// ([`Source::fingerprint_text`]).
pub const LONG_LINE: usize = 4096;

/// Every loaded file, keyed by its path relative to the catalog root.
pub type SourceMap = BTreeMap<String, Arc<Source>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprint_reads_a_short_line_whole_and_a_long_one_at_the_span() {
        let src = Source::new("  short line here  \nnext\n".to_string());
        let s = src.span(4, 8);
        assert_eq!(src.fingerprint_text(&s), "short line here");
        let long = format!("[{}\"the prompt\"{}]", "x".repeat(5000), "y".repeat(5000));
        let src = Source::new(long.clone());
        let at = long.find("\"the").unwrap();
        let s = src.span(at, at + "\"the prompt\"".len());
        assert_eq!(src.fingerprint_text(&s), "\"the prompt\"");
        // an endless span is cut at LONG_LINE bytes
        let s = src.span(0, long.len());
        assert_eq!(src.fingerprint_text(&s).len(), LONG_LINE);
    }
}
