//! Printing terms for people, in IMP-like syntax: `i + 1 <= n` rather than
//! `(<= (+ i 1 (* -1 n)) 0)`. Bit-vector terms print in a C-like infix
//! syntax with C's precedences: `x + 1`, `(a & b) == 0`, `a >>s 3` (the
//! `s` marks the signed operators: `/s %s >>s <s <=s`), with constants
//! shown as signed numbers under signed operators and unsigned otherwise.
//! Terms deeper than a limit are elided so that printing never recurses
//! without bound.

use crate::term::{BvOp, BvPred, Kind, OvfOp, Term};
use std::fmt::{self, Write};
use wiser_num::{bv, Int};

const MAX_PRINT_DEPTH: u32 = 200;

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_term(&mut s, self, 0, false, 0)?;
        f.write_str(&s)
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

// Precedences, C's order: 1 or, 2 and, 3 not, 4 |, 5 ^, 6 &,
// 7 comparison, 8 shifts, 9 + -, 10 * / %, 11 unary, 12 atom.
const CMP: u8 = 7;
const UNARY: u8 = 11;

/// Writes `t` where the context binds with precedence `parent`; `signed`
/// says whether a bit-vector constant there reads as a signed number.
fn write_term(out: &mut String, t: &Term, parent: u8, signed: bool, depth: u32) -> fmt::Result {
    if depth > MAX_PRINT_DEPTH {
        out.push('…');
        return Ok(());
    }
    let d = depth + 1;
    let prec = precedence(t, signed);
    let paren = prec < parent;
    if paren {
        out.push('(');
    }
    match t.kind() {
        Kind::Int(n) => write!(out, "{n}")?,
        Kind::Bool(b) => write!(out, "{b}")?,
        Kind::Var(name, _) => out.push_str(name),
        Kind::Linear(ms, c) => write_sum(out, ms, c, d)?,
        Kind::Mul(a, b) => binary(out, a, " * ", b, 10, false, d)?,
        Kind::Div(a, b) => binary(out, a, " / ", b, 10, false, d)?,
        Kind::Rem(a, b) => binary(out, a, " % ", b, 10, false, d)?,
        // IMP's `if` read as an expression, in parentheses of its own.
        Kind::Ite(c, a, b) => {
            out.push_str("(if ");
            write_term(out, c, 0, false, d)?;
            out.push_str(" then ");
            write_term(out, a, 0, signed, d)?;
            out.push_str(" else ");
            write_term(out, b, 0, signed, d)?;
            out.push(')');
        }
        Kind::Select(a, i) => {
            write_term(out, a, 12, false, d)?;
            out.push('[');
            write_term(out, i, 0, false, d)?;
            out.push(']');
        }
        Kind::ConstArray(_, v) => {
            out.push_str("const(");
            write_term(out, v, 0, false, d)?;
            out.push(')');
        }
        Kind::Store(a, i, v) => {
            write_term(out, a, 12, false, d)?;
            out.push('{');
            write_term(out, i, 0, false, d)?;
            out.push_str(" := ");
            write_term(out, v, 0, false, d)?;
            out.push('}');
        }
        Kind::Le(lin) => write_comparison(out, lin, "<=", d)?,
        Kind::Eq(lin) => write_comparison(out, lin, "==", d)?,
        Kind::Not(x) => match x.kind() {
            Kind::Eq(lin) => write_comparison(out, lin, "!=", d)?,
            Kind::BvEq(a, b) => binary(out, a, " != ", b, CMP, false, d)?,
            _ => {
                out.push_str("not ");
                write_term(out, x, 4, false, d)?;
            }
        },
        Kind::And(xs) | Kind::Or(xs) => {
            let sep = if matches!(t.kind(), Kind::And(_)) {
                " and "
            } else {
                " or "
            };
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(sep);
                }
                write_term(out, x, prec + 1, false, d)?;
            }
        }
        Kind::Bv { width, bits } => {
            let w = u32::from(*width);
            if signed {
                write!(out, "{}", bv::to_signed(w, *bits))?
            } else {
                write!(out, "{bits}")?
            }
        }
        Kind::BvBin(BvOp::Add, a, b) if b.as_bv().is_some_and(|(w, c)| negative(w, c)) => {
            // x + 255 on 8 bits is x - 1.
            let (w, c) = b.as_bv().expect("a constant");
            write_term(out, a, 9, false, d)?;
            write!(out, " - {}", bv::neg(u32::from(w), c))?;
        }
        Kind::BvBin(op, a, b) => {
            let (sym, p, signed) = bv_op(*op);
            // C's precedences of `& | ^ << >>` surprise (`a + b & c` is
            // `(a + b) & c`): their operands are parenthesised unless they
            // are atoms or the same operator.
            let bracket = |x: &Term, at: u8| match x.kind() {
                Kind::BvBin(inner, ..) if p < 9 && inner != op => 12,
                _ => at,
            };
            write_term(out, a, bracket(a, p), signed, d)?;
            out.push_str(sym);
            // The shift amount reads as unsigned even in `>>s`.
            let signed = signed && *op != BvOp::Ashr;
            write_term(out, b, bracket(b, p + 1), signed, d)?;
        }
        Kind::BvNeg(a) => {
            out.push('-');
            write_term(out, a, UNARY, false, d)?;
        }
        Kind::BvNot(a) => {
            out.push('~');
            write_term(out, a, UNARY, false, d)?;
        }
        Kind::BvCmp(p, a, b) => {
            let sym = match p {
                BvPred::Ult => " < ",
                BvPred::Ule => " <= ",
                BvPred::Slt => " <s ",
                BvPred::Sle => " <=s ",
            };
            binary(out, a, sym, b, CMP, p.is_signed(), d)?
        }
        Kind::BvEq(a, b) => binary(out, a, " == ", b, CMP, false, d)?,
        Kind::Extend {
            signed: s,
            width,
            t: a,
        } => {
            write!(out, "{}{width}(", if *s { "sext" } else { "zext" })?;
            write_term(out, a, 0, *s, d)?;
            out.push(')');
        }
        Kind::Extract { width, t: a } => {
            write!(out, "trunc{width}(")?;
            write_term(out, a, 0, false, d)?;
            out.push(')');
        }
        Kind::BvToInt { signed: s, t: a } => {
            out.push_str(if *s { "sint(" } else { "uint(" });
            write_term(out, a, 0, *s, d)?;
            out.push(')');
        }
        Kind::IntToBv { width, t: a } => {
            write!(out, "bv{width}(")?;
            write_term(out, a, 0, false, d)?;
            out.push(')');
        }
        Kind::SOvf(op, a, b) => {
            let sym = match op {
                OvfOp::Add => " + ",
                OvfOp::Sub => " - ",
                OvfOp::Mul => " * ",
            };
            out.push_str("ovf(");
            binary(
                out,
                a,
                sym,
                b,
                if *op == OvfOp::Mul { 10 } else { 9 },
                true,
                d,
            )?;
            out.push(')');
        }
    }
    if paren {
        out.push(')');
    }
    Ok(())
}

