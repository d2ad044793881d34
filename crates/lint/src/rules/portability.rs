//! Frontmatter that strict YAML parsers used by other clients refuse:
//! unquoted `: ` in plain values, tabs in indentation, unterminated quotes.
//! In every SKILL.md, and (through [`check_frontmatter`]) in the
//! frontmatter of `.claude/commands/*.md`.

use super::context::SkillCtx;
use super::fixes;
use super::load::{YAML_LIMIT, YAML_SYNTAX};
use super::yaml_lines::{Issue, QuoteEnd, scan};
use crate::catalog::Source;
use crate::diag::Diagnostic;
use crate::diag::Span;
use crate::diag::{Applicability, Fix};
use crate::rule;

rule! {
    /// ## What it does
    /// Reports `: ` (or a `:` ending the line) inside an unquoted value,
    /// pointing at the colon. YAML reads it as the start of a nested
    /// mapping, so the frontmatter does not parse. Every such spot is
    /// reported, not only the first one the parser stops at (that one is
    /// SG013, and is not repeated here).
    ///
    /// ## Why is this bad?
    /// Every client that parses the frontmatter as YAML rejects the whole
    /// skill; Cursor, for one, fails the request.
    ///
    /// ## Example
    /// ```yaml
    /// description: Use this skill when: tests fail      # breaks
    /// description: "Use this skill when: tests fail"    # works
    /// description: >-
    ///   Use this skill when: tests fail                 # works
    /// ```
    ///
    /// ## Fix
    /// Safe fix: double-quote the whole value (a single-line value of a
    /// SKILL.md), so every client reads the text as written.
    pub static UNQUOTED_COLON = ("SG111", "unquoted-colon", Error, "unquoted `: ` in a frontmatter value");
}

rule! {
    /// ## What it does
    /// Reports a tab in the indentation of a frontmatter line: before a key,
    /// a comment, on a blank line between keys, or where a block scalar's
    /// indentation is expected. Tabs after the indentation of a block scalar
    /// and inside flow collections (`[a,\tb]`) are fine.
    ///
    /// ## Why is this bad?
    /// YAML forbids tabs in indentation. Some parsers (yaml-rust2, which
    /// skillsift uses) let a few cases pass, but libyaml and its ports —
    /// Ruby's Psych, Go's yaml.v3, PyYAML — reject the whole frontmatter.
    ///
    /// ## Fix
    /// Safe fix: replace the tab with the frontmatter's own indentation
    /// step (its smallest indentation in spaces, else two spaces), in a
    /// SKILL.md.
    pub static TAB_INDENTATION = ("SG112", "tab-indentation", Error, "tab in the indentation of a frontmatter line");
}

rule! {
    /// ## What it does
    /// Reports a value that opens with `"` or `'` and is not closed on its
    /// line nor validly continued: the next lines are not indented as a
    /// continuation must be, a `---` line comes first, or the frontmatter
    /// ends. A quoted value that spans several properly indented lines is
    /// valid YAML and is not reported.
    ///
    /// ## Why is this bad?
    /// The parser reads the rest of the frontmatter as part of the string,
    /// or fails. Splitters such as gray-matter end the frontmatter at the
    /// first `---` line, even inside a quoted value.
    ///
    /// ## Example
    /// ```yaml
    /// description: "Fill PDF forms.
    /// name: pdf-forms          # not indented: the quote never closes
    /// ```
    ///
    /// ## Fix
    /// Safe fix, where it is unambiguous: the value is on one line with no
    /// quote or backslash after the opening one, and the next line is a new
    /// key (or the frontmatter ends): close the quote at the end of the
    /// line.
    pub static UNTERMINATED_QUOTE = ("SG113", "unterminated-quote", Error, "quoted frontmatter value is never closed");
}

/// A frontmatter block as these rules read it: a SKILL.md's or a
/// `.claude/commands/*.md` command's.
pub struct Frontmatter<'a> {
    pub file: &'a str,
    pub src: &'a Source,
    /// The YAML between the delimiters, when it parsed.
    pub parsed: Option<std::ops::Range<usize>>,
    /// Where the body starts (after the closing `---`).
    pub body_start: usize,
    /// The YAML failed to parse (SG013/SG014 while loading).
    pub failed: bool,
    /// Attach fixes (a SKILL.md, which `--fix` rewrites).
    pub fixable: bool,
    /// Byte offsets of those YAML errors, so the same spot is not
    /// reported twice.
    pub error_spots: &'a [usize],
}

/// Whether a file's YAML failed to parse, and where, from the findings
/// made while loading it (SG013, SG014).
pub fn yaml_errors<'d>(load: impl IntoIterator<Item = &'d Diagnostic>) -> (bool, Vec<usize>) {
    let mut failed = false;
    let mut spots = Vec::new();
    for d in load {
        if d.rule == YAML_SYNTAX.id || d.rule == YAML_LIMIT.id {
            failed = true;
            spots.extend(d.span.map(|s| s.start));
        }
    }
    (failed, spots)
}

