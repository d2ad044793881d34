//! Every skill's trigger prompts (its merged [`Suite`]: case files, trigger
//! sets, evals files, waza files), ranked against the catalog.
//!
//! - Positive: the case file's skill ranks within `top_k` (default 3) with a
//!   score above 0 (SG501, SG502).
//! - Negative: the skill does not rank first, alone or tied, with a score
//!   above 0 (SG503); with an `owner`, the owner scores above 0 and strictly
//!   above the skill (SG504).
//! - The rank-1 rate: positives whose skill ranks strictly first (no tie);
//!   [`floor`] gates it (SG505).
//!
//! A case file's skill is the one its `skill_name` names, else its file
//! name; a skill's own files are its own. Files naming no skill, and owners
//! naming none, are Tier 1's to report (SG405, SG415); prompts of a skill
//! that cannot be routed are noted once per file (SG507); drafts are never
//! routed (SG423). Every finding points at the prompt, in its file.

use super::Router;
use super::index::Query;
use super::rank::{Scorer, Standing, score_key};
use super::rules;
use crate::catalog::cases::{CASES_DIR, Suite, TriggerCase};
use crate::config::RouteConfig;
use crate::diag::{Diagnostic, Span};
use crate::route::RouteSummary;
use rayon::prelude::*;

/// Positive or negative trigger prompt.
pub use crate::catalog::cases::Side as Kind;

/// What one trigger prompt did.
#[derive(Debug, Clone)]
pub struct PromptResult {
    /// The case file.
    pub file: String,
    /// The case file's skill.
    pub skill: String,
    /// Its document in the index.
    pub doc: u32,
    pub kind: Kind,
    pub prompt: String,
    pub span: Span,
    /// The skill's rank, counting ties as ahead.
    pub rank: usize,
    /// The top-k a positive had to reach: the prompt's own `top_k`, else
    /// `[route] top-k` (one less where the listing holds no more).
    pub top_k: usize,
    pub score: f64,
    /// The skill ranks strictly first with a score above 0.
    pub rank1: bool,
    /// The skill ties for first with a score above 0 (not a rank-1 hit).
    pub tied_first: bool,
    /// The check (including the owner check of a negative) passed.
    pub passed: bool,
    /// False for a `"lexical": false` prompt: not ranked, expected to miss.
    pub lexical: bool,
    /// The finding when it did not pass.
    pub diagnostics: Vec<Diagnostic>,
    /// Who the prompt belongs to and which skill ranked first: its cell of
    /// a confusion matrix. `None` for a negative without an `owner` (or
    /// one that cannot be ranked).
    pub cell: Option<Cell>,
}

/// A prompt's owner (the case file's skill for a positive, the `owner` of
/// a negative) and the skill that ranked first for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// The owner's document.
    pub owner: u32,
    /// The owner's rank, counting ties as ahead.
    pub owner_rank: usize,
    pub owner_score: f64,
    /// The skill ranked first: the owner when it is strictly first,
    /// else the first other skill (a tie for first goes to the other
    /// skill); `None` when no skill scores above 0.
    pub winner: Option<u32>,
    pub winner_score: f64,
    /// The owner ties for first with the winner.
    pub tied: bool,
}

/// Everything the trigger checks found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Findings of every prompt, plus the SG507 notes.
    pub diagnostics: Vec<Diagnostic>,
    /// Every prompt checked, in case-file order.
    pub prompts: Vec<PromptResult>,
    pub rank1: usize,
    /// Prompts marked `"lexical": false`: reported as expected, not ranked.
    pub not_lexical: usize,
    /// Positives whose skill ranks within the top 3 (ties counted ahead).
    pub top3: usize,
    /// Positives whose skill ties for first.
    pub tied_first: usize,
    pub positives: usize,
    pub checks: usize,
    pub checks_passed: usize,
    /// `[route] top-k` lowered where it could not fail: `(k used, skills
    /// routed together)` of the smallest listing whose skills were no
    /// more than `top-k`.
    pub lowered_top_k: Option<(usize, usize)>,
}

/// The top-k a positive must reach in a listing of `docs` entries: `[route]
/// top-k`, but below the number routed together, where a top-k holding
/// them all could not fail (`None` when it stands as set).
pub fn lowered_top_k(top_k: usize, docs: usize) -> Option<usize> {
    (docs > 1 && top_k >= docs).then(|| docs - 1)
}

