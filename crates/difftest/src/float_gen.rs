//! Random float programs for the float mode (`--features float`): a few
//! `f32`/`f64` inputs (and sometimes an `i32` one), read in order, then
//! declarations, assignments, `if`s on float conditions, `assume`s and
//! `assert`s over `+ - * /`, unary `-`, conversions between the float
//! types and `i32` (a float → `i32` conversion can fail with
//! `float_conversion`), comparisons (a NaN test `x != x` among them) and,
//! in C only, `fabs`, `sqrt`, `fmin`, `fmax`, `floor`, `ceil`, `trunc`,
//! `round` and `copysign`.
//!
//! A [`FloatProgram`] renders as IMP ([`FloatProgram::imp`], `None` when it
//! calls a `math.h` function IMP lacks) and as C ([`FloatProgram::c`])
//! with the same meaning: every operation has operands of one float type,
//! conversions are explicit, a literal is suffixed `f` where it is a
//! `float`, and no operation or cast has only literals for operands (IMP
//! types a literal-only expression as `f64` where C would type it
//! otherwise). Inputs are reads, so one list of values ([`Sample`]s) is an
//! input of both renderings.

use std::fmt::Write as _;
use wiser_num::FloatTy;
use wiser_testkit::Xorshift;

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

const MATH: [Math; 9] = [
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

    fn arity(self) -> usize {
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

/// Literals of both types: small and simple values, the `i32` range's
/// edges, large and tiny magnitudes.
const LITS: [&str; 18] = [
    "0.0",
    "-0.0",
    "1.0",
    "-1.0",
    "0.5",
    "2.0",
    "-2.5",
    "3.0",
    "0.1",
    "10.0",
    "100.0",
    "-1e10",
    "1e-10",
    "2147483647.0",
    "2147483648.0",
    "-2147483648.0",
    "-2147483649.0",
    "1e30",
];

/// Literals of one type only (near its limits).
fn lits_of(t: FloatTy) -> &'static [&'static str] {
    match t {
        FloatTy::F32 => &["3.4028235e38", "1.17549435e-38", "1e-45", "1e-40"],
        FloatTy::F64 => &["1e300", "-1.7976931348623157e308", "4.9e-324", "1e-310"],
    }
}

const INTS: [i32; 8] = [0, 1, -1, 2, 7, -100, 16777217, i32::MAX];

/// The generator's state for one program.
struct Gen {
    rng: Xorshift,
    vars: Vec<(String, Ty)>,
    locals: usize,
    math: bool,
}

impl Gen {
    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    fn float_ty(&mut self) -> FloatTy {
        if self.chance(50) {
            FloatTy::F32
        } else {
            FloatTy::F64
        }
    }

    /// The type of a float variable in scope (mostly), or either.
    fn scope_ty(&mut self) -> FloatTy {
        let fs: Vec<FloatTy> = self
            .vars
            .iter()
            .filter_map(|(_, t)| match t {
                Ty::F(f) => Some(*f),
                Ty::I32 => None,
            })
            .collect();
        if fs.is_empty() || self.chance(10) {
            self.float_ty()
        } else {
            fs[self.rng.index(fs.len())]
        }
    }

    fn var_of(&mut self, t: Ty) -> Option<FExpr> {
        let vs: Vec<&(String, Ty)> = self.vars.iter().filter(|(_, vt)| *vt == t).collect();
        if vs.is_empty() {
            return None;
        }
        let (n, t) = vs[self.rng.index(vs.len())];
        Some(FExpr::Var(n.clone(), *t))
    }

    fn lit(&mut self, t: FloatTy) -> FExpr {
        let own = lits_of(t);
        let k = self.rng.index(LITS.len() + own.len());
        let s = if k < LITS.len() {
            LITS[k]
        } else {
            own[k - LITS.len()]
        };
        FExpr::Lit(s, t)
    }

    /// A float expression of type `t`, at most `depth` operations deep,
    /// not a constant unless `const_ok`.
    fn float(&mut self, t: FloatTy, depth: u32, const_ok: bool) -> FExpr {
        let leaf = depth == 0 || self.chance(30);
        if leaf {
            if const_ok && self.chance(35) {
                return self.lit(t);
            }
            if let Some(v) = self.var_of(Ty::F(t)) {
                return v;
            }
            // No variable of this type: convert one of the other.
            if let Some(v) = self
                .var_of(Ty::F(other(t)))
                .or_else(|| self.var_of(Ty::I32))
            {
                return FExpr::Conv(Ty::F(t), Box::new(v));
            }
            return self.lit(t);
        }
        match self.rng.below(if self.math { 10 } else { 8 }) {
            0..=3 => {
                // `*` and `/` are the solver's slow operations (the more
                // so in `f64`): fewer of them.
                let ops: &[char] = match t {
                    FloatTy::F32 => &['+', '-', '+', '-', '*', '/'],
                    FloatTy::F64 => &['+', '-', '+', '-', '+', '-', '*', '/'],
                };
                let op = ops[self.rng.index(ops.len())];
                let a = self.float(t, depth - 1, true);
                let b = self.float(t, depth - 1, !a.is_const());
                if self.chance(50) {
                    FExpr::Bin(op, Box::new(a), Box::new(b))
                } else {
                    FExpr::Bin(op, Box::new(b), Box::new(a))
                }
            }
            4 => FExpr::Neg(Box::new(self.float(t, depth - 1, const_ok))),
            5 => {
                let a = self.float(other(t), depth - 1, false);
                FExpr::Conv(Ty::F(t), Box::new(a))
            }
            6 => {
                let a = self.int(depth - 1, false);
                FExpr::Conv(Ty::F(t), Box::new(a))
            }
            7 => self.float(t, depth - 1, const_ok),
            _ => {
                let m = MATH[self.rng.index(MATH.len())];
                let a = self.float(t, depth - 1, false);
                let mut args = vec![a];
                if m.arity() == 2 {
                    args.push(self.float(t, depth - 1, true));
                    if self.chance(50) {
                        args.reverse();
                    }
                }
                FExpr::Call(m, args)
            }
        }
    }

    /// An `i32` expression: a variable, a literal (if `const_ok`) or a
    /// float converted.
    fn int(&mut self, depth: u32, const_ok: bool) -> FExpr {
        if const_ok && self.chance(40) {
            return FExpr::Int(INTS[self.rng.index(INTS.len())]);
        }
        if depth == 0 || self.chance(30) {
            if let Some(v) = self.var_of(Ty::I32) {
                return v;
            }
        }
        let t = self.scope_ty();
        let a = self.float(t, depth.saturating_sub(1), false);
        FExpr::Conv(Ty::I32, Box::new(a))
    }

    fn cond(&mut self) -> Cond {
        const OPS: [&str; 6] = ["==", "!=", "<", "<=", ">", ">="];
        let op = OPS[self.rng.index(OPS.len())];
        let k = self.rng.below(10);
        if k == 0 {
            // A NaN test.
            let t = self.scope_ty();
            if let Some(v) = self.var_of(Ty::F(t)) {
                let op = if self.chance(50) { "!=" } else { "==" };
                return Cond {
                    op,
                    a: v.clone(),
                    b: v,
                };
            }
        }
        if k <= 2 {
            let a = self.int(1, false);
            let b = self.int(1, true);
            return Cond { op, a, b };
        }
        let t = self.scope_ty();
        let d = self.depth();
        let a = self.float(t, d, false);
        let b = self.float(t, 1, true);
        Cond { op, a, b }
    }

    /// An expression's depth: mostly 1.
    fn depth(&mut self) -> u32 {
        if self.chance(75) {
            1
        } else {
            2
        }
    }

    /// An assertion that holds for every number (NaN aside, or infinities
    /// too), so that guarded programs are safe: `e + v == v + e`,
    /// `-(-(e)) == e`, `e * 1.0 == e`, `e - e == 0.0`, `e + 0.0 == e`,
    /// `e <= e`, `fabs(e) >= 0.0` (C), `T(U(v)) == v` through the wider
    /// type.
    fn law(&mut self) -> Cond {
        let t = self.scope_ty();
        let e = self.float(t, 1, false);
        let v = self.float(t, 0, false);
        let b = |e: &FExpr| Box::new(e.clone());
        let k = self.rng.below(if self.math { 8 } else { 7 });
        let (op, a, rhs) = match k {
            0 => (
                "==",
                FExpr::Bin('+', b(&e), b(&v)),
                FExpr::Bin('+', b(&v), b(&e)),
            ),
            1 => ("==", FExpr::Neg(Box::new(FExpr::Neg(b(&e)))), e),
            2 => (
                "==",
                FExpr::Bin('*', b(&e), Box::new(FExpr::Lit("1.0", t))),
                e,
            ),
            3 => ("==", FExpr::Bin('-', b(&e), b(&e)), FExpr::Lit("0.0", t)),
            4 => (
                "==",
                FExpr::Bin('+', b(&e), Box::new(FExpr::Lit("0.0", t))),
                e,
            ),
            5 => ("<=", e.clone(), e),
            6 if t == FloatTy::F32 => (
                "==",
                FExpr::Conv(
                    Ty::F(FloatTy::F32),
                    Box::new(FExpr::Conv(Ty::F(FloatTy::F64), b(&v))),
                ),
                v,
            ),
            6 => (
                "==",
                FExpr::Bin('*', b(&e), Box::new(FExpr::Lit("2.0", t))),
                FExpr::Bin('+', b(&e), b(&e)),
            ),
            _ => (">=", FExpr::Call(Math::Fabs, vec![e]), FExpr::Lit("0.0", t)),
        };
        Cond { op, a, b: rhs }
    }

    /// Guards on the inputs: `assume x == x` (not a NaN), or a range
    /// `lo <= x <= hi` (which excludes NaN too).
    fn guards(&mut self) -> Vec<FStmt> {
        const BOUNDS: [&str; 7] = ["-100.0", "-10.0", "-1.0", "0.0", "0.5", "2.0", "1e10"];
        let mut out = Vec::new();
        for (n, t) in self.vars.clone() {
            let Ty::F(f) = t else { continue };
            let v = FExpr::Var(n, t);
            match self.rng.below(3) {
                0 => {}
                1 => out.push(FStmt::Assume(Cond {
                    op: "==",
                    a: v.clone(),
                    b: v,
                })),
                _ => {
                    let i = self.rng.index(BOUNDS.len() - 1);
                    let j = i + 1 + self.rng.index(BOUNDS.len() - 1 - i);
                    out.push(FStmt::Assume(Cond {
                        op: ">=",
                        a: v.clone(),
                        b: FExpr::Lit(BOUNDS[i], f),
                    }));
                    out.push(FStmt::Assume(Cond {
                        op: "<=",
                        a: v,
                        b: FExpr::Lit(BOUNDS[j], f),
                    }));
                }
            }
        }
        out
    }

    fn stmts(&mut self, n: usize, depth: u32) -> Vec<FStmt> {
        (0..n).map(|_| self.stmt(depth)).collect()
    }

    fn stmt(&mut self, depth: u32) -> FStmt {
        match self.rng.below(10) {
            0..=1 if depth == 0 && self.locals < 3 => {
                let name = format!("t{}", self.locals);
                self.locals += 1;
                let ty = if self.chance(20) {
                    Ty::I32
                } else {
                    Ty::F(self.float_ty())
                };
                let d = self.depth();
                let e = match ty {
                    Ty::F(t) => self.float(t, d, true),
                    Ty::I32 => self.int(d, false),
                };
                self.vars.push((name.clone(), ty));
                FStmt::Decl(name, ty, e)
            }
            0..=3 => {
                let (n, ty) = self.vars[self.rng.index(self.vars.len())].clone();
                let d = self.depth();
                let e = match ty {
                    Ty::F(t) => self.float(t, d, true),
                    Ty::I32 => self.int(d, false),
                };
                FStmt::Assign(n, e)
            }
            4..=5 if depth < 1 => {
                let c = self.cond();
                let n = 1 + self.rng.index(2);
                let a = self.stmts(n, depth + 1);
                let n = self.rng.index(2);
                let b = self.stmts(n, depth + 1);
                FStmt::If(c, a, b)
            }
            6 => FStmt::Assume(self.cond()),
            7 | 8 => FStmt::Assert(self.law()),
            _ => FStmt::Assert(self.cond()),
        }
    }
}

fn other(t: FloatTy) -> FloatTy {
    match t {
        FloatTy::F32 => FloatTy::F64,
        FloatTy::F64 => FloatTy::F32,
    }
}

/// Program `index` of the float run with `seed`; `math`: with `math.h`
/// calls (for C).
pub fn generate_float(seed: u64, index: u64, math: bool) -> FloatProgram {
    let mix = seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(index.wrapping_mul(0xbf58_476d_1ce4_e5b9))
        ^ 0x5851_f42d_4c95_7f2d;
    let mut g = Gen {
        rng: Xorshift(mix | 1),
        vars: Vec::new(),
        locals: 0,
        math,
    };
    for _ in 0..4 {
        g.rng.next();
    }
    let same = g.chance(60);
    let first = g.float_ty();
    let n = 1 + g.rng.index(2);
    for i in 0..n {
        let t = if same { first } else { g.float_ty() };
        g.vars.push((format!("x{i}"), Ty::F(t)));
    }
    if g.chance(15) {
        g.vars.push(("n".to_string(), Ty::I32));
    }
    let inputs = g.vars.clone();
    let mut body = g.guards();
    let count = 1 + g.rng.index(3);
    body.extend(g.stmts(count, 0));
    if !body.iter().any(|s| matches!(s, FStmt::Assert(_))) {
        let c = if g.chance(50) { g.law() } else { g.cond() };
        body.push(FStmt::Assert(c));
    }
    FloatProgram { inputs, body }
}
