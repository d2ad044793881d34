//! Tier 2: lexical routing.
//!
//! An agent picks a skill from its name and description only; this tier
//! approximates that choice deterministically. [`text`] turns text into
//! terms, [`index`] builds a TF-IDF index over every routable skill,
//! [`rank`] ranks skills for a prompt, and the checks read it:
//! [`cases`] (trigger prompts of `evals/cases/*.json`, the rank-1 floor),
//! [`collide`] (near-duplicate descriptions), [`listing`] (the client's
//! listing budget) and [`baseline`] (regressions against a saved run).
//! [`cmd`] is `skillsift rank`.

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
pub(crate) use crate as route;
use base::rule;
use base::{diag, exit};
#[cfg(test)]
#[allow(clippy::single_component_path_imports)]
use score;
#[allow(clippy::single_component_path_imports)]
use {catalog, client, config, process};

pub mod baseline;
pub mod cache;
pub mod cases;
pub mod cmd;
pub mod collide;
pub mod diff;
pub mod index;
pub mod inflect;
pub mod listing;
pub mod rank;
pub mod rules;
pub mod summary;
pub mod text;
pub mod units;

use crate::catalog::{Catalog, Target};
use crate::client::{ClientId, ClientIdExt, Listing};
use crate::config::{Config, RouteConfig};
use crate::diag::Diagnostic;
use crate::exit::Fatal;
use index::{Counts, DocCounts, Index, count_terms};
pub use summary::RouteSummary;
use text::Analyzer;

/// What Tier 2 concluded for `check`, and what it concluded it from
/// (for `skillsift report`).
#[derive(Debug)]
pub struct Routed<'c> {
    pub diagnostics: Vec<Diagnostic>,
    pub summary: Option<RouteSummary>,
    /// A gate (rank-1 floor, baseline) failed.
    pub gate_failed: bool,
    pub router: Router<'c>,
    /// Every trigger prompt checked, in case-file order.
    pub prompts: Vec<cases::PromptResult>,
    /// Every pair of skills at or above `collision-warning`.
    pub collisions: Vec<collide::Found>,
}

/// Tier 2's options from the command line.
#[derive(Debug, Clone, Copy, Default)]
pub struct Opts<'a> {
    /// `--min-rank1`.
    pub min_rank1: Option<f64>,
    /// `--baseline FILE`.
    pub baseline: Option<&'a std::path::Path>,
    /// `--save-baseline FILE`.
    pub save_baseline: Option<&'a std::path::Path>,
    /// `--client` (else `[route] client`).
    pub client: Option<ClientId>,
}

