//! Trigger prompts and behavioral evals, wherever a catalog keeps them, in
//! one model.
//!
//! Every format loads into the same types: [`TriggerCase`] (a prompt that
//! should or should not route to the skill) and [`Eval`] (a task and the
//! [`Expectation`]s a grader checks), each carrying the file and the span
//! it came from. A skill's cases from every file are merged into one
//! [`Suite`], which Tier 2 routes, Tier 3 plans and `skillsift cases`
//! lists. The formats, one file each:
//!
//! - [`case_file`]: `evals/cases/<skill>.json` at the catalog root
//!   (skillsift's own format, addyosmani/agent-skills').
//! - [`evals_json`]: `<skill>/evals/evals.json` and any other
//!   `{"evals": […]}` file in a skill's `evals/` (skill-creator,
//!   agentskills.io); `files` are relative to the skill folder.
//! - [`trigger_set`]: JSON arrays of `{"query", "should_trigger"}` rows in a
//!   skill's `evals/` (found by shape, whatever the file is called), or named
//!   by `[cases] trigger-sets`.
//! - [`waza`]: waza's `trigger_tests.yaml`, next to SKILL.md, under
//!   `evals/` or `tests/`.
//! - [`shaped`]: trigger tests in any other JSON, JSONL or YAML shape, in a
//!   skill's folder or under the catalog root, recognised by what they hold
//!   ([`detect`]).
//!
//! [`scan`] finds the per-skill files. Loading reports only what stops a
//! file from being read (SG400 unreadable, SG401 JSON and SG417 YAML
//! syntax); everything about a file's shape is a Tier 1 rule over the tree
//! kept in [`CaseFile::json`] or [`CaseSource::tree`]. The typed lists are
//! lenient: they hold every case well-formed enough to run and leave out
//! the rest, which Tier 1 reports, so a tier that runs cases never sees a
//! half-built one and `check` fails whenever one was left out.

pub mod case_file;
pub mod csv;
pub mod detect;
pub mod evals_json;
pub mod expectation;
pub mod fixtures;
pub mod markdown;
pub mod read;
pub mod rules;
pub mod shaped;
pub mod trigger_set;
pub mod waza;

pub use case_file::{CaseFile, parse_bytes};
pub use expectation::{Check, ExpectKind};
pub use fixtures::{FixtureError, FixtureRoot, is_git_name, resolve_fixture};

use base::diag::{Diagnostic, Span};
use base::rule;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use syntax::json::{self, Kind, Value};
use syntax::{Source, Spanned, yaml};

/// Where case files live, relative to the catalog root.
pub const CASES_DIR: &str = "evals/cases";
/// Where execution-eval fixtures of case files live, relative to the
/// catalog root.
pub const FIXTURES_DIR: &str = "evals/fixtures";

/// Which part of a tuning workflow a trigger case belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    Train,
    Validation,
    Fresh,
}

impl Split {
    pub const ALL: [&'static str; 3] = ["train", "validation", "fresh"];

    pub fn parse(s: &str) -> Option<Split> {
        match s {
            "train" => Some(Split::Train),
            "validation" => Some(Split::Validation),
            "fresh" => Some(Split::Fresh),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Validation => "validation",
            Split::Fresh => "fresh",
        }
    }
}

/// Whether a trigger prompt should route to the skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// It should (`trigger.positive`, `should_trigger: true`).
    Positive,
    /// It should not (`trigger.negative`, `should_trigger: false`).
    Negative,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Positive => "positive",
            Side::Negative => "negative",
        }
    }
}

