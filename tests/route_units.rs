//! Routing what users install as a unit as a unit, through the binary: a
//! two-plugin marketplace (`skills/<plugin>/skills/<skill>/`) whose skills
//! Claude Code lists as `<plugin>:<folder>`; each plugin routed against its
//! own skills, `[route] installed-together` restoring one listing, an
//! `owner` in the other plugin noted (SG513), a packs catalog
//! (`packs/<pack>/.apm/skills/`), a bad unit name refused, and
//! `rank --explain` still adding up with plugin names, within one unit
//! (`--unit`) as across the catalog.

mod route_common;

use route_common::{Cat, bin, with_rule};
use serde_json::{Value, json};

/// `shop` and `blog`, two plugins of one marketplace. "export the orders
/// to CSV" is `shop:cart-export`'s: within `shop` it ranks first, but
/// `blog:post-export` says "orders to CSV" twice and outranks it once both
/// are in one listing.
fn marketplace() -> Cat {
    let plugin_skill = |cat: Cat, plugin: &str, name: &str, description: &str| {
        cat.skill(
            &format!("{plugin}/skills/{name}"),
            &format!("name: {name}\ndescription: \"{description}\""),
        )
    };
    let cat = plugin_skill(
        Cat::new(),
        "shop",
        "cart-export",
        "Export shopping cart orders to a CSV file.",
    );
    let cat = plugin_skill(
        cat,
        "shop",
        "price-sync",
        "Sync product prices from the ERP into the store.",
    );
    let cat = plugin_skill(
        cat,
        "blog",
        "post-export",
        "Export blog posts and their orders to CSV: orders to CSV for any blog.",
    );
    plugin_skill(
        cat,
        "blog",
        "comment-moderation",
        "Moderate blog comments and block spam.",
    )
    .cases(
        "cart-export",
        &["export the orders to CSV"],
        &[("moderate the blog comments", Some("comment-moderation"))],
    )
}

fn route(v: &Value) -> &Value {
    &v["summary"]["route"]
}

#[test]
fn each_plugin_is_routed_against_its_own_skills() {
    let cat = marketplace();
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 0, "{v:#}");
    let r = route(&v);
    assert_eq!(r["positives"], 1, "{r}");
    assert_eq!(r["rank1"], 1, "{r}");
    assert_eq!(r["skills_routed"], 4, "{r}");
    assert_eq!(
        r["installs"],
        json!(["plugin `blog`", "plugin `shop`"]),
        "{r}"
    );
    assert!(with_rule(&v, "SG501").is_empty(), "{v:#}");
    // the owner is in `blog`, never in `shop`'s listing: noted, not failed
    let notes = with_rule(&v, "SG513");
    assert_eq!(notes.len(), 1, "{v:#}");
    let n = notes[0];
    assert_eq!(n["severity"], "notice", "{n:#}");
    assert_eq!(n["file"], "evals/cases/cart-export.json", "{n:#}");
    cat.assert_line(n, "evals/cases/cart-export.json", "moderate the blog");
    let msg = n["message"].as_str().unwrap();
    assert!(
        msg.contains("`shop:cart-export`: declared owner `comment-moderation` is in plugin `blog`"),
        "{msg}"
    );
    assert!(with_rule(&v, "SG504").is_empty(), "{v:#}");
    assert_eq!(r["checks_passed"], 2, "{r}");

    let (_, out, _) = cat.check_human(&[]);
    assert!(
        out.contains("routed as installed ([route] installed-together): 2 listings, each against its own skills: plugin `blog`, plugin `shop`"),
        "{out}"
    );
}

#[test]
fn installed_together_routes_the_plugins_in_one_listing() {
    for together in [r#"[["*"]]"#, r#"[["blog", "shop"]]"#] {
        let cat = marketplace().config(&format!("[route]\ninstalled-together = {together}\n"));
        let (code, v) = cat.check_json(&[]);
        assert_eq!(code, 0, "{together}: {v:#}");
        let r = route(&v);
        assert_eq!(r["positives"], 1, "{together}: {r}");
        // `blog:post-export` now competes, and wins
        assert_eq!(r["rank1"], 0, "{together}: {r}");
        assert_eq!(r["top3"], 1, "{together}: {r}");
        assert!(r.get("installs").is_none(), "{together}: {r}");
        // both are installed: the owner is ranked beside the skill again
        assert!(with_rule(&v, "SG513").is_empty(), "{together}: {v:#}");
        assert!(with_rule(&v, "SG504").is_empty(), "{together}: {v:#}");
        assert_eq!(r["checks_passed"], 2, "{together}: {r}");
    }
}

