//! Path conditions for people.
//!
//! A path condition as the engine keeps it is a list of normalised terms:
//! exact, but noisy to read. [`path_text`] prints the same condition
//! (never a weaker or stronger one) more simply:
//! * a read of an array through the stores of the path
//!   (`a{i := a[j]}{j := a[i]}[i]`) is resolved where the indices are
//!   equal or distinct (syntactically, or by a conjunct of the path), and
//!   otherwise printed as a conditional, `(if i == j then … else a[i])`;
//! * repeated conjuncts are printed once;
//! * identities are dropped: `3*(x / 3) + x % 3 == x` and the bounds of a
//!   remainder (`x % 3 <= 2`) hold for every `x`;
//! * the bounds of each integer variable (`k >= 1`, `k != 5`, `k <= 12`)
//!   are collected into the tightest interval, `1 <= k <= 12 and k != 5`,
//!   where the variable was first bounded; a bit-vector variable's bounds
//!   (a C read) are printed in its own signedness (`-4 <= x <= -1`, not
//!   `4294967292 <= x`), as the caller says, without the ends of its
//!   type's range;
//! * variables are printed under the names the caller gives (a C read
//!   `read#1` as `__VERIFIER_nondet_int()#1`);
//! * a large condition (a merged path's, whose tree can be exponentially
//!   larger than its DAG) names each shared subterm once across all its
//!   conjuncts, `… where $1 = …; $2 = …`, and is cut at
//!   [`wiser_smt::MAX_TEXT`] bytes ([`wiser_smt::SharedPrinter`]).
//!
//! Every engine's report prints path conditions through here (text and
//! JSON alike).

use crate::path::{as_bound, Interval, ValueSet};
use rustc_hash::FxHashMap;
use wiser_num::{Int, IntTy};
use wiser_smt::{Kind, SharedPrinter, Sort, Term};

/// How the caller names the variables of a path condition.
pub struct Names<'a> {
    /// The name to print for variable `v`, if not `v` itself.
    pub rename: &'a dyn Fn(&str) -> Option<String>,
    /// Is bit-vector variable `v` a signed integer?
    pub signed: &'a dyn Fn(&str) -> bool,
}

impl Names<'_> {
    /// Every variable under its own name, bit-vectors unsigned.
    pub const PLAIN: Names<'static> = Names {
        rename: &|_| None,
        signed: &|_| false,
    };
}

/// The conjunction of `terms`, simplified as the module says, with each
/// variable `v` printed as `names.rename(v)` when that gives a name.
pub fn path_text(terms: &[Term], names: &Names<'_>) -> String {
    let mut conjuncts: Vec<Term> = Vec::new();
    for t in terms {
        flatten(t, &mut conjuncts);
    }
    let facts = conjuncts.clone();
    let mut memo = FxHashMap::default();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut items: Vec<Item> = Vec::new();
    let mut bounds: Vec<(Term, ValueSet)> = Vec::new();
    // Where each variable's set is in `bounds` (a path of 100,000 reads
    // has as many: a scan per bound took minutes).
    let mut bounded: FxHashMap<Term, usize> = FxHashMap::default();
    for c in &conjuncts {
        let c = resolve(c, &facts, &mut memo);
        let mut flat = Vec::new();
        flatten(&c, &mut flat);
        for c in flat {
            if c.as_bool() == Some(true) || is_identity(&c) || !seen.insert(c.clone()) {
                continue;
            }
            match as_bound(&c) {
                Some((x, set)) if x.as_var().is_some() => match bounded.get(&x) {
                    Some(&i) => bounds[i].1 = bounds[i].1.meet(&set),
                    None => {
                        bounded.insert(x.clone(), bounds.len());
                        items.push(Item::Bounds(bounds.len()));
                        bounds.push((x, set));
                    }
                },
                _ => items.push(Item::Term(c)),
            }
        }
    }
    let terms: Vec<Term> = items
        .iter()
        .filter_map(|item| match item {
            Item::Term(t) => Some(t.clone()),
            Item::Bounds(_) => None,
        })
        .collect();
    // Conjuncts share subterms: they are named once across all of them.
    let mut printer = SharedPrinter::new(&terms);
    let mut parts: Vec<String> = Vec::new();
    for item in items {
        if printer.is_full() {
            parts.push("…".into());
            break;
        }
        match item {
            Item::Term(t) => parts.push(match t.kind() {
                // `and` binds tighter than `or` when the conjuncts are joined.
                Kind::Or(_) => format!("({})", printer.text(&t)),
                _ => printer.text(&t),
            }),
            Item::Bounds(i) => {
                let (x, set) = &bounds[i];
                let name = x.to_string();
                // A bit-vector variable is an integer of its width, signed
                // as the caller says; its set holds the unsigned values.
                let ty = match x.sort() {
                    Sort::Bv(w) => IntTy::fixed(u32::from(w), (names.signed)(&name)),
                    _ => None,
                };
                let (set, range) = match ty {
                    Some(ty) => (as_values_of(set, ty), Interval::new(ty.min(), ty.max())),
                    None => (set.clone(), Interval::new(None, None)),
                };
                parts.extend(set_text(&name, &set, &range));
            }
        }
    }
    if parts.is_empty() {
        return "true".into();
    }
    let text = parts.join(" and ") + &printer.definitions();
    renamed(&text, names.rename)
}

