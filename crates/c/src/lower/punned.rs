//! A scalar variable whose address is converted to a pointer to an
//! arithmetic type of another width: `*(unsigned *)&d` of a `double d`,
//! `((unsigned *)&d)[1] = 0x47efffff`, `(unsigned char *)&x` of an `int
//! x`. gcc's code reads and writes the variable's bytes; memory here
//! holds values by width ([`heap::value_ty`]), one memory per width, so
//! such a variable lives in the object of a union made for it: its own
//! type first, then an array of each width its address is seen as
//! (`union { double d; unsigned $as32[2]; }`). The variable is a cell
//! ([`Var::Cell`]) whose pointer is the union's, and [`super::unions`]
//! keeps the members in step with gcc's little-endian bytes:
//!
//! * after every store to the variable ([`stored`]: an assignment, an
//!   initialiser, an input), with [`unions::in_step`], as a store that
//!   names a union is;
//! * after a store through the converted pointer, which is a pointer into
//!   the union's member ([`super::union_ptrs::converted`]), as any store
//!   through a pointer into a union is.
//!
//! Which variables: the scan ([`super::scan::Found::punned`]) notes every
//! `(T *)&x` by name; a variable `x` of an arithmetic type gets a union
//! where some `T` is an arithmetic type narrower than its own whose width
//! divides it. One union per name and type, shared by the variables of
//! that name and type (they are alike). A wider `T` (`(double *)&i` of an
//! `int i`, reading past it) is left to the conversion's own error.

use super::{declarator, heap, unions, CSpan, Fun, Res, Unit, Var};
use crate::types::{CInt, CType, Len, Rank};
use lang_c::ast::{Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use std::collections::BTreeMap;
use wiser_ir::{Builder, ClassId, Expr, Place};

/// The union variable `name` of type `ty` lives in (made on first use),
/// when the program converts its address to a pointer to an arithmetic
/// type of another width; `None` otherwise.
pub fn union_for(u: &Unit, name: &str, ty: &CType) -> Option<u32> {
    let CType::Int(x) = ty else { return None };
    if x.rank == Rank::Bool {
        return None;
    }
    let casts = u.punned.get(name)?;
    let key = (name.to_string(), *x);
    if let Some(sid) = u.heap.punned.borrow().get(&key) {
        return Some(*sid);
    }
    let xbits = u64::from(x.bits(u.dm));
    // A view per width (the memory of a width holds every type of it).
    let mut views: BTreeMap<u64, CInt> = BTreeMap::new();
    for t in casts {
        let Ok(CType::Pointer(to)) = declarator::type_name(u, &t.node) else {
            continue;
        };
        let CType::Int(t) = *to else { continue };
        let bits = u64::from(t.bits(u.dm));
        if t.rank != Rank::Bool && bits < xbits && xbits % bits == 0 {
            views.entry(bits).or_insert(t);
        }
    }
    if views.is_empty() {
        return None;
    }
    let mut fields = vec![(name.to_string(), ty.clone())];
    for (bits, t) in &views {
        let n = Len::Const(xbits / bits);
        fields.push((
            format!("$as{bits}"),
            CType::Array(Box::new(CType::Int(*t)), n),
        ));
    }
    let mut structs = u.heap.structs.borrow_mut();
    structs.push(heap::StructDef {
        tag: None,
        widths: vec![None; fields.len()],
        fields: Some(fields),
        pack: None,
        union: true,
        unmodelled: None,
    });
    let sid = structs.len() as u32 - 1;
    u.heap.unions.set(true);
    u.heap.punned.borrow_mut().insert(key, sid);
    Some(sid)
}

/// The class of the object a variable of type `ty` lives in (`object`:
/// its own type, or its union): a punned variable's union is a cell too,
/// whose value is the variable's member, its first (`wiser run` shows a
/// cell's value).
pub fn class(u: &mut Unit, b: &mut Builder, object: &CType, ty: &CType) -> ClassId {
    let class = heap::class_for(u, b, object);
    if let (CType::Struct(_), Some(held)) = (object, heap::value_ty(u, ty)) {
        let (_, value) = heap::cell_class(u, b, held);
        b.cell_value(class, value);
    }
    class
}

/// Notes that the cell at `place` is variable `name` living in union
/// `sid` (a local's in this function, a global's in the unit).
pub fn bind(f: &mut Fun, place: Place, sid: u32, name: &str) {
    match place {
        Place::Global(_) => bind_global(f.u, place, sid, name),
        _ => {
            f.punned.insert(place, (sid, name.to_string()));
        }
    }
}

/// [`bind`] for a global, where lowering has no function.
pub fn bind_global(u: &Unit, place: Place, sid: u32, name: &str) {
    u.heap
        .punned_cells
        .borrow_mut()
        .insert(place, (sid, name.to_string()));
}

/// The union and member name of the cell at `place`, if it is a punned
/// variable's.
fn of_place(f: &Fun, place: Place) -> Option<(u32, String)> {
    match place {
        Place::Global(_) => f.u.heap.punned_cells.borrow().get(&place).cloned(),
        _ => f.punned.get(&place).cloned(),
    }
}

/// The cell `e` names (`x`, or `&x` when `address`) when it is a punned
/// variable's: the union's pointer and the union.
pub fn named(f: &Fun, e: &Node<E>, address: bool) -> Option<(Expr, u32)> {
    let e = match (&e.node, address) {
        (E::UnaryOperator(un), true) if un.node.operator.node == U::Address => &un.node.operand,
        (_, true) => return None,
        _ => e,
    };
    let E::Identifier(id) = &e.node else {
        return None;
    };
    let Some(Var::Cell(place, _)) = f.lookup(&id.node.name) else {
        return None;
    };
    let (sid, _) = of_place(f, place)?;
    Some((f.rb.load(place), sid))
}

/// `e` as a `to *` when it is `&x` of a punned variable: a pointer into
/// its union's member ([`super::union_ptrs::converted`]).
pub fn converted(f: &mut Fun, e: &Node<E>, to: &CType) -> Res<Option<Expr>> {
    match named(f, e, true) {
        Some((union, sid)) => super::union_ptrs::converted(f, union, sid, to, e.span),
        None => Ok(None),
    }
}

/// After a store into the cell at `place` (of type `ty`): when it is a
/// punned variable's, its union's other members are brought in step.
pub fn stored(f: &mut Fun, place: Place, ty: &CType, at: CSpan) -> Res<()> {
    let Some((sid, name)) = of_place(f, place) else {
        return Ok(());
    };
    let Some(scalars) = unions::member_scalars(f.u, sid, &name, ty) else {
        return Ok(());
    };
    let union = f.rb.load(place);
    unions::in_step(f, union, sid, &name, &scalars, at)
}
