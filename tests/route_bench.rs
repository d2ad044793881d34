//! Scale: a generator of large catalogs whose vocabulary is drawn from the
//! real descriptions of the wild sample, and timings of every Tier 2 phase.
//!
//! The benchmark is `#[ignore]`d (it never asserts on wall-clock time); run
//! it on a release build and read the figures it prints:
//!
//! ```sh
//! SKILLSIFT_BENCH_DIR=/tmp/sgbench cargo test --release --test route_bench -- --ignored --nocapture
//! # then, with the catalogs it left in $SKILLSIFT_BENCH_DIR:
//! hyperfine -w 3 'target/release/skillsift rank "review this pull request for security issues" /tmp/sgbench/skills-15000'
//! hyperfine -w 1 'target/release/skillsift check /tmp/sgbench/skills-10000 --format json --no-route' \
//!                'target/release/skillsift check /tmp/sgbench/skills-10000 --format json'
//! ```
//!
//! Generation (seeded SplitMix64, so the same seed writes the same bytes):
//! every generated skill's description splices a run of 8–20 words from
//! one real description, a run of 4–12 from another, and 4–10 words drawn
//! from the sample's overall word distribution, so that skills share real
//! vocabulary at real frequencies without being copies of one another; its
//! name joins two of its longer words and a short tag. Each skill gets three positive prompts
//! (5–9 of its own description's words, shuffled, plus 1–2 words from
//! anywhere) and two negatives (words of another skill, that skill as
//! `owner`).

mod route_common;

use catalog::Catalog;
use config::Config;
use route_common::manifest;
use score::uplift::SplitMix64;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

/// The scorer's SplitMix64, drawing indexes by modulo (the generated
/// catalogs' bytes depend on it).
struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }
}

/// Real descriptions, split into words (letters, digits, apostrophes and
/// hyphens kept; other punctuation dropped).
fn real_descriptions() -> Option<Vec<Vec<String>>> {
    let root = manifest("../shared/corpora/wild-sample");
    if !root.is_dir() {
        return None;
    }
    let catalog = Catalog::load(&root, &Config::default()).unwrap();
    let mut out = Vec::new();
    for s in &catalog.skills {
        let Some(d) = s.description() else { continue };
        let words: Vec<String> = d
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string())
            .filter(|w| !w.is_empty() && !w.contains(['"', '\\']))
            .collect();
        if words.len() >= 5 {
            out.push(words);
        }
    }
    Some(out)
}

/// A generated skill.
struct Gen {
    name: String,
    description: Vec<String>,
}

