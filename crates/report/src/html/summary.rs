//! A Tier 3 iteration's summary: the verdict, trigger precision, recall
//! and F1, pass rates per arm, the uplift with its bootstrap interval drawn
//! as an interval, the sign test, the gates, and tokens, cost and time per
//! arm. Every figure is the scorer's (`crate::score`), over the files the
//! iteration holds; runs with no verdict are counted as such, never as
//! fails.

use super::{Esc, coord, rate, signed};
use crate::behave::iteration::{Iteration, Scored};
use crate::behave::plan::Variant;
use crate::score::{Report, Verdict};
use std::fmt::Write as _;

/// The verdict in one line, coloured.
pub fn verdict_banner(it: &Iteration) -> String {
    match &it.scored {
        Scored::Report(r) => {
            let class = match r.verdict {
                Verdict::Pass => "good",
                Verdict::Fail => "bad",
                Verdict::Insufficient | Verdict::Unavailable => "warn",
            };
            let mut text = format!("{}: {}", r.verdict.as_str(), crate::scored::verdict_why(r));
            if r.verdict == Verdict::Pass && r.gates.is_empty() {
                text.push_str(" (none was set: give report --min-trigger-f1 or --min-uplift to judge the iteration)");
            }
            format!(
                "<p class=\"banner {class}\"><b>verdict</b> {}</p>\n",
                Esc(&text)
            )
        }
        Scored::Not(why) => format!(
            "<p class=\"banner warn\"><b>not scored</b> {}</p>\n",
            Esc(why)
        ),
    }
}

pub fn render(it: &Iteration) -> String {
    let mut o = String::new();
    match &it.scored {
        Scored::Report(r) => scored(&mut o, r),
        Scored::Not(why) => {
            let _ = writeln!(
                o,
                "<p class=\"note\">No figures: {}. The runs are listed below as recorded.</p>",
                Esc(why)
            );
        }
    }
    cost(&mut o, it);
    o
}

fn scored(o: &mut String, r: &Report) {
    o.push_str("<div class=\"two\"><div><h3>Trigger</h3>");
    match &r.trigger {
        Some(t) => trigger(o, r, t),
        None => {
            let _ = write!(
                o,
                "<p>Not observed: {}.</p>",
                Esc(r
                    .trigger_unobserved
                    .as_deref()
                    .unwrap_or("no trigger evidence"))
            );
        }
    }
    o.push_str("</div><div><h3>Task</h3>");
    match &r.task {
        None => o.push_str("<p>No case has a task check: uplift not measured.</p>"),
        Some(task) => {
            let _ = write!(
                o,
                "<p>Over {} distinct cases with a task check (the grader passed every expectation), {} trial{} per arm.</p>",
                task.cases,
                r.trials,
                if r.trials == 1 { "" } else { "s" }
            );
            bars(o, task.with_pass_rate, task.without_pass_rate, &r.arms);
            let _ = write!(
                o,
                "<p>uplift mean(d) <b>{}</b>, {:.0}% interval [{}, {}] ({} percentile-bootstrap resamples over cases, seed {}, {})</p>",
                signed(task.uplift.mean),
                task.uplift.level * 100.0,
                signed(task.uplift.ci_low),
                signed(task.uplift.ci_high),
                task.uplift.resamples,
                task.uplift.seed,
                Esc(task.uplift.rng)
            );
            let gate = r
                .gates
                .iter()
                .find(|g| g.name == "min_uplift")
                .map(|g| g.threshold);
            interval(
                o,
                task.uplift.mean,
                task.uplift.ci_low,
                task.uplift.ci_high,
                gate,
            );
            let s = &task.sign_test;
            let _ = write!(
                o,
                "<p>sign test: {} better, {} worse, {} tied; exact two-sided p = {}</p>",
                s.positive,
                s.negative,
                s.zero,
                crate::scored::p_value(s.p_value)
            );
        }
    }
    o.push_str("</div></div>\n<h3>Gates</h3>");
    if r.gates.is_empty() {
        o.push_str("<p>No gate was set. <code>skillsift report --min-trigger-f1 X --min-uplift Y</code> judges this iteration as <code>check --behavioral</code> would.</p>\n");
    } else {
        o.push_str("<table class=\"list\"><thead><tr><th>gate</th><th>threshold</th><th>value</th><th>result</th></tr></thead><tbody>");
        for g in &r.gates {
            let name = g.name.replace('_', "-");
            let _ = write!(
                o,
                "<tr><td><code>{}{name}</code></td><td>{}</td><td>{}{}</td><td class=\"{}\">{}</td></tr>",
                if name.starts_with("min-") { "--" } else { "" },
                signed_or_rate(g.name, Some(g.threshold)),
                signed_or_rate(g.name, g.value),
                g.note
                    .as_ref()
                    .map(|n| format!("<br><small>{}</small>", Esc(n)))
                    .unwrap_or_default(),
                if g.passed { "ok" } else { "fail" },
                if g.passed { "PASS" } else { "FAIL" }
            );
        }
        o.push_str("</tbody></table>\n");
    }
}

