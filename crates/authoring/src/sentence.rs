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
    // "…, or says \"chart this\", \"plot these\"", "… — even if they just
    // say \"…\"", "phrases like \"…\"": the request, then the phrases a
    // user would type, each its own draft
    for verb in USER_SAYS {
        let Some(i) = clause.find(&format!("{verb}\"")) else {
            continue;
        };
        let tail = clause[i + verb.len()..].trim();
        let tail = if tail.matches('"').count() % 2 == 1 {
            format!("{tail}\"")
        } else {
            tail.to_string()
        };
        let Some(phrases) = quoted_list(&tail, 1) else {
            continue;
        };
        // the request before them, without the words that lead to them
        let mut head = &clause[..i];
        for sep in ELABORATIONS {
            if let Some(j) = head.rfind(sep) {
                head = &head[..j];
            }
        }
        // "triggers on phrases like …": the words that name the phrases
        // are no request
        let names_them = head
            .split_whitespace()
            .next_back()
            .is_some_and(|w| PHRASE_WORDS.contains(&w.to_ascii_lowercase().as_str()));
        let mut out = if names_them {
            Vec::new()
        } else {
            sentences(head)
        };
        out.extend(
            phrases
                .iter()
                .filter(|p| p.split_whitespace().count() >= 2)
                .filter_map(|p| finish(p)),
        );
        return out;
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
    for sep in ELABORATIONS {
        if let Some(i) = t.find(sep)
            && t[..i].split_whitespace().count() >= 3
        {
            t.truncate(i);
        }
    }
    let t = balanced_prefix(&t);
    // a long list of requests: as many of its items as fit
    let t = if t.chars().count() > MAX_CHARS {
        let limit = t.char_indices().nth(MAX_CHARS).map_or(t.len(), |(i, _)| i);
        match t[..limit].rfind(", ") {
            Some(i) if t[..i].split_whitespace().count() >= 3 => balanced_prefix(&t[..i]),
            _ => t,
        }
    } else {
        t
    };
    finish(t).into_iter().collect()
}

/// The words before the phrases a user types, quoted.
const USER_SAYS: &[&str] = &[
    " says ",
    " say ",
    " asks ",
    " ask ",
    " asking ",
    " types ",
    " type ",
    " mentions ",
    " mention ",
    " like ",
    " such as ",
];

/// Words that name the quoted phrases after them ("phrases like …").
const PHRASE_WORDS: &[&str] = &[
    "phrase",
    "phrases",
    "request",
    "requests",
    "prompt",
    "prompts",
    "question",
    "questions",
    "keyword",
    "keywords",
    "term",
    "terms",
    "word",
    "words",
    "things",
];

/// First words of a question: its draft ends with `?`.
const QUESTION_WORDS: &[&str] = &[
    "what", "which", "how", "why", "where", "who", "can", "could", "should",
];

/// What introduces an elaboration of a request, dropped from a draft.
const ELABORATIONS: &[&str] = &[" — ", " – ", " -- ", " - ", "; ", ": "];

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
    // trailing punctuation and a dangling `or`/`and`, in any order
    let mut t = t.trim();
    loop {
        let cut = t
            .trim_end_matches([',', ':', ';', '-', '–', '—', '.'])
            .trim_end();
        let cut = cut
            .strip_suffix(" or")
            .or_else(|| cut.strip_suffix(" and"))
            .unwrap_or(cut)
            .trim_end();
        if cut == t {
            break;
        }
        t = cut;
    }
    if t.split_whitespace().count() < 2 || t.chars().count() > MAX_CHARS {
        return None;
    }
    let mut c = t.chars();
    let first = c.next()?;
    let mut s: String = first.to_uppercase().chain(c).collect();
    if !s.ends_with(['?', '!']) {
        let first = s
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        s.push(if QUESTION_WORDS.contains(&first.as_str()) {
            '?'
        } else {
            '.'
        });
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
    fn phrases_after_say_or_like_are_drafts_and_the_lead_in_is_dropped() {
        assert_eq!(
            sentences(
                "checking which apps are installed — even if they just say \"what apps do I have\", \"list my commerce apps\", or \"show installed apps"
            ),
            vec![
                "Checking which apps are installed.",
                "What apps do I have?",
                "List my commerce apps.",
                "Show installed apps."
            ]
        );
        assert_eq!(
            sentences(
                "Triggers on phrases like \"help me get started\", \"onboard me\", or \"first-time setup"
            ),
            vec!["Help me get started.", "Onboard me.", "First-time setup."]
        );
        // a quoted phrase inside a sentence stays in it
        assert_eq!(
            sentences("the user says \"are you sure\" twice"),
            vec!["The user says \"are you sure\" twice."]
        );
    }

    #[test]
    fn a_long_list_of_requests_keeps_the_items_that_fit() {
        let long = "the user needs to validate, package, install, uninstall, list, or pull commerce apps on B2C Commerce instances, view configuration tasks, or pull app sources for cartridge deployment or Storefront Next development";
        let got = sentences(long);
        assert_eq!(
            got,
            vec![
                "The user needs to validate, package, install, uninstall, list, or pull commerce apps on B2C Commerce instances, view configuration tasks."
            ]
        );
        assert_eq!(sentences("a, b, or c,"), vec!["A, b, or c."]);
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
