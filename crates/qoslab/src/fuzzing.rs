//! Entry points of the fuzz targets (`fuzz/fuzz_targets/*.rs`, run with cargo-fuzz on
//! nightly) and of the corpus replay test (`tests/fuzz_corpus.rs`, stable `cargo test`),
//! so that both exercise exactly the same code. Each takes arbitrary bytes and must never
//! panic, abort or run unbounded; what each additionally checks is said at the function.
//!
//! | target | what it feeds |
//! |---|---|
//! | `scenario_text` | any text as a scenario file: read and validate; a scenario that validates is built into a simulator and run for at most [`RUN_CAP`] of simulated time, which must end in a result or a located error, never a panic |
//! | `chain_text` | any text as a `qoslab condition` chain file |
//! | `csv_trace`, `pcap_trace`, `pcapng_trace` | any bytes as a trace, read to the end |
//! | `pcn_scenario_text` | any text as a PCN scenario file (`[pcn]`): read and validate; a scenario that validates and is small enough (see [`pcn_scenario_text`]) is run for at most [`PCN_RUN_CAP`], which must end in a result that passed the conservation check, never a panic or an engine error |
//! | `atm_scenario_text` | any text as an ATM/GFR scenario file (`atm = true`): read and validate; a scenario that validates must be accepted by the engine and, if small enough (see [`atm_scenario_text`]), run for at most [`ATM_RUN_CAP`] to a result that passed the conservation check |
//! | `generated_scenario` | bytes steer a generator of *valid* scenarios (small topologies, any mix of sources, conditioners and queues): each must validate, run, conserve packets, and give the identical `summary.json` when run twice with the same seed |

use std::io::Cursor;

use qoslab_algo::Duration;
use qoslab_sim::Simulator;

use crate::condition::{chain, pcap, trace};

/// Simulated time a fuzzed scenario is run for at most (the fuzzer looks for crashes in
/// building and running, not in long runs).
pub const RUN_CAP: Duration = Duration::from_millis(200);

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Any text as a scenario file; a scenario that validates must start and finish.
pub fn scenario_text(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let Ok(mut s) = qoslab_sim::scenario::parse_str(t, "fuzz.toml") else {
        return;
    };
    s.duration = s.duration.min(RUN_CAP);
    s.warmup = s.warmup.min(Duration(s.duration.as_nanos() / 2));
    if let Ok(sim) = Simulator::new(s, 1) {
        // A validated scenario must not fail at run time (conservation included).
        if let Err(e) = sim.run() {
            panic!("a validated scenario failed at run time: {e}");
        }
    }
}

/// Simulated time a fuzzed PCN scenario is run for at most.
pub const PCN_RUN_CAP: Duration = Duration::from_millis(300);
/// Simulated time a fuzzed ATM scenario is run for at most.
pub const ATM_RUN_CAP: Duration = Duration::from_millis(100);
/// Work budget of one fuzzed run, in packets (PCN, counted per hop) or cells (ATM, counted
/// per link direction at line rate): a larger scenario is validated but not run, so that
/// every execution stays short (the fuzzer looks for crashes, not for long runs).
pub const RUN_BUDGET: f64 = 200_000.0;

/// Any text as a PCN scenario file. A scenario that validates is shortened to
/// [`PCN_RUN_CAP`] (its measurement windows clamped into the shortened run, keeping their
/// order) and, if its estimated packet count is within [`RUN_BUDGET`], run: the run must
/// succeed (the engine accepts every validated scenario and the conservation check holds).
pub fn pcn_scenario_text(data: &[u8]) {
    use qoslab_sim::pcn::spec::{RunKind, TopologySpec};
    let Some(t) = text(data) else { return };
    let Ok(mut s) = qoslab_sim::pcn::parse_str(t, "fuzz.toml") else {
        return;
    };
    let d = s.duration.min(PCN_RUN_CAP);
    s.duration = d;
    let m = &mut s.measure;
    for (from, to) in [
        (&mut m.oa_from, &mut m.oa_to),
        (&mut m.ot_from, &mut m.ot_to),
    ] {
        if *to > d {
            *to = d;
            *from = (*from).min(Duration(d.as_nanos() - 1));
        }
    }
    // Work estimate: flows × packets per flow × PCN hops.
    let (links, ieas) = match s.topology {
        TopologySpec::Single { .. } => (1.0, 1.0),
        TopologySpec::Rtt { ingresses, .. } => (1.0, f64::from(ingresses)),
        TopologySpec::ParkingLot { bottlenecks, .. } => {
            (f64::from(bottlenecks), f64::from(bottlenecks) + 1.0)
        }
    };
    let secs = d.as_secs_f64();
    let flows = match s.kind {
        RunKind::Admission => ieas * (secs / s.admission.call_interval.as_secs_f64() + 1.0),
        _ => links * f64::from(s.population.base_flows.max(s.population.final_flows)),
    };
    let per_flow = secs / s.traffic.interval.as_secs_f64() + 1.0;
    if ieas > 2_000.0 || flows * per_flow * links > RUN_BUDGET {
        return;
    }
    let seed = s.seed;
    if let Err(e) = qoslab_sim::pcn::run(&s, seed) {
        panic!("a validated PCN scenario failed at run time: {e}");
    }
}

