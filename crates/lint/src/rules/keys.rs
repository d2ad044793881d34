//! Top-level frontmatter keys: only the specification's, client extensions
//! with a warning, anything else an error with a "did you mean".

use super::context::SkillCtx;
use super::sections::exemption_claim;
use crate::diag::Diagnostic;
use crate::rule;

/// The top-level keys the Agent Skills specification defines.
pub const SPEC_KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

rule! {
    /// ## What it does
    /// Reports a top-level frontmatter key the Agent Skills specification
    /// does not define (it allows `name`, `description`, `license`,
    /// `compatibility`, `metadata`, `allowed-tools`). A key close to a known
    /// one gets a "did you mean": differing only in case or `_` versus `-`,
    /// within two edits (one for keys of five characters or fewer, so
    /// `tools` is not taken for `hooks`), or the last word of a known key
    /// (`tools` → `allowed-tools`). Keys listed in `[lint] client-keys` are SG110
    /// instead; keys in `[lint] allowed-keys` are accepted silently. A key
    /// written in three skills or more is one finding (`check`, the HTML
    /// report) naming how many skills write it and the `allowed-keys` line
    /// for every such key, its other places kept as related locations.
    ///
    /// ## Why is this bad?
    /// Clients do not promise to ignore unknown keys: strict ones refuse the
    /// skill, and a misspelt key (`descripton`) silently does nothing.
    ///
    /// ## Example
    /// ```yaml
    /// name: pdf-forms
    /// description: …
    /// metadata:
    ///   author: example-org   # instead of a top-level `author:`
    /// ```
    pub static UNKNOWN_KEY = ("SG109", "unknown-key", Error, "frontmatter key is not part of the specification");
}

rule! {
    /// ## What it does
    /// Warns about a top-level key that one client documents as an
    /// extension (by default Claude Code's `when_to_use`, `argument-hint`,
    /// `arguments`, `disable-model-invocation`, `user-invocable`, `model`,
    /// `effort`, `context`, `agent`, `hooks`, `paths`, `shell`; set the list
    /// with `[lint] client-keys`). A catalog written for Claude Code alone
    /// (`[lint] clients = ["claude-code"]`) gets no SG110 for Claude
    /// Code's own keys.
    ///
    /// For `disable-model-invocation: true` it also says what the key does
    /// (Claude Code keeps the skill from the model; the other clients list
    /// it), and is that key's only finding: SG604 does not repeat it unless
    /// SG110 is off, and the skill needs no case file (SG406).
    ///
    /// ## Why is this bad?
    /// The key works in that client only; other clients ignore it or, if
    /// strict, reject the skill. Keep it when you target that client.
    pub static CLIENT_KEY = ("SG110", "client-key", Warning, "frontmatter key is a client-specific extension");
}

