//! `--format junit` of `check`, `check --behavioral`, `merge` and `score`,
//! read back with a real XML parser (quick-xml): the document must be
//! well-formed, its counts must add up, and hostile text must come back
//! exactly as written.

mod common;
mod report_support;

use common::skillsift;
use quick_xml::events::Event;
use report_support::behave::Env;
use report_support::{HOSTILE, hostile_catalog, noresult_eval, scored_cases, xss_eval};
use std::collections::BTreeMap;
use std::path::Path;

/// An element: its name, attributes, text and children.
#[derive(Debug, Default, Clone)]
struct El {
    name: String,
    attrs: BTreeMap<String, String>,
    text: String,
    children: Vec<El>,
}

impl El {
    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a El> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    fn child(&self, name: &str) -> Option<&El> {
        self.children.iter().find(|c| c.name == name)
    }

    fn attr(&self, name: &str) -> &str {
        self.attrs.get(name).map_or("", String::as_str)
    }

    fn num(&self, name: &str) -> usize {
        self.attr(name)
            .parse()
            .unwrap_or_else(|_| panic!("{name} of {self:?}"))
    }
}

/// Parse a whole document; panics on anything that is not well-formed.
fn parse(xml: &str) -> El {
    let mut r = quick_xml::Reader::from_str(xml);
    r.config_mut().check_end_names = true;
    let mut stack: Vec<El> = vec![El::default()];
    let start = |e: &quick_xml::events::BytesStart| {
        let mut el = El {
            name: e.name().as_ref().to_string(),
            ..El::default()
        };
        for a in e.attributes() {
            let a = a.expect("well-formed attribute");
            let v = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .expect("attribute value escapes");
            el.attrs.insert(a.key.as_ref().to_string(), v.into_owned());
        }
        el
    };
    loop {
        match r.read_event().expect("well-formed XML") {
            Event::Start(e) => stack.push(start(&e)),
            Event::Empty(e) => {
                let el = start(&e);
                stack.last_mut().unwrap().children.push(el);
            }
            Event::End(_) => {
                let el = stack.pop().unwrap();
                stack.last_mut().unwrap().children.push(el);
            }
            Event::Text(t) => stack.last_mut().unwrap().text.push_str(&t.xml10_content()),
            Event::GeneralRef(g) => {
                let s = match g.resolve_char_ref().expect("valid character reference") {
                    Some(c) => c.to_string(),
                    None => quick_xml::escape::resolve_predefined_entity(&g)
                        .expect("a predefined entity")
                        .to_string(),
                };
                stack.last_mut().unwrap().text.push_str(&s);
            }
            Event::CData(_) => panic!("no CDATA is written"),
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(stack.len(), 1, "every element is closed");
    let mut doc = stack.pop().unwrap();
    assert_eq!(doc.children.len(), 1, "one root element");
    doc.children.pop().unwrap()
}

/// Check the counts of `<testsuites>` and each `<testsuite>` against the
/// testcases they hold; return the root.
fn checked(xml: &str) -> El {
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    let root = parse(xml);
    assert_eq!(root.name, "testsuites");
    let mut totals = [0usize; 4];
    for s in root.all("testsuite") {
        let cases: Vec<&El> = s.all("testcase").collect();
        let n = |kind: &str| cases.iter().filter(|c| c.child(kind).is_some()).count();
        let got = [cases.len(), n("failure"), n("error"), n("skipped")];
        let said = [
            s.num("tests"),
            s.num("failures"),
            s.num("errors"),
            s.num("skipped"),
        ];
        assert_eq!(got, said, "counts of suite {}", s.attr("name"));
        for (t, g) in totals.iter_mut().zip(got) {
            *t += g;
        }
        for c in &cases {
            assert!(!c.attr("name").is_empty() && !c.attr("classname").is_empty());
        }
    }
    assert_eq!(
        totals,
        [
            root.num("tests"),
            root.num("failures"),
            root.num("errors"),
            root.num("skipped")
        ]
    );
    root
}

fn suite<'a>(root: &'a El, name: &str) -> &'a El {
    root.all("testsuite")
        .find(|s| s.attr("name") == name)
        .unwrap_or_else(|| panic!("no suite {name}"))
}

