//! The index over every routable skill.
//!
//! One document per skill: the terms of its name counted `name-weight` times
//! (default 2), plus the terms of its description. Two weightings are kept:
//!
//! - **Ranking is BM25** (k1 = 1.2, b = 0.75, Lucene's non-negative idf
//!   `ln(1 + (N − df + ½) / (df + ½))`): a prompt scores a skill by the sum,
//!   over each distinct prompt term the skill holds, of
//!   `idf × tf × (k1 + 1) / (tf + k1 × (1 − b + b × len / avg_len))`, where
//!   `len` is the document's term count and `avg_len` the catalog's mean.
//!   Term frequency saturates, so a description does not win by repeating a
//!   word, and length is normalised, so it does not win by being long.
//! - **Similarity between two skills is the cosine of their TF-IDF
//!   vectors** (`tf × idf`, `idf = ln(1 + N / (1 + df))`), the formula of
//!   the JavaScript original (`scripts/run-evals.js`): what the collision
//!   thresholds (50 %, 75 %) are calibrated on ([`super::collide`]).
//!
//! The vocabulary is interned (a term is a `u32`), document vectors are
//! sparse (unit-length TF-IDF weights beside BM25 weights), and an inverted
//! index lists for each term the documents holding it with their BM25
//! weights, so a prompt only touches skills that share a term with it.

