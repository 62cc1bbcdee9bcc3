//! IEEE 754 binary floating point: the one definition of every float
//! operation.
//!
//! A float value is its **bit pattern**, held in an [`Int`] as the
//! unsigned integer of [`FloatTy::bits_ty`] (`1.0f32` is `0x3f80_0000`).
//! Everything that stores, copies, compares for identity or prints a value
//! (states, arrays, models, witnesses) therefore handles floats like
//! unsigned integers, and only the operations here read the pattern as a
//! number. The solver sees the same patterns as bit-vectors and converts
//! them to its floating-point sort around each operation, so the concrete
//! interpreter, term folding and model evaluation cannot disagree.
//!
//! Rounding is to nearest, ties to even, as C's default. Rust's `f32` and
//! `f64` compute IEEE 754 results with that rounding; so does Z3's
//! `RNE`. Every operation whose result is a NaN returns the one
//! [`FloatTy::nan`] pattern (positive, quiet, no payload), because SMT-LIB
//! has a single NaN: a NaN's sign and payload are not observable (through a
//! union or a cast of its bits a program sees the canonical pattern, where
//! gcc's code may show another NaN).
//!
//! ```
//! use wiser_num::{FloatTy, FloatOp, FBinOp, Int};
//! let t = FloatTy::F32;
//! let one = t.from_f64(1.0);
//! let tenth = t.from_f64(0.1);
//! let sum = FloatOp::Binary(FBinOp::Add, t).apply(&[one, tenth]);
//! assert_eq!(t.to_f64(&sum), 1.1f32 as f64);
//! ```

use crate::{CmpOp, Int, IntTy};
use num_bigint::BigInt;
use num_traits::{FromPrimitive, ToPrimitive};
use std::fmt;

/// A binary floating-point format.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum FloatTy {
    /// IEEE 754 binary32 (C's `float`).
    F32,
    /// IEEE 754 binary64 (C's `double`).
    F64,
}

/// Binary operations on two floats of one type, giving a float.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum FBinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// C's `fmin`: the smaller, a NaN operand ignored; of two zeros, the
    /// second (C allows either; glibc on x86 gives the second, with SSE's
    /// `minsd` and with the x87 code of `-m32` alike).
    Min,
    /// C's `fmax`: the larger, a NaN operand ignored; of two zeros, the
    /// second, as glibc on x86.
    Max,
}

/// Unary operations on a float, giving a float of the same type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum FUnOp {
    /// `-x` (a NaN stays the canonical NaN).
    Neg,
    /// `fabs`
    Abs,
    /// `sqrt`, correctly rounded.
    Sqrt,
    /// `floor`
    Floor,
    /// `ceil`
    Ceil,
    /// `trunc`
    Trunc,
    /// `round`: to nearest, halfway cases away from zero.
    Round,
    /// `rint`/`nearbyint`: to nearest, ties to even (the default rounding).
    RoundEven,
}

/// Classifications of a float, giving a boolean.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum FClass {
    /// `isnan`
    Nan,
    /// `isinf`
    Infinite,
    /// `x == 0` (either sign).
    Zero,
    /// `isnormal`
    Normal,
    /// A subnormal number.
    Subnormal,
    /// `signbit`: the sign bit is set (`-0.0` included; false for NaN,
    /// whose sign is not observable).
    Negative,
}

/// Every float operation of the IR, with its types. Operands and results
/// are bit patterns for floats, values for integers, and 0 or 1 for
/// booleans.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum FloatOp {
    /// Two floats to a float.
    Binary(FBinOp, FloatTy),
    /// A float to a float.
    Unary(FUnOp, FloatTy),
    /// `fma(a, b, c)`: `a * b + c` rounded once.
    Fma(FloatTy),
    /// Two floats to a boolean, with IEEE's rules: every comparison with a
    /// NaN is false except `!=`, which is true; `-0 == +0`.
    Cmp(CmpOp, FloatTy),
    /// A float to a boolean.
    Class(FClass, FloatTy),
    /// An integer of a type to the nearest float.
    FromInt(IntTy, FloatTy),
    /// A float to an integer type, truncated toward zero. When the
    /// truncated value does not fit (or the float is a NaN or infinite), C
    /// says the behaviour is undefined; the semantics checks
    /// [`FloatOp::ToIntOverflows`] first, and the value here is 0.
    ToInt(FloatTy, IntTy),
    /// Whether [`FloatOp::ToInt`] of the float is undefined.
    ToIntOverflows(FloatTy, IntTy),
    /// A float to the nearest float of another type.
    Convert(FloatTy, FloatTy),
}

