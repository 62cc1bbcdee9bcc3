//! Rendering a [`Program`] as C with the **same meaning** as its IMP
//! rendering ([`crate::render`]), for the differential tester's C mode:
//! the two front ends must agree on every run.
//!
//! Only programs without `int` have a C rendering (generate them with
//! [`crate::GenConfig::for_c`]); IMP's `i8`..`u64` are `signed char`,
//! `short`, `int`, `long long` and their unsigned versions under either
//! data model. IMP computes `a op b` *at* the operands' type, while C
//! promotes narrow operands to `int`; so every operation is written with
//! explicit conversions that make C compute what IMP computes, errors
//! included:
//!
//! * unsigned `+ - *` and `/ %` are done in `unsigned int` (or
//!   `unsigned long long`) and converted back: they wrap the same way, and
//!   `u16 * u16` cannot overflow an `int`;
//! * signed `+ - *` and unary `-` at 32 and 64 bits are C's own (C's
//!   overflow is IMP's `signed_overflow`); at 8 and 16 bits the `int`
//!   result `r` is written `r * K / K` with `K = 2^(32 - w)`, which
//!   overflows `int` exactly when `r` does not fit `w` bits (and, with
//!   `--wrap-signed`, wraps to what IMP's wrapping gives);
//! * signed `/` at 8 and 16 bits is `(a * K) / b / K`: `MIN / -1` becomes
//!   `INT_MIN / -1`, the same `division_overflow`; `%` is
//!   `a - (a * K) / b / K * b` (or `a % c` for a constant `c != -1`);
//! * a shift of a 8- or 16-bit value checks its amount first,
//!   `n + 0ULL * (1u << ((unsigned long long)n + (32 - w)))`, an
//!   `invalid_shift` exactly when `n` is outside `0..w`; a signed `<<` then gets the
//!   `* K / K` treatment;
//! * `&`, `|`, `^`, `~`, comparisons and conversions mean the same after
//!   promotion, with a cast back to the type;
//! * an expression of literals that IMP computes at `int` (a cast's
//!   operand, a subscript, a shift amount, a comparison of two literal
//!   expressions) is folded here, or, when its evaluation divides by zero,
//!   written in `long long` (if every value before the error fits).
//!
//! Inputs are reads: `x: T` with domain `D` becomes
//! `x = __VERIFIER_nondet_T(); __VERIFIER_assume(x in D);`, scalars in the
//! order of the specification, then the input cells ([`CProgram::inputs`]
//! gives the order, so that an IMP input maps to C reads and back).
//! Arrays are global, indexed `i + ARRAY_REACH`; every other one (the
//! first, the third, ... by name) is a pointer to a heap array that `main`
//! allocates with `calloc` before anything else, stored through pointer
//! arithmetic (`*(a + i) = x`), so that the memory model of C's pointers
//! is judged by the same enumeration as C's arrays. `assert c` fails through
//! `__assert_fail` (an `assertion`), `fail` is `reach_error()` (a `fail`),
//! `assume c` is `__VERIFIER_assume(c)`. Every other scalar of `main` is
//! a member of a local structure, reached as `vp->x` or, every fourth,
//! through a pointer to the member (`T *p_x = &vars.x;`, `(*p_x)`).

use crate::domain::Domain;
use crate::program::{lookup, Bound, Co, Env, Ex, Program, St, ARRAY_REACH};
use crate::typing::type_of;
use crate::Name;
use std::fmt::{self, Write as _};
use wiser_ir::ScalarTy;
use wiser_num::{BinOp, CmpOp, Int, IntTy, UnOp};
use wiser_semantics::{ArrayInput, Input};

mod literals;
pub use literals::c_type;
use literals::*;

/// Why a program has no C rendering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no C rendering: {}", self.0)
    }
}

/// An input of the IMP program that the C program reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputRead {
    /// An input scalar.
    Var(Name),
    /// An input cell: array and index.
    Cell(Name, i64),
}

/// A program rendered as C.
#[derive(Clone, Debug)]
pub struct CProgram {
    /// The C text, preprocessed (no `#include`, no comment: it may be
    /// given as a `.i` file).
    pub text: String,
    /// The IMP inputs that the first reads of the C program give, in
    /// order; the IMP program's own reads follow them.
    pub inputs: Vec<InputRead>,
}

