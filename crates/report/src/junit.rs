//! `--format junit`: JUnit XML for the test screens of CI systems (GitHub
//! test-report actions, GitLab's merge-request test summary, Jenkins).
//!
//! `check` (Tiers 1 and 2) writes two suites:
//!
//! - `skillsift.lint`: one testcase per file checked (every SKILL.md, case
//!   file and command file, and any other file with a Tier 1 finding),
//!   named by its path;
//! - `skillsift.routing`: one testcase per trigger prompt (classname
//!   `skillsift.routing.<skill>`, named `positive: <prompt>` or
//!   `negative: <prompt>`), one per routed SKILL.md for what Tier 2 says of
//!   its description (collisions, listing; classname
//!   `skillsift.routing.description`), `rank-1 rate`, and one per other
//!   file a Tier 2 finding names.
//!
//! A testcase fails (`<failure>`) when it has an error; its text lists every
//! finding as `file:line:col: error[SG101] name: message` with its help.
//! Warnings and notices never fail a test: they are listed in the
//! testcase's `<system-out>`. Testcases carry `file` and `line` attributes,
//! which GitLab and the GitHub test-report actions turn into links and
//! annotations.
//!
//! Tier 3 (`check --behavioral`, `merge`, `score`) writes suites
//! `<skill>.trigger` (one testcase per case: the majority rule on skill
//! loads), `<skill>.task` (one per case with a task check: it fails when the
//! with-skill runs pass the task in at most half of the trials; the text
//! names each failed expectation with the grader's evidence) and
//! `<skill>.gates` (one per gate, and `evidence`, an `<error>` when there
//! are too few cases or no verdict). A case with a run that produced no
//! verdict is an `<error>`, never a failure; an iteration that is not
//! scored (a shard, no baseline) marks its cases `<skipped>` with the
//! reason.
//!
//! No time or timestamp is written: the same input gives the same bytes.
//! Text is escaped for XML, and characters XML cannot hold (most control
//! characters) become U+FFFD.

use super::{Outcome, display_path};
use crate::behave::plan::{CaseKind, PlanDoc, Variant};
use crate::behave::results::RunRecord;
use crate::diag::{Diagnostic, Severity, Span};
use crate::lint::registry;
use crate::route::cases::{Kind, PromptResult};
use crate::score::{CaseOutcome, Report, Verdict};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::Write;

/// Characters of a prompt in a testcase name.
const NAME_CHARS: usize = 120;

/// How a testcase ended.
#[derive(Debug, Clone, PartialEq)]
enum Res {
    Pass,
    Failure {
        message: String,
        kind: String,
        text: String,
    },
    Error {
        message: String,
        text: String,
    },
    Skipped {
        message: String,
    },
}

#[derive(Debug, Clone)]
struct Case {
    name: String,
    classname: String,
    file: Option<String>,
    line: Option<u32>,
    res: Res,
    out: String,
}

impl Case {
    fn new(name: impl Into<String>, classname: impl Into<String>) -> Case {
        Case {
            name: name.into(),
            classname: classname.into(),
            file: None,
            line: None,
            res: Res::Pass,
            out: String::new(),
        }
    }
}

#[derive(Debug, Clone)]
struct Suite {
    name: String,
    properties: Vec<(String, String)>,
    cases: Vec<Case>,
}

/// Escape text for XML content or a quoted attribute value.
fn esc(s: &str, attr: bool) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' if attr => o.push_str("&quot;"),
            '\n' if attr => o.push_str("&#10;"),
            '\r' if attr => o.push_str("&#13;"),
            '\t' if attr => o.push_str("&#9;"),
            '\t' | '\n' => o.push(c),
            '\r' => o.push_str("&#13;"),
            // not allowed in XML 1.0 at all
            '\u{0}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}' => o.push('\u{FFFD}'),
            // DEL, C1, bidirectional and invisible characters: a character
            // reference, so none reaches a terminal that shows the file raw
            c if crate::escape::is_unsafe(c) => o.push_str(&format!("&#x{:X};", c as u32)),
            c => o.push(c),
        }
    }
    o
}

