//! Tier 3 on Codex, Gemini CLI and opencode, through the binary with no
//! real CLI: each client's exact command line and run-home files
//! (`--dry-run`), the settings that must never appear, several clients in
//! one run, and the refusals before any run (an old version, a setting the
//! installed version rejects, a missing `rg`, a personal copy Codex would
//! read). The real CLIs are driven in `real_<client>_behave.rs`.

#[path = "behave_support/mod.rs"]
mod support;

use predicates::prelude::*;
use serde_json::Value;
use support::Env;

fn dry_run(env: &Env, agent: &str) -> Value {
    let out = env
        .behave(&[
            "--trials",
            "1",
            "--dry-run",
            "--format",
            "json",
            "--agent",
            agent,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn args(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

fn home_file(doc: &Value, key: &str, path: &str) -> String {
    doc[key]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path)
        .unwrap_or_else(|| panic!("{path} in {key}"))["text"]
        .as_str()
        .unwrap()
        .to_string()
}

/// What no client's command line may ever hold.
const NEVER: &[&str] = &[
    "--yolo",
    "-y",
    "--approve-for-me",
    "--trust",
    "--auto",
    "--dangerously-bypass-approvals-and-sandbox",
    "--dangerously-bypass-hook-trust",
    "--full-auto",
];

fn never(argv: &[String]) {
    for a in argv {
        assert!(
            !NEVER.contains(&a.as_str()) && !a.starts_with("--dangerously"),
            "{a} in {argv:?}"
        );
        assert!(
            !a.contains("approval-mode=yolo") && !a.contains("auto_edit"),
            "{a}"
        );
    }
}

#[test]
fn codex_runs_sandboxed_to_the_workspace_with_tmp_excluded_and_apps_off() {
    let env = Env::new();
    let doc = dry_run(&env, "codex");
    let agent = &doc["plan"]["agent"];
    assert_eq!(agent["kind"], "codex");
    let c = |k: &str| ["--config".to_string(), k.to_string()];
    let mut want: Vec<String> = [
        "exec",
        "--json",
        "--ephemeral",
        "--strict-config",
        "--skip-git-repo-check",
        "-s",
        "workspace-write",
    ]
    .map(String::from)
    .to_vec();
    for k in [
        "sandbox_workspace_write.exclude_slash_tmp=true",
        "sandbox_workspace_write.exclude_tmpdir_env_var=true",
        "sandbox_workspace_write.network_access=false",
        "approval_policy=\"never\"",
        "features.apps=false",
        "features.plugins=false",
        "features.remote_plugin=false",
        "features.multi_agent=false",
        "features.browser_use=false",
        "features.computer_use=false",
        "features.image_generation=false",
        "features.tool_suggest=false",
        "features.goals=false",
        "features.skill_mcp_dependency_install=false",
        "web_search=\"disabled\"",
        "analytics.enabled=false",
        "check_for_update_on_startup=false",
        "skills.bundled.enabled=false",
    ] {
        want.extend(c(k));
    }
    assert_eq!(args(&agent["args_with"]), want);
    assert_eq!(args(&agent["args_without"]), want);
    let grader = args(&agent["grader"]);
    assert_eq!(grader[0], "codex");
    assert_eq!(grader[6..8], ["-s".to_string(), "read-only".to_string()]);
    assert!(grader.contains(&"features.shell_tool=false".to_string()));
    never(&want);
    never(&grader);
    assert_eq!(agent["env"]["CODEX_HOME"], "<run-home>/.codex");
    assert!(
        doc["run_homes"]
            .as_str()
            .unwrap()
            .contains("not the temporary folder")
    );
    // the skill goes where Codex discovers project skills
    assert!(
        env.behave(&["--trials", "1", "--dry-run", "--agent", "codex"])
            .assert()
            .code(3)
            .get_output()
            .stdout
            .windows(b"<workspace>/.agents/skills/demo-skill/".len())
            .any(|w| w == b"<workspace>/.agents/skills/demo-skill/")
    );
}

#[test]
fn a_codex_endpoint_is_declared_as_a_responses_provider() {
    let env = Env::new();
    env.config(
        "[behave.codex]\nmodel = \"gpt-5.5\"\nbase-url = \"https://gateway.example/v1\"\nenv-key = \"GATEWAY_KEY\"\nsandbox = \"read-only\"\n",
    );
    let doc = dry_run(&env, "codex");
    let a = args(&doc["plan"]["agent"]["args_with"]).join(" ");
    assert!(a.contains("-s read-only"), "{a}");
    assert!(!a.contains("sandbox_workspace_write"), "{a}");
    assert!(a.contains("--config model_provider=\"skillsift\""), "{a}");
    assert!(
        a.contains("model_providers.skillsift={name=\"skillsift\",base_url=\"https://gateway.example/v1\",env_key=\"GATEWAY_KEY\",wire_api=\"responses\"}"),
        "{a}"
    );
    assert!(a.ends_with("-m gpt-5.5"), "{a}");
}

#[test]
fn gemini_runs_in_default_approval_mode_with_a_policy_allowing_exactly_the_configured_tools() {
    let env = Env::new();
    env.config("[behave.gemini]\nmodel = \"gemini-2.5-pro\"\nshell-commands = [\"npm test\"]\n");
    let doc = dry_run(&env, "gemini");
    let agent = &doc["plan"]["agent"];
    let a = args(&agent["args_with"]);
    assert_eq!(
        a,
        [
            "-p",
            "",
            "-o",
            "stream-json",
            "--skip-trust",
            "--approval-mode",
            "default",
            "--policy",
            "<run-home>/policy.toml",
            "--extensions",
            "none",
            "-m",
            "gemini-2.5-pro"
        ]
    );
    never(&a);
    let policy = home_file(&doc, "home_files", "<run-home>/policy.toml");
    assert!(policy.contains(
        "[[rule]]\ntoolName = \"activate_skill\"\ndecision = \"allow\"\npriority = 900\n"
    ));
    assert!(policy.contains("toolName = [\"read_file\", \"list_directory\", \"glob\", \"grep_search\", \"write_file\", \"replace\"]\ndecision = \"allow\""));
    assert!(policy.contains(
        "toolName = \"run_shell_command\"\ncommandPrefix = [\"npm test\"]\ndecision = \"allow\""
    ));
    assert!(policy.ends_with("[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 800\n"));
    let settings: Value = serde_json::from_str(&home_file(
        &doc,
        "home_files",
        "<run-home>/.gemini/settings.json",
    ))
    .unwrap();
    assert_eq!(settings["mcp"]["allowed"], serde_json::json!(["__none__"]));
    assert_eq!(
        settings["security"]["auth"]["selectedType"],
        "gemini-api-key"
    );
    assert_eq!(settings["telemetry"]["enabled"], false);
    assert_eq!(
        settings["skills"]["disabled"],
        serde_json::json!(["skill-creator", "antigravity-support"])
    );
    let grader_policy = home_file(&doc, "grader_home_files", "<run-home>/policy.toml");
    assert!(!grader_policy.contains("allow"), "{grader_policy}");
    assert_eq!(agent["env"]["GEMINI_CLI_HOME"], "<run-home>");
}

#[test]
fn opencode_runs_with_a_permission_block_denying_every_tool_it_does_not_allow() {
    let env = Env::new();
    env.config(
        "[behave.opencode]\nmodel = \"p/m\"\nedit = false\nshell-commands = [\"npm test\"]\n",
    );
    let doc = dry_run(&env, "opencode");
    let agent = &doc["plan"]["agent"];
    let a = args(&agent["args_with"]);
    assert_eq!(
        a,
        [
            "run",
            "--format",
            "json",
            "--pure",
            "--title",
            "skillsift",
            "--dir",
            "<workspace>",
            "-m",
            "p/m"
        ]
    );
    never(&a);
    let config: Value =
        serde_json::from_str(&home_file(&doc, "home_files", "<run-home>/opencode.json")).unwrap();
    let p = &config["permission"];
    let keys: Vec<&String> = p.as_object().unwrap().keys().collect();
    assert_eq!(
        keys[0], "*",
        "deny everything first: the last matching rule wins"
    );
    assert_eq!(p["*"], "deny");
    assert_eq!(p["edit"], "deny");
    assert_eq!(p["external_directory"], "deny");
    assert_eq!(
        p["bash"],
        serde_json::json!({"*": "deny", "npm test": "allow", "npm test *": "allow"})
    );
    assert_eq!(p["skill"]["customize-opencode"], "deny");
    assert!(p.get("webfetch").is_none() || p["webfetch"] == "deny");
    assert_eq!(config["mcp"], serde_json::json!({}));
    let e = &agent["env"];
    for k in [
        "OPENCODE_DISABLE_PROJECT_CONFIG",
        "OPENCODE_DISABLE_CLAUDE_CODE",
        "OPENCODE_DISABLE_DEFAULT_PLUGINS",
        "OPENCODE_DISABLE_AUTOUPDATE",
    ] {
        assert_eq!(e[k], "1", "{k}");
    }
    assert_eq!(e["OPENCODE_TEST_HOME"], "<run-home>");
    assert_eq!(e["XDG_CONFIG_HOME"], "<run-home>/.config");
    let grader: Value = serde_json::from_str(&home_file(
        &doc,
        "grader_home_files",
        "<run-home>/opencode.json",
    ))
    .unwrap();
    assert_eq!(grader["permission"], serde_json::json!({"*": "deny"}));
}

#[test]
fn several_clients_get_one_plan_each_and_another_client_can_grade() {
    let env = Env::new();
    let out = env
        .behave(&[
            "--trials",
            "1",
            "--dry-run",
            "--format",
            "json",
            "--agent",
            "claude,codex",
            "--grader-agent",
            "claude",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let clients: Vec<&str> = doc["clients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["client"].as_str().unwrap())
        .collect();
    assert_eq!(clients, ["claude", "codex"]);
    let codex = &doc["clients"][1]["dry_run"]["plan"]["agent"];
    assert_eq!(codex["grader_kind"], "claude");
    assert_eq!(
        codex["grader"][0], "claude",
        "Claude Code grades the Codex runs"
    );
    env.behave(&["--trials", "1", "--dry-run", "--agent", "gemini,opencode"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("client   gemini"))
        .stdout(predicate::str::contains("client   opencode"));
}

#[test]
fn bad_agent_choices_are_refused_before_anything_runs() {
    let env = Env::new();
    env.behave(&["--agent", "cursor"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--agent cursor: `cursor` is not an agent client; use claude, codex, gemini, opencode",
        ));
    env.behave(&["--agent", "codex,codex"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`codex` is named twice"));
    env.behave(&["--agent", "codex", "--runner", "true"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--runner replaces the built-in agents",
        ));
    env.config("[behave]\ninstall = \"append-system-prompt\"\n");
    env.behave(&["--agent", "gemini"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "works with Claude Code only (`--append-system-prompt`); gemini has no such flag",
        ));
    env.config("[behave.opencode]\nmodel = \"no-slash\"\n");
    env.behave(&["--agent", "opencode"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "[behave] opencode.model: `no-slash` is not a `provider/model` name",
        ));
}

/// A cache folder outside the system temporary folder, where Codex's run
/// homes go.
fn cache() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap()
}

/// A fake CLI in `dir` named `name`: prints `version` for `--version`;
/// otherwise writes `stderr` to standard error and exits 1.
fn fake(dir: &std::path::Path, name: &str, version: &str, stderr: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\nif [ \"$1\" = \"--version\" ]; then echo '{version}'; exit 0; fi\ncat > /dev/null\necho '{stderr}' >&2\nexit 1\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[test]
fn a_client_older_than_the_tested_version_is_refused_naming_the_settings() {
    let env = Env::new();
    let bin = env.tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let codex = fake(&bin, "codex", "codex-cli 0.120.0", "");
    let gemini = fake(&bin, "gemini", "0.40.2", "");
    env.config(&format!(
        "[behave.codex]\nprogram = {:?}\n[behave.gemini]\nprogram = {:?}\n",
        codex.display().to_string(),
        gemini.display().to_string()
    ));
    env.behave(&["--trials", "1", "--agent", "codex"])
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "Codex 0.120.0 is older than 0.171.0, the version whose handling of skillsift's safety settings (`-s workspace-write` with /tmp excluded",
        ))
        .stderr(predicate::str::contains("upgrade Codex to 0.171.0 or newer"));
    // a cache folder inside the temporary folder cannot hold Codex's homes
    let tmp_cache = env.tmp.path().join("cache");
    let good = fake(&bin, "codex-ok", "codex-cli 0.171.0", "");
    env.config(&format!(
        "[behave.codex]\nprogram = {:?}\n",
        good.display().to_string()
    ));
    env.behave(&["--trials", "1", "--agent", "codex"])
        .env("SKILLSIFT_CACHE_DIR", &tmp_cache)
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "is inside the temporary folder; this client needs its run home outside it: set SKILLSIFT_CACHE_DIR",
        ));
    env.config(&format!(
        "[behave.codex]\nprogram = {:?}\n[behave.gemini]\nprogram = {:?}\n",
        codex.display().to_string(),
        gemini.display().to_string()
    ));
    env.behave(&["--trials", "1", "--agent", "gemini"])
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "Gemini CLI 0.40.2 is older than 0.61.0",
        ));
    assert!(!env.iteration(1).exists(), "nothing ran");
}

/// Configure `env` with a Codex 0.172.0 that gets as far as checking its
/// settings, then refuses one of skillsift's.
fn codex_rejecting_a_setting(env: &Env) {
    let bin = env.tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let codex = fake(
        &bin,
        "codex",
        "codex-cli 0.172.0",
        "Error loading config.toml: unknown configuration field `sandbox_workspace_write.exclude_slash_tmp` in -c/--config override",
    );
    env.config(&format!(
        "[behave.codex]\nprogram = {:?}\n",
        codex.display().to_string()
    ));
}

#[test]
fn a_codex_that_rejects_a_safety_setting_is_refused_before_any_run() {
    let env = Env::new();
    codex_rejecting_a_setting(&env);
    let cache = cache();
    env.behave(&["--trials", "1", "--agent", "codex"])
        .env("SKILLSIFT_CACHE_DIR", cache.path())
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "Codex 0.172.0 does not accept one of skillsift's safety settings",
        ))
        .stderr(predicate::str::contains(
            "unknown configuration field `sandbox_workspace_write.exclude_slash_tmp`",
        ));
    assert!(!env.iteration(1).exists());
}

#[test]
fn codex_run_homes_go_to_the_first_cache_folder_outside_the_temporary_folder() {
    let env = Env::new();
    codex_rejecting_a_setting(&env);
    // HOME is in the temporary folder (TMPDIR), XDG_CACHE_HOME is not:
    // the run home goes there, with nothing to set
    let cache = cache();
    env.behave(&["--trials", "1", "--agent", "codex"])
        .env_remove("SKILLSIFT_CACHE_DIR")
        .env("XDG_CACHE_HOME", cache.path())
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "Codex 0.172.0 does not accept one of skillsift's safety settings",
        ));
    assert!(cache.path().join("skillsift/run-homes").is_dir());
    // both in the temporary folder: refused, saying what to set
    env.behave(&["--trials", "1", "--agent", "codex"])
        .env_remove("SKILLSIFT_CACHE_DIR")
        .env("XDG_CACHE_HOME", env.tmp.path().join("xdg"))
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "is inside the temporary folder; this client needs its run home outside it",
        ))
        .stderr(predicate::str::contains(
            "help: set SKILLSIFT_CACHE_DIR (or XDG_CACHE_HOME) to a folder you can write outside",
        ))
        .stderr(predicate::str::contains("help: \n").not());
    assert!(
        !env.tmp.path().join("xdg").exists(),
        "nothing created there"
    );
    assert!(!env.iteration(1).exists());
}

