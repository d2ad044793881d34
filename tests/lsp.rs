//! `skillsift lsp` driven over JSON-RPC through the binary, as an editor
//! drives it: initialize, open a case file, read its diagnostics and inlay
//! hints, edit a description without saving (the prompt moves from #2 to
//! #1 and back), hover, shut down and exit. The disk is never written.

mod common;

use common::cat::{HELD_OUT, flaky};
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

impl Server {
    /// Start in `cwd` and initialize with `root` as the workspace.
    fn started(cwd: &Path, root: &Path) -> Server {
        let mut s = Server::start(cwd);
        s.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
        );
        s.notify("initialized", json!({}));
        s
    }

    fn open(&mut self, path: &Path, language: &str) -> String {
        let text = std::fs::read_to_string(path).unwrap();
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
                "uri": uri(path), "languageId": language, "version": 1, "text": text,
            }}),
        );
        text
    }

    fn change(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": text}],
            }),
        );
    }

    /// The diagnostics published for `uri` at `version`.
    fn diagnostics_at(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let m = self.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        });
        m["params"]["diagnostics"].as_array().unwrap().clone()
    }

    fn actions(&mut self, uri: &str, range: Value, only: Option<&[&str]>) -> Vec<Value> {
        let mut context = json!({"diagnostics": []});
        if let Some(only) = only {
            context["only"] = json!(only);
        }
        let r = self.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range, "context": context}),
        );
        r.as_array().unwrap().clone()
    }

    fn stop(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let end = Instant::now() + WAIT;
        let status = loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                break st;
            }
            assert!(Instant::now() < end, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{status:?}");
    }
}

/// A range from line and character pairs.
fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}})
}

