//! Models (assignments of values to variables) and evaluation of terms
//! under a model.
//!
//! A model assigns every integer and bit-vector variable a value, every
//! boolean variable a truth value and every array variable a default plus
//! finitely many entries; anything unassigned is 0 (or false). The
//! evaluator agrees with the concrete semantics (C division, total at 0,
//! on integers; [`wiser_num::bv`] on bit-vectors), which is what lets a
//! state's model decide one side of a branch without a solver call.
//!
//! A bit-vector value is a [`Value::Int`] holding its unsigned pattern
//! (`0 <= v < 2^w`); array indices and elements are stored as `Int`s the
//! same way, booleans among them as 0 and 1.

use crate::term::{Kind, Scalar, Sort, Term};
use rpds::{HashTrieMapSync, RedBlackTreeMapSync};
use rustc_hash::FxBuildHasher;
use std::sync::Arc;
use wiser_num::Int;

/// The contents of an array in a model.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ArrayValue {
    /// The value of every index not in `entries`.
    pub default: Int,
    /// Explicit entries.
    pub entries: RedBlackTreeMapSync<Int, Int>,
}

impl ArrayValue {
    /// The element at `index`.
    pub fn get(&self, index: &Int) -> Int {
        self.entries
            .get(index)
            .cloned()
            .unwrap_or_else(|| self.default.clone())
    }
}

/// The value of a term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer, or the unsigned pattern of a bit-vector.
    Int(Int),
    /// A boolean.
    Bool(bool),
    /// An array.
    Array(ArrayValue),
}

impl Value {
    fn boolean(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            _ => panic!("sort error: expected a boolean value"),
        }
    }

    /// The value as an array index or element (booleans as 0 and 1).
    fn into_scalar(self) -> Int {
        match self {
            Value::Int(n) => n,
            Value::Bool(b) => Int::from(i64::from(b)),
            Value::Array(_) => panic!("sort error: an array is not a scalar"),
        }
    }

    /// An array element of sort `s` as a value (a bit-vector stored as a
    /// signed value is read modulo 2^w, as variables are).
    fn from_scalar(n: Int, s: Scalar) -> Value {
        match s {
            Scalar::Bool => Value::Bool(!n.is_zero()),
            Scalar::Int => Value::Int(n),
            Scalar::Bv(w) => Value::Int(Int::from_u64(n.low_bits(u32::from(w)))),
        }
    }
}

/// Terms of at most this many nodes (as trees: a shared subterm counts at
/// each use) are evaluated recursively without a memo table (see
/// [`Model::eval_shallow`]); larger ones on an explicit stack with one. The
/// bound on tree size bounds both the recursion depth and the work, which
/// a bound on depth alone would not (`x * x` nested k times is a DAG of k
/// nodes but a tree of 2^k).
const SHALLOW: u32 = 256;

/// A persistent map with a fast, deterministic hasher.
type Map<V> = HashTrieMapSync<Arc<str>, V, FxBuildHasher>;

/// An assignment of values to variables; unassigned variables are 0.
///
/// Persistent (structure-shared) maps: every state carries a model of its
/// path condition, and a branch that moves one variable makes a new model
/// that shares everything else with its parent.
#[derive(Clone, Default, PartialEq)]
pub struct Model {
    /// Integer variables, and bit-vector ones as unsigned patterns.
    ints: Map<Int>,
    bools: Map<bool>,
    arrays: Map<ArrayValue>,
}

// Map equality is full equality of contents.
impl Eq for Model {}

impl std::fmt::Debug for Model {
    /// Variables in name order, so output is stable.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut ints: Vec<_> = self.ints.iter().collect();
        ints.sort();
        let mut bools: Vec<_> = self.bools.iter().collect();
        bools.sort();
        let mut arrays: Vec<_> = self
            .arrays
            .iter()
            .map(|(k, v)| (k, v.default.clone(), v.entries.iter().collect::<Vec<_>>()))
            .collect();
        arrays.sort_by(|a, b| a.0.cmp(b.0));
        f.debug_struct("Model")
            .field("ints", &ints)
            .field("bools", &bools)
            .field("arrays", &arrays)
            .finish()
    }
}

impl Model {
    /// The empty model (everything 0).
    pub fn new() -> Model {
        Model::default()
    }

    /// The value of an integer variable, or the unsigned pattern of a
    /// bit-vector one (0 when unassigned).
    pub fn int(&self, name: &str) -> Int {
        self.ints.get(name).cloned().unwrap_or_default()
    }

