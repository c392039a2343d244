//! TCP data receiver: cumulative ACK, reassembly, RFC 2018 SACK blocks, delayed ACK.
//!
//! Rules and the choices left open:
//! - **Cumulative ACK**: the ACK number is the next in-order byte expected (`RCV.NXT`).
//!   `delivered()` is `RCV.NXT`, the in-order bytes handed to the application (no SYN: the
//!   stream starts at sequence 0, like ns-2's one-way agents).
//! - **Reassembly** keeps the received out-of-order byte ranges as a sorted list of
//!   disjoint, non-adjacent `[start, end)` ranges, preallocated for `ceil(rwnd/MSS)/2 + 2`
//!   ranges (the most that full-sized segments in one window can form); inserting shifts
//!   elements in place and allocates only if a misbehaving sender exceeds that. Data
//!   beyond `RCV.NXT + rwnd` is discarded (RFC 9293 §3.10.7.4 segment acceptability).
//! - **Immediate ACKs** (RFC 5681 §4.2): for an out-of-order segment, a duplicate segment,
//!   and a segment that fills all or part of a gap (an in-order segment arriving while
//!   out-of-order data is held).
//! - **Delayed ACK** (RFC 5681 §4.2, RFC 1122 §4.2.3.2), when enabled: an ACK for every
//!   second in-order segment (counted in segments, whatever their size, as ns-2's
//!   `DelAck` sink does), or when the timer set at the first unacknowledged segment
//!   expires. Any immediate ACK also covers, and cancels, a pending delayed one.
//! - **SACK blocks** (RFC 2018 §4), only for [`Variant::Sack`]: at most
//!   [`MAX_SACK_BLOCKS`] = 3 (ns-2's `maxSackBlocks_` default, and what fits beside a
//!   timestamp option). The first block is the one containing the segment that triggered
//!   the ACK, unless that segment advanced `RCV.NXT`; then come the most recently reported
//!   blocks still held, most recent first, each reported once. Blocks never reported
//!   recently are not added (RFC 2018 only asks for the recent ones). No D-SACK (RFC 2883),
//!   as in ns-2's default `generateDSacks_ false`.
//! - **ECN-Echo** (RFC 3168 §6.1.3), when `ecn` is on: a data segment that arrives with CE
//!   sets ECE on every ACK from then on, until a segment with CWR arrives. A segment with
//!   both is handled CWR first, then CE (ECE stays set: its CE is a new congestion event).
//!   CE is ignored on segments entirely outside the receive window `[RCV.NXT, RCV.NXT +
//!   rwnd)` (RFC 3168 §6.1.5 SHOULD; retransmissions are never ECT anyway). Delayed ACKs
//!   are unchanged: a CE segment does not force an immediate ACK; the ACK that covers it,
//!   delayed or not, carries ECE ("if any of the received data packets are CE packets,
//!   then the returning ACK has the ECN-Echo flag set", §6.1.3), as ns-2's `TCPSink` does.
//! - **Timestamps** (RFC 7323 §4.3), when on: `TS.Recent` takes the segment's TSval when
//!   `SEG.SEQ <= Last.ACK.sent` (and TSval does not go back), and every ACK echoes
//!   `TS.Recent`. So a delayed ACK echoes the earlier of its two segments, an ACK for
//!   out-of-order data echoes the last in-order segment, and the ACK for a retransmission
//!   that fills a hole echoes the retransmission (§4.3 cases A–C).

use qoslab_algo::{Duration, Time};

use super::config::{TcpConfig, Variant};
use super::{Ack, SackBlock, Segment, MAX_SACK_BLOCKS};

/// Receiver counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TcpReceiverStats {
    pub segments: u64,
    /// Segments that arrived with CE (and were in the window).
    pub ce_segments: u64,
    /// ACKs sent with ECE.
    pub ece_acks: u64,
    /// Segments carrying only bytes already received.
    pub duplicates: u64,
    /// Segments that arrived above a gap.
    pub out_of_order: u64,
    pub acks_sent: u64,
    /// ACKs sent by the delayed-ACK timer.
    pub delayed_ack_timeouts: u64,
}

