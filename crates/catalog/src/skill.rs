//! One skill: its SKILL.md read once, split, and its frontmatter parsed into
//! a spanned tree with typed accessors for what clients read.

use super::frontmatter::{self, SplitError};
use super::source::Source;
use super::yaml::{Node, YamlErrorKind};
use crate::diag::{Diagnostic, Span};
use crate::grams::Grams;
use crate::rules::load as rules;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A string value from the frontmatter and where it is.
pub use syntax::Spanned;

/// The parsed frontmatter block.
#[derive(Debug, Clone)]
pub struct Frontmatter {
    /// Byte range of the YAML text in the file.
    pub yaml: std::ops::Range<usize>,
    /// Top-level entries in file order; spans are file offsets.
    pub entries: Vec<Entry>,
}

/// One top-level `key: value`.
#[derive(Debug, Clone)]
pub struct Entry {
    pub key: String,
    /// Span of the key.
    pub key_span: Span,
    /// The value node (offsets already shifted into the file).
    pub value: Node,
    /// Span from the value's first character to the end of that line; for a
    /// null value, the position right after the `:`.
    pub value_span: Span,
}

impl Frontmatter {
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// The last entry of `key`: the one a client whose YAML keeps the last
    /// of two equal keys reads.
    pub fn last(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.key == key)
    }

    /// The value of `key` when it is a string.
    pub fn str(&self, key: &str) -> Option<Spanned<&str>> {
        let e = self.get(key)?;
        e.value.as_str().map(|v| Spanned {
            value: v,
            span: e.value_span,
        })
    }
}

/// A SKILL.md and what was learned reading it.
#[derive(Debug, Clone)]
pub struct Skill {
    /// Path of SKILL.md relative to the catalog root, `/`-separated.
    pub file: String,
    /// The skill folder on disk.
    pub dir: PathBuf,
    /// The skill folder relative to the catalog root (`.` for a single skill).
    pub rel_dir: String,
    /// The folder's name.
    pub folder: String,
    /// The file's text; `None` when it was too large or unreadable.
    pub source: Option<Arc<Source>>,
    /// The frontmatter; `None` when it is missing or could not be parsed.
    pub frontmatter: Option<Frontmatter>,
    /// Byte offset where the Markdown body starts.
    pub body_start: usize,
    /// Files in the skill folder (relative, `/`-separated, sorted), SKILL.md
    /// and anything under `evals/` excluded.
    pub files: Vec<String>,
    /// Empty subfolders (relative to the skill folder).
    pub empty_dirs: Vec<String>,
    /// The folder has an `evals/` subfolder (where per-skill cases live).
    pub evals_dir: bool,
    /// Bytes dropped from the end of `source` once the skill was checked
    /// (see [`super::Catalog::load_with`]); 0 when the whole text is kept.
    /// The body then ends early.
    pub cut: usize,
    /// What SKILL.md held as read ([`crate::grams`]): lets a secret's
    /// value learnt after it was read be ruled out without reading it
    /// again. `None` when it was not read, read before any secret was
    /// found ([`crate::secrets::any_found`]), or past the filters' budget.
    pub grams: Option<Arc<Grams>>,
    /// The same of the other text files, once [`Skill::other_texts`] has
    /// read them.
    pub other_grams: OnceLock<Arc<Grams>>,
    /// The name Claude Code lists it under when it is a plugin's skill
    /// (`<plugin>:<skill>`, [`crate::Catalog::plugin_name`]), set once the
    /// catalog's units are known: a case file may name the skill so.
    pub listed_as: Option<String>,
}

/// A text file of a skill as the rules read one: a regular file (not a
/// link) of at most [`crate::MAX_TEXT_FILE`] bytes, UTF-8 without NUL.
pub fn read_text_file(path: &Path) -> Option<String> {
    let bytes = crate::read_text(path, crate::MAX_TEXT_FILE, false).ok()??;
    if memchr::memchr(0, &bytes).is_some() {
        return None;
    }
    String::from_utf8(bytes).ok()
}

impl Skill {
    /// The skill's text files besides SKILL.md, as [`read_text_file`]
    /// reads them, the first [`crate::MAX_TEXT_FILES`] in path order: each
    /// one's path (as in `files`) and text, secrets masked. What they
    /// held as read is kept in `other_grams`.
    pub fn other_texts(&self) -> Vec<(&str, Arc<Source>)> {
        let read: Vec<(&str, String)> = self
            .files
            .iter()
            .take(crate::MAX_TEXT_FILES)
            .filter_map(|rel| Some((rel.as_str(), read_text_file(&self.dir.join(rel))?)))
            .collect();
        if self.other_grams.get().is_none() && crate::secrets::any_found() {
            let texts: Vec<&[u8]> = read.iter().map(|(_, t)| t.as_bytes()).collect();
            if let Some(g) = Grams::of(&texts) {
                let _ = self.other_grams.set(Arc::new(g));
            }
        }
        read.into_iter()
            .map(|(rel, text)| (rel, Source::new(text)))
            .collect()
    }

