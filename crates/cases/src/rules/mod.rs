//! The rules raised while a case source is read and parsed ([`cases`]) or
//! its prompts are found by shape ([`shaped`]); the lint registry lists
//! them beside every other rule.

pub mod cases;
pub mod shaped;

/// The candidate closest to `word` when it is close enough to be a typo:
/// an edit distance of at most 2 (or a third of the word's length),
/// ignoring case and treating `-` and `_` alike.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let norm = |s: &str| s.to_lowercase().replace('-', "_");
    let w = norm(word);
    let limit = 2.max(w.chars().count() / 3);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&w, &norm(c)), c))
        .filter(|&(d, c)| d <= limit && c != word)
        .min()
        .map(|(_, c)| c)
}

/// Levenshtein distance over Unicode scalar values.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_finds_close_keys_only() {
        let keys = ["prompt", "top_k", "owner", "split"];
        assert_eq!(did_you_mean("topK", keys), Some("top_k"));
        assert_eq!(did_you_mean("promt", keys), Some("prompt"));
        assert_eq!(did_you_mean("top-k", keys), Some("top_k"));
        assert_eq!(did_you_mean("weight", keys), None);
        assert_eq!(did_you_mean("prompt", keys), None);
    }

    #[test]
    fn edit_distance_counts_scalar_values() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("é", "e"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
