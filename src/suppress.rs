//! Accepting findings: `[lint] per-skill-ignores` (globs of skill folders
//! to rule ids or names, as ruff's `per-file-ignores`) and inline
//! suppressions, YAML comments in a SKILL.md's frontmatter that no client
//! shows the model:
//!
//! ```yaml
//! # skillsift: ignore[SG201] reference card, loaded by other skills
//! ```
//!
//! A suppression covers its skill's folder (the SKILL.md and the files
//! under it). It needs a reason; one that matches no finding is reported
//! (SG020), a malformed one too (SG021). An unknown rule id or name, in a
//! suppression or anywhere in `skillsift.toml`, is a usage error (exit 2)
//! naming the file and line, with the closest rule as a did-you-mean.

use crate::catalog::Catalog;
use crate::config::Config;
use crate::diag::{Diagnostic, Span};
use crate::exit::Fatal;
use crate::lint::registry;
use crate::lint::rules::suppression::{INVALID_SUPPRESSION, UNUSED_SUPPRESSION};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// Edit distance between two strings, in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The rule id or name closest to `given`, when it is close: an id one
/// edit away (compared without case: `SG1O2` is `SG102`; `SG999` is no
/// id), a name at most two.
pub fn did_you_mean(given: &str) -> Option<String> {
    let g = given.to_ascii_uppercase();
    registry::RULES
        .iter()
        .flat_map(|r| {
            [
                (distance(&g, r.id), 1, r.id.to_string()),
                (distance(given, r.name), 2, r.name.to_string()),
            ]
        })
        .filter(|(d, most, _)| d <= most)
        .min()
        .map(|(_, _, s)| s)
}

/// The usage error for an unknown rule named at `place`.
fn unknown_rule(place: &str, given: &str, context: &str) -> Fatal {
    let hint = match did_you_mean(given) {
        Some(s) => format!("did you mean `{s}`? `skillsift rules` lists every rule"),
        None => "`skillsift rules` lists every rule id and name".to_string(),
    };
    Fatal::usage(format!("{place}: unknown rule `{given}` {context}")).with_help(hint)
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RawConfig {
    lint: RawLint,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "kebab-case")]
struct RawLint {
    rules: BTreeMap<toml::Spanned<String>, toml::Value>,
    per_skill_ignores: BTreeMap<toml::Spanned<String>, Vec<toml::Spanned<String>>>,
}

/// Every rule id or name in `skillsift.toml` must exist: `[lint.rules]`
/// keys and `[lint] per-skill-ignores` values; every glob must parse.
pub fn check_config_rules(text: &str, origin: &str) -> Result<(), Fatal> {
    // the configuration already parsed once: this reading only adds spans
    let Ok(raw) = toml::from_str::<RawConfig>(text) else {
        return Ok(());
    };
    let index = crate::diag::LineIndex::new(text);
    let place = |at: usize| {
        let (l, c) = index.line_col(text, at);
        format!("{origin}:{l}:{c}")
    };
    for key in raw.lint.rules.keys() {
        if registry::find(key.get_ref()).is_none() {
            return Err(unknown_rule(
                &place(key.span().start),
                key.get_ref(),
                "in [lint.rules]",
            ));
        }
    }
    for (glob, rules) in &raw.lint.per_skill_ignores {
        if let Err(e) = crate::config::PathGlobs::new(std::slice::from_ref(glob.get_ref())) {
            return Err(Fatal::usage(format!(
                "{}: [lint] per-skill-ignores: `{}` is not a glob: {e}",
                place(glob.span().start),
                glob.get_ref()
            )));
        }
        for r in rules {
            if registry::find(r.get_ref()).is_none() {
                return Err(unknown_rule(
                    &place(r.span().start),
                    r.get_ref(),
                    "in [lint] per-skill-ignores",
                ));
            }
        }
    }
    Ok(())
}

/// One inline suppression.
#[derive(Debug)]
struct Directive {
    /// The skill it sits in (index into `catalog.skills`).
    skill: usize,
    rules: Vec<&'static str>,
    span: Span,
    used: bool,
}

