//! Replays every input kept under `tests/fixtures/fuzz-regressions/<target>/`
//! through the same entry point its fuzz target calls (`report::fuzz`).
//! CI runs these inputs, not the fuzzer: a crash, hang or broken invariant
//! the fuzzer once found fails here if it comes back.
//!
//! Files named `crash-*`, `timeout-*`, `oom-*` or `slow-unit-*` are what
//! `cargo fuzz` found (see fuzz/README.md); `seed-*` files are hand-written
//! hostile inputs for the same entry point.

use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fuzz-regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "{}: no regression inputs for target `{target}`",
        dir.display()
    );
    files
}

/// Feed every kept input of `target` to `entry`, naming the file on failure.
fn replay(target: &str, entry: fn(&[u8])) {
    for path in inputs(target) {
        let data = std::fs::read(&path).unwrap();
        let result = std::panic::catch_unwind(|| entry(&data));
        assert!(
            result.is_ok(),
            "fuzz regression {} failed again",
            path.display()
        );
    }
}

#[test]
fn frontmatter_regression_inputs_are_handled() {
    replay("frontmatter", report::fuzz::frontmatter);
}

#[test]
fn case_file_regression_inputs_are_handled() {
    replay("case_file", report::fuzz::case_file);
}

#[test]
fn case_source_regression_inputs_are_handled() {
    replay("case_source", report::fuzz::case_source);
}

#[test]
fn analyzer_regression_inputs_are_handled() {
    replay("analyzer", report::fuzz::analyzer);
}

#[test]
fn stream_json_regression_inputs_are_handled() {
    replay("stream_json", report::fuzz::stream_json);
}

#[test]
fn grader_reply_regression_inputs_are_handled() {
    replay("grader_reply", report::fuzz::grader_reply);
}

#[test]
fn rank_cache_regression_inputs_are_handled() {
    replay("rank_cache", report::fuzz::rank_cache);
}
