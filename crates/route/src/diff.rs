//! `skillsift diff`: what a change does to routing.
//!
//! A [`Snapshot`] is what one `check` of a catalog concluded, keyed so that
//! two runs line up: every trigger prompt's rank in its installation (by
//! installation, skill, side, prompt text and its occurrence), every
//! collision (by installation and the pair's names), every skill's place
//! in its installation's listing, and every finding by its fingerprint
//! (the baseline's: rule, file, message with numbers blanked, source line;
//! never its line number). [`compare`] lines up a snapshot before a change
//! and one after it.
//!
//! The change makes routing worse ([`Diff::worse`]) when a positive leaves
//! its top-k, a negative starts to win, a collision error appears (or a
//! warning becomes one), or a skill its client listed is no longer listed.

use super::Routed;
use super::cases::Kind;
use crate::catalog::Catalog;
use crate::client::ClientIdExt;
use crate::config::Config;
use crate::diag::{Diagnostic, Severity};
use crate::exit::Fatal;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One trigger prompt as a run ranked it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ranked {
    /// The skill's rank in its installation, counting ties as ahead (0:
    /// not ranked, a `"lexical": false` prompt).
    pub rank: usize,
    /// The top-k a positive had to reach in its listing.
    pub top_k: usize,
    /// The check passed.
    pub passed: bool,
    /// The skill ranks strictly first.
    pub rank1: bool,
    /// The skill ranked first, when it is another.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

/// A trigger prompt's key in both runs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PromptKey {
    /// The installation's label (empty: the catalog is one).
    pub install: String,
    pub skill: String,
    pub kind: Kind,
    pub prompt: String,
    /// Its occurrence among equal prompts of the skill's side (0 first).
    #[serde(skip)]
    pub nth: usize,
}

/// Where a skill stands in its installation's listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shown {
    /// Listed with its description whole.
    Whole,
    /// Listed, its description cut at the client's entry cap.
    Cut,
    /// Listed by its name only, or with a shortened description: the
    /// listing is over its budget.
    Shortened,
    /// Not listed.
    LeftOut,
}

impl Shown {
    pub fn label(self) -> &'static str {
        match self {
            Shown::Whole => "listed whole",
            Shown::Cut => "description cut",
            Shown::Shortened => "shortened (over budget)",
            Shown::LeftOut => "not listed",
        }
    }
}

/// A finding, without its line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub rule: String,
    pub severity: Severity,
    pub file: String,
    /// 1-based, for the reader (never compared).
    pub line: Option<u32>,
    pub message: String,
    #[serde(skip)]
    pub fingerprint: String,
}

/// What one run of `check` concluded.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// Installation labels, in the catalog's order (one empty label: the
    /// catalog is one installation).
    pub installs: Vec<String>,
    pub prompts: BTreeMap<PromptKey, Ranked>,
    /// (installation, skill a, skill b) → (an error, similarity).
    pub collisions: BTreeMap<(String, String, String), (bool, f64)>,
    /// (installation, listed name) → where it stands.
    pub listed: BTreeMap<(String, String), Shown>,
    pub findings: Vec<Finding>,
    pub top_k: usize,
}

/// The installation of each of the catalog's skills ("" when the catalog
/// is one), and the labels in order.
fn installs_of(catalog: &Catalog, config: &Config) -> Result<(Vec<String>, Vec<String>), Fatal> {
    Ok(match crate::client::install::installs(catalog, config)? {
        Some(list) => {
            let where_of = crate::client::install::where_of(catalog, &list);
            let labels: Vec<String> = list.iter().map(|i| i.label.clone()).collect();
            (
                where_of.iter().map(|&k| labels[k].clone()).collect(),
                labels,
            )
        }
        None => (
            vec![String::new(); catalog.skills.len()],
            vec![String::new()],
        ),
    })
}

