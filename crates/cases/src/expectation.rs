//! One expectation of an eval, as every eval format writes it (case files
//! and `evals.json` alike), and the deterministic checks.
//!
//! An entry of `expectations` (or `assertions`) is:
//!
//! - a string: a statement the grader model checks. `BLOCKER: …` makes it
//!   a blocker, `QUALITY: …` (or no prefix) a quality expectation; the
//!   prefix is not part of the text the grader sees;
//! - an object `{"text": "…", "kind": "blocker" | "quality"}`: the same,
//!   with the kind spelt out;
//! - an object with `"check": "<name>"` and the check's arguments: a
//!   deterministic check skillsift runs itself on the workspace and the
//!   trace after the agent finished, no model involved (`text` is then an
//!   optional description, `kind` optional too; quality by default).
//!
//! An eval's `forbidden_skills` (names of skills that must not load) adds
//! one `skill_not_loaded` blocker per name.
//!
//! [`read`] turns one JSON value into an [`Expectation`] and lists every
//! problem with its byte range ([`Issue`]); Tier 1 reports the problems
//! (SG430–SG435), the case loaders keep the expectation only when it has
//! no error, so Tier 3 never runs a half-read check.

use serde::{Deserialize, Serialize};
use syntax::json::{Kind, Value};

/// What a failed expectation costs.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ExpectKind {
    /// Must pass in every with-skill trial; one failure fails the release.
    Blocker,
    /// Counts towards the quality pass rate.
    #[default]
    Quality,
}

impl ExpectKind {
    pub const ALL: [&'static str; 2] = ["blocker", "quality"];

    pub fn parse(s: &str) -> Option<ExpectKind> {
        match s {
            "blocker" => Some(ExpectKind::Blocker),
            "quality" => Some(ExpectKind::Quality),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ExpectKind::Blocker => "blocker",
            ExpectKind::Quality => "quality",
        }
    }
}

/// A deterministic check: what skillsift verifies itself after a run.
/// Serialized (in `plan.json`) as `{"check": "<name>", …arguments}`, the
/// shape a case file writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "check", rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    /// `path` exists in the workspace (a file or a folder).
    FileExists { path: String },
    /// Nothing exists at `path` in the workspace.
    FileAbsent { path: String },
    /// The file at `path` contains `value` (bytes, case-sensitive).
    FileContains { path: String, value: String },
    /// The file at `path` matches `regex` somewhere.
    FileMatches { path: String, regex: String },
    /// `argv` exits 0 in the workspace within `timeout_secs`.
    Command {
        argv: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_secs: Option<u64>,
    },
    /// The final answer contains `value`.
    AnswerContains { value: String },
    /// The final answer matches `regex`.
    AnswerMatches { regex: String },
    /// The final answer parses as JSON structurally equal to `expected`.
    AnswerJson { expected: serde_json::Value },
    /// The agent called `tool` at least once.
    ToolCalled { tool: String },
    /// The agent never called `tool`.
    ToolNotCalled { tool: String },
    /// The agent attempted a `tool` call (`*`: any) and the client's
    /// permission system refused it: a permission test.
    ToolRefused { tool: String },
    /// The agent loaded `skill`.
    SkillLoaded { skill: String },
    /// The agent did not load `skill`.
    SkillNotLoaded { skill: String },
    /// The run took at most `max` turns.
    MaxTurns { max: u64 },
    /// The run used at most `max` tokens (input, cached input and output).
    MaxTokens { max: u64 },
}

/// Default time limit of a `command` check.
pub const DEFAULT_COMMAND_SECS: u64 = 60;
/// Longest time limit of a `command` check.
pub const MAX_COMMAND_SECS: u64 = 600;

/// What an argument holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arg {
    /// A path relative to the workspace.
    Path,
    /// A non-empty string.
    Text,
    /// A regular expression.
    Regex,
    /// A non-empty array of non-empty strings.
    Argv,
    /// Whole seconds, 1 to [`MAX_COMMAND_SECS`].
    Seconds,
    /// Any JSON value the scorer's JSON comparison accepts.
    Json,
    /// A positive integer.
    Count,
}

