//! The wire format between a [`crate::ProcessSolver`] (the parent) and its
//! solver process ([`crate::serve`], the child).
//!
//! Everything travels in frames: a little-endian `u32` length, then that
//! many bytes, the first of which says what the frame is. Numbers are
//! little-endian; an integer constant is `0u8, i64` or, when it does not fit
//! an `i64`, `1u8` and its decimal text; a string is a `u32` length and
//! UTF-8; a sort is `0` bool, `1` int, `2, width` bit-vector or `3` array
//! followed by two scalar sorts (coded the same way).
//!
//! Parent to child:
//! * `N` (nodes): term nodes until the end of the frame, each its id (the
//!   next free one: ids are dense from 0), a kind tag (the position of the
//!   variant in [`Kind`]), the payload (constants, names and sorts, widths,
//!   operators; a float operation's as `put_float_op` writes it) and the
//!   ids of its children. A node is sent once per child
//!   process, after its children, so each frame refers only to nodes the
//!   child already has.
//! * `Q` (query): a budget (`0u8`, or `1u8` and milliseconds as `u64`),
//!   then a `u32` count and the ids of the constraints.
//!
//! Child to parent:
//! * `R` (ready): the protocol version, once the child's Z3 context exists.
//! * `A` (answer): `0` sat and the model (integer and bit-vector variables
//!   with their values, booleans, arrays with their default and entries),
//!   `1` unsat, or `2` unknown and the reason; then the changes of the
//!   child's [`SolverStats`] over the query: every counter as `u64`, then
//!   the time in Z3 in nanoseconds.
//! * `E` (error): a message, sent before the child gives up on a frame it
//!   cannot read.
//!
//! The child rebuilds each node with [`Term::new`] from exactly the kind
//! the parent's node has, without normalising again, so its terms equal
//! the parent's (same hash, same shape). It checks sorts as it goes: the
//! Z3 translation and the evaluator assume well-sorted terms, and a child
//! must answer malformed input with an error, never with a panic.

use crate::fp::{FBIN_OPS, FCLASSES, FUN_OPS};
use crate::model::Model;
use crate::solver::{Answer, SolverStats};
use crate::term::{BvOp, BvPred, Kind, OvfOp, Scalar, Sort, Term};
use rustc_hash::FxHashMap;
use std::io::{self, Read};
use std::time::Duration;
use wiser_num::{CmpOp, FloatOp, FloatTy, Int, IntTy};

/// Bumped whenever the format changes: a `wiser` binary that re-executes
/// itself always matches, but a test or a stale server might not.
pub(crate) const VERSION: u32 = 2;

/// No frame is longer: a length beyond it is malformed input, not a
/// request to allocate gigabytes.
pub(crate) const MAX_FRAME: usize = 256 << 20;

/// A node frame is closed once it passes this size, so that a query with
/// many new nodes never nears [`MAX_FRAME`].
const NODE_FRAME: usize = 1 << 20;

const NODES: u8 = b'N';
const QUERY: u8 = b'Q';
const READY: u8 = b'R';
const ANSWER: u8 = b'A';
const ERROR: u8 = b'E';

/// Malformed input, or a message that cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProtocolError(pub String);

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "solver protocol: {}", self.0)
    }
}

impl std::error::Error for ProtocolError {}