/// Any text as an ATM scenario file. A scenario that validates must be accepted by the
/// engine (`AtmSim::new`: the reader refuses everything the engine would); shortened to
/// [`ATM_RUN_CAP`] and, if within [`RUN_BUDGET`] cells at line rate, at most 64 TCP
/// connections and 64 VCs, it is run: the run must succeed (conservation included).
pub fn atm_scenario_text(data: &[u8]) {
    use qoslab_sim::atm::AtmSim;
    let Some(t) = text(data) else { return };
    let Ok(mut s) = qoslab_sim::atm::scenario::parse_str(t, "fuzz.toml") else {
        return;
    };
    let seed = s.seed;
    let big = s.buffer.size > 1 << 16
        || s.vcs.len() > 64
        || s.links.len() > 256
        || s.vcs.iter().map(|v| u64::from(v.connections)).sum::<u64>() > 64;
    if big {
        // Too large to build here; the engine must still accept it (checked on a copy
        // without its bulk would not be the same scenario, so only validation is fuzzed).
        return;
    }
    if let Err(e) = AtmSim::new(s.clone(), seed) {
        panic!("a validated ATM scenario was refused by the engine: {e}");
    }
    s.duration = s.duration.min(ATM_RUN_CAP);
    s.warmup = s.warmup.min(Duration(s.duration.as_nanos() / 2));
    let cells: f64 = s
        .links
        .iter()
        .map(|l| 2.0 * l.rate.bps() as f64 / 424.0 * s.duration.as_secs_f64())
        .sum();
    if cells > RUN_BUDGET {
        return;
    }
    let sim = AtmSim::new(s, seed)
        .unwrap_or_else(|e| panic!("a shortened ATM scenario was refused by the engine: {e}"));
    if let Err(e) = sim.run() {
        panic!("a validated ATM scenario failed at run time: {e}");
    }
}

/// Any text as a chain file.
pub fn chain_text(data: &[u8]) {
    if let Some(t) = text(data) {
        let _ = chain::parse_chain("fuzz.toml", t);
    }
}

/// Any bytes as a CSV trace, read to the end or to its first error.
pub fn csv_trace(data: &[u8]) {
    if let Ok(mut r) = trace::CsvReader::new(Cursor::new(data)) {
        for _ in 0..100_000 {
            match r.next_packet() {
                Ok(Some(_)) => {}
                _ => break,
            }
        }
    }
}

/// Any bytes as a classic pcap trace.
pub fn pcap_trace(data: &[u8]) {
    if let Ok(mut r) = pcap::PcapReader::new(Cursor::new(data), 1) {
        for _ in 0..100_000 {
            match r.next_item() {
                Ok(Some(_)) => {}
                _ => break,
            }
        }
    }
}

/// Any bytes as a pcapng trace.
pub fn pcapng_trace(data: &[u8]) {
    let mut r = pcap::PcapngReader::new(Cursor::new(data), 1);
    for _ in 0..100_000 {
        match r.next_item() {
            Ok(Some(_)) => {}
            _ => break,
        }
    }
}

/// Bytes as choices: each call takes the next byte (0 once they run out).
struct Choices<'a> {
    data: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    fn below(&mut self, n: usize) -> usize {
        self.byte() as usize % n
    }
    fn pick<'s>(&mut self, xs: &[&'s str]) -> &'s str {
        xs[self.below(xs.len())]
    }
}

