//! Shared pieces of the frontmatter fixes (`skillsift check --fix`): where
//! a line's plain value is, and how to write it quoted. A rule attaches a
//! fix with one call (`.with_fix(Fix::new(…))`, see [`crate::diag::Fix`]);
//! these helpers only find the bytes to edit. [`apply_edits`] applies
//! fixes to a text (the fixer's writer); [`rewrite_value`] writes a new
//! value for a top-level key in the style the old one was written in
//! (`skillsift tune --write`).

use crate::catalog::Skill;
use crate::catalog::yaml::Style;
use crate::diag::{Edit, Fix};

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

/// Apply non-overlapping fixes to `text`: each fix whole or not at all, in
/// order of their first edit. Returns the new text and the fixes taken.
pub fn apply_edits<'f>(text: &str, fixes: &[&'f Fix]) -> (String, Vec<&'f Fix>) {
    let mut order: Vec<&Fix> = fixes.to_vec();
    order.sort_by_key(|f| {
        (
            f.edits.first().map(|e| (e.start, e.end)),
            f.description.clone(),
        )
    });
    order.dedup();
    let mut taken: Vec<&Fix> = Vec::new();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    'fix: for f in order {
        for e in &f.edits {
            let bad = e.start > e.end
                || e.end > text.len()
                || !text.is_char_boundary(e.start)
                || !text.is_char_boundary(e.end);
            if bad {
                continue 'fix;
            }
            // overlapping, or two insertions at one point
            if ranges.iter().any(|&(s, t)| {
                e.start < t && s < e.end
                    || (e.start == s && s == t)
                    || e.start == e.end && e.start == s
            }) {
                continue 'fix;
            }
        }
        ranges.extend(f.edits.iter().map(|e| (e.start, e.end)));
        taken.push(f);
    }
    let mut edits: Vec<&Edit> = taken.iter().flat_map(|f| &f.edits).collect();
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        out.push_str(&text[at..e.start]);
        out.push_str(&e.replacement);
        at = e.end;
    }
    out.push_str(&text[at..]);
    (out, taken)
}

/// A new value written into a SKILL.md by [`rewrite_value`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The whole file with the new value.
    pub text: String,
    /// The one edit that makes it from the old text.
    pub edit: Edit,
    /// The value is written in the style the old one was (plain, quoted,
    /// folded or literal block, with its indentation and line width);
    /// `false` when the new text could not be and is written double-quoted.
    pub style_kept: bool,
}

/// Narrowest and widest line width kept when a value is rewrapped.
const WIDTHS: (usize, usize) = (40, 120);

/// The lines of the top-level `key` of the frontmatter `yaml` (byte range
/// of the YAML text in `text`): the byte after its `:`, and the end of the
/// value's last non-blank line (the next line starting at column 0 ends
/// it). `None` when no line or two lines hold the key.
fn value_region(text: &str, yaml: std::ops::Range<usize>, key: &str) -> Option<(usize, usize)> {
    let yaml_end = yaml.end.min(text.len());
    let mut at = yaml.start.min(yaml_end);
    let mut found = None;
    let mut lines = Vec::new();
    while at < yaml_end {
        let (ls, le) = line_bounds(text, at);
        lines.push((ls, le));
        let next = next_line(text, le);
        if next <= at {
            break;
        }
        at = next;
    }
    for (k, &(ls, le)) in lines.iter().enumerate() {
        let line = &text[ls..le];
        if let Some(rest) = line.strip_prefix(key)
            && (rest.starts_with(": ") || rest == ":" || rest.starts_with(":\t"))
        {
            if found.is_some() {
                return None;
            }
            found = Some((k, ls + key.len() + 1));
        }
    }
    let (k, start) = found?;
    let mut end = lines[k].1;
    for &(ls, le) in &lines[k + 1..] {
        let line = &text[ls..le];
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            break;
        }
        end = le;
    }
    Some((start, end))
}

/// Whether `v` reads back as the same string when written as a plain
/// scalar on one line.
fn plain_safe(v: &str) -> bool {
    let Some(first) = v.chars().next() else {
        return false;
    };
    if v != v.trim()
        || v.contains(['\n', '\r', '\t'])
        || v.contains(": ")
        || v.ends_with(':')
        || v.contains(" #")
        || "-?:,[]{}#&*!|>'\"%@`".contains(first)
        || v.chars().any(char::is_control)
    {
        return false;
    }
    crate::catalog::yaml::plain_type(v) == "string"
}

