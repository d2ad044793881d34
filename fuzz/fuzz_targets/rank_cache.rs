//! rank cache file body -> decode, index, re-encode round trip.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| report::fuzz::rank_cache(data));
