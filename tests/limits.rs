//! Every limit on untrusted input, at its value, through the binary: what
//! is read whole, what is refused, and that nothing is skipped silently.
//! Hostile file systems too: FIFOs, symlink loops, dangling links, names
//! that are not UTF-8, unreadable folders, deep nesting.
//!
//! The limits of the scorer (4 MiB per JSONL line, 50 MB per file) and of
//! a `--runner` (captured output, timeouts) are tested in
//! score_refusals.rs and behave_runner.rs; this file adds the scorer's line
//! limit at its exact value and the built-in agent's and grader's output
//! caps.

#[path = "behave_support/mod.rs"]
mod support;

use assert_cmd::Command;
use score::uplift::SplitMix64;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A catalog in a temp folder: `skills/<name>/SKILL.md` files.
struct Cat {
    dir: tempfile::TempDir,
}

impl Cat {
    fn new() -> Cat {
        Cat {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// `skills/<name>/SKILL.md` with `text`.
    fn skill(&self, name: &str, text: &[u8]) -> &Cat {
        let d = self.path(&format!("skills/{name}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("SKILL.md"), text).unwrap();
        self
    }

    /// A valid skill whose frontmatter holds `extra` lines.
    fn valid(&self, name: &str, extra: &str) -> &Cat {
        self.skill(
            name,
            format!("---\nname: {name}\ndescription: Checks {name} things. Use when the user asks about {name}.\n{extra}---\n# {name}\n")
                .as_bytes(),
        )
    }

    fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("skillsift").unwrap();
        c.arg("check").arg(self.root()).arg("--no-route");
        c.timeout(std::time::Duration::from_secs(120));
        c
    }

    /// `check --format json`: the document, after asserting the run ended
    /// with 0 or 1 (a verdict, not a crash or a usage error).
    fn json(&self) -> Value {
        let out = self.cmd().args(["--format", "json"]).output().unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

/// `(rule, file, line)` of every diagnostic.
fn diags(doc: &Value) -> Vec<(String, String, Option<u64>)> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64(),
            )
        })
        .collect()
}

fn rules_of(doc: &Value, file: &str) -> Vec<String> {
    diags(doc)
        .into_iter()
        .filter(|d| d.1 == file)
        .map(|d| d.0)
        .collect()
}

fn message_of(doc: &Value, rule: &str) -> String {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == rule)
        .unwrap_or_else(|| panic!("no {rule} in {doc:#}"))["message"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A SKILL.md of exactly `len` bytes: valid frontmatter, then a body
/// padded with lines of text.
fn skill_of_len(name: &str, len: usize) -> Vec<u8> {
    let mut s = format!(
        "---\nname: {name}\ndescription: Pads a file. Use when testing size limits.\n---\n"
    )
    .into_bytes();
    while s.len() < len {
        let line = b"padding padding padding padding padding padding padding padding\n";
        let room = len - s.len();
        if room >= line.len() {
            s.extend_from_slice(line);
        } else {
            s.extend(std::iter::repeat_n(b'x', room));
        }
    }
    s
}

const MIB: usize = 1024 * 1024;

#[test]
fn skill_md_of_max_file_bytes_is_parsed_and_one_byte_more_is_sg001() {
    let cat = Cat::new();
    cat.skill("at-limit", &skill_of_len("at-limit", MIB));
    cat.skill("past-limit", &skill_of_len("past-limit", MIB + 1));
    let doc = cat.json();
    assert_eq!(doc["summary"]["skills_checked"], 2);
    let at = rules_of(&doc, "skills/at-limit/SKILL.md");
    assert!(!at.contains(&"SG001".to_string()), "{at:?}");
    // The file past the limit has exactly one finding: it was not parsed,
    // so nothing else (no missing name, no missing description) is said.
    assert_eq!(rules_of(&doc, "skills/past-limit/SKILL.md"), vec!["SG001"]);
    assert!(message_of(&doc, "SG001").contains("larger than 1048576 bytes"));
}

#[test]
fn max_file_bytes_is_read_from_skillsift_toml() {
    let cat = Cat::new();
    cat.valid("small", "");
    std::fs::write(
        cat.path("skillsift.toml"),
        "[catalog]\nmax-file-bytes = 64\n",
    )
    .unwrap();
    let doc = cat.json();
    assert_eq!(rules_of(&doc, "skills/small/SKILL.md"), vec!["SG001"]);
    assert!(message_of(&doc, "SG001").contains("larger than 64 bytes"));
}

/// Pronounceable made-up words from the scorer's SplitMix64: enough to
/// give 20,000 generated skills distinct vocabularies.
struct Words(SplitMix64);

impl Words {
    /// A pronounceable made-up word of 3 syllables.
    fn word(&mut self) -> String {
        const C: &[u8] = b"bdfgklmnprstvz";
        const V: &[u8] = b"aeiou";
        let mut w = String::new();
        for _ in 0..3 {
            let r = self.0.next_u64();
            w.push(C[(r % C.len() as u64) as usize] as char);
            w.push(V[((r >> 8) % V.len() as u64) as usize] as char);
        }
        w
    }
}

#[test]
fn twenty_thousand_skills_are_checked_whole() {
    // No silent cap on the number of files: every one is found, read,
    // linted and routed, and the summary says so.
    const N: usize = 20_000;
    let cat = Cat::new();
    let mut rng = Words(SplitMix64::new(20_000));
    for i in 0..N {
        let name = format!("skill-{i:05}");
        let (a, b, c) = (rng.word(), rng.word(), rng.word());
        cat.skill(
            &name,
            format!("---\nname: {name}\ndescription: Handles {a} {b} reports. Use when the user asks about {a} or {c}.\n---\n# {name}\n")
                .as_bytes(),
        );
    }
    // a broken one at the very end of the sort order still gets a verdict
    cat.skill("zz-broken", b"no frontmatter here\n");
    let mut c = Command::cargo_bin("skillsift").unwrap();
    let out = c
        .arg("check")
        .arg(cat.root())
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!("{} skills checked: 1 error,", N + 1)),
        "{}",
        &stdout[stdout.len().saturating_sub(2000)..]
    );
    assert!(stdout.contains("skills/zz-broken/SKILL.md"));
    // Claude Code lists the broken one too, with its first body line
    assert!(
        stdout.contains(&format!("across {} routed skills", N + 1)),
        "{stdout}"
    );
}

