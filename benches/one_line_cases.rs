//! Times `skillsift check` end to end on a large case file written on one
//! line and on the same file pretty-printed, in every output format: the
//! time should depend on what the file holds, not on its line breaks.
//!
//! `cargo bench --bench one_line_cases -- [PROMPTS] [N]` (default 40,000
//! prompts, best of N = 3 runs). The catalog is generated when it runs
//! (three skills; one with PROMPTS positive prompts, most of which miss,
//! so every format has about 20,000 findings to place), never committed.
//! Prints the best wall time of each (format, layout) and the ratio of the
//! one-line time to the pretty-printed one.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SKILLS: [&str; 3] = ["pdf-forms", "deploy-app", "debug-logs"];
const WORDS: &[&str] = &[
    "pdf", "form", "fill", "merge", "split", "page", "table", "chart", "deploy", "build", "test",
    "flaky", "suite", "docker", "image", "kube", "cluster", "log", "error", "trace", "debug",
];

/// A small deterministic generator (xorshift), so every run checks the
/// same catalog.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as usize
    }
}

/// A catalog at `dir` whose first skill has `prompts` positive prompts,
/// its case file written on one line or pretty-printed.
fn write_catalog(dir: &Path, prompts: usize, one_line: bool) {
    let mut rng = Rng(0x5eed);
    for s in SKILLS {
        std::fs::create_dir_all(dir.join(s)).unwrap();
        std::fs::write(
            dir.join(s).join("SKILL.md"),
            format!(
                "---\nname: {s}\ndescription: Use when working with {} tasks and related things.\n---\n# {s}\n\nBody.\n",
                s.replace('-', " ")
            ),
        )
        .unwrap();
    }
    let cases = dir.join("evals/cases");
    std::fs::create_dir_all(&cases).unwrap();
    for (k, s) in SKILLS.iter().enumerate() {
        let n = if k == 0 { prompts } else { 1 };
        let (sep, ind, ind2) = if one_line {
            ("", "", "")
        } else {
            ("\n", "  ", "      ")
        };
        let items: Vec<String> = (0..n)
            .map(|i| {
                let words: Vec<&str> = (0..6).map(|_| WORDS[rng.next() % WORDS.len()]).collect();
                format!("{ind2}{{\"prompt\": \"{} {i}\"}}", words.join(" "))
            })
            .collect();
        let text = format!(
            "{{{sep}{ind}\"skill_name\": \"{s}\",{sep}{ind}\"trigger\": {{{sep}{ind}{ind}\"positive\": [{sep}{}{sep}{ind}{ind}],{sep}{ind}{ind}\"negative\": []{sep}{ind}}}{sep}}}{sep}",
            items.join(&format!(",{sep}"))
        );
        std::fs::write(cases.join(format!("{s}.json")), text).unwrap();
    }
}

/// Best wall time of `n` runs of `check DIR --format FORMAT`.
fn best(dir: &Path, format: &str, n: usize) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..n {
        let t = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_skillsift"))
            .args(["check", "--format", format])
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run skillsift");
        assert!(
            matches!(status.code(), Some(0 | 1)),
            "check --format {format} failed: {status}"
        );
        best = best.min(t.elapsed());
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let prompts: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(40_000);
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one-line");
    let pretty = tmp.path().join("pretty");
    write_catalog(&one, prompts, true);
    write_catalog(&pretty, prompts, false);
    let size = |d: &Path| {
        std::fs::metadata(d.join("evals/cases").join(format!("{}.json", SKILLS[0])))
            .map_or(0, |m| m.len())
    };
    println!(
        "{prompts} prompts: one line {} bytes, pretty-printed {} bytes (best of {n})",
        size(&one),
        size(&pretty)
    );
    for format in ["human", "json", "sarif", "junit", "github"] {
        let a = best(&one, format, n);
        let b = best(&pretty, format, n);
        println!(
            "{format:>6}: one line {:>8.3} s, pretty {:>8.3} s, ratio {:.2}",
            a.as_secs_f64(),
            b.as_secs_f64(),
            a.as_secs_f64() / b.as_secs_f64()
        );
    }
}
