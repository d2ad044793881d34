//! `skillsift report PATH -o FILE`: decide what PATH is, gather what the
//! other commands compute for it, and write one HTML file (see
//! [`crate::report::html`]).
//!
//! - a folder with `plan.json`: one Tier 3 iteration, with the other
//!   iterations of its results folder beside it;
//! - a folder of `iteration-N` folders: a skill's results, its latest
//!   iteration in detail;
//! - anything else: a catalog, checked as `skillsift check` checks it.
//!
//! The file is written whole or not at all (a temporary file in the same
//! folder, renamed). Links in it are relative to the file's folder.

use crate::behave::iteration::{self, Iteration};
use crate::cli::ReportArgs;
use crate::commands::{load_config, path_prefix, set_threads, settle, tier1};
use crate::exit::{Exit, Fatal};
use crate::report::html::{self, evals};
use crate::report::{Summary, write_error};
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// What PATH holds.
enum Kind {
    Catalog,
    /// An iteration folder.
    Iteration,
    /// A skill's results folder, with its iteration folders.
    Results(Vec<PathBuf>),
}

fn kind(path: &Path) -> Result<Kind, Fatal> {
    if !path.is_dir() {
        return Ok(Kind::Catalog);
    }
    if iteration::is_iteration(path) {
        return Ok(Kind::Iteration);
    }
    let found = iteration::list(path)?;
    if !found.is_empty() {
        return Ok(Kind::Results(found));
    }
    // `merge --across-clients`: one iteration per client below it
    let mut clients: Vec<String> = std::fs::read_dir(path)
        .map_err(|e| Fatal::usage(format!("{}: {e}", path.display())))?
        .filter_map(|e| e.ok())
        .filter(|e| iteration::is_iteration(&e.path()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if !clients.is_empty() {
        clients.sort();
        return Err(Fatal::usage(format!(
            "{}: holds one iteration per client ({}), as `merge --across-clients` writes; a report shows one client's iteration",
            path.display(),
            clients.join(", ")
        ))
        .with_help(format!(
            "pass one client's folder, e.g. {}; `skillsift score` on its cases.jsonl and observations.jsonl compares the clients",
            path.join(&clients[0]).display()
        )));
    }
    // evals/results itself: one folder per skill (real folders only: a
    // catalog's folder that is a link may lead anywhere, and is not listed)
    let skills: Vec<String> = std::fs::read_dir(path)
        .map_err(|e| Fatal::usage(format!("{}: {e}", path.display())))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| iteration::list(&e.path()).is_ok_and(|l| !l.is_empty()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if !skills.is_empty() {
        let mut skills = skills;
        skills.sort();
        return Err(Fatal::usage(format!(
            "{}: holds the results of {} skill{} ({}); a report is about one",
            path.display(),
            skills.len(),
            if skills.len() == 1 { "" } else { "s" },
            skills.join(", ")
        ))
        .with_help(format!(
            "pass one skill's folder, e.g. {}",
            path.join(&skills[0]).display()
        )));
    }
    Ok(Kind::Catalog)
}

pub fn run(args: &ReportArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    set_threads(args.threads)?;
    if !args.path.exists() {
        return Err(
            Fatal::usage(format!("{}: no such file or folder", args.path.display())).with_help(
                "pass a catalog, an iteration folder (evals/results/<skill>/iteration-N) or a skill's results folder",
            ),
        );
    }
    let to_stdout = args.output.as_os_str() == "-";
    let out_dir = if to_stdout {
        PathBuf::from(".")
    } else {
        match args.output.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }
    };
    let out_abs = out_dir.canonicalize().map_err(|e| {
        Fatal::usage(format!("{}: {e}", out_dir.display()))
            .with_help("write the report into a folder that exists")
    })?;
    let (html, what) = match kind(&args.path)? {
        Kind::Catalog => routing(args, &out_abs)?,
        Kind::Iteration => {
            let parent = args
                .path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let siblings = if iteration::number(&args.path).is_some() && parent.is_dir() {
                iteration::list(&parent).unwrap_or_default()
            } else {
                Vec::new()
            };
            let me = args.path.canonicalize().ok();
            let dirs: Vec<PathBuf> = if siblings.iter().any(|s| s.canonicalize().ok() == me) {
                siblings
            } else {
                vec![args.path.clone()]
            };
            let focus = dirs
                .iter()
                .position(|d| d.canonicalize().ok() == me)
                .unwrap_or(0);
            behavioral(args, &dirs, focus, &out_abs)?
        }
        Kind::Results(dirs) => {
            let last = dirs.len() - 1;
            behavioral(args, &dirs, last, &out_abs)?
        }
    };
    if to_stdout {
        out.write_all(html.as_bytes()).map_err(write_error)?;
        return Ok(Exit::Ok);
    }
    write_atomic(&args.output, html.as_bytes())?;
    writeln!(
        out,
        "wrote {}: {what} ({} bytes)",
        args.output.display(),
        html::thousands(html.len())
    )
    .map_err(write_error)?;
    Ok(Exit::Ok)
}

/// The routing page of a catalog, and what it is about.
fn routing(args: &ReportArgs, out_abs: &Path) -> Result<(String, String), Fatal> {
    let config = load_config(&args.path, args.config.as_deref())?;
    let (catalog, mut diagnostics) = tier1(&args.path, &config)?;
    if let Some(fatal) = crate::catalog::empty::nothing_found(&catalog, &config) {
        return Err(fatal);
    }
    let mut routed = crate::route::check(
        &catalog,
        &config,
        &crate::route::Opts {
            min_rank1: args.min_rank1,
            client: args.client,
            ..crate::route::Opts::default()
        },
    )?;
    diagnostics.append(&mut routed.diagnostics);
    let mut summary = Summary {
        skills_checked: catalog.skills.len(),
        route: routed.summary.clone(),
        ..Summary::default()
    };
    crate::lint::one_cause::fold_repeated_keys(&mut diagnostics);
    settle(&mut diagnostics, &mut summary, &config);
    let base = relative(out_abs, &catalog.root)?;
    let shown = path_prefix(&catalog, &args.path);
    let model = match crate::behave::routing::latest(&catalog.root) {
        Ok(m) => m,
        Err(e) => {
            eprintln!(
                "skillsift: left out of the report: {}",
                crate::escape::text(&e)
            );
            None
        }
    };
    let model_rel = model.as_ref().map(|(p, _)| {
        p.strip_prefix(&catalog.root)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/")
    });
    // `.` or `..` names no catalog: the folder's own name does
    let named = if shown.is_empty() || shown.split('/').all(|p| p == "." || p == "..") {
        catalog
            .root
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| ".".to_string())
    } else {
        shown.clone()
    };
    // --against REV: the change since REV, as `skillsift diff` shows it
    let against = match &args.against {
        Some(rev) => {
            let folder = if args.path.is_dir() {
                args.path.clone()
            } else {
                args.path
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_default()
            };
            let folder = if folder.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                folder
            };
            Some((
                rev.as_str(),
                super::diff::against(&folder, rev, args.config.as_deref(), args.client)?,
            ))
        }
        None => None,
    };
    let change = against
        .as_ref()
        .map(|(rev, a)| crate::report::change::Compared {
            rev,
            commit: &a.commit,
            client: a.client.label(),
            diff: &a.diff,
        });
    let html = html::routing(&html::Routing {
        change: change.as_ref(),
        shown_root: &named,
        catalog: &catalog,
        routed: &routed,
        diagnostics: &diagnostics,
        summary: &summary,
        config: &config,
        link_base: &base,
        model: model
            .as_ref()
            .zip(model_rel.as_deref())
            .map(|((_, doc), rel)| (doc, rel)),
    });
    Ok((
        html,
        format!(
            "routing report of {}",
            html::count_of(catalog.skills.len(), "skill")
        ),
    ))
}

