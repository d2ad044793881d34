//! SG614: a `model` Claude Code cannot use.

use crate::rule;

rule! {
    /// ## What it does
    /// Warns about a skill's `model` that Claude Code 2.1.197 cannot use.
    /// The CLI trims a string `model`; `inherit` keeps the session's model;
    /// the aliases `sonnet`, `opus`, `haiku`, `opusplan`, `best` and
    /// `fable` (any case, `[1m]` allowed) resolve to a Claude model; any
    /// other string is kept **as the model id** (`Bo` returns it as
    /// written) for the skill's turns, unless an `availableModels`
    /// allowlist excludes it (then the session's model stays). This is read
    /// from the code only: in a `-p` loopback run, the request after a
    /// `Skill` call kept the session's model even for `model: haiku`, so a
    /// run does not show the switch. A value that is neither an alias nor a Claude model id
    /// (`gpt-4o`, `gemini-2.5-pro`, `sonnet-4`, `default`) is reported, and
    /// so is a `model` that is not a string (a number, a list), which the
    /// CLI ignores: the skill runs on the session's model.
    ///
    /// Values holding `claude` (any provider's spelling: `claude-sonnet-4-5`,
    /// `us.anthropic.claude-…`, `claude-…@2025…`) and Bedrock ARNs are
    /// taken as Claude model ids; whether the account has that model is
    /// not known here.
    ///
    /// ## Why is this bad?
    /// An id the API does not serve fails the skill's requests; a model
    /// written for another client (`gpt-4o`) means nothing to Claude Code.
    ///
    /// ## Example
    /// ```yaml
    /// model: haiku
    /// ```
    pub static UNUSABLE_MODEL = ("SG614", "unusable-model", Warning, "Claude Code cannot use the skill's `model`");
}
