//! The scorer: trigger metrics, paired task uplift and gates over recorded
//! evidence (it never calls a model).
//!
//! [`score_files`] reads a skill folder, `cases.jsonl` and
//! `observations.jsonl` and returns a [`Report`]; `report::scored::render` prints it;
//! [`Report::exit`] is the exit code. The statistics are pure functions in
//! [`trigger`], [`uplift`] and [`gate`]; [`input`] reads the files;
//! [`triggers`] gates trigger sets (`skillsift score triggers`).

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.
pub(crate) use crate as score;
use base::{diag, escape, exit};
#[allow(clippy::single_component_path_imports)]
use {base, catalog};

pub mod expectations;
pub mod gate;
pub mod gates;
pub mod input;
pub mod skill;
pub mod task;
pub mod trigger;
pub mod triggers;
pub mod uplift;

pub use gate::{Gate, Verdict};
pub use gates::Gates;

use crate::exit::{Exit, Fatal};
use input::{Case, Variant};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use trigger::Confusion;

/// Fewest distinct cases (distinct prompts) the scorer judges.
pub const MIN_CASES: usize = 10;
/// Coverage of the uplift interval.
pub const CONFIDENCE: f64 = 0.95;
/// Most trials per case and variant.
pub const MAX_TRIALS: u32 = 1000;

/// How to score.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Trials per case and variant (observations must hold trials 1..=N).
    pub trials: u32,
    /// Seed of the bootstrap generator.
    pub seed: u64,
    /// Fail when trigger F1 is below this.
    pub min_trigger_f1: Option<f64>,
    /// Fail when the uplift interval's lower bound is below this.
    pub min_uplift: Option<f64>,
    /// Fail when the quality delta (points) is below this, unless the
    /// skill fixes a blocker the baseline fails.
    pub min_quality_delta: Option<f64>,
    /// Why skill loads say nothing about triggering in this evidence (the
    /// skill was in every prompt); `None` when they do. With a reason, no
    /// trigger statistic is computed.
    pub triggers_unobserved: Option<String>,
    /// What the `without` arm ran instead of no skill (an earlier version
    /// of it, `--baseline-skill`): its label. The `without` arm may then
    /// load the skill.
    pub baseline: Option<String>,
}

impl Options {
    /// The options for `trials` per case and variant under `gates`.
    pub fn new(trials: u32, gates: crate::score::Gates) -> Options {
        Options {
            trials,
            seed: gates.seed,
            min_trigger_f1: gates.min_trigger_f1,
            min_uplift: gates.min_uplift,
            min_quality_delta: gates.min_quality_delta,
            triggers_unobserved: None,
            baseline: None,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            trials: 3,
            seed: 0,
            min_trigger_f1: None,
            min_uplift: None,
            min_quality_delta: None,
            triggers_unobserved: None,
            baseline: None,
        }
    }
}

/// The three inputs.
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    pub skill_dir: &'a Path,
    pub cases: &'a Path,
    pub observations: &'a Path,
}

/// The tested skill.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillInfo {
    pub name: String,
    pub skill_md_sha256: String,
    /// The skill hash (see `skill.rs`).
    pub skill_sha256: String,
    /// The same value under its older name, kept for readers of earlier
    /// reports.
    pub dir_sha256: String,
}

/// SHA-256 of the two evidence files as read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputHashes {
    pub cases_sha256: String,
    pub observations_sha256: String,
}

/// Trigger results over `with` runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TriggerReport {
    pub tp: u64,
    pub fp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
    pub tn: u64,
    /// `with` runs counted (case ids × trials).
    pub runs: u64,
    pub precision: Option<f64>,
    pub recall: Option<f64>,
    pub f1: Option<f64>,
    /// Case ids passing the per-case majority rule.
    pub cases_passed: usize,
    /// Should-not cases that triggered in a majority of runs, sorted.
    pub false_trigger_cases: Vec<String>,
    /// Should-trigger cases that did not, sorted.
    pub missed_trigger_cases: Vec<String>,
    /// The prompts of sibling skills installed beside the tested one
    /// (cases with an `owner`), when there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theft: Option<Theft>,
}

/// Trigger theft: sibling skills' prompts the tested skill takes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Theft {
    /// Sibling prompts (cases with an owner).
    pub cases: usize,
    /// Those the tested skill loaded on in a majority of `with` runs.
    pub stolen: Vec<Stolen>,
}

/// One stolen prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stolen {
    pub case: String,
    pub owner: String,
    /// `with` runs that loaded the tested skill.
    pub loaded: u32,
    /// Runs that loaded the owner, with and without the tested skill.
    pub owner_with: u32,
    pub owner_without: u32,
    pub trials: u32,
}

