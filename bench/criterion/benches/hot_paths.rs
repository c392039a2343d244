//! The hot paths of a packet-level run, each on its own (`bench/README.md`, issue 13):
//!
//! * `event_set/*`: the event queue's pop + push on a workload shaped like the RED bench
//!   dumbbell's (pending set of ~150 events; per popped event one successor 80 % of the
//!   time, none or two 10 % each; successors a serialisation time (40-65 us), a
//!   propagation delay (2-5 ms) or a timer (0.2-1 s) ahead, in the proportions measured on
//!   that run: 62 % / 37 % / 1 %);
//! * `queue/*`: one egress queue's arrival decision and departure with RED (the bench
//!   bottleneck's settings) and with two-precedence RIO (In/Out alternating), offered 2 %
//!   above the service rate so the average sits between the thresholds, as at the bench
//!   bottleneck; one iteration = one arrival (and the departures due before it);
//! * `tcp/ack`: one ACK through a NewReno sender (`on_ack` + `poll_transmit` of what it
//!   releases) with the receiver's work on the segments that produced it (`on_segment_ce`,
//!   delayed ACKs every second segment), over a loss-free 20 ms path in steady state;
//! * `meter/*`: one packet through an srTCM (RFC 2697) and a trTCM (RFC 2698), colour-blind,
//!   40/542/1500 B packets offered at 1.5x the CIR so every colour occurs;
//! * `dumbbell/red_2s`: the whole bench dumbbell (`scenarios/bench/dumbbell-red.toml`, 20
//!   NewReno flows, 70 Mb/s RED bottleneck) for 2 simulated seconds, scenario reading
//!   excluded (about 32,000 bottleneck packets).
//!
//! Every input is deterministic (named RNG streams, fixed seeds), so a change of a figure
//! is a change of the code, not of the workload.

use std::collections::VecDeque;
use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use qoslab_algo::meter::{ColorMode, Meter, MeterVerdict, SrTcm, SrTcmParams, TrTcm, TrTcmParams};
use qoslab_algo::queue::red::{Red, RedConfig, RedParams};
use qoslab_algo::queue::rio::{Rio, RioConfig, RioLevel, RioParams};
use qoslab_algo::queue::{Aqm, QueueLimit};
use qoslab_algo::{Color, Duration, PacketView, QueueView, Rate, Rng, Time, Verdict};
use qoslab_sim::event::{Event, EventQueue};
use qoslab_sim::scenario::load;
use qoslab_sim::transport::tcp::{
    App, Segment, TcpConfig, TcpParams, TcpReceiver, TcpSender, Variant,
};
use qoslab_sim::Simulator;

/// Event-set steps per iteration.
const EVENT_STEPS: u64 = 10_000;

/// A successor's delay, drawn as described in the module comment.
fn successor_delay(rng: &mut Rng) -> u64 {
    let u = rng.below(100);
    if u < 62 {
        40_000 + rng.below(25_000)
    } else if u < 99 {
        2_000_000 + rng.below(3_000_000)
    } else {
        200_000_000 + rng.below(800_000_000)
    }
}

fn event_set(c: &mut Criterion) {
    let mut q = EventQueue::with_capacity(1024);
    let mut rng = Rng::stream(1, "bench/event_set");
    for i in 0..150u32 {
        q.push(
            Time(successor_delay(&mut rng)),
            Event::Deliver { link: i % 64 },
        );
    }
    c.bench_function("event_set/pop_push_10k", |b| {
        b.iter(|| {
            for _ in 0..EVENT_STEPS {
                let (t, ev) = q.pop().expect("the pending set never empties");
                let n = match rng.below(10) {
                    0 if q.len() > 100 => 0,
                    1 if q.len() < 200 => 2,
                    _ => 1,
                };
                for _ in 0..n {
                    q.push(Time(t.0 + successor_delay(&mut rng)), black_box(ev));
                }
            }
        })
    });
}

/// One egress queue with its discipline, served at `tx` per packet.
struct OneQueue {
    aqm: Aqm,
    limit: QueueLimit,
    view: QueueView,
    fifo: VecDeque<(u32, Color)>,
    rng: Rng,
    now: Time,
    next_departure: Time,
    tx: Duration,
    arrivals: u64,
}