use super::text::Analyzer;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The Fx hash of rustc and Firefox: one multiply and rotate per word. Not
/// resistant to crafted collisions, which is fine for a vocabulary built
/// from bounded files in one run; far faster than SipHash on short terms.
#[derive(Debug, Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
        }
        let mut tail = 0u64;
        for (i, &b) in chunks.remainder().iter().enumerate() {
            tail |= (b as u64) << (8 * i);
        }
        self.0 = (self.0.rotate_left(5) ^ tail ^ bytes.len() as u64).wrapping_mul(K);
    }

    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` keyed with [`FxHasher`].
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// A skill as the index sees it.
#[derive(Debug, Clone)]
pub struct DocInfo {
    pub name: String,
    /// Its SKILL.md, relative to the catalog root.
    pub file: String,
    /// Position of the skill in the slice the index was built from.
    pub source: usize,
}

/// What the index is built from: one entry per routable skill.
#[derive(Debug, Clone, Copy)]
pub struct DocInput<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub file: &'a str,
}

/// The built index. Documents are numbered in (name, file) order, which is
/// also the tie-break order of every ranking.
#[derive(Debug)]
pub struct Index {
    docs: Vec<DocInfo>,
    vocab: FxMap<Box<str>, u32>,
    terms: Vec<Box<str>>,
    df: Vec<u32>,
    idf: Vec<f64>,
    /// Document vectors (CSR): entries `vec_start[d]..vec_start[d + 1]`,
    /// sorted by term id, with unit-length weights.
    vec_start: Vec<usize>,
    vec_terms: Vec<u32>,
    vec_weights: Vec<f64>,
    /// The BM25 weight of each entry of the document vectors: what a
    /// prompt holding the term adds to the document's score.
    vec_scores: Vec<f64>,
    /// Postings (CSR): documents holding term `t` are
    /// `post_start[t]..post_start[t + 1]`, in document order, with the
    /// document's BM25 weight for `t`.
    post_start: Vec<usize>,
    post_docs: Vec<u32>,
    post_weights: Vec<f64>,
}

/// A document's terms with their counts, sorted by term: what the analyzer
/// made of one skill, before interning.
pub type Counts = Vec<(String, u32)>;

/// The terms of one skill's name (each counted `name_weight` times) and
/// description.
pub fn count_terms(analyzer: &Analyzer, name: &str, description: &str, name_weight: u32) -> Counts {
    // every term into one buffer, then sorted and counted: no map and no
    // allocation per term, one per distinct term for the result
    let mut buf = String::new();
    let mut spans: Vec<(u32, u32, u32)> = Vec::new();
    let mut add = |t: &str, n: u32| {
        let start = buf.len() as u32;
        buf.push_str(t);
        spans.push((start, buf.len() as u32, n));
    };
    if name_weight > 0 {
        analyzer.analyze(name, |t, _| add(t, name_weight));
    }
    analyzer.analyze(description, |t, _| add(t, 1));
    let text = |&(a, b, _): &(u32, u32, u32)| &buf[a as usize..b as usize];
    // Sorted by term: term ids are handed out in this order, and they fix
    // the order in which each document's norm is summed, so any order that
    // could change between runs would change scores in their last bits
    // (and `rank --format json` between runs).
    spans.sort_unstable_by(|x, y| text(x).cmp(text(y)));
    let mut counts: Counts = Vec::new();
    for sp in &spans {
        match counts.last_mut() {
            Some((t, n)) if t.as_str() == text(sp) => *n += sp.2,
            _ => counts.push((text(sp).to_string(), sp.2)),
        }
    }
    counts
}

/// One analyzed document, as [`Index::from_counts`] (terms as strings) and
/// [`Index::from_interned`] (terms as ids into a vocabulary) take it.
#[derive(Debug, Clone)]
pub struct DocCounts<T> {
    pub name: String,
    pub file: String,
    /// Position of the skill in the caller's list.
    pub source: usize,
    /// Each term once with its count, in the order of the terms' text, as
    /// [`count_terms`] gives them.
    pub counts: Vec<(T, u32)>,
}

/// Intern the terms of `docs`: the same documents with terms as ids into
/// the returned vocabulary (in order of first appearance).
pub fn intern<S: AsRef<str>>(docs: Vec<DocCounts<S>>) -> (Vec<DocCounts<u32>>, Vec<Box<str>>) {
    let mut at: FxMap<Box<str>, u32> = FxMap::default();
    let mut vocab: Vec<Box<str>> = Vec::new();
    let docs = docs
        .into_iter()
        .map(|d| DocCounts {
            name: d.name,
            file: d.file,
            source: d.source,
            counts: d
                .counts
                .iter()
                .map(|(t, n)| {
                    let t = t.as_ref();
                    let id = match at.get(t) {
                        Some(&id) => id,
                        None => {
                            let id = vocab.len() as u32;
                            vocab.push(t.into());
                            at.insert(t.into(), id);
                            id
                        }
                    };
                    (id, *n)
                })
                .collect(),
        })
        .collect();
    (docs, vocab)
}

/// `ln(1 + n / (1 + df))`.
pub fn idf(n: usize, df: u32) -> f64 {
    (1.0 + n as f64 / (1.0 + df as f64)).ln()
}

/// BM25's term-frequency saturation.
pub const BM25_K1: f64 = 1.2;
/// BM25's length normalisation.
pub const BM25_B: f64 = 0.75;

/// BM25's inverse document frequency (Lucene's, never negative):
/// `ln(1 + (n − df + ½) / (df + ½))`.
pub fn bm25_idf(n: usize, df: u32) -> f64 {
    (1.0 + (n as f64 - df as f64 + 0.5) / (df as f64 + 0.5)).ln()
}

/// What one term adds to a document's BM25 score: `idf × tf × (k1 + 1) /
/// (tf + k1 × (1 − b + b × len / avg_len))`.
pub fn bm25(idf: f64, tf: u32, len: f64, avg_len: f64) -> f64 {
    let tf = tf as f64;
    let norm = if avg_len > 0.0 {
        1.0 - BM25_B + BM25_B * len / avg_len
    } else {
        1.0
    };
    idf * tf * (BM25_K1 + 1.0) / (tf + BM25_K1 * norm)
}

impl Index {
    /// Build the index; `inputs` may be in any order.
    pub fn build(inputs: &[DocInput], analyzer: &Analyzer, name_weight: u32) -> Index {
        let docs: Vec<DocCounts<String>> = inputs
            .par_iter()
            .enumerate()
            .map(|(i, d)| DocCounts {
                name: d.name.to_string(),
                file: d.file.to_string(),
                source: i,
                counts: count_terms(analyzer, d.name, d.description, name_weight),
            })
            .collect();
        Index::from_counts(docs)
    }

