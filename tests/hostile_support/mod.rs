//! The hostile-catalog harness: a catalog written by a stranger, every
//! subcommand run over it under `strace`, and every run held to what
//! skillsift promises for untrusted input (docs/security.md):
//!
//! - **no program started that the run did not name**: skillsift itself
//!   may start only the programs a case declares ([`Case::starts`]: `git`,
//!   the agent, the runner, a `command` check's program); `git` may start
//!   only `git` (a hook, an fsmonitor, a filter or a pager run by git is a
//!   failure); what the agent, the runner or a command check starts is
//!   theirs (they run in the workspace, by design);
//! - **nothing read or written outside the catalog** by skillsift or git: a
//!   successful `open`/`openat`/`creat` (the path the kernel resolved, so a
//!   link is seen through) or a `mkdir`, `rename`, `unlink`, `symlink`,
//!   `link`, `chmod` or `truncate` must land in the catalog, the scratch
//!   folder (`TMPDIR`: workspaces and run homes), the cache folder, the
//!   home folder (the copy guard looks at installed skills), a path the
//!   case names itself ([`Case::user_path`], what a user names on the
//!   command line), or one of [`SYSTEM_PATHS`] (the dynamic loader, /proc,
//!   /sys, /dev/null, git's own files);
//! - **no panic** (exit 101, or `panicked` on stderr);
//! - **no run over [`BOUND`]**: a bound, not a speed assertion (the runs
//!   are tiny): it proves "never a hang";
//! - **no raw control, bidirectional or tag character** in stdout or
//!   stderr ([`raw_control`]);
//! - **no secret** ([`Hostile::secret`]) in stdout, stderr or any file
//!   skillsift wrote;
//! - **no workflow command** (a line that GitHub's runner reads as
//!   `::name::…` or `##[name]…`) outside `--format github`. The runner
//!   trims leading whitespace first (actions/runner,
//!   `ActionCommand.TryParseV2`), so an indented line counts too.
//!
//! Adding a hostile catalog is a few lines in `tests/hostile_catalog.rs`:
//! build it with [`Hostile`] (`write`, `link`, `fifo`, `outside`),
//! register its secrets, then either run the whole matrix
//! ([`Hostile::every_command`]) and assert on the runs, or run single
//! [`Case`]s with [`Hostile::run`]. Every run is checked as above before
//! the test sees it.
//!
//! Without `strace` (or where ptrace is not allowed) the tests skip with a
//! message; `SKILLSIFT_REQUIRE_CLIENTS=1` (set by `.ci/run`) makes that a
//! failure.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Longest a run may take, strace included.
pub const BOUND: Duration = Duration::from_secs(5);

/// Paths outside the test's folders that skillsift and git may open: the
/// dynamic loader and libraries, locale and time-zone data, the kernel's
/// views of the process, the null device and the random source, and git's
/// own installation. Listed explicitly: anything else is a failure. Of a
/// process's own files under `/proc/<pid>/` only [`PROC_FILES`] may be
/// opened (never `environ`, `cmdline` or `mem`).
pub const SYSTEM_PATHS: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.preload",
    "/etc/locale.alias",
    "/etc/localtime",
    "/lib/",
    "/lib64/",
    "/usr/lib/",
    "/usr/lib64/",
    "/usr/share/locale/",
    "/usr/share/zoneinfo/",
    "/usr/share/git-core/",
    "/usr/local/share/git-core/",
    "/usr/libexec/git-core/",
    "/usr/local/libexec/git-core/",
    "/proc/filesystems",
    "/proc/sys/kernel/",
    // glibc's malloc, when it shrinks a thread's heap (under load)
    "/proc/sys/vm/overcommit_memory",
    // mimalloc, the binary's allocator, at start: whether the kernel
    // backs memory with huge pages
    "/sys/kernel/mm/transparent_hugepage/enabled",
    "/sys/fs/cgroup/",
    "/sys/devices/system/cpu/",
    "/dev/null",
    "/dev/urandom",
    "/dev/random",
];

/// What skillsift's runtime reads of its own process: the memory map (the
/// stack guard), the control group and mounts (how many threads to run).
pub const PROC_FILES: &[&str] = &["maps", "cgroup", "mountinfo", "stat", "status"];

