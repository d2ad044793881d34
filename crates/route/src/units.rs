//! Routing what users install as a unit as a unit.
//!
//! A catalog of plugins or packs ([`crate::catalog::units`]) is not
//! installed whole: a user installs one plugin or one pack, and the client
//! lists that unit's skills (Claude Code: a plugin's as `<plugin>:<folder>`)
//! beside its own built-ins. Routing every unit in one listing measures a
//! listing no user has (129 skills of 21 packs overflow Claude Code's
//! budget, most shown by name only), so each installation is routed
//! against its own skills:
//!
//! - every unit alone, unless `[route] installed-together` lists it with
//!   others (`[["b2c", "b2c-cli"]]`: one installation of both);
//! - the catalog's skills outside every unit (`skills/<name>/`,
//!   `.claude/skills/`, …) together, with the project's commands;
//! - `[["*"]]` routes everything in one listing, as for a catalog without
//!   units.
//!
//! Each installation gets its own listing (the client's budget applies to
//! it), index and IDF, with the client's built-ins when `[route] builtins`
//! models them. A positive prompt is ranked in its skill's installation. A
//! negative's `owner` in another installation is never in the same
//! listing: SG513 notes it and the owner check (SG504) is skipped; the
//! negative is still checked in its own installation (SG503). A `with`
//! skill of another installation cannot compete, so it is ignored.
//!
//! The results are mapped back onto the documents of the router over the
//! whole catalog (the one `check` reports collisions and the HTML report
//! from), so a prompt's `doc` and `cell` mean what they always did.

use super::Router;
use super::cases::{Outcome, PromptResult};
use crate::catalog::Catalog;
use crate::catalog::units::Unit;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::exit::Fatal;
use std::collections::HashMap;

/// The unit name in `[route] installed-together` that stands for all.
pub const ALL: &str = "*";

/// One installation: the skills listed together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Install {
    /// What it is, for messages: ``plugin `b2c-cli` ``, ``plugins `b2c`,
    /// `b2c-cli` ``, `the catalog's own skills`.
    pub label: String,
    /// Indices into `catalog.skills`, ascending.
    pub skills: Vec<usize>,
    /// The project's commands are listed with it (the catalog's own
    /// skills).
    pub commands: bool,
}

fn label(units: &[&Unit]) -> String {
    let kind = units[0].kind.label();
    let names: Vec<String> = units.iter().map(|u| format!("`{}`", u.name)).collect();
    let plural = if units.len() > 1 { "s" } else { "" };
    format!("{kind}{plural} {}", names.join(", "))
}

/// The installations of `catalog` under `config`, or `None` when the whole
/// catalog is one listing (no units, `[["*"]]`, or one installation
/// only). A name in `[route] installed-together` that is no unit of the
/// catalog, or a unit named twice, is a usage error.
pub fn installs(catalog: &Catalog, config: &Config) -> Result<Option<Vec<Install>>, Fatal> {
    let groups = &config.route.installed_together;
    let known = |name: &str| catalog.units.iter().any(|u| u.name == name);
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        for name in group {
            if name != ALL && !known(name) {
                let mut names: Vec<&str> = catalog.units.iter().map(|u| u.name.as_str()).collect();
                names.dedup();
                return Err(Fatal::usage(format!(
                    "skillsift.toml: [route] installed-together names `{}`, which is no plugin or pack of this catalog",
                    name
                ))
                .with_help(if names.is_empty() {
                    "this catalog has no plugins (`plugins/<p>/skills/`, `skills/<p>/skills/`) or packs (`packs/<p>/.apm/skills/`): remove the key".to_string()
                } else {
                    format!(
                        "name its units by folder: {} (or \"*\" for all of them together)",
                        names.join(", ")
                    )
                }));
            }
            if let Some(first) = seen.insert(name.as_str(), g)
                && name != ALL
            {
                return Err(Fatal::usage(format!(
                    "skillsift.toml: [route] installed-together names `{}` in installation {} and again in {}",
                    name,
                    first + 1,
                    g + 1
                ))
                .with_help("a unit is installed once: merge the two lists, or remove one of the names"));
            }
        }
    }
    if catalog.units.is_empty() || seen.contains_key(ALL) {
        return Ok(None);
    }
    // installation of each unit: the named groups first, then one each
    let mut of_unit: Vec<usize> = vec![usize::MAX; catalog.units.len()];
    let mut members: Vec<Vec<usize>> = Vec::new();
    for group in groups {
        let units: Vec<usize> = (0..catalog.units.len())
            .filter(|&u| group.contains(&catalog.units[u].name))
            .collect();
        if units.is_empty() {
            continue;
        }
        for &u in &units {
            of_unit[u] = members.len();
        }
        members.push(units);
    }
    for (u, slot) in of_unit.iter_mut().enumerate() {
        if *slot == usize::MAX {
            *slot = members.len();
            members.push(vec![u]);
        }
    }
    let mut skills: Vec<Vec<usize>> = vec![Vec::new(); members.len()];
    let mut own = Vec::new();
    for i in 0..catalog.skills.len() {
        match catalog.unit_of(i) {
            Some(u) => skills[of_unit[u]].push(i),
            None => own.push(i),
        }
    }
    let mut out: Vec<Install> = members
        .iter()
        .zip(skills)
        .filter(|(_, s)| !s.is_empty())
        .map(|(m, s)| Install {
            label: label(&m.iter().map(|&u| &catalog.units[u]).collect::<Vec<_>>()),
            skills: s,
            commands: false,
        })
        .collect();
    if !own.is_empty() {
        out.push(Install {
            label: "the catalog's own skills".into(),
            skills: own,
            commands: true,
        });
    }
    Ok((out.len() > 1).then_some(out))
}

