//! Tier 2 scoring of a candidate description, as `check` routes it.
//!
//! The candidate is put in place of the skill's SKILL.md in memory and
//! the skill's installation is routed as `skillsift check` routes it: the
//! client's listing (`--client`, else `[route] client`) with its budget,
//! the client's built-ins when `[route] builtins` models them, and for a
//! catalog of plugins or packs only the unit that holds the skill (each
//! unit is its own listing, so a change to one skill moves no prompt of
//! another unit). Every trigger prompt of that installation is ranked:
//!
//! - the skill's train prompts: positives ranking first and within their
//!   `top_k`, negatives passing their check (the skill not first, the
//!   owner ahead);
//! - its validation prompts: passing, as counts only, and one verdict per
//!   prompt kept for the paired test ([`super::recommend`]);
//! - every other skill's prompts (a positive ranking first, a negative
//!   passing its check): a prompt that passed with the current
//!   description and fails with the candidate is a sibling's lost prompt.
//!
//! Fresh prompts (every skill's) are taken out of the catalog before
//! anything is ranked: they are never read.

use super::split::{Key, Plan, key};
use crate::catalog::cases::{Side, Split};
use crate::catalog::{Catalog, Skill, Target};
use crate::client::install::Install;
use crate::client::{Builtin, ChangeKind, Hidden};
use crate::config::Config;
use crate::exit::Fatal;
use crate::route::{Router, cases};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// What a prompt is to the tuned skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Train,
    Validation,
    Sibling,
}

/// `passed` of `of`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Count {
    pub passed: usize,
    pub of: usize,
}

impl Count {
    fn add(&mut self, pass: bool) {
        self.of += 1;
        self.passed += usize::from(pass);
    }
}

/// The skill's installation's listing against the client's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Listed {
    pub used: usize,
    pub limit: usize,
    pub unit: &'static str,
    /// Entries shown by name only or shortened (over the budget).
    pub short: usize,
}

/// What one train prompt did (its text may be shown; a validation
/// prompt's never is).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrainPrompt {
    pub prompt: String,
    pub side: Side,
    pub file: String,
    pub line: u32,
    /// The skill's rank, ties counted ahead.
    pub rank: usize,
    /// The skill ranked first, when it is not this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// What the client lists for it: its name and description, as routed.
    #[serde(skip)]
    pub first_text: Option<String>,
    pub passed: bool,
}

/// A description's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    /// Train positives whose skill ranks strictly first.
    pub train_rank1: Count,
    /// Train positives within their `top_k` (default `[route] top-k`).
    pub train_top_k: Count,
    /// Train negatives that pass their check.
    pub train_negatives: Count,
    /// Validation prompts that pass (positives ranking first, negatives
    /// passing their check): counts only.
    pub validation: Count,
    /// Validation positives whose skill ranks strictly first (of
    /// `validation`).
    pub validation_rank1: Count,
    /// Other skills' prompts that pass.
    pub siblings: Count,
    /// Other skills' prompts that pass with the current description and
    /// not with this one.
    pub siblings_lost: usize,
    /// … and the other way round.
    pub siblings_gained: usize,
    /// The description's length in characters (Unicode scalar values).
    pub chars: usize,
    /// The installation's listing, when the client has a budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listing: Option<Listed>,
    /// The client cuts this skill's listing entry.
    pub entry_cut: bool,
    /// Each validation prompt's verdict, in split order (for the paired
    /// test; never shown).
    #[serde(skip)]
    pub validation_each: Vec<bool>,
    /// Each sibling prompt's verdict.
    #[serde(skip)]
    pub siblings_each: BTreeMap<Key, bool>,
    /// The train prompts, in split order.
    #[serde(skip)]
    pub train: Vec<TrainPrompt>,
}

impl Figures {
    /// What a round maximises: train positives ranking first plus train
    /// negatives passing.
    pub fn train_score(&self) -> usize {
        self.train_rank1.passed + self.train_negatives.passed
    }
}

