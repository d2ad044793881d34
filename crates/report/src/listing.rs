//! `skillsift listing`: the listing a client shows the model, one entry
//! per skill in the client's own form, with what differs from what the
//! author wrote marked under it.
//!
//! JSON (`--format json`): `{"client", "tested_with", "entries": [{"name",
//! "kind" (`skill`, or `command`: a slash command Claude Code lists after
//! the skills), "path", "listed", "reason"?, "text", "name_only", "line", "description",
//! "alias"?, "changes": [{"kind", "line"?, "column"?, "detail"}]}],
//! "builtins": [{"name", "text", "fixed"}], "builtins_captured_with"?,
//! "budget"?, "library"? (true for a library, whose skills are listed as
//! copied one by one, with no budget), "captured"?, "verify"?}`. `name` is what the model sees and
//! `text` exactly what follows `- <name>: ` in the listing. Keys may be
//! added, never renamed.

use crate::catalog::Catalog;
use crate::client::cmd::Verified;
use crate::client::{ClientId, ClientIdExt, Listing};
use serde_json::{Value, json};
use std::io::Write;

/// What to print.
pub struct View<'a> {
    pub listing: &'a Listing,
    pub catalog: &'a Catalog,
    /// The CLI version the built-ins were captured with, when they were.
    pub builtins_version: Option<&'a str>,
    /// A capture just made (`--capture`): the catalog entries the CLI sent.
    pub captured: Option<&'a [(String, String)]>,
    pub verified: Option<&'a Verified>,
    /// A catalog installed in parts (plugins, marketplace entries, packs,
    /// [`crate::client::install`]): each installation and its own
    /// listing; `listing` then holds their entries one after another.
    pub parts: Option<&'a [(crate::client::install::Install, Listing)]>,
}

/// The client version its model reproduces, when it is a real client.
pub fn tested(client: ClientId) -> Option<&'static str> {
    client.tested_version()
}

pub fn json(v: &View, out: &mut dyn Write) -> std::io::Result<()> {
    let l = v.listing;
    let entries: Vec<Value> = l
        .all()
        .map(|e| {
            let mut o = serde_json::to_value(e).unwrap_or(Value::Null);
            if let Some(r) = &e.reason {
                o["reason"] = json!({
                    "kind": serde_json::to_value(r).ok().and_then(|k| k.get("kind").cloned()),
                    "message": r.describe(),
                });
            }
            o
        })
        .collect();
    let mut doc = json!({
        "client": l.client.as_str(),
        "tested_with": tested(l.client),
        "entries": entries,
        "builtins": l.builtins,
        "budget": l.budget,
    });
    if v.catalog.library {
        doc["library"] = json!(true);
    }
    if let Some(parts) = v.parts {
        doc["installations"] = parts
            .iter()
            .map(|(inst, l)| {
                json!({
                    "label": inst.label,
                    "names": l.all().filter(|e| e.listed).map(|e| e.name.as_str()).collect::<Vec<_>>(),
                    "not_listed": l.all().filter(|e| !e.listed).map(|e| e.name.as_str()).collect::<Vec<_>>(),
                    "budget": l.budget,
                })
            })
            .collect::<Vec<_>>()
            .into();
    }
    if let Some(ver) = v.builtins_version {
        doc["builtins_captured_with"] = json!(ver);
    }
    if let Some(c) = v.captured {
        doc["captured"] = c
            .iter()
            .map(|(n, t)| json!({"name": n, "text": t}))
            .collect::<Vec<_>>()
            .into();
    }
    if let Some(ver) = v.verified {
        doc["verify"] = serde_json::to_value(ver).unwrap_or(Value::Null);
    }
    crate::escape::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

/// The gutter before each continuation line of an entry.
pub const GUTTER: &str = "  | ";

/// An entry's text as the human listing shows it: its first line as the
/// client shows it, each further line after [`GUTTER`]. A line of a
/// multi-line description then never starts a line of output: it cannot be
/// read as a CI workflow command (`::error::…`, `::stop-commands::…`: the
/// runner trims leading whitespace, so indenting is not enough) nor pose as
/// another entry (`- skill: …`). `--format json` keeps the text as it is.
fn block(text: &str) -> String {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.replace("\r\n", "\n")
        .replace('\n', &format!("\n{GUTTER}"))
}

/// A name, a path or a detail, on one line (`\n` escaped).
fn one(text: &str) -> std::borrow::Cow<'_, str> {
    crate::escape::line(text)
}

