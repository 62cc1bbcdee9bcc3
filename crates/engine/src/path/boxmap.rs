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
/// count: 8 bytes less per node (a node with its count is 48 bytes, an
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
/// with a 64-bit end (`x > 0`), or two less than 2^32 apart, kept in 16
/// bytes instead of a [`ValueSet`]'s 56; any other set is shared behind a
/// pointer.
#[derive(Clone, Debug)]
enum Set {
    /// One interval, as `ends` says: `[base, base + width]`,
    /// `[base, +inf)`, `(-inf, base]` or every value (unused fields 0).
    Range { base: i64, width: u32, ends: Ends },
    /// Any other set (several intervals, wide ends, the empty set).
    Other(std::sync::Arc<ValueSet>),
}

/// One entry: a [`Boxed`] in 24 bytes.
#[derive(Clone, Debug)]
struct Packed {
    set: Set,
    seq: u32,
}

impl Packed {
    fn new(b: Boxed) -> Packed {
        let range = match b.set.parts() {
            [Interval { lo: None, hi: None }] => Some((0, 0, Ends::Neither)),
            [Interval {
                lo: Some(lo),
                hi: None,
            }] => lo.to_i64().map(|lo| (lo, 0, Ends::Lo)),
            [Interval {
                lo: None,
                hi: Some(hi),
            }] => hi.to_i64().map(|hi| (hi, 0, Ends::Hi)),
            [Interval {
                lo: Some(lo),
                hi: Some(hi),
            }] => lo.to_i64().and_then(|base| {
                let width = hi.sub(lo).to_i64().and_then(|w| u32::try_from(w).ok())?;
                Some((base, width, Ends::Both))
            }),
            _ => None,
        };
        let set = match range {
            Some((base, width, ends)) => Set::Range { base, width, ends },
            None => Set::Other(std::sync::Arc::new(b.set)),
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
    /// [`ValueSet::clamp`] of the set, without making the set: the
    /// effective model clamps every boxed variable it reads.
    fn clamp(self, v: &Int) -> Option<Int> {
        let (base, width, ends) = match self.set {
            Set::Range { base, width, ends } => (Int::from(*base), *width, *ends),
            Set::Other(set) => return set.clamp(v),
        };
        Some(match ends {
            Ends::Neither => v.clone(),
            Ends::Lo if *v < base => base,
            Ends::Hi if *v > base => base,
            Ends::Lo | Ends::Hi => v.clone(),
            Ends::Both => {
                let hi = base.add(&Int::from(i64::from(width)));
                if *v < base {
                    base
                } else if *v > hi {
                    hi
                } else {
                    v.clone()
                }
            }
        })
    }

    /// [`ValueSet::contains`] of the set, without making the set.
    fn contains(self, v: &Int) -> bool {
        match self.set {
            Set::Range { .. } => self.clamp(v).as_ref() == Some(v),
            Set::Other(set) => set.contains(v),
        }
    }

    /// [`ValueSet::is_empty`] of the set (a range is never empty).
    fn is_empty(self) -> bool {
        matches!(self.set, Set::Other(set) if set.is_empty())
    }

    fn unpack(self) -> Boxed {
        let set = match self.set {
            Set::Range { base, width, ends } => {
                let base = Int::from(*base);
                ValueSet::interval(match ends {
                    Ends::Neither => Interval::default(),
                    Ends::Lo => Interval::new(Some(base), None),
                    Ends::Hi => Interval::new(None, Some(base)),
                    Ends::Both => {
                        let hi = base.add(&Int::from(i64::from(*width)));
                        Interval::range(base, hi)
                    }
                })
            }
            Set::Other(s) => ValueSet::clone(s),
        };
        Boxed { set, seq: self.seq }
    }
}

/// A fold this thread made: of the list `list` over the trie `below`, the
/// trie `trie`. Both sides of a branch that adds a bound share their list
/// and trie, and each side folds when its list is full: the second side
/// takes the first side's trie instead of a copy of its own, which would
/// be the same map (its nodes and the list's entries copied again, in
/// every pair of waiting states). The handles keep the list and the trie
/// alive, so equal pointers are equal maps.
struct LastFold {
    list: Arc<Node>,
    below: Option<std::sync::Arc<Trie>>,
    trie: std::sync::Arc<Trie>,
}

thread_local! {
    static LAST_FOLD: std::cell::RefCell<Option<LastFold>> = const { std::cell::RefCell::new(None) };
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

    /// `v` moved to the nearest member of `x`'s set, if `x` is boxed.
    pub(super) fn clamp(&self, x: &Term, v: Int) -> Int {
        match self.packed(x) {
            Some(e) => e.clamp(&v).unwrap_or(v),
            None => v,
        }
    }

    /// Does `x`'s set contain `v`? `None` if `x` is not boxed.
    pub(super) fn admits(&self, x: &Term, v: &Int) -> Option<bool> {
        self.packed(x).map(|e| e.contains(v))
    }

    /// Is `x`'s set empty? `None` if `x` is not boxed.
    pub(super) fn is_empty_at(&self, x: &Term) -> Option<bool> {
        self.packed(x).map(Entry::is_empty)
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

    /// The same map with a list and trie of its own (their entries stay
    /// shared), for a state that moves to another thread.
    pub(super) fn unshare(&mut self) {
        // A fold makes the trie anew (or takes this thread's last one).
        if self.recent.is_some() {
            self.fold();
        } else if let Some(t) = &self.trie {
            self.trie = Some(std::sync::Arc::new(Trie::clone(t)));
        }
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
        let Some(list) = self.recent.take() else {
            return;
        };
        let below = self.trie.take();
        let same = |f: &LastFold| {
            Arc::ptr_eq(&f.list, &list)
                && match (&f.below, &below) {
                    (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
                    (a, b) => a.is_none() && b.is_none(),
                }
        };
        if let Some(t) =
            LAST_FOLD.with_borrow(|f| f.as_ref().filter(|f| same(f)).map(|f| f.trie.clone()))
        {
            self.trie = Some(t);
            return;
        }
        let mut trie = match &below {
            Some(t) => Trie::clone(t),
            None => HashTrieMap::new_with_hasher_and_ptr_kind(Fx::default()),
        };
        let mut entries: Vec<&Node> =
            std::iter::successors(Some(&*list), |n| n.next.as_deref()).collect();
        while let Some(n) = entries.pop() {
            trie.insert_mut(
                n.key.clone(),
                Packed {
                    set: n.set.clone(),
                    seq: n.seq,
                },
            );
        }
        let trie = std::sync::Arc::new(trie);
        self.trie = Some(trie.clone());
        LAST_FOLD.set(Some(LastFold { list, below, trie }));
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
        let span = |lo: &Int, w: i64| Interval::range(lo.clone(), lo.add(&Int::from(w)));
        let sets = [
            ValueSet::interval(span(&Int::from(5), (1 << 32) - 1)),
            ValueSet::interval(span(&Int::from(5), 1 << 32)),
            ValueSet::interval(span(&Int::from(i64::MAX), 1)),
            ValueSet::interval(span(&Int::from(i64::MIN), 0)),
            ValueSet::interval(span(&wide, 0)),
            ValueSet::all(),
            ValueSet::empty(),
            ValueSet::point(Int::from(-7)),
            ValueSet::all_but(&Int::ZERO),
            ValueSet::interval(Interval::new(Some(Int::ONE), None)),
            ValueSet::interval(Interval::new(None, Some(Int::from(i64::MIN)))),
            ValueSet::interval(Interval::new(Some(Int::ZERO), Some(wide.clone()))),
        ];
        for (seq, set) in sets.into_iter().enumerate() {
            let b = Boxed {
                set,
                seq: seq as u32,
            };
            let packed = Packed::new(b.clone());
            for v in [-9, -7, -1, 0, 1, 2, 5, 6, i64::MAX, i64::MIN] {
                let v = Int::from(v);
                for v in [v.clone(), v.add(&Int::from(1i64 << 32)), v.mul(&wide)] {
                    assert_eq!(
                        packed.as_entry().clamp(&v),
                        b.set.clamp(&v),
                        "{:?} {v}",
                        b.set
                    );
                    assert_eq!(packed.as_entry().contains(&v), b.set.contains(&v));
                }
            }
            assert_eq!(packed.as_entry().is_empty(), b.set.is_empty());
            let back = packed.as_entry().unpack();
            assert_eq!((back.set, back.seq), (b.set, b.seq));
        }
    }

    #[test]
    fn a_list_node_is_40_bytes() {
        // With its count, 48, against 104 for a node of a `Boxed` with a
        // `std` Arc: every branch of every waiting state pays for one
        // (bench/programs/memory_bfs_21.imp).
        assert_eq!(std::mem::size_of::<Node>(), 40);
        assert_eq!(std::mem::size_of::<Packed>(), 24);
    }

    #[test]
    fn both_sides_of_a_branch_share_one_fold() {
        let vars: Vec<Term> = (0..=RECENT)
            .map(|i| Term::int_var(format!("w{i}").as_str()))
            .collect();
        let mut m = BoxMap::default();
        for (i, v) in vars[..usize::from(RECENT)].iter().enumerate() {
            m.insert_mut(v.clone(), boxed(i as i64, i as u32));
        }
        let last = &vars[usize::from(RECENT)];
        let (mut yes, mut no) = (m.clone(), m.clone());
        yes.insert_mut(last.clone(), boxed(1, 99));
        no.insert_mut(last.clone(), boxed(-1, 99));
        let (Some(a), Some(b)) = (&yes.trie, &no.trie) else {
            panic!("both sides folded");
        };
        assert!(std::sync::Arc::ptr_eq(a, b));
        for (i, v) in vars[..usize::from(RECENT)].iter().enumerate() {
            let want = Some(ValueSet::point(Int::from(i as i64)));
            assert_eq!(yes.get(v).map(|b| b.set), want);
            assert_eq!(no.get(v).map(|b| b.set), want);
        }
        assert_eq!(
            yes.get(last).map(|b| b.set),
            Some(ValueSet::point(Int::ONE))
        );
        assert_eq!(
            no.get(last).map(|b| b.set),
            Some(ValueSet::point(Int::from(-1)))
        );
        assert_eq!(
            m.iter().count(),
            usize::from(RECENT),
            "the parent keeps its list"
        );
    }
}