impl Frontmatter<'_> {
    fn span(&self, start: usize, end: usize) -> Span {
        self.src.span(start, end)
    }
}

/// Byte range of the YAML between the delimiters, also when it did not
/// parse (the loader then keeps no frontmatter, but the body still starts
/// after the closing `---`).
fn yaml_range(s: &Frontmatter) -> Option<std::ops::Range<usize>> {
    if let Some(yaml) = &s.parsed {
        return Some(yaml.clone());
    }
    if !s.failed {
        return None;
    }
    let text = &s.src.text;
    let open = if text.starts_with('\u{feff}') { 3 } else { 0 };
    if !text[open..].starts_with("---") {
        return None;
    }
    let first_end = super::markdown::split_lines(text, open).next()?.1;
    let yaml_start = match &text.as_bytes()[first_end..] {
        [b'\r', b'\n', ..] => first_end + 2,
        [_, ..] => first_end + 1,
        [] => return None,
    };
    // The closing line is exactly `---`, just before the body.
    let mut e = s.body_start.min(text.len());
    let head = &text[..e];
    if head.ends_with("\r\n") {
        e -= 2;
    } else if head.ends_with(['\n', '\r']) {
        e -= 1;
    }
    let close = text[..e].strip_suffix("---").map(|t| t.len())?;
    (close >= yaml_start).then_some(yaml_start..close)
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    check_frontmatter(
        &Frontmatter {
            file: s.file(),
            src: s.src,
            parsed: s.fm.map(|f| f.yaml.clone()),
            body_start: s.skill.body_start,
            failed: s.yaml_failed,
            fixable: true,
            error_spots: &s.yaml_error_spots,
        },
        out,
    );
}

/// The YAML spots of one frontmatter block that strict parsers refuse.
pub fn check_frontmatter(s: &Frontmatter, out: &mut Vec<Diagnostic>) {
    let Some(range) = yaml_range(s) else { return };
    let failed = s.failed;
    let reported = |at: usize| s.error_spots.contains(&at);
    for issue in scan(&s.src.text, range.start, range.end) {
        match issue {
            // Where the YAML parsed, no plain scalar holds `: `: the scan
            // only adds the spots after the one the parser stopped at.
            Issue::Colon { at, key } if failed && !reported(at) => {
                let fix = s
                    .fixable
                    .then(|| colon_fix(&s.src.text, at, range.end))
                    .flatten();
                let key = key.as_deref().unwrap_or("description");
                let mut d = UNQUOTED_COLON
                    .diag(s.file, "unquoted `: ` in a frontmatter value")
                    .with_span(s.span(at, at + 1))
                    .with_label("YAML reads this as a nested mapping")
                    .with_help(format!(
                        "wrap the value in quotes (`{key}: \"…\"`), or use a block scalar (`{key}: >-` with the text indented on the next lines)"
                    ));
                d.fix = fix.map(Box::new);
                out.push(d);
            }
            Issue::Tab { at } if !reported(at) => {
                let mut d = TAB_INDENTATION
                    .diag(s.file, "tab in the indentation of a frontmatter line")
                    .with_span(s.span(at, at + 1))
                    .with_label("tab")
                    .with_help("indent with spaces: libyaml and its ports (Ruby's Psych, Go's yaml.v3, PyYAML) reject tabs here");
                if s.fixable {
                    let unit = fixes::indent_unit(&s.src.text, range.start, range.end);
                    d = d.with_fix(Fix::new(
                        Applicability::Safe,
                        format!("indent with {unit} spaces instead of a tab"),
                        at,
                        at + 1,
                        " ".repeat(unit),
                    ));
                }
                out.push(d);
            }
            Issue::Quote {
                at,
                quote,
                end,
                key,
            } if (failed || matches!(end, QuoteEnd::Unindented { marker: true, .. }))
                && !reported(at) =>
            {
                let kind = if quote == '"' { "double" } else { "single" };
                let message = match end {
                    QuoteEnd::Eof => {
                        format!("the {kind} quote opening this value is never closed")
                    }
                    QuoteEnd::Unindented { line_start, marker } => {
                        let line = s.src.index.line_col(&s.src.text, line_start).0;
                        if marker {
                            format!(
                                "the {kind} quote opening this value is not closed before line {line}, a `---` line that ends the frontmatter in other clients"
                            )
                        } else {
                            format!(
                                "the {kind} quote opening this value is not closed on its line, and line {line} is not indented as a continuation"
                            )
                        }
                    }
                };
                let fix = s
                    .fixable
                    .then(|| quote_fix(&s.src.text, at, quote, end, range.end))
                    .flatten();
                let key = key.as_deref().unwrap_or("description");
                let mut d = UNTERMINATED_QUOTE
                    .diag(s.file, message)
                    .with_span(s.span(at, at + 1))
                    .with_label("opened here")
                    .with_help(format!(
                        "close the quote on the same line, indent the continuation lines, or use a block scalar (`{key}: >-`)"
                    ));
                d.fix = fix.map(Box::new);
                out.push(d);
            }
            _ => {}
        }
    }
}