#[test]
fn yaml_nesting_of_max_depth_is_parsed_and_one_level_more_is_sg014() {
    // The top-level mapping is level 1, so `a:` holds 63 more levels.
    let cat = Cat::new();
    let ok = format!("a: {}{}\n", "[".repeat(63), "]".repeat(63));
    let deep = format!("a: {}{}\n", "[".repeat(64), "]".repeat(64));
    // far past it, yaml-rust2's own recursion bound answers first: the
    // same rule
    let far = format!("a: {}\n", "[".repeat(100_000));
    cat.valid("at-limit", &ok)
        .valid("past-limit", &deep)
        .valid("far-past-limit", &far);
    let doc = cat.json();
    assert!(!rules_of(&doc, "skills/at-limit/SKILL.md").contains(&"SG014".into()));
    assert_eq!(
        rules_of(&doc, "skills/far-past-limit/SKILL.md"),
        vec!["SG014"]
    );
    let past = diags(&doc);
    assert!(
        past.contains(&("SG014".into(), "skills/past-limit/SKILL.md".into(), Some(4))),
        "{past:?}"
    );
    assert!(doc["diagnostics"].as_array().unwrap().iter().any(|d| {
        d["file"] == "skills/past-limit/SKILL.md"
            && d["message"]
                .as_str()
                .unwrap()
                .contains("deeper than 64 levels")
    }));
}

