//! A line scanner for frontmatter YAML that finds what strict parsers
//! (libyaml and its ports: Ruby's Psych, Go's yaml.v3, PyYAML) refuse,
//! even where yaml-rust2 accepts the text, and that keeps going after the
//! first error so every spot is found, not just the first.
//!
//! It is not a YAML parser: it follows just enough structure (plain,
//! quoted and block scalars, flow collections, comments) to tell a value
//! from its continuation lines.

use super::markdown::split_lines;

/// Why a quoted value counts as unterminated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteEnd {
    /// The frontmatter ends before the quote closes.
    Eof,
    /// A line (starting at byte `line_start`) that is not indented as a
    /// continuation must be; `marker` when it is a `---` or `...` line.
    Unindented { line_start: usize, marker: bool },
}

/// One portability problem, with byte offsets into the scanned text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Issue {
    /// `: ` (or `:` at the end) inside a plain value; `at` is the colon.
    Colon { at: usize, key: Option<String> },
    /// A tab where indentation is expected; `at` is the tab.
    Tab { at: usize },
    /// A quote that opens a value and does not close validly; `at` is the
    /// quote.
    Quote {
        at: usize,
        quote: char,
        end: QuoteEnd,
        key: Option<String>,
    },
}

#[derive(Debug, Clone)]
enum State {
    Normal,
    /// A plain scalar owned by a key or dash at column `indent`.
    Plain {
        indent: usize,
    },
    Quoted {
        q: u8,
        indent: usize,
        open: usize,
        key: Option<String>,
    },
    Block {
        parent: usize,
        content: Option<usize>,
    },
    Flow {
        depth: usize,
        quote: Option<u8>,
    },
}

/// Offset (in `s`) of the closing quote `q` of a scalar whose opening
/// quote is just before `s`.
fn find_close(s: &str, q: u8) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if q == b'"' && b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == q {
            if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Offset of a `:` followed by a space, a tab or the end, before any
/// ` #` comment.
pub fn unquoted_colon(v: &str) -> Option<usize> {
    let b = v.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b'#' if i == 0 || b[i - 1] == b' ' || b[i - 1] == b'\t' => return None,
            b':' if i + 1 == b.len() || b[i + 1] == b' ' || b[i + 1] == b'\t' => return Some(i),
            _ => {}
        }
    }
    None
}

/// Track flow-collection depth over `s`; returns the new state.
fn scan_flow(s: &str, mut depth: usize, mut quote: Option<u8>) -> State {
    let b = s.as_bytes();
    let mut i = 0;
    let mut prev = b'[';
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if q == b'"' && c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                    i += 2;
                    continue;
                }
                quote = None;
                prev = c;
            }
            i += 1;
            continue;
        }
        match c {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return State::Normal;
                }
            }
            b'"' | b'\'' if matches!(prev, b'[' | b'{' | b',' | b':') => quote = Some(c),
            b'#' if i > 0 && (b[i - 1] == b' ' || b[i - 1] == b'\t') => break,
            _ => {}
        }
        if c != b' ' && c != b'\t' {
            prev = c;
        }
        i += 1;
    }
    State::Flow { depth, quote }
}

/// Leading spaces and tabs: (byte length, offset of the first tab).
fn leading_ws(line: &str) -> (usize, Option<usize>) {
    let n = line
        .bytes()
        .take_while(|&b| b == b' ' || b == b'\t')
        .count();
    (n, line[..n].find('\t'))
}

struct Scanner<'a> {
    text: &'a str,
    issues: Vec<Issue>,
}

