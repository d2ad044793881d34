//! The little Markdown the conventions need: lines, fenced code blocks
//! (CommonMark rules) and ATX headings outside them.
//!
//! Fences follow CommonMark: an opening fence is at most three spaces of
//! indentation then at least three backticks or tildes (a backtick fence's
//! info string may not contain a backtick); it closes only on a line of the
//! same character, at least as long, indented at most three spaces, followed
//! by nothing but spaces or tabs. An unclosed fence runs to the end.

use crate::diag::LineIndex;

/// One line of the body.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    /// Byte offset of the line in the file.
    pub start: usize,
    /// The line without its line break.
    pub text: &'a str,
    /// 1-based line number in the file.
    pub number: u32,
    /// Inside a fenced code block, or one of its fence lines.
    pub fenced: bool,
    /// Index of the fenced block this line belongs to.
    pub fence: Option<usize>,
}

/// An ATX heading outside fenced code.
#[derive(Debug, Clone, Copy)]
pub struct Heading<'a> {
    /// 1 to 6.
    pub level: u8,
    /// The heading text, trimmed, closing `#`s removed.
    pub text: &'a str,
    /// Index of its line in the body (see [`Body::line`]).
    pub line: usize,
    /// Byte offset of the text in the file.
    pub text_start: usize,
}

/// A fenced code block.
#[derive(Debug, Clone, Copy)]
pub struct Fence {
    /// Index of the opening line.
    pub open: usize,
    /// Index of the closing line; `None` when it runs to the end.
    pub close: Option<usize>,
}

impl Fence {
    /// Line indices of the block's content.
    pub fn content(&self, line_count: usize) -> std::ops::Range<usize> {
        self.open + 1..self.close.unwrap_or(line_count)
    }
}

/// The file's line index, borrowed from its [`crate::catalog::Source`] or
/// built for a text of its own.
#[derive(Debug)]
enum Index<'a> {
    Borrowed(&'a LineIndex),
    Owned(Box<LineIndex>),
}

/// The analysed body: its fences and headings, found in one pass; lines are
/// read on demand from the file's line index.
#[derive(Debug)]
pub struct Body<'a> {
    text: &'a str,
    index: Index<'a>,
    /// File line number of the body's first line.
    first: u32,
    /// Number of lines in the body.
    len: usize,
    pub headings: Vec<Heading<'a>>,
    /// In order of their opening lines.
    pub fences: Vec<Fence>,
}

/// Split `text[from..]` into lines: (start, end without break).
pub fn split_lines(text: &str, from: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    crate::catalog::frontmatter::lines(text, from).map(|(start, end, _)| (start, end))
}

/// Leading spaces (not tabs) of a line.
fn indent(line: &str) -> usize {
    line.bytes().take_while(|&b| b == b' ').count()
}

/// `(char, run length, rest after the run)` when `line` opens or could
/// close a fence (at most three spaces of indentation, a run of three or
/// more backticks or tildes).
fn fence_run(line: &str) -> Option<(u8, usize, &str)> {
    let ind = indent(line);
    if ind > 3 {
        return None;
    }
    let rest = &line[ind..];
    let c = *rest.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = rest.bytes().take_while(|&b| b == c).count();
    (n >= 3).then(|| (c, n, &rest[n..]))
}

