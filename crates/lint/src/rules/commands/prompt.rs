//! SG306: a TOML command has a string `prompt`.

use crate::catalog::Catalog;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Requires every `.gemini/commands/*.toml` and `commands/*.toml` file
    /// to set `prompt` to a string.
    ///
    /// ## Why is this bad?
    /// `prompt` is the one required field of a Gemini CLI command: a file
    /// without it is refused when the CLI loads commands.
    ///
    /// ## Example
    /// ```toml
    /// description = "Plan the work"
    /// prompt = """
    /// Invoke the planning skill.
    /// """
    /// ```
    pub static PROMPT = ("SG306", "toml-command-prompt", Error, "a TOML command has no prompt");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for cmd in catalog.commands.all() {
        if cmd.has_prompt || cmd.description == crate::catalog::commands::Description::Unparsed {
            continue;
        }
        let d = match cmd.bad_prompt {
            Some((found, span)) => PROMPT
                .diag(
                    &cmd.file,
                    format!("command `prompt` is {found}, not a string"),
                )
                .with_span(span),
            None => PROMPT.diag(&cmd.file, "command has no `prompt`"),
        };
        out.push(
            d.with_help("add `prompt = \"\"\"…\"\"\"` with the instructions the command runs"),
        );
    }
}
