//! SG412: a fixture path that is absolute or leaves `evals/fixtures/`.
//! Raised by [`super::fixtures::check`], which resolves each path once.

use crate::rule;

rule! {
    /// ## What it does
    /// Refuses an eval's `files[]` entry that is absolute (`/etc`, `C:\x`),
    /// has a `..` component, or resolves outside the folder it is relative
    /// to (`evals/fixtures/`; the skill folder in a skill's `evals.json`)
    /// through a symlink: the path itself, a folder on the way, or any
    /// symlink inside a fixture folder.
    ///
    /// ## Why is this bad?
    /// Tier 3 copies fixtures into the agent's workspace. A path that
    /// leaves the fixtures folder would hand the agent (and the grader's
    /// logs) files from the machine running CI: keys, tokens, home folders.
    ///
    /// ## Example
    /// `"files": ["../../.ssh"]` is refused; write `"files": ["my-skill"]`
    /// for `evals/fixtures/my-skill/`.
    pub static FIXTURE_ESCAPE = ("SG412", "fixture-escape", Error, "a fixture path is absolute or escapes evals/fixtures/");
}
