//! qoslab's trace reader (`qoslab::condition::pcap`) against `pcap-parser` 0.16 on a
//! generated capture of N packets (default 1,000,000), classic pcap and pcapng: wall time,
//! heap allocations, and the error messages on truncated and corrupt files (issue 15).
//!
//! Usage: `CARGO_TARGET_DIR=../../target cargo run --release [-- N DIR]` (files are written
//! to DIR, default the system temporary directory, and removed afterwards unless
//! `QOSLAB_BENCH_KEEP` is set).
//!
//! What each side does per packet (the view `qoslab condition` needs): the record framing,
//! the timestamp in ns, `locate_ip` (link header, IP version, size, DSCP, length checks),
//! and a `Packet` holding a copy of the record for the writer. The pcap-parser side is
//! also timed without that copy ("borrowed"): the lower bound of a zero-copy design.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufReader, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use pcap_parser::traits::{PcapNGPacketBlock, PcapReaderIterator};
use pcap_parser::{LegacyPcapReader, PcapBlockOwned, PcapError, PcapNGReader};
use qoslab::condition::pcap::{locate_ip, PcapReader, PcapngReader};
use qoslab::condition::trace::Item;

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(l.size() as u64, Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(n as u64, Ordering::Relaxed);
        System.realloc(p, l, n)
    }
}
#[global_allocator]
static A: Counting = Counting;

