//! Discovery and loading: every file is read once, in parallel, into one
//! [`Catalog`] that all tiers read.

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
pub(crate) use crate as catalog;
use base::rule;
use base::{diag, exit};
#[allow(clippy::single_component_path_imports)]
use {base, config};

pub mod cases;
pub mod commands;
pub mod discover;
pub mod empty;
pub mod frontmatter;
pub mod layout;
pub mod overlay;
pub mod rules;
pub mod skill;
pub mod units;
pub use syntax::{grams, json, secrets, source, yaml};

pub use skill::{Frontmatter, Skill, Spanned};
pub use source::{Source, SourceMap};

use crate::config::Config;
use crate::diag::Diagnostic;
use crate::exit::Fatal;
use rayon::prelude::*;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest file read again to look for a repeated secret (larger ones
/// were not read as text the first time either).
const MAX_REREAD: u64 = 64 << 20;

/// What the command line pointed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A catalog folder.
    Catalog,
    /// One skill folder.
    SkillDir,
    /// One SKILL.md.
    SkillFile,
}

/// How much of the catalog to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Everything every tier needs: skills, their folders' files, case
    /// files and slash commands.
    Full,
    /// Only the SKILL.md files (what `skillsift rank` needs).
    SkillsOnly,
}

/// The loaded catalog.
#[derive(Debug)]
pub struct Catalog {
    /// The catalog root on disk (for a single skill: its folder).
    pub root: PathBuf,
    /// The root as given on the command line (joined with file paths in
    /// GitHub annotations).
    pub display_root: String,
    pub target: Target,
    /// Skills sorted by file path.
    pub skills: Vec<Skill>,
    /// `evals/cases/*.json`, sorted by path.
    pub cases: Vec<cases::CaseFile>,
    /// Case sources in the skills' own folders (`evals/evals.json`, trigger
    /// sets, waza files, and files there that hold no cases), by path.
    pub case_sources: Vec<cases::CaseSource>,
    /// Every skill's cases from all of those, merged (see [`cases::Suite`]).
    pub suites: Vec<cases::Suite>,
    /// Index into `suites` of each skill's suite, by skill index.
    pub suite_by_skill: Vec<Option<usize>>,
    /// Slash-command files of the three command folders.
    pub commands: commands::Commands,
    /// The Markdown commands of `.claude/commands/` (nested ones too) as
    /// Claude Code lists them beside the skills, each a [`Skill`] whose
    /// `folder` is the command's name (see [`commands::load_listed`]); a
    /// catalog folder only, read in every scope.
    pub claude_commands: Vec<Skill>,
    /// Folders under the skills root that hold files but no skill.
    pub orphan_dirs: Vec<String>,
    /// Every file read, for reporters.
    pub sources: SourceMap,
    /// Findings made while loading.
    pub diagnostics: Vec<Diagnostic>,
    /// What the walk for SKILL.md files saw (a catalog folder only).
    pub walk: Walk,
    /// The skills roots read, in walk order (a catalog folder only).
    pub roots: Vec<RootRead>,
    /// The plugins and packs users install one at a time ([`units`]; a
    /// catalog folder only), by skills folder.
    pub units: Vec<units::Unit>,
    /// A library users copy skills out of one by one: every skill lies
    /// deeper below its skills root than a client reads
    /// (`skills/<domain>/<skill>/`), none in a client's skills folder, and
    /// there is no plugin, pack or marketplace. Its skills are listed and
    /// routed as if each were copied on its own into the client's skills
    /// folder ([`is_library`]).
    pub library: bool,
}

/// Whether the skills at `dirs` (root-relative skill folders) under the
/// skills roots `roots` make a library ([`Catalog::library`]): none of
/// them one folder below its deepest root or in a client's skills folder
/// ([`discover::CLIENT_ROOTS`]), at least one of them.
pub fn is_library<'a>(
    dirs: impl IntoIterator<Item = &'a str>,
    roots: &[&str],
    units: &[units::Unit],
) -> bool {
    if !units.is_empty() {
        return false;
    }
    let mut any = false;
    for d in dirs {
        let root = roots
            .iter()
            .filter(|r| {
                r.is_empty()
                    || d.strip_prefix(**r)
                        .is_some_and(|rest| rest.starts_with('/'))
            })
            .max_by_key(|r| r.len());
        let Some(root) = root else { return false };
        if discover::CLIENT_ROOTS.contains(root) {
            return false;
        }
        let below = if root.is_empty() {
            d
        } else {
            &d[root.len() + 1..]
        };
        if below.is_empty() || below == "." || !below.contains('/') {
            return false;
        }
        any = true;
    }
    any
}

/// One skills root as the summary reports it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RootRead {
    /// Relative to the catalog root, `.` for the root itself.
    pub path: String,
    /// SKILL.md files found under it.
    pub skills: usize,
    /// Why it was not walked: it is the same folder as an earlier root, or
    /// a link leading outside the catalog.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// The folders a catalog walk listed, for `route::cache`: when
/// none of them changed, the same walk finds the same SKILL.md files.
#[derive(Debug, Default)]
pub struct Walk {
    /// Every folder listed, relative to the catalog root (`""` is the
    /// root), sorted. The root is always there: it decides where the
    /// skills root is.
    pub dirs: Vec<String>,
    /// The plugin manifests and the marketplace file the walk's plugins
    /// were read from, relative to the catalog root, sorted: their
    /// contents name plugins and their skills, so their own time stamps
    /// must hold too.
    pub files: Vec<String>,
    /// The walk saw no symlinked folder, SKILL.md or manifest and read
    /// every folder and entry, so the time stamps of `dirs` and `files` tell whether it
    /// would find something else now.
    pub exact: bool,
}

/// The skill folder (one of `dirs`, root-relative) that holds the skill
/// folder `rel_dir` below it, when there is one: the nearest. A plugin's
/// folder holding a SKILL.md besides its skills is not such a folder.
pub fn outer_skill<'a>(
    rel_dir: &str,
    dirs: &std::collections::HashSet<&'a str>,
    units: &[units::Unit],
) -> Option<&'a str> {
    if rel_dir == "." {
        return None;
    }
    let mut at = rel_dir;
    loop {
        let parent = at.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
        let key = if parent.is_empty() { "." } else { parent };
        if let Some(d) = dirs.get(key)
            && !units.iter().any(|u| u.dir == parent)
        {
            return Some(d);
        }
        if parent.is_empty() {
            return None;
        }
        at = parent;
    }
}

/// The unit (index into `units`) that installs the skill folder `rel_dir`:
/// the innermost (a plugin inside a plugin's folder is its own); of
/// several installed from one folder (marketplace entries sharing a
/// `source`), the first that lists it, else the first.
fn unit_holding(units: &[units::Unit], rel_dir: &str) -> Option<usize> {
    (0..units.len())
        .filter(|&u| units[u].holds(rel_dir))
        .max_by_key(|&u| {
            let listed = !matches!(units[u].place(rel_dir), units::Placement::Hidden(_));
            (units[u].dir.len(), listed, std::cmp::Reverse(u))
        })
}

