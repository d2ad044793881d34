//! SG700–SG749: what hides from a reviewer but reaches the model, or runs
//! on the reviewer's machine.
//!
//! A SKILL.md is text the model obeys, copied between repositories and
//! installed without review. These rules read every text file of a skill
//! folder (SKILL.md and, bounded, its other files that are UTF-8 without
//! NUL) and report what the rendered Markdown or a quick read does not
//! show: control characters in the listing (SG700), invisible and
//! bidirectional Unicode (SG701), instructions in HTML comments (SG702),
//! encoded payloads (SG703), secrets (SG704), download-and-execute
//! commands (SG705), every command Claude Code runs without asking
//! (SG706), and terminal escape sequences (SG707). Precision comes first: each rule's doc gives the figures it
//! was measured with.

pub mod comment;
pub mod control;
pub mod download;
pub mod encoded;
pub mod escape_sequence;
pub mod invisible;
pub mod secrets;
pub mod unprompted;

use super::context::SkillCtx;
use super::markdown::Body;
use crate::catalog::Source;
use crate::diag::Diagnostic;
use std::sync::Arc;

/// Largest file of a skill folder these rules read besides SKILL.md.
pub const MAX_FILE: u64 = 1024 * 1024;
/// Most files of one skill folder these rules read besides SKILL.md.
pub const MAX_FILES: usize = 200;

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
    body: Option<&'a Body<'a>>,
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
const SHEBANG_SHELLS: &str = "sh bash zsh ksh dash fish";
/// Fence info strings of shell blocks (besides none at all).
const SHELL_LANGUAGES: &str = "sh bash shell zsh ksh fish console terminal shell-session \
    shellsession powershell ps1 pwsh cmd bat dockerfile docker";

fn listed(list: &str, word: &str) -> bool {
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
    let mut out = Vec::new();
    for rel in skill.files.iter().take(MAX_FILES) {
        let path = skill.dir.join(rel);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_file() || meta.len() > MAX_FILE {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        if memchr::memchr(0, &bytes).is_some() {
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let kind = kind_of(rel, &text);
        out.push(OtherText {
            rel: rel.clone(),
            file: super::files::join(&skill.rel_dir, rel),
            src: Source::new(text),
            kind,
        });
    }
    out
}

/// Run every SG7xx rule on one skill.
pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    control::check(s, out);
    let bodies: Vec<Option<Body>> = s
        .others
        .iter()
        .map(|o| (o.kind == Kind::Markdown).then(|| Body::from_index(&o.src.text, &o.src.index, 0)))
        .collect();
    let skill = Text {
        file: &s.skill.file,
        src: s.src,
        kind: Kind::Skill,
        body_start: s.skill.body_start.min(s.src.text.len()),
        body: Some(&s.body),
    };
    let texts = std::iter::once(skill).chain(s.others.iter().zip(&bodies).map(|(o, body)| Text {
        file: &o.file,
        src: &o.src,
        kind: o.kind,
        body_start: 0,
        body: body.as_ref(),
    }));
    for t in texts {
        invisible::check(&t, out);
        escape_sequence::check(&t, out);
        secrets::check(&t, out);
        encoded::check(&t, out);
        download::check(&t, out);
        if t.kind == Kind::Skill {
            comment::check(&t, out);
        }
    }
    unprompted::check(s, out);
}
/// Whether a fenced block's info string names a shell (or nothing: an
/// unlabelled block of commands).
pub fn shell_info(info: &str) -> bool {
    let lang = info
        .trim()
        .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    lang.is_empty() || listed(SHELL_LANGUAGES, &lang)
}

/// The info string of fence `f` (what follows the opening run).
pub fn fence_info<'a>(body: &Body<'a>, f: usize) -> &'a str {
    let Some(line) = body.fences.get(f).and_then(|fence| body.line(fence.open)) else {
        return "";
    };
    let t = line.text.trim_start();
    t.trim_start_matches(['`', '~'])
}

/// `text` cut to `max` characters, with `…`.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}
