//! The out-of-sample benchmark of `skillsift tune`, on the routing
//! benchmark's catalogs (`../shared/corpora/routing-bench` and
//! `../shared/corpora/addyosmani-agent-skills`), through the binary, on a
//! temporary copy of each (the corpora are never written):
//!
//! 1. every `split` label is taken out of the copy's case files, so that
//!    every skill's prompts are split as tune splits an unlabelled set:
//!    in file order, the 1st, 3rd, 5th … prompt of each side is train and
//!    the 2nd, 4th, 6th … validation;
//! 2. **before**: `tune SKILL --format json` on every skill, read for the
//!    current description's figures;
//! 3. `tune SKILL --write` on every skill with a failing train prompt, one
//!    after the other (each sees the descriptions written before it);
//! 4. **after**: the figures of every skill again, and `check --format
//!    json` on the whole copy.
//!
//! Prints, per catalog and pooled: validation rank-1 (the number that
//! matters: positives tune never read), validation prompts passing,
//! train rank-1, and the prompts of the skills tune did not write, before
//! and after. `docs/tune.md` holds the table (`SKILLSIFT_BENCH_WRITE=1`
//! rewrites it). Slow (three `tune` runs per skill): ignored by default;
//! run it with
//! `cargo test --release --test tune_benchmark -- --ignored --nocapture`.
//! Skips with a message when `../shared` is absent.

mod common;

use common::skillsift;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const CATALOGS: &[&str] = &[
    "addyosmani-agent-skills",
    "routing-bench/PlagueHO__plagueho.skills",
    "routing-bench/SalesforceCommerceCloud__b2c-developer-tooling",
    "routing-bench/eliasstravik__skills",
    "routing-bench/eugenelim__agent-ready-repo",
    "routing-bench/joestump__claude-plugin-sdd",
    "routing-bench/tony__ai-workflow-plugins",
];

fn corpora() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    if p.join("routing-bench").is_dir() {
        Some(p)
    } else {
        eprintln!(
            "skipped: {} does not exist",
            p.join("routing-bench").display()
        );
        None
    }
}

/// `passed/of` pairs, before and after.
#[derive(Debug, Default, Clone, Copy)]
struct Pair {
    before: (u64, u64),
    after: (u64, u64),
}

impl Pair {
    fn add(&mut self, o: &Pair) {
        self.before.0 += o.before.0;
        self.before.1 += o.before.1;
        self.after.0 += o.after.0;
        self.after.1 += o.after.1;
    }

    fn text(&self) -> String {
        let pct = |(k, n): (u64, u64)| {
            if n == 0 {
                "–".to_string()
            } else {
                format!("{:.1} %", 100.0 * k as f64 / n as f64)
            }
        };
        format!(
            "{}/{} ({}) → {}/{} ({})",
            self.before.0,
            self.before.1,
            pct(self.before),
            self.after.0,
            self.after.1,
            pct(self.after)
        )
    }
}

#[derive(Debug, Default, Clone, Copy)]
struct Row {
    skills: u64,
    tuned: u64,
    written: u64,
    validation_rank1: Pair,
    validation: Pair,
    train_rank1: Pair,
    /// Every prompt of the skills `--write` did not change.
    others: Pair,
    /// `check`'s rank-1 over every positive.
    check_rank1: Pair,
}

/// Remove every `split` key from the JSON files under `dir`.
fn strip_splits(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_symlink() {
            continue;
        }
        if p.is_dir() {
            strip_splits(&p);
        } else if p.extension().is_some_and(|x| x == "json") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            if !text.contains("\"split\"") {
                continue;
            }
            let Ok(mut v) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            fn strip(v: &mut Value) {
                match v {
                    Value::Object(m) => {
                        m.remove("split");
                        m.values_mut().for_each(strip);
                    }
                    Value::Array(a) => a.iter_mut().for_each(strip),
                    _ => {}
                }
            }
            strip(&mut v);
            std::fs::write(&p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        }
    }
}

/// The frontmatter names of the catalog's skills, each once.
fn names(dir: &Path) -> Vec<String> {
    let out = skillsift()
        .args(["listing", "--client", "spec", "--format", "json"])
        .arg(dir)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut seen = BTreeSet::new();
    v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["listed"] == true)
        .filter_map(|e| e["name"].as_str().map(str::to_string))
        .filter(|n| seen.insert(n.clone()))
        .collect()
}

