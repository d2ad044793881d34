//! The confusion matrix: for every trigger prompt with an owner (the case
//! file's skill for a positive, the `owner` of a negative), which skill
//! Tier 2 ranked first. Rows are owners, columns winners; the diagonal is
//! the owner ranked strictly first (rank-1), every other cell prompts
//! another skill took, listed with the `rank --explain` contributions of
//! both skills when the cell is opened (a link to `#p<owner>-<winner>`,
//! so it works without script and can be shared).
//!
//! Only the confused part is drawn: the skills with a prompt off the
//! diagonal, the [`MAX_SHOWN`] most confused of them when there are more,
//! ordered so that clusters of skills confused with one another sit
//! together (connected groups, the most confused first; inside one, each
//! next skill the one most confused with those already placed). Every stolen prompt is also in the table of
//! confused pairs below it, whatever the matrix's size.

use super::{Esc, Href, cut, thousands};
use crate::route::Routed;
use crate::route::cases::{Kind, PromptResult, missing_words};
use crate::route::index::Query;
use crate::route::rank::explain;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Largest number of skills drawn as rows and columns.
pub const MAX_SHOWN: usize = 50;
/// Winner of a prompt no skill matched.
const NOBODY: u32 = u32::MAX;
/// Prompts listed in a cell's hover text.
const HOVER_PROMPTS: usize = 8;
/// Terms of each skill listed in a prompt's explanation.
const EXPLAIN_TERMS: usize = 8;
/// Stolen prompts explained term by term, those of the largest cells
/// first (the rest name the winner and the words it has, and point at
/// `rank --explain`), so that the page stays a few megabytes on the
/// largest catalogs.
pub const MAX_EXPLAINED: usize = 1000;

/// Prompts by (owner, winner), and the confused skills in display order.
pub struct Matrix {
    /// (owner, winner) → indexes into `Routed::prompts`.
    cells: BTreeMap<(u32, u32), Vec<usize>>,
    /// The most confused skills (at most [`MAX_SHOWN`]), clusters
    /// together: the matrix's rows and columns.
    order: Vec<u32>,
    /// Skills with a prompt off the diagonal, as owner or winner.
    confused: usize,
    /// Per skill: prompts of its own another skill (or none) took, and
    /// prompts of others it took.
    lost: BTreeMap<u32, usize>,
    taken: BTreeMap<u32, usize>,
}

