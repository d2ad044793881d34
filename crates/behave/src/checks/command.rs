//! `command`: a program run in the workspace after the agent finished,
//! passing when it exits 0 within its time limit. It is started with its
//! arguments, never through a shell, with an empty stdin, in its own
//! process group (killed when it overruns), its output capped at
//! [`MAX_OUTPUT`] per stream. It gets the user's environment without any
//! variable whose name looks secret, the agent clients' own settings or
//! git's location variables: the workspace's code is the agent's, and must
//! not see the evaluator's credentials.
//!
//! A program named with a `/` is relative to the workspace and must stay
//! inside it; a bare name is looked up in `PATH`. A program that cannot be
//! found or started leaves the run without a verdict: that is the
//! evaluator's machine failing, not the skill.

use super::{Seen, Verdict};
use crate::behave::process::{self, Ended, Spec};
use std::path::Path;
use std::time::Duration;

/// Most bytes of stdout (and of stderr) a check command may write.
pub const MAX_OUTPUT: u64 = 1024 * 1024;
/// Characters of output quoted as evidence.
const TAIL: usize = 600;

/// Families of variables a check command never inherits (besides
/// secret-looking names).
const REMOVED: &[&str] = &[
    "CLAUDECODE",
    "CLAUDE_",
    "ANTHROPIC_",
    "CODEX_",
    "GEMINI_",
    "OPENCODE_",
];

/// The variables removed from a check command's environment.
fn env_remove() -> Vec<String> {
    let mut v: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| {
            crate::behave::redact::secret_name(k) || crate::behave::agent::removed(k, REMOVED, &[])
        })
        .collect();
    v.extend(
        crate::behave::workspace::GIT_ENV_REMOVE
            .iter()
            .map(|s| s.to_string()),
    );
    v.sort();
    v.dedup();
    v
}

/// The program to start: inside the workspace when named with a `/`.
fn program(workspace: &Path, name: &str) -> Result<String, String> {
    if name.contains('/') {
        if let Some(why) = crate::catalog::cases::expectation::path_problem(name) {
            return Err(format!("the program `{name}` {why}"));
        }
        let root = workspace.canonicalize().map_err(|e| e.to_string())?;
        return match root.join(name).canonicalize() {
            Ok(real) if real.starts_with(&root) => Ok(real.display().to_string()),
            Ok(real) => Err(format!(
                "the program `{name}` leads outside the workspace (to {})",
                real.display()
            )),
            Err(_) => Err(format!(
                "the program `{name}` does not exist in the workspace"
            )),
        };
    }
    crate::behave::exec::resolve_program(name)
        .map(|p| p.display().to_string())
        .ok_or_else(|| format!("the program `{name}` was not found in PATH"))
}

fn tail(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let t = s.trim_end();
    let start = t.char_indices().rev().nth(TAIL).map_or(0, |(i, _)| i);
    let cut = if start > 0 { "…" } else { "" };
    format!("{cut}{}", &t[start..])
}

/// Run `argv` in the run's workspace.
pub fn run(argv: &[String], timeout: Duration, seen: &Seen) -> Result<Verdict, String> {
    let shown = argv.join(" ");
    let Some((first, args)) = argv.split_first() else {
        return Err("a command check has no program".into());
    };
    let program = program(seen.workspace, first).map_err(|e| format!("`{shown}`: {e}"))?;
    let out = process::run(&Spec {
        program: &program,
        args,
        cwd: seen.workspace,
        stdin: b"",
        env: Vec::new(),
        env_remove: env_remove(),
        timeout,
        max_stdout: MAX_OUTPUT,
        max_stderr: MAX_OUTPUT,
        grace: seen.grace,
    });
    let secs = out.elapsed.as_secs_f64();
    let output = || {
        let (o, e) = (tail(&out.stdout), tail(&out.stderr));
        match (o.is_empty(), e.is_empty()) {
            (true, true) => "no output".to_string(),
            (false, true) => format!("stdout ends: {o}"),
            (true, false) => format!("stderr ends: {e}"),
            (false, false) => format!("stdout ends: {o}; stderr ends: {e}"),
        }
    };
    Ok(match out.ended {
        Ended::Exited(Some(0)) => Verdict::new(
            true,
            format!("`{shown}` exited 0 after {secs:.1} s; {}", output()),
        ),
        Ended::Exited(Some(c)) => Verdict::new(
            false,
            format!("`{shown}` exited {c} after {secs:.1} s; {}", output()),
        ),
        Ended::Exited(None) => Verdict::new(
            false,
            format!(
                "`{shown}` was killed by a signal after {secs:.1} s; {}",
                output()
            ),
        ),
        Ended::TimedOut => Verdict::new(
            false,
            format!(
                "`{shown}` did not finish within {}; its process group was killed; {}",
                process::human_duration(timeout),
                output()
            ),
        ),
        Ended::OutputLimit => Verdict::new(
            false,
            format!(
                "`{shown}` wrote more than {MAX_OUTPUT} bytes of output; its process group was killed"
            ),
        ),
        Ended::SpawnFailed(e) => return Err(format!("`{shown}` could not be started: {e}")),
        Ended::Interrupted => return Err("skillsift was interrupted".into()),
        Ended::Decided => return Err("the command was stopped by a watcher".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(ws: &Path) -> Seen<'_> {
        Seen {
            workspace: ws,
            answer: "",
            skills: &[],
            trace: None,
            grace: Duration::from_millis(100),
        }
    }

    fn argv(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn exit_zero_passes_anything_else_fails_and_no_shell_expands() {
        let d = tempfile::tempdir().unwrap();
        let s = seen(d.path());
        let t = Duration::from_secs(10);
        assert!(run(&argv(&["true"]), t, &s).unwrap().passed);
        let v = run(&argv(&["false"]), t, &s).unwrap();
        assert!(!v.passed);
        assert!(v.evidence.contains("exited 1"), "{v:?}");
        // `$HOME` and `;` are arguments, not shell syntax
        let v = run(&argv(&["echo", "$HOME;", "rm"]), t, &s).unwrap();
        assert!(v.evidence.contains("$HOME; rm"), "{v:?}");
        let v = run(&argv(&["sleep", "5"]), Duration::from_millis(200), &s).unwrap();
        assert!(!v.passed);
        assert!(v.evidence.contains("did not finish within 200ms"), "{v:?}");
        assert!(run(&argv(&["no-such-program-xyz"]), t, &s).is_err());
        assert!(run(&argv(&["../../bin/true"]), t, &s).is_err());
    }

    #[test]
    fn a_program_in_the_workspace_runs_there() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("check.sh");
        std::fs::write(&p, "#!/bin/sh\ntest -f marker\n").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        let s = seen(d.path());
        let t = Duration::from_secs(10);
        assert!(!run(&argv(&["./check.sh"]), t, &s).unwrap().passed);
        std::fs::write(d.path().join("marker"), "").unwrap();
        assert!(run(&argv(&["./check.sh"]), t, &s).unwrap().passed);
    }
}
