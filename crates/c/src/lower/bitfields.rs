//! C's bit-fields (`unsigned flag : 1;`), as gcc lays them out and
//! computes with them.
//!
//! A named bit-field is a slot of its declared type like any integer
//! member ([`super::layout`]): memory holds its value, not its bits, so
//! copies, parameters and results of structures need nothing new. What
//! is its own is done at each access with `wiser-num`'s conversions:
//! a store keeps the value modulo 2^width (converted to the `width`-bit
//! integer type, as gcc does, for signed bit-fields too), and a read
//! converts the slot to that `width`-bit type again (so a slot that holds
//! anything, an uninitialised local's, still reads as a bit-field's
//! value) and then to the type C computes it in: `int` for a bit-field
//! narrower than `int` (C11 6.3.1.1:2, gcc promotes an `unsigned` one
//! too), else its own type.
//!
//! An unnamed bit-field (`int : 3;`, `int : 0;`) is padding: a field of
//! the structure's layout with no slot. [`place`] is gcc's layout of a
//! structure's fields in bits (its `PCC_BITFIELD_TYPE_MATTERS` rules for
//! i386 and x86-64).

use super::lvalue::LVal;
use super::{consts, heap, layout, structs, CSpan, Fun, Res, Unit};
use crate::types::{CInt, CType, Rank};
use crate::DataModel;
use lang_c::ast;
use lang_c::span::Node;
use wiser_ir::{Diagnostic, Expr};
use wiser_num::IntTy;

/// The member a bit-field declarator (`T name : W`, `T : W`) declares:
/// its name (empty for padding), type and width; rustc-style errors for
/// what C or gcc refuse.
pub fn declared(
    u: &Unit,
    base: &CType,
    fd: &Node<ast::StructField>,
    d: &ast::StructDeclarator,
) -> Res<(String, CType, Option<u32>)> {
    let at = fd.span;
    let name = match &d.declarator {
        Some(decl) => super::declarator::declarator(u, base.clone(), &decl.node, None)?.0,
        None => None,
    };
    let shown = name.as_deref().unwrap_or("(unnamed)");
    let Some(w) = &d.bit_width else {
        return Err(Diagnostic::new(u.span(at), "a bit-field without a width"));
    };
    let t = match base {
        CType::Int(t) if t.is_integer() => *t,
        _ => {
            return Err(Diagnostic::new(
                u.span(at),
                format!("the bit-field `{shown}` has a type that is not an integer"),
            )
            .with_help("a bit-field's type is `int`, `unsigned`, `_Bool` or another integer type"))
        }
    };
    let enumerated = fd.node.specifiers.iter().any(
        |s| matches!(&s.node, ast::SpecifierQualifier::TypeSpecifier(t) if enumeration(u, &t.node)),
    );
    if enumerated {
        // gcc's enumerated type is `unsigned int` when no constant is
        // negative, so such a bit-field is unsigned; here enumerations
        // are `int`.
        return Err(u.unsupported(at, "bit-fields of enumerated types"));
    }
    let (v, _) = consts::eval(u, &|n: &str| u.globals.get(n).cloned(), w)?;
    let bits = if t.rank == Rank::Bool {
        1
    } else {
        t.bits(u.dm)
    };
    let width = match v.to_i64() {
        Some(k) if (0..=i64::from(bits)).contains(&k) => k as u32,
        _ => {
            return Err(Diagnostic::new(
                u.span(w.span),
                format!("the width of the bit-field `{shown}` is {v}, outside 0 to {bits}"),
            )
            .with_help(format!(
                "the bit-field's type, `{}`, is {bits} bits wide",
                t.c_name()
            )))
        }
    };
    if width == 0 && name.is_some() {
        return Err(Diagnostic::new(
            u.span(w.span),
            format!("the bit-field `{shown}` has width 0"),
        )
        .with_help("only an unnamed bit-field (`int : 0;`) may have width 0"));
    }
    if width > int_bits(u.dm) && width < t.bits(u.dm) {
        // gcc computes with such a bit-field in its own width (`x + 1`
        // of an `unsigned long long : 40` wraps at 2^40): no C type
        // here has that width.
        return Err(u.unsupported(
            w.span,
            "bit-fields wider than `int` and narrower than their type",
        ));
    }
    Ok((name.unwrap_or_default(), base.clone(), Some(width)))
}

/// Is `t` an enumerated type (`enum E`, or a `typedef` of one)?
fn enumeration(u: &Unit, t: &ast::TypeSpecifier) -> bool {
    match t {
        ast::TypeSpecifier::Enum(_) => true,
        ast::TypeSpecifier::TypedefName(id) => u.enum_typedefs.contains(&id.node.name),
        _ => false,
    }
}

/// Notes the `typedef` `name` declared with `specs` when its type is an
/// enumeration (wiser's enumerations are `int`: the name alone says so).
pub fn note_typedef(u: &mut Unit, specs: &[Node<ast::DeclarationSpecifier>], name: &str) {
    let enumerated = specs.iter().any(|s| {
        matches!(&s.node, ast::DeclarationSpecifier::TypeSpecifier(t) if enumeration(u, &t.node))
    });
    if enumerated {
        u.enum_typedefs.insert(name.to_string());
    }
}

/// The width of `int`.
fn int_bits(dm: DataModel) -> u32 {
    CInt::INT.bits(dm)
}