/// `v` as the body of a YAML double-quoted scalar (without the quotes).
fn double_escaped(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Greedy wrap of `v` at single spaces: the first line gets `first`
/// characters, the others `rest`. `None` when `v` has a run of spaces
/// (folding would not give them back).
fn wrap(v: &str, first: usize, rest: usize) -> Option<Vec<String>> {
    if v.contains("  ") || v.starts_with(' ') || v.ends_with(' ') {
        return None;
    }
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for w in v.split(' ') {
        let room = if lines.is_empty() { first } else { rest };
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > room {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    lines.push(cur);
    Some(lines)
}

/// The layout of the old value: its continuation lines' indent and the
/// widest line (in characters), when it spans several lines.
fn layout(text: &str, start: usize, end: usize) -> (Option<usize>, usize) {
    let region = &text[start..end];
    let mut indent: Option<usize> = None;
    let mut width = 0;
    for (k, line) in region.split('\n').enumerate() {
        let line = line.trim_end_matches('\r');
        if k == 0 {
            let (ls, _) = line_bounds(text, start);
            width = width.max(text[ls..start].chars().count() + line.chars().count());
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let n = line.bytes().take_while(|&b| b == b' ').count();
        indent = Some(indent.map_or(n, |i: usize| i.min(n)));
        width = width.max(line.chars().count());
    }
    (indent, width.clamp(WIDTHS.0, WIDTHS.1))
}

/// The replacement of the value region, in `style`, or `None` when `value`
/// cannot be written so.
fn render(
    text: &str,
    start: usize,
    end: usize,
    key: &str,
    style: Style,
    value: &str,
) -> Option<String> {
    let (cont, width) = layout(text, start, end);
    let eol = if text[..end].contains("\r\n") || text[end..].starts_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    // a flow scalar: on the key line, or wrapped as the old one was
    let flow = |open: &str, body: String, close: &str| -> Option<String> {
        let one = format!(" {open}{body}{close}");
        let Some(indent) = cont else { return Some(one) };
        let first = width.saturating_sub(key.len() + 2 + open.len());
        let lines = wrap(&body, first, width.saturating_sub(indent))?;
        let pad = " ".repeat(indent.max(1));
        let mut out = format!(" {open}");
        for (k, l) in lines.iter().enumerate() {
            if k > 0 {
                out.push_str(eol);
                out.push_str(&pad);
            }
            out.push_str(l);
        }
        out.push_str(close);
        Some(out)
    };
    match style {
        Style::Plain => plain_safe(value).then(|| flow("", value.to_string(), ""))?,
        Style::SingleQuoted => {
            if value.contains(['\n', '\r']) || value.chars().any(char::is_control) {
                return None;
            }
            flow("'", value.replace('\'', "''"), "'")
        }
        Style::DoubleQuoted => flow("\"", double_escaped(value), "\""),
        Style::Folded | Style::Literal => {
            let head_line = &text[start..line_bounds(text, start).1];
            let indent = cont.unwrap_or(2).max(1);
            let pad = " ".repeat(indent);
            let body = value.trim_end_matches('\n');
            if body.contains('\r') || body.is_empty() {
                return None;
            }
            let mut lines: Vec<String> = Vec::new();
            for (k, para) in body.split('\n').enumerate() {
                if style == Style::Literal {
                    lines.push(para.to_string());
                    continue;
                }
                if k > 0 {
                    lines.push(String::new());
                }
                if !para.is_empty() {
                    let room = width.saturating_sub(indent);
                    lines.extend(wrap(para, room, room)?);
                }
            }
            let mut out = format!(" {}", head_line.trim());
            for l in lines {
                out.push_str(eol);
                if !l.is_empty() {
                    out.push_str(&pad);
                    out.push_str(&l);
                }
            }
            Some(out)
        }
    }
}

/// The top-level entries of a frontmatter other than `key`, as (key, value
/// text) pairs, for comparing two readings of a file.
fn others(skill: &Skill, key: &str) -> Option<Vec<(String, Option<String>)>> {
    let fm = skill.frontmatter.as_ref()?;
    Some(
        fm.entries
            .iter()
            .filter(|e| e.key != key)
            .map(|e| (e.key.clone(), e.value.scalar_text().map(str::to_string)))
            .collect(),
    )
}

/// `skill`'s SKILL.md with the top-level `key` of its frontmatter reading
/// `value`, written in the old value's style (plain, single- or
/// double-quoted, folded or literal block scalar, keeping the block
/// header, the indentation and the line width), else double-quoted when
/// that style cannot hold the new text. The result is read back: the key
/// must read `value` and every other entry as before, or it is an error
/// saying why (a key written twice, a value that is not a string).
pub fn rewrite_value(skill: &Skill, key: &str, value: &str) -> Result<Rewritten, String> {
    let src = skill
        .source
        .as_ref()
        .ok_or_else(|| format!("{} was not read whole", skill.file))?;
    let text = &src.text;
    if skill.cut > 0 {
        return Err(format!("{} was not kept whole in memory", skill.file));
    }
    let fm = skill
        .frontmatter
        .as_ref()
        .ok_or_else(|| format!("{} has no frontmatter that parses", skill.file))?;
    if fm.entries.iter().filter(|e| e.key == key).count() != 1 {
        return Err(format!(
            "{}: `{key}` is not written exactly once",
            skill.file
        ));
    }
    let style = fm
        .get(key)
        .and_then(|e| e.value.style())
        .ok_or_else(|| format!("{}: `{key}` is not a string", skill.file))?;
    let (start, end) = value_region(text, fm.yaml.clone(), key).ok_or_else(|| {
        format!(
            "{}: the `{key}:` line was not found at column 0",
            skill.file
        )
    })?;
    let before = others(skill, key);
    let attempt = |style: Style| -> Option<Rewritten> {
        let replacement = render(text, start, end, key, style, value)?;
        let edit = Edit {
            start,
            end,
            replacement,
        };
        let mut new = String::with_capacity(text.len() + edit.replacement.len());
        new.push_str(&text[..start]);
        new.push_str(&edit.replacement);
        new.push_str(&text[end..]);
        let (read, _) = skill.reread(&new);
        let got = read
            .frontmatter
            .as_ref()
            .and_then(|f| f.get(key))
            .and_then(|e| e.value.as_str());
        (got == Some(value) && others(&read, key) == before).then_some(Rewritten {
            text: new,
            edit,
            style_kept: false,
        })
    };
    if let Some(mut r) = attempt(style) {
        r.style_kept = true;
        return Ok(r);
    }
    attempt(Style::DoubleQuoted).ok_or_else(|| {
        format!(
            "{}: the new `{key}` does not read back as written",
            skill.file
        )
    })
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

    fn skill(text: &str) -> Skill {
        let blank = Skill {
            file: "s/SKILL.md".into(),
            dir: "s".into(),
            rel_dir: "s".into(),
            folder: "s".into(),
            source: None,
            frontmatter: None,
            body_start: 0,
            files: Vec::new(),
            empty_dirs: Vec::new(),
            evals_dir: false,
            cut: 0,
            grams: None,
            other_grams: Default::default(),
            listed_as: None,
        };
        blank.reread(text).0
    }

    fn rewritten(text: &str, value: &str) -> Rewritten {
        let r = rewrite_value(&skill(text), "description", value).unwrap();
        assert_eq!(skill(&r.text).description(), Some(value), "{}", r.text);
        r
    }

    #[test]
    fn a_plain_value_stays_plain_on_its_line() {
        let t = "---\nname: s\ndescription: Fix tests.\nlicense: MIT\n---\nbody\n";
        let r = rewritten(t, "Fix flaky tests.");
        assert_eq!(
            r.text,
            "---\nname: s\ndescription: Fix flaky tests.\nlicense: MIT\n---\nbody\n"
        );
        assert!(r.style_kept);
        // a value a plain scalar cannot hold is double-quoted
        let r = rewritten(t, "Fix tests. Use when: CI fails.");
        assert!(!r.style_kept);
        assert!(
            r.text
                .contains("description: \"Fix tests. Use when: CI fails.\"\n")
        );
    }

    #[test]
    fn quoted_values_keep_their_quotes() {
        let t = "---\nname: s\ndescription: 'It''s for tests.'\n---\n";
        let r = rewritten(t, "It's for flaky tests.");
        assert!(
            r.text.contains("description: 'It''s for flaky tests.'\n"),
            "{}",
            r.text
        );
        let t = "---\nname: s\ndescription: \"Say \\\"hi\\\".\"\n---\n";
        let r = rewritten(t, "Say \"hi\" to tests.");
        assert!(
            r.text
                .contains("description: \"Say \\\"hi\\\" to tests.\"\n"),
            "{}",
            r.text
        );
        assert!(r.style_kept);
    }

    #[test]
    fn block_scalars_keep_header_indent_and_width() {
        let t = "---\nname: s\ndescription: >-\n    Diagnoses unreliable tests that pass\n    and fail at random.\nlicense: MIT\n---\n";
        let v = "Diagnoses unreliable (flaky) tests that pass and fail at random. Use when the task involves flaky tests.";
        let r = rewritten(t, v);
        assert!(r.style_kept);
        assert!(
            r.text
                .starts_with("---\nname: s\ndescription: >-\n    Diagnoses"),
            "{}",
            r.text
        );
        assert!(r.text.ends_with("\nlicense: MIT\n---\n"), "{}", r.text);
        let widest = r.text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 40, "{}", r.text);
        let t = "---\ndescription: |\n  Line one.\n  Line two.\nname: s\n---\n";
        let r = rewritten(t, "Line one.\nLine two, for flaky tests.\n");
        assert_eq!(
            r.text,
            "---\ndescription: |\n  Line one.\n  Line two, for flaky tests.\nname: s\n---\n"
        );
    }

    #[test]
    fn a_wrapped_plain_value_is_wrapped_again() {
        let t = "---\nname: s\ndescription: Diagnoses unreliable tests that\n  pass and fail at random.\n---\n";
        let r = rewritten(
            t,
            "Diagnoses unreliable (flaky) tests that pass and fail at random, in CI.",
        );
        assert!(r.style_kept);
        assert!(r.text.contains("\n  "), "{}", r.text);
    }

    #[test]
    fn a_key_written_twice_is_refused() {
        let t = "---\nname: s\ndescription: a\ndescription: b\n---\n";
        assert!(rewrite_value(&skill(t), "description", "c").is_err());
    }
}
