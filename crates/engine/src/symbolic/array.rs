//! Symbolic arrays: a term for everything up to the last store at a
//! non-constant index, and a persistent map of the cells written at
//! constant indices since.
//!
//! As one chain of `store` terms, an array written at `n` constant indices
//! costs `O(n)` per read ([`Term::select`] walks the chain), so a program
//! that fills an array and reads it back is quadratic. Here a read at a
//! constant index is a map look-up (`O(log n)`), a write at a constant
//! index a persistent insert (`O(log n)`, nothing copied when a state is
//! cloned at a fork, and nothing at all by [`SymArray::store_in`] when the
//! state holds the only handle on the cells), and the chain is built only
//! when a read or write at a non-constant index, or the caller, needs the
//! array as one term ([`SymArray::term`]). That term is cached and shared
//! by the clones; once made, writes at constant indices extend it in
//! `O(1)`, so alternating constant writes and symbolic reads do not
//! rebuild it. A read of a small table of constants at a non-constant
//! index is the choice among its cells instead ([`SymArray::select`]).
//!
//! The values are the same as with one chain: the cells' indices are
//! distinct constants, so they commute, and a read at a constant index
//! missing from the map reads the base as [`Term::select`] would have after
//! walking past them.

use std::fmt;
use std::sync::{Arc, OnceLock};

use rpds::RedBlackTreeMapSync;
use wiser_num::Int;
use wiser_smt::{Kind, Sort, Term};

/// The most cells over a constant base that a read at a symbolic index
/// spells out as a choice among them (see [`SymArray::select`]).
const MAX_TABLE: usize = 16;

/// An array value of the symbolic algebra.
#[derive(Clone)]
pub struct SymArray {
    /// The initial array, or everything up to the last store at a
    /// non-constant index.
    base: Term,
    /// The cells stored at constant indices since `base`, by the index's
    /// value ([`key`]), each with its index term. Keyed by the value, not
    /// the term: comparing two keys then reads no term node, which made
    /// look-ups in arrays of a million cells cache-bound.
    cells: RedBlackTreeMapSync<Int, (Term, Term)>,
    /// `base` with every cell stored, made on demand and shared by clones.
    full: Arc<OnceLock<Term>>,
}

impl SymArray {
    /// The array that `base` (a term of an array sort) is.
    pub fn new(base: Term) -> SymArray {
        SymArray {
            base,
            cells: RedBlackTreeMapSync::new_sync(),
            full: Arc::new(OnceLock::new()),
        }
    }

    /// Feeds the array's structure (base and constant cells) to a hasher:
    /// equal arrays built the same way hash alike.
    pub fn hash_into<H: std::hash::Hasher>(&self, h: &mut H) {
        use std::hash::Hash;
        self.base.hash(h);
        for (i, v) in self.cells.values() {
            i.hash(h);
            v.hash(h);
        }
    }

    /// The number of cells stored at constant indices since the base.
    pub fn cells(&self) -> usize {
        self.cells.size()
    }

    /// The terms the array is made of: its base, then the values of its
    /// cells (their indices are constants).
    pub fn parts(&self) -> impl Iterator<Item = &Term> {
        std::iter::once(&self.base).chain(self.cells.values().map(|(_, v)| v))
    }

    /// May a cell hold the constant `v` (see
    /// `Symbolic::array_may_hold`)? Only a negative `v`, a reference made
    /// by `new`, is ruled out of an input or constant array.
    pub fn may_hold(&self, v: &Int) -> bool {
        let base_may = match self.base.kind() {
            Kind::Var(..) => *v >= Int::ZERO,
            Kind::ConstArray(_, c) => c.as_int().is_none_or(|c| c == v),
            _ => true,
        };
        base_may
            || self
                .cells
                .values()
                .any(|(_, c)| c.as_int().is_none_or(|c| c == v))
    }

