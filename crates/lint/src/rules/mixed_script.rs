//! SG116: a name that mixes Latin, Greek, Cyrillic or Armenian letters,
//! and the look-alike helpers SG103 shares.

use super::context::SkillCtx;
use crate::diag::Diagnostic;
use crate::rule;
use std::fmt::Write as _;

rule! {
    /// ## What it does
    /// Reports a `name` with a word (a part between hyphens) whose letters
    /// come from more than one of the scripts whose letters look alike:
    /// Latin, Greek, Cyrillic and Armenian. `pdf-fоrms` with a Cyrillic
    /// `о` (U+043E) reads as `pdf-forms`. The finding names each letter of
    /// the word's minority script with its code point, and what the name
    /// reads as.
    ///
    /// Words each in one script (`обработка-pdf`, `обработка-документов`)
    /// and letters of scripts that do not pass for these (CJK, Arabic,
    /// Hebrew, …) are left alone.
    ///
    /// ## Why is this bad?
    /// A reviewer reads `pdf-fоrms` as `pdf-forms`; the client, the router
    /// and every `name` lookup see two different skills. A pull request
    /// can add a skill that passes for an existing one in the listing, or
    /// a name that no one can type to invoke it.
    ///
    /// ## Example
    /// `name: pdf-fоrms` (U+043E CYRILLIC SMALL LETTER O) is reported:
    /// "reads as `pdf-forms`".
    ///
    /// ## How to fix
    /// Retype the name in one script (and rename the folder to match).
    ///
    /// ## Measured
    /// 0 findings on `../shared/corpora/wild-sample` (1,000 skills), the
    /// addyosmani catalog (24 skills) and `../shared/corpora/routing-bench`
    /// (273 skills). Its test holds a Cyrillic `о` in a Latin name and in a
    /// folder name beside names each word of which is in one script, which
    /// stay quiet.
    pub static MIXED_SCRIPT = ("SG116", "mixed-script-name", Error, "`name` mixes letters of scripts that look alike");
}

/// The scripts whose letters pass for each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
}

impl Script {
    fn label(self) -> &'static str {
        match self {
            Script::Latin => "Latin",
            Script::Greek => "Greek",
            Script::Cyrillic => "Cyrillic",
            Script::Armenian => "Armenian",
        }
    }
}

/// The look-alike script of letter `c`, by Unicode block.
pub fn script(c: char) -> Option<Script> {
    match c {
        'a'..='z' | 'A'..='Z' => Some(Script::Latin),
        '\u{c0}'..='\u{24f}' | '\u{1e00}'..='\u{1eff}' if c.is_alphabetic() => Some(Script::Latin),
        '\u{370}'..='\u{3ff}' | '\u{1f00}'..='\u{1fff}' if c.is_alphabetic() => Some(Script::Greek),
        '\u{400}'..='\u{52f}'
        | '\u{1c80}'..='\u{1c8f}'
        | '\u{2de0}'..='\u{2dff}'
        | '\u{a640}'..='\u{a69f}'
            if c.is_alphabetic() =>
        {
            Some(Script::Cyrillic)
        }
        '\u{530}'..='\u{58f}' if c.is_alphabetic() => Some(Script::Armenian),
        _ => None,
    }
}

/// The Latin letter `c` passes for, if it is a well-known look-alike.
pub fn latin_for(c: char) -> Option<char> {
    Some(match c {
        // Cyrillic
        'а' => 'a',
        'в' => 'b',
        'с' => 'c',
        'ԁ' => 'd',
        'е' | 'ё' => 'e',
        'һ' => 'h',
        'і' => 'i',
        'ј' => 'j',
        'к' => 'k',
        'ӏ' => 'l',
        'м' => 'm',
        'п' => 'n',
        'о' => 'o',
        'р' => 'p',
        'ԛ' => 'q',
        'г' => 'r',
        'ѕ' => 's',
        'т' => 't',
        'и' => 'u',
        'ѵ' => 'v',
        'ԝ' => 'w',
        'х' => 'x',
        'у' => 'y',
        // Greek
        'α' => 'a',
        'β' => 'b',
        'ε' => 'e',
        'η' => 'n',
        'ι' => 'i',
        'κ' => 'k',
        'ν' => 'v',
        'ο' => 'o',
        'ρ' => 'p',
        'τ' => 't',
        'υ' => 'u',
        'χ' => 'x',
        'γ' => 'y',
        // Armenian
        'օ' => 'o',
        'ս' => 'u',
        'հ' => 'h',
        'ո' => 'n',
        'ց' => 'g',
        'զ' => 'q',
        _ => return None,
    })
}