/// Whether `strace` can trace here; prints why not, and fails when the
/// environment requires it.
pub fn strace_available() -> bool {
    static OK: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    let r = OK.get_or_init(|| {
        match std::process::Command::new("strace")
            .args(["-f", "-qq", "-e", "trace=execve", "-o", "/dev/null", "true"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
        {
            Ok(o) if o.status.success() => Ok(()),
            Ok(o) => Err(format!(
                "strace cannot trace here: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => Err(format!("strace is not installed ({e})")),
        }
    });
    match r {
        Ok(()) => true,
        Err(why) => {
            if std::env::var_os("SKILLSIFT_REQUIRE_CLIENTS").is_some_and(|v| v == "1") {
                panic!("{why}, and SKILLSIFT_REQUIRE_CLIENTS=1 requires it");
            }
            eprintln!("skipped: {why}");
            false
        }
    }
}

/// The fake agent and runner of the Tier 3 tests.
pub fn behave_fixtures() -> PathBuf {
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

/// A hostile catalog in a temporary folder, beside the folders a run may
/// use:
///
/// ```text
/// <tmp>/catalog/   the catalog (`catalog` on the command line)
/// <tmp>/outside/   what the catalog links to: never to be read or written
/// <tmp>/user/      files the user names on the command line
/// <tmp>/scratch/   TMPDIR
/// <tmp>/home/      HOME
/// <tmp>/cache/     SKILLSIFT_CACHE_DIR
/// <tmp>/trace/     strace's logs
/// ```
///
/// Runs start in `<tmp>`.
pub struct Hostile {
    pub tmp: tempfile::TempDir,
    /// `<tmp>/catalog`.
    pub root: PathBuf,
    /// `<tmp>/outside`.
    pub outside: PathBuf,
    /// `<tmp>/user`.
    pub user: PathBuf,
    /// The skill the matrix runs `cases`, `init` and Tier 3 on.
    pub skill: String,
    secrets: Vec<String>,
    runs: std::cell::Cell<usize>,
}

impl Hostile {
    /// An empty catalog.
    pub fn empty() -> Hostile {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        for d in [
            "catalog", "outside", "user", "scratch", "home", "cache", "trace",
        ] {
            std::fs::create_dir_all(base.join(d)).unwrap();
        }
        Hostile {
            root: base.join("catalog"),
            outside: base.join("outside"),
            user: base.join("user"),
            skill: "demo-skill".into(),
            secrets: Vec::new(),
            runs: std::cell::Cell::new(0),
            tmp,
        }
    }

    /// The Tier 3 demo catalog (`demo-skill` with trigger prompts, an
    /// execution eval over `evals/fixtures/demo-project` and a dialogue
    /// eval, answered by the fake `claude`), to make hostile.
    pub fn demo() -> Hostile {
        let h = Hostile::empty();
        copy_tree(&behave_fixtures().join("catalog"), &h.root);
        h
    }

    /// The test's folder (where runs start).
    pub fn base(&self) -> PathBuf {
        self.root.parent().unwrap().to_path_buf()
    }

    /// Write `rel` (relative to the catalog) with `text`, making folders.
    pub fn write(&self, rel: &str, text: impl AsRef<[u8]>) -> PathBuf {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Write `name` in `<tmp>/outside`: a file the catalog must never
    /// reach.
    pub fn outside(&self, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
        let p = self.outside.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Make `rel` (relative to the catalog) a symbolic link to `target`,
    /// replacing what is there.
    pub fn link(&self, rel: &str, target: impl AsRef<Path>) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir()) {
            std::fs::remove_dir_all(&p).unwrap();
        } else {
            let _ = std::fs::remove_file(&p);
        }
        std::os::unix::fs::symlink(target, &p).unwrap();
    }

    /// Make `rel` (relative to the catalog) a FIFO nobody writes to.
    pub fn fifo(&self, rel: &str) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&p);
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
    }

    /// Text that must appear in no output and no file skillsift writes.
    pub fn secret(&mut self, s: &str) {
        self.secrets.push(s.to_string());
    }

    /// Run one case under strace and check it (see the module doc); the
    /// run is returned for the case's own assertions.
    pub fn run(&self, case: &Case) -> Run {
        let n = self.runs.get();
        self.runs.set(n + 1);
        let base = self.base();
        let trace_dir = base.join("trace").join(n.to_string());
        std::fs::create_dir_all(&trace_dir).unwrap();
        let bin = assert_cmd::cargo::cargo_bin("skillsift");
        let path = format!(
            "{}:{}",
            behave_fixtures().join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = std::process::Command::new("strace");
        cmd.args([
            "--seccomp-bpf",
            "-f",
            "-ff",
            "-y",
            "-x",
            "-qq",
            "-s",
            "4096",
        ])
        .args(["-e", "trace=%file,%process"])
        .arg("-o")
        .arg(trace_dir.join("t"))
        .arg("--")
        .arg(&bin)
        .args(&case.args)
        .current_dir(&base)
        .env_clear()
        .env("PATH", path)
        .env("HOME", base.join("home"))
        .env("TMPDIR", base.join("scratch"))
        .env("SKILLSIFT_CACHE_DIR", base.join("cache"))
        .env("NO_COLOR", "1")
        .env("LANG", "C.UTF-8")
        .env(
            "FAKE_CLAUDE_RECORDINGS",
            behave_fixtures().join("recordings"),
        )
        .env("FAKE_CLAUDE_STATE", base.join("scratch/fake-state"))
        .env("FAKE_CLAUDE_LOG", base.join("scratch/claude.log"))
        .env("FAKE_RUNNER_LOG", base.join("scratch/runner.log"))
        .envs(case.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        {
            use std::os::unix::process::CommandExt;
            // its own group, so that a run over the bound is killed whole
            cmd.process_group(0);
        }
        let start = Instant::now();
        let mut child = cmd.spawn().expect("strace starts");
        let stdout = drain(child.stdout.take().unwrap());
        let stderr = drain(child.stderr.take().unwrap());
        let mut over = false;
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > BOUND {
                over = true;
                // SAFETY: a signal to the process group strace leads.
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                break child.wait().unwrap();
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let elapsed = start.elapsed();
        let stdout = stdout.join().unwrap();
        let stderr = stderr.join().unwrap();
        let trace = Trace::read(&trace_dir, &base);
        let run = Run {
            what: case.shown(),
            code: status.code(),
            stdout,
            stderr,
            elapsed,
            trace,
        };
        let mut problems = Vec::new();
        if over {
            problems.push(format!(
                "ran over {BOUND:?} (a bound, not a speed assertion: a hang)"
            ));
        }
        self.check(case, &run, &mut problems);
        if !problems.is_empty() {
            let more = problems.len().saturating_sub(20);
            problems.truncate(20);
            if more > 0 {
                problems.push(format!("… and {more} more"));
            }
            panic!(
                "{}:\n- {}\n{}",
                run.what,
                problems.join("\n- "),
                run.shown()
            );
        }
        if std::env::var_os("SKILLSIFT_HOSTILE_TIMES").is_some() {
            eprintln!("{:>8.3}s {}", run.elapsed.as_secs_f64(), run.what);
        }
        run
    }

    /// Every run of [`Case`] `case` must keep the promises; the problems
    /// it breaks, in `problems`.
    fn check(&self, case: &Case, run: &Run, problems: &mut Vec<String>) {
        if run.code == Some(101) || String::from_utf8_lossy(&run.stderr).contains("panicked") {
            problems.push("panicked".into());
        }
        if run.code.is_none() && !problems.iter().any(|p| p.starts_with("ran over")) {
            problems.push("killed by a signal".into());
        }
        for (stream, bytes) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            if let Some(found) = raw_control(bytes) {
                problems.push(format!("raw {found} in {stream}"));
            }
            let text = String::from_utf8_lossy(bytes);
            for s in &self.secrets {
                if text.contains(s.as_str()) {
                    problems.push(format!("the secret `{s}` in {stream}"));
                }
            }
            if !case.github
                && let Some(line) = workflow_command(&text)
            {
                problems.push(format!("a workflow command in {stream}: {line:?}"));
            }
        }
        let base = self.base();
        let allowed = Allowed {
            dirs: [
                self.root.clone(),
                base.join("scratch"),
                base.join("home"),
                base.join("cache"),
            ]
            .into_iter()
            .chain(case.user_paths.iter().map(|p| absolute(&base, p)))
            .collect(),
        };
        let t = &run.trace;
        for e in &t.execs {
            let Some(first) = e.chain.get(1) else {
                continue;
            };
            let name = file_name(first);
            if !case.starts.iter().any(|s| s == name) {
                problems.push(format!(
                    "skillsift started `{}` ({}), which this run does not name",
                    e.program,
                    e.argv.join(" ")
                ));
                continue;
            }
            if name == "git"
                && let Some(bad) = e.chain[1..].iter().find(|p| !is_git(p))
            {
                problems.push(format!(
                    "git started `{bad}` ({}): a hook, fsmonitor, filter or pager ran",
                    e.argv.join(" ")
                ));
            }
        }
        for a in &t.accesses {
            if !allowed.admits(&a.path) {
                problems.push(format!(
                    "{} {} `{}` outside the catalog ({})",
                    a.program,
                    if a.write { "wrote" } else { "read" },
                    a.path.display(),
                    a.call
                ));
            }
        }
        for w in t.written() {
            let Ok(bytes) = std::fs::read(&w) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            for s in &self.secrets {
                if text.contains(s.as_str()) {
                    problems.push(format!("the secret `{s}` in {}", w.display()));
                }
            }
        }
        problems.sort();
        problems.dedup();
    }

    /// Every subcommand in every format over this catalog, in an order
    /// that lets each see the catalog as built (writing runs last:
    /// `check --behavioral`, `init`): the cases of [`matrix`].
    pub fn every_command(&self) -> Vec<Run> {
        matrix(&self.skill)
            .iter()
            .map(|c| self.run(c))
            .collect::<Vec<_>>()
    }
}

/// The standard matrix over `catalog` for `skill`: `check` in every
/// format (and `--no-route`, `--diff`), `listing` for every client and
/// format, `rank` (and `--explain`, json), `cases`, `init --dry-run`,
/// the Tier 3 dry run (human and json), `tune` (human, json, the
/// `--behavioral` dry run), `report` (to a file and to stdout), then the
/// writing ones: Tier 3 runs of a shard each with the fake `claude` and
/// with the fake runner, `tune --write`, `init`.
pub fn matrix(skill: &str) -> Vec<Case> {
    let mut v = Vec::new();
    for format in ["human", "json", "github", "sarif", "junit"] {
        v.push(Case::new(["check", "catalog", "--format", format]));
        v.push(Case::new([
            "check",
            "catalog",
            "--no-route",
            "--format",
            format,
        ]));
    }
    v.push(Case::new([
        "check",
        "catalog",
        "--no-route",
        "--diff",
        "--unsafe-fixes",
    ]));
    for client in ["claude-code", "codex", "gemini-cli", "opencode", "spec"] {
        for format in ["human", "json"] {
            v.push(Case::new([
                "listing", "catalog", "--client", client, "--format", format,
            ]));
        }
    }
    v.push(Case::new(["rank", "fix the invoice rounding", "catalog"]));
    v.push(Case::new([
        "rank",
        "fix the invoice rounding",
        "catalog",
        "--explain",
        "--format",
        "json",
    ]));
    for format in ["human", "json"] {
        v.push(Case::new(["cases", skill, "catalog", "--format", format]));
        v.push(Case::new([
            "init",
            skill,
            "catalog",
            "--dry-run",
            "--format",
            format,
        ]));
        v.push(Case::new([
            "check",
            "--behavioral",
            skill,
            "catalog",
            "--dry-run",
            "--trials",
            "1",
            "--format",
            format,
        ]));
    }
    for format in ["human", "json"] {
        v.push(Case::new(["tune", skill, "catalog", "--format", format]));
    }
    v.push(Case::new([
        "tune",
        skill,
        "catalog",
        "--behavioral",
        "--dry-run",
        "--trials",
        "1",
    ]));
    // the report is written beside its output first, then renamed
    v.push(Case::new(["report", "catalog", "-o", "user/report.html"]).user_path("user"));
    v.push(Case::new(["report", "catalog", "-o", "-"]));
    // a third of the cases (a run of the fake agent under strace takes
    // a quarter of a second): enough to set up workspaces, with and
    // without fixtures
    v.push(
        Case::new([
            "check",
            "--behavioral",
            skill,
            "catalog",
            "--trials",
            "1",
            "--allow-insufficient",
            "--shard",
            "1/3",
        ])
        .starts(&["git", "claude"]),
    );
    v.push(
        Case::new([
            "check",
            "--behavioral",
            skill,
            "catalog",
            "--trials",
            "1",
            "--allow-insufficient",
            "--shard",
            "2/3",
            "--runner",
            "fake-runner ok",
        ])
        .starts(&["git", "fake-runner"]),
    );
    v.push(Case::new(["tune", skill, "catalog", "--write"]));
    v.push(Case::new(["init", skill, "catalog"]));
    v
}

/// One command line and what it may do.
#[derive(Debug, Clone)]
pub struct Case {
    pub args: Vec<String>,
    /// Programs skillsift may start (file names: `git`, `claude`).
    pub starts: Vec<String>,
    /// Paths (relative to the test folder, or absolute) the user names.
    pub user_paths: Vec<PathBuf>,
    /// Variables set for the run.
    pub env: Vec<(String, String)>,
    /// `--format github`: workflow commands are the output.
    pub github: bool,
}

impl Case {
    pub fn new<I, S>(args: I) -> Case
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let args: Vec<String> = args.into_iter().map(Into::into).collect();
        let github = args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "github");
        Case {
            args,
            starts: Vec::new(),
            user_paths: Vec::new(),
            env: Vec::new(),
            github,
        }
    }

    /// Programs (file names) skillsift may start in this run.
    pub fn starts(mut self, programs: &[&str]) -> Case {
        self.starts.extend(programs.iter().map(|s| s.to_string()));
        self
    }

    /// A file or folder the user names (relative to the test folder, or
    /// absolute): reading or writing it is the user's choice.
    pub fn user_path(mut self, p: impl AsRef<Path>) -> Case {
        self.user_paths.push(p.as_ref().to_path_buf());
        self
    }

    /// Set `key` for the run.
    pub fn env(mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> Case {
        self.env.push((
            key.to_string(),
            value.as_ref().to_string_lossy().into_owned(),
        ));
        self
    }

    fn shown(&self) -> String {
        format!("skillsift {}", self.args.join(" "))
    }
}

/// What a run did.
#[derive(Debug)]
pub struct Run {
    pub what: String,
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
    pub trace: Trace,
}

impl Run {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// Assert the exit code.
    pub fn code(&self, code: i32) -> &Run {
        assert_eq!(
            self.code,
            Some(code),
            "{}: exit code\n{}",
            self.what,
            self.shown()
        );
        self
    }

    /// Assert that stderr holds `text`.
    pub fn stderr_has(&self, text: &str) -> &Run {
        assert!(
            self.stderr().contains(text),
            "{}: stderr lacks {text:?}\n{}",
            self.what,
            self.shown()
        );
        self
    }

    /// Assert that stdout holds `text`.
    pub fn stdout_has(&self, text: &str) -> &Run {
        assert!(
            self.stdout().contains(text),
            "{}: stdout lacks {text:?}\n{}",
            self.what,
            self.shown()
        );
        self
    }

    /// Assert that skillsift started no program (a refusal before any run).
    pub fn started_nothing(&self) -> &Run {
        assert!(
            self.started().is_empty(),
            "{}: started {:?}\n{}",
            self.what,
            self.started(),
            self.shown()
        );
        self
    }

    /// Programs skillsift started (file names, in order).
    pub fn started(&self) -> Vec<String> {
        self.trace
            .execs
            .iter()
            .filter(|e| e.chain.len() == 2)
            .map(|e| file_name(&e.program).to_string())
            .collect()
    }

    fn shown(&self) -> String {
        let cut = |s: String| {
            if s.len() > 6000 {
                let mut at = 6000;
                while !s.is_char_boundary(at) {
                    at -= 1;
                }
                format!("{}…", &s[..at])
            } else {
                s
            }
        };
        format!(
            "exit {:?} after {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
            self.code,
            self.elapsed,
            cut(self.stdout()),
            cut(self.stderr())
        )
    }
}

fn drain(mut r: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = r.read_to_end(&mut v);
        v
    })
}

/// The first raw control, bidirectional or tag character of `bytes`, with
/// some context: C0 controls but line feed and tab, DEL, C1 controls,
/// U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, U+E0000–U+E007F.
pub fn raw_control(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let (at, c) = text.char_indices().find(|&(_, c)| {
        matches!(c, '\0'..='\x08' | '\x0b'..='\x1f' | '\x7f'..='\u{9f}')
            || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}')
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
            || ('\u{e0000}'..='\u{e007f}').contains(&c)
    })?;
    let from = text[..at]
        .char_indices()
        .rev()
        .nth(60)
        .map_or(0, |(i, _)| i);
    Some(format!("U+{:04X} after {:?}", c as u32, &text[from..at]))
}

/// The first line of `text` GitHub's runner would read as a workflow
/// command: after leading whitespace, `::name…::` or `##[name…]`.
pub fn workflow_command(text: &str) -> Option<&str> {
    text.lines().find(|l| {
        let t = l.trim_start();
        (t.starts_with("::") && t[2..].contains("::")) || (t.starts_with("##[") && t.contains(']'))
    })
}

fn file_name(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// git's own programs: `git` and its helpers (`git-core/git-*`).
fn is_git(p: &str) -> bool {
    let n = file_name(p);
    n == "git" || (p.contains("/git-core/") && n.starts_with("git"))
}

fn absolute(base: &Path, p: &Path) -> PathBuf {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    };
    real_or_lexical(&p)
}

/// `p` with its existing part resolved (symbolic links followed), the
/// rest joined lexically.
fn real_or_lexical(p: &Path) -> PathBuf {
    let mut tail = Vec::new();
    let mut head = p.to_path_buf();
    loop {
        if let Ok(r) = head.canonicalize() {
            let mut out = r;
            for c in tail.iter().rev() {
                out.push(c);
            }
            return normalize(&out);
        }
        match (head.file_name().map(|n| n.to_os_string()), head.parent()) {
            (Some(n), Some(parent)) => {
                tail.push(n);
                head = parent.to_path_buf();
            }
            _ => return normalize(p),
        }
    }
}

fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

struct Allowed {
    dirs: Vec<PathBuf>,
}

impl Allowed {
    fn admits(&self, p: &Path) -> bool {
        if self.dirs.iter().any(|d| p.starts_with(d)) {
            return true;
        }
        let s = p.to_string_lossy();
        if s == "/" || s == "/tmp" {
            // the path of the temporary folder is resolved component by
            // component
            return true;
        }
        if let Some(rest) = s.strip_prefix("/proc/")
            && let Some((pid, file)) = rest.split_once('/')
            && pid.parse::<u32>().is_ok()
            && PROC_FILES.contains(&file)
        {
            // the process's own views (`/proc/self` as the kernel resolves it)
            return true;
        }
        SYSTEM_PATHS.iter().any(|a| match a.strip_suffix('/') {
            Some(dir) => s.starts_with(a) || s == dir,
            None => s == *a,
        }) || self.is_exe(&s)
    }

    /// The binary under test and the programs it runs are opened when
    /// they start.
    fn is_exe(&self, s: &str) -> bool {
        let bin = assert_cmd::cargo::cargo_bin("skillsift");
        s == bin.to_string_lossy()
    }
}

/// One program started.
#[derive(Debug, Clone)]
pub struct Exec {
    /// The path started.
    pub program: String,
    pub argv: Vec<String>,
    /// The programs from skillsift down to this one: `[skillsift, git]`,
    /// `[skillsift, claude, bash, git]`.
    pub chain: Vec<String>,
}

/// One file-system access by skillsift or git.
#[derive(Debug, Clone)]
pub struct Access {
    pub program: String,
    pub path: PathBuf,
    pub write: bool,
    /// The system call, as strace printed it (cut).
    pub call: String,
}

/// What strace saw, for the processes that matter: every program started
/// (with who started it), every file opened or changed by skillsift and
/// by git.
#[derive(Debug, Default)]
pub struct Trace {
    pub execs: Vec<Exec>,
    pub accesses: Vec<Access>,
}

impl Trace {
    /// Files skillsift opened for writing (created or truncated).
    pub fn written(&self) -> BTreeSet<PathBuf> {
        self.accesses
            .iter()
            .filter(|a| a.write && a.call.starts_with("open"))
            .map(|a| a.path.clone())
            .collect()
    }

    /// Read the `-ff` logs in `dir` (`t.<pid>`); `base` is the first
    /// process's working folder.
    fn read(dir: &Path, base: &Path) -> Trace {
        let mut logs: BTreeMap<u32, Vec<Line>> = BTreeMap::new();
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(pid) = name.strip_prefix("t.").and_then(|p| p.parse().ok()) else {
                continue;
            };
            let text = std::fs::read(e.path()).unwrap();
            let text = String::from_utf8_lossy(&text);
            logs.insert(pid, text.lines().filter_map(Line::parse).collect());
        }
        // parents, from the results of clone/fork/vfork
        let mut parent: BTreeMap<u32, u32> = BTreeMap::new();
        for (&pid, lines) in &logs {
            for l in lines {
                if matches!(l.name.as_str(), "clone" | "clone3" | "fork" | "vfork")
                    && let Ok(child) = l.result.trim().parse::<u32>()
                {
                    parent.insert(child, pid);
                }
            }
        }
        let Some(&root) = logs.keys().find(|p| !parent.contains_key(p)) else {
            return Trace::default();
        };
        // every process's chain of programs, resolved top-down: a child
        // starts with its parent's chain at the time it was made (the
        // parent's last program is the one that made it)
        let mut order: Vec<u32> = Vec::new();
        let mut stack = vec![root];
        let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for (&c, &p) in &parent {
            children.entry(p).or_default().push(c);
        }
        while let Some(p) = stack.pop() {
            order.push(p);
            if let Some(cs) = children.get(&p) {
                stack.extend(cs.iter().copied());
            }
        }
        let mut chains: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        let mut cwds: BTreeMap<u32, PathBuf> = BTreeMap::new();
        let mut trace = Trace::default();
        for pid in order {
            let mut chain = parent
                .get(&pid)
                .and_then(|p| chains.get(p))
                .cloned()
                .unwrap_or_default();
            let mut cwd = parent
                .get(&pid)
                .and_then(|p| cwds.get(p))
                .cloned()
                .unwrap_or_else(|| base.to_path_buf());
            for l in logs.get(&pid).map(Vec::as_slice).unwrap_or_default() {
                if let Some(c) = l.fdcwd() {
                    cwd = c;
                }
                if l.name == "execve" || l.name == "execveat" {
                    if l.result.trim() != "0" {
                        continue;
                    }
                    let program = l.strings().first().cloned().unwrap_or_default();
                    chain.push(program.clone());
                    trace.execs.push(Exec {
                        program,
                        argv: l.argv(),
                        chain: chain.clone(),
                    });
                    continue;
                }
                if l.name == "chdir" && l.ok() {
                    if let Some(p) = l.strings().first() {
                        cwd = cwd.join(p);
                    }
                    continue;
                }
                // skillsift itself (before and after it starts a child)
                // and git: the processes whose file access is held to
                // the catalog
                let watched = match chain.get(1) {
                    None => true,
                    Some(p) => is_git(p),
                };
                if !watched || !l.ok() {
                    continue;
                }
                let program = chain
                    .last()
                    .map(|p| file_name(p).to_string())
                    .unwrap_or_default();
                if let Some(a) = l.access(&cwd) {
                    trace.accesses.push(Access {
                        program,
                        path: a.0,
                        write: a.1,
                        call: l.raw.chars().take(300).collect(),
                    });
                }
            }
            chains.insert(pid, chain);
            cwds.insert(pid, cwd);
        }
        trace
    }
}

