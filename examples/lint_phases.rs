//! Times the phases of `skillgate check --no-route` separately (load,
//! lint): wall time and CPU time (user + system, all threads, from
//! /proc/self/stat on Linux), best of N runs.
//!
//! `cargo run --release --example lint_phases -- DIR [N]`

use skillgate::catalog::Catalog;
use skillgate::config::Config;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// CPU time of this process so far, when /proc is there.
fn cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10)) // USER_HZ is 100 on Linux
}

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("catalog folder"));
    let n: usize = args.next().map(|s| s.parse().unwrap()).unwrap_or(5);
    let config = Config::default();
    let mut best = [(Duration::MAX, Duration::MAX); 2];
    let mut found = 0;
    for _ in 0..n {
        let (t, c) = (Instant::now(), cpu());
        let catalog = Catalog::load(&root, &config).unwrap();
        let (t1, c1) = (Instant::now(), cpu());
        let diags = skillgate::lint::run(&catalog, &config);
        let (t2, c2) = (Instant::now(), cpu());
        found = diags.len();
        let cpu_of = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(a), Some(b)) => b - a,
            _ => Duration::ZERO,
        };
        best[0].0 = best[0].0.min(t1 - t);
        best[0].1 = best[0].1.min(cpu_of(c, c1));
        best[1].0 = best[1].0.min(t2 - t1);
        best[1].1 = best[1].1.min(cpu_of(c1, c2));
    }
    println!(
        "load {:?} wall, {:?} cpu; lint {:?} wall, {:?} cpu ({found} lint findings, best of {n})",
        best[0].0, best[0].1, best[1].0, best[1].1
    );
}