/// Write a catalog of `n` skills (and, when `cases`, five trigger prompts
/// per skill) under `dir`.
fn generate(dir: &Path, bases: &[Vec<String>], n: usize, cases: bool, seed: u64) {
    let mut rng = Rng(SplitMix64::new(seed));
    let pool: Vec<&String> = bases.iter().flatten().collect();
    let mut names = HashSet::new();
    let mut skills: Vec<Gen> = Vec::with_capacity(n);
    while skills.len() < n {
        let mut description: Vec<String> = Vec::new();
        for (lo, hi) in [(8, 20), (4, 12)] {
            let base = &bases[rng.below(bases.len())];
            let len = (lo + rng.below(hi - lo + 1)).min(base.len());
            let start = rng.below(base.len() - len + 1);
            description.extend(base[start..start + len].iter().cloned());
        }
        for _ in 0..4 + rng.below(7) {
            let at = rng.below(description.len() + 1);
            description.insert(at, pool[rng.below(pool.len())].clone());
        }
        let long: Vec<String> = description
            .iter()
            .map(|w| w.to_lowercase())
            .filter(|w| w.len() >= 4 && w.chars().all(|c| c.is_ascii_alphanumeric()))
            .collect();
        if long.len() < 2 {
            continue;
        }
        let tag = format!("{:02x}", rng.below(256));
        let name = format!(
            "{}-{}-{tag}",
            long[rng.below(long.len())],
            long[rng.below(long.len())]
        );
        if name.len() > 64 || !names.insert(name.clone()) {
            continue;
        }
        skills.push(Gen { name, description });
    }
    std::fs::create_dir_all(dir.join("skills")).unwrap();
    if cases {
        std::fs::create_dir_all(dir.join("evals/cases")).unwrap();
    }
    for (i, s) in skills.iter().enumerate() {
        let d = dir.join("skills").join(&s.name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!(
                "---\nname: {}\ndescription: >-\n  {}\n---\n\n# {}\n\nSteps.\n",
                s.name,
                s.description.join(" "),
                s.name
            ),
        )
        .unwrap();
        if !cases {
            continue;
        }
        let mut text = format!(
            "{{\n  \"skill_name\": \"{}\",\n  \"trigger\": {{\n    \"positive\": [\n",
            s.name
        );
        for p in 0..3 {
            let mut words: Vec<&String> = Vec::new();
            for _ in 0..5 + rng.below(5) {
                words.push(&s.description[rng.below(s.description.len())]);
            }
            for _ in 0..1 + rng.below(2) {
                words.push(pool[rng.below(pool.len())]);
            }
            for k in (1..words.len()).rev() {
                words.swap(k, rng.below(k + 1));
            }
            let sep = if p < 2 { "," } else { "" };
            let _ = writeln!(
                text,
                "      {{ \"prompt\": {} }}{sep}",
                serde_json::Value::from(
                    words
                        .iter()
                        .map(|w| w.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            );
        }
        text.push_str("    ],\n    \"negative\": [\n");
        for q in 0..2 {
            let mut other = rng.below(skills.len());
            if other == i {
                other = (other + 1) % skills.len();
            }
            let o = &skills[other];
            let words: Vec<&str> = (0..6)
                .map(|_| o.description[rng.below(o.description.len())].as_str())
                .collect();
            let sep = if q < 1 { "," } else { "" };
            let _ = writeln!(
                text,
                "      {{ \"prompt\": {}, \"owner\": \"{}\" }}{sep}",
                serde_json::Value::from(words.join(" ")),
                o.name
            );
        }
        text.push_str("    ]\n  },\n  \"evals\": []\n}\n");
        std::fs::write(dir.join(format!("evals/cases/{}.json", s.name)), text).unwrap();
    }
}

#[test]
fn generator_is_deterministic_and_its_catalogs_route() {
    let Some(bases) = real_descriptions() else {
        eprintln!("skipping: ../shared/corpora/wild-sample not present");
        return;
    };
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    generate(a.path(), &bases, 60, true, 7);
    generate(b.path(), &bases, 60, true, 7);
    let read = |p: &Path| {
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        for sub in ["skills", "evals/cases"] {
            let mut stack = vec![p.join(sub)];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).unwrap() {
                    let e = e.unwrap();
                    if e.file_type().unwrap().is_dir() {
                        stack.push(e.path());
                    } else {
                        let rel = e.path().strip_prefix(p).unwrap().display().to_string();
                        files.push((rel, std::fs::read(e.path()).unwrap()));
                    }
                }
            }
        }
        files.sort();
        files
    };
    assert_eq!(read(a.path()), read(b.path()));
    let config = Config::default();
    let catalog = Catalog::load(a.path(), &config).unwrap();
    assert_eq!(catalog.skills.len(), 60);
    assert_eq!(catalog.cases.len(), 60);
    let router = route::Router::new(&catalog, &config).unwrap();
    assert_eq!(router.index.len(), 60);
    let outcome = route::cases::check(&router, &config.route);
    assert_eq!(outcome.positives, 180);
    assert_eq!(outcome.checks, 300);
    // prompts drawn from a skill's own words mostly find it
    assert!(outcome.rank1 * 2 > outcome.positives, "{}", outcome.rank1);
}

/// CPU seconds (user + system) this process has used, from
/// `/proc/self/stat` (Linux; 0 elsewhere).
fn cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields, in clock ticks (100 per second on Linux)
    let rest = stat.rsplit_once(')').map_or("", |x| x.1);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11).and_then(|x| x.parse().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|x| x.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}

/// A phase's cost: wall time, and CPU time spread over `threads` cores (the
/// wall time it would take on that many idle cores).
struct Clock(Instant, f64);

fn start() -> Clock {
    Clock(Instant::now(), cpu())
}

fn secs(c: Clock) -> String {
    let threads = rayon::current_num_threads() as f64;
    let used = cpu() - c.1;
    format!(
        "{:.3} s wall, {:.2} s CPU (= {:.3} s on {threads} idle cores)",
        c.0.elapsed().as_secs_f64(),
        used,
        used / threads
    )
}

