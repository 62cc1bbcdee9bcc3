//! Mathematical (unbounded) integers for `wiser`.
//!
//! IMP's integers are unbounded, like Z3's `Int` sort. Almost every value a
//! program computes fits in 64 bits, and C's pointers in 128, so [`Int`]
//! stores those inline and only falls back to a heap-allocated [`BigInt`]
//! past 128 bits.
//! Overflow never wraps: every operation is checked.
//!
//! Division follows C and Rust: `/` truncates toward zero and `%` takes the
//! sign of the dividend, so `-7 / 2 == -3` and `-7 % 2 == -1`. Division by
//! zero is *total* here (it yields 0) because the semantics checks divisors
//! before it divides; see `docs/LANGUAGE.md`.
//!
//! ```
//! use wiser_num::Int;
//! let a = Int::from(-7);
//! assert_eq!(a.div_trunc(&Int::from(2)), Int::from(-3));
//! assert_eq!(a.rem_trunc(&Int::from(2)), Int::from(-1));
//! let big = Int::from(i64::MAX).add(&Int::from(1));
//! assert_eq!(big.to_string(), "9223372036854775808");
//! ```
#![warn(missing_docs)]

pub mod bv;
mod float;
pub mod printf;
mod ty;

pub use float::{FBinOp, FClass, FUnOp, FloatOp, FloatOperand, FloatResult, FloatTy};
pub use ty::{BinOp, CmpOp, IntTy, UnOp};

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// An unbounded integer. Values that fit in `i128` never allocate.
///
/// Invariant: `Small` holds the values of the `i64` range, `Wide` those
/// of the `i128` range outside it (C's pointers, `object * 2^64 +
/// offset`, which the interpreter computes with at every access), `Big`
/// the others, so equality and hashing can be derived structurally.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Int(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(i64),
    Wide(Wide),
    Big(Arc<BigInt>),
}

/// An `i128` as two words: an `i128` field would align the enum, and so
/// every `Int`, to 16 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Wide {
    hi: i64,
    lo: u64,
}

impl Wide {
    fn get(self) -> i128 {
        (i128::from(self.hi) << 64) | i128::from(self.lo)
    }

    fn new(v: i128) -> Wide {
        Wide {
            hi: (v >> 64) as i64,
            lo: v as u64,
        }
    }
}

impl Int {
    /// Zero.
    pub const ZERO: Int = Int(Repr::Small(0));
    /// One.
    pub const ONE: Int = Int(Repr::Small(1));

    fn from_big(b: BigInt) -> Int {
        match b.to_i128() {
            Some(v) => Int::from_i128(v),
            None => Int(Repr::Big(Arc::new(b))),
        }
    }

    /// The value as a `BigInt` (allocates for large values only when cloned).
    pub fn to_bigint(&self) -> BigInt {
        match &self.0 {
            Repr::Small(v) => BigInt::from(*v),
            Repr::Wide(w) => BigInt::from(w.get()),
            Repr::Big(b) => (**b).clone(),
        }
    }

    /// The value as an `i64`, if it fits.
    pub fn to_i64(&self) -> Option<i64> {
        match &self.0 {
            Repr::Small(v) => Some(*v),
            Repr::Wide(_) | Repr::Big(_) => None,
        }
    }

    /// The value of an unsigned 64-bit number.
    pub fn from_u64(v: u64) -> Int {
        match i64::try_from(v) {
            Ok(s) => Int(Repr::Small(s)),
            Err(_) => Int(Repr::Wide(Wide::new(i128::from(v)))),
        }
    }

    /// The low `w` bits (1 to 64) of the two's complement representation
    /// of this integer: its value modulo 2^w, as a bit pattern.
    pub fn low_bits(&self, w: u32) -> u64 {
        let bits = match &self.0 {
            Repr::Small(v) => *v as u64,
            Repr::Wide(w) => w.lo,
            Repr::Big(b) => {
                // Two's complement of a negative number -m: the low 64
                // bits of 2^64k - m, those of m negated.
                let m = b.iter_u64_digits().next().unwrap_or(0);
                if b.is_negative() {
                    m.wrapping_neg()
                } else {
                    m
                }
            }
        };
        bits & bv::mask(w)
    }

