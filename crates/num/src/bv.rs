//! Bit-vector operations on patterns of 1 to 64 bits: the one definition
//! of machine arithmetic that the concrete interpreter, term folding,
//! model evaluation and (through SMT-LIB, whose semantics these are) Z3
//! share.
//!
//! A pattern of width `w` is a `u64` whose bits above `w` are zero. Every
//! operation is total and follows SMT-LIB's `QF_BV` exactly, including the
//! cases the semantics guards against and so never observes: `bvudiv` by 0
//! is all ones, `bvurem` by 0 is the dividend, `bvsdiv`/`bvsrem` are
//! defined through them, and shifts by `w` or more give 0 (or all sign
//! bits for `bvashr`). The shift amount is itself a pattern of width `w`,
//! read as unsigned.

/// The mask of the low `w` bits.
#[inline]
pub fn mask(w: u32) -> u64 {
    debug_assert!((1..=64).contains(&w), "bit-vector width {w}");
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// The sign bit of width `w`.
#[inline]
fn sign_bit(w: u32) -> u64 {
    1u64 << (w - 1)
}

/// Is the pattern negative when read as two's complement?
#[inline]
pub fn is_negative(w: u32, a: u64) -> bool {
    a & sign_bit(w) != 0
}

/// The pattern read as a signed (two's complement) number.
#[inline]
pub fn to_signed(w: u32, a: u64) -> i64 {
    let shift = 64 - w;
    ((a << shift) as i64) >> shift
}

/// The pattern of width `w` of a signed number (wrapping).
#[inline]
pub fn from_signed(w: u32, v: i64) -> u64 {
    (v as u64) & mask(w)
}

/// `a + b` modulo 2^w.
#[inline]
pub fn add(w: u32, a: u64, b: u64) -> u64 {
    a.wrapping_add(b) & mask(w)
}

/// `a - b` modulo 2^w.
#[inline]
pub fn sub(w: u32, a: u64, b: u64) -> u64 {
    a.wrapping_sub(b) & mask(w)
}

/// `a * b` modulo 2^w.
#[inline]
pub fn mul(w: u32, a: u64, b: u64) -> u64 {
    a.wrapping_mul(b) & mask(w)
}

/// `-a` modulo 2^w.
#[inline]
pub fn neg(w: u32, a: u64) -> u64 {
    a.wrapping_neg() & mask(w)
}

/// Bitwise complement.
#[inline]
pub fn not(w: u32, a: u64) -> u64 {
    !a & mask(w)
}

/// Unsigned division; all ones when `b` is 0 (SMT-LIB).
#[inline]
pub fn udiv(w: u32, a: u64, b: u64) -> u64 {
    a.checked_div(b).unwrap_or(mask(w))
}

/// Unsigned remainder; `a` when `b` is 0 (SMT-LIB).
#[inline]
pub fn urem(_w: u32, a: u64, b: u64) -> u64 {
    a.checked_rem(b).unwrap_or(a)
}

/// Is the pattern `a` negative as a signed number, and its magnitude (as
/// SMT-LIB's `bvsdiv` and `bvsrem` take it: `MIN` is its own).
fn sign_magnitude(w: u32, a: u64) -> (bool, u64) {
    let negative = is_negative(w, a);
    (negative, if negative { neg(w, a) } else { a })
}

/// Signed division truncating toward zero (C's `/`), defined through
/// [`udiv`] on magnitudes as SMT-LIB defines `bvsdiv`; `MIN / -1` wraps to
/// `MIN`.
pub fn sdiv(w: u32, a: u64, b: u64) -> u64 {
    let (na, ma) = sign_magnitude(w, a);
    let (nb, mb) = sign_magnitude(w, b);
    let q = udiv(w, ma, mb);
    if na != nb {
        neg(w, q)
    } else {
        q
    }
}

/// Signed remainder with the sign of the dividend (C's `%`), as SMT-LIB's
/// `bvsrem`: `a` when `b` is 0.
pub fn srem(w: u32, a: u64, b: u64) -> u64 {
    let (na, ma) = sign_magnitude(w, a);
    let (_, mb) = sign_magnitude(w, b);
    let r = urem(w, ma, mb);
    if na {
        neg(w, r)
    } else {
        r
    }
}

/// Bitwise and.
#[inline]
pub fn and(a: u64, b: u64) -> u64 {
    a & b
}

/// Bitwise or.
#[inline]
pub fn or(a: u64, b: u64) -> u64 {
    a | b
}

/// Bitwise exclusive or.
#[inline]
pub fn xor(a: u64, b: u64) -> u64 {
    a ^ b
}

/// Shift left; 0 when `b >= w`.
#[inline]
pub fn shl(w: u32, a: u64, b: u64) -> u64 {
    if b >= u64::from(w) {
        0
    } else {
        (a << b) & mask(w)
    }
}

/// Logical shift right; 0 when `b >= w`.
#[inline]
pub fn lshr(w: u32, a: u64, b: u64) -> u64 {
    if b >= u64::from(w) {
        0
    } else {
        a >> b
    }
}

/// Arithmetic shift right; all sign bits when `b >= w`.
#[inline]
pub fn ashr(w: u32, a: u64, b: u64) -> u64 {
    let s = to_signed(w, a);
    let b = b.min(u64::from(w) - 1).min(63) as u32;
    from_signed(w, s >> b)
}

/// Unsigned `a < b`.
#[inline]
pub fn ult(a: u64, b: u64) -> bool {
    a < b
}

/// Unsigned `a <= b`.
#[inline]
pub fn ule(a: u64, b: u64) -> bool {
    a <= b
}

/// Signed `a < b`.
#[inline]
pub fn slt(w: u32, a: u64, b: u64) -> bool {
    to_signed(w, a) < to_signed(w, b)
}

/// Signed `a <= b`.
#[inline]
pub fn sle(w: u32, a: u64, b: u64) -> bool {
    to_signed(w, a) <= to_signed(w, b)
}

/// Zero extension (or truncation) of a pattern of width `from` to `to`.
#[inline]
pub fn zext(_from: u32, to: u32, a: u64) -> u64 {
    a & mask(to)
}

/// Sign extension (or truncation) of a pattern of width `from` to `to`.
#[inline]
pub fn sext(from: u32, to: u32, a: u64) -> u64 {
    from_signed(to, to_signed(from, a))
}

/// Does the signed sum `a + b` leave the range of width `w`?
pub fn sadd_overflows(w: u32, a: u64, b: u64) -> bool {
    let s = i128::from(to_signed(w, a)) + i128::from(to_signed(w, b));
    !fits_signed(w, s)
}

/// Does the signed difference `a - b` leave the range of width `w`?
pub fn ssub_overflows(w: u32, a: u64, b: u64) -> bool {
    let s = i128::from(to_signed(w, a)) - i128::from(to_signed(w, b));
    !fits_signed(w, s)
}

/// Does the signed product `a * b` leave the range of width `w`?
pub fn smul_overflows(w: u32, a: u64, b: u64) -> bool {
    let s = i128::from(to_signed(w, a)) * i128::from(to_signed(w, b));
    !fits_signed(w, s)
}

/// Does the signed negation `-a` leave the range of width `w` (`a` is MIN)?
pub fn sneg_overflows(w: u32, a: u64) -> bool {
    a == sign_bit(w)
}

/// Does `a / b` (or `a % b`) overflow: `a` is MIN and `b` is -1?
pub fn sdiv_overflows(w: u32, a: u64, b: u64) -> bool {
    a == sign_bit(w) && b == mask(w)
}

/// Does the signed left shift `a << b` (with `0 <= b < w`) fail to be
/// C's `a * 2^b`: `a` is negative, or the product leaves the range?
pub fn sshl_overflows(w: u32, a: u64, b: u64) -> bool {
    let s = to_signed(w, a);
    if s < 0 {
        return true;
    }
    if b >= u64::from(w) {
        return s != 0;
    }
    let p = i128::from(s) << b;
    !fits_signed(w, p)
}

fn fits_signed(w: u32, v: i128) -> bool {
    let half = 1i128 << (w - 1);
    -half <= v && v < half
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every 8-bit operation against Rust's own 8-bit arithmetic.
    #[test]
    fn eight_bit_exhaustive() {
        for a in 0..=255u64 {
            for b in 0..=255u64 {
                let (sa, sb) = (a as u8 as i8, b as u8 as i8);
                let (ua, ub) = (a as u8, b as u8);
                assert_eq!(add(8, a, b), u64::from(ua.wrapping_add(ub)));
                assert_eq!(sub(8, a, b), u64::from(ua.wrapping_sub(ub)));
                assert_eq!(mul(8, a, b), u64::from(ua.wrapping_mul(ub)));
                if b != 0 {
                    assert_eq!(udiv(8, a, b), u64::from(ua / ub));
                    assert_eq!(urem(8, a, b), u64::from(ua % ub));
                    assert_eq!(
                        sdiv(8, a, b),
                        u64::from(sa.wrapping_div(sb) as u8),
                        "{sa}/{sb}"
                    );
                    assert_eq!(
                        srem(8, a, b),
                        u64::from(sa.wrapping_rem(sb) as u8),
                        "{sa}%{sb}"
                    );
                }
                if b < 8 {
                    assert_eq!(shl(8, a, b), u64::from(ua << b));
                    assert_eq!(lshr(8, a, b), u64::from(ua >> b));
                    assert_eq!(ashr(8, a, b), u64::from((sa >> b) as u8));
                    let exact = i32::from(sa) << b;
                    assert_eq!(sshl_overflows(8, a, b), sa < 0 || exact > 127, "{sa}<<{b}");
                } else {
                    assert_eq!(shl(8, a, b), 0);
                    assert_eq!(lshr(8, a, b), 0);
                    assert_eq!(ashr(8, a, b), if sa < 0 { 255 } else { 0 });
                }
                assert_eq!(slt(8, a, b), sa < sb);
                assert_eq!(sle(8, a, b), sa <= sb);
                assert_eq!(sadd_overflows(8, a, b), sa.checked_add(sb).is_none());
                assert_eq!(ssub_overflows(8, a, b), sa.checked_sub(sb).is_none());
                assert_eq!(smul_overflows(8, a, b), sa.checked_mul(sb).is_none());
                assert_eq!(sdiv_overflows(8, a, b), sa == i8::MIN && sb == -1);
            }
            assert_eq!(neg(8, a), u64::from((a as u8).wrapping_neg()));
            assert_eq!(not(8, a), u64::from(!(a as u8)));
            assert_eq!(sneg_overflows(8, a), a as u8 as i8 == i8::MIN);
            assert_eq!(sext(8, 16, a), u64::from(a as u8 as i8 as i16 as u16));
            assert_eq!(zext(8, 16, a), a);
            assert_eq!(sext(8, 4, a), a & 15);
        }
    }

    #[test]
    fn smt_lib_division_by_zero() {
        assert_eq!(udiv(8, 7, 0), 255);
        assert_eq!(urem(8, 7, 0), 7);
        // bvsdiv: a >= 0 gives all ones (-1), a < 0 gives 1.
        assert_eq!(sdiv(8, 7, 0), 255);
        assert_eq!(sdiv(8, from_signed(8, -7), 0), 1);
        assert_eq!(srem(8, from_signed(8, -7), 0), from_signed(8, -7));
    }

    #[test]
    fn sixty_four_bits() {
        let min = 1u64 << 63;
        assert_eq!(sdiv(64, min, u64::MAX), min);
        assert_eq!(srem(64, min, u64::MAX), 0);
        assert!(sdiv_overflows(64, min, u64::MAX));
        assert!(sadd_overflows(64, i64::MAX as u64, 1));
        assert!(!sadd_overflows(64, u64::MAX, 1));
        assert_eq!(to_signed(64, u64::MAX), -1);
        assert_eq!(ashr(64, min, 70), u64::MAX);
    }
}
