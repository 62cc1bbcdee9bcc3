//! The term type.
//!
//! A [`Term`] is an `Arc` to an immutable node carrying its structural
//! hash, sort and depth, so cloning is a reference-count increment and
//! equality usually ends at the hash. Terms are built only through the
//! constructors in [`crate::build`], which fold constants and normalise:
//! integer sums are kept as linear combinations, and every integer
//! comparison is `t <= 0` or `t == 0` with `t` linear and its coefficients
//! divided by their gcd. Equal formulas therefore often become equal terms,
//! which makes caches hit and turns many branch conditions into constants.

use rustc_hash::FxHasher;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use wiser_num::Int;

/// The sort (type) of a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    /// Mathematical integers.
    Int,
    /// Booleans.
    Bool,
    /// Arrays from integers to integers.
    Array,
}

/// The shape of a term. Children are terms themselves.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// An integer constant.
    Int(Int),
    /// A boolean constant.
    Bool(bool),
    /// A free variable of the given sort.
    Var(Arc<str>, Sort),
    /// `c + Σ kᵢ·tᵢ`: the monomials are sorted by term, have nonzero
    /// coefficients and non-constant, non-linear atoms, and the whole is
    /// never a bare constant or a bare `1·t`.
    Linear(Box<[(Term, Int)]>, Int),
    /// A product of two non-constant terms (ordered).
    Mul(Term, Term),
    /// Division truncating toward zero; by zero it is 0.
    Div(Term, Term),
    /// Remainder with the dividend's sign; by zero it is 0.
    Rem(Term, Term),
    /// `if c then a else b` on integers.
    Ite(Term, Term, Term),
    /// `array[index]`.
    Select(Term, Term),
    /// `array` with `index` mapped to `value`.
    Store(Term, Term, Term),
    /// `t <= 0`, with `t` linear, normalised by the gcd of its coefficients.
    Le(Term),
    /// `t == 0`, with `t` normalised like [`Kind::Le`] and its first
    /// coefficient positive.
    Eq(Term),
    /// Negation (never of a constant, a negation or a `Le`).
    Not(Term),
    /// Conjunction of at least two sorted, distinct conjuncts.
    And(Box<[Term]>),
    /// Disjunction of at least two sorted, distinct disjuncts.
    Or(Box<[Term]>),
}

pub(crate) struct Node {
    pub(crate) kind: Kind,
    hash: u64,
    sort: Sort,
    depth: u32,
    /// Nodes of the term as a tree (shared subterms counted each time),
    /// saturating: the cost of a walk that does not memoise.
    tree_size: u32,
}

/// A shared, immutable, simplified term.
#[derive(Clone)]
pub struct Term(pub(crate) Arc<Node>);

impl Term {
    pub(crate) fn new(kind: Kind) -> Term {
        let mut h = FxHasher::default();
        kind.hash(&mut h);
        let (sort, depth) = sort_and_depth(&kind);
        let tree_size = tree_size_of(&kind);
        Term(Arc::new(Node {
            hash: h.finish(),
            kind,
            sort,
            depth,
            tree_size,
        }))
    }

    /// The term's shape.
    pub fn kind(&self) -> &Kind {
        &self.0.kind
    }

    /// Its sort.
    pub fn sort(&self) -> Sort {
        self.0.sort
    }

    /// The length of its longest path to a leaf (a leaf has depth 1).
    pub fn depth(&self) -> u32 {
        self.0.depth
    }

    /// The number of nodes of the term seen as a tree (saturating).
    pub fn tree_size(&self) -> u32 {
        self.0.tree_size
    }

    /// The integer value, if this is an integer constant.
    pub fn as_int(&self) -> Option<&Int> {
        match &self.0.kind {
            Kind::Int(n) => Some(n),
            _ => None,
        }
    }

    /// The boolean value, if this is a boolean constant.
    pub fn as_bool(&self) -> Option<bool> {
        match self.0.kind {
            Kind::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The variable name, if this is a variable.
    pub fn as_var(&self) -> Option<&Arc<str>> {
        match &self.0.kind {
            Kind::Var(name, _) => Some(name),
            _ => None,
        }
    }

    /// Do both handles point at the same node?
    pub fn ptr_eq(&self, other: &Term) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// A key identifying the node while it is alive (for memo tables).
    pub fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    /// The direct children, in order.
    pub fn children(&self) -> Vec<&Term> {
        children_of(&self.0.kind)
    }

    /// The free variables, each once, in order of first occurrence.
    pub fn vars(&self) -> Vec<Term> {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.addr()) {
                continue;
            }
            if let Kind::Var(..) = t.kind() {
                if !out.contains(t) {
                    out.push(t.clone());
                }
            }
            let mut ch = t.children();
            ch.reverse();
            stack.extend(ch);
        }
        out
    }
}