/// One argument of a check: its name, what it holds, whether required.
type ArgSpec = (&'static str, Arg, bool);

/// Every check: its name and its arguments.
const CHECKS: &[(&str, &[ArgSpec])] = &[
    ("file_exists", &[("path", Arg::Path, true)]),
    ("file_absent", &[("path", Arg::Path, true)]),
    (
        "file_contains",
        &[("path", Arg::Path, true), ("value", Arg::Text, true)],
    ),
    (
        "file_matches",
        &[("path", Arg::Path, true), ("regex", Arg::Regex, true)],
    ),
    (
        "command",
        &[
            ("argv", Arg::Argv, true),
            ("timeout_secs", Arg::Seconds, false),
        ],
    ),
    ("answer_contains", &[("value", Arg::Text, true)]),
    ("answer_matches", &[("regex", Arg::Regex, true)]),
    ("answer_json", &[("expected", Arg::Json, true)]),
    ("tool_called", &[("tool", Arg::Text, true)]),
    ("tool_not_called", &[("tool", Arg::Text, true)]),
    ("tool_refused", &[("tool", Arg::Text, true)]),
    ("skill_loaded", &[("skill", Arg::Text, true)]),
    ("skill_not_loaded", &[("skill", Arg::Text, true)]),
    ("max_turns", &[("max", Arg::Count, true)]),
    ("max_tokens", &[("max", Arg::Count, true)]),
];

/// The names of every check, in documentation order.
pub fn check_names() -> impl Iterator<Item = &'static str> {
    CHECKS.iter().map(|(n, _)| *n)
}

/// Keys of an expectation object besides a check's arguments.
pub const OBJECT_KEYS: &[&str] = &["text", "kind", "check"];

impl Check {
    /// The check's name as written.
    pub fn name(&self) -> &'static str {
        match self {
            Check::FileExists { .. } => "file_exists",
            Check::FileAbsent { .. } => "file_absent",
            Check::FileContains { .. } => "file_contains",
            Check::FileMatches { .. } => "file_matches",
            Check::Command { .. } => "command",
            Check::AnswerContains { .. } => "answer_contains",
            Check::AnswerMatches { .. } => "answer_matches",
            Check::AnswerJson { .. } => "answer_json",
            Check::ToolCalled { .. } => "tool_called",
            Check::ToolNotCalled { .. } => "tool_not_called",
            Check::ToolRefused { .. } => "tool_refused",
            Check::SkillLoaded { .. } => "skill_loaded",
            Check::SkillNotLoaded { .. } => "skill_not_loaded",
            Check::MaxTurns { .. } => "max_turns",
            Check::MaxTokens { .. } => "max_tokens",
        }
    }

    /// What the check verifies, in words (the text of a check written
    /// without one).
    pub fn describe(&self) -> String {
        match self {
            Check::FileExists { path } => format!("`{path}` exists"),
            Check::FileAbsent { path } => format!("`{path}` does not exist"),
            Check::FileContains { path, value } => format!("`{path}` contains `{value}`"),
            Check::FileMatches { path, regex } => format!("`{path}` matches /{regex}/"),
            Check::Command { argv, .. } => format!("`{}` exits 0", argv.join(" ")),
            Check::AnswerContains { value } => format!("the final answer contains `{value}`"),
            Check::AnswerMatches { regex } => format!("the final answer matches /{regex}/"),
            Check::AnswerJson { expected } => format!("the final answer is the JSON {expected}"),
            Check::ToolCalled { tool } => format!("`{tool}` is called"),
            Check::ToolNotCalled { tool } => format!("`{tool}` is never called"),
            Check::ToolRefused { tool } if tool == "*" => {
                "a tool call is attempted and refused by the permission system".into()
            }
            Check::ToolRefused { tool } => {
                format!("a `{tool}` call is attempted and refused by the permission system")
            }
            Check::SkillLoaded { skill } => format!("skill `{skill}` is loaded"),
            Check::SkillNotLoaded { skill } => format!("skill `{skill}` is not loaded"),
            Check::MaxTurns { max } => format!("at most {max} turns"),
            Check::MaxTokens { max } => format!("at most {max} tokens"),
        }
    }

    /// Whether the check reads the agent's trace (tool calls, turns,
    /// tokens), which a `--runner` does not report.
    pub fn needs_trace(&self) -> bool {
        matches!(
            self,
            Check::ToolCalled { .. }
                | Check::ToolNotCalled { .. }
                | Check::ToolRefused { .. }
                | Check::MaxTurns { .. }
                | Check::MaxTokens { .. }
        )
    }
}

