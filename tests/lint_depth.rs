//! Tier 1 depth (issue 25), through the binary on catalogs written here:
//! references to bundled files (SG210), bundled files never mentioned
//! (SG211), unclosed fences (SG212), templates (SG213), what Claude Code
//! does with the values of its own keys (SG610–SG616), and the changed
//! behaviour of SG107, SG014, SG201 and SG408.

mod common;

use common::check_doc;
use serde_json::Value;
use std::path::Path;

/// Write `files` (path, text) under a fresh folder.
fn catalog(files: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (p, text) in files {
        let path = tmp.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    tmp
}

/// The diagnostics of `rule` in the JSON report of `check` on `root`.
fn findings(root: &Path, extra: &[&str], rule: &str) -> Vec<Value> {
    let (_, doc) = check_doc(root, extra);
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == rule)
        .cloned()
        .collect()
}

/// The one finding of `rule`; its file text at the span must be `spanned`.
fn one(root: &Path, rule: &str, line: u64, spanned: &str) -> Value {
    let f = findings(root, &[], rule);
    assert_eq!(f.len(), 1, "{rule}: {f:#?}");
    let d = f[0].clone();
    assert_eq!(d["line"], line, "{d:#}");
    let text = std::fs::read_to_string(root.join(d["file"].as_str().unwrap())).unwrap();
    let (s, e) = (
        d["start_byte"].as_u64().unwrap() as usize,
        d["end_byte"].as_u64().unwrap() as usize,
    );
    assert_eq!(&text[s..e], spanned, "{d:#}");
    d
}

const HEAD: &str =
    "---\nname: pdf\ndescription: Fills PDF forms. Use when a form must be filled.\n";

fn skill(extra_keys: &str, body: &str) -> String {
    format!("{HEAD}{extra_keys}---\n# PDF\n\n{body}")
}

#[test]
fn a_link_to_a_missing_file_names_the_closest_one() {
    let md = skill("", "See [the guide](references/guid.md) first.\n");
    let c = catalog(&[
        ("skills/pdf/SKILL.md", &md),
        ("skills/pdf/references/guide.md", "# Guide\n"),
    ]);
    let d = one(c.path(), "SG210", 7, "references/guid.md");
    assert_eq!(d["severity"], "warning");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("not in the skill folder")
    );
    assert_eq!(
        d["help"],
        "did you mean `references/guide.md`? (it is the closest name); fix the path, or add the file"
    );
}

#[test]
fn a_script_in_code_is_a_reference_when_the_skill_bundles_scripts() {
    let md = skill(
        "",
        "Run `python scripts/upload.py` then\n\n```bash\nbash scripts/fill.sh\n```\n",
    );
    let c = catalog(&[
        ("skills/pdf/SKILL.md", &md),
        ("skills/pdf/scripts/fill.sh", "echo\n"),
        ("skills/pdf/scripts/tools/upload.py", "print()\n"),
    ]);
    let d = one(c.path(), "SG210", 7, "scripts/upload.py");
    assert_eq!(
        d["help"],
        "did you mean `scripts/tools/upload.py`? (it has this name in another folder); fix the path, or add the file"
    );
    // without a bundled scripts/ folder the path may be the user's project's
    let c = catalog(&[("skills/pdf/SKILL.md", &md)]);
    assert!(findings(c.path(), &[], "SG210").is_empty());
}

#[test]
fn windows_separators_get_the_slash_spelling_as_help() {
    let md = skill("", "Read [forms](references\\forms.md).\n");
    let c = catalog(&[
        ("skills/pdf/SKILL.md", &md),
        ("skills/pdf/references/forms.md", "# Forms\n"),
    ]);
    let d = one(c.path(), "SG210", 7, "references\\forms.md");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("Windows separators")
    );
    assert_eq!(d["help"], "write `references/forms.md`");
    // the replacement `--fix` will apply is exactly the help's text
    let text = std::fs::read_to_string(c.path().join("skills/pdf/SKILL.md")).unwrap();
    let (s, e) = (
        d["start_byte"].as_u64().unwrap() as usize,
        d["end_byte"].as_u64().unwrap() as usize,
    );
    let (range, new) = lint::rules::bundled_links::separator_fix(&text, s..e).unwrap();
    assert_eq!((range, new.as_str()), (s..e, "references/forms.md"));
    assert_eq!(d["label"], "`\\` is not a folder separator here");
    // in prose, in a skill that bundles no references/ at all
    let md = skill("", "See references\\guide.md for details.\n");
    let c = catalog(&[("skills/pdf/SKILL.md", &md)]);
    let d = one(c.path(), "SG210", 7, "references\\guide.md");
    assert_eq!(
        d["help"],
        "write `references/guide.md` (`/` between folders) and add the file to the skill folder"
    );
}

