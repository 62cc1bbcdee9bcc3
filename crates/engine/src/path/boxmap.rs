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

use super::{Boxed, Fx};
use rpds::{HashTrieMap, HashTrieMapSync};
use std::sync::Arc;
use wiser_smt::Term;

/// How many entries wait on the list before they are folded into the trie:
/// enough that a fold (a copy of the trie's touched nodes) is rare, few
/// enough that a lookup along the list stays cheap.
const RECENT: u8 = 8;

type Trie = HashTrieMapSync<Term, Boxed, Fx>;

/// One entry of the list, newest first.
#[derive(Debug)]
struct Node {
    key: Term,
    value: Boxed,
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
    trie: Option<Arc<Trie>>,
}

impl BoxMap {
    fn nodes(&self) -> impl Iterator<Item = &Node> {
        std::iter::successors(self.recent.as_deref(), |n| n.next.as_deref())
    }

    /// The set of `x`, if it is boxed.
    pub(super) fn get(&self, x: &Term) -> Option<&Boxed> {
        match self.nodes().find(|n| n.key == *x) {
            Some(n) => Some(&n.value),
            None => self.trie.as_ref()?.get(x),
        }
    }

    /// Is `x` boxed?
    pub(super) fn contains_key(&self, x: &Term) -> bool {
        self.get(x).is_some()
    }

    /// Sets `x`'s entry.
    pub(super) fn insert_mut(&mut self, key: Term, value: Boxed) {
        if self.recent.as_ref().is_some_and(|n| n.len >= RECENT) {
            self.fold();
        }
        let len = self.recent.as_ref().map_or(0, |n| n.len) + 1;
        self.recent = Some(Arc::new(Node {
            key,
            value,
            len,
            next: self.recent.take(),
        }));
    }

    /// Removes `x`'s entry (rare: only a merge of paths does).
    pub(super) fn remove_mut(&mut self, x: &Term) {
        self.fold();
        if let Some(trie) = &mut self.trie {
            Arc::make_mut(trie).remove_mut(x);
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
            trie.insert_mut(n.key.clone(), n.value.clone());
        }
        self.trie = Some(Arc::new(trie));
        self.recent = None;
    }

    /// Every entry once (its newest value), in no particular order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&Term, &Boxed)> {
        let listed: Vec<&Node> = self.nodes().collect();
        let mut fresh: Vec<(&Term, &Boxed)> = Vec::with_capacity(listed.len());
        for (i, n) in listed.iter().enumerate() {
            if !listed[..i].iter().any(|m| m.key == n.key) {
                fresh.push((&n.key, &n.value));
            }
        }
        let from_trie = self
            .trie
            .iter()
            .flat_map(|t| t.iter())
            .filter(move |(k, _)| !listed.iter().any(|n| n.key == **k));
        fresh.into_iter().chain(from_trie)
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
                assert_eq!(Some(&b.set), m.get(k).map(|b| &b.set));
            }
        }
    }
}
