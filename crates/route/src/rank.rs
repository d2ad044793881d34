//! Ranking skills for one prompt.
//!
//! A [`Scorer`] accumulates the BM25 score ([`super::index`]) of every
//! skill that shares a term with the prompt (through the inverted index), so its cost follows
//! the postings it touches, not the catalog's size. Scores compare at a
//! resolution of 10⁻⁹ ([`score_key`]), so rounding noise never splits a tie.
//!
//! Order is deterministic: score descending, then skill name, then file. A
//! skill's standing counts the skills strictly above it and those tied with
//! it; every check reads it the strict way: a positive prompt's skill ranks
//! first only when nothing else reaches its score (a tie for first is not a
//! rank-1 hit), and its rank for `top_k` counts the skills tied with it as
//! ahead of it.

use super::index::{Index, Query};

/// A score as an integer of 10⁻⁹ steps: equal keys are ties.
pub fn score_key(score: f64) -> u64 {
    (score * 1e9).round().max(0.0) as u64
}

/// Where one skill stands for one prompt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    pub score: f64,
    /// Skills with a strictly higher score.
    pub above: usize,
    /// Other skills with the same score.
    pub tied: usize,
}

impl Standing {
    /// Whether the score is above zero (at 10⁻⁹ resolution).
    pub fn matched(&self) -> bool {
        score_key(self.score) > 0
    }

    /// Rank counting tied skills as ahead: 1 means strictly first.
    pub fn rank(&self) -> usize {
        1 + self.above + self.tied
    }

    /// Ranks first with a score above zero and no other skill tied with it.
    pub fn is_rank1(&self) -> bool {
        self.matched() && self.above == 0 && self.tied == 0
    }

    /// No skill scores strictly higher and the score is above zero (first,
    /// alone or tied).
    pub fn is_first_or_tied(&self) -> bool {
        self.matched() && self.above == 0
    }
}

/// Reusable accumulators for scoring prompts against one index (one per
/// thread).
#[derive(Debug)]
pub struct Scorer<'i> {
    index: &'i Index,
    acc: Vec<f64>,
    touched: Vec<u32>,
}

impl<'i> Scorer<'i> {
    pub fn new(index: &'i Index) -> Self {
        Scorer {
            index,
            acc: vec![0.0; index.len()],
            touched: Vec::new(),
        }
    }

    /// Score every skill for `query`.
    pub fn score(&mut self, query: &Query) -> Scores<'_> {
        for &d in &self.touched {
            self.acc[d as usize] = 0.0;
        }
        self.touched.clear();
        for (t, qw) in query.known() {
            let (docs, ws) = self.index.postings(t);
            for (&d, &w) in docs.iter().zip(ws) {
                let a = &mut self.acc[d as usize];
                if *a == 0.0 {
                    self.touched.push(d);
                }
                *a += qw * w;
            }
        }
        Scores {
            acc: &self.acc,
            touched: &self.touched,
        }
    }
}

/// Every skill's score for one prompt (skills not touched score 0).
#[derive(Debug, Clone, Copy)]
pub struct Scores<'s> {
    acc: &'s [f64],
    touched: &'s [u32],
}

impl Scores<'_> {
    pub fn score(&self, d: u32) -> f64 {
        self.acc[d as usize]
    }

    /// Where document `d` stands.
    pub fn standing(&self, d: u32) -> Standing {
        let score = self.score(d);
        let key = score_key(score) as f64;
        // score_key(s) = round(s × 10⁹), so for positive s: its key is above
        // `key` exactly when s × 10⁹ ≥ key + ½, and equal when it is at
        // least key − ½ (compared without rounding every score)
        let (hi, lo) = (key + 0.5, key - 0.5);
        let (mut above, mut tied) = (0, 0);
        for &o in self.touched {
            let v = self.acc[o as usize] * 1e9;
            if v >= hi {
                above += 1;
            } else if v >= lo {
                tied += 1;
            }
        }
        if key == 0.0 {
            // untouched skills tie at zero too
            tied = self.acc.len() - above;
        }
        // the skill itself is among the tied
        tied = tied.saturating_sub(1);
        Standing { score, above, tied }
    }

    /// Where document `d` stands when the documents of `besides` (skills
    /// a prompt legitimately loads too) do not count against it.
    pub fn standing_besides(&self, d: u32, besides: &[u32]) -> Standing {
        let mut st = self.standing(d);
        let key = score_key(st.score);
        for &o in besides {
            if o == d {
                continue;
            }
            let k = score_key(self.score(o));
            if k > key {
                st.above -= 1;
            } else if k == key {
                st.tied = st.tied.saturating_sub(1);
            }
        }
        st
    }

    /// The `n` best skills scoring above zero, in ranking order
    /// (`n == 0`: all of them).
    pub fn top(&self, n: usize) -> Vec<(u32, f64)> {
        let mut v: Vec<(u32, f64)> = self
            .touched
            .iter()
            .map(|&d| (d, self.acc[d as usize]))
            .filter(|&(_, s)| score_key(s) > 0)
            .collect();
        let cmp = |a: &(u32, f64), b: &(u32, f64)| {
            score_key(b.1).cmp(&score_key(a.1)).then(a.0.cmp(&b.0))
        };
        if n > 0 && n < v.len() {
            v.select_nth_unstable_by(n - 1, cmp);
            v.truncate(n);
        }
        v.sort_unstable_by(cmp);
        v
    }
}

