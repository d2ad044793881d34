//! Every iteration of one skill side by side: pass rate per arm and the
//! uplift with its interval, per iteration, so a change of description or
//! instructions shows as a step. An iteration whose installed skill
//! differs from the one before (its SHA-256 in plan.json) is marked
//! "skill changed"; one that is not scored is a gap with its reason.

use super::{Esc, coord, rate, signed};
use crate::behave::iteration::{Iteration, Scored};
use std::fmt::Write as _;

/// The chart's plotting area.
const LEFT: f64 = 50.0;
const SLOT: f64 = 70.0;

pub fn render(history: &[Iteration], focus: usize) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<p>{} iteration{} of <b>{}</b> in this results folder.{}</p>",
        history.len(),
        if history.len() == 1 { "" } else { "s" },
        Esc(&history[focus].plan.skill.name),
        if history.len() == 1 {
            " Run <code>skillsift check --behavioral</code> again after changing the skill to see the change as a step."
        } else {
            ""
        }
    );
    let label = |it: &Iteration, i: usize| match it.number {
        Some(n) => n.to_string(),
        None => (i + 1).to_string(),
    };
    let changed =
        |i: usize| i > 0 && history[i].plan.skill.sha256 != history[i - 1].plan.skill.sha256;
    let width = (LEFT + SLOT * history.len() as f64 + 30.0).max(560.0);
    // pass rates, 0..1, and uplift, −1..1, stacked
    let _ = write!(
        o,
        "<svg class=\"trend\" viewBox=\"0 0 {0} 330\" width=\"{0}\" height=\"330\" role=\"img\" aria-label=\"pass rate and uplift per iteration\">",
        coord(width)
    );
    let px = |i: usize| LEFT + SLOT * i as f64 + SLOT / 2.0;
    let py = |v: f64| 20.0 + (1.0 - v.clamp(0.0, 1.0)) * 120.0;
    let uy = |v: f64| 190.0 + (1.0 - v.clamp(-1.0, 1.0)) * 60.0;
    for (v, y) in [(0.0, py(0.0)), (0.5, py(0.5)), (1.0, py(1.0))] {
        let _ = write!(
            o,
            "<line class=\"grid\" x1=\"{x1}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\"/><text class=\"tick\" x=\"4\" y=\"{ty}\">{v:.1}</text>",
            x1 = coord(LEFT),
            y = coord(y),
            x2 = coord(width - 20.0),
            ty = coord(y + 4.0)
        );
    }
    for (v, y) in [(-1.0, uy(-1.0)), (0.0, uy(0.0)), (1.0, uy(1.0))] {
        let _ = write!(
            o,
            "<line class=\"{class}\" x1=\"{x1}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\"/><text class=\"tick\" x=\"4\" y=\"{ty}\">{label}</text>",
            class = if v == 0.0 { "zero" } else { "grid" },
            x1 = coord(LEFT),
            y = coord(y),
            x2 = coord(width - 20.0),
            ty = coord(y + 4.0),
            label = if v == 0.0 {
                "0".to_string()
            } else {
                format!("{v:+.0}")
            }
        );
    }
    let _ = write!(
        o,
        "<text class=\"axis-title\" x=\"{}\" y=\"12\">pass rate: <tspan class=\"with\">● with skill</tspan> <tspan class=\"without\">● without</tspan></text><text class=\"axis-title\" x=\"{}\" y=\"182\">uplift with its interval</text>",
        coord(LEFT),
        coord(LEFT)
    );
    let mut lines: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, it) in history.iter().enumerate() {
        let x = px(i);
        if changed(i) {
            let _ = write!(
                o,
                "<line class=\"step\" x1=\"{0}\" y1=\"16\" x2=\"{0}\" y2=\"312\"/><text class=\"step\" x=\"{1}\" y=\"160\">skill changed</text>",
                coord(x - SLOT / 2.0),
                coord(x - SLOT / 2.0 + 3.0)
            );
        }
        let _ = write!(
            o,
            "<text class=\"tick{}\" x=\"{}\" y=\"326\">#{}</text>",
            if i == focus { " focus" } else { "" },
            coord(x - 8.0),
            Esc(&label(it, i))
        );
        match &it.scored {
            Scored::Report(r) => match &r.task {
                Some(t) => {
                    lines[0].push((x, py(t.with_pass_rate)));
                    lines[1].push((x, py(t.without_pass_rate)));
                    let _ = write!(
                        o,
                        "<circle class=\"with\" cx=\"{0}\" cy=\"{1}\" r=\"4\"><title>with skill {2:.3}</title></circle><circle class=\"without\" cx=\"{0}\" cy=\"{3}\" r=\"4\"><title>without {4:.3}</title></circle>\
                         <line class=\"ci\" x1=\"{0}\" y1=\"{5}\" x2=\"{0}\" y2=\"{6}\"/><circle class=\"mean\" cx=\"{0}\" cy=\"{7}\" r=\"4\"><title>uplift {8} [{9}, {10}]</title></circle>",
                        coord(x),
                        coord(py(t.with_pass_rate)),
                        t.with_pass_rate,
                        coord(py(t.without_pass_rate)),
                        t.without_pass_rate,
                        coord(uy(t.uplift.ci_high)),
                        coord(uy(t.uplift.ci_low)),
                        coord(uy(t.uplift.mean)),
                        signed(t.uplift.mean),
                        signed(t.uplift.ci_low),
                        signed(t.uplift.ci_high)
                    );
                }
                None => {
                    let _ = write!(
                        o,
                        "<text class=\"gap\" x=\"{}\" y=\"{}\">no task</text>",
                        coord(x - 18.0),
                        coord(py(0.5))
                    );
                }
            },
            Scored::Not(_) => {
                let _ = write!(
                    o,
                    "<text class=\"gap\" x=\"{}\" y=\"{}\">not scored</text>",
                    coord(x - 26.0),
                    coord(py(0.5))
                );
            }
        }
    }
    for (class, pts) in [("with", &lines[0]), ("without", &lines[1])] {
        if pts.len() > 1 {
            let _ = write!(
                o,
                "<polyline class=\"{class}\" points=\"{}\"/>",
                pts.iter()
                    .map(|(x, y)| format!("{},{}", coord(*x), coord(*y)))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
    }
    o.push_str("</svg>\n");

    o.push_str("<table class=\"list\"><thead><tr><th>iteration</th><th>skill sha256</th><th>cases</th><th>trials</th><th>with</th><th>without</th><th>uplift</th><th>interval</th><th>trigger F1</th><th>verdict</th></tr></thead><tbody>\n");
    for (i, it) in history.iter().enumerate() {
        let sha = it
            .plan
            .skill
            .sha256
            .get(..12)
            .unwrap_or(&it.plan.skill.sha256);
        let _ = write!(
            o,
            "<tr{}><td>#{}{}</td><td><code>{}</code>{}</td><td>{}</td><td>{}</td>",
            if i == focus { " class=\"focus\"" } else { "" },
            Esc(&label(it, i)),
            if i == focus { " (shown)" } else { "" },
            Esc(sha),
            if changed(i) {
                " <span class=\"step\">changed</span>"
            } else {
                ""
            },
            it.plan.cases.len(),
            it.plan.trials
        );
        match &it.scored {
            Scored::Report(r) => {
                match &r.task {
                    Some(t) => {
                        let _ = write!(
                            o,
                            "<td>{:.3}</td><td>{:.3}</td><td>{}</td><td>[{}, {}]</td>",
                            t.with_pass_rate,
                            t.without_pass_rate,
                            signed(t.uplift.mean),
                            signed(t.uplift.ci_low),
                            signed(t.uplift.ci_high)
                        );
                    }
                    None => o.push_str("<td colspan=\"4\"><i>no task check</i></td>"),
                }
                let _ = writeln!(
                    o,
                    "<td>{}</td><td>{}</td></tr>",
                    rate(r.trigger.as_ref().and_then(|t| t.f1)),
                    r.verdict.as_str()
                );
            }
            Scored::Not(why) => {
                let _ = writeln!(
                    o,
                    "<td colspan=\"6\"><i>not scored: {}</i></td></tr>",
                    Esc(why)
                );
            }
        }
    }
    o.push_str("</tbody></table>\n");
    o
}
