//! Arrays as one tracked cell, for invariants that speak of every cell.
//!
//! An invariant of a loop over an array usually speaks of all its cells:
//! `∀k. 0 <= k < i ⇒ a[k] >= k + 2`. Spacer's invariants have no
//! quantifier, so over the array itself it rarely finds one. *Cell
//! morphing* (Monniaux and Gonnord, "Cell morphing: from array programs
//! to array-free Horn clauses", SAS 2016) turns the clauses over arrays
//! into clauses over one distinguished cell: each relation `R(x, A)`
//! becomes `R'(x, k, A[k])` — its scalar parameters, an index `k` and
//! each array's value at `k` — read as `∀k. R'(x, k, A[k])`. A solution
//! of the new clauses has no array and no quantifier, and Spacer finds
//! such invariants; `k` is the quantified index.
//!
//! A clause `R(x, A) ∧ φ ⇒ H(t, T)` becomes, for its body's cell `k`:
//! * every read `S[e]` of φ and of the head's arguments is rewritten
//!   through the stores and conditionals of `S` down to reads of arrays
//!   (`store(S, j, v)[e]` is `e == j ? v : S[e]`); a read of a body array
//!   at `k` is its cell, a read at another index `e` is the cell of an
//!   *instance* `R'(x, e, r_e)` added to the premise (the invariant
//!   holds for every index, so for `e` too), with `e == k ⇒ r_e == A[k]`
//!   and the same between instances; a read of any other array (an
//!   input's, havocked) is a fresh value, equal to the other reads of it
//!   at an equal index;
//! * the head is `H'(t, k, T[k])`.
//!
//! **Soundness.** If `R' ↦ S'` solves the new clauses, `R ↦ ∀k. S'(x, k,
//! A[k])` solves the old ones: given the body and φ, for any `k₀`,
//! instantiate the new clause at `k := k₀`, the cell `A[k₀]`, each
//! `r_e := A[e]` and each fresh read as the array's value there. Every
//! premise holds (the instances by the quantifier, the equalities because
//! they are reads of one array), the rewritten φ is φ (the rewriting is
//! the theory of arrays' read-over-write), so the head holds at `k₀`. A
//! query is the case without a head. So a checked solution of the cell
//! clauses (checked like any other, [`HornProblem::check`]) proves the
//! program; the translation is what the proof trusts, and the unit tests
//! below pin its cases.
//!
//! What it does not cover, it refuses (and the prover goes on without
//! it): arrays of several index sorts, array terms outside reads, stores
//! and conditionals (an array compared whole), arrays in two relations
//! of one premise (a call summarised with arrays).

use rustc_hash::{FxHashMap, FxHashSet};
use wiser_smt::{Application, Clause, HornProblem, Kind, Relation, Scalar, Sort, Term};

/// The cell clauses of `p`, and per relation the quantified index of its
/// solution (`None` for a relation without arrays); `None` if `p` has no
/// array parameter or has what the translation does not cover.
pub(super) fn morph(p: &HornProblem) -> Option<(HornProblem, Vec<Option<Term>>)> {
    let index = index_sort(p)?;
    let taken = all_names(p);
    let mut relations = Vec::with_capacity(p.relations.len());
    let mut indices = Vec::with_capacity(p.relations.len());
    for r in &p.relations {
        let (rel, k) = morph_relation(r, index, &taken);
        relations.push(rel);
        indices.push(k);
    }
    let mut clauses = Vec::with_capacity(p.clauses.len());
    let mut fresh = Fresh { taken, next: 0 };
    for c in &p.clauses {
        clauses.push(morph_clause(&relations, &indices, c, index, &mut fresh)?);
    }
    Some((HornProblem { relations, clauses }, indices))
}

/// Does `formula` (of a relation whose index is `k`) speak of `k` or of
/// a cell at it?
pub(super) fn speaks_of_cells(formula: &Term, k: &Term) -> bool {
    let cell = format!("[{}]", k.as_var().map_or("", |n| n));
    formula
        .vars()
        .iter()
        .any(|v| v == k || v.as_var().is_some_and(|n| n.ends_with(&cell)))
}

/// The one index sort of every array parameter, if there are some.
fn index_sort(p: &HornProblem) -> Option<Scalar> {
    let mut sorts = p
        .relations
        .iter()
        .flat_map(|r| &r.params)
        .filter_map(|v| match v.sort() {
            Sort::Array(i, _) => Some(i),
            _ => None,
        });
    let first = sorts.next()?;
    sorts.all(|s| s == first).then_some(first)
}

