//! Packets in an arena: a flat `Vec` of slots recycled through a free list, so the
//! per-packet path allocates nothing once the arena has reached its high-water mark.

use qoslab_algo::{Color, PacketView, Time};

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

/// A packet in flight.
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    /// Flow the packet belongs to (ACKs belong to the flow of the data they acknowledge).
    pub flow: u32,
    /// Size on the wire in bytes (headers included).
    pub size: u32,
    pub color: Color,
    /// The IP ECN field.
    pub ecn: IpEcn,
    pub src_node: u32,
    pub dst_node: u32,
    /// The agent at `dst_node` the packet is for, and that agent slot's generation when the
    /// packet was sent (slots of finished web transfers are reused; a stray packet for an
    /// earlier occupant is recognised and ignored).
    pub dst_agent: u32,
    pub dst_gen: u32,
    /// When the source put it on the wire.
    pub sent_at: Time,
    /// When it reached the queue (shaper or egress FIFO) it is in, and the time it has
    /// waited in queues so far (`measure::delay`).
    pub queue_at: Time,
    pub queued_ns: u64,
    /// Transport header.
    pub hdr: WireHeader,
}

impl Packet {
    /// What queue disciplines, meters and shapers see of it.
    #[inline]
    pub fn view(&self) -> PacketView {
        PacketView {
            size: self.size,
            color: self.color,
            flow: self.flow,
        }
    }
}

/// An arena slot: one packet, 64-byte aligned, so its 128 bytes are exactly two cache lines
/// (issue 13, session 9). `Vec<Packet>` is only 8-byte aligned, so most packets straddled
/// three lines, and a hop (destination, size, colour, ECN and flow near the end; queue
/// times at the start) often touched all three. Measured on the RED bench dumbbell
/// (cachegrind, `qoslab-prof`): D1 misses 6.22 M -> 4.57 M (-27 %), instructions unchanged.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot(Packet);

/// The arena. Whether a slot is live is not stored on the per-packet path: a slot is live
/// unless it is on the free list, which `live_packets` (end of run) reconstructs; debug
/// builds keep per-slot flags to catch a double free.
#[derive(Default)]
pub struct Arena {
    slots: Vec<Slot>,
    free: Vec<PktId>,
    #[cfg(debug_assertions)]
    live: Vec<bool>,
}

impl Arena {
    pub fn with_capacity(n: usize) -> Self {
        Arena {
            slots: Vec::with_capacity(n),
            free: Vec::with_capacity(n),
            #[cfg(debug_assertions)]
            live: Vec::with_capacity(n),
        }
    }

    #[inline]
    pub fn alloc(&mut self, p: Packet) -> PktId {
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

    /// Packets live: every slot not on the free list (counted here, not on the per-packet
    /// path, issue 13 session 17).
    pub fn in_use(&self) -> u32 {
        (self.slots.len() - self.free.len()) as u32
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

// The packet slot's size is part of the engine's speed (issue 13): 128 bytes, two cache lines,
// since session 8 (bench/README.md "Not done, and why": the header is sized by `Ack`'s SACK
// blocks and the TFRC data header). A field that grows it must be a measured decision, so the
// build says so instead of the benchmark, weeks later.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(
    std::mem::size_of::<Packet>() == 128,
    "Packet grew past 128 bytes: measure the bench dumbbells (bench/README.md) before accepting it"
);
