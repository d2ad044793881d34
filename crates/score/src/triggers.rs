//! Trigger-set gates for description tuning (`skillsift score triggers FILE`).
//!
//! FILE is a JSON array of rows
//! `{"query", "should_trigger", "split": "train"|"validation"|"fresh",
//! "client"?, "invocation"?: "automatic"|"explicit", "runs": [bool, …]}`,
//! or with counts, `"triggers": 2, "runs": 3` (the shape agentskills.io's
//! trigger script writes; its other keys are ignored).
//!
//! - A row passes by majority: a should-trigger row at more than half of
//!   its runs (2 of 3), a should-not row at fewer than half (at most 1 of 3).
//! - Per client (rows without `client` form the client `default`): at
//!   least 9 of 10 rows pass on each side (should, should-not) over train
//!   plus validation, and at least 4 of 5 fresh rows pass. A side with no
//!   rows is not judged (unless `--final`).
//! - `--final`: a client also fails with fewer than 10 should or 10
//!   should-not rows in train plus validation, any row with fewer than 3
//!   runs, or fewer than 5 fresh rows.
//! - `--manual-only`: the skill must never load on its own: every automatic
//!   row must trigger in 0 of its runs and every explicit row in all of
//!   them; the client fails on any other row.
//! - `--hide-heldout`: query text is printed for train rows only;
//!   validation and fresh rows appear as counts.

use super::input::{MAX_FILE_BYTES, open_regular};
use super::trigger::case_passes;
use crate::base::Format;
use crate::catalog::cases::trigger_set;
use crate::catalog::json::{self, Kind, Value};
use crate::diag::LineIndex;
use crate::exit::Fatal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;

/// Which set a row belongs to: the case model's own type.
pub use crate::catalog::cases::Split;

/// How the prompt reached the skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Invocation {
    /// The model chose whether to load the skill.
    #[default]
    Automatic,
    /// The user named the skill.
    Explicit,
}

/// One validated row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub query: String,
    pub should_trigger: bool,
    pub split: Split,
    pub client: String,
    pub invocation: Invocation,
    pub triggers: u64,
    pub runs: u64,
    /// 1-based line of the row's opening `{`.
    pub line: usize,
}

/// The gate's settings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mode {
    pub final_gate: bool,
    pub manual_only: bool,
}

/// Whether one row passes.
pub fn row_passes(row: &Row, mode: Mode) -> bool {
    if mode.manual_only {
        match row.invocation {
            Invocation::Automatic => row.triggers == 0,
            Invocation::Explicit => row.triggers == row.runs,
        }
    } else {
        case_passes(row.should_trigger, row.triggers, row.runs)
    }
}

/// Rows passed out of rows judged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub passed: usize,
    pub total: usize,
}

impl Tally {
    fn add(&mut self, pass: bool) {
        self.total += 1;
        self.passed += usize::from(pass);
    }

    /// At least `num` of every `den` passed (vacuously true when empty).
    pub fn at_least(&self, num: usize, den: usize) -> bool {
        den * self.passed >= num * self.total
    }
}

/// A failing row as reported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    pub query: String,
    pub split: Split,
    pub should_trigger: bool,
    pub invocation: Invocation,
    pub triggers: u64,
    pub runs: u64,
    pub line: usize,
}

/// Rows of each split.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SplitCounts {
    pub train: usize,
    pub validation: usize,
    pub fresh: usize,
}

/// One client's gate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClientReport {
    pub client: String,
    pub passed: bool,
    pub rows: SplitCounts,
    /// Should-trigger rows of train plus validation.
    pub should: Tally,
    /// Should-not rows of train plus validation.
    pub should_not: Tally,
    /// Fresh rows, both sides.
    pub fresh: Tally,
    /// Every reason the client failed, in words.
    pub problems: Vec<String>,
    /// Failing rows whose text may be shown (all of them, or with
    /// `--hide-heldout` the train rows only), in file order.
    pub failures: Vec<Failure>,
    /// Failing rows held out from `failures`, by split.
    pub hidden_failures: SplitCounts,
}