/// Trigger precision, recall and F1, and the cases that failed.
fn trigger(o: &mut String, r: &Report, t: &crate::score::TriggerReport) {
    let _ = write!(
        o,
        "<p>Over {} with-skill runs: did the agent load the skill when it should, and not when it should not?</p>\
         <table class=\"list conf\"><tr><th></th><th>loaded</th><th>not loaded</th></tr>\
         <tr><th>should load</th><td class=\"ok\">TP {}</td><td class=\"fail\">FN {}</td></tr>\
         <tr><th>should not</th><td class=\"fail\">FP {}</td><td class=\"ok\">TN {}</td></tr></table>\
         <p>precision <b>{}</b> · recall <b>{}</b> · F1 <b>{}</b> · {} of {} cases pass the majority rule</p>",
        t.runs,
        t.tp,
        t.fn_,
        t.fp,
        t.tn,
        rate(t.precision),
        rate(t.recall),
        rate(t.f1),
        t.cases_passed,
        r.case_ids
    );
    for (label, list) in [
        (
            "missed (should load, loaded in at most half the runs)",
            &t.missed_trigger_cases,
        ),
        (
            "false (should not load, loaded in at least half the runs)",
            &t.false_trigger_cases,
        ),
    ] {
        if !list.is_empty() {
            let _ = write!(
                o,
                "<p>{label}: {}</p>",
                list.iter()
                    .map(|c| format!("<code>{}</code>", Esc(c)))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
}

fn signed_or_rate(name: &str, v: Option<f64>) -> String {
    match (name, v) {
        ("min_uplift", Some(x)) => signed(x),
        ("min_quality_delta", Some(x)) => format!("{} points", crate::scored::points(x)),
        ("blockers" | "no_trigger_theft", Some(x)) => format!("{x:.0}"),
        (_, v) => rate(v),
    }
}

/// Pass rates of both arms as bars.
fn bars(o: &mut String, with: f64, without: f64, arms: &crate::score::Arms) {
    o.push_str("<svg class=\"bars\" viewBox=\"0 0 480 60\" width=\"480\" height=\"60\" role=\"img\" aria-label=\"pass rate per arm\">");
    let base = if arms.without == "without skill" {
        "without"
    } else {
        "baseline"
    };
    for (i, (label, v, class)) in [("with skill", with, "with"), (base, without, "without")]
        .iter()
        .enumerate()
    {
        let y = 6.0 + i as f64 * 26.0;
        let _ = write!(
            o,
            "<text x=\"0\" y=\"{}\">{label}</text><rect class=\"track\" x=\"90\" y=\"{}\" width=\"320\" height=\"18\"/><rect class=\"{class}\" x=\"90\" y=\"{}\" width=\"{}\" height=\"18\"/><text x=\"418\" y=\"{}\">{:.3}</text>",
            coord(y + 14.0),
            coord(y),
            coord(y),
            coord(320.0 * v.clamp(0.0, 1.0)),
            coord(y + 14.0),
            v
        );
    }
    o.push_str("</svg>");
}

/// The uplift on an axis from −1 to 1: the interval, its mean, zero and
/// the gate's threshold.
fn interval(o: &mut String, mean: f64, lo: f64, hi: f64, gate: Option<f64>) {
    let x = |v: f64| 30.0 + (v.clamp(-1.0, 1.0) + 1.0) * 290.0;
    let _ = write!(
        o,
        "<svg class=\"interval\" viewBox=\"0 0 640 84\" width=\"640\" height=\"84\" role=\"img\" aria-label=\"uplift {} with interval {} to {}\"><line class=\"axis\" x1=\"30\" y1=\"44\" x2=\"610\" y2=\"44\"/>",
        signed(mean),
        signed(lo),
        signed(hi)
    );
    for t in [-1.0, -0.5, 0.0, 0.5, 1.0] {
        let _ = write!(
            o,
            "<line class=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"tick mid\" x=\"{}\" y=\"78\">{}</text>",
            if t == 0.0 { "zero" } else { "tickline" },
            coord(x(t)),
            if t == 0.0 { 14.0 } else { 40.0 },
            coord(x(t)),
            if t == 0.0 { 60.0 } else { 48.0 },
            coord(x(t)),
            if t == 0.0 {
                "0".to_string()
            } else {
                format!("{t:+}")
            }
        );
    }
    if let Some(g) = gate {
        let _ = write!(
            o,
            "<line class=\"gate\" x1=\"{0}\" y1=\"10\" x2=\"{0}\" y2=\"60\"/><text class=\"gate\" x=\"{0}\" y=\"9\">min-uplift {1}</text>",
            coord(x(g)),
            signed(g)
        );
    }
    let _ = write!(
        o,
        "<line class=\"ci\" x1=\"{}\" y1=\"44\" x2=\"{}\" y2=\"44\"/><line class=\"ci-end\" x1=\"{}\" y1=\"36\" x2=\"{}\" y2=\"52\"/><line class=\"ci-end\" x1=\"{}\" y1=\"36\" x2=\"{}\" y2=\"52\"/><circle class=\"mean\" cx=\"{}\" cy=\"44\" r=\"6\"/><text class=\"tick mid\" x=\"{}\" y=\"28\">{}</text></svg>",
        coord(x(lo)),
        coord(x(hi)),
        coord(x(lo)),
        coord(x(lo)),
        coord(x(hi)),
        coord(x(hi)),
        coord(x(mean)),
        coord(x(mean).clamp(50.0, 590.0)),
        signed(mean)
    );
}

/// Tokens, cost and time per arm, over the runs with a record.
fn cost(o: &mut String, it: &Iteration) {
    o.push_str("<h3>Tokens, cost and time per arm</h3><table class=\"list\"><thead><tr><th>arm</th><th>runs</th><th>no verdict</th><th>tokens</th><th>tokens per run</th><th>cost (USD)</th><th>time</th><th>time per run</th></tr></thead><tbody>");
    for v in &it.plan.variants {
        let runs: Vec<_> = it.runs.iter().filter(|r| r.key.variant == *v).collect();
        let recs: Vec<_> = runs.iter().filter_map(|r| r.record.as_ref()).collect();
        let none = runs
            .iter()
            .filter(|r| !r.record.as_ref().is_some_and(|x| x.evidence))
            .count();
        let tokens: u64 = recs.iter().map(|r| r.tokens).sum();
        let costs: Vec<f64> = recs.iter().filter_map(|r| r.cost_usd).collect();
        let ms: u64 = recs.iter().map(|r| r.duration_ms).sum();
        let n = recs.len().max(1) as f64;
        let _ = write!(
            o,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{tokens}</td><td>{:.0}</td><td>{}</td><td>{:.1} s</td><td>{:.1} s</td></tr>",
            match v {
                Variant::With => "with skill",
                Variant::Without => "without",
            },
            runs.len(),
            none,
            tokens as f64 / n,
            if costs.is_empty() {
                "n/a".to_string()
            } else {
                format!("{:.4}", costs.iter().sum::<f64>())
            },
            ms as f64 / 1000.0,
            ms as f64 / 1000.0 / n
        );
    }
    o.push_str("</tbody></table>\n<p class=\"note\">Tokens and cost include the grader's calls; time is each run from start to its verdict.</p>\n");
}
