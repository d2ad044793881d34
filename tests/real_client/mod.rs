//! Finding the real agent CLIs for the tests that drive them against a
//! loopback model endpoint ([`loopback`]).
//!
//! A CLI is taken from `SKILLSIFT_<NAME>` (a path) when set, else from
//! `PATH`. When it is absent the test skips with a message, so the README's
//! test command passes on a fresh clone; `.ci/run` installs the pinned
//! versions and sets `SKILLSIFT_REQUIRE_CLIENTS=1`, which turns a missing
//! CLI into a failure instead of a skip.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The CLI `program` (e.g. `claude`), or `None` after printing why the
/// test is skipped.
pub fn cli(program: &str) -> Option<PathBuf> {
    let var = format!("SKILLSIFT_{}", program.to_ascii_uppercase());
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
        if std::env::var_os("SKILLSIFT_REQUIRE_CLIENTS").is_some() {
            panic!("{msg}, and SKILLSIFT_REQUIRE_CLIENTS is set");
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

/// `skillsift listing ROOT --client CLIENT --verify --format json` with the
/// installed CLI `cli` first on PATH and a private cache folder; asserts
/// that no skill's captured entry differs from the prediction, and
/// returns the JSON report.
pub fn verify(client: &str, root: &Path, cli: &Path, extra: &[&str]) -> serde_json::Value {
    let cache = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let path = format!(
        "{}:{}",
        cli.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = assert_cmd::Command::cargo_bin("skillsift")
        .unwrap()
        .arg("listing")
        .arg(root)
        .args(["--client", client, "--verify", "--format", "json"])
        .args(extra)
        .env("PATH", path)
        .env("SKILLSIFT_CACHE_DIR", cache.path())
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("no JSON: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(
        doc["verify"]["mismatches"],
        serde_json::json!([]),
        "skills whose captured entry differs from the prediction"
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        cache
            .path()
            .join(format!("builtins-{client}.json"))
            .is_file(),
        "the capture stored the built-ins"
    );
    doc
}

/// The entry of `name` in a listing report.
pub fn entry(doc: &serde_json::Value, name: &str) -> serde_json::Value {
    doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in the listing"))
        .clone()
}

/// The wild sample copied as a catalog, one uniquely named folder per
/// skill, in groups of at most `per` skills (`None` when the corpus is
/// absent).
pub fn wild_catalogs(per: usize) -> Option<(tempfile::TempDir, Vec<PathBuf>)> {
    let wild = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/wild-sample");
    if !wild.is_dir() {
        eprintln!("skipped: ../shared/corpora/wild-sample is absent");
        return None;
    }
    let mut files = Vec::new();
    let mut stack = vec![wild.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "SKILL.md") {
                files.push(p);
            }
        }
    }
    files.sort();
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut roots = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let root = tmp.path().join(format!("part-{:02}", i / per));
        if roots.last() != Some(&root) {
            roots.push(root.clone());
        }
        let folder = f.parent().unwrap().file_name().unwrap().to_string_lossy();
        let dir = root.join("skills").join(format!("{i:04}-{folder}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(f, dir.join("SKILL.md")).unwrap();
    }
    Some((tmp, roots))
}

/// `claude -p --verbose --output-format stream-json <prompt>` in `ws`,
/// with a private `home` and the model endpoint at `url` (a loopback
/// server): the environment every loopback run of Claude Code uses.
pub fn claude_print(
    claude: &Path,
    ws: &Path,
    home: &Path,
    url: &str,
    prompt: &str,
) -> std::process::Command {
    let mut cmd = std::process::Command::new(claude);
    cmd.args(["-p", "--verbose", "--output-format", "stream-json", prompt])
        .current_dir(ws)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("CLAUDE_CONFIG_DIR", home.join(".claude"))
        .env("ANTHROPIC_BASE_URL", url)
        .env("ANTHROPIC_API_KEY", "loopback")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .stdin(std::process::Stdio::null());
    cmd
}

/// A loopback Messages API that answers every turn with `text`.
pub fn anthropic_text_server(text: &'static str) -> loopback::Server {
    use loopback::anthropic;
    loopback::Server::start(move |r| {
        anthropic::housekeeping(r)
            .unwrap_or_else(|| anthropic::reply(r, &anthropic::Turn::text(text)))
    })
    .unwrap()
}
