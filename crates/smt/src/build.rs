//! Term constructors for integers, booleans and arrays (bit-vectors are in
//! [`crate::bv_build`]). Each folds constants and normalises (see
//! [`crate::term`]), so a condition over constants is a constant and no
//! solver is ever asked about it.
//!
//! The integer rewrites here (linear sums, `a < b` as `a + 1 <= b`, gcd
//! division) hold only for mathematical integers: every integer
//! constructor asserts that its operands are integers, so none of them can
//! reach a bit-vector.

use crate::term::{Kind, Scalar, Sort, Term};
use std::sync::Arc;
use wiser_num::Int;

/// Constants from `SMALL_MIN` to `SMALL_MAX` are made once per thread and
/// shared: every assignment of a constant (`c = c + 1` on a concrete `c`)
/// would otherwise allocate a node per state, which each waiting state of
/// a wide search keeps (~70 bytes of its ~1,000,
/// `bench/programs/memory_bfs_21.imp`). Most constants in programs are
/// small, and more of them positive.
const SMALL_MIN: i64 = -256;
const SMALL_MAX: i64 = 1024;

/// The shared constants `SMALL_MIN..=SMALL_MAX`, in order, one table
/// per running thread: a node every worker cloned and dropped would put its
/// reference count on one cache line that all cores write, which held a
/// 16-core run of cheap states to 4x one core's (`bench/scale.py`). Terms
/// compare by structure, so a constant from another thread's table (a
/// stolen state's) is equal to this one's. The tables live as long as the
/// process, as the one shared table did: a thread that ends hands its
/// table on to the next thread that starts ([`FREE_TABLES`]), so there are
/// never more tables than threads ever ran at once.
struct Table(&'static [Term]);

/// Tables whose threads ended.
static FREE_TABLES: std::sync::Mutex<Vec<&'static [Term]>> = std::sync::Mutex::new(Vec::new());

impl Table {
    fn take() -> Table {
        let free = FREE_TABLES.lock().unwrap_or_else(|e| e.into_inner()).pop();
        Table(free.unwrap_or_else(|| {
            let table: Box<[Term]> = (SMALL_MIN..=SMALL_MAX)
                .map(|k| Term::new(Kind::Int(Int::from(k))))
                .collect();
            Box::leak(table)
        }))
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        FREE_TABLES
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(self.0);
    }
}

thread_local! {
    static SMALL: Table = Table::take();
}

/// A linear combination `c + Σ kᵢ·tᵢ` under construction.
type Lin = (Vec<(Term, Int)>, Int);

impl Term {
    /// An integer constant.
    pub fn int(n: impl Into<Int>) -> Term {
        let n = n.into();
        match n.to_i64() {
            Some(k) if (SMALL_MIN..=SMALL_MAX).contains(&k) => {
                SMALL.with(|t| t.0[(k - SMALL_MIN) as usize].clone())
            }
            _ => Term::new(Kind::Int(n)),
        }
    }

    /// A boolean constant.
    pub fn bool(b: bool) -> Term {
        Term::new(Kind::Bool(b))
    }

    /// A variable of any sort. A model maps names to values without
    /// sorts, so one name should be used at one sort only.
    pub fn var(name: impl Into<Arc<str>>, sort: Sort) -> Term {
        if let Sort::Bv(w) | Sort::Array(Scalar::Bv(w), _) | Sort::Array(_, Scalar::Bv(w)) = sort {
            assert!((1..=64).contains(&w), "bit-vector width {w}");
        }
        Term::new(Kind::Var(name.into(), sort))
    }

    /// An integer variable.
    pub fn int_var(name: impl Into<Arc<str>>) -> Term {
        Term::var(name, Sort::Int)
    }

    /// A boolean variable.
    pub fn bool_var(name: impl Into<Arc<str>>) -> Term {
        Term::var(name, Sort::Bool)
    }

    /// A variable array from integers to integers.
    pub fn array_var(name: impl Into<Arc<str>>) -> Term {
        Term::var(name, Sort::Array(Scalar::Int, Scalar::Int))
    }

    /// `a + b`.
    pub fn add(a: &Term, b: &Term) -> Term {
        ints(&[a, b]);
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            return Term::int(x.add(y));
        }
        let (ma, ca) = linear(a);
        let (mb, cb) = linear(b);
        make_linear(merge(ma, mb), ca.add(&cb))
    }

    /// `a - b`.
    pub fn sub(a: &Term, b: &Term) -> Term {
        ints(&[a, b]);
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            return Term::int(x.sub(y));
        }
        Term::add(a, &Term::neg(b))
    }

    /// `-a`.
    pub fn neg(a: &Term) -> Term {
        ints(&[a]);
        scale(a, &Int::from(-1))
    }

    /// `a * b`.
    pub fn mul(a: &Term, b: &Term) -> Term {
        ints(&[a, b]);
        match (a.as_int(), b.as_int()) {
            (Some(k), _) => scale(b, k),
            (_, Some(k)) => scale(a, k),
            _ if a <= b => Term::new(Kind::Mul(a.clone(), b.clone())),
            _ => Term::new(Kind::Mul(b.clone(), a.clone())),
        }
    }

    /// `a / b`, truncating toward zero; 0 when `b` is 0.
    pub fn div(a: &Term, b: &Term) -> Term {
        ints(&[a, b]);
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Term::int(x.div_trunc(y)),
            (_, Some(y)) if y.is_zero() => Term::int(0),
            (_, Some(y)) if *y == Int::ONE => a.clone(),
            (_, Some(y)) if *y == Int::from(-1) => Term::neg(a),
            (Some(x), _) if x.is_zero() => Term::int(0),
            _ => Term::new(Kind::Div(a.clone(), b.clone())),
        }
    }

    /// `a % b`, with the sign of `a`; 0 when `b` is 0.
    pub fn rem(a: &Term, b: &Term) -> Term {
        ints(&[a, b]);
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Term::int(x.rem_trunc(y)),
            (_, Some(y)) if y.is_zero() || y.abs() == Int::ONE => Term::int(0),
            (Some(x), _) if x.is_zero() => Term::int(0),
            _ => Term::new(Kind::Rem(a.clone(), b.clone())),
        }
    }

    /// `if c then a else b`, for `a` and `b` of one sort (any sort).
    pub fn ite(c: &Term, a: &Term, b: &Term) -> Term {
        assert_eq!(c.sort(), Sort::Bool, "sort error: ite condition {c}");
        assert_eq!(a.sort(), b.sort(), "sort error: ite branches {a} and {b}");
        match (c.as_bool(), a.as_bool(), b.as_bool()) {
            (Some(true), ..) => a.clone(),
            (Some(false), ..) => b.clone(),
            _ if a == b => a.clone(),
            (_, Some(true), Some(false)) => c.clone(),
            (_, Some(false), Some(true)) => Term::not(c),
            // A formula with a constant branch is a junction.
            (_, Some(true), _) => Term::or(c, b),
            (_, Some(false), _) => Term::and(&Term::not(c), b),
            (_, _, Some(true)) => Term::or(&Term::not(c), a),
            (_, _, Some(false)) => Term::and(c, a),
            // One orientation per condition: `ite(not c, a, b)` is
            // `ite(c, b, a)`.
            _ => match c.kind() {
                Kind::Not(inner) => Term::new(Kind::Ite(inner.clone(), b.clone(), a.clone())),
                _ => Term::new(Kind::Ite(c.clone(), a.clone(), b.clone())),
            },
        }
    }

    /// `a <= b`.
    pub fn le(a: &Term, b: &Term) -> Term {
        ints(&[a, b]);
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            return Term::bool(x <= y);
        }
        let (ms, c) = linear(&Term::sub(a, b));
        make_le(ms, c)
    }

    /// `a < b` (as `a + 1 <= b`: these are integers).
    pub fn lt(a: &Term, b: &Term) -> Term {
        ints(&[a, b]);
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            return Term::bool(x < y);
        }
        let (ms, c) = linear(&Term::sub(a, b));
        make_le(ms, c.add(&Int::ONE))
    }

    /// `a >= b`.
    pub fn ge(a: &Term, b: &Term) -> Term {
        Term::le(b, a)
    }

    /// `a > b`.
    pub fn gt(a: &Term, b: &Term) -> Term {
        Term::lt(b, a)
    }

    /// `a == b`, for integers or (as [`Term::bv_eq`]) bit-vectors.
    pub fn eq(a: &Term, b: &Term) -> Term {
        if a.sort().is_bv() {
            return Term::bv_eq(a, b);
        }
        ints(&[a, b]);
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            return Term::bool(x == y);
        }
        let (ms, c) = linear(&Term::sub(a, b));
        make_eq(ms, c)
    }

    /// `a != b`, for integers or bit-vectors.
    pub fn ne(a: &Term, b: &Term) -> Term {
        Term::not(&Term::eq(a, b))
    }

    /// `not a`.
    pub fn not(a: &Term) -> Term {
        assert_eq!(a.sort(), Sort::Bool, "sort error: not {a}");
        match a.kind() {
            Kind::Bool(b) => Term::bool(!b),
            Kind::Not(x) => x.clone(),
            // not (t <= 0)  <=>  t >= 1  <=>  -t + 1 <= 0
            Kind::Le(t) => {
                let (ms, c) = linear(&Term::neg(t));
                make_le(ms, c.add(&Int::ONE))
            }
            // Orders are total: not (a < b)  <=>  b <= a.
            Kind::BvCmp(p, x, y) => Term::bv_cmp(crate::bv_build::negate(*p), y, x),
            _ => Term::new(Kind::Not(a.clone())),
        }
    }

    /// `a and b`.
    pub fn and(a: &Term, b: &Term) -> Term {
        Term::and_all([a.clone(), b.clone()])
    }

    /// `a or b`.
    pub fn or(a: &Term, b: &Term) -> Term {
        Term::or_all([a.clone(), b.clone()])
    }

    /// The conjunction of `terms` (`true` when empty).
    pub fn and_all(terms: impl IntoIterator<Item = Term>) -> Term {
        junction(terms, true)
    }

    /// The disjunction of `terms` (`false` when empty).
    pub fn or_all(terms: impl IntoIterator<Item = Term>) -> Term {
        junction(terms, false)
    }

    /// `array[index]`, reading through stores whose index is known to be
    /// equal or known to differ.
    pub fn select(array: &Term, index: &Term) -> Term {
        check_array(array, index, None);
        let mut a = array;
        while let Kind::Store(inner, i, v) = a.kind() {
            if i == index {
                return v.clone();
            }
            if distinct_constants(i, index) {
                a = inner;
            } else {
                break;
            }
        }
        if let Kind::ConstArray(_, v) = a.kind() {
            return v.clone();
        }
        Term::new(Kind::Select(a.clone(), index.clone()))
    }

    /// The array of sort `sort` (an array sort) whose every element is
    /// `value` (of the element sort).
    pub fn const_array(sort: Sort, value: &Term) -> Term {
        match sort {
            Sort::Array(_, e) if Sort::from(e) == value.sort() => {}
            s => panic!(
                "sort error: a constant array of sort {s:?} with an element of sort {:?}",
                value.sort()
            ),
        }
        Term::new(Kind::ConstArray(sort, value.clone()))
    }

    /// `array` with `index` mapped to `value`; a store to the same index
    /// as the last store replaces it.
    pub fn store(array: &Term, index: &Term, value: &Term) -> Term {
        check_array(array, index, Some(value));
        if let Kind::Store(inner, i, _) = array.kind() {
            if i == index {
                return Term::new(Kind::Store(inner.clone(), index.clone(), value.clone()));
            }
        }
        Term::new(Kind::Store(array.clone(), index.clone(), value.clone()))
    }
}

