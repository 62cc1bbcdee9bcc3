//! KLEE's random-path searcher: the pending states are the leaves of the
//! tree of executions, and a pop walks from the root choosing a child
//! uniformly at random until it reaches a leaf. A state's chance is the
//! product of `1 / children` along its path, so shallow states — the
//! roots of few forks — are favoured over the many states of one deep,
//! bushy subtree (a loop forking on every iteration), unlike a uniform
//! choice among states.
//!
//! The tree. A pop turns the taken leaf into the *open* node; the states
//! pushed next whose [`Info::parent`] is the taken state become its
//! children. A single successor (a plain step) takes the open node over
//! as its own leaf, so stepping adds no node; a second successor makes
//! the node interior with two new leaves. The next pop closes the open
//! node: if nothing was pushed under it (a final or stuck state) it is
//! removed. A state removed because another searcher took it (the
//! breadth-first turn of an interleaving) is opened the same way, so its
//! successors keep their place in the tree. Removing a leaf removes its parent when that was its last
//! child and splices out a parent left with one child, so every interior
//! node but the root has at least two children, and the tree has fewer
//! than twice as many nodes as pending states. States pushed with no
//! known parent (the initial state, stolen states) are children of the
//! root.
//!
//! Nodes live in a vector with a free list (node numbers are internal:
//! state ids, which the arena reuses, only index `leaf_of`, which is
//! updated whenever a state comes or goes). Walks and removals are loops,
//! and dropping the tree drops one vector: nothing recurses per state.

use super::{Info, Rng, Searcher, Serial, StateId};
use smallvec::SmallVec;

type NodeId = u32;
const ROOT: NodeId = 0;
const NONE: NodeId = NodeId::MAX;

enum Kind {
    /// A pending state.
    Leaf { id: StateId, serial: Serial },
    /// The state popped last, until its successors are pushed.
    Open,
    /// Two or more children (any number for the root).
    Inner(SmallVec<[NodeId; 2]>),
    /// On the free list.
    Free,
}

struct Node {
    parent: NodeId,
    /// Its index among its parent's children (so leaving is O(1) even
    /// under a wide root).
    slot: u32,
    kind: Kind,
}

/// Random-path search (incomplete).
#[repr(align(128))] // A worker's own cache lines: see `frontier::Pool`.
pub struct RandomPath {
    nodes: Vec<Node>,
    free: Vec<NodeId>,
    /// The leaf of each pending state, by id.
    leaf_of: Vec<NodeId>,
    /// The open node and the serial of the state popped from it.
    open: Option<(Serial, NodeId)>,
    len: usize,
    rng: Rng,
}

impl RandomPath {
    /// An empty tree whose walks are drawn from `seed`.
    pub fn new(seed: u64) -> RandomPath {
        RandomPath {
            nodes: vec![Node {
                parent: NONE,
                slot: 0,
                kind: Kind::Inner(SmallVec::new()),
            }],
            free: Vec::new(),
            leaf_of: Vec::new(),
            open: None,
            len: 0,
            rng: Rng::new(seed),
        }
    }

    /// Nodes in use, the root included (for tests: the tree shrinks).
    pub fn nodes(&self) -> usize {
        self.nodes.len() - self.free.len()
    }

    fn alloc(&mut self, parent: NodeId, slot: usize, kind: Kind) -> NodeId {
        let node = Node {
            parent,
            slot: slot as u32,
            kind,
        };
        match self.free.pop() {
            Some(n) => {
                self.nodes[n as usize] = node;
                n
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as NodeId
            }
        }
    }

    fn release(&mut self, n: NodeId) {
        self.nodes[n as usize].kind = Kind::Free;
        self.free.push(n);
        if self.open.is_some_and(|(_, o)| o == n) {
            self.open = None;
        }
    }

    fn set_leaf(&mut self, id: StateId, node: NodeId) {
        if self.leaf_of.len() <= id {
            self.leaf_of.resize(id + 1, NONE);
        }
        self.leaf_of[id] = node;
    }

    fn children(&mut self, n: NodeId) -> &mut SmallVec<[NodeId; 2]> {
        match &mut self.nodes[n as usize].kind {
            Kind::Inner(c) => c,
            _ => unreachable!("a parent is an inner node"),
        }
    }