/// The byte offset of an LSP position (UTF-16 columns).
fn offset(text: &str, at: &Value) -> usize {
    let line = at["line"].as_u64().unwrap() as usize;
    let character = at["character"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut units = 0;
    for (i, c) in text[start..].char_indices() {
        if units == character {
            return start + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// `text` with a code action's edits of `uri` made, as an editor makes
/// them.
fn applied(text: &str, action: &Value, uri: &str) -> String {
    let mut edits: Vec<(usize, usize, String)> = (action["edit"]["changes"][uri].as_array())
        .unwrap_or_else(|| panic!("no edit of {uri}: {action:#}"))
        .iter()
        .map(|e| {
            (
                offset(text, &e["range"]["start"]),
                offset(text, &e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (s, e, new) in edits {
        out.replace_range(s..e, &new);
    }
    out
}

/// The action whose title starts with `title`.
fn titled<'a>(actions: &'a [Value], title: &str) -> &'a Value {
    (actions.iter())
        .find(|a| a["title"].as_str().unwrap().starts_with(title))
        .unwrap_or_else(|| panic!("no action `{title}` in {actions:#?}"))
}

fn rules(diags: &[Value]) -> Vec<&str> {
    diags.iter().map(|d| d["code"].as_str().unwrap()).collect()
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
    s.stop();
}

#[test]
fn code_actions_fix_and_suppress_in_the_buffer() {
    let (dir, root) = catalog();
    let pdf = root.join("skills/pdf-forms/SKILL.md");
    std::fs::create_dir_all(pdf.parent().unwrap()).unwrap();
    std::fs::write(
        &pdf,
        "---\nname: pdf-form\ndescription: Fills PDF forms #fast and flattens them.\n---\n\n# pdf-forms\n\nBody.\n",
    )
    .unwrap();
    let pdf_uri = uri(&pdf);
    let on_disk = std::fs::read_to_string(&pdf).unwrap();
    let mut s = Server::started(dir.path(), &root);

    let text = s.open(&pdf, "markdown");
    let diags = s.diagnostics(&pdf_uri);
    for rule in ["SG103", "SG115", "SG201"] {
        assert!(rules(&diags).contains(&rule), "{diags:#?}");
    }
    let all = range((0, 0), (99, 0));
    let actions = s.actions(&pdf_uri, all.clone(), None);
    // a safe fix is the preferred quick fix; an unsafe one says so
    let quote = titled(&actions, "Quote the whole value of `description` (SG115)");
    assert_eq!(quote["kind"], "quickfix");
    assert_eq!(quote["isPreferred"], true);
    assert_eq!(quote["diagnostics"][0]["code"], "SG115");
    let rename = titled(
        &actions,
        "Set `name: pdf-forms`, the folder's name (SG103, unsafe: changes what the clients read; review it)",
    );
    assert_eq!(rename["isPreferred"], false);
    // only the actions of the findings the range touches: line 1 is `name`
    let on_name = s.actions(&pdf_uri, range((1, 3), (1, 3)), Some(&["quickfix"]));
    assert!(
        (on_name.iter()).all(|a| a["diagnostics"][0]["code"] == "SG103"),
        "{on_name:#?}"
    );

    // every safe fix of the file at once: here the one
    let fix_all = titled(&actions, "Fix all: 1 safe fix in this file (skillsift)");
    assert_eq!(fix_all["kind"], "source.fixAll.skillsift");
    assert_eq!(fix_all["edit"], quote["edit"]);
    let on_save = s.actions(&pdf_uri, range((0, 0), (0, 0)), Some(&["source.fixAll"]));
    assert_eq!(on_save.len(), 1, "{on_save:#?}");

    // the safe fix applied in the editor: its finding goes
    let quoted = applied(&text, quote, &pdf_uri);
    assert!(
        quoted.contains("description: \"Fills PDF forms #fast and flattens them.\"\n"),
        "{quoted}"
    );
    s.change(&pdf_uri, 2, &quoted);
    let diags = s.diagnostics_at(&pdf_uri, 2);
    assert!(!rules(&diags).contains(&"SG115"), "{diags:#?}");
    assert!(rules(&diags).contains(&"SG201"), "{diags:#?}");

    // a suppression: the comment goes under `---`, and the author writes
    // why; until then SG021 asks for the reason
    let actions = s.actions(&pdf_uri, all.clone(), None);
    let suppress = titled(
        &actions,
        "Suppress SG201 in skill `pdf-form` (then write why after the comment)",
    );
    let suppressed = applied(&quoted, suppress, &pdf_uri);
    assert!(
        suppressed.starts_with("---\n# skillsift: ignore[SG201] \nname: pdf-form\n"),
        "{suppressed}"
    );
    s.change(&pdf_uri, 3, &suppressed);
    let diags = s.diagnostics_at(&pdf_uri, 3);
    assert!(rules(&diags).contains(&"SG021"), "{diags:#?}");
    // a finding about a suppression is mended, not suppressed
    let actions = s.actions(&pdf_uri, all.clone(), Some(&["quickfix"]));
    assert!(
        (actions.iter()).all(|a| !a["title"].as_str().unwrap().starts_with("Suppress SG021")),
        "{actions:#?}"
    );
    let reasoned = suppressed.replace(
        "ignore[SG201] \n",
        "ignore[SG201] a form filler, named by the user\n",
    );
    s.change(&pdf_uri, 4, &reasoned);
    let diags = s.diagnostics_at(&pdf_uri, 4);
    assert!(!rules(&diags).contains(&"SG201"), "{diags:#?}");
    assert!(!rules(&diags).contains(&"SG021"), "{diags:#?}");
    // a buffer changed since the check: no edit is offered on stale offsets
    s.change(&pdf_uri, 5, &format!("\n{reasoned}"));
    let actions = s.actions(&pdf_uri, all.clone(), Some(&["quickfix"]));
    assert!(
        (actions.iter()).all(|a| !a["title"].as_str().unwrap().contains("(SG103")),
        "{actions:#?}"
    );
    assert_eq!(std::fs::read_to_string(&pdf).unwrap(), on_disk);

    // a stranger's name reaches the editor's menu escaped
    let rtl = root.join("skills/rtl/SKILL.md");
    std::fs::create_dir_all(rtl.parent().unwrap()).unwrap();
    std::fs::write(
        &rtl,
        "---\nname: \"rtl\\u202Eevil\\u001b[2J\"\ndescription: Reverses text.\n---\n\nBody.\n",
    )
    .unwrap();
    s.open(&rtl, "markdown");
    let rtl_uri = uri(&rtl);
    s.diagnostics_at(&rtl_uri, 1);
    let actions = s.actions(&rtl_uri, all, None);
    let suppress = titled(
        &actions,
        "Suppress SG201 in skill `rtl\\u{202e}evil\\x1b[2J`",
    );
    for a in &actions {
        let t = a["title"].as_str().unwrap();
        assert!(!t.contains(['\u{202e}', '\u{1b}']), "{t:?}");
    }
    assert!(suppress["edit"].is_object());
    s.stop();
}

#[test]
fn the_description_tune_recommends_and_the_commands_rank_and_list() {
    let cat = flaky(
        "Diagnoses unreliable tests that pass and fail at random and finds the shared state behind them.",
    );
    let root = cat.root().canonicalize().unwrap();
    let mut s = Server::started(cat.dir.path(), &root);

    let cases = root.join("evals/cases/test-doctor.json");
    let cases_uri = uri(&cases);
    let doctor_uri = uri(&root.join("skills/test-doctor/SKILL.md"));
    let cases_text = s.open(&cases, "json");
    let prompt = "my tests are flaky, can you fix them";
    // on a failing prompt of the case file: the same description, an edit
    // of the skill's SKILL.md (answered once the check that follows the
    // opening is in)
    let line = cases_text.lines().position(|l| l.contains(prompt)).unwrap() as u32;
    let actions = s.actions(
        &cases_uri,
        range((line, 20), (line, 20)),
        Some(&["refactor"]),
    );
    let from_prompt = titled(
        &actions,
        "Apply the description `skillsift tune` recommends for `test-doctor`: 2 more of 4 validation prompts pass, 0 fewer",
    );
    let on_disk = std::fs::read_to_string(root.join("skills/test-doctor/SKILL.md")).unwrap();
    let from_prompt = applied(&on_disk, from_prompt, &doctor_uri);
    // a prompt that passes offers none
    let passing = "write unit tests for the new parser";
    let line = cases_text
        .lines()
        .position(|l| l.contains(passing))
        .unwrap() as u32;
    let none = s.actions(
        &cases_uri,
        range((line, 20), (line, 20)),
        Some(&["refactor"]),
    );
    assert!(none.is_empty(), "{none:#?}");

    // the description tune recommends, on the frontmatter of a SKILL.md
    let doctor = root.join("skills/test-doctor/SKILL.md");
    let doctor_uri = uri(&doctor);
    let text = s.open(&doctor, "markdown");
    s.diagnostics_at(&doctor_uri, 1);
    let actions = s.actions(&doctor_uri, range((2, 5), (2, 5)), Some(&["refactor"]));
    let tuned = titled(
        &actions,
        "Apply the description `skillsift tune` recommends: 2 more of 4 validation prompts pass, 0 fewer",
    );
    assert_eq!(tuned["kind"], "refactor.rewrite");
    let rewritten = applied(&text, tuned, &doctor_uri);
    assert!(
        rewritten.contains("description: Diagnoses unreliable (flaky) tests that pass and fail at random and finds the shared state behind them.\n"),
        "{rewritten}"
    );
    assert_eq!(from_prompt, rewritten);
    // none in the body
    let body = s.actions(&doctor_uri, range((6, 0), (6, 0)), Some(&["refactor"]));
    assert!(body.is_empty(), "{body:#?}");

    // the commands: rank this prompt, show the listing
    let prompt = "my tests are flaky, can you fix them";

    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "skillsift.rank", "arguments": [{"uri": cases_uri, "prompt": prompt}]}),
    );
    let text = r["text"].as_str().unwrap();
    assert!(text.starts_with("prompt terms: "), "{text}");
    assert!(text.contains("  1  "), "{text}");
    assert_eq!(r["json"]["prompt"], prompt, "{r:#}");
    assert_eq!(r["json"]["results"][0]["name"], "ci-debug", "{r:#}");
    assert!(r["json"]["results"][0]["contributions"].is_array(), "{r:#}");
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "skillsift.listing", "arguments": [{"uri": cases_uri}]}),
    );
    let names: Vec<&str> = (r["json"]["entries"].as_array().unwrap().iter())
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    for name in ["ci-debug", "release-notes", "test-doctor", "test-writer"] {
        assert!(names.contains(&name), "{names:?}");
    }
    assert!(r["text"].as_str().unwrap().contains("test-doctor"), "{r:#}");

    // from a selection, through a code action, for editors without an
    // extension: the command it carries shows its text as a message
    let line = cases_text.lines().position(|l| l.contains(prompt)).unwrap() as u32;
    let col = cases_text
        .lines()
        .nth(line as usize)
        .unwrap()
        .find(prompt)
        .unwrap() as u32;
    let sel = range((line, col), (line, col + prompt.len() as u32));
    let actions = s.actions(&cases_uri, sel, Some(&["source"]));
    let rank = titled(&actions, "Rank the selected text as a prompt (skillsift)");
    assert_eq!(rank["command"]["command"], "skillsift.rank");
    assert_eq!(rank["command"]["arguments"][0]["prompt"], prompt);
    let listing = titled(
        &actions,
        "Show the listing the client shows the model (skillsift)",
    );
    s.request(
        "workspace/executeCommand",
        json!({"command": rank["command"]["command"], "arguments": rank["command"]["arguments"]}),
    );
    let m = s.wait(|m| m["method"] == "window/showMessage");
    assert!(
        m["params"]["message"]
            .as_str()
            .unwrap()
            .contains("ci-debug"),
        "{m:#}"
    );
    assert_eq!(listing["command"]["command"], "skillsift.listing");
    // the prompt at a position, for an extension that sends the cursor
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "skillsift.rank", "arguments": [{"uri": cases_uri, "position": {"line": line, "character": col + 3}}]}),
    );
    assert_eq!(r["json"]["prompt"], prompt, "{r:#}");
    let id = 1001;
    s.send(json!({"jsonrpc": "2.0", "id": id, "method": "workspace/executeCommand",
        "params": {"command": "skillsift.rank", "arguments": [{"uri": cases_uri, "position": {"line": 0, "character": 0}}]}}));
    let e = s.wait(|m| m["id"] == id);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("no trigger prompt here"),
        "{e:#}"
    );
    // no selection: the prompt under the cursor
    let actions = s.actions(
        &cases_uri,
        range((line, col + 3), (line, col + 3)),
        Some(&["source"]),
    );
    let this = titled(&actions, "Rank this trigger prompt (skillsift)");
    assert_eq!(this["command"]["arguments"][0]["prompt"], prompt);

    // bad input: a clear error, the server keeps serving
    let id = 1000;
    s.send(json!({"jsonrpc": "2.0", "id": id, "method": "workspace/executeCommand",
        "params": {"command": "skillsift.rank", "arguments": [{"uri": cases_uri, "prompt": "  "}]}}));
    let e = s.wait(|m| m["id"] == id);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the prompt is empty"),
        "{e:#}"
    );
    // the validation and fresh prompts reach no command's output
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "skillsift.listing", "arguments": [{"uri": cases_uri}]}),
    );
    for held in HELD_OUT {
        assert!(!r.to_string().contains(held), "{held}");
    }
    s.stop();
}

