//! SG111–SG113 in the frontmatter of `.claude/commands/*.md`: the YAML
//! spots that strict parsers refuse, found as in a SKILL.md. Claude Code
//! reads a command's frontmatter as YAML too, and a command whose YAML
//! does not parse loses its description in the `/` menu.

use crate::catalog::Catalog;
use crate::catalog::commands::Folder;
use crate::diag::Diagnostic;
use crate::lint::rules::portability::{Frontmatter, check_frontmatter, yaml_errors};
use std::collections::HashMap;

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    let Some(commands) = catalog.commands.folder(Folder::Claude) else {
        return;
    };
    // the findings made while loading these files, by file
    let mut load: HashMap<&str, Vec<&Diagnostic>> = HashMap::new();
    let dir = Folder::Claude.dir();
    for d in catalog
        .diagnostics
        .iter()
        .filter(|d| d.file.starts_with(dir))
    {
        load.entry(d.file.as_str()).or_default().push(d);
    }
    for cmd in commands {
        let (failed, spots) =
            yaml_errors(load.get(cmd.file.as_str()).into_iter().flatten().copied());
        check_frontmatter(
            &Frontmatter {
                file: &cmd.file,
                src: &cmd.source,
                parsed: cmd.yaml.clone(),
                body_start: cmd.body_start,
                failed,
                fixable: false,
                error_spots: &spots,
            },
            out,
        );
    }
}
