//! Unit tests of the TFRC sender ([`super`]): RFC 5348 / RFC 4828 rules with hand-computed
//! numbers, and each `Ns2Compat` option of the sender against the ns-2.35 behaviour it models.
//! A child module of `sender` (`tfrc::sender::tests::*`), kept in its own file.

use super::*;
use crate::tfrc::equation::{ShortIntervalRule, SmallPacketParams};

const MS: u64 = 1_000_000;

fn std_sender(app: Option<Rate>) -> Sender {
    let p = SenderParams::new(1000, app, Variant::Standard, InitialRate::Rfc5348).unwrap();
    Sender::new(p, Time::ZERO)
}

fn fb(sent_ms: u64, x_recv: f64, p: f64) -> Feedback {
    Feedback {
        t_recvdata: Time(sent_ms * MS),
        t_delay: Duration::ZERO,
        x_recv,
        p,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn one_packet_per_second_before_feedback() {
    let mut s = std_sender(None);
    let p = s.poll_transmit(Time::ZERO).unwrap();
    assert_eq!((p.seq, p.size, p.rtt), (0, 1000, None));
    assert_eq!(s.next_send_time(), Time::from_secs(1));
    assert_eq!(s.poll_transmit(Time(999 * MS)), None);
    assert_eq!(s.poll_transmit(Time::from_secs(1)).unwrap().seq, 1);
    assert_eq!(s.poll_timeout(), Some(Time::from_secs(2)));
}

#[test]
fn nofeedback_before_any_feedback_halves() {
    let mut s = std_sender(None);
    s.poll_transmit(Time::ZERO);
    s.on_timeout(Time::from_secs(2));
    // X = max(1000/2, 1000/64) = 500 B/s; next timer after 2*s/X = 4 s.
    assert_eq!(s.allowed_rate(), 500.0);
    assert_eq!(s.poll_timeout(), Some(Time::from_secs(6)));
    // Idle since the timer was set: no further halving.
    s.on_timeout(Time::from_secs(6));
    assert_eq!(s.allowed_rate(), 500.0);
    assert_eq!(s.stats().nofeedback_reductions, 1);
}

#[test]
fn slow_start_doubles_capped_by_twice_x_recv_then_equation() {
    // The sender sends at every feedback's t_recvdata instant, so no interval is
    // data-limited (RFC 5348 §8.2.1).
    let mut s = std_sender(None);
    s.poll_transmit(Time::ZERO);
    // First feedback at 100 ms for the packet sent at 0: R = 0.1 s.
    // W_init = min(4000, max(2000, 4380)) = 4000 B -> initial_rate = 40000 B/s.
    // RTO (old X = 1000 B/s) = max(0.4, 2) = 2 s -> nofeedback at 2.1 s.
    s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
    assert_eq!(s.rtt(), Some(Duration(100 * MS)));
    assert!(close(s.allowed_rate(), 40_000.0));
    assert_eq!(s.poll_timeout(), Some(Time(2100 * MS)));
    // Rescheduled from the packet at 0 with gap 1000/40000 = 25 ms: due now.
    assert_eq!(s.next_send_time(), Time(25 * MS));
    // 200 ms: X_recv_set = {inf@100, 0@100, 30000@200}: X = max(min(80000, inf), 40000).
    s.poll_transmit(Time(100 * MS)).unwrap();
    s.on_feedback(Time(200 * MS), &fb(100, 30_000.0, 0.0));
    assert!(close(s.allowed_rate(), 80_000.0));
    // 300 ms: cutoff 100 ms keeps inf@100: X = 160000.
    s.poll_transmit(Time(200 * MS)).unwrap();
    s.on_feedback(Time(300 * MS), &fb(200, 50_000.0, 0.0));
    assert!(close(s.allowed_rate(), 160_000.0));
    // 400 ms: cutoff 200 ms drops inf and 0: set {30000, 50000, 60000}:
    // X = max(min(320000, 2*60000), 40000) = 120000.
    s.poll_transmit(Time(300 * MS)).unwrap();
    s.poll_transmit(Time(350 * MS)).unwrap();
    s.on_feedback(Time(400 * MS), &fb(300, 60_000.0, 0.0));
    assert!(close(s.allowed_rate(), 120_000.0));
    // 450 ms: less than R since tld = 400 ms: no doubling.
    s.poll_transmit(Time(400 * MS)).unwrap();
    s.on_feedback(Time(450 * MS), &fb(350, 60_000.0, 0.0));
    assert!(close(s.allowed_rate(), 120_000.0));
    assert_eq!(s.stats().data_limited_feedbacks, 0);
    // First loss reported at 500 ms: p = 0.01, R stays 0.1 (all samples 0.1):
    // X_Bps = 112332.23 B/s (equation test), recv_limit = 2*70000 -> X = 112332.23.
    s.on_feedback(Time(500 * MS), &fb(400, 70_000.0, 0.01));
    assert!(
        (s.allowed_rate() - 112_332.234).abs() < 0.01,
        "{}",
        s.allowed_rate()
    );
    assert_eq!(s.loss_event_rate(), 0.01);
    // RTO with the X before this feedback (120000): max(0.4, 2000/120000) = 0.4 s.
    assert_eq!(s.poll_timeout(), Some(Time(900 * MS)));
    // Nofeedback at 900 ms (not idle): X_Bps = 112332 <= 2*max(set) = 140000, so
    // update_limits(X_Bps/2): X = 56166.1.
    s.poll_transmit(Time(890 * MS));
    s.on_timeout(Time(900 * MS));
    assert!(
        (s.allowed_rate() - 56_166.117).abs() < 0.01,
        "{}",
        s.allowed_rate()
    );
    // Next: timer after max(0.4, 2000/56166) = 0.4 s.
    assert_eq!(s.poll_timeout(), Some(Time(1300 * MS)));
    // Second expiry (not idle): set = {28083}: X_Bps > 2*28083 -> update_limits(28083):
    // X = min(X_Bps, 28083.06) = 28083.06: halved again.
    s.poll_transmit(Time(1290 * MS));
    s.on_timeout(Time(1300 * MS));
    assert!(
        (s.allowed_rate() - 28_083.058).abs() < 0.01,
        "{}",
        s.allowed_rate()
    );
    assert_eq!(s.stats().nofeedback_reductions, 2);
}

#[test]
fn rfc3448_initial_rate_is_one_packet_per_rtt() {
    let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc3448).unwrap();
    let mut s = Sender::new(p, Time::ZERO);
    s.poll_transmit(Time::ZERO);
    s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
    // max(min(2*1000, inf), 1000/0.1) = 10000 B/s
    assert!(close(s.allowed_rate(), 10_000.0));
}

#[test]
fn rtt_is_smoothed_with_q_09() {
    let mut s = std_sender(None);
    s.poll_transmit(Time::ZERO);
    s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
    // R_sample = (300 - 100) - 20 = 180 ms: R = 0.9*0.1 + 0.1*0.18 = 0.108 s.
    let f = Feedback {
        t_recvdata: Time(100 * MS),
        t_delay: Duration(20 * MS),
        x_recv: 1e5,
        p: 0.0,
    };
    s.on_feedback(Time(300 * MS), &f);
    assert_eq!(s.rtt(), Some(Duration(108 * MS)));
    // ns-2's df_ = 0.95 (option rtt_filter_df): R = 0.95*0.1 + 0.05*0.18 = 0.104 s.
    let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
        .unwrap()
        .with_ns2(Ns2Compat {
            rtt_filter_df: true,
            ..Ns2Compat::RFC
        });
    let mut s = Sender::new(p, Time::ZERO);
    s.poll_transmit(Time::ZERO);
    s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
    assert_eq!(s.rtt(), Some(Duration(100 * MS)));
    s.on_feedback(Time(300 * MS), &f);
    assert_eq!(s.rtt(), Some(Duration(104 * MS)));
}

#[test]
fn app_limited_sender_and_data_limited_feedback() {
    // App: 1000-byte packets at 80 kbit/s = 10 kB/s: one packet per 100 ms.
    let mut s = std_sender(Some(Rate::from_kbps(80)));
    s.poll_transmit(Time::ZERO);
    s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
    // X = 40000 B/s > app rate: app gap 100 ms binds -> data-limited sends.
    assert!(s.poll_transmit(Time(99 * MS)).is_none());
    assert_eq!(s.next_send_time(), Time(100 * MS));
    s.poll_transmit(Time(100 * MS)).unwrap();
    assert_eq!(s.next_send_time(), Time(200 * MS));
    s.poll_transmit(Time(200 * MS)).unwrap();
    // Feedback at 300 ms covering the packet sent at 200 ms: all sends in (100, 200]
    // were data-limited -> maximize: set = {10000}, recv_limit = 20000 (not 2*inf):
    // X = max(min(80000, 20000), 40000) = 40000 (the initial rate floor).
    s.on_feedback(Time(300 * MS), &fb(200, 10_000.0, 0.0));
    assert_eq!(s.stats().data_limited_feedbacks, 1);
    assert!(close(s.allowed_rate(), 40_000.0));
    // A loss reported in a data-limited interval: halve {10000} -> 5000, add
    // 0.85*10000 = 8500, maximize -> 8500 = recv_limit: X = min(X_Bps, 8500).
    s.poll_transmit(Time(300 * MS)).unwrap();
    s.on_feedback(Time(400 * MS), &fb(300, 10_000.0, 0.05));
    assert!(close(s.allowed_rate(), 8_500.0), "{}", s.allowed_rate());
}

#[test]
fn tfrc_sp_rate_conversion_and_min_interval() {
    let sp = SmallPacketParams::rfc4828();
    let params =
        SenderParams::new(200, None, Variant::SmallPacket(sp), InitialRate::Rfc5348).unwrap();
    let mut s = Sender::new(params, Time::ZERO);
    // Before feedback: one packet (240 B of X) per second.
    assert_eq!(s.allowed_rate(), 240.0);
    s.poll_transmit(Time::ZERO);
    s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
    // W_init = min(4*240, max(2*240, 4380)) = 960 -> 9600 B/s (4 packets per RTT).
    assert!(close(s.allowed_rate(), 9_600.0));
    // p = 0.2, R = 0.1: X_Bps = 1460/(0.1*sqrt(0.4/3) + 0.4*3*sqrt(0.075)*0.2*2.28)
    //   = 1460/(0.0365148 + 0.1498569) = 7833.8 B/s; data rate = X*200/240 = 6528.2 B/s;
    //   packet gap = 240/7833.8 = 30.64 ms (> 10 ms).
    s.poll_transmit(Time(100 * MS));
    s.on_feedback(Time(200 * MS), &fb(100, 1e6, 0.2));
    let x = throughput(1460.0, 0.1, 0.2);
    assert!((x - 7833.806).abs() < 0.01, "{x}");
    assert!(close(s.allowed_rate(), x));
    assert!(close(s.allowed_data_rate(), x * 200.0 / 240.0));
    assert_eq!(
        s.next_send_time(),
        Time(100 * MS) + Duration::from_secs_f64(240.0 / x)
    );
    // p = 0.05: X_Bps = throughput(1460, 0.1, 0.05) = 53.8 kB/s -> gap 4.5 ms < 10 ms:
    // the Min Interval binds (100 packets/s).
    s.poll_transmit(Time(300 * MS));
    s.on_feedback(Time(400 * MS), &fb(300, 1e6, 0.05));
    assert_eq!(s.next_send_time(), Time(310 * MS));
}

/// ns-2's start and TFRC-SP allowance (options `init_rate_300`, `slow_start_send_at_feedback`,
/// `sp_header_32`; `tcp/tfrc.cc` `start()`, `recv()`), on the TFRC-SP 200-B sender above.
#[test]
fn ns2_initial_rate_feedback_send_and_sp_header() {
    let sp = SmallPacketParams::rfc4828();
    let params = |ns2: Ns2Compat| {
        SenderParams::new(200, None, Variant::SmallPacket(sp), InitialRate::Rfc5348)
            .unwrap()
            .with_ns2(ns2)
    };
    let only = |f: fn(&mut Ns2Compat)| {
        let mut n = Ns2Compat::RFC;
        f(&mut n);
        n
    };
    // InitRate_ = 300 data bytes/s: 1.5 packets of 200 B per second, the first 2/3 s
    // apart; the nofeedback timer 2·s/X = 4/3 s (RFC 5348 §4.2: 1 packet/s, 2 s).
    let mut rfc = Sender::new(params(Ns2Compat::RFC), Time::ZERO);
    let mut ns2 = Sender::new(params(only(|n| n.init_rate_300 = true)), Time::ZERO);
    assert!(close(ns2.allowed_data_rate(), 300.0));
    assert_eq!(rfc.poll_timeout(), Some(Time::ZERO + INITIAL_NOFEEDBACK));
    assert_eq!(
        ns2.poll_timeout(),
        Some(Time::ZERO + Duration::from_secs_f64(4.0 / 3.0))
    );
    for s in [&mut rfc, &mut ns2] {
        s.poll_transmit(Time::ZERO).unwrap();
    }
    assert_eq!(rfc.next_send_time(), Time(1000 * MS));
    assert_eq!(
        ns2.next_send_time(),
        Time::ZERO + Duration::from_secs_f64(2.0 / 3.0)
    );
    // A slow-start feedback: ns-2 sends a packet at once (nextpkt() in recv()); RFC 5348
    // §4.6: the next packet stays one gap (240/9600 s = 25 ms) after the last one.
    let mut rfc = Sender::new(params(Ns2Compat::RFC), Time::ZERO);
    let mut ns2 = Sender::new(
        params(only(|n| n.slow_start_send_at_feedback = true)),
        Time::ZERO,
    );
    for s in [&mut rfc, &mut ns2] {
        s.poll_transmit(Time::ZERO).unwrap();
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        s.poll_transmit(Time(100 * MS)).unwrap();
        s.on_feedback(Time(110 * MS), &fb(100, 1e6, 0.0));
    }
    assert_eq!(rfc.next_send_time(), Time(125 * MS));
    assert_eq!(ns2.next_send_time(), Time(110 * MS));
    // p = 0.2 as above: the same X, but ns-2's allowance is 200/(200 + 32) of it where
    // RFC 4828 §3's H = 40 gives 200/240: packets 232/X instead of 240/X apart.
    let mut rfc = Sender::new(params(Ns2Compat::RFC), Time::ZERO);
    let mut ns2 = Sender::new(params(only(|n| n.sp_header_32 = true)), Time::ZERO);
    for s in [&mut rfc, &mut ns2] {
        s.poll_transmit(Time::ZERO);
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        s.poll_transmit(Time(100 * MS));
        s.on_feedback(Time(200 * MS), &fb(100, 1e6, 0.2));
    }
    let x = throughput(1460.0, 0.1, 0.2);
    assert!(close(rfc.allowed_data_rate(), x * 200.0 / 240.0));
    assert!(close(ns2.allowed_data_rate(), x * 200.0 / 232.0));
    assert_eq!(
        ns2.next_send_time(),
        Time(100 * MS) + Duration::from_secs_f64(232.0 / x)
    );
}

/// Feeds the sequence of `ns2_options_*`: feedbacks at 100 (R = 0.1 s, p = 0), 200 and
/// 400 ms (both x_recv = 100 B/s, p = 0.1, R_sample 0.1 s), one packet sent at 0, 100
/// and 200 ms (never data-limited: each is in the window of the next feedback).
fn low_receive_rate(ns2: Ns2Compat) -> Sender {
    let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
        .unwrap()
        .with_ns2(ns2);
    let mut s = Sender::new(p, Time::ZERO);
    s.poll_transmit(Time::ZERO).unwrap();
    s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
    s.poll_transmit(Time(100 * MS)).unwrap();
    s.on_feedback(Time(200 * MS), &fb(100, 100.0, 0.1));
    s.poll_transmit(Time(200 * MS)).unwrap();
    let f = Feedback {
        t_delay: Duration(100 * MS),
        ..fb(200, 100.0, 0.1)
    };
    s.on_feedback(Time(400 * MS), &f);
    assert_eq!(s.stats().data_limited_feedbacks, 0);
    assert_eq!(s.rtt(), Some(Duration(100 * MS)));
    s
}

#[test]
fn ns2_recv_limit_floor_and_rounds() {
    // X_Bps = throughput(1000, 0.1, 0.1) = 1000/(0.0258199 + 0.4*0.5809475*0.1*1.32)
    //       = 1000/0.0564944 = 17701 B/s.
    let x_bps = throughput(1000.0, 0.1, 0.1);
    assert!((x_bps - 17_701.0).abs() < 1.0, "{x_bps}");
    // RFC: at 400 ms X_recv_set = {100@200, 100@400} (cutoff 400 - 2R = 200 drops the
    // Infinity and the 0 of 100 ms): recv_limit = 200, X = max(min(17701, 200), 1000/64).
    let rfc = low_receive_rate(Ns2Compat::RFC);
    assert!(close(rfc.allowed_rate(), 200.0), "{}", rfc.allowed_rate());
    // ns-2 floor: recv_limit = max(200, s/R = 10000) -> X = 10000 (one packet per RTT).
    let floor = Ns2Compat {
        recv_limit_floor: true,
        ..Ns2Compat::RFC
    };
    let mut f = low_receive_rate(floor);
    assert!(close(f.allowed_rate(), 10_000.0), "{}", f.allowed_rate());
    // Rounds: three feedbacks, then a nofeedback expiry (timer after RTO = max(0.4 s,
    // 2s/X) = 0.4 s) makes four; data packets carry the count.
    assert_eq!(f.round(), 3);
    f.on_timeout(Time(800 * MS));
    assert_eq!((f.round(), f.stats().nofeedback_expiries), (4, 1));
    assert_eq!(f.poll_transmit(Time(10 * 1000 * MS)).unwrap().round, 4);
}

/// A standard sender of `size`-byte packets whose application offers `app` with a backlog
/// (`with_app_backlog(true)`), under `ns2`; the set-up of the backlogged ns-2 tests.
fn backlogged_sender(size: u32, app: u64, ns2: Ns2Compat) -> Sender {
    let p = SenderParams::new(
        size,
        Some(Rate(app)),
        Variant::Standard,
        InitialRate::Rfc5348,
    )
    .unwrap()
    .with_ns2(ns2)
    .with_app_backlog(true);
    Sender::new(p, Time::ZERO)
}

/// A standard sender (s = 1000 B, R = 0.1 s) out of slow start at p = 0.01 by 200 ms.
fn after_loss(ns2: Ns2Compat, app: Option<Rate>) -> Sender {
    let p = SenderParams::new(1000, app, Variant::Standard, InitialRate::Rfc5348)
        .unwrap()
        .with_ns2(ns2);
    let mut s = Sender::new(p, Time::ZERO);
    s.poll_transmit(Time::ZERO).unwrap();
    s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
    s.poll_transmit(Time(100 * MS)).unwrap();
    s.on_feedback(Time(200 * MS), &fb(100, 100_000.0, 0.01));
    s
}

/// ns-2 option `nofeedback_idle_needs_no_data` (finding 54; `tcp/tfrc.cc`
/// `reduce_rate_on_no_feedback()` keeps `rate_` only when `datalimited_ || all_idle_`):
/// a backlogged sender whose next packet, at its own low rate, falls after the
/// nofeedback expiry has sent nothing since the timer was set, but had data; ns-2 halves
/// its rate. Without the option RFC 5348 §4.4's idle exception keeps X.
#[test]
fn ns2_nofeedback_cuts_a_backlogged_sender_that_sent_nothing() {
    for on in [false, true] {
        let ns2 = Ns2Compat {
            nofeedback_halves_rate: true,
            nofeedback_idle_needs_no_data: on,
            ..Ns2Compat::RFC
        };
        let mut s = backlogged_sender(1000, 800_000, ns2);
        s.poll_transmit(Time::ZERO).unwrap();
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        s.poll_transmit(Time(100 * MS)).unwrap();
        // p = 0.3 and X_recv 2 kB/s: X about 2 kB/s, the next packet about 0.5 s after
        // the last one, after the expiry of the timer set at this feedback.
        s.on_feedback(Time(200 * MS), &fb(100, 2000.0, 0.3));
        let x0 = s.allowed_rate();
        let expiry = s.poll_timeout().unwrap();
        assert!(
            s.next_send_time() > expiry,
            "no packet due before the expiry"
        );
        assert!(s.poll_transmit(Time(expiry.0 - 1)).is_none());
        s.on_timeout(expiry);
        assert_eq!(s.stats().nofeedback_expiries, 1);
        let want = if on { x0 / 2.0 } else { x0 };
        assert!(
            close(s.allowed_rate(), want),
            "on={on}: {} vs {x0}",
            s.allowed_rate()
        );
    }
}

/// ns-2 option `nofeedback_halves_rate` before the first feedback (finding 54, session
/// 14, s14-std14; `tcp/tfrc.cc` `reduce_rate_on_no_feedback()` ends in `nextpkt()` at
/// every expiry): with 14-B packets at ns-2's initial 300 B/s the timer (2·s/X = 93 ms)
/// expires before any feedback can return, and the expiry sends a packet at once and
/// restarts the send timer from it. Until session 14 the option sent at once only after
/// the first RTT sample, so the packet left one gap of the halved rate after the last one.
/// Option 25 (`double_clock_ties`): a greedy 14-B sender started at 0.501 s (ns-2's
/// `InitRate_` 300 B/s, g = 14/300 s). Its second packet is due at (0.501 + g) + g =
/// 0.5943333333333333 and the nofeedback timer set at the start at 0.501 + 28/300 =
/// 0.5943333333333334 s (doubles, hand-computed: the two sums round differently), both
/// 594 333 333 ns. ns-2 runs the smaller double first: the packet, then the expiry,
/// whose `nextpkt()` sends another. Without the option the deadlines are integer sums,
/// 501 000 000 + 2 × 46 666 667 = 594 333 334 against 501 000 000 + 93 333 333 =
/// 594 333 333 ns, and the expiry comes first with one packet.
#[test]
fn ns2_double_clock_orders_a_packet_before_an_expiry_due_at_its_nanosecond() {
    let g = 14.0 / 300.0;
    let (a, b) = ((0.501 + g) + g, 0.501 + 28.0 / 300.0);
    assert!(a < b, "{a} {b}");
    assert_eq!((a, b), (0.5943333333333333, 0.5943333333333334));
    // `engine`: as the engine's sender agent (the nofeedback timer, then every packet
    // due); else a driver that takes one event at a time, the timer when it is due.
    let run = |ties: bool, engine: bool| {
        let ns2 = Ns2Compat {
            double_clock_ties: ties,
            ..Ns2Compat::ns2()
        };
        let p = SenderParams::new(14, None, Variant::Standard, InitialRate::Rfc5348)
            .unwrap()
            .with_ns2(ns2);
        let mut s = Sender::new(p, Time(501_000_000));
        // As the engine's sender agent: the nofeedback timer, then every packet due.
        let mut sent = Vec::new();
        while sent.len() < 4 {
            let nf = s.poll_timeout().unwrap_or(Time::NEVER);
            let now = s.next_send_time().min(nf);
            if engine {
                s.on_timeout(now);
                while let Some(pkt) = s.poll_transmit(now) {
                    sent.push((now.0, pkt.seq, s.stats().nofeedback_expiries));
                }
            } else if nf == now {
                s.on_timeout(now);
            } else if let Some(pkt) = s.poll_transmit(now) {
                sent.push((now.0, pkt.seq, s.stats().nofeedback_expiries));
            }
        }
        sent
    };
    let on = run(true, true);
    assert_eq!(run(true, false), on);
    assert_eq!(on[1].0, 547_666_667);
    // Two packets at the tie (the expiry runs inside the first poll_transmit, after its
    // packet; the second is the expiry's).
    assert_eq!(on[2], (594_333_333, 2, 1), "{on:?}");
    assert_eq!(on[3].0, 594_333_333, "{on:?}");
    let off = run(false, true);
    assert_eq!(off[2], (594_333_333, 2, 1), "{off:?}");
    assert!(off[3].0 > 594_333_333, "{off:?}");
}

#[test]
fn ns2_double_clock_rtt_sample_carries_the_clocks_rounding_into_the_factor() {
    // RFC 4828 B.2's path in ns-2.35: one 1 Gb/s, 120 ms link each way, 46-B data and
    // 40-B feedback: `txt + delay_` = 0.120000368 and 0.12000032 s.
    let (d1, d2) = (8.0 * 46.0 / 1e9 + 0.12, 8.0 * 40.0 / 1e9 + 0.12);
    assert_eq!((d1, d2), (0.120000368, 0.12000032));
    // ns-2's samples `((ts + d1) + d2) - ts` for a packet sent at 1 s and at 70 s (the
    // latter as traced in ns-2.35, B.2 b = 0.02 seed 1, TFRC fid 85 at 70.06 s).
    let (c1, c70): (f64, f64) = (((1.0 + d1) + d2) - 1.0, ((70.0 + d1) + d2) - 70.0);
    assert_eq!((c1, c70), (0.24000068799999985, 0.24000068800000918));
    // §4.5 with q2 = 0.95: R_sqmean = 0.95·sqrt(c1) + 0.05·sqrt(c70), over sqrt(c70).
    let want = (0.95 * c1.sqrt() + (1.0 - 0.95) * c70.sqrt()) / c70.sqrt();
    assert_eq!(want, 0.9999999999999816);
    let run = |on: bool| {
        let ns2 = Ns2Compat {
            double_clock_rtt_sample: on,
            ..Ns2Compat::ns2()
        };
        let p = SenderParams::new(14, None, Variant::Standard, InitialRate::Rfc5348)
            .unwrap()
            .with_ns2(ns2)
            .with_oscillation_prevention(0.95)
            .unwrap();
        let mut s = Sender::new(p, Time::ZERO);
        s.set_ns2_path(Ns2PathDelays::new(&[d1], &[d2], Duration(240_000_688)).unwrap());
        for sent_ms in [1_000, 70_000] {
            s.on_feedback(Time(sent_ms * MS + 240_000_688), &fb(sent_ms, 300.0, 0.0));
        }
        s.oscillation_factor()
    };
    // Integer nanoseconds: both samples are 240 000 688 ns, the factor exactly 1.
    assert_eq!(run(false), 1.0);
    assert_eq!(run(true), want);
}

#[test]
fn ns2_nofeedback_before_the_first_feedback_sends_at_once() {
    let ns2 = Ns2Compat {
        nofeedback_halves_rate: true,
        init_rate_300: true,
        ..Ns2Compat::RFC
    };
    let mut s = backlogged_sender(14, 5600, ns2);
    s.poll_transmit(Time::ZERO).unwrap();
    let t1 = s.next_send_time();
    assert!(close(t1.as_secs_f64(), 14.0 / 300.0), "{t1:?}");
    s.poll_transmit(t1).unwrap();
    let expiry = s.poll_timeout().unwrap();
    assert!(
        close(expiry.as_secs_f64(), 2.0 * 14.0 / 300.0),
        "{expiry:?}"
    );
    // Just before the expiry nothing is due (the next packet is due at it, or later).
    assert!(s.poll_transmit(Time(expiry.0 - 1)).is_none());
    s.on_timeout(expiry);
    assert_eq!(s.stats().nofeedback_expiries, 1);
    assert!(
        close(s.allowed_data_rate(), 150.0),
        "{}",
        s.allowed_data_rate()
    );
    assert_eq!(s.next_send_time(), expiry, "a packet at the expiry");
    assert_eq!(s.poll_transmit(expiry).unwrap().seq, 2);
    // ... and the send timer runs from it at the halved rate.
    let next = s.next_send_time().saturating_since(expiry).as_secs_f64();
    assert!(close(next, 14.0 / 150.0), "{next}");
}

#[test]
fn ns2_nofeedback_halves_rate_and_sends_at_once() {
    let only = Ns2Compat {
        nofeedback_halves_rate: true,
        ..Ns2Compat::RFC
    };
    let x0 = throughput(1000.0, 0.1, 0.01);
    let mut rfc = after_loss(Ns2Compat::RFC, None);
    let mut ns2 = after_loss(only, None);
    assert!(close(rfc.allowed_rate(), x0) && close(ns2.allowed_rate(), x0));
    // RFC 5348 §4.3 (5): the timer runs max(4R, 2s/X) = 0.4 s; ns-2: max(2R, 2s/X) = 0.2 s.
    assert_eq!(rfc.poll_timeout(), Some(Time(600 * MS)));
    assert_eq!(ns2.poll_timeout(), Some(Time(400 * MS)));
    // Last packet at 395 ms; the next is due one gap (s/X = 8.9 ms) later, after 400 ms.
    let gap = Duration::from_secs_f64(1000.0 / x0);
    ns2.poll_transmit(Time(395 * MS)).unwrap();
    assert_eq!(ns2.next_send_time(), Time(395 * MS) + gap);
    assert!(Time(395 * MS) + gap > Time(400 * MS));
    // ns-2 reduce_rate_on_no_feedback(): rate_ halved, a packet at once (nextpkt()), the
    // timer again after max(2R, 2s/X).
    ns2.on_timeout(Time(400 * MS));
    assert!(close(ns2.allowed_rate(), x0 / 2.0));
    assert_eq!(ns2.next_send_time(), Time(400 * MS));
    let t = Duration::from_secs_f64((0.2f64).max(2.0 * 1000.0 / (x0 / 2.0)));
    assert_eq!(ns2.poll_timeout(), Some(Time(400 * MS) + t));
    let pkt = ns2.poll_transmit(Time(400 * MS)).unwrap();
    assert_eq!(pkt.round, 3);
    assert!(pkt.urgent, "ns-2 sets UrgentFlag until the next feedback");
    // RFC 5348 §4.4: X_Bps <= 2 X_recv, so update_limits(X_Bps/2): X halves too, but the
    // next packet stays one (new) gap after the last one.
    rfc.poll_transmit(Time(595 * MS)).unwrap();
    rfc.on_timeout(Time(600 * MS));
    assert!(close(rfc.allowed_rate(), x0 / 2.0));
    assert_eq!(
        rfc.next_send_time(),
        Time(595 * MS) + Duration::from_secs_f64(2000.0 / x0)
    );
}

#[test]
fn ns2_send_timer_fixed_at_send() {
    let only = Ns2Compat {
        send_timer_fixed_at_send: true,
        ..Ns2Compat::RFC
    };
    let mut rfc = after_loss(Ns2Compat::RFC, None);
    let mut ns2 = after_loss(only, None);
    for s in [&mut rfc, &mut ns2] {
        s.poll_transmit(Time(300 * MS)).unwrap();
    }
    let x0 = throughput(1000.0, 0.1, 0.01);
    let due = Time(300 * MS) + Duration::from_secs_f64(1000.0 / x0);
    // A lower p at 310 ms raises X (to min(X_Bps, 2 X_recv) = 200 000 B/s).
    for s in [&mut rfc, &mut ns2] {
        assert_eq!(s.next_send_time(), due);
        let f = Feedback {
            t_delay: Duration(10 * MS),
            ..fb(200, 100_000.0, 0.001)
        };
        s.on_feedback(Time(310 * MS), &f);
    }
    assert!(
        close(rfc.allowed_rate(), 200_000.0),
        "{}",
        rfc.allowed_rate()
    );
    // RFC 5348 §4.6 (here): the pending packet is rescheduled with the new gap;
    // ns-2: it keeps the time set when the last packet left.
    assert_eq!(
        rfc.next_send_time(),
        Time(300 * MS) + Duration::from_secs_f64(1000.0 / rfc.allowed_rate())
    );
    assert_eq!(ns2.next_send_time(), due);
}

/// ns-2's `slow_increase_ 1` (`tcp/tfrc.cc` `slowstart()`, `nextpkt()`): R = 0.1 s,
/// feedback at 100, 200 and 300 ms with p = 0 and a large X_recv: X = W_init/R = 40 000
/// B/s, then 80 000, then 160 000 B/s (rounds 1, 2, 3). From round 3 on ns-2 spaces the
/// packets after a rise by a rate that starts at the old X (80 000) and grows by delta =
/// (160 000 − 80 000)/(160 000·R/s) = 5 000 B/s at every packet sent, so the 16 packets
/// after the first leave 1000/85 000, 1000/90 000, .., 1000/160 000 s apart; RFC 5348
/// §4.3: 1000/160 000 s (6.25 ms) at once.
#[test]
fn ns2_slow_start_ramp() {
    let only = Ns2Compat {
        slow_start_ramp: true,
        ..Ns2Compat::RFC
    };
    let gaps = |ns2: Ns2Compat| {
        let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
            .unwrap()
            .with_ns2(ns2);
        let mut s = Sender::new(p, Time::ZERO);
        s.poll_transmit(Time::ZERO).unwrap();
        for k in 1..=3u64 {
            let now = Time(k * 100 * MS);
            s.on_feedback(now, &fb((k - 1) * 100, 1e9, 0.0));
            assert_eq!(s.round(), k);
            if k < 3 {
                while s.next_send_time() < Time((k + 1) * 100 * MS) {
                    let t = s.next_send_time().max(now);
                    s.poll_transmit(t).unwrap();
                }
            }
        }
        assert!(close(s.allowed_rate(), 160_000.0), "{}", s.allowed_rate());
        let mut times = Vec::new();
        let mut now = Time(300 * MS);
        while times.len() < 20 {
            now = now.max(s.next_send_time());
            s.poll_transmit(now).unwrap();
            times.push(now.0 as i64);
        }
        times.windows(2).map(|w| w[1] - w[0]).collect::<Vec<i64>>()
    };
    let ns = |secs: f64| (secs * 1e9) as i64;
    for g in gaps(Ns2Compat::RFC) {
        assert!((g - ns(1000.0 / 160_000.0)).abs() <= 2, "RFC gap {g}");
    }
    let ramp = gaps(only);
    for (k, g) in ramp.iter().enumerate() {
        let rate = (80_000.0 + 5_000.0 * (k + 1) as f64).min(160_000.0);
        assert!(
            (g - ns(1000.0 / rate)).abs() <= 2,
            "gap {k}: {g} ns, expected 1000/{rate} s"
        );
    }
    // Before round 3 nothing is ramped: the packets after the rise to 80 000 B/s at
    // 200 ms left 12.5 ms apart in both (checked through the identical state at 300 ms).
}

#[test]
fn app_backlog_makes_up_for_packets_the_rate_held_back() {
    // The application offers 1000 B every 100 ms (80 kb/s); X is 1 packet/s until the
    // first feedback at 3 s (R = 0.1 s), which sets X = W_init/R = 40 000 B/s (25 ms).
    let run = |backlog: bool| {
        let p = SenderParams::new(
            1000,
            Some(Rate(80_000)),
            Variant::Standard,
            InitialRate::Rfc5348,
        )
        .unwrap()
        .with_app_backlog(backlog);
        let mut s = Sender::new(p, Time::ZERO);
        for t in [0, 1000, 2000] {
            s.poll_transmit(Time(t * MS)).unwrap();
        }
        let f = Feedback {
            t_delay: Duration(2900 * MS),
            ..fb(0, 0.0, 0.0)
        };
        s.on_feedback(Time(3000 * MS), &f);
        let mut times = Vec::new();
        let mut now = Time(3000 * MS);
        while times.len() < 40 {
            now = now.max(s.next_send_time());
            s.poll_transmit(now).unwrap();
            times.push(now.0 / MS);
        }
        times
    };
    // Default: the application's 100 ms gap binds from the last packet on.
    let plain = run(false);
    assert_eq!(&plain[..3], &[3000, 3100, 3200]);
    // Backlog: packets 3..30 were produced by 3 s (one per 100 ms from 0); they leave
    // 25 ms apart until the sender has caught up with the application (packet k at
    // k x 100 ms), then at the application's rate.
    let queued = run(true);
    assert_eq!(&queued[..3], &[3000, 3025, 3050]);
    let caught = queued.iter().position(|&t| t >= 3000 + 25 * 37).unwrap();
    assert_eq!(queued[caught - 1], 3000 + 25 * 36);
    assert_eq!(queued[39] - queued[38], 100);
    assert!(queued[39] < plain[39]);
}

#[test]
fn ns2_gradual_increase() {
    // R = 0.1 s throughout (every sample 0.1 s), s = 1000 B, X_recv = 100 000 B/s (the
    // receive-rate limit, 200 000 B/s, never binds). Feedback at 100 ms (no loss yet),
    // 200 ms (p = 0.1), 300 ms (p = 0.05), 600 ms (p = 0.01), 700 ms (p = 0.2).
    let run = |ns2: Ns2Compat| {
        let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
            .unwrap()
            .with_ns2(ns2);
        let mut s = Sender::new(p, Time::ZERO);
        let mut xs = Vec::new();
        s.poll_transmit(Time::ZERO).unwrap();
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        let mut prev = 100;
        for (at, p) in [(200, 0.1), (300, 0.05), (600, 0.01), (700, 0.2)] {
            s.poll_transmit(Time(prev * MS));
            let f = Feedback {
                t_delay: Duration((at - prev - 100) * MS),
                ..fb(prev, 100_000.0, p)
            };
            s.on_feedback(Time(at * MS), &f);
            xs.push(s.allowed_rate());
            prev = at;
        }
        assert_eq!(s.stats().data_limited_feedbacks, 0);
        xs
    };
    let eq = |p| throughput(1000.0, 0.1, p);
    // RFC 5348 §4.3: X = min(X_Bps, recv_limit) at every feedback.
    let rfc = run(Ns2Compat::RFC);
    for (x, p) in rfc.iter().zip([0.1, 0.05, 0.01, 0.2]) {
        assert!(close(*x, eq(p)), "{x} vs {}", eq(p));
    }
    let ns2 = run(Ns2Compat {
        gradual_increase: true,
        ..Ns2Compat::RFC
    });
    // 200 ms: down from the initial 40 000 B/s to X_Bps(0.1) = 17 701 at once.
    assert!(close(ns2[0], eq(0.1)));
    // 300 ms: X_Bps(0.05) = 36 857 is higher: up by s/R * (0.1 s / R) = 10 000 B/s.
    assert!(eq(0.05) > ns2[0] + 10_000.0);
    assert!(close(ns2[1], eq(0.1) + 10_000.0), "{}", ns2[1]);
    // 600 ms: three RTTs since the last change, but at most two packets per RTT.
    assert!(eq(0.01) > ns2[1] + 20_000.0);
    assert!(close(ns2[2], eq(0.1) + 30_000.0), "{}", ns2[2]);
    // 700 ms: X_Bps(0.2) is lower: down to it at once.
    assert!(close(ns2[3], eq(0.2)));
}

#[test]
fn ns2_recv_limit_from_the_latest_report() {
    // As low_receive_rate, but X_recv = 5000 B/s at 200 ms and 1000 B/s at 400 ms.
    let run = |ns2: Ns2Compat| {
        let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
            .unwrap()
            .with_ns2(ns2);
        let mut s = Sender::new(p, Time::ZERO);
        s.poll_transmit(Time::ZERO).unwrap();
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        s.poll_transmit(Time(100 * MS)).unwrap();
        s.on_feedback(Time(200 * MS), &fb(100, 5000.0, 0.1));
        s.poll_transmit(Time(200 * MS)).unwrap();
        let f = Feedback {
            t_delay: Duration(100 * MS),
            ..fb(200, 1000.0, 0.1)
        };
        s.on_feedback(Time(400 * MS), &f);
        assert_eq!(s.stats().data_limited_feedbacks, 0);
        s
    };
    // RFC 5348 §4.3: X_recv_set = {5000@200, 1000@400}: recv_limit = 2*5000 = 10000, below
    // X_Bps = 17701 B/s (p = 0.1, R = 0.1 s).
    assert!(close(run(Ns2Compat::RFC).allowed_rate(), 10_000.0));
    // ns-2 (maxrate_ = 2*rate_since_last_report): 2*1000 = 2000.
    let latest = Ns2Compat {
        recv_limit_latest_report: true,
        ..Ns2Compat::RFC
    };
    assert!(close(run(latest).allowed_rate(), 2000.0));
    // With ns-2's floor as well: max(2000, s/R = 10000) = 10000.
    let both = Ns2Compat {
        recv_limit_floor: true,
        ..latest
    };
    assert!(close(run(both).allowed_rate(), 10_000.0));
}

#[test]
fn ns2_equation_uses_tzero_and_cap() {
    // Every R_sample is 0.1 s = 1 tick of ns-2's 100 ms clock: srtt = 1 tick,
    // rttvar = 1/2 tick, RTO = floor(1 + 4*0.5) = 3 ticks = 0.3 s (and it stays there).
    let t = Ns2Compat {
        tcp_rto_in_equation: true,
        ..Ns2Compat::RFC
    };
    let s = low_receive_rate(t);
    let want = throughput_general(1000.0, 0.1, 0.1, 1.0, 0.3);
    assert!(close(s.x_calc(), want), "{} vs {want}", s.x_calc());
    // p = 0.1 < 8/27: the cap alone changes nothing.
    let c = low_receive_rate(Ns2Compat {
        cap_timeout_factor: true,
        ..Ns2Compat::RFC
    });
    assert!(close(c.x_calc(), throughput(1000.0, 0.1, 0.1)));
    assert_eq!(
        c.params().ns2(),
        Ns2Compat {
            cap_timeout_factor: true,
            ..Ns2Compat::RFC
        }
    );
}

/// Feedbacks with R_sample = 0.1 s, 0.4 s, 0.025 s (sqrt: a, 2a, a/2 with a = sqrt(0.1)),
/// p = 0; returns the sender and X_inst/X after each.
fn oscillation_run(q2: Option<f64>) -> (Sender, Vec<f64>) {
    let mut p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348).unwrap();
    if let Some(q2) = q2 {
        p = p.with_oscillation_prevention(q2).unwrap();
    }
    let mut s = Sender::new(p, Time::ZERO);
    let mut f = Vec::new();
    for (sent, at) in [(0, 100), (100, 500), (500, 525)] {
        s.poll_transmit(Time(sent * MS)).unwrap();
        s.on_feedback(Time(at * MS), &fb(sent, 40_000.0, 0.0));
        f.push(s.instantaneous_rate() / s.allowed_rate());
    }
    (s, f)
}

