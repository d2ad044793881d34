//! Trigger tests recognised by what a file holds, not by where it lives or
//! what it is called.
//!
//! A file is trigger tests when it holds prompts together with an owner or
//! a polarity:
//!
//! - **records**: objects with a prompt-like field (`prompt`, `query`,
//!   `user_prompt`, `input`, `question`, `utterance`, `text`, …) and a field
//!   naming the skill (`expect`, `expected_skill(s)`, `skill`, `skill_name`,
//!   `route_to`, `target`, …) or saying whether it should fire
//!   (`should_trigger`, `should_activate`, `trigger`, `fires`, …), in an
//!   array at the top level or under any wrapping keys, or one per line
//!   (JSONL);
//! - **prompt lists** under a key that says which side they are on
//!   (`should_trigger`, `should_not_trigger`, `positive`, `negatives`,
//!   `shouldTriggerPrompts`, `triggers`, `non_triggers`, …), as strings or
//!   as records with only a prompt;
//! - either of those **under a key naming a skill** of the catalog
//!   (`{"pdf-forms": {"positive": […]}}`).
//!
//! Keys are compared by their words (`should_not_trigger`,
//! `shouldNotTrigger` and `should-not-trigger` are one key), so spellings
//! no list names are still read. Which skill a prompt belongs to comes from
//! the record (several skills: the prompt is positive for each, the others
//! listed in its `with`), else from the nearest enclosing object that names
//! a skill or key that is a skill's name, else from the file's place (the
//! skill folder holding it, a folder or file stem named for a skill:
//! [`Owner::Unknown`] until the loader resolves it).
//!
//! A prompt's side comes only from what its record says: a boolean or a
//! side word in it, an expected skill (`"expected_skill": "pdf"`: positive
//! for it; `null` or `"none"`: a negative for every skill), the list it
//! stands in, else (weakest) its name (`"id": "negative-3"`). A folder, a
//! key named for a skill or a generic `skill` field says whose prompt it
//! is, never which side: such a record is counted in
//! [`Detected::unstated`], never routed.
//!
//! A file with prompts but neither owner nor polarity (a grader's task
//! list, a fixture, `package.json`) holds no trigger tests and stays quiet.
//! What a file holds that looks like trigger tests but cannot be read as
//! them (a record without prompt text, a prompt for no skill) is counted in
//! [`Detected`], so the loader can say so.

use super::{Decided, Side, Split};
use syntax::json;
use syntax::yaml;

/// Deepest nesting followed.
pub const MAX_DEPTH: usize = 32;

/// A JSON or YAML value reduced to what detection needs, with the byte
/// range it covers in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    Null,
    Bool(bool),
    Number(String),
    Str(String),
    List(Vec<Node>),
    Map(Vec<(String, Node)>),
}

impl Node {
    /// A JSON value, its offsets moved by `shift` (a JSONL line's start).
    pub fn from_json(v: &json::Value, shift: usize) -> Node {
        let kind = match &v.kind {
            json::Kind::Null => NodeKind::Null,
            json::Kind::Bool(b) => NodeKind::Bool(*b),
            json::Kind::Number(n) => NodeKind::Number(n.clone()),
            json::Kind::String(s) => NodeKind::Str(s.clone()),
            json::Kind::Array(a) => {
                NodeKind::List(a.iter().map(|x| Node::from_json(x, shift)).collect())
            }
            json::Kind::Object(m) => NodeKind::Map(
                m.iter()
                    .map(|m| (m.key.clone(), Node::from_json(&m.value, shift)))
                    .collect(),
            ),
        };
        Node {
            kind,
            start: v.start + shift,
            end: v.end + shift,
        }
    }

    /// A YAML node; a mapping key that is not a scalar is left out.
    pub fn from_yaml(n: &yaml::Node) -> Node {
        let kind = match &n.kind {
            yaml::Kind::Scalar { text, .. } => match n.type_name() {
                "null" => NodeKind::Null,
                "boolean" => NodeKind::Bool(text.eq_ignore_ascii_case("true")),
                "number" => NodeKind::Number(text.clone()),
                _ => NodeKind::Str(text.clone()),
            },
            yaml::Kind::Seq(items) => NodeKind::List(items.iter().map(Node::from_yaml).collect()),
            yaml::Kind::Map(entries) => NodeKind::Map(
                entries
                    .iter()
                    .filter_map(|(k, v)| Some((k.scalar_text()?.to_string(), Node::from_yaml(v))))
                    .collect(),
            ),
        };
        Node {
            kind,
            start: n.start,
            end: n.end,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The text of a string node.
    pub fn as_text(&self) -> Option<&str> {
        self.as_str()
    }

    fn entries(&self) -> Option<&[(String, Node)]> {
        match &self.kind {
            NodeKind::Map(m) => Some(m),
            _ => None,
        }
    }

    fn get(&self, key: &str) -> Option<&Node> {
        self.entries()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
}

/// The skill (or skills) a prompt belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// Named in the data: the record, an enclosing object or key.
    Named(Vec<String>),
    /// The record says no skill should take it (`expected_skills: []`,
    /// `expect: null`, `"none"`).
    NoSkill,
    /// Nothing in the data says: the file's place decides.
    Unknown,
}

/// One prompt found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub prompt: String,
    /// Byte range of the prompt's string.
    pub start: usize,
    pub end: usize,
    /// Byte range of its record (the string itself in a list of strings).
    pub record: (usize, usize),
    pub side: Side,
    pub owner: Owner,
    /// skillsift's own keys, when a record carries them with the right type.
    pub negative_owner: Option<(String, usize, usize)>,
    pub split: Option<Split>,
    pub top_k: Option<usize>,
    pub lexical: bool,
    pub draft: bool,
    pub reason: Option<String>,
    /// The shape it was found in, for `skillsift cases`: the fields read,
    /// or the list key.
    pub shape: String,
    /// Skills the record allows to load too (`allowed_skills`, `with`).
    pub also: Vec<String>,
    /// What said its owner and side; an empty owner when the file's place
    /// decides ([`Owner::Unknown`], filled in by the loader).
    pub decided: Decided,
}

impl Found {
    /// A prompt as a list gives it: its text and place, side and owner,
    /// and nothing of skillsift's own keys.
    pub fn listed(
        prompt: &str,
        (start, end): (usize, usize),
        record: (usize, usize),
        side: Side,
        owner: Owner,
        shape: String,
        decided: Decided,
    ) -> Found {
        Found {
            prompt: prompt.to_string(),
            start,
            end,
            record,
            side,
            owner,
            negative_owner: None,
            split: None,
            top_k: None,
            lexical: true,
            draft: false,
            reason: None,
            shape,
            also: Vec::new(),
            decided,
        }
    }
}

/// What a file holds, as trigger tests.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Detected {
    pub prompts: Vec<Found>,
    /// Records that carry an owner or polarity but no prompt text: where
    /// the first one is, and how many.
    pub without_prompt: Option<((usize, usize), usize)>,
    /// Records (or listed prompts) with prompt text whose polarity nothing
    /// says (no boolean, no side, no expected skill, no list that says a
    /// side): where the first one is, and how many. Never routed: a folder
    /// or a `skill` field names whose prompt it is, never which side.
    pub unstated: Option<((usize, usize), usize)>,
}