/// The installation that holds the unit named `unit` (`rank --unit`):
/// under `[route] installed-together`, with the units installed with it;
/// the whole catalog when it is routed as one listing. A name that is no
/// unit is a usage error naming the units there are.
pub fn installation(catalog: &Catalog, config: &Config, unit: &str) -> Result<Install, Fatal> {
    let Some(u) = catalog.units.iter().position(|x| x.name == unit) else {
        let names: Vec<&str> = catalog.units.iter().map(|u| u.name.as_str()).collect();
        return Err(Fatal::usage(format!(
            "--unit {unit}: this catalog has no plugin or pack `{unit}`"
        ))
        .with_help(if names.is_empty() {
            "this catalog has no plugins (`plugins/<p>/skills/`, `skills/<p>/skills/`) or packs (`packs/<p>/.apm/skills/`): leave out --unit".to_string()
        } else {
            format!("name one by its folder: {}", names.join(", "))
        }));
    };
    let all = || Install {
        label: "the whole catalog".into(),
        skills: (0..catalog.skills.len()).collect(),
        commands: true,
    };
    let Some(list) = installs(catalog, config)? else {
        return Ok(all());
    };
    let first = (0..catalog.skills.len()).find(|&i| catalog.unit_of(i) == Some(u));
    match first {
        Some(i) => Ok(list
            .into_iter()
            .find(|inst| inst.skills.contains(&i))
            .unwrap_or_else(all)),
        None => Err(Fatal::usage(format!(
            "--unit {unit}: {} `{unit}` has no skills ({}/<skill>/SKILL.md)",
            catalog.units[u].kind.label(),
            catalog.units[u].skills_dir
        ))
        .with_help("add a skill to it, or name another unit")),
    }
}

/// Which installation of `installs` holds each skill of `catalog`.
pub fn where_of(catalog: &Catalog, installs: &[Install]) -> Vec<usize> {
    let mut out: Vec<usize> = vec![0; catalog.skills.len()];
    for (k, inst) in installs.iter().enumerate() {
        for &i in &inst.skills {
            out[i] = k;
        }
    }
    out
}

/// Installation `k` of `installs` as a catalog of its own, and the names
/// (frontmatter `name` and folder) of the catalog's skills installed
/// elsewhere, with where: what a router over it holds in
/// [`Router::elsewhere`]. `where_of` is [`where_of`]'s.
pub fn installed(
    catalog: &Catalog,
    installs: &[Install],
    where_of: &[usize],
    k: usize,
) -> (Catalog, HashMap<String, String>) {
    let inst = &installs[k];
    let sub = catalog.subset(&inst.skills, inst.commands);
    let mut elsewhere = HashMap::new();
    for (i, s) in catalog.skills.iter().enumerate() {
        if where_of[i] == k {
            continue;
        }
        let there = &installs[where_of[i]].label;
        for name in s.name().into_iter().chain([s.folder.as_str()]) {
            elsewhere
                .entry(name.to_string())
                .or_insert_with(|| there.clone());
        }
    }
    (sub, elsewhere)
}

