//! The term type.
//!
//! A [`Term`] is an `Arc` to an immutable node carrying its structural
//! hash, sort and depth, so cloning is a reference-count increment and
//! equality usually ends at the hash. Terms are built only through the
//! constructors in [`crate::build`] and [`crate::bv_build`], which fold
//! constants and normalise: integer sums are kept as linear combinations,
//! and every integer comparison is `t <= 0` or `t == 0` with `t` linear
//! and its coefficients divided by their gcd; bit-vector operations fold
//! through [`wiser_num::bv`], drop identities and order commutative
//! operands. Equal formulas therefore often become equal terms, which
//! makes caches hit and turns many branch conditions into constants.
//!
//! Sorts: booleans, mathematical integers, bit-vectors of 1 to 64 bits
//! (machine integers: the operators say whether they are signed; IEEE 754
//! floats too, as their bit patterns, see [`Kind::Fp`]), and arrays
//! between any two of those.

use rustc_hash::FxHasher;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use wiser_num::Int;

/// The sort of an array's index or element: a scalar sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    /// Booleans.
    Bool,
    /// Mathematical integers.
    Int,
    /// Bit-vectors of the given width (1 to 64).
    Bv(u8),
}

/// The sort (type) of a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    /// Booleans.
    Bool,
    /// Mathematical integers.
    Int,
    /// Bit-vectors of the given width (1 to 64): machine integers, whose
    /// signedness lives in the operators, not in the sort.
    Bv(u8),
    /// Arrays from an index sort to an element sort.
    Array(Scalar, Scalar),
}

impl Sort {
    /// The width of a bit-vector sort.
    pub fn width(self) -> Option<u32> {
        match self {
            Sort::Bv(w) => Some(u32::from(w)),
            _ => None,
        }
    }

    /// The sort as a scalar, unless it is an array sort.
    pub fn scalar(self) -> Option<Scalar> {
        match self {
            Sort::Bool => Some(Scalar::Bool),
            Sort::Int => Some(Scalar::Int),
            Sort::Bv(w) => Some(Scalar::Bv(w)),
            Sort::Array(..) => None,
        }
    }

    /// Is this a bit-vector sort?
    pub fn is_bv(self) -> bool {
        matches!(self, Sort::Bv(_))
    }
}

impl From<Scalar> for Sort {
    fn from(s: Scalar) -> Sort {
        match s {
            Scalar::Bool => Sort::Bool,
            Scalar::Int => Sort::Int,
            Scalar::Bv(w) => Sort::Bv(w),
        }
    }
}

impl TryFrom<Sort> for Scalar {
    type Error = Sort;
    /// Fails (giving the sort back) on array sorts.
    fn try_from(s: Sort) -> Result<Scalar, Sort> {
        s.scalar().ok_or(s)
    }
}

/// Binary bit-vector operators, with SMT-LIB's `QF_BV` meaning (see
/// [`wiser_num::bv`]): total, so division by zero and shifts by the width
/// or more have values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BvOp {
    /// `bvadd`
    Add,
    /// `bvsub`
    Sub,
    /// `bvmul`
    Mul,
    /// `bvudiv`
    Udiv,
    /// `bvsdiv`
    Sdiv,
    /// `bvurem`
    Urem,
    /// `bvsrem` (sign of the dividend)
    Srem,
    /// `bvand`
    And,
    /// `bvor`
    Or,
    /// `bvxor`
    Xor,
    /// `bvshl`
    Shl,
    /// `bvlshr`
    Lshr,
    /// `bvashr`
    Ashr,
}

impl BvOp {
    /// Every operator, in declaration order.
    pub const ALL: [BvOp; 13] = [
        BvOp::Add,
        BvOp::Sub,
        BvOp::Mul,
        BvOp::Udiv,
        BvOp::Sdiv,
        BvOp::Urem,
        BvOp::Srem,
        BvOp::And,
        BvOp::Or,
        BvOp::Xor,
        BvOp::Shl,
        BvOp::Lshr,
        BvOp::Ashr,
    ];