/// The receiving end of one TCP connection.
#[derive(Clone, Debug)]
pub struct TcpReceiver {
    sack: bool,
    rwnd: u64,
    delack: Option<Duration>,
    rcv_nxt: u64,
    /// Out-of-order ranges above `rcv_nxt`, sorted, disjoint and non-adjacent.
    ooo: Vec<(u64, u64)>,
    /// A sequence number inside each recently reported SACK block, most recent first.
    recent: [u64; MAX_SACK_BLOCKS],
    n_recent: usize,
    /// In-order segments received but not yet acknowledged (delayed ACK).
    unacked_segments: u32,
    delack_deadline: Option<Time>,
    /// RFC 3168 ECN on; ECE to be set on ACKs (a CE segment seen, no CWR since).
    ecn: bool,
    ece: bool,
    /// RFC 7323 timestamps on; `TS.Recent`; `Last.ACK.sent`.
    timestamps: bool,
    ts_recent: Time,
    last_ack_sent: u64,
    stats: TcpReceiverStats,
}

impl TcpReceiver {
    pub fn new(cfg: &TcpConfig) -> Self {
        let p = cfg.params();
        let ranges = (p.rwnd.div_ceil(p.mss as u64) / 2 + 2) as usize;
        TcpReceiver {
            sack: p.variant == Variant::Sack,
            rwnd: p.rwnd,
            delack: p.delayed_ack,
            rcv_nxt: 0,
            ooo: Vec::with_capacity(ranges),
            recent: [0; MAX_SACK_BLOCKS],
            n_recent: 0,
            unacked_segments: 0,
            delack_deadline: None,
            ecn: p.ecn,
            ece: false,
            timestamps: p.timestamps,
            ts_recent: Time::ZERO,
            last_ack_sent: 0,
            stats: TcpReceiverStats::default(),
        }
    }

    /// Processes one data segment; returns the ACK to send now, or `None` if it is delayed
    /// (then `poll_timeout` gives its deadline).
    pub fn on_segment(&mut self, now: Time, seg: &Segment) -> Option<Ack> {
        self.on_segment_ce(now, seg, false)
    }

    /// [`Self::on_segment`] for a segment whose IP header arrived with CE (`ce`) or not.
    ///
    /// The common case — the next in-order segment, inside the window, no gap above
    /// `RCV.NXT`, neither ECN nor timestamps — is decided here, small enough to inline into
    /// the engine's delivery; every other case goes to [`Self::on_segment_general`], which
    /// makes the same decision for this one (issue 13 session 17: the call, and the ACK
    /// returned through memory, cost about a third of the receiver's instructions).
    #[inline(always)]
    pub fn on_segment_ce(&mut self, now: Time, seg: &Segment, ce: bool) -> Option<Ack> {
        let end = seg.seq + seg.len as u64;
        if self.ecn
            || self.timestamps
            || !self.ooo.is_empty()
            || seg.seq > self.rcv_nxt
            || end <= self.rcv_nxt
            || end > self.rcv_nxt + self.rwnd
        {
            return self.on_segment_general(now, seg, ce);
        }
        // As the general path: not a duplicate (it ends above RCV.NXT), not clipped by the
        // window, nothing out of order to absorb, no gap before it.
        self.stats.segments += 1;
        self.rcv_nxt = end;
        self.in_order_ack(now)
    }

    /// RFC 1122 §4.2.3.2 / RFC 5681 §4.2: the ACK for an in-order segment with no gap
    /// before it: at once without delayed ACKs, else for every second segment, the first
    /// one arming the delayed-ACK timer.
    #[inline(always)]
    fn in_order_ack(&mut self, now: Time) -> Option<Ack> {
        match self.delack {
            None => Some(self.ack_now(None)),
            Some(d) => {
                self.unacked_segments += 1;
                // RFC 5681 §4.2: an ACK SHOULD be generated for at least every second
                // full-sized segment.
                if self.unacked_segments >= 2 {
                    Some(self.ack_now(None))
                } else {
                    // ... and MUST be generated within 500 ms of the first unacked one.
                    if self.delack_deadline.is_none() {
                        self.delack_deadline = Some(now + d);
                    }
                    None
                }
            }
        }
    }