/// What an operation gives.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FloatResult {
    /// A float of the type.
    Float(FloatTy),
    /// An integer of the type.
    Int(IntTy),
    /// A boolean.
    Bool,
}

/// What an operand is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FloatOperand {
    /// A float of the type.
    Float(FloatTy),
    /// An integer of the type.
    Int(IntTy),
}

impl FloatTy {
    /// Both types.
    pub const ALL: [FloatTy; 2] = [FloatTy::F32, FloatTy::F64];

    /// The width of a pattern.
    pub fn bits(self) -> u32 {
        match self {
            FloatTy::F32 => 32,
            FloatTy::F64 => 64,
        }
    }

    /// The unsigned type whose values are the patterns.
    pub fn bits_ty(self) -> IntTy {
        match self {
            FloatTy::F32 => IntTy::U32,
            FloatTy::F64 => IntTy::U64,
        }
    }

    /// Bits of the exponent (8, 11).
    pub fn exponent_bits(self) -> u32 {
        match self {
            FloatTy::F32 => 8,
            FloatTy::F64 => 11,
        }
    }

    /// Bits of the significand, the hidden bit included (24, 53), as
    /// SMT-LIB counts them.
    pub fn significand_bits(self) -> u32 {
        match self {
            FloatTy::F32 => 24,
            FloatTy::F64 => 53,
        }
    }

    /// The type's name in the IR and IMP: `f32`, `f64`.
    pub fn name(self) -> &'static str {
        match self {
            FloatTy::F32 => "f32",
            FloatTy::F64 => "f64",
        }
    }

    /// The type named `name` (`f32`, `f64`).
    pub fn from_name(name: &str) -> Option<FloatTy> {
        FloatTy::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The canonical NaN: positive, quiet, no payload.
    pub fn nan(self) -> Int {
        match self {
            FloatTy::F32 => Int::from_u64(0x7fc0_0000),
            FloatTy::F64 => Int::from_u64(0x7ff8_0000_0000_0000),
        }
    }

    /// The pattern of `x` rounded to this type (NaNs canonical).
    pub fn from_f64(self, x: f64) -> Int {
        if x.is_nan() {
            return self.nan();
        }
        match self {
            FloatTy::F32 => Int::from_u64(u64::from((x as f32).to_bits())),
            FloatTy::F64 => Int::from_u64(x.to_bits()),
        }
    }

    /// The number a pattern stands for, exactly (every `f32` is an `f64`).
    pub fn to_f64(self, bits: &Int) -> f64 {
        let b = bits.low_bits(self.bits());
        match self {
            FloatTy::F32 => f64::from(f32::from_bits(b as u32)),
            FloatTy::F64 => f64::from_bits(b),
        }
    }

    /// The shortest decimal that reads back as exactly this value
    /// (`0.1`, `-0`, `inf`, `nan`, `1e-45`), as C's `strtod` and Rust read
    /// it.
    pub fn display(self, bits: &Int) -> String {
        let b = bits.low_bits(self.bits());
        let s = match self {
            FloatTy::F32 => format!("{:?}", f32::from_bits(b as u32)),
            FloatTy::F64 => format!("{:?}", f64::from_bits(b)),
        };
        s.replace("NaN", "nan")
    }

    /// Reads a float written as [`FloatTy::display`] writes it (or any
    /// decimal or `inf`/`nan` Rust reads), rounded to this type.
    pub fn parse(self, s: &str) -> Option<Int> {
        let s = s.trim();
        let x: f64 = match s {
            "nan" | "+nan" | "-nan" | "NaN" => f64::NAN,
            _ => match self {
                FloatTy::F32 => f64::from(s.parse::<f32>().ok()?),
                FloatTy::F64 => s.parse::<f64>().ok()?,
            },
        };
        Some(self.from_f64(x))
    }

    fn pack32(x: f32) -> Int {
        if x.is_nan() {
            FloatTy::F32.nan()
        } else {
            Int::from_u64(u64::from(x.to_bits()))
        }
    }

    fn pack64(x: f64) -> Int {
        if x.is_nan() {
            FloatTy::F64.nan()
        } else {
            Int::from_u64(x.to_bits())
        }
    }

    fn f32(bits: &Int) -> f32 {
        f32::from_bits(bits.low_bits(32) as u32)
    }

    fn f64(bits: &Int) -> f64 {
        f64::from_bits(bits.low_bits(64))
    }

    /// The integer `v` of type `from` rounded to this type.
    fn round_int(self, v: &Int) -> Int {
        // Rust's integer-to-float conversions round to nearest, ties to
        // even; so does `BigInt`'s (for values beyond 64 bits).
        match (self, v.to_i64()) {
            (FloatTy::F32, Some(i)) => FloatTy::pack32(i as f32),
            (FloatTy::F64, Some(i)) => FloatTy::pack64(i as f64),
            (FloatTy::F32, None) => {
                FloatTy::pack32(v.to_bigint().to_f32().unwrap_or(f32::INFINITY))
            }
            (FloatTy::F64, None) => {
                FloatTy::pack64(v.to_bigint().to_f64().unwrap_or(f64::INFINITY))
            }
        }
    }

    /// The float truncated toward zero, when it is finite and fits `to`.
    fn to_int(self, to: IntTy, bits: &Int) -> Option<Int> {
        let x = self.to_f64(bits);
        if !x.is_finite() {
            return None;
        }
        let t = BigInt::from_f64(x.trunc())?;
        let v = Int::from(t);
        to.contains(&v).then_some(v)
    }
}

