//! SG607: Claude Code's YAML retry changes a value.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a `description` or `when_to_use` line that Claude Code's
    /// YAML retry changes: when the frontmatter fails to parse, it quotes
    /// every `key: value` line holding `: ` or a YAML indicator, so a block
    /// scalar header becomes the text `>-`, a comment after ` #` becomes
    /// part of the value, an unmatched quote stays in it.
    ///
    /// ## Why is this bad?
    /// The model reads something else than the author wrote. Strict YAML
    /// parsers reject the file (SG013); Claude Code accepts it mangled.
    pub static RETRY_CHANGED = ("SG607", "yaml-retry-changes-value", Warning, "Claude Code's YAML retry changes what the model reads");
}
