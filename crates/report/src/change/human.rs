//! `skillsift diff --format human`: the verdict, the rates, then each
//! change on a line, worse first.

use super::{Cell, Compared, Row, Way, rate, rows, verdict};
use std::io::{self, Write};

/// Findings listed of each kind (JSON has them all).
const SHOWN: usize = 20;

fn cells(cs: &[Cell]) -> String {
    let mut s = String::new();
    for c in cs {
        match c {
            Cell::Text(t) => s.push_str(t),
            Cell::Prompt(p) => s.push_str(&serde_json::to_string(p).unwrap_or_default()),
            Cell::Name(n) => {
                s.push('`');
                s.push_str(&crate::escape::line(n));
                s.push('`');
            }
        }
    }
    s
}

fn row(r: &Row) -> String {
    let mut s = format!(
        "  {}: {} → {}",
        cells(&r.what),
        cells(&r.before),
        cells(&r.after)
    );
    if !r.install.is_empty() {
        s.push_str(&format!(" [{}]", crate::escape::line(&r.install)));
    }
    s
}

pub fn render(c: &Compared, out: &mut dyn Write) -> io::Result<()> {
    let d = c.diff;
    writeln!(
        out,
        "diff     {} ({}) → the working tree, as {} lists the catalog",
        crate::escape::line(c.rev),
        &c.commit[..c.commit.len().min(12)],
        c.client
    )?;
    writeln!(out, "verdict  {}", verdict(d))?;
    for r in &d.rates {
        let at = if r.install.is_empty() {
            String::new()
        } else {
            format!("  [{}]", crate::escape::line(&r.install))
        };
        writeln!(
            out,
            "rates    rank-1 {} → {}; trigger checks passed {} → {}{at}",
            rate(r.rank1_before),
            rate(r.rank1_after),
            rate(r.passed_before),
            rate(r.passed_after)
        )?;
    }
    let all = rows(d);
    for (way, title) in [
        (Way::Worse, "worse"),
        (Way::Better, "better"),
        (Way::Other, "changed"),
    ] {
        let these: Vec<&Row> = all.iter().filter(|r| r.way == way).collect();
        if these.is_empty() {
            continue;
        }
        writeln!(out, "{title}")?;
        for r in these {
            writeln!(out, "{}", row(r))?;
        }
    }
    writeln!(
        out,
        "findings {} new, {} fixed",
        d.findings_new.len(),
        d.findings_fixed.len()
    )?;
    for (what, list) in [("new  ", &d.findings_new), ("fixed", &d.findings_fixed)] {
        for f in list.iter().take(SHOWN) {
            let at = match f.line {
                Some(l) => format!("{}:{l}", f.file),
                None => f.file.clone(),
            };
            writeln!(
                out,
                "  {what} {} {} {}",
                f.rule,
                crate::escape::line(&at),
                crate::escape::line(&f.message)
            )?;
        }
        if list.len() > SHOWN {
            writeln!(
                out,
                "  … {} more {} (--format json lists every one)",
                list.len() - SHOWN,
                what.trim()
            )?;
        }
    }
    Ok(())
}
