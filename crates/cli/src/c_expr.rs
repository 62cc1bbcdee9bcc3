//! Terms as C expressions over the program's variables: what an SV-COMP
//! correctness witness says an invariant is (`format: c_expression`), and
//! what any report may show C programmers.
//!
//! A term is over bit-vector patterns; C computes with typed values,
//! promotes small types to `int`, and leaves signed overflow and division
//! by zero undefined. The printer therefore keeps, for each bit-vector
//! subterm, which reading of its pattern (signed or unsigned) the text's
//! value is, and the C type of the text:
//!
//! * a comparison reads both operands the way the comparison does, with a
//!   cast only where an operand is read the other way (`(unsigned int)i < n`);
//! * `+ - * & | ^ ~` and shifts are computed in the unsigned type of the
//!   width (which wraps, as the pattern does, and never overflows), and a
//!   width below `int`'s is cut back to its type after the operation;
//! * a sign or zero extension is a conversion (`(long long)i`), since C's
//!   conversions of a value to a wider type keep it;
//! * integer (`Int`) arithmetic, exact in the term, is printed in `long
//!   long` only when a bound on its values shows it cannot overflow.
//!
//! What has no such C reading (a division by a variable, which C leaves
//! undefined at zero; arrays; floats; a variable whose C type is not the
//! term's) makes the whole term unprintable: the caller leaves it out.

use wiser_num::IntTy;
use wiser_smt::{BvOp, BvPred, Kind, Sort, Term};

/// The C type of a variable named in a term, if it has one the printer
/// can name (an integer type of 8, 16, 32 or 64 bits).
pub(crate) type VarTypes<'a> = dyn Fn(&str) -> Option<IntTy> + 'a;

/// `t` (a boolean term) as a C expression, or `None` when some part of
/// it has no faithful C reading (see the module documentation).
pub(crate) fn c_expression(t: &Term, vars: &VarTypes<'_>) -> Option<String> {
    if t.sort() != Sort::Bool {
        return None;
    }
    Printer { vars }.boolean(t).map(|e| e.text)
}

/// The C types the printer writes: after integer promotion, a value's
/// type is one of these four.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CTy {
    Int,
    UInt,
    LongLong,
    ULongLong,
}

/// C's precedence levels (higher binds tighter), as far as the printer
/// needs them.
const PRIMARY: u8 = 15;
const UNARY: u8 = 14;
const MUL: u8 = 13;
const ADD: u8 = 12;
const SHIFT: u8 = 11;
const REL: u8 = 10;
const EQ: u8 = 9;
const BITAND: u8 = 8;
const BITXOR: u8 = 7;
const BITOR: u8 = 6;
const AND: u8 = 5;
const OR: u8 = 4;
const COND: u8 = 3;

/// A printed subterm.
#[derive(Clone, Debug)]
struct Expr {
    text: String,
    /// The precedence of the text's outermost operator.
    prec: u8,
    /// For a bit-vector: its width, and whether the text's value is the
    /// pattern read as signed; for an `Int`: 0 and a bound on the
    /// magnitude of its values (in `bound`).
    width: u32,
    signed: bool,
    /// The C type of the text.
    cty: CTy,
    /// The pattern, when the subterm is a constant (printed again in the
    /// reading a context asks for, rather than cast).
    constant: Option<u64>,
    /// For an `Int`: every value of the text is below this in magnitude.
    bound: u128,
}

impl Expr {
    fn new(text: String, prec: u8, width: u32, signed: bool, cty: CTy) -> Expr {
        Expr {
            text,
            prec,
            width,
            signed,
            cty,
            constant: None,
            bound: 0,
        }
    }

    /// The text as an operand at precedence `prec`: parenthesised when
    /// its own operator binds less tightly.
    fn at(&self, prec: u8) -> String {
        if self.prec >= prec {
            self.text.clone()
        } else {
            format!("({})", self.text)
        }
    }
}

