//! Where C's values live in an object: a row of *slots*, one for each
//! scalar (integer, pointer, mutex) the object holds. The slot a pointer
//! `p` names holds a value of IR type `T` at index `p` of the cell array
//! `$cell_T.v` ([`heap::cell_array`]): one array per scalar type, shared by
//! every object (typed memory, as Burstall and Bornat model it; a pointer
//! is an object and an offset, [`wiser_ir::pointer`]).
//!
//! A structure's members are laid out one after the other, a nested
//! structure's slots and an array member's elements in order, so `&s.f`
//! is `p + offset(f)`, `s.a[i]` is `p + offset(a) + i`, and `p + 1` for
//! a `struct S *` is `p + slots(struct S)`: a member's address is an
//! addition, and a pointer to a member is a pointer like any other. What
//! the model does not give: a slot written as one type and read as
//! another reads another array's cell (a union's members have slots of
//! their own, which [`super::unions`] keeps in step), and an access past
//! an array member's end that stays inside the structure is not an error
//! (as for gcc's AddressSanitizer).

use super::{bitfields, heap, ptr, Fun, Unit};
use crate::types::{CType, Len};
use wiser_ir::{Expr, ScalarTy};
use wiser_num::{BinOp, CmpOp, Int, IntTy};

/// How deep structures may nest (a guard: C forbids a structure that
/// contains itself, and an incomplete one has no members).
const MAX_NESTING: u32 = 64;

/// Runs of at most this many slots are written slot by slot; longer ones
/// by a loop.
const MAX_UNROLLED: u64 = 8;

/// How many slots a value of type `ty` takes (at least 1, so that
/// consecutive elements of any type have distinct slots).
pub fn slots(u: &Unit, ty: &CType) -> u64 {
    slots_at(u, ty, 0).max(1)
}

fn slots_at(u: &Unit, ty: &CType, depth: u32) -> u64 {
    if depth > MAX_NESTING {
        return 1;
    }
    match ty {
        CType::Struct(i) => members(u, *i)
            .iter()
            .map(|(_, _, t)| slots_at(u, t, depth + 1))
            .fold(0u64, u64::saturating_add),
        CType::Array(elem, Len::Const(n)) => slots_at(u, elem, depth + 1).saturating_mul(*n),
        _ => 1,
    }
}

/// The size in bytes and the alignment of a value of type `ty` as gcc
/// lays it out under the data model (`gcc -m32` aligns `long long` to 4
/// inside structures; a `pthread_mutex_t` is glibc's, 24 or 40 bytes);
/// `None` for a type without a size known here (`void`, a variable-length
/// array, an incomplete structure, what the subset does not read). `sizeof`
/// and `malloc`'s byte counts use it; slots are what memory counts.
pub fn bytes(u: &Unit, ty: &CType) -> Option<(u64, u64)> {
    bytes_at(u, ty, 0)
}

pub(super) fn bytes_at(u: &Unit, ty: &CType, depth: u32) -> Option<(u64, u64)> {
    if depth > MAX_NESTING {
        return None;
    }
    let ilp32 = u.dm == crate::DataModel::Ilp32;
    match ty {
        CType::Int(i) => {
            let size = u64::from(i.bits(u.dm) / 8);
            Some((size, if ilp32 { size.min(4) } else { size }))
        }
        CType::Pointer(_) => Some(if ilp32 { (4, 4) } else { (8, 8) }),
        CType::Mutex => Some(if ilp32 { (24, 4) } else { (40, 8) }),
        CType::Array(elem, Len::Const(n)) => {
            let (size, align) = bytes_at(u, elem, depth + 1)?;
            Some((size.checked_mul(*n)?, align))
        }
        CType::Struct(i) => {
            let (_, size, align) = placed(u, *i, depth)?;
            Some((size, align))
        }
        _ => None,
    }
}