/// The snapshot of a `check` run: `routed` is Tier 2's, `diagnostics`
/// every finding as reported (levels applied, folded, sorted).
pub fn snapshot(
    catalog: &Catalog,
    config: &Config,
    routed: &Routed,
    diagnostics: &[Diagnostic],
) -> Result<Snapshot, Fatal> {
    let (install_of, labels) = installs_of(catalog, config)?;
    let router = &routed.router;
    let name = |d: u32| router.index.doc(d).name.clone();
    let install = |d: u32| {
        install_of
            .get(router.source_of(d))
            .cloned()
            .unwrap_or_default()
    };
    // a listing no larger than top-k checks positives in one less (the
    // summary says so): the top-k the checks used
    let top_k = routed
        .summary
        .as_ref()
        .and_then(|s| s.top_k_lowered.as_ref())
        .map_or(config.route.top_k, |t| t.to);
    let mut s = Snapshot {
        installs: labels,
        top_k,
        ..Snapshot::default()
    };
    let mut seen: HashMap<(String, String, Kind, String), usize> = HashMap::new();
    for p in &routed.prompts {
        let inst = install(p.doc);
        let n = seen
            .entry((inst.clone(), p.skill.clone(), p.kind, p.prompt.clone()))
            .or_default();
        let key = PromptKey {
            install: inst,
            skill: p.skill.clone(),
            kind: p.kind,
            prompt: p.prompt.clone(),
            nth: *n,
        };
        *n += 1;
        let winner = p
            .cell
            .and_then(|c| c.winner)
            .map(name)
            .filter(|w| *w != p.skill);
        s.prompts.insert(
            key,
            Ranked {
                rank: if p.lexical { p.rank } else { 0 },
                top_k: p.top_k,
                passed: p.passed,
                rank1: p.rank1,
                winner,
            },
        );
    }
    for f in &routed.collisions {
        let (a, b) = (name(f.pair.a), name(f.pair.b));
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        s.collisions
            .insert((install(f.pair.a), a, b), (f.error, f.pair.similarity));
    }
    // each installation's listing as its client shows it
    let client = config.route.client.model();
    let (builtins, _) = super::builtins_for(config, None);
    let builtins = builtins.as_ref().map(|b| b.builtins.as_slice());
    let listings = match crate::client::install::listings(client, catalog, config, builtins)? {
        Some(each) => each.into_iter().map(|(i, l)| (i.label, l)).collect(),
        None => vec![(String::new(), client.listing(catalog, config, builtins))],
    };
    for (label, l) in listings {
        for e in &l.entries {
            let shown = if !e.listed {
                Shown::LeftOut
            } else if e.name_only
                || e.changes
                    .iter()
                    .any(|c| c.kind == crate::client::ChangeKind::Shortened)
            {
                Shown::Shortened
            } else if e
                .changes
                .iter()
                .any(|c| c.kind == crate::client::ChangeKind::Cut)
            {
                Shown::Cut
            } else {
                Shown::Whole
            };
            s.listed.insert((label.clone(), e.name.clone()), shown);
        }
    }
    s.findings = diagnostics
        .iter()
        .filter(|d| super::baseline::recorded(d))
        .map(|d| Finding {
            rule: d.rule.to_string(),
            severity: d.severity,
            file: d.file.clone(),
            line: d.span.as_ref().map(|s| s.line),
            message: d.message.clone(),
            fingerprint: super::baseline::fingerprint(d, &catalog.sources),
        })
        .collect();
    Ok(s)
}

/// A trigger prompt whose rank or verdict changed (or that one run lacks).
#[derive(Debug, Clone, Serialize)]
pub struct PromptChange {
    #[serde(flatten)]
    pub key: PromptKey,
    pub before: Option<Ranked>,
    pub after: Option<Ranked>,
    /// A positive left its top-k, or a negative started to win.
    pub worse: bool,
    /// A positive reached its top-k or first place, or a negative stopped
    /// winning.
    pub better: bool,
}