    /// Is `a op b` always `b op a`?
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            BvOp::Add | BvOp::Mul | BvOp::And | BvOp::Or | BvOp::Xor
        )
    }

    /// The operation on patterns of width `w`: the one definition, in
    /// [`wiser_num::bv`].
    pub fn apply(self, w: u32, a: u64, b: u64) -> u64 {
        use wiser_num::bv;
        match self {
            BvOp::Add => bv::add(w, a, b),
            BvOp::Sub => bv::sub(w, a, b),
            BvOp::Mul => bv::mul(w, a, b),
            BvOp::Udiv => bv::udiv(w, a, b),
            BvOp::Sdiv => bv::sdiv(w, a, b),
            BvOp::Urem => bv::urem(w, a, b),
            BvOp::Srem => bv::srem(w, a, b),
            BvOp::And => bv::and(a, b),
            BvOp::Or => bv::or(a, b),
            BvOp::Xor => bv::xor(a, b),
            BvOp::Shl => bv::shl(w, a, b),
            BvOp::Lshr => bv::lshr(w, a, b),
            BvOp::Ashr => bv::ashr(w, a, b),
        }
    }
}

/// Bit-vector comparisons. Their negations are comparisons too (`not (a
/// <u b)` is `b <=u a`), so only these four are needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BvPred {
    /// Unsigned `<`.
    Ult,
    /// Unsigned `<=`.
    Ule,
    /// Signed `<`.
    Slt,
    /// Signed `<=`.
    Sle,
}

impl BvPred {
    /// Is this a signed comparison?
    pub fn is_signed(self) -> bool {
        matches!(self, BvPred::Slt | BvPred::Sle)
    }

    /// Is this a strict comparison?
    pub fn is_strict(self) -> bool {
        matches!(self, BvPred::Ult | BvPred::Slt)
    }

    /// The comparison on patterns of width `w` (through [`wiser_num::bv`]).
    pub fn apply(self, w: u32, a: u64, b: u64) -> bool {
        use wiser_num::bv;
        match self {
            BvPred::Ult => bv::ult(a, b),
            BvPred::Ule => bv::ule(a, b),
            BvPred::Slt => bv::slt(w, a, b),
            BvPred::Sle => bv::sle(w, a, b),
        }
    }
}

