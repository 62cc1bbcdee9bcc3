//! Printing terms for people, in IMP-like syntax: `i + 1 <= n` rather than
//! `(<= (+ i 1 (* -1 n)) 0)`. Bit-vector terms print in a C-like infix
//! syntax with C's precedences: `x + 1`, `(a & b) == 0`, `a >>s 3` (the
//! `s` marks the signed operators: `/s %s >>s <s <=s`), with constants
//! shown as signed numbers under signed operators and unsigned otherwise.
//! Float operations print as calls (`fp.add32(x, 1.5)`, `fp.lt64(a, b)`,
//! `fp.f64_to_i32(d)`; see [`crate::fp`]), their constant float operands
//! as decimals.
//!
//! Terms are DAGs: a merged path condition shares its subterms, and its
//! tree can be exponentially larger than the term. Printing never walks
//! the tree: a small term (at most [`PLAIN_NODES`] nodes as a tree) prints
//! in full; in a larger one each subterm used more than once and of at
//! least [`MIN_SHARED`] nodes is printed once, under a name `$1`, `$2`, …,
//! defined after the text (`s != 45 where $1 = …; $2 = …`, see
//! [`SharedPrinter`]). Whatever the term, the text is cut at
//! [`MAX_TEXT`] bytes (ending in `…`), and subterms nested deeper than a
//! limit are elided (`…`), so that printing never recurses without bound.

use crate::term::{BvOp, BvPred, Kind, OvfOp, Term};
use rustc_hash::FxHashMap;
use std::fmt::{self, Write};
use wiser_num::{bv, FloatOp, FloatOperand, Int};

const MAX_PRINT_DEPTH: u32 = 200;

/// Terms (all printed together) of at most this many nodes as trees
/// print in full, without names.
pub const PLAIN_NODES: u64 = 4096;

/// In a larger term, a subterm used more than once is named when its
/// text has at least this many nodes (names and constants count one).
pub const MIN_SHARED: u64 = 10;

