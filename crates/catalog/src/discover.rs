//! Finding SKILL.md files: a bounded, loop-safe walk with include/exclude
//! globs. Nothing here reads file contents.

use crate::config::PathGlobs;
use crate::diag::Diagnostic;
use crate::rules::load::UNREADABLE;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

pub use crate::layout::{CLIENT_ROOTS, PACKS_DIR, PLUGINS_DIR, SKIP_DIRS, join_rel};

/// `.claude/commands` (at the root or below): Claude Code reads a
/// `SKILL.md` there as a slash command, and no client as a skill, so the
/// walk does not look for skills in it (`catalog::commands` reads it).
fn is_commands_dir(rel: &str) -> bool {
    rel == ".claude/commands" || rel.ends_with("/.claude/commands")
}

/// Deepest folder nesting walked below a skills root.
pub const MAX_DEPTH: usize = 32;

/// One SKILL.md a walk found.
#[derive(Debug, Clone)]
pub struct SkillFile {
    /// The path as reached (absolute when the root was).
    pub path: PathBuf,
    /// Root-relative, `/`-separated.
    pub rel: String,
    /// The file with every symlink resolved, when known: two entries with
    /// the same one are one file reached twice.
    pub canonical: Option<PathBuf>,
    /// The SKILL.md itself is a symlink.
    pub link: bool,
}

/// Where a catalog's skills are looked for by default, and what decided it.
#[derive(Debug, Default)]
pub struct DefaultRoots {
    /// Root-relative folders to walk, in order (`""` is the catalog root).
    pub roots: Vec<String>,
    /// Client roots left out because they lead outside the catalog, with
    /// where to (reported in the summary, never followed).
    pub outside: Vec<(String, PathBuf)>,
    /// Folders whose listing decided which roots exist, root-relative.
    pub probed: Vec<String>,
    /// A probed folder or root is a symlink.
    pub links: bool,
}

/// Whether `dir` is a skills root at all: a folder that is not itself a
/// skill (`skills/SKILL.md` makes `skills/` a skill named "skills").
fn is_root_folder(dir: &Path) -> bool {
    dir.is_dir() && std::fs::symlink_metadata(dir.join("SKILL.md")).is_err()
}

