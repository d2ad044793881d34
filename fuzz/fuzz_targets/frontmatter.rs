//! SKILL.md bytes -> decode, split, YAML tree, spans, every reporter.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| report::fuzz::frontmatter(data));