/// What each arm ran.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Arms {
    pub with: String,
    pub without: String,
}

impl Arms {
    pub fn new(baseline: Option<&str>) -> Arms {
        match baseline {
            None => Arms {
                with: "with skill".into(),
                without: "without skill".into(),
            },
            Some(b) => Arms {
                with: "with skill (this version)".into(),
                without: format!("baseline {b}"),
            },
        }
    }
}

/// The uplift interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Uplift {
    /// mean(dᵢ) over distinct cases.
    pub mean: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    /// Interval coverage (0.95).
    pub level: f64,
    pub resamples: u32,
    pub seed: u64,
    pub rng: &'static str,
}

/// The exact two-sided sign test over nonzero dᵢ.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignTest {
    /// Nonzero differences.
    pub n: u64,
    pub positive: u64,
    pub negative: u64,
    /// Cases whose difference is exactly 0 (left out of n).
    pub zero: u64,
    pub p_value: f64,
}

/// Task results over cases with a task check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskReport {
    /// Distinct cases (prompts) with a task check.
    pub cases: usize,
    pub with_pass_rate: f64,
    pub without_pass_rate: f64,
    pub uplift: Uplift,
    pub sign_test: SignTest,
}

/// Everything the scorer concluded. The JSON keys are stable: keys may be
/// added, never renamed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub skill: SkillInfo,
    /// Distinct cases: case ids with distinct prompts.
    pub cases: usize,
    /// Lines in cases.jsonl.
    pub case_ids: usize,
    pub trials: u32,
    /// The minimum number of distinct cases.
    pub min_cases: usize,
    pub inputs: InputHashes,
    /// `null` when triggering was not observed (see `trigger_unobserved`).
    pub trigger: Option<TriggerReport>,
    /// Why there are no trigger statistics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger_unobserved: Option<String>,
    /// `null` when no case has a task check.
    pub task: Option<TaskReport>,
    /// Per-expectation figures (blockers, quality delta, assertions that
    /// do not discriminate); `null` when no case lists its expectations.
    pub expectations: Option<expectations::ExpectationReport>,
    /// What the two arms ran.
    pub arms: Arms,
    pub gates: Vec<Gate>,
    pub verdict: Verdict,
    /// Each case id's runs, in cases.jsonl order (for the JUnit and HTML
    /// reports; not part of the JSON shape).
    #[serde(skip)]
    pub per_case: Vec<CaseOutcome>,
}

/// One case id's runs as the scorer counted them.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseOutcome {
    pub id: String,
    pub prompt: String,
    pub expect_trigger: bool,
    /// `with` runs that loaded the skill, of `trials`.
    pub triggered: u32,
    /// The per-case majority rule on triggers passed.
    pub trigger_passed: bool,
    /// Runs that passed the task check (with, without), when there is one.
    pub task: Option<(u32, u32)>,
}

impl Report {
    /// 0 pass, 1 a gate failed, 3 insufficient evidence, 4 unavailable.
    pub fn exit(&self) -> Exit {
        self.verdict.exit()
    }
}

/// Score the evidence in three files.
pub fn score_files(inputs: &Inputs, opts: &Options) -> Result<Report, Fatal> {
    score_files_checked(inputs, opts, None, &mut || {})
}

/// One client's report, when the evidence holds several clients' runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClientReport {
    pub client: String,
    #[serde(flatten)]
    pub report: Report,
}

/// The scorer's conclusion over evidence from one client, or from several
/// (each observation naming its `client`), each scored as its own
/// evaluation and gated on its own.
#[derive(Debug, Clone, PartialEq)]
pub enum Scored {
    One(Box<Report>),
    PerClient(Vec<ClientReport>),
}

impl Scored {
    /// The worst of the clients' exit codes.
    pub fn exit(&self) -> Exit {
        match self {
            Scored::One(r) => r.exit(),
            Scored::PerClient(v) => v.iter().fold(Exit::Ok, |e, c| e.worst(c.report.exit())),
        }
    }

    /// The skill hash every report names.
    pub fn skill_sha256(&self) -> &str {
        match self {
            Scored::One(r) => &r.skill.skill_sha256,
            Scored::PerClient(v) => v.first().map_or("", |c| &c.report.skill.skill_sha256),
        }
    }
}

