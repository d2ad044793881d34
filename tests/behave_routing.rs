//! `check --behavioral-routing` end to end against each real CLI and a
//! scripted model endpoint on 127.0.0.1 (tests/scripted): a 5-skill
//! catalog, a routing rule in the script (a cue in the prompt names the
//! skill the model loads), every trigger prompt run once with the whole
//! catalog installed, and `routing.json` and the printed summary checked
//! against what the rule and Tier 2 give. Each test skips with a message
//! when its CLI is not installed (`bash .ci/run` installs them; put their
//! folder on PATH or set SKILLSIFT_<CLIENT>).

mod real_client;
mod scripted;

use predicates::prelude::*;
use scripted::{Client, Lab, Script};
use serde_json::{Value, json};

/// The prompts: (case file's skill, expect, owner, prompt).
const BOTH_RIGHT: &str = "The invoice total is off by a cent, fix it";
const BLIND_SPOT: &str = "Our bill shows 9.99 but it should say 10.00";
const DIAGRAM: &str = "Draw the architecture diagram";
const MISLED: &str = "Fill in the PDF form for the tax office";
const SLOW: &str = "The SQL query on the orders table is slow";
const OWNED: &str = "Write the release notes for version 2";
const WRONG: &str = "Announce the new release in the team chat";
/// A positive of sql-tuning `with` release-notes: the model loads
/// release-notes first, then sql-tuning; the run goes on past the first.
const WITH: &str = "Tune the slow report, and put it in the notes";

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn dialogue() -> Value {
    json!([{"id": 1, "kind": "dialogue", "prompt": "Say hi", "expected_output": "hi", "expectations": ["It says hi"]}])
}

/// The lab: demo-skill and other-skill (the lab's own), pdf-forms,
/// sql-tuning and release-notes, and a model that loads the skill the
/// prompt's cue names (none for the PDF prompt).
fn routing_lab(client: Client, cli: &std::path::Path) -> Lab {
    let demo = json!({
        "skill_name": "demo-skill",
        "trigger": {
            "positive": [{"prompt": BOTH_RIGHT}, {"prompt": BLIND_SPOT, "lexical": false}],
            "negative": [],
        },
        "evals": dialogue(),
    })
    .to_string();
    let lab = Lab::for_client(
        client,
        cli,
        Script::new("demo-skill").routes(&[
            ("cent", "demo-skill"),
            ("9.99", "demo-skill"),
            ("diagram", "other-skill"),
            ("query", "sql-tuning"),
            ("Tune", "release-notes,sql-tuning"),
            ("release notes", "release-notes"),
            ("Announce", "release-notes"),
        ]),
        &demo,
    );
    let root = &lab.root;
    for (name, description) in [
        (
            "pdf-forms",
            "Fills in PDF forms. Use when the user has a PDF form to fill in.",
        ),
        (
            "sql-tuning",
            "Speeds up slow SQL queries. Use when a query on a database table is slow.",
        ),
        (
            "release-notes",
            "Writes release notes from the git history. Use when a release needs notes.",
        ),
    ] {
        write(
            root,
            &format!("skills/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n"),
        );
    }
    for (name, positive, negative) in [
        ("pdf-forms", json!([{"prompt": MISLED}]), json!([])),
        (
            "sql-tuning",
            json!([{"prompt": SLOW}, {"prompt": WITH, "with": ["release-notes"]}]),
            json!([{"prompt": OWNED, "owner": "release-notes"}]),
        ),
        ("release-notes", json!([]), json!([{"prompt": WRONG}])),
    ] {
        write(
            root,
            &format!("evals/cases/{name}.json"),
            &json!({"skill_name": name, "trigger": {"positive": positive, "negative": negative}, "evals": dialogue()}).to_string(),
        );
    }
    lab
}

fn routing(lab: &Lab, args: &[&str]) -> assert_cmd::Command {
    let mut c = lab.skillsift();
    c.args(["check", "--behavioral-routing", "catalog", "--trials", "1"])
        .args(args);
    c
}

