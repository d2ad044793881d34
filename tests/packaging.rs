//! The install paths that do not need Rust: the Action's installer script
//! (download, checksum, fallback) against a local release folder, the npm
//! launcher's platform table, and the versions every package declares.
//! `.ci/run` also builds the wheel and the npm tarballs and runs them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn installer() -> PathBuf {
    repo().join(".github/actions/skillsift/install.sh")
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn table(rel: &str) -> toml::Table {
    toml::from_str(&fs::read_to_string(repo().join(rel)).unwrap())
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The version in the root Cargo.toml (`[workspace.package]` or `[package]`).
fn cargo_version() -> String {
    let toml = table("Cargo.toml");
    toml.get("workspace")
        .and_then(|w| w.get("package"))
        .and_then(|p| p.get("version"))
        .or_else(|| toml.get("package").and_then(|p| p.get("version")))
        .and_then(|v| v.as_str())
        .expect("a version in Cargo.toml")
        .to_string()
}

/// A release folder as the release workflow lays it out:
/// `<base>/v<version>/skillsift-<version>-<target>.tar.gz` + `SHA256SUMS`.
/// The "binary" is a shell script that prints a version line.
fn release(base: &Path, version: &str, target: &str) -> PathBuf {
    let name = format!("skillsift-{version}-{target}");
    let stage = base.join("stage").join(&name);
    fs::create_dir_all(&stage).unwrap();
    let exe = stage.join("skillsift");
    fs::write(&exe, format!("#!/bin/sh\necho \"skillsift {version}\"\n")).unwrap();
    chmod_x(&exe);
    let dir = base.join("rel").join(format!("v{version}"));
    fs::create_dir_all(&dir).unwrap();
    let archive = format!("{name}.tar.gz");
    let ok = Command::new("tar")
        .arg("-czf")
        .arg(dir.join(&archive))
        .arg("-C")
        .arg(base.join("stage"))
        .arg(&name)
        .status()
        .unwrap();
    assert!(ok.success());
    let sum = Command::new("sha256sum")
        .arg(&archive)
        .current_dir(&dir)
        .output()
        .unwrap();
    fs::write(dir.join("SHA256SUMS"), sum.stdout).unwrap();
    base.join("rel")
}

fn chmod_x(p: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(p, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs the installer with a clean, explicit environment.
fn install(base: &Path, envs: &[(&str, &str)], path: &str) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg(installer())
        .env_clear()
        .env("PATH", path)
        .env("HOME", base)
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64")
        .env("SKILLSIFT_INSTALL_ROOT", base.join("root"))
        .env("GITHUB_PATH", base.join("github_path"));
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn tools_present() -> bool {
    let ok = ["bash", "curl", "tar", "sha256sum"].iter().all(|t| have(t));
    if !ok {
        eprintln!("skipping: the installer test needs bash, curl, tar and sha256sum on PATH");
    }
    ok
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn installer_downloads_verifies_and_puts_the_release_on_path() {
    if !tools_present() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let rel = release(tmp.path(), "1.2.3", "x86_64-unknown-linux-musl");
    let base = format!("file://{}", rel.display());
    let path = std::env::var("PATH").unwrap();
    // The version comes from the action's own tag.
    let out = install(
        tmp.path(),
        &[
            ("SKILLSIFT_RELEASE_BASE", &base),
            ("SKILLSIFT_ACTION_REF", "v1.2.3"),
        ],
        &path,
    );
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("verified skillsift-1.2.3-x86_64-unknown-linux-musl.tar.gz"),
        "{all}"
    );
    assert!(all.contains("installed: skillsift 1.2.3"), "{all}");
    let bin = tmp.path().join("root/bin");
    assert!(bin.join("skillsift").is_file());
    let gh_path = fs::read_to_string(tmp.path().join("github_path")).unwrap();
    assert_eq!(gh_path.trim(), bin.display().to_string());
}

#[test]
fn installer_refuses_an_archive_whose_checksum_does_not_match() {
    if !tools_present() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let rel = release(tmp.path(), "1.2.3", "x86_64-unknown-linux-musl");
    // Someone swapped the archive after the sums were written.
    let archive = rel.join("v1.2.3/skillsift-1.2.3-x86_64-unknown-linux-musl.tar.gz");
    let mut bytes = fs::read(&archive).unwrap();
    bytes.extend_from_slice(b"tampered");
    fs::write(&archive, bytes).unwrap();
    let base = format!("file://{}", rel.display());
    let path = std::env::var("PATH").unwrap();
    let out = install(
        tmp.path(),
        &[
            ("SKILLSIFT_RELEASE_BASE", &base),
            ("SKILLSIFT_VERSION", "1.2.3"),
        ],
        &path,
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("checksum mismatch"), "{all}");
    assert!(all.contains("not installing it"), "{all}");
    assert!(!tmp.path().join("root/bin/skillsift").exists());
    // A bad checksum is never a reason to build from source instead.
    assert!(!all.contains("building skillsift from source"), "{all}");
}

/// A `cargo` on PATH that records its arguments and "installs" a binary.
fn fake_cargo(dir: &Path) -> PathBuf {
    let bin = dir.join("fakebin");
    fs::create_dir_all(&bin).unwrap();
    let cargo = bin.join("cargo");
    fs::write(
        &cargo,
        "#!/bin/sh\n\
         echo \"$@\" > \"$HOME/cargo-args\"\n\
         while [ $# -gt 0 ]; do [ \"$1\" = --root ] && root=\"$2\"; shift; done\n\
         mkdir -p \"$root/bin\"\n\
         printf '#!/bin/sh\\necho \"skillsift built-from-source\"\\n' > \"$root/bin/skillsift\"\n\
         chmod +x \"$root/bin/skillsift\"\n",
    )
    .unwrap();
    chmod_x(&cargo);
    bin
}

/// What the installer is given, the environment it gets, why it must build.
type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);

#[test]
fn installer_builds_from_source_when_no_release_matches_or_when_asked() {
    if !tools_present() {
        return;
    }
    let path = std::env::var("PATH").unwrap();
    let cases: [Case; 3] = [
        (
            "a branch ref",
            &[("SKILLSIFT_ACTION_REF", "main")],
            "not at a release tag, so no release matches",
        ),
        (
            "a version with no release",
            &[("SKILLSIFT_VERSION", "9.9.9")],
            "release v9.9.9 has no SHA256SUMS",
        ),
        (
            "from-source asked for",
            &[
                ("SKILLSIFT_FROM_SOURCE", "true"),
                ("SKILLSIFT_VERSION", "1.2.3"),
            ],
            "from-source was asked for",
        ),
    ];
    for (what, envs, why) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let rel = release(tmp.path(), "1.2.3", "x86_64-unknown-linux-musl");
        let base = format!("file://{}", rel.display());
        let fake = fake_cargo(tmp.path());
        let mut all_envs = vec![
            ("SKILLSIFT_RELEASE_BASE", base.as_str()),
            ("SKILLSIFT_SOURCE", "/src/skillsift"),
        ];
        all_envs.extend_from_slice(envs);
        let out = install(tmp.path(), &all_envs, &format!("{}:{path}", fake.display()));
        let all = text(&out);
        assert!(out.status.success(), "{what}: {all}");
        assert!(all.contains(why), "{what}: {all}");
        assert!(
            all.contains("installed: skillsift built-from-source"),
            "{what}: {all}"
        );
        let args = fs::read_to_string(tmp.path().join("cargo-args")).unwrap();
        assert_eq!(
            args.trim(),
            format!(
                "install --locked --path /src/skillsift --root {} --bin skillsift",
                tmp.path().join("root").display()
            ),
            "{what}"
        );
    }
}

#[test]
fn installer_without_cargo_says_what_to_install() {
    if !tools_present() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // A PATH with the tools the script needs but no cargo.
    let bin = tmp.path().join("bin");
    fs::create_dir_all(&bin).unwrap();
    for tool in [
        "bash",
        "curl",
        "tar",
        "sha256sum",
        "dirname",
        "mktemp",
        "rm",
        "awk",
        "cut",
        "uname",
    ] {
        if let Ok(p) = which(tool) {
            std::os::unix::fs::symlink(p, bin.join(tool)).unwrap();
        }
    }
    let out = install(
        tmp.path(),
        &[("SKILLSIFT_ACTION_REF", "main")],
        &bin.display().to_string(),
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("cargo was not found"), "{all}");
    assert!(all.contains("dtolnay/rust-toolchain"), "{all}");
}

fn which(tool: &str) -> Result<PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
        .ok_or(())
}