/// Every variable name of `p`.
fn all_names(p: &HornProblem) -> FxHashSet<String> {
    let mut names = FxHashSet::default();
    let mut add = |t: &Term| {
        for v in t.vars() {
            if let Some(n) = v.as_var() {
                names.insert(n.to_string());
            }
        }
    };
    for r in &p.relations {
        r.params.iter().for_each(&mut add);
    }
    for c in &p.clauses {
        add(&c.constraint);
        for a in c.body.iter().chain(&c.head) {
            a.args.iter().for_each(&mut add);
        }
    }
    names
}

/// `r` with its arrays replaced by an index and their cells at it.
fn morph_relation(
    r: &Relation,
    index: Scalar,
    taken: &FxHashSet<String>,
) -> (Relation, Option<Term>) {
    let arrays: Vec<&Term> = r.params.iter().filter(|v| is_array(v)).collect();
    if arrays.is_empty() {
        return (r.clone(), None);
    }
    let mut name = String::from("k");
    while taken.contains(&name) {
        name.push('\'');
    }
    let k = Term::var(name.as_str(), Sort::from(index));
    let mut params: Vec<Term> = r.params.iter().filter(|v| !is_array(v)).cloned().collect();
    params.push(k.clone());
    for a in arrays {
        let (base, elem) = match (a.as_var(), a.sort()) {
            (Some(n), Sort::Array(_, e)) => (n.clone(), e),
            _ => unreachable!("a relation's parameter is a variable"),
        };
        params.push(Term::var(format!("{base}[{name}]"), Sort::from(elem)));
    }
    let rel = Relation {
        name: r.name.clone(),
        params,
    };
    (rel, Some(k))
}

fn is_array(t: &Term) -> bool {
    matches!(t.sort(), Sort::Array(..))
}

/// Fresh variable names, none of the problem's.
struct Fresh {
    taken: FxHashSet<String>,
    next: usize,
}

impl Fresh {
    fn var(&mut self, what: &str, sort: Sort) -> Term {
        loop {
            self.next += 1;
            let name = format!("{what}!{}", self.next);
            if !self.taken.contains(&name) {
                return Term::var(name, sort);
            }
        }
    }
}

/// One clause's translation at work.
struct Morpher<'a> {
    /// The body relation whose arrays are variables (`owner` of the
    /// cell), its new application's scalar arguments, and its arrays'
    /// positions among its parameters.
    owner: Option<Owner>,
    /// The clause's index: the owner's, or a fresh one.
    k: Term,
    /// Per index read at (other than `k`): the instance's cells.
    instances: Vec<(Term, Vec<Term>)>,
    /// Per array not the owner's: its reads (index, value).
    others: FxHashMap<Term, Vec<(Term, Term)>>,
    fresh: &'a mut Fresh,
    /// `(array, index) ↦ value`.
    memo: FxHashMap<(Term, Term), Term>,
}

/// The premise's relation whose arrays the cell tracks.
struct Owner {
    relation: usize,
    /// Its scalar arguments, in order.
    scalars: Vec<Term>,
    /// Its array arguments (variables) and their cells at `k`.
    arrays: Vec<(Term, Term)>,
}

