//! The routing page: a catalog's Tier 2 results and its findings.

use super::{
    Esc, Section, cards, findings, graph, listing, matrix, page, percent, skills, thousands,
};
use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::report::Summary;
use crate::route::Routed;
use std::fmt::Write as _;

/// Everything the routing page shows.
pub struct Routing<'a> {
    /// The catalog as given on the command line.
    pub shown_root: &'a str,
    pub catalog: &'a Catalog,
    /// Tier 2's results.
    pub routed: &'a Routed<'a>,
    /// Every finding of `check`, levels applied, sorted.
    pub diagnostics: &'a [Diagnostic],
    pub summary: &'a Summary,
    pub config: &'a Config,
    /// The catalog root relative to the report's folder (links).
    pub link_base: &'a str,
}

/// The page's HTML.
pub fn routing(r: &Routing) -> String {
    let s = r.summary;
    let route = s.route.clone().unwrap_or_default();
    let m = matrix::Matrix::build(r.routed);
    let collisions = &r.routed.collisions;
    let errors = collisions.iter().filter(|c| c.error).count();
    let mut figures = vec![
        (
            thousands(s.skills_checked),
            "skills found".to_string(),
            "neutral",
        ),
        (
            thousands(route.skills_routed),
            "routed (name and description readable)".into(),
            "neutral",
        ),
        (
            percent(route.rank1, route.positives),
            format!(
                "rank-1 rate ({}/{} positive prompts rank their skill first)",
                route.rank1, route.positives
            ),
            if route.positives > 0 && route.rank1 == route.positives {
                "good"
            } else {
                "warn"
            },
        ),
        (
            format!("{}/{}", route.checks_passed, route.checks),
            "trigger checks passed".into(),
            if route.checks_passed == route.checks {
                "good"
            } else {
                "bad"
            },
        ),
        (
            thousands(m.stolen()),
            "prompts ranked first for another skill".into(),
            if m.stolen() == 0 { "good" } else { "warn" },
        ),
        (
            thousands(collisions.len()),
            format!("colliding pairs ({errors} at the error level)"),
            if collisions.is_empty() {
                "good"
            } else if errors > 0 {
                "bad"
            } else {
                "warn"
            },
        ),
        (
            thousands(s.errors),
            format!("errors ({} warnings, {} notices)", s.warnings, s.notices),
            if s.errors == 0 { "good" } else { "bad" },
        ),
    ];
    let (hidden, changed) = listing::counts(&r.routed.router);
    figures.push((
        thousands(hidden),
        format!(
            "not listed by {} ({changed} listed with a changed text)",
            r.routed.router.listing.client.label()
        ),
        if hidden == 0 && changed == 0 {
            "good"
        } else {
            "warn"
        },
    ));
    if let Some(floor) = route.min_rank1 {
        figures.push((format!("{floor}%"), "rank-1 floor".into(), "neutral"));
    }
    let mut header = cards(&figures);
    if !route.unroutable.is_empty() {
        let _ = write!(
            header,
            "<p class=\"note\">Not routed ({} without a readable name or description): ",
            route.unroutable.len()
        );
        for (i, f) in route.unroutable.iter().enumerate() {
            if i > 0 {
                header.push_str(", ");
            }
            let _ = write!(
                header,
                "<a href=\"{}\"><code>{}</code></a>",
                super::Href(r.link_base, f),
                Esc(f)
            );
        }
        header.push_str("</p>\n");
    }
    let sections = vec![
        Section {
            id: "confusion",
            title: "Confusion matrix".into(),
            html: m.render(r.routed, r.link_base),
        },
        Section {
            id: "collisions",
            title: "Collision graph".into(),
            html: graph::render(r.routed, &r.config.route),
        },
        Section {
            id: "skills",
            title: "Skills".into(),
            html: skills::render(r.routed, &m, r.link_base),
        },
        Section {
            id: "listing",
            title: "Client listing".into(),
            html: listing::render(&r.routed.router, r.link_base),
        },
        Section {
            id: "findings",
            title: "Findings".into(),
            html: findings::render(r.diagnostics, r.link_base),
        },
    ];
    page(
        &format!("Routing report: {}", r.shown_root),
        &format!(
            "Tier 2 lexical routing of {} and every finding of `skillgate check`",
            super::count_of(route.skills_routed, "skill")
        ),
        &header,
        &sections,
    )
}
