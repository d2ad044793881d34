//! SG213: a SKILL.md in a `templates/` folder, which no client discovers.

use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Notes, once per file, a SKILL.md under a folder named `templates`
    /// or `template` that is not inside a skills folder (`templates/`,
    /// `templates/basic/`, `docs/templates/` at the catalog root, but not
    /// `skills/templates/`), and leaves it out of the catalog: it is not
    /// linted, listed, routed or run as a skill. `[catalog] roots` or an
    /// `[catalog] include` glob matching the file makes it a skill again.
    ///
    /// ## Why is this bad?
    /// Such a file is a skill template (`name: {{name}}`), not a skill: no
    /// client discovers a SKILL.md there (Claude Code reads
    /// `.claude/skills/<folder>/SKILL.md`, Codex `.agents/skills/**`,
    /// Gemini CLI `.gemini/skills/*/`, opencode `.opencode/skills/**`), and
    /// linting its placeholders as a skill's values only buries the
    /// findings of the real skills.
    ///
    /// ## Example
    /// `templates/SKILL.md` beside `pdf/SKILL.md` in a catalog without a
    /// `skills/` folder. To lint it anyway:
    /// ```toml
    /// [catalog]
    /// include = ["**/SKILL.md"]
    /// ```
    pub static TEMPLATE = ("SG213", "skill-template", Notice, "a SKILL.md under `templates/` is a template, not a skill");
}

/// Folder names that hold templates.
const TEMPLATE_DIRS: &[&str] = &["templates", "template"];

/// Whether the root-relative `rel` (a SKILL.md) is a template by where it
/// lies: a `templates/` folder that no `skills`/`skill` folder holds.
pub fn is_template_path(rel: &str) -> bool {
    let folders: Vec<&str> = rel.split('/').collect();
    let folders = &folders[..folders.len().saturating_sub(1)];
    for f in folders {
        if f.ends_with("skills") || *f == "skill" {
            return false;
        }
        if TEMPLATE_DIRS.contains(f) {
            return true;
        }
    }
    false
}

/// The finding for the template `rel`.
pub fn finding(rel: &str) -> Diagnostic {
    let dir = rel.strip_suffix("/SKILL.md").unwrap_or(rel);
    TEMPLATE
        .diag(
            rel,
            format!(
                "`{dir}/` is a template folder, not a skills folder: no client discovers a SKILL.md there, so skillsift does not lint it as a skill"
            ),
        )
        .with_help(
            "to lint it as a skill, add a `[catalog] include` glob that matches it (`include = [\"**/SKILL.md\"]`) or name its folder in `[catalog] roots`",
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_outside_skills_folders() {
        assert!(is_template_path("templates/SKILL.md"));
        assert!(is_template_path("templates/basic/SKILL.md"));
        assert!(is_template_path("docs/template/x/SKILL.md"));
        assert!(!is_template_path("skills/templates/SKILL.md"));
        assert!(!is_template_path(".claude/skills/templates/SKILL.md"));
        assert!(!is_template_path("pdf/SKILL.md"));
        assert!(!is_template_path("templates-kit/SKILL.md"));
    }
}
