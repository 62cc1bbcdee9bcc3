//! Integer types and the meaning of every integer operator on values.
//!
//! A value of an [`IntTy`] is an [`Int`] holding its mathematical value:
//! an `i8` holding -1 is `-1`, a `u8` holding 255 is `255`. Unbounded
//! `int` is IMP's default; fixed-width types wrap like C's unsigned types
//! (and like gcc's signed ones). Fixed-width operations are defined on bit
//! patterns in [`crate::bv`], so a value and the term that denotes it
//! cannot disagree: [`IntTy::binary`] converts to a pattern, applies the
//! pattern operation, and converts back.
//!
//! Which results are *errors* (signed overflow, division by zero, a shift
//! out of range) is not decided here: the operations are total, and the
//! semantics checks the error conditions ([`IntTy::overflows`] and friends)
//! before it evaluates them.

use crate::{bv, Int};
use std::fmt;

/// An integer type: unbounded, or `bits` wide (1 to 64) and signed or not.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IntTy {
    /// 0 for unbounded.
    bits: u8,
    signed: bool,
}

/// Binary integer operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`, truncating toward zero (C's).
    Div,
    /// `%`, with the sign of the dividend (C's).
    Rem,
    /// `&` (fixed-width types only).
    BitAnd,
    /// `|` (fixed-width types only).
    BitOr,
    /// `^` (fixed-width types only).
    BitXor,
    /// `<<` (fixed-width types only).
    Shl,
    /// `>>`: arithmetic on signed types, logical on unsigned ones
    /// (fixed-width types only).
    Shr,
}

/// Unary integer operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `~` (fixed-width types only).
    BitNot,
}

/// Comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl BinOp {
    /// Is this a bitwise or shift operator (defined on fixed widths only)?
    pub fn is_bitwise(self) -> bool {
        matches!(
            self,
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
        )
    }

    /// The operator as written in C and IMP.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
        }
    }
}

impl UnOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::BitNot => "~",
        }
    }
}

impl CmpOp {
    /// Every comparison.
    pub const ALL: [CmpOp; 6] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];

    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// The comparison that holds exactly when this one does not.
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }

    /// The comparison with its operands swapped (`a < b` is `b > a`).
    pub fn swap(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => other,
        }
    }

    /// Applies the comparison to an ordering of `a` against `b`.
    pub fn holds(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CmpOp::Eq => ord == Equal,
            CmpOp::Ne => ord != Equal,
            CmpOp::Lt => ord == Less,
            CmpOp::Le => ord != Greater,
            CmpOp::Gt => ord == Greater,
            CmpOp::Ge => ord != Less,
        }
    }
}

impl IntTy {
    /// Unbounded (mathematical) integers: IMP's `int`.
    pub const INT: IntTy = IntTy {
        bits: 0,
        signed: true,
    };
    /// `i8`
    pub const I8: IntTy = IntTy::fixed_const(8, true);
    /// `i16`
    pub const I16: IntTy = IntTy::fixed_const(16, true);
    /// `i32`
    pub const I32: IntTy = IntTy::fixed_const(32, true);
    /// `i64`
    pub const I64: IntTy = IntTy::fixed_const(64, true);
    /// `u8`
    pub const U8: IntTy = IntTy::fixed_const(8, false);
    /// `u16`
    pub const U16: IntTy = IntTy::fixed_const(16, false);
    /// `u32`
    pub const U32: IntTy = IntTy::fixed_const(32, false);
    /// `u64`
    pub const U64: IntTy = IntTy::fixed_const(64, false);

    /// The types a program can name, in a fixed order.
    pub const NAMED: [IntTy; 9] = [
        IntTy::INT,
        IntTy::I8,
        IntTy::I16,
        IntTy::I32,
        IntTy::I64,
        IntTy::U8,
        IntTy::U16,
        IntTy::U32,
        IntTy::U64,
    ];

    const fn fixed_const(bits: u8, signed: bool) -> IntTy {
        IntTy { bits, signed }
    }

    /// A fixed-width type of `bits` bits (1 to 64).
    pub fn fixed(bits: u32, signed: bool) -> Option<IntTy> {
        (1..=64).contains(&bits).then_some(IntTy {
            bits: bits as u8,
            signed,
        })
    }

