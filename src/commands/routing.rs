//! `skillsift check --behavioral-routing [ROOT]`: every trigger prompt of
//! the catalog through the real client with its installation installed
//! (the whole catalog, or the plugin, marketplace entry or pack its skill
//! is in), beside Tier 2's first three (`behave::routing` runs and compares; Tier 2
//! is ranked here, the layer that sees both).

use crate::behave::BehaveArgs;
use crate::behave::routing::{self, Prompt};
use crate::catalog::Catalog;
use crate::cli::Format;
use crate::config::Config;
use crate::exit::{Exit, Fatal};
use crate::report::write_error;
use crate::route::Router;
use crate::route::index::Query;
use crate::route::rank::Scorer;
use std::io::Write;

/// Tier 2's name of document `d`: the catalog skill's name (what its
/// install folder and a load are called), else the listing's.
fn name_of(router: &Router, d: u32) -> String {
    match router.skill(d) {
        Some(s) => s.name().unwrap_or(&s.folder).to_string(),
        None => router.index.doc(d).name.clone(),
    }
}

/// Whether a skill of `catalog` answers to `name` (its frontmatter name or
/// folder).
pub(super) fn has(catalog: &Catalog, name: &str) -> bool {
    catalog
        .skills
        .iter()
        .any(|s| s.name() == Some(name) || s.folder == name)
}

/// Every trigger prompt of every suite, installation by installation
/// (positives, then negatives, in the suites' order), with Tier 2's first
/// three over `client`'s listing of that installation. An `owner` or
/// `with` skill installed elsewhere is never listed beside the prompt's
/// skill: it is dropped, as `check` skips its owner check (SG513).
fn prompts(catalog: &Catalog, config: &Config) -> Result<Vec<Prompt>, Fatal> {
    let mut out = Vec::new();
    for (k, inst) in routing::installations(catalog, config)?.iter().enumerate() {
        let sub = catalog.subset(&inst.skills, inst.commands);
        let router = Router::new(&sub, config)?;
        let mut scorer = Scorer::new(&router.index);
        for suite in &sub.suites {
            let Some(si) = suite.skill else { continue };
            let s = &sub.skills[si];
            let skill = s.name().unwrap_or(&s.folder).to_string();
            for (positive, list) in [(true, &suite.positive), (false, &suite.negative)] {
                for t in list {
                    let q = Query::new(&t.prompt.value, &router.analyzer, &router.index);
                    let tier2 = scorer
                        .score(&q)
                        .top(3)
                        .into_iter()
                        .map(|(d, _)| name_of(&router, d))
                        .collect();
                    out.push(Prompt {
                        prompt: t.prompt.value.clone(),
                        skill: skill.clone(),
                        positive,
                        owner: (t.owner.as_ref())
                            .map(|o| o.value.clone())
                            .filter(|o| has(&sub, o)),
                        with: (t.with.iter())
                            .map(|w| w.value.clone())
                            .filter(|w| has(&sub, w))
                            .collect(),
                        lexical: t.lexical,
                        file: t.file.clone(),
                        tier2,
                        installation: k,
                    });
                }
            }
        }
    }
    Ok(out)
}

pub fn check(
    catalog: &Catalog,
    config: &Config,
    args: &BehaveArgs,
    format: Format,
    out: &mut dyn Write,
) -> Result<Exit, Fatal> {
    if !matches!(format, Format::Human | Format::Json) {
        return Err(Fatal::usage(format!(
            "--behavioral-routing prints human text or JSON, not --format {}",
            format.as_str()
        ))
        .with_help("drop --format, or pass --format json"));
    }
    let kind = routing::client(args, config)?;
    // Tier 2 ranks the listing of the client that runs
    let mut config = config.clone();
    config.route.client = kind.client();
    let prompts = prompts(catalog, &config)?;
    let mut plan = routing::plan(catalog, &config, args, prompts)?;
    // a results folder that leads out of the catalog: refused before any run
    crate::behave::results::preflight(&catalog.root, routing::FOLDER)?;
    if args.dry_run {
        routing::dry_run(&plan, format == Format::Json, out).map_err(write_error)?;
        return Ok(Exit::Ok);
    }
    let canary = routing::prepare(&mut plan)?;
    eprintln!(
        "skillsift: canary: {} loads are seen{}",
        plan.agent_mode().agent.product(),
        match canary {
            crate::behave::canary::Outcome::Passed => " (checked now)",
            crate::behave::canary::Outcome::Cached =>
                " (a canary passed before for this version, model and provider)",
        }
    );
    let (doc, dir) = routing::run(catalog, &plan)?;
    if format == Format::Json {
        crate::escape::to_writer_pretty(&mut *out, &doc).map_err(|e| write_error(e.into()))?;
        writeln!(out).map_err(write_error)?;
    } else {
        routing::human(&doc, &dir, out).map_err(write_error)?;
    }
    Ok(if doc.summary.failed_runs > 0 {
        Exit::Unavailable
    } else {
        Exit::Ok
    })
}
