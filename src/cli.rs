//! Command-line definitions (clap derive). Each subcommand's behaviour lives
//! in the library module named in its doc; this file only declares flags.

pub use base::Format;
use base::{AgentKind, ClientId};
use behave::decide::TriggerRuns;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const EXIT_CODES: &str = "\
Exit codes:
  0  everything checked passed its gates
  1  a check or gate failed (lint error, routing failure, uplift below threshold)
  2  usage, configuration or input error
  3  not enough evidence (fewer independent cases than the minimum)
  4  evidence could not be collected (agent, runner or grader failed)";

/// The exit codes of the commands that only print what they read.
const EXIT_CODES_PRINT: &str = "\
Exit codes:
  0  printed
  2  usage, configuration or input error";

/// `cases`: a case file with an error fails.
const EXIT_CODES_CASES: &str = "\
Exit codes:
  0  listed, and no case source of the skill has an error
  1  a case source of the skill has an error (`skillsift check` shows it)
  2  usage, configuration or input error";

/// `listing`: --verify and --capture.
const EXIT_CODES_LISTING: &str = "\
Exit codes:
  0  printed (with --verify: every captured entry is the predicted one)
  1  with --verify: a captured entry differs from skillsift's prediction
  2  usage, configuration or input error
  4  with --capture or --verify: the client could not be run or captured";

/// `tune`.
const EXIT_CODES_TUNE: &str = "\
Exit codes:
  0  printed (a recommendation or none); with --write, the recommended one written
  1  with --behavioral: the model routes the validation prompts worse with the
     recommended description (nothing written)
  2  usage, configuration or input error (unknown skill, no trigger prompts)
  3  not enough prompts: no validation or no train prompt to tune with
  4  with --behavioral: a model run could not be collected";

const EXIT_CODES_DIFF: &str = "\
Exit codes:
  0  routing is no worse (it may have changed; the report says how)
  1  routing got worse: a positive prompt left its top-k, a negative started to
     win, a collision error appeared, or a listed skill is no longer listed
  2  usage or configuration error, a bad revision, or ROOT in no git repository";

const REPORT_HELP: &str = "\
PATH decides the report:
  a catalog (a folder, a skill folder or a SKILL.md)   routing: confusion matrix,
      collision graph, each skill's trigger checks, every finding of `check`
  evals/results/<skill>/iteration-N                    behavioral: that iteration,
      and every iteration of the skill side by side
  evals/results/<skill>                                behavioral: its latest iteration

The report is one HTML file with nothing to fetch; the same input gives the same bytes.

Exit codes:
  0  the report was written (whatever it shows)
  2  usage, configuration or input error";

