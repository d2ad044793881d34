//! Cross-references from one skill to another.

use super::context::{Ctx, SkillCtx};
use super::keys::did_you_mean;
use crate::catalog::Skill;
use crate::catalog::Target;
use crate::diag::Diagnostic;
use crate::diag::Span;
use crate::rule;

rule! {
    /// ## What it does
    /// Warns about a reference to a skill the catalog does not have. Two
    /// forms are references (outside fenced code blocks):
    /// - a backticked skill name followed by the word "skill", as
    ///   skill-anatomy.md recommends: ``Follow the `test-driven-development` skill``;
    /// - a relative Markdown link to another skill's SKILL.md:
    ///   `[TDD](../test-driven-development/SKILL.md)`.
    ///
    /// Plugin-qualified names (`superpowers:brainstorming`) point outside the
    /// catalog and are not checked; neither are the clients' own skills
    /// (Claude Code's `security-review`, Gemini CLI's `skill-creator`) nor
    /// names written as examples ("a `pdf-editor` skill", "e.g. the
    /// `pdf-editor` skill", "such as …", "for example …" earlier in the
    /// sentence). Only whole catalogs are checked, not a
    /// single skill.
    ///
    /// ## Why is this bad?
    /// An agent told to follow a skill that does not exist improvises
    /// instead; the reference usually survived a rename.
    pub static DEAD_REFERENCE = ("SG206", "dead-reference", Warning, "reference to a skill that does not exist");
}