/// `text` cut to `max` characters, with `…`.
fn cut(text: &str, max: usize) -> String {
    super::html::cut(text, max).replace(['\n', '\r'], " ")
}

fn write_suites<S: std::borrow::Borrow<Suite>>(
    name: &str,
    suites: &[S],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let suites: Vec<&Suite> = suites.iter().map(|s| s.borrow()).collect();
    let count = |f: fn(&Res) -> bool| -> usize {
        suites
            .iter()
            .flat_map(|s| &s.cases)
            .filter(|c| f(&c.res))
            .count()
    };
    let tests: usize = suites.iter().map(|s| s.cases.len()).sum();
    let mut x = String::new();
    let _ = writeln!(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        x,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
        esc(name, true),
        count(|r| matches!(r, Res::Failure { .. })),
        count(|r| matches!(r, Res::Error { .. })),
        count(|r| matches!(r, Res::Skipped { .. })),
    );
    for s in suites {
        let n = |f: fn(&Res) -> bool| s.cases.iter().filter(|c| f(&c.res)).count();
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
            esc(&s.name, true),
            s.cases.len(),
            n(|r| matches!(r, Res::Failure { .. })),
            n(|r| matches!(r, Res::Error { .. })),
            n(|r| matches!(r, Res::Skipped { .. })),
        );
        if !s.properties.is_empty() {
            x.push_str("    <properties>\n");
            for (k, v) in &s.properties {
                let _ = writeln!(
                    x,
                    "      <property name=\"{}\" value=\"{}\"/>",
                    esc(k, true),
                    esc(v, true)
                );
            }
            x.push_str("    </properties>\n");
        }
        for c in &s.cases {
            let _ = write!(
                x,
                "    <testcase name=\"{}\" classname=\"{}\"",
                esc(&c.name, true),
                esc(&c.classname, true)
            );
            if let Some(f) = &c.file {
                let _ = write!(x, " file=\"{}\"", esc(f, true));
            }
            if let Some(l) = c.line {
                let _ = write!(x, " line=\"{l}\"");
            }
            if c.res == Res::Pass && c.out.is_empty() {
                x.push_str("/>\n");
                continue;
            }
            x.push_str(">\n");
            match &c.res {
                Res::Pass => {}
                Res::Failure {
                    message,
                    kind,
                    text,
                } => {
                    let _ = writeln!(
                        x,
                        "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                        esc(message, true),
                        esc(kind, true),
                        esc(text, false)
                    );
                }
                Res::Error { message, text } => {
                    let _ = writeln!(
                        x,
                        "      <error message=\"{}\" type=\"no-verdict\">{}</error>",
                        esc(message, true),
                        esc(text, false)
                    );
                }
                Res::Skipped { message } => {
                    let _ = writeln!(x, "      <skipped message=\"{}\"/>", esc(message, true));
                }
            }
            if !c.out.is_empty() {
                let _ = writeln!(x, "      <system-out>{}</system-out>", esc(&c.out, false));
            }
            x.push_str("    </testcase>\n");
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    out.write_all(x.as_bytes())
}

/// A finding as one line (and its help on the next).
fn finding(prefix: &str, d: &Diagnostic) -> String {
    let place = match d.span {
        Some(s) => format!("{}:{}:{}", display_path(prefix, &d.file), s.line, s.col),
        None => display_path(prefix, &d.file),
    };
    let name = registry::find(d.rule).map_or("", |r| r.name);
    let mut s = format!("{place}: {}[{}] {name}: {}", d.severity, d.rule, d.message);
    if let Some(h) = &d.help {
        let _ = write!(s, "\n  help: {h}");
    }
    s
}

/// A testcase's result and output from its findings.
fn judge(c: &mut Case, prefix: &str, found: &[&Diagnostic]) {
    let errors: Vec<&&Diagnostic> = found
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let others: Vec<String> = found
        .iter()
        .filter(|d| d.severity != Severity::Error)
        .map(|d| finding(prefix, d))
        .collect();
    c.out = others.join("\n");
    if let Some(first) = errors.first() {
        let rules: BTreeSet<&str> = errors.iter().map(|d| d.rule).collect();
        c.res = Res::Failure {
            message: if errors.len() == 1 {
                format!("{}: {}", first.rule, cut(&first.message, 300))
            } else {
                format!(
                    "{} errors, the first {}: {}",
                    errors.len(),
                    first.rule,
                    cut(&first.message, 300)
                )
            },
            kind: rules.into_iter().collect::<Vec<_>>().join(","),
            text: errors
                .iter()
                .map(|d| finding(prefix, d))
                .collect::<Vec<_>>()
                .join("\n"),
        };
    }
}

/// Make names unique within a classname (`… (2)`), as CI screens key
/// tests by (classname, name).
fn dedupe(cases: &mut [Case]) {
    let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
    for c in cases.iter_mut() {
        let n = seen
            .entry((c.classname.clone(), c.name.clone()))
            .or_insert(0);
        *n += 1;
        if *n > 1 {
            c.name = format!("{} ({n})", c.name);
        }
    }
}

/// What `check --format junit` needs beyond the findings.
#[derive(Debug, Default, Clone, Copy)]
pub struct Checked<'a> {
    /// Every file Tier 1 checked.
    pub files: &'a [String],
    /// Every trigger prompt Tier 2 ranked.
    pub prompts: &'a [PromptResult],
    /// Every routed SKILL.md.
    pub routed: &'a [String],
}

