//! Slash-command parity through the binary: every `SG3xx` rule on a tiny
//! fixture catalog under `tests/fixtures/commands/`.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/commands")
        .join(name)
}

/// Run `skillsift check --no-route --format json`; the exit code and the
/// diagnostics.
fn check(name: &str) -> (i32, Vec<Value>) {
    common::check_diagnostics(&fixture(name))
}

/// `(rule, file, line)` of every command finding (`SG3xx`, and the shared
/// load-time rules raised on command files).
fn command_findings(diags: &[Value]) -> Vec<(String, String, Option<u64>)> {
    common::rule_file_line(diags, |d| {
        let rule = d["rule"].as_str().unwrap();
        let file = d["file"].as_str().unwrap();
        rule.starts_with("SG3") || file.contains("commands/")
    })
}

fn f(rule: &str, file: &str, line: Option<u64>) -> (String, String, Option<u64>) {
    (rule.to_string(), file.to_string(), line)
}

#[test]
fn three_folders_with_the_same_commands_and_descriptions_pass() {
    let (code, diags) = check("parity");
    assert_eq!(command_findings(&diags), vec![]);
    assert_eq!(code, 0, "{diags:#?}");
}

#[test]
fn a_command_missing_from_one_folder_is_an_error() {
    let (code, diags) = check("missing");
    assert_eq!(code, 1);
    assert_eq!(
        command_findings(&diags),
        vec![f("SG303", ".claude/commands/bake.md", None)]
    );
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .contains("expected `.gemini/commands/bake.toml`")
    );
}

#[test]
fn a_description_that_differs_is_reported_at_the_differing_file() {
    let (code, diags) = check("description-mismatch");
    assert_eq!(code, 1);
    assert_eq!(
        command_findings(&diags),
        vec![f("SG304", ".gemini/commands/sort.toml", Some(1))]
    );
    let d = &diags[0];
    assert_eq!(d["column"], 15);
    assert!(
        d["message"].as_str().unwrap().contains("at character 24"),
        "{d}"
    );
}

#[test]
fn name_map_pairs_commands_whose_names_differ_on_purpose() {
    let (code, diags) = check("name-map");
    assert_eq!(command_findings(&diags), vec![]);
    assert_eq!(code, 0, "{diags:#?}");
}

#[test]
fn without_a_name_map_a_renamed_command_is_missing_and_the_map_is_suggested() {
    let (code, diags) = check("name-map-needed");
    assert_eq!(code, 1);
    assert_eq!(
        command_findings(&diags),
        vec![
            f("SG303", ".claude/commands/bake.md", None),
            f("SG303", ".claude/commands/bake.md", None),
            f("SG303", ".gemini/commands/baking.toml", None),
        ]
    );
    assert!(
        diags[0]["help"]
            .as_str()
            .unwrap()
            .contains("name-map = { bake = \"baking\" }"),
        "{:#}",
        diags[0]
    );
}

#[test]
fn a_command_named_like_a_claude_code_builtin_is_an_error() {
    let (code, diags) = check("builtin");
    assert_eq!(code, 1);
    assert_eq!(
        command_findings(&diags),
        vec![f("SG305", ".claude/commands/review.md", None)]
    );
}

#[test]
fn the_builtin_list_comes_from_skillsift_toml() {
    let (code, diags) = check("builtin-config");
    assert_eq!(command_findings(&diags), vec![]);
    assert_eq!(code, 0);
}

#[test]
fn invalid_toml_is_reported_at_the_earliest_error() {
    let (code, diags) = check("toml-syntax");
    assert_eq!(code, 1);
    assert_eq!(
        command_findings(&diags),
        vec![f("SG301", ".gemini/commands/bake.toml", Some(3))]
    );
    assert_eq!(diags[0]["column"], 25);
}

#[test]
fn a_command_without_a_description_is_an_error() {
    let (code, diags) = check("description-missing");
    assert_eq!(code, 1);
    assert_eq!(
        command_findings(&diags),
        vec![
            f("SG302", ".claude/commands/bake.md", None),
            f("SG302", "commands/bake.toml", None),
        ]
    );
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .contains("no frontmatter")
    );
}

