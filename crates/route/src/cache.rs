//! The `skillsift rank` cache: what the analyzer made of each SKILL.md of a
//! large catalog, kept between runs so that ranking one prompt does not read
//! and analyze every file again.
//!
//! One file per catalog, `rank-<hash of its path>.bin` in the cache folder
//! ([`folder`]), valid for one skillsift binary and one `[catalog]` and
//! `[route]` configuration. A run trusts what it holds only as far as the
//! disk still agrees, checked with one `lstat` per folder and per SKILL.md
//! (size, modification and change times, inode, mode):
//!
//! - a folder the walk listed has changed (a skill added, removed or
//!   renamed): the catalog is walked and read again, as without the cache;
//! - a SKILL.md has changed: that file alone is read and analyzed again.
//!
//! Either way the index is rebuilt from the terms by
//! [`Index::from_counts`], which depends only on the documents, so scores
//! are the same, bit for bit, as a run with `--no-cache`.
//!
//! A time stamp less than [`RACY_NANOS`] older than the moment the cache
//! was built is not trusted ("racily clean", as git calls it): a file
//! written again within the same clock tick keeps its time stamp, and a
//! coarse file system clock (FAT: 2 s) makes ticks long. Such entries are
//! stored as never matching and are read again by the next run, which
//! stores them for good once they are old enough.
//!
//! Plugin manifests and the marketplace file are checked the same way as
//! folders (their contents name plugins and skills): any change to one
//! walks and reads the catalog again.
//!
//! Catalogs with symlinked folders, SKILL.md files or manifests, or a
//! folder or entry the walk could not read, are never cached: a link's own
//! time stamps do not change when its target does, and an unreadable
//! entry may become readable without any.
//!
//! The file is read as untrusted input: bounded in size, every length and
//! term id checked; anything unexpected is a cache miss, never an error.

use super::index::{DocCounts, FxMap, Index, intern};
use super::text::Analyzer;
use super::{Analyzed, analyze_builtins, analyze_commands, analyze_listing, analyze_skill};
use crate::catalog::{Catalog, Scope, Target};
use crate::client::{Builtin, ClientId, ClientIdExt};
use crate::config::Config;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Catalogs with fewer SKILL.md files are not cached: reading them takes
/// about as long as checking the cache would.
pub const MIN_SKILLS: usize = 1000;

/// Time stamps this close to the cache's build time are not trusted.
pub const RACY_NANOS: i64 = 2_000_000_000;

/// Largest cache file read.
const MAX_CACHE_BYTES: u64 = 512 * 1024 * 1024;

/// Cache files unused (not rewritten) for this long are removed when
/// another catalog's cache is written.
const STALE_SECS: u64 = 30 * 24 * 3600;

/// Bumped whenever the file layout changes.
const FORMAT: u32 = 3;
const MAGIC: &[u8; 16] = b"skillsift-rank\0\0";

pub use crate::process::scratch::cache_folder as folder;

/// A file's or folder's identity and time stamps, as `lstat` gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    mtime: i64,
    ctime: i64,
    ino: u64,
    dev: u64,
    mode: u32,
}

impl Stamp {
    /// Stored for an entry that must be read again: no `lstat` gives it.
    const NEVER: Stamp = Stamp {
        len: u64::MAX,
        mtime: i64::MIN,
        ctime: i64::MIN,
        ino: u64::MAX,
        dev: u64::MAX,
        mode: u32::MAX,
    };

    /// This stamp, or [`Stamp::NEVER`] when it is too close to `built`
    /// (nanoseconds since the epoch) to be trusted.
    fn settled(self, built: i64) -> Stamp {
        if self.mtime.max(self.ctime) >= built.saturating_sub(RACY_NANOS) {
            Stamp::NEVER
        } else {
            self
        }
    }
}

/// Nanoseconds since the epoch (negative before it).
fn nanos(t: SystemTime) -> i64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_nanos()).unwrap_or(i64::MAX),
    }
}

/// Takes [`Stamp`]s of paths below one catalog root. On Unix the root is
/// held open and each path is `lstat`ed relative to it (`fstatat`): the
/// kernel then resolves two or three path components per file instead of
/// the whole path, which is most of the time a cache hit takes.
struct Stamper {
    root: PathBuf,
    #[cfg(unix)]
    dir: Option<std::fs::File>,
}

