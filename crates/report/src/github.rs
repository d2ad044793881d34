//! `--format github`: one workflow command per diagnostic, e.g.
//! `::error file=skills/a/SKILL.md,line=3,col=5,title=SG101 name-format::message`.

use super::{Outcome, display_path};
use crate::diag::Severity;
use std::io::Write;

/// Escape a workflow command's message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a workflow command's property value.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(o: &Outcome, out: &mut dyn Write) -> std::io::Result<()> {
    // `%`, CR and LF are escaped as the runner reads them; every other
    // control or bidirectional character as `\x1b`, `\u{202e}`, so no
    // escape sequence reaches the log viewer
    let mut out = crate::escape::Writer::commands(out);
    let out: &mut dyn Write = &mut out;
    for d in o.diagnostics {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Notice => "notice",
        };
        let mut props = format!(
            "file={}",
            escape_property(&display_path(o.path_prefix, &d.file))
        );
        if let Some(s) = d.span {
            props.push_str(&format!(
                ",line={},col={},endLine={},endColumn={}",
                s.line, s.col, s.end_line, s.end_col
            ));
        }
        let name = crate::lint::registry::find(d.rule)
            .map(|r| r.name)
            .unwrap_or("");
        props.push_str(&format!(
            ",title={}",
            escape_property(format!("{} {}", d.rule, name).trim())
        ));
        let mut msg = d.message.clone();
        if let Some(h) = &d.help {
            msg.push_str("\nhelp: ");
            msg.push_str(h);
        }
        writeln!(out, "::{level} {props}::{}", escape_data(&msg))?;
    }
    let s = o.summary;
    if let Some(line) = super::human::roots_line(s) {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "{} checked: {}, {}, {}",
        crate::base::plural::count(s.skills_checked, "skill"),
        crate::base::plural::count(s.errors, "error"),
        crate::base::plural::count(s.warnings, "warning"),
        crate::base::plural::count(s.notices, "notice")
    )?;
    for line in super::human::route_lines(s) {
        writeln!(out, "{line}")?;
    }
    if let Some(line) = super::human::rank1_line(s) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_escape_commas_and_colons() {
        assert_eq!(escape_property("a,b:c%\n"), "a%2Cb%3Ac%25%0A");
        assert_eq!(escape_data("a:b\n"), "a:b%0A");
    }

    #[test]
    fn no_control_character_passes() {
        let mut buf = Vec::new();
        {
            let mut w = crate::escape::Writer::commands(&mut buf);
            let line = format!(
                "::error file=a::{}",
                escape_data("x\x1b]0;t\x07\r\n\u{9b}\u{202e}")
            );
            std::io::Write::write_all(&mut w, line.as_bytes()).unwrap();
        }
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "::error file=a::x\\x1b]0;t\\x07%0D%0A\\u{9b}\\u{202e}"
        );
    }
}
