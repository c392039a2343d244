//! Packets in an arena: a flat `Vec` of slots recycled through a free list, so the
//! per-packet path allocates nothing once the arena has reached its high-water mark.

use qoslab_algo::{Color, PacketView, Time};

use crate::transport::tcp::{Ack, SackBlock, Segment, MAX_SACK_BLOCKS};
use crate::transport::WireHeader;

/// The ECN field of a packet's IP header (RFC 3168 §5). ECT(0) and ECT(1) are not told
/// apart (nothing here uses the ECN nonce).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IpEcn {
    /// Not ECN-capable transport: a router drops it where it would mark.
    #[default]
    NotEct,
    /// ECN-capable transport.
    Ect,
    /// Congestion experienced (set by a router on an ECT packet).
    Ce,
}

/// A packet id: index of its slot in the arena.
pub type PktId = u32;

/// Which transport header a packet carries (the kind of its [`WireHeader`]), kept on the
/// packet's hot line so that delivery and the counters test it without reaching the
/// header itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum HdrKind {
    Udp,
    TcpData,
    TcpAck,
    TfrcData,
    TfrcFeedback,
}

impl HdrKind {
    /// Whether the packet carries application data (as opposed to ACKs and feedback).
    #[inline]
    pub fn is_data(self) -> bool {
        matches!(self, HdrKind::Udp | HdrKind::TcpData | HdrKind::TfrcData)
    }
}

/// `Packet::hdr_flags`: the header is in the arena's side table, not in `hdr_a` / `hdr_b`.
const SIDE: u8 = 0x80;
/// `Packet::hdr_flags` of a compact TCP segment: retransmission, ECT, CWR.
const RETX: u8 = 0x01;
const ECT: u8 = 0x02;
const CWR: u8 = 0x04;
/// `Packet::hdr_flags` of a compact TCP ACK: ECN-Echo.
const ECE: u8 = 0x01;

/// A packet in flight: exactly one 64-byte cache line (issue 13, session 12), holding
/// everything the per-hop path reads or writes (routing, size, colour, ECN, the delay
/// measurement's times) and the transport header in a compact form when it fits: a UDP
/// sequence number, a TCP segment whose RFC 7323 TSval is its send time (what the sender
/// always puts there), a TCP ACK without SACK blocks and with a zero TSecr. Any other header
/// (SACK blocks, a timestamp echo, TFRC data and feedback) lives in the arena's side table
/// under the same [`PktId`], read only by the endpoints ([`Arena::header`]). Built with
/// [`Packet::new`]; its header is set by [`Arena::alloc`].
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Packet {
    /// When the source put it on the wire.
    pub sent_at: Time,
    /// When it reached the queue (shaper or egress FIFO) it is in, and the time it has
    /// waited in queues so far (`measure::delay`).
    pub queue_at: Time,
    pub queued_ns: u64,
    /// Flow the packet belongs to (ACKs belong to the flow of the data they acknowledge).
    pub flow: u32,
    /// Size on the wire in bytes (headers included).
    pub size: u32,
    pub src_node: u32,
    pub dst_node: u32,
    /// The agent at `dst_node` the packet is for, and that agent slot's generation when the
    /// packet was sent (slots of finished web transfers are reused; a stray packet for an
    /// earlier occupant is recognised and ignored).
    pub dst_agent: u32,
    pub dst_gen: u32,
    /// The compact header: UDP / TCP sequence number or cumulative ACK ...
    hdr_a: u64,
    /// ... and a TCP segment's payload length.
    hdr_b: u32,
    pub color: Color,
    /// The IP ECN field.
    pub ecn: IpEcn,
    kind: HdrKind,
    /// `SIDE`, and the compact header's TCP flags.
    hdr_flags: u8,
}

/// One cache line (checked at compile time; `Slot` aligns it).
const _: () = assert!(std::mem::size_of::<Packet>() == 64);

