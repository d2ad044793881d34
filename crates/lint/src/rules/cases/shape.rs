//! SG403: the case file's structure (everything except the evals' fields).

use super::{described, root};
use crate::catalog::Catalog;
use crate::catalog::cases::{CaseFile, Split};
use crate::catalog::json::Value;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Checks the structure of a case file: the top level is an object;
    /// `skill_name` is a string; `trigger` is an object whose `positive`
    /// and `negative` are arrays of objects; each trigger case has a
    /// non-empty string `prompt`, an optional `top_k` that is a whole
    /// number of at least 1, an optional string `owner`, an optional
    /// `split` of `train`, `validation` or `fresh`, and an optional boolean
    /// `draft` (`skillsift init` marks the prompts it writes, SG423);
    /// `evals` is an array of
    /// objects (their fields are SG408's).
    ///
    /// ## Why is this bad?
    /// A case with the wrong shape cannot run: Tier 2 leaves it out, so a
    /// skill looks tested when it is not.
    ///
    /// ## Example
    /// ```json
    /// { "skill_name": "tdd",
    ///   "trigger": { "positive": [ { "prompt": "write a failing test first", "top_k": 3 } ],
    ///                "negative": [ { "prompt": "draw the architecture diagram", "owner": "docs" } ] },
    ///   "evals": [] }
    /// ```
    pub static SHAPE = ("SG403", "case-file-shape", Error, "case file has the wrong structure");
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for case in &catalog.cases {
        let Some(tree) = &case.json else { continue };
        let Some(root) = root(case) else {
            out.push(
                SHAPE
                    .diag(
                        &case.file,
                        format!(
                            "case file is a JSON {}, not an object",
                            tree.root.type_name()
                        ),
                    )
                    .with_span(case.span(tree.root.start, tree.root.start + 1))
                    .with_help(
                        "write one object: { \"skill_name\": …, \"trigger\": { \"positive\": […], \"negative\": […] }, \"evals\": […] }",
                    ),
            );
            continue;
        };
        let mut f = Findings { case, out };
        if let Some(v) = root.get("skill_name")
            && v.as_str().is_none()
        {
            f.wrong_type(
                v,
                "`skill_name`",
                "a string",
                "write the skill's name in quotes",
            );
        }
        if let Some(trigger) = root.get("trigger") {
            if trigger.as_object().is_none() {
                f.wrong_type(
                    trigger,
                    "`trigger`",
                    "an object",
                    "write { \"positive\": […], \"negative\": […] }",
                );
            } else {
                for list in ["positive", "negative"] {
                    if let Some(v) = trigger.get(list) {
                        f.trigger_list(list, v);
                    }
                }
            }
        }
        if let Some(evals) = root.get("evals") {
            match evals.as_array() {
                None => f.wrong_type(evals, "`evals`", "an array", "write a list of eval objects"),
                Some(items) => {
                    for (i, e) in items.iter().enumerate() {
                        if e.as_object().is_none() {
                            f.wrong_type(
                                e,
                                &format!("eval {}", i + 1),
                                "an object",
                                "write { \"id\": …, \"prompt\": …, \"expected_output\": …, \"expectations\": […] }",
                            );
                        }
                    }
                }
            }
        }
    }
}

struct Findings<'a> {
    case: &'a CaseFile,
    out: &'a mut Vec<Diagnostic>,
}

impl Findings<'_> {
    fn push(&mut self, v: &Value, message: String, help: &str) {
        self.out.push(
            SHAPE
                .diag(&self.case.file, message)
                .with_span(self.case.value_span(v))
                .with_help(help.to_string()),
        );
    }

    fn wrong_type(&mut self, v: &Value, what: &str, want: &str, help: &str) {
        self.push(v, format!("{what} is {}, not {want}", described(v)), help);
    }

    fn trigger_list(&mut self, list: &str, v: &Value) {
        let Some(items) = v.as_array() else {
            self.wrong_type(
                v,
                &format!("`trigger.{list}`"),
                "an array",
                "write a list of { \"prompt\": … } objects",
            );
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let what = format!("{list} case {}", i + 1);
            if item.as_object().is_none() {
                self.wrong_type(
                    item,
                    &what,
                    "an object",
                    "write { \"prompt\": \"what a user would type\" }",
                );
                continue;
            }
            match item.get("prompt") {
                None => self.push(
                    item,
                    format!("{what} has no `prompt`"),
                    "add \"prompt\": \"what a user would type\"",
                ),
                Some(p) => match p.as_str() {
                    None => self.wrong_type(
                        p,
                        &format!("the prompt of {what}"),
                        "a string",
                        "write the prompt in quotes",
                    ),
                    Some(s) if s.trim().is_empty() => self.push(
                        p,
                        format!("the prompt of {what} is empty"),
                        "write what a user would type, or remove the case",
                    ),
                    Some(_) => {}
                },
            }
            if let Some(k) = item.get("top_k")
                && k.as_u64().filter(|&k| k >= 1).is_none()
            {
                let written = &self.case.source.text[k.start..k.end];
                self.push(
                    k,
                    format!("`top_k` of {what} is `{written}`, not a whole number of at least 1"),
                    "write a whole number such as 3 (1 for the skill's signature ask), or remove it to use the default",
                );
            }
            if let Some(o) = item.get("owner") {
                match o.as_str() {
                    None => self.wrong_type(
                        o,
                        &format!("`owner` of {what}"),
                        "a string",
                        "write the owning skill's name in quotes",
                    ),
                    Some(s) if s.trim().is_empty() => self.push(
                        o,
                        format!("`owner` of {what} is empty"),
                        "name the skill this prompt belongs to, or remove `owner`",
                    ),
                    Some(_) => {}
                }
            }
            if let Some(d) = item.get("draft")
                && !matches!(d.kind, crate::catalog::json::Kind::Bool(_))
            {
                self.wrong_type(
                    d,
                    &format!("`draft` of {what}"),
                    "true or false",
                    "remove `draft` once the prompt is rewritten in a user's words",
                );
            }
            for p in crate::catalog::cases::trigger_set::convention_problems(item, &what) {
                self.out.push(
                    SHAPE
                        .diag(&self.case.file, p.message)
                        .with_span(self.case.source.span(p.start, p.end))
                        .with_help(p.help),
                );
            }
            if let Some(s) = item.get("split") {
                match s.as_str() {
                    Some(v) if Split::parse(v).is_some() => {}
                    _ => {
                        let written = &self.case.source.text[s.start..s.end];
                        self.push(
                            s,
                            format!("`split` of {what} is `{written}`, not one of `train`, `validation`, `fresh`"),
                            "use \"train\", \"validation\" or \"fresh\", or remove `split`",
                        );
                    }
                }
            }
        }
    }
}
