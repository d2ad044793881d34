//! One reader interface for the fixed formats, and the one place a case
//! source's bytes become the model.
//!
//! A file is decoded once, parsed (YAML when its name says so, else JSON),
//! and offered to the readers of [`READERS`] in order: the first whose
//! [`FormatReader::accepts`] takes the tree reads it, else the format its
//! name or the configuration gave it, else it is read by shape
//! ([`by_shape`]: [`crate::shaped`] over [`crate::detect`], where every
//! prompt's owner and side are decided). A reader never decides anything a
//! file does not say: each prompt it gives carries what said its owner and
//! side ([`crate::Decided`]).

use crate::detect::{Node, NodeKind};
use crate::{
    CaseSource, Eval, FixtureBase, Format, Reader, SkillNames, Tree, TriggerCase, evals_json,
    shaped, trigger_set, waza,
};
use base::diag::Diagnostic;
use syntax::{Source, Spanned, yaml};

/// Most YAML nodes in a waza file (a prompt is about seven).
pub const MAX_WAZA_NODES: usize = 200_000;

/// What a reader found in one file.
#[derive(Debug, Default)]
pub struct Read {
    /// The skill the file says it is for (`skill_name`, waza's `skill`).
    pub named: Option<Spanned<String>>,
    /// Well-formed trigger prompts (drafts too), in file order.
    pub triggers: Vec<TriggerCase>,
    /// Well-formed evals, in file order.
    pub evals: Vec<Eval>,
}

/// What a reader reads: one parsed file.
pub struct Input<'a> {
    /// The file, relative to the catalog root.
    pub file: &'a str,
    pub source: &'a Source,
    pub tree: &'a Tree,
    /// What an eval's `files` are relative to.
    pub base: &'a FixtureBase,
}

impl Input<'_> {
    /// The JSON reader over this file.
    pub(crate) fn json(&self) -> Option<(Reader<'_>, &syntax::json::Value)> {
        match self.tree {
            Tree::Json(t) => Some((
                Reader {
                    file: self.file,
                    source: self.source,
                },
                &t.root,
            )),
            Tree::Yaml(_) => None,
        }
    }
}

/// A reader of one fixed format.
pub trait FormatReader: Sync {
    /// The format it reads.
    fn format(&self) -> Format;
    /// Whether a parsed file is in this format by its shape.
    fn accepts(&self, tree: &Tree) -> bool;
    /// The prompts and evals of a file in this format (or given it by its
    /// name: what is not well-formed is left out, and Tier 1 says why).
    fn read(&self, input: &Input) -> Read;
}

/// The readers of the fixed formats of a skill's folder, in the order they
/// are offered a file (evals/cases/ files, found by their place, are read by
/// [`crate::case_file::CaseFileReader`], the same interface).
pub const READERS: &[&dyn FormatReader] = &[
    &trigger_set::TriggerSet,
    &evals_json::EvalsJson,
    &waza::Waza,
];

fn reader_of(format: Format) -> Option<&'static dyn FormatReader> {
    READERS.iter().copied().find(|r| r.format() == format)
}

/// Decode, parse and read the bytes (at most `limit`) of case source
/// `file` (relative to the catalog root; `rel` is its path as the layout
/// names it) of skill `index`, which its name or the configuration says is
/// `expected`, if anything; `base` is what its evals' `files` are relative
/// to.
pub fn source(
    index: usize,
    file: &str,
    rel: &str,
    expected: Option<Format>,
    bytes: Vec<u8>,
    limit: u64,
    base: &FixtureBase,
) -> (CaseSource, Vec<Diagnostic>) {
    let mut src = CaseSource::unread(index, file.to_string(), rel, expected);
    let file = src.file.clone();
    let mut diags = Vec::new();
    src.source = crate::decode(&file, bytes, &mut diags);
    let tree = if is_yaml(rel) {
        src.format = Format::Waza;
        match parse_yaml(&src.file, &src.source, &mut diags) {
            Some(t) => Tree::Yaml(t),
            None => {
                src.note = Some("not valid YAML".into());
                return (src, diags);
            }
        }
    } else {
        let mut syntax = Vec::new();
        let Some(tree) = crate::parse_json(&file, &src.source, limit, &mut syntax) else {
            src.note = Some("not valid JSON".into());
            // a file deeper in evals/ that no name or setting makes a case
            // source may be anything (a fixture project's tsconfig.json
            // with comments): listed by `skillsift cases`, not a finding
            if expected.is_some() || !rel.starts_with("evals/") || !rel[6..].contains('/') {
                diags.extend(syntax);
            }
            return (src, diags);
        };
        let tree = Tree::Json(tree);
        src.format = match READERS.iter().find(|r| r.accepts(&tree)) {
            Some(r) => r.format(),
            None if matches!(&tree, Tree::Json(t) if trigger_set::is_results(&t.root)) => {
                Format::Results
            }
            None => expected.unwrap_or(Format::Other),
        };
        tree
    };
    match reader_of(src.format) {
        Some(r) => {
            let read = r.read(&Input {
                file: &file,
                source: &src.source,
                tree: &tree,
                base,
            });
            src.named = read.named;
            src.triggers = read.triggers;
            src.evals = read.evals;
        }
        None if src.format == Format::Results => {
            src.note = Some(
                "skill-creator run_eval.py results, not cases: score them with `skillsift score triggers FILE`"
                    .into(),
            )
        }
        None => src.note = Some("JSON of no case format".into()),
    }
    src.tree = Some(tree);
    (src, diags)
}