/// Operations whose signed overflow [`Kind::SOvf`] tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OvfOp {
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a * b`
    Mul,
}

impl OvfOp {
    /// Does the signed operation on patterns of width `w` overflow
    /// (through [`wiser_num::bv`])?
    pub fn overflows(self, w: u32, a: u64, b: u64) -> bool {
        use wiser_num::bv;
        match self {
            OvfOp::Add => bv::sadd_overflows(w, a, b),
            OvfOp::Sub => bv::ssub_overflows(w, a, b),
            OvfOp::Mul => bv::smul_overflows(w, a, b),
        }
    }
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
    /// `if c then a else b`, for `a` and `b` of any one sort.
    Ite(Term, Term, Term),
    /// `array[index]`.
    Select(Term, Term),
    /// `array` with `index` mapped to `value`.
    Store(Term, Term, Term),
    /// The array of the given sort whose every element is the value.
    ConstArray(Sort, Term),
    /// `t <= 0`, with `t` linear, normalised by the gcd of its coefficients.
    Le(Term),
    /// `t == 0`, with `t` normalised like [`Kind::Le`] and its first
    /// coefficient positive.
    Eq(Term),
    /// Negation (never of a constant, a negation, a `Le` or a `BvCmp`).
    Not(Term),
    /// Conjunction of at least two sorted, distinct conjuncts.
    And(Box<[Term]>),
    /// Disjunction of at least two sorted, distinct disjuncts.
    Or(Box<[Term]>),
    /// A bit-vector constant: `bits` has no bit at or above `width`.
    Bv {
        /// The width, 1 to 64.
        width: u8,
        /// The pattern.
        bits: u64,
    },
    /// A binary bit-vector operation on operands of one width; commutative
    /// ones have their operands ordered, a constant on the right.
    BvBin(BvOp, Term, Term),
    /// Two's complement negation.
    BvNeg(Term),
    /// Bitwise complement.
    BvNot(Term),
    /// A bit-vector comparison.
    BvCmp(BvPred, Term, Term),
    /// Bit-vector equality, operands ordered (a constant on the right).
    BvEq(Term, Term),
    /// Zero or sign extension of `t` to the greater width `width`.
    Extend {
        /// Sign extension?
        signed: bool,
        /// The new width.
        width: u8,
        /// The extended term.
        t: Term,
    },
    /// The low `width` bits of `t` (narrower than `t`).
    Extract {
        /// The new width.
        width: u8,
        /// The truncated term.
        t: Term,
    },
    /// The value of a pattern as an unbounded integer, read as two's
    /// complement (`signed`) or unsigned.
    BvToInt {
        /// Read as two's complement?
        signed: bool,
        /// The pattern.
        t: Term,
    },
    /// An integer modulo 2^`width`, as a pattern.
    IntToBv {
        /// The width of the result.
        width: u8,
        /// The integer.
        t: Term,
    },
    /// Does the signed operation overflow the operands' width?
    SOvf(OvfOp, Term, Term),
    /// A float operation (see [`Term::fp`]): floats are bit-vector
    /// patterns, integers bit-vectors of their width or (unbounded) `Int`s,
    /// and the meaning is [`wiser_num::FloatOp::apply`].
    Fp(wiser_num::FloatOp, Box<[Term]>),
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

    /// The width and pattern, if this is a bit-vector constant.
    pub fn as_bv(&self) -> Option<(u8, u64)> {
        match self.0.kind {
            Kind::Bv { width, bits } => Some((width, bits)),
            _ => None,
        }
    }

    /// Is this a constant (integer, boolean or bit-vector)?
    pub fn is_const(&self) -> bool {
        matches!(self.0.kind, Kind::Int(_) | Kind::Bool(_) | Kind::Bv { .. })
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

    /// Calls `f` on each direct child, in the order of [`Term::children`],
    /// without allocating.
    pub(crate) fn each_child<'a>(&'a self, f: &mut impl FnMut(&'a Term)) {
        each_child(&self.0.kind, f)
    }

    /// Does the variable `v` occur in this term? Stops at the first
    /// occurrence; for small terms it allocates only its stack.
    pub fn mentions(&self, v: &Term) -> bool {
        let small = self.tree_size() <= 64;
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            if let Kind::Var(..) = t.kind() {
                if t == v {
                    return true;
                }
                continue;
            }
            if !small && !seen.insert(t.addr()) {
                continue;
            }
            each_child(&t.0.kind, &mut |c| stack.push(c));
        }
        false
    }

    /// The free variables, each once, in order of first occurrence.
    pub fn vars(&self) -> Vec<Term> {
        // Shared subterms are visited once, except in small trees, where
        // visiting them again costs less than the set (which was a third
        // of the run time of a gcd search that asks this per branch).
        let small = self.tree_size() <= 64;
        let mut seen = rustc_hash::FxHashSet::default();
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            if !small && !seen.insert(t.addr()) {
                continue;
            }
            if let Kind::Var(..) = t.kind() {
                if !out.contains(t) {
                    out.push(t.clone());
                }
            }
            // Pushed in order, then reversed: popped in order.
            let from = stack.len();
            each_child(&t.0.kind, &mut |c| stack.push(c));
            stack[from..].reverse();
        }
        out
    }
}

fn children_of(kind: &Kind) -> Vec<&Term> {
    let mut out = Vec::new();
    each_child(kind, &mut |t| out.push(t));
    out
}

/// The one list of where each kind keeps its children, in order: `$f` is
/// called on each, through `$iter` (`iter` or `iter_mut`) for the kinds
/// that hold a slice.
macro_rules! for_each_child {
    ($kind:expr, $f:expr, $iter:ident) => {
        match $kind {
            Kind::Int(_) | Kind::Bool(_) | Kind::Var(..) | Kind::Bv { .. } => {}
            Kind::Linear(ms, _) => ms.$iter().for_each(|(t, _)| $f(t)),
            Kind::Mul(a, b)
            | Kind::Div(a, b)
            | Kind::Rem(a, b)
            | Kind::Select(a, b)
            | Kind::BvBin(_, a, b)
            | Kind::BvCmp(_, a, b)
            | Kind::BvEq(a, b)
            | Kind::SOvf(_, a, b) => {
                $f(a);
                $f(b);
            }
            Kind::Ite(a, b, c) | Kind::Store(a, b, c) => {
                $f(a);
                $f(b);
                $f(c);
            }
            Kind::Le(a)
            | Kind::Eq(a)
            | Kind::Not(a)
            | Kind::BvNeg(a)
            | Kind::BvNot(a)
            | Kind::Extend { t: a, .. }
            | Kind::Extract { t: a, .. }
            | Kind::BvToInt { t: a, .. }
            | Kind::IntToBv { t: a, .. }
            | Kind::ConstArray(_, a) => $f(a),
            Kind::And(xs) | Kind::Or(xs) | Kind::Fp(_, xs) => xs.$iter().for_each(|t| $f(t)),
        }
    };
}

/// Calls `f` on each direct child, in order, without allocating: this
/// runs for every node built.
fn each_child<'a>(kind: &'a Kind, f: &mut impl FnMut(&'a Term)) {
    for_each_child!(kind, f, iter)
}

/// Calls `f` on each direct child, in the order of [`each_child`], to
/// replace it.
pub(crate) fn each_child_mut(kind: &mut Kind, f: &mut impl FnMut(&mut Term)) {
    for_each_child!(kind, f, iter_mut)
}

fn tree_size_of(kind: &Kind) -> u32 {
    let mut n = 1u32;
    each_child(kind, &mut |t| n = n.saturating_add(t.0.tree_size));
    n
}

fn sort_and_depth(kind: &Kind) -> (Sort, u32) {
    let mut depth = 0;
    each_child(kind, &mut |t| depth = depth.max(t.depth()));
    let depth = depth + 1;
    let sort = match kind {
        Kind::Int(_)
        | Kind::Linear(..)
        | Kind::Mul(..)
        | Kind::Div(..)
        | Kind::Rem(..)
        | Kind::BvToInt { .. } => Sort::Int,
        Kind::Bool(_)
        | Kind::Le(_)
        | Kind::Eq(_)
        | Kind::Not(_)
        | Kind::And(_)
        | Kind::Or(_)
        | Kind::BvCmp(..)
        | Kind::BvEq(..)
        | Kind::SOvf(..) => Sort::Bool,
        Kind::Var(_, s) => *s,
        Kind::Bv { width, .. }
        | Kind::Extend { width, .. }
        | Kind::Extract { width, .. }
        | Kind::IntToBv { width, .. } => Sort::Bv(*width),
        Kind::Ite(_, a, _) | Kind::BvBin(_, a, _) | Kind::BvNeg(a) | Kind::BvNot(a) => a.sort(),
        Kind::Select(a, _) => match a.sort() {
            Sort::Array(_, e) => e.into(),
            s => panic!("sort error: select from a term of sort {s:?}"),
        },
        Kind::Store(a, ..) => a.sort(),
        Kind::ConstArray(s, _) => *s,
        Kind::Fp(op, _) => crate::fp::result_sort(*op),
    };
    (sort, depth)
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

/// Takes the children out of `kind`, leaving a leaf. The children are
/// handles cloned before `kind`'s own are dropped, so that dropping it
/// frees none of them (no recursion) and each one's last handle is here.
fn take_children(kind: &mut Kind) -> Vec<Term> {
    let old = std::mem::replace(kind, Kind::Bool(false));
    let mut out = Vec::new();
    each_child(&old, &mut |t| out.push(t.clone()));
    out
}