/// Edit distance between two strings (by chars) when it is at most `max`:
/// insertions, deletions, substitutions and swaps of two neighbours each
/// cost one. Gives up (`None`) as soon as every path exceeds `max`, and
/// for strings longer than 64 characters.
pub fn edit_distance_within(a: &str, b: &str, max: usize) -> Option<usize> {
    const N: usize = 64;
    let mut ac = ['\0'; N];
    let mut bc = ['\0'; N];
    let (mut la, mut lb) = (0, 0);
    for c in a.chars() {
        *ac.get_mut(la)? = c;
        la += 1;
    }
    for c in b.chars() {
        *bc.get_mut(lb)? = c;
        lb += 1;
    }
    if la.abs_diff(lb) > max {
        return None;
    }
    let (a, b) = (&ac[..la], &bc[..lb]);
    // Three rows of the Damerau (optimal string alignment) table.
    let mut prev2 = [0usize; N + 1];
    let mut prev: [usize; N + 1] = std::array::from_fn(|j| j);
    let mut cur = [0usize; N + 1];
    for i in 1..=la {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=lb {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        prev2 = prev;
        prev = cur;
    }
    (prev[lb] <= max).then_some(prev[lb])
}

/// A key or name compared ignoring case and `_` versus `-`.
pub fn normalise_key(k: &str) -> String {
    k.to_lowercase().replace('_', "-")
}

/// The known key `key` most likely meant, from `(key, normalise_key(key))`
/// pairs: equal ignoring case and `_`/`-`; else within one edit (two for
/// keys longer than five characters); else, when `suffixes` is set, a
/// known key ending in `-key` (`tools` → `allowed-tools`). Ties go to the
/// alphabetically first, whatever the iteration order.
pub fn did_you_mean<'a>(
    key: &str,
    known: impl IntoIterator<Item = (&'a str, &'a str)>,
    suffixes: bool,
) -> Option<&'a str> {
    let nk = normalise_key(key);
    let klen = nk.chars().count();
    let max = if klen > 5 { 2 } else { 1 };
    let mut best: Option<(usize, &str)> = None;
    for (cand, nc) in known {
        if cand == key {
            continue;
        }
        // Cheap filters first: a catalog may hold thousands of names.
        let clen = nc.chars().count();
        let near = clen.abs_diff(klen) <= max;
        let d = if nc == nk {
            0
        } else if let Some(d) = near.then(|| edit_distance_within(&nk, nc, max)).flatten() {
            d
        } else if suffixes
            && clen > klen
            && nc.ends_with(nk.as_str())
            && nc[..nc.len() - nk.len()].ends_with('-')
        {
            max + 1
        } else {
            continue;
        };
        if best.is_none_or(|(bd, bc)| (d, cand) < (bd, bc)) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else { return };
    let lint = &s.env.config.lint;
    for e in &fm.entries {
        let key = e.key.as_str();
        if SPEC_KEYS.contains(&key) || lint.allowed_keys.iter().any(|k| k == key) {
            continue;
        }
        if exemption_claim(key, &e.value) {
            continue; // SG203 reports it
        }
        if lint.client_keys.iter().any(|k| k == key) {
            if lint.claude_code_only() && crate::config::CLAUDE_CODE_KEYS.contains(&key) {
                continue; // the catalog is written for Claude Code, which reads it
            }
            // the one finding of `disable-model-invocation: true` (SG604 and
            // SG406 say nothing more of it): what it does, where
            let effect = if key == "disable-model-invocation" && s.skill.model_never_chooses() {
                ": Claude Code keeps the skill from the model (only `/name` runs it); the other clients ignore the key and list the skill"
            } else {
                ""
            };
            out.push(
                CLIENT_KEY
                    .diag(
                        s.file(),
                        format!("`{key}` is a client-specific key, not part of the Agent Skills specification{effect}"),
                    )
                    .with_span(e.key_span)
                    .with_help(format!(
                        "other clients ignore or reject it; keep it only if you target that client, or add `{key}` to `[lint] allowed-keys`"
                    )),
            );
            continue;
        }
        let known = s
            .env
            .known_keys
            .iter()
            .map(|(k, n)| (k.as_str(), n.as_str()));
        let d = match did_you_mean(key, known, true) {
            Some(m) => UNKNOWN_KEY
                .diag(
                    s.file(),
                    format!("`{key}` is not an Agent Skills frontmatter key: did you mean `{m}`?"),
                )
                .with_label(format!("did you mean `{m}`?"))
                .with_help(format!("rename the key to `{m}`")),
            None => UNKNOWN_KEY
                .diag(
                    s.file(),
                    format!("`{key}` is not an Agent Skills frontmatter key"),
                )
                .with_help(
                    "the top level allows name, description, license, compatibility, metadata and allowed-tools: move other fields under `metadata`, or list the key in `[lint] allowed-keys`",
                ),
        };
        out.push(d.with_span(e.key_span));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn did_you_mean_t<'a>(k: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
        let pairs: Vec<(&str, String)> = known.into_iter().map(|c| (c, normalise_key(c))).collect();
        did_you_mean(k, pairs.iter().map(|(c, n)| (*c, n.as_str())), true)
            .map(|m| pairs.iter().find(|p| p.0 == m).unwrap().0)
    }

    #[test]
    fn bounded_distance() {
        assert_eq!(edit_distance_within("model", "modle", 2), Some(1));
        assert_eq!(edit_distance_within("kitten", "sitting", 3), Some(3));
        assert_eq!(edit_distance_within("kitten", "sitting", 2), None);
        assert_eq!(edit_distance_within("abc", "abc", 0), Some(0));
        assert_eq!(edit_distance_within(&"a".repeat(65), "a", 2), None);
    }

    #[test]
    fn suggestions() {
        let known = || SPEC_KEYS.iter().copied().chain(["user-invocable", "model"]);
        assert_eq!(did_you_mean_t("descripton", known()), Some("description"));
        assert_eq!(
            did_you_mean_t("allowed_tools", known()),
            Some("allowed-tools")
        );
        assert_eq!(
            did_you_mean_t("user_invocable", known()),
            Some("user-invocable")
        );
        assert_eq!(did_you_mean_t("licence", known()), Some("license"));
        assert_eq!(did_you_mean_t("Name", known()), Some("name"));
        assert_eq!(did_you_mean_t("source", known()), None);
        assert_eq!(did_you_mean_t("tags", known()), None);
        assert_eq!(
            did_you_mean_t("tools", known().chain(["hooks"])),
            Some("allowed-tools")
        );
        assert_eq!(did_you_mean_t("modle", known()), Some("model"));
        assert_eq!(did_you_mean_t("id", known()), None);
    }

    #[test]
    fn ties_do_not_depend_on_the_order_of_candidates() {
        // skill names come from a HashSet, whose order changes per process
        let one = ["abcd-z", "abcd-y"];
        let other = ["abcd-y", "abcd-z"];
        assert_eq!(did_you_mean_t("abcd-x", one), Some("abcd-y"));
        assert_eq!(did_you_mean_t("abcd-x", other), Some("abcd-y"));
    }
}
