//! The wire format: every kind of node, models and answers round-trip
//! exactly, and no input, however malformed, makes decoding panic.
//!
//! Terms are built here with `Term::new` directly, not the normalising
//! constructors, so that every variant and shapes the constructors would
//! never make (a one-element `and`, a linear term with a zero
//! coefficient) are covered: the child must rebuild what it is sent, not
//! what it would have built.

use super::*;
use crate::model::ArrayValue;
use proptest::prelude::*;
use std::hash::{Hash, Hasher};

/// A small deterministic generator (xorshift), driven by a proptest seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn int(&mut self) -> Int {
        match self.below(5) {
            0 => Int::from(self.below(5) as i64 - 2),
            1 => Int::from(self.next() as i64),
            2 => Int::from(i64::MIN),
            // Beyond i64: sent as decimal text.
            3 => Int::from(i64::MAX).mul(&Int::from(self.next() as i64)),
            _ => Int::from(i64::MIN).sub(&Int::from((self.next() >> 1) as i64)),
        }
    }
}

const WIDTHS: [u8; 5] = [1, 8, 16, 32, 64];
const SCALARS: [Scalar; 4] = [Scalar::Bool, Scalar::Int, Scalar::Bv(8), Scalar::Bv(64)];

/// Random well-sorted terms of every kind: a pool of terms grown one node
/// at a time, each node's children drawn from the pool.
struct Pool {
    rng: Rng,
    terms: Vec<Term>,
}

impl Pool {
    fn new(seed: u64) -> Pool {
        let mut p = Pool {
            rng: Rng(seed | 1),
            terms: Vec::new(),
        };
        for (i, sort) in [Sort::Int, Sort::Bool]
            .into_iter()
            .chain(WIDTHS.map(Sort::Bv))
            .chain([
                Sort::Array(Scalar::Int, Scalar::Int),
                Sort::Array(Scalar::Bv(8), Scalar::Bool),
                Sort::Array(Scalar::Bv(64), Scalar::Bv(8)),
            ])
            .enumerate()
        {
            // Names that are not identifiers travel too.
            let name = if i % 3 == 0 {
                format!("v {i} ∀")
            } else {
                format!("v{i}")
            };
            p.add(Kind::Var(name.into(), sort));
        }
        p
    }

    fn add(&mut self, kind: Kind) -> Term {
        let t = Term::new(kind);
        self.terms.push(t.clone());
        t
    }

    /// A term of sort `sort`, made if the pool has none.
    fn of(&mut self, sort: Sort) -> Term {
        let matching: Vec<&Term> = self.terms.iter().filter(|t| t.sort() == sort).collect();
        if !matching.is_empty() && self.rng.below(4) != 0 {
            return matching[self.rng.below(matching.len())].clone();
        }
        let kind = match sort {
            Sort::Int => Kind::Int(self.rng.int()),
            Sort::Bool => Kind::Bool(self.rng.below(2) == 0),
            Sort::Bv(w) => Kind::Bv {
                width: w,
                bits: self.rng.next() & wiser_num::bv::mask(u32::from(w)),
            },
            Sort::Array(_, e) => {
                let v = self.of(e.into());
                Kind::ConstArray(sort, v)
            }
        };
        self.add(kind)
    }

    fn width(&mut self) -> u8 {
        WIDTHS[self.rng.below(WIDTHS.len())]
    }

    fn array_sort(&mut self) -> Sort {
        let i = SCALARS[self.rng.below(4)];
        let e = SCALARS[self.rng.below(4)];
        Sort::Array(i, e)
    }