#[test]
fn existing_files_urls_anchors_and_other_skills_are_not_reported() {
    let md = skill(
        "",
        "[g](references/guide.md#top), [w](https://x.y/a.md), [t](#top), [o](../other/SKILL.md),\n[up](../../README.md), `[x](url)`, [self](SKILL.md), ![logo](assets/logo%20a.png)\n",
    );
    let c = catalog(&[
        ("skills/pdf/SKILL.md", &md),
        ("skills/pdf/references/guide.md", "# Guide\n"),
        ("skills/pdf/assets/logo a.png", "png"),
    ]);
    assert!(findings(c.path(), &[], "SG210").is_empty());
}

#[test]
fn bundled_files_never_mentioned_get_a_notice_each() {
    let md = skill("", "Run `scripts/fill.py`. Fonts are in `assets/fonts/`.\n");
    let c = catalog(&[
        ("skills/pdf/SKILL.md", &md),
        ("skills/pdf/scripts/fill.py", "print()\n"),
        ("skills/pdf/scripts/cleanup.sh", "rm\n"),
        ("skills/pdf/scripts/__pycache__/fill.cpython-312.pyc", "x"),
        ("skills/pdf/assets/fonts/a.ttf", "x"),
        ("skills/pdf/references/api.md", "# API\n"),
    ]);
    let f = findings(c.path(), &[], "SG211");
    let files: Vec<&str> = f.iter().map(|d| d["file"].as_str().unwrap()).collect();
    assert_eq!(
        files,
        vec![
            "skills/pdf/references/api.md",
            "skills/pdf/scripts/cleanup.sh"
        ]
    );
    assert_eq!(f[1]["severity"], "notice");
    assert!(
        f[1]["message"]
            .as_str()
            .unwrap()
            .contains("never mentions it")
    );
    assert_eq!(
        f[1]["help"],
        "say in SKILL.md when to read or run `scripts/cleanup.sh`, or delete it"
    );
}

#[test]
fn an_unclosed_fence_is_flagged_at_its_opening_line_with_what_it_swallows() {
    let md = skill("", "```bash\nnpm test\n\n## Verification\n\nAll green.\n");
    let c = catalog(&[("skills/pdf/SKILL.md", &md)]);
    let d = one(c.path(), "SG212", 7, "```bash");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("never closes: the 5 lines after it read as code, the heading `## Verification` among them"),
        "{d:#}"
    );
    assert_eq!(
        d["help"],
        "close the block with a line holding only ``` where its code ends; a block that shows fences needs a longer fence around it"
    );
    // closed fences, and a longer fence around a shorter one, are fine
    let md = skill("", "````md\n```bash\nx\n```\n````\n");
    let c = catalog(&[("skills/pdf/SKILL.md", &md)]);
    assert!(findings(c.path(), &[], "SG212").is_empty());
}

#[test]
fn a_template_folder_is_said_once_and_not_linted_as_a_skill() {
    let tpl = "---\nname: {{name}}\ndescription: {{description}}\n---\n# {{title}}\n";
    let c = catalog(&[
        ("pdf/SKILL.md", &skill("", "Body.\n")),
        ("templates/SKILL.md", tpl),
    ]);
    let (_, doc) = check_doc(c.path(), &[]);
    let in_template: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"].as_str().unwrap().starts_with("templates/"))
        .collect();
    assert_eq!(in_template.len(), 1, "{in_template:#?}");
    let d = in_template[0];
    assert_eq!(
        (d["rule"].as_str(), d["severity"].as_str()),
        (Some("SG213"), Some("notice"))
    );
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("no client discovers a SKILL.md there")
    );
    assert!(d["help"].as_str().unwrap().contains("[catalog] include"));
    // included by configuration, it is a skill again
    std::fs::write(
        c.path().join("skillsift.toml"),
        "[catalog]\ninclude = [\"**/SKILL.md\"]\n",
    )
    .unwrap();
    let (_, doc) = check_doc(c.path(), &[]);
    let rules: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"] == "templates/SKILL.md")
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(!rules.contains(&"SG213") && !rules.is_empty(), "{rules:?}");
}

