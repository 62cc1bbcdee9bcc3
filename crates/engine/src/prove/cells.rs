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
//! * the head is `H'(t, k, T[k])`;
//! * a query (no head) takes as `k` the index of its first read of the
//!   body's arrays: it must hold at every index, so at that one, and the
//!   read is then the cell itself.
//!
//! With [`Instances::Values`] a read at another index is only the value
//! `r_e`, tied to the cell where the indices are equal: the clauses stay
//! linear (Spacer solves those far more readily), at the price of
//! knowing nothing of other cells.
//!
//! **Soundness.** If `R' ↦ S'` solves the new clauses, `R ↦ ∀k. S'(x, k,
//! A[k])` solves the old ones: given the body and φ, for any `k₀`,
//! instantiate the new clause at `k := k₀`, the cell `A[k₀]`, each
//! `r_e := A[e]` and each fresh read as the array's value there. Every
//! premise holds (the instances by the quantifier, the equalities because
//! they are reads of one array), the rewritten φ is φ (the rewriting is
//! the theory of arrays' read-over-write), so the head holds at `k₀`. A
//! query is the case without a head, and its choice of `k` one `k₀`.
//! Without the instances (values) the premise is only weaker. So a checked solution of the cell
//! clauses (checked like any other, [`HornProblem::check`]) proves the
//! program; the translation is what the proof trusts, and the unit tests
//! below pin its cases.
//!
//! What it does not cover, it refuses (and the prover goes on without
//! it): arrays of several index sorts, array terms outside reads, stores
//! and conditionals (an array compared whole), arrays in two relations
//! of one premise (a call summarised with arrays).

use super::houdini::{collect_constants, constant_like, is_temporary, le, plus, same_width};
use rustc_hash::{FxHashMap, FxHashSet};
use wiser_smt::{Application, Clause, HornProblem, Kind, Relation, Scalar, Sort, Term};

/// The cell clauses of `p`, and per relation the quantified index of its
/// solution (`None` for a relation without arrays); `None` if `p` has no
/// array parameter or has what the translation does not cover.
pub(super) fn morph(
    p: &HornProblem,
    instances: Instances,
) -> Option<(HornProblem, Vec<Option<Term>>)> {
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
        clauses.push(morph_clause(
            &relations, &indices, c, index, instances, &mut fresh,
        )?);
    }
    Some((HornProblem { relations, clauses }, indices))
}

/// Houdini's candidates over cells, per relation of the cell clauses
/// (`indices` from [`morph`]): `k < lo ∨ k >= x ∨ F`, "every cell from
/// `lo` below `x` satisfies `F`", for `lo` 0 or 1, `x` each scalar
/// parameter (at the index's width), and `F` a bound of a cell by a
/// constant of the clauses, a comparison of two cells or their sum with
/// 0, or a cell at least `k` plus 0 to 2. The shape of a loop that has filled `a[lo..x-1]`; Spacer finds these
/// disjunctions slowly, and Houdini keeps the inductive ones.
pub(super) fn candidates(p: &HornProblem, indices: &[Option<Term>]) -> Vec<Vec<Term>> {
    let mut constants: Vec<i64> = vec![0, 1];
    for c in &p.clauses {
        collect_constants(&c.constraint, &mut constants);
        for a in c.body.iter().chain(&c.head) {
            a.args
                .iter()
                .for_each(|t| collect_constants(t, &mut constants));
        }
    }
    constants.sort_by_key(|c| (c.unsigned_abs(), *c));
    constants.dedup();
    constants.truncate(MAX_CELL_CONSTANTS);
    p.relations
        .iter()
        .zip(indices)
        .enumerate()
        .map(|(n, (r, k))| match k {
            Some(k) => cell_candidates(r, k, &constants, &flags(p, n)),
            None => Vec::new(),
        })
        .collect()
}

/// Per parameter of relation `r`: is it a flag, one that every clause
/// into `r` sets to a constant or passes on (through conditionals), never
/// computes? A comparison loop's result (`rv = 0` where two cells
/// differ) is one; a counter is not.
fn flags(p: &HornProblem, r: usize) -> Vec<bool> {
    let params = &p.relations[r].params;
    let mut out = vec![true; params.len()];
    for c in &p.clauses {
        let Some(h) = c.head.as_ref().filter(|h| h.relation == r) else {
            continue;
        };
        let passed: FxHashSet<&Term> = c.body.iter().flat_map(|b| &b.args).collect();
        for (flag, a) in out.iter_mut().zip(&h.args) {
            let mut stack = vec![a];
            while let Some(t) = stack.pop() {
                match t.kind() {
                    Kind::Ite(_, x, y) => stack.extend([x, y]),
                    _ if t.is_const() || passed.contains(t) => {}
                    _ => {
                        *flag = false;
                        break;
                    }
                }
            }
        }
    }
    out
}

/// At most this many constants (the smallest in magnitude) take part in
/// the cells' candidates.
const MAX_CELL_CONSTANTS: usize = 12;