/// The clients the observations name, sorted; refuses a file that mixes
/// lines with a client and lines without.
fn clients_of(path: &Path) -> Result<Vec<String>, Fatal> {
    let mut lines = input::lines(path)?;
    let (mut named, mut unnamed) = (std::collections::BTreeSet::new(), None);
    while let Some((no, text)) = lines.next_line()? {
        if text.trim().is_empty() {
            continue;
        }
        let o = input::parse_observation(path, no, text)?;
        match o.client {
            Some(c) => {
                named.insert(c);
            }
            None => {
                unnamed.get_or_insert(no);
            }
        }
    }
    if let (Some(no), false) = (unnamed, named.is_empty()) {
        return Err(Fatal::usage(format!(
            "{}:{no}: this observation names no `client`, but others do ({}): the scorer cannot tell whose run it is",
            path.display(),
            named.iter().cloned().collect::<Vec<_>>().join(", ")
        ))
        .with_help("give every line a `client`, or none"));
    }
    Ok(named.into_iter().collect())
}

/// Score the evidence, once per client when the observations name more
/// than one: each client's runs must be complete on their own.
pub fn score_by_client(inputs: &Inputs, opts: &Options) -> Result<Scored, Fatal> {
    let clients = clients_of(inputs.observations)?;
    if clients.len() < 2 {
        return score_files(inputs, opts).map(|r| Scored::One(Box::new(r)));
    }
    let mut out = Vec::new();
    for c in clients {
        let report = score_files_checked(inputs, opts, Some(&c), &mut || {})?;
        out.push(ClientReport { client: c, report });
    }
    Ok(Scored::PerClient(out))
}

/// [`score_files`] with a hook run between scoring and the second hash of
/// the skill folder (tests use it to change the folder).
fn score_files_checked(
    inputs: &Inputs,
    opts: &Options,
    client: Option<&str>,
    between: &mut dyn FnMut(),
) -> Result<Report, Fatal> {
    validate(opts)?;
    let before = skill::snapshot(inputs.skill_dir)?;
    let mut report = score_evidence(
        inputs.cases,
        inputs.observations,
        &before.name,
        client,
        opts,
    )?;
    report.skill = SkillInfo {
        name: before.name.clone(),
        skill_md_sha256: before.skill_md_sha256.clone(),
        skill_sha256: before.skill_sha256.clone(),
        dir_sha256: before.skill_sha256.clone(),
    };
    between();
    match skill::snapshot(inputs.skill_dir) {
        Ok(after) if after == before => Ok(report),
        _ => Err(skill::changed(inputs.skill_dir)),
    }
}

/// Score `cases` and `observations` for the skill named `skill` without
/// reading its folder: the report's `skill` holds the name and no hashes
/// (`skillsift report` scores recorded iterations this way, as the skill
/// may have changed since). With `client`, only that client's
/// observations count.
pub fn score_evidence(
    cases: &Path,
    observations: &Path,
    skill: &str,
    client: Option<&str>,
    opts: &Options,
) -> Result<Report, Fatal> {
    validate(opts)?;
    let (case_list, cases_sha256) = input::read_cases(cases)?;
    let (runs, observations_sha256) = read_runs(
        observations,
        cases,
        &case_list,
        opts.trials,
        skill,
        client,
        opts.baseline.is_some(),
    )?;
    let mut report = evaluate(&case_list, &runs, opts);
    report.skill.name = skill.to_string();
    report.inputs = InputHashes {
        cases_sha256,
        observations_sha256,
    };
    Ok(report)
}

/// Refuse options the scorer cannot apply (a gate out of range, a trigger
/// gate without trigger evidence); `check --behavioral` asks before any run.
pub fn validate(opts: &Options) -> Result<(), Fatal> {
    if let (Some(_), Some(why)) = (opts.min_trigger_f1, &opts.triggers_unobserved) {
        return Err(Fatal::usage(format!(
            "--min-trigger-f1 cannot be checked: {why}"
        )));
    }
    if opts.trials == 0 || opts.trials > MAX_TRIALS {
        return Err(Fatal::usage(format!(
            "--trials must be between 1 and {MAX_TRIALS}, not {}",
            opts.trials
        )));
    }
    if let Some(x) = opts.min_trigger_f1
        && !(x.is_finite() && (0.0..=1.0).contains(&x))
    {
        return Err(Fatal::usage(format!(
            "--min-trigger-f1 must be between 0 and 1, not {x}"
        )));
    }
    if let Some(y) = opts.min_uplift
        && !(y.is_finite() && (-1.0..=1.0).contains(&y))
    {
        return Err(Fatal::usage(format!(
            "--min-uplift must be between -1 and 1 (a difference of pass rates), not {y}"
        )));
    }
    if let Some(q) = opts.min_quality_delta
        && !(q.is_finite() && (-100.0..=100.0).contains(&q))
    {
        return Err(Fatal::usage(format!(
            "--min-quality-delta must be between -100 and 100 (percentage points), not {q}"
        )));
    }
    Ok(())
}

