//! The first hour of a new user (issue 22, section 3): each test runs the
//! binary as they did and asserts on what they see.

mod common;

use common::{check_json, skillsift};
use std::path::{Path, PathBuf};

/// `../shared/corpora/<rel>` beside the repository, or `None` (with a
/// message) in a clone without it; CI has it.
fn corpus(rel: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} does not exist", p.display());
        None
    }
}

/// Write `files` (path, text) under a new temporary folder.
fn catalog(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, bytes) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    dir
}

const OK: &[u8] =
    b"---\nname: ok\ndescription: Formats tables. Use when the user asks to format a table.\n---\n# Ok\n";

#[test]
fn a_folder_without_any_skill_is_a_usage_error_that_says_where_it_looked() {
    for layout in [&[][..], &[("src/main.rs", &b"fn main() {}\n"[..])][..]] {
        let dir = catalog(layout);
        let out = skillsift().arg("check").arg(dir.path()).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("no SKILL.md found: looked in"), "{err}");
        assert!(err.contains(&dir.path().display().to_string()), "{err}");
        assert!(err.contains("e.g. skills/pdf/SKILL.md"), "{err}");
        assert!(out.stdout.is_empty());
    }
    // an empty skills/ folder: it says it looked there
    let dir = catalog(&[("skills/.keep", b"")]);
    let out = skillsift().arg("check").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("/skills/ and every folder below"), "{err}");
    // every command that reads a catalog gives the same answer
    let root = dir.path().to_str().unwrap();
    let html = dir.path().join("r.html");
    let commands: [&[&str]; 6] = [
        &["rank", "format this table", root],
        &["listing", root],
        &["report", root, "--output", html.to_str().unwrap()],
        &["cases", "ok", root],
        &["tune", "ok", root],
        &["init", "ok", root],
    ];
    for args in commands {
        let out = skillsift().args(args).output().unwrap();
        let shown = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {shown}");
        assert_eq!(shown, err, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!html.exists());
}

#[test]
fn one_skill_folder_reads_its_own_case_sources() {
    let Some(root) = corpus("routing-bench/SalesforceCommerceCloud__b2c-developer-tooling") else {
        return;
    };
    let skill = root.join("skills/b2c-cli/skills/b2c-sites");
    // the catalog requires no behavioral evals, so the whole check says
    // nothing of their absence
    let whole = check_json(&root, &[]);
    assert!(
        whole
            .in_file("SG407", "b2c-sites/evals/trigger-evals.json")
            .is_empty()
    );
    // inside its catalog: checked against it, its prompts ranked among
    // its siblings, only its own findings shown, and the summary says so
    let within = check_json(&skill, &[]);
    // no evals are required unless the catalog sets `[cases] min-evals`
    assert!(
        within
            .in_file("SG407", "evals/trigger-evals.json")
            .is_empty(),
        "{:#?}",
        within.findings
    );
    assert!(
        within
            .findings
            .iter()
            .all(|f| f.file.starts_with("skills/b2c-cli/skills/b2c-sites/")),
        "{:#?}",
        within.findings
    );
    let out = skillsift().arg("check").arg(&skill).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("checked skills/b2c-cli/skills/b2c-sites/ as part of the catalog at "),
        "{text}"
    );
    assert!(text.contains("1 skill checked"), "{text}");
    assert!(text.contains("trigger checks: "), "{text}");
    // copied out of any catalog: its own case sources, not ranked
    let t = tempfile::tempdir().unwrap();
    let alone_dir = t.path().join("b2c-sites");
    copy_dir(&skill, &alone_dir);
    std::fs::write(alone_dir.join("skillsift.toml"), "[cases]\nmin-evals = 1\n").unwrap();
    let alone = check_json(&alone_dir, &[]);
    let f = alone.one("SG407", "evals/trigger-evals.json");
    assert!(f.message.contains("0 behavioral evals"), "{}", f.message);
    // and routing does not rank its prompts against nothing
    let out = skillsift().arg("check").arg(&alone_dir).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("SG503"), "{text}");
    assert!(
        text.contains("trigger prompts: 10 read, not ranked: a skill checked alone"),
        "{text}"
    );
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn a_binary_skill_md_is_one_finding_with_no_bytes_shown() {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend((0..600u32).map(|i| (i * 37 % 251) as u8));
    let dir = catalog(&[("skills/logo/SKILL.md", &png), ("skills/ok/SKILL.md", OK)]);
    let r = check_json(dir.path(), &[]);
    assert_eq!(
        r.rules_in("skills/logo/"),
        vec!["SG018"],
        "{:#?}",
        r.findings
    );
    let f = r.one("SG018", "skills/logo/SKILL.md");
    assert_eq!(
        f.message,
        "SKILL.md is not text (a PNG image); it was not parsed"
    );
    assert_eq!(f.line, None);
    let out = skillsift()
        .arg("check")
        .arg(dir.path())
        .arg("--no-route")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("error[SG018]"), "{text}");
    assert!(
        !text.contains("PNG\r") && !text.contains('\u{fffd}'),
        "{text}"
    );
}

