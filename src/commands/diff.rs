//! `skillsift diff REV [ROOT]`: the catalog at git revision REV against the
//! working tree, as `check` routes each.
//!
//! REV's files are written from git's objects into a scratch folder
//! (`process::git::export_tree`: no checkout, no index, git with every
//! program-starting setting off); each side is loaded and checked as
//! `check` would (Tier 1 and Tier 2, suppressions and rule levels applied,
//! repeated causes folded), with its own skillsift.toml unless --config
//! names one for both; then the two are lined up (`route::diff`) and
//! rendered (`report::change`). Nothing is written into the repository.

use crate::catalog;
use crate::cli::DiffArgs;
use crate::client::ClientId;
use crate::commands::{load_config, settle, tier1_findings};
use crate::config::Config;
use crate::exit::{Exit, Fatal};
use crate::lint;
use crate::process::git::{ExportError, export_tree};
use crate::report::Summary;
use crate::route::diff::{Diff, Snapshot, compare, snapshot};
use std::io::Write;
use std::path::Path;

pub fn run(args: &DiffArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    let a = against(&args.root, &args.rev, args.config.as_deref(), args.client)?;
    crate::report::change::render(
        &args.format,
        &crate::report::change::Compared {
            rev: &args.rev,
            commit: &a.commit,
            client: a.client.label(),
            diff: &a.diff,
        },
        out,
    )?;
    Ok(if a.diff.worse { Exit::Failed } else { Exit::Ok })
}

/// The catalog at `root` compared with itself at `rev`.
pub struct Against {
    pub diff: Diff,
    /// The commit `rev` names.
    pub commit: String,
    /// The client whose listing was routed.
    pub client: ClientId,
}

/// Compare the catalog at `root` (a folder in a git working tree) with
/// the same folder at `rev`: what `skillsift diff` and `report --against`
/// show. `config` is for both sides; without it each reads its own.
pub fn against(
    root: &Path,
    rev: &str,
    config: Option<&Path>,
    client: Option<ClientId>,
) -> Result<Against, Fatal> {
    if !root.is_dir() {
        return Err(Fatal::usage(format!("{}: no such folder", root.display()))
            .with_help("pass the catalog folder, in a git working tree"));
    }
    // the same folder name as the catalog's: a skill folder's name is its
    // skill's
    let name = root
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_owned()))
        .unwrap_or_else(|| "catalog".into());
    let mut scratch = None;
    let exported = export_tree(root, rev, |bytes| {
        let ws = crate::process::scratch::in_memory("diff", bytes)
            .map_err(|e| format!("a scratch folder: {e}"))?;
        let at = ws.path().join(&name);
        std::fs::create_dir_all(&at).map_err(|e| format!("{}: {e}", at.display()))?;
        scratch = Some(ws);
        Ok(at)
    })
    .map_err(|e| match e {
        ExportError::NoRepository(why) => Fatal::usage(format!(
            "{}: not in a git repository ({why})",
            root.display()
        ))
        .with_help("run skillsift diff in a git working tree, or pass its catalog folder"),
        ExportError::BadRevision(why) => Fatal::usage(format!("bad revision: {why}")).with_help(
            "name a branch, tag or commit the repository has (a shallow clone may need `git fetch --depth=1 origin <base>` first)",
        ),
        ExportError::Failed(why) => Fatal::usage(format!("reading {rev}: {why}")),
    })?;
    let before_root = scratch
        .as_ref()
        .map(|ws| ws.path().join(&name))
        .ok_or_else(|| Fatal::usage(format!("reading {rev}: nothing was written")))?;
    let after_config = load_config(root, config)?;
    let before_config = match config {
        Some(c) => load_config(&before_root, Some(c))?,
        None => load_config(&before_root, None).map_err(|f| {
            f.with_help(format!(
                "skillsift.toml at {rev} cannot be read; pass --config to use one file for both sides"
            ))
        })?,
    };
    let (before, after) = rayon::join(
        || side(&before_root, &before_config, client, true),
        || side(root, &after_config, client, false),
    );
    let (before, after) = (before?, after?);
    drop(scratch);
    Ok(Against {
        diff: compare(&before, &after),
        commit: exported.commit,
        client: crate::client::chosen(&after_config, client),
    })
}

/// One side checked as `check` would, as a snapshot. REV's side may hold
/// no catalog yet (the change adds the first skills): an empty snapshot.
fn side(
    root: &Path,
    config: &Config,
    client: Option<ClientId>,
    before: bool,
) -> Result<Snapshot, Fatal> {
    let lint::Loaded { catalog, rest } = lint::load(root, config)?;
    if let Some(fatal) = catalog::empty::nothing_found(&catalog, config) {
        return if before {
            Ok(Snapshot::default())
        } else {
            Err(fatal)
        };
    }
    let mut config = config.clone();
    config.route.client = crate::client::chosen(&config, client);
    let (lint, routed) = rayon::join(
        || rest.finish(&catalog, &config),
        || {
            crate::route::check(
                &catalog,
                &config,
                &crate::route::Opts {
                    client,
                    ..Default::default()
                },
            )
        },
    );
    let routed = routed?;
    let mut diagnostics = tier1_findings(&catalog, lint);
    diagnostics.extend(routed.diagnostics.iter().cloned());
    crate::suppress::apply(&mut diagnostics, &catalog, &config)?;
    lint::apply_levels(&mut diagnostics, &config);
    lint::one_cause::fold_repeated_keys(&mut diagnostics);
    settle(&mut diagnostics, &mut Summary::default(), &config);
    snapshot(&catalog, &config, &routed, &diagnostics)
}