impl Stamper {
    fn new(root: &Path) -> Stamper {
        Stamper {
            root: root.to_path_buf(),
            #[cfg(unix)]
            dir: std::fs::File::open(root).ok(),
        }
    }

    /// The stamp of `rel` (`""` is the root), `None` when it cannot be
    /// read.
    fn stamp(&self, rel: &str) -> Option<Stamp> {
        #[cfg(unix)]
        if let Some(dir) = &self.dir {
            use std::os::fd::AsRawFd;
            let rel = std::ffi::CString::new(if rel.is_empty() { "." } else { rel }).ok()?;
            let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
            // SAFETY: `dir` is an open descriptor, `rel` a NUL-terminated
            // string, and `st` is written in full when the call succeeds.
            let rc = unsafe {
                libc::fstatat(
                    dir.as_raw_fd(),
                    rel.as_ptr(),
                    st.as_mut_ptr(),
                    libc::AT_SYMLINK_NOFOLLOW,
                )
            };
            if rc != 0 {
                return None;
            }
            // SAFETY: initialized by the successful call above.
            let st = unsafe { st.assume_init() };
            let ns = |s: i64, n: i64| s.saturating_mul(1_000_000_000).saturating_add(n);
            #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
            return Some(Stamp {
                len: st.st_size as u64,
                mtime: ns(st.st_mtime as i64, st.st_mtime_nsec as i64),
                ctime: ns(st.st_ctime as i64, st.st_ctime_nsec as i64),
                ino: st.st_ino as u64,
                dev: st.st_dev as u64,
                mode: st.st_mode as u32,
            });
        }
        let m = std::fs::symlink_metadata(self.root.join(rel)).ok()?;
        Some(Stamp {
            len: m.len(),
            mtime: m.modified().ok().map_or(i64::MIN, nanos),
            ctime: m.created().ok().map_or(i64::MIN, nanos),
            ino: 0,
            dev: 0,
            mode: u32::from(m.is_dir()) | (u32::from(m.file_type().is_symlink()) << 1),
        })
    }

    /// Whether `rel` still is what `recorded` says.
    fn holds(&self, rel: &str, recorded: Stamp) -> bool {
        recorded != Stamp::NEVER && self.stamp(rel) == Some(recorded)
    }

    /// The stamp to record for `rel`, taken at or after `built`.
    fn record(&self, rel: &str, built: i64) -> Stamp {
        self.stamp(rel).map_or(Stamp::NEVER, |s| s.settled(built))
    }
}

/// The analyzed catalog the cache stores and the index is built from.
#[derive(Debug, Default)]
pub struct Analysis {
    /// Every SKILL.md, in catalog order, with its stamp.
    files: Vec<(String, Stamp)>,
    /// Terms of `docs`, by id.
    vocab: Vec<Box<str>>,
    /// The routable skills in any order: `source` is the position in
    /// `files`, terms are ids into `vocab` in text order. Files no
    /// document names are unroutable.
    docs: Vec<DocCounts<u32>>,
    /// Positions in `files` of the skills listed by name only, ascending.
    name_only: Vec<u32>,
}

impl Analysis {
    /// The ranking over the stored documents plus `extra` (the client's
    /// built-in skills, never stored).
    pub(crate) fn ranking_with(&self, extra: Vec<DocCounts<String>>) -> Ranking {
        if extra.is_empty() {
            return self.ranking();
        }
        let mut docs: Vec<DocCounts<String>> = self
            .docs
            .iter()
            .map(|d| DocCounts {
                name: d.name.clone(),
                file: d.file.clone(),
                source: d.source,
                counts: d
                    .counts
                    .iter()
                    .map(|&(t, n)| (self.vocab[t as usize].to_string(), n))
                    .collect(),
            })
            .collect();
        docs.extend(extra);
        Ranking {
            index: Index::from_counts(docs),
            unroutable: unroutable(
                self.files.iter().map(|f| f.0.as_str()),
                self.docs.iter().map(|d| d.source),
            ),
            name_only: self.name_only_files(),
        }
    }

    /// The files listed by name only, sorted.
    fn name_only_files(&self) -> Vec<String> {
        let mut v: Vec<String> = (self.name_only.iter())
            .filter_map(|&i| self.files.get(i as usize).map(|f| f.0.clone()))
            .collect();
        v.sort();
        v
    }

