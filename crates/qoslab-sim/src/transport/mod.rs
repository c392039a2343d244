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
    /// A TFRC data packet.
    TfrcData(qoslab_algo::tfrc::DataPacket),
    /// A TFRC feedback packet.
    TfrcFeedback(qoslab_algo::tfrc::Feedback),
}

impl WireHeader {
    /// Whether the packet carries application data (as opposed to ACKs and feedback).
    #[inline]
    pub fn is_data(&self) -> bool {
        matches!(
            self,
            WireHeader::Udp { .. } | WireHeader::TcpData(_) | WireHeader::TfrcData(_)
        )
    }
}
