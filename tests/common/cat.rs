//! Catalogs written in a temp folder by the tests: a builder, and the
//! catalog `tune` and the language server's code actions tune.

use serde_json::json;
use std::path::PathBuf;

/// A catalog in a temp folder.
pub struct Cat {
    pub dir: tempfile::TempDir,
}

impl Cat {
    pub fn new() -> Cat {
        Cat {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().join("cat")
    }

    /// `skills/<folder>/SKILL.md` (or under `base`) with this frontmatter.
    pub fn skill_at(self, base: &str, folder: &str, frontmatter: &str) -> Cat {
        let d = self.root().join(base).join(folder);
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

    pub fn skill(self, folder: &str, frontmatter: &str) -> Cat {
        self.skill_at("skills", folder, frontmatter)
    }

    /// `evals/cases/<skill>.json`: each prompt `(text, split, owner)`.
    pub fn cases(
        self,
        skill: &str,
        positive: &[(&str, &str)],
        negative: &[(&str, &str, &str)],
    ) -> Cat {
        let row = |p: &str, split: &str, owner: &str| {
            let mut v = json!({ "prompt": p });
            if !split.is_empty() {
                v["split"] = split.into();
            }
            if !owner.is_empty() {
                v["owner"] = owner.into();
            }
            v
        };
        let doc = json!({
            "skill_name": skill,
            "trigger": {
                "positive": positive.iter().map(|(p, s)| row(p, s, "")).collect::<Vec<_>>(),
                "negative": negative.iter().map(|(p, s, o)| row(p, s, o)).collect::<Vec<_>>(),
            },
            "evals": [],
        });
        let d = self.root().join("evals/cases");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join(format!("{skill}.json")),
            serde_json::to_string_pretty(&doc).unwrap(),
        )
        .unwrap();
        self
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root().join(rel)).unwrap()
    }
}

/// The validation and fresh prompts of [`flaky`]: never in any output.
pub const HELD_OUT: &[&str] = &[
    "a flaky test keeps failing the pipeline",
    "flaky tests break the nightly build",
    "tests fail at random, find the shared state",
    "the CI pipeline fails at the deploy step",
    "stop the flaky integration tests from failing",
];

/// `test-doctor` says "unreliable", its users say "flaky"; `ci-debug`
/// takes their prompts. Labelled: 5 train, 4 validation, 1 fresh.
pub fn flaky(description: &str) -> Cat {
    Cat::new()
        .skill("test-doctor", &format!("name: test-doctor\ndescription: {description}"))
        .skill(
            "ci-debug",
            "name: ci-debug\ndescription: Debugs failing CI pipelines, reads build logs, finds the failing step and fixes the workflow file.",
        )
        .skill(
            "test-writer",
            "name: test-writer\ndescription: \"Writes unit tests for new code: picks cases, mocks dependencies and checks coverage.\"",
        )
        .skill(
            "release-notes",
            "name: release-notes\ndescription: 'Drafts release notes from merged pull requests and the changelog.'",
        )
        .cases(
            "test-doctor",
            &[
                ("my tests are flaky, can you fix them", "train"),
                ("flaky tests keep breaking the nightly build", "train"),
                ("which flaky test is failing our pipeline again", "train"),
                ("tests pass and fail at random on my laptop", "train"),
                (HELD_OUT[0], "validation"),
                (HELD_OUT[1], "validation"),
                (HELD_OUT[2], "validation"),
                (HELD_OUT[4], "fresh"),
            ],
            &[
                ("write unit tests for the new parser", "train", "test-writer"),
                (HELD_OUT[3], "validation", "ci-debug"),
            ],
        )
        .cases(
            "ci-debug",
            &[
                ("the CI pipeline is red, read the build logs", ""),
                ("fix the failing step in the workflow file", ""),
            ],
            &[],
        )
        .cases(
            "test-writer",
            &[
                ("write unit tests for this module", ""),
                ("mock the dependencies and check coverage", ""),
            ],
            &[],
        )
}
