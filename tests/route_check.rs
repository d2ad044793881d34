//! Tier 2 through `skillsift check`: one test per behaviour, each on a
//! catalog small enough to read here.

mod route_common;

use route_common::{Cat, only, rules, with_rule};

/// Three distinct skills; the descriptions use block scalars.
fn office() -> Cat {
    Cat::new()
        .skill(
            "pdf-forms",
            "name: pdf-forms\ndescription: >-\n  Fills in PDF forms and extracts their fields.\n  Use when a document has form fields to complete or read.",
        )
        .skill(
            "release-notes",
            "name: release-notes\ndescription: |\n  Writes release notes and changelogs from git history.\n  Use when preparing a version tag.",
        )
        .simple(
            "spreadsheet-charts",
            "Draws charts from spreadsheet data. Use when the user wants a chart of columns in a spreadsheet.",
        )
}

#[test]
fn positive_prompts_that_rank_their_skill_first_pass() {
    let cat = office()
        .cases(
            "pdf-forms",
            &["Fill in the fields of this PDF form"],
            &[(
                "Draw a chart of the revenue column",
                Some("spreadsheet-charts"),
            )],
        )
        .cases(
            "release-notes",
            &["Write the changelog for the next version"],
            &[],
        );
    let (code, out, _) = cat.check_human(&[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("trigger checks: 3/3 passed across 3 routed skills"),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with("trigger rank-1 rate: 100% (2/2 positive prompts rank their skill first)"),
        "{out}"
    );
}

#[test]
fn block_scalar_descriptions_are_routed_on_every_line() {
    // "tag" appears only on the second line of a `|` description and
    // "complete" only on the second line of a `>-` one.
    let cat = office()
        .cases("release-notes", &["Prepare the version tag"], &[])
        .cases("pdf-forms", &["Complete the form"], &[]);
    let (code, v) = cat.check_json(&["--min-rank1", "100"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["route"]["rank1"], 2);
}

#[test]
fn positive_prompt_outside_top_k_fails_with_sg501_at_its_line() {
    let cat = Cat::new()
        .simple(
            "alpha-sorter",
            "Sorts widgets alphabetically. Use for widget ordering.",
        )
        .simple("widget-painter", "Paints widgets red, blue and green.")
        .simple("widget-polisher", "Polishes widgets until they shine.")
        .simple(
            "widget-packer",
            "Packs widgets into boxes for shipping widgets.",
        )
        .cases("alpha-sorter", &["Paint, polish and pack my widgets"], &[]);
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    let d = with_rule(&v, "SG501");
    assert_eq!(d.len(), 1, "{v:#}");
    let d = d[0];
    assert_eq!(d["file"], "evals/cases/alpha-sorter.json");
    cat.assert_line(d, "evals/cases/alpha-sorter.json", "Paint, polish");
    assert_eq!(d["severity"], "error");
    let msg = d["message"].as_str().unwrap();
    assert!(msg.contains("ranked #4 (need top 3)"), "{msg}");
    let help = d["help"].as_str().unwrap();
    assert!(help.starts_with("top 3: `widget-"), "{help}");
    // the winner has the prompt's words the skill lacks
    assert!(help.contains("lacks"), "{help}");
}

/// With no more skills routed together than `[route] top-k`, a top-k
/// check could not fail: it is lowered below their number and the summary
/// says so; a catalog with more skills keeps its top-k.
#[test]
fn a_top_k_that_holds_every_skill_is_lowered_so_the_check_can_fail() {
    let three = Cat::new()
        .simple("alpha-sorter", "Sorts widgets alphabetically.")
        .simple("widget-painter", "Paints widgets red, blue and green.")
        .simple(
            "widget-packer",
            "Packs widgets into boxes for shipping widgets.",
        )
        .cases("alpha-sorter", &["Paint and pack my widgets"], &[]);
    let (code, v) = three.check_json(&[]);
    assert_eq!(code, 1, "{v:#}");
    let d = only(&v, "SG501");
    let msg = d["message"].as_str().unwrap();
    assert!(msg.contains("ranked #3 (need top 2)"), "{msg}");
    assert_eq!(
        v["summary"]["route"]["top_k_lowered"],
        serde_json::json!({"to": 2, "skills": 3})
    );
    let (_, out, _) = three.check_human(&[]);
    assert!(
        out.contains("a positive passes in the top 2 ([route] top-k is 3, but only 3 entries are listed to route against, and a top 3 of them always holds the skill)"),
        "{out}"
    );
    // four skills: a top 3 can fail, and stands
    let four = Cat::new()
        .simple("alpha-sorter", "Sorts widgets alphabetically.")
        .simple("widget-painter", "Paints widgets red, blue and green.")
        .simple(
            "widget-packer",
            "Packs widgets into boxes for shipping widgets.",
        )
        .simple("meal-planner", "Plans weekly meals and shopping lists.")
        .cases("alpha-sorter", &["Paint and pack my widgets"], &[]);
    let (code, v) = four.check_json(&[]);
    assert_eq!(code, 0, "{v:#}");
    assert!(v["summary"]["route"]["top_k_lowered"].is_null(), "{v:#}");
}

#[test]
fn top_k_of_the_case_widens_the_window() {
    let cat = Cat::new()
        .simple("alpha-sorter", "Sorts widgets alphabetically.")
        .simple("widget-painter", "Paints widgets red, blue and green.")
        .simple("widget-polisher", "Polishes widgets until they shine.")
        .simple(
            "widget-packer",
            "Packs widgets into boxes for shipping widgets.",
        )
        .raw_case(
            "alpha-sorter",
            r#"{"skill_name": "alpha-sorter", "trigger": {"positive": [
  {"prompt": "Paint, polish and pack my widgets", "top_k": 4}], "negative": []}, "evals": []}"#,
        );
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["route"]["rank1"], 0);
}

