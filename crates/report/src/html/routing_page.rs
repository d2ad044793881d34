//! The routing page: a catalog's Tier 2 results and its findings.

use super::{
    Esc, Section, cards, findings, graph, listing, matrix, page, percent, skills, thousands,
};
use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::diag::Span;
use crate::report::Summary;
use crate::route::Routed;
use crate::route::cases::PromptResult;
use std::collections::HashMap;
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
    /// The latest `check --behavioral-routing` document, and its path
    /// relative to the catalog root.
    pub model: Option<(&'a crate::behave::routing::RoutingDoc, &'a str)>,
    /// `--against REV`: the change since REV (`skillsift diff`'s).
    pub change: Option<&'a crate::change::Compared<'a>>,
}

/// The findings of `check` that sit on a trigger prompt (SG501–SG504 and
/// their kin, levels applied), by the prompt's file and span: the Skills
/// section lists them under their skill, with the prompt.
pub struct AtPrompt<'a>(HashMap<(&'a str, Span), Vec<&'a Diagnostic>>);

impl<'a> AtPrompt<'a> {
    fn new(routed: &'a Routed, diagnostics: &'a [Diagnostic]) -> AtPrompt<'a> {
        let mut map: HashMap<(&str, Span), Vec<&Diagnostic>> = routed
            .prompts
            .iter()
            .map(|p| ((p.file.as_str(), p.span), Vec::new()))
            .collect();
        for d in diagnostics {
            if let Some(v) = d.span.and_then(|s| map.get_mut(&(d.file.as_str(), s))) {
                v.push(d);
            }
        }
        AtPrompt(map)
    }

    /// The findings on prompt `p`.
    pub fn of(&self, p: &'a PromptResult) -> &[&'a Diagnostic] {
        self.0
            .get(&(p.file.as_str(), p.span))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether `d` is one of them.
    pub fn holds(&self, d: &Diagnostic) -> bool {
        d.span
            .is_some_and(|s| self.0.contains_key(&(d.file.as_str(), s)))
    }
}

/// The page's HTML.
pub fn routing(r: &Routing) -> String {
    let at_prompt = AtPrompt::new(r.routed, r.diagnostics);
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
            format!(
                "routed (listed by {})",
                r.routed.router.listing.client.label()
            ),
            "neutral",
        ),
        (
            percent(route.rank1, route.positives),
            format!(
                "rank-1 rate ({}/{} {})",
                route.rank1,
                route.positives,
                if route.positives == 1 {
                    "positive prompt ranks its skill first"
                } else {
                    "positive prompts rank their skill first"
                }
            ),
            if route.positives > 0 && route.rank1 == route.positives {
                "good"
            } else {
                "warn"
            },
        ),
        (
            format!("{}/{}", route.checks_passed, route.checks),
            format!(
                "trigger checks passed (positives pass in the top {}, not only first)",
                route.top_k
            ),
            // no check at all is nothing to be glad of
            if route.checks == 0 {
                "warn"
            } else if route.checks_passed == route.checks {
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
            format!(
                "{} ({}, {})",
                crate::base::plural::word(s.errors, "error"),
                crate::base::plural::count(s.warnings, "warning"),
                crate::base::plural::count(s.notices, "notice")
            ),
            if s.errors == 0 { "good" } else { "bad" },
        ),
    ];
    let (hidden, name_only, changed) = listing::counts(&r.routed.router);
    figures.push((
        thousands(hidden),
        format!(
            "not listed by {} ({name_only} by name only, {changed} with a changed text)",
            r.routed.router.listing.client.label()
        ),
        if hidden + name_only + changed == 0 {
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
            "<p class=\"note\">Not routed ({} {}): ",
            route.unroutable.len(),
            r.routed.router.listing.client.unlisted()
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
    let mut sections = Vec::new();
    if let Some(c) = r.change {
        sections.push(Section {
            id: "change",
            title: format!("Change against {}", c.rev),
            html: crate::change::html::render(c),
        });
    }
    sections.push(Section {
        id: "confusion",
        title: "Confusion matrix".into(),
        html: m.render(r.routed, r.link_base),
    });
    if let Some((doc, rel)) = r.model {
        sections.push(Section {
            id: "model-routing",
            title: "Model routing".into(),
            html: super::model_routing::render(doc, rel, r.link_base),
        });
    }
    sections.extend([
        Section {
            id: "collisions",
            title: "Collision graph".into(),
            html: graph::render(r.routed, &r.config.route),
        },
        Section {
            id: "skills",
            title: "Skills".into(),
            html: skills::render(r.routed, &m, &at_prompt, r.link_base),
        },
        Section {
            id: "listing",
            title: "Client listing".into(),
            html: listing::render(&r.routed.router, r.link_base),
        },
        Section {
            id: "findings",
            title: "Findings".into(),
            html: findings::render(r.diagnostics, &at_prompt, r.link_base),
        },
    ]);
    page(
        &format!("Routing report: {}", r.shown_root),
        &format!(
            "Tier 2 lexical routing of {} and every finding of `skillsift check`",
            super::count_of(route.skills_routed, "skill")
        ),
        &header,
        &sections,
    )
}
