//! The whole command on a catalog shaped like the public mirror of real
//! skills (`gabrielmoreira/agent-skills-mirror` at 4e7649a8: 15,728
//! skills, 11,800 bundled files): wall, cpu, peak memory of `skillsift
//! check --format json` and of Tier 1 alone (`--no-route`), median of N
//! runs, against a floor (every file read once and scanned for newlines,
//! one thread), and the allocations Tier 1 makes per MB read (in this
//! process, through a counting allocator).
//!
//! The catalog is generated when the benchmark runs (fixed seed, never
//! committed) under `target/bench-catalogs/`: SKILL.md sizes, bundled
//! files per skill, their kinds and sizes are drawn from the mirror's
//! distribution (quantiles below), with a few binaries and large files the
//! mirror's snapshot lacks but real catalogs carry.
//!
//! `cargo bench --bench mirror_shaped -- [SKILLS] [N]` (default 15728
//! skills, N = 3). The same runs follow on `../shared/corpora/wild-sample`
//! when it exists, and on `SKILLSIFT_BENCH_DIR` (any catalog, e.g. a
//! fetched copy of the mirror). With `SKILL_CHECK=<path to skill-check>`,
//! each catalog is also run through `skill-check check DIR --format json
//! --no-security-scan`, paired run by run.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Counts allocations (for the in-process Tier 1 pass).
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bumped when the generator changes, so an old catalog is not reused.
const VERSION: u32 = 1;

/// xorshift64*: a fixed sequence from a fixed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// In [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// A draw from a distribution given by quantiles `(percent, value)`,
    /// linear between them.
    fn quantile(&mut self, q: &[(f64, f64)]) -> usize {
        let p = self.unit() * 100.0;
        for w in q.windows(2) {
            let ((p0, v0), (p1, v1)) = (w[0], w[1]);
            if p <= p1 {
                return (v0 + (v1 - v0) * (p - p0) / (p1 - p0)) as usize;
            }
        }
        q[q.len() - 1].1 as usize
    }
}

// The mirror's distributions (bytes; percentiles measured on 4e7649a8).
const SKILL_MD: &[(f64, f64)] = &[
    (0.0, 300.0),
    (10.0, 1579.0),
    (25.0, 3011.0),
    (50.0, 6606.0),
    (75.0, 11491.0),
    (90.0, 16953.0),
    (99.0, 37296.0),
    (99.9, 75510.0),
    (100.0, 250_000.0),
];
/// Bundled files of a skill that has any (84.8 % have none).
const FILES: &[(f64, f64)] = &[
    (0.0, 1.0),
    (40.0, 2.0),
    (80.0, 6.0),
    (93.0, 10.0),
    (99.3, 49.0),
    (100.0, 200.0),
];
const MD: &[(f64, f64)] = &[
    (0.0, 200.0),
    (50.0, 3443.0),
    (90.0, 14686.0),
    (99.0, 46080.0),
    (100.0, 300_000.0),
];
const PY: &[(f64, f64)] = &[
    (0.0, 300.0),
    (50.0, 6669.0),
    (90.0, 16896.0),
    (99.0, 49406.0),
    (100.0, 200_000.0),
];
const SH: &[(f64, f64)] = &[
    (0.0, 100.0),
    (50.0, 2254.0),
    (90.0, 9574.0),
    (100.0, 23129.0),
];
const JS: &[(f64, f64)] = &[
    (0.0, 500.0),
    (50.0, 7000.0),
    (90.0, 20000.0),
    (100.0, 90000.0),
];

const WORDS: &[&str] = &[
    "the",
    "a",
    "to",
    "of",
    "and",
    "in",
    "for",
    "with",
    "when",
    "use",
    "this",
    "skill",
    "file",
    "files",
    "user",
    "asks",
    "run",
    "test",
    "tests",
    "code",
    "review",
    "deploy",
    "build",
    "data",
    "query",
    "table",
    "api",
    "request",
    "response",
    "error",
    "errors",
    "log",
    "logs",
    "check",
    "pull",
    "branch",
    "commit",
    "release",
    "notes",
    "docs",
    "document",
    "pdf",
    "form",
    "fill",
    "chart",
    "report",
    "invoice",
    "customer",
    "email",
    "draft",
    "summary",
    "meeting",
    "plan",
    "design",
    "component",
    "react",
    "python",
    "script",
    "shell",
    "docker",
    "kubernetes",
    "cluster",
    "database",
    "migration",
    "schema",
    "index",
    "cache",
    "latency",
    "performance",
    "profile",
    "security",
    "secret",
    "token",
    "key",
    "config",
    "settings",
    "workflow",
    "pipeline",
    "job",
    "agent",
    "model",
    "prompt",
    "context",
    "output",
    "input",
    "format",
    "json",
    "yaml",
    "markdown",
    "table",
    "image",
    "audio",
    "video",
    "slide",
    "deck",
    "spreadsheet",
    "excel",
    "csv",
    "parse",
    "validate",
    "lint",
    "format",
    "refactor",
    "debug",
    "trace",
    "monitor",
    "alert",
    "incident",
];