#[derive(Debug, Parser)]
#[command(name = "skillsift", version, about = "Tests catalogs of Agent Skills: lint, lexical routing, behavioral evals, uplift scoring.", after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint every SKILL.md (Tier 1) and check trigger routing (Tier 2); with
    /// --behavioral, run a skill's behavioral evals (Tier 3).
    #[command(after_help = EXIT_CODES)]
    Check(CheckArgs),
    /// Rank every skill in the catalog for one prompt, as Tier 2 does.
    #[command(after_help = EXIT_CODES_PRINT)]
    Rank(RankArgs),
    /// Print the skill listing a client shows the model for this catalog.
    #[command(after_help = EXIT_CODES_LISTING)]
    Listing(ListingArgs),
    /// List every trigger prompt and eval found for a skill, and the file,
    /// line and column each comes from.
    #[command(after_help = EXIT_CODES_CASES)]
    Cases(CasesArgs),
    /// Write a starter trigger set for a skill: draft positives from its
    /// description, near-miss negatives from its siblings'. Never overwrites.
    #[command(after_help = EXIT_CODES_PRINT)]
    Init(InitArgs),
    /// Propose better descriptions for a skill from its train prompts'
    /// failures, scored with Tier 2 on the whole catalog and checked on
    /// validation prompts it never shows; --write applies the recommended one.
    #[command(after_help = EXIT_CODES_TUNE)]
    Tune(TuneArgs),
    /// What a change does to routing: the catalog at git revision REV
    /// (read from git's objects, no checkout) against the working tree,
    /// per installation: prompts that moved, collisions, listings, findings.
    #[command(after_help = EXIT_CODES_DIFF)]
    Diff(DiffArgs),
    /// Score recorded evidence: trigger precision/recall/F1 and paired uplift.
    #[command(after_help = EXIT_CODES)]
    Score(ScoreArgs),
    /// Merge the results of `check --behavioral --shard i/n` runs and score them.
    #[command(after_help = EXIT_CODES)]
    Merge(MergeArgs),
    /// Write a self-contained HTML report: a catalog's routing, or a skill's
    /// behavioral runs (an iteration folder or its results folder).
    #[command(
        after_help = REPORT_HELP,
        mut_arg("min_trigger_f1", |a| a.help("Judge trigger F1 against X: the report marks it passed or failed (the report is written all the same, exit 0)")),
        mut_arg("min_uplift", |a| a.help("Judge the uplift interval's lower bound against Y in the report (exit 0 all the same)")),
        mut_arg("min_quality_delta", |a| a.help("Judge the quality delta against PTS percentage points in the report (exit 0 all the same)")),
    )]
    Report(ReportArgs),
    /// List every rule with its id, default severity and summary.
    #[command(after_help = EXIT_CODES_PRINT)]
    Rules(RulesArgs),
    /// Print one rule's documentation.
    #[command(after_help = EXIT_CODES_PRINT)]
    Rule(RuleArgs),
    /// Print a JSON Schema for case files, trigger sets, evals.json, waza
    /// trigger tests or skillsift.toml.
    #[command(after_help = EXIT_CODES_PRINT)]
    Schema(SchemaArgs),
    /// Serve findings and trigger-prompt ranks to an editor: the Language
    /// Server Protocol over stdin and stdout.
    Lsp(LspArgs),
}

#[derive(Debug, Args)]
pub struct LspArgs {
    /// Drop the findings this baseline file lists (`check --save-baseline`)
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Speak over stdin and stdout (the only transport; editors pass it)
    #[arg(long)]
    pub stdio: bool,
}

/// `--format` of the commands that print text or JSON only: `--help`
/// lists just those two, and another value is a usage error (exit 2).
fn human_or_json() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["human", "json"]).map(|s| match s.as_str() {
        "json" => Format::Json,
        _ => Format::Human,
    })
}

/// `--format` of `score` and `merge`: text, JSON or JUnit XML.
fn human_json_junit() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["human", "json", "junit"]).map(|s| match s.as_str() {
        "json" => Format::Json,
        "junit" => Format::Junit,
        _ => Format::Human,
    })
}

/// `--format` of `check`: every format.
fn any_format() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser;
    clap::builder::EnumValueParser::<FormatArg>::new().map(|f| match f {
        FormatArg::Human => Format::Human,
        FormatArg::Json => Format::Json,
        FormatArg::Github => Format::Github,
        FormatArg::Sarif => Format::Sarif,
        FormatArg::Junit => Format::Junit,
    })
}

