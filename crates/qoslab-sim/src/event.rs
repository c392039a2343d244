//! The event queue: binary min-heaps ordered by (time, insertion sequence) (`Heap`, below),
//! and for the pipe heads of networks up to 1,024 links a tournament tree (`Tree`, session
//! 17, below).
//! Links keep their in-flight packets in a FIFO pipe and schedule
//! only its head, so the pending set is about one event per busy link and per agent timer,
//! not one per packet in flight.
//!
//! Ties in time are broken by insertion order (NeXosim's rule), so a run is a deterministic
//! function of its inputs. The key (time, seq) is packed into one u128 so a comparison is a
//! single integer compare; an entry is 32 bytes (with `Event`). The heap's storage is reused, so scheduling
//! allocates nothing once the pending set has reached its high-water mark.
//!
//! Measured alternative (issue 13): a one-level radix heap on the same u128 key (Ahuja et
//! al. 1990; keys only grow in a simulation) executed more instructions on the RED bench
//! dumbbell (1.405 G against 1.354 G for the whole run, callgrind): the pending set spans
//! microseconds (link events) to a second (RTO timers), so entries are redistributed
//! several times before they pop. A hand-written 4-ary heap of 24-byte entries also
//! executed more (1.447 G; fewer instructions per pop, more per push). The binary heap stays.
//!
//! Two heaps (three since session 10, below), one key space (issue 13, session 7): link events (`Deliver`, `LinkFree`: nearly
//! all events, each due within a serialisation or propagation time) and timers (`Agent`,
//! `Shaper`, `Web`, `Sample`, `Warmup`: deadlines armed by components, mostly far ahead, and
//! stale ones left in place) are kept in separate heaps. Both take their keys from the one
//! (time, seq) counter and a pop takes the smaller of the two tops, so the pop order, and
//! therefore every result and the event count, is exactly that of one heap. On the 20-flow
//! bench dumbbell the single heap held ~57 entries on average, ~39 of them timers; the link
//! heap alone holds ~18, so its sifts are about two levels shallower. The timer heap's top
//! key is cached (`timer_top`), so a pop reads one field for it. Measured: -0.7 % (RED) and
//! -1.4 % (drop-tail) instructions on the bench dumbbells, and -7.5 % of the loop at 10,000
//! flows (start-up excluded).
//!
//! The heap is this module's own since session 8: it sifts like std's `BinaryHeap` (a hole
//! moved down, the smaller child chosen without a branch) but pops by sifting the last
//! entry down from the top with the same early stop, where std's `pop` sifts to the bottom
//! and back up (Floyd). On the RED bench dumbbell: -3.6 % instructions for the whole run
//! (917.2 M -> 884.5 M, callgrind), of which std's 200,000 pops had cost 31.6 M (158
//! instructions each). Measured and rejected on the way: session 7's hand-written heap with
//! Floyd's bottom-up replace (+5 %); 16-byte entries (time, and the sequence number packed
//! above the event's kind and id) on std's heap (+1.1 %: std's sift was no longer inlined,
//! and decoding the kind cost about 6 instructions per event), on a heap choosing the child
//! with a branch (+1.6 %) and 4-ary (+12.5 %).
//!
//! Session 9: a maximal-key sentinel after the entries removes the sift's lone-last-child
//! test (-2.4 % instructions on the RED bench dumbbell, `Heap`). Measured and rejected: a
//! branch-free sift of a fixed `floor(log2 n)` levels (+10 % instructions, +4.9 % CPU time,
//! although cachegrind simulated 29 % fewer mispredictions), and a "fast lane" for events
//! scheduled before the top (870 of 201,366 plain pushes qualify on that workload).
//!
//! Session 10: `LinkFree` events in a heap of their own (`frees`), beside the pipe heads
//! (`links`) and the timers, with the smaller of the two side heaps' tops cached
//! (`side_top`), so a pop still compares the link heap's top with one field. A `LinkFree`
//! is pushed only while a packet waits behind a transmission (`net::link`): on the bench
//! dumbbells none of the 481,775 (RED) found its FIFO empty, so none can be dropped, and
//! running one later than its (time, seq) place would change what a packet arriving at
//! the same nanosecond sees. What can go is its cost in the big heap: at most one is
//! pending per link, about 1.3 on average there, so its replace-top is almost never a
//! sift, and the link heap holds only pipe heads. The key still comes from the one
//! counter at the same push, so the pop order, the event count and every result are
//! unchanged. Measured (`qoslab-prof`, callgrind): -2.6 % / -2.0 % instructions (RED /
//! drop-tail) and about -10 % / -6 % CPU time for the whole run (median of 8 interleaved
//! rounds). Rejected: pipe heads into hosts in a fourth heap (+1.6 % instructions, CPU
//! time unchanged).
//!
//! Session 15, at 10,000 flows (454 pipe heads pending on average, 1,399 at most; the
//! heaps' own instructions about 83 M of the 403 M loop, `qoslab-prof`, callgrind): a
//! calendar queue (Brown 1988) for the pipe heads, chosen from 1,000 links on (binary heap
//! kept below), exact in (time, seq) order (a proptest against this heap) and byte-identical,
//! was measured and not kept. With 1,024 buckets spanning twice the longest link delay
//! (16 µs each) the buckets held ~15 heads each at the start-up burst and the loop took
//! +15 % instructions; with 1 µs buckets (16,384 `Vec`s) +3.7 % instructions and about +20 %
//! CPU time (bucket storage spread over 400 KB); with intrusive per-bucket lists in one node
//! slab +1.7 % instructions and CPU time unchanged within noise. A heap of ~450 entries is
//! about 9 levels, ~70 instructions a replace-top, in L1: a bucket's push, unlink and
//! next-bucket search cost as much. And the choice between the two, an enum match per push
//! and pop, cost the 20-flow bench dumbbell +1.5-1.7 % instructions. A prefetch of the next
//! pipe head's link (the top's earlier child) while the current event runs: +4.4 %
//! instructions at 10,000 flows, +6 % at 20, CPU time not lower.
//!
//! Session 17 (RED / drop-tail bench dumbbells, `qoslab-prof`, callgrind): a pop reads each
//! heap's first slot, which holds its top or, when the heap is empty, the sentinel, instead
//! of an `Option`, and `settle` tests `taken` once before its match: -2.4 % / -2.7 %
//! instructions. `replace_top` keeps the hole as a pointer and reuses the chosen child's
//! pointer for its compare and move: -1.1 % / -1.1 %, CPU time lower. Measured and rejected:
//! positions as byte offsets (no `index * 32` per access): -2.5 % instructions, but the
//! smaller-child choice compiled to a branch, mispredicted about half the time, +20 % CPU
//! time (`std::hint::select_unpredictable` gave the same branch); made branch-free with a
//! multiply by the entry size, -1.2 % instructions and slower (the compare, `setb`, extend,
//! shift and add lengthen the chain to the next level's load, where the index form has one
//! `adc`). `pop_before` without the timers' emptiness test (the sentinel's time answering
//! `until`): +0.7 % / +0.8 % instructions, from the loop's code generation.
//!
//! Session 17, branch `s17-tt`: the pipe heads in a **tournament (winner) tree**
//! (`Tree`) for networks of up to `TREE_MAX_LINKS` (1,024) links, the binary heap kept
//! above, chosen once per run (`EventQueue::for_links`, from `sim.rs`). The loop had been
//! found latency-bound (-8.5 % instructions gave -0.8 % CPU time), its hottest instructions
//! the heap sift's compares, each level's loads waiting on the level above. The tree has a
//! leaf per slot (a free list hands slots out, so its size follows the pending heads, not
//! the links: 32 leaves, 5 levels, on the 20-flow bench dumbbells; a link has at most one
//! pipe head pending, as `Link`'s pipe schedules only its head) and each internal node the
//! smaller child's key and tag (slot, link). An update walks the fixed leaf-to-root path:
//! the sibling loads do not depend on any compare, and the compare-and-select is three
//! dependent instructions (`cmp`, `sbb`, `cmovb`, written as inline assembly: LLVM turned
//! the plain `if` into a branch). The replace-top protocol is kept (the handed-out top's
//! slot is overwritten, one walk); the earliest pipe head's key and link are copied into
//! the queue after each change (`link_top`), so a pop reads them without asking which
//! structure holds them. Keys are unique, so the pop order, every result and the event
//! count are unchanged (a proptest against the heap; 26 of 26 runs identical). Measured,
//! whole `qoslab run -q`: instructions up, RED 699.6 M -> 789.0 M (+12.8 %), drop-tail
//! 662.3 M -> 752.0 M (+13.5 %), and CPU time down, `perf stat -e task-clock -r 10`, 8
//! rounds interleaved with `main` on the idle machine: RED 81.5 -> **70.8 ms (-13.1 %)**,
//! drop-tail 73.8 -> **64.0 ms (-13.3 %)** (medians; a second, disturbed set -8.8 / -9.6 %).
//! At 10,000 flows (40,004 links: the heap) the run loop is unchanged within its 1 ms
//! resolution (77-78 ms). Measured and not kept: the tree for every size (20 flows -10 to
//! -12 %, but the 10,000-flow loop +4-5 %: 11 levels, 96 KB of nodes); the per-push/pop
//! dispatch between tree and heap without the copied top (only -8 % at 20 flows: the
//! branches cost 3-5 %); a 4-ary tree (three siblings' minimum beside the chain, one
//! compare on it per level): +20 % instructions, slower than the binary tree (-5 to -7 %).
//!
//! What did pay: popping lazily. `pop` hands out the top entry but leaves it in place,
//! marked taken; the handler's first `push` then overwrites the top and sifts it down once
//! (`Heap::replace_top`), instead of a full pop (sift to the bottom and back up) followed by a
//! push (sift up). Most events schedule exactly one successor (a link's next delivery, a
//! re-armed timer), so this removes about one heap operation per event. If the handler
//! pushes nothing, the next `pop` removes the taken entry first. Keys are unique, so the
//! pop order is the same as with eager pops: runs are byte-identical.