#[test]
fn a_copy_of_the_skill_in_the_personal_folder_codex_reads_is_refused_by_its_name() {
    let env = Env::new();
    let bin = env.tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    // a Codex that checks its settings and stops for the unset preflight key
    let codex = fake(
        &bin,
        "codex",
        "codex-cli 0.171.0",
        "ERROR: Missing environment variable: `SKILLSIFT_PREFLIGHT_UNSET_KEY`.",
    );
    env.config(&format!(
        "[behave.codex]\nprogram = {:?}\n",
        codex.display().to_string()
    ));
    let copy = env.home.join(".agents/skills/renamed");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::write(
        copy.join("SKILL.md"),
        "---\nname: demo-skill\ndescription: A personal copy.\n---\n",
    )
    .unwrap();
    let cache = cache();
    env.behave(&["--trials", "1", "--agent", "codex"])
        .env("SKILLSIFT_CACHE_DIR", cache.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "Codex would load another copy of `demo-skill` in every run",
        ))
        .stderr(predicate::str::contains(".agents/skills/renamed/SKILL.md (its frontmatter `name` is `demo-skill` (folder `renamed`))"));
    assert!(!env.iteration(1).exists());
}

#[test]
fn opencode_without_ripgrep_or_a_model_is_refused_before_the_first_run() {
    let env = Env::new();
    let bin = env.tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let opencode = fake(&bin, "opencode", "1.18.33", "");
    env.config(&format!(
        "[behave.opencode]\nprogram = {:?}\n",
        opencode.display().to_string()
    ));
    env.behave(&["--trials", "1", "--agent", "opencode"])
        .env("PATH", &bin)
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "opencode's skill tool needs `rg` (ripgrep) on PATH",
        ));
    // with rg, a run without a model is refused before the first run,
    // saying what to set
    let Some(rg) = behave::exec::resolve_program("rg") else {
        assert!(
            std::env::var_os("SKILLSIFT_REQUIRE_CLIENTS").is_none(),
            "rg (ripgrep) is required here"
        );
        eprintln!("skipped the rest: rg (ripgrep) is not installed (apt-get install ripgrep)");
        return;
    };
    std::os::unix::fs::symlink(rg, bin.join("rg")).unwrap();
    env.behave(&["--trials", "1", "--agent", "opencode"])
        .env("PATH", &bin)
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "opencode has no model to reach under skillsift",
        ))
        .stderr(predicate::str::contains(
            "set [behave.opencode] model = \"<provider>/<model>\"",
        ));
    assert!(!env.root.join("evals/results").exists(), "no run started");
}

