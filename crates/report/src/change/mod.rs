//! `skillsift diff`'s report: what a change does to routing, as text
//! ([`human`]), as a pull-request comment ([`markdown`]) and as JSON.
//!
//! The rows are made once here ([`rows`]), each cell marked trusted
//! (skillsift's words) or not (a prompt, a skill's name, a path, a
//! message), and each renderer escapes the untrusted cells by its own
//! rules.

pub mod html;
pub mod human;
pub mod markdown;

use crate::route::cases::Kind;
use crate::route::diff::{Diff, Ranked, Rate, Shown};
use serde::Serialize;
use std::io::Write;

/// What was compared.
#[derive(Debug, Clone, Serialize)]
pub struct Compared<'a> {
    /// The revision as given (`main`, `HEAD~1`).
    pub rev: &'a str,
    /// The commit it names.
    pub commit: &'a str,
    /// The client whose listing was routed.
    pub client: &'a str,
    pub diff: &'a Diff,
}

/// A piece of a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// skillsift's words.
    Text(String),
    /// A prompt, quoted.
    Prompt(String),
    /// A skill's name, a path, an installation: shown as code.
    Name(String),
}

/// Which way a row moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Way {
    Worse,
    Better,
    Other,
}

/// One thing that changed.
#[derive(Debug, Clone)]
pub struct Row {
    pub way: Way,
    /// Counts toward exit 1.
    pub gate: bool,
    /// The installation's label (empty: the catalog is one).
    pub install: String,
    pub what: Vec<Cell>,
    pub before: Vec<Cell>,
    pub after: Vec<Cell>,
}

fn text(s: impl Into<String>) -> Cell {
    Cell::Text(s.into())
}

fn ranked(r: Option<&Ranked>, kind: Kind) -> Vec<Cell> {
    let Some(r) = r else {
        return vec![text("no such prompt")];
    };
    let mut out = vec![text(if r.rank == 0 {
        "not ranked".to_string()
    } else {
        format!("#{}", r.rank)
    })];
    if let Some(w) = &r.winner {
        out.push(text(", "));
        out.push(Cell::Name(w.clone()));
        out.push(text(" first"));
    }
    let top_k = r.top_k;
    out.push(text(match (kind, r.passed) {
        (Kind::Positive, true) if r.rank1 => " (passes)".to_string(),
        (Kind::Positive, true) => format!(" (passes, in the top {top_k})"),
        (Kind::Positive, false) => format!(" (fails: not in the top {top_k})"),
        (Kind::Negative, true) => " (passes)".to_string(),
        (Kind::Negative, false) => " (fails: it wins)".to_string(),
    }));
    out
}

fn level(l: Option<bool>, similarity: Option<f64>) -> Vec<Cell> {
    vec![text(match (l, similarity) {
        (None, _) => "no collision".to_string(),
        (Some(e), Some(s)) => format!("{} ({s:.2})", if e { "error" } else { "warning" }),
        (Some(e), None) => (if e { "error" } else { "warning" }).to_string(),
    })]
}

fn shown(s: Option<Shown>) -> Vec<Cell> {
    vec![text(s.map_or("not in the catalog", Shown::label))]
}

