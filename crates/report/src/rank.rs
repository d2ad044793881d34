//! `skillsift rank` output.
//!
//! Human:
//!
//! ```text
//! prompt terms: failing→fail (3 skills), test (5 skills), bug (2 skills)
//!   1  0.4123  test-driven-development        skills/test-driven-development/SKILL.md
//!        fail   0.52 × 0.31 = 0.161  (failing)
//!   2  0.2011  debugging-and-error-recovery   skills/debugging-and-error-recovery/SKILL.md
//! 2 of 24 skills share a term with the prompt
//! ```
//!
//! JSON: the [`RankReport`] as one object (`prompt`, `terms`, `matched`,
//! `skills_routed`, `unroutable`, `name_only` (how many skills the client
//! lists by name only), `results` with `rank`, `name`, `file`, `score`,
//! `tied`, `name_only` and, with `--explain`, `contributions`).

use crate::route::cmd::RankReport;
use std::io::Write;

pub fn json(r: &RankReport, out: &mut dyn Write) -> std::io::Result<()> {
    crate::escape::to_writer_pretty(&mut *out, r)?;
    writeln!(out)
}

pub fn human(r: &RankReport, out: &mut dyn Write) -> std::io::Result<()> {
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    if r.terms.is_empty() {
        writeln!(
            out,
            "prompt terms: none (every word is a stop word or shorter than 3 characters)"
        )?;
    } else {
        let terms: Vec<String> = r
            .terms
            .iter()
            .map(|t| {
                let shown = if t.words.len() == 1 && t.words[0] == t.term {
                    t.term.clone()
                } else {
                    format!("{}→{}", t.words.join("/"), t.term)
                };
                match t.skills {
                    0 => format!("{shown} (no skill)"),
                    1 => format!("{shown} (1 skill)"),
                    n => format!("{shown} ({n} skills)"),
                }
            })
            .collect();
        writeln!(out, "prompt terms: {}", terms.join(", "))?;
    }
    let width = r.results.iter().map(|x| x.name.len()).max().unwrap_or(0);
    // a column for the tie marker only when a tie is shown
    let ties = r.results.iter().any(|x| x.tied);
    for x in &r.results {
        writeln!(
            out,
            "{:>3}  {:.4}  {}{:<width$}  {}{}",
            x.rank,
            x.score,
            match (ties, x.tied) {
                (false, _) => "",
                (true, true) => "= ",
                (true, false) => "  ",
            },
            x.name,
            x.file,
            if x.name_only { "  (name only)" } else { "" }
        )?;
        for c in x.contributions.iter().flatten() {
            let words = c
                .words
                .iter()
                .filter(|w| **w != c.term)
                .cloned()
                .collect::<Vec<_>>();
            let from = if words.is_empty() {
                String::new()
            } else {
                format!("  ({})", words.join(", "))
            };
            writeln!(
                out,
                "        {:<16} {:.3} × {:.3} = {:.4}{from}",
                c.term, c.prompt_weight, c.skill_weight, c.contribution
            )?;
        }
    }
    if r.results.iter().any(|x| x.tied) {
        writeln!(
            out,
            "= tied: the same score as a neighbour; ties are listed by name and none of them ranks first"
        )?;
    }
    let more = if r.truncated {
        format!(" (showing {}; --limit 0 shows all)", r.results.len())
    } else {
        String::new()
    };
    writeln!(
        out,
        "{} of {} {} a term with the prompt{more}",
        r.matched,
        crate::base::plural::count(r.skills_routed, "skill"),
        if r.matched == 1 { "shares" } else { "share" }
    )?;
    if r.name_only > 0 {
        writeln!(
            out,
            "note: {} {} listed by name only: {}'s listing is over its budget (SG520), so {} by {} alone",
            r.name_only,
            if r.name_only == 1 {
                "skill is"
            } else {
                "skills are"
            },
            r.client.label(),
            if r.name_only == 1 {
                "it ranks"
            } else {
                "they rank"
            },
            if r.name_only == 1 {
                "its name"
            } else {
                "their names"
            },
        )?;
    }
    if let Some(n) = &r.note {
        writeln!(out, "note: {n}")?;
    }
    if !r.unroutable.is_empty() {
        writeln!(
            out,
            "not routed ({} {} {}): {}",
            r.unroutable.len(),
            super::human::plural(r.unroutable.len(), "skill"),
            r.client.unlisted(),
            super::human::first_few(&r.unroutable)
        )?;
    }
    Ok(())
}