/// `--capture`: the clients that are programs (every client but `spec`),
/// under the names and aliases `--client` takes.
fn capturable() -> impl clap::builder::TypedValueParser<Value = ClientId> {
    use clap::builder::{PossibleValue, TypedValueParser};
    let values = ClientId::CLIENTS.map(|c| {
        let v = PossibleValue::new(c.as_str());
        match c {
            ClientId::ClaudeCode => v.alias("claude"),
            ClientId::GeminiCli => v.alias("gemini"),
            _ => v,
        }
    });
    clap::builder::PossibleValuesParser::new(values).map(|s| {
        ClientId::CLIENTS
            .into_iter()
            .find(|c| c.as_str() == s)
            .unwrap_or(match s.as_str() {
                "gemini" => ClientId::GeminiCli,
                _ => ClientId::ClaudeCode,
            })
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    Human,
    Json,
    Github,
    Sarif,
    Junit,
}

/// `--client`, `--capture`: a [`ClientId`], as clap lists and parses it.
fn client_id() -> impl clap::builder::TypedValueParser<Value = ClientId> {
    use clap::builder::TypedValueParser;
    clap::builder::EnumValueParser::<ClientArg>::new().map(|c| match c {
        ClientArg::Spec => ClientId::Spec,
        ClientArg::ClaudeCode => ClientId::ClaudeCode,
        ClientArg::Codex => ClientId::Codex,
        ClientArg::GeminiCli => ClientId::GeminiCli,
        ClientArg::Opencode => ClientId::Opencode,
    })
}

/// [`ClientId`]'s values on the command line (the library has no clap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ClientArg {
    /// The Agent Skills specification, read strictly.
    Spec,
    /// Claude Code (tested with 2.1.197).
    #[value(alias = "claude")]
    ClaudeCode,
    /// Codex CLI (tested with 0.171.0).
    Codex,
    /// Gemini CLI (tested with 0.61.0).
    #[value(alias = "gemini")]
    GeminiCli,
    /// opencode (tested with 1.18.33).
    Opencode,
}

/// `--grader-agent`: an [`AgentKind`], as clap lists and parses it.
fn agent_kind() -> impl clap::builder::TypedValueParser<Value = AgentKind> {
    use clap::builder::TypedValueParser;
    clap::builder::EnumValueParser::<AgentArg>::new().map(|a| match a {
        AgentArg::Claude => AgentKind::Claude,
        AgentArg::Codex => AgentKind::Codex,
        AgentArg::Gemini => AgentKind::Gemini,
        AgentArg::Opencode => AgentKind::Opencode,
    })
}

/// `--trigger-runs`: [`TriggerRuns`]'s values on the command line.
fn trigger_runs() -> impl clap::builder::TypedValueParser<Value = TriggerRuns> {
    use clap::builder::TypedValueParser;
    clap::builder::EnumValueParser::<TriggerRunsArg>::new().map(|t| match t {
        TriggerRunsArg::Decide => TriggerRuns::Decide,
        TriggerRunsArg::Full => TriggerRuns::Full,
    })
}

/// [`TriggerRuns`]'s values on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TriggerRunsArg {
    /// `with` arm only; each run stops once its outcome is known.
    Decide,
    /// Both arms, every run to its end (what older versions did).
    Full,
}

/// [`AgentKind`]'s values on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AgentArg {
    /// Claude Code (`claude -p`).
    Claude,
    /// Codex CLI (`codex exec`).
    Codex,
    /// Gemini CLI (`gemini -p`).
    Gemini,
    /// opencode (`opencode run`).
    Opencode,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Catalog root, a skill folder, or a single SKILL.md.
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// Output format.
    #[arg(long, default_value = "human", value_parser = any_format())]
    pub format: Format,
    /// Configuration file (default: skillsift.toml at the catalog root).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Print a count of findings per rule, most frequent first, and the
    /// summary, instead of each finding (--format human only; a report of
    /// more than 20 findings opens with this table anyway).
    #[arg(long)]
    pub statistics: bool,
    /// Apply the safe fixes, then report what remains.
    #[arg(long, help_heading = "Fixes")]
    pub fix: bool,
    /// Also apply the fixes that change wording or names (with --fix or --diff).
    #[arg(long, help_heading = "Fixes")]
    pub unsafe_fixes: bool,
    /// Print the fixes as a unified diff and write nothing.
    #[arg(long, conflicts_with = "fix", help_heading = "Fixes")]
    pub diff: bool,
    /// Fail when fewer than PCT % of positive prompts rank their skill first.
    #[arg(long, value_name = "PCT", help_heading = "Tier 2: routing")]
    pub min_rank1: Option<f64>,
    /// Record every finding and every prompt's rank to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Tier 2: routing")]
    pub save_baseline: Option<PathBuf>,
    /// Fail only on findings not in FILE and on routing regressions against
    /// it (saved with --save-baseline).
    #[arg(long, value_name = "FILE", help_heading = "Tier 2: routing")]
    pub baseline: Option<PathBuf>,
    /// Skip Tier 2 (routing).
    #[arg(long, help_heading = "Tier 2: routing")]
    pub no_route: bool,
    /// Route the listing of CLIENT (default: [route] client, else claude-code).
    #[arg(
        long,
        value_parser = client_id(),
        value_name = "CLIENT",
        help_heading = "Tier 2: routing"
    )]
    pub client: Option<ClientId>,
    /// Threads that read and check files, Tiers 1 and 2 (default: all
    /// cores). Tier 3's agent runs are --jobs.
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub behave: BehaveArgs,
}