fn is_skill_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Resolve `link` (relative, `/`-separated) against folder `dir`
/// lexically; `None` when it climbs above the catalog root.
pub fn resolve(dir: &str, link: &str) -> Option<String> {
    let mut parts: Vec<&str> = if dir == "." || dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for p in link.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// Words that make the skill named next a made-up example: "a `pdf-editor`
/// skill", "e.g. the `pdf-editor` skill", "such as a `pdf-editor` skill".
const EXAMPLE_MARKERS: &[&str] = &[
    "e.g.",
    "eg.",
    "e.g.,",
    "for example",
    "for instance",
    "such as",
    "example:",
    "examples:",
    "imagine",
    "suppose",
    "hypothetical",
    "say,",
];

/// Whether the text before a backticked name (on its line, in its
/// sentence) makes the name an example rather than a reference: an
/// indefinite article right before it, or an example marker earlier in
/// the sentence.
fn is_example(before: &str) -> bool {
    let lower = before.to_ascii_lowercase();
    // the sentence starts after the last ". " that is not an abbreviation's
    let mut end = lower.len();
    let sentence = loop {
        match lower[..end].rfind(". ") {
            Some(i)
                if ["e.g", "i.e", "etc", "vs"]
                    .iter()
                    .any(|a| lower[..i].ends_with(a)) =>
            {
                end = i;
            }
            Some(i) => break &lower[i + 2..],
            None => break lower.as_str(),
        }
    };
    let last = sentence.split_whitespace().next_back().unwrap_or("");
    matches!(last, "a" | "an" | "your" | "my" | "some" | "like" | "e.g.")
        || EXAMPLE_MARKERS.iter().any(|m| sentence.contains(m))
}

/// `(byte offset in line, name)` of every "`name` skill" in a prose line.
fn backtick_refs(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while let Some(open) = line[i..].find('`').map(|k| i + k) {
        let Some(close) = line[open + 1..].find('`').map(|k| open + 1 + k) else {
            break;
        };
        let name = &line[open + 1..close];
        let after = &line[close + 1..];
        let next_word = after
            .strip_prefix(' ')
            .map(|a| a.split(|c: char| !c.is_alphanumeric()).next().unwrap_or(""))
            .unwrap_or("");
        if is_skill_name(name)
            && next_word.eq_ignore_ascii_case("skill")
            && !is_example(&line[..open])
        {
            out.push((open + 1, name));
        }
        i = close + 1;
        if i >= b.len() {
            break;
        }
    }
    out
}

/// `(byte offset in line of the target, target)` of every Markdown link
/// whose target is a relative path ending in `/SKILL.md`.
fn skill_links(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while let Some(k) = line[i..].find(']') {
        if b.get(i + k + 1) != Some(&b'(') {
            i += k + 1;
            continue;
        }
        let start = i + k + 2;
        let Some(len) = line[start..].find(')') else {
            break;
        };
        let target = line[start..start + len].trim();
        let target = target.split(['#', '?', ' ']).next().unwrap_or("");
        if target.ends_with("/SKILL.md")
            && !target.contains("://")
            && !target.starts_with('/')
            && !target.starts_with('#')
        {
            out.push((start, target));
        }
        i = start + len;
    }
    out
}

/// A possible reference to another skill, found while its skill is
/// checked and resolved once every skill is loaded (a reference may name a
/// skill by a frontmatter `name` not known before then).
#[derive(Debug, Clone)]
pub struct Candidate {
    pub target: String,
    /// Its first mention.
    pub span: Span,
    /// A relative link to a SKILL.md, rather than a backticked name.
    pub link: bool,
    /// How many times the skill mentions it.
    pub count: usize,
}

/// Every reference in the skill's body (outside fenced code), each target
/// once.
pub fn collect(s: &SkillCtx) -> Vec<Candidate> {
    // Find the few lines that can hold a reference with two fast scans of
    // the body (a backtick followed by " skill"; "/SKILL.md"), rather than
    // looking at every line.
    let text = &s.src.text;
    let base = s.skill.body_start.min(text.len());
    let bytes = &text.as_bytes()[base..];
    let line_of = |at: usize| s.body.line_at(base + at);
    let mut lines: Vec<usize> = memchr::memchr_iter(b'`', bytes)
        .filter(|&i| {
            bytes.get(i + 1) == Some(&b' ')
                && bytes
                    .get(i + 2..i + 7)
                    .is_some_and(|w| w.eq_ignore_ascii_case(b"skill"))
        })
        .map(line_of)
        .chain(memchr::memmem::find_iter(bytes, b"/SKILL.md").map(line_of))
        .collect();
    lines.sort_unstable();
    lines.dedup();
    let mut found: Vec<Candidate> = Vec::new();
    let mut note = |target: &str, start: usize, link: bool| match found
        .iter_mut()
        .find(|c| c.target == target && c.link == link)
    {
        Some(c) => c.count += 1,
        None => found.push(Candidate {
            target: target.to_string(),
            span: s.span(start, start + target.len()),
            link,
            count: 1,
        }),
    };
    for line in lines
        .into_iter()
        .filter_map(|i| s.body.line(i))
        .filter(|l| !l.fenced)
    {
        for (at, name) in backtick_refs(line.text) {
            note(name, line.start + at, false);
        }
        for (at, target) in skill_links(line.text) {
            note(target, line.start + at, true);
        }
    }
    found
}

/// Report the candidates of `skill` that name no skill of the catalog.
pub fn check_catalog(ctx: &Ctx, skill: &Skill, found: &[Candidate], out: &mut Vec<Diagnostic>) {
    if ctx.catalog.target != Target::Catalog {
        return;
    }
    for c in found {
        let dead = if c.link {
            !resolve(&skill.rel_dir, &c.target)
                .as_deref()
                .is_some_and(|r| ctx.skill_files.contains(r))
        } else {
            // a client's own skill (`security-review`) is there without
            // the catalog
            !ctx.known_skills.contains(c.target.as_str())
                && !crate::client::is_builtin_skill(&c.target)
        };
        if !dead {
            continue;
        }
        let target = &c.target;
        let times = if c.count > 1 {
            format!(" (mentioned {} times)", c.count)
        } else {
            String::new()
        };
        let d = if c.link {
            DEAD_REFERENCE
                .diag(
                    skill.file.as_str(),
                    format!("link to `{target}`, which is not a skill in this catalog{times}"),
                )
                .with_span(c.span)
                .with_label("no SKILL.md here")
                .with_help("fix the path, add the skill, or remove the link")
        } else {
            let d = DEAD_REFERENCE
                .diag(
                    skill.file.as_str(),
                    format!("`{target}` is not a skill in this catalog{times}"),
                )
                .with_span(c.span)
                .with_label("no skill has this name");
            // Only names within two characters of its length can be within
            // two edits of it.
            let n = target.chars().count();
            let near = (n.saturating_sub(2)..=n + 2)
                .filter_map(|l| ctx.skills_by_len.get(&l))
                .flatten()
                .map(|n| (*n, *n));
            match did_you_mean(target, near, false) {
                Some(m) => d.with_help(format!("did you mean `{m}`?")),
                None => d.with_help("fix the name, add the skill, or remove the reference"),
            }
        };
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backticked_names_before_the_word_skill() {
        let l = "Follow the `test-driven-development` skill, then `npm test` and the `x` skills.";
        let names: Vec<_> = backtick_refs(l).into_iter().map(|r| r.1).collect();
        assert_eq!(names, vec!["test-driven-development"]);
        assert!(backtick_refs("use the `superpowers:tdd` skill").is_empty());
        assert!(backtick_refs("the `SKILL.md` skill").is_empty());
        for example in [
            "For example, a `pdf-editor` skill holds scripts.",
            "Name it like `pdf-editor` skill, or e.g. the `pdf-editor` skill.",
            "Write an `api-client` skill.",
            "Skills such as the `pdf-editor` skill load late.",
        ] {
            assert!(backtick_refs(example).is_empty(), "{example}");
        }
        assert_eq!(
            backtick_refs("For example, run tests. Then follow the `tdd` skill.").len(),
            1
        );
    }

    #[test]
    fn relative_skill_links() {
        let l = "See [a](../a/SKILL.md), [b](https://x/b/SKILL.md) and [c](../c/ref.md#x).";
        let t: Vec<_> = skill_links(l).into_iter().map(|r| r.1).collect();
        assert_eq!(t, vec!["../a/SKILL.md"]);
        assert_eq!(
            resolve("skills/b", "../a/SKILL.md").as_deref(),
            Some("skills/a/SKILL.md")
        );
        assert_eq!(resolve("b", "../../a/SKILL.md"), None);
    }
}