#[test]
fn alias_expansion_past_max_nodes_is_sg014_and_modest_aliases_are_fine() {
    // 9 levels of 9 aliases each expand to 9^9 nodes ("billion laughs");
    // refused at the alias that crosses 10,000 nodes, in microseconds.
    let mut laughs = String::from("l0: &l0 [a, a, a, a, a, a, a, a, a]\n");
    for i in 1..9 {
        let p = i - 1;
        laughs.push_str(&format!(
            "l{i}: &l{i} [*l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}]\n"
        ));
    }
    let cat = Cat::new();
    cat.valid("laughs", &laughs)
        .valid("modest", "base: &b [x, y, z]\nmore: [*b, *b, *b]\n");
    let doc = cat.json();
    let found = rules_of(&doc, "skills/laughs/SKILL.md");
    assert!(found.contains(&"SG014".into()), "{found:?}");
    assert!(message_of(&doc, "SG014").contains("exceeds 10000 nodes"));
    // level l4 is the first to pass 10,000 (9 + 81 + 729 + 6561 + 59049)
    let line = diags(&doc).into_iter().find(|d| d.0 == "SG014").unwrap().2;
    assert_eq!(line, Some(8), "l4 is on line 8");
    assert!(!rules_of(&doc, "skills/modest/SKILL.md").contains(&"SG014".into()));
}