impl Morpher<'_> {
    /// `array[i]`, with `array` an array term over the clause's arrays.
    fn at(&mut self, array: &Term, i: &Term) -> Option<Term> {
        if let Some(v) = self.memo.get(&(array.clone(), i.clone())) {
            return Some(v.clone());
        }
        // Down a chain of stores iteratively: a chain can be long.
        let mut stores = Vec::new();
        let mut a = array;
        while let Kind::Store(inner, j, v) = a.kind() {
            stores.push((j, v));
            a = inner;
        }
        let mut value = match a.kind() {
            Kind::ConstArray(_, v) => v.clone(),
            Kind::Ite(c, x, y) => {
                let (x, y) = (self.at(x, i)?, self.at(y, i)?);
                Term::ite(c, &x, &y)
            }
            Kind::Var(..) => self.read(a, i)?,
            _ => return None,
        };
        for (j, v) in stores.into_iter().rev() {
            value = Term::ite(&Term::equals(i, j), v, &value);
        }
        self.memo.insert((array.clone(), i.clone()), value.clone());
        Some(value)
    }

    /// The variable array `a` at `i`.
    fn read(&mut self, a: &Term, i: &Term) -> Option<Term> {
        let elem = match a.sort() {
            Sort::Array(_, e) => Sort::from(e),
            _ => return None,
        };
        if let Some(owner) = &self.owner {
            if let Some(pos) = owner.arrays.iter().position(|(x, _)| x == a) {
                if i == &self.k {
                    return Some(owner.arrays[pos].1.clone());
                }
                if let Some((_, cells)) = self.instances.iter().find(|(e, _)| e == i) {
                    return Some(cells[pos].clone());
                }
                let cells: Vec<Term> = owner
                    .arrays
                    .iter()
                    .map(|(x, c)| {
                        let name = x.as_var().map_or("cell", |n| n);
                        self.fresh.var(name, c.sort())
                    })
                    .collect();
                let value = cells[pos].clone();
                self.instances.push((i.clone(), cells));
                return Some(value);
            }
        }
        let reads = self.others.entry(a.clone()).or_default();
        if let Some((_, v)) = reads.iter().find(|(e, _)| e == i) {
            return Some(v.clone());
        }
        let name = a.as_var().map_or("input", |n| n).to_string();
        let v = self.fresh.var(&name, elem);
        self.others
            .entry(a.clone())
            .or_default()
            .push((i.clone(), v.clone()));
        Some(v)
    }

    /// `t` with every read rewritten; `None` if an array is left (an
    /// array compared whole).
    fn scalar(&mut self, t: &Term) -> Option<Term> {
        let mut memo: FxHashMap<usize, Option<Term>> = FxHashMap::default();
        let out = t.fold_up_with(&mut memo, |node, of| {
            let mut kids = Vec::new();
            let mut missing = false;
            for c in node.children() {
                match of(c) {
                    Some(x) => kids.push(x),
                    None => missing = true,
                }
            }
            if missing {
                return None;
            }
            match node.kind() {
                Kind::Select(..) => self.at(&kids[0], &kids[1]),
                _ => Some(node.with_children(&kids)),
            }
        })?;
        let arrays_left = out.vars().iter().any(is_array) || mentions_array_node(&out);
        (!arrays_left).then_some(out)
    }

    /// What the premise gains: the instances, and the equalities of reads
    /// at equal indices.
    fn consistency(&self) -> Vec<Term> {
        let mut out = Vec::new();
        let same = |e: &Term, f: &Term, xs: &[Term], ys: &[Term]| {
            let eq = Term::and_all(xs.iter().zip(ys).map(|(x, y)| Term::equals(x, y)));
            Term::or(&Term::not(&Term::equals(e, f)), &eq)
        };
        if let Some(owner) = &self.owner {
            let at_k: Vec<Term> = owner.arrays.iter().map(|(_, c)| c.clone()).collect();
            for (n, (e, cells)) in self.instances.iter().enumerate() {
                out.push(same(e, &self.k, cells, &at_k));
                for (f, others) in &self.instances[..n] {
                    out.push(same(e, f, cells, others));
                }
            }
        }
        for reads in self.others.values() {
            for (n, (e, v)) in reads.iter().enumerate() {
                for (f, w) in &reads[..n] {
                    out.push(same(e, f, std::slice::from_ref(v), std::slice::from_ref(w)));
                }
            }
        }
        out
    }
}

/// Does `t` hold a node of an array sort?
fn mentions_array_node(t: &Term) -> bool {
    let mut stack = vec![t.clone()];
    let mut seen = FxHashSet::default();
    while let Some(x) = stack.pop() {
        if !seen.insert(x.addr()) {
            continue;
        }
        if is_array(&x) {
            return true;
        }
        stack.extend(x.children().into_iter().cloned());
    }
    false
}

