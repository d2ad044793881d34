//! Splitting a SKILL.md into frontmatter and body, with byte offsets into
//! the original file.
//!
//! The text is prepared here rather than handed to a generic front-matter
//! splitter, because of that approach's known pitfalls: a UTF-8 byte order
//! mark hides the opening `---`; CRLF and lone CR line ends; a `---` line
//! inside a quoted multi-line value is text, not the closing delimiter.
//! The YAML itself is parsed by yaml-rust2
//! through [`super::yaml`], which keeps positions and bounds alias expansion.

use super::yaml::{self, Tree, YamlError, YamlErrorKind};

/// Most later `---` lines tried as the closing delimiter when the first
/// one falls inside a quoted value. Each try parses the YAML again, so
/// without a bound a file of many `---` lines inside an unterminated quote
/// costs time quadratic in its size (a 10 KB file took seconds). Past the
/// bound the first `---` closes the block and the unterminated quote is
/// reported.
pub const MAX_RETRIES: usize = 32;

/// Where the frontmatter sits in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// Byte offset of the opening `---`.
    pub open: usize,
    /// Byte range of the YAML text between the delimiters.
    pub yaml: std::ops::Range<usize>,
    /// Byte range of the closing `---` line (without its line break).
    pub close: std::ops::Range<usize>,
    /// Byte offset where the body starts.
    pub body: usize,
}

/// What went wrong while locating the frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// The file does not open with `---` at all.
    Missing,
    /// `---` appears, but not at the first byte (after an optional BOM).
    NotAtStart { at: usize },
    /// The opening line has text after `---`.
    BadOpening { at: usize },
    /// No closing `---` line.
    Unclosed { open: usize },
}

/// Lines of `text` from byte `from`: (start, end without break, next line
/// start). A line ends at `\n`, `\r\n` or a lone `\r`.
pub fn lines(text: &str, from: usize) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut pos = from;
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let start = pos;
        let mut i = memchr::memchr2(b'\n', b'\r', &bytes[pos..]).map_or(bytes.len(), |k| pos + k);
        let end = i;
        if i < bytes.len() {
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 2;
            } else {
                i += 1;
            }
        }
        pos = i;
        Some((start, end, i))
    })
}

/// Locate the frontmatter. `start` is 3 when the file began with a BOM,
/// else 0. When the YAML between the first and a later `---` line fails to
/// parse inside a quoted scalar, that `---` was text: the next one is tried
/// (at most [`MAX_RETRIES`] of them).
pub fn split(text: &str, start: usize) -> Result<(Split, Result<Tree, YamlError>), SplitError> {
    let mut it = lines(text, start);
    let Some((l0, e0, n0)) = it.next() else {
        return Err(SplitError::Missing);
    };
    let first = &text[l0..e0];
    if !first.starts_with("---") {
        // `---` after leading blank lines or spaces: a frontmatter block that
        // clients will not see.
        for (ls, le, _) in lines(text, start) {
            let line = &text[ls..le];
            if line.trim().is_empty() {
                continue;
            }
            if line.trim() == "---" {
                return Err(SplitError::NotAtStart {
                    at: ls + line.find('-').unwrap_or(0),
                });
            }
            break;
        }
        return Err(SplitError::Missing);
    }
    if first.trim_end_matches([' ', '\t']) != "---" {
        return Err(SplitError::BadOpening { at: l0 + 3 });
    }
    // Only the first closing line is needed unless the YAML turns out to
    // run on inside a quoted value: the rest of a long file is not scanned.
    let mut closing = lines(text, n0).filter(|&(s, e, _)| &text[s..e] == "---");
    let Some((cs, ce, cn)) = closing.next() else {
        return Err(SplitError::Unclosed { open: l0 });
    };
    let mut chosen = (cs, ce, cn);
    let mut parsed = yaml::parse(&text[n0..cs]);
    if matches!(&parsed, Err(e) if e.kind == YamlErrorKind::UnterminatedQuote) {
        let candidates: Vec<(usize, usize, usize)> =
            std::iter::once((cs, ce, cn)).chain(closing).collect();
        // The first `---` may sit inside a quoted multi-line value. YAML
        // forbids a document marker there, so each earlier `---` line is
        // indented by one space (folding gives the same text) and offsets
        // are mapped back afterwards.
        // Bounded: a hostile file with thousands of `---` lines must not
        // cost thousands of parses.
        for (i, &(s, e, n)) in candidates.iter().enumerate().skip(1).take(MAX_RETRIES) {
            let inner: Vec<usize> = candidates[..i].iter().map(|c| c.0 - n0).collect();
            let retry = parse_indented(&text[n0..s], &inner);
            if retry.is_ok() {
                chosen = (s, e, n);
                parsed = retry;
                break;
            }
        }
    }
    let (cs, ce, cn) = chosen;
    Ok((
        Split {
            open: l0,
            yaml: n0..cs,
            close: cs..ce,
            body: cn,
        },
        parsed,
    ))
}