/// Sort checks: the integer rewrites must never see another sort.
fn ints(ts: &[&Term]) {
    for t in ts {
        assert_eq!(t.sort(), Sort::Int, "sort error: {t} is not an integer");
    }
}

/// Checks that `array` is an array indexed by `index`'s sort (and holding
/// `value`'s).
fn check_array(array: &Term, index: &Term, value: Option<&Term>) {
    let Sort::Array(i, e) = array.sort() else {
        panic!("sort error: {array} is not an array");
    };
    assert_eq!(
        index.sort(),
        i.into(),
        "sort error: index {index} of {array}"
    );
    if let Some(v) = value {
        assert_eq!(v.sort(), e.into(), "sort error: element {v} of {array}");
    }
}

/// Are these two different constants (so they certainly differ)?
fn distinct_constants(a: &Term, b: &Term) -> bool {
    a.is_const() && b.is_const() && a != b
}

/// The linear view of an integer term.
pub(crate) fn linear(t: &Term) -> Lin {
    match t.kind() {
        Kind::Int(n) => (vec![], n.clone()),
        Kind::Linear(ms, c) => (ms.to_vec(), c.clone()),
        _ => (vec![(t.clone(), Int::ONE)], Int::ZERO),
    }
}

/// Merges two sorted monomial lists, adding coefficients of equal atoms.
fn merge(a: Vec<(Term, Int)>, b: Vec<(Term, Int)>) -> Vec<(Term, Int)> {
    if b.is_empty() {
        return a;
    }
    if a.is_empty() {
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut ia, mut ib) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let next = match (ia.peek(), ib.peek()) {
            (Some(x), Some(y)) => match x.0.cmp(&y.0) {
                std::cmp::Ordering::Less => ia.next(),
                std::cmp::Ordering::Greater => ib.next(),
                std::cmp::Ordering::Equal => {
                    let (t, k1) = ia.next().expect("peeked");
                    let (_, k2) = ib.next().expect("peeked");
                    Some((t, k1.add(&k2)))
                }
            },
            (Some(_), None) => ia.next(),
            (None, Some(_)) => ib.next(),
            (None, None) => break,
        };
        if let Some((t, k)) = next {
            if !k.is_zero() {
                out.push((t, k));
            }
        }
    }
    out
}

