//! Substituting terms for variables: a term rebuilt bottom-up through the
//! simplifying constructors, so `x + 1 <= n` with `x := 3, n := 4` is the
//! constant `true`. Used where a formula over one set of variables must
//! speak about another (an invariant, stated over its cut point's
//! variables, instantiated at a path's values when it is checked).

use crate::term::{each_child_mut, Kind, Sort, Term};
use rustc_hash::FxHashMap;

/// The value of `root` computed bottom-up: `value(t, of)` makes the value
/// of each node `t` from its children's (`of(child)`). Iterative, with
/// each shared subterm computed once; rebuilding a term
/// ([`Term::substitute`], [`Term::copied`]) and evaluating one under a
/// model ([`crate::Model::eval`]) are such folds.
pub(crate) fn fold_up<V: Clone>(
    root: &Term,
    value: impl FnMut(&Term, &dyn Fn(&Term) -> V) -> V,
) -> V {
    let mut done: FxHashMap<usize, V> = FxHashMap::default();
    fill(root, &mut done, value);
    done.remove(&root.addr()).expect("the root was computed")
}

/// Computes the value of every node under `root` that `done` (by node
/// address) does not hold yet, children first, into `done`.
fn fill<V: Clone>(
    root: &Term,
    done: &mut FxHashMap<usize, V>,
    mut value: impl FnMut(&Term, &dyn Fn(&Term) -> V) -> V,
) {
    let mut stack: Vec<(&Term, bool)> = vec![(root, false)];
    while let Some((t, expanded)) = stack.pop() {
        if done.contains_key(&t.addr()) {
            continue;
        }
        if !expanded {
            stack.push((t, true));
            t.each_child(&mut |c| {
                if !done.contains_key(&c.addr()) {
                    stack.push((c, false));
                }
            });
            continue;
        }
        let v = value(t, &|c| done[&c.addr()].clone());
        done.insert(t.addr(), v);
    }
}

/// `root` rebuilt bottom-up: `build(t, kids)` makes the new node of each
/// node `t` from its children's new nodes (in [`Term::children`] order).
fn bottom_up(root: &Term, mut build: impl FnMut(&Term, Vec<Term>) -> Term) -> Term {
    fold_up(root, |t, of| {
        let mut kids = Vec::new();
        t.each_child(&mut |c| kids.push(of(c)));
        build(t, kids)
    })
}

impl Term {
    /// [`fold_up`] over this term with a memo the caller keeps across
    /// terms (by node address, so only while the terms that filled it are
    /// alive): a subterm several terms share is computed once.
    pub fn fold_up_with<V: Clone>(
        &self,
        memo: &mut FxHashMap<usize, V>,
        value: impl FnMut(&Term, &dyn Fn(&Term) -> V) -> V,
    ) -> V {
        fill(self, memo, value);
        memo[&self.addr()].clone()
    }

    /// This term with every variable `v` for which `value(v)` is `Some(t)`
    /// replaced by `t` (of the variable's sort); other variables stay.
    /// Iterative, with each shared subterm rebuilt once.
    pub fn substitute(&self, value: &dyn Fn(&Term) -> Option<Term>) -> Term {
        bottom_up(self, |t, kids| match t.kind() {
            Kind::Var(..) => value(t).unwrap_or_else(|| t.clone()),
            _ => t.with_children(&kids),
        })
    }

    /// The same term made of nodes of its own, none shared with the
    /// original (each shared subterm copied once), for a state that moves
    /// to another thread: a node two threads clone and drop has one
    /// reference count that both cores write. A term of more than `budget`
    /// nodes (counted down) is left as it is.
    pub fn copied(&self, budget: &mut usize) -> Term {
        let size = self.tree_size() as usize;
        if size > *budget {
            return self.clone();
        }
        *budget -= size;
        bottom_up(self, |t, kids| {
            let mut kind = t.kind().clone();
            let mut kids = kids.into_iter();
            each_child_mut(&mut kind, &mut |c| {
                *c = kids.next().expect("one new node a child")
            });
            Term::new(kind)
        })
    }