/// Parse `yaml` with a space inserted at each of `at` (sorted byte
/// offsets), mapping every offset in the result back to `yaml`.
fn parse_indented(yaml: &str, at: &[usize]) -> Result<Tree, YamlError> {
    let mut prepared = String::with_capacity(yaml.len() + at.len());
    let mut last = 0;
    for &a in at {
        prepared.push_str(&yaml[last..a]);
        prepared.push(' ');
        last = a;
    }
    prepared.push_str(&yaml[last..]);
    // offset in `prepared` -> offset in `yaml`
    let back = |off: usize| -> usize {
        let mut shift = 0;
        for (k, &a) in at.iter().enumerate() {
            if off > a + k {
                shift += 1;
            }
        }
        off - shift
    };
    fn remap(node: &mut yaml::Node, back: &dyn Fn(usize) -> usize) {
        node.start = back(node.start);
        node.end = back(node.end);
        match &mut node.kind {
            yaml::Kind::Scalar { .. } => {}
            yaml::Kind::Seq(items) => items.iter_mut().for_each(|n| remap(n, back)),
            yaml::Kind::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
                remap(k, back);
                remap(v, back);
            }),
        }
    }
    match yaml::parse(&prepared) {
        Ok(mut tree) => {
            if let Some(root) = &mut tree.root {
                remap(root, &back);
            }
            for d in &mut tree.duplicates {
                d.first = back(d.first);
                d.second = back(d.second);
            }
            Ok(tree)
        }
        Err(mut e) => {
            e.offset = back(e.offset);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lf_crlf_and_cr_all_split() {
        for nl in ["\n", "\r\n", "\r"] {
            let t = format!("---{nl}name: a{nl}---{nl}body{nl}");
            let (s, tree) = split(&t, 0).unwrap();
            assert_eq!(&t[s.yaml.clone()], format!("name: a{nl}"));
            assert_eq!(&t[s.body..], format!("body{nl}"));
            assert!(tree.is_ok());
        }
    }

    #[test]
    fn dashes_inside_a_quoted_value_are_text() {
        let t = "---\ndescription: \"one\n---\n  two\"\nname: a\n---\nbody\n";
        let (s, tree) = split(t, 0).unwrap();
        assert_eq!(&t[s.body..], "body\n");
        let root = tree.unwrap().root.unwrap();
        assert_eq!(root.as_map().unwrap()[0].1.as_str(), Some("one --- two"));
    }

    #[test]
    fn many_dashes_inside_an_unterminated_quote_are_bounded() {
        // Each `---` line used to cost one more parse of the whole block.
        let t = format!("---\ndescription: \"{}", "x\n---\n".repeat(5000));
        let (s, tree) = split(&t, 0).unwrap();
        assert_eq!(s.yaml, 4..t.find("\n---\n").unwrap() + 1);
        assert_eq!(tree.unwrap_err().kind, YamlErrorKind::UnterminatedQuote);
    }

    #[test]
    fn a_quoted_value_may_hold_several_dash_lines() {
        let inner = "\n---\n ".repeat(MAX_RETRIES);
        let t = format!("---\ndescription: \"a{inner}b\"\nname: a\n---\nbody\n");
        let (s, tree) = split(&t, 0).unwrap();
        assert_eq!(&t[s.body..], "body\n");
        assert!(tree.is_ok());
        // One more and the closing line is past the bound: the first `---`
        // closes the block and the quote is reported unterminated.
        let inner = "\n---\n ".repeat(MAX_RETRIES + 1);
        let t = format!("---\ndescription: \"a{inner}b\"\nname: a\n---\nbody\n");
        let (s, tree) = split(&t, 0).unwrap();
        assert_eq!(s.yaml, 4..t.find("\n---\n").unwrap() + 1);
        assert_eq!(tree.unwrap_err().kind, YamlErrorKind::UnterminatedQuote);
    }

    #[test]
    fn unclosed_block() {
        assert_eq!(
            split("---\nname: a\n", 0).unwrap_err(),
            SplitError::Unclosed { open: 0 }
        );
    }

    #[test]
    fn frontmatter_after_blank_line_is_not_at_start() {
        assert_eq!(
            split("\n---\nname: a\n---\n", 0).unwrap_err(),
            SplitError::NotAtStart { at: 1 }
        );
        assert_eq!(split("# Title\n", 0).unwrap_err(), SplitError::Missing);
    }

    #[test]
    fn bom_offset_is_respected() {
        let t = "\u{feff}---\nname: a\n---\n";
        let (s, _) = split(t, 3).unwrap();
        assert_eq!(s.open, 3);
    }

    #[test]
    fn text_after_opening_dashes() {
        assert_eq!(
            split("--- yaml\nname: a\n---\n", 0).unwrap_err(),
            SplitError::BadOpening { at: 3 }
        );
    }
}
