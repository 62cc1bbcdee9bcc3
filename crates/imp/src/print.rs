//! Printing syntax trees as IMP source.
//!
//! The output parses back to the same tree (up to spans, and except that
//! `-` applied to a literal `5` prints as `-5`, which parses as the literal
//! `-5`). Parentheses appear only where precedence requires them; with the
//! alternate flag (`{:#}`) every compound subexpression and subcondition is
//! parenthesised, which shows exactly how a program was parsed.
//!
//! Declarations always print in their long form (`var x: u8 = 1`), and
//! omitted types (`int`) stay omitted in signatures.

use crate::ast::{precedence, Cond, Expr, Ident, Init, Program, Stmt, Ty, UnOp};
use crate::ast::{CallParts, Param, ProcDef, UNARY_PRECEDENCE};
use std::fmt::{self, Display, Formatter, Write};
use std::sync::Arc;

/// The precedence of atoms: names, literals, subscripts, casts.
const ATOM: u8 = UNARY_PRECEDENCE + 1;

/// How to print.
struct Style<'a> {
    /// Parenthesise every compound subexpression.
    full: bool,
    /// The procedures and macros of the program being printed: a cast to
    /// a type of the same name must not print as `x = T(e)`, which would
    /// parse back as a call.
    defined: &'a [Arc<str>],
}

const PLAIN: Style<'static> = Style {
    full: false,
    defined: &[],
};
const FULL: Style<'static> = Style {
    full: true,
    defined: &[],
};

fn style(f: &Formatter<'_>) -> &'static Style<'static> {
    if f.alternate() {
        &FULL
    } else {
        &PLAIN
    }
}