    /// Assigns an integer variable, or a bit-vector one (its pattern: the
    /// evaluator reads the value modulo 2^w, so a signed value will do).
    pub fn set_int(&mut self, name: Arc<str>, value: Int) {
        self.ints.insert_mut(name, value);
    }

    /// The assigned integer and bit-vector variables, in no particular
    /// order.
    pub fn ints(&self) -> impl Iterator<Item = (&Arc<str>, &Int)> {
        self.ints.iter()
    }

    /// The assigned boolean variables, in no particular order.
    pub fn bools(&self) -> impl Iterator<Item = (&Arc<str>, bool)> {
        self.bools.iter().map(|(k, v)| (k, *v))
    }

    /// The value of a boolean variable (false when unassigned).
    pub fn boolean(&self, name: &str) -> bool {
        self.bools.get(name).copied().unwrap_or(false)
    }

    /// Assigns a boolean variable.
    pub fn set_bool(&mut self, name: Arc<str>, value: bool) {
        self.bools.insert_mut(name, value);
    }

    /// Gives the variable `var` (of any sort) the value it has in `from`:
    /// for moving part of one model into another.
    pub fn copy_var(&mut self, from: &Model, var: &Term) {
        let Kind::Var(name, sort) = var.kind() else {
            return;
        };
        match sort {
            Sort::Int | Sort::Bv(_) => self.set_int(name.clone(), from.int(name)),
            Sort::Bool => self.set_bool(name.clone(), from.boolean(name)),
            Sort::Array(..) => {
                self.set_array(name.clone(), from.array(name).cloned().unwrap_or_default())
            }
        }
    }

    /// The contents of an array variable, if assigned.
    pub fn array(&self, name: &str) -> Option<&ArrayValue> {
        self.arrays.get(name)
    }

    /// Assigns an array variable.
    pub fn set_array(&mut self, name: Arc<str>, value: ArrayValue) {
        self.arrays.insert_mut(name, value);
    }

    /// The assigned array variables.
    pub fn arrays(&self) -> impl Iterator<Item = (&Arc<str>, &ArrayValue)> {
        self.arrays.iter()
    }

    /// Evaluates `t` under this model. Never recurses, so deep terms are
    /// fine; shared subterms are evaluated once.
    pub fn eval(&self, t: &Term) -> Value {
        self.eval_with(t, &|_, v| v)
    }

    /// Evaluates `t` under this model with the value of each integer and
    /// bit-vector variable passed through `adjust(variable, value)` first
    /// (for a bit-vector, the result is then taken modulo 2^w).
    pub fn eval_with(&self, t: &Term, adjust: &dyn Fn(&Term, Int) -> Int) -> Value {
        if t.tree_size() <= SHALLOW {
            return self.eval_shallow(t, adjust);
        }
        crate::subst::fold_up(t, |t, child| self.eval_node(t, child, adjust))
    }

    /// Direct recursive evaluation, for terms of at most [`SHALLOW`] tree
    /// nodes (the common case: branch conditions): no memo table, and only
    /// the taken side of an `ite`, `and` or `or` is evaluated.
    fn eval_shallow(&self, t: &Term, adjust: &dyn Fn(&Term, Int) -> Int) -> Value {
        self.eval_node(t, &|c| self.eval_shallow(c, adjust), adjust)
    }

    /// Evaluates a boolean term.
    pub fn holds(&self, t: &Term) -> bool {
        self.holds_with(t, &|_, v| v)
    }

    /// Evaluates a boolean term, adjusting variables as [`Model::eval_with`].
    pub fn holds_with(&self, t: &Term, adjust: &dyn Fn(&Term, Int) -> Int) -> bool {
        if let Some(b) = t.as_bool() {
            return b;
        }
        self.eval_with(t, adjust).boolean()
    }

