//! The cases of a plan, in order: the suite's trigger prompts, then its
//! evals. An eval that cannot be run or graded as written is refused here:
//! an id that cannot name a results folder, no expectations, a check on
//! what the runner or the client does not report, an execution eval without
//! fixtures or with one leading out of its folder; so are two cases sharing
//! an id.

use super::Ctx;
use crate::behave::plan::{Case, CaseDoc, CaseKind, ExpectationDoc, safe_id};
use crate::behave::workspace::Tree;
use crate::catalog::cases::{Check, Eval, EvalKind, FixtureBase, Suite};
use crate::exit::Fatal;
use std::sync::Arc;

/// The plan's cases: the trigger prompts (none when the skill is appended
/// to the system prompt), then one case per eval, each id used once.
pub(super) fn cases(cx: &Ctx) -> Result<Vec<Case>, Fatal> {
    let mut cases = if cx.append {
        Vec::new()
    } else {
        trigger_cases(cx.suite)
    };
    for e in &cx.suite.evals {
        cases.push(eval_case(cx, e)?);
    }
    refuse_shared_ids(&cases, cx.suite)?;
    Ok(cases)
}

/// The suite's positive, then negative trigger prompts as cases, each id
/// numbered by its prompt's place in its list.
fn trigger_cases(suite: &Suite) -> Vec<Case> {
    let mut cases = Vec::new();
    for (kind, list, expect) in [
        ("positive", &suite.positive, true),
        ("negative", &suite.negative, false),
    ] {
        for (i, t) in list.iter().enumerate() {
            // a negative whose `with` names this skill may load it: no
            // forbidden load, no theft (the id keeps its position)
            if !expect && t.with.iter().any(|w| w.value == suite.name) {
                continue;
            }
            cases.push(trigger_case(format!("{kind}-{}", i + 1), t, expect, None));
        }
    }
    cases
}

/// A trigger prompt as a case of the plan.
pub(super) fn trigger_case(
    id: String,
    t: &crate::catalog::cases::TriggerCase,
    expect_trigger: bool,
    owner: Option<String>,
) -> Case {
    Case {
        doc: CaseDoc {
            id,
            kind: CaseKind::Trigger,
            prompt: t.prompt.value.clone(),
            expect_trigger,
            eval_id: None,
            expected_output: String::new(),
            expectations: Vec::new(),
            files: Vec::new(),
            fixtures_sha256: None,
            split: t.split.map(|s| s.as_str().to_string()),
            origin: Some(origin(&t.file, t.prompt.span)),
            owner,
        },
        fixtures: None,
    }
}

/// Eval `e` as a case, once it is found runnable: an execution eval with
/// its fixtures read; the skill expected to load unless an expectation
/// forbids the skill under test.
fn eval_case(cx: &Ctx, e: &Eval) -> Result<Case, Fatal> {
    refuse_unrunnable(cx, e)?;
    let (kind, fixtures) = match e.kind {
        EvalKind::Dialogue => (CaseKind::Dialogue, None),
        EvalKind::Execution => (CaseKind::Execution, Some(Arc::new(fixtures(cx, e)?))),
    };
    let skill_name = cx.skill_name;
    Ok(Case {
        doc: CaseDoc {
            id: format!("eval-{}", e.id.value),
            kind,
            prompt: e.prompt.value.clone(),
            // an eval forbidding the skill under test is a negative
            // behavioral case: the skill should not load for it
            expect_trigger: !e.expectations.iter().any(|x| {
                matches!(&x.check, Some(Check::SkillNotLoaded { skill }) if crate::score::input::loads(skill, skill_name) || skill == skill_name)
            }),
            eval_id: Some(e.id.value.clone()),
            expected_output: e
                .expected_output
                .as_ref()
                .map(|s| s.value.clone())
                .unwrap_or_default(),
            expectations: e.expectations.iter().map(ExpectationDoc::from).collect(),
            files: e.files.iter().map(|f| f.value.clone()).collect(),
            fixtures_sha256: fixtures.as_ref().map(|t| t.digest()),
            split: None,
            origin: Some(origin(&e.file, e.span)),
            owner: None,
        },
        fixtures,
    })
}

