//! Types, arithmetic expressions and conditions.
//!
//! Arithmetic is parsed by precedence climbing over the levels of
//! [`precedence`]: the right operand of an operator is parsed at the next
//! level up, so the recursion is bounded by the number of levels, not by
//! the length of a chain.

use super::{call_in_expression, Mixed, PResult, Parser, EXPR_TOO_DEEP};
use crate::ast::{precedence, BinOp, CmpOp, Cond, Expr, Ty, UnOp};
use crate::lexer::Tok;
use crate::{Diagnostic, Span};

/// The help of errors about type names: every type a program can name.
pub(crate) fn types_help() -> String {
    let names: Vec<String> = Ty::named().map(|t| format!("`{t}`")).collect();
    let (last, rest) = names
        .split_last()
        .map_or(("", &[][..]), |(l, r)| (l.as_str(), r));
    format!(
        "the types are {} and {last}; `int` is unbounded, `f32` and `f64` are IEEE floats",
        rest.join(", ")
    )
}

/// The binary operator a token stands for, if any.
fn bin_op(tok: &Tok) -> Option<BinOp> {
    Some(match tok {
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::Percent => BinOp::Rem,
        Tok::Amp => BinOp::BitAnd,
        Tok::Pipe => BinOp::BitOr,
        Tok::Caret => BinOp::BitXor,
        Tok::Shl => BinOp::Shl,
        Tok::Shr => BinOp::Shr,
        _ => return None,
    })
}

/// Does the token continue an arithmetic expression as a binary operator?
pub(super) fn is_bin_op(tok: &Tok) -> bool {
    bin_op(tok).is_some()
}

pub(super) fn cmp_op(tok: &Tok) -> Option<CmpOp> {
    Some(match tok {
        Tok::EqEq => CmpOp::Eq,
        Tok::Ne => CmpOp::Ne,
        Tok::Lt => CmpOp::Lt,
        Tok::Le => CmpOp::Le,
        Tok::Gt => CmpOp::Gt,
        Tok::Ge => CmpOp::Ge,
        _ => return None,
    })
}

