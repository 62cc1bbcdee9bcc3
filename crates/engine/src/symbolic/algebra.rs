//! The symbolic algebra: values are terms.
//!
//! Each IR type has a sort: `bool` is `Bool`, the unbounded `int` is
//! `Int`, a fixed-width integer type of `w` bits is `Bv(w)` (signedness
//! lives in the operators: signed types use `bvsdiv`, `bvslt`, `bvashr`,
//! sign extension). The term constructors fold constants with
//! `wiser_num`'s operators, so a condition over constants is a constant
//! and needs no decision.

use wiser_ir::{ArrayTy, ScalarTy};
use wiser_num::{BinOp, CmpOp, FloatOp, Int, IntTy, UnOp};
use wiser_semantics::Algebra;
use wiser_smt::{BvOp, BvPred, OvfOp, Scalar, Sort, Term};

use super::SymArray;

/// The sort of values of an IR scalar type.
pub fn sort_of(ty: ScalarTy) -> Sort {
    scalar_of(ty).into()
}

/// The scalar sort of an IR scalar type.
pub fn scalar_of(ty: ScalarTy) -> Scalar {
    match ty {
        ScalarTy::Bool => Scalar::Bool,
        // A float is its bit pattern (see `wiser_num::FloatTy`).
        ScalarTy::Float(t) => Scalar::Bv(t.bits() as u8),
        ScalarTy::Int(t) => match t.width() {
            None => Scalar::Int,
            Some(w) => Scalar::Bv(w as u8),
        },
    }
}

/// The sort of an IR array type.
pub fn array_sort(ty: ArrayTy) -> Sort {
    Sort::Array(scalar_of(ScalarTy::Int(ty.index)), scalar_of(ty.elem))
}

/// The name of the symbol for the `index`-th nondeterministic read of a
/// path (from 0). `#` starts a comment in IMP and is not a C identifier
/// character, so no program variable has it.
pub fn read_symbol(index: u32) -> String {
    format!("read#{}", index + 1)
}

/// The symbolic algebra. Its small integer constants are `Term::int`'s,
/// made once per thread.
pub struct Symbolic;

impl Default for Symbolic {
    fn default() -> Self {
        Symbolic::new()
    }
}

impl Symbolic {
    /// The algebra.
    pub fn new() -> Symbolic {
        Symbolic
    }

    /// The term of a value of type `ty` (for witnesses and tests).
    pub fn constant(&self, ty: IntTy, v: &Int) -> Term {
        match ty.width() {
            None => Term::int(v.clone()),
            Some(w) => Term::bv(w as u8, ty.to_bits(v)),
        }
    }
}

fn bv_op(op: BinOp, signed: bool) -> BvOp {
    match op {
        BinOp::Add => BvOp::Add,
        BinOp::Sub => BvOp::Sub,
        BinOp::Mul => BvOp::Mul,
        BinOp::Div if signed => BvOp::Sdiv,
        BinOp::Div => BvOp::Udiv,
        BinOp::Rem if signed => BvOp::Srem,
        BinOp::Rem => BvOp::Urem,
        BinOp::BitAnd => BvOp::And,
        BinOp::BitOr => BvOp::Or,
        BinOp::BitXor => BvOp::Xor,
        BinOp::Shl => BvOp::Shl,
        BinOp::Shr if signed => BvOp::Ashr,
        BinOp::Shr => BvOp::Lshr,
    }
}

impl Algebra for Symbolic {
    type Value = Term;
    type Array = SymArray;

    fn int(&mut self, ty: IntTy, v: &Int) -> Term {
        self.constant(ty, v)
    }

    fn bool(&mut self, b: bool) -> Term {
        Term::bool(b)
    }

    fn unary(&mut self, op: UnOp, ty: IntTy, a: Term) -> Term {
        match (op, ty.is_unbounded()) {
            (UnOp::Neg, true) => Term::neg(&a),
            (UnOp::Neg, false) => Term::bv_neg(&a),
            (UnOp::BitNot, false) => Term::bv_not(&a),
            // The IR rejects `~` on unbounded integers.
            (UnOp::BitNot, true) => Term::int(0),
        }
    }

    fn binary(&mut self, op: BinOp, ty: IntTy, a: Term, b: Term) -> Term {
        if ty.is_unbounded() {
            return match op {
                BinOp::Add => Term::add(&a, &b),
                BinOp::Sub => Term::sub(&a, &b),
                BinOp::Mul => Term::mul(&a, &b),
                BinOp::Div => Term::div(&a, &b),
                BinOp::Rem => Term::rem(&a, &b),
                // The IR rejects bitwise operators on unbounded integers.
                _ => Term::int(0),
            };
        }
        Term::bv_bin(bv_op(op, ty.is_signed()), &a, &b)
    }

    fn float(&mut self, op: FloatOp, args: &[Term]) -> Term {
        Term::fp(op, args)
    }