/// The type a read of a `width`-bit bit-field of type `t` has: `int` for
/// one narrower than `int` (every value fits), else `t` itself (an
/// `unsigned : 32` is `unsigned`); a `_Bool` one is a `_Bool`.
pub fn value_ty(t: CInt, width: u32, dm: DataModel) -> CInt {
    if t.rank == Rank::Bool || width >= int_bits(dm) {
        t
    } else {
        CInt::INT
    }
}

/// The `width`-bit integer type of a bit-field of type `t`'s values.
fn narrow(t: CInt, width: u32) -> Option<IntTy> {
    (t.rank != Rank::Bool)
        .then(|| IntTy::fixed(width, t.signed))
        .flatten()
}

/// The value a bit-field of type `t` holding slot value `v` (of `t`)
/// has, as a [`value_ty`].
pub fn read(v: Expr, t: CInt, width: u32, dm: DataModel) -> Expr {
    match narrow(t, width) {
        Some(n) => v.cast(n).cast(value_ty(t, width, dm).ir(dm)),
        None => v,
    }
}

/// The slot value (of `t`) that storing `v` (an integer of any type,
/// already converted as C converts to the bit-field) leaves: `v` modulo
/// 2^width, as gcc stores it.
pub fn truncate(v: Expr, t: CInt, width: u32, dm: DataModel) -> Expr {
    match narrow(t, width) {
        Some(n) => v.cast(n).cast(t.ir(dm)),
        None => v.cast(t.ir(dm)),
    }
}

/// An integer member access `s.m`, `p->m` as an lvalue: a bit-field
/// ([`LVal::Bits`]) or any other integer member.
pub fn int_member(f: &mut Fun, m: &ast::MemberExpression, at: CSpan) -> Res<LVal> {
    let width = member_width(f, m);
    let (obj, ty) = structs::member(f, m, at)?;
    let CType::Int(t) = ty else {
        return Err(Diagnostic::new(
            f.span(at),
            format!("the member is a `{}`, not an integer", ty.describe_in(f)),
        ));
    };
    let (array, _) = heap::cell_array(f, &ty, at)?;
    Ok(match width {
        Some(w) => LVal::Bits(array, obj, t, w),
        None => LVal::Heap(array, obj, t),
    })
}

/// The width of the member `m` names, if it is a bit-field.
pub fn member_width(f: &Fun, m: &ast::MemberExpression) -> Option<u32> {
    let base = super::ptr_type::type_of_value(f, &m.expression)?;
    let sid = match (&m.operator.node, base) {
        (ast::MemberOperator::Indirect, CType::Pointer(t)) => *t,
        (ast::MemberOperator::Direct, t) => t,
        _ => return None,
    };
    let CType::Struct(sid) = sid else { return None };
    layout::member_width(f.u, sid, &m.identifier.node.name)
}

/// The error for `&s.m` of a bit-field `m` (C11 6.5.3.2:1), if `m` is
/// one.
pub fn no_address(f: &Fun, m: &Node<ast::MemberExpression>) -> Res<()> {
    if member_width(f, &m.node).is_none() {
        return Ok(());
    }
    let name = &m.node.identifier.node.name;
    Err(Diagnostic::new(
        f.span(m.span),
        format!("cannot take the address of the bit-field `{name}`"),
    )
    .with_help("a bit-field has no address of its own: copy it into a variable and use that"))
}

/// Where gcc puts the fields of a structure or union: each field's
/// offset in bits, the size in bytes and the alignment; `None` for a
/// field without a size known here. `fields` and `widths` are a
/// [`heap::StructDef`]'s; under `#pragma pack(n)` (`pack`) no member is
/// aligned to more than `n` bytes and a bit-field goes right after what
/// precedes it.
pub fn place(
    u: &Unit,
    (fields, widths): (&[(String, CType)], &[Option<u32>]),
    (union, pack): (bool, Option<u32>),
    depth: u32,
) -> Option<(Vec<u64>, u64, u64)> {
    let (mut at, mut end, mut align) = (0u64, 0u64, 1u64);
    let mut offsets = Vec::with_capacity(fields.len());
    for (k, (name, ty)) in fields.iter().enumerate() {
        let (size, natural) = layout::bytes_at(u, ty, depth + 1)?;
        let a = pack.map_or(natural, |p| natural.min(u64::from(p)));
        let (bits, abits) = (size * 8, a * 8);
        let start = match widths.get(k).copied().flatten() {
            // `T : 0` starts the next unit of T's own alignment (packed
            // or not).
            Some(0) => {
                at = at.div_ceil(natural * 8) * natural * 8;
                offsets.push(at);
                continue;
            }
            // A bit-field goes where it is unless it would then span
            // more units of its type's alignment than the type has
            // (gcc's `excess_unit_span`, not applied when packed).
            Some(w) => {
                let w = u64::from(w);
                let start = if union { 0 } else { at };
                let spans = (start % abits + w).div_ceil(abits);
                let start = if pack.is_none() && spans > bits / abits {
                    start.div_ceil(abits) * abits
                } else {
                    start
                };
                at = start + w;
                start
            }
            None => {
                let start = if union { 0 } else { at.div_ceil(abits) * abits };
                at = start + bits;
                start
            }
        };
        // An unnamed bit-field is padding: it does not align the
        // structure (gcc on i386 and x86-64).
        if !name.is_empty() || widths.get(k).copied().flatten().is_none() {
            align = align.max(a);
        }
        end = end.max(at);
        offsets.push(start);
    }
    let size = end.max(at).div_ceil(8);
    Some((offsets, size.div_ceil(align) * align, align))
}
