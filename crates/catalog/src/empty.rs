//! A catalog folder that holds no skill at all: `check` stops with exit 2
//! and says where it looked, so CI fails on a wrong path instead of
//! passing with "0 skills checked".

use super::{Catalog, Target, discover};
use crate::config::Config;
use crate::exit::Fatal;

/// The usage error for a catalog in which nothing was found to check (no
/// SKILL.md, no case file, no command file, and no finding about a folder
/// that could not be read); `None` when there is something.
pub fn nothing_found(catalog: &Catalog, config: &Config) -> Option<Fatal> {
    let nothing = catalog.target == Target::Catalog
        && catalog.skills.is_empty()
        && catalog.cases.is_empty()
        && catalog.commands.all().next().is_none()
        && catalog.claude_commands.is_empty()
        && catalog.diagnostics.is_empty();
    if !nothing {
        return None;
    }
    let root = &catalog.display_root;
    let roots: Vec<String> = catalog
        .root_paths()
        .map(|r| {
            if r.is_empty() {
                format!("{}/", root.trim_end_matches('/'))
            } else {
                format!("{}/", discover::join_rel(root.trim_end_matches('/'), r))
            }
        })
        .collect();
    let walked = match roots.as_slice() {
        [] => format!("{root}/"),
        [one] => one.clone(),
        many => many.join(", "),
    };
    let mut filters = Vec::new();
    if !config.catalog.include.is_empty() {
        filters.push(format!(
            "only paths matching [catalog] include ({})",
            config.catalog.include.join(", ")
        ));
    }
    if !config.catalog.exclude.is_empty() {
        filters.push(format!(
            "none matching [catalog] exclude ({})",
            config.catalog.exclude.join(", ")
        ));
    }
    let filters = if filters.is_empty() {
        String::new()
    } else {
        format!("; {}", filters.join("; "))
    };
    Some(
        Fatal::usage(format!(
            "{root}: no SKILL.md found: looked in {walked} and every folder below, up to {} levels (not {}, or .claude/commands){filters}",
            discover::MAX_DEPTH,
            discover::SKIP_DIRS.join(", "),
        ))
        .with_help(
            "a skill is a folder holding a SKILL.md (YAML frontmatter with `name` and `description`, then Markdown), e.g. skills/pdf/SKILL.md; pass the catalog folder that holds skills/, a skill folder or a SKILL.md",
        ),
    )
}