/// The C type of `width` bits with the given signedness, by name.
fn type_name(width: u32, signed: bool) -> Option<&'static str> {
    Some(match (width, signed) {
        (8, true) => "signed char",
        (8, false) => "unsigned char",
        (16, true) => "short",
        (16, false) => "unsigned short",
        (32, true) => "int",
        (32, false) => "unsigned int",
        (64, true) => "long long",
        (64, false) => "unsigned long long",
        _ => return None,
    })
}

/// `e` converted to the unsigned type of `width` bits.
fn unsigned_cast(e: &Expr, width: u32) -> Option<Expr> {
    let name = type_name(width, false)?;
    Some(Expr::new(
        format!("({name}){}", e.at(UNARY)),
        UNARY,
        width,
        false,
        promoted(width, false),
    ))
}

/// The type a value of `width` bits has after integer promotion.
fn promoted(width: u32, signed: bool) -> CTy {
    match (width, signed) {
        (64, true) => CTy::LongLong,
        (64, false) => CTy::ULongLong,
        (32, false) => CTy::UInt,
        _ => CTy::Int,
    }
}

/// A literal of `value` (already in the range of `width` bits read with
/// `signed`), typed as that width's promoted type.
fn literal(value: i128, width: u32, signed: bool) -> Expr {
    let text = match (width, signed) {
        (64, true) if value == i64::MIN as i128 => "(-9223372036854775807LL - 1)".to_string(),
        (64, true) => format!("{value}LL"),
        (64, false) => format!("{value}ULL"),
        (32, true) if value == i32::MIN as i128 => "(-2147483647 - 1)".to_string(),
        (32, false) => format!("{value}U"),
        _ => value.to_string(),
    };
    let prec = if value < 0 { UNARY } else { PRIMARY };
    Expr::new(text, prec, width, signed, promoted(width, signed))
}

/// The value of the `width`-bit pattern `bits` read with `signed`.
fn read(bits: u64, width: u32, signed: bool) -> i128 {
    if signed && width < 128 && bits >> (width - 1) & 1 == 1 {
        bits as i128 - (1i128 << width)
    } else {
        bits as i128
    }
}

/// Only sums and products whose values stay below this fit `long long`
/// with room to spare.
const LONG_LONG_SAFE: u128 = 1 << 62;

struct Printer<'a, 'b> {
    vars: &'a VarTypes<'b>,
}

impl Printer<'_, '_> {
    /// A boolean term.
    fn boolean(&self, t: &Term) -> Option<Expr> {
        let b = |text: String, prec: u8| Some(Expr::new(text, prec, 0, true, CTy::Int));
        match t.kind() {
            Kind::Bool(v) => b(if *v { "1" } else { "0" }.into(), PRIMARY),
            Kind::Not(x) => {
                if let Kind::Eq(lin) = x.kind() {
                    return self.linear_comparison(lin, "!=");
                }
                if let Kind::BvEq(l, r) = x.kind() {
                    return self.bv_equality(l, r, "!=");
                }
                let e = self.boolean(x)?;
                b(format!("!{}", e.at(UNARY)), UNARY)
            }
            Kind::And(xs) | Kind::Or(xs) => {
                let (sep, prec) = if matches!(t.kind(), Kind::And(_)) {
                    (" && ", AND)
                } else {
                    (" || ", OR)
                };
                // `&&` inside `||` (and the reverse) in parentheses, as
                // compilers advise.
                let parts = xs
                    .iter()
                    .map(|x| Some(self.boolean(x)?.at(AND + 1)))
                    .collect::<Option<Vec<_>>>()?;
                b(parts.join(sep), prec)
            }
            Kind::Le(lin) => self.linear_comparison(lin, "<="),
            Kind::Eq(lin) => self.linear_comparison(lin, "=="),
            Kind::BvEq(l, r) => self.bv_equality(l, r, "=="),
            Kind::BvCmp(p, l, r) => {
                let signed = p.is_signed();
                let (l, r) = (self.reading(l, signed)?, self.reading(r, signed)?);
                let op = match p {
                    BvPred::Ult | BvPred::Slt => "<",
                    BvPred::Ule | BvPred::Sle => "<=",
                };
                b(format!("{} {op} {}", l.at(REL + 1), r.at(REL + 1)), REL)
            }
            Kind::Ite(c, x, y) => {
                let (c, x, y) = (self.boolean(c)?, self.boolean(x)?, self.boolean(y)?);
                b(
                    format!("{} ? {} : {}", c.at(COND + 1), x.at(COND + 1), y.at(COND)),
                    COND,
                )
            }
            _ => None,
        }
    }