/// Longest regular expression compiled, in bytes of its compiled program.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Compile a check's regular expression (the `regex` crate's syntax,
/// matched against bytes; linear time whatever the input).
pub fn compile(pattern: &str) -> Result<regex::bytes::Regex, String> {
    regex::bytes::RegexBuilder::new(pattern)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(n) => {
                format!("the expression compiles to more than {n} bytes")
            }
            e => e.to_string(),
        })
}

/// Why a relative workspace path is refused, if it is.
pub fn path_problem(path: &str) -> Option<&'static str> {
    if path.trim().is_empty() {
        return Some("is empty");
    }
    if path.contains('\0') {
        return Some("holds a NUL byte");
    }
    let b = path.as_bytes();
    if path.starts_with('/')
        || path.starts_with('\\')
        || (b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic())
    {
        return Some("is absolute");
    }
    if path.split(['/', '\\']).any(|c| c == "..") {
        return Some("leads out of the workspace with `..`");
    }
    None
}

/// The Tier 1 rule a problem belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// SG430: the entry's own shape (type, `text`, `kind`, keys).
    Shape,
    /// SG431: a kind prefix written another way (read as quality).
    Prefix,
    /// SG432: `check` names no check.
    UnknownCheck,
    /// SG433: a check's arguments.
    Arguments,
    /// SG434: a path leaving the workspace.
    PathEscape,
    /// SG435: a regular expression that does not compile.
    Regex,
}

impl Problem {
    /// Whether the problem leaves the expectation unread (all but SG431).
    pub fn is_error(self) -> bool {
        self != Problem::Prefix
    }
}

/// One problem with an expectation, at `start..end` of its file.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub problem: Problem,
    pub start: usize,
    pub end: usize,
    pub message: String,
    pub label: Option<String>,
    pub help: String,
}

/// An expectation as read, without its place.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub text: String,
    pub kind: ExpectKind,
    pub check: Option<Check>,
}

fn issue(problem: Problem, v: (usize, usize), message: String, help: impl Into<String>) -> Issue {
    Issue {
        problem,
        start: v.0,
        end: v.1,
        message,
        label: None,
        help: help.into(),
    }
}

fn at(v: &Value) -> (usize, usize) {
    (v.start, v.end)
}

/// A string entry's kind and text: `BLOCKER: x` is a blocker `x`.
pub fn split_prefix(s: &str) -> (ExpectKind, &str, bool) {
    let t = s.trim_start();
    for (prefix, kind) in [
        ("BLOCKER:", ExpectKind::Blocker),
        ("QUALITY:", ExpectKind::Quality),
    ] {
        if let Some(rest) = t.strip_prefix(prefix) {
            return (kind, rest.trim(), true);
        }
    }
    (ExpectKind::Quality, s.trim(), false)
}

/// The prefix word when `s` starts like a kind prefix written another way
/// (`Blocker:`, `blocker -`, `[BLOCKER]`, `BLOCKING:`).
fn near_prefix(s: &str) -> Option<&str> {
    let t = s.trim_start().trim_start_matches(['[', '(', '*', '_']);
    let word_end = t
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(t.len());
    let word = &t[..word_end];
    let rest = t[word_end..].trim_start_matches([']', ')', '*', '_']);
    let known = ["blocker", "blocking", "quality"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w));
    let marked = rest.starts_with(':')
        || rest.trim_start().starts_with('-')
        || rest.trim_start().starts_with('–')
        || t.len() > word_end && matches!(t.as_bytes()[word_end], b']' | b')');
    (known && marked).then_some(word)
}

/// Read one entry of `expectations`. `source` is the whole file's text
/// (an `answer_json` value is read from it as written). The expectation is
/// `None` when an error-level issue was found.
pub fn read(v: &Value, source: &str) -> (Option<Read>, Vec<Issue>) {
    let mut issues = Vec::new();
    let read = match &v.kind {
        Kind::String(s) => read_string(v, s, &mut issues),
        Kind::Object(_) => read_object(v, source, &mut issues),
        _ => {
            issues.push(issue(
                Problem::Shape,
                at(v),
                format!(
                    "an expectation is {}, not a string or an object",
                    v.described()
                ),
                "write a statement the grader checks, or an object {\"check\": …} skillsift verifies",
            ));
            None
        }
    };
    let ok = !issues.iter().any(|i| i.problem.is_error());
    (read.filter(|_| ok), issues)
}

