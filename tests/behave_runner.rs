//! The `--runner` contract, driven through the binary with the fake harness
//! tests/fixtures/behave/bin/fake-runner.

#[path = "behave_support/mod.rs"]
mod support;

use predicates::prelude::*;
use support::{Env, alive, read_json};

#[test]
fn the_runner_gets_the_prompt_and_its_environment_and_its_lines_are_scored() {
    let env = Env::new();
    env.behave(&[
        "--trials",
        "1",
        "--runner",
        "fake-runner ok",
        "--format",
        "json",
    ])
    .assert()
    .code(3)
    .stdout(predicate::str::contains("\"with_pass_rate\": 1.0"))
    .stdout(predicate::str::contains("\"without_pass_rate\": 0.0"))
    .stdout(predicate::str::contains("\"f1\": 1.0"));
    let log = std::fs::read_to_string(&env.runner_log).unwrap();
    let lines: Vec<&str> = log.lines().filter(|l| !l.starts_with("git:")).collect();
    assert_eq!(
        lines.len(),
        9,
        "5 trigger prompts with only, 2 evals × 2 arms"
    );
    assert_eq!(
        log.lines().filter(|l| l.starts_with("git:")).count(),
        2,
        "eval-1 runs in a git workspace"
    );
    let skill_dir = env.root.join("skills/demo-skill").canonicalize().unwrap();
    assert!(
        lines[0].starts_with(&format!("positive-1 1 with {} ", skill_dir.display())),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("positive-2 1 with "), "{}", lines[1]);
    assert!(lines[0].ends_with(" ok"));
    assert!(
        !env.log.exists(),
        "the built-in agent is never called with --runner"
    );
    let run = read_json(&env.iteration(1).join("eval-1/with_skill/run-1/run.json"));
    assert_eq!(run["exit_code"], 0);
    assert!(
        !env.iteration(1)
            .join("eval-1/with_skill/run-1/grading.json")
            .exists()
    );
}

#[test]
fn the_runner_command_is_split_without_a_shell() {
    let env = Env::new();
    env.behave(&[
        "--trials",
        "1",
        "--no-baseline",
        "--runner",
        "fake-runner 'ok' $HOME;echo",
    ])
    .assert()
    .code(0);
    let log = std::fs::read_to_string(&env.runner_log).unwrap();
    assert!(
        log.lines().next().unwrap().ends_with(" ok $HOME;echo"),
        "{log}"
    );
}

fn refused(mode: &str, extra: &[&str], reason: &str) {
    let env = Env::new();
    let cmd = format!("fake-runner {mode}");
    let mut args = vec!["--trials", "1", "--no-baseline", "--runner", cmd.as_str()];
    args.extend_from_slice(extra);
    env.behave(&args)
        .assert()
        .code(4)
        .stdout(predicate::str::contains(reason))
        .stdout(predicate::str::contains("verdict  unavailable (exit 4)"));
    assert!(!env.iteration(1).join("observations.jsonl").exists());
    let run = read_json(
        &env.iteration(1)
            .join("positive-1/with_skill/run-1/run.json"),
    );
    assert_eq!(run["evidence"], false);
}

#[test]
fn a_variant_mix_up_is_refused() {
    refused(
        "mixup",
        &[],
        "answered for variant `without` in a `with` run",
    );
}

#[test]
fn malformed_runner_output_is_refused() {
    refused("malformed", &[], "the runner's line is not");
}

#[test]
fn more_than_one_line_is_refused() {
    refused("two", &[], "printed 2 lines");
}

#[test]
fn a_failing_runner_is_refused_even_after_a_valid_line() {
    refused("fail", &[], "the runner exited with status 3");
}

#[test]
fn output_past_the_cap_is_refused() {
    refused(
        "flood",
        &["--max-bytes", "1000"],
        "wrote more than 1000 bytes",
    );
}

#[test]
fn a_runner_past_its_timeout_is_killed_with_its_group() {
    let env = Env::new();
    env.config("[behave]\nkill-grace-ms = 200\n");
    env.behave(&[
        "--trials",
        "1",
        "--no-baseline",
        "--runner",
        "fake-runner hang",
        "--timeout-ms",
        "300",
    ])
    .assert()
    .code(4)
    .stdout(predicate::str::contains("timed out after 300ms"));
    let pids = env.pids();
    assert!(pids.len() >= 2);
    for p in pids {
        assert!(!alive(p), "runner process {p} survived");
    }
}

#[test]
fn runner_limits_are_bounded() {
    let env = Env::new();
    env.behave(&["--runner", "fake-runner", "--timeout-ms", "600001"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--timeout-ms must be between 1 and 600000",
        ));
    env.behave(&["--runner", "fake-runner", "--max-bytes", "10000001"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--max-bytes must be between 1 and 10000000",
        ));
    env.behave(&["--runner", "fake-runner 'unclosed"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unterminated"));
    env.behave(&["--runner", "no-such-runner-program"])
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "`no-such-runner-program` was not found",
        ));
}

#[test]
fn a_skill_edited_while_the_runs_go_is_not_scored() {
    let env = Env::new();
    env.behave(&["--trials", "1", "--runner", "fake-runner edit"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the skill changed while it was evaluated (skill hash",
        ))
        .stderr(predicate::str::contains("(not scored)"))
        .stdout(predicate::str::contains("verdict").not());
}
