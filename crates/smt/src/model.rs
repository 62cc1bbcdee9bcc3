//! Models (assignments of values to variables) and evaluation of terms
//! under a model.
//!
//! A model assigns every integer variable a value and every array variable
//! a default plus finitely many entries; anything unassigned is 0. The
//! evaluator agrees with the concrete semantics (C division, total at 0),
//! which is what lets a state's model decide one side of a branch without
//! a solver call.

use crate::term::{Kind, Term};
use rpds::{HashTrieMapSync, RedBlackTreeMapSync};
use rustc_hash::FxBuildHasher;
use rustc_hash::FxHashMap;
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
    /// An integer.
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
    ints: Map<Int>,
    arrays: Map<ArrayValue>,
}

// Map equality is full equality of contents.
impl Eq for Model {}

impl std::fmt::Debug for Model {
    /// Variables in name order, so output is stable.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut ints: Vec<_> = self.ints.iter().collect();
        ints.sort();
        let mut arrays: Vec<_> = self
            .arrays
            .iter()
            .map(|(k, v)| (k, v.default.clone(), v.entries.iter().collect::<Vec<_>>()))
            .collect();
        arrays.sort_by(|a, b| a.0.cmp(b.0));
        f.debug_struct("Model")
            .field("ints", &ints)
            .field("arrays", &arrays)
            .finish()
    }
}

impl Model {
    /// The empty model (everything 0).
    pub fn new() -> Model {
        Model::default()
    }

    /// The value of an integer variable (0 when unassigned).
    pub fn int(&self, name: &str) -> Int {
        self.ints.get(name).cloned().unwrap_or_default()
    }

    /// Assigns an integer variable.
    pub fn set_int(&mut self, name: Arc<str>, value: Int) {
        self.ints.insert_mut(name, value);
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

    /// Evaluates `t` under this model with the value of each integer
    /// variable passed through `adjust(variable, value)` first.
    pub fn eval_with(&self, t: &Term, adjust: &dyn Fn(&Term, Int) -> Int) -> Value {
        if t.tree_size() <= SHALLOW {
            return self.eval_shallow(t, adjust);
        }
        let mut memo: FxHashMap<usize, Value> = FxHashMap::default();
        let mut stack: Vec<(&Term, bool)> = vec![(t, false)];
        while let Some((t, expanded)) = stack.pop() {
            if memo.contains_key(&t.addr()) {
                continue;
            }
            if !expanded {
                stack.push((t, true));
                for c in t.children() {
                    if !memo.contains_key(&c.addr()) {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let child = |c: &Term| memo.get(&c.addr()).expect("child evaluated first").clone();
            let v = self.eval_node(t, &child, adjust);
            memo.insert(t.addr(), v);
        }
        memo.remove(&t.addr()).expect("root evaluated")
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
        match t.kind() {
            Kind::Int(n) => Value::Int(n.clone()),
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Var(name, crate::Sort::Int) => Value::Int(adjust(t, self.int(name))),
            Kind::Var(name, crate::Sort::Array) => {
                Value::Array(self.array(name).cloned().unwrap_or_default())
            }
            Kind::Var(_, crate::Sort::Bool) => Value::Bool(false),
            Kind::Linear(ms, c) => Value::Int(
                ms.iter()
                    .fold(c.clone(), |acc, (x, k)| acc.add(&k.mul(&int(x)))),
            ),
            Kind::Mul(a, b) => Value::Int(int(a).mul(&int(b))),
            Kind::Div(a, b) => Value::Int(int(a).div_trunc(&int(b))),
            Kind::Rem(a, b) => Value::Int(int(a).rem_trunc(&int(b))),
            Kind::Ite(c, a, b) => child(if boolean(c) { a } else { b }),
            Kind::Select(a, i) => Value::Int(array(a).get(&int(i))),
            Kind::Store(a, i, v) => {
                let arr = array(a);
                Value::Array(ArrayValue {
                    default: arr.default.clone(),
                    entries: arr.entries.insert(int(i), int(v)),
                })
            }
            Kind::Le(a) => Value::Bool(int(a) <= Int::ZERO),
            Kind::Eq(a) => Value::Bool(int(a).is_zero()),
            Kind::Not(a) => Value::Bool(!boolean(a)),
            Kind::And(xs) => Value::Bool(xs.iter().all(boolean)),
            Kind::Or(xs) => Value::Bool(xs.iter().any(boolean)),
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