/// Tiers 1 and 2.
pub fn render(o: &Outcome, out: &mut dyn Write) -> std::io::Result<()> {
    let prefix = o.path_prefix;
    let checked = o.checked;
    let is_route = |d: &&Diagnostic| d.rule.starts_with("SG5");
    // lint: one testcase per file
    let mut by_file: BTreeMap<&str, Vec<&Diagnostic>> = BTreeMap::new();
    for f in checked.files {
        by_file.entry(f).or_default();
    }
    for d in o.diagnostics.iter().filter(|d| !is_route(d)) {
        by_file.entry(&d.file).or_default().push(d);
    }
    let mut lint = Vec::with_capacity(by_file.len());
    for (file, found) in &by_file {
        let mut c = Case::new(display_path(prefix, file), "skillsift.lint");
        c.file = Some(display_path(prefix, file));
        c.line = found.iter().find_map(|d| d.span.map(|s| s.line));
        judge(&mut c, prefix, found);
        lint.push(c);
    }
    // routing: prompts first, then descriptions, the rank-1 rate, other files
    // each finding goes to the first case it belongs to, found by a map
    // rather than a pass over the findings per case (40,000 prompts with
    // 20,000 findings took seconds)
    let all: Vec<&Diagnostic> = o.diagnostics.iter().filter(is_route).collect();
    let mut taken = vec![false; all.len()];
    let mut at_span: HashMap<(&str, Span), Vec<usize>> = HashMap::new();
    for (i, d) in all.iter().enumerate() {
        if let Some(s) = d.span {
            at_span.entry((d.file.as_str(), s)).or_default().push(i);
        }
    }
    let mut routing = Vec::new();
    for p in checked.prompts {
        let mut c = Case::new(
            format!(
                "{}: {}",
                match p.kind {
                    Kind::Positive => "positive",
                    Kind::Negative => "negative",
                },
                cut(&p.prompt, NAME_CHARS)
            ),
            format!("skillsift.routing.{}", p.skill),
        );
        c.file = Some(display_path(prefix, &p.file));
        c.line = Some(p.span.line);
        let mine: Vec<&Diagnostic> = at_span
            .remove(&(p.file.as_str(), p.span))
            .unwrap_or_default()
            .into_iter()
            .map(|i| {
                taken[i] = true;
                all[i]
            })
            .collect();
        judge(&mut c, prefix, &mine);
        if c.res == Res::Pass && c.out.is_empty() {
            c.out = format!(
                "`{}` ranks #{} at {:.3}{}",
                p.skill,
                p.rank,
                p.score,
                if p.rank1 { " (first)" } else { "" }
            );
        }
        routing.push(c);
    }
    dedupe(&mut routing);
    let mut of_file: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, d) in all.iter().enumerate() {
        if !taken[i] {
            of_file.entry(d.file.as_str()).or_default().push(i);
        }
    }
    for file in checked.routed {
        let mine: Vec<&Diagnostic> = of_file
            .remove(file.as_str())
            .unwrap_or_default()
            .into_iter()
            .map(|i| {
                taken[i] = true;
                all[i]
            })
            .collect();
        let mut c = Case::new(display_path(prefix, file), "skillsift.routing.description");
        c.file = Some(display_path(prefix, file));
        judge(&mut c, prefix, &mine);
        routing.push(c);
    }
    let mut left: Vec<&Diagnostic> = all
        .iter()
        .zip(&taken)
        .filter(|(_, t)| !**t)
        .map(|(d, _)| *d)
        .collect();
    if let Some(r) = &o.summary.route
        && (r.positives > 0 || r.min_rank1.is_some())
    {
        let (mine, rest): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
            left.into_iter().partition(|d| d.rule == "SG505");
        left = rest;
        let mut c = Case::new("rank-1 rate", "skillsift.routing");
        judge(&mut c, prefix, &mine);
        let line = super::human::rank1_line(o.summary).unwrap_or_default();
        c.out = if c.out.is_empty() {
            line
        } else {
            format!("{line}\n{}", c.out)
        };
        routing.push(c);
    }
    let mut rest: BTreeMap<&str, Vec<&Diagnostic>> = BTreeMap::new();
    for d in left {
        rest.entry(&d.file).or_default().push(d);
    }
    for (file, found) in rest {
        let mut c = Case::new(display_path(prefix, file), "skillsift.routing");
        c.file = Some(display_path(prefix, file));
        c.line = found.iter().find_map(|d| d.span.map(|s| s.line));
        judge(&mut c, prefix, &found);
        routing.push(c);
    }
    let s = o.summary;
    let mut suites = vec![Suite {
        name: "skillsift.lint".into(),
        properties: vec![
            ("skills_checked".into(), s.skills_checked.to_string()),
            ("errors".into(), s.errors.to_string()),
            ("warnings".into(), s.warnings.to_string()),
            ("notices".into(), s.notices.to_string()),
        ],
        cases: lint,
    }];
    if let Some(r) = &s.route {
        let mut properties = vec![
            ("skills_routed".into(), r.skills_routed.to_string()),
            ("rank1".into(), r.rank1.to_string()),
            ("positives".into(), r.positives.to_string()),
            ("checks".into(), r.checks.to_string()),
            ("checks_passed".into(), r.checks_passed.to_string()),
        ];
        if let Some(f) = r.min_rank1 {
            properties.push(("min_rank1".into(), f.to_string()));
        }
        suites.push(Suite {
            name: "skillsift.routing".into(),
            properties,
            cases: routing,
        });
    } else if !routing.is_empty() {
        suites.push(Suite {
            name: "skillsift.routing".into(),
            properties: Vec::new(),
            cases: routing,
        });
    }
    write_suites("skillsift check", &suites, out)
}

