//! The float mode's programs ([`FloatProgram`]): inputs read in order,
//! then statements over `f32`/`f64`/`i32` expressions; built by
//! [`crate::float_gen`].
//!
//! A [`FloatProgram`] renders as IMP ([`FloatProgram::imp`], `None` when it
//! calls a `math.h` function IMP lacks) and as C ([`FloatProgram::c`])
//! with the same meaning: every operation has operands of one float type,
//! conversions are explicit, a literal is suffixed `f` where it is a
//! `float`, and no operation or cast has only literals for operands (IMP
//! types a literal-only expression as `f64` where C would type it
//! otherwise). Inputs are reads, so one list of values (a sample of
//! [`crate::compare_float::samples`]) is an input of both renderings.

use std::fmt::Write as _;
use wiser_num::FloatTy;

/// A value's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A float.
    F(FloatTy),
    /// A 32-bit signed integer (IMP's `i32`, C's `int`).
    I32,
}

impl Ty {
    fn imp(self) -> &'static str {
        match self {
            Ty::F(t) => t.name(),
            Ty::I32 => "i32",
        }
    }

    fn c(self) -> &'static str {
        match self {
            Ty::F(FloatTy::F32) => "float",
            Ty::F(FloatTy::F64) => "double",
            Ty::I32 => "int",
        }
    }
}

/// A `math.h` function (C only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Math {
    /// `fabs`
    Fabs,
    /// `sqrt`
    Sqrt,
    /// `floor`
    Floor,
    /// `ceil`
    Ceil,
    /// `trunc`
    Trunc,
    /// `round`
    Round,
    /// `fmin`
    Fmin,
    /// `fmax`
    Fmax,
    /// `copysign`
    Copysign,
}

/// Every `math.h` function the generator calls.
pub const MATH: [Math; 9] = [
    Math::Fabs,
    Math::Sqrt,
    Math::Floor,
    Math::Ceil,
    Math::Trunc,
    Math::Round,
    Math::Fmin,
    Math::Fmax,
    Math::Copysign,
];

