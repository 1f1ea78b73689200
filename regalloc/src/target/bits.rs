//! Bit sets stored as `u32` words, the form the tables use for class membership, sub-class sets and register masks.
//!
//! Words rather than a bit-set crate so that generated tables stay plain
//! `static` arrays of integers.

/// Number of `u32` words needed for `n` bits.
#[inline]
pub const fn words_for(n: usize) -> usize {
    n.div_ceil(32)
}

/// Whether bit `i` is set; bits past the end of `words` are clear.
#[inline]
pub fn test(words: &[u32], i: usize) -> bool {
    words
        .get(i / 32)
        .is_some_and(|w| w & (1u32 << (i % 32)) != 0)
}

/// Sets bit `i`, growing `words` when needed.
#[inline]
pub fn set(words: &mut Vec<u32>, i: usize) {
    if words.len() <= i / 32 {
        words.resize(i / 32 + 1, 0);
    }
    words[i / 32] |= 1u32 << (i % 32);
}

/// A bit set of `n` bits with exactly the given bits set.
pub fn from_indices(n: usize, indices: impl IntoIterator<Item = usize>) -> Vec<u32> {
    let mut words = vec![0; words_for(n)];
    for i in indices {
        set(&mut words, i);
    }
    words
}

/// The indices of the set bits, in increasing order.
pub fn iter(words: &[u32]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &bits)| {
        (0..32)
            .filter(move |b| bits & (1u32 << b) != 0)
            .map(move |b| w * 32 + b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_test_iter() {
        let w = from_indices(70, [0, 31, 32, 69]);
        assert_eq!(w.len(), 3);
        assert!(test(&w, 31) && test(&w, 32) && !test(&w, 33) && !test(&w, 500));
        assert_eq!(iter(&w).collect::<Vec<_>>(), vec![0, 31, 32, 69]);
    }
}