/// One trigger prompt with the span of its text.
#[derive(Debug, Clone)]
pub struct TriggerCase {
    pub prompt: Spanned<String>,
    pub side: Side,
    /// `top_k`, when the case sets it to a positive integer.
    pub top_k: Option<usize>,
    /// `owner` of a negative prompt.
    pub owner: Option<Spanned<String>>,
    /// `split`, when the case sets a known one.
    pub split: Option<Split>,
    /// Span of the whole case object.
    pub span: Span,
    /// The file it is written in, relative to the catalog root.
    pub file: String,
    /// A generated draft (`"draft": true`, or a waza `reason` starting
    /// with `draft:`): listed, never routed or run until a person rewrites
    /// it.
    pub draft: bool,
    /// Why it should (not) trigger, when the format says (waza `reason`).
    pub reason: Option<String>,
    /// `"lexical": false`: a prompt the author knows lexical routing cannot
    /// match (a paraphrase, another language). Tier 2 reports it as
    /// expected instead of checking its rank; it stays a Tier 3 case.
    pub lexical: bool,
    /// `"with": [...]`: skills the prompt legitimately loads too. They may
    /// rank above the skill in Tier 2, and their loading is not theft in
    /// Tier 3.
    pub with: Vec<Spanned<String>>,
    /// For a prompt found by shape ([`shaped`]), the fields it was read
    /// from (`records of `prompt`, `expect``).
    pub shape: Option<String>,
    /// Which rule decided whose prompt it is and which side it is on.
    pub decided: Decided,
}

/// Which rule decided a prompt's owner and side, in words a user reads
/// (`skillsift cases --format json`): "`should_trigger` is false", "the
/// skill folder holding the file".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decided {
    /// What said which skill it belongs to.
    pub owner: String,
    /// What said whether it should trigger that skill.
    pub side: String,
}

impl Decided {
    pub fn new(owner: impl Into<String>, side: impl Into<String>) -> Decided {
        Decided {
            owner: owner.into(),
            side: side.into(),
        }
    }
}

/// The owner rule of a file kept in a skill's folder.
pub const IN_SKILL_FOLDER: &str = "the skill folder holding the file";

/// What a behavioral eval grades.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// Runs in a throwaway git repository seeded with `files[]`.
    Execution,
    /// The conversation is the artifact; no fixture.
    Dialogue,
}

impl EvalKind {
    pub const ALL: [&'static str; 2] = ["execution", "dialogue"];

    pub fn parse(s: &str) -> Option<EvalKind> {
        match s {
            "execution" => Some(EvalKind::Execution),
            "dialogue" => Some(EvalKind::Dialogue),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            EvalKind::Execution => "execution",
            EvalKind::Dialogue => "dialogue",
        }
    }
}

/// One thing a run must show: a statement the grader checks, or a
/// deterministic check skillsift runs (see [`expectation`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    /// The statement (without a `BLOCKER:`/`QUALITY:` prefix), or the
    /// check's description.
    pub text: String,
    pub kind: ExpectKind,
    /// `None`: the grader judges it.
    pub check: Option<Check>,
    /// Where it is written.
    pub span: Span,
}

/// Where an eval's `files[]` are read from, and what they are relative to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureBase {
    /// `evals/fixtures/` of the catalog (case files).
    Catalog,
    /// The skill's own folder (skill-creator's `evals.json`: usually
    /// `evals/files/…`): the folder on disk and relative to the catalog.
    Skill { dir: PathBuf, rel: String },
}

impl FixtureBase {
    /// The folder paths are relative to, as users see it.
    pub fn shown(&self) -> String {
        match self {
            FixtureBase::Catalog => format!("{FIXTURES_DIR}/"),
            FixtureBase::Skill { rel, .. } if rel == "." => "the skill folder".to_string(),
            FixtureBase::Skill { rel, .. } => format!("{rel}/"),
        }
    }

    /// The folder on disk, for the catalog at `root`.
    pub fn dir(&self, root: &Path) -> PathBuf {
        match self {
            FixtureBase::Catalog => root.join(FIXTURES_DIR),
            FixtureBase::Skill { dir, .. } => dir.clone(),
        }
    }
}

