//! Blockers and quality: the scorer's per-expectation figures for one
//! iteration. The quality pass rate of each arm and its delta in points
//! (with the `--min-quality-delta` threshold), every blocker that failed in
//! a with-skill trial with the evidence, the blockers the skill fixes, the
//! assertions that do not discriminate with what to do about them, and
//! every expectation's passes per arm. Counted per expectation, beside the
//! per-case task figures of the summary.

use super::{Esc, rate};
use crate::behave::iteration::{Iteration, Scored};
use crate::score::Report;
use crate::scored::points;
use std::fmt::Write as _;

/// Rows of the per-expectation table shown (the JSON has them all).
const MAX_ROWS: usize = 2000;

pub fn render(it: &Iteration) -> String {
    let r = match &it.scored {
        Scored::Report(r) => r,
        Scored::Not(why) => {
            return format!("<p class=\"note\">No figures: {}.</p>\n", Esc(why));
        }
    };
    let Some(e) = &r.expectations else {
        return "<p class=\"empty\">The evidence records no verdict per expectation (only whether each run passed).</p>\n".into();
    };
    let mut o = String::new();
    quality(&mut o, r, e);
    blockers(&mut o, r, e);
    non_discriminating(&mut o, e);
    items(&mut o, r, e);
    o
}

fn quality(o: &mut String, r: &Report, e: &crate::score::expectations::ExpectationReport) {
    o.push_str("<h3>Quality</h3>");
    let Some(q) = &e.quality else {
        o.push_str("<p>No quality expectation: nothing to compare.</p>");
        return;
    };
    let gate = r.gates.iter().find(|g| g.name == "min_quality_delta");
    let _ = write!(
        o,
        "<p>Per expectation: each of the {} quality expectations counts once per trial.</p><table class=\"list\"><thead><tr><th>arm</th><th>passed</th><th>pass rate</th></tr></thead><tbody><tr><td>{}</td><td>{} of {}</td><td>{}</td></tr><tr><td>{}</td><td>{} of {}</td><td>{}</td></tr></tbody></table><p>quality delta <b>{} points</b>{}</p>",
        q.expectations,
        Esc(&r.arms.with),
        q.with_passed,
        q.with_total,
        rate(Some(q.with_pass_rate)),
        Esc(&r.arms.without),
        q.without_passed,
        q.without_total,
        rate(Some(q.without_pass_rate)),
        points(q.delta_points),
        match gate {
            Some(g) => format!(
                " · gate <code>--min-quality-delta {}</code>: <span class=\"{}\">{}</span>{}",
                points(g.threshold),
                if g.passed { "ok" } else { "fail" },
                if g.passed { "PASS" } else { "FAIL" },
                g.note
                    .as_ref()
                    .map(|n| format!(" ({})", Esc(n)))
                    .unwrap_or_default()
            ),
            None => String::new(),
        }
    );
}

fn blockers(o: &mut String, r: &Report, e: &crate::score::expectations::ExpectationReport) {
    let b = &e.blockers;
    o.push_str("<h3>Blockers</h3>");
    if b.expectations == 0 {
        o.push_str("<p>No blocker declared.</p>");
        return;
    }
    let _ = write!(
        o,
        "<p>{} blocker{} must pass in every with-skill trial ({} verdicts): <b class=\"{}\">{}</b>.</p>",
        b.expectations,
        if b.expectations == 1 { "" } else { "s" },
        b.with_verdicts,
        if b.failures.is_empty() { "ok" } else { "fail" },
        if b.failures.is_empty() {
            "none failed".to_string()
        } else {
            format!("{} failed: the release fails", b.failures.len())
        }
    );
    if !b.failures.is_empty() {
        o.push_str("<table class=\"list blockers\"><thead><tr><th>case</th><th>trial</th><th>blocker</th><th>evidence</th></tr></thead><tbody>");
        for f in b.failures.iter().take(MAX_ROWS) {
            let _ = write!(
                o,
                "<tr><td><code>{}</code></td><td>{}</td><td class=\"fail\">{}{}</td><td>{}</td></tr>",
                Esc(&f.case),
                f.trial,
                Esc(&f.expectation),
                f.check
                    .as_ref()
                    .map(|c| format!(" <small>(check <code>{}</code>)</small>", Esc(c)))
                    .unwrap_or_default(),
                Esc(&f.evidence)
            );
        }
        o.push_str("</tbody></table>");
        more(o, b.failures.len());
    }
    if !b.fixed.is_empty() {
        let _ = write!(
            o,
            "<p>Blockers the skill fixes ({} fails them, every with-skill trial passes):</p><ul>",
            Esc(&r.arms.without)
        );
        for f in b.fixed.iter().take(MAX_ROWS) {
            let _ = write!(
                o,
                "<li><code>{}</code> {} (failed in {} of {} trials)</li>",
                Esc(&f.case),
                Esc(&f.expectation),
                f.without_failed,
                f.trials
            );
        }
        o.push_str("</ul>");
        more(o, b.fixed.len());
    }
}

/// The note under a list cut at [`MAX_ROWS`].
fn more(o: &mut String, n: usize) {
    if n > MAX_ROWS {
        let _ = write!(
            o,
            "<p class=\"note\">and {} more; <code>skillsift score --format json</code> lists them all</p>",
            n - MAX_ROWS
        );
    }
}

fn non_discriminating(o: &mut String, e: &crate::score::expectations::ExpectationReport) {
    o.push_str("<h3>Assertions that do not discriminate</h3>");
    if e.non_discriminating.is_empty() {
        o.push_str("<p>None: every expectation was judged differently in some trial or arm.</p>");
        return;
    }
    o.push_str("<p>The same verdict in both arms in every trial: an expectation that always passes inflates the score, one that always fails breaks it.</p><table class=\"list\"><thead><tr><th>case</th><th>expectation</th><th>always</th><th>what to do</th></tr></thead><tbody>");
    for n in e.non_discriminating.iter().take(MAX_ROWS) {
        let _ = write!(
            o,
            "<tr><td><code>{}</code></td><td>{}</td><td class=\"{}\">{}</td><td>{}</td></tr>",
            Esc(&n.case),
            Esc(&n.expectation),
            if n.always == "passes" {
                "warnc"
            } else {
                "fail"
            },
            n.always,
            Esc(n.fix)
        );
    }
    o.push_str("</tbody></table>");
    more(o, e.non_discriminating.len());
}

fn items(o: &mut String, r: &Report, e: &crate::score::expectations::ExpectationReport) {
    let _ = write!(
        o,
        "<h3>Every expectation</h3><table class=\"list\"><thead><tr><th>case</th><th>kind</th><th>expectation</th><th>judged by</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        Esc(&r.arms.with),
        Esc(&r.arms.without)
    );
    for i in e.items.iter().take(MAX_ROWS) {
        let _ = write!(
            o,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{} of {}</td><td>{} of {}</td></tr>",
            Esc(&i.case),
            i.kind.as_str(),
            Esc(&i.expectation),
            match &i.check {
                Some(c) => format!("check <code>{}</code>", Esc(c)),
                None => "grader".into(),
            },
            i.with_passed,
            i.trials,
            i.without_passed,
            i.trials
        );
    }
    o.push_str("</tbody></table>");
    more(o, e.items.len());
}