    pub fn ranking(&self) -> Ranking {
        Ranking {
            index: Index::from_interned(&self.docs, &self.vocab),
            unroutable: unroutable(
                self.files.iter().map(|f| f.0.as_str()),
                self.docs.iter().map(|d| d.source),
            ),
            name_only: self.name_only_files(),
        }
    }
}

/// Positions of the catalog skills `listing` shows by name only.
fn name_only_of(listing: &crate::client::Listing) -> Vec<u32> {
    let mut v: Vec<u32> = (listing.entries.iter())
        .filter(|e| e.listed && e.name_only)
        .map(|e| e.skill as u32)
        .collect();
    v.sort_unstable();
    v
}

/// The `files` (by position) that no document's `sources` names.
fn unroutable<'a>(
    files: impl ExactSizeIterator<Item = &'a str>,
    sources: impl Iterator<Item = usize>,
) -> Vec<String> {
    let mut routed = vec![false; files.len()];
    for s in sources {
        if let Some(r) = routed.get_mut(s) {
            *r = true;
        }
    }
    (files.zip(routed))
        .filter(|(_, r)| !r)
        .map(|(f, _)| f.to_string())
        .collect()
}

/// What one cache file holds.
#[derive(Debug)]
pub struct Record {
    /// Every folder the walk listed, relative to the catalog root.
    pub dirs: Vec<(String, Stamp)>,
    pub analysis: Analysis,
}

/// What `skillsift rank` ranks with.
#[derive(Debug)]
pub struct Ranking {
    pub index: Index,
    /// SKILL.md files without a readable name or description, sorted.
    pub unroutable: Vec<String>,
    /// SKILL.md files the client lists by name only (its listing is over
    /// budget, SG520): they rank by their names alone. Sorted.
    pub name_only: Vec<String>,
}

/// How a [`Cache::load`] went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing was cached, or the cache did not match this binary,
    /// configuration or catalog's folders: every file was read.
    Miss,
    /// The cache held every file as it is on disk.
    Hit,
    /// The folders were as cached; this many SKILL.md files were read again.
    Partial(usize),
}

/// The cache of one catalog.
pub struct Cache {
    path: PathBuf,
    key: [u8; 32],
}

impl Cache {
    /// The cache for the catalog at `root` under `config`, in `folder`.
    pub fn new(
        folder: &Path,
        root: &Path,
        config: &Config,
        builtins: Option<&[Builtin]>,
    ) -> Option<Cache> {
        let canonical = root.canonicalize().ok()?;
        let place = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
        let name: String = place[..8].iter().map(|b| format!("{b:02x}")).collect();
        let mut key = Sha256::new();
        key.update(MAGIC);
        key.update(FORMAT.to_le_bytes());
        key.update(env!("CARGO_PKG_VERSION"));
        // a rebuilt binary may analyze differently under the same version
        if let Some(m) = std::env::current_exe().ok().and_then(|e| e.metadata().ok()) {
            key.update(m.len().to_le_bytes());
            key.update(m.modified().map_or(0, nanos).to_le_bytes());
        }
        key.update(canonical.as_os_str().as_encoded_bytes());
        key.update(format!("{:?}\n{:?}", config.catalog, config.route));
        // the client's listing depends on its captured built-ins
        key.update(serde_json::to_vec(&builtins).unwrap_or_default());
        Some(Cache {
            path: folder.join(format!("rank-{name}.bin")),
            key: key.finalize().into(),
        })
    }

