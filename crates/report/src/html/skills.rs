//! One row per routed skill: its rank-1 rate, its trigger checks, the
//! prompts it lost and took, its collisions, and each failed check with
//! the prompt, the skill ranked first and the words that skill's
//! description has and this one's lacks (what SG501's help says). Skills
//! with failed checks come first; a filter box narrows the table by name.

use super::matrix::{Matrix, prompt_place};
use super::{Esc, Href, cut, percent};

/// Characters of a description shown under its skill.
const DESCRIPTION_CHARS: usize = 400;
use crate::route::Routed;
use crate::route::cases::{Kind, missing_words};
use crate::route::index::Query;
use std::fmt::Write as _;

#[derive(Default)]
struct Row {
    positives: usize,
    rank1: usize,
    checks: usize,
    passed: usize,
    /// Failed prompts, by index into `Routed::prompts`.
    failed: Vec<usize>,
    collisions: Vec<u32>,
}

pub fn render(
    routed: &Routed,
    m: &Matrix,
    at_prompt: &super::routing_page::AtPrompt,
    link_base: &str,
) -> String {
    let router = &routed.router;
    let index = &router.index;
    let mut rows: Vec<Row> = (0..index.len()).map(|_| Row::default()).collect();
    for (i, p) in routed.prompts.iter().enumerate() {
        let r = &mut rows[p.doc as usize];
        r.checks += 1;
        if p.passed {
            r.passed += 1;
        } else {
            r.failed.push(i);
        }
        if p.kind == Kind::Positive {
            r.positives += 1;
            if p.rank1 {
                r.rank1 += 1;
            }
        }
    }
    for f in &routed.collisions {
        rows[f.pair.a as usize].collisions.push(f.pair.b);
        rows[f.pair.b as usize].collisions.push(f.pair.a);
    }
    // the catalog's skills: a client's built-ins and commands are
    // competitors, not rows
    let mut order: Vec<u32> = (0..index.len() as u32)
        .filter(|&d| !router.is_competitor(d))
        .collect();
    order.sort_by(|&a, &b| {
        rows[b as usize]
            .failed
            .len()
            .cmp(&rows[a as usize].failed.len())
            .then(a.cmp(&b))
    });
    let mut o = String::new();
    let failing = rows.iter().filter(|r| !r.failed.is_empty()).count();
    let _ = writeln!(
        o,
        "<p>{} routed; {failing} with a failed trigger check, listed first. <label>Filter by name <input type=\"search\" id=\"skill-filter\" autocomplete=\"off\"></label></p>",
        super::count_of(order.len(), "skill")
    );
    o.push_str("<table class=\"list skills\" id=\"skill-table\"><thead><tr><th>skill</th><th>rank-1</th><th>checks passed</th><th>prompts lost / taken</th><th>collisions</th><th>failed checks</th></tr></thead><tbody>\n");
    for d in order {
        let r = &rows[d as usize];
        let info = index.doc(d);
        let (lost, taken) = m.lost_and_taken(d);
        let _ = write!(
            o,
            "<tr id=\"s{d}\" data-name=\"{}\"><td><b>{}</b> <a href=\"{}\"><code>{}</code></a><br><small class=\"desc\">{}</small></td><td>{}</td><td class=\"{}\">{}/{}</td><td>{lost} / {taken}</td><td>",
            Esc(&info.name),
            Esc(&info.name),
            Href(link_base, &info.file),
            Esc(&info.file),
            Esc(&cut(router.routed(d).1, DESCRIPTION_CHARS)),
            if r.positives == 0 {
                "<i>no positive prompt</i>".to_string()
            } else {
                format!(
                    "{} ({}/{})",
                    percent(r.rank1, r.positives),
                    r.rank1,
                    r.positives
                )
            },
            if r.passed == r.checks { "ok" } else { "fail" },
            r.passed,
            r.checks
        );
        for (k, &other) in r.collisions.iter().enumerate() {
            if k > 0 {
                o.push_str(", ");
            }
            let _ = write!(
                o,
                "<a href=\"#s{other}\">{}</a>",
                Esc(&index.doc(other).name)
            );
        }
        o.push_str("</td><td>");
        if !r.failed.is_empty() {
            let _ = write!(
                o,
                "<details><summary>{} failed</summary><ul class=\"failed\">",
                r.failed.len()
            );
            for &i in &r.failed {
                let p = &routed.prompts[i];
                let _ = write!(
                    o,
                    "<li><p class=\"prompt\">{}</p><p class=\"meta\">{} · ",
                    Esc(&p.prompt),
                    match p.kind {
                        Kind::Positive => "positive",
                        Kind::Negative => "negative",
                    }
                );
                prompt_place(&mut o, p, link_base);
                o.push_str("</p>");
                for diag in at_prompt.of(p) {
                    let _ = write!(
                        o,
                        "<p><span class=\"rule\">{}</span> {}</p>",
                        diag.rule,
                        Esc(&diag.message)
                    );
                }
                if let Some(c) = p.cell
                    && let Some(w) = c.winner.filter(|&w| w != c.owner)
                {
                    let q = Query::new(&p.prompt, &router.analyzer, index);
                    let words = missing_words(router, &q, c.owner, w);
                    let _ = write!(
                        o,
                        "<p>ranked first: <b>{}</b> at {:.3}",
                        Esc(&index.doc(w).name),
                        c.winner_score
                    );
                    if !words.is_empty() {
                        let _ = write!(
                            o,
                            "; its description has {} and <b>{}</b>'s lacks {}",
                            words
                                .iter()
                                .map(|w| format!("<code>{}</code>", Esc(w)))
                                .collect::<Vec<_>>()
                                .join(", "),
                            Esc(&index.doc(c.owner).name),
                            if words.len() == 1 { "it" } else { "them" }
                        );
                    }
                    let _ = write!(
                        o,
                        " · <a href=\"#{}\">why</a></p>",
                        Matrix::cell_id(c.owner, c.winner)
                    );
                }
                o.push_str("</li>");
            }
            o.push_str("</ul></details>");
        }
        o.push_str("</td></tr>\n");
    }
    o.push_str("</tbody></table>\n");
    o
}
