//! A scripted model for the real Claude Code CLI, and a lab that drives
//! `skillgate check --behavioral` through it end to end.
//!
//! [`Endpoint`] is a [`skillgate::loopback::Server`] answering the Messages
//! API from a [`Script`]: the model calls `Skill` when the listing names
//! the skill (or always, like a model guessing a name), runs one `Bash`
//! command, and finishes with text; a grader prompt gets a valid, failing,
//! invalid, invalid-then-valid or fenced reply; `hang` never answers an agent
//! turn in time. Every request is recorded and classified ([`Kind`]): agent
//! turns (tools offered), grader calls (no tools, a fenced trace), and side
//! requests (anything else, e.g. the session title).
//!
//! [`Lab`] is a temporary folder with a two-skill catalog, a private HOME
//! and TMPDIR, and the `skillgate` command pointed at the CLI and the
//! endpoint (`ANTHROPIC_BASE_URL`, a dummy `ANTHROPIC_API_KEY`). Nothing
//! here reaches beyond 127.0.0.1.
#![allow(dead_code)]

use serde_json::{Value, json};
use skillgate::loopback::anthropic::{self, Turn};
use skillgate::loopback::{Request, Server};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// When the model calls `Skill`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Load {
    Never,
    /// When the request's listing names the skill.
    WhenListed,
    /// Whatever the listing says (a model guessing a name).
    Always,
}

/// How the grader replies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grade {
    /// Valid JSON, every expectation passed.
    Pass,
    /// Valid JSON, every expectation failed.
    Fail,
    /// Prose, never JSON.
    Invalid,
    /// Prose, then valid once the prompt says the reply was rejected.
    InvalidThenValid,
    /// Valid JSON inside a ```json fence, after a sentence.
    Fenced,
}

/// What the model does.
#[derive(Debug, Clone)]
pub struct Script {
    /// The name the model asks `Skill` for.
    pub skill: String,
    pub load: Load,
    /// Text whose presence in a request means the listing names the skill.
    pub listed_as: String,
    /// Load only when the user's prompt contains this.
    pub cue: Option<String>,
    /// A `Bash` command run after the load (if any), before the answer.
    pub bash: Option<String>,
    pub answer: String,
    pub grade: Grade,
    /// Never answer an agent turn (until the endpoint stops).
    pub hang: bool,
}

impl Script {
    pub fn new(skill: &str) -> Script {
        Script {
            skill: skill.into(),
            load: Load::WhenListed,
            listed_as: format!("- {skill}: "),
            cue: None,
            bash: None,
            answer: "Done: the total is right now.".into(),
            grade: Grade::Pass,
            hang: false,
        }
    }

    pub fn load(mut self, load: Load) -> Script {
        self.load = load;
        self
    }

    pub fn listed_as(mut self, text: &str) -> Script {
        self.listed_as = text.into();
        self
    }

    pub fn cue(mut self, cue: &str) -> Script {
        self.cue = Some(cue.into());
        self
    }

    pub fn bash(mut self, command: &str) -> Script {
        self.bash = Some(command.into());
        self
    }

    pub fn grade(mut self, grade: Grade) -> Script {
        self.grade = grade;
        self
    }

    pub fn hang(mut self) -> Script {
        self.hang = true;
        self
    }
}

/// What a recorded request was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A turn of an agent run (tools offered).
    Agent,
    /// A grader call (no tools, a fenced trace).
    Grader,
    /// A model request that is neither (the session title, …).
    Side,
    /// Not a model request (`HEAD /`, token counting).
    Other,
}

pub fn kind(req: &Request) -> Kind {
    if !anthropic::is_messages(req) {
        return Kind::Other;
    }
    let body = req.json().unwrap_or(Value::Null);
    if anthropic::is_title_request(&body) {
        Kind::Side
    } else if !anthropic::tool_names(&body).is_empty() {
        Kind::Agent
    } else if anthropic::texts(&body)
        .iter()
        .any(|t| t.contains("BEGIN-UNTRUSTED-TRACE-"))
    {
        Kind::Grader
    } else {
        Kind::Side
    }
}

/// The text of the user's prompt in a request: the last text block of its
/// first message (Claude Code puts its reminders before it).
pub fn user_prompt(body: &Value) -> String {
    let first = &body["messages"][0]["content"];
    match first {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .next_back()
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    }
}

/// Every text of a request joined (system prompt, messages, tool results).
pub fn all_text(body: &Value) -> String {
    let mut t = anthropic::texts(body);
    t.push(anthropic::system_text(body));
    t.join("\n")
}

