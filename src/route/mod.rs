//! Tier 2: lexical routing.
//!
//! An agent picks a skill from its name and description only; this tier
//! approximates that choice deterministically. [`text`] turns text into
//! terms, [`index`] builds a TF-IDF index over every routable skill,
//! [`rank`] ranks skills for a prompt, and the checks read it:
//! [`cases`] (trigger prompts of `evals/cases/*.json`, the rank-1 floor),
//! [`collide`] (near-duplicate descriptions), [`listing`] (the client's
//! listing budget) and [`baseline`] (regressions against a saved run).
//! [`cmd`] is `skillgate rank`.

pub mod baseline;
pub mod cache;
pub mod cases;
pub mod cmd;
pub mod collide;
pub mod index;
pub mod listing;
pub mod rank;
pub mod rules;
pub mod text;

use crate::catalog::{Catalog, Target};
use crate::config::{Config, RouteConfig};
use crate::diag::Diagnostic;
use crate::exit::Fatal;
use crate::report::RouteSummary;
use index::{Counts, DocCounts, Index, count_terms};
use text::Analyzer;

/// What Tier 2 concluded for `check`, and what it concluded it from
/// (for `skillgate report`).
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
}

/// The analyzer for `[route]`: its language and extra stop words.
pub fn analyzer(config: &RouteConfig) -> Result<Analyzer, Fatal> {
    Analyzer::new(&config.language, &config.stop_words).ok_or_else(|| {
        Fatal::usage(format!(
            "skillgate.toml: [route] language = \"{}\" is not a stemming language",
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
/// blank: what routing needs.
pub fn routable(skill: &crate::catalog::Skill) -> Option<(&str, &str)> {
    let name = skill.name()?.trim();
    let description = skill.description()?.trim();
    (!name.is_empty() && !description.is_empty()).then_some((name, description))
}

/// A skill's name and term counts.
pub type Analyzed = (String, Counts);

/// The name and term counts of a routable skill; `None` when it is not.
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

/// Every routable skill of a catalog, analyzed in parallel: one document
/// each, its `source` the skill's position in `catalog.skills`.
pub fn analyze_skills(
    catalog: &Catalog,
    analyzer: &Analyzer,
    name_weight: u32,
) -> Vec<DocCounts<String>> {
    use rayon::prelude::*;
    (catalog.skills.par_iter().enumerate())
        .filter_map(|(i, s)| {
            analyze_skill(s, analyzer, name_weight).map(|(name, counts)| DocCounts {
                name,
                file: s.file.clone(),
                source: i,
                counts,
            })
        })
        .collect()
}

/// The index over a loaded catalog, and which skills it could not hold.
#[derive(Debug)]
pub struct Router<'c> {
    pub catalog: &'c Catalog,
    pub analyzer: Analyzer,
    pub index: Index,
    /// Document of each `catalog.skills[i]`, `None` when unroutable.
    doc_of: Vec<Option<u32>>,
    /// Catalog index of each document.
    skill_of: Vec<usize>,
    /// Catalog skills without a readable name or description, by index.
    pub unroutable: Vec<usize>,
    /// Catalog index by name, as [`Catalog::skill_named`] resolves it.
    by_name: std::collections::HashMap<&'c str, usize>,
}

impl<'c> Router<'c> {
    pub fn new(catalog: &'c Catalog, config: &Config) -> Result<Router<'c>, Fatal> {
        let analyzer = analyzer(&config.route)?;
        let index =
            Index::from_counts(analyze_skills(catalog, &analyzer, config.route.name_weight));
        let mut doc_of = vec![None; catalog.skills.len()];
        let mut skill_of = Vec::with_capacity(index.len());
        for (d, info) in index.docs().iter().enumerate() {
            doc_of[info.source] = Some(d as u32);
            skill_of.push(info.source);
        }
        let unroutable = (0..catalog.skills.len())
            .filter(|&i| doc_of[i].is_none())
            .collect();
        // the first skill whose `name` is N wins; a skill without a name
        // answers to its folder when no skill is named so
        let mut by_name = std::collections::HashMap::new();
        for (i, s) in catalog.skills.iter().enumerate() {
            if let Some(n) = s.name() {
                by_name.entry(n).or_insert(i);
            }
        }
        for (i, s) in catalog.skills.iter().enumerate() {
            if s.name().is_none() {
                by_name.entry(s.folder.as_str()).or_insert(i);
            }
        }
        Ok(Router {
            catalog,
            analyzer,
            index,
            doc_of,
            skill_of,
            unroutable,
            by_name,
        })
    }

    /// The document of catalog skill `i`.
    pub fn doc_of(&self, i: usize) -> Option<u32> {
        self.doc_of.get(i).copied().flatten()
    }

    /// The catalog skill behind document `d`.
    pub fn skill(&self, d: u32) -> &'c crate::catalog::Skill {
        &self.catalog.skills[self.skill_of[d as usize]]
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

/// Run Tier 2 over the catalog: collisions, the listing budget, the trigger
/// prompts of every case file, the rank-1 floor and the baseline.
pub fn check<'c>(catalog: &'c Catalog, config: &Config, args: &Opts) -> Result<Routed<'c>, Fatal> {
    let floor = min_rank1(config, args)?;
    let router = Router::new(catalog, config)?;
    let mut diagnostics = Vec::new();
    let collisions = collide::find(&router, &config.route);
    diagnostics.extend(collide::diagnostics(&router, &config.route, &collisions));
    diagnostics.extend(listing::check(&router, &config.route));
    let outcome = cases::check(&router, &config.route);
    diagnostics.extend(outcome.diagnostics.iter().cloned());

    let mut summary = RouteSummary {
        rank1: outcome.rank1,
        positives: outcome.positives,
        checks_passed: outcome.checks_passed,
        checks: outcome.checks,
        min_rank1: floor,
        skills_routed: router.index.len(),
        unroutable: router
            .unroutable
            .iter()
            .map(|&i| catalog.skills[i].file.clone())
            .collect(),
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
