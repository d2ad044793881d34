//! What users install as a unit: the plugins and packs of a catalog.
//!
//! A marketplace or pack catalog is not installed whole. A user installs
//! one plugin (Claude Code lists its skills once it is installed, as
//! plugin skills named `<plugin>:<folder>`) or one pack (an APM pack's
//! `.apm/skills/` is copied into the project's skills folder).
//!
//! A **plugin** is a folder with a manifest `.claude-plugin/plugin.json`,
//! wherever it sits (the catalog root included), a folder a marketplace
//! file (`.claude-plugin/marketplace.json` at the root) names by a local
//! `source` path, or a folder of one of the layouts below with a
//! `skills/` folder and no manifest. Claude Code (2.1.197, read in its
//! code and measured with 21 layouts) lists, for a plugin:
//!
//! - the one-level subfolders of `skills/`, as `<prefix>:<subfolder>`;
//! - each folder the manifest's `skills` key names (a path or a list of
//!   paths inside the plugin): when it holds a SKILL.md, one skill named
//!   `<prefix>:<frontmatter name>` (the folder's name when there is none),
//!   else its one-level subfolders as above;
//! - the plugin folder itself as one skill (named like a `skills` folder
//!   holding a SKILL.md) when it holds a SKILL.md and has no `skills/`.
//!
//! The prefix is the manifest's `name`, the folder's name only when there
//! is no manifest; characters outside `[A-Za-z0-9_-]` become `-`. Nothing
//! deeper is listed: a SKILL.md below a listed skill, or in a folder the
//! plugin does not list, is never seen ([`Placement::Hidden`]).
//!
//! | layout | unit | kind |
//! | --- | --- | --- |
//! | `plugins/<p>/skills/<skill>/SKILL.md` | the plugin `<p>` | [`UnitKind::Plugin`] |
//! | `plugins/<group>/<p>/.claude-plugin/plugin.json` | the plugin `<p>` | [`UnitKind::Plugin`] |
//! | `skills/<p>/skills/<skill>/SKILL.md` | the plugin `<p>` (a marketplace keeping its plugins under `skills/`) | [`UnitKind::Plugin`] |
//! | `packs/<p>/.apm/skills/<skill>/SKILL.md` | the pack `<p>` | [`UnitKind::Pack`] |
//! | an entry of `.claude-plugin/marketplace.json` with a local `source` | the entry's plugin (named by the source folder's plugin.json, else by the entry; its `skills` list replacing the scan of `skills/`) | [`UnitKind::Plugin`] |
//!
//! Each marketplace entry is a unit of its own, even when two share a
//! `source` (anthropics/skills: three entries of `./`); a SKILL.md two
//! entries list is the first's ([`crate::Catalog::unit_of`]). What
//! Claude Code 2.1.197 does with an entry was measured by installing from
//! a local marketplace (docs/clients.md, "Marketplace entries").
//!
//! A layout folder `<p>` is no unit when it is a skill itself
//! (`skills/<p>/SKILL.md`) and has no manifest, when its name starts with
//! `.` or `_` (templates and fixtures by convention), or when it is a
//! folder never walked ([`super::layout::SKIP_DIRS`]). Manifests and
//! marketplace files are untrusted: read up to [`MANIFEST_LIMIT`] bytes,
//! paths that leave the plugin (or the catalog) refused, and a file that
//! does not parse reported ([`ManifestProblem`]) with the folder's name
//! used as the prefix.

use std::path::Path;

/// The largest manifest or marketplace file read.
pub const MANIFEST_LIMIT: u64 = 1 << 20;

/// Where a plugin's manifest is, below the plugin folder.
pub const MANIFEST: &str = ".claude-plugin/plugin.json";

/// Where a marketplace file is, below the catalog root.
pub const MARKETPLACE: &str = ".claude-plugin/marketplace.json";

/// How a unit is installed, and so how a client lists its skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnitKind {
    /// A plugin: Claude Code lists its skills as `<plugin>:<folder>`.
    Plugin,
    /// A pack: its skills are copied into the project's skills folder and
    /// listed as the project's own.
    Pack,
}

impl UnitKind {
    pub fn label(self) -> &'static str {
        match self {
            UnitKind::Plugin => "plugin",
            UnitKind::Pack => "pack",
        }
    }
}