/// The default skills roots of the catalog at `base`: `skills/` and every
/// client root ([`CLIENT_ROOTS`], `plugins/*/skills/`,
/// `packs/*/.apm/skills/`) that exists, when
/// `skills/` is a skills root; else the catalog root itself, whose walk
/// reaches all of them anyway.
pub fn default_roots(base: &Path, boundary: &Path, units: &[crate::units::Unit]) -> DefaultRoots {
    let mut out = DefaultRoots {
        probed: vec![String::new()],
        ..DefaultRoots::default()
    };
    let is_link = |rel: &str| {
        std::fs::symlink_metadata(base.join(rel)).is_ok_and(|m| m.file_type().is_symlink())
    };
    if !is_root_folder(&base.join("skills")) {
        out.roots.push(String::new());
        return out;
    }
    out.roots.push("skills".into());
    out.links |= is_link("skills");
    let mut candidates: Vec<String> = Vec::new();
    for r in CLIENT_ROOTS {
        let parent = r.split('/').next().unwrap_or(r);
        if base.join(parent).is_dir() && !out.probed.iter().any(|p| p == parent) {
            out.probed.push(parent.to_string());
            out.links |= is_link(parent);
        }
        candidates.push(r.to_string());
    }
    if base.join(PLUGINS_DIR).is_dir() {
        out.probed.push(PLUGINS_DIR.to_string());
        out.links |= is_link(PLUGINS_DIR);
        let mut plugins: Vec<String> = std::fs::read_dir(base.join(PLUGINS_DIR))
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().to_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        plugins.sort();
        for p in plugins {
            let rel = format!("{PLUGINS_DIR}/{p}");
            if base.join(&rel).is_dir() && !SKIP_DIRS.contains(&p.as_str()) {
                out.links |= is_link(&rel);
                out.probed.push(rel.clone());
                candidates.push(format!("{rel}/skills"));
            }
        }
    }
    // packs (`packs/<pack>/.apm/skills/`, see `units`): their folders
    // decide the roots too
    if base.join(PACKS_DIR).is_dir() {
        out.probed.push(PACKS_DIR.to_string());
        out.links |= is_link(PACKS_DIR);
        for unit in units
            .iter()
            .filter(|u| u.kind == crate::units::UnitKind::Pack)
        {
            let pack = format!("{PACKS_DIR}/{}", unit.name);
            for rel in [pack.clone(), format!("{pack}/.apm")] {
                out.links |= is_link(&rel);
                out.probed.push(rel);
            }
            candidates.push(unit.skills_dir.clone());
        }
    }
    // plugins found by their manifests or a marketplace file: the folders
    // they list, when no root above holds them
    let mut whole_plugins: Vec<String> = Vec::new();
    for unit in units
        .iter()
        .filter(|u| u.kind == crate::units::UnitKind::Plugin)
    {
        // a plugin with a manifest is walked whole: the folders it names
        // and the SKILL.md files it does not list (said, never routed)
        // (and so is one a marketplace entry installs: its skills are
        // linted whatever the entry lists)
        let whole = (unit.manifest.is_some() || unit.entry.is_some()) && !unit.dir.is_empty();
        if whole {
            candidates.retain(|c| !(c.starts_with(&format!("{}/", unit.dir))));
        }
        if whole {
            // its folder may be a skill itself (a SKILL.md beside skill
            // folders, no `skills/`): it is walked all the same
            whole_plugins.push(unit.dir.clone());
        }
        let folders: Vec<&String> = if whole {
            vec![&unit.dir]
        } else {
            std::iter::once(&unit.skills_dir)
                .chain(&unit.extra)
                .collect()
        };
        for rel in folders {
            let held = rel.is_empty()
                || out
                    .roots
                    .iter()
                    .chain(&candidates)
                    .any(|r| r == rel || rel.starts_with(&format!("{r}/")));
            if !held && base.join(rel).is_dir() {
                if let Some((parent, _)) = rel.rsplit_once('/')
                    && !out.probed.iter().any(|p| p == parent)
                {
                    out.probed.push(parent.to_string());
                }
                candidates.push(rel.clone());
            }
        }
    }
    for rel in candidates {
        let dir = base.join(&rel);
        let whole_plugin = dir.is_dir() && whole_plugins.contains(&rel);
        if !(is_root_folder(&dir) || whole_plugin) {
            continue;
        }
        if let Some(real) = super::outside_root(boundary, &dir) {
            out.outside.push((rel, real));
            continue;
        }
        out.links |= is_link(&rel);
        out.roots.push(rel);
    }
    out
}

/// What a walk found.
#[derive(Debug, Default, Clone)]
pub struct Found {
    /// Every SKILL.md found, in walk order.
    pub skill_files: Vec<SkillFile>,
    /// Folders (root-relative) that hold files but no SKILL.md in themselves,
    /// in any ancestor below the skills root, or in any descendant.
    pub orphan_dirs: Vec<String>,
    pub diagnostics: Vec<Diagnostic>,
    /// Every folder listed (root-relative, `""` for the root), in walk
    /// order.
    pub dirs: Vec<String>,
    /// A folder walked or a SKILL.md found was a symlink.
    pub links: bool,
    /// What the walk read of each folder it listed whole, by root-relative
    /// path: a skill's folder is listed from it, not read again
    /// ([`crate::load_skill`]).
    pub listed: Listed,
}

/// One entry of a folder as `read_dir` gives it (a link not followed).
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: Box<str>,
    pub kind: EntryKind,
}

/// What an [`Entry`] is, as its folder says (a link is not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    Dir,
    Link,
    /// A regular file, a device, a FIFO, a socket.
    Other,
}

/// Folders' entries, in `read_dir` order, by root-relative path (`""` for
/// the root); a folder is here only when every entry read cleanly (a
/// UTF-8 name, a type).
pub type Listed = HashMap<String, std::sync::Arc<[Entry]>>;

/// Compiled include/exclude globs (gitignore semantics, see
/// [`crate::config::PathGlobs`]), matched against root-relative paths.
pub struct Filter {
    include: Option<PathGlobs>,
    exclude: PathGlobs,
}

