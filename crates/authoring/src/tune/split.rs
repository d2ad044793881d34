//! Which of a skill's trigger prompts `tune` reads, and as what.
//!
//! - With labels (any prompt of the skill has a `split`): `train` prompts
//!   are tuned on, `validation` prompts are scored and shown as counts
//!   only, `fresh` prompts are never read (not ranked, not counted beyond
//!   their number). A prompt without a `split` beside labelled ones is a
//!   train prompt, as `skillsift score triggers` reads it.
//! - Without labels: a deterministic split, stated in the output: in the
//!   order the skill's files list them, the 1st, 3rd, 5th … prompt of
//!   each side (should, should-not) is train and the 2nd, 4th, 6th …
//!   validation. The same file always splits the same way, each side
//!   half and half (train gets the odd one), and the output says which
//!   line of which file to label so that the split is kept.
//!
//! `"lexical": false` prompts are Tier 3's: they are not tuned on, and
//! counted apart. A prompt is named by its file and the byte its text
//! starts at ([`Key`]), the key the route results carry too.

use crate::catalog::cases::{Side, Split, Suite, TriggerCase};
use serde::Serialize;

/// A trigger prompt's identity: its file and the byte offset of its text.
pub type Key = (String, usize);

/// The key of `t`.
pub fn key(t: &TriggerCase) -> Key {
    (t.file.clone(), t.prompt.span.start)
}

/// How the split was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The prompts' own `split` labels.
    Labels,
    /// No prompt had one: every second prompt of each side is validation.
    Alternating,
}

/// How many prompts of each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Sides {
    pub positive: usize,
    pub negative: usize,
}

impl Sides {
    pub fn total(&self) -> usize {
        self.positive + self.negative
    }

    fn add(&mut self, side: Side) {
        match side {
            Side::Positive => self.positive += 1,
            Side::Negative => self.negative += 1,
        }
    }
}

/// The lines to label in one file to keep an alternating split.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToLabel {
    pub file: String,
    /// 1-based lines of the train prompts' text.
    pub train: Vec<u32>,
    /// 1-based lines of the validation prompts' text.
    pub validation: Vec<u32>,
    /// The file is read by a `[[cases.sources]]` declaration: the label is
    /// then written in the field its `split` key names, not in a `"split"`
    /// key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared: Option<DeclaredLabel>,
}

/// The declaration that reads a file to label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeclaredLabel {
    /// Its number in skillsift.toml, 1-based.
    pub source: usize,
    /// The field its `split` key names, if any.
    pub split_field: Option<String>,
    /// Whether its format has fields at all (`text` and `markdown` have
    /// none: a label cannot be written).
    pub has_fields: bool,
}

/// The skill's prompts, split.
#[derive(Debug, Clone)]
pub struct Plan<'c> {
    pub source: Source,
    pub train: Vec<&'c TriggerCase>,
    pub validation: Vec<&'c TriggerCase>,
    /// Prompts labelled `fresh`: never read.
    pub fresh: usize,
    /// `"lexical": false` prompts, not tuned on (Tier 3's).
    pub not_lexical: usize,
    /// With labels: prompts without one, read as train.
    pub unlabelled_train: usize,
}

/// What the output says of the split (counts and lines, never a
/// validation prompt's text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub source: Source,
    pub train: Sides,
    pub validation: Sides,
    pub fresh: usize,
    pub not_lexical: usize,
    pub unlabelled_train: usize,
    /// With an alternating split: what to write into each file to keep it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub to_label: Vec<ToLabel>,
}

impl Plan<'_> {
    /// Train and validation prompts, each with its role, in suite order.
    pub fn report(&self) -> Report {
        let mut train = Sides::default();
        let mut validation = Sides::default();
        for t in &self.train {
            train.add(t.side);
        }
        for t in &self.validation {
            validation.add(t.side);
        }
        let mut to_label: Vec<ToLabel> = Vec::new();
        if self.source == Source::Alternating {
            for (list, is_train) in [(&self.train, true), (&self.validation, false)] {
                for t in list.iter() {
                    let i = match to_label.iter().position(|l| l.file == t.file) {
                        Some(i) => i,
                        None => {
                            to_label.push(ToLabel {
                                file: t.file.clone(),
                                train: Vec::new(),
                                validation: Vec::new(),
                                declared: None,
                            });
                            to_label.len() - 1
                        }
                    };
                    let lines = if is_train {
                        &mut to_label[i].train
                    } else {
                        &mut to_label[i].validation
                    };
                    lines.push(t.prompt.span.line);
                }
            }
            for l in &mut to_label {
                l.train.sort_unstable();
                l.validation.sort_unstable();
            }
            to_label.sort_by(|a, b| a.file.cmp(&b.file));
        }
        Report {
            source: self.source,
            train,
            validation,
            fresh: self.fresh,
            not_lexical: self.not_lexical,
            unlabelled_train: self.unlabelled_train,
            to_label,
        }
    }
}

/// Split `suite`'s prompts (drafts are never in a suite's lists).
pub fn split(suite: &Suite) -> Plan<'_> {
    let all: Vec<&TriggerCase> = suite.positive.iter().chain(&suite.negative).collect();
    let labelled = all.iter().any(|t| t.split.is_some());
    let mut plan = Plan {
        source: if labelled {
            Source::Labels
        } else {
            Source::Alternating
        },
        train: Vec::new(),
        validation: Vec::new(),
        fresh: 0,
        not_lexical: 0,
        unlabelled_train: 0,
    };
    for list in [&suite.positive, &suite.negative] {
        let mut nth = 0usize;
        for t in list {
            if t.split == Some(Split::Fresh) {
                plan.fresh += 1;
                continue;
            }
            if !t.lexical {
                plan.not_lexical += 1;
                continue;
            }
            let validation = if labelled {
                if t.split.is_none() {
                    plan.unlabelled_train += 1;
                }
                t.split == Some(Split::Validation)
            } else {
                nth += 1;
                nth.is_multiple_of(2)
            };
            if validation {
                plan.validation.push(t);
            } else {
                plan.train.push(t);
            }
        }
    }
    plan
}
