//! Which candidate a round picks, which round wins, and when the winner is
//! recommended.
//!
//! - A round picks by **train** figures only (train positives ranking
//!   first plus train negatives passing, then train top-k, then the
//!   shorter text), among the candidates with no cost: every word it adds
//!   or removes is shared by two or more train prompts (the gain is not
//!   one prompt's word), it gains on train (more positives first or
//!   negatives passing, else more positives in their top-k; when it does
//!   not, the reason gives each measure before → after), no other skill's prompt that
//!   passed now fails, it is within the specification's 1,024 characters,
//!   and the client's listing shows no more entries short and does not
//!   cut this one. Validation never chooses a candidate.
//! - The round with the best **validation** count wins (the earliest of
//!   equals), not the last.
//! - The winner is **recommended** only when more validation positives
//!   rank the skill first than with the current description, no
//!   validation or train negative the current description passes fails,
//!   and no other skill's prompt is lost ([`held_back`]).
//! - The figure beside it is the exact paired test on the validation
//!   prompts: McNemar's exact test, the two-sided sign test on the
//!   prompts whose verdict changed (`score::uplift::sign_test_p`).

use super::propose::Candidate;
use super::score::Figures;
use crate::lint::rules::description::MAX_DESCRIPTION_CHARS;
use serde::Serialize;

/// The exact paired test between two descriptions on the validation
/// prompts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Test {
    /// Validation prompts compared.
    pub prompts: usize,
    /// Failing before, passing after.
    pub better: usize,
    /// Passing before, failing after.
    pub worse: usize,
    /// Two-sided exact p-value (1 when no verdict changed).
    pub p: f64,
}

/// McNemar's exact test of `after` against `before` (one verdict per
/// validation prompt, in the same order).
pub fn paired(before: &[bool], after: &[bool]) -> Test {
    let mut t = Test {
        prompts: before.len().min(after.len()),
        better: 0,
        worse: 0,
        p: 1.0,
    };
    for (b, a) in before.iter().zip(after) {
        match (b, a) {
            (false, true) => t.better += 1,
            (true, false) => t.worse += 1,
            _ => {}
        }
    }
    t.p = crate::score::uplift::sign_test_p(t.better as u64, t.worse as u64);
    t
}

/// Why a round may not pick `c` (its figures `f`, the round's starting
/// point `prev`, the current description's `current`); empty when it may.
pub fn why_not(c: &Candidate, f: &Figures, prev: &Figures, current: &Figures) -> Vec<String> {
    let mut out = Vec::new();
    if !c.category {
        out.push("a word of one train prompt only: fix the category, not the prompt".to_string());
    }
    // a gain: more train positives first or negatives passing, else (at
    // an equal count) more train positives in their top-k, as a round
    // ranks its picks
    let gain =
        (f.train_score(), f.train_top_k.passed) > (prev.train_score(), prev.train_top_k.passed);
    if !gain {
        out.push(format!(
            "gains nothing on train: {} → {} of {} train positives first, {} → {} of {} train negatives pass, {} → {} of {} in their top-k",
            prev.train_rank1.passed,
            f.train_rank1.passed,
            f.train_rank1.of,
            prev.train_negatives.passed,
            f.train_negatives.passed,
            f.train_negatives.of,
            prev.train_top_k.passed,
            f.train_top_k.passed,
            f.train_top_k.of
        ));
    }
    if f.train_negatives.passed < prev.train_negatives.passed {
        let lost = prev.train_negatives.passed - f.train_negatives.passed;
        out.push(format!(
            "takes {lost} more train negative{} ({} → {} of {} pass)",
            if lost == 1 { "" } else { "s" },
            prev.train_negatives.passed,
            f.train_negatives.passed,
            f.train_negatives.of
        ));
    }
    if f.siblings_lost > 0 {
        out.push(format!(
            "costs other skills {} prompt{}",
            f.siblings_lost,
            if f.siblings_lost == 1 { "" } else { "s" }
        ));
    }
    if f.chars > MAX_DESCRIPTION_CHARS {
        out.push(format!(
            "{} characters, over the specification's {MAX_DESCRIPTION_CHARS}",
            f.chars
        ));
    }
    if let (Some(now), Some(was)) = (&f.listing, &current.listing)
        && now.short > was.short
    {
        out.push(format!(
            "the listing would show {} more entr{} short ({} of {} {} used)",
            now.short - was.short,
            if now.short - was.short == 1 {
                "y"
            } else {
                "ies"
            },
            now.used,
            now.limit,
            now.unit
        ));
    }
    if f.entry_cut && !current.entry_cut {
        out.push("the client would cut its listing entry".to_string());
    }
    out
}

/// Why the best round's pick `f` is not recommended over the current
/// description's figures `current`; `None` when it is: more validation
/// positives rank the skill first, no validation or train negative the
/// current description passes fails, and no other skill's prompt is
/// lost. A change that gains nothing on the held-out prompts is not worth
/// committing, however it does on train.
pub fn held_back(f: &Figures, current: &Figures) -> Option<String> {
    let (now, was) = (&f.validation_rank1, &current.validation_rank1);
    let negatives = |f: &Figures| f.validation.passed - f.validation_rank1.passed;
    if f.validation.passed < current.validation.passed {
        return Some(format!(
            "validation falls ({} → {} of {})",
            current.validation.passed, f.validation.passed, f.validation.of
        ));
    }
    if now.passed <= was.passed {
        return Some(format!(
            "validation rank-1 does not rise ({} → {} of {} positives first): no gain on the held-out prompts",
            was.passed, now.passed, now.of
        ));
    }
    if negatives(f) < negatives(current) {
        return Some(format!(
            "a validation negative the current description passes fails ({} → {} of {})",
            negatives(current),
            negatives(f),
            f.validation.of - f.validation_rank1.of
        ));
    }
    if f.train_negatives.passed < current.train_negatives.passed {
        return Some(format!(
            "a train negative the current description passes fails ({} → {} of {})",
            current.train_negatives.passed, f.train_negatives.passed, f.train_negatives.of
        ));
    }
    (f.siblings_lost > 0).then(|| {
        format!(
            "other skills lose {} prompt{}",
            f.siblings_lost,
            if f.siblings_lost == 1 { "" } else { "s" }
        )
    })
}

/// The order a round ranks candidates in: eligible first, then by train
/// figures, then the shorter text, then the order made.
pub fn order(eligible: bool, f: &Figures, made: usize) -> impl Ord {
    (
        !eligible,
        std::cmp::Reverse(f.train_score()),
        std::cmp::Reverse(f.train_top_k.passed),
        f.chars,
        made,
    )
}

/// The winning round among `validation[r]` (the validation count of each
/// round's pick, round 1 first): the best, the earliest of equals.
pub fn best_round(validation: &[usize]) -> Option<usize> {
    let best = *validation.iter().max()?;
    validation.iter().position(|&v| v == best).map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paired_test_counts_changed_verdicts_only() {
        let t = paired(&[false, false, true, true], &[true, true, true, true]);
        assert_eq!((t.prompts, t.better, t.worse), (4, 2, 0));
        assert_eq!(t.p, 0.5);
        let t = paired(&[true], &[true]);
        assert_eq!((t.better, t.worse, t.p), (0, 0, 1.0));
    }

    #[test]
    fn the_best_round_is_the_earliest_of_equals_not_the_last() {
        assert_eq!(best_round(&[3, 5, 5, 4]), Some(2));
        assert_eq!(best_round(&[]), None);
    }
}