    /// `l == r` (or `!=`) on patterns: equal patterns are equal values
    /// when both are read the same way (the way a variable operand is).
    fn bv_equality(&self, l: &Term, r: &Term, op: &str) -> Option<Expr> {
        let first = self.bits(l)?;
        let signed = if first.constant.is_some() {
            self.bits(r)?.signed
        } else {
            first.signed
        };
        let (l, r) = (self.reading(l, signed)?, self.reading(r, signed)?);
        Some(Expr::new(
            format!("{} {op} {}", l.at(EQ + 1), r.at(EQ + 1)),
            EQ,
            0,
            true,
            CTy::Int,
        ))
    }

    /// A bit-vector subterm read as `signed` (or unsigned): a constant is
    /// printed again in that reading, anything else cast when read the
    /// other way.
    fn reading(&self, t: &Term, signed: bool) -> Option<Expr> {
        let e = self.bits(t)?;
        if let Some(bits) = e.constant {
            return Some(literal(read(bits, e.width, signed), e.width, signed));
        }
        if e.signed == signed {
            return Some(e);
        }
        let name = type_name(e.width, signed)?;
        Some(Expr::new(
            format!("({name}){}", e.at(UNARY)),
            UNARY,
            e.width,
            signed,
            promoted(e.width, signed),
        ))
    }

    /// A bit-vector subterm as an operand of arithmetic at its width: its
    /// text converted to the width's unsigned type (for 32 and 64 bits;
    /// below, C computes in `int` and the result is cut back).
    fn unsigned_operand(&self, t: &Term) -> Option<(Expr, u32)> {
        let e = self.reading(t, false)?;
        let w = e.width;
        if let (Some((_, bits)), 8 | 16) = (t.as_bv(), w) {
            return Some((literal(i128::from(bits), 32, false), w));
        }
        let target = match w {
            32 => CTy::UInt,
            64 => CTy::ULongLong,
            // Small widths: operands in `unsigned int`, so that a product
            // cannot overflow `int`.
            _ => CTy::UInt,
        };
        if e.cty == target {
            return Some((e, w));
        }
        let name = if target == CTy::UInt {
            "unsigned int"
        } else {
            "unsigned long long"
        };
        Some((
            Expr::new(format!("({name}){}", e.at(UNARY)), UNARY, w, false, target),
            w,
        ))
    }

    /// The result of an operation computed in an unsigned type: as it is
    /// at 32 and 64 bits, cut back to the width's type below.
    fn unsigned_result(text: String, prec: u8, width: u32) -> Option<Expr> {
        match width {
            32 => Some(Expr::new(text, prec, 32, false, CTy::UInt)),
            64 => Some(Expr::new(text, prec, 64, false, CTy::ULongLong)),
            8 | 16 => {
                let name = type_name(width, false)?;
                let inner = if prec >= PRIMARY {
                    text
                } else {
                    format!("({text})")
                };
                Some(Expr::new(
                    format!("({name}){inner}"),
                    UNARY,
                    width,
                    false,
                    CTy::Int,
                ))
            }
            _ => None,
        }
    }

