//! Tier 1: structural lint.
//!
//! Every rule is a small file under `rules/` holding one [`Rule`] declared
//! with [`rule!`], whose doc comment is the documentation `skillgate rule ID`
//! prints, and the check that produces its diagnostics. [`registry`] lists
//! every rule of every tier (load-time, lint, routing, behavioral) so ids,
//! levels and docs live in one place.

pub mod one_cause;
pub mod registry;
pub mod rules;

use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::{Diagnostic, Severity};

/// A rule's identity and documentation.
#[derive(Debug)]
pub struct Rule {
    /// Stable id, e.g. `SG101`.
    pub id: &'static str,
    /// Stable kebab-case name, e.g. `name-format`.
    pub name: &'static str,
    /// Severity unless `[lint.rules]` says otherwise.
    pub severity: Severity,
    /// One line.
    pub summary: &'static str,
    /// The doc comment: what it does, why it matters, an example.
    pub doc: &'static str,
}

impl Rule {
    /// A diagnostic of this rule at its default severity.
    pub fn diag(&'static self, file: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.id, self.severity, file, message)
    }
}

/// Declare a rule: `rule! { /// docs… pub static RULE = (id, name, Severity, summary); }`.
#[macro_export]
macro_rules! rule {
    ($(#[doc = $doc:literal])* $vis:vis static $ident:ident = ($id:literal, $name:literal, $sev:ident, $summary:literal $(,)?);) => {
        $(#[doc = $doc])*
        $vis static $ident: $crate::lint::Rule = $crate::lint::Rule {
            id: $id,
            name: $name,
            severity: $crate::diag::Severity::$sev,
            summary: $summary,
            doc: concat!($($doc, "\n"),*),
        };
    };
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
    let env = rules::context::Env::new(config);
    let (catalog, per_skill) =
        Catalog::load_with(root, config, crate::catalog::Scope::Full, |skill, load| {
            let (lint, keep) = registry::lint_skill(&env, skill, load);
            (lint, Some(keep))
        })?;
    let diagnostics = registry::finish(&catalog, config, per_skill);
    Ok((catalog, diagnostics))
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
