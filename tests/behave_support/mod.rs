//! Shared harness for the Tier 3 tests: a copy of the fixture catalog in a
//! temporary folder, a private HOME, and the fake `claude` (and fake runner)
//! from tests/fixtures/behave/bin first on PATH. Nothing here reaches the
//! network or a model.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/behave")
}

/// Copy a folder tree (regular files and folders only).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// One call of the fake `claude`, as it logged it.
#[derive(Debug, Clone)]
pub struct Call {
    pub role: String,
    pub argv: Vec<String>,
    pub cwd: String,
    /// `find .` in the working folder (`.git` left out), sorted.
    pub files: Vec<String>,
    /// `git ls-files`.
    pub tracked: Vec<String>,
    /// `git status --porcelain`.
    pub status: Vec<String>,
    pub stdin: String,
    pub env: Vec<String>,
}

fn lines(b: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(b)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

pub struct Env {
    pub tmp: tempfile::TempDir,
    /// The catalog copy.
    pub root: PathBuf,
    pub home: PathBuf,
    pub log: PathBuf,
    pub pids: PathBuf,
    pub runner_log: PathBuf,
}

impl Env {
    pub fn new() -> Env {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("catalog");
        copy_tree(&fixtures().join("catalog"), &root);
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        Env {
            log: tmp.path().join("claude.log"),
            pids: tmp.path().join("pids"),
            runner_log: tmp.path().join("runner.log"),
            root,
            home,
            tmp,
        }
    }

    /// Write `skillsift.toml` at the catalog root.
    pub fn config(&self, text: &str) {
        std::fs::write(self.root.join("skillsift.toml"), text).unwrap();
    }

    /// `skillsift` with the fakes on PATH, run from the temporary folder.
    pub fn std_cmd(&self) -> std::process::Command {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("skillsift"));
        let path = format!(
            "{}:{}",
            fixtures().join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        c.current_dir(self.tmp.path())
            .env("PATH", path)
            .env("HOME", &self.home)
            .env("TMPDIR", self.tmp.path())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("SKILLSIFT_CACHE_DIR")
            .env_remove("XDG_CACHE_HOME")
            .env("FAKE_CLAUDE_LOG", &self.log)
            .env("FAKE_CLAUDE_PIDS", &self.pids)
            .env("FAKE_CLAUDE_STATE", self.tmp.path().join("fake-state"))
            .env("FAKE_CLAUDE_RECORDINGS", fixtures().join("recordings"))
            .env("FAKE_RUNNER_LOG", &self.runner_log)
            .env("FAKE_RUNNER_PIDS", &self.pids);
        c
    }

    pub fn cmd(&self) -> assert_cmd::Command {
        let mut c = assert_cmd::Command::from_std(self.std_cmd());
        c.timeout(std::time::Duration::from_secs(120));
        c
    }

    /// `skillsift check --behavioral demo-skill catalog … --allow-insufficient`:
    /// the fixture catalogs hold fewer than the 10 cases a verdict needs
    /// ([`Env::behave_as_is`] leaves the flag out).
    pub fn behave(&self, extra: &[&str]) -> assert_cmd::Command {
        let mut c = self.behave_as_is(extra);
        c.arg("--allow-insufficient");
        c
    }

    /// `skillsift check --behavioral demo-skill catalog …`.
    pub fn behave_as_is(&self, extra: &[&str]) -> assert_cmd::Command {
        let mut c = self.cmd();
        c.args(["check", "--behavioral", "demo-skill", "catalog"])
            .args(extra);
        c
    }

    /// Every logged call of the fake `claude`, in order.
    pub fn calls(&self) -> Vec<Call> {
        let data = std::fs::read(&self.log).unwrap_or_default();
        let mut r = Reader { data: &data, at: 0 };
        let mut out = Vec::new();
        while r.at < data.len() {
            let (k, role) = r.header();
            assert_eq!(k, "call");
            let (k, n) = r.header();
            assert_eq!(k, "argv");
            let mut c = Call {
                role,
                argv: (0..n.parse::<usize>().unwrap())
                    .map(|_| r.field("arg"))
                    .collect(),
                cwd: r.field("cwd"),
                files: Vec::new(),
                tracked: Vec::new(),
                status: Vec::new(),
                stdin: String::new(),
                env: Vec::new(),
            };
            c.files = lines(r.field("files").as_bytes());
            let git = lines(r.field("git").as_bytes());
            let cut = git.iter().position(|l| l == "--").unwrap_or(git.len());
            c.tracked = git[..cut].to_vec();
            c.status = git.get(cut + 1..).map(|s| s.to_vec()).unwrap_or_default();
            c.stdin = r.field("stdin");
            c.env = lines(r.field("env").as_bytes());
            assert_eq!(r.header().0, "end");
            out.push(c);
        }
        out
    }

    pub fn executor_calls(&self) -> Vec<Call> {
        self.calls()
            .into_iter()
            .filter(|c| c.role == "executor")
            .collect()
    }

    pub fn grader_calls(&self) -> Vec<Call> {
        self.calls()
            .into_iter()
            .filter(|c| c.role == "grader")
            .collect()
    }

    /// `evals/results/demo-skill/iteration-N` of the catalog copy.
    pub fn iteration(&self, n: u32) -> PathBuf {
        self.root
            .join("evals/results/demo-skill")
            .join(format!("iteration-{n}"))
    }

    /// Replace the demo skill's case file.
    pub fn cases(&self, json: &str) {
        std::fs::write(self.root.join("evals/cases/demo-skill.json"), json).unwrap();
    }

    /// Pids the fakes wrote (themselves and the children they started).
    pub fn pids(&self) -> Vec<i32> {
        std::fs::read_to_string(&self.pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }
}

/// Reads the fake's log: `NAME VALUE` header lines and `NAME LENGTH` +
/// bytes fields.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn header(&mut self) -> (String, String) {
        let end = self.data[self.at..]
            .iter()
            .position(|&b| b == b'\n')
            .unwrap()
            + self.at;
        let line = String::from_utf8_lossy(&self.data[self.at..end]).into_owned();
        self.at = end + 1;
        let (k, v) = line.split_once(' ').unwrap_or((&line, ""));
        (k.to_string(), v.to_string())
    }

    fn field(&mut self, name: &str) -> String {
        let (k, n) = self.header();
        assert_eq!(k, name, "log out of step");
        let n: usize = n.parse().unwrap();
        let v = String::from_utf8_lossy(&self.data[self.at..self.at + n]).into_owned();
        self.at += n + 1;
        v
    }
}

