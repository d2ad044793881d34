//! Where skills are found, through the binary: the clients' project roots
//! (`.claude/skills/`, `.agents/skills/`, `.github/skills/`, …) and
//! `plugins/*/skills/` next to `skills/`, each folder read once however many
//! links lead to it; a `skills/` folder that is itself a skill; the summary
//! naming the roots read; a SKILL.md that is a symlink checked out as a file
//! (SG017); the trigger-clause phrasings of large catalogs (SG201); the
//! "not routed" line of a catalog with many unroutable skills.

mod common;

use common::skillsift;
use predicates::str::contains;
use serde_json::{Value, json};
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A valid skill at `dir` (relative to the root), named after its folder.
fn skill(root: &Path, dir: &str) {
    let name = dir.rsplit('/').next().unwrap();
    write(
        root,
        &format!("{dir}/SKILL.md"),
        &format!(
            "---\nname: {name}\ndescription: Handles {name} work. Use when the user asks about {name}.\n---\n\n# {name}\n"
        ),
    );
}

fn check_json(root: &Path) -> Value {
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--no-route", "--format", "json"])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn files(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["rule"].as_str().unwrap(),
                d["file"].as_str().unwrap()
            )
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn client_roots_beside_skills_are_read_and_a_linked_one_once() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    skill(root, "skills/alpha");
    skill(root, ".claude/skills/beta");
    skill(root, ".github/skills/gamma");
    skill(root, "plugins/tools/skills/delta");
    write(root, ".github/workflows/ci.yml", "on: push\n");
    std::fs::create_dir_all(root.join(".agents")).unwrap();
    std::os::unix::fs::symlink("../skills", root.join(".agents/skills")).unwrap();
    let doc = check_json(root);
    assert_eq!(doc["summary"]["skills_checked"], 4);
    assert_eq!(
        doc["summary"]["roots"],
        json!([
            {"path": "skills", "skills": 1},
            {"path": ".agents/skills", "skills": 0, "skipped": "the same folder as skills/"},
            {"path": ".claude/skills", "skills": 1},
            {"path": ".github/skills", "skills": 1},
            {"path": "plugins/tools/skills", "skills": 1}
        ])
    );
    skillsift()
        .arg("check")
        .arg(root)
        .arg("--no-route")
        .assert()
        .code(0)
        .stdout(contains(
            "skills roots: skills/ (1 skill), .agents/skills/ (not read: the same folder as skills/), .claude/skills/ (1 skill), .github/skills/ (1 skill), plugins/tools/skills/ (1 skill)\n4 skills checked: 0 errors",
        ));
}

#[cfg(unix)]
#[test]
fn a_skill_md_linked_into_a_client_root_is_one_skill() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    skill(root, "skills/alpha");
    std::fs::create_dir_all(root.join(".claude/skills/alpha")).unwrap();
    std::os::unix::fs::symlink(
        "../../../skills/alpha/SKILL.md",
        root.join(".claude/skills/alpha/SKILL.md"),
    )
    .unwrap();
    let doc = check_json(root);
    assert_eq!(doc["summary"]["skills_checked"], 1, "{doc:#}");
    assert_eq!(files(&doc), Vec::<String>::new());
}

#[test]
fn one_root_needs_no_roots_line() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "skills/alpha");
    let (text, code) = common::check_human(t.path(), &[]);
    assert_eq!(code, 0);
    assert_eq!(text, "1 skill checked: 0 errors, 0 warnings, 0 notices\n");
    assert_eq!(
        check_json(t.path())["summary"]["roots"],
        json!([{"path": "skills", "skills": 1}])
    );
}

#[test]
fn a_skills_folder_that_is_itself_a_skill_is_not_a_skills_root() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    skill(root, "skills");
    skill(root, "skills/nested");
    skill(root, "tools/other");
    let doc = check_json(root);
    assert_eq!(doc["summary"]["roots"], json!([{"path": ".", "skills": 3}]));
    assert_eq!(doc["summary"]["skills_checked"], 3);
}

#[test]
fn configured_roots_replace_the_defaults() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    skill(root, "skills/alpha");
    skill(root, ".claude/skills/beta");
    write(root, "skillsift.toml", "[catalog]\nroots = [\"skills\"]\n");
    let doc = check_json(root);
    assert_eq!(doc["summary"]["skills_checked"], 1);
    assert_eq!(
        doc["summary"]["roots"],
        json!([{"path": "skills", "skills": 1}])
    );
}

#[cfg(unix)]
#[test]
fn a_client_root_leading_out_of_the_catalog_is_named_not_read() {
    let outside = tempfile::tempdir().unwrap();
    skill(outside.path(), "stranger");
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    skill(root, "skills/alpha");
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join(".claude/skills")).unwrap();
    let doc = check_json(root);
    assert_eq!(doc["summary"]["skills_checked"], 1);
    let roots = doc["summary"]["roots"].as_array().unwrap();
    assert_eq!(roots[1]["path"], ".claude/skills");
    assert!(
        roots[1]["skipped"]
            .as_str()
            .unwrap()
            .starts_with("a symlink leading outside the catalog"),
        "{roots:#?}"
    );
    assert_eq!(files(&doc), Vec::<String>::new());
}

