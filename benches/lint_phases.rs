//! Times Tier 1 over a catalog, best of N runs: wall time and CPU time
//! (user + system, all threads, from /proc/self/stat on Linux):
//! - `check`: lint while loading, as `skillsift check` does
//!   (`lint::load_and_run`);
//! - `load` then `lint` separately (`Catalog::load`, `lint::run`).
//!
//! `cargo bench --bench lint_phases -- [DIR] [N]` (default DIR: the wild
//! sample in ../shared/corpora, N = 5). For the end-to-end command with its
//! report, use hyperfine (see docs/tier2-routing.md, "Scale").

use catalog::Catalog;
use config::Config;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// CPU time of this process so far, when /proc is there.
fn cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10)) // USER_HZ is 100 on Linux
}

/// Best (wall, cpu) of `n` runs of `f`.
fn best(n: usize, mut f: impl FnMut() -> usize) -> (Duration, Duration, usize) {
    let (mut wall, mut used, mut found) = (Duration::MAX, Duration::MAX, 0);
    for _ in 0..n {
        let (t, c) = (Instant::now(), cpu());
        found = f();
        wall = wall.min(t.elapsed());
        if let (Some(a), Some(b)) = (c, cpu()) {
            used = used.min(b - a);
        }
    }
    (wall, used, found)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let root = match args.first() {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/wild-sample"),
    };
    if !root.is_dir() {
        eprintln!("skipped: {} does not exist", root.display());
        return;
    }
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let config = Config::default();
    let (w, c, found) = best(n, || {
        let (_catalog, diags) = lint::load_and_run(&root, &config).unwrap();
        diags.len()
    });
    println!("check (lint while loading): {w:?} wall, {c:?} cpu, {found} findings");
    let (w, c, skills) = best(n, || Catalog::load(&root, &config).unwrap().skills.len());
    println!("load: {w:?} wall, {c:?} cpu, {skills} skills");
    let catalog = Catalog::load(&root, &config).unwrap();
    let (w, c, found) = best(n, || lint::run(&catalog, &config).len());
    println!("lint after loading: {w:?} wall, {c:?} cpu, {found} findings (best of {n})");
}