    /// [`Self::on_segment_ce`] in every case.
    #[inline(never)]
    pub(super) fn on_segment_general(&mut self, now: Time, seg: &Segment, ce: bool) -> Option<Ack> {
        self.stats.segments += 1;
        if self.ecn {
            // RFC 3168 §6.1.3: ECE on every ACK until a CWR packet arrives ...
            if seg.cwr {
                self.ece = false;
            }
            // ... "SHOULD ignore the ECN field on arriving data packets that are outside of
            // the receiver's current window" (§6.1.5).
            let in_window =
                seg.end() > self.rcv_nxt && seg.seq < self.rcv_nxt.saturating_add(self.rwnd);
            if ce && in_window {
                self.stats.ce_segments += 1;
                self.ece = true;
            }
        }
        // RFC 7323 §4.3 (2): if SEG.TSval >= TS.Recent and SEG.SEQ <= Last.ACK.sent, then
        // SEG.TSval is copied to TS.Recent.
        if self.timestamps && seg.ts_val >= self.ts_recent && seg.seq <= self.last_ack_sent {
            self.ts_recent = seg.ts_val;
        }
        let start = seg.seq;
        // RFC 9293 §3.10.7.4: keep only what fits the window.
        let end = (seg.seq + seg.len as u64).min(self.rcv_nxt + self.rwnd);
        let had_gap = !self.ooo.is_empty();
        if end <= self.rcv_nxt || start >= end || self.covered(start, end) {
            // Nothing new: a duplicate. RFC 5681 §4.2: ACK out-of-order segments at once.
            self.stats.duplicates += 1;
            let trigger = if start > self.rcv_nxt {
                Some(start)
            } else {
                None
            };
            return Some(self.ack_now(trigger));
        }
        if start <= self.rcv_nxt {
            // In order: advance RCV.NXT, then absorb the out-of-order ranges it reaches.
            self.rcv_nxt = end;
            let n = self.ooo.iter().take_while(|r| r.0 <= self.rcv_nxt).count();
            if n > 0 {
                self.rcv_nxt = self.rcv_nxt.max(self.ooo[n - 1].1);
                self.ooo.drain(..n);
            }
            if had_gap {
                // RFC 5681 §4.2: an immediate ACK when the segment fills all or part of a gap.
                return Some(self.ack_now(None));
            }
            self.in_order_ack(now)
        } else {
            // Above a gap: store, and ACK at once (RFC 5681 §4.2).
            self.stats.out_of_order += 1;
            self.insert(start, end);
            Some(self.ack_now(Some(start)))
        }
    }

    /// Deadline of the delayed-ACK timer, if one is pending.
    pub fn poll_timeout(&self) -> Option<Time> {
        self.delack_deadline
    }

    /// The delayed ACK, if its timer has expired at `now`; otherwise nothing.
    pub fn on_timeout(&mut self, now: Time) -> Option<Ack> {
        match self.delack_deadline {
            Some(d) if d <= now => {
                self.stats.delayed_ack_timeouts += 1;
                Some(self.ack_now(None))
            }
            _ => None,
        }
    }

    /// In-order bytes delivered to the application.
    pub fn delivered(&self) -> u64 {
        self.rcv_nxt
    }

    pub fn stats(&self) -> &TcpReceiverStats {
        &self.stats
    }

    /// Index of the out-of-order range containing `x`, if any.
    fn find(&self, x: u64) -> Option<usize> {
        let i = self.ooo.partition_point(|r| r.0 <= x);
        (i > 0 && x < self.ooo[i - 1].1).then(|| i - 1)
    }

    /// Is `[start, end)` (above RCV.NXT) already held?
    fn covered(&self, start: u64, end: u64) -> bool {
        start > self.rcv_nxt && self.find(start).is_some_and(|i| end <= self.ooo[i].1)
    }