/// Per-run results, dense: index `case * trials + (trial - 1)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Runs {
    pub trials: u32,
    /// `with` run loaded the tested skill.
    pub triggered: Vec<bool>,
    /// Task check passed (false for cases without a check).
    pub with_pass: Vec<bool>,
    pub without_pass: Vec<bool>,
    /// Each run's verdict and evidence per expectation of its case (empty
    /// for a case that lists none).
    pub with_verdicts: Vec<Vec<(bool, String)>>,
    pub without_verdicts: Vec<Vec<(bool, String)>>,
    /// The run loaded the case's `owner` (cases with one).
    pub owner_with: Vec<bool>,
    pub owner_without: Vec<bool>,
}

/// One observation as counted.
struct Seen {
    line: usize,
    triggered: bool,
    passed: bool,
    owner: bool,
    verdicts: Vec<(bool, String)>,
}

/// The per-expectation verdicts of observation `no` of case `case`.
fn verdicts(
    shown: &std::path::Display,
    no: usize,
    case: &Case,
    o: &input::Observation,
) -> Result<Vec<(bool, String)>, Fatal> {
    let want = case.expectations.len();
    if want == 0 {
        return Ok(Vec::new());
    }
    match &o.expectations {
        Some(v) if v.len() == want => {
            for (i, (got, e)) in v.iter().zip(&case.expectations).enumerate() {
                if let Some(t) = &got.text
                    && t.trim() != e.text.trim()
                {
                    return Err(Fatal::usage(format!(
                        "{shown}:{no}: expectation {} of case `{}` is \"{t}\" here and \"{}\" in cases.jsonl",
                        i + 1,
                        case.id,
                        e.text
                    ))
                    .with_help("list the verdicts in the order of the case's expectations"));
                }
            }
            Ok(v.iter().map(|x| (x.passed, x.evidence.clone())).collect())
        }
        Some(v) => Err(Fatal::usage(format!(
            "{shown}:{no}: case `{}` lists {want} expectations; this observation has {} verdicts",
            case.id,
            v.len()
        ))
        .with_help("record one verdict per expectation of the case, in its order")),
        None if o.exit_code.is_none() => Ok(vec![
            (false, "the run ended without an exit code".to_string());
            want
        ]),
        None => Err(Fatal::usage(format!(
            "{shown}:{no}: case `{}` lists {want} expectations, but this observation has no `expectations` verdicts",
            case.id
        ))
        .with_help("record {\"passed\", \"evidence\"} for every expectation, or drop `expectations` from the case")),
    }
}

