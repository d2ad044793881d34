//! The catalog's skill listing against a client's budget.
//!
//! Clients show the model one entry per skill, `name: description` (Claude
//! Code appends `when_to_use`), cut each entry at a cap (Claude Code: 1,536
//! characters) and list only so many characters in all. With `[route]
//! entry-cap-chars` set, every entry longer than the cap is reported
//! (SG521); with `listing-budget-chars` set, the entries are added up in name
//! order (each cut at the cap) and the skills past the budget are named
//! (SG520). Characters are Unicode scalar values.

use super::Router;
use super::rules;
use crate::client::{ChangeKind, ClientId};
use crate::config::RouteConfig;
use crate::diag::Diagnostic;

/// Most skills named in the budget finding.
const MAX_NAMED: usize = 20;

/// The span of a skill's (last) `description` value.
fn description_span(skill: Option<&crate::catalog::Skill>) -> Option<crate::diag::Span> {
    skill?
        .frontmatter
        .as_ref()?
        .entries
        .iter()
        .rev()
        .find(|e| e.key == "description")
        .map(|e| e.value_span)
}

pub fn check(router: &Router, config: &RouteConfig) -> Vec<Diagnostic> {
    match router.listing.client {
        ClientId::Spec => spec(router, config),
        _ => client(router),
    }
}

/// A client model's own cap and budget (Claude Code: 1,536 UTF-16 units
/// per entry, 30,000 columns in all by default, both changed by the same
/// keys): what its listing says was cut or shown by name only.
fn client(router: &Router) -> Vec<Diagnostic> {
    let l = &router.listing;
    let mut out = Vec::new();
    for e in l.entries.iter().filter(|e| e.listed) {
        for c in e.changes.iter().filter(|c| c.kind == ChangeKind::Cut) {
            out.push(
                rules::ENTRY_CAP
                    .diag(&e.path, format!("{}'s listing entry `{}`: {}", l.client.label(), e.name, c.detail))
                    .with_span_opt(c.span)
                    .with_label("cut in the listing")
                    .with_help("shorten the description (and `when_to_use`) to what an agent needs to choose the skill; move details into the body"),
            );
        }
    }
    let short: Vec<&crate::client::Entry> = l
        .entries
        .iter()
        .filter(|e| {
            e.name_only
                || e.changes.iter().any(|c| c.kind == ChangeKind::Shortened)
                || matches!(e.reason, Some(crate::client::Hidden::OverBudget))
        })
        .collect();
    let what = match l.client {
        ClientId::Codex => "a shortened description",
        _ => "the name only, no description",
    };
    if let (Some(b), Some(first)) = (&l.budget, short.first()) {
        let mut names: Vec<String> = short
            .iter()
            .take(MAX_NAMED)
            .map(|e| format!("`{}`", e.name))
            .collect();
        if short.len() > MAX_NAMED {
            names.push(format!("and {} more", short.len() - MAX_NAMED));
        }
        out.push(
            rules::LISTING_BUDGET
                .diag(
                    &first.path,
                    format!(
                        "{}'s skill listing is {} {}, over its {}-{} budget: {} skill{} show{} {what}: {}",
                        l.client.label(),
                        b.used,
                        b.unit,
                        b.limit,
                        b.unit.trim_end_matches('s'),
                        short.len(),
                        if short.len() == 1 { "" } else { "s" },
                        if short.len() == 1 { "s" } else { "" },
                        names.join(", ")
                    ),
                )
                .with_span_opt(description_span(router.catalog.skills.get(first.skill)))
                .with_label("the first entry shown by name only")
                .with_help(match l.client {
                    ClientId::Codex => "shorten descriptions across the catalog, or split it into smaller plugins (Codex's budget is 2 % of its model's context window; set [route] listing-budget-chars to 4 × that many tokens for your model)",
                    _ => "shorten descriptions across the catalog, split it into smaller plugins, or raise the budget (Claude Code: `skillListingBudgetFraction` in settings.json; then set [route] listing-budget-chars to match)",
                }),
        );
    }
    out
}

/// A skill's listing entry text: its description, plus `when_to_use`.
fn entry_text(skill: &crate::catalog::Skill) -> String {
    let mut t = skill.description().unwrap_or("").trim().to_string();
    if let Some(w) = skill
        .frontmatter
        .as_ref()
        .and_then(|f| f.str("when_to_use"))
    {
        let w = w.value.trim();
        if !w.is_empty() {
            t.push(' ');
            t.push_str(w);
        }
    }
    t
}

/// The specification's reading against the configured cap and budget, in
/// characters (Unicode scalar values); nothing without them.
fn spec(router: &Router, config: &RouteConfig) -> Vec<Diagnostic> {
    let (budget, cap) = (config.listing_budget_chars, config.entry_cap_chars);
    if budget.is_none() && cap.is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut total = 0usize;
    let mut past: Vec<usize> = Vec::new();
    for d in 0..router.index.len() as u32 {
        let info = router.index.doc(d);
        let Some(skill) = router.skill(d) else {
            continue;
        };
        let text = entry_text(skill);
        let chars = text.chars().count();
        let span = description_span(Some(skill));
        let shown = match cap {
            Some(c) if chars > c => {
                let cut: String = text.chars().skip(c).take(40).collect();
                out.push(
                    rules::ENTRY_CAP
                        .diag(
                            &info.file,
                            format!(
                                "the listing entry of `{}` is {chars} characters; clients show {c}, so the last {} are cut",
                                info.name,
                                chars - c
                            ),
                        )
                        .with_span_opt(span)
                        .with_label(format!("cut from \"{}…\"", cut.trim_end()))
                        .with_help("shorten the description to what an agent needs to choose the skill; move details into the body"),
                );
                c
            }
            _ => chars,
        };
        total += info.name.chars().count() + 2 + shown;
        if budget.is_some_and(|b| total > b) {
            past.push(d as usize);
        }
    }
    if let (Some(b), Some(&first)) = (budget, past.first()) {
        let info = router.index.doc(first as u32);
        let mut names: Vec<String> = past
            .iter()
            .take(MAX_NAMED)
            .map(|&d| format!("`{}`", router.index.doc(d as u32).name))
            .collect();
        if past.len() > MAX_NAMED {
            names.push(format!("and {} more", past.len() - MAX_NAMED));
        }
        out.push(
            rules::LISTING_BUDGET
                .diag(
                    &info.file,
                    format!(
                        "the skill listing is {total} characters, over the {b}-character budget: {} skill{} would not fit: {}",
                        past.len(),
                        if past.len() == 1 { "" } else { "s" },
                        names.join(", ")
                    ),
                )
                .with_span_opt(description_span(router.skill(first as u32)))
                .with_label("the first entry past the budget")
                .with_help("shorten descriptions across the catalog, or split it into smaller plugins"),
        );
    }
    out
}