impl Display for Ident {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// How tightly an expression binds: a binary operator's [`precedence`],
/// [`UNARY_PRECEDENCE`] for unary operators and negative literals, or
/// [`ATOM`].
fn expr_precedence(e: &Expr) -> u8 {
    match e {
        Expr::Binary { op, .. } => precedence(*op),
        Expr::Unary { .. } => UNARY_PRECEDENCE,
        Expr::Num { value, .. } if value.is_negative() => UNARY_PRECEDENCE,
        Expr::Float { text, .. } if text.starts_with('-') => UNARY_PRECEDENCE,
        Expr::Num { .. }
        | Expr::Float { .. }
        | Expr::Var(_)
        | Expr::Index { .. }
        | Expr::Cast { .. }
        | Expr::Null(_)
        | Expr::Field { .. } => ATOM,
    }
}

/// Writes `e` so that it parses back in a context that binds at least
/// `min` tightly, parenthesising if needed (or, when `full`, whenever it
/// is compound and not at the top).
fn write_expr(f: &mut Formatter<'_>, e: &Expr, min: u8, st: &Style) -> fmt::Result {
    let prec = expr_precedence(e);
    let parens = prec < min || (st.full && min > 0 && prec < ATOM);
    in_parens(f, parens, |f| {
        match e {
            Expr::Num { value, .. } => write!(f, "{value}")?,
            Expr::Float { text, .. } => f.write_str(text)?,
            Expr::Var(id) => f.write_str(&id.name)?,
            Expr::Null(_) => f.write_str("null")?,
            Expr::Field { obj, field, .. } => {
                write_expr(f, obj, ATOM, st)?;
                write!(f, ".{}", field.name)?;
            }
            Expr::Index { array, index, .. } => {
                write!(f, "{}[", array.name)?;
                write_expr(f, index, 0, st)?;
                f.write_char(']')?;
            }
            Expr::Unary { op, operand, .. } => {
                f.write_str(op.symbol())?;
                match &**operand {
                    // `-5` reads back as the literal -5 (and `-0` as 0), so
                    // the negation of a non-negative literal (from `-(5)` or
                    // `- - 0`) keeps its parentheses.
                    Expr::Num { value, .. } if *op == UnOp::Neg && !value.is_negative() => {
                        write!(f, "({value})")?
                    }
                    Expr::Float { text, .. } if *op == UnOp::Neg && !text.starts_with('-') => {
                        write!(f, "({text})")?
                    }
                    _ => {
                        // `- -x`, not `--x`: clearer, and safe should `--`
                        // ever become a comment.
                        if expr_precedence(operand) == UNARY_PRECEDENCE && !st.full {
                            f.write_char(' ')?;
                        }
                        write_expr(f, operand, UNARY_PRECEDENCE, st)?;
                    }
                }
            }
            Expr::Binary { op, lhs, rhs, .. } => {
                let p = precedence(*op);
                write_expr(f, lhs, p, st)?;
                write!(f, " {} ", op.symbol())?;
                // Left-associative: a right operand at the same level needs
                // parentheses.
                write_expr(f, rhs, p + 1, st)?;
            }
            Expr::Cast { ty, operand, .. } => {
                write!(f, "{ty}(")?;
                write_expr(f, operand, 0, st)?;
                f.write_char(')')?;
            }
        }
        Ok(())
    })
}

/// Writes what `write` writes, in parentheses if `parens`.
fn in_parens(
    f: &mut Formatter<'_>,
    parens: bool,
    write: impl FnOnce(&mut Formatter<'_>) -> fmt::Result,
) -> fmt::Result {
    if parens {
        f.write_char('(')?;
    }
    write(f)?;
    if parens {
        f.write_char(')')?;
    }
    Ok(())
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_expr(f, self, 0, style(f))
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

fn write_cond(f: &mut Formatter<'_>, c: &Cond, min: u8, st: &Style) -> fmt::Result {
    let prec = cond_precedence(c);
    let compound = !matches!(c, Cond::Bool { .. });
    let parens = prec < min || (st.full && min > 0 && compound);
    in_parens(f, parens, |f| {
        match c {
            Cond::Bool { value, .. } => f.write_str(if *value { "true" } else { "false" })?,
            Cond::Not { operand, .. } => {
                f.write_str("not ")?;
                write_cond(f, operand, 3, st)?;
            }
            Cond::And { lhs, rhs, .. } => {
                write_cond(f, lhs, 2, st)?;
                f.write_str(" and ")?;
                write_cond(f, rhs, 3, st)?;
            }
            Cond::Or { lhs, rhs, .. } => {
                write_cond(f, lhs, 1, st)?;
                f.write_str(" or ")?;
                write_cond(f, rhs, 2, st)?;
            }
            Cond::Cmp { op, lhs, rhs, .. } => {
                // Inside a comparison any arithmetic binds tighter; with
                // `full`, compound operands still get parentheses.
                let min = if st.full { 1 } else { 0 };
                write_expr(f, lhs, min, st)?;
                write!(f, " {} ", op.symbol())?;
                write_expr(f, rhs, min, st)?;
            }
        }
        Ok(())
    })
}

impl Display for Cond {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_cond(f, self, 0, style(f))
    }
}

fn newline(f: &mut Formatter<'_>, indent: usize) -> fmt::Result {
    f.write_char('\n')?;
    for _ in 0..indent {
        f.write_str("  ")?;
    }
    Ok(())
}

fn write_args(f: &mut Formatter<'_>, args: &[Expr], st: &Style) -> fmt::Result {
    f.write_char('(')?;
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_expr(f, a, 0, st)?;
    }
    f.write_char(')')
}

/// Writes the value of `x = value` (or of a declaration): a cast to a type
/// that names a procedure of the program is parenthesised, since
/// `x = T(e)` would call it.
fn write_value(f: &mut Formatter<'_>, value: &Expr, st: &Style) -> fmt::Result {
    match value {
        Expr::Cast { ty, .. } if st.defined.iter().any(|d| **d == *ty.to_string()) => {
            f.write_char('(')?;
            write_expr(f, value, 0, st)?;
            f.write_char(')')
        }
        _ => write_expr(f, value, 0, st),
    }
}

/// Writes `word`, then `body` on the next lines, one level deeper than
/// `indent`, and goes to a new line at `indent`.
fn write_nested(
    f: &mut Formatter<'_>,
    word: &str,
    body: &Stmt,
    indent: usize,
    st: &Style,
) -> fmt::Result {
    f.write_str(word)?;
    newline(f, indent + 1)?;
    write_stmt(f, body, indent + 1, st)?;
    newline(f, indent)
}

/// Writes a call, a method call or a spawn.
fn write_call(f: &mut Formatter<'_>, call: CallParts<'_>, st: &Style) -> fmt::Result {
    if let Some(t) = call.target {
        write!(f, "{} = ", t.name)?;
    }
    if call.spawn {
        f.write_str("spawn ")?;
    }
    if let Some(r) = call.receiver {
        write_expr(f, r, ATOM, st)?;
        f.write_char('.')?;
    }
    f.write_str(&call.callee.name)?;
    write_args(f, call.args, st)
}

/// Writes `s` starting at the current position; continuation lines are
/// indented `indent` levels.
fn write_stmt(f: &mut Formatter<'_>, s: &Stmt, indent: usize, st: &Style) -> fmt::Result {
    if let Some(call) = s.as_call() {
        return write_call(f, call, st);
    }
    match s {
        Stmt::Skip(_) => f.write_str("skip"),
        Stmt::Fail(_) => f.write_str("fail"),
        Stmt::Assign { target, value, .. } => {
            write!(f, "{} = ", target.name)?;
            write_value(f, value, st)
        }
        Stmt::Havoc { target, .. } => write!(f, "{} = *", target.name),
        Stmt::ArrayAssign {
            array,
            index,
            value,
            ..
        } => {
            write!(f, "{}[", array.name)?;
            write_expr(f, index, 0, st)?;
            f.write_str("] = ")?;
            write_expr(f, value, 0, st)
        }
        Stmt::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_char(';')?;
                    newline(f, indent)?;
                }
                write_stmt(f, item, indent, st)?;
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
            write_cond(f, cond, 0, st)?;
            write_nested(f, " then", then_branch, indent, st)?;
            write_nested(f, "else", else_branch, indent, st)?;
            f.write_str("fi")
        }
        Stmt::While { cond, body, .. } => {
            f.write_str("while ")?;
            write_cond(f, cond, 0, st)?;
            write_nested(f, " do", body, indent, st)?;
            f.write_str("od")
        }
        Stmt::Assert { cond, .. } => {
            f.write_str("assert ")?;
            write_cond(f, cond, 0, st)
        }
        Stmt::Assume { cond, .. } => {
            f.write_str("assume ")?;
            write_cond(f, cond, 0, st)
        }
        Stmt::Return { value, .. } => {
            f.write_str("return ")?;
            write_expr(f, value, 0, st)
        }
        Stmt::Decl {
            target, ty, init, ..
        } => {
            write!(f, "var {}: {ty}", target.name)?;
            match init {
                None => Ok(()),
                Some(Init::Havoc) => f.write_str(" = *"),
                Some(Init::Value(value)) => {
                    f.write_str(" = ")?;
                    write_value(f, value, st)
                }
            }
        }
        Stmt::ArrayDecl { array, elem, .. } => write!(f, "var {}: {elem}[]", array.name),
        Stmt::RefDecl {
            target,
            class,
            init,
            ..
        } => {
            write!(f, "var {}: {}", target.name, class.name)?;
            match init {
                None => Ok(()),
                Some(value) => {
                    f.write_str(" = ")?;
                    write_expr(f, value, 0, st)
                }
            }
        }
        Stmt::New { target, class, .. } => write!(f, "{} = new {}", target.name, class.name),
        Stmt::FieldAssign {
            obj, field, value, ..
        } => {
            write_expr(f, obj, ATOM, st)?;
            write!(f, ".{} = ", field.name)?;
            write_expr(f, value, 0, st)
        }
        // Written above.
        Stmt::Call { .. } | Stmt::MethodCall { .. } | Stmt::Spawn { .. } => Ok(()),
        Stmt::Join { thread, .. } => {
            f.write_str("join ")?;
            write_expr(f, thread, 0, st)
        }
        Stmt::Lock { obj, acquire, .. } => {
            f.write_str(if *acquire { "lock " } else { "unlock " })?;
            write_expr(f, obj, 0, st)
        }
        Stmt::Atomic { body, .. } => {
            write_nested(f, "atomic begin", body, indent, st)?;
            f.write_str("end")
        }
    }
}

