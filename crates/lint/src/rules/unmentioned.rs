//! SG211: files bundled with a skill that SKILL.md never mentions.

use super::bundled_links::BUNDLED_DIRS;
use super::context::SkillCtx;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Notes each file under the skill's `scripts/`, `references/` or
    /// `assets/` that SKILL.md never mentions: neither its path, nor its
    /// file name, nor the folder holding it (`assets/`, `references/forms/`)
    /// appears anywhere in the file, code blocks included, nor in a
    /// bundled Markdown file that SKILL.md (or such a file) mentions, so
    /// a guide that names the rest counts. Python byte code,
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

/// Bundled Markdown files read for the mentions they hold, at most.
const MAX_READ: usize = 50;
/// Bytes read of each.
const MAX_READ_BYTES: u64 = 256 * 1024;

/// Whether `text` mentions the bundled file `f`: its path, its file name
/// (whole), or the folder holding it written with its `/`.
fn mentions(text: &str, f: &str) -> bool {
    let name = f.rsplit('/').next().unwrap_or(f);
    let parent = &f[..f.len() - name.len()];
    text.contains(f)
        || mentions_word(text, name)
        || (!parent.is_empty() && mentions_folder(text, parent))
}

/// `folder` (ending in `/`) appears by itself, not as the start of a
/// path to one of its files (`scripts/` but not `scripts/run.sh`).
fn mentions_folder(text: &str, folder: &str) -> bool {
    let is_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    text.match_indices(folder).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(is_name)
            && !text[i + folder.len()..].chars().next().is_some_and(is_name)
    })
}

/// Up to [`MAX_READ_BYTES`] of a bundled file, `/` for `\`.
fn read_bounded(path: &std::path::Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_READ_BYTES)
        .read_to_string(&mut text)
        .ok()?;
    Some(text.replace('\\', "/"))
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let dir = &s.skill.rel_dir;
    let candidates: Vec<&str> = s
        .skill
        .files
        .iter()
        .map(String::as_str)
        .filter(|f| {
            let first = f.split('/').next().unwrap_or("");
            BUNDLED_DIRS.contains(&first) && f.len() > first.len() && !ignored(f)
        })
        .collect();
    if candidates.is_empty() {
        return;
    }
    // SKILL.md, then every bundled Markdown file a text read so far
    // mentions (the guide SKILL.md links to may name the rest); Windows
    // separators read as `/` (a wrong separator is SG210's)
    let mut texts = vec![s.src.text.replace('\\', "/")];
    let mut mentioned = vec![false; candidates.len()];
    let mut read = 0;
    let mut next = 0;
    while next < texts.len() {
        let text = std::mem::take(&mut texts[next]);
        next += 1;
        for (i, f) in candidates.iter().enumerate() {
            if mentioned[i] || !mentions(&text, f) {
                continue;
            }
            mentioned[i] = true;
            if f.ends_with(".md") && read < MAX_READ {
                read += 1;
                if let Some(t) = read_bounded(&s.skill.dir.join(f)) {
                    texts.push(t);
                }
            }
        }
    }
    let unmentioned: Vec<&str> = candidates
        .iter()
        .zip(&mentioned)
        .filter(|(_, m)| !**m)
        .map(|(f, _)| *f)
        .collect();
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
        assert!(mentions_folder("templates live in `assets/`.", "assets/"));
        assert!(!mentions_folder("run `scripts/fill.py`", "scripts/"));
        assert!(!mentions_folder("see my-assets/", "assets/"));
        assert!(ignored("scripts/__pycache__/a.pyc"));
        assert!(ignored("scripts/.DS_Store"));
        assert!(!ignored("scripts/a.py"));
    }
}