/// A deterministic frame: Ethernet + IPv4, IP size 40..=1500, captured up to 128 bytes
/// (a snap length, as real captures have), DSCP cycling over AF1x.
fn frame(k: u64) -> (Vec<u8>, u32) {
    let ip_len = 40 + (k.wrapping_mul(2654435761) % 1461) as u16;
    let mut f = vec![0u8; 14];
    f[12] = 0x08;
    let mut ip = vec![0u8; 20];
    ip[0] = 0x45;
    ip[1] = [10u8, 12, 14][(k % 3) as usize] << 2;
    ip[2..4].copy_from_slice(&ip_len.to_be_bytes());
    ip[8] = 64;
    ip[9] = 17;
    let mut s = 0u32;
    for c in ip.chunks(2) {
        s += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    ip[10..12].copy_from_slice(&(!(s as u16)).to_be_bytes());
    f.extend_from_slice(&ip);
    let orig = 14 + ip_len as u32;
    let cap = orig.min(128) as usize;
    f.resize(cap, 0);
    (f, orig)
}

fn write_pcap(path: &std::path::Path, n: u64) {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut h = Vec::new();
    h.extend_from_slice(&0xa1b2_3c4du32.to_le_bytes());
    h.extend_from_slice(&2u16.to_le_bytes());
    h.extend_from_slice(&4u16.to_le_bytes());
    h.extend_from_slice(&[0; 8]);
    h.extend_from_slice(&65535u32.to_le_bytes());
    h.extend_from_slice(&1u32.to_le_bytes());
    w.write_all(&h).unwrap();
    for k in 0..n {
        let (f, orig) = frame(k);
        let t = 1_000_000_000 + k * 1_000;
        w.write_all(&((t / 1_000_000_000) as u32).to_le_bytes())
            .unwrap();
        w.write_all(&((t % 1_000_000_000) as u32).to_le_bytes())
            .unwrap();
        w.write_all(&(f.len() as u32).to_le_bytes()).unwrap();
        w.write_all(&orig.to_le_bytes()).unwrap();
        w.write_all(&f).unwrap();
    }
}

fn block(w: &mut impl Write, btype: u32, body: &[u8]) {
    let len = 12 + body.len().div_ceil(4) * 4;
    w.write_all(&btype.to_le_bytes()).unwrap();
    w.write_all(&(len as u32).to_le_bytes()).unwrap();
    w.write_all(body).unwrap();
    w.write_all(&vec![0u8; len - 12 - body.len()]).unwrap();
    w.write_all(&(len as u32).to_le_bytes()).unwrap();
}

fn write_pcapng(path: &std::path::Path, n: u64) {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut shb = Vec::new();
    shb.extend_from_slice(&0x1a2b_3c4du32.to_le_bytes());
    shb.extend_from_slice(&1u16.to_le_bytes());
    shb.extend_from_slice(&0u16.to_le_bytes());
    shb.extend_from_slice(&(-1i64).to_le_bytes());
    block(&mut w, 0x0a0d_0d0a, &shb);
    // IDB: Ethernet, snaplen, if_tsresol = 9 (ns), end of options.
    let mut idb = Vec::new();
    idb.extend_from_slice(&1u16.to_le_bytes());
    idb.extend_from_slice(&0u16.to_le_bytes());
    idb.extend_from_slice(&65535u32.to_le_bytes());
    idb.extend_from_slice(&9u16.to_le_bytes());
    idb.extend_from_slice(&1u16.to_le_bytes());
    idb.extend_from_slice(&[9, 0, 0, 0]);
    idb.extend_from_slice(&[0, 0, 0, 0]);
    block(&mut w, 1, &idb);
    for k in 0..n {
        let (f, orig) = frame(k);
        let t = 1_000_000_000 + k * 1_000;
        let mut b = Vec::with_capacity(20 + f.len());
        b.extend_from_slice(&0u32.to_le_bytes());
        b.extend_from_slice(&((t >> 32) as u32).to_le_bytes());
        b.extend_from_slice(&(t as u32).to_le_bytes());
        b.extend_from_slice(&(f.len() as u32).to_le_bytes());
        b.extend_from_slice(&orig.to_le_bytes());
        b.extend_from_slice(&f);
        block(&mut w, 6, &b);
    }
}

/// Per-packet result folded into a checksum, so no side can skip work.
#[derive(Default, Debug, PartialEq)]
struct Sum {
    pkts: u64,
    bytes: u64,
    time: u64,
    dscp: u64,
}

fn ours(path: &std::path::Path, ng: bool) -> Result<Sum, String> {
    let rd = BufReader::new(std::fs::File::open(path).map_err(|e| e.to_string())?);
    let mut s = Sum::default();
    let mut take = |it: Item| {
        if let Item::Packet(p) = it {
            s.pkts += 1;
            s.bytes += p.size as u64;
            s.time = s.time.wrapping_add(p.time);
            s.dscp += p.color as u64;
        }
    };
    if ng {
        let mut r = PcapngReader::new(rd, 1);
        while let Some(it) = r.next_item().map_err(|e| e.to_string())? {
            take(it);
        }
    } else {
        let mut r = PcapReader::new(rd, 1).map_err(|e| e.to_string())?;
        while let Some(it) = r.next_item().map_err(|e| e.to_string())? {
            take(it);
        }
    }
    Ok(s)
}

/// pcap-parser framing + our `locate_ip`; `copy`: also copy the record as our `Packet`
/// does (for the writer). Errors: pcap-parser's, with the record number we count.
fn theirs(path: &std::path::Path, ng: bool, copy: bool) -> Result<Sum, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut s = Sum::default();
    let mut linktype = 1u32;
    let mut rec = 0u64;
    let mut keep: Vec<u8> = Vec::new();
    let mut on_packet =
        |data: &[u8], orig: u32, t: u64, linktype: u32, s: &mut Sum| -> Result<(), String> {
            let ip = locate_ip(linktype, data, orig)?;
            if copy {
                keep = data.to_vec();
                std::hint::black_box(&keep);
            }
            if let Some(ip) = ip {
                s.pkts += 1;
                s.bytes += ip.size as u64;
                s.time = s.time.wrapping_add(t);
                s.dscp += qoslab::condition::pcap::color_of_dscp(1, ip.dscp) as u64;
            }
            Ok(())
        };
    if ng {
        let mut r = PcapNGReader::new(65536, file).map_err(|e| format!("{e:?}"))?;
        let mut res = 1_000_000_000u64;
        loop {
            match r.next() {
                Ok((off, b)) => {
                    rec += 1;
                    match b {
                        PcapBlockOwned::NG(pcap_parser::Block::InterfaceDescription(i)) => {
                            linktype = i.linktype.0 as u32;
                            res = i.ts_resolution().ok_or("bad if_tsresol")?;
                        }
                        PcapBlockOwned::NG(pcap_parser::Block::EnhancedPacket(e)) => {
                            let units = ((e.ts_high as u64) << 32) | e.ts_low as u64;
                            let t = units * (1_000_000_000 / res);
                            on_packet(e.packet_data(), e.origlen, t, linktype, &mut s)
                                .map_err(|m| format!("block {rec}: {m}"))?;
                        }
                        _ => {}
                    }
                    r.consume(off);
                }
                Err(PcapError::Eof) => break,
                Err(PcapError::Incomplete(_)) => r.refill().map_err(|e| format!("{e:?}"))?,
                Err(e) => return Err(format!("after block {rec}: {e:?} ({e})")),
            }
        }
    } else {
        let mut r = LegacyPcapReader::new(65536, file).map_err(|e| format!("{e:?} ({e})"))?;
        let mut nanos = false;
        loop {
            match r.next() {
                Ok((off, b)) => {
                    match b {
                        PcapBlockOwned::LegacyHeader(h) => {
                            linktype = h.network.0 as u32;
                            nanos = h.is_nanosecond_precision();
                        }
                        PcapBlockOwned::Legacy(b) => {
                            rec += 1;
                            let t = b.ts_sec as u64 * 1_000_000_000
                                + b.ts_usec as u64 * if nanos { 1 } else { 1_000 };
                            on_packet(b.data, b.origlen, t, linktype, &mut s)
                                .map_err(|m| format!("record {rec}: {m}"))?;
                        }
                        _ => {}
                    }
                    r.consume(off);
                }
                Err(PcapError::Eof) => break,
                Err(PcapError::Incomplete(_)) => r.refill().map_err(|e| format!("{e:?}"))?,
                Err(e) => return Err(format!("after record {rec}: {e:?} ({e})")),
            }
        }
    }
    Ok(s)
}