/// Is the pattern negative read as signed?
fn negative(w: u8, bits: u64) -> bool {
    bv::is_negative(u32::from(w), bits)
}

/// A bit-vector operator's symbol, precedence, and whether it is signed.
fn bv_op(op: BvOp) -> (&'static str, u8, bool) {
    match op {
        BvOp::Add => (" + ", 9, false),
        BvOp::Sub => (" - ", 9, false),
        BvOp::Mul => (" * ", 10, false),
        BvOp::Udiv => (" / ", 10, false),
        BvOp::Sdiv => (" /s ", 10, true),
        BvOp::Urem => (" % ", 10, false),
        BvOp::Srem => (" %s ", 10, true),
        BvOp::And => (" & ", 6, false),
        BvOp::Or => (" | ", 4, false),
        BvOp::Xor => (" ^ ", 5, false),
        BvOp::Shl => (" << ", 8, false),
        BvOp::Lshr => (" >> ", 8, false),
        BvOp::Ashr => (" >>s ", 8, true),
    }
}

fn precedence(t: &Term, signed: bool) -> u8 {
    match t.kind() {
        Kind::Or(_) => 1,
        Kind::And(_) => 2,
        Kind::Not(x) if !matches!(x.kind(), Kind::Eq(_) | Kind::BvEq(..)) => 3,
        Kind::Not(_) | Kind::Le(_) | Kind::Eq(_) | Kind::BvCmp(..) | Kind::BvEq(..) => CMP,
        Kind::Linear(..) => 9,
        Kind::Mul(..) | Kind::Div(..) | Kind::Rem(..) => 10,
        Kind::BvBin(op, ..) => bv_op(*op).1,
        Kind::BvNeg(_) | Kind::BvNot(_) => UNARY,
        Kind::Int(n) if n.is_negative() => UNARY,
        Kind::Bv { width, bits } if signed && negative(*width, *bits) => UNARY,
        _ => 12,
    }
}

