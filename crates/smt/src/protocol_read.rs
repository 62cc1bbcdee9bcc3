//! Reading the frames of [`super`]: bounds-checked, sort-checked, and
//! never panicking, whatever the input.

use super::{error, Query, Response, Result, ANSWER, ERROR, NODES, OVF_OPS, PREDS, QUERY, READY};
use crate::fp::{FBIN_OPS, FCLASSES, FUN_OPS};
use crate::model::{ArrayValue, Model};
use crate::solver::{Answer, SolverStats};
use crate::term::{BvOp, Kind, Scalar, Sort, Term};
use std::sync::Arc;
use std::time::Duration;
use wiser_num::{CmpOp, FloatOp, FloatTy, Int, IntTy};

/// A cursor over one frame's body. Every read checks the bounds.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        let Some(end) = end else {
            return error(format!("the frame ends early (at byte {})", self.pos));
        };
        let b = &self.data[self.pos..end];
        self.pos = end;
        Ok(b)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut a = [0; N];
        a.copy_from_slice(self.bytes(N)?);
        Ok(a)
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    fn flag(&mut self) -> Result<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => error(format!("bad flag {b}")),
        }
    }

    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn at_end(&self) -> bool {
        self.pos == self.data.len()
    }

    /// A count of items of at least `min_size` bytes each, checked
    /// against what is left: no allocation is sized by a bogus count.
    fn count(&mut self, min_size: usize) -> Result<usize> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_size) > self.data.len() - self.pos {
            return error(format!("a count of {n} exceeds the frame"));
        }
        Ok(n)
    }

    fn str(&mut self) -> Result<&'a str> {
        let n = self.count(1)?;
        std::str::from_utf8(self.bytes(n)?).or_else(|_| error("a string is not UTF-8"))
    }

    fn int(&mut self) -> Result<Int> {
        match self.u8()? {
            0 => Ok(Int::from(i64::from_le_bytes(self.array()?))),
            1 => match self.str()?.parse() {
                Ok(n) => Ok(n),
                Err(_) => error("a malformed integer"),
            },
            t => error(format!("bad integer tag {t}")),
        }
    }

    fn width(&mut self) -> Result<u8> {
        match self.u8()? {
            w @ 1..=64 => Ok(w),
            w => error(format!("bit-vector width {w}")),
        }
    }

    fn scalar(&mut self) -> Result<Scalar> {
        match self.u8()? {
            0 => Ok(Scalar::Bool),
            1 => Ok(Scalar::Int),
            2 => Ok(Scalar::Bv(self.width()?)),
            t => error(format!("bad sort tag {t}")),
        }
    }

    fn sort(&mut self) -> Result<Sort> {
        if self.data.get(self.pos) == Some(&3) {
            self.pos += 1;
            return Ok(Sort::Array(self.scalar()?, self.scalar()?));
        }
        Ok(self.scalar()?.into())
    }
}

/// The term with id `id` in `table`.
fn node(r: &mut Reader, table: &[Term]) -> Result<Term> {
    let id = r.u32()?;
    match table.get(id as usize) {
        Some(t) => Ok(t.clone()),
        None => error(format!("node {id} was never sent")),
    }
}

/// A child that must have sort `sort`.
fn sorted(r: &mut Reader, table: &[Term], sort: Sort) -> Result<Term> {
    let t = node(r, table)?;
    if t.sort() != sort {
        return error(format!("expected sort {sort:?}, found {:?}", t.sort()));
    }
    Ok(t)
}

/// A bit-vector child and its width.
fn bv_node(r: &mut Reader, table: &[Term]) -> Result<(Term, u8)> {
    let t = node(r, table)?;
    match t.sort() {
        Sort::Bv(w) => Ok((t, w)),
        s => error(format!("expected a bit-vector, found {s:?}")),
    }
}

/// Two bit-vector children of one width.
fn bv_pair(r: &mut Reader, table: &[Term]) -> Result<(Term, Term)> {
    let (a, w) = bv_node(r, table)?;
    let b = sorted(r, table, Sort::Bv(w))?;
    Ok((a, b))
}

fn pick<T: Copy>(all: &[T], tag: u8) -> Result<T> {
    match all.get(usize::from(tag)) {
        Some(&x) => Ok(x),
        None => error(format!("bad operator tag {tag}")),
    }
}

fn float_ty(r: &mut Reader) -> Result<FloatTy> {
    pick(&FloatTy::ALL, r.u8()?)
}