/// Tier 3 flags of `check`.
#[derive(Debug, Args, Default)]
pub struct BehaveArgs {
    /// Run the behavioral evals of SKILL (spends model tokens).
    // `num_args = 0..=1` so that `check --behavioral --help` prints help;
    // `--behavioral` without a skill is a usage error in `check`
    #[arg(
        long,
        value_name = "SKILL",
        num_args = 0..=1,
        default_missing_value = "",
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub behavioral: Option<String>,
    /// Run every trigger prompt of the catalog through the client with the
    /// whole catalog installed, one deciding run each, and compare the
    /// model's choices with Tier 2's (spends model tokens; writes
    /// evals/results/_routing/iteration-N/routing.json).
    #[arg(
        long,
        conflicts_with = "behavioral",
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub behavioral_routing: bool,
    /// Trials per eval and variant.
    #[arg(
        long,
        default_value_t = 3,
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub trials: u32,
    /// Run the with-skill arm only: no without-skill arm (nothing to
    /// score uplift against). Formerly --no-baseline.
    #[arg(
        long = "with-skill-only",
        alias = "no-baseline",
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub no_baseline: bool,
    /// Compare against an earlier version of the skill instead of no
    /// skill: the comparison arm installs REF, a folder or a git revision
    /// of the catalog's repository (read with git, never checked out).
    /// Formerly --baseline-skill.
    #[arg(
        long = "compare-skill",
        alias = "baseline-skill",
        value_name = "REF",
        conflicts_with = "no_baseline",
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub baseline_skill: Option<String>,
    /// Install the catalog's other skills in both arms and run their
    /// positive trigger prompts too: the tested skill must not take them.
    #[arg(long, help_heading = "Tier 3: behavioral evals (with --behavioral)")]
    pub with_siblings: bool,
    /// Run slice I of N (1-based), e.g. 2/4.
    #[arg(
        long,
        value_name = "I/N",
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub shard: Option<String>,
    /// Agent runs at once on this machine; 1 keeps every failure
    /// attributable to its run.
    #[arg(
        long,
        default_value_t = 1,
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub jobs: usize,
    /// The agent client: claude, codex, gemini or opencode; a comma list
    /// (`claude,codex`) runs the same cases on each client and gates each
    /// (default: [behave] agent, else claude).
    #[arg(
        long,
        value_name = "CLIENT[,CLIENT…]",
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub agent: Option<String>,
    /// The client that grades (default: [behave] grader-agent, else each
    /// run's own client).
    #[arg(
        long,
        value_parser = agent_kind(),
        value_name = "CLIENT",
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub grader_agent: Option<AgentKind>,
    /// Replace the built-in agent with CMD (split into program and
    /// arguments, never run through a shell).
    #[arg(
        long,
        value_name = "CMD",
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub runner: Option<String>,
    /// Runner timeout per run in milliseconds (default 30000, at most
    /// 600000); the runner's process group is killed when it passes.
    #[arg(long, help_heading = "Tier 3: behavioral evals (with --behavioral)")]
    pub timeout_ms: Option<u64>,
    /// Runner output cap per run in bytes (default 1000000, at most
    /// 10000000).
    #[arg(long, help_heading = "Tier 3: behavioral evals (with --behavioral)")]
    pub max_bytes: Option<u64>,
    /// Print the plan and spawn nothing.
    #[arg(long, help_heading = "Tier 3: behavioral evals (with --behavioral)")]
    pub dry_run: bool,
    /// How trigger prompts run: `decide` (the `with` arm only, each run
    /// stopped once a skill loaded, a file was edited, or `[behave]
    /// trigger-turns` turns passed) or `full` (both arms, to the end).
    #[arg(
        long,
        value_parser = trigger_runs(),
        default_value = "decide",
        value_name = "MODE",
        help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub trigger_runs: TriggerRuns,
    /// Start a plan the scorer will call insufficient (fewer than 10
    /// distinct cases, or fewer than 10 evals with a task check).
    #[arg(long, help_heading = "Tier 3: behavioral evals (with --behavioral)")]
    pub allow_insufficient: bool,
    /// Keep each run's workspace for debugging.
    #[arg(long, help_heading = "Tier 3: behavioral evals (with --behavioral)")]
    pub keep_workspace: bool,
    /// Run even though a copy of the skill is where every run would see it
    /// (the fixtures, the managed skills folder); a run that then loads or
    /// lists it still stops the evaluation.
    #[arg(long, help_heading = "Tier 3: behavioral evals (with --behavioral)")]
    pub allow_personal_copy: bool,
    #[command(
        flatten,
        next_help_heading = "Tier 3: behavioral evals (with --behavioral)"
    )]
    pub gates: Gates,
}