fn case(s: &El, f: impl Fn(&El) -> bool) -> &El {
    s.all("testcase").find(|c| f(c)).expect("the testcase")
}

fn run(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let out = skillsift().args(args).current_dir(dir).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn check_lists_every_file_and_prompt_and_fails_the_misrouted_prompt() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("evals/fixtures");
    let (code, xml) = run(&["check", "misrouted-prompt", "--format", "junit"], &dir);
    assert_eq!(code, Some(1));
    let root = checked(&xml);
    assert_eq!(root.attr("name"), "skillsift check");
    let lint = suite(&root, "skillsift.lint");
    let names: Vec<&str> = lint.all("testcase").map(|c| c.attr("name")).collect();
    assert_eq!(
        names,
        [
            "misrouted-prompt/evals/cases/code-cleanup.json",
            "misrouted-prompt/evals/cases/debugging.json",
            "misrouted-prompt/evals/cases/suite-stability.json",
            "misrouted-prompt/skills/code-cleanup/SKILL.md",
            "misrouted-prompt/skills/debugging/SKILL.md",
            "misrouted-prompt/skills/suite-stability/SKILL.md",
        ]
    );
    assert_eq!(lint.num("failures"), 0);
    let routing = suite(&root, "skillsift.routing");
    let failed = case(routing, |c| c.child("failure").is_some());
    assert_eq!(
        failed.attr("classname"),
        "skillsift.routing.suite-stability"
    );
    assert_eq!(
        failed.attr("name"),
        "positive: clean up the flaky integration tests"
    );
    assert_eq!(
        failed.attr("file"),
        "misrouted-prompt/evals/cases/suite-stability.json"
    );
    assert_eq!(failed.attr("line"), "5");
    let f = failed.child("failure").unwrap();
    assert_eq!(f.attr("type"), "SG501");
    assert_eq!(
        f.attr("message"),
        "SG501: `suite-stability`: positive prompt ranked #2 (need top 1)"
    );
    assert!(f.text.starts_with("misrouted-prompt/evals/cases/suite-stability.json:5:19: error[SG501] positive-prompt-missed: `suite-stability`: positive prompt ranked #2 (need top 1)\n  help: top 3: `code-cleanup` (1.46)"), "{}", f.text);
    assert_eq!(routing.num("failures"), 1);
    // 18 prompts, 3 descriptions, the rank-1 rate
    assert_eq!(routing.num("tests"), 18 + 3 + 1);
    let rate = case(routing, |c| c.attr("name") == "rank-1 rate");
    assert_eq!(
        rate.child("system-out").unwrap().text,
        "trigger rank-1 rate: 83% (10/12 positive prompts rank their skill first)"
    );
    // byte-identical again
    assert_eq!(
        xml,
        run(&["check", "misrouted-prompt", "--format", "junit"], &dir).1
    );
}