/// The trigger-set report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TriggersReport {
    pub file: String,
    #[serde(rename = "final")]
    pub final_gate: bool,
    pub manual_only: bool,
    pub hide_heldout: bool,
    pub clients: Vec<ClientReport>,
    /// `pass` when every client passes.
    pub verdict: &'static str,
}

/// Read and validate the rows of FILE: a JSON array of rows, or
/// skill-creator's `run_eval.py` output (its `results`). Each problem is
/// reported at its `file:line:column`.
pub fn read_rows(path: &Path) -> Result<Vec<Row>, Fatal> {
    let shown = path.display();
    let mut text = String::new();
    open_regular(path, MAX_FILE_BYTES)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| Fatal::usage(format!("{shown}: cannot read as UTF-8 text: {e}")))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(Fatal::usage(format!(
            "{shown}: file is larger than {MAX_FILE_BYTES} bytes"
        )));
    }
    let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let index = LineIndex::new(body);
    let at = |offset: usize, m: &str| {
        let (l, c) = index.line_col(body, offset.min(body.len()));
        Fatal::usage(format!("{shown}:{l}:{c}: {m}")).with_help(FORMAT_HELP)
    };
    let limits = json::Limits {
        max_bytes: usize::MAX,
        ..json::Limits::default()
    };
    let tree = json::parse_with(body, limits).map_err(|e| at(e.offset, &e.message))?;
    let Some(items) = trigger_set::rows(&tree.root) else {
        return Err(at(
            tree.root.start,
            &format!(
                "a JSON {}, not an array of rows nor run_eval.py output ({{\"results\": […]}})",
                tree.root.type_name()
            ),
        ));
    };
    let mut rows = Vec::with_capacity(items.len());
    for (i, r) in items.iter().enumerate() {
        let what = format!("row {}", i + 1);
        if let Some(p) = trigger_set::row_problems(r, &what, "query")
            .into_iter()
            .next()
        {
            return Err(at(p.start, &p.message).with_help(p.help));
        }
        let (line, _) = index.line_col(body, r.start);
        let fail = |v: &Value, m: String| at(v.start, &format!("{what}: {m}"));
        let query = trigger_set::text_of(r)
            .and_then(Value::as_str)
            .unwrap_or_default();
        let should_trigger = matches!(
            r.get("should_trigger").map(|v| &v.kind),
            Some(Kind::Bool(true))
        );
        let split = r
            .get("split")
            .and_then(Value::as_str)
            .and_then(Split::parse)
            .unwrap_or(Split::Train);
        let Some(runs) = r.get("runs") else {
            return Err(fail(
                r,
                "no `runs`: this is a trigger set without results; run it first (skill-creator's run_eval.py, or check --behavioral), then score what that writes".into(),
            ));
        };
        let (triggers, runs) = match (&runs.kind, r.get("triggers")) {
            (Kind::Array(list), None) => {
                let mut t = 0;
                for v in list {
                    match v.kind {
                        Kind::Bool(b) => t += u64::from(b),
                        _ => {
                            return Err(fail(
                                v,
                                format!(
                                    "`runs` must hold only true or false, not {}",
                                    &body[v.start..v.end]
                                ),
                            ));
                        }
                    }
                }
                (t, list.len() as u64)
            }
            (Kind::Array(_), Some(t)) => {
                return Err(fail(
                    t,
                    "give either `runs` as a list of booleans or `triggers` and `runs` as counts, not both".into(),
                ));
            }
            (Kind::Number(_), Some(t)) => match (runs.as_u64(), t.as_u64()) {
                (Some(n), Some(t)) => (t, n),
                _ => {
                    return Err(fail(
                        runs,
                        "`triggers` and `runs` must be non-negative integers".into(),
                    ));
                }
            },
            (Kind::Number(_), None) => {
                return Err(fail(
                    runs,
                    "`runs` is a count, so `triggers` (how many runs loaded the skill) is needed too".into(),
                ));
            }
            _ => {
                return Err(fail(
                    runs,
                    format!(
                        "`runs` must be a list of booleans or a count, not {}",
                        &body[runs.start..runs.end]
                    ),
                ));
            }
        };
        if runs == 0 {
            return Err(fail(r, "the row has no runs".into()));
        }
        if triggers > runs {
            return Err(fail(
                r,
                format!("`triggers` ({triggers}) is more than `runs` ({runs})"),
            ));
        }
        let client = match r.get("client") {
            None => "default".to_string(),
            Some(c) => match c.as_str() {
                Some(s) if !s.trim().is_empty() => s.to_string(),
                Some(_) => return Err(fail(c, "`client` is empty".into())),
                None => return Err(fail(c, "`client` must be a string".into())),
            },
        };
        let invocation = match r.get("invocation") {
            None => Invocation::Automatic,
            Some(v) => match v.as_str() {
                Some("automatic") => Invocation::Automatic,
                Some("explicit") => Invocation::Explicit,
                _ => {
                    return Err(fail(
                        v,
                        "`invocation` must be \"automatic\" or \"explicit\"".into(),
                    ));
                }
            },
        };
        rows.push(Row {
            query: query.to_string(),
            should_trigger,
            split,
            client,
            invocation,
            triggers,
            runs,
            line: line as usize,
        });
    }
    Ok(rows)
}

