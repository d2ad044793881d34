//! `skillsift listing` and the client model through the binary, without a
//! real CLI: the Claude Code listing of the tricky skills, the
//! client-fidelity rules (SG600–SG608), and routing what the client shows
//! (a `DO NOT USE FOR:` catalog is routed whole).

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/client")
        .join(name)
}

fn run(args: &[&str]) -> (String, Option<i32>) {
    let cache = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .args(args)
        .env("SKILLSIFT_CACHE_DIR", cache.path())
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

fn listing_json(root: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["listing", root.to_str().unwrap(), "--format", "json"];
    args.extend(extra);
    let (out, code) = run(&args);
    assert_eq!(code, Some(0), "{out}");
    serde_json::from_str(&out).unwrap()
}

fn entry<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no entry {name}"))
}

#[test]
fn the_listing_shows_what_claude_code_shows() {
    let doc = listing_json(&fixture("claude-code"), &[]);
    assert_eq!(doc["client"], "claude-code");
    assert_eq!(doc["tested_with"], "2.1.197");
    assert_eq!(entry(&doc, "ends-mid-line")["text"], "Convert A");
    assert_eq!(entry(&doc, "hex")["text"], "16");
    assert_eq!(
        entry(&doc, "comment-after-retry")["text"],
        "Runs tests # shown now - always: yes"
    );
    assert_eq!(entry(&doc, "no-description")["text"], "Renders   charts");
    assert_eq!(entry(&doc, "empty-body")["text"], "Skill");
    let long = entry(&doc, "long-entry")["text"].as_str().unwrap();
    assert_eq!(long.encode_utf16().count(), 1536);
    assert!(long.ends_with('…'));
    let c = entry(&doc, "conditional");
    assert_eq!(c["listed"], false);
    assert_eq!(c["reason"]["kind"], "conditional");
    assert!(
        c["reason"]["message"]
            .as_str()
            .unwrap()
            .contains("`paths:`")
    );
    assert_eq!(entry(&doc, "paths-everything")["listed"], true);
    assert_eq!(entry(&doc, "alias-b")["alias"], "shared");
    // listed skills first, in the CLI's collation order
    let names: Vec<&str> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["listed"] == true)
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    let at = |n: &str| names.iter().position(|x| *x == n).unwrap();
    assert!(at("trailing-spaces") < at("Upper Case") && at("Upper Case") < at("when-to-use"));
    // the specification's reading
    let spec = listing_json(&fixture("claude-code"), &["--client", "spec"]);
    assert_eq!(spec["client"], "spec");
    assert_eq!(entry(&spec, "do-not-use-for")["listed"], false);
    assert_eq!(
        entry(&spec, "shared")["text"],
        "First with the shared name."
    );
}

#[test]
fn the_human_listing_marks_what_differs() {
    let (out, code) = run(&["listing", fixture("claude-code").to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with(
            "39 skills as Claude Code shows them (model of Claude Code 2.1.197): 35 listed, 4 not\n"
        ),
        "{out}"
    );
    assert!(out.contains("- ends-mid-line: Convert A\n    ^ skills/ends-mid-line/SKILL.md:3:23: Claude Code ends the frontmatter at this `---`"), "{out}");
    assert!(out.contains("  too-deep (skills/group/too-deep/SKILL.md): its folder is 2 levels below the skills root `skills`"), "{out}");
    assert!(
        out.contains("none captured yet (`skillsift listing --capture claude-code`)"),
        "{out}"
    );
}

#[test]
fn check_reports_what_claude_code_does_silently() {
    let (out, _) = run(&[
        "check",
        fixture("claude-code").to_str().unwrap(),
        "--format",
        "json",
        "--no-route",
    ]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let has = |rule: &str, file: &str| {
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == rule && d["file"].as_str().unwrap().contains(file))
    };
    for (rule, file) in [
        ("SG600", "ends-mid-line/"),
        ("SG600", "dashes-in-quote/"),
        ("SG601", "bom/"),
        ("SG601", "blank-first-line/"),
        ("SG602", "no-description/"),
        ("SG603", "emoji-cut/"),
        // one cause, one finding: SG110 says what the key does
        ("SG110", "disabled/"),
        ("SG604", "conditional/"),
        ("SG605", "group/too-deep/"),
        ("SG606", "alias-b/"),
        ("SG607", "comment-after-retry/"),
        ("SG607", "unterminated/"),
        ("SG608", "number/"),
        ("SG608", "boolean/"),
    ] {
        assert!(has(rule, file), "{rule} on {file}");
    }
    assert!(!has("SG606", "alias-a/"), "the first in listing order wins");
    // a frontmatter that does not parse: what Claude Code then does is
    // said in the cause's help, not as findings of their own
    assert!(!has("SG601", "crlf-colon/") && !has("SG602", "crlf-colon/"));
    let cause = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "SG013" && d["file"].as_str().unwrap().contains("crlf-colon/"))
        .unwrap();
    assert!(
        cause["help"]
            .as_str()
            .unwrap()
            .contains("Claude Code ignores the whole frontmatter"),
        "{cause:#}"
    );
    assert!(!has("SG604", "paths-everything/"));
    assert!(!has("SG604", "disabled/"));
    let d = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "SG600")
        .unwrap();
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("skillsift's YAML parser and other YAML readers read the whole value")
    );
}

