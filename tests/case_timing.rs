//! Timing of case-file loading and the case/command rules. Ignored by
//! default (never asserted as wall-clock); run with
//! `cargo test --release --test case_timing -- --ignored --nocapture`.

use catalog::Catalog;
use catalog::json;
use config::Config;
use std::fmt::Write as _;
use std::time::Instant;

fn case_file(name: &str, other: &str) -> String {
    format!(
        r#"{{
  "skill_name": "{name}",
  "trigger": {{
    "positive": [
      {{ "prompt": "please do the {name} thing for this repository", "top_k": 1 }},
      {{ "prompt": "I need {name} done before the release \u00e9\ud83d\ude00" }},
      {{ "prompt": "can you handle {name} here" }}
    ],
    "negative": [
      {{ "prompt": "do the {other} thing instead", "owner": "{other}" }},
      {{ "prompt": "book a flight to Lisbon" }}
    ]
  }},
  "evals": [
    {{
      "id": 1,
      "prompt": "Run {name} on the fixture project.",
      "expected_output": "The fixture project after {name}",
      "files": ["{name}"],
      "expectations": ["The change is minimal", "The tests pass"]
    }}
  ]
}}
"#
    )
}

#[test]
#[ignore]
fn time_loading_and_checking_case_files() {
    let n = 15_000;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..n {
        let name = format!("skill-{i:05}");
        let other = format!("skill-{:05}", (i + 1) % n);
        let sd = root.join("skills").join(&name);
        std::fs::create_dir_all(&sd).unwrap();
        std::fs::write(
            sd.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Does {name}. Use when asked for {name}.\n---\n\n# {name}\n"),
        )
        .unwrap();
        std::fs::create_dir_all(root.join("evals/fixtures").join(&name)).unwrap();
        std::fs::write(root.join("evals/fixtures").join(&name).join("a.txt"), "a").unwrap();
        std::fs::create_dir_all(root.join("evals/cases")).unwrap();
        std::fs::write(
            root.join("evals/cases").join(format!("{name}.json")),
            case_file(&name, &other),
        )
        .unwrap();
    }
    let config = Config::default();
    let t = Instant::now();
    let loaded = catalog::cases::load_all(root, &config, &[]);
    let load = t.elapsed();
    assert_eq!(loaded.case_files.len(), n);
    assert!(loaded.diagnostics.is_empty());
    let t = Instant::now();
    let catalog = Catalog::load(root, &config).unwrap();
    let whole = t.elapsed();
    let t = Instant::now();
    let found = lint::run(&catalog, &config);
    let lint = t.elapsed();
    assert!(found.is_empty(), "{:?}", &found[..found.len().min(3)]);
    eprintln!(
        "{n} case files: cases::load_all {load:?}; Catalog::load (skills + cases) {whole:?}; lint::run {lint:?}"
    );
}

/// Parse throughput on one 4 MiB case file, against serde_json on the same
/// text (the ratio is meaningful on a loaded machine; the absolute is not).
#[test]
#[ignore]
fn time_json_parse_against_serde_json() {
    let mut big = String::from("{\"skill_name\": \"x\", \"trigger\": {\"positive\": [");
    let mut i = 0;
    while big.len() < 4 * 1024 * 1024 - 200 {
        if i > 0 {
            big.push(',');
        }
        write!(
            big,
            "{{\"prompt\": \"prompt number {i} with an escape \\n and \\u00e9\", \"top_k\": 3}}"
        )
        .unwrap();
        i += 1;
    }
    big.push_str("]}}");
    let best = |f: &dyn Fn()| {
        (0..10)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    let ours = best(&|| {
        let tree = json::parse(&big).unwrap();
        assert!(tree.duplicates.is_empty());
    });
    let theirs = best(&|| {
        let v: serde_json::Value = serde_json::from_str(&big).unwrap();
        assert!(v.is_object());
    });
    eprintln!(
        "4 MiB case file ({i} prompts), best of 10: json::parse {ours:?} ({:.0} MB/s), serde_json::Value {theirs:?} ({:.0} MB/s)",
        big.len() as f64 / ours.as_secs_f64() / 1e6,
        big.len() as f64 / theirs.as_secs_f64() / 1e6
    );
}