/// What FILE holds, for the help of every refusal.
const FORMAT_HELP: &str = r#"FILE is a JSON array of {"query":"…","should_trigger":true|false,"split"?:"train"|"validation"|"fresh","client"?:"…","runs":[true,false,…]} (or "triggers":N,"runs":M), or skill-creator's run_eval.py output {"results":[…]}"#;

/// Judge every client.
pub fn evaluate(file: &str, rows: &[Row], mode: Mode, hide_heldout: bool) -> TriggersReport {
    let mut by_client: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by_client.entry(r.client.as_str()).or_default().push(r);
    }
    let clients: Vec<ClientReport> = by_client
        .into_iter()
        .map(|(client, rows)| judge(client, &rows, mode, hide_heldout))
        .collect();
    let verdict = if clients.iter().all(|c| c.passed) {
        "pass"
    } else {
        "fail"
    };
    TriggersReport {
        file: file.to_string(),
        final_gate: mode.final_gate,
        manual_only: mode.manual_only,
        hide_heldout,
        clients,
        verdict,
    }
}

fn judge(client: &str, rows: &[&Row], mode: Mode, hide_heldout: bool) -> ClientReport {
    let (mut should, mut should_not, mut fresh) =
        (Tally::default(), Tally::default(), Tally::default());
    let mut counts = SplitCounts::default();
    let mut hidden = SplitCounts::default();
    let mut failures = Vec::new();
    let mut any_failed = false;
    let mut short_runs = 0;
    for r in rows {
        let pass = row_passes(r, mode);
        any_failed |= !pass;
        if r.runs < 3 {
            short_runs += 1;
        }
        match r.split {
            Split::Train => counts.train += 1,
            Split::Validation => counts.validation += 1,
            Split::Fresh => counts.fresh += 1,
        }
        match (r.split, r.should_trigger) {
            (Split::Fresh, _) => fresh.add(pass),
            (_, true) => should.add(pass),
            (_, false) => should_not.add(pass),
        }
        if !pass {
            if hide_heldout && r.split != Split::Train {
                match r.split {
                    Split::Validation => hidden.validation += 1,
                    _ => hidden.fresh += 1,
                }
            } else {
                failures.push(Failure {
                    query: r.query.clone(),
                    split: r.split,
                    should_trigger: r.should_trigger,
                    invocation: r.invocation,
                    triggers: r.triggers,
                    runs: r.runs,
                    line: r.line,
                });
            }
        }
    }
    let mut problems = Vec::new();
    if mode.manual_only {
        if any_failed {
            problems.push(
                "--manual-only: an automatic row loaded the skill, or an explicit row did not load it in every run".to_string(),
            );
        }
    } else {
        if !should.at_least(9, 10) {
            problems.push(format!(
                "should-trigger rows (train + validation): {} of {} pass, fewer than 9 of 10",
                should.passed, should.total
            ));
        }
        if !should_not.at_least(9, 10) {
            problems.push(format!(
                "should-not rows (train + validation): {} of {} pass, fewer than 9 of 10",
                should_not.passed, should_not.total
            ));
        }
        if !fresh.at_least(4, 5) {
            problems.push(format!(
                "fresh rows: {} of {} pass, fewer than 4 of 5",
                fresh.passed, fresh.total
            ));
        }
    }
    if mode.final_gate {
        if should.total < 10 {
            problems.push(format!(
                "--final: {} should-trigger rows in train + validation, at least 10 needed",
                should.total
            ));
        }
        if should_not.total < 10 {
            problems.push(format!(
                "--final: {} should-not rows in train + validation, at least 10 needed",
                should_not.total
            ));
        }
        if short_runs > 0 {
            problems.push(format!(
                "--final: {short_runs} row(s) with fewer than 3 runs"
            ));
        }
        if fresh.total < 5 {
            problems.push(format!(
                "--final: {} fresh rows, at least 5 needed",
                fresh.total
            ));
        }
    }
    ClientReport {
        client: client.to_string(),
        passed: problems.is_empty(),
        rows: counts,
        should,
        should_not,
        fresh,
        problems,
        failures,
        hidden_failures: hidden,
    }
}

