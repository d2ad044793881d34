//! Case-file rules raised while the file is read and parsed.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a case file (`evals/cases/*.json`) or a case source in a
    /// skill's folder (`evals/**/*.json`, `trigger_tests.yaml`) that could
    /// not be read: larger than `[catalog] max-case-bytes` (default 4 MiB),
    /// unreadable (permissions, a broken symlink, a name that is not
    /// UTF-8), or not valid UTF-8 (the rest is then checked with the bad
    /// bytes replaced); and a skill's `evals/` too large (5,000 entries)
    /// or too deep (8 folders) to search, which is then not searched at
    /// all rather than in part.
    ///
    /// ## Why is this bad?
    /// Its trigger prompts and evals silently drop out of Tier 2 and Tier 3.
    pub static UNREADABLE = ("SG400", "case-file-unreadable", Error, "case file could not be read, is too large or is not UTF-8");
}

rule! {
    /// ## What it does
    /// Reports a case file that is not valid JSON (RFC 8259: no comments,
    /// no trailing commas, double-quoted strings, no byte order mark), at the
    /// exact line and column where parsing stopped. Nesting deeper than 64
    /// levels is refused here too. The same holds for the JSON case sources
    /// of a skill's `evals/`: a file named like one (`evals.json`,
    /// `eval_set.json`, `trigger-queries.json`, …, or by `[cases]
    /// trigger-sets`) or lying directly in `evals/`.
    ///
    /// ## Why is this bad?
    /// Every other tool reading the file (`JSON.parse`, `jq`, Python's
    /// `json`) rejects it as well, so none of its cases run.
    ///
    /// ## Example
    /// ```json
    /// { "skill_name": "tdd", "trigger": { "positive": [ { "prompt": "x" }, ] } }
    /// ```
    /// The comma before `]` is an error: remove it.
    pub static JSON_SYNTAX = ("SG401", "case-json-syntax", Error, "case file is not valid JSON");
}

rule! {
    /// ## What it does
    /// Reports a waza trigger-test file (`trigger_tests.yaml`) that is not
    /// valid YAML, at the exact line and column where parsing stopped, and
    /// one whose alias expansion or nesting passes the parser's bounds
    /// (200,000 nodes, 64 levels).
    ///
    /// ## Why is this bad?
    /// waza and every other reader reject it too, so none of its prompts
    /// are routed or run.
    pub static YAML_SYNTAX = ("SG417", "case-yaml-syntax", Error, "a waza trigger-test file is not valid YAML");
}