/// A collision that appeared, went, or changed level.
#[derive(Debug, Clone, Serialize)]
pub struct CollisionChange {
    pub install: String,
    pub a: String,
    pub b: String,
    /// `None`: below `collision-warning`. `Some(true)`: an error.
    pub before: Option<bool>,
    pub after: Option<bool>,
    pub similarity_before: Option<f64>,
    pub similarity_after: Option<f64>,
    pub worse: bool,
}

/// A skill whose place in its listing changed.
#[derive(Debug, Clone, Serialize)]
pub struct ListingChange {
    pub install: String,
    pub skill: String,
    pub before: Option<Shown>,
    pub after: Option<Shown>,
    /// A listed skill is no longer listed.
    pub worse: bool,
}

/// `n` of `of`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rate {
    pub n: usize,
    pub of: usize,
}

impl Rate {
    pub fn percent(self) -> Option<f64> {
        (self.of > 0).then(|| 100.0 * self.n as f64 / self.of as f64)
    }
}

/// An installation's rates before and after.
#[derive(Debug, Clone, Serialize)]
pub struct Rates {
    pub install: String,
    pub rank1_before: Rate,
    pub rank1_after: Rate,
    pub passed_before: Rate,
    pub passed_after: Rate,
}

/// What a change did.
#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    /// The change makes routing worse: `skillsift diff` exits 1.
    pub worse: bool,
    /// Nothing of routing changed (prompts, collisions, listings).
    pub unchanged: bool,
    pub top_k: usize,
    /// The whole catalog's rates, then each installation's (when it has
    /// several).
    pub rates: Vec<Rates>,
    pub prompts: Vec<PromptChange>,
    pub collisions: Vec<CollisionChange>,
    pub listings: Vec<ListingChange>,
    pub findings_new: Vec<Finding>,
    pub findings_fixed: Vec<Finding>,
}

fn rates(s: &Snapshot, install: Option<&str>) -> (Rate, Rate) {
    let mut rank1 = Rate { n: 0, of: 0 };
    let mut passed = Rate { n: 0, of: 0 };
    for (k, r) in &s.prompts {
        if install.is_some_and(|i| i != k.install) {
            continue;
        }
        passed.of += 1;
        passed.n += usize::from(r.passed);
        if k.kind == Kind::Positive && r.rank > 0 {
            rank1.of += 1;
            rank1.n += usize::from(r.rank1);
        }
    }
    (rank1, passed)
}

