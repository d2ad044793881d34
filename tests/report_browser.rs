//! The HTML reports opened in a real, headless Chromium: element counts
//! against what `check` reports, a click on a matrix cell that reveals its
//! prompts, the skill filter, light and dark colours, and no console
//! error, exception, dialog or network request, hostile text included.
//!
//! Skips (with a message) when no Chromium is installed. With
//! `SKILLSIFT_SCREENSHOTS=DIR` it also writes `routing.png` and
//! `behavioral.png` there (the pictures of docs/report.md come from
//! `SKILLSIFT_SCREENSHOTS=docs/img cargo test --test report_browser`).

mod browser_support;
mod common;
mod report_support;

use browser_support::Browser;
use common::skillsift;
use report_support::behave::Env;
use report_support::{
    HOSTILE, check_doc, hostile_catalog, report, run_iteration, scored_cases, xss_eval,
};
use serde_json::json;
use std::path::{Path, PathBuf};

fn screenshot(page: &mut browser_support::Page, name: &str) {
    if let Some(dir) = std::env::var_os("SKILLSIFT_SCREENSHOTS") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), page.screenshot()).unwrap();
    }
}

/// The addyosmani catalog when it is here, else the misrouted fixture.
fn catalog() -> PathBuf {
    let real =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/addyosmani-agent-skills");
    if real.is_dir() {
        real
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("evals/fixtures/misrouted-prompt")
    }
}

#[test]
#[cfg_attr(
    skillsift_missing_chromium,
    ignore = "needs Chromium on PATH or at SKILLSIFT_CHROMIUM (apt-get install chromium)"
)]
fn the_routing_report_works_in_chromium() {
    let Some(mut browser) = Browser::start() else {
        return;
    };
    let root = catalog();
    let t = tempfile::tempdir().unwrap();
    let file = t.path().join("routing.html");
    // from the catalog's folder, so the page names it as a user would
    skillsift()
        .current_dir(root.parent().unwrap())
        .arg("report")
        .arg(root.file_name().unwrap())
        .arg("-o")
        .arg(&file)
        .assert()
        .code(0);
    let v = check_doc(&root);
    let mut page = browser.open(&file, "");
    assert_eq!(page.problems(), Vec::<String>::new());
    assert_eq!(page.count("script"), 1);
    assert_eq!(
        page.count("#skill-table tbody tr"),
        v["summary"]["route"]["skills_routed"].as_u64().unwrap()
    );
    // every finding is listed under its rule, but those on a trigger
    // prompt, which are listed under their skill
    let diags = v["diagnostics"].as_array().unwrap();
    let on_prompts = diags
        .iter()
        .filter(|d| {
            matches!(
                d["rule"].as_str(),
                Some("SG501" | "SG502" | "SG503" | "SG504")
            )
        })
        .count() as u64;
    assert_eq!(
        page.count("ul.findings li:not(.more)") + on_prompts,
        diags.len() as u64
    );
    assert_eq!(page.count("ul.failed span.rule"), on_prompts);
    screenshot(&mut page, "routing.png");

    // a cell off the diagonal, clicked, shows as many prompts as it counts
    let cells = page.count("table.matrix td.off a[href^='#p']");
    assert!(cells > 0);
    let (id, n) = {
        let v = page.eval("(() => { const a = document.querySelector(\"table.matrix td.off a[href^='#p']\"); return [a.getAttribute('href').slice(1), parseInt(a.textContent, 10)]; })()");
        (v[0].as_str().unwrap().to_string(), v[1].as_u64().unwrap())
    };
    let display = format!(
        "getComputedStyle(document.getElementById({})).display",
        json!(id)
    );
    assert_eq!(page.eval(&display), "none", "hidden before the click");
    page.click("table.matrix td.off a[href^='#p']");
    assert_eq!(page.eval("location.hash"), format!("#{id}"));
    assert_eq!(page.eval(&display), "block", "shown after the click");
    assert_eq!(
        page.count(&format!("#{id} ol.prompts > li")),
        n,
        "the cell lists its prompts"
    );
    assert_eq!(page.count(".cell:not(:target)") + 1, page.count(".cell"));

    // the filter narrows the skills table to one name
    let name = page.eval("document.querySelector('#skill-table tbody tr').dataset.name");
    page.click("#skill-filter");
    page.type_text(name.as_str().unwrap());
    assert_eq!(page.count("#skill-table tbody tr:not(.hidden)"), 1);

    // light and dark
    let bg = "getComputedStyle(document.body).backgroundColor";
    page.color_scheme("light");
    assert_eq!(page.eval(bg), "rgb(255, 255, 255)");
    page.color_scheme("dark");
    assert_eq!(page.eval(bg), "rgb(21, 24, 28)");
    screenshot(&mut page, "routing-dark.png");
    assert_eq!(
        page.eval("getComputedStyle(document.body).color"),
        "rgb(228, 231, 234)"
    );
    assert_eq!(page.problems(), Vec::<String>::new());
}