    /// The width in bits; `None` when unbounded.
    pub fn width(self) -> Option<u32> {
        (self.bits != 0).then_some(u32::from(self.bits))
    }

    /// Is this the unbounded type?
    pub fn is_unbounded(self) -> bool {
        self.bits == 0
    }

    /// Is this signed? (The unbounded type is.)
    pub fn is_signed(self) -> bool {
        self.signed
    }

    /// Can every value of this type be represented in `to`? Then IMP
    /// converts a value of this type implicitly where a `to` is expected.
    pub fn is_lossless_to(self, to: IntTy) -> bool {
        match (self.width(), to.width()) {
            _ if self == to => true,
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(a), Some(b)) => {
                (self.is_signed() == to.is_signed() && a <= b)
                    || (!self.is_signed() && to.is_signed() && a < b)
            }
        }
    }

    /// The type's name: `int`, `i8` ... `u64`, or `i<w>`/`u<w>` for other
    /// widths.
    pub fn name(self) -> String {
        match self.width() {
            None => "int".into(),
            Some(w) => format!("{}{w}", if self.signed { 'i' } else { 'u' }),
        }
    }

    /// The type a program names (`int`, `i8` ... `u64`).
    pub fn from_name(name: &str) -> Option<IntTy> {
        IntTy::NAMED.into_iter().find(|t| t.name() == name)
    }

    /// The least value, if bounded.
    pub fn min(self) -> Option<Int> {
        let w = self.width()?;
        Some(if self.signed {
            Int::from(bv::to_signed(w, 1u64 << (w - 1)))
        } else {
            Int::ZERO
        })
    }

    /// The greatest value, if bounded.
    pub fn max(self) -> Option<Int> {
        let w = self.width()?;
        Some(if self.signed {
            Int::from(bv::to_signed(w, bv::mask(w) >> 1))
        } else {
            Int::from_u64(bv::mask(w))
        })
    }

    /// Is `v` a value of this type?
    pub fn contains(self, v: &Int) -> bool {
        match (self.min(), self.max()) {
            (Some(lo), Some(hi)) => lo <= *v && *v <= hi,
            _ => true,
        }
    }

    /// The value of this type congruent to `v` modulo 2^width (`v` itself
    /// when unbounded): C's conversion to an unsigned type, and gcc's to a
    /// signed one.
    pub fn wrap(self, v: &Int) -> Int {
        match self.width() {
            None => v.clone(),
            Some(w) => {
                if self.contains(v) {
                    return v.clone();
                }
                self.from_bits(v.low_bits(w))
            }
        }
    }

    /// The two's complement pattern of `v` (a value of this type, or any
    /// integer, which is wrapped). Unbounded types have no pattern: 0.
    pub fn to_bits(self, v: &Int) -> u64 {
        match self.width() {
            None => 0,
            Some(w) => v.low_bits(w),
        }
    }

    /// The value whose pattern is `bits` (of this type's width).
    pub fn from_bits(self, bits: u64) -> Int {
        match self.width() {
            None => Int::from_u64(bits),
            Some(w) if self.signed => Int::from(bv::to_signed(w, bits & bv::mask(w))),
            Some(w) => Int::from_u64(bits & bv::mask(w)),
        }
    }

    /// `a op b` for values of this type. Total: fixed widths wrap and
    /// follow [`crate::bv`] at the error cases; unbounded division and
    /// remainder by zero give 0. Bitwise operators on the unbounded type
    /// give 0 (the IR rejects them).
    pub fn binary(self, op: BinOp, a: &Int, b: &Int) -> Int {
        let Some(w) = self.width() else {
            return match op {
                BinOp::Add => a.add(b),
                BinOp::Sub => a.sub(b),
                BinOp::Mul => a.mul(b),
                BinOp::Div => a.div_trunc(b),
                BinOp::Rem => a.rem_trunc(b),
                _ => Int::ZERO,
            };
        };
        // The fast path: values that fit an i64 need no pattern for + - *
        // when the result stays in range.
        if let (Some(x), Some(y)) = (a.to_i64(), b.to_i64()) {
            let exact = match op {
                BinOp::Add => x.checked_add(y),
                BinOp::Sub => x.checked_sub(y),
                BinOp::Mul => x.checked_mul(y),
                _ => None,
            };
            if let Some(r) = exact {
                let r = Int::from(r);
                if self.contains(&r) {
                    return r;
                }
            }
        }
        let (x, y) = (self.to_bits(a), self.to_bits(b));
        let bits = match op {
            BinOp::Add => bv::add(w, x, y),
            BinOp::Sub => bv::sub(w, x, y),
            BinOp::Mul => bv::mul(w, x, y),
            BinOp::Div if self.signed => bv::sdiv(w, x, y),
            BinOp::Div => bv::udiv(w, x, y),
            BinOp::Rem if self.signed => bv::srem(w, x, y),
            BinOp::Rem => bv::urem(w, x, y),
            BinOp::BitAnd => bv::and(x, y),
            BinOp::BitOr => bv::or(x, y),
            BinOp::BitXor => bv::xor(x, y),
            BinOp::Shl => bv::shl(w, x, y),
            BinOp::Shr if self.signed => bv::ashr(w, x, y),
            BinOp::Shr => bv::lshr(w, x, y),
        };
        self.from_bits(bits)
    }

    /// `op a` for a value of this type (total, wrapping).
    pub fn unary(self, op: UnOp, a: &Int) -> Int {
        match (op, self.width()) {
            (UnOp::Neg, None) => a.neg(),
            (UnOp::BitNot, None) => Int::ZERO,
            (UnOp::Neg, Some(w)) => self.from_bits(bv::neg(w, self.to_bits(a))),
            (UnOp::BitNot, Some(w)) => self.from_bits(bv::not(w, self.to_bits(a))),
        }
    }

    /// `a op b` for values of this type: their mathematical order, which
    /// is the signed or unsigned order of their patterns.
    pub fn compare(self, op: CmpOp, a: &Int, b: &Int) -> bool {
        op.holds(a.cmp(b))
    }

    /// The conversion of a value of this type to `to` (C's cast).
    pub fn cast(self, to: IntTy, a: &Int) -> Int {
        to.wrap(a)
    }

    /// Is the mathematical result of `a op b` outside this type, for an
    /// operation whose overflow C calls undefined: `+ - *` on a signed
    /// type, `MIN / -1` and `MIN % -1`, and `<<` of a negative value or
    /// into the sign bit (for a shift amount in range)? Always false on
    /// unsigned and unbounded types.
    pub fn overflows(self, op: BinOp, a: &Int, b: &Int) -> bool {
        let Some(w) = self.width() else {
            return false;
        };
        if !self.signed {
            return false;
        }
        let (x, y) = (self.to_bits(a), self.to_bits(b));
        match op {
            BinOp::Add => bv::sadd_overflows(w, x, y),
            BinOp::Sub => bv::ssub_overflows(w, x, y),
            BinOp::Mul => bv::smul_overflows(w, x, y),
            BinOp::Div | BinOp::Rem => bv::sdiv_overflows(w, x, y),
            BinOp::Shl => bv::sshl_overflows(w, x, y),
            _ => false,
        }
    }

    /// Is `-a` outside this (signed) type, that is, is `a` its minimum?
    pub fn neg_overflows(self, a: &Int) -> bool {
        self.signed && self.width().is_some() && self.min().as_ref() == Some(a)
    }
}