#[test]
fn a_folder_named_skill_md_is_reported_once() {
    let dir = catalog(&[
        ("skills/pdf/SKILL.md/README.md", b"# pdf\n"),
        ("skills/ok/SKILL.md", OK),
    ]);
    let r = check_json(dir.path(), &[]);
    assert_eq!(r.code, 1);
    assert_eq!(r.rules_in("skills/pdf"), vec!["SG019"], "{:#?}", r.findings);
    let f = r.one("SG019", "skills/pdf/SKILL.md");
    assert!(
        f.message.contains("is a folder, not a file"),
        "{}",
        f.message
    );
}

#[test]
fn a_file_over_the_size_limit_names_its_size_and_the_limit() {
    let mut big = OK.to_vec();
    big.extend(std::iter::repeat_n(b'x', 200));
    big.push(b'\n');
    let dir = catalog(&[
        ("skills/ok/SKILL.md", &big),
        ("skillsift.toml", b"[catalog]\nmax-file-bytes = 64\n"),
    ]);
    let r = check_json(dir.path(), &[]);
    let f = r.one("SG001", "skills/ok/SKILL.md");
    assert_eq!(
        f.message,
        format!(
            "SKILL.md is {} bytes, larger than 64 bytes ([catalog] max-file-bytes), and was not parsed",
            big.len()
        )
    );
}

/// A catalog that keeps case files: `ok` has one, `manual` is a skill the
/// model never chooses (`disable-model-invocation: true`) and has none.
fn manual_catalog() -> tempfile::TempDir {
    catalog(&[
        ("skills/ok/SKILL.md", OK),
        (
            "skills/manual/SKILL.md",
            b"---\nname: manual\ndescription: Releases the project. Use when the user types /manual.\ndisable-model-invocation: true\n---\n# Manual\n",
        ),
        (
            "evals/cases/ok.json",
            br#"{"skill_name": "ok", "trigger": {"positive": [{"prompt": "format this table"}, {"prompt": "format the table below"}, {"prompt": "please format my table"}], "negative": [{"prompt": "release the project", "owner": "manual"}, {"prompt": "what is the weather"}]}, "evals": [{"id": 1, "kind": "dialogue", "prompt": "format this table", "expected_output": "a table", "expectations": ["the table is aligned"]}]}"#,
        ),
    ])
}

#[test]
fn disable_model_invocation_is_one_finding() {
    let dir = manual_catalog();
    let r = check_json(dir.path(), &[]);
    assert_eq!(
        r.rules_in("skills/manual/"),
        vec!["SG110"],
        "{:#?}",
        r.findings
    );
    let f = r.one("SG110", "skills/manual/SKILL.md");
    assert_eq!(f.line, Some(4));
    assert!(
        f.message
            .contains("Claude Code keeps the skill from the model (only `/name` runs it)"),
        "{}",
        f.message
    );
    // with SG110 off, SG604 says it instead; still no SG406
    std::fs::write(
        dir.path().join("skillsift.toml"),
        "[lint.rules]\nSG110 = \"off\"\n",
    )
    .unwrap();
    let r = check_json(dir.path(), &[]);
    assert_eq!(
        r.rules_in("skills/manual/"),
        vec!["SG604"],
        "{:#?}",
        r.findings
    );
}

/// `n` skills, each with a client-specific key (one SG110 each), and
/// one with a description of 1,130 characters (SG105).
fn noisy_catalog(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..n {
        let p = dir.path().join(format!("skills/s{i}/SKILL.md"));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(
            p,
            format!("---\nname: s{i}\ndescription: Does thing {i}. Use when the user asks for thing {i}.\nargument-hint: \"[x]\"\n---\n# S{i}\n"),
        )
        .unwrap();
    }
    let p = dir.path().join("skills/long/SKILL.md");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(
        p,
        format!(
            "---\nname: long\ndescription: Use when {}.\n---\n# Long\n",
            "the user asks ".repeat(80)
        ),
    )
    .unwrap();
    dir
}

