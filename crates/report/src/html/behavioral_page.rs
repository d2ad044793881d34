//! The behavioral page: one Tier 3 iteration in detail, and every
//! iteration of the same skill side by side.

use super::evals::{self, Steps};
use super::{Esc, Href, Section, expectations, iterations, page, summary};
use crate::behave::iteration::Iteration;
use std::fmt::Write as _;

/// Everything the behavioral page shows.
pub struct Behavioral<'a> {
    /// The path as given on the command line.
    pub shown: &'a str,
    /// Every iteration of the skill, by number.
    pub history: &'a [Iteration],
    /// The one shown in detail (an index into `history`).
    pub focus: usize,
    /// What each run of the focus did, in `runs` order.
    pub steps: &'a [Steps],
    /// The focus iteration's folder relative to the report's folder.
    pub link_base: &'a str,
}

pub fn behavioral(b: &Behavioral) -> String {
    let it = &b.history[b.focus];
    let p = &it.plan;
    let mut header = String::new();
    let _ = writeln!(
        header,
        "<p class=\"meta\">{} ({} runs) from <code>{}</code> · agent <code>{}</code> · skill <code>{}</code> sha256 <code>{}</code>{}{} · <a href=\"{}\">iteration folder</a></p>",
        Esc(&p.shape()),
        p.total_runs,
        Esc(&p.case_file),
        Esc(&p.agent.kind),
        Esc(&p.skill.path),
        Esc(p.skill.sha256.get(..12).unwrap_or(&p.skill.sha256)),
        if p.shard.count > 1 {
            format!(" · shard {}/{}", p.shard.index, p.shard.count)
        } else {
            String::new()
        },
        if p.merged_from.is_empty() {
            String::new()
        } else {
            format!(" · merged from {} shards", p.merged_from.len())
        },
        Href(b.link_base, "")
    );
    let _ = writeln!(
        header,
        "<p class=\"meta\">arms: <b>{}</b> and <b>{}</b>{}</p>",
        Esc(&p.arm_label(crate::behave::plan::Variant::With)),
        Esc(&p.arm_label(crate::behave::plan::Variant::Without)),
        if p.siblings.is_empty() {
            String::new()
        } else {
            format!(
                " · {} sibling skill{} installed in both: {}",
                p.siblings.len(),
                if p.siblings.len() == 1 { "" } else { "s" },
                p.siblings
                    .iter()
                    .take(20)
                    .map(|s| format!("<code>{}</code>", Esc(&s.name)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    header.push_str(&summary::verdict_banner(it));
    let sections = vec![
        Section {
            id: "summary",
            title: "Summary".into(),
            html: summary::render(it),
        },
        Section {
            id: "expectations",
            title: "Blockers and quality".into(),
            html: expectations::render(it),
        },
        Section {
            id: "iterations",
            title: "Across iterations".into(),
            html: iterations::render(b.history, b.focus),
        },
        Section {
            id: "evals",
            title: "Evals".into(),
            html: evals::render(it, b.steps, b.link_base),
        },
        Section {
            id: "triggers",
            title: "Trigger prompts".into(),
            html: evals::triggers(it),
        },
    ];
    let name = match it.number {
        Some(n) => format!("iteration {n}"),
        None => it
            .dir
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    page(
        &format!("Behavioral report: {} · {name}", p.skill.name),
        &format!(
            "Tier 3 runs of {} with and without the skill, as recorded in {}",
            p.skill.name, b.shown
        ),
        &header,
        &sections,
    )
}
