//! The box's map from variables to their sets, persistent and small per
//! fork: the newest entries on a short list in front of a hash trie.
//!
//! Every branch of a path narrows one variable's set, and every waiting
//! state keeps its own copy of the map. In a hash trie each insertion
//! copies the nodes on the way to the key — the root alone holds a pointer
//! per variable — so a state of twenty boxed variables paid ~700 bytes per
//! branch (`bench/programs/memory_bfs_21.imp`). Here an insertion pushes
//! one node on a list shared with the parent state; only every
//! [`RECENT`]-th insertion folds the list into the trie (`insert_mut` into
//! one fresh copy, so each touched node is copied once per fold). Lookups
//! read at most [`RECENT`] list nodes before the trie.

use super::{Boxed, Fx, Interval, ValueSet};
use rpds::{HashTrieMap, HashTrieMapSync};
use wiser_num::Int;
use wiser_smt::Term;

/// The list's nodes are counted by `triomphe::Arc`, which has no weak
/// count: 8 bytes less per node (a node with its count is 56 bytes, an
/// allocator size class of its own) and one node per branch per path.
type Arc<T> = triomphe::Arc<T>;

/// How many entries wait on the list before they are folded into the trie:
/// enough that a fold (a copy of the trie's touched nodes) is rare, few
/// enough that a lookup along the list stays cheap.
const RECENT: u8 = 8;

type Trie = HashTrieMapSync<Term, Packed, Fx>;

/// Which ends of a [`Set::Range`] are finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ends {
    Neither,
    Lo,
    Hi,
    Both,
}

/// A set as the map stores it: most sets a branch makes are one interval
/// whose finite ends fit in 64 bits (`x > 0`), kept in 24 bytes instead of
/// a [`ValueSet`]'s 56; any other set is shared behind a pointer.
#[derive(Clone, Debug)]
enum Set {
    /// One interval; an end that [`Ends`] does not name is unbounded (and
    /// its field is 0).
    Range { lo: i64, hi: i64, ends: Ends },
    /// Any other set (several intervals, wide ends, the empty set).
    Other(std::sync::Arc<ValueSet>),
}

/// One entry: a [`Boxed`] in 32 bytes.
#[derive(Clone, Debug)]
struct Packed {
    set: Set,
    seq: u32,
}

impl Packed {
    fn new(b: Boxed) -> Packed {
        let set = match b.set.parts() {
            [Interval { lo, hi }] => {
                let end = |e: &Option<Int>| match e {
                    None => Some((0, false)),
                    Some(v) => v.to_i64().map(|v| (v, true)),
                };
                match (end(lo), end(hi)) {
                    (Some((lo, has_lo)), Some((hi, has_hi))) => Set::Range {
                        lo,
                        hi,
                        ends: match (has_lo, has_hi) {
                            (false, false) => Ends::Neither,
                            (true, false) => Ends::Lo,
                            (false, true) => Ends::Hi,
                            (true, true) => Ends::Both,
                        },
                    },
                    _ => Set::Other(std::sync::Arc::new(b.set)),
                }
            }
            _ => Set::Other(std::sync::Arc::new(b.set)),
        };
        Packed { set, seq: b.seq }
    }

    fn as_entry(&self) -> Entry<'_> {
        Entry {
            set: &self.set,
            seq: self.seq,
        }
    }
}

impl Node {
    fn entry(&self) -> Entry<'_> {
        Entry {
            set: &self.set,
            seq: self.seq,
        }
    }
}

/// An entry where it is stored, in a list node or in the trie.
#[derive(Clone, Copy)]
struct Entry<'a> {
    set: &'a Set,
    seq: u32,
}

impl Entry<'_> {
    fn unpack(self) -> Boxed {
        let set = match self.set {
            Set::Range { lo, hi, ends } => {
                let (has_lo, has_hi) = match ends {
                    Ends::Neither => (false, false),
                    Ends::Lo => (true, false),
                    Ends::Hi => (false, true),
                    Ends::Both => (true, true),
                };
                ValueSet::interval(Interval::new(
                    has_lo.then(|| Int::from(*lo)),
                    has_hi.then(|| Int::from(*hi)),
                ))
            }
            Set::Other(s) => ValueSet::clone(s),
        };
        Boxed { set, seq: self.seq }
    }
}

/// One entry of the list, newest first.
#[derive(Debug)]
struct Node {
    key: Term,
    /// The entry's [`Packed`] fields, which then share their padding
    /// with `len`.
    set: Set,
    seq: u32,
    /// Nodes on the list from this one down.
    len: u8,
    next: Option<Arc<Node>>,
}

/// A persistent map from variables to their sets: two pointers, since
/// every waiting state holds one.
#[derive(Clone, Debug, Default)]
pub(super) struct BoxMap {
    /// Entries not yet folded into `trie`, newest first (a key may be on
    /// it several times and in `trie` too: the first one found wins).
    recent: Option<Arc<Node>>,
    /// The older entries (`None`: none).
    trie: Option<std::sync::Arc<Trie>>,
}

impl BoxMap {
    fn nodes(&self) -> impl Iterator<Item = &Node> {
        std::iter::successors(self.recent.as_deref(), |n| n.next.as_deref())
    }

