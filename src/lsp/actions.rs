//! Code actions: every fix `check --fix` knows for the findings under the
//! cursor (safe ones as preferred quick fixes, unsafe ones labelled), all
//! of a file's safe fixes at once (`source.fixAll.skillsift`), a
//! suppression comment for a finding in a skill's folder, the description
//! `tune` recommends for a SKILL.md, and the two commands
//! ([`super::commands`]) on the selection and the catalog.
//!
//! An edit is offered only while the buffer holds the text the check
//! read: a fix's byte offsets are into that text, and a buffer changed
//! since may have moved them.

use super::{Checked, Lines, Server, range_of, shown, to_lsp};
use crate::diag::{Applicability, Diagnostic};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Command, Position, Range,
    TextEdit, Url, WorkspaceEdit,
};
use std::collections::HashMap;

/// The suppression comment's start, as `suppress` reads it.
const DIRECTIVE: &str = "# skillsift: ignore[";

impl Server {
    pub(super) fn actions(&self, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let uri = &p.text_document.uri;
        let Some((c, rel)) = self.located(uri) else {
            return Vec::new();
        };
        let Some(doc) = self.docs.get(uri) else {
            return Vec::new();
        };
        let wanted = |kind: &CodeActionKind| {
            p.context
                .only
                .as_ref()
                .is_none_or(|only| only.iter().any(|o| kind.as_str().starts_with(o.as_str())))
        };
        let mut out = Vec::new();
        let fresh = c.read_as(doc.path.as_deref(), &doc.text);
        let lines = Lines::new(&doc.text);
        for d in c.findings.get(&rel).into_iter().flatten() {
            // placed before it is converted: a case file may hold
            // thousands of findings, and the editor asks at every move
            if !touches(range_of(d, Some(&lines)), p.range) {
                continue;
            }
            let diag = to_lsp(d, Some(&lines));
            if fresh
                && wanted(&CodeActionKind::QUICKFIX)
                && let Some(a) = fix_action(uri, &lines, d, &diag)
            {
                out.push(CodeActionOrCommand::CodeAction(a));
            }
            if wanted(&CodeActionKind::QUICKFIX)
                && let Some(a) = self.suppression(c, d, &diag)
            {
                out.push(CodeActionOrCommand::CodeAction(a));
            }
        }
        if fresh
            && wanted(&CodeActionKind::SOURCE_FIX_ALL)
            && let Some(a) = fix_all(uri, &lines, c.findings.get(&rel).map_or(&[], Vec::as_slice))
        {
            out.push(CodeActionOrCommand::CodeAction(a));
        }
        if fresh && wanted(&CodeActionKind::REFACTOR_REWRITE) {
            out.extend(self.tuned_action(c, uri, &rel, p.range));
        }
        // the commands, for editors without an extension to call them
        let selected = (p.range.start != p.range.end)
            .then(|| slice(&doc.text, &lines, p.range))
            .flatten()
            .filter(|s| !s.trim().is_empty());
        let title = if selected.is_some() {
            "Rank the selected text as a prompt (skillsift)"
        } else {
            "Rank this trigger prompt (skillsift)"
        };
        // with no selection, the trigger prompt under the cursor
        let prompt =
            selected.or_else(|| Some(prompt_at(c, &rel, &lines, p.range)?.result.prompt.clone()));
        if let Some(prompt) = prompt
            && wanted(&CodeActionKind::SOURCE)
        {
            out.push(command_action(
                title,
                super::commands::RANK,
                serde_json::json!({"uri": uri, "prompt": prompt, "show": true}),
            ));
        }
        if wanted(&CodeActionKind::SOURCE) {
            out.push(command_action(
                "Show the listing the client shows the model (skillsift)",
                super::commands::LISTING,
                serde_json::json!({"uri": uri, "show": true}),
            ));
        }
        out
    }

    /// "Suppress RULE in skill X": a comment on the first line of the
    /// frontmatter of the SKILL.md whose folder holds the finding's file.
    /// The reason is the author's to write: the comment is inserted
    /// without one, and SG021 asks for it until it is written.
    fn suppression(
        &self,
        c: &Checked,
        d: &Diagnostic,
        diag: &lsp_types::Diagnostic,
    ) -> Option<CodeAction> {
        use crate::lint::rules::suppression::{INVALID_SUPPRESSION, UNUSED_SUPPRESSION};
        // a finding about a suppression is mended, not suppressed
        if d.rule == INVALID_SUPPRESSION.id || d.rule == UNUSED_SUPPRESSION.id {
            return None;
        }
        let (catalog, _) = c.loaded.as_ref()?;
        let skill = &catalog.skills[crate::suppress::holder(catalog, &d.file)?];
        let path = c.root.join(&skill.file);
        let text = self.text_of(&path)?;
        let at = frontmatter_start(&text)?;
        let uri = Url::from_file_path(&path).ok()?;
        let name = skill.name().unwrap_or(&skill.folder);
        let edit = TextEdit {
            range: Range::new(at, at),
            new_text: format!("{DIRECTIVE}{}] \n", d.rule),
        };
        Some(CodeAction {
            title: shown(&format!(
                "Suppress {} in skill `{name}` (then write why after the comment)",
                d.rule
            )),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diag.clone()]),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(uri, vec![edit])])),
                ..WorkspaceEdit::default()
            }),
            command: None,
            is_preferred: Some(false),
            disabled: None,
            data: None,
        })
    }
}

