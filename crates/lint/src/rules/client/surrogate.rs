//! SG603: the entry cut splits a character in two.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a listing entry whose cut at 1,536 UTF-16 code units (SG521)
    /// falls inside a character outside the Basic Multilingual Plane (an
    /// emoji, a rare CJK character): Claude Code counts UTF-16 units, keeps
    /// half of the pair, and the model receives U+FFFD (�).
    ///
    /// ## Why is this bad?
    /// The entry ends in a replacement character; shortening the entry
    /// fixes both findings.
    pub static SURROGATE_SPLIT = ("SG603", "entry-cut-splits-character", Warning, "Claude Code's entry cut splits a character into U+FFFD");
}
