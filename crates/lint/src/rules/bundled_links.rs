//! SG210: references from SKILL.md to files of its own folder that do not
//! exist, and paths written with Windows separators.

use super::context::SkillCtx;
use super::keys::edit_distance_within;
use super::references::resolve;
use crate::diag::{Applicability, Diagnostic, Fix};
use crate::rule;

rule! {
    /// ## What it does
    /// Warns about a reference from SKILL.md to a file of the skill's own
    /// folder that is not there. Three forms are references:
    /// - a relative Markdown link or image, `[the guide](references/guide.md)`
    ///   (links to another skill's SKILL.md are SG206's; links that climb
    ///   out of the skill folder, URLs and anchors are not checked);
    /// - a path in inline code, a fenced block or prose whose first folder
    ///   is `scripts/`, `references/` or `assets/`, ``run `scripts/upload.py` ``,
    ///   when the skill bundles that folder or the path starts with
    ///   `${CLAUDE_SKILL_DIR}/` or `{baseDir}/` (so a path of the user's
    ///   project, in a skill that bundles no such folder, is left alone);
    /// - either of these written with Windows separators,
    ///   `references\guide.md`.
    ///
    /// Not references: footnotes (`[^1]: Author. (2022). …`), link syntax
    /// inside inline code (``` ``[text](guide.md)`` ```), paths whose file
    /// name stands for any file (`scripts/example.py`,
    /// `references/your-topic.md`, `path/to/…`). A `#anchor` is not part
    /// of the path (`references/api.md#auth` names `references/api.md`),
    /// and a path that is not in the skill folder but is there from a
    /// folder above it, up to the catalog root (a sibling skill's file,
    /// `pdf/scripts/fill.py`), is not reported.
    ///
    /// The message names the closest file the skill does have (same name
    /// in another folder, another case, or within a few edits). A path with
    /// `\` whose `/` spelling exists gets the replacement as its help.
    ///
    /// ## Why is this bad?
    /// The agent follows the reference and finds nothing: it improvises
    /// the step the file was meant to hold. Agents run on Linux and macOS,
    /// where `references\guide.md` is a file name with a backslash in it,
    /// not a path.
    ///
    /// ## Example
    /// ```markdown
    /// See [the guide](references/guide.md), then run `scripts/upload.py`.
    /// ```
    /// with no `references/guide.md` in the folder. Fix the path, add the
    /// file, or remove the reference; write `/` between folders.
    ///
    /// ## Fix
    /// Safe fix, for a path written with Windows separators whose `/`
    /// spelling exists in the skill folder (`references\guide.md` when
    /// `references/guide.md` is there): write it with `/`, in a SKILL.md.
    /// A reference to a file that is missing has no fix.
    pub static MISSING_FILE = ("SG210", "missing-bundled-file", Warning, "SKILL.md refers to a file its folder does not have");
}

/// The folders a skill bundles by convention, whose paths are references
/// wherever they appear.
pub const BUNDLED_DIRS: &[&str] = &["scripts", "references", "assets"];

/// Where `text` has what a line holding a link or a bundled path has:
/// `](`, `]:` or a bundled folder's name, in order (vectorised searches
/// for `]` and each name: several times faster than one automaton over
/// every byte).
fn link_hints(text: &[u8]) -> Vec<usize> {
    let mut at: Vec<usize> = memchr::memchr_iter(b']', text)
        .filter(|&i| matches!(text.get(i + 1), Some(b'(' | b':')))
        .collect();
    for d in BUNDLED_DIRS {
        at.extend(memchr::memmem::find_iter(text, d.as_bytes()));
    }
    at.sort_unstable();
    at
}

/// Prefixes that name the skill's own folder.
const SKILL_DIR_PREFIXES: &[&str] = &[
    "${CLAUDE_SKILL_DIR}/",
    "$CLAUDE_SKILL_DIR/",
    "{baseDir}/",
    "./",
];

/// The safe fix of a path written with Windows separators: the byte range
/// of the path in `text` and its `/` spelling, when `range` holds a path
/// with a `\` (and nothing that is not a path). The SG210 finding on such
/// a path carries it as its safe fix ([`safe_fix`]).
pub fn separator_fix(
    text: &str,
    range: std::ops::Range<usize>,
) -> Option<(std::ops::Range<usize>, String)> {
    let path = text.get(range.clone())?;
    if !path.contains('\\')
        || path.is_empty()
        || path.contains(char::is_whitespace)
        || path.contains("\\\\")
    {
        return None;
    }
    Some((range, path.replace('\\', "/")))
}

