//! The `skillsift rank` cache: runs that use it print exactly what runs
//! without it print, and every change on disk is seen on the next run.
//!
//! Files written less than two seconds before a run are never trusted from
//! the cache (see `route::cache`), so the tests that need a cache hit wait
//! that long after writing their catalog.

mod route_common;

use config::Config;
use route::cache::{Cache, MIN_SKILLS, Outcome, RACY_NANOS};
use route_common::bin;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

const WORDS: &[&str] = &[
    "review",
    "pull",
    "request",
    "security",
    "deploy",
    "database",
    "migration",
    "schema",
    "logs",
    "parse",
    "chart",
    "render",
    "invoice",
    "payment",
    "test",
    "coverage",
    "lint",
    "format",
    "docker",
    "image",
    "cache",
    "index",
    "search",
    "query",
    "api",
    "endpoint",
    "auth",
    "token",
    "secret",
    "scan",
    "terraform",
    "kubernetes",
    "translate",
    "german",
    "résumé",
    "spreadsheet",
];

const PROMPT: &str = "review this pull request for security issues in the api token";

/// A catalog of `n` skills under `skills/`: most routable, some tied, some
/// without a description or with broken YAML, one in Chinese.
fn catalog(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..n {
        let w = |k: usize| WORDS[(i * (2 * k + 3) + k * 5) % WORDS.len()];
        let description = match i {
            17 => "审查拉取请求的安全问题。Use when reviewing a pull request.".to_string(),
            _ if i % 97 == 5 => "Use when the user asks to review a pull request.".to_string(),
            _ => format!(
                "Use when the user asks to {} the {} {} or to {} {}.",
                w(0),
                w(1),
                w(2),
                w(3),
                w(4)
            ),
        };
        let frontmatter = match i {
            _ if i % 250 == 3 => format!("name: skill-{i:04}\n"),
            33 => "name: [unclosed\n".to_string(),
            _ => format!("name: skill-{i:04}\ndescription: >-\n  {description}\n"),
        };
        write_skill(dir.path(), &format!("skill-{i:04}"), &frontmatter);
    }
    dir
}

fn write_skill(root: &Path, folder: &str, frontmatter: &str) {
    let d = root.join("skills").join(folder);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("SKILL.md"),
        format!("---\n{frontmatter}---\n\n# {folder}\n"),
    )
    .unwrap();
}

/// Let every time stamp written so far leave the window in which the
/// cache does not trust it.
fn settle() {
    std::thread::sleep(Duration::from_nanos(RACY_NANOS as u64) + Duration::from_millis(100));
}

/// `rank` output (stdout) with `args`, the cache kept in `cache`.
fn rank(root: &Path, cache: &Path, args: &[&str]) -> Vec<u8> {
    let cache_dir = ["--cache-dir", cache.to_str().unwrap()];
    run_rank(root, &[&cache_dir[..], args].concat())
}

fn rank_uncached(root: &Path, args: &[&str]) -> Vec<u8> {
    run_rank(root, &[&["--no-cache"][..], args].concat())
}

/// The cache's mechanism is tested on the specification's reading, whose
/// documents depend on each file alone (one edited file is read again
/// alone); Claude Code's listing depends on the whole catalog, so an edit
/// reads it all again: `claude_code_rankings_are_the_same_cached_or_not`.
fn run_rank(root: &Path, args: &[&str]) -> Vec<u8> {
    run_rank_as(root, "spec", args)
}

fn run_rank_as(root: &Path, client: &str, args: &[&str]) -> Vec<u8> {
    let out = bin()
        .arg("rank")
        .arg(PROMPT)
        .arg(root)
        .args(["--client", client])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    out.stdout
}

/// The cache files in `cache`.
fn cache_files(cache: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(cache) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    v.sort();
    v
}

