//! The routing report's "Change against REV" section (`skillsift report
//! --against REV`): the same verdict, rates and rows as `skillsift diff`,
//! every untrusted cell escaped by [`crate::html::Esc`].

use super::{Cell, Compared, Row, Way, rate, rows, verdict};
use crate::html::Esc;
use std::fmt::Write as _;

fn cells(cs: &[Cell]) -> String {
    let mut s = String::new();
    for c in cs {
        let _ = match c {
            Cell::Text(t) => write!(s, "{}", Esc(t)),
            Cell::Prompt(p) => write!(s, "<q>{}</q>", Esc(p)),
            Cell::Name(n) => write!(s, "<code>{}</code>", Esc(n)),
        };
    }
    s
}

fn table(o: &mut String, rows: &[&Row], installs: bool) {
    o.push_str("<table class=\"list change\"><thead><tr>");
    if installs {
        o.push_str("<th>installation</th>");
    }
    o.push_str("<th>what</th><th>before</th><th>after</th></tr></thead><tbody>\n");
    for r in rows {
        o.push_str(if r.gate { "<tr class=\"bad\">" } else { "<tr>" });
        if installs {
            let _ = write!(o, "<td><code>{}</code></td>", Esc(&r.install));
        }
        let _ = writeln!(
            o,
            "<td>{}{}</td><td>{}</td><td>{}</td></tr>",
            cells(&r.what),
            if r.gate { " ⛔" } else { "" },
            cells(&r.before),
            cells(&r.after)
        );
    }
    o.push_str("</tbody></table>\n");
}

/// The section's HTML.
pub fn render(c: &Compared) -> String {
    let d = c.diff;
    let mut o = String::new();
    let class = if d.worse {
        "bad"
    } else if d.unchanged {
        "good"
    } else {
        "neutral"
    };
    let _ = writeln!(
        o,
        "<p class=\"verdict {class}\">{}</p>\n<p class=\"note\">Against <code>{}</code> (<code>{}</code>), as {} lists the catalog; ⛔ marks a change that fails <code>skillsift diff</code>.</p>",
        Esc(&verdict(d)),
        Esc(c.rev),
        Esc(&c.commit[..c.commit.len().min(12)]),
        Esc(c.client)
    );
    o.push_str("<table class=\"list rates\"><thead><tr><th>installation</th><th>rank-1 before</th><th>rank-1 after</th><th>checks passed before</th><th>checks passed after</th></tr></thead><tbody>\n");
    for r in &d.rates {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if r.install.is_empty() {
                "the catalog".to_string()
            } else {
                format!("<code>{}</code>", Esc(&r.install))
            },
            rate(r.rank1_before),
            rate(r.rank1_after),
            rate(r.passed_before),
            rate(r.passed_after)
        );
    }
    o.push_str("</tbody></table>\n");
    let all = rows(d);
    let installs = all.iter().any(|r| !r.install.is_empty());
    for (way, title) in [
        (Way::Worse, "Worse"),
        (Way::Better, "Better"),
        (Way::Other, "Other changes"),
    ] {
        let these: Vec<&Row> = all.iter().filter(|r| r.way == way).collect();
        if these.is_empty() {
            continue;
        }
        let _ = writeln!(o, "<h3>{title} ({})</h3>", these.len());
        table(&mut o, &these, installs);
    }
    if !d.findings_new.is_empty() || !d.findings_fixed.is_empty() {
        let _ = writeln!(
            o,
            "<details><summary>Findings: {} new, {} fixed</summary><ul class=\"findings\">",
            d.findings_new.len(),
            d.findings_fixed.len()
        );
        for (what, list) in [("new", &d.findings_new), ("fixed", &d.findings_fixed)] {
            for f in list {
                let at = match f.line {
                    Some(l) => format!("{}:{l}", f.file),
                    None => f.file.clone(),
                };
                let _ = writeln!(
                    o,
                    "<li>{what}: <span class=\"rule\">{}</span> <code>{}</code> {}</li>",
                    Esc(&f.rule),
                    Esc(&at),
                    Esc(&f.message)
                );
            }
        }
        o.push_str("</ul></details>\n");
    }
    o
}