impl Packet {
    /// A packet with the given routing fields, sent at `sent_at`, carrying a header of kind
    /// `kind` (the header itself is stored by [`Arena::alloc`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn new(
        flow: u32,
        size: u32,
        color: Color,
        ecn: IpEcn,
        src_node: u32,
        dst_node: u32,
        dst_agent: u32,
        dst_gen: u32,
        sent_at: Time,
    ) -> Packet {
        Packet {
            sent_at,
            queue_at: sent_at,
            queued_ns: 0,
            flow,
            size,
            src_node,
            dst_node,
            dst_agent,
            dst_gen,
            hdr_a: 0,
            hdr_b: 0,
            color,
            ecn,
            kind: HdrKind::Udp,
            hdr_flags: 0,
        }
    }

    /// What queue disciplines, meters and shapers see of it.
    #[inline]
    pub fn view(&self) -> PacketView {
        PacketView {
            size: self.size,
            color: self.color,
            flow: self.flow,
        }
    }

    /// The kind of its transport header.
    #[inline]
    pub fn kind(&self) -> HdrKind {
        self.kind
    }

    /// Whether it carries application data (as opposed to ACKs and feedback).
    #[inline]
    pub fn is_data(&self) -> bool {
        self.kind.is_data()
    }

    /// Stores `hdr` in the compact fields if it fits there; false if it must go to the side
    /// table (the kind is set either way).
    #[inline(always)]
    fn set_header(&mut self, hdr: &WireHeader) -> bool {
        let (kind, fits) = match *hdr {
            WireHeader::Udp { seq } => {
                self.hdr_a = seq;
                (HdrKind::Udp, true)
            }
            WireHeader::TcpData(seg) => {
                self.hdr_a = seg.seq;
                self.hdr_b = seg.len;
                self.hdr_flags = (seg.retransmission as u8 * RETX)
                    | (seg.ect as u8 * ECT)
                    | (seg.cwr as u8 * CWR);
                (HdrKind::TcpData, seg.ts_val == self.sent_at)
            }
            WireHeader::TcpAck(ack) => {
                self.hdr_a = ack.ack;
                self.hdr_flags = ack.ece as u8 * ECE;
                (HdrKind::TcpAck, ack.n_sack == 0 && ack.ts_ecr == Time::ZERO)
            }
            WireHeader::TfrcData(_) => (HdrKind::TfrcData, false),
            WireHeader::TfrcFeedback(_) => (HdrKind::TfrcFeedback, false),
        };
        self.kind = kind;
        if !fits {
            self.hdr_flags = SIDE;
        }
        fits
    }

    /// The compact header (`set_header` returned true).
    #[inline(always)]
    fn compact_header(&self) -> WireHeader {
        match self.kind {
            HdrKind::Udp => WireHeader::Udp { seq: self.hdr_a },
            HdrKind::TcpData => WireHeader::TcpData(self.compact_segment()),
            HdrKind::TcpAck => WireHeader::TcpAck(self.compact_ack()),
            // TFRC headers are always in the side table.
            HdrKind::TfrcData | HdrKind::TfrcFeedback => unreachable!("TFRC header inline"),
        }
    }

    /// The compact header of a TCP data segment (kind `TcpData`, not `SIDE`).
    #[inline(always)]
    fn compact_segment(&self) -> Segment {
        let f = self.hdr_flags;
        Segment {
            seq: self.hdr_a,
            len: self.hdr_b,
            retransmission: f & RETX != 0,
            ect: f & ECT != 0,
            cwr: f & CWR != 0,
            ts_val: self.sent_at,
        }
    }

    /// The compact header of a TCP ACK (kind `TcpAck`, not `SIDE`).
    #[inline(always)]
    fn compact_ack(&self) -> Ack {
        Ack {
            ack: self.hdr_a,
            sack: [SackBlock::default(); MAX_SACK_BLOCKS],
            n_sack: 0,
            ece: self.hdr_flags & ECE != 0,
            ts_ecr: Time::ZERO,
        }
    }
}

/// An arena slot: one packet, 64-byte aligned, so it is exactly one cache line (issue 13).
/// Session 9 aligned the then 128-byte slots (`Vec<Packet>` is only 8-byte aligned, so most
/// packets straddled three lines): D1 misses 6.22 M -> 4.57 M (-27 %) on the RED bench
/// dumbbell. Session 12 moved the transport header's bulk out of line, so a hop touches one
/// line (`bench/README.md`).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot(Packet);

