//! `skillgate init SKILL [ROOT]`: a starter trigger set for a skill that
//! has none.
//!
//! - Positives: the requests its own description's "Use when …" clauses
//!   name ([`crate::lint::rules::trigger::clauses`]).
//! - Negatives: near misses from the siblings whose descriptions are
//!   closest to it (cosine over the Tier 2 index), each with that sibling
//!   as `owner`.
//! - Every prompt is marked a draft (`"draft": true`; in a waza file a
//!   `reason` starting with `draft:`): drafts are listed but never routed
//!   or run (SG423) until a person rewrites them in a user's words, since
//!   a prompt drawn from a description matches it by construction.
//! - The layout is the one the catalog already uses: `evals/cases/<skill>.json`
//!   when the catalog keeps case files; else the trigger-set file name the
//!   other skills use most (a waza file when they use only waza), else
//!   `evals/trigger-queries.json` in the skill's folder.
//! - It never overwrites: the file is created only when it does not exist
//!   (atomically, `O_EXCL`), and a skill that already has trigger prompts
//!   is refused.

use crate::app::load_config;
use crate::catalog::cases::{self, CASES_DIR, Format};
use crate::catalog::discover::join_rel;
use crate::catalog::{Catalog, Target};
use crate::cli::{Format as OutFormat, InitArgs};
use crate::config::Config;
use crate::exit::{Exit, Fatal};
use crate::lint::rules::trigger::clauses;
use crate::report;
use crate::route::Router;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;

/// Where a starter file goes when nothing in the catalog says otherwise.
pub const DEFAULT_TRIGGER_SET: &str = "evals/trigger-queries.json";

/// Most positive drafts written.
const MAX_POSITIVES: usize = 10;

/// One draft prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Draft {
    pub prompt: String,
    /// The sibling a negative belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// What `init` wrote (or, with `--dry-run`, would write).
#[derive(Debug, Clone, Serialize)]
pub struct InitReport {
    pub skill: String,
    /// Relative to the catalog root.
    pub file: String,
    /// `case file`, `trigger set` or `waza trigger tests`.
    pub format: &'static str,
    /// Why this layout.
    pub layout: String,
    pub positive: Vec<Draft>,
    pub negative: Vec<Draft>,
    pub written: bool,
    /// The file's text.
    pub content: String,
}

/// The layout the catalog uses for trigger prompts: the format, the path
/// relative to the skill folder (or the catalog, for a case file), and why.
fn layout(catalog: &Catalog, skill: usize) -> (Format, String, String) {
    let name = cases::skill_key(&catalog.skills[skill]);
    if catalog.root.join(CASES_DIR).is_dir() {
        return (
            Format::CaseFile,
            format!("{CASES_DIR}/{name}.json"),
            format!("the catalog keeps its cases in {CASES_DIR}/"),
        );
    }
    let mut used: BTreeMap<(Format, &str), usize> = BTreeMap::new();
    for s in catalog.case_sources.iter().filter(|s| {
        s.skill != skill && !s.at_root && matches!(s.format, Format::TriggerSet | Format::Waza)
    }) {
        *used.entry((s.format, s.rel.as_str())).or_default() += 1;
    }
    let best = |format: Format| {
        used.iter()
            .filter(|((f, _), _)| *f == format)
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.1.cmp(a.0.1)))
            .map(|((_, rel), n)| (rel.to_string(), *n))
    };
    for (format, what) in [
        (Format::TriggerSet, "a trigger set"),
        (Format::Waza, "waza trigger tests"),
    ] {
        if let Some((rel, n)) = best(format) {
            return (
                format,
                rel,
                format!(
                    "{n} other skill{} keep{} {what} there",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "s" } else { "" }
                ),
            );
        }
    }
    (
        Format::TriggerSet,
        DEFAULT_TRIGGER_SET.to_string(),
        "the agentskills.io layout: a trigger set in the skill's own evals/".to_string(),
    )
}

/// The first sentence of a description (at most 160 characters), for a
/// sibling that has no "Use when" clause.
fn first_sentence(description: &str) -> String {
    let d = description.trim();
    let end = d
        .char_indices()
        .find(|&(i, c)| {
            c == '\n' || (c == '.' && d[i + 1..].chars().next().is_none_or(char::is_whitespace))
        })
        .map_or(d.len(), |(i, _)| i);
    d[..end]
        .chars()
        .take(160)
        .collect::<String>()
        .trim()
        .to_string()
}