    /// Build the index from documents already analyzed, in any order.
    pub fn from_counts<S: AsRef<str>>(docs: Vec<DocCounts<S>>) -> Index {
        let (docs, vocab) = intern(docs);
        Index::from_interned(&docs, &vocab)
    }

    /// Build the index from documents whose terms are ids into `vocab`
    /// (which may hold terms no document uses), in any order.
    ///
    /// The result depends only on the documents' names, files and terms:
    /// never on their order, on the vocabulary's order or on where the
    /// counts came from. [`super::cache`] relies on this to give the same
    /// scores, bit for bit, as a fresh analysis. Term ids are handed out
    /// anew, in order of first appearance over the documents sorted by
    /// (name, file), each document's terms in text order; they fix the
    /// order in which a document's norm is summed.
    ///
    /// Panics when a term id is not in `vocab`.
    pub fn from_interned<S: AsRef<str>>(docs: &[DocCounts<u32>], vocab: &[S]) -> Index {
        let mut order: Vec<&DocCounts<u32>> = docs.iter().collect();
        order.sort_by(|a, b| (&a.name, &a.file).cmp(&(&b.name, &b.file)));
        let docs = order;

        let mut remap = vec![u32::MAX; vocab.len()];
        let mut terms: Vec<Box<str>> = Vec::new();
        let mut df: Vec<u32> = Vec::new();
        let mut doc_terms: Vec<Vec<(u32, u32)>> = Vec::with_capacity(docs.len());
        for doc in &docs {
            let mut v: Vec<(u32, u32)> = Vec::with_capacity(doc.counts.len());
            for &(t, tf) in &doc.counts {
                let slot = &mut remap[t as usize];
                if *slot == u32::MAX {
                    *slot = terms.len() as u32;
                    terms.push(vocab[t as usize].as_ref().into());
                    df.push(0);
                }
                df[*slot as usize] += 1;
                v.push((*slot, tf));
            }
            v.sort_unstable_by_key(|e| e.0);
            doc_terms.push(v);
        }
        let vocab: FxMap<Box<str>, u32> = terms
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        let n = doc_terms.len();
        let idf: Vec<f64> = df.iter().map(|&d| idf(n, d)).collect();

        let lens: Vec<f64> = doc_terms
            .iter()
            .map(|v| v.iter().map(|&(_, tf)| tf as f64).sum())
            .collect();
        let avg_len = if n > 0 {
            lens.iter().sum::<f64>() / n as f64
        } else {
            0.0
        };
        let bidf: Vec<f64> = df.iter().map(|&d| bm25_idf(n, d)).collect();
        let mut vec_start = Vec::with_capacity(n + 1);
        let mut vec_terms = Vec::new();
        let mut vec_weights = Vec::new();
        let mut vec_scores = Vec::new();
        vec_start.push(0);
        for (v, &len) in doc_terms.iter().zip(&lens) {
            for &(t, tf) in v {
                vec_scores.push(bm25(bidf[t as usize], tf, len, avg_len));
            }
            let ws: Vec<f64> = v
                .iter()
                .map(|&(t, tf)| tf as f64 * idf[t as usize])
                .collect();
            let norm = ws.iter().map(|w| w * w).sum::<f64>().sqrt();
            for (&(t, _), w) in v.iter().zip(ws) {
                vec_terms.push(t);
                vec_weights.push(if norm > 0.0 { w / norm } else { 0.0 });
            }
            vec_start.push(vec_terms.len());
        }

        // postings by counting sort over terms
        let mut post_start = vec![0usize; terms.len() + 1];
        for &t in &vec_terms {
            post_start[t as usize + 1] += 1;
        }
        for i in 0..terms.len() {
            post_start[i + 1] += post_start[i];
        }
        let mut fill = post_start.clone();
        let mut post_docs = vec![0u32; vec_terms.len()];
        let mut post_weights = vec![0f64; vec_terms.len()];
        for d in 0..n {
            for k in vec_start[d]..vec_start[d + 1] {
                let t = vec_terms[k] as usize;
                post_docs[fill[t]] = d as u32;
                post_weights[fill[t]] = vec_scores[k];
                fill[t] += 1;
            }
        }

        let docs = docs
            .into_iter()
            .map(|d| DocInfo {
                name: d.name.clone(),
                file: d.file.clone(),
                source: d.source,
            })
            .collect();
        Index {
            docs,
            vocab,
            terms,
            df,
            idf,
            vec_start,
            vec_terms,
            vec_weights,
            vec_scores,
            post_start,
            post_docs,
            post_weights,
        }
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    pub fn doc(&self, d: u32) -> &DocInfo {
        &self.docs[d as usize]
    }

    pub fn docs(&self) -> &[DocInfo] {
        &self.docs
    }

    /// The document of the skill named `name` (the first by file when two
    /// share it).
    pub fn find(&self, name: &str) -> Option<u32> {
        let i = self.docs.partition_point(|d| d.name.as_str() < name);
        (self.docs.get(i)?.name == name).then_some(i as u32)
    }

    /// Terms in the vocabulary.
    pub fn vocab_len(&self) -> usize {
        self.terms.len()
    }

    pub fn term_id(&self, term: &str) -> Option<u32> {
        self.vocab.get(term).copied()
    }

    pub fn term(&self, t: u32) -> &str {
        &self.terms[t as usize]
    }

    pub fn df(&self, t: u32) -> u32 {
        self.df[t as usize]
    }

    pub fn idf(&self, t: u32) -> f64 {
        self.idf[t as usize]
    }

    /// A document's unit-length vector: (term, weight) sorted by term.
    pub fn vector(&self, d: u32) -> (&[u32], &[f64]) {
        let r = self.vec_start[d as usize]..self.vec_start[d as usize + 1];
        (&self.vec_terms[r.clone()], &self.vec_weights[r])
    }

    /// The unit weight of term `t` in document `d` (0 when absent).
    pub fn weight(&self, d: u32, t: u32) -> f64 {
        let (ts, ws) = self.vector(d);
        ts.binary_search(&t).map_or(0.0, |i| ws[i])
    }

    /// What term `t` adds to document `d`'s score when a prompt holds it
    /// (0 when `d` lacks it).
    pub fn score_weight(&self, d: u32, t: u32) -> f64 {
        let r = self.vec_start[d as usize]..self.vec_start[d as usize + 1];
        self.vec_terms[r.clone()]
            .binary_search(&t)
            .map_or(0.0, |i| self.vec_scores[r.start + i])
    }

    /// Documents holding term `t` with their score weights for it.
    pub fn postings(&self, t: u32) -> (&[u32], &[f64]) {
        let r = self.post_start[t as usize]..self.post_start[t as usize + 1];
        (&self.post_docs[r.clone()], &self.post_weights[r])
    }
}

/// One term of a prompt.
#[derive(Debug, Clone)]
pub struct QueryTerm {
    pub term: String,
    /// The prompt's words that produced it, in order of appearance, unique.
    pub words: Vec<String>,
    /// Its id when some skill holds it.
    pub id: Option<u32>,
    /// Times it occurs in the prompt.
    pub tf: u32,
    /// 1: BM25 counts each distinct prompt term once.
    pub weight: f64,
}

/// An analyzed prompt, weighted against one index.
#[derive(Debug, Clone)]
pub struct Query {
    /// Terms in order of first appearance.
    pub terms: Vec<QueryTerm>,
}

impl Query {
    /// Analyze `prompt`; every distinct term gets weight 1 (BM25 counts a
    /// prompt term once, whatever its frequency in the prompt).
    pub fn new(prompt: &str, analyzer: &Analyzer, index: &Index) -> Query {
        let mut terms: Vec<QueryTerm> = Vec::new();
        // position of each term in `terms`: a linear search made a prompt of
        // n distinct words cost n² (a 4 MiB case-file prompt, hours)
        let mut at: FxMap<String, usize> = FxMap::default();
        analyzer.analyze(prompt, |t, w| {
            if let Some(&i) = at.get(t) {
                let q = &mut terms[i];
                q.tf += 1;
                if !q.words.iter().any(|x| x == w) {
                    q.words.push(w.to_string());
                }
            } else {
                at.insert(t.to_string(), terms.len());
                terms.push(QueryTerm {
                    term: t.to_string(),
                    words: vec![w.to_string()],
                    id: index.term_id(t),
                    tf: 1,
                    weight: 0.0,
                });
            }
        });
        // BM25 sums each distinct term of the prompt once: a word repeated
        // in a request says no more than the word said once
        for q in &mut terms {
            q.weight = 1.0;
        }
        Query { terms }
    }