#[cfg(unix)]
#[test]
fn a_fifo_named_skill_md_is_sg002_not_a_hang() {
    let cat = Cat::new();
    cat.valid("fine", "");
    std::fs::create_dir_all(cat.path("skills/fifo")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(cat.path("skills/fifo/SKILL.md"))
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo unavailable");
        return;
    }
    let doc = cat.json();
    assert_eq!(rules_of(&doc, "skills/fifo/SKILL.md"), vec!["SG002"]);
    assert!(message_of(&doc, "SG002").contains("not a regular file"));
    assert_eq!(doc["summary"]["skills_checked"], 2);
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_ends_and_each_skill_is_checked_once() {
    let cat = Cat::new();
    cat.valid("alpha", "");
    let link = |target: &str, at: &str| std::os::unix::fs::symlink(target, cat.path(at)).unwrap();
    // a link back up to the skills root, one to the catalog root, and one
    // to itself (which no system call can resolve)
    link("..", "skills/alpha/up");
    link("../..", "skills/alpha/top");
    link("self", "skills/self");
    let doc = cat.json();
    assert_eq!(doc["summary"]["skills_checked"], 1);
    let found = diags(&doc);
    assert!(
        found.iter().any(|d| d.0 == "SG002" && d.1 == "skills/self"),
        "{found:?}"
    );
    assert!(message_of(&doc, "SG002").contains("broken symlink"));
}

#[cfg(unix)]
#[test]
fn a_dangling_symlink_is_sg002_and_the_rest_is_checked() {
    let cat = Cat::new();
    cat.valid("alpha", "");
    std::fs::create_dir_all(cat.path("skills/beta")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/SKILL.md", cat.path("skills/beta/SKILL.md")).unwrap();
    let doc = cat.json();
    let found = diags(&doc);
    assert!(
        found.contains(&("SG002".into(), "skills/beta/SKILL.md".into(), None)),
        "{found:?}"
    );
    assert_eq!(doc["summary"]["skills_checked"], 1);
}

#[cfg(unix)]
#[test]
fn an_unreadable_folder_is_sg002() {
    use std::os::unix::fs::PermissionsExt;
    let cat = Cat::new();
    cat.valid("alpha", "").valid("locked", "");
    let locked = cat.path("skills/locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable_anyway = std::fs::read_dir(&locked).is_ok();
    if readable_anyway {
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!("skipped: running as root, a mode-000 folder stays readable");
        return;
    }
    let doc = cat.json();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    let found = diags(&doc);
    assert!(
        found.contains(&("SG002".into(), "skills/locked".into(), None)),
        "{found:?}"
    );
    assert_eq!(doc["summary"]["skills_checked"], 1);
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_sg002_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let cat = Cat::new();
    cat.valid("alpha", "");
    let bad = cat
        .path("skills")
        .join(std::ffi::OsStr::from_bytes(b"bad-\xff-name"));
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("SKILL.md"), "---\nname: x\n---\n").unwrap();
    std::fs::write(
        cat.path("skills/alpha")
            .join(std::ffi::OsStr::from_bytes(b"notes-\xfe.md")),
        "x",
    )
    .unwrap();
    let doc = cat.json();
    let found = diags(&doc);
    assert!(
        found.contains(&("SG002".into(), "skills/bad-\u{fffd}-name".into(), None)),
        "{found:?}"
    );
    assert!(message_of(&doc, "SG002").contains("not valid UTF-8"));
    assert_eq!(doc["summary"]["skills_checked"], 1);
    // the JSON output itself is valid UTF-8 (it parsed above)
}

#[test]
fn folders_deeper_than_32_levels_are_reported_not_skipped_silently() {
    let cat = Cat::new();
    cat.valid("alpha", "");
    let mut deep = String::from("skills/deep");
    for i in 0..34 {
        deep.push_str(&format!("/d{i}"));
    }
    std::fs::create_dir_all(cat.path(&deep)).unwrap();
    std::fs::write(
        cat.path(&format!("{deep}/SKILL.md")),
        "---\nname: deep\n---\n",
    )
    .unwrap();
    let doc = cat.json();
    assert!(
        message_of(&doc, "SG002").contains("deeper than 32 levels"),
        "{doc:#}"
    );
}

#[test]
fn a_jsonl_line_of_exactly_4_mib_is_read() {
    // score_refusals.rs checks that 4 MiB + 1 is refused; this is the
    // other side of the limit.
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("demo-skill");
    std::fs::create_dir(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: demo-skill\ndescription: Demo. Use when testing.\n---\n# Demo\n",
    )
    .unwrap();
    let mut cases = String::new();
    let mut obs = Vec::new();
    for i in 0..10 {
        cases.push_str(&format!(
            "{{\"id\":\"c{i}\",\"prompt\":\"prompt {i}\",\"expectTrigger\":true}}\n"
        ));
        for trial in 1..=3 {
            for variant in ["with", "without"] {
                let inv = if variant == "with" {
                    "[\"demo-skill\"]"
                } else {
                    "[]"
                };
                obs.push(format!("{{\"caseId\":\"c{i}\",\"trial\":{trial},\"variant\":\"{variant}\",\"invokedSkills\":{inv},\"output\":\"ok\",\"exitCode\":0}}"));
            }
        }
    }
    let pad = 4 * MIB - obs[4].len();
    obs[4] = obs[4].replace(
        "\"output\":\"ok\"",
        &format!("\"output\":\"ok{}\"", "x".repeat(pad)),
    );
    assert_eq!(obs[4].len(), 4 * MIB);
    std::fs::write(dir.path().join("cases.jsonl"), cases).unwrap();
    std::fs::write(dir.path().join("observations.jsonl"), obs.join("\n") + "\n").unwrap();
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .arg("score")
        .arg("--skill")
        .arg(&skill)
        .arg("--cases")
        .arg(dir.path().join("cases.jsonl"))
        .arg("--observations")
        .arg(dir.path().join("observations.jsonl"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("longer than"), "{stderr}");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "exit {:?}: {stderr}",
        out.status
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_catalog_is_sg002_and_not_followed() {
    // Followed, `x -> /` would walk the whole disk and `x -> ~/skills`
    // would check files that are not in the repository.
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(outside.path().join("elsewhere")).unwrap();
    std::fs::write(
        outside.path().join("elsewhere/SKILL.md"),
        "---\nname: elsewhere\ndescription: Lives outside. Use when never.\n---\n",
    )
    .unwrap();
    let cat = Cat::new();
    cat.valid("alpha", "");
    std::os::unix::fs::symlink(
        outside.path().join("elsewhere"),
        cat.path("skills/elsewhere"),
    )
    .unwrap();
    std::os::unix::fs::symlink("/", cat.path("skills/alpha/root")).unwrap();
    let doc = cat.json();
    assert_eq!(doc["summary"]["skills_checked"], 1);
    let found = diags(&doc);
    for at in ["skills/elsewhere", "skills/alpha/root"] {
        assert!(
            found.contains(&("SG002".into(), at.into(), None)),
            "{at}: {found:?}"
        );
    }
    assert!(message_of(&doc, "SG002").contains("symlink leads outside the catalog"));
}

#[cfg(target_os = "linux")]
#[test]
fn a_skill_md_linked_to_the_environment_is_not_read() {
    // A pull request could add `SKILL.md -> /proc/self/environ`: read, the
    // CI job's environment (its secrets) would be shown in a snippet.
    let cat = Cat::new();
    cat.valid("alpha", "");
    std::fs::create_dir_all(cat.path("skills/env")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", cat.path("skills/env/SKILL.md")).unwrap();
    std::fs::create_dir_all(cat.path("evals/cases")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", cat.path("evals/cases/alpha.json")).unwrap();
    std::fs::create_dir_all(cat.path(".claude/commands")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", cat.path(".claude/commands/env.md")).unwrap();
    const SECRET: &str = "sk-test-secret-7f3a9c";
    for format in ["human", "json", "sarif", "github"] {
        let out = cat
            .cmd()
            .args(["--format", format])
            .env("ANTHROPIC_API_KEY", SECRET)
            .output()
            .unwrap();
        let all = [out.stdout, out.stderr].concat();
        let text = String::from_utf8_lossy(&all);
        assert!(!text.contains(SECRET), "{format} output shows the secret");
        assert!(text.contains("symlink leads outside the catalog"), "{text}");
    }
    let found = diags(&cat.json());
    for at in [
        "skills/env/SKILL.md",
        "evals/cases/alpha.json",
        ".claude/commands/env.md",
    ] {
        assert!(
            found
                .iter()
                .any(|d| d.1 == at && (d.0 == "SG002" || d.0 == "SG400")),
            "{at}: {found:?}"
        );
    }
}

#[test]
fn a_skill_folder_of_more_than_10000_files_is_reported_not_cut_silently() {
    let cat = Cat::new();
    cat.valid("at-limit", "").valid("past-limit", "");
    for (skill, n) in [("at-limit", 10_000), ("past-limit", 10_001)] {
        let refs = cat.path(&format!("skills/{skill}/references"));
        std::fs::create_dir_all(&refs).unwrap();
        // one badly named file, so the file checks show whether they ran
        std::fs::write(refs.join("Bad_Name.md"), "x").unwrap();
        for i in 1..n {
            std::fs::write(refs.join(format!("r{i}.txt")), "").unwrap();
        }
    }
    let doc = cat.json();
    // badly named (SG207) and never mentioned in SKILL.md (SG211)
    let at = rules_of(&doc, "skills/at-limit/references/Bad_Name.md");
    assert_eq!(at, vec!["SG207", "SG211"]);
    assert!(rules_of(&doc, "skills/past-limit/references/Bad_Name.md").is_empty());
    assert_eq!(rules_of(&doc, "skills/past-limit"), vec!["SG002"]);
    assert!(rules_of(&doc, "skills/at-limit").is_empty());
    assert!(message_of(&doc, "SG002").contains("more than 10000 files"));
}

#[test]
fn skill_subfolders_deeper_than_8_levels_are_reported() {
    let cat = Cat::new();
    cat.valid("alpha", "");
    let deep = "skills/alpha/d1/d2/d3/d4/d5/d6/d7/d8/d9";
    std::fs::create_dir_all(cat.path(deep)).unwrap();
    std::fs::write(cat.path(&format!("{deep}/notes.md")), "x").unwrap();
    let doc = cat.json();
    assert_eq!(rules_of(&doc, deep), vec!["SG002"]);
    assert!(message_of(&doc, "SG002").contains("deeper than 8 levels inside the skill"));
}

#[test]
fn a_skills_evals_folder_past_5000_entries_or_8_levels_is_reported_not_searched_in_part() {
    let cat = Cat::new();
    cat.valid("at-limit", "")
        .valid("past-limit", "")
        .valid("deep", "");
    let set = "[{\"query\": \"checks things\", \"should_trigger\": 7}]";
    for (skill, n) in [("at-limit", 5_000), ("past-limit", 5_001)] {
        let evals = cat.path(&format!("skills/{skill}/evals"));
        std::fs::create_dir_all(&evals).unwrap();
        // one broken trigger set, so the findings show whether it was read
        std::fs::write(evals.join("eval_set.json"), set).unwrap();
        for i in 1..n {
            std::fs::write(evals.join(format!("note-{i}.txt")), "").unwrap();
        }
    }
    let nine = "skills/deep/evals/d1/d2/d3/d4/d5/d6/d7/d8/d9";
    std::fs::create_dir_all(cat.path(nine)).unwrap();
    std::fs::write(cat.path("skills/deep/evals/eval_set.json"), set).unwrap();
    let doc = cat.json();
    assert!(rules_of(&doc, "skills/at-limit/evals/eval_set.json").contains(&"SG418".to_string()));
    assert!(rules_of(&doc, "skills/past-limit/evals/eval_set.json").is_empty());
    assert_eq!(rules_of(&doc, "skills/past-limit/evals"), vec!["SG400"]);
    assert!(rules_of(&doc, "skills/deep/evals/eval_set.json").is_empty());
    assert_eq!(rules_of(&doc, "skills/deep/evals"), vec!["SG400"]);
    let messages: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "SG400")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("more than 5000 entries")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("nests deeper than 8 folders")),
        "{messages:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_skills_evals_folder_linked_out_of_the_catalog_is_not_read() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("eval_set.json"),
        "[{\"query\": \"secret\", \"should_trigger\": true}]",
    )
    .unwrap();
    let cat = Cat::new();
    cat.valid("alpha", "");
    std::os::unix::fs::symlink(outside.path(), cat.path("skills/alpha/evals")).unwrap();
    let doc = cat.json();
    assert_eq!(rules_of(&doc, "skills/alpha/evals"), vec!["SG002"]);
    assert!(message_of(&doc, "SG002").contains("symlink leads outside the catalog"));
    assert!(rules_of(&doc, "skills/alpha/evals/eval_set.json").is_empty());
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .args(["cases", "alpha"])
        .arg(cat.root())
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("secret"));
}

/// A case file for skill `alpha` of exactly `len` bytes: one positive
/// prompt of made-up words filling it.
fn case_file_of_len(len: usize) -> String {
    let mut rng = Words(SplitMix64::new(4));
    let head = r#"{"skill_name": "alpha", "trigger": {"positive": [{"prompt": "fix the bug"#;
    let tail = r#""}], "negative": []}}"#;
    let mut prompt = String::new();
    while head.len() + prompt.len() + tail.len() < len {
        prompt.push(' ');
        prompt.push_str(&rng.word());
    }
    prompt.truncate(len - head.len() - tail.len());
    let text = format!("{head}{prompt}{tail}");
    assert_eq!(text.len(), len);
    text
}

#[test]
fn a_case_file_of_max_case_bytes_is_routed_whole_and_one_byte_more_is_sg400() {
    // One prompt of ~450,000 distinct words: ranking it once cost time
    // quadratic in its words (hours); it is checked like any other.
    let cat = Cat::new();
    cat.valid("alpha", "");
    let cases = cat.path("evals/cases");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(cases.join("alpha.json"), case_file_of_len(4 * MIB)).unwrap();
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .arg("check")
        .arg(cat.root())
        .args(["--format", "json"])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["summary"]["route"]["positives"], 1,
        "{}",
        doc["summary"]
    );
    assert!(!rules_of(&doc, "evals/cases/alpha.json").contains(&"SG400".into()));

    std::fs::write(cases.join("alpha.json"), case_file_of_len(4 * MIB + 1)).unwrap();
    let doc = cat.json();
    assert!(rules_of(&doc, "evals/cases/alpha.json").contains(&"SG400".into()));
    assert!(message_of(&doc, "SG400").contains("larger than 4194304 bytes"));
}

#[test]
fn a_finding_deep_in_a_very_long_line_is_reported_without_a_snippet() {
    // miette pads underlines with `{:width$}` and panics past 65,535: a
    // finding at column 70,000 crashed the human report.
    let cat = Cat::new();
    let long = "word ".repeat(14_000);
    cat.skill(
        "long",
        format!("---\nname: long\ndescription: {long}\nbroken: a: b\n---\n# Long\n").as_bytes(),
    );
    cat.skill(
        "wide",
        format!("---\nname: wide\ndescription: {long}: b\n---\n# Wide\n").as_bytes(),
    );
    let out = cat.cmd().output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("at skills/wide/SKILL.md:3:70014"),
        "{stdout}"
    );
    assert!(stdout.contains("2 skills checked"));
    // a snippet is still shown where the line is short
    assert!(stdout.contains("4 │ broken: a: b"), "{stdout}");
}

#[test]
fn agent_and_grader_output_past_their_caps_is_missing_evidence_exit_4() {
    // `[behave] max-trace-bytes` caps the agent's stream, `max-grader-bytes`
    // the grader's reply: past either, the process group is killed and the
    // run has no evidence; nothing is scored on what was cut.
    for (config, what, cap) in [
        ("max-trace-bytes = 600", "the agent", 600),
        ("max-grader-bytes = 300", "the grader", 300),
    ] {
        let env = support::Env::new();
        env.config(&format!("[behave]\n{config}\n"));
        let out = env
            .behave(&["--trials", "1", "--no-baseline"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{config}: {stdout}{stderr}");
        assert!(
            stderr.contains(&format!("{what} wrote more than {cap} bytes"))
                || stdout.contains(&format!("{what} wrote more than {cap} bytes")),
            "{config}: {stdout}{stderr}"
        );
    }
}

/// Timing, not a check (run with `cargo test --release --test limits --
/// --ignored --nocapture`): one SKILL.md naming 20,000 unknown skills in a
/// catalog of 1,000. Each unknown name gets a "did you mean" over every
/// skill name; before lengths were compared first this took 9 min 20 s in
/// a debug build (1 min 10 s after).
#[test]
#[ignore]
fn timing_twenty_thousand_dead_references_against_a_thousand_skills() {
    let cat = Cat::new();
    let mut rng = Words(SplitMix64::new(7));
    for i in 0..1000 {
        let name = format!("{}-{}-{i}", rng.word(), rng.word());
        cat.valid(&name, "");
    }
    let mut body =
        String::from("---\nname: refs\ndescription: Refs. Use when refs.\n---\n# Refs\n");
    for _ in 0..20_000 {
        body.push_str(&format!("Use the `{}-{}` skill.\n", rng.word(), rng.word()));
    }
    cat.skill("refs", body.as_bytes());
    let t0 = std::time::Instant::now();
    let doc = cat.json();
    eprintln!(
        "1,001 skills, 20,000 dead references: {:?} ({} diagnostics)",
        t0.elapsed(),
        doc["diagnostics"].as_array().unwrap().len()
    );
}