    /// Is this zero?
    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small(0))
    }

    /// Is this strictly negative?
    pub fn is_negative(&self) -> bool {
        match &self.0 {
            Repr::Small(v) => *v < 0,
            Repr::Wide(w) => w.hi < 0,
            Repr::Big(b) => b.is_negative(),
        }
    }

    /// `small` of the two values when both are small and it does not
    /// overflow (`None`), else `wide` of them when both fit in `i128` and
    /// it does not overflow, else `big` of them as big integers: the fast
    /// paths of every arithmetic operation. The `i128` path is for C's
    /// pointers (`object * 2^64 + offset`): converting them to `BigInt`s
    /// at every step cost most of an interpreted pointer access.
    #[inline]
    fn binary(
        &self,
        rhs: &Int,
        small: impl FnOnce(i64, i64) -> Option<i64>,
        wide: impl FnOnce(i128, i128) -> Option<i128>,
        big: impl FnOnce(BigInt, BigInt) -> BigInt,
    ) -> Int {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &rhs.0) {
            if let Some(r) = small(*a, *b) {
                return Int(Repr::Small(r));
            }
        }
        if let (Some(a), Some(b)) = (self.to_i128(), rhs.to_i128()) {
            if let Some(r) = wide(a, b) {
                return Int::from_i128(r);
            }
        }
        Int::from_big(big(self.to_bigint(), rhs.to_bigint()))
    }

    /// The value as an `i128`, if it fits (a `Big` does not).
    fn to_i128(&self) -> Option<i128> {
        match &self.0 {
            Repr::Small(v) => Some(i128::from(*v)),
            Repr::Wide(w) => Some(w.get()),
            Repr::Big(_) => None,
        }
    }

    fn from_i128(v: i128) -> Int {
        match i64::try_from(v) {
            Ok(s) => Int(Repr::Small(s)),
            Err(_) => Int(Repr::Wide(Wide::new(v))),
        }
    }

    /// `self + rhs`.
    pub fn add(&self, rhs: &Int) -> Int {
        self.binary(rhs, i64::checked_add, i128::checked_add, |a, b| a + b)
    }

    /// `self - rhs`.
    pub fn sub(&self, rhs: &Int) -> Int {
        self.binary(rhs, i64::checked_sub, i128::checked_sub, |a, b| a - b)
    }

    /// `self * rhs`.
    pub fn mul(&self, rhs: &Int) -> Int {
        self.binary(rhs, i64::checked_mul, i128::checked_mul, |a, b| a * b)
    }

    /// `-self`.
    pub fn neg(&self) -> Int {
        if let Repr::Small(a) = &self.0 {
            if let Some(r) = a.checked_neg() {
                return Int(Repr::Small(r));
            }
        }
        if let Some(r) = self.to_i128().and_then(i128::checked_neg) {
            return Int::from_i128(r);
        }
        Int::from_big(-self.to_bigint())
    }

    /// Division truncating toward zero (C and Rust `/`). Total: `x / 0 == 0`.
    pub fn div_trunc(&self, rhs: &Int) -> Int {
        if rhs.is_zero() {
            return Int::ZERO;
        }
        // BigInt's `/` also truncates toward zero.
        self.binary(rhs, i64::checked_div, i128::checked_div, |a, b| a / b)
    }

    /// Remainder with the sign of the dividend (C and Rust `%`).
    /// Total: `x % 0 == 0`.
    pub fn rem_trunc(&self, rhs: &Int) -> Int {
        if rhs.is_zero() {
            return Int::ZERO;
        }
        self.binary(rhs, i64::checked_rem, i128::checked_rem, |a, b| a % b)
    }

    /// Greatest common divisor, always non-negative.
    pub fn gcd(&self, rhs: &Int) -> Int {
        let small = |a: i64, b: i64| {
            let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
            while y != 0 {
                (x, y) = (y, x % y);
            }
            i64::try_from(x).ok()
        };
        self.binary(rhs, small, |_, _| None, |a, b| a.gcd(&b))
    }

    /// Floor division (rounds toward negative infinity). Total: `x.div_floor(0) == 0`.
    pub fn div_floor(&self, rhs: &Int) -> Int {
        if rhs.is_zero() {
            return Int::ZERO;
        }
        let small = |a: i64, b: i64| {
            let (q, r) = (a.checked_div(b)?, a.checked_rem(b)?);
            let adjust = r != 0 && ((r < 0) != (b < 0));
            Some(if adjust { q - 1 } else { q })
        };
        let wide = |a: i128, b: i128| {
            let (q, r) = (a.checked_div(b)?, a.checked_rem(b)?);
            let adjust = r != 0 && ((r < 0) != (b < 0));
            Some(if adjust { q - 1 } else { q })
        };
        self.binary(rhs, small, wide, |a, b| Integer::div_floor(&a, &b))
    }

    /// Ceiling division (rounds toward positive infinity). Total: `x.div_ceil(0) == 0`.
    pub fn div_ceil(&self, rhs: &Int) -> Int {
        self.neg().div_floor(rhs).neg()
    }

    /// The sign: -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self.cmp(&Int::ZERO) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    }

    /// `|self|`.
    pub fn abs(&self) -> Int {
        if self.is_negative() {
            self.neg()
        } else {
            self.clone()
        }
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Self) -> Ordering {
        // No conversion: a `Big` lies outside `i128`'s range (the
        // invariant), so its sign orders it against the others.
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            (Repr::Big(a), Repr::Big(b)) => a.cmp(b),
            (_, Repr::Big(b)) if b.is_negative() => Ordering::Greater,
            (_, Repr::Big(_)) => Ordering::Less,
            (Repr::Big(a), _) if a.is_negative() => Ordering::Less,
            (Repr::Big(_), _) => Ordering::Greater,
            _ => self.to_i128().cmp(&other.to_i128()),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl From<i64> for Int {
    fn from(v: i64) -> Int {
        Int(Repr::Small(v))
    }
}

impl From<i32> for Int {
    fn from(v: i32) -> Int {
        Int(Repr::Small(v.into()))
    }
}

impl From<BigInt> for Int {
    fn from(v: BigInt) -> Int {
        Int::from_big(v)
    }
}

/// The error returned when a string is not a decimal integer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseIntError;

impl fmt::Display for ParseIntError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a decimal integer")
    }
}

