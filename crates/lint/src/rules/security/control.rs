//! SG700: control characters in the values a client lists.

use crate::diag::Diagnostic;
use crate::lint::rules::context::SkillCtx;
use crate::rule;

rule! {
    /// ## What it does
    /// Reports a `name`, `description`, `when_to_use` or `argument-hint`
    /// (shown in Claude Code's slash-command menu) whose value, as
    /// YAML reads it, holds a control character: C0 controls other than
    /// line feed and tab (ESC, BEL, CR, …), DEL, or a C1 control
    /// (U+0080–U+009F). A double-quoted YAML string makes them from
    /// escapes (`"\e"`, `"\x07"`, `"\u009b"`), so they need not be in the
    /// file as raw bytes. Bidirectional and invisible characters written
    /// as escapes (`"\u202e"`, `"\U000E0041"`) are reported here too (SG701
    /// reports them where they are raw in the file).
    ///
    /// Part of the SG700–SG749 family (hostile skills: content that hides
    /// from a reviewer but reaches the model; `skillsift rules` lists them).
    ///
    /// ## Why is this bad?
    /// These values reach every client's listing, the model, and every
    /// terminal or CI log that shows them. An ESC starts an ANSI or OSC
    /// sequence: `\e]0;pwned\a` retitles a terminal, `\e[2J` clears it, and
    /// a log viewer can be made to show lines that are not there. No honest
    /// description needs one (skillsift itself prints them as `\x1b`).
    ///
    /// ## Example
    /// ```yaml
    /// description: "Use when testing \e]0;pwned\a\e[2J things"
    /// ```
    /// is reported: U+001B ESCAPE (2), U+0007 BELL.
    ///
    /// ## How to fix
    /// Delete the escapes; write the text you meant.
    ///
    /// ## Measured
    /// 0 findings on `../shared/corpora/wild-sample` (1,000 skills), the addyosmani catalog
    /// (24 skills) and `../shared/corpora/routing-bench` (273 skills, 506
    /// files): nothing to read by hand. It fires on each
    /// variant of `tests/fixtures/security` and on none of its look-alikes.
    pub static CONTROL_CHARACTER = ("SG700", "control-character", Error, "a listed value holds a control character");
}

/// The values a client lists, and `argument-hint`, which Claude Code shows
/// in its slash-command menu.
const KEYS: &[&str] = &["name", "description", "when_to_use", "argument-hint"];

/// Whether `c` is a control character this rule reports.
pub fn is_control(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0b'..='\x1f' | '\x7f'..='\u{9f}')
}

/// `U+001B ESCAPE (2), U+0007 BELL`: the controls of `value`, in order of
/// first appearance, each with its count.
pub fn describe(value: &str) -> Option<String> {
    let mut seen: Vec<(char, usize)> = Vec::new();
    for c in value.chars().filter(|&c| is_control(c)) {
        match seen.iter_mut().find(|(k, _)| *k == c) {
            Some((_, n)) => *n += 1,
            None => seen.push((c, 1)),
        }
    }
    if seen.is_empty() {
        return None;
    }
    Some(
        seen.iter()
            .map(|&(c, n)| {
                let name = control_name(c);
                let name = if name.is_empty() {
                    String::new()
                } else {
                    format!(" {name}")
                };
                if n > 1 {
                    format!("U+{:04X}{name} ({n})", c as u32)
                } else {
                    format!("U+{:04X}{name}", c as u32)
                }
            })
            .collect::<Vec<_>>()
            .join(", "),
    )
}

fn control_name(c: char) -> &'static str {
    match c {
        '\0' => "NULL",
        '\x07' => "BELL",
        '\x08' => "BACKSPACE",
        '\x0b' => "LINE TABULATION",
        '\x0c' => "FORM FEED",
        '\r' => "CARRIAGE RETURN",
        '\x1b' => "ESCAPE",
        '\x7f' => "DELETE",
        '\u{9b}' => "CONTROL SEQUENCE INTRODUCER",
        '\u{9d}' => "OPERATING SYSTEM COMMAND",
        '\u{85}' => "NEXT LINE",
        _ => "",
    }
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else {
        return;
    };
    for e in &fm.entries {
        if !KEYS.contains(&e.key.as_str()) {
            continue;
        }
        let Some(value) = e.value.as_str() else {
            continue;
        };
        // a CR right before a line break in a block scalar is a line end
        let value = value.replace("\r\n", "\n");
        let raw = s.src.text.get(e.value.start..e.value.end).unwrap_or("");
        let escaped: Vec<char> = value
            .lines()
            .flat_map(|l| super::invisible::hidden(l, false))
            .map(|(_, c)| c)
            .filter(|&c| !raw.contains(c))
            .collect();
        if !escaped.is_empty() {
            let mut names: Vec<String> = Vec::new();
            for c in &escaped {
                let n = format!("U+{:04X} {}", *c as u32, super::invisible::name(*c));
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            out.push(
                CONTROL_CHARACTER
                    .diag(
                        s.file(),
                        format!(
                            "`{}` holds invisible characters written as escapes: {}",
                            e.key,
                            names.join(", ")
                        ),
                    )
                    .with_span(e.value_span)
                    .with_label(
                        "the listing and the model get them; a reader of the file sees escapes",
                    )
                    .with_help("delete the escapes and write the text you meant"),
            );
        }
        let Some(what) = describe(&value) else {
            continue;
        };
        out.push(
            CONTROL_CHARACTER
                .diag(
                    s.file(),
                    format!("`{}` holds control characters: {what}", e.key),
                )
                .with_span(e.value_span)
                .with_label("reaches the listing, the model and every terminal that shows it")
                .with_help("delete the escapes (`\\e`, `\\x07`, `\\u009b` in a quoted string) and write the text you meant"),
        );
    }
}
