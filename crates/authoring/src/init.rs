//! `skillsift init SKILL [ROOT]`: a starter trigger set for a skill that
//! has none.
//!
//! - Positives: the requests its own description's "Use when …" clauses
//!   name ([`crate::lint::rules::trigger::clauses`]), each made one
//!   well-formed sentence ([`crate::authoring::sentence`]: never cut inside
//!   brackets or quotes; a list of quoted phrases gives one draft each).
//! - Negatives: from the siblings whose descriptions are closest to it
//!   (cosine over the Tier 2 index), one per sibling, with that sibling as
//!   `owner`: the sibling's own positive prompt (one its author wrote)
//!   that scores highest for this skill, else the sentence of its "Use
//!   when" clauses that does; so two skills get different negatives. Only
//!   a near miss is drafted: a prompt that ranks this skill within the
//!   top 5.
//! - What the drafts leave short of `[cases]`' minimums is said
//!   (`left_to_write`); a skill with `disable-model-invocation: true` is
//!   refused with that cause (the model never chooses it). The skill is
//!   named by its frontmatter `name` or its folder.
//! - Every prompt is marked a draft (`"draft": true`; in a waza file a
//!   `reason` starting with `draft:`): drafts are listed but never routed
//!   or run (SG423) until a person rewrites them in a user's words, since
//!   a prompt drawn from a description matches it by construction.
//! - The layout is the one the catalog already uses: `evals/cases/<skill>.json`
//!   when the catalog keeps case files; else the root-level layout the
//!   others use (`evals/triggers/<skill>.json`, `evals/<skill>/trigger-eval.json`,
//!   `tests/<skill>/trigger_tests.yaml`); else the trigger-set file name the
//!   other skills use most (a waza file when they use only waza), else
//!   `evals/trigger-queries.json` in the skill's folder.
//! - It never overwrites: the file is created only when it does not exist
//!   (atomically, `O_EXCL`), and a skill that already has trigger prompts
//!   is refused.

use crate::catalog::Catalog;
use crate::catalog::cases::{self, CASES_DIR, Format};
use crate::catalog::discover::join_rel;
use crate::config::Config;
use crate::exit::Fatal;
use crate::lint::rules::trigger::clauses;
use crate::route::Router;
use crate::sentence;
use serde::Serialize;
use std::collections::BTreeMap;

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
    /// The "Use when" clauses the description has (positives are drafted
    /// from them; none drafted from any clause means each was too long or
    /// a fragment).
    pub use_when_clauses: usize,
    pub written: bool,
    /// What is left to write before the skill meets `[cases]`' minimums
    /// (drafts count towards none of them until rewritten).
    pub left_to_write: Vec<String>,
    /// The file's text.
    pub content: String,
    /// In a catalog installed in parts: the installation the skill is
    /// installed with (negatives come from its skills only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub installation: Option<String>,
    /// How many other skills are installed with it (the siblings
    /// negatives may come from).
    pub siblings: usize,
}

/// Where the prompts go: relative to the skill folder, or to the catalog
/// root (a case file, a layout kept at the root).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base {
    Skill,
    Root,
}

