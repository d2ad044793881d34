//! Collisions: every pair of skills whose document vectors have a cosine at
//! or above a threshold.
//!
//! A dense pass over all N² pairs is too slow for large catalogs, and so is
//! a plain inverted-index pass (a term held by a third of the skills makes a
//! ninth of all pairs candidates). This is the exact *all-pairs* search of
//! Bayardo, Ma and Srikant (WWW 2007) with prefix filtering:
//!
//! - Order the vocabulary by document frequency, rarest first. For each unit
//!   vector `x`, its *suffix* is the longest tail (most frequent terms) whose
//!   own length is below the threshold `t`; the rest is its *prefix*.
//! - If `cos(x, y) ≥ t`, their first shared term (in that order) lies in both
//!   prefixes: otherwise every shared term lies in one suffix, and the dot
//!   product is at most that suffix's length, below `t`.
//! - So only prefix terms are indexed and probed. A candidate's partial dot
//!   product plus both suffix lengths bounds its cosine; only candidates
//!   whose bound reaches `t` are verified by a full sparse dot product.
//!
//! Nothing is approximated: the result is every pair at or above `t`.

use super::Router;
use super::index::{FxMap, Index};
use super::rank::score_key;
use super::rules;
use crate::config::RouteConfig;
use crate::diag::Diagnostic;
use rayon::prelude::*;

/// A pair of skills at or above `collision-warning`, with what it shares.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub pair: Collision,
    /// At or above `collision-error`.
    pub error: bool,
    /// The words they share most, as written, with their contribution to
    /// the cosine (at most five).
    pub shared: Vec<(String, f64)>,
}

/// Every pair at or above `collision-warning` (or `collision-error`, when
/// lower), sorted by (a, b), with the words each shares most.
pub fn find(router: &Router, config: &RouteConfig) -> Vec<Found> {
    let threshold = config.collision_warning.min(config.collision_error);
    let index = &router.index;
    // pairs within the catalog's skills: a built-in's wording is not the
    // author's, and a command is not a skill
    let pairs: Vec<_> = collisions(index, threshold)
        .into_iter()
        .filter(|c| !router.is_competitor(c.a) && !router.is_competitor(c.b))
        .collect();
    // each skill's words once, however many pairs it is in
    let mut involved: Vec<u32> = pairs.iter().flat_map(|c| [c.a, c.b]).collect();
    involved.sort_unstable();
    involved.dedup();
    let surfaces: FxMap<u32, Surface> = involved
        .par_iter()
        .map(|&d| (d, Surface::of(router, d, config.name_weight)))
        .collect();
    pairs
        .into_par_iter()
        .map(|c| Found {
            error: score_key(c.similarity) >= score_key(config.collision_error),
            shared: shared_words(index, (c.a, &surfaces[&c.a]), (c.b, &surfaces[&c.b]), 5),
            pair: c,
        })
        .collect()
}

/// Collision findings: pairs at or above `collision-error` are errors
/// (SG510), those at or above `collision-warning` warnings (SG511). Each
/// points at the description of the pair's first skill (by name) and names
/// the terms that contribute most to the overlap.
pub fn check(router: &Router, config: &RouteConfig) -> Vec<Diagnostic> {
    diagnostics(router, config, &find(router, config))
}

/// The findings of pairs [`find`] returned.
pub fn diagnostics(router: &Router, config: &RouteConfig, found: &[Found]) -> Vec<Diagnostic> {
    let index = &router.index;
    found
        .par_iter()
        .map(|f| {
            let (c, error) = (&f.pair, f.error);
            let rule = if error {
                &rules::COLLISION
            } else {
                &rules::OVERLAP
            };
            let (a, b) = (index.doc(c.a), index.doc(c.b));
            let pct = (c.similarity * 100.0).round();
            let terms = f
                .shared
                .iter()
                .map(|(t, w)| format!("{t} ({w:.2})"))
                .collect::<Vec<_>>()
                .join(", ");
            let span = router
                .skill(c.a)
                .and_then(|s| s.frontmatter.as_ref())
                .and_then(|f| f.get("description"))
                .map(|e| e.value_span);
            let (an, bn) = if a.name == b.name {
                (
                    format!("`{}` ({})", a.name, a.file),
                    format!("`{}` ({})", b.name, b.file),
                )
            } else {
                (format!("`{}`", a.name), format!("`{}`", b.name))
            };
            // over the listing budget, an entry is its name alone
            let by_name: Vec<&str> = [(c.a, &a.name), (c.b, &b.name)]
                .into_iter()
                .filter(|(d, _)| router.name_only(*d))
                .map(|(_, n)| n.as_str())
                .collect();
            let compared = match by_name.as_slice() {
                [] => String::new(),
                [one] => format!(
                    "; `{one}` is listed by name only (the listing is over its budget, SG520), so its name is compared, not its description"
                ),
                _ => "; both are listed by name only (the listing is over its budget, SG520), so their names are compared, not their descriptions".to_string(),
            };
            rule.diag(
                &a.file,
                format!(
                    "descriptions of {an} and {bn} are {pct}% similar (cosine {:.2}, {} at {:.2}){compared}",
                    c.similarity,
                    if error { "error" } else { "warning" },
                    if error {
                        config.collision_error
                    } else {
                        config.collision_warning
                    }
                ),
            )
            .with_span_opt(span)
            .with_label(format!("{pct}% similar to `{}` ({})", b.name, b.file))
            .with_help(format!(
                "words they share most: {terms}; make each description say what only its skill does, or merge the two skills"
            ))
        })
        .collect()
}

