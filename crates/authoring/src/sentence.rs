//! Draft prompts as well-formed sentences: a clause cut out of a
//! description can end inside parentheses ("…data files (malformed rows")
//! or a quotation, or be a list of quoted phrases whose outer quotes were
//! trimmed (`Xfail", "strict xfail`). [`sentences`] repairs what can be
//! repaired and drops what cannot, so `skillsift init` never writes a
//! draft with an unbalanced bracket or quote.

/// Longest draft, in characters; a longer clause is cut at its first
/// elaboration (` — `, `; `, `: `) or dropped.
const MAX_CHARS: usize = 160;

/// The well-formed sentences in `clause`: usually one; one per quoted
/// phrase when the clause is a list of them; none when it cannot be made
/// whole.
pub fn sentences(clause: &str) -> Vec<String> {
    // "…, or says \"chart this\", \"plot these\"": the request, then the
    // phrases a user would type, each its own draft
    for verb in [" says ", " asks ", " types ", " mentions "] {
        if let Some(i) = clause.find(&format!("{verb}\""))
            && let Some(head) = clause[..i]
                .trim_end()
                .strip_suffix(" or")
                .or_else(|| clause[..i].trim_end().strip_suffix(", or"))
                .or_else(|| clause[..i].trim_end().strip_suffix(" and"))
                .map(|h| h.trim_end_matches(',').trim_end())
        {
            let mut out = sentences(head);
            let tail = clause[i + verb.len()..].trim();
            let tail = if tail.matches('"').count() % 2 == 1 {
                format!("{tail}\"")
            } else {
                tail.to_string()
            };
            if let Some(phrases) = quoted_list(&tail, 1) {
                out.extend(
                    phrases
                        .iter()
                        .filter(|p| p.split_whitespace().count() >= 2)
                        .filter_map(|p| finish(p)),
                );
            }
            return out;
        }
    }
    let mut t = clause.trim().to_string();
    // a list of quoted phrases whose first or last quote was trimmed
    let mut wrapped = t.clone();
    if !wrapped.starts_with('"') {
        wrapped.insert(0, '"');
    }
    if !wrapped.ends_with('"') {
        wrapped.push('"');
    }
    if let Some(phrases) = quoted_list(&wrapped, 2) {
        return phrases
            .into_iter()
            .filter(|p| p.split_whitespace().count() >= 2)
            .filter_map(|p| finish(&p))
            .collect();
    }
    // an elaboration after a dash, a semicolon or a colon is dropped
    for sep in [" — ", " – ", " -- ", "; ", ": "] {
        if let Some(i) = t.find(sep)
            && t[..i].split_whitespace().count() >= 3
        {
            t.truncate(i);
        }
    }
    let t = balanced_prefix(&t);
    finish(t).into_iter().collect()
}

/// The phrases of a text that is only quoted phrases and separators
/// (commas, `or`, `and`).
fn quoted_list(t: &str, min: usize) -> Option<Vec<String>> {
    let mut phrases = Vec::new();
    let mut rest = t;
    loop {
        let rest_trim = rest.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
        let rest_trim = rest_trim
            .strip_prefix("or ")
            .or_else(|| rest_trim.strip_prefix("and "))
            .unwrap_or(rest_trim)
            .trim_start();
        if rest_trim.is_empty() {
            break;
        }
        let inner = rest_trim.strip_prefix('"')?;
        let end = inner.find('"')?;
        phrases.push(inner[..end].trim().to_string());
        rest = &inner[end + 1..];
    }
    (phrases.len() >= min).then_some(phrases)
}

/// The longest prefix of `t` in which every bracket and quote that opens
/// also closes: the text before the first one left open.
fn balanced_prefix(t: &str) -> &str {
    let mut open: Vec<(char, usize)> = Vec::new();
    for (i, c) in t.char_indices() {
        match c {
            '(' | '[' | '{' | '“' => open.push((c, i)),
            ')' | ']' | '}' | '”' => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    '}' => '{',
                    _ => '“',
                };
                match open.last() {
                    Some(&(o, _)) if o == want => {
                        open.pop();
                    }
                    // a closer that never opened: only the text before it
                    _ => return &t[..i],
                }
            }
            '"' | '`' => match open.last() {
                Some(&(o, _)) if o == c => {
                    open.pop();
                }
                _ => open.push((c, i)),
            },
            _ => {}
        }
    }
    match open.first() {
        Some(&(_, i)) => &t[..i],
        None => t,
    }
}

/// Capitalised, ending with one full stop (or its own `?`/`!`), at least
/// two words and at most [`MAX_CHARS`]; `None` otherwise.
fn finish(t: &str) -> Option<String> {
    let t = t
        .trim()
        .trim_end_matches([',', ':', ';', '-', '–', '—', '.'])
        .trim_end();
    let t = t
        .strip_suffix(" or")
        .or_else(|| t.strip_suffix(" and"))
        .unwrap_or(t)
        .trim_end();
    if t.split_whitespace().count() < 2 || t.chars().count() > MAX_CHARS {
        return None;
    }
    let mut c = t.chars();
    let first = c.next()?;
    let mut s: String = first.to_uppercase().chain(c).collect();
    if !s.ends_with(['?', '!']) {
        s.push('.');
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::sentences;

    #[test]
    fn a_clause_cut_inside_parentheses_ends_before_them() {
        assert_eq!(
            sentences("Cleaning data files (malformed rows"),
            vec!["Cleaning data files."]
        );
        assert_eq!(
            sentences("Fill in a PDF form (an AcroForm)"),
            vec!["Fill in a PDF form (an AcroForm)."]
        );
    }

    #[test]
    fn a_list_of_quoted_phrases_gives_one_sentence_each() {
        assert_eq!(
            sentences(
                "Xfail\", \"strict xfail\", \"hermetic TDD\", \"reproduce with xfail\", or \"expected failure workflow"
            ),
            vec![
                "Strict xfail.",
                "Hermetic TDD.",
                "Reproduce with xfail.",
                "Expected failure workflow."
            ]
        );
    }

    #[test]
    fn quotes_are_balanced_or_the_text_ends_before_them() {
        assert_eq!(
            sentences("Confirm prior results — including \"are you sure\", \"still true"),
            vec!["Confirm prior results."]
        );
        assert_eq!(
            sentences("the user says \"are you sure\" twice"),
            vec!["The user says \"are you sure\" twice."]
        );
        assert_eq!(sentences("run `cargo test"), Vec::<String>::new());
        for s in sentences("a `b` (c \"d\") [e] “f” g") {
            assert_eq!(s.matches('"').count() % 2, 0);
        }
    }

    #[test]
    fn the_phrases_a_user_types_are_drafts_of_their_own() {
        assert_eq!(
            sentences(
                "plot a table as a bar chart (or a line chart), or says \"chart this\", \"plot these numbers"
            ),
            vec![
                "Plot a table as a bar chart (or a line chart).",
                "Chart this.",
                "Plot these numbers."
            ]
        );
    }

    #[test]
    fn fragments_too_short_or_too_long_are_dropped() {
        assert!(sentences("Charts").is_empty());
        assert!(sentences(&"word ".repeat(60)).is_empty());
        assert_eq!(
            sentences("Filing a GitHub issue — reporting a bug, proposing a feature"),
            vec!["Filing a GitHub issue."]
        );
    }
}
