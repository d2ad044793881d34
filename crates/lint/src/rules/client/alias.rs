//! SG606: two skills answer to the same name in Claude Code.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a skill whose frontmatter `name` is also another listed
    /// skill's folder or frontmatter name. Claude Code lists both under
    /// their folder names, but `Skill("<name>")` loads the first skill, in
    /// listing order, whose folder or frontmatter name matches.
    ///
    /// ## Why is this bad?
    /// The model picks one skill's description and gets the other's body.
    pub static ALIAS_COLLISION = ("SG606", "skill-name-collision", Warning, "two skills answer to one name in Claude Code's Skill tool");
}