/// Line up `before` and `after`.
pub fn compare(before: &Snapshot, after: &Snapshot) -> Diff {
    let mut prompts = Vec::new();
    let keys: std::collections::BTreeSet<&PromptKey> =
        before.prompts.keys().chain(after.prompts.keys()).collect();
    for k in keys {
        let (b, a) = (before.prompts.get(k), after.prompts.get(k));
        let changed = match (b, a) {
            (Some(b), Some(a)) => b.rank != a.rank || b.passed != a.passed || b.winner != a.winner,
            _ => true,
        };
        if !changed {
            continue;
        }
        let (worse, better) = match (b, a) {
            (Some(b), Some(a)) => (
                b.passed && !a.passed,
                (!b.passed && a.passed) || (k.kind == Kind::Positive && !b.rank1 && a.rank1),
            ),
            _ => (false, false),
        };
        prompts.push(PromptChange {
            key: k.clone(),
            before: b.cloned(),
            after: a.cloned(),
            worse,
            better,
        });
    }
    let mut collisions = Vec::new();
    let pairs: std::collections::BTreeSet<&(String, String, String)> = before
        .collisions
        .keys()
        .chain(after.collisions.keys())
        .collect();
    for p in pairs {
        let (b, a) = (before.collisions.get(p), after.collisions.get(p));
        if b.map(|x| x.0) == a.map(|x| x.0) {
            continue;
        }
        collisions.push(CollisionChange {
            install: p.0.clone(),
            a: p.1.clone(),
            b: p.2.clone(),
            before: b.map(|x| x.0),
            after: a.map(|x| x.0),
            similarity_before: b.map(|x| x.1),
            similarity_after: a.map(|x| x.1),
            worse: a.is_some_and(|x| x.0) && !b.is_some_and(|x| x.0),
        });
    }
    let mut listings = Vec::new();
    let names: std::collections::BTreeSet<&(String, String)> =
        before.listed.keys().chain(after.listed.keys()).collect();
    for n in names {
        let (b, a) = (before.listed.get(n).copied(), after.listed.get(n).copied());
        if b == a || b.is_none() && a == Some(Shown::Whole) || a.is_none() {
            // a skill added whole, or one removed, is no listing change
            continue;
        }
        listings.push(ListingChange {
            install: n.0.clone(),
            skill: n.1.clone(),
            before: b,
            after: a,
            worse: a == Some(Shown::LeftOut) && b.is_some_and(|b| b != Shown::LeftOut),
        });
    }
    // findings as multisets of (rule, file, fingerprint)
    let key = |f: &Finding| (f.rule.clone(), f.file.clone(), f.fingerprint.clone());
    let mut count: HashMap<(String, String, String), isize> = HashMap::new();
    for f in &before.findings {
        *count.entry(key(f)).or_default() += 1;
    }
    let mut findings_new = Vec::new();
    for f in &after.findings {
        let c = count.entry(key(f)).or_default();
        if *c > 0 {
            *c -= 1;
        } else {
            findings_new.push(f.clone());
        }
    }
    let mut left: HashMap<(String, String, String), isize> = HashMap::new();
    for f in &after.findings {
        *left.entry(key(f)).or_default() += 1;
    }
    let mut findings_fixed = Vec::new();
    for f in &before.findings {
        let c = left.entry(key(f)).or_default();
        if *c > 0 {
            *c -= 1;
        } else {
            findings_fixed.push(f.clone());
        }
    }
    // the same finding whose source line changed (the description it
    // points at was edited) is neither new nor fixed
    let same =
        |a: &Finding, b: &Finding| a.rule == b.rule && a.file == b.file && a.message == b.message;
    let mut i = 0;
    while i < findings_new.len() {
        if let Some(j) = findings_fixed
            .iter()
            .position(|f| same(f, &findings_new[i]))
        {
            findings_fixed.remove(j);
            findings_new.remove(i);
        } else {
            i += 1;
        }
    }
    let mut all_rates = Vec::new();
    let (r1b, pb) = rates(before, None);
    let (r1a, pa) = rates(after, None);
    all_rates.push(Rates {
        install: String::new(),
        rank1_before: r1b,
        rank1_after: r1a,
        passed_before: pb,
        passed_after: pa,
    });
    let mut labels: Vec<&String> = after.installs.iter().filter(|l| !l.is_empty()).collect();
    for l in before.installs.iter().filter(|l| !l.is_empty()) {
        if !labels.contains(&l) {
            labels.push(l);
        }
    }
    for l in labels {
        let (r1b, pb) = rates(before, Some(l));
        let (r1a, pa) = rates(after, Some(l));
        if (r1b, pb) != (r1a, pa) {
            all_rates.push(Rates {
                install: l.clone(),
                rank1_before: r1b,
                rank1_after: r1a,
                passed_before: pb,
                passed_after: pa,
            });
        }
    }
    let worse = prompts.iter().any(|p| p.worse)
        || collisions.iter().any(|c| c.worse)
        || listings.iter().any(|l| l.worse);
    Diff {
        worse,
        unchanged: prompts.is_empty() && collisions.is_empty() && listings.is_empty(),
        top_k: after.top_k,
        rates: all_rates,
        prompts,
        collisions,
        listings,
        findings_new,
        findings_fixed,
    }
}