#[test]
fn oscillation_prevention_scales_the_spacing() {
    // RFC 5348 §4.5, q2 = 0.9: R_sqmean = a; then 0.9a + 0.1*2a = 1.1a, X_inst/X =
    // 1.1a/2a = 0.55 (the RTT rose: slower); then 0.9*1.1a + 0.1*a/2 = 1.04a, X_inst/X
    // = 1.04a/(a/2) = 2.08 (the RTT fell: faster).
    let (s, f) = oscillation_run(Some(OSCILLATION_Q2));
    let want = [1.0, 0.55, 2.08];
    for (got, want) in f.iter().zip(want) {
        assert!(close(*got, want), "{f:?}");
    }
    // The spacing uses X_inst: the next packet is due s/X_inst after the last (500 ms).
    let gap = Duration::from_secs_f64(1000.0 / s.instantaneous_rate());
    assert_eq!(s.next_send_time(), Time(500 * MS) + gap);
    assert!(close(s.instantaneous_rate(), 2.08 * s.allowed_rate()));
    // ns-2's weight (ca_ 1 with df_ = 0.95): 1.05a / 2a = 0.525, (0.95*1.05 + 0.05*0.5)a
    // / (a/2) = 2.045.
    let (_, f) = oscillation_run(Some(0.95));
    for (got, want) in f.iter().zip([1.0, 0.525, 2.045]) {
        assert!(close(*got, want), "{f:?}");
    }
    // q2 = 0: R_sqmean = sqrt(R_sample), X_inst = X.
    let (_, f) = oscillation_run(Some(0.0));
    assert!(f.iter().all(|x| close(*x, 1.0)), "{f:?}");
}

