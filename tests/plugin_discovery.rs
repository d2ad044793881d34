//! Skills found and named as Claude Code finds and names them, through the
//! binary: a marketplace whose plugins sit in groups
//! (`plugins/<group>/<plugin>/`, named by `marketplace.json`), a repository
//! that is one plugin, a manifest `skills` key and a plugin named
//! differently from its folder, and SKILL.md files nested inside another
//! skill (sub-documents: never an error, never routed).

mod common;

use common::skillsift;
use serde_json::Value;
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A valid skill at `dir`, named `name`.
fn skill_named(root: &Path, dir: &str, name: &str) {
    write(
        root,
        &format!("{dir}/SKILL.md"),
        &format!(
            "---\nname: {name}\ndescription: Handles {name} work. Use when the user asks about {name}.\n---\n\n# {name}\n"
        ),
    );
}

/// A valid skill named after its folder.
fn skill(root: &Path, dir: &str) {
    skill_named(root, dir, dir.rsplit('/').next().unwrap());
}

fn json(args: &[&str], root: &Path) -> Value {
    let out = skillsift()
        .arg(args[0])
        .arg(root)
        .args(&args[1..])
        .args(["--format", "json"])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "no JSON: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// (name, listed, reason kind) of every entry of Claude Code's listing.
fn listing(root: &Path) -> Vec<(String, bool, String)> {
    let v = json(&["listing"], root);
    let mut out: Vec<(String, bool, String)> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["listed"] == true,
                e["reason"]["kind"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

fn findings(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{} {} {}", d["rule"], d["severity"], d["file"]))
        .collect()
}

#[test]
fn a_marketplace_with_grouped_plugins_lists_each_under_its_manifest_name() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        root,
        ".claude-plugin/marketplace.json",
        r#"{"name":"mk","plugins":[
            {"name":"elixir-tools","source":"./plugins/lang/elixir"},
            {"name":"zig","source":"./plugins/lang/zig"},
            {"name":"remote","source":{"source":"github","repo":"someone/else"}}]}"#,
    );
    write(
        root,
        "plugins/lang/elixir/.claude-plugin/plugin.json",
        r#"{"name":"elixir"}"#,
    );
    skill(root, "plugins/lang/elixir/skills/otp");
    skill(root, "plugins/lang/elixir/skills/otp/supervision");
    // no manifest: the folder's name
    skill(root, "plugins/lang/zig/skills/build");
    skill(root, "skills/general");
    assert_eq!(
        listing(root),
        [
            ("elixir:otp".to_string(), true, String::new()),
            ("elixir:supervision".into(), false, "inside-skill".into()),
            ("general".into(), true, String::new()),
            ("zig:build".into(), true, String::new()),
        ]
    );
    let doc = json(&["check", "--no-route"], root);
    assert_eq!(doc["summary"]["errors"], 0, "{:?}", findings(&doc));
    let f = findings(&doc);
    assert!(
        f.contains(
            &"\"SG605\" \"notice\" \"plugins/lang/elixir/skills/otp/supervision/SKILL.md\"".into()
        ),
        "{f:?}"
    );
    // each plugin is routed in its own listing; the nested skill in none
    let doc = json(&["check"], root);
    let route = &doc["summary"]["route"];
    assert_eq!(
        route["installs"],
        serde_json::json!([
            "plugin `elixir`",
            "plugin `zig`",
            "the catalog's own skills"
        ]),
        "{doc:#}"
    );
    assert_eq!(route["skills_routed"], 3);
    assert_eq!(
        route["unroutable"],
        serde_json::json!(["plugins/lang/elixir/skills/otp/supervision/SKILL.md"])
    );
}

