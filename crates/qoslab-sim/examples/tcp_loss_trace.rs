//! One bulk TCP connection over a fixed path with a configured per-packet drop rate on the
//! data direction, with the sender's state printed at every send and every timeout: the
//! probe of finding 39 (issue 14, `bench/ns2/seeds/README.md`; session 13), which compares
//! these events with ns-2.35's traced `Agent/TCP/Sack1`
//! (`bench/ns2/seeds/probes/s13-hiloss_trace.tcl`, analysed by `s13-hiloss_compare.py`).
//!
//! The path is RFC 4828 App. B.1's (`scenarios/rfc4828/table7/sack-packet-loss.toml`):
//! 1 Gb/s 5 ms, 100 Mb/s 110 ms, 1 Gb/s 5 ms each way, 1500-B data packets, 40-B ACKs, each
//! data packet dropped with probability p after the 100 Mb/s link's FIFO (ns-2's
//! `lossmodel` position); ACKs are never lost. The TCP settings are the scenario's
//! (SACK, IW 2, rwnd 100 packets, limited transmit, min RTO 200 ms, initial RTO 3 s, max RTO
//! 60 s, G = 10 ms), with `ns2_compat` and the other ns-2 options as arguments.
//!
//! `cargo run --release -p qoslab-sim --example tcp_loss_trace -- P SEED SECONDS [ns2]
//! [ns2-half-window] [ns2-sack1]`
//!
//! Output lines (times in seconds):
//! - `S t seq_index rtx` — a segment sent (`rtx` 1 for a retransmission);
//! - `T t rto backoff_before cwnd_pkts ssthresh_pkts una_index max_index` — the timer
//!   expired (`rto` the value that expired, before the backoff it causes);
//! - `R t rtt rto_after backoff_after` — an RTT sample was taken;
//! - `F t` — a fast retransmit (entry into loss recovery);
//! - `E sent retransmits timeouts` at the end.
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::Write;

use qoslab_algo::rng::Rng;
use qoslab_algo::{Duration, Time};
use qoslab_sim::transport::tcp::{
    Ack, App, RtoSsthresh, SackPipe, Segment, TcpConfig, TcpParams, TcpReceiver, TcpSender, Variant,
};

