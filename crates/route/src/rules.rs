//! Tier 2 rules (`SG5xx`). Each is raised by the module named in its doc;
//! all are listed in `lint::registry::RULES`, so `skillsift rule SG501`
//! prints their documentation and `[lint.rules]` can change their level.

use crate::rule;

rule! {
    /// ## What it does
    /// Ranks every skill for each positive trigger prompt in
    /// `evals/cases/<skill>.json` by lexical similarity to its name and
    /// description (the TF-IDF index of Tier 2), and requires the case
    /// file's skill within the prompt's `top_k` (default 3, `[route]
    /// top-k`). Skills tied with it count as ahead of it. The finding lists
    /// the top 3 with their scores and the prompt's words that the winner's
    /// description has and this skill's lacks.
    ///
    /// ## Why is this bad?
    /// An agent picks a skill from its name and description. When a prompt
    /// users would type for this skill matches other skills' descriptions
    /// better, the agent is likely to load one of those instead.
    ///
    /// ## Example
    /// For the positive prompt "Write a failing test for this bug before
    /// fixing it", a description that never says *test*, *failing* or *bug*
    /// loses to one that does. Add the vocabulary users say to the
    /// description ("Use when writing a failing test before fixing a
    /// bug…"), or move the prompt to the skill that owns it.
    pub static POSITIVE_MISSED = ("SG501", "positive-prompt-missed", Error, "a positive trigger prompt does not rank its skill within top_k");
}

rule! {
    /// ## What it does
    /// Reports a positive trigger prompt that shares no term at all with its
    /// skill's name and description (a score of 0).
    ///
    /// ## Why is this bad?
    /// The description shares no vocabulary with a prompt users would say:
    /// nothing in it tells an agent that this request is the skill's job.
    ///
    /// ## Example
    /// Prompt "Is this login flow safe?" against a description "Hardens code
    /// against vulnerabilities": add the words users use (login, safe,
    /// authentication) to the description.
    pub static POSITIVE_NO_VOCABULARY = ("SG502", "positive-prompt-no-shared-vocabulary", Error, "a positive trigger prompt shares no vocabulary with its skill");
}

rule! {
    /// ## What it does
    /// Requires that the case file's skill does not rank first, alone or
    /// tied, with a score above 0, for any of its negative trigger prompts.
    ///
    /// ## Why is this bad?
    /// Negative prompts are requests that belong elsewhere. A skill that
    /// wins them has an over-broad description and will be loaded for work
    /// it does not do.
    ///
    /// ## Example
    /// A `test-driven-development` skill ranking first for "Update the
    /// architecture diagram in the docs": narrow its description to tests.
    pub static NEGATIVE_FIRST = ("SG503", "negative-prompt-ranks-first", Error, "a skill ranks first for one of its negative trigger prompts");
}

rule! {
    /// ## What it does
    /// For a negative trigger prompt with an `owner`, requires the owner to
    /// score above 0 and strictly above the case file's skill. An owner that
    /// is not in the catalog is reported by SG415 instead; an owner whose
    /// SKILL.md has no readable name or description fails here.
    ///
    /// ## Why is this bad?
    /// A negative prompt alone passes vacuously when nothing matches it.
    /// Naming the skill that should win turns it into a pairwise routing
    /// test that cannot.
    ///
    /// ## Example
    /// ```json
    /// { "prompt": "Update the architecture diagram", "owner": "documentation-and-adrs" }
    /// ```
    /// fails when `documentation-and-adrs` scores 0 for it, or below the
    /// case file's skill.
    pub static OWNER_NOT_AHEAD = ("SG504", "negative-owner-not-ahead", Error, "a negative prompt's owner does not outrank the skill");
}

rule! {
    /// ## What it does
    /// Fails `check` when the share of positive trigger prompts whose skill
    /// ranks strictly first (no tie) is below `--min-rank1 PCT` or `[route]
    /// min-rank1`, or when there are no positive prompts at all.
    ///
    /// ## Why is this bad?
    /// Top-k passes can hide a catalog drifting toward ambiguity. A rank-1
    /// floor set at today's rate lets the catalog only improve.
    ///
    /// ## Example
    /// `skillsift check --min-rank1 86` fails with "trigger rank-1 rate 85%
    /// is below required 86%".
    pub static RANK1_FLOOR = ("SG505", "rank1-below-floor", Error, "the rank-1 rate of positive prompts is below the floor");
}

rule! {
    /// ## What it does
    /// With `--baseline FILE` (written earlier by `--save-baseline FILE`),
    /// reports each prompt whose routing got worse: a positive that ranked
    /// its skill first and no longer does, a check that passed and now
    /// fails, and a rank-1 rate below the baseline's. Failures the baseline
    /// already had are downgraded to warnings, so a catalog can adopt the
    /// gate before every prompt passes and ratchet upward.
    ///
    /// ## Why is this bad?
    /// A description edit that helps one skill often steals prompts from
    /// another; the baseline makes every such loss visible in the pull
    /// request that causes it.
    pub static BASELINE_REGRESSION = ("SG506", "routing-regression", Error, "routing got worse than the baseline");
}

rule! {
    /// ## What it does
    /// Reports the trigger prompts of a skill whose SKILL.md has no readable
    /// `name` or `description` (Tier 1 says why): Tier 2 cannot rank it, so
    /// its prompts were not checked and are not counted in the rank-1 rate.
    ///
    /// ## Why is this bad?
    /// Without this note the prompts would be skipped silently and the
    /// routing result reported as if it were whole.
    pub static UNROUTABLE_CASES = ("SG507", "cases-not-routed", Warning, "a case file's skill could not be routed, its prompts were not checked");
}