fn binary(
    out: &mut String,
    a: &Term,
    op: &str,
    b: &Term,
    prec: u8,
    signed: bool,
    d: u32,
) -> fmt::Result {
    write_term(out, a, prec, signed, d)?;
    out.push_str(op);
    write_term(out, b, prec + 1, signed, d)
}

/// Writes `c + Σ kᵢ·tᵢ` as `k1*t1 + t2 - t3 - 4`.
fn write_sum(out: &mut String, ms: &[(Term, Int)], c: &Int, d: u32) -> fmt::Result {
    let mut first = true;
    for (t, k) in ms {
        let neg = k.is_negative();
        let abs = k.abs();
        if first {
            if neg {
                out.push('-');
            }
        } else {
            out.push_str(if neg { " - " } else { " + " });
        }
        if abs != Int::ONE {
            write!(out, "{abs}*")?;
            write_term(out, t, UNARY, false, d)?;
        } else {
            write_term(out, t, 10, false, d)?;
        }
        first = false;
    }
    if !c.is_zero() || first {
        if first {
            write!(out, "{c}")?;
        } else if c.is_negative() {
            write!(out, " - {}", c.abs())?;
        } else {
            write!(out, " + {c}")?;
        }
    }
    Ok(())
}

/// Writes `lin op 0` with positive monomials on the left and negative ones
/// moved to the right: `x - n + 1 <= 0` prints as `x + 1 <= n`, then as
/// `x < n`.
fn write_comparison(out: &mut String, lin: &Term, op: &str, d: u32) -> fmt::Result {
    let (ms, c) = crate::build::linear(lin);
    let (pos, neg): (Vec<_>, Vec<_>) = ms.into_iter().partition(|(_, k)| !k.is_negative());
    let neg: Vec<_> = neg.into_iter().map(|(t, k)| (t, k.neg())).collect();
    // With monomials on one side only, the constant goes to the other:
    // `x - 5 <= 0` prints as `x <= 5`, `-x - 2 <= 0` as `x >= -2`.
    if pos.is_empty() {
        let flipped = if op == "<=" { ">=" } else { op };
        write_sum(out, &neg, &Int::ZERO, d)?;
        return write!(out, " {flipped} {c}");
    }
    if neg.is_empty() {
        write_sum(out, &pos, &Int::ZERO, d)?;
        return write!(out, " {op} {}", c.neg());
    }
    let (mut lc, mut rc) = (Int::ZERO, Int::ZERO);
    if c.is_negative() {
        rc = c.neg();
    } else {
        lc = c;
    }
    let mut op = op;
    // a + 1 <= b  reads better as  a < b.
    if op == "<=" && lc == Int::ONE {
        lc = Int::ZERO;
        op = "<";
    }
    write_sum(out, &pos, &lc, d)?;
    write!(out, " {op} ")?;
    write_sum(out, &neg, &rc, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_imp() {
        let (x, n) = (Term::int_var("x"), Term::int_var("n"));
        assert_eq!(Term::lt(&x, &n).to_string(), "x < n");
        assert_eq!(Term::le(&x, &Term::int(5)).to_string(), "x <= 5");
        assert_eq!(Term::ge(&x, &Term::int(-2)).to_string(), "x >= -2");
        assert_eq!(Term::ne(&x, &Term::int(2121)).to_string(), "x != 2121");
        let s = Term::sub(&Term::mul(&Term::int(2), &x), &Term::int(3));
        assert_eq!(s.to_string(), "2*x - 3");
        let p = Term::mul(&Term::add(&x, &Term::int(1)), &n);
        assert!(p.to_string().contains("(x + 1)"), "{p}");
    }

    #[test]
    fn prints_bit_vectors_like_c() {
        use crate::term::{BvOp::*, BvPred::*, OvfOp, Sort};
        let (x, y) = (Term::var("x", Sort::Bv(8)), Term::var("y", Sort::Bv(8)));
        let c = |b: u64| Term::bv(8, b);
        let bin = |op, a: &Term, b: &Term| Term::bv_bin(op, a, b);
        assert_eq!(bin(Add, &x, &c(1)).to_string(), "x + 1");
        assert_eq!(bin(Sub, &x, &c(1)).to_string(), "x - 1");
        assert_eq!(bin(Shl, &x, &c(3)).to_string(), "x << 3");
        assert_eq!(bin(Ashr, &c(0xf0), &x).to_string(), "-16 >>s x");
        assert_eq!(bin(Lshr, &c(0xf0), &x).to_string(), "240 >> x");
        assert_eq!(bin(Sdiv, &x, &c(0xfe)).to_string(), "x /s -2");
        assert_eq!(bin(Udiv, &x, &c(0xfe)).to_string(), "x / 254");
        let r = bin(Srem, &x, &y).to_string();
        assert!(r == "x %s y" || r == "y %s x", "{r}");
        let and = bin(And, &x, &c(1));
        assert_eq!(Term::bv_eq(&and, &c(0)).to_string(), "(x & 1) == 0");
        assert_eq!(Term::ne(&and, &c(0)).to_string(), "(x & 1) != 0");
        let mixed = bin(And, &bin(Add, &x, &y), &bin(Shl, &x, &c(2)));
        assert!(mixed.to_string().contains("(x << 2)"), "{mixed}");
        assert!(mixed.to_string().contains("(x + y)") || mixed.to_string().contains("(y + x)"));
        assert_eq!(
            bin(Shl, &x, &bin(Add, &y, &c(1))).to_string(),
            "x << (y + 1)"
        );
        let m = bin(Mul, &bin(Add, &x, &c(1)), &c(3));
        assert_eq!(m.to_string(), "(x + 1) * 3");
        assert_eq!(Term::bv_cmp(Ult, &x, &y).to_string(), "x < y");
        assert_eq!(Term::bv_cmp(Sle, &x, &c(0xfb)).to_string(), "x <=s -5");
        assert_eq!(Term::bv_cmp(Ule, &c(9), &x).to_string(), "9 <= x");
        assert_eq!(
            Term::bv_neg(&bin(Or, &x, &y)).to_string().len(),
            "-(x | y)".len()
        );
        let w = Term::bv_resize(&x, 32, false);
        assert_eq!(w.to_string(), "zext32(x)");
        assert_eq!(Term::bv_resize(&x, 16, true).to_string(), "sext16(x)");
        assert_eq!(Term::bv_resize(&w, 4, false).to_string(), "trunc4(x)");
        assert_eq!(Term::bv_to_int(&x, false).to_string(), "uint(x)");
        let s = Term::bv_to_int(&x, true);
        assert_eq!(Term::le(&s, &Term::int(3)).to_string(), "sint(x) <= 3");
        assert_eq!(
            Term::int_to_bv(&Term::int_var("n"), 8).to_string(),
            "bv8(n)"
        );
        let o = Term::signed_overflow(OvfOp::Add, &x, &c(0xff));
        assert_eq!(o.to_string(), "ovf(x + -1)");
        let p = Term::and(&Term::bv_cmp(Ult, &x, &y), &Term::bool_var("p"));
        assert!(p.to_string().contains("x < y") && p.to_string().contains(" and "));
    }
}