impl fmt::Display for FloatTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FBinOp {
    /// The operator as written in C and IMP (`fmin`/`fmax` by name).
    pub fn symbol(self) -> &'static str {
        match self {
            FBinOp::Add => "+",
            FBinOp::Sub => "-",
            FBinOp::Mul => "*",
            FBinOp::Div => "/",
            FBinOp::Min => "fmin",
            FBinOp::Max => "fmax",
        }
    }
}

impl FUnOp {
    /// The operator's name (`-` for negation, else C's function).
    pub fn symbol(self) -> &'static str {
        match self {
            FUnOp::Neg => "-",
            FUnOp::Abs => "fabs",
            FUnOp::Sqrt => "sqrt",
            FUnOp::Floor => "floor",
            FUnOp::Ceil => "ceil",
            FUnOp::Trunc => "trunc",
            FUnOp::Round => "round",
            FUnOp::RoundEven => "rint",
        }
    }
}

impl FClass {
    /// C's name of the classification.
    pub fn symbol(self) -> &'static str {
        match self {
            FClass::Nan => "isnan",
            FClass::Infinite => "isinf",
            FClass::Zero => "iszero",
            FClass::Normal => "isnormal",
            FClass::Subnormal => "issubnormal",
            FClass::Negative => "signbit",
        }
    }
}

/// `fmin`/`fmax` on numbers that are not both NaN.
fn min_max(min: bool, a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == 0.0 && b == 0.0 {
        // Equal: the second, as glibc on x86 gives it.
        return b;
    }
    if (a < b) == min {
        a
    } else {
        b
    }
}

macro_rules! unary_on {
    ($op:expr, $x:expr) => {
        match $op {
            FUnOp::Neg => -$x,
            FUnOp::Abs => $x.abs(),
            FUnOp::Sqrt => $x.sqrt(),
            FUnOp::Floor => $x.floor(),
            FUnOp::Ceil => $x.ceil(),
            FUnOp::Trunc => $x.trunc(),
            FUnOp::Round => $x.round(),
            FUnOp::RoundEven => $x.round_ties_even(),
        }
    };
}