fn read_string(v: &Value, s: &str, issues: &mut Vec<Issue>) -> Option<Read> {
    let (kind, text, prefixed) = split_prefix(s);
    if text.is_empty() {
        issues.push(issue(
            Problem::Shape,
            at(v),
            if prefixed {
                "an expectation holds only its kind prefix".into()
            } else {
                "an expectation is empty".into()
            },
            "write the statement the grader checks, e.g. \"BLOCKER: no file outside src/ is modified\"",
        ));
        return None;
    }
    if !prefixed && let Some(word) = near_prefix(s) {
        issues.push(Issue {
            label: Some("read as a quality expectation".into()),
            ..issue(
                Problem::Prefix,
                at(v),
                format!("`{word}` at the start of an expectation is not a kind prefix; the whole text is a quality expectation"),
                format!(
                    "write `{}:` (capitals, then a colon) to mark it, or {{\"text\": \"…\", \"kind\": \"{}\"}}",
                    if word.to_ascii_lowercase().starts_with("qual") { "QUALITY" } else { "BLOCKER" },
                    if word.to_ascii_lowercase().starts_with("qual") { "quality" } else { "blocker" },
                ),
            )
        });
    }
    Some(Read {
        text: text.to_string(),
        kind,
        check: None,
    })
}

fn read_object(v: &Value, source: &str, issues: &mut Vec<Issue>) -> Option<Read> {
    let kind = match v.get("kind") {
        None => None,
        Some(k) => match k.as_str().and_then(ExpectKind::parse) {
            Some(kind) => Some(kind),
            None => {
                issues.push(issue(
                    Problem::Shape,
                    at(k),
                    format!(
                        "the `kind` of an expectation is {}, not \"blocker\" or \"quality\"",
                        match k.as_str() {
                            Some(s) => format!("`{s}`"),
                            None => k.described().to_string(),
                        }
                    ),
                    "use \"blocker\" (must pass in every with-skill trial) or \"quality\" (counts towards the quality pass rate)",
                ));
                return None;
            }
        },
    };
    // `{"name": …, "description": …}`: an assertion written as a named
    // statement; its description is the text the grader judges
    let named =
        v.get("text").is_none() && v.get("check").is_none() && v.get("description").is_some();
    let text_key = if named { "description" } else { "text" };
    let text = match v.get(text_key) {
        None => None,
        Some(t) => match t.as_str() {
            Some(s) if !s.trim().is_empty() => Some((t, s)),
            Some(_) => {
                issues.push(issue(
                    Problem::Shape,
                    at(t),
                    format!("the `{text_key}` of an expectation is empty"),
                    "write the statement, or remove `text` from a check to use its own description",
                ));
                return None;
            }
            None => {
                issues.push(issue(
                    Problem::Shape,
                    at(t),
                    format!(
                        "the `{text_key}` of an expectation is {}, not a string",
                        t.described()
                    ),
                    "write the statement as a string",
                ));
                return None;
            }
        },
    };
    let (kind, text) = match (kind, text) {
        (k, Some((t, s))) => {
            let (pk, rest, prefixed) = split_prefix(s);
            match k {
                Some(k) if prefixed && k != pk => {
                    issues.push(issue(
                        Problem::Shape,
                        at(t),
                        format!(
                            "the expectation says `\"kind\": \"{}\"` but its text starts with {}:",
                            k.as_str(),
                            pk.as_str().to_uppercase()
                        ),
                        "keep one of the two",
                    ));
                    return None;
                }
                Some(k) => (k, Some(rest.to_string())),
                None => (pk, Some(rest.to_string())),
            }
        }
        (k, None) => (k.unwrap_or_default(), None),
    };
    let Some(cv) = v.get("check") else {
        let args: Vec<&str> = v
            .as_object()
            .unwrap_or_default()
            .iter()
            .map(|m| m.key.as_str())
            .filter(|k| !(OBJECT_KEYS.contains(k) || named && ["name", "description"].contains(k)))
            .collect();
        for m in v
            .as_object()
            .unwrap_or_default()
            .iter()
            .filter(|m| args.contains(&m.key.as_str()))
        {
            let is_arg = CHECKS
                .iter()
                .any(|(_, a)| a.iter().any(|(n, _, _)| *n == m.key));
            issues.push(Issue {
                label: Some("unknown here".into()),
                ..issue(
                    Problem::Shape,
                    (m.key_start, m.key_end),
                    format!("unknown key `{}` in an expectation", m.key),
                    if is_arg {
                        format!(
                            "`{}` is an argument of a check: add \"check\": \"<name>\" (one of {})",
                            m.key,
                            check_names().collect::<Vec<_>>().join(", ")
                        )
                    } else {
                        "an expectation object holds `text` and `kind` (graded), or `check` and its arguments".to_string()
                    },
                )
            });
        }
        return match text {
            Some(text) if args.is_empty() => Some(Read {
                text,
                kind,
                check: None,
            }),
            Some(_) => None,
            None => {
                issues.push(issue(
                    Problem::Shape,
                    (v.start, v.start + 1),
                    "an expectation object has neither `text` nor `check`".into(),
                    "add \"text\": the statement the grader checks, or \"check\": a deterministic check",
                ));
                None
            }
        };
    };
    let check = read_check(v, cv, source, issues)?;
    Some(Read {
        text: text.unwrap_or_else(|| check.describe()),
        kind,
        check: Some(check),
    })
}

