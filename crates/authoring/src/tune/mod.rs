//! `skillsift tune SKILL [ROOT]`: better descriptions from train
//! failures, proven on prompts the tuner never read.
//!
//! The method of the skill testing guide, lexically and for free: split
//! the skill's trigger prompts ([`split`]: the prompts' own labels, else a
//! stated alternating split; `fresh` never read), propose candidate
//! descriptions from the **train** failures only ([`propose`]: words two
//! or more failing prompts share, phrased into the description), score
//! each with Tier 2 as `check` routes the catalog ([`score`]: train,
//! every other skill's prompts, the listing and the length; validation as
//! counts), let each round pick by train figures and the round with the
//! best validation count win ([`recommend`]), and recommend it only when
//! validation rises, no train negative and no other skill's prompt is
//! lost, and every word is a category's. Rendering is `report::tune`'s job; writing is the
//! binary's.
//!
//! [`recommended`] is the one call an editor needs: the description
//! `tune` recommends for a skill of a catalog in memory, and the edit
//! that writes it.

pub mod propose;
pub mod recommend;
pub mod score;
pub mod split;

use crate::catalog::cases::Side;
use crate::catalog::{Catalog, Target};
use crate::config::Config;
use crate::diag::Edit;
use crate::exit::{Exit, Fatal};
use crate::lint::rules::description::MAX_DESCRIPTION_CHARS;
use crate::lint::rules::fixes::rewrite_value;
use base::ClientId;
use propose::{Candidate, Failures};
use recommend::Test;
use score::{Context, Figures, TrainPrompt};
use serde::Serialize;

/// Rounds run when `--rounds` is not given (fewer when a round's pick
/// would not be recommended).
pub const DEFAULT_ROUNDS: usize = 5;
/// Most rounds `--rounds` takes.
pub const MAX_ROUNDS: usize = 20;

/// `tune`'s options from the command line.
#[derive(Debug, Clone, Copy, Default)]
pub struct Opts {
    /// `--rounds N`: exactly N rounds (fewer only when no candidate is
    /// left); `None`: until a round's pick would not be recommended, at
    /// most [`DEFAULT_ROUNDS`].
    pub rounds: Option<usize>,
    /// `--client` (else `[route] client`).
    pub client: Option<ClientId>,
}

/// One scored candidate.
#[derive(Debug, Clone, Serialize)]
pub struct Scored {
    #[serde(flatten)]
    pub candidate: Candidate,
    pub figures: Figures,
    /// Why the round may not pick it; empty when it may.
    pub why_not: Vec<String>,
    /// The SKILL.md keeps the description's style (else double-quoted).
    pub style_kept: bool,
    /// The whole SKILL.md with this description.
    #[serde(skip)]
    pub text: String,
}

/// One round of propose, score, pick.
#[derive(Debug, Clone, Serialize)]
pub struct Round {
    /// 1-based.
    pub round: usize,
    /// Train positives not ranking first and train negatives taken, that
    /// this round proposed from.
    pub failing_positives: usize,
    pub taken_negatives: usize,
    /// Every candidate scored, in the round's order (eligible first, by
    /// train figures).
    pub candidates: Vec<Scored>,
    /// Index into `candidates` of the pick.
    pub picked: Option<usize>,
    /// Candidates over 1,024 characters, not scored.
    pub too_long: usize,
    /// Words the failing train positives share that no candidate can
    /// say (no phrase of theirs holds them).
    pub unphrased: Vec<propose::Word>,
}

impl Round {
    pub fn pick(&self) -> Option<&Scored> {
        self.picked.map(|i| &self.candidates[i])
    }
}

/// The recommended description.
#[derive(Debug, Clone, Serialize)]
pub struct Recommended {
    /// The round it comes from.
    pub round: usize,
    pub description: String,
    pub figures: Figures,
    /// The paired test against the current description on the
    /// validation prompts.
    pub test: Test,
    pub style_kept: bool,
    /// The whole SKILL.md with it.
    #[serde(skip)]
    pub text: String,
    /// The one edit of the current SKILL.md that writes it.
    #[serde(skip)]
    pub edit: Edit,
}

/// The current description and its figures.
#[derive(Debug, Clone, Serialize)]
pub struct Current {
    pub description: String,
    pub figures: Figures,
}

