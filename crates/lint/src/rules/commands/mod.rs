//! Slash-command rules (`SG3xx`): the three command folders hold the same
//! commands with the same descriptions, and no Claude command shadows a
//! built-in. `toml_syntax` is raised while a file is read; the others run
//! over [`crate::catalog::commands::Commands`]. `frontmatter_yaml` runs the
//! frontmatter rules SG111–SG113 over Markdown commands.

pub mod builtin;
pub mod description;
pub mod description_mismatch;
pub mod frontmatter_yaml;
pub mod missing;
pub mod name_map;
pub mod prompt;
/// Raised while a command file loads: it lives with the loader.
pub use crate::catalog::rules::toml_syntax;

use crate::catalog::Catalog;
use crate::catalog::commands::{CommandFile, Commands, Folder};
use crate::config::Config;
use crate::diag::Diagnostic;
use std::collections::BTreeMap;

/// Run every slash-command rule.
pub fn run(catalog: &Catalog, config: &Config, out: &mut Vec<Diagnostic>) {
    description::check(catalog, out);
    frontmatter_yaml::check(catalog, out);
    prompt::check(catalog, out);
    builtin::check(catalog, config, out);
    let groups = group(&catalog.commands, config, out);
    missing::check(&catalog.commands, &groups, config, out);
    description_mismatch::check(&groups, out);
    name_map::check(&catalog.commands, config, out);
}

/// The same command in each folder: `[claude, gemini, plain]`.
pub type Group<'a> = [Option<&'a CommandFile>; 3];

fn slot(f: Folder) -> usize {
    match f {
        Folder::Claude => 0,
        Folder::Gemini => 1,
        Folder::Plain => 2,
    }
}

/// The command's canonical name: its Claude name. A TOML file named by a
/// `[commands] name-map` value maps back to the key.
pub fn canonical<'a>(cmd: &'a CommandFile, config: &'a Config) -> &'a str {
    match cmd.folder {
        Folder::Claude => &cmd.name,
        Folder::Gemini | Folder::Plain => config
            .commands
            .name_map
            .iter()
            .find(|(_, v)| **v == cmd.name)
            .map_or(cmd.name.as_str(), |(k, _)| k.as_str()),
    }
}

/// The file stem a command of canonical name `name` has in `folder`.
pub fn stem_in<'a>(name: &'a str, folder: Folder, config: &'a Config) -> &'a str {
    match folder {
        Folder::Claude => name,
        Folder::Gemini | Folder::Plain => config
            .commands
            .name_map
            .get(name)
            .map_or(name, String::as_str),
    }
}

/// Group the commands of every existing folder by canonical name. Two files
/// of one folder that pair with the same command are reported here (SG303).
fn group<'a>(
    commands: &'a Commands,
    config: &'a Config,
    out: &mut Vec<Diagnostic>,
) -> BTreeMap<&'a str, Group<'a>> {
    let mut groups: BTreeMap<&str, Group> = BTreeMap::new();
    for folder in Folder::ALL {
        for cmd in commands.folder(folder).unwrap_or_default() {
            let name = canonical(cmd, config);
            let g = groups.entry(name).or_default();
            match g[slot(folder)] {
                None => g[slot(folder)] = Some(cmd),
                Some(first) => out.push(
                    missing::MISSING
                        .diag(
                            &cmd.file,
                            format!(
                                "`{}` and `{}` both pair with the command `{name}`",
                                first.file, cmd.file
                            ),
                        )
                        .with_help(format!(
                            "[commands] name-map pairs `{name}` with `{}`; remove or rename the other file",
                            stem_in(name, folder, config)
                        )),
                ),
            }
        }
    }
    groups
}
