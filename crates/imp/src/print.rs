//! Printing syntax trees as IMP source.
//!
//! The output parses back to the same tree (up to spans, and except that
//! `-` applied to a literal `5` prints as `-5`, which parses as the literal
//! `-5`). Parentheses appear only where precedence requires them; with the
//! alternate flag (`{:#}`) every compound subexpression and subcondition is
//! parenthesised, which shows exactly how a program was parsed.

use crate::ast::{ArithOp, CmpOp, Cond, Expr, Ident, Program, Stmt};
use std::fmt::{self, Display, Formatter, Write};

impl ArithOp {
    /// The operator as written in source.
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Rem => "%",
        }
    }

    /// Binding strength: 1 for `+ -`, 2 for `* / %`.
    fn precedence(self) -> u8 {
        match self {
            ArithOp::Add | ArithOp::Sub => 1,
            ArithOp::Mul | ArithOp::Div | ArithOp::Rem => 2,
        }
    }
}

impl CmpOp {
    /// The operator as written in source.
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
}

impl Display for ArithOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

impl Display for CmpOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

impl Display for Ident {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// How tightly an expression binds: 1 sum, 2 product, 3 unary minus
/// (including a negative literal), 4 atom.
fn expr_precedence(e: &Expr) -> u8 {
    match e {
        Expr::Binary { op, .. } => op.precedence(),
        Expr::Neg { .. } => 3,
        Expr::Num { value, .. } if value.is_negative() => 3,
        Expr::Num { .. } | Expr::Var(_) | Expr::Index { .. } => 4,
    }
}

/// Writes `e` so that it parses back in a context that binds at least
/// `min` tightly, parenthesising if needed (or, when `full`, whenever it
/// is compound and not at the top).
fn write_expr(f: &mut Formatter<'_>, e: &Expr, min: u8, full: bool) -> fmt::Result {
    let prec = expr_precedence(e);
    let parens = prec < min || (full && min > 0 && prec < 4);
    if parens {
        f.write_char('(')?;
    }
    match e {
        Expr::Num { value, .. } => write!(f, "{value}")?,
        Expr::Var(id) => f.write_str(&id.name)?,
        Expr::Index { array, index, .. } => {
            write!(f, "{}[", array.name)?;
            write_expr(f, index, 0, full)?;
            f.write_char(']')?;
        }
        Expr::Neg { operand, .. } => {
            f.write_char('-')?;
            match &**operand {
                // `-5` reads back as the literal -5 (and `-0` as 0), so
                // the negation of a non-negative literal (from `-(5)` or
                // `- - 0`) keeps its parentheses.
                Expr::Num { value, .. } if !value.is_negative() => write!(f, "({value})")?,
                _ => {
                    // `- -x`, not `--x`: clearer, and safe should `--`
                    // ever become a comment.
                    if expr_precedence(operand) == 3 && !full {
                        f.write_char(' ')?;
                    }
                    write_expr(f, operand, 3, full)?;
                }
            }
        }
        Expr::Binary { op, lhs, rhs, .. } => {
            let p = op.precedence();
            write_expr(f, lhs, p, full)?;
            write!(f, " {} ", op.symbol())?;
            // Left-associative: a right operand at the same level needs
            // parentheses.
            write_expr(f, rhs, p + 1, full)?;
        }
    }
    if parens {
        f.write_char(')')?;
    }
    Ok(())
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let full = f.alternate();
        write_expr(f, self, 0, full)
    }
}

/// How tightly a condition binds: 1 `or`, 2 `and`, 3 `not`, 4 atom
/// (comparison or constant).
fn cond_precedence(c: &Cond) -> u8 {
    match c {
        Cond::Or { .. } => 1,
        Cond::And { .. } => 2,
        Cond::Not { .. } => 3,
        Cond::Cmp { .. } | Cond::Bool { .. } => 4,
    }
}

fn write_cond(f: &mut Formatter<'_>, c: &Cond, min: u8, full: bool) -> fmt::Result {
    let prec = cond_precedence(c);
    let compound = !matches!(c, Cond::Bool { .. });
    let parens = prec < min || (full && min > 0 && compound);
    if parens {
        f.write_char('(')?;
    }
    match c {
        Cond::Bool { value, .. } => f.write_str(if *value { "true" } else { "false" })?,
        Cond::Not { operand, .. } => {
            f.write_str("not ")?;
            write_cond(f, operand, 3, full)?;
        }
        Cond::And { lhs, rhs, .. } => {
            write_cond(f, lhs, 2, full)?;
            f.write_str(" and ")?;
            write_cond(f, rhs, 3, full)?;
        }
        Cond::Or { lhs, rhs, .. } => {
            write_cond(f, lhs, 1, full)?;
            f.write_str(" or ")?;
            write_cond(f, rhs, 2, full)?;
        }
        Cond::Cmp { op, lhs, rhs, .. } => {
            // Inside a comparison any arithmetic binds tighter; with
            // `full`, compound operands still get parentheses.
            let min = if full { 1 } else { 0 };
            write_expr(f, lhs, min, full)?;
            write!(f, " {} ", op.symbol())?;
            write_expr(f, rhs, min, full)?;
        }
    }
    if parens {
        f.write_char(')')?;
    }
    Ok(())
}

