//! `skillsift cases SKILL [ROOT]`: every trigger prompt and eval skillsift
//! found for a skill, the file, line and column each comes from, and the
//! files in the skill's folder it looked at and did not read.

use crate::catalog::cases::{Eval, Format, Side, TriggerCase};
use crate::catalog::{Catalog, cases};
use crate::diag::{Diagnostic, sort_diagnostics};
use crate::exit::Fatal;
use serde::Serialize;

/// The skill the report is about.
#[derive(Debug, Clone, Serialize)]
pub struct SkillRef {
    pub name: String,
    /// Its SKILL.md, relative to the catalog root.
    pub file: String,
}

/// One file looked at.
#[derive(Debug, Clone, Serialize)]
pub struct FileRow {
    pub file: String,
    /// `case file`, `evals.json`, `trigger set`, `waza trigger tests`,
    /// `trigger results`, `not a case format`.
    pub format: &'static str,
    /// Whether its cases are in the suite.
    pub read: bool,
    /// Why it is not read, or what went wrong reading it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub positive: usize,
    pub negative: usize,
    pub drafts: usize,
    pub evals: usize,
}

/// One trigger prompt.
#[derive(Debug, Clone, Serialize)]
pub struct TriggerRow {
    pub prompt: String,
    pub side: Side,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub draft: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_k: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The reader that found it (`case file`, `trigger set`, …), or for a
    /// prompt found by shape the fields it was read from.
    pub found_by: String,
    /// What said which skill it belongs to (`` `expected_skill` ``, "the
    /// skill folder holding the file", "the case file's name").
    pub owner_from: String,
    /// What said whether it should trigger (`` `should_trigger` ``, "the
    /// list `negatives` it stands in").
    pub side_from: String,
}

/// One expectation of an eval.
#[derive(Debug, Clone, Serialize)]
pub struct ExpectationRow {
    pub text: String,
    /// `blocker` or `quality`.
    pub kind: &'static str,
    /// The deterministic check's name, when skillsift checks it itself
    /// (else the grader does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<&'static str>,
    /// A `command` check's program and arguments, as it will run in the
    /// workspace on this machine, and its time limit in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command_timeout_secs: Option<u64>,
    pub line: u32,
    pub column: u32,
}

/// One eval.
#[derive(Debug, Clone, Serialize)]
pub struct EvalRow {
    pub id: String,
    pub kind: &'static str,
    pub prompt: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_output: Option<String>,
    /// `files[]` as written.
    pub files: Vec<String>,
    /// What they are relative to (`evals/fixtures/`, or the skill folder).
    pub files_relative_to: String,
    pub expectations: Vec<ExpectationRow>,
}

/// What `skillsift cases` found.
#[derive(Debug, Clone, Serialize)]
pub struct CasesReport {
    pub skill: SkillRef,
    /// Every file looked at: the suite's, then the others in the skill's
    /// folder, by path.
    pub files: Vec<FileRow>,
    pub positive: Vec<TriggerRow>,
    pub negative: Vec<TriggerRow>,
    pub drafts: Vec<TriggerRow>,
    pub evals: Vec<EvalRow>,
    /// Where it looked, for a skill with no cases at all.
    pub looked_in: Vec<String>,
    /// Findings in those files (`skillsift check` shows each in full).
    #[serde(skip)]
    pub problems: Vec<Diagnostic>,
}

fn trigger_row(t: &TriggerCase, catalog: &Catalog) -> TriggerRow {
    let found_by = match &t.shape {
        Some(shape) if shape.starts_with("declared ") => shape.clone(),
        Some(shape) => format!("shape: {shape}"),
        None => catalog
            .case_sources
            .iter()
            .find(|c| c.file == t.file)
            .map_or(Format::CaseFile, |c| c.format)
            .as_str()
            .to_string(),
    };
    TriggerRow {
        prompt: t.prompt.value.clone(),
        side: t.side,
        file: t.file.clone(),
        line: t.prompt.span.line,
        column: t.prompt.span.col,
        draft: t.draft,
        top_k: t.top_k,
        owner: t.owner.as_ref().map(|o| o.value.clone()),
        split: t.split.map(|s| s.as_str()),
        reason: t.reason.clone(),
        found_by,
        owner_from: t.decided.owner.clone(),
        side_from: t.decided.side.clone(),
    }
}