#[test]
fn prompt_sharing_no_vocabulary_fails_with_sg502() {
    let cat = office().cases("pdf-forms", &["Is this login flow safe?"], &[]);
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    let d = only(&v, "SG502");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("description shares no vocabulary with a prompt users would say")
    );
    cat.assert_line(d, "evals/cases/pdf-forms.json", "login");
    assert!(rules(&v).iter().all(|r| r != "SG501"));
}

#[test]
fn negative_prompt_ranking_its_skill_first_fails_with_sg503() {
    let cat = office().cases(
        "pdf-forms",
        &["Fill in this PDF form"],
        &[("Extract the fields of the PDF", None)],
    );
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    let d = only(&v, "SG503");
    assert!(d["message"].as_str().unwrap().contains("over-broad"));
    cat.assert_line(d, "evals/cases/pdf-forms.json", "Extract the fields");
}

#[test]
fn negative_prompt_tied_for_first_fails() {
    let cat = Cat::new()
        .simple("alpha", "Renders architecture diagrams.")
        .simple("beta", "Renders architecture diagrams.")
        .simple("gamma", "Parses server logs.")
        .cases("beta", &[], &[("Render the diagram", None)]);
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    let d = only(&v, "SG503");
    assert!(d["label"].as_str().unwrap().contains("ties for #1"));
}

#[test]
fn negative_prompt_fails_when_owner_is_outranked() {
    let cat = office().cases(
        "pdf-forms",
        &["Fill in this PDF form"],
        // pdf-forms wins this prompt, so its declared owner cannot be ahead
        &[(
            "Read the form fields of the PDF chart",
            Some("spreadsheet-charts"),
        )],
    );
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    let d = only(&v, "SG504");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("declared owner `spreadsheet-charts` does not outrank it")
    );
    cat.assert_line(d, "evals/cases/pdf-forms.json", "Read the form fields");
}

#[test]
fn owner_that_shares_no_vocabulary_fails() {
    let cat = office().cases(
        "pdf-forms",
        &["Fill in this PDF form"],
        &[("Book a table for dinner", Some("release-notes"))],
    );
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    let d = only(&v, "SG504");
    assert!(d["message"].as_str().unwrap().contains("scores 0"));
    // the negative itself passed: nothing ranks first
    assert!(with_rule(&v, "SG503").is_empty());
}

