//! A scripted model for the real agent CLIs, and a lab that drives
//! `skillsift check --behavioral` through it end to end.
//!
//! [`Endpoint`] is a [`loopback::Server`] answering one model
//! API ([`Client`] picks it: the Messages API for Claude Code, the
//! Responses API for Codex, the Gemini API for Gemini CLI, Chat Completions
//! for opencode) from one [`Script`], whatever the API: the model loads the
//! skill when the listing names it (or always, like a model guessing a
//! name) the way that client loads skills (`Skill`, `cat` of its SKILL.md,
//! `activate_skill`, `skill`), runs one shell command, and finishes with
//! text; a grader prompt gets a valid, failing, invalid, invalid-then-valid
//! or fenced reply; `hang` never answers an agent turn in time. Every
//! request is recorded and classified ([`Kind`]): agent turns (tools
//! offered), grader calls (a fenced trace), and side requests (a session
//! title, a model router).
//!
//! [`Lab`] is a folder (outside the system temporary folder: Codex refuses
//! helpers there) with a two-skill catalog, a private HOME and TMPDIR, a
//! proxy trap (`HTTP(S)_PROXY` point at a loopback server that records and
//! refuses every request, so one that tried to leave 127.0.0.1 is seen),
//! and the `skillsift` command pointed at the CLI and the endpoint.
#![allow(dead_code)]

use loopback::{
    Api, Exchange, Request, Response, Server, Turn, anthropic::Messages, gemini::Gemini,
    openai_chat::Chat, openai_responses::Responses,
};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Which CLI the lab drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Client {
    Claude,
    Codex,
    Gemini,
    Opencode,
}

impl Client {
    /// The `--agent` id.
    pub fn id(self) -> &'static str {
        match self {
            Client::Claude => "claude",
            Client::Codex => "codex",
            Client::Gemini => "gemini",
            Client::Opencode => "opencode",
        }
    }

    /// The API its endpoint speaks.
    pub fn api(self) -> Arc<dyn Api> {
        match self {
            Client::Claude => Arc::new(Messages),
            Client::Codex => Arc::new(Responses),
            Client::Gemini => Arc::new(Gemini),
            Client::Opencode => Arc::new(Chat),
        }
    }

    /// The text that means "the listing names `skill`".
    pub fn listed_marker(self, skill: &str) -> String {
        match self {
            Client::Claude | Client::Codex => format!("- {skill}: "),
            Client::Gemini | Client::Opencode => format!("<name>{skill}</name>"),
        }
    }

    /// The tool call that loads `skill`.
    fn load(self, skill: &str) -> (&'static str, Value) {
        match self {
            Client::Claude => ("Skill", json!({"skill": skill})),
            Client::Codex => (
                "exec_command",
                json!({"cmd": format!("cat .agents/skills/{skill}/SKILL.md")}),
            ),
            Client::Gemini => ("activate_skill", json!({"name": skill})),
            Client::Opencode => ("skill", json!({"name": skill})),
        }
    }

    /// The tool call that lists files (`pattern` tells calls apart): what a
    /// model does when it looks around first.
    fn look(self, pattern: &str) -> (&'static str, Value) {
        match self {
            Client::Claude => ("Glob", json!({"pattern": pattern})),
            Client::Codex => ("exec_command", json!({"cmd": format!("ls {pattern}")})),
            Client::Gemini => ("glob", json!({"pattern": pattern})),
            Client::Opencode => ("glob", json!({"pattern": pattern})),
        }
    }

    /// The tool call that writes a file.
    fn edit(self) -> (&'static str, Value) {
        match self {
            Client::Claude => (
                "Write",
                json!({"file_path": "notes.md", "content": "scripted\n"}),
            ),
            Client::Codex => (
                "apply_patch",
                json!({"input": "*** Begin Patch\n*** Add File: notes.md\n+scripted\n*** End Patch\n"}),
            ),
            Client::Gemini => (
                "write_file",
                json!({"file_path": "notes.md", "content": "scripted\n"}),
            ),
            Client::Opencode => (
                "write",
                json!({"filePath": "notes.md", "content": "scripted\n"}),
            ),
        }
    }

    /// The tool call that runs `command`.
    fn shell(self, command: &str) -> (&'static str, Value) {
        match self {
            Client::Claude => (
                "Bash",
                json!({"command": command, "description": "scripted"}),
            ),
            Client::Codex => ("exec_command", json!({"cmd": command})),
            Client::Gemini => ("run_shell_command", json!({"command": command})),
            Client::Opencode => (
                "bash",
                json!({"command": command, "description": "scripted"}),
            ),
        }
    }
}

