//! `skillsift listing [ROOT] [--client C] [--capture C | --verify]`: the
//! listing a client shows the model, as predicted, captured from the real
//! client, or both compared. Printing is `report::listing`'s job.

use super::{ClientIdExt, Listing, capture};

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
