//! SG419: the structure of an evals file (`evals/evals.json`).

use super::described;
use crate::catalog::Catalog;
use crate::catalog::cases::{Format, evals_json, trigger_set};
use crate::catalog::json::{Kind, Value};
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Checks the structure of skill-creator's and agentskills.io's
    /// `<skill>/evals/evals.json` (and any other `{"evals": […]}` file in a
    /// skill's `evals/`): the top level is an object; `skill_name`, when
    /// present, is a string; `evals` is an array of objects. An entry with
    /// `should_trigger` and no `expectations` (or `assertions`) is a
    /// trigger prompt: it needs a non-empty `prompt` (or `query`) and a
    /// boolean `should_trigger`. An eval (an entry with expectations) is
    /// always expected to load its skill, so `"should_trigger": false` on
    /// one is an error. The eval fields themselves are SG408's, SG410's
    /// and SG411's, as in a case file.
    ///
    /// ## Why is this bad?
    /// A file of the wrong shape is not read at all: its evals never run
    /// and its trigger prompts are never routed.
    ///
    /// ## Example
    /// ```json
    /// {"skill_name": "pdf-forms",
    ///  "evals": [{"id": 1, "prompt": "Fill in evals/files/form.pdf", "expected_output": "A filled form",
    ///             "files": ["evals/files/form.pdf"], "assertions": ["Every field is filled"]},
    ///            {"prompt": "merge these PDFs", "should_trigger": false}]}
    /// ```
    pub static EVALS_JSON_SHAPE = ("SG419", "evals-json-shape", Error, "an evals.json file has the wrong structure");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for src in catalog
        .case_sources
        .iter()
        .filter(|s| s.format == Format::EvalsJson)
    {
        let Some(tree) = src.json() else { continue };
        let root = &tree.root;
        let push = |out: &mut Vec<Diagnostic>, v: &Value, message: String, help: &str| {
            out.push(
                EVALS_JSON_SHAPE
                    .diag(&src.file, message)
                    .with_span(src.span(v.start, v.end))
                    .with_help(help.to_string()),
            );
        };
        // the first character, where what is missing is reported
        let at = Value {
            kind: Kind::Null,
            start: root.start,
            end: root.start + 1,
        };
        if root.as_object().is_none() {
            push(
                out,
                &at,
                format!(
                    "an evals file is a JSON object, and this one is a JSON {}",
                    root.type_name()
                ),
                "write { \"skill_name\": \"…\", \"evals\": [ … ] }",
            );
            continue;
        }
        if let Some(v) = root.get("skill_name")
            && v.as_str().is_none()
        {
            push(
                out,
                v,
                format!("`skill_name` is {}, not a string", described(v)),
                "write the skill's name in quotes",
            );
        }
        let Some(evals) = root.get("evals") else {
            push(
                out,
                &at,
                "the evals file has no `evals`".into(),
                "add \"evals\": [ { \"id\": 1, \"prompt\": …, \"expected_output\": …, \"assertions\": […] } ]",
            );
            continue;
        };
        let Some(entries) = evals.as_array() else {
            push(
                out,
                evals,
                format!("`evals` is {}, not an array", described(evals)),
                "write a list of eval objects",
            );
            continue;
        };
        for (i, e) in entries.iter().enumerate() {
            let what = format!("entry {}", i + 1);
            if e.as_object().is_none() {
                push(
                    out,
                    e,
                    format!("{what} of `evals` is {}, not an object", described(e)),
                    "write { \"id\": …, \"prompt\": …, \"expected_output\": …, \"assertions\": […] }",
                );
                continue;
            }
            if evals_json::is_trigger_only(e) {
                for p in trigger_set::row_problems(e, &what, "prompt") {
                    out.push(
                        EVALS_JSON_SHAPE
                            .diag(&src.file, p.message)
                            .with_span(src.span(p.start, p.end))
                            .with_help(p.help),
                    );
                }
                continue;
            }
            match e.get("should_trigger").map(|v| (&v.kind, v)) {
                None | Some((Kind::Bool(true), _)) => {}
                Some((Kind::Bool(false), v)) => out.push(
                    EVALS_JSON_SHAPE
                        .diag(
                            &src.file,
                            format!("{what} is an eval (it has expectations) marked `\"should_trigger\": false`"),
                        )
                        .with_span(src.span(v.start, v.end))
                        .with_label("an eval is always expected to load its skill")
                        .with_help(
                            "drop the expectations to make it a negative trigger prompt, or drop `should_trigger`",
                        ),
                ),
                Some((_, v)) => out.push(
                    EVALS_JSON_SHAPE
                        .diag(
                            &src.file,
                            format!("`should_trigger` of {what} is {}, not true or false", described(v)),
                        )
                        .with_span(src.span(v.start, v.end))
                        .with_help("write true or false, without quotes"),
                ),
            }
        }
    }
}
