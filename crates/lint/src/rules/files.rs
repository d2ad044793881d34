//! The files that travel with a skill: supporting Markdown names, empty
//! folders.

use super::context::SkillCtx;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Notes a supporting `.md` file in a skill folder (at any depth,
    /// SKILL.md and `evals/` aside) whose name is not lowercase words joined
    /// by hyphens (`api-reference.md`, not `API_Reference.md`). Lowercase
    /// letters of any script and digits are allowed, as in skill names.
    /// Conventional repository files (`README.md`, `LICENSE.md`,
    /// `CHANGELOG.md`, `CONTRIBUTING.md`, `SECURITY.md`, `NOTICE.md`,
    /// `CODE_OF_CONDUCT.md`, `AGENTS.md`, `CLAUDE.md`) are left alone.
    ///
    /// ## Why is this bad?
    /// SKILL.md links to its supporting files by name; one naming scheme
    /// keeps links predictable and portable across case-sensitive and
    /// case-insensitive file systems.
    ///
    /// Taste, so a notice: no specification asks for kebab-case file names,
    /// and Anthropic's own skills ship `mcp_best_practices.md`. A catalog
    /// that keeps one scheme raises it (`[lint.rules] SG207 = "warning"`).
    pub static FILE_NAME = ("SG207", "supporting-file-name", Notice, "supporting `.md` file name is not kebab-case", taste);
}

rule! {
    /// ## What it does
    /// Notes an empty folder inside a skill folder.
    ///
    /// ## Why is this bad?
    /// An empty `scripts/` or `references/` adds noise without changing how
    /// the skill works, and git does not even keep it. Taste, so a notice.
    pub static EMPTY_FOLDER = ("SG208", "empty-folder", Notice, "skill folder holds an empty subfolder", taste);
}

const CONVENTIONAL: &[&str] = &[
    "README",
    "LICENSE",
    "LICENCE",
    "CHANGELOG",
    "CONTRIBUTING",
    "SECURITY",
    "NOTICE",
    "CODE_OF_CONDUCT",
    "AGENTS",
    "CLAUDE",
];

/// Lowercase words of letters and digits joined by single hyphens.
pub fn is_kebab(stem: &str) -> bool {
    !stem.is_empty()
        && !stem.starts_with('-')
        && !stem.ends_with('-')
        && !stem.contains("--")
        && stem
            .chars()
            .all(|c| c == '-' || (c.is_alphanumeric() && !c.is_uppercase()))
}

/// The kebab-case form of a file stem, for help texts.
fn kebab(stem: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in stem.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !out.ends_with('-') {
                out.push('-');
            }
            prev_lower = c.is_lowercase() || c.is_numeric();
            out.extend(c.to_lowercase());
        } else {
            prev_lower = false;
            if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
        }
    }
    out.trim_end_matches('-').to_string()
}

/// `rel` under the skill folder `dir`, relative to the catalog root.
pub fn join(dir: &str, rel: &str) -> String {
    if dir.is_empty() || dir == "." {
        rel.to_string()
    } else {
        format!("{dir}/{rel}")
    }
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let dir = &s.skill.rel_dir;
    for f in &s.skill.files {
        let name = f.rsplit('/').next().unwrap_or(f);
        let Some(stem) = name.strip_suffix(".md") else {
            continue;
        };
        if is_kebab(stem) || CONVENTIONAL.contains(&stem) {
            continue;
        }
        let parent = &f[..f.len() - name.len()];
        out.push(
            FILE_NAME
                .diag(
                    join(dir, f),
                    format!("supporting file `{name}` is not named in kebab-case"),
                )
                .with_help(format!(
                    "rename it to `{parent}{}.md` and update the links in SKILL.md",
                    kebab(stem)
                )),
        );
    }
    for d in &s.skill.empty_dirs {
        out.push(
            EMPTY_FOLDER
                .diag(join(dir, d), format!("folder `{d}/` is empty"))
                .with_help("remove it; add the folder when the skill has files to put in it"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_names() {
        assert!(is_kebab("api-reference"));
        assert!(is_kebab("step-2"));
        assert!(is_kebab("référence"));
        assert!(!is_kebab("API_Reference"));
        assert!(!is_kebab("apiReference"));
        assert!(!is_kebab("a--b"));
        assert_eq!(kebab("API_Reference"), "api-reference");
        assert_eq!(kebab("apiReference"), "api-reference");
        assert_eq!(kebab("Form Fields"), "form-fields");
    }
}