impl Detected {
    /// Whether the file looks like trigger tests at all.
    pub fn any(&self) -> bool {
        !self.prompts.is_empty() || self.without_prompt.is_some() || self.unstated.is_some()
    }
}

/// The words of a key: `shouldNotTrigger`, `should_not_trigger` and
/// `should-not-trigger` are all `should not trigger`.
pub fn words(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Fields that hold a prompt, best first.
pub const PROMPT_FIELDS: &[&str] = &[
    "prompt",
    "user prompt",
    "query",
    "user query",
    "utterance",
    "question",
    "user message",
    "user input",
    "request",
    "message",
    "input",
    "text",
    "instruction",
    "task",
];

/// Fields that name the skill a prompt belongs to.
const OWNER_FIELDS: &[&str] = &[
    "expect",
    "expected",
    "expects",
    "expected skill",
    "expected skills",
    "expect skill",
    "expect skills",
    "skill",
    "skills",
    "skill name",
    "skill id",
    "target",
    "target skill",
    "expected route",
    "route",
    "route to",
    "routes to",
    "should route to",
    "should load",
    "should use",
    "expected activation",
    "correct skill",
    "gold",
    "gold skill",
    "label",
    "preferred",
    "preferred skill",
    "primary skill",
    "owner skill",
    "winner",
];

/// Words that make a key about whether a prompt fires.
const FIRE_WORDS: &[&str] = &[
    "trigger",
    "triggers",
    "triggered",
    "activate",
    "activates",
    "activation",
    "fire",
    "fires",
    "invoke",
    "invokes",
    "route",
    "routes",
    "match",
    "matches",
    "positive",
    "positives",
    "routed",
];

/// Words that turn such a key negative.
const NOT_WORDS: &[&str] = &[
    "not",
    "no",
    "non",
    "never",
    "dont",
    "shouldnt",
    "negative",
    "negatives",
    "false",
    "without",
    "anti",
];

/// Keys of a list of prompts with no side word (`prompts`, `queries`):
/// positive when an object beside them names the skill.
const PLAIN_LISTS: &[&str] = &["prompts", "queries", "utterances", "examples", "questions"];

/// Which side a key's name puts a prompt on, when it is about firing.
fn side_of_key(key: &str) -> Option<Side> {
    let w = words(key);
    let fire = w.iter().any(|x| FIRE_WORDS.contains(&x.as_str()))
        || w.first().is_some_and(|f| f == "should")
            && w.iter().any(|x| x == "prompts" || x == "queries");
    let not = w.iter().any(|x| NOT_WORDS.contains(&x.as_str()))
        || w.first()
            .is_some_and(|f| f.starts_with("non") || f.starts_with("anti"));
    if w.len() == 1 && w[0] == "negative" || w.len() == 1 && w[0] == "negatives" {
        return Some(Side::Negative);
    }
    match (fire, not) {
        (true, true) => Some(Side::Negative),
        (true, false) => Some(Side::Positive),
        (false, true)
            if w.iter()
                .any(|x| ["prompts", "queries", "examples", "cases"].contains(&x.as_str())) =>
        {
            Some(Side::Negative)
        }
        _ => None,
    }
}

/// A key's words joined by spaces ([`words`]) and the side they say
/// ([`side_of_key`]), worked out once per distinct key a thread meets: a
/// 3 MB catalog file repeats a handful of keys 100,000 times (the
/// mirror's `galaxy_catalog.json`: 136 ms of a full check, one core).
struct Key {
    joined: std::rc::Rc<str>,
    side: Option<Side>,
}

/// Distinct keys remembered by a thread before it starts afresh.
const MAX_KEYS: usize = 4096;

thread_local! {
    static KEYS: std::cell::RefCell<std::collections::HashMap<Box<str>, Key>> =
        Default::default();
}

/// Longest key remembered (a longer one is worked out each time).
const MAX_KEY: usize = 64;

/// `f` of what [`Key`] holds for `key`.
fn with_key<R>(key: &str, f: impl FnOnce(&Key) -> R) -> R {
    let info = |key: &str| Key {
        joined: words(key).join(" ").into(),
        side: side_of_key(key),
    };
    if key.len() > MAX_KEY {
        return f(&info(key));
    }
    KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        if !keys.contains_key(key) {
            if keys.len() >= MAX_KEYS {
                keys.clear();
            }
            keys.insert(key.into(), info(key));
        }
        f(&keys[key])
    })
}