/// Every change as a row: worse first, then better, then the rest, each
/// in the diff's order (installation, skill, prompt).
pub fn rows(d: &Diff) -> Vec<Row> {
    let mut out = Vec::new();
    for p in &d.prompts {
        let way = if p.worse {
            Way::Worse
        } else if p.better {
            Way::Better
        } else {
            // a positive moving down is worse; a negative's skill moving
            // up (closer to winning it) is
            // a prompt failing before and after that only moved is
            // neither (#106 → #105 says nothing to a reviewer)
            let down =
                |b: &Ranked, a: &Ranked| a.rank > b.rank && b.rank > 0 && (a.passed || b.passed);
            let up =
                |b: &Ranked, a: &Ranked| a.rank < b.rank && a.rank > 0 && (a.passed || b.passed);
            match (&p.before, &p.after, p.key.kind) {
                (Some(b), Some(a), Kind::Positive) if down(b, a) => Way::Worse,
                (Some(b), Some(a), Kind::Positive) if up(b, a) => Way::Better,
                (Some(b), Some(a), Kind::Negative) if up(b, a) => Way::Worse,
                (Some(b), Some(a), Kind::Negative) if down(b, a) => Way::Better,
                _ => Way::Other,
            }
        };
        let side = match p.key.kind {
            Kind::Positive => "should ",
            Kind::Negative => "should-not ",
        };
        out.push(Row {
            way,
            gate: p.worse,
            install: p.key.install.clone(),
            what: vec![
                text(side),
                Cell::Prompt(p.key.prompt.clone()),
                text(" for "),
                Cell::Name(p.key.skill.clone()),
            ],
            before: ranked(p.before.as_ref(), p.key.kind),
            after: ranked(p.after.as_ref(), p.key.kind),
        });
    }
    for c in &d.collisions {
        let rank = |l: Option<bool>| l.map_or(0, |e| 1 + usize::from(e));
        let way = match rank(c.after).cmp(&rank(c.before)) {
            std::cmp::Ordering::Greater => Way::Worse,
            std::cmp::Ordering::Less => Way::Better,
            std::cmp::Ordering::Equal => Way::Other,
        };
        out.push(Row {
            way,
            gate: c.worse,
            install: c.install.clone(),
            what: vec![
                text("collision of "),
                Cell::Name(c.a.clone()),
                text(" and "),
                Cell::Name(c.b.clone()),
            ],
            before: level(c.before, c.similarity_before),
            after: level(c.after, c.similarity_after),
        });
    }
    for l in &d.listings {
        let way = match (l.before, l.after) {
            (Some(b), Some(a)) if a > b => Way::Worse,
            (None, Some(a)) if a != Shown::Whole => Way::Worse,
            (Some(b), Some(a)) if a < b => Way::Better,
            _ => Way::Other,
        };
        out.push(Row {
            way,
            gate: l.worse,
            install: l.install.clone(),
            what: vec![Cell::Name(l.skill.clone()), text(" in the listing")],
            before: shown(l.before),
            after: shown(l.after),
        });
    }
    out.sort_by_key(|r| r.way);
    out
}

/// `5/8 (62.5 %)`.
pub fn rate(r: Rate) -> String {
    match r.percent() {
        Some(p) => format!("{}/{} ({p:.1} %)", r.n, r.of),
        None => "n/a".to_string(),
    }
}

/// The one-line verdict.
pub fn verdict(d: &Diff) -> String {
    let rows = rows(d);
    let n = |w: Way| rows.iter().filter(|r| r.way == w).count();
    let (worse, better) = (n(Way::Worse), n(Way::Better));
    let plural = |k: usize| if k == 1 { "change" } else { "changes" };
    if d.unchanged {
        "no change in routing".to_string()
    } else if d.worse {
        format!(
            "routing got worse: {} {} for the worse ({} failing a gate), {better} for the better",
            worse,
            plural(worse),
            rows.iter().filter(|r| r.gate).count()
        )
    } else if worse > 0 {
        format!(
            "routing changed, no gate fails: {worse} {} for the worse, {better} for the better",
            plural(worse)
        )
    } else if better > 0 {
        format!(
            "routing got better: {better} {} for the better",
            plural(better)
        )
    } else {
        format!("routing changed: {} {}", rows.len(), plural(rows.len()))
    }
}

/// Render as `format` (human, markdown or json).
pub fn render(format: &str, c: &Compared, out: &mut dyn Write) -> Result<(), crate::exit::Fatal> {
    match format {
        "json" => {
            #[derive(Serialize)]
            struct Doc<'a> {
                rev: &'a str,
                commit: &'a str,
                client: &'a str,
                verdict: String,
                #[serde(flatten)]
                diff: &'a Diff,
            }
            crate::escape::to_writer_pretty(
                &mut *out,
                &Doc {
                    rev: c.rev,
                    commit: c.commit,
                    client: c.client,
                    verdict: verdict(c.diff),
                    diff: c.diff,
                },
            )
            .map_err(|e| crate::write_error(std::io::Error::other(e)))?;
            writeln!(out).map_err(crate::write_error)
        }
        "markdown" => markdown::render(c, out).map_err(crate::write_error),
        _ => human::render(c, out).map_err(crate::write_error),
    }
}