impl Matrix {
    pub fn build(routed: &Routed) -> Matrix {
        let mut cells: BTreeMap<(u32, u32), Vec<usize>> = BTreeMap::new();
        for (i, p) in routed.prompts.iter().enumerate() {
            if let Some(c) = p.cell {
                cells
                    .entry((c.owner, c.winner.unwrap_or(NOBODY)))
                    .or_default()
                    .push(i);
            }
        }
        // confusion between two skills, either way
        let mut weight: BTreeMap<u32, BTreeMap<u32, usize>> = BTreeMap::new();
        let mut confused: BTreeSet<u32> = BTreeSet::new();
        for (&(o, w), v) in &cells {
            if o == w {
                continue;
            }
            confused.insert(o);
            if w != NOBODY {
                confused.insert(w);
                *weight.entry(o).or_default().entry(w).or_default() += v.len();
                *weight.entry(w).or_default().entry(o).or_default() += v.len();
            }
        }
        let (mut lost, mut taken) = (BTreeMap::new(), BTreeMap::new());
        for (&(o, w), v) in cells.iter().filter(|((o, w), _)| o != w) {
            *lost.entry(o).or_default() += v.len();
            *taken.entry(w).or_default() += v.len();
        }
        let total = |d: u32| weight.get(&d).map_or(0, |m| m.values().sum::<usize>());
        let nobody = |d: u32| cells.get(&(d, NOBODY)).map_or(0, Vec::len);
        let score = |d: u32| total(d) + nobody(d);
        // the most confused skills, at most MAX_SHOWN of them
        let mut chosen: Vec<u32> = confused.iter().copied().collect();
        chosen.sort_by(|&a, &b| score(b).cmp(&score(a)).then(a.cmp(&b)));
        chosen.truncate(MAX_SHOWN);
        let chosen: BTreeSet<u32> = chosen.into_iter().collect();
        // confusion among the chosen only
        let near = |d: u32| {
            weight
                .get(&d)
                .into_iter()
                .flatten()
                .filter(|(n, _)| chosen.contains(n))
                .map(|(&n, &w)| (n, w))
        };
        // connected groups, the most confused first
        let mut seen: BTreeSet<u32> = BTreeSet::new();
        let mut groups: Vec<(usize, Vec<u32>)> = Vec::new();
        for &start in &chosen {
            if !seen.insert(start) {
                continue;
            }
            let mut members = vec![start];
            let mut at = 0;
            while at < members.len() {
                for (n, _) in near(members[at]) {
                    if seen.insert(n) {
                        members.push(n);
                    }
                }
                at += 1;
            }
            let sum = members.iter().map(|&d| score(d)).sum();
            groups.push((sum, members));
        }
        groups.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.iter().min().cmp(&b.1.iter().min())));
        let mut order = Vec::with_capacity(chosen.len());
        for (_, members) in groups {
            // greedy: the most confused first, then whichever is most
            // confused with those placed (ties: with the last placed, then
            // by name order)
            let mut left: BTreeSet<u32> = members.into_iter().collect();
            let first = *left
                .iter()
                .max_by(|&&a, &&b| score(a).cmp(&score(b)).then(b.cmp(&a)))
                .expect("a group has a member");
            left.remove(&first);
            let mut placed = vec![first];
            let mut pull: BTreeMap<u32, usize> = BTreeMap::new();
            let mut last = first;
            loop {
                for (n, w) in near(last) {
                    if left.contains(&n) {
                        *pull.entry(n).or_default() += w;
                    }
                }
                let w_last = |d: u32| near(last).find(|&(n, _)| n == d).map_or(0, |(_, w)| w);
                let Some(&next) = left.iter().max_by(|&&a, &&b| {
                    let pa = pull.get(&a).copied().unwrap_or(0);
                    let pb = pull.get(&b).copied().unwrap_or(0);
                    pa.cmp(&pb).then(w_last(a).cmp(&w_last(b))).then(b.cmp(&a))
                }) else {
                    break;
                };
                left.remove(&next);
                pull.remove(&next);
                placed.push(next);
                last = next;
            }
            order.extend(placed);
        }
        Matrix {
            cells,
            order,
            confused: confused.len(),
            lost,
            taken,
        }
    }

    /// Prompts ranked first for a skill other than their owner (or for
    /// none).
    pub fn stolen(&self) -> usize {
        self.cells
            .iter()
            .filter(|((o, w), _)| o != w)
            .map(|(_, v)| v.len())
            .sum()
    }

    /// Prompts owned by `d` that another skill (or none) took, and
    /// prompts of others `d` took.
    pub fn lost_and_taken(&self, d: u32) -> (usize, usize) {
        (
            self.lost.get(&d).copied().unwrap_or(0),
            self.taken.get(&d).copied().unwrap_or(0),
        )
    }

    /// The anchor of a cell's prompt list.
    pub fn cell_id(owner: u32, winner: Option<u32>) -> String {
        match winner {
            Some(w) if w != NOBODY => format!("p{owner}-{w}"),
            _ => format!("p{owner}-none"),
        }
    }

    pub fn render(&self, routed: &Routed, link_base: &str) -> String {
        let name = |d: u32| label(routed, d);
        let owned = routed.prompts.iter().filter(|p| p.cell.is_some()).count();
        let mut o = String::new();
        if owned == 0 {
            o.push_str("<p class=\"empty\">No trigger prompt with an owner to rank: add <code>trigger.positive</code> prompts to <code>evals/cases/&lt;skill&gt;.json</code>.</p>\n");
            return o;
        }
        let stolen = self.stolen();
        let _ = writeln!(
            o,
            "<p>{} trigger prompts have an owner (the case file's skill for a positive prompt, the <code>owner</code> of a negative one); {} of them rank another skill first, or none. Rows are owners, columns the skill ranked first; the diagonal counts prompts whose owner ranks strictly first. Open a cell for its prompts and why each ranked where it did (the contributions <code>skillsift rank --explain</code> prints).</p>",
            thousands(owned),
            thousands(stolen)
        );
        if stolen == 0 {
            o.push_str("<p class=\"empty good\">Every prompt ranks its owner first: nothing is confused.</p>\n");
            return o;
        }
        let shown: Vec<u32> = self.order.clone();
        let shown_set: BTreeSet<u32> = shown.iter().copied().collect();
        if self.confused > shown.len() {
            let _ = writeln!(
                o,
                "<p class=\"note\">The matrix shows the {} most confused of {} confused skills; the column <i>other skills</i> holds prompts taken by skills not shown. Every confused pair is in the table below.</p>",
                shown.len(),
                thousands(self.confused)
            );
        }
        let has_other = shown.iter().any(|&r| {
            self.cells
                .keys()
                .any(|&(ow, w)| ow == r && w != NOBODY && w != r && !shown_set.contains(&w))
        });
        let has_nobody = shown.iter().any(|&r| self.cells.contains_key(&(r, NOBODY)));
        o.push_str("<div class=\"matrix-wrap\"><table class=\"matrix\"><thead><tr><th class=\"corner\">owner ↓ · ranked first →</th>");
        // a header is cut to its width: a plugin's skill shows the part
        // after `<plugin>:` (what tells the columns apart) when no other
        // shown skill has it, its full name on hover
        let short = short_labels(&shown, &name);
        for &c in &shown {
            let _ = write!(
                o,
                "<th class=\"col\" title=\"{}\"><span>{}</span></th>",
                Esc(&name(c)),
                Esc(&short[&c])
            );
        }
        if has_other {
            o.push_str("<th class=\"col extra\"><span>other skills</span></th>");
        }
        if has_nobody {
            o.push_str("<th class=\"col extra\"><span>no skill</span></th>");
        }
        o.push_str("<th class=\"col total\"><span>prompts</span></th></tr></thead>\n<tbody>\n");
        for &r in &shown {
            let row_total: usize = self
                .cells
                .range((r, 0)..=(r, u32::MAX))
                .map(|(_, v)| v.len())
                .sum();
            let _ = write!(
                o,
                "<tr><th class=\"row\" title=\"{}\"><a href=\"#s{r}\">{}</a></th>",
                Esc(&name(r)),
                Esc(&short[&r])
            );
            for &c in &shown {
                let n = self.cells.get(&(r, c)).map_or(0, Vec::len);
                if n == 0 {
                    o.push_str("<td></td>");
                    continue;
                }
                let heat = heat(n, row_total);
                if r == c {
                    let _ = write!(
                        o,
                        "<td class=\"diag h{heat}\" title=\"{}\">{n}</td>",
                        Esc(&format!(
                            "{n} of {row_total} prompts of {} rank it first",
                            name(r)
                        ))
                    );
                } else {
                    let v = &self.cells[&(r, c)];
                    let _ = write!(
                        o,
                        "<td class=\"off h{heat}\"><a href=\"#{}\" title=\"{}\">{n}</a></td>",
                        Self::cell_id(r, Some(c)),
                        Esc(&hover(routed, &format!("{} → {}", name(r), name(c)), v))
                    );
                }
            }
            if has_other {
                let others: Vec<(u32, usize)> = self
                    .cells
                    .range((r, 0)..(r, NOBODY))
                    .filter(|((_, w), _)| *w != r && !shown_set.contains(w))
                    .map(|((_, w), v)| (*w, v.len()))
                    .collect();
                let n: usize = others.iter().map(|x| x.1).sum();
                if n == 0 {
                    o.push_str("<td></td>");
                } else {
                    let list = others
                        .iter()
                        .map(|(w, k)| format!("{} ({k})", name(*w)))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let _ = write!(
                        o,
                        "<td class=\"off h{}\"><a href=\"#pairs-{r}\" title=\"{}\">{n}</a></td>",
                        heat(n, row_total),
                        Esc(&format!("{} → {list}", name(r)))
                    );
                }
            }
            if has_nobody {
                match self.cells.get(&(r, NOBODY)) {
                    None => o.push_str("<td></td>"),
                    Some(v) => {
                        let _ = write!(
                            o,
                            "<td class=\"off none h{}\"><a href=\"#{}\" title=\"{}\">{}</a></td>",
                            heat(v.len(), row_total),
                            Self::cell_id(r, None),
                            Esc(&hover(routed, &format!("{} → no skill", name(r)), v)),
                            v.len()
                        );
                    }
                }
            }
            let _ = writeln!(o, "<td class=\"total\">{row_total}</td></tr>");
        }
        o.push_str("</tbody></table></div>\n");
        if stolen > MAX_EXPLAINED {
            let _ = writeln!(
                o,
                "<p class=\"note\">Term-by-term explanations are given for the {} prompts of the largest cells; <code>skillsift rank \"PROMPT\" --explain</code> explains any other.</p>",
                thousands(MAX_EXPLAINED)
            );
        }
        o.push_str("<div class=\"cells\">\n");
        let mut budget = MAX_EXPLAINED;
        // the largest cells first: they spend the explanation budget
        for (&(ow, w), v) in self.pairs() {
            let winner = (w != NOBODY).then_some(w);
            let title = match winner {
                Some(w) => format!(
                    "{} prompt{} of {} ranked {} first",
                    v.len(),
                    if v.len() == 1 { "" } else { "s" },
                    name(ow),
                    name(w)
                ),
                None => format!(
                    "{} prompt{} of {} matched no skill at all",
                    v.len(),
                    if v.len() == 1 { "" } else { "s" },
                    name(ow)
                ),
            };
            let _ = write!(
                o,
                "<div class=\"cell\" id=\"{}\"><h3>{}</h3><ol class=\"prompts\">",
                Self::cell_id(ow, winner),
                Esc(&title)
            );
            for &i in v {
                prompt_detail(&mut o, routed, &routed.prompts[i], link_base, &mut budget);
            }
            o.push_str("</ol><p><a href=\"#confusion\">back to the matrix</a></p></div>\n");
        }
        o.push_str("</div>\n");
        self.pairs_table(&mut o, routed);
        o
    }

    /// Every off-diagonal cell as a row, most prompts first.
    /// The cells off the diagonal, most prompts first (then by owner and
    /// winner).
    fn pairs(&self) -> Vec<(&(u32, u32), &Vec<usize>)> {
        let mut pairs: Vec<(&(u32, u32), &Vec<usize>)> =
            self.cells.iter().filter(|((a, b), _)| a != b).collect();
        pairs.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
        pairs
    }

    fn pairs_table(&self, o: &mut String, routed: &Routed) {
        let index = &routed.router.index;
        let pairs = self.pairs();
        let _ = write!(
            o,
            "<h3 id=\"pairs\">Confused pairs</h3>\n<table class=\"list pairs\"><thead><tr><th>owner</th><th>ranked first instead</th><th>prompts</th></tr></thead><tbody>\n"
        );
        let mut anchored: BTreeSet<u32> = BTreeSet::new();
        // rows of one owner carry its anchor on the first of them
        for (&(ow, w), v) in pairs {
            let anchor = if anchored.insert(ow) {
                format!(" id=\"pairs-{ow}\"")
            } else {
                String::new()
            };
            let winner = if w == NOBODY {
                "<i>no skill</i>".to_string()
            } else if routed.router.is_competitor(w) {
                Esc(&label(routed, w)).to_string()
            } else {
                format!("<a href=\"#s{w}\">{}</a>", Esc(&index.doc(w).name))
            };
            let _ = writeln!(
                o,
                "<tr{anchor}><td><a href=\"#s{ow}\">{}</a></td><td>{winner}</td><td><a href=\"#{}\">{}</a></td></tr>",
                Esc(&index.doc(ow).name),
                Self::cell_id(ow, (w != NOBODY).then_some(w)),
                v.len()
            );
        }
        o.push_str("</tbody></table>\n");
    }
}

