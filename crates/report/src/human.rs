//! `--format human`: miette's graphical reports (file:line:col, the source
//! line, a label, a `help:` line), then a summary line.
//!
//! Every text from the catalog (message, label, help, file name and the
//! source snippet) is shown through [`crate::escape`]: miette is given an
//! escaped copy of a file that needs it, with the spans mapped into it, so
//! carets still point at the same characters. Secrets are masked in every
//! file's text when it is read (see [`crate::catalog::secrets`]).

use super::{Outcome, Summary};
use crate::diag::{Diagnostic, Severity};
use crate::escape;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::io::{IsTerminal, Write};

/// A file's text under its name, borrowed (miette's `NamedSource` would
/// need both copied for every diagnostic), with its line index.
struct Named<'a> {
    name: &'a str,
    text: &'a str,
    index: &'a crate::diag::LineIndex,
    /// Lines of the file above `text`'s first (a [`window`] of it).
    lines_above: usize,
    /// In a window: the span's offset in it, and the 0-based column of
    /// that place in the file, which the header (`file:line:col`) shows.
    column_of: Option<(usize, usize)>,
}

impl miette::SourceCode for Named<'_> {
    /// miette reads a `&str` from its first byte to the span on every
    /// call, so 20,000 findings in a 2 MB file meant 20,000 scans of it:
    /// it is handed only the lines around the span (found in the index),
    /// and its answer is moved back to the file's lines and offsets.
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let start = span.offset().min(self.text.len());
        let end = (span.offset() + span.len()).min(self.text.len());
        let (first, _) = self.index.line_col(self.text, start);
        let (last, _) = self.index.line_col(self.text, end);
        // a line more on each side than miette reads: it decides where the
        // context ends by seeing the next line break
        let from_line = first.saturating_sub(context_lines_before as u32 + 1).max(1);
        let to_line = last.saturating_add(context_lines_after as u32 + 2);
        let lo = self.index.line_start(from_line);
        let hi = if (to_line as usize) < self.index.line_count() {
            self.index.line_start(to_line)
        } else {
            self.text.len()
        };
        let window = &self.text[lo..hi];
        let inner = window.read_span(
            &SourceSpan::new((start - lo).into(), span.len()),
            context_lines_before,
            context_lines_after,
        )?;
        let lines_before = from_line as usize - 1 + self.lines_above;
        let column = match self.column_of {
            Some((at, col)) if at == span.offset() && context_lines_before == 0 => col,
            _ => inner.column(),
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            SourceSpan::new((inner.span().offset() + lo).into(), inner.span().len()),
            inner.line() + lines_before,
            column,
            inner.line_count() + lines_before,
        )))
    }
}

/// A [`Diagnostic`] dressed for miette.
struct Shown<'a> {
    d: &'a Diagnostic,
    source: Option<Named<'a>>,
    /// The diagnostic's span in `source`'s text (moved when that text is
    /// an escaped copy).
    span: Option<(usize, usize)>,
    message: Cow<'a, str>,
    help: Option<Cow<'a, str>>,
}

/// A file's text as the snippet shows it: escaped (its secrets were
/// masked when it was read). `None` when it is shown as it is.
fn shown_text(text: &str) -> Option<(Option<escape::Mapped>, String)> {
    let m = escape::Mapped::new(text)?;
    let t = m.text.clone();
    Some((Some(m), t))
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `[*]`: `--fix` repairs it (as ruff marks fixable findings)
        let mark = match &self.d.fix {
            Some(fix) if fix.applicability == crate::diag::Applicability::Safe => " [*]",
            _ => "",
        };
        write!(
            f,
            "{}[{}]{mark}: {}",
            self.d.severity, self.d.rule, self.message
        )?;
        if self.source.is_none() {
            let file = escape::line(&self.d.file);
            match self.d.span {
                Some(s) => write!(f, "\n  at {file}:{}:{}", s.line, s.col)?,
                None => write!(f, "\n  at {file}")?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for Shown<'_> {}

impl miette::Diagnostic for Shown<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Notice => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (start, end) = self.span?;
        self.source.as_ref()?;
        let len = end.saturating_sub(start);
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            self.d
                .label
                .as_deref()
                .map(|l| cut_label(&escape::text(l)).into_owned()),
            SourceSpan::new(start.into(), len),
        ))))
    }
}

