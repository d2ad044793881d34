//! Printing a scorer [`Report`]: a plain-text report for people, or the
//! stable JSON shape for machines.

use super::{MIN_CASES, Report, TaskReport, TriggerReport, Verdict};
use crate::cli::Format;
use std::io::Write;

/// Print the scorer's conclusion: one report, or one per client followed
/// by the verdict of each.
pub fn render_scored(
    scored: &super::Scored,
    format: Format,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let reports = match scored {
        super::Scored::One(r) => return render(r, format, out),
        super::Scored::PerClient(v) => v,
    };
    let worst = reports
        .iter()
        .map(|c| c.report.verdict)
        .max_by_key(|v| match v {
            super::Verdict::Pass => 0,
            super::Verdict::Fail => 1,
            super::Verdict::Unavailable => 2,
            super::Verdict::Insufficient => 3,
        })
        .unwrap_or(super::Verdict::Pass);
    if format == Format::Json {
        serde_json::to_writer_pretty(
            &mut *out,
            &serde_json::json!({"clients": reports, "verdict": worst.as_str()}),
        )?;
        return writeln!(out);
    }
    for c in reports {
        writeln!(out, "client   {}", c.client)?;
        human(&c.report, out)?;
        writeln!(out)?;
    }
    writeln!(
        out,
        "clients  {}",
        reports
            .iter()
            .map(|c| format!("{} {}", c.client, c.report.verdict.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Render `report` as JSON (`--format json`), JUnit XML (`junit`) or as
/// text (any other format).
pub fn render(report: &Report, format: Format, out: &mut dyn Write) -> std::io::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, report)?;
            writeln!(out)
        }
        Format::Junit => {
            crate::report::junit::tier3(&crate::report::junit::Tier3::from_report(report), out)
        }
        _ => human(report, out),
    }
}

/// A rate with three decimals, or `n/a` when it does not exist.
pub fn num(v: Option<f64>) -> String {
    match v {
        Some(x) => format!("{x:.3}"),
        None => "n/a".to_string(),
    }
}

/// `+0.300` (never `-0.000`).
pub fn signed(x: f64) -> String {
    let s = format!("{x:+.3}");
    if s == "-0.000" { "+0.000".into() } else { s }
}

fn list(ids: &[String]) -> String {
    if ids.is_empty() {
        "none".into()
    } else {
        ids.join(", ")
    }
}

fn human(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "skill    {}", r.skill.name)?;
    writeln!(out, "         skill    sha256 {}", r.skill.skill_sha256)?;
    writeln!(out, "         SKILL.md sha256 {}", r.skill.skill_md_sha256)?;
    let repeated = if r.case_ids != r.cases {
        format!(" ({} ids; repeated prompts count once)", r.case_ids)
    } else {
        String::new()
    };
    writeln!(
        out,
        "evidence {} distinct cases{repeated}, {} trial{} each, with and without the skill",
        r.cases,
        r.trials,
        if r.trials == 1 { "" } else { "s" }
    )?;
    writeln!(out)?;
    match (&r.trigger, &r.trigger_unobserved) {
        (Some(t), _) => trigger(t, r.trials, out)?,
        (None, why) => writeln!(
            out,
            "trigger  not observed: {}",
            why.as_deref().unwrap_or("no trigger evidence")
        )?,
    }
    writeln!(out)?;
    match &r.task {
        Some(t) => task(t, out)?,
        None => writeln!(
            out,
            "task     no case has a task check: uplift not measured (task: null)"
        )?,
    }
    if !r.gates.is_empty() {
        writeln!(out)?;
        writeln!(out, "gates")?;
        for g in &r.gates {
            let what = match g.name {
                "min_trigger_f1" => "trigger F1",
                "min_uplift" => "uplift CI lower bound",
                other => other,
            };
            let cmp = if g.passed { "≥" } else { "<" };
            writeln!(
                out,
                "  {}  {}: {what} {} {cmp} {}",
                if g.passed { "PASS" } else { "FAIL" },
                g.name.replace('_', "-"),
                num(g.value),
                num(Some(g.threshold)),
            )?;
        }
    }
    writeln!(out)?;
    writeln!(out, "verdict  {}: {}", r.verdict.as_str(), verdict_why(r))
}

/// Why the verdict is what it is, in one line.
pub fn verdict_why(r: &Report) -> String {
    match r.verdict {
        Verdict::Pass => "every gate passed".to_string(),
        Verdict::Fail => "a gate failed".to_string(),
        Verdict::Insufficient => {
            let task = r.task.as_ref().map(|t| t.cases).unwrap_or(MIN_CASES);
            format!(
                "fewer than {MIN_CASES} distinct cases ({} overall, {} with a task check); add cases before trusting these numbers",
                r.cases,
                if r.task.is_some() {
                    task.to_string()
                } else {
                    "none".into()
                }
            )
        }
        Verdict::Unavailable => {
            "--min-uplift was asked for, but no case has a task check".to_string()
        }
    }
}

fn trigger(t: &TriggerReport, trials: u32, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "trigger  over {} with-skill runs", t.runs)?;
    writeln!(out, "  TP {}  FP {}  FN {}  TN {}", t.tp, t.fp, t.fn_, t.tn)?;
    writeln!(
        out,
        "  precision {}  recall {}  F1 {}",
        num(t.precision),
        num(t.recall),
        num(t.f1)
    )?;
    // Majority rule: a should case needs more than half its runs, a
    // should-not case fewer than half (a tie fails both).
    let need = trials / 2 + 1;
    let too_many = trials.div_ceil(2);
    writeln!(
        out,
        "  false triggers (should not load; loaded in ≥ {too_many} of {trials} runs): {}",
        list(&t.false_trigger_cases)
    )?;
    writeln!(
        out,
        "  missed triggers (should load; loaded in < {need} of {trials} runs): {}",
        list(&t.missed_trigger_cases)
    )
}

fn task(t: &TaskReport, out: &mut dyn Write) -> std::io::Result<()> {
    let u = &t.uplift;
    let s = &t.sign_test;
    writeln!(
        out,
        "task     over {} distinct cases with a task check",
        t.cases
    )?;
    writeln!(
        out,
        "  pass rate  with skill {}  without {}",
        num(Some(t.with_pass_rate)),
        num(Some(t.without_pass_rate))
    )?;
    writeln!(
        out,
        "  uplift     mean(d) {}  {:.0}% CI [{}, {}]",
        signed(u.mean),
        u.level * 100.0,
        signed(u.ci_low),
        signed(u.ci_high)
    )?;
    writeln!(
        out,
        "             percentile bootstrap over cases, {} resamples, seed {}, {}",
        u.resamples, u.seed, u.rng
    )?;
    writeln!(
        out,
        "  sign test  {} better, {} worse, {} tied; exact two-sided p = {}",
        s.positive,
        s.negative,
        s.zero,
        p_value(s.p_value)
    )
}

/// A p-value: four decimals, or scientific notation below 0.001.
pub fn p_value(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.4}")
    } else {
        format!("{p:.3e}")
    }
}