    /// Takes node `n` (a leaf or the open node) out of the tree, then
    /// prunes: a parent left childless goes too, a parent left with one
    /// child is replaced by that child.
    fn detach(&mut self, mut n: NodeId) {
        loop {
            let Node {
                parent: p, slot, ..
            } = self.nodes[n as usize];
            self.release(n);
            let children = self.children(p);
            children.swap_remove(slot as usize);
            if let Some(&moved) = children.get(slot as usize) {
                self.nodes[moved as usize].slot = slot;
            }
            let left = self.children(p).len();
            if p == ROOT {
                return;
            }
            match left {
                0 => n = p,
                1 => {
                    let only = self.children(p)[0];
                    let Node {
                        parent: g, slot, ..
                    } = self.nodes[p as usize];
                    self.children(g)[slot as usize] = only;
                    self.nodes[only as usize].parent = g;
                    self.nodes[only as usize].slot = slot;
                    self.release(p);
                    return;
                }
                _ => return,
            }
        }
    }

    /// Ends the open node's wait for successors: with none, it goes.
    fn close(&mut self) {
        if let Some((_, o)) = self.open.take() {
            if matches!(self.nodes[o as usize].kind, Kind::Open) {
                self.detach(o);
            }
        }
    }

    /// A random walk from the root to a leaf.
    fn walk(&mut self) -> Option<NodeId> {
        let mut n = ROOT;
        loop {
            match &self.nodes[n as usize].kind {
                Kind::Inner(c) if c.is_empty() => return None,
                Kind::Inner(c) => {
                    let k = c.len();
                    let mut i = self.rng.below(k);
                    // Only a thief's walk can meet the open node (its
                    // state is being expanded): take a sibling instead.
                    if matches!(self.nodes[c[i] as usize].kind, Kind::Open) {
                        if k == 1 {
                            return None;
                        }
                        i = (i + 1) % k;
                    }
                    n = c[i];
                }
                Kind::Leaf { .. } => return Some(n),
                Kind::Open | Kind::Free => unreachable!("walks go down inner nodes"),
            }
        }
    }

    /// Turns leaf `n` into the open node.
    fn open_at(&mut self, n: NodeId) {
        let (id, serial) = self.leaf(n);
        self.nodes[n as usize].kind = Kind::Open;
        self.open = Some((serial, n));
        self.leaf_of[id] = NONE;
        self.len -= 1;
    }

    fn leaf(&self, n: NodeId) -> (StateId, Serial) {
        match self.nodes[n as usize].kind {
            Kind::Leaf { id, serial } => (id, serial),
            _ => unreachable!("walks end at leaves"),
        }
    }
}

impl Searcher for RandomPath {
    fn push(&mut self, id: StateId, info: Info) {
        self.len += 1;
        let leaf = Kind::Leaf {
            id,
            serial: info.serial,
        };
        let open = self
            .open
            .filter(|&(s, _)| info.parent.is_some_and(|p| p.serial == s))
            .map(|(_, o)| o);
        let Some(o) = open else {
            let slot = self.children(ROOT).len();
            let n = self.alloc(ROOT, slot, leaf);
            self.children(ROOT).push(n);
            return self.set_leaf(id, n);
        };
        match std::mem::replace(&mut self.nodes[o as usize].kind, Kind::Free) {
            // The first successor takes the open node over.
            Kind::Open => {
                self.nodes[o as usize].kind = leaf;
                self.set_leaf(id, o);
            }
            // The second makes it interior: both move to new leaves.
            Kind::Leaf {
                id: first,
                serial: s,
            } => {
                let a = self.alloc(
                    o,
                    0,
                    Kind::Leaf {
                        id: first,
                        serial: s,
                    },
                );
                let b = self.alloc(o, 1, leaf);
                self.nodes[o as usize].kind = Kind::Inner(SmallVec::from_buf([a, b]));
                self.set_leaf(first, a);
                self.set_leaf(id, b);
            }
            Kind::Inner(mut c) => {
                let b = self.alloc(o, c.len(), leaf);
                c.push(b);
                self.nodes[o as usize].kind = Kind::Inner(c);
                self.set_leaf(id, b);
            }
            Kind::Free => unreachable!("the open node is in the tree"),
        }
    }

    fn pop(&mut self) -> Option<StateId> {
        self.close();
        let n = self.walk()?;
        let (id, _) = self.leaf(n);
        self.open_at(n);
        Some(id)
    }

    /// The state was taken by other means (the breadth-first turn of an
    /// interleaving): like a pop, its leaf waits open for its successors.
    fn remove(&mut self, id: StateId) {
        if self.leaf_of.get(id).is_some_and(|&n| n != NONE) {
            self.close();
            self.open_at(self.leaf_of[id]);
        }
    }

    /// Any leaf will do for a thief: one more random walk. Its successors
    /// will be pushed elsewhere, so the leaf goes at once.
    fn steal(&mut self) -> Option<StateId> {
        let n = self.walk()?;
        let (id, _) = self.leaf(n);
        self.leaf_of[id] = NONE;
        self.len -= 1;
        self.detach(n);
        Some(id)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn name(&self) -> &'static str {
        "random-path"
    }
}
