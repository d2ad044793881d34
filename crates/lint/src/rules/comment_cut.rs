//! SG115: a plain `description` (or `when_to_use`) cut short by ` #`,
//! which starts a YAML comment.

use super::context::SkillCtx;
use super::fixes;
use crate::diag::{Applicability, Diagnostic, Fix};
use crate::rule;

rule! {
    /// ## What it does
    /// Reports a plain (unquoted) `description` or `when_to_use` in which
    /// ` #` starts a YAML comment, pointing at the text the clients lose.
    /// A `# skillsift: …` directive is not reported.
    ///
    /// ## Why is this bad?
    /// In YAML, `#` after a space begins a comment, so every client reads
    /// the value cut before it: `description: Adds license headers #
    /// Errors and SPDX compliance` reaches the model as "Adds license
    /// headers", and the words after it never help route the skill.
    ///
    /// ## Example
    /// ```yaml
    /// description: Adds license headers # Errors and SPDX compliance   # cut
    /// description: "Adds license headers # Errors and SPDX compliance" # whole
    /// ```
    ///
    /// ## Fix
    /// Safe fix (of `description`): double-quote the whole value, so the
    /// clients read the intended text (the repair this finding names).
    pub static COMMENT_CUT = ("SG115", "comment-cuts-value", Warning, "` #` in a plain value starts a YAML comment and cuts the text");
}

/// Keys whose text the clients show the model.
const SHOWN: [&str; 2] = ["description", "when_to_use"];

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else { return };
    let text = &s.src.text;
    for key in SHOWN {
        let Some(entry) = fm.last(key) else { continue };
        let Some(read) = entry.value.as_str() else {
            continue;
        };
        let (ls, le) = fixes::line_bounds(text, entry.key_span.start);
        let Some(v) = fixes::plain_value(text, ls, le, fm.yaml.end) else {
            continue;
        };
        if v.indent != 0 || v.key != key {
            continue;
        }
        let whole = &text[v.start..v.end];
        let Some(hash) = comment_start(whole) else {
            continue;
        };
        let kept = whole[..hash].trim_end();
        let lost = &whole[hash..];
        let comment = lost.trim_start_matches('#').trim_start();
        if kept.is_empty() || read != kept || comment.starts_with("skillsift:") {
            continue;
        }
        let shown: String = lost.chars().take(80).collect();
        let mut d = COMMENT_CUT
            .diag(
                s.file(),
                format!(
                    "` #` starts a YAML comment: every client reads `{key}` as {kept:?} and loses {shown:?}"
                ),
            )
            .with_span(s.src.span(v.start + hash, v.end))
            .with_label("a comment, not part of the value")
            .with_help(format!(
                "quote the whole value (`{key}: \"…\"`), or remove the `#` if the rest is a comment"
            ));
        // `when_to_use` reaches the model inside Claude Code's entry only:
        // its repair is not one the listing check can name, so no fix
        if key == "description" {
            d = d.with_fix(
                Fix::new(
                    Applicability::Safe,
                    format!("quote the whole value of `{key}`"),
                    v.start,
                    v.end,
                    fixes::double_quoted(whole),
                )
                .repairing_description(whole),
            );
        }
        out.push(d);
    }
}

/// Offset of the `#` of the first ` #` (or tab and `#`) in a plain value.
fn comment_start(v: &str) -> Option<usize> {
    let b = v.as_bytes();
    (1..b.len()).find(|&i| b[i] == b'#' && (b[i - 1] == b' ' || b[i - 1] == b'\t'))
}

#[cfg(test)]
mod tests {
    use super::comment_start;

    #[test]
    fn finds_a_comment_after_a_space_only() {
        assert_eq!(comment_start("Adds headers # SPDX"), Some(13));
        assert_eq!(comment_start("C# and F#"), None);
        assert_eq!(comment_start("issue#12"), None);
    }
}