/// Read observations.jsonl against the cases: exactly one observation for
/// every (case, trial 1..=trials, variant); anything else is refused.
fn read_runs(
    path: &Path,
    cases_path: &Path,
    cases: &[Case],
    trials: u32,
    skill: &str,
    client: Option<&str>,
    baseline_loads: bool,
) -> Result<(Runs, String), Fatal> {
    let shown = path.display();
    let by_id: HashMap<&str, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    let mut seen: HashMap<(usize, Variant, u32), Seen> = HashMap::new();
    let mut lines = input::lines(path)?;
    while let Some((no, text)) = lines.next_line()? {
        if text.trim().is_empty() {
            continue;
        }
        let o = input::parse_observation(path, no, text)?;
        if client.is_some() && o.client.as_deref() != client {
            continue;
        }
        let Some(&ci) = by_id.get(o.case_id.as_str()) else {
            return Err(Fatal::usage(format!(
                "{shown}:{no}: unknown caseId `{}` (not in {})",
                o.case_id,
                cases_path.display()
            ))
            .with_help("every observation must belong to a case in cases.jsonl; remove the line or add the case"));
        };
        if o.trial == 0 || o.trial > u64::from(trials) {
            return Err(Fatal::usage(format!(
                "{shown}:{no}: case `{}` trial {} is outside 1..={trials}",
                o.case_id, o.trial
            ))
            .with_help(format!(
                "pass --trials with the number of trials recorded (now {trials}), or remove the extra observation"
            )));
        }
        let trial = o.trial as u32;
        let loaded = o.invoked_skills.iter().find(|s| input::loads(s, skill));
        if o.variant == Variant::Without
            && !baseline_loads
            && let Some(entry) = loaded
        {
            return Err(Fatal::usage(format!(
                "{shown}:{no}: the `without` run of case `{}` trial {trial} loaded the tested skill `{skill}` (as `{entry}`)",
                o.case_id
            ))
            .with_help("the baseline arm must run without the skill: remove installed, personal and plugin copies, then record the baseline again"));
        }
        let passed = cases[ci]
            .task
            .as_ref()
            .is_some_and(|c| c.passes(o.exit_code, &o.output));
        let owner = cases[ci]
            .owner
            .as_ref()
            .is_some_and(|w| o.invoked_skills.iter().any(|s| input::loads(s, w)));
        let v = verdicts(&shown, no, &cases[ci], &o)?;
        if let Some(Seen { line: first, .. }) = seen.insert(
            (ci, o.variant, trial),
            Seen {
                line: no,
                triggered: loaded.is_some(),
                passed,
                owner,
                verdicts: v,
            },
        ) {
            return Err(Fatal::usage(format!(
                "{shown}:{no}: duplicate observation for case `{}` trial {trial} variant `{}` (first on line {first})",
                o.case_id,
                o.variant.as_str()
            ))
            .with_help("record exactly one observation per case, trial and variant; remove one of the two lines"));
        }
    }
    let sha = lines.sha256();
    let arms = |c: &Case| if c.with_only { 1 } else { 2 };
    let expected: usize = cases.iter().map(|c| arms(c) * trials as usize).sum();
    if let Some((&(ci, _, trial), s)) = seen
        .iter()
        .filter(|((ci, v, _), _)| *v == Variant::Without && cases[*ci].with_only)
        .min_by_key(|(_, s)| s.line)
    {
        return Err(Fatal::usage(format!(
            "{shown}:{}: case `{}` trial {trial} has a `without` observation, but cases.jsonl marks it `withOnly`",
            s.line, cases[ci].id
        ))
        .with_help("drop the without line, or drop \"withOnly\" from the case"));
    }
    if seen.len() != expected {
        // Every line seen is a distinct valid slot, so a gap exists and is
        // found within seen.len() + 1 steps.
        for (ci, case) in cases.iter().enumerate() {
            for trial in 1..=trials {
                for &v in &[Variant::With, Variant::Without][..arms(case)] {
                    if !seen.contains_key(&(ci, v, trial)) {
                        return Err(Fatal::usage(format!(
                            "{shown}: no observation{} for case `{}` trial {trial} variant `{}` (case on {}:{}); {} of {expected} observations are missing",
                            client.map(|c| format!(" of client `{c}`")).unwrap_or_default(),
                            case.id,
                            v.as_str(),
                            cases_path.display(),
                            case.line,
                            expected - seen.len()
                        ))
                        .with_help(format!(
                            "record one observation for every case, trial 1..={trials} and variant with|without; the scorer never scores a subset"
                        )));
                    }
                }
            }
        }
    }
    let n = cases.len() * trials as usize;
    let mut runs = Runs {
        trials,
        triggered: vec![false; n],
        with_pass: vec![false; n],
        without_pass: vec![false; n],
        with_verdicts: vec![Vec::new(); n],
        without_verdicts: vec![Vec::new(); n],
        owner_with: vec![false; n],
        owner_without: vec![false; n],
    };
    for ((ci, v, trial), o) in seen {
        let at = ci * trials as usize + (trial - 1) as usize;
        match v {
            Variant::With => {
                runs.triggered[at] = o.triggered;
                runs.with_pass[at] = o.passed;
                runs.with_verdicts[at] = o.verdicts;
                runs.owner_with[at] = o.owner;
            }
            Variant::Without => {
                runs.without_pass[at] = o.passed;
                runs.without_verdicts[at] = o.verdicts;
                runs.owner_without[at] = o.owner;
            }
        }
    }
    Ok((runs, sha))
}