fn int_ty(r: &mut Reader) -> Result<IntTy> {
    let (width, signed) = (r.u8()?, r.flag()?);
    match width {
        0 if signed => Ok(IntTy::INT),
        _ => match IntTy::fixed(u32::from(width), signed) {
            Some(t) if width != 0 => Ok(t),
            _ => error(format!("bad integer type {width} {signed}")),
        },
    }
}

/// A float operation, as `put_float_op` writes it.
fn float_op(r: &mut Reader) -> Result<FloatOp> {
    Ok(match r.u8()? {
        0 => FloatOp::Binary(pick(&FBIN_OPS, r.u8()?)?, float_ty(r)?),
        1 => FloatOp::Unary(pick(&FUN_OPS, r.u8()?)?, float_ty(r)?),
        2 => FloatOp::Fma(float_ty(r)?),
        3 => FloatOp::Cmp(pick(&CmpOp::ALL, r.u8()?)?, float_ty(r)?),
        4 => FloatOp::Class(pick(&FCLASSES, r.u8()?)?, float_ty(r)?),
        5 => {
            let i = int_ty(r)?;
            FloatOp::FromInt(i, float_ty(r)?)
        }
        6 => FloatOp::ToInt(float_ty(r)?, int_ty(r)?),
        7 => FloatOp::ToIntOverflows(float_ty(r)?, int_ty(r)?),
        8 => FloatOp::Convert(float_ty(r)?, float_ty(r)?),
        t => return error(format!("bad float operation {t}")),
    })
}

/// Reads one node (after its id) and builds it exactly as sent.
fn read_node(r: &mut Reader, table: &[Term]) -> Result<Term> {
    let kind = match r.u8()? {
        0 => Kind::Int(r.int()?),
        1 => Kind::Bool(r.flag()?),
        2 => {
            let name = r.str()?;
            // Z3 cannot name a constant with a NUL in it.
            if name.contains('\0') {
                return error("a variable name contains NUL");
            }
            Kind::Var(name.into(), r.sort()?)
        }
        3 => {
            let n = r.count(9)?;
            let mut ms = Vec::with_capacity(n);
            for _ in 0..n {
                let x = sorted(r, table, Sort::Int)?;
                ms.push((x, r.int()?));
            }
            Kind::Linear(ms.into_boxed_slice(), r.int()?)
        }
        tag @ 4..=6 => {
            let a = sorted(r, table, Sort::Int)?;
            let b = sorted(r, table, Sort::Int)?;
            match tag {
                4 => Kind::Mul(a, b),
                5 => Kind::Div(a, b),
                _ => Kind::Rem(a, b),
            }
        }
        7 => {
            let c = sorted(r, table, Sort::Bool)?;
            let a = node(r, table)?;
            let b = sorted(r, table, a.sort())?;
            Kind::Ite(c, a, b)
        }
        tag @ (8 | 9) => {
            let a = node(r, table)?;
            let Sort::Array(i, e) = a.sort() else {
                return error(format!("expected an array, found {:?}", a.sort()));
            };
            let i = sorted(r, table, i.into())?;
            if tag == 8 {
                Kind::Select(a, i)
            } else {
                Kind::Store(a, i, sorted(r, table, e.into())?)
            }
        }
        10 => {
            let sort = r.sort()?;
            let Sort::Array(_, e) = sort else {
                return error(format!("a constant array of sort {sort:?}"));
            };
            Kind::ConstArray(sort, sorted(r, table, e.into())?)
        }
        11 => Kind::Le(sorted(r, table, Sort::Int)?),
        12 => Kind::Eq(sorted(r, table, Sort::Int)?),
        13 => Kind::Not(sorted(r, table, Sort::Bool)?),
        tag @ (14 | 15) => {
            let n = r.count(4)?;
            let mut xs = Vec::with_capacity(n);
            for _ in 0..n {
                xs.push(sorted(r, table, Sort::Bool)?);
            }
            let xs = xs.into_boxed_slice();
            if tag == 14 {
                Kind::And(xs)
            } else {
                Kind::Or(xs)
            }
        }
        16 => {
            let width = r.width()?;
            let bits = r.u64()?;
            if bits & !wiser_num::bv::mask(u32::from(width)) != 0 {
                return error(format!("{bits:#x} does not fit {width} bits"));
            }
            Kind::Bv { width, bits }
        }
        17 => {
            let op = pick(&BvOp::ALL, r.u8()?)?;
            let (a, b) = bv_pair(r, table)?;
            Kind::BvBin(op, a, b)
        }
        18 => Kind::BvNeg(bv_node(r, table)?.0),
        19 => Kind::BvNot(bv_node(r, table)?.0),
        20 => {
            let p = pick(&PREDS, r.u8()?)?;
            let (a, b) = bv_pair(r, table)?;
            Kind::BvCmp(p, a, b)
        }
        21 => {
            let (a, b) = bv_pair(r, table)?;
            Kind::BvEq(a, b)
        }
        22 => {
            let signed = r.flag()?;
            let width = r.width()?;
            let (t, from) = bv_node(r, table)?;
            if from >= width {
                return error(format!("extension from {from} to {width} bits"));
            }
            Kind::Extend { signed, width, t }
        }
        23 => {
            let width = r.width()?;
            let (t, from) = bv_node(r, table)?;
            if from <= width {
                return error(format!("extraction of {width} bits from {from}"));
            }
            Kind::Extract { width, t }
        }
        24 => {
            let signed = r.flag()?;
            Kind::BvToInt {
                signed,
                t: bv_node(r, table)?.0,
            }
        }
        25 => {
            let width = r.width()?;
            Kind::IntToBv {
                width,
                t: sorted(r, table, Sort::Int)?,
            }
        }
        26 => {
            let op = pick(&OVF_OPS, r.u8()?)?;
            let (a, b) = bv_pair(r, table)?;
            Kind::SOvf(op, a, b)
        }
        27 => {
            let op = float_op(r)?;
            let mut xs = Vec::with_capacity(op.arity());
            for o in op.operands() {
                xs.push(sorted(r, table, crate::fp::operand_sort(o))?);
            }
            Kind::Fp(op, xs.into_boxed_slice())
        }
        t => return error(format!("bad node tag {t}")),
    };
    // Sorts were checked above, so this cannot panic (only a select from
    // a non-array could).
    Ok(Term::new(kind))
}

