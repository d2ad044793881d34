//! SG706: every command Claude Code runs from a skill without asking.

use crate::catalog::yaml::{Kind as NodeKind, Node};
use crate::diag::{Diagnostic, Span};
use crate::lint::rules::context::SkillCtx;
use crate::rule;
use regex::Regex;
use std::sync::LazyLock;

rule! {
    /// ## What it does
    /// Lists, in one notice per skill, every command Claude Code runs from
    /// the skill with no prompt to the user:
    /// - the frontmatter `hooks` (every `command:` under it, run at its
    ///   event: `PreToolUse`, `PostToolUse`, `Stop`, …, for as long as
    ///   the skill is active);
    /// - the dynamic-context lines of the body, ``!`git log -5` `` and
    ///   ```` ```! ```` blocks, run when the skill loads, their output put
    ///   in the skill's text before the model reads it.
    ///
    /// Each such command is also read by SG705 (download and execute) and
    /// SG704 (secrets); a secret in one is masked in this list.
    ///
    /// Part of the SG700–SG749 family (hostile skills: content that hides
    /// from a reviewer but reaches the model; `skillsift rules` lists them).
    ///
    /// ## Why is this bad?
    /// It is not bad in itself: hooks and dynamic context are features.
    /// But these commands run on the reviewer's machine the moment the
    /// skill is used, before any permission prompt; a reviewer should
    /// read each of them once, and this notice is the list to read.
    ///
    /// ## Example
    /// ```yaml
    /// hooks:
    ///   Stop:
    ///     - hooks:
    ///         - type: command
    ///           command: "bash ${CLAUDE_SKILL_DIR}/bin/report.sh"
    /// ```
    /// gives `Claude Code runs 1 command from this skill without asking`,
    /// with the command and its event.
    ///
    /// ## How to fix
    /// Nothing to fix when each command is what you expect. Silence the
    /// notice for a reviewed catalog with `[lint.rules] SG706 = "off"`.
    ///
    /// ## Measured
    /// 3 findings on `../shared/corpora/wild-sample` (1,000 skills), the addyosmani catalog
    /// (24 skills) and `../shared/corpora/routing-bench` (273 skills, 506
    /// files), all in wild-sample, all read by hand, 3
    /// right: the 3 skills whose frontmatter declares `hooks`, every command
    /// listed. None of them uses dynamic context.
    pub static RUNS_WITHOUT_ASKING = ("SG706", "runs-without-asking", Notice, "commands the client runs from the skill without asking");
}

/// One command run without asking.
#[derive(Debug, Clone)]
pub struct Command {
    /// `hook PreToolUse` or `when the skill loads`.
    pub when: String,
    pub text: String,
    pub span: Span,
}

static DYNAMIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[\s(\[])!`([^`\n]+)`").expect("dynamic context"));

fn walk(node: &Node, event: &str, s: &SkillCtx, out: &mut Vec<Command>) {
    match &node.kind {
        NodeKind::Map(entries) => {
            for (k, v) in entries {
                let key = k.as_str().unwrap_or("");
                let event = if event.is_empty() { key } else { event };
                if key == "command"
                    && let Some(cmd) = v.as_str()
                {
                    // the value to the end of its line when the node has no
                    // extent of its own
                    let line_end = s.src.text[v.start..]
                        .find(['\n', '\r'])
                        .map_or(s.src.text.len(), |i| v.start + i);
                    out.push(Command {
                        when: format!("hook {event}"),
                        text: cmd.to_string(),
                        span: s.span(v.start, v.end.max(line_end)),
                    });
                } else {
                    walk(v, event, s, out);
                }
            }
        }
        NodeKind::Seq(items) => {
            for i in items {
                walk(i, event, s, out);
            }
        }
        NodeKind::Scalar { .. } => {}
    }
}

/// Every command the skill makes Claude Code run without asking, hooks
/// first, then the body in order.
pub fn commands(s: &SkillCtx) -> Vec<Command> {
    let mut out = Vec::new();
    if let Some(e) = s.fm.and_then(|fm| fm.get("hooks")) {
        walk(&e.value, "", s, &mut out);
    }
    let b = &s.body;
    // a ```! block's lines all run: its info string read once a fence
    let bang: Vec<bool> = (0..b.fences.len())
        .map(|f| super::fence_info(b, f).trim() == "!")
        .collect();
    // the lines that can hold a command: those holding "!`" (every match
    // of DYNAMIC does) and a ```! block's
    let mut lines = b.lines_holding(b"!`");
    for (f, fence) in b.fences.iter().enumerate() {
        if bang[f] {
            let last = fence.close.unwrap_or(b.len().saturating_sub(1));
            lines.extend(fence.open..=last);
        }
    }
    lines.sort_unstable();
    lines.dedup();
    for i in lines {
        let Some(line) = b.line(i) else {
            continue;
        };
        if let Some(f) = line.fence {
            let fence = &b.fences[f];
            if bang[f] {
                if fence.open != i && fence.close != Some(i) && !line.text.trim().is_empty() {
                    out.push(Command {
                        when: "when the skill loads".into(),
                        text: line.text.trim().to_string(),
                        span: s.span(line.start, line.start + line.text.len()),
                    });
                }
                continue;
            }
        }
        // every match holds "!`": most lines are done with one search
        if memchr::memmem::find(line.text.as_bytes(), b"!`").is_none() {
            continue;
        }
        for c in DYNAMIC.captures_iter(line.text) {
            let m = c.get(1).expect("group 1");
            out.push(Command {
                when: "when the skill loads".into(),
                text: m.as_str().to_string(),
                span: s.span(line.start + m.start(), line.start + m.end()),
            });
        }
    }
    out
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let cmds = commands(s);
    let Some(first) = cmds.first() else {
        return;
    };
    for c in &cmds {
        if let Some((a, b)) = super::download::find(&c.text) {
            // the match inside a value written verbatim, else the value
            let span = match s.src.text.get(c.span.start..c.span.end) {
                Some(raw) if raw.contains(&c.text[a..b]) => {
                    let at = c.span.start + raw.find(&c.text[a..b]).unwrap_or(0);
                    s.span(at, at + (b - a))
                }
                _ => c.span,
            };
            let what = if c.when.starts_with("hook") {
                format!("the {} command", c.when)
            } else {
                "a dynamic-context line".to_string()
            };
            out.push(super::download::diag(
                s.file(),
                s.src,
                span.start,
                span.end,
                &c.text,
                &what,
            ));
        }
    }
    let list: Vec<String> = cmds
        .iter()
        .map(|c| {
            let text = c.text.split_whitespace().collect::<Vec<_>>().join(" ");
            format!(
                "- {} (line {}): {}",
                c.when,
                c.span.line,
                super::cut(&text, 300)
            )
        })
        .collect();
    let n = cmds.len();
    out.push(
        RUNS_WITHOUT_ASKING
            .diag(
                s.file(),
                format!(
                    "Claude Code runs {n} {} from this skill without asking",
                    if n == 1 { "command" } else { "commands" }
                ),
            )
            .with_span(first.span)
            .with_label(if n == 1 {
                "runs on the user's machine, no prompt".to_string()
            } else {
                format!("the first of {n}; all run on the user's machine, no prompt")
            })
            .with_help(format!("read each once:\n{}", list.join("\n"))),
    );
}