/// What routing.json says of each prompt, without the per-run details.
fn prompt_view(p: &Value) -> Value {
    json!({
        "prompt": p["prompt"], "skill": p["skill"], "expect": p["expect"],
        "owner": p["owner"], "tier2_first": p["tier2"][0], "loaded": p["loaded"],
        "model_correct": p["model_correct"], "tier2_correct": p["tier2_correct"],
        "agree": p["agree"],
    })
}

fn expect_prompt(
    prompt: &str,
    skill: &str,
    positive: bool,
    owner: Option<&str>,
    tier2_first: Option<&str>,
    loaded: &[&str],
    (model, tier2, agree): (bool, bool, bool),
) -> Value {
    json!({
        "prompt": prompt, "skill": skill,
        "expect": if positive { "positive" } else { "negative" },
        "owner": owner, "tier2_first": tier2_first, "loaded": [loaded],
        "model_correct": model, "tier2_correct": tier2, "agree": agree,
    })
}

/// The done-when of issue 21 §3 for one client: the dry run spawns
/// nothing, the run writes the expected routing.json and prints the
/// summary and the three groups.
fn routes_the_catalog(client: Client) {
    let Some(cli) = real_client::cli(client.id()) else {
        return;
    };
    let lab = routing_lab(client, &cli);
    let dry = routing(&lab, &["--dry-run"]).assert().code(0);
    let dry = String::from_utf8_lossy(&dry.get_output().stdout).into_owned();
    assert!(
        dry.contains("8 prompts of 5 skills × 1 trial = 8 runs"),
        "{dry}"
    );
    assert!(
        lab.endpoint.server.requests().is_empty(),
        "the dry run spawns nothing"
    );
    let planned: Value = serde_json::from_slice(
        &routing(&lab, &["--dry-run", "--format", "json"])
            .assert()
            .code(0)
            .get_output()
            .stdout,
    )
    .unwrap();
    let out = routing(&lab, &[]).assert().code(0);
    // the dry run's token floor is what the client's first requests sent,
    // within a quarter (4 bytes of the compact JSON body a token)
    let sent: usize = lab
        .endpoint
        .runs()
        .iter()
        .map(|r| serde_json::to_string(r).unwrap().len().div_ceil(4))
        .sum();
    let estimate = planned["input_tokens_at_least"].as_u64().unwrap() as f64;
    assert!(
        (sent as f64 - estimate).abs() <= estimate / 4.0,
        "{client:?}: the first requests sent ≈ {sent} tokens, the dry run estimated {estimate}"
    );
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let path = lab
        .root
        .join("evals/results/_routing/iteration-1/routing.json");
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}\n{stdout}\n{stderr}")),
    )
    .unwrap();
    assert_eq!(doc["client"], client.id(), "{doc}");
    assert!(
        doc["client_version"]
            .as_str()
            .is_some_and(|v| !v.is_empty())
    );
    assert_eq!(doc["trials"], 1);
    assert_eq!(
        doc["skills"],
        json!([
            "demo-skill",
            "other-skill",
            "pdf-forms",
            "release-notes",
            "sql-tuning"
        ])
    );
    let got: Vec<Value> = doc["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(prompt_view)
        .collect();
    let want = vec![
        expect_prompt(
            BOTH_RIGHT,
            "demo-skill",
            true,
            None,
            Some("demo-skill"),
            &["demo-skill"],
            (true, true, true),
        ),
        expect_prompt(
            BLIND_SPOT,
            "demo-skill",
            true,
            None,
            None,
            &["demo-skill"],
            (true, false, false),
        ),
        expect_prompt(
            DIAGRAM,
            "other-skill",
            true,
            None,
            Some("other-skill"),
            &["other-skill"],
            (true, true, true),
        ),
        expect_prompt(
            MISLED,
            "pdf-forms",
            true,
            None,
            Some("pdf-forms"),
            &[],
            (false, true, false),
        ),
        expect_prompt(
            WRONG,
            "release-notes",
            false,
            None,
            Some("release-notes"),
            &["release-notes"],
            (false, false, true),
        ),
        expect_prompt(
            SLOW,
            "sql-tuning",
            true,
            None,
            Some("sql-tuning"),
            &["sql-tuning"],
            (true, true, true),
        ),
        expect_prompt(
            WITH,
            "sql-tuning",
            true,
            None,
            Some("sql-tuning"),
            &["release-notes", "sql-tuning"],
            (true, true, true),
        ),
        expect_prompt(
            OWNED,
            "sql-tuning",
            false,
            Some("release-notes"),
            Some("release-notes"),
            &["release-notes"],
            (true, true, true),
        ),
    ];
    assert_eq!(got, want, "{stdout}\n{stderr}");
    assert_eq!(
        doc["summary"],
        json!({"prompts": 8, "model_correct": 6, "tier2_correct": 6, "agree": 6,
               "tier2_only": 1, "model_only": 1, "both_wrong": 1, "failed_runs": 0})
    );
    let lexical: Vec<bool> = doc["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["lexical"].as_bool().unwrap())
        .collect();
    assert_eq!(lexical, [true, false, true, true, true, true, true, true]);
    for p in doc["prompts"].as_array().unwrap() {
        let stop = &p["trials"][0]["stop"];
        let loaded = !p["loaded"][0].as_array().unwrap().is_empty();
        assert_eq!(stop, if loaded { "skill-loaded" } else { "ended" }, "{p}");
    }
    for line in [
        "model    routed as the authors expect: 6/8 (75 %)",
        "tier 2   first choice as the authors expect: 6/8 (75 %); equal to the model's choice: 6/8 (75 %)",
        "Tier 2 right, model wrong (the description misleads the model): 1",
        &format!("  \"{MISLED}\" (positive of pdf-forms): model loaded nothing; Tier 2: pdf-forms"),
        "Tier 2 wrong, model right (a lexical blind spot: candidate for \"lexical\": false): 1",
        &format!("  \"{BLIND_SPOT}\" (positive of demo-skill): model loaded demo-skill; Tier 2: "),
        "both wrong: 1",
        &format!(
            "  \"{WRONG}\" (negative of release-notes): model loaded release-notes; Tier 2: release-notes"
        ),
    ] {
        assert!(stdout.contains(line), "missing {line:?} in\n{stdout}");
    }
    assert!(
        predicate::str::contains("skillsift: canary: ").eval(&stderr),
        "{stderr}"
    );
    // every run installed the whole catalog: each listing names all five
    let runs = lab.endpoint.runs();
    assert_eq!(runs.len(), 8, "one run per prompt");
    for r in &runs {
        for s in [
            "demo-skill",
            "other-skill",
            "pdf-forms",
            "sql-tuning",
            "release-notes",
        ] {
            assert!(lab.endpoint.lists(r, s), "the listing names {s}");
        }
    }
    // a second run is iteration 2, and the JSON format prints the document
    let out = routing(&lab, &["--format", "json"]).assert().code(0);
    let printed: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(printed["summary"], doc["summary"]);
    assert!(
        lab.root
            .join("evals/results/_routing/iteration-2/routing.json")
            .is_file()
    );
    // the report draws the latest routing.json beside the Tier 2 matrix
    lab.skillsift()
        .args(["report", "catalog", "-o", "report.html"])
        .assert()
        .code(0);
    let html = std::fs::read_to_string(lab.root.parent().unwrap().join("report.html")).unwrap();
    assert!(html.contains("<section id=\"model-routing\">"), "{html}");
    assert!(html.contains("evals/results/_routing/iteration-2/routing.json"));
    assert!(html.contains(&format!("<tr><td>{MISLED}</td><td>positive of <code>pdf-forms</code></td><td>nothing</td><td>pdf-forms")));
    assert_eq!(lab.leftovers(), Vec::<String>::new(), "nothing left behind");
    assert_eq!(
        lab.escaped(),
        Vec::<String>::new(),
        "no request left 127.0.0.1"
    );
}

#[test]
#[cfg_attr(
    skillsift_missing_claude,
    ignore = "needs `claude` (Claude Code) on PATH or at SKILLSIFT_CLAUDE; bash .ci/run installs the pinned version"
)]
fn claude_code_routes_the_catalog_beside_tier_2() {
    routes_the_catalog(Client::Claude);
}