    /// The index of the catalog at `root` (a folder), from the cache as far
    /// as it still holds, else by reading the catalog; the cache is
    /// rewritten when anything was read. `Err` is the error loading the
    /// catalog would give.
    pub fn load(
        &self,
        root: &Path,
        config: &Config,
        analyzer: &Analyzer,
        builtins: Option<&[Builtin]>,
    ) -> Result<(Ranking, Outcome), crate::exit::Fatal> {
        let stamper = Stamper::new(root);
        let extra = |catalog_skills: usize| -> Vec<DocCounts<String>> {
            match builtins {
                Some(b) => {
                    let listing = crate::client::Listing {
                        client: config.route.client,
                        entries: Vec::new(),
                        commands: Vec::new(),
                        builtins: b.to_vec(),
                        budget: None,
                    };
                    analyze_builtins(&listing, catalog_skills, analyzer, config.route.name_weight)
                }
                None => Vec::new(),
            }
        };
        if let Some(Record { dirs, analysis }) = self.read() {
            // check the disk while building the index the cache promises
            let (stale, ranking) = rayon::join(
                || {
                    let dirs_hold = dirs.par_iter().all(|(d, s)| stamper.holds(d, *s));
                    dirs_hold.then(|| {
                        (analysis.files.par_iter().enumerate())
                            .filter(|(_, (f, s))| !stamper.holds(f, *s))
                            .map(|(i, _)| i)
                            .collect::<Vec<usize>>()
                    })
                },
                || analysis.ranking_with(extra(analysis.files.len())),
            );
            match stale {
                Some(stale) if stale.is_empty() => return Ok((ranking, Outcome::Hit)),
                // A client's listing depends on the whole catalog (its
                // order and budget): one changed file is read again with
                // all the others.
                Some(stale) if config.route.client == ClientId::Spec => {
                    let built = nanos(SystemTime::now());
                    let analysis = reread(analysis, &stale, &stamper, config, analyzer, built);
                    self.write(&dirs, &analysis);
                    return Ok((analysis.ranking(), Outcome::Partial(stale.len())));
                }
                _ => {}
            }
        }
        let built = nanos(SystemTime::now());
        let catalog = Catalog::load_scoped(root, config, Scope::SkillsOnly)?;
        let eligible = catalog.target == Target::Catalog
            && catalog.walk.exact
            && catalog.skills.len() >= MIN_SKILLS;
        if !eligible {
            // a cache this catalog has outgrown would only be read in vain
            let _ = std::fs::remove_file(&self.path);
            return Ok((analyze(&catalog, config, analyzer, builtins), Outcome::Miss));
        }
        // A cache folder inside the catalog changes with every write; its
        // listing is not the catalog's (it holds no SKILL.md)
        let inside = self.path.parent().and_then(|f| {
            let (f, r) = (f.canonicalize().ok()?, root.canonicalize().ok()?);
            let rel = f.strip_prefix(&r).ok()?.to_str()?.replace('\\', "/");
            Some(rel)
        });
        let ours = |d: &str| {
            inside
                .as_deref()
                .is_some_and(|c| d == c || d.starts_with(&format!("{c}/")))
        };
        // Claude Code's commands spend the listing's budget: any change
        // to them is a change to the skills' listing
        let watched = if config.route.client == ClientId::ClaudeCode {
            crate::catalog::commands::listed_watch(root)
        } else {
            Vec::new()
        };
        let (dirs, files) = rayon::join(
            || {
                (catalog.walk.dirs.par_iter())
                    .chain(catalog.walk.files.par_iter())
                    .chain(watched.par_iter())
                    .filter(|d| !ours(d))
                    .map(|d| (d.clone(), stamper.record(d, built)))
                    .collect::<Vec<_>>()
            },
            || {
                (catalog.skills.par_iter())
                    .map(|s| (s.file.clone(), stamper.record(&s.file, built)))
                    .collect::<Vec<_>>()
            },
        );
        let listing = config
            .route
            .client
            .model()
            .listing(&catalog, config, builtins);
        let (docs, vocab) = intern(analyze_listing(
            &listing,
            analyzer,
            config.route.name_weight,
        ));
        let name_only = name_only_of(&listing);
        let analysis = Analysis {
            files,
            vocab,
            docs,
            name_only,
        };
        self.write(&dirs, &analysis);
        Ok((
            analysis.ranking_with(extra(catalog.skills.len())),
            Outcome::Miss,
        ))
    }

    /// The cache file when it exists, matches this key and decodes.
    fn read(&self) -> Option<Record> {
        let bytes = crate::catalog::read_bounded(&self.path, MAX_CACHE_BYTES).ok()??;
        decode(&bytes, &self.key)
    }

    /// Write the cache file (atomically: a temporary file renamed over
    /// it). Failing to write only costs the next run its speed.
    fn write(&self, dirs: &[(String, Stamp)], analysis: &Analysis) {
        let Some(folder) = self.path.parent() else {
            return;
        };
        if std::fs::create_dir_all(folder).is_err() {
            return;
        }
        let tag = folder.join("CACHEDIR.TAG");
        if !tag.exists() {
            let _ = std::fs::write(
                &tag,
                "Signature: 8a477f597d28d172789f06886806bc55\n\
                 # This file is a cache directory tag created by skillsift.\n\
                 # For information about cache directory tags see https://bford.info/cachedir/\n",
            );
        }
        let bytes = encode(&self.key, dirs, analysis);
        let Ok(mut tmp) = tempfile::NamedTempFile::new_in(folder) else {
            return;
        };
        use std::io::Write;
        if tmp.write_all(&bytes).is_ok() && tmp.persist(&self.path).is_ok() {
            prune(folder, &self.path);
        }
    }
}

