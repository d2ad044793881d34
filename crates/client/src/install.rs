//! How a client installs a catalog: the installations it makes, each
//! with the skills it lists together.
//!
//! A catalog of plugins or packs ([`crate::catalog::units`]: plugin
//! folders, marketplace entries, APM packs) is not installed whole: a user
//! installs one plugin, one marketplace entry or one pack, and the client
//! lists that unit's skills (Claude Code: a plugin's as
//! `<plugin>:<skill>`) beside its own built-ins. The installations are:
//!
//! - every unit alone, unless `[route] installed-together` lists it with
//!   others (`[["b2c", "b2c-cli"]]`: one installation of both);
//! - the catalog's skills outside every unit (`skills/<name>/`,
//!   `.claude/skills/`, …) together, with the project's commands;
//! - `[["*"]]`: everything in one listing, as for a catalog without units.
//!
//! A catalog without units is one installation: its skills folders
//! (`skills/`, the clients' project folders), or, for a library
//! ([`crate::catalog::Catalog::library`]), its skills copied one by one.
//!
//! Every command that shows or ranks a listing asks this module: `check`'s
//! routing and collisions (`route::units`), `listing` (each installation's
//! listing, `--unit`), `rank --unit`, `tune`, the editor's commands.

use crate::catalog::Catalog;
use crate::catalog::units::Unit;
use crate::config::Config;
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
        // the units that hold skills, as `listing` names them
        let mut held: Vec<usize> = (0..catalog.skills.len())
            .filter_map(|i| catalog.unit_of(i))
            .collect();
        held.sort_unstable();
        held.dedup();
        let mut names: Vec<&str> = held
            .iter()
            .map(|&u| catalog.units[u].name.as_str())
            .collect();
        let more = names.len().saturating_sub(24);
        names.truncate(24);
        if more > 0 {
            names.push("…");
        }
        return Err(Fatal::usage(format!(
            "--unit {unit}: this catalog has no plugin, marketplace entry or pack `{unit}`"
        ))
        .with_help(if names.is_empty() {
            "this catalog has no plugins (`plugins/<p>/skills/`, `skills/<p>/skills/`) or packs (`packs/<p>/.apm/skills/`): leave out --unit".to_string()
        } else {
            format!(
                "name one as `skillsift listing` prints it before `:`: {}{}",
                names.join(", "),
                if more > 0 { format!(" ({more} more)") } else { String::new() }
            )
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

/// What `client` shows of each installation of `catalog` ([`installs`]):
/// the installation and its listing, the entries' `skill` indices
/// mapped back onto `catalog.skills`. `None` when the catalog is one
/// installation (its listing is the client's listing of the whole).
pub fn listings(
    client: &dyn crate::client::Client,
    catalog: &Catalog,
    config: &Config,
    builtins: Option<&[crate::client::Builtin]>,
) -> Result<Option<Vec<(Install, crate::client::Listing)>>, Fatal> {
    let Some(list) = installs(catalog, config)? else {
        return Ok(None);
    };
    Ok(Some(
        list.into_iter()
            .map(|inst| {
                let sub = catalog.subset(&inst.skills, inst.commands);
                let mut l = client.listing(&sub, config, builtins);
                for e in &mut l.entries {
                    e.skill = inst.skills[e.skill];
                }
                (inst, l)
            })
            .collect(),
    ))
}

/// Whether `catalog` is installed whole, so that the client's listing
/// budget applies to its listing: not a library (its skills are copied
/// one by one) and not several installations (plugins, marketplace
/// entries or packs installed one at a time, each listed within its own
/// budget). A listing of the whole of such a catalog is a view across
/// installations nobody has, with no budget. `[route] installed-together
/// = [["*"]]` says the catalog is installed whole ([`whole`]).
pub fn installed_whole(catalog: &Catalog, config: &Config) -> bool {
    let all = (config.route.installed_together.iter()).any(|g| g.iter().any(|n| n == ALL));
    all || (!catalog.library && matches!(installs(catalog, config), Ok(None)))
}

/// `config` with the whole catalog installed at once (`[route]
/// installed-together = [["*"]]`): what a capture installs, and so what
/// `listing --capture` and `--verify` predict.
pub fn whole(config: &Config) -> Config {
    let mut c = config.clone();
    c.route.installed_together = vec![vec![ALL.to_string()]];
    c
}
