//! Tier 1: structural lint.
//!
//! Every rule is a small file under `rules/` holding one [`Rule`] declared
//! with [`rule!`], whose doc comment is the documentation `skillsift rule ID`
//! prints, and the check that produces its diagnostics. [`registry`] lists
//! every rule of every tier (load-time, lint, routing, behavioral) so ids,
//! levels and docs live in one place.

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
pub(crate) use crate as lint;
use base::{diag, escape, exit};
#[allow(clippy::single_component_path_imports)]
use {base, catalog, client, config, route};

pub mod one_cause;
pub mod registry;
pub mod rules;

use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::Diagnostic;

pub use crate::base::{Rule, rule};

/// Whether a rule fixes what it finds, as its doc's `## Fix` section says:
/// `"safe"` (applied by `--fix`), `"unsafe"` (only with `--unsafe-fixes`),
/// or `None`.
pub fn fix_kind(rule: &Rule) -> Option<&'static str> {
    let (_, fix) = rule.doc.split_once("## Fix\n")?;
    let first = fix.trim_start();
    if first.starts_with("Safe fix") {
        Some("safe")
    } else if first.starts_with("Unsafe fix") {
        Some("unsafe")
    } else {
        None
    }
}

/// Run every Tier 1 rule over the loaded catalog.
pub fn run(catalog: &Catalog, config: &Config) -> Vec<Diagnostic> {
    registry::run_lint(catalog, config)
}

/// Load the catalog at `root` and run every Tier 1 rule, each skill
/// checked as soon as it is read and then kept only as far as its findings
/// need (see [`Catalog::load_with`]): the same findings as [`Catalog::load`]
/// followed by [`run`], in a fraction of the memory.
pub fn load_and_run(
    root: &std::path::Path,
    config: &Config,
) -> Result<(Catalog, Vec<Diagnostic>), crate::exit::Fatal> {
    let Loaded { catalog, rest } = load(root, config)?;
    let diagnostics = rest.finish(&catalog, config);
    Ok((catalog, diagnostics))
}

/// A catalog loaded with each skill's own rules run as it was read, and
/// the rest of Tier 1 still to run ([`Rest::finish`]): what lets Tier 2
/// rank over the catalog while the rules over the whole catalog run.
pub struct Loaded {
    pub catalog: Catalog,
    pub rest: Rest,
}

/// What each skill's rules found, waiting for the rules over the whole
/// catalog.
pub struct Rest(Vec<registry::SkillLint>);

/// The first half of [`load_and_run`].
pub fn load(root: &std::path::Path, config: &Config) -> Result<Loaded, crate::exit::Fatal> {
    let env = rules::context::Env::new(config);
    let (catalog, per_skill) =
        Catalog::load_with(root, config, crate::catalog::Scope::Full, |skill, load| {
            let (lint, keep) = registry::lint_skill(&env, skill, load);
            (lint, Some(keep))
        })?;
    Ok(Loaded {
        catalog,
        rest: Rest(per_skill),
    })
}

impl Rest {
    /// The second half of [`load_and_run`]: every Tier 1 finding but the
    /// catalog's load findings, in [`load_and_run`]'s order.
    pub fn finish(self, catalog: &Catalog, config: &Config) -> Vec<Diagnostic> {
        registry::finish(catalog, config, self.0)
    }
}

/// Apply `[lint.rules]` level overrides: drop `off` rules, change severities.
pub fn apply_levels(diags: &mut Vec<Diagnostic>, config: &Config) {
    if config.lint.rules.is_empty() {
        return;
    }
    diags.retain_mut(|d| {
        let level = config
            .lint
            .rules
            .get(d.rule)
            .or_else(|| registry::find(d.rule).and_then(|r| config.lint.rules.get(r.name)));
        match level {
            None => true,
            Some(l) => match l.severity() {
                None => false,
                Some(s) => {
                    d.severity = s;
                    true
                }
            },
        }
    });
}
