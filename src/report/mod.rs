//! Reporters: every tier's diagnostics and summaries are rendered here, and
//! only here (checks never print).

pub mod cases;
pub mod cmd;
pub mod github;
pub mod html;
pub mod human;
pub mod init;
pub mod json;
pub mod junit;
pub mod listing;
pub mod rank;
pub mod sarif;

use crate::catalog::SourceMap;
use crate::cli::Format;
use crate::diag::{Diagnostic, Severity};
use crate::exit::Fatal;
use serde::Serialize;
use std::io::Write;

/// Tier 2 figures shown in the summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RouteSummary {
    /// Positive prompts whose skill ranks strictly first.
    pub rank1: usize,
    /// Positive prompts whose skill ranks within the top 3, tied skills
    /// counted ahead of it.
    pub top3: usize,
    /// Positive prompts whose skill ties for first (counted as misses in
    /// `rank1`: the model has no reason to prefer it).
    pub tied_first: usize,
    /// Trigger prompts marked `"lexical": false` (a paraphrase or another
    /// language lexical routing cannot match): expected, not ranked, not in
    /// `positives`.
    pub not_lexical: usize,
    /// Positive prompts checked.
    pub positives: usize,
    /// Trigger checks (positive, negative, owner) that passed.
    pub checks_passed: usize,
    /// Trigger checks run.
    pub checks: usize,
    /// The rank-1 floor in percent, when one was set.
    pub min_rank1: Option<f64>,
    /// Skills in the routing index.
    pub skills_routed: usize,
    /// Skills the client does not list (the strict reading: no name or
    /// description), by file.
    pub unroutable: Vec<String>,
    /// Whose listing was routed (`[route] client`, `--client`).
    pub client: Option<crate::client::ClientId>,
}

impl RouteSummary {
    /// Rank-1 rate in whole percent, rounded as the original scripts do.
    pub fn rank1_percent(&self) -> Option<u64> {
        (self.positives > 0)
            .then(|| (100.0 * self.rank1 as f64 / self.positives as f64).round() as u64)
    }
}

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

/// A write failure as a fatal error. A closed pipe (`skillgate … | head`)
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