impl fmt::Display for IntTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for IntTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ranges_and_names() {
        assert_eq!(IntTy::I8.min(), Some(Int::from(-128)));
        assert_eq!(IntTy::I8.max(), Some(Int::from(127)));
        assert_eq!(
            IntTy::U64.max().unwrap().to_string(),
            "18446744073709551615"
        );
        assert_eq!(IntTy::I64.min(), Some(Int::from(i64::MIN)));
        assert_eq!(IntTy::INT.min(), None);
        for t in IntTy::NAMED {
            assert_eq!(IntTy::from_name(&t.name()), Some(t));
        }
        assert_eq!(IntTy::from_name("u7"), None);
    }

    #[test]
    fn wrapping_and_casts() {
        assert_eq!(IntTy::U8.wrap(&Int::from(300)), Int::from(44));
        assert_eq!(IntTy::U8.wrap(&Int::from(-1)), Int::from(255));
        assert_eq!(IntTy::I8.wrap(&Int::from(200)), Int::from(-56));
        let big: Int = "340282366920938463463374607431768211457".parse().unwrap();
        assert_eq!(IntTy::U64.wrap(&big), Int::ONE);
        assert_eq!(
            IntTy::I32.cast(IntTy::U16, &Int::from(-1)),
            Int::from(65535)
        );
        assert_eq!(
            IntTy::U64.cast(IntTy::I64, &IntTy::U64.max().unwrap()),
            Int::from(-1)
        );
    }

    #[test]
    fn u64_values_above_i64_max() {
        let t = IntTy::U64;
        let max = t.max().unwrap();
        assert_eq!(t.binary(BinOp::Add, &max, &Int::ONE), Int::ZERO);
        assert_eq!(t.binary(BinOp::Shr, &max, &Int::from(63)), Int::ONE);
        assert!(t.compare(CmpOp::Gt, &max, &Int::from(i64::MAX)));
        assert_eq!(t.unary(UnOp::Neg, &Int::ONE), max);
    }

    proptest! {
        #[test]
        fn thirty_two_bit_ops_match_rust(a in any::<i32>(), b in any::<i32>()) {
            let t = IntTy::I32;
            let (x, y) = (Int::from(a), Int::from(b));
            prop_assert_eq!(t.binary(BinOp::Add, &x, &y), Int::from(a.wrapping_add(b)));
            prop_assert_eq!(t.binary(BinOp::Sub, &x, &y), Int::from(a.wrapping_sub(b)));
            prop_assert_eq!(t.binary(BinOp::Mul, &x, &y), Int::from(a.wrapping_mul(b)));
            prop_assert_eq!(t.binary(BinOp::BitXor, &x, &y), Int::from(a ^ b));
            prop_assert_eq!(t.overflows(BinOp::Add, &x, &y), a.checked_add(b).is_none());
            prop_assert_eq!(t.overflows(BinOp::Mul, &x, &y), a.checked_mul(b).is_none());
            if b != 0 {
                prop_assert_eq!(t.binary(BinOp::Div, &x, &y), Int::from(a.wrapping_div(b)));
                prop_assert_eq!(t.binary(BinOp::Rem, &x, &y), Int::from(a.wrapping_rem(b)));
            }
            let s = (b & 31) as u32;
            prop_assert_eq!(t.binary(BinOp::Shr, &x, &Int::from(s as i64)), Int::from(a >> s));
            let u = IntTy::U32;
            let (p, q) = (a as u32, b as u32);
            let (xu, yu) = (Int::from(i64::from(p)), Int::from(i64::from(q)));
            prop_assert_eq!(u.binary(BinOp::Add, &xu, &yu), Int::from(i64::from(p.wrapping_add(q))));
            prop_assert_eq!(u.binary(BinOp::Shr, &xu, &Int::from(s as i64)), Int::from(i64::from(p >> s)));
            if let Some(quotient) = p.checked_div(q) {
                prop_assert_eq!(u.binary(BinOp::Div, &xu, &yu), Int::from(i64::from(quotient)));
            }
            prop_assert_eq!(u.compare(CmpOp::Lt, &xu, &yu), p < q);
        }

        #[test]
        fn sixty_four_bit_ops_match_rust(a in any::<i64>(), b in any::<i64>()) {
            let t = IntTy::I64;
            let (x, y) = (Int::from(a), Int::from(b));
            prop_assert_eq!(t.binary(BinOp::Mul, &x, &y), Int::from(a.wrapping_mul(b)));
            prop_assert_eq!(t.overflows(BinOp::Sub, &x, &y), a.checked_sub(b).is_none());
            let u = IntTy::U64;
            let (p, q) = (a as u64, b as u64);
            let (xu, yu) = (Int::from_u64(p), Int::from_u64(q));
            prop_assert_eq!(u.binary(BinOp::Mul, &xu, &yu), Int::from_u64(p.wrapping_mul(q)));
            prop_assert_eq!(u.binary(BinOp::Sub, &xu, &yu), Int::from_u64(p.wrapping_sub(q)));
            if q != 0 {
                prop_assert_eq!(u.binary(BinOp::Rem, &xu, &yu), Int::from_u64(p % q));
            }
            prop_assert_eq!(IntTy::I64.cast(IntTy::U64, &x), Int::from_u64(p));
            prop_assert_eq!(IntTy::U64.cast(IntTy::I8, &xu), Int::from(i64::from(p as u8 as i8)));
        }
    }
}