    /// The value of node `t` given a way to get its children's values:
    /// the one place that says what each operator means.
    fn eval_node(
        &self,
        t: &Term,
        child: &dyn Fn(&Term) -> Value,
        adjust: &dyn Fn(&Term, Int) -> Int,
    ) -> Value {
        let int = |x: &Term| match child(x) {
            Value::Int(n) => n,
            _ => panic!("sort error: expected an integer value"),
        };
        let array = |x: &Term| match child(x) {
            Value::Array(a) => a,
            _ => panic!("sort error: expected an array value"),
        };
        let boolean = |x: &Term| child(x).boolean();
        // A bit-vector operand as a pattern of its width; results go back
        // as unsigned `Int`s.
        let bits = |x: &Term| int(x).low_bits(x.sort().width().expect("a bit-vector"));
        let bv = |b: u64| Value::Int(Int::from_u64(b));
        let width = |x: &Term| x.sort().width().expect("a bit-vector");
        match t.kind() {
            Kind::Int(n) => Value::Int(n.clone()),
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Var(name, Sort::Int) => Value::Int(adjust(t, self.int(name))),
            Kind::Var(name, Sort::Bv(w)) => bv(adjust(t, self.int(name)).low_bits(u32::from(*w))),
            Kind::Var(name, Sort::Bool) => Value::Bool(self.boolean(name)),
            Kind::Var(name, Sort::Array(..)) => {
                Value::Array(self.array(name).cloned().unwrap_or_default())
            }
            Kind::Linear(ms, c) => Value::Int(
                ms.iter()
                    .fold(c.clone(), |acc, (x, k)| acc.add(&k.mul(&int(x)))),
            ),
            Kind::Mul(a, b) => Value::Int(int(a).mul(&int(b))),
            Kind::Div(a, b) => Value::Int(int(a).div_trunc(&int(b))),
            Kind::Rem(a, b) => Value::Int(int(a).rem_trunc(&int(b))),
            Kind::Ite(c, a, b) => child(if boolean(c) { a } else { b }),
            Kind::Select(a, i) => {
                let Sort::Array(_, elem) = a.sort() else {
                    panic!("sort error: select from a non-array")
                };
                Value::from_scalar(array(a).get(&child(i).into_scalar()), elem)
            }
            Kind::ConstArray(_, v) => Value::Array(ArrayValue {
                default: child(v).into_scalar(),
                entries: Default::default(),
            }),
            Kind::Store(a, i, v) => {
                let arr = array(a);
                Value::Array(ArrayValue {
                    default: arr.default.clone(),
                    entries: arr
                        .entries
                        .insert(child(i).into_scalar(), child(v).into_scalar()),
                })
            }
            Kind::Le(a) => Value::Bool(int(a) <= Int::ZERO),
            Kind::Eq(a) => Value::Bool(int(a).is_zero()),
            Kind::Not(a) => Value::Bool(!boolean(a)),
            Kind::And(xs) => Value::Bool(xs.iter().all(boolean)),
            Kind::Or(xs) => Value::Bool(xs.iter().any(boolean)),
            Kind::Bv { bits, .. } => bv(*bits),
            Kind::BvBin(op, a, b) => bv(op.apply(width(a), bits(a), bits(b))),
            Kind::BvNeg(a) => bv(wiser_num::bv::neg(width(a), bits(a))),
            Kind::BvNot(a) => bv(wiser_num::bv::not(width(a), bits(a))),
            Kind::BvCmp(p, a, b) => Value::Bool(p.apply(width(a), bits(a), bits(b))),
            Kind::BvEq(a, b) => Value::Bool(bits(a) == bits(b)),
            Kind::Extend {
                signed,
                width: to,
                t: a,
            } => {
                let (from, to) = (width(a), u32::from(*to));
                bv(if *signed {
                    wiser_num::bv::sext(from, to, bits(a))
                } else {
                    wiser_num::bv::zext(from, to, bits(a))
                })
            }
            Kind::Extract { width: to, t: a } => {
                bv(wiser_num::bv::zext(width(a), u32::from(*to), bits(a)))
            }
            Kind::BvToInt { signed: true, t: a } => {
                Value::Int(Int::from(wiser_num::bv::to_signed(width(a), bits(a))))
            }
            Kind::BvToInt {
                signed: false,
                t: a,
            } => bv(bits(a)),
            Kind::IntToBv { width: w, t: a } => bv(int(a).low_bits(u32::from(*w))),
            Kind::SOvf(op, a, b) => Value::Bool(op.overflows(width(a), bits(a), bits(b))),
            // Operands as terms hold them: patterns and unbounded values.
            Kind::Fp(op, xs) => {
                match crate::fp::apply(*op, &xs.iter().map(int).collect::<Vec<_>>()) {
                    crate::fp::FpValue::Int(v) => Value::Int(v),
                    crate::fp::FpValue::Bool(b) => Value::Bool(b),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_agrees_with_c_division() {
        let x = Term::int_var("x");
        let mut m = Model::new();
        m.set_int("x".into(), Int::from(-7));
        let q = Term::div(&x, &Term::int(2));
        let r = Term::rem(&x, &Term::int(2));
        assert_eq!(m.eval(&q), Value::Int(Int::from(-3)));
        assert_eq!(m.eval(&r), Value::Int(Int::from(-1)));
        assert!(m.holds(&Term::lt(&x, &Term::int(0))));
    }

    #[test]
    fn eval_arrays() {
        let a = Term::array_var("a");
        let i = Term::int_var("i");
        let mut m = Model::new();
        m.set_int("i".into(), Int::from(3));
        let mut arr = ArrayValue::default();
        arr.entries.insert_mut(Int::from(3), Int::from(9));
        m.set_array("a".into(), arr);
        let s = Term::store(&a, &Term::int(4), &Term::int(1));
        assert_eq!(m.eval(&Term::select(&s, &i)), Value::Int(Int::from(9)));
        assert_eq!(
            m.eval(&Term::select(&s, &Term::add(&i, &Term::int(1)))),
            Value::Int(Int::ONE)
        );
    }
}

#[cfg(test)]
mod machine_integers {
    use super::*;
    use crate::term::{BvOp, BvPred};

    #[test]
    fn bit_vectors_evaluate_as_patterns() {
        let x = Term::var("x", Sort::Bv(8));
        let mut m = Model::new();
        // A signed value is read modulo 2^8: -1 is the pattern 255.
        m.set_int("x".into(), Int::from(-1));
        assert_eq!(m.eval(&x), Value::Int(Int::from(255)));
        let sum = Term::bv_bin(BvOp::Add, &x, &Term::bv(8, 3));
        assert_eq!(m.eval(&sum), Value::Int(Int::from(2)));
        let q = Term::bv_bin(BvOp::Udiv, &x, &Term::var("z", Sort::Bv(8)));
        assert_eq!(m.eval(&q), Value::Int(Int::from(255)), "division by 0");
        assert!(m.holds(&Term::bv_cmp(BvPred::Slt, &x, &Term::bv(8, 0))));
        assert!(!m.holds(&Term::bv_cmp(BvPred::Ult, &x, &Term::bv(8, 0x80))));
        let wide = Term::bv_resize(&x, 64, true);
        assert_eq!(m.eval(&wide), Value::Int(Int::from_u64(u64::MAX)));
        assert_eq!(
            m.eval(&Term::bv_to_int(&x, true)),
            Value::Int(Int::from(-1))
        );
        assert_eq!(
            m.eval(&Term::bv_to_int(&x, false)),
            Value::Int(Int::from(255))
        );
        let n = Term::int_var("n");
        m.set_int("n".into(), Int::from(-257));
        assert_eq!(m.eval(&Term::int_to_bv(&n, 8)), Value::Int(Int::from(255)));
        assert!(m.holds(&Term::neg_overflows(&Term::bv_bin(
            BvOp::Shl,
            &x,
            &Term::bv(8, 7)
        ))));
        // adjust applies to bit-vector variables, modulo 2^w.
        let v = m.eval_with(&x, &|_, v| v.add(&Int::from(2)));
        assert_eq!(v, Value::Int(Int::ONE));
    }

    #[test]
    fn booleans_and_arrays_of_any_sort() {
        let (p, q) = (Term::bool_var("p"), Term::bool_var("q"));
        let mut m = Model::new();
        m.set_bool("p".into(), true);
        assert!(m.boolean("p") && !m.boolean("q"));
        assert!(m.holds(&Term::and(&p, &Term::not(&q))));
        let x = Term::var("x", Sort::Bv(8));
        assert_eq!(
            m.eval(&Term::ite(&p, &Term::bv(8, 7), &x)),
            Value::Int(Int::from(7))
        );
        let a = Term::var("a", Sort::Array(Scalar::Bv(8), Scalar::Bool));
        let mut arr = ArrayValue::default();
        arr.entries.insert_mut(Int::from(255), Int::ONE);
        m.set_array("a".into(), arr);
        m.set_int("x".into(), Int::from(255));
        assert!(m.holds(&Term::select(&a, &x)));
        let s = Term::store(&a, &x, &Term::bool(false));
        assert!(!m.holds(&Term::select(&s, &x)));
        let mut other = Model::new();
        for v in [&p, &x, &a] {
            other.copy_var(&m, v);
        }
        assert_eq!(other, m);
    }
}

#[cfg(test)]
mod shared_terms {
    use super::*;

    #[test]
    fn evaluating_a_term_with_exponential_tree_size_is_fast() {
        // x * x nested 60 times: 60 nodes as a DAG, 2^60 as a tree.
        let mut t = Term::int_var("x");
        for _ in 0..60 {
            t = Term::mul(&t, &t);
        }
        let mut m = Model::new();
        m.set_int("x".into(), Int::ONE);
        assert_eq!(m.eval(&t), Value::Int(Int::ONE));
        assert!(m.holds(&Term::eq(&t, &Term::int(1))));
    }
}
