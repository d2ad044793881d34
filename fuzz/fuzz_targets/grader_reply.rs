//! expectations + grader reply -> validated grading.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| report::fuzz::grader_reply(data));
