//! SG302: every command has a non-empty string `description`.

use crate::catalog::Catalog;
use crate::catalog::commands::{Description, Folder};
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Requires every command file to have a non-empty string
    /// `description`: in the YAML frontmatter of `.claude/commands/*.md`, as
    /// a top-level key of `.gemini/commands/*.toml` and `commands/*.toml`.
    ///
    /// ## Why is this bad?
    /// The description is what users see in the `/` menu and what an agent
    /// reads to decide to run the command. Without one, Claude Code shows
    /// the prompt's first line, and the folders cannot be checked for
    /// drift.
    ///
    /// ## Example
    /// ```markdown
    /// ---
    /// description: Break work into small verifiable tasks
    /// ---
    /// Invoke the planning skill.
    /// ```
    pub static DESCRIPTION = ("SG302", "command-description", Error, "a command has no description");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for cmd in catalog.commands.all() {
        let (message, span) = match &cmd.description {
            Description::Unparsed => continue,
            Description::Text(t) if !t.value.trim().is_empty() => continue,
            Description::Text(t) => (
                "command has an empty `description`".to_string(),
                Some(t.span),
            ),
            Description::NoFrontmatter => (
                "command has no frontmatter, so no `description`".to_string(),
                None,
            ),
            Description::Missing => ("command has no `description`".to_string(), None),
            Description::NotAString { found, span } => (
                format!("command `description` is {found}, not a string"),
                Some(*span),
            ),
        };
        let help = match cmd.folder {
            Folder::Claude => {
                "start the file with `---`, `description: <what the command does>`, `---`"
            }
            Folder::Gemini | Folder::Plain => {
                "add `description = \"<what the command does>\"` at the top of the file"
            }
        };
        out.push(
            DESCRIPTION
                .diag(&cmd.file, message)
                .with_span_opt(span)
                .with_help(help),
        );
    }
}