/// The closing line Tier 2 adds, as the original scripts print it.
pub fn rank1_line(s: &Summary) -> Option<String> {
    let r = s.route.as_ref()?;
    Some(match r.rank1_percent() {
        Some(p) => format!(
            "trigger rank-1 rate: {p}% ({}/{} {})",
            r.rank1,
            r.positives,
            if r.positives == 1 {
                "positive prompt ranks its skill first"
            } else {
                "positive prompts rank their skill first"
            }
        ),
        None => "trigger rank-1 rate: n/a (0 positive prompts)".to_string(),
    })
}

/// Tier 2's lines before the rank-1 line: the trigger checks, and the
/// skills it could not route (never skipped silently).
pub fn route_lines(s: &Summary) -> Vec<String> {
    let Some(r) = s.route.as_ref() else {
        return Vec::new();
    };
    let mut lines = vec![format!(
        "trigger checks: {}/{} passed across {} routed {}{}",
        r.checks_passed,
        r.checks,
        r.skills_routed,
        plural(r.skills_routed, "skill"),
        checks_meaning(r)
    )];
    if !r.installs.is_empty() {
        lines.push(format!(
            "routed as installed ([route] installed-together): {} listings, each against its own skills: {}",
            r.installs.len(),
            first_few(&r.installs)
        ));
    }
    if r.library {
        lines.push(format!(
            "routed as a library: every skill lies deeper than {} reads, so each was listed as if copied on its own into its skills folder (`<skills folder>/<skill folder>/SKILL.md`), as users install a library's skills",
            r.client.unwrap_or(crate::client::ClientId::Spec).label()
        ));
    }
    if r.not_lexical > 0 {
        lines.push(format!(
            "{} trigger {} marked `\"lexical\": false` not ranked (expected: left to Tier 3)",
            r.not_lexical,
            plural(r.not_lexical, "prompt")
        ));
    }
    if !r.unroutable.is_empty() {
        lines.push(format!(
            "not routed ({} {} {}): {}",
            r.unroutable.len(),
            plural(r.unroutable.len(), "skill"),
            r.client.unwrap_or(crate::client::ClientId::Spec).unlisted(),
            first_few(&r.unroutable)
        ));
    }
    lines
}

/// What a passed trigger check means, beside the count (a positive
/// passes in the top k, which is not ranking first: the rank-1 line
/// counts that), when any was run.
pub fn checks_meaning(r: &super::RouteSummary) -> String {
    if r.checks == 0 {
        return String::new();
    }
    match r.top_k_lowered {
        Some(l) if r.installs.is_empty() => format!(
            "; a positive passes in the top {} ([route] top-k is {}, but only {} entries are listed to route against, and a top {} of them always holds the skill), a negative unless its skill ranks first",
            l.to, r.top_k, l.skills, r.top_k
        ),
        Some(l) => format!(
            "; a positive passes in the top {} ([route] top-k; the top {} in an installation listing only {} entries, where a top {} always holds the skill), a negative unless its skill ranks first",
            r.top_k, l.to, l.skills, r.top_k
        ),
        None => format!(
            "; a positive passes in the top {} ([route] top-k), a negative unless its skill ranks first",
            r.top_k
        ),
    }
}

/// Most paths a summary line lists before it says how many more there are.
pub const FEW: usize = 5;

/// `a, b, c, d, e and 535 more (--format json lists all)`, or every path
/// when there are at most [`FEW`].
pub fn first_few(paths: &[String]) -> String {
    if paths.len() <= FEW {
        return paths.join(", ");
    }
    format!(
        "{} and {} more (--format json lists all)",
        paths[..FEW].join(", "),
        paths.len() - FEW
    )
}