    /// A random float operation, with integer types of any width.
    fn float_op(&mut self) -> FloatOp {
        use crate::fp::{FBIN_OPS, FCLASSES, FUN_OPS};
        let t = FloatTy::ALL[self.rng.below(2)];
        let u = FloatTy::ALL[self.rng.below(2)];
        let i = match self.rng.below(3) {
            0 => IntTy::INT,
            _ => IntTy::fixed(1 + self.rng.below(64) as u32, self.rng.below(2) == 0).unwrap(),
        };
        match self.rng.below(9) {
            0 => FloatOp::Binary(FBIN_OPS[self.rng.below(6)], t),
            1 => FloatOp::Unary(FUN_OPS[self.rng.below(8)], t),
            2 => FloatOp::Fma(t),
            3 => FloatOp::Cmp(CmpOp::ALL[self.rng.below(6)], t),
            4 => FloatOp::Class(FCLASSES[self.rng.below(6)], t),
            5 => FloatOp::FromInt(i, t),
            6 => FloatOp::ToInt(t, i),
            7 => FloatOp::ToIntOverflows(t, i),
            _ => FloatOp::Convert(t, u),
        }
    }

    /// Adds one random node of a random kind (all 28 come up).
    fn grow(&mut self) -> Term {
        let int = Sort::Int;
        let kind = match self.rng.below(28) {
            0 => Kind::Int(self.rng.int()),
            1 => Kind::Bool(self.rng.below(2) == 1),
            2 => {
                let i = self.rng.below(1000);
                Kind::Var(format!("x{i}").into(), self.array_sort())
            }
            3 => {
                let n = self.rng.below(4);
                let ms = (0..n).map(|_| (self.of(int), self.rng.int())).collect();
                Kind::Linear(ms, self.rng.int())
            }
            4 => Kind::Mul(self.of(int), self.of(int)),
            5 => Kind::Div(self.of(int), self.of(int)),
            6 => Kind::Rem(self.of(int), self.of(int)),
            7 => {
                let s = match self.rng.below(4) {
                    0 => self.array_sort(),
                    1 => Sort::Bv(self.width()),
                    2 => Sort::Bool,
                    _ => int,
                };
                Kind::Ite(self.of(Sort::Bool), self.of(s), self.of(s))
            }
            8 | 9 => {
                let sort = self.array_sort();
                let Sort::Array(i, e) = sort else {
                    unreachable!()
                };
                let (a, i) = (self.of(sort), self.of(i.into()));
                if self.rng.below(2) == 0 {
                    Kind::Select(a, i)
                } else {
                    Kind::Store(a, i, self.of(e.into()))
                }
            }
            10 => {
                let sort = self.array_sort();
                let Sort::Array(_, e) = sort else {
                    unreachable!()
                };
                Kind::ConstArray(sort, self.of(e.into()))
            }
            11 => Kind::Le(self.of(int)),
            12 => Kind::Eq(self.of(int)),
            13 => Kind::Not(self.of(Sort::Bool)),
            14 | 15 => {
                let n = self.rng.below(4);
                let xs: Box<[Term]> = (0..n).map(|_| self.of(Sort::Bool)).collect();
                if self.rng.below(2) == 0 {
                    Kind::And(xs)
                } else {
                    Kind::Or(xs)
                }
            }
            16 => {
                let w = self.width();
                Kind::Bv {
                    width: w,
                    bits: self.rng.next() & wiser_num::bv::mask(u32::from(w)),
                }
            }
            17 => {
                let w = Sort::Bv(self.width());
                let op = BvOp::ALL[self.rng.below(13)];
                Kind::BvBin(op, self.of(w), self.of(w))
            }
            18 => {
                let w = self.width();
                Kind::BvNeg(self.of(Sort::Bv(w)))
            }
            19 => {
                let w = self.width();
                Kind::BvNot(self.of(Sort::Bv(w)))
            }
            20 => {
                let w = Sort::Bv(self.width());
                let p = PREDS[self.rng.below(4)];
                Kind::BvCmp(p, self.of(w), self.of(w))
            }
            21 => {
                let w = Sort::Bv(self.width());
                Kind::BvEq(self.of(w), self.of(w))
            }
            22 | 23 => {
                let (a, b) = (self.rng.below(4), 1 + self.rng.below(4));
                let (narrow, wide) = (WIDTHS[a], WIDTHS[a.max(b)]);
                let (narrow, wide) = if narrow == wide {
                    (8, 64)
                } else {
                    (narrow, wide)
                };
                if self.rng.below(2) == 0 {
                    Kind::Extend {
                        signed: self.rng.below(2) == 0,
                        width: wide,
                        t: self.of(Sort::Bv(narrow)),
                    }
                } else {
                    Kind::Extract {
                        width: narrow,
                        t: self.of(Sort::Bv(wide)),
                    }
                }
            }
            24 => {
                let w = self.width();
                Kind::BvToInt {
                    signed: self.rng.below(2) == 0,
                    t: self.of(Sort::Bv(w)),
                }
            }
            25 => {
                let width = self.width();
                Kind::IntToBv {
                    width,
                    t: self.of(int),
                }
            }
            26 => {
                let w = Sort::Bv(self.width());
                let op = OVF_OPS[self.rng.below(3)];
                Kind::SOvf(op, self.of(w), self.of(w))
            }
            _ => {
                let op = self.float_op();
                let args = op
                    .operands()
                    .into_iter()
                    .map(|o| self.of(crate::fp::operand_sort(o)))
                    .collect();
                Kind::Fp(op, args)
            }
        };
        self.add(kind)
    }
}

