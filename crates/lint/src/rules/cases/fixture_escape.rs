//! SG412: a fixture path that is absolute or leaves `evals/fixtures/`.
//! Raised by [`super::fixtures::check`], which resolves each path once.

use crate::rule;

rule! {
    /// ## What it does
    /// Refuses an eval's `files[]` entry that is absolute (`/etc`, `C:\x`),
    /// has a `..` component, or resolves outside the folder it is relative
    /// to (`evals/fixtures/`; the skill folder in a skill's `evals.json`)
    /// through a symlink: the path itself, a folder on the way, or any
    /// symlink inside a fixture folder. Also refuses a path that names a
    /// `.git` file or folder, or a fixture folder that holds one.
    ///
    /// ## Why is this bad?
    /// Tier 3 copies fixtures into the agent's workspace. A path that
    /// leaves the fixtures folder would hand the agent (and the grader's
    /// logs) files from the machine running CI: keys, tokens, home folders.
    /// A `.git` of the fixture's would replace the workspace repository's
    /// own configuration, which git obeys while skillsift sets the
    /// workspace up: `[core] fsmonitor = "sh -c …"` runs a command on the
    /// machine running CI before any agent starts.
    ///
    /// ## Example
    /// `"files": ["../../.ssh"]` and `"files": ["proj/.git"]` are refused;
    /// write `"files": ["my-skill"]` for `evals/fixtures/my-skill/` (a
    /// project folder without its `.git`: skillsift commits the files in a
    /// fresh repository of its own).
    pub static FIXTURE_ESCAPE = ("SG412", "fixture-escape", Error, "a fixture path is absolute, escapes evals/fixtures/ or names .git");
}
