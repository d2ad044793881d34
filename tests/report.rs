//! `skillsift report`: the HTML page of a catalog's routing and of Tier 3
//! iterations, driven through the binary. What a browser makes of the pages
//! is tests/report_browser.rs.

mod common;
mod report_support;

use common::skillsift;
use predicates::str::contains;
use report_support::behave::{Env, read_json};
use report_support::{
    HOSTILE, JS_SKILL, assert_only_own_markup, check_doc, hostile_catalog, noresult_eval, report,
    run_iteration, scored_cases, xss_eval,
};
use std::path::Path;

fn corpus(name: &str) -> Option<std::path::PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora")
        .join(name);
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipping: {} not present", p.display());
        None
    }
}

/// `skillsift report PATH -o FILE`: the page, after checking the exit code.
fn render(path: &Path, file: &Path) -> String {
    skillsift()
        .arg("report")
        .arg(path)
        .arg("-o")
        .arg(file)
        .assert()
        .code(0)
        .stdout(contains(format!("wrote {}", file.display())));
    std::fs::read_to_string(file).unwrap()
}

/// Number of times `needle` occurs in `hay`.
fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

#[test]
fn hostile_descriptions_prompts_and_file_names_render_as_text() {
    let t = tempfile::tempdir().unwrap();
    let root = hostile_catalog(t.path());
    let html = render(&root, &t.path().join("r.html"));
    assert_only_own_markup(&html);
    // the prompt, escaped, in the matrix cell that lists it and in the table;
    // the description under its skill
    assert!(html.contains("Draws charts from tables &lt;script&gt;alert(&#39;desc&#39;)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;data&#39;."));
    let escaped = "&lt;/script&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39; javascript:alert(1)";
    assert!(
        html.contains(escaped),
        "the hostile prompt is shown escaped"
    );
    // the skill named like a URL is linked as a relative, encoded path
    assert!(
        html.contains("href=\"./hostile/skills/javascript%3Aalert%281%29/SKILL.md\""),
        "{}",
        &html[html.find(JS_SKILL).unwrap_or(0)..][..200]
    );
    assert!(!HOSTILE.is_empty());
}

#[test]
fn the_same_catalog_gives_the_same_bytes() {
    let t = tempfile::tempdir().unwrap();
    let root = hostile_catalog(t.path());
    let a = render(&root, &t.path().join("a.html"));
    let b = render(&root, &t.path().join("b.html"));
    assert_eq!(a, b);
}

#[test]
fn the_matrix_lists_a_stolen_prompt_with_the_winner_and_the_words_it_lacks() {
    let t = tempfile::tempdir().unwrap();
    let html = render(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("evals/fixtures/misrouted-prompt"),
        &t.path().join("r.html"),
    );
    // code-cleanup ranks first for suite-stability's prompt (SG501)
    let cell = html
        .split("<div class=\"cell\"")
        .skip(1)
        .find(|c| c.contains("clean up the flaky integration tests"))
        .expect("a cell lists the stolen prompt");
    assert!(cell.contains("ranked code-cleanup first"), "{cell}");
    assert!(cell.contains("<b>suite-stability</b> ranks #2"), "{cell}");
    assert!(
        cell.contains("<b>code-cleanup</b>'s description has <code>clean</code> from this prompt and <b>suite-stability</b>'s lacks it"),
        "{cell}"
    );
    assert!(cell.contains("check failed (SG501)"), "{cell}");
    // the rank --explain contributions of both skills
    assert!(
        cell.contains("<caption>code-cleanup · 1.4567</caption>"),
        "{cell}"
    );
    assert!(
        cell.contains("<caption>suite-stability · 0.6217</caption>"),
        "{cell}"
    );
    // the matrix links the off-diagonal cell to that list
    let id = cell.split('"').nth(1).unwrap();
    assert!(html.contains(&format!("href=\"#{id}\"")), "{id}");
    // the skill's row lists the failed check with its SG501 message
    let row = html
        .split("<tr id=\"s")
        .find(|r| r.contains("data-name=\"suite-stability\""))
        .unwrap();
    assert!(row.contains("1 failed"), "{row}");
    assert!(row.contains("<span class=\"rule\">SG501</span>"), "{row}");
    assert!(row.contains("ranked first: <b>code-cleanup</b>"), "{row}");
    assert!(
        row.contains("<code>evals/cases/suite-stability.json:5</code>"),
        "{row}"
    );
    // the finding is counted under its rule, and listed once, under the skill
    let group = &html[html.find("id=\"r-SG501\"").unwrap()..];
    let group = &group[..group.find("</details>").unwrap()];
    assert!(group.contains("<span class=\"count\">1</span>"), "{group}");
    assert!(
        group.contains(
            "1 on trigger prompts: listed under each skill in <a href=\"#skills\">Skills</a>"
        ),
        "{group}"
    );
}