    /// A bit-vector term.
    fn bits(&self, t: &Term) -> Option<Expr> {
        let Sort::Bv(w) = t.sort() else {
            return None;
        };
        let w = u32::from(w);
        type_name(w, false)?;
        match t.kind() {
            Kind::Bv { bits, .. } => {
                let mut e = literal(i128::from(*bits), w, false);
                e.constant = Some(*bits);
                Some(e)
            }
            Kind::Var(name, _) => {
                if !is_identifier(name) {
                    return None;
                }
                let ty = (self.vars)(name)?;
                if ty.width() != Some(w) {
                    return None;
                }
                let signed = ty.is_signed();
                Some(Expr::new(
                    name.to_string(),
                    PRIMARY,
                    w,
                    signed,
                    promoted(w, signed),
                ))
            }
            Kind::BvBin(op, l, r) => self.bv_binary(*op, l, r, w),
            Kind::BvNeg(x) => {
                let (x, _) = self.unsigned_operand(x)?;
                Self::unsigned_result(format!("-{}", x.at(UNARY)), UNARY, w)
            }
            Kind::BvNot(x) => {
                let (x, _) = self.unsigned_operand(x)?;
                Self::unsigned_result(format!("~{}", x.at(UNARY)), UNARY, w)
            }
            Kind::Extend { signed, t: x, .. } => {
                // The value of `x` read as the extension reads it is the
                // value of the wider pattern read the same way.
                let mut e = self.reading(x, *signed)?;
                e.width = w;
                e.constant = None;
                Some(e)
            }
            // Converting to the narrower unsigned type keeps the low
            // bits; an integer's conversion wraps it the same way.
            Kind::Extract { t: x, .. } => unsigned_cast(&self.bits(x)?, w),
            Kind::IntToBv { t: x, .. } => unsigned_cast(&self.integer(x)?, w),
            Kind::Ite(c, x, y) => {
                let c = self.boolean(c)?;
                let (x, _) = self.unsigned_operand(x)?;
                let (y, _) = self.unsigned_operand(y)?;
                Self::unsigned_result(
                    format!("{} ? {} : {}", c.at(COND + 1), x.at(COND + 1), y.at(COND)),
                    COND,
                    w,
                )
            }
            _ => None,
        }
    }

    /// A binary bit-vector operation at width `w`.
    fn bv_binary(&self, op: BvOp, l: &Term, r: &Term, w: u32) -> Option<Expr> {
        // `a + -b` (how terms write a difference) reads as `a - b`.
        if let (BvOp::Add, Kind::BvNeg(b)) = (op, r.kind()) {
            return self.bv_binary(BvOp::Sub, l, b, w);
        }
        let constant = r.as_bv().map(|(_, c)| c);
        // `a + c` with a negative `c` (a large pattern) reads as `a - |c|`.
        if let (BvOp::Add, Some(c)) = (op, constant) {
            if read(c, w, true) < 0 {
                let (a, _) = self.unsigned_operand(l)?;
                let minus = literal(-read(c, w, true), w, false);
                return Self::unsigned_result(
                    format!("{} - {}", a.at(ADD), minus.at(ADD + 1)),
                    ADD,
                    w,
                );
            }
        }
        match op {
            BvOp::Add | BvOp::Sub | BvOp::Mul | BvOp::And | BvOp::Or | BvOp::Xor => {
                let (sym, prec) = match op {
                    BvOp::Add => ("+", ADD),
                    BvOp::Sub => ("-", ADD),
                    BvOp::Mul => ("*", MUL),
                    BvOp::And => ("&", BITAND),
                    BvOp::Or => ("|", BITOR),
                    _ => ("^", BITXOR),
                };
                let (a, _) = self.unsigned_operand(l)?;
                let (b, _) = self.unsigned_operand(r)?;
                Self::unsigned_result(format!("{} {sym} {}", a.at(prec), b.at(prec + 1)), prec, w)
            }
            // Division and remainder by a constant other than 0 only: C
            // leaves division by zero undefined (the term gives it a value).
            BvOp::Udiv | BvOp::Urem if constant.is_some_and(|c| c != 0) => {
                let sym = if op == BvOp::Udiv { "/" } else { "%" };
                let (a, _) = self.unsigned_operand(l)?;
                let (b, _) = self.unsigned_operand(r)?;
                Self::unsigned_result(format!("{} {sym} {}", a.at(MUL), b.at(MUL + 1)), MUL, w)
            }
            // A positive divisor: no `MIN / -1` either. C's `/` truncates
            // toward zero and `%` takes the dividend's sign, as `bvsdiv`
            // and `bvsrem` do.
            BvOp::Sdiv | BvOp::Srem if constant.is_some_and(|c| c != 0 && read(c, w, true) > 0) => {
                let sym = if op == BvOp::Sdiv { "/" } else { "%" };
                let a = self.reading(l, true)?;
                let b = self.reading(r, true)?;
                let text = format!("{} {sym} {}", a.at(MUL), b.at(MUL + 1));
                match w {
                    32 | 64 => Some(Expr::new(text, MUL, w, true, promoted(w, true))),
                    _ => Some(Expr::new(
                        format!("({}){}", type_name(w, true)?, paren(&text)),
                        UNARY,
                        w,
                        true,
                        CTy::Int,
                    )),
                }
            }
            // Shifts by a constant below the width only (C leaves larger
            // shifts undefined).
            BvOp::Shl | BvOp::Lshr if constant.is_some_and(|c| c < u64::from(w)) => {
                let sym = if op == BvOp::Shl { "<<" } else { ">>" };
                let (a, _) = self.unsigned_operand(l)?;
                let c = constant.unwrap_or_default();
                Self::unsigned_result(format!("{} {sym} {c}", a.at(SHIFT)), SHIFT, w)
            }
            _ => None,
        }
    }