impl Display for Stmt {
    /// Multi-line, indented by two spaces per level.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_stmt(f, self, 0, style(f))
    }
}

/// `name: T` or `name: C`, or `name` alone for `int`.
fn write_typed(f: &mut Formatter<'_>, name: &str, ty: Ty, class: Option<&Ident>) -> fmt::Result {
    f.write_str(name)?;
    match class {
        Some(c) => write!(f, ": {}", c.name)?,
        None if ty != Ty::INT => write!(f, ": {ty}")?,
        None => {}
    }
    Ok(())
}

/// A definition: `keyword name(params) [: T] begin body end`, its
/// continuation lines indented `indent` levels.
struct Def<'a> {
    keyword: &'a str,
    name: &'a Ident,
    params: &'a [Param],
    ret: Ty,
    ret_class: Option<&'a Ident>,
    body: &'a Stmt,
    indent: usize,
}

fn write_def(f: &mut Formatter<'_>, d: Def<'_>, st: &Style) -> fmt::Result {
    write!(f, "{} {}(", d.keyword, d.name.name)?;
    for (i, p) in d.params.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_typed(f, &p.name.name, p.ty, p.class.as_ref())?;
    }
    f.write_char(')')?;
    match d.ret_class {
        Some(c) => write!(f, " : {}", c.name)?,
        None if d.ret != Ty::INT => write!(f, " : {}", d.ret)?,
        None => {}
    }
    f.write_str(" begin")?;
    newline(f, d.indent + 1)?;
    write_stmt(f, d.body, d.indent + 1, st)?;
    newline(f, d.indent)?;
    f.write_str("end")
}