#[test]
fn a_toml_command_without_a_prompt_is_an_error() {
    let (code, diags) = check("prompt-missing");
    assert_eq!(code, 1);
    assert_eq!(
        command_findings(&diags),
        vec![f("SG306", "commands/bake.toml", None)]
    );
}

#[test]
fn invalid_yaml_in_a_command_frontmatter_is_located() {
    let (code, diags) = check("yaml-invalid");
    assert_eq!(code, 1);
    assert_eq!(
        command_findings(&diags),
        vec![f("SG013", ".claude/commands/bake.md", Some(2))]
    );
}

#[test]
fn a_name_map_entry_that_pairs_nothing_is_a_warning() {
    let (code, diags) = check("stale-name-map");
    assert_eq!(code, 0);
    assert_eq!(
        command_findings(&diags),
        vec![f("SG307", "skillsift.toml", None)]
    );
    assert_eq!(diags[0]["severity"], "warning");
}

#[test]
fn a_single_command_folder_has_nothing_to_be_in_parity_with() {
    let (code, diags) = check("claude-only");
    assert_eq!(command_findings(&diags), vec![]);
    assert_eq!(code, 0);
}

#[test]
fn rule_docs_are_printed_for_every_command_rule() {
    for id in 301..=307 {
        let out = Command::cargo_bin("skillsift")
            .unwrap()
            .args(["rule", &format!("SG{id}")])
            .output()
            .unwrap();
        assert!(out.status.success(), "SG{id}");
        assert!(
            String::from_utf8(out.stdout)
                .unwrap()
                .contains("## What it does")
        );
    }
}

#[test]
fn a_commands_folder_of_markdown_plugin_commands_is_not_compared() {
    let (code, diags) = check("plugin-markdown-commands");
    assert_eq!(command_findings(&diags), vec![]);
    assert_eq!(code, 0);
}

#[test]
fn markdown_command_frontmatter_gets_the_yaml_portability_rules() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let skill = root.join("skills/ok");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: ok\ndescription: Checks things. Use when asked to check.\n---\n# ok\n",
    )
    .unwrap();
    let cmds = root.join(".claude/commands");
    std::fs::create_dir_all(&cmds).unwrap();
    // two unquoted `: `: the parser stops at the first (SG013), the
    // second is SG111
    std::fs::write(
        cmds.join("colon.md"),
        "---\ndescription: Use this command when: tests fail\nargument-hint: Needs: a file\n---\nReview.\n",
    )
    .unwrap();
    std::fs::write(
        cmds.join("tab.md"),
        "---\ndescription: Tabs\n\t# a comment indented with a tab\n---\nPrompt.\n",
    )
    .unwrap();
    // valid YAML, but a quote running past a `---` line: other clients'
    // splitters end the frontmatter there
    std::fs::write(
        cmds.join("quote.md"),
        "---\ndescription: \"Plan the work.\n---\n  More text.\"\n---\nPlan.\n",
    )
    .unwrap();
    std::fs::write(
        cmds.join("fine.md"),
        "---\ndescription: \"Ship it: build, tag, release\"\n---\nShip.\n",
    )
    .unwrap();
    let (code, diags) = common::check_diagnostics(root);
    let mut found = command_findings(&diags);
    found.sort();
    assert_eq!(
        found,
        vec![
            f("SG013", ".claude/commands/colon.md", Some(2)),
            f("SG111", ".claude/commands/colon.md", Some(3)),
            f("SG112", ".claude/commands/tab.md", Some(3)),
            f("SG113", ".claude/commands/quote.md", Some(2)),
            // Claude Code, which lists the command, ends the frontmatter at
            // that `---` (SG600), and the unterminated quote left makes it
            // ignore the frontmatter: said in SG113's help (one cause, one
            // finding), not as an SG601
            f("SG600", ".claude/commands/quote.md", Some(3)),
        ],
        "{diags:#?}"
    );
    let quote = diags
        .iter()
        .find(|d| d["rule"] == "SG113")
        .expect("SG113 on quote.md");
    assert!(
        quote["help"]
            .as_str()
            .unwrap()
            .contains("Claude Code ignores the whole frontmatter"),
        "{quote:#}"
    );
    assert_eq!(code, 1);
}