/// The behavioral page of `dirs[focus]` beside the other iterations.
fn behavioral(
    args: &ReportArgs,
    dirs: &[PathBuf],
    focus: usize,
    out_abs: &Path,
) -> Result<(String, String), Fatal> {
    let mut history: Vec<Iteration> = Vec::with_capacity(dirs.len());
    let mut at = 0;
    for (i, d) in dirs.iter().enumerate() {
        match iteration::load(d, args.gates.into()) {
            Ok(it) => {
                if i == focus {
                    at = history.len();
                }
                history.push(it);
            }
            // the one asked for must be readable; others are left out, said so
            Err(e) if i == focus => return Err(e),
            Err(e) => eprintln!(
                "skillsift: left out of the report: {}",
                crate::escape::text(&e.message)
            ),
        }
    }
    let it = &history[at];
    let steps: Vec<evals::Steps> = it
        .runs
        .iter()
        .map(|r| evals::steps(iteration::trace(it, r)))
        .collect();
    let base = relative(out_abs, &it.dir)?;
    let shown = args.path.display().to_string();
    let html = html::behavioral(&html::Behavioral {
        shown: &shown,
        history: &history,
        focus: at,
        steps: &steps,
        link_base: &base,
    });
    Ok((
        html,
        format!(
            "behavioral report of {} ({} run{})",
            it.plan.skill.name,
            it.runs.len(),
            if it.runs.len() == 1 { "" } else { "s" }
        ),
    ))
}

/// `to` relative to the folder `from` (both made absolute), `/`-separated.
fn relative(from: &Path, to: &Path) -> Result<String, Fatal> {
    let to = to
        .canonicalize()
        .map_err(|e| Fatal::usage(format!("{}: {e}", to.display())))?;
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".into(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(parts.join("/"))
}

/// Write `bytes` to `path` whole: a temporary file beside it, renamed.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Fatal> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail = |e: std::io::Error| Fatal::usage(format!("{}: {e}", path.display()));
    let mut tmp = tempfile::Builder::new()
        .prefix(".skillsift-report-")
        .tempfile_in(dir)
        .map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // a report is for reading: as a file written with the usual umask
        let _ = tmp
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644));
    }
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_then_descend() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::create_dir_all(root.join("c")).unwrap();
        assert_eq!(
            relative(&root.join("a/b"), &root.join("c")).unwrap(),
            "../../c"
        );
        assert_eq!(relative(&root, &root.join("a/b")).unwrap(), "a/b");
        assert_eq!(relative(&root.join("c"), &root.join("c")).unwrap(), "");
    }
}