/// The statistics over validated cases and runs (skill and input hashes are
/// left empty for the caller to fill).
pub fn evaluate(cases: &[Case], runs: &Runs, opts: &Options) -> Report {
    let n = runs.trials as usize;
    let distinct: std::collections::HashSet<String> =
        cases.iter().map(|c| input::prompt_key(&c.prompt)).collect();

    // Trigger, over with runs, and the per-case majority rule.
    let mut conf = Confusion::default();
    let (mut passed, mut false_trigger, mut missed) = (0, Vec::new(), Vec::new());
    let mut per_case = Vec::with_capacity(cases.len());
    for (ci, c) in cases.iter().enumerate() {
        let at = ci * n..(ci + 1) * n;
        let slice = &runs.triggered[at.clone()];
        for &t in slice {
            conf.add(c.expect_trigger, t);
        }
        let hits = slice.iter().filter(|&&t| t).count() as u64;
        let ok = trigger::case_passes(c.expect_trigger, hits, n as u64);
        let count = |v: &[bool]| v[at.clone()].iter().filter(|&&p| p).count() as u32;
        per_case.push(CaseOutcome {
            id: c.id.clone(),
            prompt: c.prompt.clone(),
            expect_trigger: c.expect_trigger,
            triggered: hits as u32,
            trigger_passed: ok,
            task: c
                .task
                .is_some()
                .then(|| (count(&runs.with_pass), count(&runs.without_pass))),
        });
        if ok {
            passed += 1;
        } else if c.expect_trigger {
            missed.push(c.id.clone());
        } else {
            false_trigger.push(c.id.clone());
        }
    }
    false_trigger.sort();
    missed.sort();
    let owned: Vec<usize> = (0..cases.len())
        .filter(|&ci| cases[ci].owner.is_some())
        .collect();
    let theft = (!owned.is_empty()).then(|| {
        let count = |v: &[bool], ci: usize| {
            v.get(ci * n..(ci + 1) * n)
                .map_or(0, |s| s.iter().filter(|&&x| x).count() as u32)
        };
        let mut stolen: Vec<Stolen> = owned
            .iter()
            .filter(|&&ci| !per_case[ci].trigger_passed)
            .map(|&ci| Stolen {
                case: cases[ci].id.clone(),
                owner: cases[ci].owner.clone().unwrap_or_default(),
                loaded: per_case[ci].triggered,
                owner_with: count(&runs.owner_with, ci),
                owner_without: count(&runs.owner_without, ci),
                trials: n as u32,
            })
            .collect();
        stolen.sort_by(|a, b| a.case.cmp(&b.case));
        Theft {
            cases: owned.len(),
            stolen,
        }
    });
    let trigger = TriggerReport {
        tp: conf.tp,
        fp: conf.fp,
        fn_: conf.fn_,
        tn: conf.tn,
        runs: (cases.len() * n) as u64,
        precision: conf.precision(),
        recall: conf.recall(),
        f1: conf.f1(),
        cases_passed: passed,
        false_trigger_cases: false_trigger,
        missed_trigger_cases: missed,
        theft,
    };

    let task = task_report(cases, runs, opts.seed);
    let per_expectation = expectations::report(cases, runs);
    let insufficient =
        distinct.len() < MIN_CASES || task.as_ref().is_some_and(|t| t.cases < MIN_CASES);
    let mut gates = Vec::new();
    if let Some(x) = opts.min_trigger_f1 {
        gates.push(gate::min_trigger_f1(x, trigger.f1));
    }
    let trigger = opts.triggers_unobserved.is_none().then_some(trigger);
    if let Some(y) = opts.min_uplift {
        gates.push(gate::min_uplift(y, task.as_ref().map(|t| t.uplift.ci_low)));
    }
    let mut unavailable = opts.min_uplift.is_some() && task.is_none();
    if let Some(q) = opts.min_quality_delta {
        let quality = per_expectation.as_ref().and_then(|e| e.quality.as_ref());
        let fixed = per_expectation
            .as_ref()
            .map_or(&[][..], |e| &e.blockers.fixed[..]);
        let g = gate::min_quality_delta(q, quality.map(|x| x.delta_points), fixed);
        unavailable |= g.value.is_none() && !g.passed;
        gates.push(g);
    }
    if let Some(e) = per_expectation
        .as_ref()
        .filter(|e| e.blockers.expectations > 0)
    {
        gates.push(gate::blockers(&e.blockers));
    }
    if let Some(t) = trigger.as_ref().and_then(|t| t.theft.as_ref()) {
        gates.push(gate::no_trigger_theft(t));
    }
    let verdict = gate::verdict(insufficient, unavailable, &gates);
    Report {
        skill: SkillInfo {
            name: String::new(),
            skill_md_sha256: String::new(),
            skill_sha256: String::new(),
            dir_sha256: String::new(),
        },
        cases: distinct.len(),
        case_ids: cases.len(),
        trials: runs.trials,
        min_cases: MIN_CASES,
        inputs: InputHashes {
            cases_sha256: String::new(),
            observations_sha256: String::new(),
        },
        trigger,
        trigger_unobserved: opts.triggers_unobserved.clone(),
        task,
        expectations: per_expectation,
        arms: Arms::new(opts.baseline.as_deref()),
        gates,
        verdict,
        per_case,
    }
}