    /// Inserts `[start, end)` (start > RCV.NXT), merging with overlapping or adjacent ranges.
    fn insert(&mut self, start: u64, end: u64) {
        // First range that ends at or after `start` (could merge), and first that starts
        // after `end` (cannot).
        let lo = self.ooo.partition_point(|r| r.1 < start);
        let hi = self.ooo.partition_point(|r| r.0 <= end);
        if lo == hi {
            self.ooo.insert(lo, (start, end));
        } else {
            let s = start.min(self.ooo[lo].0);
            let e = end.max(self.ooo[hi - 1].1);
            self.ooo[lo] = (s, e);
            self.ooo.drain(lo + 1..hi);
        }
    }

    /// Builds the ACK, updating the SACK recency list; clears any pending delayed ACK.
    /// (Inlined: without SACK it is a few stores; the SACK blocks are built out of line.)
    #[inline(always)]
    fn ack_now(&mut self, trigger: Option<u64>) -> Ack {
        self.unacked_segments = 0;
        self.delack_deadline = None;
        self.stats.acks_sent += 1;
        self.stats.ece_acks += self.ece as u64;
        self.last_ack_sent = self.rcv_nxt;
        let mut ack = Ack {
            ack: self.rcv_nxt,
            sack: [SackBlock::default(); MAX_SACK_BLOCKS],
            n_sack: 0,
            ece: self.ece,
            // RFC 7323 §4.3 (3): TSecr = TS.Recent.
            ts_ecr: if self.timestamps {
                self.ts_recent
            } else {
                Time::ZERO
            },
        };
        if self.sack {
            self.sack_blocks(&mut ack, trigger);
        }
        ack
    }

