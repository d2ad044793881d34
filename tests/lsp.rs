//! `skillsift lsp` driven over JSON-RPC through the binary, as an editor
//! drives it: initialize, open a case file, read its diagnostics and inlay
//! hints, edit a description without saving (the prompt moves from #2 to
//! #1 and back), hover, shut down and exit. The disk is never written.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long a test waits for one message before it fails.
const WAIT: Duration = Duration::from_secs(60);

struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    /// Messages read but not yet asked for.
    seen: Vec<Value>,
    next_id: i64,
}

impl Server {
    fn start(cwd: &Path) -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("skillsift"))
            .args(["lsp", "--stdio"])
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        len = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a Content-Length header")];
                r.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Server {
            child,
            stdin,
            rx,
            seen: Vec::new(),
            next_id: 1,
        }
    }

    fn send(&mut self, msg: Value) {
        let body = serde_json::to_vec(&msg).unwrap();
        write!(self.stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        self.stdin.write_all(&body).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Send a request and wait for its response's result.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let r = self.wait(|m| m["id"] == id && m.get("method").is_none());
        assert!(r.get("error").is_none(), "{method}: {r}");
        r["result"].clone()
    }

    /// The first message (read before or after) that `want` accepts.
    fn wait(&mut self, want: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.seen.iter().position(&want) {
            return self.seen.remove(i);
        }
        let end = Instant::now() + WAIT;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let m = self
                .rx
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no such message; read: {:#?}", self.seen));
            if want(&m) {
                return m;
            }
            self.seen.push(m);
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let m = self.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        m["params"]["diagnostics"].as_array().unwrap().clone()
    }

    fn hints(&mut self, uri: &str) -> Vec<String> {
        let r = self.request(
            "textDocument/inlayHint",
            json!({
                "textDocument": {"uri": uri},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}},
            }),
        );
        (r.as_array().unwrap().iter())
            .map(|h| h["label"].as_str().unwrap().to_string())
            .collect()
    }
}

fn uri(p: &Path) -> String {
    format!("file://{}", p.display())
}

/// The case file's hints while "my flaky builds …" is `ci-debug`'s.
const MISSED: [&str; 5] = [
    "#2 → ci-debug",
    "#1",
    "#1",
    "#2 ✓ should not",
    "#2 ✓ should not",
];

const DESCRIPTION: &str = "Diagnoses unreliable tests that pass and fail at random.";
const FLAKY: &str = "Diagnoses flaky tests and builds that keep failing at random in the pipeline.";

/// `test-doctor` and `ci-debug`; the prompt "my flaky builds keep failing
/// the pipeline" is `ci-debug`'s until the description says "flaky" and
/// "builds". `top-k = 1`: a prompt not ranking first is a finding.
fn catalog() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap().join("cat");
    let skill = |name: &str, description: &str| {
        let d = root.join("skills").join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nBody.\n"),
        )
        .unwrap();
    };
    skill("test-doctor", DESCRIPTION);
    skill(
        "ci-debug",
        "Debugs failing CI pipelines, reads build logs and fixes the workflow file.",
    );
    std::fs::write(root.join("skillsift.toml"), "[route]\ntop-k = 1\n").unwrap();
    // ci-debug's prompts in a trigger set in its own folder
    std::fs::create_dir_all(root.join("skills/ci-debug/evals")).unwrap();
    std::fs::write(
        root.join("skills/ci-debug/evals/trigger-queries.json"),
        "[\n  {\"query\": \"the CI pipeline is failing, read the build logs\", \"should_trigger\": true},\n  {\"query\": \"fix the workflow file\", \"should_trigger\": true},\n  {\"query\": \"tests pass and fail at random\", \"should_trigger\": false}\n]\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("evals/cases")).unwrap();
    std::fs::write(
        root.join("evals/cases/test-doctor.json"),
        serde_json::to_string_pretty(&json!({
            "skill_name": "test-doctor",
            "trigger": {
                "positive": [
                    {"prompt": "my flaky builds keep failing the pipeline"},
                    {"prompt": "tests pass and fail at random"},
                    {"prompt": "find why this test is unreliable"},
                ],
                "negative": [
                    {"prompt": "read the build logs of the CI pipeline", "owner": "ci-debug"},
                    {"prompt": "fix the workflow file", "owner": "ci-debug"},
                ],
            },
            "evals": [],
        }))
        .unwrap(),
    )
    .unwrap();
    (dir, root)
}