impl Scanner<'_> {
    /// The value part of an entry: `v` starts at file offset `at`; its
    /// owner (key or dash) is at column `indent`.
    fn value(&mut self, v: &str, at: usize, indent: usize, key: Option<&str>) -> State {
        let mut v = v;
        let mut at = at;
        loop {
            let t = v.trim_start_matches([' ', '\t']);
            at += v.len() - t.len();
            v = t;
            if v.starts_with(['&', '!']) {
                let n = v.find([' ', '\t']).unwrap_or(v.len());
                at += n;
                v = &v[n..];
                continue;
            }
            break;
        }
        let Some(&c) = v.as_bytes().first() else {
            return State::Normal;
        };
        match c {
            b'#' | b'*' => State::Normal,
            b'|' | b'>' => {
                let digit = v[1..]
                    .bytes()
                    .take_while(|b| !b.is_ascii_whitespace())
                    .find(u8::is_ascii_digit);
                State::Block {
                    parent: indent,
                    content: digit.map(|d| indent + (d - b'0') as usize),
                }
            }
            b'"' | b'\'' => match find_close(&v[1..], c) {
                Some(_) => State::Normal,
                None => State::Quoted {
                    q: c,
                    indent,
                    open: at,
                    key: key.map(str::to_string),
                },
            },
            b'[' | b'{' => scan_flow(v, 0, None),
            _ => {
                if let Some(k) = unquoted_colon(v) {
                    self.issues.push(Issue::Colon {
                        at: at + k,
                        key: key.map(str::to_string),
                    });
                }
                State::Plain { indent }
            }
        }
    }

    /// A line in block context outside any scalar.
    fn normal(&mut self, start: usize, line: &str) -> State {
        let (ws, tab) = leading_ws(line);
        if let Some(t) = tab {
            self.issues.push(Issue::Tab { at: start + t });
        }
        let mut rest = &line[ws..];
        let mut col = ws;
        if rest.is_empty() || rest.starts_with('#') {
            return State::Normal;
        }
        let mut dash_col = None;
        while rest == "-" || rest.starts_with("- ") {
            dash_col = Some(col);
            let after = rest[1..].trim_start_matches(' ');
            col += rest.len() - after.len();
            rest = after;
        }
        let owner = dash_col.unwrap_or(col);
        let off = |r: &str| start + (line.len() - r.len());
        match rest.as_bytes().first() {
            None | Some(b'#') | Some(b'?') => State::Normal,
            Some(b'[') | Some(b'{') => scan_flow(rest, 0, None),
            Some(&q @ (b'"' | b'\'')) => match find_close(&rest[1..], q) {
                Some(close) => {
                    let after = &rest[close + 2..];
                    let key_colon = after.starts_with(':')
                        && (after.len() == 1 || after[1..].starts_with([' ', '\t']));
                    if key_colon {
                        let key = &rest[1..close + 1];
                        self.value(&after[1..], off(&after[1..]), col, Some(key))
                    } else {
                        State::Normal
                    }
                }
                None => State::Quoted {
                    q,
                    indent: owner,
                    open: off(rest),
                    key: None,
                },
            },
            Some(_) => match unquoted_colon(rest) {
                Some(k) => {
                    let key = rest[..k].trim_end();
                    let v = &rest[k + 1..];
                    self.value(v, off(v), col, Some(key))
                }
                None => State::Plain { indent: owner },
            },
        }
    }

    fn run(&mut self, start: usize, end: usize) {
        let mut state = State::Normal;
        for (ls, le) in split_lines(self.text, start) {
            if ls >= end {
                break;
            }
            let line = &self.text[ls..le.min(end)];
            state = self.line(state, ls, line);
        }
        if let State::Quoted { q, open, key, .. } = state {
            self.issues.push(Issue::Quote {
                at: open,
                quote: q as char,
                end: QuoteEnd::Eof,
                key,
            });
        }
    }

    fn line(&mut self, state: State, ls: usize, line: &str) -> State {
        let (ws, tab) = leading_ws(line);
        let blank = ws == line.len();
        match state {
            State::Normal => self.normal(ls, line),
            State::Plain { indent } => {
                if blank {
                    if let Some(t) = tab
                        && t <= indent
                    {
                        self.issues.push(Issue::Tab { at: ls + t });
                    }
                    return State::Plain { indent };
                }
                if line[ws..].starts_with('#') || ws <= indent {
                    return self.normal(ls, line);
                }
                if let Some(t) = tab
                    && t <= indent
                {
                    self.issues.push(Issue::Tab { at: ls + t });
                }
                if let Some(k) = unquoted_colon(&line[ws..]) {
                    self.issues.push(Issue::Colon {
                        at: ls + ws + k,
                        key: None,
                    });
                }
                State::Plain { indent }
            }
            State::Quoted {
                q,
                indent,
                open,
                key,
            } => {
                if blank {
                    return State::Quoted {
                        q,
                        indent,
                        open,
                        key,
                    };
                }
                let spaces = line.bytes().take_while(|&b| b == b' ').count();
                let marker = line.starts_with("---") || line.starts_with("...");
                if spaces <= indent || marker {
                    self.issues.push(Issue::Quote {
                        at: open,
                        quote: q as char,
                        end: QuoteEnd::Unindented {
                            line_start: ls,
                            marker,
                        },
                        key,
                    });
                    return self.normal(ls, line);
                }
                match find_close(line, q) {
                    Some(_) => State::Normal,
                    None => State::Quoted {
                        q,
                        indent,
                        open,
                        key,
                    },
                }
            }
            State::Block { parent, content } => {
                let spaces = line.bytes().take_while(|&b| b == b' ').count();
                let next_is_tab = line.as_bytes().get(spaces) == Some(&b'\t');
                if blank {
                    if next_is_tab && content.is_none_or(|c| spaces < c) {
                        self.issues.push(Issue::Tab { at: ls + spaces });
                    }
                    return State::Block { parent, content };
                }
                match content {
                    None if spaces > parent => {
                        if next_is_tab {
                            self.issues.push(Issue::Tab { at: ls + spaces });
                        }
                        State::Block {
                            parent,
                            content: Some(spaces),
                        }
                    }
                    Some(c) if spaces >= c => State::Block { parent, content },
                    Some(c) if next_is_tab && spaces > parent => {
                        let _ = c;
                        self.issues.push(Issue::Tab { at: ls + spaces });
                        State::Block { parent, content }
                    }
                    _ => self.normal(ls, line),
                }
            }
            State::Flow { depth, quote } => scan_flow(line, depth, quote),
        }
    }
}