#[test]
fn the_addyosmani_catalog_renders_its_figures_under_5_mb() {
    let Some(root) = corpus("addyosmani-agent-skills") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let html = render(&root, &t.path().join("r.html"));
    assert!(html.len() < 5_000_000, "{} bytes", html.len());
    assert_only_own_markup(&html);
    assert!(
        html.contains(
            "<b>86%</b><span>rank-1 rate (67/78 positive prompts rank their skill first)"
        )
    );
    assert!(html.contains("<b>125/127</b><span>trigger checks passed"));
    assert_eq!(count(&html, "<tr id=\"s"), 24, "one row per skill");
    let v = check_doc(&root);
    let n = v["diagnostics"].as_array().unwrap().len();
    // the two findings on trigger prompts (SG504) are listed under their
    // skills, and counted in a "more" line
    assert_eq!(count(&html, "<li class=\"error\">") + 2, n, "every finding");
    assert!(html.contains("<li class=\"more\">2 on trigger prompts"));
    assert!(html.contains("No two descriptions are that alike."));
    // the same bytes again
    assert_eq!(html, render(&root, &t.path().join("again.html")));
}

#[test]
fn the_wild_sample_renders_its_collisions_and_findings_under_5_mb() {
    let Some(root) = corpus("wild-sample") else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let html = render(&root, &t.path().join("r.html"));
    assert!(html.len() < 5_000_000, "{} bytes", html.len());
    assert_only_own_markup(&html);
    let v = check_doc(&root);
    let diags = v["diagnostics"].as_array().unwrap();
    let pairs = diags
        .iter()
        .filter(|d| matches!(d["rule"].as_str(), Some("SG510" | "SG511")))
        .count();
    assert!(pairs > 0);
    assert_eq!(count(&html, "<line class=\"e "), pairs, "one edge per pair");
    let shown = count(&html, "<li class=\"error\">")
        + count(&html, "<li class=\"warning\">")
        + count(&html, "<li class=\"notice\">");
    assert_eq!(shown, diags.len(), "every finding is listed");
    assert!(html.contains("No trigger prompt with an owner to rank"));
}

