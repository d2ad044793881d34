//! SG608: a number or boolean shown as text.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a `description` or `when_to_use` that YAML reads as a number
    /// or boolean and Claude Code shows as JavaScript prints it, when that
    /// differs from what was written (`1.10` → `1.1`, `0x10` → `16`,
    /// `True` → `true`).
    ///
    /// ## Why is this bad?
    /// The specification rejects a non-string description (SG104); Claude
    /// Code shows another text than the author's. Quote the value.
    pub static NOT_A_STRING = ("SG608", "value-shown-as-number", Warning, "Claude Code shows a number or boolean differently than written");
}