fn joined(key: &str) -> std::rc::Rc<str> {
    with_key(key, |k| k.joined.clone())
}

/// [`side_of_key`] of a key (remembered, see [`Key`]).
fn key_side(key: &str) -> Option<Side> {
    with_key(key, |k| k.side)
}

fn is_owner_field(key: &str) -> bool {
    OWNER_FIELDS.contains(&&*joined(key))
}

/// Fields that name skills a prompt must not go to.
const AVOID_FIELDS: &[&str] = &[
    "avoid",
    "avoids",
    "avoid skills",
    "forbidden",
    "forbidden skill",
    "forbidden skills",
    "not expected",
    "unexpected",
    "unexpected skills",
    "must not",
    "must not load",
    "must not route to",
    "should not route to",
    "should not load",
    "should not use",
    "negative skills",
    "wrong skills",
    "distractors",
    "distractor",
    "not skill",
    "not skills",
    "anti skills",
];

/// Fields whose text says the side (`"type": "trigger_positive"`).
const POLARITY_VALUE_FIELDS: &[&str] = &[
    "type",
    "kind",
    "case type",
    "category",
    "class",
    "expectation",
    "expected behavior",
    "expected behaviour",
    "outcome",
    "expected outcome",
];

/// Fields that say nothing but the side (`"side": "negative"`), in any of
/// the words [`value_side`] reads.
const SIDE_FIELDS: &[&str] = &["side", "polarity", "sign", "expected side", "direction"];

/// Owner fields that may name the skill an eval tests rather than where
/// its prompt routes.
const GENERIC_OWNER_FIELDS: &[&str] = &[
    "skill",
    "skills",
    "skill name",
    "skill id",
    "target",
    "target skill",
];

/// Fields of a behavioral eval: what a run must show.
const EVAL_FIELDS: &[&str] = &[
    "assertions",
    "expectations",
    "expected output",
    "rubric",
    "graders",
    "grader",
    "checks",
    "must include",
    "must not include",
    "criteria",
    "grading",
    "success criteria",
    "expected behavior",
    "expected behaviour",
];

/// Fields that name skills a prompt may load as well.
const ALSO_FIELDS: &[&str] = &[
    "with",
    "allowed",
    "allowed skills",
    "also",
    "also skills",
    "optional skills",
    "may load",
    "secondary skills",
    "acceptable skills",
];

fn is_also_field(key: &str) -> bool {
    ALSO_FIELDS.contains(&&*joined(key))
}

fn is_avoid_field(key: &str) -> bool {
    AVOID_FIELDS.contains(&&*joined(key))
}

fn is_polarity_value_field(key: &str) -> bool {
    POLARITY_VALUE_FIELDS.contains(&&*joined(key))
}

/// The side a value's words say: `trigger_positive`, `should_not_activate`,
/// `negative`, `yes`.
fn value_side(s: &str) -> Option<Side> {
    if s.len() > 64 {
        return None;
    }
    match yes_no(s) {
        Some(true) => Some(Side::Positive),
        Some(false) => Some(Side::Negative),
        None => side_of_key(s),
    }
}

/// The side a category's value says in words about firing:
/// `trigger_positive`, `should-not-activate`, `do-not-route`. A bare
/// `trigger` or `activation` names the kind of test, not its side.
fn fire_side(s: &str) -> Option<Side> {
    if s.len() > 64 {
        return None;
    }
    let w = words(s);
    if !w
        .iter()
        .any(|x| FIRE_WORDS.contains(&x.as_str()) && !x.starts_with("positive"))
    {
        return None;
    }
    match side_of_key(s)? {
        Side::Negative => Some(Side::Negative),
        Side::Positive => w
            .iter()
            .any(|x| SAYS_POSITIVE.contains(&x.as_str()))
            .then_some(Side::Positive),
    }
}

/// Words that say a firing word is meant positively (`should_trigger`,
/// `trigger_positive`, `must-activate`).
const SAYS_POSITIVE: &[&str] = &[
    "should", "must", "positive", "pos", "expected", "expect", "yes", "true", "will", "does",
];

/// Fields naming a record (`id`, `name`, `title`): the weakest place a
/// side is said (`"name": "should-not-trigger-on-weather"`), read only
/// when nothing else in the record says it.
const NAME_FIELDS: &[&str] = &[
    "id",
    "name",
    "title",
    "case",
    "case id",
    "test",
    "test name",
];

/// The side a phrase says, as a record's name or a heading says it:
/// `should-not-trigger-…`, `negative-3`, `neg_01`, `anti-trigger`,
/// `positive-2`, `Should trigger`; `None` for `Trigger prompts`.
pub fn phrase_side(s: &str) -> Option<Side> {
    if s.len() > 128 {
        return None;
    }
    let w = words(s);
    let has = |x: &[&str]| w.iter().any(|y| x.contains(&y.as_str()));
    let fire = has(FIRE_WORDS);
    let should = has(&["should", "must"]);
    if has(&[
        "negative",
        "negatives",
        "neg",
        "anti",
        "nontrigger",
        "nontriggers",
    ]) || (fire || should) && has(&["not", "never", "dont", "shouldnt", "non", "no"])
    {
        return Some(Side::Negative);
    }
    (has(&["positive", "positives", "pos"]) || should && fire).then_some(Side::Positive)
}

/// Whether a string reads as a skill's name rather than a prompt: one
/// word of letters, digits, `-`, `_`, `:`, `.` or `/` (a SKILL.md path).
fn looks_like_a_name(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.len() <= 128
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.' | '/'))
}

