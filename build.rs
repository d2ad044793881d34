//! Marks the tests whose outside program is absent as ignored, with the
//! reason, so `cargo test`'s summary counts and names what did not run
//! (`test … ignored, needs `claude` …`) instead of passing in silence.
//!
//! For each program the tests drive (the agent CLIs, Chromium, strace,
//! Neovim) it
//! sets `cfg(skillsift_missing_<name>)` when the program is found neither
//! at `SKILLSIFT_<NAME>` nor on `PATH`; the tests carry
//! `#[cfg_attr(skillsift_missing_<name>, ignore = "…")]`. Under
//! `SKILLSIFT_REQUIRE_CLIENTS` (the agent CLIs and strace) or
//! `SKILLSIFT_REQUIRE_CHROMIUM` or `SKILLSIFT_REQUIRE_NEOVIM`, as `.ci/run`
//! sets them, nothing is marked:
//! the tests run and fail on the missing program. The tests look again
//! when they run (a program installed since the build is used; one
//! removed since is skipped with a message), and this script runs again
//! when `PATH` or any of those variables changes.
//!
//! Nothing here touches the binary: the cfgs are read by `tests/` only.

use std::path::{Path, PathBuf};

/// (cfg suffix, the names to look for, the variable naming a path (none:
/// ""), the variable that requires it).
const PROGRAMS: &[(&str, &[&str], &str, &str)] = &[
    (
        "claude",
        &["claude"],
        "SKILLSIFT_CLAUDE",
        "SKILLSIFT_REQUIRE_CLIENTS",
    ),
    (
        "codex",
        &["codex"],
        "SKILLSIFT_CODEX",
        "SKILLSIFT_REQUIRE_CLIENTS",
    ),
    (
        "gemini",
        &["gemini"],
        "SKILLSIFT_GEMINI",
        "SKILLSIFT_REQUIRE_CLIENTS",
    ),
    (
        "opencode",
        &["opencode"],
        "SKILLSIFT_OPENCODE",
        "SKILLSIFT_REQUIRE_CLIENTS",
    ),
    (
        "chromium",
        &["chromium", "chromium-browser"],
        "SKILLSIFT_CHROMIUM",
        "SKILLSIFT_REQUIRE_CHROMIUM",
    ),
    ("strace", &["strace"], "", "SKILLSIFT_REQUIRE_CLIENTS"),
    (
        "nvim",
        &["nvim"],
        "SKILLSIFT_NVIM",
        "SKILLSIFT_REQUIRE_NEOVIM",
    ),
];

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| is_executable(p))
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=PATH");
    let mut checked = Vec::new();
    for (name, names, var, require) in PROGRAMS {
        if !var.is_empty() {
            println!("cargo::rerun-if-env-changed={var}");
        }
        println!("cargo::rerun-if-env-changed={require}");
        checked.push(format!("skillsift_missing_{name}"));
        let given = if var.is_empty() {
            None
        } else {
            std::env::var_os(var)
        };
        let found = match given {
            Some(p) => Path::new(&p).is_file(),
            None => on_path(names).is_some(),
        };
        if !found && std::env::var_os(require).is_none() {
            println!("cargo::rustc-cfg=skillsift_missing_{name}");
        }
    }
    println!("cargo::rustc-check-cfg=cfg({})", checked.join(", "));
}
