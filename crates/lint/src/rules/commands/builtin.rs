//! SG305: a Claude command named like a Claude Code built-in.

use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Reports a `.claude/commands/<name>.md` whose name is a Claude Code
    /// built-in command (`review`, `help`, `clear`, `compact`, `init`, …).
    /// The list is `[commands] builtins` in `skillsift.toml`; setting it
    /// replaces the default list.
    ///
    /// ## Why is this bad?
    /// The built-in and the catalog's command compete for one name: users
    /// typing `/review` get one of them, and which one depends on the
    /// client version.
    ///
    /// ## Example
    /// Rename `.claude/commands/review.md` to `code-review.md`, and the TOML
    /// counterparts too (or pair the names with `[commands] name-map`).
    pub static BUILTIN = ("SG305", "command-builtin-collision", Error, "a command shadows a Claude Code built-in");
}

pub fn check(catalog: &Catalog, config: &Config, out: &mut Vec<Diagnostic>) {
    let Some(claude) = &catalog.commands.claude else {
        return;
    };
    for cmd in claude {
        let hit = config
            .commands
            .builtins
            .iter()
            .any(|b| b.trim_start_matches('/').eq_ignore_ascii_case(&cmd.name));
        if !hit {
            continue;
        }
        out.push(
            BUILTIN
                .diag(
                    &cmd.file,
                    format!(
                        "the `{}` command collides with the Claude Code built-in command `/{}`",
                        cmd.name, cmd.name
                    ),
                )
                .with_help(
                    "give the command a name Claude Code does not use, and rename its counterparts in the other command folders",
                ),
        );
    }
}