#[test]
fn a_repository_that_is_one_plugin_is_a_unit() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        root,
        "plugin/.claude-plugin/plugin.json",
        r#"{"name":"my-plugin","version":"1.0.0"}"#,
    );
    skill(root, "plugin/skills/alpha");
    skill(root, "plugin/skills/beta");
    write(root, "plugin/hooks/hooks.json", "{}");
    assert_eq!(
        listing(root),
        [
            ("my-plugin:alpha".to_string(), true, String::new()),
            ("my-plugin:beta".into(), true, String::new()),
        ]
    );
    let doc = json(&["check", "--no-route"], root);
    assert_eq!(doc["summary"]["errors"], 0, "{:?}", findings(&doc));
    assert_eq!(doc["summary"]["warnings"], 0, "{:?}", findings(&doc));
    // every command takes the name the listing prints
    let out = skillsift()
        .args(["cases", "my-plugin:alpha"])
        .arg(root)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("alpha"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_manifest_skills_key_adds_folders_and_names_the_plugin() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    // the folder is `kit-repo`'s root; the manifest names the plugin `kit`
    write(
        root,
        ".claude-plugin/plugin.json",
        r#"{"name":"kit","skills":["./skills/group/solo","./more","../outside"]}"#,
    );
    skill(root, "skills/top");
    // a folder holding a SKILL.md: named by its frontmatter name
    skill_named(root, "skills/group/solo", "solo-skill");
    skill(root, "skills/group/stray");
    skill(root, "more/m1");
    assert_eq!(
        listing(root),
        [
            ("kit:m1".to_string(), true, String::new()),
            ("kit:solo-skill".into(), true, String::new()),
            ("kit:stray".into(), false, "in-plugin".into()),
            ("kit:top".into(), true, String::new()),
        ]
    );
    let doc = json(&["check", "--no-route"], root);
    let f = findings(&doc);
    assert!(
        f.contains(&"\"SG022\" \"warning\" \".claude-plugin/plugin.json\"".into()),
        "{f:?}"
    );
    assert!(
        f.contains(&"\"SG605\" \"notice\" \"skills/group/stray/SKILL.md\"".into()),
        "{f:?}"
    );
    let human = skillsift().arg("listing").arg(root).output().unwrap();
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("kit:stray (skills/group/stray/SKILL.md): the plugin `kit` (.) lists only skills/*/, skills/group/solo/, more/; this folder is none of them"),
        "{text}"
    );
}

#[test]
fn sub_documents_nested_in_a_skill_are_no_errors_and_never_routed() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        root,
        "skills/review/SKILL.md",
        "---\nname: review\ndescription: Reviews a pull request. Use when the user asks for a code review.\n---\n\n# Review\n\nYou MUST read prepare/SKILL.md first.\n",
    );
    // a document the skill reads: no frontmatter
    write(
        root,
        "skills/review/prepare/SKILL.md",
        "# Prepare\n\nCheck out the branch and read the diff.\n",
    );
    // a nested skill with frontmatter: Claude Code never lists it
    skill(root, "skills/review/deep");
    let doc = json(&["check"], root);
    let f = findings(&doc);
    assert_eq!(doc["summary"]["errors"], 0, "{f:?}");
    assert!(!f.iter().any(|x| x.contains("SG010")), "{f:?}");
    assert!(
        f.contains(&"\"SG023\" \"notice\" \"skills/review/prepare/SKILL.md\"".into()),
        "{f:?}"
    );
    assert!(
        f.contains(&"\"SG605\" \"notice\" \"skills/review/deep/SKILL.md\"".into()),
        "{f:?}"
    );
    // the document is no skill; the nested skill is checked, not routed
    assert_eq!(doc["summary"]["skills_checked"], 2, "{doc:#}");
    assert_eq!(doc["summary"]["route"]["skills_routed"], 1, "{doc:#}");
    assert_eq!(
        listing(root),
        [
            ("deep".to_string(), false, "inside-skill".into()),
            ("review".into(), true, String::new()),
        ]
    );
}

/// `[catalog] include` and `exclude` read globs as a `.gitignore` does:
/// `*` stays within a folder, a bare name matches at any depth, a folder
/// pattern covers what is below it, `!` takes a match back.
#[test]
fn catalog_globs_have_gitignore_semantics() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    skill(root, "plugin/skills/alpha");
    skill(root, "plugin/skills/alpha/nested");
    skill(root, "plugin/skills/beta");
    skill(root, "plugin/skills/drafts/gamma");
    write(
        root,
        "skillsift.toml",
        "[catalog]\ninclude = [\"plugin/skills/*/SKILL.md\"]\n",
    );
    let doc = json(&["check", "--no-route"], root);
    assert_eq!(doc["summary"]["skills_checked"], 2, "{doc:#}");
    write(
        root,
        "skillsift.toml",
        "[catalog]\nexclude = [\"drafts/\", \"nested\"]\n",
    );
    let doc = json(&["check", "--no-route"], root);
    assert_eq!(doc["summary"]["skills_checked"], 2, "{doc:#}");
    write(
        root,
        "skillsift.toml",
        "[catalog]\nexclude = [\"plugin/skills/*\", \"!plugin/skills/beta\"]\n",
    );
    let doc = json(&["check", "--no-route"], root);
    assert_eq!(doc["summary"]["skills_checked"], 1, "{doc:#}");
}

