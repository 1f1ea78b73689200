//! Generation-stamped sets and maps over dense indexes (blocks, bundles, virtual registers): emptied in constant time, for scratch tables reused across many small queries.
//!
//! A member carries the generation it was added in; the set holds the
//! members of the current generation, so [`StampSet::clear`] is one
//! increment instead of a pass over the table. Where a query touches a
//! handful of entries of a table the size of the function (one split, one
//! walk over copies, one block's definitions), that is the difference
//! between a cost in the query's size and one in the function's.

/// A set over `0..len` emptied in constant time.
#[derive(Clone, Debug)]
pub(crate) struct StampSet {
    /// Per index: the generation it was last added in.
    stamps: Vec<u32>,
    /// The current generation; never 0, which every fresh entry holds.
    current: u32,
}

impl Default for StampSet {
    fn default() -> StampSet {
        StampSet::new(0)
    }
}

impl StampSet {
    /// An empty set over `0..len`.
    pub(crate) fn new(len: usize) -> StampSet {
        StampSet {
            stamps: vec![0; len],
            current: 1,
        }
    }

    /// Empties the set.
    #[inline]
    pub(crate) fn clear(&mut self) {
        if self.current == u32::MAX {
            // Every old stamp could be mistaken for the next generation.
            self.stamps.fill(0);
            self.current = 0;
        }
        self.current += 1;
    }

    /// Whether `i` is in the set (an index past the end never is).
    #[inline]
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.stamps.get(i) == Some(&self.current)
    }

    /// Adds `i`; whether it was not in the set before. An index past the
    /// end is not added (and `false` returned).
    #[inline]
    pub(crate) fn insert(&mut self, i: usize) -> bool {
        match self.stamps.get_mut(i) {
            Some(s) if *s != self.current => {
                *s = self.current;
                true
            }
            _ => false,
        }
    }

    /// A number that differs from the one before each clear (until the
    /// generations wrap, after 2^32 clears): which contents the set holds,
    /// for memos of what was computed from them.
    pub(crate) fn generation(&self) -> u32 {
        self.current
    }

    /// The number of indexes the set can hold.
    pub(crate) fn len(&self) -> usize {
        self.stamps.len()
    }
}

/// A map from `0..len` to `T` emptied in constant time: [`StampSet`]
/// with a value beside each stamp.
#[derive(Clone, Debug)]
pub(crate) struct StampMap<T> {
    entries: Vec<(u32, T)>,
    current: u32,
}

impl<T: Copy + Default> Default for StampMap<T> {
    fn default() -> StampMap<T> {
        StampMap::new(0)
    }
}

impl<T: Copy + Default> StampMap<T> {
    /// An empty map over `0..len`.
    pub(crate) fn new(len: usize) -> StampMap<T> {
        StampMap {
            entries: vec![(0, T::default()); len],
            current: 1,
        }
    }

    /// Empties the map.
    #[inline]
    pub(crate) fn clear(&mut self) {
        if self.current == u32::MAX {
            self.entries.fill((0, T::default()));
            self.current = 0;
        }
        self.current += 1;
    }

    /// The value at `i`, if one was set since the last clear.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<T> {
        match self.entries.get(i) {
            Some(&(s, v)) if s == self.current => Some(v),
            _ => None,
        }
    }

    /// Sets the value at `i` (below the length).
    #[inline]
    pub(crate) fn insert(&mut self, i: usize, v: T) {
        self.entries[i] = (self.current, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cleared_set_holds_nothing_and_refills() {
        let mut s = StampSet::new(4);
        assert!(s.insert(1));
        assert!(!s.insert(1));
        assert!(!s.insert(9), "past the end");
        assert!(s.contains(1) && !s.contains(2) && !s.contains(9));
        s.clear();
        assert!(!s.contains(1));
        assert!(s.insert(1));
        assert_eq!(s.len(), 4);
    }

    #[test]
    fn the_generation_wrapping_forgets_old_members() {
        let mut s = StampSet::new(2);
        s.insert(0);
        s.current = u32::MAX;
        s.insert(1);
        s.clear();
        assert!(!s.contains(0) && !s.contains(1));
        assert_eq!(s.current, 1);
        let mut m: StampMap<u8> = StampMap::new(2);
        m.insert(0, 7);
        m.current = u32::MAX;
        m.clear();
        assert_eq!(m.get(0), None);
    }

    #[test]
    fn a_map_keeps_values_of_the_current_generation() {
        let mut m: StampMap<u32> = StampMap::new(3);
        m.insert(2, 5);
        assert_eq!(m.get(2), Some(5));
        assert_eq!(m.get(1), None);
        m.clear();
        assert_eq!(m.get(2), None);
        m.insert(0, 1);
        assert_eq!(m.get(0), Some(1));
    }
}