/// Whether the folder `dir`, which holds a SKILL.md, holds other skills
/// too, and so is a catalog, not one skill (heygen-com/heygen-stack: a
/// root SKILL.md beside `heygen-avatar/SKILL.md` and its siblings): a
/// SKILL.md that starts a frontmatter (`---`) below it, at most
/// [`OTHER_SKILLS_DEPTH`] folders down, outside the folders no walk enters
/// ([`discover::SKIP_DIRS`]) and never through a symlinked folder. A
/// SKILL.md without frontmatter is a document of the skill (SG023), not
/// another skill. At most [`OTHER_SKILLS_FOLDERS`] folders are listed.
pub fn holds_other_skills(dir: &Path) -> bool {
    let mut frontier = vec![(dir.to_path_buf(), 0usize)];
    let mut listed = 0usize;
    while let Some((d, depth)) = frontier.pop() {
        listed += 1;
        if listed > OTHER_SKILLS_FOLDERS {
            return false;
        }
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let Ok(ft) = e.file_type() else { continue };
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if ft.is_dir() && depth < OTHER_SKILLS_DEPTH && !discover::SKIP_DIRS.contains(&name) {
                frontier.push((e.path(), depth + 1));
            } else if ft.is_file() && name == "SKILL.md" && depth > 0 {
                let mut head = [0u8; 3];
                let starts = std::fs::File::open(e.path())
                    .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
                    .is_ok_and(|_| &head == b"---");
                if starts {
                    return true;
                }
            }
        }
    }
    false
}

/// How deep [`holds_other_skills`] looks.
pub const OTHER_SKILLS_DEPTH: usize = 6;

/// How many folders [`holds_other_skills`] lists at most.
pub const OTHER_SKILLS_FOLDERS: usize = 5_000;

/// The catalogs a skill folder may belong to, for `check <skill
/// folder>`, most likely first: the nearest folder above `skill_dir` with
/// a `skillsift.toml`, or with a `.git` when the skill lies in a skills
/// folder below it (a `skills` or `skill` folder on the way: `skills/x`,
/// `.claude/skills/x`, `plugins/p/skills/x`); then, below that folder,
/// each folder with a `skills/` folder that holds the skill so, the
/// outermost first (a marketplace before one of its plugins). Never the
/// home folder or above it, at most 32 levels up. Absolute, with symlinks
/// resolved. The caller takes the first whose walk finds the skill.
pub fn enclosing_catalogs(skill_dir: &Path) -> Vec<PathBuf> {
    let Ok(dir) = skill_dir.canonicalize() else {
        return Vec::new();
    };
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .and_then(|h| h.canonicalize().ok());
    let mut on_the_way = false;
    let mut layouts = Vec::new();
    let mut boundary = None;
    let mut below = dir.file_name().map(|n| n.to_os_string());
    for (n, a) in dir.ancestors().skip(1).enumerate() {
        if n >= 32 || home.as_deref().is_some_and(|h| h.starts_with(a)) {
            break;
        }
        if n > 0 {
            on_the_way |= below
                .as_deref()
                .is_some_and(|b| b == "skills" || b == "skill");
        }
        let git = a.join(".git").exists();
        if a.join("skillsift.toml").is_file() || git {
            if a.join("skillsift.toml").is_file() || on_the_way {
                boundary = Some(a.to_path_buf());
            }
            break;
        }
        if on_the_way && a.join("skills").is_dir() {
            layouts.push(a.to_path_buf());
        }
        below = a.file_name().map(|n| n.to_os_string());
    }
    layouts.reverse();
    boundary.into_iter().chain(layouts).take(3).collect()
}

/// Where `skillsift.toml` for `root` lives (the catalog root, or for a single
/// skill, none).
pub fn config_path(root: &Path) -> Option<PathBuf> {
    let p = root.join("skillsift.toml");
    (root.is_dir() && p.is_file()).then_some(p)
}

/// Where `path` really leads when that is outside `root` (a canonical
/// path); `None` when it stays inside or cannot be resolved (reading it
/// then reports why).
///
/// Files and folders are found through symlinks, and a link that leaves
/// the catalog would put a file from elsewhere into a report
/// (`SKILL.md -> /proc/self/environ` shows the environment, secrets
/// included, in a diagnostic's snippet) or walk the whole disk (`x -> /`).
/// Such links are reported (SG002, SG400) and never followed.
pub fn outside_root(root: &Path, path: &Path) -> Option<PathBuf> {
    let real = path.canonicalize().ok()?;
    (!real.starts_with(root)).then_some(real)
}

/// The diagnostic message for a link [`outside_root`].
pub fn outside_message(real: &Path) -> String {
    format!(
        "symlink leads outside the catalog (to {}); it was not followed",
        real.display()
    )
}

/// The help for a link [`outside_root`].
pub const OUTSIDE_HELP: &str = "replace the link with the file or folder itself: skillsift reads only what is inside the catalog";

/// Read at most `limit` bytes of `path`; `Ok(None)` when it is larger.
///
/// Only regular files are read (symlinks are followed): a FIFO, socket or
/// device is an error. Opening a FIFO for reading would wait forever for a
/// writer, and a device such as `/dev/zero` never ends.
pub fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    read_file(path, limit, true)
}

/// [`read_bounded`], and with `follow` false a symlink is an error too
/// (`O_NOFOLLOW`). Three system calls and a `close` for a regular file of
/// the size its `fstat` says.
pub fn read_file(path: &Path, limit: u64, follow: bool) -> std::io::Result<Option<Vec<u8>>> {
    read_sniffing(path, limit, follow, false)
}

/// Bytes read first of a file [`read_text`] sniffs.
const SNIFF: usize = 8192;

/// Extensions of files that are seldom text: [`read_text`] reads their
/// first [`SNIFF`] bytes before the rest.
const MOSTLY_BINARY: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "ico", "bmp", "tif", "tiff", "ttf", "otf", "woff",
    "woff2", "eot", "pdf", "zip", "gz", "tgz", "bz2", "xz", "7z", "jar", "whl", "so", "dylib",
    "dll", "exe", "bin", "pyc", "class", "wasm", "mp3", "mp4", "wav", "ogg", "mov", "xlsx", "docx",
    "pptx", "sqlite", "db",
];

/// A text file as [`read_file`] reads it, or `None` when it is larger than
/// `limit` or holds a NUL byte in its first [`SNIFF`] bytes (it is no
/// text: the caller refuses a NUL anywhere). A file whose extension is
/// seldom text's (an image, a font, an archive) is sniffed before the
/// rest is read; others are read at once (one read, not two).
pub fn read_text(path: &Path, limit: u64, follow: bool) -> std::io::Result<Option<Vec<u8>>> {
    let sniff = (path.extension().and_then(|e| e.to_str()))
        .is_some_and(|e| MOSTLY_BINARY.iter().any(|b| e.eq_ignore_ascii_case(b)));
    read_sniffing(path, limit, follow, sniff)
}

