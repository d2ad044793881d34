//! Shared pieces of the frontmatter fixes (`skillsift check --fix`): where
//! a line's plain value is, and how to write it quoted. A rule attaches a
//! fix with one call (`.with_fix(Fix::new(…))`, see [`crate::diag::Fix`]);
//! these helpers only find the bytes to edit.

/// Byte range of the line holding `at`, without its line break.
pub fn line_bounds(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let ls = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let le = text[at..].find(['\n', '\r']).map_or(text.len(), |i| at + i);
    (ls, le)
}

/// The start of the line after the one ending at `le` (past its break).
pub fn next_line(text: &str, le: usize) -> usize {
    let b = text.as_bytes();
    match (b.get(le), b.get(le + 1)) {
        (Some(b'\r'), Some(b'\n')) => le + 2,
        (Some(_), _) => le + 1,
        (None, _) => le,
    }
}

/// A `key: value` line whose value is a plain scalar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainValue {
    pub key: String,
    /// Spaces before the key.
    pub indent: usize,
    /// Byte range of the value (trailing spaces excluded).
    pub start: usize,
    pub end: usize,
}

/// The plain value of the `key: value` line `ls..le` of `text`, when the
/// value is a single-line plain scalar (not quoted, not a block scalar, no
/// flow collection, alias, tag or anchor), and the frontmatter (ending at
/// `yaml_end`) does not continue it on the next line.
pub fn plain_value(text: &str, ls: usize, le: usize, yaml_end: usize) -> Option<PlainValue> {
    let line = &text[ls..le];
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    let rest = &line[indent..];
    let k = rest.find(": ")?;
    let key = &rest[..k];
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return None;
    }
    let after = k + 2;
    let lead = rest[after..].bytes().take_while(|&b| b == b' ').count();
    let start = ls + indent + after + lead;
    let value = text[start..le].trim_end_matches([' ', '\t']);
    let first = value.bytes().next()?;
    if b"\"'|>[{&*!%@`#".contains(&first) || value.starts_with("- ") {
        return None;
    }
    // a continuation line (more indented, not blank) makes it multi-line
    let next = next_line(text, le);
    if next < yaml_end.min(text.len()) {
        let (_, ne) = line_bounds(text, next);
        let nl = &text[next..ne];
        let ni = nl.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        if ni > indent && !nl.trim().is_empty() {
            return None;
        }
    }
    Some(PlainValue {
        key: key.to_string(),
        indent,
        start,
        end: start + value.len(),
    })
}

/// `s` as a YAML double-quoted scalar.
pub fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The indentation step the frontmatter `start..end` uses: the smallest
/// positive run of leading spaces on a line, else 2.
pub fn indent_unit(text: &str, start: usize, end: usize) -> usize {
    text.get(start..end)
        .unwrap_or("")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.bytes().take_while(|&b| b == b' ').count())
        .filter(|&n| n > 0)
        .min()
        .unwrap_or(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_single_line_plain_value() {
        let t = "name: a\ndescription: Use when: x\nother: y\n";
        let (ls, le) = line_bounds(t, 10);
        let v = plain_value(t, ls, le, t.len()).unwrap();
        assert_eq!(v.key, "description");
        assert_eq!(&t[v.start..v.end], "Use when: x");
    }

    #[test]
    fn refuses_quoted_block_and_continued_values() {
        for t in [
            "description: \"x: y\"\n",
            "description: >-\n  x\n",
            "description: x: y\n  more\n",
        ] {
            let (ls, le) = line_bounds(t, 0);
            assert_eq!(plain_value(t, ls, le, t.len()), None, "{t:?}");
        }
    }

    #[test]
    fn keeps_crlf_out_of_the_value() {
        let t = "description: a: b\r\nname: c\r\n";
        let (ls, le) = line_bounds(t, 3);
        let v = plain_value(t, ls, le, t.len()).unwrap();
        assert_eq!(&t[v.start..v.end], "a: b");
        assert_eq!(double_quoted("a \"b\" \\"), "\"a \\\"b\\\" \\\\\"");
    }
}
