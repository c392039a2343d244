//! A FIFO ring buffer for a link's queue and pipe (issue 13, session 8): the operations a
//! hop needs (`push_back`, `pop_front`, `front`, `len`) on a power-of-two buffer, so a
//! position is one add and one mask. std's `VecDeque` wraps with a compare and a subtract
//! and checks capacity through its `RawVec`: measured on the RED bench dumbbell, its
//! inlined code was about 76 M of the loop's instructions for about 5.4 M operations.
//!
//! It starts with no buffer and doubles when full (as `VecDeque` does), so the 40,002 links
//! of a 10,000-flow run allocate only for the packets they actually hold; it never shrinks.
//! The first buffer has 16 slots (session 14; 4 before): an access link's initial window
//! (10 segments) filled its FIFO and pipe through 4, 8 and 16 slots, 41,306 grows at
//! 10,000 flows (13 M instructions of the 5-s run, allocation and copies); with 16 the
//! process's peak RSS there grew by 0.5 MB (164.3 against 163.8 MB, `qoslab-prof`).

/// A FIFO of `Copy` values.
///
/// Invariants, which make the unchecked accesses below sound: `buf.len()` is 0 or a power
/// of two; `len <= buf.len()`; `head < buf.len()` whenever `buf` is not empty (`head` is 0
/// when the buffer is (re)allocated and is only ever set to a `slot`, which masks by
/// `buf.len() - 1`); so when `len > 0`, `head` and every `slot(i)` index inside `buf`.
#[derive(Clone, Debug, Default)]
pub struct Ring<T> {
    /// Storage; its length is 0 or a power of two.
    buf: Vec<T>,
    /// Position of the front element.
    head: u32,
    len: u32,
}

impl<T: Copy + Default> Ring<T> {
    pub fn new() -> Self {
        Ring {
            buf: Vec::new(),
            head: 0,
            len: 0,
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Index in `buf` of the element `i` places behind the front (`buf` not empty).
    #[inline(always)]
    fn slot(&self, i: u32) -> usize {
        (self.head.wrapping_add(i) as usize) & (self.buf.len() - 1)
    }

    #[inline(always)]
    pub fn push_back(&mut self, x: T) {
        if self.len as usize == self.buf.len() {
            self.grow();
        }
        let i = self.slot(self.len);
        // SAFETY: `buf` is not empty after the check above, so `slot` masks to below its
        // (power-of-two) length.
        unsafe { *self.buf.get_unchecked_mut(i) = x };
        self.len += 1;
    }

    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        // SAFETY: `len > 0`, so `buf` is not empty and `head < buf.len()` (invariants).
        let x = unsafe { *self.buf.get_unchecked(self.head as usize) };
        self.head = self.slot(1) as u32;
        self.len -= 1;
        Some(x)
    }

    #[inline(always)]
    pub fn front(&self) -> Option<&T> {
        if self.len == 0 {
            return None;
        }
        // SAFETY: as in `pop_front`.
        Some(unsafe { self.buf.get_unchecked(self.head as usize) })
    }

    /// Doubles the buffer (16 slots at first), the elements moved to its start in order.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let cap = (self.buf.len() * 2).max(16);
        assert!(cap <= 1 << 31, "ring buffer over 2^31 entries");
        let mut buf = vec![T::default(); cap];
        for (i, b) in buf.iter_mut().enumerate().take(self.len as usize) {
            *b = self.buf[self.slot(i as u32)];
        }
        self.buf = buf;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    proptest! {
        /// Any sequence of pushes and pops behaves as `VecDeque` (wrap-around and growth
        /// included: bursts of pushes after pops).
        #[test]
        fn behaves_as_vecdeque(ops in proptest::collection::vec((0u8..3, 0u32..1000), 0..600)) {
            let (mut r, mut m) = (Ring::new(), VecDeque::new());
            for (op, x) in ops {
                if op < 2 {
                    r.push_back(x);
                    m.push_back(x);
                } else {
                    prop_assert_eq!(r.pop_front(), m.pop_front());
                }
                prop_assert_eq!(r.front(), m.front());
                prop_assert_eq!(r.len(), m.len());
                prop_assert_eq!(r.is_empty(), m.is_empty());
            }
        }
    }
}