    fn compare(&mut self, op: CmpOp, ty: IntTy, a: Term, b: Term) -> Term {
        if ty.is_unbounded() {
            return match op {
                CmpOp::Eq => Term::eq(&a, &b),
                CmpOp::Ne => Term::ne(&a, &b),
                CmpOp::Lt => Term::lt(&a, &b),
                CmpOp::Le => Term::le(&a, &b),
                CmpOp::Gt => Term::gt(&a, &b),
                CmpOp::Ge => Term::ge(&a, &b),
            };
        }
        let (lt, le) = if ty.is_signed() {
            (BvPred::Slt, BvPred::Sle)
        } else {
            (BvPred::Ult, BvPred::Ule)
        };
        match op {
            CmpOp::Eq => Term::bv_eq(&a, &b),
            CmpOp::Ne => Term::not(&Term::bv_eq(&a, &b)),
            CmpOp::Lt => Term::bv_cmp(lt, &a, &b),
            CmpOp::Le => Term::bv_cmp(le, &a, &b),
            CmpOp::Gt => Term::bv_cmp(lt, &b, &a),
            CmpOp::Ge => Term::bv_cmp(le, &b, &a),
        }
    }

    fn cast(&mut self, from: IntTy, to: IntTy, a: Term) -> Term {
        match (from.width(), to.width()) {
            (None, None) => a,
            (None, Some(w)) => Term::int_to_bv(&a, w as u8),
            (Some(_), None) => Term::bv_to_int(&a, from.is_signed()),
            // C: the source's signedness decides sign or zero extension.
            (Some(_), Some(w)) => Term::bv_resize(&a, w as u8, from.is_signed()),
        }
    }

    fn overflows(&mut self, op: BinOp, ty: IntTy, a: Term, b: Term) -> Term {
        if ty.is_unbounded() || !ty.is_signed() {
            return Term::bool(false);
        }
        match op {
            BinOp::Add => Term::signed_overflow(OvfOp::Add, &a, &b),
            BinOp::Sub => Term::signed_overflow(OvfOp::Sub, &a, &b),
            BinOp::Mul => Term::signed_overflow(OvfOp::Mul, &a, &b),
            BinOp::Div | BinOp::Rem => Term::sdiv_overflows(&a, &b),
            BinOp::Shl => Term::shl_overflows(&a, &b),
            _ => Term::bool(false),
        }
    }

    fn neg_overflows(&mut self, ty: IntTy, a: Term) -> Term {
        if ty.is_unbounded() || !ty.is_signed() {
            return Term::bool(false);
        }
        Term::neg_overflows(&a)
    }

    fn not(&mut self, a: Term) -> Term {
        Term::not(&a)
    }

    fn and(&mut self, a: Term, b: Term) -> Term {
        Term::and(&a, &b)
    }

    fn or(&mut self, a: Term, b: Term) -> Term {
        Term::or(&a, &b)
    }

    fn ite(&mut self, _ty: ScalarTy, c: Term, a: Term, b: Term) -> Term {
        Term::ite(&c, &a, &b)
    }

    fn select(&mut self, _ty: ArrayTy, array: &SymArray, index: Term) -> Term {
        array.select(&index)
    }

    fn store(&mut self, _ty: ArrayTy, array: &SymArray, index: Term, value: Term) -> SymArray {
        array.store(&index, &value)
    }

    fn store_in(&mut self, _ty: ArrayTy, array: &mut SymArray, index: Term, value: Term) {
        array.store_in(&index, &value)
    }

    fn const_array(&mut self, ty: ArrayTy, v: &Int) -> SymArray {
        let elem = match ty.elem {
            ScalarTy::Bool => Term::bool(!v.is_zero()),
            ScalarTy::Int(t) => self.constant(t, v),
            ScalarTy::Float(t) => self.constant(t.bits_ty(), v),
        };
        SymArray::new(Term::const_array(array_sort(ty), &elem))
    }

    fn input(&mut self, name: &str, ty: ScalarTy) -> Term {
        Term::var(name, sort_of(ty))
    }

    fn input_array(&mut self, name: &str, ty: ArrayTy) -> SymArray {
        SymArray::new(Term::var(name, array_sort(ty)))
    }

    fn read(&mut self, index: u32, ty: ScalarTy) -> Term {
        Term::var(read_symbol(index), sort_of(ty))
    }

    fn as_bool(&self, v: &Term) -> Option<bool> {
        v.as_bool()
    }

    /// The cells stored at constant indices are looked at one by one; the
    /// array before them may hold anything unless it is an input array
    /// (whose references are input objects, never made by `new`) or a
    /// constant array.
    fn array_may_hold(&self, array: &SymArray, v: &Int) -> bool {
        array.may_hold(v)
    }

    /// Integer constants as themselves, bit-vector constants as their
    /// patterns (enough to tell cells of one array apart).
    fn as_int(&self, v: &Term) -> Option<Int> {
        v.as_int()
            .cloned()
            .or_else(|| v.as_bv().map(|(_, bits)| Int::from_u64(bits)))
    }
}