/// Parse a waza file; SG417 at the exact place when it is not YAML.
fn parse_yaml(file: &str, source: &Source, diags: &mut Vec<Diagnostic>) -> Option<yaml::Tree> {
    let limits = yaml::Limits {
        max_nodes: MAX_WAZA_NODES,
        what: "the file",
    };
    match yaml::parse_with(&source.text, limits) {
        Ok(tree) => Some(tree),
        Err(e) => {
            diags.push(crate::yaml_syntax(file, source, &e));
            None
        }
    }
}

/// Whether a case source is read as YAML (waza's), by its name.
pub fn is_yaml(rel: &str) -> bool {
    rel.ends_with(".yaml") || rel.ends_with(".yml")
}

// BY_SHAPE
/// A file read as JSON whose shape is no fixed format (or not the one its
/// name gives it) is read by shape when it holds trigger tests: its
/// sources then replace it, with what could not be read reported.
pub fn by_shape(src: CaseSource, names: &SkillNames) -> (Vec<CaseSource>, Vec<Diagnostic>) {
    let Some(root) = src.json().map(|t| &t.root) else {
        return (vec![src], Vec::new());
    };
    if src.format == Format::EvalsJson && evals_json::looks_like(root) {
        let mut node = Node::from_json(root, 0);
        if let NodeKind::Map(entries) = &mut node.kind {
            entries.retain(|(k, _)| k != "evals");
        }
        return beside_evals(src, node, names);
    }
    let try_it = match src.format {
        Format::Other => true,
        Format::TriggerSet => src.by_name && !trigger_set::looks_like(root),
        Format::EvalsJson => src.by_name && !evals_json::looks_like(root),
        _ => false,
    };
    if !try_it {
        return (vec![src], Vec::new());
    }
    let data = shaped::Data::One(Node::from_json(root, 0));
    let found = shaped::detect(&data, names);
    if found.prompts.is_empty() && (src.format != Format::Other || !found.any()) {
        let said = if src.format == Format::Other && shaped::named_like_tests(&src.rel) {
            vec![shaped::unread_by_name(&src.file, Some(&data))]
        } else {
            Vec::new()
        };
        return (vec![src], said);
    }
    let (sources, diags) = shaped::build(
        &src.file,
        &src.rel,
        &src.source,
        found,
        Some(src.skill),
        names,
        src.at_root,
    );
    if sources.is_empty() {
        let mut src = src;
        src.note = Some("trigger tests found by shape, none of which could be routed".into());
        return (vec![src], diags);
    }
    (sources, diags)
}

/// An evals file whose other keys hold trigger tests too
/// (`"trigger": {"should_trigger": […], …}` beside `evals`): they are read
/// by shape, beside its evals.
fn beside_evals(
    src: CaseSource,
    node: Node,
    names: &SkillNames,
) -> (Vec<CaseSource>, Vec<Diagnostic>) {
    let found = shaped::detect(&shaped::Data::One(node), names);
    if found.prompts.is_empty() {
        return (vec![src], Vec::new());
    }
    let (more, diags) = shaped::build(
        &src.file,
        &src.rel,
        &src.source,
        found,
        Some(src.skill),
        names,
        src.at_root,
    );
    let mut sources = vec![src];
    sources.extend(more);
    (sources, diags)
}