/// When the model loads the skill.
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
    /// The name the model asks to load.
    pub skill: String,
    pub load: Load,
    /// Text whose presence in a request means the listing names the skill
    /// (default: the client's entry for it).
    pub listed_as: Option<String>,
    /// Load only when the user's prompt contains this.
    pub cue: Option<String>,
    /// A shell command run after the load (if any), before the answer.
    pub bash: Option<String>,
    pub answer: String,
    pub grade: Grade,
    /// Never answer an agent turn (until the endpoint stops).
    pub hang: bool,
    /// Token counts every turn reports: (input, cached, output, reasoning).
    pub usage: (u64, u64, u64, u64),
    /// List files before anything else (a look around before the load),
    /// when the prompt contains this.
    pub look_first: Option<String>,
    /// Write a file before anything else (so before any load), when the
    /// prompt contains this.
    pub edit_first: Option<String>,
    /// Tool turns (file listings) after the load (if any), before the
    /// shell command and the answer.
    pub then: u32,
    /// Never load skillsift's canary skill (a model, or a client, whose
    /// loads skillsift cannot see).
    pub blind: bool,
    /// A routing rule over a whole catalog: the first `(cue, skill)` whose
    /// cue the prompt contains names the skill to load (when the listing
    /// names it; `a,b` loads a, then b); a prompt no cue matches loads
    /// nothing. Empty: `skill`.
    pub routes: Vec<(String, String)>,
}

impl Script {
    pub fn new(skill: &str) -> Script {
        Script {
            skill: skill.into(),
            load: Load::WhenListed,
            listed_as: None,
            cue: None,
            bash: None,
            answer: "Done: the total is right now.".into(),
            grade: Grade::Pass,
            hang: false,
            usage: (10, 0, 5, 0),
            look_first: None,
            edit_first: None,
            then: 0,
            blind: false,
            routes: Vec::new(),
        }
    }

    pub fn routes(mut self, routes: &[(&str, &str)]) -> Script {
        self.routes = routes
            .iter()
            .map(|(c, k)| (c.to_string(), k.to_string()))
            .collect();
        self
    }

    pub fn blind(mut self) -> Script {
        self.blind = true;
        self
    }

    pub fn look_first(mut self, cue: &str) -> Script {
        self.look_first = Some(cue.into());
        self
    }

    pub fn edit_first(mut self, cue: &str) -> Script {
        self.edit_first = Some(cue.into());
        self
    }

    pub fn then(mut self, turns: u32) -> Script {
        self.then = turns;
        self
    }

    pub fn load(mut self, load: Load) -> Script {
        self.load = load;
        self
    }

