//! `skillsift tune` output. Validation prompts never appear: only their
//! counts ("validation 1/3 → 3/3") and the paired test's figures.
//!
//! Human:
//!
//! ```text
//! tune     `flaky-tests` (skills/flaky-tests/SKILL.md), as Claude Code lists the catalog
//! split    from the prompts' `split` labels: train 6 (4 should, 2 should-not), validation 4 (3 should, 1 should-not); 2 fresh, never read
//! current  "Diagnoses unreliable tests that pass and fail at random."
//!          train 1/4 positives first (3/4 in top-k), 2/2 negatives pass; validation 1/3; other skills' prompts 12/12; 57 of 1024 characters
//! failing train prompts (the only prompts tuned on):
//!   should "my tests are flaky, fix them": #2, `ci-debug` first
//! round 1  from 3 failing train positives, 0 negatives taken: 6 candidates
//!   1. woven, adds `flaky` (3 train prompts) — picked
//!      train 4/4 positives first (4/4 in top-k), 2/2 negatives pass; validation 1/3 → 3/3; other skills' prompts 12/12, none lost; 65 of 1024 characters
//!      --- a/skills/flaky-tests/SKILL.md
//!      …
//! recommended  round 1 (validation 1/3 → 3/3): exact paired test on the 3 validation prompts …
//! ```
//!
//! JSON: the [`Tuned`] document, each candidate and the recommendation
//! with the `diff` of the SKILL.md, and `written`.

use crate::authoring::tune::score::{Count, Figures};
use crate::authoring::tune::split::{Report, Source};
use crate::authoring::tune::{Scored, Tuned};
use crate::catalog::cases::Side;
use crate::lint::rules::description::MAX_DESCRIPTION_CHARS;
use std::io::Write;

/// Candidates shown per round in human output (JSON has them all).
pub const SHOWN: usize = 3;

/// `tune --behavioral`: the model's routing of the validation prompts with
/// each description (counts only).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ModelCheck {
    /// `--dry-run`: what would run.
    Planned {
        client: String,
        prompts: usize,
        trials: u32,
        runs: usize,
        max_model_turns: u64,
    },
    /// Nothing to confirm.
    Skipped { why: String },
    /// Both descriptions ran.
    Ran {
        client: String,
        client_version: Option<String>,
        prompts: usize,
        trials: u32,
        /// Validation prompts the model routes as expected, current
        /// description.
        before: usize,
        /// … recommended description.
        after: usize,
        failed_runs: usize,
        /// The two `routing.json` files, current then recommended.
        results: Vec<String>,
    },
}

impl ModelCheck {
    /// The model does not route the validation prompts worse with the
    /// recommended description (`true` when nothing ran).
    pub fn confirmed(&self) -> bool {
        match self {
            ModelCheck::Ran { before, after, .. } => after >= before,
            _ => true,
        }
    }
}

/// What the binary did beside tuning.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Done {
    /// `--write` wrote the recommended description.
    pub written: bool,
    /// `--write` was asked for and refused, and why.
    pub not_written: Option<String>,
    pub model: Option<ModelCheck>,
}

fn diff_of(t: &Tuned, prefix: &str, new: &str) -> String {
    crate::diff::unified(
        &crate::display_path(prefix, &t.file),
        &t.original,
        new,
        true,
    )
}

