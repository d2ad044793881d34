//! A unified diff of one file's old and new text, as `check --diff` and
//! `tune` print it: git's `a/` and `b/` prefixes on a relative path (so
//! `git apply` takes it), a line's own CRLF ending kept. Shown on a
//! terminal, untrusted text is escaped as everywhere else; written to a
//! file or a pipe it is the files' exact bytes, a patch `git apply` and
//! `patch` take (a byte-order mark, an escape sequence and all).

/// The unified diff (3 lines of context) from `old` to `new` of the file
/// shown as `shown`; empty when nothing changed. With `escape`, each line
/// is escaped for a terminal (and no longer a patch of bytes it does not
/// show).
pub fn unified(shown: &str, old: &str, new: &str, escape: bool) -> String {
    if old == new {
        return String::new();
    }
    let d = similar::TextDiff::from_lines(old, new);
    // an absolute path is named as it is, never `a//tmp/…`
    let (a, b) = if shown.starts_with('/') {
        (shown.to_string(), shown.to_string())
    } else {
        (format!("a/{shown}"), format!("b/{shown}"))
    };
    let unified = d
        .unified_diff()
        .context_radius(3)
        .header(&a, &b)
        .to_string();
    if !escape {
        return unified;
    }
    let mut out = String::with_capacity(unified.len());
    for line in unified.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix("\r\n") {
            Some(b) => (b, "\r\n"),
            None => match line.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (line, ""),
            },
        };
        out.push_str(&crate::escape::text(body));
        out.push_str(end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_path_gets_git_prefixes_and_hostile_text_is_escaped() {
        let d = unified("s/SKILL.md", "a\nb\n", "a\nc\x1b[31m\n", true);
        assert!(d.starts_with("--- a/s/SKILL.md\n+++ b/s/SKILL.md\n"), "{d}");
        assert!(d.contains("+c\\x1b[31m\n"), "{d}");
        assert_eq!(unified("x", "same", "same", true), "");
        assert!(unified("/tmp/x", "a\n", "b\n", true).starts_with("--- /tmp/x\n"));
        // for a file: the bytes as they are
        let d = unified("s/SKILL.md", "\u{feff}---\n", "---\n", false);
        assert!(d.contains("-\u{feff}---\n+---\n"), "{d}");
    }
}
