//! A YAML tree with source spans, built from yaml-rust2's event parser.
//!
//! Bounded on purpose: alias expansion may create at most [`MAX_NODES`] nodes
//! in total and nesting may go [`MAX_DEPTH`] levels deep, so a
//! "billion laughs" block costs microseconds, not gigabytes. Duplicate
//! mapping keys are reported with both positions.

use std::collections::HashMap;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Most nodes one frontmatter block may expand to (aliases included).
pub const MAX_NODES: usize = 10_000;
/// Deepest nesting of sequences and mappings.
pub const MAX_DEPTH: usize = 64;

/// How a scalar was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// One node. `start`/`end` are byte offsets into the YAML text handed to
/// [`parse`]; the caller shifts them into the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Scalar {
        text: String,
        style: Style,
        /// The tag as written (`!!str`, `!custom`), when there is one.
        tag: Option<String>,
    },
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The scalar's text when it is a YAML string (quoted, block, or a plain
    /// scalar that does not resolve to null, a boolean or a number).
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar { text, style, .. } => {
                if *style == Style::Plain && plain_type(text) != "string" {
                    None
                } else {
                    Some(text)
                }
            }
            _ => None,
        }
    }

    /// True for an empty plain scalar, `~` or `null`.
    pub fn is_null(&self) -> bool {
        matches!(&self.kind, Kind::Scalar { text, style: Style::Plain, .. } if plain_type(text) == "null")
    }

    /// What YAML type a reader sees: `string`, `null`, `boolean`, `number`,
    /// `sequence` or `mapping`.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            Kind::Scalar { text, style, .. } => {
                if *style == Style::Plain {
                    plain_type(text)
                } else {
                    "string"
                }
            }
            Kind::Seq(_) => "sequence",
            Kind::Map(_) => "mapping",
        }
    }

    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.kind {
            Kind::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The scalar text of any scalar, whatever type it resolves to.
    pub fn scalar_text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// The scalar's tag, when it has one.
    pub fn tag(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar { tag, .. } => tag.as_deref(),
            _ => None,
        }
    }

    pub fn style(&self) -> Option<Style> {
        match &self.kind {
            Kind::Scalar { style, .. } => Some(*style),
            _ => None,
        }
    }
}

/// The YAML 1.2 core-schema type of a plain scalar.
pub fn plain_type(text: &str) -> &'static str {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => "null",
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => "boolean",
        ".inf" | ".Inf" | ".INF" | "-.inf" | "-.Inf" | "-.INF" | "+.inf" | ".nan" | ".NaN"
        | ".NAN" => "number",
        t if looks_numeric(t) => "number",
        _ => "string",
    }
}

fn looks_numeric(t: &str) -> bool {
    let s = t.strip_prefix(['-', '+']).unwrap_or(t);
    if s.is_empty() {
        return false;
    }
    if let Some(h) = s.strip_prefix("0x") {
        return !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit());
    }
    if let Some(o) = s.strip_prefix("0o") {
        return !o.is_empty() && o.chars().all(|c| ('0'..='7').contains(&c));
    }
    t.parse::<f64>().is_ok()
        && s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '.')
}

/// Why a YAML text could not be turned into a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// Byte offset into the YAML text.
    pub offset: usize,
    pub message: String,
    pub kind: YamlErrorKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlErrorKind {
    /// The text is not YAML.
    Syntax,
    /// The scanner ran off the end inside a quoted scalar.
    UnterminatedQuote,
    /// Alias expansion or nesting went past a limit.
    Limit,
}

/// A key that appears twice in one mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    pub key: String,
    pub first: usize,
    pub second: usize,
}

/// The parsed document: its root (None for an empty document) and the
/// duplicate keys found on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    pub root: Option<Node>,
    pub duplicates: Vec<DuplicateKey>,
}

/// Bounds on what [`parse_with`] accepts.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most nodes, aliases expanded.
    pub max_nodes: usize,
    /// What the text is, for messages ("frontmatter", "the file").
    pub what: &'static str,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: MAX_NODES,
            what: "frontmatter",
        }
    }
}

/// Parse `text` as a single YAML document into a spanned tree.
pub fn parse(text: &str) -> Result<Tree, YamlError> {
    parse_with(text, Limits::default())
}