/// The most bytes a printed term (with its definitions) may take; past
/// this, printing stops with `…`.
pub const MAX_TEXT: usize = 64 * 1024;

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = SharedPrinter::new(std::slice::from_ref(self));
        let text = p.text(self);
        f.write_str(&text)?;
        f.write_str(&p.definitions())
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Prints terms that belong together (the conjuncts of a path
/// condition) with their shared subterms named once across all of them
/// (see the module documentation): [`SharedPrinter::text`] for each term,
/// then [`SharedPrinter::definitions`] for the names used.
pub struct SharedPrinter {
    /// The named subterms, by address: their number once printed (0:
    /// not yet printed).
    names: FxHashMap<usize, u32>,
    /// Named subterms printed by name, in the order of their numbers.
    pending: Vec<Term>,
    /// How many of `pending` have their definitions written.
    defined: usize,
    /// Bytes printed so far, definitions included.
    printed: usize,
    /// The terms, kept alive while their subterms' addresses key `names`.
    _terms: Vec<Term>,
}

impl SharedPrinter {
    /// A printer for `terms` and their subterms.
    pub fn new(terms: &[Term]) -> SharedPrinter {
        let tree = terms
            .iter()
            .fold(0u64, |n, t| n.saturating_add(u64::from(t.tree_size())));
        let names = if tree <= PLAIN_NODES {
            FxHashMap::default()
        } else {
            shared_subterms(terms)
        };
        SharedPrinter {
            names,
            pending: Vec::new(),
            defined: 0,
            printed: 0,
            _terms: terms.to_vec(),
        }
    }

    /// `t` as text (named subterms by their names).
    pub fn text(&mut self, t: &Term) -> String {
        let mut w = Writer {
            out: String::new(),
            names: &mut self.names,
            pending: &mut self.pending,
            room: MAX_TEXT.saturating_sub(self.printed),
        };
        // Writing to a `String` cannot fail.
        let _ = w.term(t, 0, false, 0);
        let out = w.finish();
        self.printed += out.len();
        out
    }

    /// Has the text reached [`MAX_TEXT`] bytes (so that more is cut)?
    pub fn is_full(&self) -> bool {
        self.printed >= MAX_TEXT
    }

    /// The definitions of the names the texts so far used, and of those
    /// the definitions use, not written before: ` where $1 = …; $2 = …`,
    /// or nothing when no name was used.
    pub fn definitions(&mut self) -> String {
        let mut out = String::new();
        while self.defined < self.pending.len() {
            let t = self.pending[self.defined].clone();
            let n = self.names[&t.addr()];
            let sep = if self.defined == 0 { " where " } else { "; " };
            let mut w = Writer {
                out: format!("{sep}${n} = "),
                names: &mut self.names,
                pending: &mut self.pending,
                room: MAX_TEXT.saturating_sub(self.printed),
            };
            let _ = w.node(&t, 0, false, 0);
            let def = w.finish();
            self.printed += def.len();
            out.push_str(&def);
            self.defined += 1;
            if self.is_full() {
                break;
            }
        }
        out
    }
}

/// The subterms of `terms` to print by name: used more than once (as
/// the printer reaches them) and of at least [`MIN_SHARED`] nodes as
/// printed. One walk of the DAG, children before parents; no recursion.
fn shared_subterms(terms: &[Term]) -> FxHashMap<usize, u32> {
    let mut uses: FxHashMap<usize, u32> = FxHashMap::default();
    let mut order: Vec<Term> = Vec::new();
    let mut stack: Vec<(Term, bool)> = Vec::new();
    for t in terms {
        *uses.entry(t.addr()).or_default() += 1;
        stack.push((t.clone(), false));
    }
    let mut expanded = rustc_hash::FxHashSet::default();
    while let Some((t, done)) = stack.pop() {
        if done {
            order.push(t);
            continue;
        }
        if !expanded.insert(t.addr()) {
            continue;
        }
        let children = printed_children(&t);
        stack.push((t, true));
        for c in children {
            *uses.entry(c.addr()).or_default() += 1;
            stack.push((c, false));
        }
    }
    let mut size: FxHashMap<usize, u64> = FxHashMap::default();
    let mut names = FxHashMap::default();
    for t in &order {
        let mut n = 1u64;
        for c in printed_children(t) {
            let k = if names.contains_key(&c.addr()) {
                1
            } else {
                size.get(&c.addr()).copied().unwrap_or(1)
            };
            n = n.saturating_add(k);
        }
        size.insert(t.addr(), n);
        if n >= MIN_SHARED && uses.get(&t.addr()).is_some_and(|&u| u > 1) {
            names.insert(t.addr(), 0);
        }
    }
    names
}

/// The subterms the printer writes for `t`, in order: a comparison's
/// linear side is written monomial by monomial, never as a whole.
fn printed_children(t: &Term) -> Vec<Term> {
    let monomials = |lin: &Term| -> Vec<Term> {
        crate::build::linear(lin)
            .0
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    };
    match t.kind() {
        Kind::Le(lin) | Kind::Eq(lin) => monomials(lin),
        Kind::Not(x) => match x.kind() {
            Kind::Eq(lin) => monomials(lin),
            Kind::BvEq(a, b) => vec![a.clone(), b.clone()],
            _ => vec![x.clone()],
        },
        _ => t.children().into_iter().cloned().collect(),
    }
}

/// One text being written.
struct Writer<'p> {
    out: String,
    names: &'p mut FxHashMap<usize, u32>,
    pending: &'p mut Vec<Term>,
    /// Bytes left before the text is cut.
    room: usize,
}

impl Writer<'_> {
    /// The text, cut with `…` if it ran out of room.
    fn finish(mut self) -> String {
        if self.out.len() > self.room {
            let mut end = self.room;
            while !self.out.is_char_boundary(end) {
                end -= 1;
            }
            self.out.truncate(end);
            self.out.push('…');
        }
        self.out
    }
}

// Precedences, C's order: 1 or, 2 and, 3 not, 4 |, 5 ^, 6 &,
// 7 comparison, 8 shifts, 9 + -, 10 * / %, 11 unary, 12 atom.
const CMP: u8 = 7;
const UNARY: u8 = 11;

