//! `skillsift tune` through the binary, on catalogs written here: a skill
//! whose users say "flaky" while it says "unreliable"; a near-miss sibling
//! a keyword stuffing would steal from; an unlabelled set; a catalog of
//! plugins; rounds won by their validation count; the writer keeping each
//! frontmatter style; the validation prompts never shown; bad input.

mod common;

use common::cat::{Cat, HELD_OUT, flaky};
use common::skillsift;
use serde_json::{Value, json};
use std::path::Path;

struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

fn tune(root: &Path, args: &[&str]) -> Ran {
    let out = skillsift()
        .arg("tune")
        .args(args)
        .arg(root)
        .output()
        .unwrap();
    Ran {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn json_of(r: &Ran) -> Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
}

const FOLDED: &str = ">-\n  Diagnoses unreliable tests that pass and fail at random\n  and finds the shared state behind them.";

#[test]
fn the_users_word_for_the_category_is_woven_into_the_description() {
    let cat = flaky(FOLDED);
    let r = tune(&cat.root(), &["test-doctor"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let out = &r.stdout;
    assert!(
        out.contains("split    from the prompts' `split` labels: train 5 (4 should, 1 should-not), validation 4 (3 should, 1 should-not); 1 fresh, never read"),
        "{out}"
    );
    assert!(
        out.contains("  should \"my tests are flaky, can you fix them\": #2, `ci-debug` first"),
        "{out}"
    );
    assert!(
        out.contains("1. woven into a sentence, adds `flaky` (3 train prompts) — picked"),
        "{out}"
    );
    assert!(out.contains("validation 2/4 → 4/4"), "{out}");
    assert!(
        out.contains("other skills' prompts 4/4, none lost"),
        "{out}"
    );
    assert!(
        out.contains("recommended  round 1 (validation 2/4 → 4/4): \"Diagnoses unreliable (flaky) tests that pass and fail at random and finds the shared state behind them.\""),
        "{out}"
    );
    assert!(
        out.contains("exact paired test on the 4 validation prompts (McNemar's exact test: the two-sided sign test on the prompts whose verdict changed): 2 better, 0 worse, p = 0.500"),
        "{out}"
    );
    assert!(
        out.contains("+  Diagnoses unreliable (flaky) tests"),
        "{out}"
    );
    // nothing was written without --write
    assert!(
        cat.read("skills/test-doctor/SKILL.md")
            .contains("Diagnoses unreliable tests")
    );
}

#[test]
fn validation_and_fresh_prompts_never_appear_in_any_output() {
    let cat = flaky(FOLDED);
    let root = cat.root();
    let runs = [
        tune(&root, &["test-doctor"]),
        tune(&root, &["test-doctor", "--format", "json"]),
        tune(&root, &["test-doctor", "--rounds", "3", "--format", "json"]),
        tune(&root, &["test-doctor", "--write"]),
    ];
    for r in &runs {
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        for p in HELD_OUT {
            assert!(!r.stdout.contains(p), "{p:?} shown:\n{}", r.stdout);
            assert!(!r.stderr.contains(p), "{p:?} shown:\n{}", r.stderr);
        }
    }
    // the JSON document lists candidates with their diffs, and only
    // train prompts by text
    let doc = json_of(&runs[1]);
    assert!(
        doc["rounds"][0]["candidates"][0]["diff"]
            .as_str()
            .unwrap()
            .contains("(flaky)")
    );
    let train: Vec<&str> = doc["train"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["prompt"].as_str().unwrap())
        .collect();
    assert_eq!(train.len(), 5, "{train:?}");
    assert_eq!(
        doc["current"]["figures"]["validation"],
        json!({"passed": 2, "of": 4})
    );
}

#[test]
fn json_is_byte_identical_between_runs() {
    let cat = flaky(FOLDED);
    let a = tune(
        &cat.root(),
        &["test-doctor", "--format", "json", "--rounds", "2"],
    );
    let b = tune(
        &cat.root(),
        &["test-doctor", "--format", "json", "--rounds", "2"],
    );
    assert_eq!(a.code, 0);
    assert_eq!(a.stdout, b.stdout);
    let doc = json_of(&a);
    assert_eq!(
        doc["recommended"]["test"],
        json!({"prompts": 4, "better": 2, "worse": 0, "p": 0.5})
    );
    assert_eq!(doc["written"], false);
}

#[test]
fn write_keeps_the_frontmatter_style() {
    // (description as written, what the written SKILL.md must hold)
    let styles = [
        (
            FOLDED,
            "description: >-\n  Diagnoses unreliable (flaky) tests that pass and fail\n  at random and finds the shared state behind them.\n---",
        ),
        (
            "'Diagnoses unreliable tests that pass and fail at random and finds the shared state behind them.'",
            "description: 'Diagnoses unreliable (flaky) tests that pass and fail at random and finds the shared state behind them.'\n",
        ),
        (
            "\"Diagnoses unreliable tests that pass and fail at random and finds the shared state behind them.\"",
            "description: \"Diagnoses unreliable (flaky) tests that pass and fail at random and finds the shared state behind them.\"\n",
        ),
        (
            "Diagnoses unreliable tests that pass and fail at random and finds the shared state behind them.",
            "description: Diagnoses unreliable (flaky) tests that pass and fail at random and finds the shared state behind them.\n",
        ),
        (
            "|\n  Diagnoses unreliable tests that pass and fail at random\n  and finds the shared state behind them.",
            "description: |\n  Diagnoses unreliable (flaky) tests that pass and fail at random\n  and finds the shared state behind them.\n---",
        ),
    ];
    for (written, want) in styles {
        let cat = flaky(written);
        let r = tune(&cat.root(), &["test-doctor", "--write"]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("wrote    "), "{}", r.stdout);
        let text = cat.read("skills/test-doctor/SKILL.md");
        assert!(text.contains(want), "{written}:\n{text}");
        assert!(text.starts_with("---\nname: test-doctor\n"), "{text}");
        assert!(text.ends_with("---\n\n# test-doctor\n\nBody.\n"), "{text}");
        // written once: a second run has nothing left to tune
        let again = tune(&cat.root(), &["test-doctor"]);
        assert_eq!(again.code, 0);
        assert!(
            again
                .stdout
                .contains("stopped  nothing to tune: every train prompt passes"),
            "{}",
            again.stdout
        );
    }
}

/// `ci-debug` beside `test-writer` and `release-notes`, with the
/// siblings' own prompts; `test-writer`'s second is `about_the_build`.
fn ci_debug_and_siblings(
    positive: &[(&str, &str)],
    negative: &[(&str, &str, &str)],
    about_the_build: &str,
) -> Cat {
    Cat::new()
        .skill("ci-debug", "name: ci-debug\ndescription: Debugs failing CI pipelines and broken build workflows.")
        .skill("test-writer", "name: test-writer\ndescription: Writes unit tests for new modules and mocks their dependencies.")
        .skill("release-notes", "name: release-notes\ndescription: Drafts release notes from merged pull requests.")
        .cases("ci-debug", positive, negative)
        .cases(
            "test-writer",
            &[
                ("write unit tests for the parser module", ""),
                (about_the_build, ""),
                ("mock the dependencies in these tests", ""),
            ],
            &[],
        )
        .cases(
            "release-notes",
            &[("draft release notes for 2.0", ""), ("summarise the merged pull requests", "")],
            &[],
        )
}

/// `ci-debug`'s users talk about the runner and about unit tests; "unit
/// tests" is `test-writer`'s category, whose prompt "unit tests for the
/// build script" a stuffed description would take.
fn near_miss() -> Cat {
    ci_debug_and_siblings(
        &[
            ("the unit tests are red on the CI runner", "train"),
            ("unit tests time out on the CI runner", "train"),
            ("the runner keeps dying halfway", "train"),
            ("the pipeline fails at the build step", "train"),
            ("the runner ran out of disk space", "validation"),
            ("why is the build workflow broken", "validation"),
        ],
        &[
            ("write unit tests for the parser", "train", "test-writer"),
            (
                "draft the release notes for the build",
                "validation",
                "release-notes",
            ),
        ],
        "unit tests for the build script",
    )
}

#[test]
fn keyword_stuffing_that_steals_a_siblings_prompt_is_never_recommended() {
    let cat = near_miss();
    let r = tune(&cat.root(), &["ci-debug", "--format", "json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let doc = json_of(&r);
    let candidates: Vec<&Value> = doc["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["candidates"].as_array().unwrap())
        .collect();
    let adds = |c: &Value, w: &str| c["adds"].as_array().unwrap().iter().any(|a| a["word"] == w);
    // the stuffed candidate was scored: it wins more train prompts, and
    // costs test-writer a prompt
    let stuffed = candidates
        .iter()
        .find(|c| adds(c, "unit") && adds(c, "runner"))
        .expect("a candidate adding both words");
    assert_eq!(
        stuffed["figures"]["train_rank1"],
        json!({"passed": 4, "of": 4})
    );
    assert_eq!(stuffed["figures"]["siblings_lost"], 1);
    assert!(
        stuffed["why_not"][0]
            .as_str()
            .unwrap()
            .starts_with("costs other skills 1 prompt")
    );
    // the recommendation is the runner alone
    let rec = &doc["recommended"];
    assert_eq!(
        rec["description"],
        "Debugs failing CI pipelines and broken build workflows. Use for CI runner."
    );
    assert_eq!(rec["figures"]["siblings_lost"], 0);
    assert_eq!(rec["figures"]["validation"], json!({"passed": 3, "of": 3}));
    assert!(!rec["description"].as_str().unwrap().contains("unit"));
}

#[test]
fn an_unlabelled_set_is_split_alternately_and_says_how_to_keep_the_split() {
    let cat = Cat::new()
        .skill(
            "log-search",
            "name: log-search\ndescription: Searches logs, traces and metrics for errors.",
        )
        .skill(
            "kpi-charts",
            "name: kpi-charts\ndescription: Draws charts and plots of product KPIs for a report.",
        )
        .cases(
            "log-search",
            &[
                ("grep this exception in the server output", ""),
                ("which exception crashed the worker", ""),
                ("find the exception in the worker output", ""),
                ("search the logs for errors", ""),
                ("an exception keeps crashing the job", ""),
            ],
            &[
                ("draw a chart of revenue", "", "kpi-charts"),
                ("plot the KPIs", "", "kpi-charts"),
            ],
        )
        .cases("kpi-charts", &[("draw a chart of the KPIs", "")], &[]);
    let r = tune(&cat.root(), &["log-search"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("split    no prompt has a `split`, so tune split them: in file order, the 1st, 3rd, 5th … prompt of each side is train, the 2nd, 4th, 6th … validation: train 4 (3 should, 1 should-not), validation 3 (2 should, 1 should-not)"),
        "{}",
        r.stdout
    );
    // the lines of the 1st, 3rd, 5th positive and 1st negative, and of
    // the 2nd, 4th positive and 2nd negative
    let file = cat.read("evals/cases/log-search.json");
    let line = |p: &str| {
        file.lines()
            .position(|l| l.contains(&format!("\"{p}\"")))
            .map(|i| i + 1)
            .unwrap()
    };
    let lines = |ps: &[&str]| {
        let mut v: Vec<usize> = ps.iter().map(|p| line(p)).collect();
        v.sort_unstable();
        v.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let train = lines(&[
        "grep this exception in the server output",
        "find the exception in the worker output",
        "an exception keeps crashing the job",
        "draw a chart of revenue",
    ]);
    let validation = lines(&[
        "which exception crashed the worker",
        "search the logs for errors",
        "plot the KPIs",
    ]);
    assert!(
        r.stdout.contains(&format!("to keep this split, in evals/cases/log-search.json add `\"split\": \"train\"` to the prompts on lines {train} and `\"split\": \"validation\"` to those on lines {validation}")),
        "{}\n{file}",
        r.stdout
    );
    // validation prompts (the 2nd and 4th positive) are not shown
    assert!(!r.stdout.contains("which exception crashed the worker"));
    assert!(!r.stdout.contains("search the logs for errors"));
    // stable: the same split again
    let again = tune(&cat.root(), &["log-search", "--format", "json"]);
    let doc = json_of(&again);
    assert_eq!(doc["split"]["source"], "alternating");
    let v: Vec<String> = doc["split"]["to_label"][0]["validation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(v.join(", "), validation);
    assert_eq!(
        json_of(&tune(&cat.root(), &["log-search", "--format", "json"])),
        doc
    );
}

#[test]
fn a_plugin_is_tuned_within_its_own_installation() {
    let plugin = |cat: Cat, p: &str, name: &str, d: &str| {
        cat.skill_at(
            &format!("plugins/{p}/skills"),
            name,
            &format!("name: {name}\ndescription: {d}"),
        )
    };
    let cat = Cat::new();
    let cat = plugin(
        cat,
        "qa",
        "test-doctor",
        "Diagnoses unreliable tests that pass and fail at random.",
    );
    let cat = plugin(
        cat,
        "qa",
        "ci-debug",
        "Debugs failing CI pipelines and test runs.",
    );
    // another plugin says "flaky": never in the same listing as qa's skills
    let cat = plugin(
        cat,
        "web",
        "flaky-network",
        "Retries flaky network calls in the browser.",
    );
    let cat = cat
        .cases(
            "test-doctor",
            &[
                ("the CI tests are flaky", "train"),
                ("flaky tests in the CI run", "train"),
                ("a flaky test again in CI", "validation"),
                ("tests pass and fail at random", "validation"),
            ],
            &[],
        )
        .cases("ci-debug", &[("debug the failing CI pipeline", "")], &[])
        .cases(
            "flaky-network",
            &[("retry the flaky network calls", "")],
            &[],
        );
    let r = tune(&cat.root(), &["test-doctor", "--format", "json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let doc = json_of(&r);
    assert_eq!(doc["install"], "plugin `qa`");
    // the other plugin's prompt is not a sibling of this installation
    assert_eq!(
        doc["current"]["figures"]["siblings"],
        json!({"passed": 1, "of": 1})
    );
    assert_eq!(
        doc["current"]["figures"]["train_rank1"],
        json!({"passed": 0, "of": 2})
    );
    // the competitor is qa's own skill, under Claude Code's plugin name
    assert_eq!(doc["train"][0]["first"], "qa:ci-debug");
    let rec = &doc["recommended"];
    assert_eq!(rec["figures"]["validation"], json!({"passed": 2, "of": 2}));
    assert_eq!(rec["figures"]["siblings_lost"], 0);
    assert_eq!(rec["figures"]["train_rank1"]["passed"], 1);
    let human = tune(&cat.root(), &["test-doctor"]);
    assert!(
        human
            .stdout
            .contains("as Claude Code lists the catalog (plugin `qa`, routed as installed)"),
        "{}",
        human.stdout
    );
}

/// `log-search`: round 1 adds the word three failing positives share and
/// wins a validation prompt; round 2 takes a word the negatives share out
/// of a list and wins only train prompts.
fn two_rounds() -> Cat {
    Cat::new()
        .skill(
            "log-search",
            "name: log-search\ndescription: Searches logs, traces and metrics for errors.",
        )
        .skill(
            "kpi-charts",
            "name: kpi-charts\ndescription: Draws charts and plots of product KPIs for a report.",
        )
        .skill(
            "alerting",
            "name: alerting\ndescription: Sets up paging alerts and on-call rotations.",
        )
        .cases(
            "log-search",
            &[
                ("grep this timeout exception in the server output", "train"),
                ("find the timeout exception in the worker output", "train"),
                ("a timeout exception keeps crashing the job", "train"),
                ("search the logs for errors", "train"),
                ("which exception crashed the worker", "validation"),
                ("find errors in the traces", "validation"),
            ],
            &[
                ("export the metrics to a spreadsheet", "train", ""),
                ("how are the metrics computed", "train", ""),
                ("set up an alert on the metrics", "validation", "alerting"),
            ],
        )
        .cases(
            "kpi-charts",
            &[
                ("draw a chart of the KPIs", ""),
                ("plot revenue for the report", ""),
            ],
            &[],
        )
        .cases(
            "alerting",
            &[
                ("page me when the site is down", ""),
                ("set up the on-call rotation", ""),
            ],
            &[],
        )
}

#[test]
fn the_round_with_the_best_validation_wins_not_the_last() {
    let cat = two_rounds();
    for args in [vec!["log-search"], vec!["log-search", "--rounds", "4"]] {
        let mut a = args.clone();
        a.extend(["--format", "json"]);
        let r = tune(&cat.root(), &a);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let doc = json_of(&r);
        let rounds = doc["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 2, "{args:?}");
        let pick = |r: &Value| r["candidates"][r["picked"].as_u64().unwrap() as usize].clone();
        assert_eq!(pick(&rounds[0])["kind"], "clause");
        assert_eq!(pick(&rounds[1])["kind"], "removal");
        assert_eq!(
            pick(&rounds[1])["figures"]["train_negatives"],
            json!({"passed": 2, "of": 2})
        );
        // round 2 gains on train only: round 1 keeps the win
        assert_eq!(doc["best_round"], 1);
        assert_eq!(doc["recommended"]["round"], 1);
        assert_eq!(
            doc["recommended"]["description"],
            "Searches logs, traces and metrics for errors. Use for timeout exception."
        );
        assert_eq!(doc["stop"], "round 3: every train prompt passes");
    }
    // one round only
    let doc = json_of(&tune(
        &cat.root(),
        &["log-search", "--rounds", "1", "--format", "json"],
    ));
    assert_eq!(doc["rounds"].as_array().unwrap().len(), 1);
    assert_eq!(doc["stop"], "1 round run");
}

#[test]
fn bad_input_gets_a_clear_message_and_exit_code() {
    let cat = flaky(FOLDED);
    let root = cat.root();
    // an unknown skill: 2
    let r = tune(&root, &["no-such-skill"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("no skill named `no-such-skill`"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("skills here: ci-debug, release-notes, test-doctor, test-writer"),
        "{}",
        r.stderr
    );
    // a skill without prompts: 2, and how to write some
    let r = tune(&root, &["release-notes"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("`release-notes` has no trigger prompts to tune against"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("skillsift init release-notes"),
        "{}",
        r.stderr
    );
    // unlabelled prompts of which every train prompt passes: nothing to tune, 0
    let r = tune(&root, &["test-writer"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("stopped  nothing to tune: every train prompt passes"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("no candidate is recommended; nothing to write"),
        "{}",
        r.stdout
    );
    // --rounds 0, and a single skill folder: 2
    assert_eq!(tune(&root, &["test-doctor", "--rounds", "0"]).code, 2);
    let r = tune(&root.join("skills/test-doctor"), &["test-doctor"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("tune needs the catalog folder"),
        "{}",
        r.stderr
    );
    // labels without a validation prompt: not enough evidence, 3
    let cat = Cat::new()
        .skill("a", "name: a\ndescription: Parses server logs.")
        .skill("b", "name: b\ndescription: Draws charts.")
        .cases(
            "a",
            &[
                ("parse the logs", "train"),
                ("read the nginx logs", "train"),
            ],
            &[],
        );
    let r = tune(&cat.root(), &["a"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.contains("`a`: no validation prompt"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("\"split\": \"validation\""),
        "{}",
        r.stderr
    );
}

#[test]
fn behavioral_dry_run_counts_the_runs_and_shows_no_prompt() {
    let cat = flaky(FOLDED);
    let r = tune(
        &cat.root(),
        &["test-doctor", "--behavioral", "--dry-run", "--trials", "2"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("model    --behavioral would run 4 validation prompts × 2 trials × 2 descriptions (current, recommended) = 16 runs of Claude Code"),
        "{}",
        r.stdout
    );
    for p in HELD_OUT {
        assert!(!r.stdout.contains(p), "{p:?}: {}", r.stdout);
    }
    assert_eq!(
        tune(
            &cat.root(),
            &["test-doctor", "--behavioral", "--dry-run", "--write"]
        )
        .code,
        2
    );
}

/// `ci-debug`'s failing train prompts share only `test-writer`'s words:
/// saying them would take `test-writer`'s prompts.
fn only_a_siblings_words() -> Cat {
    ci_debug_and_siblings(
        &[
            ("the unit tests are red on the pipeline", "train"),
            ("unit tests fail the pipelines", "train"),
            ("the pipeline fails at the build step", "train"),
            ("unit tests hang in the pipeline", "validation"),
            ("why is the build workflow broken", "validation"),
        ],
        &[
            ("write unit tests for the parser", "train", "test-writer"),
            (
                "draft the release notes for the build",
                "validation",
                "release-notes",
            ),
        ],
        "unit tests for the build",
    )
}

#[test]
fn when_the_only_gain_takes_a_siblings_prompts_nothing_is_recommended_and_it_says_why() {
    let cat = only_a_siblings_words();
    let r = tune(&cat.root(), &["ci-debug"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let out = &r.stdout;
    // the one candidate gains on train and validation, and takes one of
    // test-writer's prompts: not picked, not recommended, and said so
    assert!(
        out.contains("adds `unit` (2 train prompts), `tests` (2 train prompts) — not picked: costs other skills 1 prompt"),
        "{out}"
    );
    assert!(
        out.contains("validation 2/3 → 3/3; other skills' prompts 4/5, 1 lost"),
        "{out}"
    );
    assert!(
        out.contains("not recommended  the best candidate, \"Debugs failing CI pipelines and broken build workflows. Use for unit tests.\", costs other skills 1 prompt; nothing to write"),
        "{out}"
    );
    assert!(!out.contains("recommended  round"), "{out}");
    // what an author rewriting by hand needs
    assert!(
        out.contains("what would help  (to rewrite the description by hand; nothing above is worth committing)\n  should \"the unit tests are red on the pipeline\": #2, `test-writer` first\n     shares with `test-writer`, lacks here: unit, tests\n     said in the description: this prompt ranks it first; takes 1 of the other skills' prompts; train negatives 1/1 pass, as now\n"),
        "{out}"
    );
    let r = tune(&cat.root(), &["ci-debug", "--format", "json"]);
    let doc = json_of(&r);
    assert_eq!(doc["recommended"], Value::Null);
    let help = doc["what_would_help"].as_array().unwrap();
    assert_eq!(help.len(), 2);
    assert_eq!(help[1]["prompt"], "unit tests fail the pipelines");
    assert_eq!(help[1]["first"], "test-writer");
    assert_eq!(help[1]["words"], json!(["unit", "tests"]));
    assert_eq!(help[1]["with_words"]["passes"], true);
    assert_eq!(help[1]["with_words"]["siblings_lost"], 1);
    // nothing written
    assert!(
        cat.read("skills/ci-debug/SKILL.md")
            .contains("broken build workflows.\n")
    );
    // and --write writes nothing either
    let w = tune(&cat.root(), &["ci-debug", "--write"]);
    assert_eq!(w.code, 0, "{}{}", w.stdout, w.stderr);
    assert!(!cat.read("skills/ci-debug/SKILL.md").contains("unit"));
}

#[test]
fn a_gain_on_train_alone_is_not_recommended() {
    // the users' "flaky" ranks the train prompts first, but no validation
    // prompt says it: nothing held out moves
    let cat = Cat::new()
        .skill("test-doctor", &format!("name: test-doctor\ndescription: {FOLDED}"))
        .skill(
            "ci-debug",
            "name: ci-debug\ndescription: Debugs failing CI pipelines, reads build logs, finds the failing step and fixes the workflow file.",
        )
        .skill(
            "test-writer",
            "name: test-writer\ndescription: Writes unit tests for new code: picks cases, mocks dependencies and checks coverage.",
        )
        .cases(
            "test-doctor",
            &[
                ("my tests are flaky, can you fix them", "train"),
                ("flaky tests keep breaking the nightly build", "train"),
                ("which flaky test is failing our pipeline again", "train"),
                ("tests pass and fail at random on my laptop", "train"),
                ("tests pass and fail at random, find the shared state", "validation"),
                ("the nightly build log shows a failing step", "validation"),
            ],
            &[],
        )
        .cases(
            "ci-debug",
            &[("the CI pipeline is red, read the build logs", "")],
            &[],
        );
    let r = tune(&cat.root(), &["test-doctor"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let out = &r.stdout;
    assert!(
        out.contains("1. woven into a sentence, adds `flaky` (3 train prompts) — picked"),
        "{out}"
    );
    assert!(out.contains("train 4/4 positives first"), "{out}");
    assert!(
        out.contains("not recommended  round 1 has the best validation, but validation rank-1 does not rise (1 → 1 of 2 positives first): no gain on the held-out prompts; nothing to write"),
        "{out}"
    );
    let doc = json_of(&tune(&cat.root(), &["test-doctor", "--format", "json"]));
    assert_eq!(doc["recommended"], Value::Null);
    assert_eq!(doc["best_round"], 1);
}

/// A declared source's labels go in the field its declaration names for
/// `split`; without one, tune says to declare it too, and once both are
/// written tune reads the labels.
#[test]
fn tune_advises_labels_a_declared_source_reads() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    common::skill(
        root,
        "pdf-forms",
        "Fill in PDF forms and W-9 tax forms. Use when the user asks to fill a PDF form.",
    );
    common::skill(
        root,
        "sql-tuning",
        "Speed up slow SQL queries with indexes. Use when a database query is slow.",
    );
    let csv = |split: Option<bool>| {
        let rows = [
            ("true", "fill in my w-9 form", "train"),
            ("true", "complete the pdf form fields", "validation"),
            ("true", "put my address into the tax form", "train"),
            ("false", "my sql query is slow", "train"),
            ("false", "add an index to the orders table", "validation"),
        ];
        let mut t = String::from(if split.is_some() {
            "fires,utterance,part\n"
        } else {
            "fires,utterance\n"
        });
        for (f, u, p) in rows {
            match split {
                Some(true) => t.push_str(&format!("{f},{u},{p}\n")),
                Some(false) => t.push_str(&format!("{f},{u},\n")),
                None => t.push_str(&format!("{f},{u}\n")),
            }
        }
        t
    };
    common::write(root, "qa/pdf-forms/routing.csv", &csv(None));
    let decl = "[[cases.sources]]\nfiles = \"qa/*/routing.csv\"\nformat = \"csv\"\nprompt = \"utterance\"\nskill-path-part = 1\npolarity = \"fires\"\n";
    common::write(root, "skillsift.toml", decl);
    let r = tune(root, &["pdf-forms"]);
    assert!(
        r.stdout.contains("to keep this split, in qa/pdf-forms/routing.csv add `\"split\": \"train\"` to the prompts on lines 2, 4, 5 and `\"split\": \"validation\"` to those on lines 3, 6, and `split = \"split\"` to [[cases.sources]] #1 in skillsift.toml"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    // the column declared, still empty
    common::write(root, "qa/pdf-forms/routing.csv", &csv(Some(false)));
    common::write(root, "skillsift.toml", &format!("{decl}split = \"part\"\n"));
    let r = tune(root, &["pdf-forms"]);
    assert!(
        r.stdout.contains("add `\"part\": \"train\"` to the prompts on lines 2, 4, 5 and `\"part\": \"validation\"` to those on lines 3, 6 (the field [[cases.sources]] #1 declares as `split`)"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    common::write(root, "qa/pdf-forms/routing.csv", &csv(Some(true)));
    let r = tune(root, &["pdf-forms"]);
    assert!(
        r.stdout
            .contains("split    from the prompts' `split` labels: train 3"),
        "{}{}",
        r.stdout,
        r.stderr
    );
}

/// A declared source with no fields (`text`) cannot carry a label: tune
/// says so instead of asking for one.
#[test]
fn tune_says_a_text_source_cannot_carry_a_split() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    common::skill(
        root,
        "pdf-forms",
        "Fill in PDF forms and W-9 tax forms. Use when the user asks to fill a PDF form.",
    );
    common::skill(
        root,
        "sql-tuning",
        "Speed up slow SQL queries with indexes. Use when a database query is slow.",
    );
    for (i, p) in [
        "fill in my w-9 form",
        "complete the pdf form fields",
        "put my address into the tax form",
    ]
    .iter()
    .enumerate()
    {
        common::write(root, &format!("qa/pdf-forms/{i}.txt"), p);
    }
    common::write(
        root,
        "skillsift.toml",
        "[[cases.sources]]\nfiles = \"qa/*/*.txt\"\nformat = \"text\"\nskill-path-part = 1\n",
    );
    let r = tune(root, &["pdf-forms"]);
    assert!(
        r.stdout.contains(
            "is read by [[cases.sources]] #1, whose format has no fields: its prompts cannot carry a split label"
        ),
        "{}{}",
        r.stdout,
        r.stderr
    );
    assert!(
        !r.stdout.contains("to keep this split, in qa/"),
        "{}",
        r.stdout
    );
}

/// A candidate a round does not pick for gaining nothing says which
/// measures it did not gain, each before → after.
#[test]
fn a_candidate_that_gains_nothing_says_each_measure() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    common::skill(
        root,
        "csv-quality",
        "Checks the quality of CSV files and reports a score, fixes, and a summary. Use when the user asks whether a dataset is usable.",
    );
    common::skill(
        root,
        "csv-convert",
        "Converts CSV delimiters and encodings. Use when the user changes semicolons to commas.",
    );
    common::write(
        root,
        "skills/csv-quality/evals/trigger-evals.json",
        r#"[
  {"query": "check the quality of this CSV dataset", "should_trigger": true},
  {"query": "is this dataset usable", "should_trigger": true},
  {"query": "check this CSV file for quality problems", "should_trigger": true},
  {"query": "tell me whether the dataset quality is usable", "should_trigger": true},
  {"query": "fix the quality of this CSV file's encoding", "should_trigger": false},
  {"query": "convert this file from semicolons to commas", "should_trigger": false}
]"#,
    );
    let r = tune(root, &["csv-quality"]);
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains("gains nothing on train"))
        .unwrap_or_else(|| panic!("{}{}", r.stdout, r.stderr));
    let said = &line[line.find("gains nothing on train: ").unwrap()..];
    let measures = regex::Regex::new(
        r"^gains nothing on train: \d+ → \d+ of \d+ train positives first, \d+ → \d+ of \d+ train negatives pass, \d+ → \d+ of \d+ in their top-k",
    )
    .unwrap();
    assert!(measures.is_match(said), "{line}");
    // a list item of more than the word ("concrete fixes") is not cut to
    // its modifier: no removal is proposed
    common::skill(
        root,
        "csv-quality",
        "Checks the quality of CSV files and reports concrete fixes, a score, and a summary. Use when the user asks whether a dataset is usable.",
    );
    let r = tune(root, &["csv-quality"]);
    assert!(!r.stdout.contains("concrete a score"), "{}", r.stdout);
    assert!(
        r.stdout.contains("1 negative taken: 0 candidates"),
        "{}{}",
        r.stdout,
        r.stderr
    );
}

/// Added words go in as a phrase the prompts write, in their order, or
/// not at all: "lwc translate label" gives no "lwc translate", a word of
/// no phrase ("Arabic") is no "…, or for Arabic", and the output names it.
#[test]
fn an_added_clause_is_a_phrase_the_prompts_write_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    common::skill(
        root,
        "lwc-i18n",
        "Builds LWCs that support translation and locale-aware formatting. Use when a component must speak more than one language.",
    );
    common::skill(
        root,
        "lwc-basics",
        "Scaffolds an LWC component with its label, template and Jest tests.",
    );
    common::write(
        root,
        "skills/lwc-i18n/evals/trigger-evals.json",
        r#"[
  {"query": "lwc translate label", "should_trigger": true, "split": "train"},
  {"query": "custom labels for the header", "should_trigger": true, "split": "train"},
  {"query": "show custom labels in the footer", "should_trigger": true, "split": "train"},
  {"query": "RTL layout breaks in Arabic", "should_trigger": true, "split": "train"},
  {"query": "Arabic dates print backwards", "should_trigger": true, "split": "train"},
  {"query": "where do custom labels come from", "should_trigger": true, "split": "validation"},
  {"query": "write a unit test for the label controller", "should_trigger": false, "split": "train"}
]"#,
    );
    let r = tune(root, &["lwc-i18n", "--format", "json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let doc = json_of(&r);
    let round = &doc["rounds"][0];
    let texts: Vec<&str> = round["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["description"].as_str().unwrap())
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.ends_with("more than one language, or for custom labels.")),
        "{texts:#?}"
    );
    for t in &texts {
        for bad in ["lwc translate", "labels lwc", "for Arabic", "or for label."] {
            assert!(!t.contains(bad), "{bad:?} in {t:?}");
        }
    }
    assert_eq!(
        round["unphrased"],
        json!([{"word": "Arabic", "prompts": 2}])
    );
    let human = tune(root, &["lwc-i18n"]);
    assert!(
        human
            .stdout
            .contains("  unphrased  `Arabic` (2 prompts): shared, but in no phrase of the prompts tune can write"),
        "{}",
        human.stdout
    );
}