/// One behavioral eval.
#[derive(Debug, Clone)]
pub struct Eval {
    /// `id` for display: a number as written (`1`) or a string's text.
    pub id: Spanned<String>,
    pub kind: EvalKind,
    pub prompt: Spanned<String>,
    pub expected_output: Option<Spanned<String>>,
    /// Fixture paths as written (not yet checked; see [`resolve_fixture`]),
    /// relative to [`Eval::base`].
    pub files: Vec<Spanned<String>>,
    pub base: FixtureBase,
    /// `expectations`, or the `assertions` spelling.
    pub expectations: Vec<Expectation>,
    pub trust_level: Option<Spanned<String>>,
    /// Span of the whole eval object.
    pub span: Span,
    /// The file it is written in, relative to the catalog root.
    pub file: String,
}

/// What a file in a skill's folder holds, as far as cases go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// `evals/cases/<skill>.json`.
    CaseFile,
    /// `{"skill_name", "evals": […]}`.
    EvalsJson,
    /// `[{"query", "should_trigger"}, …]`.
    TriggerSet,
    /// waza's `trigger_tests.yaml`.
    Waza,
    /// Trigger tests recognised by what the file holds ([`detect`]).
    Shaped,
    /// Trigger tests in a file `[[cases.sources]]` declares ([`declared`]).
    Declared,
    /// skill-creator's `run_eval.py` output (`{"results": […]}`): evidence
    /// for `skillsift score triggers`, not cases.
    Results,
    /// JSON or YAML of no case format (fixtures, waza task specs, …).
    Other,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::CaseFile => "case file",
            Format::EvalsJson => "evals.json",
            Format::TriggerSet => "trigger set",
            Format::Waza => "waza trigger tests",
            Format::Shaped => "trigger tests (found by shape)",
            Format::Declared => "declared source",
            Format::Results => "trigger results",
            Format::Other => "not a case format",
        }
    }

    /// Whether its cases go into the skill's suite.
    pub fn holds_cases(self) -> bool {
        matches!(
            self,
            Format::CaseFile
                | Format::EvalsJson
                | Format::TriggerSet
                | Format::Waza
                | Format::Shaped
                | Format::Declared
        )
    }
}

/// A parsed case source: a JSON or a YAML tree with spans.
#[derive(Debug, Clone)]
pub enum Tree {
    Json(json::Tree),
    Yaml(yaml::Tree),
}

/// A case source in a skill's own folder (every format but case files).
#[derive(Debug, Clone)]
pub struct CaseSource {
    /// Path relative to the catalog root.
    pub file: String,
    /// Path relative to the skill folder.
    pub rel: String,
    pub format: Format,
    /// The skill whose folder holds it (index into `Catalog::skills`).
    pub skill: usize,
    /// The file's text (empty when it could not be read).
    pub source: Arc<Source>,
    /// The tree, when the file parsed.
    pub tree: Option<Tree>,
    /// The skill the file says it is for (`skill_name`, waza's `skill`).
    pub named: Option<Spanned<String>>,
    /// Well-formed trigger prompts (drafts too), in file order.
    pub triggers: Vec<TriggerCase>,
    /// Well-formed evals, in file order.
    pub evals: Vec<Eval>,
    /// Found by its name or `[cases] trigger-sets`, not by its shape: a
    /// wrong shape is then an error, not a file of another kind.
    pub by_name: bool,
    /// Why a file of [`Format::Other`] or [`Format::Results`] is not read.
    pub note: Option<String>,
    /// Kept at the catalog root for its skill ([`repo_level`]), not in the
    /// skill's folder; `rel` is then relative to the root.
    pub at_root: bool,
}

impl CaseSource {
    /// A file of skill `index` at `file` (relative to the catalog root; `rel`
    /// as the layout names it) before (or without) its text.
    pub fn unread(index: usize, file: String, rel: &str, expected: Option<Format>) -> CaseSource {
        CaseSource {
            file,
            rel: rel.to_string(),
            format: expected.unwrap_or(Format::Other),
            skill: index,
            source: Source::new(String::new()),
            tree: None,
            named: None,
            triggers: Vec::new(),
            evals: Vec::new(),
            by_name: expected.is_some(),
            note: None,
            at_root: false,
        }
    }

