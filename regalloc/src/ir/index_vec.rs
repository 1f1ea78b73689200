//! Typed per-entity tables: a `Vec` indexed by a [`VReg`](super::VReg), [`Block`](super::Block) or [`Inst`](super::Inst) instead of a `usize`.
//!
//! Per-register, per-block and per-instruction tables were plain `Vec`s
//! indexed by `v.index()`, so nothing stopped a block number from
//! indexing a register table. [`IndexVec<K, V>`] names its key type;
//! indexing it with another kind of id does not compile. It is a `Vec`
//! and nothing more (`#[repr(transparent)]`, every method `#[inline]`):
//! `table[v]` compiles to the same bounds-checked load as `vec[v.index()]`.
//! The models are rustc's `IndexVec` and cranelift-entity's `SecondaryMap`
//! (whose growing on write is left out: a table here is sized once, or
//! grown where the code says so).

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A dense index newtype: the key of an [`IndexVec`].
pub trait Id: Copy {
    /// The id as a table position.
    fn index(self) -> usize;
    /// The id at table position `i`.
    fn new(i: usize) -> Self;
}

/// A table with one `V` per id of kind `K`, from 0 up.
#[repr(transparent)]
#[derive(Clone, PartialEq, Eq)]
pub struct IndexVec<K, V> {
    items: Vec<V>,
    key: PhantomData<fn(K) -> K>,
}

impl<K: Id, V> IndexVec<K, V> {
    /// An empty table.
    #[inline]
    pub const fn new() -> Self {
        IndexVec {
            items: Vec::new(),
            key: PhantomData,
        }
    }

    /// A table of `n` copies of `value`.
    #[inline]
    pub fn from_elem(value: V, n: usize) -> Self
    where
        V: Clone,
    {
        IndexVec {
            items: vec![value; n],
            key: PhantomData,
        }
    }

    /// How many entries the table has.
    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the table has no entry.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entry of `k`, if the table reaches it.
    #[inline]
    pub fn get(&self, k: K) -> Option<&V> {
        self.items.get(k.index())
    }

    /// The entry of `k` to change, if the table reaches it.
    #[inline]
    pub fn get_mut(&mut self, k: K) -> Option<&mut V> {
        self.items.get_mut(k.index())
    }

    /// Grows or shrinks the table to `n` entries, new ones `value`.
    #[inline]
    pub fn resize(&mut self, n: usize, value: V)
    where
        V: Clone,
    {
        self.items.resize(n, value);
    }

    /// Adds an entry; returns its id.
    #[inline]
    pub fn push(&mut self, value: V) -> K {
        let k = K::new(self.items.len());
        self.items.push(value);
        k
    }

    /// The entries in id order.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, V> {
        self.items.iter()
    }

    /// The entries in id order, with their ids.
    #[inline]
    pub fn iter_enumerated(&self) -> impl Iterator<Item = (K, &V)> + '_ {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }

    /// The entries as a slice, in id order.
    #[inline]
    pub fn as_slice(&self) -> &[V] {
        &self.items
    }
}

impl<K: Id, V> Default for IndexVec<K, V> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Id, V: std::fmt::Debug> std::fmt::Debug for IndexVec<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.items).finish()
    }
}

impl<K: Id, V> Index<K> for IndexVec<K, V> {
    type Output = V;

    #[inline]
    fn index(&self, k: K) -> &V {
        &self.items[k.index()]
    }
}

impl<K: Id, V> IndexMut<K> for IndexVec<K, V> {
    #[inline]
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.items[k.index()]
    }
}

impl<K: Id, V> FromIterator<V> for IndexVec<K, V> {
    #[inline]
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        IndexVec {
            items: iter.into_iter().collect(),
            key: PhantomData,
        }
    }
}

impl<'a, K: Id, V> IntoIterator for &'a IndexVec<K, V> {
    type Item = &'a V;
    type IntoIter = std::slice::Iter<'a, V>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Block, VReg};
    use super::IndexVec;

    #[test]
    fn indexes_by_its_own_id_kind() {
        let mut t: IndexVec<VReg, u32> = IndexVec::from_elem(0, 3);
        t[VReg(2)] = 7;
        assert_eq!(t[VReg(2)], 7);
        assert_eq!(t.get(VReg(3)), None);
        assert_eq!(t.push(9), VReg(3));
        assert_eq!(t.len(), 4);
        let ids: Vec<VReg> = t.iter_enumerated().map(|(k, _)| k).collect();
        assert_eq!(ids, [VReg(0), VReg(1), VReg(2), VReg(3)]);
        assert_eq!(t.as_slice(), [0, 0, 7, 9]);
    }

    #[test]
    fn grows_by_resize_only() {
        let mut t: IndexVec<Block, bool> = IndexVec::new();
        assert!(t.is_empty());
        t.resize(2, true);
        assert_eq!(
            t.get_mut(Block(1)).map(|x| std::mem::replace(x, false)),
            Some(true)
        );
        assert_eq!(t.as_slice(), [true, false]);
    }
}