fn read_check(v: &Value, cv: &Value, source: &str, issues: &mut Vec<Issue>) -> Option<Check> {
    let Some(name) = cv.as_str() else {
        issues.push(issue(
            Problem::UnknownCheck,
            at(cv),
            format!("`check` is {}, not the name of a check", cv.described()),
            format!(
                "use one of {}",
                check_names().collect::<Vec<_>>().join(", ")
            ),
        ));
        return None;
    };
    let Some((_, spec)) = CHECKS.iter().find(|(n, _)| *n == name) else {
        let help = match crate::rules::did_you_mean(name, check_names()) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!(
                "use one of {}",
                check_names().collect::<Vec<_>>().join(", ")
            ),
        };
        issues.push(Issue {
            label: Some("unknown check".into()),
            ..issue(
                Problem::UnknownCheck,
                at(cv),
                format!("`{name}` is not a check skillsift knows"),
                help,
            )
        });
        return None;
    };
    let members = v.as_object().unwrap_or_default();
    let before = issues.len();
    for m in members {
        if OBJECT_KEYS.contains(&m.key.as_str()) || spec.iter().any(|(n, _, _)| *n == m.key) {
            continue;
        }
        let names = spec.iter().map(|(n, _, _)| *n);
        let help = match crate::rules::did_you_mean(&m.key, names.clone()) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!(
                "`{name}` takes {}",
                names
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        issues.push(Issue {
            label: Some("unknown argument".into()),
            ..issue(
                Problem::Arguments,
                (m.key_start, m.key_end),
                format!("`{name}` has no argument `{}`", m.key),
                help,
            )
        });
    }
    let mut got: Vec<Option<Got>> = Vec::new();
    for &(arg, ty, required) in spec.iter() {
        match v.get(arg) {
            None if required => {
                issues.push(issue(
                    Problem::Arguments,
                    (v.start, v.start + 1),
                    format!("check `{name}` has no `{arg}`"),
                    format!("add \"{arg}\": {}", example(ty)),
                ));
                got.push(None);
            }
            None => got.push(None),
            Some(a) => got.push(argument(name, arg, ty, a, source, issues)),
        }
    }
    if issues[before..].iter().any(|i| i.problem.is_error()) {
        return None;
    }
    let s = |i: usize| match &got[i] {
        Some(Got::Str(s)) => s.clone(),
        _ => String::new(),
    };
    let n = |i: usize| match &got[i] {
        Some(Got::Num(n)) => Some(*n),
        _ => None,
    };
    Some(match name {
        "file_exists" => Check::FileExists { path: s(0) },
        "file_absent" => Check::FileAbsent { path: s(0) },
        "file_contains" => Check::FileContains {
            path: s(0),
            value: s(1),
        },
        "file_matches" => Check::FileMatches {
            path: s(0),
            regex: s(1),
        },
        "command" => Check::Command {
            argv: match &got[0] {
                Some(Got::List(l)) => l.clone(),
                _ => Vec::new(),
            },
            timeout_secs: n(1),
        },
        "answer_contains" => Check::AnswerContains { value: s(0) },
        "answer_matches" => Check::AnswerMatches { regex: s(0) },
        "answer_json" => Check::AnswerJson {
            expected: match &got[0] {
                Some(Got::Json(j)) => j.clone(),
                _ => serde_json::Value::Null,
            },
        },
        "tool_called" => Check::ToolCalled { tool: s(0) },
        "tool_not_called" => Check::ToolNotCalled { tool: s(0) },
        "tool_refused" => Check::ToolRefused { tool: s(0) },
        "skill_loaded" => Check::SkillLoaded { skill: s(0) },
        "skill_not_loaded" => Check::SkillNotLoaded { skill: s(0) },
        "max_turns" => Check::MaxTurns {
            max: n(0).unwrap_or(0),
        },
        _ => Check::MaxTokens {
            max: n(0).unwrap_or(0),
        },
    })
}

