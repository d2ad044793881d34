//! `skillsift report`: one self-contained HTML file.
//!
//! Two kinds of page, both built here from results other modules compute:
//!
//! - **routing** ([`routing`]), from a catalog: Tier 2's ranking of every
//!   trigger prompt (`route::cases`), its collisions (`route::collide`),
//!   the `rank --explain` contributions (`route::rank::explain`) and the
//!   findings `check` renders;
//!   and, when `check --behavioral-routing` ran, the model's routing
//!   beside Tier 2's ([`model_routing`]);
//! - **behavioral** ([`behavioral`]), from an iteration folder or a skill's
//!   results folder written by Tier 3 (`behave::iteration` reads them),
//!   scored by `crate::score`.
//!
//! Each section is one file. The page is one file with its CSS and
//! JavaScript inline and its pictures as inline SVG; a Content-Security-
//! Policy with the hashes of that CSS and script forbids every other
//! script, style and any network request, so even a mistake in escaping
//! could not run injected code. Every text from a catalog, a case file, an
//! agent or a grader goes through [`Esc`]; links are built by [`Href`]
//! from percent-encoded path segments only, so no text can become a
//! `javascript:` URL. Nothing depends on the clock, the machine or hash
//! order: the same input gives the same bytes.

pub mod evals;
pub mod expectations;
pub mod findings;
pub mod graph;
pub mod iterations;
pub mod listing;
pub mod matrix;
pub mod model_routing;
pub mod skills;
pub mod summary;

mod behavioral_page;
mod routing_page;

pub use behavioral_page::{Behavioral, behavioral};
pub use routing_page::{Routing, routing};

use sha2::{Digest, Sha256};
use std::fmt::{self, Write as _};

const STYLE: &str = include_str!("style.css");
const SCRIPT: &str = include_str!("script.js");

/// Escapes text for HTML content and quoted attribute values: `& < > " '`,
/// and, visibly, what the terminal output escapes ([`crate::escape`]):
/// control characters other than tab and line feed (a CR too: `\x0d`),
/// bidirectional controls and invisible format characters (`\u{202e}`),
/// so that no text reads in the report differently from what it is. A
/// line feed is written `&#10;`: text from the catalog never starts a line
/// of the file.
pub struct Esc<'a>(pub &'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        let mut from = 0;
        let mut shown = String::new();
        for (i, c) in s.char_indices() {
            let rep = match c {
                '&' => "&amp;",
                '<' => "&lt;",
                '>' => "&gt;",
                '"' => "&quot;",
                '\'' => "&#39;",
                // the same character to a browser; in the file (and in a
                // CI log that prints `report -o -`), untrusted text never
                // starts a line, so no line of it is a workflow command
                '\n' => "&#10;",
                c if crate::escape::is_unsafe(c) => {
                    shown.clear();
                    crate::escape::escaped(c, &mut shown);
                    shown.as_str()
                }
                _ => continue,
            };
            f.write_str(&s[from..i])?;
            f.write_str(rep)?;
            from = i + c.len_utf8();
        }
        f.write_str(&s[from..])
    }
}

/// A relative link: `base` (a relative path of `..` and folder names, or
/// empty) joined with a `/`-separated path, every segment percent-encoded
/// except unreserved characters. A `:` is always encoded, so the result is
/// never read as a URL scheme (`javascript:` and its kin).
pub struct Href<'a>(pub &'a str, pub &'a str);

impl fmt::Display for Href<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let segs = self
            .0
            .split('/')
            .chain(self.1.split('/'))
            .filter(|s| !s.is_empty() && *s != ".");
        for seg in segs {
            if !first {
                f.write_str("/")?;
            }
            if first && seg != ".." {
                f.write_str("./")?;
            }
            first = false;
            for b in seg.bytes() {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    f.write_char(b as char)?;
                } else {
                    write!(f, "%{b:02X}")?;
                }
            }
        }
        if first {
            f.write_str(".")?;
        }
        Ok(())
    }
}

/// `text` cut to at most `max` characters, with `…` when cut.
pub fn cut(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => text.into(),
        Some((i, _)) => format!("{}…", &text[..i]).into(),
    }
}

pub use crate::base::plural::thousands;

