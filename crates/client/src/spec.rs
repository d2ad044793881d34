//! The Agent Skills specification's strict reading: a skill is listed
//! under its frontmatter `name` with its frontmatter `description`, both
//! strings that are not blank, as skillsift's own parser (yaml-rust2 with
//! exact spans, see `catalog::yaml`) reads them. Nothing is cut and there
//! is no budget unless `[route] entry-cap-chars` / `listing-budget-chars`
//! set them (characters are Unicode scalar values; Tier 2's SG520/SG521
//! apply them). This is what Tier 2 routed before client models existed
//! (`[route] client = "spec"`).

use super::{Builtin, Client, ClientId, Entry, Hidden, Listing};
use crate::catalog::Catalog;
use crate::config::Config;

/// The specification.
pub struct Spec;

impl Client for Spec {
    fn id(&self) -> ClientId {
        ClientId::Spec
    }

    fn line(&self, name: &str, text: &str) -> String {
        format!("- {name}: {text}")
    }

    fn listing(
        &self,
        catalog: &Catalog,
        _config: &Config,
        _builtins: Option<&[Builtin]>,
    ) -> Listing {
        let mut listed = Vec::new();
        let mut other = Vec::new();
        for (i, s) in catalog.skills.iter().enumerate() {
            let name = s.name().map(str::trim).filter(|n| !n.is_empty());
            let description = s.description().map(str::trim).filter(|d| !d.is_empty());
            let reason = match (name, description) {
                (None, _) if s.source.is_none() => Some(Hidden::Unreadable),
                (None, _) => Some(Hidden::NoName),
                (_, None) => Some(Hidden::NoDescription),
                _ => None,
            };
            let shown = name.unwrap_or(&s.folder).to_string();
            let text = if reason.is_none() {
                description.unwrap_or("").to_string()
            } else {
                String::new()
            };
            let e = Entry {
                line: self.line(&shown, &text),
                name: shown,
                kind: super::EntryKind::Skill,
                path: s.file.clone(),
                skill: i,
                listed: reason.is_none(),
                reason,
                text,
                name_only: false,
                description: description.map(str::to_string),
                alias: None,
                changes: Vec::new(),
            };
            if e.listed {
                listed.push(e);
            } else {
                other.push(e);
            }
        }
        listed.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
        listed.extend(other);
        Listing {
            client: ClientId::Spec,
            entries: listed,
            commands: Vec::new(),
            builtins: Vec::new(),
            budget: None,
        }
    }
}