/// The drafts for skill `index`: positives from its description,
/// negatives from the closest siblings.
fn drafts(
    catalog: &Catalog,
    config: &Config,
    index: usize,
) -> Result<(Vec<Draft>, Vec<Draft>), Fatal> {
    let skill = &catalog.skills[index];
    let router = Router::new(catalog, config)?;
    let Some(doc) = router.doc_of(index) else {
        return Err(Fatal::usage(format!(
            "{}: the skill has no readable name or description to draft prompts from",
            skill.file
        ))
        .with_help("fix its frontmatter first (`skillgate check` shows what is wrong)"));
    };
    let description = skill.description().unwrap_or_default();
    let positive: Vec<Draft> = clauses(description)
        .into_iter()
        .take(MAX_POSITIVES)
        .map(|prompt| Draft {
            prompt,
            owner: None,
        })
        .collect();
    let mut siblings: Vec<(f64, u32)> = (0..router.index.len() as u32)
        .filter(|&d| d != doc)
        .map(|d| (crate::route::collide::dot(&router.index, doc, d), d))
        .filter(|&(s, _)| s > 0.0)
        .collect();
    siblings.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| router.index.doc(a.1).name.cmp(&router.index.doc(b.1).name))
    });
    let wanted = config.cases.min_negative.max(3);
    let mut negative = Vec::new();
    for (_, d) in siblings {
        if negative.len() == wanted {
            break;
        }
        // a built-in competitor has no SKILL.md here to draw from
        let Some(sibling) = router.skill(d) else {
            continue;
        };
        let text = sibling.description().unwrap_or_default();
        let prompt = clauses(text)
            .into_iter()
            .next()
            .unwrap_or_else(|| first_sentence(text));
        if prompt.chars().count() < 3
            || positive
                .iter()
                .any(|p| p.prompt.eq_ignore_ascii_case(&prompt))
        {
            continue;
        }
        negative.push(Draft {
            prompt,
            owner: Some(router.index.doc(d).name.clone()),
        });
    }
    Ok((positive, negative))
}

#[derive(Serialize)]
struct Row<'a> {
    query: &'a str,
    should_trigger: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<&'a str>,
    draft: bool,
}

#[derive(Serialize)]
struct CaseRow<'a> {
    prompt: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<&'a str>,
    draft: bool,
}

/// The file's text in `format`.
fn render(format: Format, skill: &str, positive: &[Draft], negative: &[Draft]) -> String {
    let mut text = match format {
        Format::CaseFile => {
            fn rows(list: &[Draft]) -> Vec<CaseRow<'_>> {
                list.iter()
                    .map(|d| CaseRow {
                        prompt: &d.prompt,
                        owner: d.owner.as_deref(),
                        draft: true,
                    })
                    .collect()
            }
            let doc = serde_json::json!({
                "skill_name": skill,
                "trigger": {"positive": rows(positive), "negative": rows(negative)},
                "evals": [],
            });
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        }
        Format::Waza => {
            let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
            let mut y = String::from(
                "# Starter trigger tests written by `skillgate init`. Every prompt is a\n# draft: rewrite it as a user would ask, then drop `draft:` from its reason.\n",
            );
            y.push_str(&format!("skill: {}\n", q(skill)));
            y.push_str("should_trigger_prompts:\n");
            for d in positive {
                y.push_str(&format!(
                    "  - prompt: {}\n    reason: {}\n",
                    q(&d.prompt),
                    q("draft: from the description's \"Use when\" clause")
                ));
            }
            y.push_str("should_not_trigger_prompts:\n");
            for d in negative {
                y.push_str(&format!(
                    "  - prompt: {}\n    reason: {}\n",
                    q(&d.prompt),
                    q(&format!(
                        "draft: a near miss that belongs to {}",
                        d.owner.as_deref().unwrap_or("another skill")
                    ))
                ));
            }
            return y;
        }
        _ => {
            let rows: Vec<Row> = positive
                .iter()
                .map(|d| Row {
                    query: &d.prompt,
                    should_trigger: true,
                    owner: None,
                    draft: true,
                })
                .chain(negative.iter().map(|d| Row {
                    query: &d.prompt,
                    should_trigger: false,
                    owner: d.owner.as_deref(),
                    draft: true,
                }))
                .collect();
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        }
    };
    text.push('\n');
    text
}

