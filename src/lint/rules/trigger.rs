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
    /// `… should be used when …`, and `Use proactively …`; the list form
    /// large public catalogs use, `USE FOR: a, b. DO NOT USE FOR: c`,
    /// counts by its `USE FOR:`. The equivalent phrasings seen in real
    /// catalogs count too: `Trigger when …`, `Triggers on …`, `Triggers: …`,
    /// `Activate when …`, `Invoke this skill when …`, `Load this skill
    /// when …`, `Apply when …`. Negated clauses (`Do not use when`,
    /// `Don't use for`, `Never use …`, also with a curly apostrophe)
    /// describe exclusions and do not count.
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

/// The description lowercased, curly apostrophes made straight.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\u{2019}' | '\u{2018}' | '\u{02BC}' => out.push('\''),
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// Words (letters, digits, inner apostrophes), and `:` as a word of its own.
fn words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() || (c == '\'' && start.is_some()) {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            out.push(&text[s..i]);
        }
        if c == ':' {
            out.push(&text[i..i + 1]);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

pub fn classify(description: &str) -> Trigger {
    let lower = normalise(description);
    let w = words(&lower);
    let mut negated = false;
    for i in 0..w.len() {
        let connectors: &[&str] = match w[i] {
            "use" => CONNECTORS,
            "used" => USED_CONNECTORS,
            v if TRIGGER_VERBS.contains(&v) => TRIGGER_CONNECTORS,
            _ => continue,
        };
        let mut j = i + 1;
        let mut proactive = false;
        while j < w.len() && j - i <= 3 && FILLERS.contains(&w[j]) {
            proactive |= w[i] == "use" && w[j] == "proactively";
            j += 1;
        }
        // `Use proactively …` says when on its own: whenever it applies
        if !proactive && (j >= w.len() || !connectors.contains(&w[j])) {
            continue;
        }
        let before = |k: usize| i.checked_sub(k).map(|x| w[x]);
        let neg = before(1).is_some_and(|p| NEGATIONS.contains(&p))
            || (before(1) == Some("be") && before(2).is_some_and(|p| NEGATIONS.contains(&p)));
        if neg {
            negated = true;
        } else {
            return Trigger::Present;
        }
    }
    if negated {
        Trigger::OnlyNegated
    } else {
        Trigger::Absent
    }
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
    fn absent() {
        assert_eq!(classify("A library used for parsing."), Trigger::Absent);
        assert_eq!(classify("Useful when stuck."), Trigger::Absent);
        assert_eq!(classify("Helps you use git."), Trigger::Absent);
        assert_eq!(
            classify("Agent skill for x - invoke with $agent-x"),
            Trigger::Absent
        );
        assert_eq!(classify("Do not trigger on drafts."), Trigger::OnlyNegated);
    }
}