/// Which skills roots were read, when there is more than the one a
/// catalog usually has: `skills roots: skills/ (24 skills), .claude/skills/
/// (2 skills)`.
pub fn roots_line(s: &Summary) -> Option<String> {
    if s.roots.len() < 2 {
        return None;
    }
    let shown: Vec<String> = s
        .roots
        .iter()
        .map(|r| {
            let path = if r.path == "." {
                ".".to_string()
            } else {
                format!("{}/", r.path)
            };
            match &r.skipped {
                Some(why) => format!("{path} (not read: {why})"),
                None => format!("{path} ({} {})", r.skills, plural(r.skills, "skill")),
            }
        })
        .collect();
    Some(format!("skills roots: {}", shown.join(", ")))
}

/// Longest line, in characters, shown as a source snippet.
pub const MAX_SNIPPET_LINE: usize = 10_000;

/// Whether `span` can be shown as a snippet: both of its lines are at most
/// [`MAX_SNIPPET_LINE`] characters. miette pads underlines with `{:width$}`,
/// and a width past 65,535 panics ("Formatting argument out of range"),
/// so a label deep in a very long line (a minified file, a 4 MiB one-line
/// case file) crashed the report; such a line is also no use on a screen.
/// Past the limit the diagnostic names `file:line:col` instead.
fn snippet_fits(span: &crate::diag::Span, src: &crate::catalog::Source) -> bool {
    let fits = |line: u32| {
        src.index
            .line_text(&src.text, line)
            .chars()
            .nth(MAX_SNIPPET_LINE)
            .is_none()
    };
    fits(span.line) && fits(span.end_line)
}

/// Terminal cells of a line shown in a snippet (a CJK character takes
/// two): a longer line (a 2,000 character description) is shown as this
/// many cells around the span, cut with `…`, and the underline stops where
/// the cut line does.
pub const SNIPPET_WIDTH: usize = 80;

/// Characters of a label shown under a snippet; a longer one ends in `…`.
pub const LABEL_WIDTH: usize = 80;

/// A snippet cut to fit a screen: the span's line and one line on each
/// side (as miette shows them), each cut to [`SNIPPET_WIDTH`] characters
/// from the same column, with `…` where a line goes on; the span moved
/// into it and stopped at the end of its first line's cut. `None` when
/// every such line fits.
struct Window {
    text: String,
    index: crate::diag::LineIndex,
    lines_above: usize,
    start: usize,
    end: usize,
}

fn window(text: &str, index: &crate::diag::LineIndex, start: usize, end: usize) -> Option<Window> {
    use unicode_width::UnicodeWidthChar;
    // terminal cells: a CJK character takes two
    let cells = |c: char| c.width().unwrap_or(0);
    let wider = |t: &str| {
        let mut w = 0;
        t.chars().any(|c| {
            w += cells(c);
            w > SNIPPET_WIDTH
        })
    };
    let (line, _) = index.line_col(text, start);
    let first = line.saturating_sub(1).max(1);
    let last = (line + 1).min(index.line_count() as u32);
    if !(first..=last).any(|l| wider(index.line_text(text, l))) {
        return None;
    }
    let line_start = index.line_start(line);
    let before: Vec<char> = text[line_start..start.max(line_start)].chars().collect();
    let col = before.len();
    // the cut starts a quarter of the width before the span
    let mut from = col;
    let mut w = 0;
    while from > 0 && w + cells(before[from - 1]) <= SNIPPET_WIDTH / 4 {
        w += cells(before[from - 1]);
        from -= 1;
    }
    let mut out = String::new();
    let (mut at_start, mut at_end) = (0, 0);
    for l in first..=last {
        let t = index.line_text(text, l);
        // a context line that fits is shown whole
        let from = if l != line && !wider(t) { 0 } else { from };
        if from > 0 && t.chars().nth(from).is_some() {
            out.push('…');
        }
        let cut_at = out.len();
        let mut w = 0;
        let cut: String = t
            .chars()
            .skip(from)
            .take_while(|&c| {
                w += cells(c);
                w <= SNIPPET_WIDTH
            })
            .collect();
        let taken = cut.chars().count();
        out.push_str(&cut);
        let cut_end = out.len();
        if t.chars().nth(from + taken).is_some() {
            out.push('…');
        }
        if l == line {
            // byte offset in the cut of a char column of the line
            let place = |c: usize| {
                let k = c.saturating_sub(from).min(taken);
                cut_at + cut.char_indices().nth(k).map_or(cut.len(), |(i, _)| i)
            };
            at_start = place(col);
            let (end_line, _) = index.line_col(text, end);
            at_end = if end_line == line {
                place(text[line_start..end.max(line_start)].chars().count())
            } else {
                cut_end
            };
            at_end = at_end.clamp(at_start, cut_end.max(at_start));
        }
        out.push('\n');
    }
    Some(Window {
        index: crate::diag::LineIndex::new(&out),
        text: out,
        lines_above: first as usize - 1,
        start: at_start,
        end: at_end,
    })
}

