#![no_main]
// See qoslab::fuzzing::scenario_text for what this target feeds and checks.
libfuzzer_sys::fuzz_target!(|data: &[u8]| qoslab::fuzzing::scenario_text(data));
