//! Running one child process with a time limit and capped output.
//!
//! Every agent, grader and runner call goes through [`run`]: the program is
//! started directly (never through a shell) in its own process group, the
//! input is written to its stdin from a separate thread, stdout and stderr
//! are drained by two more threads into buffers that stop growing at their
//! cap. When the deadline passes or an output cap is hit, the whole group
//! gets `SIGTERM`, then `SIGKILL` after a grace period. When the child exits
//! on its own the group still gets `SIGKILL`, so nothing it left running in
//! the background survives the run.
//!
//! Signals need `kill(2)` on a negative pid (the group), which the standard
//! library does not offer: that is what the `libc` crate is for here.

// The layers below, by the names the code used for them when it was one
// crate, so that a `crate::catalog::…` path reads the same in every layer.

pub mod git;
pub mod scratch;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Set when skillsift receives SIGINT, SIGTERM or SIGHUP (once
/// [`install_interrupt_handler`] ran). Children live in their own process
/// groups, so a Ctrl-C at the terminal does not reach them: the poll loop
/// sees this flag and kills the running child's group instead, and no new
/// run starts.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Route SIGINT, SIGTERM and SIGHUP to [`INTERRUPTED`].
pub fn install_interrupt_handler() {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the handler only stores to an atomic, which is
        // async-signal-safe; `signal` has no other preconditions.
        unsafe {
            libc::signal(sig, on_signal as *const () as libc::sighandler_t);
        }
    }
}

/// Whether an interrupt was received.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Spec<'a> {
    pub program: &'a str,
    pub args: &'a [String],
    pub cwd: &'a Path,
    pub stdin: &'a [u8],
    /// Variables set in the child's environment (on top of the inherited one).
    pub env: Vec<(String, String)>,
    /// Variables removed from the inherited environment.
    pub env_remove: Vec<String>,
    pub timeout: Duration,
    pub max_stdout: u64,
    pub max_stderr: u64,
    /// Time between `SIGTERM` and `SIGKILL`.
    pub grace: Duration,
}

/// How the child ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// It exited (or was killed by a signal it got from elsewhere).
    Exited(Option<i32>),
    /// The deadline passed; the group was killed.
    TimedOut,
    /// An output cap was hit; the group was killed.
    OutputLimit,
    /// It could not be started.
    SpawnFailed(String),
    /// skillsift was interrupted; the group was killed.
    Interrupted,
    /// The watcher ([`run_watched`]) saw what it waited for in the output
    /// (a trigger run's decision); the group was stopped on purpose.
    Decided,
}

/// What a run produced.
#[derive(Debug)]
pub struct Outcome {
    pub ended: Ended,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
    /// Whether both output pipes reached end-of-file. `false` means something
    /// outside the process group still held them open; the output may be
    /// incomplete.
    pub complete: bool,
}

impl Outcome {
    /// Exit code when the child exited normally.
    pub fn code(&self) -> Option<i32> {
        match self.ended {
            Ended::Exited(c) => c,
            _ => None,
        }
    }

    /// A one-line description of a failure, or `None` for exit code 0 with
    /// complete output.
    pub fn failure(&self, what: &str, timeout: Duration, caps: (u64, u64)) -> Option<String> {
        match &self.ended {
            Ended::Exited(Some(0)) | Ended::Decided if self.complete => None,
            Ended::Decided => Some(format!(
                "{what} was stopped once its run was decided, but a process outside its group kept its output open"
            )),
            Ended::Exited(Some(0)) => Some(format!(
                "{what} exited but a process outside its group kept its output open"
            )),
            Ended::Exited(Some(c)) => Some(format!("{what} exited with status {c}")),
            Ended::Exited(None) => Some(format!("{what} was killed by a signal")),
            Ended::TimedOut => Some(format!(
                "{what} timed out after {}; its process group was killed",
                human_duration(timeout)
            )),
            Ended::OutputLimit => Some(format!(
                "{what} wrote more than {} bytes of output (or {} of stderr); its process group was killed",
                caps.0, caps.1
            )),
            Ended::SpawnFailed(e) => Some(format!("{what} could not be started: {e}")),
            Ended::Interrupted => Some(format!(
                "skillsift was interrupted; {what}'s process group was killed"
            )),
        }
    }
}

