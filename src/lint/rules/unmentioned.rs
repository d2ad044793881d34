//! SG211: files bundled with a skill that SKILL.md never mentions.

use super::bundled_links::BUNDLED_DIRS;
use super::context::SkillCtx;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Notes each file under the skill's `scripts/`, `references/` or
    /// `assets/` that SKILL.md never mentions: neither its path, nor its
    /// file name, nor the folder holding it (`references/forms/`) appears
    /// anywhere in the file, code blocks included. Python byte code,
    /// `__init__.py`, dot files and `__pycache__/` are left alone. Past 20
    /// files in one skill, one more finding counts the rest.
    ///
    /// ## Why is this bad?
    /// The agent only learns what SKILL.md tells it: a file nobody points
    /// to is never read or run, yet it ships with the skill, code nobody
    /// reviews included.
    ///
    /// ## Example
    /// `scripts/cleanup.sh` in a skill whose SKILL.md only mentions
    /// `scripts/upload.py`. Say when to use it (``run `scripts/cleanup.sh`
    /// after …``), or delete it.
    pub static UNMENTIONED = ("SG211", "unmentioned-bundled-file", Notice, "a bundled file is never mentioned in SKILL.md");
}

/// Findings per skill before the rest are counted in one.
const MAX_PER_SKILL: usize = 20;

fn ignored(f: &str) -> bool {
    let name = f.rsplit('/').next().unwrap_or(f);
    name.starts_with('.')
        || name == "__init__.py"
        || name.ends_with(".pyc")
        || f.split('/')
            .any(|c| c == "__pycache__" || c.starts_with('.'))
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    // the text as written and with Windows separators read as `/` (a
    // wrong separator is SG210's, not a missing mention)
    let text = s.src.text.replace('\\', "/");
    let dir = &s.skill.rel_dir;
    let mut unmentioned: Vec<&str> = Vec::new();
    for f in &s.skill.files {
        let first = f.split('/').next().unwrap_or("");
        if !BUNDLED_DIRS.contains(&first) || f.len() == first.len() || ignored(f) {
            continue;
        }
        let name = f.rsplit('/').next().unwrap_or(f);
        let parent = &f[..f.len() - name.len()];
        let mentioned = text.contains(f.as_str())
            || mentions_word(&text, name)
            || (parent.len() > first.len() + 1 && text.contains(parent));
        if !mentioned {
            unmentioned.push(f);
        }
    }
    for f in unmentioned.iter().take(MAX_PER_SKILL) {
        out.push(
            UNMENTIONED
                .diag(
                    crate::catalog::discover::join_rel(dir, f),
                    format!("`{f}` is bundled with the skill, but SKILL.md never mentions it: the agent never learns it exists"),
                )
                .with_help(format!(
                    "say in SKILL.md when to read or run `{f}`, or delete it"
                )),
        );
    }
    if unmentioned.len() > MAX_PER_SKILL {
        let rest = unmentioned.len() - MAX_PER_SKILL;
        out.push(
            UNMENTIONED
                .diag(
                    s.file(),
                    format!("{rest} more bundled files are never mentioned in SKILL.md"),
                )
                .with_help("mention the folder that holds them, or delete them"),
        );
    }
}

/// `name` appears in `text` not as part of a longer file name (a
/// sentence's full stop may follow it).
fn mentions_word(text: &str, name: &str) -> bool {
    let is_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
    text.match_indices(name).any(|(i, _)| {
        let before_ok = !text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| is_name(c) && c != '.');
        let mut after = text[i + name.len()..].chars();
        let after_ok = match after.next() {
            None => true,
            Some('.') => !after.next().is_some_and(is_name),
            Some(c) => !is_name(c),
        };
        before_ok && after_ok
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_mentioned_only_whole() {
        assert!(mentions_word("run upload.py.", "upload.py"));
        assert!(mentions_word("`upload.py`", "upload.py"));
        assert!(!mentions_word("run upload.py2", "upload.py"));
        assert!(!mentions_word("run my_upload.py", "upload.py"));
        assert!(ignored("scripts/__pycache__/a.pyc"));
        assert!(ignored("scripts/.DS_Store"));
        assert!(!ignored("scripts/a.py"));
    }
}