/// One system call as `strace -y -x` prints it.
#[derive(Debug)]
struct Line {
    name: String,
    /// The arguments, split at top-level commas.
    args: Vec<String>,
    result: String,
    raw: String,
}

impl Line {
    fn parse(raw: &str) -> Option<Line> {
        let open = raw.find('(')?;
        let name = &raw[..open];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return None;
        }
        // the matching `)`, outside strings, `<…>` fd paths, brackets
        let b = raw.as_bytes();
        let mut depth = 0i32;
        let mut i = open;
        let mut in_str = false;
        let mut in_path = false;
        let mut args = Vec::new();
        let mut start = open + 1;
        while i < b.len() {
            let c = b[i];
            if in_str {
                if c == b'\\' {
                    i += 1;
                } else if c == b'"' {
                    in_str = false;
                }
            } else if in_path {
                if c == b'>' {
                    in_path = false;
                }
            } else {
                match c {
                    b'"' => in_str = true,
                    b'<' if i > 0 && (b[i - 1].is_ascii_digit() || b[i - 1] == b'D') => {
                        in_path = true
                    }
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            args.push(raw[start..i].trim().to_string());
                            break;
                        }
                    }
                    b',' if depth == 1 => {
                        args.push(raw[start..i].trim().to_string());
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        let rest = raw.get(i + 1..)?;
        let result = rest.trim_start().strip_prefix('=')?.trim().to_string();
        Some(Line {
            name: name.to_string(),
            args,
            result,
            raw: raw.to_string(),
        })
    }

    fn ok(&self) -> bool {
        !self.result.starts_with('-') && !self.result.starts_with('?')
    }

    /// The string arguments, unescaped.
    fn strings(&self) -> Vec<String> {
        self.args
            .iter()
            .filter(|a| a.starts_with('"'))
            .map(|a| unquote(a))
            .collect()
    }

    /// execve's argv.
    fn argv(&self) -> Vec<String> {
        let Some(list) = self.args.get(1) else {
            return Vec::new();
        };
        let inner = list.trim_start_matches('[').trim_end_matches(']');
        let mut out = Vec::new();
        let b = inner.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'"' {
                let s = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                out.push(unquote(&inner[s..(i + 1).min(inner.len())]));
            }
            i += 1;
        }
        out
    }