#[test]
fn statistics_count_findings_per_rule_most_frequent_first() {
    let dir = noisy_catalog(3);
    let (text, code) = common::check_human(dir.path(), &["--statistics"]);
    assert_eq!(code, 1);
    assert_eq!(
        text,
        "4 findings by rule:\n\
         3  SG110  warning  client-key            frontmatter key is a client-specific extension\n\
         1  SG105  error    description-too-long  `description` is longer than 1024 characters\n\
         \n\
         4 skills checked: 1 error, 3 warnings, 0 notices\n"
    );
    // not with another format
    let out = skillsift()
        .arg("check")
        .arg(dir.path())
        .args(["--statistics", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--statistics prints text"));
}

#[test]
fn a_long_report_opens_with_the_findings_by_rule() {
    // 20 findings: a short report, no table
    let (few, _) = common::check_human(noisy_catalog(19).path(), &[]);
    assert!(!few.contains("findings by rule"), "{few}");
    let (many, _) = common::check_human(noisy_catalog(20).path(), &[]);
    assert!(
        many.starts_with("21 findings by rule:\n20  SG110  warning  client-key "),
        "{many}"
    );
    assert_eq!(many.matches("warning[SG110]").count(), 20);
}

/// Run the binary with `args`: exit code, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = skillsift().args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn help_of_check_behavioral_prints_help() {
    let (code, out, _) = run(&["check", "--behavioral", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Tier 3: behavioral evals"), "{out}");
    let (code, _, err) = run(&["check", "--behavioral"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--behavioral needs the skill to evaluate"),
        "{err}"
    );
}

#[test]
fn one_thing_is_called_baseline_in_checks_options() {
    let (_, help, _) = run(&["check", "--help"]);
    assert!(help.contains("--with-skill-only"), "{help}");
    assert!(help.contains("--compare-skill <REF>"), "{help}");
    assert!(
        !help.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("--no-baseline") || l.starts_with("--baseline-skill")
        }),
        "{help}"
    );
    assert!(help.contains("--baseline <FILE>") && help.contains("--save-baseline <FILE>"));
    // the old spellings still parse (hidden aliases)
    let (code, _, err) = run(&[
        "check",
        "--behavioral",
        "x",
        "--no-baseline",
        "--baseline-skill",
        "v1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn report_says_its_gates_judge_and_do_not_fail() {
    let (_, help, _) = run(&["report", "--help"]);
    assert!(!help.contains("Fail when"), "{help}");
    assert!(help.contains("Judge trigger F1 against X"), "{help}");
}

#[test]
fn listing_capture_does_not_offer_spec() {
    let (_, help, _) = run(&["listing", "--help"]);
    let capture = &help[help.find("--capture <CLIENT>").unwrap()..];
    let capture = &capture[..capture.find("--verify").unwrap()];
    assert!(!capture.contains("- spec"), "{capture}");
    let (code, _, err) = run(&["listing", "--capture", "spec"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'spec'"), "{err}");
}

#[test]
fn commands_list_only_the_exit_codes_they_use() {
    for cmd in ["rules", "rule", "schema", "rank", "init"] {
        let (_, help, _) = run(&[cmd, "--help"]);
        let codes = &help[help.find("Exit codes:").expect(cmd)..];
        assert!(
            codes.contains("  0  ") && codes.contains("  2  "),
            "{cmd}: {codes}"
        );
        assert!(
            !codes.contains("  3  ") && !codes.contains("  4  ") && !codes.contains("  1  "),
            "{cmd}: {codes}"
        );
    }
    let (_, help, _) = run(&["listing", "--help"]);
    assert!(help.contains("  4  with --capture or --verify"), "{help}");
}

#[test]
fn an_empty_prompt_is_a_usage_error() {
    let dir = catalog(&[("skills/ok/SKILL.md", OK)]);
    let root = dir.path().to_str().unwrap();
    for prompt in ["", "   "] {
        let (code, out, err) = run(&["rank", prompt, root]);
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert!(err.contains("the prompt is empty"), "{err}");
    }
}

#[test]
fn counts_are_in_correct_english_and_passing_says_top_3() {
    let dir = catalog(&[
        ("skills/ok/SKILL.md", OK),
        (
            "evals/cases/ok.json",
            br#"{"skill_name": "ok", "trigger": {"positive": [{"prompt": "format this table"}], "negative": []}, "evals": []}"#,
        ),
    ]);
    let out = skillsift().arg("check").arg(dir.path()).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\n1 skill checked: 0 errors, 1 warning, 0 notices\n"),
        "{text}"
    );
    assert!(
        text.contains("trigger checks: 1/1 passed across 1 routed skill; a positive passes in the top 3 ([route] top-k), a negative unless its skill ranks first\n"),
        "{text}"
    );
    assert!(
        text.ends_with("trigger rank-1 rate: 100% (1/1 positive prompt ranks its skill first)\n"),
        "{text}"
    );
    assert!(
        text.contains("1 positive trigger prompt (minimum 3)"),
        "{text}"
    );
}

/// The error count of `check --format json` on `root`.
fn errors(root: &Path) -> u64 {
    let out = skillsift()
        .arg("check")
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["summary"]["errors"].as_u64().unwrap()
}

/// Every bracket and quote of `s` that opens also closes.
fn balanced(s: &str) -> bool {
    let pairs = [('(', ')'), ('[', ']'), ('{', '}'), ('“', '”')];
    pairs
        .iter()
        .all(|(o, c)| s.matches(*o).count() == s.matches(*c).count())
        && s.matches('"').count().is_multiple_of(2)
        && s.matches('`').count().is_multiple_of(2)
}

#[test]
fn init_leaves_the_error_count_where_it_was_and_drafts_sentences() {
    let Some(src) = corpus("routing-bench/tony__ai-workflow-plugins") else {
        return;
    };
    let cat = common::copy_tree(&src);
    for skill in ["refine", "codex"] {
        std::fs::remove_file(cat.path().join(format!("evals/cases/{skill}.json"))).unwrap();
    }
    let before = errors(cat.path());
    let mut negatives = Vec::new();
    for skill in ["refine", "codex"] {
        let out = skillsift()
            .args(["init", skill, "--format", "json"])
            .arg(cat.path())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for d in r["positive"]
            .as_array()
            .unwrap()
            .iter()
            .chain(r["negative"].as_array().unwrap())
        {
            let p = d["prompt"].as_str().unwrap();
            assert!(balanced(p), "{skill}: {p}");
            assert!(p.split_whitespace().count() >= 2, "{skill}: {p}");
        }
        for d in r["positive"].as_array().unwrap() {
            assert!(d["prompt"].as_str().unwrap().ends_with('.'), "{d}");
        }
        // what is left to write is said; evals only when the catalog
        // requires them (`[cases] min-evals`, unset here)
        let left: Vec<&str> = r["left_to_write"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(
            !left.iter().any(|l| l.contains("behavioral eval")),
            "{left:?}"
        );
        // negatives are prompts the siblings' authors wrote, siblings of
        // its own plugin (installed with it; `weave`, `model-cli`)
        let owned: Vec<(String, String)> = r["negative"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["owner"].as_str().unwrap().to_string(),
                    d["prompt"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert!(owned.len() >= 2, "{owned:?}");
        let plugin = if skill == "refine" {
            "weave"
        } else {
            "model-cli"
        };
        for (owner, prompt) in &owned {
            assert!(
                cat.path()
                    .join(format!("plugins/{plugin}/skills/{owner}/SKILL.md"))
                    .is_file(),
                "{skill}: {owner} is not installed with it"
            );
            let case =
                std::fs::read_to_string(cat.path().join(format!("evals/cases/{owner}.json")))
                    .unwrap();
            assert!(
                case.contains(&serde_json::to_string(prompt).unwrap()),
                "{owner}: {prompt}"
            );
        }
        negatives.push(owned);
    }
    // two skills, different negatives
    assert!(
        negatives[0].iter().all(|n| !negatives[1].contains(n)),
        "{negatives:?}"
    );
    // drafts are SG423 and the skill still has no case a person wrote
    // (SG406): the error count is where it was
    assert_eq!(errors(cat.path()), before);
    let r = check_json(cat.path(), &[]);
    assert!(r.in_file("SG407", "evals/cases/refine.json").is_empty());
    let f = r.one("SG423", "evals/cases/refine.json");
    assert!(
        f.message
            .contains("short of the minimums by 3 positive trigger prompts (minimum 3)"),
        "{}",
        f.message
    );
}

#[test]
fn init_in_a_catalog_of_trigger_sets_adds_no_error() {
    let dir = catalog(&[
        ("skills/ok/SKILL.md", OK),
        (
            "skills/ok/evals/trigger-queries.json",
            br#"[{"query": "line up the columns of this table", "should_trigger": true}]"#,
        ),
        (
            "skills/charts/SKILL.md",
            b"---\nname: charts\ndescription: Draws charts from tables. Use when the user asks to plot a table as a bar chart (or a line chart), or says \"chart this\", \"plot these numbers\".\n---\n# Charts\n",
        ),
    ]);
    let before = errors(dir.path());
    let out = skillsift()
        .args(["init", "charts"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("    \"Plot a table as a bar chart (or a line chart).\""),
        "{text}"
    );
    assert!(text.contains("    \"Chart this.\""), "{text}");
    assert!(
        text.contains("\"line up the columns of this table\"  (owner ok)"),
        "{text}"
    );
    assert!(
        text.contains("left to write, beside rewriting the drafts: "),
        "{text}"
    );
    assert_eq!(errors(dir.path()), before);
}

#[test]
fn init_says_the_real_cause_and_takes_the_folder_name() {
    let dir = manual_catalog();
    let (code, _, err) = run(&["init", "manual", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`manual` has `disable-model-invocation: true` (skills/manual/SKILL.md): the model never chooses it"),
        "{err}"
    );
    assert!(!err.contains("no readable name or description"), "{err}");
    // `template/` whose frontmatter says `template-skill`: both names work
    let dir = catalog(&[
        ("skills/ok/SKILL.md", OK),
        (
            "skills/template/SKILL.md",
            b"---\nname: template-skill\ndescription: A template for new skills. Use when the user asks to start a new skill from the template.\n---\n# Template\n",
        ),
    ]);
    for name in ["template", "template-skill"] {
        let (code, out, err) = run(&["init", name, dir.path().to_str().unwrap(), "--dry-run"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            out.contains("would write skills/template/evals/trigger-queries.json"),
            "{out}"
        );
    }
}

#[test]
fn the_report_says_a_positive_passes_in_the_top_3() {
    let dir = catalog(&[
        ("skills/ok/SKILL.md", OK),
        (
            "evals/cases/ok.json",
            br#"{"skill_name": "ok", "trigger": {"positive": [{"prompt": "format this table"}], "negative": []}, "evals": []}"#,
        ),
    ]);
    let out = skillsift()
        .arg("report")
        .arg(dir.path())
        .args(["-o", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(
        html.contains("trigger checks passed (positives pass in the top 3, not only first)"),
        "{html}"
    );
    assert!(html.contains("1/1 positive prompt ranks its skill first"));
}

#[test]
fn init_drafts_from_long_clauses_and_quoted_phrases_and_only_near_misses() {
    let dir = catalog(&[
        (
            "skills/app-packages/SKILL.md",
            b"---\nname: app-packages\ndescription: Manage commerce app packages with the b2c CLI. Use this skill whenever the user needs to validate, package, install, uninstall, list, or pull commerce apps on B2C Commerce instances, view configuration tasks, or pull app sources for cartridge deployment or Storefront Next development. Also use when checking which apps are installed - even if they just say \"what apps do I have\", \"list my commerce apps\", or \"show installed apps\".\n---\n# Apps\n",
        ),
        (
            "skills/app-sites/SKILL.md",
            b"---\nname: app-sites\ndescription: Lists storefront sites. Use when the user wants to list the storefront sites of an instance or install a cartridge path.\n---\n# Sites\n",
        ),
        (
            "skills/zig-build/SKILL.md",
            b"---\nname: zig-build\ndescription: Builds Zig projects. Use when a zig build fails with a linker error.\n---\n# Zig\n",
        ),
    ]);
    let out = skillsift()
        .args(["init", "app-packages", "--dry-run"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    // the long clause keeps the requests that fit; each quoted phrase is a
    // draft of its own, a question ending with `?`
    assert!(
        text.contains("\"Validate, package, install, uninstall, list, or pull commerce apps on B2C Commerce instances, view configuration tasks.\""),
        "{text}"
    );
    assert!(text.contains("\"What apps do I have?\""), "{text}");
    assert!(
        text.contains("\"Checking which apps are installed.\""),
        "{text}"
    );
    assert!(text.contains("\"List my commerce apps.\""), "{text}");
    assert!(!text.contains("no positive drafts"), "{text}");
    // a sibling sharing its words gives a near miss; the Zig skill, which
    // shares none, gives no negative
    assert!(text.contains("(owner app-sites)"), "{text}");
    assert!(!text.contains("owner zig-build"), "{text}");
    // a description whose clauses make no sentence is told so, not "no
    // Use when clause"
    let dir = catalog(&[(
        "skills/terse/SKILL.md",
        b"---\nname: terse\ndescription: Formats. Use when tables.\n---\n# T\n",
    )]);
    let out = skillsift()
        .args(["init", "terse", "--dry-run"])
        .arg(dir.path())
        .output()
        .unwrap();
    let shown =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!shown.contains("has no \"Use when"), "{shown}");
    assert!(
        shown.contains("no \"Use when\" clause of the description makes a whole sentence"),
        "{shown}"
    );
}

#[test]
fn a_long_line_is_shown_cut_around_its_finding() {
    let description = format!(
        "Handles documents. {}Use when: the user asks.",
        "Formats many kinds of tables and charts, ".repeat(45)
    );
    let text =
        format!("---\nname: long\ndescription: {description}\nmetadata:\n  a: b\n---\n# Long\n");
    let dir = catalog(&[("skills/long/SKILL.md", text.as_bytes())]);
    let out = skillsift()
        .args(["check", "--no-route"])
        .arg(dir.path())
        .output()
        .unwrap();
    let shown = String::from_utf8(out.stdout).unwrap();
    // the colon is at this column of line 3, as the JSON report says
    let col = "description: ".len() + description.find("Use when:").unwrap() + "Use when".len() + 1;
    assert!(
        shown.contains(&format!("skills/long/SKILL.md:3:{col}]")),
        "{shown}"
    );
    assert!(
        shown.contains(" 3 │ …and charts, Use when: the user asks."),
        "{shown}"
    );
    assert!(shown.contains("Use when: the user asks."), "{shown}");
    // the lines around it are shown too, and nothing runs off a screen
    assert!(shown.contains(" 2 │ name: long"), "{shown}");
    assert!(shown.contains(" 4 │ metadata:"), "{shown}");
    for line in shown.lines() {
        assert!(
            line.chars().count() <= 110,
            "{} characters: {line}",
            line.chars().count()
        );
    }
    // an over-long description: its underline stops with the cut line
    let description = format!(
        "Use when the user asks. {}",
        "Handles many things, ".repeat(100)
    );
    let text = format!("---\nname: long\ndescription: {description}\n---\n# Long\n");
    std::fs::write(dir.path().join("skills/long/SKILL.md"), text).unwrap();
    let out = skillsift()
        .args(["check", "--no-route"])
        .arg(dir.path())
        .output()
        .unwrap();
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("SG105"), "{shown}");
    assert!(shown.contains("Handles many things, H…"), "{shown}");
    for line in shown.lines() {
        assert!(
            line.chars().count() <= 110,
            "{} characters: {line}",
            line.chars().count()
        );
    }
    // a line of CJK text, two cells a character, fits a screen too
    let description = format!(
        "{}Use when: 用户提交。",
        "帮助用户提交错误报告或功能请求。".repeat(20)
    );
    let text = format!("---\nname: long\ndescription: {description}\n---\n# Long\n");
    std::fs::write(dir.path().join("skills/long/SKILL.md"), text).unwrap();
    let out = skillsift()
        .args(["check", "--no-route"])
        .arg(dir.path())
        .output()
        .unwrap();
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("Use when: 用户提交。"), "{shown}");
    for line in shown.lines() {
        let cells: usize = line
            .chars()
            .map(|c| {
                if ('\u{3000}'..='\u{9fff}').contains(&c) || c == '\u{ff0c}' {
                    2
                } else {
                    1
                }
            })
            .sum();
        assert!(cells <= 110, "{cells} cells: {line}");
    }
}

/// A custom frontmatter key written in many skills is one finding: the
/// key, how many skills, the one `[lint] allowed-keys` line; every place
/// is kept as a related location in JSON and SARIF. A key in one skill
/// stays a finding of its own.
#[test]
fn a_custom_key_in_many_skills_is_one_finding_with_every_place() {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for name in ["alpha", "beta", "gamma", "delta"] {
        files.push((
            format!("skills/{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: Formats {name} tables. Use when the user asks for a {name} table.\ntriggers: [{name}]\ntags: [tables]\n---\n# {name}\n").into_bytes(),
        ));
    }
    files.push((
        "skills/solo/SKILL.md".into(),
        b"---\nname: solo\ndescription: Plays solo games. Use when the user wants a game.\ncategory: games\n---\n# Solo\n".to_vec(),
    ));
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let dir = catalog(&refs);
    let r = check_json(dir.path(), &[]);
    let sg109: Vec<_> = r.of("SG109");
    let messages: Vec<&str> = sg109.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`triggers` is not an Agent Skills frontmatter key, and 4 skills write it",
            "`tags` is not an Agent Skills frontmatter key, and 4 skills write it",
            "`category` is not an Agent Skills frontmatter key",
        ],
        "{sg109:#?}"
    );
    let tags = sg109
        .iter()
        .find(|f| f.message.starts_with("`tags`"))
        .unwrap();
    assert_eq!(tags.file, "skills/alpha/SKILL.md");
    assert!(
        tags.help.as_deref().unwrap().contains(
            "[lint] allowed-keys = [\"tags\", \"triggers\"] (every key written in 3 skills or more)"
        ),
        "{tags:#?}"
    );
    // every other place, in JSON and SARIF
    let json = skillsift()
        .args(["check", "--no-route", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().starts_with("`tags`"))
        .unwrap();
    let places: Vec<(String, u64)> = d["related"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["file"].as_str().unwrap().to_string(),
                p["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        places,
        [
            ("skills/beta/SKILL.md".to_string(), 5),
            ("skills/delta/SKILL.md".to_string(), 5),
            ("skills/gamma/SKILL.md".to_string(), 5)
        ]
    );
    let sarif = skillsift()
        .args(["check", "--no-route", "--format", "sarif"])
        .arg(dir.path())
        .output()
        .unwrap();
    let s: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let result = s["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["message"]["text"].as_str().unwrap().starts_with("`tags`"))
        .unwrap();
    let related = result["relatedLocations"].as_array().unwrap();
    assert_eq!(related.len(), 3);
    assert!(
        related[0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("/skills/beta/SKILL.md"),
        "{related:#?}"
    );
    assert_eq!(related[0]["physicalLocation"]["region"]["startLine"], 5);
    // accepting them as the help says leaves only the single key
    std::fs::write(
        dir.path().join("skillsift.toml"),
        "[lint]\nallowed-keys = [\"tags\", \"triggers\"]\n",
    )
    .unwrap();
    let r = check_json(dir.path(), &[]);
    assert_eq!(r.of("SG109").len(), 1);
}

/// A bundled file that several skills hold at the same place (or named for
/// each skill, `templates/<skill>-template.md`) and none mentions is one
/// SG211 with every other place related, as a skill template makes them.
#[test]
fn a_file_every_skill_bundles_unmentioned_is_one_finding() {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for name in ["alpha", "beta", "gamma"] {
        files.push((
            format!("skills/{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: Formats {name} tables. Use when the user asks for a {name} table.\n---\n# {name}\n").into_bytes(),
        ));
        files.push((
            format!("skills/{name}/references/gotchas.md"),
            b"# Gotchas\n".to_vec(),
        ));
        files.push((
            format!("skills/{name}/templates/{name}-template.md"),
            b"# Template\n".to_vec(),
        ));
    }
    files.push((
        "skills/alpha/references/only-here.md".into(),
        b"# x\n".to_vec(),
    ));
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let dir = catalog(&refs);
    let out = skillsift()
        .args(["check", "--no-route", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sg211: Vec<(String, usize)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "SG211")
        .map(|d| {
            (
                d["message"].as_str().unwrap().to_string(),
                d["related"].as_array().map_or(0, Vec::len),
            )
        })
        .collect();
    assert_eq!(
        sg211,
        [
            ("`references/gotchas.md` is bundled with 3 skills, and none of their SKILL.md files mentions it: the agent never learns it exists".to_string(), 2),
            ("`references/only-here.md` is bundled with the skill, but SKILL.md never mentions it: the agent never learns it exists".to_string(), 0),
            ("`templates/<skill>-template.md` is bundled with 3 skills, and none of their SKILL.md files mentions it: the agent never learns it exists".to_string(), 2),
        ],
        "{v:#}"
    );
}
