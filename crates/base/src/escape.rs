//! Untrusted text made safe for a terminal.
//!
//! A SKILL.md, a case file or an agent's trace is written by a stranger;
//! printed raw, an ESC starts an ANSI or OSC sequence (retitle or clear the
//! terminal, rewrite what a CI log viewer shows), a C1 control does the same
//! on terminals that read 8-bit controls, and a bidirectional override
//! makes a line read differently from what it is. Every human-readable
//! output shows such characters as escapes instead:
//!
//! - C0 controls other than line feed and tab, DEL: `\x1b`, `\x07`, `\x0d`;
//! - C1 controls U+0080–U+009F: `\u{9b}`;
//! - bidirectional marks, embeddings, overrides and isolates (U+061C,
//!   U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the invisible
//!   format characters (U+00AD is left alone; U+180E, U+200B, U+2060–U+2064,
//!   U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB, the tag block U+E0000–U+E007F):
//!   `\u{202e}`.
//!
//! Zero-width joiner and non-joiner (U+200C, U+200D) are kept: emoji
//! sequences and several scripts need them and they move nothing on
//! screen (the SG7xx rules report them where they hide text).
//!
//! This module depends on nothing else in the crate. JSON, SARIF, JUnit and
//! HTML escape by their own rules and do not use it.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;

/// Whether `c` is shown as an escape in text where line breaks are
/// legitimate (`\n` and `\t` pass).
pub fn is_unsafe(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\0'..='\x1f' | '\x7f'..='\u{9f}' => true,
        _ => is_invisible(c),
    }
}

/// Bidirectional controls and invisible format characters that
/// [`is_unsafe`] escapes (every one outside ASCII and C1).
pub fn is_invisible(c: char) -> bool {
    is_bidi(c)
        || matches!(
            c,
            '\u{180e}'
                | '\u{200b}'
                | '\u{2060}'..='\u{2064}'
                | '\u{206a}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e007f}'
        )
}

/// Bidirectional marks, embeddings, overrides and isolates.
pub fn is_bidi(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// How `c` is shown: `\x1b` below 0x80, `\u{202e}` above.
pub fn escaped(c: char, out: &mut String) {
    let n = c as u32;
    if n < 0x80 {
        let _ = write!(out, "\\x{n:02x}");
    } else {
        let _ = write!(out, "\\u{{{n:x}}}");
    }
}

/// `s` with every [`is_unsafe`] character escaped; `\n` and `\t` kept.
///
/// A line after one of its line breaks that would start a CI workflow
/// command (`::`, `##[`, after blanks) has that character shown as
/// `\x3a` or `\x23` (see [`Writer`], which also looks at the first line).
pub fn text(s: &str) -> Cow<'_, str> {
    let escaped = escape_if(s, is_unsafe);
    if !escaped.contains('\n') || !(escaped.contains("::") || escaped.contains("##[")) {
        return escaped;
    }
    let mut out = String::with_capacity(escaped.len() + 8);
    for (i, line) in escaped.split_inclusive('\n').enumerate() {
        let t = line.trim_start_matches([' ', '\t']);
        if i > 0 && (t.starts_with("::") || t.starts_with("##[")) {
            out.push_str(&line[..line.len() - t.len()]);
            out.push_str(if t.starts_with(':') { "\\x3a" } else { "\\x23" });
            out.push_str(&t[1..]);
        } else {
            out.push_str(line);
        }
    }
    Cow::Owned(out)
}

/// `s` on one line: as [`text`], and `\n` escaped too (a name, a path, a
/// value shown inside a sentence).
pub fn line(s: &str) -> Cow<'_, str> {
    escape_if(s, |c| c == '\n' || is_unsafe(c))
}