#[test]
#[ignore = "benchmark: run on a release build with --ignored --nocapture"]
fn bench_tier2_at_scale() {
    let Some(bases) = real_descriptions() else {
        eprintln!("skipping: ../shared/corpora/wild-sample not present");
        return;
    };
    let keep = std::env::var_os("SKILLSIFT_BENCH_DIR");
    let tmp = tempfile::tempdir().unwrap();
    let base = keep
        .as_ref()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| tmp.path().to_path_buf());
    let threads = rayon::current_num_threads();
    println!("rayon threads: {threads}");
    let config = Config::default();

    // 15,000 skills: load, index, collision pass
    let big = base.join("skills-15000");
    if !big.join("skills").is_dir() {
        let t = start();
        generate(&big, &bases, 15_000, false, 15_000);
        println!("generate 15,000 skills: {}", secs(t));
    }
    let t = start();
    let catalog = Catalog::load(&big, &config).unwrap();
    println!("load 15,000 skills: {}", secs(t));
    let t = start();
    let router = route::Router::new(&catalog, &config).unwrap();
    println!(
        "index 15,000 skills ({} terms): {}",
        router.index.vocab_len(),
        secs(t)
    );
    let t = start();
    let pairs = route::collide::collisions(&router.index, config.route.collision_warning);
    println!(
        "collision pass over 15,000 skills at {}: {} ({} pairs)",
        config.route.collision_warning,
        secs(t),
        pairs.len()
    );
    drop(router);
    drop(catalog);

    // 10,000 skills × 50,000 prompts
    let mid = base.join("skills-10000");
    if !mid.join("skills").is_dir() {
        let t = start();
        generate(&mid, &bases, 10_000, true, 10_000);
        println!("generate 10,000 skills + 50,000 prompts: {}", secs(t));
    }
    let t = start();
    let catalog = Catalog::load(&mid, &config).unwrap();
    println!("load 10,000 skills + 10,000 case files: {}", secs(t));
    let t = start();
    let router = route::Router::new(&catalog, &config).unwrap();
    println!("index 10,000 skills: {}", secs(t));
    let prompts: Vec<&str> = catalog
        .cases
        .iter()
        .flat_map(|c| c.positive.iter().chain(&c.negative))
        .map(|t| t.prompt.value.as_str())
        .collect();
    let t = start();
    let terms: usize = prompts
        .iter()
        .map(|p| {
            route::index::Query::new(p, &router.analyzer, &router.index)
                .terms
                .len()
        })
        .sum();
    println!(
        "of which analyzing {} prompts ({terms} terms), one thread: {}",
        prompts.len(),
        secs(t)
    );
    let t = start();
    let outcome = route::cases::check(&router, &config.route);
    println!(
        "rank {} prompts against 10,000 skills: {} (rank-1 {}/{}, {} of {} checks pass)",
        outcome.checks,
        secs(t),
        outcome.rank1,
        outcome.positives,
        outcome.checks_passed,
        outcome.checks
    );
    assert_eq!(outcome.checks, 50_000);
    let t = start();
    let pairs = route::collide::collisions(&router.index, config.route.collision_warning);
    println!(
        "collision pass over 10,000 skills: {} ({} pairs)",
        secs(t),
        pairs.len()
    );
}

/// A 1,000-skill catalog with five trigger prompts per skill, for timing
/// `skillsift report` on it:
///
/// ```sh
/// SKILLSIFT_BENCH_DIR=/tmp/sgbench cargo test --release --test route_bench -- --ignored generate_1000 --nocapture
/// hyperfine -w 2 'target/release/skillsift report /tmp/sgbench/skills-1000 -o /tmp/r.html'
/// ```
#[test]
#[ignore = "generates a catalog for benchmarks: run with --ignored"]
fn generate_1000() {
    let Some(bases) = real_descriptions() else {
        eprintln!("skipping: ../shared/corpora/wild-sample not present");
        return;
    };
    let Some(base) = std::env::var_os("SKILLSIFT_BENCH_DIR") else {
        eprintln!("skipping: set SKILLSIFT_BENCH_DIR to the folder to write the catalog into");
        return;
    };
    let dir = Path::new(&base).join("skills-1000");
    if !dir.join("skills").is_dir() {
        generate(&dir, &bases, 1_000, true, 1_000);
    }
    println!("{}", dir.display());
}
