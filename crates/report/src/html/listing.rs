//! The client listing: what the chosen client (`--client`, `[route]
//! client`) shows the model, as `skillsift listing` reads it
//! (`crate::client`): the skills it does not list and why, and the entries
//! whose text differs from what the author wrote (cut at the entry cap,
//! shown by name only over the listing budget, read from the body, …),
//! each with the text the model sees beside the description as written.
//! The project commands Claude Code lists beside the skills are in each
//! part too, marked as commands.

use super::{Esc, Href, count_of, cut, thousands};
use crate::client::{ChangeKind, EntryKind};
use crate::route::Router;
use std::fmt::Write as _;

/// Characters of a text shown before it folds away.
const TEXT_CHARS: usize = 2000;

/// Changes worth a reader's attention, other than the name-only entries
/// of a listing over budget (listed apart): a `when_to_use` appended is
/// how the client is meant to read a skill.
fn notable(c: &crate::client::Change) -> bool {
    !matches!(c.kind, ChangeKind::WhenToUse | ChangeKind::NameOnly)
}

/// Skills the client does not list, listed ones shown by name only, and
/// listed ones whose text changed.
pub fn counts(router: &Router) -> (usize, usize, usize) {
    let all = || all_entries(router);
    (
        all().filter(|e| !e.listed).count(),
        all().filter(|e| e.listed && e.name_only).count(),
        all()
            .filter(|e| e.listed && e.changes.iter().any(notable))
            .count(),
    )
}

/// The skills, then the project commands the client lists beside them.
fn all_entries<'a>(router: &'a Router<'_>) -> impl Iterator<Item = &'a crate::client::Entry> {
    router
        .listing
        .entries
        .iter()
        .chain(router.listing.commands.iter())
}

/// ` <small>command</small>` after a command's name.
fn tag(e: &crate::client::Entry) -> &'static str {
    match e.kind {
        EntryKind::Command => " <small class=\"tag\">command</small>",
        EntryKind::Skill => "",
    }
}

/// `text` with its first letter in upper case, to open a sentence.
fn sentence(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

pub fn render(router: &Router, link_base: &str) -> String {
    let l = &router.listing;
    let mut o = String::new();
    let listed = l.entries.iter().filter(|e| e.listed).count();
    let _ = write!(
        o,
        "<p>{}{} lists {} of {} for the model, under the names and with the texts Tier 2 routes.",
        Esc(&sentence(l.client.label())),
        super::super::listing::tested(l.client)
            .map(|v| format!(" (as version {v} does)"))
            .unwrap_or_default(),
        count_of(listed, "skill"),
        thousands(l.entries.len()),
    );
    if !l.builtins.is_empty() {
        let _ = write!(
            o,
            " {} of {} follow{} them in the listing: {}.",
            count_of(l.builtins.len(), "built-in skill"),
            Esc(l.client.label()),
            if l.builtins.len() == 1 { "s" } else { "" },
            Esc(&l
                .builtins
                .iter()
                .map(|b| b.name.as_str())
                .collect::<Vec<_>>()
                .join(", "))
        );
    }
    if !l.commands.is_empty() {
        let shown = l.commands.iter().filter(|e| e.listed).count();
        let _ = write!(
            o,
            " It lists {} of the project's {} beside them (<code>.claude/commands/</code>), in the same budget.",
            thousands(shown),
            count_of(l.commands.len(), "command"),
        );
    }
    if let Some(b) = &l.budget {
        let _ = write!(
            o,
            " The listing is {} of {} {}{}.",
            thousands(b.used),
            thousands(b.limit),
            Esc(b.unit),
            if b.used > b.limit {
                ": over budget, so some skills show their name only"
            } else {
                ""
            }
        );
    }
    o.push_str(" <code>skillsift listing</code> prints the listing itself.</p>\n");

    let hidden: Vec<_> = all_entries(router).filter(|e| !e.listed).collect();
    let _ = writeln!(
        o,
        "<h3 id=\"not-listed\">Not listed: the model does not see these ({})</h3>",
        hidden.len()
    );
    if hidden.is_empty() {
        o.push_str("<p class=\"empty good\">The client lists every skill.</p>\n");
    } else {
        o.push_str(
            "<table class=\"list\"><thead><tr><th>skill</th><th>why</th></tr></thead><tbody>\n",
        );
        for e in hidden {
            let _ = writeln!(
                o,
                "<tr><td><b>{}</b>{} <a href=\"{}\"><code>{}</code></a></td><td>{}</td></tr>",
                Esc(&e.name),
                tag(e),
                Href(link_base, &e.path),
                Esc(&e.path),
                Esc(&e.reason.as_ref().map(|r| r.describe()).unwrap_or_default())
            );
        }
        o.push_str("</tbody></table>\n");
    }

    let name_only: Vec<_> = all_entries(router)
        .filter(|e| e.listed && e.name_only)
        .collect();
    if !name_only.is_empty() {
        let _ = write!(
            o,
            "<h3 id=\"name-only\">Shown by name only: the listing is over budget ({})</h3><details><summary>{}</summary><p>",
            name_only.len(),
            count_of(name_only.len(), "skill")
        );
        for (i, e) in name_only.iter().enumerate() {
            if i > 0 {
                o.push_str(", ");
            }
            let _ = write!(
                o,
                "<a href=\"{}\">{}</a>",
                Href(link_base, &e.path),
                Esc(&e.name)
            );
        }
        o.push_str("</p></details>\n");
    }

    let shown: Vec<_> = all_entries(router)
        .filter(|e| e.listed && e.changes.iter().any(notable))
        .collect();
    let _ = writeln!(
        o,
        "<h3 id=\"texts-changed\">Texts the model sees differently from what was written ({})</h3>",
        shown.len()
    );
    if shown.is_empty() {
        o.push_str("<p class=\"empty good\">Every listed skill shows its description as written (or its name alone, above).</p>\n");
        return o;
    }
    o.push_str("<table class=\"list\"><thead><tr><th>skill</th><th>what the client does</th><th>the text</th></tr></thead><tbody>\n");
    for e in shown {
        let _ = write!(
            o,
            "<tr><td><b>{}</b>{} <a href=\"{}\"><code>{}</code></a></td><td><ul class=\"changes\">",
            Esc(&e.name),
            tag(e),
            Href(link_base, &e.path),
            Esc(&e.path)
        );
        for c in e.changes.iter().filter(|c| notable(c)) {
            let at = match c.line {
                Some(line) => format!("{}:{line}:{}", e.path, c.column.unwrap_or(1)),
                None => e.path.clone(),
            };
            let _ = write!(o, "<li><code>{}</code> {}</li>", Esc(&at), Esc(&c.detail));
        }
        o.push_str("</ul></td><td>");
        let sees = if e.name_only {
            "<i>the name only (over budget)</i>".to_string()
        } else {
            format!(
                "<pre class=\"text\">{}</pre>",
                Esc(&cut(&e.text, TEXT_CHARS))
            )
        };
        let _ = write!(
            o,
            "<details><summary>the model sees</summary>{sees}</details>"
        );
        if let Some(d) = &e.description {
            let _ = write!(
                o,
                "<details><summary>the author wrote</summary><pre class=\"text\">{}</pre></details>",
                Esc(&cut(d, TEXT_CHARS))
            );
        }
        o.push_str("</td></tr>\n");
    }
    o.push_str("</tbody></table>\n");
    o
}
