//! The typing rules of `docs/LANGUAGE.md`, over the generator's tree, so
//! that the generator can make only well-typed programs: which type each
//! expression has, whether a literal fits the type its context gives it,
//! and where a value may go without a cast.
//!
//! It mirrors `wiser_imp`'s typer: typing is bottom-up, and an expression
//! made only of literals is *open* (`None`) until its context closes it
//! at a type: the other operand's, the target's, or `int` when nothing
//! gives one (comparisons of two open sides, subscripts, shift amounts,
//! cast operands). A disagreement between the two is caught when a
//! generated program fails to compile, which the tests treat as a
//! generator bug.

use crate::domain::fits;
use crate::program::{Env, Ex, ARRAY_REACH};
use wiser_num::{BinOp, IntTy, UnOp};

/// The type of `e` in `env`: `Some` when typed, `None` when open; `Err`
/// says why it is ill-typed.
pub fn type_of(e: &Ex, env: &Env) -> Result<Option<IntTy>, String> {
    Ok(match e {
        Ex::Num(_) => None,
        Ex::Var(v) => Some(env.var(v)),
        Ex::Elem(a, i) => {
            index_type(i, env)?;
            Some(env.elem(a))
        }
        // `-(5)` is the literal -5.
        Ex::Un(UnOp::Neg, a) if matches!(**a, Ex::Num(_)) => None,
        Ex::Un(op, a) => {
            let t = type_of(a, env)?;
            if *op == UnOp::BitNot && t.is_some_and(|t| t.is_unbounded()) {
                return Err("`~` on an `int`".into());
            }
            t
        }
        Ex::Cast(ty, a) => {
            if type_of(a, env)?.is_none() {
                close(a, IntTy::INT)?;
            }
            Some(*ty)
        }
        Ex::Bin(op @ (BinOp::Shl | BinOp::Shr), a, b) => {
            if type_of(b, env)?.is_none() {
                close(b, IntTy::INT)?;
            }
            let t = type_of(a, env)?;
            if t.is_some_and(|t| t.is_unbounded()) {
                return Err(format!("`{}` on an `int`", op.symbol()));
            }
            t
        }
        Ex::Bin(op, a, b) => {
            let t = unify(type_of(a, env)?, a, type_of(b, env)?, b)?;
            if op.is_bitwise() && t.is_some_and(|t| t.is_unbounded()) {
                return Err(format!("`{}` on an `int`", op.symbol()));
            }
            t
        }
    })
}

/// The subscript `i` as rendered (see [`crate::render::index`]) is typed.
fn index_type(i: &Ex, env: &Env) -> Result<(), String> {
    let in_reach = |k: &i128| (-i128::from(ARRAY_REACH)..=i128::from(ARRAY_REACH)).contains(k);
    if let Ex::Num(k) = i {
        if in_reach(k) {
            return Ok(());
        }
    }
    // `i % 4`: the literal takes `i`'s type, and 4 fits every type.
    if type_of(i, env)?.is_none() {
        close(i, IntTy::INT)?;
    }
    Ok(())
}

/// The common type of two operands (of a binary operator or comparison),
/// `None` if both are open.
fn unify(ta: Option<IntTy>, a: &Ex, tb: Option<IntTy>, b: &Ex) -> Result<Option<IntTy>, String> {
    Ok(match (ta, tb) {
        (None, None) => None,
        (Some(t), None) => {
            close(b, t)?;
            Some(t)
        }
        (None, Some(t)) => {
            close(a, t)?;
            Some(t)
        }
        (Some(s), Some(t)) if s.is_lossless_to(t) => Some(t),
        (Some(s), Some(t)) if t.is_lossless_to(s) => Some(s),
        (Some(s), Some(t)) => return Err(format!("mismatched types `{s}` and `{t}`")),
    })
}

