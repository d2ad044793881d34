//! The description's "when to use" trigger clause.

use super::context::SkillCtx;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Warns when the description has no "when to use" clause: `Use when …`,
    /// or `Use` followed by `before`, `after`, `during`, `for`, `if`,
    /// `while` or `whenever` (case-insensitive, with up to three words such
    /// as "this skill" in between: `Use this skill when …`), or
    /// `… should be used when …`, `Use this skill to …` (`Use it to …`),
    /// and `Use proactively …`. The list forms large public catalogs use
    /// count too: `USE FOR: a, b. DO NOT USE FOR: c` by its `USE FOR:`,
    /// `WHEN: "deploy to azure", "azd up"` by its `WHEN:`. The equivalent
    /// phrasings seen in real
    /// catalogs count too: `Trigger when …`, `Triggers on …`, `Triggers: …`,
    /// `Activate when …`, `Invoke this skill when …`, `Load this skill
    /// when …`, `Apply when …`. Negated clauses (`Do not use when`,
    /// `Don't use for`, `Never use …`, also with a curly apostrophe)
    /// describe exclusions and do not count.
    ///
    /// A skill with `disable-model-invocation: true` is not reported when
    /// Claude Code is the only client `[lint] clients` reads: Claude Code
    /// never lists it, so its description routes nothing. When another
    /// linted client (Codex, Gemini CLI, opencode) lists it, the message
    /// says so.
    ///
    /// ## Why is this bad?
    /// Agents pick skills from their descriptions alone. A description that
    /// says what a skill does but not when to use it is loaded too rarely,
    /// or for the wrong tasks.
    ///
    /// ## Example
    /// ```yaml
    /// description: Fills PDF forms. Use when the user asks to fill in or complete a PDF form.
    /// ```
    pub static MISSING_TRIGGER = ("SG201", "missing-trigger", Warning, "description has no \"Use when …\" clause");
}

const CONNECTORS: &[&str] = &[
    "when", "whenever", "before", "after", "during", "for", "if", "while",
];
/// `Use this skill to …` says what the skill is for as plainly as `Use
/// for …`; the word before `to` must be a filler (`Use this skill to`,
/// `Use it to`) or `use` itself (`Use to`).
const USE_CONNECTORS: &[&str] = &[
    "when", "whenever", "before", "after", "during", "for", "if", "while", "to",
];
const USED_CONNECTORS: &[&str] = &[
    "when", "whenever", "before", "after", "during", "if", "while",
];
const TRIGGER_CONNECTORS: &[&str] = &[
    "when", "whenever", "before", "after", "during", "if", "while", "on", "for", ":",
];
const TRIGGER_VERBS: &[&str] = &[
    "trigger",
    "triggers",
    "triggered",
    "activate",
    "activates",
    "activated",
    "invoke",
    "invokes",
    "invoked",
    "load",
    "loads",
    "apply",
    "applies",
];
const FILLERS: &[&str] = &[
    "this",
    "these",
    "the",
    "skill",
    "skills",
    "it",
    "me",
    "them",
    "agent",
    "proactively",
    "only",
    "especially",
    "automatically",
];
const NEGATIONS: &[&str] = &[
    "not",
    "never",
    "don't",
    "dont",
    "doesn't",
    "shouldn't",
    "mustn't",
    "cannot",
    "can't",
    "no",
];

/// What the description's trigger clauses look like.
#[derive(Debug, PartialEq, Eq)]
pub enum Trigger {
    /// At least one positive clause.
    Present,
    /// Only negated clauses.
    OnlyNegated,
    Absent,
}

/// The description lowercased, curly apostrophes made straight, and the
/// byte offset in `text` where each byte of the result comes from (one
/// more entry, for the end).
fn normalise(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut from = Vec::with_capacity(text.len() + 1);
    for (i, c) in text.char_indices() {
        let before = out.len();
        match c {
            '\u{2019}' | '\u{2018}' | '\u{02BC}' => out.push('\''),
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => out.extend(c.to_lowercase()),
        }
        from.resize(out.len(), i);
        debug_assert!(out.len() > before);
    }
    from.push(text.len());
    (out, from)
}

/// A word of the normalised text and where it is in it.
#[derive(Debug, Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

