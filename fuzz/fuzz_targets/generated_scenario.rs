#![no_main]
// See qoslab::fuzzing::generated_scenario for what this target feeds and checks.
libfuzzer_sys::fuzz_target!(|data: &[u8]| qoslab::fuzzing::generated_scenario(data));