/// A checked argument.
enum Got {
    Str(String),
    List(Vec<String>),
    Num(u64),
    Json(serde_json::Value),
}

fn example(ty: Arg) -> &'static str {
    match ty {
        Arg::Path => "\"src/total.test.js\" (relative to the workspace)",
        Arg::Text => "\"…\"",
        Arg::Regex => "\"total: \\\\d+\"",
        Arg::Argv => "[\"npm\", \"test\"] (the program and its arguments; no shell)",
        Arg::Seconds => "60",
        Arg::Json => "{\"total\": 42}",
        Arg::Count => "10",
    }
}

fn argument(
    check: &str,
    arg: &str,
    ty: Arg,
    a: &Value,
    source: &str,
    issues: &mut Vec<Issue>,
) -> Option<Got> {
    let mut bad = |message: String, help: String| {
        issues.push(issue(Problem::Arguments, at(a), message, help));
        None
    };
    let what = format!("`{arg}` of check `{check}`");
    match ty {
        Arg::Path | Arg::Text | Arg::Regex => {
            let Some(s) = a.as_str() else {
                return bad(
                    format!("{what} is {}, not a string", a.described()),
                    format!("write it as {}", example(ty)),
                );
            };
            if s.is_empty() {
                return bad(
                    format!("{what} is empty"),
                    format!("write it as {}", example(ty)),
                );
            }
            if ty == Arg::Path
                && let Some(why) = path_problem(s)
            {
                issues.push(Issue {
                    label: Some("outside the workspace".into()),
                    ..issue(
                        Problem::PathEscape,
                        at(a),
                        format!("the path `{s}` of check `{check}` {why}"),
                        "write a path relative to the workspace, without `..`: checks never read outside it",
                    )
                });
                return None;
            }
            if ty == Arg::Regex
                && let Err(e) = compile(s)
            {
                issues.push(Issue {
                    label: Some("does not compile".into()),
                    ..issue(
                        Problem::Regex,
                        at(a),
                        format!("the regular expression of check `{check}` does not compile: {}", first_line(&e)),
                        "fix the expression (the `regex` crate's syntax: no look-around or backreferences; escape `\\` in JSON as `\\\\`)",
                    )
                });
                return None;
            }
            Some(Got::Str(s.to_string()))
        }
        Arg::Argv => {
            let Some(items) = a.as_array() else {
                return bad(
                    format!("{what} is {}, not an array", a.described()),
                    format!("write it as {}", example(ty)),
                );
            };
            if items.is_empty() {
                return bad(
                    format!("{what} is empty"),
                    format!("write it as {}", example(ty)),
                );
            }
            let mut out = Vec::new();
            for i in items {
                match i.as_str() {
                    Some(s) if !s.is_empty() && !s.contains('\0') => out.push(s.to_string()),
                    _ => {
                        issues.push(issue(
                            Problem::Arguments,
                            at(i),
                            format!("an entry of {what} is not a non-empty string"),
                            "write each argument as a string; the command runs without a shell",
                        ));
                        return None;
                    }
                }
            }
            Some(Got::List(out))
        }
        Arg::Seconds | Arg::Count => {
            let max = if ty == Arg::Seconds {
                MAX_COMMAND_SECS
            } else {
                u64::MAX
            };
            match a.as_u64() {
                Some(n) if n >= 1 && n <= max => Some(Got::Num(n)),
                _ => bad(
                    format!(
                        "{what} is {}, not a whole number from 1 to {}",
                        match a.as_number() {
                            Some(n) => n.to_string(),
                            None => a.described().to_string(),
                        },
                        if ty == Arg::Seconds {
                            max.to_string()
                        } else {
                            "2^64 − 1".into()
                        }
                    ),
                    format!("write it as {}", example(ty)),
                ),
            }
        }
        Arg::Json => {
            let raw = source.get(a.start..a.end).unwrap_or("null");
            if let Err(e) = serde_json::from_str::<base::json::Json>(raw) {
                let msg = e.to_string();
                let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
                return bad(
                    format!("{what} cannot be compared: {msg}"),
                    "use numbers within ±9007199254740991 and unique keys".into(),
                );
            }
            match serde_json::from_str::<serde_json::Value>(raw) {
                Ok(j) => Some(Got::Json(j)),
                Err(e) => bad(
                    format!("{what} is not JSON: {e}"),
                    "write a JSON value".into(),
                ),
            }
        }
    }
}