/// Per distinct case: (with passes, without passes, runs). Case ids with the
/// same prompt are one case: their runs are pooled. Cases are ordered by
/// their smallest id (byte order), so the bootstrap does not depend on the
/// order of lines.
pub fn task_units(cases: &[Case], runs: &Runs) -> Vec<(u64, u64, u64)> {
    let n = runs.trials as usize;
    let mut units: BTreeMap<String, (String, u64, u64, u64)> = BTreeMap::new();
    for (ci, c) in cases.iter().enumerate() {
        if c.task.is_none() {
            continue;
        }
        let w = runs.with_pass[ci * n..(ci + 1) * n]
            .iter()
            .filter(|&&p| p)
            .count() as u64;
        let o = runs.without_pass[ci * n..(ci + 1) * n]
            .iter()
            .filter(|&&p| p)
            .count() as u64;
        let u = units
            .entry(input::prompt_key(&c.prompt))
            .or_insert_with(|| (c.id.clone(), 0, 0, 0));
        if c.id < u.0 {
            u.0 = c.id.clone();
        }
        u.1 += w;
        u.2 += o;
        u.3 += n as u64;
    }
    let mut v: Vec<_> = units.into_values().collect();
    v.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    v.into_iter().map(|(_, w, o, r)| (w, o, r)).collect()
}

