//! SG212: a code fence that never closes.

use super::context::SkillCtx;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Warns about a fenced code block (```` ``` ```` or `~~~`) that is never
    /// closed: no later line holds the same character at least as many
    /// times, indented at most three spaces, with nothing after it
    /// (CommonMark's rule). The opening line is flagged, with the headings
    /// the block swallows.
    ///
    /// ## Why is this bad?
    /// Everything after the opening line is code, to the model and to
    /// every Markdown reader: headings below it are no longer sections, so
    /// SG202 (required sections) and SG209 (workflow steps) miss them. A
    /// ```` ```markdown ```` block holding an inner ```` ``` ```` block is
    /// the usual cause: the inner fence closes the outer one, and the
    /// inner closing fence opens a block that never ends.
    ///
    /// ## Example
    /// ````markdown
    /// ```bash
    /// npm test
    /// ## Verification
    /// ````
    /// Close the block with ```` ``` ```` on its own line; wrap a block that
    /// shows fences in a longer fence (```` ```` ````).
    pub static UNCLOSED_FENCE = ("SG212", "unclosed-code-fence", Warning, "a code fence never closes");
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(f) = s.body.fences.last().filter(|f| f.close.is_none()) else {
        return;
    };
    let Some(open) = s.body.line(f.open) else {
        return;
    };
    let fence: String = open
        .text
        .trim_start()
        .chars()
        .take_while(|c| *c == '`' || *c == '~')
        .collect();
    let rest = s.body.len() - f.open - 1;
    let headings: Vec<String> = (f.open + 1..s.body.len())
        .filter_map(|i| s.body.line(i))
        .filter_map(|l| super::markdown::atx_heading(l.text).map(|(lv, t, _)| (lv, t)))
        .filter(|(lv, _)| *lv <= 3)
        .map(|(lv, t)| format!("`{} {}`", "#".repeat(lv as usize), t))
        .collect();
    let swallowed = match headings.len() {
        0 => String::new(),
        1 => format!(", the heading {} among them", headings[0]),
        n if n <= 3 => format!(", the headings {} among them", headings.join(", ")),
        n => format!(
            ", {n} headings among them ({}, …)",
            headings[..2].join(", ")
        ),
    };
    let lines = if rest == 1 { "line" } else { "lines" };
    let trimmed = open.text.trim_end();
    let start = open.start + (open.text.len() - open.text.trim_start().len());
    out.push(
        UNCLOSED_FENCE
            .diag(
                s.file(),
                format!(
                    "the code block opened on line {} never closes: the {rest} {lines} after it read as code{swallowed}",
                    open.number
                ),
            )
            .with_span(s.span(start, open.start + trimmed.len()))
            .with_label("opened here, never closed")
            .with_help(format!(
                "close the block with a line holding only {fence} where its code ends; a block that shows fences needs a longer fence around it"
            )),
    );
}
