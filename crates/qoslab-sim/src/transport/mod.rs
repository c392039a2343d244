//! Transports and the headers they put on packets.
pub mod tcp;

/// The transport header carried by a packet (no payload bytes are simulated).
#[derive(Clone, Copy, Debug)]
pub enum WireHeader {
    /// A UDP datagram with the source's sequence number.
    Udp { seq: u64 },
    /// A TCP data segment.
    TcpData(tcp::Segment),
    /// A TCP acknowledgment.
    TcpAck(tcp::Ack),
}