/// `s` as a reader takes it: every well-known look-alike letter replaced
/// by the Latin letter it passes for.
pub fn skeleton(s: &str) -> String {
    s.chars().map(|c| latin_for(c).unwrap_or(c)).collect()
}

/// What a letter is: its Unicode name for a Latin letter, its script and
/// the Latin letter it passes for otherwise.
fn char_name(c: char) -> String {
    let script = script(c).map_or("", Script::label);
    match (c, latin_for(c)) {
        ('a'..='z', _) => format!("LATIN SMALL LETTER {}", c.to_ascii_uppercase()),
        (_, Some(l)) if !script.is_empty() => format!("{script} letter like `{l}`"),
        _ if !script.is_empty() => format!("{script} letter"),
        _ => "character".to_string(),
    }
}

/// `U+043E Cyrillic letter like `o`` for `c`.
pub fn code_point(c: char) -> String {
    format!("U+{:04X} {}", c as u32, char_name(c))
}

/// Where two strings that look alike differ, with the code points, when
/// they do look alike (the same [`skeleton`], or the same after NFKC and
/// dropping invisible characters): "they differ at character 6: U+006F
/// LATIN SMALL LETTER O in the first, U+043E Cyrillic letter in the
/// second".
pub fn lookalike_difference(a: &str, b: &str) -> Option<String> {
    if a == b || skeleton(a) != skeleton(b) {
        return None;
    }
    let mut out = String::new();
    for (i, (x, y)) in a.chars().zip(b.chars()).enumerate() {
        if x != y {
            if !out.is_empty() {
                out.push_str("; ");
            }
            let _ = write!(
                out,
                "character {}: {} and {}",
                i + 1,
                code_point(x),
                code_point(y)
            );
        }
    }
    Some(out)
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else { return };
    let Some(entry) = fm.get("name") else { return };
    let Some(name) = entry.value.as_str() else {
        return;
    };
    // per word: the script of most of its letters is the word's; a
    // letter of another passes for it
    let mut odd: Vec<(usize, char)> = Vec::new();
    let mut scripts: Vec<Script> = Vec::new();
    let chars: Vec<char> = name.chars().collect();
    let mut at = 0;
    for word in chars.split(|&c| c == '-') {
        let mut counts: Vec<(Script, usize)> = Vec::new();
        for &c in word {
            if let Some(sc) = script(c) {
                match counts.iter_mut().find(|(k, _)| *k == sc) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((sc, 1)),
                }
            }
        }
        if counts.len() >= 2 {
            counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let main = counts[0].0;
            for (sc, _) in &counts {
                if !scripts.contains(sc) {
                    scripts.push(*sc);
                }
            }
            for (i, &c) in word.iter().enumerate() {
                if script(c).is_some_and(|sc| sc != main) {
                    odd.push((at + i, c));
                }
            }
        }
        at += word.len() + 1;
    }
    if odd.is_empty() {
        return;
    }
    let listed = odd
        .iter()
        .map(|(i, c)| format!("{} at character {}", code_point(*c), i + 1))
        .collect::<Vec<_>>()
        .join(", ");
    let scripts = scripts
        .iter()
        .map(|sc| sc.label())
        .collect::<Vec<_>>()
        .join(" and ");
    let reads = skeleton(name);
    let reads_as = if reads != name && reads.is_ascii() {
        format!(": it reads as `{reads}`")
    } else {
        String::new()
    };
    out.push(
        MIXED_SCRIPT
            .diag(
                s.file(),
                format!("`name` mixes {scripts} letters ({listed}){reads_as}"),
            )
            .with_span(entry.value_span)
            .with_label("letters that look alike but are not the same")
            .with_help("retype the name in one script, and rename the folder to match"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_are_found_and_one_script_is_not() {
        assert_eq!(skeleton("pdf-fоrms"), "pdf-forms");
        assert!(
            lookalike_difference("pdf-forms", "pdf-fоrms")
                .unwrap()
                .contains("character 6: U+006F LATIN SMALL LETTER O and U+043E Cyrillic letter")
        );
        assert_eq!(lookalike_difference("pdf-forms", "pdf-tools"), None);
        assert_eq!(script('д'), Some(Script::Cyrillic));
        assert_eq!(script('日'), None);
        assert_eq!(lookalike_difference("a", "b"), None);
    }
}
