//! SG430–SG435: each entry of an eval's `expectations` (or `assertions`)
//! and its `forbidden_skills`, in case files and evals files alike. One
//! reader ([`crate::catalog::cases::expectation::read`]) finds every
//! problem; each belongs to one of the rules below, as the rules of
//! `load.rs` belong to one loader.

use super::{JsonDoc, eval_docs};
use crate::catalog::Catalog;
use crate::catalog::cases::expectation::{self, Issue, Problem};
use crate::diag::Diagnostic;
use crate::lint::Rule;
use crate::rule;

rule! {
    /// ## What it does
    /// Checks the shape of each entry of an eval's `expectations` (or
    /// `assertions`): a non-empty string (the grader checks it; a
    /// `BLOCKER:` or `QUALITY:` prefix sets its kind), an object
    /// `{"text": "…", "kind": "blocker" | "quality"}`, or an object with a
    /// `"check"` (see SG432). An object's `kind` is `blocker` or
    /// `quality`; its `text` is a non-empty string and agrees with `kind`
    /// when it also carries a prefix; a graded object holds only `text`
    /// and `kind`. `forbidden_skills`, when present, is an array of skill
    /// names.
    ///
    /// ## Why is this bad?
    /// An entry skillsift cannot read is not graded at all, and the eval is
    /// not run: a blocker written as `{"kind": "blocker"}` without text
    /// would otherwise pass vacuously.
    ///
    /// ## Example
    /// ```json
    /// "expectations": [
    ///   "BLOCKER: no file outside src/ is modified",
    ///   {"text": "every input ID is accounted for", "kind": "blocker"},
    ///   "the fix comes with a test"
    /// ]
    /// ```
    pub static SHAPE = ("SG430", "expectation-shape", Error, "an expectation is not a statement, a {text, kind} object or a check");
}

rule! {
    /// ## What it does
    /// Warns about an expectation whose text starts like a kind prefix
    /// written another way: `Blocker:`, `blocker -`, `[BLOCKER]`,
    /// `BLOCKING:`, `Quality:`. Only `BLOCKER:` and `QUALITY:` (capitals
    /// and a colon) set the kind; anything else is text, and the
    /// expectation is a quality expectation.
    ///
    /// ## Why is this bad?
    /// The author meant a blocker: one failure in any with-skill trial
    /// should fail the release. Read as quality, a failure only lowers the
    /// quality score.
    ///
    /// ## Example
    /// ```json
    /// "expectations": ["Blocker: no credential appears in the output"]
    /// ```
    /// Write `"BLOCKER: no credential appears in the output"`.
    pub static PREFIX = ("SG431", "expectation-kind-prefix", Warning, "an expectation starts with a kind prefix skillsift does not read");
}

rule! {
    /// ## What it does
    /// Checks that an expectation's `"check"` names one of skillsift's
    /// deterministic checks: `file_exists`, `file_absent`,
    /// `file_contains`, `file_matches`, `command`, `answer_contains`,
    /// `answer_matches`, `answer_json`, `tool_called`, `tool_not_called`,
    /// `tool_refused`, `skill_loaded`, `skill_not_loaded`, `max_turns`,
    /// `max_tokens` (`skillsift schema cases` gives each one's fields). A
    /// near miss gets a "did you mean".
    ///
    /// ## Why is this bad?
    /// A check skillsift does not know cannot be run; the eval would have
    /// one verdict fewer than it was written with.
    ///
    /// ## Example
    /// ```json
    /// {"check": "file_exist", "path": "src/total.test.js"}
    /// ```
    pub static UNKNOWN_CHECK = ("SG432", "unknown-check", Error, "an expectation's check is not one skillsift knows");
}

rule! {
    /// ## What it does
    /// Checks a deterministic check's arguments: each required argument is
    /// present with the right type (`path`, `text`, `regex`, `tool`,
    /// `skill`: non-empty strings; `argv`: a non-empty array of strings,
    /// the program first; `timeout_secs`: 1 to 600; `max`: a positive
    /// integer; `expected`: JSON the scorer can compare exactly, numbers
    /// within ±9007199254740991 and no repeated key), and no argument the
    /// check does not take.
    ///
    /// ## Why is this bad?
    /// A misspelt argument is silently absent: `{"check": "command",
    /// "args": ["npm", "test"]}` has no `argv` to run.
    ///
    /// ## Example
    /// ```json
    /// {"check": "command", "argv": ["npm", "test"], "timeout_secs": 120}
    /// ```
    pub static ARGUMENTS = ("SG433", "check-arguments", Error, "a deterministic check's arguments are missing, mistyped or unknown");
}

rule! {
    /// ## What it does
    /// Checks that the `path` of a file check is relative to the workspace
    /// and stays inside it: not empty, not absolute, no `..` component.
    /// At run time a path that reaches outside the workspace through a
    /// symlink is refused as well (the check fails, naming the link).
    ///
    /// ## Why is this bad?
    /// Checks read the agent's workspace, never the machine running
    /// skillsift: `/etc/passwd` or `../../.ssh/id_rsa` would read files of
    /// whoever runs the evaluation.
    ///
    /// ## Example
    /// ```json
    /// {"check": "file_absent", "path": "../secrets.env"}
    /// ```
    pub static PATH_ESCAPE = ("SG434", "check-path-escape", Error, "a file check's path is absolute or leaves the workspace");
}

rule! {
    /// ## What it does
    /// Compiles the `regex` of `file_matches` and `answer_matches` with the
    /// `regex` crate's syntax (linear-time matching: no look-around, no
    /// backreferences) and a 1 MiB limit on the compiled expression, and
    /// reports why it does not compile.
    ///
    /// ## Why is this bad?
    /// An expression that does not compile cannot be matched: the check
    /// would fail every run, with and without the skill.
    ///
    /// ## Example
    /// ```json
    /// {"check": "answer_matches", "regex": "total: (\\d+"}
    /// ```
    pub static REGEX = ("SG435", "check-regex", Error, "a check's regular expression does not compile");
}

fn rule_of(p: Problem) -> &'static Rule {
    match p {
        Problem::Shape => &SHAPE,
        Problem::Prefix => &PREFIX,
        Problem::UnknownCheck => &UNKNOWN_CHECK,
        Problem::Arguments => &ARGUMENTS,
        Problem::PathEscape => &PATH_ESCAPE,
        Problem::Regex => &REGEX,
    }
}

fn push(doc: &JsonDoc, i: Issue, out: &mut Vec<Diagnostic>) {
    let mut d = rule_of(i.problem)
        .diag(doc.file, i.message)
        .with_span(doc.span(i.start, i.end))
        .with_help(i.help);
    if let Some(l) = i.label {
        d = d.with_label(l);
    }
    out.push(d);
}

pub fn check(catalog: &Catalog, out: &mut Vec<Diagnostic>) {
    for doc in eval_docs(catalog) {
        let Some(root) = doc.root() else { continue };
        for eval in doc.evals(root) {
            let list = eval
                .get("expectations")
                .or_else(|| eval.get("assertions"))
                .and_then(|l| l.as_array())
                .unwrap_or_default();
            for item in list {
                for i in expectation::read(item, &doc.source.text).1 {
                    push(&doc, i, out);
                }
            }
            if let Some(f) = eval.get("forbidden_skills")
                && let Err(i) = expectation::forbidden(f)
            {
                push(&doc, i, out);
            }
        }
    }
}
