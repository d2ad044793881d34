//! A trigger run decides, then stops.
//!
//! Whether a skill is chosen for a prompt is settled in the first turn or
//! two; what the agent does afterwards (run the tests, edit files, many more
//! turns) costs money and says nothing more about the choice. So a trigger
//! run (`[behave] trigger-runs = "decide"`, the default) is watched while
//! it runs ([`super::process::run_watched`]: the stream so far is read with
//! the client's own parser after every new line) and its process group is
//! stopped as soon as one of these holds:
//!
//! - **a skill loaded** (the tested one or any other: a successful load, as
//!   the client's parser counts it);
//! - **the workspace changed without a load**: the agent called one of the
//!   client's tools that write or edit files ([`Agent::edit_tools`]) before
//!   any load. Reading, listing, globbing, searching or a shell command such
//!   as `ls` or `git status` do not end the run: stopping at the first tool
//!   call is the mistake that makes skill-creator's trigger evaluation
//!   report a recall of 0 % when the model looks around before it loads;
//! - **`trigger-turns` model turns** passed without either
//!   ([`DEFAULT_TRIGGER_TURNS`]);
//! - or the agent ended on its own.
//!
//! `run.json` records why (`trigger_stop`), after how many turns, and the
//! tokens the stream reported up to the stop. Trigger cases run in the
//! `with` arm only in this mode; `--trigger-runs full` runs them in both
//! arms to the end, as before.

use super::agent::{Agent, Event, Role, Trace};
use serde::{Deserialize, Serialize};

/// Model turns a trigger run may take before it is stopped undecided.
///
/// Five: Claude Code, Codex, Gemini CLI and opencode all put the skill
/// listing in the first request and tell the model to load a matching skill
/// before acting, so a load comes in the first turn, or after a short look
/// around (a listing, a read, a search: one to three turns in the runs
/// recorded under `/work/shared/clients/`). Five leaves room for that look
/// around plus a retry after a refused load, and bounds a negative prompt
/// the model answers by exploring at a fifth of the cost of a full run.
pub const DEFAULT_TRIGGER_TURNS: u32 = crate::config::DEFAULT_TRIGGER_TURNS;

/// Most `trigger-turns` accepted.
pub const MAX_TRIGGER_TURNS: u32 = 100;

/// How trigger cases run (`--trigger-runs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TriggerRuns {
    /// `with` arm only; each run stops once its outcome is known.
    #[default]
    Decide,
    /// Both arms, every run to its end (what older versions did).
    Full,
}

impl TriggerRuns {
    /// What a `plan.json` without the key means: it was written before
    /// trigger runs stopped early.
    pub fn before_decide() -> TriggerRuns {
        TriggerRuns::Full
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TriggerRuns::Decide => "decide",
            TriggerRuns::Full => "full",
        }
    }
}

/// Why a trigger run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// A skill loaded.
    SkillLoaded,
    /// A write or an edit before any load.
    WorkspaceChanged,
    /// `trigger-turns` turns without a load or a change.
    TurnLimit,
    /// The agent finished on its own first.
    Ended,
}

impl StopReason {
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::SkillLoaded => "skill-loaded",
            StopReason::WorkspaceChanged => "workspace-changed",
            StopReason::TurnLimit => "turn-limit",
            StopReason::Ended => "ended",
        }
    }
}

/// `run.json`'s `trigger_stop`: why a trigger run stopped, when, and what
/// it cost until then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopDoc {
    pub reason: StopReason,
    /// Model turns the stream showed before the stop.
    pub turns: u64,
    /// The turn limit in force.
    pub turn_limit: u32,
    /// Input plus output tokens the stream reported up to the stop; `None`
    /// when the client reports usage only at the end of a run (Gemini CLI).
    pub tokens: Option<u64>,
}

/// Model turns in a stream so far: each stretch of assistant text and tool
/// calls up to the tool results that answer it is one turn.
pub fn turns(trace: &Trace) -> u64 {
    let mut n = 0;
    let mut in_turn = false;
    for e in &trace.events {
        match e {
            Event::ToolUse { .. }
            | Event::Text {
                role: Role::Assistant,
                ..
            } => {
                if !in_turn {
                    n += 1;
                    in_turn = true;
                }
            }
            Event::ToolResult { .. } | Event::Text { .. } => in_turn = false,
        }
    }
    n
}

/// Whether the stream so far decides the run, and how.
pub fn decided(trace: &Trace, agent: &dyn Agent, turn_limit: u32) -> Option<StopReason> {
    if !trace.loads.is_empty() {
        return Some(StopReason::SkillLoaded);
    }
    let edits = agent.edit_tools();
    if trace
        .events
        .iter()
        .any(|e| matches!(e, Event::ToolUse { name, .. } if edits.contains(&name.as_str())))
    {
        return Some(StopReason::WorkspaceChanged);
    }
    // the limit counts finished turns: the last one's tool results are in
    let done = match trace.events.last() {
        Some(Event::ToolResult { .. }) => turns(trace),
        _ => turns(trace).saturating_sub(1),
    };
    (done >= u64::from(turn_limit)).then_some(StopReason::TurnLimit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn use_(name: &str) -> Event {
        Event::ToolUse {
            name: name.into(),
            input: json!({}),
        }
    }

    fn result() -> Event {
        Event::ToolResult {
            text: "ok".into(),
            is_error: false,
        }
    }

    #[test]
    fn turns_are_stretches_of_calls_up_to_their_results() {
        let t = Trace {
            events: vec![use_("Glob"), use_("Read"), result(), result(), use_("Bash")],
            ..Trace::default()
        };
        assert_eq!(turns(&t), 2);
    }

    #[test]
    fn looking_around_does_not_decide_but_an_edit_and_the_turn_limit_do() {
        let agent = crate::behave::agent::build(
            crate::behave::agent::AgentKind::Claude,
            &crate::config::BehaveConfig::default(),
        )
        .unwrap();
        let mut t = Trace {
            events: vec![use_("Glob"), result(), use_("Bash"), result()],
            ..Trace::default()
        };
        assert_eq!(decided(&t, agent.as_ref(), 5), None);
        assert_eq!(decided(&t, agent.as_ref(), 2), Some(StopReason::TurnLimit));
        t.events.push(use_("Edit"));
        assert_eq!(
            decided(&t, agent.as_ref(), 5),
            Some(StopReason::WorkspaceChanged)
        );
        t.loads.push(crate::behave::agent::Load {
            name: "x".into(),
            dir: None,
        });
        assert_eq!(
            decided(&t, agent.as_ref(), 5),
            Some(StopReason::SkillLoaded)
        );
    }
}