#[test]
fn report_writes_to_standard_output_with_a_dash() {
    let t = tempfile::tempdir().unwrap();
    let root = hostile_catalog(t.path());
    let out = skillsift()
        .current_dir(t.path())
        .args(["report", "hostile", "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    skillsift()
        .current_dir(t.path())
        .args(["report", "hostile", "-o", "r.html"])
        .assert()
        .code(0);
    assert_eq!(
        html,
        std::fs::read_to_string(root.join("../r.html")).unwrap()
    );
}

#[test]
fn report_refuses_what_it_cannot_read() {
    let t = tempfile::tempdir().unwrap();
    skillsift()
        .args(["report", "no/such/catalog", "-o", "x.html"])
        .current_dir(t.path())
        .assert()
        .code(2)
        .stderr(contains("no/such/catalog: no such file or folder"));
    let root = hostile_catalog(t.path());
    skillsift()
        .arg("report")
        .arg(&root)
        .args(["-o", "missing/folder/r.html"])
        .current_dir(t.path())
        .assert()
        .code(2)
        .stderr(contains("write the report into a folder that exists"));
    skillsift()
        .arg("report")
        .arg(&root)
        .assert()
        .code(2)
        .stderr(contains("--output"));
    // a plan.json that is not one
    let it = t.path().join("results/demo/iteration-1");
    std::fs::create_dir_all(&it).unwrap();
    std::fs::write(it.join("plan.json"), "{\"format\": 1}").unwrap();
    skillsift()
        .arg("report")
        .arg(&it)
        .args(["-o", "r.html"])
        .current_dir(t.path())
        .assert()
        .code(2)
        .stderr(contains("plan.json: not a skillsift results file"));
    // the results of several skills
    let other = t.path().join("results/other/iteration-1");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(it.join("plan.json"), other.join("plan.json")).unwrap();
    skillsift()
        .arg("report")
        .arg(t.path().join("results"))
        .args(["-o", "r.html"])
        .current_dir(t.path())
        .assert()
        .code(2)
        .stderr(contains("holds the results of 2 skills (demo, other)"));
    assert!(
        !t.path().join("r.html").exists(),
        "nothing is written on error"
    );
}

#[test]
fn an_iteration_shows_each_eval_with_and_without_and_its_summary() {
    let env = Env::new();
    env.cases(&scored_cases(Some(xss_eval())));
    let it = run_iteration(&env, &["--trials", "2"], 1);
    let file = env.tmp.path().join("it.html");
    let html = report(&env, &it, &file, &["--min-uplift", "0.1"]);
    assert_only_own_markup(&html);
    // the scorer's figures, as `score` prints them
    let bench = read_json(&it.join("benchmark.json"));
    assert_eq!(bench["complete"], true);
    let banner = &html[html.find("<p class=\"banner").unwrap()..];
    let banner = &banner[..banner.find("</p>").unwrap()];
    assert!(
        banner.contains("<b>verdict</b> pass: every gate passed"),
        "{banner}"
    );
    assert!(html.contains("<td><code>--min-uplift</code></td>"));
    assert!(html.contains("precision <b>1.000</b> · recall <b>1.000</b> · F1 <b>1.000</b>"));
    assert!(html.contains("<svg class=\"interval\""));
    assert!(html.contains("sign test:"));
    // eleven evals, each with both arms and two trials in each
    assert_eq!(count(&html, "<article class=\"eval\""), 11);
    assert_eq!(count(&html, "<div class=\"arm with\">"), 11);
    assert_eq!(count(&html, "<div class=\"arm without\">"), 11);
    assert_eq!(count(&html, "<div class=\"trial "), 44);
    // the grader's verdict per expectation, with its evidence
    assert!(html.contains("<li class=\"fail\"><span class=\"mark\">✗</span> A failing test reproduces the lost cent before src/total.js changes<br><small>fake grader, mode fail</small></li>"));
    // the tool calls from stream.jsonl, in order
    assert!(html.contains("<summary>tool calls (4)</summary><ol class=\"calls\"><li><code>Glob</code> **/*.js</li><li><code>Skill</code> demo-skill</li><li><code>Write</code> demo-project/test.js</li><li><code>Bash</code> npm test</li></ol>"));
    // hostile prompt, answer, tool input and grader evidence are text
    assert!(html.contains("&lt;/script&gt;&lt;script&gt;alert(&quot;output&quot;)&lt;/script&gt; &lt;a href=&quot;javascript:alert(6)&quot;&gt;click&lt;/a&gt;"));
    assert!(html.contains("&lt;/script&gt;&lt;script&gt;alert(&quot;evidence&quot;)&lt;/script&gt; &amp; &#39;q&#39; javascript:alert(5)"));
    assert!(html.contains(
        "echo &#39;&lt;/script&gt;&lt;script&gt;alert(&quot;tool&quot;)&lt;/script&gt;&#39;"
    ));
    // trigger prompts: one row per case
    let triggers = &html[html.find("<section id=\"triggers\">").unwrap()..];
    assert_eq!(count(triggers, "<tr><td><code>"), 16, "one row per case");
    assert_eq!(
        count(triggers, "<td class=\"ok\">pass (2/2)</td>"),
        14,
        "should-load cases"
    );
    assert_eq!(
        count(triggers, "<td class=\"ok\">pass (0/2)</td>"),
        2,
        "should-not cases"
    );
    // the same bytes twice
    assert_eq!(
        html,
        report(
            &env,
            &it,
            &env.tmp.path().join("again.html"),
            &["--min-uplift", "0.1"]
        )
    );
}

#[test]
fn a_run_without_a_verdict_is_shown_as_such_never_as_a_fail() {
    let env = Env::new();
    env.cases(&scored_cases(Some(noresult_eval())));
    let it = run_iteration(&env, &["--trials", "1", "--trigger-runs", "full"], 1);
    let html = report(&env, &it, &env.tmp.path().join("r.html"), &[]);
    assert!(
        html.contains("<b>not scored</b> 2 of 32 runs produced no verdict, so nothing was scored")
    );
    let eval = html
        .split("<article class=\"eval\"")
        .find(|a| a.contains("[rec:noresult]"))
        .unwrap();
    assert_eq!(count(eval, "<div class=\"trial none\">"), 2, "{eval}");
    assert!(
        eval.contains("<b>no verdict</b>: the stream has no `result` line: the run did not finish")
    );
    assert!(!eval.contains("<b>failed</b>"), "{eval}");
    assert!(html.contains("<td><i>not scored</i></td>"));
}

#[test]
fn across_iterations_a_changed_skill_shows_as_a_step() {
    let env = Env::new();
    env.cases(&scored_cases(None));
    let first = run_iteration(&env, &["--trials", "1"], 1);
    let skill = env.root.join("skills/demo-skill/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    std::fs::write(&skill, text.replace("test-first", "test-first, always")).unwrap();
    run_iteration(&env, &["--trials", "1"], 2);
    run_iteration(&env, &["--trials", "1", "--shard", "1/2"], 3);
    let results = env.root.join("evals/results/demo-skill");
    let html = report(&env, &results, &env.tmp.path().join("r.html"), &[]);
    assert!(html.contains("3 iterations of <b>demo-skill</b>"));
    assert_eq!(
        count(&html, "<span class=\"step\">changed</span>"),
        1,
        "only #2 changed the skill"
    );
    assert!(html.contains("<text class=\"step\""), "the step is drawn");
    assert!(
        html.contains("<tr class=\"focus\"><td>#3 (shown)</td>"),
        "the latest is shown"
    );
    assert!(html.contains("not scored: shard 1/2 holds part of the runs"));
    // the first iteration, with the others beside it
    let html = report(&env, &first, &env.tmp.path().join("r1.html"), &[]);
    assert!(html.contains("<tr class=\"focus\"><td>#1 (shown)</td>"));
    assert!(html.contains("3 iterations of <b>demo-skill</b>"));
}

#[test]
fn the_listing_shows_what_the_model_does_not_see_and_what_is_cut() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("cat");
    let skill = |name: &str, front: &str| {
        let d = root.join("skills").join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\n{front}---\n\n# {name}\n"),
        )
        .unwrap();
    };
    skill(
        "visible",
        "description: Formats tables. Use when a table needs formatting.\n",
    );
    skill(
        "manual",
        "description: Deploys <b>prod</b>. Use when asked to deploy.\ndisable-model-invocation: true\n",
    );
    let long = format!(
        "Writes release notes. Use when {}",
        "a release ships and ".repeat(100)
    );
    skill("long", &format!("description: {long}\n"));
    let html = render(&root, &t.path().join("r.html"));
    assert_only_own_markup(&html);
    let section = &html[html.find("<section id=\"listing\">").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(section.contains("Claude Code (as version"), "{section}");
    assert!(
        section.contains("lists 2 skills of 3 for the model"),
        "{section}"
    );
    assert!(section.contains("Not listed: the model does not see these (1)"));
    assert!(section.contains("<b>manual</b>"));
    assert!(section.contains("`disable-model-invocation: true` keeps it from the model"));
    assert!(section.contains("Texts the model sees differently from what was written (1)"));
    let row = &section[section.find("<b>long</b>").unwrap()..];
    assert!(row.contains("<summary>the author wrote</summary>"), "{row}");
    assert!(html.contains(
        "<b>1</b><span>not listed by Claude Code (0 by name only, 1 with a changed text)"
    ));
    // the specification's reading lists all three, whole
    let spec = t.path().join("spec.html");
    skillsift()
        .arg("report")
        .arg(&root)
        .args(["--client", "spec", "-o"])
        .arg(&spec)
        .assert()
        .code(0);
    let html = std::fs::read_to_string(spec).unwrap();
    assert!(html.contains("<p>The specification lists 3 skills of 3 for the model"));
    assert!(html.contains("Not listed: the model does not see these (0)"));
}

#[test]
fn an_appended_skill_shows_triggers_as_not_observed() {
    let env = Env::new();
    // the fixture's own cases: two evals (trigger prompts are skipped)
    env.config("[behave]\ninstall = \"append-system-prompt\"\n");
    let it = run_iteration(&env, &["--trials", "1"], 1);
    let html = report(&env, &it, &env.tmp.path().join("r.html"), &[]);
    assert!(
        html.contains(
            "<p>Not observed: the skill was in the system prompt of every with-skill run"
        ),
        "{}",
        &html[html.find("<p class=\"banner").unwrap()..][..600]
    );
    let triggers = &html[html.find("<section id=\"triggers\">").unwrap()..];
    assert_eq!(
        count(triggers, "<td><i>not observed</i></td>"),
        2,
        "the two evals"
    );
    // JUnit marks the trigger testcases skipped with the reason
    let out = env
        .behave(&["--trials", "1", "--format", "junit"])
        .output()
        .unwrap();
    let xml = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        xml.matches("<skipped message=\"not observed: the skill was in the system prompt")
            .count(),
        2,
        "{xml}"
    );
}

#[test]
fn the_gates_a_run_was_judged_by_are_recorded_and_the_report_judges_by_them() {
    let env = Env::new();
    env.cases(&scored_cases(None));
    let it = run_iteration(
        &env,
        &["--trials", "1", "--min-uplift", "0.1", "--seed", "7"],
        1,
    );
    let plan = read_json(&it.join("plan.json"));
    assert_eq!(
        plan["gates"],
        serde_json::json!({"seed": 7, "min_uplift": 0.1}),
        "{plan:#}"
    );
    // no flags: the recorded gate
    let html = report(&env, &it, &env.tmp.path().join("a.html"), &[]);
    assert!(
        html.contains("<td><code>--min-uplift</code></td>"),
        "the recorded gate"
    );
    assert!(!html.contains("No gate was set"));
    // a flag given wins over the recorded one, the rest stay
    let html = report(
        &env,
        &it,
        &env.tmp.path().join("b.html"),
        &["--min-trigger-f1", "0.5"],
    );
    assert!(html.contains("<td><code>--min-uplift</code></td>"));
    assert!(html.contains("<td><code>--min-trigger-f1</code></td>"));
    // a run without gates records none, and the report says so
    let it2 = run_iteration(&env, &["--trials", "1"], 2);
    assert_eq!(
        read_json(&it2.join("plan.json"))["gates"],
        serde_json::json!({"seed": 0})
    );
    let html = report(&env, &it2, &env.tmp.path().join("c.html"), &[]);
    assert!(html.contains("No gate was set"));
}

#[test]
fn the_listing_shows_the_project_commands_claude_code_lists_beside_the_skills() {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/client/claude-code-commands");
    let t = tempfile::tempdir().unwrap();
    let html = render(&root, &t.path().join("r.html"));
    assert_only_own_markup(&html);
    let section = &html[html.find("<section id=\"listing\">").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    let listed = skillsift()
        .args(["listing", "--format", "json"])
        .arg(&root)
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let commands: Vec<&serde_json::Value> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "command")
        .collect();
    let shown = commands.iter().filter(|e| e["listed"] == true).count();
    assert!(
        section.contains(&format!(
            "It lists {shown} of the project's {} commands beside them (<code>.claude/commands/</code>), in the same budget.",
            commands.len()
        )),
        "{section}"
    );
    // the hidden command, marked as one
    assert!(
        section.contains("<b>release</b> <small class=\"tag\">command</small> <a href="),
        "{section}"
    );
    // a command whose text comes from its body
    let changed = &section[section.find("id=\"texts-changed\"").unwrap()..];
    assert!(
        changed.contains("<b>no-frontmatter</b> <small class=\"tag\">command</small>"),
        "{changed}"
    );
}

/// The confusion matrix's headers show the part of a plugin skill's name
/// that tells the columns apart (not `python-development:python-t…` cut
/// from the right), the full name on hover.
#[test]
fn matrix_headers_keep_the_part_of_a_plugin_skill_name_that_differs() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("cat");
    let w = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    w(
        ".claude-plugin/marketplace.json",
        r#"{"name":"mk","plugins":[{"name":"python-development","source":"./plugins/python-development"}]}"#,
    );
    w(
        "plugins/python-development/skills/python-testing/SKILL.md",
        "---\nname: python-testing\ndescription: Writes pytest tests for Python code. Use when the user asks for unit tests.\n---\nBody.\n",
    );
    w(
        "plugins/python-development/skills/python-packaging/SKILL.md",
        "---\nname: python-packaging\ndescription: Packages Python projects with pyproject and wheels. Use when the user publishes a package.\n---\nBody.\n",
    );
    w(
        "plugins/python-development/skills/python-testing/evals/trigger-evals.json",
        r#"[{"query": "package my python project as a wheel with tests", "should_trigger": true}, {"query": "write pytest unit tests", "should_trigger": true}]"#,
    );
    let html = render(&root, &t.path().join("r.html"));
    assert!(
        html.contains("<th class=\"col\" title=\"python-development:python-packaging\"><span>python-packaging</span></th>"),
        "{}",
        &html[html.find("matrix-wrap").unwrap_or(0)..][..2000.min(html.len())]
    );
    assert!(html.contains("title=\"python-development:python-testing\""));
}