fn read_sniffing(
    path: &Path,
    limit: u64,
    follow: bool,
    sniff: bool,
) -> std::io::Result<Option<Vec<u8>>> {
    if let Some(text) = overlay::get(path) {
        // an editor's unsaved buffer (`skillsift lsp`), bounded the same
        return Ok((text.len() as u64 <= limit).then(|| text.as_bytes().to_vec()));
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // returns at once for a FIFO; no effect on a regular file
        opts.custom_flags(libc::O_NONBLOCK | if follow { 0 } else { libc::O_NOFOLLOW });
    }
    let mut f = opts.open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, socket or device)",
        ));
    }
    if meta.len() > limit {
        return Ok(None);
    }
    // Size the buffer from the file's length (plus one byte to see the end,
    // or that it grew past the limit): one allocation, no doubling, no
    // spare capacity kept for the life of the catalog.
    let hint = meta.len() as usize;
    if sniff && hint > SNIFF {
        let mut head = vec![0; SNIFF];
        let n = f.read(&mut head)?;
        if memchr::memchr(0, &head[..n]).is_some() {
            return Ok(None);
        }
        head.truncate(n);
        head.reserve_exact(hint + 1 - n);
        f.take(limit + 1 - n as u64).read_to_end(&mut head)?;
        return Ok((head.len() as u64 <= limit).then_some(head));
    }
    let mut buf = vec![0; hint + 1];
    // a regular file of the size it says: one read returns all of it, and
    // fewer bytes than asked for means its end (else read on to the end)
    let n = f.read(&mut buf)?;
    buf.truncate(n);
    if n as u64 != meta.len() || n > hint {
        f.take(limit + 1 - n as u64).read_to_end(&mut buf)?;
    }
    if buf.len() as u64 > limit {
        return Ok(None);
    }
    Ok(Some(buf))
}

/// What a first load leaves a second: the walk's findings (what it
/// found, the roots read, the folders probed), and the skills to keep by
/// SKILL.md path (the skill, its load findings, what the per-skill step
/// made of it).
struct Prior<T> {
    walked: Option<Walked>,
    skills: std::collections::HashMap<String, (Skill, Vec<Diagnostic>, T)>,
    /// The first read's trigger tests and commands, when none of their
    /// files holds a value learnt late.
    cases: Option<Cases>,
}

/// What a catalog's read made of its case files and commands, taken into
/// its second read ([`Catalog::load_with`]) when the skills they are
/// matched to read the same.
struct Cases {
    /// Each skill's SKILL.md and frontmatter name, in catalog order: the
    /// case files name skills by these (their folders and files come
    /// from the walk, which the second read shares).
    keys: Vec<(String, Option<String>)>,
    loaded: cases::Loaded,
    commands: commands::Commands,
    command_findings: Vec<Diagnostic>,
}

/// The findings made reading a catalog's case files and its commands
/// (copies of those in [`Catalog::diagnostics`]).
type CaseFindings = (Vec<Diagnostic>, Vec<Diagnostic>);

fn case_keys(skills: &[Skill]) -> Vec<(String, Option<String>)> {
    (skills.iter())
        .map(|s| (s.file.clone(), s.name().map(str::to_string)))
        .collect()
}

/// What the walk of a catalog found: see [`Prior`].
type Walked = (discover::Found, Vec<RootRead>, Vec<String>);

impl<T> Prior<T> {
    fn new() -> Self {
        Prior {
            walked: None,
            skills: std::collections::HashMap::new(),
            cases: None,
        }
    }
}

/// Largest file of a skill folder read as text besides SKILL.md (by the
/// rules that read a skill's files, and here when a secret is repeated).
pub const MAX_TEXT_FILE: u64 = 1024 * 1024;
/// Most files of one skill folder read as text besides SKILL.md.
pub const MAX_TEXT_FILES: usize = 200;

/// Whether a file read holds, as read, a secret's value where the text
/// kept shows it.
fn reread_repeats(root: &Path, rel: &str, src: &Source) -> bool {
    let Ok(Some(bytes)) = read_bounded(&root.join(rel), MAX_REREAD) else {
        return false;
    };
    secrets::unmasked_repeat(&String::from_utf8_lossy(&bytes), &src.text)
}

/// Whether a value known only now may stand in a skill's SKILL.md or its
/// other text files, as their filters ([`grams`]) tell without reading
/// them again: `false` means it stands in none.
fn may_repeat_a_secret(skill: &Skill) -> bool {
    let md = skill.source.is_some() && secrets::may_stand_in(skill.grams.as_deref());
    let others =
        !skill.files.is_empty() && secrets::may_stand_in(skill.other_grams.get().map(|g| &**g));
    md || others
}

/// Whether a skill's SKILL.md, or one of the text files the rules read
/// beside it (the first [`MAX_TEXT_FILES`], each at most [`MAX_TEXT_FILE`]
/// bytes of UTF-8 without NUL), holds a value known only now: what was
/// made of it must be made again.
fn repeats_a_secret(root: &Path, skill: &Skill) -> bool {
    if skill
        .source
        .as_ref()
        .is_some_and(|src| reread_repeats(root, &skill.file, src))
    {
        return true;
    }
    skill.files.iter().take(MAX_TEXT_FILES).any(|rel| {
        skill::read_text_file(&skill.dir.join(rel)).is_some_and(|text| secrets::holds_known(&text))
    })
}

impl Catalog {
    /// Discover and load everything under `root` (a catalog folder, a skill
    /// folder or a SKILL.md).
    pub fn load(root: &Path, config: &Config) -> Result<Catalog, Fatal> {
        Catalog::load_scoped(root, config, Scope::Full)
    }

    /// [`Catalog::load`], reading only what `scope` asks for.
    pub fn load_scoped(root: &Path, config: &Config, scope: Scope) -> Result<Catalog, Fatal> {
        Self::load_with(root, config, scope, |_, _| ((), None)).map(|(c, _)| c)
    }