/// What `init` would write for skill `name`, or why it will not.
pub fn plan(catalog: &Catalog, config: &Config, name: &str) -> Result<InitReport, Fatal> {
    let index = catalog.require_skill(name)?;
    let skill = &catalog.skills[index];
    let key = cases::skill_key(skill).to_string();
    if let Some(s) = catalog.suite_of(index) {
        let n = s.positive.len() + s.negative.len() + s.drafts.len();
        if n > 0 {
            return Err(Fatal::usage(format!(
                "`{key}` already has {n} trigger prompt{} (in {}); init writes a starter only for a skill without any",
                if n == 1 { "" } else { "s" },
                s.files.join(", ")
            ))
            .with_help(format!("`skillgate cases {key}` lists them and where each is written")));
        }
    }
    let (format, rel, why) = layout(catalog, index);
    let file = match format {
        Format::CaseFile => rel,
        _ => join_rel(&skill.rel_dir, &rel),
    };
    let (positive, negative) = drafts(catalog, config, index)?;
    if positive.is_empty() && negative.is_empty() {
        return Err(Fatal::usage(format!(
            "{}: nothing to draft: the description has no \"Use when …\" clause and no other skill shares its words",
            skill.file
        ))
        .with_help("add a \"Use when …\" sentence to the description (SG201), or write the trigger set by hand"));
    }
    let content = render(format, &key, &positive, &negative);
    Ok(InitReport {
        skill: key,
        file,
        format: format.as_str(),
        layout: why,
        positive,
        negative,
        written: false,
        content,
    })
}

/// Create `file` (relative to the catalog root) with `content`, never
/// replacing anything and never writing outside the catalog.
fn write_new(catalog: &Catalog, file: &str, content: &str) -> Result<(), Fatal> {
    let path = catalog.root.join(file);
    let shown = path.display();
    if std::fs::symlink_metadata(&path).is_ok() {
        return Err(
            Fatal::usage(format!("{shown} exists; init never overwrites"))
                .with_help("edit it, or move it away to start over"),
        );
    }
    let parent = path.parent().unwrap_or(&catalog.root);
    std::fs::create_dir_all(parent).map_err(|e| {
        Fatal::usage(format!(
            "{}: cannot create the folder: {e}",
            parent.display()
        ))
    })?;
    let boundary = catalog
        .root
        .canonicalize()
        .unwrap_or_else(|_| catalog.root.clone());
    if let Some(real) = crate::catalog::outside_root(&boundary, parent) {
        return Err(Fatal::usage(format!(
            "{}: leads outside the catalog (to {}); nothing was written",
            parent.display(),
            real.display()
        )));
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                Fatal::usage(format!("{shown} exists; init never overwrites"))
            } else {
                Fatal::usage(format!("{shown}: cannot create: {e}"))
            }
        })?;
    f.write_all(content.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| Fatal::usage(format!("{shown}: cannot write: {e}")))
}

/// `skillgate init SKILL [ROOT]`.
pub fn run(args: &InitArgs, out: &mut dyn Write) -> Result<Exit, Fatal> {
    if !args.root.is_dir() {
        return Err(
            Fatal::usage(format!("{}: not a catalog folder", args.root.display()))
                .with_help("pass the folder that holds the skills"),
        );
    }
    let config = load_config(&args.root, args.config.as_deref())?;
    let catalog = Catalog::load(&args.root, &config)?;
    if catalog.target != Target::Catalog {
        return Err(Fatal::usage(format!(
            "{}: a single skill folder; pass the catalog folder that holds it (negatives come from its other skills)",
            args.root.display()
        )));
    }
    let mut r = plan(&catalog, &config, &args.skill)?;
    if !args.dry_run {
        write_new(&catalog, &r.file, &r.content)?;
        r.written = true;
    }
    let written = match args.format {
        OutFormat::Json => report::init::json(&r, out),
        _ => report::init::human(&r, out),
    };
    written.map_err(report::write_error)?;
    Ok(Exit::Ok)
}
