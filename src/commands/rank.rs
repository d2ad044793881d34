//! `skillsift rank "<prompt>"`: every skill's score for one prompt.

use crate::catalog::{Catalog, Scope};
use crate::cli::{Format, RankArgs};
use crate::commands::load_config;
use crate::exit::{Exit, Fatal};
use crate::report;
use crate::route::cache::{self, Cache};
use crate::route::cmd::report;
use std::io::Write;

/// Largest prompt accepted, in bytes.
const MAX_PROMPT_BYTES: usize = 64 * 1024;

/// A prompt `rank` takes: not empty, at most [`MAX_PROMPT_BYTES`].
pub fn accepted(prompt: &str) -> Result<(), Fatal> {
    if prompt.trim().is_empty() {
        return Err(Fatal::usage("the prompt is empty: there is nothing to rank")
            .with_help("pass the prompt a user would type, quoted: skillsift rank \"fill in this PDF form\""));
    }
    if prompt.len() > MAX_PROMPT_BYTES {
        return Err(Fatal::usage(format!(
            "the prompt is {} bytes, more than the {MAX_PROMPT_BYTES}-byte limit",
            prompt.len()
        )));
    }
    Ok(())
}

pub fn rank(args: &RankArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    accepted(&args.prompt)?;
    if !args.root.exists() {
        return Err(
            Fatal::usage(format!("{}: no such file or folder", args.root.display()))
                .with_help("pass a catalog folder, a skill folder or a SKILL.md"),
        );
    }
    let mut config = load_config(&args.root, args.config.as_deref())?;
    config.route.client = crate::client::chosen(&config, args.client);
    let analyzer = crate::route::analyzer(&config.route)?;
    let (builtins, note) = crate::route::builtins_for(&config, args.cache_dir.as_deref());
    let builtins = builtins.map(|b| b.builtins);
    // the commands' documents need the catalog loaded: no cache then
    let cache = if args.no_cache
        || args.unit.is_some()
        || !args.root.is_dir()
        || crate::route::routes_commands(&config)
    {
        None
    } else {
        cache::folder(args.cache_dir.as_deref())
            .and_then(|f| Cache::new(&f, &args.root, &config, builtins.as_deref()))
    };
    let ranking = match &cache {
        Some(c) => {
            c.load(&args.root, &config, &analyzer, builtins.as_deref())?
                .0
        }
        None => {
            let catalog = Catalog::load_scoped(&args.root, &config, Scope::SkillsOnly)?;
            match &args.unit {
                // one installation, as `check` ranks its prompts
                Some(unit) => {
                    let inst = crate::client::install::installation(&catalog, &config, unit)?;
                    let sub = catalog.subset(&inst.skills, inst.commands);
                    cache::analyze(&sub, &config, &analyzer, builtins.as_deref())
                }
                None => cache::analyze(&catalog, &config, &analyzer, builtins.as_deref()),
            }
        }
    };
    if ranking.index.docs().is_empty() && ranking.unroutable.is_empty() {
        // the same answer as `check` for a folder without a skill
        let catalog = Catalog::load_scoped(&args.root, &config, Scope::SkillsOnly)?;
        if let Some(fatal) = crate::catalog::empty::nothing_found(&catalog, &config) {
            return Err(fatal);
        }
    }
    let mut r = report(
        &ranking,
        config.route.client,
        &analyzer,
        &args.prompt,
        args.limit,
        args.explain,
    );
    r.note = note;
    if let Some(hint) = unit_hint(args, &config) {
        r.note = Some(match r.note.take() {
            Some(n) => format!("{n}; {hint}"),
            None => hint,
        });
    }
    let written = match args.format {
        Format::Json => report::rank::json(&r, out),
        _ => report::rank::human(&r, out),
    };
    written.map_err(report::write_error)?;
    Ok(Exit::Ok)
}

/// When `check` would route this catalog's plugins or packs each in its own
/// listing and no `--unit` was given: say that this ranking is the whole
/// catalog in one listing, and how to rank as `check` does.
fn unit_hint(args: &RankArgs, config: &crate::config::Config) -> Option<String> {
    if args.unit.is_some() || !args.root.is_dir() {
        return None;
    }
    let together = &config.route.installed_together;
    if together
        .iter()
        .any(|g| g.iter().any(|n| n == crate::client::install::ALL))
    {
        return None;
    }
    if crate::catalog::units::find(&args.root, &[]).0.is_empty() {
        return None;
    }
    // the installations `check` routes, and the units that have skills
    let catalog =
        crate::catalog::Catalog::load_scoped(&args.root, config, crate::catalog::Scope::SkillsOnly)
            .ok()?;
    let installs = crate::client::install::installs(&catalog, config).ok()??;
    let mut held: Vec<usize> = (0..catalog.skills.len())
        .filter_map(|i| catalog.unit_of(i))
        .collect();
    held.sort_unstable();
    held.dedup();
    let names: Vec<String> = held
        .iter()
        .map(|&u| catalog.units[u].name.clone())
        .collect();
    if names.is_empty() {
        return None;
    }
    let shown = if names.len() > 6 {
        format!("{}, … ({} in all)", names[..6].join(", "), names.len())
    } else {
        names.join(", ")
    };
    Some(format!(
        "this ranks every skill of the catalog in one listing, which no user installs (so no listing budget applies); check routes each of its {} installations in its own ([route] installed-together): --unit NAME ranks as check does ({shown})",
        installs.len()
    ))
}