/// A set of unsigned bit patterns read as values of `ty` (two's
/// complement for a signed type: the upper half moves below zero), by
/// wiser-num's conversion.
fn as_values_of(set: &ValueSet, ty: IntTy) -> ValueSet {
    let (Some(min), Some(max)) = (ty.min(), ty.max()) else {
        return set.clone();
    };
    let mut parts = Vec::new();
    for p in set.parts() {
        let (Some(lo), Some(hi)) = (&p.lo, &p.hi) else {
            return set.clone();
        };
        if *hi <= max {
            parts.push(p.clone());
        } else if *lo > max {
            parts.push(Interval::range(ty.wrap(lo), ty.wrap(hi)));
        } else {
            parts.push(Interval::range(lo.clone(), max.clone()));
            parts.push(Interval::range(min.clone(), ty.wrap(hi)));
        }
    }
    ValueSet::from_parts(parts)
}

enum Item {
    Term(Term),
    /// The interval of `bounds[i]`.
    Bounds(usize),
}

fn flatten(t: &Term, out: &mut Vec<Term>) {
    match t.kind() {
        Kind::And(xs) => xs.iter().for_each(|x| flatten(x, out)),
        _ => out.push(t.clone()),
    }
}

/// `x ∈ set` in words: the hull as an interval (an end that is `range`'s,
/// the values of `x`'s type, is left out), then the gaps.
fn set_text(x: &str, set: &ValueSet, range: &Interval) -> Vec<String> {
    let parts = set.parts();
    if parts.is_empty() {
        return vec!["false".into()];
    }
    let hull = set.hull();
    let lo = hull.lo.clone().filter(|v| Some(v) != range.lo.as_ref());
    let hi = hull.hi.clone().filter(|v| Some(v) != range.hi.as_ref());
    let mut out = Vec::new();
    match (&lo, &hi) {
        (Some(lo), Some(hi)) if lo == hi => out.push(format!("{x} == {lo}")),
        (Some(lo), Some(hi)) => out.push(format!("{lo} <= {x} <= {hi}")),
        (Some(lo), None) => out.push(format!("{x} >= {lo}")),
        (None, Some(hi)) => out.push(format!("{x} <= {hi}")),
        (None, None) => {}
    }
    for pair in parts.windows(2) {
        let (Some(a), Some(b)) = (&pair[0].hi, &pair[1].lo) else {
            continue;
        };
        let (from, to) = (a.add(&Int::ONE), b.sub(&Int::ONE));
        if from == to {
            out.push(format!("{x} != {from}"));
        } else {
            out.push(format!("not ({from} <= {x} <= {to})"));
        }
    }
    out
}