pub fn human(v: &View, out: &mut dyn Write) -> std::io::Result<()> {
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    let l = v.listing;
    let total = l.entries.len() + l.commands.len();
    let listed = l.all().filter(|e| e.listed).count();
    let what = match l.commands.len() {
        0 => crate::base::plural::count(l.entries.len(), "skill"),
        n => format!(
            "{} and {}",
            crate::base::plural::count(l.entries.len(), "skill"),
            crate::base::plural::count(n, "command")
        ),
    };
    let what = match v.parts {
        Some(p) if p.len() > 1 => format!("{what} in {} installations", p.len()),
        Some(p) => format!(
            "{what} in {}",
            p.first().map(|(i, _)| one(&i.label)).unwrap_or_default()
        ),
        None => what,
    };
    match tested(l.client) {
        Some(t) => writeln!(
            out,
            "{what} as {} shows them (model of {} {t}): {listed} listed, {} not",
            l.client.label(),
            l.client.label(),
            total - listed
        )?,
        None => writeln!(
            out,
            "{what} as {} reads them: {listed} listed, {} not",
            l.client.label(),
            total - listed
        )?,
    }
    match v.parts {
        Some(parts) => {
            for (inst, part) in parts {
                let listed = part.all().filter(|e| e.listed).count();
                let width = part.budget.as_ref().map(|b| {
                    format!(
                        "; listing width {} of {} {}{}",
                        b.used,
                        b.limit,
                        b.unit,
                        if b.used > b.limit {
                            " (over budget)"
                        } else {
                            ""
                        }
                    )
                });
                writeln!(
                    out,
                    "{}: {listed} listed, {} not{}",
                    one(&inst.label),
                    part.all().count() - listed,
                    width.unwrap_or_default()
                )?;
                entries(part, out)?;
            }
        }
        None => entries(l, out)?,
    }
    tail(v, out)
}

/// A listing's entries: the listed ones with what changed, then the
/// others with why.
fn entries(l: &Listing, out: &mut dyn Write) -> std::io::Result<()> {
    for e in l.all().filter(|e| e.listed) {
        writeln!(out, "{}", block(&e.line))?;
        for c in e
            .changes
            .iter()
            .filter(|c| c.kind != crate::client::ChangeKind::WhenToUse)
        {
            let at = match c.line {
                Some(line) => format!("{}:{line}:{}: ", one(&e.path), c.column.unwrap_or(1)),
                None => format!("{}: ", one(&e.path)),
            };
            writeln!(out, "    ^ {at}{}", one(&c.detail))?;
        }
    }
    let hidden: Vec<_> = l.all().filter(|e| !e.listed).collect();
    if !hidden.is_empty() {
        writeln!(out, "not listed:")?;
        for e in hidden {
            let why = e.reason.as_ref().map(|r| r.describe()).unwrap_or_default();
            writeln!(out, "  {} ({}): {}", one(&e.name), one(&e.path), one(&why))?;
        }
    }
    Ok(())
}

/// What follows the entries: the built-ins, the budget, a capture's or a
/// verification's result.
fn tail(v: &View, out: &mut dyn Write) -> std::io::Result<()> {
    let l = v.listing;
    if !l.builtins.is_empty() {
        writeln!(
            out,
            "then {} built-in skill{} of {} (captured from {}): {}",
            l.builtins.len(),
            if l.builtins.len() == 1 { "" } else { "s" },
            l.client.label(),
            v.builtins_version.unwrap_or("?"),
            one(&l
                .builtins
                .iter()
                .map(|b| b.name.as_str())
                .collect::<Vec<_>>()
                .join(", "))
        )?;
    } else if l.client == ClientId::ClaudeCode && v.builtins_version.is_none() {
        writeln!(
            out,
            "Claude Code's built-in skills follow in the real listing; none captured yet (`skillsift listing --capture claude-code`)"
        )?;
    }
    if v.catalog.library {
        writeln!(
            out,
            "a library: every skill lies deeper than {} reads, so each is listed as if copied on its own into its skills folder; nobody installs a library whole, so no listing budget applies",
            l.client.label()
        )?;
    }
    if let Some(b) = &l.budget {
        writeln!(
            out,
            "listing width: {} of {} {}{}",
            b.used,
            b.limit,
            b.unit,
            if b.used > b.limit {
                " (over budget: some skills show their name only)"
            } else {
                ""
            }
        )?;
    }
    if let Some(c) = v.captured {
        writeln!(
            out,
            "captured: {} catalog entries in the CLI's listing",
            c.len()
        )?;
    }
    if let Some(ver) = v.verified {
        for m in &ver.mismatches {
            writeln!(out, "differs: {} ({})", one(&m.name), one(&m.path))?;
            writeln!(
                out,
                "  predicted: {}",
                block(m.predicted.as_deref().unwrap_or("(not listed)"))
            )?;
            writeln!(
                out,
                "  captured:  {}",
                block(m.captured.as_deref().unwrap_or("(not listed)"))
            )?;
        }
        if !ver.ambiguous.is_empty() {
            writeln!(
                out,
                "not compared: {} name{} that several skills share, of which {} lists one chosen by the order it reads the files: {}",
                ver.ambiguous.len(),
                if ver.ambiguous.len() == 1 { "" } else { "s" },
                l.client.label(),
                one(&ver.ambiguous.join(", "))
            )?;
        }
        if let Some(order) = &ver.captured_order {
            writeln!(
                out,
                "differs: the order; {} lists them as {}",
                l.client.label(),
                one(&order.join(", "))
            )?;
        }
        let (total, what) = match ver.commands {
            0 => (ver.skills, "skills".to_string()),
            n => (
                ver.skills + n,
                format!(
                    "entries ({} skills, {n} command{})",
                    ver.skills,
                    if n == 1 { "" } else { "s" }
                ),
            ),
        };
        writeln!(
            out,
            "verify: {}/{total} {what} as predicted ({} {})",
            total - ver.mismatches.len(),
            l.client.label(),
            ver.version
        )?;
    }
    let _ = v.catalog;
    Ok(())
}
