//! Candidate descriptions, from train failures only.
//!
//! "Fix the category, not the prompt": a word the failing train positives
//! share (two or more of them, by the route analyzer's terms, so `test`
//! and `tests` are one word) comes before a word of one prompt, and a
//! candidate that adds a word of one prompt is shown but never
//! recommended ([`super::recommend`]). Each word the skill's name and
//! description lack is phrased in, never listed:
//!
//! - **woven** into an existing sentence: when the prompts put the word
//!   right before a word the description already has ("flaky tests",
//!   the description's "tests") and that word heads its phrase there (no
//!   word follows it but a function word or punctuation), it goes before
//!   that word there
//!   ("unreliable (flaky) tests": in parentheses after a modifier, bare
//!   after a function word);
//! - else in a **clause**: the description's own "Use when …" sentence
//!   is extended (", or for flaky tests"), or one sentence is added at
//!   the end, "Use for flaky tests." Every word of that phrasing is a
//!   stop word, so the clause adds the category's words and nothing else.
//!   The phrase is one the prompts write ([`Prompts::phrases`]): two or
//!   three words in the same order in two prompts (or in one, beside a
//!   word of the description), ending a run of content words, not a
//!   prompt's first words. A word no such phrase holds goes in no clause:
//!   a word alone ("…, or for coverage") says nothing of when to use the
//!   skill, and the round names it as unphrased for the author to place.
//!
//! For train negatives the skill takes (ranks first, or ahead of their
//! owner), a **removal**: a word the description shares with them, that
//! no train positive needs, taken out where it is an item of a list
//! ("logs, traces and metrics" → "logs and metrics"); a word in running
//! prose is left, since taking it out would break the sentence, and so is
//! a list's first word after a content word ("concrete fixes, a score":
//! the item is "concrete fixes", not "fixes").
//!
//! Validation and fresh prompts never reach this module.

use crate::route::text::Analyzer;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use unicode_segmentation::UnicodeSegmentation;

/// Most words a round considers of each kind.
const MAX_SHARED: usize = 4;
const MAX_REMOVED: usize = 3;

/// The train prompts a round proposes from.
#[derive(Debug, Clone, Default)]
pub struct Failures<'a> {
    /// Train positives that do not rank the skill first.
    pub positives: Vec<&'a str>,
    /// Train negatives the skill takes.
    pub stolen: Vec<&'a str>,
    /// Train positives that rank the skill first (their words are kept).
    pub passing: Vec<&'a str>,
}

/// A word a candidate adds or removes, and how many failing train
/// prompts have it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Word {
    pub word: String,
    pub prompts: usize,
}

/// How a candidate changes the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Words put into an existing sentence.
    Woven,
    /// A "Use when …" clause extended or added.
    Clause,
    /// Words taken out of a list.
    Removal,
}

/// One candidate description.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    pub description: String,
    pub kind: Kind,
    pub adds: Vec<Word>,
    pub removes: Vec<Word>,
    /// Every word added or removed is shared by two or more train
    /// prompts.
    pub category: bool,
}

/// A word of a text, with its byte range and its term (`None`: a stop
/// word, or a word of several terms).
#[derive(Debug, Clone)]
struct Tok<'a> {
    word: &'a str,
    start: usize,
    end: usize,
    term: Option<String>,
}

fn tokens<'a>(text: &'a str, analyzer: &Analyzer) -> Vec<Tok<'a>> {
    text.unicode_word_indices()
        .map(|(start, word)| {
            let mut terms = analyzer.terms(word);
            let term = (terms.len() == 1).then(|| terms.remove(0));
            Tok {
                word,
                start,
                end: start + word.len(),
                term,
            }
        })
        .collect()
}