/// What the analyzer made of one skill's name and description: for each
/// term, the term its word stems to and the word, as (term, stem, word)
/// sorted, terms and stems as index ids, words indexes into `words`.
#[derive(Debug, Default)]
pub struct Surface {
    entries: Vec<(u32, u32, u32)>,
    words: Vec<Box<str>>,
}

impl Surface {
    pub fn of(router: &Router, d: u32, name_weight: u32) -> Surface {
        let mut s = Surface::default();
        let (name, description) = router.routed(d);
        let index = &router.index;
        // the analyzer emits each word's terms in a row, its stem last
        let mut run: Vec<u32> = Vec::new();
        let mut word = String::new();
        let flush = |run: &mut Vec<u32>, word: &str, s: &mut Surface| {
            if let Some(&stem) = run.last() {
                let w = s.words.len() as u32;
                s.words.push(word.into());
                s.entries.extend(run.iter().map(|&t| (t, stem, w)));
            }
            run.clear();
        };
        let mut note = |t: &str, w: &str| {
            if w != word {
                flush(&mut run, &word, &mut s);
                word.clear();
                word.push_str(w);
            }
            run.extend(index.term_id(t));
        };
        if name_weight > 0 {
            router.analyzer.analyze(name, &mut note);
        }
        router.analyzer.analyze(description, &mut note);
        flush(&mut run, &word, &mut s);
        s.entries.sort_unstable();
        s.entries.dedup_by(|x, y| {
            (x.0, x.1) == (y.0, y.1) && s.words[x.2 as usize] == s.words[y.2 as usize]
        });
        s
    }

    /// The stem of term `t` in this text.
    fn stem(&self, t: u32) -> Option<u32> {
        let i = self.entries.partition_point(|e| e.0 < t);
        self.entries.get(i).filter(|e| e.0 == t).map(|e| e.1)
    }

    /// The words of this text that stem to `stem`.
    fn words(&self, stem: u32) -> impl Iterator<Item = &str> {
        self.entries
            .iter()
            .filter(move |e| e.1 == stem)
            .map(|e| &*self.words[e.2 as usize])
    }
}

/// The words two skills share, as their texts spell them, by contribution
/// to their cosine (largest first, then by stem), at most `n`. An index
/// term is a stem (`merg`); it is shown as the words behind it in either
/// text, sorted (`merge/merging`).
pub fn shared_words(
    index: &Index,
    (a, sa): (u32, &Surface),
    (b, sb): (u32, &Surface),
    n: usize,
) -> Vec<(String, f64)> {
    let mut groups: Vec<(u32, f64)> = Vec::new();
    for (t, c) in contributions(index, a, b) {
        let stem = sa.stem(t).or_else(|| sb.stem(t)).unwrap_or(t);
        match groups.iter_mut().find(|g| g.0 == stem) {
            Some(g) => g.1 += c,
            None => groups.push((stem, c)),
        }
    }
    groups.sort_by(|x, y| {
        y.1.total_cmp(&x.1)
            .then_with(|| index.term(x.0).cmp(index.term(y.0)))
    });
    groups.truncate(n);
    groups
        .into_iter()
        .map(|(stem, c)| {
            let mut words: Vec<&str> = sa.words(stem).chain(sb.words(stem)).collect();
            // sorted: the same pair reads the same whichever skill comes first
            words.sort_unstable();
            words.dedup();
            let label = if words.is_empty() {
                index.term(stem).to_string()
            } else {
                words.join("/")
            };
            (label, c)
        })
        .collect()
}

