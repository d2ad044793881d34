//! Claude Code's reading of a catalog, as the installed CLI (2.1.197)
//! does it — each rule below was read from the CLI's own code and checked
//! against the real CLI (`tests/real_claude_listing.rs`):
//!
//! - **Discovery**: `<skills dir>/<folder>/SKILL.md`, one level only; a
//!   file over 1,000,000 bytes is skipped. The name the model sees is the
//!   folder's; the frontmatter `name` is only an alias of the `Skill` tool.
//! - **Split**: the frontmatter must start at byte 0 with `---` (then white
//!   space up to a line break) and ends at the **first `---` anywhere**
//!   after it, even mid-line (`/^---\s*\n([\s\S]*?)---\s*\n?/`). A BOM or
//!   a blank first line means no frontmatter.
//! - **YAML** (`Bun.YAML.parse`, here yaml-rust2 with Bun's core schema,
//!   see [`super::js::value`], and Bun's refusal of tabs in indentation):
//!   when it fails, one retry after double-quoting every `key: value` line
//!   whose value holds `: ` or one of ``{}[]*&#!|>%@` `` and turning
//!   leading tabs into two spaces each; when that fails too, the whole
//!   frontmatter is dropped. A frontmatter that is not a mapping is empty.
//! - **Values**: `description` a trimmed string, or a number or boolean as
//!   `String(v)`; otherwise the body's first non-empty line (`#`s
//!   stripped, cut to 97 units + `...` past 100), or `Skill` for an empty
//!   body. `when_to_use` (any non-null value, as `String(v)`) is appended
//!   after ` - `. The last of two equal keys wins.
//! - **Hidden**: `disable-model-invocation: true` (or `"true"`), and
//!   `paths:` naming any pattern other than `**` (conditional skills).
//! - **Entry**: `- <folder>: <text>`, the text cut to 1,535 UTF-16 units
//!   plus `…` when longer than 1,536 (a split surrogate pair reaches the
//!   API as U+FFFD).
//! - **Listing**: catalog skills sorted by `localeCompare` of their names
//!   (ICU root collation), then the built-in skills; a bundled built-in
//!   whose name a catalog skill has is dropped. When the whole listing is
//!   wider (in terminal columns, `Bun.stringWidth`) than the budget —
//!   1 % of the context window × characters per token, 30,000 for the
//!   default model (claude-opus-4-8: 1,000,000 tokens × 3) — bundled
//!   skills stay whole and the others, in listing order, keep their text
//!   while it fits; the rest show `- <name>` alone.

use super::js::{self, Value};
use super::{Budget, Builtin, Change, ChangeKind, Client, ClientId, Entry, Hidden, Listing};
use crate::catalog::units::Placement;
use crate::catalog::{Catalog, Skill, Source};
use crate::config::Config;
use crate::diag::Span;
use rayon::prelude::*;

/// The Claude Code version this model was checked against.
pub const TESTED_VERSION: &str = "2.1.197";
/// One entry's cap, in UTF-16 code units (`skillListingMaxDescChars`).
pub const ENTRY_CAP: usize = 1536;
/// The listing budget for the CLI's default model, in terminal columns.
pub const BUDGET: usize = 30_000;
/// Largest SKILL.md the CLI reads, in bytes.
pub const MAX_FILE_BYTES: u64 = 1_000_000;
/// How far below a skills directory the CLI looks for `<folder>/SKILL.md`.
pub const DEPTH: usize = 1;

/// Claude Code.
pub struct ClaudeCode;

/// Where the CLI's frontmatter regex puts the frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The YAML text.
    pub yaml: std::ops::Range<usize>,
    /// The closing `---`.
    pub close: usize,
    /// Where the body starts.
    pub body: usize,
}

/// `/^---\s*\n([\s\S]*?)---\s*\n?/` over `text`.
pub fn split(text: &str) -> Option<Split> {
    let rest = text.strip_prefix("---")?;
    // greedy `\s*` then `\n`: the last line break of the white-space run
    let run = rest.len() - rest.trim_start_matches(js::is_space).len();
    let nl = rest[..run].rfind('\n')?;
    let yaml_start = 3 + nl + 1;
    let close = yaml_start + text[yaml_start..].find("---")?;
    let after = close + 3;
    let body = after + (text[after..].len() - text[after..].trim_start_matches(js::is_space).len());
    Some(Split {
        yaml: yaml_start..close,
        close,
        body,
    })
}