    /// [`Catalog::load_scoped`], running `per_skill` on each skill in the
    /// parallel task that has just read it, with the findings made while
    /// loading it. Its results come back in skill order.
    ///
    /// When `per_skill` returns `Some(keep)`, only the text up to the line
    /// holding byte `keep`, one more line (context for reports) and at
    /// least the whole frontmatter stays in memory; [`Skill::cut`] says how
    /// many bytes went. `skillsift check` lints this way so that 15,000
    /// skills do not hold every body in memory at once.
    ///
    /// A secret found in one file is masked wherever else its value stands
    /// ([`secrets`]); files are read in parallel, so when a file read
    /// before the value was known holds it, the catalog is read once more
    /// (rare: only a catalog that repeats a secret pays for it), and what
    /// is masked never depends on the order files were read in.
    pub fn load_with<T: Send>(
        root: &Path,
        config: &Config,
        scope: Scope,
        per_skill: impl Fn(&Skill, &[Diagnostic]) -> (T, Option<usize>) + Sync,
    ) -> Result<(Catalog, Vec<T>), Fatal> {
        let mut none = Prior::new();
        let (mut catalog, results, load, walked, case_findings) =
            Self::load_once(root, config, scope, &per_skill, &mut none)?;
        if !secrets::freeze() {
            catalog.drop_filters();
            return Ok((catalog, results));
        }
        // a value known only after a file was read may stand unmasked in
        // it: read again what holds one. A skill none of whose files does
        // keeps what its first read found, so a catalog with one repeated
        // secret is not checked twice over.
        let stale: Vec<bool> = catalog
            .skills
            .par_iter()
            .map(|s| may_repeat_a_secret(s) && repeats_a_secret(&catalog.root, s))
            .collect();
        let skill_files: std::collections::HashSet<&str> =
            catalog.skills.iter().map(|s| s.file.as_str()).collect();
        let others = catalog.sources.par_iter().any(|(rel, src)| {
            !skill_files.contains(rel.as_str()) && reread_repeats(&catalog.root, rel, src)
        });
        if !others && !stale.contains(&true) {
            catalog.drop_filters();
            return Ok((catalog, results));
        }
        let mut prior = Prior::new();
        prior.walked = Some(walked);
        // no case file or command holds a value learnt late: what was made
        // of them stands, as long as the skills they name read the same
        if !others {
            prior.cases = Some(Cases {
                keys: case_keys(&catalog.skills),
                loaded: cases::Loaded {
                    case_files: std::mem::take(&mut catalog.cases),
                    sources: std::mem::take(&mut catalog.case_sources),
                    suites: std::mem::take(&mut catalog.suites),
                    diagnostics: case_findings.0,
                    fatal: None,
                },
                commands: std::mem::take(&mut catalog.commands),
                command_findings: case_findings.1,
            });
        }
        for (((skill, result), load), stale) in
            catalog.skills.into_iter().zip(results).zip(load).zip(stale)
        {
            if !stale {
                prior
                    .skills
                    .insert(skill.file.clone(), (skill, load, result));
            }
        }
        let (mut catalog, results, _, _, _) =
            Self::load_once(root, config, scope, &per_skill, &mut prior)?;
        catalog.drop_filters();
        Ok((catalog, results))
    }

    /// Drop every skill's [`grams`] filters: they only tell the second
    /// read of [`Catalog::load_with`] what it need not read again, and
    /// hold up to [`grams`]' budget (64 MiB) until then.
    fn drop_filters(&mut self) {
        for skill in &mut self.skills {
            skill.grams = None;
            skill.other_grams = std::sync::OnceLock::new();
        }
    }