/// What would help a failing train positive, for an author rewriting by
/// hand when nothing is recommended.
#[derive(Debug, Clone, Serialize)]
pub struct Hint {
    /// The train prompt (train prompts may be shown).
    pub prompt: String,
    pub file: String,
    pub line: u32,
    /// The skill's rank with the current description.
    pub rank: usize,
    /// The skill ranked first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// Words the prompt shares with the skill ranked first and this
    /// description lacks.
    pub words: Vec<String>,
    /// With those words said in the description: whether this prompt
    /// ranks the skill first, and the other skills' prompts lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with_words: Option<WithWords>,
}

/// The figures of the description with a hint's words said.
#[derive(Debug, Clone, Serialize)]
pub struct WithWords {
    pub description: String,
    pub passes: bool,
    pub siblings_lost: usize,
    pub train_negatives: score::Count,
}

/// Everything `tune` found.
#[derive(Debug, Clone, Serialize)]
pub struct Tuned {
    pub skill: String,
    /// The SKILL.md, relative to the catalog root.
    pub file: String,
    pub client: ClientId,
    /// The plugin or pack routed, when the catalog is routed per unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub install: Option<String>,
    pub split: split::Report,
    pub current: Current,
    /// The train prompts with the current description (their text may be
    /// shown; validation prompts' never is).
    pub train: Vec<TrainPrompt>,
    pub rounds: Vec<Round>,
    /// Why the rounds stopped.
    pub stop: String,
    /// The round with the best validation count.
    pub best_round: Option<usize>,
    pub recommended: Option<Recommended>,
    /// Why the best round is not recommended, when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_recommended: Option<String>,
    /// When nothing is recommended: for each failing train positive, the
    /// words it shares with the skill ranked first that this description
    /// lacks, and what saying them would do.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub what_would_help: Vec<Hint>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The current SKILL.md.
    #[serde(skip)]
    pub original: String,
}

/// The skill `name` of `catalog`, checked for tuning: its index.
fn tunable(catalog: &Catalog, name: &str) -> Result<usize, Fatal> {
    if catalog.target != Target::Catalog {
        return Err(Fatal::usage(format!(
            "{}: a single skill; tune needs the catalog folder that holds it (its siblings' prompts are part of the score)",
            catalog.display_root
        ))
        .with_help("pass the catalog root: `skillsift tune SKILL ROOT`"));
    }
    let i = catalog.require_skill(name)?;
    let s = &catalog.skills[i];
    if crate::route::routable(s).is_none() {
        return Err(Fatal::usage(format!(
            "{}: `{name}` has no readable name and description to tune",
            s.file
        ))
        .with_help("fix its frontmatter first (`skillsift check` reports what is wrong)"));
    }
    if s.model_never_chooses() {
        return Err(Fatal::usage(format!(
            "{}: `{name}` sets `disable-model-invocation: true`: the model never chooses it, so its description routes nothing",
            s.file
        )));
    }
    Ok(i)
}