/// A label cut to [`LABEL_WIDTH`] characters, with `…`.
fn cut_label(label: &str) -> Cow<'_, str> {
    match label.char_indices().nth(LABEL_WIDTH) {
        Some((i, _)) => Cow::Owned(format!("{}…", &label[..i])),
        None => Cow::Borrowed(label),
    }
}

/// Whether to colour output: a terminal, and NO_COLOR unset.
fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

pub fn render(o: &Outcome, out: &mut dyn Write) -> std::io::Result<()> {
    let theme = if use_color() {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false);
    // the files whose snippets are shown escaped or masked, each once
    let mut files: Vec<&str> = o
        .diagnostics
        .iter()
        .filter(|d| d.span.is_some())
        .map(|d| d.file.as_str())
        .collect();
    files.sort_unstable();
    files.dedup();
    // (offset map, shown text, shown name) of the files whose text or name
    // changes when shown
    type Copy<'a> = (
        Option<escape::Mapped>,
        Option<(String, crate::diag::LineIndex)>,
        Cow<'a, str>,
    );
    let copies: HashMap<&str, Copy> = files
        .par_iter()
        .filter_map(|f| {
            let src = o.sources.get(*f)?;
            let name = escape::line(f);
            match (shown_text(&src.text), name) {
                (None, Cow::Borrowed(_)) => None,
                (Some((map, text)), name) => {
                    let index = crate::diag::LineIndex::new(&text);
                    Some((*f, (map, Some((text, index)), name)))
                }
                (None, name) => Some((*f, (None, None, name))),
            }
        })
        .collect();
    let render_one = |d: &Diagnostic| -> Result<String, fmt::Error> {
        let mut span = None;
        let source = d
            .span
            .and_then(|span| Some((span, o.sources.get(&d.file)?)))
            .filter(|(span, src)| snippet_fits(span, src))
            .map(|(s, src)| match copies.get(d.file.as_str()) {
                Some((map, text, name)) => {
                    let at = |o: usize| map.as_ref().map_or(o, |m| m.map(o));
                    span = Some((at(s.start), at(s.end)));
                    let (text, index) = match text {
                        Some((t, i)) => (t.as_str(), i),
                        None => (src.text.as_str(), &src.index),
                    };
                    Named {
                        name,
                        text,
                        index,
                        lines_above: 0,
                        column_of: None,
                    }
                }
                None => {
                    span = Some((s.start, s.end));
                    Named {
                        name: &d.file,
                        text: &src.text,
                        index: &src.index,
                        lines_above: 0,
                        column_of: None,
                    }
                }
            });
        // a long line is shown cut around the span
        let cut = match (&source, span) {
            (Some(n), Some((a, b))) => window(n.text, n.index, a, b),
            _ => None,
        };
        let source = match (&cut, source) {
            (Some(w), Some(n)) => {
                span = Some((w.start, w.end));
                Some(Named {
                    name: n.name,
                    text: &w.text,
                    index: &w.index,
                    lines_above: w.lines_above,
                    column_of: d.span.map(|s| (w.start, s.col as usize - 1)),
                })
            }
            (_, source) => source,
        };
        let shown = Shown {
            d,
            source,
            span,
            message: escape::text(&d.message),
            help: d.help.as_deref().map(escape::text),
        };
        let mut s = String::new();
        handler.render_report(&mut s, &shown)?;
        Ok(s)
    };
    if o.diagnostics.len() > super::statistics::LEAD_WITH_TABLE {
        super::statistics::write_table(o.diagnostics, out)?;
    }
    // Rendering is the costly part of a large report: render a chunk in
    // parallel, write it in order, go on (output stays byte-identical and
    // only one chunk is held in memory).
    for chunk in o.diagnostics.chunks(512) {
        let rendered: Vec<Result<String, fmt::Error>> = chunk.par_iter().map(render_one).collect();
        for r in rendered {
            out.write_all(r.map_err(std::io::Error::other)?.as_bytes())?;
            writeln!(out)?;
        }
    }
    summary(o.summary, o.diagnostics, out)
}

