//! `skillsift diff --format markdown`: a pull-request comment. A hidden
//! marker first (the action finds its own comment by it), a one-line
//! verdict, the rates, a table of what got worse, then what got better;
//! the rest folded in `<details>`.
//!
//! Prompts, names, paths and messages are a stranger's text: each is a
//! code span ([`code`]), where Markdown makes no link, image, mention,
//! emphasis or HTML of it; its fence is longer than any run of backticks
//! inside, a `|` is escaped in a table cell (GitHub's tables split cells
//! before they read code spans), line breaks become spaces and controls
//! escapes.

use super::{Cell, Compared, Row, Way, rate, rows, verdict};
use std::io::{self, Write};

/// The first line of every comment `skillsift diff` writes.
pub const MARKER: &str = "<!-- skillsift-diff -->";

/// Rows shown in the worse and better tables before the rest is folded.
const SHOWN: usize = 15;
/// Rows of a folded table (a comment holds 65,536 characters).
const FOLDED: usize = 100;
/// Findings listed of each kind.
const FINDINGS: usize = 30;

/// `s` as a code span; `in_table`: inside a table cell.
pub fn code(s: &str, in_table: bool) -> String {
    let mut body = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' | '\r' | '\t' => body.push(' '),
            '|' if in_table => body.push_str("\\|"),
            c if crate::escape::is_unsafe(c) => crate::escape::escaped(c, &mut body),
            c => body.push(c),
        }
    }
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if body.starts_with(['`', ' ']) || body.ends_with(['`', ' ']) || body.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

fn cells(cs: &[Cell]) -> String {
    let mut s = String::new();
    for c in cs {
        match c {
            Cell::Text(t) => s.push_str(t),
            Cell::Prompt(p) | Cell::Name(p) => s.push_str(&code(p, true)),
        }
    }
    s
}

fn table(out: &mut dyn Write, all: &[&Row], installs: bool) -> io::Result<()> {
    let rows = &all[..all.len().min(FOLDED)];
    if installs {
        writeln!(out, "| installation | what | before | after |")?;
        writeln!(out, "|---|---|---|---|")?;
    } else {
        writeln!(out, "| what | before | after |")?;
        writeln!(out, "|---|---|---|")?;
    }
    for r in rows {
        let mark = if r.gate { " ⛔" } else { "" };
        if installs {
            write!(out, "| {} ", code(&r.install, true))?;
        }
        writeln!(
            out,
            "| {}{mark} | {} | {} |",
            cells(&r.what),
            cells(&r.before),
            cells(&r.after)
        )?;
    }
    if all.len() > rows.len() {
        writeln!(
            out,
            "\n… {} more (`skillsift diff --format json` lists every one)",
            all.len() - rows.len()
        )?;
    }
    Ok(())
}

fn section(out: &mut dyn Write, title: &str, rows: &[&Row], installs: bool) -> io::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(out, "\n**{title}** ({})\n", rows.len())?;
    table(out, &rows[..rows.len().min(SHOWN)], installs)?;
    if rows.len() > SHOWN {
        writeln!(
            out,
            "\n<details><summary>{} more</summary>\n",
            rows.len() - SHOWN
        )?;
        table(out, &rows[SHOWN..], installs)?;
        writeln!(out, "\n</details>")?;
    }
    Ok(())
}

pub fn render(c: &Compared, out: &mut dyn Write) -> io::Result<()> {
    let d = c.diff;
    writeln!(out, "{MARKER}")?;
    let icon = if d.worse {
        "⛔"
    } else if d.unchanged {
        "✅"
    } else {
        "ℹ️"
    };
    writeln!(out, "### {icon} skillsift: {}\n", verdict(d))?;
    writeln!(
        out,
        "Against {} ({}), as {} lists the catalog; ⛔ marks a change that fails the diff.\n",
        code(c.rev, false),
        code(&c.commit[..c.commit.len().min(12)], false),
        c.client
    )?;
    let whole = &d.rates[0];
    writeln!(out, "| | before | after |")?;
    writeln!(out, "|---|---|---|")?;
    writeln!(
        out,
        "| rank-1 rate | {} | {} |",
        rate(whole.rank1_before),
        rate(whole.rank1_after)
    )?;
    writeln!(
        out,
        "| trigger checks passed | {} | {} |",
        rate(whole.passed_before),
        rate(whole.passed_after)
    )?;
    let all = rows(d);
    let installs = all.iter().any(|r| !r.install.is_empty());
    let of = |w: Way| all.iter().filter(|r| r.way == w).collect::<Vec<_>>();
    section(out, "Worse", &of(Way::Worse), installs)?;
    section(out, "Better", &of(Way::Better), installs)?;
    let other = of(Way::Other);
    if !other.is_empty() {
        writeln!(
            out,
            "\n<details><summary>Other changes ({})</summary>\n",
            other.len()
        )?;
        table(out, &other, installs)?;
        writeln!(out, "\n</details>")?;
    }
    if d.rates.len() > 1 {
        writeln!(
            out,
            "\n<details><summary>Rates of each installation that changed ({})</summary>\n",
            d.rates.len() - 1
        )?;
        writeln!(
            out,
            "| installation | rank-1 before | rank-1 after | checks before | checks after |"
        )?;
        writeln!(out, "|---|---|---|---|---|")?;
        for r in &d.rates[1..] {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                code(&r.install, true),
                rate(r.rank1_before),
                rate(r.rank1_after),
                rate(r.passed_before),
                rate(r.passed_after)
            )?;
        }
        writeln!(out, "\n</details>")?;
    }
    if !d.findings_new.is_empty() || !d.findings_fixed.is_empty() {
        writeln!(
            out,
            "\n<details><summary>Findings: {} new, {} fixed</summary>\n",
            d.findings_new.len(),
            d.findings_fixed.len()
        )?;
        for (what, list) in [("new", &d.findings_new), ("fixed", &d.findings_fixed)] {
            for f in list.iter().take(FINDINGS) {
                let at = match f.line {
                    Some(l) => format!("{}:{l}", f.file),
                    None => f.file.clone(),
                };
                writeln!(
                    out,
                    "- {what}: **{}** {} {}",
                    f.rule,
                    code(&at, false),
                    code(&f.message, false)
                )?;
            }
            if list.len() > FINDINGS {
                writeln!(
                    out,
                    "- … {} more {what} (`skillsift diff --format json` lists every one)",
                    list.len() - FINDINGS
                )?;
            }
        }
        writeln!(out, "\n</details>")?;
    }
    Ok(())
}
