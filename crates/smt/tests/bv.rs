//! Our bit-vector semantics, three ways, must agree: the evaluator
//! ([`Model::eval`]), constant folding in the constructors, and Z3.
//!
//! Random well-sorted terms over a few variables of widths 8, 16, 32 and
//! 64 use every operator, extensions, truncations, conversions to and from
//! integers, comparisons, `ite` and the overflow predicates. For random
//! values of the variables (biased toward 0, 1, -1, MIN, MAX and small
//! shift amounts, so that division by zero and out-of-range shifts come
//! up often):
//! * the term built with constants in place of the variables folds to a
//!   constant, the value the evaluator gives the term with variables (so
//!   every rewrite preserves the value);
//! * Z3 finds `term == value` valid under those values (its negation is
//!   unsatisfiable);
//! * when Z3 finds a model of a boolean term, our evaluator agrees that it
//!   is one (`Z3Solver` checks this itself, and answers unknown if not).
//!
//! Terms are drawn from a stream of choices that proptest shrinks: a
//! shorter stream or smaller choices give a smaller term.

use proptest::prelude::*;
use std::time::Duration;
use wiser_num::Int;
use wiser_smt::{Answer, BvOp, BvPred, Model, OvfOp, Solver, Sort, Term, Value, Z3Solver};

const WIDTHS: [u8; 4] = [8, 16, 32, 64];
const VARS_PER_WIDTH: usize = 2;

/// Values of the variables: `values[width index][variable]`.
type Values = [[u64; VARS_PER_WIDTH]; 4];

fn var_name(w: u8, i: usize) -> String {
    format!("{}{w}", ["a", "b"][i])
}

fn mask(w: u8) -> u64 {
    wiser_num::bv::mask(u32::from(w))
}

/// An interesting pattern of width `w`: `kind` picks an edge value, or
/// `raw` itself.
fn pattern(w: u8, kind: u32, raw: u64) -> u64 {
    let min = 1u64 << (w - 1);
    match kind % 8 {
        0 => 0,
        1 => 1,
        2 => mask(w),
        3 => min,
        4 => min - 1,
        5 => raw % (u64::from(w) + 3),
        _ => raw & mask(w),
    }
}

/// Builds terms from a stream of choices (0 once the stream is spent,
/// which always picks the simplest alternative). With `values`, leaves
/// are constants instead of variables.
struct Gen<'a> {
    choices: &'a [u32],
    pos: usize,
    values: Option<&'a Values>,
}