/// Slack so rounding never hides a pair at the threshold.
const EPS: f64 = 1e-9;

/// Two skills whose vectors are too alike.
#[derive(Debug, Clone, PartialEq)]
pub struct Collision {
    /// The first skill in (name, file) order.
    pub a: u32,
    pub b: u32,
    pub similarity: f64,
}

/// A vector's prefix as (term, weight, length of the vector from this term
/// on), and the length of its suffix.
type Prefix = (Vec<(u32, f64, f64)>, f64);

/// Every pair with cosine ≥ `threshold` (and above 0), sorted by (a, b).
pub fn collisions(index: &Index, threshold: f64) -> Vec<Collision> {
    let n = index.len();
    if n < 2 {
        return Vec::new();
    }
    let t = threshold.max(0.0);
    let floor = t - EPS;
    // global order: rarest term first
    let mut order: Vec<u32> = (0..index.vocab_len() as u32).collect();
    order.sort_unstable_by_key(|&id| (index.df(id), id));
    let mut pos = vec![0u32; order.len()];
    for (p, &id) in order.iter().enumerate() {
        pos[id as usize] = p as u32;
    }

    // each document's prefix as (term, weight, length of the vector from
    // this term on), and the length of its suffix
    let prefixes: Vec<Prefix> = (0..n as u32)
        .into_par_iter()
        .map(|d| {
            let (ts, ws) = index.vector(d);
            let mut e: Vec<(u32, f64)> = ts.iter().copied().zip(ws.iter().copied()).collect();
            e.sort_unstable_by_key(|&(id, _)| pos[id as usize]);
            // rest[k] = squared length of e[k..]
            let mut rest = vec![0.0; e.len() + 1];
            for k in (0..e.len()).rev() {
                rest[k] = rest[k + 1] + e[k].1 * e[k].1;
            }
            // the suffix: the longest tail shorter than t
            let cut = (0..=e.len())
                .find(|&k| rest[k].sqrt() < floor)
                .unwrap_or(e.len());
            let prefix = e[..cut]
                .iter()
                .enumerate()
                .map(|(k, &(id, w))| (id, w, rest[k].sqrt()))
                .collect();
            (prefix, rest[cut].sqrt())
        })
        .collect();

    // prefix postings (CSR over term ids), in document order
    let mut start = vec![0usize; index.vocab_len() + 1];
    for (e, _) in &prefixes {
        for &(id, _, _) in e {
            start[id as usize + 1] += 1;
        }
    }
    for i in 0..index.vocab_len() {
        start[i + 1] += start[i];
    }
    let total = start[index.vocab_len()];
    let mut fill = start.clone();
    let mut docs = vec![0u32; total];
    let mut weights = vec![(0f64, 0f64); total];
    for (d, (e, _)) in prefixes.iter().enumerate() {
        for &(id, w, rest) in e {
            docs[fill[id as usize]] = d as u32;
            weights[fill[id as usize]] = (w, rest);
            fill[id as usize] += 1;
        }
    }

    let key_t = score_key(t);
    let mut found: Vec<Collision> = (0..n as u32)
        .into_par_iter()
        .map_init(
            || {
                (
                    vec![0f64; n],
                    Vec::<u32>::new(),
                    vec![0f64; index.vocab_len()],
                )
            },
            |(acc, touched, dense), x| {
                for &y in touched.iter() {
                    acc[y as usize] = 0.0;
                }
                touched.clear();
                let (px, rx) = &prefixes[x as usize];
                for &(id, wx, rest_x) in px {
                    // a pair at or above t first meets at its first shared
                    // term, where both vectors still have length ≥ t left
                    let admit = rest_x >= floor;
                    let r = start[id as usize]..start[id as usize + 1];
                    let ds = &docs[r.clone()];
                    let from = ds.partition_point(|&y| y <= x);
                    for (&y, &(wy, rest_y)) in ds[from..].iter().zip(&weights[r][from..]) {
                        let a = &mut acc[y as usize];
                        if *a != 0.0 {
                            *a += wx * wy;
                        } else if admit && rest_y >= floor {
                            touched.push(y);
                            *a = wx * wy;
                        }
                    }
                }
                let mut out = Vec::new();
                if touched.is_empty() {
                    return out;
                }
                let (tx, wxs) = index.vector(x);
                for (&id, &w) in tx.iter().zip(wxs) {
                    dense[id as usize] = w;
                }
                for &y in touched.iter() {
                    let ry = prefixes[y as usize].1;
                    if acc[y as usize] + rx + ry < floor {
                        continue;
                    }
                    let (ty, wys) = index.vector(y);
                    let sim: f64 = ty
                        .iter()
                        .zip(wys)
                        .map(|(&id, &w)| dense[id as usize] * w)
                        .sum();
                    let k = score_key(sim);
                    if k >= key_t && k > 0 {
                        out.push(Collision {
                            a: x,
                            b: y,
                            similarity: sim,
                        });
                    }
                }
                for &id in tx {
                    dense[id as usize] = 0.0;
                }
                out
            },
        )
        .flatten()
        .collect();
    found.sort_unstable_by_key(|c| (c.a, c.b));
    found
}