/// The header of each of `shown`: the part of its name after the last
/// `:` (a plugin's skill, `python-development:python-testing`) when that
/// part names no other shown skill, else the whole name.
fn short_labels(shown: &[u32], name: &dyn Fn(u32) -> String) -> BTreeMap<u32, String> {
    let full: Vec<(u32, String)> = shown.iter().map(|&d| (d, name(d))).collect();
    let tail = |n: &str| n.rsplit_once(':').map(|(_, t)| t.to_string());
    let mut uses: BTreeMap<String, usize> = BTreeMap::new();
    for (_, n) in &full {
        *uses
            .entry(tail(n).unwrap_or_else(|| n.clone()))
            .or_default() += 1;
    }
    full.into_iter()
        .map(|(d, n)| match tail(&n) {
            Some(t) if uses[&t] == 1 && !t.is_empty() => (d, t),
            _ => (d, n),
        })
        .collect()
}

/// A skill's name as the model sees it; a client's built-in skill or a
/// command says so.
fn label(routed: &Routed, d: u32) -> String {
    let name = &routed.router.index.doc(d).name;
    if routed.router.is_builtin(d) {
        format!("{name} (built-in)")
    } else if routed.router.is_command(d) {
        format!("{name} (command)")
    } else {
        name.clone()
    }
}