#[test]
fn npm_launcher_resolves_every_platform_and_refuses_others() {
    if !have("node") {
        eprintln!("skipping: node is not on PATH (the npm launcher's tests need it)");
        return;
    }
    let out = Command::new("node")
        .arg("--test")
        .arg("test/")
        .current_dir(repo().join("npm/skillsift"))
        .output()
        .unwrap();
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(all.contains("# fail 0"), "{all}");
    for platform in [
        "linux-x64",
        "linux-arm64",
        "darwin-x64",
        "darwin-arm64",
        "win32-x64",
    ] {
        assert!(
            all.contains(&format!("- {platform} resolves to")),
            "{platform}: {all}"
        );
    }
    assert!(all.contains("freebsd-x64 is unsupported"), "{all}");
}

#[test]
fn every_package_declares_the_crate_version() {
    let version = cargo_version();
    let npm: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(repo().join("npm/skillsift/package.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        npm["version"],
        version.as_str(),
        "npm/skillsift/package.json"
    );
    for (name, v) in npm["optionalDependencies"].as_object().unwrap() {
        assert_eq!(v, version.as_str(), "{name} in npm/skillsift/package.json");
    }
    let vscode: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(repo().join("editors/vscode/package.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        vscode["version"],
        version.as_str(),
        "editors/vscode/package.json"
    );
    let shim = table("pyproject.toml");
    assert_eq!(shim["project"]["version"].as_str(), Some(version.as_str()));
    assert_eq!(
        shim["project"]["dependencies"][0].as_str(),
        Some(format!("skillsift=={version}").as_str()),
        "the pre-commit package must pin the release it belongs to"
    );
    let wheel = table("python/pyproject.toml");
    assert_eq!(wheel["project"]["name"].as_str(), Some("skillsift"));
    assert_eq!(wheel["tool"]["maturin"]["bindings"].as_str(), Some("bin"));
    let changelog = fs::read_to_string(repo().join("CHANGELOG.md")).unwrap();
    assert!(
        changelog.contains(&format!("## [{version}]")),
        "CHANGELOG.md needs a section for {version} (the release workflow reads it)"
    );
}

/// The pre-commit hooks run on what can change a check's result: SKILL.md,
/// skillsift.toml, plugin manifests and files of trigger tests in every
/// format the readers take; not on a project's source code.
#[test]
fn the_pre_commit_hooks_run_on_every_file_a_check_reads() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml"),
    )
    .unwrap();
    let docs = yaml_rust2::YamlLoader::load_from_str(&text).unwrap();
    let hooks = docs[0].as_vec().unwrap();
    assert_eq!(hooks.len(), 3);
    for h in hooks {
        let files = regex::Regex::new(h["files"].as_str().unwrap()).unwrap();
        for path in [
            "skills/pdf/SKILL.md",
            "skillsift.toml",
            "plugins/db/.claude-plugin/plugin.json",
            ".claude-plugin/marketplace.json",
            "evals/cases/pdf.json",
            "skills/pdf/evals/evals.json",
            "evals/pdf/prompts.csv",
            "tests/pdf/prompts.md",
            "tests/skill-triggering/prompts/pdf.txt",
            "skills/pdf/evals/routing.jsonl",
            "skills/pdf/tests/trigger_tests.yaml",
            "plugins/x/skills/slides/skill-tests.yaml",
        ] {
            assert!(
                files.is_match(path),
                "{}: {path}",
                h["id"].as_str().unwrap()
            );
        }
        for path in ["src/main.rs", "README.md", "docs/guide.md", "package.json"] {
            assert!(
                !files.is_match(path),
                "{}: {path}",
                h["id"].as_str().unwrap()
            );
        }
    }
}
