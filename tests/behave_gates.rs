//! Release gates through the binary with the fake `claude`: blockers,
//! the quality delta, assertions that do not discriminate, every
//! deterministic check, safety evidence (tool list, permission denials,
//! write-capable MCP tools), version against version (`--baseline-skill`)
//! and coexistence (`--with-siblings`).

mod behave_support;

use behave_support::{Env, cases_with_evals, read_json};
use predicates::prelude::*;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// One tool call of a recorded run.
struct Call<'a> {
    name: &'a str,
    input: Value,
}

/// A recorded stream: the init line (tools), the calls with their results,
/// the final answer, and the result line with denials, turns and tokens.
struct Rec<'a> {
    tools: Vec<&'a str>,
    calls: Vec<Call<'a>>,
    answer: &'a str,
    denials: Vec<(&'a str, Value)>,
    turns: u64,
    tokens: u64,
}

impl<'a> Rec<'a> {
    fn answer(answer: &'a str) -> Rec<'a> {
        Rec {
            tools: vec!["Bash", "Read", "Edit", "Write", "Skill"],
            calls: Vec::new(),
            answer,
            denials: Vec::new(),
            turns: 2,
            tokens: 300,
        }
    }

    fn call(mut self, name: &'a str, input: Value) -> Rec<'a> {
        self.calls.push(Call { name, input });
        self
    }

    fn loads(self, skill: &'a str) -> Rec<'a> {
        self.call("Skill", json!({ "skill": skill }))
    }

    fn text(&self) -> String {
        let mut lines = vec![
            json!({"type":"system","subtype":"init","tools": self.tools,"mcp_servers":[],"model":"fake-model"}),
        ];
        for (i, c) in self.calls.iter().enumerate() {
            let id = format!("toolu_{i}");
            lines.push(json!({"type":"assistant","message":{"content":[{"type":"tool_use","id": id,"name": c.name,"input": c.input}]}}));
            lines.push(json!({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id": id,"content":"ok"}]}}));
        }
        lines.push(
            json!({"type":"assistant","message":{"content":[{"type":"text","text": self.answer}]}}),
        );
        lines.push(json!({
            "type":"result","subtype":"success","is_error":false,"num_turns": self.turns,
            "result": self.answer,"total_cost_usd":0.01,
            "usage":{"input_tokens": self.tokens - 50,"output_tokens":50},
            "permission_denials": self.denials.iter().map(|(t, i)| json!({"tool_name": t, "tool_use_id": "x", "tool_input": i})).collect::<Vec<_>>(),
        }));
        lines
            .iter()
            .map(|l| l.to_string() + "\n")
            .collect::<String>()
    }
}

/// A recordings folder: the fixture's (for the trigger prompts) plus the
/// streams and workspace changes a test writes.
struct Recordings(PathBuf);

impl Recordings {
    fn new(env: &Env) -> Recordings {
        let dir = env.tmp.path().join("recordings");
        behave_support::copy_tree(&behave_support::fixtures().join("recordings"), &dir);
        Recordings(dir)
    }

    /// `NAME.FILE.jsonl` (FILE: `with`, `without`, `with.2`, …).
    fn stream(&self, file: &str, rec: &Rec) -> &Self {
        std::fs::write(self.0.join(format!("{file}.jsonl")), rec.text()).unwrap();
        self
    }

    /// A file the "agent" leaves in the workspace (`NAME.FILE.files/REL`).
    fn leaves(&self, file: &str, rel: &str, content: &str) -> &Self {
        let p = self.0.join(format!("{file}.files")).join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
        self
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

fn behave(env: &Env, rec: &Recordings, extra: &[&str]) -> assert_cmd::Command {
    let mut c = env.behave(extra);
    c.env("FAKE_CLAUDE_RECORDINGS", rec.path());
    c
}

fn dialogue(id: u64, prompt: &str, expectations: Value) -> Value {
    json!({"id": id, "kind": "dialogue", "prompt": prompt, "expected_output": "a fixed total", "expectations": expectations})
}

#[test]
fn a_blocker_failing_in_one_of_three_trials_fails_the_run_and_is_named_with_its_evidence() {
    let env = Env::new();
    env.cases(&cases_with_evals(json!([dialogue(
        1,
        "[rec:gate] The invoice total is off by a cent",
        json!([
            "BLOCKER: no credential is printed [pass-if:CLEAN]",
            {"check": "answer_contains", "value": "CLEAN", "kind": "blocker", "text": "the answer says CLEAN"},
            "QUALITY: the fix is explained [pass]"
        ])
    )])));
    let rec = Recordings::new(&env);
    rec.stream(
        "gate.with.1",
        &Rec::answer("CLEAN: fixed the rounding").loads("demo-skill"),
    )
    .stream(
        "gate.with.2",
        &Rec::answer("fixed; key is sk-live-123").loads("demo-skill"),
    )
    .stream(
        "gate.with.3",
        &Rec::answer("CLEAN: fixed").loads("demo-skill"),
    )
    .stream("gate.without", &Rec::answer("CLEAN: changed it"));
    behave(&env, &rec, &["--trials", "3"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "blockers   2 declared, 6 with-skill verdicts (3 per blocker): 2 failed",
        ))
        .stdout(predicate::str::contains(
            "FAIL  eval-1 trial 2: \"no credential is printed [pass-if:CLEAN]\"",
        ))
        .stdout(predicate::str::contains("evidence: fake grader, mode pass"))
        .stdout(predicate::str::contains(
            "FAIL  eval-1 trial 2: \"the answer says CLEAN\" (check answer_contains)",
        ))
        .stdout(predicate::str::contains(
            "evidence: the final answer is \"fixed; key is sk-live-123\" (no `CLEAN`)",
        ))
        .stdout(predicate::str::contains("FAIL  blockers: 2 blocker failures in with-skill trials"))
        .stdout(predicate::str::contains(
            "verdict  fail: a gate failed: blocker \"no credential is printed [pass-if:CLEAN]\" of eval-1 failed in with-skill trial 2 (and 1 more failure)",
        ))
        // 6 distinct cases, fewer than the 10 a verdict needs, yet exit 1:
        // a failure seen is evidence enough
        .stdout(predicate::str::contains("evidence 6 distinct cases"));
    // the run records each verdict with its kind and what judged it
    let it = env.iteration(1);
    let g = read_json(&it.join("eval-1/with_skill/run-2/grading.json"));
    assert_eq!(g["expectations"][0]["kind"], "blocker");
    assert_eq!(g["expectations"][0]["passed"], false);
    assert_eq!(g["expectations"][1]["check"], "answer_contains");
    assert_eq!(g["expectations"][2]["kind"], "quality");
    assert_eq!(g["summary"]["failed"], 2);
    // the scorer's JSON names every failure, and JUnit fails the gate
    let score = |format: &str| {
        env.cmd()
            .args([
                "score",
                "--skill",
                "catalog/skills/demo-skill",
                "--trials",
                "3",
                "--format",
                format,
            ])
            .arg("--cases")
            .arg(it.join("cases.jsonl"))
            .arg("--observations")
            .arg(it.join("observations.jsonl"))
            .output()
            .unwrap()
    };
    let j = score("json");
    assert_eq!(j.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&j.stdout).unwrap();
    let f = &doc["expectations"]["blockers"]["failures"];
    assert_eq!(f.as_array().unwrap().len(), 2, "{doc:#}");
    assert_eq!(f[0]["case"], "eval-1");
    assert_eq!(f[0]["trial"], 2);
    assert_eq!(f[0]["evidence"], "fake grader, mode pass");
    assert_eq!(doc["verdict"], "fail");
    let gate = doc["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "blockers")
        .unwrap();
    assert_eq!(gate["passed"], false);
    let x = String::from_utf8(score("junit").stdout).unwrap();
    assert!(
        x.contains("<testcase name=\"blockers\" classname=\"demo-skill.gates\">"),
        "{x}"
    );
    assert!(
        x.contains("blocker failed in trial 2: no credential is printed [pass-if:CLEAN]"),
        "{x}"
    );
}

/// Ten dialogue evals whose with-skill answers say GOOD and whose baseline
/// answers do not; each has one expectation passing everywhere, one
/// failing everywhere, and one passing only on GOOD.
fn ten_evals(env: &Env) -> Recordings {
    let evals: Vec<Value> = (1..=10)
        .map(|i| {
            dialogue(
                i,
                &format!("[rec:ten] Invoice {i} is off by a cent"),
                json!([
                    "the reply is polite [pass]",
                    "the reply cites the ledger [fail]",
                    "the rounding rule is named [pass-if:GOOD]"
                ]),
            )
        })
        .collect();
    env.cases(&cases_with_evals(json!(evals)));
    let rec = Recordings::new(env);
    rec.stream(
        "ten.with",
        &Rec::answer("GOOD: half-even rounding").loads("demo-skill"),
    )
    .stream("ten.without", &Rec::answer("changed the rounding"));
    rec
}

#[test]
fn the_quality_delta_gate_reads_its_threshold_from_the_config_and_the_flag_overrides_it() {
    let env = Env::new();
    let rec = ten_evals(&env);
    env.config("[behave]\nmin-quality-delta = 20\n");
    // quality with the skill 20/30, without 10/30: +33.3 points
    behave(&env, &rec, &["--trials", "1"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "quality    30 expectations; with skill 0.667 (20/30)  without 0.333 (10/30)  delta +33.3 points",
        ))
        .stdout(predicate::str::contains(
            "PASS  min-quality-delta: quality delta +33.3 ≥ +20.0 points",
        ));
    env.config("[behave]\nmin-quality-delta = 120\n");
    behave(&env, &rec, &["--trials", "1", "--dry-run"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "skillsift.toml: [behave] min-quality-delta: 120 is not between -100 and 100 (percentage points)",
        ));
    env.config("[behave]\nmin-quality-delta = 20\n");
    behave(&env, &rec, &["--trials", "1", "--min-quality-delta", "40"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "FAIL  min-quality-delta: quality delta +33.3 < +40.0 points",
        ))
        .stdout(predicate::str::contains(
            "verdict  fail: a gate failed: min-quality-delta",
        ));
}

#[test]
fn assertions_that_do_not_discriminate_are_reported_with_their_fix() {
    let env = Env::new();
    let rec = ten_evals(&env);
    behave(&env, &rec, &["--trials", "1", "--format", "json"])
        .assert()
        .code(0);
    let out = behave(&env, &rec, &["--trials", "1"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("do not discriminate: 20 (same verdict in both arms in every trial)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\"the reply is polite [pass]\" always passes in eval-1, eval-2, eval-3, … (10 cases): remove it, or make it harder"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\"the reply cites the ledger [fail]\" always fails in eval-1, eval-2, eval-3, … (10 cases): repair it"),
        "{stdout}"
    );
    // JSON lists all of them
    let it = env.iteration(1);
    let j = env
        .cmd()
        .args([
            "score",
            "--skill",
            "catalog/skills/demo-skill",
            "--trials",
            "1",
            "--format",
            "json",
        ])
        .arg("--cases")
        .arg(it.join("cases.jsonl"))
        .arg("--observations")
        .arg(it.join("observations.jsonl"))
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&j.stdout).unwrap();
    let nd = doc["expectations"]["non_discriminating"]
        .as_array()
        .unwrap();
    assert_eq!(nd.len(), 20);
    assert_eq!(nd[0]["always"], "passes");
    assert_eq!(nd[1]["always"], "fails");
    assert!(nd[1]["fix"].as_str().unwrap().starts_with("repair it"));
}

/// Every deterministic check, once in an execution eval: the with-skill
/// run makes each pass (or, where marked, fail) and the baseline the
/// opposite.
#[test]
fn each_deterministic_check_passes_and_fails() {
    let env = Env::new();
    let checks = json!([
        {"check": "file_exists", "path": "out/result.txt"},
        {"check": "file_absent", "path": "junk.tmp"},
        {"check": "file_contains", "path": "out/result.txt", "value": "total=42"},
        {"check": "file_matches", "path": "out/result.txt", "regex": "total=\\d+"},
        {"check": "command", "argv": ["test", "-f", "out/result.txt"], "timeout_secs": 10},
        {"check": "answer_contains", "value": "42"},
        {"check": "answer_matches", "regex": "\"total\":\\s*42"},
        {"check": "answer_json", "expected": {"total": 42}},
        {"check": "tool_called", "tool": "Bash"},
        {"check": "tool_not_called", "tool": "WebFetch"},
        {"check": "tool_refused", "tool": "Write"},
        {"check": "skill_loaded", "skill": "demo-skill"},
        {"check": "skill_not_loaded", "skill": "other-skill"},
        {"check": "max_turns", "max": 5},
        {"check": "max_tokens", "max": 1000}
    ]);
    env.cases(&cases_with_evals(json!([{
        "id": 1,
        "prompt": "[rec:checks] The invoice total is off by a cent",
        "expected_output": "the total fixed",
        "files": ["demo-project"],
        "expectations": checks,
    }])));
    let rec = Recordings::new(&env);
    rec.stream(
        "checks.with",
        &Rec {
            turns: 3,
            tokens: 800,
            denials: vec![("Write", json!({"file_path": "/etc/x"}))],
            ..Rec::answer("{\"total\": 42}")
                .loads("demo-skill")
                .call("Bash", json!({"command": "npm test"}))
                .call("Write", json!({"file_path": "/etc/x"}))
        },
    )
    .leaves("checks.with", "out/result.txt", "total=42\n")
    .stream(
        "checks.without",
        &Rec {
            turns: 9,
            tokens: 5000,
            ..Rec::answer("no idea")
                .loads("other-skill")
                .call("WebFetch", json!({"url": "https://example.com"}))
        },
    )
    .leaves("checks.without", "junk.tmp", "x");
    behave(&env, &rec, &["--trials", "1"]).assert().code(3);
    let it = env.iteration(1);
    let with = read_json(&it.join("eval-1/with_skill/run-1/grading.json"));
    let without = read_json(&it.join("eval-1/without_skill/run-1/grading.json"));
    let n = checks.as_array().unwrap().len();
    for i in 0..n {
        let name = checks[i]["check"].as_str().unwrap();
        let (w, o) = (&with["expectations"][i], &without["expectations"][i]);
        assert_eq!(w["check"], name);
        assert_eq!(w["passed"], true, "{name} with: {w}");
        assert_eq!(o["passed"], false, "{name} without: {o}");
        assert!(!o["evidence"].as_str().unwrap().is_empty());
    }
    assert_eq!(with["summary"]["passed"], n);
    // no grader call for an eval of checks only
    assert!(env.grader_calls().is_empty());
    let ev = |i: usize| {
        without["expectations"][i]["evidence"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(ev(0), "`out/result.txt` does not exist");
    assert_eq!(ev(1), "`junk.tmp` exists (1 bytes)");
    assert!(
        ev(4).starts_with("`test -f out/result.txt` exited 1"),
        "{}",
        ev(4)
    );
    assert_eq!(ev(9), "`WebFetch` was called 1 time(s)");
    assert_eq!(
        ev(10),
        "no `Write` call was attempted, so the permission boundary was not tested"
    );
    assert_eq!(ev(12), "loaded: other-skill");
    assert_eq!(ev(13), "9 turns (at most 5)");
    // the run keeps its tool list and the refused call
    let run = read_json(&it.join("eval-1/with_skill/run-1/run.json"));
    assert_eq!(
        run["init_tools"],
        json!(["Bash", "Read", "Edit", "Write", "Skill"])
    );
    assert_eq!(run["permission_denials"][0]["tool"], "Write");
    assert!(
        run["permission_denials"][0]["input"]
            .as_str()
            .unwrap()
            .contains("/etc/x")
    );
    // a permission test refuses nothing it expects: no warning about it
    assert_eq!(run.get("warnings"), None, "{run:#}");
}

#[test]
fn a_check_never_reads_through_a_link_out_of_the_workspace() {
    let env = Env::new();
    let secret = env.tmp.path().join("secret.txt");
    std::fs::write(&secret, "s3cret-value").unwrap();
    env.cases(&cases_with_evals(json!([dialogue(
        1,
        "[rec:link] Show me the total",
        json!([
            {"check": "file_contains", "path": "leak.txt", "value": "s3cret"},
            {"check": "file_exists", "path": "via/secret.txt"}
        ])
    )])));
    let rec = Recordings::new(&env);
    rec.stream("link.with", &Rec::answer("done").loads("demo-skill"))
        .stream("link.without", &Rec::answer("done"));
    let files = rec.path().join("link.files");
    std::fs::create_dir_all(&files).unwrap();
    std::os::unix::fs::symlink(&secret, files.join("leak.txt")).unwrap();
    std::os::unix::fs::symlink(env.tmp.path(), files.join("via")).unwrap();
    behave(&env, &rec, &["--trials", "1"]).assert().code(3);
    let g = read_json(
        &env.iteration(1)
            .join("eval-1/with_skill/run-1/grading.json"),
    );
    for e in g["expectations"].as_array().unwrap() {
        assert_eq!(e["passed"], false, "{e}");
        let ev = e["evidence"].as_str().unwrap();
        assert!(ev.contains("leads outside the workspace"), "{ev}");
        assert!(!ev.contains("s3cret-value"));
    }
}

#[test]
fn evidence_quoting_the_agent_is_escaped_in_the_report() {
    let env = Env::new();
    env.cases(&cases_with_evals(json!([dialogue(
        1,
        "[rec:xssgate] Fix the total",
        json!([{"check": "answer_contains", "value": "DONE", "kind": "blocker"}])
    )])));
    let rec = Recordings::new(&env);
    rec.stream(
        "xssgate.with",
        &Rec::answer("</td></tr><script>alert(1)</script>").loads("demo-skill"),
    )
    .stream("xssgate.without", &Rec::answer("DONE"));
    behave(&env, &rec, &["--trials", "1"]).assert().code(1);
    let html = env
        .cmd()
        .args(["report", "-o", "-"])
        .arg(env.iteration(1))
        .output()
        .unwrap();
    let html = String::from_utf8(html.stdout).unwrap();
    assert!(!html.contains("<script>alert(1)"), "{html}");
    assert!(
        html.contains("&lt;/td&gt;&lt;/tr&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
}

#[test]
fn a_write_capable_mcp_tool_in_the_tool_list_stops_the_evaluation() {
    let env = Env::new();
    env.cases(&behave_support::one_dialogue_eval(
        "[rec:mcp] Fix the total",
        &["it is fixed"],
    ));
    let rec = Recordings::new(&env);
    let mut r = Rec::answer("done").loads("demo-skill");
    r.tools = vec![
        "Bash",
        "mcp__github__get_issue",
        "mcp__github__merge_pull_request",
    ];
    rec.stream("mcp.with", &r);
    rec.stream("mcp.without", &Rec::answer("done"));
    // the trigger prompts come first and are clean; the eval's first run stops it
    behave(&env, &rec, &["--trials", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "Claude Code offered write-capable MCP tools in run eval-1 with #1: mcp__github__merge_pull_request",
        ))
        .stderr(predicate::str::contains("the evaluation stopped after this run"));
    let run = read_json(&env.iteration(1).join("eval-1/with_skill/run-1/run.json"));
    assert_eq!(run["evidence"], false);
    assert!(
        run["init_tools"]
            .as_array()
            .unwrap()
            .contains(&json!("mcp__github__merge_pull_request"))
    );
    assert!(!env.iteration(1).join("eval-1/without_skill/run-1").exists());
}

#[test]
fn an_eval_forbidding_the_skill_is_a_negative_behavioral_case() {
    let env = Env::new();
    env.cases(&cases_with_evals(json!([{
        "id": "unrelated",
        "kind": "dialogue",
        "prompt": "[rec:quiet] What time is it in Lisbon?",
        "expected_output": "the time",
        "expectations": ["it answers [pass]"],
        "forbidden_skills": ["demo-skill"]
    }])));
    behave(&env, &Recordings::new(&env), &["--trials", "1"])
        .assert()
        .code(3);
    let it = env.iteration(1);
    let cases = std::fs::read_to_string(it.join("cases.jsonl")).unwrap();
    let line: Value = serde_json::from_str(cases.lines().last().unwrap()).unwrap();
    assert_eq!(line["expectTrigger"], false);
    assert_eq!(line["expectations"][1]["kind"], "blocker");
    assert_eq!(line["expectations"][1]["check"], "skill_not_loaded");
    let g = read_json(&it.join("eval-unrelated/with_skill/run-1/grading.json"));
    assert_eq!(
        g["expectations"][1]["text"],
        "skill `demo-skill` is not loaded"
    );
    assert_eq!(g["expectations"][1]["passed"], true);
}

#[test]
fn a_runner_is_refused_checks_that_read_a_trace_it_does_not_report() {
    let env = Env::new();
    env.cases(&cases_with_evals(json!([dialogue(
        1,
        "Fix the total",
        json!([{"check": "max_turns", "max": 3}])
    )])));
    env.cmd()
        .args(["check", "--behavioral", "demo-skill", "catalog", "--runner", "fake-runner"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "check `max_turns` reads the agent's trace (tool calls, turns, tokens), which a --runner does not report",
        ));
}

#[test]
fn a_client_whose_stream_lacks_what_a_check_reads_is_refused_before_any_run() {
    let env = Env::new();
    env.cases(&cases_with_evals(json!([dialogue(
        1,
        "Fix the total",
        json!([{"check": "tool_refused", "tool": "Bash"}])
    )])));
    for agent in ["codex", "gemini", "opencode"] {
        env.behave(&["--agent", agent, "--dry-run"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "check `tool_refused` cannot be run with",
            ))
            .stderr(predicate::str::contains(
                "its stream does not say which tool calls its permission system refused",
            ));
    }
    env.behave(&["--agent", "claude", "--dry-run"])
        .assert()
        .code(3);
    env.cases(&cases_with_evals(json!([dialogue(
        1,
        "Fix the total",
        json!([{"check": "max_turns", "max": 3}])
    )])));
    env.behave(&["--agent", "gemini", "--dry-run"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "check `max_turns` cannot be run with Gemini CLI: its stream does not say how many turns a run took",
        ));
    for agent in ["claude", "codex", "opencode"] {
        env.behave(&["--agent", agent, "--dry-run"])
            .assert()
            .code(3);
    }
    assert!(env.calls().is_empty(), "no agent was started");
}

/// A copy of the demo skill as an earlier version: another rule, and the
/// `BASELINE` marker the fake `claude` recognises.
fn old_version(dir: &Path) {
    behave_support::copy_tree(
        &behave_support::fixtures().join("catalog/skills/demo-skill"),
        dir,
    );
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: demo-skill\ndescription: Fixes money rounding bugs. Use when an invoice total is off by a cent.\n---\n# Demo skill (v1)\n\nRound half up.\n",
    )
    .unwrap();
    std::fs::write(dir.join("BASELINE"), "v1\n").unwrap();
}

/// One eval whose expectation passes only with the new rule; the earlier
/// version loads the skill too.
fn version_eval(env: &Env) -> Recordings {
    env.cases(&cases_with_evals(json!([dialogue(
        1,
        "[rec:versus] The invoice total is off by a cent",
        json!(["the banker's rule is applied [pass-if:HALF-EVEN]"])
    )])));
    let rec = Recordings::new(env);
    rec.stream(
        "versus.with",
        &Rec::answer("HALF-EVEN rounding now").loads("demo-skill"),
    )
    .stream(
        "versus.old",
        &Rec::answer("rounded half up").loads("demo-skill"),
    );
    // the trigger prompts load the skill in both arms now
    std::fs::copy(
        rec.path().join("loads.with.jsonl"),
        rec.path().join("loads.old.jsonl"),
    )
    .unwrap();
    rec
}

#[test]
fn a_baseline_folder_runs_in_the_baseline_arm_and_the_arms_are_labelled_and_scored() {
    let env = Env::new();
    old_version(&env.tmp.path().join("demo-skill-v1"));
    let rec = version_eval(&env);
    behave(
        &env,
        &rec,
        &[
            "--trials",
            "1",
            "--trigger-runs",
            "full",
            "--baseline-skill",
            "demo-skill-v1",
        ],
    )
    .env("FAKE_CLAUDE_SKILL", "demo-skill")
    .assert()
    .code(3)
    .stdout(predicate::str::contains(
        "1 trial each, with skill (this version) and baseline demo-skill-v1 (",
    ))
    .stdout(predicate::str::contains(
        "pass rate  with skill 1.000  baseline 0.000",
    ))
    .stdout(predicate::str::contains("uplift     mean(d) +1.000"));
    let it = env.iteration(1);
    let plan = read_json(&it.join("plan.json"));
    assert_eq!(plan["baseline"]["source"], "folder");
    assert_eq!(plan["baseline"]["reference"], "demo-skill-v1");
    assert_ne!(plan["baseline"]["sha256"], plan["skill"]["sha256"]);
    // skill-creator's name for the earlier version's runs
    let old = read_json(&it.join("eval-1/old_skill/run-1/run.json"));
    assert_eq!(old["invoked_skills"], json!(["demo-skill"]));
    assert!(!it.join("eval-1/without_skill").exists());
    let bench = read_json(&it.join("benchmark.json"));
    assert!(
        bench["run_summary"]["old_skill"]["pass_rate"].is_object(),
        "{bench:#}"
    );
    // the earlier version was installed where the skill goes, in that arm only
    let calls = env.executor_calls();
    let marker = "./.claude/skills/demo-skill/BASELINE";
    assert!(
        calls[0].files.iter().all(|f| f != marker),
        "with arm: {:?}",
        calls[0].files
    );
    assert!(
        calls[1].files.iter().any(|f| f == marker),
        "baseline arm: {:?}",
        calls[1].files
    );
    // JSON, JUnit and HTML name the arms
    let score = |format: &str| {
        env.cmd()
            .args(["merge", "--format", format, "--out"])
            .arg(env.tmp.path().join(format!("merged-{format}")))
            .arg(&it)
            .output()
            .unwrap()
    };
    let doc: Value = serde_json::from_slice(&score("json").stdout).unwrap();
    assert_eq!(doc["arms"]["with"], "with skill (this version)");
    assert!(
        doc["arms"]["without"]
            .as_str()
            .unwrap()
            .starts_with("baseline demo-skill-v1 (")
    );
    let x = String::from_utf8(score("junit").stdout).unwrap();
    assert!(
        x.contains("<property name=\"arm_without\" value=\"baseline demo-skill-v1 ("),
        "{x}"
    );
    let html = env
        .cmd()
        .args(["report", "-o", "-"])
        .arg(&it)
        .output()
        .unwrap();
    let html = String::from_utf8(html.stdout).unwrap();
    assert!(
        html.contains("arms: <b>with skill (this version)</b> and <b>baseline demo-skill-v1 ("),
        "{html}"
    );
}

/// Every file under `dir` with its bytes, `evals/results/` left out.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().display().to_string();
            if rel == "evals/results" {
                continue;
            }
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                walk(root, &p, out);
            } else {
                out.push((rel, std::fs::read(&p).unwrap_or_default()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn git(dir: &Path, args: &[&str]) {
    let ok = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .status()
        .unwrap()
        .success();
    assert!(ok, "git {args:?}");
}

#[test]
fn a_baseline_git_revision_is_read_without_touching_the_working_tree_or_index() {
    let env = Env::new();
    let skill = env.root.join("skills/demo-skill");
    let current = std::fs::read(skill.join("SKILL.md")).unwrap();
    // v1 committed, then the current version on top, then uncommitted work
    let v1 = env.tmp.path().join("old/v1");
    old_version(&v1);
    std::fs::copy(v1.join("SKILL.md"), skill.join("SKILL.md")).unwrap();
    std::fs::copy(v1.join("BASELINE"), skill.join("BASELINE")).unwrap();
    git(&env.root, &["init", "-q", "-b", "main"]);
    git(&env.root, &["add", "-A"]);
    git(&env.root, &["commit", "-qm", "v1"]);
    git(&env.root, &["tag", "v1"]);
    std::fs::write(skill.join("SKILL.md"), &current).unwrap();
    std::fs::remove_file(skill.join("BASELINE")).unwrap();
    git(&env.root, &["commit", "-qam", "v2"]);
    std::fs::write(env.root.join("NOTES.md"), "work in progress\n").unwrap();
    let rec = version_eval(&env);
    let before = snapshot(&env.root);
    behave(
        &env,
        &rec,
        &[
            "--trials",
            "1",
            "--trigger-runs",
            "full",
            "--baseline-skill",
            "v1",
        ],
    )
    .env("FAKE_CLAUDE_SKILL", "demo-skill")
    .assert()
    .code(3)
    .stdout(predicate::str::contains(
        "with skill (this version) and baseline v1 (",
    ))
    .stdout(predicate::str::contains(
        "pass rate  with skill 1.000  baseline 0.000",
    ));
    assert_eq!(
        snapshot(&env.root),
        before,
        "the working tree and .git are byte-identical"
    );
    let plan = read_json(&env.iteration(1).join("plan.json"));
    assert_eq!(plan["baseline"]["source"], "git");
    assert_eq!(plan["baseline"]["path"], "skills/demo-skill");
    assert_eq!(plan["baseline"]["commit"].as_str().unwrap().len(), 40);
    let calls = env.executor_calls();
    assert!(
        calls[1]
            .files
            .iter()
            .any(|f| f == "./.claude/skills/demo-skill/BASELINE")
    );
    // a revision that does not exist, or one without the skill
    behave(
        &env,
        &rec,
        &[
            "--trials",
            "1",
            "--trigger-runs",
            "full",
            "--baseline-skill",
            "no-such-tag",
        ],
    )
    .assert()
    .code(2)
    .stderr(predicate::str::contains(
        "`no-such-tag` is not a revision of",
    ));
    behave(
        &env,
        &rec,
        &[
            "--trials",
            "1",
            "--trigger-runs",
            "full",
            "--baseline-skill",
            "HEAD~5",
        ],
    )
    .assert()
    .code(2);
    // a name that is a folder and a revision is refused, unless written as a path
    old_version(&env.tmp.path().join("v1"));
    behave(
        &env,
        &rec,
        &[
            "--trials",
            "1",
            "--trigger-runs",
            "full",
            "--baseline-skill",
            "v1",
        ],
    )
    .assert()
    .code(2)
    .stderr(predicate::str::contains("both a folder and a git revision"))
    .stderr(predicate::str::contains("write `./v1` for the folder"));
    behave(
        &env,
        &rec,
        &[
            "--trials",
            "1",
            "--trigger-runs",
            "full",
            "--baseline-skill",
            "./v1",
        ],
    )
    .env("FAKE_CLAUDE_SKILL", "demo-skill")
    .assert()
    .code(3);
    assert_eq!(
        read_json(&env.iteration(2).join("plan.json"))["baseline"]["source"],
        "folder"
    );
}

#[test]
fn siblings_are_installed_in_both_arms_and_a_stolen_sibling_prompt_fails_the_run() {
    let env = Env::new();
    std::fs::write(
        env.root.join("evals/cases/other-skill.json"),
        json!({
            "skill_name": "other-skill",
            "trigger": {
                "positive": [
                    {"prompt": "[rec:sib] Update the architecture diagram in the docs"},
                    {"prompt": "[rec:steal] Redraw the service diagram for the docs"}
                ],
                "negative": [{"prompt": "What time is it in Lisbon?"}]
            },
            "evals": [{"id": 1, "kind": "dialogue", "prompt": "Which diagram first?", "expected_output": "a question", "expectations": ["it asks"]}]
        })
        .to_string(),
    )
    .unwrap();
    env.cases(&behave_support::one_dialogue_eval(
        "[rec:chat] Ask me about rounding",
        &["it asks"],
    ));
    let rec = Recordings::new(&env);
    rec.stream("sib.with", &Rec::answer("drew it").loads("other-skill"))
        .stream("sib.without", &Rec::answer("drew it").loads("other-skill"))
        .stream(
            "steal.with",
            &Rec::answer("fixed money").loads("demo-skill"),
        )
        .stream(
            "steal.without",
            &Rec::answer("drew it").loads("other-skill"),
        );
    behave(
        &env,
        &rec,
        &["--trials", "1", "--with-siblings", "--dry-run"],
    )
    .assert()
    .code(3)
    .stdout(predicate::str::contains(
        "siblings 1 other skill installed in both arms: other-skill",
    ))
    .stdout(predicate::str::contains(
        "sibling-other-skill-2 without #1 empty git repository; no skill (+ 1 siblings)",
    ));
    behave(&env, &rec, &["--trials", "1", "--with-siblings"])
        .env("FAKE_CLAUDE_SKILL", "demo-skill")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("trigger theft: 1 of 2 sibling prompts taken"))
        .stdout(predicate::str::contains(
            "sibling-other-skill-2 (owned by `other-skill`): the tested skill loaded in 1 of 1 runs; `other-skill` loaded in 0 with it, 1 without it",
        ))
        .stdout(predicate::str::contains(
            "FAIL  no-trigger-theft: 1 sibling prompt taken by the tested skill",
        ));
    let calls = env.executor_calls();
    for c in &calls {
        assert!(
            c.files
                .iter()
                .any(|f| f == "./.claude/skills/other-skill/SKILL.md"),
            "the sibling is installed in every run: {:?}",
            c.files
        );
    }
    let plan = read_json(&env.iteration(1).join("plan.json"));
    assert_eq!(plan["siblings"][0]["name"], "other-skill");
    let cases = std::fs::read_to_string(env.iteration(1).join("cases.jsonl")).unwrap();
    assert!(cases.contains("\"owner\":\"other-skill\""), "{cases}");
}

/// `--with-siblings` installs the skills installed with the tested one: a
/// plugin of the catalog (`plugins/shop/skills/cart-export/`) is installed
/// on its own by its users, so it is no sibling of the catalog's own
/// skills, and its prompts are no sibling prompts.
#[test]
fn siblings_are_the_skills_of_the_tested_skills_installation() {
    let env = Env::new();
    let cart = env.root.join("plugins/shop/skills/cart-export");
    std::fs::create_dir_all(&cart).unwrap();
    std::fs::write(
        cart.join("SKILL.md"),
        "---\nname: cart-export\ndescription: Export shopping cart orders to a CSV file.\n---\n# Cart export\n",
    )
    .unwrap();
    std::fs::write(
        env.root.join("evals/cases/cart-export.json"),
        json!({"skill_name": "cart-export", "trigger": {"positive": [{"prompt": "export the cart orders to CSV"}], "negative": []}})
            .to_string(),
    )
    .unwrap();
    env.cases(&behave_support::one_dialogue_eval(
        "[rec:chat] Ask me about rounding",
        &["it asks"],
    ));
    let rec = Recordings::new(&env);
    let out = behave(
        &env,
        &rec,
        &["--trials", "1", "--with-siblings", "--dry-run"],
    )
    .assert()
    .code(3);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("siblings 1 other skill installed in both arms: other-skill"),
        "{stdout}"
    );
    assert!(!stdout.contains("cart-export"), "{stdout}");
}
