//! SG602: the description the model sees is the body's first line.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a skill whose listing entry in Claude Code is not a
    /// description but the first non-empty line of the body (`#`s
    /// stripped, cut at 100 characters), because `description` is missing,
    /// empty, null, a list or a mapping, or the frontmatter was dropped.
    ///
    /// ## Why is this bad?
    /// A heading such as `# PDF tools` says nothing about when to use the
    /// skill; the model routes on it anyway. The specification rejects the
    /// file (SG104), Claude Code accepts it silently.
    pub static FROM_BODY = ("SG602", "description-from-body", Warning, "Claude Code shows the body's first line as the description");
}