/// `90s`, `15m`, `1500ms`.
pub fn human_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(60_000) && ms > 0 {
        format!("{}m", ms / 60_000)
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// Poll interval while waiting for the child.
const POLL: Duration = Duration::from_millis(5);

/// Run `spec` to completion (or to its limits).
pub fn run(spec: &Spec) -> Outcome {
    run_watched(spec, None)
}

/// Decides, from the standard output so far, whether the child can be
/// stopped now.
pub type Watch<'a> = &'a (dyn Fn(&[u8]) -> bool + Sync);

/// [`run`], with `watch` asked after every new line of standard output:
/// when it answers `true`, the group gets `SIGTERM` (then `SIGKILL` after
/// the grace period) and the run ends as [`Ended::Decided`].
pub fn run_watched(spec: &Spec, watch: Option<Watch>) -> Outcome {
    let start = Instant::now();
    let mut cmd = Command::new(spec.program);
    cmd.args(spec.args)
        .current_dir(spec.cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for k in &spec.env_remove {
        cmd.env_remove(k);
    }
    for (k, v) in &spec.env {
        cmd.env(k, v);
    }
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                ended: Ended::SpawnFailed(format!("`{}`: {e}", spec.program)),
                stdout: Vec::new(),
                stderr: Vec::new(),
                elapsed: start.elapsed(),
                complete: true,
            };
        }
    };
    let pgid = child.id() as i32;

    let input = spec.stdin.to_vec();
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            // A child that exits without reading its input is not an error here.
            let _ = s.write_all(&input);
        }
        drop(stdin);
    });

    let over = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<()>();
    let out_buf = Arc::new(Mutex::new(Vec::new()));
    let err_buf = Arc::new(Mutex::new(Vec::new()));
    let readers = [
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    ];
    let mut n_readers = 0;
    for (pipe, (buf, cap)) in readers.into_iter().zip([
        (out_buf.clone(), spec.max_stdout),
        (err_buf.clone(), spec.max_stderr),
    ]) {
        if let Some(pipe) = pipe {
            n_readers += 1;
            let over = over.clone();
            let tx = tx.clone();
            std::thread::spawn(move || {
                drain(pipe, &buf, cap, &over);
                let _ = tx.send(());
            });
        }
    }
    drop(tx);

    let deadline = start + spec.timeout;
    // how far the watcher has read: it is asked again only when a new
    // complete line arrived
    let (mut scanned, mut asked_upto) = (0usize, 0usize);
    let mut ended = loop {
        if let Some(w) = watch {
            let b = out_buf.lock().unwrap_or_else(|p| p.into_inner());
            let upto = match b[scanned..].iter().rposition(|&c| c == b'\n') {
                Some(i) => scanned + i + 1,
                None => asked_upto,
            };
            scanned = b.len();
            if upto > asked_upto {
                asked_upto = upto;
                if w(&b[..upto]) {
                    break Some(Ended::Decided);
                }
            }
        }
        if exited(&mut child) {
            break None;
        }
        if over.load(Ordering::SeqCst) {
            break Some(Ended::OutputLimit);
        }
        if interrupted() {
            break Some(Ended::Interrupted);
        }
        if Instant::now() >= deadline {
            break Some(Ended::TimedOut);
        }
        std::thread::sleep(POLL);
    };
    if ended.is_some() {
        signal_group(pgid, libc::SIGTERM);
        let until = Instant::now() + spec.grace;
        while !exited(&mut child) && Instant::now() < until {
            std::thread::sleep(POLL);
        }
    }
    // The leader has exited (or is about to be killed): whatever else runs in
    // its group goes now.
    signal_group(pgid, libc::SIGKILL);
    let status = wait(&mut child);
    if ended.is_none() {
        ended = Some(Ended::Exited(status.and_then(|s| s.code())));
    }

    // Every member of the group is gone, so the pipes close unless a process
    // that left the group holds them: wait a little, then give up on it.
    let until = Instant::now() + spec.grace.max(Duration::from_millis(200));
    let mut done = 0;
    while done < n_readers {
        let left = until.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(()) => done += 1,
            Err(_) => break,
        }
    }
    // The writer ends when the child closes its stdin; it is not joined, so
    // a process outside the group holding that pipe cannot hang the run.
    drop(writer);
    let complete = done == n_readers;
    let mut ended = ended.unwrap_or(Ended::Exited(None));
    if over.load(Ordering::SeqCst) && matches!(ended, Ended::Exited(_)) {
        ended = Ended::OutputLimit;
    }
    let take =
        |b: &Arc<Mutex<Vec<u8>>>| std::mem::take(&mut *b.lock().unwrap_or_else(|p| p.into_inner()));
    Outcome {
        ended,
        stdout: take(&out_buf),
        stderr: take(&err_buf),
        elapsed: start.elapsed(),
        complete,
    }
}

/// Read `pipe` to its end, keeping at most `cap` bytes; past the cap, raise
/// `over` and keep reading (and discarding) so the child never blocks on a
/// full pipe before it is killed.
fn drain(mut pipe: Box<dyn Read + Send>, buf: &Mutex<Vec<u8>>, cap: u64, over: &AtomicBool) {
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                let mut b = buf.lock().unwrap_or_else(|p| p.into_inner());
                let room = (cap as usize).saturating_sub(b.len());
                if n > room {
                    b.extend_from_slice(&chunk[..room]);
                    over.store(true, Ordering::SeqCst);
                } else {
                    b.extend_from_slice(&chunk[..n]);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        }
    }
}