/// The byte offset of member `name` of structure `sid` (`offsetof`),
/// with its slot offset and type; `None` for a bit-field (no byte of its
/// own).
pub fn member_bytes(u: &Unit, sid: u32, name: &str) -> Option<(u64, u64, CType)> {
    match member_bits(u, sid, name)? {
        (bit, slot, t, None) => Some((bit / 8, slot, t)),
        _ => None,
    }
}

/// The bit offset of member `name` of structure `sid` (of an anonymous
/// member too), with its slot offset, type and width as a bit-field.
pub fn member_bits(u: &Unit, sid: u32, name: &str) -> Option<(u64, u64, CType, Option<u32>)> {
    let (mut bits, mut slots, mut last) = (0u64, 0u64, None);
    for (at, step) in member_path(u, sid, name)? {
        let (fields, widths) = fields(u, at)?;
        let (offsets, _, _) = placed(u, at, 0)?;
        let k = fields.iter().position(|(n, _)| *n == step)?;
        let (_, slot, t) = members(u, at).into_iter().find(|(n, _, _)| *n == step)?;
        (bits, slots) = (bits + offsets[k], slots + slot);
        last = Some((t, widths.get(k).copied().flatten()));
    }
    let (t, width) = last?;
    Some((bits, slots, t, width))
}

/// Why a value of type `ty` has no byte layout when a gcc attribute
/// wiser does not lay out is the reason ([`super::heap::StructDef::unmodelled`]):
/// the structure and the attribute.
pub fn unmodelled(u: &Unit, ty: &CType) -> Option<String> {
    unmodelled_at(u, ty, 0)
}

fn unmodelled_at(u: &Unit, ty: &CType, depth: u32) -> Option<String> {
    if depth > MAX_NESTING {
        return None;
    }
    match ty {
        CType::Struct(i) => {
            let own = u.heap.structs.borrow().get(*i as usize)?.unmodelled.clone();
            match own {
                Some(a) => Some(format!("`{}` has {a}", super::heap::struct_name(u, *i))),
                None => fields(u, *i)?
                    .0
                    .iter()
                    .find_map(|(_, t)| unmodelled_at(u, t, depth + 1)),
            }
        }
        CType::Array(elem, _) => unmodelled_at(u, elem, depth + 1),
        // A typedef with a layout attribute ([`super::heap::typedef_type`]).
        CType::Opaque(what, _) if what.contains("__attribute__") => Some(what.to_string()),
        _ => None,
    }
}

/// Does a value of type `ty` hold a bit-field (in a member, an element)?
pub fn has_bit_fields(u: &Unit, ty: &CType) -> bool {
    has_bit_fields_at(u, ty, 0)
}

fn has_bit_fields_at(u: &Unit, ty: &CType, depth: u32) -> bool {
    if depth > MAX_NESTING {
        return false;
    }
    match ty {
        CType::Struct(i) => fields(u, *i).is_some_and(|(fs, ws)| {
            ws.iter().any(Option::is_some)
                || fs.iter().any(|(_, t)| has_bit_fields_at(u, t, depth + 1))
        }),
        CType::Array(elem, _) => has_bit_fields_at(u, elem, depth + 1),
        _ => false,
    }
}

/// The fields of structure `sid` and their widths as bit-fields.
type Fields = (Vec<(String, CType)>, Vec<Option<u32>>);

fn fields(u: &Unit, sid: u32) -> Option<Fields> {
    let structs = u.heap.structs.borrow();
    let s = structs.get(sid as usize)?;
    Some((s.fields.clone()?, s.widths.clone()))
}

/// gcc's layout of structure `sid` ([`bitfields::place`]).
fn placed(u: &Unit, sid: u32, depth: u32) -> Option<(Vec<u64>, u64, u64)> {
    let (fields, widths) = fields(u, sid)?;
    let (union, pack) = {
        let structs = u.heap.structs.borrow();
        let s = structs.get(sid as usize)?;
        if s.unmodelled.is_some() {
            return None;
        }
        (s.union, s.pack)
    };
    bitfields::place(u, (&fields, &widths), (union, pack), depth)
}