/// Scan `text[start..end]` (the YAML between the frontmatter delimiters).
pub fn scan(text: &str, start: usize, end: usize) -> Vec<Issue> {
    let mut s = Scanner {
        text,
        issues: Vec::new(),
    };
    s.run(start, end);
    s.issues
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issues(y: &str) -> Vec<Issue> {
        scan(y, 0, y.len())
    }

    fn kinds(y: &str) -> Vec<(&'static str, usize)> {
        issues(y)
            .into_iter()
            .map(|i| match i {
                Issue::Colon { at, .. } => ("colon", at),
                Issue::Tab { at } => ("tab", at),
                Issue::Quote { at, .. } => ("quote", at),
            })
            .collect()
    }

    #[test]
    fn valid_frontmatter_has_no_issues() {
        let y = "name: a\ndescription: \"Use when: quoted\"\nmetadata:\n  url: http://x.y\n  list: [a: b, \"c\"]\nlong: >-\n  one: two\n  \tthree\nq: 'it''s: ok'\nmulti: \"one\n  two\"\nplain: a\n  b c\n# comment: here\nx: a #b: c\n";
        assert_eq!(kinds(y), vec![]);
    }

    #[test]
    fn colon_in_a_plain_value_and_its_continuation() {
        assert_eq!(
            kinds("description: Use this: when X\n"),
            vec![("colon", 21)]
        );
        assert_eq!(kinds("description: Use when:\n"), vec![("colon", 21)]);
        assert_eq!(kinds("d: one\n  when: two\n"), vec![("colon", 13)]);
        assert_eq!(kinds("- a: b: c\n"), vec![("colon", 6)]);
    }

    #[test]
    fn tabs_in_indentation() {
        assert_eq!(kinds("a: x\n\t# c\n"), vec![("tab", 5)]);
        assert_eq!(kinds("a: x\n\t\nb: y\n"), vec![("tab", 5)]);
        assert_eq!(kinds("m:\n\tk: v\n"), vec![("tab", 3)]);
        assert_eq!(kinds("d: |\n\tcode\n"), vec![("tab", 5)]);
        // libyaml refuses a tab before the block's indentation is known…
        assert_eq!(kinds("d: |\n  \tcode\n"), vec![("tab", 7)]);
        // …and takes it as content afterwards
        assert_eq!(kinds("d: |\n  code\n  \tmore\n"), vec![]);
        // in a flow collection tabs are separation
        assert_eq!(kinds("t: [a,\n\tb]\n"), vec![]);
    }

    #[test]
    fn unterminated_quotes() {
        assert_eq!(kinds("d: \"abc\nname: x\n"), vec![("quote", 3)]);
        assert_eq!(kinds("d: 'abc\n"), vec![("quote", 3)]);
        let i = issues("d: \"one\n---\n  two\"\n");
        assert!(matches!(
            i[0],
            Issue::Quote {
                end: QuoteEnd::Unindented { marker: true, .. },
                ..
            }
        ));
    }
}