/// What Bun's YAML parser refuses that yaml-rust2 lets through: a tab in
/// the indentation of a line that holds more than a comment (outside the
/// text of a block scalar past its indentation).
pub fn bun_refuses_tabs(yaml: &str) -> bool {
    let mut block: Option<(usize, Option<usize>)> = None; // (parent indent, content indent)
    for line in yaml.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[spaces..];
        if let Some((parent, content)) = block {
            let blank = rest.trim_matches([' ', '\t']).is_empty();
            match content {
                Some(n) if spaces >= n => continue,
                None if blank && !rest.starts_with('\t') => continue,
                None if !blank && spaces > parent && !rest.starts_with('\t') => {
                    block = Some((parent, Some(spaces)));
                    continue;
                }
                Some(_) if blank && !rest.starts_with('\t') => continue,
                _ => block = None,
            }
        }
        if rest.starts_with('\t') {
            let content = rest.trim_start_matches([' ', '\t']);
            if !content.is_empty() && !content.starts_with('#') {
                return true;
            }
            if content.is_empty() && block.is_some() {
                return true;
            }
        }
        // a block scalar starts after `key: |` / `- >-` …
        let code = rest.split(" #").next().unwrap_or(rest).trim_end();
        let indicator = code
            .rsplit_once([' ', ':'])
            .map_or(code, |(_, t)| t)
            .trim_start_matches([' ', '-']);
        if (code.ends_with(['|', '>']) || code.contains(": |") || code.contains(": >"))
            && indicator.starts_with(['|', '>'])
            && indicator[1..]
                .chars()
                .all(|c| c == '+' || c == '-' || c.is_ascii_digit())
        {
            block = Some((spaces, None));
        }
    }
    false
}

/// `Bun.YAML.parse(yaml)`, as far as skillsift reproduces it.
pub fn parse_yaml(yaml: &str) -> Result<Value, String> {
    if bun_refuses_tabs(yaml) {
        return Err("Tab characters cannot be used as indentation".into());
    }
    let tree = crate::catalog::yaml::parse(yaml).map_err(|e| e.message)?;
    Ok(tree.root.as_ref().map_or(Value::Null, js::value))
}

/// The CLI's YAML retry: every `key: value` line (a key of letters, `_`
/// and `-` at the start of the line) whose value is not already quoted,
/// not a flow sequence, and holds `: ` or one of ``{}[]*&#!|>%@` `` is
/// double-quoted; then leading tabs become two spaces each. Returns the
/// new text and the lines that were quoted (0-based).
pub fn retry_text(yaml: &str) -> (String, Vec<usize>) {
    let mut quoted = Vec::new();
    let lines: Vec<String> = yaml
        .split('\n')
        .enumerate()
        .map(|(n, line)| match retry_line(line) {
            Some(q) => {
                quoted.push(n);
                q
            }
            None => line.to_string(),
        })
        .collect();
    let joined = lines.join("\n");
    // `.replace(/^\t+/gm, …)`: `^` after any line terminator
    let mut out = String::with_capacity(joined.len());
    let mut at_start = true;
    for c in joined.chars() {
        if at_start && c == '\t' {
            out.push_str("  ");
            continue;
        }
        at_start = js::is_line_terminator(c);
        out.push(c);
    }
    (out, quoted)
}

