//! SG408: each eval has an id, a prompt, an expected output and
//! expectations.

use super::{JsonDoc, described, eval_docs};
use crate::catalog::Catalog;
use crate::catalog::cases::Format;
use crate::catalog::json::{Kind, Value};
use crate::diag::{Diagnostic, Severity};
use crate::rule;

rule! {
    /// ## What it does
    /// Checks each entry of `evals`: `id` (a number or a non-empty string),
    /// `prompt` and `expected_output` (non-empty strings; a missing or empty
    /// `expected_output` is only a warning, and nothing when the eval lists
    /// expectations, since skill-creator's readers treat it as optional and
    /// the grader works from the expectations), and a non-empty
    /// list under `expectations` (or its agentskills.io spelling
    /// `assertions`; each entry is checked by SG430–SG435; an output-only
    /// eval, with an `expected_output` and no expectations yet, is only a
    /// warning: `check --behavioral` cannot grade it). `files` is a list of strings
    /// and `trust_level` a string when present. Writing both
    /// `expectations` and `assertions` is a warning: only `expectations`
    /// is read.
    ///
    /// ## Why is this bad?
    /// The grader checks each expectation against the run; an eval without
    /// them can only pass, and one without a prompt cannot run.
    ///
    /// ## Example
    /// ```json
    /// { "id": 1, "prompt": "Fix the rounding bug test-first.",
    ///   "expected_output": "A failing test, a minimal fix, the suite passing",
    ///   "files": ["tdd-rounding"],
    ///   "expectations": ["A failing test is shown failing before the fix"] }
    /// ```
    pub static EVAL_SHAPE = ("SG408", "eval-shape", Error, "an eval lacks id, prompt, expected_output or expectations");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for doc in eval_docs(catalog) {
        let Some(root) = doc.root() else { continue };
        for (i, eval) in doc.evals(root).enumerate() {
            check_eval(&doc, eval, i + 1, out);
        }
    }
}