impl std::error::Error for ParseIntError {}

impl FromStr for Int {
    type Err = ParseIntError;
    /// Parses an optionally signed decimal integer of any size.
    fn from_str(s: &str) -> Result<Int, ParseIntError> {
        if let Ok(v) = s.parse::<i64>() {
            return Ok(Int(Repr::Small(v)));
        }
        let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseIntError);
        }
        BigInt::from_str(s)
            .map(Int::from_big)
            .map_err(|_| ParseIntError)
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(v) => write!(f, "{v}"),
            Repr::Wide(w) => write!(f, "{}", w.get()),
            Repr::Big(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl serde::Serialize for Int {
    /// Integers inside the `i64` range are JSON numbers; larger ones are
    /// decimal strings, so no consumer silently loses precision.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Small(v) => s.serialize_i64(*v),
            Repr::Wide(w) => s.serialize_str(&w.get().to_string()),
            Repr::Big(b) => s.serialize_str(&b.to_string()),
        }
    }
}

impl Default for Int {
    fn default() -> Int {
        Int::ZERO
    }
}

impl Zero for Int {
    fn zero() -> Int {
        Int::ZERO
    }
    fn is_zero(&self) -> bool {
        Int::is_zero(self)
    }
}

impl std::ops::Add for Int {
    type Output = Int;
    fn add(self, rhs: Int) -> Int {
        Int::add(&self, &rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(v: i128) -> BigInt {
        BigInt::from(v)
    }

    #[test]
    fn c_division_signs() {
        let cases = [
            (-7, 2, -3, -1),
            (7, -2, -3, 1),
            (-7, -2, 3, -1),
            (7, 2, 3, 1),
        ];
        for (a, b, q, r) in cases {
            let (a, b) = (Int::from(a), Int::from(b));
            assert_eq!(a.div_trunc(&b), Int::from(q), "{a} / {b}");
            assert_eq!(a.rem_trunc(&b), Int::from(r), "{a} % {b}");
        }
    }

    #[test]
    fn min_divided_by_minus_one_does_not_wrap() {
        let min = Int::from(i64::MIN);
        let q = min.div_trunc(&Int::from(-1));
        assert_eq!(q.to_string(), "9223372036854775808");
        assert_eq!(min.rem_trunc(&Int::from(-1)), Int::ZERO);
        assert_eq!(min.neg().to_string(), "9223372036854775808");
    }

    #[test]
    fn big_values_normalise_back_to_small() {
        let a = Int::from(i64::MAX).add(&Int::ONE);
        let b = a.sub(&Int::ONE);
        assert_eq!(b, Int::from(i64::MAX));
        assert_eq!(b.to_i64(), Some(i64::MAX));
    }

    #[test]
    fn low_bits_of_big_and_negative_values() {
        assert_eq!(Int::from(-1).low_bits(8), 255);
        assert_eq!(Int::from(-1).low_bits(64), u64::MAX);
        let big = Int::from(i64::MAX).add(&Int::from(2)); // 2^63 + 1
        assert_eq!(big.low_bits(64), (1u64 << 63) + 1);
        assert_eq!(big.neg().low_bits(64), ((1u64 << 63) + 1).wrapping_neg());
        assert_eq!(Int::from_u64(u64::MAX).to_string(), "18446744073709551615");
        assert_eq!(Int::from_u64(5), Int::from(5));
    }

    #[test]
    fn parse_and_print() {
        for s in [
            "0",
            "-5",
            "123456789012345678901234567890",
            "-99999999999999999999",
        ] {
            assert_eq!(s.parse::<Int>().unwrap().to_string(), s);
        }
        assert!("12a".parse::<Int>().is_err());
        assert!("".parse::<Int>().is_err());
        assert!("-".parse::<Int>().is_err());
    }

    #[test]
    fn representations_are_canonical_at_the_boundaries() {
        // Equality and hashing are structural: each value has one
        // representation however it was made.
        let two = Int::from(2);
        let p64 = "18446744073709551616".parse::<Int>().unwrap();
        let p127 = "170141183460469231731687303715884105728"
            .parse::<Int>()
            .unwrap();
        let m127 = "-170141183460469231731687303715884105728"
            .parse::<Int>()
            .unwrap();
        assert_eq!(Int::from_u64(u64::MAX).add(&Int::ONE), p64);
        assert_eq!(p64.sub(&Int::ONE), Int::from_u64(u64::MAX));
        assert_eq!(
            Int::from(i64::MAX).add(&Int::ONE).sub(&Int::ONE),
            Int::from(i64::MAX)
        );
        assert_eq!(m127.neg(), p127);
        assert_eq!(p127.neg(), m127);
        assert_eq!(p127.sub(&Int::ONE).add(&Int::ONE), p127);
        assert_eq!(p127.div_trunc(&two).mul(&two), p127);
        assert_eq!(m127.sub(&Int::ONE).add(&Int::ONE), m127);
        assert!(m127 < Int::from(i64::MIN) && Int::from(i64::MAX) < p64 && p64 < p127);
        assert_eq!(p127.to_string(), "170141183460469231731687303715884105728");
        assert_eq!(p64.low_bits(64), 0);
        assert_eq!(p64.neg().add(&Int::ONE).low_bits(64), 1);
    }

    proptest! {
        #[test]
        fn ops_agree_with_bigint(a in any::<i64>(), b in any::<i64>()) {
            let (x, y) = (Int::from(a), Int::from(b));
            let (ba, bb) = (big(a as i128), big(b as i128));
            prop_assert_eq!(x.add(&y).to_bigint(), &ba + &bb);
            prop_assert_eq!(x.sub(&y).to_bigint(), &ba - &bb);
            prop_assert_eq!(x.mul(&y).to_bigint(), &ba * &bb);
            prop_assert_eq!(x.cmp(&y), ba.cmp(&bb));
            if b != 0 {
                prop_assert_eq!(x.div_trunc(&y).to_bigint(), &ba / &bb);
                prop_assert_eq!(x.rem_trunc(&y).to_bigint(), &ba % &bb);
                prop_assert_eq!(x.div_floor(&y).to_bigint(), Integer::div_floor(&ba, &bb));
            }
        }

        #[test]
        fn wide_ops_agree_with_bigint(a in any::<i64>(), b in any::<i64>(), c in any::<i64>(), d in any::<i64>(), k in 0u32..3) {
            // Operands around 2^64 and 2^127 (C's pointers, and results
            // that leave `i128`), through every path: small, `i128`, big.
            let shift = [1u32, 64, 127][k as usize];
            let ba: BigInt = (big(a as i128) << 64u32) + big(c as i128);
            let bb: BigInt = (big(b as i128) << shift) + big(d as i128);
            let (x, y) = (Int::from_big(ba.clone()), Int::from_big(bb.clone()));
            prop_assert_eq!(x.add(&y).to_bigint(), &ba + &bb);
            prop_assert_eq!(x.sub(&y).to_bigint(), &ba - &bb);
            prop_assert_eq!(x.mul(&y).to_bigint(), &ba * &bb);
            prop_assert_eq!(x.cmp(&y), ba.cmp(&bb));
            prop_assert_eq!(x.cmp(&Int::from(c)), ba.cmp(&big(c as i128)));
            prop_assert_eq!(Int::from(d).cmp(&y), big(d as i128).cmp(&bb));
            prop_assert_eq!(x.low_bits(64), (ba.clone() & big(u64::MAX as i128)).to_u64().unwrap());
            if !bb.is_zero() {
                prop_assert_eq!(x.div_trunc(&y).to_bigint(), &ba / &bb);
                prop_assert_eq!(x.rem_trunc(&y).to_bigint(), &ba % &bb);
                prop_assert_eq!(x.div_floor(&y).to_bigint(), Integer::div_floor(&ba, &bb));
            }
        }

        #[test]
        fn small_ops_match_i128(a in -1000i64..1000, b in -1000i64..1000) {
            let (x, y) = (Int::from(a), Int::from(b));
            if b != 0 {
                prop_assert_eq!(x.div_trunc(&y), Int::from(a / b));
                prop_assert_eq!(x.rem_trunc(&y), Int::from(a % b));
                prop_assert_eq!(x.div_ceil(&y).to_bigint(), big((a as f64 / b as f64).ceil() as i128));
            }
        }
    }
}
