//! Printing a scorer [`Report`]: a plain-text report for people, or the
//! stable JSON shape for machines.

use crate::base::Format;
use crate::score::{MIN_CASES, Report, TaskReport, TriggerReport, Verdict};
use std::io::Write;

/// Print the scorer's conclusion: one report, or one per client followed
/// by the verdict of each.
pub fn render_scored(
    scored: &crate::score::Scored,
    format: Format,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let reports = match scored {
        crate::score::Scored::One(r) => return render(r, format, out),
        crate::score::Scored::PerClient(v) => v,
    };
    let worst = reports
        .iter()
        .map(|c| c.report.verdict)
        .max_by_key(|v| match v {
            crate::score::Verdict::Pass => 0,
            crate::score::Verdict::Fail => 1,
            crate::score::Verdict::Unavailable => 2,
            crate::score::Verdict::Insufficient => 3,
        })
        .unwrap_or(crate::score::Verdict::Pass);
    if format == Format::Json {
        crate::escape::to_writer_pretty(
            &mut *out,
            &serde_json::json!({"clients": reports, "verdict": worst.as_str()}),
        )?;
        return writeln!(out);
    }
    if format == Format::Junit {
        use crate::junit::{Tier3, client_suites, write_clients};
        let suites: Vec<_> = reports
            .iter()
            .map(|c| {
                let mut t = Tier3::from_report(&c.report);
                t.client = Some(&c.client);
                client_suites(&t)
            })
            .collect();
        let skill = reports.first().map_or("", |c| c.report.skill.name.as_str());
        return write_clients(skill, &suites, out);
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
            crate::escape::to_writer_pretty(&mut *out, report)?;
            writeln!(out)
        }
        Format::Junit => crate::junit::tier3(&crate::junit::Tier3::from_report(report), out),
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
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
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
        "evidence {} distinct cases{repeated}, {} trial{} each, {}",
        r.cases,
        r.trials,
        if r.trials == 1 { "" } else { "s" },
        if r.arms.without == "without skill" {
            "with and without the skill".to_string()
        } else {
            format!("{} and {}", r.arms.with, r.arms.without)
        }
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
        Some(t) => task(t, &r.arms, out)?,
        None => writeln!(
            out,
            "task     no case has a task check: uplift not measured (task: null)"
        )?,
    }
    if let Some(e) = &r.expectations {
        writeln!(out)?;
        expectations(e, &r.arms, r.trials, out)?;
    }
    if !r.gates.is_empty() {
        writeln!(out)?;
        writeln!(out, "gates")?;
        for g in &r.gates {
            writeln!(
                out,
                "  {}  {}: {}",
                if g.passed { "PASS" } else { "FAIL" },
                g.name.replace('_', "-"),
                gate_line(g)
            )?;
            if let Some(n) = &g.note {
                writeln!(out, "        {n}")?;
            }
        }
    }
    writeln!(out)?;
    writeln!(out, "verdict  {}: {}", r.verdict.as_str(), verdict_why(r))
}

/// A gate's measured value against its threshold, in words.
pub fn gate_line(g: &crate::score::Gate) -> String {
    let cmp = if g.passed { "≥" } else { "<" };
    match g.name {
        "min_trigger_f1" => format!(
            "trigger F1 {} {cmp} {}",
            num(g.value),
            num(Some(g.threshold))
        ),
        "min_uplift" => format!(
            "uplift CI lower bound {} {cmp} {}",
            num(g.value),
            num(Some(g.threshold))
        ),
        "min_quality_delta" => match g.value {
            Some(v) => format!(
                "quality delta {} {} {} points",
                points(v),
                if v >= g.threshold { "≥" } else { "<" },
                points(g.threshold)
            ),
            None => format!(
                "no quality delta (threshold {} points)",
                points(g.threshold)
            ),
        },
        "blockers" => {
            let n = g.value.unwrap_or(0.0) as u64;
            if n == 0 {
                "no blocker failed in a with-skill trial".into()
            } else {
                format!(
                    "{n} blocker failure{} in with-skill trials",
                    if n == 1 { "" } else { "s" }
                )
            }
        }
        "no_trigger_theft" => {
            let n = g.value.unwrap_or(0.0) as u64;
            format!(
                "{n} sibling prompt{} taken by the tested skill",
                if n == 1 { "" } else { "s" }
            )
        }
        other => format!("{other} {} {cmp} {}", num(g.value), num(Some(g.threshold))),
    }
}

/// Percentage points, signed, one decimal (`+20.0`).
pub fn points(x: f64) -> String {
    let s = format!("{x:+.1}");
    if s == "-0.0" { "+0.0".into() } else { s }
}