/// One case of a Tier 3 evaluation.
#[derive(Debug, Clone, Copy)]
pub struct Tier3Case<'a> {
    pub id: &'a str,
    pub prompt: &'a str,
    pub expect_trigger: bool,
    /// Whether the case has a task check (an eval).
    pub task: bool,
    /// Its runs, when they were recorded here (`None` in a run: no
    /// run.json).
    pub runs: &'a [(Variant, u32, Option<&'a RunRecord>)],
}

/// A Tier 3 evaluation: the scorer's report (when scored), or why not.
pub struct Tier3<'a> {
    pub skill: &'a str,
    /// The client that ran it, when one report of several (suite and class
    /// names then start with it).
    pub client: Option<&'a str>,
    pub trials: u32,
    pub cases: Vec<Tier3Case<'a>>,
    pub report: Option<&'a Report>,
    /// Why it is not scored; `missing` says runs have no verdict.
    pub unscored: Option<(String, bool)>,
}

impl<'a> Tier3<'a> {
    /// From a scorer's report alone (`skillsift score`).
    pub fn from_report(report: &'a Report) -> Tier3<'a> {
        Tier3 {
            skill: &report.skill.name,
            client: None,
            trials: report.trials,
            cases: report
                .per_case
                .iter()
                .map(|c| Tier3Case {
                    id: &c.id,
                    prompt: &c.prompt,
                    expect_trigger: c.expect_trigger,
                    task: c.task.is_some(),
                    runs: &[],
                })
                .collect(),
            report: Some(report),
            unscored: None,
        }
    }

    /// The cases of a plan with their runs.
    pub fn cases_of(
        plan: &'a PlanDoc,
        runs: &'a [Vec<(Variant, u32, Option<&'a RunRecord>)>],
    ) -> Vec<Tier3Case<'a>> {
        plan.cases
            .iter()
            .zip(runs)
            .map(|(c, r)| Tier3Case {
                id: &c.id,
                prompt: &c.prompt,
                expect_trigger: c.expect_trigger,
                task: c.kind != CaseKind::Trigger,
                runs: r,
            })
            .collect()
    }
}

