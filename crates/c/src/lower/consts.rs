//! Integer constants and constant expressions (array lengths, `case`
//! labels, enumerators, `sizeof`), computed with the same operators
//! ([`wiser_num::IntTy`]) and the same conversions ([`crate::types`]) as
//! the lowered code.

use super::{CSpan, Res, Unit, Var};
use crate::types::{CInt, CType, Rank};
use crate::DataModel;
use lang_c::ast::{self, BinaryOperator as B, Expression as E, UnaryOperator as U};
use lang_c::span::Node;
use wiser_num::{BinOp, CmpOp, Int, UnOp};

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

/// The value of a character constant (`'a'`, `'\n'`, `'\x41'`, `'\0'`),
/// of type `int` (a `char` value, sign-extended as gcc does).
pub fn char_literal(s: &str) -> Option<i64> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let bytes = inner.as_bytes();
    let v: i64 = if bytes.first() == Some(&b'\\') {
        let rest = &inner[1..];
        match rest.as_bytes().first()? {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' => 92,
            b'\'' => 39,
            b'"' => 34,
            b'?' => 63,
            b'x' => i64::from_str_radix(&rest[1..], 16).ok()?,
            b'0'..=b'7' => i64::from_str_radix(rest, 8).ok()?,
            _ => return None,
        }
    } else {
        let mut chars = inner.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        i64::from(u32::from(c))
    };
    // `char` is signed: '\xff' is -1.
    Some(i64::from(v as u8 as i8))
}

/// The bytes of a string literal (adjacent literals concatenated, as
/// lang-c keeps them: each with its quotes), without the final 0;
/// `None` for a wide literal (`L"..."`, `u"..."`, `U"..."`) or an
/// escape C does not have.
pub fn string_literal(parts: &[String]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for part in parts {
        let part = part.strip_prefix("u8").unwrap_or(part);
        let inner = part.strip_prefix('"')?.strip_suffix('"')?;
        let b = inner.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'\\' {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let c = *b.get(i + 1)?;
            i += 2;
            let simple = match c {
                b'n' => Some(10),
                b't' => Some(9),
                b'r' => Some(13),
                b'a' => Some(7),
                b'b' => Some(8),
                b'f' => Some(12),
                b'v' => Some(11),
                b'\\' | b'\'' | b'"' | b'?' => Some(c),
                _ => None,
            };
            if let Some(v) = simple {
                out.push(v);
            } else if c == b'x' {
                let digits = b[i..].iter().take_while(|d| d.is_ascii_hexdigit()).count();
                if digits == 0 {
                    return None;
                }
                let v = b[i..i + digits].iter().fold(0u8, |acc, d| {
                    let d = char::from(*d).to_digit(16).unwrap_or(0) as u8;
                    acc.wrapping_mul(16).wrapping_add(d)
                });
                out.push(v);
                i += digits;
            } else if (b'0'..=b'7').contains(&c) {
                let mut v = u32::from(c - b'0');
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            } else {
                return None;
            }
        }
    }
    Some(out)
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
            ast::Constant::Character(s) => {
                Ok((Int::from(char_literal(s).ok_or_else(not_const)?), CInt::INT))
            }
            ast::Constant::Float(_) => Err(u.unsupported(e.span, "floating-point numbers")),
        },
        E::Identifier(id) => match scope(&id.node.name) {
            Some(Var::Const(v)) => Ok((Int::from(v), CInt::INT)),
            _ => Err(not_const()),
        },
        E::SizeOfTy(t) => {
            let ty = super::decl::type_name(u, &t.node.0.node)?;
            size_of(u, &ty, e.span)
        }
        E::SizeOfVal(v) => {
            let ty = super::expr::static_type(u, scope, &v.node.0)?;
            size_of(u, &ty, e.span)
        }
        E::Cast(c) => {
            let ty = super::decl::type_name(u, &c.node.type_name.node)?;
            let (v, from) = eval(u, scope, &c.node.expression)?;
            let to = ty.int().ok_or_else(not_const)?;
            Ok((convert(&v, from, to, dm), to))
        }
        E::UnaryOperator(un) => {
            let (v, t) = eval(u, scope, &un.node.operand)?;
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
    let n = ty.size(u.dm).ok_or_else(|| {
        u.unsupported(
            at,
            "`sizeof` of a structure, a mutex or a variable-length array as a number",
        )
    })?;
    Ok((Int::from_u64(n), size_t(u.dm)))
}

/// `size_t` under a data model.
pub fn size_t(dm: DataModel) -> CInt {
    match dm {
        DataModel::Ilp32 => CInt::UINT,
        DataModel::Lp64 => CInt::ULONG,
    }
}

/// Converts a value between C integer types (to `_Bool`: `!= 0`).
pub fn convert(v: &Int, from: CInt, to: CInt, dm: DataModel) -> Int {
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
