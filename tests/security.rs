//! Security properties of Tier 3, driven through the binary with the fake
//! `claude` and fake runner (tests/fixtures/behave/bin; no model, no
//! network):
//!
//! - no input is ever passed through a shell: prompts, expectations and
//!   runner commands full of shell syntax reach the agent verbatim and
//!   run nothing;
//! - nothing from a trace or a grader reply is executed;
//! - an API key in the environment appears in no result file and no report.
//!
//! Also: every process skillsift starts goes through one spawn point
//! (`behave::process::run`) that takes a program and its arguments.
//!
//! The grader's fence (behave_check.rs: a_hostile_trace_cannot_close_the_fence,
//! and the `stream_json` fuzz target), fixture paths escaping their folder
//! (case_files.rs, behave_check.rs) and links out of the catalog
//! (limits.rs) are tested where those features live.

#[path = "behave_support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use support::{Env, copy_tree, fixtures};

/// Files named `canary-*` that must never come to exist.
struct Canaries {
    dir: PathBuf,
}

impl Canaries {
    fn new(env: &Env) -> Canaries {
        let dir = env.tmp.path().join("canaries");
        std::fs::create_dir_all(&dir).unwrap();
        Canaries { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir
            .join(format!("canary-{name}"))
            .display()
            .to_string()
    }

    /// Shell syntax in every common form, each creating a canary if a shell
    /// ever read it.
    fn shell(&self, tag: &str) -> String {
        let c = |n: &str| self.path(&format!("{tag}-{n}"));
        format!(
            "$(touch {}) `touch {}` ; touch {} && touch {} | touch {} ' ; touch {} ; ' \\\"; touch {}; \\\" $'\\x41' > {}",
            c("1"),
            c("2"),
            c("3"),
            c("4"),
            c("5"),
            c("6"),
            c("7"),
            c("8")
        )
    }

    fn assert_none(&self) {
        let made: Vec<_> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(made.is_empty(), "a shell ran: {made:?} were created");
    }
}

/// Every file under `dir`, recursively.
/// The behavioral run ended with a verdict (passed, failed a gate, or not
/// enough evidence), not with a usage error or a crash.
fn assert_finished(out: &std::process::Output) {
    assert!(
        matches!(out.status.code(), Some(0 | 1 | 3)),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd {
            let e = e.unwrap();
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                stack.push(e.path());
            } else if ft.is_file() {
                out.push(e.path());
            }
        }
    }
    out
}

/// A case file whose prompts and expectations are `shell` plus a
/// recording tag.
fn hostile_cases(shell: &str, rec: &str) -> String {
    // the fake grader copies expectations into its JSON reply unescaped
    let plain = shell.replace(['\\', '"'], "");
    let p = |n: usize| serde_json::json!({"prompt": format!("[rec:{rec}] prompt {n} {shell}")});
    serde_json::json!({
        "skill_name": "demo-skill",
        "trigger": {
            "positive": [p(1), p(2), p(3)],
            "negative": [p(4), p(5)],
        },
        "evals": [
            {
                "id": 1,
                "prompt": format!("[rec:{rec}] fix it {shell}"),
                "expected_output": format!("a fix {shell}"),
                "files": ["demo-project"],
                "expectations": [format!("It runs nothing {plain}")],
            },
            {
                "id": 2,
                "kind": "dialogue",
                "prompt": format!("[rec:{rec}] talk {shell}"),
                "expected_output": "talk",
                "expectations": [format!("It talks {plain}")],
            }
        ]
    })
    .to_string()
}

#[test]
fn shell_syntax_in_prompts_and_expectations_runs_nothing_and_arrives_verbatim() {
    let env = Env::new();
    let canaries = Canaries::new(&env);
    // the expectation text travels into the grader's reply and back
    let shell = canaries.shell("prompt");
    env.cases(&hostile_cases(&shell, "task"));
    let out = env
        .behave(&["--trials", "1", "--format", "json"])
        .output()
        .unwrap();
    assert_finished(&out);
    canaries.assert_none();
    let calls = env.executor_calls();
    assert!(calls.len() >= 7, "{} agent calls", calls.len());
    for c in &calls {
        let seen = c.argv.join(" ") + &c.stdin;
        assert!(seen.contains(&shell), "the prompt was altered: {seen}");
    }
    let graders = env.grader_calls();
    assert!(!graders.is_empty());
    assert!(graders.iter().all(|g| g.stdin.contains(&shell)));
}

#[test]
fn shell_syntax_reaches_a_runner_verbatim_and_runs_nothing() {
    let env = Env::new();
    let canaries = Canaries::new(&env);
    let shell = canaries.shell("runner");
    env.cases(&hostile_cases(&shell, "task"));
    let runner = format!(
        "fake-runner ok '{}' $(touch {})",
        "x",
        canaries.path("argv")
    );
    let out = env
        .behave(&["--trials", "1", "--runner", &runner])
        .output()
        .unwrap();
    assert_finished(&out);
    canaries.assert_none();
    let log = std::fs::read_to_string(&env.runner_log).unwrap();
    assert!(
        log.contains(&format!("$(touch {})", canaries.path("argv"))),
        "the runner's arguments were altered: {log}"
    );
}