/// Splits `bytes` into frame bodies.
fn frames(mut bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    while let Ok(Some(n)) = frame_len(bytes) {
        out.push(&bytes[4..n]);
        bytes = &bytes[n..];
    }
    assert!(bytes.is_empty(), "a partial frame is left");
    out
}

fn hash_of(t: &Term) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    t.hash(&mut h);
    h.finish()
}

/// Sends `roots` as a query (the nodes, then the query frame) and reads
/// it back into `table`; returns the query if it was boolean.
fn round_trip(
    roots: &[Term],
    sent: &mut FxHashMap<Term, u32>,
    table: &mut Vec<Term>,
) -> Option<Query> {
    let mut out = Vec::new();
    put_query(
        &mut out,
        roots,
        sent,
        Some(Duration::from_millis(7)),
        &|| false,
    )
    .expect("encodes");
    let mut query = None;
    for f in frames(&out) {
        match read_request(f, table) {
            Ok(q) => query = q,
            // Only the query frame may fail: it asks for boolean roots.
            Err(e) => assert_eq!(f[0], QUERY, "{e}"),
        }
    }
    assert_eq!(table.len(), sent.len());
    for (t, &id) in sent.iter() {
        let back = &table[id as usize];
        assert_eq!(back, t);
        assert_eq!(hash_of(back), hash_of(t));
        assert_eq!((back.sort(), back.depth()), (t.sort(), t.depth()));
        assert_eq!(format!("{:?}", back.kind()), format!("{:?}", t.kind()));
    }
    query
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random terms of every kind arrive equal to what was sent, over
    /// several queries that share nodes (each node is sent once).
    #[test]
    fn every_kind_round_trips(seed in any::<u64>()) {
        let mut pool = Pool::new(seed);
        let mut sent = FxHashMap::default();
        let mut table = Vec::new();
        let mut kinds = std::collections::HashSet::new();
        for _ in 0..8 {
            let roots: Vec<Term> = (0..10).map(|_| pool.grow()).collect();
            for t in &roots {
                kinds.insert(std::mem::discriminant(t.kind()));
            }
            let query = round_trip(&roots, &mut sent, &mut table);
            // Nothing is sent twice: asked again, only the query goes.
            let mut again = Vec::new();
            put_query(&mut again, &roots, &mut sent, None, &|| false).expect("encodes");
            prop_assert_eq!(frames(&again).len(), 1);
            if roots.iter().all(|t| t.sort() == Sort::Bool) {
                let q = query.expect("a boolean query");
                prop_assert_eq!(&q.constraints, &roots);
                prop_assert_eq!(q.budget, Some(Duration::from_millis(7)));
            }
        }
        let bools: Vec<Term> = pool.terms.iter().filter(|t| t.sort() == Sort::Bool).cloned().collect();
        let q = round_trip(&bools, &mut sent, &mut table).expect("a boolean query");
        prop_assert_eq!(q.constraints, bools);
        prop_assert!(kinds.len() >= 20, "only {} kinds came up", kinds.len());
    }

    /// Models, verdicts and statistics arrive equal to what was sent.
    #[test]
    fn answers_round_trip(seed in any::<u64>()) {
        let mut rng = Rng(seed | 1);
        let mut m = Model::new();
        for i in 0..rng.below(6) {
            m.set_int(format!("i{i}").into(), rng.int());
        }
        for i in 0..rng.below(6) {
            m.set_bool(format!("b{i}").into(), rng.below(2) == 0);
        }
        for i in 0..rng.below(4) {
            let mut a = ArrayValue { default: rng.int(), ..ArrayValue::default() };
            for _ in 0..rng.below(5) {
                a.entries.insert_mut(rng.int(), rng.int());
            }
            m.set_array(format!("a{i}").into(), a);
        }
        let mut stats = SolverStats::default();
        let (cs, time) = stats.counters();
        for c in cs {
            *c = rng.next() >> rng.below(64);
        }
        *time = Duration::from_nanos(rng.next() >> 1);
        for answer in [Answer::Sat(m), Answer::Unsat, Answer::Unknown("canceled ∎".into())] {
            let mut out = Vec::new();
            put_answer(&mut out, &answer, &stats).expect("encodes");
            let f = frames(&out);
            prop_assert_eq!(f.len(), 1);
            let back = read_response(f[0]).expect("decodes");
            prop_assert_eq!(back, Response::Answer(answer, Box::new(stats.clone())));
        }
    }

    /// Random bytes never make decoding panic (requests or responses).
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let mut table = vec![Term::int_var("x"), Term::bool_var("p"), Term::var("b", Sort::Bv(8))];
        let _ = read_request(&bytes, &mut table);
        let _ = read_response(&bytes);
        for tag in [NODES, QUERY, READY, ANSWER, ERROR] {
            let mut framed = vec![tag];
            framed.extend_from_slice(&bytes);
            let _ = read_request(&framed, &mut table);
            let _ = read_response(&framed);
        }
        let _ = frame_len(&bytes);
        let mut buf = Vec::new();
        let _ = read_frame(&mut &bytes[..], &mut buf);
    }

    /// Valid encodings with bytes changed or cut short never make
    /// decoding panic: these reach far deeper than random bytes do.
    #[test]
    fn damaged_encodings_never_panic(seed in any::<u64>(), edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let mut pool = Pool::new(seed);
        let roots: Vec<Term> = (0..12).map(|_| pool.grow()).collect();
        let mut out = Vec::new();
        put_query(&mut out, &roots, &mut FxHashMap::default(), None, &|| false).expect("encodes");
        let mut m = Model::new();
        m.set_int("x".into(), Int::from(i64::MAX).mul(&Int::from(3)));
        m.set_bool("p".into(), true);
        m.set_array("a".into(), ArrayValue::default());
        put_answer(&mut out, &Answer::Sat(m), &SolverStats::default()).expect("encodes");
        let bodies: Vec<Vec<u8>> = frames(&out).into_iter().map(<[u8]>::to_vec).collect();
        let (first, last) = (edits[0].0, edits[edits.len() - 1].0);
        for (i, mut body) in bodies.into_iter().enumerate() {
            for &(at, byte) in &edits {
                let at = at % body.len();
                body[at] = byte;
            }
            if (first ^ i) % 3 == 0 {
                body.truncate(last % body.len());
            }
            let mut table = Vec::new();
            let _ = read_request(&body, &mut table);
            let _ = read_response(&body);
        }
    }
}

