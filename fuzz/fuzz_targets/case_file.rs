//! evals/cases/<skill>.json bytes -> spanned JSON, typed cases, SG4xx rules, Tier 2 trigger checks, reporters.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| report::fuzz::case_file(data));
