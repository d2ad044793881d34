//! The runner contract: any harness in place of the built-in agent.
//!
//! `--runner "CMD ARGS"` is split into a program and its arguments here
//! (never by a shell: no variables, globs, pipes or redirections), run once
//! per case × trial × variant with
//! - the prompt on stdin,
//! - `SKILLSIFT_VARIANT=with|without` and `SKILLSIFT_SKILL_DIR=<absolute
//!   path of the skill folder>` in its environment (plus
//!   `SKILLSIFT_CASE_ID` and `SKILLSIFT_TRIAL`),
//! - the run's workspace as its working folder (a git repository seeded
//!   with the eval's fixtures for execution evals, else an empty folder),
//!
//! and must print exactly one JSON line
//! `{"variant","invokedSkills","output","exitCode"}` and exit 0. A timeout
//! (30 s by default, `--timeout-ms` up to 600000), more output than the cap
//! (1 MB by default, `--max-bytes` up to 10000000), a non-zero exit, anything
//! but one such line, or a `variant` other than the one requested leaves the
//! run without evidence; it never counts as a pass or a fail.

use super::plan::Variant;
use serde::Deserialize;

pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;
pub const MAX_TIMEOUT_MS: u64 = 600_000;
pub const DEFAULT_MAX_BYTES: u64 = 1_000_000;
pub const MAX_MAX_BYTES: u64 = 10_000_000;

/// Split a command line into words: whitespace separates; `'…'` is literal;
/// `"…"` is literal except `\"` and `\\`; outside quotes `\` escapes the
/// next character. Nothing is expanded.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err("unterminated ' quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => cur.push(c),
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err("unterminated \" quote".into()),
                        },
                        Some(c) => cur.push(c),
                        None => return Err("unterminated \" quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => cur.push(c),
                    None => return Err("a trailing \\ escapes nothing".into()),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err("the command is empty".into());
    }
    Ok(words)
}

/// The line a runner prints.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Line {
    pub variant: String,
    pub invoked_skills: Vec<String>,
    pub output: String,
    pub exit_code: i64,
}

/// Read a runner's stdout: exactly one non-empty line holding a [`Line`]
/// for `variant`.
pub fn parse_output(stdout: &[u8], variant: Variant) -> Result<Line, String> {
    let text =
        std::str::from_utf8(stdout).map_err(|_| "the runner's output is not UTF-8".to_string())?;
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .collect();
    let line = match lines.as_slice() {
        [one] => *one,
        [] => return Err("the runner printed nothing (expected one JSON line)".into()),
        many => {
            return Err(format!(
                "the runner printed {} lines (expected exactly one JSON line)",
                many.len()
            ));
        }
    };
    let parsed: Line = serde_json::from_str(line).map_err(|e| {
        format!("the runner's line is not {{\"variant\",\"invokedSkills\",\"output\",\"exitCode\"}}: {e}")
    })?;
    if parsed.variant != variant.as_str() {
        return Err(format!(
            "the runner answered for variant `{}` in a `{}` run",
            parsed.variant,
            variant.as_str()
        ));
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_without_a_shell() {
        assert_eq!(
            split_command(r#"node run.js --tag 'a b' "c \"d\"" e\ f $HOME"#).unwrap(),
            ["node", "run.js", "--tag", "a b", "c \"d\"", "e f", "$HOME"]
        );
        assert!(split_command("'open").is_err());
        assert!(split_command("   ").is_err());
        assert_eq!(split_command("a ''").unwrap(), ["a", ""]);
    }

    #[test]
    fn the_line_must_be_one_object_for_the_right_variant() {
        let ok = br#"{"variant":"with","invokedSkills":["x"],"output":"hi","exitCode":0}"#;
        assert_eq!(
            parse_output(ok, Variant::With).unwrap().invoked_skills,
            ["x"]
        );
        assert!(
            parse_output(ok, Variant::Without)
                .unwrap_err()
                .contains("variant")
        );
        let two = [&ok[..], b"\n", &ok[..]].concat();
        assert!(
            parse_output(&two, Variant::With)
                .unwrap_err()
                .contains("2 lines")
        );
        assert!(parse_output(b"", Variant::With).is_err());
        let extra =
            br#"{"variant":"with","invokedSkills":[],"output":"","exitCode":0,"pass":true}"#;
        assert!(parse_output(extra, Variant::With).is_err());
        let float = br#"{"variant":"with","invokedSkills":[],"output":"","exitCode":0.5}"#;
        assert!(parse_output(float, Variant::With).is_err());
    }
}
