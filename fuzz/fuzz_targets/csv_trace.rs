#![no_main]
// See qoslab::fuzzing::csv_trace for what this target feeds and checks.
libfuzzer_sys::fuzz_target!(|data: &[u8]| qoslab::fuzzing::csv_trace(data));