/// Whether `pid` is a live (not zombie) process.
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => !s.contains(") Z") && !s.contains(") X"),
        Err(_) => false,
    }
}

/// A case file for `demo-skill` holding `evals` and the usual trigger
/// prompts.
pub fn cases_with_evals(evals: serde_json::Value) -> String {
    serde_json::json!({
        "skill_name": "demo-skill",
        "trigger": {
            "positive": [
                {"prompt": "[rec:loads] The invoice total is off by a cent, fix it test-first"},
                {"prompt": "[rec:loads] Our money rounding loses a cent on refunds"},
                {"prompt": "[rec:loads] Totals gain a cent when we split the bill"}
            ],
            "negative": [
                {"prompt": "[rec:quiet] Update the architecture diagram in the docs", "owner": "other-skill"},
                {"prompt": "[rec:quiet] What time is it in Lisbon?"}
            ]
        },
        "evals": evals,
    })
    .to_string()
}

/// A case file whose single eval is `prompt` (dialogue), with the usual
/// trigger prompts.
pub fn one_dialogue_eval(prompt: &str, expectations: &[&str]) -> String {
    cases_with_evals(serde_json::json!([{
        "id": 1,
        "kind": "dialogue",
        "prompt": prompt,
        "expected_output": "something",
        "expectations": expectations,
    }]))
}

pub fn read_json(p: &Path) -> serde_json::Value {
    serde_json::from_str(
        &std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
    .unwrap()
}