    /// The `name` value when it is a string.
    pub fn name(&self) -> Option<&str> {
        self.frontmatter.as_ref()?.str("name").map(|s| s.value)
    }

    /// The `description` value when it is a string.
    pub fn description(&self) -> Option<&str> {
        self.frontmatter
            .as_ref()?
            .str("description")
            .map(|s| s.value)
    }

    /// `disable-model-invocation: true` (or `"true"`): Claude Code keeps
    /// the skill from the model, which never chooses it; only a user's
    /// `/name` runs it.
    pub fn model_never_chooses(&self) -> bool {
        self.frontmatter
            .as_ref()
            .and_then(|f| f.last("disable-model-invocation"))
            .is_some_and(|e| match e.value.as_str() {
                Some(s) => s == "true",
                None => matches!(e.value.scalar_text(), Some("true" | "True" | "TRUE")),
            })
    }

    /// The Markdown body (cut short when [`Skill::cut`] is not 0).
    pub fn body(&self) -> &str {
        match &self.source {
            Some(s) => &s.text[self.body_start.min(s.text.len())..],
            None => "",
        }
    }

    /// This skill as it reads with `text` as its SKILL.md (an edit made in
    /// memory: `check --fix`, `tune`), and the loading findings of that
    /// text. The folder, its files and its path are kept.
    pub fn reread(&self, text: &str) -> (Skill, Vec<Diagnostic>) {
        let mut s = self.clone();
        let mut diags = Vec::new();
        let (src, start) = decode(&s.file, text.as_bytes().to_vec(), &mut diags);
        let (fm, body) = parse_frontmatter(&s.file, &src, start, &mut diags);
        s.frontmatter = fm;
        s.body_start = body;
        s.source = Some(src);
        s.cut = 0;
        (s, diags)
    }

    /// 1-based line where the body starts.
    pub fn body_line(&self) -> u32 {
        match &self.source {
            Some(s) => s.index.line_col(&s.text, self.body_start).0,
            None => 1,
        }
    }
}

/// Decode bytes, reporting a BOM, invalid UTF-8, NUL bytes and line ends.
/// Returns the text and the offset where content starts (3 after a BOM).
pub fn decode(file: &str, bytes: Vec<u8>, diags: &mut Vec<Diagnostic>) -> (Arc<Source>, usize) {
    let bom = bytes.starts_with(&[0xEF, 0xBB, 0xBF]);
    let (src, bad) = Source::decode(bytes);
    if let Some(bad) = bad {
        diags.push(
            rules::INVALID_UTF8
                .diag(file, format!("invalid UTF-8 at byte {}", bad.start))
                .with_span(src.span(bad.start, bad.end))
                .with_label("not UTF-8")
                .with_help("re-save the file as UTF-8"),
        );
    }
    if let Some(at) = memchr::memchr(0, src.text.as_bytes()) {
        diags.push(
            rules::NUL_BYTE
                .diag(file, "file contains a NUL byte")
                .with_span(src.span(at, at + 1))
                .with_help("remove the NUL byte; the file must be plain text"),
        );
    }
    if bom {
        diags.push(
            rules::BOM
                .diag(file, "file starts with a UTF-8 byte order mark")
                .with_span(src.span(0, 3))
                .with_label("BOM")
                .with_help("save the file as UTF-8 without BOM; parsers that expect `---` (or a key) at byte 0 misread the file")
                .with_fix(crate::diag::Fix::new(
                    crate::diag::Applicability::Safe,
                    "remove the byte order mark",
                    0,
                    3,
                    "",
                )),
        );
    }
    line_endings(file, &src, diags);
    let start = if bom { 3 } else { 0 };
    (src, start)
}

