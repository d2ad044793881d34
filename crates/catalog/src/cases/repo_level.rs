//! Case sources a catalog keeps at its root, one file per skill, named for
//! the skill by the layout:
//!
//! | layout | format | skill |
//! | --- | --- | --- |
//! | `evals/<skill>/trigger-eval.json` | trigger set (skill-creator) | the folder |
//! | `evals/triggers/<skill>.json` | trigger set (skill-creator) | the file stem |
//! | `tests/<skill>/trigger_tests.yaml` (`.yml`) | waza / sensei | the folder |
//! | `evals/<skill>/evals.json`, `tests/<skill>/evals.json` | skill-creator evals (its `files` relative to the skill's folder, as in the skill's own `evals/`) | the folder |
//!
//! The name is matched like a case file's: a skill's frontmatter `name`,
//! else its folder. A file whose name matches no skill is SG436 (its
//! prompts test nothing); each file found is read, bounded and parsed
//! exactly like the same format in a skill's folder, and belongs to the
//! skill's suite.

use super::scan::{self, MAX_EVALS_ENTRIES};
use super::{CaseSource, Format, SkillNames};
use crate::catalog::skill::Skill;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::rules::repo_level::UNKNOWN_SKILL_FILE;
use std::path::Path;

/// A file of one of the layouts: its path (relative to the catalog root),
/// the skill it is named for, its format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub file: String,
    pub skill: String,
    pub format: Format,
}

/// Folder names under the root's `evals/` that are not skills.
const NOT_SKILLS: &[&str] = &["cases", "fixtures", "results", "files", "triggers"];

/// The names of the entries of `dir` (sorted, at most
/// [`MAX_EVALS_ENTRIES`]), with whether each is a folder; empty when `dir`
/// is not a folder, or leads out of the catalog (`boundary`, canonical):
/// nothing outside is listed, whatever links say.
fn entries(boundary: &Path, dir: &Path) -> Vec<(String, bool)> {
    if crate::catalog::outside_root(boundary, dir).is_some() {
        return Vec::new();
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<(String, bool)> = rd
        .filter_map(Result::ok)
        .take(MAX_EVALS_ENTRIES)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let is_dir = e.path().is_dir();
            (!name.starts_with('.')).then_some((name, is_dir))
        })
        .collect();
    v.sort();
    v
}

/// Every file of the three layouts under `root`, sorted by path.
pub fn find(root: &Path) -> Vec<Found> {
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut out = Vec::new();
    for (name, is_dir) in entries(&boundary, &root.join("evals")) {
        if !is_dir || NOT_SKILLS.contains(&name.as_str()) {
            continue;
        }
        for (f, format) in [
            ("trigger-eval.json", Format::TriggerSet),
            (super::evals_json::NAME, Format::EvalsJson),
        ] {
            let file = format!("evals/{name}/{f}");
            if root.join(&file).is_file() {
                out.push(Found {
                    file,
                    skill: name.clone(),
                    format,
                });
            }
        }
    }
    for (name, is_dir) in entries(&boundary, &root.join("evals/triggers")) {
        if let Some(stem) = name.strip_suffix(".json").filter(|_| !is_dir) {
            out.push(Found {
                file: format!("evals/triggers/{name}"),
                skill: stem.to_string(),
                format: Format::TriggerSet,
            });
        }
    }
    for (name, is_dir) in entries(&boundary, &root.join("tests")) {
        if !is_dir {
            continue;
        }
        for (f, format) in [
            ("trigger_tests.yaml", Format::Waza),
            ("trigger_tests.yml", Format::Waza),
            (super::evals_json::NAME, Format::EvalsJson),
        ] {
            let file = format!("tests/{name}/{f}");
            if root.join(&file).is_file() {
                out.push(Found {
                    file,
                    skill: name.clone(),
                    format,
                });
            }
        }
    }
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

/// The file of skill `skill` in the layout of `file` (a path [`find`]
/// finds, relative to the root), with its format: how `init` writes a new
/// skill's prompts where the catalog keeps the others'.
pub fn path_for(file: &str, skill: &str) -> Option<(String, Format)> {
    let parts: Vec<&str> = file.split('/').collect();
    match parts.as_slice() {
        ["evals", "triggers", _] => {
            Some((format!("evals/triggers/{skill}.json"), Format::TriggerSet))
        }
        ["evals", _, "trigger-eval.json"] => Some((
            format!("evals/{skill}/trigger-eval.json"),
            Format::TriggerSet,
        )),
        ["tests", _, f] if f.starts_with("trigger_tests.") => {
            Some((format!("tests/{skill}/{f}"), Format::Waza))
        }
        _ => None,
    }
}

/// Read every file [`find`] finds, as the case sources of the skills they
/// are named for; SG436 for a file named for no skill.
pub fn load_all(
    root: &Path,
    config: &Config,
    skills: &[Skill],
) -> (Vec<CaseSource>, Vec<Diagnostic>) {
    let boundary = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let ignore = scan::globs(&config.cases.ignore).unwrap_or_default();
    let names = SkillNames::new(skills);
    let mut sources = Vec::new();
    let mut diags = Vec::new();
    for f in find(root) {
        if ignore.is_match(&f.file) {
            continue;
        }
        let Some(i) = names.get(&f.skill) else {
            diags.push(
                UNKNOWN_SKILL_FILE
                    .diag(
                        &f.file,
                        format!(
                            "this file holds the cases of skill `{}`, but the catalog has no skill of that name or folder; its prompts were not checked",
                            f.skill
                        ),
                    )
                    .with_help(format!(
                        "rename the {} to the skill's `name`, or remove the file if the skill is gone",
                        if f.file.starts_with("evals/triggers/") {
                            "file"
                        } else {
                            "folder"
                        }
                    )),
            );
            continue;
        };
        let skill = &skills[i];
        match super::read_source(
            &boundary,
            &root.join(&f.file),
            &f.file,
            config.catalog.max_case_bytes,
        ) {
            Ok(bytes) => {
                let (s, d) = scan::parse_at(
                    i,
                    skill,
                    &f.file,
                    &f.file,
                    Some(f.format),
                    bytes,
                    config.catalog.max_case_bytes,
                );
                let (mut s, more) =
                    super::read::by_shape(CaseSource { at_root: true, ..s }, &names);
                // kept at the root: the skill comes from the file's name or
                // folder, not from a skill folder holding it
                let owner = match f.file.strip_prefix("evals/triggers/") {
                    Some(name) => format!("the file name `{name}` at the catalog root"),
                    None => format!(
                        "the folder `{}/` at the catalog root",
                        f.file.rsplit_once('/').map_or("", |(d, _)| d)
                    ),
                };
                for t in s.iter_mut().flat_map(|s| &mut s.triggers) {
                    if t.decided.owner == super::IN_SKILL_FOLDER {
                        t.decided.owner.clone_from(&owner);
                    }
                }
                sources.extend(s);
                diags.extend(d);
                diags.extend(more);
            }
            Err(d) => diags.push(*d),
        }
    }
    (sources, diags)
}