/// One prompt to check.
struct Job<'a> {
    skill: String,
    doc: u32,
    kind: Kind,
    trigger: &'a TriggerCase,
}

/// Check every trigger prompt of every suite.
pub fn check(router: &Router, config: &RouteConfig) -> Outcome {
    let mut out = Outcome::default();
    let mut jobs = Vec::new();
    for suite in &router.catalog.suites {
        let Some(si) = suite.skill else {
            continue;
        };
        let Some(doc) = router.doc_of(si) else {
            unroutable(router, suite, si, &mut out.diagnostics);
            continue;
        };
        let name = router.index.doc(doc).name.clone();
        for (kind, list) in [
            (Kind::Positive, &suite.positive),
            (Kind::Negative, &suite.negative),
        ] {
            for trigger in list {
                jobs.push(Job {
                    skill: name.clone(),
                    doc,
                    kind,
                    trigger,
                });
            }
        }
    }

    let docs = router.index.len();
    let lowered = lowered_top_k(config.top_k, docs);
    if let Some(k) = lowered
        && !jobs.is_empty()
    {
        out.lowered_top_k = Some((k, docs));
    }
    let top_k = lowered.unwrap_or(config.top_k);
    let results: Vec<PromptResult> = jobs
        .par_iter()
        .map_init(
            || Scorer::new(&router.index),
            |scorer, job| run(router, top_k, scorer, job),
        )
        .collect();
    let (ranked, not_lexical): (Vec<_>, Vec<_>) = results.into_iter().partition(|r| r.lexical);
    out.not_lexical = not_lexical.len();
    let results = ranked;
    for r in &results {
        out.checks += 1;
        if r.passed {
            out.checks_passed += 1;
        }
        if r.kind == Kind::Positive {
            out.positives += 1;
            if r.rank1 {
                out.rank1 += 1;
            }
            if r.score > 0.0 && r.rank <= 3 {
                out.top3 += 1;
            }
            if r.tied_first {
                out.tied_first += 1;
            }
        }
        out.diagnostics.extend(r.diagnostics.iter().cloned());
    }
    out.prompts = results;
    out
}

/// SG507 for each file of a suite whose skill cannot be routed (no
/// readable name or description), at a case file's `skill_name` or the
/// file's first prompt.
fn unroutable(router: &Router, suite: &Suite, si: usize, out: &mut Vec<Diagnostic>) {
    let skill = &router.catalog.skills[si];
    let why = router
        .entry(si)
        .and_then(|e| e.reason.as_ref())
        .map_or_else(
            || "it has no readable name or description".to_string(),
            |r| r.describe(),
        );
    for file in &suite.files {
        let prompts: Vec<&TriggerCase> = suite
            .positive
            .iter()
            .chain(&suite.negative)
            .filter(|t| &t.file == file)
            .collect();
        let n = prompts.len();
        if n == 0 {
            continue;
        }
        let named = router
            .catalog
            .cases
            .binary_search_by(|c| c.file.as_str().cmp(file))
            .ok()
            .and_then(|i| router.catalog.cases[i].skill_name.as_ref())
            .map(|s| s.span);
        out.push(
            rules::UNROUTABLE_CASES
                .diag(
                    file,
                    format!(
                        "{n} trigger prompt{} not checked: {} lists no `{}`: {why}",
                        if n == 1 { " was" } else { "s were" },
                        router.listing.client.label(),
                        skill.folder,
                    ),
                )
                .with_span(named.unwrap_or(prompts[0].prompt.span))
                .with_help(format!(
                    "fix {} (see its Tier 1 findings) so that the client lists it",
                    skill.file
                )),
        );
    }
}

/// `name (0.42)` for a ranked document.
fn scored(router: &Router, d: u32, score: f64) -> String {
    format!("`{}` ({score:.2})", router.index.doc(d).name)
}

/// `#3`, `#3 (tied with 2 others)`, or `tied for #1 with 1 other` (which
/// the rank-1 rate counts as a miss: the model has no reason to prefer
/// either skill).
fn place(st: &Standing) -> String {
    if st.above == 0 && st.tied > 0 && st.matched() {
        return format!("tied for #1 with {}", others(st.tied));
    }
    match st.tied {
        0 => format!("#{}", st.rank()),
        1 => format!("#{} (tied with 1 other)", st.rank()),
        n => format!("#{} (tied with {n} others)", st.rank()),
    }
}