use qoslab_algo::Time;

/// What happens when an event fires. Ids are indices into the simulator's flat tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The packet at the head of link `link`'s pipe arrives at the link's far end.
    Deliver { link: u32 },
    /// Link `link` has finished serialising; start the next queued packet.
    LinkFree { link: u32 },
    /// The shaper of link `link`'s ingress conditioner may release its head packet.
    Shaper { link: u32 },
    /// An agent's deadline (source tick, TCP timer) may be due.
    Agent { agent: u32 },
    /// A web-traffic pool's model may have requests due.
    Web { pool: u32 },
    /// Periodic sampling of the time series.
    Sample,
    /// End of the warm-up: statistics snapshot.
    Warmup,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u128,
    ev: Event,
}

/// A binary min-heap of entries on their key (module documentation): replace-top and pop
/// sift one entry down with std's loop (the smaller child chosen without a branch).
///
/// The storage past the `n` entries holds at least one sentinel with the largest key
/// (`NO_KEY`), so a node whose left child is the last entry has a right child too, which is
/// never chosen: the sift needs no separate test for a lone last child (session 9: that test,
/// taken in about one sift in six, was 3.1 M instructions and a sixth of the simulated
/// mispredictions of the sift on the RED bench dumbbell).
struct Heap {
    /// Entries `[0, n)`, then sentinels (at least one).
    v: Vec<Entry>,
    n: usize,
}