/// Send `sig` to every process in group `pgid`.
fn signal_group(pgid: i32, sig: libc::c_int) {
    if pgid > 1 {
        // SAFETY: kill(2) has no memory-safety preconditions; a negative pid
        // addresses the process group we created with `process_group(0)`.
        unsafe {
            libc::kill(-pgid, sig);
        }
    }
}

/// Whether the child has exited. On Linux the child is left unreaped
/// (`WNOWAIT`), so its pid, and with it the group id, cannot be reused before
/// the group is killed; elsewhere it is reaped and the status kept by `Child`.
#[cfg(target_os = "linux")]
fn exited(child: &mut Child) -> bool {
    // SAFETY: `info` is a plain C struct that waitid fills in; zeroed is a
    // valid initial value.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(
            libc::P_PID,
            child.id() as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        r == 0 && info.si_pid() != 0
    }
}

#[cfg(not(target_os = "linux"))]
fn exited(child: &mut Child) -> bool {
    matches!(child.try_wait(), Ok(Some(_)))
}

fn wait(child: &mut Child) -> Option<ExitStatus> {
    child.wait().ok()
}

/// Largest `--version` output read.
const MAX_VERSION_OUTPUT: u64 = 64 * 1024;

/// Run `program ARGS` (a version query: no prompt, no model) and return the
/// version it prints: the first word that starts with a digit and holds a
/// dot (`codex-cli 0.171.0` gives `0.171.0`).
pub fn version_of(program: &str, args: &[&str]) -> Result<String, String> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let timeout = std::time::Duration::from_secs(60);
    let out = crate::run(&crate::Spec {
        program,
        args: &args,
        cwd: &std::env::temp_dir(),
        stdin: b"",
        env: Vec::new(),
        env_remove: Vec::new(),
        timeout,
        max_stdout: MAX_VERSION_OUTPUT,
        max_stderr: MAX_VERSION_OUTPUT,
        grace: std::time::Duration::from_millis(500),
    });
    if let Some(f) = out.failure(program, timeout, (MAX_VERSION_OUTPUT, MAX_VERSION_OUTPUT)) {
        return Err(f);
    }
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace()
        .map(|w| w.trim_start_matches('v'))
        .find(|w| w.starts_with(|c: char| c.is_ascii_digit()) && w.contains('.'))
        .map(str::to_string)
        .ok_or_else(|| format!("`{program} {}` printed no version", args.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, timeout_ms: u64, cap: u64) -> Outcome {
        let args = vec!["-c".to_string(), script.to_string()];
        run(&Spec {
            program: "/bin/sh",
            args: &args,
            cwd: Path::new("/"),
            stdin: b"hello stdin",
            env: vec![],
            env_remove: vec![],
            timeout: Duration::from_millis(timeout_ms),
            max_stdout: cap,
            max_stderr: cap,
            grace: Duration::from_millis(200),
        })
    }

    #[test]
    fn captures_stdout_and_stdin_round_trip() {
        let o = sh("cat; echo; echo err >&2; exit 3", 5000, 1 << 20);
        assert_eq!(o.ended, Ended::Exited(Some(3)));
        assert_eq!(o.stdout, b"hello stdin\n");
        assert_eq!(o.stderr, b"err\n");
        assert!(o.complete);
    }

    #[test]
    fn a_child_ignoring_term_is_killed_after_the_grace_period() {
        let o = sh("trap '' TERM; sleep 30", 100, 1 << 20);
        assert_eq!(o.ended, Ended::TimedOut);
        assert!(o.elapsed < Duration::from_secs(5), "{:?}", o.elapsed);
    }

    #[test]
    fn output_past_the_cap_kills_the_group() {
        let o = sh("while :; do echo xxxxxxxxxxxxxxxx; done", 10_000, 1000);
        assert_eq!(o.ended, Ended::OutputLimit);
        assert_eq!(o.stdout.len(), 1000);
    }

    #[test]
    fn a_missing_program_is_a_spawn_failure() {
        let o = run(&Spec {
            program: "/nonexistent/skillsift-test-binary",
            args: &[],
            cwd: Path::new("/"),
            stdin: b"",
            env: vec![],
            env_remove: vec![],
            timeout: Duration::from_secs(1),
            max_stdout: 10,
            max_stderr: 10,
            grace: Duration::from_millis(10),
        });
        assert!(matches!(o.ended, Ended::SpawnFailed(_)));
    }

    #[test]
    fn background_children_die_with_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let script = format!("sleep 30 & echo $! > {}; exit 0", pidfile.display());
        let o = sh(&script, 5000, 1 << 20);
        assert_eq!(o.ended, Ended::Exited(Some(0)));
        let pid: i32 = std::fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // The background sleep was killed with the group (it may linger as a
        // zombie of init for a moment, so allow a short wait).
        let gone = (0..100).any(|_| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let alive = !stat.is_empty() && !stat.contains(") Z");
            if alive {
                std::thread::sleep(Duration::from_millis(10));
            }
            !alive
        });
        assert!(gone, "background child {pid} survived");
    }
}