/// An ATX heading: `(level, text, byte offset of text within line)`.
pub fn atx_heading(line: &str) -> Option<(u8, &str, usize)> {
    let ind = indent(line);
    if ind > 3 {
        return None;
    }
    let rest = &line[ind..];
    let level = rest.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let after = &rest[level..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let lead = after.len() - after.trim_start().len();
    let mut text = after.trim();
    // closing sequence: spaces then only `#`s
    let stripped = text.trim_end_matches('#');
    if stripped.len() < text.len() && (stripped.is_empty() || stripped.ends_with([' ', '\t'])) {
        text = stripped.trim_end();
    }
    Some((level as u8, text, ind + level + lead))
}

impl<'a> Body<'a> {
    /// Analyse `text[start..]` (`start` is a line start), splitting lines
    /// with a fresh line index.
    pub fn parse(text: &'a str, start: usize) -> Body<'a> {
        Self::analyse(text, Index::Owned(Box::new(LineIndex::new(text))), start)
    }

    /// Analyse `text[start..]` with the file's line index (no second scan
    /// for line breaks).
    pub fn from_index(text: &'a str, index: &'a LineIndex, start: usize) -> Body<'a> {
        Self::analyse(text, Index::Borrowed(index), start)
    }

    fn idx(&self) -> &LineIndex {
        match &self.index {
            Index::Borrowed(i) => i,
            Index::Owned(i) => i,
        }
    }

    fn analyse(text: &'a str, index: Index<'a>, start: usize) -> Body<'a> {
        let idx: &LineIndex = match &index {
            Index::Borrowed(i) => i,
            Index::Owned(i) => i,
        };
        let first = if start < text.len() {
            idx.line_col(text, start).0
        } else {
            idx.line_count() as u32 + 1
        };
        let last = idx.line_count() as u32;
        let mut headings = Vec::new();
        let mut fences: Vec<Fence> = Vec::new();
        let mut open: Option<(u8, usize)> = None; // char, run length
        let mut len = 0;
        let bytes = text.as_bytes();
        for number in first..=last {
            let s = idx.line_start(number).max(start);
            if s >= text.len() {
                break;
            }
            let i = len;
            len += 1;
            // Only a line whose first non-space byte (within the first four)
            // is a backtick, a tilde or a hash can be a fence or a heading.
            let lead = bytes[s..].iter().take(4).find(|&&b| b != b' ');
            if !matches!(lead, Some(b'`' | b'~' | b'#')) {
                continue;
            }
            let line = idx.line_text(text, number);
            if let Some((c, n)) = open {
                let closes = fence_run(line)
                    .is_some_and(|(c2, n2, rest)| c2 == c && n2 >= n && rest.trim().is_empty());
                if closes {
                    if let Some(f) = fences.last_mut() {
                        f.close = Some(i);
                    }
                    open = None;
                }
                continue;
            }
            if let Some((c, n, info)) = fence_run(line)
                && !(c == b'`' && info.contains('`'))
            {
                fences.push(Fence {
                    open: i,
                    close: None,
                });
                open = Some((c, n));
                continue;
            }
            if let Some((level, htext, off)) = atx_heading(line) {
                headings.push(Heading {
                    level,
                    text: htext,
                    line: i,
                    text_start: s + off,
                });
            }
        }
        Body {
            text,
            index,
            first,
            len,
            headings,
            fences,
        }
    }

    /// The body's lines (0-based, ascending, each once) whose text holds
    /// `needle` (which holds no line break): one vectorised search of the
    /// body instead of one per line.
    pub fn lines_holding(&self, needle: &[u8]) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        if self.len == 0 || needle.is_empty() {
            return out;
        }
        let idx = self.idx();
        let from = idx.line_start(self.first);
        let Some(body) = self.text.as_bytes().get(from..) else {
            return out;
        };
        for at in memchr::memmem::find_iter(body, needle) {
            let i = (idx.line_of(from + at) - self.first) as usize;
            if i < self.len && out.last() != Some(&i) {
                out.push(i);
            }
        }
        out
    }

    /// Number of lines in the body.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The fenced block line `i` belongs to (its fence lines included).
    fn fence_of(&self, i: usize) -> Option<usize> {
        let f = self
            .fences
            .partition_point(|f| f.open <= i)
            .checked_sub(1)?;
        let fence = &self.fences[f];
        (fence.close.is_none_or(|c| i <= c)).then_some(f)
    }

    /// Line `i` of the body (0-based); `None` past the end.
    pub fn line(&self, i: usize) -> Option<Line<'a>> {
        if i >= self.len {
            return None;
        }
        let number = self.first + i as u32;
        let idx = self.idx();
        let start = idx.line_start(number);
        let text: &'a str = self.text;
        let line = idx.line_text(text, number);
        let fence = self.fence_of(i);
        Some(Line {
            start,
            text: line,
            number,
            fenced: fence.is_some(),
            fence,
        })
    }

    /// Lines `range` of the body.
    pub fn lines(&self, range: std::ops::Range<usize>) -> Vec<Line<'a>> {
        range.filter_map(|i| self.line(i)).collect()
    }

    /// The index of 1-based file line `n` in the body (0 for a line
    /// before it): [`Body::line_at`] of the line's start, without the
    /// lookup.
    pub fn index_of_line(&self, n: u32) -> usize {
        n.saturating_sub(self.first) as usize
    }

    /// Index of the body line holding file byte `offset`.
    pub fn line_at(&self, offset: usize) -> usize {
        let (n, _) = self.idx().line_col(self.text, offset);
        n.saturating_sub(self.first) as usize
    }

    /// Headings of `level` exactly, in order.
    pub fn headings_at(&self, level: u8) -> impl Iterator<Item = &Heading<'a>> {
        self.headings.iter().filter(move |h| h.level == level)
    }

    /// Sections opened by level-2 headings: `(heading index, end line
    /// index)`, where a section ends at the next heading of level 1 or 2.
    pub fn sections(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, h) in self.headings.iter().enumerate() {
            if h.level != 2 {
                continue;
            }
            let end = self.headings[i + 1..]
                .iter()
                .find(|n| n.level <= 2)
                .map(|n| n.line)
                .unwrap_or(self.len);
            out.push((i, end));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heads(t: &str) -> Vec<(u8, String)> {
        Body::parse(t, 0)
            .headings
            .iter()
            .map(|h| (h.level, h.text.to_string()))
            .collect()
    }

    #[test]
    fn headings_inside_backtick_and_tilde_fences_are_code() {
        let t = "## A\n```md\n## B\n```\n~~~\n## C\n~~~\n## D\n";
        assert_eq!(heads(t), vec![(2, "A".into()), (2, "D".into())]);
    }

    #[test]
    fn a_fence_closes_only_with_the_same_char_at_least_as_long() {
        let t = "````\n```\n## in\n~~~~\n## still\n`````\n## out\n";
        assert_eq!(heads(t), vec![(2, "out".into())]);
    }

    #[test]
    fn fences_indented_four_spaces_are_not_fences() {
        let t = "    ```\n## out\n   ```\n## in\n";
        assert_eq!(heads(t), vec![(2, "out".into())]);
    }

    #[test]
    fn backtick_info_string_with_backtick_is_not_a_fence() {
        let t = "```js``` inline\n## out\n";
        assert_eq!(heads(t), vec![(2, "out".into())]);
    }

    #[test]
    fn unclosed_fence_runs_to_the_end() {
        let t = "```\n## in\n";
        assert!(heads(t).is_empty());
        let b = Body::parse(t, 0);
        assert_eq!(b.fences[0].close, None);
    }

    #[test]
    fn closing_hashes_and_spacing_are_trimmed() {
        assert_eq!(
            heads("##   Verification  ##\n"),
            vec![(2, "Verification".into())]
        );
        assert_eq!(heads("##Verification\n"), vec![]);
        assert_eq!(heads("## C#\n"), vec![(2, "C#".into())]);
    }

    #[test]
    fn line_numbers_and_offsets_follow_the_file() {
        let t = "---\nname: a\n---\n# T\r\n\r\n## S\n";
        let b = Body::parse(t, 16);
        assert_eq!(b.line(2).unwrap().number, 6);
        assert_eq!(b.line(1).unwrap().text, "");
        assert_eq!(b.line(2).unwrap().text, "## S");
        assert!(b.line(3).is_none());
        assert_eq!(b.len(), 3);
        assert_eq!(&t[b.headings[1].text_start..][..1], "S");
    }
}
