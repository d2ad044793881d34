//! The request [`build`](crate::build) plans from.

/// What `check --behavioral` asks of Tier 3 (the binary fills it in from
/// its flags).
#[derive(Debug, Default)]
pub struct BehaveArgs {
    /// Run the behavioral evals of SKILL (spends model tokens).
    pub behavioral: Option<String>,
    /// Trials per eval and variant.
    pub trials: u32,
    /// Skip the without-skill arm.
    pub no_baseline: bool,
    /// Run the baseline arm with an earlier version of the skill instead of
    /// none: a folder, or a git revision of the catalog's repository (read
    /// with git, never checked out).
    pub baseline_skill: Option<String>,
    /// Install the catalog's other skills in both arms and run their
    /// positive trigger prompts too: the tested skill must not take them.
    pub with_siblings: bool,
    /// Run slice I of N (1-based), e.g. 2/4.
    pub shard: Option<String>,
    /// Agent runs at once on this machine; 1 keeps every failure
    /// attributable to its run.
    pub jobs: usize,
    /// The agent client: claude, codex, gemini or opencode; a comma list
    /// (`claude,codex`) runs the same cases on each client and gates each
    /// (default: [behave] agent, else claude).
    pub agent: Option<String>,
    /// The client that grades (default: [behave] grader-agent, else each
    /// run's own client).
    pub grader_agent: Option<crate::base::AgentKind>,
    /// Replace the built-in agent with CMD (split into program and
    /// arguments, never run through a shell).
    pub runner: Option<String>,
    /// Runner timeout per run in milliseconds (default 30000, at most
    /// 600000); the runner's process group is killed when it passes.
    pub timeout_ms: Option<u64>,
    /// Runner output cap per run in bytes (default 1000000, at most
    /// 10000000).
    pub max_bytes: Option<u64>,
    /// Print the plan and spawn nothing.
    pub dry_run: bool,
    /// How trigger prompts run: `decide` (the `with` arm only, each run
    /// stopped once a skill loaded, a file was edited, or `[behave]
    /// trigger-turns` turns passed) or `full` (both arms, to the end).
    pub trigger_runs: crate::decide::TriggerRuns,
    /// Start a plan the scorer will call insufficient (fewer than 10
    /// distinct cases, or fewer than 10 evals with a task check).
    pub allow_insufficient: bool,
    /// Keep each run's workspace for debugging.
    pub keep_workspace: bool,
    /// Run even though a copy of the skill is where every run would see it
    /// (the fixtures, the managed skills folder); a run that then loads or
    /// lists it still stops the evaluation.
    pub allow_personal_copy: bool,
    pub gates: crate::score::Gates,
}
