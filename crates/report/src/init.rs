//! `skillsift init` output.
//!
//! Human:
//!
//! ```text
//! wrote skills/pdf-forms/evals/trigger-queries.json (trigger set; 2 other skills keep a trigger set there)
//!   positive drafts, from the description's "Use when" clauses:
//!     "Fill in or complete a PDF form"
//!   negative drafts, near misses from the closest skills:
//!     "Merge two PDFs into one"  (owner pdf-merge)
//! every prompt is a draft: rewrite each the way a user would ask, then remove "draft": true;
//! drafts are not routed or run until then (SG423)
//! left to write, beside rewriting the drafts: 1 more positive prompt (minimum 3); 1 behavioral eval (minimum 1, in the skill's evals/evals.json)
//! next: skillsift cases pdf-forms
//! ```
//!
//! With `--dry-run` the file's text follows, and nothing is written. JSON:
//! the [`InitReport`] (`skill`, `file`, `format`, `layout`, `positive`,
//! `negative`, `written`, `left_to_write`, `content`).

use crate::authoring::init::InitReport;
use std::io::Write;

pub fn json(r: &InitReport, out: &mut dyn Write) -> std::io::Result<()> {
    crate::escape::to_writer_pretty(&mut *out, r)?;
    writeln!(out)
}

pub fn human(r: &InitReport, out: &mut dyn Write) -> std::io::Result<()> {
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    writeln!(
        out,
        "{} {} ({}; {})",
        if r.written { "wrote" } else { "would write" },
        r.file,
        r.format,
        r.layout
    )?;
    if r.positive.is_empty() && r.use_when_clauses > 0 {
        writeln!(
            out,
            "  no positive drafts: no \"Use when\" clause of the description makes a whole sentence (two words to 160 characters); write positives yourself"
        )?;
    } else if r.positive.is_empty() {
        writeln!(
            out,
            "  no positive drafts: the description has no \"Use when …\" clause (SG201); write positives yourself"
        )?;
    } else {
        writeln!(
            out,
            "  positive drafts, from the description's \"Use when\" clauses:"
        )?;
        for d in &r.positive {
            writeln!(out, "    {}", q(&d.prompt))?;
        }
    }
    if r.negative.is_empty() {
        let why = match (&r.installation, r.siblings) {
            (Some(label), 0) => format!(
                "no other skill is installed with this one ({} is installed on its own)",
                crate::escape::line(label)
            ),
            (Some(label), _) => format!(
                "no other skill of {}, installed with this one, shares a word with it",
                crate::escape::line(label)
            ),
            (None, 0) => "the catalog has no other skill".to_string(),
            (None, _) => "no other skill shares a word with this one".to_string(),
        };
        writeln!(
            out,
            "  no negative drafts: {why}; write near misses yourself"
        )?;
    } else {
        writeln!(
            out,
            "  negative drafts, near misses from the closest skills{}:",
            match &r.installation {
                Some(label) => format!(" installed with it ({})", crate::escape::line(label)),
                None => String::new(),
            }
        )?;
        for d in &r.negative {
            writeln!(
                out,
                "    {}  (owner {})",
                q(&d.prompt),
                d.owner.as_deref().unwrap_or("?")
            )?;
        }
    }
    let mark = if r.format == "waza trigger tests" {
        "the `draft:` from its reason"
    } else {
        "\"draft\": true"
    };
    writeln!(
        out,
        "every prompt is a draft: rewrite each the way a user would ask, then remove {mark}; drafts are not routed or run until then (SG423)"
    )?;
    if !r.left_to_write.is_empty() {
        writeln!(
            out,
            "left to write, beside rewriting the drafts: {}",
            r.left_to_write.join("; ")
        )?;
    }
    if r.written {
        writeln!(out, "next: skillsift cases {}", r.skill)
    } else {
        writeln!(out)?;
        out.write_all(r.content.as_bytes())?;
        writeln!(out)?;
        writeln!(out, "dry run: nothing was written")
    }
}