fn agent_turn(s: &Script, body: &Value) -> Turn {
    let used = anthropic::tool_uses(body);
    let cue = s
        .cue
        .as_ref()
        .is_none_or(|c| user_prompt(body).contains(c.as_str()));
    let listed = anthropic::texts(body)
        .iter()
        .any(|t| t.contains(&s.listed_as));
    let wants = cue
        && match s.load {
            Load::Never => false,
            Load::WhenListed => listed,
            Load::Always => true,
        };
    if wants && !used.iter().any(|u| u.name == "Skill") {
        return Turn::tool("skill", "Skill", json!({"skill": s.skill}));
    }
    if let Some(cmd) = &s.bash
        && !used.iter().any(|u| u.name == "Bash")
    {
        return Turn::tool(
            "bash",
            "Bash",
            json!({"command": cmd, "description": "scripted"}),
        );
    }
    Turn::text(s.answer.clone())
}

/// The expectations listed in a grader prompt.
pub fn expectations(prompt: &str) -> Vec<String> {
    prompt
        .lines()
        .skip_while(|l| !l.starts_with("Expectations, to be graded"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_once(". ").map_or(l, |(_, e)| e).to_string())
        .collect()
}

fn grader_turn(s: &Script, body: &Value) -> Turn {
    let prompt = anthropic::texts(body).join("\n");
    let list = expectations(&prompt);
    let passed = s.grade != Grade::Fail;
    let valid = json!({
        "expectations": list.iter().map(|e| json!({"text": e, "passed": passed, "evidence": "scripted grader"})).collect::<Vec<_>>(),
        "summary": {"passed": 0, "failed": 0, "total": list.len(), "pass_rate": 0.0},
    })
    .to_string();
    let invalid = "I think the agent did fine overall.".to_string();
    Turn::text(match s.grade {
        Grade::Pass | Grade::Fail => valid,
        Grade::Invalid => invalid,
        Grade::InvalidThenValid if prompt.contains("Your previous reply was rejected") => valid,
        Grade::InvalidThenValid => invalid,
        Grade::Fenced => format!("Here is my grading:\n```json\n{valid}\n```\n"),
    })
}

/// The scripted endpoint.
pub struct Endpoint {
    pub server: Server,
}

impl Endpoint {
    pub fn start(script: Script) -> Endpoint {
        let s = Arc::new(script);
        let server = Server::start(move |req| {
            if let Some(r) = anthropic::housekeeping(req) {
                return r;
            }
            let body = req.json().unwrap_or(Value::Null);
            match kind(req) {
                Kind::Agent if s.hang => {
                    anthropic::reply(req, &Turn::text("too late")).delayed(Duration::from_secs(600))
                }
                Kind::Agent => anthropic::reply(req, &agent_turn(&s, &body)),
                Kind::Grader => anthropic::reply(req, &grader_turn(&s, &body)),
                Kind::Side | Kind::Other => {
                    anthropic::reply(req, &Turn::text("Scripted session title"))
                }
            }
        })
        .expect("the loopback endpoint starts");
        Endpoint { server }
    }

    pub fn url(&self) -> String {
        self.server.url()
    }

    /// The bodies of the recorded requests of one kind, in arrival order.
    pub fn bodies(&self, k: Kind) -> Vec<Value> {
        self.server
            .requests()
            .iter()
            .filter(|r| kind(r) == k)
            .map(|r| r.json().unwrap_or(Value::Null))
            .collect()
    }

    /// The first model request of every agent run (no assistant turn in
    /// its conversation yet), in order.
    pub fn runs(&self) -> Vec<Value> {
        self.bodies(Kind::Agent)
            .into_iter()
            .filter(|b| {
                !b["messages"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|m| m["role"] == "assistant")
            })
            .collect()
    }

    /// Whether the listing of an agent request names `skill`.
    pub fn lists(body: &Value, skill: &str) -> bool {
        anthropic::texts(body)
            .iter()
            .any(|t| t.contains(&format!("- {skill}: ")))
    }
}

/// The skill under test.
pub const DEMO_SKILL: &str = "---\nname: demo-skill\ndescription: Fixes money rounding bugs test-first. Use when an invoice total is off by a cent.\n---\n# Demo skill\n\nWrite a failing test for the rounding first, then fix it.\n";

/// A case file for `demo-skill`.
pub fn cases(positive: &[&str], negative: &[&str], evals: Value) -> String {
    json!({
        "skill_name": "demo-skill",
        "trigger": {
            "positive": positive.iter().map(|p| json!({"prompt": p})).collect::<Vec<_>>(),
            "negative": negative.iter().map(|p| json!({"prompt": p, "owner": "other-skill"})).collect::<Vec<_>>(),
        },
        "evals": evals,
    })
    .to_string()
}

/// One dialogue eval.
pub fn dialogue(prompt: &str) -> Value {
    json!([{
        "id": 1,
        "kind": "dialogue",
        "prompt": prompt,
        "expected_output": "A question about the rounding rule",
        "expectations": ["It asks which rounding rule applies"],
    }])
}

/// One execution eval on the `demo-project` fixture.
pub fn execution(prompt: &str) -> Value {
    json!([{
        "id": 1,
        "prompt": prompt,
        "expected_output": "A failing test, then the fix",
        "expectations": ["A test is written before the fix", "The suite passes"],
        "files": ["demo-project"],
    }])
}

/// A temporary catalog, HOME and TMPDIR, and an endpoint.
pub struct Lab {
    pub tmp: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    /// `TMPDIR` of the skillgate process: where workspaces and run homes go.
    pub tmpdir: PathBuf,
    pub endpoint: Endpoint,
}

fn write(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

impl Lab {
    /// A lab whose `[behave] claude` is `claude` and whose case file holds
    /// `case_file`.
    pub fn new(claude: &Path, script: Script, case_file: &str) -> Lab {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let root = base.join("catalog");
        write(&root.join("skills/demo-skill/SKILL.md"), DEMO_SKILL);
        write(
            &root.join("skills/other-skill/SKILL.md"),
            "---\nname: other-skill\ndescription: Draws architecture diagrams. Use when the docs need a new diagram.\n---\n# Other\n",
        );
        write(
            &root.join("evals/cases/other-skill.json"),
            &json!({"skill_name": "other-skill", "trigger": {"positive": [{"prompt": "Draw the architecture diagram"}], "negative": []}, "evals": [{"id": 1, "kind": "dialogue", "prompt": "Draw it", "expected_output": "a diagram", "expectations": ["It draws"]}]}).to_string(),
        );
        write(&root.join("evals/cases/demo-skill.json"), case_file);
        write(
            &root.join("evals/fixtures/demo-project/src/total.js"),
            "module.exports = (a, b) => Math.round((a + b) * 100) / 100;\n",
        );
        write(
            &root.join("evals/fixtures/demo-project/package.json"),
            "{\"name\": \"demo\", \"scripts\": {\"test\": \"true\"}}\n",
        );
        write(
            &root.join("skillgate.toml"),
            &format!(
                "[behave]\nclaude = {}\n\n[cases]\nmin-positive = 0\nmin-negative = 0\n",
                toml_string(&claude.display().to_string())
            ),
        );
        let home = base.join("home");
        let tmpdir = base.join("tmp");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&tmpdir).unwrap();
        Lab {
            endpoint: Endpoint::start(script),
            root,
            home,
            tmpdir,
            tmp,
        }
    }

    /// Add `[behave]` keys to `skillgate.toml`.
    pub fn behave_config(&self, keys: &str) {
        let p = self.root.join("skillgate.toml");
        let text = std::fs::read_to_string(&p)
            .unwrap()
            .replace("[behave]\n", &format!("[behave]\n{keys}\n"));
        std::fs::write(p, text).unwrap();
    }

    /// `skillgate check --behavioral demo-skill catalog ARGS`, with the
    /// endpoint as the model API.
    pub fn behave(&self, args: &[&str]) -> assert_cmd::Command {
        let mut c = assert_cmd::Command::cargo_bin("skillgate").unwrap();
        // credentials of the developer's own shell never reach these runs
        for k in skillgate::behave::agent::claude::KEEP {
            c.env_remove(k);
        }
        c.current_dir(self.root.parent().unwrap())
            .args(["check", "--behavioral", "demo-skill", "catalog"])
            .args(args)
            .env("HOME", &self.home)
            .env("TMPDIR", &self.tmpdir)
            .env("ANTHROPIC_BASE_URL", self.endpoint.url())
            .env("ANTHROPIC_API_KEY", "loopback-key")
            .timeout(Duration::from_secs(300));
        c
    }

    pub fn iteration(&self, n: u32) -> PathBuf {
        self.root
            .join("evals/results/demo-skill")
            .join(format!("iteration-{n}"))
    }

    /// What a run left in TMPDIR (workspaces, run homes, grader folders).
    pub fn leftovers(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.tmpdir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("skillgate-"))
            .collect();
        v.sort();
        v
    }

    /// A run's `run.json`.
    pub fn run(&self, rel: &str) -> Value {
        let p = self.iteration(1).join(rel).join("run.json");
        serde_json::from_str(
            &std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        )
        .unwrap()
    }

    /// The iteration's observations, one JSON value per line.
    pub fn observations(&self) -> Vec<Value> {
        std::fs::read_to_string(self.iteration(1).join("observations.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

/// `s` as a TOML basic string.
fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}