rule! {
    /// ## What it does
    /// Reports two skills whose documents (name twice plus description)
    /// have a cosine similarity at or above `[route] collision-error`
    /// (default 0.75), listing the terms that contribute most.
    ///
    /// ## Why is this bad?
    /// An agent cannot choose between two near-identical descriptions; it
    /// will load either for the other's work.
    ///
    /// ## Example
    /// Two skills both described as "Reviews code for quality before
    /// merging": merge them, or make each say what only it does.
    pub static COLLISION = ("SG510", "description-collision", Error, "two skills' descriptions are near-duplicates");
}

rule! {
    /// ## What it does
    /// Reports two skills whose documents have a cosine similarity at or
    /// above `[route] collision-warning` (default 0.50) but below
    /// `collision-error`, listing the terms that contribute most.
    ///
    /// ## Why is this bad?
    /// Overlapping descriptions make routing between the two skills a coin
    /// toss for prompts in the shared vocabulary.
    pub static OVERLAP = ("SG511", "description-overlap", Warning, "two skills' descriptions overlap strongly");
}

rule! {
    /// ## What it does
    /// With `[route] listing-budget-chars` set, adds up the skill listing a
    /// client shows the model (each skill's `name: description` entry, in
    /// name order, each entry cut at `entry-cap-chars` when that is set) and
    /// names the skills whose entries fall past the budget.
    ///
    /// ## Why is this bad?
    /// Clients list only so many characters of skill descriptions; a skill
    /// past the budget is invisible to the model and never triggers.
    ///
    /// ## Example
    /// ```toml
    /// [route]
    /// listing-budget-chars = 16000
    /// ```
    pub static LISTING_BUDGET = ("SG520", "listing-over-budget", Warning, "the catalog's skill listing exceeds the budget");
}

rule! {
    /// ## What it does
    /// With `[route] entry-cap-chars` set (Claude Code cuts one entry at
    /// 1,536 characters), reports a skill whose listing entry (its
    /// description, plus `when_to_use` when present) is longer and would be
    /// cut.
    ///
    /// ## Why is this bad?
    /// Whatever follows the cut, often the "Use when…" clause that routing
    /// depends on, never reaches the model.
    pub static ENTRY_CAP = ("SG521", "listing-entry-cut", Warning, "a skill's listing entry is longer than the client shows");
}

rule! {
    /// ## What it does
    /// With `[route] builtins = true` (the client's built-in skills ranked
    /// as competitors), reports a positive trigger prompt for which one of
    /// the client's own skills (Claude Code: `verify`, `code-review`,
    /// `simplify`, …, as `skillsift listing --capture claude-code` recorded
    /// them) ranks above the case file's skill, naming it.
    ///
    /// ## Why is this bad?
    /// The model sees the built-ins in the same listing as the catalog's
    /// skills; a prompt they describe better goes to them.
    ///
    /// ## Example
    /// "Review my diff for bugs" for a `code-review-and-quality` skill ranks
    /// Claude Code's `code-review` first: say what the catalog's skill does
    /// that the built-in does not.
    pub static BUILTIN_WINS = ("SG508", "builtin-wins-prompt", Warning, "a client's built-in skill outranks the case file's skill for a positive prompt");
}

rule! {
    /// ## What it does
    /// With `[route] commands = true` (the project's slash commands that
    /// Claude Code lists beside the skills, `.claude/commands/**/*.md`,
    /// ranked as competitors), reports a positive trigger prompt for which
    /// one of those commands ranks above the case file's skill, naming the
    /// command and its file.
    ///
    /// ## Why is this bad?
    /// Claude Code shows the model its project commands in the same listing
    /// as the skills, and the model may call one instead: a prompt the
    /// command describes better goes to it.
    ///
    /// ## Example
    /// "Deploy the app to staging" for a `deploy-app` skill ranks the
    /// project's `/deploy` command first: say in the skill what it does that
    /// the command does not, or set `disable-model-invocation: true` in the
    /// command if the model should never pick it.
    pub static COMMAND_WINS = ("SG512", "command-wins-prompt", Warning, "a project command Claude Code lists outranks the case file's skill for a positive prompt");
}

rule! {
    /// ## What it does
    /// Reports that `[route] builtins = true` could not be honoured: no
    /// capture of the client's built-in skills is stored (run `skillsift
    /// listing --capture claude-code` once where the client is installed),
    /// or the client is `spec`, which has none. Prompts were then ranked
    /// against the catalog alone.
    ///
    /// ## Why is this bad?
    /// Without this note a routing result without the competitors asked
    /// for would look like one with them.
    pub static NO_CAPTURE = ("SG509", "builtins-not-captured", Warning, "built-in skills were asked for but no capture exists");
}

rule! {
    /// ## What it does
    /// Notes a negative trigger prompt whose `owner` is a skill of another
    /// plugin or pack than the case file's skill, when each unit is routed
    /// against its own skills (the default for a catalog of plugins or
    /// packs; `[route] installed-together` says which are installed
    /// together). The two skills are never in one listing, so the owner
    /// cannot outrank the skill there: the owner check (SG504) is skipped,
    /// and the prompt is still checked against its own unit (SG503).
    ///
    /// ## Why is this bad?
    /// It is not: it says which check did not run, and why. If users do
    /// install the two units together, say so in `[route]
    /// installed-together` and the owner is ranked beside the skill again.
    ///
    /// ## Example
    /// `b2c-cli:b2c-sites`'s negative "create a storefront page" with
    /// `"owner": "sfnext-page-designer"` (plugin `storefront-next`):
    /// `installed-together = [["b2c-cli", "storefront-next"]]` checks the
    /// owner again.
    pub static OWNER_ELSEWHERE = ("SG513", "owner-in-other-unit", Notice, "a negative prompt's owner is in a plugin or pack not installed with the skill");
}