/// `/^([a-zA-Z_-]+):\s+(.+)$/` and the quoting, for one line.
fn retry_line(line: &str) -> Option<String> {
    let key_len = line
        .bytes()
        .take_while(|b| b.is_ascii_alphabetic() || *b == b'_' || *b == b'-')
        .count();
    if key_len == 0 || line.as_bytes().get(key_len) != Some(&b':') {
        return None;
    }
    let after = &line[key_len + 1..];
    let value = after.trim_start_matches(js::is_space);
    if value.len() == after.len() || value.is_empty() || value.chars().any(js::is_line_terminator) {
        return None;
    }
    let (key, v) = (&line[..key_len], value);
    if (v.starts_with('"') && v.ends_with('"')) || (v.starts_with('\'') && v.ends_with('\'')) {
        return None;
    }
    if v.starts_with('[') && v.ends_with(']') && matches!(parse_yaml(v), Ok(Value::Array(_))) {
        return None;
    }
    let special = v.contains(": ")
        || v.contains([
            '{', '}', '[', ']', '*', '&', '#', '!', '|', '>', '%', '@', '`',
        ]);
    if !special {
        return None;
    }
    Some(format!(
        "{key}: \"{}\"",
        v.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// How the frontmatter fared.
#[derive(Debug, Clone, PartialEq)]
pub enum Frontmatter {
    /// Parsed (`retried`: only after the retry).
    Read { value: Value, retried: bool },
    /// None at all (no `---` at byte 0, or never closed).
    Absent,
    /// Split, but the YAML failed twice: ignored.
    Failed(String),
}

/// One SKILL.md as Claude Code reads it.
#[derive(Debug, Clone)]
pub struct Reading {
    pub frontmatter: Frontmatter,
    pub split: Option<Split>,
    /// The description the listing uses.
    pub description: String,
    pub when_to_use: Option<String>,
    /// `String(name)` when `name` is set.
    pub alias: Option<String>,
    pub hidden: Option<Hidden>,
    pub changes: Vec<Change>,
    /// Bytes of the text a later pass needs: Claude Code's frontmatter and
    /// the body line it shows when there is no description.
    pub needs: usize,
}

/// The span of the value on the last line of `range` starting `key:`.
fn key_span(src: &Source, range: &std::ops::Range<usize>, key: &str) -> Option<Span> {
    let text = &src.text;
    let mut found = None;
    let mut pos = range.start;
    for line in text[range.clone()].split_inclusive('\n') {
        let l = line.trim_end_matches(['\n', '\r']);
        if let Some(rest) = l.strip_prefix(key)
            && let Some(v) = rest.strip_prefix(':')
        {
            let lead = v.len() - v.trim_start().len();
            let start = pos + key.len() + 1 + lead;
            found = Some(src.span(start, (pos + l.len()).max(start)));
        }
        pos += line.len();
    }
    found
}

/// What Claude Code reads a file as: the two readers differ only where
/// the real CLI was seen to differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A SKILL.md.
    Skill,
    /// A Markdown slash command (`.claude/commands/**/*.md`): its text for
    /// an empty body is `Custom command`, and `paths:` does not hide it.
    Command,
}

/// Read one skill.
pub fn read(skill: &Skill) -> Reading {
    read_as(skill, Kind::Skill)
}

/// Read one SKILL.md or Markdown command as Claude Code does.
pub fn read_as(skill: &Skill, kind: Kind) -> Reading {
    let mut r = Reading {
        frontmatter: Frontmatter::Absent,
        split: None,
        description: String::new(),
        when_to_use: None,
        alias: None,
        hidden: None,
        changes: Vec::new(),
        needs: 0,
    };
    let Some(src) = skill.source.as_deref() else {
        let file = std::path::Path::new(&skill.file)
            .file_name()
            .unwrap_or(std::ffi::OsStr::new("SKILL.md"));
        r.hidden = Some(match std::fs::metadata(skill.dir.join(file)) {
            Ok(m) if m.len() > MAX_FILE_BYTES => Hidden::TooLarge {
                bytes: m.len(),
                limit: MAX_FILE_BYTES,
            },
            _ => Hidden::Unreadable,
        });
        return r;
    };
    let text = &src.text;
    let bytes = (text.len() + skill.cut) as u64;
    if bytes > MAX_FILE_BYTES {
        r.hidden = Some(Hidden::TooLarge {
            bytes,
            limit: MAX_FILE_BYTES,
        });
    }
    let split = split(text);
    // skillsift's own split, for comparison; the loaded frontmatter holds
    // it when it parsed
    let same = matches!((&split, &skill.frontmatter), (Some(sp), Some(fm)) if sp.yaml == fm.yaml);
    let strict = if same {
        Err(crate::catalog::frontmatter::SplitError::Missing)
    } else {
        crate::catalog::frontmatter::split(text, if text.starts_with('\u{feff}') { 3 } else { 0 })
    };
    let mut value = Value::Object(Vec::new());
    let content_start = match &split {
        None => {
            match &strict {
                Ok((s, _)) => {
                    let why = if text.starts_with('\u{feff}') {
                        "the file starts with a byte order mark"
                    } else {
                        "the frontmatter is never closed by `---`"
                    };
                    r.changes.push(Change::new(
                        ChangeKind::FrontmatterDropped,
                        Some(src.span(s.open, s.open + 3)),
                        format!("{why}: Claude Code sees no frontmatter and reads the whole file as the body"),
                    ));
                }
                Err(crate::catalog::frontmatter::SplitError::NotAtStart { at }) => {
                    r.changes.push(Change::new(
                        ChangeKind::FrontmatterDropped,
                        Some(src.span(*at, at + 3)),
                        "the frontmatter does not start at the first byte: Claude Code sees no frontmatter and reads the whole file as the body",
                    ));
                }
                Err(_) => {}
            }
            0
        }
        Some(sp) => {
            if let Ok((s, _)) = &strict
                && s.close.start != sp.close
                && sp.close < s.close.start
            {
                r.changes.push(Change::new(
                    ChangeKind::EndsEarly,
                    Some(src.span(sp.close, sp.close + 3)),
                    "Claude Code ends the frontmatter at this `---`, inside a value; everything after it is read as the body",
                ));
            }
            let yaml = &text[sp.yaml.clone()];
            let fast = match &skill.frontmatter {
                Some(fm) if same && !bun_refuses_tabs(yaml) => Some(Ok(js::object(
                    fm.entries.iter().map(|e| (e.key.clone(), true, &e.value)),
                ))),
                _ => None,
            };
            r.frontmatter = match fast.unwrap_or_else(|| parse_yaml(yaml)) {
                Ok(v) => Frontmatter::Read {
                    value: v,
                    retried: false,
                },
                Err(_) => {
                    let (again, quoted) = retry_text(yaml);
                    match parse_yaml(&again) {
                        Ok(v) => {
                            note_retry(&mut r, src, &sp.yaml, yaml, &quoted);
                            Frontmatter::Read {
                                value: v,
                                retried: true,
                            }
                        }
                        Err(e) => {
                            r.changes.push(Change::new(
                                ChangeKind::FrontmatterDropped,
                                Some(src.span(0, 3)),
                                "the frontmatter YAML fails to parse, also after Claude Code's retry (quoting values with `: `, tabs to spaces): Claude Code ignores the whole frontmatter",
                            ));
                            Frontmatter::Failed(e)
                        }
                    }
                }
            };
            if let Frontmatter::Read { value: v, .. } = &r.frontmatter {
                if matches!(v, Value::Object(_)) {
                    value = v.clone();
                } else if *v != Value::Null {
                    r.changes.push(Change::new(
                        ChangeKind::FrontmatterDropped,
                        Some(src.span(sp.yaml.start, sp.yaml.start)),
                        "the frontmatter is not a mapping: Claude Code reads it as empty",
                    ));
                }
            }
            r.split = Some(sp.clone());
            // the frontmatter Claude Code reads must survive the cut, even
            // where skillsift's own split ends elsewhere or finds none
            r.needs = sp.body;
            sp.body
        }
    };
    let yaml_range = r.split.as_ref().map(|s| s.yaml.clone()).unwrap_or(0..0);

    // description
    let written = value.get("description");
    let from_frontmatter = match written {
        Some(Value::String(s)) => Some(js::trim(s).to_string()).filter(|s| !s.is_empty()),
        Some(v @ (Value::Number(_) | Value::Bool(_))) => {
            let shown = v.to_js_string();
            let span = key_span(src, &yaml_range, "description");
            let raw = span.map(|s| text[s.start..s.end].trim().to_string());
            if raw.as_deref() != Some(shown.as_str()) {
                r.changes.push(Change::new(
                    ChangeKind::NotAString,
                    span,
                    format!(
                        "`description` is a {}; Claude Code shows it as `{shown}`",
                        if matches!(v, Value::Bool(_)) {
                            "boolean"
                        } else {
                            "number"
                        }
                    ),
                ));
            }
            Some(shown)
        }
        _ => None,
    };
    r.description = match from_frontmatter {
        Some(d) => d,
        None => {
            let (mut line, at) = body_line(&text[content_start..]);
            if at.is_none() && kind == Kind::Command {
                line = "Custom command".to_string();
            }
            r.needs = r.needs.max(content_start + at.map_or(0, |(_, end)| end));
            let span = at.map(|(s, e)| src.span(content_start + s, content_start + e));
            r.changes.push(Change::new(
                ChangeKind::FromBody,
                span,
                match &span {
                    Some(_) => format!("Claude Code has no description to show, so it shows the body's first line: `{line}`"),
                    None => format!("Claude Code has no description to show and the body is empty, so it shows `{line}`"),
                },
            ));
            line
        }
    };
    if let Some(w) = value
        .get("when_to_use")
        .filter(|v| Value::is_present(Some(v)))
    {
        let s = w.to_js_string();
        if !s.is_empty() {
            if !matches!(w, Value::String(_)) {
                r.changes.push(Change::new(
                    ChangeKind::NotAString,
                    key_span(src, &yaml_range, "when_to_use"),
                    format!("`when_to_use` is not a string; Claude Code shows it as `{s}`"),
                ));
            }
            r.changes.push(Change::new(
                ChangeKind::WhenToUse,
                key_span(src, &yaml_range, "when_to_use"),
                "`when_to_use` is appended after ` - `",
            ));
            r.when_to_use = Some(s);
        }
    }
    if let Some(n) = value.get("name").filter(|v| Value::is_present(Some(v))) {
        r.alias = Some(n.to_js_string());
    }
    // the last of two equal keys wins
    if let Some(fm) = &skill.frontmatter
        && let Frontmatter::Read { retried: false, .. } = &r.frontmatter
    {
        for key in ["description", "when_to_use"] {
            let all: Vec<_> = fm.entries.iter().filter(|e| e.key == key).collect();
            if all.len() > 1 {
                let (first, last) = (all[0], all[all.len() - 1]);
                if first.value.as_str() != last.value.as_str() {
                    r.changes.push(Change::new(
                        ChangeKind::LastDuplicate,
                        Some(last.value_span),
                        format!("`{key}` appears twice; Claude Code uses this last one, the specification's readers often the first"),
                    ));
                }
            }
        }
    }
    if r.hidden.is_none() {
        r.hidden = hidden(&value, src, &yaml_range, kind);
    }
    r
}

/// Changes the retry made to the values the listing shows.
fn note_retry(
    r: &mut Reading,
    src: &Source,
    range: &std::ops::Range<usize>,
    yaml: &str,
    quoted: &[usize],
) {
    let mut pos = range.start;
    for (n, line) in yaml.split('\n').enumerate() {
        let start = pos;
        pos += line.len() + 1;
        if !quoted.contains(&n) {
            continue;
        }
        let Some((key, v)) = line.split_once(':') else {
            continue;
        };
        if key != "description" && key != "when_to_use" {
            continue;
        }
        let v = v.trim_start_matches(js::is_space);
        let vstart = start + line.len() - v.len();
        let v = v.trim_end_matches('\r');
        let what = if v.contains(" #") {
            Some(format!("the comment after ` #` becomes part of `{key}`"))
        } else if v.starts_with(['|', '>'])
            && v[1..].chars().all(|c| matches!(c, '+' | '-' | '0'..='9'))
        {
            Some(format!(
                "`{key}` becomes the text `{v}`: the block scalar's lines are lost"
            ))
        } else if v.starts_with(['"', '\'']) {
            Some(format!("the unmatched quote stays in `{key}`"))
        } else if v.starts_with(['&', '*', '!']) {
            Some(format!("the `{}` stays in `{key}` as text", &v[..1]))
        } else {
            None
        };
        if let Some(what) = what {
            r.changes.push(Change::new(
                ChangeKind::RetryChanged,
                Some(src.span(vstart, vstart + v.len())),
                format!("the frontmatter fails to parse; Claude Code retries with this value quoted, and {what}"),
            ));
        }
    }
}

/// `disable-model-invocation` and `paths`.
fn hidden(
    value: &Value,
    src: &Source,
    range: &std::ops::Range<usize>,
    kind: Kind,
) -> Option<Hidden> {
    if matches!(
        value.get("disable-model-invocation"),
        Some(Value::Bool(true))
    ) || matches!(value.get("disable-model-invocation"), Some(Value::String(s)) if s == "true")
    {
        return Some(Hidden::DisableModelInvocation {
            span: key_span(src, range, "disable-model-invocation"),
        });
    }
    if kind == Kind::Command {
        return None;
    }
    let patterns: Vec<String> = value
        .get("paths")
        .map(path_patterns)
        .unwrap_or_default()
        .into_iter()
        .map(|p| p.strip_suffix("/**").map(str::to_string).unwrap_or(p))
        .filter(|p| !p.is_empty())
        .collect();
    if patterns.is_empty() || patterns.iter().all(|p| p == "**") {
        return None;
    }
    Some(Hidden::Conditional {
        span: key_span(src, range, "paths"),
        patterns,
    })
}

/// The CLI's reading of `paths`: strings (arrays flattened) split at
/// commas outside braces, trimmed, `{a,b}` expanded.
fn path_patterns(v: &Value) -> Vec<String> {
    match v {
        Value::Array(items) => items.iter().flat_map(path_patterns).collect(),
        Value::String(s) => {
            let mut parts = Vec::new();
            let (mut cur, mut depth) = (String::new(), 0i32);
            for c in s.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        cur.push(c)
                    }
                    '}' => {
                        depth -= 1;
                        cur.push(c)
                    }
                    ',' if depth == 0 => {
                        let t = js::trim(&cur).to_string();
                        if !t.is_empty() {
                            parts.push(t);
                        }
                        cur.clear();
                    }
                    _ => cur.push(c),
                }
            }
            let t = js::trim(&cur).to_string();
            if !t.is_empty() {
                parts.push(t);
            }
            parts.into_iter().flat_map(|p| expand(&p)).collect()
        }
        _ => Vec::new(),
    }
}