    /// Load the catalog, running `per_skill` on each skill as it is read,
    /// except the skills `prior` holds (by SKILL.md path), taken as they
    /// are, and the case files and commands it holds when the skills read
    /// the same. Also returns each skill's load findings and the case
    /// files' and commands' findings.
    #[allow(clippy::type_complexity)]
    fn load_once<T: Send>(
        root: &Path,
        config: &Config,
        scope: Scope,
        per_skill: impl Fn(&Skill, &[Diagnostic]) -> (T, Option<usize>) + Sync,
        prior: &mut Prior<T>,
    ) -> Result<(Catalog, Vec<T>, Vec<Vec<Diagnostic>>, Walked, CaseFindings), Fatal> {
        let display_root = root.display().to_string();
        let meta = std::fs::metadata(root).map_err(|e| {
            Fatal::usage(format!("{display_root}: {e}"))
                .with_help("pass a catalog folder, a skill folder or a SKILL.md")
        })?;
        let (base, target) = if meta.is_file() {
            if root.file_name().is_none_or(|n| n != "SKILL.md") {
                return Err(Fatal::usage(format!(
                    "{display_root}: not a SKILL.md, a skill folder or a catalog folder"
                )));
            }
            let parent = root
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            (parent.to_path_buf(), Target::SkillFile)
        } else if root.join("SKILL.md").is_file() && !holds_other_skills(root) {
            (root.to_path_buf(), Target::SkillDir)
        } else {
            (root.to_path_buf(), Target::Catalog)
        };
        let filter = discover::Filter::new(&config.catalog.include, &config.catalog.exclude)
            .map_err(|e| Fatal::usage(format!("skillsift.toml: [catalog] {e}")))?;
        // nothing outside this folder is read, whatever symlinks say
        let boundary = base.canonicalize().unwrap_or_else(|_| base.clone());

        // what the walk found: the first read's, when this is the second
        // (the folders did not change in between)
        let (mut found, roots_read, probed) = match prior.walked.take() {
            Some(walked) => walked,
            None => {
                let mut found = discover::Found::default();
                let mut roots_read = Vec::new();
                let mut probed: Vec<String> = Vec::new();
                match target {
                    Target::SkillFile | Target::SkillDir => {
                        let path = base.join("SKILL.md");
                        match outside_root(&boundary, &path) {
                            Some(real) => found.diagnostics.push(
                                rules::load::UNREADABLE
                                    .diag("SKILL.md", outside_message(&real))
                                    .with_help(OUTSIDE_HELP),
                            ),
                            None => found.skill_files.push(discover::SkillFile {
                                path,
                                rel: "SKILL.md".into(),
                                canonical: None,
                                link: false,
                            }),
                        }
                    }
                    Target::Catalog => {
                        let explicit = !config.catalog.roots.is_empty();
                        let defaults = if explicit {
                            discover::DefaultRoots {
                                roots: config.catalog.roots.clone(),
                                ..discover::DefaultRoots::default()
                            }
                        } else {
                            discover::default_roots(&base, &boundary, &units::find(&base, &[]).0)
                        };
                        found.links |= defaults.links;
                        probed = defaults.probed;
                        let mut seen = std::collections::HashMap::new();
                        for r in &defaults.roots {
                            let dir = if r.is_empty() {
                                base.clone()
                            } else {
                                base.join(r)
                            };
                            if !dir.is_dir() {
                                return Err(Fatal::usage(format!(
                                    "{}: skills root `{r}` from skillsift.toml does not exist",
                                    dir.display()
                                )));
                            }
                            found.links |= std::fs::symlink_metadata(&dir)
                                .is_ok_and(|m| m.file_type().is_symlink());
                            let walked = discover::walk(
                                &dir,
                                r,
                                &filter,
                                !r.is_empty(),
                                &boundary,
                                &mut seen,
                                &mut found,
                            );
                            roots_read.push(RootRead {
                                path: if r.is_empty() { ".".into() } else { r.clone() },
                                skills: 0,
                                skipped: match walked {
                                    discover::Walked::Same(first) if first.is_empty() => {
                                        Some("the same folder as the catalog root".to_string())
                                    }
                                    discover::Walked::Same(first) => {
                                        Some(format!("the same folder as {first}/"))
                                    }
                                    _ => None,
                                },
                            });
                        }
                        for (rel, real) in defaults.outside {
                            roots_read.push(RootRead {
                                path: rel,
                                skills: 0,
                                skipped: Some(format!(
                                    "a symlink leading outside the catalog (to {})",
                                    real.display()
                                )),
                            });
                        }
                        discover::settle(&mut found);
                        // skill templates (SG213): said once, not read as skills,
                        // unless the configuration names them
                        if !explicit {
                            let named = |rel: &str| {
                                !config.catalog.include.is_empty() && filter.accepts_file(rel)
                            };
                            found.skill_files.retain(|f| {
                                let template = crate::rules::template::is_template_path(&f.rel)
                                    && !named(&f.rel);
                                if template {
                                    found
                                        .diagnostics
                                        .push(crate::rules::template::finding(&f.rel));
                                }
                                !template
                            });
                        }
                        for f in &found.skill_files {
                            // the deepest root holding the file
                            if let Some(r) = roots_read
                                .iter_mut()
                                .filter(|r| {
                                    r.skipped.is_none()
                                        && (r.path == "."
                                            || f.rel
                                                .strip_prefix(r.path.as_str())
                                                .is_some_and(|rest| rest.starts_with('/')))
                                })
                                .max_by_key(|r| r.path.len())
                            {
                                r.skills += 1;
                            }
                        }
                    }
                }
                (found, roots_read, probed)
            }
        };
        let walked = (found.clone(), roots_read.clone(), probed.clone());
        // the plugins and packs, now that the walk saw every manifest
        let (found_units, manifest_problems) = if target == Target::Catalog {
            units::find(&base, &found.dirs)
        } else {
            (Vec::new(), Vec::new())
        };
        let mut manifests: Vec<String> = (found_units.iter())
            .filter_map(|u| u.manifest.clone())
            .collect();
        if base.join(units::MARKETPLACE).is_file() {
            manifests.push(units::MARKETPLACE.to_string());
        }
        manifests.sort();
        manifests.dedup();
        // a link's own time stamps do not change with its target's
        let linked_manifest = manifests.iter().any(|m| {
            std::fs::symlink_metadata(base.join(m)).is_ok_and(|m| m.file_type().is_symlink())
        });
        for p in &manifest_problems {
            found.diagnostics.push(rules::plugin::manifest_finding(p));
        }
        // a folder or entry that could not be read may be read next time
        // without any time stamp moving; what else the walk reports (a
        // template folder, a `SKILL.md` folder, a manifest's problem)
        // follows from the listings and files the cache checks
        let unreadable = (found.diagnostics.iter()).any(|d| d.rule == rules::load::UNREADABLE.id);
        let walk = if target == Target::Catalog {
            let mut dirs = std::mem::take(&mut found.dirs);
            dirs.extend(probed);
            dirs.push(String::new());
            dirs.sort();
            dirs.dedup();
            Walk {
                dirs,
                exact: !found.links && !unreadable && !linked_manifest,
                files: manifests,
            }
        } else {
            Walk::default()
        };

        let limit = config.catalog.max_file_bytes;
        let kept: Vec<Option<(Skill, Vec<Diagnostic>, T)>> = found
            .skill_files
            .iter()
            .map(|f| prior.skills.remove(&f.rel))
            .collect();
        let loaded: Vec<(Skill, Vec<Diagnostic>, T)> = found
            .skill_files
            .par_iter()
            .zip(kept)
            .map(|(f, kept)| {
                if let Some(kept) = kept {
                    return kept;
                }
                let (mut skill, diags) =
                    load_skill(&f.path, &f.rel, scope, limit, Some(&found.listed));
                let (result, keep) = per_skill(&skill, &diags);
                if let Some(keep) = keep {
                    cut_source(&mut skill, keep);
                }
                (skill, diags, result)
            })
            .collect();

        let mut diagnostics = found.diagnostics;
        // a SKILL.md with no frontmatter inside another skill's folder is
        // a document of that skill (SG023), not a skill
        let dirs: std::collections::HashSet<&str> =
            loaded.iter().map(|(s, _, _)| s.rel_dir.as_str()).collect();
        let documents: Vec<Option<String>> = loaded
            .iter()
            .map(|(s, _, _)| {
                if target != Target::Catalog || s.frontmatter.is_some() || s.source.is_none() {
                    return None;
                }
                outer_skill(&s.rel_dir, &dirs, &found_units).map(str::to_string)
            })
            .collect();
        drop(dirs);
        let mut skills = Vec::with_capacity(loaded.len());
        let mut results = Vec::with_capacity(loaded.len());
        let mut load = Vec::with_capacity(loaded.len());
        let mut sources = SourceMap::new();
        for ((skill, diags, result), outer) in loaded.into_iter().zip(documents) {
            if let Some(outer) = outer {
                diagnostics.push(rules::sub_document::finding(&skill.file, &outer));
                continue;
            }
            results.push(result);
            diagnostics.extend(diags.iter().cloned());
            load.push(diags);
            if let Some(src) = &skill.source {
                sources.insert(skill.file.clone(), src.clone());
            }
            skills.push(skill);
        }

        // the names a case file may give a plugin's skill
        for s in &mut skills {
            s.listed_as = plugin_name_in(&found_units, s);
        }
        let full = target == Target::Catalog && scope == Scope::Full;
        let reused = (prior.cases.take()).filter(|c| c.keys == case_keys(&skills));
        let (loaded, reused) = match reused {
            Some(c) => (c.loaded, Some((c.commands, c.command_findings))),
            None if full => (
                cases::load_all_listed(&base, config, &skills, Some(&found.listed)),
                None,
            ),
            // one skill folder: its own case sources (`evals/` beside its
            // SKILL.md), as a check of the catalog reads them
            None if target == Target::SkillDir && scope == Scope::Full => {
                (cases::load_own(&base, config, &skills), None)
            }
            None => (cases::Loaded::default(), None),
        };
        if let Some(f) = loaded.fatal {
            return Err(f);
        }
        let case_findings = loaded.diagnostics.clone();
        diagnostics.extend(loaded.diagnostics);
        for c in &loaded.case_files {
            sources.insert(c.file.clone(), c.source.clone());
        }
        for c in &loaded.sources {
            sources.insert(c.file.clone(), c.source.clone());
        }
        let suite_by_skill = cases::suite_index(&loaded.suites, skills.len());
        let (commands, cmd_diags) = match reused {
            Some(reused) => reused,
            None if full => commands::load_all(&base, config),
            None => (commands::Commands::default(), Vec::new()),
        };
        // read again, always: their texts are not among the sources whose
        // secrets decide whether the first read's commands stand
        let claude_commands = if target == Target::Catalog {
            commands::load_listed(&base, config.catalog.max_file_bytes)
        } else {
            Vec::new()
        };
        let command_findings = cmd_diags.clone();
        diagnostics.extend(cmd_diags);
        for c in commands.all() {
            sources.insert(c.file.clone(), c.source.clone());
        }

        // a plugin's manifest and other files beside its skills folder
        // are the plugin's, not skills missing a SKILL.md
        let mut orphan_dirs = found.orphan_dirs;
        orphan_dirs.retain(|d| !found_units.iter().any(|u| u.beside_skills(d)));
        let library = target == Target::Catalog && {
            let roots: Vec<&str> = (roots_read.iter())
                .filter(|r| r.skipped.is_none())
                .map(|r| if r.path == "." { "" } else { r.path.as_str() })
                .collect();
            is_library(
                skills.iter().map(|s| s.rel_dir.as_str()),
                &roots,
                &found_units,
            )
        };
        Ok((
            Catalog {
                root: base,
                display_root,
                target,
                skills,
                cases: loaded.case_files,
                case_sources: loaded.sources,
                suite_by_skill,
                suites: loaded.suites,
                commands,
                claude_commands,
                orphan_dirs,
                sources,
                diagnostics,
                walk,
                library,
                roots: roots_read,
                units: found_units,
            },
            results,
            load,
            walked,
            (case_findings, command_findings),
        ))
    }