impl CProgram {
    /// The C reads for an IMP input: its inputs in the order of
    /// [`CProgram::inputs`] (0 for one it lacks), then its reads.
    pub fn reads_of(&self, input: &Input) -> Vec<Int> {
        let mut out = Vec::with_capacity(self.inputs.len() + input.reads.len());
        for i in &self.inputs {
            let v = match i {
                InputRead::Var(n) => input
                    .vars
                    .iter()
                    .find(|(m, _)| m == n)
                    .map(|(_, v)| v.clone()),
                InputRead::Cell(a, k) => {
                    input.arrays.iter().find(|(b, _)| b == a).map(|(_, arr)| {
                        let at = Int::from(*k);
                        arr.entries
                            .iter()
                            .find(|(j, _)| *j == at)
                            .map_or(arr.default.clone(), |(_, v)| v.clone())
                    })
                }
            };
            out.push(v.unwrap_or_else(|| Int::from(0)));
        }
        out.extend(input.reads.iter().cloned());
        out
    }

    /// The IMP input for the reads of a C run (the inverse of
    /// [`CProgram::reads_of`]).
    pub fn input_of(&self, reads: &[Int]) -> Input {
        let mut input = Input::default();
        let n = self.inputs.len().min(reads.len());
        for (i, v) in self.inputs.iter().zip(&reads[..n]) {
            match i {
                InputRead::Var(name) => input.vars.push((name.clone(), v.clone())),
                InputRead::Cell(a, k) => {
                    let entry = (Int::from(*k), v.clone());
                    match input.arrays.iter_mut().find(|(b, _)| b == a) {
                        Some((_, arr)) => arr.entries.push(entry),
                        None => input.arrays.push((
                            a.clone(),
                            ArrayInput {
                                default: Int::from(0),
                                entries: vec![entry],
                            },
                        )),
                    }
                }
            }
        }
        input.reads = reads[n..].to_vec();
        input
    }
}

/// Renders one routine's expressions and statements.
struct Routine<'a> {
    p: &'a Program,
    /// The routine's scalars and their types.
    vars: &'a [(Name, IntTy)],
    /// How the scalars that live in a structure are reached (`vp->x`,
    /// `(*p_x)`), by name; the others are plain variables.
    access: std::collections::HashMap<Name, String>,
    out: String,
    indent: usize,
}

/// `(CT)(x)`, or `x` if the conversion is the identity.
fn convert(x: String, from: IntTy, to: IntTy) -> Result<String, Unsupported> {
    if from == to {
        Ok(x)
    } else {
        Ok(format!("(({})({x}))", c_type(to)?))
    }
}

/// The unsigned C type that `ty`'s arithmetic is done in.
fn unsigned_work(ty: IntTy) -> &'static str {
    if ty.width() == Some(64) {
        "unsigned long long"
    } else {
        "unsigned int"
    }
}