/// Ill-sorted or ill-formed nodes are errors, not panics (the Z3
/// translation and the evaluator assume well-sorted terms).
#[test]
fn malformed_nodes_are_rejected() {
    let mut table = vec![
        Term::int_var("x"),
        Term::bool_var("p"),
        Term::var("b", Sort::Bv(8)),
    ];
    let node = |bytes: &[u8]| {
        let mut f = vec![NODES];
        f.extend_from_slice(&3u32.to_le_bytes());
        f.extend_from_slice(bytes);
        f
    };
    let id = |i: u32| i.to_le_bytes();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (node(&[8, 0, 0, 0, 0, 0, 0, 0, 0]), "expected an array"),
        (node(&[4, 1, 0, 0, 0, 0, 0, 0, 0]), "expected sort Int"),
        (node(&[13, 0, 0, 0, 0]), "expected sort Bool"),
        (node(&[23, 8, 2, 0, 0, 0]), "extraction"),
        (node(&[22, 0, 8, 2, 0, 0, 0]), "extension"),
        (node(&[16, 0, 0, 0, 0, 0, 0, 0, 0, 0]), "width 0"),
        (node(&[16, 65, 0, 0, 0, 0, 0, 0, 0, 0]), "width 65"),
        (node(&[16, 4, 16, 0, 0, 0, 0, 0, 0, 0]), "does not fit"),
        (node(&[17, 13, 2, 0, 0, 0, 2, 0, 0, 0]), "operator"),
        (node(&[21, 0, 0, 0, 0, 2, 0, 0, 0]), "bit-vector"),
        (node(&[2, 1, 0, 0, 0, 0, 1]), "NUL"),
        (node(&[9, 9, 9, 9, 9]), "never sent"),
        (node(&[99]), "bad node tag"),
        (node(&[3, 255, 255, 255, 255]), "exceeds the frame"),
        (node(&[0, 1, 1, 0, 0, 0, b'x']), "malformed integer"),
        (node(&[27, 9]), "bad float operation"),
        (node(&[27, 0, 6, 0, 2, 0, 0, 0, 2, 0, 0, 0]), "operator"),
        (node(&[27, 8, 0, 2, 2, 0, 0, 0]), "operator"),
        (node(&[27, 5, 0, 0, 0, 0, 0, 0, 0]), "integer type"),
        (node(&[27, 6, 0, 65, 1, 2, 0, 0, 0]), "integer type"),
        (node(&[27, 4, 0, 0, 2, 0, 0, 0]), "expected sort Bv(32)"),
        (node(&[27, 5, 0, 1, 0, 2, 0, 0, 0]), "expected sort Int"),
    ];
    for (frame, expected) in cases {
        let err = read_request(&frame, &mut table).expect_err(expected);
        assert!(err.0.contains(expected), "{}: {err}", expected);
    }
    // Ids must be the next free one.
    let mut f = vec![NODES];
    f.extend_from_slice(&id(5));
    f.extend_from_slice(&[1, 1]);
    assert!(read_request(&f, &mut table).is_err());
    // A query must be boolean.
    let mut f = vec![QUERY, 0];
    f.extend_from_slice(&id(1));
    f.extend_from_slice(&id(0));
    assert!(read_request(&f, &mut table).is_err());
    assert_eq!(table.len(), 3);
}