/// The Neovim to drive (`SKILLSIFT_NVIM`, else `nvim` on PATH).
fn nvim() -> PathBuf {
    std::env::var_os("SKILLSIFT_NVIM").map_or_else(|| PathBuf::from("nvim"), PathBuf::from)
}

/// Neovim's version line, or `None` (with a message) when it is absent:
/// the editor test is skipped then, and fails under
/// `SKILLSIFT_REQUIRE_NEOVIM=1` (`.ci/run`).
fn neovim() -> Option<String> {
    match Command::new(nvim()).arg("--version").output() {
        Ok(o) if o.status.success() => {
            let v = String::from_utf8_lossy(&o.stdout);
            Some(v.lines().next().unwrap_or("").to_string())
        }
        _ => {
            assert!(
                std::env::var_os("SKILLSIFT_REQUIRE_NEOVIM").is_none(),
                "SKILLSIFT_REQUIRE_NEOVIM is set and `nvim` is not on PATH: install Debian's neovim"
            );
            eprintln!("skipped: `nvim` is not on PATH (install neovim to run the editor test)");
            None
        }
    }
}

/// Run headless Neovim (tests/fixtures/editors/neovim.lua) on `file` of
/// the catalog at `root` with `apply` as `$APPLY`: its version and what
/// its LSP client received.
fn in_neovim(version: &str, dir: &Path, root: &Path, file: &Path, apply: &str) -> Value {
    let out = dir.join("neovim.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/editors/neovim.lua");
    let mut child = Command::new(nvim())
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("SKILLSIFT", assert_cmd::cargo::cargo_bin("skillsift"))
        .env("ROOT", root)
        .env("FILE", file)
        .env("OUT", &out)
        .env("APPLY", apply)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let end = Instant::now() + 3 * WAIT;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > end {
            child.kill().unwrap();
            panic!("{version}: Neovim did not finish");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "{version}: {status:?} {stderr}");
    let got: Value = serde_json::from_str(
        &std::fs::read_to_string(&out)
            .unwrap_or_else(|e| panic!("{version}: no output ({e}): {stderr}")),
    )
    .unwrap();
    assert!(got.get("error").is_none(), "{version}: {got:#}");
    assert_eq!(got["attached"], true, "{version}: {got:#}");
    got
}

