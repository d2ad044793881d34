//! Hostile catalogs: each test builds a catalog a stranger wrote, runs
//! skillsift over it under strace (tests/hostile_support: no program it did
//! not name, nothing read or written outside the catalog, no panic, no run
//! over 5 s, no raw control character, secret or forged workflow command in
//! any output) and asserts what a user sees.
//!
//! To add one: build it with `Hostile::demo()` (or `empty()`), `write`,
//! `link`, `fifo`, `outside`; name its secrets with `secret`; then
//! `every_command()` (the whole matrix) or `run(&Case::new([...]))`, and
//! assert on the runs.

#[path = "hostile_support/mod.rs"]
mod hostile;

use hostile::{Case, Hostile, strace_available};

/// The harness itself: the demo catalog, as it is, through every
/// subcommand and format, keeps every promise.
#[test]
#[cfg_attr(
    skillsift_missing_strace,
    ignore = "needs strace on PATH (apt-get install strace)"
)]
fn the_demo_catalog_keeps_every_promise_in_every_command() {
    if !strace_available() {
        return;
    }
    let h = Hostile::demo();
    let runs = h.every_command();
    assert!(runs.iter().all(|r| r.code.is_some_and(|c| c <= 4)));
    let behave = runs
        .iter()
        .find(|r| {
            r.what.contains("--behavioral")
                && !r.what.contains("--dry-run")
                && !r.what.contains("--runner")
        })
        .unwrap();
    let started = behave.started();
    assert!(started.iter().any(|p| p == "claude"), "{started:?}");
    assert!(started.iter().any(|p| p == "git"), "{started:?}");
}

/// Links the loader already refuses: a SKILL.md, a case file and a
/// fixture leading to a file outside, which holds a secret, and a SKILL.md
/// leading to the process's environment. No command reads them.
#[test]
#[cfg_attr(
    skillsift_missing_strace,
    ignore = "needs strace on PATH (apt-get install strace)"
)]
fn links_out_of_skills_cases_and_fixtures_are_never_followed() {
    if !strace_available() {
        return;
    }
    let mut h = Hostile::demo();
    let secret = h.outside(
        "secret.md",
        "---\nname: leaked\ndescription: SECRETVALUE\n---\nSECRETVALUE\n",
    );
    h.secret("SECRETVALUE");
    h.link("skills/leaky/SKILL.md", &secret);
    h.link("evals/cases/other-skill.json", &secret);
    h.link("evals/fixtures/demo-project/leak.md", &secret);
    // the environment, secrets included
    h.link("skills/environ/SKILL.md", "/proc/self/environ");
    let runs = h.every_command();
    let check = &runs[0];
    check
        .code(1)
        .stdout_has("symlink leads outside the catalog");
    // Tier 3 refuses the fixture before any run
    for r in runs
        .iter()
        .filter(|r| r.what.contains("--allow-insufficient"))
    {
        assert_eq!(r.code, Some(2), "{}: {}", r.what, r.stderr());
        assert!(
            r.started().is_empty(),
            "{}: started {:?}",
            r.what,
            r.started()
        );
    }
}

/// The harness fails a run that breaks a promise: a program the case did
/// not name, a read outside the catalog, a secret in the output.
#[test]
#[cfg_attr(
    skillsift_missing_strace,
    ignore = "needs strace on PATH (apt-get install strace)"
)]
fn the_harness_fails_a_run_that_breaks_a_promise() {
    if !strace_available() {
        return;
    }
    let fails = |h: &Hostile, case: Case, what: &str| {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.run(&case)));
        let msg = match r {
            Ok(_) => panic!("the harness let `{}` pass", case.args.join(" ")),
            Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
        };
        assert!(msg.contains(what), "expected {what:?} in:\n{msg}");
    };
    let mut h = Hostile::demo();
    // git and the agent, not named
    fails(
        &h,
        Case::new([
            "check",
            "--behavioral",
            "demo-skill",
            "catalog",
            "--allow-insufficient",
            "--shard",
            "1/3",
        ]),
        "which this run does not name",
    );
    // a configuration outside the catalog the case does not name as the
    // user's, holding a value shown in the error
    let outside = h.outside("x.toml", "[route]\nlanguage = \"SECRETVALUE\"\n");
    let config = outside.display().to_string();
    fails(
        &h,
        Case::new(["check", "catalog", "--config", config.as_str()]),
        "outside the catalog",
    );
    h.secret("SECRETVALUE");
    fails(
        &h,
        Case::new(["check", "catalog", "--config", config.as_str()]).user_path(&outside),
        "the secret `SECRETVALUE` in stderr",
    );
}