/// Remove other catalogs' cache files not rewritten for [`STALE_SECS`].
fn prune(folder: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let now = SystemTime::now();
    for e in entries.flatten() {
        let p = e.path();
        let ours = p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("rank-") && n.ends_with(".bin"));
        let old = e
            .metadata()
            .ok()
            .and_then(|m| m.modified().ok())
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age.as_secs() > STALE_SECS);
        if ours && old && p != keep {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Analyze every skill of a loaded catalog: what `rank --no-cache` ranks
/// with.
pub fn analyze(
    catalog: &Catalog,
    config: &Config,
    analyzer: &Analyzer,
    builtins: Option<&[Builtin]>,
) -> Ranking {
    let listing = config
        .route
        .client
        .model()
        .listing(catalog, config, builtins);
    let mut docs = analyze_listing(&listing, analyzer, config.route.name_weight);
    if builtins.is_some() {
        docs.extend(analyze_builtins(
            &listing,
            catalog.skills.len(),
            analyzer,
            config.route.name_weight,
        ));
    }
    if super::routes_commands(config) {
        docs.extend(analyze_commands(
            &listing,
            catalog.skills.len() + listing.builtins.len(),
            analyzer,
            config.route.name_weight,
        ));
    }
    let unroutable = unroutable(
        catalog.skills.iter().map(|s| s.file.as_str()),
        docs.iter().map(|d| d.source),
    );
    let mut name_only: Vec<String> = (listing.entries.iter())
        .filter(|e| e.listed && e.name_only)
        .map(|e| e.path.clone())
        .collect();
    name_only.sort();
    Ranking {
        index: Index::from_counts(docs),
        unroutable,
        name_only,
    }
}

/// `analysis` with the files at positions `stale` read and analyzed again.
fn reread(
    mut analysis: Analysis,
    stale: &[usize],
    stamper: &Stamper,
    config: &Config,
    analyzer: &Analyzer,
    built: i64,
) -> Analysis {
    let limit = config.catalog.max_file_bytes;
    let files = &analysis.files;
    let again: Vec<(usize, Stamp, Option<Analyzed>)> = stale
        .par_iter()
        .map(|&i| {
            let rel = &files[i].0;
            let stamp = stamper.record(rel, built);
            let path = stamper.root.join(rel);
            let (skill, _) = crate::catalog::load_skill(&path, rel, Scope::SkillsOnly, limit, None);
            (
                i,
                stamp,
                analyze_skill(&skill, analyzer, config.route.name_weight),
            )
        })
        .collect();
    let mut is_stale = vec![false; analysis.files.len()];
    for &i in stale {
        is_stale[i] = true;
    }
    analysis.docs.retain(|d| !is_stale[d.source]);
    let mut at: FxMap<&str, u32> = FxMap::default();
    let mut added: Vec<Box<str>> = Vec::new();
    let known = analysis.vocab.len() as u32;
    for (t, term) in analysis.vocab.iter().enumerate() {
        at.insert(term, t as u32);
    }
    let mut new_docs = Vec::new();
    for (i, stamp, doc) in &again {
        analysis.files[*i].1 = *stamp;
        let Some((name, counts)) = doc else { continue };
        let counts = counts
            .iter()
            .map(|(t, n)| {
                let id = *at.entry(t.as_str()).or_insert_with(|| {
                    added.push(t.as_str().into());
                    known + added.len() as u32 - 1
                });
                (id, *n)
            })
            .collect();
        new_docs.push(DocCounts {
            name: name.clone(),
            file: analysis.files[*i].0.clone(),
            source: *i,
            counts,
        });
    }
    drop(at);
    analysis.vocab.extend(added);
    analysis.docs.extend(new_docs);
    analysis
}

/// Little-endian writer.
struct Out(Vec<u8>);

impl Out {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn stamp(&mut self, s: &Stamp) {
        self.u64(s.len);
        self.u64(s.mtime as u64);
        self.u64(s.ctime as u64);
        self.u64(s.ino);
        self.u64(s.dev);
        self.u32(s.mode);
    }
    fn entries(&mut self, entries: &[(String, Stamp)]) {
        self.u32(entries.len() as u32);
        for (p, s) in entries {
            self.str(p);
            self.stamp(s);
        }
    }
}

/// Only terms some document uses are stored, renumbered in order of
/// first use.
pub fn encode(key: &[u8; 32], dirs: &[(String, Stamp)], analysis: &Analysis) -> Vec<u8> {
    let mut used = vec![u32::MAX; analysis.vocab.len()];
    let mut vocab: Vec<&str> = Vec::new();
    for d in &analysis.docs {
        for &(t, _) in &d.counts {
            if used[t as usize] == u32::MAX {
                used[t as usize] = vocab.len() as u32;
                vocab.push(&analysis.vocab[t as usize]);
            }
        }
    }
    let mut o = Out(header(key));
    o.0.reserve(analysis.files.len() * 300);
    o.entries(dirs);
    o.entries(&analysis.files);
    o.u32(vocab.len() as u32);
    for t in vocab {
        o.str(t);
    }
    o.u32(analysis.docs.len() as u32);
    for d in &analysis.docs {
        o.u32(d.source as u32);
        o.str(&d.name);
        o.u32(d.counts.len() as u32);
        for &(t, n) in &d.counts {
            o.u32(used[t as usize]);
            o.u32(n);
        }
    }
    o.u32(analysis.name_only.len() as u32);
    for &i in &analysis.name_only {
        o.u32(i);
    }
    o.0
}

/// Little-endian reader; every read is bounds-checked.
struct In<'a>(&'a [u8]);