    /// The index of the skill named `name` (as [`Catalog::skill_named`]
    /// finds it), or a usage error listing the skills there are.
    pub fn require_skill(&self, name: &str) -> Result<usize, Fatal> {
        if let Some(i) = cases::skill_named(&self.skills, name) {
            return Ok(i);
        }
        // the folder's name, which is the name Claude Code lists, when one
        // skill's folder has it (`template/` whose `name` is `template-skill`)
        let mut by_folder = self
            .skills
            .iter()
            .enumerate()
            .filter(|(_, s)| s.folder == name);
        if let (Some((i, _)), None) = (by_folder.next(), by_folder.next()) {
            return Ok(i);
        }
        // the name Claude Code lists a plugin's skill under
        if name.contains(':')
            && let Some(i) = (0..self.skills.len())
                .find(|&i| self.plugin_name(&self.skills[i]).as_deref() == Some(name))
        {
            return Ok(i);
        }
        let mut names: Vec<&str> = self.skills.iter().map(cases::skill_key).collect();
        names.sort();
        let shown: Vec<&str> = names.iter().take(12).copied().collect();
        Err(
            Fatal::usage(format!("no skill named `{name}` in {}", self.display_root)).with_help(
                if shown.is_empty() {
                    "the catalog holds no skills".to_string()
                } else {
                    format!(
                        "skills here: {}{}",
                        shown.join(", "),
                        if names.len() > shown.len() {
                            ", …"
                        } else {
                            ""
                        }
                    )
                },
            ),
        )
    }

    /// The suite of cases of skill `i` (index into `skills`).
    pub fn suite_of(&self, i: usize) -> Option<&cases::Suite> {
        self.suite_by_skill
            .get(i)
            .copied()
            .flatten()
            .map(|k| &self.suites[k])
    }

    /// The skills roots walked, relative to `root` (`""` is the root
    /// itself), without those skipped; none for a single skill.
    pub fn root_paths(&self) -> impl Iterator<Item = &str> + Clone {
        self.roots
            .iter()
            .filter(|r| r.skipped.is_none())
            .map(|r| if r.path == "." { "" } else { r.path.as_str() })
    }

    /// The unit (index into `units`) whose skills folder holds skill `i`.
    pub fn unit_of(&self, i: usize) -> Option<usize> {
        unit_holding(&self.units, &self.skills.get(i)?.rel_dir)
    }

    /// The name Claude Code lists a plugin's skill under
    /// (`<prefix>:<folder>`, or `<prefix>:<frontmatter name>` for a folder
    /// the manifest names); `None` for a skill of no plugin.
    pub fn plugin_name(&self, skill: &Skill) -> Option<String> {
        plugin_name_in(&self.units, skill)
    }

    /// The unit that holds `skill` (the innermost).
    pub fn unit_of_skill(&self, skill: &Skill) -> Option<&units::Unit> {
        unit_holding(&self.units, &skill.rel_dir).map(|u| &self.units[u])
    }
}

/// [`Catalog::plugin_name`] among `units`.
pub fn plugin_name_in(units: &[units::Unit], skill: &Skill) -> Option<String> {
    let u = unit_holding(units, &skill.rel_dir)
        .map(|k| &units[k])
        .filter(|u| u.kind == units::UnitKind::Plugin)?;
    let part = match u.place(&skill.rel_dir) {
        units::Placement::Folder(f) => f,
        units::Placement::Named => units::plugin_safe(
            skill
                .name()
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .unwrap_or(&skill.folder),
        ),
        units::Placement::Hidden(_) => units::plugin_safe(&skill.folder),
    };
    Some(format!("{}:{part}", u.name))
}

impl Catalog {
    /// The catalog as it is installed with only the skills `keep` (indices
    /// into `skills`, ascending): those skills, their suites (skill indices
    /// renumbered), every case file, the units and roots; the commands of
    /// `.claude/commands/` only with `commands`. Sources, load diagnostics
    /// and the walk are left out: the copy is for routing, not for
    /// reporting.
    pub fn subset(&self, keep: &[usize], commands: bool) -> Catalog {
        let mut new_of = vec![None; self.skills.len()];
        for (k, &i) in keep.iter().enumerate() {
            new_of[i] = Some(k);
        }
        let skills: Vec<Skill> = keep.iter().map(|&i| self.skills[i].clone()).collect();
        let suites: Vec<cases::Suite> = self
            .suites
            .iter()
            .filter_map(|s| {
                let k = new_of.get(s.skill?).copied().flatten()?;
                let mut s = s.clone();
                s.skill = Some(k);
                Some(s)
            })
            .collect();
        let suite_by_skill = cases::suite_index(&suites, skills.len());
        Catalog {
            root: self.root.clone(),
            display_root: self.display_root.clone(),
            target: self.target,
            skills,
            cases: self.cases.clone(),
            case_sources: Vec::new(),
            suites,
            suite_by_skill,
            commands: commands::Commands::default(),
            claude_commands: if commands {
                self.claude_commands.clone()
            } else {
                Vec::new()
            },
            orphan_dirs: Vec::new(),
            sources: SourceMap::new(),
            diagnostics: Vec::new(),
            walk: Walk::default(),
            roots: self.roots.clone(),
            units: self.units.clone(),
            library: self.library,
        }
    }

    /// The skill whose frontmatter `name` (else folder name) is `name`.
    pub fn skill_named(&self, name: &str) -> Option<&Skill> {
        self.skills
            .iter()
            .find(|s| s.name() == Some(name))
            .or_else(|| {
                self.skills
                    .iter()
                    .find(|s| s.name().is_none() && s.folder == name)
            })
    }
}

/// Keep only the text a later step needs: up to the end of the line after
/// the one holding byte `keep`, and never less than the frontmatter.
fn cut_source(skill: &mut Skill, keep: usize) {
    let Some(src) = &skill.source else { return };
    let text = &src.text;
    let keep = keep.max(skill.body_start).min(text.len());
    let (line, _) = src.index.line_col(text, keep);
    let next_next = line as usize + 2;
    if next_next > src.index.line_count() {
        return;
    }
    let cut = src.index.line_start(next_next as u32);
    if cut >= text.len() {
        return;
    }
    skill.cut = text.len() - cut;
    skill.source = Some(src.prefix(cut));
}