/// A string that answers a yes/no field.
fn yes_no(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" | "positive" | "pos" | "trigger" | "should_trigger" | "fire" => {
            Some(true)
        }
        "no" | "n" | "false" | "negative" | "neg" | "no_trigger" | "should_not_trigger" => {
            Some(false)
        }
        _ => None,
    }
}

/// A value that names no skill.
fn is_none_name(s: &str) -> bool {
    matches!(
        s.trim().to_ascii_lowercase().as_str(),
        "" | "none" | "null" | "nil" | "no_skill" | "no-skill" | "(none)" | "-" | "n/a"
    )
}

/// The skills a `skill-invocation` grader (vally) requires and
/// disallows: `graders: [{type: skill-invocation, config: {required: [a],
/// disallowed: [b]}}]`; `None` when the record has no such grader.
fn invocation_grader(entries: &[(String, Node)]) -> Option<(Vec<String>, Vec<String>)> {
    let (_, graders) = entries.iter().find(|(k, _)| &*joined(k) == "graders")?;
    let NodeKind::List(items) = &graders.kind else {
        return None;
    };
    let config = items.iter().find_map(|g| {
        let ty = g.get("type")?.as_str()?;
        (words(ty).join(" ") == "skill invocation").then(|| g.get("config"))?
    })?;
    let names = |key: &str| -> Vec<String> {
        match config.get(key).map(|v| &v.kind) {
            Some(NodeKind::List(l)) => l
                .iter()
                .filter_map(Node::as_str)
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
            Some(NodeKind::Str(s)) if !s.trim().is_empty() => vec![s.trim().to_string()],
            _ => Vec::new(),
        }
    };
    let required = names("required");
    let disallowed = names("disallowed");
    (!required.is_empty() || !disallowed.is_empty()).then_some((required, disallowed))
}

/// Whether a table's columns say a prompt's owner or side by themselves
/// (a CSV header): a prompt column, and a column saying the side
/// (`should_trigger`) or naming the expected skill (`expected_skill`).
pub fn says_it_all<'a>(mut columns: impl Iterator<Item = &'a str> + Clone) -> bool {
    let prompt = columns
        .clone()
        .any(|k| PROMPT_FIELDS.contains(&&*joined(k)));
    prompt
        && columns.any(|k| {
            key_side(k).is_some()
                || SIDE_FIELDS.contains(&&*joined(k))
                || is_owner_field(k)
                    && !GENERIC_OWNER_FIELDS.contains(&&*joined(k))
                    // `text,label` is any classifier's data set
                    && &*joined(k) != "label"
        })
}

/// Whether a field names the skill a prompt belongs to (`expect`,
/// `expected_skill`, `skill`, …).
pub fn is_skill_field(key: &str) -> bool {
    is_owner_field(key)
}

/// Whether a true/false field says the prompt should trigger its skill
/// (`should_trigger`, `expected`): true is positive.
pub fn says_trigger(key: &str) -> bool {
    key_side(key) == Some(Side::Positive)
        || is_owner_field(key) && !GENERIC_OWNER_FIELDS.contains(&&*joined(key))
}

/// What the walk knows from above a node.
#[derive(Clone, Default)]
struct Ctx {
    owner: Option<String>,
    owner_key: Option<String>,
    side: Option<(Side, String)>,
    /// The owner is a key that is a skill's name (`{"pdf-forms": […]}`):
    /// records under it are the skill's, though their side is still theirs
    /// to say.
    by_key: bool,
    /// A list of prompts under a key that says no side (`prompts`,
    /// `queries`): its prompts are counted as unstated.
    plain: Option<String>,
}

impl Ctx {
    /// What named the skill of the prompts under this context, or empty
    /// when the file's place decides.
    fn owner_rule(&self) -> String {
        match (&self.owner, &self.owner_key) {
            (Some(_), Some(k)) => match k.strip_prefix("key ") {
                Some(key) => format!("the key `{key}` it stands under"),
                None => format!("`{k}` of the object it stands in"),
            },
            _ => String::new(),
        }
    }
}

struct Walk<'a> {
    is_skill: &'a dyn Fn(&str) -> bool,
    out: Detected,
    /// Records with prompt text and no signal at all: unstated when the
    /// file holds trigger tests, something else's prompts when it does not.
    bare: Option<((usize, usize), usize)>,
}

impl Walk<'_> {
    fn finish(mut self) -> Detected {
        if let Some(((s, e), n)) = self.bare
            && !self.out.prompts.is_empty()
        {
            let w = self.out.unstated.get_or_insert(((s, e), 0));
            w.0 = w.0.min((s, e));
            w.1 += n;
        }
        self.out
    }
}

/// Every trigger prompt in `root`; `is_skill` tells whether a key or a
/// `name` names a skill of the catalog.
pub fn detect(root: &Node, is_skill: &dyn Fn(&str) -> bool) -> Detected {
    let mut w = Walk {
        is_skill,
        out: Detected::default(),
        bare: None,
    };
    w.node(root, &Ctx::default(), 0);
    w.finish()
}

/// [`detect`] over the records of a JSONL file (one node per line).
pub fn detect_lines(lines: &[Node], is_skill: &dyn Fn(&str) -> bool) -> Detected {
    let mut w = Walk {
        is_skill,
        out: Detected::default(),
        bare: None,
    };
    for n in lines {
        w.node(n, &Ctx::default(), 1);
    }
    w.finish()
}