    pub fn listed_as(mut self, text: &str) -> Script {
        self.listed_as = Some(text.into());
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

    pub fn usage(mut self, input: u64, cached: u64, output: u64, reasoning: u64) -> Script {
        self.usage = (input, cached, output, reasoning);
        self
    }
}

/// What a recorded request was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A turn of an agent run (tools offered).
    Agent,
    /// A grader call (a fenced trace).
    Grader,
    /// A model request that is neither (a session title, a router, …).
    Side,
    /// Not a model request (`HEAD /`, token counting).
    Other,
    /// A turn of skillsift's canary run (its prompt names a
    /// `skillsift-canary-…` skill): not counted among the suite's turns.
    Canary,
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

/// The scripted endpoint of one client.
pub struct Endpoint {
    pub server: Server,
    pub client: Client,
    api: Arc<dyn Api>,
}

fn classify(api: &dyn Api, req: &Request) -> Kind {
    if !api.is_model_call(req) {
        return Kind::Other;
    }
    let body = req.json().unwrap_or(Value::Null);
    if api.is_side_request(&body) {
        return Kind::Side;
    }
    let x = api.read(&body);
    if x.all_text().contains("BEGIN-UNTRUSTED-TRACE-") {
        Kind::Grader
    } else if x.prompt.contains(CANARY) {
        Kind::Canary
    } else if !x.tools.is_empty() {
        Kind::Agent
    } else {
        Kind::Side
    }
}

fn turn(text_or_call: Result<String, (&str, Value)>, s: &Script) -> Turn {
    let (i, c, o, r) = s.usage;
    match text_or_call {
        Ok(t) => Turn::text(t),
        Err((name, input)) => Turn::tool(&format!("{}", name.len()), name, input),
    }
    .usage(i, c, o, r)
}

/// A tool call as the scripted turn, with an id unique in its conversation.
fn call(s: &Script, x: &Exchange, (tool, input): (&str, Value), tag: &str) -> Turn {
    let mut t = turn(Err((tool, input)), s);
    if let Some(loopback::Block::ToolUse { id, .. }) = t.blocks.first_mut() {
        *id = format!("toolu_{tag}_{}", x.calls.len());
    }
    t
}

/// Whether the conversation already holds `(tool, input)`, or the tool is
/// not offered (then the step is skipped).
fn done_or_unavailable(x: &Exchange, (tool, input): &(&str, Value)) -> bool {
    x.calls.iter().any(|u| u.name == *tool && u.input == *input)
        || !x.tools.iter().any(|t| t == tool)
}

/// What names skillsift's canary skill.
const CANARY: &str = "skillsift-canary-";

/// The canary: load the skill the prompt names, then answer; a blind
/// script never loads it.
fn canary_turn(client: Client, s: &Script, x: &Exchange) -> Turn {
    let name: String = x.prompt[x.prompt.find(CANARY).unwrap_or(0)..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let load = client.load(&name);
    if s.blind || done_or_unavailable(x, &load) {
        return turn(Ok("ready".into()), s);
    }
    call(s, x, load, "canary")
}

fn agent_turn(client: Client, s: &Script, x: &Exchange) -> Turn {
    if x.prompt.contains(CANARY) {
        return canary_turn(client, s, x);
    }
    if !s.routes.is_empty() {
        // the routing rule picks the skill; the rest of the script runs as
        // for that skill
        let mut routed = s.clone();
        routed.routes.clear();
        routed.cue = None;
        match s
            .routes
            .iter()
            .find(|(cue, _)| x.prompt.contains(cue.as_str()))
        {
            Some((_, skills)) => {
                // `a,b`: load a, then b
                let list: Vec<&str> = skills.split(',').collect();
                let done = |k: &str| {
                    let (tool, input) = client.load(k);
                    x.calls.iter().any(|u| u.name == tool && u.input == input)
                };
                let next = list.iter().find(|k| !done(k)).or(list.last());
                routed.skill = next.map_or_else(String::new, |k| k.to_string());
                routed.listed_as = None;
            }
            None => routed.load = Load::Never,
        }
        return agent_turn(client, &routed, x);
    }
    let cued = |c: &Option<String>| c.as_ref().is_some_and(|c| x.prompt.contains(c.as_str()));
    if cued(&s.edit_first) {
        let edit = client.edit();
        if !done_or_unavailable(x, &edit) {
            return call(s, x, edit, "edit");
        }
    }
    if cued(&s.look_first) {
        let look = client.look("*");
        if !done_or_unavailable(x, &look) {
            return call(s, x, look, "look");
        }
    }
    let cue = s.cue.as_ref().is_none_or(|c| x.prompt.contains(c.as_str()));
    let marker = s
        .listed_as
        .clone()
        .unwrap_or_else(|| client.listed_marker(&s.skill));
    let listed = x.texts.iter().any(|t| t.contains(&marker)) || x.system.contains(&marker);
    let wants = cue
        && match s.load {
            Load::Never => false,
            Load::WhenListed => listed,
            Load::Always => true,
        };
    let (load_tool, load_input) = client.load(&s.skill);
    let loaded = x
        .calls
        .iter()
        .any(|u| u.name == load_tool && u.input == load_input);
    if wants && !loaded && x.tools.iter().any(|t| t == load_tool) {
        let mut t = turn(Err((load_tool, load_input)), s);
        if let Some(loopback::Block::ToolUse { id, .. }) = t.blocks.first_mut() {
            *id = format!("toolu_load_{}", x.calls.len());
        }
        return t;
    }
    for k in 1..=s.then {
        let look = client.look(&format!("step-{k}/*"));
        if !done_or_unavailable(x, &look) {
            return call(s, x, look, "then");
        }
    }
    if let Some(cmd) = &s.bash {
        let (tool, input) = client.shell(cmd);
        if !x.calls.iter().any(|u| u.name == tool && u.input == input)
            && x.tools.iter().any(|t| t == tool)
        {
            let mut t = turn(Err((tool, input)), s);
            if let Some(loopback::Block::ToolUse { id, .. }) = t.blocks.first_mut() {
                *id = format!("toolu_shell_{}", x.calls.len());
            }
            return t;
        }
    }
    turn(Ok(s.answer.clone()), s)
}

fn grader_turn(s: &Script, x: &Exchange) -> Turn {
    let prompt = x.all_text();
    let list = expectations(&prompt);
    let passed = s.grade != Grade::Fail;
    let valid = json!({
        "expectations": list.iter().map(|e| json!({"text": e, "passed": passed, "evidence": "scripted grader"})).collect::<Vec<_>>(),
        "summary": {"passed": 0, "failed": 0, "total": list.len(), "pass_rate": 0.0},
    })
    .to_string();
    let invalid = "I think the agent did fine overall.".to_string();
    turn(
        Ok(match s.grade {
            Grade::Pass | Grade::Fail => valid,
            Grade::Invalid => invalid,
            Grade::InvalidThenValid if prompt.contains("Your previous reply was rejected") => valid,
            Grade::InvalidThenValid => invalid,
            Grade::Fenced => format!("Here is my grading:\n```json\n{valid}\n```\n"),
        }),
        s,
    )
}

impl Endpoint {
    /// A Messages API endpoint (Claude Code).
    pub fn start(script: Script) -> Endpoint {
        Endpoint::for_client(Client::Claude, script)
    }

    pub fn for_client(client: Client, script: Script) -> Endpoint {
        let s = Arc::new(script);
        let api = client.api();
        let a = api.clone();
        let server = Server::start(move |req| {
            if !a.is_model_call(req) {
                return a.housekeeping(req);
            }
            let body = req.json().unwrap_or(Value::Null);
            let x = a.read(&body);
            match classify(a.as_ref(), req) {
                Kind::Agent if s.hang => a
                    .reply(req, &Turn::text("too late"))
                    .delayed(Duration::from_secs(600)),
                Kind::Agent | Kind::Canary => a.reply(req, &agent_turn(client, &s, &x)),
                Kind::Grader => a.reply(req, &grader_turn(&s, &x)),
                Kind::Side | Kind::Other => a.reply(req, &Turn::text("Scripted session title")),
            }
        })
        .expect("the loopback endpoint starts");
        Endpoint {
            server,
            client,
            api,
        }
    }

    pub fn url(&self) -> String {
        self.server.url()
    }

    /// The bodies of the recorded requests of one kind, in arrival order.
    pub fn bodies(&self, k: Kind) -> Vec<Value> {
        self.server
            .requests()
            .iter()
            .filter(|r| classify(self.api.as_ref(), r) == k)
            .map(|r| r.json().unwrap_or(Value::Null))
            .collect()
    }

    /// What a recorded body showed the model.
    pub fn read(&self, body: &Value) -> Exchange {
        self.api.read(body)
    }

    /// The first model request of every agent run (no assistant turn in
    /// its conversation yet), in order.
    pub fn runs(&self) -> Vec<Value> {
        self.bodies(Kind::Agent)
            .into_iter()
            .filter(|b| self.api.read(b).assistant_turns == 0)
            .collect()
    }

    /// Whether the listing of an agent request names `skill`.
    pub fn lists(&self, body: &Value, skill: &str) -> bool {
        self.all_text(body)
            .contains(&self.client.listed_marker(skill))
    }

    /// Every text of a request joined (system prompt, messages, tool
    /// results).
    pub fn all_text(&self, body: &Value) -> String {
        self.api.read(body).all_text()
    }

    /// The tool results a request carries for calls to `tool`: (marked as
    /// an error, text).
    pub fn results_of(&self, tool: &str) -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = self
            .bodies(Kind::Agent)
            .iter()
            .flat_map(|b| {
                let x = self.api.read(b);
                let ids: Vec<String> = x
                    .calls
                    .iter()
                    .filter(|u| u.name == tool)
                    .map(|u| u.id.clone())
                    .collect();
                x.results
                    .into_iter()
                    .filter(move |r| {
                        r.name.as_deref() == Some(tool) || (!r.id.is_empty() && ids.contains(&r.id))
                    })
                    .map(|r| (r.is_error, r.text))
            })
            .collect();
        out.dedup();
        out
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

/// A temporary catalog, HOME and TMPDIR, an endpoint and a proxy trap.
pub struct Lab {
    pub tmp: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    /// `TMPDIR` of the skillsift process: where workspaces and run homes go.
    pub tmpdir: PathBuf,
    pub endpoint: Endpoint,
    /// Records every request a CLI sent through `HTTP(S)_PROXY`.
    pub trap: Server,
    pub client: Client,
}

fn write(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// `s` as a TOML basic string.
fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// The key the Codex lab's provider reads.
pub const CODEX_KEY: &str = "SKILLSIFT_TEST_RESPONSES_KEY";

impl Lab {
    /// A Claude Code lab whose `[behave] claude` is `claude`.
    pub fn new(claude: &Path, script: Script, case_file: &str) -> Lab {
        Lab::for_client(Client::Claude, claude, script, case_file)
    }

    /// A lab for `client`, its CLI at `cli`, its case file `case_file`.
    pub fn for_client(client: Client, cli: &Path, script: Script, case_file: &str) -> Lab {
        let tmp = tempfile::Builder::new()
            .prefix("lab-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
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
        let endpoint = Endpoint::for_client(client, script);
        let cli = toml_string(&cli.display().to_string());
        let url = endpoint.url();
        let agent = match client {
            Client::Claude => format!("claude = {cli}\n"),
            Client::Codex => format!(
                "agent = \"codex\"\n\n[behave.codex]\nprogram = {cli}\nmodel = \"gpt-5.5\"\nbase-url = \"{url}/v1\"\nenv-key = \"{CODEX_KEY}\"\n"
            ),
            Client::Gemini => format!(
                "agent = \"gemini\"\n\n[behave.gemini]\nprogram = {cli}\nmodel = \"gemini-2.5-pro\"\nshell-commands = [\"echo\"]\n"
            ),
            Client::Opencode => format!(
                "agent = \"opencode\"\n\n[behave.opencode]\nprogram = {cli}\nmodel = \"loopback/m\"\nshell-commands = [\"echo\"]\n\n[behave.opencode.provider.loopback]\nnpm = \"@ai-sdk/openai-compatible\"\noptions = {{ baseURL = \"{url}/v1\", apiKey = \"loopback\" }}\nmodels = {{ m = {{ tool_call = true, limit = {{ context = 200000, output = 8192 }} }} }}\n"
            ),
        };
        write(
            &root.join("skillsift.toml"),
            &format!("[cases]\nmin-positive = 0\nmin-negative = 0\n\n[behave]\n{agent}"),
        );
        let home = base.join("home");
        let tmpdir = base.join("tmp");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&tmpdir).unwrap();
        let trap = Server::start(|_| Response::empty(403)).expect("the proxy trap starts");
        Lab {
            endpoint,
            root,
            home,
            tmpdir,
            tmp,
            trap,
            client,
        }
    }

    /// Add `[behave]` keys to `skillsift.toml`.
    pub fn behave_config(&self, keys: &str) {
        let p = self.root.join("skillsift.toml");
        let text = std::fs::read_to_string(&p)
            .unwrap()
            .replace("[behave]\n", &format!("[behave]\n{keys}\n"));
        std::fs::write(p, text).unwrap();
    }

    /// `skillsift check --behavioral demo-skill catalog ARGS`, with the
    /// endpoint as the model API. Without a `--trigger-runs` in `args` the
    /// lab passes `--trigger-runs full`: the tests written before trigger
    /// runs decided count both arms of every case; the tests of deciding
    /// runs name `--trigger-runs decide`.
    pub fn behave(&self, args: &[&str]) -> assert_cmd::Command {
        let mut c = self.skillsift();
        c.args(["check", "--behavioral", "demo-skill", "catalog"])
            .args(args)
            .args(if args.contains(&"--trigger-runs") {
                &[][..]
            } else {
                &["--trigger-runs", "full"][..]
            })
            // the lab's catalog holds fewer than the 10 cases a verdict needs
            .arg("--allow-insufficient");
        c
    }

    /// `skillsift` in the lab's folder (the catalog is `catalog`), with the
    /// endpoint as the model API, a private HOME and TMPDIR and the proxy
    /// trap; no arguments yet.
    pub fn skillsift(&self) -> assert_cmd::Command {
        let mut c = assert_cmd::Command::cargo_bin("skillsift").unwrap();
        // credentials and endpoints of the developer's own shell never
        // reach these runs
        for k in behave::agent::claude::KEEP
            .iter()
            .chain(behave::agent::gemini::KEEP)
            .chain(behave::agent::codex::KEEP)
            .chain(["OPENAI_API_KEY", "SKILLSIFT_CACHE_DIR", "XDG_CACHE_HOME"].iter())
        {
            c.env_remove(k);
        }
        let trap = self.trap.url();
        c.current_dir(self.root.parent().unwrap())
            .env("HOME", &self.home)
            .env("TMPDIR", &self.tmpdir)
            .env("HTTP_PROXY", &trap)
            .env("HTTPS_PROXY", &trap)
            .env("ALL_PROXY", &trap)
            .env("http_proxy", &trap)
            .env("https_proxy", &trap)
            .env("NO_PROXY", "127.0.0.1,localhost")
            .env("no_proxy", "127.0.0.1,localhost")
            .timeout(Duration::from_secs(300));
        match self.client {
            Client::Claude => {
                c.env("ANTHROPIC_BASE_URL", self.endpoint.url())
                    .env("ANTHROPIC_API_KEY", "loopback-key");
            }
            Client::Codex => {
                c.env(CODEX_KEY, "loopback-key");
            }
            Client::Gemini => {
                c.env("GOOGLE_GEMINI_BASE_URL", self.endpoint.url())
                    .env("GEMINI_API_KEY", "loopback-key");
            }
            Client::Opencode => {}
        }
        c
    }

    pub fn iteration(&self, n: u32) -> PathBuf {
        self.root
            .join("evals/results/demo-skill")
            .join(format!("iteration-{n}"))
    }

    /// What a run left in TMPDIR and in the cache's run homes (workspaces,
    /// run homes, grader folders).
    pub fn leftovers(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for dir in [
            self.tmpdir.clone(),
            self.home.join(".cache/skillsift/run-homes"),
        ] {
            v.extend(
                std::fs::read_dir(&dir)
                    .into_iter()
                    .flatten()
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.starts_with("skillsift-")),
            );
        }
        v.sort();
        v
    }

    /// The requests the proxy trap received (each one tried to leave
    /// 127.0.0.1).
    pub fn escaped(&self) -> Vec<String> {
        self.trap
            .requests()
            .iter()
            .map(|r| format!("{} {}", r.method, r.url))
            .collect()
    }

    /// A run's `run.json`.
    pub fn run(&self, rel: &str) -> Value {
        self.run_in(1, rel)
    }

    /// A run's `run.json` in iteration `n`.
    pub fn run_in(&self, n: u32, rel: &str) -> Value {
        let p = self.iteration(n).join(rel).join("run.json");
        serde_json::from_str(
            &std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        )
        .unwrap()
    }

    /// A run's `timing.json`.
    pub fn timing(&self, rel: &str) -> Value {
        let p = self.iteration(1).join(rel).join("timing.json");
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
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

/// The done-when flow every client's Tier 3 test shares: one positive, one
/// negative and one execution case, a model that loads the skill in every
/// run (a guess in the baseline) and runs one shell command, one trial.
/// Asserts what holds whatever the client: loads counted in `with` runs
/// only, the baseline's guessed load failed and not counted, the eval
/// graded by one grader request per graded run, usage normalised (input
/// includes the cached tokens), results written, observations naming the
/// client and its version, nothing left behind and no request off
/// loopback. Returns the lab for the client's own checks (tools offered,
/// bundled skills off, the grader's tools).
pub fn end_to_end(client: Client, cli: &Path) -> Lab {
    use predicates::prelude::*;
    let lab = Lab::for_client(
        client,
        cli,
        Script::new("demo-skill")
            .cue("cent")
            .load(Load::Always)
            .bash("echo checked")
            .usage(1000, 400, 50, 20),
        &cases(
            &["The invoice total is off by a cent, fix it"],
            &["Update the architecture diagram in the docs"],
            execution("The invoice total is off by a cent: fix src/total.js"),
        ),
    );
    lab.behave(&["--trials", "1"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("TP 2  FP 0  FN 0  TN 1"))
        .stdout(predicate::str::contains(
            "pass rate  with skill 1.000  without 1.000",
        ))
        .stderr(predicate::str::contains(
            "run 1/6 positive-1 with #1: exit code 0, loaded demo-skill",
        ));
    let e = &lab.endpoint;
    let runs = e.runs();
    assert_eq!(runs.len(), 6, "3 cases × 2 arms");
    for (i, r) in runs.iter().enumerate() {
        assert_eq!(
            e.lists(r, "demo-skill"),
            i % 2 == 0,
            "run {}: the listing names the skill in with runs only",
            i + 1
        );
        assert!(!e.lists(r, "other-skill"));
    }
    for run in [
        "positive-1/without_skill/run-1",
        "eval-1/without_skill/run-1",
    ] {
        let r = lab.run(run);
        assert_eq!(r["invoked_skills"], json!([]), "{run}");
        assert_eq!(r["failed_loads"], json!(["demo-skill"]), "{run}");
        assert_eq!(r["evidence"], true, "{run}");
    }
    let with = lab.run("eval-1/with_skill/run-1");
    assert_eq!(with["invoked_skills"], json!(["demo-skill"]));
    assert_eq!(with["client"], client.id());
    let version = with["client_version"].as_str().unwrap_or_default();
    let printed = std::process::Command::new(cli)
        .arg("--version")
        .output()
        .unwrap();
    assert!(
        !version.is_empty() && String::from_utf8_lossy(&printed.stdout).contains(version),
        "the run records the version the CLI prints: {version:?}"
    );
    assert_eq!(
        e.bodies(Kind::Grader).len(),
        2,
        "one grader request per graded run"
    );
    let t = lab.timing("eval-1/with_skill/run-1");
    assert_eq!(
        t["executor_input_tokens"], 3000,
        "three model calls of 1,000"
    );
    assert_eq!(t["executor_cached_input_tokens"], 1200);
    let obs = lab.observations();
    assert_eq!(obs.len(), 6);
    assert!(obs.iter().all(|o| o["client"] == client.id()));
    assert_eq!(lab.leftovers(), Vec::<String>::new(), "nothing left behind");
    assert_eq!(
        lab.escaped(),
        Vec::<String>::new(),
        "no request left 127.0.0.1"
    );
    lab
}

/// Agent requests (model turns) whose user prompt contains `text`.
pub fn requests_for(e: &Endpoint, text: &str) -> usize {
    e.bodies(Kind::Agent)
        .iter()
        .filter(|b| e.read(b).prompt.contains(text))
        .count()
}

/// The trigger prompts of [`trigger_decisions`]: a positive whose model
/// would take 5 more tool turns after the load, a positive whose model
/// lists files first, a negative whose model writes a file at once (and
/// would take 5 more turns after it).
pub const LOADS_THEN_WORKS: &str = "The invoice total is off by a cent, fix it";
pub const LOOKS_THEN_LOADS: &str = "Look around first: a cent is lost in the rounding";
pub const EDITS_AT_ONCE: &str = "Jot the architecture diagram notes down";

/// The lab of [`trigger_decisions`], not yet run.
pub fn trigger_lab(client: Client, cli: &Path) -> Lab {
    Lab::for_client(
        client,
        cli,
        Script::new("demo-skill")
            .cue("cent")
            .then(5)
            .look_first("Look around")
            .edit_first("Jot")
            .usage(1000, 0, 50, 0),
        &cases(
            &[LOADS_THEN_WORKS, LOOKS_THEN_LOADS],
            &[EDITS_AT_ONCE],
            dialogue("The invoice total is off by a cent: what rounding rule applies?"),
        ),
    )
}

/// One decision per trigger run, for every client: the run stops at the
/// load (at most 2 model requests although the model would go on for 5
/// more turns), at the first write before a load, and a look around before
/// the load does not end it; no trigger prompt runs in the baseline arm;
/// `run.json` says why each stopped, after how many turns, and the tokens.
/// Returns the lab and, per trigger prompt, (model requests, tokens).
pub fn trigger_decisions(client: Client, cli: &Path) -> (Lab, Vec<(usize, Option<u64>)>) {
    let lab = trigger_lab(client, cli);
    lab.behave(&["--trials", "1", "--trigger-runs", "decide"])
        .assert()
        .code(3);
    let e = &lab.endpoint;
    let loaded = lab.run("positive-1/with_skill/run-1");
    assert_eq!(loaded["invoked_skills"], json!(["demo-skill"]), "{loaded}");
    assert_eq!(loaded["evidence"], true);
    assert_eq!(loaded["trigger_stop"]["reason"], "skill-loaded", "{loaded}");
    assert!(
        requests_for(e, LOADS_THEN_WORKS) <= 2,
        "stopped at the load: {} requests",
        requests_for(e, LOADS_THEN_WORKS)
    );
    let looked = lab.run("positive-2/with_skill/run-1");
    assert_eq!(looked["invoked_skills"], json!(["demo-skill"]), "{looked}");
    assert_eq!(looked["trigger_stop"]["reason"], "skill-loaded");
    assert!(
        looked["trigger_stop"]["turns"].as_u64().unwrap() >= 2,
        "{looked}"
    );
    let edited = lab.run("negative-1/with_skill/run-1");
    assert_eq!(edited["invoked_skills"], json!([]), "{edited}");
    if client == Client::Codex {
        // Codex's apply_patch is a freeform tool the scripted Responses API
        // cannot call: the model's write never happens, and its 5 listings
        // after it reach the turn limit
        assert_eq!(edited["trigger_stop"]["reason"], "turn-limit", "{edited}");
        assert!(requests_for(e, EDITS_AT_ONCE) <= 7);
    } else {
        assert_eq!(
            edited["trigger_stop"]["reason"], "workspace-changed",
            "{edited}"
        );
        assert!(
            requests_for(e, EDITS_AT_ONCE) <= 2,
            "stopped at the write: {} requests",
            requests_for(e, EDITS_AT_ONCE)
        );
    }
    for case in ["positive-1", "positive-2", "negative-1"] {
        assert!(
            !lab.iteration(1).join(case).join("without_skill").exists(),
            "{case} has no baseline run"
        );
    }
    assert!(lab.iteration(1).join("eval-1/without_skill/run-1").exists());
    assert_eq!(lab.leftovers(), Vec::<String>::new(), "nothing left behind");
    assert_eq!(lab.escaped(), Vec::<String>::new());
    let cost = [
        (LOADS_THEN_WORKS, "positive-1"),
        (LOOKS_THEN_LOADS, "positive-2"),
        (EDITS_AT_ONCE, "negative-1"),
    ]
    .map(|(p, case)| {
        (
            requests_for(e, p),
            lab.run(&format!("{case}/with_skill/run-1"))["trigger_stop"]["tokens"].as_u64(),
        )
    });
    (lab, cost.to_vec())
}

/// `--trigger-runs full`: every trigger prompt in both arms, to the end.
/// Returns, per trigger prompt of [`trigger_lab`], (model requests over
/// both arms, tokens over both arms).
pub fn trigger_runs_full(client: Client, cli: &Path) -> Vec<(usize, u64)> {
    let lab = trigger_lab(client, cli);
    lab.behave(&["--trials", "1", "--trigger-runs", "full"])
        .assert()
        .code(3);
    let e = &lab.endpoint;
    [
        (LOADS_THEN_WORKS, "positive-1"),
        (LOOKS_THEN_LOADS, "positive-2"),
        (EDITS_AT_ONCE, "negative-1"),
    ]
    .map(|(p, case)| {
        let mut tokens = 0;
        for arm in ["with_skill", "without_skill"] {
            let r = lab.run(&format!("{case}/{arm}/run-1"));
            assert!(r.get("trigger_stop").is_none(), "{r}");
            tokens += r["tokens"].as_u64().unwrap();
        }
        (requests_for(e, p), tokens)
    })
    .to_vec()
}

/// A model that never loads a skill fails the canary: exit 4 before any
/// suite run, nothing cached, nothing left behind.
pub fn canary_fails(client: Client, cli: &Path) {
    use predicates::prelude::*;
    let lab = Lab::for_client(
        client,
        cli,
        Script::new("demo-skill").blind(),
        &cases(
            &["The invoice total is off by a cent, fix it"],
            &[],
            dialogue("What rounding rule applies?"),
        ),
    );
    lab.behave(&["--trials", "1", "--trigger-runs", "decide"])
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "skillsift cannot see this client load skills: ",
        ))
        .stderr(predicate::str::contains("no suite run was started"));
    assert!(
        lab.endpoint.runs().is_empty(),
        "no suite run reached the model"
    );
    assert!(
        !lab.endpoint.bodies(Kind::Canary).is_empty(),
        "the canary ran"
    );
    assert!(!lab.root.join("evals/results").exists());
    assert!(!lab.home.join(".cache/skillsift/canaries").exists());
    assert_eq!(lab.leftovers(), Vec::<String>::new());
}

/// The dry run's estimate of what a run sends the model, held against what
/// the real client sent in `lab`'s run (`--trials 1`, every run to its
/// end): the first request of each agent run (system prompt, tool
/// definitions, messages: the body as compact JSON, 4 bytes a token) is
/// within a quarter of the dry run's `first_request_tokens` for that run,
/// and each grading request, its prompt left out, within a quarter of
/// `client_request.grader_tokens`.
pub fn assert_input_estimate(lab: &Lab) {
    let out = lab
        .behave(&["--trials", "1", "--dry-run", "--format", "json"])
        .output()
        .unwrap();
    let plan: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("no JSON: {}", String::from_utf8_lossy(&out.stderr)));
    let near = |measured: usize, estimate: u64, what: &str| {
        let (m, e) = (measured as f64, estimate as f64);
        assert!(
            (m - e).abs() <= e / 4.0,
            "{:?} {what}: the client sent ≈ {measured} tokens, the dry run estimates {estimate} (update RequestSize in crates/behave/src/agent/ from this measurement)",
            lab.client
        );
    };
    let e = &lab.endpoint;
    let runs = e.runs();
    let planned = plan["runs"].as_array().unwrap();
    assert_eq!(
        runs.len(),
        planned.len(),
        "one first request per planned run"
    );
    for (r, p) in runs.iter().zip(planned) {
        let bytes = serde_json::to_string(r).unwrap().len();
        near(
            bytes.div_ceil(4),
            p["first_request_tokens"].as_u64().unwrap(),
            &format!("run {}'s first request", p["run"]),
        );
    }
    let grader = plan["cost"]["client_request"]["grader_tokens"]
        .as_u64()
        .unwrap();
    let graded = e.bodies(Kind::Grader);
    assert!(!graded.is_empty(), "the lab's eval is graded");
    for g in graded {
        let bytes = serde_json::to_string(&g).unwrap().len() - e.read(&g).prompt.len();
        near(
            bytes.div_ceil(4),
            grader,
            "grading request without its prompt",
        );
    }
}
