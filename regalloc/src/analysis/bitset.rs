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

    /// Removes `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w &= !(1u64 << (i % 64));
        }
    }

    /// `self |= other`; returns whether `self` changed.
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }

    /// `self = (self & !kill) | gen` word by word; returns whether it changed.
    pub fn assign_transfer(&mut self, base: &BitSet, kill: &BitSet, gen_: &BitSet) -> bool {
        let mut changed = false;
        for (k, a) in self.words.iter_mut().enumerate() {
            let n = (base.words[k] & !kill.words[k]) | gen_.words[k];
            changed |= n != *a;
            *a = n;
        }
        changed
    }

    /// `self &= other`.
    pub fn intersect_with(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= b;
        }
    }

    /// The members, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + b)
            })
        })
    }
}