/// The TOML of a valid scenario chosen by `data`: 2-6 nodes in a chain of links (so
/// every flow has a route both ways), each link with a drop-tail, RED or RIO queue and
/// possibly an ingress conditioner, and 1-6 flows of any kind.
pub fn generate_scenario(data: &[u8]) -> String {
    let mut c = Choices { data, at: 0 };
    let n = 2 + c.below(5);
    let mut s = format!(
        "name = \"gen\"\nseed = {}\nduration = \"{}ms\"\nwarmup = \"{}ms\"\n",
        1 + c.below(5),
        50 + 10 * c.below(16),
        5 * c.below(10)
    );
    for i in 0..n {
        s += &format!("[[node]]\nname = \"n{i}\"\n");
    }
    // A `[[link]]` is both directions (the reverse with `reverse_queue`, drop-tail).
    for i in 0..n - 1 {
        {
            let (a, b) = if c.below(2) == 0 {
                (i, i + 1)
            } else {
                (i + 1, i)
            };
            let rate = c.pick(&["1Mbps", "10Mbps", "100Mbps", "1Gbps"]);
            let delay = c.pick(&["0ms", "1ms", "5ms", "20ms"]);
            let limit = c.pick(&["1p", "5p", "50p", "1000p", "3000B", "64KB"]);
            let packets = limit.ends_with('p');
            let queue = match c.below(3) {
                0 => format!("{{ kind = \"drop-tail\", limit = \"{limit}\" }}"),
                1 if packets => {
                    let min = 1 + c.below(10);
                    format!(
                        "{{ kind = \"red\", limit = \"{limit}\", min_th = {min}, max_th = {}, max_p = 0.{}, w_q = 0.002, gentle = {}, wait = {} }}",
                        min + 1 + c.below(20),
                        1 + c.below(9),
                        c.below(2) == 1,
                        c.below(2) == 1
                    )
                }
                2 if packets => "{ kind = \"rio\", limit = \"1000p\", coupling = \"coupled\", green = { min_th = 40, max_th = 70, max_p = 0.02, w_q = 0.002 }, yellow = { min_th = 10, max_th = 30, max_p = 0.1, w_q = 0.002 } }".to_string(),
                _ => format!("{{ kind = \"drop-tail\", limit = \"{limit}\" }}"),
            };
            s += &format!(
                "[[link]]\nfrom = \"n{a}\"\nto = \"n{b}\"\nrate = \"{rate}\"\ndelay = \"{delay}\"\nqueue = {queue}\n"
            );
            match c.below(6) {
                0 => s += "conditioner = [ { kind = \"srtcm\", cir = \"1Mbps\", cbs = \"3KB\", ebs = \"6KB\" } ]\n",
                1 => s += "conditioner = [ { kind = \"trtcm\", cir = \"1Mbps\", cbs = \"3KB\", pir = \"2Mbps\", pbs = \"6KB\" } ]\n",
                2 => s += "conditioner = [ { kind = \"tsw2cm\", target = \"2Mbps\" } ]\n",
                3 => s += "conditioner = [ { kind = \"tb-shaper\", rate = \"2Mbps\", depth = \"3KB\", buffer = \"30KB\" }, { kind = \"srtcm\", cir = \"1Mbps\", cbs = \"3KB\", ebs = \"6KB\" } ]\n",
                _ => {}
            }
        }
    }
    let flows = 1 + c.below(6);
    for f in 0..flows {
        let src = c.below(n);
        let dst = (src + 1 + c.below(n - 1)) % n;
        let kind = c.pick(&["tcp", "cbr", "poisson", "tfrc"]);
        s += &format!(
            "[[flow]]\nname = \"f{f}\"\nsrc = \"n{src}\"\ndst = \"n{dst}\"\nkind = \"{kind}\"\n"
        );
        match kind {
            "tcp" => {
                s += &format!(
                    "variant = \"{}\"\nmss = \"{}B\"\n",
                    c.pick(&["reno", "newreno", "sack"]),
                    [100, 536, 1000, 1460][c.below(4)]
                );
            }
            "cbr" | "poisson" => {
                s += &format!(
                    "rate = \"{}\"\nsize = \"{}B\"\n",
                    c.pick(&["64kbps", "1Mbps", "20Mbps"]),
                    [40, 500, 1500][c.below(3)]
                );
            }
            _ => {
                let variant = c.pick(&["standard", "sp"]);
                s += &format!(
                    "variant = \"{variant}\"\nsize = \"{}B\"\n{}\n",
                    [14, 200, 1000, 1460][c.below(4)],
                    ["rate = \"1Mbps\"", "interval = \"10ms\"", ""][c.below(3)]
                );
            }
        }
    }
    s
}

/// A generated valid scenario: it must validate, run (conservation is checked at the end
/// of every run), and give the identical summary when run twice with the same seed.
pub fn generated_scenario(data: &[u8]) {
    let text = generate_scenario(data);
    let s = match qoslab_sim::scenario::parse_str(&text, "generated.toml") {
        Ok(s) => s,
        Err(e) => panic!("the generator wrote a scenario that does not validate: {e}\n{text}"),
    };
    let seed = s.seed;
    let once = || {
        let sim = Simulator::new(s.clone(), seed)
            .unwrap_or_else(|e| panic!("validated but refused by the engine: {e}\n{text}"));
        let r = sim
            .run()
            .unwrap_or_else(|e| panic!("validated but failed at run time: {e}\n{text}"));
        serde_json::to_string(&r).unwrap()
    };
    let (a, b) = (once(), once());
    assert!(
        a == b,
        "same scenario and seed gave different summaries\n{text}"
    );
}