    fn packed(&self, x: &Term) -> Option<Entry<'_>> {
        match self.nodes().find(|n| n.key == *x) {
            Some(n) => Some(n.entry()),
            None => self.trie.as_ref()?.get(x).map(Packed::as_entry),
        }
    }

    /// The set of `x`, if it is boxed.
    pub(super) fn get(&self, x: &Term) -> Option<Boxed> {
        self.packed(x).map(Entry::unpack)
    }

    /// Is `x` boxed?
    pub(super) fn contains_key(&self, x: &Term) -> bool {
        self.packed(x).is_some()
    }

    /// Sets `x`'s entry.
    pub(super) fn insert_mut(&mut self, key: Term, value: Boxed) {
        if self.recent.as_ref().is_some_and(|n| n.len >= RECENT) {
            self.fold();
        }
        let len = self.recent.as_ref().map_or(0, |n| n.len) + 1;
        let Packed { set, seq } = Packed::new(value);
        self.recent = Some(Arc::new(Node {
            key,
            set,
            seq,
            len,
            next: self.recent.take(),
        }));
    }

    /// Removes `x`'s entry (rare: only a merge of paths does).
    pub(super) fn remove_mut(&mut self, x: &Term) {
        self.fold();
        if let Some(trie) = &mut self.trie {
            std::sync::Arc::make_mut(trie).remove_mut(x);
        }
    }

    /// Moves the list into the trie, oldest entry first so that the newest
    /// one of each key stays.
    fn fold(&mut self) {
        let mut entries: Vec<&Node> = self.nodes().collect();
        if entries.is_empty() {
            return;
        }
        let mut trie = match &self.trie {
            Some(t) => Trie::clone(t),
            None => HashTrieMap::new_with_hasher_and_ptr_kind(Fx::default()),
        };
        while let Some(n) = entries.pop() {
            trie.insert_mut(
                n.key.clone(),
                Packed {
                    set: n.set.clone(),
                    seq: n.seq,
                },
            );
        }
        self.trie = Some(std::sync::Arc::new(trie));
        self.recent = None;
    }

    /// Every entry once (its newest value), in no particular order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&Term, Boxed)> {
        let listed: Vec<&Node> = self.nodes().collect();
        let mut fresh: Vec<(&Term, Entry)> = Vec::with_capacity(listed.len());
        for (i, n) in listed.iter().enumerate() {
            if !listed[..i].iter().any(|m| m.key == n.key) {
                fresh.push((&n.key, n.entry()));
            }
        }
        let from_trie = self
            .trie
            .iter()
            .flat_map(|t| t.iter())
            .filter(move |(k, _)| !listed.iter().any(|n| n.key == **k))
            .map(|(k, p)| (k, p.as_entry()));
        fresh
            .into_iter()
            .chain(from_trie)
            .map(|(k, v)| (k, v.unpack()))
    }

    /// Every boxed variable once.
    pub(super) fn keys(&self) -> impl Iterator<Item = &Term> {
        self.iter().map(|(k, _)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::ValueSet;
    use wiser_num::Int;

    fn boxed(k: i64, seq: u32) -> Boxed {
        Boxed {
            set: ValueSet::point(Int::from(k)),
            seq,
        }
    }

    #[test]
    fn newest_entry_wins_across_folds_and_removals() {
        let vars: Vec<Term> = (0..20)
            .map(|i| Term::int_var(format!("v{i}").as_str()))
            .collect();
        let mut m = BoxMap::default();
        let mut model = std::collections::HashMap::new();
        for round in 0..5u32 {
            for (i, v) in vars
                .iter()
                .enumerate()
                .filter(|(i, _)| !(*i as u32 + round).is_multiple_of(3))
            {
                let k = (i as i64) * 100 + i64::from(round);
                m.insert_mut(v.clone(), boxed(k, round));
                model.insert(v.clone(), k);
            }
            let shared = m.clone();
            m.remove_mut(&vars[round as usize]);
            let had = model.remove(&vars[round as usize]).is_some();
            let kept = model.len() + usize::from(had);
            assert_eq!(shared.iter().count(), kept, "a clone keeps its entry");
            assert_eq!(m.iter().count(), model.len());
            for v in &vars {
                let want = model.get(v).map(|k| ValueSet::point(Int::from(*k)));
                assert_eq!(m.get(v).map(|b| b.set.clone()), want);
                assert_eq!(m.contains_key(v), want.is_some());
            }
            for (k, b) in m.iter() {
                assert_eq!(Some(b.set), m.get(k).map(|b| b.set));
            }
        }
    }

    #[test]
    fn sets_come_back_as_they_went_in() {
        let wide = Int::from(i64::MAX).add(&Int::ONE);
        let sets = [
            ValueSet::all(),
            ValueSet::empty(),
            ValueSet::point(Int::from(-7)),
            ValueSet::all_but(&Int::ZERO),
            ValueSet::interval(Interval::new(Some(Int::ONE), None)),
            ValueSet::interval(Interval::new(None, Some(Int::from(i64::MIN)))),
            ValueSet::interval(Interval::new(Some(Int::ZERO), Some(wide))),
        ];
        for (seq, set) in sets.into_iter().enumerate() {
            let b = Boxed {
                set,
                seq: seq as u32,
            };
            let back = Packed::new(b.clone()).as_entry().unpack();
            assert_eq!((back.set, back.seq), (b.set, b.seq));
        }
    }

    #[test]
    fn a_list_node_is_48_bytes() {
        // With its count, 56: an allocator size class below the 64 bytes
        // of a node with a `std` Arc, which every branch of every waiting
        // state pays for (bench/programs/memory_bfs_21.imp).
        assert_eq!(std::mem::size_of::<Node>(), 48);
        assert_eq!(std::mem::size_of::<Packed>(), 32);
    }
}