macro_rules! binary_on {
    ($op:expr, $a:expr, $b:expr) => {
        match $op {
            FBinOp::Add => $a + $b,
            FBinOp::Sub => $a - $b,
            FBinOp::Mul => $a * $b,
            FBinOp::Div => $a / $b,
            // Exact in either type: the result is one of the operands.
            FBinOp::Min => min_max(true, $a.into(), $b.into()) as _,
            FBinOp::Max => min_max(false, $a.into(), $b.into()) as _,
        }
    };
}

impl FloatOp {
    /// The operands it pops, in order.
    pub fn operands(self) -> Vec<FloatOperand> {
        use FloatOperand as O;
        match self {
            FloatOp::Binary(_, t) | FloatOp::Cmp(_, t) => vec![O::Float(t), O::Float(t)],
            FloatOp::Unary(_, t) | FloatOp::Class(_, t) => vec![O::Float(t)],
            FloatOp::Fma(t) => vec![O::Float(t); 3],
            FloatOp::FromInt(i, _) => vec![O::Int(i)],
            FloatOp::ToInt(t, _) | FloatOp::ToIntOverflows(t, _) | FloatOp::Convert(t, _) => {
                vec![O::Float(t)]
            }
        }
    }

    /// How many operands it pops.
    pub fn arity(self) -> usize {
        match self {
            FloatOp::Binary(..) | FloatOp::Cmp(..) => 2,
            FloatOp::Fma(_) => 3,
            _ => 1,
        }
    }

    /// What it pushes.
    pub fn result(self) -> FloatResult {
        match self {
            FloatOp::Binary(_, t) | FloatOp::Unary(_, t) | FloatOp::Fma(t) => FloatResult::Float(t),
            FloatOp::FromInt(_, t) | FloatOp::Convert(_, t) => FloatResult::Float(t),
            FloatOp::Cmp(..) | FloatOp::Class(..) | FloatOp::ToIntOverflows(..) => {
                FloatResult::Bool
            }
            FloatOp::ToInt(_, i) => FloatResult::Int(i),
        }
    }

    /// The operation on values: `args` holds [`FloatOp::arity`] operands
    /// (patterns for floats). Total: see [`FloatOp::ToInt`].
    pub fn apply(self, args: &[Int]) -> Int {
        let b = |x: bool| Int::from(i64::from(x));
        match self {
            FloatOp::Binary(op, FloatTy::F32) => {
                let (x, y) = (FloatTy::f32(&args[0]), FloatTy::f32(&args[1]));
                FloatTy::pack32(binary_on!(op, x, y))
            }
            FloatOp::Binary(op, FloatTy::F64) => {
                let (x, y) = (FloatTy::f64(&args[0]), FloatTy::f64(&args[1]));
                FloatTy::pack64(binary_on!(op, x, y))
            }
            FloatOp::Unary(op, FloatTy::F32) => {
                let x = FloatTy::f32(&args[0]);
                FloatTy::pack32(unary_on!(op, x))
            }
            FloatOp::Unary(op, FloatTy::F64) => {
                let x = FloatTy::f64(&args[0]);
                FloatTy::pack64(unary_on!(op, x))
            }
            FloatOp::Fma(FloatTy::F32) => {
                let (x, y, z) = (
                    FloatTy::f32(&args[0]),
                    FloatTy::f32(&args[1]),
                    FloatTy::f32(&args[2]),
                );
                FloatTy::pack32(x.mul_add(y, z))
            }
            FloatOp::Fma(FloatTy::F64) => {
                let (x, y, z) = (
                    FloatTy::f64(&args[0]),
                    FloatTy::f64(&args[1]),
                    FloatTy::f64(&args[2]),
                );
                FloatTy::pack64(x.mul_add(y, z))
            }
            FloatOp::Cmp(op, t) => {
                // Both types compare exactly as f64.
                let (x, y) = (t.to_f64(&args[0]), t.to_f64(&args[1]));
                b(match x.partial_cmp(&y) {
                    None => op == CmpOp::Ne,
                    Some(ord) => op.holds(ord),
                })
            }
            FloatOp::Class(c, t) => {
                let x = t.to_f64(&args[0]);
                let sub = match t {
                    FloatTy::F32 => (x as f32).is_subnormal(),
                    FloatTy::F64 => x.is_subnormal(),
                };
                b(match c {
                    FClass::Nan => x.is_nan(),
                    FClass::Infinite => x.is_infinite(),
                    FClass::Zero => x == 0.0,
                    FClass::Normal => x.is_finite() && x != 0.0 && !sub,
                    FClass::Subnormal => sub,
                    FClass::Negative => !x.is_nan() && x.is_sign_negative(),
                })
            }
            FloatOp::FromInt(from, t) => t.round_int(&from.wrap(&args[0])),
            FloatOp::ToInt(t, to) => t.to_int(to, &args[0]).unwrap_or(Int::ZERO),
            FloatOp::ToIntOverflows(t, to) => b(t.to_int(to, &args[0]).is_none()),
            FloatOp::Convert(from, to) => to.from_f64(from.to_f64(&args[0])),
        }
    }
}

