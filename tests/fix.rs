//! `skillsift check --fix`, `--diff`, `--unsafe-fixes`, through the binary:
//! what is written, what every client lists before and after, what is
//! reported; and the whole wild sample fixed in a temporary copy.

mod common;
use common::{skillsift, wild_sample};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn write(root: &Path, rel: &str, text: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn read(root: &Path, rel: &str) -> Vec<u8> {
    std::fs::read(root.join(rel)).unwrap()
}

/// `check ROOT --no-route ARGS`: exit code and stdout.
fn run(root: &Path, args: &[&str]) -> (i32, String) {
    let out = skillsift()
        .arg("check")
        .arg(root)
        .arg("--no-route")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

const CLIENTS: [&str; 5] = ["spec", "claude-code", "codex", "gemini-cli", "opencode"];

/// One listing entry: listed, name, text, name only, the description.
type Shown = (bool, String, String, bool, String);

/// Per client, per SKILL.md path, the entry as `listing --format json`
/// gives it.
fn listings(root: &Path) -> BTreeMap<(String, String), Shown> {
    let mut m = BTreeMap::new();
    for c in CLIENTS {
        let out = skillsift()
            .arg("listing")
            .arg(root)
            .args(["--client", c, "--format", "json"])
            .timeout(std::time::Duration::from_secs(300))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "listing {c}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        for e in doc["entries"].as_array().unwrap() {
            m.insert(
                (c.to_string(), e["path"].as_str().unwrap().to_string()),
                (
                    e["listed"].as_bool().unwrap(),
                    e["name"].as_str().unwrap().to_string(),
                    e["text"].as_str().unwrap().to_string(),
                    e["name_only"].as_bool().unwrap(),
                    e["description"].as_str().unwrap_or("").to_string(),
                ),
            );
        }
    }
    m
}

/// Findings per rule, and errors per file, of `check --no-route --format
/// json`.
fn findings(root: &Path) -> (BTreeMap<String, usize>, BTreeMap<String, usize>) {
    let (_, doc) = common::check_doc(root, &[]);
    let mut all = BTreeMap::new();
    let mut errors = BTreeMap::new();
    for d in doc["diagnostics"].as_array().unwrap() {
        let r = d["rule"].as_str().unwrap().to_string();
        *all.entry(r).or_insert(0) += 1;
        if d["severity"] == "error" {
            *errors
                .entry(d["file"].as_str().unwrap().to_string())
                .or_insert(0) += 1;
        }
    }
    (all, errors)
}

#[test]
fn quotes_a_value_with_a_colon_and_the_clients_read_the_intended_text() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "colons/SKILL.md",
        b"---\r\nname: colons\r\ndescription: Use this skill when: tests fail\r\n---\r\n\r\n# Colons\r\n",
    );
    let (code, out) = run(root, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error[SG013] [*]: invalid frontmatter YAML"),
        "{out}"
    );
    assert!(out.contains("1 fixable with --fix"), "{out}");

    let (code, out) = run(root, &["--fix"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("fixed 1 finding in 1 file (SG013 1)"), "{out}");
    // CRLF kept, only the value changed
    assert_eq!(
        read(root, "colons/SKILL.md"),
        b"---\r\nname: colons\r\ndescription: \"Use this skill when: tests fail\"\r\n---\r\n\r\n# Colons\r\n"
    );
    let after = listings(root);
    for c in CLIENTS {
        let (listed, _, text, _, _) = &after[&(c.to_string(), "colons/SKILL.md".to_string())];
        assert!(listed, "{c} does not list it");
        assert!(
            text.contains("Use this skill when: tests fail"),
            "{c}: {text}"
        );
    }
    // a second --fix changes no byte
    let before = read(root, "colons/SKILL.md");
    let (_, out) = run(root, &["--fix"]);
    assert!(out.contains("fixed nothing"), "{out}");
    assert_eq!(read(root, "colons/SKILL.md"), before);
}

