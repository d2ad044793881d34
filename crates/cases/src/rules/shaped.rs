//! SG437 and SG438: trigger tests found by shape that are not read in full.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports what a file holds that looks like trigger tests but that
    /// Tier 2 cannot route: a prompt that names no skill in a file outside
    /// every skill's folder, a record that says which skill or side but has
    /// no prompt text, a prompt that expects no skill at all.
    ///
    /// Trigger tests are found by shape, in JSON, JSONL and YAML files in a
    /// skill's folder (beside SKILL.md, under `evals/`, `tests/`, `test/`)
    /// and at the catalog root (its own files, `evals/`, `tests/`, `test/`):
    /// records with a prompt field (`prompt`, `query`, `user_prompt`,
    /// `utterance`, `question`, `input`, `text`, …) and a field naming the
    /// skill (`expect`, `expected_skill(s)`, `skill`, `skill_name`,
    /// `target`, `route_to`, `label`, …) or saying whether it should fire
    /// (`should_trigger`, `should_activate`, `trigger`, `fires`, …); lists
    /// of prompts under a key that says the side (`should_trigger`,
    /// `should_not_trigger`, `positive`, `negatives`, …); either under a
    /// key that is a skill's name. A prompt's skill comes from its record,
    /// an enclosing object or key, else the skill folder holding the file,
    /// else a folder or file stem on its path named for a skill. CSV files
    /// are read when their header says it all (`id,should_trigger,prompt`,
    /// `prompt,expected_skill`); Markdown files named for prompts
    /// (`prompts.md`) when their lists of quoted prompts sit under headings
    /// or markers that say should / should not. A file named like trigger
    /// tests anywhere else in the catalog is named with the
    /// `[[cases.sources]]` table that would read it.
    ///
    /// A prompt's side comes only from what its record says: a boolean
    /// (`should_trigger`, `expected: true`), a side word (`"side":
    /// "negative"`, `"kind": "should-not-trigger"`, an id such as
    /// `negative-3`), an expected skill (a skill: positive for it; `null` or
    /// `"none"`: a negative for every skill), or the list it stands in. A
    /// folder, a key named for a skill or a `skill` field says whose prompt
    /// it is, never its side: a record that says no side is not routed and
    /// is counted here.
    ///
    /// ## Why is this bad?
    /// The author wrote these prompts to be checked. Left unread without a
    /// word, `check` reports a green run over fewer prompts than the
    /// catalog holds.
    ///
    /// ## Example
    /// ```json
    /// {"cases": [{"prompt": "fill in this W-9", "should_trigger": true}]}
    /// ```
    /// at `tests/routing.json`, in no skill's folder and naming no skill.
    ///
    /// ## How to fix
    /// Name the skill in each record (`"expect": "pdf-forms"`), put the
    /// prompts under a key named for the skill, or move the file into the
    /// skill's folder; list a file that is not trigger tests in
    /// `[cases] ignore`.
    pub static NOT_READ = ("SG437", "trigger-tests-not-read", Notice, "trigger tests found by shape are not read in full");
}

rule! {
    /// ## What it does
    /// Reports prompts, found by shape, that belong to a skill the catalog
    /// does not have (by frontmatter `name`, else folder), counted per
    /// skill name and file.
    ///
    /// ## Why is this bad?
    /// A renamed or removed skill, or a typo: those prompts test nothing.
    ///
    /// ## Example
    /// ```json
    /// [{"prompt": "fill in this W-9", "expected_skill": "pdf-form"}]
    /// ```
    /// where the skill is called `pdf-forms`.
    ///
    /// ## How to fix
    /// Name the skill as the catalog does, or remove the prompts of a
    /// skill that is gone.
    pub static UNKNOWN_SKILL = ("SG438", "trigger-tests-unknown-skill", Warning, "prompts found by shape belong to a skill the catalog lacks");
}