/// `/^([^{]*)\{([^}]+)\}(.*)$/` expanded recursively.
fn expand(p: &str) -> Vec<String> {
    let Some(open) = p.find('{') else {
        return vec![p.to_string()];
    };
    let Some(close) = p[open..]
        .find('}')
        .map(|i| open + i)
        .filter(|&c| c > open + 1)
    else {
        return vec![p.to_string()];
    };
    let (pre, inner, post) = (&p[..open], &p[open + 1..close], &p[close + 1..]);
    inner
        .split(',')
        .flat_map(|a| expand(&format!("{pre}{}{post}", js::trim(a))))
        .collect()
}

/// The CLI's description fallback: the first non-empty line (split at
/// `\n`, trimmed), without a leading `# `-style heading marker, cut to 97
/// UTF-16 units + `...` when longer than 100; `Skill` when there is none.
/// Also the line's byte range in `body`.
pub fn body_line(body: &str) -> (String, Option<(usize, usize)>) {
    let mut pos = 0;
    for line in body.split('\n') {
        let start = pos;
        pos += line.len() + 1;
        let t = js::trim(line);
        if t.is_empty() {
            continue;
        }
        let hashes = t.len() - t.trim_start_matches('#').len();
        let mut shown = t;
        if hashes > 0 {
            let after = &t[hashes..];
            let sp = after.len() - after.trim_start_matches(js::is_space).len();
            let heading = &after[sp..];
            if sp > 0 && !heading.is_empty() && !heading.chars().any(js::is_line_terminator) {
                shown = heading;
            }
        }
        let off = start + (line.len() - line.trim_start_matches(js::is_space).len());
        let shown = if js::len16(shown) > 100 {
            format!("{}...", js::slice16(shown, 97).0)
        } else {
            shown.to_string()
        };
        return (shown, Some((off, off + t.len())));
    }
    ("Skill".to_string(), None)
}