    pub fn span(&self, start: usize, end: usize) -> Span {
        self.source.span(start, end)
    }

    pub fn json(&self) -> Option<&json::Tree> {
        match &self.tree {
            Some(Tree::Json(t)) => Some(t),
            _ => None,
        }
    }

    pub fn yaml(&self) -> Option<&yaml::Tree> {
        match &self.tree {
            Some(Tree::Yaml(t)) => Some(t),
            _ => None,
        }
    }
}

/// Every case of one skill, merged from every file that holds some.
#[derive(Debug, Clone, Default)]
pub struct Suite {
    /// The skill (index into `Catalog::skills`); `None` for a case file
    /// that names no skill of the catalog (SG405).
    pub skill: Option<usize>,
    /// The skill's name as the cases refer to it.
    pub name: String,
    /// Every file its cases come from: the case file first, then the
    /// skill's own files by path.
    pub files: Vec<String>,
    /// Trigger prompts to route and run, drafts left out.
    pub positive: Vec<TriggerCase>,
    pub negative: Vec<TriggerCase>,
    /// Draft prompts, listed but never routed or run.
    pub drafts: Vec<TriggerCase>,
    pub evals: Vec<Eval>,
}

impl Suite {
    /// Whether its cases come from a case file and the skill's own folder.
    pub fn in_two_places(&self) -> bool {
        self.files.first().is_some_and(|f| is_case_file(f))
            && self.files.iter().any(|f| !is_case_file(f))
    }

    /// Whether its cases come only from case files (checked per file, as
    /// they always were).
    pub fn case_files_only(&self) -> bool {
        self.files.iter().all(|f| is_case_file(f))
    }

    fn add(&mut self, file: &str, triggers: Vec<TriggerCase>, evals: Vec<Eval>) {
        if !self.files.iter().any(|f| f == file) {
            self.files.push(file.to_string());
        }
        for t in triggers {
            match (t.draft, t.side) {
                (true, _) => self.drafts.push(t),
                (false, Side::Positive) => self.positive.push(t),
                (false, Side::Negative) => self.negative.push(t),
            }
        }
        self.evals.extend(evals);
    }
}

/// Whether `file` (relative to the catalog root) is an `evals/cases/` file.
pub fn is_case_file(file: &str) -> bool {
    file.strip_prefix(CASES_DIR)
        .is_some_and(|rest| rest.starts_with('/') && !rest[1..].contains('/'))
}

/// The skill whose frontmatter `name` (else folder name) is `name`, as
/// `Catalog::skill_named` finds it.
pub fn skill_named<S: Named>(skills: &[S], name: &str) -> Option<usize> {
    SkillNames::new(skills).get(name)
}

/// Skills by the name cases refer to them by, built once for many
/// lookups: the first skill whose `name` is N, else the first skill
/// without a `name` whose folder is N, else the plugin skill Claude Code
/// lists as N (`<plugin>:<skill>`, as `skill-tests.yaml` names them), else
/// the one skill whose folder is N.
pub struct SkillNames<'a> {
    named: std::collections::HashMap<&'a str, usize>,
    folders: std::collections::HashMap<&'a str, usize>,
    listed: std::collections::HashMap<&'a str, usize>,
    /// Every skill's folder; `None` for a folder name two skills share.
    any_folder: std::collections::HashMap<&'a str, Option<usize>>,
    count: usize,
}