/// Words (letters, digits, inner apostrophes), and `:` as a word of its own.
fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let word = |s: usize, e: usize| Word {
        text: &text[s..e],
        start: s,
        end: e,
    };
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() || (c == '\'' && start.is_some()) {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            out.push(word(s, i));
        }
        if c == ':' {
            out.push(word(i, i + 1));
        }
    }
    if let Some(s) = start {
        out.push(word(s, text.len()));
    }
    out
}

/// A trigger phrase found in a description.
#[derive(Debug, Clone, Copy)]
struct Phrase {
    /// Byte offset (in the normalised text) where it starts and where the
    /// clause it introduces starts.
    start: usize,
    clause: usize,
    /// `for` lists (`USE FOR: a, b`) name several cases at once.
    list: bool,
    negated: bool,
}

/// Every trigger phrase of the normalised text, in order.
fn phrases(w: &[Word]) -> Vec<Phrase> {
    let mut out = Vec::new();
    for i in 0..w.len() {
        // `WHEN: "deploy to azure", "azd up"`: a list of cases on its own,
        // unless a phrase before it (`Use when:`) already introduced it
        if w[i].text == "when" && w.get(i + 1).is_some_and(|n| n.text == ":") {
            if out
                .last()
                .is_some_and(|p: &Phrase| p.clause >= w[i + 1].end)
            {
                continue;
            }
            let negated = i
                .checked_sub(1)
                .is_some_and(|k| NEGATIONS.contains(&w[k].text));
            out.push(Phrase {
                start: if negated { w[i - 1].start } else { w[i].start },
                clause: w[i + 1].end,
                list: true,
                negated,
            });
            continue;
        }
        let connectors: &[&str] = match w[i].text {
            "use" => USE_CONNECTORS,
            "used" => USED_CONNECTORS,
            v if TRIGGER_VERBS.contains(&v) => TRIGGER_CONNECTORS,
            _ => continue,
        };
        let mut j = i + 1;
        let mut proactive = false;
        while j < w.len() && j - i <= 3 && FILLERS.contains(&w[j].text) {
            proactive |= w[i].text == "use" && w[j].text == "proactively";
            j += 1;
        }
        let connected = j < w.len() && connectors.contains(&w[j].text);
        // `Use proactively …` says when on its own: whenever it applies
        if !proactive && !connected {
            continue;
        }
        let mut clause = if connected { w[j].end } else { w[j - 1].end };
        let list = connected && w[j].text == "for";
        if connected && w.get(j + 1).is_some_and(|n| n.text == ":") {
            clause = w[j + 1].end;
        }
        let before = |k: usize| i.checked_sub(k).map(|x| w[x].text);
        let negated = before(1).is_some_and(|p| NEGATIONS.contains(&p))
            || (before(1) == Some("be") && before(2).is_some_and(|p| NEGATIONS.contains(&p)));
        let start = match (negated, before(1), before(2)) {
            (true, Some("be"), _) => w[i - 2].start,
            (true, _, _) => w[i - 1].start,
            _ => w[i].start,
        };
        // `do not use`: the phrase starts at `do`
        let start = if negated && i >= 2 && w[i - 2].text == "do" && before(1) == Some("not") {
            w[i - 2].start
        } else {
            start
        };
        out.push(Phrase {
            start,
            clause,
            list,
            negated,
        });
    }
    out
}

pub fn classify(description: &str) -> Trigger {
    let (lower, _) = normalise(description);
    let found = phrases(&words(&lower));
    if found.iter().any(|p| !p.negated) {
        Trigger::Present
    } else if found.is_empty() {
        Trigger::Absent
    } else {
        Trigger::OnlyNegated
    }
}

/// Lead-ins a "Use when" clause starts with that are about the user, not
/// the request.
const LEAD_INS: &[&str] = &[
    "the user asks you to ",
    "the user asks to ",
    "the user asks for ",
    "the user asks about ",
    "the user asks ",
    "the user wants to ",
    "the user wants ",
    "the user needs to ",
    "the user needs ",
    "the user mentions ",
    "the user says ",
    "the user shares ",
    "the user has ",
    "the user is ",
    "users ask to ",
    "users ask for ",
    "users ask about ",
    "users want to ",
    "a user asks to ",
    "a user asks for ",
    "asked to ",
    "asked for ",
    "you need to ",
    "you are asked to ",
    "working with ",
    "dealing with ",
];

