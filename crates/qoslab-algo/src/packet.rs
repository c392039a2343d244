//! The small view of a packet that algorithms see.

/// Drop-precedence colour (RFC 2697/2698 colours; RFC 2597 AFx1/AFx2/AFx3).
///
/// Two-colour schemes (Clark & Fang's In/Out, the RIO seed's AF11/AF12) use
/// `Green` for In and `Yellow` for Out. Ordered from most to least preferred.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
#[repr(u8)]
pub enum Color {
    #[default]
    Green = 0,
    Yellow = 1,
    Red = 2,
}

impl Color {
    pub const ALL: [Color; 3] = [Color::Green, Color::Yellow, Color::Red];
    pub const fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Color::Green => "green",
            Color::Yellow => "yellow",
            Color::Red => "red",
        }
    }
    pub fn parse(s: &str) -> Option<Color> {
        match s {
            "green" | "in" => Some(Color::Green),
            "yellow" | "out" => Some(Color::Yellow),
            "red" => Some(Color::Red),
            _ => None,
        }
    }
}

/// What an algorithm may know of a packet: its size on the wire in bytes, its current
/// colour and an opaque flow number (for per-flow state such as a per-interface tagger).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PacketView {
    pub size: u32,
    pub color: Color,
    pub flow: u32,
}

impl PacketView {
    pub const fn new(size: u32) -> Self {
        PacketView {
            size,
            color: Color::Green,
            flow: 0,
        }
    }
    pub const fn with_color(size: u32, color: Color) -> Self {
        PacketView {
            size,
            color,
            flow: 0,
        }
    }
}

/// The occupancy of a FIFO queue, as queue-management algorithms see it when a packet
/// arrives (before it is added) or after a packet has left.
///
/// Counts exclude the packet being transmitted on the link, as in ns-2 and Linux.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct QueueView {
    pub pkts: u32,
    pub bytes: u64,
    /// Packets per colour, indexed by [`Color::index`].
    pub pkts_by_color: [u32; 3],
    /// Bytes per colour, indexed by [`Color::index`].
    pub bytes_by_color: [u64; 3],
}

impl QueueView {
    pub const EMPTY: QueueView = QueueView {
        pkts: 0,
        bytes: 0,
        pkts_by_color: [0; 3],
        bytes_by_color: [0; 3],
    };

    /// Adds a packet (used by queues that keep their own view).
    pub fn push(&mut self, size: u32, color: Color) {
        self.pkts += 1;
        self.bytes += size as u64;
        self.pkts_by_color[color.index()] += 1;
        self.bytes_by_color[color.index()] += size as u64;
    }
    /// Removes a packet previously pushed with the same size and colour.
    pub fn pop(&mut self, size: u32, color: Color) {
        debug_assert!(self.pkts > 0 && self.pkts_by_color[color.index()] > 0);
        self.pkts -= 1;
        self.bytes -= size as u64;
        self.pkts_by_color[color.index()] -= 1;
        self.bytes_by_color[color.index()] -= size as u64;
    }
}
