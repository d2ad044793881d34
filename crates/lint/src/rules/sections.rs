//! Required `## ` sections, and exemptions that live in `skillsift.toml`
//! with a reason, never in the skill itself.

use super::context::{Ctx, SkillCtx};
use crate::catalog::Target;
use crate::catalog::yaml::{Kind, Node};
use crate::config::Exemption;
use crate::diag::Diagnostic;
use crate::rule;

rule! {
    /// ## What it does
    /// Requires every `## ` heading listed in `[lint] required-sections`
    /// (none by default). Headings inside fenced code blocks (backtick or
    /// tilde fences, CommonMark rules) do not count; comparison ignores case
    /// and repeated spaces. An entry may list equivalent headings, any of
    /// which will do. A skill listed in `[lint] exemptions` may omit the
    /// sections its exemption names (all of them when it names none).
    ///
    /// ## Why is this bad?
    /// A catalog's conventions (an Overview, When to Use, Verification, …)
    /// are what make its skills predictable for agents and reviewers.
    ///
    /// ## Example
    /// ```toml
    /// [lint]
    /// required-sections = ["Overview", "When to Use", ["Verification", "Checklist"]]
    /// exemptions = [{ skill = "using-agent-skills", sections = ["When to Use"], reason = "meta-skill that routes to others" }]
    /// ```
    pub static MISSING_SECTION = ("SG202", "missing-section", Error, "a required `## ` section is missing");
}

rule! {
    /// ## What it does
    /// Reports a skill whose own frontmatter claims an exemption from the
    /// catalog's checks: a key such as `exempt`, `exemptions`,
    /// `exempt-sections` or `skip-sections` (at the top level or under
    /// `metadata`), or `type: meta`.
    ///
    /// ## Why is this bad?
    /// Exemptions live in `skillsift.toml`, each with a reason, so a skill
    /// cannot opt itself out of review by editing its own file.
    ///
    /// ## Example
    /// Instead of `exempt: sections` in SKILL.md:
    /// ```toml
    /// [[lint.exemptions]]
    /// skill = "using-agent-skills"
    /// reason = "meta-skill that routes to others"
    /// ```
    pub static SELF_EXEMPTION = ("SG203", "self-exemption", Error, "a skill claims an exemption in its own frontmatter");
}

rule! {
    /// ## What it does
    /// Warns about an entry of `[lint] exemptions` that names a skill the
    /// catalog does not have, or a section that is not in
    /// `required-sections`.
    ///
    /// ## Why is this bad?
    /// A stale exemption is a hole waiting for the next skill of that name,
    /// and usually a typo that leaves the intended skill unexempted.
    pub static STALE_EXEMPTION = ("SG204", "stale-exemption", Warning, "an exemption names no existing skill or required section");
}

/// Compare headings ignoring case and runs of whitespace.
pub fn heading_key(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether a frontmatter key (with its value) claims an exemption.
pub fn exemption_claim(key: &str, value: &Node) -> bool {
    let k = key.to_lowercase().replace('_', "-");
    k.contains("exempt")
        || matches!(
            k.as_str(),
            "skip-sections" | "skip-checks" | "skip-lint" | "lint-skip" | "no-lint" | "nolint"
        )
        || (k == "type"
            && value
                .as_str()
                .is_some_and(|v| v.eq_ignore_ascii_case("meta")))
}

/// The exemptions that apply to this skill.
fn exemptions_for<'a>(s: &SkillCtx<'a>) -> Vec<&'a Exemption> {
    let name = s.skill.name();
    s.env
        .config
        .lint
        .exemptions
        .iter()
        .filter(|e| Some(e.skill.as_str()) == name || e.skill == s.skill.folder)
        .collect()
}