/// `1 skill`, `2 skills` (the plural adds an `s`), the count with
/// thousands separators.
pub fn count_of(n: usize, word: &str) -> String {
    format!("{} {word}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// `67%`, or `n/a` without a denominator.
pub fn percent(k: usize, n: usize) -> String {
    if n == 0 {
        "n/a".into()
    } else {
        format!("{}%", (100.0 * k as f64 / n as f64).round())
    }
}

pub use crate::scored::{num as rate, signed};

/// A number for SVG coordinates: one decimal, no `-0.0`.
pub fn coord(x: f64) -> String {
    let s = format!("{:.1}", if x.is_finite() { x } else { 0.0 });
    if s == "-0.0" { "0.0".into() } else { s }
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for ch in bytes.chunks(3) {
        let n = (u32::from(ch[0]) << 16)
            | (u32::from(*ch.get(1).unwrap_or(&0)) << 8)
            | u32::from(*ch.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= ch.len() {
                out.push(A[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The CSP source of an inline block: `'sha256-…'`.
fn csp_hash(text: &str) -> String {
    format!("'sha256-{}'", base64(&Sha256::digest(text.as_bytes())))
}

/// One section of a page: its anchor, its title in the navigation, and
/// its HTML.
pub struct Section {
    pub id: &'static str,
    pub title: String,
    pub html: String,
}

/// The whole page around `sections`.
pub fn page(title: &str, subtitle: &str, header: &str, sections: &[Section]) -> String {
    let size: usize = sections.iter().map(|s| s.html.len()).sum();
    let mut o = String::with_capacity(size + STYLE.len() + SCRIPT.len() + 4096);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src {}; script-src {}; img-src data:; base-uri 'none'; form-action 'none'\">\n\
         <meta name=\"generator\" content=\"skillsift {}\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header class=\"top\">\n<h1>{}</h1>\n<p class=\"sub\">{}</p>\n",
        csp_hash(STYLE),
        csp_hash(SCRIPT),
        env!("CARGO_PKG_VERSION"),
        Esc(title),
        Esc(title),
        Esc(subtitle),
    );
    o.push_str(header);
    o.push_str("<nav>");
    for s in sections {
        let _ = write!(o, "<a href=\"#{}\">{}</a>", s.id, Esc(&s.title));
    }
    o.push_str("</nav>\n</header>\n<main>\n");
    for s in sections {
        let _ = write!(o, "<section id=\"{}\">\n<h2>{}</h2>\n", s.id, Esc(&s.title));
        o.push_str(&s.html);
        o.push_str("</section>\n");
    }
    let _ = write!(
        o,
        "</main>\n<footer>skillsift {} · <code>skillsift report</code></footer>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    );
    o
}

/// A row of figures at the top of a page: (value, label, class).
pub fn cards(items: &[(String, String, &str)]) -> String {
    let mut o = String::from("<div class=\"cards\">");
    for (value, label, class) in items {
        let _ = write!(
            o,
            "<div class=\"card {class}\"><b>{}</b><span>{}</span></div>",
            Esc(value),
            Esc(label)
        );
    }
    o.push_str("</div>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup() {
        let s = Esc("<script>alert('x')</script> & \"q\" \u{0}\u{7}\n").to_string();
        assert_eq!(
            s,
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; \\x00\\x07&#10;"
        );
        // what reads differently from what it is, shown as the terminal shows it
        let s = Esc("a\rb \u{202e}evil\u{2066} tag\u{e0041}\u{9b}\t").to_string();
        assert_eq!(s, "a\\x0db \\u{202e}evil\\u{2066} tag\\u{e0041}\\u{9b}\t");
    }

    #[test]
    fn links_encode_every_segment_and_never_start_with_a_scheme() {
        assert_eq!(
            Href("", "javascript:alert(1)/SKILL.md").to_string(),
            "./javascript%3Aalert%281%29/SKILL.md"
        );
        assert_eq!(
            Href("../cat", "skills/a b/SKILL.md").to_string(),
            "../cat/skills/a%20b/SKILL.md"
        );
        assert_eq!(Href("", "").to_string(), ".");
        assert_eq!(
            Href("x", "\"><script>").to_string(),
            "./x/%22%3E%3Cscript%3E"
        );
    }

    #[test]
    fn base64_matches_the_rfc_examples() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn numbers_are_formatted_the_same_everywhere() {
        assert_eq!(thousands(1754), "1,754");
        assert_eq!(thousands(12), "12");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(percent(67, 78), "86%");
        assert_eq!(percent(0, 0), "n/a");
        assert_eq!(coord(-0.01), "0.0");
        assert_eq!(cut("abcdef", 3), "abc…");
        assert_eq!(cut("abc", 3), "abc");
    }
}
