//! Output that reads right (issue 48, item 10): ties, cuts, plurals,
//! titles, cards, the order of a capped list, and `--save-baseline`'s
//! word, each through the binary.

mod common;

use common::{skill, skillsift, write};

fn run(args: &[&str], root: &std::path::Path) -> (i32, String) {
    let out = skillsift().args(args).arg(root).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn rank_shows_ties_apart_from_the_score_and_never_cuts_between_them() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // two skills the prompt scores the same, one that scores higher
    skill(
        root,
        "alpha-sort",
        "Sorts tables. Use when a table needs sorting.",
    );
    skill(
        root,
        "beta-sort",
        "Sorts tables. Use when a table needs sorting.",
    );
    skill(
        root,
        "csv-sort",
        "Sorts CSV tables by a column. Use when a CSV table needs sorting by a column.",
    );
    let prompt = "sort this table";
    let (code, all) = run(&["rank", prompt], root);
    assert_eq!(code, 0, "{all}");
    let tied: Vec<&str> = all.lines().filter(|l| l.contains(" = ")).collect();
    assert_eq!(tied.len(), 2, "{all}");
    for l in &tied {
        // `2.0105 = alpha-sort`, never `2.0105= alpha-sort`
        let score = l.split_whitespace().nth(1).unwrap();
        assert!(score.parse::<f64>().is_ok(), "{l}");
    }
    // --limit 2 would cut between the tied pair: both are shown
    let first_tied = all.lines().position(|l| l.contains(" = ")).unwrap();
    let limit = (first_tied).to_string();
    let (_, cut) = run(&["rank", prompt, "--limit", &limit], root);
    assert_eq!(
        cut.lines().filter(|l| l.contains(" = ")).count(),
        2,
        "--limit {limit}:\n{cut}"
    );
    // one skill: singular
    let one = tempfile::tempdir().unwrap();
    skill(
        one.path(),
        "alpha-sort",
        "Sorts tables. Use when a table needs sorting.",
    );
    let (_, text) = run(&["rank", prompt], one.path());
    assert!(
        text.contains("1 of 1 skill shares a term with the prompt"),
        "{text}"
    );
}

#[test]
fn counts_of_one_are_singular() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(
        root,
        "skills/bad/SKILL.md",
        "---\nname: bad\ndescription: Does things.\nfoo: 1\n---\n# Bad\n",
    );
    let (_, text) = run(&["check", "--no-route", "--format", "github"], root);
    assert!(
        text.contains("1 skill checked: 1 error, 1 warning, 0 notices"),
        "{text}"
    );
    let (_, text) = run(&["listing"], root);
    assert!(
        text.contains("1 skill as Claude Code shows them") || text.contains("1 skill "),
        "{text}"
    );
    assert!(!text.contains("1 skills"), "{text}");
}

#[test]
fn the_report_names_the_catalog_and_no_check_is_not_green() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("invoice-skills");
    skill(
        &root,
        "invoices",
        "Fixes invoice totals. Use when an invoice total is off.",
    );
    let out = skillsift()
        .current_dir(&root)
        .args(["report", ".", "--output", "-"])
        .output()
        .unwrap();
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(
        html.contains("<title>Routing report: invoice-skills</title>"),
        "{}",
        &html[..html.len().min(2000)]
    );
    // no trigger check at all: the card is a warning, not a success
    let card = html
        .find("trigger checks passed")
        .map(|i| &html[html[..i].rfind("<div").unwrap()..i])
        .unwrap();
    assert!(card.contains("0/0"), "{card}");
    assert!(!card.contains("good"), "{card}");
}

#[test]
fn the_count_of_unmentioned_files_follows_the_ones_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    skill(root, "kit", "Ships a kit. Use when a kit is needed.");
    for i in 0..25 {
        write(
            root,
            &format!("skills/kit/assets/part-{i:02}.txt"),
            "data\n",
        );
    }
    let out = skillsift()
        .args(["check", "--no-route", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sg211: Vec<&serde_json::Value> = (doc["diagnostics"].as_array().unwrap().iter())
        .filter(|d| d["rule"] == "SG211")
        .collect();
    assert_eq!(sg211.len(), 21, "{doc:#}");
    let last = sg211.last().unwrap();
    assert_eq!(last["file"], "skills/kit/assets/part-20.txt");
    assert_eq!(
        last["message"],
        "`assets/part-20.txt` and 4 more bundled files are never mentioned in SKILL.md"
    );
}

#[test]
fn save_baseline_says_what_it_wrote_and_succeeds() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cat");
    write(
        &root,
        "skills/bad/SKILL.md",
        "---\nname: bad\ndescription: Does things.\nfoo: 1\n---\n# Bad\n",
    );
    let file = tmp.path().join("baseline.json");
    let (code, text) = run(&["check", "--save-baseline", file.to_str().unwrap()], &root);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!("wrote {}: ", file.display())),
        "{text}"
    );
    assert!(
        text.contains("findings and 0 trigger prompts recorded"),
        "{text}"
    );
    // the same findings against it: nothing new, exit 0; without it, 1
    let (code, text) = run(&["check", "--baseline", file.to_str().unwrap()], &root);
    assert_eq!(code, 0, "{text}");
    let (code, _) = run(&["check"], &root);
    assert_eq!(code, 1);
}