/// The analyzer for `[route]`: its language and extra stop words.
pub fn analyzer(config: &RouteConfig) -> Result<Analyzer, Fatal> {
    Analyzer::new(&config.language, &config.stop_words).ok_or_else(|| {
        Fatal::usage(format!(
            "skillsift.toml: [route] language = \"{}\" is not a stemming language",
            config.language
        ))
        .with_help(format!(
            "use one of: {}, or \"none\"",
            text::LANGUAGES
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

/// The name and description of a skill when both can be read and are not
/// blank: the specification's reading.
pub fn routable(skill: &crate::catalog::Skill) -> Option<(&str, &str)> {
    let name = skill.name()?.trim();
    let description = skill.description()?.trim();
    (!name.is_empty() && !description.is_empty()).then_some((name, description))
}

/// A skill's name and term counts.
pub type Analyzed = (String, Counts);

/// The name and term counts of a routable skill (the specification's
/// reading); `None` when it is not.
pub fn analyze_skill(
    skill: &crate::catalog::Skill,
    analyzer: &Analyzer,
    name_weight: u32,
) -> Option<Analyzed> {
    routable(skill).map(|(name, description)| {
        let counts = count_terms(analyzer, name, description, name_weight);
        (name.to_string(), counts)
    })
}

/// Every listed entry of a client's listing, analyzed in parallel: one
/// document each, under the name the model sees, with the text it sees;
/// its `source` the skill's position in `catalog.skills`.
pub fn analyze_listing(
    listing: &Listing,
    analyzer: &Analyzer,
    name_weight: u32,
) -> Vec<DocCounts<String>> {
    use rayon::prelude::*;
    (listing.entries.par_iter())
        .filter(|e| e.listed)
        .map(|e| DocCounts {
            name: e.name.clone(),
            file: e.path.clone(),
            source: e.skill,
            counts: count_terms(analyzer, &e.name, &e.text, name_weight),
        })
        .collect()
}

/// The listed commands of a client's listing as documents (`[route]
/// commands = true`), numbered from `from`: `from + k` for
/// `listing.commands[k]`, under the name and with the text the model sees.
pub fn analyze_commands(
    listing: &Listing,
    from: usize,
    analyzer: &Analyzer,
    name_weight: u32,
) -> Vec<DocCounts<String>> {
    (listing.commands.iter().enumerate())
        .filter(|(_, e)| e.listed)
        .map(|(k, e)| DocCounts {
            name: e.name.clone(),
            file: e.path.clone(),
            source: from + k,
            counts: count_terms(analyzer, &e.name, &e.text, name_weight),
        })
        .collect()
}

/// Whether `[route] commands = true` puts the listing's commands in the
/// index: only a client that lists commands has any.
pub fn routes_commands(config: &Config) -> bool {
    config.route.commands && config.route.client == ClientId::ClaudeCode
}

/// Where a built-in skill's document says it comes from.
pub fn builtin_file(client: ClientId) -> String {
    format!("(built-in skill of {})", client.label())
}

/// The client's built-in skills as documents, numbered after the
/// catalog's `skills` skills.
pub fn analyze_builtins(
    listing: &Listing,
    skills: usize,
    analyzer: &Analyzer,
    name_weight: u32,
) -> Vec<DocCounts<String>> {
    (listing.builtins.iter().enumerate())
        .map(|(k, b)| DocCounts {
            name: b.name.clone(),
            file: builtin_file(listing.client),
            source: skills + k,
            counts: count_terms(analyzer, &b.name, &b.text, name_weight),
        })
        .collect()
}

/// The built-ins `[route] builtins = true` asks for: the latest capture in
/// the cache folder, or `None` (and a note saying why) when there is none.
pub fn builtins_for(
    config: &Config,
    cache_dir: Option<&std::path::Path>,
) -> (Option<crate::client::capture::Builtins>, Option<String>) {
    if !config.route.builtins {
        return (None, None);
    }
    let client = config.route.client;
    if client == ClientId::Spec {
        return (None, Some("`[route] builtins = true` needs a client: the specification has no built-in skills".into()));
    }
    match crate::client::capture::load(cache::folder(cache_dir).as_deref(), client) {
        Some((b, _)) => (Some(b), None),
        None => (
            None,
            Some(format!(
                "`[route] builtins = true`, but no capture of {}'s built-in skills is stored: prompts were ranked against the catalog alone; run `skillsift listing --capture {client}` once",
                client.label()
            )),
        ),
    }
}

/// The index over a loaded catalog's listing, and which skills it could
/// not hold.
#[derive(Debug)]
pub struct Router<'c> {
    pub catalog: &'c Catalog,
    pub analyzer: Analyzer,
    pub index: Index,
    /// The client's listing the index was built from.
    pub listing: Listing,
    /// Document of each `catalog.skills[i]`, `None` when unroutable.
    doc_of: Vec<Option<u32>>,
    /// Catalog index of each document (`>= skills.len()`: a built-in,
    /// `>= commands_from`: a command).
    skill_of: Vec<usize>,
    /// Where the commands' numbers start: after the built-ins'.
    commands_from: usize,
    /// Catalog skills the client does not list, by index.
    pub unroutable: Vec<usize>,
    /// Catalog index by name, as [`Catalog::skill_named`] resolves it.
    by_name: std::collections::HashMap<&'c str, usize>,
    /// The text routed for each listing entry, by catalog index.
    texts: Vec<Option<usize>>,
    /// When this router holds one installation of a catalog's units
    /// ([`units`]): the names (frontmatter `name` and folder) of the
    /// catalog's skills installed elsewhere, with where (`plugin
    /// `b2c-cli``). Empty otherwise.
    pub elsewhere: std::collections::HashMap<String, String>,
}

impl<'c> Router<'c> {
    /// The router over the listing of `config.route.client`, with the
    /// built-ins of `builtins` as competitors when given.
    pub fn new(catalog: &'c Catalog, config: &Config) -> Result<Router<'c>, Fatal> {
        Router::with_builtins(catalog, config, None)
    }

    pub fn with_builtins(
        catalog: &'c Catalog,
        config: &Config,
        builtins: Option<&[crate::client::Builtin]>,
    ) -> Result<Router<'c>, Fatal> {
        let analyzer = analyzer(&config.route)?;
        let listing = config
            .route
            .client
            .model()
            .listing(catalog, config, builtins);
        let mut docs = analyze_listing(&listing, &analyzer, config.route.name_weight);
        if builtins.is_some() {
            docs.extend(analyze_builtins(
                &listing,
                catalog.skills.len(),
                &analyzer,
                config.route.name_weight,
            ));
        }
        let commands_from = catalog.skills.len() + listing.builtins.len();
        if routes_commands(config) {
            docs.extend(analyze_commands(
                &listing,
                commands_from,
                &analyzer,
                config.route.name_weight,
            ));
        }
        let index = Index::from_counts(docs);
        let mut doc_of = vec![None; catalog.skills.len()];
        let mut skill_of = Vec::with_capacity(index.len());
        for (d, info) in index.docs().iter().enumerate() {
            if let Some(slot) = doc_of.get_mut(info.source) {
                *slot = Some(d as u32);
            }
            skill_of.push(info.source);
        }
        let unroutable = (0..catalog.skills.len())
            .filter(|&i| doc_of[i].is_none())
            .collect();
        let mut texts = vec![None; catalog.skills.len()];
        for (k, e) in listing.entries.iter().enumerate() {
            texts[e.skill] = Some(k);
        }
        // the first skill whose `name` is N wins; a skill without a name
        // answers to its folder when no skill is named so
        let mut by_name = std::collections::HashMap::new();
        for (i, s) in catalog.skills.iter().enumerate() {
            if let Some(n) = s.name() {
                by_name.entry(n).or_insert(i);
            }
        }
        for (i, s) in catalog.skills.iter().enumerate() {
            by_name.entry(s.folder.as_str()).or_insert(i);
        }
        Ok(Router {
            catalog,
            analyzer,
            index,
            listing,
            doc_of,
            skill_of,
            commands_from,
            unroutable,
            by_name,
            texts,
            elsewhere: std::collections::HashMap::new(),
        })
    }

    /// The document of catalog skill `i`.
    pub fn doc_of(&self, i: usize) -> Option<u32> {
        self.doc_of.get(i).copied().flatten()
    }

    /// The catalog skill behind document `d`; `None` for a built-in or a
    /// command.
    pub fn skill(&self, d: u32) -> Option<&'c crate::catalog::Skill> {
        self.catalog.skills.get(self.skill_of[d as usize])
    }

    /// Whether document `d` is a catalog skill the client lists by name
    /// only (its listing is over budget, SG520).
    pub fn name_only(&self, d: u32) -> bool {
        let i = self.skill_of[d as usize];
        i < self.catalog.skills.len() && self.entry(i).is_some_and(|e| e.name_only)
    }

    /// The listing entry of catalog skill `i`.
    pub fn entry(&self, i: usize) -> Option<&crate::client::Entry> {
        self.texts
            .get(i)
            .copied()
            .flatten()
            .map(|k| &self.listing.entries[k])
    }

    /// The name and text document `d` was built from.
    pub fn routed(&self, d: u32) -> (&str, &str) {
        let i = self.skill_of[d as usize];
        match self.entry(i) {
            Some(e) => (&e.name, &e.text),
            None if i >= self.commands_from => {
                let c = &self.listing.commands[i - self.commands_from];
                (&c.name, &c.text)
            }
            None => {
                let b = &self.listing.builtins[i - self.catalog.skills.len()];
                (&b.name, &b.text)
            }
        }
    }

    /// Whether document `d` is one of the client's built-in skills.
    pub fn is_builtin(&self, d: u32) -> bool {
        (self.catalog.skills.len()..self.commands_from).contains(&self.skill_of[d as usize])
    }

    /// Whether document `d` is one of the project's commands (`[route]
    /// commands = true`).
    pub fn is_command(&self, d: u32) -> bool {
        self.skill_of[d as usize] >= self.commands_from
    }

    /// Whether document `d` competes with the catalog's skills without
    /// being one: a built-in skill or a command.
    pub fn is_competitor(&self, d: u32) -> bool {
        self.skill_of[d as usize] >= self.catalog.skills.len()
    }

    /// What document `d` was built from: `catalog.skills[i]` for `i` below
    /// `catalog.skills.len()`, then the built-ins, then the commands.
    pub fn source_of(&self, d: u32) -> usize {
        self.skill_of[d as usize]
    }

    /// The catalog index of the skill named `name`.
    pub fn skill_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }
}

/// The rank-1 floor from the command line, else the configuration.
fn min_rank1(config: &Config, args: &Opts) -> Result<Option<f64>, Fatal> {
    if let Some(p) = args.min_rank1
        && !(0.0..=100.0).contains(&p)
    {
        return Err(Fatal::usage(format!("--min-rank1 {p} is outside 0..=100"))
            .with_help("give a percentage, e.g. --min-rank1 80"));
    }
    Ok(args.min_rank1.or(config.route.min_rank1))
}

/// The router of the catalog as `config`'s client lists it, and every
/// trigger prompt ranked as `check` ranks it (each installation of a
/// catalog of plugins or packs in its own listing), with the listing's
/// findings: Tier 2 without the collisions, gates and baselines (what an
/// editor needs after each keystroke).
pub struct Ranked<'c> {
    pub router: Router<'c>,
    pub outcome: cases::Outcome,
    pub diagnostics: Vec<Diagnostic>,
    pub installs: Option<Vec<crate::client::install::Install>>,
}

/// [`Ranked`] for `catalog`, `config.route.client` as chosen.
pub fn rank_prompts<'c>(catalog: &'c Catalog, config: &Config) -> Result<Ranked<'c>, Fatal> {
    let (builtins, note) = builtins_for(config, None);
    let router = Router::with_builtins(
        catalog,
        config,
        builtins.as_ref().map(|b| b.builtins.as_slice()),
    )?;
    let mut diagnostics = Vec::new();
    if let Some(note) = note {
        diagnostics.push(
            rules::NO_CAPTURE
                .diag("skillsift.toml", note)
                .with_help(format!("run `skillsift listing --capture {}` where the client is installed, or set `[route] builtins = false`", config.route.client)),
        );
    }
    // a catalog of plugins or packs: each installation in its own listing
    let installs = match catalog.target {
        Target::Catalog => crate::client::install::installs(catalog, config)?,
        _ => None,
    };
    // A skill checked alone ranks first for every prompt that shares a
    // word with it: its trigger prompts are ranked only among its siblings
    // (the summary says so, see `report::Summary::notes`).
    let outcome = match &installs {
        Some(installs) => {
            let checked = units::check(
                &router,
                installs,
                config,
                builtins.as_ref().map(|b| b.builtins.as_slice()),
            )?;
            diagnostics.extend(checked.listing);
            checked.outcome
        }
        None if catalog.target == Target::Catalog => {
            diagnostics.extend(listing::check(&router, &config.route));
            cases::check(&router, &config.route)
        }
        None => {
            diagnostics.extend(listing::check(&router, &config.route));
            cases::Outcome::default()
        }
    };
    Ok(Ranked {
        router,
        outcome,
        diagnostics,
        installs,
    })
}