impl OneQueue {
    fn new(aqm: Aqm, tx: Duration) -> OneQueue {
        OneQueue {
            aqm,
            limit: QueueLimit::Packets(300),
            view: QueueView::EMPTY,
            fifo: VecDeque::with_capacity(512),
            rng: Rng::stream(1, "bench/queue"),
            now: Time::ZERO,
            next_departure: Time::NEVER,
            tx,
            arrivals: 0,
        }
    }

    /// Departures due by now, then one arrival of `size` bytes of `color`.
    fn step(&mut self, size: u32, color: Color) -> Verdict {
        self.now = Time(self.now.0 + self.tx.0 * 100 / 102);
        while self.next_departure <= self.now {
            let (s, c) = self.fifo.pop_front().expect("a departure is pending");
            self.view.pop(s, c);
            let at = self.next_departure;
            if self.fifo.is_empty() {
                self.aqm.on_departure(at, &self.view);
                self.next_departure = Time::NEVER;
            } else {
                self.next_departure = Time(at.0 + self.tx.0);
            }
        }
        self.arrivals += 1;
        let pkt = PacketView {
            size,
            color,
            flow: (self.arrivals % 20) as u32,
        };
        let v = self
            .aqm
            .on_arrival(self.now, &pkt, &self.view, &mut self.rng);
        match v {
            Verdict::Enqueue | Verdict::Mark(_) if self.limit.admits(&self.view, size) => {
                self.view.push(size, color);
                self.fifo.push_back((size, color));
                if self.next_departure == Time::NEVER {
                    self.next_departure = Time(self.now.0 + self.tx.0);
                }
            }
            Verdict::Drop(_) => {}
            _ => self.aqm.on_overflow(&pkt),
        }
        v
    }
}

fn queue(c: &mut Criterion) {
    let rate = Rate::from_mbps(70);
    let tx = rate.tx_time(542);
    let red = || {
        let cfg = RedConfig {
            wait: true,
            mean_pkt_size: 542,
            ..RedConfig::new(60.0, 200.0, 0.1, 0.002, tx)
        };
        Aqm::Red(Red::new(RedParams::new(cfg).expect("valid RED")))
    };
    let rio = || {
        let cfg = RioConfig::two(
            RioLevel::new(40.0, 70.0, 0.02, 0.002),
            RioLevel::new(10.0, 40.0, 0.2, 0.002),
            tx,
        );
        Aqm::Rio(Rio::new(RioParams::new(cfg).expect("valid RIO")))
    };
    // Warm each queue up to its steady state once, then measure steps from there.
    let mut q = OneQueue::new(red(), tx);
    for _ in 0..100_000 {
        q.step(542, Color::Green);
    }
    let avg = q.aqm.averages()[0];
    assert!(
        (60.0..200.0).contains(&avg),
        "RED average {avg} not between the thresholds"
    );
    c.bench_function("queue/red_arrival", |b| {
        b.iter(|| black_box(q.step(542, Color::Green)))
    });
    let mut q = OneQueue::new(rio(), tx);
    let mut k = 0u64;
    let mut color = move || {
        k += 1;
        if k & 1 == 0 {
            Color::Green
        } else {
            Color::Yellow
        }
    };
    for _ in 0..100_000 {
        q.step(542, color());
    }
    let out = q.aqm.averages()[Color::Yellow.index()];
    assert!(
        (10.0..70.0).contains(&out),
        "RIO Out average {out} not in its range"
    );
    c.bench_function("queue/rio_arrival", |b| {
        b.iter(|| black_box(q.step(542, color())))
    });
}

/// A NewReno sender and a delayed-ACK receiver over a loss-free path of fixed one-way delay.
struct TcpPath {
    tx: TcpSender,
    rx: TcpReceiver,
    now: Time,
    one_way: Duration,
    /// Segments on their way to the receiver, with arrival times (FIFO: constant delay).
    data: VecDeque<(Time, Segment)>,
    /// ACKs on their way back.
    acks: VecDeque<(Time, qoslab_sim::transport::tcp::Ack)>,
}

impl TcpPath {
    fn new() -> TcpPath {
        let cfg = TcpConfig::new(TcpParams {
            variant: Variant::NewReno,
            mss: 500,
            header: 42,
            ack_size: 42,
            rwnd: 1 << 20,
            init_cwnd: 10,
            delayed_ack: Some(Duration::from_millis(200)),
            ..TcpParams::default()
        })
        .expect("valid TCP settings");
        let mut p = TcpPath {
            tx: TcpSender::new(&cfg, App::Bulk),
            rx: TcpReceiver::new(&cfg),
            now: Time::ZERO,
            one_way: Duration::from_millis(10),
            data: VecDeque::with_capacity(4096),
            acks: VecDeque::with_capacity(4096),
        };
        p.send();
        p
    }

