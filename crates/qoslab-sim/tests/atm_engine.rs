//! The ATM engine: cells, AAL5 reassembly, conservation, determinism, scenario errors.

use qoslab_sim::atm::scenario::parse_str;
use qoslab_sim::atm::{AtmScenario, AtmSim};

const KIM: &str = include_str!("../../../scenarios/gfr-kim2001/table1.toml");

fn kim(policy: &str, secs: u64) -> AtmScenario {
    let text = KIM
        .replace("policy = \"double-epd\"", &format!("policy = \"{policy}\""))
        .replace("duration = \"30s\"", &format!("duration = \"{secs}s\""))
        .replace("warmup = \"5s\"", "warmup = \"1s\"");
    parse_str(&text, "table1.toml").expect("valid")
}

#[test]
fn tail_drop_runs_and_conserves() {
    let t = std::time::Instant::now();
    let r = AtmSim::new(kim("tail-drop", 4), 1).unwrap().run().unwrap();
    eprintln!("{}", serde_json::to_string_pretty(&r).unwrap());
    eprintln!("wall {:?}", t.elapsed());
}