/// The layout the catalog uses for trigger prompts: the format, the path
/// and what it is relative to, and why.
fn layout(catalog: &Catalog, skill: usize) -> (Format, String, Base, String) {
    let name = cases::skill_key(&catalog.skills[skill]);
    if catalog.root.join(CASES_DIR).is_dir() {
        return (
            Format::CaseFile,
            format!("{CASES_DIR}/{name}.json"),
            Base::Root,
            format!("the catalog keeps its cases in {CASES_DIR}/"),
        );
    }
    // a layout kept at the root, one file per skill, that the others use
    // (`evals/triggers/<skill>.json`, …): the one most of them use
    let mut at_root: BTreeMap<(String, Format), usize> = BTreeMap::new();
    for s in catalog
        .case_sources
        .iter()
        .filter(|s| s.skill != skill && s.at_root)
    {
        if let Some(k) = cases::repo_level::path_for(&s.file, name) {
            *at_root.entry(k).or_default() += 1;
        }
    }
    if let Some(((path, format), n)) = at_root
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
    {
        return (
            format,
            path,
            Base::Root,
            format!(
                "{n} other skill{} keep{} {} there",
                if n == 1 { "" } else { "s" },
                if n == 1 { "s" } else { "" },
                if format == Format::Waza {
                    "waza trigger tests"
                } else {
                    "a trigger set"
                }
            ),
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
                Base::Skill,
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
        Base::Skill,
        "the agentskills.io layout: a trigger set in the skill's own evals/".to_string(),
    )
}

/// Why the model never sees skill `index` in the listing drafts are
/// ranked against, as a refusal: `init` drafts prompts to route, and a
/// skill the model cannot choose has nothing to route.
fn not_listed(catalog: &Catalog, router: &Router, index: usize) -> Fatal {
    let skill = &catalog.skills[index];
    let key = cases::skill_key(skill);
    if skill.model_never_chooses() {
        return Fatal::usage(format!(
            "`{key}` has `disable-model-invocation: true` ({}): the model never chooses it, so it needs no trigger prompts and init drafts none",
            skill.file
        ))
        .with_help("remove the key if the model should choose the skill by itself; a user's `/name` runs it either way");
    }
    let client = router.listing.client;
    if let Some(why) = router
        .listing
        .entries
        .iter()
        .find(|e| e.skill == index && !e.listed)
        .and_then(|e| e.reason.as_ref())
        .map(|r| r.describe())
    {
        return Fatal::usage(format!(
            "`{key}` is not in {}'s listing ({}): {why}; drafts are ranked against that listing",
            client.label(),
            skill.file
        ))
        .with_help("fix what keeps it out (`skillsift check` says), or pass --config with `[route] client` set to a client that lists it");
    }
    Fatal::usage(format!(
        "{}: the skill has no readable name or description to draft prompts from",
        skill.file
    ))
    .with_help("fix its frontmatter first (`skillsift check` shows what is wrong)")
}

/// Where document `doc` stands for `prompt`.
fn standing_for(router: &Router, doc: u32, prompt: &str) -> crate::route::rank::Standing {
    let q = crate::route::index::Query::new(prompt, &router.analyzer, &router.index);
    let mut scorer = crate::route::rank::Scorer::new(&router.index);
    scorer.score(&q).standing(doc)
}

/// A sibling's prompt is a near miss for the skill when the skill scores
/// for it and ranks within this many: a prompt that ranks it lower is
/// one no router would confuse with it (a Zig build prompt for an Elixir
/// skill), and teaches nothing as a negative.
const NEAR_MISS_RANK: usize = 5;

/// The drafts for skill `index`: positives from its description's "Use
/// when" clauses, as whole sentences; negatives from its siblings.
///
/// A negative is a prompt that belongs to another skill, so it is taken
/// from the siblings: first the prompts their authors wrote (their
/// positives, drafts left out), else a sentence of their description's
/// "Use when" clauses. Of each sibling's candidates the one that scores
/// highest for this skill is kept (a near miss for it, so two skills get
/// different negatives), from the closest siblings first, one per sibling.
///
/// In a catalog installed in parts (`client::install`: plugins,
/// marketplace entries, packs), the siblings are the skills of the
/// skill's own installation: a skill of a plugin installed apart never
/// competes with it.
fn drafts(
    catalog: &Catalog,
    config: &Config,
    index: usize,
) -> Result<(Vec<Draft>, Vec<Draft>, usize), Fatal> {
    if let Some(list) = crate::client::install::installs(catalog, config)?
        && let Some(inst) = list.into_iter().find(|i| i.skills.contains(&index))
    {
        let sub = catalog.subset(&inst.skills, inst.commands);
        let k = inst.skills.iter().position(|&i| i == index).unwrap_or(0);
        return drafts_within(&sub, config, k);
    }
    drafts_within(catalog, config, index)
}

/// The installation skill `index` is installed with, when the catalog is
/// installed in parts, and how many other skills it holds.
fn installed_with(
    catalog: &Catalog,
    config: &Config,
    index: usize,
) -> Result<(Option<String>, usize), Fatal> {
    Ok(match crate::client::install::installs(catalog, config)? {
        Some(list) => match list.into_iter().find(|i| i.skills.contains(&index)) {
            Some(inst) => (Some(inst.label), inst.skills.len() - 1),
            None => (None, catalog.skills.len().saturating_sub(1)),
        },
        None => (None, catalog.skills.len().saturating_sub(1)),
    })
}

/// [`drafts`] among every skill of `catalog`.
fn drafts_within(
    catalog: &Catalog,
    config: &Config,
    index: usize,
) -> Result<(Vec<Draft>, Vec<Draft>, usize), Fatal> {
    let skill = &catalog.skills[index];
    let router = Router::new(catalog, config)?;
    let Some(doc) = router.doc_of(index) else {
        return Err(not_listed(catalog, &router, index));
    };
    let description = skill.description().unwrap_or_default();
    let mut positive: Vec<Draft> = Vec::new();
    let own = clauses(description);
    for prompt in own.iter().flat_map(|c| sentence::sentences(c)) {
        if positive.len() == MAX_POSITIVES {
            break;
        }
        if !positive
            .iter()
            .any(|p| p.prompt.eq_ignore_ascii_case(&prompt))
        {
            positive.push(Draft {
                prompt,
                owner: None,
            });
        }
    }
    let mut siblings: Vec<(f64, u32)> = (0..router.index.len() as u32)
        .filter(|&d| d != doc)
        .map(|d| (crate::route::collide::dot(&router.index, doc, d), d))
        .filter(|&(s, _)| s > 0.0)
        .collect();
    siblings.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| router.index.doc(a.1).name.cmp(&router.index.doc(b.1).name))
    });
    let wanted = config.cases.min_negative().max(3);
    let mut negative: Vec<Draft> = Vec::new();
    for (_, d) in siblings {
        if negative.len() == wanted {
            break;
        }
        // a built-in competitor has no SKILL.md here to draw from
        let Some(sibling) = router.skill(d) else {
            continue;
        };
        let written: Vec<String> = catalog
            .skills
            .iter()
            .position(|s| std::ptr::eq(s, sibling))
            .and_then(|i| catalog.suite_of(i))
            .map(|s| s.positive.iter().map(|t| t.prompt.value.clone()).collect())
            .unwrap_or_default();
        let candidates = if written.is_empty() {
            clauses(sibling.description().unwrap_or_default())
                .iter()
                .flat_map(|c| sentence::sentences(c))
                .collect()
        } else {
            written
        };
        let taken = |p: &str| {
            positive
                .iter()
                .chain(&negative)
                .any(|x| x.prompt.eq_ignore_ascii_case(p))
        };
        let best = candidates
            .into_iter()
            .filter(|p| !taken(p))
            .map(|p| (standing_for(&router, doc, &p), p))
            .filter(|(st, _)| st.matched() && st.rank() <= NEAR_MISS_RANK)
            .map(|(st, p)| (st.score, p))
            .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(&a.1)));
        if let Some((_, prompt)) = best {
            negative.push(Draft {
                prompt,
                // the name cases refer to it by, not the one it is listed
                // under (a plugin's skill is listed as `<plugin>:<folder>`)
                owner: Some(cases::skill_key(sibling).to_string()),
            });
        }
    }
    Ok((positive, negative, own.len()))
}

