//! Printing terms for people, in IMP-like syntax: `i + 1 <= n` rather than
//! `(<= (+ i 1 (* -1 n)) 0)`. Terms deeper than a limit are elided so that
//! printing never recurses without bound.

use crate::term::{Kind, Term};
use std::fmt::{self, Write};
use wiser_num::Int;

const MAX_PRINT_DEPTH: u32 = 200;

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_term(&mut s, self, 0, 0)?;
        f.write_str(&s)
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

// Precedences: 1 or, 2 and, 3 not, 4 comparison, 5 + -, 6 * / %, 7 unary, 8 atom.
fn write_term(out: &mut String, t: &Term, parent: u8, depth: u32) -> fmt::Result {
    if depth > MAX_PRINT_DEPTH {
        out.push('…');
        return Ok(());
    }
    let d = depth + 1;
    let prec = precedence(t);
    let paren = prec < parent;
    if paren {
        out.push('(');
    }
    match t.kind() {
        Kind::Int(n) => write!(out, "{n}")?,
        Kind::Bool(b) => write!(out, "{b}")?,
        Kind::Var(name, _) => out.push_str(name),
        Kind::Linear(ms, c) => write_sum(out, ms, c, d)?,
        Kind::Mul(a, b) => binary(out, a, " * ", b, 6, d)?,
        Kind::Div(a, b) => binary(out, a, " / ", b, 6, d)?,
        Kind::Rem(a, b) => binary(out, a, " % ", b, 6, d)?,
        Kind::Ite(c, a, b) => {
            out.push_str("ite(");
            write_term(out, c, 0, d)?;
            out.push_str(", ");
            write_term(out, a, 0, d)?;
            out.push_str(", ");
            write_term(out, b, 0, d)?;
            out.push(')');
        }
        Kind::Select(a, i) => {
            write_term(out, a, 8, d)?;
            out.push('[');
            write_term(out, i, 0, d)?;
            out.push(']');
        }
        Kind::Store(a, i, v) => {
            write_term(out, a, 8, d)?;
            out.push('{');
            write_term(out, i, 0, d)?;
            out.push_str(" := ");
            write_term(out, v, 0, d)?;
            out.push('}');
        }
        Kind::Le(lin) => write_comparison(out, lin, "<=", d)?,
        Kind::Eq(lin) => write_comparison(out, lin, "==", d)?,
        Kind::Not(x) => match x.kind() {
            Kind::Eq(lin) => write_comparison(out, lin, "!=", d)?,
            _ => {
                out.push_str("not ");
                write_term(out, x, 4, d)?;
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
                write_term(out, x, prec + 1, d)?;
            }
        }
    }
    if paren {
        out.push(')');
    }
    Ok(())
}

fn precedence(t: &Term) -> u8 {
    match t.kind() {
        Kind::Or(_) => 1,
        Kind::And(_) => 2,
        Kind::Not(x) if !matches!(x.kind(), Kind::Eq(_)) => 3,
        Kind::Not(_) | Kind::Le(_) | Kind::Eq(_) => 4,
        Kind::Linear(..) => 5,
        Kind::Mul(..) | Kind::Div(..) | Kind::Rem(..) => 6,
        Kind::Int(n) if n.is_negative() => 7,
        _ => 8,
    }
}

fn binary(out: &mut String, a: &Term, op: &str, b: &Term, prec: u8, d: u32) -> fmt::Result {
    write_term(out, a, prec, d)?;
    out.push_str(op);
    write_term(out, b, prec + 1, d)
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
            write_term(out, t, 7, d)?;
        } else {
            write_term(out, t, 6, d)?;
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
}