fn scale(t: &Term, k: &Int) -> Term {
    if k.is_zero() {
        return Term::int(0);
    }
    if *k == Int::ONE {
        return t.clone();
    }
    let (ms, c) = linear(t);
    let ms = ms.into_iter().map(|(t, x)| (t, x.mul(k))).collect();
    make_linear(ms, c.mul(k))
}

/// Builds the term for `c + Σ ms` (monomials sorted, nonzero).
pub(crate) fn make_linear(ms: Vec<(Term, Int)>, c: Int) -> Term {
    match ms.len() {
        0 => Term::int(c),
        1 if c.is_zero() && ms[0].1 == Int::ONE => ms.into_iter().next().expect("one").0,
        _ => Term::new(Kind::Linear(ms.into_boxed_slice(), c)),
    }
}

fn coefficient_gcd(ms: &[(Term, Int)]) -> Int {
    ms.iter().fold(Int::ZERO, |g, (_, k)| g.gcd(k))
}

/// `c + Σ ms <= 0`, normalised.
pub(crate) fn make_le(ms: Vec<(Term, Int)>, c: Int) -> Term {
    if ms.is_empty() {
        return Term::bool(c <= Int::ZERO);
    }
    let g = coefficient_gcd(&ms);
    // Σ g·aᵢxᵢ + c <= 0  <=>  Σ aᵢxᵢ <= floor(-c/g)  <=>  Σ aᵢxᵢ + ceil(c/g) <= 0
    let c = c.div_ceil(&g);
    Term::new(Kind::Le(make_linear(divide_coefficients(ms, &g), c)))
}

