//! SG111–SG113 in the frontmatter of `.claude/commands/*.md`: the YAML
//! spots that strict parsers refuse, found as in a SKILL.md. Claude Code
//! reads a command's frontmatter as YAML too, and a command whose YAML
//! does not parse loses its description in the `/` menu.

use crate::catalog::Catalog;
use crate::catalog::commands::Folder;
use crate::diag::Diagnostic;
use crate::lint::rules::load::{YAML_LIMIT, YAML_SYNTAX};
use crate::lint::rules::portability::{Frontmatter, check_frontmatter};
use std::collections::HashMap;

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    let Some(commands) = catalog.commands.folder(Folder::Claude) else {
        return;
    };
    // the YAML errors found while loading, by file
    let mut errors: HashMap<&str, Vec<usize>> = HashMap::new();
    for d in &catalog.diagnostics {
        if d.rule == YAML_SYNTAX.id || d.rule == YAML_LIMIT.id {
            let spots = errors.entry(d.file.as_str()).or_default();
            spots.extend(d.span.map(|s| s.start));
        }
    }
    for cmd in commands {
        let spots = errors.get(cmd.file.as_str());
        check_frontmatter(
            &Frontmatter {
                file: &cmd.file,
                src: &cmd.source,
                parsed: cmd.yaml.clone(),
                body_start: cmd.body_start,
                failed: spots.is_some(),
                error_spots: spots.cloned().unwrap_or_default(),
            },
            out,
        );
    }
}