/// Every float operation, on both types and integer types of several
/// widths and both signs, arrives as sent.
#[test]
fn every_float_operation_round_trips() {
    use crate::fp::{FBIN_OPS, FCLASSES, FUN_OPS};
    let mut ops = Vec::new();
    for t in FloatTy::ALL {
        ops.extend(FBIN_OPS.map(|o| FloatOp::Binary(o, t)));
        ops.extend(FUN_OPS.map(|o| FloatOp::Unary(o, t)));
        ops.push(FloatOp::Fma(t));
        ops.extend(CmpOp::ALL.map(|o| FloatOp::Cmp(o, t)));
        ops.extend(FCLASSES.map(|c| FloatOp::Class(c, t)));
        ops.extend(FloatTy::ALL.map(|u| FloatOp::Convert(t, u)));
        for i in IntTy::NAMED.into_iter().chain(IntTy::fixed(3, true)) {
            ops.extend([
                FloatOp::FromInt(i, t),
                FloatOp::ToInt(t, i),
                FloatOp::ToIntOverflows(t, i),
            ]);
        }
    }
    let roots: Vec<Term> = ops
        .iter()
        .enumerate()
        .map(|(k, &op)| {
            let args: Vec<Term> = op
                .operands()
                .into_iter()
                .enumerate()
                .map(|(j, o)| Term::var(format!("f{k}_{j}"), crate::fp::operand_sort(o)))
                .collect();
            Term::fp(op, &args)
        })
        .collect();
    let (mut sent, mut table) = (FxHashMap::default(), Vec::new());
    round_trip(&roots, &mut sent, &mut table);
    for t in &roots {
        let back = &table[sent[t] as usize];
        assert_eq!(back.kind(), t.kind());
        assert_eq!(back.to_string(), t.to_string());
    }
}

