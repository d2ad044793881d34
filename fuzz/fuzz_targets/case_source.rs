//! A skill's own case source (trigger set, evals.json, waza YAML, any JSON in evals/), picked by the first byte -> spanned tree, typed cases, SG4xx rules, Tier 2 trigger checks, reporters.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| report::fuzz::case_source(data));