fn cell_candidates(r: &Relation, k: &Term, constants: &[i64], flags: &[bool]) -> Vec<Term> {
    let at = r
        .params
        .iter()
        .position(|v| v == k)
        .expect("the index is a parameter");
    let (scalars, cells) = (&r.params[..at], &r.params[at + 1..]);
    let flagged: Vec<&Term> = scalars
        .iter()
        .zip(flags)
        .filter(|(v, &f)| f && v.sort() != Sort::Bool && !is_temporary(v))
        .map(|(v, _)| v)
        .collect();
    let scalars: Vec<&Term> = scalars.iter().filter(|v| !is_temporary(v)).collect();
    let mut guards: Vec<Term> = Vec::new();
    for lo in [0, 1] {
        guards.push(lt(k, &constant_like(k, lo)));
    }
    let bounds: Vec<Term> = scalars.iter().filter_map(|x| widened(x, k)).collect();
    let mut facts: Vec<Term> = Vec::new();
    for (n, c) in cells.iter().enumerate() {
        if c.sort() == Sort::Bool {
            // A flag per cell (an object freed or not).
            facts.push(c.clone());
            facts.push(Term::not(c));
            continue;
        }
        // (An equality with a constant is both bounds, which Houdini
        // keeps together.)
        for &v in constants {
            let v = constant_like(c, v);
            facts.push(le(c, &v));
            facts.push(le(&v, c));
        }
        for d in &cells[n + 1..] {
            if d.sort() == c.sort() {
                facts.push(Term::equals(c, d));
                facts.push(lt(c, d));
                facts.push(lt(d, c));
                // `b[k] == -a[k]`.
                facts.push(Term::equals(&plus(c, d), &constant_like(c, 0)));
                // `x == 0 ∨ a[k] == b[k]`, `x` a flag ([`flags`]): two
                // arrays equal on the filled part unless the flag says
                // they differ somewhere (a comparison loop's result).
                for x in &flagged {
                    let unset = Term::equals(x, &constant_like(x, 0));
                    facts.push(Term::or(&unset, &Term::equals(c, d)));
                }
            }
        }
        if let Some(wide) = widened(c, k) {
            for d in 0..=2 {
                facts.push(le(&plus(k, &constant_like(k, d)), &wide));
            }
        }
    }
    let mut out = Vec::new();
    for lower in &guards {
        for upper in &bounds {
            for f in &facts {
                out.push(Term::or_all([lower.clone(), le(upper, k), f.clone()]));
            }
        }
    }
    out
}

/// `x` at the sort of `k` (sign-extended from a narrower bit-vector), if
/// it has one.
fn widened(x: &Term, k: &Term) -> Option<Term> {
    same_width(x, k).filter(|(_, at)| at == k).map(|(x, _)| x)
}

