//! SG019: a folder named `SKILL.md`.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a folder named `SKILL.md` in a skills root or a skill folder.
    /// The walk still looks for skills inside it.
    ///
    /// ## Why is this bad?
    /// Clients read `SKILL.md` as a file: a folder of that name is no
    /// skill, so the skill its parent was meant to be is never listed, and
    /// nothing says why.
    ///
    /// ## Example
    /// `skills/pdf/SKILL.md/README.md`: an unzip or a copy that put the
    /// file one level too deep.
    ///
    /// ## How to fix
    /// Move the skill's text into a file `skills/pdf/SKILL.md` and remove
    /// the folder.
    pub static SKILL_MD_FOLDER = ("SG019", "skill-md-folder", Error, "a folder is named SKILL.md");
}