/// The repair a fix of the top-level `key` may make: the clients now read
/// `text` as its value.
fn repairing(fix: Fix, indent: usize, key: &str, text: &str) -> Fix {
    match (indent, key) {
        (0, "description") => fix.repairing_description(text),
        (0, "name") => fix.repairing_name(text),
        _ => fix,
    }
}

/// Quote the single-line plain value holding the colon at `at`.
fn colon_fix(text: &str, at: usize, yaml_end: usize) -> Option<Fix> {
    let (ls, le) = fixes::line_bounds(text, at);
    let v = fixes::plain_value(text, ls, le, yaml_end)?;
    if !(v.start..v.end).contains(&at) {
        return None;
    }
    let value = &text[v.start..v.end];
    // a ` #` comment after the value stays a comment
    let value = match value.find(" #").or_else(|| value.find("\t#")) {
        Some(c) if c > at - v.start => value[..c].trim_end(),
        _ => value,
    };
    let fix = Fix::new(
        Applicability::Safe,
        format!("quote the value of `{}`", v.key),
        v.start,
        v.start + value.len(),
        fixes::double_quoted(value),
    );
    Some(repairing(fix, v.indent, &v.key, value))
}

/// Close a quote that opens a one-line value and is followed by a new key
/// (or the end of the frontmatter).
fn quote_fix(text: &str, at: usize, quote: char, end: QuoteEnd, yaml_end: usize) -> Option<Fix> {
    let (ls, le) = fixes::line_bounds(text, at);
    let rest = text[at + 1..le].trim_end_matches([' ', '\t']);
    if rest.is_empty() || rest.contains(quote) || rest.contains('\\') {
        return None;
    }
    let next = fixes::next_line(text, le);
    let unambiguous = match end {
        QuoteEnd::Unindented {
            line_start,
            marker: false,
        } => line_start == next,
        QuoteEnd::Eof => text
            .get(next..yaml_end.max(next))
            .is_some_and(|t| t.trim().is_empty()),
        QuoteEnd::Unindented { marker: true, .. } => false,
    };
    if !unambiguous {
        return None;
    }
    let line = &text[ls..at];
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    let key = line[indent..].split(':').next().unwrap_or("").trim();
    let close = at + 1 + rest.len();
    let fix = Fix::new(
        Applicability::Safe,
        format!("close the {quote} quote at the end of the line"),
        close,
        close,
        quote.to_string(),
    );
    Some(repairing(fix, indent, key, rest))
}

/// Attach to each SG013 the loader reported for `skill` the fix SG111 or
/// SG113 would (the loader sits below the lint layer and cannot compute
/// it): an unquoted `: ` or an unterminated quote at the parser's spot.
pub fn attach_load_fix(skill: &crate::catalog::Skill, diags: &mut [Diagnostic]) {
    let Some(src) = &skill.source else { return };
    for d in diags
        .iter_mut()
        .filter(|d| d.rule == YAML_SYNTAX.id && d.fix.is_none() && d.file == skill.file)
    {
        let Some(span) = d.span else { continue };
        let fm = Frontmatter {
            file: &skill.file,
            src,
            parsed: None,
            body_start: skill.body_start,
            failed: true,
            fixable: true,
            error_spots: &[],
        };
        if let Some(range) = yaml_range(&fm) {
            d.fix = fix_at(&src.text, range, span.start).map(Box::new);
        }
    }
}

/// [`attach_load_fix`] for every skill of the catalog.
pub fn attach_load_fixes(catalog: &crate::catalog::Catalog, diags: &mut [Diagnostic]) {
    for skill in &catalog.skills {
        attach_load_fix(skill, diags);
    }
}

/// The fix of the YAML error the parser reported at `at` (SG013), when it
/// is an unquoted `: ` or an unterminated quote the scan finds there: the
/// fix SG111 or SG113 would attach.
pub fn fix_at(text: &str, yaml: std::ops::Range<usize>, at: usize) -> Option<Fix> {
    scan(text, yaml.start, yaml.end)
        .into_iter()
        .find_map(|issue| match issue {
            Issue::Colon { at: c, .. } if c == at => colon_fix(text, at, yaml.end),
            Issue::Quote {
                at: q, quote, end, ..
            } if q == at => quote_fix(text, at, quote, end, yaml.end),
            _ => None,
        })
}