/// The width of member `name` of structure `sid` (of an anonymous
/// member too) if it is a bit-field.
pub fn member_width(u: &Unit, sid: u32, name: &str) -> Option<u32> {
    // (Not through `member_bits`: a structure without a layout known
    // here still has its bit-fields.)
    let (at, step) = member_path(u, sid, name)?.pop()?;
    let (fields, widths) = fields(u, at)?;
    let k = fields.iter().position(|(n, _)| *n == step)?;
    widths.get(k).copied().flatten()
}

/// The member of structure `sid` that starts at byte `offset`, with its
/// slot offset and type (the first, for members of size 0).
pub fn member_at_byte(u: &Unit, sid: u32, offset: u64) -> Option<(u64, CType)> {
    members(u, sid).into_iter().find_map(|(n, _, _)| {
        let (b, slot, t) = member_bytes(u, sid, &n)?;
        (b == offset).then_some((slot, t))
    })
}

/// The members of structure `sid` with their offsets (in slots), in
/// declaration order; none while it is only declared.
pub fn members(u: &Unit, sid: u32) -> Vec<(String, u64, CType)> {
    let fields = u
        .heap
        .structs
        .borrow()
        .get(sid as usize)
        .and_then(|s| s.fields.clone())
        .unwrap_or_default();
    let mut offset = 0u64;
    let mut out = Vec::with_capacity(fields.len());
    // An unnamed bit-field is padding, without a slot.
    for (name, ty) in fields.into_iter().filter(|(n, _)| !n.is_empty()) {
        let n = slots(u, &ty);
        out.push((name, offset, ty));
        offset = offset.saturating_add(n);
    }
    out
}

/// The name an anonymous structure or union member (C11's `struct {
/// union { int a; char b; }; }`) has here: no identifier has it. Its
/// members are found as the containing structure's ([`member`]).
fn anonymous_name(k: usize) -> String {
    format!("$anon{k}")
}

/// The name of a member declared by a type alone (`struct { union {
/// ... }; }`): a fresh [`anonymous_name`] (unique in the unit, so never
/// declared twice in one structure) for a structure or union without a
/// tag; `None` for anything else (which declares nothing).
pub fn anonymous_member(u: &Unit, ty: &CType) -> Option<String> {
    let CType::Struct(i) = ty else { return None };
    let untagged = u
        .heap
        .structs
        .borrow()
        .get(*i as usize)
        .is_some_and(|s| s.tag.is_none());
    untagged.then(|| {
        let k = u.heap.anonymous.get();
        u.heap.anonymous.set(k + 1);
        anonymous_name(k)
    })
}

/// Is `name` an anonymous member's ([`anonymous_name`])?
pub fn is_anonymous(name: &str) -> bool {
    name.starts_with("$anon")
}

/// The anonymous members from structure `sid` down to the one that has
/// member `name` itself (none when `sid` has it); `None` when no such
/// member is there.
pub fn anonymous_path(u: &Unit, sid: u32, name: &str) -> Option<Vec<String>> {
    anonymous_path_at(u, sid, name, 0)
}

fn anonymous_path_at(u: &Unit, sid: u32, name: &str, depth: u32) -> Option<Vec<String>> {
    if depth > MAX_NESTING {
        return None;
    }
    let ms = members(u, sid);
    if ms.iter().any(|(n, _, _)| n == name) {
        return Some(Vec::new());
    }
    ms.into_iter().find_map(|(n, _, t)| match t {
        CType::Struct(j) if is_anonymous(&n) => {
            let mut path = anonymous_path_at(u, j, name, depth + 1)?;
            path.insert(0, n);
            Some(path)
        }
        _ => None,
    })
}