/// The catalog as `check` routes the skill, ready to score descriptions.
pub struct Context<'c> {
    pub catalog: &'c Catalog,
    /// With `config.route.client` the client routed.
    pub config: Config,
    /// The skill's index in `catalog.skills`.
    pub skill: usize,
    /// The installation routed (the whole catalog, or the unit holding
    /// the skill), fresh prompts taken out.
    base: Catalog,
    /// The skill's index in `base.skills`.
    local: usize,
    elsewhere: HashMap<String, String>,
    builtins: Option<Vec<Builtin>>,
    /// The unit routed, when the catalog is routed per unit.
    pub install: Option<String>,
    roles: HashMap<Key, Role>,
    /// Train then validation keys, in split order.
    train: Vec<Key>,
    validation: Vec<Key>,
    /// A note for the output (no capture of the client's built-ins).
    pub note: Option<String>,
}

impl<'c> Context<'c> {
    /// The installation of `catalog.skills[skill]` as `check` routes it,
    /// with `plan`'s prompts of the skill; `config.route.client` is the
    /// client.
    pub fn new(
        catalog: &'c Catalog,
        config: &Config,
        skill: usize,
        plan: &Plan,
    ) -> Result<Context<'c>, Fatal> {
        let (captured, note) = crate::route::builtins_for(config, None);
        let builtins = captured.map(|b| b.builtins);
        let installs: Option<Vec<Install>> = match catalog.target {
            Target::Catalog => crate::client::install::installs(catalog, config)?,
            _ => None,
        };
        let (mut base, local, elsewhere, install) = match &installs {
            Some(list) => {
                let where_of = crate::client::install::where_of(catalog, list);
                let k = where_of[skill];
                let (sub, elsewhere) =
                    crate::client::install::installed(catalog, list, &where_of, k);
                let local = list[k]
                    .skills
                    .iter()
                    .position(|&i| i == skill)
                    .unwrap_or_default();
                (sub, local, elsewhere, Some(list[k].label.clone()))
            }
            None => (
                catalog.subset(&(0..catalog.skills.len()).collect::<Vec<_>>(), true),
                skill,
                HashMap::new(),
                None,
            ),
        };
        // fresh prompts are never read; the skill's own prompts are the
        // plan's train and validation prompts
        let train: Vec<Key> = plan.train.iter().map(|t| key(t)).collect();
        let validation: Vec<Key> = plan.validation.iter().map(|t| key(t)).collect();
        let mut roles: HashMap<Key, Role> = HashMap::new();
        for k in &train {
            roles.insert(k.clone(), Role::Train);
        }
        for k in &validation {
            roles.insert(k.clone(), Role::Validation);
        }
        for suite in &mut base.suites {
            let own = suite.skill == Some(local);
            for list in [&mut suite.positive, &mut suite.negative] {
                list.retain(|t| {
                    if own {
                        roles.contains_key(&key(t))
                    } else {
                        t.split != Some(Split::Fresh)
                    }
                });
            }
            if !own {
                for t in suite.positive.iter().chain(&suite.negative) {
                    roles.entry(key(t)).or_insert(Role::Sibling);
                }
            }
        }
        Ok(Context {
            catalog,
            config: config.clone(),
            skill,
            base,
            local,
            elsewhere,
            builtins,
            install,
            roles,
            train,
            validation,
            note,
        })
    }

    /// The skill as the catalog holds it.
    pub fn current(&self) -> &Skill {
        &self.base.skills[self.local]
    }

    /// The figures of `skill` in place of the tuned skill; `baseline`
    /// (the current description's figures) gives the siblings' losses.
    pub fn score(&mut self, skill: Skill, baseline: Option<&Figures>) -> Result<Figures, Fatal> {
        let chars = skill.description().map_or(0, |d| d.chars().count());
        let old = std::mem::replace(&mut self.base.skills[self.local], skill);
        let routed = self.route(chars);
        self.base.skills[self.local] = old;
        let mut f = routed?;
        if let Some(b) = baseline {
            for (k, &now) in &f.siblings_each {
                match (b.siblings_each.get(k).copied(), now) {
                    (Some(true), false) => f.siblings_lost += 1,
                    (Some(false), true) => f.siblings_gained += 1,
                    _ => {}
                }
            }
        }
        Ok(f)
    }

    fn route(&self, chars: usize) -> Result<Figures, Fatal> {
        let mut router = Router::with_builtins(&self.base, &self.config, self.builtins.as_deref())?;
        router.elsewhere = self.elsewhere.clone();
        let outcome = cases::check(&router, &self.config.route);
        let mut by_key: HashMap<Key, &cases::PromptResult> = HashMap::new();
        for p in &outcome.prompts {
            by_key.insert((p.file.clone(), p.span.start), p);
        }
        let own_doc = router.doc_of(self.local);
        let pass = |p: &cases::PromptResult| match p.kind {
            Side::Positive => p.rank1,
            Side::Negative => p.passed,
        };
        let mut f = Figures {
            train_rank1: Count::default(),
            train_top_k: Count::default(),
            train_negatives: Count::default(),
            validation: Count::default(),
            validation_rank1: Count::default(),
            siblings: Count::default(),
            siblings_lost: 0,
            siblings_gained: 0,
            chars,
            listing: None,
            entry_cut: false,
            validation_each: Vec::new(),
            siblings_each: BTreeMap::new(),
            train: Vec::new(),
        };
        let suite = self.catalog.suite_of(self.skill);
        let case_of = |k: &Key| {
            suite.and_then(|s| {
                s.positive
                    .iter()
                    .chain(&s.negative)
                    .find(|t| t.file == k.0 && t.prompt.span.start == k.1)
            })
        };
        for k in &self.train {
            let Some(t) = case_of(k) else { continue };
            // a skill the client does not list fails every prompt
            let r = by_key.get(k).filter(|_| own_doc.is_some());
            let passed = r.is_some_and(|p| pass(p));
            match t.side {
                Side::Positive => {
                    f.train_rank1.add(passed);
                    f.train_top_k.add(r.is_some_and(|p| p.passed));
                }
                Side::Negative => f.train_negatives.add(passed),
            }
            let winner = r
                .and_then(|p| p.cell)
                .and_then(|c| c.winner)
                .filter(|&w| Some(w) != own_doc)
                .filter(|_| t.side == Side::Positive);
            let first = winner.map(|w| router.index.doc(w).name.clone());
            let first_text = winner.map(|w| {
                let (name, description) = router.routed(w);
                format!("{name}\n{description}")
            });
            f.train.push(TrainPrompt {
                prompt: t.prompt.value.clone(),
                side: t.side,
                file: t.file.clone(),
                line: t.prompt.span.line,
                rank: r.map_or(0, |p| p.rank),
                first,
                first_text,
                passed,
            });
        }
        for k in &self.validation {
            let r = by_key.get(k).filter(|_| own_doc.is_some());
            let passed = r.is_some_and(|p| pass(p));
            if case_of(k).is_some_and(|t| t.side == Side::Positive) {
                f.validation_rank1.add(passed);
            }
            f.validation.add(passed);
            f.validation_each.push(passed);
        }
        for p in &outcome.prompts {
            let k = (p.file.clone(), p.span.start);
            if self.roles.get(&k) == Some(&Role::Sibling) && p.lexical {
                let passed = pass(p);
                f.siblings.add(passed);
                f.siblings_each.insert(k, passed);
            }
        }
        let l = &router.listing;
        if let Some(b) = &l.budget {
            let short = l
                .entries
                .iter()
                .filter(|e| {
                    e.name_only
                        || e.changes.iter().any(|c| c.kind == ChangeKind::Shortened)
                        || matches!(e.reason, Some(Hidden::OverBudget))
                })
                .count();
            f.listing = Some(Listed {
                used: b.used,
                limit: b.limit,
                unit: b.unit,
                short,
            });
        }
        f.entry_cut = router
            .entry(self.local)
            .is_some_and(|e| e.changes.iter().any(|c| c.kind == ChangeKind::Cut));
        Ok(f)
    }
}