/// One plugin or pack.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unit {
    /// The plugin's prefix (its manifest's `name`, else its folder's), or
    /// the pack's folder name.
    pub name: String,
    pub kind: UnitKind,
    /// Its folder, root-relative (`skills/b2c-cli`; `""` for the root).
    pub dir: String,
    /// Its skills folder, root-relative (`skills/b2c-cli/skills`).
    pub skills_dir: String,
    /// The folders its manifest's `skills` key adds, root-relative.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Its manifest, root-relative, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest: Option<String>,
    /// The skills folder exists.
    #[serde(skip)]
    pub has_skills_dir: bool,
    /// The marketplace entry it is installed as (its `name`), when the
    /// catalog's marketplace file names its folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// The entry's `skills` list replaces the scan of `skills/` (and the
    /// manifest's own `skills` key): only the folders in [`Unit::extra`]
    /// are read.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub only_listed: bool,
    /// Claude Code loads nothing of it: why (conflicting manifests, an
    /// entry it refuses to install).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loads_nothing: Option<String>,
}

/// Where a skill of a plugin sits, as Claude Code lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// Listed as `<prefix>:<this>`: a one-level subfolder of a folder the
    /// plugin reads.
    Folder(String),
    /// Listed as `<prefix>:<frontmatter name>`: a folder the manifest names
    /// (or the plugin folder) holding the SKILL.md itself.
    Named,
    /// Never listed: why, as "… is not listed: <this>".
    Hidden(String),
}

/// A manifest or marketplace file that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestProblem {
    /// The file, root-relative.
    pub file: String,
    pub message: String,
    /// Claude Code installs the plugin and loads none of it (SG024), as
    /// opposed to a file skillsift could not read (SG022).
    pub loads_nothing: bool,
    /// Where in the file, when known.
    pub span: Option<crate::diag::Span>,
}

/// A file skillsift could not use (SG022).
fn unusable(file: impl Into<String>, message: String) -> ManifestProblem {
    ManifestProblem {
        file: file.into(),
        message,
        loads_nothing: false,
        span: None,
    }
}

/// `[A-Za-z0-9_-]` kept, every other character `-`, as Claude Code names
/// a plugin's skills.
pub fn plugin_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

fn join(dir: &str, name: &str) -> String {
    super::layout::join_rel(dir, name)
}

/// `path` is `dir` or lies below it (root-relative; `""` is the root).
fn within(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path == dir
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// `path` lies one level below `dir`: that level's name.
fn child_of<'a>(path: &'a str, dir: &str) -> Option<&'a str> {
    let rest = if dir.is_empty() {
        path
    } else {
        path.strip_prefix(dir)?.strip_prefix('/')?
    };
    (!rest.is_empty() && !rest.contains('/') && rest != ".").then_some(rest)
}

impl Unit {
    /// Whether the skill folder `rel_dir` (root-relative) belongs to this
    /// unit: for a pack, lies in its skills folder; for a plugin, lies in
    /// its folder, but not in a project skills folder there (`.claude/
    /// skills/` of a repository that is also a plugin is the project's).
    pub fn holds(&self, rel_dir: &str) -> bool {
        match self.kind {
            UnitKind::Pack => child_or_below(rel_dir, &self.skills_dir),
            UnitKind::Plugin => {
                let rel = if rel_dir == "." { "" } else { rel_dir };
                if !within(rel, &self.dir) || rel == self.dir {
                    return within(rel, &self.dir);
                }
                // the part below the plugin's folder
                let below = if self.dir.is_empty() {
                    rel
                } else {
                    &rel[self.dir.len() + 1..]
                };
                !super::layout::CLIENT_ROOTS.iter().any(|r| {
                    below
                        .strip_prefix(r)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                })
            }
        }
    }