/// [`parse`] with other [`Limits`].
pub fn parse_with(text: &str, limits: Limits) -> Result<Tree, YamlError> {
    let offsets = CharOffsets::new(text);
    let mut b = Builder {
        limits,
        offsets: &offsets,
        stack: Vec::new(),
        anchors: HashMap::new(),
        root: None,
        nodes: 0,
        error: None,
        duplicates: Vec::new(),
        documents: 0,
    };
    let mut parser = Parser::new_from_str(text);
    if let Err(e) = parser.load(&mut b, false) {
        let info = e.info().to_string();
        let kind = if info.contains("quoted scalar") {
            YamlErrorKind::UnterminatedQuote
        } else if info.contains("recursion limit") {
            // yaml-rust2's own nesting bound, met before ours by flow
            // collections nested thousands deep
            YamlErrorKind::Limit
        } else {
            YamlErrorKind::Syntax
        };
        return Err(YamlError {
            offset: offsets.byte(e.marker().index()),
            message: info,
            kind,
        });
    }
    if let Some(err) = b.error {
        return Err(err);
    }
    Ok(Tree {
        root: b.root,
        duplicates: b.duplicates,
    })
}

/// Converts yaml-rust2's character indices to byte offsets.
struct CharOffsets {
    /// Byte offset of every char, only when the text is not ASCII.
    map: Option<Vec<usize>>,
    len: usize,
}

impl CharOffsets {
    fn new(text: &str) -> Self {
        let map = (!text.is_ascii()).then(|| text.char_indices().map(|(i, _)| i).collect());
        CharOffsets {
            map,
            len: text.len(),
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        match &self.map {
            None => char_index.min(self.len),
            Some(m) => m.get(char_index).copied().unwrap_or(self.len),
        }
    }
}

enum Frame {
    Seq {
        anchor: usize,
        start: usize,
        items: Vec<Node>,
    },
    Map {
        anchor: usize,
        start: usize,
        entries: Vec<(Node, Node)>,
        key: Option<Node>,
    },
}

struct Builder<'a> {
    limits: Limits,
    offsets: &'a CharOffsets,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    root: Option<Node>,
    nodes: usize,
    error: Option<YamlError>,
    duplicates: Vec<DuplicateKey>,
    documents: usize,
}

fn count_nodes(n: &Node) -> usize {
    match &n.kind {
        Kind::Scalar { .. } => 1,
        Kind::Seq(items) => 1 + items.iter().map(count_nodes).sum::<usize>(),
        Kind::Map(entries) => {
            1 + entries
                .iter()
                .map(|(k, v)| count_nodes(k) + count_nodes(v))
                .sum::<usize>()
        }
    }
}

impl Builder<'_> {
    fn fail(&mut self, offset: usize, message: String) {
        if self.error.is_none() {
            self.error = Some(YamlError {
                offset,
                message,
                kind: YamlErrorKind::Limit,
            });
        }
    }

    fn push_node(&mut self, node: Node, anchor: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                None => *key = Some(node),
                Some(k) => {
                    if let Some(kt) = k.scalar_text()
                        && let Some((first, _)) =
                            entries.iter().find(|(ek, _)| ek.scalar_text() == Some(kt))
                    {
                        self.duplicates.push(DuplicateKey {
                            key: kt.to_string(),
                            first: first.start,
                            second: k.start,
                        });
                    }
                    entries.push((k, node));
                }
            },
        }
    }
}