/// Colour step 1–5 of `n` prompts out of a row's `total`.
fn heat(n: usize, total: usize) -> usize {
    if total == 0 {
        return 1;
    }
    (n * 5).div_ceil(total).clamp(1, 5)
}

/// A cell's hover text: the first prompts, one a line.
fn hover(routed: &Routed, head: &str, v: &[usize]) -> String {
    let mut s = head.to_string();
    for &i in v.iter().take(HOVER_PROMPTS) {
        s.push_str("\n• ");
        s.push_str(&cut(&routed.prompts[i].prompt, 120));
    }
    if v.len() > HOVER_PROMPTS {
        let _ = write!(s, "\n… and {} more", v.len() - HOVER_PROMPTS);
    }
    s
}

/// The case file's line of a prompt, linked.
pub fn prompt_place(o: &mut String, p: &PromptResult, link_base: &str) {
    let _ = write!(
        o,
        "<a href=\"{}\"><code>{}:{}</code></a>",
        Href(link_base, &p.file),
        Esc(&p.file),
        p.span.line
    );
}

/// One prompt of a cell: text, where it is, how it ranked and why.
fn prompt_detail(
    o: &mut String,
    routed: &Routed,
    p: &PromptResult,
    link_base: &str,
    budget: &mut usize,
) {
    let router = &routed.router;
    let index = &router.index;
    let Some(c) = p.cell else { return };
    let owner = &index.doc(c.owner).name;
    let _ = write!(
        o,
        "<li><p class=\"prompt\">{}</p><p class=\"meta\">",
        Esc(&p.prompt)
    );
    match p.kind {
        Kind::Positive => {
            let _ = write!(o, "positive prompt of <b>{}</b>", Esc(&p.skill));
        }
        Kind::Negative => {
            let _ = write!(
                o,
                "negative prompt of <b>{}</b>, owned by <b>{}</b>",
                Esc(&p.skill),
                Esc(owner)
            );
        }
    }
    o.push_str(" · ");
    prompt_place(o, p, link_base);
    o.push_str(" · ");
    if p.passed {
        o.push_str("<span class=\"ok\">check passed</span>");
    } else {
        let rules: BTreeSet<&str> = p.diagnostics.iter().map(|d| d.rule).collect();
        let _ = write!(
            o,
            "<span class=\"fail\">check failed ({})</span>",
            rules.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    o.push_str("</p>");
    let q = Query::new(&p.prompt, &router.analyzer, index);
    match c.winner {
        Some(w) => {
            let winner = &label(routed, w);
            let _ = write!(
                o,
                "<p><b>{}</b> ranks #{} at {:.3}; <b>{}</b> is first at {:.3}{}.</p>",
                Esc(owner),
                c.owner_rank,
                c.owner_score,
                Esc(winner),
                c.winner_score,
                if c.tied { ", tied with the owner" } else { "" }
            );
            let words = missing_words(router, &q, c.owner, w);
            if !words.is_empty() {
                let _ = write!(
                    o,
                    "<p><b>{}</b>'s description has {} from this prompt and <b>{}</b>'s lacks {}.</p>",
                    Esc(winner),
                    words
                        .iter()
                        .map(|w| format!("<code>{}</code>", Esc(w)))
                        .collect::<Vec<_>>()
                        .join(", "),
                    Esc(owner),
                    if words.len() == 1 { "it" } else { "them" }
                );
            }
            if *budget > 0 {
                *budget -= 1;
                o.push_str("<div class=\"explain\">");
                explain_table(o, routed, &q, w, winner);
                explain_table(o, routed, &q, c.owner, owner);
                o.push_str("</div>");
            }
        }
        None => {
            let _ = write!(
                o,
                "<p>No skill shares a term with this prompt (after stop words and stemming); add the words users say to <b>{}</b>'s description.</p>",
                Esc(owner)
            );
        }
    }
    o.push_str("</li>\n");
}

/// A skill's shared terms with the prompt: prompt weight × skill weight.
fn explain_table(o: &mut String, routed: &Routed, q: &Query, d: u32, name: &str) {
    let terms = explain(&routed.router.index, q, d);
    let score: f64 = terms.iter().map(|t| t.contribution).sum();
    let _ = write!(
        o,
        "<table class=\"terms\"><caption>{} · {:.4}</caption>",
        Esc(name),
        score
    );
    if terms.is_empty() {
        o.push_str("<tr><td colspan=\"3\"><i>no shared term</i></td></tr>");
    }
    for t in terms.iter().take(EXPLAIN_TERMS) {
        let from: Vec<&str> = t
            .words
            .iter()
            .filter(|w| **w != t.term)
            .map(String::as_str)
            .collect();
        let _ = write!(
            o,
            "<tr><td>{}{}</td><td>{:.3} × {:.3}</td><td>{:.4}</td></tr>",
            Esc(&t.term),
            if from.is_empty() {
                String::new()
            } else {
                format!(" <small>({})</small>", Esc(&from.join(", ")))
            },
            t.prompt_weight,
            t.skill_weight,
            t.contribution
        );
    }
    if terms.len() > EXPLAIN_TERMS {
        let _ = write!(
            o,
            "<tr><td colspan=\"3\"><small>and {} more terms</small></td></tr>",
            terms.len() - EXPLAIN_TERMS
        );
    }
    o.push_str("</table>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_spreads_a_row_over_five_steps() {
        assert_eq!(heat(1, 10), 1);
        assert_eq!(heat(10, 10), 5);
        assert_eq!(heat(5, 10), 3);
        assert_eq!(heat(0, 0), 1);
    }
}
