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
use super::text::listed;
pub use super::text::{Kind, Text};
use crate::diag::Diagnostic;

/// Fence info strings of shell blocks (besides none at all).
const SHELL_LANGUAGES: &str = "sh bash shell zsh ksh fish console terminal shell-session \
    shellsession powershell ps1 pwsh cmd bat dockerfile docker";

/// Run every SG7xx rule on one skill.
pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    control::check(s, out);
    for t in s.texts() {
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
        .unwrap_or("");
    lang.is_empty()
        || SHELL_LANGUAGES
            .split_whitespace()
            .any(|w| w.eq_ignore_ascii_case(lang))
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