#[test]
fn owner_that_does_not_exist_is_reported_once_by_tier_1() {
    let cat = office().cases(
        "pdf-forms",
        &["Fill in this PDF form"],
        &[("Draw a chart of the columns", Some("no-such-skill"))],
    );
    // with Tier 1 on (no --config), SG415 reports it and Tier 2 adds nothing
    let out = route_common::bin()
        .arg("check")
        .arg(cat.root())
        .args(["--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids = rules(&v);
    assert_eq!(ids.iter().filter(|r| *r == "SG415").count(), 1, "{ids:?}");
    assert!(ids.iter().all(|r| !r.starts_with("SG5")), "{ids:?}");
    assert_eq!(v["summary"]["route"]["checks"], 2);
}

#[test]
fn a_tie_for_first_is_not_a_rank1_hit() {
    let cat = Cat::new()
        .simple("alpha", "Renders architecture diagrams.")
        .simple("beta", "Renders architecture diagrams.")
        .simple("gamma", "Parses server logs.")
        .cases("alpha", &["Render the architecture diagram"], &[]);
    let (code, v) = cat.check_json(&[]);
    // within top 3 (rank 2 counting the tie as ahead): the check passes
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["route"]["rank1"], 0);
    assert_eq!(v["summary"]["route"]["positives"], 1);
    let (code, v) = cat.check_json(&["--min-rank1", "50"]);
    assert_eq!(code, 1);
    assert_eq!(with_rule(&v, "SG505").len(), 1);
}

#[test]
fn cjk_prompts_rank_their_skill_first() {
    let cat = Cat::new()
        .simple("doc-translate", "将技术文档翻译成中文，保持术语一致。")
        .simple("jp-review", "日本語のコードレビューを行います。")
        .simple(
            "ko-summary",
            "회의록을 요약합니다. Summarizes meeting notes.",
        )
        .simple("pdf-forms", "Fills in PDF forms.")
        .cases("doc-translate", &["请把这份文档翻译成中文"], &[])
        .cases(
            "jp-review",
            &["このプルリクエストのコードレビューをお願いします"],
            &[],
        )
        .cases("ko-summary", &["이 회의록을 요약해 주세요"], &[]);
    let (code, v) = cat.check_json(&["--min-rank1", "100"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["route"]["rank1"], 3);
}

#[test]
fn accented_prompts_match_with_or_without_accents() {
    let cat = Cat::new()
        .simple(
            "cv-writer",
            "Rédige un résumé (curriculum vitæ) adapté au poste visé.",
        )
        .simple("invoice-check", "Prüft Rechnungen und Beträge.")
        .simple("pdf-forms", "Fills in PDF forms.")
        // composed, decomposed (NFD) and unaccented spellings
        .cases(
            "cv-writer",
            &[
                "Améliore mon résumé pour ce poste",
                "Ame\u{301}liore mon re\u{301}sume\u{301}",
                "ameliore mon resume",
            ],
            &[],
        )
        .cases("invoice-check", &["Bitte die Betrage prufen"], &[]);
    let (code, v) = cat.check_json(&["--min-rank1", "100"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["route"]["rank1"], 4);
}

#[test]
fn near_duplicate_descriptions_are_a_collision_error_listing_shared_terms() {
    let cat = Cat::new()
        .simple(
            "review-code",
            "Reviews pull requests for bugs and style before merging.",
        )
        .simple(
            "code-review",
            "Reviews pull requests for bugs and style before merging.",
        )
        .simple("pdf-forms", "Fills in PDF forms.");
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    let d = only(&v, "SG510");
    let msg = d["message"].as_str().unwrap();
    assert!(msg.contains("`code-review` and `review-code`"), "{msg}");
    assert_eq!(d["file"], "skills/code-review/SKILL.md");
    assert_eq!(d["line"], 3);
    assert!(d["help"].as_str().unwrap().contains("review"));
}

#[test]
fn collision_help_spells_shared_words_as_written_not_as_stems() {
    let cat = Cat::new()
        .simple(
            "merge-branches",
            "Merges git branches and resolves merge conflicts when merging feature branches.",
        )
        .simple(
            "branch-merging",
            "Merging git branches, resolving merge conflicts between feature branches.",
        );
    let (_, v) = cat.check_json(&[]);
    let d = only(&v, "SG510");
    let help = d["help"].as_str().unwrap();
    // `merg` and `branch` are the index's stems, shown as the words
    // behind them
    assert!(help.contains("merge/merges/merging ("), "{help}");
    assert!(help.contains("branch/branches ("), "{help}");
    assert!(
        !help.contains("merg (") && !help.contains(" branches ("),
        "{help}"
    );
    assert_eq!(help.matches("merging").count(), 1, "{help}");
}

#[test]
fn overlapping_descriptions_are_a_warning_and_thresholds_are_configurable() {
    let cat = style_pair();
    let (code, v) = cat.check_json(&[]);
    let w = with_rule(&v, "SG511");
    assert_eq!(w.len(), 1, "{v:#}");
    assert_eq!(w[0]["severity"], "warning");
    assert!(
        w[0]["message"]
            .as_str()
            .unwrap()
            .contains("`python-style` and `rust-style`")
    );
    assert_eq!(code, 0);
    // a lower error threshold turns the same pair into an error
    let cat = cat.config("[route]\ncollision-error = 0.55\n");
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    assert_eq!(with_rule(&v, "SG510").len(), 1, "{v:#}");
}

/// Two skills about 59% similar, and an unrelated one.
fn style_pair() -> Cat {
    Cat::new()
        .simple(
            "python-style",
            "Formats and lints Python source files, fixes style issues, sorts imports and checks types before each commit.",
        )
        .simple(
            "rust-style",
            "Formats and lints Rust source files, fixes style issues, sorts imports and checks types before each commit.",
        )
        .simple("pdf-forms", "Fills in PDF forms.")
}

#[test]
fn listing_budget_names_the_skills_that_do_not_fit() {
    let long = "Checks invoices. ".repeat(12);
    let cat = Cat::new()
        .simple("alpha", "Sorts widgets.")
        .simple("beta", &long)
        .simple("gamma", "Parses server logs.")
        // the specification's reading, in characters (Claude Code's own
        // cap and budget: tests/client_listing.rs)
        .config("[route]\nclient = \"spec\"\nlisting-budget-chars = 100\nentry-cap-chars = 120\n");
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 0, "warnings only: {v:#}");
    let cut = with_rule(&v, "SG521");
    assert_eq!(cut.len(), 1, "{v:#}");
    assert_eq!(cut[0]["file"], "skills/beta/SKILL.md");
    assert!(
        cut[0]["message"]
            .as_str()
            .unwrap()
            .contains("clients show 120")
    );
    let budget = with_rule(&v, "SG520");
    assert_eq!(budget.len(), 1);
    let msg = budget[0]["message"].as_str().unwrap();
    assert!(
        msg.contains("2 skills would not fit: `beta`, `gamma`"),
        "{msg}"
    );
}

#[test]
fn skills_without_a_description_are_named_and_the_rest_still_routed() {
    let cat = office()
        .skill("broken", "name: broken")
        .cases("broken", &["Fix the broken thing"], &[])
        .cases("pdf-forms", &["Fill in this PDF form"], &[]);
    // the specification does not route it; Claude Code would list it with
    // its body's first line (tests/client_listing.rs)
    let cat = cat.config("[route]\nclient = \"spec\"\n");
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 0, "{v:#}");
    let r = &v["summary"]["route"];
    assert_eq!(
        r["unroutable"],
        serde_json::json!(["skills/broken/SKILL.md"])
    );
    assert_eq!(r["skills_routed"], 3);
    assert_eq!(r["positives"], 1);
    let d = with_rule(&v, "SG507");
    assert_eq!(d.len(), 1);
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("1 trigger prompt was not checked")
    );
    let (_, out, _) = cat.check_human(&[]);
    assert!(
        out.contains(
            "not routed (1 skill without a readable name or description): skills/broken/SKILL.md"
        ),
        "{out}"
    );
}

