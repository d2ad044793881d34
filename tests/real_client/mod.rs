//! Finding the real agent CLIs for the tests that drive them against a
//! loopback model endpoint ([`skillgate::loopback`]).
//!
//! A CLI is taken from `SKILLGATE_<NAME>` (a path) when set, else from
//! `PATH`. When it is absent the test skips with a message, so the README's
//! test command passes on a fresh clone; `.ci/run` installs the pinned
//! versions and sets `SKILLGATE_REQUIRE_CLIENTS=1`, which turns a missing
//! CLI into a failure instead of a skip.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The CLI `program` (e.g. `claude`), or `None` after printing why the
/// test is skipped.
pub fn cli(program: &str) -> Option<PathBuf> {
    let var = format!("SKILLGATE_{}", program.to_ascii_uppercase());
    let found = match std::env::var_os(&var) {
        Some(p) => Some(PathBuf::from(p)).filter(|p| p.is_file()),
        None => std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(program))
                .find(|p| is_executable(p))
        }),
    };
    if found.is_none() {
        let msg = format!(
            "`{program}` is not installed (not on PATH, {var} unset): `bash .ci/run` installs the pinned version"
        );
        if std::env::var_os("SKILLGATE_REQUIRE_CLIENTS").is_some() {
            panic!("{msg}, and SKILLGATE_REQUIRE_CLIENTS is set");
        }
        eprintln!("skipped: {msg}");
    }
    found
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
