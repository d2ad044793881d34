//! SG436: a case file at the catalog root is named for a skill the
//! catalog lacks.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a file of a root-level case layout whose folder or file name
    /// matches no skill of the catalog (its frontmatter `name`, else its
    /// folder):
    /// `evals/<skill>/trigger-eval.json` and `evals/triggers/<skill>.json`
    /// (skill-creator trigger arrays), `tests/<skill>/trigger_tests.yaml`
    /// (waza / sensei).
    ///
    /// ## Why is this bad?
    /// The layout files cases under the skill's name, so a file named for
    /// no skill tests nothing: a skill that was renamed or removed, or a
    /// typo. Its prompts are not routed and not run.
    ///
    /// ## Example
    /// ```text
    /// skills/code-review/SKILL.md        name: code-review
    /// tests/review-code/trigger_tests.yaml
    /// ```
    ///
    /// ## How to fix
    /// Rename the folder (or file) to the skill's `name`, or delete it
    /// when the skill is gone.
    pub static UNKNOWN_SKILL_FILE = ("SG436", "case-layout-unknown-skill", Warning, "a root-level case file is named for a skill the catalog lacks");
}