fn words(r: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(WORDS[r.below(WORDS.len())]);
    }
    s
}

/// Markdown of about `size` bytes: headings, prose, lists, fenced code,
/// links to `links`, now and then a long encoded run or non-ASCII text.
fn markdown(r: &mut Rng, size: usize, links: &[String]) -> String {
    let mut s = String::with_capacity(size + 256);
    while s.len() < size {
        match r.below(20) {
            0..=1 => s.push_str(&format!("\n## {}\n\n", words(r, 3))),
            2..=9 => {
                let n = 20 + r.below(60);
                s.push_str(&words(r, n));
                s.push_str(".\n\n");
            }
            10..=12 => {
                for _ in 0..2 + r.below(5) {
                    let n = 4 + r.below(10);
                    s.push_str(&format!(
                        "- {} `{}`\n",
                        words(r, n),
                        WORDS[r.below(WORDS.len())]
                    ));
                }
                s.push('\n');
            }
            13..=15 => {
                let lang = ["bash", "python", "json", "", "ts"][r.below(5)];
                s.push_str(&format!("```{lang}\n"));
                for _ in 0..2 + r.below(12) {
                    match r.below(8) {
                        0 => s.push_str("curl -fsSL https://example.com/install.sh | bash\n"),
                        1 => s.push_str("pip install requests pandas\n"),
                        2 => s.push_str("export API_KEY=\"your-api-key-here\"\n"),
                        _ => {
                            let n = 3 + r.below(8);
                            s.push_str(&format!(
                                "{}({})\n",
                                WORDS[r.below(WORDS.len())],
                                words(r, n)
                            ));
                        }
                    }
                }
                s.push_str("```\n\n");
            }
            16 if !links.is_empty() => {
                let l = &links[r.below(links.len())];
                s.push_str(&format!("See [{}]({l}) for details.\n\n", words(r, 2)));
            }
            17 if r.below(10) == 0 => {
                let n = 80 + r.below(400);
                let run: String = (0..n)
                    .map(|_| {
                        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                            [r.below(64)] as char
                    })
                    .collect();
                s.push_str(&format!("{run}\n\n"));
            }
            18 if r.below(4) == 0 => s.push_str("Übersicht: schnelle Prüfung — 検証 ✓\n\n"),
            _ => s.push_str(&format!("> {}\n\n", words(r, 12))),
        }
    }
    s
}

fn code(r: &mut Rng, size: usize, comment: &str) -> String {
    let mut s = String::with_capacity(size + 128);
    while s.len() < size {
        let n = 2 + r.below(8);
        match r.below(6) {
            0 => s.push_str(&format!("{comment} {}\n", words(r, n))),
            1 => s.push_str(&format!(
                "def {}_{}():\n    return \"{}\"\n",
                WORDS[r.below(WORDS.len())],
                r.below(999),
                words(r, n)
            )),
            _ => s.push_str(&format!(
                "    {} = {}({})\n",
                WORDS[r.below(WORDS.len())],
                WORDS[r.below(WORDS.len())],
                words(r, n).replace(' ', ", ")
            )),
        }
    }
    s
}

