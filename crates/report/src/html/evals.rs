//! Each eval with and without the skill side by side: for every trial the
//! agent's final answer, its tool calls (from the run's stream.jsonl), and
//! each expectation with the grader's verdict and evidence. A run with no
//! verdict (it timed out, its stream has no result, the grader's reply
//! stayed invalid) is shown as such, never as a fail. Then every case's
//! trigger results: which runs loaded the skill.

use super::{Esc, Href, cut};
use crate::behave::agent::{Event, Trace};
use crate::behave::iteration::{Iteration, Run, Scored};
use crate::behave::plan::{CaseKind, Variant};
use serde_json::Value;
use std::fmt::Write as _;

/// Tool calls listed per run.
pub const MAX_CALLS: usize = 100;
/// Characters of a tool call's input shown.
const CALL_CHARS: usize = 160;
/// Characters of a final answer shown (the run folder has it whole).
pub const MAX_ANSWER_CHARS: usize = 16 * 1024;

/// What one run did, as far as the report shows it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Steps {
    /// Tool calls in order: name and the gist of the input.
    pub calls: Vec<(String, String)>,
    /// Tool calls in all (more than `calls` holds when cut).
    pub total: usize,
    /// Why the stream could not be read, when it could not.
    pub note: Option<String>,
}

/// The steps of a run from its stream (`Ok(None)`: it has none).
pub fn steps(trace: Result<Option<Trace>, String>) -> Steps {
    match trace {
        Err(e) => Steps {
            note: Some(e),
            ..Steps::default()
        },
        Ok(None) => Steps::default(),
        Ok(Some(t)) => {
            let mut s = Steps::default();
            for e in &t.events {
                if let Event::ToolUse { name, input } = e {
                    s.total += 1;
                    if s.calls.len() < MAX_CALLS {
                        s.calls.push((name.clone(), gist(input)));
                    }
                }
            }
            s
        }
    }
}

/// A tool input in one short line: the field that says what the call
/// does, else the whole input as JSON.
fn gist(input: &Value) -> String {
    for key in [
        "command",
        "file_path",
        "path",
        "pattern",
        "skill",
        "url",
        "query",
        "description",
        "prompt",
    ] {
        if let Some(v) = input.get(key).and_then(Value::as_str) {
            return cut(v, CALL_CHARS).into_owned();
        }
    }
    cut(&input.to_string(), CALL_CHARS).into_owned()
}