/// `c + Σ ms == 0`, normalised.
pub(crate) fn make_eq(ms: Vec<(Term, Int)>, c: Int) -> Term {
    if ms.is_empty() {
        return Term::bool(c.is_zero());
    }
    let mut g = coefficient_gcd(&ms);
    if !c.rem_trunc(&g).is_zero() {
        return Term::bool(false);
    }
    if ms[0].1.is_negative() {
        g = g.neg();
    }
    let c = c.div_trunc(&g);
    Term::new(Kind::Eq(make_linear(divide_coefficients(ms, &g), c)))
}

/// `ms` with each coefficient divided by `g`, which divides them all.
fn divide_coefficients(ms: Vec<(Term, Int)>, g: &Int) -> Vec<(Term, Int)> {
    if *g == Int::ONE {
        return ms;
    }
    ms.into_iter().map(|(t, k)| (t, k.div_trunc(g))).collect()
}

fn junction(terms: impl IntoIterator<Item = Term>, is_and: bool) -> Term {
    // `and` absorbs `true` and is decided by `false`; `or` the other way.
    let unit = is_and;
    let mut items: Vec<Term> = Vec::new();
    for t in terms {
        let flat: Vec<Term> = match t.kind() {
            Kind::And(xs) if is_and => xs.to_vec(),
            Kind::Or(xs) if !is_and => xs.to_vec(),
            _ => vec![t],
        };
        for x in flat {
            assert_eq!(x.sort(), Sort::Bool, "sort error: {x} is not a formula");
            match x.as_bool() {
                Some(b) if b == unit => {}
                Some(_) => return Term::bool(!unit),
                None => items.push(x),
            }
        }
    }
    items.sort();
    items.dedup();
    // x and not x is false; x or not x is true.
    for x in &items {
        let complement = match x.kind() {
            Kind::Not(inner) => inner.clone(),
            Kind::Le(_) | Kind::BvCmp(..) => Term::not(x),
            _ => continue,
        };
        if items.binary_search(&complement).is_ok() {
            return Term::bool(!unit);
        }
    }
    match items.len() {
        0 => Term::bool(unit),
        1 => items.pop().expect("one"),
        _ if is_and => Term::new(Kind::And(items.into_boxed_slice())),
        _ => Term::new(Kind::Or(items.into_boxed_slice())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> Term {
        Term::int_var("x")
    }
    fn y() -> Term {
        Term::int_var("y")
    }

    #[test]
    fn mentions_agrees_with_vars_in_small_and_large_terms() {
        let z = Term::int_var("z");
        let small = Term::lt(&Term::mul(&x(), &y()), &Term::int(4));
        // A term whose tree is large (shared subterms, doubled 40 times).
        let mut large = Term::add(&x(), &Term::int(1));
        for _ in 0..40 {
            large = Term::mul(&large, &large);
        }
        assert!(large.tree_size() > 64);
        for t in [&small, &large] {
            for v in [&x(), &y(), &z] {
                assert_eq!(t.mentions(v), t.vars().contains(v), "{t} mentions {v}");
            }
        }
        assert!(small.mentions(&y()) && !large.mentions(&y()));
    }

    #[test]
    fn sums_cancel_and_fold() {
        let t = Term::sub(&Term::add(&x(), &Term::int(3)), &x());
        assert_eq!(t.as_int(), Some(&Int::from(3)));
        let u = Term::add(&Term::add(&x(), &y()), &Term::add(&y(), &x()));
        assert_eq!(u, Term::mul(&Term::int(2), &Term::add(&y(), &x())));
    }

    #[test]
    fn comparisons_normalise() {
        // x < y and x + 1 <= y and not (x >= y) are the same term.
        let a = Term::lt(&x(), &y());
        let b = Term::le(&Term::add(&x(), &Term::int(1)), &y());
        let c = Term::not(&Term::ge(&x(), &y()));
        assert_eq!(a, b);
        assert_eq!(a, c);
        // 2x <= 5  <=>  x <= 2
        let d = Term::le(&Term::mul(&Term::int(2), &x()), &Term::int(5));
        assert_eq!(d, Term::le(&x(), &Term::int(2)));
        // 2x == 5 is false; 2x == 4 is x == 2; -x == 3 is x == -3
        assert_eq!(
            Term::eq(&Term::mul(&Term::int(2), &x()), &Term::int(5)).as_bool(),
            Some(false)
        );
        assert_eq!(
            Term::eq(&Term::mul(&Term::int(2), &x()), &Term::int(4)),
            Term::eq(&x(), &Term::int(2))
        );
        assert_eq!(
            Term::eq(&Term::neg(&x()), &Term::int(3)),
            Term::eq(&x(), &Term::int(-3))
        );
    }

    #[test]
    fn booleans_simplify() {
        let p = Term::lt(&x(), &y());
        assert_eq!(Term::and(&p, &Term::not(&p)).as_bool(), Some(false));
        assert_eq!(Term::or(&p, &Term::not(&p)).as_bool(), Some(true));
        assert_eq!(Term::and(&p, &Term::bool(true)), p);
        assert_eq!(
            Term::not(&Term::not(&Term::eq(&x(), &y()))),
            Term::eq(&x(), &y())
        );
    }

    #[test]
    fn division_folds_like_c() {
        assert_eq!(
            Term::div(&Term::int(-7), &Term::int(2)).as_int(),
            Some(&Int::from(-3))
        );
        assert_eq!(
            Term::rem(&Term::int(-7), &Term::int(2)).as_int(),
            Some(&Int::from(-1))
        );
        assert_eq!(Term::div(&x(), &Term::int(0)).as_int(), Some(&Int::ZERO));
    }

    #[test]
    fn read_over_write() {
        let a = Term::array_var("a");
        let s = Term::store(&Term::store(&a, &Term::int(1), &x()), &Term::int(2), &y());
        assert_eq!(Term::select(&s, &Term::int(1)), x());
        assert_eq!(Term::select(&s, &Term::int(2)), y());
        assert_eq!(
            Term::select(&s, &Term::int(3)),
            Term::select(&a, &Term::int(3))
        );
    }

    #[test]
    fn deep_terms_drop_without_overflow() {
        let mut t = x();
        for _ in 0..200_000 {
            t = Term::mul(&t, &y());
        }
        assert!(t.depth() > 100_000);
        drop(t);
    }
}