#[test]
fn context_other_than_fork_is_ignored_by_claude_code() {
    let c = catalog(&[(
        "skills/pdf/SKILL.md",
        &skill("context: isolated\n", "Body.\n"),
    )]);
    let d = one(c.path(), "SG610", 4, "isolated");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("the skill runs inline")
    );
    assert_eq!(
        d["help"],
        "write `context: fork` to run the skill in a forked sub-agent, or remove the key"
    );
    let c = catalog(&[(
        "skills/pdf/SKILL.md",
        &skill("context: fork\nagent: Explore\n", "Body.\n"),
    )]);
    assert!(findings(c.path(), &[], "SG610").is_empty());
    assert!(findings(c.path(), &[], "SG611").is_empty());
    assert!(findings(c.path(), &[], "SG612").is_empty());
}

#[test]
fn agent_without_fork_and_an_agent_that_names_nothing() {
    let c = catalog(&[("skills/pdf/SKILL.md", &skill("agent: Explore\n", "Body.\n"))]);
    let d = one(c.path(), "SG611", 4, "Explore");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("the agent is never used")
    );
    assert_eq!(
        d["help"],
        "add `context: fork` to run the skill with this agent, or remove `agent`"
    );
    let c = catalog(&[
        (
            "skills/pdf/SKILL.md",
            &skill("context: fork\nagent: explore\n", "Body.\n"),
        ),
        (
            "skills/other/SKILL.md",
            &skill("context: fork\nagent: reviewer\n", "Body.\n")
                .replace("name: pdf", "name: other"),
        ),
        (
            ".claude/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n",
        ),
    ]);
    let f = findings(c.path(), &[], "SG612");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0]["file"], "skills/pdf/SKILL.md");
    assert_eq!(f[0]["line"], 5);
    assert!(
        f[0]["message"]
            .as_str()
            .unwrap()
            .contains("forks the skill with `general-purpose`")
    );
    assert_eq!(
        f[0]["help"],
        "write `agent: Explore`: agent names are case-sensitive"
    );
}

#[test]
fn an_unknown_hook_event_drops_the_whole_block() {
    let hooks = "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./guard.sh\n  preCompact:\n    - hooks:\n        - type: command\n          command: echo\n";
    let c = catalog(&[("skills/pdf/SKILL.md", &skill(hooks, "Body.\n"))]);
    let d = one(c.path(), "SG613", 10, "preCompact");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("drops the skill's whole `hooks` block for it, the 1 other event with it"),
        "{d:#}"
    );
    assert_eq!(
        d["help"],
        "write `PreCompact`: event names are case-sensitive"
    );
}

#[test]
fn a_model_claude_code_cannot_use() {
    let c = catalog(&[("skills/pdf/SKILL.md", &skill("model: gpt-4o\n", "Body.\n"))]);
    let d = one(c.path(), "SG614", 4, "gpt-4o");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("takes `gpt-4o` as the model id")
    );
    for ok in ["sonnet", "Opus", "claude-sonnet-4-5", "inherit", "opus[1m]"] {
        let c = catalog(&[(
            "skills/pdf/SKILL.md",
            &skill(&format!("model: \"{ok}\"\n"), "Body.\n"),
        )]);
        assert!(findings(c.path(), &[], "SG614").is_empty(), "{ok}");
    }
}