#[test]
fn a_skill_claude_code_does_not_list_is_named_as_such() {
    let cat = office()
        .skill(
            "hidden",
            "name: hidden\ndescription: Hidden from the model. Use when never.\ndisable-model-invocation: true",
        )
        .cases("pdf-forms", &["Fill in this PDF form"], &[]);
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["summary"]["route"]["client"], "claude-code");
    assert_eq!(
        v["summary"]["route"]["unroutable"],
        serde_json::json!(["skills/hidden/SKILL.md"])
    );
    let (_, out, _) = cat.check_human(&[]);
    assert!(
        out.contains("not routed (1 skill that Claude Code does not list): skills/hidden/SKILL.md"),
        "{out}"
    );
}

#[test]
fn rank1_floor_fails_below_the_rate_and_without_positives() {
    let cat = office()
        .cases(
            "pdf-forms",
            &["Fill in this PDF form", "Chart the form"],
            &[],
        )
        .cases(
            "spreadsheet-charts",
            &["Chart the spreadsheet columns"],
            &[],
        );
    // 2 of 3 positives rank first ("Chart the form" ranks pdf-forms second)
    let (code, out, _) = cat.check_human(&["--min-rank1", "67"]);
    assert_eq!(code, 1, "{out}");
    // 66.7% must not read as meeting 67%
    assert!(
        out.contains("trigger rank-1 rate 66.6% is below required 67%"),
        "{out}"
    );
    let (code, out, _) = cat.check_human(&["--min-rank1", "66"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = cat.check_human(&["--min-rank1", "80"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("trigger rank-1 rate 67% is below required 80%"),
        "{out}"
    );
    // the same floor from the configuration
    let cat = cat.config("[route]\nmin-rank1 = 80\n");
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    assert_eq!(with_rule(&v, "SG505").len(), 1);
    assert_eq!(v["summary"]["route"]["min_rank1"], 80.0);

    let empty = office();
    let (code, out, _) = empty.check_human(&["--min-rank1", "0"]);
    assert_eq!(code, 1);
    assert!(out.contains("no positive trigger prompts"), "{out}");
}

#[test]
fn min_rank1_outside_0_to_100_is_a_usage_error() {
    let (code, _, err) = office().check_human(&["--min-rank1", "101"]);
    assert_eq!(code, 2);
    assert!(err.contains("--min-rank1 101 is outside 0..=100"), "{err}");
}

#[test]
fn baseline_fails_only_on_regressions() {
    let cat = office()
        .cases(
            "pdf-forms",
            &["Fill in this PDF form", "Chart the form"],
            &[],
        )
        .cases("release-notes", &["Write the changelog"], &[]);
    let base = cat.outside("baseline.json");
    let base_s = base.to_str().unwrap();
    let (code, v) = cat.check_json(&["--save-baseline", base_s]);
    assert_eq!(code, 0, "{v:#}");
    let first = std::fs::read(&base).unwrap();
    cat.check_json(&["--save-baseline", base_s]);
    assert_eq!(
        first,
        std::fs::read(&base).unwrap(),
        "baseline is byte-identical"
    );
    let saved: serde_json::Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(saved["rank1"], 2);
    assert_eq!(saved["positives"], 3);

    // unchanged catalog: no regression
    let (code, v) = cat.check_json(&["--baseline", base_s]);
    assert_eq!(code, 0, "{v:#}");

    // a new skill takes rank 1 from a prompt that had it, though the prompt
    // still passes its top 3
    let cat = cat.simple("pdf-filler", "Fills in PDF forms.");
    let (code, v) = cat.check_json(&["--baseline", base_s]);
    assert_eq!(code, 1, "{v:#}");
    assert!(with_rule(&v, "SG501").is_empty(), "{v:#}");
    let d = with_rule(&v, "SG506");
    assert_eq!(d.len(), 2, "{v:#}");
    let at_prompt = d
        .iter()
        .find(|x| x["file"] == "evals/cases/pdf-forms.json")
        .unwrap();
    assert_eq!(
        at_prompt["line"],
        cat.line_of("evals/cases/pdf-forms.json", "Fill in this PDF form")
    );
    assert!(d.iter().any(|x| {
        x["message"]
            .as_str()
            .unwrap()
            .contains("rank-1 rate fell from 67% (2/3)")
    }));
}

#[test]
fn baseline_downgrades_failures_it_already_had() {
    let cat = office().cases("pdf-forms", &["Fill in this PDF form", "Book a table"], &[]);
    let base = cat.outside("baseline.json");
    let base_s = base.to_str().unwrap();
    let (code, v) = cat.check_json(&["--save-baseline", base_s]);
    // saved: exit 0, the SG502 shown; a check without the baseline fails
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(with_rule(&v, "SG502").len(), 1, "{v:#}");
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1, "SG502 without a baseline: {v:#}");
    let (code, v) = cat.check_json(&["--baseline", base_s]);
    assert_eq!(code, 0, "{v:#}");
    let d = with_rule(&v, "SG502");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0]["severity"], "warning");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .ends_with("(already failing in the baseline)")
    );
}