impl From<&BehaveArgs> for behave::BehaveArgs {
    fn from(a: &BehaveArgs) -> behave::BehaveArgs {
        behave::BehaveArgs {
            behavioral: a.behavioral.clone(),
            trials: a.trials,
            no_baseline: a.no_baseline,
            baseline_skill: a.baseline_skill.clone(),
            with_siblings: a.with_siblings,
            shard: a.shard.clone(),
            jobs: a.jobs,
            agent: a.agent.clone(),
            grader_agent: a.grader_agent,
            runner: a.runner.clone(),
            timeout_ms: a.timeout_ms,
            max_bytes: a.max_bytes,
            dry_run: a.dry_run,
            trigger_runs: a.trigger_runs,
            allow_insufficient: a.allow_insufficient,
            keep_workspace: a.keep_workspace,
            allow_personal_copy: a.allow_personal_copy,
            gates: a.gates.into(),
        }
    }
}

/// The scorer's seed and gates, shared by `check --behavioral`, `score`
/// and `merge`.
/// `check --behavioral` records them in `plan.json` (`gates`), so `merge`
/// and `report` judge the iteration the same way unless told otherwise.
#[derive(Debug, Args, Default, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Gates {
    /// Seed of the bootstrap generator (SplitMix64).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Fail when trigger F1 is below X.
    #[arg(long, value_name = "X")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_trigger_f1: Option<f64>,
    /// Fail when the uplift interval's lower bound is below Y.
    #[arg(long, value_name = "Y")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_uplift: Option<f64>,
    /// Fail when the quality pass rate with the skill is less than PTS
    /// percentage points above the baseline's (passes too when the skill
    /// passes a blocker the baseline fails).
    #[arg(long, value_name = "PTS", allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_quality_delta: Option<f64>,
}

impl From<Gates> for score::Gates {
    fn from(g: Gates) -> score::Gates {
        score::Gates {
            seed: g.seed,
            min_trigger_f1: g.min_trigger_f1,
            min_uplift: g.min_uplift,
            min_quality_delta: g.min_quality_delta,
        }
    }
}

#[derive(Debug, Args)]
pub struct RankArgs {
    /// The prompt a user would type.
    pub prompt: String,
    /// Catalog root.
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// Show each shared term's contribution.
    #[arg(long)]
    pub explain: bool,
    /// How many skills to show (0 = all that score above 0).
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    /// Output format.
    #[arg(long, default_value = "human", value_parser = human_or_json())]
    pub format: Format,
    /// Configuration file (default: skillsift.toml at the catalog root).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Rank the listing of CLIENT (default: [route] client, else claude-code).
    #[arg(long, value_parser = client_id(), value_name = "CLIENT")]
    pub client: Option<ClientId>,
    /// Read every SKILL.md, neither reading nor writing the rank cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Keep the rank cache in DIR (default: $SKILLSIFT_CACHE_DIR, else the
    /// user cache folder, e.g. ~/.cache/skillsift).
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    pub cache_dir: Option<PathBuf>,
    /// Rank within the installation of plugin or pack NAME (its folder
    /// name), as `check` ranks its trigger prompts: its own skills, with
    /// the units `[route] installed-together` lists with it. Reads every
    /// SKILL.md (no rank cache).
    #[arg(long, value_name = "NAME")]
    pub unit: Option<String>,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The revision to compare with: a branch, a tag, a commit
    /// (`origin/main`, `HEAD~1`, the pull request's base commit).
    pub rev: String,
    /// Catalog root in a git working tree.
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// Output format: human, markdown (a pull-request comment) or json.
    #[arg(long, default_value = "human", value_parser = ["human", "markdown", "json"])]
    pub format: String,
    /// Configuration file for both sides (default: each side's own
    /// skillsift.toml at the catalog root).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Route the listing of CLIENT (default: [route] client, else claude-code).
    #[arg(long, value_parser = client_id(), value_name = "CLIENT")]
    pub client: Option<ClientId>,
}