/// The label of a finding whose `/` spelling exists: the one SG210
/// finding [`safe_fix`] applies to.
const SEPARATOR_LABEL: &str = "`\\` is not a folder separator here";

/// The safe fix of an SG210 finding on the file `text`: the byte range to
/// replace and its new text, for a path written with Windows separators
/// whose `/` spelling exists in the skill folder; `None` for any other
/// finding (a missing file has no safe fix). [`check`] attaches it to the
/// finding as a [`Fix`], which `--fix` applies.
pub fn safe_fix(d: &Diagnostic, text: &str) -> Option<(std::ops::Range<usize>, String)> {
    if d.rule != MISSING_FILE.id || d.label.as_deref() != Some(SEPARATOR_LABEL) {
        return None;
    }
    let span = d.span?;
    separator_fix(text, span.start..span.end)
}

/// A path found in the body: where it is and how it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Byte offset of the path in the file.
    pub start: usize,
    /// The path as written.
    pub text: String,
    /// A Markdown link or image target, or a path under the skill folder's
    /// own prefix (`${CLAUDE_SKILL_DIR}/…`): certainly the skill's file.
    pub explicit: bool,
}

/// Every path a line refers to: link targets and conventional paths.
/// `start` is the line's byte offset; `fenced`: inside a code block (only
/// conventional paths count there).
pub fn scan_line(line: &str, start: usize, fenced: bool, out: &mut Vec<Found>) {
    if !fenced {
        for (at, t) in link_targets(line) {
            out.push(Found {
                start: start + at,
                text: t.to_string(),
                explicit: true,
            });
        }
    }
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // a word: a run of bytes that are not white space, quotes or
        // brackets
        let is_sep = |c: u8| {
            c.is_ascii_whitespace()
                || matches!(
                    c,
                    b'`' | b'"'
                        | b'\''
                        | b'('
                        | b')'
                        | b'<'
                        | b'>'
                        | b'['
                        | b']'
                        | b'|'
                        | b'='
                        | b','
                        | b';'
                )
        };
        if is_sep(b[i]) {
            i += 1;
            continue;
        }
        let s = i;
        while i < b.len() && !is_sep(b[i]) {
            i += 1;
        }
        let word = line[s..i].trim_end_matches(['.', ':', '!', '?', '*']);
        // `references/api.md#authentication` names `references/api.md`
        let word = word.split('#').next().unwrap_or(word);
        let (prefix, rest) = strip_skill_dir(word);
        let first = rest.split(['/', '\\']).next().unwrap_or("");
        let has_sep = rest.len() > first.len();
        if !has_sep || !BUNDLED_DIRS.contains(&first) {
            continue;
        }
        // a file: a name with an extension after the folder
        let last = rest.rsplit(['/', '\\']).next().unwrap_or("");
        if !last.contains('.')
            || last.starts_with('.')
            || rest.contains(['*', '{', '$', '%'])
            || is_placeholder(rest)
        {
            continue;
        }
        // already taken as a link target
        let at = start + s + prefix;
        if out
            .iter()
            .any(|f| f.start <= at && at < f.start + f.text.len())
        {
            continue;
        }
        out.push(Found {
            start: at,
            text: rest.to_string(),
            explicit: prefix > 0 && word.starts_with(['$', '{']),
        });
    }
}

/// The byte ranges of a line's inline code spans, as CommonMark reads
/// them: a run of backticks opens a span that the next run of the same
/// length closes (``` ``a ` b`` ``` is one span).
pub fn code_spans(line: &str) -> Vec<std::ops::Range<usize>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let run = |at: usize| b[at..].iter().take_while(|&&c| c == b'`').count();
    while let Some(k) = memchr::memchr(b'`', &b[i..]) {
        let open = i + k;
        let n = run(open);
        let mut j = open + n;
        let mut close = None;
        while let Some(k) = memchr::memchr(b'`', &b[j..]) {
            let at = j + k;
            let m = run(at);
            if m == n {
                close = Some(at);
                break;
            }
            j = at + m;
        }
        match close {
            Some(c) => {
                out.push(open..c + n);
                i = c + n;
            }
            // an unmatched run is literal backticks
            None => i = open + n,
        }
    }
    out
}

/// A file name that stands for any file in an example: `scripts/example.py`,
/// `references/your-topic.md`, `assets/foo.png`.
fn is_placeholder(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    let words: Vec<&str> = stem.split(['-', '_']).collect();
    matches!(
        stem.as_str(),
        "example"
            | "examples"
            | "sample"
            | "foo"
            | "bar"
            | "baz"
            | "xxx"
            | "file"
            | "filename"
            | "name"
            | "placeholder"
            | "something"
            | "whatever"
    ) || matches!(words.first(), Some(&("your" | "my" | "some" | "example")))
        || path.contains("path/to/")
}