impl Filter {
    pub fn new(include: &[String], exclude: &[String]) -> Result<Filter, String> {
        Ok(Filter {
            include: if include.is_empty() {
                None
            } else {
                Some(PathGlobs::new(include)?)
            },
            exclude: PathGlobs::new(exclude)?,
        })
    }

    /// The folder `rel` is excluded.
    pub fn excluded(&self, rel: &str) -> bool {
        self.exclude.matches(rel, true)
    }

    pub fn accepts_file(&self, rel: &str) -> bool {
        !self.exclude.is_match(rel) && self.include.as_ref().is_none_or(|i| i.is_match(rel))
    }
}

/// How walking one root went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Walked {
    /// The root was walked.
    Read,
    /// The root is a folder an earlier root already walked (a symlink to
    /// it, or the same folder): its root-relative path.
    Same(String),
    /// The root could not be walked (already a diagnostic).
    Failed,
}

/// Walk `dir` (whose root-relative path is `rel`) for SKILL.md files.
/// `report_orphans` is set for dedicated skills roots, where every folder
/// is expected to belong to a skill. Symlinks that lead outside `boundary`
/// (the canonical catalog root) are reported and not followed. `seen`
/// holds the real folders walked so far, by every root of the catalog,
/// so a folder reached twice is walked once.
pub fn walk(
    dir: &Path,
    rel: &str,
    filter: &Filter,
    report_orphans: bool,
    boundary: &Path,
    seen: &mut HashMap<PathBuf, String>,
    found: &mut Found,
) -> Walked {
    if let Some(real) = super::outside_root(boundary, dir) {
        found.diagnostics.push(
            UNREADABLE
                .diag(rel, super::outside_message(&real))
                .with_help(super::OUTSIDE_HELP),
        );
        return Walked::Failed;
    }
    let canon = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    if let Some(first) = seen.get(&canon) {
        return Walked::Same(first.clone());
    }
    seen.insert(canon.clone(), rel.to_string());
    let mut listings = prefetch(dir, rel, filter, boundary, &mut found.listed);
    walk_dir(
        dir,
        &canon,
        rel,
        filter,
        report_orphans,
        boundary,
        0,
        false,
        seen,
        &mut listings,
        found,
    );
    found.orphan_dirs.sort();
    found.orphan_dirs.dedup();
    Walked::Read
}

/// Sort what the walks of every root found, and keep each SKILL.md once:
/// by path, and by the file it really is (a symlinked SKILL.md whose
/// target was found too is the same skill; the target is kept).
pub fn settle(found: &mut Found) {
    found.skill_files.sort_by(|a, b| a.rel.cmp(&b.rel));
    found.skill_files.dedup_by(|a, b| a.rel == b.rel);
    let mut real: HashSet<PathBuf> = found
        .skill_files
        .iter()
        .filter(|f| !f.link)
        .filter_map(|f| f.canonical.clone())
        .collect();
    found.skill_files.retain(|f| {
        if !f.link {
            return true;
        }
        match &f.canonical {
            Some(c) => real.insert(c.clone()),
            None => true,
        }
    });
}

/// One entry of a folder, as the walk needs it.
enum Item {
    Dir {
        path: PathBuf,
        rel: String,
        is_link: bool,
        name: String,
    },
    File {
        path: PathBuf,
        rel: String,
        name: String,
        is_link: bool,
    },
    /// An entry that could not be read, already a diagnostic.
    Problem(Diagnostic),
}

/// A folder's entries in `read_dir` order, or why it could not be read.
type Listing = Result<Vec<Item>, Box<Diagnostic>>;

/// Read one folder (`rel` is its root-relative path). Pure: problems come
/// back as diagnostics in entry order.
fn list(dir: &Path, rel: &str, boundary: &Path) -> (Listing, Option<Vec<Entry>>) {
    let mut raw = Some(Vec::new());
    let listing = list_into(dir, rel, boundary, &mut raw);
    (listing, raw)
}

