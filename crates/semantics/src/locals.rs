//! A frame's slots: a vector shared since the last fork, and the few slots
//! written since, on a short persistent list.
//!
//! Forking a state shares its slots; the first write after the fork used to
//! copy them all (`Arc::make_mut`), so every waiting state of a wide search
//! kept a copy of its frame's slots — ~220 bytes for the 22 slots of
//! `bench/programs/memory_bfs_21.imp`, about a quarter of the memory of a
//! pending state. A write to shared slots now pushes one node (the slot
//! and its value) on a list in front of the vector; the list is folded
//! into a fresh vector when it reaches [`WRITTEN`] nodes, and into the
//! vector in place when the vector is no longer shared. Slots that nothing
//! shares (the concrete interpreter's, never forked) are written in place,
//! as before, and read with one test more.
//!
//! The nodes and the vector are counted by `triomphe::Arc`, which has no
//! weak count: a node is 32 bytes with its count instead of 40, and every
//! waiting state of a wide search holds about two (one per write since its
//! parent forked, and its share of its parent's).

use std::hash::{Hash, Hasher};
use triomphe::Arc;

/// How many writes wait on the list before the slots are copied: a read
/// walks at most this many nodes.
const WRITTEN: u32 = 8;

/// One write since the slots were shared, newest first.
#[derive(Debug)]
struct Written<V> {
    slot: u32,
    /// Nodes on the list from this one down.
    len: u32,
    value: V,
    next: Option<Arc<Written<V>>>,
}

/// The slots of a frame (parameters first).
pub struct Locals<V> {
    base: Arc<Vec<V>>,
    /// Writes not yet in `base`, newest first: the first node of a slot
    /// holds its value.
    written: Option<Arc<Written<V>>>,
}

impl<V> Clone for Locals<V> {
    fn clone(&self) -> Self {
        Locals {
            base: self.base.clone(),
            written: self.written.clone(),
        }
    }
}

impl<V> Locals<V> {
    /// The slots `values`.
    pub fn new(values: Vec<V>) -> Self {
        Locals {
            base: Arc::new(values),
            written: None,
        }
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// Are there no slots?
    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }

    fn writes(&self) -> impl Iterator<Item = &Written<V>> {
        std::iter::successors(self.written.as_deref(), |w| w.next.as_deref())
    }

    /// The slots in order.
    pub fn iter(&self) -> impl Iterator<Item = &V> {
        (0..self.len()).map(move |i| &self[i])
    }

    /// Are these the very same slots (shared since a fork, nothing
    /// written since)?
    pub fn ptr_eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.base, &other.base)
            && match (&self.written, &other.written) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

impl<V: Clone> Locals<V> {
    /// The slots as a vector.
    pub fn to_vec(&self) -> Vec<V> {
        self.iter().cloned().collect()
    }

    /// Gives these slots a vector of their own, shared with no other
    /// state, of the values `copy` makes (for a state that moves to another
    /// thread: see `Unshare` in the engine's `frontier.rs`).
    pub fn unshare(&mut self, copy: impl FnMut(&V) -> V) {
        *self = Locals::new(self.iter().map(copy).collect());
    }

    /// Writes slot `i`.
    #[inline]
    pub fn set(&mut self, i: usize, v: V) {
        if self.written.is_none() {
            if let Some(base) = Arc::get_mut(&mut self.base) {
                base[i] = v;
                return;
            }
        }
        self.set_shared(i, v);
    }

    /// Writes slot `i` of slots shared since a fork, or with writes on
    /// the list.
    fn set_shared(&mut self, i: usize, v: V) {
        if let Some(base) = Arc::get_mut(&mut self.base) {
            // Unshared: the pending writes, oldest first, then this one.
            if self.written.is_some() {
                let mut pending: Vec<&Written<V>> =
                    std::iter::successors(self.written.as_deref(), |w| w.next.as_deref()).collect();
                while let Some(w) = pending.pop() {
                    base[w.slot as usize] = w.value.clone();
                }
                self.written = None;
            }
            base[i] = v;
            return;
        }
        let len = self.written.as_ref().map_or(0, |w| w.len);
        if len >= WRITTEN {
            let mut values = self.to_vec();
            values[i] = v;
            *self = Locals::new(values);
            return;
        }
        assert!(i < self.len(), "slot {i} of {}", self.len());
        self.written = Some(Arc::new(Written {
            slot: i as u32,
            len: len + 1,
            value: v,
            next: self.written.take(),
        }));
    }
}

impl<V> std::ops::Index<usize> for Locals<V> {
    type Output = V;

    #[inline]
    fn index(&self, i: usize) -> &V {
        // Unforked slots (the concrete interpreter's, always) are read
        // straight from the vector.
        if self.written.is_none() {
            return &self.base[i];
        }
        match self.writes().find(|w| w.slot as usize == i) {
            Some(w) => &w.value,
            None => &self.base[i],
        }
    }
}

impl<V: PartialEq> PartialEq for Locals<V> {
    fn eq(&self, other: &Self) -> bool {
        self.ptr_eq(other) || (self.len() == other.len() && self.iter().eq(other.iter()))
    }
}

impl<V: Eq> Eq for Locals<V> {}

/// Hashes as the slice of the slots does.
impl<V: Hash> Hash for Locals<V> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.len().hash(state);
        for v in self.iter() {
            v.hash(state);
        }
    }
}

impl<V: std::fmt::Debug> std::fmt::Debug for Locals<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forks_see_their_own_writes_only() {
        let mut a = Locals::new((0..10).collect::<Vec<i32>>());
        let mut copies = Vec::new();
        let mut want: Vec<Vec<i32>> = Vec::new();
        let mut plain: Vec<i32> = (0..10).collect();
        for k in 0..40 {
            copies.push(a.clone());
            want.push(plain.clone());
            let i = (k * 7) % 10;
            a.set(i, 100 + k as i32);
            plain[i] = 100 + k as i32;
            assert_eq!(a.to_vec(), plain);
            if k % 5 == 0 {
                // Dropping the other holders lets the next write fold in place.
                copies.clear();
                want.clear();
            }
        }
        for (c, w) in copies.iter().zip(&want) {
            assert_eq!(&c.to_vec(), w);
            assert_eq!(c.iter().count(), 10);
        }
        assert_eq!(a, Locals::new(plain.clone()));
        assert!(a.clone().ptr_eq(&a));
    }
}