/// What the drafts leave to write before the skill meets `[cases]`'
/// minimums: "1 more positive prompt (minimum 3)", "1 behavioral eval
/// (minimum 1, in evals/evals.json)".
fn left_to_write(config: &Config, format: Format, positive: usize, negative: usize) -> Vec<String> {
    let c = &config.cases;
    let mut left = Vec::new();
    let mut more = |n: usize, min: usize, one: &str, many: &str, more: bool, place: &str| {
        if n < min {
            let k = min - n;
            left.push(format!(
                "{k} {}{} (minimum {min}{place})",
                if more && n > 0 { "more " } else { "" },
                if k == 1 { one } else { many }
            ));
        }
    };
    more(
        positive,
        c.min_positive(),
        "positive prompt",
        "positive prompts",
        true,
        "",
    );
    more(
        negative,
        c.min_negative(),
        "negative prompt",
        "negative prompts",
        true,
        "",
    );
    let place = match format {
        Format::CaseFile => ", under \"evals\" in the same file",
        Format::Waza => ", in the skill's evals/evals.json",
        _ => ", in the skill's evals/evals.json",
    };
    more(
        0,
        c.min_evals(),
        "behavioral eval",
        "behavioral evals",
        false,
        place,
    );
    left
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
                "# Starter trigger tests written by `skillsift init`. Every prompt is a\n# draft: rewrite it as a user would ask, then drop `draft:` from its reason.\n",
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
            .with_help(format!("`skillsift cases {key}` lists them and where each is written")));
        }
    }
    let (format, rel, base, why) = layout(catalog, index);
    let file = match base {
        Base::Root => rel,
        Base::Skill => join_rel(&skill.rel_dir, &rel),
    };
    let (positive, negative, use_when_clauses) = drafts(catalog, config, index)?;
    let (installation, siblings) = installed_with(catalog, config, index)?;
    if positive.is_empty() && negative.is_empty() {
        let clause = if use_when_clauses > 0 {
            "no \"Use when\" clause of the description makes a whole sentence (two words to 160 characters)"
        } else {
            "the description has no \"Use when …\" clause"
        };
        let others = match (&installation, siblings) {
            (Some(label), 0) => {
                format!("and no other skill is installed with it ({label} is installed on its own)")
            }
            (Some(label), _) => format!(
                "and no prompt of the other skills of {label}, installed with it, is a near miss for it"
            ),
            (None, _) => "and no other skill's prompt is a near miss for it".to_string(),
        };
        return Err(Fatal::usage(format!(
            "{}: nothing to draft: {clause}, {others}",
            skill.file
        ))
        .with_help("add a \"Use when …\" sentence naming the requests in a user's words (SG201), or write the trigger set by hand"));
    }
    let content = render(format, &key, &positive, &negative);
    let left_to_write = left_to_write(config, format, positive.len(), negative.len());
    Ok(InitReport {
        left_to_write,
        skill: key,
        file,
        format: format.as_str(),
        layout: why,
        positive,
        negative,
        use_when_clauses,
        written: false,
        content,
        installation,
        siblings,
    })
}
