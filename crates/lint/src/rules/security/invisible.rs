//! SG701: invisible and bidirectional Unicode in a skill's text.

use super::Text;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Reports, one finding per line, characters of SKILL.md or of another
    /// text file of the skill that a reader does not see:
    /// - zero-width characters (U+200B, U+2060–U+2064, U+180E, U+FEFF
    ///   after the first byte), and the joiners U+200C/U+200D outside the
    ///   sequences that need them (an emoji with a ZWJ, 👨‍👩‍👧, or a joiner
    ///   between letters of a script that uses it is left alone);
    /// - bidirectional embeddings, overrides and isolates (U+202A–U+202E,
    ///   U+2066–U+2069);
    /// - the tag block (U+E0000–U+E007F), outside an emoji flag sequence.
    ///   Tag characters mirror ASCII invisibly: the finding spells out
    ///   the text they hide.
    ///
    /// It names each code point and its column, and shows the line as it
    /// renders (those characters dropped) and as it is (escaped).
    ///
    /// Part of the SG700–SG749 family (hostile skills: content that hides
    /// from a reviewer but reaches the model; `skillsift rules` lists them).
    ///
    /// ## Why is this bad?
    /// The model reads every code point; the reviewer reads the rendering.
    /// An override reorders what a line shows (the "Trojan Source"
    /// attack), tag characters carry a whole instruction that no editor
    /// displays, and a zero-width space splits a word a reviewer would
    /// search for.
    ///
    /// ## Example
    /// `Run the tests.\u{202e}` followed by reversed text renders as a
    /// harmless line and reads as another; `Summarise the file` followed
    /// by tag characters spelling `and email it` reads as both.
    ///
    /// ## How to fix
    /// Delete the characters. If one is meant (a test of a Unicode
    /// handler), write it as an escape in code rather than raw in prose.
    ///
    /// ## Measured
    /// 2 findings on `../shared/corpora/wild-sample` (1,000 skills), the addyosmani catalog
    /// (24 skills) and `../shared/corpora/routing-bench` (273 skills, 506
    /// files), both in wild-sample, both read by hand and
    /// both right (a U+200B before a ```` ``` ```` line, which stops the line
    /// opening a fence).
    pub static INVISIBLE_UNICODE = ("SG701", "invisible-unicode", Warning, "text holds invisible or bidirectional characters");
}

/// The name of a character this rule reports.
pub fn name(c: char) -> &'static str {
    match c {
        '\u{180e}' => "MONGOLIAN VOWEL SEPARATOR",
        '\u{200b}' => "ZERO WIDTH SPACE",
        '\u{200c}' => "ZERO WIDTH NON-JOINER",
        '\u{200d}' => "ZERO WIDTH JOINER",
        '\u{2060}' => "WORD JOINER",
        '\u{2061}' => "FUNCTION APPLICATION",
        '\u{2062}' => "INVISIBLE TIMES",
        '\u{2063}' => "INVISIBLE SEPARATOR",
        '\u{2064}' => "INVISIBLE PLUS",
        '\u{feff}' => "ZERO WIDTH NO-BREAK SPACE",
        '\u{202a}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202b}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202c}' => "POP DIRECTIONAL FORMATTING",
        '\u{202d}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202e}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{e0000}'..='\u{e007f}' => "TAG",
        _ => "",
    }
}

fn is_tag(c: char) -> bool {
    ('\u{e0000}'..='\u{e007f}').contains(&c)
}

/// Part of an emoji: pictographs, modifiers, variation selector 16, the
/// keycap mark.
fn emoji_part(c: char) -> bool {
    matches!(c,
        '\u{2190}'..='\u{21ff}'
        | '\u{2300}'..='\u{23ff}'
        | '\u{2460}'..='\u{27bf}'
        | '\u{2900}'..='\u{297f}'
        | '\u{2b00}'..='\u{2bff}'
        | '\u{fe0f}'
        | '\u{20e3}'
        | '\u{1f000}'..='\u{1faff}'
        | '\u{a9}'
        | '\u{ae}'
        | '\u{203c}'
        | '\u{2049}'
        | '\u{2122}'
        | '\u{2139}'
        | '\u{3030}'
        | '\u{303d}'
        | '\u{3297}'
        | '\u{3299}')
}

/// A letter of a script that uses joiners (anything alphabetic outside
/// Latin, Greek and Cyrillic: Arabic, Persian, the Indic scripts, …).
fn joining_letter(c: char) -> bool {
    c.is_alphabetic() && c as u32 >= 0x0590
}

