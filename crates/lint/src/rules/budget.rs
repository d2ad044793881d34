//! The body's line budget.

use super::context::SkillCtx;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Warns when the Markdown body of SKILL.md (everything after the
    /// frontmatter) has more lines than `[lint] line-budget` (default 500).
    /// The diagnostic points at the first line over the budget.
    ///
    /// ## Why is this bad?
    /// A skill's whole SKILL.md enters the agent's context when the skill
    /// loads, on every use. Detail that is not always needed belongs in
    /// supporting files the skill links to and the agent reads on demand.
    pub static LINE_BUDGET = ("SG205", "line-budget", Warning, "SKILL.md body is longer than the line budget");
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let budget = s.env.config.lint.line_budget;
    let n = s.body.len();
    if n <= budget {
        return;
    }
    let Some(first_over) = s.body.line(budget) else {
        return;
    };
    out.push(
        LINE_BUDGET
            .diag(
                s.file(),
                format!("SKILL.md body is {n} lines, over the {budget}-line budget"),
            )
            .with_span(s.line_span(first_over.number))
            .with_label(format!("line {} of the body", budget + 1))
            .with_help("move reference material into supporting files that SKILL.md links to, or raise [lint] line-budget"),
    );
}