/// The offset and type of member `name` of structure `sid` (a member of
/// an anonymous member too).
pub fn member(u: &Unit, sid: u32, name: &str) -> Option<(u64, CType)> {
    let (mut offset, mut ty) = (0u64, None);
    for (at, step) in member_path(u, sid, name)? {
        let (_, o, t) = members(u, at).into_iter().find(|(n, _, _)| *n == step)?;
        (offset, ty) = (offset + o, Some(t));
    }
    Some((offset, ty?))
}

/// The steps from structure `sid` to its member `name`: each structure
/// and the member of it taken, through anonymous members.
fn member_path(u: &Unit, sid: u32, name: &str) -> Option<Vec<(u32, String)>> {
    let mut steps = Vec::new();
    let mut at = sid;
    for step in anonymous_path(u, sid, name)? {
        let next = match members(u, at).into_iter().find(|(n, _, _)| *n == step)? {
            (_, _, CType::Struct(j)) => j,
            _ => return None,
        };
        steps.push((at, step));
        at = next;
    }
    steps.push((at, name.to_string()));
    Some(steps)
}

/// Slots of one scalar type at regular distances in an object: `count`
/// slots from `offset`, `stride` apart; `path` names a run of one slot
/// for witnesses (`b`, `in.x`), relative to the object.
#[derive(Clone, Debug)]
pub struct Run {
    /// The first slot.
    pub offset: u64,
    /// How many.
    pub count: u64,
    /// The distance between two.
    pub stride: u64,
    /// Their type: an integer, a pointer or a mutex.
    pub ty: CType,
    /// The member path of a run of one slot.
    pub path: String,
}

/// The scalar slots of a value of type `ty`, as runs in slot order.
pub fn runs(u: &Unit, ty: &CType) -> Vec<Run> {
    let mut out = Vec::new();
    runs_at(u, ty, 0, &mut out);
    out
}

fn runs_at(u: &Unit, ty: &CType, depth: u32, out: &mut Vec<Run>) {
    if depth > MAX_NESTING {
        return;
    }
    match ty {
        CType::Int(_) | CType::Pointer(_) | CType::Mutex => out.push(Run {
            offset: 0,
            count: 1,
            stride: 1,
            ty: ty.clone(),
            path: String::new(),
        }),
        CType::Struct(i) => {
            for (name, offset, t) in members(u, *i) {
                let mut inner = Vec::new();
                runs_at(u, &t, depth + 1, &mut inner);
                for r in inner {
                    let path = if is_anonymous(&name) {
                        r.path.clone()
                    } else if r.path.is_empty() || r.path.starts_with('[') {
                        format!("{name}{}", r.path)
                    } else {
                        format!("{name}.{}", r.path)
                    };
                    out.push(Run {
                        offset: r.offset + offset,
                        path,
                        ..r
                    });
                }
            }
        }
        CType::Array(elem, Len::Const(n)) => {
            let size = slots(u, elem);
            let mut inner = Vec::new();
            runs_at(u, elem, depth + 1, &mut inner);
            for r in inner {
                if r.count == 1 {
                    out.push(Run {
                        count: *n,
                        stride: size,
                        path: String::new(),
                        ..r
                    });
                } else if r.count.saturating_mul(r.stride) == size {
                    out.push(Run {
                        count: r.count.saturating_mul(*n),
                        ..r
                    });
                } else {
                    for k in 0..*n {
                        out.push(Run {
                            offset: r.offset + k * size,
                            ..r.clone()
                        });
                    }
                }
            }
        }
        _ => {}
    }
}

/// `p + k` as an IR `int`.
pub fn plus(p: Expr, k: u64, span: wiser_ir::Span) -> Expr {
    if k == 0 {
        return p;
    }
    Expr::binary(BinOp::Add, p, Expr::int(IntTy::INT, Int::from_u64(k)), span)
}