#[test]
fn a_name_that_is_no_unit_is_a_configuration_error() {
    let cat = marketplace().config("[route]\ninstalled-together = [[\"shop\", \"shopp\"]]\n");
    let out = bin()
        .arg("check")
        .arg(cat.root())
        .arg("--config")
        .arg(cat.config_path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(
            "[route] installed-together names `shopp`, which is no plugin or pack of this catalog"
        ),
        "{err}"
    );
    assert!(
        err.contains("name its units by folder: blog, shop"),
        "{err}"
    );

    let twice =
        marketplace().config("[route]\ninstalled-together = [[\"shop\"], [\"shop\", \"blog\"]]\n");
    let out = bin()
        .arg("check")
        .arg(twice.root())
        .arg("--config")
        .arg(twice.config_path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("names `shop` in installation 1 and again in 2"),
        "{err}"
    );
}

#[test]
fn a_pack_lists_its_skills_by_folder_and_is_routed_alone() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let skill = |rel: &str, name: &str, description: &str| {
        let d = root.join(rel);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n"),
        )
        .unwrap();
    };
    skill(
        "packs/jira/.apm/skills/jira-report",
        "jira-report",
        "Report the sprint status from Jira tickets.",
    );
    skill(
        "packs/jira/.apm/skills/jira-triage",
        "jira-triage",
        "Triage new Jira bugs by severity.",
    );
    skill(
        "packs/status/.apm/skills/status-report",
        "status-report",
        "Report the sprint status to stakeholders; a sprint status report.",
    );
    let evals = root.join("packs/jira/.apm/skills/jira-report/evals");
    std::fs::create_dir_all(&evals).unwrap();
    std::fs::write(
        evals.join("eval_queries.json"),
        r#"[{"query": "report the sprint status", "should_trigger": true}]"#,
    )
    .unwrap();
    let run = |config: &str| {
        let cfg = t.path().join("skillsift.toml");
        std::fs::write(&cfg, config).unwrap();
        let out = bin()
            .arg("check")
            .arg(root)
            .arg("--config")
            .arg(&cfg)
            .args(["--format", "json"])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
        });
        v
    };
    let v = run("");
    let r = route(&v);
    assert_eq!(r["positives"], 1, "{v:#}");
    assert_eq!(r["rank1"], 1, "{r}");
    assert_eq!(
        r["installs"],
        json!(["pack `jira`", "pack `status`"]),
        "{r}"
    );
    let v = run("[route]\ninstalled-together = [[\"*\"]]\n");
    assert_eq!(route(&v)["rank1"], 0, "{v:#}");
    // a pack's skills are copied into the project: listed by folder name
    let out = bin()
        .args(["rank", "report the sprint status", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["status-report", "jira-report"], "{v:#}");
}