impl Routine<'_> {
    fn env(&self) -> Env<'_> {
        Env {
            vars: self.vars,
            arrays: &self.p.array_types,
        }
    }

    fn type_of(&self, e: &Ex) -> Result<Option<IntTy>, Unsupported> {
        type_of(e, &self.env()).map_err(|why| Unsupported(format!("ill-typed: {why}")))
    }

    fn var_ty(&self, name: &str) -> Result<IntTy, Unsupported> {
        let t = lookup(self.vars, name);
        if t.is_unbounded() {
            return Err(Unsupported(format!("`{name}` is an `int`")));
        }
        Ok(t)
    }

    fn elem_ty(&self, name: &str) -> Result<IntTy, Unsupported> {
        let t = lookup(&self.p.array_types, name);
        if t.is_unbounded() {
            return Err(Unsupported(format!("`{name}` holds `int`s")));
        }
        Ok(t)
    }

    /// The value of `e` converted to `to`: `e` is typed with a type that
    /// converts to `to` without loss, or is a literal expression closed at
    /// `to`.
    fn conv(&self, e: &Ex, to: IntTy) -> Result<String, Unsupported> {
        match self.type_of(e)? {
            Some(t) => {
                if !t.is_lossless_to(to) {
                    return Err(Unsupported(format!("`{t}` where a `{to}` is expected")));
                }
                convert(self.ex(e, t)?, t, to)
            }
            None => self.ex(e, to),
        }
    }

    /// A literal expression that IMP computes at `int`, as a C value of
    /// type `long long` (or a constant of another type when it does not
    /// fit), for a context that takes any integer.
    fn open_any(&self, e: &Ex) -> Result<String, Unsupported> {
        match open(e)? {
            Open::Value(v) => ll(v),
            Open::Fails(s) => Ok(s),
        }
    }

    /// The subscript of `a[i]` in C: `IMP index + ARRAY_REACH`.
    fn index(&self, i: &Ex) -> Result<String, Unsupported> {
        let reach = i128::from(ARRAY_REACH);
        let imp = match i {
            Ex::Num(k) if (-reach..=reach).contains(k) => ll(*k)?,
            _ => {
                let rem = Ex::Bin(
                    BinOp::Rem,
                    Box::new(i.clone()),
                    Box::new(Ex::Num(reach + 1)),
                );
                match self.type_of(i)? {
                    Some(t) => self.ex(&rem, t)?,
                    None => self.open_any(&rem)?,
                }
            }
        };
        Ok(format!("(long long)({imp}) + {reach}"))
    }

    /// `e` computed at `at` (its type, or the type a literal expression is
    /// closed at), as a C expression whose value is IMP's.
    fn ex(&self, e: &Ex, at: IntTy) -> Result<String, Unsupported> {
        let ct = c_type(at)?;
        let w = at.width().expect("fixed");
        let k = 1i64 << (32 - w.min(32));
        let narrow = w < 32;
        let signed = at.is_signed();
        Ok(match e {
            Ex::Num(v) => lit(*v, at)?,
            Ex::Var(n) => self.var(n),
            Ex::Elem(a, i) => format!("{a}[{}]", self.index(i)?),
            Ex::Un(UnOp::Neg, a) if matches!(**a, Ex::Num(_)) => {
                let Ex::Num(v) = **a else { unreachable!() };
                lit(-v, at)?
            }
            Ex::Un(op, a) => {
                let x = self.conv(a, at)?;
                match op {
                    UnOp::BitNot => format!("(({ct})~({x}))"),
                    UnOp::Neg if !signed => format!("(({ct})(-({})({x})))", unsigned_work(at)),
                    UnOp::Neg if narrow => format!("(({ct})(-(int)({x}) * {k} / {k}))"),
                    UnOp::Neg => format!("(-({x}))"),
                }
            }
            Ex::Bin(op @ (BinOp::Shl | BinOp::Shr), a, n) => {
                let x = self.conv(a, at)?;
                let amount = match self.type_of(n)? {
                    Some(t) => self.ex(n, t)?,
                    None => self.open_any(n)?,
                };
                let sym = op.symbol();
                if !narrow {
                    format!("(({ct})(({x}) {sym} ({amount})))")
                } else {
                    // The check is a term of the amount (times 0), not the
                    // left of a comma: a comma's left part may be evaluated
                    // before the other operands of the enclosing operator
                    // (C leaves the order open), and IMP checks left to
                    // right.
                    let checked = format!(
                        "(({amount}) + 0ULL * (1u << ((unsigned long long)({amount}) + {}ULL)))",
                        32 - w
                    );
                    let work = if signed { "int" } else { "unsigned int" };
                    let shifted = format!("(({work})({x}) {sym} {checked})");
                    if signed && *op == BinOp::Shl {
                        format!("(({ct})({shifted} * {k} / {k}))")
                    } else {
                        format!("(({ct}){shifted})")
                    }
                }
            }
            Ex::Bin(op, a, b) => {
                let x = self.conv(a, at)?;
                let y = self.conv(b, at)?;
                let sym = op.symbol();
                match op {
                    BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                        format!("(({ct})(({x}) {sym} ({y})))")
                    }
                    _ if !signed => {
                        let u = unsigned_work(at);
                        format!("(({ct})(({u})({x}) {sym} ({u})({y})))")
                    }
                    _ if !narrow => format!("(({x}) {sym} ({y}))"),
                    BinOp::Add | BinOp::Sub | BinOp::Mul => {
                        format!("(({ct})(((int)({x}) {sym} (int)({y})) * {k} / {k}))")
                    }
                    BinOp::Div => format!("(({ct})((int)({x}) * {k} / (int)({y}) / {k}))"),
                    BinOp::Rem => {
                        let constant = match &**b {
                            Ex::Num(v) => Some(*v),
                            Ex::Un(UnOp::Neg, c) => match **c {
                                Ex::Num(v) => Some(-v),
                                _ => None,
                            },
                            _ => None,
                        };
                        match constant {
                            Some(-1) => format!("(({ct})((int)({x}) * {k} / -1 * 0))"),
                            Some(c) => format!("(({ct})((int)({x}) % {c}))"),
                            None => format!(
                                "(({ct})((int)({x}) - (int)({x}) * {k} / (int)({y}) / {k} * (int)({y})))"
                            ),
                        }
                    }
                    _ => unreachable!("bitwise and shifts are handled above"),
                }
            }
            Ex::Cast(to, a) => {
                if *to != at {
                    return Err(Unsupported(format!("a cast to `{to}` computed at `{at}`")));
                }
                match self.type_of(a)? {
                    Some(t) => convert(self.ex(a, t)?, t, at)?,
                    None => match open(a)? {
                        Open::Value(v) => lit(wrap(v, at), at)?,
                        Open::Fails(s) => format!("(({ct})({s}))"),
                    },
                }
            }
        })
    }

    fn cond(&self, c: &Co) -> Result<String, Unsupported> {
        Ok(match c {
            Co::Bool(b) => u8::from(*b).to_string(),
            Co::Not(a) => format!("!({})", self.cond(a)?),
            Co::And(a, b) => format!("({} && {})", self.cond(a)?, self.cond(b)?),
            Co::Or(a, b) => format!("({} || {})", self.cond(a)?, self.cond(b)?),
            Co::Cmp(op, a, b) => {
                let sym = op.symbol();
                let at = match (self.type_of(a)?, self.type_of(b)?) {
                    (Some(s), Some(t)) if s.is_lossless_to(t) => Some(t),
                    (Some(s), Some(t)) if t.is_lossless_to(s) => Some(s),
                    (Some(s), Some(t)) => {
                        return Err(Unsupported(format!("comparison of `{s}` and `{t}`")))
                    }
                    (Some(t), None) | (None, Some(t)) => Some(t),
                    (None, None) => None,
                };
                match at {
                    Some(t) => format!("({} {sym} {})", self.conv(a, t)?, self.conv(b, t)?),
                    None => match (open(a)?, open(b)?) {
                        (Open::Value(x), Open::Value(y)) => {
                            u8::from(compare(*op, x, y)).to_string()
                        }
                        _ => format!("({} {sym} {})", self.open_any(a)?, self.open_any(b)?),
                    },
                }
            }
        })
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// `v in d` for a variable or element `v` of type `ty`.
    fn in_domain(&self, v: &str, ty: IntTy, d: &Domain) -> Result<String, Unsupported> {
        let mut parts = Vec::new();
        for &(lo, hi) in d.intervals() {
            parts.push(if lo == hi {
                format!("{v} == {}", lit(lo, ty)?)
            } else {
                format!("({v} >= {} && {v} <= {})", lit(lo, ty)?, lit(hi, ty)?)
            });
        }
        Ok(if parts.is_empty() {
            "0".into()
        } else {
            parts.join(" || ")
        })
    }

    /// The C that reaches scalar `n`.
    fn var(&self, n: &Name) -> String {
        self.access.get(n).cloned().unwrap_or_else(|| n.to_string())
    }

    /// `target = read; assume target in d`.
    fn read_into(&mut self, target: &str, ty: IntTy, d: &Domain) -> Result<(), Unsupported> {
        let (f, _) = nondet(ty)?;
        self.line(&format!("{target} = {f}();"));
        let c = self.in_domain(target, ty, d)?;
        self.line(&format!("__VERIFIER_assume({c});"));
        Ok(())
    }

    fn block(&mut self, ss: &[St]) -> Result<(), Unsupported> {
        for s in ss {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &St) -> Result<(), Unsupported> {
        match s {
            St::Assign(v, e) => {
                let x = self.conv(e, self.var_ty(v)?)?;
                let v = self.var(v);
                self.line(&format!("{v} = {x};"));
            }
            St::Havoc(v) => {
                let ty = self.var_ty(v)?;
                let d = self.p.spec.read_domain(ScalarTy::Int(ty));
                let v = self.var(v);
                self.read_into(&v, ty, &d)?;
            }
            St::Store(a, i, e) => {
                let x = self.conv(e, self.elem_ty(a)?)?;
                let i = self.index(i)?;
                if on_heap(self.p, a) {
                    self.line(&format!("*({a} + ({i})) = {x};"));
                } else {
                    self.line(&format!("{a}[{i}] = {x};"));
                }
            }
            St::If(c, a, b) => {
                let c = self.cond(c)?;
                self.line(&format!("if ({c}) {{"));
                self.indent += 1;
                self.block(a)?;
                self.indent -= 1;
                if b.is_empty() {
                    self.line("}");
                } else {
                    self.line("} else {");
                    self.indent += 1;
                    self.block(b)?;
                    self.indent -= 1;
                    self.line("}");
                }
            }
            St::Loop {
                counter,
                bound,
                cond,
                body,
            } => {
                self.stmt(&St::Assign(counter.clone(), Ex::Num(0)))?;
                let limit = match bound {
                    Bound::Const(k) => Ex::Num(i128::from(*k)),
                    Bound::Var(v) => Ex::Var(v.clone()),
                };
                let mut test = Co::Cmp(CmpOp::Lt, Ex::Var(counter.clone()), limit);
                if let Some(c) = cond {
                    test = Co::And(Box::new(test), Box::new(c.clone()));
                }
                let test = self.cond(&test)?;
                self.line(&format!("while ({test}) {{"));
                self.indent += 1;
                self.block(body)?;
                let step = Ex::Bin(
                    BinOp::Add,
                    Box::new(Ex::Var(counter.clone())),
                    Box::new(Ex::Num(1)),
                );
                self.stmt(&St::Assign(counter.clone(), step))?;
                self.indent -= 1;
                self.line("}");
            }
            St::Assert(c) => {
                let c = self.cond(c)?;
                self.line(&format!(
                    "(({c}) ? (void) 0 : __assert_fail(\"c\", \"generated.c\", {}, __PRETTY_FUNCTION__));",
                    self.out.lines().count() + 1
                ));
            }
            St::Assume(c) => {
                let c = self.cond(c)?;
                self.line(&format!("__VERIFIER_assume({c});"));
            }
            St::Fail => self.line("reach_error();"),
            St::Call(target, f, args) => {
                let callee = self
                    .p
                    .procs
                    .iter()
                    .find(|p| p.name == *f)
                    .ok_or_else(|| Unsupported(format!("no procedure `{f}`")))?;
                let mut xs = Vec::new();
                for (a, (_, ty)) in args.iter().zip(&callee.params) {
                    xs.push(self.conv(a, *ty)?);
                }
                let call = format!("{f}({})", xs.join(", "));
                match target {
                    Some(t) => {
                        let tt = self.var_ty(t)?;
                        if !callee.ret.is_lossless_to(tt) {
                            return Err(Unsupported(format!("`{f}`'s result into `{t}`")));
                        }
                        let x = convert(call, callee.ret, tt)?;
                        let t = self.var(t);
                        self.line(&format!("{t} = {x};"));
                    }
                    None => self.line(&format!("{call};")),
                }
            }
            St::Return(e) => {
                return Err(Unsupported(format!("`return {e:?}` outside a procedure")));
            }
        }
        Ok(())
    }
}

fn compare(op: CmpOp, x: i128, y: i128) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

/// The declarations every rendering starts with.
const PRELUDE: &str = "\
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__noreturn__));
extern void reach_error(void);
extern void __VERIFIER_assume(int);
extern void *calloc(unsigned long, unsigned long);
";

/// Is array `a` rendered as a pointer to a heap array (every other array
/// of the program, in its order)?
fn on_heap(p: &Program, a: &Name) -> bool {
    p.array_types
        .iter()
        .position(|(b, _)| b == a)
        .is_some_and(|k| k % 2 == 0)
}

/// Renders a program without `int` as C ([`crate::render_c`]).
pub fn render_c(p: &Program) -> Result<CProgram, Unsupported> {
    let mut text = String::new();
    text.push_str(PRELUDE);
    for ty in &IntTy::NAMED[1..] {
        let (f, ct) = nondet(*ty)?;
        let _ = writeln!(text, "extern {ct} {f}(void);");
    }
    let width = 2 * ARRAY_REACH + 1;
    for (a, ty) in &p.array_types {
        if on_heap(p, a) {
            let _ = writeln!(text, "{} *{a};", c_type(*ty)?);
        } else {
            let _ = writeln!(text, "{} {a}[{width}];", c_type(*ty)?);
        }
    }
    let arrays = p.spec.cells.iter().map(|(a, ..)| a);
    for a in arrays.chain(p.array_init.iter().map(|(a, ..)| a)) {
        if !p.array_types.iter().any(|(b, _)| b == a) {
            return Err(Unsupported(format!("the array `{a}` holds `int`s")));
        }
    }
    let signature = |f: &crate::program::Proc| -> Result<String, Unsupported> {
        let params: Result<Vec<String>, Unsupported> = f
            .params
            .iter()
            .map(|(n, t)| Ok(format!("{} {n}", c_type(*t)?)))
            .collect();
        let params = params?;
        let params = if params.is_empty() {
            "void".into()
        } else {
            params.join(", ")
        };
        Ok(format!("{} {}({params})", c_type(f.ret)?, f.name))
    };
    for f in &p.procs {
        let _ = writeln!(text, "{};", signature(f)?);
    }
    for f in &p.procs {
        let mut vars = f.params.clone();
        vars.extend(f.locals.iter().cloned());
        let mut r = Routine {
            p,
            vars: &vars,
            access: Default::default(),
            out: String::new(),
            indent: 1,
        };
        for (n, t) in &f.locals {
            r.line(&format!("{} {n} = 0;", c_type(*t)?));
        }
        for s in &f.body {
            r.stmt_in_proc(s, f.ret)?;
        }
        r.line("return 0;");
        let _ = writeln!(text, "{} {{\n{}}}", signature(f)?, r.out);
    }
    let mut r = Routine {
        p,
        vars: &p.types,
        access: Default::default(),
        out: String::new(),
        indent: 1,
    };
    for (a, ty) in &p.array_types {
        if on_heap(p, a) {
            let ct = c_type(*ty)?;
            r.line(&format!("{a} = calloc({width}, sizeof({ct}));"));
        }
    }
    // Every other scalar of `main` is a member of a structure, reached
    // through a pointer to it, and every fourth through a pointer to the
    // member itself (`&s.x`), so that structures, `->` and pointers to
    // members are judged by the same enumeration.
    let (held, plain): (Vec<_>, Vec<_>) = p.types.iter().enumerate().partition(|(k, _)| k % 2 == 1);
    for (_, (n, t)) in &plain {
        r.line(&format!("{} {n} = 0;", c_type(*t)?));
    }
    if !held.is_empty() {
        let members: Result<Vec<String>, Unsupported> = held
            .iter()
            .map(|(_, (n, t))| Ok(format!("{} {n};", c_type(*t)?)))
            .collect();
        r.line(&format!(
            "struct vars {{ {} }} vars = {{0}};",
            members?.join(" ")
        ));
        r.line("struct vars *vp = &vars;");
        for (k, (n, t)) in &held {
            let access = if k % 4 == 3 {
                r.line(&format!("{} *p_{n} = &vars.{n};", c_type(*t)?));
                format!("(*p_{n})")
            } else {
                format!("vp->{n}")
            };
            r.access.insert(n.clone(), access);
        }
    }
    let mut inputs = Vec::new();
    for (v, d) in &p.spec.inputs {
        let ty = r.var_ty(v)?;
        let target = r.var(v);
        r.read_into(&target, ty, d)?;
        inputs.push(InputRead::Var(v.clone()));
    }
    for (a, i, d) in &p.spec.cells {
        let ty = r.elem_ty(a)?;
        let target = format!("{a}[{}]", i + ARRAY_REACH);
        r.read_into(&target, ty, d)?;
        inputs.push(InputRead::Cell(a.clone(), *i));
    }
    for (a, i, v) in &p.array_init {
        let ty = r.elem_ty(a)?;
        let x = lit(*v, ty)?;
        r.line(&format!("{a}[{}] = {x};", i + ARRAY_REACH));
    }
    r.block(&p.main)?;
    r.line("return 0;");
    let _ = write!(text, "int main(void) {{\n{}}}\n", r.out);
    Ok(CProgram { text, inputs })
}

impl Routine<'_> {
    /// A statement of a procedure returning `ret` (`return` allowed, also
    /// nested).
    fn stmt_in_proc(&mut self, s: &St, ret: IntTy) -> Result<(), Unsupported> {
        match s {
            St::Return(e) => {
                let x = self.conv(e, ret)?;
                self.line(&format!("return {x};"));
                Ok(())
            }
            St::If(c, a, b) => {
                let c = self.cond(c)?;
                self.line(&format!("if ({c}) {{"));
                self.indent += 1;
                for s in a {
                    self.stmt_in_proc(s, ret)?;
                }
                self.indent -= 1;
                self.line("} else {");
                self.indent += 1;
                for s in b {
                    self.stmt_in_proc(s, ret)?;
                }
                self.indent -= 1;
                self.line("}");
                Ok(())
            }
            St::Loop { body, .. } if contains_return(body) => Err(Unsupported(
                "a `return` inside a loop of a procedure".into(),
            )),
            _ => self.stmt(s),
        }
    }
}

fn contains_return(ss: &[St]) -> bool {
    ss.iter().any(|s| match s {
        St::Return(_) => true,
        St::If(_, a, b) => contains_return(a) || contains_return(b),
        St::Loop { body, .. } => contains_return(body),
        _ => false,
    })
}

#[cfg(test)]
mod tests;