impl fmt::Display for FloatOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FloatOp::Binary(op, t) => write!(f, "{}.{t}", op.symbol()),
            FloatOp::Unary(op, t) => write!(f, "{}.{t}", op.symbol()),
            FloatOp::Fma(t) => write!(f, "fma.{t}"),
            FloatOp::Cmp(op, t) => write!(f, "{}.{t}", op.symbol()),
            FloatOp::Class(c, t) => write!(f, "{}.{t}", c.symbol()),
            FloatOp::FromInt(i, t) => write!(f, "({t}){i}"),
            FloatOp::ToInt(t, i) => write!(f, "({i}){t}"),
            FloatOp::ToIntOverflows(t, i) => write!(f, "overflows({i}){t}"),
            FloatOp::Convert(a, b) => write!(f, "({b}){a}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32v(x: f32) -> Int {
        Int::from_u64(u64::from(x.to_bits()))
    }

    #[test]
    fn arithmetic_rounds_in_the_type() {
        let t = FloatTy::F32;
        let s = FloatOp::Binary(FBinOp::Add, t).apply(&[f32v(0.1), f32v(0.2)]);
        assert_eq!(s, f32v(0.1f32 + 0.2f32));
        assert_ne!(t.to_f64(&s), 0.1f64 + 0.2f64);
    }

    #[test]
    fn nan_is_canonical_and_compares_unequal() {
        let t = FloatTy::F64;
        let z = t.from_f64(0.0);
        let nan = FloatOp::Binary(FBinOp::Div, t).apply(&[z.clone(), z.clone()]);
        assert_eq!(nan, t.nan());
        let neg = FloatOp::Unary(FUnOp::Neg, t).apply(std::slice::from_ref(&nan));
        assert_eq!(neg, t.nan());
        let eq = FloatOp::Cmp(CmpOp::Eq, t).apply(&[nan.clone(), nan.clone()]);
        let ne = FloatOp::Cmp(CmpOp::Ne, t).apply(&[nan.clone(), nan]);
        assert_eq!((eq, ne), (Int::ZERO, Int::ONE));
    }

    #[test]
    fn zeros_are_equal_but_signbit_tells_them_apart() {
        let t = FloatTy::F32;
        let (p, n) = (f32v(0.0), f32v(-0.0));
        assert_eq!(
            FloatOp::Cmp(CmpOp::Eq, t).apply(&[p.clone(), n.clone()]),
            Int::ONE
        );
        let sb = |v: &Int| FloatOp::Class(FClass::Negative, t).apply(std::slice::from_ref(v));
        assert_eq!((sb(&p), sb(&n)), (Int::ZERO, Int::ONE));
        let min = FloatOp::Binary(FBinOp::Min, t).apply(&[p.clone(), n.clone()]);
        let max = FloatOp::Binary(FBinOp::Max, t).apply(&[n.clone(), p.clone()]);
        assert_eq!((min, max), (n.clone(), p.clone()));
        let min = FloatOp::Binary(FBinOp::Min, t).apply(&[n.clone(), p.clone()]);
        let max = FloatOp::Binary(FBinOp::Max, t).apply(&[p.clone(), n.clone()]);
        assert_eq!((min, max), (p, n));
    }

    #[test]
    fn conversions_to_int_truncate_and_report_what_does_not_fit() {
        let t = FloatTy::F64;
        let to = |x: f64| FloatOp::ToInt(t, IntTy::I32).apply(&[t.from_f64(x)]);
        let over = |x: f64| FloatOp::ToIntOverflows(t, IntTy::I32).apply(&[t.from_f64(x)]);
        assert_eq!(to(-2.9), Int::from(-2));
        assert_eq!(to(2147483647.9), Int::from(2147483647));
        assert_eq!(over(2147483647.9), Int::ZERO);
        assert_eq!(over(2147483648.0), Int::ONE);
        assert_eq!(over(-2147483648.9), Int::ZERO);
        assert_eq!(over(f64::NAN), Int::ONE);
        assert_eq!(over(f64::INFINITY), Int::ONE);
        let u = |x: f64| FloatOp::ToIntOverflows(t, IntTy::U8).apply(&[t.from_f64(x)]);
        assert_eq!(
            (u(-0.9), u(-1.0), u(255.5), u(256.0)),
            (Int::ZERO, Int::ONE, Int::ZERO, Int::ONE)
        );
    }

    #[test]
    fn conversions_from_int_round_to_nearest_even() {
        let v = FloatOp::FromInt(IntTy::I32, FloatTy::F32).apply(&[Int::from(16777217)]);
        assert_eq!(FloatTy::F32.to_f64(&v), 16777216.0);
        let v = FloatOp::FromInt(IntTy::U64, FloatTy::F64).apply(&[Int::from_u64(u64::MAX)]);
        assert_eq!(FloatTy::F64.to_f64(&v), 18446744073709551616.0);
        let big = Int::from_u64(u64::MAX).mul(&Int::from(4));
        let v = FloatOp::FromInt(IntTy::INT, FloatTy::F64).apply(&[big]);
        assert_eq!(FloatTy::F64.to_f64(&v), 4.0 * 18446744073709551616.0);
    }

    #[test]
    fn double_to_float_rounds_and_overflows_to_infinity() {
        let c = FloatOp::Convert(FloatTy::F64, FloatTy::F32);
        let v = c.apply(&[FloatTy::F64.from_f64(1e300)]);
        assert_eq!(FloatTy::F32.to_f64(&v), f64::INFINITY);
        let v = c.apply(&[FloatTy::F64.from_f64(0.1)]);
        assert_eq!(v, f32v(0.1));
    }

    #[test]
    fn display_reads_back_exactly() {
        for t in FloatTy::ALL {
            for x in [0.1, -0.0, 1e-45, 3.4e38, f64::INFINITY, 5e-324, 1.0 / 3.0] {
                let v = t.from_f64(x);
                assert_eq!(t.parse(&t.display(&v)), Some(v.clone()), "{x}");
            }
            assert_eq!(t.display(&t.nan()), "nan");
        }
    }

    #[test]
    fn rounding_functions_follow_c() {
        let t = FloatTy::F64;
        let r = |op, x: f64| t.to_f64(&FloatOp::Unary(op, t).apply(&[t.from_f64(x)]));
        assert_eq!(r(FUnOp::Round, 2.5), 3.0);
        assert_eq!(r(FUnOp::RoundEven, 2.5), 2.0);
        assert_eq!(r(FUnOp::Round, -2.5), -3.0);
        assert_eq!(r(FUnOp::Floor, -0.5), -1.0);
        assert_eq!(r(FUnOp::Ceil, -0.5), -0.0);
        assert!(r(FUnOp::Sqrt, -1.0).is_nan());
    }
}