/// Terminal columns of a listing line, as `Bun.stringWidth` with
/// `ambiguousIsNarrow` counts them.
pub fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// ICU root collation, as `String.prototype.localeCompare` in the CLI.
pub fn collate(names: &mut [(String, usize)]) {
    let mut c = feruca::Collator::new(feruca::Tailoring::Cldr(feruca::Locale::Root), false, true);
    names.sort_by(|a, b| c.collate(&a.0, &b.0));
}

impl Client for ClaudeCode {
    fn builtin_skills(&self) -> &'static [&'static str] {
        &[
            "code-review",
            "verify",
            "simplify",
            "update-config",
            "deep-research",
            "debug",
            "loop",
            "security-review",
            "review",
            "init",
            "pr-comments",
        ]
    }

    fn id(&self) -> ClientId {
        ClientId::ClaudeCode
    }

    fn line(&self, name: &str, text: &str) -> String {
        if text.is_empty() {
            format!("- {name}")
        } else {
            format!("- {name}: {text}")
        }
    }

    fn listing(&self, catalog: &Catalog, config: &Config, builtins: Option<&[Builtin]>) -> Listing {
        let cap = config.route.entry_cap_chars.unwrap_or(ENTRY_CAP).max(1);
        // a library or a marketplace is never installed whole: no budget
        // unless one is set
        let limit = match config.route.listing_budget_chars {
            Some(b) => b,
            None if !crate::install::installed_whole(catalog, config) => usize::MAX,
            None => BUDGET,
        };
        let outer = outer_skills(catalog);
        let build = |skills: &[Skill], kind: Kind| -> Vec<Entry> {
            (skills.par_iter().enumerate())
                .map(|(i, skill)| {
                    self.entry(catalog, &outer, i, skill, read_as(skill, kind), cap, kind)
                })
                .collect()
        };
        let mut entries = build(&catalog.skills, Kind::Skill);
        let mut commands = build(&catalog.claude_commands, Kind::Command);
        // the listing's order: catalog skills by name, then the commands
        // by name, then built-ins; (is a command, index)
        let sorted = |entries: &[Entry], command: bool| {
            let mut order: Vec<(String, usize)> = entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.listed)
                .map(|(i, e)| (e.name.clone(), i))
                .collect();
            collate(&mut order);
            order.into_iter().map(move |(_, i)| (command, i))
        };
        // a plugin's skills follow the project's (measured on 2.1.197:
        // plugins in the order loaded, each its `skills/` folder by name,
        // then the folders its manifest names, in the manifest's order)
        let rank_of = |i: usize| plugin_rank(catalog, entries[i].skill);
        let skills_sorted: Vec<(bool, usize)> = sorted(&entries, false).collect();
        let project: Vec<(bool, usize)> = (skills_sorted.iter())
            .filter(|k| rank_of(k.1).is_none())
            .copied()
            .collect();
        let mut plugin: Vec<(bool, usize)> = (skills_sorted.iter())
            .filter(|k| rank_of(k.1).is_some())
            .copied()
            .collect();
        plugin.sort_by_cached_key(|k| rank_of(k.1));
        let order: Vec<(bool, usize)> = project
            .into_iter()
            .chain(plugin)
            .chain(sorted(&commands, true))
            .collect();
        let at = |&(command, i): &(bool, usize)| {
            if command { &commands[i] } else { &entries[i] }
        };
        let names: std::collections::HashSet<&str> =
            order.iter().map(|k| at(k).name.as_str()).collect();
        let shown_builtins: Vec<Builtin> = builtins
            .unwrap_or(&[])
            .iter()
            .filter(|b| !(b.fixed && names.contains(b.name.as_str())))
            .cloned()
            .collect();
        // the budget: (line, fixed, name-only line)
        let mut lines: Vec<(String, bool, String)> = order
            .iter()
            .map(|k| (at(k).line.clone(), false, self.line(&at(k).name, "")))
            .collect();
        lines.extend(
            shown_builtins
                .iter()
                .map(|b| (self.line(&b.name, &b.text), b.fixed, self.line(&b.name, ""))),
        );
        // each line's width, and its width by name only
        let widths: Vec<(usize, usize)> = lines
            .par_iter()
            .map(|l| (width(&l.0), width(&l.2)))
            .collect();
        let used = widths.iter().map(|w| w.0).sum::<usize>() + lines.len().saturating_sub(1);
        let mut keep = vec![true; lines.len()];
        if used > limit && lines.iter().any(|l| !l.1) {
            let base = (lines.iter().zip(&widths))
                .map(|(l, w)| if l.1 { w.0 } else { w.1 })
                .sum::<usize>()
                + lines.len().saturating_sub(1);
            let mut room = limit as i64 - base as i64;
            for (k, (l, w)) in lines.iter().zip(&widths).enumerate() {
                if l.1 {
                    continue;
                }
                let extra = w.0 as i64 - w.1 as i64;
                if extra <= room {
                    room -= extra;
                } else {
                    keep[k] = false;
                }
            }
        }
        for (k, &(command, i)) in order.iter().enumerate() {
            if !keep[k] {
                let e = if command {
                    &mut commands[i]
                } else {
                    &mut entries[i]
                };
                e.changes.push(Change::new(
                    ChangeKind::NameOnly,
                    None,
                    format!(
                        "the listing is {used} columns, over Claude Code's {limit}-column budget: this {} is shown by name only",
                        if command { "command" } else { "skill" }
                    ),
                ));
                e.name_only = true;
                e.text.clear();
                e.line = self.line(&e.name, "");
            }
        }
        let in_order = |entries: Vec<Entry>, command: bool| {
            let mut entries: Vec<Option<Entry>> = entries.into_iter().map(Some).collect();
            let mut out: Vec<Entry> = order
                .iter()
                .filter(|k| k.0 == command)
                .filter_map(|&(_, i)| entries[i].take())
                .collect();
            out.extend(entries.into_iter().flatten().filter(|e| !e.listed));
            out
        };
        let entries_out = in_order(entries, false);
        let commands_out = in_order(commands, true);
        let builtins_out = shown_builtins
            .into_iter()
            .zip(keep[order.len()..].iter())
            .map(|(mut b, &k)| {
                if !k {
                    b.text.clear();
                }
                b
            })
            .collect();
        Listing {
            client: ClientId::ClaudeCode,
            entries: entries_out,
            commands: commands_out,
            builtins: builtins_out,
            budget: (limit != usize::MAX).then_some(Budget {
                used,
                limit,
                unit: "columns",
            }),
        }
    }
}