fn line_endings(file: &str, src: &Source, diags: &mut Vec<Diagnostic>) {
    // Most files use LF only: one fast search settles it.
    if memchr::memchr(b'\r', src.text.as_bytes()).is_none() {
        return;
    }
    let b = src.text.as_bytes();
    let (mut crlf, mut cr, mut lf) = (0usize, 0usize, 0usize);
    let mut first_cr = None;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\r' if b.get(i + 1) == Some(&b'\n') => {
                crlf += 1;
                i += 1;
            }
            b'\r' => {
                cr += 1;
                first_cr.get_or_insert(i);
            }
            b'\n' => lf += 1,
            _ => {}
        }
        i += 1;
    }
    let kinds = [crlf > 0, cr > 0, lf > 0].iter().filter(|&&k| k).count();
    if cr > 0 || kinds > 1 {
        let at = first_cr.unwrap_or(0);
        diags.push(
            rules::LINE_ENDINGS
                .diag(
                    file,
                    format!("mixed or lone-CR line ends ({lf} LF, {crlf} CRLF, {cr} CR)"),
                )
                .with_severity(crate::diag::Severity::Warning)
                .with_span(src.span(at, at + 1))
                .with_help("convert the file to LF line ends"),
        );
    } else if crlf > 0 {
        diags.push(
            rules::LINE_ENDINGS
                .diag(file, "file uses CRLF line ends")
                .with_help("LF line ends give cleaner diffs; skillsift reads both"),
        );
    }
}

/// Split and parse the frontmatter of a decoded SKILL.md.
pub fn parse_frontmatter(
    file: &str,
    src: &Source,
    start: usize,
    diags: &mut Vec<Diagnostic>,
) -> (Option<Frontmatter>, usize) {
    let text = &src.text;
    let (split, tree) = match frontmatter::split(text, start) {
        Ok(x) => x,
        Err(e) => {
            let d = match e {
                SplitError::Missing => rules::MISSING_FRONTMATTER
                    .diag(file, "SKILL.md has no frontmatter block")
                    .with_span(src.line_span(src.index.line_col(text, start).0))
                    .with_help("start the file with `---`, then `name:` and `description:`, then a line `---`"),
                SplitError::NotAtStart { at } => rules::FRONTMATTER_NOT_AT_START
                    .diag(file, "frontmatter does not start at the first byte of the file")
                    .with_span(src.span(at, at + 3))
                    .with_label("clients read this as Markdown")
                    .with_help("remove everything before the opening `---`"),
                SplitError::BadOpening { at } => rules::FRONTMATTER_NOT_AT_START
                    .diag(file, "the opening `---` line has text after it")
                    .with_span(src.span(at, src.line_span(src.index.line_col(text, at).0).end))
                    .with_help("put `---` alone on the first line"),
                SplitError::Unclosed { open } => rules::UNCLOSED_FRONTMATTER
                    .diag(file, "frontmatter block is never closed")
                    .with_span(src.span(open, open + 3))
                    .with_label("opened here")
                    .with_help("add a line that is exactly `---` after the last frontmatter key"),
            };
            diags.push(d);
            return (None, start);
        }
    };
    let base = split.yaml.start;
    let tree = match tree {
        Ok(t) => t,
        Err(e) => {
            let at = base + e.offset;
            let rule = if e.kind == YamlErrorKind::Limit {
                &rules::YAML_LIMIT
            } else {
                &rules::YAML_SYNTAX
            };
            let (line, _) = src.index.line_col(text, at);
            let mut d = rule
                .diag(file, format!("invalid frontmatter YAML: {}", e.message))
                .with_span(src.span(at, at.max(src.line_span(line).end.min(at + 1))))
                .with_help(if e.kind == YamlErrorKind::Limit {
                    "write aliased values out and flatten deep nesting; frontmatter needs a few plain keys"
                        .to_string()
                } else if e.message.contains("found a tab") || e.message.contains("tab character") {
                    "indent with spaces, not tabs".to_string()
                } else {
                    "quote values that contain `: `, `#` or start with a special character"
                        .to_string()
                });
            // The commonest case in the wild: `key: text: more` — say which
            // key to quote, and how.
            if e.message.contains("mapping values are not allowed")
                && text[at..].starts_with(':')
                && let Some(key) = src
                    .index
                    .line_text(text, line)
                    .split_once(':')
                    .map(|(k, _)| k.trim().trim_start_matches("- ").trim())
                    .filter(|k| !k.is_empty() && !k.contains(' '))
            {
                d = d
                    .with_label("YAML reads this as a nested mapping")
                    .with_help(format!(
                        "wrap the value in quotes (`{key}: \"…\"`), or use a block scalar (`{key}: >-` with the text indented on the next lines)"
                    ));
            }
            // A value's next line written at column 0 ends the value, and
            // YAML then reads it as a key without its `:`: the error comes
            // a line or more later, so point at the line that caused it.
            if e.kind != YamlErrorKind::Limit
                && let Some((n, shown)) = unindented_continuation(src, text, split.yaml.clone(), at)
            {
                let span = src.line_span(n);
                d = d
                    .with_span(span)
                    .with_label("not indented: YAML reads this as a new key")
                    .with_help(format!(
                        "indent line {n} (`{shown}`) like the lines of the value it continues, or join it to the line above"
                    ));
            }
            // Its fix (an unquoted `: ` or an unterminated quote) is attached
            // by the lint layer: `lint::rules::portability::attach_load_fixes`.
            diags.push(d);
            return (None, split.body);
        }
    };
    for dup in &tree.duplicates {
        let first = src.span(base + dup.first, base + dup.first + dup.key.len());
        let second = src.span(base + dup.second, base + dup.second + dup.key.len());
        diags.push(
            rules::DUPLICATE_KEY
                .diag(
                    file,
                    format!(
                        "key `{}` appears twice (lines {} and {})",
                        dup.key, first.line, second.line
                    ),
                )
                .with_span(second)
                .with_label(format!("first defined on line {}", first.line))
                .with_help("keep one of the two; parsers disagree on which wins"),
        );
    }
    let entries = match tree.root {
        None => Vec::new(),
        Some(root) => match root.kind {
            super::yaml::Kind::Map(m) => m
                .into_iter()
                .map(|(k, v)| make_entry(src, base, k, v))
                .collect(),
            _ => {
                let at = base + root.start;
                diags.push(
                    rules::NOT_A_MAPPING
                        .diag(
                            file,
                            format!("frontmatter is a {}, not a mapping", root.type_name()),
                        )
                        .with_span(src.span(at, at + 1))
                        .with_help("write `key: value` lines, e.g. `name: my-skill`"),
                );
                return (None, split.body);
            }
        },
    };
    (
        Some(Frontmatter {
            yaml: split.yaml,
            entries,
        }),
        split.body,
    )
}

