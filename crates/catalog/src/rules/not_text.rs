//! SG018: a SKILL.md that holds binary data, not text.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a SKILL.md that is binary data rather than text: its first
    /// 8 KiB hold a NUL byte and are not UTF-8, or are more than a tenth
    /// NUL bytes (UTF-16 text, which no client reads). It replaces the
    /// findings the bytes would otherwise give (invalid UTF-8, NUL byte,
    /// no frontmatter, line ends, the client's reading): one cause, one
    /// finding, and no bytes are shown.
    ///
    /// ## Why is this bad?
    /// Every client reads SKILL.md as UTF-8 text: an image, an archive or a
    /// UTF-16 file saved under that name is a skill with no name and no
    /// description, never listed and never chosen.
    ///
    /// ## Example
    /// A PNG saved as `skills/logo/SKILL.md`: "SKILL.md is not text (a PNG
    /// image); it was not parsed".
    ///
    /// ## How to fix
    /// Put the skill's text (YAML frontmatter, then Markdown) in SKILL.md,
    /// saved as UTF-8; keep images and other assets under their own names.
    pub static NOT_TEXT = ("SG018", "not-text", Error, "SKILL.md is binary data, not text");
}

/// How many leading bytes decide whether a file is text (git's heuristic
/// looks at the same 8,000).
const SNIFF: usize = 8000;

/// What `bytes` are when they are not text: `Some("a PNG image")`,
/// `Some("binary data")`; `None` for text, even text with a stray NUL
/// byte or a bad UTF-8 sequence (SG003, SG004 report those at their
/// place).
pub fn binary_kind(bytes: &[u8]) -> Option<&'static str> {
    let head = &bytes[..bytes.len().min(SNIFF)];
    let nuls = head.iter().filter(|&&b| b == 0).count();
    if nuls == 0 {
        return None;
    }
    let utf8 = match std::str::from_utf8(head) {
        Ok(_) => true,
        // a character cut by the end of the sniffed window is still text
        Err(e) => e.error_len().is_none() && head.len() == SNIFF,
    };
    if utf8 && nuls * 10 <= head.len() {
        return None;
    }
    const MAGIC: &[(&[u8], &str)] = &[
        (b"\x89PNG", "a PNG image"),
        (b"\xFF\xD8\xFF", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1F\x8B", "a gzip archive"),
        (b"\x7FELF", "an ELF executable"),
        (b"\xFF\xFE", "UTF-16 text"),
        (b"\xFE\xFF", "UTF-16 text"),
    ];
    Some(
        MAGIC
            .iter()
            .find(|(m, _)| bytes.starts_with(m))
            .map_or("binary data", |(_, k)| k),
    )
}

#[cfg(test)]
mod tests {
    use super::binary_kind;

    #[test]
    fn text_with_a_stray_nul_is_text() {
        assert_eq!(binary_kind(b"---\nname: a\n---\nbody \0 here\n"), None);
        assert_eq!(binary_kind("---\nname: é\n---\n".as_bytes()), None);
    }

    #[test]
    fn images_and_utf16_are_not_text() {
        assert_eq!(
            binary_kind(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff"),
            Some("a PNG image")
        );
        let utf16: Vec<u8> = "---\nname: a\n".bytes().flat_map(|b| [b, 0]).collect();
        assert_eq!(binary_kind(&utf16), Some("binary data"));
        assert_eq!(binary_kind(b"\x00\x01\x02\xff\xfe"), Some("binary data"));
    }
}