#[test]
#[cfg_attr(
    skillsift_missing_codex,
    ignore = "needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn codex_routes_the_catalog_beside_tier_2() {
    routes_the_catalog(Client::Codex);
}

#[test]
#[cfg_attr(
    skillsift_missing_gemini,
    ignore = "needs `gemini` (Gemini CLI) on PATH or at SKILLSIFT_GEMINI; bash .ci/run installs the pinned version"
)]
fn gemini_cli_routes_the_catalog_beside_tier_2() {
    routes_the_catalog(Client::Gemini);
}

#[test]
#[cfg_attr(
    skillsift_missing_opencode,
    ignore = "needs `opencode` on PATH or at SKILLSIFT_OPENCODE; bash .ci/run installs the pinned version"
)]
fn opencode_routes_the_catalog_beside_tier_2() {
    routes_the_catalog(Client::Opencode);
}

/// Without any CLI: the dry run lists every prompt (an escape sequence in
/// one shown escaped), the same JSON twice, and the flags that do not
/// apply, a second client, a runner, a format other than human or JSON and
/// a single skill are refused before anything runs.
#[test]
fn the_dry_run_spawns_nothing_shows_prompts_escaped_and_bad_flags_are_refused() {
    let lab = routing_lab(Client::Claude, std::path::Path::new("/nonexistent/claude"));
    // an escape sequence, and 400 characters: shown escaped and cut to 160
    let hostile = format!(
        "Print \u{1b}[31mred\u{1b}[0m text{}",
        " and more".repeat(43)
    );
    write(
        &lab.root,
        "evals/cases/pdf-forms.json",
        &json!({"skill_name": "pdf-forms", "trigger": {"positive": [{"prompt": MISLED}], "negative": [{"prompt": hostile}]}, "evals": dialogue()}).to_string(),
    );
    let out = routing(&lab, &["--dry-run"]).assert().code(0);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("9 prompts of 5 skills × 1 trial = 9 runs"),
        "{stdout}"
    );
    assert!(
        stdout.contains("or 5 model turns: at most 45 model turns in all, no grader call"),
        "{stdout}"
    );
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
    let cut: String = hostile.chars().take(160).collect::<String>();
    let cut = cut.replace('\u{1b}', "\\x1b");
    assert!(
        stdout.contains(&format!("\"{cut}…\" (Tier 2: ")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "  positive of pdf-forms: \"{MISLED}\" (Tier 2: pdf-forms"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("tokens   ≥ ")
            && stdout.contains(" input tokens: the first request of each run, "),
        "{stdout}"
    );
    let json = |args: &[&str]| {
        let o = routing(&lab, args).assert().code(0);
        o.get_output().stdout.clone()
    };
    let a = json(&["--dry-run", "--format", "json", "--shard", "2/3"]);
    assert_eq!(
        a,
        json(&["--dry-run", "--format", "json", "--shard", "2/3"])
    );
    let doc: Value = serde_json::from_slice(&a).unwrap();
    assert_eq!(doc["shard"], "2/3");
    let shown: Vec<&str> = doc["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["prompt"].as_str().unwrap())
        .collect();
    assert_eq!(
        shown,
        [BLIND_SPOT, hostile.as_str(), WITH],
        "prompts 2, 5 and 8 of 9"
    );
    assert!(!a.contains(&0x1b), "JSON escapes it too");
    assert!(lab.endpoint.server.requests().is_empty());
    for (args, says) in [
        (&["--with-siblings"][..], "--with-siblings does not apply"),
        (
            &["--trigger-runs", "full"][..],
            "--trigger-runs full does not apply",
        ),
        (&["--runner", "echo"][..], "--runner does not apply"),
        (&["--agent", "claude,codex"][..], "one client at a time"),
        (&["--format", "sarif"][..], "not --format sarif"),
        (&["--behavioral", "demo-skill"][..], "cannot be used with"),
    ] {
        routing(&lab, args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    lab.skillsift()
        .args(["check", "--behavioral-routing", "catalog/skills/pdf-forms"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs the catalog root"));
    assert!(!lab.root.join("evals/results").exists(), "nothing written");
    assert!(lab.endpoint.server.requests().is_empty(), "nothing spawned");
}

/// A catalog that holds a plugin (`plugins/shop/skills/…`) is installed in
/// parts: a prompt of the plugin's skill runs with the plugin's skills
/// only, its Tier 2 ranks within them, and an `owner` outside it is
/// dropped (never listed beside it); the catalog's own skills run without
/// the plugin's. Said in the dry run, human and JSON, and, with the real
/// CLI, seen in what each run's first request lists.
fn routes_each_installation_alone(client: Client, cli: &std::path::Path) {
    let lab = routing_lab(client, cli);
    for (name, description) in [
        ("cart-export", "Export shopping cart orders to a CSV file."),
        (
            "price-sync",
            "Sync product prices from the ERP into the store.",
        ),
    ] {
        write(
            &lab.root,
            &format!("plugins/shop/skills/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n"),
        );
    }
    write(
        &lab.root,
        "evals/cases/cart-export.json",
        &json!({"skill_name": "cart-export", "trigger": {
            "positive": [{"prompt": "Export the cart orders of the SQL database table to CSV"}],
            "negative": [{"prompt": "Sync the prices", "owner": "release-notes"}],
        }, "evals": dialogue()})
        .to_string(),
    );
    let out = routing(&lab, &["--dry-run"]).assert().code(0);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("10 prompts of 7 skills × 1 trial = 10 runs"),
        "{stdout}"
    );
    assert!(
        stdout.contains("each run installs the skills of its prompt's installation (one of 2, as users install them)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  positive of cart-export in plugin `shop`: \"Export the cart orders of the SQL database table to CSV\" (Tier 2: cart-export"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  positive of sql-tuning in the catalog's own skills: "),
        "{stdout}"
    );
    let doc: Value = serde_json::from_slice(
        &routing(&lab, &["--dry-run", "--format", "json"])
            .assert()
            .code(0)
            .get_output()
            .stdout,
    )
    .unwrap();
    assert_eq!(
        doc["installations"],
        json!([
            {"label": "plugin `shop`", "skills": ["cart-export", "price-sync"]},
            {"label": "the catalog's own skills", "skills": ["demo-skill", "other-skill", "pdf-forms", "release-notes", "sql-tuning"]},
        ]),
        "{doc:#}"
    );
    let cart: Vec<&Value> = doc["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["skill"] == "cart-export")
        .collect();
    assert_eq!(cart.len(), 2, "{doc:#}");
    for p in &cart {
        assert_eq!(p["installation"], "plugin `shop`", "{p:#}");
        for t in p["tier2"].as_array().unwrap() {
            assert!(t == "cart-export" || t == "price-sync", "{p:#}");
        }
    }
    // release-notes is not in `shop`: no owner a run could load
    assert_eq!(cart[1]["owner"], Value::Null, "{:#}", cart[1]);
    if !cli.exists() {
        return;
    }
    routing(&lab, &[]).assert().code(0);
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(
            lab.root
                .join("evals/results/_routing/iteration-1/routing.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        doc["installations"],
        json!(["plugin `shop`", "the catalog's own skills"])
    );
    // what each run's first request listed
    let runs = lab.endpoint.runs();
    let first = |prompt: &str| {
        let hits: Vec<String> = runs
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .filter(|r| r.contains(prompt))
            .collect();
        assert_eq!(hits.len(), 1, "{prompt}: {} requests", hits.len());
        hits.into_iter().next().unwrap()
    };
    let cart = first("Export the cart orders of the SQL database table to CSV");
    assert!(
        cart.contains("price-sync"),
        "the plugin's skills are listed"
    );
    assert!(!cart.contains("sql-tuning"), "the catalog's own are not");
    let slow = first(SLOW);
    assert!(slow.contains("sql-tuning") && !slow.contains("price-sync"));
}

#[test]
fn a_plugin_is_routed_with_its_own_skills_only() {
    let cli = real_client::cli(Client::Claude.id());
    routes_each_installation_alone(
        Client::Claude,
        cli.as_deref()
            .unwrap_or(std::path::Path::new("/nonexistent/claude")),
    );
}

/// `skillsift report` on a catalog with a routing.json (written here, no
/// CLI needed): the Model routing section after the confusion matrix, its
/// figures and groups, untrusted text escaped; a routing.json that cannot
/// be read is left out with a note, and the page is still written.
#[test]
fn the_report_draws_the_latest_routing_json_beside_the_matrix() {
    let lab = routing_lab(Client::Claude, std::path::Path::new("/nonexistent/claude"));
    let trial = |loaded: &[&str], correct: bool, agree: bool| json!({"loaded": loaded, "stop": if loaded.is_empty() { "ended" } else { "skill-loaded" }, "turns": 1, "tokens": 10, "correct": correct, "agree": agree});
    let p = |prompt: &str,
             skill: &str,
             tier2: &[&str],
             loaded: &[&str],
             m: bool,
             t: bool,
             a: bool| {
        json!({"prompt": prompt, "skill": skill, "expect": "positive", "owner": null, "lexical": true,
               "file": format!("evals/cases/{skill}.json"), "tier2": tier2, "loaded": [loaded],
               "trials": [trial(loaded, m, a)], "model_correct": m, "tier2_correct": t, "agree": a})
    };
    let doc = json!({
        "format": 1, "client": "claude", "client_version": "9.9.9 <b>", "model": null,
        "trials": 1, "trigger_turns": 5, "shard": "1/1",
        "skills": ["demo-skill", "pdf-forms"],
        "prompts": [
            p(BOTH_RIGHT, "demo-skill", &["demo-skill"], &["demo-skill"], true, true, true),
            p("<script>alert(1)</script> fill the PDF", "pdf-forms", &["pdf-forms"], &[], false, true, false),
        ],
        "summary": {"prompts": 2, "model_correct": 1, "tier2_correct": 2, "agree": 1,
                    "tier2_only": 1, "model_only": 0, "both_wrong": 0, "failed_runs": 0},
    });
    write(
        &lab.root,
        "evals/results/_routing/iteration-1/routing.json",
        "{\"format\": 1}",
    );
    write(
        &lab.root,
        "evals/results/_routing/iteration-3/routing.json",
        &serde_json::to_string_pretty(&doc).unwrap(),
    );
    let report = |lab: &Lab| {
        let out = lab
            .skillsift()
            .args(["report", "catalog", "-o", "report.html"])
            .assert()
            .code(0);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        (
            std::fs::read_to_string(lab.root.parent().unwrap().join("report.html")).unwrap(),
            stderr,
        )
    };
    let (html, _) = report(&lab);
    let matrix = html.find("<section id=\"confusion\">").unwrap();
    let model = html
        .find("<section id=\"model-routing\">")
        .expect("the section");
    assert!(matrix < model, "after the matrix");
    assert!(html.contains("<a href=\"#model-routing\">Model routing</a>"));
    assert!(html.contains("evals/results/_routing/iteration-3/routing.json"));
    assert!(html.contains("<b>50%</b><span>the model routed as expected (1/2)</span>"));
    assert!(html.contains("Tier 2 right, model wrong (the description misleads the model) (1)"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; fill the PDF"));
    assert!(html.contains("9.9.9 &lt;b&gt;"));
    assert!(!html.contains("<script>alert"));
    // the latest is unreadable: left out, said so
    write(
        &lab.root,
        "evals/results/_routing/iteration-4/routing.json",
        "not json",
    );
    let (html, stderr) = report(&lab);
    assert!(!html.contains("<section id=\"model-routing\">"));
    assert!(stderr.contains("left out of the report: "), "{stderr}");
}

/// A copy of a catalog skill where every Codex run would see it (the
/// user's `~/.agents/skills/`) stops the run before the canary, exit 2.
#[test]
#[cfg_attr(
    skillsift_missing_codex,
    ignore = "needs `codex` (Codex CLI) on PATH or at SKILLSIFT_CODEX; bash .ci/run installs the pinned version"
)]
fn codex_refuses_a_personal_copy_of_a_catalog_skill() {
    let Some(cli) = real_client::cli("codex") else {
        return;
    };
    let lab = routing_lab(Client::Codex, &cli);
    write(
        &lab.home,
        ".agents/skills/pdf-forms/SKILL.md",
        "---\nname: pdf-forms\ndescription: An old copy.\n---\n# old\n",
    );
    routing(&lab, &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "Codex would see other copies of catalog skills in every run: `pdf-forms`: ",
        ))
        .stderr(predicate::str::contains("--allow-personal-copy"));
    assert!(lab.endpoint.server.requests().is_empty(), "nothing ran");
    assert!(!lab.root.join("evals/results").exists());
}
