//! Where a catalog keeps its trigger prompts and evals, found and read
//! once each: the loaders. The readers, one file per format, and the model
//! they read into are the `cases` crate, re-exported here
//! (`catalog::cases::TriggerCase`, `catalog::cases::detect`, …).
//!
//! - [`case_files`]: `evals/cases/<skill>.json` at the catalog root.
//! - [`scan`]: each skill's own folder (`evals/`, `trigger_tests.yaml`,
//!   `[cases] trigger-sets`, data files beside SKILL.md and under
//!   `tests/`).
//! - [`repo_level`]: per-skill files kept at the root (`evals/triggers/`,
//!   `evals/<skill>/`, `tests/<skill>/`).
//! - [`root`]: the root's own data files and its `evals/`, `tests/`,
//!   `test/`, read by shape.
//! - [`declared`]: `[[cases.sources]]`, read as declared.
//! - [`elsewhere`]: files named like trigger tests anywhere else, named
//!   (SG437), never routed.
//!
//! Loading reports only what stops a file from being read (SG400
//! unreadable, SG401 JSON and SG417 YAML syntax) and what is found but
//! cannot be routed (SG437, SG438); everything about a file's shape is a
//! Tier 1 rule over the tree kept in [`CaseFile::json`] or
//! [`CaseSource::tree`].

pub mod case_files;
pub mod declared;
pub mod elsewhere;
pub mod repo_level;
pub mod root;
pub mod scan;

pub use ::cases::*;

use crate::catalog::skill::Skill;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::rules::cases as case_rules;
use std::path::Path;

impl Named for Skill {
    fn name(&self) -> Option<&str> {
        Skill::name(self)
    }

    fn folder(&self) -> &str {
        &self.folder
    }

    fn listed_as(&self) -> Option<&str> {
        self.listed_as.as_deref()
    }
}

/// Everything the case loaders found.
#[derive(Debug, Default)]
pub struct Loaded {
    pub case_files: Vec<CaseFile>,
    pub sources: Vec<CaseSource>,
    pub suites: Vec<Suite>,
    pub diagnostics: Vec<Diagnostic>,
    /// A `[[cases.sources]]` declaration the data does not meet: the run
    /// stops with it (exit 2).
    pub fatal: Option<crate::exit::Fatal>,
}

/// Load every case file and every skill's own case sources, and merge them
/// into suites.
pub fn load_all(root: &Path, config: &Config, skills: &[Skill]) -> Loaded {
    load_all_listed(root, config, skills, None)
}

/// [`load_all`], with the folders the catalog walk already listed
/// ([`crate::catalog::discover::Found::listed`]), not listed again.
pub fn load_all_listed(
    root: &Path,
    config: &Config,
    skills: &[Skill],
    listed: Option<&crate::catalog::discover::Listed>,
) -> Loaded {
    let (case_files, mut diagnostics) = case_files::load_all(root, config);
    let (mut sources, scan_diags) = scan::load_all(root, config, skills);
    diagnostics.extend(scan_diags);
    let (repo, repo_diags) = repo_level::load_all(root, config, skills);
    sources.extend(repo);
    diagnostics.extend(repo_diags);
    // what the fixed layouts took is not read again by shape
    let mut taken: std::collections::HashSet<String> =
        repo_level::find(root).into_iter().map(|f| f.file).collect();
    taken.extend(case_files.iter().map(|c| c.file.clone()));
    // declared sources are read as declared, and by nothing else
    let declared_files = match declared::files_of(root, config) {
        Ok(f) => f,
        Err(e) => {
            return Loaded {
                fatal: Some(e),
                ..Loaded::default()
            };
        }
    };
    let declared_set: std::collections::HashSet<&String> =
        declared_files.iter().flatten().collect();
    taken.extend(declared_set.iter().map(|f| f.to_string()));
    let (shaped, shaped_diags) = root::load_root(root, config, skills, &taken);
    sources.extend(shaped);
    diagnostics.extend(shaped_diags);
    diagnostics.extend(elsewhere::unsearched(root, config, skills, &taken, listed));
    if !declared_set.is_empty() {
        sources.retain(|s| !declared_set.contains(&s.file));
        diagnostics.retain(|d| !declared_set.contains(&d.file));
        match declared::load_all(root, config, skills, &declared_files) {
            Ok((more, diags)) => {
                sources.extend(more);
                diagnostics.extend(diags);
            }
            Err(e) => {
                return Loaded {
                    fatal: Some(e),
                    ..Loaded::default()
                };
            }
        }
    }
    sources.sort_by(|a, b| a.file.cmp(&b.file));
    let suites = merge(skills, &case_files, &sources);
    Loaded {
        case_files,
        sources,
        suites,
        diagnostics,
        fatal: None,
    }
}

/// The cases in the skills' own folders only (a single skill folder has no
/// catalog-level `evals/cases/`).
pub fn load_own(root: &Path, config: &Config, skills: &[Skill]) -> Loaded {
    let (sources, diagnostics) = scan::load_all(root, config, skills);
    let suites = merge(skills, &[], &sources);
    Loaded {
        case_files: Vec::new(),
        sources,
        suites,
        diagnostics,
        fatal: None,
    }
}

/// Read at most `limit` bytes of the case source `file` (relative to the
/// catalog) at `path`, never leaving `boundary`: its bytes, or SG400.
pub(crate) fn read_source(
    boundary: &Path,
    path: &Path,
    file: &str,
    limit: u64,
) -> Result<Vec<u8>, Box<Diagnostic>> {
    if let Some(real) = super::outside_root(boundary, path) {
        return Err(Box::new(
            case_rules::UNREADABLE
                .diag(file, super::outside_message(&real))
                .with_help(super::OUTSIDE_HELP),
        ));
    }
    let d = match super::read_bounded(path, limit) {
        Ok(Some(b)) => return Ok(b),
        Ok(None) => case_rules::UNREADABLE
            .diag(
                file,
                format!(
                    "case file is {}, larger than {limit} bytes ([catalog] max-case-bytes), and was not parsed",
                    super::size_of(path)
                ),
            )
            .with_help("split the cases, or raise [catalog] max-case-bytes in skillsift.toml"),
        Err(e) => case_rules::UNREADABLE
            .diag(file, format!("cannot read case file: {e}"))
            .with_help(if e.kind() == std::io::ErrorKind::InvalidInput {
                "replace it with a regular file"
            } else {
                "fix the file's permissions"
            }),
    };
    Err(Box::new(d))
}