#[test]
fn a_catalog_of_do_not_use_for_clauses_is_routed_whole() {
    let root = fixture("do-not-use-for");
    let (out, code) = run(&["check", root.to_str().unwrap()]);
    assert!(
        out.contains("trigger checks: 12/12 passed across 3 routed skills"),
        "{out}"
    );
    assert!(
        out.ends_with("trigger rank-1 rate: 100% (9/9 positive prompts rank their skill first)\n"),
        "{out}"
    );
    assert_eq!(code, Some(1), "the strict parser's SG013 errors still gate");
    let (spec, _) = run(&["check", root.to_str().unwrap(), "--client", "spec"]);
    assert!(spec.contains("across 0 routed skills"), "{spec}");
    let (rank, _) = run(&[
        "rank",
        "deploy the app to production servers",
        root.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let r: Value = serde_json::from_str(&rank).unwrap();
    assert_eq!(r["client"], "claude-code");
    assert_eq!(r["results"][0]["name"], "deploy-app");
}

#[test]
fn builtins_without_a_capture_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("b.toml");
    std::fs::write(
        &cfg,
        "[route]\nbuiltins = true\n[cases]\nmin-evals = 0\nmin-negative = 1\n",
    )
    .unwrap();
    let (out, _) = run(&[
        "check",
        fixture("do-not-use-for").to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(out.contains("\"rule\": \"SG509\""), "{out}");
    assert!(
        out.contains("no capture of Claude Code's built-in skills is stored"),
        "{out}"
    );
}

/// A catalog each client reads differently: `b` writes a key twice and a
/// `: ` in a value, `c` starts with a byte order mark, `group/e` is nested.
fn mixed_catalog(config: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let put = |rel: &str, text: &[u8]| {
        let p = t.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    put(
        "skills/a/SKILL.md",
        b"---\nname: a\ndescription: Use when fixing invoices.\n---\nbody\n",
    );
    put(
        "skills/b/SKILL.md",
        b"---\nname: b\ndescription: x\ndescription: Use when reviewing PRs: run the checks.\n---\nbody\n",
    );
    put(
        "skills/c/SKILL.md",
        b"\xef\xbb\xbf---\nname: c\ndescription: Use when drawing diagrams.\n---\nbody\n",
    );
    put(
        "skills/group/e/SKILL.md",
        b"---\nname: e\ndescription: Use when writing release notes.\n---\nbody\n",
    );
    put("skillsift.toml", config.as_bytes());
    t
}

/// (rule, file, message) of every finding of `check --format json`.
fn findings(root: &Path) -> Vec<(String, String, String)> {
    let (out, _) = run(&["check", root.to_str().unwrap(), "--format", "json"]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn each_linted_client_says_which_skills_it_leaves_out_and_why() {
    let t = mixed_catalog("[lint]\nclients = [\"codex\", \"gemini-cli\", \"opencode\"]\n");
    let all = findings(t.path());
    let sg609: Vec<(&str, &str)> = all
        .iter()
        .filter(|(r, _, _)| r == "SG609")
        .map(|(_, f, m)| (f.as_str(), m.split(':').next().unwrap()))
        .collect();
    assert_eq!(
        sg609,
        [
            ("skills/b/SKILL.md", "`b` is not in Codex's listing"),
            ("skills/b/SKILL.md", "`b` is not in opencode's listing"),
            ("skills/c/SKILL.md", "`c` is not in Codex's listing"),
            ("skills/c/SKILL.md", "`c` is not in Gemini CLI's listing"),
            (
                "skills/group/e/SKILL.md",
                "`e` is not in Gemini CLI's listing"
            ),
        ],
        "{all:#?}"
    );
    let msg = |file: &str, client: &str| {
        all.iter()
            .find(|(r, f, m)| r == "SG609" && f == file && m.contains(client))
            .map(|(_, _, m)| m.clone())
            .unwrap()
    };
    assert!(
        msg("skills/b/SKILL.md", "Codex").contains(
            "after its retry with values holding `: ` quoted: duplicate entry with key \"description\""
        ),
        "{all:#?}"
    );
    assert!(msg("skills/b/SKILL.md", "Codex").ends_with("; Claude Code and Gemini CLI list it"));
    assert!(
        msg("skills/c/SKILL.md", "Gemini").contains("the file starts with a byte order mark"),
        "{all:#?}"
    );
    assert!(msg("skills/group/e/SKILL.md", "Gemini").contains("levels below the skills root"));
    // Claude Code is not linted here: none of its rules speak
    assert!(
        !all.iter()
            .any(|(r, _, _)| r.starts_with("SG60") && r != "SG609"),
        "{all:#?}"
    );
}

#[test]
fn by_default_claude_code_and_the_routed_client_are_linted() {
    let t = mixed_catalog("");
    let all = findings(t.path());
    assert!(!all.iter().any(|(r, _, _)| r == "SG609"), "{all:#?}");
    assert!(
        all.iter()
            .any(|(r, f, _)| r == "SG601" && f == "skills/c/SKILL.md")
    );
    let t = mixed_catalog("[route]\nclient = \"gemini-cli\"\n");
    let all = findings(t.path());
    let sg609: Vec<&str> = all
        .iter()
        .filter(|(r, _, _)| r == "SG609")
        .map(|(_, f, _)| f.as_str())
        .collect();
    assert_eq!(sg609, ["skills/c/SKILL.md", "skills/group/e/SKILL.md"]);
    assert!(
        all.iter()
            .any(|(r, f, _)| r == "SG601" && f == "skills/c/SKILL.md")
    );
    let (human, code) = run(&["check", t.path().to_str().unwrap()]);
    assert_eq!(code, Some(1), "SG013 on b: {human}");
    assert!(
        human.contains("warning[SG609]: `e` is not in Gemini CLI's listing"),
        "{human}"
    );
    assert!(
        human.contains("help: install the skill where Gemini CLI looks"),
        "{human}"
    );
    let t = mixed_catalog("[lint]\nclients = [\"spec\"]\n");
    let out = Command::cargo_bin("skillsift")
        .unwrap()
        .args(["check", t.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("[lint] clients lists `spec`, which is not a client"),
        "{out:?}"
    );
}

/// The project's slash commands (`.claude/commands/**/*.md`) are in Claude
/// Code's listing after the skills, each sorted by name, and spend the
/// same budget.
#[test]
fn claude_code_lists_the_project_commands_after_the_skills() {
    let root = fixture("claude-code-commands");
    let doc = listing_json(&root, &["--client", "claude-code"]);
    let listed: Vec<(&str, &str)> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["listed"] == true)
        .map(|e| (e["name"].as_str().unwrap(), e["kind"].as_str().unwrap()))
        .collect();
    let names: Vec<&str> = listed.iter().map(|l| l.0).collect();
    assert_eq!(
        names,
        [
            "deploy",
            "review",
            "broken-yaml",
            "build",
            "empty-body",
            "ends-early",
            "heading-body",
            "long",
            "named",
            "no-frontmatter",
            "ns-b",
            "ns:deeper:deepest",
            "ns:inner",
            "plan",
            "review",
            "scoped",
            "Upper",
        ]
    );
    assert!(listed[..2].iter().all(|l| l.1 == "skill"));
    assert!(listed[2..].iter().all(|l| l.1 == "command"));
    let command = |name: &str| {
        doc["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name && e["kind"] == "command")
            .unwrap_or_else(|| panic!("no command {name}"))
    };
    let review = command("review");
    assert_eq!(review["path"], ".claude/commands/review.md");
    // `argument-hint` is not shown
    assert_eq!(
        review["line"],
        "- review: Reviews a pull request by number."
    );
    assert_eq!(
        command("build")["text"],
        "Builds the site. DO NOT USE FOR: deploys (use deploy instead)"
    );
    assert_eq!(
        command("no-frontmatter")["text"],
        "Summarize the open issues by label."
    );
    assert_eq!(command("no-frontmatter")["changes"][0]["kind"], "from-body");
    assert_eq!(command("heading-body")["text"], "Explain a topic simply");
    assert_eq!(command("empty-body")["text"], "Custom command");
    assert_eq!(command("broken-yaml")["text"], "[unclosed");
    assert_eq!(command("ends-early")["text"], "Converts A");
    assert_eq!(
        command("plan")["text"],
        "Plans the work. - Before a large change."
    );
    assert_eq!(command("named")["text"], "A name key the listing ignores.");
    assert!(command("named").get("alias").is_none());
    // `paths:` does not hide a command
    assert_eq!(command("scoped")["listed"], true);
    let long = command("long")["text"].as_str().unwrap();
    assert_eq!(long.encode_utf16().count(), 1536);
    assert!(long.ends_with('…'));
    let release = command("release");
    assert_eq!(release["listed"], false);
    assert_eq!(release["reason"]["kind"], "disable-model-invocation");
    // the budget counts every listed line, commands included
    let lines: Vec<&str> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["listed"] == true)
        .map(|e| e["line"].as_str().unwrap())
        .collect();
    let width: usize = lines.iter().map(|l| l.chars().count()).sum::<usize>() + lines.len() - 1;
    assert_eq!(doc["budget"]["used"], width);

    // the human listing: the client's lines, the counts, what is hidden
    let (human, code) = run(&["listing", root.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(
        human.starts_with(
            "2 skills and 16 commands as Claude Code shows them (model of Claude Code 2.1.197): 17 listed, 1 not\n- deploy: Deploys the app to staging.\n- review: Reviews a change for bugs.\n- broken-yaml: [unclosed\n"
        ),
        "{human}"
    );
    assert!(human.contains("\n- ns:inner: Inner command of a namespace.\n"));
    assert!(human.contains(
        "\n    ^ .claude/commands/empty-body.md: Claude Code has no description to show and the body is empty, so it shows `Custom command`\n"
    ));
    assert!(human.contains(
        "\n  release (.claude/commands/release.md): `disable-model-invocation: true` keeps it from the model\n"
    ));

    // over budget, commands go name-only like skills, in listing order
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("skillsift.toml");
    std::fs::write(&config, "[route]\nlisting-budget-chars = 300\n").unwrap();
    let doc = listing_json(&root, &["--config", config.to_str().unwrap()]);
    let review = command_in(&doc, "review");
    assert_eq!(review["name_only"], true);
    assert_eq!(review["line"], "- review");
    assert_eq!(
        review["changes"].as_array().unwrap().last().unwrap()["kind"],
        "name-only"
    );
}

fn command_in<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name && e["kind"] == "command")
        .unwrap()
}

#[test]
fn the_specification_lists_no_commands() {
    let doc = listing_json(&fixture("claude-code-commands"), &["--client", "spec"]);
    let kinds: Vec<&str> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["skill", "skill"]);
}

/// `[route] commands = true`: the commands Claude Code lists compete with
/// the skills for trigger prompts, and a prompt a command wins is named.
#[test]
fn listed_commands_compete_for_prompts_when_asked_for() {
    let root = fixture("commands-route");
    let r = root.to_str().unwrap();
    // by default they are not routed: results stay what they were
    let (out, code) = run(&["check", r]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("SG512") && !out.contains("SG508"), "{out}");
    assert!(
        out.ends_with("trigger rank-1 rate: 100% (6/6 positive prompts rank their skill first)\n"),
        "{out}"
    );

    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("c.toml");
    std::fs::write(
        &cfg,
        "[cases]\nmin-evals = 0\nmin-negative = 1\n[route]\ncommands = true\n",
    )
    .unwrap();
    let c = cfg.to_str().unwrap();
    let (out, code) = run(&["check", r, "--config", c, "--format", "json"]);
    assert_eq!(code, Some(0), "a warning does not gate: {out}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let wins: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "SG512")
        .collect();
    assert_eq!(wins.len(), 1, "{out}");
    assert_eq!(
        wins[0]["message"],
        "`deploy-app`: the project's command `draft-notes` (.claude/commands/draft-notes.md), which Claude Code lists beside the skills, ranks first for this prompt"
    );
    assert_eq!(wins[0]["file"], "evals/cases/deploy-app.json");
    assert_eq!(wins[0]["line"], 7);
    let (human, _) = run(&["check", r, "--config", c]);
    assert!(
        human.ends_with("trigger checks: 8/8 passed across 2 routed skills; a positive passes in the top 2 ([route] top-k is 3, but only 3 entries are listed to route against, and a top 3 of them always holds the skill), a negative unless its skill ranks first\ntrigger rank-1 rate: 83% (5/6 positive prompts rank their skill first)\n"),
        "{human}"
    );

    // `rank` shows the command with its file; the hidden one never
    let prompt = "draft the release notes for the production release";
    let rank = |extra: &[&str]| -> Value {
        let mut args = vec!["rank", prompt, r, "--format", "json"];
        args.extend(extra);
        let (out, code) = run(&args);
        assert_eq!(code, Some(0), "{out}");
        serde_json::from_str(&out).unwrap()
    };
    let on = rank(&["--config", c]);
    assert_eq!(on["results"][0]["name"], "draft-notes");
    assert_eq!(on["results"][0]["file"], ".claude/commands/draft-notes.md");
    let names = |v: &Value| -> Vec<String> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(!names(&on).contains(&"hotfix".to_string()));
    let off = rank(&[]);
    assert_eq!(names(&off), ["deploy-app"]);
    // the specification lists no commands, whatever the key says
    let spec = rank(&["--config", c, "--client", "spec"]);
    assert_eq!(names(&spec), ["deploy-app"]);
}

/// A `SKILL.md` under `.claude/commands/` is a command to Claude Code and a
/// skill to no client: a catalog walked whole does not take it for a skill.
#[test]
fn a_skill_md_among_the_commands_is_a_command_not_a_skill() {
    let t = tempfile::tempdir().unwrap();
    for (rel, name) in [(".claude/commands/x", "x"), ("tools/y", "y")] {
        let d = t.path().join(rel);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Use when {name}.\n---\nbody\n"),
        )
        .unwrap();
    }
    let doc = listing_json(t.path(), &[]);
    let kinds: Vec<(&str, &str)> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, [("y", "skill"), ("x", "command")]);
    let (out, _) = run(&["check", t.path().to_str().unwrap()]);
    assert!(out.contains("1 skill checked"), "{out}");
}

/// Claude Code reads a project command as it reads a SKILL.md, so what it
/// does silently to one is said of the command too.
#[test]
fn what_claude_code_does_silently_to_a_command_is_reported_on_the_command() {
    let root = fixture("claude-code-commands");
    let (out, _) = run(&["check", root.to_str().unwrap(), "--format", "json"]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let on_commands: Vec<(&str, &str)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"].as_str().unwrap().starts_with("SG60"))
        .filter(|d| d["file"].as_str().unwrap().starts_with(".claude/commands/"))
        .map(|d| (d["rule"].as_str().unwrap(), d["file"].as_str().unwrap()))
        .collect();
    assert_eq!(
        on_commands,
        [("SG600", ".claude/commands/ends-early.md")],
        "{out}"
    );
    let d = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "SG600")
        .unwrap();
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .starts_with("the command `ends-early`, which Claude Code lists beside the skills: Claude Code ends the frontmatter at this `---`"),
        "{d}"
    );
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(24))
    );
}