/// Refuse eval `e` when it cannot be run or graded: its id cannot name a
/// results folder, it has no expectations, or a check reads what the
/// `--runner` (the trace) or the client's stream (denials, turns) does not
/// report.
fn refuse_unrunnable(cx: &Ctx, e: &Eval) -> Result<(), Fatal> {
    let at = format!("{}:{}", e.file, e.span.line);
    if !safe_id(&e.id.value) {
        return Err(Fatal::usage(format!(
            "{at}: eval id `{}` cannot name a results folder",
            e.id.value
        ))
        .with_help("use a number or letters, digits, `-`, `_` and `.`"));
    }
    if e.expectations.is_empty() {
        return Err(Fatal::usage(format!(
            "{at}: eval {} has no expectations to grade",
            e.id.value
        )));
    }
    if cx.args.runner.is_some()
        && let Some(x) = e
            .expectations
            .iter()
            .find(|x| x.check.as_ref().is_some_and(Check::needs_trace))
    {
        return Err(Fatal::usage(format!(
            "{}:{}:{}: eval {}: check `{}` reads the agent's trace (tool calls, turns, tokens), which a --runner does not report",
            e.file,
            x.span.line,
            x.span.col,
            e.id.value,
            x.check.as_ref().map_or("", |c| c.name())
        ))
        .with_help("run it with the built-in agent, or use checks on the workspace, the final answer or the skills loaded"));
    }
    let kind = cx.kind;
    if cx.args.runner.is_none()
        && let Some((x, what)) = e.expectations.iter().find_map(|x| match &x.check {
            Some(Check::ToolRefused { .. }) if !kind.reports_denials() => {
                Some((x, "which tool calls its permission system refused"))
            }
            Some(Check::MaxTurns { .. }) if !kind.reports_turns() => {
                Some((x, "how many turns a run took"))
            }
            _ => None,
        })
    {
        return Err(Fatal::usage(format!(
            "{}:{}:{}: eval {}: check `{}` cannot be run with {}: its stream does not say {what}",
            e.file,
            x.span.line,
            x.span.col,
            e.id.value,
            x.check.as_ref().map_or("", |c| c.name()),
            kind.client().label()
        ))
        .with_help(
            "run this eval with --agent claude, or state the expectation in words for the grader",
        ));
    }
    Ok(())
}

/// The fixtures of execution eval `e`, read from the folder its `files[]`
/// are relative to (`evals/fixtures/`, or the skill folder for evals.json),
/// none leading out of it.
fn fixtures(cx: &Ctx, e: &Eval) -> Result<Tree, Fatal> {
    let at = format!("{}:{}", e.file, e.span.line);
    let files: Vec<String> = e.files.iter().map(|f| f.value.clone()).collect();
    if files.is_empty() {
        return Err(Fatal::usage(format!(
            "{at}: execution eval {} has no files[] fixtures",
            e.id.value
        )));
    }
    let (dir, label) = match &e.base {
        FixtureBase::Catalog => (e.base.dir(&cx.catalog.root), "evals/fixtures"),
        FixtureBase::Skill { dir, .. } => (dir.clone(), "the skill folder"),
    };
    Tree::read_fixtures_in(&dir, label, &files)
        .map_err(|m| Fatal::usage(format!("{at}: eval {}: {m}", e.id.value)))
}

/// Refuse two cases sharing an id (they would share a results folder).
fn refuse_shared_ids(cases: &[Case], suite: &Suite) -> Result<(), Fatal> {
    let sources = suite.files.join(", ");
    let mut seen = std::collections::HashSet::new();
    for c in cases {
        if !seen.insert(c.doc.id.clone()) {
            return Err(Fatal::usage(format!(
                "{sources}: two evals share the id `{}`",
                c.doc.id
            )));
        }
    }
    Ok(())
}

/// `file:line:column` of a case, for the plan.
fn origin(file: &str, span: crate::diag::Span) -> String {
    format!("{file}:{}:{}", span.line, span.col)
}