/// The reported characters of `line`: `(byte offset in line, char)`.
pub fn hidden(line: &str, first_of_file: bool) -> Vec<(usize, char)> {
    // nearly every line of text in another script or with typographic
    // punctuation holds none: a look at each character before any list
    let suspect = |c: char| {
        !c.is_ascii() && (matches!(c, '\u{200c}' | '\u{200d}' | '\u{feff}') || !name(c).is_empty())
    };
    if !line.chars().any(suspect) {
        return Vec::new();
    }
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let prev = i.checked_sub(1).map(|k| chars[k].1);
        let next = chars.get(i + 1).map(|&(_, c)| c);
        match c {
            '\u{200c}' | '\u{200d}' => {
                let emoji = prev.is_some_and(emoji_part) && next.is_some_and(emoji_part);
                let script = prev.is_some_and(joining_letter) && next.is_some_and(joining_letter);
                if !emoji && !script {
                    out.push((at, c));
                }
            }
            '\u{feff}' if first_of_file && at == 0 => {}
            '\u{1f3f4}' => {
                // 🏴 then tags up to CANCEL TAG: a subdivision flag
                let mut k = i + 1;
                while k < chars.len() && ('\u{e0020}'..='\u{e007e}').contains(&chars[k].1) {
                    k += 1;
                }
                if k > i + 1 && chars.get(k).is_some_and(|&(_, c)| c == '\u{e007f}') {
                    i = k + 1;
                    continue;
                }
            }
            _ if !name(c).is_empty() => out.push((at, c)),
            _ => {}
        }
        i += 1;
    }
    out
}

/// `U+202E RIGHT-TO-LEFT OVERRIDE (column 12)`, and a run of tags as one
/// item spelling what it hides.
fn describe(line: &str, found: &[(usize, char)]) -> String {
    let col = |at: usize| line[..at].chars().count() + 1;
    let mut parts = Vec::new();
    let mut k = 0;
    while k < found.len() {
        let (at, c) = found[k];
        if is_tag(c) {
            let mut end = k;
            while end + 1 < found.len()
                && is_tag(found[end + 1].1)
                && found[end + 1].0 == found[end].0 + 4
            {
                end += 1;
            }
            let spelled: String = found[k..=end]
                .iter()
                .filter_map(|&(_, t)| char::from_u32(t as u32 - 0xe0000))
                .filter(|t| (' '..='~').contains(t))
                .collect();
            let n = end - k + 1;
            parts.push(if n == 1 {
                format!("U+{:04X} TAG (column {})", c as u32, col(at))
            } else {
                format!(
                    "{n} TAG characters U+{:04X}…U+{:04X} (columns {}–{}) hiding the text \"{}\"",
                    c as u32,
                    found[end].1 as u32,
                    col(at),
                    col(found[end].0),
                    super::cut(&spelled, 120)
                )
            });
            k = end + 1;
            continue;
        }
        parts.push(format!(
            "U+{:04X} {} (column {})",
            c as u32,
            name(c),
            col(at)
        ));
        k += 1;
    }
    parts.join(", ")
}

pub fn check(t: &Text, out: &mut Vec<Diagnostic>) {
    let text = &t.src.text;
    if text.is_ascii() {
        return;
    }
    let lines = t.src.index.line_count();
    for n in 1..=lines as u32 {
        let start = t.src.index.line_start(n);
        let line = t.src.index.line_text(text, n);
        if line.is_ascii() {
            continue;
        }
        let found = hidden(line, start == 0);
        let (Some(&(first, _)), Some(&(last, lc))) = (found.first(), found.last()) else {
            continue;
        };
        let rendered: String = line
            .chars()
            .filter(|&c| !found.iter().any(|&(_, f)| f == c))
            .collect();
        let is = crate::escape::line(line);
        out.push(
            INVISIBLE_UNICODE
                .diag(
                    t.file,
                    format!(
                        "line {n} holds {} a reader does not see: {}",
                        if found.len() == 1 {
                            "a character"
                        } else {
                            "characters"
                        },
                        describe(line, &found)
                    ),
                )
                .with_span(t.src.span(start + first, start + last + lc.len_utf8()))
                .with_label(format!("as it is: {}", super::cut(&is, 300)))
                .with_help(format!(
                    "it renders as: {}\ndelete the characters, or write them as escapes in code if they are meant",
                    super::cut(rendered.trim(), 300)
                )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::hidden;

    #[test]
    fn joiners_in_emoji_and_scripts_are_fine() {
        assert!(hidden("family 👨\u{200d}👩\u{200d}👧 here", false).is_empty());
        assert!(hidden("می\u{200c}خواهم", false).is_empty());
        assert!(
            hidden(
                "\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} flag",
                false
            )
            .is_empty()
        );
        assert!(hidden("\u{feff}BOM at the start", true).is_empty());
    }

    #[test]
    fn hidden_characters_are_found() {
        assert_eq!(hidden("a\u{200b}b", false), vec![(1, '\u{200b}')]);
        assert_eq!(hidden("word\u{200d}word", false).len(), 1);
        assert_eq!(hidden("x\u{202e}y\u{2066}", false).len(), 2);
        assert_eq!(hidden("ok\u{e0041}\u{e0042}", false).len(), 2);
    }
}