#[test]
fn hostile_text_comes_back_exactly_and_forbidden_characters_are_replaced() {
    let t = tempfile::tempdir().unwrap();
    let root = hostile_catalog(t.path());
    // a prompt with control characters and a CDATA terminator
    let cases = root.join("evals/cases/tables.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cases).unwrap()).unwrap();
    doc["trigger"]["positive"][1]["prompt"] = "tables ]]> \u{1}\u{1b} &amp; <![CDATA[x]]>".into();
    std::fs::write(&cases, doc.to_string()).unwrap();
    let (code, xml) = run(&["check", "hostile", "--format", "junit"], t.path());
    assert_eq!(code, Some(1));
    let root = checked(&xml);
    let routing = suite(&root, "skillsift.routing");
    let names: Vec<&str> = routing.all("testcase").map(|c| c.attr("name")).collect();
    assert!(
        names.contains(&format!("positive: format tables {HOSTILE}").as_str()),
        "{names:?}"
    );
    assert!(
        names.contains(&"positive: tables ]]> \u{FFFD}\u{FFFD} &amp; <![CDATA[x]]>"),
        "{names:?}"
    );
    let js = case(routing, |c| {
        c.attr("classname") == "skillsift.routing.javascript:alert(1)"
    });
    assert_eq!(
        js.attr("file"),
        "hostile/evals/cases/javascript:alert(1).json"
    );
    // the failure text and message keep quotes, apostrophes and line ends
    let lint = suite(&root, "skillsift.lint");
    let f = case(lint, |c| {
        c.attr("name") == "hostile/skills/javascript:alert(1)/SKILL.md"
    })
    .child("failure")
    .unwrap();
    assert!(
        f.text
            .contains("\n  help: write `name: javascript-alert-1`"),
        "{}",
        f.text
    );
    // warnings are listed, not failed
    let desc = case(routing, |c| {
        c.attr("name") == "hostile/skills/charts/SKILL.md"
    });
    assert!(desc.child("failure").is_none());
    assert!(
        desc.child("system-out")
            .unwrap()
            .text
            .contains("warning[SG511] description-overlap")
    );
}

#[test]
fn an_iteration_gives_trigger_task_and_gate_suites() {
    let env = Env::new();
    env.cases(&scored_cases(Some(xss_eval())));
    let out = env
        .behave(&["--trials", "2", "--format", "junit", "--min-uplift", "0.9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "the uplift gate fails");
    let xml = String::from_utf8(out.stdout).unwrap();
    let root = checked(&xml);
    let trigger = suite(&root, "demo-skill.trigger");
    assert_eq!(trigger.num("tests"), 16);
    assert_eq!(trigger.num("failures"), 0);
    let hostile = case(trigger, |c| c.attr("name").starts_with("eval-11: "));
    assert_eq!(
        hostile.attr("name"),
        format!("eval-11: [rec:xss] {HOSTILE}")
    );
    let task = suite(&root, "demo-skill.task");
    assert_eq!(task.num("tests"), 11);
    let wrong = case(task, |c| c.attr("name").starts_with("eval-8: "));
    let f = wrong
        .child("failure")
        .expect("with the skill, eval 8 fails");
    assert_eq!(
        f.attr("message"),
        "with the skill the task passed in 0 of 2 runs (0 of 2 without)"
    );
    assert!(f.text.contains("with #1: failed: The agent asks how the bank rounds\n  evidence: fake grader, mode fail"), "{}", f.text);
    assert_eq!(task.num("failures"), 1);
    let gates = suite(&root, "demo-skill.gates");
    let names: Vec<&str> = gates.all("testcase").map(|c| c.attr("name")).collect();
    assert_eq!(names, ["evidence", "min-uplift"]);
    let g = case(gates, |c| c.attr("name") == "min-uplift")
        .child("failure")
        .unwrap();
    assert!(
        g.attr("message").starts_with("--min-uplift: +0."),
        "{}",
        g.attr("message")
    );
    let props: BTreeMap<&str, &str> = gates
        .child("properties")
        .unwrap()
        .all("property")
        .map(|p| (p.attr("name"), p.attr("value")))
        .collect();
    assert_eq!(props["verdict"], "fail");
    assert_eq!(props["trials"], "2");

    // merge gives the same document for the same runs
    let it = env.iteration(1);
    let out = env
        .cmd()
        .arg("merge")
        .arg(&it)
        .args([
            "--out",
            "merged",
            "--format",
            "junit",
            "--min-uplift",
            "0.9",
        ])
        .arg("--skill")
        .arg(env.root.join("skills/demo-skill"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), xml);
}

#[test]
fn a_run_without_a_verdict_is_an_error_not_a_failure() {
    let env = Env::new();
    env.cases(&scored_cases(Some(noresult_eval())));
    let out = env
        .behave(&["--trials", "1", "--format", "junit"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let root = checked(&String::from_utf8(out.stdout).unwrap());
    let trigger = suite(&root, "demo-skill.trigger");
    assert_eq!(trigger.num("errors"), 1);
    assert_eq!(trigger.num("failures"), 0);
    let e = case(trigger, |c| c.child("error").is_some())
        .child("error")
        .unwrap();
    assert_eq!(
        e.attr("message"),
        "no verdict in 2 of 2 runs: with #1: the stream has no `result` line: the run did not finish"
    );
    let gates = suite(&root, "demo-skill.gates");
    assert!(
        case(gates, |c| c.attr("name") == "evidence")
            .child("error")
            .is_some()
    );
    // a shard is not scored: every case is skipped, with the reason
    env.cases(&scored_cases(None));
    let out = env
        .behave(&["--trials", "1", "--format", "junit", "--shard", "1/2"])
        .output()
        .unwrap();
    let root = checked(&String::from_utf8(out.stdout).unwrap());
    let task = suite(&root, "demo-skill.task");
    let skipped: Vec<&El> = task
        .all("testcase")
        .filter_map(|c| c.child("skipped"))
        .collect();
    assert_eq!(skipped.len(), 10, "every eval");
    assert!(
        skipped[0]
            .attr("message")
            .starts_with("not scored: shard 1/2 holds part of the runs")
    );
}

#[test]
fn score_writes_one_testcase_per_case_and_per_gate() {
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/score/example");
    let out = skillsift()
        .args(["score", "--skill"])
        .arg(ex.join("refund-policy"))
        .arg("--cases")
        .arg(ex.join("cases.jsonl"))
        .arg("--observations")
        .arg(ex.join("observations.jsonl"))
        .args([
            "--min-trigger-f1",
            "0.95",
            "--min-uplift",
            "0.1",
            "--format",
            "junit",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "F1 0.913 is below 0.95");
    let root = checked(&String::from_utf8(out.stdout).unwrap());
    let lines = std::fs::read_to_string(ex.join("cases.jsonl")).unwrap();
    let trigger = suite(&root, "refund-policy.trigger");
    assert_eq!(
        trigger.num("tests"),
        lines.lines().filter(|l| !l.trim().is_empty()).count()
    );
    // the missed trigger of the human report
    let missed = case(trigger, |c| {
        c.attr("name").starts_with("chargeback-dispute: ")
    });
    assert!(
        missed
            .child("failure")
            .unwrap()
            .attr("message")
            .starts_with("missed trigger: loaded in 1 of 3 with-skill runs")
    );
    let gates = suite(&root, "refund-policy.gates");
    let f1 = case(gates, |c| c.attr("name") == "min-trigger-f1");
    assert_eq!(
        f1.child("failure").unwrap().attr("message"),
        "--min-trigger-f1: 0.913 < 0.950"
    );
    let up = case(gates, |c| c.attr("name") == "min-uplift");
    assert!(up.child("failure").is_none());
    assert_eq!(up.child("system-out").unwrap().text, "+0.300 ≥ +0.100");
}

#[test]
fn observations_of_several_clients_give_one_document_with_each_clients_suites() {
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/score/example");
    let t = tempfile::tempdir().unwrap();
    let lines = std::fs::read_to_string(ex.join("observations.jsonl")).unwrap();
    let mut both = String::new();
    for client in ["claude", "codex"] {
        for l in lines.lines().filter(|l| !l.trim().is_empty()) {
            both.push_str(&l.replacen('{', &format!("{{\"client\":\"{client}\","), 1));
            both.push('\n');
        }
    }
    let obs = t.path().join("observations.jsonl");
    std::fs::write(&obs, both).unwrap();
    let out = skillsift()
        .args(["score", "--skill"])
        .arg(ex.join("refund-policy"))
        .arg("--cases")
        .arg(ex.join("cases.jsonl"))
        .arg("--observations")
        .arg(&obs)
        .args(["--min-trigger-f1", "0.95", "--format", "junit"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "F1 0.913 is below 0.95 for both"
    );
    let xml = String::from_utf8(out.stdout).unwrap();
    let root = checked(&xml);
    assert_eq!(root.attr("name"), "skillsift behavioral refund-policy");
    let names: Vec<&str> = root.all("testsuite").map(|s| s.attr("name")).collect();
    assert_eq!(
        names,
        [
            "claude.refund-policy.trigger",
            "claude.refund-policy.task",
            "claude.refund-policy.gates",
            "codex.refund-policy.trigger",
            "codex.refund-policy.task",
            "codex.refund-policy.gates",
        ]
    );
    for client in ["claude", "codex"] {
        let gates = suite(&root, &format!("{client}.refund-policy.gates"));
        let props = gates.child("properties").unwrap();
        let client_prop = props.all("property").find(|p| p.attr("name") == "client");
        assert_eq!(client_prop.unwrap().attr("value"), client);
        let f1 = case(gates, |c| c.attr("name") == "min-trigger-f1");
        assert_eq!(
            f1.attr("classname"),
            format!("{client}.refund-policy.gates")
        );
        assert_eq!(
            f1.child("failure").unwrap().attr("message"),
            "--min-trigger-f1: 0.913 < 0.950"
        );
    }
}