    /// The working folder strace shows for `AT_FDCWD`.
    fn fdcwd(&self) -> Option<PathBuf> {
        self.args
            .iter()
            .find_map(|a| a.strip_prefix("AT_FDCWD<")?.strip_suffix('>'))
            .map(|p| PathBuf::from(unescape(p)))
    }

    /// The directory an `*at` argument names (`3</x>`, `AT_FDCWD</x>`).
    fn dirfd(arg: &str) -> Option<PathBuf> {
        let at = arg.find('<')?;
        Some(PathBuf::from(unescape(arg[at + 1..].strip_suffix('>')?)))
    }

    /// The path this call opened or changed, and whether it wrote.
    fn access(&self, cwd: &Path) -> Option<(PathBuf, bool)> {
        let resolve = |dir: Option<PathBuf>, arg: &str| -> PathBuf {
            let p = PathBuf::from(unquote(arg));
            let p = if p.is_absolute() {
                p
            } else {
                dir.unwrap_or_else(|| cwd.to_path_buf()).join(p)
            };
            real_or_lexical_parent(&p)
        };
        let flags_write = |f: &str| {
            f.contains("O_WRONLY")
                || f.contains("O_RDWR")
                || f.contains("O_CREAT")
                || f.contains("O_TRUNC")
        };
        match self.name.as_str() {
            "open" | "openat" | "openat2" | "creat" => {
                let (path_arg, flags) = match self.name.as_str() {
                    "open" | "creat" => (0, 1),
                    _ => (1, 2),
                };
                let write =
                    self.name == "creat" || self.args.get(flags).is_some_and(|f| flags_write(f));
                // the kernel's own answer: where the new descriptor leads
                let real = self
                    .result
                    .find('<')
                    .and_then(|at| self.result[at + 1..].strip_suffix('>'))
                    .map(|p| PathBuf::from(unescape(p)));
                let path = match real {
                    Some(p) => p,
                    None => {
                        let dir = (path_arg == 1)
                            .then(|| Line::dirfd(&self.args[0]))
                            .flatten();
                        resolve(dir, self.args.get(path_arg)?)
                    }
                };
                Some((path, write))
            }
            "mkdir" | "rmdir" | "unlink" | "truncate" | "chmod" => {
                Some((resolve(None, self.args.first()?), true))
            }
            "mkdirat" | "unlinkat" | "fchmodat" | "fchmodat2" => {
                Some((resolve(Line::dirfd(&self.args[0]), self.args.get(1)?), true))
            }
            "rename" | "link" | "symlink" => Some((resolve(None, self.args.get(1)?), true)),
            "renameat" | "renameat2" | "linkat" => Some((
                resolve(Line::dirfd(self.args.get(2)?), self.args.get(3)?),
                true,
            )),
            "symlinkat" => Some((
                resolve(Line::dirfd(self.args.get(1)?), self.args.get(2)?),
                true,
            )),
            _ => None,
        }
    }
}