impl Walk<'_> {
    fn node(&mut self, n: &Node, ctx: &Ctx, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match &n.kind {
            NodeKind::Map(entries) => self.map(n, entries, ctx, depth),
            NodeKind::List(items) => {
                for item in items {
                    match &item.kind {
                        NodeKind::Str(s) if ctx.side.is_some() => self.string(item, s, ctx),
                        NodeKind::Str(s) if ctx.plain.is_some() && !s.trim().is_empty() => {
                            self.unstated(item)
                        }
                        _ => self.node(item, ctx, depth + 1),
                    }
                }
            }
            _ => {}
        }
    }

    /// A bare string in a list under a side key.
    fn string(&mut self, item: &Node, s: &str, ctx: &Ctx) {
        let Some((side, key)) = &ctx.side else {
            return;
        };
        if s.trim().is_empty() {
            return;
        }
        self.out.prompts.push(Found::listed(
            s,
            (item.start, item.end),
            (item.start, item.end),
            *side,
            ctx.owner
                .clone()
                .map_or(Owner::Unknown, |o| Owner::Named(vec![o])),
            match &ctx.owner_key {
                Some(k) => format!("prompts under `{key}`, skill from `{k}`"),
                None => format!("prompts under `{key}`"),
            },
            Decided::new(ctx.owner_rule(), format!("the list `{key}` it stands in")),
        ));
    }

    fn map(&mut self, n: &Node, entries: &[(String, Node)], ctx: &Ctx, depth: usize) {
        // the fields of this object that say whose and which side
        let prompt = entries.iter().find_map(|(k, v)| {
            let j = joined(k);
            PROMPT_FIELDS
                .iter()
                .position(|f| *f == &*j)
                .map(|rank| (rank, k, v))
        });
        let prompt = entries
            .iter()
            .filter_map(|(k, v)| {
                let j = joined(k);
                PROMPT_FIELDS
                    .iter()
                    .position(|f| *f == &*j)
                    .map(|r| (r, k, v))
            })
            .filter(|(_, _, v)| v.as_str().is_some())
            .min_by_key(|(r, _, _)| *r)
            .or(prompt);
        // vally's stimuli: a `skill-invocation` grader names the skills a
        // run must (`required`) and must not (`disallowed`) invoke; a
        // stimulus of several `turns` is routed on its first
        let invocation = invocation_grader(entries);
        let prompt = prompt.or_else(|| {
            invocation.as_ref()?;
            entries.iter().find_map(|(k, v)| match &v.kind {
                NodeKind::List(l) if &*joined(k) == "turns" => l
                    .first()
                    .filter(|f| f.as_str().is_some())
                    .map(|f| (usize::MAX, k, f)),
                _ => None,
            })
        });
        let mut owner: Option<(Owner, &str)> = None;
        let mut polarity: Option<(bool, &str)> = None;
        let mut avoid: Vec<String> = Vec::new();
        if let Some((required, disallowed)) = &invocation {
            if !required.is_empty() {
                owner = Some((Owner::Named(required.clone()), "graders"));
            }
            avoid.extend(disallowed.iter().cloned());
        }
        let mut also: Vec<String> = Vec::new();
        let mut named_side: Option<(bool, &str)> = None;
        let mut by_name = false;
        let is_skill = self.is_skill;
        // a list of skill names (not prompts): every item names a skill of
        // the catalog, or looks like one (one short word, a SKILL.md path)
        let names_of = |items: &[Node]| -> Option<Vec<String>> {
            let v: Vec<String> = items
                .iter()
                .map(|i| i.as_str().map(|s| s.trim().to_string()))
                .collect::<Option<_>>()?;
            v.iter()
                .all(|s| is_skill(s) || is_none_name(s) || looks_like_a_name(s))
                .then_some(v)
        };
        for (k, v) in entries {
            let key_side = key_side(k);
            if is_owner_field(k) {
                match &v.kind {
                    NodeKind::Str(s) if is_none_name(s) => {
                        owner.get_or_insert((Owner::NoSkill, k));
                    }
                    // `"label": "positive"`, `"expected": "should_activate"`
                    NodeKind::Str(s) if !is_skill(s.trim()) && value_side(s).is_some() => {
                        polarity.get_or_insert((value_side(s) == Some(Side::Positive), k));
                    }
                    NodeKind::Str(s) => {
                        owner.get_or_insert((Owner::Named(vec![s.trim().to_string()]), k));
                    }
                    NodeKind::Null => {
                        owner.get_or_insert((Owner::NoSkill, k));
                    }
                    NodeKind::List(items) if items.iter().all(|i| i.as_str().is_some()) => {
                        let names: Vec<String> = items
                            .iter()
                            .filter_map(Node::as_str)
                            .filter(|s| !is_none_name(s))
                            .map(|s| s.trim().to_string())
                            .collect();
                        owner.get_or_insert((
                            if names.is_empty() {
                                Owner::NoSkill
                            } else {
                                Owner::Named(names)
                            },
                            k,
                        ));
                    }
                    NodeKind::Bool(b) => {
                        polarity.get_or_insert((*b, k));
                    }
                    // `"expected": {"route": "pdf-forms"}`
                    NodeKind::Map(m) => {
                        if let Some(name) = m.iter().find_map(|(ik, iv)| {
                            let s = iv.as_str()?.trim();
                            (is_owner_field(ik) || ["name", "id"].contains(&&*joined(ik)))
                                .then(|| s.to_string())
                        }) {
                            owner.get_or_insert((
                                if is_none_name(&name) {
                                    Owner::NoSkill
                                } else {
                                    Owner::Named(vec![name])
                                },
                                k,
                            ));
                        }
                    }
                    _ => {}
                }
            } else if is_also_field(k) {
                if let NodeKind::List(items) = &v.kind
                    && let Some(names) = names_of(items)
                {
                    also.extend(names.into_iter().filter(|s| !is_none_name(s)));
                }
            } else if is_avoid_field(k) {
                match &v.kind {
                    NodeKind::Str(s) if !is_none_name(s) => avoid.push(s.trim().to_string()),
                    NodeKind::List(items) => {
                        if let Some(names) = names_of(items) {
                            avoid.extend(names.into_iter().filter(|s| !is_none_name(s)));
                        }
                    }
                    _ => {}
                }
            } else if NAME_FIELDS.contains(&&*joined(k)) {
                if let NodeKind::Str(s) = &v.kind
                    && let Some(side) = phrase_side(s)
                {
                    named_side.get_or_insert((side == Side::Positive, k));
                }
            } else if SIDE_FIELDS.contains(&&*joined(k)) {
                // `"side": "negative"`, `"polarity": "anti-trigger"`
                if let NodeKind::Str(s) = &v.kind
                    && let Some(side) = value_side(s)
                {
                    polarity.get_or_insert((side == Side::Positive, k));
                }
            } else if is_polarity_value_field(k) {
                // a category field says the side only in words about
                // firing (`trigger_negative`), not a bare `negative`
                if let NodeKind::Str(s) = &v.kind
                    && let Some(side) = fire_side(s)
                {
                    polarity.get_or_insert((side == Side::Positive, k));
                }
            } else if let Some(side) = key_side {
                let flip = side == Side::Negative;
                match &v.kind {
                    NodeKind::Bool(b) => {
                        polarity.get_or_insert((*b != flip, k));
                    }
                    NodeKind::Str(s) => match yes_no(s) {
                        Some(b) => {
                            polarity.get_or_insert((b != flip, k));
                        }
                        None if !is_none_name(s) && !flip => {
                            owner.get_or_insert((Owner::Named(vec![s.trim().to_string()]), k));
                        }
                        None if !is_none_name(s) => avoid.push(s.trim().to_string()),
                        None => {}
                    },
                    // in a record, a side key may list skills, not prompts
                    NodeKind::List(items) if prompt.is_some_and(|p| p.2.as_str().is_some()) => {
                        if let Some(names) = names_of(items) {
                            let names: Vec<String> =
                                names.into_iter().filter(|s| !is_none_name(s)).collect();
                            if flip {
                                avoid.extend(names);
                            } else if !names.is_empty() {
                                owner.get_or_insert((Owner::Named(names), k));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        // `name` names the skill of an object that holds its prompt lists
        let named_here = owner.as_ref().and_then(|(o, k)| match o {
            Owner::Named(v) if v.len() == 1 => Some((v[0].clone(), k.to_string())),
            _ => None,
        });
        // a behavioral eval (`prompt`, `skill`, `assertions`) names the
        // skill it tests, not where the prompt should route: it holds a
        // trigger test only when it says so (a polarity, `expect`, `route`)
        if polarity.is_none()
            && avoid.is_empty()
            && owner
                .as_ref()
                .is_some_and(|(_, k)| GENERIC_OWNER_FIELDS.contains(&&*joined(k)))
            && entries
                .iter()
                .any(|(k, _)| EVAL_FIELDS.contains(&&*joined(k)))
        {
            owner = None;
        }
        // a record's name says its side only when nothing else does (an
        // expected skill says it: `"id": "negative-fix", "expected":
        // {"route": "workflow"}` is a prompt `workflow` should take)
        let expected = owner
            .as_ref()
            .is_some_and(|(_, k)| !GENERIC_OWNER_FIELDS.contains(&&*joined(k)));
        if polarity.is_none()
            && ctx.side.is_none()
            && !expected
            && (owner.is_some()
                || ctx.owner.is_some()
                || entries.iter().any(|(k, _)| is_polarity_value_field(k)))
        {
            polarity = named_side;
            by_name = polarity.is_some();
        }
        let has_signal = owner.is_some() || polarity.is_some() || !avoid.is_empty();
        if let Some((_, pk, pv)) = prompt
            && (has_signal
                || ctx.side.is_some()
                || ctx.plain.is_some()
                || ctx.owner.is_some() && ctx.by_key)
            && !self.holds_lists(entries)
        {
            match pv.as_str().filter(|s| !s.trim().is_empty()) {
                Some(text) => {
                    let polarity = polarity.map(|(b, k)| (b, k, by_name));
                    self.record(n, pk, pv, text, owner, polarity, (&avoid, &also), ctx);
                }
                None if has_signal => self.no_prompt(n),
                None => {}
            }
            return;
        }
        // a record with prompt text and nothing else: unstated if the file
        // turns out to hold trigger tests ([`Walk::finish`])
        if let Some((_, _, pv)) = prompt
            && pv.as_str().is_some_and(|s| !s.trim().is_empty())
            && !self.holds_lists(entries)
            && !entries
                .iter()
                .any(|(k, _)| EVAL_FIELDS.contains(&&*joined(k)))
        {
            let w = self.bare.get_or_insert(((n.start, n.end), 0));
            w.1 += 1;
        }
        if prompt.is_none()
            && has_signal
            && polarity.is_some()
            && ctx.side.is_none()
            && !self.holds_lists(entries)
            && entries
                .iter()
                .any(|(k, v)| v.as_str().is_some() && ["q", "ask", "user"].contains(&&*joined(k)))
        {
            self.no_prompt(n);
            return;
        }
        let name_owner = entries.iter().find_map(|(k, v)| {
            let s = v.as_str()?;
            (["name", "id", "skill"].contains(&&*joined(k)) && (self.is_skill)(s.trim()))
                .then(|| (s.trim().to_string(), k.clone()))
        });
        let here = named_here.or(name_owner);
        for (k, v) in entries {
            if matches!(
                v.kind,
                NodeKind::Str(_) | NodeKind::Bool(_) | NodeKind::Null
            ) {
                continue;
            }
            let mut c = ctx.clone();
            if let Some((o, ok)) = &here {
                c.owner = Some(o.clone());
                c.owner_key = Some(ok.clone());
                c.by_key = false;
            }
            c.plain = None;
            if let Some(side) = key_side(k) {
                c.side = Some((side, k.clone()));
            } else if PLAIN_LISTS.contains(&&*joined(k))
                && (c.owner.is_some() || self.holds_lists(entries))
            {
                c.side = None;
                c.plain = Some(k.clone());
            } else if (self.is_skill)(k) {
                c.owner = Some(k.clone());
                c.owner_key = Some(format!("key {k}"));
                c.side = None;
                c.by_key = true;
            } else {
                c.side = None;
            }
            self.node(v, &c, depth + 1);
        }
    }

    /// Whether an object holds lists of prompts under side keys (a skill's
    /// object, not a record).
    fn holds_lists(&self, entries: &[(String, Node)]) -> bool {
        entries.iter().any(|(k, v)| match &v.kind {
            NodeKind::List(items) if key_side(k).is_some() => !items.iter().all(|i| {
                i.as_str()
                    .is_some_and(|s| (self.is_skill)(s.trim()) || looks_like_a_name(s))
            }),
            _ => false,
        })
    }

    /// `"avoid": ["b"]`: a negative for each skill named, which `winner`
    /// (the expected skill, when there is one) must outrank.
    fn avoided(
        &mut self,
        n: &Node,
        pv: &Node,
        text: &str,
        avoid: &[String],
        winner: Option<(String, usize, usize)>,
        shape: &str,
    ) {
        for a in avoid {
            self.out.prompts.push(Found {
                negative_owner: winner.clone(),
                split: n.get("split").and_then(Node::as_str).and_then(Split::parse),
                ..Found::listed(
                    text,
                    (pv.start, pv.end),
                    (n.start, n.end),
                    Side::Negative,
                    Owner::Named(vec![a.clone()]),
                    format!("{shape}, avoided skill"),
                    Decided::new(
                        "the record names it as a skill to avoid",
                        "the record names the skill as one to avoid: a negative for it",
                    ),
                )
            });
        }
    }

    /// A prompt whose side nothing says: counted, never routed.
    fn unstated(&mut self, n: &Node) {
        let w = self.out.unstated.get_or_insert(((n.start, n.end), 0));
        w.1 += 1;
    }

    fn no_prompt(&mut self, n: &Node) {
        let w = self.out.without_prompt.get_or_insert(((n.start, n.end), 0));
        w.1 += 1;
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        n: &Node,
        prompt_key: &str,
        pv: &Node,
        text: &str,
        owner: Option<(Owner, &str)>,
        polarity: Option<(bool, &str, bool)>,
        (avoid, also): (&[String], &[String]),
        ctx: &Ctx,
    ) {
        // the side: a boolean or side word in the record, else the list it
        // stands in, else an expected skill (a skill: positive for it;
        // none: negative); a folder, a skill-named key or a generic
        // `skill` field says whose prompt it is, never which side
        let side = match (polarity, &ctx.side, &owner) {
            (Some((b, k, named)), _, _) => Some((
                if b { Side::Positive } else { Side::Negative },
                if named {
                    format!("its `{k}` (a name saying the side; nothing else in the record does)")
                } else {
                    format!("`{k}`")
                },
            )),
            (None, Some((s, k)), _) => Some((*s, format!("the list `{k}` it stands in"))),
            (None, None, Some((Owner::NoSkill, k))) => Some((
                Side::Negative,
                format!("`{k}` names no skill: a negative for every skill"),
            )),
            (None, None, Some((Owner::Named(_), k)))
                if !GENERIC_OWNER_FIELDS.contains(&&*joined(k)) =>
            {
                Some((
                    Side::Positive,
                    format!("`{k}` expects a skill: a positive for it"),
                ))
            }
            _ => None,
        };
        let Some((side, side_rule)) = side else {
            if avoid.is_empty() {
                self.unstated(n);
            } else {
                let shape = format!("records of `{prompt_key}`");
                self.avoided(n, pv, text, avoid, None, &shape);
            }
            return;
        };
        let mut fields = vec![format!("`{prompt_key}`")];
        let from_ctx = owner.is_none() && ctx.owner.is_some();
        let owner_rule = match &owner {
            Some((_, "graders")) => "its `skill-invocation` grader's `required`".to_string(),
            Some((Owner::NoSkill, k)) => format!("`{k}` names no skill"),
            Some((_, k)) => format!("`{k}`"),
            None => ctx.owner_rule(),
        };
        let owner = match owner {
            Some((o, k)) => {
                fields.push(format!("`{k}`"));
                o
            }
            None => ctx
                .owner
                .clone()
                .map_or(Owner::Unknown, |o| Owner::Named(vec![o])),
        };
        if let Some((_, k, _)) = polarity
            && !fields.contains(&format!("`{k}`"))
        {
            fields.push(format!("`{k}`"));
        }
        let mut shape = format!("records of {}", fields.join(", "));
        if let Some((_, k)) = &ctx.side {
            shape.push_str(&format!(" under `{k}`"));
        }
        if from_ctx && let Some(k) = &ctx.owner_key {
            shape.push_str(&format!(", skill from `{k}`"));
        }
        let negative_owner = n.get("owner").and_then(|o| {
            let s = o.as_str()?.trim();
            (side == Side::Negative && !s.is_empty()).then(|| (s.to_string(), o.start, o.end))
        });
        let split = n.get("split").and_then(Node::as_str).and_then(Split::parse);
        let top_k = n.get("top_k").and_then(|v| match &v.kind {
            NodeKind::Number(s) => s.parse::<usize>().ok().filter(|&k| k >= 1),
            _ => None,
        });
        let flag = |key: &str, default: bool| match n.get(key).map(|v| &v.kind) {
            Some(NodeKind::Bool(b)) => *b,
            _ => default,
        };
        let winner = match &owner {
            Owner::Named(v) if v.len() == 1 && side == Side::Positive => {
                Some((v[0].clone(), pv.start, pv.end))
            }
            _ => None,
        };
        self.avoided(n, pv, text, avoid, winner, &shape);
        if !avoid.is_empty() && owner == Owner::NoSkill {
            return;
        }
        let reason = n.get("reason").and_then(Node::as_str).map(str::to_string);
        let draft =
            flag("draft", false) || reason.as_deref().is_some_and(|r| r.starts_with("draft:"));
        self.out.prompts.push(Found {
            prompt: text.to_string(),
            start: pv.start,
            end: pv.end,
            record: (n.start, n.end),
            side,
            owner,
            negative_owner,
            split,
            top_k,
            lexical: flag("lexical", true),
            draft,
            reason,
            shape,
            also: also.to_vec(),
            decided: Decided::new(owner_rule, side_rule),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str, skills: &[&str]) -> Detected {
        let tree = json::parse(text).unwrap();
        let is = |s: &str| skills.contains(&s);
        detect(&Node::from_json(&tree.root, 0), &is)
    }

    fn yaml(text: &str, skills: &[&str]) -> Detected {
        let tree = yaml::parse(text).unwrap();
        let is = |s: &str| skills.contains(&s);
        detect(&Node::from_yaml(tree.root.as_ref().unwrap()), &is)
    }

    fn summary(d: &Detected) -> Vec<(String, Side, Owner)> {
        d.prompts
            .iter()
            .map(|p| (p.prompt.clone(), p.side, p.owner.clone()))
            .collect()
    }

    fn named(s: &str) -> Owner {
        Owner::Named(vec![s.to_string()])
    }

    #[test]
    fn key_words_ignore_case_style() {
        assert_eq!(words("shouldNotTrigger"), ["should", "not", "trigger"]);
        assert_eq!(words("should-not_trigger"), ["should", "not", "trigger"]);
        assert_eq!(side_of_key("should_not_trigger"), Some(Side::Negative));
        assert_eq!(side_of_key("shouldTriggerPrompts"), Some(Side::Positive));
        assert_eq!(side_of_key("non_triggers"), Some(Side::Negative));
        assert_eq!(side_of_key("negatives"), Some(Side::Negative));
        assert_eq!(side_of_key("description"), None);
    }

    #[test]
    fn per_skill_objects_with_prompt_lists() {
        let d = json(
            r#"[{"skill_name": "pdf", "should_trigger": ["fill the form"], "should_not_trigger": ["merge pdfs"]}]"#,
            &[],
        );
        assert_eq!(
            summary(&d),
            [
                ("fill the form".into(), Side::Positive, named("pdf")),
                ("merge pdfs".into(), Side::Negative, named("pdf"))
            ]
        );
    }

    #[test]
    fn records_with_an_expected_skill_under_a_wrapping_key() {
        let d = json(
            r#"{"version": 1, "cases": [{"prompt": "fill the form", "expect": "pdf", "note": "x"}, {"prompt": "hello", "expect": null}]}"#,
            &[],
        );
        assert_eq!(
            summary(&d),
            [
                ("fill the form".into(), Side::Positive, named("pdf")),
                ("hello".into(), Side::Negative, Owner::NoSkill)
            ]
        );
    }

    #[test]
    fn yaml_tests_with_a_file_level_skill() {
        let d = yaml(
            "skill: pdf\ntests:\n  - prompt: fill the form\n    should_trigger: true\n  - prompt: merge them\n    should_trigger: false\n",
            &[],
        );
        assert_eq!(
            summary(&d),
            [
                ("fill the form".into(), Side::Positive, named("pdf")),
                ("merge them".into(), Side::Negative, named("pdf"))
            ]
        );
    }

    #[test]
    fn records_naming_several_skills_and_activation() {
        let d = json(
            r#"[{"user_prompt": "a", "expected_skills": ["x", "y"], "should_activate": true},
                {"user_prompt": "b", "expected_skills": [], "should_activate": false}]"#,
            &[],
        );
        assert_eq!(
            summary(&d),
            [
                (
                    "a".into(),
                    Side::Positive,
                    Owner::Named(vec!["x".into(), "y".into()])
                ),
                ("b".into(), Side::Negative, Owner::NoSkill)
            ]
        );
    }

    #[test]
    fn a_key_that_names_a_skill_owns_what_is_under_it() {
        let d = json(
            r#"{"pdf": {"positive": [{"query": "fill it"}], "negative": ["merge"]}}"#,
            &["pdf"],
        );
        assert_eq!(
            summary(&d),
            [
                ("fill it".into(), Side::Positive, named("pdf")),
                ("merge".into(), Side::Negative, named("pdf"))
            ]
        );
    }

    #[test]
    fn look_alikes_hold_nothing() {
        for text in [
            r#"{"name": "pkg", "version": "1.0.0", "scripts": {"test": "jest"}, "dependencies": {}}"#,
            r#"{"tasks": [{"prompt": "write a function", "graders": [{"type": "regex"}]}]}"#,
            r#"[{"input": "2+2", "output": "4"}]"#,
            r#"{"compilerOptions": {"strict": true}, "include": ["src"]}"#,
        ] {
            let d = json(text, &["pdf"]);
            assert!(!d.any(), "{text}: {d:?}");
        }
    }

    #[test]
    fn a_record_with_a_polarity_but_no_prompt_text_is_counted() {
        let d = json(r#"[{"prompt": "", "should_trigger": true}]"#, &[]);
        assert!(d.prompts.is_empty());
        assert_eq!(d.without_prompt.map(|w| w.1), Some(1));
    }
}
