//! SG421: a case source in a skill's folder names another skill.

use crate::catalog::Catalog;
use crate::catalog::cases::{Format, skill_key};
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Requires the skill an evals file (`skill_name`) or a waza file
    /// (`skill`) in a skill's own folder names to be that skill: its
    /// frontmatter `name`, else its folder name.
    ///
    /// ## Why is this bad?
    /// A file copied from another skill, or left behind by a rename, tests
    /// the wrong skill: tools that go by the name run its cases against a
    /// skill that does not exist, or the wrong one.
    pub static SOURCE_SKILL = ("SG421", "case-source-skill", Error, "a case source in a skill's folder names another skill");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for src in &catalog.case_sources {
        let Some(named) = &src.named else { continue };
        let skill = &catalog.skills[src.skill];
        let own = skill_key(skill);
        if named.value == own {
            continue;
        }
        let key = if src.format == Format::Waza {
            "skill"
        } else {
            "skill_name"
        };
        out.push(
            SOURCE_SKILL
                .diag(
                    &src.file,
                    format!(
                        "`{key}` is `{}` but the file is in the folder of skill `{own}`",
                        named.value
                    ),
                )
                .with_span(named.span)
                .with_label(format!("expected `{own}`"))
                .with_help(format!(
                    "set `{key}` to `{own}`, or move the file into `{}`'s folder",
                    named.value
                )),
        );
    }
}
