//! A small dense bit set over `usize` indices, for the dataflow problems of liveness.

/// A fixed-size set of small integers stored as `u64` words.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    /// An empty set able to hold `0..n`.
    pub fn new(n: usize) -> BitSet {
        BitSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// Whether `i` is in the set; indices past the end are absent.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    /// Adds `i`; returns whether it was new. Indices past the end are ignored.
    #[inline]
    pub fn insert(&mut self, i: usize) -> bool {
        match self.words.get_mut(i / 64) {
            Some(w) => {
                let new = *w & (1u64 << (i % 64)) == 0;
                *w |= 1u64 << (i % 64);
                new
            }
            None => false,
        }
    }
}