#[test]
fn diff_prints_the_change_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let text = "\u{feff}---\nname: bom\ndescription: Adds license headers # Errors and SPDX compliance\n---\n\nBody.\n";
    write(root, "bom/SKILL.md", text.as_bytes());
    let (code, out) = run(root, &["--diff"]);
    assert_eq!(code, 1, "{out}");
    // an absolute root is named as it is, without git's a/ prefix
    let shown = root.join("bom/SKILL.md").display().to_string();
    assert!(out.contains(&format!("--- {shown}\n")), "{out}");
    assert!(out.contains(&format!("+++ {shown}\n")), "{out}");
    assert!(
        out.contains("+description: \"Adds license headers # Errors and SPDX compliance\""),
        "{out}"
    );
    // written to a pipe, the diff is the bytes of the file, mark and all
    assert!(out.contains("-\u{feff}---\n+---\n"), "{out}");
    assert!(
        out.contains("would fix 2 findings in 1 file (SG005 1, SG115 1)"),
        "{out}"
    );
    assert_eq!(read(root, "bom/SKILL.md"), text.as_bytes());
}

#[test]
fn diff_to_a_file_is_a_patch_and_a_terminal_sees_it_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let text = "\u{feff}---\r\nname: bom\r\ndescription: Adds license headers # Errors and SPDX compliance\r\n---\r\n\r\nBody \x1b[31m.\r\n";
    write(root, "bom/SKILL.md", text.as_bytes());
    // `check . --diff > fix.patch`, then `git apply`
    let out = skillsift()
        .current_dir(root)
        .args(["check", ".", "--no-route", "--diff"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    std::fs::write(root.join("fix.patch"), &out.stdout).unwrap();
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .current_dir(root)
            .args(args)
            .output()
            .unwrap()
    };
    let check = git(&["apply", "--check", "fix.patch"]);
    assert!(
        check.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&check.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(git(&["apply", "fix.patch"]).status.success());
    let fixed = String::from_utf8(read(root, "bom/SKILL.md")).unwrap();
    assert!(fixed.starts_with("---\r\nname: bom\r\n"), "{fixed:?}");
    assert!(fixed.contains("Body \x1b[31m.\r\n"), "{fixed:?}");
    // the patch fixed what --fix fixes: nothing is left to fix
    let (code, again) = run(root, &["--diff"]);
    assert_eq!(code, 0, "{again}");
    // on a terminal the invisible and the hostile are shown escaped
    std::fs::write(root.join("bom/SKILL.md"), text).unwrap();
    if let Some(shown) = common::on_terminal(root, &["check", ".", "--no-route", "--diff"]) {
        let shown = String::from_utf8(shown).unwrap();
        assert!(shown.contains("-\\u{feff}---"), "{shown}");
        assert!(shown.contains(" Body \\x1b[31m."), "{shown}");
        assert!(!shown.contains('\x1b'), "{shown}");
    }
}

#[test]
fn a_refused_fix_is_not_counted_as_fixable_after_fix() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "one/code-review/SKILL.md",
        b"---\nname: code-review\ndescription: Reviews code. Use when the user asks for a code review.\n---\n# A\n",
    );
    // setting `name: code-review` would take the other skill's place in
    // Gemini CLI's listing: --fix refuses it
    write(
        root,
        "two/code-review/SKILL.md",
        b"---\nname: review-helper\ndescription: Helps review pull requests. Use when a pull request needs review.\n---\n# B\n",
    );
    let (_, before) = run(root, &[]);
    assert!(
        before.contains("1 fixable with --fix --unsafe-fixes"),
        "{before}"
    );
    let (code, out) = run(root, &["--fix", "--unsafe-fixes"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("SG103 (set `name: code-review`, the folder's name): in Gemini CLI's listing"),
        "{out}"
    );
    assert!(!out.contains("fixable with --fix"), "{out}");
    assert!(
        out.contains("1 finding not fixable now: its fix would change what a client lists"),
        "{out}"
    );
    // nor does the JSON report offer it
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--no-route", "--fix", "--unsafe-fixes", "--format", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sg103 = (doc["diagnostics"].as_array().unwrap().iter())
        .find(|d| d["rule"] == "SG103")
        .unwrap();
    assert!(sg103.get("fix").is_none_or(Value::is_null), "{sg103:#}");
}