#[test]
fn gemini_with_no_model_configured_names_the_pinned_model_so_its_router_stays_off() {
    let env = Env::new();
    env.config("[behave.gemini]\nshell-commands = [\"npm test\"]\n");
    let doc = dry_run(&env, "gemini");
    let agent = &doc["plan"]["agent"];
    for key in ["args_with", "args_without", "grader"] {
        let a = args(&agent[key]);
        assert_eq!(a[a.len() - 2..], ["-m", "gemini-2.5-pro"], "{key}: {a:?}");
    }
}

#[test]
fn opencode_carries_the_users_provider_definitions_but_not_their_mcp_servers_or_plugins() {
    let env = Env::new();
    env.config("[behave.opencode]\nmodel = \"gw/m\"\n");
    let user = r#"{"model": "gw/m", "mcp": {"fs": {"type": "local", "command": ["x"]}}, "plugin": ["p"], "permission": {"*": "allow"},
        "provider": {"gw": {"npm": "@ai-sdk/openai-compatible", "options": {"baseURL": "https://gw.example/v1", "apiKey": "{env:GW_KEY}"}, "models": {"m": {}}},
                     "other": {"options": {"baseURL": "https://other.example"}}}}"#;
    let out = env
        .behave(&[
            "--trials",
            "1",
            "--dry-run",
            "--format",
            "json",
            "--agent",
            "opencode",
        ])
        .env("OPENCODE_CONFIG_CONTENT", user)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let c: Value =
        serde_json::from_str(&home_file(&doc, "home_files", "<run-home>/opencode.json")).unwrap();
    assert_eq!(
        c["provider"]["gw"]["options"]["baseURL"],
        "https://gw.example/v1"
    );
    assert!(
        c["provider"].get("other").is_none(),
        "only the model's provider"
    );
    assert_eq!(c["mcp"], serde_json::json!({}));
    assert_eq!(c["plugin"], serde_json::json!([]));
    assert_ne!(c["permission"]["*"], "allow");
    let literal = user.replace("{env:GW_KEY}", "sk-live-123");
    env.behave(&["--trials", "1", "--dry-run", "--agent", "opencode"])
        .env("OPENCODE_CONFIG_CONTENT", &literal)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "your opencode provider `gw` (OPENCODE_CONFIG_CONTENT) holds its API key in the configuration",
        ))
        .stdout(predicate::str::contains("sk-live-123").not());
}