/// `1 other`, `2 others`.
fn others(n: usize) -> String {
    if n == 1 {
        "1 other".into()
    } else {
        format!("{n} others")
    }
}

/// `ranked #3` or `tied for #1 with 1 other`.
fn ranked(st: &Standing) -> String {
    let p = place(st);
    if p.starts_with('#') {
        format!("ranked {p}")
    } else {
        p
    }
}

/// The prompt's words whose terms `winner` holds and `doc` lacks, in prompt
/// order, each once.
pub fn missing_words(router: &Router, q: &Query, doc: u32, winner: u32) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for t in &q.terms {
        let Some(id) = t.id else { continue };
        if router.index.weight(winner, id) > 0.0 && router.index.weight(doc, id) == 0.0 {
            for w in &t.words {
                if !words.contains(w) {
                    words.push(w.clone());
                }
            }
        }
    }
    words
}

fn quoted(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn run(router: &Router, top_k: usize, scorer: &mut Scorer, job: &Job) -> PromptResult {
    let prompt = &job.trigger.prompt;
    if !job.trigger.lexical {
        // the author says lexical routing cannot match it: Tier 3's case
        return PromptResult {
            file: job.trigger.file.clone(),
            skill: job.skill.clone(),
            doc: job.doc,
            kind: job.kind,
            prompt: prompt.value.clone(),
            span: prompt.span,
            rank: 0,
            top_k: job.trigger.top_k.unwrap_or(top_k),
            score: 0.0,
            rank1: false,
            tied_first: false,
            passed: true,
            lexical: false,
            diagnostics: Vec::new(),
            cell: None,
        };
    }
    let q = Query::new(&prompt.value, &router.analyzer, &router.index);
    let scores = scorer.score(&q);
    // the skills the prompt legitimately loads too do not count against it
    let besides: Vec<u32> = (job.trigger.with.iter())
        .filter_map(|w| router.skill_index(&w.value))
        .filter_map(|i| router.doc_of(i))
        .collect();
    let st = scores.standing_besides(job.doc, &besides);
    // only a failing prompt needs the top 3
    let top = || scores.top(3);
    let top_text = |top: &[(u32, f64)]| {
        top.iter()
            .map(|&(d, s)| scored(router, d, s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let skill = &job.skill;
    let file = &job.trigger.file;
    let mut diags = Vec::new();
    // findings that do not fail the check
    let mut notes = Vec::new();
    match job.kind {
        Kind::Positive => {
            let k = job.trigger.top_k.unwrap_or(top_k);
            if !st.matched() {
                let mut help =
                    format!("add the words users say for this request to `{skill}`'s description");
                let top = top();
                if !top.is_empty() {
                    help.push_str(&format!("; it matches {} instead", top_text(&top)));
                }
                diags.push(
                    rules::POSITIVE_NO_VOCABULARY
                        .diag(
                            file,
                            format!(
                                "`{skill}`: description shares no vocabulary with a prompt users would say"
                            ),
                        )
                        .with_span(prompt.span)
                        .with_label(format!("no term in common with `{skill}`"))
                        .with_help(help),
                );
            } else if st.rank() > k {
                let top = top();
                let mut help = format!("top 3: {}", top_text(&top));
                if let Some(&(winner, _)) = top.first().filter(|&&(d, _)| d != job.doc) {
                    let words = missing_words(router, &q, job.doc, winner);
                    if !words.is_empty() {
                        help.push_str(&format!(
                            "; `{}`'s description has {} from this prompt and `{skill}`'s lacks {}: add what describes `{skill}`'s job",
                            router.index.doc(winner).name,
                            quoted(&words),
                            if words.len() == 1 { "it" } else { "them" }
                        ));
                    }
                }
                diags.push(
                    rules::POSITIVE_MISSED
                        .diag(
                            file,
                            format!("`{skill}`: positive prompt {} (need top {k})", ranked(&st)),
                        )
                        .with_span(prompt.span)
                        .with_label(format!("`{skill}` {} at {:.2}", ranked(&st), st.score))
                        .with_help(help),
                );
            }
        }
        Kind::Negative => {
            if st.is_first_or_tied() && !besides.contains(&job.doc) {
                let label = if st.tied > 0 {
                    format!("`{skill}` ties for #1 at {:.2}", st.score)
                } else {
                    format!("`{skill}` ranks #1 at {:.2}", st.score)
                };
                diags.push(
                    rules::NEGATIVE_FIRST
                        .diag(
                            file,
                            format!(
                                "`{skill}`: ranked #1 for a negative prompt (over-broad description)"
                            ),
                        )
                        .with_span(prompt.span)
                        .with_label(label)
                        .with_help(format!(
                            "top 3: {}; narrow `{skill}`'s description to what only it does",
                            top_text(&top())
                        )),
                );
            }
            if let Some(owner) = &job.trigger.owner {
                owner_check(
                    router,
                    &scores,
                    job,
                    &st,
                    &owner.value,
                    &mut diags,
                    &mut notes,
                );
            }
        }
    }
    let passed = diags.is_empty();
    diags.extend(notes);
    if job.kind == Kind::Positive
        && let Some(&(w, score)) = scores.top(1).first()
        && w != job.doc
        && score > 0.0
        && router.is_competitor(w)
        && !besides.contains(&w)
    {
        let (name, _) = router.routed(w);
        let client = router.listing.client.label();
        // a built-in skill of the client, or a project command it lists
        let (rule, message, kind, help) = if router.is_command(w) {
            let path = &router.index.doc(w).file;
            (
                &rules::COMMAND_WINS,
                format!(
                    "`{skill}`: the project's command `{name}` ({path}), which {client} lists beside the skills, ranks first for this prompt"
                ),
                "command",
                format!(
                    "the model sees the command `{name}` in the same listing; say in `{skill}`'s description what it does that `{name}` does not, or set `disable-model-invocation: true` in {path} if the model should never pick the command"
                ),
            )
        } else {
            (
                &rules::BUILTIN_WINS,
                format!(
                    "`{skill}`: {client}'s built-in skill `{name}` ranks first for this prompt"
                ),
                "built-in",
                format!(
                    "the model sees `{name}` in the same listing; say in `{skill}`'s description what it does that `{name}` does not"
                ),
            )
        };
        diags.push(
            rule.diag(file, message)
                .with_span(prompt.span)
                .with_label(format!(
                    "`{name}` ({kind}) at {score:.2}, `{skill}` {} at {:.2}",
                    place(&st),
                    st.score
                ))
                .with_help(help),
        );
    }
    let cell = match job.kind {
        Kind::Positive => Some(cell(&scores, job.doc, &st)),
        Kind::Negative => job
            .trigger
            .owner
            .as_ref()
            .and_then(|o| router.skill_index(&o.value))
            .and_then(|oi| router.doc_of(oi))
            .map(|od| cell(&scores, od, &scores.standing(od))),
    };
    PromptResult {
        file: file.clone(),
        skill: skill.clone(),
        doc: job.doc,
        kind: job.kind,
        prompt: prompt.value.clone(),
        span: prompt.span,
        rank: st.rank(),
        top_k: job.trigger.top_k.unwrap_or(top_k),
        score: st.score,
        rank1: st.is_rank1(),
        tied_first: st.is_first_or_tied() && st.tied > 0,
        passed,
        lexical: true,
        diagnostics: diags,
        cell,
    }
}

/// The cell of a prompt owned by `owner`, which stands at `st`.
fn cell(scores: &super::rank::Scores, owner: u32, st: &Standing) -> Cell {
    let mut c = Cell {
        owner,
        owner_rank: st.rank(),
        owner_score: st.score,
        winner: None,
        winner_score: 0.0,
        tied: false,
    };
    if st.is_rank1() {
        c.winner = Some(owner);
        c.winner_score = st.score;
    } else if let Some(&(d, s)) = scores.top(2).iter().find(|&&(d, _)| d != owner) {
        c.winner = Some(d);
        c.winner_score = s;
        c.tied = st.is_first_or_tied();
    }
    c
}

fn owner_check(
    router: &Router,
    scores: &super::rank::Scores,
    job: &Job,
    st: &Standing,
    owner: &str,
    diags: &mut Vec<Diagnostic>,
    notes: &mut Vec<Diagnostic>,
) {
    let skill = &job.skill;
    let Some(oi) = router.skill_index(owner) else {
        if let Some(there) = router.elsewhere.get(owner) {
            notes.push(
                rules::OWNER_ELSEWHERE
                    .diag(
                        &job.trigger.file,
                        format!(
                            "`{skill}`: declared owner `{owner}` is in {there}, not installed with `{skill}`: the owner check was skipped, the prompt was checked against `{skill}`'s own installation"
                        ),
                    )
                    .with_span(job.trigger.prompt.span)
                    .with_label(format!("owner `{owner}` is listed elsewhere"))
                    .with_help(format!(
                        "if users install the two together, list both units in one `[route] installed-together` entry; else name an owner installed with `{skill}`, or none"
                    )),
            );
        }
        return; // SG415
    };
    let prompt = &job.trigger.prompt;
    let fail = |msg: String, label: String, help: String| {
        rules::OWNER_NOT_AHEAD
            .diag(&job.trigger.file, msg)
            .with_span(prompt.span)
            .with_label(label)
            .with_help(help)
    };
    let Some(od) = router.doc_of(oi) else {
        diags.push(fail(
            format!(
                "`{skill}`: declared owner `{owner}` cannot be ranked: {} has no readable name or description",
                router.catalog.skills[oi].file
            ),
            format!("owner `{owner}` is not in the index"),
            format!(
                "fix the frontmatter of {}",
                router.catalog.skills[oi].file
            ),
        ));
        return;
    };
    if od == job.doc {
        return; // the skill itself: SG415
    }
    let os = scores.standing(od);
    if !os.matched() {
        diags.push(fail(
            format!("`{skill}`: declared owner `{owner}` scores 0 for this negative prompt"),
            format!("no term in common with `{owner}`"),
            format!(
                "add the words users say for this request to `{owner}`'s description, or name the skill that owns it"
            ),
        ));
    } else if score_key(os.score) <= score_key(st.score) {
        diags.push(fail(
            format!(
                "`{skill}`: declared owner `{owner}` does not outrank it for a negative prompt"
            ),
            format!(
                "owner {} at {:.2}, `{skill}` {} at {:.2}",
                place(&os),
                os.score,
                place(st),
                st.score
            ),
            format!("make `{owner}`'s description cover this request, or narrow `{skill}`'s"),
        ));
    }
}

/// Format a rate so that it never reads as meeting a floor it misses.
fn rate_text(rate: f64, floor: f64) -> String {
    let whole = rate.round();
    if whole >= floor && rate < floor {
        format!("{:.1}", (rate * 10.0).floor() / 10.0)
    } else {
        format!("{whole}")
    }
}

/// The rank-1 floor: a finding when the rate is below `floor` or there are
/// no positive prompts.
pub fn floor(summary: &RouteSummary, floor: Option<f64>) -> Option<Diagnostic> {
    let floor = floor?;
    if summary.positives == 0 {
        return Some(
            rules::RANK1_FLOOR
                .diag(
                    CASES_DIR,
                    format!(
                        "no positive trigger prompts to measure the rank-1 rate against the required {floor}%"
                    ),
                )
                .with_help("add `trigger.positive` prompts to evals/cases/<skill>.json"),
        );
    }
    let rate = 100.0 * summary.rank1 as f64 / summary.positives as f64;
    (rate < floor).then(|| {
        rules::RANK1_FLOOR
            .diag(
                CASES_DIR,
                format!(
                    "trigger rank-1 rate {}% is below required {floor}% ({}/{} {})",
                    rate_text(rate, floor),
                    summary.rank1,
                    summary.positives,
                    if summary.positives == 1 {
                        "positive prompt ranks its skill first"
                    } else {
                        "positive prompts rank their skill first"
                    }
                ),
            )
            .with_help(
                "fix the SG501 findings or the prompts ranking second (`skillsift rank \"<prompt>\" --explain` shows why)",
            )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_that_rounds_up_to_the_floor_is_shown_with_a_decimal() {
        assert_eq!(rate_text(85.897, 86.0), "85.8");
        assert_eq!(rate_text(85.897, 87.0), "86");
        assert_eq!(rate_text(50.0, 80.0), "50");
    }

    #[test]
    fn the_floor_fails_without_positives() {
        let s = RouteSummary::default();
        assert!(floor(&s, Some(0.0)).is_some());
        assert!(floor(&s, None).is_none());
        let s = RouteSummary {
            rank1: 67,
            positives: 78,
            ..RouteSummary::default()
        };
        assert!(floor(&s, Some(80.0)).is_none());
        let d = floor(&s, Some(87.0)).unwrap();
        assert!(
            d.message.contains("rank-1 rate 86% is below required 87%"),
            "{}",
            d.message
        );
    }
}