impl<'a> SkillNames<'a> {
    pub fn new<S: Named>(skills: &'a [S]) -> SkillNames<'a> {
        let mut named = std::collections::HashMap::new();
        let mut folders = std::collections::HashMap::new();
        let mut listed = std::collections::HashMap::new();
        let mut any_folder = std::collections::HashMap::new();
        for (i, s) in skills.iter().enumerate() {
            match s.name() {
                Some(n) => {
                    named.entry(n).or_insert(i);
                }
                None => {
                    folders.entry(s.folder()).or_insert(i);
                }
            }
            if let Some(l) = s.listed_as() {
                listed.entry(l).or_insert(i);
            }
            any_folder
                .entry(s.folder())
                .and_modify(|k| *k = None)
                .or_insert(Some(i));
        }
        SkillNames {
            named,
            folders,
            listed,
            any_folder,
            count: skills.len(),
        }
    }

    /// How many skills the catalog has.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn get(&self, name: &str) -> Option<usize> {
        self.named
            .get(name)
            .or_else(|| self.folders.get(name))
            .or_else(|| self.listed.get(name))
            .copied()
            .or_else(|| self.any_folder.get(name).copied().flatten())
    }
}

/// For each of `n` skills, the index of its suite in `suites`.
pub fn suite_index(suites: &[Suite], n: usize) -> Vec<Option<usize>> {
    let mut out = vec![None; n];
    for (i, s) in suites.iter().enumerate() {
        if let Some(k) = s.skill
            && let Some(slot) = out.get_mut(k)
        {
            slot.get_or_insert(i);
        }
    }
    out
}

/// One suite per skill with cases (in the order of its first file: case
/// files by name, then the skills' own files by skill), and one per case
/// file naming no skill.
pub fn merge<S: Named>(
    skills: &[S],
    case_files: &[CaseFile],
    sources: &[CaseSource],
) -> Vec<Suite> {
    let mut suites: Vec<Suite> = Vec::new();
    let mut of_skill: std::collections::HashMap<usize, usize> = Default::default();
    let names = SkillNames::new(skills);
    for c in case_files {
        let skill = c
            .skill_name
            .as_ref()
            .and_then(|n| names.get(&n.value))
            .or_else(|| names.get(&c.stem));
        let at = match skill.and_then(|s| of_skill.get(&s).copied()) {
            Some(at) => at,
            None => {
                suites.push(Suite {
                    skill,
                    name: match skill {
                        Some(i) => skill_key(&skills[i]).to_string(),
                        None => c.stem.clone(),
                    },
                    ..Suite::default()
                });
                if let Some(s) = skill {
                    of_skill.insert(s, suites.len() - 1);
                }
                suites.len() - 1
            }
        };
        let owner = match c.skill_name.as_ref() {
            Some(n) if names.get(&n.value).is_some() => "the file's `skill_name`",
            _ => "the case file's name",
        };
        let triggers = c
            .positive
            .iter()
            .chain(&c.negative)
            .map(|t| TriggerCase {
                decided: Decided::new(owner, t.decided.side.clone()),
                ..t.clone()
            })
            .collect();
        suites[at].add(&c.file, triggers, c.evals.clone());
    }
    for src in sources.iter().filter(|s| s.format.holds_cases()) {
        let at = match of_skill.get(&src.skill) {
            Some(&at) => at,
            None => {
                suites.push(Suite {
                    skill: Some(src.skill),
                    name: skill_key(&skills[src.skill]).to_string(),
                    ..Suite::default()
                });
                of_skill.insert(src.skill, suites.len() - 1);
                suites.len() - 1
            }
        };
        suites[at].add(&src.file, src.triggers.clone(), src.evals.clone());
    }
    suites
}

/// The name a skill's cases are filed under: its `name`, else its folder.
pub fn skill_key<S: Named>(skill: &S) -> &str {
    skill.name().unwrap_or(skill.folder())
}

/// A skill as cases name it: what the catalog layer's `Skill` tells the
/// readers, so that they never need more of it.
pub trait Named {
    /// Its frontmatter `name`, when it has one.
    fn name(&self) -> Option<&str>;
    /// Its folder's name.
    fn folder(&self) -> &str;
    /// The name a client lists it by when that differs
    /// (`<plugin>:<skill>`).
    fn listed_as(&self) -> Option<&str>;
}