/// Tune the description of the skill named `name`.
pub fn tune(catalog: &Catalog, config: &Config, name: &str, opts: Opts) -> Result<Tuned, Fatal> {
    let i = tunable(catalog, name)?;
    let skill = &catalog.skills[i];
    let shown = crate::catalog::cases::skill_key(skill).to_string();
    let Some(suite) = catalog
        .suite_of(i)
        .filter(|s| !s.positive.is_empty() || !s.negative.is_empty())
    else {
        return Err(Fatal::usage(format!(
            "`{shown}` has no trigger prompts to tune against"
        ))
        .with_help(format!(
            "write some (`skillsift init {shown}` drafts a trigger set to rewrite in users' words), then label them `train` and `validation`"
        )));
    };
    let plan = split::split(suite);
    if plan.train.is_empty() && plan.validation.is_empty() {
        return Err(Fatal::usage(format!(
            "`{shown}`: none of its trigger prompts can be tuned on ({} fresh, never read; {} `\"lexical\": false`)",
            plan.fresh, plan.not_lexical
        ))
        .with_help("label some prompts `train` and some `validation`"));
    }
    if plan.train.is_empty() || plan.validation.is_empty() {
        let (missing, help) = match (plan.source, plan.train.is_empty()) {
            (split::Source::Labels, true) => (
                "no train prompt",
                "label some prompts `\"split\": \"train\"`: tune proposes from train failures only",
            ),
            (split::Source::Labels, false) => (
                "no validation prompt",
                "label some prompts `\"split\": \"validation\"`: without them no gain can be shown on prompts the tuner did not read",
            ),
            (split::Source::Alternating, _) => (
                "one prompt, which cannot be split into train and validation",
                "write more trigger prompts, should and should-not",
            ),
        };
        return Err(
            Fatal::new(Exit::Insufficient, format!("`{shown}`: {missing}")).with_help(help),
        );
    }
    let mut config = config.clone();
    config.route.client = opts.client.unwrap_or(config.route.client);
    let mut ctx = Context::new(catalog, &config, i, &plan)?;
    let original_text = skill
        .source
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    let description = skill.description().unwrap_or_default().to_string();
    let current = ctx.score(skill.clone(), None)?;
    // the current description against itself: no sibling lost
    let current = Figures {
        siblings_lost: 0,
        siblings_gained: 0,
        ..current
    };
    let mut tuned = Tuned {
        skill: shown.clone(),
        file: skill.file.clone(),
        client: config.route.client,
        install: ctx.install.clone(),
        split: {
            let mut r = plan.report();
            // a declared source's records carry the label in the field its
            // declaration names for `split`
            for l in &mut r.to_label {
                l.declared = config.cases.sources.iter().enumerate().find_map(|(n, d)| {
                    crate::config::declared_glob(&d.files)
                        .ok()
                        .filter(|g| g.is_match(&l.file))
                        .map(|_| split::DeclaredLabel {
                            source: n + 1,
                            split_field: d.split.clone(),
                            has_fields: d.format.has_fields(),
                        })
                });
            }
            r
        },
        train: current.train.clone(),
        current: Current {
            description: description.clone(),
            figures: current.clone(),
        },
        rounds: Vec::new(),
        stop: String::new(),
        best_round: None,
        recommended: None,
        not_recommended: None,
        what_would_help: Vec::new(),
        notes: ctx.note.iter().cloned().collect(),
        original: original_text,
    };
    let name_of = crate::route::routable(skill)
        .map_or("", |(n, _)| n)
        .to_string();
    let analyzer = crate::route::analyzer(&config.route)?;
    let limit = opts.rounds.unwrap_or(DEFAULT_ROUNDS);
    let mut prev_desc = description.clone();
    let mut prev = current.clone();
    for round in 1..=limit {
        let failures = Failures {
            positives: (prev.train.iter())
                .filter(|t| t.side == Side::Positive && !t.passed)
                .map(|t| t.prompt.as_str())
                .collect(),
            stolen: (prev.train.iter())
                .filter(|t| t.side == Side::Negative && !t.passed)
                .map(|t| t.prompt.as_str())
                .collect(),
            passing: (prev.train.iter())
                .filter(|t| t.side == Side::Positive && t.passed)
                .map(|t| t.prompt.as_str())
                .collect(),
        };
        if failures.positives.is_empty() && failures.stolen.is_empty() {
            tuned.stop = if round == 1 {
                "nothing to tune: every train prompt passes".to_string()
            } else {
                format!("round {round}: every train prompt passes")
            };
            break;
        }
        let proposed = propose::propose(&prev_desc, &name_of, &analyzer, &failures);
        let mut r = Round {
            round,
            failing_positives: failures.positives.len(),
            taken_negatives: failures.stolen.len(),
            candidates: Vec::new(),
            picked: None,
            too_long: 0,
            unphrased: proposed.unphrased,
        };
        for c in proposed.candidates {
            if c.description.chars().count() > MAX_DESCRIPTION_CHARS {
                r.too_long += 1;
                continue;
            }
            let written = match rewrite_value(skill, "description", &c.description) {
                Ok(w) => w,
                Err(why) => {
                    return Err(Fatal::usage(format!(
                        "{why}; tune cannot write a description into it"
                    ))
                    .with_help("write `description:` once, at the start of a line, as a string"));
                }
            };
            let (reread, _) = skill.reread(&written.text);
            let figures = ctx.score(reread, Some(&current))?;
            let why_not = recommend::why_not(&c, &figures, &prev, &current);
            r.candidates.push(Scored {
                candidate: c,
                figures,
                why_not,
                style_kept: written.style_kept,
                text: written.text,
            });
        }
        let mut order: Vec<usize> = (0..r.candidates.len()).collect();
        order.sort_by_key(|&k| {
            let c = &r.candidates[k];
            recommend::order(c.why_not.is_empty(), &c.figures, k)
        });
        let mut sorted: Vec<Scored> = order.into_iter().map(|k| r.candidates[k].clone()).collect();
        std::mem::swap(&mut r.candidates, &mut sorted);
        r.picked = r
            .candidates
            .first()
            .filter(|c| c.why_not.is_empty())
            .map(|_| 0);
        let Some(pick) = r.pick().cloned() else {
            if let (1, Some(best)) = (round, r.candidates.first()) {
                tuned.not_recommended = Some(format!(
                    "the best candidate, {:?}, {}",
                    best.candidate.description,
                    best.why_not.join("; ")
                ));
            }
            tuned.stop = format!(
                "round {round}: {}",
                if r.candidates.is_empty() && !r.unphrased.is_empty() {
                    format!(
                        "no candidate: the words the failing train prompts share and the description lacks ({}) stand in no phrase tune can write, and no word of the negatives it takes can be taken out of a list",
                        r.unphrased
                            .iter()
                            .map(|w| format!("`{}`", w.word))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                } else if r.candidates.is_empty() {
                    "no candidate: the failing train prompts share no word the description lacks, and no word of the negatives it takes can be taken out of a list".to_string()
                } else {
                    "no candidate gains on train without a cost".to_string()
                }
            );
            tuned.rounds.push(r);
            break;
        };
        tuned.rounds.push(r);
        let fell = pick.figures.validation.passed < prev.validation.passed;
        prev_desc = pick.candidate.description.clone();
        prev = pick.figures.clone();
        if fell && opts.rounds.is_none() {
            tuned.stop =
                format!("round {round}: validation fell, so no further round is recommended");
            break;
        }
        if round == limit {
            tuned.stop = format!("{limit} round{} run", if limit == 1 { "" } else { "s" });
        }
    }
    let picks: Vec<usize> = tuned
        .rounds
        .iter()
        .map_while(|r| r.pick().map(|p| p.figures.validation.passed))
        .collect();
    tuned.best_round = recommend::best_round(&picks);
    if let Some(b) = tuned.best_round {
        let pick = tuned.rounds[b - 1].pick().cloned().expect("a picked round");
        if let Some(why) = recommend::held_back(&pick.figures, &current) {
            tuned.not_recommended = Some(why);
        } else {
            let written = rewrite_value(skill, "description", &pick.candidate.description)
                .map_err(Fatal::usage)?;
            tuned.recommended = Some(Recommended {
                round: b,
                description: pick.candidate.description.clone(),
                test: recommend::paired(&current.validation_each, &pick.figures.validation_each),
                figures: pick.figures.clone(),
                style_kept: written.style_kept,
                text: written.text,
                edit: written.edit,
            });
        }
    }
    if tuned.recommended.is_none() {
        tuned.what_would_help =
            hints(&mut ctx, skill, &name_of, &description, &current, &analyzer)?;
    }
    Ok(tuned)
}

/// [`Hint`]s for the failing train positives of `current` (the current
/// description's figures): each one's words said in the description and
/// scored.
fn hints(
    ctx: &mut Context,
    skill: &crate::catalog::Skill,
    name: &str,
    description: &str,
    current: &Figures,
    analyzer: &crate::route::text::Analyzer,
) -> Result<Vec<Hint>, Fatal> {
    let have = propose::terms_of(name, description, analyzer);
    let mut out = Vec::new();
    for p in current
        .train
        .iter()
        .filter(|p| p.side == Side::Positive && !p.passed)
    {
        let words = p
            .first_text
            .as_deref()
            .map(|w| propose::shared_lacking(&p.prompt, w, &have, analyzer))
            .unwrap_or_default();
        let with_words = if words.is_empty() {
            None
        } else {
            let text = propose::with_words(description, &words);
            let written = rewrite_value(skill, "description", &text).map_err(Fatal::usage)?;
            let (reread, _) = skill.reread(&written.text);
            let f = ctx.score(reread, Some(current))?;
            let passes = f
                .train
                .iter()
                .any(|t| t.file == p.file && t.line == p.line && t.prompt == p.prompt && t.passed);
            Some(WithWords {
                description: text,
                passes,
                siblings_lost: f.siblings_lost,
                train_negatives: f.train_negatives,
            })
        };
        out.push(Hint {
            prompt: p.prompt.clone(),
            file: p.file.clone(),
            line: p.line,
            rank: p.rank,
            first: p.first.clone(),
            words,
            with_words,
        });
    }
    Ok(out)
}

/// The description `tune` (default rounds) recommends for the skill named
/// `skill` of `catalog`, with the edit of its SKILL.md that writes it in
/// the frontmatter's style; `None` when nothing is recommended (no train
/// failure, no candidate without a cost, or validation would fall). For
/// an editor's code action (`skillsift lsp`); errors are `tune`'s.
pub fn recommended(
    catalog: &Catalog,
    config: &Config,
    skill: &str,
) -> Result<Option<Recommended>, Fatal> {
    Ok(tune(catalog, config, skill, Opts::default())?.recommended)
}
