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
    /// `compatibility`, `metadata`, `allowed-tools`). A key within two
    /// edits of a known one, or differing only in `_` versus `-`, gets a
    /// "did you mean". Keys listed in `[lint] client-keys` are SG110
    /// instead; keys in `[lint] allowed-keys` are accepted silently.
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
    /// with `[lint] client-keys`).
    ///
    /// ## Why is this bad?
    /// The key works in that client only; other clients ignore it or, if
    /// strict, reject the skill. Keep it when you target that client.
    pub static CLIENT_KEY = ("SG110", "client-key", Warning, "frontmatter key is a client-specific extension");
}

/// Edit distance between two short strings (by chars): insertions,
/// deletions, substitutions and swaps of two neighbours each cost one.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// The known key `key` most likely meant: equal ignoring case and `_`/`-`;
/// else within one edit (two for keys longer than five characters); else a
/// known key ending in `-key` (`tools` → `allowed-tools`).
pub fn did_you_mean<'a>(key: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let norm = |k: &str| k.to_lowercase().replace('_', "-");
    let nk = norm(key);
    let nk_chars = nk.chars().count();
    let max = if nk_chars > 5 { 2 } else { 1 };
    let mut best: Option<(usize, &str)> = None;
    for cand in known {
        if cand == key {
            continue;
        }
        let nc = norm(cand);
        // Lengths further apart than `max` cannot be within `max` edits:
        // skipping the distance then keeps a file of thousands of unknown
        // names checked against thousands of skills fast.
        let near = nc.chars().count().abs_diff(nk_chars) <= max;
        let d = if nc == nk {
            0
        } else if let Some(d) = near.then(|| edit_distance(&nk, &nc)).filter(|&d| d <= max) {
            d
        } else if nc.len() > nk.len()
            && nc.ends_with(nk.as_str())
            && nc.as_bytes()[nc.len() - nk.len() - 1] == b'-'
        {
            max + 1
        } else {
            continue;
        };
        // ties go to the alphabetically first candidate, so the answer does
        // not depend on the order of `known` (a HashSet's, for skill names)
        if best.is_none_or(|b| (d, cand) < b) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else { return };
    let lint = &s.ctx.config.lint;
    for e in &fm.entries {
        let key = e.key.as_str();
        if SPEC_KEYS.contains(&key) || lint.allowed_keys.iter().any(|k| k == key) {
            continue;
        }
        if exemption_claim(key, &e.value) {
            continue; // SG203 reports it
        }
        if lint.client_keys.iter().any(|k| k == key) {
            out.push(
                CLIENT_KEY
                    .diag(
                        s.file(),
                        format!("`{key}` is a client-specific key, not part of the Agent Skills specification"),
                    )
                    .with_span(e.key_span)
                    .with_help(format!(
                        "other clients ignore or reject it; keep it only if you target that client, or add `{key}` to `[lint] allowed-keys`"
                    )),
            );
            continue;
        }
        let known = SPEC_KEYS
            .iter()
            .copied()
            .chain(lint.client_keys.iter().map(String::as_str))
            .chain(lint.allowed_keys.iter().map(String::as_str));
        let d = match did_you_mean(key, known) {
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

    #[test]
    fn suggestions() {
        let known = || SPEC_KEYS.iter().copied().chain(["user-invocable", "model"]);
        assert_eq!(did_you_mean("descripton", known()), Some("description"));
        assert_eq!(
            did_you_mean("allowed_tools", known()),
            Some("allowed-tools")
        );
        assert_eq!(
            did_you_mean("user_invocable", known()),
            Some("user-invocable")
        );
        assert_eq!(did_you_mean("licence", known()), Some("license"));
        assert_eq!(did_you_mean("Name", known()), Some("name"));
        assert_eq!(did_you_mean("source", known()), None);
        assert_eq!(did_you_mean("tags", known()), None);
        assert_eq!(
            did_you_mean("tools", known().chain(["hooks"])),
            Some("allowed-tools")
        );
        assert_eq!(did_you_mean("modle", known()), Some("model"));
        assert_eq!(did_you_mean("id", known()), None);
    }

    #[test]
    fn ties_do_not_depend_on_the_order_of_candidates() {
        // skill names come from a HashSet, whose order changes per process
        let one = ["abcd-z", "abcd-y"];
        let other = ["abcd-y", "abcd-z"];
        assert_eq!(did_you_mean("abcd-x", one), Some("abcd-y"));
        assert_eq!(did_you_mean("abcd-x", other), Some("abcd-y"));
    }
}