/// What changes when a file is written again (it is replaced by rename).
fn identity(p: &Path) -> (SystemTime, u64) {
    let m = std::fs::metadata(p).unwrap();
    #[cfg(unix)]
    let ino = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let ino = m.len();
    (m.modified().unwrap(), ino)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn cached_runs_print_byte_for_byte_what_uncached_runs_print() {
    let cat = catalog(MIN_SKILLS + 20);
    let cache = tempfile::tempdir().unwrap();
    settle();
    let json = ["--format", "json", "--limit", "0", "--explain"];
    let first = rank(cat.path(), cache.path(), &json);
    let files = cache_files(cache.path());
    assert_eq!(files.len(), 1, "one cache file per catalog: {files:?}");
    let written = identity(&files[0]);
    let second = rank(cat.path(), cache.path(), &json);
    assert_eq!(
        identity(&files[0]),
        written,
        "a run that found the cache whole does not rewrite it"
    );
    let uncached = rank_uncached(cat.path(), &json);
    assert_eq!(text(&first), text(&uncached));
    assert_eq!(text(&second), text(&uncached));
    let human = rank(cat.path(), cache.path(), &["--explain"]);
    assert_eq!(
        text(&human),
        text(&rank_uncached(cat.path(), &["--explain"]))
    );

    // what the output holds is what a user needs: unroutable skills named,
    // the Chinese description reached by a Chinese prompt
    let v: serde_json::Value = serde_json::from_slice(&second).unwrap();
    let unroutable: Vec<&str> = v["unroutable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(
        unroutable.contains(&"skills/skill-0003/SKILL.md"),
        "{unroutable:?}"
    );
    assert!(
        unroutable.contains(&"skills/skill-0033/SKILL.md"),
        "{unroutable:?}"
    );
    assert!(
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["tied"] == true)
    );
    let out = bin()
        .args(["rank", "审查安全问题", "--format", "json", "--cache-dir"])
        .arg(cache.path())
        .arg(cat.path())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["results"][0]["name"], "skill-0017", "{v:#}");
}

#[test]
fn an_edited_added_or_removed_skill_is_seen_on_the_next_run() {
    let cat = catalog(MIN_SKILLS);
    let cache = tempfile::tempdir().unwrap();
    settle();
    let json = ["--format", "json", "--limit", "5"];
    rank(cat.path(), cache.path(), &json);
    let file = cache_files(cache.path()).remove(0);
    let before = identity(&file);

    // a new description that owns the prompt
    write_skill(
        cat.path(),
        "skill-0500",
        "name: skill-0500\ndescription: Review pull request security issues, api token leaks.\n",
    );
    let edited = rank(cat.path(), cache.path(), &json);
    assert_eq!(text(&edited), text(&rank_uncached(cat.path(), &json)));
    let v: serde_json::Value = serde_json::from_slice(&edited).unwrap();
    assert_eq!(v["results"][0]["name"], "skill-0500", "{v:#}");
    assert_ne!(identity(&file), before, "the cache is brought up to date");

    // a skill added, then one removed
    write_skill(
        cat.path(),
        "zz-new",
        "name: zz-new\ndescription: Pull request security review of api token scopes.\n",
    );
    let added = rank(cat.path(), cache.path(), &json);
    assert_eq!(text(&added), text(&rank_uncached(cat.path(), &json)));
    assert!(text(&added).contains("zz-new"), "{}", text(&added));
    std::fs::remove_dir_all(cat.path().join("skills/skill-0500")).unwrap();
    let removed = rank(cat.path(), cache.path(), &json);
    assert_eq!(text(&removed), text(&rank_uncached(cat.path(), &json)));
    assert!(!text(&removed).contains("skill-0500"), "{}", text(&removed));
}

#[test]
fn the_cache_reports_hits_partial_rereads_and_misses() {
    let cat = catalog(MIN_SKILLS);
    let root = cat.path();
    let folder = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    config.route.client = client::ClientId::Spec;
    let analyzer = route::analyzer(&config.route).unwrap();
    let cache = Cache::new(folder.path(), root, &config, None).unwrap();
    let load = || cache.load(root, &config, &analyzer, None).unwrap().1;

    // just written: nothing can be trusted yet
    assert_eq!(load(), Outcome::Miss);
    assert_eq!(
        load(),
        Outcome::Miss,
        "folders still within the racy window"
    );
    settle();
    assert_eq!(load(), Outcome::Miss, "stamps stored as never matching");
    assert_eq!(load(), Outcome::Hit);
    assert_eq!(load(), Outcome::Hit);

    // an edit keeps the folders: only that file is read again, until its
    // own time stamp has settled
    let f = root.join("skills/skill-0042/SKILL.md");
    std::fs::write(
        &f,
        "---\nname: skill-0042\ndescription: Other words.\n---\n",
    )
    .unwrap();
    assert_eq!(load(), Outcome::Partial(1));
    assert_eq!(load(), Outcome::Partial(1));
    settle();
    assert_eq!(load(), Outcome::Partial(1));
    assert_eq!(load(), Outcome::Hit);

    // a permission change is a change (its change time moves)
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(load(), Outcome::Partial(1));
    }

    // a new file inside a skill folder changes the folder
    std::fs::write(root.join("skills/skill-0001/notes.md"), "x").unwrap();
    assert_eq!(load(), Outcome::Miss);

    // another configuration is another cache
    let other: Config = toml::from_str("[route]\nname-weight = 1\nclient = \"spec\"\n").unwrap();
    let cache2 = Cache::new(folder.path(), root, &other, None).unwrap();
    assert_eq!(
        cache2.load(root, &other, &analyzer, None).unwrap().1,
        Outcome::Miss
    );
}