#[test]
fn a_skill_md_holding_only_a_path_is_sg017_not_sg010() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    skill(root, "skills/alpha");
    write(root, "skills/beta/SKILL.md", "../alpha/SKILL.md");
    let doc = check_json(root);
    let found: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"] == "skills/beta/SKILL.md")
        .collect();
    // Claude Code lists the file with its one line as the description,
    // and says so (SG602); SG017 names the cause
    let rules: Vec<&str> = found.iter().map(|d| d["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["SG017", "SG602"], "{found:#?}");
    let d = found[0];
    assert_eq!(d["rule"], "SG017");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        d["message"],
        "SKILL.md holds only the path `../alpha/SKILL.md`: a symlink checked out as a plain file; its target skills/alpha/SKILL.md exists"
    );
    assert!(d["help"].as_str().unwrap().contains("core.symlinks true"));
}

#[test]
fn the_trigger_clause_rule_accepts_the_phrasings_of_large_catalogs() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    for (name, description) in [
        (
            "list-form",
            "Deploys to Azure. USE FOR: deploy my app, azd up. DO NOT USE FOR: AWS.",
        ),
        (
            "use-for",
            "Writes release notes. Use for changelog entries and release notes.",
        ),
        (
            "use-it-when",
            "Checks links. Use it when a page may have broken links.",
        ),
        (
            "proactive",
            "Reviews diffs for bugs. Use proactively after every change.",
        ),
        (
            "proactive-alone",
            "Reviews diffs for bugs. Use proactively.",
        ),
        ("only-negative", "Formats tables. DO NOT USE FOR: charts."),
        ("none", "Formats tables in Markdown files."),
    ] {
        write(
            root,
            &format!("skills/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: \"{description}\"\n---\n\n# {name}\n"),
        );
    }
    let doc = check_json(root);
    assert_eq!(
        doc["summary"]["errors"], 0,
        "every description is read: {:#?}",
        doc["diagnostics"]
    );
    let sg201: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "SG201")
        .map(|d| d["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        sg201,
        ["skills/none/SKILL.md", "skills/only-negative/SKILL.md"]
    );
}

#[test]
fn the_not_routed_line_lists_five_and_counts_the_rest() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    skill(root, "skills/routed");
    for i in 0..8 {
        write(
            root,
            &format!("skills/bare-{i}/SKILL.md"),
            &format!("---\nname: bare-{i}\n---\n\n# bare\n"),
        );
    }
    let line = "not routed (8 skills without a readable name or description): skills/bare-0/SKILL.md, skills/bare-1/SKILL.md, skills/bare-2/SKILL.md, skills/bare-3/SKILL.md, skills/bare-4/SKILL.md and 3 more (--format json lists all)";
    skillsift()
        .arg("check")
        .arg(root)
        // Claude Code lists these (the body as text); the strict reading does not
        .args(["--client", "spec"])
        .assert()
        .stdout(contains(line));
    skillsift()
        .args(["rank", "routed work"])
        .arg(root)
        .args(["--no-cache", "--client", "spec"])
        .assert()
        .code(0)
        .stdout(contains("and 3 more (--format json lists all)"));
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--format", "json", "--client", "spec"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["summary"]["route"]["unroutable"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
}

/// A plugin marketplace keeping its plugins under `skills/`
/// (`skills/<plugin>/skills/<skill>/`) and APM packs
/// (`packs/<pack>/.apm/skills/<skill>/`): each skill sits one level below
/// its unit's skills folder, so Claude Code lists it (no SG605), and the
/// plugin's manifest beside its skills folder is no skill missing its
/// SKILL.md (no SG114).
#[test]
fn plugins_under_skills_and_packs_are_listed() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    skill(root, "skills/shop/skills/cart-export");
    skill(root, "skills/blog/skills/post-export");
    write(
        root,
        "skills/shop/.claude-plugin/plugin.json",
        "{\"name\": \"shop\"}\n",
    );
    skill(root, "packs/core/.apm/skills/triage");
    let doc = check_json(root);
    assert_eq!(doc["summary"]["skills_checked"], 3, "{doc:#}");
    let found = files(&doc);
    assert!(
        !found
            .iter()
            .any(|f| f.starts_with("SG605") || f.starts_with("SG114")),
        "{found:?}"
    );
    let out = skillsift()
        .arg("listing")
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut names: Vec<&str> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["listed"] == true)
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    names.sort();
    // a plugin's skill is `<plugin>:<folder>`, a pack's keeps its folder
    assert_eq!(
        names,
        ["blog:post-export", "shop:cart-export", "triage"],
        "{v:#}"
    );
}