fn split_name(s: Split) -> &'static str {
    match s {
        Split::Train => "train",
        Split::Validation => "validation",
        Split::Fresh => "fresh",
    }
}

/// Render a trigger-set report as JSON or text.
pub fn render(r: &TriggersReport, format: Format, out: &mut dyn Write) -> std::io::Result<()> {
    if format == Format::Json {
        crate::escape::to_writer_pretty(&mut *out, r)?;
        return writeln!(out);
    }
    // untrusted text reaches the terminal escaped (crate::escape)
    let mut out = crate::escape::Writer::new(out);
    let out: &mut dyn Write = &mut out;
    let mut flags = Vec::new();
    if r.final_gate {
        flags.push("--final");
    }
    if r.manual_only {
        flags.push("--manual-only");
    }
    if r.hide_heldout {
        flags.push("--hide-heldout");
    }
    writeln!(
        out,
        "trigger set {}{}{}",
        r.file,
        if flags.is_empty() { "" } else { "  " },
        flags.join(" ")
    )?;
    for c in &r.clients {
        writeln!(out)?;
        writeln!(
            out,
            "client {}: {}",
            c.client,
            if c.passed { "PASS" } else { "FAIL" }
        )?;
        writeln!(
            out,
            "  rows         {} train, {} validation, {} fresh",
            c.rows.train, c.rows.validation, c.rows.fresh
        )?;
        writeln!(
            out,
            "  should       {}/{} pass (train + validation)",
            c.should.passed, c.should.total
        )?;
        writeln!(
            out,
            "  should not   {}/{} pass (train + validation)",
            c.should_not.passed, c.should_not.total
        )?;
        writeln!(
            out,
            "  fresh        {}/{} pass",
            c.fresh.passed, c.fresh.total
        )?;
        for p in &c.problems {
            writeln!(out, "  ✗ {p}")?;
        }
        if !c.failures.is_empty() {
            writeln!(out, "  failing rows:")?;
            for f in &c.failures {
                let side = match (f.invocation, f.should_trigger) {
                    (Invocation::Explicit, _) => "explicit",
                    (_, true) => "should",
                    (_, false) => "should not",
                };
                writeln!(
                    out,
                    "    line {:<4} {:<10} {:<10} {}/{}  {}",
                    f.line,
                    split_name(f.split),
                    side,
                    f.triggers,
                    f.runs,
                    serde_json::to_string(&f.query).unwrap_or_default()
                )?;
            }
        }
        let h = c.hidden_failures;
        if h.validation + h.fresh > 0 {
            writeln!(
                out,
                "  held out: {} validation and {} fresh row(s) fail (text hidden)",
                h.validation, h.fresh
            )?;
        }
    }
    let failed = r.clients.iter().filter(|c| !c.passed).count();
    writeln!(out)?;
    if failed == 0 {
        writeln!(out, "verdict pass: every client passed its gate")
    } else {
        writeln!(
            out,
            "verdict fail: {failed} of {} client(s) failed their gate",
            r.clients.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(should: bool, split: Split, triggers: u64, runs: u64) -> Row {
        Row {
            query: format!("q{triggers}{runs}"),
            should_trigger: should,
            split,
            client: "c".into(),
            invocation: Invocation::Automatic,
            triggers,
            runs,
            line: 1,
        }
    }

    fn judge_rows(rows: &[Row], mode: Mode) -> ClientReport {
        let refs: Vec<&Row> = rows.iter().collect();
        judge("c", &refs, mode, false)
    }

    #[test]
    fn nine_of_ten_passes_each_side_and_eight_of_ten_fails() {
        let mut rows: Vec<Row> = (0..9).map(|_| row(true, Split::Train, 2, 3)).collect();
        rows.push(row(true, Split::Validation, 1, 3));
        rows.extend((0..10).map(|_| row(false, Split::Train, 1, 3)));
        assert!(judge_rows(&rows, Mode::default()).passed);
        rows[0] = row(true, Split::Train, 1, 3);
        let c = judge_rows(&rows, Mode::default());
        assert!(!c.passed);
        assert_eq!(
            c.should,
            Tally {
                passed: 8,
                total: 10
            }
        );
    }

    #[test]
    fn fresh_needs_four_of_five() {
        let mut rows: Vec<Row> = (0..4).map(|_| row(true, Split::Fresh, 3, 3)).collect();
        rows.push(row(false, Split::Fresh, 2, 3));
        assert!(judge_rows(&rows, Mode::default()).passed);
        rows[0] = row(true, Split::Fresh, 0, 3);
        assert!(!judge_rows(&rows, Mode::default()).passed);
    }

    #[test]
    fn final_requires_counts_and_three_runs() {
        let mut rows: Vec<Row> = (0..10).map(|_| row(true, Split::Train, 3, 3)).collect();
        rows.extend((0..10).map(|_| row(false, Split::Validation, 0, 3)));
        rows.extend((0..5).map(|_| row(true, Split::Fresh, 3, 3)));
        let final_mode = Mode {
            final_gate: true,
            manual_only: false,
        };
        assert!(judge_rows(&rows, final_mode).passed);
        rows[0] = row(true, Split::Train, 2, 2);
        let c = judge_rows(&rows, final_mode);
        assert!(!c.passed);
        assert_eq!(c.problems, vec!["--final: 1 row(s) with fewer than 3 runs"]);
        rows.pop();
        rows[0] = row(true, Split::Train, 3, 3);
        let c = judge_rows(&rows, final_mode);
        assert_eq!(c.problems, vec!["--final: 4 fresh rows, at least 5 needed"]);
        assert!(judge_rows(&rows, Mode::default()).passed);
    }

    #[test]
    fn manual_only_requires_zero_automatic_and_all_explicit() {
        let mode = Mode {
            final_gate: false,
            manual_only: true,
        };
        let mut auto = row(false, Split::Train, 0, 3);
        let mut explicit = row(true, Split::Train, 3, 3);
        explicit.invocation = Invocation::Explicit;
        assert!(row_passes(&auto, mode) && row_passes(&explicit, mode));
        auto.triggers = 1;
        explicit.triggers = 2;
        assert!(!row_passes(&auto, mode) && !row_passes(&explicit, mode));
        // Without --manual-only, 1 of 3 on a should-not row passes.
        assert!(row_passes(&auto, Mode::default()));
        assert!(!judge_rows(&[auto], mode).passed);
    }

    #[test]
    fn hide_heldout_keeps_heldout_text_out() {
        let rows = [
            row(true, Split::Train, 0, 3),
            row(true, Split::Validation, 0, 3),
            row(false, Split::Fresh, 3, 3),
        ];
        let refs: Vec<&Row> = rows.iter().collect();
        let c = judge("c", &refs, Mode::default(), true);
        assert_eq!(c.failures.len(), 1);
        assert_eq!(c.failures[0].split, Split::Train);
        assert_eq!(
            c.hidden_failures,
            SplitCounts {
                train: 0,
                validation: 1,
                fresh: 1
            }
        );
    }
}