impl Math {
    /// The name of its `double` version.
    pub fn name(self) -> &'static str {
        match self {
            Math::Fabs => "fabs",
            Math::Sqrt => "sqrt",
            Math::Floor => "floor",
            Math::Ceil => "ceil",
            Math::Trunc => "trunc",
            Math::Round => "round",
            Math::Fmin => "fmin",
            Math::Fmax => "fmax",
            Math::Copysign => "copysign",
        }
    }

    /// Its number of arguments.
    pub fn arity(self) -> usize {
        match self {
            Math::Fmin | Math::Fmax | Math::Copysign => 2,
            _ => 1,
        }
    }
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub enum FExpr {
    /// A variable.
    Var(String, Ty),
    /// A float literal (its decimal text, maybe negative) of a type.
    Lit(&'static str, FloatTy),
    /// An `i32` literal.
    Int(i32),
    /// `a op b` for `op` in `+ - * /`, both of one float type.
    Bin(char, Box<FExpr>, Box<FExpr>),
    /// `-a`
    Neg(Box<FExpr>),
    /// A conversion to a type.
    Conv(Ty, Box<FExpr>),
    /// A `math.h` call (its arguments of one float type).
    Call(Math, Vec<FExpr>),
}

impl FExpr {
    /// Its type.
    pub fn ty(&self) -> Ty {
        match self {
            FExpr::Var(_, t) | FExpr::Conv(t, _) => *t,
            FExpr::Lit(_, t) => Ty::F(*t),
            FExpr::Int(_) => Ty::I32,
            FExpr::Bin(_, a, _) | FExpr::Neg(a) => a.ty(),
            FExpr::Call(_, args) => args[0].ty(),
        }
    }

    /// Has it no variable (only literals)?
    pub fn is_const(&self) -> bool {
        match self {
            FExpr::Var(..) => false,
            FExpr::Lit(..) | FExpr::Int(_) => true,
            FExpr::Bin(_, a, b) => a.is_const() && b.is_const(),
            FExpr::Neg(a) | FExpr::Conv(_, a) => a.is_const(),
            FExpr::Call(_, args) => args.iter().all(FExpr::is_const),
        }
    }

    fn uses_math(&self) -> bool {
        match self {
            FExpr::Var(..) | FExpr::Lit(..) | FExpr::Int(_) => false,
            FExpr::Bin(_, a, b) => a.uses_math() || b.uses_math(),
            FExpr::Neg(a) | FExpr::Conv(_, a) => a.uses_math(),
            FExpr::Call(..) => true,
        }
    }

    fn literals(&self, out: &mut Vec<(&'static str, FloatTy)>, ints: &mut Vec<i32>) {
        match self {
            FExpr::Var(..) => {}
            FExpr::Lit(s, t) => out.push((s, *t)),
            FExpr::Int(n) => ints.push(*n),
            FExpr::Bin(_, a, b) => {
                a.literals(out, ints);
                b.literals(out, ints);
            }
            FExpr::Neg(a) | FExpr::Conv(_, a) => a.literals(out, ints),
            FExpr::Call(_, args) => args.iter().for_each(|a| a.literals(out, ints)),
        }
    }

    fn imp(&self) -> String {
        match self {
            FExpr::Var(n, _) => n.clone(),
            FExpr::Lit(s, _) if s.starts_with('-') => format!("({s})"),
            FExpr::Lit(s, _) => s.to_string(),
            FExpr::Int(n) if *n < 0 => format!("({n})"),
            FExpr::Int(n) => n.to_string(),
            FExpr::Bin(op, a, b) => format!("({} {op} {})", a.imp(), b.imp()),
            FExpr::Neg(a) => format!("-({})", a.imp()),
            FExpr::Conv(t, a) => format!("{}({})", t.imp(), a.imp()),
            FExpr::Call(..) => unreachable!("IMP has no math.h"),
        }
    }

    fn c(&self) -> String {
        match self {
            FExpr::Var(n, _) => n.clone(),
            FExpr::Lit(s, t) => {
                let f = if *t == FloatTy::F32 { "f" } else { "" };
                if s.starts_with('-') {
                    format!("({s}{f})")
                } else {
                    format!("{s}{f}")
                }
            }
            // `-2147483648` is not an `int` literal in C.
            FExpr::Int(i32::MIN) => "(-2147483647 - 1)".to_string(),
            FExpr::Int(n) if *n < 0 => format!("({n})"),
            FExpr::Int(n) => n.to_string(),
            FExpr::Bin(op, a, b) => format!("({} {op} {})", a.c(), b.c()),
            FExpr::Neg(a) => format!("-({})", a.c()),
            FExpr::Conv(t, a) => format!("(({})({}))", t.c(), a.c()),
            FExpr::Call(m, args) => {
                let f = if args[0].ty() == Ty::F(FloatTy::F32) {
                    "f"
                } else {
                    ""
                };
                let args: Vec<String> = args.iter().map(FExpr::c).collect();
                format!("{}{f}({})", m.name(), args.join(", "))
            }
        }
    }
}

/// A comparison `a op b` (operands of one type).
#[derive(Clone, Debug, PartialEq)]
pub struct Cond {
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub op: &'static str,
    /// The left operand.
    pub a: FExpr,
    /// The right operand.
    pub b: FExpr,
}

impl Cond {
    fn imp(&self) -> String {
        format!("{} {} {}", self.a.imp(), self.op, self.b.imp())
    }

    fn c(&self) -> String {
        format!("{} {} {}", self.a.c(), self.op, self.b.c())
    }
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum FStmt {
    /// `var x: T = e` (C: `T x = e;`).
    Decl(String, Ty, FExpr),
    /// `x = e`
    Assign(String, FExpr),
    /// `if c then .. else .. fi`
    If(Cond, Vec<FStmt>, Vec<FStmt>),
    /// `assert c`
    Assert(Cond),
    /// `assume c`
    Assume(Cond),
}

/// A generated float program.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatProgram {
    /// The inputs, read in this order.
    pub inputs: Vec<(String, Ty)>,
    /// The statements after the reads.
    pub body: Vec<FStmt>,
}

fn walk<'a>(stmts: &'a [FStmt], f: &mut dyn FnMut(&'a FExpr)) {
    for s in stmts {
        match s {
            FStmt::Decl(_, _, e) | FStmt::Assign(_, e) => f(e),
            FStmt::If(c, a, b) => {
                f(&c.a);
                f(&c.b);
                walk(a, f);
                walk(b, f);
            }
            FStmt::Assert(c) | FStmt::Assume(c) => {
                f(&c.a);
                f(&c.b);
            }
        }
    }
}

impl FloatProgram {
    /// Does it call a `math.h` function (so that it has no IMP rendering)?
    pub fn uses_math(&self) -> bool {
        let mut any = false;
        walk(&self.body, &mut |e| any |= e.uses_math());
        any
    }

    /// The float literals (text and type) and the `i32` literals it uses.
    pub fn literals(&self) -> (Vec<(&'static str, FloatTy)>, Vec<i32>) {
        let (mut fl, mut ints) = (Vec::new(), Vec::new());
        walk(&self.body, &mut |e| e.literals(&mut fl, &mut ints));
        (fl, ints)
    }

    /// The IMP text, or `None` if it calls a `math.h` function.
    pub fn imp(&self) -> Option<String> {
        if self.uses_math() {
            return None;
        }
        let mut lines = Vec::new();
        for (n, t) in &self.inputs {
            lines.push(format!("var {n}: {} = *", t.imp()));
        }
        imp_stmts(&self.body, 0, &mut lines);
        Some(lines.join(";\n") + "\n")
    }

    /// The C text (preprocessed: declarations instead of `#include`s).
    pub fn c(&self) -> String {
        let mut s = String::from(C_PRELUDE);
        for m in MATH {
            let args = |t: &str| vec![t; m.arity()].join(", ");
            let _ = writeln!(s, "extern double {}({});", m.name(), args("double"));
            let _ = writeln!(s, "extern float {}f({});", m.name(), args("float"));
        }
        s.push_str("int main(void) {\n");
        for (n, t) in &self.inputs {
            let f = match t {
                Ty::F(FloatTy::F32) => "float",
                Ty::F(FloatTy::F64) => "double",
                Ty::I32 => "int",
            };
            let _ = writeln!(s, "  {} {n} = __VERIFIER_nondet_{f}();", t.c());
        }
        c_stmts(&self.body, 1, &mut s);
        s.push_str("  return 0;\n}\n");
        s
    }

    /// The program without its `k`-th statement (in pre-order: an `if`,
    /// then its branches' statements, then-branch first), or `None` if
    /// there is none or it declares a variable.
    pub fn without(&self, k: usize) -> Option<FloatProgram> {
        let mut p = self.clone();
        let mut k = k;
        (remove(&mut p.body, &mut k) == Some(true)).then_some(p)
    }

    /// The number of statements (nested ones included).
    pub fn statements(&self) -> usize {
        fn count(s: &[FStmt]) -> usize {
            s.iter()
                .map(|s| match s {
                    FStmt::If(_, a, b) => 1 + count(a) + count(b),
                    _ => 1,
                })
                .sum()
        }
        count(&self.body)
    }
}

/// Removes the `k`-th statement in pre-order (`k` counts down past the
/// statements of `stmts`): `Some(true)` when removed, `Some(false)` when
/// it is a declaration (kept), `None` when `stmts` has fewer.
fn remove(stmts: &mut Vec<FStmt>, k: &mut usize) -> Option<bool> {
    for i in 0..stmts.len() {
        if *k == 0 {
            if matches!(stmts[i], FStmt::Decl(..)) {
                return Some(false);
            }
            stmts.remove(i);
            return Some(true);
        }
        *k -= 1;
        if let FStmt::If(_, a, b) = &mut stmts[i] {
            if let Some(r) = remove(a, k).or_else(|| remove(b, k)) {
                return Some(r);
            }
        }
    }
    None
}

const C_PRELUDE: &str = "\
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__noreturn__));
extern void __VERIFIER_assume(int);
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
";

fn imp_stmts(stmts: &[FStmt], depth: usize, lines: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    for s in stmts {
        match s {
            FStmt::Decl(n, t, e) => lines.push(format!("{pad}var {n}: {} = {}", t.imp(), e.imp())),
            FStmt::Assign(n, e) => lines.push(format!("{pad}{n} = {}", e.imp())),
            FStmt::Assert(c) => lines.push(format!("{pad}assert {}", c.imp())),
            FStmt::Assume(c) => lines.push(format!("{pad}assume {}", c.imp())),
            FStmt::If(c, a, b) => {
                let block = |body: &[FStmt]| {
                    let mut inner = Vec::new();
                    imp_stmts(body, depth + 1, &mut inner);
                    if inner.is_empty() {
                        inner.push(format!("{pad}  skip"));
                    }
                    inner.join(";\n")
                };
                lines.push(format!(
                    "{pad}if {} then\n{}\n{pad}else\n{}\n{pad}fi",
                    c.imp(),
                    block(a),
                    block(b)
                ));
            }
        }
    }
}

fn c_stmts(stmts: &[FStmt], depth: usize, s: &mut String) {
    let pad = "  ".repeat(depth);
    for st in stmts {
        match st {
            FStmt::Decl(n, t, e) => {
                let _ = writeln!(s, "{pad}{} {n} = {};", t.c(), e.c());
            }
            FStmt::Assign(n, e) => {
                let _ = writeln!(s, "{pad}{n} = {};", e.c());
            }
            FStmt::Assert(c) => {
                let _ = writeln!(
                    s,
                    "{pad}(({}) ? (void) 0 : __assert_fail(\"c\", \"generated.c\", 1, __PRETTY_FUNCTION__));",
                    c.c()
                );
            }
            FStmt::Assume(c) => {
                let _ = writeln!(s, "{pad}__VERIFIER_assume({});", c.c());
            }
            FStmt::If(c, a, b) => {
                let _ = writeln!(s, "{pad}if ({}) {{", c.c());
                c_stmts(a, depth + 1, s);
                let _ = writeln!(s, "{pad}}} else {{");
                c_stmts(b, depth + 1, s);
                let _ = writeln!(s, "{pad}}}");
            }
        }
    }
}