/// Run Tier 2 over the catalog: collisions, the listing budget, the trigger
/// prompts of every case file, the rank-1 floor and the baseline.
pub fn check<'c>(catalog: &'c Catalog, config: &Config, args: &Opts) -> Result<Routed<'c>, Fatal> {
    let floor = min_rank1(config, args)?;
    let mut config = config.clone();
    config.route.client = crate::client::chosen(&config, args.client);
    let config = &config;
    let Ranked {
        router,
        outcome,
        mut diagnostics,
        installs,
    } = rank_prompts(catalog, config)?;
    diagnostics.extend(outcome.diagnostics.iter().cloned());
    // after the installations' own routers are gone: the collision
    // findings (97,565 on the mirror) are the largest thing held. Over the
    // whole catalog's index (the levels were set on catalog-wide TF-IDF;
    // a catalog installed in parts is listed whole with no budget, so no
    // name stands for a description), of the pairs installed together.
    let mut collisions = collide::find(&router, &config.route);
    if let Some(installs) = &installs {
        let where_of = crate::client::install::where_of(catalog, installs);
        let of = |d: u32| where_of.get(router.source_of(d)).copied();
        collisions.retain(|f| of(f.pair.a) == of(f.pair.b));
    }
    diagnostics.extend(collide::diagnostics(&router, &config.route, &collisions));

    let mut summary = RouteSummary {
        rank1: outcome.rank1,
        top3: outcome.top3,
        tied_first: outcome.tied_first,
        not_lexical: outcome.not_lexical,
        positives: outcome.positives,
        checks_passed: outcome.checks_passed,
        checks: outcome.checks,
        min_rank1: floor,
        skills_routed: (0..router.index.len() as u32)
            .filter(|&d| !router.is_competitor(d))
            .count(),
        unroutable: router
            .unroutable
            .iter()
            .map(|&i| catalog.skills[i].file.clone())
            .collect(),
        client: Some(router.listing.client),
        top_k: config.route.top_k,
        top_k_lowered: outcome
            .lowered_top_k
            .map(|(to, skills)| summary::TopKLowered { to, skills }),
        installs: installs.iter().flatten().map(|i| i.label.clone()).collect(),
        library: catalog.library,
    };
    let mut gate_failed = false;
    if let Some(d) = cases::floor(&summary, floor) {
        diagnostics.push(d);
        gate_failed = true;
    }
    let record = baseline::Baseline::from_outcome(&outcome);
    if let Some(path) = args.baseline {
        let old = baseline::Baseline::load(path)?;
        let cmp = baseline::compare(&old, &record, &outcome, &path.display().to_string());
        // failures the baseline already had are downgraded, not repeated
        diagnostics.retain(|d| !cmp.replaced.contains(d));
        diagnostics.extend(cmp.diagnostics);
        gate_failed |= cmp.regressed;
    }
    if let Some(path) = args.save_baseline {
        record.save(path)?;
    }
    summary.checks_passed = outcome.checks_passed;
    // a single SKILL.md has no case files: nothing to report
    let quiet = catalog.target != Target::Catalog && summary.positives == 0 && floor.is_none();
    Ok(Routed {
        diagnostics,
        summary: (!quiet).then_some(summary),
        gate_failed,
        router,
        prompts: outcome.prompts,
        collisions,
    })
}

/// What the summary says of a skill folder checked alone whose own files
/// hold trigger prompts: they were read and linted, not ranked.
pub fn single_skill_note(catalog: &Catalog) -> Option<String> {
    let prompts: usize = catalog
        .suites
        .iter()
        .map(|s| s.positive.len() + s.negative.len())
        .sum();
    (prompts > 0).then(|| {
        format!(
            "trigger prompts: {prompts} read, not ranked: a skill checked alone has no other skills to compete with; check the catalog folder to rank them"
        )
    })
}