#[test]
fn small_catalogs_and_no_cache_runs_write_nothing() {
    let cat = catalog(40);
    let cache = tempfile::tempdir().unwrap();
    settle();
    rank(cat.path(), cache.path(), &[]);
    assert!(cache_files(cache.path()).is_empty());

    let big = catalog(MIN_SKILLS);
    let out = bin()
        .args(["rank", PROMPT, "--no-cache"])
        .arg(big.path())
        .env("SKILLSIFT_CACHE_DIR", cache.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(cache_files(cache.path()).is_empty());
    // the environment variable is the default folder
    let out = bin()
        .args(["rank", PROMPT])
        .arg(big.path())
        .env("SKILLSIFT_CACHE_DIR", cache.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(cache_files(cache.path()).len(), 1);
}

#[test]
fn a_corrupt_or_foreign_cache_file_is_ignored_and_replaced() {
    let cat = catalog(MIN_SKILLS);
    let cache = tempfile::tempdir().unwrap();
    settle();
    let json = ["--format", "json"];
    let good = rank(cat.path(), cache.path(), &json);
    let file = cache_files(cache.path()).remove(0);
    let bytes = std::fs::read(&file).unwrap();
    for broken in [
        Vec::new(),
        b"not a cache".to_vec(),
        bytes[..bytes.len() / 2].to_vec(),
        bytes.iter().map(|b| b ^ 0x55).collect(),
    ] {
        std::fs::write(&file, &broken).unwrap();
        assert_eq!(text(&rank(cat.path(), cache.path(), &json)), text(&good));
        assert_eq!(std::fs::read(&file).unwrap().len(), bytes.len());
    }
}

#[test]
fn a_cache_folder_that_cannot_be_written_does_not_fail_rank() {
    let cat = catalog(MIN_SKILLS);
    let blocker = tempfile::NamedTempFile::new().unwrap();
    let json = ["--format", "json"];
    // the cache folder is a regular file
    let out = rank(cat.path(), blocker.path(), &json);
    assert_eq!(text(&out), text(&rank_uncached(cat.path(), &json)));
}

#[cfg(unix)]
#[test]
fn catalogs_with_symlinked_skills_are_not_cached() {
    let cat = catalog(MIN_SKILLS);
    let real = cat.path().join("skills/skill-0009");
    std::fs::rename(&real, cat.path().join("skill-0009-real")).unwrap();
    std::os::unix::fs::symlink("../skill-0009-real", &real).unwrap();
    let cache = tempfile::tempdir().unwrap();
    settle();
    let json = ["--format", "json", "--limit", "0"];
    let out = rank(cat.path(), cache.path(), &json);
    assert!(
        cache_files(cache.path()).is_empty(),
        "a link's time stamps do not follow its target"
    );
    assert_eq!(text(&out), text(&rank_uncached(cat.path(), &json)));
}

#[test]
fn a_cache_folder_inside_the_catalog_does_not_invalidate_itself() {
    let cat = catalog(MIN_SKILLS);
    let root = cat.path();
    let mut config = Config::default();
    config.route.client = client::ClientId::Spec;
    let analyzer = route::analyzer(&config.route).unwrap();
    let folder = root.join("skills/.rank-cache");
    let cache = Cache::new(&folder, root, &config, None).unwrap();
    let load = || cache.load(root, &config, &analyzer, None).unwrap().1;
    settle();
    assert_eq!(load(), Outcome::Miss, "nothing cached yet");
    // creating the folder changed `skills/`, which was just recorded
    assert_eq!(load(), Outcome::Miss);
    settle();
    assert_eq!(load(), Outcome::Miss, "`skills/` recorded as racy");
    for _ in 0..3 {
        assert_eq!(load(), Outcome::Hit, "writing the cache is not a change");
    }
    std::fs::write(
        root.join("skills/skill-0007/SKILL.md"),
        "---\nname: skill-0007\ndescription: Edited.\n---\n",
    )
    .unwrap();
    assert_eq!(load(), Outcome::Partial(1));
    assert_eq!(load(), Outcome::Partial(1), "its stamp is still racy");
}

#[test]
fn claude_code_rankings_are_the_same_cached_or_not() {
    let cat = catalog(MIN_SKILLS + 5);
    let cache = tempfile::tempdir().unwrap();
    settle();
    let json = ["--format", "json", "--limit", "0"];
    let dir = ["--cache-dir", cache.path().to_str().unwrap()];
    let args = [&dir[..], &json[..]].concat();
    let first = run_rank_as(cat.path(), "claude-code", &args);
    let second = run_rank_as(cat.path(), "claude-code", &args);
    let uncached = run_rank_as(
        cat.path(),
        "claude-code",
        &[&["--no-cache"][..], &json[..]].concat(),
    );
    assert_eq!(text(&first), text(&uncached));
    assert_eq!(text(&second), text(&uncached));
    assert!(text(&first).contains("\"client\": \"claude-code\""));
}

#[test]
fn a_skill_added_in_a_client_root_or_plugin_is_seen_on_the_next_run() {
    let cat = catalog(MIN_SKILLS);
    let root = cat.path();
    // the folders whose listings decide the roots exist before the cache
    std::fs::create_dir_all(root.join(".claude/commands")).unwrap();
    std::fs::write(root.join(".claude/commands/x.md"), "x").unwrap();
    std::fs::create_dir_all(root.join("plugins/tools")).unwrap();
    std::fs::write(root.join("plugins/tools/README.md"), "x").unwrap();
    let folder = tempfile::tempdir().unwrap();
    let config = Config::default();
    let analyzer = route::analyzer(&config.route).unwrap();
    let cache = Cache::new(folder.path(), root, &config, None).unwrap();
    let load = || cache.load(root, &config, &analyzer, None).unwrap();
    let warm = || {
        settle();
        assert_eq!(load().1, Outcome::Miss);
        assert_eq!(load().1, Outcome::Hit);
    };
    let has = |r: &route::cache::Ranking, name: &str| r.index.find(name).is_some();

    warm();
    let new_skill = |dir: &str, name: &str| {
        let d = root.join(dir).join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Reviews pull requests.\n---\n"),
        )
        .unwrap();
    };
    // a client root appears next to skills/ (`.claude/` already existed)
    new_skill(".claude/skills", "zz-claude");
    let (r, outcome) = load();
    assert_eq!(outcome, Outcome::Miss);
    assert!(has(&r, "zz-claude"));

    warm();
    // a plugin grows a skills folder
    new_skill("plugins/tools/skills", "zz-plugin");
    let (r, outcome) = load();
    assert_eq!(outcome, Outcome::Miss);
    // Claude Code lists a plugin's skills as `<plugin>:<folder>`
    assert!(has(&r, "tools:zz-plugin"));

    warm();
    // skills/ becomes a skill itself: it is no longer a skills root, and
    // the whole catalog is walked
    std::fs::write(
        root.join("skills/SKILL.md"),
        "---\nname: skills\ndescription: The skills folder as a skill.\n---\n",
    )
    .unwrap();
    let (r, outcome) = load();
    assert_eq!(outcome, Outcome::Miss);
    assert!(has(&r, "skills") && has(&r, "zz-claude") && has(&r, "tools:zz-plugin"));
    let uncached = route::cache::analyze(
        &catalog::Catalog::load_scoped(root, &config, catalog::Scope::SkillsOnly).unwrap(),
        &config,
        &analyzer,
        None,
    );
    assert_eq!(r.index.len(), uncached.index.len());
}

/// Claude Code lists the project's commands in the same listing, where
/// they spend the budget the skills' texts need: an edited, added or
/// removed command is a change to the catalog's listing.
#[test]
fn a_changed_command_is_a_change_to_claude_codes_listing() {
    let cat = catalog(MIN_SKILLS);
    let root = cat.path();
    let ns = root.join(".claude/commands/ns");
    std::fs::create_dir_all(&ns).unwrap();
    std::fs::write(ns.join("a.md"), "---\ndescription: A command.\n---\nA.\n").unwrap();
    let folder = tempfile::tempdir().unwrap();
    let config = Config::default();
    assert_eq!(config.route.client, client::ClientId::ClaudeCode);
    let analyzer = route::analyzer(&config.route).unwrap();
    let cache = Cache::new(folder.path(), root, &config, None).unwrap();
    let load = || cache.load(root, &config, &analyzer, None).unwrap().1;
    let settled = || {
        load();
        settle();
        load();
        assert_eq!(load(), Outcome::Hit);
    };
    settled();
    std::fs::write(ns.join("a.md"), "---\ndescription: Other words.\n---\nA.\n").unwrap();
    assert_eq!(load(), Outcome::Miss, "an edited command");
    settled();
    std::fs::write(ns.join("b.md"), "B.\n").unwrap();
    assert_eq!(load(), Outcome::Miss, "a new command");
    settled();
    std::fs::remove_file(ns.join("b.md")).unwrap();
    assert_eq!(load(), Outcome::Miss, "a removed command");
}

/// A plugin's manifest names the plugin (the prefix Claude Code lists its
/// skills under) and may add skills folders: a catalog with manifests and
/// a marketplace file is cached, and an edit to either is seen. So is a
/// catalog whose walk notes a template folder (the mirror of public skills
/// has both).
#[test]
fn a_catalog_with_manifests_is_cached_and_a_manifest_edit_is_seen() {
    let cat = catalog(MIN_SKILLS);
    let root = cat.path();
    let manifest = root.join("plugins/tools/.claude-plugin/plugin.json");
    std::fs::create_dir_all(manifest.parent().unwrap()).unwrap();
    std::fs::write(&manifest, r#"{"name": "tools"}"#).unwrap();
    let plugin_skill = root.join("plugins/tools/skills/zz-plugin");
    std::fs::create_dir_all(&plugin_skill).unwrap();
    std::fs::write(
        plugin_skill.join("SKILL.md"),
        "---\nname: zz-plugin\ndescription: Reviews pull requests.\n---\n",
    )
    .unwrap();
    let marketplace = root.join(".claude-plugin/marketplace.json");
    std::fs::create_dir_all(marketplace.parent().unwrap()).unwrap();
    std::fs::write(
        &marketplace,
        r#"{"plugins": [{"source": "./plugins/tools"}]}"#,
    )
    .unwrap();
    // a template folder the walk notes (SG213) and does not lint
    let template = root.join("docker/templates/x/skills/tpl");
    std::fs::create_dir_all(&template).unwrap();
    std::fs::write(template.join("SKILL.md"), "---\nname: tpl\n---\n").unwrap();

    let folder = tempfile::tempdir().unwrap();
    let config = Config::default();
    let analyzer = route::analyzer(&config.route).unwrap();
    let cache = Cache::new(folder.path(), root, &config, None).unwrap();
    let load = || cache.load(root, &config, &analyzer, None).unwrap();
    let has = |r: &route::cache::Ranking, name: &str| r.index.find(name).is_some();
    let warm = || {
        settle();
        load();
        assert_eq!(load().1, Outcome::Hit);
    };
    warm();
    assert!(has(&load().0, "tools:zz-plugin"));

    // the plugin renamed in its manifest, the file's size unchanged
    std::fs::write(&manifest, r#"{"name": "kitty"}"#).unwrap();
    let (r, outcome) = load();
    assert_eq!(outcome, Outcome::Miss, "an edited manifest");
    assert!(has(&r, "kitty:zz-plugin") && !has(&r, "tools:zz-plugin"));

    warm();
    std::fs::write(&marketplace, r#"{"plugins": []}"#).unwrap();
    assert_eq!(load().1, Outcome::Miss, "an edited marketplace file");

    #[cfg(unix)]
    {
        // a manifest that is a link is never trusted from the cache
        warm();
        let real = root.join("plugin.json.real");
        std::fs::rename(&manifest, &real).unwrap();
        std::os::unix::fs::symlink(&real, &manifest).unwrap();
        settle();
        for _ in 0..3 {
            assert_eq!(load().1, Outcome::Miss, "a linked manifest");
        }
    }
}