impl ClaudeCode {
    /// The entry of the `i`th skill (or command) of its kind, as `r` reads
    /// it: hidden when too deep (a skill), `when_to_use` joined, cut at
    /// `cap` UTF-16 units.
    #[allow(clippy::too_many_arguments)]
    fn entry(
        &self,
        catalog: &Catalog,
        outer: &[Option<String>],
        i: usize,
        skill: &Skill,
        r: Reading,
        cap: usize,
        kind: Kind,
    ) -> Entry {
        let mut hidden = r.hidden.clone();
        if kind == Kind::Skill && catalog.target == crate::catalog::Target::Catalog {
            let plugin = catalog
                .unit_of_skill(skill)
                .filter(|u| u.kind == crate::catalog::units::UnitKind::Plugin);
            let place = |hidden: &mut Option<Hidden>| {
                if let Some(outer) = outer.get(i).cloned().flatten() {
                    *hidden = Some(Hidden::InsideSkill { outer });
                    return;
                }
                match plugin.map(|u| u.place(&skill.rel_dir)) {
                    Some(Placement::Hidden(why)) => *hidden = Some(Hidden::InPlugin { why }),
                    Some(_) => {}
                    None => {
                        if let Some((d, root)) = super::depth(skill, catalog)
                            && d > DEPTH
                        {
                            *hidden = Some(Hidden::TooDeep {
                                depth: d,
                                root,
                                limit: DEPTH,
                            });
                        }
                    }
                }
            };
            place(&mut hidden);
        }
        let mut changes = r.changes;
        let mut text = match &r.when_to_use {
            Some(w) => format!("{} - {w}", r.description),
            None => r.description.clone(),
        };
        if js::len16(&text) > cap {
            let (kept, at, split) = js::slice16(&text, cap - 1);
            let lost: String = text[at..].chars().collect();
            let span = skill
                .frontmatter
                .as_ref()
                .and_then(|f| f.entries.iter().rev().find(|e| e.key == "description"))
                .map(|e| e.value_span);
            let preview: String = lost.chars().take(60).collect();
            changes.push(Change::new(
                ChangeKind::Cut,
                span,
                format!(
                    "the entry is {} UTF-16 units; Claude Code keeps {} and adds `…`, so {} are lost, from \"{}{}\"",
                    js::len16(&text),
                    cap - 1,
                    js::len16(&lost),
                    preview.trim_end(),
                    if lost.chars().count() > 60 { "…" } else { "" }
                ),
            ));
            if split {
                changes.push(Change::new(
                    ChangeKind::SurrogateSplit,
                    span,
                    format!(
                        "the cut at {} UTF-16 units splits `{}` in two; the model receives U+FFFD (�) in its place",
                        cap - 1,
                        lost.chars().next().unwrap_or(' ')
                    ),
                ));
            }
            text = format!("{kept}…");
        }
        let name = listed_name(catalog, skill, kind);
        let line = self.line(&name, &text);
        Entry {
            name,
            kind: match kind {
                Kind::Skill => super::EntryKind::Skill,
                Kind::Command => super::EntryKind::Command,
            },
            path: skill.file.clone(),
            skill: i,
            listed: hidden.is_none(),
            reason: hidden,
            text,
            name_only: false,
            line,
            description: skill.description().map(|d| d.trim().to_string()),
            alias: match kind {
                Kind::Skill => r.alias.filter(|a| *a != skill.folder),
                // a command answers to its path's name only
                Kind::Command => None,
            },
            changes,
        }
    }
}

