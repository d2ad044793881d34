//! Reporters: every tier's diagnostics and summaries are rendered here, and
//! only here (checks never print).

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
pub(crate) use crate as report;
use base::{diag, escape, exit};
#[allow(clippy::single_component_path_imports)]
use {authoring, base, behave, catalog, client, config, lint, route, score};

pub mod cases;
pub mod change;
pub mod diff;
pub mod fuzz;
pub mod github;
pub mod html;
pub mod human;
pub mod init;
pub mod json;
pub mod junit;
pub mod listing;
pub mod rank;
pub mod sarif;
pub mod scored;
pub mod statistics;
pub mod tune;

use crate::base::Format;
use crate::catalog::SourceMap;
use crate::diag::{Diagnostic, Severity};
use crate::exit::Fatal;
use serde::Serialize;
use std::io::Write;

pub use crate::route::RouteSummary;

/// Counts for the closing summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// SKILL.md files found, whether or not they parsed.
    pub skills_checked: usize,
    pub errors: usize,
    pub warnings: usize,
    pub notices: usize,
    /// Present when Tier 2 ran.
    pub route: Option<RouteSummary>,
    /// The skills roots read (a catalog folder only).
    pub roots: Vec<crate::catalog::RootRead>,
    /// Against a findings baseline (`--baseline`): what it accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineSummary>,
    /// Lines the summary adds about what was not checked, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What a findings baseline accepted in this run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BaselineSummary {
    /// Findings not shown because the baseline lists them.
    pub known: usize,
    /// The baseline's findings that are gone (refresh the file).
    pub fixed: Vec<crate::route::baseline::Finding>,
}

impl Summary {
    pub fn count(&mut self, diags: &[Diagnostic]) {
        for d in diags {
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Notice => self.notices += 1,
            }
        }
    }
}

/// Everything a `check` run concluded.
#[derive(Debug)]
pub struct Outcome<'a> {
    /// Sorted diagnostics.
    pub diagnostics: &'a [Diagnostic],
    pub summary: &'a Summary,
    pub sources: &'a SourceMap,
    /// Prefix for file paths in GitHub annotations (the root as given on the
    /// command line); empty for none.
    pub path_prefix: &'a str,
    /// What was checked, for the formats that list passing checks too.
    pub checked: junit::Checked<'a>,
}

/// Render `outcome` in `format`.
pub fn render(format: Format, outcome: &Outcome, out: &mut dyn Write) -> Result<(), Fatal> {
    let r = match format {
        Format::Human => human::render(outcome, out),
        Format::Json => json::render(outcome, out),
        Format::Github => github::render(outcome, out),
        Format::Sarif => sarif::render(outcome, out),
        Format::Junit => junit::render(outcome, out),
    };
    r.map_err(write_error)
}

/// A write failure as a fatal error. A closed pipe (`skillsift … | head`)
/// is not an error: the reader has all it wanted, so the run ends quietly.
pub fn write_error(e: std::io::Error) -> Fatal {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return Fatal::new(crate::exit::Exit::Ok, "");
    }
    Fatal::usage(format!("cannot write output: {e}"))
}

/// Join the command-line root with a root-relative path for display.
pub fn display_path(prefix: &str, file: &str) -> String {
    let prefix = prefix.trim_end_matches('/');
    if prefix.is_empty() || prefix == "." {
        file.to_string()
    } else {
        format!("{prefix}/{file}")
    }
}