    /// A term of this one's kind over new children (in [`Term::children`]
    /// order, of their sorts), through the simplifying constructors; this
    /// term itself when the children are the same.
    pub fn with_children(&self, c: &[Term]) -> Term {
        if self.children().iter().zip(c).all(|(a, b)| a.ptr_eq(b)) {
            return self.clone();
        }
        match self.kind() {
            Kind::Linear(ms, k) => ms
                .iter()
                .zip(c)
                .fold(Term::int(k.clone()), |acc, ((_, m), x)| {
                    Term::add(&acc, &Term::mul(&Term::int(m.clone()), x))
                }),
            Kind::Mul(..) => Term::mul(&c[0], &c[1]),
            Kind::Div(..) => Term::div(&c[0], &c[1]),
            Kind::Rem(..) => Term::rem(&c[0], &c[1]),
            Kind::Ite(..) => Term::ite(&c[0], &c[1], &c[2]),
            Kind::Select(..) => Term::select(&c[0], &c[1]),
            Kind::Store(..) => Term::store(&c[0], &c[1], &c[2]),
            Kind::ConstArray(sort, _) => Term::const_array(*sort, &c[0]),
            Kind::Le(_) => Term::le(&c[0], &Term::int(0)),
            Kind::Eq(_) => Term::eq(&c[0], &Term::int(0)),
            Kind::Not(_) => Term::not(&c[0]),
            Kind::And(_) => Term::and_all(c.iter().cloned()),
            Kind::Or(_) => Term::or_all(c.iter().cloned()),
            Kind::BvBin(op, ..) => Term::bv_bin(*op, &c[0], &c[1]),
            Kind::BvNeg(_) => Term::bv_neg(&c[0]),
            Kind::BvNot(_) => Term::bv_not(&c[0]),
            Kind::BvCmp(p, ..) => Term::bv_cmp(*p, &c[0], &c[1]),
            Kind::BvEq(..) => Term::bv_eq(&c[0], &c[1]),
            Kind::Extend { signed, width, .. } => Term::bv_resize(&c[0], *width, *signed),
            Kind::Extract { width, .. } => Term::bv_resize(&c[0], *width, false),
            Kind::BvToInt { signed, .. } => Term::bv_to_int(&c[0], *signed),
            Kind::IntToBv { width, .. } => Term::int_to_bv(&c[0], *width),
            Kind::SOvf(op, ..) => Term::signed_overflow(*op, &c[0], &c[1]),
            Kind::Fp(op, _) => Term::fp(*op, c),
            Kind::Int(_) | Kind::Bool(_) | Kind::Var(..) | Kind::Bv { .. } => self.clone(),
        }
    }

    /// `a == b` for terms of any one sort: integer, bit-vector or array
    /// equality, or for booleans `a <=> b`.
    pub fn equals(a: &Term, b: &Term) -> Term {
        match a.sort() {
            Sort::Bv(_) => Term::bv_eq(a, b),
            Sort::Bool => Term::or(&Term::and(a, b), &Term::and(&Term::not(a), &Term::not(b))),
            _ => Term::eq(a, b),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::term::{BvPred, Sort};
    use crate::Term;

    #[test]
    fn a_copy_is_equal_shares_no_node_and_keeps_its_own_sharing() {
        let (x, y) = (Term::int_var("x"), Term::int_var("y"));
        let sum = Term::add(&x, &y);
        let t = Term::ite(&Term::le(&sum, &Term::int(3)), &Term::mul(&sum, &sum), &x);
        let mut budget = 100;
        let c = t.copied(&mut budget);
        assert_eq!(c, t);
        assert_eq!(budget, 100 - t.tree_size() as usize);
        let mut walk = vec![(&c, &t)];
        while let Some((a, b)) = walk.pop() {
            assert!(!a.ptr_eq(b), "{a} is shared");
            walk.extend(a.children().into_iter().zip(b.children()));
        }
        // `x + y` is one node in the original, and one in the copy.
        let square = &c.children()[1];
        let (l, r) = (square.children()[0], square.children()[1]);
        assert!(l.ptr_eq(r));
        // A term past the budget stays as it is.
        let mut small = 2;
        assert!(t.copied(&mut small).ptr_eq(&t));
        assert_eq!(small, 2);
    }

    #[test]
    fn substituting_constants_folds() {
        let (x, n) = (Term::int_var("x"), Term::int_var("n"));
        let f = Term::le(&Term::add(&x, &Term::int(1)), &n);
        let three = |v: &Term| match v.as_var().map(|s| &**s) {
            Some("x") => Some(Term::int(3)),
            Some("n") => Some(Term::int(4)),
            _ => None,
        };
        assert_eq!(f.substitute(&three).as_bool(), Some(true));
        // A variable without a value stays.
        let only_x = |v: &Term| (v.as_var().map(|s| &**s) == Some("x")).then(|| Term::int(3));
        assert_eq!(f.substitute(&only_x), Term::le(&Term::int(4), &n));
    }

    #[test]
    fn bit_vectors_and_arrays_are_rebuilt() {
        let i = Term::var("i", Sort::Bv(32));
        let a = Term::var(
            "a",
            Sort::Array(crate::Scalar::Bv(32), crate::Scalar::Bv(8)),
        );
        let f = Term::bv_cmp(
            BvPred::Slt,
            &Term::bv_resize(&Term::select(&a, &i), 32, true),
            &i,
        );
        let j = Term::var("j", Sort::Bv(32));
        let g = f.substitute(&|v| (v.as_var().map(|s| &**s) == Some("i")).then(|| j.clone()));
        let want = Term::bv_cmp(
            BvPred::Slt,
            &Term::bv_resize(&Term::select(&a, &j), 32, true),
            &j,
        );
        assert_eq!(g, want);
    }
}