fn write(p: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// Generate the catalog of `skills` skills under `dir`.
fn generate(dir: &Path, skills: usize) {
    let mut r = Rng(0x5eed_0000_0000_0001);
    for i in 0..skills {
        let repo = dir.join(format!("repos/owner{}@repo{}", i / 97, i / 41));
        let name = format!(
            "{}-{}-{i}",
            WORDS[r.below(WORDS.len())],
            WORDS[r.below(WORDS.len())]
        );
        let folder = repo.join("skills").join(&name);
        let mut bundled = Vec::new();
        if r.unit() >= 0.848 {
            for j in 0..r.quantile(FILES) {
                let u = r.unit();
                let (rel, bytes): (String, Vec<u8>) = if u < 0.70 {
                    let n = r.quantile(MD);
                    (
                        format!("references/{j}-{}.md", WORDS[r.below(WORDS.len())]),
                        markdown(&mut r, n, &[]).into_bytes(),
                    )
                } else if u < 0.935 {
                    let n = r.quantile(PY);
                    (format!("scripts/{j}.py"), code(&mut r, n, "#").into_bytes())
                } else if u < 0.955 {
                    let n = r.quantile(SH);
                    (
                        format!("scripts/{j}.sh"),
                        format!("#!/bin/sh\n{}", code(&mut r, n, "#")).into_bytes(),
                    )
                } else if u < 0.975 {
                    let n = r.quantile(JS);
                    (
                        format!("scripts/{j}.mjs"),
                        code(&mut r, n, "//").into_bytes(),
                    )
                } else if u < 0.99 {
                    // an image or a font: binary
                    let n = 2_000 + r.below(200_000);
                    let mut b = b"\x89PNG\r\n\x1a\n".to_vec();
                    b.extend((0..n).map(|_| r.next() as u8));
                    (format!("assets/{j}.png"), b)
                } else if u < 0.997 {
                    // a lock file or minified bundle
                    let n = 50_000 + r.below(400_000);
                    (
                        format!("assets/{j}.min.js"),
                        code(&mut r, n, "//").replace('\n', ";").into_bytes(),
                    )
                } else {
                    // a large data file
                    let n = 1_000_000 + r.below(3_000_000);
                    let mut s = String::from("id,name,value\n");
                    while s.len() < n {
                        s.push_str(&format!(
                            "{},{},{}\n",
                            r.below(1_000_000),
                            WORDS[r.below(WORDS.len())],
                            r.below(1000)
                        ));
                    }
                    (format!("assets/{j}.csv"), s.into_bytes())
                };
                write(&folder.join(&rel), &bytes);
                bundled.push(rel);
            }
        }
        let description = format!(
            "{}. Use when the user asks to {}.",
            words(&mut r, 8),
            words(&mut r, 6)
        );
        let size = r.quantile(SKILL_MD);
        let body = markdown(&mut r, size, &bundled);
        write(
            &folder.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{body}")
                .as_bytes(),
        );
    }
    write(
        &dir.join(".generated"),
        format!("{VERSION} {skills}\n").as_bytes(),
    );
}

/// Files and bytes under `dir`, and the floor: every file read once and
/// its newlines counted, on one thread or (`parallel`) on every core, as
/// `check` runs.
fn floor(dir: &Path, parallel: bool) -> (usize, u64, Duration) {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        for e in rd.flatten() {
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                walk(&e.path(), out);
            } else if t.is_file() {
                out.push(e.path());
            }
        }
    }
    let t = Instant::now();
    let mut files = Vec::new();
    walk(dir, &mut files);
    let one = |f: &PathBuf| match std::fs::read(f) {
        Ok(b) => (b.len() as u64, memchr::memchr_iter(b'\n', &b).count()),
        Err(_) => (0, 0),
    };
    let (bytes, lines) = if parallel {
        use rayon::prelude::*;
        (files.par_iter().map(one)).reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    } else {
        (files.iter().map(one)).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    };
    std::hint::black_box(lines);
    (files.len(), bytes, t.elapsed())
}

/// One run of `cmd`: wall, cpu (user + system) and peak resident memory.
// the child is reaped by wait4, which also gives its resource use
#[allow(clippy::zombie_processes)]
fn measure(mut cmd: Command) -> (Duration, Duration, u64) {
    let t = Instant::now();
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the command starts");
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the child is ours and not waited for elsewhere
    unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let wall = t.elapsed();
    let tv =
        |t: libc::timeval| Duration::from_micros(t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64);
    (
        wall,
        tv(usage.ru_utime) + tv(usage.ru_stime),
        usage.ru_maxrss as u64 / 1024,
    )
}