#[derive(Debug, Args)]
pub struct ListingArgs {
    /// Catalog root, a skill folder, or a single SKILL.md.
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// Whose listing (default: [route] client, else claude-code).
    #[arg(long, value_parser = client_id(), value_name = "CLIENT")]
    pub client: Option<ClientId>,
    /// Output format.
    #[arg(long, default_value = "human", value_parser = human_or_json())]
    pub format: Format,
    /// Configuration file (default: skillsift.toml at the catalog root).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Run the installed client against a loopback endpoint and record the
    /// listing it sends, built-in skills included (stored in the cache
    /// folder). `spec` is no program, so it cannot be captured.
    #[arg(long, value_name = "CLIENT", value_parser = capturable(), conflicts_with = "verify")]
    pub capture: Option<ClientId>,
    /// Capture the listing and report every skill whose captured entry
    /// differs from skillsift's prediction (exit 1 when one does).
    #[arg(long)]
    pub verify: bool,
    /// Where captures are stored (default: $SKILLSIFT_CACHE_DIR, else the
    /// user cache folder, e.g. ~/.cache/skillsift).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Only the installation of plugin, marketplace entry or pack NAME (its
    /// name as `listing` prints it before `:`), as a user who installs it
    /// alone sees it. A catalog of plugins or packs is listed one
    /// installation at a time without it too.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["capture", "verify"])]
    pub unit: Option<String>,
}

#[derive(Debug, Args)]
pub struct CasesArgs {
    /// The skill (its frontmatter `name`, its folder name, or the name `listing` prints).
    pub skill: String,
    /// Catalog root.
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// Output format.
    #[arg(long, default_value = "human", value_parser = human_or_json())]
    pub format: Format,
    /// Configuration file (default: skillsift.toml at the catalog root).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The skill (its frontmatter `name`, its folder name, or the name `listing` prints).
    pub skill: String,
    /// Catalog root.
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// Print what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Output format.
    #[arg(long, default_value = "human", value_parser = human_or_json())]
    pub format: Format,
    /// Configuration file (default: skillsift.toml at the catalog root).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The skill (its frontmatter `name`, its folder name, or the name `listing` prints).
    pub skill: String,
    /// Catalog root.
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// Write the recommended description into the SKILL.md, in the
    /// frontmatter's style (block scalar, quotes, indentation, line width).
    #[arg(long)]
    pub write: bool,
    /// Run exactly N rounds of propose, score, pick (default: until a
    /// round's pick would not be recommended, at most 5); the round with the
    /// best validation count wins, not the last.
    #[arg(long, value_name = "N")]
    pub rounds: Option<usize>,
    /// Output format.
    #[arg(long, default_value = "human", value_parser = human_or_json())]
    pub format: Format,
    /// Configuration file (default: skillsift.toml at the catalog root).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Route the listing of CLIENT (default: [route] client, else claude-code).
    #[arg(long, value_parser = client_id(), value_name = "CLIENT")]
    pub client: Option<ClientId>,
    /// Confirm the recommended description with the model: run this
    /// skill's validation prompts through the client with the whole catalog
    /// installed, once with each description, and report how many the model
    /// routes as expected (spends model tokens; try --dry-run first).
    #[arg(long, help_heading = "Model check (with --behavioral)")]
    pub behavioral: bool,
    /// Print how many runs --behavioral would make, and spawn nothing.
    #[arg(
        long,
        requires = "behavioral",
        help_heading = "Model check (with --behavioral)"
    )]
    pub dry_run: bool,
    /// The client that runs: claude, codex, gemini or opencode (default:
    /// [behave] agent, else claude).
    #[arg(
        long,
        value_name = "CLIENT",
        requires = "behavioral",
        help_heading = "Model check (with --behavioral)"
    )]
    pub agent: Option<String>,
    /// Trials per validation prompt and description.
    #[arg(
        long,
        default_value_t = 3,
        help_heading = "Model check (with --behavioral)"
    )]
    pub trials: u32,
    /// Agent runs at once on this machine.
    #[arg(
        long,
        default_value_t = 1,
        help_heading = "Model check (with --behavioral)"
    )]
    pub jobs: usize,
    /// Run even though a copy of a catalog skill is where every run would
    /// see it.
    #[arg(long, help_heading = "Model check (with --behavioral)")]
    pub allow_personal_copy: bool,
}