fn eval_row(e: &Eval) -> EvalRow {
    EvalRow {
        id: e.id.value.clone(),
        kind: e.kind.as_str(),
        prompt: e.prompt.value.clone(),
        file: e.file.clone(),
        line: e.span.line,
        column: e.span.col,
        expected_output: e.expected_output.as_ref().map(|o| o.value.clone()),
        files: e.files.iter().map(|f| f.value.clone()).collect(),
        files_relative_to: e.base.shown(),
        expectations: e
            .expectations
            .iter()
            .map(|x| ExpectationRow {
                text: x.text.clone(),
                kind: x.kind.as_str(),
                check: x.check.as_ref().map(|c| c.name()),
                command: match &x.check {
                    Some(crate::catalog::cases::expectation::Check::Command { argv, .. }) => {
                        Some(argv.clone())
                    }
                    _ => None,
                },
                command_timeout_secs: match &x.check {
                    Some(crate::catalog::cases::expectation::Check::Command {
                        timeout_secs,
                        ..
                    }) => Some(
                        timeout_secs
                            .unwrap_or(crate::catalog::cases::expectation::DEFAULT_COMMAND_SECS),
                    ),
                    _ => None,
                },
                line: x.span.line,
                column: x.span.col,
            })
            .collect(),
    }
}

/// Build the report for skill `name` of a loaded catalog.
pub fn report(
    catalog: &Catalog,
    config: &crate::config::Config,
    name: &str,
) -> Result<CasesReport, Fatal> {
    let index = catalog.require_skill(name)?;
    let skill = &catalog.skills[index];
    let key = cases::skill_key(skill).to_string();
    let suite = catalog.suite_of(index);
    let mut files: Vec<FileRow> = Vec::new();
    if let Some(s) = suite {
        for f in &s.files {
            let count = |list: &[TriggerCase]| list.iter().filter(|t| &t.file == f).count();
            let src = catalog.case_sources.iter().find(|c| &c.file == f);
            files.push(FileRow {
                file: f.clone(),
                format: src.map_or(Format::CaseFile, |c| c.format).as_str(),
                read: true,
                note: None,
                positive: count(&s.positive),
                negative: count(&s.negative),
                drafts: count(&s.drafts),
                evals: s.evals.iter().filter(|e| &e.file == f).count(),
            });
        }
    }
    let others: Vec<&cases::CaseSource> = catalog
        .case_sources
        .iter()
        .filter(|c| c.skill == index && !files.iter().any(|f| f.file == c.file))
        .collect();
    for src in others {
        files.push(FileRow {
            file: src.file.clone(),
            format: src.format.as_str(),
            read: false,
            note: src.note.clone(),
            positive: 0,
            negative: 0,
            drafts: 0,
            evals: 0,
        });
    }
    let looked_in = if files.is_empty() {
        let own = |p: &str| crate::catalog::discover::join_rel(&skill.rel_dir, p);
        vec![
            format!("{}/{key}.json", cases::CASES_DIR),
            format!("evals/{key}/trigger-eval.json"),
            format!("evals/triggers/{key}.json"),
            format!("tests/{key}/trigger_tests.yaml"),
            own("evals/**/*.json"),
            own("trigger_tests.yaml"),
            own("tests/trigger_tests.yaml"),
            format!(
                "trigger tests found by shape in {}, {}, {} and at the root, in evals/, tests/ and test/ (JSON, JSONL, YAML)",
                own("evals/"),
                own("tests/"),
                own("*")
            ),
        ]
    } else {
        Vec::new()
    };
    let mut problems: Vec<Diagnostic> = catalog
        .diagnostics
        .iter()
        .cloned()
        .chain(crate::lint::run(catalog, config))
        .filter(|d| {
            files.iter().any(|f| f.file == d.file)
                || (d.file == skill.file && d.rule.starts_with("SG4"))
        })
        .collect();
    crate::lint::apply_levels(&mut problems, config);
    sort_diagnostics(&mut problems);
    let rows = |list: &[TriggerCase]| {
        list.iter()
            .map(|t| trigger_row(t, catalog))
            .collect::<Vec<_>>()
    };
    Ok(CasesReport {
        skill: SkillRef {
            name: key,
            file: skill.file.clone(),
        },
        positive: suite.map(|s| rows(&s.positive)).unwrap_or_default(),
        negative: suite.map(|s| rows(&s.negative)).unwrap_or_default(),
        drafts: suite.map(|s| rows(&s.drafts)).unwrap_or_default(),
        evals: suite
            .map(|s| s.evals.iter().map(eval_row).collect())
            .unwrap_or_default(),
        files,
        looked_in,
        problems,
    })
}
