//! `skillsift rank "<prompt>" [ROOT]`: rank every skill of the catalog for
//! one prompt, as Tier 2 does, with `--explain` showing each shared term's
//! contribution. Printing is `report::rank`'s job.

use super::cache::Ranking;
use super::index::Query;
use super::rank::{Contribution, Scorer, explain, score_key};
use super::text::Analyzer;
use serde::Serialize;

/// One prompt term as the index sees it.
#[derive(Debug, Clone, Serialize)]
pub struct TermReport {
    pub term: String,
    /// The prompt's words behind it.
    pub words: Vec<String>,
    /// Unit-normalized prompt weight.
    pub weight: f64,
    /// Skills whose document holds the term.
    pub skills: u32,
}

/// One ranked skill.
#[derive(Debug, Clone, Serialize)]
pub struct Ranked {
    /// Position in the ranking (score desc, then name).
    pub rank: usize,
    pub name: String,
    pub file: String,
    pub score: f64,
    /// Another skill has exactly this score.
    pub tied: bool,
    /// The client lists this skill by name only (over its listing budget,
    /// SG520): it ranks by its name alone.
    pub name_only: bool,
    /// With `--explain`: shared terms, largest contribution first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contributions: Option<Vec<Contribution>>,
}

/// What `rank` found.
#[derive(Debug, Clone, Serialize)]
pub struct RankReport {
    pub prompt: String,
    pub terms: Vec<TermReport>,
    /// Skills that score above 0.
    pub matched: usize,
    pub skills_routed: usize,
    /// Skills without a readable name or description, by file.
    pub unroutable: Vec<String>,
    /// How many skills the client lists by name only (over its listing
    /// budget, SG520): they rank by their names alone.
    pub name_only: usize,
    pub results: Vec<Ranked>,
    /// Whether the list was cut at `--limit`.
    pub truncated: bool,
    /// Whose listing was ranked (`[route] client`, `--client`).
    pub client: crate::client::ClientId,
    /// Why the built-ins asked for are missing, when they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Serialize for Contribution {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Contribution", 5)?;
        st.serialize_field("term", &self.term)?;
        st.serialize_field("words", &self.words)?;
        st.serialize_field("prompt_weight", &self.prompt_weight)?;
        st.serialize_field("skill_weight", &self.skill_weight)?;
        st.serialize_field("contribution", &self.contribution)?;
        st.end()
    }
}

/// Build the report for `prompt` over an index.
pub fn report(
    ranking: &Ranking,
    client: crate::client::ClientId,
    analyzer: &Analyzer,
    prompt: &str,
    limit: usize,
    with_explain: bool,
) -> RankReport {
    let index = &ranking.index;
    let q = Query::new(prompt, analyzer, index);
    let mut scorer = Scorer::new(index);
    let scores = scorer.score(&q);
    let all = scores.top(0);
    let mut shown = if limit == 0 {
        all.len()
    } else {
        limit.min(all.len())
    };
    // a cut never falls between two tied skills: the neighbour tied with
    // the last shown is shown too
    while shown > 0 && shown < all.len() && score_key(all[shown].1) == score_key(all[shown - 1].1) {
        shown += 1;
    }
    let results = all[..shown]
        .iter()
        .enumerate()
        .map(|(i, &(d, s))| {
            let key = score_key(s);
            let tied = (i > 0 && score_key(all[i - 1].1) == key)
                || all.get(i + 1).is_some_and(|n| score_key(n.1) == key);
            let info = index.doc(d);
            Ranked {
                rank: i + 1,
                name: info.name.clone(),
                file: info.file.clone(),
                score: s,
                tied,
                name_only: ranking.name_only.binary_search(&info.file).is_ok(),
                contributions: with_explain.then(|| explain(index, &q, d)),
            }
        })
        .collect();
    RankReport {
        prompt: prompt.to_string(),
        terms: q
            .terms
            .iter()
            .map(|t| TermReport {
                term: t.term.clone(),
                words: t.words.clone(),
                weight: t.weight,
                skills: t.id.map_or(0, |id| index.df(id)),
            })
            .collect(),
        matched: all.len(),
        skills_routed: index.len(),
        unroutable: ranking.unroutable.clone(),
        name_only: ranking.name_only.len(),
        results,
        truncated: shown < all.len(),
        client,
        note: None,
    }
}