/// The padding entry past the heap's end: never below any key.
const SENTINEL: Entry = Entry {
    key: NO_KEY,
    ev: Event::Sample,
};

impl Heap {
    fn with_capacity(n: usize) -> Self {
        let mut v = Vec::with_capacity(n + 1);
        v.push(SENTINEL);
        Heap { v, n: 0 }
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.n
    }
    /// The first slot: the top entry, or the sentinel (key `NO_KEY`) when the heap is
    /// empty, so reading the top's key needs no test of `n` (session 17).
    #[inline(always)]
    fn top(&self) -> &Entry {
        // SAFETY: `v` always holds at least one sentinel after the `n` entries, so it is
        // never empty.
        unsafe { self.v.get_unchecked(0) }
    }
    #[inline(always)]
    fn as_slice(&self) -> &[Entry] {
        // SAFETY: `n < v.len()` (a sentinel follows the entries).
        unsafe { self.v.get_unchecked(..self.n) }
    }
    #[inline(always)]
    fn push(&mut self, e: Entry) {
        let mut pos = self.n;
        self.n += 1;
        if self.n == self.v.len() {
            // The sentinel at `pos` becomes an entry; one more goes after it.
            self.v.push(SENTINEL);
        }
        let p = self.v.as_mut_ptr();
        // SAFETY: `pos` < n < v.len(), and every parent index is below `pos`.
        unsafe {
            while pos > 0 {
                let parent = (pos - 1) / 2;
                if (*p.add(parent)).key <= e.key {
                    break;
                }
                *p.add(pos) = *p.add(parent);
                pos = parent;
            }
            *p.add(pos) = e;
        }
    }
    /// Replaces the top (the heap is not empty) by `e`.
    #[inline(always)]
    fn replace_top(&mut self, e: Entry) {
        let n = self.n;
        debug_assert!(n > 0 && n < self.v.len());
        let p = self.v.as_mut_ptr();
        let (mut pos, mut child) = (p, 1);
        // SAFETY: `child < n` in the loop, so `child + 1 <= n < v.len()` (the entry there is
        // a sentinel when `child + 1 == n`, and is then not chosen: its key is not below any);
        // `pos` points at entry 0 (n > 0) or at a former `child`.
        unsafe {
            while child < n {
                child += ((*p.add(child + 1)).key < (*p.add(child)).key) as usize;
                let c = p.add(child);
                if e.key <= (*c).key {
                    break;
                }
                *pos = *c;
                pos = c;
                child = 2 * child + 1;
            }
            *pos = e;
        }
    }
    /// Removes the top (the heap is not empty): the last entry leaves its place to a
    /// sentinel and is sifted down from the top.
    #[inline(always)]
    fn remove_top(&mut self) {
        debug_assert!(self.n > 0 && self.n < self.v.len());
        self.n -= 1;
        let n = self.n;
        // SAFETY: `n` (the old `n - 1`) is below the old `n`, which is below `v.len()`.
        let last = std::mem::replace(unsafe { self.v.get_unchecked_mut(n) }, SENTINEL);
        if n > 0 {
            self.replace_top(last);
        }
    }
}