#[test]
fn comment_cut_is_reported_with_the_lost_text() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "lic/SKILL.md",
        b"---\nname: lic\ndescription: Adds license headers # Errors and SPDX compliance\n---\n\nBody.\n",
    );
    let r = common::check_json(root, &[]);
    let f = r.one("SG115", "lic/SKILL.md");
    assert_eq!(f.line, Some(3));
    assert_eq!(f.column, Some(35));
    assert!(
        f.message.contains("\"Adds license headers\"")
            && f.message.contains("\"# Errors and SPDX compliance\""),
        "{}",
        f.message
    );
    let (code, _) = run(root, &["--fix"]);
    assert_eq!(code, 0);
    for c in CLIENTS {
        let l = listings(root);
        let (_, _, text, _, _) = &l[&(c.to_string(), "lic/SKILL.md".to_string())];
        assert!(text.contains("SPDX compliance"), "{c}: {text}");
    }
}

#[test]
fn tabs_become_the_files_own_indentation() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "tabs/SKILL.md",
        b"---\nname: tabs\ndescription: Formats tables.\nmetadata:\n    author: me\n\tversion: \"1\"\n---\n\nBody.\n",
    );
    let (code, out) = run(root, &["--fix"]);
    assert!(out.contains("SG112 1"), "{out}");
    assert_eq!(
        read(root, "tabs/SKILL.md"),
        b"---\nname: tabs\ndescription: Formats tables.\nmetadata:\n    author: me\n    version: \"1\"\n---\n\nBody.\n"
    );
    assert_eq!(code, 0, "{out}");
}

#[test]
fn windows_separators_become_slashes_when_the_file_exists() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "pdf/SKILL.md",
        b"---\nname: pdf\ndescription: Fills PDF forms. Use when a form needs filling.\n---\n\nRead references\\guide.md first, then [the guide](references\\guide.md#steps).\n",
    );
    write(root, "pdf/references/guide.md", b"# Guide\n");
    let (_, out) = run(root, &[]);
    assert!(out.contains("warning[SG210] [*]"), "{out}");
    // one finding per path written; the fixer's next pass finds the other
    assert!(out.contains("1 fixable with --fix"), "{out}");

    let (_, out) = run(root, &["--fix"]);
    assert!(
        out.contains("fixed 2 findings in 1 file (SG210 2)"),
        "{out}"
    );
    assert_eq!(
        read(root, "pdf/SKILL.md"),
        b"---\nname: pdf\ndescription: Fills PDF forms. Use when a form needs filling.\n---\n\nRead references/guide.md first, then [the guide](references/guide.md#steps).\n"
    );
    assert!(!findings(root).0.contains_key("SG210"));
    // a second --fix changes no byte
    let before = read(root, "pdf/SKILL.md");
    let (_, out) = run(root, &["--fix"]);
    assert!(out.contains("fixed nothing"), "{out}");
    assert_eq!(read(root, "pdf/SKILL.md"), before);
}

#[test]
fn a_missing_file_written_with_windows_separators_has_no_fix() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let text = b"---\nname: pdf\ndescription: Fills PDF forms. Use when a form needs filling.\n---\n\nRead references\\guide.md first.\n";
    write(root, "pdf/SKILL.md", text);
    let (_, out) = run(root, &["--fix"]);
    assert!(out.contains("fixed nothing"), "{out}");
    assert_eq!(read(root, "pdf/SKILL.md"), text);
}

#[test]
fn name_fix_is_unsafe_and_never_renames_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "pdf-forms/SKILL.md",
        b"---\nname: pdf-form\ndescription: Fills PDF forms.\n---\n\nBody.\n",
    );
    let (code, out) = run(root, &[]);
    assert_eq!(code, 1);
    assert!(out.contains("error[SG103]: `name` is `pdf-form`"), "{out}");
    assert!(out.contains("1 fixable with --fix --unsafe-fixes"), "{out}");
    let (_, out) = run(root, &["--fix"]);
    assert!(out.contains("fixed nothing"), "{out}");
    let (code, out) = run(root, &["--fix", "--unsafe-fixes"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("SG103 1"), "{out}");
    assert_eq!(
        read(root, "pdf-forms/SKILL.md"),
        b"---\nname: pdf-forms\ndescription: Fills PDF forms.\n---\n\nBody.\n"
    );
    assert!(root.join("pdf-forms").is_dir());
}