    /// An integer (`Int`) term: exact values, printed in `long long` when
    /// a bound shows they fit.
    fn integer(&self, t: &Term) -> Option<Expr> {
        let e = match t.kind() {
            Kind::Int(n) => {
                let v = i128::from(n.to_i64()?);
                let mut e = if i32::try_from(v).is_ok() {
                    literal(v, 32, true)
                } else {
                    literal(v, 64, true)
                };
                e.width = 0;
                e.bound = v.unsigned_abs() + 1;
                e
            }
            Kind::BvToInt { signed, t: x } => {
                let e = self.reading(x, *signed)?;
                let bound = 1u128 << e.width;
                let mut e = if e.cty == CTy::LongLong {
                    e
                } else if e.cty == CTy::ULongLong {
                    return None;
                } else {
                    Expr::new(
                        format!("(long long){}", e.at(UNARY)),
                        UNARY,
                        0,
                        true,
                        CTy::LongLong,
                    )
                };
                e.width = 0;
                e.bound = bound;
                e
            }
            Kind::Linear(ms, c) => {
                let c = i128::from(c.to_i64()?);
                let mut text = String::new();
                let mut bound = c.unsigned_abs() + 1;
                for (i, (atom, k)) in ms.iter().enumerate() {
                    let a = self.integer(atom)?;
                    let k = i128::from(k.to_i64()?);
                    bound = bound.checked_add(a.bound.checked_mul(k.unsigned_abs())?)?;
                    let term = if k.unsigned_abs() == 1 {
                        a.at(MUL)
                    } else {
                        format!("{} * {}", a.at(MUL), k.unsigned_abs())
                    };
                    match (i, k < 0) {
                        (0, false) => text.push_str(&term),
                        (0, true) => text.push_str(&format!("-{}", paren_unary(&term))),
                        (_, false) => text.push_str(&format!(" + {term}")),
                        (_, true) => text.push_str(&format!(" - {term}")),
                    }
                }
                if c > 0 {
                    text.push_str(&format!(" + {c}"));
                } else if c < 0 {
                    text.push_str(&format!(" - {}", c.unsigned_abs()));
                }
                let mut e = Expr::new(text, ADD, 0, true, CTy::LongLong);
                e.bound = bound;
                e
            }
            Kind::Mul(a, b) => {
                let (a, b) = (self.integer(a)?, self.integer(b)?);
                let mut e = Expr::new(
                    format!("{} * {}", a.at(MUL), b.at(MUL + 1)),
                    MUL,
                    0,
                    true,
                    CTy::LongLong,
                );
                e.bound = a.bound.checked_mul(b.bound)?;
                e
            }
            _ => return None,
        };
        (e.bound < LONG_LONG_SAFE).then_some(e)
    }