/// [`list`], every entry read cleanly also pushed to `raw` (set to `None`
/// at the first that is not).
fn list_into(dir: &Path, rel: &str, boundary: &Path, raw: &mut Option<Vec<Entry>>) -> Listing {
    let unreadable = |what: &str, e: &dyn std::fmt::Display| {
        UNREADABLE
            .diag(
                if rel.is_empty() { "." } else { rel },
                format!("cannot read {what}: {e}"),
            )
            .with_help("fix the permissions or remove the entry")
    };
    let entries = std::fs::read_dir(dir).map_err(|e| Box::new(unreadable("folder", &e)))?;
    let mut items = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                *raw = None;
                items.push(Item::Problem(unreadable("folder entry", &e)));
                continue;
            }
        };
        let name_os = entry.file_name();
        let Some(name) = name_os.to_str() else {
            *raw = None;
            items.push(Item::Problem(
                UNREADABLE
                    .diag(
                        join_rel(rel, &name_os.to_string_lossy()),
                        "file name is not valid UTF-8; it was skipped",
                    )
                    .with_help("rename it with a UTF-8 name"),
            ));
            continue;
        };
        let path = entry.path();
        let child_rel = join_rel(rel, name);
        let ft = match entry.file_type() {
            Ok(t) => t,
            Err(e) => {
                *raw = None;
                items.push(Item::Problem(unreadable(name, &e)));
                continue;
            }
        };
        if let Some(raw) = raw {
            raw.push(Entry {
                name: name.into(),
                kind: if ft.is_dir() {
                    EntryKind::Dir
                } else if ft.is_symlink() {
                    EntryKind::Link
                } else {
                    EntryKind::Other
                },
            });
        }
        let is_dir = if ft.is_symlink() {
            if let Some(real) = super::outside_root(boundary, &path) {
                items.push(Item::Problem(
                    UNREADABLE
                        .diag(child_rel.clone(), super::outside_message(&real))
                        .with_help(super::OUTSIDE_HELP),
                ));
                continue;
            }
            match std::fs::metadata(&path) {
                Ok(m) => m.is_dir(),
                Err(e) => {
                    items.push(Item::Problem(
                        UNREADABLE
                            .diag(child_rel.clone(), format!("broken symlink: {e}"))
                            .with_help("point the link at an existing file or remove it"),
                    ));
                    continue;
                }
            }
        } else {
            ft.is_dir()
        };
        let name = name.to_string();
        items.push(if is_dir {
            Item::Dir {
                path,
                rel: child_rel,
                is_link: ft.is_symlink(),
                name,
            }
        } else {
            Item::File {
                path,
                rel: child_rel,
                name,
                is_link: ft.is_symlink(),
            }
        });
    }
    Ok(items)
}

/// Read every real (not symlinked) folder the walk will visit, a level at
/// a time, in parallel: the walk itself then stays sequential (its order
/// decides which of two links to one folder wins) but waits on no system
/// call except for symlinked folders.
/// Listings are keyed by root-relative path (cheaper to hash than a path).
fn prefetch(
    dir: &Path,
    rel: &str,
    filter: &Filter,
    boundary: &Path,
    raw: &mut Listed,
) -> HashMap<String, Listing> {
    let mut out = HashMap::new();
    let mut frontier = vec![(dir.to_path_buf(), rel.to_string(), 0usize)];
    while !frontier.is_empty() {
        type Read = (String, usize, (Listing, Option<Vec<Entry>>));
        let listed: Vec<Read> = frontier
            .par_iter()
            .map(|(p, r, d)| (r.clone(), *d, list(p, r, boundary)))
            .collect();
        frontier = Vec::new();
        for (key, depth, (listing, entries)) in listed {
            if let Some(entries) = entries {
                raw.insert(key.clone(), entries.into());
            }
            if depth < MAX_DEPTH
                && let Ok(items) = &listing
            {
                for item in items {
                    if let Item::Dir {
                        path,
                        rel,
                        is_link: false,
                        name,
                    } = item
                        && !SKIP_DIRS.contains(&name.as_str())
                        && !filter.excluded(rel)
                    {
                        frontier.push((path.clone(), rel.clone(), depth + 1));
                    }
                }
            }
            out.insert(key, listing);
        }
    }
    out
}

