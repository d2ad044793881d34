//! `skillsift cases`.

use crate::authoring::cases::*;
use crate::catalog::Catalog;
use crate::cli::{CasesArgs, Format as OutFormat};
use crate::commands::load_config;
use crate::diag::Severity;
use crate::exit::{Exit, Fatal};
use crate::report;
use std::io::Write;

/// `skillsift cases SKILL [ROOT]`.
pub fn run(args: &CasesArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    if !args.root.is_dir() {
        return Err(
            Fatal::usage(format!("{}: not a catalog folder", args.root.display())).with_help(
                "pass the folder that holds the skills (and evals/cases/, if it has one)",
            ),
        );
    }
    let config = load_config(&args.root, args.config.as_deref())?;
    let catalog = Catalog::load(&args.root, &config)?;
    if let Some(fatal) = crate::catalog::empty::nothing_found(&catalog, &config) {
        return Err(fatal);
    }
    if catalog.target != crate::catalog::Target::Catalog {
        return Err(Fatal::usage(format!(
            "{}: a single skill folder; pass the catalog folder that holds it",
            args.root.display()
        )));
    }
    let r = report(&catalog, &config, &args.skill)?;
    let written = match args.format {
        OutFormat::Json => report::cases::json(&r, out),
        _ => report::cases::human(&r, out),
    };
    written.map_err(report::write_error)?;
    Ok(
        if r.problems.iter().any(|d| d.severity == Severity::Error) {
            Exit::Failed
        } else {
            Exit::Ok
        },
    )
}