impl Server {
    /// "Apply the description `tune` recommends", when `tune` recommends
    /// one (its default rounds, on the catalog as the editor holds it):
    /// on a SKILL.md's frontmatter, and on a failing trigger prompt of a
    /// case file, for the prompt's skill (the edit is of its SKILL.md).
    /// Tuned once per change of any buffer.
    fn tuned_action(
        &self,
        c: &Checked,
        uri: &Url,
        rel: &str,
        range: Range,
    ) -> Option<CodeActionOrCommand> {
        let (catalog, config) = c.loaded.as_ref()?;
        let doc = self.docs.get(uri)?;
        let (i, from_prompt) = match catalog.skills.iter().position(|s| s.file == rel) {
            Some(i) => {
                let fm = catalog.skills[i].frontmatter.as_ref()?;
                let lines = Lines::new(&doc.text);
                (range.start <= lines.position(fm.yaml.end)?).then_some((i, false))?
            }
            None => {
                let lines = Lines::new(&doc.text);
                let r = (c.prompts.get(rel)?.iter()).find(|r| {
                    let p = &r.result;
                    let failing = match p.kind {
                        crate::catalog::cases::Side::Positive => !p.rank1,
                        crate::catalog::cases::Side::Negative => !p.passed,
                    };
                    failing
                        && p.lexical
                        && lines
                            .position(p.span.start)
                            .zip(lines.position(p.span.end))
                            .is_some_and(|(s, e)| touches(Range::new(s, e), range))
                })?;
                (catalog.require_skill(&r.result.skill).ok()?, true)
            }
        };
        let skill = &catalog.skills[i];
        let path = c.root.join(&skill.file);
        // the SKILL.md as the editor holds it: its buffer, else the disk
        let current = self.text_of(&path)?;
        let name = skill.name().unwrap_or(&skill.folder).to_string();
        let mut cache = self.tuned.borrow_mut();
        let rec = match cache.get(&path) {
            Some((g, rec)) if *g == self.generation => rec.clone(),
            _ => {
                let whole =
                    skill.cut == 0 && skill.source.as_ref().is_some_and(|s| *s.text == *current);
                let rec = if whole {
                    crate::authoring::tune::recommended(catalog, config, &name)
                } else {
                    // a check keeps a body's start only: this skill whole
                    let all: Vec<usize> = (0..catalog.skills.len()).collect();
                    let mut copy = catalog.subset(&all, true);
                    copy.skills[i] = skill.reread(&current).0;
                    crate::authoring::tune::recommended(&copy, config, &name)
                };
                let rec = rec.ok().flatten();
                cache.insert(path.clone(), (self.generation, rec.clone()));
                rec
            }
        }?;
        let lines = Lines::new(&current);
        let edit = TextEdit {
            range: Range::new(
                lines.position(rec.edit.start)?,
                lines.position(rec.edit.end)?,
            ),
            new_text: rec.edit.replacement.clone(),
        };
        let t = &rec.test;
        let whose = if from_prompt {
            format!(" for `{name}`")
        } else {
            String::new()
        };
        Some(CodeActionOrCommand::CodeAction(CodeAction {
            title: shown(&format!(
                "Apply the description `skillsift tune` recommends{whose}: {} more of {} validation prompts pass, {} fewer",
                t.better, t.prompts, t.worse
            )),
            kind: Some(CodeActionKind::REFACTOR_REWRITE),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(
                    Url::from_file_path(&path).ok()?,
                    vec![edit],
                )])),
                ..WorkspaceEdit::default()
            }),
            ..CodeAction::default()
        }))
    }
}