/// Runs of a case without a verdict, as an `<error>`.
fn no_verdict(c: &Tier3Case) -> Option<Res> {
    let bad: Vec<String> = c
        .runs
        .iter()
        .filter(|(_, _, r)| !r.is_some_and(|r| r.evidence))
        .map(|(v, t, r)| {
            format!(
                "{} #{t}: {}",
                v.as_str(),
                r.and_then(|r| r.reason.as_deref())
                    .unwrap_or("no run.json: the run never finished")
            )
        })
        .collect();
    (!bad.is_empty()).then(|| Res::Error {
        message: format!(
            "no verdict in {} of {} runs: {}",
            bad.len(),
            c.runs.len(),
            cut(&bad[0], 300)
        ),
        text: bad.join("\n"),
    })
}

/// Failed expectations of a case's with-skill runs, with the evidence.
fn failed_expectations(c: &Tier3Case) -> String {
    let mut s = String::new();
    for (v, t, r) in c.runs.iter().filter(|(v, _, _)| *v == Variant::With) {
        let Some(g) = r.and_then(|r| r.grading.as_ref()) else {
            continue;
        };
        for e in g.expectations.iter().filter(|e| !e.passed) {
            let mut what = Vec::new();
            if e.kind == crate::catalog::cases::ExpectKind::Blocker {
                what.push("blocker".to_string());
            }
            if let Some(c) = &e.check {
                what.push(format!("check {c}"));
            }
            let _ = writeln!(
                s,
                "{} #{t}: failed: {}{}\n  evidence: {}",
                v.as_str(),
                e.text,
                if what.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", what.join(", "))
                },
                e.evidence
            );
        }
    }
    s
}

