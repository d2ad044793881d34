//! The conformance test of Codex's listing: skillsift's prediction equals,
//! skill by skill and byte for byte, the listing `codex exec` sends to a
//! loopback Responses API (`skillsift listing --client codex --verify`):
//! the tricky skills of `tests/fixtures/client/agents/` (splits, BOM,
//! YAML errors and Codex's quoting retry, numbers, nesting, dot folders,
//! the 1,024-character cut, long names, twins), the 1,000 files of the
//! wild sample (in parts that fit the listing budget), and a catalog over
//! the budget, whose descriptions Codex shortens. Skips with a message when
//! `codex` is absent (SKILLSIFT_REQUIRE_CLIENTS makes that a failure), and
//! the wild test when the corpus is absent.

mod real_client;

use std::path::Path;

#[test]
#[cfg_attr(
    skillsift_missing_codex,
    ignore = "needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn the_tricky_skills_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(codex) = real_client::cli("codex") else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/agents");
    let doc = real_client::verify("codex", &root, &codex, &[]);
    assert_eq!(doc["verify"]["skills"], 148);
    let e = |n: &str| real_client::entry(&doc, n);
    assert_eq!(e("number")["text"], "1.10", "a number is shown as written");
    assert_eq!(
        e("colon")["text"],
        "Deploys the app. DO NOT USE FOR: local builds"
    );
    assert_eq!(e("c10")["text"], "a: b", "the retry cuts the comment");
    let long = e("long-1100")["text"].as_str().unwrap().to_string();
    assert_eq!(long.chars().count(), 1024);
    assert!(long.ends_with("..."));
    assert_eq!(e("no-name")["listed"], true, "the folder's name stands in");
    for (name, kind) in [
        ("bom", "no-frontmatter"),
        ("duplicate", "bad-frontmatter"),
        ("no-desc", "no-description"),
        ("deep7", "too-deep"),
        ("dotted", "dot-folder"),
    ] {
        assert_eq!(e(name)["reason"]["kind"], kind, "{name}");
    }
    assert_eq!(
        doc["builtins"][0]["name"], "imagegen",
        "the bundled skills come first"
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_codex,
    ignore = "needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn a_catalog_over_the_budget_is_shortened_exactly_as_the_real_cli_shortens_it() {
    let Some(codex) = real_client::cli("codex") else {
        return;
    };
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    for i in 0..200 {
        let dir = tmp.path().join(format!("skills/s{i:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: s{i:03}\ndescription: {}\n---\n",
                format!("Skill {i} handles case {i} of the workload. ")
                    .repeat(6)
                    .trim()
            ),
        )
        .unwrap();
    }
    let doc = real_client::verify("codex", tmp.path(), &codex, &[]);
    assert_eq!(doc["verify"]["skills"], 200);
    let b = &doc["budget"];
    assert!(b["used"].as_u64() > b["limit"].as_u64(), "{b}");
    let shortened = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            e["changes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["kind"] == "shortened")
        })
        .count();
    assert_eq!(shortened, 200, "every description is shortened evenly");
}

#[test]
#[cfg_attr(
    skillsift_missing_codex,
    ignore = "needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn a_thousand_real_skills_are_listed_exactly_as_the_real_cli_lists_them() {
    let Some(codex) = real_client::cli("codex") else {
        return;
    };
    let Some((tmp, all)) = real_client::wild_catalogs(1000) else {
        return;
    };
    // the predicted listing with no budget, to pack the skills into parts
    // whose listing stays within Codex's budget
    let cfg = tmp.path().join("unbounded.toml");
    std::fs::write(&cfg, "[route]\nlisting-budget-chars = 100000000\n").unwrap();
    let out = assert_cmd::Command::cargo_bin("skillsift")
        .unwrap()
        .arg("listing")
        .arg(&all[0])
        .args(["--client", "codex", "--format", "json", "--config"])
        .arg(&cfg)
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut parts: Vec<Vec<String>> = vec![Vec::new()];
    let mut tokens = 0;
    for e in doc["entries"].as_array().unwrap() {
        // a line costs ceil(bytes / 4) tokens; leave room for the bundled skills
        let cost = (e["line"].as_str().unwrap().len() + 4) / 4;
        if tokens + cost > 8_500 {
            parts.push(Vec::new());
            tokens = 0;
        }
        tokens += cost;
        parts
            .last_mut()
            .unwrap()
            .push(e["path"].as_str().unwrap().to_string());
    }
    let roots: Vec<std::path::PathBuf> = parts
        .iter()
        .enumerate()
        .map(|(k, files)| {
            let root = tmp.path().join(format!("packed-{k:02}"));
            for f in files {
                let dir = root.join(Path::new(f).parent().unwrap());
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::copy(all[0].join(f), dir.join("SKILL.md")).unwrap();
            }
            root
        })
        .collect();
    // two parts at a time: each capture is two short Codex runs
    let skills: u64 = roots
        .chunks(2)
        .map(|batch| {
            std::thread::scope(|s| {
                batch
                    .iter()
                    .map(|p| s.spawn(|| real_client::verify("codex", p, &codex, &[])))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .map(|h| h.join().unwrap()["verify"]["skills"].as_u64().unwrap())
                    .sum::<u64>()
            })
        })
        .sum();
    assert_eq!(skills, 1000);
}

/// A SKILL.md nested inside another skill's folder (the project's and a
/// plugin's, installed as the catalog's skills): what Claude Code never
/// lists, as this CLI lists it.
#[test]
#[cfg_attr(
    skillsift_missing_codex,
    ignore = "needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn a_skill_nested_in_another_is_listed_exactly_as_the_real_cli_lists_it() {
    let Some(cli) = real_client::cli("codex") else {
        return;
    };
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code-plugins");
    let doc = real_client::verify("codex", &root, &cli, &[]);
    assert_eq!(doc["verify"]["skills"], 10);
    let inner = real_client::entry(&doc, "inner");
    assert_eq!(
        inner["listed"], true,
        "it finds a SKILL.md nested in another skill"
    );
}