fn escape_if(s: &str, unsafe_: impl Fn(char) -> bool) -> Cow<'_, str> {
    let Some(first) = s.find(&unsafe_) else {
        return Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str(&s[..first]);
    for c in s[first..].chars() {
        if unsafe_(c) {
            escaped(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `serde_json::to_writer_pretty` with every [`is_unsafe`] character
/// above ASCII control range (DEL, C1, bidirectional and invisible
/// characters) written as a `\uXXXX` escape: the same JSON value, and no
/// raw control reaches a terminal that shows it. (serde_json escapes C0
/// controls itself.)
pub fn to_writer_pretty<W: io::Write, T: serde::Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(writer, Json::default());
    value.serialize(&mut ser)
}

/// serde_json's pretty formatter that escapes [`is_unsafe`] characters.
#[derive(Default)]
struct Json(serde_json::ser::PrettyFormatter<'static>);

impl serde_json::ser::Formatter for Json {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // printable ASCII (nearly every fragment) holds nothing to escape
        if fragment.bytes().all(|b| (b' '..=b'~').contains(&b)) {
            return w.write_all(fragment.as_bytes());
        }
        let mut rest = fragment;
        while let Some(i) = rest.find(is_unsafe) {
            w.write_all(&rest.as_bytes()[..i])?;
            let c = rest[i..].chars().next().unwrap_or_default();
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                write!(w, "\\u{:04x}", u)?;
            }
            rest = &rest[i + c.len_utf8()..];
        }
        w.write_all(rest.as_bytes())
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// A text escaped by [`text`], with the way back from offsets in the
/// original to offsets in the copy (so a span still points at the same
/// characters).
#[derive(Debug, Clone)]
pub struct Mapped {
    pub text: String,
    /// `(offset in the original, growth so far)` after each escape, in order.
    steps: Vec<(usize, usize)>,
}

impl Mapped {
    /// `None` when `s` needs no escaping.
    pub fn new(s: &str) -> Option<Mapped> {
        s.find(is_unsafe)?;
        let mut text = String::with_capacity(s.len() + 16);
        let mut steps = Vec::new();
        for (i, c) in s.char_indices() {
            if is_unsafe(c) {
                let before = text.len();
                escaped(c, &mut text);
                let grown = text.len() - before - c.len_utf8();
                let total = steps.last().map_or(0, |&(_, g)| g) + grown;
                steps.push((i + c.len_utf8(), total));
            } else {
                text.push(c);
            }
        }
        Some(Mapped { text, steps })
    }

    /// Where byte `offset` of the original is in [`Mapped::text`]. An
    /// offset inside an escaped character maps to the escape's start.
    pub fn map(&self, offset: usize) -> usize {
        let k = self.steps.partition_point(|&(at, _)| at <= offset);
        let grown = if k == 0 { 0 } else { self.steps[k - 1].1 };
        offset + grown
    }
}

/// A writer that escapes what passes through it as [`text`] does, for a
/// renderer whose every byte is text for a human. Bytes that are not UTF-8
/// are shown as `\xNN`; a character split across two writes is joined.
///
/// No line it writes is a CI workflow command: a line that starts (after
/// blanks: GitHub's runner trims them) with `::` or `##[` has that first
/// character shown as `\x3a` or `\x23`. Human output never starts a line
/// so itself, so such a line is untrusted text (a line of a multi-line
/// description or prompt) that would forge an annotation, mask a value or
/// switch the runner's commands off. [`Writer::commands`] is the one that
/// writes workflow commands (`--format github`).
pub struct Writer<'a> {
    inner: &'a mut dyn io::Write,
    /// The start of a character whose rest has not been written yet.
    pending: Vec<u8>,
    /// Lines starting a workflow command are neutralised.
    guard: bool,
    /// At the start of a line, with [`Writer::held`] not yet written.
    line_start: bool,
    /// The start of a line not yet known to be a workflow command or not.
    held: String,
}

impl<'a> Writer<'a> {
    pub fn new(inner: &'a mut dyn io::Write) -> Writer<'a> {
        Writer {
            inner,
            pending: Vec::new(),
            guard: true,
            line_start: true,
            held: String::new(),
        }
    }

    /// A writer for workflow commands themselves (`--format github`):
    /// escapes as [`Writer::new`], but leaves lines that start with `::`.
    pub fn commands(inner: &'a mut dyn io::Write) -> Writer<'a> {
        let mut w = Writer::new(inner);
        w.guard = false;
        w
    }

    /// `s` with every line that would start a workflow command
    /// neutralised; what cannot be decided yet is held (`last`: nothing
    /// follows, write it all).
    fn guarded(&mut self, s: &str, last: bool) -> String {
        let mut res = String::with_capacity(s.len());
        for c in s.chars() {
            if !self.line_start {
                res.push(c);
                self.line_start = c == '\n';
                continue;
            }
            self.held.push(c);
            let t = self.held.trim_start_matches([' ', '\t']);
            let undecided = t.is_empty() || t == ":" || t == "#" || t == "##";
            if undecided {
                continue;
            }
            let blanks = self.held.len() - t.len();
            if t.starts_with("::") || t.starts_with("##[") {
                res.push_str(&self.held[..blanks]);
                res.push_str(if t.starts_with(':') { "\\x3a" } else { "\\x23" });
                res.push_str(&t[1..]);
            } else {
                res.push_str(&self.held);
            }
            self.held.clear();
            self.line_start = c == '\n';
        }
        if last {
            res.push_str(&std::mem::take(&mut self.held));
        }
        res
    }

    fn emit(&mut self, bytes: &[u8], last: bool) -> io::Result<()> {
        let mut rest = bytes;
        let mut out = String::new();
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    out.push_str(&escape_if(s, is_unsafe));
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    // valid by construction
                    out.push_str(&escape_if(
                        std::str::from_utf8(good).unwrap_or_default(),
                        is_unsafe,
                    ));
                    match e.error_len() {
                        Some(n) => {
                            for b in &bad[..n] {
                                let _ = write!(out, "\\x{b:02x}");
                            }
                            rest = &bad[n..];
                        }
                        None if last => {
                            for b in bad {
                                let _ = write!(out, "\\x{b:02x}");
                            }
                            rest = &[];
                            break;
                        }
                        None => {
                            rest = bad;
                            break;
                        }
                    }
                }
            }
        }
        self.pending = rest.to_vec();
        if self.guard {
            out = self.guarded(&out, last);
        }
        self.inner.write_all(out.as_bytes())
    }
}

impl io::Write for Writer<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(buf);
        self.emit(&bytes, false)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        if !self.pending.is_empty() || !self.held.is_empty() {
            let bytes = std::mem::take(&mut self.pending);
            let _ = self.emit(&bytes, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn through(chunks: &[&str], commands: bool) -> String {
        let mut buf = Vec::new();
        {
            let mut w = if commands {
                Writer::commands(&mut buf)
            } else {
                Writer::new(&mut buf)
            };
            for c in chunks {
                w.write_all(c.as_bytes()).unwrap();
            }
        }
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn no_line_starts_a_workflow_command() {
        let new = false;
        assert_eq!(
            through(
                &["- s: a\n::error title=x::forged\n   ##[group]y\n# ok\n:: "],
                new
            ),
            "- s: a\n\\x3a:error title=x::forged\n   \\x23#[group]y\n# ok\n\\x3a: "
        );
        // split across writes, and held to the end
        assert_eq!(
            through(&["a\n  :", ":add-mask::v\n#", "#", "[x]\n:"], new),
            "a\n  \\x3a:add-mask::v\n\\x23#[x]\n:"
        );
        // not at a line's start, or not a command: as it was
        assert_eq!(
            through(&["see ::x:: and ## [y]\n#a:\n"], new),
            "see ::x:: and ## [y]\n#a:\n"
        );
        // a message printed after `error: `, its later lines guarded
        assert_eq!(
            text("::first\n::error::x\n ##[y]"),
            "::first\n\\x3a:error::x\n \\x23#[y]"
        );
        // the GitHub format writes commands
        let commands = true;
        assert_eq!(
            through(&["::error file=a::m\n"], commands),
            "::error file=a::m\n"
        );
    }

    #[test]
    fn controls_and_bidi_are_escaped_and_line_breaks_kept() {
        assert_eq!(
            text("a\x1b]0;pwned\x07\x1b[2J b\n\tc\r\x7f"),
            "a\\x1b]0;pwned\\x07\\x1b[2J b\n\tc\\x0d\\x7f"
        );
        assert_eq!(
            text("\u{9b}2J \u{202e}x\u{2066}"),
            "\\u{9b}2J \\u{202e}x\\u{2066}"
        );
        assert_eq!(line("a\nb"), "a\\x0ab");
        assert_eq!(
            text("\u{e0041}\u{200b}\u{feff}"),
            "\\u{e0041}\\u{200b}\\u{feff}"
        );
        // emoji with a joiner, accents, CJK: untouched and not copied
        let fine = "👨\u{200d}👩 é 技";
        assert!(matches!(text(fine), Cow::Borrowed(_)));
    }

    #[test]
    fn mapped_offsets_follow_the_escapes() {
        let s = "ab\x1bcd\u{202e}ef";
        let m = Mapped::new(s).unwrap();
        assert_eq!(m.text, "ab\\x1bcd\\u{202e}ef");
        for (i, c) in s.char_indices() {
            if !is_unsafe(c) {
                assert_eq!(m.text[m.map(i)..].chars().next(), Some(c), "at {i}");
            }
        }
        assert_eq!(m.map(s.len()), m.text.len());
        assert!(Mapped::new("plain\n").is_none());
    }

    #[test]
    fn json_escapes_what_serde_json_leaves_raw_and_stays_the_same_value() {
        let v = serde_json::json!({"a": ["x\u{1b}\u{7f}\u{9b}\u{202e}\u{e0041}é👨\u{200d}👩"]});
        let mut buf = Vec::new();
        to_writer_pretty(&mut buf, &v).unwrap();
        let s = String::from_utf8(buf).unwrap();
        // the joiner of an emoji stays as it is
        assert!(
            s.contains("x\\u001b\\u007f\\u009b\\u202e\\udb40\\udc41é👨\u{200d}👩"),
            "{s}"
        );
        assert!(!s.chars().any(|c| is_unsafe(c) && c != '\n'));
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
        let mut plain = Vec::new();
        serde_json::to_writer_pretty(&mut plain, &serde_json::json!({"k": [1, "é"]})).unwrap();
        let mut ours = Vec::new();
        to_writer_pretty(&mut ours, &serde_json::json!({"k": [1, "é"]})).unwrap();
        assert_eq!(plain, ours);
    }

    #[test]
    fn the_writer_joins_split_characters_and_shows_bad_bytes() {
        let mut buf = Vec::new();
        {
            let mut w = Writer::new(&mut buf);
            let rlo = "\u{202e}".as_bytes();
            w.write_all(b"x\x1b").unwrap();
            w.write_all(&rlo[..1]).unwrap();
            w.write_all(&rlo[1..]).unwrap();
            w.write_all(b"\xff ok\n\xe2").unwrap();
        }
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "x\\x1b\\u{202e}\\xff ok\n\\xe2"
        );
    }
}