    /// `self[index]`.
    pub fn select(&self, index: &Term) -> Term {
        if let Some(k) = key(index) {
            if let Some((_, v)) = self.cells.get(&k) {
                return v.clone();
            }
            return Term::select(&self.base, index);
        }
        if let (Kind::ConstArray(_, default), true) =
            (self.base.kind(), self.cells.size() <= MAX_TABLE)
        {
            // A small table of constants read at a symbolic index, as the
            // choice among its cells: the same value, which the solver
            // decides on bit-vectors alone (Z3 took seconds per query
            // on a sum of a few such reads through the array theory).
            return self.cells.values().fold(default.clone(), |rest, (i, v)| {
                Term::ite(&Term::equals(index, i), v, &rest)
            });
        }
        Term::select(self.term(), index)
    }

    /// `self` with `index` mapped to `value`.
    pub fn store(&self, index: &Term, value: &Term) -> SymArray {
        let mut a = self.clone();
        a.store_in(index, value);
        a
    }

    /// Maps `index` to `value` in `self`: [`SymArray::store`] without the
    /// copy of the path to the cell when `self` holds the only handle on
    /// it (a state writing an array it has written since its last fork).
    pub fn store_in(&mut self, index: &Term, value: &Term) {
        let Some(k) = key(index) else {
            *self = SymArray::new(Term::store(self.term(), index, value));
            return;
        };
        // Checks the sorts as `Term::store` would, and keeps a term
        // already made up to date at the cost of one node.
        let full = match self.full.get() {
            Some(t) => OnceLock::from(Term::store(t, index, value)),
            None => {
                check_sorts(&self.base, index, value);
                OnceLock::new()
            }
        };
        self.cells.insert_mut(k, (index.clone(), value.clone()));
        self.full = Arc::new(full);
    }

    /// The array as one term: the base with every cell stored.
    pub fn term(&self) -> &Term {
        self.full.get_or_init(|| {
            self.cells
                .values()
                .fold(self.base.clone(), |a, (i, v)| Term::store(&a, i, v))
        })
    }
}

impl SymArray {
    /// `if guard then a else b`, cell by cell when both have the same
    /// base (so constant-index reads stay look-ups after a merge), as one
    /// `ite` term otherwise.
    pub fn ite(guard: &Term, a: &SymArray, b: &SymArray) -> SymArray {
        if Arc::ptr_eq(&a.full, &b.full) || (a.base == b.base && a.cells == b.cells) {
            return a.clone();
        }
        if a.base != b.base {
            return SymArray::new(Term::ite(guard, a.term(), b.term()));
        }
        let mut cells = a.cells.clone();
        for (k, (i, v)) in a.cells.iter() {
            let w = b.select(i);
            if &w != v {
                cells.insert_mut(k.clone(), (i.clone(), Term::ite(guard, v, &w)));
            }
        }
        for (k, (i, w)) in b.cells.iter() {
            if !a.cells.contains_key(k) {
                let v = Term::ite(guard, &a.select(i), w);
                cells.insert_mut(k.clone(), (i.clone(), v));
            }
        }
        SymArray {
            base: a.base.clone(),
            cells,
            full: Arc::new(OnceLock::new()),
        }
    }
}

/// The value of a constant index, the key of its cell; `None` for any
/// other index. One array's indices all have one sort, so values of
/// distinct constants are distinct.
fn key(index: &Term) -> Option<Int> {
    if let Some(n) = index.as_int() {
        return Some(n.clone());
    }
    if let Some((_, bits)) = index.as_bv() {
        return Some(Int::from_u64(bits));
    }
    index.as_bool().map(|b| Int::from(i64::from(b)))
}

/// The sort checks of [`Term::store`]: `array` is an array indexed by
/// `index`'s sort and holding `value`'s.
fn check_sorts(array: &Term, index: &Term, value: &Term) {
    let Sort::Array(i, e) = array.sort() else {
        panic!("sort error: {array} is not an array");
    };
    assert_eq!(
        index.sort(),
        i.into(),
        "sort error: index {index} of {array}"
    );
    assert_eq!(
        value.sort(),
        e.into(),
        "sort error: element {value} of {array}"
    );
}