impl<'a> In<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    /// A count of items at least `min` bytes each: never more than the
    /// bytes left could hold.
    fn count(&mut self, min: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.checked_mul(min)? <= self.0.len()).then_some(n)
    }
    fn str(&mut self) -> Option<&'a str> {
        let n = self.u32()? as usize;
        std::str::from_utf8(self.take(n)?).ok()
    }
    fn stamp(&mut self) -> Option<Stamp> {
        Some(Stamp {
            len: self.u64()?,
            mtime: self.u64()? as i64,
            ctime: self.u64()? as i64,
            ino: self.u64()?,
            dev: self.u64()?,
            mode: self.u32()?,
        })
    }
    fn entries(&mut self) -> Option<Vec<(String, Stamp)>> {
        let n = self.count(4 + STAMP_BYTES)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push((self.str()?.to_string(), self.stamp()?));
        }
        Some(v)
    }
}

const STAMP_BYTES: usize = 44;

/// What every cache file for `key` starts with.
pub fn header(key: &[u8; 32]) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&FORMAT.to_le_bytes());
    h.extend_from_slice(key);
    h
}

pub fn decode(bytes: &[u8], key: &[u8; 32]) -> Option<Record> {
    let mut r = In(bytes);
    if r.take(MAGIC.len())? != MAGIC || r.u32()? != FORMAT || r.take(32)? != key {
        return None;
    }
    let dirs = r.entries()?;
    let files = r.entries()?;
    let n = r.count(4)?;
    let mut vocab: Vec<Box<str>> = Vec::with_capacity(n);
    for _ in 0..n {
        vocab.push(r.str()?.into());
    }
    let n = r.count(12)?;
    let mut docs = Vec::with_capacity(n);
    let mut seen = vec![false; files.len()];
    for _ in 0..n {
        let source = r.u32()? as usize;
        if std::mem::replace(seen.get_mut(source)?, true) {
            return None;
        }
        let name = r.str()?.to_string();
        let m = r.count(8)?;
        let mut counts = Vec::with_capacity(m);
        for _ in 0..m {
            let t = r.u32()?;
            if t as usize >= vocab.len() {
                return None;
            }
            counts.push((t, r.u32()?));
        }
        docs.push(DocCounts {
            name,
            file: files[source].0.clone(),
            source,
            counts,
        });
    }
    let n = r.count(4)?;
    let mut name_only = Vec::with_capacity(n);
    for _ in 0..n {
        let i = r.u32()?;
        if i as usize >= files.len() {
            return None;
        }
        name_only.push(i);
    }
    r.0.is_empty().then_some(Record {
        dirs,
        analysis: Analysis {
            files,
            vocab,
            docs,
            name_only,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::index::count_terms;

    fn stamp(t: i64) -> Stamp {
        Stamp {
            len: 1,
            mtime: t,
            ctime: t,
            ino: 1,
            dev: 1,
            mode: 0o644,
        }
    }

    #[test]
    fn stamps_too_close_to_the_build_are_never_trusted() {
        let s = stamp(10 * RACY_NANOS);
        assert_eq!(s.settled(11 * RACY_NANOS + 1), s);
        assert_eq!(s.settled(11 * RACY_NANOS), Stamp::NEVER);
        let changed = Stamp {
            ctime: 11 * RACY_NANOS,
            ..s
        };
        assert_eq!(changed.settled(12 * RACY_NANOS), Stamp::NEVER);
        let here = Stamper::new(Path::new(env!("CARGO_MANIFEST_DIR")));
        assert!(!here.holds("Cargo.toml", Stamp::NEVER));
        let now = here.stamp("Cargo.toml").expect("Cargo.toml");
        assert!(here.holds("Cargo.toml", now));
        assert!(here.stamp("no-such-file").is_none());
    }

    #[test]
    fn stamps_do_not_follow_symlinks_and_see_every_change() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), "one").unwrap();
        let s = Stamper::new(dir.path());
        let before = s.stamp("f").unwrap();
        std::fs::write(dir.path().join("f"), "two!").unwrap();
        assert_ne!(s.stamp("f").unwrap(), before, "size and times");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("f", dir.path().join("link")).unwrap();
            assert_ne!(s.stamp("link").unwrap(), s.stamp("f").unwrap());
        }
    }

    #[test]
    fn the_file_round_trips_and_a_cut_or_altered_one_does_not_decode() {
        let a = Analyzer::new("english", &[]).unwrap();
        let docs = vec![DocCounts {
            name: "pdf".to_string(),
            file: "skills/pdf/SKILL.md".to_string(),
            source: 0,
            counts: count_terms(&a, "pdf", "Extract tables from PDF files", 2),
        }];
        let (docs, mut vocab) = intern(docs);
        vocab.push("unused".into());
        let files = vec![
            ("skills/pdf/SKILL.md".to_string(), stamp(5)),
            ("skills/x/SKILL.md".to_string(), Stamp::NEVER),
        ];
        let analysis = Analysis {
            files,
            vocab,
            docs,
            name_only: vec![1],
        };
        let dirs = vec![(String::new(), stamp(3))];
        let key = [7u8; 32];
        let bytes = encode(&key, &dirs, &analysis);
        let r = decode(&bytes, &key).expect("decodes");
        assert_eq!(r.dirs, dirs);
        let back = &r.analysis;
        assert_eq!(back.files, analysis.files);
        assert_eq!(back.name_only, [1]);
        assert_eq!(back.ranking().name_only, ["skills/x/SKILL.md"]);
        assert_eq!(back.docs.len(), 1);
        assert_eq!(back.docs[0].name, "pdf");
        assert_eq!(back.docs[0].file, "skills/pdf/SKILL.md");
        assert!(
            !back.vocab.iter().any(|t| &**t == "unused"),
            "unused terms are dropped"
        );
        let words: Vec<&str> = back.docs[0]
            .counts
            .iter()
            .map(|&(t, _)| &*back.vocab[t as usize])
            .collect();
        let mut sorted = words.clone();
        sorted.sort_unstable();
        assert_eq!(words, sorted, "terms in text order");
        assert!(
            words.contains(&"pdf") && words.contains(&"tabl"),
            "{words:?}"
        );
        let (was, now) = (analysis.ranking(), back.ranking());
        assert_eq!(now.unroutable, vec!["skills/x/SKILL.md".to_string()]);
        assert_eq!(now.index.vector(0), was.index.vector(0), "bit for bit");

        assert!(decode(&bytes, &[8u8; 32]).is_none(), "another key");
        for cut in [0, 10, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode(&bytes[..cut], &key).is_none(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, &key).is_none(), "trailing bytes");
        // a huge count must not allocate
        let mut bad = bytes.clone();
        let at = MAGIC.len() + 4 + 32;
        bad[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode(&bad, &key).is_none());
        // a term id past the vocabulary, a document naming a missing file
        let tail = bytes.len() - 8;
        let mut bad = bytes.clone();
        bad[tail..tail + 4].copy_from_slice(&999u32.to_le_bytes());
        assert!(decode(&bad, &key).is_none());
    }
}