/// `(bytes of the skill-folder prefix, the rest)`.
fn strip_skill_dir(word: &str) -> (usize, &str) {
    for p in SKILL_DIR_PREFIXES {
        if let Some(rest) = word.strip_prefix(p) {
            return (p.len(), rest);
        }
    }
    (0, word)
}

/// `(byte offset in line, target)` of every inline link or image and of a
/// link reference definition, whose target is a relative path.
fn link_targets<'a>(line: &'a str) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut push = |at: usize, raw: &'a str| {
        let t = raw.split(['#', '?']).next().unwrap_or("");
        if is_relative_path(t) {
            out.push((at, t));
        }
    };
    // `[id]: target` at the start of a line; `[^1]: Author. (2022). …` is a
    // footnote, not a link
    let lead = line.len() - line.trim_start().len();
    if lead <= 3 && line[lead..].starts_with("[^") {
        return out;
    }
    if lead <= 3
        && line[lead..].starts_with('[')
        && let Some(k) = line[lead..].find("]:")
    {
        let rest = &line[lead + k + 2..];
        let t = rest.trim_start();
        let at = line.len() - t.len();
        let t = t.split_whitespace().next().unwrap_or("");
        let (at, t) = match t.strip_prefix('<') {
            Some(inner) => (at + 1, inner.split('>').next().unwrap_or("")),
            None => (at, t),
        };
        push(at, t);
        return out;
    }
    // link syntax inside inline code is an example, not a link
    let code = code_spans(line);
    let in_code = |at: usize| code.iter().any(|r| r.contains(&at));
    let mut i = 0;
    while let Some(k) = line[i..].find("](") {
        let start = i + k + 2;
        i = start;
        if in_code(start) {
            continue;
        }
        let rest = &line[start..];
        if let Some(inner) = rest.strip_prefix('<') {
            if let Some(end) = inner.find('>') {
                push(start + 1, &inner[..end]);
                i = start + 1 + end;
            }
            continue;
        }
        // up to the closing paren, balanced, or a space before a title
        let mut depth = 0usize;
        let mut end = None;
        for (j, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(j);
                    break;
                }
                ')' => depth -= 1,
                ' ' | '\t' => {
                    end = Some(j);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        push(start, &rest[..end]);
        i = start + end;
        if i >= b.len() {
            break;
        }
    }
    out
}

/// A relative file path: no scheme, not absolute, not an anchor, not a
/// template placeholder.
fn is_relative_path(t: &str) -> bool {
    if t.is_empty()
        || t.starts_with(['/', '#', '~', '$', '{', '%', '<'])
        || t.contains("{{")
        || t.contains(char::is_whitespace)
    {
        return false;
    }
    // a scheme: letters, digits, `+`, `-`, `.` then `:` (`https:`, `mailto:`)
    if let Some(colon) = t.find(':') {
        let scheme = &t[..colon];
        if !scheme.is_empty()
            && scheme
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
        {
            return false;
        }
    }
    // `C:\…` and `\\server\…`
    !(t.starts_with("\\\\") || t.as_bytes().get(1) == Some(&b':'))
}