/// The median of `runs` (by wall time) and the highest peak, printed;
/// the median wall time.
fn report(label: &str, mut runs: Vec<(Duration, Duration, u64)>) -> Duration {
    runs.sort_by_key(|m| m.0);
    let (w, c, _) = runs[runs.len() / 2];
    let peak = runs.iter().map(|m| m.2).max().unwrap_or(0);
    println!(
        "  {label:<36} {:>7.2} s wall {:>7.2} s cpu {:>6} MiB peak  (median of {})",
        w.as_secs_f64(),
        c.as_secs_f64(),
        peak,
        runs.len()
    );
    w
}

/// The commands on `dir`, `n` paired rounds (skillsift, Tier 1 alone,
/// skill-check when given, in turn); returns the bytes read.
fn bench(dir: &Path, n: usize) -> u64 {
    let (files, bytes, first) = floor(dir, false);
    // the first walk filled the page cache; the second is the floor
    let read = floor(dir, false).2.min(first);
    let threads = rayon::current_num_threads();
    let read_all = floor(dir, true).2.min(floor(dir, true).2);
    println!(
        "{}: {files} files, {:.0} MB",
        dir.display(),
        bytes as f64 / 1e6
    );
    println!(
        "  {:<36} {:>7.2} s wall (one thread)",
        "floor: read + memchr every file",
        read.as_secs_f64()
    );
    println!(
        "  {:<36} {:>7.2} s wall ({threads} threads, as check runs)",
        "floor: read + memchr every file",
        read_all.as_secs_f64()
    );
    let bin = env!("CARGO_BIN_EXE_skillsift");
    let check = |extra: &[&str]| {
        let mut c = Command::new(bin);
        c.arg("check")
            .arg(dir)
            .args(["--format", "json"])
            .args(extra);
        c
    };
    let skill_check = std::env::var_os("SKILL_CHECK");
    let (mut full, mut tier1, mut other) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        full.push(measure(check(&[])));
        tier1.push(measure(check(&["--no-route"])));
        if let Some(sc) = &skill_check {
            let mut c = Command::new(sc);
            c.arg("check")
                .arg(dir)
                .args(["--format", "json", "--no-security-scan"]);
            other.push(measure(c));
        }
    }
    let full = report("skillsift check --format json", full);
    report("skillsift check --no-route", tier1);
    let secs = |d: Duration| d.as_secs_f64().max(1e-9);
    let mut ratios = format!(
        "check takes {:.1}x the floor on {threads} threads",
        secs(full) / secs(read_all)
    );
    if !other.is_empty() {
        let other = report("skill-check --no-security-scan", other);
        ratios += &format!("; skill-check takes {:.1}x check", secs(other) / secs(full));
    }
    println!("  {ratios}");
    bytes
}

/// Tier 1 in this process: its allocations per MB read.
fn allocations(dir: &Path, bytes: u64) {
    let config = config::Config::default();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let found = lint::load_and_run(dir, &config)
        .map(|(_, d)| d.len())
        .unwrap_or(0);
    let allocs = ALLOCATIONS.load(Ordering::Relaxed) - before;
    println!(
        "{}: Tier 1 in process: {found} findings, {allocs} allocations, {:.0} per MB",
        dir.display(),
        allocs as f64 / (bytes as f64 / 1e6)
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let skills: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(15_728);
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = manifest.join(format!("target/bench-catalogs/mirror-shaped-{skills}"));
    let marker = format!("{VERSION} {skills}\n");
    if std::fs::read_to_string(dir.join(".generated"))
        .ok()
        .as_deref()
        != Some(marker.as_str())
    {
        let _ = std::fs::remove_dir_all(&dir);
        let t = Instant::now();
        generate(&dir, skills);
        eprintln!(
            "generated {} in {:.1} s",
            dir.display(),
            t.elapsed().as_secs_f64()
        );
    }
    let mut dirs = vec![dir];
    let wild = manifest.join("../shared/corpora/wild-sample");
    if wild.is_dir() {
        dirs.push(wild);
    }
    if let Some(d) = std::env::var_os("SKILLSIFT_BENCH_DIR") {
        dirs.push(PathBuf::from(d));
    }
    // every child first: a child's peak memory counts the pages of the
    // process that started it, so this one stays small until they ran
    let read: Vec<u64> = dirs.iter().map(|d| bench(d, n)).collect();
    for (d, bytes) in dirs.iter().zip(read) {
        allocations(d, bytes);
    }
}