/// `check <skill folder>` inside a catalog checks the skill against the
/// catalog: a negative owned by a sibling is no SG415, the prompts are
/// ranked among the siblings, only the skill's findings are shown, and
/// one line names the catalog.
#[test]
fn one_skill_is_checked_against_the_catalog_that_holds_it() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        root,
        "skills/systematic-debugging/SKILL.md",
        "---\nname: systematic-debugging\ndescription: Finds the root cause of a failing test or crash. Use when a test fails or the program crashes.\n---\n\n# Debugging\n",
    );
    write(
        root,
        "skills/systematic-debugging/evals/trigger-queries.json",
        r#"[
  {"query": "my test fails with a crash, find the root cause", "should_trigger": true},
  {"query": "let us brainstorm ideas for the new feature", "should_trigger": false, "owner": "brainstorming"}
]"#,
    );
    write(
        root,
        "skills/brainstorming/SKILL.md",
        "---\nname: brainstorming\ndescription: Generates ideas for a new feature. Use when the user wants to brainstorm ideas.\n---\n\n# Brainstorming\n",
    );
    // the catalog's configuration applies to the one skill
    write(
        root,
        "skillsift.toml",
        "[cases]\nmin-positive = 1\nmin-negative = 1\nmin-evals = 0\n",
    );
    // a sibling with an error of its own, not shown for the one skill
    write(
        root,
        "skills/broken/SKILL.md",
        "---\nname: Broken_Name\n---\n",
    );
    let out = skillsift()
        .current_dir(root)
        .args(["check", "skills/systematic-debugging"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("SG415"), "{text}");
    assert!(!text.contains("Broken_Name"), "{text}");
    assert!(text.contains("1 skill checked: 0 errors"), "{text}");
    assert!(text.contains("trigger checks: 2/2 passed"), "{text}");
    assert!(
        text.contains("checked skills/systematic-debugging/ as part of the catalog at . (3 skills): its trigger prompts were ranked among them; the other skills' findings are not shown"),
        "{text}"
    );
}

/// A manifest is untrusted: one linked from outside the catalog is not
/// read (SG022 says where it leads), and its name is not used.
#[cfg(unix)]
#[test]
fn a_manifest_linked_from_outside_the_catalog_is_not_read() {
    let t = tempfile::tempdir().unwrap();
    let outside = t.path().join("outside.json");
    std::fs::write(&outside, r#"{"name":"leaked"}"#).unwrap();
    let root = t.path().join("catalog");
    skill(&root, "plugin/skills/alpha");
    std::fs::create_dir_all(root.join("plugin/.claude-plugin")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("plugin/.claude-plugin/plugin.json")).unwrap();
    std::fs::create_dir_all(root.join(".claude-plugin")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join(".claude-plugin/marketplace.json")).unwrap();
    let names: Vec<String> = listing(&root).into_iter().map(|e| e.0).collect();
    assert_eq!(names, ["plugin:alpha"]);
    let doc = json(&["check", "--no-route"], &root);
    let msgs: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "SG022")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(
        msgs.iter().all(|m| m.contains("leads outside the catalog")),
        "{msgs:?}"
    );
}

