//! The one way a rule reads a skill's text files: SKILL.md and each of
//! its other text files, read from disk and decoded once per skill (with
//! secrets masked and lines indexed, [`crate::catalog::Source`]), Markdown
//! bodies split into lines with fences found once ([`Body`]), handed to
//! every rule as a [`Text`] by [`SkillCtx::texts`](super::context::SkillCtx::texts).
//! A rule that reads a skill's files reads them here: none opens a file
//! of its own, so a new rule adds no read and no decode.

use super::markdown::Body;
use crate::catalog::Source;
use std::sync::Arc;

/// Largest file of a skill folder read as text besides SKILL.md.
pub const MAX_FILE: u64 = crate::catalog::MAX_TEXT_FILE;
/// Most files of one skill folder read as text besides SKILL.md.
pub const MAX_FILES: usize = crate::catalog::MAX_TEXT_FILES;

/// What kind of text a file holds, for the rules that care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The skill's SKILL.md.
    Skill,
    /// Another Markdown file.
    Markdown,
    /// A shell script (by extension or `#!` line).
    Shell,
    /// Source code in another language.
    Code,
    /// Anything else that is text (data, lock files, configuration).
    Other,
}

/// One text file of the skill.
pub struct Text<'a> {
    /// Path relative to the catalog root.
    pub file: &'a str,
    pub src: &'a Source,
    pub kind: Kind,
    /// Where the Markdown body starts (0 for files without frontmatter).
    pub body_start: usize,
    /// The body's lines with fences found (Markdown files only), analysed
    /// once per file: SKILL.md's is the one every rule reads
    /// ([`SkillCtx::body`]).
    pub(super) body: Option<&'a Body<'a>>,
}

impl<'a> Text<'a> {
    /// The body's lines with fences found (Markdown files only).
    pub fn body(&self) -> Option<&'a Body<'a>> {
        self.body
    }
}

/// Extensions of shell scripts, space-separated. (Names of shells are
/// kept out of string literals: `tests/security.rs` guards that no code
/// starts one.)
const SHELL_EXTENSIONS: &str = "sh bash zsh ksh fish ps1 psm1 command";
/// Extensions of source code in other languages.
const CODE_EXTENSIONS: &str = "py js mjs cjs ts rb pl go rs java php lua";
/// Shells a `#!` line names.
pub(super) const SHEBANG_SHELLS: &str = "sh bash zsh ksh dash fish";
/// One text file of a skill besides SKILL.md, read once for every rule
/// that reads the skill's files ([`SkillCtx::others`]).
pub struct OtherText {
    /// Path relative to the skill folder, as in [`Skill::files`](crate::catalog::Skill).
    pub rel: String,
    /// Path relative to the catalog root.
    pub file: String,
    pub src: Arc<Source>,
    pub kind: Kind,
}

/// The skill's text files besides SKILL.md: regular files (no links) of
/// at most [`MAX_FILE`] bytes, UTF-8 without NUL, the first [`MAX_FILES`]
/// in path order, each with its path relative to the catalog root. Binary
/// files are not text and are not read as such.
pub fn other_texts(skill: &crate::catalog::Skill) -> Vec<OtherText> {
    skill
        .other_texts()
        .into_iter()
        .map(|(rel, src)| OtherText {
            rel: rel.to_string(),
            file: super::files::join(&skill.rel_dir, rel),
            kind: kind_of(rel, &src.text),
            src,
        })
        .collect()
}

pub(super) fn listed(list: &str, word: &str) -> bool {
    list.split_whitespace().any(|w| w == word)
}

fn kind_of(name: &str, text: &str) -> Kind {
    let ext = name
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    if ext == "md" || ext == "markdown" || ext == "mdx" {
        return Kind::Markdown;
    }
    if listed(SHELL_EXTENSIONS, &ext) {
        return Kind::Shell;
    }
    if listed(CODE_EXTENSIONS, &ext) {
        return Kind::Code;
    }
    let first = text.lines().next().unwrap_or("");
    let Some(interpreter) = first.strip_prefix("#!") else {
        return Kind::Other;
    };
    // `#!/bin/sh`, `#!/usr/bin/env bash`
    let program = interpreter
        .split_whitespace()
        .last()
        .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
    if listed(SHEBANG_SHELLS, program) {
        Kind::Shell
    } else {
        Kind::Code
    }
}

/// Up to `max` bytes of a file of the skill (`rel` in its folder), lossily
/// decoded: for a rule that searches a file [`other_texts`] leaves out
/// (larger than [`MAX_FILE`], not UTF-8, past [`MAX_FILES`]). Its text is
/// not masked: it is searched, never shown. `None` for a binary file, a
/// symbolic link (never followed) or one that cannot be read.
pub fn head(skill: &crate::catalog::Skill, rel: &str, max: u64) -> Option<String> {
    let path = &skill.dir.join(rel);
    use std::io::Read;
    if std::fs::symlink_metadata(path)
        .ok()?
        .file_type()
        .is_symlink()
    {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(max)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.contains(&0) {
        return None;
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    /// Every rule reads a skill's files through this module: no other
    /// rule file opens one (the project's agent files, read once per
    /// catalog by the client rules, are not a skill's).
    #[test]
    fn no_rule_reads_a_file_of_its_own() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        let mut stack = vec![root.clone()];
        let mut offenders = Vec::new();
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                    continue;
                }
                let rel = p
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if rel == "text.rs" || rel == "client/values.rs" {
                    continue;
                }
                let src = std::fs::read_to_string(&p).unwrap();
                for needle in [
                    "fs::read(",
                    "fs::read_to_string(",
                    "File::open(",
                    "read_bounded(",
                ] {
                    if src.contains(needle) {
                        offenders.push(format!("{rel}: {needle}"));
                    }
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "read through rules::text: {offenders:?}"
        );
    }
}