#[test]
fn oscillation_prevention_off_spaces_at_x_and_leaves_x_alone() {
    let (off, f) = oscillation_run(None);
    assert_eq!(f, vec![1.0; 3]);
    assert_eq!(off.params().oscillation_q2(), None);
    assert_eq!(off.instantaneous_rate(), off.allowed_rate());
    let gap = Duration::from_secs_f64(1000.0 / off.allowed_rate());
    assert_eq!(off.next_send_time(), Time(500 * MS) + gap);
    // The option changes the spacing only, not X, R or the timers.
    let (on, _) = oscillation_run(Some(OSCILLATION_Q2));
    assert_eq!(on.allowed_rate(), off.allowed_rate());
    assert_eq!(on.rtt(), off.rtt());
    assert_eq!(on.poll_timeout(), off.poll_timeout());
    assert_ne!(on.next_send_time(), off.next_send_time());
}

#[test]
fn oscillation_prevention_q2_is_checked() {
    let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348).unwrap();
    for bad in [-0.1, 1.0, 1.5, f64::NAN, f64::INFINITY] {
        let e = p.with_oscillation_prevention(bad).unwrap_err();
        assert!(e.to_string().contains("RFC 5348 §4.5"), "{e}");
    }
    assert_eq!(
        p.with_oscillation_prevention(0.9).unwrap().oscillation_q2(),
        Some(0.9)
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
    /// RFC 5348 §4.5: with a constant RTT, R_sqmean = sqrt(R_sample) and X_inst = X.
    #[test]
    fn oscillation_prevention_with_constant_rtt_sends_at_x(
        r_ms in 1u64..2000,
        q2 in 0.0f64..0.999,
        n in 1usize..30,
        p in 0.0f64..0.5,
    ) {
        let params = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
            .unwrap()
            .with_oscillation_prevention(q2)
            .unwrap();
        let mut s = Sender::new(params, Time::ZERO);
        for k in 0..n as u64 {
            let sent = k * r_ms;
            s.poll_transmit(Time(sent * MS));
            let loss = if k == 0 { 0.0 } else { p };
            s.on_feedback(Time((sent + r_ms) * MS), &fb(sent, 50_000.0, loss));
            let ratio = s.instantaneous_rate() / s.allowed_rate();
            proptest::prop_assert!((ratio - 1.0).abs() < 1e-12, "{}", ratio);
        }
    }
}

#[test]
fn params_validation() {
    assert!(SenderParams::new(0, None, Variant::Standard, InitialRate::Rfc5348).is_err());
    assert!(
        SenderParams::new(100, Some(Rate(0)), Variant::Standard, InitialRate::Rfc5348).is_err()
    );
    let sp = SmallPacketParams::new(
        1460,
        40,
        Duration::from_millis(20),
        ShortIntervalRule::Gradual,
    )
    .unwrap();
    let e =
        SenderParams::new(1600, None, Variant::SmallPacket(sp), InitialRate::Rfc5348).unwrap_err();
    assert!(e.to_string().contains("RFC 4828 §1"), "{e}");
    assert!(SenderParams::new(1600, None, Variant::Standard, InitialRate::Rfc5348).is_ok());
}
