//! `skillsift cases` output.
//!
//! Human:
//!
//! ```text
//! skill pdf-forms  skills/pdf-forms/SKILL.md
//!
//! files
//!   skills/pdf-forms/evals/evals.json             evals.json    2 evals, 1 negative
//!   skills/pdf-forms/evals/trigger-queries.json   trigger set   4 positive, 2 negative
//!
//! positive (4)
//!   skills/pdf-forms/evals/trigger-queries.json:2:14  "fill in this W-9 for me"
//! …
//! evals (2)
//!   skills/pdf-forms/evals/evals.json:3:5  eval 1  execution  2 expectations
//!       "Fill in the form in evals/files/w9.txt …"
//!       files: evals/files/w9.txt (relative to skills/pdf-forms/)
//! ```
//!
//! JSON: the [`CasesReport`] as one object (`skill`, `files`, `positive`,
//! `negative`, `drafts`, `evals`, `looked_in`, `problems` as in `check
//! --format json`).

use crate::authoring::cases::{CasesReport, TriggerRow};
use std::io::Write;

pub fn json(r: &CasesReport, out: &mut dyn Write) -> std::io::Result<()> {
    let mut doc = serde_json::to_value(r)?;
    doc["problems"] = r
        .problems
        .iter()
        .map(super::json::diagnostic_json)
        .collect::<Vec<_>>()
        .into();
    crate::escape::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

/// `text` as a JSON string: quoted, escaped, on one line.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

fn counts(parts: &[(usize, &str)]) -> String {
    let shown: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    if shown.is_empty() {
        "nothing".to_string()
    } else {
        shown.join(", ")
    }
}

fn triggers(title: &str, rows: &[TriggerRow], out: &mut dyn Write) -> std::io::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "{title} ({})", rows.len())?;
    for t in rows {
        let mut extra = Vec::new();
        if t.draft {
            extra.push(format!("draft {}", t.side.as_str()));
        }
        if let Some(o) = &t.owner {
            extra.push(format!("owner {o}"));
        }
        if let Some(k) = t.top_k {
            extra.push(format!("top_k {k}"));
        }
        if let Some(s) = t.split {
            extra.push(format!("split {s}"));
        }
        if let Some(r) = &t.reason {
            extra.push(format!("reason {}", quoted(r)));
        }
        // the files table names each file's reader; a prompt found by
        // shape says which fields it was read from
        if t.found_by.starts_with("shape: ") || t.found_by.starts_with("declared ") {
            extra.push(format!("by {}", t.found_by));
        }
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!("  [{}]", extra.join(", "))
        };
        writeln!(
            out,
            "  {}:{}:{}  {}{extra}",
            t.file,
            t.line,
            t.column,
            quoted(&t.prompt)
        )?;
    }
    Ok(())
}

pub fn human(r: &CasesReport, out: &mut dyn Write) -> std::io::Result<()> {
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    writeln!(out, "skill {}  {}", r.skill.name, r.skill.file)?;
    if r.files.is_empty() {
        writeln!(out)?;
        writeln!(out, "no cases found; looked in:")?;
        for l in &r.looked_in {
            writeln!(out, "  {l}")?;
        }
        writeln!(
            out,
            "`skillsift init {}` writes a starter trigger set",
            r.skill.name
        )?;
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "files")?;
    let width = r.files.iter().map(|f| f.file.len()).max().unwrap_or(0);
    for f in &r.files {
        let what = if f.read {
            counts(&[
                (f.positive, "positive"),
                (f.negative, "negative"),
                (f.drafts, "draft"),
                (f.evals, if f.evals == 1 { "eval" } else { "evals" }),
            ])
        } else {
            format!(
                "not read: {}",
                f.note.as_deref().unwrap_or("holds no cases")
            )
        };
        writeln!(out, "  {:<width$}  {:<18}  {what}", f.file, f.format)?;
    }
    triggers("positive", &r.positive, out)?;
    triggers("negative", &r.negative, out)?;
    triggers("drafts, not routed or run until rewritten", &r.drafts, out)?;
    if !r.evals.is_empty() {
        writeln!(out)?;
        writeln!(out, "evals ({})", r.evals.len())?;
        for e in &r.evals {
            writeln!(
                out,
                "  {}:{}:{}  eval {}  {}  {} expectation{}",
                e.file,
                e.line,
                e.column,
                e.id,
                e.kind,
                e.expectations.len(),
                if e.expectations.len() == 1 { "" } else { "s" }
            )?;
            writeln!(out, "      {}", quoted(&e.prompt))?;
            for x in &e.expectations {
                writeln!(
                    out,
                    "      {:<7}  {}  ({})",
                    x.kind,
                    x.text,
                    match x.check {
                        Some(c) => format!("check `{c}`, line {}", x.line),
                        None => format!("grader, line {}", x.line),
                    }
                )?;
                if let Some(argv) = &x.command {
                    writeln!(
                        out,
                        "               runs on this machine, in the workspace, after the agent: {}  (timeout {} s)",
                        argv.iter()
                            .map(|a| crate::behave::render::shell_quote(a))
                            .collect::<Vec<_>>()
                            .join(" "),
                        x.command_timeout_secs.unwrap_or_default()
                    )?;
                }
            }
            if !e.files.is_empty() {
                writeln!(
                    out,
                    "      files: {} (relative to {})",
                    e.files.join(", "),
                    e.files_relative_to
                )?;
            }
        }
    }
    writeln!(out)?;
    let errors = r
        .problems
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .count();
    let others = r.problems.len() - errors;
    writeln!(
        out,
        "{} positive, {} negative, {} draft, {} {}",
        r.positive.len(),
        r.negative.len(),
        r.drafts.len(),
        r.evals.len(),
        super::human::plural(r.evals.len(), "eval")
    )?;
    if !r.problems.is_empty() {
        writeln!(
            out,
            "{} and {} in these files (cases with errors are left out above; `skillsift check` shows each in full):",
            crate::base::plural::count(errors, "error"),
            crate::base::plural::count(others, "other finding")
        )?;
        for d in r.problems.iter().take(super::human::FEW * 2) {
            let at = d
                .span
                .map(|s| format!(":{}:{}", s.line, s.col))
                .unwrap_or_default();
            writeln!(
                out,
                "  {}{at}: {}[{}]: {}",
                d.file, d.severity, d.rule, d.message
            )?;
        }
        if r.problems.len() > super::human::FEW * 2 {
            writeln!(
                out,
                "  and {} more",
                r.problems.len() - super::human::FEW * 2
            )?;
        }
    }
    Ok(())
}