/// A winner (tournament) tree over slots, for the pipe heads (session 17, branch `s17-tt`):
/// a leaf per slot holding one entry's key (`NO_KEY` when the slot is free), each internal
/// node the smaller of its two children's keys with that entry's tag (slot and link). An
/// update walks the fixed leaf-to-root path: the sibling loads' addresses do not depend on
/// the compares, and the compare-and-select is branch-free, so the walk is a chain of
/// compares and conditional moves, not of loads (module documentation).
///
/// Nodes are numbered as in a binary heap: the root 1, node `i`'s children `2i` and `2i + 1`,
/// the leaves `l..2l` (`l` a power of two, doubled when every slot is taken). A link has at
/// most one pipe head pending, so the slots in use are at most the busy links.
struct Tree {
    /// Node keys, `[1, 2l)` (index 0 unused).
    key: Vec<u128>,
    /// Node tags: `slot | link << 32` of the entry whose key the node holds.
    tag: Vec<u64>,
    /// Leaves (a power of two).
    l: usize,
    /// Free slots (LIFO).
    free: Vec<u32>,
    /// Entries held.
    n: usize,
}

impl Tree {
    fn new(l: usize) -> Self {
        let l = l.max(1).next_power_of_two();
        let mut t = Tree {
            key: Vec::new(),
            tag: Vec::new(),
            l: 0,
            free: Vec::new(),
            n: 0,
        };
        t.grow(l);
        t
    }
    /// Rebuilds the tree with `l` leaves, the entries in their slots.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, l: usize) {
        let old = self.l;
        let mut key = vec![NO_KEY; 2 * l];
        let mut tag = vec![0u64; 2 * l];
        for s in 0..l {
            tag[l + s] = s as u64;
        }
        key[l..l + old].copy_from_slice(&self.key[old..2 * old]);
        tag[l..l + old].copy_from_slice(&self.tag[old..2 * old]);
        for i in (1..l).rev() {
            let (a, b) = (2 * i, 2 * i + 1);
            let c = if key[b] < key[a] { b } else { a };
            key[i] = key[c];
            tag[i] = tag[c];
        }
        // Slots `old..l` are free; the lowest is handed out first.
        self.free.extend((old as u32..l as u32).rev());
        self.key = key;
        self.tag = tag;
        self.l = l;
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.n
    }
    /// The root: the smallest key (`NO_KEY` when empty); the queue keeps a copy
    /// (`EventQueue::link_top`), so only the tests read it here.
    #[cfg(test)]
    fn top_key(&self) -> u128 {
        // SAFETY: `key` has `2l >= 2` nodes.
        unsafe { *self.key.get_unchecked(1) }
    }
    #[inline(always)]
    fn top_tag(&self) -> u64 {
        // SAFETY: as `top_key`.
        unsafe { *self.tag.get_unchecked(1) }
    }
    /// Sets slot `slot`'s key and tag and recomputes its path to the root.
    #[inline(always)]
    fn set(&mut self, slot: usize, k: u128, t: u64) -> (u128, u64) {
        debug_assert!(slot < self.l);
        let kp = self.key.as_mut_ptr();
        let tp = self.tag.as_mut_ptr();
        let mut pos = self.l + slot;
        let (mut ck, mut ct) = (k, t);
        // SAFETY: `pos < 2l` and `pos ^ 1 < 2l`; the loop stops at the root (1).
        unsafe {
            *kp.add(pos) = ck;
            *tp.add(pos) = ct;
            while pos > 1 {
                let sk = *kp.add(pos ^ 1);
                let st = *tp.add(pos ^ 1);
                (ck, ct) = min_select(ck, ct, sk, st);
                pos >>= 1;
                *kp.add(pos) = ck;
                *tp.add(pos) = ct;
            }
        }
        (ck, ct)
    }
    /// Adds an entry (`link`'s pipe head at `k`) in a free slot.
    #[inline(always)]
    fn push(&mut self, k: u128, link: u32) -> (u128, u64) {
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                self.grow(2 * self.l);
                self.free.pop().unwrap()
            }
        };
        self.n += 1;
        self.set(slot as usize, k, slot as u64 | (link as u64) << 32)
    }
    /// Replaces the entry at the root (the tree is not empty).
    #[inline(always)]
    fn replace_top(&mut self, k: u128, link: u32) -> (u128, u64) {
        let slot = self.top_tag() as u32;
        self.set(slot as usize, k, slot as u64 | (link as u64) << 32)
    }
    /// Removes the entry at the root (the tree is not empty).
    #[inline(always)]
    fn remove_top(&mut self) -> (u128, u64) {
        let slot = self.top_tag() as u32;
        self.n -= 1;
        self.free.push(slot);
        self.set(slot as usize, NO_KEY, slot as u64)
    }
    /// The smallest key once the root's entry is gone (without changing the tree): the
    /// smallest of the siblings along its slot's path.
    fn next_key(&self) -> u128 {
        let mut pos = self.l + self.top_tag() as u32 as usize;
        let mut k = NO_KEY;
        while pos > 1 {
            k = k.min(self.key[pos ^ 1]);
            pos >>= 1;
        }
        k
    }
}