/// A plugin's skill is listed as `<plugin>:<folder>` however its `name`
/// reads: the name fix changes nothing the model sees, so
/// `--unsafe-fixes` applies it, as the summary and the editor promise.
#[test]
fn the_name_fix_applies_to_a_plugin_skill() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".claude-plugin/marketplace.json",
        br#"{"name":"mk","plugins":[{"name":"database-design","source":"./plugins/database-design"}]}"#,
    );
    write(
        root,
        "plugins/database-design/.claude-plugin/plugin.json",
        br#"{"name":"database-design"}"#,
    );
    write(
        root,
        "plugins/database-design/skills/postgresql/SKILL.md",
        b"---\nname: postgres\ndescription: Designs PostgreSQL schemas. Use when the user designs a database schema.\n---\n\nBody.\n",
    );
    let (_, out) = run(root, &[]);
    assert!(out.contains("error[SG103]"), "{out}");
    assert!(out.contains("1 fixable with --fix --unsafe-fixes"), "{out}");
    let before = listings(root);
    let (code, out) = run(root, &["--fix", "--unsafe-fixes"]);
    assert!(!out.contains("would change"), "{out}");
    assert!(out.contains("SG103 1"), "{out}");
    assert_eq!(code, 0, "{out}");
    assert!(
        String::from_utf8(read(
            root,
            "plugins/database-design/skills/postgresql/SKILL.md"
        ))
        .unwrap()
        .contains("name: postgresql\n")
    );
    // Claude Code lists it by its plugin and folder, before and after
    let after = listings(root);
    let key = (
        "claude-code".to_string(),
        "plugins/database-design/skills/postgresql/SKILL.md".to_string(),
    );
    assert_eq!(before[&key].1, "database-design:postgresql");
    assert_eq!(after[&key].1, "database-design:postgresql");
}

#[test]
fn an_unterminated_quote_is_closed_when_unambiguous() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "q/SKILL.md",
        b"---\nname: q\ndescription: \"Fills PDF forms.\nlicense: MIT\n---\n\nBody.\n",
    );
    let (code, out) = run(root, &["--fix"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        read(root, "q/SKILL.md"),
        b"---\nname: q\ndescription: \"Fills PDF forms.\"\nlicense: MIT\n---\n\nBody.\n"
    );
}

#[test]
fn a_file_without_fixes_is_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "ok/SKILL.md",
        b"---\nname: ok\ndescription: Fine.\n---\n\nBody.\n",
    );
    write(
        root,
        "bad/SKILL.md",
        b"---\nname: bad\ndescription: a: b\n---\n\nBody.\n",
    );
    let ok = root.join("ok/SKILL.md");
    let t = std::fs::metadata(&ok).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let (_, out) = run(root, &["--fix"]);
    assert!(out.contains("fixed 1 finding in 1 file"), "{out}");
    assert_eq!(std::fs::metadata(&ok).unwrap().modified().unwrap(), t);
}

#[test]
fn rules_show_which_fix() {
    let out = skillsift().arg("rules").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = |id: &str| {
        text.lines()
            .find(|l| l.starts_with(id))
            .unwrap()
            .to_string()
    };
    assert!(line("SG111").contains(" safe "), "{}", line("SG111"));
    assert!(line("SG103").contains(" unsafe "), "{}", line("SG103"));
    assert!(line("SG101").contains(" - "), "{}", line("SG101"));
    // rules of taste say so, and are notices
    for id in ["SG207", "SG208", "SG211"] {
        let l = line(id);
        assert!(l.contains(" notice ") && l.contains(" taste "), "{l}");
    }
    assert!(!line("SG210").contains(" taste "), "{}", line("SG210"));
    let out = skillsift().args(["rule", "SG115"]).output().unwrap();
    let doc = String::from_utf8(out.stdout).unwrap();
    assert!(doc.contains("## Fix") && doc.contains("Safe fix"), "{doc}");
}

#[test]
fn json_and_sarif_carry_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "c/SKILL.md",
        b"---\nname: c\ndescription: when: x\n---\n\nBody.\n",
    );
    let (_, doc) = common::check_doc(root, &[]);
    let d = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "SG013")
        .unwrap()
        .clone();
    assert_eq!(d["fix"]["applicability"], "safe");
    assert_eq!(d["fix"]["edits"][0]["replacement"], "\"when: x\"");
    assert_eq!(d["fix"]["edits"][0]["start"], 25);
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--no-route", "--format", "sarif"])
        .output()
        .unwrap();
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let r = results.iter().find(|r| r["ruleId"] == "SG013").unwrap();
    assert_eq!(
        r["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"],
        "\"when: x\""
    );
}