fn first_line(s: &str) -> String {
    let lines: Vec<&str> = s
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    // the regex crate's messages are "regex parse error:\n  pattern\n  ^\nerror: what"
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("error: "))
        .map(str::to_string)
        .unwrap_or_else(|| lines.join(" "))
}

/// `start..end` of a value in its file.
pub type ByteRange = (usize, usize);

/// The entries of an eval's `forbidden_skills`: each a skill name that
/// becomes a `skill_not_loaded` blocker, or the problem with the list.
pub fn forbidden(v: &Value) -> Result<Vec<(String, ByteRange)>, Issue> {
    let Some(items) = v.as_array() else {
        return Err(issue(
            Problem::Shape,
            at(v),
            format!("`forbidden_skills` is {}, not an array", v.described()),
            "list the skills that must not load, e.g. [\"deploy-production\"]",
        ));
    };
    let mut out = Vec::new();
    for i in items {
        match i.as_str() {
            Some(s) if !s.trim().is_empty() => out.push((s.trim().to_string(), at(i))),
            _ => {
                return Err(issue(
                    Problem::Shape,
                    at(i),
                    format!(
                        "an entry of `forbidden_skills` is {}, not a skill name",
                        i.described()
                    ),
                    "write each skill name as a non-empty string",
                ));
            }
        }
    }
    Ok(out)
}

