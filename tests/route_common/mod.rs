//! Shared helpers for the Tier 2 tests: tiny catalogs written to a temp
//! folder, and `check` runs that see only Tier 2 (every rule outside SG5xx
//! is turned off through a generated `--config`, so other tiers' findings
//! never decide these tests' exit codes).
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub fn bin() -> Command {
    let mut c = Command::cargo_bin("skillsift").unwrap();
    c.env("NO_COLOR", "1");
    // `rank` keeps its cache here, not in the user's cache folder
    c.env(
        "SKILLSIFT_CACHE_DIR",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("rank-cache"),
    );
    c
}

/// Every rule id outside SG5xx, from `skillsift rules --format json`.
fn other_rules() -> &'static [String] {
    static IDS: OnceLock<Vec<String>> = OnceLock::new();
    IDS.get_or_init(|| {
        let out = bin().args(["rules", "--format", "json"]).output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_string())
            .filter(|id| !id.starts_with("SG5"))
            .collect()
    })
}

/// A catalog in a temp folder: `root()/skills/<folder>/SKILL.md` and
/// `root()/evals/cases/<skill>.json`, plus a Tier-2-only config beside it.
pub struct Cat {
    dir: tempfile::TempDir,
    route_config: String,
}

impl Cat {
    pub fn new() -> Cat {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("cat/skills")).unwrap();
        Cat {
            dir,
            route_config: String::new(),
        }
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().join("cat")
    }

    /// A skill folder whose SKILL.md has this frontmatter (YAML lines).
    pub fn skill(self, folder: &str, frontmatter: &str) -> Cat {
        let d = self.root().join("skills").join(folder);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!(
                "---\n{}\n---\n\n# {folder}\n\nBody.\n",
                frontmatter.trim_end()
            ),
        )
        .unwrap();
        self
    }

    /// A skill with a one-line name and description.
    pub fn simple(self, name: &str, description: &str) -> Cat {
        self.skill(
            name,
            &format!(
                "name: {name}\ndescription: \"{}\"",
                description.replace('"', "\\\"")
            ),
        )
    }

    /// `evals/cases/<skill>.json` with these prompts, one per line.
    pub fn cases(self, skill: &str, positive: &[&str], negative: &[(&str, Option<&str>)]) -> Cat {
        let pos: Vec<String> = positive
            .iter()
            .map(|p| format!("      {{ \"prompt\": {} }}", Value::from(*p)))
            .collect();
        let neg: Vec<String> = negative
            .iter()
            .map(|(p, o)| match o {
                Some(o) => format!(
                    "      {{ \"prompt\": {}, \"owner\": {} }}",
                    Value::from(*p),
                    Value::from(*o)
                ),
                None => format!("      {{ \"prompt\": {} }}", Value::from(*p)),
            })
            .collect();
        let text = format!(
            "{{\n  \"skill_name\": \"{skill}\",\n  \"trigger\": {{\n    \"positive\": [\n{}\n    ],\n    \"negative\": [\n{}\n    ]\n  }},\n  \"evals\": []\n}}\n",
            pos.join(",\n"),
            neg.join(",\n")
        );
        self.raw_case(skill, &text)
    }

    pub fn raw_case(self, skill: &str, text: &str) -> Cat {
        let d = self.root().join("evals/cases");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join(format!("{skill}.json")), text).unwrap();
        self
    }

    /// Extra configuration (e.g. a `[route]` table) for every run.
    pub fn config(mut self, toml: &str) -> Cat {
        self.route_config = toml.to_string();
        self
    }

    /// The generated config file: other tiers off, plus [`Cat::config`].
    pub fn config_path(&self) -> PathBuf {
        let mut text = String::from("[lint.rules]\n");
        for id in other_rules() {
            text.push_str(&format!("{id} = \"off\"\n"));
        }
        text.push('\n');
        text.push_str(&self.route_config);
        let p = self.dir.path().join("route-only.toml");
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Path of a file in the catalog.
    pub fn file(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// A path outside the catalog (for baselines).
    pub fn outside(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `check --format json` with `args`: exit code and parsed output.
    pub fn check_json(&self, args: &[&str]) -> (i32, Value) {
        let out = bin()
            .arg("check")
            .arg(self.root())
            .arg("--config")
            .arg(self.config_path())
            .args(["--format", "json"])
            .args(args)
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.code().unwrap(), v)
    }

    /// `check` in human format: exit code, stdout, stderr.
    pub fn check_human(&self, args: &[&str]) -> (i32, String, String) {
        let out = bin()
            .arg("check")
            .arg(self.root())
            .arg("--config")
            .arg(self.config_path())
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    /// 1-based line of the first occurrence of `needle` in a catalog file.
    pub fn line_of(&self, rel: &str, needle: &str) -> u64 {
        let text = std::fs::read_to_string(self.file(rel)).unwrap();
        let at = text
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} not in {rel}"));
        text[..at].matches('\n').count() as u64 + 1
    }

    /// Assert that finding `d` points at the line of `rel` holding
    /// `needle`.
    pub fn assert_line(&self, d: &Value, rel: &str, needle: &str) {
        assert_eq!(d["line"], self.line_of(rel, needle), "{d:#}");
    }
}

/// The one diagnostic of a JSON report with rule `id`; panics, showing
/// the report, when there is not exactly one.
pub fn only<'a>(report: &'a Value, id: &str) -> &'a Value {
    let d = with_rule(report, id);
    assert_eq!(d.len(), 1, "{report:#}");
    d[0]
}

/// The diagnostics of a JSON report with rule `id`.
pub fn with_rule<'a>(report: &'a Value, id: &str) -> Vec<&'a Value> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == id)
        .collect()
}

/// Rule ids of a JSON report, in order.
pub fn rules(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .collect()
}

pub fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}