/// The done-when item of issue 22: `--fix` over a copy of the wild sample
/// raises no error count, a second `--fix` changes no byte, and every
/// skill a client listed before is still listed with the same text, unless
/// its fix names the change (then it is listed with the repaired text).
#[test]
fn fixes_the_wild_sample_without_losing_a_listing() {
    let Some(sample) = wild_sample() else { return };
    let copy = common::copy_tree(&sample);
    let root = copy.path();
    let (before_all, before_errors) = findings(root);
    let listed_before = listings(root);
    let bytes_before = snapshot(root);
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--no-route", "--fix"])
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let summary = text
        .lines()
        .find(|l| l.starts_with("fixed "))
        .unwrap_or_else(|| panic!("no fix summary: {text}"));
    eprintln!("wild sample: {summary}");
    for l in text.lines().filter(|l| l.starts_with("not fixed:")) {
        eprintln!("{l}");
    }
    let (after_all, after_errors) = findings(root);
    // a fix may reveal what a broken frontmatter hid (an unknown key once
    // the YAML parses), but no file ends with more errors than it had
    for (file, n) in &after_errors {
        let was = before_errors.get(file).copied().unwrap_or(0);
        assert!(*n <= was, "{file}: {was} errors before --fix, {n} after");
    }
    assert!(after_errors.values().sum::<usize>() <= before_errors.values().sum::<usize>());
    let removed: Vec<String> = before_all
        .iter()
        .filter_map(|(r, n)| {
            let left = after_all.get(r).copied().unwrap_or(0);
            (*n > left).then(|| format!("{r} {}", n - left))
        })
        .collect();
    eprintln!(
        "wild sample: findings removed by rule: {}",
        removed.join(", ")
    );
    assert!(!removed.is_empty(), "--fix removed nothing: {text}");
    // every listed skill is still listed, with the same text unless fixed
    let bytes_after = snapshot(root);
    let changed: Vec<&String> = bytes_after
        .iter()
        .filter(|(f, b)| bytes_before.get(*f) != Some(*b))
        .map(|(f, _)| f)
        .collect();
    eprintln!("wild sample: {} SKILL.md files changed", changed.len());
    assert!(!changed.is_empty());
    let listed_after = listings(root);
    // a skill a listing over its budget drops to make room is named by a
    // `note:` line of the fixer
    let notes: Vec<&str> = text.lines().filter(|l| l.starts_with("note: ")).collect();
    for n in &notes {
        eprintln!("{n}");
    }
    for ((client, path), (listed, name, text, _, _)) in &listed_before {
        if !listed {
            continue;
        }
        let (l2, n2, t2, name_only, description) = &listed_after[&(client.clone(), path.clone())];
        if !l2
            && notes
                .iter()
                .any(|n| n.contains(&format!("{path} is no longer listed")))
        {
            continue;
        }
        assert!(l2, "{client} no longer lists {path}");
        if !changed.contains(&path) {
            assert_eq!((name, text), (n2, t2), "{client}: {path} changed");
        } else {
            // a repair only adds what the client lost (a cut comment, a
            // quoted value it now reads whole), or makes it read the
            // frontmatter's description at all (then the text is that
            // description, or the name alone in a listing over budget)
            let kept = text.trim_end_matches(['…', '.', ' ']);
            let from_description =
                *name_only || description.starts_with(t2.trim_end_matches(['…', '.', ' ']));
            assert!(
                t2.contains(kept) || from_description,
                "{client}: {path}: listed text {text:?} became {t2:?}"
            );
        }
    }
    // a second --fix changes no byte
    let snapshot = snapshot(root);
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--no-route", "--fix"])
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let again = String::from_utf8_lossy(&out.stdout);
    assert!(again.contains("fixed nothing"), "{again}");
    assert_eq!(snapshot, self::snapshot(root));
}

fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    common::skill_files(root)
        .into_iter()
        .map(|f| {
            let b = std::fs::read(root.join(&f)).unwrap();
            (f, b)
        })
        .collect()
}
