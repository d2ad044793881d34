//! Tier 2's figures for the summary every renderer prints.

use serde::Serialize;

/// Tier 2 figures shown in the summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RouteSummary {
    /// Positive prompts whose skill ranks strictly first.
    pub rank1: usize,
    /// Positive prompts whose skill ranks within the top 3, tied skills
    /// counted ahead of it.
    pub top3: usize,
    /// Positive prompts whose skill ties for first (counted as misses in
    /// `rank1`: the model has no reason to prefer it).
    pub tied_first: usize,
    /// Trigger prompts marked `"lexical": false` (a paraphrase or another
    /// language lexical routing cannot match): expected, not ranked, not in
    /// `positives`.
    pub not_lexical: usize,
    /// Positive prompts checked.
    pub positives: usize,
    /// Trigger checks (positive, negative, owner) that passed.
    pub checks_passed: usize,
    /// Trigger checks run.
    pub checks: usize,
    /// The rank-1 floor in percent, when one was set.
    pub min_rank1: Option<f64>,
    /// Skills in the routing index.
    pub skills_routed: usize,
    /// Skills the client does not list (the strict reading: no name or
    /// description), by file.
    pub unroutable: Vec<String>,
    /// Whose listing was routed (`[route] client`, `--client`).
    pub client: Option<crate::client::ClientId>,
    /// `[route] top-k`: a positive prompt passes when its skill ranks this
    /// high (a case's own `top_k` wins).
    pub top_k: usize,
    /// `top_k` lowered where no more skills than it were routed together
    /// (a top 3 of 3 always holds the skill): the k used and the skills
    /// routed together, in the smallest such listing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_k_lowered: Option<TopKLowered>,
    /// The installations routed one at a time, each in its own listing
    /// (`route::units`: a catalog of plugins or packs), by label; empty
    /// when the catalog was routed as one listing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub installs: Vec<String>,
    /// The catalog is a library ([`crate::catalog::Catalog::library`]):
    /// its skills were listed and routed as if each were copied on its own
    /// into the client's skills folder.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub library: bool,
}

impl RouteSummary {
    /// Rank-1 rate in whole percent, rounded as the original scripts do.
    pub fn rank1_percent(&self) -> Option<u64> {
        (self.positives > 0)
            .then(|| (100.0 * self.rank1 as f64 / self.positives as f64).round() as u64)
    }
}

/// `[route] top-k` lowered in a listing of few skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct TopKLowered {
    /// The top-k a positive had to reach there.
    pub to: usize,
    /// Entries routed against there, skills and competing commands or
    /// built-ins (the top-k would have held them all).
    pub skills: usize,
}