    /// The SACK blocks of `ack` (RFC 2018), and the recency list updated.
    #[inline(never)]
    fn sack_blocks(&mut self, ack: &mut Ack, trigger: Option<u64>) {
        // RFC 2018 §4: the first block holds the triggering segment (if it is above
        // RCV.NXT); then the most recently reported blocks, most recent first.
        let mut cand = [0u64; MAX_SACK_BLOCKS + 1];
        let mut n_cand = 0;
        if let Some(t) = trigger {
            cand[0] = t;
            n_cand = 1;
        }
        for &r in &self.recent[..self.n_recent] {
            cand[n_cand] = r;
            n_cand += 1;
        }
        let mut n = 0;
        for &x in &cand[..n_cand] {
            if n == MAX_SACK_BLOCKS {
                break;
            }
            let Some(i) = self.find(x) else { continue }; // acknowledged since: dropped
            let (s, e) = self.ooo[i];
            if ack.sack[..n].iter().any(|b| b.start == s) {
                continue; // merged into a block already listed
            }
            ack.sack[n] = SackBlock { start: s, end: e };
            n += 1;
        }
        for (i, b) in ack.sack[..n].iter().enumerate() {
            self.recent[i] = b.start;
        }
        self.n_recent = n;
        ack.n_sack = n as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::TcpParams;
    use super::*;

    fn rx(variant: Variant, delack: Option<Duration>) -> TcpReceiver {
        let p = TcpParams {
            variant,
            mss: 100,
            rwnd: 10_000,
            delayed_ack: delack,
            ..TcpParams::default()
        };
        TcpReceiver::new(&TcpConfig::new(p).unwrap())
    }
    fn seg(k: u64) -> Segment {
        Segment {
            seq: k * 100,
            len: 100,
            retransmission: false,
            ect: false,
            cwr: false,
            ts_val: Time::ZERO,
        }
    }
    fn blocks(a: &Ack) -> Vec<(u64, u64)> {
        a.sack_blocks().iter().map(|b| (b.start, b.end)).collect()
    }
    const T: Time = Time::ZERO;

    #[test]
    fn cumulative_ack_and_reassembly() {
        let mut r = rx(Variant::NewReno, None);
        assert_eq!(r.on_segment(T, &seg(0)).unwrap().ack, 100);
        assert_eq!(r.on_segment(T, &seg(2)).unwrap().ack, 100); // hole at 1
        assert_eq!(r.on_segment(T, &seg(4)).unwrap().ack, 100);
        assert_eq!(r.on_segment(T, &seg(1)).unwrap().ack, 300); // fills, absorbs 2
        assert_eq!(r.on_segment(T, &seg(3)).unwrap().ack, 500);
        assert_eq!(r.on_segment(T, &seg(3)).unwrap().ack, 500); // duplicate
        assert_eq!(r.delivered(), 500);
        assert_eq!((r.stats().duplicates, r.stats().out_of_order), (1, 2));
        assert_eq!(r.on_segment(T, &seg(2)).unwrap().n_sack, 0); // no SACK for NewReno
    }

    #[test]
    fn sack_blocks_follow_rfc2018_order() {
        let mut r = rx(Variant::Sack, None);
        r.on_segment(T, &seg(0));
        // Receive 2, 4, 6 (holes at 1, 3, 5): the newest block comes first.
        assert_eq!(blocks(&r.on_segment(T, &seg(2)).unwrap()), vec![(200, 300)]);
        assert_eq!(
            blocks(&r.on_segment(T, &seg(4)).unwrap()),
            vec![(400, 500), (200, 300)]
        );
        assert_eq!(
            blocks(&r.on_segment(T, &seg(6)).unwrap()),
            vec![(600, 700), (400, 500), (200, 300)]
        );
        // 8 makes a 4th block: the oldest (200..300) is no longer reported.
        assert_eq!(
            blocks(&r.on_segment(T, &seg(8)).unwrap()),
            vec![(800, 900), (600, 700), (400, 500)]
        );
        // 3 merges 2..3..4 into 200..500: first block is the merged one, listed once.
        assert_eq!(
            blocks(&r.on_segment(T, &seg(3)).unwrap()),
            vec![(200, 500), (800, 900), (600, 700)]
        );
        // 1 advances RCV.NXT to 500: no triggering block; the recent ones still held follow.
        let a = r.on_segment(T, &seg(1)).unwrap();
        assert_eq!((a.ack, blocks(&a)), (500, vec![(800, 900), (600, 700)]));
    }

    #[test]
    fn delayed_ack_every_second_segment_or_timer() {
        let d = Duration::from_millis(100);
        let mut r = rx(Variant::Reno, Some(d));
        assert_eq!(r.on_segment(T, &seg(0)), None);
        assert_eq!(r.poll_timeout(), Some(T + d));
        assert_eq!(r.on_timeout(Time::from_millis(99)), None); // not due yet
                                                               // Second segment: ACK now, timer cancelled.
        assert_eq!(
            r.on_segment(Time::from_millis(10), &seg(1)).unwrap().ack,
            200
        );
        assert_eq!(r.poll_timeout(), None);
        // Third: delayed again; the timer fires at 20 + 100 ms.
        assert_eq!(r.on_segment(Time::from_millis(20), &seg(2)), None);
        assert_eq!(r.poll_timeout(), Some(Time::from_millis(120)));
        assert_eq!(r.on_timeout(Time::from_millis(120)).unwrap().ack, 300);
        assert_eq!(r.on_timeout(Time::from_millis(120)), None);
        assert_eq!(r.stats().delayed_ack_timeouts, 1);
        // Out-of-order and gap-filling segments are ACKed at once.
        assert_eq!(r.on_segment(T, &seg(4)).unwrap().ack, 300);
        assert_eq!(r.on_segment(T, &seg(3)).unwrap().ack, 500);
        // In order, no gap: delayed again.
        assert_eq!(r.on_segment(T, &seg(5)), None);
    }

    #[test]
    fn data_beyond_window_is_discarded() {
        let mut r = rx(Variant::Reno, None);
        // rwnd = 10 000: bytes from 10 000 on are outside [0, 10 000).
        let a = r
            .on_segment(
                T,
                &Segment {
                    seq: 10_000,
                    ..seg(0)
                },
            )
            .unwrap();
        assert_eq!((a.ack, r.stats().duplicates), (0, 1));
    }
}
