//! What a Tier 1 check sees: the catalog-wide facts computed once
//! ([`Ctx`]) and one skill with its Markdown body analysed once
//! ([`SkillCtx`]).

use super::markdown::Body;
use crate::catalog::{Catalog, Frontmatter, Skill, Source};
use crate::config::Config;
use crate::diag::Span;
use std::collections::HashSet;

/// Facts about the whole catalog, shared by every per-skill check.
pub struct Ctx<'a> {
    pub catalog: &'a Catalog,
    pub config: &'a Config,
    /// Every skill's frontmatter `name` and folder name.
    pub known_skills: HashSet<&'a str>,
    /// Every SKILL.md path, relative to the root.
    pub skill_files: HashSet<&'a str>,
    /// `(file, byte offset)` of every YAML syntax error found while loading,
    /// so portability rules do not report the same spot twice.
    pub yaml_error_spots: HashSet<(&'a str, usize)>,
    /// Files whose frontmatter YAML failed to parse.
    pub yaml_failed: HashSet<&'a str>,
    /// Every frontmatter key that is not unknown (specification, client
    /// and allowed keys) with its normalised form, for "did you mean".
    pub known_keys: Vec<(String, String)>,
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
        let mut yaml_error_spots = HashSet::new();
        let mut yaml_failed = HashSet::new();
        for d in &catalog.diagnostics {
            if d.rule == super::load::YAML_SYNTAX.id || d.rule == super::load::YAML_LIMIT.id {
                yaml_failed.insert(d.file.as_str());
                if let Some(s) = d.span {
                    yaml_error_spots.insert((d.file.as_str(), s.start));
                }
            }
        }
        let lint = &config.lint;
        let known_keys = super::keys::SPEC_KEYS
            .iter()
            .copied()
            .chain(lint.client_keys.iter().map(String::as_str))
            .chain(lint.allowed_keys.iter().map(String::as_str))
            .map(|k| (k.to_string(), super::keys::normalise_key(k)))
            .collect();
        Ctx {
            known_keys,
            catalog,
            config,
            known_skills,
            skill_files,
            yaml_error_spots,
            yaml_failed,
        }
    }
}

/// One skill as every per-skill check sees it.
pub struct SkillCtx<'a> {
    pub ctx: &'a Ctx<'a>,
    pub skill: &'a Skill,
    pub src: &'a Source,
    /// The parsed frontmatter, when it parsed.
    pub fm: Option<&'a Frontmatter>,
    /// The Markdown body, split into lines with fences and headings found.
    pub body: Body<'a>,
}

impl<'a> SkillCtx<'a> {
    /// `None` when the file could not be read (too large, unreadable).
    pub fn new(ctx: &'a Ctx<'a>, skill: &'a Skill) -> Option<Self> {
        let src = skill.source.as_deref()?;
        let start = skill.body_start.min(src.text.len());
        Some(SkillCtx {
            ctx,
            skill,
            src,
            fm: skill.frontmatter.as_ref(),
            body: Body::from_index(&src.text, &src.index, start),
        })
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
