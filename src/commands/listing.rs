//! `skillsift listing`: what a client shows the model.

use crate::catalog::{Catalog, Scope};
use crate::cli::{Format, ListingArgs};
use crate::client::cmd::compare;
use crate::client::{ClientId, ClientIdExt, capture};
use crate::commands::load_config;
use crate::exit::{Exit, Fatal};
use crate::report;
use std::io::Write;

pub fn listing(args: &ListingArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    if !args.root.exists() {
        return Err(
            Fatal::usage(format!("{}: no such file or folder", args.root.display()))
                .with_help("pass a catalog folder, a skill folder or a SKILL.md"),
        );
    }
    let mut config = load_config(&args.root, args.config.as_deref())?;
    // every file, not only SKILL.md: a secret found by its name in a case
    // file is masked where a description repeats its value bare
    let catalog = Catalog::load_scoped(&args.root, &config, Scope::Full)?;
    if let Some(fatal) = crate::catalog::empty::nothing_found(&catalog, &config) {
        return Err(fatal);
    }
    let folder = crate::route::cache::folder(args.cache_dir.as_deref());
    let live = match (args.capture, args.verify) {
        (Some(ClientId::Spec), _) => {
            return Err(Fatal::usage(
                "the specification is not a program: there is nothing to capture",
            )
            .with_help("capture a client: --capture claude-code"));
        }
        (Some(c), _) => Some(c),
        (None, true) => Some(match crate::client::chosen(&config, args.client) {
            ClientId::Spec => ClientId::ClaudeCode,
            c => c,
        }),
        (None, false) => None,
    };
    let client = match live {
        Some(c) => c,
        None => crate::client::chosen(&config, args.client),
    };
    if live.is_some() {
        // a capture installs the whole catalog at once
        config = crate::client::install::whole(&config);
    }
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
            crate::client::codex::listing_with_roots(&catalog, &config, builtin_list, &c.roots)
        }
        _ => client.model().listing(&catalog, &config, builtin_list),
    };
    // a catalog installed in parts: each installation's own listing (a
    // capture installs the whole catalog, so it compares the whole)
    let parts = match (&args.unit, live) {
        (_, Some(_)) => None,
        (Some(unit), None) => {
            let inst = crate::client::install::installation(&catalog, &config, unit)?;
            let sub = catalog.subset(&inst.skills, inst.commands);
            let mut l = client.model().listing(&sub, &config, builtin_list);
            for e in &mut l.entries {
                e.skill = inst.skills[e.skill];
            }
            Some(vec![(inst, l)])
        }
        (None, None) => {
            crate::client::install::listings(client.model(), &catalog, &config, builtin_list)?
        }
    };
    let listing = match &parts {
        Some(parts) => crate::client::Listing {
            client,
            entries: parts.iter().flat_map(|(_, l)| l.entries.clone()).collect(),
            commands: parts.iter().flat_map(|(_, l)| l.commands.clone()).collect(),
            builtins: parts
                .first()
                .map(|(_, l)| l.builtins.clone())
                .unwrap_or_default(),
            budget: None,
        },
        None => listing,
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
        parts: parts.as_deref(),
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