/// `(sk, st)` if `sk < ck`, else `(ck, ct)`, without a branch. LLVM turns the plain `if`
/// (and `std::hint::select_unpredictable`) into a branch in `Tree::set`'s loop, which
/// would mispredict about half the time; on x86-64 the compare and the three moves are
/// written out (`cmp`, `sbb`, `cmovb`: three dependent instructions per level).
#[inline(always)]
fn min_select(ck: u128, ct: u64, sk: u128, st: u64) -> (u128, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        let (mut cl, mut ch, mut ct) = (ck as u64, (ck >> 64) as u64, ct);
        // SAFETY: register-only arithmetic and conditional moves; the flags are clobbered
        // (the default for `asm!`).
        unsafe {
            std::arch::asm!(
                "cmp {sl}, {cl}",
                "mov {t}, {sh}",
                "sbb {t}, {ch}",
                "cmovb {cl}, {sl}",
                "cmovb {ch}, {sh}",
                "cmovb {ct}, {st}",
                sl = in(reg) sk as u64,
                sh = in(reg) (sk >> 64) as u64,
                st = in(reg) st,
                cl = inout(reg) cl,
                ch = inout(reg) ch,
                ct = inout(reg) ct,
                t = out(reg) _,
                options(pure, nomem, nostack),
            );
        }
        (((ch as u128) << 64) | cl as u128, ct)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        if sk < ck {
            (sk, st)
        } else {
            (ck, ct)
        }
    }
}

impl Event {
    /// Which heap the event goes to: pipe heads (`Deliver`), link-free instants
    /// (`LinkFree`), or timers (deadlines armed by components, mostly far ahead and rarely
    /// due).
    #[inline(always)]
    fn class(&self) -> Class {
        match self {
            Event::Deliver { .. } => Class::Links,
            Event::LinkFree { .. } => Class::Frees,
            _ => Class::Timers,
        }
    }
}

/// A key greater than every real one (`Time::NEVER` is `u64::MAX` and is never scheduled
/// with the maximal sequence number).
const NO_KEY: u128 = u128::MAX;

/// Which heap's top has been handed out by `pop` but not yet removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Taken {
    #[default]
    None,
    Links,
    Frees,
    Timers,
}

/// The heap an event goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// `Deliver`: pipe heads.
    Links,
    /// `LinkFree`: one per backlogged link.
    Frees,
    /// Everything else.
    Timers,
}

/// The most links for which the pipe heads go to the tournament tree (`EventQueue::for_links`).
pub const TREE_MAX_LINKS: usize = 1024;

/// Two heaps on one (time, seq) key space: link events and timers (module documentation).
pub struct EventQueue {
    /// Pipe heads (`Deliver`): a tournament tree (session 17, `s17-tt`).
    links: Tree,
    /// Whether the pipe heads go to `links` (the tree) or to `big` (a binary heap): chosen
    /// once, from the number of links (`EventQueue::for_links`).
    tree: bool,
    /// Pipe heads when `tree` is false (more than `TREE_MAX_LINKS` links).
    big: Heap,
    /// The earliest pipe head's key (`NO_KEY` if none) and link, kept up to date from
    /// whichever structure holds them, so that a pop reads them without asking which.
    link_top: u128,
    link_link: u32,
    /// `LinkFree` events: at most one per link, and about 1.3 pending on the bench
    /// dumbbells, so this heap's sifts are nearly free (module documentation, session 10).
    frees: Heap,
    /// Key of `frees`' earliest entry (`NO_KEY` if none), kept up to date as `timer_top`.
    free_top: u128,
    /// `free_top.min(timer_top)`, kept up to date with them: a pop compares the link heap's
    /// top with this one field.
    side_top: u128,
    timers: Heap,
    /// Key of the timer heap's earliest entry (`NO_KEY` if none), kept up to date so that
    /// a pop reads one field for the timers (they change rarely).
    timer_top: u128,
    taken: Taken,
    /// Events ever scheduled, which is also the next sequence number.
    seq: u64,
}

#[inline(always)]
fn top_key(h: &Heap) -> u128 {
    h.top().key
}

/// Key of the earliest entry once the top is gone: one of its children.
#[inline]
fn next_key(h: &Heap) -> u128 {
    let h = h.as_slice();
    h[1..h.len().min(3)]
        .iter()
        .map(|e| e.key)
        .min()
        .unwrap_or(NO_KEY)
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue::with_capacity(0)
    }
}

impl EventQueue {
    pub fn with_capacity(n: usize) -> Self {
        EventQueue {
            links: Tree::new(16),
            tree: true,
            big: Heap::with_capacity(0),
            link_top: NO_KEY,
            link_link: 0,
            frees: Heap::with_capacity(n),
            free_top: NO_KEY,
            side_top: NO_KEY,
            timers: Heap::with_capacity(n),
            timer_top: NO_KEY,
            taken: Taken::None,
            seq: 0,
        }
    }