/// Reads a frame from the parent. Node frames extend `table`; a query
/// frame is returned.
pub(crate) fn read_request(frame: &[u8], table: &mut Vec<Term>) -> Result<Option<Query>> {
    let mut r = Reader {
        data: frame,
        pos: 0,
    };
    match r.u8()? {
        NODES => {
            while !r.at_end() {
                let id = r.u32()?;
                if id as usize != table.len() {
                    return error(format!("node {id} sent out of order"));
                }
                let t = read_node(&mut r, table)?;
                table.push(t);
            }
            Ok(None)
        }
        QUERY => {
            let budget = match r.flag()? {
                false => None,
                true => Some(Duration::from_millis(r.u64()?)),
            };
            let n = r.count(4)?;
            let mut constraints = Vec::with_capacity(n);
            for _ in 0..n {
                constraints.push(sorted(&mut r, table, Sort::Bool)?);
            }
            if !r.at_end() {
                return error("trailing bytes after a query");
            }
            Ok(Some(Query {
                budget,
                constraints,
            }))
        }
        t => error(format!("bad request tag {t}")),
    }
}

fn read_model(r: &mut Reader) -> Result<Model> {
    let mut m = Model::new();
    for _ in 0..r.count(6)? {
        let name: Arc<str> = r.str()?.into();
        m.set_int(name, r.int()?);
    }
    for _ in 0..r.count(5)? {
        let name: Arc<str> = r.str()?.into();
        m.set_bool(name, r.flag()?);
    }
    for _ in 0..r.count(13)? {
        let name: Arc<str> = r.str()?.into();
        let mut a = ArrayValue {
            default: r.int()?,
            ..ArrayValue::default()
        };
        for _ in 0..r.count(2)? {
            let i = r.int()?;
            a.entries.insert_mut(i, r.int()?);
        }
        m.set_array(name, a);
    }
    Ok(m)
}

/// Reads a frame from the child.
pub(crate) fn read_response(frame: &[u8]) -> Result<Response> {
    let mut r = Reader {
        data: frame,
        pos: 0,
    };
    let response = match r.u8()? {
        READY => Response::Ready(r.u32()?),
        ERROR => Response::Error(r.str()?.to_string()),
        ANSWER => {
            let answer = match r.u8()? {
                0 => Answer::Sat(read_model(&mut r)?),
                1 => Answer::Unsat,
                2 => Answer::Unknown(r.str()?.to_string()),
                t => return error(format!("bad verdict {t}")),
            };
            let mut stats = SolverStats::default();
            let (cs, time) = stats.counters();
            for c in cs {
                *c = r.u64()?;
            }
            *time = Duration::from_nanos(r.u64()?);
            Response::Answer(answer, Box::new(stats))
        }
        t => return error(format!("bad response tag {t}")),
    };
    if !r.at_end() {
        return error("trailing bytes after a response");
    }
    Ok(response)
}