/// The fix a finding carries, as edits of the buffer it is in.
fn fix_action(
    uri: &Url,
    lines: &Lines,
    d: &Diagnostic,
    diag: &lsp_types::Diagnostic,
) -> Option<CodeAction> {
    let fix = d.fix.as_ref()?;
    let edits = (fix.edits.iter())
        .map(|e| {
            Some(TextEdit {
                range: Range::new(lines.position(e.start)?, lines.position(e.end)?),
                new_text: e.replacement.clone(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let safe = fix.applicability == Applicability::Safe;
    let title = if safe {
        format!("{} ({})", capitalized(&fix.description), d.rule)
    } else {
        format!(
            "{} ({}, unsafe: changes what the clients read; review it)",
            capitalized(&fix.description),
            d.rule
        )
    };
    Some(CodeAction {
        title: shown(&title),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diag.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }),
        command: None,
        is_preferred: Some(safe),
        disabled: None,
        data: None,
    })
}

/// "Fix all": every safe fix of the file's findings in one edit, a fix
/// whose edits overlap one taken before left for another pass (as
/// `check --fix` passes); `None` when there is none.
fn fix_all(uri: &Url, lines: &Lines, findings: &[Diagnostic]) -> Option<CodeAction> {
    let mut fixes: Vec<&crate::diag::Fix> = (findings.iter())
        .filter_map(|d| d.fix.as_deref())
        .filter(|f| f.applicability == Applicability::Safe && !f.edits.is_empty())
        .collect();
    fixes.sort_by_key(|f| f.edits[0].start);
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let mut edits = Vec::new();
    let mut count = 0;
    for fix in fixes {
        let clashes = (fix.edits.iter())
            .any(|e| (taken.iter()).any(|&(s, end)| (e.start < end && s < e.end) || e.start == s));
        if clashes {
            continue;
        }
        let placed = (fix.edits.iter())
            .map(|e| {
                Some(TextEdit {
                    range: Range::new(lines.position(e.start)?, lines.position(e.end)?),
                    new_text: e.replacement.clone(),
                })
            })
            .collect::<Option<Vec<_>>>();
        let Some(placed) = placed else { continue };
        taken.extend(fix.edits.iter().map(|e| (e.start, e.end)));
        edits.extend(placed);
        count += 1;
    }
    (count > 0).then(|| CodeAction {
        title: if count == 1 {
            "Fix all: 1 safe fix in this file (skillsift)".to_string()
        } else {
            format!("Fix all: {count} safe fixes in this file (skillsift)")
        },
        kind: Some(CodeActionKind::new("source.fixAll.skillsift")),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }),
        ..CodeAction::default()
    })
}

fn command_action(title: &str, command: &str, argument: serde_json::Value) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title: title.to_string(),
        kind: Some(CodeActionKind::SOURCE),
        command: Some(Command {
            title: title.to_string(),
            command: command.to_string(),
            arguments: Some(vec![argument]),
        }),
        ..CodeAction::default()
    })
}

/// The trigger prompt of `rel` (as ranked) whose text `at` touches.
pub(super) fn prompt_at<'c>(
    c: &'c Checked,
    rel: &str,
    lines: &Lines,
    at: Range,
) -> Option<&'c crate::commands::Ranked> {
    (c.prompts.get(rel)?.iter()).find(|r| {
        let span = r.result.span;
        lines
            .position(span.start)
            .zip(lines.position(span.end))
            .is_some_and(|(s, e)| touches(Range::new(s, e), at))
    })
}

/// Whether two ranges overlap or touch (an empty range at a finding's
/// edge counts: the cursor sits there).
fn touches(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The text between two positions of `text`.
fn slice(text: &str, lines: &Lines, r: Range) -> Option<String> {
    let (s, e) = (lines.offset(r.start)?, lines.offset(r.end)?);
    text.get(s.min(e)..s.max(e)).map(str::to_string)
}

/// The start of the line after a SKILL.md's opening `---`.
fn frontmatter_start(text: &str) -> Option<Position> {
    let first = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .next()?;
    (first.trim_end() == "---").then_some(Position::new(1, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_that_touch_count() {
        let r =
            |a: u32, b: u32, c: u32, d: u32| Range::new(Position::new(a, b), Position::new(c, d));
        assert!(touches(r(1, 0, 1, 5), r(1, 5, 1, 5)));
        assert!(touches(r(1, 0, 1, 5), r(0, 0, 3, 0)));
        assert!(!touches(r(1, 0, 1, 5), r(1, 6, 1, 7)));
        assert!(!touches(r(2, 0, 2, 5), r(1, 0, 1, 9)));
    }

    #[test]
    fn the_suppression_goes_under_the_opening_line() {
        assert_eq!(
            frontmatter_start("---\nname: x\n"),
            Some(Position::new(1, 0))
        );
        assert_eq!(
            frontmatter_start("\u{feff}---\r\nname: x\n"),
            Some(Position::new(1, 0))
        );
        assert_eq!(frontmatter_start("# no frontmatter\n"), None);
    }
}