/// Neovim's own LSP client (`nvim --headless`, tests/fixtures/editors/
/// neovim.lua) starts the server, opens a case file and reports what it
/// holds: the diagnostics, the hints (through `vim.lsp.inlay_hint` from
/// 0.10, else a request its client makes), the code actions on a line.
#[test]
#[cfg_attr(
    skillsift_missing_nvim,
    ignore = "needs `nvim` (Neovim) on PATH or at SKILLSIFT_NVIM; bash .ci/run installs Debian's"
)]
fn neovim_receives_the_diagnostics_and_hints_through_its_own_client() {
    let Some(version) = neovim() else { return };
    let (dir, root) = catalog();
    let cases = root.join("evals/cases/test-doctor.json");
    let got = in_neovim(&version, dir.path(), &root, &cases, "");

    // the finding of the prompt that ranks #2, where Neovim shows it
    let line = std::fs::read_to_string(&cases)
        .unwrap()
        .lines()
        .position(|l| l.contains("my flaky builds"))
        .unwrap();
    let diags = got["diagnostics"].as_array().unwrap();
    let missed: Vec<&Value> = diags.iter().filter(|d| d["code"] == "SG501").collect();
    assert_eq!(missed.len(), 1, "{version}: {got:#}");
    assert_eq!(missed[0]["line"], line, "{version}: {got:#}");
    assert_eq!(missed[0]["source"], "skillsift", "{version}: {got:#}");
    assert_eq!(missed[0]["severity"], 1, "{version}: {got:#}");

    // a hint after every prompt, in the file's order
    let hints: Vec<&str> = (got["hints"].as_array().unwrap().iter())
        .map(|h| h["label"].as_str().unwrap())
        .collect();
    assert_eq!(hints, MISSED, "{version} ({}): {got:#}", got["hints_by"]);
    assert_eq!(
        got["hints"][0]["line"], line,
        "{version}: the first hint is on the prompt's line: {got:#}"
    );

    // the code actions Neovim's menu would list on that line
    let actions: Vec<&str> = (got["actions"].as_array().unwrap().iter())
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(
        actions.contains(&"Show the listing the client shows the model (skillsift)"),
        "{version}: {got:#}"
    );
    eprintln!("{version}: hints through {}", got["hints_by"]);
}