/// The dry run counts each client's own part of a request (measured by the
/// real clients' conformance tests) into every run's first request and the
/// total, and the table in docs/tier3-behavioral.md is what it uses.
#[test]
fn the_dry_run_counts_each_clients_system_prompt_and_tools_into_the_tokens() {
    let env = Env::new();
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tier3-behavioral.md"),
    )
    .unwrap();
    for (agent, product) in [
        ("claude", "Claude Code"),
        ("codex", "Codex CLI"),
        ("gemini", "Gemini CLI"),
        ("opencode", "opencode"),
    ] {
        let doc = dry_run(&env, agent);
        let c = &doc["cost"]["client_request"];
        let n = |k: &str| c[k].as_u64().unwrap();
        let t = |n: u64| base::plural::thousands(n as usize);
        let row = format!(
            "| {product} {} | {} | {} | {} |",
            c["measured_on"].as_str().unwrap(),
            t(n("agent_tokens")),
            t(n("skills_section_tokens")),
            t(n("grader_tokens"))
        );
        assert!(docs.contains(&row), "docs/tier3-behavioral.md lacks {row}");
        assert!(n("agent_tokens") > 5_000, "{agent}: {c}");
        // every run's first request: the client's part, more once a skill
        // is listed, and the case's prompt and listing entries on top
        let runs = doc["runs"].as_array().unwrap();
        let mut sum = 0;
        for r in runs {
            let first = r["first_request_tokens"].as_u64().unwrap();
            let floor = n("agent_tokens")
                + if r["skill_installed"] == true {
                    n("skills_section_tokens")
                } else {
                    0
                };
            assert!(first > floor && first < floor + 200, "{agent}: {r}");
            sum += first;
        }
        let graders = doc["cost"]["grader_calls"].as_u64().unwrap();
        assert!(graders > 0);
        assert_eq!(
            doc["cost"]["input_tokens_at_least"].as_u64().unwrap(),
            sum + graders * n("grader_tokens"),
            "{agent}: the total is every first request and grader call"
        );
    }
    // the human plan says the same
    env.behave(&["--trials", "1", "--dry-run", "--agent", "codex"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains(", ≥ "))
        .stdout(predicate::str::contains(" input tokens; "))
        .stdout(predicate::str::contains(
            "tokens   counted: the first request of each run, ≈ 7,499 tokens of Codex's system prompt and tool definitions (measured on 0.171.0)",
        ))
        .stdout(predicate::str::contains("(first request: with ≈ 8,"));
}
