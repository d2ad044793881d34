//! SG303: every command exists in every command folder that exists.

use super::{Group, slot, stem_in};
use crate::catalog::commands::{Commands, Folder};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::rule;
use std::collections::BTreeMap;

rule! {
    /// ## What it does
    /// When more than one of `.claude/commands/`, `.gemini/commands/` and
    /// `commands/` exists, requires each to hold the same commands. A
    /// command is named by its Claude file (`plan.md` is `plan`); names that
    /// differ between folders on purpose are paired in `skillsift.toml`:
    ///
    /// ```toml
    /// [commands]
    /// name-map = { plan = "planning" }   # .claude/commands/plan.md <-> planning.toml
    /// ```
    ///
    /// ## Why is this bad?
    /// A command added to one client and forgotten in another is missing
    /// for that client's users, and nothing else notices.
    pub static MISSING = ("SG303", "command-missing", Error, "a command is missing from one of the command folders");
}

/// Most unpaired commands compared with each missing one for a suggestion.
const MAX_CANDIDATES: usize = 200;

pub fn check(
    commands: &Commands,
    groups: &BTreeMap<&str, Group>,
    config: &Config,
    out: &mut Vec<Diagnostic>,
) {
    let existing: Vec<Folder> = Folder::ALL
        .into_iter()
        .filter(|f| commands.folder(*f).is_some())
        .collect();
    if existing.len() < 2 {
        return;
    }
    for (&name, group) in groups {
        let Some(anchor) = group.iter().flatten().next() else {
            continue;
        };
        for &folder in &existing {
            if group[slot(folder)].is_some() {
                continue;
            }
            let expected = folder.path_of(stem_in(name, folder, config));
            // an unpaired command in that folder whose name is close: a
            // rename, or a pairing that belongs in name-map
            // (bounded: the scan is per missing command)
            let close = groups
                .iter()
                .filter(|(_, g)| g[slot(folder)].is_some() && g[slot(anchor.folder)].is_none())
                .take(MAX_CANDIDATES)
                .map(|(n, g)| (*n, g[slot(folder)].unwrap()))
                .find(|(n, _)| similar(n, name));
            let help = match close {
                Some((_, other)) => {
                    let (claude, toml) = if anchor.folder == Folder::Claude {
                        (name, other.name.as_str())
                    } else if folder == Folder::Claude {
                        (other.name.as_str(), anchor.name.as_str())
                    } else {
                        (name, other.name.as_str())
                    };
                    format!(
                        "`{}` looks like the same command; if the names differ on purpose, pair them in skillsift.toml: [commands] name-map = {{ {claude} = \"{toml}\" }}",
                        other.file
                    )
                }
                None => format!(
                    "add `{expected}` with the same description, or remove `{}`",
                    anchor.file
                ),
            };
            out.push(
                MISSING
                    .diag(
                        &anchor.file,
                        format!(
                            "command `{name}` is missing from `{}/` (expected `{expected}`)",
                            folder.dir()
                        ),
                    )
                    .with_help(help),
            );
        }
    }
}

/// Whether two command names look like one command renamed: a shared
/// prefix of at least 3 characters and half the shorter name (`plan` and
/// `planning`, `bake` and `baking`), or an edit distance of at most 2.
fn similar(a: &str, b: &str) -> bool {
    let prefix = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let shorter = a.chars().count().min(b.chars().count());
    (prefix >= 3 && prefix * 2 >= shorter) || crate::lint::rules::cases::edit_distance(a, b) <= 2
}

#[cfg(test)]
mod tests {
    use super::similar;

    #[test]
    fn renamed_commands_look_similar() {
        assert!(similar("plan", "planning"));
        assert!(similar("bake", "baking"));
        assert!(similar("test", "tests"));
        assert!(!similar("spec", "ship"));
        assert!(!similar("build", "review"));
    }
}