fn lt(a: &Term, b: &Term) -> Term {
    Term::not(&le(b, a))
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

/// What a read of a tracked array at an index other than the clause's
/// own becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Instances {
    /// The relation's instance at that index, added to the premise (the
    /// clause becomes non-linear).
    Premises,
    /// A value equal to the cell where the indices are equal, and
    /// otherwise free: weaker, but the clauses stay linear, which Spacer
    /// solves far more readily. (A query is linear either way when it
    /// reads at one index: its index is that one.)
    Values,
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
    /// The premise's relation whose arrays the cell tracks, if any.
    owner: Option<Owner>,
    /// The clause's index: the owner's, or a fresh one; in a query, the
    /// index of its first read of the owner's arrays.
    k: Term,
    /// A query whose index is still to be chosen.
    choose_k: bool,
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
                // A query holds for every index: at its first read's, that
                // read is the cell itself.
                if self.choose_k {
                    self.choose_k = false;
                    self.k = i.clone();
                }
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
        let name = a.as_var().map_or("input", |n| n);
        let reads = self.others.entry(a.clone()).or_default();
        if let Some((_, v)) = reads.iter().find(|(e, _)| e == i) {
            return Some(v.clone());
        }
        let v = self.fresh.var(name, elem);
        reads.push((i.clone(), v.clone()));
        Some(v)
    }

    /// `t` with every read rewritten; `None` if an array is left (an
    /// array compared whole).
    fn scalar(&mut self, t: &Term) -> Option<Term> {
        let out = self.rewrite(t)?;
        (!mentions_array_node(&out)).then_some(out)
    }

    /// `t` with every read in it rewritten (an array term stays one, its
    /// stores' indices and values rewritten).
    fn rewrite(&mut self, t: &Term) -> Option<Term> {
        let mut memo: FxHashMap<usize, Option<Term>> = FxHashMap::default();
        t.fold_up_with(&mut memo, |node, of| {
            let mut kids = Vec::new();
            for c in node.children() {
                kids.push(of(c)?);
            }
            match node.kind() {
                Kind::Select(..) => self.at(&kids[0], &kids[1]),
                _ => Some(node.with_children(&kids)),
            }
        })
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
    instances: Instances,
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
    let choose_k = owner.is_some() && c.head.is_none();
    let mut m = Morpher {
        owner,
        k,
        choose_k,
        instances: Vec::new(),
        others: FxHashMap::default(),
        fresh,
        memo: FxHashMap::default(),
    };
    let mut scalars = Vec::with_capacity(c.body.len());
    for b in &c.body {
        let xs: Vec<Term> = b
            .args
            .iter()
            .filter(|a| !is_array(a))
            .map(|a| m.scalar(a))
            .collect::<Option<_>>()?;
        scalars.push(xs);
    }
    let mut constraint = m.scalar(&c.constraint)?;
    let head = match &c.head {
        None => None,
        Some(h) => {
            let mut args: Vec<Term> = Vec::with_capacity(h.args.len() + 1);
            let mut cells = Vec::new();
            for a in &h.args {
                if is_array(a) {
                    let (k, a) = (m.k.clone(), m.rewrite(a)?);
                    cells.push(m.at(&a, &k)?);
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
    // The premise's applications, the owner's at the clause's index.
    let mut body = Vec::with_capacity(c.body.len() + m.instances.len());
    for (b, xs) in c.body.iter().zip(scalars) {
        let mut args = xs;
        if let Some(o) = m.owner.as_mut().filter(|o| o.relation == b.relation) {
            if b.args.iter().any(is_array) {
                o.scalars = args.clone();
                args.push(m.k.clone());
                args.extend(o.arrays.iter().map(|(_, c)| c.clone()));
            }
        }
        body.push(Application {
            relation: b.relation,
            args,
        });
    }
    if let (Some(o), Instances::Premises) = (&m.owner, instances) {
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

    /// `R(i, a) ∧ i < n ⇒ R(i + 1, a{i := 5})`, `R(i, a) ∧ a[i] != 5 ⇒
    /// false` and `R(i, a) ∧ a[i] == 5 ⇒ R(i + 1, a)`, over integers.
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
                Clause {
                    body: vec![app(0, &[&i, &n, &a])],
                    constraint: Term::eq(&Term::select(&a, &i), &five),
                    head: Some(app(0, &[&Term::add(&i, &Term::int(1)), &n, &a])),
                },
            ],
        }
    }

    #[test]
    fn a_flag_is_set_to_constants_or_passed_on_and_a_counter_is_not() {
        // `filling` with a flag `f`: the store clears it where `i == 3`.
        let mut p = filling();
        let f = Term::int_var("f");
        p.relations[0].params.push(f.clone());
        for c in &mut p.clauses {
            c.body[0].args.push(f.clone());
            if let Some(h) = &mut c.head {
                h.args.push(f.clone());
            }
        }
        let cleared = Term::ite(
            &Term::eq(&Term::int_var("i"), &Term::int(3)),
            &Term::int(0),
            &f,
        );
        *p.clauses[0].head.as_mut().unwrap().args.last_mut().unwrap() = cleared;
        // i counts, n and f are passed on or set, a is passed on or stored into.
        assert_eq!(flags(&p, 0), [false, true, false, true]);
    }

    #[test]
    fn a_relation_keeps_its_scalars_and_tracks_each_array_by_one_cell() {
        let (p, indices) = morph(&filling(), Instances::Premises).expect("covered");
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
        let (p, _) = morph(&filling(), Instances::Premises).expect("covered");
        let (k, cell) = (Term::int_var("k"), Term::int_var("a[k]"));
        let i = Term::int_var("i");
        // The store's head: the cell is 5 where `i == k`, as it was elsewhere.
        let head = p.clauses[0].head.as_ref().expect("a head");
        assert_eq!(
            head.args[3],
            Term::ite(&Term::eq(&i, &k), &Term::int(5), &cell)
        );
        assert_eq!(head.args[2], k);
        // The checking loop reads `a[i]` on its way: a second application
        // of the relation at index `i`, whose cell equals the tracked one
        // where `i == k`.
        let step = &p.clauses[2];
        assert_eq!(step.body.len(), 2);
        assert_eq!(step.body[1].args[2], i);
        let r = &step.body[1].args[3];
        assert!(
            step.constraint.mentions(r) && step.constraint.mentions(&cell),
            "{}",
            step.constraint
        );
        // With values instead, the read is a value tied to the cell where
        // the indices meet, and the clause stays linear.
        let (q, _) = morph(&filling(), Instances::Values).expect("covered");
        assert_eq!(q.clauses[2].body.len(), 1);
        assert!(q.clauses[2].constraint.mentions(&cell));
    }

    #[test]
    fn a_query_is_read_at_its_own_index_and_values_keep_clauses_linear() {
        let (p, _) = morph(&filling(), Instances::Values).expect("covered");
        let (i, cell) = (Term::int_var("i"), Term::int_var("a[k]"));
        // The query reads `a[i]` only: its index is `i`, the read its cell.
        let q = &p.clauses[1];
        assert_eq!(q.body.len(), 1);
        assert_eq!(q.body[0].args[2], i);
        assert_eq!(q.constraint, Term::ne(&cell, &Term::int(5)));
        assert!(p.clauses.iter().all(|c| c.body.len() <= 1));
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
        assert!(morph(&p, Instances::Premises).is_some());
        // Two index sorts are not.
        p.relations[0]
            .params
            .push(Term::var("c", Sort::Array(Scalar::Bv(8), Scalar::Int)));
        assert!(morph(&p, Instances::Premises).is_none());
    }
}