impl Gen<'_> {
    fn next(&mut self, n: u32) -> u32 {
        let c = self.choices.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        c % n
    }

    fn raw(&mut self) -> u64 {
        (u64::from(self.next(u32::MAX)) << 32) | u64::from(self.next(u32::MAX))
    }

    fn width(&mut self) -> u8 {
        WIDTHS[self.next(4) as usize]
    }

    fn leaf(&mut self, w: u8) -> Term {
        let i = self.next(VARS_PER_WIDTH as u32) as usize;
        let wi = WIDTHS.iter().position(|&x| x == w).expect("a test width");
        match self.values {
            Some(v) => Term::bv(w, v[wi][i]),
            None => Term::var(var_name(w, i), Sort::Bv(w)),
        }
    }

    fn constant(&mut self, w: u8) -> Term {
        let kind = self.next(8);
        let raw = self.raw();
        Term::bv(w, pattern(w, kind, raw))
    }

    fn bv(&mut self, w: u8, depth: u32) -> Term {
        let k = if depth == 0 {
            self.next(2)
        } else {
            self.next(11)
        };
        let d = depth.saturating_sub(1);
        match k {
            0 => self.leaf(w),
            1 => self.constant(w),
            2..=4 => {
                let op = BvOp::ALL[self.next(13) as usize];
                let a = self.bv(w, d);
                let b = self.bv(w, d);
                Term::bv_bin(op, &a, &b)
            }
            5 => {
                let a = self.bv(w, d);
                if self.next(2) == 0 {
                    Term::bv_neg(&a)
                } else {
                    Term::bv_not(&a)
                }
            }
            6 => {
                let from = self.width();
                let a = self.bv(from, d);
                let signed = self.next(2) == 1;
                Term::bv_resize(&a, w, signed)
            }
            7 => {
                let c = self.boolean(d);
                let a = self.bv(w, d);
                let b = self.bv(w, d);
                Term::ite(&c, &a, &b)
            }
            8 => {
                let n = self.int(d);
                Term::int_to_bv(&n, w)
            }
            _ => {
                // Shifts by amounts around the width.
                let op = [BvOp::Shl, BvOp::Lshr, BvOp::Ashr][self.next(3) as usize];
                let a = self.bv(w, d);
                let amount = Term::bv(w, u64::from(self.next(u32::from(w) + 3)));
                Term::bv_bin(op, &a, &amount)
            }
        }
    }

    fn boolean(&mut self, depth: u32) -> Term {
        let k = if depth == 0 {
            self.next(2)
        } else {
            self.next(10)
        };
        let d = depth.saturating_sub(1);
        let w = self.width();
        match k {
            0 => {
                let p = [BvPred::Ult, BvPred::Ule, BvPred::Slt, BvPred::Sle][self.next(4) as usize];
                let a = self.bv(w, d);
                let b = self.bv(w, d);
                Term::bv_cmp(p, &a, &b)
            }
            1 => {
                let a = self.bv(w, d);
                let b = self.bv(w, d);
                Term::bv_eq(&a, &b)
            }
            2 => {
                let op = [OvfOp::Add, OvfOp::Sub, OvfOp::Mul][self.next(3) as usize];
                let a = self.bv(w, d);
                let b = self.bv(w, d);
                Term::signed_overflow(op, &a, &b)
            }
            3 => {
                let a = self.bv(w, d);
                let b = self.bv(w, d);
                match self.next(3) {
                    0 => Term::neg_overflows(&a),
                    1 => Term::sdiv_overflows(&a, &b),
                    _ => Term::shl_overflows(&a, &b),
                }
            }
            4 => Term::not(&self.boolean(d)),
            5 | 6 => {
                let a = self.boolean(d);
                let b = self.boolean(d);
                if k == 5 {
                    Term::and(&a, &b)
                } else {
                    Term::or(&a, &b)
                }
            }
            7 => {
                let c = self.boolean(d);
                let a = self.boolean(d);
                let b = self.boolean(d);
                Term::ite(&c, &a, &b)
            }
            _ => {
                let a = self.int(d);
                let b = self.int(d);
                match self.next(3) {
                    0 => Term::le(&a, &b),
                    1 => Term::lt(&a, &b),
                    _ => Term::eq(&a, &b),
                }
            }
        }
    }

    /// Integers, all from bit-vectors (so every value is fixed by the
    /// variables').
    fn int(&mut self, depth: u32) -> Term {
        let d = depth.saturating_sub(1);
        match self.next(4) {
            0 | 1 => {
                let w = self.width();
                let a = self.bv(w, d);
                Term::bv_to_int(&a, self.next(2) == 1)
            }
            2 => {
                let a = self.int(d);
                let b = self.int(d);
                Term::add(&a, &b)
            }
            _ => {
                let a = self.int(d);
                let k = i64::from(self.next(7)) - 3;
                Term::mul(&a, &Term::int(k))
            }
        }
    }
}

/// The term the choices describe, of sort `sort` (0: boolean, 1..=4: a
/// bit-vector of the width, 5: integer), with variables, and with the
/// values in their place.
fn build(sort: u8, choices: &[u32], values: &Values) -> (Term, Term) {
    let make = |values: Option<&Values>| {
        let mut g = Gen {
            choices,
            pos: 0,
            values,
        };
        match sort {
            0 => g.boolean(4),
            5 => g.int(4),
            s => g.bv(WIDTHS[usize::from(s - 1)], 4),
        }
    };
    (make(None), make(Some(values)))
}