#[test]
fn hints_and_diagnostics_follow_an_unsaved_description() {
    let (dir, root) = catalog();
    let cases = root.join("evals/cases/test-doctor.json");
    let skill_md = root.join("skills/test-doctor/SKILL.md");
    let original = std::fs::read_to_string(&skill_md).unwrap();
    let (cases_uri, skill_uri) = (uri(&cases), uri(&skill_md));
    let mut s = Server::start(dir.path());

    let init = s.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    assert_eq!(init["capabilities"]["inlayHintProvider"], true, "{init}");
    assert_eq!(init["capabilities"]["textDocumentSync"], 1, "{init}");
    s.notify("initialized", json!({}));

    // a case file opened: its prompts ranked
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {
            "uri": cases_uri, "languageId": "json", "version": 1,
            "text": std::fs::read_to_string(&cases).unwrap(),
        }}),
    );
    let diags = s.diagnostics(&cases_uri);
    let missed: Vec<&Value> = diags.iter().filter(|d| d["code"] == "SG501").collect();
    assert_eq!(missed.len(), 1, "{diags:#?}");
    assert_eq!(missed[0]["source"], "skillsift");
    assert!(
        missed[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("`test-doctor`: positive prompt ranked #2 (need top 1)"),
        "{diags:#?}"
    );
    // the finding points at the prompt's line (0-based: line 4 of the file)
    let line = std::fs::read_to_string(&cases)
        .unwrap()
        .lines()
        .position(|l| l.contains("my flaky builds"))
        .unwrap();
    assert_eq!(missed[0]["range"]["start"]["line"], line, "{diags:#?}");
    assert_eq!(s.hints(&cases_uri), MISSED);
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": cases_uri}, "position": {"line": line, "character": 20}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("1\\. ci\\-debug"), "{text}");
    assert!(text.contains("2\\. test\\-doctor"), "{text}");
    // with each skill's shared terms, as `rank --explain` gives them
    assert!(text.contains("pipelin 1\\.000 × "), "{text}");

    // the description edited in the editor, not saved: the prompt ranks
    // first, and its finding goes
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {
            "uri": skill_uri, "languageId": "markdown", "version": 1, "text": original,
        }}),
    );
    s.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": skill_uri, "version": 2},
            "contentChanges": [{"text": original.replace(DESCRIPTION, FLAKY)}],
        }),
    );
    let diags = loop {
        let d = s.diagnostics(&cases_uri);
        if !d.iter().any(|d| d["code"] == "SG501") {
            break d;
        }
    };
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(
        s.hints(&cases_uri),
        ["#1", "#1", "#1", "#2 ✓ should not", "#2 ✓ should not"]
    );
    assert_eq!(std::fs::read_to_string(&skill_md).unwrap(), original);

    // and back
    s.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": skill_uri, "version": 3},
            "contentChanges": [{"text": original}],
        }),
    );
    loop {
        let d = s.diagnostics(&cases_uri);
        if d.iter().any(|d| d["code"] == "SG501") {
            break;
        }
    }
    assert_eq!(s.hints(&cases_uri), MISSED);

    // a finding in the SKILL.md itself, from its unsaved text
    s.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": skill_uri, "version": 4},
            "contentChanges": [{"text": original.replace("name: test-doctor", "name: Test_Doctor")}],
        }),
    );
    let m = s.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == skill_uri
            && m["params"]["version"] == 4
    });
    let diags = m["params"]["diagnostics"].as_array().unwrap();
    assert!(
        diags
            .iter()
            .any(|d| d["range"]["start"]["line"] == 1 && d["severity"] == 1),
        "{diags:#?}"
    );
    assert_eq!(std::fs::read_to_string(&skill_md).unwrap(), original);

    // a trigger set in a skill's folder is served too
    let set = root.join("skills/ci-debug/evals/trigger-queries.json");
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {
            "uri": uri(&set), "languageId": "json", "version": 1,
            "text": std::fs::read_to_string(&set).unwrap(),
        }}),
    );
    assert_eq!(s.hints(&uri(&set)), ["#1", "#1", "#2 ✓ should not"]);

    // a skillsift.toml that stops the check is said on its first line,
    // and the finding goes once it is mended
    let toml = root.join("skillsift.toml");
    let toml_uri = uri(&toml);
    std::fs::write(&toml, "[route]\ntop-k = \"one\"\n").unwrap();
    s.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": skill_uri}}),
    );
    let d = s.diagnostics(&toml_uri);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("invalid configuration"),
        "{d:#?}"
    );
    assert_eq!(d[0]["range"]["start"], json!({"line": 1, "character": 8}));
    std::fs::write(&toml, "[route]\ntop-k = 1\n").unwrap();
    s.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": skill_uri}}),
    );
    assert_eq!(s.diagnostics(&toml_uri), Vec::<Value>::new());

    assert_eq!(s.request("shutdown", Value::Null), Value::Null);
    s.notify("exit", Value::Null);
    let end = Instant::now() + WAIT;
    let status = loop {
        if let Some(st) = s.child.try_wait().unwrap() {
            break st;
        }
        assert!(Instant::now() < end, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
}