/// The closing lines: skills roots, counts, Tier 2, notes.
pub fn summary(
    s: &Summary,
    diagnostics: &[Diagnostic],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    // the summary names paths from the catalog
    let mut out = escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    if let Some(line) = roots_line(s) {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "{} {} checked: {} {}, {} {}, {} {}",
        s.skills_checked,
        plural(s.skills_checked, "skill"),
        s.errors,
        plural(s.errors, "error"),
        s.warnings,
        plural(s.warnings, "warning"),
        s.notices,
        plural(s.notices, "notice")
    )?;
    if let Some(line) = fixable_line(diagnostics) {
        writeln!(out, "{line}")?;
    }
    if let Some(b) = &s.baseline {
        writeln!(out, "{}", baseline_line(b))?;
    }
    for line in route_lines(s) {
        writeln!(out, "{line}")?;
    }
    if let Some(line) = rank1_line(s) {
        writeln!(out, "{line}")?;
    }
    for line in &s.notes {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// What the findings baseline accepted, and which of its findings are
/// gone.
pub fn baseline_line(b: &super::BaselineSummary) -> String {
    let mut line = format!(
        "baseline: {} known {} not shown",
        b.known,
        plural(b.known, "finding")
    );
    if !b.fixed.is_empty() {
        let shown: Vec<String> = b
            .fixed
            .iter()
            .map(|f| format!("{} {}", f.rule, f.file))
            .collect();
        line.push_str(&format!(
            "; {} fixed since it was saved: {} (refresh it with --save-baseline)",
            b.fixed.len(),
            first_few(&shown)
        ));
    }
    line
}

/// `3 fixable with --fix (1 more with --unsafe-fixes)`, when any is.
pub fn fixable_line(diags: &[Diagnostic]) -> Option<String> {
    use crate::diag::Applicability;
    let count = |a: Applicability| {
        diags
            .iter()
            .filter(|d| d.fix.as_ref().is_some_and(|f| f.applicability == a))
            .count()
    };
    let (safe, unsafe_) = (count(Applicability::Safe), count(Applicability::Unsafe));
    match (safe, unsafe_) {
        (0, 0) => None,
        (n, 0) => Some(format!("{n} fixable with --fix")),
        (0, u) => Some(format!("{u} fixable with --fix --unsafe-fixes")),
        (n, u) => Some(format!(
            "{n} fixable with --fix ({u} more with --unsafe-fixes)"
        )),
    }
}

pub fn plural(n: usize, word: &str) -> String {
    crate::base::plural::word(n, word)
}