fn shift(node: &mut Node, base: usize) {
    node.start += base;
    node.end += base;
    match &mut node.kind {
        super::yaml::Kind::Scalar { .. } => {}
        super::yaml::Kind::Seq(items) => items.iter_mut().for_each(|n| shift(n, base)),
        super::yaml::Kind::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
            shift(k, base);
            shift(v, base);
        }),
    }
}

/// The line (1-based) and its text, cut at 40 characters, of the last
/// line at column 0 before the parse error at byte `at` that is neither a
/// key (`word:`), a list item, a comment nor blank, and follows a key
/// whose value it would continue: `description: >` then `  Fills forms.`
/// then `must be filled.`.
fn unindented_continuation(
    src: &Source,
    text: &str,
    yaml: std::ops::Range<usize>,
    at: usize,
) -> Option<(u32, String)> {
    let (first, _) = src.index.line_col(text, yaml.start);
    let (last, _) = src.index.line_col(text, at.min(text.len()));
    let is_key = |l: &str| {
        l.split_once(':').is_some_and(|(k, v)| {
            !k.is_empty()
                && !k.contains(char::is_whitespace)
                && (v.is_empty() || v.starts_with([' ', '\t']))
        })
    };
    let mut found = None;
    let mut after_value = false;
    for n in first..=last {
        let l = src.index.line_text(text, n).trim_end_matches('\r');
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        if l.starts_with([' ', '\t']) {
            after_value = true;
            continue;
        }
        if is_key(l) || l.starts_with("- ") || l.starts_with("---") {
            after_value = is_key(l);
            continue;
        }
        if after_value {
            let shown: String = match l.char_indices().nth(40) {
                Some((i, _)) => format!("{}…", &l[..i]),
                None => l.to_string(),
            };
            found = Some((n, shown));
        }
    }
    found
}

fn make_entry(src: &Source, base: usize, mut k: Node, mut v: Node) -> Entry {
    shift(&mut k, base);
    shift(&mut v, base);
    let key = k
        .scalar_text()
        .map(str::to_string)
        .unwrap_or_else(|| format!("<{}>", k.type_name()));
    let text = &src.text;
    let key_end = (k.start + key.len()).min(text.len());
    let key_span = src.span(k.start, key_end);
    let (kline, _) = src.index.line_col(text, k.start);
    let value_span = if v.is_null() {
        // point right after the colon
        let line_end = src.line_span(kline).end;
        let colon = text[key_end.min(line_end)..line_end]
            .find(':')
            .map(|i| key_end + i + 1)
            .unwrap_or(key_end);
        src.span(colon, colon)
    } else {
        let start = v.start.min(text.len());
        let (vline, _) = src.index.line_col(text, start);
        let end = src.line_span(vline).end.max(start);
        src.span(start, end)
    };
    Entry {
        key,
        key_span,
        value: v,
        value_span,
    }
}
