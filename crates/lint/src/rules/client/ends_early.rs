//! SG600: the frontmatter ends early at a `---` inside a value.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a `---` inside a frontmatter value (mid-line, as in
    /// `description: Convert A---B`, or on its own line inside a quoted
    /// multi-line value) where Claude Code ends the frontmatter: it splits
    /// at the first `---` anywhere after the opening line.
    ///
    /// ## Why is this bad?
    /// The model sees the value cut at the dashes (`Convert A`), and every
    /// key after them is read as Markdown body. skillsift's own parser and
    /// other YAML readers read the whole value, so nothing else warns.
    ///
    /// ## Example
    /// `description: Convert A---B` → write `Convert A—B` or `Convert A to B`.
    pub static ENDS_EARLY = ("SG600", "frontmatter-ends-early", Warning, "Claude Code ends the frontmatter at a `---` inside a value");
}
