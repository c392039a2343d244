fn main() {
    let a: Vec<String> = std::env::args().collect();
    let spec = qoslab_sim::pcn::load(std::path::Path::new(&a[1])).unwrap_or_else(|e| panic!("{e}"));
    let seed = a.get(2).map(|s| s.parse().unwrap()).unwrap_or(1);
    let t0 = std::time::Instant::now();
    let r = qoslab_sim::pcn::run(&spec, seed).unwrap();
    let w = t0.elapsed().as_secs_f64();
    let mut j = serde_json::to_value(&r).unwrap();
    for l in j["links"].as_array_mut().unwrap() {
        l["rate_series_bps"] = serde_json::Value::Null;
    }
    if j["ieas"].as_array().unwrap().len() > 6 {
        j["ieas"] = serde_json::Value::Null;
    }
    if j["terminations"].as_array().unwrap().len() > 40 {
        j["terminations"] = serde_json::Value::Null;
    }
    println!("{}", serde_json::to_string_pretty(&j).unwrap());
    eprintln!(
        "wall {w:.3} s, {} events, {} packet-hops, {:.1} ns/packet-hop",
        r.events,
        r.packet_hops,
        w * 1e9 / r.packet_hops as f64
    );
}