/// Returns whether the subtree holds a SKILL.md. `canon` is `dir` with
/// every symlink resolved; a child that is not a symlink is `canon/name`,
/// so only symlinks cost a `realpath`.
#[allow(clippy::too_many_arguments)]
fn walk_dir(
    dir: &Path,
    canon: &Path,
    rel: &str,
    filter: &Filter,
    report_orphans: bool,
    boundary: &Path,
    depth: usize,
    inside_skill: bool,
    seen: &mut HashMap<PathBuf, String>,
    listings: &mut HashMap<String, Listing>,
    found: &mut Found,
) -> bool {
    let listing = listings
        .remove(rel)
        .unwrap_or_else(|| list(dir, rel, boundary).0);
    let items = match listing {
        Ok(items) => items,
        Err(d) => {
            found.diagnostics.push(*d);
            return false;
        }
    };
    found.dirs.push(rel.to_string());
    let mut subdirs = Vec::new();
    let mut has_skill = false;
    let mut has_files = false;
    for item in items {
        match item {
            Item::Problem(d) => found.diagnostics.push(d),
            Item::Dir {
                path,
                rel: child_rel,
                is_link,
                name,
            } => {
                if SKIP_DIRS.contains(&name.as_str())
                    || filter.excluded(&child_rel)
                    || is_commands_dir(&child_rel)
                {
                    continue;
                }
                if name == "SKILL.md" {
                    found.diagnostics.push(
                        crate::rules::skill_md_folder::SKILL_MD_FOLDER
                            .diag(
                                child_rel.clone(),
                                "`SKILL.md` is a folder, not a file: no client reads it, so this is no skill",
                            )
                            .with_help(format!(
                                "move the skill's text into a file {child_rel} and remove the folder"
                            )),
                    );
                }
                found.links |= is_link;
                subdirs.push((path, child_rel, is_link));
            }
            Item::File {
                path,
                rel: child_rel,
                name,
                is_link,
            } => {
                has_files = true;
                found.links |= is_link && name == "SKILL.md";
                if name == "SKILL.md" && filter.accepts_file(&child_rel) {
                    has_skill = true;
                    let canonical = if is_link {
                        path.canonicalize().ok()
                    } else {
                        Some(canon.join("SKILL.md"))
                    };
                    found.skill_files.push(SkillFile {
                        path,
                        rel: child_rel,
                        canonical,
                        link: is_link,
                    });
                }
            }
        }
    }
    if depth >= MAX_DEPTH && !subdirs.is_empty() {
        found.diagnostics.push(
            UNREADABLE
                .diag(
                    rel,
                    format!(
                        "folders nest deeper than {MAX_DEPTH} levels; deeper ones were not searched"
                    ),
                )
                .with_help("flatten the catalog or exclude this folder in skillsift.toml"),
        );
        return has_skill;
    }
    let mut below = false;
    // by root-relative path: within one folder the same order as by path
    // components, without parsing them on every comparison
    subdirs.sort_by(|a, b| a.1.cmp(&b.1));
    for (path, child_rel, is_link) in subdirs {
        let child_canon = if is_link {
            match path.canonicalize() {
                Ok(c) => c,
                Err(e) => {
                    found.diagnostics.push(
                        UNREADABLE
                            .diag(
                                if rel.is_empty() { "." } else { rel },
                                format!("cannot read {child_rel}: {e}"),
                            )
                            .with_help("fix the permissions or remove the entry"),
                    );
                    continue;
                }
            }
        } else {
            canon.join(path.file_name().unwrap_or_default())
        };
        if seen.contains_key(&child_canon) {
            // a symlink loop or a second link to a folder already walked
            continue;
        }
        seen.insert(child_canon.clone(), child_rel.clone());
        below |= walk_dir(
            &path,
            &child_canon,
            &child_rel,
            filter,
            report_orphans,
            boundary,
            depth + 1,
            inside_skill || has_skill,
            seen,
            listings,
            found,
        );
    }
    // a folder named SKILL.md is SG019 already
    let skill_md = rel.rsplit('/').next() == Some("SKILL.md");
    if report_orphans
        && depth > 0
        && has_files
        && !has_skill
        && !below
        && !inside_skill
        && !skill_md
    {
        found.orphan_dirs.push(rel.to_string());
    }
    has_skill || below
}