/// Calls `body` with the pointer to each slot of `run` in the object `p`
/// points to (`p` is evaluated once per slot: pass a load).
pub fn each_slot(
    f: &mut Fun,
    run: &Run,
    p: Expr,
    span: wiser_ir::Span,
    body: &mut dyn FnMut(&mut Fun, Expr),
) {
    if run.count <= MAX_UNROLLED {
        for k in 0..run.count {
            body(f, plus(p.clone(), run.offset + k * run.stride, span));
        }
        return;
    }
    let stride = Expr::int(IntTy::INT, Int::from_u64(run.stride));
    let start = plus(p, run.offset, span);
    let count = Expr::int(IntTy::INT, Int::from_u64(run.count));
    // (The body never fails: nothing to pass on.)
    let _ = times(f, count, false, span, &mut |f, i| {
        let at = Expr::binary(BinOp::Mul, i, stride.clone(), span);
        body(f, Expr::binary(BinOp::Add, start.clone(), at, span));
        Ok(())
    });
}

/// The loop `for (k = 0; k < n; k++) body(k)`, or with `down` the body
/// of `n - 1 - k`; `n` is an `int`, evaluated before each iteration. Every
/// loop the front end writes over elements or slots is this one.
pub fn times(
    f: &mut Fun,
    n: Expr,
    down: bool,
    span: wiser_ir::Span,
    body: &mut dyn FnMut(&mut Fun, Expr) -> super::Res<()>,
) -> super::Res<()> {
    let int = |v: u64| Expr::int(IntTy::INT, Int::from_u64(v));
    let k = f.rb.temp(ScalarTy::INT);
    f.rb.assign(k, int(0), span);
    let (head, next, end) = (f.rb.label(), f.rb.label(), f.rb.label());
    f.rb.bind(head);
    let more = Expr::cmp(CmpOp::Lt, f.rb.load(k), n.clone());
    f.rb.branch(more, next, end, span);
    f.rb.bind(next);
    let i = if down {
        let last = Expr::binary(BinOp::Sub, n, int(1), span);
        Expr::binary(BinOp::Sub, last, f.rb.load(k), span)
    } else {
        f.rb.load(k)
    };
    body(f, i)?;
    let step = Expr::binary(BinOp::Add, f.rb.load(k), int(1), span);
    f.rb.assign(k, step, span);
    f.rb.jump(head);
    f.rb.bind(end);
    Ok(())
}

/// The cell array and IR type of a run's slots.
fn cells(f: &mut Fun, ty: &CType) -> (wiser_ir::ArrayId, ScalarTy) {
    let t = heap::value_ty(f.u, ty).unwrap_or(ScalarTy::INT);
    (heap::cell_class(f.u, f.rb.program(), t).1, t)
}

/// Zeroes the slots of a `ty` at `p` (`0`, `NULL`) as C's static
/// initialisation and `calloc` do; with `ints` false, only the pointers
/// and mutexes (the integers keep what they hold).
pub fn zero(f: &mut Fun, ty: &CType, p: Expr, ints: bool, span: wiser_ir::Span) {
    for run in runs(f.u, ty) {
        if !ints && run.ty.int().is_some() {
            continue;
        }
        let (array, t) = cells(f, &run.ty);
        let zero = Expr::zero(t);
        each_slot(f, &run, p.clone(), span, &mut |f, q| {
            f.rb.store(array, q, zero.clone(), span)
        });
    }
}

/// Copies the slots of a `ty` from `src` to `dst` (loads of places, each
/// evaluated once per slot).
pub fn copy(f: &mut Fun, ty: &CType, dst: Expr, src: Expr, span: wiser_ir::Span) {
    for run in runs(f.u, ty) {
        let (array, t) = cells(f, &run.ty);
        // One index for both sides: the slot's offset from the start.
        let (d, s) = (dst.clone(), src.clone());
        each_slot(f, &run, Expr::int(IntTy::INT, 0), span, &mut |f, k| {
            let v = ptr::shared_select(
                f,
                array,
                t,
                Expr::binary(BinOp::Add, s.clone(), k.clone(), span),
                span,
            );
            f.rb.store(array, Expr::binary(BinOp::Add, d.clone(), k, span), v, span);
        });
    }
}