/// Suite `<skill>.expectations`: one testcase per expectation of every
/// case. A blocker fails when it failed in any with-skill trial; a quality
/// expectation never fails a test (it is a score) and says its passes per
/// arm; an assertion that does not discriminate says so and what to do.
fn expectation_cases<'a>(t: &Tier3, r: &'a Report) -> Vec<Case> {
    let Some(e) = &r.expectations else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let key = |case: &'a str, text: &'a str| (case, text);
    let mut nd: BTreeMap<(&str, &str), &crate::score::expectations::NonDiscriminating> =
        BTreeMap::new();
    for n in &e.non_discriminating {
        nd.entry(key(&n.case, &n.expectation)).or_insert(n);
    }
    let mut failed: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
    for f in &e.blockers.failures {
        failed
            .entry(key(&f.case, &f.expectation))
            .or_default()
            .push(format!(
                "blocker failed in trial {}: {}\n  evidence: {}",
                f.trial, f.expectation, f.evidence
            ));
    }
    for item in &e.items {
        let mut c = Case::new(
            format!(
                "{}: {}",
                item.kind.as_str(),
                cut(&item.expectation, NAME_CHARS)
            ),
            format!("{}.expectations.{}", t.scope(), item.case),
        );
        c.out = format!(
            "passed in {} of {} trials {}, {} of {} {}{}",
            item.with_passed,
            item.trials,
            r.arms.with,
            item.without_passed,
            item.trials,
            r.arms.without,
            item.check
                .as_ref()
                .map(|k| format!("; check {k}"))
                .unwrap_or_default()
        );
        if let Some(n) = nd.get(&(item.case.as_str(), item.expectation.as_str())) {
            c.out.push_str(&format!(
                "\ndoes not discriminate: always {} in both arms; {}",
                n.always, n.fix
            ));
        }
        let failures = failed
            .get(&(item.case.as_str(), item.expectation.as_str()))
            .map_or(&[][..], |v| &v[..]);
        if !failures.is_empty() {
            c.res = Res::Failure {
                message: format!(
                    "blocker failed in {} of {} with-skill trials",
                    failures.len(),
                    item.trials
                ),
                kind: "blocker".into(),
                text: failures.join("\n"),
            };
        }
        out.push(c);
    }
    dedupe(&mut out);
    out
}

impl Tier3<'_> {
    /// What suite and class names start with: the skill, after its client
    /// when there is one.
    fn scope(&self) -> String {
        match self.client {
            Some(c) => format!("{c}.{}", self.skill),
            None => self.skill.to_string(),
        }
    }
}

/// Tier 3.
pub fn tier3(t: &Tier3, out: &mut dyn Write) -> std::io::Result<()> {
    write_suites(
        &format!("skillsift behavioral {}", t.skill),
        &tier3_suites(t),
        out,
    )
}

/// One client's Tier 3 suites, kept until every client has run
/// ([`write_clients`]).
pub struct ClientSuites(Vec<Suite>);

/// One client's evaluation as suites whose names start with the client.
pub fn client_suites(t: &Tier3) -> ClientSuites {
    ClientSuites(tier3_suites(t))
}

/// Tier 3 run by several clients: each client's suites, in order, under
/// one `<testsuites>`.
pub fn write_clients(
    skill: &str,
    clients: &[ClientSuites],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let suites: Vec<&Suite> = clients.iter().flat_map(|c| &c.0).collect();
    write_suites(&format!("skillsift behavioral {skill}"), &suites, out)
}