/// One clause over cells.
fn morph_clause(
    relations: &[Relation],
    indices: &[Option<Term>],
    c: &Clause,
    index: Scalar,
    fresh: &mut Fresh,
) -> Option<Clause> {
    // The owner: the one body application with arrays, whose array
    // arguments are distinct variables.
    let mut owner = None;
    for b in &c.body {
        let arrays: Vec<&Term> = b.args.iter().filter(|a| is_array(a)).collect();
        if arrays.is_empty() {
            continue;
        }
        let distinct = arrays.iter().collect::<FxHashSet<_>>().len() == arrays.len();
        if owner.is_some() || !distinct || arrays.iter().any(|a| a.as_var().is_none()) {
            return None;
        }
        let new = &relations[b.relation].params;
        let cells = &new[new.len() - arrays.len()..];
        owner = Some(Owner {
            relation: b.relation,
            scalars: Vec::new(),
            arrays: arrays
                .into_iter()
                .cloned()
                .zip(cells.iter().cloned())
                .collect(),
        });
    }
    let k = match &owner {
        Some(o) => indices[o.relation]
            .clone()
            .expect("a relation with arrays has an index"),
        None => fresh.var("k", Sort::from(index)),
    };
    let mut m = Morpher {
        owner,
        k,
        instances: Vec::new(),
        others: FxHashMap::default(),
        fresh,
        memo: FxHashMap::default(),
    };
    let mut body = Vec::with_capacity(c.body.len());
    for b in &c.body {
        let scalars: Vec<Term> = b
            .args
            .iter()
            .filter(|a| !is_array(a))
            .map(|a| m.scalar(a))
            .collect::<Option<_>>()?;
        let is_owner = m.owner.as_ref().is_some_and(|o| o.relation == b.relation)
            && b.args.iter().any(is_array);
        let mut args = scalars.clone();
        if is_owner {
            let o = m.owner.as_mut().expect("the owner");
            o.scalars = scalars;
            args.push(m.k.clone());
            args.extend(o.arrays.iter().map(|(_, c)| c.clone()));
        }
        body.push(Application {
            relation: b.relation,
            args,
        });
    }
    let mut constraint = m.scalar(&c.constraint)?;
    let head = match &c.head {
        None => None,
        Some(h) => {
            let mut args: Vec<Term> = Vec::with_capacity(h.args.len() + 1);
            let mut cells = Vec::new();
            for a in &h.args {
                if is_array(a) {
                    let k = m.k.clone();
                    cells.push(m.at(a, &k)?);
                } else {
                    args.push(m.scalar(a)?);
                }
            }
            if indices[h.relation].is_some() {
                args.push(m.k.clone());
                args.extend(cells);
            }
            Some(Application {
                relation: h.relation,
                args,
            })
        }
    };
    for eq in m.consistency() {
        constraint = Term::and(&constraint, &eq);
    }
    if let Some(o) = &m.owner {
        for (e, cells) in &m.instances {
            let mut args = o.scalars.clone();
            args.push(e.clone());
            args.extend(cells.iter().cloned());
            body.push(Application {
                relation: o.relation,
                args,
            });
        }
    }
    debug_assert!(body
        .iter()
        .all(|b| b.args.len() == relations[b.relation].params.len()));
    Some(Clause {
        body,
        constraint,
        head,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(relation: usize, args: &[&Term]) -> Application {
        Application {
            relation,
            args: args.iter().map(|&t| t.clone()).collect(),
        }
    }

    /// `R(i, a) ∧ i < n ⇒ R(i + 1, a{i := 5})` and `R(i, a) ∧ a[i] != 5 ⇒
    /// false`, over integers.
    fn filling() -> HornProblem {
        let (i, n, a) = (Term::int_var("i"), Term::int_var("n"), Term::array_var("a"));
        let five = Term::int(5);
        HornProblem {
            relations: vec![Relation {
                name: "loop".into(),
                params: vec![i.clone(), n.clone(), a.clone()],
            }],
            clauses: vec![
                Clause {
                    body: vec![app(0, &[&i, &n, &a])],
                    constraint: Term::lt(&i, &n),
                    head: Some(app(
                        0,
                        &[
                            &Term::add(&i, &Term::int(1)),
                            &n,
                            &Term::store(&a, &i, &five),
                        ],
                    )),
                },
                Clause {
                    body: vec![app(0, &[&i, &n, &a])],
                    constraint: Term::ne(&Term::select(&a, &i), &five),
                    head: None,
                },
            ],
        }
    }

    #[test]
    fn a_relation_keeps_its_scalars_and_tracks_each_array_by_one_cell() {
        let (p, indices) = morph(&filling()).expect("covered");
        let names: Vec<String> = p.relations[0]
            .params
            .iter()
            .map(|v| v.to_string())
            .collect();
        assert_eq!(names, ["i", "n", "k", "a[k]"]);
        assert_eq!(
            indices[0].as_ref().map(|k| k.to_string()).as_deref(),
            Some("k")
        );
    }

    #[test]
    fn a_store_is_read_at_the_cell_and_a_read_elsewhere_is_an_instance() {
        let (p, _) = morph(&filling()).expect("covered");
        let (k, cell) = (Term::int_var("k"), Term::int_var("a[k]"));
        let i = Term::int_var("i");
        // The store's head: the cell is 5 where `i == k`, as it was elsewhere.
        let head = p.clauses[0].head.as_ref().expect("a head");
        assert_eq!(
            head.args[3],
            Term::ite(&Term::eq(&i, &k), &Term::int(5), &cell)
        );
        assert_eq!(head.args[2], k);
        // The query reads `a[i]`: a second application of the relation at
        // index `i`, whose cell equals the tracked one where `i == k`.
        let q = &p.clauses[1];
        assert_eq!(q.body.len(), 2);
        assert_eq!(q.body[1].args[2], i);
        let r = &q.body[1].args[3];
        assert!(
            q.constraint.mentions(r) && q.constraint.mentions(&cell),
            "{}",
            q.constraint
        );
    }

    #[test]
    fn reads_of_another_array_are_covered_and_two_index_sorts_are_not() {
        let mut p = filling();
        let b = Term::array_var("b");
        p.clauses[1].constraint = Term::not(&Term::equals(
            &Term::select(&p.relations[0].params[2], &Term::int(0)),
            &Term::select(&b, &Term::int(0)),
        ));
        // Reads of another array are fresh values: still covered.
        assert!(morph(&p).is_some());
        // Two index sorts are not.
        p.relations[0]
            .params
            .push(Term::var("c", Sort::Array(Scalar::Bv(8), Scalar::Int)));
        assert!(morph(&p).is_none());
    }
}