    /// How Claude Code lists the skill in `rel_dir` (which [`Unit::holds`]).
    pub fn place(&self, rel_dir: &str) -> Placement {
        let rel = if rel_dir == "." { "" } else { rel_dir };
        if self.kind == UnitKind::Pack {
            return match child_of(rel, &self.skills_dir) {
                Some(f) => Placement::Folder(f.to_string()),
                None => Placement::Hidden(format!(
                    "it is more than one level below the pack's skills folder `{}`",
                    self.skills_dir
                )),
            };
        }
        if let Some(why) = &self.loads_nothing {
            return Placement::Hidden(why.clone());
        }
        if self.extra.iter().any(|e| e == rel) {
            return Placement::Named;
        }
        if self.only_listed {
            if let Some(f) = self.extra.iter().find_map(|e| child_of(rel, e)) {
                return Placement::Folder(plugin_safe(f));
            }
            let mut read: Vec<String> = self
                .extra
                .iter()
                .take(4)
                .map(|e| format!("`{e}`"))
                .collect();
            if self.extra.len() > 4 {
                read.push(format!("{} more", self.extra.len() - 4));
            }
            return Placement::Hidden(format!(
                "the marketplace entry `{}` lists only {}; this folder is none of them",
                self.entry.as_deref().unwrap_or(&self.name),
                if read.is_empty() {
                    "no folder".to_string()
                } else {
                    read.join(", ")
                }
            ));
        }
        if rel == self.dir && !self.has_skills_dir {
            return Placement::Named;
        }
        if let Some(f) = child_of(rel, &self.skills_dir) {
            return Placement::Folder(plugin_safe(f));
        }
        for e in &self.extra {
            if let Some(f) = child_of(rel, e) {
                return Placement::Folder(plugin_safe(f));
            }
        }
        let shown = |d: &str| {
            if d.is_empty() {
                ".".to_string()
            } else {
                format!("{d}/")
            }
        };
        let mut read: Vec<String> = vec![if self.has_skills_dir {
            format!("{}*/", shown(&self.skills_dir))
        } else {
            format!(
                "a SKILL.md in {} itself (it has no `skills/` folder)",
                shown(&self.dir)
            )
        }];
        read.extend(self.extra.iter().take(3).map(|e| shown(e)));
        if self.extra.len() > 3 {
            read.push(format!(
                "{} more folders its manifest names",
                self.extra.len() - 3
            ));
        }
        Placement::Hidden(format!(
            "the plugin `{}` ({}) lists only {}; this folder is none of them",
            self.name,
            shown(&self.dir),
            read.join(", ")
        ))
    }

    /// The folder Claude Code reads one level deep to find the skill in
    /// `rel_dir`: where it is installed from. `None` when the plugin
    /// never lists it.
    pub fn folder_of(&self, rel_dir: &str) -> Option<String> {
        let rel = if rel_dir == "." { "" } else { rel_dir };
        match self.place(rel) {
            Placement::Hidden(_) if child_or_below(rel, &self.skills_dir) => {
                Some(self.skills_dir.clone())
            }
            Placement::Hidden(_) => None,
            Placement::Named => Some(
                rel.rsplit_once('/')
                    .map(|(p, _)| p)
                    .unwrap_or("")
                    .to_string(),
            ),
            Placement::Folder(_) => Some(
                rel.rsplit_once('/')
                    .map(|(p, _)| p)
                    .unwrap_or("")
                    .to_string(),
            ),
        }
    }

    /// Whether the folder `rel` (root-relative) is part of the unit but
    /// not of its skills (`skills/b2c-cli/.claude-plugin`: the plugin's
    /// manifest, no skill missing its SKILL.md).
    pub fn beside_skills(&self, rel: &str) -> bool {
        within(rel, &self.dir)
            && !self.dir.is_empty()
            && !within(rel, &self.skills_dir)
            && !self.extra.iter().any(|e| within(rel, e))
    }
}

