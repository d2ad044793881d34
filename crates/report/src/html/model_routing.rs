//! The model's routing beside Tier 2's: the latest
//! `evals/results/_routing/iteration-N/routing.json` of the catalog
//! (`check --behavioral-routing`, `behave::routing`), drawn on the routing
//! page next to the confusion matrix: how often the model routed as the
//! authors expect, how often Tier 2's first choice did and equals the
//! model's, and the prompts where either is wrong, in the three groups
//! `check` prints. Every text from the document goes through [`Esc`];
//! prompts are cut to [`SHOWN`] characters.

use super::{Esc, Href, cards, cut, percent};
use crate::behave::routing::{GROUPS, PromptDoc, RoutingDoc};
use std::fmt::Write as _;

/// Longest prompt shown, in characters.
pub const SHOWN: usize = 200;

/// What the model loaded over the trials of `d`.
fn loaded(d: &PromptDoc) -> String {
    let mut seen: Vec<String> = Vec::new();
    for l in &d.loaded {
        let s = if l.is_empty() {
            "nothing".to_string()
        } else {
            l.join(" + ")
        };
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen.join(" / ")
}

fn tier2(d: &PromptDoc) -> String {
    if d.tier2.is_empty() {
        "no skill scores above 0".into()
    } else {
        d.tier2.join(", ")
    }
}

/// The section's HTML; `rel` is routing.json's path relative to the
/// catalog root, `link_base` the catalog root relative to the report.
pub fn render(doc: &RoutingDoc, rel: &str, link_base: &str) -> String {
    let s = &doc.summary;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<p>{} {} ran every trigger prompt of the catalog with every skill installed ({} trial{} each; <a href=\"{}\"><code>{}</code></a>). Correct: a positive loaded its skill; a negative did not, and loaded its owner when it names one. Tier 2 is correct when its first choice is that skill (or, for a negative, is not it and is the owner).</p>",
        Esc(&doc.client),
        Esc(doc.client_version.as_deref().unwrap_or("(version unknown)")),
        doc.trials,
        if doc.trials == 1 { "" } else { "s" },
        Href(link_base, rel),
        Esc(rel)
    );
    let class = |k: usize| if k == s.prompts { "good" } else { "warn" };
    o.push_str(&cards(&[
        (
            percent(s.model_correct, s.prompts),
            format!(
                "the model routed as expected ({}/{})",
                s.model_correct, s.prompts
            ),
            class(s.model_correct),
        ),
        (
            percent(s.tier2_correct, s.prompts),
            format!(
                "Tier 2's first choice as expected ({}/{})",
                s.tier2_correct, s.prompts
            ),
            class(s.tier2_correct),
        ),
        (
            percent(s.agree, s.prompts),
            format!(
                "Tier 2's first choice equals the model's ({}/{})",
                s.agree, s.prompts
            ),
            class(s.agree),
        ),
    ]));
    if s.failed_runs > 0 {
        let _ = writeln!(
            o,
            "<p class=\"note\">{} gave no evidence and count as loading nothing.</p>",
            crate::base::plural::count(s.failed_runs, "run")
        );
    }
    let mut any = false;
    for (title, pick) in GROUPS {
        let hits: Vec<&PromptDoc> = doc.prompts.iter().filter(|d| pick(d)).collect();
        if hits.is_empty() {
            continue;
        }
        any = true;
        let _ = writeln!(o, "<h3>{} ({})</h3>", Esc(title), hits.len());
        o.push_str("<table class=\"list\"><thead><tr><th>prompt</th><th>case</th><th>the model loaded</th><th>Tier 2</th></tr></thead><tbody>\n");
        for d in hits {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{} of <code>{}</code>{}</td><td>{}</td><td>{}</td></tr>",
                Esc(&cut(&d.prompt, SHOWN)),
                Esc(&d.expect),
                Esc(&d.skill),
                d.owner
                    .as_ref()
                    .map(|w| format!(", owner <code>{}</code>", Esc(w)))
                    .unwrap_or_default(),
                Esc(&loaded(d)),
                Esc(&tier2(d))
            );
        }
        o.push_str("</tbody></table>\n");
    }
    if !any {
        o.push_str(
            "<p class=\"empty good\">The model and Tier 2 routed every prompt as expected.</p>\n",
        );
    }
    o
}