/// Read and parse one SKILL.md. Never fails: problems become diagnostics.
/// `listed`: folders the walk read whole ([`discover::Found::listed`]), the
/// skill's folder listed from them.
pub fn load_skill(
    path: &Path,
    rel: &str,
    scope: Scope,
    limit: u64,
    listed: Option<&discover::Listed>,
) -> (Skill, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    // The folder's real name: resolving the path costs a system call per
    // component, so it is only done when the last component is `.`, `..`
    // or a symlink (one `lstat`), the only cases where it changes the name.
    let needs_resolving = dir.file_name().is_none()
        || std::fs::symlink_metadata(&dir).is_ok_and(|m| m.file_type().is_symlink());
    let resolved = needs_resolving.then(|| dir.canonicalize().ok()).flatten();
    let folder = resolved
        .as_deref()
        .unwrap_or(&dir)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let rel_dir = match rel.rsplit_once('/') {
        Some((d, _)) => d.to_string(),
        None => ".".to_string(),
    };
    let listing = match scope {
        Scope::Full => list_skill_files(&dir, &rel_dir, listed),
        Scope::SkillsOnly => Listing::default(),
    };
    for (folder, message) in listing.problems {
        diags.push(
            rules::load::UNREADABLE
                .diag(
                    if folder.is_empty() {
                        rel_dir.clone()
                    } else {
                        discover::join_rel(&rel_dir, &folder)
                    },
                    message,
                )
                .with_help("fix the folder, or move what the skill does not need out of it"),
        );
    }
    let (files, empty_dirs, evals_dir) = (listing.files, listing.empty, listing.evals);
    let mut skill = Skill {
        file: rel.to_string(),
        dir,
        rel_dir,
        folder,
        source: None,
        frontmatter: None,
        body_start: 0,
        files,
        empty_dirs,
        evals_dir,
        cut: 0,
        grams: None,
        other_grams: std::sync::OnceLock::new(),
        listed_as: None,
    };
    let bytes = match read_bounded(path, limit) {
        Ok(Some(b)) => b,
        Ok(None) => {
            diags.push(
                rules::load::FILE_TOO_LARGE
                    .diag(rel, format!("SKILL.md is {}, larger than {limit} bytes ([catalog] max-file-bytes), and was not parsed", size_of(path)))
                    .with_help("split reference material into supporting files, or raise [catalog] max-file-bytes"),
            );
            return (skill, diags);
        }
        Err(e) => {
            diags.push(
                rules::load::UNREADABLE
                    .diag(rel, format!("cannot read SKILL.md: {e}"))
                    .with_help(if e.kind() == std::io::ErrorKind::InvalidInput {
                        "replace it with a regular file"
                    } else {
                        "fix the file's permissions"
                    }),
            );
            return (skill, diags);
        }
    };
    if let Some(kind) = crate::rules::not_text::binary_kind(&bytes) {
        diags.push(
            crate::rules::not_text::NOT_TEXT
                .diag(rel, format!("SKILL.md is not text ({kind}); it was not parsed"))
                .with_help("put the skill's text (YAML frontmatter, then Markdown) in SKILL.md, saved as UTF-8; keep images and other assets under their own names"),
        );
        return (skill, diags);
    }
    if secrets::any_found() {
        skill.grams = grams::Grams::of(&[&bytes]).map(std::sync::Arc::new);
    }
    let (src, start) = skill::decode(rel, bytes, &mut diags);
    if let Some(target) = link_target(&src.text[start..]) {
        // where the link leads, when that stays inside the catalog
        let shown = match normalize_rel(&discover::join_rel(&skill.rel_dir, target)) {
            Some(t) if skill.dir.join(target).exists() => format!("; its target {t} exists"),
            Some(t) => format!("; its target {t} does not exist"),
            None => String::new(),
        };
        let line = src.line_span(1);
        diags.push(
            rules::load::SYMLINK_AS_FILE
                .diag(
                    rel,
                    format!(
                        "SKILL.md holds only the path `{target}`: a symlink checked out as a plain file{shown}"
                    ),
                )
                .with_span(line)
                .with_label("the link's target, not a skill")
                .with_help(
                    "check the link out as a link (`git config core.symlinks true`, then `git checkout -- <this file>`; on Windows enable Developer Mode), or replace the file with a copy of its target",
                ),
        );
        skill.body_start = start;
        skill.source = Some(src);
        return (skill, diags);
    }
    let (fm, body) = skill::parse_frontmatter(rel, &src, start, &mut diags);
    skill.frontmatter = fm;
    skill.body_start = body;
    skill.source = Some(src);
    (skill, diags)
}

/// A file's size as a finding says it (`1048577 bytes`), for a file
/// refused for its size.
pub fn size_of(path: &Path) -> String {
    match std::fs::metadata(path) {
        Ok(m) => format!("{} bytes", m.len()),
        Err(_) => "of unknown size".to_string(),
    }
}

/// The path a file holds when its whole content is one path and nothing
/// else: what git writes for a symlink when it does not create links.
/// A path here has a `/` (or `\\`), no whitespace inside, and no YAML or
/// Markdown around it.
pub fn link_target(text: &str) -> Option<&str> {
    let t = text.strip_suffix('\n').unwrap_or(text);
    let t = t.strip_suffix('\r').unwrap_or(t);
    if t.is_empty()
        || t.len() > 4096
        || t.starts_with("---")
        || t.chars().any(|c| c.is_whitespace() || c.is_control())
        || !t.contains(['/', '\\'])
        || t.contains("://")
    {
        return None;
    }
    Some(t)
}