pub fn check(s: &SkillCtx, out: &mut Vec<Diagnostic>) {
    let exemptions = exemptions_for(s);
    self_exemption(s, !exemptions.is_empty(), out);
    let required = &s.env.config.lint.required_sections;
    if required.is_empty() {
        return;
    }
    let present: Vec<String> = s.body.headings_at(2).map(|h| heading_key(h.text)).collect();
    // Where to point: the `# ` title, else the frontmatter, else line 1.
    let at = s
        .body
        .headings
        .iter()
        .find(|h| h.level == 1)
        .and_then(|h| s.body.line(h.line))
        .map(|l| s.line_span(l.number))
        .or_else(|| s.frontmatter_open_span())
        .unwrap_or_else(|| s.line_span(1));
    for spec in required {
        let names = spec.names();
        if names.iter().any(|n| present.contains(&heading_key(n))) {
            continue;
        }
        let exempt = exemptions.iter().any(|e| {
            e.sections.is_empty()
                || e.sections
                    .iter()
                    .any(|x| names.iter().any(|n| heading_key(n) == heading_key(x)))
        });
        if exempt {
            continue;
        }
        let primary = spec.primary();
        let alternatives = if names.len() > 1 {
            format!(
                " (or one of {})",
                names[1..]
                    .iter()
                    .map(|n| format!("`## {n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            String::new()
        };
        out.push(
            MISSING_SECTION
                .diag(
                    s.file(),
                    format!("missing required section `## {primary}`{alternatives}"),
                )
                .with_span(at)
                .with_help(format!(
                    "add a `## {primary}` section, or exempt the skill in skillsift.toml: {{ skill = \"{}\", sections = [\"{primary}\"], reason = \"…\" }}",
                    s.skill_name()
                )),
        );
    }
}

fn self_exemption(s: &SkillCtx, configured: bool, out: &mut Vec<Diagnostic>) {
    let Some(fm) = s.fm else { return };
    let help = if configured {
        "the exemption in skillsift.toml already applies: remove this key".to_string()
    } else {
        format!(
            "remove the key and, if the skill really is an exception, add {{ skill = \"{}\", reason = \"…\" }} to `[lint] exemptions` in skillsift.toml",
            s.skill_name()
        )
    };
    let mut report = |key: &str, span| {
        out.push(
            SELF_EXEMPTION
                .diag(
                    s.file(),
                    format!("the skill claims an exemption in its own frontmatter (`{key}`)"),
                )
                .with_span(span)
                .with_label("exemptions live in skillsift.toml")
                .with_help(help.clone()),
        );
    };
    for e in &fm.entries {
        if exemption_claim(&e.key, &e.value) {
            report(&e.key, e.key_span);
        }
        if e.key == "metadata"
            && let Kind::Map(entries) = &e.value.kind
        {
            for (k, v) in entries {
                if let Some(key) = k.scalar_text()
                    && exemption_claim(key, v)
                {
                    let end = crate::diag::floor_char_boundary(&s.src.text, k.start + key.len());
                    report(&format!("metadata.{key}"), s.span(k.start, end));
                }
            }
        }
    }
}

/// Catalog-wide: exemptions naming no skill or no required section.
pub fn check_catalog(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let lint = &ctx.config.lint;
    let required: Vec<String> = lint
        .required_sections
        .iter()
        .flat_map(|r| r.names())
        .map(heading_key)
        .collect();
    for ex in &lint.exemptions {
        if ctx.catalog.target == Target::Catalog && !ctx.known_skills.contains(ex.skill.as_str()) {
            out.push(
                STALE_EXEMPTION
                    .diag(
                        "skillsift.toml",
                        format!(
                            "the exemption for `{}` names a skill the catalog does not have",
                            ex.skill
                        ),
                    )
                    .with_help(
                        "fix the skill's name in `[lint] exemptions`, or remove the exemption",
                    ),
            );
        }
        for sec in &ex.sections {
            if !required.contains(&heading_key(sec.trim_start_matches('#'))) {
                out.push(
                    STALE_EXEMPTION
                        .diag(
                            "skillsift.toml",
                            format!(
                                "the exemption for `{}` names `{sec}`, which is not in `required-sections`",
                                ex.skill
                            ),
                        )
                        .with_help("name a heading from `[lint] required-sections`, or remove it"),
                );
            }
        }
    }
}