/// The arena. Whether a slot is live is not stored on the per-packet path: a slot is live
/// unless it is on the free list, which `live_packets` (end of run) reconstructs; debug
/// builds keep per-slot flags to catch a double free.
#[derive(Default)]
pub struct Arena {
    slots: Vec<Slot>,
    /// Headers that do not fit a packet's line, by packet id (`Packet::set_header`); an
    /// entry is meaningful only while its packet is live and marked `SIDE`.
    side: Vec<WireHeader>,
    free: Vec<PktId>,
    in_use: u32,
    #[cfg(debug_assertions)]
    live: Vec<bool>,
}

impl Arena {
    pub fn with_capacity(n: usize) -> Self {
        Arena {
            slots: Vec::with_capacity(n),
            side: Vec::new(),
            free: Vec::with_capacity(n),
            in_use: 0,
            #[cfg(debug_assertions)]
            live: Vec::with_capacity(n),
        }
    }

    /// Stores packet `p` with transport header `hdr` (compact on its line, or in the side
    /// table) and returns its id.
    #[inline(always)]
    pub fn alloc(&mut self, mut p: Packet, hdr: WireHeader) -> PktId {
        let fits = p.set_header(&hdr);
        let id = self.alloc_slot(p);
        if !fits {
            self.set_side(id, hdr);
        }
        id
    }

    #[cold]
    #[inline(never)]
    fn set_side(&mut self, id: PktId, hdr: WireHeader) {
        let i = id as usize;
        if self.side.len() <= i {
            self.side.resize(i + 1, WireHeader::Udp { seq: 0 });
        }
        self.side[i] = hdr;
    }

    /// The transport header of packet `id` (for its endpoints).
    #[inline(always)]
    pub fn header(&self, id: PktId) -> WireHeader {
        let p = self.get(id);
        if p.hdr_flags & SIDE != 0 {
            self.side[id as usize]
        } else {
            p.compact_header()
        }
    }

    /// The TCP segment packet `id` carries, if it is TCP data.
    #[inline(always)]
    pub fn segment(&self, id: PktId) -> Option<Segment> {
        let p = self.get(id);
        if p.kind != HdrKind::TcpData {
            None
        } else if p.hdr_flags & SIDE == 0 {
            Some(p.compact_segment())
        } else {
            match self.side[id as usize] {
                WireHeader::TcpData(seg) => Some(seg),
                _ => None,
            }
        }
    }

    /// The TCP ACK packet `id` carries, if it is one.
    #[inline(always)]
    pub fn ack(&self, id: PktId) -> Option<Ack> {
        let p = self.get(id);
        if p.kind != HdrKind::TcpAck {
            None
        } else if p.hdr_flags & SIDE == 0 {
            Some(p.compact_ack())
        } else {
            match self.side[id as usize] {
                WireHeader::TcpAck(ack) => Some(ack),
                _ => None,
            }
        }
    }

    #[inline]
    fn alloc_slot(&mut self, p: Packet) -> PktId {
        self.in_use += 1;
        if let Some(id) = self.free.pop() {
            self.slots[id as usize] = Slot(p);
            #[cfg(debug_assertions)]
            {
                self.live[id as usize] = true;
            }
            id
        } else {
            self.slots.push(Slot(p));
            #[cfg(debug_assertions)]
            self.live.push(true);
            (self.slots.len() - 1) as PktId
        }
    }

    #[inline]
    pub fn free(&mut self, id: PktId) {
        #[cfg(debug_assertions)]
        {
            assert!(self.live[id as usize], "double free of packet {id}");
            self.live[id as usize] = false;
        }
        self.in_use -= 1;
        self.free.push(id);
    }

    #[inline]
    pub fn get(&self, id: PktId) -> &Packet {
        &self.slots[id as usize].0
    }

    #[inline]
    pub fn get_mut(&mut self, id: PktId) -> &mut Packet {
        &mut self.slots[id as usize].0
    }

    pub fn in_use(&self) -> u32 {
        self.in_use
    }

    /// Live packets in slot order (for the end-of-run conservation check): every slot not
    /// on the free list.
    pub fn live_packets(&self) -> impl Iterator<Item = &Packet> {
        let mut free = vec![false; self.slots.len()];
        for &id in &self.free {
            free[id as usize] = true;
        }
        self.slots
            .iter()
            .zip(free)
            .filter(|(_, f)| !f)
            .map(|(p, _)| &p.0)
    }
}
