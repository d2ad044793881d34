//! `skillgate listing [ROOT] [--client C] [--capture C | --verify]`: the
//! listing a client shows the model, as predicted, captured from the real
//! client, or both compared. Printing is `report::listing`'s job.

use super::{ClientId, Listing, capture};
use crate::app::load_config;
use crate::catalog::{Catalog, Scope};
use crate::cli::{Format, ListingArgs};
use crate::exit::{Exit, Fatal};
use crate::report;
use std::io::Write;

/// One skill whose captured entry is not the predicted one.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Mismatch {
    pub name: String,
    /// A skill or a command.
    pub kind: super::EntryKind,
    pub path: String,
    /// The predicted line (`None`: predicted not listed).
    pub predicted: Option<String>,
    /// The captured line (`None`: not in the captured listing).
    pub captured: Option<String>,
}

/// The prediction compared with a capture.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Verified {
    pub version: String,
    /// The catalog's skills compared (the ambiguous ones left out).
    pub skills: usize,
    /// The catalog's slash commands compared (Claude Code lists them).
    pub commands: usize,
    pub mismatches: Vec<Mismatch>,
    /// Skills sharing their name with another where the client lists one of
    /// them, chosen by the order the file system or its threads deliver
    /// the files (Gemini CLI, opencode): not compared, never a mismatch.
    pub ambiguous: Vec<String>,
    /// Claude Code: the catalog's listed entries in the captured order,
    /// when it is not the predicted order (skills by name, then commands
    /// by name); the predicted order is `entries`' own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captured_order: Option<Vec<String>>,
}

impl Verified {
    /// Everything compared is as predicted.
    pub fn agrees(&self) -> bool {
        self.mismatches.is_empty() && self.captured_order.is_none()
    }
}

/// Compare `listing` (predicted with the capture's built-ins) with the
/// catalog entries of `cap`.
pub fn compare(listing: &Listing, cap: &capture::Capture) -> Verified {
    let mut mismatches = Vec::new();
    let mut captured: std::collections::HashMap<&str, Vec<&str>> = Default::default();
    for (n, t) in &cap.entries {
        captured.entry(n.as_str()).or_default().push(t.as_str());
    }
    let mut ambiguous: Vec<String> = listing
        .entries
        .iter()
        .filter(|e| matches!(e.reason, Some(super::Hidden::Shadowed { .. })))
        .map(|e| e.name.clone())
        .collect();
    ambiguous.sort();
    ambiguous.dedup();
    for e in listing.all() {
        if e.kind == super::EntryKind::Skill && ambiguous.contains(&e.name) {
            continue;
        }
        let got = captured
            .get_mut(e.name.as_str())
            .and_then(|v| (!v.is_empty()).then(|| v.remove(0)));
        let model = listing.client.model();
        let predicted = e.listed.then(|| model.line(&e.name, &e.text));
        let captured_line = got.map(|t| model.line(&e.name, t));
        if predicted != captured_line {
            mismatches.push(Mismatch {
                name: e.name.clone(),
                kind: e.kind,
                path: e.path.clone(),
                predicted,
                captured: captured_line,
            });
        }
    }
    // the order: the catalog's entries come first in Claude Code's
    // listing, the built-ins (which may share their names) after them
    let predicted: Vec<&str> = listing
        .all()
        .filter(|e| e.listed)
        .map(|e| e.name.as_str())
        .collect();
    let got: Vec<&str> = cap
        .entries
        .iter()
        .take(predicted.len())
        .map(|(n, _)| n.as_str())
        .collect();
    let captured_order = (listing.client == super::ClientId::ClaudeCode
        && mismatches.is_empty()
        && got != predicted)
        .then(|| got.iter().map(|n| n.to_string()).collect());
    Verified {
        captured_order,
        version: cap.version.clone(),
        skills: listing
            .entries
            .iter()
            .filter(|e| !ambiguous.contains(&e.name))
            .count(),
        commands: listing.commands.len(),
        mismatches,
        ambiguous,
    }
}

pub fn listing(args: &ListingArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    if !args.root.exists() {
        return Err(
            Fatal::usage(format!("{}: no such file or folder", args.root.display()))
                .with_help("pass a catalog folder, a skill folder or a SKILL.md"),
        );
    }
    let config = load_config(&args.root, args.config.as_deref())?;
    let catalog = Catalog::load_scoped(&args.root, &config, Scope::SkillsOnly)?;
    let folder = crate::route::cache::folder(args.cache_dir.as_deref());
    let live = match (args.capture, args.verify) {
        (Some(ClientId::Spec), _) => {
            return Err(Fatal::usage(
                "the specification is not a program: there is nothing to capture",
            )
            .with_help("capture a client: --capture claude-code"));
        }
        (Some(c), _) => Some(c),
        (None, true) => Some(match super::chosen(&config, args.client) {
            ClientId::Spec => ClientId::ClaudeCode,
            c => c,
        }),
        (None, false) => None,
    };
    let client = match live {
        Some(c) => c,
        None => super::chosen(&config, args.client),
    };
    if args.verify && args.client == Some(ClientId::Spec) {
        return Err(Fatal::usage(
            "--verify compares with a real client; the specification is none",
        )
        .with_help("drop --client spec"));
    }
    let (builtins, cap) = match live {
        Some(c) => {
            let cap = capture::capture(c, &catalog, &config)?;
            if let Some(f) = &folder {
                capture::store(f, &cap.builtins)?;
            }
            (Some(cap.builtins.clone()), Some(cap))
        }
        None => (
            capture::load(folder.as_deref(), client).map(|(b, _)| b),
            None,
        ),
    };
    let builtin_list = builtins.as_ref().map(|b| b.builtins.as_slice());
    let listing = match &cap {
        // priced with the roots table the CLI showed
        Some(c) if client == ClientId::Codex && !c.roots.is_empty() => {
            super::codex::listing_with_roots(&catalog, &config, builtin_list, &c.roots)
        }
        _ => client.model().listing(&catalog, &config, builtin_list),
    };
    let verified = (args.verify).then(|| compare(&listing, cap.as_ref().expect("captured")));
    let view = report::listing::View {
        listing: &listing,
        catalog: &catalog,
        builtins_version: builtins.as_ref().map(|b| b.version.as_str()),
        captured: cap
            .as_ref()
            .filter(|_| !args.verify)
            .map(|c| c.entries.as_slice()),
        verified: verified.as_ref(),
    };
    let written = match args.format {
        Format::Json => report::listing::json(&view, out),
        _ => report::listing::human(&view, out),
    };
    written.map_err(report::write_error)?;
    Ok(match &verified {
        Some(v) if !v.agrees() => Exit::Failed,
        _ => Exit::Ok,
    })
}