/// Why the verdict is what it is, in one line.
pub fn verdict_why(r: &Report) -> String {
    match r.verdict {
        Verdict::Pass => "every gate passed".to_string(),
        Verdict::Fail => {
            let failed: Vec<String> = r
                .gates
                .iter()
                .filter(|g| !g.passed)
                .map(|g| match (g.name, &g.note) {
                    ("blockers", Some(n)) => n.clone(),
                    (name, _) => name.replace('_', "-"),
                })
                .collect();
            format!(
                "{} failed: {}",
                if failed.len() == 1 { "a gate" } else { "gates" },
                failed.join("; ")
            )
        }
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
    )?;
    if let Some(th) = &t.theft {
        writeln!(
            out,
            "  trigger theft: {} of {} sibling prompts taken",
            th.stolen.len(),
            th.cases
        )?;
        for s in th.stolen.iter().take(SHOWN) {
            writeln!(
                out,
                "    {} (owned by `{}`): the tested skill loaded in {} of {trials} runs; `{}` loaded in {} with it, {} without it",
                s.case, s.owner, s.loaded, s.owner, s.owner_with, s.owner_without
            )?;
        }
    }
    Ok(())
}

fn task(t: &TaskReport, arms: &crate::score::Arms, out: &mut dyn Write) -> std::io::Result<()> {
    let u = &t.uplift;
    let s = &t.sign_test;
    writeln!(
        out,
        "task     over {} distinct cases with a task check",
        t.cases
    )?;
    writeln!(
        out,
        "  pass rate  with skill {}  {} {}",
        num(Some(t.with_pass_rate)),
        short_without(arms),
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

/// The baseline arm's short name: `without`, or `baseline`.
fn short_without(arms: &crate::score::Arms) -> &'static str {
    if arms.without == "without skill" {
        "without"
    } else {
        "baseline"
    }
}

/// How many items were shown before "and N more".
const SHOWN: usize = 10;

fn expectations(
    e: &crate::score::expectations::ExpectationReport,
    arms: &crate::score::Arms,
    trials: u32,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(
        out,
        "expectations  per expectation: each verdict of each trial counts once"
    )?;
    match &e.quality {
        Some(q) => writeln!(
            out,
            "  quality    {} expectations; with skill {} ({}/{})  {} {} ({}/{})  delta {} points",
            q.expectations,
            num(Some(q.with_pass_rate)),
            q.with_passed,
            q.with_total,
            short_without(arms),
            num(Some(q.without_pass_rate)),
            q.without_passed,
            q.without_total,
            points(q.delta_points)
        )?,
        None => writeln!(out, "  quality    no quality expectation")?,
    }
    let b = &e.blockers;
    if b.expectations == 0 {
        writeln!(out, "  blockers   none declared")?;
    } else {
        writeln!(
            out,
            "  blockers   {} declared, {} with-skill verdicts ({trials} per blocker): {}",
            b.expectations,
            b.with_verdicts,
            if b.failures.is_empty() {
                "none failed".to_string()
            } else {
                format!("{} failed", b.failures.len())
            }
        )?;
        for f in b.failures.iter().take(SHOWN) {
            writeln!(
                out,
                "    FAIL  {} trial {}: \"{}\"{}",
                f.case,
                f.trial,
                f.expectation,
                f.check
                    .as_ref()
                    .map(|c| format!(" (check {c})"))
                    .unwrap_or_default()
            )?;
            writeln!(out, "          evidence: {}", one_line(&f.evidence))?;
        }
        if b.failures.len() > SHOWN {
            writeln!(
                out,
                "    and {} more (--format json lists all)",
                b.failures.len() - SHOWN
            )?;
        }
        for f in b.fixed.iter().take(SHOWN) {
            writeln!(
                out,
                "  fixed      \"{}\" of {} fails {} {} of {} trials and passes in every with-skill trial",
                f.expectation,
                f.case,
                short_without(arms),
                f.without_failed,
                f.trials
            )?;
        }
    }
    if e.non_discriminating.is_empty() {
        writeln!(out, "  do not discriminate: none")?;
    } else {
        writeln!(
            out,
            "  do not discriminate: {} (same verdict in both arms in every trial)",
            e.non_discriminating.len()
        )?;
        // one line per expectation text, naming the cases it is in
        let mut groups: Vec<(&str, &str, &str, Vec<&str>)> = Vec::new();
        let mut at: std::collections::HashMap<(&str, &str), usize> = Default::default();
        for n in &e.non_discriminating {
            match at.get(&(n.expectation.as_str(), n.always)) {
                Some(&i) => groups[i].3.push(&n.case),
                None => {
                    at.insert((&n.expectation, n.always), groups.len());
                    groups.push((&n.expectation, n.always, n.fix, vec![&n.case]));
                }
            }
        }
        for (text, always, fix, cases) in groups.iter().take(SHOWN) {
            let named = if cases.len() > 5 {
                format!("{}, … ({} cases)", cases[..3].join(", "), cases.len())
            } else {
                cases.join(", ")
            };
            writeln!(out, "    \"{text}\" always {always} in {named}: {fix}")?;
        }
        if groups.len() > SHOWN {
            writeln!(
                out,
                "    and {} more (--format json lists all)",
                groups.len() - SHOWN
            )?;
        }
    }
    Ok(())
}

/// `s` on one line, cut to 300 characters.
fn one_line(s: &str) -> String {
    let t: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() > 300 {
        format!("{}…", t.chars().take(300).collect::<String>())
    } else {
        t
    }
}

/// A p-value: four decimals, or scientific notation below 0.001.
pub fn p_value(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.4}")
    } else {
        format!("{p:.3e}")
    }
}