fn children_of(kind: &Kind) -> Vec<&Term> {
    match kind {
        Kind::Int(_) | Kind::Bool(_) | Kind::Var(..) => vec![],
        Kind::Linear(ms, _) => ms.iter().map(|(t, _)| t).collect(),
        Kind::Mul(a, b) | Kind::Div(a, b) | Kind::Rem(a, b) | Kind::Select(a, b) => vec![a, b],
        Kind::Ite(a, b, c) | Kind::Store(a, b, c) => vec![a, b, c],
        Kind::Le(a) | Kind::Eq(a) | Kind::Not(a) => vec![a],
        Kind::And(xs) | Kind::Or(xs) => xs.iter().collect(),
    }
}

fn tree_size_of(kind: &Kind) -> u32 {
    let sum = |ts: &[&Term]| ts.iter().fold(1u32, |n, t| n.saturating_add(t.0.tree_size));
    match kind {
        Kind::Int(_) | Kind::Bool(_) | Kind::Var(..) => 1,
        Kind::Linear(ms, _) => ms
            .iter()
            .fold(1u32, |n, (t, _)| n.saturating_add(t.0.tree_size)),
        Kind::Mul(a, b) | Kind::Div(a, b) | Kind::Rem(a, b) | Kind::Select(a, b) => sum(&[a, b]),
        Kind::Ite(a, b, c) | Kind::Store(a, b, c) => sum(&[a, b, c]),
        Kind::Le(a) | Kind::Eq(a) | Kind::Not(a) => sum(&[a]),
        Kind::And(xs) | Kind::Or(xs) => {
            xs.iter().fold(1u32, |n, t| n.saturating_add(t.0.tree_size))
        }
    }
}

fn sort_and_depth(kind: &Kind) -> (Sort, u32) {
    let d = |ts: &[&Term]| 1 + ts.iter().map(|t| t.depth()).max().unwrap_or(0);
    match kind {
        Kind::Int(_) => (Sort::Int, 1),
        Kind::Bool(_) => (Sort::Bool, 1),
        Kind::Var(_, s) => (*s, 1),
        Kind::Linear(ms, _) => (
            Sort::Int,
            1 + ms.iter().map(|(t, _)| t.depth()).max().unwrap_or(0),
        ),
        Kind::Mul(a, b) | Kind::Div(a, b) | Kind::Rem(a, b) => (Sort::Int, d(&[a, b])),
        Kind::Ite(c, a, b) => (Sort::Int, d(&[c, a, b])),
        Kind::Select(a, i) => (Sort::Int, d(&[a, i])),
        Kind::Store(a, i, v) => (Sort::Array, d(&[a, i, v])),
        Kind::Le(t) | Kind::Eq(t) | Kind::Not(t) => (Sort::Bool, d(&[t])),
        Kind::And(xs) | Kind::Or(xs) => (
            Sort::Bool,
            1 + xs.iter().map(|t| t.depth()).max().unwrap_or(0),
        ),
    }
}

impl PartialEq for Term {
    fn eq(&self, other: &Term) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.hash == other.0.hash && self.0.kind == other.0.kind)
    }
}

impl Eq for Term {}

impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash);
    }
}

impl Ord for Term {
    /// A total order that is stable across runs: by hash, then by shape.
    fn cmp(&self, other: &Term) -> Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            return Ordering::Equal;
        }
        self.0
            .hash
            .cmp(&other.0.hash)
            .then_with(|| self.0.kind.cmp(&other.0.kind))
    }
}

impl PartialOrd for Term {
    fn partial_cmp(&self, other: &Term) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Drop for Node {
    /// Frees deep terms without recursing: children whose last handle this
    /// node holds are dismantled on an explicit stack.
    fn drop(&mut self) {
        if self.depth <= 64 {
            return;
        }
        let mut pending = take_children(&mut self.kind);
        while let Some(t) = pending.pop() {
            if let Ok(mut node) = Arc::try_unwrap(t.0) {
                pending.extend(take_children(&mut node.kind));
            }
        }
    }
}

fn take_children(kind: &mut Kind) -> Vec<Term> {
    match std::mem::replace(kind, Kind::Bool(false)) {
        Kind::Int(_) | Kind::Bool(_) | Kind::Var(..) => vec![],
        Kind::Linear(ms, _) => ms.into_vec().into_iter().map(|(t, _)| t).collect(),
        Kind::Mul(a, b) | Kind::Div(a, b) | Kind::Rem(a, b) | Kind::Select(a, b) => {
            vec![a, b]
        }
        Kind::Ite(a, b, c) | Kind::Store(a, b, c) => vec![a, b, c],
        Kind::Le(a) | Kind::Eq(a) | Kind::Not(a) => vec![a],
        Kind::And(xs) | Kind::Or(xs) => xs.into_vec(),
    }
}