fn check_eval(case: &JsonDoc, eval: &Value, n: usize, out: &mut Vec<Diagnostic>) {
    let at_eval = case.span(eval.start, eval.start + 1);
    let mut push = |severity, span, message: String, help: &str| {
        out.push(
            EVAL_SHAPE
                .diag(case.file, message)
                .with_severity(severity)
                .with_span(span)
                .with_help(help.to_string()),
        );
    };
    let error = EVAL_SHAPE.severity;
    let name = match eval.get("id").and_then(crate::catalog::cases::eval_id) {
        Some(id) => format!("eval `{id}`"),
        None => format!("eval {n}"),
    };
    match eval.get("id") {
        None => push(
            error,
            at_eval,
            format!("{name} has no `id`"),
            "add a unique \"id\", a number or a string",
        ),
        Some(v) => match &v.kind {
            Kind::Number(_) => {}
            Kind::String(s) if !s.trim().is_empty() => {}
            Kind::String(_) => push(
                error,
                case.value_span(v),
                format!("{name} has an empty `id`"),
                "give the eval a unique number or name",
            ),
            _ => push(
                error,
                case.value_span(v),
                format!(
                    "the `id` of {name} is {}, not a number or a string",
                    described(v)
                ),
                "give the eval a unique number or name",
            ),
        },
    }
    // a missing or empty `expected_output` is a warning: skill-creator's
    // schema lists it, other readers (skillsaw) treat it as optional, and
    // the grader works from the expectations alone; with expectations
    // written, it is not said at all
    let has_checks = eval
        .get("expectations")
        .or_else(|| eval.get("assertions"))
        .and_then(|v| v.as_array())
        .is_some_and(|a| !a.is_empty());
    for (key, help, absent) in [
        (
            "prompt",
            "add the task the agent is given, as a user would write it",
            error,
        ),
        (
            "expected_output",
            "describe what a successful run produces",
            Severity::Warning,
        ),
    ] {
        if key == "expected_output"
            && has_checks
            && eval
                .get(key)
                .is_none_or(|v| v.as_str().is_some_and(|t| t.trim().is_empty()))
        {
            continue;
        }
        match eval.get(key) {
            None => push(absent, at_eval, format!("{name} has no `{key}`"), help),
            Some(v) => match v.as_str() {
                None => push(
                    error,
                    case.value_span(v),
                    format!("`{key}` of {name} is {}, not a string", described(v)),
                    help,
                ),
                Some(s) if s.trim().is_empty() => push(
                    absent,
                    case.value_span(v),
                    format!("`{key}` of {name} is empty"),
                    help,
                ),
                Some(_) => {}
            },
        }
    }
    let exp = eval.member("expectations");
    let asr = eval.member("assertions");
    if let (Some(_), Some(a)) = (exp, asr) {
        out.push(
            EVAL_SHAPE
                .diag(
                    case.file,
                    format!("{name} has both `expectations` and `assertions`; only `expectations` is read"),
                )
                .with_severity(Severity::Warning)
                .with_span(case.span(a.key_start, a.key_end))
                .with_help("merge the two lists under one key"),
        );
    }
    let list_help = "list verifiable statements a grader checks, e.g. [\"A failing test is written before the fix\"]";
    // an output-only eval (skill-creator's evals.json before its
    // assertions are written): judged by a person against its
    // expected_output, and not an error; Tier 3 cannot grade it yet
    let output_only = eval
        .get("expected_output")
        .and_then(Value::as_str)
        .is_some_and(|t| !t.trim().is_empty())
        && exp
            .or(asr)
            .is_none_or(|m| m.value.as_array().is_some_and(<[Value]>::is_empty));
    if output_only {
        out.push(
            EVAL_SHAPE
                .diag(
                    case.file,
                    format!(
                        "{name} has an `expected_output` and no `expectations`: a person can judge a run against it, but `check --behavioral` has nothing to grade and refuses the skill until it lists some"
                    ),
                )
                .with_severity(Severity::Warning)
                .with_span(match exp.or(asr) {
                    Some(m) => case.value_span(&m.value),
                    None => at_eval,
                })
                .with_help(list_help),
        );
    }
    match exp.or(asr) {
        _ if output_only => {}
        None => out.push(
            EVAL_SHAPE
                .diag(
                    case.file,
                    format!("{name} has no `expectations` (or `assertions`)"),
                )
                .with_span(at_eval)
                .with_help(list_help),
        ),
        Some(m) => {
            let key = &m.key;
            match m.value.as_array() {
                None => out.push(
                    EVAL_SHAPE
                        .diag(
                            case.file,
                            format!("`{key}` of {name} is {}, not an array", described(&m.value)),
                        )
                        .with_span(case.value_span(&m.value))
                        .with_help(list_help),
                ),
                Some([]) => out.push(
                    EVAL_SHAPE
                        .diag(
                            case.file,
                            format!("`{key}` of {name} is empty: the eval can only pass"),
                        )
                        .with_span(case.value_span(&m.value))
                        .with_help(list_help),
                ),
                // each entry is SG430–SG435's (`expectations.rs`)
                Some(_) => {}
            }
        }
    }
    if let Some(files) = eval.get("files") {
        match files.as_array() {
            None => out.push(
                EVAL_SHAPE
                    .diag(
                        case.file,
                        format!("`files` of {name} is {}, not an array", described(files)),
                    )
                    .with_span(case.value_span(files))
                    .with_help(match case.format {
                        Format::EvalsJson => {
                            "list paths relative to the skill folder, e.g. [\"evals/files/input.pdf\"]"
                        }
                        _ => "list paths relative to evals/fixtures/, e.g. [\"my-skill\"]",
                    }),
            ),
            Some(items) => {
                for item in items.iter().filter(|i| i.as_str().is_none()) {
                    out.push(
                        EVAL_SHAPE
                            .diag(
                                case.file,
                                format!(
                                    "an entry of `files` in {name} is {}, not a string",
                                    described(item)
                                ),
                            )
                            .with_span(case.value_span(item))
                            .with_help("write each fixture path as a string"),
                    );
                }
            }
        }
    }
    if let Some(t) = eval.get("trust_level")
        && t.as_str().is_none()
    {
        out.push(
            EVAL_SHAPE
                .diag(
                    case.file,
                    format!("`trust_level` of {name} is {}, not a string", described(t)),
                )
                .with_span(case.value_span(t))
                .with_help("write the trust level as a string, or remove it"),
        );
    }
}
