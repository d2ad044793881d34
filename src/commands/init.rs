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
    if let Some(fatal) = crate::catalog::empty::nothing_found(&catalog, &config) {
        return Err(fatal);
    }
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
/// replacing anything and never writing outside the catalog: its folders
/// are made one at a time, none through a link that leaves the catalog
/// (`confine`), so a refusal means nothing was created.
fn write_new(catalog: &Catalog, file: &str, content: &str) -> Result<(), Fatal> {
    let root = base::confine::Root::new(&catalog.root).map_err(|r| r.fatal())?;
    root.write(std::path::Path::new(file), content.as_bytes(), true)
        .map(|_| ())
        .map_err(|r| match r.why {
            base::confine::Why::Exists => Fatal::usage(format!(
                "{} exists; init never overwrites",
                root.shown(std::path::Path::new(file)).display()
            ))
            .with_help("edit it, or move it away to start over"),
            _ => r.fatal(),
        })
}