/// The JSON document; `prefix` is how the catalog root is shown in paths.
pub fn json(t: &Tuned, prefix: &str, done: &Done, out: &mut dyn Write) -> std::io::Result<()> {
    let mut doc = serde_json::to_value(t).map_err(std::io::Error::other)?;
    for (r, round) in t.rounds.iter().enumerate() {
        for (k, c) in round.candidates.iter().enumerate() {
            doc["rounds"][r]["candidates"][k]["diff"] = diff_of(t, prefix, &c.text).into();
        }
    }
    if let Some(rec) = &t.recommended {
        doc["recommended"]["diff"] = diff_of(t, prefix, &rec.text).into();
    }
    doc["written"] = done.written.into();
    if let Some(why) = &done.not_written {
        doc["not_written"] = why.clone().into();
    }
    if let Some(m) = &done.model {
        doc["model"] = serde_json::to_value(m).map_err(std::io::Error::other)?;
    }
    crate::escape::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

fn sides(n: usize, positive: usize, negative: usize) -> String {
    format!("{n} ({positive} should, {negative} should-not)")
}

fn lines(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

fn split_line(s: &Report) -> Vec<String> {
    let mut out = Vec::new();
    let from = match s.source {
        Source::Labels => "from the prompts' `split` labels".to_string(),
        Source::Alternating => "no prompt has a `split`, so tune split them: in file order, the 1st, 3rd, 5th … prompt of each side is train, the 2nd, 4th, 6th … validation".to_string(),
    };
    let mut line = format!(
        "split    {from}: train {}, validation {}",
        sides(s.train.total(), s.train.positive, s.train.negative),
        sides(
            s.validation.total(),
            s.validation.positive,
            s.validation.negative
        )
    );
    if s.fresh > 0 {
        line.push_str(&format!("; {} fresh, never read", s.fresh));
    }
    if s.not_lexical > 0 {
        line.push_str(&format!(
            "; {} `\"lexical\": false`, left to Tier 3",
            s.not_lexical
        ));
    }
    if s.unlabelled_train > 0 {
        line.push_str(&format!(
            "; {} without a `split`, read as train",
            s.unlabelled_train
        ));
    }
    out.push(line);
    for l in &s.to_label {
        let (field, then) = match &l.declared {
            None => ("split".to_string(), String::new()),
            Some(d) if !d.has_fields => {
                out.push(format!(
                    "         {} is read by [[cases.sources]] #{}, whose format has no fields: its prompts cannot carry a split label, so the split holds only while they stay as they are",
                    l.file, d.source
                ));
                continue;
            }
            Some(d) if d.split_field.is_some() => (
                d.split_field.clone().unwrap_or_default(),
                format!(
                    " (the field [[cases.sources]] #{} declares as `split`)",
                    d.source
                ),
            ),
            Some(d) => {
                let n = d.source;
                (
                    "split".to_string(),
                    format!(
                        ", and `split = \"split\"` to [[cases.sources]] #{n} in skillsift.toml (it declares no `split` field, so labels in the records are not read)"
                    ),
                )
            }
        };
        let field = base::escape::line(&field).into_owned();
        out.push(format!(
            "         to keep this split, in {} add `\"{field}\": \"train\"` to the prompts on line{} {} and `\"{field}\": \"validation\"` to those on line{} {}{then}",
            l.file,
            if l.train.len() == 1 { "" } else { "s" },
            lines(&l.train),
            if l.validation.len() == 1 { "" } else { "s" },
            lines(&l.validation)
        ));
    }
    out
}

fn count(c: &Count) -> String {
    format!("{}/{}", c.passed, c.of)
}

/// One description's figures on one line; `before`: the current
/// description's, for the validation arrow and the siblings' losses.
fn figures(f: &Figures, before: Option<&Figures>) -> String {
    let validation = match before {
        Some(b) => format!("{} → {}", count(&b.validation), count(&f.validation)),
        None => count(&f.validation),
    };
    let mut s = format!(
        "train {} positives first ({} in top-k), {} negatives pass; validation {validation}; other skills' prompts {}",
        count(&f.train_rank1),
        count(&f.train_top_k),
        count(&f.train_negatives),
        count(&f.siblings),
    );
    if before.is_some() {
        match (f.siblings_lost, f.siblings_gained) {
            (0, 0) => s.push_str(", none lost"),
            (0, g) => s.push_str(&format!(", none lost, {g} gained")),
            (l, 0) => s.push_str(&format!(", {l} lost")),
            (l, g) => s.push_str(&format!(", {l} lost, {g} gained")),
        }
    }
    s.push_str(&format!(
        "; {} of {MAX_DESCRIPTION_CHARS} characters",
        f.chars
    ));
    if let Some(l) = &f.listing {
        s.push_str(&format!("; listing {} of {} {}", l.used, l.limit, l.unit));
        if l.short > 0 {
            s.push_str(&format!(", {} shown short", l.short));
        }
    }
    if f.entry_cut {
        s.push_str("; its listing entry is cut");
    }
    s
}

fn words(c: &Scored) -> String {
    let list = |v: &[crate::authoring::tune::propose::Word]| {
        v.iter()
            .map(|w| {
                format!(
                    "`{}` ({} train prompt{})",
                    w.word,
                    w.prompts,
                    if w.prompts == 1 { "" } else { "s" }
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let kind = match c.candidate.kind {
        crate::authoring::tune::propose::Kind::Woven => "woven into a sentence",
        crate::authoring::tune::propose::Kind::Clause => "a \"Use for …\" clause",
        crate::authoring::tune::propose::Kind::Removal => "taken out of a list",
    };
    let mut parts = vec![kind.to_string()];
    if !c.candidate.adds.is_empty() {
        parts.push(format!("adds {}", list(&c.candidate.adds)));
    }
    if !c.candidate.removes.is_empty() {
        parts.push(format!("removes {}", list(&c.candidate.removes)));
    }
    parts.join(", ")
}

fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| format!("{by}{l}\n"))
        .collect::<String>()
}

/// The human output; `prefix` is how the catalog root is shown in paths.
pub fn human(t: &Tuned, prefix: &str, done: &Done, out: &mut dyn Write) -> std::io::Result<()> {
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    writeln!(
        out,
        "tune     `{}` ({}), as {} lists the catalog{}",
        t.skill,
        crate::display_path(prefix, &t.file),
        t.client.label(),
        t.install
            .as_ref()
            .map(|i| format!(" ({i}, routed as installed)"))
            .unwrap_or_default()
    )?;
    for l in split_line(&t.split) {
        writeln!(out, "{l}")?;
    }
    writeln!(out, "current  {}", q(&t.current.description))?;
    writeln!(out, "         {}", figures(&t.current.figures, None))?;
    let failing: Vec<_> = t.train.iter().filter(|p| !p.passed).collect();
    if !failing.is_empty() {
        writeln!(out, "failing train prompts (the only prompts tuned on):")?;
        for p in failing {
            let why = match (p.side, &p.first) {
                (Side::Positive, Some(f)) => format!("#{}, `{f}` first", p.rank),
                (Side::Positive, None) if p.rank == 0 => "no word in common".to_string(),
                (Side::Positive, None) => format!("#{}", p.rank),
                (Side::Negative, _) if p.rank == 1 => "this skill ranks first".to_string(),
                (Side::Negative, _) => "its owner does not outrank this skill".to_string(),
            };
            let side = if p.side == Side::Positive {
                "should"
            } else {
                "should-not"
            };
            writeln!(out, "  {side} {}: {why}", q(&p.prompt))?;
        }
    }
    for r in &t.rounds {
        writeln!(
            out,
            "round {}  from {} failing train positive{}, {} negative{} taken: {} candidate{}{}",
            r.round,
            r.failing_positives,
            if r.failing_positives == 1 { "" } else { "s" },
            r.taken_negatives,
            if r.taken_negatives == 1 { "" } else { "s" },
            r.candidates.len(),
            if r.candidates.len() == 1 { "" } else { "s" },
            if r.too_long > 0 {
                format!(
                    " ({} more over {MAX_DESCRIPTION_CHARS} characters, not scored)",
                    r.too_long
                )
            } else {
                String::new()
            }
        )?;
        if !r.unphrased.is_empty() {
            let said: Vec<String> = r
                .unphrased
                .iter()
                .map(|w| format!("`{}` ({} prompts)", w.word, w.prompts))
                .collect();
            writeln!(
                out,
                "  unphrased  {}: shared, but in no phrase of the prompts tune can write (a word alone does not say when to use the skill); say it where it belongs by hand",
                said.join(", ")
            )?;
        }
        for (k, c) in r.candidates.iter().take(SHOWN).enumerate() {
            let verdict = if r.picked == Some(k) {
                " — picked".to_string()
            } else if c.why_not.is_empty() {
                String::new()
            } else {
                format!(" — not picked: {}", c.why_not.join("; "))
            };
            writeln!(out, "  {}. {}{verdict}", k + 1, words(c))?;
            writeln!(
                out,
                "     {}",
                figures(&c.figures, Some(&t.current.figures))
            )?;
            if !c.style_kept {
                writeln!(
                    out,
                    "     (written double-quoted: the description's own style cannot hold this text)"
                )?;
            }
            out.write_all(indent(&diff_of(t, prefix, &c.text), "     ").as_bytes())?;
        }
        if r.candidates.len() > SHOWN {
            writeln!(
                out,
                "  … {} more candidate{} (--format json lists every one)",
                r.candidates.len() - SHOWN,
                if r.candidates.len() - SHOWN == 1 {
                    ""
                } else {
                    "s"
                }
            )?;
        }
    }
    if !t.stop.is_empty() {
        writeln!(out, "stopped  {}", t.stop)?;
    }
    for n in &t.notes {
        writeln!(out, "note     {n}")?;
    }
    match (&t.recommended, t.best_round) {
        (Some(rec), _) => {
            writeln!(
                out,
                "recommended  round {} ({}validation {} → {}): {}",
                rec.round,
                if t.rounds.len() > 1 {
                    "the best validation of every round; "
                } else {
                    ""
                },
                count(&t.current.figures.validation),
                count(&rec.figures.validation),
                q(&rec.description)
            )?;
            writeln!(
                out,
                "             exact paired test on the {} validation prompts (McNemar's exact test: the two-sided sign test on the prompts whose verdict changed): {} better, {} worse, p = {}",
                rec.test.prompts,
                rec.test.better,
                rec.test.worse,
                p_value(rec.test.p)
            )?;
            if rec.test.p > 0.05 {
                writeln!(
                    out,
                    "             not significant at 5 %: too few validation prompts changed to tell the gain from chance; it is recommended because validation rises and no train negative or other skill's prompt is lost"
                )?;
            }
            model(done.model.as_ref(), out)?;
            if done.written {
                writeln!(out, "wrote    {}", crate::display_path(prefix, &t.file))?;
            } else if let Some(why) = &done.not_written {
                writeln!(out, "not written  {why}")?;
            } else {
                writeln!(
                    out,
                    "next     `skillsift tune {} --write` applies it (its diff is round {}'s first candidate above)",
                    t.skill, rec.round
                )?;
            }
        }
        (None, Some(b)) => writeln!(
            out,
            "not recommended  round {b} has the best validation, but {}; nothing to write",
            t.not_recommended.as_deref().unwrap_or("it is not better")
        )?,
        (None, None) => match &t.not_recommended {
            Some(why) => writeln!(out, "not recommended  {why}; nothing to write")?,
            None => writeln!(out, "no candidate is recommended; nothing to write")?,
        },
    }
    if t.recommended.is_none() {
        model(done.model.as_ref(), out)?;
    }
    what_would_help(t, out)
}

/// For an author rewriting by hand: each failing train positive's words
/// that the skill ranked first has and this description lacks, and what
/// saying them does.
fn what_would_help(t: &Tuned, out: &mut dyn Write) -> std::io::Result<()> {
    if t.what_would_help.is_empty() {
        return Ok(());
    }
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    writeln!(
        out,
        "what would help  (to rewrite the description by hand; nothing above is worth committing)"
    )?;
    for h in &t.what_would_help {
        let first = h.first.as_deref().unwrap_or("another skill");
        writeln!(
            out,
            "  should {}: #{}{}",
            q(&h.prompt),
            h.rank,
            h.first
                .as_ref()
                .map(|f| format!(", `{f}` first"))
                .unwrap_or_default()
        )?;
        let Some(w) = &h.with_words else {
            writeln!(
                out,
                "     shares no word with `{first}` that this description lacks: say what the prompt asks for in other words, or add a trigger prompt that tells the two apart"
            )?;
            continue;
        };
        writeln!(
            out,
            "     shares with `{first}`, lacks here: {}",
            h.words.join(", ")
        )?;
        let (now, was) = (&w.train_negatives, &t.current.figures.train_negatives);
        let negatives = if now.passed == was.passed {
            format!("train negatives {}/{} pass, as now", now.passed, now.of)
        } else {
            format!(
                "train negatives {} → {} of {} pass",
                was.passed, now.passed, now.of
            )
        };
        writeln!(
            out,
            "     said in the description: {}; {}; {negatives}",
            if w.passes {
                "this prompt ranks it first"
            } else {
                "this prompt still does not rank it first"
            },
            match w.siblings_lost {
                0 => "no other skill's prompt lost".to_string(),
                1 => "takes 1 of the other skills' prompts".to_string(),
                n => format!("takes {n} of the other skills' prompts"),
            },
        )?;
    }
    Ok(())
}

fn model(m: Option<&ModelCheck>, out: &mut dyn Write) -> std::io::Result<()> {
    match m {
        None => Ok(()),
        Some(ModelCheck::Planned {
            client,
            prompts,
            trials,
            runs,
            max_model_turns,
        }) => writeln!(
            out,
            "model    --behavioral would run {prompts} validation prompt{} × {trials} trial{} × 2 descriptions (current, recommended) = {runs} run{} of {client}, at most {max_model_turns} model turns; nothing spawned (--dry-run)",
            if *prompts == 1 { "" } else { "s" },
            if *trials == 1 { "" } else { "s" },
            if *runs == 1 { "" } else { "s" },
        ),
        Some(ModelCheck::Skipped { why }) => writeln!(out, "model    nothing run: {why}"),
        Some(ModelCheck::Ran {
            client,
            client_version,
            prompts,
            trials,
            before,
            after,
            failed_runs,
            results,
        }) => {
            writeln!(
                out,
                "model    {client} {}: validation prompts routed as expected {before}/{prompts} with the current description → {after}/{prompts} with the recommended one ({trials} trial{} each, the whole catalog installed)",
                client_version.as_deref().unwrap_or("(version unknown)"),
                if *trials == 1 { "" } else { "s" },
            )?;
            if *failed_runs > 0 {
                writeln!(
                    out,
                    "warning  {} gave no evidence (counted as loading nothing)",
                    crate::base::plural::count(*failed_runs, "run")
                )?;
            }
            if after < before {
                writeln!(
                    out,
                    "         not confirmed: the model routes fewer validation prompts as expected with it"
                )?;
            }
            for r in results {
                writeln!(out, "results  {r}")?;
            }
            Ok(())
        }
    }
}

/// A p-value as the output prints it: three significant digits.
pub fn p_value(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.2e}")
    }
}
