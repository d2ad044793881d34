//! `check --statistics`: a count of findings per rule, most frequent
//! first, as ruff's `--statistics` prints it; and the same table at the
//! head of the human report when it holds more than [`LEAD_WITH_TABLE`]
//! findings, so the shape of a long report is seen before its first page.

use super::Outcome;
use crate::diag::Diagnostic;
use crate::lint::registry;
use std::io::Write;

/// More findings than this, and the human report opens with the table:
/// about two screens of miette reports (each takes five to ten lines).
pub const LEAD_WITH_TABLE: usize = 20;

/// One line per rule: count, id, severity, name and summary, sorted by
/// count (most first), then by id.
pub fn table(diags: &[Diagnostic]) -> Vec<String> {
    let mut counts: std::collections::BTreeMap<(&str, &str), usize> = Default::default();
    for d in diags {
        *counts.entry((d.rule, d.severity.as_str())).or_default() += 1;
    }
    let mut rows: Vec<((&str, &str), usize)> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let width = rows.first().map_or(1, |r| r.1.to_string().len());
    let named = |id: &str| registry::find(id).map_or(("", ""), |r| (r.name, r.summary));
    let name_width = rows
        .iter()
        .map(|((id, _), _)| named(id).0.len())
        .max()
        .unwrap_or(0);
    rows.into_iter()
        .map(|((id, severity), n)| {
            let (name, summary) = named(id);
            format!("{n:>width$}  {id:<6} {severity:<8} {name:<name_width$}  {summary}")
                .trim_end()
                .to_string()
        })
        .collect()
}

/// The table under its heading, then a blank line.
pub fn write_table(diags: &[Diagnostic], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{} {} by rule:",
        diags.len(),
        super::human::plural(diags.len(), "finding")
    )?;
    for line in table(diags) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)
}

/// `--statistics`: the table and the closing summary, without the
/// findings themselves.
pub fn render(o: &Outcome, out: &mut dyn Write) -> std::io::Result<()> {
    if !o.diagnostics.is_empty() {
        write_table(o.diagnostics, out)?;
    }
    super::human::summary(o.summary, o.diagnostics, out)
}