/// A quick fix applied through Neovim's own client: the edit lands in the
/// buffer (never saved) and the finding goes.
#[test]
#[cfg_attr(
    skillsift_missing_nvim,
    ignore = "needs `nvim` (Neovim) on PATH or at SKILLSIFT_NVIM; bash .ci/run installs Debian's"
)]
fn neovim_applies_a_quick_fix_through_its_own_client() {
    let Some(version) = neovim() else { return };
    let (dir, root) = catalog();
    let pdf = root.join("skills/pdf-forms/SKILL.md");
    std::fs::create_dir_all(pdf.parent().unwrap()).unwrap();
    let text = "---\nname: pdf-forms\ndescription: Fills PDF forms #fast and flattens them.\n---\n\n# pdf-forms\n\nBody.\n";
    std::fs::write(&pdf, text).unwrap();
    let got = in_neovim(
        &version,
        dir.path(),
        &root,
        &pdf,
        "Quote the whole value of `description`",
    );
    assert_eq!(
        got["applied"], "Quote the whole value of `description` (SG115)",
        "{version}: {got:#}"
    );
    assert_eq!(
        got["after"][2], "description: \"Fills PDF forms #fast and flattens them.\"",
        "{version}: {got:#}"
    );
    assert_eq!(got["fixed"], true, "{version}: {got:#}");
    let codes = got["after_codes"].as_array().unwrap();
    assert!(!codes.contains(&json!("SG115")), "{version}: {got:#}");
    assert_eq!(std::fs::read_to_string(&pdf).unwrap(), text, "never saved");
}