    /// Terms some skill holds: (id, weight).
    pub fn known(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        self.terms
            .iter()
            .filter_map(|q| q.id.map(|id| (id, q.weight)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyzer() -> Analyzer {
        Analyzer::new("english", &[]).unwrap()
    }

    fn input<'a>(name: &'a str, description: &'a str) -> DocInput<'a> {
        DocInput {
            name,
            description,
            file: "",
        }
    }

    #[test]
    fn fx_hash_separates_short_terms() {
        let h = |s: &str| {
            let mut x = FxHasher::default();
            x.write(s.as_bytes());
            x.finish()
        };
        assert_ne!(h("test"), h("tests"));
        assert_ne!(h("ab"), h("ba"));
        assert_ne!(h(""), h("\0"));
        assert_eq!(h("review"), h("review"));
    }

    #[test]
    fn idf_matches_the_original_formula() {
        assert!((idf(24, 0) - 25f64.ln()).abs() < 1e-15);
        assert!((idf(24, 3) - 7f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn documents_are_ordered_by_name_and_vectors_are_unit_length() {
        let a = analyzer();
        let idx = Index::build(
            &[
                input("zeta-tool", "Formats tables"),
                input("alpha-tool", "Parses logs"),
            ],
            &a,
            2,
        );
        assert_eq!(idx.doc(0).name, "alpha-tool");
        assert_eq!(idx.doc(0).source, 1);
        assert_eq!(idx.find("zeta-tool"), Some(1));
        assert_eq!(idx.find("nope"), None);
        for d in 0..2 {
            let (_, ws) = idx.vector(d);
            let n: f64 = ws.iter().map(|w| w * w).sum();
            assert!((n - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn name_terms_count_name_weight_times() {
        let a = analyzer();
        let idx = Index::build(
            &[input("parse", "parse logs"), input("other", "logs")],
            &a,
            2,
        );
        let d = idx.find("parse").unwrap();
        let parse = idx.term_id("pars").unwrap();
        let logs = idx.term_id("log").unwrap();
        // tf(parse) = 3, tf(log) = 1
        let ratio = idx.weight(d, parse) / idx.weight(d, logs);
        let expect = 3.0 * idx.idf(parse) / idx.idf(logs);
        assert!((ratio - expect).abs() < 1e-12);
        assert_eq!(idx.df(logs), 2);
        let (docs, _) = idx.postings(logs);
        assert_eq!(docs, &[0, 1]);
    }

    #[test]
    fn prompt_terms_count_once_and_scores_are_bm25() {
        let a = analyzer();
        let idx = Index::build(
            &[input("parse", "parse logs"), input("other", "rotate logs")],
            &a,
            2,
        );
        let q = Query::new("parse parse zyx", &a, &idx);
        assert_eq!(q.terms.len(), 2, "{:?}", q.terms);
        assert_eq!(q.terms[0].tf, 2);
        assert!(q.terms.iter().all(|t| t.weight == 1.0));
        assert!(q.terms[1].id.is_none());
        assert_eq!(q.known().count(), 1);
        // tf 3 (name twice, description once), length 4, mean length 4
        let d = idx.find("parse").unwrap();
        let t = idx.term_id("pars").unwrap();
        let want = bm25_idf(2, 1) * 3.0 * (BM25_K1 + 1.0) / (3.0 + BM25_K1);
        assert!((idx.score_weight(d, t) - want).abs() < 1e-12);
        assert_eq!(idx.score_weight(idx.find("other").unwrap(), t), 0.0);
    }
}