impl Writer<'_> {
    /// Writes `t` where the context binds with precedence `parent`;
    /// `signed` says whether a bit-vector constant there reads as a
    /// signed number. A named subterm is written as its name.
    fn term(&mut self, t: &Term, parent: u8, signed: bool, depth: u32) -> fmt::Result {
        if self.out.len() > self.room {
            return Ok(());
        }
        if let Some(n) = self.names.get_mut(&t.addr()) {
            if *n == 0 {
                *n = self.pending.len() as u32 + 1;
                self.pending.push(t.clone());
            }
            return write!(self.out, "${n}");
        }
        self.node(t, parent, signed, depth)
    }

    /// Writes `t` itself (see [`Writer::term`]), even if it is named.
    fn node(&mut self, t: &Term, parent: u8, signed: bool, depth: u32) -> fmt::Result {
        if depth > MAX_PRINT_DEPTH {
            self.out.push('…');
            return Ok(());
        }
        let d = depth + 1;
        let prec = precedence(t, signed);
        let paren = prec < parent;
        if paren {
            self.out.push('(');
        }
        match t.kind() {
            Kind::Int(n) => write!(self.out, "{n}")?,
            Kind::Bool(b) => write!(self.out, "{b}")?,
            Kind::Var(name, _) => self.out.push_str(name),
            Kind::Linear(ms, c) => self.sum(ms, c, d)?,
            Kind::Mul(a, b) => self.binary(a, " * ", b, 10, false, d)?,
            Kind::Div(a, b) => self.binary(a, " / ", b, 10, false, d)?,
            Kind::Rem(a, b) => self.binary(a, " % ", b, 10, false, d)?,
            // IMP's `if` read as an expression, in parentheses of its own.
            Kind::Ite(c, a, b) => {
                self.out.push_str("(if ");
                self.term(c, 0, false, d)?;
                self.out.push_str(" then ");
                self.term(a, 0, signed, d)?;
                self.out.push_str(" else ");
                self.term(b, 0, signed, d)?;
                self.out.push(')');
            }
            Kind::Select(a, i) => {
                self.term(a, 12, false, d)?;
                self.out.push('[');
                self.term(i, 0, false, d)?;
                self.out.push(']');
            }
            Kind::ConstArray(_, v) => {
                self.out.push_str("const(");
                self.term(v, 0, false, d)?;
                self.out.push(')');
            }
            Kind::Store(a, i, v) => {
                self.term(a, 12, false, d)?;
                self.out.push('{');
                self.term(i, 0, false, d)?;
                self.out.push_str(" := ");
                self.term(v, 0, false, d)?;
                self.out.push('}');
            }
            Kind::Le(lin) => self.comparison(lin, "<=", d)?,
            Kind::Eq(lin) => self.comparison(lin, "==", d)?,
            Kind::Not(x) => match x.kind() {
                Kind::Eq(lin) => self.comparison(lin, "!=", d)?,
                Kind::BvEq(a, b) => self.binary(a, " != ", b, CMP, false, d)?,
                _ => {
                    self.out.push_str("not ");
                    self.term(x, 4, false, d)?;
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
                        self.out.push_str(sep);
                    }
                    self.term(x, prec + 1, false, d)?;
                }
            }
            Kind::Bv { width, bits } => {
                let w = u32::from(*width);
                if signed {
                    write!(self.out, "{}", bv::to_signed(w, *bits))?
                } else {
                    write!(self.out, "{bits}")?
                }
            }
            Kind::BvBin(BvOp::Add, a, b) if b.as_bv().is_some_and(|(w, c)| negative(w, c)) => {
                // x + 255 on 8 bits is x - 1.
                let (w, c) = b.as_bv().expect("a constant");
                self.term(a, 9, false, d)?;
                write!(self.out, " - {}", bv::neg(u32::from(w), c))?;
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
                self.term(a, bracket(a, p), signed, d)?;
                self.out.push_str(sym);
                // The shift amount reads as unsigned even in `>>s`.
                let signed = signed && *op != BvOp::Ashr;
                self.term(b, bracket(b, p + 1), signed, d)?;
            }
            Kind::BvNeg(a) => {
                self.out.push('-');
                self.term(a, UNARY, false, d)?;
            }
            Kind::BvNot(a) => {
                self.out.push('~');
                self.term(a, UNARY, false, d)?;
            }
            Kind::BvCmp(p, a, b) => {
                let sym = match p {
                    BvPred::Ult => " < ",
                    BvPred::Ule => " <= ",
                    BvPred::Slt => " <s ",
                    BvPred::Sle => " <=s ",
                };
                self.binary(a, sym, b, CMP, p.is_signed(), d)?
            }
            Kind::BvEq(a, b) => self.binary(a, " == ", b, CMP, false, d)?,
            Kind::Extend {
                signed: s,
                width,
                t: a,
            } => {
                let name = if *s { "sext" } else { "zext" };
                self.call(format_args!("{name}{width}"), a, *s, d)?;
            }
            Kind::Extract { width, t: a } => {
                self.call(format_args!("trunc{width}"), a, false, d)?
            }
            Kind::BvToInt { signed: s, t: a } => {
                self.call(if *s { "sint" } else { "uint" }, a, *s, d)?;
            }
            Kind::IntToBv { width, t: a } => self.call(format_args!("bv{width}"), a, false, d)?,
            Kind::SOvf(op, a, b) => {
                let sym = match op {
                    OvfOp::Add => " + ",
                    OvfOp::Sub => " - ",
                    OvfOp::Mul => " * ",
                };
                self.out.push_str("ovf(");
                self.binary(a, sym, b, if *op == OvfOp::Mul { 10 } else { 9 }, true, d)?;
                self.out.push(')');
            }
            Kind::Fp(op, xs) => self.float(*op, xs, d)?,
        }
        if paren {
            self.out.push(')');
        }
        Ok(())
    }
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