/// A marketplace whose entries are their own manifests
/// (`tests/fixtures/client/claude-code-marketplace`, the layouts the real
/// CLI was measured with in `real_claude_listing.rs`): each entry is a
/// plugin named by the entry, listing only what its `skills` list names;
/// the entries Claude Code loads nothing of are SG024 errors; every
/// SKILL.md is linted, listed or not.
#[test]
fn marketplace_entries_are_named_and_listed_as_claude_code_installs_them() {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code-marketplace");
    let got = listing(&root);
    let want: Vec<(String, bool, String)> = [
        ("art-pack:gamma", true, ""),
        ("clash:c1", false, "in-plugin"),
        ("doc-pack:alpha", true, ""),
        ("doc-pack:beta-renamed", true, ""),
        ("doc-pack:nested-one", true, ""),
        ("doc-pack:unlisted", false, "in-plugin"),
        ("objects:o1", false, "in-plugin"),
        ("tools:hammer", true, ""),
    ]
    .iter()
    .map(|(n, l, r)| (n.to_string(), *l, r.to_string()))
    .collect();
    assert_eq!(got, want);
    let doc = json(&["check"], &root);
    assert_eq!(doc["summary"]["skills_checked"], 8, "{doc:#}");
    // each SG024 points at the entry's key that decides it
    let lines: Vec<(u64, String)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "SG024")
        .map(|d| (d["line"].as_u64().unwrap(), d["message"].to_string()))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].0 == 27 && lines[0].1.contains("`clash`"),
        "{lines:?}"
    );
    assert!(
        lines[1].0 == 34 && lines[1].1.contains("`objects`"),
        "{lines:?}"
    );
    let f = findings(&doc);
    assert!(
        f.contains(&r#""SG024" "error" ".claude-plugin/marketplace.json""#.to_string()),
        "{f:?}"
    );
    let messages: Vec<(String, String)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "SG024" || d["rule"] == "SG605")
        .map(|d| {
            (
                d["message"].as_str().unwrap().to_string(),
                d["help"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let has = |m: &str, h: &str| messages.iter().any(|(a, b)| a.contains(m) && b.contains(h));
    assert!(
        has(
            "the marketplace entry `clash` sets `\"strict\": false` and declares `skills` while `clash/.claude-plugin/plugin.json` is the plugin's manifest too",
            "keep one manifest"
        ),
        "{messages:#?}"
    );
    assert!(
        has(
            "the marketplace entry `objects` gives `skills` as a list holding objects or other values, not as paths: Claude Code 2.1.197 refuses to install it",
            ""
        ),
        "{messages:#?}"
    );
    assert!(
        has(
            "`doc-pack:unlisted`: Claude Code never lists this skill: the marketplace entry `doc-pack` lists only `skills/alpha`, `skills/beta`, `skills/group`",
            "name the folder in the entry's `skills` list"
        ),
        "{messages:#?}"
    );
    assert!(
        has("`objects:o1`", "fix the marketplace entry (SG024)"),
        "{messages:#?}"
    );
    // each entry is routed as installed on its own
    let installs = doc["summary"]["route"]["installs"].to_string();
    for e in ["doc-pack", "art-pack", "tools"] {
        assert!(installs.contains(&format!("plugin `{e}`")), "{installs}");
    }
}

/// A repository whose root holds a SKILL.md beside skill folders of its
/// own (heygen-com/heygen-stack) is a catalog, not one skill: every
/// SKILL.md is linted. As a plugin (a root plugin.json, no `skills/`),
/// Claude Code lists the root skill alone, named by its frontmatter, and
/// the siblings are noted as not listed (SG605). A SKILL.md without
/// frontmatter inside a skill is still no reason to read a folder as a
/// catalog.
#[test]
fn a_root_skill_beside_sibling_skills_is_a_catalog_and_all_are_linted() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("stack");
    skill_named(&root, ".", "stack-root");
    skill(&root, "avatar-designer");
    // an error of the sibling's own, reported
    write(
        &root,
        "video-producer/SKILL.md",
        "---\nname: Video_Producer\ndescription: Produces videos. Use when the user wants a video.\n---\n",
    );
    let doc = json(&["check", "--no-route"], &root);
    assert_eq!(doc["summary"]["skills_checked"], 3, "{doc:#}");
    assert!(
        findings(&doc)
            .iter()
            .any(|f| f.contains("video-producer/SKILL.md") && f.contains("SG102")),
        "{:?}",
        findings(&doc)
    );
    write(&root, ".claude-plugin/plugin.json", r#"{"name":"stack"}"#);
    let got = listing(&root);
    assert_eq!(
        got,
        [
            (
                "stack:avatar-designer".to_string(),
                false,
                "in-plugin".to_string()
            ),
            ("stack:stack-root".to_string(), true, String::new()),
            (
                "stack:video-producer".to_string(),
                false,
                "in-plugin".to_string()
            ),
        ]
    );
    // one skill with a document below it stays one skill
    let one = t.path().join("one");
    skill_named(&one, ".", "one");
    write(&one, "prepare/SKILL.md", "# Prepare\n\nRead this first.\n");
    let doc = json(&["check", "--no-route"], &one);
    assert_eq!(doc["summary"]["skills_checked"], 1, "{doc:#}");
}

/// A case file may name a plugin's skill as Claude Code lists it
/// (`skill: kit:slides`, the form of skill-tests.yaml files for
/// dwmkerr/skill-test-action), or by its folder when the frontmatter
/// names it otherwise: its prompts are read and ranked, never SG438.
#[test]
fn case_files_name_plugin_skills_as_claude_code_lists_them() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("toolkit");
    write(
        &root,
        "plugins/kit/.claude-plugin/plugin.json",
        r#"{"name":"kit"}"#,
    );
    skill_named(&root, "plugins/kit/skills/slides", "slides");
    skill_named(&root, "plugins/kit/skills/diagrams", "diagram-maker");
    write(
        &root,
        "plugins/kit/skills/slides/skill-tests.yaml",
        "skill: kit:slides\nmodel: haiku\n\ntests:\n  - id: one\n    prompt: \"make slides work for this deck\"\n    should_trigger: true\n  - id: two\n    prompt: \"draw diagrams of the architecture\"\n    should_trigger: false\n",
    );
    write(
        &root,
        "evals/cases/diagrams.json",
        r#"{"skill_name": "diagrams", "trigger": {"positive": [{"prompt": "handle diagram-maker work"}], "negative": []}}"#,
    );
    let doc = json(&["check"], &root);
    let f = findings(&doc);
    assert!(
        !f.iter().any(|x| x.contains("SG438") || x.contains("SG415")),
        "{f:?}"
    );
    let r = &doc["summary"]["route"];
    assert_eq!(r["positives"], 2, "{r:#}");
    assert_eq!(r["checks"], 3, "{r:#}");
}