fn proc_def<'a>(keyword: &'a str, p: &'a ProcDef, indent: usize) -> Def<'a> {
    Def {
        keyword,
        name: &p.name,
        params: &p.params,
        ret: p.ret,
        ret_class: p.ret_class.as_ref(),
        body: &p.body,
        indent,
    }
}

impl Display for Program {
    /// Macros, then procedures, then the main statement, ending with a
    /// line break.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let defined: Vec<Arc<str>> = self
            .macros
            .iter()
            .map(|m| m.name.name.clone())
            .chain(self.procs.iter().map(|p| p.name.name.clone()))
            .filter(|name| Ty::from_name(name).is_some())
            .collect();
        let st = Style {
            full: f.alternate(),
            defined: &defined,
        };
        for m in &self.macros {
            let params: Vec<Param> = m
                .params
                .iter()
                .map(|name| Param {
                    name: name.clone(),
                    ty: Ty::INT,
                    class: None,
                })
                .collect();
            let def = Def {
                keyword: "macro",
                name: &m.name,
                params: &params,
                ret: Ty::INT,
                ret_class: None,
                body: &m.body,
                indent: 0,
            };
            write_def(f, def, &st)?;
            f.write_char('\n')?;
        }
        for p in &self.procs {
            write_def(f, proc_def("proc", p, 0), &st)?;
            f.write_char('\n')?;
        }
        for c in &self.classes {
            write!(f, "class {} begin", c.name.name)?;
            for field in &c.fields {
                newline(f, 1)?;
                // A field's type is never omitted.
                match &field.class {
                    Some(c) => write!(f, "{}: {};", field.name.name, c.name)?,
                    None => write!(f, "{}: {};", field.name.name, field.ty)?,
                }
            }
            for m in &c.methods {
                newline(f, 1)?;
                write_def(f, proc_def("method", m, 1), &st)?;
            }
            f.write_str("\nend\n")?;
        }
        for g in &self.globals {
            write!(f, "global {}: ", g.name.name)?;
            match &g.class {
                Some(c) => f.write_str(&c.name)?,
                None => write!(f, "{}", g.ty)?,
            }
            if let Some(v) = &g.init {
                f.write_str(" = ")?;
                write_expr(f, v, 0, &st)?;
            }
            f.write_char('\n')?;
        }
        write_stmt(f, &self.main, 0, &st)?;
        f.write_char('\n')
    }
}