#[test]
fn explain_adds_up_with_plugin_names() {
    let cat = marketplace();
    let out = bin()
        .args([
            "rank",
            "export the shop orders to CSV",
            "--explain",
            "--format",
            "json",
        ])
        .arg(cat.root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = v["results"].as_array().unwrap();
    assert!(
        results.iter().any(|r| r["name"] == "shop:cart-export"),
        "{v:#}"
    );
    for r in results {
        let sum: f64 = r["contributions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["prompt_weight"].as_f64().unwrap() * c["skill_weight"].as_f64().unwrap())
            .sum();
        assert!((sum - r["score"].as_f64().unwrap()).abs() < 1e-9, "{v:#}");
    }
}

#[test]
fn rank_unit_ranks_within_one_installation() {
    let cat = marketplace();
    let rank = |extra: &[&str]| {
        let out = bin()
            .args([
                "rank",
                "export the orders to CSV",
                "--explain",
                "--format",
                "json",
            ])
            .args(extra)
            .arg(cat.root())
            .output()
            .unwrap();
        (
            out.status.code(),
            out.stdout,
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, stdout, _) = rank(&["--unit", "shop"]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(v["skills_routed"], 2, "{v:#}");
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{v:#}");
    assert_eq!(results[0]["name"], "shop:cart-export", "{v:#}");
    let sum: f64 = results[0]["contributions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["prompt_weight"].as_f64().unwrap() * c["skill_weight"].as_f64().unwrap())
        .sum();
    assert!(
        (sum - results[0]["score"].as_f64().unwrap()).abs() < 1e-9,
        "{v:#}"
    );
    // across the catalog `blog:post-export` wins, as `check` routes it
    // with `installed-together = [["*"]]`
    let (_, stdout, _) = rank(&[]);
    let v: Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(v["results"][0]["name"], "blog:post-export", "{v:#}");
    // ... and it says that check ranks otherwise, and how to rank as check does
    assert_eq!(
        v["note"],
        "this ranks every skill of the catalog in one listing, which no user installs (so no listing budget applies); check routes each of its 2 installations in its own ([route] installed-together): --unit NAME ranks as check does (blog, shop)",
        "{v:#}"
    );
    let (_, stdout, _) = rank(&["--unit", "shop"]);
    let v: Value = serde_json::from_slice(&stdout).unwrap();
    assert!(v["note"].is_null(), "{v:#}");

    let (code, _, err) = rank(&["--unit", "shopp"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--unit shopp: this catalog has no plugin, marketplace entry or pack `shopp`")
            && err.contains("name one as `skillsift listing` prints it before `:`: blog, shop"),
        "{err}"
    );
}

/// A marketplace of 40 plugins (`plugins/<p>/` with a plugin.json, named
/// by `.claude-plugin/marketplace.json`, as wshobson/agents keeps 91),
/// each under Claude Code's listing budget while all of them together are
/// over it: no user installs all 40, so nothing is compared across
/// plugins. Equal descriptions in two plugins are no collision,
/// no listing is over its budget (SG520), no name is compared for a
/// description; a near-duplicate within one plugin still is an error.
#[test]
fn a_marketplace_of_forty_plugins_collides_only_within_each_plugin() {
    let cat = Cat::new();
    let root = cat.root();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    let kinds = [
        (
            "review",
            "Reviews pull requests for correctness, naming, error handling and missing tests, and writes inline comments a maintainer can act on before merging; use when someone asks for a code review, a second opinion on a diff, or feedback on a branch before it lands",
        ),
        (
            "deploy",
            "Ships a release to staging and production with health checks, canary steps and a rollback plan, and records what changed in the changelog; use when someone wants to deploy, promote a build, roll back a bad release or cut a new version for customers",
        ),
        (
            "testing",
            "Writes unit and integration tests, finds flaky ones, raises coverage on risky modules and keeps the suite fast enough for every push; use when someone asks to add tests, fix a failing or flaky test, or measure how much of the code the suite really exercises",
        ),
    ];
    let mut entries = Vec::new();
    for p in 0..40 {
        let name = format!("plugin-{p:02}");
        entries.push(json!({"name": name, "source": format!("./plugins/{name}")}));
        write(
            &format!("plugins/{name}/.claude-plugin/plugin.json"),
            &json!({ "name": name }).to_string(),
        );
        for (kind, text) in kinds {
            write(
                &format!("plugins/{name}/skills/{kind}/SKILL.md"),
                &format!("---\nname: {kind}\ndescription: \"{text}.\"\n---\n\n# {kind}\n\nBody.\n"),
            );
        }
    }
    // one near-duplicate within a plugin
    write(
        "plugins/plugin-07/skills/review-again/SKILL.md",
        &format!(
            "---\nname: review-again\ndescription: \"{}, for the plugin-07 team.\"\n---\n\n# review-again\n\nBody.\n",
            kinds[0].1
        ),
    );
    write(
        ".claude-plugin/marketplace.json",
        &json!({"name": "forty", "owner": {"name": "t"}, "plugins": entries}).to_string(),
    );
    let (_, v) = cat.check_json(&[]);
    let collisions: Vec<String> = ["SG510", "SG511"]
        .iter()
        .flat_map(|id| with_rule(&v, id))
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(collisions.len(), 1, "{collisions:#?}");
    assert!(
        collisions[0].contains("`plugin-07:review` and `plugin-07:review-again`"),
        "{collisions:#?}"
    );
    assert!(!collisions[0].contains("by name only"), "{collisions:#?}");
    assert!(with_rule(&v, "SG520").is_empty(), "{v:#}");
    assert_eq!(
        route(&v)["installs"].as_array().unwrap().len(),
        40,
        "{:#}",
        route(&v)
    );
    // the whole marketplace in one listing is over the budget: what the
    // same catalog says with every plugin installed together
    let cat = cat.config("[route]\ninstalled-together = [[\"*\"]]\n");
    let (_, all) = cat.check_json(&[]);
    assert!(!with_rule(&all, "SG520").is_empty(), "{all:#}");
}

/// A library users copy skills out of (`skills/<domain>/<skill>/`, as
/// PranavNagrecha/AwesomeSalesforceSkills keeps 978): every skill is
/// deeper than Claude Code reads, and there is no plugin or client skills
/// folder. Each skill is listed and routed as if copied on its own into
/// the skills folder, and the summary says so in one line; a catalog with
/// one skill where a client reads it keeps the deeper ones unlisted.
#[test]
fn a_library_of_nested_skills_routes_every_skill() {
    let cat = Cat::new()
        .skill(
            "admin/permission-sets",
            "name: permission-sets\ndescription: \"Designs Salesforce permission sets and profiles for least-privilege access.\"",
        )
        .skill(
            "apex/trigger-framework",
            "name: trigger-framework\ndescription: \"Structures Apex triggers with one handler per object and bulk-safe queries.\"",
        )
        .skill(
            "lwc/datatable",
            "name: datatable\ndescription: \"Builds Lightning web component datatables with inline editing and sorting.\"",
        )
        .cases(
            "trigger-framework",
            &["refactor our Apex triggers into one handler per object"],
            &[("give the support team least-privilege permission sets", Some("permission-sets"))],
        );
    let (code, v) = cat.check_json(&[]);
    assert_eq!(code, 0, "{v:#}");
    let r = route(&v);
    assert_eq!(r["skills_routed"], 3, "{r:#}");
    assert_eq!(r["library"], true, "{r:#}");
    assert_eq!(r["unroutable"], json!([]), "{r:#}");
    assert_eq!(r["checks"], 2, "{r:#}");
    assert_eq!(r["rank1"], 1, "{r:#}");
    let (_, text, _) = cat.check_human(&[]);
    assert_eq!(
        text.matches("routed as a library: every skill lies deeper than Claude Code reads")
            .count(),
        1,
        "{text}"
    );
    let out = bin()
        .arg("listing")
        .arg(cat.root())
        .args(["--format", "json"])
        .output()
        .unwrap();
    let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listing["library"], true);
    assert_eq!(
        listing["budget"],
        Value::Null,
        "nobody installs a library whole"
    );
    let names: Vec<(&str, bool)> = listing["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["listed"] == true))
        .collect();
    assert_eq!(
        names,
        [
            ("datatable", true),
            ("permission-sets", true),
            ("trigger-framework", true)
        ]
    );
    // one skill where the client reads it: not a library
    let cat = cat.simple("flat", "A skill one folder below skills/.");
    let (_, v) = cat.check_json(&[]);
    let r = route(&v);
    assert_eq!(r["library"], Value::Null, "{r:#}");
    assert_eq!(r["unroutable"].as_array().unwrap().len(), 3, "{r:#}");
}

/// `listing` of a catalog installed in parts shows each installation's
/// own listing, within its own budget, under one count of installations
/// that `check` and `rank` give too; `--unit` shows one installation.
#[test]
fn listing_shows_each_installation_and_one_with_unit() {
    let cat = marketplace();
    let out = bin().arg("listing").arg(cat.root()).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("4 skills in 2 installations as Claude Code shows them"),
        "{text}"
    );
    assert!(
        text.contains("\nplugin `blog`: 2 listed, 0 not; listing width "),
        "{text}"
    );
    assert!(
        text.contains("\nplugin `shop`: 2 listed, 0 not; listing width "),
        "{text}"
    );
    let out = bin()
        .arg("listing")
        .arg(cat.root())
        .args(["--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["budget"], Value::Null, "nobody installs both");
    let parts: Vec<(&str, Vec<&str>)> = v["installations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["label"].as_str().unwrap(),
                p["names"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_str().unwrap())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        parts,
        [
            (
                "plugin `blog`",
                vec!["blog:comment-moderation", "blog:post-export"]
            ),
            ("plugin `shop`", vec!["shop:cart-export", "shop:price-sync"]),
        ]
    );
    assert!(
        v["installations"][0]["budget"]["limit"].as_u64().is_some(),
        "{v:#}"
    );
    let out = bin()
        .arg("listing")
        .arg(cat.root())
        .args(["--unit", "shop"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("2 skills in plugin `shop` as Claude Code shows them"),
        "{text}"
    );
    assert!(!text.contains("blog:"), "{text}");
    // rank names the same installations check routes
    let out = bin()
        .arg("rank")
        .arg("export the orders")
        .arg(cat.root())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("check routes each of its 2 installations in its own"),
        "{text}"
    );
}

/// `init` drafts a plugin skill's negatives from the skills installed
/// with it: `shop:cart-export` says "orders to CSV" too, but it is in
/// another plugin, never in `blog`'s listing, so it is no near miss.
#[test]
fn init_drafts_negatives_from_the_skills_installed_together() {
    let cat = marketplace();
    let run = |cat: &Cat| {
        let out = bin()
            .arg("init")
            .arg("blog:post-export")
            .arg(cat.root())
            .arg("--config")
            .arg(cat.config_path())
            .args(["--dry-run", "--format", "json"])
            .output()
            .unwrap();
        format!(
            "{}{}",
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap()
        )
    };
    let text = run(&cat);
    // `blog`'s other skill has no prompt or "Use when" to draw from
    assert!(
        text.contains("nothing to draft: the description has no \"Use when …\" clause, and no prompt of the other skills of plugin `blog`, installed with it, is a near miss for it"),
        "{text}"
    );
    assert!(!text.contains("cart-export"), "{text}");
    // with both plugins installed together it is the nearest miss
    let cat = cat.config("[route]\ninstalled-together = [[\"*\"]]\n");
    let text = run(&cat);
    assert!(text.contains("\"owner\": \"cart-export\""), "{text}");
}