/// What routing each installation found.
#[derive(Debug, Default)]
pub struct Checked {
    /// The trigger checks of every installation, on the whole catalog's
    /// documents.
    pub outcome: Outcome,
    /// Each installation's listing against the client's budget.
    pub listing: Vec<Diagnostic>,
    /// With `collide`: the pairs of skills installed together whose
    /// entries in their installation's listing collide, on the whole
    /// catalog's documents (a skill the whole listing leaves out has no
    /// document there: its pairs are left out of this list only), and
    /// their findings (SG510, SG511). Skills of two installations never
    /// share a listing, so they never collide.
    pub collisions: Vec<super::collide::Found>,
    pub collision_findings: Vec<Diagnostic>,
}

/// Route each installation's trigger prompts against its own listing, and
/// map the results onto `full`, the router over the whole catalog.
pub fn check(
    full: &Router,
    installs: &[Install],
    config: &Config,
    builtins: Option<&[crate::client::Builtin]>,
    collide: bool,
) -> Result<Checked, Fatal> {
    let catalog = full.catalog;
    let where_of = where_of(catalog, installs);
    // the whole catalog's built-ins and commands, by name
    let competitors: HashMap<(&str, bool), u32> = (0..full.index.len() as u32)
        .filter(|&d| full.is_competitor(d))
        .map(|d| ((full.index.doc(d).name.as_str(), full.is_builtin(d)), d))
        .collect();
    // each installation on its own (in parallel), merged in their order
    use rayon::prelude::*;
    type One = (
        Vec<Diagnostic>,
        super::cases::Outcome,
        Vec<(usize, PromptResult)>,
        (Vec<super::collide::Found>, Vec<Diagnostic>),
    );
    let each: Vec<Result<One, Fatal>> = installs
        .par_iter()
        .enumerate()
        .map(|(k, inst)| {
            let (sub, elsewhere) = installed(catalog, installs, &where_of, k);
            let mut router = Router::with_builtins(&sub, config, builtins)?;
            router.elsewhere = elsewhere;
            let listing = super::listing::check(&router, &config.route);
            let mut o = super::cases::check(&router, &config.route);
            let map = |d: u32| -> Option<u32> {
                let src = router.source_of(d);
                if src < sub.skills.len() {
                    full.doc_of(inst.skills[src])
                } else {
                    competitors
                        .get(&(router.index.doc(d).name.as_str(), router.is_builtin(d)))
                        .copied()
                }
            };
            let mut prompts = Vec::new();
            for mut p in std::mem::take(&mut o.prompts) {
                // a skill the whole catalog's listing does not hold has no
                // row in the reports: its prompt is counted, not listed
                let Some(doc) = map(p.doc) else { continue };
                let src = inst.skills[router.source_of(p.doc)];
                p.doc = doc;
                p.cell = p.cell.and_then(|mut c| {
                    c.owner = map(c.owner)?;
                    c.winner = match c.winner {
                        Some(w) => Some(map(w)?),
                        None => None,
                    };
                    Some(c)
                });
                prompts.push((src, p));
            }
            let mut collisions = (Vec::new(), Vec::new());
            if collide {
                let found = super::collide::find(&router, &config.route);
                collisions.1 = super::collide::diagnostics(&router, &config.route, &found);
                collisions.0 = found
                    .into_iter()
                    .filter_map(|mut f| {
                        let (a, b) = (map(f.pair.a)?, map(f.pair.b)?);
                        (f.pair.a, f.pair.b) = (a.min(b), a.max(b));
                        Some(f)
                    })
                    .collect();
            }
            Ok((listing, o, prompts, collisions))
        })
        .collect();
    let mut out = Checked::default();
    let mut prompts: Vec<(usize, PromptResult)> = Vec::new();
    for one in each {
        let (listing, o, p, (found, findings)) = one?;
        out.listing.extend(listing);
        out.collisions.extend(found);
        out.collision_findings.extend(findings);
        let r = &mut out.outcome;
        r.rank1 += o.rank1;
        r.not_lexical += o.not_lexical;
        r.top3 += o.top3;
        r.tied_first += o.tied_first;
        r.positives += o.positives;
        r.checks += o.checks;
        r.checks_passed += o.checks_passed;
        r.diagnostics.extend(o.diagnostics);
        prompts.extend(p);
    }
    // in the catalog's order of skills, each skill's prompts as they came
    prompts.sort_by_key(|(src, _)| *src);
    out.outcome.prompts = prompts.into_iter().map(|(_, p)| p).collect();
    out.collisions.sort_by_key(|f| (f.pair.a, f.pair.b));
    Ok(out)
}