fn model_of(values: &Values) -> Model {
    let mut m = Model::new();
    for (&w, row) in WIDTHS.iter().zip(values) {
        for (i, &v) in row.iter().enumerate() {
            m.set_int(var_name(w, i).into(), Int::from_u64(v));
        }
    }
    m
}

/// The constant term for a value of `t`'s sort.
fn constant_of(t: &Term, v: &Value) -> Term {
    match (t.sort(), v) {
        (Sort::Bool, Value::Bool(b)) => Term::bool(*b),
        (Sort::Int, Value::Int(n)) => Term::int(n.clone()),
        (Sort::Bv(w), Value::Int(n)) => Term::bv(w, n.low_bits(u32::from(w))),
        (s, v) => panic!("value {v:?} for sort {s:?}"),
    }
}

fn arb_values() -> impl Strategy<Value = Values> {
    prop::array::uniform4(prop::array::uniform2((0u32..8, any::<u64>()))).prop_map(|vs| {
        let mut out = [[0u64; VARS_PER_WIDTH]; 4];
        for (wi, row) in vs.iter().enumerate() {
            for (i, &(kind, raw)) in row.iter().enumerate() {
                out[wi][i] = pattern(WIDTHS[wi], kind, raw);
            }
        }
        out
    })
}

fn arb_choices() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(any::<u32>(), 0..96)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn folding_agrees_with_evaluation(
        sort in 0u8..6,
        choices in arb_choices(),
        values in arb_values(),
    ) {
        let (t, folded) = build(sort, &choices, &values);
        let value = model_of(&values).eval(&t);
        prop_assert!(folded.is_const(), "{} did not fold: {}", t, folded);
        prop_assert_eq!(
            &folded,
            &constant_of(&t, &value),
            "{} is {:?} under {:?}, folded {}", t, value, values, folded
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn z3_agrees_with_evaluation(
        sort in 0u8..6,
        choices in arb_choices(),
        values in arb_values(),
    ) {
        let (t, _) = build(sort, &choices, &values);
        let value = model_of(&values).eval(&t);
        let c = constant_of(&t, &value);
        let mut query: Vec<Term> = t
            .vars()
            .iter()
            .map(|v| {
                let name = v.as_var().expect("a variable");
                let w = v.sort().width().expect("bit-vector variables only") as u8;
                let wi = WIDTHS.iter().position(|&x| x == w).expect("a test width");
                let i = (0..VARS_PER_WIDTH).find(|&i| **name == *var_name(w, i)).expect("a test variable");
                Term::bv_eq(v, &Term::bv(w, values[wi][i]))
            })
            .collect();
        query.push(match t.sort() {
            Sort::Bool if c.as_bool() == Some(true) => Term::not(&t),
            Sort::Bool => t.clone(),
            _ => Term::ne(&t, &c),
        });
        let mut z3 = Z3Solver::new(Some(Duration::from_secs(20)));
        let answer = z3.solve(&query);
        prop_assert_eq!(&answer, &Answer::Unsat, "{} should be {} under {:?}", t, c, query);
    }

}

proptest! {
    // Free 64-bit multiplications and divisions can be slow to solve: few
    // cases, and a short limit (a time-out is not a failure here).
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn z3_models_satisfy_our_evaluator(
        choices in arb_choices(),
        values in arb_values(),
    ) {
        let (t, _) = build(0, &choices, &values);
        let mut z3 = Z3Solver::new(Some(Duration::from_secs(1)));
        match z3.solve(std::slice::from_ref(&t)) {
            Answer::Sat(m) => prop_assert!(m.holds(&t)),
            Answer::Unsat => {}
            // A time-out is allowed; a model our evaluator rejects or
            // cannot read is a translation bug.
            Answer::Unknown(why) => prop_assert!(
                !why.contains("model"),
                "{}: {}", t, why
            ),
        }
    }
}