#[derive(Debug, Args)]
pub struct ScoreArgs {
    #[command(subcommand)]
    pub triggers: Option<ScoreSub>,
    /// The skill folder (its SKILL.md name is the skill's name).
    #[arg(long, value_name = "DIR")]
    pub skill: Option<PathBuf>,
    /// cases.jsonl: one `{"id","prompt","expectTrigger","task"?,"split"?}` per line.
    #[arg(long, value_name = "FILE")]
    pub cases: Option<PathBuf>,
    /// observations.jsonl: one line per case, trial 1..N and variant with|without.
    #[arg(long, value_name = "FILE")]
    pub observations: Option<PathBuf>,
    /// Trials per case and variant (1 to 1000).
    #[arg(long, default_value_t = 3)]
    pub trials: u32,
    #[command(flatten)]
    pub gates: Gates,
    /// Output format.
    #[arg(long, default_value = "human", value_parser = human_json_junit())]
    pub format: Format,
}

#[derive(Debug, Subcommand)]
pub enum ScoreSub {
    /// Gate a trigger set (description tuning) per client.
    Triggers(TriggersArgs),
}

#[derive(Debug, Args)]
pub struct TriggersArgs {
    /// JSON array of trigger rows.
    pub file: PathBuf,
    /// Print text only for train rows; validation and fresh appear as counts.
    #[arg(long)]
    pub hide_heldout: bool,
    /// Apply the release gate's minimum counts (at least 10 should and 10
    /// should-not prompts in train plus validation, 3 runs per row, 5 fresh
    /// prompts per client).
    #[arg(long = "final")]
    pub final_gate: bool,
    /// The skill must never trigger automatically, always when explicit.
    #[arg(long)]
    pub manual_only: bool,
    /// Output format.
    #[arg(long, default_value = "human", value_parser = human_or_json())]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard result folders to merge.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged iteration (default: the next
    /// evals/results/<skill>/iteration-N under the current folder).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The evaluated skill's folder (default: the path recorded in the
    /// shards' plan.json).
    #[arg(long, value_name = "DIR")]
    pub skill: Option<PathBuf>,
    /// Merge folders run by different clients (`--agent`) into one
    /// iteration, one subfolder per client, scored and gated per client.
    #[arg(long)]
    pub across_clients: bool,
    #[command(flatten)]
    pub gates: Gates,
    /// Output format.
    #[arg(long, default_value = "human", value_parser = human_json_junit())]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A catalog, an iteration folder (evals/results/<skill>/iteration-N) or
    /// a skill's results folder (evals/results/<skill>).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// The HTML file to write (`-` for standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Configuration file (default: skillsift.toml at the catalog root).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Rank-1 floor in percent shown and judged, as `check --min-rank1`.
    #[arg(long, value_name = "PCT", help_heading = "Routing report")]
    pub min_rank1: Option<f64>,
    /// Route and show the listing of CLIENT (default: [route] client, else
    /// claude-code).
    #[arg(
        long,
        value_parser = client_id(),
        value_name = "CLIENT",
        help_heading = "Routing report"
    )]
    pub client: Option<ClientId>,
    /// Add a "Change against REV" section: what the working tree changes in
    /// routing since git revision REV, as `skillsift diff REV` reports it.
    #[arg(long, value_name = "REV", help_heading = "Routing report")]
    pub against: Option<String>,
    /// Threads that read and check files (default: all cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten, next_help_heading = "Behavioral report")]
    pub gates: Gates,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Output format.
    #[arg(long, default_value = "human", value_parser = human_or_json())]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct RuleArgs {
    /// Rule id, e.g. SG101.
    pub id: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaKind {
    /// `evals/cases/<skill>.json`.
    Cases,
    /// A skill's trigger set (`evals/trigger-queries.json`, `eval_set.json`, …).
    TriggerSet,
    /// A skill's `evals/evals.json`.
    Evals,
    /// waza's `trigger_tests.yaml`.
    Waza,
    /// `skillsift.toml`.
    Config,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    pub kind: SchemaKind,
}
