#![no_main]
// See qoslab::fuzzing::pcn_scenario_text for what this target feeds and checks.
libfuzzer_sys::fuzz_target!(|data: &[u8]| qoslab::fuzzing::pcn_scenario_text(data));