/// `path` lies below `dir` (not equal).
fn child_or_below(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// The layouts: (parent folder, skills folder inside a unit, kind).
pub const LAYOUTS: &[(&str, &str, UnitKind)] = &[
    ("plugins", "skills", UnitKind::Plugin),
    ("skills", "skills", UnitKind::Plugin),
    ("packs", ".apm/skills", UnitKind::Pack),
];

/// Read a JSON file of at most [`MANIFEST_LIMIT`] bytes, never one a
/// symlink leads to outside the catalog at `base`.
fn read_json(base: &Path, path: &Path, rel: &str) -> Result<serde_json::Value, ManifestProblem> {
    let problem = |message: String| unusable(rel, message);
    let boundary = base.canonicalize().unwrap_or_else(|_| base.to_path_buf());
    if let Some(real) = super::outside_root(&boundary, path) {
        return Err(problem(super::outside_message(&real)));
    }
    let meta = std::fs::metadata(path).map_err(|e| problem(format!("cannot read it: {e}")))?;
    if meta.len() > MANIFEST_LIMIT {
        return Err(problem(format!(
            "it is {} bytes, over the {MANIFEST_LIMIT} skillsift reads",
            meta.len()
        )));
    }
    let text = std::fs::read(path).map_err(|e| problem(format!("cannot read it: {e}")))?;
    serde_json::from_slice(&text).map_err(|e| problem(format!("it is not JSON: {e}")))
}

/// A path a manifest or marketplace names (`./skills/x`), made
/// root-relative below `base_rel`; `None` when it leaves `base_rel`, is
/// absolute or is a URL.
fn inside(base_rel: &str, path: &str) -> Option<String> {
    if path.starts_with('/') || path.contains("://") || path.contains('\\') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => return None,
            p => parts.push(p),
        }
    }
    let tail = parts.join("/");
    Some(if tail.is_empty() {
        base_rel.to_string()
    } else {
        join(base_rel, &tail)
    })
}

/// Whether `path` exists without following a last symlink out: the walk
/// decides what a link may reach; here only its presence counts.
fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// The plugin in `dir` (root-relative), with its manifest read when it
/// has one; `fallback` is the folder's name.
fn plugin(base: &Path, dir: &str, problems: &mut Vec<ManifestProblem>) -> Unit {
    let folder_name = dir
        .rsplit('/')
        .next()
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    let folder_name = folder_name.unwrap_or_else(|| {
        base.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("plugin")
            .to_string()
    });
    let manifest_rel = join(dir, MANIFEST);
    let mut name = folder_name;
    let mut extra = Vec::new();
    let mut manifest = None;
    if base.join(&manifest_rel).is_file() {
        manifest = Some(manifest_rel.clone());
        match read_json(base, &base.join(&manifest_rel), &manifest_rel) {
            Ok(v) => {
                if let Some(n) = v.get("name").and_then(|n| n.as_str())
                    && !n.trim().is_empty()
                {
                    name = n.to_string();
                }
                let paths: Vec<&str> = match v.get("skills") {
                    Some(serde_json::Value::String(s)) => vec![s.as_str()],
                    Some(serde_json::Value::Array(a)) => {
                        a.iter().filter_map(|x| x.as_str()).collect()
                    }
                    _ => Vec::new(),
                };
                extra = folders(base, dir, &paths, &manifest_rel, problems);
            }
            Err(p) => problems.push(p),
        }
    }
    let skills_dir = join(dir, "skills");
    let has_skills_dir = base.join(&skills_dir).is_dir();
    Unit {
        name,
        kind: UnitKind::Plugin,
        dir: dir.to_string(),
        skills_dir,
        extra,
        manifest,
        has_skills_dir,
        entry: None,
        only_listed: false,
        loads_nothing: None,
    }
}

/// The components a marketplace entry may declare itself, beside a
/// plugin.json that declares them too.
const ENTRY_COMPONENTS: &[&str] = &[
    "skills",
    "commands",
    "agents",
    "hooks",
    "mcpServers",
    "lspServers",
    "outputStyles",
];

