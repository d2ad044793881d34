//! How the plan's runs are made: a `--runner` command, or a built-in client
//! with the client that grades, and the record the plan keeps of either
//! (the [`AgentDoc`]: the command lines as they will run, the skill's text
//! in them replaced by a marker).

use super::{BASELINE_TEXT, Ctx, Files, SKILL_TEXT};
use crate::behave::agent::{Agent, Paths};
use crate::behave::exec::{AgentMode, Mode};
use crate::behave::plan::AgentDoc;
use crate::config::{BehaveConfig, InstallMode};
use crate::exit::Fatal;
use std::path::Path;
use std::time::Duration;

/// The mode of `--runner` `argv` (its time limit and output cap), and its
/// record: the same arguments in both arms.
pub(super) fn runner_mode(argv: &[String], timeout: Duration, max: u64) -> (Mode, AgentDoc) {
    let doc = AgentDoc {
        kind: "runner".into(),
        program: argv[0].clone(),
        args_with: argv[1..].to_vec(),
        args_without: argv[1..].to_vec(),
        version: None,
        grader: None,
        grader_kind: None,
        grader_version: None,
        tools: None,
        install: None,
        env: Default::default(),
        env_removed: None,
        home_files: Vec::new(),
        timeout_ms: timeout.as_millis() as u64,
        grader_timeout_ms: None,
        max_output_bytes: max,
    };
    (
        Mode::Runner {
            argv: argv.to_vec(),
            timeout,
            max_bytes: max,
        },
        doc,
    )
}

/// The mode of the built-in client `cx.kind`, with the client that grades
/// when `--grader-agent` names another one, and its record.
pub(super) fn agent_mode(cx: &Ctx, files: &Files) -> Result<(Mode, AgentDoc), Fatal> {
    let (kind, bc) = (cx.kind, cx.bc);
    let mut agent: Box<dyn Agent> = crate::behave::agent::build(kind, bc)?;
    agent.set_skill(cx.skill_name);
    let grader_agent = match cx.opts.grader {
        Some(g) if g != kind => {
            let mut g = crate::behave::agent::build(g, bc)?;
            g.set_skill(cx.skill_name);
            Some(g)
        }
        _ => None,
    };
    let append = cx.append.then_some(files.skill_md.as_str());
    let baseline_md = files
        .baseline
        .as_ref()
        .filter(|_| cx.append)
        .map(|b| b.skill_md.clone());
    let doc = agent_doc(
        agent.as_ref(),
        grader_agent.as_deref(),
        bc,
        append,
        baseline_md.as_deref(),
    );
    let mode = Mode::Agent(AgentMode {
        agent,
        grader_agent,
        version: None,
        grader_version: None,
        append: append.map(str::to_string),
        baseline_append: baseline_md,
        exec_timeout: Duration::from_secs(bc.executor_timeout_secs),
        grader_timeout: Duration::from_secs(bc.grader_timeout_secs),
        max_trace: bc.max_trace_bytes,
        max_grader: bc.max_grader_bytes,
    });
    Ok((mode, doc))
}

/// The record of a built-in client's runs: both arms' command lines (the
/// appended SKILL.md texts, `append` and `baseline_md`, shown as markers),
/// the grader's (`grader_agent`, else `agent` itself), the environment, the
/// run home's files, the limits.
fn agent_doc(
    agent: &dyn Agent,
    grader_agent: Option<&dyn Agent>,
    bc: &BehaveConfig,
    append: Option<&str>,
    baseline_md: Option<&str>,
) -> AgentDoc {
    let template = Paths {
        cwd: Path::new("<workspace>"),
        home: Path::new("<run-home>"),
    };
    let with = agent.executor(&template, append);
    let without = agent.executor(&template, baseline_md);
    let grading: &dyn Agent = grader_agent.unwrap_or(agent);
    let grader = grading.grader(&template);
    let mut recorded_with = with.args.clone();
    if append.is_some()
        && let Some(last) = recorded_with.last_mut()
    {
        *last = SKILL_TEXT.to_string();
    }
    let (env, env_rule) = agent.environment_doc();
    let mut recorded_without = without.args.clone();
    if baseline_md.is_some()
        && let Some(last) = recorded_without.last_mut()
    {
        *last = BASELINE_TEXT.to_string();
    }
    AgentDoc {
        kind: agent.kind().into(),
        program: agent.program().into(),
        args_with: recorded_with,
        args_without: recorded_without,
        version: None,
        grader: Some(
            std::iter::once(grading.program().to_string())
                .chain(grader.args)
                .collect(),
        ),
        grader_kind: grader_agent.map(|g| g.kind().to_string()),
        grader_version: None,
        tools: agent.tools(),
        install: Some(
            match bc.install {
                InstallMode::Discover => "discover",
                InstallMode::AppendSystemPrompt => "append-system-prompt",
            }
            .into(),
        ),
        env,
        env_removed: Some(env_rule),
        home_files: with.files.iter().map(|(p, _)| p.clone()).collect(),
        timeout_ms: bc.executor_timeout_secs.saturating_mul(1000),
        grader_timeout_ms: Some(bc.grader_timeout_secs.saturating_mul(1000)),
        max_output_bytes: bc.max_trace_bytes,
    }
}