/// The description of a `forbidden_skills` entry.
pub fn forbidden_text(skill: &str) -> String {
    Check::SkillNotLoaded {
        skill: skill.to_string(),
    }
    .describe()
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntax::json;

    fn one(text: &str) -> (Option<Read>, Vec<Issue>) {
        let t = json::parse(text).unwrap();
        read(&t.root, text)
    }

    #[test]
    fn strings_take_their_kind_from_the_prefix() {
        let (r, i) = one("\"BLOCKER:  no write is attempted \"");
        assert!(i.is_empty());
        let r = r.unwrap();
        assert_eq!(
            (r.kind, r.text.as_str()),
            (ExpectKind::Blocker, "no write is attempted")
        );
        let r = one("\"QUALITY: tidy\"").0.unwrap();
        assert_eq!(r.kind, ExpectKind::Quality);
        let r = one("\"plain\"").0.unwrap();
        assert_eq!((r.kind, r.text.as_str()), (ExpectKind::Quality, "plain"));
        let (r, i) = one("\"BLOCKER:\"");
        assert!(r.is_none());
        assert_eq!(i[0].problem, Problem::Shape);
    }

    #[test]
    fn a_prefix_written_another_way_is_a_warning_and_stays_quality() {
        for s in [
            "\"Blocker: x\"",
            "\"blocker - x\"",
            "\"[BLOCKER] x\"",
            "\"BLOCKING: x\"",
        ] {
            let (r, i) = one(s);
            assert_eq!(r.unwrap().kind, ExpectKind::Quality, "{s}");
            assert_eq!(i.len(), 1, "{s}");
            assert_eq!(i[0].problem, Problem::Prefix);
        }
        assert!(one("\"Blockers are listed first\"").1.is_empty());
        assert!(one("\"Quality of the fix is high\"").1.is_empty());
    }

    #[test]
    fn objects_spell_the_kind_or_carry_a_check() {
        let r = one(r#"{"text": "totals reconcile", "kind": "blocker"}"#)
            .0
            .unwrap();
        assert_eq!(r.kind, ExpectKind::Blocker);
        assert_eq!(r.check, None);
        let r = one(r#"{"check": "file_exists", "path": "src/a.test.js"}"#)
            .0
            .unwrap();
        assert_eq!(r.kind, ExpectKind::Quality);
        assert_eq!(r.text, "`src/a.test.js` exists");
        assert_eq!(
            r.check,
            Some(Check::FileExists {
                path: "src/a.test.js".into()
            })
        );
        let r = one(r#"{"check": "command", "argv": ["npm", "test"], "timeout_secs": 30, "kind": "blocker", "text": "the suite passes"}"#)
            .0
            .unwrap();
        assert_eq!(r.text, "the suite passes");
        assert_eq!(
            r.check,
            Some(Check::Command {
                argv: vec!["npm".into(), "test".into()],
                timeout_secs: Some(30)
            })
        );
        let r = one(r#"{"check": "answer_json", "expected": {"total": 42, "ok": [true]}}"#)
            .0
            .unwrap();
        assert_eq!(
            r.check,
            Some(Check::AnswerJson {
                expected: serde_json::json!({"total": 42, "ok": [true]})
            })
        );
    }

    #[test]
    fn every_problem_has_its_rule() {
        let cases = [
            ("3", Problem::Shape),
            (r#"{"kind": "blocker"}"#, Problem::Shape),
            (r#"{"text": "x", "kind": "must"}"#, Problem::Shape),
            (r#"{"text": "x", "path": "a"}"#, Problem::Shape),
            (
                r#"{"text": "BLOCKER: x", "kind": "quality"}"#,
                Problem::Shape,
            ),
            (
                r#"{"check": "file_exist", "path": "a"}"#,
                Problem::UnknownCheck,
            ),
            (r#"{"check": 1}"#, Problem::UnknownCheck),
            (r#"{"check": "file_exists"}"#, Problem::Arguments),
            (
                r#"{"check": "file_exists", "path": "a", "pth": 1}"#,
                Problem::Arguments,
            ),
            (r#"{"check": "command", "argv": []}"#, Problem::Arguments),
            (
                r#"{"check": "command", "argv": ["x"], "timeout_secs": 601}"#,
                Problem::Arguments,
            ),
            (r#"{"check": "max_turns", "max": 0}"#, Problem::Arguments),
            (
                r#"{"check": "answer_json", "expected": 9007199254740993}"#,
                Problem::Arguments,
            ),
            (
                r#"{"check": "file_exists", "path": "../x"}"#,
                Problem::PathEscape,
            ),
            (
                r#"{"check": "file_absent", "path": "/etc/passwd"}"#,
                Problem::PathEscape,
            ),
            (
                r#"{"check": "answer_matches", "regex": "(a"}"#,
                Problem::Regex,
            ),
            (
                r#"{"check": "file_matches", "path": "a", "regex": "a{99999}{99999}"}"#,
                Problem::Regex,
            ),
        ];
        for (text, want) in cases {
            let (r, i) = one(text);
            assert!(r.is_none(), "{text}");
            assert!(i.iter().any(|x| x.problem == want), "{text}: {i:?}");
        }
        let (_, i) = one(r#"{"check": "file_exist", "path": "a"}"#);
        assert!(i[0].help.contains("file_exists"), "{}", i[0].help);
    }

    #[test]
    fn every_check_has_a_name_a_description_and_a_plan_form() {
        for name in check_names() {
            let spec = CHECKS.iter().find(|(n, _)| *n == name).unwrap().1;
            let args: Vec<String> = spec
                .iter()
                .map(|(a, ty, _)| {
                    let v = match ty {
                        Arg::Path => "\"a/b\"".to_string(),
                        Arg::Text | Arg::Regex => "\"x\"".into(),
                        Arg::Argv => "[\"true\"]".into(),
                        Arg::Seconds | Arg::Count => "5".into(),
                        Arg::Json => "{\"a\": 1}".into(),
                    };
                    format!("\"{a}\": {v}")
                })
                .collect();
            let text = format!("{{\"check\": \"{name}\", {}}}", args.join(", "));
            let (r, i) = one(&text);
            assert!(i.is_empty(), "{text}: {i:?}");
            let c = r.unwrap().check.unwrap();
            assert_eq!(c.name(), name);
            assert!(!c.describe().is_empty());
            let plan = serde_json::to_value(&c).unwrap();
            assert_eq!(plan["check"], name);
            assert_eq!(serde_json::from_value::<Check>(plan).unwrap(), c);
        }
    }

    #[test]
    fn workspace_paths_stay_inside() {
        assert_eq!(path_problem("src/a.js"), None);
        assert_eq!(path_problem("./a"), None);
        assert!(path_problem("a/../../b").is_some());
        assert!(path_problem("C:\\x").is_some());
        assert!(path_problem("").is_some());
    }
}