/// `p` with its parent resolved (the last component may be a new file, or
/// a link that must not be followed).
fn real_or_lexical_parent(p: &Path) -> PathBuf {
    match (p.parent(), p.file_name()) {
        (Some(parent), Some(name)) => real_or_lexical(parent).join(name),
        _ => normalize(p),
    }
}

/// A quoted strace string (`"a\x1bb\"c"`, maybe followed by `...`),
/// unescaped.
fn unquote(s: &str) -> String {
    let s = s.trim().trim_end_matches("...");
    let s = s.strip_prefix('"').unwrap_or(s);
    let s = s.strip_suffix('"').unwrap_or(s);
    unescape(s)
}

fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'x' if i + 3 < b.len() + 1 => {
                    if let Ok(v) = u8::from_str_radix(s.get(i + 2..i + 4).unwrap_or(""), 16) {
                        out.push(v);
                        i += 4;
                        continue;
                    }
                    out.push(b'\\');
                    i += 1;
                }
                b'n' => {
                    out.push(b'\n');
                    i += 2;
                }
                b't' => {
                    out.push(b'\t');
                    i += 2;
                }
                b'r' => {
                    out.push(b'\r');
                    i += 2;
                }
                b'v' => {
                    out.push(0x0b);
                    i += 2;
                }
                b'f' => {
                    out.push(0x0c);
                    i += 2;
                }
                c => {
                    out.push(c);
                    i += 2;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
