//! SG301: a TOML command file that does not parse.

use crate::rule;

rule! {
    /// ## What it does
    /// Reports a `.gemini/commands/*.toml` or `commands/*.toml` file that is
    /// not valid TOML, at the line and column where the parser stopped.
    ///
    /// ## Why is this bad?
    /// Gemini CLI skips a command file it cannot parse: the command is
    /// silently missing for its users.
    ///
    /// ## Example
    /// ```toml
    /// description = "Plan the work"
    /// prompt = "line one
    /// line two"
    /// ```
    /// A string over several lines needs triple quotes: `prompt = """…"""`.
    pub static TOML_SYNTAX = ("SG301", "command-toml-syntax", Error, "command file is not valid TOML");
}