/// The name Claude Code lists a skill under: its folder's, and for a skill
/// of a plugin ([`crate::catalog::units`]) `<plugin>:<folder>`, as Claude
/// Code names an installed plugin's skills. A pack's skills are copied
/// into the project's skills folder, so they keep their folder's name.
pub fn listed_name(catalog: &Catalog, skill: &Skill, kind: Kind) -> String {
    match kind {
        Kind::Skill => catalog
            .plugin_name(skill)
            .unwrap_or_else(|| skill.folder.clone()),
        Kind::Command => skill.folder.clone(),
    }
}

/// Where a plugin's skill comes in Claude Code's listing, after the
/// project's skills: (plugin, 0 for its `skills/` folder or 1 + the
/// position of the manifest folder holding it). Stable-sorted after the
/// listing's name order, so a folder's skills keep that order. `None`
/// for a skill of no plugin.
fn plugin_rank(catalog: &Catalog, i: usize) -> Option<(usize, usize)> {
    let k = catalog.unit_of(i)?;
    let u = &catalog.units[k];
    if u.kind != crate::catalog::units::UnitKind::Plugin {
        return None;
    }
    let rel = catalog.skills[i].rel_dir.as_str();
    let folder = rel.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
    let at = u
        .extra
        .iter()
        .position(|e| e == rel || e == folder)
        .map(|p| p + 1)
        .unwrap_or(0);
    Some((k, at))
}

/// For each skill of `catalog` (by index), the skill folder holding it
/// when it sits inside another skill (only a catalog folder has them).
pub fn outer_skills(catalog: &Catalog) -> Vec<Option<String>> {
    if catalog.target != crate::catalog::Target::Catalog {
        return vec![None; catalog.skills.len()];
    }
    let dirs: std::collections::HashSet<&str> =
        catalog.skills.iter().map(|s| s.rel_dir.as_str()).collect();
    catalog
        .skills
        .iter()
        .map(|s| crate::catalog::outer_skill(&s.rel_dir, &dirs, &catalog.units).map(str::to_string))
        .collect()
}
