//! What a Tier 1 check sees. Per-skill checks run as each skill is loaded
//! (see [`crate::catalog::Catalog::load_with`]) and see only the
//! configuration ([`Env`]) and their skill, with its Markdown body analysed
//! once ([`SkillCtx`]); checks that need the whole catalog run afterwards
//! with [`Ctx`].

use super::markdown::Body;
use crate::catalog::{Catalog, Frontmatter, Skill, Source};
use crate::config::Config;
use crate::diag::{Diagnostic, Span};
use std::collections::{HashMap, HashSet};

/// What every per-skill check may read besides its skill, computed once.
pub struct Env<'a> {
    pub config: &'a Config,
    /// Every frontmatter key that is not unknown (specification, client
    /// and allowed keys) with its normalised form, for "did you mean".
    pub known_keys: Vec<(String, String)>,
}

impl<'a> Env<'a> {
    pub fn new(config: &'a Config) -> Self {
        let lint = &config.lint;
        let known_keys = super::keys::SPEC_KEYS
            .iter()
            .copied()
            .chain(lint.client_keys.iter().map(String::as_str))
            .chain(lint.allowed_keys.iter().map(String::as_str))
            .map(|k| (k.to_string(), super::keys::normalise_key(k)))
            .collect();
        Env { config, known_keys }
    }
}

/// Facts about the whole catalog, for the checks that run once every skill
/// is loaded.
pub struct Ctx<'a> {
    pub catalog: &'a Catalog,
    pub config: &'a Config,
    /// Every skill's frontmatter `name` and folder name.
    pub known_skills: HashSet<&'a str>,
    /// Every SKILL.md path, relative to the root.
    pub skill_files: HashSet<&'a str>,
    /// `known_skills` by length in characters, for "did you mean" without
    /// comparing a name with every skill of a large catalog.
    pub skills_by_len: HashMap<usize, Vec<&'a str>>,
}

impl<'a> Ctx<'a> {
    pub fn new(catalog: &'a Catalog, config: &'a Config) -> Self {
        let mut known_skills = HashSet::new();
        for s in &catalog.skills {
            if let Some(n) = s.name() {
                known_skills.insert(n);
            }
            if !s.folder.is_empty() {
                known_skills.insert(s.folder.as_str());
            }
        }
        let skill_files = catalog.skills.iter().map(|s| s.file.as_str()).collect();
        let mut skills_by_len: HashMap<usize, Vec<&str>> = HashMap::new();
        for n in &known_skills {
            skills_by_len.entry(n.chars().count()).or_default().push(n);
        }
        Ctx {
            skills_by_len,
            catalog,
            config,
            known_skills,
            skill_files,
        }
    }
}

/// One skill as every per-skill check sees it.
pub struct SkillCtx<'a> {
    pub env: &'a Env<'a>,
    pub skill: &'a Skill,
    pub src: &'a Source,
    /// The parsed frontmatter, when it parsed.
    pub fm: Option<&'a Frontmatter>,
    /// The Markdown body, split into lines with fences and headings found.
    pub body: Body<'a>,
    /// The frontmatter YAML failed to parse (SG013/SG014 while loading).
    pub yaml_failed: bool,
    /// Byte offsets of those YAML errors, so portability rules do not
    /// report the same spot twice.
    pub yaml_error_spots: Vec<usize>,
    /// The skill's other text files, each read and decoded once for every
    /// rule that reads them ([`super::text::other_texts`]).
    pub others: &'a [super::text::OtherText],
    /// Their Markdown bodies (Markdown files only), analysed once.
    other_bodies: Vec<Option<Body<'a>>>,
}

impl<'a> SkillCtx<'a> {
    /// `load` holds the findings made while loading this skill. `None` when
    /// the file could not be read (too large, unreadable).
    pub fn new(
        env: &'a Env<'a>,
        skill: &'a Skill,
        load: &[Diagnostic],
        others: &'a [super::text::OtherText],
    ) -> Option<Self> {
        let src = skill.source.as_deref()?;
        let start = skill.body_start.min(src.text.len());
        let (yaml_failed, yaml_error_spots) =
            super::portability::yaml_errors(load.iter().filter(|d| d.file == skill.file));
        Some(SkillCtx {
            env,
            skill,
            src,
            fm: skill.frontmatter.as_ref(),
            body: Body::from_index(&src.text, &src.index, start),
            yaml_failed,
            yaml_error_spots,
            others,
            other_bodies: others
                .iter()
                .map(|o| {
                    (o.kind == super::text::Kind::Markdown)
                        .then(|| Body::from_index(&o.src.text, &o.src.index, 0))
                })
                .collect(),
        })
    }

    /// SKILL.md, then each of the skill's other text files: what every
    /// rule that reads the skill's text reads ([`super::text`]).
    pub fn texts(&self) -> impl Iterator<Item = super::text::Text<'_>> {
        use super::text::{Kind, Text};
        let skill = Text {
            file: &self.skill.file,
            src: self.src,
            kind: Kind::Skill,
            body_start: self.skill.body_start.min(self.src.text.len()),
            body: Some(&self.body),
        };
        std::iter::once(skill).chain(self.others.iter().zip(&self.other_bodies).map(|(o, body)| {
            Text {
                file: &o.file,
                src: &o.src,
                kind: o.kind,
                body_start: 0,
                body: body.as_ref(),
            }
        }))
    }

    pub fn file(&self) -> &'a str {
        &self.skill.file
    }

    pub fn span(&self, start: usize, end: usize) -> Span {
        self.src.span(start, end)
    }

    /// The name other skills know this one by: its frontmatter `name`, else
    /// its folder.
    pub fn skill_name(&self) -> &'a str {
        self.skill.name().unwrap_or(&self.skill.folder)
    }

    /// The whole of 1-based `line`.
    pub fn line_span(&self, line: u32) -> Span {
        self.src.line_span(line)
    }
}

impl SkillCtx<'_> {
    /// The opening `---` line of the frontmatter (where a missing key is
    /// reported).
    pub fn frontmatter_open_span(&self) -> Option<Span> {
        let fm = self.fm?;
        let (line, _) = self.src.index.line_col(&self.src.text, fm.yaml.start);
        Some(self.line_span(line.saturating_sub(1).max(1)))
    }

    /// Byte offset where the text of a single-line scalar appears verbatim
    /// in the file (after its opening quote, if any).
    pub fn verbatim_start(&self, node: &crate::catalog::yaml::Node) -> Option<usize> {
        let value = node.scalar_text()?;
        let raw = self.src.text.get(node.start..)?;
        if raw.starts_with(value) {
            Some(node.start)
        } else if raw.starts_with(['"', '\'']) && raw[1..].starts_with(value) {
            Some(node.start + 1)
        } else {
            None
        }
    }
}

/// Where to point for a finding about a whole value: the value itself, or
/// for a block sequence or mapping (which starts on the next line) its key.
pub fn value_or_key_span(e: &crate::catalog::skill::Entry) -> Span {
    let collection = matches!(
        e.value.kind,
        crate::catalog::yaml::Kind::Seq(_) | crate::catalog::yaml::Kind::Map(_)
    );
    if collection && e.value_span.line != e.key_span.line {
        e.key_span
    } else {
        e.value_span
    }
}