enum Ev {
    Data(Segment),
    Ack(Ack),
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        eprintln!("usage: tcp_loss_trace P SEED SECONDS [ns2] [ns2-half-window] [ns2-sack1]");
        std::process::exit(2);
    }
    let p: f64 = a[1].parse().expect("P");
    let seed: u64 = a[2].parse().expect("SEED");
    let secs: u64 = a[3].parse().expect("SECONDS");
    let has = |s: &str| a[4..].iter().any(|x| x == s);
    let mss = 1460u64;
    let params = TcpParams {
        variant: Variant::Sack,
        mss: mss as u32,
        header: 40,
        ack_size: 40,
        rwnd: 100 * mss,
        init_cwnd: 2,
        limited_transmit: true,
        min_rto: Duration::from_millis(200),
        max_rto: Duration::from_secs(60),
        initial_rto: Duration::from_secs(3),
        clock_granularity: Duration::from_millis(10),
        ns2_compat: has("ns2"),
        rto_ssthresh: if has("ns2-half-window") {
            RtoSsthresh::Ns2HalfWindow
        } else {
            RtoSsthresh::default()
        },
        sack_pipe: if has("ns2-sack1") {
            SackPipe::Ns2Sack1
        } else {
            SackPipe::default()
        },
        ..TcpParams::default()
    };
    let cfg = TcpConfig::new(params).expect("valid TCP settings");
    let mut tx = TcpSender::new(&cfg, App::Bulk);
    let mut rx = TcpReceiver::new(&cfg);
    let mut rng = Rng::stream(seed, "tcp_loss_trace");
    // Serialisation: 1500 B at 1 Gb/s = 12 us, at 100 Mb/s = 120 us; 40 B: 0.32 / 3.2 us.
    let (d_access, d_core) = (Duration::from_millis(5), Duration::from_millis(110));
    let (ser1, ser_core) = (Duration::from_nanos(12_000), Duration::from_nanos(120_000));
    let ack_delay = Duration::from_nanos(120_000_000 + 320 + 3_200 + 320);
    let (mut free1, mut free_core) = (Time::ZERO, Time::ZERO);
    let end = Time::from_secs(secs);
    let mut heap: BinaryHeap<Reverse<(Time, u64)>> = BinaryHeap::new();
    let mut evs: Vec<Option<Ev>> = Vec::new();
    let mut now = Time::ZERO;
    let out = std::io::stdout();
    let mut o = std::io::BufWriter::new(out.lock());
    let ts = |t: Time| t.as_nanos() as f64 / 1e9;
    let (mut samples, mut fast) = (0u64, 0u64);
    loop {
        // What the last event did (printed before the segments it released).
        if tx.stats().fast_recoveries != fast {
            fast = tx.stats().fast_recoveries;
            writeln!(o, "F {:.6}", ts(now)).unwrap();
        }
        if tx.stats().rtt_samples != samples {
            samples = tx.stats().rtt_samples;
            let r = tx.rtt_estimator();
            writeln!(
                o,
                "R {:.6} {:.4} {:.4} {}",
                ts(now),
                r.last_sample().map_or(0.0, |d| d.as_secs_f64()),
                tx.rto().as_secs_f64(),
                r.backoff_count()
            )
            .unwrap();
        }
        // Drain the sender.
        while let Some(seg) = tx.poll_transmit(now) {
            writeln!(
                o,
                "S {:.6} {} {}",
                ts(now),
                seg.seq / mss,
                seg.retransmission as u8
            )
            .unwrap();
            // S -> G1 (1 Gb/s FIFO), G1 -> G2 (100 Mb/s FIFO), then the drop, then G2 -> D.
            let t1 = free1.max(now) + ser1;
            free1 = t1;
            let t2 = free_core.max(t1 + d_access) + ser_core;
            free_core = t2;
            if rng.bernoulli(p) {
                continue;
            }
            let at = t2 + d_core + ser1 + d_access;
            heap.push(Reverse((at, evs.len() as u64)));
            evs.push(Some(Ev::Data(seg)));
        }
        let wire = heap.peek().map(|r| r.0 .0);
        let Some(next) = [wire, tx.poll_timeout(), rx.poll_timeout()]
            .into_iter()
            .flatten()
            .min()
        else {
            break;
        };
        if next > end {
            break;
        }
        now = next;
        if wire == Some(next) {
            let Reverse((_, id)) = heap.pop().unwrap();
            match evs[id as usize].take().unwrap() {
                Ev::Data(seg) => {
                    if let Some(ack) = rx.on_segment(now, &seg) {
                        heap.push(Reverse((now + ack_delay, evs.len() as u64)));
                        evs.push(Some(Ev::Ack(ack)));
                    }
                }
                Ev::Ack(ack) => tx.on_ack(now, &ack),
            }
        } else if tx.poll_timeout() == Some(next) {
            let (rto, b) = (tx.rto(), tx.rtt_estimator().backoff_count());
            let (cw, ss) = (tx.cwnd() as f64 / mss as f64, tx.ssthresh() / mss);
            let (una, max) = (tx.snd_una() / mss, tx.snd_max() / mss);
            tx.on_timeout(now);
            writeln!(
                o,
                "T {:.6} {:.4} {} {:.3} {} {} {}",
                ts(now),
                rto.as_secs_f64(),
                b,
                cw,
                ss,
                una,
                max
            )
            .unwrap();
        } else if let Some(ack) = rx.on_timeout(now) {
            heap.push(Reverse((now + ack_delay, evs.len() as u64)));
            evs.push(Some(Ev::Ack(ack)));
        }
    }
    let s = tx.stats();
    writeln!(o, "E {} {} {}", s.segments_sent, s.retransmits, s.timeouts).unwrap();
}