/// `%20` and the like decoded; `None` when the escapes are malformed.
fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let h = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(h, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Whether the skill has `rel` (a file or a folder of its own).
pub fn exists(s: &SkillCtx, rel: &str) -> bool {
    if rel.is_empty() || rel == "SKILL.md" {
        return true;
    }
    let files = &s.skill.files;
    let i = files.partition_point(|f| f.as_str() < rel);
    if files.get(i).is_some_and(|f| f == rel) {
        return true;
    }
    let dir = format!("{rel}/");
    let j = files.partition_point(|f| f.as_str() < dir.as_str());
    if files.get(j).is_some_and(|f| f.starts_with(&dir)) {
        return true;
    }
    if s.skill.empty_dirs.iter().any(|d| d == rel) {
        return true;
    }
    // what the listing leaves out (evals/, nested skills, a listing over
    // its limits) is looked up on disk
    s.skill.dir.join(rel).exists()
}

/// Whether `rel` (inside the skill folder, lexically) is there when read
/// from a folder above the skill, up to the catalog root: a path into a
/// sibling skill (`../pdf/scripts/fill.py` written as `pdf/scripts/fill.py`)
/// or one the agent, working at the repository root, reads from there.
/// Never looks above the catalog root.
fn exists_above(s: &SkillCtx, rel: &str) -> bool {
    if s.skill.rel_dir == "." {
        return false;
    }
    let mut dir = s.skill.dir.as_path();
    for _ in s.skill.rel_dir.split('/') {
        let Some(up) = dir.parent() else { break };
        dir = up;
        if dir.join(rel).exists() {
            return true;
        }
    }
    false
}

/// The file of the skill the reference most likely meant.
fn closest<'a>(s: &'a SkillCtx, rel: &str) -> Option<(&'a str, &'static str)> {
    let files = &s.skill.files;
    let lower = rel.to_lowercase();
    if let Some(f) = files.iter().find(|f| f.to_lowercase() == lower) {
        return Some((f, "differs only in case"));
    }
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if let Some(f) = files
        .iter()
        .find(|f| f.rsplit('/').next().is_some_and(|n| n == name))
    {
        return Some((f, "has this name in another folder"));
    }
    let max = (rel.chars().count() / 5).clamp(1, 3);
    files
        .iter()
        .filter(|f| f.len().abs_diff(rel.len()) <= max)
        .filter_map(|f| edit_distance_within(rel, f, max).map(|d| (d, f)))
        .min()
        .map(|(_, f)| (f.as_str(), "is the closest name"))
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let text = &s.src.text;
    // cheap filter: lines holding `](`, `]:` or a bundled folder's name
    let bundles = |d: &str| {
        let p = format!("{d}/");
        s.skill.files.iter().any(|f| f.starts_with(&p))
    };
    let mut found = Vec::new();
    // one search over the body, not one per line: each line holding a
    // hint is scanned once, in order (no hint spans a line break)
    if let Some(first) = s.body.line(0) {
        let (mut i, mut scanned) = (0, None);
        for at in link_hints(&text.as_bytes()[first.start..]) {
            let at = first.start + at;
            while s.body.line(i).is_some_and(|l| l.start + l.text.len() < at) {
                i += 1;
            }
            let Some(line) = s.body.line(i) else { break };
            if scanned == Some(i) || at < line.start {
                continue;
            }
            scanned = Some(i);
            scan_line(line.text, line.start, line.fenced, &mut found);
        }
    }
    let mut seen: Vec<String> = Vec::new();
    for f in found {
        let first = f.text.split(['/', '\\']).next().unwrap_or("");
        // a conventional path in a skill that bundles no such folder may
        // be the user's project's
        // (a path written with `\` is the skill's: no Linux or macOS
        // project spells its paths that way)
        if !f.explicit && BUNDLED_DIRS.contains(&first) && !bundles(first) && !f.text.contains('\\')
        {
            continue;
        }
        let Some(decoded) = percent_decode(&f.text) else {
            continue;
        };
        // `guide.md%23setup`: the anchor, written escaped
        let decoded = match decoded.split_once('#') {
            Some((path, _)) => path.to_string(),
            None => decoded,
        };
        let slashed = decoded.replace('\\', "/");
        // links to skills are SG206's; out of the folder: not checked
        if slashed == "SKILL.md" || slashed.ends_with("/SKILL.md") {
            continue;
        }
        let Some(rel) = resolve("", &slashed) else {
            continue;
        };
        let windows = decoded.contains('\\');
        let present = exists(s, &rel);
        if present && !windows {
            continue;
        }
        if !present && !windows && exists_above(s, &rel) {
            continue;
        }
        if seen.contains(&f.text) {
            continue;
        }
        seen.push(f.text.clone());
        let span = s.span(f.start, f.start + f.text.len());
        // an author's text, shown at most 120 characters long
        let written = match f.text.char_indices().nth(120) {
            Some((i, _)) => format!("{}…", &f.text[..i]),
            None => f.text.clone(),
        };
        let d = if present {
            let fixed = separator_fix(text, f.start..f.start + f.text.len())
                .map(|(_, t)| t)
                .unwrap_or_else(|| slashed.clone());
            let d = MISSING_FILE
                .diag(
                    s.file(),
                    format!(
                        "`{written}` is written with Windows separators: on Linux and macOS it names no file; `{rel}` exists"
                    ),
                )
                .with_span(span)
                .with_label(SEPARATOR_LABEL)
                .with_help(format!("write `{fixed}`"));
            match safe_fix(&d, text) {
                Some((range, new)) => {
                    let fix = Fix::new(
                        Applicability::Safe,
                        format!("write `{new}` (`/` between folders)"),
                        range.start,
                        range.end,
                        new,
                    );
                    d.with_fix(fix)
                }
                None => d,
            }
        } else {
            let d = MISSING_FILE
                .diag(
                    s.file(),
                    format!(
                        "`{written}` is not in the skill folder: the agent finds nothing there"
                    ),
                )
                .with_span(span)
                .with_label("no such file in the skill");
            match closest(s, &rel) {
                Some((c, why)) => d.with_help(format!(
                    "did you mean `{c}`? (it {why}); fix the path, or add the file"
                )),
                None if windows => d.with_help(format!(
                    "write `{slashed}` (`/` between folders) and add the file to the skill folder"
                )),
                None => d.with_help(
                    "add the file to the skill folder, fix the path, or remove the reference",
                ),
            }
        };
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(l: &str, fenced: bool) -> Vec<String> {
        let mut v = Vec::new();
        scan_line(l, 0, fenced, &mut v);
        v.into_iter().map(|f| f.text).collect()
    }

    #[test]
    fn links_and_conventional_paths() {
        assert_eq!(
            scan(
                "See [the guide](references/guide.md#x), ![i](assets/a.png \"t\") and [web](https://x.y/z.md).",
                false
            ),
            vec!["references/guide.md", "assets/a.png"]
        );
        assert_eq!(
            scan(
                "run `python scripts/upload.py --x` or scripts\\b.sh.",
                false
            ),
            vec!["scripts/upload.py", "scripts\\b.sh"]
        );
        assert_eq!(
            scan("[a](#top) [b](mailto:x@y) [c](/abs)", false),
            Vec::<String>::new()
        );
        assert_eq!(scan("[a](<with space.md>)", false), Vec::<String>::new());
        assert_eq!(scan("[a](<x.md>)", false), vec!["x.md"]);
        assert_eq!(
            scan("write `[REPO#1](url)` links", false),
            Vec::<String>::new()
        );
        assert_eq!(
            scan("[id]: ./references/r.md", false),
            vec!["./references/r.md"]
        );
        // only conventional paths in code blocks; folders without a file
        assert_eq!(
            scan("[a](x.md) scripts/run.sh scripts/", true),
            vec!["scripts/run.sh"]
        );
        assert_eq!(
            scan("${CLAUDE_SKILL_DIR}/scripts/x.py", false),
            vec!["scripts/x.py"]
        );
    }

    #[test]
    fn footnotes_anchors_code_examples_and_placeholders_are_not_references() {
        assert_eq!(
            scan(
                "[^1]: Author. (2022). \"Title\". https://example.org/x",
                false
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            scan("see `references/api.md#authentication`", false),
            vec!["references/api.md"]
        );
        assert_eq!(
            scan("write ``[text](`guide.md`)`` for a link", false),
            Vec::<String>::new()
        );
        assert_eq!(
            scan(
                "run `scripts/example.py`, `scripts/your-script.sh` or `references/path/to/file.md`",
                false
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            scan("run `scripts/fill.py`", false),
            vec!["scripts/fill.py"]
        );
        assert_eq!(code_spans("a `b` c ``d ` e`` ```f"), vec![2..5, 8..17]);
    }

    #[test]
    fn separator_fix_replaces_backslashes_only_in_a_path() {
        let t = "see references\\guide.md now";
        assert_eq!(
            separator_fix(t, 4..23),
            Some((4..23, "references/guide.md".to_string()))
        );
        assert_eq!(separator_fix(t, 0..3), None);
        assert_eq!(separator_fix("a b\\c", 0..5), None);
    }

    #[test]
    fn only_a_separator_finding_has_a_safe_fix() {
        let text = "see references\\guide.md now";
        let span = crate::diag::Span {
            start: 4,
            end: 23,
            line: 1,
            col: 5,
            end_line: 1,
            end_col: 24,
        };
        let d = MISSING_FILE.diag("SKILL.md", "m").with_span(span);
        assert_eq!(
            safe_fix(&d.clone().with_label(SEPARATOR_LABEL), text),
            Some((4..23, "references/guide.md".into()))
        );
        assert_eq!(
            safe_fix(&d.with_label("no such file in the skill"), text),
            None
        );
    }

    #[test]
    fn paths_normalise_inside_the_folder() {
        assert_eq!(resolve("", "./a/../b/c.md").as_deref(), Some("b/c.md"));
        assert_eq!(resolve("", "../x.md"), None);
        assert_eq!(percent_decode("a%20b.md").as_deref(), Some("a b.md"));
        assert_eq!(percent_decode("a%2"), None);
    }
}