/// Reads JSON values of one file into the model's spanned types.
pub(crate) struct Reader<'a> {
    pub file: &'a str,
    pub source: &'a Source,
}

impl Reader<'_> {
    pub fn span(&self, v: &Value) -> Span {
        self.source.span(v.start, v.end)
    }

    pub fn string(&self, v: Option<&Value>) -> Option<Spanned<String>> {
        let v = v?;
        v.as_str().map(|s| Spanned {
            value: s.to_string(),
            span: self.span(v),
        })
    }

    /// One trigger object whose text is under `key`; `None` when it is not
    /// well-formed enough to route.
    pub fn trigger(
        &self,
        item: &Value,
        key: &str,
        side: Side,
        decided: Decided,
    ) -> Option<TriggerCase> {
        item.as_object()?;
        let prompt = self.string(item.get(key))?;
        if prompt.value.trim().is_empty() {
            return None;
        }
        let top_k = match item.get("top_k") {
            None => None,
            Some(v) => Some(
                v.as_u64()
                    .filter(|&k| k >= 1)
                    .and_then(|k| usize::try_from(k).ok())?,
            ),
        };
        let owner = match item.get("owner") {
            None => None,
            Some(v) => Some(self.string(Some(v))?),
        };
        let split = match item.get("split") {
            None => None,
            Some(v) => Some(Split::parse(v.as_str()?)?),
        };
        let draft = match item.get("draft") {
            None => false,
            Some(v) => match v.kind {
                Kind::Bool(b) => b,
                _ => return None,
            },
        };
        let lexical = match item.get("lexical") {
            None => true,
            Some(v) => match v.kind {
                Kind::Bool(b) => b,
                _ => return None,
            },
        };
        let with = match item.get("with") {
            None => Vec::new(),
            Some(v) => v
                .as_array()?
                .iter()
                .map(|w| self.string(Some(w)).filter(|s| !s.value.trim().is_empty()))
                .collect::<Option<Vec<_>>>()?,
        };
        Some(TriggerCase {
            prompt,
            side,
            top_k,
            owner,
            split,
            span: self.span(item),
            file: self.file.to_string(),
            draft,
            reason: None,
            lexical,
            with,
            shape: None,
            decided,
        })
    }

    /// One eval object; `default_kind` decides the kind when `kind` is
    /// absent, from whether `files` lists anything.
    pub fn eval(
        &self,
        v: &Value,
        base: &FixtureBase,
        default_kind: fn(bool) -> EvalKind,
    ) -> Option<Eval> {
        v.as_object()?;
        let id_value = v.get("id")?;
        let id = Spanned {
            value: eval_id(id_value)?,
            span: self.span(id_value),
        };
        let prompt = self.string(v.get("prompt"))?;
        let files = match v.get("files") {
            None => Vec::new(),
            Some(f) => f
                .as_array()?
                .iter()
                .map(|p| self.string(Some(p)))
                .collect::<Option<Vec<_>>>()?,
        };
        let kind = match v.get("kind") {
            None => default_kind(!files.is_empty()),
            Some(k) => EvalKind::parse(k.as_str()?)?,
        };
        let mut expectations = Vec::new();
        for e in v
            .get("expectations")
            .or_else(|| v.get("assertions"))
            .and_then(Value::as_array)
            .unwrap_or_default()
        {
            // an eval with an expectation Tier 1 refuses is not run at all
            let read = expectation::read(e, &self.source.text).0?;
            expectations.push(Expectation {
                text: read.text,
                kind: read.kind,
                check: read.check,
                span: self.span(e),
            });
        }
        if let Some(f) = v.get("forbidden_skills") {
            for (skill, (start, end)) in expectation::forbidden(f).ok()? {
                expectations.push(Expectation {
                    text: expectation::forbidden_text(&skill),
                    kind: ExpectKind::Blocker,
                    check: Some(Check::SkillNotLoaded { skill }),
                    span: self.source.span(start, end),
                });
            }
        }
        Some(Eval {
            id,
            kind,
            prompt,
            expected_output: self.string(v.get("expected_output")),
            files,
            base: base.clone(),
            expectations,
            trust_level: self.string(v.get("trust_level")),
            span: self.span(v),
            file: self.file.to_string(),
        })
    }
}