/// One shared term's part in a score: prompt weight (1) × the term's BM25
/// weight in the skill, so a skill's contributions sum to its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Contribution {
    pub term: String,
    pub words: Vec<String>,
    pub prompt_weight: f64,
    pub skill_weight: f64,
    pub contribution: f64,
}

/// The shared terms of `query` and document `d`, largest contribution first
/// (then by term).
pub fn explain(index: &Index, query: &Query, d: u32) -> Vec<Contribution> {
    let mut v: Vec<Contribution> = query
        .terms
        .iter()
        .filter_map(|q| {
            let id = q.id?;
            let w = index.score_weight(d, id);
            (w > 0.0).then(|| Contribution {
                term: q.term.clone(),
                words: q.words.clone(),
                prompt_weight: q.weight,
                skill_weight: w,
                contribution: q.weight * w,
            })
        })
        .collect();
    v.sort_by(|a, b| {
        b.contribution
            .total_cmp(&a.contribution)
            .then_with(|| a.term.cmp(&b.term))
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::index::DocInput;
    use crate::route::text::Analyzer;

    fn setup(docs: &[(&str, &str)]) -> (Analyzer, Index) {
        let a = Analyzer::new("english", &[]).unwrap();
        let inputs: Vec<DocInput> = docs
            .iter()
            .map(|&(name, description)| DocInput {
                name,
                description,
                file: "",
            })
            .collect();
        let idx = Index::build(&inputs, &a, 2);
        (a, idx)
    }

    #[test]
    fn scores_are_bm25_sums_and_ranked_by_score_then_name() {
        let (a, idx) = setup(&[
            ("logs", "Parse server logs"),
            ("tables", "Format markdown tables"),
            ("charts", "Draw charts from tables"),
        ]);
        let q = Query::new("format the tables", &a, &idx);
        let mut s = Scorer::new(&idx);
        let scores = s.score(&q);
        let top = scores.top(0);
        assert_eq!(idx.doc(top[0].0).name, "tables");
        assert_eq!(idx.doc(top[1].0).name, "charts");
        assert_eq!(top.len(), 2);
        let st = scores.standing(idx.find("tables").unwrap());
        assert!(st.is_rank1());
        let logs = scores.standing(idx.find("logs").unwrap());
        assert!(!logs.matched());
        assert_eq!(logs.above, 2);
        // contributions sum to the score
        let d = top[0].0;
        let sum: f64 = explain(&idx, &q, d).iter().map(|c| c.contribution).sum();
        assert!((sum - top[0].1).abs() < 1e-12);
    }

    #[test]
    fn a_tie_for_first_is_not_rank1() {
        let (a, idx) = setup(&[("alpha", "Render diagrams"), ("beta", "Render diagrams")]);
        let q = Query::new("render diagrams", &a, &idx);
        let mut s = Scorer::new(&idx);
        let scores = s.score(&q);
        let st = scores.standing(idx.find("alpha").unwrap());
        assert_eq!(st.tied, 1);
        assert!(!st.is_rank1());
        assert!(st.is_first_or_tied());
        assert_eq!(st.rank(), 2);
        // ties are broken by name for display
        assert_eq!(idx.doc(scores.top(1)[0].0).name, "alpha");
    }

    #[test]
    fn scorer_resets_between_prompts() {
        let (a, idx) = setup(&[("alpha", "Render diagrams"), ("beta", "Parse logs")]);
        let mut s = Scorer::new(&idx);
        let q1 = Query::new("render", &a, &idx);
        let first = s.score(&q1).score(0);
        let q2 = Query::new("parse", &a, &idx);
        assert_eq!(s.score(&q2).score(0), 0.0);
        assert_eq!(s.score(&q1).score(0), first);
    }
}