/// A clause split where it names another case: `X, or when Y` is `X` and
/// `Y`.
fn split_alternatives(text: &str) -> Vec<&str> {
    let lower = text.to_ascii_lowercase();
    let mut cuts = Vec::new();
    let mut from = 0;
    while let Some(i) = lower[from..].find(" or ").map(|i| from + i) {
        let rest = &lower[i + 4..];
        let word = rest
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        if CONNECTORS.contains(&word) && word != "for" {
            let start = if lower[..i].ends_with(',') { i - 1 } else { i };
            cuts.push((start, i + 4 + word.len()));
        }
        from = i + 4;
    }
    let mut out = Vec::new();
    let mut at = 0;
    for (s, e) in cuts {
        out.push(&text[at..s]);
        at = e;
    }
    out.push(&text[at..]);
    out
}

/// The cases a description's positive "when to use" clauses name, as
/// short requests: `Use when the user asks to fill in a PDF form, or when
/// a form must be flattened.` gives "Fill in a PDF form" and "A form must
/// be flattened"; `USE FOR: charts, plots.` gives "Charts" and "Plots". A clause ends at the end of its sentence or at the next
/// trigger phrase. What `skillsift init` drafts positive prompts from.
pub fn clauses(description: &str) -> Vec<String> {
    let (lower, from) = normalise(description);
    let found = phrases(&words(&lower));
    let mut out: Vec<String> = Vec::new();
    for (k, p) in found.iter().enumerate() {
        if p.negated {
            continue;
        }
        let next = found.get(k + 1).map_or(lower.len(), |n| n.start);
        let rest = &lower[p.clause..next];
        let end = rest
            .char_indices()
            .find(|&(i, c)| {
                matches!(c, ';' | '!' | '?' | '\n')
                    || (c == '.' && rest[i + 1..].chars().next().is_none_or(char::is_whitespace))
            })
            .map_or(rest.len(), |(i, _)| i);
        let text = &description[from[p.clause]..from[p.clause + end]];
        let parts: Vec<&str> = if p.list {
            text.split(',').collect()
        } else {
            split_alternatives(text)
        };
        for part in parts {
            let mut t = part
                .trim()
                .trim_matches(|c: char| c == '"' || c == '*' || c == '`');
            let starts = |t: &str, lead: &str| {
                t.len() > lead.len()
                    && t.get(..lead.len())
                        .is_some_and(|h| h.eq_ignore_ascii_case(lead))
            };
            for lead in ["or ", "and ", "e.g. "] {
                if starts(t, lead) {
                    t = &t[lead.len()..];
                }
            }
            if let Some(lead) = LEAD_INS.iter().find(|l| starts(t, l)) {
                t = &t[lead.len()..];
            }
            let t = t.trim().trim_end_matches([',', ':', '-', '–', '—']).trim();
            if t.chars().count() < 3 {
                continue;
            }
            let mut c = t.chars();
            let shown: String = match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => continue,
            };
            if !out.iter().any(|o| o.eq_ignore_ascii_case(&shown)) {
                out.push(shown);
            }
        }
    }
    out
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else { return };
    let Some(d) = fm.str("description") else {
        return;
    };
    if d.value.trim().is_empty() {
        return;
    }
    let message = match classify(d.value) {
        Trigger::Present => return,
        Trigger::OnlyNegated => {
            "the description's only \"use when\" clause is negated: it says when not to use the skill, never when to use it"
        }
        Trigger::Absent => "the description has no \"Use when …\" clause",
    };
    // `disable-model-invocation: true` keeps the skill from Claude Code's
    // listing: its description routes nothing there, so the clause only
    // matters to the linted clients that do list it
    let hidden = matches!(
        crate::client::claude_code::read(s.skill).hidden,
        Some(crate::client::Hidden::DisableModelInvocation { .. })
    );
    let listing: Vec<&str> = if hidden {
        let config = s.env.config;
        let others: Vec<&str> = config
            .lint
            .linted_clients(config.route.client)
            .into_iter()
            .filter(|c| *c != crate::client::ClientId::ClaudeCode)
            .map(|c| c.label())
            .collect();
        if others.is_empty() {
            return;
        }
        others
    } else {
        Vec::new()
    };
    let message = if listing.is_empty() {
        message.to_string()
    } else {
        format!(
            "{message} (Claude Code does not list the skill, `disable-model-invocation: true`, but {} does)",
            listing.join(" and ")
        )
    };
    out.push(
        MISSING_TRIGGER
            .diag(s.file(), message)
            .with_span(d.span)
            .with_help("add a sentence such as \"Use when the user asks to …\" saying when an agent should load the skill"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_forms_count() {
        for d in [
            "Fills forms. Use when a form must be filled.",
            "USE WHEN asked.",
            "Use this skill when tests fail.",
            "Use before merging.",
            "Use after a deploy.",
            "Use during review.",
            "Use for PDF work.",
            "Use if the build breaks.",
            "This skill should be used when the user asks.",
            "TRIGGER when user asks to fix CI.",
            "Triggers on \"agent swarm\".",
            "Triggers: flux, flux dev.",
            "Activate when user mentions wiki.",
            "Auto-activates when generating docs.",
            "INVOKE THIS SKILL when creating datasets.",
            "Load this skill when asked to deploy.",
            "Use PROACTIVELY when creating services.",
            "Use proactively to review code after every change.",
            "Reviews code. Use proactively.",
            "Azure deploys. USE FOR: deploy to azure, azd up. DO NOT USE FOR: AWS.",
            "**USE FOR:** charts, plots.",
            "Use for generating release notes.",
            "Use it when the build is red.",
            "Use it whenever a migration is planned.",
            "Use this skill to generate release notes.",
            "Use it to draft a changelog.",
            "Reviews docs. WHEN: \"review content\", \"AI content audit\". DO NOT USE FOR: code.",
            "**WHEN:** the build is red.",
        ] {
            assert_eq!(classify(d), Trigger::Present, "{d}");
        }
    }

    #[test]
    fn negated_forms_do_not_count() {
        for d in [
            "Do not use when tests fail.",
            "Don't use for PDFs.",
            "Don\u{2019}t use for PDFs.",
            "Never use during review. Do not use when idle.",
            "Should not be used when offline.",
            "DO NOT USE FOR: AWS deployments.",
            "Never use proactively.",
        ] {
            assert_eq!(classify(d), Trigger::OnlyNegated, "{d}");
        }
        assert_eq!(
            classify("Do not use for PDFs. Use when editing Word files."),
            Trigger::Present
        );
    }

    #[test]
    fn clauses_are_the_requests_after_each_positive_phrase() {
        assert_eq!(
            clauses(
                "Fills PDF forms. Use when the user asks to fill in or complete a PDF form. Do not use for merging PDFs."
            ),
            ["Fill in or complete a PDF form"]
        );
        assert_eq!(
            clauses(
                "Azure deploys. USE FOR: deploy to azure, azd up, or provision infra. DO NOT USE FOR: AWS."
            ),
            ["Deploy to azure", "Azd up", "Provision infra"]
        );
        assert_eq!(
            clauses("Use this skill when tests are flaky; use it before a release."),
            ["Tests are flaky", "A release"]
        );
        assert_eq!(
            clauses("Reviews code. Use proactively after edits."),
            ["Edits"]
        );
        assert_eq!(
            clauses(
                "Use when the user asks to compile a report, or when a month's expenses must be totalled."
            ),
            ["Compile a report", "A month's expenses must be totalled"]
        );
        assert_eq!(
            clauses(
                "Reviews docs. WHEN: \"review content\", \"AI content audit\". DO NOT USE FOR: code."
            ),
            ["Review content", "AI content audit"]
        );
        assert_eq!(
            clauses("Use this skill to generate release notes."),
            ["Generate release notes"]
        );
        assert_eq!(clauses("Use when: a deploy fails."), ["A deploy fails"]);
        assert!(clauses("A library used for parsing.").is_empty());
        assert_eq!(
            clauses("Über Formulare. Use when a Ümlaut form v1.2 must be filled."),
            ["A Ümlaut form v1.2 must be filled"]
        );
    }

    #[test]
    fn absent() {
        assert_eq!(classify("A library used for parsing."), Trigger::Absent);
        assert_eq!(classify("Useful when stuck."), Trigger::Absent);
        assert_eq!(classify("Helps you use git."), Trigger::Absent);
        assert_eq!(
            classify("Agent skill for x - invoke with $agent-x"),
            Trigger::Absent
        );
        assert_eq!(classify("Do not trigger on drafts."), Trigger::OnlyNegated);
        assert_eq!(classify("Not when: drafts."), Trigger::OnlyNegated);
        assert_eq!(classify("It used to parse YAML."), Trigger::Absent);
        assert_eq!(classify("Lets agents use git to commit."), Trigger::Absent);
    }
}
