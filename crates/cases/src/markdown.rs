//! Trigger prompts written as Markdown: lists of quoted prompts under
//! headings that say the side, or marked one by one.
//!
//! ```markdown
//! # pdf-forms trigger prompts
//!
//! ## Should trigger
//! 1. "Fill in this W-9 for me"
//! - "Put my address into the tax form PDF"
//!
//! ## Should NOT trigger
//! ### Unrelated topics
//! 1. "What is the weather today?"
//!
//! - ✅ "complete the PDF form"
//! - ❌ "merge two PDFs"
//! ```
//!
//! A heading says the side in words about firing (`Should trigger`,
//! `Should NOT trigger`, `Positive examples`, `Negative prompts`,
//! `Anti-triggers`); a deeper heading that says none (`Unrelated topics`)
//! keeps its parent's side, a heading as deep or shallower that says none
//! ends it. An item's own marker (✅/❌, `[should]`, `[should not]`) wins
//! over its heading. Only the quoted text of a list item is the prompt
//! ("…", “…”, `…`); an item with no quoted text, or under no side, is
//! not a prompt. A top heading that names a skill (`# pdf-forms trigger
//! prompts`) names whose prompts they are; else the file's place does.
//! Nothing else is guessed: a Markdown file is read only when its name says
//! it holds trigger prompts ([`is_prompts_file`]).

use super::detect::{Detected, Found, Owner, phrase_side};
use super::{Decided, Side};

/// Most lines read from one file.
pub const MAX_LINES: usize = 20_000;

/// Whether a Markdown file's name says it holds trigger prompts
/// (`prompts.md`, `trigger-tests.md`, `routing.md`, `activation.md`).
pub fn is_prompts_file(name: &str) -> bool {
    let lower = name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase();
    lower.ends_with(".md")
        && ["prompt", "trigger", "routing", "activation"]
            .iter()
            .any(|w| lower.contains(w))
}

/// The first quoted text of a list item: where its opening quote is, and
/// the byte range of the text within `line`.
fn quoted(line: &str) -> Option<(usize, usize, usize)> {
    [('"', '"'), ('“', '”'), ('`', '`'), ('«', '»')]
        .into_iter()
        .filter_map(|(open, close)| {
            let a = line.find(open)?;
            let start = a + open.len_utf8();
            let b = line[start..].find(close)?;
            (b > 0).then_some((a, start, start + b))
        })
        .min()
}

/// The body of a list item (`- x`, `* x`, `+ x`, `1. x`, `1) x`).
fn item(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if let Some(rest) = t
        .strip_prefix("- ")
        .or_else(|| t.strip_prefix("* "))
        .or_else(|| t.strip_prefix("+ "))
    {
        return Some(rest);
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits < 5 {
        let rest = &t[digits..];
        return rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") "));
    }
    None
}

/// An item's own marker: ✅ / ❌ (and their kin), `[should]`,
/// `[should not]`, `(positive)`, `(negative)` before the quote.
fn marker(before: &str) -> Option<Side> {
    if before.contains('✅') || before.contains('✔') || before.contains('👍') {
        return Some(Side::Positive);
    }
    if before.contains('❌')
        || before.contains('✖')
        || before.contains('🚫')
        || before.contains('👎')
    {
        return Some(Side::Negative);
    }
    if before.trim().is_empty() {
        return None;
    }
    phrase_side(before)
}

/// The prompts of a Markdown text; `is_skill` tells whether a top
/// heading's word names a skill.
pub fn detect(text: &str, is_skill: &dyn Fn(&str) -> bool) -> Detected {
    let mut out = Detected::default();
    // (heading level, side it says or inherits)
    let mut side: Option<(usize, Side, String)> = None;
    let mut owner: Option<String> = None;
    let mut fenced = false;
    let mut at = 0usize;
    for line in text.split_inclusive('\n').take(MAX_LINES) {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let t = body.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let level = t.bytes().take_while(|&b| b == b'#').count();
        if level > 0 && level <= 6 && t[level..].starts_with(' ') {
            let title = t[level..].trim();
            if level == 1 && owner.is_none() {
                owner = title
                    .split(|c: char| c.is_whitespace() || c == '`')
                    .find(|w| !w.is_empty() && is_skill(w))
                    .map(str::to_string);
            }
            match phrase_side(title) {
                Some(s) => side = Some((level, s, title.to_string())),
                None => {
                    if side.as_ref().is_some_and(|(l, _, _)| level <= *l) {
                        side = None;
                    }
                }
            }
            continue;
        }
        let Some(rest) = item(body) else {
            continue;
        };
        let Some((open, qs, qe)) = quoted(rest) else {
            continue;
        };
        let prompt = rest[qs..qe].trim();
        if prompt.is_empty() {
            continue;
        }
        let off = start + (body.len() - rest.len());
        let (s, why) = match (marker(&rest[..open]), &side) {
            (Some(s), _) => (s, "a marker on the item".to_string()),
            (None, Some((_, s, h))) => (*s, format!("heading `{}`", base::escape::line(h))),
            (None, None) => continue,
        };
        out.prompts.push(Found::listed(
            prompt,
            (off + qs, off + qe),
            (start, start + body.len()),
            s,
            owner
                .clone()
                .map_or(Owner::Unknown, |o| Owner::Named(vec![o])),
            format!("a Markdown list, side from {why}"),
            Decided::new(
                match &owner {
                    Some(o) => format!("the title naming `{}`", base::escape::line(o)),
                    None => String::new(),
                },
                why,
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(String, Side)> {
        detect(text, &|s| s == "pdf-forms")
            .prompts
            .into_iter()
            .map(|p| (p.prompt, p.side))
            .collect()
    }

    #[test]
    fn headings_and_markers_say_the_side() {
        let text = "# pdf-forms Trigger Prompts\n\n## Should Trigger\n\n1. \"fill the W-9\"\n2. \"complete the form\"\n\n## Should NOT Trigger\n\n### Unrelated Topics\n1. \"What is the weather?\"\n\n## Notes\n- \"not a prompt\"\n- ✅ \"sign the pdf\"\n- ❌ `merge pdfs`\n\n```\n- \"in a fence\"\n```\n";
        assert_eq!(
            read(text),
            [
                ("fill the W-9".to_string(), Side::Positive),
                ("complete the form".to_string(), Side::Positive),
                ("What is the weather?".to_string(), Side::Negative),
                ("sign the pdf".to_string(), Side::Positive),
                ("merge pdfs".to_string(), Side::Negative),
            ]
        );
        let d = detect(text, &|s| s == "pdf-forms");
        assert_eq!(d.prompts[0].owner, Owner::Named(vec!["pdf-forms".into()]));
        let p = &d.prompts[0];
        assert_eq!(&text[p.start..p.end], "fill the W-9");
    }

    #[test]
    fn side_words() {
        assert_eq!(phrase_side("Should Trigger"), Some(Side::Positive));
        assert_eq!(phrase_side("Should NOT Trigger"), Some(Side::Negative));
        assert_eq!(phrase_side("Anti-triggers"), Some(Side::Negative));
        assert_eq!(phrase_side("Negative examples"), Some(Side::Negative));
        assert_eq!(phrase_side("Positive examples"), Some(Side::Positive));
        assert_eq!(phrase_side("Unrelated topics"), None);
        assert_eq!(phrase_side("Trigger prompts"), None);
    }
}