/// `tune NAME --format json` (and `--write`): the document, or `None`
/// when tune refuses the skill (no prompts: exit 2; too few: exit 3).
fn tune(dir: &Path, name: &str, write: bool) -> Option<Value> {
    let mut c = skillsift();
    c.args(["tune", name, "--format", "json"]).arg(dir);
    if write {
        c.arg("--write");
    }
    let out = c.output().unwrap();
    match out.status.code() {
        Some(0) => Some(serde_json::from_slice(&out.stdout).unwrap()),
        Some(2 | 3) => None,
        code => panic!(
            "tune {name} {}: exit {code:?}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

fn count(v: &Value) -> (u64, u64) {
    (v["passed"].as_u64().unwrap(), v["of"].as_u64().unwrap())
}

fn check_rank1(dir: &Path) -> (u64, u64) {
    let out = skillsift()
        .args(["check", "--format", "json"])
        .arg(dir)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &v["summary"]["route"];
    (
        r["rank1"].as_u64().unwrap(),
        r["positives"].as_u64().unwrap(),
    )
}

fn measure(src: &Path) -> Row {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("catalog");
    let ok = std::process::Command::new("cp")
        .arg("-a")
        .arg(src)
        .arg(&dir)
        .status()
        .unwrap()
        .success();
    assert!(ok, "copy {}", src.display());
    let chmod = std::process::Command::new("chmod")
        .args(["-R", "u+w"])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(chmod.success());
    strip_splits(&dir);
    let mut row = Row::default();
    let check_before = check_rank1(&dir);
    let names = names(&dir);
    let before: Vec<(String, Value)> = names
        .iter()
        .filter_map(|n| tune(&dir, n, false).map(|d| (n.clone(), d)))
        .collect();
    let mut written = BTreeSet::new();
    for (n, d) in &before {
        let failing = d["train"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["passed"] == false);
        if !failing {
            continue;
        }
        row.tuned += 1;
        if let Some(w) = tune(&dir, n, true)
            && w["written"] == true
        {
            written.insert(n.clone());
        }
    }
    row.written = written.len() as u64;
    for (n, d) in &before {
        let a = tune(&dir, n, false).expect("tunable after as before");
        let f = |doc: &Value, k: &str| count(&doc["current"]["figures"][k]);
        let pair = |k: &str| Pair {
            before: f(d, k),
            after: f(&a, k),
        };
        row.skills += 1;
        row.validation_rank1.add(&pair("validation_rank1"));
        row.validation.add(&pair("validation"));
        row.train_rank1.add(&pair("train_rank1"));
        if !written.contains(n) {
            for k in ["train_rank1", "train_negatives", "validation"] {
                row.others.add(&pair(k));
            }
        }
    }
    row.check_rank1 = Pair {
        before: check_before,
        after: check_rank1(&dir),
    };
    row
}

fn line(name: &str, r: &Row) -> String {
    format!(
        "| {name} | {} | {} | {} | {} | {} | {} | {} | {} |",
        r.skills,
        r.tuned,
        r.written,
        r.validation_rank1.text(),
        r.validation.text(),
        r.train_rank1.text(),
        r.others.text(),
        r.check_rank1.text(),
    )
}

const BEGIN: &str = "<!-- tune-benchmark:begin -->";
const END: &str = "<!-- tune-benchmark:end -->";

#[test]
#[ignore = "slow: three tune runs per skill of seven catalogs; run with --ignored"]
fn tune_benchmark() {
    let Some(root) = corpora() else { return };
    let mut pooled = Row::default();
    let mut table = vec![
        "| catalog | skills tuned on | with a failing train prompt | written | validation rank-1 | validation prompts passing | train rank-1 | prompts of the skills not written | `check` rank-1 |".to_string(),
        "|---|---|---|---|---|---|---|---|---|".to_string(),
    ];
    for name in CATALOGS {
        let r = measure(&root.join(name));
        eprintln!("{}", line(name, &r));
        pooled.skills += r.skills;
        pooled.tuned += r.tuned;
        pooled.written += r.written;
        pooled.validation_rank1.add(&r.validation_rank1);
        pooled.validation.add(&r.validation);
        pooled.train_rank1.add(&r.train_rank1);
        pooled.others.add(&r.others);
        pooled.check_rank1.add(&r.check_rank1);
        let short = name.trim_start_matches("routing-bench/");
        table.push(line(&format!("`{short}`"), &r));
    }
    table.push(line("**pooled**", &pooled));
    let table = table.join("\n");
    println!("{table}");
    // what the method promises: validation never falls in the pool, and
    // the skills tune did not write keep their prompts
    assert!(
        pooled.validation.after.0 >= pooled.validation.before.0,
        "pooled validation fell: {}",
        pooled.validation.text()
    );
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tune.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    let (head, rest) = text.split_once(BEGIN).expect("begin marker");
    let (_, tail) = rest.split_once(END).expect("end marker");
    let want = format!("{head}{BEGIN}\n{table}\n{END}{tail}");
    if std::env::var_os("SKILLSIFT_BENCH_WRITE").is_some() {
        std::fs::write(&doc, want).unwrap();
    } else {
        assert!(
            text == want,
            "docs/tune.md is out of date; rerun with SKILLSIFT_BENCH_WRITE=1:\n{table}"
        );
    }
}