/// The plugin a marketplace entry installs from the folder `dir`
/// (root-relative), as Claude Code 2.1.197 installs it
/// (`../shared/clients/claude-code.md`, "Marketplace entries that are
/// their own manifest", and docs/clients.md): named by the folder's
/// plugin.json when it has one, else by the entry's `name`; an entry
/// `skills` list replaces the scan of `skills/` and the manifest's own
/// `skills`; a plugin.json beside `"strict": false` and entry components
/// loads nothing, and so does an entry whose `skills` are not paths
/// (Claude Code refuses to install it).
fn entry_unit(
    base: &Path,
    dir: &str,
    entry: &serde_json::Value,
    at: &dyn Fn(&str) -> Option<crate::diag::Span>,
    problems: &mut Vec<ManifestProblem>,
) -> Unit {
    let mut u = plugin(base, dir, problems);
    let name = entry
        .get("name")
        .and_then(|n| n.as_str())
        .filter(|n| !n.trim().is_empty());
    if u.manifest.is_none()
        && let Some(n) = name
    {
        u.name = n.to_string();
    }
    let shown = name.unwrap_or(&u.name).to_string();
    u.entry = Some(shown.clone());
    let mut loads_nothing = |u: &mut Unit, why: String, key: &str| {
        problems.push(ManifestProblem {
            file: MARKETPLACE.into(),
            message: why.clone(),
            loads_nothing: true,
            span: at(key),
        });
        u.loads_nothing = Some(why);
    };
    let declared: Vec<String> = ENTRY_COMPONENTS
        .iter()
        .filter(|k| entry.get(**k).is_some())
        .map(|k| format!("`{k}`"))
        .collect();
    if let Some(m) = &u.manifest
        && entry.get("strict") == Some(&serde_json::Value::Bool(false))
        && !declared.is_empty()
    {
        let why = format!(
            "the marketplace entry `{shown}` sets `\"strict\": false` and declares {} while `{m}` is the plugin's manifest too: Claude Code finds conflicting manifests and loads nothing of the plugin, though `claude plugin install` says it succeeded",
            declared.join(", ")
        );
        loads_nothing(&mut u, why, "strict");
        return u;
    }
    let paths: Vec<&str> = match entry.get("skills") {
        None => return u,
        Some(serde_json::Value::String(s)) => vec![s.as_str()],
        Some(serde_json::Value::Array(a)) if a.iter().all(|x| x.is_string()) => {
            a.iter().filter_map(|x| x.as_str()).collect()
        }
        Some(other) => {
            let kind = match other {
                serde_json::Value::Array(_) => "a list holding objects or other values",
                serde_json::Value::Object(_) => "an object",
                _ => "neither a path nor a list of paths",
            };
            let why = format!(
                "the marketplace entry `{shown}` gives `skills` as {kind}, not as paths: Claude Code 2.1.197 refuses to install it (\"This plugin uses a source type your Claude Code version does not support\"), so none of its skills loads"
            );
            loads_nothing(&mut u, why, "skills");
            return u;
        }
    };
    u.only_listed = true;
    u.extra = folders(base, dir, &paths, MARKETPLACE, problems);
    u
}

/// The folders `paths` (a manifest's or an entry's `skills`) name inside
/// the plugin folder `dir`, root-relative, each once; a path that leaves
/// the plugin or names no folder is a problem of `file`.
fn folders(
    base: &Path,
    dir: &str,
    paths: &[&str],
    file: &str,
    problems: &mut Vec<ManifestProblem>,
) -> Vec<String> {
    let mut extra = Vec::new();
    for p in paths {
        match inside(dir, p) {
            Some(rel) if base.join(&rel).is_dir() || rel.is_empty() => {
                if !extra.contains(&rel) {
                    extra.push(rel);
                }
            }
            Some(rel) => problems.push(unusable(
                file,
                format!(
                    "its `skills` entry `{p}` names `{}`, which is no folder",
                    if rel.is_empty() { "." } else { &rel }
                ),
            )),
            None => problems.push(unusable(
                file,
                format!(
                    "its `skills` entry `{p}` leaves the plugin folder; Claude Code refuses it"
                ),
            )),
        }
    }
    extra
}

fn listed_names(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = rd
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| {
            !n.starts_with('.')
                && !n.starts_with('_')
                && !super::layout::SKIP_DIRS.contains(&n.as_str())
        })
        .collect();
    names.sort();
    names
}