/// The exact cosine of two documents (a merge of their sorted vectors).
pub fn dot(index: &Index, a: u32, b: u32) -> f64 {
    let (ta, wa) = index.vector(a);
    let (tb, wb) = index.vector(b);
    let (mut i, mut j, mut s) = (0, 0, 0.0);
    while i < ta.len() && j < tb.len() {
        match ta[i].cmp(&tb[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                s += wa[i] * wb[j];
                i += 1;
                j += 1;
            }
        }
    }
    s
}

/// Each term two documents share, with its contribution to their cosine
/// (the product of its two unit weights), in term order.
fn contributions(index: &Index, a: u32, b: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
    let (ta, wa) = index.vector(a);
    ta.iter().zip(wa).filter_map(move |(&t, &w)| {
        let o = index.weight(b, t);
        (o > 0.0).then_some((t, w * o))
    })
}

/// The shared terms of two documents by contribution to their cosine,
/// largest first (then by term), at most `n`.
pub fn shared_terms(index: &Index, a: u32, b: u32, n: usize) -> Vec<(String, f64)> {
    let mut v: Vec<(String, f64)> = contributions(index, a, b)
        .map(|(t, c)| (index.term(t).to_string(), c))
        .collect();
    v.sort_by(|x, y| y.1.total_cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
    v.truncate(n);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::index::DocInput;
    use crate::route::text::Analyzer;

    fn brute(index: &Index, t: f64) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        for a in 0..index.len() as u32 {
            for b in a + 1..index.len() as u32 {
                let s = dot(index, a, b);
                if score_key(s) >= score_key(t) && score_key(s) > 0 {
                    v.push((a, b));
                }
            }
        }
        v
    }

    #[test]
    fn prefix_filtering_finds_exactly_the_pairs_a_full_scan_finds() {
        let words: Vec<String> = (0..60).map(|i| format!("word{i:02}x")).collect();
        let mut rng = crate::score::uplift::SplitMix64::new(7);
        let mut texts = Vec::new();
        for _ in 0..200 {
            let len = 3 + (rng.next_u64() % 8) as usize;
            let t: Vec<&str> = (0..len)
                .map(|_| {
                    // skewed: low indices are frequent
                    let r = rng.next_u64() % 60;
                    let r = r * r / 60;
                    words[r as usize].as_str()
                })
                .collect();
            texts.push(t.join(" "));
        }
        let names: Vec<String> = (0..200).map(|i| format!("skill{i:03}")).collect();
        let inputs: Vec<DocInput> = names
            .iter()
            .zip(&texts)
            .map(|(n, t)| DocInput {
                name: n,
                description: t,
                file: "",
            })
            .collect();
        let a = Analyzer::new("none", &[]).unwrap();
        let idx = Index::build(&inputs, &a, 0);
        for t in [0.2, 0.5, 0.75, 0.9] {
            let fast: Vec<(u32, u32)> = collisions(&idx, t).iter().map(|c| (c.a, c.b)).collect();
            assert_eq!(fast, brute(&idx, t), "threshold {t}");
        }
        assert!(!collisions(&idx, 0.5).is_empty());
    }

    #[test]
    fn shared_terms_rank_by_contribution() {
        let a = Analyzer::new("english", &[]).unwrap();
        let idx = Index::build(
            &[
                DocInput {
                    name: "one",
                    description: "render charts charts tables",
                    file: "",
                },
                DocInput {
                    name: "two",
                    description: "render charts tables",
                    file: "",
                },
                DocInput {
                    name: "three",
                    description: "render",
                    file: "",
                },
            ],
            &a,
            0,
        );
        let one = idx.find("one").unwrap();
        let two = idx.find("two").unwrap();
        let terms = shared_terms(&idx, one, two, 2);
        assert_eq!(terms[0].0, "chart");
        assert_eq!(terms.len(), 2);
    }
}
