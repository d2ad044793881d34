//! text -> analyzer terms (any stemming language), TF-IDF index and ranking, order independence.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| report::fuzz::analyzer(data));