/// Words of a request that say nothing about its category: modal and
/// auxiliary verbs, question words, prepositions, quantifiers and fillers. Tier 2 routes
/// them (only its own stop list is dropped there), but a description never
/// gains one.
const NEVER_PROPOSED: &[&str] = &[
    "about",
    "above",
    "across",
    "actually",
    "after",
    "again",
    "against",
    "all",
    "along",
    "also",
    "although",
    "among",
    "another",
    "away",
    "any",
    "anyone",
    "anything",
    "around",
    "back",
    "before",
    "behind",
    "below",
    "between",
    "beyond",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "done",
    "down",
    "during",
    "each",
    "else",
    "etc",
    "even",
    "ever",
    "every",
    "everyone",
    "everything",
    "few",
    "first",
    "from",
    "get",
    "gets",
    "getting",
    "go",
    "going",
    "got",
    "had",
    "has",
    "have",
    "having",
    "help",
    "helps",
    "here",
    "how",
    "instead",
    "into",
    "just",
    "keep",
    "keeps",
    "last",
    "let",
    "lets",
    "like",
    "lot",
    "lots",
    "many",
    "may",
    "maybe",
    "might",
    "more",
    "most",
    "much",
    "must",
    "need",
    "needs",
    "never",
    "next",
    "nobody",
    "now",
    "off",
    "ok",
    "okay",
    "one",
    "ones",
    "only",
    "onto",
    "other",
    "out",
    "over",
    "per",
    "perhaps",
    "please",
    "really",
    "same",
    "shall",
    "should",
    "since",
    "so",
    "some",
    "somebody",
    "someone",
    "something",
    "still",
    "stuff",
    "sure",
    "than",
    "thanks",
    "thing",
    "things",
    "those",
    "though",
    "through",
    "too",
    "toward",
    "towards",
    "try",
    "trying",
    "under",
    "unless",
    "until",
    "up",
    "upon",
    "very",
    "via",
    "want",
    "wants",
    "way",
    "what",
    "when",
    "whenever",
    "where",
    "whether",
    "which",
    "who",
    "whom",
    "whose",
    "why",
    "within",
    "without",
    "would",
    "yes",
    "yet",
];

/// The terms of [`NEVER_PROPOSED`] under `analyzer`.
fn never(analyzer: &Analyzer) -> HashSet<String> {
    NEVER_PROPOSED
        .iter()
        .flat_map(|w| analyzer.terms(w))
        .collect()
}

/// Whether a term is worth proposing: a word, not a number, a letter or
/// one of [`NEVER_PROPOSED`]'s.
fn wordy(term: &str, never: &HashSet<String>) -> bool {
    term.chars().count() >= 2 && term.chars().any(char::is_alphabetic) && !never.contains(term)
}

/// Two tokens with nothing but spaces between them.
fn adjacent(text: &str, a: &Tok, b: &Tok) -> bool {
    text[a.end..b.start].chars().all(|c| c == ' ')
}

/// How a word is written in the prompts: its most frequent spelling away
/// from the start of a prompt, else lowercase.
fn spelling<'a>(seen: impl Iterator<Item = (&'a str, bool)>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut initial: Option<String> = None;
    for (w, at_start) in seen {
        if at_start {
            initial.get_or_insert_with(|| w.to_lowercase());
        } else {
            *counts.entry(w).or_default() += 1;
        }
    }
    let best = counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(w, _)| w.to_string());
    best.or(initial).unwrap_or_default()
}

/// What the failing train positives say.
struct Prompts<'a> {
    toks: Vec<(&'a str, Vec<Tok<'a>>)>,
}