#[test]
fn nothing_from_a_trace_or_a_grader_reply_is_executed() {
    let env = Env::new();
    let canaries = Canaries::new(&env);
    // a recording whose every field holds shell syntax: text, a Bash tool
    // call, its result, the final result
    let recordings = env.tmp.path().join("recordings");
    copy_tree(&fixtures().join("recordings"), &recordings);
    let s = |tag: &str| serde_json::to_string(&canaries.shell(tag)).unwrap();
    let trace = [
        r#"{"type":"system","subtype":"init","tools":["Bash","Skill"],"mcp_servers":[]}"#.to_string(),
        format!(
            r#"{{"type":"assistant","message":{{"content":[{{"type":"text","text":{}}},{{"type":"tool_use","id":"t1","name":"Bash","input":{{"command":{}}}}},{{"type":"tool_use","id":"t2","name":"Skill","input":{{"skill":{}}}}}]}}}}"#,
            s("text"),
            s("tool"),
            s("skill")
        ),
        format!(
            r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","tool_use_id":"t1","content":{}}}]}}}}"#,
            s("toolresult")
        ),
        format!(
            r#"{{"type":"result","subtype":"success","is_error":false,"result":{},"usage":{{"input_tokens":1,"output_tokens":1}}}}"#,
            s("result")
        ),
    ]
    .join("\n");
    std::fs::write(recordings.join("shell.jsonl"), trace + "\n").unwrap();
    env.cases(&hostile_cases("and nothing else", "shell"));
    let out = env
        .behave(&["--trials", "1"])
        .env("FAKE_CLAUDE_RECORDINGS", &recordings)
        .output()
        .unwrap();
    assert_finished(&out);
    canaries.assert_none();
    // the trace did reach the grader, as data
    let graders = env.grader_calls();
    assert!(!graders.is_empty());
    assert!(graders[0].stdin.contains(&canaries.path("tool-1")));
}

#[test]
fn an_api_key_in_the_environment_appears_in_no_result_and_no_report() {
    let env = Env::new();
    const SECRET: &str = "sk-test-secret-5d1e0c7a9b";
    // the agent echoes its environment into the trace (`env`)
    env.cases(&hostile_cases("show the environment", "leak"));
    for format in ["human", "json"] {
        let out = env
            .behave(&["--trials", "1", "--format", format])
            .env("ANTHROPIC_API_KEY", SECRET)
            .env("FAKE_CLAUDE_LEAK", SECRET)
            .output()
            .unwrap();
        assert_finished(&out);
        let report = [out.stdout, out.stderr].concat();
        assert!(
            !String::from_utf8_lossy(&report).contains(SECRET),
            "the {format} report shows the key"
        );
    }
    // nor does the grader model see it
    let graders = env.grader_calls();
    assert!(!graders.is_empty());
    for g in &graders {
        assert!(
            !g.stdin.contains(SECRET),
            "the grader's prompt holds the key"
        );
    }
    assert!(
        graders
            .iter()
            .any(|g| g.stdin.contains("[redacted:ANTHROPIC_API_KEY]"))
    );
    let written = files_under(&env.root.join("evals/results"));
    assert!(written.len() > 10, "{} result files", written.len());
    for p in &written {
        let bytes = std::fs::read(p).unwrap();
        assert!(
            !String::from_utf8_lossy(&bytes).contains(SECRET),
            "{} holds the key",
            p.display()
        );
    }
    // the recording did carry it: redaction, not luck, kept it out
    let streams: Vec<_> = written
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "stream.jsonl"))
        .collect();
    assert!(!streams.is_empty());
    assert!(streams.iter().any(|p| {
        std::fs::read_to_string(p)
            .unwrap()
            .contains("[redacted:ANTHROPIC_API_KEY]")
    }));
}

#[test]
fn every_process_is_started_by_the_one_spawn_point() {
    // Behaviour is tested above; this keeps new code from growing a second
    // way to start programs (or a shell) unnoticed.
    // every crate's source: the binary's src/ and each layer's crates/*/src/
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut spawns = Vec::new();
    for p in files_under(&root.join("src"))
        .into_iter()
        .chain(files_under(&root.join("crates")))
    {
        if p.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        // test modules may run helpers (git) directly
        let code = text.split("#[cfg(test)]").next().unwrap();
        for (i, line) in code.lines().enumerate() {
            if line.contains("Command::new(") {
                spawns.push(format!(
                    "{}:{}",
                    p.strip_prefix(root).unwrap().display(),
                    i + 1
                ));
            }
            for shell in ["\"sh\"", "\"bash\"", "\"/bin/sh\"", "\"-c\""] {
                // opencode calls its shell tool `bash`: the name of a tool in
                // its permission block, not a program skillsift starts
                let tool_name = p.ends_with("behave/src/agent/opencode.rs") && shell == "\"bash\"";
                // git's own `-c NAME=VALUE`, defined once
                let git_flag = line.contains("GIT_CONFIG_FLAG") && shell == "\"-c\"";
                assert!(
                    tool_name || git_flag || !line.contains(shell),
                    "{}:{}: names a shell: {line}",
                    p.display(),
                    i + 1
                );
            }
        }
    }
    assert_eq!(spawns.len(), 1, "{spawns:?}");
    assert!(
        spawns[0].starts_with("crates/process/src/lib.rs:"),
        "{spawns:?}"
    );
}