    /// `lin OP 0` for a linear `Int` term: the monomials with positive
    /// coefficients on the left, the others on the right (`2 * i == s`).
    fn linear_comparison(&self, lin: &Term, op: &str) -> Option<Expr> {
        let (ms, c): (Vec<(Term, i128)>, i128) = match lin.kind() {
            Kind::Linear(ms, c) => (
                ms.iter()
                    .map(|(t, k)| Some((t.clone(), i128::from(k.to_i64()?))))
                    .collect::<Option<_>>()?,
                i128::from(c.to_i64()?),
            ),
            _ => (vec![(lin.clone(), 1)], 0),
        };
        let side = |positive: bool, constant: i128| -> Option<(String, u128)> {
            let mut parts = Vec::new();
            let mut bound = constant.unsigned_abs() + 1;
            for (t, k) in ms.iter().filter(|(_, k)| (*k > 0) == positive) {
                let a = self.integer(t)?;
                let k = k.unsigned_abs();
                bound = bound.checked_add(a.bound.checked_mul(k)?)?;
                parts.push(if k == 1 {
                    a.at(ADD + 1)
                } else {
                    format!("{} * {k}", a.at(MUL))
                });
            }
            if constant != 0 || parts.is_empty() {
                parts.push(constant.to_string());
            }
            (bound < LONG_LONG_SAFE).then(|| (parts.join(" + "), bound))
        };
        // lin = pos - neg + c; `lin OP 0` is `pos OP neg - c`, the
        // constant on whichever side keeps it non-negative.
        let (left, right) = if c <= 0 {
            (side(true, 0)?, side(false, -c)?)
        } else {
            (side(true, c)?, side(false, 0)?)
        };
        Some(Expr::new(
            format!("{} {op} {}", left.0, right.0),
            if op == "<=" { REL } else { EQ },
            0,
            true,
            CTy::Int,
        ))
    }
}

/// Is `name` a C identifier (not a temporary of the front end, a
/// qualified `f::x` or a renamed `x'`)?
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn paren(text: &str) -> String {
    format!("({text})")
}