pub fn render(it: &Iteration, steps: &[Steps], link_base: &str) -> String {
    let p = &it.plan;
    let mut o = String::new();
    let evals: Vec<usize> = (0..p.cases.len())
        .filter(|&c| p.cases[c].kind.is_eval())
        .collect();
    if evals.is_empty() {
        o.push_str("<p class=\"empty\">This iteration has no behavioral eval (only trigger prompts).</p>\n");
        return o;
    }
    let report = match &it.scored {
        Scored::Report(r) => Some(r),
        Scored::Not(_) => None,
    };
    for ci in evals {
        let c = &p.cases[ci];
        let _ = write!(
            o,
            "<article class=\"eval\" id=\"case-{ci}\"><h3><code>{}</code> · {}</h3><p class=\"prompt\">{}</p>",
            Esc(&c.id),
            match c.kind {
                CaseKind::Execution => "execution eval (graded on what the agent did)",
                CaseKind::Dialogue => "dialogue eval (graded on the conversation)",
                CaseKind::Trigger => "trigger prompt",
            },
            Esc(&c.prompt)
        );
        if !c.expected_output.is_empty() {
            let _ = write!(o, "<p><b>expected</b> {}</p>", Esc(&c.expected_output));
        }
        if !c.files.is_empty() {
            let _ = write!(
                o,
                "<p><b>fixtures</b> {}</p>",
                c.files
                    .iter()
                    .map(|f| format!("<code>{}</code>", Esc(f)))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if let Some(outcome) = report.and_then(|r| r.per_case.iter().find(|x| x.id == c.id))
            && let Some((w, wo)) = outcome.task
        {
            let _ = write!(
                o,
                "<p><b>task passed</b> with the skill in {w} of {0} trials, without in {wo} of {0}</p>",
                p.trials
            );
        }
        o.push_str("<div class=\"arms\">");
        for v in &p.variants {
            let _ = write!(
                o,
                "<div class=\"arm {}\"><h4>{}</h4>",
                v.as_str(),
                Esc(&p.arm_label(*v))
            );
            for (ri, run) in it.runs.iter().enumerate() {
                if run.key.case == ci && run.key.variant == *v {
                    trial(&mut o, run, steps.get(ri), link_base);
                }
            }
            o.push_str("</div>");
        }
        o.push_str("</div></article>\n");
    }
    o
}

fn trial(o: &mut String, run: &Run, steps: Option<&Steps>, link_base: &str) {
    let Some(r) = &run.record else {
        let _ = write!(
            o,
            "<div class=\"trial none\"><p class=\"status\">trial {} · <b>no verdict</b>: no run.json (the run never finished)</p></div>",
            run.key.trial
        );
        return;
    };
    let (class, status) = if !r.evidence {
        (
            "none",
            format!(
                "<b>no verdict</b>: {}",
                Esc(r.reason.as_deref().unwrap_or("unknown reason"))
            ),
        )
    } else {
        match &r.grading {
            Some(g) if g.failed == 0 => (
                "pass",
                format!("<b>passed</b> {}/{} expectations", g.passed, g.total),
            ),
            Some(g) => (
                "fail",
                format!("<b>failed</b> {} of {} expectations", g.failed, g.total),
            ),
            None if r.exit_code == Some(0) => ("pass", "<b>passed</b> (exit code 0)".into()),
            None => (
                "fail",
                format!(
                    "<b>failed</b> (exit code {})",
                    r.exit_code.map_or("none".into(), |c| c.to_string())
                ),
            ),
        }
    };
    let _ = write!(
        o,
        "<div class=\"trial {class}\"><p class=\"status\">trial {} · {status}</p><p class=\"meta\">loaded: {} · {} tokens · {} · {:.1} s · <a href=\"{}\">run folder</a></p>",
        run.key.trial,
        if r.invoked_skills.is_empty() {
            "<i>no skill</i>".to_string()
        } else {
            r.invoked_skills
                .iter()
                .map(|s| format!("<code>{}</code>", Esc(s)))
                .collect::<Vec<_>>()
                .join(", ")
        },
        r.tokens,
        r.cost_usd.map_or("cost n/a".into(), |c| format!("${c:.4}")),
        r.duration_ms as f64 / 1000.0,
        Href(link_base, &run.rel_dir)
    );
    if let Some(g) = &r.grading {
        o.push_str("<ul class=\"expect\">");
        for e in &g.expectations {
            let mut tags = Vec::new();
            if e.kind == crate::catalog::cases::ExpectKind::Blocker {
                tags.push("<b class=\"tag\">blocker</b>".to_string());
            }
            if let Some(c) = &e.check {
                tags.push(format!(
                    "<span class=\"tag\">check <code>{}</code></span>",
                    Esc(c)
                ));
            }
            let _ = write!(
                o,
                "<li class=\"{}\"><span class=\"mark\">{}</span> {}{}{}<br><small>{}</small></li>",
                if e.passed { "pass" } else { "fail" },
                if e.passed { "✓" } else { "✗" },
                tags.join(" "),
                if tags.is_empty() { "" } else { " " },
                Esc(&e.text),
                Esc(&e.evidence)
            );
        }
        o.push_str("</ul>");
    }
    let answer = cut(&r.output, MAX_ANSWER_CHARS);
    let _ = write!(
        o,
        "<details open><summary>final answer</summary><pre class=\"answer\">{}</pre>{}</details>",
        Esc(&answer),
        if answer.len() < r.output.len() {
            "<p class=\"note\">cut here; the run folder has it whole</p>"
        } else {
            ""
        }
    );
    if let Some(s) = steps {
        let _ = write!(o, "<details><summary>tool calls ({})</summary>", s.total);
        if let Some(n) = &s.note {
            let _ = write!(o, "<p class=\"note\">{}</p>", Esc(n));
        }
        o.push_str("<ol class=\"calls\">");
        for (name, input) in &s.calls {
            let _ = write!(o, "<li><code>{}</code> {}</li>", Esc(name), Esc(input));
        }
        o.push_str("</ol>");
        if s.total > s.calls.len() {
            let _ = write!(
                o,
                "<p class=\"note\">and {} more; stream.jsonl in the run folder has them all</p>",
                s.total - s.calls.len()
            );
        }
        o.push_str("</details>");
    }
    if !r.permission_denials.is_empty() {
        o.push_str("<p class=\"note\">refused by the permission system:</p><ul class=\"calls\">");
        for d in &r.permission_denials {
            let _ = write!(
                o,
                "<li><code>{}</code> {}</li>",
                Esc(&d.tool),
                Esc(&cut(&d.input, CALL_CHARS))
            );
        }
        o.push_str("</ul>");
    }
    for w in &r.warnings {
        let _ = write!(o, "<p class=\"note\">warning: {}</p>", Esc(w));
    }
    o.push_str("</div>");
}

/// Every case's trigger results: per trial whether each arm loaded the
/// skill, and the scorer's majority verdict.
pub fn triggers(it: &Iteration) -> String {
    let p = &it.plan;
    let report = match &it.scored {
        Scored::Report(r) => Some(r),
        Scored::Not(_) => None,
    };
    let mut o = String::from(
        "<p>Whether each run loaded the skill (a <code>Skill</code> tool call naming it). A case passes when the with-skill runs loaded it in more than half of the trials (should load) or in fewer than half (should not).</p>\n<table class=\"list triggers\"><thead><tr><th>case</th><th>prompt</th><th>should load</th><th>with skill, per trial</th><th>without, per trial</th><th>verdict</th></tr></thead><tbody>\n",
    );
    for (ci, c) in p.cases.iter().enumerate() {
        let marks = |v: Variant| {
            let mut s = String::new();
            for run in it
                .runs
                .iter()
                .filter(|r| r.key.case == ci && r.key.variant == v)
            {
                s.push_str(match &run.record {
                    Some(r) if r.evidence => {
                        if r.invoked_skills
                            .iter()
                            .any(|x| crate::score::input::loads(x, &p.skill.name))
                        {
                            "<span class=\"mark yes\" title=\"loaded\">●</span>"
                        } else {
                            "<span class=\"mark no\" title=\"not loaded\">○</span>"
                        }
                    }
                    _ => "<span class=\"mark none\" title=\"no verdict\">?</span>",
                });
            }
            s
        };
        let verdict = match report.and_then(|r| r.per_case.iter().find(|x| x.id == c.id)) {
            Some(_) if report.is_some_and(|r| r.trigger.is_none()) => {
                "<td><i>not observed</i></td>".into()
            }
            Some(x) if x.trigger_passed => {
                format!("<td class=\"ok\">pass ({}/{})</td>", x.triggered, p.trials)
            }
            Some(x) => format!(
                "<td class=\"fail\">fail ({}/{})</td>",
                x.triggered, p.trials
            ),
            None => "<td><i>not scored</i></td>".into(),
        };
        let _ = writeln!(
            o,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{verdict}</tr>",
            Esc(&c.id),
            Esc(&c.prompt),
            match (&c.owner, c.expect_trigger) {
                (Some(owner), _) => format!("no (a prompt of <code>{}</code>)", Esc(owner)),
                (None, true) => "yes".into(),
                (None, false) => "no".into(),
            },
            marks(Variant::With),
            if p.variants.contains(&Variant::Without) {
                marks(Variant::Without)
            } else {
                "<i>not run</i>".into()
            }
        );
    }
    o.push_str("</tbody></table>\n");
    o
}
