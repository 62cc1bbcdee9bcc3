//! Integer constants and constant expressions (array lengths, `case`
//! labels, enumerators, `sizeof`), computed with the same operators
//! ([`wiser_num::IntTy`]) and the same conversions ([`crate::types`]) as
//! the lowered code.

use super::{CSpan, Res, Unit, Var};
use crate::types::{CInt, CType, Rank};
use crate::DataModel;
use lang_c::ast::{self, BinaryOperator as B, Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use wiser_num::{BinOp, CmpOp, FBinOp, FClass, FUnOp, FloatOp, Int, UnOp};

/// The value and type of an integer literal (C11 §6.4.4.1: the first type
/// of its list that holds it).
pub fn integer_literal(i: &ast::Integer, dm: DataModel) -> Option<(Int, CInt)> {
    let radix = match i.base {
        ast::IntegerBase::Decimal => 10,
        ast::IntegerBase::Octal => 8,
        ast::IntegerBase::Hexadecimal => 16,
        ast::IntegerBase::Binary => 2,
    };
    let v = u128::from_str_radix(&i.number, radix).ok()?;
    let v = u64::try_from(v).ok()?;
    let decimal = radix == 10;
    let start = match i.suffix.size {
        ast::IntegerSize::Int => Rank::Int,
        ast::IntegerSize::Long => Rank::Long,
        ast::IntegerSize::LongLong => Rank::LongLong,
    };
    let mut cands = Vec::new();
    for rank in [Rank::Int, Rank::Long, Rank::LongLong] {
        if rank < start {
            continue;
        }
        if !i.suffix.unsigned {
            cands.push(CInt { rank, signed: true });
        }
        if i.suffix.unsigned || !decimal {
            cands.push(CInt {
                rank,
                signed: false,
            });
        }
    }
    let value = Int::from_u64(v);
    for t in cands {
        if t.ir(dm).contains(&value) {
            return Some((value, t));
        }
    }
    None
}

/// Evaluates a constant integer expression.
pub fn eval(u: &Unit, scope: &dyn Fn(&str) -> Option<Var>, e: &Node<E>) -> Res<(Int, CInt)> {
    let dm = u.dm;
    let not_const = || {
        wiser_ir::Diagnostic::new(u.span(e.span), "expected a constant integer expression")
            .with_help("array lengths of globals, `case` labels and enumerators must be constants")
    };
    match &e.node {
        E::Constant(c) => match &c.node {
            ast::Constant::Integer(i) => integer_literal(i, dm).ok_or_else(not_const),
            ast::Constant::Character(s) => Ok((
                Int::from(super::strings::char_literal(s).ok_or_else(not_const)?),
                CInt::INT,
            )),
            ast::Constant::Float(x) => {
                // A floating constant: its pattern (see `float::literal`).
                let (v, t) = super::float::constant(u, x, e.span)?;
                Ok((v, t))
            }
        },
        E::Identifier(id) => match scope(&id.node.name) {
            Some(Var::Const(v)) => Ok((Int::from(v), CInt::INT)),
            _ => Err(not_const()),
        },
        E::SizeOfTy(t) => {
            let ty = super::declarator::type_name(u, &t.node.0.node)?;
            size_of(u, &ty, e.span)
        }
        E::SizeOfVal(v) => {
            if let E::Member(m) = &v.node.0.node {
                bit_field_size(u, scope, m, e.span)?;
            }
            let ty = super::expr::static_type(u, scope, &v.node.0)?;
            size_of(u, &ty, e.span)
        }
        E::OffsetOf(o) => {
            let ty = super::declarator::type_name(u, &o.node.type_name.node)?;
            let d = &o.node.designator.node;
            if !d.members.is_empty() {
                return Err(u.unsupported(e.span, "`offsetof` of a nested member"));
            }
            offset_of(u, &ty, &d.base.node.name, e.span)
        }
        // `(unsigned long)&((struct S *)0)->m`: `offsetof` as older code
        // writes it.
        E::UnaryOperator(un) if un.node.operator.node == U::Address => {
            let E::Member(m) = &un.node.operand.node else {
                return Err(not_const());
            };
            let mut base = &m.node.expression;
            if m.node.operator.node != ast::MemberOperator::Indirect {
                return Err(not_const());
            }
            let E::Cast(c) = &base.node else {
                return Err(not_const());
            };
            base = &c.node.expression;
            if !matches!(eval(u, scope, base), Ok((v, _)) if v.is_zero()) {
                return Err(not_const());
            }
            let CType::Pointer(ty) = super::declarator::type_name(u, &c.node.type_name.node)?
            else {
                return Err(not_const());
            };
            let (v, _) = offset_of(u, &ty, &m.node.identifier.node.name, e.span)?;
            Ok((v, CInt::ULONG))
        }
        E::Cast(c) => {
            let ty = super::declarator::type_name(u, &c.node.type_name.node)?;
            let (v, from) = eval(u, scope, &c.node.expression)?;
            let to = ty.int().ok_or_else(not_const)?;
            Ok((convert(&v, from, to, dm), to))
        }
        E::UnaryOperator(un) => {
            let (v, t) = eval(u, scope, &un.node.operand)?;
            if let Some(ft) = t.float() {
                return match un.node.operator.node {
                    U::Plus => Ok((v, t)),
                    U::Minus => Ok((FloatOp::Unary(FUnOp::Neg, ft).apply(&[v]), t)),
                    _ => Err(not_const()),
                };
            }
            let p = t.promote();
            let pv = convert(&v, t, p, dm);
            let ty = p.ir(dm);
            match un.node.operator.node {
                U::Plus => Ok((pv, p)),
                U::Minus => Ok((ty.unary(UnOp::Neg, &pv), p)),
                U::Complement => Ok((ty.unary(UnOp::BitNot, &pv), p)),
                U::Negate => Ok((Int::from(i64::from(v.is_zero())), CInt::INT)),
                _ => Err(not_const()),
            }
        }
        E::BinaryOperator(bin) => {
            let (a, ta) = eval(u, scope, &bin.node.lhs)?;
            let (b, tb) = eval(u, scope, &bin.node.rhs)?;
            let op = bin.node.operator.node.clone();
            if let Some(ft) = CInt::common(ta, tb, dm).float() {
                let c = CInt::common(ta, tb, dm);
                let (a, b) = (convert(&a, ta, c, dm), convert(&b, tb, c, dm));
                if let Some(cmp) = cmp_op(&op) {
                    let holds = FloatOp::Cmp(cmp, ft).apply(&[a, b]);
                    return Ok((holds, CInt::INT));
                }
                let fop = match arith_op(&op) {
                    Some(BinOp::Add) => FBinOp::Add,
                    Some(BinOp::Sub) => FBinOp::Sub,
                    Some(BinOp::Mul) => FBinOp::Mul,
                    Some(BinOp::Div) => FBinOp::Div,
                    _ => return Err(not_const()),
                };
                return Ok((FloatOp::Binary(fop, ft).apply(&[a, b]), c));
            }
            if let Some(cmp) = cmp_op(&op) {
                let c = CInt::common(ta, tb, dm);
                let holds = c
                    .ir(dm)
                    .compare(cmp, &convert(&a, ta, c, dm), &convert(&b, tb, c, dm));
                return Ok((Int::from(i64::from(holds)), CInt::INT));
            }
            match op {
                B::LogicalAnd => Ok((
                    Int::from(i64::from(!a.is_zero() && !b.is_zero())),
                    CInt::INT,
                )),
                B::LogicalOr => Ok((
                    Int::from(i64::from(!a.is_zero() || !b.is_zero())),
                    CInt::INT,
                )),
                B::ShiftLeft | B::ShiftRight => {
                    let p = ta.promote();
                    let op = if op == B::ShiftLeft {
                        BinOp::Shl
                    } else {
                        BinOp::Shr
                    };
                    let ty = p.ir(dm);
                    let width = Int::from(i64::from(ty.width().unwrap_or(0)));
                    if b.is_negative() || b >= width {
                        return Err(not_const());
                    }
                    Ok((ty.binary(op, &convert(&a, ta, p, dm), &b), p))
                }
                other => {
                    let op = arith_op(&other).ok_or_else(not_const)?;
                    let c = CInt::common(ta, tb, dm);
                    let (a, b) = (convert(&a, ta, c, dm), convert(&b, tb, c, dm));
                    if matches!(op, BinOp::Div | BinOp::Rem) && b.is_zero() {
                        return Err(not_const());
                    }
                    Ok((c.ir(dm).binary(op, &a, &b), c))
                }
            }
        }
        E::Conditional(c) => {
            let (k, _) = eval(u, scope, &c.node.condition)?;
            let (a, ta) = eval(u, scope, &c.node.then_expression)?;
            let (b, tb) = eval(u, scope, &c.node.else_expression)?;
            let t = CInt::common(ta, tb, dm);
            if t.float().is_some() {
                return Err(not_const());
            }
            let v = if k.is_zero() {
                convert(&b, tb, t, dm)
            } else {
                convert(&a, ta, t, dm)
            };
            Ok((v, t))
        }
        _ => Err(not_const()),
    }
}

/// `sizeof` of a type, as a `size_t`.
pub fn size_of(u: &Unit, ty: &CType, at: CSpan) -> Res<(Int, CInt)> {
    if let Some(why) = super::layout::unmodelled(u, ty) {
        return Err(u.unsupported(
            at,
            &format!("`sizeof` of a type whose layout a gcc attribute changes: {why}, which wiser does not lay out (it lays out `__attribute__((packed))` on a structure, and `#pragma pack`)"),
        ));
    }
    let n = super::layout::bytes(u, ty).map(|(n, _)| n).ok_or_else(|| {
        u.unsupported(
            at,
            "`sizeof` of an incomplete structure, a variable-length array or a type outside the subset as a number",
        )
    })?;
    Ok((Int::from_u64(n), size_t(u.dm)))
}

/// The error of `sizeof s.m` for a bit-field `m` (C11 6.5.3.4:1), if it
/// is one.
fn bit_field_size(
    u: &Unit,
    scope: &dyn Fn(&str) -> Option<Var>,
    m: &Node<ast::MemberExpression>,
    at: CSpan,
) -> Res<()> {
    let base = super::expr::static_type(u, scope, &m.node.expression)?;
    let sid = match (&m.node.operator.node, base) {
        (ast::MemberOperator::Indirect, CType::Pointer(t)) => *t,
        (ast::MemberOperator::Direct, t) => t,
        _ => return Ok(()),
    };
    let CType::Struct(sid) = sid else {
        return Ok(());
    };
    let name = &m.node.identifier.node.name;
    match super::layout::member_width(u, sid, name) {
        Some(_) => Err(wiser_ir::Diagnostic::new(
            u.span(at),
            format!("`sizeof` applied to the bit-field `{name}`"),
        )
        .with_help(
            "a bit-field has no size in bytes (C11 6.5.3.4:1): take `sizeof` of its declared type",
        )),
        None => Ok(()),
    }
}

/// `offsetof(T, m)`: the byte offset of member `m` of structure `T`.
fn offset_of(u: &Unit, ty: &CType, member: &str, at: CSpan) -> Res<(Int, CInt)> {
    let CType::Struct(i) = ty else {
        return Err(wiser_ir::Diagnostic::new(
            u.span(at),
            "`offsetof` of a type that is not a structure",
        ));
    };
    let (bytes, _, _) = super::layout::member_bytes(u, *i, member).ok_or_else(|| {
        wiser_ir::Diagnostic::new(
            u.span(at),
            format!(
                "`{}` has no member `{member}` of a known size",
                super::heap::struct_name(u, *i)
            ),
        )
    })?;
    Ok((Int::from_u64(bytes), size_t(u.dm)))
}

/// `size_t` under a data model.
pub fn size_t(dm: DataModel) -> CInt {
    match dm {
        DataModel::Ilp32 => CInt::UINT,
        DataModel::Lp64 => CInt::ULONG,
    }
}

/// Converts a value between C arithmetic types (to `_Bool`: `!= 0`); a
/// float that does not fit an integer type converts to 0 (a program whose
/// constant does that is not valid C).
pub fn convert(v: &Int, from: CInt, to: CInt, dm: DataModel) -> Int {
    match (from.float(), to.float()) {
        (Some(a), _) if to.rank == Rank::Bool => {
            let zero = FloatOp::Class(FClass::Zero, a).apply(std::slice::from_ref(v));
            return Int::from(i64::from(zero.is_zero()));
        }
        (Some(a), Some(b)) if a == b => return v.clone(),
        (Some(a), Some(b)) => return FloatOp::Convert(a, b).apply(std::slice::from_ref(v)),
        (None, Some(b)) => {
            let v = from.ir(dm).wrap(v);
            return FloatOp::FromInt(from.ir(dm), b).apply(&[v]);
        }
        (Some(a), None) => return FloatOp::ToInt(a, to.ir(dm)).apply(std::slice::from_ref(v)),
        (None, None) => {}
    }
    if to.rank == Rank::Bool {
        return Int::from(i64::from(!v.is_zero()));
    }
    from.ir(dm).cast(to.ir(dm), v)
}

/// The comparison of a binary operator, if it is one.
pub fn cmp_op(op: &B) -> Option<CmpOp> {
    Some(match op {
        B::Less => CmpOp::Lt,
        B::Greater => CmpOp::Gt,
        B::LessOrEqual => CmpOp::Le,
        B::GreaterOrEqual => CmpOp::Ge,
        B::Equals => CmpOp::Eq,
        B::NotEquals => CmpOp::Ne,
        _ => return None,
    })
}

/// The arithmetic or bitwise operator of a binary or compound-assignment
/// operator.
pub fn arith_op(op: &B) -> Option<BinOp> {
    Some(match op {
        B::Multiply | B::AssignMultiply => BinOp::Mul,
        B::Divide | B::AssignDivide => BinOp::Div,
        B::Modulo | B::AssignModulo => BinOp::Rem,
        B::Plus | B::AssignPlus => BinOp::Add,
        B::Minus | B::AssignMinus => BinOp::Sub,
        B::ShiftLeft | B::AssignShiftLeft => BinOp::Shl,
        B::ShiftRight | B::AssignShiftRight => BinOp::Shr,
        B::BitwiseAnd | B::AssignBitwiseAnd => BinOp::BitAnd,
        B::BitwiseXor | B::AssignBitwiseXor => BinOp::BitXor,
        B::BitwiseOr | B::AssignBitwiseOr => BinOp::BitOr,
        _ => return None,
    })
}