impl Writer<'_> {
    /// `name(a)`: an operator written as a call of one operand.
    fn call(&mut self, name: impl fmt::Display, a: &Term, signed: bool, d: u32) -> fmt::Result {
        write!(self.out, "{name}(")?;
        self.term(a, 0, signed, d)?;
        self.out.push(')');
        Ok(())
    }

    /// A float operation as a call, `fp.add32(x, 1.5)`: constant float
    /// operands as decimals, constant integers signed or not as their type.
    fn float(&mut self, op: FloatOp, xs: &[Term], d: u32) -> fmt::Result {
        write!(self.out, "{}(", crate::fp::name(op))?;
        for (i, (x, o)) in xs.iter().zip(op.operands()).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match (o, x.as_bv()) {
                (FloatOperand::Float(t), Some((_, bits))) => {
                    self.out.push_str(&t.display(&Int::from_u64(bits)))
                }
                (FloatOperand::Int(i), _) => self.term(x, 0, i.is_signed(), d)?,
                _ => self.term(x, 0, false, d)?,
            }
        }
        self.out.push(')');
        Ok(())
    }

    fn binary(
        &mut self,
        a: &Term,
        op: &str,
        b: &Term,
        prec: u8,
        signed: bool,
        d: u32,
    ) -> fmt::Result {
        self.term(a, prec, signed, d)?;
        self.out.push_str(op);
        self.term(b, prec + 1, signed, d)
    }

    /// Writes `c + Σ kᵢ·tᵢ` as `k1*t1 + t2 - t3 - 4`.
    fn sum(&mut self, ms: &[(Term, Int)], c: &Int, d: u32) -> fmt::Result {
        let mut first = true;
        for (t, k) in ms {
            let neg = k.is_negative();
            let abs = k.abs();
            if first {
                if neg {
                    self.out.push('-');
                }
            } else {
                self.out.push_str(if neg { " - " } else { " + " });
            }
            if abs != Int::ONE {
                write!(self.out, "{abs}*")?;
                self.term(t, UNARY, false, d)?;
            } else {
                self.term(t, 10, false, d)?;
            }
            first = false;
        }
        if !c.is_zero() || first {
            if first {
                write!(self.out, "{c}")?;
            } else if c.is_negative() {
                write!(self.out, " - {}", c.abs())?;
            } else {
                write!(self.out, " + {c}")?;
            }
        }
        Ok(())
    }

    /// Writes `lin op 0` with positive monomials on the left and negative ones
    /// moved to the right: `x - n + 1 <= 0` prints as `x + 1 <= n`, then as
    /// `x < n`.
    fn comparison(&mut self, lin: &Term, op: &str, d: u32) -> fmt::Result {
        let (ms, c) = crate::build::linear(lin);
        let (pos, neg): (Vec<_>, Vec<_>) = ms.into_iter().partition(|(_, k)| !k.is_negative());
        let neg: Vec<_> = neg.into_iter().map(|(t, k)| (t, k.neg())).collect();
        // With monomials on one side only, the constant goes to the other:
        // `x - 5 <= 0` prints as `x <= 5`, `-x - 2 <= 0` as `x >= -2`.
        if pos.is_empty() {
            let flipped = if op == "<=" { ">=" } else { op };
            self.sum(&neg, &Int::ZERO, d)?;
            return write!(self.out, " {flipped} {c}");
        }
        if neg.is_empty() {
            self.sum(&pos, &Int::ZERO, d)?;
            return write!(self.out, " {op} {}", c.neg());
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
        self.sum(&pos, &lc, d)?;
        write!(self.out, " {op} ")?;
        self.sum(&neg, &rc, d)
    }
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

    /// `s` after `n` rounds of `s = if v_i > 0 then s + 1 else s + 2`
    /// merged: a DAG of `3n` nodes whose tree has `2^n` leaves.
    fn merged_sum(n: u32) -> Term {
        let mut s = Term::int(0);
        for i in 1..=n {
            let v = Term::int_var(format!("v{i}"));
            let c = Term::lt(&Term::int(0), &v);
            let one = Term::add(&s, &Term::int(1));
            let two = Term::add(&s, &Term::int(2));
            s = Term::ite(&c, &one, &two);
        }
        s
    }

    #[test]
    fn shared_subterms_are_named_once() {
        let s = merged_sum(40);
        let text = Term::ne(&s, &Term::int(45)).to_string();
        assert!(text.len() < 10_000, "{} bytes", text.len());
        assert!(text.contains(" where $1 = (if "), "{text}");
        // Each name is defined once, and every name used is defined.
        let defined = text.matches(" = (if ").count();
        for k in 1..=defined {
            assert_eq!(text.matches(&format!("${k} = ")).count(), 1, "{text}");
        }
        assert!(!text.contains(&format!("${}", defined + 1)), "{text}");
        // Small terms print in full, as before.
        let small = merged_sum(3).to_string();
        assert!(!small.contains('$'), "{small}");
        assert!(
            small.starts_with("(if v3 >= 1 then (if v2 >= 1 then"),
            "{small}"
        );
    }

    #[test]
    fn conjuncts_share_their_names() {
        let s = merged_sum(30);
        let terms = [Term::ne(&s, &Term::int(45)), Term::le(&s, &Term::int(50))];
        let mut p = SharedPrinter::new(&terms);
        let a = p.text(&terms[0]);
        let b = p.text(&terms[1]);
        let defs = p.definitions();
        assert!(a.contains("$1") && b.contains("$1"), "{a} / {b}");
        assert_eq!(defs.matches("$1 = ").count(), 1, "{defs}");
        assert!(
            p.definitions().is_empty(),
            "each definition is written once"
        );
    }

    #[test]
    fn long_texts_are_cut() {
        // 20,000 distinct conjuncts: nothing to share, too much to print.
        let xs: Vec<Term> = (0..20_000)
            .map(|i| Term::lt(&Term::int_var(format!("x{i}")), &Term::int(i)))
            .collect();
        let text = Term::and_all(xs).to_string();
        assert!(text.len() <= MAX_TEXT + '…'.len_utf8(), "{}", text.len());
        assert!(text.ends_with('…'));
    }
}