    fn send(&mut self) {
        while let Some(seg) = self.tx.poll_transmit(self.now) {
            self.data.push_back((self.now + self.one_way, seg));
        }
    }

    /// Delivers the segments due before the next ACK, then that ACK; returns the ACK number.
    fn ack(&mut self) -> u64 {
        loop {
            let next_ack = self.acks.front().map_or(Time::NEVER, |a| a.0);
            match self.data.front() {
                Some(&(t, seg)) if t < next_ack => {
                    self.data.pop_front();
                    self.now = t;
                    if let Some(a) = self.rx.on_segment_ce(t, &seg, false) {
                        self.acks.push_back((t + self.one_way, a));
                    }
                    continue;
                }
                _ => {}
            }
            let Some((t, a)) = self.acks.pop_front() else {
                // Only a delayed ACK is pending: fire the receiver's timer.
                let t = self.rx.poll_timeout().expect("a delayed ACK is pending");
                self.now = t;
                let a = self.rx.on_timeout(t).expect("the timer sends the ACK");
                self.acks.push_back((t + self.one_way, a));
                continue;
            };
            self.now = t;
            self.tx.on_ack(t, &a);
            self.send();
            return a.ack;
        }
    }
}

fn tcp(c: &mut Criterion) {
    let mut p = TcpPath::new();
    for _ in 0..200_000 {
        p.ack();
    }
    c.bench_function("tcp/ack", |b| b.iter(|| black_box(p.ack())));
}

fn meters(c: &mut Criterion) {
    let cir = Rate::from_mbps(10);
    let sizes = [40u32, 542, 1500, 542];
    // Offered at 1.5x the CIR: the mean size over the CIR's byte time, times 2/3.
    let mean = sizes.iter().map(|&s| s as u64).sum::<u64>() / sizes.len() as u64;
    let gap = cir.tx_time(mean).0 * 2 / 3;
    let run = |mut m: Meter| {
        let mut now = Time::ZERO;
        let mut rng = Rng::stream(1, "bench/meter");
        let mut k = 0usize;
        move || {
            now = Time(now.0 + gap);
            k += 1;
            let pkt = PacketView::new(sizes[k % sizes.len()]);
            m.mark(now, &pkt, &mut rng)
        }
    };
    let sr = SrTcmParams::new(ColorMode::Blind, cir, 15_000, 30_000).expect("valid srTCM");
    let mut step = run(Meter::SrTcm(SrTcm::new(sr)));
    let mut seen = [false; 3];
    for _ in 0..10_000 {
        if let MeterVerdict::Pass(c) = step() {
            seen[c.index()] = true;
        }
    }
    assert_eq!(seen, [true; 3], "the srTCM workload colours every colour");
    c.bench_function("meter/srtcm", |b| b.iter(|| black_box(step())));
    let tr = TrTcmParams::new(ColorMode::Blind, cir, 15_000, Rate::from_mbps(12), 30_000)
        .expect("valid trTCM");
    let mut step = run(Meter::TrTcm(TrTcm::new(tr)));
    let mut seen = [false; 3];
    for _ in 0..10_000 {
        if let MeterVerdict::Pass(c) = step() {
            seen[c.index()] = true;
        }
    }
    assert_eq!(seen, [true; 3], "the trTCM workload colours every colour");
    c.bench_function("meter/trtcm", |b| b.iter(|| black_box(step())));
}

fn dumbbell(c: &mut Criterion) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/bench/dumbbell-red.toml");
    let mut s = load(&path).unwrap_or_else(|e| panic!("{e}"));
    s.duration = Duration::from_secs(2);
    let mut g = c.benchmark_group("dumbbell");
    g.sample_size(10);
    g.bench_function("red_2s", |b| {
        b.iter_batched(
            || Simulator::new(s.clone(), 1).expect("the bench scenario builds"),
            |sim| sim.run().expect("conservation holds"),
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = event_set, queue, tcp, meters, dumbbell
}
criterion_main!(benches);