impl From<ProtocolError> for io::Error {
    fn from(e: ProtocolError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

type Result<T> = std::result::Result<T, ProtocolError>;

fn error<T>(what: impl Into<String>) -> Result<T> {
    Err(ProtocolError(what.into()))
}

/// A query as the child receives it.
#[derive(Debug)]
pub(crate) struct Query {
    /// How long the check may take.
    pub budget: Option<Duration>,
    /// The constraints (boolean terms).
    pub constraints: Vec<Term>,
}

/// A frame from the child.
#[derive(Debug, PartialEq)]
pub(crate) enum Response {
    /// The child is ready, speaking this protocol version.
    Ready(u32),
    /// The answer to the last query, and the child's work on it (boxed:
    /// the counters outweigh the other variants).
    Answer(Answer, Box<SolverStats>),
    /// The child could not read a frame, and gives up.
    Error(String),
}

// ---------------------------------------------------------------------
// Framing.

/// Starts a frame of type `tag` in `out`; returns where it starts.
fn begin_frame(out: &mut Vec<u8>, tag: u8) -> usize {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    out.push(tag);
    start
}

/// Closes the frame started at `start` by writing its length.
fn end_frame(out: &mut [u8], start: usize) -> Result<()> {
    let len = out.len() - start - 4;
    if len > MAX_FRAME {
        return error(format!("a frame of {len} bytes is too long"));
    }
    out[start..start + 4].copy_from_slice(&(len as u32).to_le_bytes());
    Ok(())
}

/// The length of the whole first frame in `buf` (with its header), once
/// the header is there.
pub(crate) fn frame_len(buf: &[u8]) -> Result<Option<usize>> {
    let Some(header) = buf.get(..4) else {
        return Ok(None);
    };
    let len = u32::from_le_bytes([header[0], header[1], header[2], header[3]]) as usize;
    if len == 0 || len > MAX_FRAME {
        return error(format!("bad frame length {len}"));
    }
    Ok(Some(4 + len))
}

/// Reads one frame's body (without the length) into `buf`, blocking.
/// `Ok(false)` at the end of input between frames.
pub(crate) fn read_frame(input: &mut impl Read, buf: &mut Vec<u8>) -> io::Result<bool> {
    let mut header = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match input.read(&mut header[got..]) {
            Ok(0) if got == 0 => return Ok(false),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let len = frame_len(&header)?.unwrap_or(4) - 4;
    buf.clear();
    // Grows with the data that actually arrives, so a bogus length costs
    // no allocation.
    let read = input.take(len as u64).read_to_end(buf)?;
    if read < len {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(true)
}

// ---------------------------------------------------------------------
// Writing.

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) -> Result<()> {
    let Ok(len) = u32::try_from(s.len()) else {
        return error("a string is too long");
    };
    put_u32(out, len);
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

fn put_int(out: &mut Vec<u8>, n: &Int) -> Result<()> {
    match n.to_i64() {
        Some(v) => {
            out.push(0);
            out.extend_from_slice(&v.to_le_bytes());
            Ok(())
        }
        None => {
            out.push(1);
            put_str(out, &n.to_string())
        }
    }
}

fn put_scalar(out: &mut Vec<u8>, s: Scalar) {
    match s {
        Scalar::Bool => out.push(0),
        Scalar::Int => out.push(1),
        Scalar::Bv(w) => out.extend_from_slice(&[2, w]),
    }
}

fn put_sort(out: &mut Vec<u8>, s: Sort) {
    match s {
        Sort::Bool => put_scalar(out, Scalar::Bool),
        Sort::Int => put_scalar(out, Scalar::Int),
        Sort::Bv(w) => put_scalar(out, Scalar::Bv(w)),
        Sort::Array(i, e) => {
            out.push(3);
            put_scalar(out, i);
            put_scalar(out, e);
        }
    }
}

fn put_count(out: &mut Vec<u8>, n: usize) -> Result<()> {
    match u32::try_from(n) {
        Ok(n) => {
            put_u32(out, n);
            Ok(())
        }
        Err(_) => error("too many items"),
    }
}

fn bv_op_tag(op: BvOp) -> u8 {
    BvOp::ALL.iter().position(|&o| o == op).unwrap_or(0) as u8
}

const PREDS: [BvPred; 4] = [BvPred::Ult, BvPred::Ule, BvPred::Slt, BvPred::Sle];
const OVF_OPS: [OvfOp; 3] = [OvfOp::Add, OvfOp::Sub, OvfOp::Mul];

/// Appends the node `t` (id `id`) given the ids of its children: its tag
/// and its other fields, then its children's ids in the order of
/// [`Term::each_child`] (a linear term's, with their coefficients).
fn put_node(out: &mut Vec<u8>, id: u32, t: &Term, ids: &FxHashMap<Term, u32>) -> Result<()> {
    let child = |out: &mut Vec<u8>, c: &Term| match ids.get(c) {
        Some(&i) => {
            put_u32(out, i);
            Ok(())
        }
        None => error("a child was not sent before its parent"),
    };
    put_u32(out, id);
    match t.kind() {
        Kind::Int(n) => {
            out.push(0);
            put_int(out, n)?;
        }
        Kind::Bool(b) => out.extend_from_slice(&[1, u8::from(*b)]),
        Kind::Var(name, sort) => {
            out.push(2);
            put_str(out, name)?;
            put_sort(out, *sort);
        }
        Kind::Linear(ms, c) => {
            out.push(3);
            put_count(out, ms.len())?;
            for (x, k) in ms.iter() {
                child(out, x)?;
                put_int(out, k)?;
            }
            put_int(out, c)?;
            return Ok(());
        }
        Kind::Mul(..) => out.push(4),
        Kind::Div(..) => out.push(5),
        Kind::Rem(..) => out.push(6),
        Kind::Ite(..) => out.push(7),
        Kind::Select(..) => out.push(8),
        Kind::Store(..) => out.push(9),
        Kind::ConstArray(sort, _) => {
            out.push(10);
            put_sort(out, *sort);
        }
        Kind::Le(_) => out.push(11),
        Kind::Eq(_) => out.push(12),
        Kind::Not(_) => out.push(13),
        Kind::And(xs) | Kind::Or(xs) => {
            out.push(if matches!(t.kind(), Kind::And(_)) {
                14
            } else {
                15
            });
            put_count(out, xs.len())?;
        }
        Kind::Bv { width, bits } => {
            out.extend_from_slice(&[16, *width]);
            put_u64(out, *bits);
        }
        Kind::BvBin(op, ..) => out.extend_from_slice(&[17, bv_op_tag(*op)]),
        Kind::BvNeg(_) => out.push(18),
        Kind::BvNot(_) => out.push(19),
        Kind::BvCmp(p, ..) => {
            let p = PREDS.iter().position(|q| q == p).unwrap_or(0) as u8;
            out.extend_from_slice(&[20, p]);
        }
        Kind::BvEq(..) => out.push(21),
        Kind::Extend { signed, width, .. } => {
            out.extend_from_slice(&[22, u8::from(*signed), *width]);
        }
        Kind::Extract { width, .. } => out.extend_from_slice(&[23, *width]),
        Kind::BvToInt { signed, .. } => out.extend_from_slice(&[24, u8::from(*signed)]),
        Kind::IntToBv { width, .. } => out.extend_from_slice(&[25, *width]),
        Kind::SOvf(op, ..) => {
            let op = OVF_OPS.iter().position(|o| o == op).unwrap_or(0) as u8;
            out.extend_from_slice(&[26, op]);
        }
        Kind::Fp(op, _) => {
            out.push(27);
            put_float_op(out, *op);
        }
    }
    let mut sent = Ok(());
    t.each_child(&mut |c| {
        if sent.is_ok() {
            sent = child(out, c);
        }
    });
    sent
}

/// A float type's code: 0 `f32`, 1 `f64`.
fn float_ty_tag(t: FloatTy) -> u8 {
    match t {
        FloatTy::F32 => 0,
        FloatTy::F64 => 1,
    }
}

/// An integer type: its width (0 unbounded) and whether it is signed.
fn put_int_ty(out: &mut Vec<u8>, i: IntTy) {
    out.extend_from_slice(&[i.width().unwrap_or(0) as u8, u8::from(i.is_signed())]);
}

/// The position of `x` in `all`.
fn pos<T: PartialEq>(all: &[T], x: T) -> u8 {
    all.iter().position(|y| *y == x).unwrap_or(0) as u8
}

/// A float operation: the variant's position in [`FloatOp`], then its
/// fields in order (operators by their position in `fp.rs`'s tables or
/// in [`CmpOp::ALL`], types as [`float_ty_tag`] and [`put_int_ty`]).
fn put_float_op(out: &mut Vec<u8>, op: FloatOp) {
    match op {
        FloatOp::Binary(o, t) => out.extend_from_slice(&[0, pos(&FBIN_OPS, o), float_ty_tag(t)]),
        FloatOp::Unary(o, t) => out.extend_from_slice(&[1, pos(&FUN_OPS, o), float_ty_tag(t)]),
        FloatOp::Fma(t) => out.extend_from_slice(&[2, float_ty_tag(t)]),
        FloatOp::Cmp(o, t) => out.extend_from_slice(&[3, pos(&CmpOp::ALL, o), float_ty_tag(t)]),
        FloatOp::Class(c, t) => out.extend_from_slice(&[4, pos(&FCLASSES, c), float_ty_tag(t)]),
        FloatOp::FromInt(i, t) => {
            out.push(5);
            put_int_ty(out, i);
            out.push(float_ty_tag(t));
        }
        FloatOp::ToInt(t, i) | FloatOp::ToIntOverflows(t, i) => {
            let tag = if matches!(op, FloatOp::ToInt(..)) {
                6
            } else {
                7
            };
            out.extend_from_slice(&[tag, float_ty_tag(t)]);
            put_int_ty(out, i);
        }
        FloatOp::Convert(a, b) => out.extend_from_slice(&[8, float_ty_tag(a), float_ty_tag(b)]),
    }
}

/// How many nodes a query encodes between two looks at `cancelled`.
const CANCEL_POLL: u32 = 1024;

/// Appends to `out` the frames of a query: the nodes of `constraints` not
/// in `sent` (children before parents, iteratively: terms may be deep),
/// which are then entered in `sent` with their new ids, and the query.
/// Gives up (an error) when `cancelled()` says the run is over: a huge
/// query takes long to encode.
pub(crate) fn put_query(
    out: &mut Vec<u8>,
    constraints: &[Term],
    sent: &mut FxHashMap<Term, u32>,
    budget: Option<Duration>,
    cancelled: &dyn Fn() -> bool,
) -> Result<()> {
    let mut frame = begin_frame(out, NODES);
    let mut stack: Vec<(&Term, bool)> = Vec::new();
    let mut visits = 0u32;
    for root in constraints {
        stack.push((root, false));
        while let Some((t, expanded)) = stack.pop() {
            visits = visits.wrapping_add(1);
            if visits.is_multiple_of(CANCEL_POLL) && cancelled() {
                return error("the run is over");
            }
            if sent.contains_key(t) {
                continue;
            }
            if !expanded {
                stack.push((t, true));
                stack.extend(
                    t.children()
                        .into_iter()
                        .filter(|c| !sent.contains_key(*c))
                        .map(|c| (c, false)),
                );
                continue;
            }
            let Ok(id) = u32::try_from(sent.len()) else {
                return error("too many nodes for one solver process");
            };
            put_node(out, id, t, sent)?;
            sent.insert(t.clone(), id);
            if out.len() - frame > NODE_FRAME {
                end_frame(out, frame)?;
                frame = begin_frame(out, NODES);
            }
        }
    }
    if out.len() == frame + 5 {
        out.truncate(frame);
    } else {
        end_frame(out, frame)?;
    }
    let start = begin_frame(out, QUERY);
    match budget {
        None => out.push(0),
        Some(b) => {
            out.push(1);
            // Rounded up: a budget of 0 would be a query that cannot run.
            let ms = b.as_micros().div_ceil(1000);
            put_u64(out, u64::try_from(ms).unwrap_or(u64::MAX));
        }
    }
    put_count(out, constraints.len())?;
    for c in constraints {
        match sent.get(c) {
            Some(&id) => put_u32(out, id),
            None => return error("a constraint was not sent"),
        }
    }
    end_frame(out, start)
}

/// Appends the ready frame.
pub(crate) fn put_ready(out: &mut Vec<u8>) -> Result<()> {
    let start = begin_frame(out, READY);
    put_u32(out, VERSION);
    end_frame(out, start)
}

/// Appends an error frame.
pub(crate) fn put_error(out: &mut Vec<u8>, message: &str) -> Result<()> {
    let start = begin_frame(out, ERROR);
    put_str(out, message)?;
    end_frame(out, start)
}

/// `after - before`, counter by counter (saturating: counters only grow).
pub(crate) fn stats_delta(after: &SolverStats, before: &SolverStats) -> SolverStats {
    let mut delta = after.clone();
    let mut before = before.clone();
    let (ds, dt) = delta.counters();
    let (bs, bt) = before.counters();
    for (d, b) in ds.into_iter().zip(bs) {
        *d = d.saturating_sub(*b);
    }
    *dt = dt.saturating_sub(*bt);
    delta
}

fn put_model(out: &mut Vec<u8>, m: &Model) -> Result<()> {
    let ints: Vec<_> = m.ints().collect();
    put_count(out, ints.len())?;
    for (name, v) in ints {
        put_str(out, name)?;
        put_int(out, v)?;
    }
    let bools: Vec<_> = m.bools().collect();
    put_count(out, bools.len())?;
    for (name, b) in bools {
        put_str(out, name)?;
        out.push(u8::from(b));
    }
    let arrays: Vec<_> = m.arrays().collect();
    put_count(out, arrays.len())?;
    for (name, a) in arrays {
        put_str(out, name)?;
        put_int(out, &a.default)?;
        put_count(out, a.entries.size())?;
        for (i, v) in a.entries.iter() {
            put_int(out, i)?;
            put_int(out, v)?;
        }
    }
    Ok(())
}

/// Appends the answer frame for `answer`, with the work `stats` it took.
pub(crate) fn put_answer(out: &mut Vec<u8>, answer: &Answer, stats: &SolverStats) -> Result<()> {
    let start = begin_frame(out, ANSWER);
    match answer {
        Answer::Sat(m) => {
            out.push(0);
            put_model(out, m)?;
        }
        Answer::Unsat => out.push(1),
        Answer::Unknown(why) => {
            out.push(2);
            put_str(out, why)?;
        }
    }
    let mut stats = stats.clone();
    let (cs, time) = stats.counters();
    for c in cs {
        put_u64(out, *c);
    }
    put_u64(out, u64::try_from(time.as_nanos()).unwrap_or(u64::MAX));
    end_frame(out, start)
}

// Reading, in a file of its own.
#[path = "protocol_read.rs"]
mod read;
pub(crate) use read::{read_request, read_response};

// The tests, in a file of their own.
#[cfg(test)]
#[path = "protocol_tests.rs"]
mod tests;