impl MarkedEventReceiver for Builder<'_> {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        let at = self.offsets.byte(mark.index());
        match ev {
            Event::DocumentStart => {
                self.documents += 1;
                if self.documents > 1 {
                    let what = self.limits.what;
                    self.fail(at, format!("{what} holds more than one YAML document"));
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.nodes += 1;
                let style = match style {
                    TScalarStyle::SingleQuoted => Style::SingleQuoted,
                    TScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                    TScalarStyle::Literal => Style::Literal,
                    TScalarStyle::Folded => Style::Folded,
                    _ => Style::Plain,
                };
                // The marker of a scalar event is where the scalar ends for
                // block scalars and where it starts otherwise; spans of
                // scalars are refined by the caller from the source text.
                let node = Node {
                    kind: Kind::Scalar {
                        text,
                        style,
                        tag: tag.map(|t| {
                            if t.handle == "tag:yaml.org,2002:" {
                                format!("!!{}", t.suffix)
                            } else {
                                format!("{}{}", t.handle, t.suffix)
                            }
                        }),
                    },
                    start: at,
                    end: at,
                };
                self.push_node(node, anchor);
            }
            Event::SequenceStart(anchor, _) => {
                self.nodes += 1;
                self.stack.push(Frame::Seq {
                    anchor,
                    start: at,
                    items: Vec::new(),
                });
            }
            Event::MappingStart(anchor, _) => {
                self.nodes += 1;
                self.stack.push(Frame::Map {
                    anchor,
                    start: at,
                    entries: Vec::new(),
                    key: None,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return;
                };
                let (node, anchor) = match frame {
                    Frame::Seq {
                        anchor,
                        start,
                        items,
                    } => (
                        Node {
                            kind: Kind::Seq(items),
                            start,
                            end: at,
                        },
                        anchor,
                    ),
                    Frame::Map {
                        anchor,
                        start,
                        entries,
                        ..
                    } => (
                        Node {
                            kind: Kind::Map(entries),
                            start,
                            end: at,
                        },
                        anchor,
                    ),
                };
                self.push_node(node, anchor);
            }
            Event::Alias(id) => {
                let Some(target) = self.anchors.get(&id).cloned() else {
                    let own = self.stack.iter().any(|f| match f {
                        Frame::Seq { anchor, .. } | Frame::Map { anchor, .. } => *anchor == id,
                    });
                    self.fail(
                        at,
                        if own {
                            "alias refers to the anchor of a node that holds it: the value would contain itself (PyYAML and ruamel.yaml build such a recursive value; skillsift does not, and reads no frontmatter here)".into()
                        } else {
                            "alias refers to an unknown anchor".into()
                        },
                    );
                    return;
                };
                self.nodes += count_nodes(&target);
                if self.nodes > self.limits.max_nodes {
                    let max = self.limits.max_nodes;
                    self.fail(
                        at,
                        format!(
                            "alias expansion exceeds {max} nodes (a \"billion laughs\" block?)"
                        ),
                    );
                    return;
                }
                let mut node = target;
                node.start = at;
                node.end = at;
                self.push_node(node, 0);
            }
            _ => {}
        }
        let (max, what) = (self.limits.max_nodes, self.limits.what);
        if self.nodes > max {
            self.fail(at, format!("{what} has more than {max} YAML nodes"));
        } else if self.stack.len() > MAX_DEPTH {
            self.fail(at, format!("{what} nests deeper than {MAX_DEPTH} levels"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Vec<(Node, Node)> {
        parse(text)
            .unwrap()
            .root
            .unwrap()
            .as_map()
            .unwrap()
            .to_vec()
    }

    #[test]
    fn block_scalars_resolve_to_text() {
        let m = map("description: >-\n  one\n  two\nname: x\n");
        assert_eq!(m[0].1.as_str(), Some("one two"));
        let m = map("description: |\n  one\n  two\n");
        assert_eq!(m[0].1.as_str(), Some("one\ntwo\n"));
    }

    #[test]
    fn comment_after_key_is_null() {
        let m = map("description: # Title\nname: x\n");
        assert!(m[0].1.is_null());
    }

    #[test]
    fn key_offsets_are_bytes() {
        let m = map("é: 1\nname: x\n");
        assert_eq!(m[1].0.start, 6);
    }

    #[test]
    fn duplicates_are_reported_with_both_offsets() {
        let t = parse("name: a\nname: b\n").unwrap();
        assert_eq!(
            t.duplicates,
            vec![DuplicateKey {
                key: "name".into(),
                first: 0,
                second: 8
            }]
        );
    }

    #[test]
    fn billion_laughs_is_bounded() {
        let mut y = String::from(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        let names = ["b", "c", "d", "e", "f", "g", "h", "i"];
        let mut prev = "a";
        for n in names {
            y.push_str(&format!("{n}: &{n} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
            prev = n;
        }
        let e = parse(&y).unwrap_err();
        assert_eq!(e.kind, YamlErrorKind::Limit);
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let y = format!("a: {}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(parse(&y).unwrap_err().kind, YamlErrorKind::Limit);
    }

    #[test]
    fn nesting_past_the_parsers_own_bound_is_a_limit_too() {
        let y = format!("a: {}", "[".repeat(100_000));
        assert_eq!(parse(&y).unwrap_err().kind, YamlErrorKind::Limit);
    }

    #[test]
    fn unterminated_quote_is_classified() {
        let e = parse("description: \"abc\nname: x\n").unwrap_err();
        assert_eq!(e.kind, YamlErrorKind::UnterminatedQuote);
    }

    #[test]
    fn plain_types() {
        assert_eq!(plain_type("true"), "boolean");
        assert_eq!(plain_type("1.5"), "number");
        assert_eq!(plain_type("1-2"), "string");
        assert_eq!(plain_type("inf"), "string");
        assert_eq!(plain_type("~"), "null");
    }
}