fn task_report(cases: &[Case], runs: &Runs, seed: u64) -> Option<TaskReport> {
    let units = task_units(cases, runs);
    if units.is_empty() {
        return None;
    }
    let frac = |f: &dyn Fn(&(u64, u64, u64)) -> i64| {
        let parts: Vec<(i64, u64)> = units.iter().map(|u| (f(u), u.2)).collect();
        uplift::Fractions::new(&parts)
    };
    let exact = (
        frac(&|u| u.0 as i64),
        frac(&|u| u.1 as i64),
        frac(&|u| u.0 as i64 - u.1 as i64),
    );
    let (with_pass_rate, without_pass_rate, mean, (ci_low, ci_high)) = match exact {
        (Some(w), Some(o), Some(d)) => (
            w.mean()?,
            o.mean()?,
            d.mean()?,
            uplift::bootstrap_ci_exact(&d, uplift::RESAMPLES, seed)?,
        ),
        // Least common denominators beyond 64 bits (case groups of many
        // different sizes): the same draws in doubles.
        _ => {
            let of = |f: &dyn Fn(&(u64, u64, u64)) -> f64| -> Vec<f64> {
                units.iter().map(|u| f(u) / u.2 as f64).collect()
            };
            let d = of(&|u| u.0 as f64 - u.1 as f64);
            (
                uplift::mean(&of(&|u| u.0 as f64))?,
                uplift::mean(&of(&|u| u.1 as f64))?,
                uplift::mean(&d)?,
                uplift::bootstrap_ci(&d, uplift::RESAMPLES, seed, CONFIDENCE)?,
            )
        }
    };
    let positive = units.iter().filter(|&&(w, o, _)| w > o).count() as u64;
    let negative = units.iter().filter(|&&(w, o, _)| w < o).count() as u64;
    Some(TaskReport {
        cases: units.len(),
        with_pass_rate,
        without_pass_rate,
        uplift: Uplift {
            mean,
            ci_low,
            ci_high,
            level: CONFIDENCE,
            resamples: uplift::RESAMPLES,
            seed,
            rng: uplift::RNG_NAME,
        },
        sign_test: SignTest {
            n: positive + negative,
            positive,
            negative,
            zero: units.len() as u64 - positive - negative,
            p_value: uplift::sign_test_p(positive, negative),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::task::Check;

    fn case(id: &str, prompt: &str, expect: bool, task: bool) -> Case {
        Case {
            id: id.into(),
            prompt: prompt.into(),
            expect_trigger: expect,
            task: task.then_some(Check::ExitCode(0)),
            split: None,
            expectations: Vec::new(),
            owner: None,
            line: 1,
            with_only: false,
        }
    }

    #[test]
    fn repeated_prompts_are_one_case_and_pool_their_runs() {
        let cases = vec![
            case("b", "Fix  the bug", true, true),
            case("a", "fix the bug", true, true),
            case("c", "other", true, true),
        ];
        let runs = Runs {
            trials: 2,
            triggered: vec![true; 6],
            with_pass: vec![true, true, true, false, false, false],
            without_pass: vec![false, false, true, true, false, true],
            ..Runs::default()
        };
        // "a"+"b" pooled: with 3/4, without 2/4; "c": with 0/2, without 1/2.
        assert_eq!(task_units(&cases, &runs), vec![(3, 2, 4), (0, 1, 2)]);
        let r = evaluate(&cases, &runs, &Options::default());
        assert_eq!((r.cases, r.case_ids), (2, 3));
        let t = r.task.unwrap();
        assert_eq!(t.cases, 2);
        assert_eq!(t.with_pass_rate, 0.375);
        assert_eq!(t.without_pass_rate, 0.5);
        assert_eq!(t.uplift.mean, -0.125);
        assert_eq!((t.sign_test.positive, t.sign_test.negative), (1, 1));
        assert_eq!(t.sign_test.p_value, 1.0);
        assert_eq!(r.verdict, Verdict::Insufficient);
    }

    #[test]
    fn no_task_checks_means_null_task_and_min_uplift_unavailable() {
        let cases: Vec<Case> = (0..10)
            .map(|i| case(&format!("c{i}"), &format!("prompt {i}"), i % 2 == 0, false))
            .collect();
        let runs = Runs {
            trials: 1,
            triggered: (0..10).map(|i| i % 2 == 0).collect(),
            with_pass: vec![false; 10],
            without_pass: vec![false; 10],
            ..Runs::default()
        };
        let r = evaluate(&cases, &runs, &Options::default());
        assert!(r.task.is_none());
        assert_eq!(r.verdict, Verdict::Pass);
        assert_eq!(r.trigger.as_ref().unwrap().f1, Some(1.0));
        let opts = Options {
            min_uplift: Some(0.0),
            ..Options::default()
        };
        let r = evaluate(&cases, &runs, &opts);
        assert_eq!(r.verdict, Verdict::Unavailable);
        assert_eq!(r.exit(), Exit::Unavailable);
        assert_eq!(r.gates[0].value, None);
    }

    #[test]
    fn all_zero_differences_give_a_point_interval_and_p_one() {
        let cases: Vec<Case> = (0..10)
            .map(|i| case(&format!("c{i}"), &format!("prompt {i}"), true, true))
            .collect();
        let runs = Runs {
            trials: 3,
            triggered: vec![true; 30],
            with_pass: vec![true; 30],
            without_pass: vec![true; 30],
            ..Runs::default()
        };
        let t = evaluate(&cases, &runs, &Options::default()).task.unwrap();
        assert_eq!(
            (t.uplift.mean, t.uplift.ci_low, t.uplift.ci_high),
            (0.0, 0.0, 0.0)
        );
        assert_eq!(
            (t.sign_test.n, t.sign_test.zero, t.sign_test.p_value),
            (0, 10, 1.0)
        );
    }

    #[test]
    fn majority_lists_name_false_and_missed_triggers() {
        let cases = vec![
            case("should-hit", "p1", true, false),
            case("should-miss", "p2", true, false),
            case("not-quiet", "p3", false, false),
            case("not-loud", "p4", false, false),
        ];
        let runs = Runs {
            trials: 3,
            // p1: 2/3 pass; p2: 1/3 missed; p3: 1/3 pass; p4: 2/3 false.
            triggered: vec![
                true, true, false, true, false, false, true, false, false, true, true, false,
            ],
            with_pass: vec![false; 12],
            without_pass: vec![false; 12],
            ..Runs::default()
        };
        let t = evaluate(&cases, &runs, &Options::default())
            .trigger
            .unwrap();
        assert_eq!((t.tp, t.fn_, t.fp, t.tn), (3, 3, 3, 3));
        assert_eq!(t.cases_passed, 2);
        assert_eq!(t.missed_trigger_cases, vec!["should-miss"]);
        assert_eq!(t.false_trigger_cases, vec!["not-loud"]);
    }

    #[test]
    fn the_folder_changing_while_scoring_refuses_the_evidence() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/score/example");
        let skill = dir.join("refund-policy");
        if !skill.exists() {
            return;
        }
        let t = tempfile::tempdir().unwrap();
        let copy = t.path().join("refund-policy");
        std::fs::create_dir(&copy).unwrap();
        for e in std::fs::read_dir(&skill).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
        }
        let inputs = Inputs {
            skill_dir: &copy,
            cases: &dir.join("cases.jsonl"),
            observations: &dir.join("observations.jsonl"),
        };
        let opts = Options::default();
        assert!(score_files(&inputs, &opts).is_ok());
        let e = score_files_checked(&inputs, &opts, None, &mut || {
            std::fs::write(copy.join("SKILL.md"), "changed").unwrap();
        })
        .unwrap_err();
        assert_eq!(e.exit, Exit::Usage);
        assert!(e.message.contains("changed while scoring"), "{}", e.message);
    }
}