#[test]
fn allowed_tools_naming_no_tool() {
    let c = catalog(&[(
        "skills/pdf/SKILL.md",
        &skill(
            "allowed-tools: Bash(git status:*) Read, bash MultiEdit Task mcp__gh__pr\n",
            "Body.\n",
        ),
    )]);
    let f = findings(c.path(), &[], "SG615");
    let spans: Vec<(u64, u64)> = f
        .iter()
        .map(|d| (d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(spans, vec![(4, 41), (4, 46)], "{f:#?}");
    assert_eq!(f[0]["help"], "write `Bash`: tool names are case-sensitive");
    assert!(
        f[1]["message"]
            .as_str()
            .unwrap()
            .contains("no tool `MultiEdit`, so this entry pre-approves nothing")
    );
    assert_eq!(
        f[1]["help"],
        "use `Edit`: Claude Code no longer has a `MultiEdit` tool"
    );
}

#[test]
fn a_skill_nobody_can_run() {
    let c = catalog(&[(
        "skills/pdf/SKILL.md",
        &skill(
            "user-invocable: false\ndisable-model-invocation: true\n",
            "Body.\n",
        ),
    )]);
    let d = one(c.path(), "SG616", 4, "false");
    assert!(d["message"].as_str().unwrap().contains("nobody can run it"));
    // [lint] clients without Claude Code: none of its rules speak
    std::fs::write(
        c.path().join("skillsift.toml"),
        "[lint]\nclients = [\"codex\"]\n",
    )
    .unwrap();
    assert!(findings(c.path(), &[], "SG616").is_empty());
}

#[test]
fn openclaw_metadata_is_recognised_and_other_nesting_is_a_warning() {
    let c = catalog(&[(
        "skills/pdf/SKILL.md",
        &skill(
            "metadata:\n  openclaw:\n    requires:\n      bins: [qpdf]\n  extra:\n    a: b\n",
            "Body.\n",
        ),
    )]);
    let f = findings(c.path(), &[], "SG107");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(
        (f[0]["line"].as_u64(), f[0]["severity"].as_str()),
        (Some(8), Some("warning"))
    );
}

#[test]
fn an_alias_to_its_own_anchor_says_so() {
    let c = catalog(&[(
        "skills/pdf/SKILL.md",
        &skill("metadata: &m\n  self: *m\n", "Body.\n"),
    )]);
    let f = findings(c.path(), &[], "SG014");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0]["message"]
            .as_str()
            .unwrap()
            .contains("the anchor of a node that holds it"),
        "{f:#?}"
    );
}

#[test]
fn no_use_when_clause_is_not_said_of_a_skill_the_model_never_sees() {
    let md = "---\nname: pdf\ndescription: Fills PDF forms.\ndisable-model-invocation: true\n---\n# PDF\n";
    let c = catalog(&[("skills/pdf/SKILL.md", md)]);
    assert!(findings(c.path(), &[], "SG201").is_empty());
    // a linted client that lists it still hears it
    std::fs::write(
        c.path().join("skillsift.toml"),
        "[lint]\nclients = [\"claude-code\", \"codex\"]\n",
    )
    .unwrap();
    let f = findings(c.path(), &[], "SG201");
    assert_eq!(f.len(), 1);
    assert!(
        f[0]["message"].as_str().unwrap().contains("but Codex does"),
        "{f:#?}"
    );
}

#[test]
fn an_eval_without_expected_output_is_a_warning() {
    let md = skill("", "Body.\n");
    // with expectations written, no `expected_output` is needed: the
    // warning is for an eval that has neither (SG408 also says the
    // missing expectations)
    let evals = r#"{"skill_name": "pdf", "evals": [{"id": 1, "prompt": "Fill the form", "expectations": ["The form is filled"]}, {"id": 2, "prompt": "Fill the other form", "expectations": []}]}"#;
    let c = catalog(&[
        ("skills/pdf/SKILL.md", &md),
        ("skills/pdf/evals/evals.json", evals),
    ]);
    let f: Vec<Value> = findings(c.path(), &[], "SG408");
    let warned: Vec<&Value> = f.iter().filter(|d| d["severity"] == "warning").collect();
    assert_eq!(warned.len(), 1, "{f:#?}");
    assert_eq!(warned[0]["message"], "eval `2` has no `expected_output`");
}