impl Display for Cond {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let full = f.alternate();
        write_cond(f, self, 0, full)
    }
}

fn newline(f: &mut Formatter<'_>, indent: usize) -> fmt::Result {
    f.write_char('\n')?;
    for _ in 0..indent {
        f.write_str("  ")?;
    }
    Ok(())
}

fn write_args(f: &mut Formatter<'_>, args: &[Expr], full: bool) -> fmt::Result {
    f.write_char('(')?;
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_expr(f, a, 0, full)?;
    }
    f.write_char(')')
}

/// Writes `s` starting at the current position; continuation lines are
/// indented `indent` levels.
fn write_stmt(f: &mut Formatter<'_>, s: &Stmt, indent: usize, full: bool) -> fmt::Result {
    match s {
        Stmt::Skip(_) => f.write_str("skip"),
        Stmt::Fail(_) => f.write_str("fail"),
        Stmt::Assign { target, value, .. } => {
            write!(f, "{} = ", target.name)?;
            write_expr(f, value, 0, full)
        }
        Stmt::Havoc { target, .. } => write!(f, "{} = *", target.name),
        Stmt::ArrayAssign {
            array,
            index,
            value,
            ..
        } => {
            write!(f, "{}[", array.name)?;
            write_expr(f, index, 0, full)?;
            f.write_str("] = ")?;
            write_expr(f, value, 0, full)
        }
        Stmt::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_char(';')?;
                    newline(f, indent)?;
                }
                write_stmt(f, item, indent, full)?;
            }
            Ok(())
        }
        Stmt::If {
            cond,
            then_branch,
            else_branch,
            ..
        } => {
            f.write_str("if ")?;
            write_cond(f, cond, 0, full)?;
            f.write_str(" then")?;
            newline(f, indent + 1)?;
            write_stmt(f, then_branch, indent + 1, full)?;
            newline(f, indent)?;
            f.write_str("else")?;
            newline(f, indent + 1)?;
            write_stmt(f, else_branch, indent + 1, full)?;
            newline(f, indent)?;
            f.write_str("fi")
        }
        Stmt::While { cond, body, .. } => {
            f.write_str("while ")?;
            write_cond(f, cond, 0, full)?;
            f.write_str(" do")?;
            newline(f, indent + 1)?;
            write_stmt(f, body, indent + 1, full)?;
            newline(f, indent)?;
            f.write_str("od")
        }
        Stmt::Assert { cond, .. } => {
            f.write_str("assert ")?;
            write_cond(f, cond, 0, full)
        }
        Stmt::Assume { cond, .. } => {
            f.write_str("assume ")?;
            write_cond(f, cond, 0, full)
        }
        Stmt::Call {
            target,
            callee,
            args,
            ..
        } => {
            if let Some(t) = target {
                write!(f, "{} = ", t.name)?;
            }
            f.write_str(&callee.name)?;
            write_args(f, args, full)
        }
        Stmt::Return { value, .. } => {
            f.write_str("return ")?;
            write_expr(f, value, 0, full)
        }
    }
}

impl Display for Stmt {
    /// Multi-line, indented by two spaces per level.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let full = f.alternate();
        write_stmt(f, self, 0, full)
    }
}

fn write_def(
    f: &mut Formatter<'_>,
    keyword: &str,
    name: &Ident,
    params: &[Ident],
    body: &Stmt,
    full: bool,
) -> fmt::Result {
    write!(f, "{keyword} {}(", name.name)?;
    for (i, p) in params.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(&p.name)?;
    }
    f.write_str(") begin")?;
    newline(f, 1)?;
    write_stmt(f, body, 1, full)?;
    f.write_str("\nend\n")
}

impl Display for Program {
    /// Macros, then procedures, then the main statement, ending with a
    /// line break.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let full = f.alternate();
        for m in &self.macros {
            write_def(f, "macro", &m.name, &m.params, &m.body, full)?;
        }
        for p in &self.procs {
            write_def(f, "proc", &p.name, &p.params, &p.body, full)?;
        }
        write_stmt(f, &self.main, 0, full)?;
        f.write_char('\n')
    }
}
