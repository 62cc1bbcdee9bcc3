//! Substituting terms for variables: a term rebuilt bottom-up through the
//! simplifying constructors, so `x + 1 <= n` with `x := 3, n := 4` is the
//! constant `true`. Used where a formula over one set of variables must
//! speak about another (an invariant, stated over its cut point's
//! variables, instantiated at a path's values when it is checked).

use crate::term::{Kind, Term};
use rustc_hash::FxHashMap;

impl Term {
    /// This term with every variable `v` for which `value(v)` is `Some(t)`
    /// replaced by `t` (of the variable's sort); other variables stay.
    /// Iterative, with each shared subterm rebuilt once.
    pub fn substitute(&self, value: &dyn Fn(&Term) -> Option<Term>) -> Term {
        let mut done: FxHashMap<usize, Term> = FxHashMap::default();
        let mut stack: Vec<(&Term, bool)> = vec![(self, false)];
        while let Some((t, expanded)) = stack.pop() {
            if done.contains_key(&t.addr()) {
                continue;
            }
            if !expanded {
                stack.push((t, true));
                for c in t.children() {
                    if !done.contains_key(&c.addr()) {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let new = {
                let get = |c: &Term| done[&c.addr()].clone();
                rebuild(t, &get, value)
            };
            done.insert(t.addr(), new);
        }
        done.remove(&self.addr()).expect("the root was rebuilt")
    }
}

/// `t` with its children replaced by `get(child)` (and a variable by
/// `value(var)` if given), through the simplifying constructors.
fn rebuild(t: &Term, get: &dyn Fn(&Term) -> Term, value: &dyn Fn(&Term) -> Option<Term>) -> Term {
    match t.kind() {
        Kind::Var(..) => value(t).unwrap_or_else(|| t.clone()),
        Kind::Int(_) | Kind::Bool(_) | Kind::Bv { .. } => t.clone(),
        Kind::Linear(ms, c) => ms.iter().fold(Term::int(c.clone()), |sum, (x, k)| {
            Term::add(&sum, &Term::mul(&get(x), &Term::int(k.clone())))
        }),
        Kind::Mul(a, b) => Term::mul(&get(a), &get(b)),
        Kind::Div(a, b) => Term::div(&get(a), &get(b)),
        Kind::Rem(a, b) => Term::rem(&get(a), &get(b)),
        Kind::Ite(c, a, b) => Term::ite(&get(c), &get(a), &get(b)),
        Kind::Select(a, i) => Term::select(&get(a), &get(i)),
        Kind::Store(a, i, v) => Term::store(&get(a), &get(i), &get(v)),
        Kind::ConstArray(sort, v) => Term::const_array(*sort, &get(v)),
        Kind::Le(x) => Term::le(&get(x), &Term::int(0)),
        Kind::Eq(x) => Term::eq(&get(x), &Term::int(0)),
        Kind::Not(x) => Term::not(&get(x)),
        Kind::And(xs) => Term::and_all(xs.iter().map(get)),
        Kind::Or(xs) => Term::or_all(xs.iter().map(get)),
        Kind::BvBin(op, a, b) => Term::bv_bin(*op, &get(a), &get(b)),
        Kind::BvNeg(a) => Term::bv_neg(&get(a)),
        Kind::BvNot(a) => Term::bv_not(&get(a)),
        Kind::BvCmp(p, a, b) => Term::bv_cmp(*p, &get(a), &get(b)),
        Kind::BvEq(a, b) => Term::bv_eq(&get(a), &get(b)),
        Kind::Extend { signed, width, t } => Term::bv_resize(&get(t), *width, *signed),
        Kind::Extract { width, t } => Term::bv_resize(&get(t), *width, false),
        Kind::BvToInt { signed, t } => Term::bv_to_int(&get(t), *signed),
        Kind::IntToBv { width, t } => Term::int_to_bv(&get(t), *width),
        Kind::SOvf(op, a, b) => Term::signed_overflow(*op, &get(a), &get(b)),
        Kind::Fp(op, xs) => {
            let args: Vec<Term> = xs.iter().map(get).collect();
            Term::fp(*op, &args)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::term::{BvPred, Sort};
    use crate::Term;

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