impl<'a> Prompts<'a> {
    fn new(texts: &[&'a str], analyzer: &Analyzer) -> Prompts<'a> {
        Prompts {
            toks: texts.iter().map(|t| (*t, tokens(t, analyzer))).collect(),
        }
    }

    /// The spelling of `term` in these prompts.
    fn spelling(&self, term: &str) -> String {
        spelling(self.toks.iter().flat_map(|(_, toks)| {
            toks.iter()
                .enumerate()
                .filter(move |(_, t)| t.term.as_deref() == Some(term))
                .map(|(i, t)| (t.word, i == 0))
        }))
    }

    /// `(a, b)` term pairs written side by side, with the number of
    /// prompts that have each.
    fn pairs(&self) -> BTreeMap<(String, String), usize> {
        let mut out: BTreeMap<(String, String), usize> = BTreeMap::new();
        for (text, toks) in &self.toks {
            let mut seen: HashSet<(String, String)> = HashSet::new();
            for w in toks.windows(2) {
                if let (Some(a), Some(b)) = (&w[0].term, &w[1].term)
                    && a != b
                    && adjacent(text, &w[0], &w[1])
                {
                    seen.insert((a.clone(), b.clone()));
                }
            }
            for p in seen {
                *out.entry(p).or_default() += 1;
            }
        }
        out
    }

    /// Phrases of two or three words the prompts write, every word's term
    /// `ok`, with the number of prompts that write each: the same words in
    /// the same order in two prompts or more (or in one, holding a word of
    /// the description: `anchored`), ending where a run of content words
    /// ends in one of them at least (English puts a noun phrase's head
    /// last: "docker image" in "the docker image is slow", not "image
    /// build" in "docker image build is slow"; "lwc translate" in "lwc
    /// translate label" is no phrase), and once at least not as a prompt's
    /// first words, where a request puts its verb ("review PR 7").
    fn phrases(
        &self,
        ok: &dyn Fn(&str) -> bool,
        anchored: &dyn Fn(&str) -> bool,
        never: &HashSet<String>,
    ) -> BTreeMap<Vec<String>, (usize, String)> {
        let mut count: BTreeMap<Vec<String>, usize> = BTreeMap::new();
        let mut spelled: BTreeMap<Vec<String>, Vec<(String, bool)>> = BTreeMap::new();
        let mut heads: HashSet<Vec<String>> = HashSet::new();
        let mut inside: HashSet<Vec<String>> = HashSet::new();
        for (text, toks) in &self.toks {
            // runs of content words with nothing but spaces between: the
            // index of their first token and their terms
            let mut runs: Vec<(usize, Vec<(&str, &str)>)> = Vec::new();
            for (i, t) in toks.iter().enumerate() {
                let Some(term) = t.term.as_deref().filter(|x| wordy(x, never)) else {
                    continue;
                };
                let joined = i > 0
                    && toks[i - 1].term.as_deref().is_some_and(|x| wordy(x, never))
                    && adjacent(text, &toks[i - 1], t);
                match runs.last_mut() {
                    Some((_, run)) if joined => run.push((term, t.word)),
                    _ => runs.push((i, vec![(term, t.word)])),
                }
            }
            let mut seen: HashSet<Vec<String>> = HashSet::new();
            for (start, run) in &runs {
                for n in 2..=3.min(run.len()) {
                    for (i, w) in run.windows(n).enumerate() {
                        let distinct: HashSet<&str> = w.iter().map(|x| x.0).collect();
                        if distinct.len() < n || !w.iter().all(|x| ok(x.0)) {
                            continue;
                        }
                        let g: Vec<String> = w.iter().map(|x| x.0.to_string()).collect();
                        let words: Vec<&str> = w.iter().map(|x| x.1).collect();
                        spelled
                            .entry(g.clone())
                            .or_default()
                            .push((words.join(" "), start + i == 0));
                        if i + n == run.len() {
                            heads.insert(g.clone());
                        }
                        if start + i > 0 {
                            inside.insert(g.clone());
                        }
                        seen.insert(g);
                    }
                }
            }
            for g in seen {
                *count.entry(g).or_default() += 1;
            }
        }
        count
            .into_iter()
            .filter(|(g, n)| {
                (*n >= 2 || g.iter().any(|t| anchored(t)))
                    && heads.contains(g)
                    && inside.contains(g)
            })
            .map(|(g, n)| {
                let words = spelled.remove(&g).unwrap_or_default();
                let written = spelling(words.iter().map(|(w, at)| (w.as_str(), *at)));
                (g, (n, written))
            })
            .collect()
    }
}

/// One word to add: its term, spelling, prompt count, the word of the
/// description it goes before (woven), and its phrase (clause).
#[derive(Debug, Clone)]
struct Add {
    term: String,
    word: String,
    prompts: usize,
    anchor: Option<String>,
    /// `None`: no phrase of the prompts holds it, so no clause says it.
    phrase: Option<String>,
}

/// The words the failing positives have that the skill lacks, shared
/// ones first (by prompt count, then first appearance), each phrased.
fn additions(prompts: &Prompts, have: &HashSet<String>, analyzer: &Analyzer) -> Vec<Add> {
    let never = never(analyzer);
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let mut first: BTreeMap<String, usize> = BTreeMap::new();
    let mut order = 0usize;
    for (text, _) in &prompts.toks {
        let terms: BTreeSet<String> = analyzer.terms(text).into_iter().collect();
        for t in analyzer.terms(text) {
            first.entry(t).or_insert_with(|| {
                order += 1;
                order
            });
        }
        for t in terms {
            if !have.contains(&t) && wordy(&t, &never) {
                *count.entry(t).or_default() += 1;
            }
        }
    }
    let pairs = prompts.pairs();
    // a word goes into a clause only inside a phrase the prompts write
    let ok =
        |t: &str| wordy(t, &never) && (have.contains(t) || count.get(t).is_some_and(|&n| n >= 2));
    let phrases = prompts.phrases(&ok, &|t| have.contains(t), &never);
    let mut out: Vec<Add> = count
        .iter()
        .filter_map(|(term, &n)| {
            let term = term.clone();
            // a term no single word of the prompts spells (the analyzer
            // made it of a longer word) has nothing to write
            let word = prompts.spelling(&term);
            if word.is_empty() {
                return None;
            }
            let phrase = phrases
                .iter()
                .filter(|(terms, _)| terms.contains(&term))
                .max_by(|a, b| {
                    (a.1.0, a.0.len())
                        .cmp(&(b.1.0, b.0.len()))
                        .then_with(|| b.0.cmp(a.0))
                })
                .map(|(_, (_, written))| written.clone());
            // woven: right before a word the description has
            let anchor = pairs
                .iter()
                .filter(|((a, b), _)| *a == term && have.contains(b))
                .max_by(|x, y| x.1.cmp(y.1).then_with(|| y.0.1.cmp(&x.0.1)))
                .map(|((_, b), _)| b.clone());
            Some(Add {
                term,
                word,
                prompts: n,
                anchor,
                phrase,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.prompts
            .cmp(&a.prompts)
            .then_with(|| first.get(&a.term).cmp(&first.get(&b.term)))
            .then_with(|| a.term.cmp(&b.term))
    });
    out
}

/// Whether the token starting at `at` begins a sentence.
fn sentence_start(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end();
    before.is_empty() || before.ends_with(['.', '!', '?', ':'])
}

/// Whether byte `at` is inside a code span (`` `design-system` ``): a
/// name there is the skill's, not prose a word goes into.
fn in_code(text: &str, at: usize) -> bool {
    text[..at].matches('`').count() % 2 == 1
}

/// The description with `adds` woven in before their anchors; `None` when
/// none of them can be.
fn woven(description: &str, adds: &[&Add], analyzer: &Analyzer) -> Option<(String, Vec<usize>)> {
    let toks = tokens(description, analyzer);
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut used = Vec::new();
    for (k, a) in adds.iter().enumerate() {
        let Some(anchor) = &a.anchor else { continue };
        // the anchor heads its phrase ("unreliable tests that pass"): a
        // word before a modifier ("failing CI pipelines") would read as
        // "(tests) failing CI pipelines"
        let heads = |i: usize| {
            toks.get(i + 1)
                .is_none_or(|n| n.term.is_none() || !adjacent(description, &toks[i], n))
        };
        let Some(i) = toks.iter().enumerate().position(|(i, t)| {
            t.term.as_deref() == Some(anchor.as_str())
                && !sentence_start(description, t.start)
                && !in_code(description, t.start)
                && heads(i)
        }) else {
            continue;
        };
        if inserts.iter().any(|(at, _)| *at == toks[i].start) {
            continue;
        }
        let modified =
            i > 0 && toks[i - 1].term.is_some() && adjacent(description, &toks[i - 1], &toks[i]);
        let text = if modified {
            format!("({}) ", a.word)
        } else {
            format!("{} ", a.word)
        };
        inserts.push((toks[i].start, text));
        used.push(k);
    }
    if inserts.is_empty() {
        return None;
    }
    inserts.sort();
    let mut out = description.to_string();
    for (at, text) in inserts.iter().rev() {
        out.insert_str(*at, text);
    }
    Some((out, used))
}

/// Leads of a sentence saying when to use the skill.
const WHEN_LEADS: &[&str] = &[
    "use when",
    "use this skill when",
    "use it when",
    "use this when",
    "invoke when",
    "trigger when",
    "triggers when",
    "apply when",
];
const FOR_LEADS: &[&str] = &[
    "use for",
    "use this skill for",
    "use it for",
    "use this for",
];

/// The phrases a clause says for `adds`, each word once: a word alone
/// says nothing of when to use the skill ("…, or for coverage"), so a
/// word no phrase of the prompts holds is left out, and so is a phrase
/// with a word an earlier one says ("linked Jira or Jira issue").
fn phrased<'a>(adds: impl Iterator<Item = &'a Add>) -> Vec<String> {
    let mut phrases: Vec<String> = Vec::new();
    let said = |phrases: &[String], w: &str| {
        phrases
            .iter()
            .any(|p| p.split(' ').any(|x| x.eq_ignore_ascii_case(w)))
    };
    for a in adds {
        let Some(phrase) = &a.phrase else { continue };
        if !phrase.split(' ').any(|w| said(&phrases, w)) {
            phrases.push(phrase.clone());
        }
    }
    phrases
}

/// `a`, `a or b`, `a, b or c`.
fn alternatives(phrases: &[String]) -> String {
    match phrases {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The description with a clause for `phrases`: its last "Use when …" or
/// "Use for …" sentence extended, else a sentence added at the end.
fn clause(description: &str, phrases: &[String]) -> String {
    let body = description.trim_end();
    let tail = &description[body.len()..];
    let p = alternatives(phrases);
    // sentences: their start and the byte of their closing punctuation
    let mut sentences: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for (i, c) in body.char_indices() {
        if matches!(c, '.' | '!' | '?')
            && body[i + 1..].chars().next().is_none_or(char::is_whitespace)
        {
            sentences.push((start, i));
            start = i + 1;
        }
    }
    if start < body.len() && !body[start..].trim().is_empty() {
        sentences.push((start, body.len()));
    }
    for &(s, e) in sentences.iter().rev() {
        let text = body[s..e].trim_start().to_lowercase();
        let extension = if WHEN_LEADS.iter().any(|l| text.starts_with(l)) {
            format!(", or for {p}")
        } else if FOR_LEADS.iter().any(|l| text.starts_with(l)) {
            format!(" and {p}")
        } else {
            continue;
        };
        let mut out = body.to_string();
        out.insert_str(e, &extension);
        out.push_str(tail);
        return out;
    }
    let stop = if body.ends_with(['.', '!', '?']) || body.is_empty() {
        ""
    } else {
        "."
    };
    let space = if body.is_empty() { "" } else { " " };
    format!("{body}{stop}{space}Use for {p}.{tail}")
}

/// Words after which a list's first item starts ("with logs, traces and
/// metrics"); after any other word the item may hold it too ("with
/// concrete fixes, quality score": `fixes` is not the item, "concrete
/// fixes" is), so the word is left.
const LIST_OPENERS: &[&str] = &[
    "a",
    "about",
    "an",
    "and",
    "as",
    "by",
    "for",
    "from",
    "in",
    "including",
    "into",
    "like",
    "of",
    "on",
    "or",
    "such",
    "the",
    "to",
    "via",
    "with",
];

/// Whether `before` (the text before a word) ends with a word after which
/// a list's first item starts.
fn after_function_word(before: &str) -> bool {
    if !before.ends_with(' ') {
        return false;
    }
    before
        .split_whitespace()
        .next_back()
        .is_some_and(|w| LIST_OPENERS.contains(&w.to_lowercase().as_str()))
}

/// The description without the words of `term`, each an item of a list;
/// `None` when one of them is not.
fn removed(description: &str, term: &str, analyzer: &Analyzer) -> Option<String> {
    let toks = tokens(description, analyzer);
    let hits: Vec<&Tok> = toks
        .iter()
        .filter(|t| t.term.as_deref() == Some(term))
        .collect();
    if hits.is_empty() {
        return None;
    }
    let mut out = description.to_string();
    for t in hits.iter().rev() {
        let (s, e) = (t.start, t.end);
        let before = &out[..s];
        let after = &out[e..];
        let closes = |a: &str| {
            a.starts_with(',')
                || a.starts_with(" and ")
                || a.starts_with(" or ")
                || a.starts_with(['.', ')', ';'])
        };
        if before.ends_with(", ") && closes(after) {
            out.replace_range(s - 2..e, "");
        } else if after.starts_with(", ")
            && (before.is_empty() || before.ends_with(['(', ':']) || after_function_word(before))
        {
            out.replace_range(s..e + 2, "");
        } else if let Some(conj) = [", and ", ", or ", " and ", " or "]
            .iter()
            .find(|c| before.ends_with(**c))
            && (after.is_empty()
                || after.starts_with(['.', ')', ';', ','])
                // "a, b and c for d": the last item of a list of three
                || (after.starts_with(' ') && {
                    let head = &before[..before.len() - conj.len()];
                    let clause_start = head.rfind(['.', ';', ':', '(']).map_or(0, |i| i + 1);
                    head[clause_start..].contains(", ")
                }))
        {
            let from = s - conj.len();
            out.replace_range(from..e, "");
            // "a, b" left of a list that ended "…, and c": "a and b"
            let clause_start = out[..from].rfind(['.', ';', ':', '(']).map_or(0, |i| i + 1);
            if let Some(i) = out[clause_start..from].rfind(", ") {
                let at = clause_start + i;
                let word = conj.trim_start_matches(',');
                out.replace_range(at..at + 2, word);
            }
        } else {
            return None;
        }
    }
    // a list of two left with its serial comma: "a, and b" → "a and b"
    for conj in [", and ", ", or "] {
        let mut from = 0;
        while let Some(i) = out[from..].find(conj).map(|i| from + i) {
            let clause_start = out[..i].rfind(['.', ';', ':', '(']).map_or(0, |k| k + 1);
            if !out[clause_start..i].contains(", ") {
                out.replace_range(i..i + 1, "");
            }
            from = i + 1;
        }
    }
    let bad = [", ,", ",.", " ,", "( ", "()", "  "];
    (!bad
        .iter()
        .any(|b| out.contains(b) && !description.contains(b)))
    .then_some(out)
}

/// The terms of a skill's name and description.
pub fn terms_of(name: &str, description: &str, analyzer: &Analyzer) -> HashSet<String> {
    analyzer
        .terms(name)
        .into_iter()
        .chain(analyzer.terms(description))
        .collect()
}

/// The content words of `prompt` that `winner` (the text the client
/// lists for the skill that ranks first) has and a description whose
/// terms are `have` lacks: what ranks the winner ahead, each once, in
/// the prompt's order, as the prompt spells it.
pub fn shared_lacking(
    prompt: &str,
    winner: &str,
    have: &HashSet<String>,
    analyzer: &Analyzer,
) -> Vec<String> {
    let never = never(analyzer);
    let theirs: HashSet<String> = analyzer.terms(winner).into_iter().collect();
    let toks = tokens(prompt, analyzer);
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let Some(term) = t.term.as_deref() else {
            continue;
        };
        if wordy(term, &never) && !have.contains(term) && theirs.contains(term) && seen.insert(term)
        {
            out.push(spelling(std::iter::once((t.word, i == 0))));
        }
    }
    out
}

/// The description with a clause saying `words` (as `propose` phrases
/// one: its "Use when …" sentence extended, else a sentence added).
pub fn with_words(description: &str, words: &[String]) -> String {
    clause(description, words)
}

/// What one round proposes.
#[derive(Debug, Clone, Default)]
pub struct Proposal {
    /// Category candidates first, each once and none equal to the
    /// description.
    pub candidates: Vec<Candidate>,
    /// Words two failing train positives or more share and the
    /// description lacks that no candidate says: no phrase of the prompts
    /// holds them and they go before no word of the description, and a
    /// word alone says nothing of when to use the skill.
    pub unphrased: Vec<Word>,
}

/// The candidates of one round, and the shared words none of them can say.
pub fn propose(description: &str, name: &str, analyzer: &Analyzer, f: &Failures) -> Proposal {
    let have = terms_of(name, description, analyzer);
    let prompts = Prompts::new(&f.positives, analyzer);
    let adds = additions(&prompts, &have, analyzer);
    let shared: Vec<&Add> = adds
        .iter()
        .filter(|a| a.prompts >= 2)
        .take(MAX_SHARED)
        .collect();
    // a word of one prompt fixes that prompt, not the category: it is
    // never proposed (the report says which words a prompt lacks)
    let mut sets: Vec<Vec<&Add>> = shared.iter().map(|a| vec![*a]).collect();
    for n in 2..=shared.len().min(3) {
        sets.push(shared[..n].to_vec());
    }
    let mut out: Vec<Candidate> = Vec::new();
    let mut push = |c: Candidate| {
        if c.description != description && !out.iter().any(|o| o.description == c.description) {
            out.push(c);
        }
    };
    // what a text adds: every term it has that the skill lacked, in the
    // order written, with the failing prompts that have it
    let known: BTreeMap<&str, &Add> = adds.iter().map(|a| (a.term.as_str(), a)).collect();
    let added = |text: &str| -> Vec<Word> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut out = Vec::new();
        for t in tokens(text, analyzer) {
            let Some(term) = t.term else { continue };
            if have.contains(&term) || !seen.insert(term.clone()) {
                continue;
            }
            out.push(match known.get(term.as_str()) {
                Some(a) => Word {
                    word: a.word.clone(),
                    prompts: a.prompts,
                },
                None => Word {
                    word: t.word.to_lowercase(),
                    prompts: 0,
                },
            });
        }
        out
    };
    for set in &sets {
        if let Some((text, used)) = woven(description, set, analyzer) {
            let rest = phrased((0..set.len()).filter(|k| !used.contains(k)).map(|k| set[k]));
            let text = if rest.is_empty() {
                text
            } else {
                clause(&text, &rest)
            };
            let adds = added(&text);
            push(Candidate {
                category: adds.iter().all(|w| w.prompts >= 2),
                description: text,
                kind: Kind::Woven,
                adds,
                removes: Vec::new(),
            });
        }
        let phrases = phrased(set.iter().copied());
        if phrases.is_empty() {
            continue;
        }
        let text = clause(description, &phrases);
        let adds = added(&text);
        push(Candidate {
            category: adds.iter().all(|w| w.prompts >= 2),
            description: text,
            kind: Kind::Clause,
            adds,
            removes: Vec::new(),
        });
    }
    // removals for the negatives the skill takes
    let keep: HashSet<String> = f
        .passing
        .iter()
        .chain(&f.positives)
        .flat_map(|p| analyzer.terms(p))
        .chain(analyzer.terms(name))
        .collect();
    let desc_terms: HashSet<String> = analyzer.terms(description).into_iter().collect();
    let never = never(analyzer);
    let mut stolen: BTreeMap<String, usize> = BTreeMap::new();
    for p in &f.stolen {
        let terms: BTreeSet<String> = analyzer.terms(p).into_iter().collect();
        for t in terms {
            if desc_terms.contains(&t) && !keep.contains(&t) && wordy(&t, &never) {
                *stolen.entry(t).or_default() += 1;
            }
        }
    }
    let mut stolen: Vec<(String, usize)> = stolen.into_iter().collect();
    stolen.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let spelled = Prompts::new(&f.stolen, analyzer);
    let mut taken: Vec<(String, usize)> = Vec::new();
    let mut text = description.to_string();
    for (term, n) in stolen.into_iter().take(MAX_REMOVED) {
        let Some(t) = removed(description, &term, analyzer) else {
            continue;
        };
        let w = Word {
            word: spelled.spelling(&term),
            prompts: n,
        };
        push(Candidate {
            description: t,
            kind: Kind::Removal,
            adds: Vec::new(),
            removes: vec![w.clone()],
            category: n >= 2,
        });
        if let Some(t) = removed(&text, &term, analyzer) {
            text = t;
            taken.push((w.word, n));
        }
    }
    if taken.len() > 1 {
        push(Candidate {
            description: text,
            kind: Kind::Removal,
            adds: Vec::new(),
            category: taken.iter().all(|(_, n)| *n >= 2),
            removes: taken
                .into_iter()
                .map(|(word, prompts)| Word { word, prompts })
                .collect(),
        });
    }
    // category candidates first, in the order made
    out.sort_by_key(|c| !c.category);
    let unphrased = adds
        .iter()
        .filter(|a| a.prompts >= 2 && a.phrase.is_none())
        .filter(|a| {
            !out.iter()
                .any(|c| c.adds.iter().any(|w| w.word.eq_ignore_ascii_case(&a.word)))
        })
        .map(|a| Word {
            word: a.word.clone(),
            prompts: a.prompts,
        })
        .collect();
    Proposal {
        candidates: out,
        unphrased,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyzer() -> Analyzer {
        Analyzer::new("english", &[]).unwrap()
    }

    /// Every candidate of every skill of the routing benchmark, all its
    /// positives failing and all its negatives taken: no empty slot, no
    /// function or filler word, no word of one prompt, no word the skill
    /// already has, and nothing new but the words it says it adds.
    #[test]
    fn candidates_on_the_routing_benchmark_are_text_a_person_would_write() {
        let bench = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpora/routing-bench");
        if !bench.is_dir() {
            eprintln!("skipped: {} does not exist", bench.display());
            return;
        }
        let analyzer = analyzer();
        let never = never(&analyzer);
        let mut catalogs: Vec<_> = std::fs::read_dir(&bench)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        catalogs.sort();
        let (mut skills, mut candidates) = (0, 0);
        for root in catalogs {
            let config = crate::config::Config::load_catalog(&root)
                .unwrap()
                .map(|(c, _)| c)
                .unwrap_or_default();
            let catalog = crate::catalog::Catalog::load(&root, &config).unwrap();
            for (i, skill) in catalog.skills.iter().enumerate() {
                let (Some(suite), Some((name, description))) =
                    (catalog.suite_of(i), crate::route::routable(skill))
                else {
                    continue;
                };
                let f = Failures {
                    positives: suite
                        .positive
                        .iter()
                        .map(|t| t.prompt.value.as_str())
                        .collect(),
                    stolen: suite
                        .negative
                        .iter()
                        .map(|t| t.prompt.value.as_str())
                        .collect(),
                    passing: Vec::new(),
                };
                skills += 1;
                let have = terms_of(name, description, &analyzer);
                let old_terms: Vec<String> = analyzer.terms(description);
                for c in propose(description, name, &analyzer, &f).candidates {
                    candidates += 1;
                    let d = &c.description;
                    let at = format!("{}: {name}: {d:?}", root.display());
                    for bad in [
                        " .", " ,", "  ", "()", "( ", " )", ",,", "..", "for .", "or .", "and .",
                        "for ,",
                    ] {
                        assert!(
                            d.matches(bad).count() <= description.matches(bad).count(),
                            "{at}: an empty slot ({bad:?})"
                        );
                    }
                    let mut added: HashSet<String> = HashSet::new();
                    for w in &c.adds {
                        assert!(!w.word.trim().is_empty(), "{at}: an empty word");
                        assert!(w.prompts >= 2, "{at}: {:?} is one prompt's word", w.word);
                        for t in analyzer.terms(&w.word) {
                            assert!(!never.contains(&t), "{at}: {:?} is a filler word", w.word);
                            assert!(
                                !have.contains(&t),
                                "{at}: {:?} is the skill's already",
                                w.word
                            );
                            added.insert(t);
                        }
                    }
                    if c.kind != Kind::Removal {
                        assert!(!c.adds.is_empty(), "{at}: a clause adding no word");
                    }
                    // a clause says phrases, never a word alone
                    if c.kind == Kind::Clause {
                        let same = description
                            .bytes()
                            .zip(d.bytes())
                            .take_while(|(a, b)| a == b)
                            .count();
                        let tail = description[same..]
                            .bytes()
                            .rev()
                            .zip(d[same..].bytes().rev())
                            .take_while(|(a, b)| a == b)
                            .count();
                        let added = d[same..d.len() - tail].trim_end_matches('.');
                        let said = ["Use for ", ", or for ", " and "]
                            .iter()
                            .find_map(|lead| added.split_once(lead).map(|(_, p)| p))
                            .unwrap_or(added);
                        for phrase in said.split(", ").flat_map(|p| p.split(" or ")) {
                            assert!(
                                phrase.split_whitespace().count() >= 2,
                                "{at}: {phrase:?} is a word alone"
                            );
                        }
                    }
                    // every content word of the candidate is the skill's
                    // or one it says it adds
                    for t in analyzer.terms(d) {
                        assert!(
                            have.contains(&t) || added.contains(&t) || old_terms.contains(&t),
                            "{at}: {t:?} comes from nowhere"
                        );
                    }
                }
            }
        }
        assert!(
            skills > 100 && candidates > 100,
            "{skills} skills, {candidates} candidates"
        );
    }

    #[test]
    fn a_shared_word_is_woven_before_the_word_the_description_has() {
        let f = Failures {
            positives: vec![
                "my tests are flaky, fix them",
                "Flaky tests keep failing in CI",
                "why do these flaky tests fail only sometimes",
            ],
            ..Failures::default()
        };
        let d = "Diagnoses unreliable tests that pass and fail at random.";
        let c = propose(d, "test-doctor", &analyzer(), &f).candidates;
        assert_eq!(
            c[0].description,
            "Diagnoses unreliable (flaky) tests that pass and fail at random."
        );
        assert_eq!(c[0].kind, Kind::Woven);
        assert_eq!(
            c[0].adds,
            vec![Word {
                word: "flaky".into(),
                prompts: 3
            }]
        );
        assert!(c[0].category);
        let clause = c.iter().find(|c| c.kind == Kind::Clause).unwrap();
        assert_eq!(
            clause.description,
            "Diagnoses unreliable tests that pass and fail at random. Use for flaky tests."
        );
    }

    #[test]
    fn a_use_when_sentence_is_extended_and_one_prompts_words_never_proposed() {
        let f = Failures {
            positives: vec!["the docker image build is slow", "docker image too big"],
            ..Failures::default()
        };
        let d = "Speeds up builds. Use when CI takes too long.";
        let c = propose(d, "build-speed", &analyzer(), &f).candidates;
        assert!(c.iter().any(|c| c.description
            == "Speeds up builds. Use when CI takes too long, or for docker image."));
        // "slow" and "big" are each one prompt's: no candidate adds them
        assert!(c.iter().all(|c| c.category), "{c:#?}");
        assert!(
            c.iter()
                .all(|c| !c.description.contains("slow") && !c.description.contains("big"))
        );
        assert!(
            c.iter()
                .all(|c| !c.description.contains(',') || c.description.contains("or for"))
        );
    }

    #[test]
    fn a_clause_says_a_phrase_in_the_prompts_order_or_nothing() {
        let f = Failures {
            positives: vec![
                "lwc translate label",
                "custom labels for the header",
                "show custom labels in the footer",
                "RTL layout breaks in Arabic",
                "Arabic dates print backwards",
            ],
            ..Failures::default()
        };
        let d = "Builds LWCs that support translation. Use when a page must speak two languages.";
        let p = propose(d, "lwc-i18n", &analyzer(), &f);
        let texts: Vec<&str> = p
            .candidates
            .iter()
            .map(|c| c.description.as_str())
            .collect();
        assert_eq!(
            texts,
            vec![
                "Builds LWCs that support translation. Use when a page must speak two languages, or for custom labels."
            ]
        );
        assert_eq!(
            p.unphrased,
            vec![Word {
                word: "Arabic".into(),
                prompts: 2
            }]
        );
    }

    #[test]
    fn a_word_the_negatives_share_is_taken_out_of_a_list() {
        let f = Failures {
            stolen: vec!["chart the metrics", "plot these metrics weekly"],
            passing: vec!["search the logs"],
            ..Failures::default()
        };
        let d = "Searches logs, traces and metrics.";
        let c = propose(d, "log-search", &analyzer(), &f).candidates;
        assert_eq!(c[0].description, "Searches logs and traces.");
        assert_eq!(c[0].kind, Kind::Removal);
        assert!(c[0].category);
        assert_eq!(
            removed("Logs, metrics, and traces.", "metric", &analyzer()).unwrap(),
            "Logs and traces."
        );
        assert_eq!(
            removed("Reads metrics for you.", "metric", &analyzer()),
            None
        );
        // a list's first item starts after a function word; after any
        // other word the term may be only part of the item
        assert_eq!(
            removed("Reports with logs, traces and metrics.", "log", &analyzer()).unwrap(),
            "Reports with traces and metrics."
        );
        assert_eq!(
            removed(
                "Reports with concrete fixes, a score and a summary.",
                "fix",
                &analyzer()
            ),
            None
        );
    }
}
