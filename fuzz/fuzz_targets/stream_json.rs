//! claude stream-json output -> trace, grader transcript, fenced grader prompt.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| report::fuzz::stream_json(data));