fn measure(label: &str, f: impl Fn() -> Result<Sum, String>) -> Sum {
    let mut best = f64::INFINITY;
    let mut out = None;
    let mut allocs = 0;
    let mut bytes = 0;
    for _ in 0..5 {
        let (a0, b0) = (
            ALLOCS.load(Ordering::Relaxed),
            BYTES.load(Ordering::Relaxed),
        );
        let t = Instant::now();
        let s = f().unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        allocs = ALLOCS.load(Ordering::Relaxed) - a0;
        bytes = BYTES.load(Ordering::Relaxed) - b0;
        out = Some(s);
    }
    let s = out.unwrap();
    println!(
        "| {label} | {:.1} | {:.0} | {allocs} | {:.1} |",
        best * 1e3,
        s.pkts as f64 / best / 1e6 * 1e3,
        bytes as f64 / 1e6
    );
    s
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).map_or(1_000_000, |a| a.parse().unwrap());
    let dir = args
        .get(2)
        .map_or_else(std::env::temp_dir, std::path::PathBuf::from)
        .join(format!("qoslab-pcap-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pcap = dir.join("bench.pcap");
    let ng = dir.join("bench.pcapng");
    write_pcap(&pcap, n);
    write_pcapng(&ng, n);
    println!(
        "{n} packets; pcap {:.1} MB, pcapng {:.1} MB; best of 5 (page cache warm)\n",
        std::fs::metadata(&pcap).unwrap().len() as f64 / 1e6,
        std::fs::metadata(&ng).unwrap().len() as f64 / 1e6
    );
    println!("| reader | ms | k packets/s | allocations | MB allocated |\n|---|---|---|---|---|");
    let a = measure("pcap: qoslab", || ours(&pcap, false));
    let b = measure("pcap: pcap-parser + locate_ip + copy", || {
        theirs(&pcap, false, true)
    });
    let c = measure("pcap: pcap-parser + locate_ip, borrowed", || {
        theirs(&pcap, false, false)
    });
    assert_eq!(a, b);
    assert_eq!(a, c);
    let a = measure("pcapng: qoslab", || ours(&ng, true));
    let b = measure("pcapng: pcap-parser + locate_ip + copy", || {
        theirs(&ng, true, true)
    });
    let c = measure("pcapng: pcap-parser + locate_ip, borrowed", || {
        theirs(&ng, true, false)
    });
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(a.pkts, n);

    println!(
        "\nError messages (qoslab | pcap-parser, with the record count kept by the caller):\n"
    );
    let whole = std::fs::read(&pcap).unwrap();
    let whole_ng = std::fs::read(&ng).unwrap();
    let bad = dir.join("bad");
    // Offsets of record / block k (0-based) in the generated files.
    let rec = |k: u64| 24 + (0..k).map(|j| 16 + frame(j).0.len()).sum::<usize>();
    let blk = |k: u64| {
        60 + (0..k)
            .map(|j| 32 + frame(j).0.len().div_ceil(4) * 4)
            .sum::<usize>()
    };
    let mut cases: Vec<(&str, Vec<u8>, bool)> = Vec::new();
    cases.push((
        "pcap cut inside record 3's data",
        whole[..rec(2) + 16 + 10].to_vec(),
        false,
    ));
    cases.push((
        "pcap cut inside record 3's header",
        whole[..rec(2) + 7].to_vec(),
        false,
    ));
    let mut c = whole[..rec(3)].to_vec();
    c[rec(1) + 8..rec(1) + 12].copy_from_slice(&0x7fff_0000u32.to_le_bytes());
    cases.push(("pcap record 2 captured length 2 GB", c, false));
    let mut c = whole[..rec(3)].to_vec();
    c[rec(1) + 12..rec(1) + 16].copy_from_slice(&20u32.to_le_bytes());
    cases.push((
        "pcap record 2 original length 20, below the captured length",
        c,
        false,
    ));
    let mut c = whole[..rec(3)].to_vec();
    c[rec(1) + 4..rec(1) + 8].copy_from_slice(&2_000_000_000u32.to_le_bytes());
    cases.push(("pcap record 2 sub-second field 2e9 ns", c, false));
    cases.push(("pcap header cut at 10 bytes", whole[..10].to_vec(), false));
    cases.push((
        "pcapng cut inside block 4 (the 2nd EPB)",
        whole_ng[..blk(1) + 50].to_vec(),
        true,
    ));
    let mut c = whole_ng[..blk(3)].to_vec();
    c[blk(1) + 4..blk(1) + 8].copy_from_slice(&13u32.to_le_bytes());
    cases.push(("pcapng block 4 total length 13", c, true));
    let mut c = whole_ng[..blk(3)].to_vec();
    c[blk(1) + 20..blk(1) + 24].copy_from_slice(&4000u32.to_le_bytes());
    cases.push((
        "pcapng block 4 captured length 4000, past the block",
        c,
        true,
    ));
    let mut c = whole_ng[..blk(3)].to_vec();
    let end = blk(2) - 4;
    c[end..end + 4].copy_from_slice(&999u32.to_le_bytes());
    cases.push((
        "pcapng block 4 trailing length differs from the leading one",
        c,
        true,
    ));
    for (what, bytes, ng) in cases {
        std::fs::write(&bad, &bytes).unwrap();
        let o = ours(&bad, ng).map(|s| format!("ok, {} packets", s.pkts));
        let t = theirs(&bad, ng, true).map(|s| format!("ok, {} packets", s.pkts));
        println!(
            "- {what}:\n  - qoslab: {}\n  - pcap-parser: {}",
            o.unwrap_or_else(|e| e),
            t.unwrap_or_else(|e| e)
        );
    }
    std::fs::remove_file(&bad).unwrap();
    if std::env::var_os("QOSLAB_BENCH_KEEP").is_some() {
        println!("\nkept {} and {}", pcap.display(), ng.display());
    } else {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