/// `term` after a unary minus: a product needs no parentheses, a sum
/// would not occur (monomials are atoms times coefficients).
fn paren_unary(term: &str) -> String {
    if term.contains(' ') {
        paren(term)
    } else {
        term.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_smt::Term;

    fn types(name: &str) -> Option<IntTy> {
        match name {
            "i" | "n" | "s" => Some(IntTy::I32),
            "u" | "u2" => Some(IntTy::U32),
            "c" => Some(IntTy::U8),
            _ => None,
        }
    }

    fn c(t: &Term) -> Option<String> {
        c_expression(t, &types)
    }

    fn var(name: &str, w: u8) -> Term {
        Term::var(name, Sort::Bv(w))
    }

    #[test]
    fn signed_comparisons_of_signed_variables_need_no_cast() {
        let t = Term::bv_cmp(BvPred::Sle, &var("i", 32), &var("n", 32));
        assert_eq!(c(&t).as_deref(), Some("i <= n"));
    }

    #[test]
    fn a_comparison_read_the_other_way_casts() {
        let t = Term::bv_cmp(BvPred::Ult, &var("i", 32), &var("u", 32));
        assert_eq!(c(&t).as_deref(), Some("(unsigned int)i < u"));
        let t = Term::bv_cmp(BvPred::Slt, &var("u", 32), &Term::bv(32, 5));
        // Strict comparisons with a constant are normalised to `<=`.
        assert_eq!(c(&t).as_deref(), Some("(int)u <= 4"));
    }

    #[test]
    fn constants_are_printed_in_the_reading_of_their_comparison() {
        let minus_one = Term::bv(32, u64::from(u32::MAX));
        let t = Term::bv_cmp(BvPred::Sle, &var("i", 32), &minus_one);
        assert_eq!(c(&t).as_deref(), Some("i <= -1"));
        let t = Term::bv_cmp(BvPred::Ult, &var("u", 32), &minus_one);
        // `u < UINT_MAX` is normalised to `u != UINT_MAX`.
        assert_eq!(c(&t).as_deref(), Some("u != 4294967295U"));
    }

    #[test]
    fn arithmetic_wraps_in_the_unsigned_type() {
        let sum = Term::bv_bin(BvOp::Add, &var("i", 32), &var("s", 32));
        let t = Term::bv_eq(&sum, &Term::bv(32, 7));
        assert_eq!(
            c(&t).as_deref(),
            Some("(unsigned int)i + (unsigned int)s == 7U")
        );
    }

    #[test]
    fn adding_a_negative_constant_subtracts() {
        let wide = Term::bv_resize(&var("n", 32), 64, true);
        let sum = Term::bv_bin(BvOp::Add, &wide, &Term::bv(64, (-5i64) as u64));
        let t = Term::bv_cmp(BvPred::Sle, &sum, &Term::bv(64, 0));
        assert_eq!(
            c(&t).as_deref(),
            Some("(long long)((unsigned long long)n - 5ULL) <= 0LL")
        );
    }

    #[test]
    fn small_widths_are_cut_back_after_arithmetic() {
        let sum = Term::bv_bin(BvOp::Add, &var("c", 8), &Term::bv(8, 1));
        let t = Term::bv_cmp(BvPred::Ule, &sum, &Term::bv(8, 200));
        assert_eq!(
            c(&t).as_deref(),
            Some("(unsigned char)((unsigned int)c + 1U) <= 200")
        );
    }

    #[test]
    fn extensions_are_conversions_and_sums_stay_in_range() {
        let wide = |n: &str| Term::bv_resize(&var(n, 32), 64, true);
        let twice = Term::bv_bin(BvOp::Mul, &wide("i"), &Term::bv(64, 2));
        let t = Term::bv_eq(&twice, &wide("s"));
        assert_eq!(
            c(&t).as_deref(),
            Some("(unsigned long long)i * 2ULL == (unsigned long long)s")
        );
    }

    #[test]
    fn connectives_are_cs_with_parentheses_where_they_mix() {
        let a = Term::bv_cmp(BvPred::Sle, &var("i", 32), &var("n", 32));
        let b = Term::bv_cmp(BvPred::Sle, &var("s", 32), &var("n", 32));
        let d = Term::bv_cmp(BvPred::Ule, &var("u", 32), &var("u2", 32));
        let t = Term::or(&Term::and(&a, &b), &Term::not(&d));
        assert_eq!(c(&t).as_deref(), Some("(i <= n && s <= n) || u2 < u"));
        let t = Term::not(&Term::ite(&a, &b, &d));
        assert_eq!(c(&t).as_deref(), Some("!(i <= n ? s <= n : u <= u2)"));
    }

    #[test]
    fn what_c_cannot_say_is_refused() {
        // A variable the program does not declare with that type.
        assert_eq!(
            c(&Term::bv_cmp(BvPred::Sle, &var("x", 32), &var("n", 32))),
            None
        );
        // Division by a variable (undefined in C at zero).
        let q = Term::bv_bin(BvOp::Udiv, &var("u", 32), &var("n", 32));
        assert_eq!(c(&Term::bv_eq(&q, &Term::bv(32, 1))), None);
        // A qualified name of another frame.
        assert_eq!(c(&Term::bv_eq(&var("f::i", 32), &Term::bv(32, 1))), None);
    }
}