/// In a catalog of plugins installed one at a time, "rank this prompt"
/// ranks within the installation of the file's skill, as `check` ranks
/// its prompts (and as the hints do), and says so.
#[test]
fn a_prompt_is_ranked_within_the_plugin_of_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap().join("cat");
    let skill = |plugin: &str, name: &str, description: &str| {
        let d = root.join("plugins").join(plugin).join("skills").join(name);
        std::fs::create_dir_all(&d).unwrap();
        let md = d.join("SKILL.md");
        std::fs::write(
            &md,
            format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nBody.\n"),
        )
        .unwrap();
        md
    };
    let fill = skill(
        "alpha",
        "pdf-fill",
        "Fills in PDF forms. Use when a form must be completed.",
    );
    let merge = skill(
        "beta",
        "pdf-merge",
        "Fills in PDF forms, merges PDF files and splits PDF forms. Use for any PDF form.",
    );
    skill("beta", "slides", "Builds slide decks from an outline.");
    // the catalog is the folder of all plugins
    std::fs::write(root.join("skillsift.toml"), "").unwrap();
    let cases = root.join("evals/cases/pdf-fill.json");
    std::fs::create_dir_all(cases.parent().unwrap()).unwrap();
    std::fs::write(
        &cases,
        "{\n  \"skill_name\": \"pdf-fill\",\n  \"trigger\": {\n    \"positive\": [\n      { \"prompt\": \"fill in this PDF form\" }\n    ],\n    \"negative\": []\n  }\n}\n",
    )
    .unwrap();
    let mut s = Server::started(dir.path(), &root);
    s.open(&fill, "markdown");
    s.open(&merge, "markdown");
    // the hover over a prompt of `alpha` ranks within `alpha`, as the
    // hints and check do: `beta:pdf-merge` says "PDF form" more often,
    // but it is never in `alpha`'s listing
    s.open(&cases, "json");
    let cases_uri = uri(&cases);
    s.diagnostics(&cases_uri);
    assert_eq!(s.hints(&cases_uri), ["#1"]);
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": cases_uri}, "position": {"line": 4, "character": 20}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("1\\. alpha:pdf\\-fill"), "{text}");
    assert!(!text.contains("beta"), "{text}");
    let prompt = "fill in this PDF form";
    let mut rank = |file: &Path| {
        s.request(
            "workspace/executeCommand",
            json!({"command": "skillsift.rank", "arguments": [{"uri": uri(file), "prompt": prompt}]}),
        )
    };
    let names = |r: &Value| -> Vec<String> {
        (r["json"]["results"].as_array().unwrap().iter())
            .map(|x| x["name"].as_str().unwrap().to_string())
            .collect()
    };
    let in_alpha = rank(&fill);
    // Claude Code lists a plugin's skill as `plugin:skill`
    assert_eq!(names(&in_alpha), ["alpha:pdf-fill"], "{in_alpha:#}");
    let text = in_alpha["text"].as_str().unwrap();
    assert!(
        text.contains("note: ranked within plugin `alpha`, installed on its own"),
        "{text}"
    );
    let in_beta = rank(&merge);
    assert_eq!(names(&in_beta)[0], "beta:pdf-merge", "{in_beta:#}");
    assert!(
        !names(&in_beta).contains(&"alpha:pdf-fill".to_string()),
        "{in_beta:#}"
    );
    // and the listing is the one the model is shown with it installed
    let listed = s.request(
        "workspace/executeCommand",
        json!({"command": "skillsift.listing", "arguments": [{"uri": uri(&merge)}]}),
    );
    let entries: Vec<&str> = (listed["json"]["entries"].as_array().unwrap().iter())
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(entries, ["beta:pdf-merge", "beta:slides"], "{listed:#}");
    assert_eq!(listed["json"]["installation"], "plugin `beta`");
    assert!(
        (listed["text"].as_str().unwrap())
            .starts_with("with plugin `beta` installed on its own:\n"),
        "{listed:#}"
    );
    s.stop();
}