/// The units of the catalog at `base`, sorted by folder. `walked` holds
/// the folders a walk of the catalog listed (root-relative): a
/// `.claude-plugin` folder among them with a `plugin.json` makes its
/// parent a plugin.
pub fn find(base: &Path, walked: &[String]) -> (Vec<Unit>, Vec<ManifestProblem>) {
    let mut problems = Vec::new();
    let mut plugin_dirs: Vec<String> = Vec::new();
    let mut packs = Vec::new();
    // the layouts
    for &(parent, inner, kind) in LAYOUTS {
        for name in listed_names(&base.join(parent)) {
            let rel = format!("{parent}/{name}");
            let dir = base.join(&rel);
            if !dir.is_dir() {
                continue;
            }
            let manifest = exists(&dir.join(MANIFEST));
            if kind == UnitKind::Plugin && manifest {
                plugin_dirs.push(rel);
                continue;
            }
            if exists(&dir.join("SKILL.md")) {
                continue;
            }
            let skills = dir.join(inner);
            if skills.is_dir() && !exists(&skills.join("SKILL.md")) {
                match kind {
                    UnitKind::Plugin => plugin_dirs.push(rel),
                    UnitKind::Pack => packs.push(Unit {
                        name,
                        kind,
                        dir: rel.clone(),
                        skills_dir: format!("{rel}/{inner}"),
                        extra: Vec::new(),
                        manifest: None,
                        has_skills_dir: true,
                        entry: None,
                        only_listed: false,
                        loads_nothing: None,
                    }),
                }
            } else if kind == UnitKind::Plugin && parent == "plugins" {
                // `plugins/<group>/<plugin>/` with its manifest
                for inner_name in listed_names(&dir) {
                    let rel2 = format!("{rel}/{inner_name}");
                    if exists(&base.join(&rel2).join(MANIFEST)) {
                        plugin_dirs.push(rel2);
                    }
                }
            }
        }
    }
    // the root, and what a marketplace file names
    if exists(&base.join(MANIFEST)) {
        plugin_dirs.push(String::new());
    }
    // each entry of a marketplace file is installed on its own
    let mut entries: Vec<Unit> = Vec::new();
    if base.join(MARKETPLACE).is_file() {
        match read_json(base, &base.join(MARKETPLACE), MARKETPLACE) {
            Ok(v) => {
                // the file once more, for where each entry's keys are
                let text = std::fs::read_to_string(base.join(MARKETPLACE)).unwrap_or_default();
                let tree = crate::json::parse(&text).ok();
                let lines = crate::diag::LineIndex::new(&text);
                let entries_at = tree
                    .as_ref()
                    .and_then(|t| t.root.get("plugins"))
                    .and_then(|p| p.as_array());
                for (i, entry) in v
                    .get("plugins")
                    .and_then(|p| p.as_array())
                    .map(|a| a.as_slice())
                    .unwrap_or(&[])
                    .iter()
                    .enumerate()
                {
                    // a remote source (`{"source": "github", …}`) is not
                    // in the catalog
                    let Some(src) = entry.get("source").and_then(|s| s.as_str()) else {
                        continue;
                    };
                    let at = |key: &str| {
                        let v = entries_at?.get(i)?;
                        let v = v.get(key).unwrap_or(v);
                        Some(lines.span(&text, v.start, v.end))
                    };
                    match inside("", src) {
                        Some(rel) if rel.is_empty() || base.join(&rel).is_dir() => {
                            entries.push(entry_unit(base, &rel, entry, &at, &mut problems));
                        }
                        Some(rel) => problems.push(unusable(
                            MARKETPLACE,
                            format!("its plugin source `{src}` names `{rel}`, which is no folder"),
                        )),
                        None if src.contains("://") => {}
                        None => problems.push(unusable(
                            MARKETPLACE,
                            format!(
                                "its plugin source `{src}` leaves the catalog; skillsift does not follow it"
                            ),
                        )),
                    }
                }
            }
            Err(p) => problems.push(p),
        }
    }
    // manifests wherever the walk saw them
    for d in walked {
        let parent = if d == ".claude-plugin" {
            Some("")
        } else {
            d.strip_suffix("/.claude-plugin")
        };
        if let Some(p) = parent
            && base.join(d).join("plugin.json").is_file()
        {
            plugin_dirs.push(p.to_string());
        }
    }
    plugin_dirs.sort();
    plugin_dirs.dedup();
    // a folder a marketplace entry names is installed as that entry
    plugin_dirs.retain(|d| !entries.iter().any(|e| &e.dir == d));
    let mut out: Vec<Unit> = plugin_dirs
        .iter()
        .map(|d| plugin(base, d, &mut problems))
        .collect();
    out.extend(entries);
    out.extend(packs);
    out.sort_by(|a, b| a.dir.cmp(&b.dir));
    problems.sort_by(|a, b| (&a.file, &a.message).cmp(&(&b.file, &b.message)));
    problems.dedup();
    (out, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(root: &Path, rel: &str) {
        std::fs::create_dir_all(root.join(rel)).unwrap();
        std::fs::write(root.join(rel).join("SKILL.md"), "---\nname: x\n---\n").unwrap();
    }

    fn write(root: &Path, rel: &str, text: &str) {
        std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
        std::fs::write(root.join(rel), text).unwrap();
    }

    #[test]
    fn the_three_layouts_are_units() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        skill(root, "plugins/tools/skills/a");
        skill(root, "skills/shop/skills/b");
        skill(root, "packs/core/.apm/skills/c");
        skill(root, "packs/_example/.apm/skills/d");
        skill(root, "skills/plain");
        skill(root, "skills/both/skills/e");
        skill(root, "skills/both");
        let (units, problems) = find(root, &[]);
        assert!(problems.is_empty());
        let got: Vec<(&str, UnitKind, &str)> = units
            .iter()
            .map(|u| (u.name.as_str(), u.kind, u.skills_dir.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("core", UnitKind::Pack, "packs/core/.apm/skills"),
                ("tools", UnitKind::Plugin, "plugins/tools/skills"),
                ("shop", UnitKind::Plugin, "skills/shop/skills"),
            ]
        );
        let shop = &units[2];
        assert!(shop.holds("skills/shop/skills/b"));
        assert!(!shop.holds("skills/shopping/b"));
        assert_eq!(
            shop.place("skills/shop/skills/b"),
            Placement::Folder("b".into())
        );
        assert!(matches!(
            shop.place("skills/shop/skills/b/c"),
            Placement::Hidden(_)
        ));
        assert!(shop.beside_skills("skills/shop/.claude-plugin"));
        assert!(!shop.beside_skills("skills/shop/skills/b/x"));
        assert!(!shop.beside_skills("skills/shopping"));
    }

    #[test]
    fn manifests_name_plugins_and_add_folders() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        write(
            root,
            ".claude-plugin/marketplace.json",
            r#"{"plugins":[{"name":"ignored","source":"./plugins/lang/elixir"},{"name":"r","source":{"source":"github","repo":"a/b"}},{"name":"bad","source":"../out"}]}"#,
        );
        write(
            root,
            "plugins/lang/elixir/.claude-plugin/plugin.json",
            r#"{"name":"elixir"}"#,
        );
        skill(root, "plugins/lang/elixir/skills/otp");
        write(
            root,
            "one/.claude-plugin/plugin.json",
            r#"{"name":"named.other","skills":["./extra/solo","./more","../escape"]}"#,
        );
        skill(root, "one/extra/solo");
        skill(root, "one/more/m1");
        skill(root, "one/stray/s");
        let walked = vec!["one/.claude-plugin".to_string()];
        let (units, problems) = find(root, &walked);
        let names: Vec<(&str, &str)> = units
            .iter()
            .map(|u| (u.name.as_str(), u.dir.as_str()))
            .collect();
        assert_eq!(
            names,
            [("named.other", "one"), ("elixir", "plugins/lang/elixir")]
        );
        let one = &units[0];
        assert_eq!(one.extra, ["one/extra/solo", "one/more"]);
        assert_eq!(one.place("one/extra/solo"), Placement::Named);
        assert_eq!(one.place("one/more/m1"), Placement::Folder("m1".into()));
        assert!(matches!(one.place("one/stray/s"), Placement::Hidden(_)));
        assert_eq!(
            units[1].place("plugins/lang/elixir/skills/otp"),
            Placement::Folder("otp".into())
        );
        let msgs: Vec<String> = problems
            .iter()
            .map(|p| format!("{}: {}", p.file, p.message))
            .collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(msgs[0].contains("`../out` leaves the catalog"), "{msgs:?}");
        assert!(
            msgs[1].contains("`../escape` leaves the plugin folder"),
            "{msgs:?}"
        );
    }

    #[test]
    fn a_root_plugin_keeps_project_skills_folders_out() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        write(
            root,
            ".claude-plugin/plugin.json",
            r#"{"name":"cargo","skills":["./"]}"#,
        );
        skill(root, "leads");
        skill(root, ".claude/skills/dev");
        let (units, _) = find(root, &[]);
        assert_eq!(units.len(), 1);
        let u = &units[0];
        assert!(u.holds("leads"));
        assert!(!u.holds(".claude/skills/dev"));
        assert_eq!(u.place("leads"), Placement::Folder("leads".into()));
        assert_eq!(plugin_safe("a.b c"), "a-b-c");
    }
}