#[test]
fn frames_have_bounded_lengths() {
    let mut buf = Vec::new();
    let huge = (MAX_FRAME as u32 + 1).to_le_bytes();
    assert!(read_frame(&mut &huge[..], &mut buf).is_err());
    assert!(frame_len(&0u32.to_le_bytes()).is_err());
    // A clean end between frames; a cut inside one is an error.
    assert!(!read_frame(&mut &[][..], &mut buf).expect("end of input"));
    assert!(read_frame(&mut &[5, 0][..], &mut buf).is_err());
    assert!(read_frame(&mut &[5, 0, 0, 0, 1][..], &mut buf).is_err());
}

/// Many new nodes are split over frames of bounded size.
#[test]
fn large_queries_are_split_into_frames() {
    let mut t = Term::int_var("x");
    for i in 0..200_000 {
        t = Term::new(Kind::Linear(
            vec![(t, Int::from(i))].into_boxed_slice(),
            Int::ONE,
        ));
    }
    let root = Term::new(Kind::Le(t));
    let mut sent = FxHashMap::default();
    let mut table = Vec::new();
    let mut out = Vec::new();
    put_query(
        &mut out,
        std::slice::from_ref(&root),
        &mut sent,
        None,
        &|| false,
    )
    .expect("encodes");
    let fs = frames(&out);
    assert!(fs.len() > 2);
    assert!(fs.iter().all(|f| f.len() <= NODE_FRAME + 64));
    let mut query = None;
    for f in fs {
        query = read_request(f, &mut table).expect("decodes");
    }
    // `==` on two distinct copies of a term this deep would recurse to
    // its depth: compare node by node instead, each child by identity
    // with the copy of the original child.
    for (t, &id) in sent.iter() {
        let back = &table[id as usize];
        assert_eq!(hash_of(back), hash_of(t));
        assert_eq!((back.sort(), back.depth()), (t.sort(), t.depth()));
        let (bc, tc) = (back.children(), t.children());
        assert_eq!(bc.len(), tc.len());
        for (b, c) in bc.into_iter().zip(tc) {
            assert!(b.ptr_eq(&table[sent[c] as usize]));
        }
    }
    let q = query.expect("a query");
    assert!(q.constraints.len() == 1 && q.constraints[0].ptr_eq(&table[sent[&root] as usize]));
}

#[test]
fn stats_deltas_subtract_every_counter() {
    let mut a = SolverStats::default();
    let (cs, t) = a.counters();
    for (i, c) in cs.into_iter().enumerate() {
        *c = 10 + i as u64;
    }
    *t = Duration::from_millis(30);
    let mut b = SolverStats::default();
    let (cs, t) = b.counters();
    for c in cs {
        *c = 10;
    }
    *t = Duration::from_millis(20);
    let mut d = stats_delta(&a, &b);
    let (cs, t) = d.counters();
    for (i, c) in cs.into_iter().enumerate() {
        assert_eq!(*c, i as u64);
    }
    assert_eq!(*t, Duration::from_millis(10));
}