/// Closes the open expression `e` at `ty`: every literal must fit, and a
/// bitwise operator needs a fixed width. (Typed parts are left alone.)
pub fn close(e: &Ex, ty: IntTy) -> Result<(), String> {
    match e {
        Ex::Num(v) => check_fits(*v, ty),
        Ex::Un(UnOp::Neg, a) => match **a {
            Ex::Num(v) => check_fits(-v, ty),
            _ => close(a, ty),
        },
        Ex::Un(UnOp::BitNot, a) => {
            if ty.is_unbounded() {
                return Err("`~` on literals closed at `int`".into());
            }
            close(a, ty)
        }
        Ex::Bin(op, a, b) => {
            if op.is_bitwise() && ty.is_unbounded() {
                return Err(format!("`{}` on literals closed at `int`", op.symbol()));
            }
            close(a, ty)?;
            if matches!(op, BinOp::Shl | BinOp::Shr) {
                Ok(())
            } else {
                close(b, ty)
            }
        }
        Ex::Var(_) | Ex::Elem(..) | Ex::Cast(..) => Ok(()),
    }
}

fn check_fits(v: i128, ty: IntTy) -> Result<(), String> {
    if fits(v, ty) {
        Ok(())
    } else {
        Err(format!("`{v}` does not fit `{ty}`"))
    }
}

/// Can `e` go where a `to` is expected (assigned, passed, returned,
/// stored)?
pub fn accepts(e: &Ex, env: &Env, to: IntTy) -> bool {
    match type_of(e, env) {
        Ok(Some(t)) => t.is_lossless_to(to),
        Ok(None) => close(e, to).is_ok(),
        Err(_) => false,
    }
}

/// Is the comparison of `a` and `b` well-typed?
pub fn comparable(a: &Ex, b: &Ex, env: &Env) -> bool {
    let (Ok(ta), Ok(tb)) = (type_of(a, env), type_of(b, env)) else {
        return false;
    };
    match unify(ta, a, tb, b) {
        Ok(Some(_)) => true,
        Ok(None) => close(a, IntTy::INT).is_ok() && close(b, IntTy::INT).is_ok(),
        Err(_) => false,
    }
}

/// Does `e` contain a bitwise operator outside every typed subexpression,
/// so that closing it at `int` would fail? (The generator keeps open
/// expressions free of them.)
pub fn open_bitwise(e: &Ex, env: &Env) -> bool {
    matches!(type_of(e, env), Ok(None)) && close(e, IntTy::INT).is_err()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Name;

    fn v(n: &str) -> Box<Ex> {
        Box::new(Ex::Var(n.into()))
    }

    #[test]
    fn mirrors_the_rules() {
        let vars: Vec<(Name, IntTy)> = vec![("a".into(), IntTy::U8), ("b".into(), IntTy::I8)];
        let env = Env {
            vars: &vars,
            arrays: &[],
        };
        let add = |x, y| Ex::Bin(BinOp::Add, x, y);
        // u8 + int: the u8 converts.
        assert_eq!(type_of(&add(v("a"), v("c")), &env), Ok(Some(IntTy::INT)));
        // u8 + i8: rejected.
        assert!(type_of(&add(v("a"), v("b")), &env).is_err());
        // u8 + 300: the literal does not fit.
        assert!(type_of(&add(v("a"), Box::new(Ex::Num(300))), &env).is_err());
        // -(5) is a literal: it does not fit a u8.
        assert!(!accepts(
            &Ex::Un(UnOp::Neg, Box::new(Ex::Num(5))),
            &env,
            IntTy::U8
        ));
        // 1 << a: open, so it needs a context with a fixed width.
        let shl = Ex::Bin(BinOp::Shl, Box::new(Ex::Num(1)), v("a"));
        assert!(accepts(&shl, &env, IntTy::U32));
        assert!(!accepts(&shl, &env, IntTy::INT));
        assert!(open_bitwise(&shl, &env));
        assert!(IntTy::U8.is_lossless_to(IntTy::I16) && !IntTy::I8.is_lossless_to(IntTy::U16));
    }
}