impl fmt::Debug for SymArray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.term())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_smt::Scalar;

    fn sort() -> Sort {
        Sort::Array(Scalar::Int, Scalar::Int)
    }

    #[test]
    fn constant_cells_read_back_and_miss_to_the_base() {
        let a = SymArray::new(Term::var("a", sort()));
        let b = a.store(&Term::int(1), &Term::int(10));
        let c = b.store(&Term::int(2), &Term::int(20));
        let d = c.store(&Term::int(1), &Term::int(11));
        assert_eq!(d.select(&Term::int(1)), Term::int(11));
        assert_eq!(d.select(&Term::int(2)), Term::int(20));
        assert_eq!(b.select(&Term::int(1)), Term::int(10));
        assert_eq!(
            d.select(&Term::int(3)),
            Term::select(&Term::var("a", sort()), &Term::int(3))
        );
    }

    #[test]
    fn a_write_in_place_leaves_the_clones_as_they_were() {
        let mut a = SymArray::new(Term::var("a", sort()));
        a.store_in(&Term::int(1), &Term::int(10));
        let kept = a.clone();
        a.store_in(&Term::int(1), &Term::int(11));
        a.store_in(&Term::int(-2), &Term::int(12));
        assert_eq!(kept.select(&Term::int(1)), Term::int(10));
        assert_eq!(kept.cells(), 1);
        assert_eq!(a.select(&Term::int(1)), Term::int(11));
        assert_eq!(a.select(&Term::int(-2)), Term::int(12));
        // Bit-vector indices are keyed by their bits.
        let bv = Sort::Array(Scalar::Bv(8), Scalar::Int);
        let mut b = SymArray::new(Term::var("b", bv));
        b.store_in(&Term::bv(8, 255), &Term::int(1));
        assert_eq!(b.select(&Term::bv(8, 255)), Term::int(1));
        assert_eq!(
            b.select(&Term::bv(8, 1)),
            Term::select(&Term::var("b", bv), &Term::bv(8, 1))
        );
    }

    #[test]
    fn symbolic_accesses_see_every_cell() {
        let x = Term::var("x", Sort::Int);
        let a = SymArray::new(Term::const_array(sort(), &Term::int(0)));
        let b = a.store(&Term::int(1), &Term::int(10));
        let whole = Term::store(
            &Term::const_array(sort(), &Term::int(0)),
            &Term::int(1),
            &Term::int(10),
        );
        // A table of constants is read as the choice among its cells.
        let choice = Term::ite(&Term::eq(&x, &Term::int(1)), &Term::int(10), &Term::int(0));
        assert_eq!(b.select(&x), choice);
        // Over an input array, as a read of the whole term.
        let input = SymArray::new(Term::var("in", sort())).store(&Term::int(1), &Term::int(10));
        let stored = Term::store(&Term::var("in", sort()), &Term::int(1), &Term::int(10));
        assert_eq!(input.select(&x), Term::select(&stored, &x));
        let c = b.store(&x, &Term::int(5));
        assert_eq!(c.select(&x), Term::int(5));
        // A constant read after a symbolic store cannot pass it.
        assert_eq!(
            c.select(&Term::int(1)),
            Term::select(&Term::store(&whole, &x, &Term::int(5)), &Term::int(1))
        );
        // Once made, the term is kept up to date by constant stores.
        let d = c.store(&Term::int(2), &Term::int(7));
        assert!(d.full.get().is_some());
        assert_eq!(
            d.term(),
            &Term::store(
                &Term::store(&whole, &x, &Term::int(5)),
                &Term::int(2),
                &Term::int(7)
            )
        );
    }
}
