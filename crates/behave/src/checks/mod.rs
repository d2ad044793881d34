//! Deterministic checks: what skillsift verifies itself once a run has
//! finished, before and beside the grader, no model involved. Each check
//! of an eval ([`crate::catalog::cases::Check`]) gets a verdict and the
//! evidence for it, read from the run's workspace (still on disk), its
//! final answer and the common trace of its agent client, so every client
//! is checked the same way. One file per thing read: [`files`] (the
//! workspace), [`command`] (a program run in it), [`answer`] (the final
//! answer), [`trace`] (tool calls, refusals, skill loads, turns, tokens).
//!
//! Workspace content is untrusted: files are read up to [`MAX_READ`], a
//! path that leads out of the workspace (`..`, an absolute path, a
//! symlink) is never read, and commands run without a shell, in the
//! workspace, time-limited, in their own process group.

pub mod answer;
pub mod command;
pub mod files;
pub mod trace;

use super::agent::Trace;
use crate::catalog::cases::Check;
use std::path::Path;
use std::time::Duration;

/// Largest file a check reads.
pub const MAX_READ: u64 = 16 * 1024 * 1024;
/// Longest evidence kept for one check.
pub const MAX_EVIDENCE: usize = 2048;

/// What a finished run left for its checks.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    /// The run's workspace (the agent's process group is gone).
    pub workspace: &'a Path,
    /// The final answer.
    pub answer: &'a str,
    /// The skills the run loaded (`plugin:name` as the client wrote them).
    pub skills: &'a [String],
    /// The client's trace; `None` for a `--runner`, which reports none.
    pub trace: Option<&'a Trace>,
    /// Time between TERM and KILL for a command that overruns.
    pub grace: Duration,
}

/// A check's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub passed: bool,
    /// What the run showed, in a sentence.
    pub evidence: String,
}

impl Verdict {
    pub fn new(passed: bool, evidence: impl Into<String>) -> Verdict {
        Verdict {
            passed,
            evidence: crate::behave::exec::cut(&evidence.into(), MAX_EVIDENCE),
        }
    }
}

/// Run one check. `Err` when the run holds no evidence either way (the
/// client did not report what the check reads, a command could not be
/// started): the run then has no verdict, never a pass or a fail.
pub fn run(check: &Check, seen: &Seen) -> Result<Verdict, String> {
    match check {
        Check::FileExists { .. }
        | Check::FileAbsent { .. }
        | Check::FileContains { .. }
        | Check::FileMatches { .. } => Ok(files::run(check, seen.workspace)),
        Check::Command { argv, timeout_secs } => command::run(
            argv,
            Duration::from_secs(
                timeout_secs.unwrap_or(crate::catalog::cases::expectation::DEFAULT_COMMAND_SECS),
            ),
            seen,
        ),
        Check::AnswerContains { .. } | Check::AnswerMatches { .. } | Check::AnswerJson { .. } => {
            Ok(answer::run(check, seen.answer))
        }
        Check::SkillLoaded { .. } | Check::SkillNotLoaded { .. } => {
            Ok(trace::skills(check, seen.skills))
        }
        Check::ToolCalled { .. }
        | Check::ToolNotCalled { .. }
        | Check::ToolRefused { .. }
        | Check::MaxTurns { .. }
        | Check::MaxTokens { .. } => match seen.trace {
            Some(t) => trace::run(check, t),
            None => Err(format!(
                "check `{}` reads the agent's trace, which this harness does not report",
                check.name()
            )),
        },
    }
}