fn tier3_suites(t: &Tier3) -> Vec<Suite> {
    let n = t.trials;
    let outcome = |id: &str| -> Option<&CaseOutcome> {
        t.report
            .and_then(|r| r.per_case.iter().find(|c| c.id == id))
    };
    let skipped = t
        .unscored
        .as_ref()
        .filter(|(_, missing)| !missing)
        .map(|(why, _)| why);
    let mut trigger = Vec::new();
    let mut task = Vec::new();
    for c in &t.cases {
        let name = format!("{}: {}", c.id, cut(c.prompt, NAME_CHARS));
        let mut tc = Case::new(&name, format!("{}.trigger", t.scope()));
        let mut kc = Case::new(&name, format!("{}.task", t.scope()));
        if let Some(err) = no_verdict(c) {
            tc.res = err.clone();
            kc.res = err;
        } else if let Some(why) = skipped {
            tc.res = Res::Skipped {
                message: format!("not scored: {why}"),
            };
            kc.res = tc.res.clone();
        } else if let Some(o) = outcome(c.id) {
            if let Some(r) = t.report.filter(|r| r.trigger.is_none()) {
                tc.res = Res::Skipped {
                    message: format!(
                        "not observed: {}",
                        r.trigger_unobserved
                            .as_deref()
                            .unwrap_or("no trigger evidence")
                    ),
                };
            }
            let should = if o.expect_trigger {
                format!("should load the skill in more than half of {n} runs")
            } else {
                format!("should load the skill in fewer than half of {n} runs")
            };
            if tc.res == Res::Pass {
                tc.out = format!("loaded in {} of {n} with-skill runs; {should}", o.triggered);
            }
            if tc.res == Res::Pass && !o.trigger_passed {
                tc.res = Res::Failure {
                    message: format!(
                        "{} trigger: loaded in {} of {n} with-skill runs; {should}",
                        if o.expect_trigger { "missed" } else { "false" },
                        o.triggered
                    ),
                    kind: "trigger".into(),
                    text: tc.out.clone(),
                };
            }
            if let Some((w, wo)) = o.task {
                kc.out =
                    format!("task passed in {w} of {n} runs with the skill, {wo} of {n} without");
                if !crate::score::trigger::case_passes(true, u64::from(w), u64::from(n)) {
                    let mut text = kc.out.clone();
                    let failed = failed_expectations(c);
                    if !failed.is_empty() {
                        text.push('\n');
                        text.push_str(&failed);
                    }
                    kc.res = Res::Failure {
                        message: format!(
                            "with the skill the task passed in {w} of {n} runs ({wo} of {n} without)"
                        ),
                        kind: "task".into(),
                        text,
                    };
                }
            }
        }
        trigger.push(tc);
        if c.task {
            task.push(kc);
        }
    }
    dedupe(&mut trigger);
    dedupe(&mut task);
    let mut gates = Vec::new();
    let mut evidence = Case::new("evidence", format!("{}.gates", t.scope()));
    let mut base = vec![
        ("skill".to_string(), t.skill.to_string()),
        ("trials".into(), n.to_string()),
    ];
    if let Some(c) = t.client {
        base.insert(0, ("client".to_string(), c.to_string()));
    }
    let mut properties = base.clone();
    match (t.report, &t.unscored) {
        (_, Some((why, true))) => {
            evidence.res = Res::Error {
                message: format!("evidence could not be collected: {why}"),
                text: why.clone(),
            };
        }
        (_, Some((why, false))) => {
            evidence.res = Res::Skipped {
                message: format!("not scored: {why}"),
            };
        }
        (Some(r), None) => {
            properties.push(("verdict".into(), r.verdict.as_str().into()));
            properties.push(("cases".into(), r.cases.to_string()));
            match &r.trigger {
                Some(tr) => {
                    for (k, v) in [
                        ("precision", tr.precision),
                        ("recall", tr.recall),
                        ("f1", tr.f1),
                    ] {
                        properties.push((k.into(), crate::scored::num(v)));
                    }
                }
                None => properties.push((
                    "trigger_unobserved".into(),
                    r.trigger_unobserved.clone().unwrap_or_default(),
                )),
            }
            if let Some(tr) = &r.task {
                properties.push(("with_pass_rate".into(), format!("{:.3}", tr.with_pass_rate)));
                properties.push((
                    "without_pass_rate".into(),
                    format!("{:.3}", tr.without_pass_rate),
                ));
                properties.push(("uplift".into(), crate::scored::signed(tr.uplift.mean)));
                properties.push((
                    "uplift_ci_low".into(),
                    crate::scored::signed(tr.uplift.ci_low),
                ));
                properties.push((
                    "uplift_ci_high".into(),
                    crate::scored::signed(tr.uplift.ci_high),
                ));
            }
            evidence.out = format!("{}: {}", r.verdict.as_str(), crate::scored::verdict_why(r));
            if matches!(r.verdict, Verdict::Insufficient | Verdict::Unavailable) {
                evidence.res = Res::Error {
                    message: evidence.out.clone(),
                    text: evidence.out.clone(),
                };
            }
            if let Some(q) = r.expectations.as_ref().and_then(|e| e.quality.as_ref()) {
                properties.push((
                    "quality_with_pass_rate".into(),
                    format!("{:.3}", q.with_pass_rate),
                ));
                properties.push((
                    "quality_without_pass_rate".into(),
                    format!("{:.3}", q.without_pass_rate),
                ));
                properties.push((
                    "quality_delta_points".into(),
                    crate::scored::points(q.delta_points),
                ));
            }
            properties.push(("arm_with".into(), r.arms.with.clone()));
            properties.push(("arm_without".into(), r.arms.without.clone()));
            for g in &r.gates {
                let mut c = Case::new(g.name.replace('_', "-"), format!("{}.gates", t.scope()));
                let cmp = if g.passed { "≥" } else { "<" };
                c.out = match g.name {
                    "min_uplift" => format!(
                        "{} {cmp} {}",
                        g.value.map_or("n/a".into(), crate::scored::signed),
                        crate::scored::signed(g.threshold)
                    ),
                    "min_trigger_f1" => format!(
                        "{} {cmp} {}",
                        crate::scored::num(g.value),
                        crate::scored::num(Some(g.threshold))
                    ),
                    _ => crate::scored::gate_line(g),
                };
                if let Some(n) = &g.note {
                    c.out.push('\n');
                    c.out.push_str(n);
                }
                if !g.passed {
                    let mut text = c.out.clone();
                    if g.name == "blockers"
                        && let Some(e) = &r.expectations
                    {
                        for f in &e.blockers.failures {
                            let _ = write!(
                                text,
                                "\n{} trial {}: blocker failed: {}\n  evidence: {}",
                                f.case, f.trial, f.expectation, f.evidence
                            );
                        }
                    }
                    c.res = Res::Failure {
                        message: format!(
                            "{}{}: {}",
                            if c.name.starts_with("min-") { "--" } else { "" },
                            c.name,
                            cut(&c.out, 300)
                        ),
                        kind: "gate".into(),
                        text,
                    };
                }
                gates.push(c);
            }
        }
        (None, None) => {}
    }
    gates.insert(0, evidence);
    let expectations = t
        .report
        .filter(|_| t.unscored.is_none())
        .map(|r| expectation_cases(t, r))
        .unwrap_or_default();
    let mut suites = vec![
        Suite {
            name: format!("{}.trigger", t.scope()),
            properties: base.clone(),
            cases: trigger,
        },
        Suite {
            name: format!("{}.task", t.scope()),
            properties: base.clone(),
            cases: task,
        },
        Suite {
            name: format!("{}.gates", t.scope()),
            properties,
            cases: gates,
        },
    ];
    if !expectations.is_empty() {
        suites.insert(
            2,
            Suite {
                name: format!("{}.expectations", t.scope()),
                properties: base,
                cases: expectations,
            },
        );
    }
    suites
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_quotes_line_ends_and_forbidden_characters() {
        assert_eq!(
            esc("a<b>&\"c\"\n\u{0}\u{1b}\u{FFFF}", true),
            "a&lt;b&gt;&amp;&quot;c&quot;&#10;\u{FFFD}\u{FFFD}\u{FFFD}"
        );
        assert_eq!(esc("]]> \"x\"\n", false), "]]&gt; \"x\"\n");
        assert_eq!(
            esc("\r\u{7f}\u{9b}\u{202e}", false),
            "&#13;&#x7F;&#x9B;&#x202E;"
        );
    }

    #[test]
    fn repeated_names_get_a_number() {
        let mut v = vec![
            Case::new("a", "k"),
            Case::new("a", "k"),
            Case::new("a", "other"),
        ];
        dedupe(&mut v);
        assert_eq!(v[1].name, "a (2)");
        assert_eq!(v[2].name, "a");
    }
}