#[test]
fn malformed_baseline_is_a_usage_error() {
    let cat = office();
    let base = cat.outside("bad.json");
    std::fs::write(&base, "{\"version\": 1}").unwrap();
    let (code, _, err) = cat.check_human(&["--baseline", base.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a skillsift baseline"), "{err}");
}

#[test]
fn github_format_annotates_the_prompt_line() {
    let cat = office().cases("pdf-forms", &["Is this login flow safe?"], &[]);
    let out = route_common::bin()
        .arg("check")
        .arg(cat.root())
        .arg("--config")
        .arg(cat.config_path())
        .args(["--format", "github"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = cat.line_of("evals/cases/pdf-forms.json", "login");
    assert!(
        text.contains("::error file=") && text.contains(&format!(",line={line},")),
        "{text}"
    );
    assert!(
        text.contains("title=SG502 positive-prompt-no-shared-vocabulary"),
        "{text}"
    );
    assert!(
        text.trim_end()
            .ends_with("trigger rank-1 rate: 0% (0/1 positive prompt ranks its skill first)")
    );
}

#[test]
fn rule_levels_apply_to_routing_rules() {
    let cat = style_pair();
    let path = cat.outside("levels.toml");
    std::fs::write(&path, "[lint.rules]\nSG511 = \"error\"\n").unwrap();
    let out = route_common::bin()
        .arg("check")
        .arg(cat.root())
        .args(["--format", "json", "--config"])
        .arg(&path)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = only(&v, "SG511");
    assert_eq!(d["severity"], "error");
    assert_eq!(out.status.code(), Some(1));
    // and `off` removes them
    std::fs::write(&path, "[lint.rules]\ndescription-overlap = \"off\"\n").unwrap();
    let out = route_common::bin()
        .arg("check")
        .arg(cat.root())
        .args(["--format", "json", "--config"])
        .arg(&path)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(with_rule(&v, "SG511").is_empty());
}

#[test]
fn routing_rules_are_documented() {
    for id in [
        "SG501", "SG502", "SG503", "SG504", "SG505", "SG506", "SG507", "SG510", "SG511", "SG520",
        "SG521",
    ] {
        let out = route_common::bin().args(["rule", id]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{id}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with(&format!("# {id} ")), "{text}");
        assert!(text.contains("## What it does"), "{id}");
    }
}

#[test]
fn extra_stop_words_and_the_language_come_from_config() {
    // "widgets" as a stop word leaves the prompt nothing to match
    let cat = Cat::new()
        .simple("alpha", "Sorts widgets.")
        .simple("beta", "Paints boxes.")
        .cases("alpha", &["widgets"], &[])
        .config("[route]\nstop-words = [\"Widgets\"]\n");
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 1);
    assert_eq!(with_rule(&v, "SG502").len(), 1, "{v:#}");

    // German stemming joins Rechnung and Rechnungen
    let cat = Cat::new()
        .simple("rechnung", "Erstellt Rechnungen für Kunden.")
        .simple("bericht", "Schreibt Berichte.")
        .cases("rechnung", &["Eine Rechnung erstellen"], &[])
        .config("[route]\nlanguage = \"german\"\n");
    let (code, v) = cat.check_json(&["--min-rank1", "100"]);
    assert_eq!(code, 0, "{v:#}");

    let cat = cat.config("[route]\nlanguage = \"klingon\"\n");
    let (code, _, err) = cat.check_human(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("language = \"klingon\""), "{err}");
}

#[test]
fn output_is_byte_identical_between_runs() {
    let cat = office().cases(
        "pdf-forms",
        &[
            "Fill in this PDF form",
            "Draw a chart",
            "Is this login safe?",
        ],
        &[("Write the changelog", Some("release-notes"))],
    );
    let a = cat.check_human(&[]).1;
    let b = cat.check_human(&[]).1;
    assert_eq!(a, b);
}
