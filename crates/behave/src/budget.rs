//! Before money is spent: whether a plan can reach a verdict at all, and
//! what its runs will cost at least.
//!
//! The scorer answers "insufficient" (exit 3) when there are fewer than
//! [`MIN_CASES`] distinct cases overall, or fewer than that many with a
//! task check when there are task checks (`score::evaluate`). A plan with
//! that shape is known to end there before its first run, so `check
//! --behavioral` says so at the top of the dry run and refuses to start it
//! without `--allow-insufficient`, naming what can still be computed.

use super::build::Built;
use super::plan::{CaseKind, PlanDoc};
use crate::score::MIN_CASES;
use crate::score::input::prompt_key;
use std::collections::HashSet;

/// How far a plan is from a verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sufficiency {
    /// Distinct case prompts (the scorer's count).
    pub distinct: usize,
    /// Distinct prompts with a task check (evals).
    pub task: usize,
    /// Trigger prompts, positive and negative.
    pub positives: usize,
    pub negatives: usize,
}

impl Sufficiency {
    pub fn of(plan: &PlanDoc) -> Sufficiency {
        let distinct = |eval_only: bool| {
            plan.cases
                .iter()
                .filter(|c| !eval_only || c.kind.is_eval())
                .map(|c| prompt_key(&c.prompt))
                .collect::<HashSet<_>>()
                .len()
        };
        let triggers = |expect: bool| {
            plan.cases
                .iter()
                .filter(|c| c.kind == CaseKind::Trigger && c.expect_trigger == expect)
                .count()
        };
        Sufficiency {
            distinct: distinct(false),
            task: distinct(true),
            positives: triggers(true),
            negatives: triggers(false),
        }
    }

    /// The scorer's rule.
    pub fn insufficient(&self) -> bool {
        self.distinct < MIN_CASES || (self.task > 0 && self.task < MIN_CASES)
    }

    /// What is missing, what can still be computed and what cannot.
    pub fn message(&self) -> String {
        let mut short = Vec::new();
        if self.distinct < MIN_CASES {
            short.push(format!(
                "{} distinct case{} where the scorer needs {MIN_CASES}",
                self.distinct,
                if self.distinct == 1 { "" } else { "s" }
            ));
        }
        if self.task > 0 && self.task < MIN_CASES {
            short.push(format!(
                "{} eval{} with a task check where it needs {MIN_CASES}",
                self.task,
                if self.task == 1 { "" } else { "s" }
            ));
        }
        let mut can = Vec::new();
        if self.positives + self.negatives > 0 {
            can.push(format!(
                "the trigger confusion counts, precision, recall and F1 over {} positive and {}",
                self.positives,
                crate::base::plural::count(self.negatives, "negative prompt")
            ));
        }
        can.push(format!(
            "the pass rates of both arms and each expectation's verdicts over {}",
            crate::base::plural::count(self.task, "eval")
        ));
        format!(
            "this plan cannot reach a verdict: {}; the scorer will answer \"insufficient\" (exit 3). Still computed: {}. Not computed: a pass or fail verdict, so no gate (--min-trigger-f1, --min-uplift, --min-quality-delta) decides the exit code",
            short.join(" and "),
            can.join("; ")
        )
    }
}

/// The help of a refused plan for `skill`, which holds `written` trigger
/// prompts: `init` drafts a trigger set only for a skill without any, so
/// it is named only then.
pub fn add_cases(skill: &str, written: usize) -> String {
    let skill = crate::escape::line(skill);
    let how = if written == 0 {
        format!("`skillsift init {skill}` drafts a trigger set")
    } else {
        format!("`skillsift cases {skill}` lists the files its {written} are written in")
    };
    format!(
        "add trigger prompts and evals until there are 10 distinct cases (and 10 evals when there are evals; {how}), or pass --allow-insufficient to spend on the runs anyway"
    )
}

/// A printable prompt: at most `max` characters, control and format
/// characters escaped, in double quotes.
pub fn shown_prompt(prompt: &str, max: usize) -> String {
    let n = prompt.chars().count();
    let cut: String = prompt.chars().take(max).collect();
    // Debug quotes and escapes; base::escape then catches what Debug
    // leaves printable (the invisible format characters it passes)
    let mut s = crate::escape::text(&format!("{:?}", cut)).into_owned();
    if n > max {
        s.push_str(&format!(" (… {} more characters)", n - max));
    }
    s
}

/// A lower bound of the characters a skill's listing entry carries: its
/// name and the first line of its `description` (the client's wrapping,
/// and the rest of a folded description, only add).
pub fn entry_floor(tree: &super::workspace::Tree, name: &str) -> usize {
    let md = tree
        .items
        .iter()
        .find(|i| i.rel == "SKILL.md")
        .and_then(|i| i.bytes.as_ref())
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default();
    let description = md
        .lines()
        .skip(1)
        .take_while(|l| l.trim_end() != "---")
        .find_map(|l| l.strip_prefix("description:"))
        .map(|d| {
            d.trim()
                .trim_matches(|c| c == '"' || c == '\'')
                .chars()
                .count()
        })
        .unwrap_or(0);
    name.chars().count() + description
}

/// A lower bound of what a run of `b`'s case `ci` sends the model, in
/// characters: the prompt, and the listing entries of what its arm
/// installs (the skill in `with` runs, a baseline version in baseline runs,
/// siblings in both).
pub fn input_floor(b: &Built, ci: usize, with: bool) -> usize {
    let name = &b.plan.skill.name;
    let own = match (with, &b.baseline_tree) {
        (true, _) => entry_floor(&b.skill_tree, name),
        (false, Some(t)) => entry_floor(t, name),
        (false, None) => 0,
    };
    let siblings: usize = b.siblings.iter().map(|(n, t)| entry_floor(t, n)).sum();
    b.plan.cases[ci].prompt.chars().count() + own + siblings
}

/// What the first model request of a run of `b`'s case `ci` carries, in
/// bytes: the client's own part ([`RequestSize`](super::agent::RequestSize):
/// system prompt, tool definitions, its skills section when a skill is
/// listed) and [`input_floor`]. `None` for a runner (its requests are its
/// own).
pub fn first_request(b: &Built, ci: usize, with: bool) -> Option<usize> {
    let a = b.mode.agent()?;
    let size = a.agent.request_size();
    let listed = (with || b.baseline_tree.is_some()) || !b.siblings.is_empty();
    Some(size.agent + if listed { size.skills_section } else { 0 } + input_floor(b, ci, with))
}

/// What a grading request carries before its prompt (the transcript and
/// the expectations), in bytes; `None` for a runner.
pub fn grader_request(b: &Built) -> Option<usize> {
    Some(b.mode.agent()?.grader().request_size().grader)
}

/// ≈ tokens of `chars` characters (4 characters a token, rounded up).
pub fn tokens(chars: usize) -> usize {
    chars.div_ceil(4)
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_advice_names_init_only_for_a_skill_without_prompts() {
        assert!(add_cases("pdf", 0).contains("`skillsift init pdf` drafts a trigger set"));
        let some = add_cases("pdf", 4);
        assert!(some.contains("`skillsift cases pdf` lists the files its 4 are written in"));
        assert!(!some.contains("init"));
    }

    use super::*;

    #[test]
    fn prompts_are_bounded_and_escaped() {
        assert_eq!(
            shown_prompt("fix it\n\u{202e}", 100),
            "\"fix it\\n\\u{202e}\""
        );
        assert_eq!(shown_prompt("abcdef", 3), "\"abc\" (… 3 more characters)");
    }
}