    /// An event queue for a network of `links` links: the pipe heads in the tournament tree
    /// up to `TREE_MAX_LINKS` links, in a binary heap above (module documentation).
    pub fn for_links(links: usize) -> Self {
        let mut q = EventQueue::with_capacity(1024);
        q.tree = links <= TREE_MAX_LINKS;
        q
    }

    /// The pipe heads' earliest key (`NO_KEY` if none).
    #[inline(always)]
    fn link_top(&self) -> u128 {
        self.link_top
    }
    /// Records the tree's root.
    #[inline(always)]
    fn set_link_top(&mut self, k: u128, t: u64) {
        self.link_top = k;
        self.link_link = (t >> 32) as u32;
    }
    /// Records the binary heap's top (its sentinel when empty: `NO_KEY`).
    #[inline(always)]
    fn sync_big_top(&mut self) {
        let e = self.big.top();
        self.link_top = e.key;
        self.link_link = match e.ev {
            Event::Deliver { link } => link,
            _ => 0,
        };
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.links.len() + self.big.len() + self.frees.len() + self.timers.len()
            - (self.taken != Taken::None) as usize
    }
    /// Events ever scheduled.
    pub fn scheduled(&self) -> u64 {
        self.seq
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline(always)]
    pub fn push(&mut self, at: Time, ev: Event) {
        let key = ((at.0 as u128) << 64) | self.seq as u128;
        self.seq += 1;
        let e = Entry { key, ev };
        match ev.class() {
            Class::Links => {
                let Event::Deliver { link } = ev else {
                    unreachable!()
                };
                let replace = self.taken == Taken::Links;
                if replace {
                    self.taken = Taken::None;
                }
                if self.tree {
                    // Overwrite the handed-out top's slot and recompute its path, or fill a
                    // free slot.
                    let (k, t) = if replace {
                        self.links.replace_top(key, link)
                    } else {
                        self.links.push(key, link)
                    };
                    self.set_link_top(k, t);
                } else {
                    if replace {
                        self.big.replace_top(e);
                    } else {
                        self.big.push(e);
                    }
                    self.sync_big_top();
                }
            }
            Class::Frees => {
                if self.taken == Taken::Frees {
                    self.taken = Taken::None;
                    self.frees.replace_top(e);
                    self.free_top = top_key(&self.frees);
                } else {
                    self.frees.push(e);
                    self.free_top = self.free_top.min(key);
                }
                self.side_top = self.free_top.min(self.timer_top);
            }
            Class::Timers => {
                if self.taken == Taken::Timers {
                    self.taken = Taken::None;
                    self.timers.replace_top(e);
                    self.timer_top = top_key(&self.timers);
                } else {
                    self.timers.push(e);
                    self.timer_top = self.timer_top.min(key);
                }
                self.side_top = self.free_top.min(self.timer_top);
            }
        }
    }

    /// Removes the handed-out top, if any. Nearly every handler has already pushed over it
    /// (`replace_top`), so the common case is one test (session 17).
    #[inline(always)]
    fn settle(&mut self) {
        if self.taken != Taken::None {
            self.settle_taken();
        }
    }

    #[inline(always)]
    fn settle_taken(&mut self) {
        match self.taken {
            Taken::None => {}
            Taken::Links => {
                if self.tree {
                    let (k, t) = self.links.remove_top();
                    self.set_link_top(k, t);
                } else {
                    self.big.remove_top();
                    self.sync_big_top();
                }
            }
            Taken::Frees => {
                self.frees.remove_top();
                self.free_top = top_key(&self.frees);
                self.side_top = self.free_top.min(self.timer_top);
            }
            Taken::Timers => {
                self.timers.remove_top();
                self.timer_top = top_key(&self.timers);
                self.side_top = self.free_top.min(self.timer_top);
            }
        }
        self.taken = Taken::None;
    }

    /// Time of the earliest event.
    #[inline]
    pub fn peek_time(&self) -> Option<Time> {
        let (l, f, t) = match self.taken {
            Taken::None => (self.link_top(), self.free_top, self.timer_top),
            Taken::Links if self.tree => (self.links.next_key(), self.free_top, self.timer_top),
            Taken::Links => (next_key(&self.big), self.free_top, self.timer_top),
            Taken::Frees => (self.link_top(), next_key(&self.frees), self.timer_top),
            Taken::Timers => (self.link_top(), self.free_top, next_key(&self.timers)),
        };
        let key = l.min(f).min(t);
        (key != NO_KEY).then_some(Time((key >> 64) as u64))
    }

