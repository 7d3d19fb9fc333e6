//! The agenda: what is due when, handed out in `(time, sequence)` order.
//!
//! A timing wheel: almost everything the simulation schedules is due within a few
//! hundred milliseconds (latencies, processing times, "now"), so items due inside
//! the window `[cursor, cursor + WHEEL)` sit in a FIFO bucket per millisecond, and
//! only far-away items (timeouts, periodic triggers) go to a binary heap. Pushing
//! and popping are then O(1) for the common case instead of a heap's O(log n)
//! moves. Order is exactly `(at, seq)`: a bucket holds one millisecond, filled in
//! sequence order (far items move into their bucket, oldest first, before anything
//! else can be scheduled for that millisecond).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// Milliseconds covered by the wheel (a power of two).
const WHEEL: u64 = 256;

/// One scheduled item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scheduled<T> {
    /// When it is due.
    pub at: u64,
    /// Scheduling order, the tie-break among items due at the same millisecond.
    pub seq: u64,
    /// The item.
    pub item: T,
}

impl<T: Eq> Ord for Scheduled<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: reversed so the earliest (at, seq) is on top.
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

impl<T: Eq> PartialOrd for Scheduled<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Items by `(at, seq)`. Invariant: nothing is due before `cursor`; bucket
/// `t % WHEEL` holds exactly the items due at `t` for `t` in the window.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Agenda<T: Eq> {
    cursor: u64,
    buckets: Vec<VecDeque<Scheduled<T>>>,
    far: BinaryHeap<Scheduled<T>>,
    in_wheel: usize,
    next_seq: u64,
}

impl<T: Eq> Default for Agenda<T> {
    fn default() -> Self {
        Agenda {
            cursor: 0,
            buckets: (0..WHEEL).map(|_| VecDeque::new()).collect(),
            far: BinaryHeap::new(),
            in_wheel: 0,
            next_seq: 0,
        }
    }
}

impl<T: Eq> Agenda<T> {
    /// Schedule `item` at `at`. Precondition: `at` is not before the last popped time.
    pub fn push(&mut self, at: u64, item: T) {
        debug_assert!(
            at >= self.cursor,
            "scheduled in the past: {at} < {}",
            self.cursor
        );
        let at = at.max(self.cursor);
        self.next_seq += 1;
        let e = Scheduled {
            at,
            seq: self.next_seq,
            item,
        };
        if at < self.cursor + WHEEL {
            self.buckets[(at % WHEEL) as usize].push_back(e);
            self.in_wheel += 1;
        } else {
            self.far.push(e);
        }
    }

    /// Number of items scheduled so far (the next item's sequence number - 1).
    pub fn scheduled(&self) -> u64 {
        self.next_seq
    }

    /// Whether nothing is scheduled.
    pub fn is_empty(&self) -> bool {
        self.in_wheel == 0 && self.far.is_empty()
    }

    /// When the next item is due, without removing it.
    pub fn peek_at(&self) -> Option<u64> {
        if self.in_wheel > 0 {
            (self.cursor..self.cursor + WHEEL)
                .find(|t| !self.buckets[(t % WHEEL) as usize].is_empty())
        } else {
            self.far.peek().map(|e| e.at)
        }
    }

    /// Remove and return the next item.
    pub fn pop(&mut self) -> Option<Scheduled<T>> {
        if self.in_wheel == 0 {
            let at = self.far.peek()?.at;
            self.advance_to(at);
        }
        loop {
            let b = &mut self.buckets[(self.cursor % WHEEL) as usize];
            if let Some(e) = b.pop_front() {
                self.in_wheel -= 1;
                return Some(e);
            }
            self.advance_to(self.cursor + 1);
        }
    }

    /// Keep only the items `keep` accepts (their order is unchanged).
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        for b in &mut self.buckets {
            b.retain(|e| keep(&e.item));
        }
        self.in_wheel = self.buckets.iter().map(VecDeque::len).sum();
        self.far.retain(|e| keep(&e.item));
    }

    /// Move the cursor to `t` (nothing is due before it) and pull far items that
    /// now fall inside the window into their buckets, oldest first.
    fn advance_to(&mut self, t: u64) {
        debug_assert!(t >= self.cursor);
        self.cursor = t;
        while self.far.peek().is_some_and(|e| e.at < self.cursor + WHEEL) {
            let e = self.far.pop().expect("peeked");
            self.buckets[(e.at % WHEEL) as usize].push_back(e);
            self.in_wheel += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The wheel hands items out in exactly the order of a plain `(at, seq)` sort,
    /// whatever the mix of near and far items (seeded, 300 runs).
    #[test]
    fn pops_in_time_then_sequence_order() {
        for seed in 0..300 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut agenda = Agenda::default();
            let mut reference: Vec<(u64, u64)> = Vec::new();
            let mut now = 0u64;
            let mut popped = Vec::new();
            let mut expected = Vec::new();
            for _ in 0..2_000 {
                if rng.random_bool(0.55) {
                    let delay = match rng.random_range(0..10) {
                        0 => rng.random_range(0..5_000),
                        1..=3 => 0,
                        _ => rng.random_range(0..300),
                    };
                    agenda.push(now + delay, agenda.scheduled() + 1);
                    reference.push((now + delay, agenda.scheduled()));
                } else if let Some(e) = agenda.pop() {
                    reference.sort_unstable();
                    let want = reference.remove(0);
                    assert_eq!((e.at, e.seq), want, "seed {seed}");
                    assert_eq!(e.item, e.seq);
                    now = e.at;
                    popped.push(e.seq);
                    expected.push(want.1);
                }
                assert_eq!(
                    agenda.peek_at(),
                    reference.iter().min().map(|r| r.0),
                    "seed {seed}: peek"
                );
            }
            assert_eq!(popped, expected);
        }
    }
}