/// `a/b/../c` as `a/c`; `None` for an absolute path or one that climbs
/// above where it starts.
fn normalize_rel(path: &str) -> Option<String> {
    if path.starts_with(['/', '\\']) || path.get(1..2) == Some(":") {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    Some(parts.join("/"))
}

/// Most files listed in one skill folder.
pub const MAX_SKILL_FILES: usize = 10_000;
/// Deepest subfolder listed inside a skill folder.
pub const MAX_SKILL_DEPTH: usize = 8;

/// A skill folder's listing.
#[derive(Debug, Default)]
struct Listing {
    /// Files (relative, `/`-separated, sorted), SKILL.md excluded.
    files: Vec<String>,
    /// Empty subfolders, sorted.
    empty: Vec<String>,
    /// What could not be listed: (folder relative to the skill, message).
    problems: Vec<(String, String)>,
    /// The folder has an `evals/` subfolder.
    evals: bool,
}

/// Files and empty subfolders of a skill folder (not descending into
/// `evals/`, nested skills or skipped folders). Nothing is left out
/// silently: an unreadable subfolder, nesting past [`MAX_SKILL_DEPTH`] and
/// more than [`MAX_SKILL_FILES`] files are problems. Past the file limit
/// the listing is dropped whole rather than cut at an arbitrary (directory
/// order) point, so the result stays the same on every file system.
fn list_skill_files(dir: &Path, rel_dir: &str, listed: Option<&discover::Listed>) -> Listing {
    use discover::EntryKind;
    let mut out = Listing::default();
    let mut stack = vec![(dir.to_path_buf(), String::new(), 0usize)];
    // a folder's entries as the walk read them, when it read it whole
    let base = if rel_dir == "." { "" } else { rel_dir };
    let cached = |rel: &str| {
        let key = match (base, rel) {
            ("", r) => r.to_string(),
            (b, "") => b.to_string(),
            (b, r) => format!("{b}/{r}"),
        };
        listed.and_then(|l| l.get(&key))
    };
    // whether `path`, a folder at `rel`, holds a SKILL.md (of any kind;
    // a link is followed)
    let holds_skill = |path: &Path, rel: &str| match cached(rel) {
        Some(entries) => match entries.iter().find(|e| &*e.name == "SKILL.md") {
            None => false,
            Some(e) if e.kind == EntryKind::Link => path.join("SKILL.md").exists(),
            Some(_) => true,
        },
        None => path.join("SKILL.md").exists(),
    };
    type Read = Result<(String, EntryKind, PathBuf), (String, String)>;
    while let Some((d, rel, depth)) = stack.pop() {
        let entries: Vec<Read> = match cached(&rel) {
            Some(entries) => entries
                .iter()
                .map(|e| Ok((e.name.to_string(), e.kind, d.join(&*e.name))))
                .collect(),
            None => match std::fs::read_dir(&d) {
                Ok(rd) => rd
                    .map(|e| {
                        let e = e.map_err(|err| {
                            (
                                rel.clone(),
                                format!("cannot list this folder of the skill: {err}"),
                            )
                        })?;
                        let name = e.file_name().to_string_lossy().into_owned();
                        let ft = e.file_type().map_err(|err| {
                            (
                                discover::join_rel(&rel, &name),
                                format!("cannot read: {err}"),
                            )
                        })?;
                        let kind = if ft.is_dir() {
                            EntryKind::Dir
                        } else if ft.is_symlink() {
                            EntryKind::Link
                        } else {
                            EntryKind::Other
                        };
                        Ok((name, kind, e.path()))
                    })
                    .collect(),
                Err(e) => {
                    out.problems
                        .push((rel, format!("cannot read this folder of the skill: {e}")));
                    continue;
                }
            },
        };
        let mut any = false;
        for e in entries {
            any = true;
            let (name, kind, path) = match e {
                Ok(e) => e,
                Err(problem) => {
                    out.problems.push(problem);
                    continue;
                }
            };
            let r = discover::join_rel(&rel, &name);
            if depth == 0
                && name == "evals"
                && (kind == EntryKind::Dir || kind == EntryKind::Link && path.is_dir())
            {
                // a linked evals/ too: the case scan decides whether it
                // stays inside the catalog
                out.evals = true;
                continue;
            }
            if kind == EntryKind::Dir {
                if discover::SKIP_DIRS.contains(&name.as_str()) {
                    continue;
                }
                if holds_skill(&path, &r) {
                    continue;
                }
                if depth + 1 > MAX_SKILL_DEPTH {
                    out.problems.push((
                        r,
                        format!(
                            "folders nest deeper than {MAX_SKILL_DEPTH} levels inside the skill; this one was not listed"
                        ),
                    ));
                    continue;
                }
                stack.push((path, r, depth + 1));
            } else if !(depth == 0 && name == "SKILL.md") {
                if out.files.len() == MAX_SKILL_FILES {
                    out.problems.push((
                        String::new(),
                        format!(
                            "the skill folder holds more than {MAX_SKILL_FILES} files; its supporting files were not checked"
                        ),
                    ));
                    out.files.clear();
                    out.empty.clear();
                    out.evals = dir.join("evals").is_dir();
                    out.problems.sort();
                    out.problems.dedup();
                    return out;
                }
                out.files.push(r);
            }
        }
        if !any && depth > 0 {
            out.empty.push(rel);
        }
    }
    out.files.sort();
    out.empty.sort();
    out.problems.sort();
    out.problems.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A skill folder listed from the walk's reading of it is listed as
    /// reading it again would: files, empty folders, `evals/`, nested
    /// skills (a real SKILL.md, a linked one, a broken link), links.
    #[cfg(unix)]
    #[test]
    fn read_text_sniffs_mostly_binary_files_and_reads_the_same_text() {
        let t = tempfile::tempdir().unwrap();
        let w = |name: &str, bytes: &[u8]| {
            let p = t.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            p
        };
        let text: Vec<u8> = b"plain text, a line\n".repeat(1000);
        let mut late_nul = text.clone();
        late_nul.push(0);
        let mut early_nul = vec![0u8; 10];
        early_nul.extend(&text);
        for (name, bytes) in [
            ("a.png", &text),
            ("b.PNG", &late_nul),
            ("c.md", &early_nul),
            ("d.png", &b"short\0"[..].to_vec()),
        ] {
            let p = w(name, bytes);
            assert_eq!(
                read_text(&p, 1 << 20, false).unwrap().as_deref(),
                Some(&bytes[..]),
                "{name}"
            );
        }
        // a font or image starting with a NUL is never read past its head
        let p = w("e.ttf", &early_nul);
        assert_eq!(read_text(&p, 1 << 20, false).unwrap(), None);
        // the limit holds either way
        let p = w("f.png", &text);
        assert_eq!(read_text(&p, 100, false).unwrap(), None);
        assert_eq!(
            read_text(&p, text.len() as u64, false)
                .unwrap()
                .unwrap()
                .len(),
            text.len()
        );
    }

    #[test]
    fn a_skill_folder_listed_from_the_walk_is_listed_as_read() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let skill = root.join("skills/one");
        for d in [
            "scripts/lib",
            "references/empty",
            "evals",
            "nested",
            "linked-nested",
            "broken-nested",
            "node_modules/x",
        ] {
            std::fs::create_dir_all(skill.join(d)).unwrap();
        }
        for f in [
            "SKILL.md",
            "scripts/run.sh",
            "scripts/lib/util.py",
            "nested/SKILL.md",
            "nested/inner.md",
            "node_modules/x/a.js",
            "evals/evals.json",
            "README.md",
        ] {
            std::fs::write(skill.join(f), "x\n").unwrap();
        }
        symlink(
            skill.join("README.md"),
            skill.join("linked-nested/SKILL.md"),
        )
        .unwrap();
        symlink(skill.join("absent"), skill.join("broken-nested/SKILL.md")).unwrap();
        symlink(skill.join("scripts"), skill.join("tools")).unwrap();
        let filter = discover::Filter::new(&[], &[]).unwrap();
        let mut found = discover::Found::default();
        let mut seen = std::collections::HashMap::new();
        discover::walk(root, "", &filter, false, root, &mut seen, &mut found);
        assert!(found.listed.contains_key("skills/one/scripts"));
        let from_walk = list_skill_files(&skill, "skills/one", Some(&found.listed));
        let read = list_skill_files(&skill, "skills/one", None);
        assert_eq!(from_walk.files, read.files);
        assert_eq!(from_walk.empty, read.empty);
        assert_eq!(from_walk.problems, read.problems);
        assert_eq!(from_walk.evals, read.evals);
        assert!(read.evals);
        assert_eq!(
            read.files,
            [
                "README.md",
                "broken-nested/SKILL.md",
                "scripts/lib/util.py",
                "scripts/run.sh",
                "tools"
            ]
        );
        assert_eq!(read.empty, ["references/empty"]);
    }
}