/// `text` with every variable name that `rename` renames replaced (names
/// are tokens of letters, digits, `_` and `#`).
fn renamed(text: &str, rename: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        if !token.is_empty() {
            match rename(token) {
                Some(n) => out.push_str(&n),
                None => out.push_str(token),
            }
            token.clear();
        }
    };
    for ch in text.chars() {
        if ch.is_alphanumeric() || ch == '_' || ch == '#' {
            token.push(ch);
        } else {
            flush(&mut token, &mut out);
            out.push(ch);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// Does `c` hold whatever its variables are, by one of the identities
/// of truncating division? `d*(a / d) + a % d == a`, and `a % d`
/// between `-(|d| - 1)` and `|d| - 1`.
fn is_identity(c: &Term) -> bool {
    match c.kind() {
        Kind::Eq(lin) => division_identity(lin),
        Kind::Le(lin) => remainder_bound(lin),
        _ => false,
    }
}

fn division_identity(lin: &Term) -> bool {
    let Kind::Linear(ms, _) = lin.kind() else {
        return false;
    };
    for (r, cr) in ms.iter() {
        let Kind::Rem(a, d) = r.kind() else {
            continue;
        };
        let Some(dv) = d.as_int() else {
            continue;
        };
        let q = Term::div(a, d);
        let Some((_, cq)) = ms.iter().find(|(t, _)| *t == q) else {
            continue;
        };
        if *cq != cr.mul(dv) {
            continue;
        }
        // lin == cr·(d·q + r) + rest, and d·q + r == a: the identity
        // holds iff rest + cr·a is 0.
        let scaled = |k: &Int, t: &Term| Term::mul(&Term::int(k.clone()), t);
        let rest = Term::sub(&Term::sub(lin, &scaled(cq, &q)), &scaled(cr, r));
        if Term::add(&rest, &scaled(cr, a)).as_int() == Some(&Int::ZERO) {
            return true;
        }
    }
    false
}

/// `k·(a % d) + c0 <= 0` with `k = ±1` that every remainder satisfies.
fn remainder_bound(lin: &Term) -> bool {
    let Kind::Linear(ms, c0) = lin.kind() else {
        return false;
    };
    let [(r, k)] = &ms[..] else {
        return false;
    };
    let Kind::Rem(_, d) = r.kind() else {
        return false;
    };
    let Some(d) = d.as_int() else {
        return false;
    };
    if d.is_zero() {
        return false;
    }
    let max = d.abs().sub(&Int::ONE);
    // k = 1: r <= -c0 holds for all r iff max <= -c0; k = -1: r >= c0
    // holds for all r iff -max >= c0.
    if *k == Int::ONE {
        max <= c0.neg()
    } else if *k == Int::ONE.neg() {
        max.neg() >= *c0
    } else {
        false
    }
}

/// `t` with every read of an array through stores resolved as far as
/// `facts` (the path's conjuncts) decide index equalities, the rest as
/// conditionals. A fold without recursion, each subterm once (`memo`
/// holds what the other conjuncts resolved, by node: the conjuncts stay
/// alive while it does): a C array written a hundred thousand times on a
/// path is as deep a chain of stores.
fn resolve(root: &Term, facts: &[Term], memo: &mut FxHashMap<usize, Term>) -> Term {
    root.fold_up_with(memo, |t, of| {
        let children: Vec<Term> = t.children().into_iter().map(of).collect();
        match t.kind() {
            Kind::Select(..) => read_through(&children[0], &children[1], facts),
            _ if t
                .children()
                .into_iter()
                .zip(&children)
                .all(|(c, r)| c.ptr_eq(r)) =>
            {
                t.clone()
            }
            _ => t.with_children(&children),
        }
    })
}

/// `array[index]`, with `array` a chain of stores: the value of the
/// newest store the path says is at `index`, under conditionals for the
/// newer ones it does not decide.
fn read_through(array: &Term, index: &Term, facts: &[Term]) -> Term {
    let mut undecided: Vec<(&Term, &Term)> = Vec::new();
    let mut at = array;
    let found = loop {
        match at.kind() {
            Kind::Store(inner, i, v) => match equal(i, index, facts) {
                Some(true) => break v.clone(),
                Some(false) => at = inner,
                None => {
                    undecided.push((i, v));
                    at = inner;
                }
            },
            _ => break Term::select(at, index),
        }
    };
    undecided.into_iter().rev().fold(found, |older, (i, v)| {
        Term::ite(&Term::equals(index, i), v, &older)
    })
}

/// Are `a` and `b` equal, by their shape or by a conjunct of the path?
fn equal(a: &Term, b: &Term, facts: &[Term]) -> Option<bool> {
    let e = Term::equals(a, b);
    if let Some(v) = e.as_bool() {
        return Some(v);
    }
    if facts.contains(&e) {
        return Some(true);
    }
    let ne = Term::not(&e);
    facts.contains(&ne).then_some(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::Interval;

    fn interval(lo: i64, hi: i64) -> Interval {
        Interval::range(Int::from(lo), Int::from(hi))
    }

    fn text(terms: &[Term]) -> String {
        path_text(terms, &Names::PLAIN)
    }

    #[test]
    fn bounds_become_intervals_and_repeats_go() {
        let k = Term::int_var("k");
        let mut terms = vec![Term::le(&Term::int(1), &k)];
        for v in [3, 5, 6] {
            terms.push(Term::ne(&k, &Term::int(v)));
        }
        terms.push(Term::le(&k, &Term::int(12)));
        let y = Term::int_var("y");
        terms.push(Term::lt(&k, &y));
        terms.push(Term::lt(&k, &y));
        assert_eq!(
            text(&terms),
            "1 <= k <= 12 and k != 3 and not (5 <= k <= 6) and k < y"
        );
        assert_eq!(text(&[Term::eq(&k, &Term::int(4))]), "k == 4");
        assert_eq!(text(&[]), "true");
        let s = ValueSet::from_parts([interval(0, 2), interval(4, 4)]);
        let all = Interval::new(None, None);
        assert_eq!(set_text("x", &s, &all), ["0 <= x <= 4", "x != 3"]);
    }

    #[test]
    fn identities_of_division_go() {
        let x = Term::int_var("x");
        let three = Term::int(3);
        let (q, r) = (Term::div(&x, &three), Term::rem(&x, &three));
        let identity = Term::eq(&x, &Term::add(&Term::mul(&three, &q), &r));
        let bounds = [Term::le(&Term::int(-2), &r), Term::le(&r, &Term::int(2))];
        let real = Term::le(&r, &Term::int(0));
        let mut terms = vec![identity];
        terms.extend(bounds);
        terms.push(real);
        assert_eq!(text(&terms), "x % 3 <= 0");
        // Not identities: a tighter bound, a different multiple.
        let off = Term::eq(&x, &Term::add(&Term::mul(&Term::int(2), &q), &r));
        assert!(!is_identity(&off));
        assert!(!is_identity(&Term::le(&r, &Term::int(1))));
    }

    #[test]
    fn reads_through_stores_are_resolved() {
        let a = Term::array_var("a");
        let (i, j) = (Term::int_var("i"), Term::int_var("j"));
        let a1 = Term::store(&a, &i, &Term::select(&a, &j));
        let a2 = Term::store(&a1, &j, &Term::select(&a, &i));
        let read = Term::select(&a2, &i);
        let c = Term::lt(&read, &Term::int(0));
        // Nothing known about i and j: a conditional.
        assert_eq!(
            text(std::slice::from_ref(&c)),
            "(if j == i then a[i] else a[j]) <= -1"
        );
        // i != j on the path: the read is a[j].
        let ne = Term::ne(&i, &j);
        assert_eq!(
            text(&[ne.clone(), c.clone()]),
            format!("{ne} and a[j] <= -1")
        );
        // Neighbouring indices are distinct by their shape.
        let i1 = Term::add(&i, &Term::int(1));
        let b = Term::store(&Term::store(&a, &i, &Term::int(7)), &i1, &Term::int(8));
        let c = Term::lt(&Term::select(&b, &i), &j);
        assert_eq!(text(&[c]), "j >= 8", "7 < j, with the read resolved");
    }

    #[test]
    fn a_read_through_a_long_chain_of_stores_is_resolved_without_recursion() {
        // A C array written 300,000 times on a path: one frame per store
        // (or per term level) overflowed a test thread's stack.
        let mut a = Term::array_var("a");
        let v = Term::int_var("v");
        for k in 0..300_000 {
            let value = if k == 5 { v.clone() } else { Term::int(k) };
            a = Term::store(&a, &Term::int(k), &value);
        }
        let j = Term::int_var("j");
        let unknown = Term::store(&a, &j, &Term::int(-1));
        let read = |array: &Term, at: i64| Term::select(array, &Term::int(at));
        assert_eq!(text(&[Term::lt(&read(&a, 5), &j)]), "v < j");
        assert_eq!(
            text(&[
                Term::ne(&j, &Term::int(5)),
                Term::lt(&read(&unknown, 5), &Term::int(0))
            ]),
            "j != 5 and v <= -1"
        );
    }

    #[test]
    fn reads_are_renamed_as_whole_names() {
        let (r1, r10) = (Term::int_var("read#1"), Term::int_var("read#10"));
        let t = Term::lt(&r1, &r10);
        let name = |v: &str| v.strip_prefix("read#").map(|k| format!("f()#{k}"));
        let names = Names {
            rename: &name,
            signed: &|_| false,
        };
        assert_eq!(path_text(&[t], &names), "f()#1 < f()#10");
    }

    #[test]
    fn bit_vector_bounds_are_printed_in_their_signedness() {
        use wiser_smt::BvPred;
        let x = Term::var("x", Sort::Bv(32));
        // -5 < x < 0 as a 32-bit signed integer: 0xfffffffc <=u x.
        let negative = Term::bv_cmp(BvPred::Ule, &Term::bv(32, 0xffff_fffc), &x);
        let signed = Names {
            rename: &|_| None,
            signed: &|_| true,
        };
        assert_eq!(
            path_text(std::slice::from_ref(&negative), &signed),
            "-4 <= x <= -1"
        );
        // Unsigned: the type's own end is left out.
        assert_eq!(text(std::slice::from_ref(&negative)), "x >= 4294967292");
        // `x <=u 3` is `0 <= x <= 3` signed, `x <= 3` unsigned.
        let low = Term::bv_cmp(BvPred::Ule, &x, &Term::bv(32, 3));
        assert_eq!(
            path_text(std::slice::from_ref(&low), &signed),
            "0 <= x <= 3"
        );
        assert_eq!(text(std::slice::from_ref(&low)), "x <= 3");
    }
}