/// docs/editors.md's Neovim 0.7 snippet, as written, on a catalog without
/// skillsift.toml: the client's root is the folder holding `.git/` (not
/// `.git/` itself), and a case file at the catalog root gets its findings.
#[test]
#[cfg_attr(
    skillsift_missing_nvim,
    ignore = "needs `nvim` (Neovim) on PATH or at SKILLSIFT_NVIM; bash .ci/run installs Debian's"
)]
fn the_documented_neovim_07_setup_finds_the_root_without_a_config() {
    let Some(version) = neovim() else { return };
    let (dir, root) = catalog();
    std::fs::remove_file(root.join("skillsift.toml")).unwrap();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/editors.md"))
            .unwrap();
    let at = page
        .find("Neovim 0.7 (Debian 12's package")
        .expect("docs/editors.md has the Neovim 0.7 setup");
    let start = at + page[at..].find("```lua\n").unwrap() + 7;
    let end = start + page[start..].find("```").unwrap();
    let snippet = page[start..end].replace(
        "cmd = { 'skillsift', 'lsp', '--stdio' }",
        "cmd = { vim.env.SKILLSIFT, 'lsp', '--stdio' }",
    );
    assert!(snippet.contains("vim.env.SKILLSIFT"), "{snippet}");
    let script = dir.path().join("setup.lua");
    std::fs::write(
        &script,
        format!(
            "{snippet}\nvim.cmd('edit ' .. vim.fn.fnameescape(vim.env.FILE))\nlocal buf = vim.api.nvim_get_current_buf()\nlocal got = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)\nlocal roots = {{}}\nfor _, c in pairs(vim.lsp.get_active_clients()) do table.insert(roots, c.config.root_dir) end\nvim.fn.writefile({{ vim.fn.json_encode({{ attached = got, roots = roots, diagnostics = #vim.diagnostic.get(buf) }}) }}, vim.env.OUT)\nvim.cmd('qa!')\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("setup.json");
    let status = Command::new(nvim())
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("SKILLSIFT", assert_cmd::cargo::cargo_bin("skillsift"))
        .env("FILE", root.join("evals/cases/test-doctor.json"))
        .env("OUT", &out)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{version}: {status:?}");
    let got: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(got["attached"], true, "{version}: {got:#}");
    assert_eq!(
        got["roots"],
        json!([root.to_str().unwrap()]),
        "{version}: {got:#}"
    );
}