/// The display text of an eval id: a number as written, or a non-empty string.
pub fn eval_id(v: &Value) -> Option<String> {
    match &v.kind {
        Kind::Number(n) => Some(n.clone()),
        Kind::String(s) if !s.trim().is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// Decode the bytes of a case source: its text, and SG400 at the first
/// byte that is not UTF-8 (the rest is read with it replaced).
pub fn decode(file: &str, bytes: Vec<u8>, diags: &mut Vec<Diagnostic>) -> Arc<Source> {
    let (src, bad) = Source::decode(bytes);
    if let Some(bad) = bad {
        diags.push(
            rules::cases::UNREADABLE
                .diag(
                    file,
                    format!("case file is not valid UTF-8 (byte {})", bad.start),
                )
                .with_span(src.span(bad.start, bad.end))
                .with_label("not UTF-8")
                .with_help("re-save the file as UTF-8; JSON must be UTF-8"),
        );
    }
    src
}

/// Parse a case source as JSON; SG401 at the exact place when it is not.
pub fn parse_json(
    file: &str,
    src: &Source,
    limit: u64,
    diags: &mut Vec<Diagnostic>,
) -> Option<json::Tree> {
    let limits = json::Limits {
        max_bytes: usize::try_from(limit).unwrap_or(usize::MAX),
        ..json::Limits::default()
    };
    match json::parse_with(&src.text, limits) {
        Ok(tree) => Some(tree),
        Err(e) => {
            diags.push(json_syntax(file, src, e.offset, &e));
            None
        }
    }
}

/// SG417 where the YAML of `src` stops being valid (`e` says why), or
/// where a limit was reached.
pub fn yaml_syntax(file: &str, src: &Source, e: &yaml::YamlError) -> Diagnostic {
    let text = &src.text;
    let at = e.offset.min(text.len());
    let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let span = src.span(at, end);
    let limit = e.kind == yaml::YamlErrorKind::Limit;
    rules::cases::YAML_SYNTAX
        .diag(
            file,
            format!(
                "invalid YAML at line {} column {}: {}",
                span.line, span.col, e.message
            ),
        )
        .with_span(span)
        .with_label(if limit { "limit reached here" } else { "here" })
        .with_help(if limit {
            "write aliased values out and flatten the nesting"
        } else {
            "fix the YAML at this position; quote prompts that contain `: ` or start with a special character"
        })
}

/// SG401 at `offset` of `src`: the JSON there is not valid (`e` says why).
pub fn json_syntax(file: &str, src: &Source, offset: usize, e: &json::Error) -> Diagnostic {
    let end = src.text[offset.min(src.text.len())..]
        .chars()
        .next()
        .map_or(offset, |c| offset + c.len_utf8());
    let span = src.span(offset, end);
    rules::cases::JSON_SYNTAX
            .diag(
                file,
                format!(
                    "invalid JSON at line {} column {}: {}",
                    span.line, span.col, e.message
                ),
            )
            .with_span(span)
            .with_label(match e.kind {
                json::ErrorKind::Syntax => "here",
                json::ErrorKind::Limit => "limit reached here",
            })
            .with_help(match e.kind {
                json::ErrorKind::Syntax => {
                    "fix the JSON at this position (a validator such as `jq . FILE` shows the same place)"
                }
                json::ErrorKind::Limit => "flatten the structure; case files need four levels",
            })
}
