//! A frontier that merges: states wait in topological order of their
//! position ([`super::state::position`]), so the states of both sides of
//! an `if` all arrive at its end before any goes on, and a state pushed
//! where another one waits (same place, see [`super::state::same_place`])
//! is merged into it.
//!
//! Topological order alone is not fair: a state that loops forever at
//! low positions would starve the others. With `fair = k`, every k-th pop
//! takes the oldest waiting state instead, so every state is taken after
//! finitely many pops and WiSE's completeness argument still holds.
//! Bounded model checking, whose loops end at the unwinding bound, uses
//! `fair = 0`: pure topological order, which merges the most.

use super::auto::Hotness;
use super::state::{merge, place_hash, position, same_place, JoinPath, MState};
use super::MergeMode;
use crate::frontier::Frontier;
use slab::Slab;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::Arc;
use wiser_ir::{Cfg, Ir};
use wiser_semantics::Status;

struct Entry<P> {
    state: MState<P>,
    position: Vec<u64>,
    seq: u64,
    place: Option<u64>,
}

/// Waiting states in topological order, merged where they meet.
pub struct MergeFrontier<P> {
    ir: Arc<Ir>,
    cfg: Arc<Cfg>,
    mode: MergeMode,
    hot: Hotness,
    states: Slab<Entry<P>>,
    order: BTreeSet<(Vec<u64>, u64, usize)>,
    /// Ids by age, for fair pops and steals; entries whose state is gone
    /// (or whose id was reused: the sequence number differs) are skipped.
    oldest: VecDeque<(u64, usize)>,
    waiting: HashMap<u64, Vec<usize>>,
    next_seq: u64,
    pops: u64,
    fair: u64,
    merges: u64,
    /// The states merged into others, as they were, when kept (for
    /// recording paths), up to `keep_merged` of them.
    merged: Vec<MState<P>>,
    keep_merged: usize,
    /// Merged states beyond `keep_merged`: counted, not kept.
    merged_dropped: u64,
}

impl<P: JoinPath> MergeFrontier<P> {
    /// An empty frontier for `ir` whose facts are `cfg`; with `fair = k >
    /// 0`, every k-th pop takes the oldest state.
    pub fn new(ir: Arc<Ir>, cfg: Arc<Cfg>, mode: MergeMode, fair: u64) -> Self {
        MergeFrontier {
            ir,
            cfg,
            mode,
            hot: Hotness::new(),
            states: Slab::new(),
            order: BTreeSet::new(),
            oldest: VecDeque::new(),
            waiting: HashMap::new(),
            next_seq: 0,
            pops: 0,
            fair,
            merges: 0,
            merged: Vec::new(),
            keep_merged: 0,
            merged_dropped: 0,
        }
    }

    /// Keeps (a copy of) up to `n` of the states merged into others, for
    /// [`Frontier::take_merged`].
    pub fn keeping_merged(mut self, n: usize) -> Self {
        self.keep_merged = n;
        self
    }

    /// Merges `state` into a waiting state at its place, if there is one
    /// and the mode allows; gives it back otherwise.
    // The state comes back unmerged on most pushes: boxing it would
    // allocate on every one.
    #[allow(clippy::result_large_err)]
    fn try_merge(&mut self, state: MState<P>, place: u64) -> Result<(), MState<P>> {
        let Some(ids) = self.waiting.get(&place) else {
            return Err(state);
        };
        let found = ids.iter().copied().find(|&id| {
            let other = &self.states[id].state;
            same_place(other, &state)
        });
        let Some(id) = found else {
            return Err(state);
        };
        if self.mode == MergeMode::Auto && !self.hot.pays(&self.ir, &self.states[id].state, &state)
        {
            return Err(state);
        }
        if self.merged.len() + 2 <= self.keep_merged {
            // Both paths end here; the merge goes on with the decisions
            // they share.
            self.merged.push(self.states[id].state.clone());
            self.merged.push(state.clone());
        } else if self.keep_merged > 0 {
            self.merged_dropped += 2;
        }
        let entry = &mut self.states[id];
        // Keep the older state first: its model becomes the merge's.
        let waiting = std::mem::replace(&mut entry.state, state);
        entry.state = merge(waiting, &entry.state);
        self.merges += 1;
        Ok(())
    }

    fn insert(&mut self, state: MState<P>, place: Option<u64>) {
        let position = position(&self.cfg, &state);
        let seq = self.next_seq;
        self.next_seq += 1;
        let id = self.states.insert(Entry {
            state,
            position: position.clone(),
            seq,
            place,
        });
        self.order.insert((position, seq, id));
        self.oldest.push_back((seq, id));
        if self.oldest.len() > 2 * self.states.len() + 64 {
            // Drop the ids of states taken in topological order since.
            let states = &self.states;
            self.oldest
                .retain(|&(seq, id)| states.get(id).is_some_and(|e| e.seq == seq));
        }
        if let Some(p) = place {
            self.waiting.entry(p).or_default().push(id);
        }
    }

    fn remove(&mut self, id: usize) -> MState<P> {
        let entry = self.states.remove(id);
        self.order.remove(&(entry.position, entry.seq, id));
        if let Some(p) = entry.place {
            if let Some(ids) = self.waiting.get_mut(&p) {
                ids.retain(|&i| i != id);
                if ids.is_empty() {
                    self.waiting.remove(&p);
                }
            }
        }
        entry.state
    }

    fn take_oldest(&mut self) -> Option<MState<P>> {
        while let Some((seq, id)) = self.oldest.pop_front() {
            if self.states.get(id).is_some_and(|e| e.seq == seq) {
                return Some(self.remove(id));
            }
        }
        None
    }
}

impl<P: JoinPath + Send> Frontier<MState<P>> for MergeFrontier<P>
where
    MState<P>: Send,
{
    fn push(&mut self, state: MState<P>, may_merge: bool) -> bool {
        let mergeable = self.mode != MergeMode::None && state.status == Status::Running;
        let place = mergeable.then(|| place_hash(&state));
        let state = match place {
            Some(p) if may_merge => match self.try_merge(state, p) {
                Ok(()) => return true,
                Err(s) => s,
            },
            _ => state,
        };
        self.insert(state, place);
        false
    }

    fn pop(&mut self) -> Option<MState<P>> {
        self.pops += 1;
        if self.fair > 0 && self.pops.is_multiple_of(self.fair) {
            return self.take_oldest();
        }
        let &(_, _, id) = self.order.first()?;
        Some(self.remove(id))
    }

    fn steal(&mut self) -> Option<MState<P>> {
        self.take_oldest()
    }

    fn len(&self) -> usize {
        self.states.len()
    }

    fn merges(&self) -> u64 {
        self.merges
    }

    fn take_merged(&mut self) -> (Vec<MState<P>>, u64) {
        self.keep_merged = self.keep_merged.saturating_sub(self.merged.len());
        (
            std::mem::take(&mut self.merged),
            std::mem::take(&mut self.merged_dropped),
        )
    }
}
