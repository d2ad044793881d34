//! `skillsift init`.

use crate::authoring::init::*;
use crate::catalog::{Catalog, Target};
use crate::cli::{Format as OutFormat, InitArgs};
use crate::commands::load_config;
use crate::exit::{Exit, Fatal};
use crate::report;
use std::io::Write;

/// `skillsift init SKILL [ROOT]`.
pub fn run(args: &InitArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    if !args.root.is_dir() {
        return Err(
            Fatal::usage(format!("{}: not a catalog folder", args.root.display()))
                .with_help("pass the folder that holds the skills"),
        );
    }
    let config = load_config(&args.root, args.config.as_deref())?;
    let catalog = Catalog::load(&args.root, &config)?;
    if catalog.target != Target::Catalog {
        return Err(Fatal::usage(format!(
            "{}: a single skill folder; pass the catalog folder that holds it (negatives come from its other skills)",
            args.root.display()
        )));
    }
    let mut r = plan(&catalog, &config, &args.skill)?;
    if !args.dry_run {
        write_new(&catalog, &r.file, &r.content)?;
        r.written = true;
    }
    let written = match args.format {
        OutFormat::Json => report::init::json(&r, out),
        _ => report::init::human(&r, out),
    };
    written.map_err(report::write_error)?;
    Ok(Exit::Ok)
}

/// Create `file` (relative to the catalog root) with `content`, never
/// replacing anything and never writing outside the catalog.
fn write_new(catalog: &Catalog, file: &str, content: &str) -> Result<(), Fatal> {
    let path = catalog.root.join(file);
    let shown = path.display();
    if std::fs::symlink_metadata(&path).is_ok() {
        return Err(
            Fatal::usage(format!("{shown} exists; init never overwrites"))
                .with_help("edit it, or move it away to start over"),
        );
    }
    let parent = path.parent().unwrap_or(&catalog.root);
    std::fs::create_dir_all(parent).map_err(|e| {
        Fatal::usage(format!(
            "{}: cannot create the folder: {e}",
            parent.display()
        ))
    })?;
    let boundary = catalog
        .root
        .canonicalize()
        .unwrap_or_else(|_| catalog.root.clone());
    if let Some(real) = crate::catalog::outside_root(&boundary, parent) {
        return Err(Fatal::usage(format!(
            "{}: leads outside the catalog (to {}); nothing was written",
            parent.display(),
            real.display()
        )));
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                Fatal::usage(format!("{shown} exists; init never overwrites"))
            } else {
                Fatal::usage(format!("{shown}: cannot create: {e}"))
            }
        })?;
    f.write_all(content.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| Fatal::usage(format!("{shown}: cannot write: {e}")))
}