#[test]
#[cfg_attr(
    skillsift_missing_chromium,
    ignore = "needs Chromium on PATH or at SKILLSIFT_CHROMIUM (apt-get install chromium)"
)]
fn hostile_text_stays_text_in_chromium() {
    let Some(mut browser) = Browser::start() else {
        return;
    };
    let t = tempfile::tempdir().unwrap();
    let root = hostile_catalog(t.path());
    let file = t.path().join("hostile.html");
    skillsift()
        .arg("report")
        .arg(&root)
        .arg("-o")
        .arg(&file)
        .assert()
        .code(0);
    let mut page = browser.open(&file, "");
    assert_eq!(page.count("script"), 1, "no script but the report's own");
    assert_eq!(page.count("img"), 0);
    // open the cell listing the hostile prompt through its link
    let id = page.eval("[...document.querySelectorAll('.cell')].find(c => c.textContent.includes(\"alert('x')\")).id");
    page.click(&format!("a[href='#{}']", id.as_str().unwrap()));
    let shown = page.eval(&format!("document.getElementById({}).innerText", json!(id)));
    assert!(shown.as_str().unwrap().contains(HOSTILE), "{shown}");
    // every link stays on this page or in the catalog's folder
    let links = page.eval("[...document.querySelectorAll('a[href]')].map(a => new URL(a.getAttribute('href'), document.baseURI).protocol)");
    for p in links.as_array().unwrap() {
        assert_eq!(p, "file:", "{links}");
    }
    assert_eq!(page.problems(), Vec::<String>::new());
}

#[test]
#[cfg_attr(
    skillsift_missing_chromium,
    ignore = "needs Chromium on PATH or at SKILLSIFT_CHROMIUM (apt-get install chromium)"
)]
fn the_behavioral_report_works_in_chromium() {
    let Some(mut browser) = Browser::start() else {
        return;
    };
    let env = Env::new();
    env.cases(&scored_cases(Some(xss_eval())));
    run_iteration(&env, &["--trials", "1"], 1);
    let skill = env.root.join("skills/demo-skill/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    std::fs::write(&skill, text.replace("test-first", "test-first, always")).unwrap();
    let it = run_iteration(&env, &["--trials", "2"], 2);
    let file = env.tmp.path().join("behavioral.html");
    // as a user in the catalog's parent folder would name it
    let shown = it.strip_prefix(env.tmp.path()).unwrap();
    report(
        &env,
        shown,
        &file,
        &["--min-uplift", "0.2", "--min-trigger-f1", "0.9"],
    );
    let mut page = browser.open(&file, "");
    assert_eq!(page.problems(), Vec::<String>::new());
    assert_eq!(page.count("script"), 1);
    screenshot(&mut page, "behavioral.png");
    assert_eq!(page.count("article.eval"), 11);
    assert_eq!(page.count("article.eval .trial"), 11 * 2 * 2);
    // every eval with the skill passes but eval 8; without, only 5 and 9
    assert_eq!(page.count(".arm.with .trial.pass"), 10 * 2);
    assert_eq!(page.count(".arm.without .trial.pass"), 2 * 2);
    assert_eq!(page.count(".trial.none"), 0);
    assert_eq!(
        page.count("svg.trend polyline.with"),
        1,
        "two iterations joined"
    );
    assert_eq!(
        page.count("svg.trend text.step"),
        1,
        "the skill changed once"
    );
    assert_eq!(page.count("svg.interval line.gate"), 1);
    let body = page.eval("document.body.textContent");
    let body = body.as_str().unwrap();
    assert!(body.contains("</script><script>alert(\"output\")</script>"));
    assert!(
        body.contains("</script><script>alert(\"evidence\")</script> & 'q' javascript:alert(5)")
    );
    // a trial's tool calls open on a click
    let open = page.count("article.eval .trial details[open]");
    assert_eq!(page.count("article.eval .trial details[open] ol.calls"), 0);
    page.click("article.eval .trial details:not([open]) > summary");
    assert_eq!(page.count("article.eval .trial details[open]"), open + 1);
    assert!(page.count("article.eval .trial details[open] ol.calls li") > 0);
    page.color_scheme("dark");
    assert_eq!(
        page.eval("getComputedStyle(document.body).backgroundColor"),
        "rgb(21, 24, 28)"
    );
    assert_eq!(page.problems(), Vec::<String>::new());
}