/// A vendored tree is one SG211 for the tree, a developer's tests and
/// fixtures none, and a file of trigger tests (here naming a skill the
/// catalog lacks, so SG438 says it) is the tester's, not "never
/// mentioned".
#[test]
fn vendored_trees_tests_and_trigger_tests_are_not_listed_file_by_file() {
    let md = skill("", "Run `scripts/fill.py`.\n");
    let c = catalog(&[
        ("skills/pdf/SKILL.md", &md),
        ("skills/pdf/scripts/fill.py", "print()\n"),
        ("skills/pdf/lib/pdfkit/__init__.py", ""),
        ("skills/pdf/lib/pdfkit/core.py", "x = 1\n"),
        ("skills/pdf/lib/pdfkit/fonts.py", "x = 1\n"),
        ("skills/pdf/lib/pdfkit/render/__init__.py", ""),
        ("skills/pdf/lib/pdfkit/render/page.py", "x = 1\n"),
        (
            "skills/pdf/lib/pdfkit/tests/test_core.py",
            "def test(): pass\n",
        ),
        ("skills/pdf/lib/pdfkit/tests/fixtures/form.json", "{}\n"),
        ("skills/pdf/scripts/test_fill.py", "def test(): pass\n"),
        (
            "skills/pdf/skill-tests.yaml",
            "skill: other:gone\ntests:\n  - prompt: fill my form\n    should_trigger: true\n",
        ),
        ("skills/pdf/references/api.md", "# API\n"),
    ]);
    let f = findings(c.path(), &[], "SG211");
    let seen: Vec<(&str, &str)> = f
        .iter()
        .map(|d| (d["file"].as_str().unwrap(), d["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        seen,
        [
            (
                "skills/pdf/lib/pdfkit/core.py",
                "`lib/pdfkit/` is bundled with the skill (3 of its files, a package or vendored tree), but SKILL.md never mentions it: the agent never learns it exists"
            ),
            (
                "skills/pdf/references/api.md",
                "`references/api.md` is bundled with the skill, but SKILL.md never mentions it: the agent never learns it exists"
            ),
        ],
        "{f:#?}"
    );
}

/// skill-creator's evals.json before its assertions are written: an
/// `expected_output` and no (or empty) `expectations` is a warning that
/// says what it means, not an error.
#[test]
fn an_output_only_eval_is_a_warning() {
    let md = skill("", "Body.\n");
    let evals = r#"{"skill_name": "pdf", "evals": [{"id": 1, "prompt": "Fill the form", "expected_output": "A filled form"}, {"id": 2, "prompt": "Fill the other form", "expected_output": "Another filled form", "expectations": []}, {"id": 3, "prompt": "Fill a third form"}]}"#;
    let c = catalog(&[
        ("skills/pdf/SKILL.md", &md),
        ("skills/pdf/evals/evals.json", evals),
    ]);
    let f: Vec<Value> = findings(c.path(), &[], "SG408");
    let seen: Vec<(String, String)> = f
        .iter()
        .map(|d| {
            (
                d["severity"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let said = "has an `expected_output` and no `expectations`: a person can judge a run against it, but `check --behavioral` has nothing to grade and refuses the skill until it lists some";
    assert!(
        seen.contains(&("warning".into(), format!("eval `1` {said}"))),
        "{seen:#?}"
    );
    assert!(
        seen.contains(&("warning".into(), format!("eval `2` {said}"))),
        "{seen:#?}"
    );
    // neither an expected output nor expectations: still an error
    assert!(
        seen.iter()
            .any(|(sev, m)| sev == "error" && m.starts_with("eval `3` has no `expectations`")),
        "{seen:#?}"
    );
    assert_eq!(
        seen.iter().filter(|(sev, _)| sev == "error").count(),
        1,
        "{seen:#?}"
    );
}

#[test]
fn a_single_skill_reports_only_agent_names_no_agent_file_can_have() {
    let c = catalog(&[
        (
            "custom/SKILL.md",
            &skill("context: fork\nagent: my-agent\n", "Body.\n")
                .replace("name: pdf", "name: custom"),
        ),
        (
            "bad/SKILL.md",
            &skill("context: fork\nagent: Invalid_Agent\n", "Body.\n")
                .replace("name: pdf", "name: bad"),
        ),
    ]);
    assert!(findings(&c.path().join("custom/SKILL.md"), &[], "SG612").is_empty());
    let f = findings(&c.path().join("bad/SKILL.md"), &[], "SG612");
    assert_eq!(f.len(), 1, "{f:#?}");
    // an installed catalog: the agents beside `.claude/skills/` count
    let c = catalog(&[
        (
            "proj/.claude/skills/pdf/SKILL.md",
            &skill("context: fork\nagent: reviewer\n", "Body.\n"),
        ),
        (
            "proj/.claude/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Reviews.\n---\n",
        ),
    ]);
    assert!(findings(c.path(), &[], "SG612").is_empty());
}

#[test]
fn a_file_named_by_a_linked_guide_or_a_named_folder_is_mentioned() {
    let md = skill(
        "",
        "Follow [the guide](references/guide.md). Page shells live in `assets/`.\n",
    );
    let c = catalog(&[
        ("skills/pdf/SKILL.md", &md),
        ("skills/pdf/references/guide.md", "Check weeks.md first.\n"),
        ("skills/pdf/references/weeks.md", "# Weeks\n"),
        ("skills/pdf/references/unused.md", "# Unused\n"),
        ("skills/pdf/assets/shell.html", "<html>"),
    ]);
    let f = findings(c.path(), &[], "SG211");
    let files: Vec<&str> = f.iter().map(|d| d["file"].as_str().unwrap()).collect();
    assert_eq!(files, vec!["skills/pdf/references/unused.md"]);
}
