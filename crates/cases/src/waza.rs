//! waza's trigger tests, `trigger_tests.yaml`:
//!
//! ```yaml
//! skill: pdf-forms
//! should_trigger_prompts:
//!   - prompt: "Fill in this PDF form"
//!     reason: "Direct request"
//!     confidence: high
//! should_not_trigger_prompts:
//!   - prompt: "Merge these two PDFs"
//!     reason: "Another skill's job"
//! ```
//!
//! Looked for next to SKILL.md, under the skill's `evals/`, and under
//! `tests/` (where `waza` scaffolds it). Parsed with the same bounded,
//! spanned YAML parser as frontmatter. waza itself refuses unknown keys,
//! a missing `skill`, a file without prompts and a `confidence` other than
//! `high` or `medium`; so does SG420. A `reason` starting with `draft:`
//! marks a prompt `skillsift init` wrote and nobody has rewritten yet
//! (waza has no other place for the mark).

use super::{Decided, IN_SKILL_FOLDER, Side, TriggerCase};
use base::diag::Span;
use syntax::Source;
use syntax::Spanned;
use syntax::yaml::{Kind, Node};

/// File names that are waza trigger tests.
pub const NAMES: &[&str] = &["trigger_tests.yaml", "trigger_tests.yml"];

/// Where, relative to the skill folder, outside `evals/`.
pub const PLACES: &[&str] = &[
    "trigger_tests.yaml",
    "trigger_tests.yml",
    "tests/trigger_tests.yaml",
    "tests/trigger_tests.yml",
];

/// Keys of the top-level mapping.
pub const ROOT_KEYS: &[&str] = &[
    "skill",
    "should_trigger_prompts",
    "should_not_trigger_prompts",
];

/// Keys of the top-level mapping of sensei's dialect.
pub const SENSEI_ROOT_KEYS: &[&str] = &[
    "name",
    "skill",
    "shouldTriggerPrompts",
    "shouldNotTriggerPrompts",
];

/// Keys of one prompt.
pub const PROMPT_KEYS: &[&str] = &["prompt", "reason", "confidence"];

/// The two lists and which side each holds.
pub const LISTS: [(&str, Side); 2] = [
    ("should_trigger_prompts", Side::Positive),
    ("should_not_trigger_prompts", Side::Negative),
];

/// The lists of sensei's dialect (camelCase keys, a `name`, prompts that
/// may be plain strings instead of `prompt:` mappings), which catalogs
/// generated with sensei keep in `tests/<skill>/trigger_tests.yaml`.
pub const SENSEI_LISTS: [(&str, Side); 2] = [
    ("shouldTriggerPrompts", Side::Positive),
    ("shouldNotTriggerPrompts", Side::Negative),
];

/// Whether a file is written in sensei's dialect: a camelCase list and no
/// waza list (a file mixing both is waza's, and the camelCase key unknown).
pub fn is_sensei(root: &Node) -> bool {
    SENSEI_LISTS.iter().any(|(k, _)| get(root, k).is_some())
        && !LISTS.iter().any(|(k, _)| get(root, k).is_some())
}

/// The lists of the file's dialect.
pub fn lists(root: &Node) -> [(&'static str, Side); 2] {
    if is_sensei(root) { SENSEI_LISTS } else { LISTS }
}

/// The top-level keys of the file's dialect.
pub fn root_keys(root: &Node) -> &'static [&'static str] {
    if is_sensei(root) {
        SENSEI_ROOT_KEYS
    } else {
        ROOT_KEYS
    }
}

/// A prompt's text node: in sensei's dialect the item itself when it is a
/// plain string, else its `prompt`.
pub fn prompt_node(item: &Node, sensei: bool) -> Option<&Node> {
    if sensei && item.as_map().is_none() && item.as_str().is_some() {
        Some(item)
    } else {
        get(item, "prompt")
    }
}

/// `confidence` values waza accepts.
pub const CONFIDENCES: &[&str] = &["high", "medium"];

/// The value of `key` in a mapping node.
pub fn get<'a>(map: &'a Node, key: &str) -> Option<&'a Node> {
    map.as_map()?
        .iter()
        .find(|(k, _)| k.scalar_text() == Some(key))
        .map(|(_, v)| v)
}

/// The items of a sequence node.
pub fn items(node: &Node) -> Option<&[Node]> {
    match &node.kind {
        Kind::Seq(items) => Some(items),
        _ => None,
    }
}

/// Where a node is: from its first character to the end of that line
/// (the parser gives scalars a start only).
pub fn span(src: &Source, node: &Node) -> Span {
    let text = &src.text;
    let start = node.start.min(text.len());
    let (line, _) = src.index.line_col(text, start);
    let end = src.line_span(line).end.max(start);
    let trimmed = start + text[start..end].trim_end().len();
    src.span(start, trimmed.max(start))
}

/// Whether a `reason` marks a draft.
pub fn is_draft_reason(reason: &str) -> bool {
    reason
        .trim_start()
        .get(..6)
        .is_some_and(|p| p.eq_ignore_ascii_case("draft:"))
}

/// The waza reader ([`crate::read::READERS`]): any YAML file a layout
/// names as a case source is waza's.
pub struct Waza;

impl crate::read::FormatReader for Waza {
    fn format(&self) -> crate::Format {
        crate::Format::Waza
    }

    fn accepts(&self, tree: &crate::Tree) -> bool {
        matches!(tree, crate::Tree::Yaml(_))
    }

    fn read(&self, input: &crate::read::Input) -> crate::read::Read {
        let root = match input.tree {
            crate::Tree::Yaml(t) => t.root.as_ref(),
            crate::Tree::Json(_) => None,
        };
        let (named, triggers) = build(input.file, input.source, root);
        crate::read::Read {
            named,
            triggers,
            ..Default::default()
        }
    }
}

/// What a waza file holds: the skill it names and its well-formed prompts.
pub(crate) fn build(
    file: &str,
    src: &Source,
    root: Option<&Node>,
) -> (Option<Spanned<String>>, Vec<TriggerCase>) {
    let Some(root) = root.filter(|r| r.as_map().is_some()) else {
        return (None, Vec::new());
    };
    let named = get(root, "skill").and_then(|n| {
        n.as_str().map(|s| Spanned {
            value: s.to_string(),
            span: span(src, n),
        })
    });
    let mut out = Vec::new();
    let sensei = is_sensei(root);
    for (key, side) in lists(root) {
        let Some(list) = get(root, key).and_then(items) else {
            continue;
        };
        for item in list {
            let Some(p) = prompt_node(item, sensei) else {
                continue;
            };
            let Some(text) = p.as_str().filter(|t| !t.trim().is_empty()) else {
                continue;
            };
            let reason = get(item, "reason")
                .and_then(Node::as_str)
                .map(str::to_string);
            let confidence_ok = get(item, "confidence")
                .is_none_or(|c| c.as_str().is_some_and(|c| CONFIDENCES.contains(&c)));
            if !confidence_ok {
                continue;
            }
            out.push(TriggerCase {
                prompt: Spanned {
                    value: text.to_string(),
                    span: span(src, p),
                },
                side,
                top_k: None,
                owner: None,
                split: None,
                span: span(src, item),
                file: file.to_string(),
                draft: reason.as_deref().is_some_and(is_draft_reason),
                reason,
                lexical: true,
                with: Vec::new(),
                shape: None,
                decided: Decided::new(IN_SKILL_FOLDER, format!("the list `{key}` it stands in")),
            });
        }
    }
    (named, out)
}