impl Parser<'_> {
    // ----- types -----------------------------------------------------------

    /// A type name: `int`, `i8` ... `u64`, `f32`, `f64`.
    pub(super) fn type_name(&mut self) -> PResult<(Ty, Span)> {
        match self.peek() {
            Tok::Ident(name) => match Ty::from_name(name) {
                Some(ty) => Ok((ty, self.bump())),
                None => Err(
                    Diagnostic::new(self.span(), format!("unknown type `{name}`"))
                        .with_help(types_help()),
                ),
            },
            _ => Err(self.expected("a type").with_help(types_help())),
        }
    }

    /// Is the current token a type name followed by `(`, that is, a cast?
    fn at_cast(&self) -> bool {
        matches!(self.peek(), Tok::Ident(name) if Ty::from_name(name).is_some())
            && *self.peek_at(1) == Tok::LParen
    }

    /// Is the current token a call `f(`? A type name followed by `(` is a
    /// cast unless the program defines a procedure or macro of that name
    /// (type names are not reserved, and programs written before they
    /// existed may call such a procedure as `x = int(y)`).
    pub(super) fn at_call(&self) -> bool {
        match self.peek() {
            Tok::Ident(name) => {
                *self.peek_at(1) == Tok::LParen
                    && (Ty::from_name(name).is_none() || self.defined.contains(name))
            }
            _ => false,
        }
    }

    // ----- arithmetic ------------------------------------------------------

    pub(super) fn expr(&mut self) -> PResult<(Expr, usize)> {
        self.arith(0)
    }

    /// An arithmetic expression whose binary operators all bind at least
    /// as tightly as `min_prec` (see [`precedence`]).
    fn arith(&mut self, min_prec: u8) -> PResult<(Expr, usize)> {
        let lhs = self.unary()?;
        self.arith_rest(lhs, min_prec)
    }

    /// Continues an arithmetic expression whose leftmost operand is `lhs`.
    fn arith_rest(&mut self, mut lhs: (Expr, usize), min_prec: u8) -> PResult<(Expr, usize)> {
        while let Some(op) = bin_op(self.peek()) {
            let prec = precedence(op);
            if prec < min_prec {
                break;
            }
            let op_span = self.bump();
            // `prec + 1`: operators are left-associative.
            let (rhs, rh) = self.arith(prec + 1)?;
            let h = self.expr_height(lhs.1.max(rh), op_span)?;
            let span = lhs.0.span().to(rhs.span());
            lhs = (
                Expr::Binary {
                    op,
                    lhs: Box::new(lhs.0),
                    rhs: Box::new(rhs),
                    span,
                    op_span,
                },
                h,
            );
        }
        Ok(lhs)
    }

    /// Unary `-` and `~` bind tighter than any binary operator. A minus
    /// directly before a literal makes a negative literal, as in WiSE
    /// (whose lexer reads `-12` as one number), so constants stay
    /// constants.
    fn unary(&mut self) -> PResult<(Expr, usize)> {
        let op = match self.peek() {
            Tok::Minus => UnOp::Neg,
            Tok::Tilde => UnOp::BitNot,
            _ => return self.atom(),
        };
        let at = self.bump();
        if op == UnOp::Neg {
            if let Tok::Num(value) = self.peek() {
                let value = value.neg();
                let span = at.to(self.bump());
                return Ok((Expr::Num { value, span }, 1));
            }
            if let Tok::Float(text) = self.peek() {
                let text = format!("-{text}").into();
                let span = at.to(self.bump());
                return Ok((Expr::Float { text, span }, 1));
            }
        }
        self.enter(EXPR_TOO_DEEP)?;
        let r = self.unary();
        self.leave();
        let (operand, oh) = r?;
        let h = self.expr_height(oh, at)?;
        let span = at.to(operand.span());
        Ok((
            Expr::Unary {
                op,
                operand: Box::new(operand),
                span,
            },
            h,
        ))
    }

    fn atom(&mut self) -> PResult<(Expr, usize)> {
        if self.at_cast() {
            return self.cast();
        }
        match self.peek() {
            Tok::Num(value) => {
                let value = value.clone();
                let span = self.bump();
                Ok((Expr::Num { value, span }, 1))
            }
            Tok::Float(text) => {
                let text = text.clone();
                let span = self.bump();
                Ok((Expr::Float { text, span }, 1))
            }
            Tok::Null => Ok((Expr::Null(self.bump()), 1)),
            Tok::This => self.field_expr(),
            Tok::Ident(_) if *self.peek_at(1) == Tok::Dot => self.field_expr(),
            Tok::Ident(_) => {
                let name = self.ident("a name")?;
                match self.peek() {
                    Tok::LBracket => {
                        let ((index, ih), open, close) =
                            self.bracketed(Tok::RBracket, "[", Self::expr)?;
                        let h = self.expr_height(ih, open)?;
                        let span = name.span.to(close);
                        Ok((
                            Expr::Index {
                                array: name,
                                index: Box::new(index),
                                span,
                            },
                            h,
                        ))
                    }
                    Tok::LParen => Err(call_in_expression(name.span)),
                    _ => Ok((Expr::Var(name), 1)),
                }
            }
            Tok::LParen => Ok(self.bracketed(Tok::RParen, "(", Self::expr)?.0),
            Tok::True | Tok::False => Err(self
                .expected("an arithmetic expression")
                .with_help("variables hold integers; use `1` and `0` for truth values")),
            _ => Err(self.expected("an expression")),
        }
    }

    /// What `inner` reads between brackets, one level deeper, at the
    /// opening bracket (written `opener`; `close` closes it); with the
    /// spans of the two brackets.
    fn bracketed<T>(
        &mut self,
        close: Tok,
        opener: &str,
        inner: impl FnOnce(&mut Self) -> PResult<T>,
    ) -> PResult<(T, Span, Span)> {
        let open = self.bump();
        self.enter(EXPR_TOO_DEEP)?;
        let inside = inner(self)?;
        self.leave();
        let end = self.expect_close(close, opener, open)?;
        Ok((inside, open, end))
    }

    /// `T(e)`, at a type name followed by `(`.
    fn cast(&mut self) -> PResult<(Expr, usize)> {
        let (ty, at) = self.type_name()?;
        let ((operand, oh), _, close) = self.bracketed(Tok::RParen, "(", Self::expr)?;
        let h = self.expr_height(oh, at)?;
        Ok((
            Expr::Cast {
                ty,
                operand: Box::new(operand),
                span: at.to(close),
            },
            h,
        ))
    }

    // ----- conditions ------------------------------------------------------

    pub(super) fn cond(&mut self) -> PResult<(Cond, usize)> {
        let m = self.mixed(0)?;
        self.require_cond(m)
    }

    fn require_cond(&self, m: Mixed) -> PResult<(Cond, usize)> {
        match m {
            Mixed::Cond(c, h) => Ok((c, h)),
            Mixed::Expr(..) => {
                let d = self.expected("a comparison operator (==, !=, <, <=, >, >=)");
                Err(if *self.peek() == Tok::Assign {
                    d.with_help("comparison is written `==`")
                } else {
                    d.with_help("a condition compares two values, e.g. `x != 0`")
                })
            }
        }
    }

    /// A condition (or, inside parentheses, possibly an arithmetic
    /// expression) whose `and`/`or` bind at least as tightly as `min_prec`
    /// (1: `or`, 2: `and`).
    fn mixed(&mut self, min_prec: u8) -> PResult<Mixed> {
        let mut lhs = self.mixed_prefix()?;
        loop {
            let (is_and, prec) = match self.peek() {
                Tok::And => (true, 2),
                Tok::Or => (false, 1),
                _ => break,
            };
            if prec < min_prec {
                break;
            }
            let (l, lh) = self.require_cond(lhs)?;
            let op_span = self.bump();
            let rhs = self.mixed(prec + 1)?;
            let (r, rh) = self.require_cond(rhs)?;
            let h = self.expr_height(lh.max(rh), op_span)?;
            let span = l.span().to(r.span());
            let (lhs_box, rhs_box) = (Box::new(l), Box::new(r));
            let c = if is_and {
                Cond::And {
                    lhs: lhs_box,
                    rhs: rhs_box,
                    span,
                }
            } else {
                Cond::Or {
                    lhs: lhs_box,
                    rhs: rhs_box,
                    span,
                }
            };
            lhs = Mixed::Cond(c, h);
        }
        Ok(lhs)
    }

    /// `not c`, `true`, `false`, `( ... )` or `e1 op e2`; a parenthesised
    /// arithmetic expression, or an expression not followed by a
    /// comparison, comes back as [`Mixed::Expr`].
    fn mixed_prefix(&mut self) -> PResult<Mixed> {
        match self.peek() {
            Tok::Not => {
                let not = self.bump();
                self.enter(EXPR_TOO_DEEP)?;
                let r = self.mixed_prefix();
                self.leave();
                let (operand, oh) = self.require_cond(r?)?;
                let h = self.expr_height(oh, not)?;
                let span = not.to(operand.span());
                Ok(Mixed::Cond(
                    Cond::Not {
                        operand: Box::new(operand),
                        span,
                    },
                    h,
                ))
            }
            Tok::True | Tok::False => {
                let value = *self.peek() == Tok::True;
                let span = self.bump();
                Ok(Mixed::Cond(Cond::Bool { value, span }, 1))
            }
            Tok::LParen => {
                let (inner, _, _) = self.bracketed(Tok::RParen, "(", |p| p.mixed(0))?;
                match inner {
                    Mixed::Cond(c, h) => Ok(Mixed::Cond(c, h)),
                    // The parenthesised expression is an atom: it may be
                    // the left operand of any binary operator.
                    Mixed::Expr(e, h) => {
                        let e = self.arith_rest((e, h), 0)?;
                        self.comparison(e)
                    }
                }
            }
            Tok::Num(_)
            | Tok::Float(_)
            | Tok::Ident(_)
            | Tok::Minus
            | Tok::Tilde
            | Tok::Null
            | Tok::This => {
                let e = self.arith(0)?;
                self.comparison(e)
            }
            _ => Err(self.expected("a condition")),
        }
    }

    /// `lhs op rhs` if a comparison operator follows, else `lhs` itself.
    fn comparison(&mut self, (lhs, lh): (Expr, usize)) -> PResult<Mixed> {
        let Some(op) = cmp_op(self.peek()) else {
            return Ok(Mixed::Expr(lhs, lh));
        };
        let op_span = self.bump();
        let (rhs, rh) = self.expr()?;
        if cmp_op(self.peek()).is_some() {
            return Err(
                Diagnostic::new(self.span(), "comparison operators cannot be chained")
                    .with_help("write `a < b and b < c` instead of `a < b < c`"),
            );
        }
        let h = self.expr_height(lh.max(rh), op_span)?;
        let span = lhs.span().to(rhs.span());
        Ok(Mixed::Cond(Cond::Cmp { op, lhs, rhs, span }, h))
    }
}