    /// Schedules `ev` for a component's `deadline`, unless an event for it is already
    /// pending no later (`armed` holds the time of that pending event, `Time::NEVER` if none).
    /// A deadline already past is due `now`; `armed` records the time actually scheduled, so
    /// the event recognises itself when it fires (see [`EventQueue::disarm`]). Components
    /// whose deadline moves later leave a stale early event, which fires, finds nothing due,
    /// and re-arms: cheaper than removing events from the heap.
    #[inline]
    pub fn arm(&mut self, armed: &mut Time, deadline: Option<Time>, now: Time, ev: Event) {
        if let Some(d) = deadline {
            let at = d.max(now);
            if at < *armed {
                *armed = at;
                self.push(at, ev);
            }
        }
    }

    /// Called when a component's event fires at `now`: forget the pending time if it was
    /// this event (a stale earlier event leaves a later pending one in place).
    #[inline]
    pub fn disarm(armed: &mut Time, now: Time) {
        if *armed <= now {
            *armed = Time::NEVER;
        }
    }

    /// The earliest entry of the three heaps (keys are unique, so the earliest of the three
    /// tops is the earliest event overall) and which heap holds it.
    ///
    /// Each heap's first slot holds its top or, when it is empty, the sentinel (`NO_KEY`):
    /// an empty link heap's key is never below `side_top`, and `free_top < timer_top` only
    /// when the free heap holds an entry, so only the timers' emptiness needs a test
    /// (session 17: no `Option` per pop).
    #[inline(always)]
    fn first(&self) -> Option<(Entry, Taken)> {
        let l = self.link_top;
        if l < self.side_top {
            let ev = Event::Deliver {
                link: self.link_link,
            };
            Some((Entry { key: l, ev }, Taken::Links))
        } else if self.free_top < self.timer_top {
            Some((*self.frees.top(), Taken::Frees))
        } else if self.timer_top != NO_KEY {
            Some((*self.timers.top(), Taken::Timers))
        } else {
            None
        }
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(Time, Event)> {
        self.settle();
        let (e, taken) = self.first()?;
        self.taken = taken;
        Some((Time((e.key >> 64) as u64), e.ev))
    }

    /// Pops the earliest event if it is due before `until`.
    #[inline]
    pub fn pop_before(&mut self, until: Time) -> Option<(Time, Event)> {
        self.settle();
        let (e, taken) = self.first()?;
        let t = Time((e.key >> 64) as u64);
        if t >= until {
            return None;
        }
        self.taken = taken;
        Some((t, e.ev))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Event number `i`: link events and timers mixed, so both heaps and the merge between
    /// them are exercised.
    fn ev(i: u32) -> Event {
        match i % 3 {
            0 => Event::Deliver { link: i },
            1 => Event::Agent { agent: i },
            _ => Event::LinkFree { link: i },
        }
    }

    proptest! {
        #[test]
        fn pops_in_time_then_insertion_order(times in proptest::collection::vec(0u64..50, 0..200)) {
            let mut q = EventQueue::default();
            for (i, &t) in times.iter().enumerate() {
                q.push(Time(t), ev(i as u32));
            }
            let mut expect: Vec<(u64, u32)> = times.iter().enumerate().map(|(i, &t)| (t, i as u32)).collect();
            expect.sort();
            let expect: Vec<(u64, Event)> = expect.into_iter().map(|(t, i)| (t, ev(i))).collect();
            let mut got = Vec::new();
            while let Some((t, e)) = q.pop() {
                got.push((t.0, e));
            }
            prop_assert_eq!(got, expect);
        }
    }

    proptest! {
        /// A link-like workload: each pop re-arms what it popped (the lazy replace-top path)
        /// a little later, sometimes pushing a second event of another kind, with kinds drawn
        /// at random so the three heaps' sizes vary; the pops follow a sorted model exactly.
        #[test]
        fn rearming_matches_a_sorted_model(
            big in any::<bool>(),
            init in proptest::collection::vec((0u8..6, 0u64..20), 1..30),
            steps in proptest::collection::vec((0u8..6, 0u64..20, 0u8..6, 0u64..20), 0..300),
        ) {
            let kind = |k: u8, id: u32| match k {
                0 | 1 => Event::Deliver { link: id },
                2 | 3 => Event::LinkFree { link: id },
                4 => Event::Agent { agent: id },
                _ => Event::Sample,
            };
            let mut q = EventQueue::for_links(if big { usize::MAX } else { 1 });
            let mut model: Vec<(u64, u64, Event)> = Vec::new();
            let mut seq = 0u64;
            let mut push = |q: &mut EventQueue, model: &mut Vec<(u64, u64, Event)>, t: u64, e: Event| {
                q.push(Time(t), e);
                model.push((t, seq, e));
                seq += 1;
            };
            for (i, &(k, t)) in init.iter().enumerate() {
                push(&mut q, &mut model, t, kind(k, i as u32));
            }
            for (i, &(k1, d1, k2, d2)) in steps.iter().enumerate() {
                model.sort_by_key(|m| (m.0, m.1));
                let want = if model.is_empty() { None } else { Some(model.remove(0)) };
                let got = q.pop();
                prop_assert_eq!(got, want.map(|w| (Time(w.0), w.2)));
                let Some((now, _, _)) = want else { break };
                push(&mut q, &mut model, now + d1, kind(k1, i as u32));
                if k2 < 2 {
                    push(&mut q, &mut model, now + d2, kind(k2 + 2 * (k1 % 2), i as u32 + 1000));
                }
                prop_assert_eq!(q.len(), model.len());
            }
        }
    }

    proptest! {
        /// The pipe heads' tournament tree against the binary heap it replaced (session 17):
        /// random pushes (a link with no entry), replace-tops (the top's link re-armed, or
        /// another link with no entry, as a hop whose pipe emptied and whose packet started
        /// another link) and remove-tops, keys from one (time, seq) counter, at most one
        /// entry per link; after every step both hold the same top (key and link) and size.
        #[test]
        fn tree_matches_the_heap(
            links in 1u32..300,
            ops in proptest::collection::vec((0u8..4, 0u64..30, 0u32..1000), 0..600),
        ) {
            let mut tree = Tree::new(16);
            let mut heap = Heap::with_capacity(0);
            let mut pending = vec![false; links as usize];
            let (mut now, mut seq) = (0u64, 0u64);
            let mut key = |dt: u64, now: u64| {
                seq += 1;
                (((now + dt) as u128) << 64) | seq as u128
            };
            let link_of = |e: &Entry| match e.ev {
                Event::Deliver { link } => link,
                _ => unreachable!(),
            };
            for &(op, dt, r) in &ops {
                let l = r % links;
                match op {
                    0 | 1 if heap.len() > 0 => {
                        // Replace the top: re-arm its link (op 0) or arm an idle one (op 1).
                        let top = link_of(heap.top());
                        now = (heap.top().key >> 64) as u64;
                        let to = if op == 0 || pending[l as usize] { top } else { l };
                        pending[top as usize] = false;
                        pending[to as usize] = true;
                        let k = key(dt, now);
                        heap.replace_top(Entry { key: k, ev: Event::Deliver { link: to } });
                        tree.replace_top(k, to);
                    }
                    2 if heap.len() > 0 => {
                        pending[link_of(heap.top()) as usize] = false;
                        now = (heap.top().key >> 64) as u64;
                        heap.remove_top();
                        tree.remove_top();
                    }
                    _ => {
                        if !pending[l as usize] {
                            pending[l as usize] = true;
                            let k = key(dt, now);
                            heap.push(Entry { key: k, ev: Event::Deliver { link: l } });
                            tree.push(k, l);
                        }
                    }
                }
                prop_assert_eq!(tree.len(), heap.len());
                prop_assert_eq!(tree.top_key(), heap.top().key);
                if heap.len() > 0 {
                    prop_assert_eq!((tree.top_tag() >> 32) as u32, link_of(heap.top()));
                    prop_assert_eq!(tree.next_key(), next_key(&heap));
                }
            }
            // Drain: the same order to the end.
            while heap.len() > 0 {
                prop_assert_eq!(tree.top_key(), heap.top().key);
                prop_assert_eq!((tree.top_tag() >> 32) as u32, link_of(heap.top()));
                heap.remove_top();
                tree.remove_top();
            }
            prop_assert_eq!(tree.top_key(), NO_KEY);
            prop_assert_eq!(tree.len(), 0);
        }
    }

    proptest! {
        /// Interleaved pushes and pops (pushes at or after the last popped time, as a
        /// simulation makes them, and sometimes before it) pop exactly as a sorted model.
        #[test]
        fn matches_a_sorted_model(
            big in any::<bool>(),
            ops in proptest::collection::vec((0u8..3, 0u64..40), 0..400),
        ) {
            let mut q = EventQueue::for_links(if big { usize::MAX } else { 1 });
            let mut model: Vec<(u64, u64, u32)> = Vec::new(); // (time, seq, id)
            let (mut now, mut seq) = (0u64, 0u64);
            for (i, &(op, dt)) in ops.iter().enumerate() {
                match op {
                    0 | 1 => {
                        // op 1 with an odd dt schedules before `now`
                        let t = if op == 1 && dt % 2 == 1 { now.saturating_sub(dt) } else { now + dt };
                        q.push(Time(t), ev(i as u32));
                        model.push((t, seq, i as u32));
                        seq += 1;
                    }
                    _ => {
                        model.sort();
                        let want = if model.is_empty() { None } else { Some(model.remove(0)) };
                        prop_assert_eq!(q.peek_time(), want.map(|w| Time(w.0)));
                        let got = q.pop();
                        prop_assert_eq!(got, want.map(|w| (Time(w.0), ev(w.2))));
                        if let Some(w) = want { now = w.0; }
                    }
                }
                prop_assert_eq!(q.len(), model.len());
            }
            model.sort();
            for w in model {
                prop_assert_eq!(q.pop_before(Time(w.0 + 1)), Some((Time(w.0), ev(w.2))));
            }
            prop_assert!(q.is_empty());
            prop_assert_eq!(q.pop_before(Time::NEVER), None);
        }
    }
}