/// The inline suppressions of every skill, and the findings about
/// malformed ones.
fn directives(catalog: &Catalog) -> (Vec<Directive>, Vec<Diagnostic>) {
    let mut found = Vec::new();
    let mut bad = Vec::new();
    for (i, skill) in catalog.skills.iter().enumerate() {
        let (Some(fm), Some(src)) = (&skill.frontmatter, &skill.source) else {
            continue;
        };
        let text = &src.text;
        let Some(yaml) = text.get(fm.yaml.clone()) else {
            continue;
        };
        let mut at = fm.yaml.start;
        for line in yaml.split_inclusive('\n') {
            let start = at;
            at += line.len();
            let Some(p) = line.find("# skillsift:") else {
                continue;
            };
            if p > 0 && !line[..p].ends_with([' ', '\t']) {
                continue;
            }
            let body = line[p + "# skillsift:".len()..].trim_end_matches(['\n', '\r']);
            let span = src.span(start + p, start + line.trim_end_matches(['\n', '\r']).len());
            // the help writes the suppression of the rules it names
            let malformed = |why: &str, named: &[&str]| {
                let ids = if named.is_empty() {
                    "SG201".to_string()
                } else {
                    named.join(", ")
                };
                INVALID_SUPPRESSION
                    .diag(&skill.file, why.to_string())
                    .with_span(span)
                    .with_help(format!(
                        "write `# skillsift: ignore[{ids}] why the finding does not apply`"
                    ))
            };
            let rest = body.trim_start();
            let Some(list) = rest.strip_prefix("ignore[") else {
                let verb = rest.split(['[', ' ']).next().unwrap_or("");
                bad.push(malformed(
                    &format!("`{verb}` is not a skillsift directive (did you mean `ignore[…]`?)"),
                    &[],
                ));
                continue;
            };
            let Some((ids, reason)) = list.split_once(']') else {
                bad.push(malformed(
                    "the rule list of this suppression is not closed with `]`",
                    &[],
                ));
                continue;
            };
            let mut rules = Vec::new();
            let mut unknown = Vec::new();
            for id in ids.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match registry::find(id) {
                    Some(r) => rules.push(r.id),
                    None => unknown.push(id),
                }
            }
            // a misspelt id is this suppression's finding, not the run's end:
            // it suppresses nothing, the rules it names rightly still do
            for id in unknown {
                let meant = did_you_mean(id);
                let mut named = rules.clone();
                let message = match &meant {
                    Some(m) => {
                        if let Some(r) = registry::find(m) {
                            named.push(r.id);
                        }
                        format!("unknown rule `{id}` in this suppression: did you mean `{m}`?")
                    }
                    None => format!(
                        "unknown rule `{id}` in this suppression (`skillsift rules` lists every rule)"
                    ),
                };
                bad.push(malformed(&message, &named));
            }
            if rules.is_empty() {
                if ids.trim().is_empty() {
                    bad.push(malformed("this suppression names no rule", &[]));
                }
                continue;
            }
            if reason.trim().is_empty() {
                bad.push(malformed(
                    "this suppression gives no reason: say why the finding does not apply",
                    &rules,
                ));
                continue;
            }
            found.push(Directive {
                skill: i,
                rules,
                span,
                used: false,
            });
        }
    }
    (found, bad)
}

/// The skill whose folder holds `file`: the longest skill folder that is a
/// prefix of it.
fn owner(folders: &HashMap<&str, usize>, file: &str) -> Option<usize> {
    if let Some(&i) = folders.get(".") {
        // the catalog root is itself a skill's folder
        return Some(i);
    }
    let mut at = file;
    while let Some((parent, _)) = at.rsplit_once('/') {
        if let Some(&i) = folders.get(parent) {
            return Some(i);
        }
        at = parent;
    }
    None
}

/// Each skill's folder, relative to the root, to its index.
fn folders(catalog: &Catalog) -> HashMap<&str, usize> {
    (catalog.skills.iter().enumerate())
        .map(|(i, s)| (s.rel_dir.as_str(), i))
        .collect()
}

/// The skill (index into `catalog.skills`) whose inline suppressions
/// cover findings in `file`: the one whose folder holds it.
pub fn holder(catalog: &Catalog, file: &str) -> Option<usize> {
    owner(&folders(catalog), file)
}

/// Drop the findings that `[lint] per-skill-ignores` and inline
/// suppressions accept, and add the findings about suppressions (unused,
/// malformed).
pub fn apply(diags: &mut Vec<Diagnostic>, catalog: &Catalog, config: &Config) -> Result<(), Fatal> {
    let (mut inline, bad) = directives(catalog);
    let ignores: Vec<(crate::config::PathGlobs, Vec<&'static str>)> = config
        .lint
        .per_skill_ignores
        .iter()
        .filter_map(|(g, rules)| {
            let m = crate::config::PathGlobs::new(std::slice::from_ref(g)).ok()?;
            let ids = rules
                .iter()
                .filter_map(|r| registry::find(r).map(|r| r.id))
                .collect();
            Some((m, ids))
        })
        .collect();
    if inline.is_empty() && ignores.is_empty() && bad.is_empty() {
        return Ok(());
    }
    let folders = folders(catalog);
    let ignored: Vec<Vec<&'static str>> = catalog
        .skills
        .iter()
        .map(|s| {
            ignores
                .iter()
                .filter(|(m, _)| m.matches(&s.rel_dir, true))
                .flat_map(|(_, ids)| ids.iter().copied())
                .collect()
        })
        .collect();
    let mut by_skill: HashMap<usize, Vec<usize>> = HashMap::new();
    for (k, d) in inline.iter().enumerate() {
        by_skill.entry(d.skill).or_default().push(k);
    }
    diags.retain(|d| {
        let Some(i) = owner(&folders, &d.file) else {
            return true;
        };
        if ignored[i].contains(&d.rule) {
            return false;
        }
        let mut keep = true;
        for &k in by_skill.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
            if inline[k].rules.contains(&d.rule) {
                inline[k].used = true;
                keep = false;
            }
        }
        keep
    });
    for d in &inline {
        if !d.used {
            let skill = &catalog.skills[d.skill];
            diags.push(
                UNUSED_SUPPRESSION
                    .diag(
                        &skill.file,
                        format!(
                            "this suppression of {} matches no finding",
                            d.rules.join(", ")
                        ),
                    )
                    .with_span(d.span)
                    .with_label("nothing to suppress")
                    .with_help("remove it: the finding it accepted is gone"),
            );
        }
    }
    diags.extend(bad);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_rule() {
        assert_eq!(did_you_mean("SG1O2").as_deref(), Some("SG102"));
        assert_eq!(did_you_mean("name-fromat").as_deref(), Some("name-format"));
        assert_eq!(did_you_mean("completely-different-thing"), None);
    }
}
