//! C's arithmetic types under a data model, and the conversion rules of
//! C11 §6.3: integer promotions and the usual arithmetic conversions.
//! Every rule is written here once; lowering only asks.
//!
//! The real floating types ride on the same [`CInt`] (an *arithmetic*
//! type: the name stayed from when C had only integers here), with ranks
//! above every integer rank, as the usual arithmetic conversions order
//! them. `float` is IEEE binary32 and `double` binary64, as gcc has them
//! on x86 with SSE; `long double` is computed as binary64 too (gcc's is
//! x87's 80-bit format: docs/C.md says where that differs), with gcc's
//! size and alignment.

use crate::DataModel;
use wiser_ir::ScalarTy;
use wiser_num::{FloatTy, IntTy};

/// The integer kinds of C, in order of conversion rank (C11 §6.3.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// `_Bool`.
    Bool,
    /// `char`, `signed char`, `unsigned char`.
    Char,
    /// `short`.
    Short,
    /// `int` (and enumerations).
    Int,
    /// `long`.
    Long,
    /// `long long`.
    LongLong,
    /// `float` (a real floating type: above every integer rank).
    Float,
    /// `double`.
    Double,
    /// `long double`.
    LongDouble,
}

/// A C integer type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CInt {
    /// Its rank.
    pub rank: Rank,
    /// Is it signed? (`_Bool` is unsigned; plain `char` is signed, as on
    /// gcc for x86.)
    pub signed: bool,
}

impl CInt {
    /// The type of `rank`, signed or not.
    pub const fn new(rank: Rank, signed: bool) -> CInt {
        CInt { rank, signed }
    }

    /// `int`.
    pub const INT: CInt = CInt::new(Rank::Int, true);
    /// `unsigned int`.
    pub const UINT: CInt = CInt::new(Rank::Int, false);
    /// `_Bool`.
    pub const BOOL: CInt = CInt::new(Rank::Bool, false);
    /// `unsigned long` (`size_t` on both data models).
    pub const ULONG: CInt = CInt::new(Rank::Long, false);
    /// `float`.
    pub const FLOAT: CInt = CInt::new(Rank::Float, true);
    /// `double`.
    pub const DOUBLE: CInt = CInt::new(Rank::Double, true);

    /// The IEEE format of a real floating type; `None` for integers.
    pub fn float(self) -> Option<FloatTy> {
        match self.rank {
            Rank::Float => Some(FloatTy::F32),
            Rank::Double | Rank::LongDouble => Some(FloatTy::F64),
            _ => None,
        }
    }

    /// Is it an integer type (not a floating one)?
    pub fn is_integer(self) -> bool {
        self.float().is_none()
    }

    /// The IR type values of this type are computed in: a float type or
    /// [`CInt::ir`].
    pub fn scalar(self, dm: DataModel) -> ScalarTy {
        match self.float() {
            Some(t) => ScalarTy::Float(t),
            None => ScalarTy::Int(self.ir(dm)),
        }
    }

    /// Its width in bits under `dm`.
    pub fn bits(self, dm: DataModel) -> u32 {
        match self.rank {
            Rank::Bool | Rank::Char => 8,
            Rank::Short => 16,
            Rank::Int => 32,
            Rank::Long => match dm {
                DataModel::Ilp32 => 32,
                DataModel::Lp64 => 64,
            },
            Rank::LongLong => 64,
            Rank::Float => 32,
            Rank::Double => 64,
            // gcc's x87 format, padded: 12 bytes on i386, 16 on x86-64.
            Rank::LongDouble => match dm {
                DataModel::Ilp32 => 96,
                DataModel::Lp64 => 128,
            },
        }
    }

    /// The IR type its values are computed in. `_Bool` is an 8-bit
    /// unsigned integer that holds only 0 and 1 (conversion to it is
    /// `!= 0`, see [`crate::lower`]). For a floating type, the unsigned
    /// type of its bit patterns (use [`CInt::scalar`] for its values).
    pub fn ir(self, dm: DataModel) -> IntTy {
        if let Some(t) = self.float() {
            return t.bits_ty();
        }
        IntTy::fixed(self.bits(dm), self.signed).unwrap_or(IntTy::I32)
    }

    /// The integer promotion (C11 §6.3.1.1:2): every type of rank below
    /// `int` becomes `int` (all its values fit in `int` on both models).
    pub fn promote(self) -> CInt {
        if self.rank < Rank::Int {
            CInt::INT
        } else {
            self
        }
    }

    /// The usual arithmetic conversions (C11 §6.3.1.8) of two operand
    /// types: the common type both are converted to.
    pub fn common(a: CInt, b: CInt, dm: DataModel) -> CInt {
        // A floating operand makes the common type the greater floating
        // type (C11 §6.3.1.8:1).
        if a.float().is_some() || b.float().is_some() {
            let f = |t: CInt| {
                if t.float().is_some() {
                    t.rank
                } else {
                    Rank::Bool
                }
            };
            return CInt::new(f(a).max(f(b)), true);
        }
        let (a, b) = (a.promote(), b.promote());
        if a == b {
            return a;
        }
        if a.signed == b.signed {
            return if a.rank >= b.rank { a } else { b };
        }
        let (s, u) = if a.signed { (a, b) } else { (b, a) };
        if u.rank >= s.rank {
            u
        } else if s.bits(dm) > u.bits(dm) {
            s
        } else {
            CInt {
                rank: s.rank,
                signed: false,
            }
        }
    }

    /// Its name in C (`unsigned char`, `long long`, ...).
    pub fn c_name(self) -> &'static str {
        match (self.rank, self.signed) {
            (Rank::Bool, _) => "_Bool",
            (Rank::Char, true) => "signed char",
            (Rank::Char, false) => "unsigned char",
            (Rank::Short, true) => "short",
            (Rank::Short, false) => "unsigned short",
            (Rank::Int, true) => "int",
            (Rank::Int, false) => "unsigned int",
            (Rank::Long, true) => "long",
            (Rank::Long, false) => "unsigned long",
            (Rank::LongLong, true) => "long long",
            (Rank::LongLong, false) => "unsigned long long",
            (Rank::Float, _) => "float",
            (Rank::Double, _) => "double",
            (Rank::LongDouble, _) => "long double",
        }
    }
}

/// The length of one dimension of an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Len {
    /// Known when the program is compiled.
    Const(u64),
    /// A variable-length array: the length is held in an IR global,
    /// written where the declaration runs.
    Var(wiser_ir::Place),
    /// Unknown: an array parameter's first dimension (`int a[]`), taken
    /// from the array bound to it at each call.
    Unknown,
}

/// A C type, as far as the subset goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CType {
    /// `void`.
    Void,
    /// An integer type.
    Int(CInt),
    /// An array of `elem` (itself possibly an array) of `len` elements.
    Array(Box<CType>, Len),
    /// A pointer: a parameter bound to an array, or a value (a reference
    /// to an object: a struct, a cell holding an address-taken scalar, a
    /// mutex; `NULL` is 0).
    Pointer(Box<CType>),
    /// A structure, by its index in the unit's table of structures.
    Struct(u32),
    /// `pthread_mutex_t`: a reference to a mutex object.
    Mutex,
    /// A function type: what a function pointer (`Pointer(Func(..))`,
    /// held as the function's number, see `lower/fnptr.rs`) points to.
    Func(Box<FnSig>),
    /// A type outside the subset (a union, a pointer to an array, ...),
    /// named by what it is: declaring it in a header is harmless, using
    /// it is an error that says so.
    /// (The span of the specifier that made it, if any: errors point
    /// there.)
    Opaque(std::sync::Arc<str>, Option<(usize, usize)>),
}

impl CType {
    /// `int`.
    pub const INT: CType = CType::Int(CInt::INT);

    /// The integer type, if it is one.
    pub fn int(&self) -> Option<CInt> {
        match self {
            CType::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The IR scalar type of an integer type.
    pub fn scalar(&self, dm: DataModel) -> Option<ScalarTy> {
        self.int().map(|i| i.scalar(dm))
    }

    /// Its size in bytes, if known at compile time.
    pub fn size(&self, dm: DataModel) -> Option<u64> {
        match self {
            CType::Void => Some(1),
            CType::Int(i) => Some(u64::from(i.bits(dm) / 8)),
            CType::Pointer(_) => Some(match dm {
                DataModel::Ilp32 => 4,
                DataModel::Lp64 => 8,
            }),
            CType::Array(elem, Len::Const(n)) => elem.size(dm).and_then(|s| s.checked_mul(*n)),
            CType::Array(..)
            | CType::Struct(_)
            | CType::Mutex
            | CType::Func(_)
            | CType::Opaque(..) => None,
        }
    }

    /// Is it a pointer?
    pub fn is_pointer(&self) -> bool {
        matches!(self, CType::Pointer(_))
    }

    /// The element type and dimensions of an array type, outermost
    /// first; `None` if it is not an array.
    pub fn dims(&self) -> Option<(CInt, Vec<Len>)> {
        let mut dims = Vec::new();
        let mut t = self;
        loop {
            match t {
                CType::Array(elem, len) => {
                    dims.push(len.clone());
                    t = elem;
                }
                CType::Int(i) if !dims.is_empty() => return Some((*i, dims)),
                _ => return None,
            }
        }
    }

    /// A description for messages.
    pub fn describe(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Int(i) => i.c_name().into(),
            CType::Array(e, Len::Const(n)) => format!("{}[{n}]", e.describe()),
            CType::Array(e, _) => format!("{}[]", e.describe()),
            CType::Pointer(e) => match &**e {
                CType::Func(sig) => sig.describe_pointer(CType::describe),
                e => format!("{} *", e.describe()),
            },
            CType::Struct(i) => format!("struct #{i}"),
            CType::Mutex => "pthread_mutex_t".into(),
            CType::Func(sig) => sig.describe(CType::describe),
            CType::Opaque(what, _) => what.to_string(),
        }
    }
}

/// A function's type: its result and its parameters' types, each
/// parameter as C adjusts it (an array or a function parameter is a
/// pointer), so that two types compare equal when C calls them alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnSig {
    /// The result type.
    pub ret: CType,
    /// The parameters' types, adjusted.
    pub params: Vec<CType>,
}

impl FnSig {
    /// The type of a function returning `ret` with parameters `params`,
    /// adjusted as C does (`int a[]` is `int *a`, `int g(int)` is
    /// `int (*g)(int)`).
    pub fn new(ret: CType, params: impl IntoIterator<Item = CType>) -> FnSig {
        let params = params
            .into_iter()
            .map(|t| match t {
                CType::Array(elem, _) => CType::Pointer(elem),
                f @ CType::Func(_) => CType::Pointer(Box::new(f)),
                t => t,
            })
            .collect();
        FnSig { ret, params }
    }

    /// `int (int, char *)`, with `name` describing each type.
    pub fn describe(&self, name: impl Fn(&CType) -> String) -> String {
        format!("{} ({})", name(&self.ret), self.describe_params(&name))
    }

    /// The pointer to it: `int (*)(int, char *)`.
    pub fn describe_pointer(&self, name: impl Fn(&CType) -> String) -> String {
        format!("{} (*)({})", name(&self.ret), self.describe_params(&name))
    }

    fn describe_params(&self, name: &impl Fn(&CType) -> String) -> String {
        let params: Vec<String> = self.params.iter().map(name).collect();
        if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(rank: Rank, signed: bool) -> CInt {
        CInt { rank, signed }
    }

    #[test]
    fn promotions_and_usual_conversions() {
        let dm = DataModel::Ilp32;
        let uchar = t(Rank::Char, false);
        assert_eq!(CInt::common(uchar, uchar, dm), CInt::INT);
        assert_eq!(CInt::common(CInt::INT, CInt::UINT, dm), CInt::UINT);
        // long is 32 bits on ILP32: long + unsigned int is unsigned long.
        let long = t(Rank::Long, true);
        assert_eq!(CInt::common(long, CInt::UINT, dm), t(Rank::Long, false));
        // ... and 64 bits on LP64: long holds every unsigned int.
        assert_eq!(CInt::common(long, CInt::UINT, DataModel::Lp64), long);
        let ll = t(Rank::LongLong, true);
        assert_eq!(CInt::common(ll, CInt::UINT, dm), ll);
        assert_eq!(
            CInt::common(ll, t(Rank::Long, false), DataModel::Lp64),
            t(Rank::LongLong, false)
        );
        assert_eq!(
            CInt::common(CInt::BOOL, t(Rank::Short, false), dm),
            CInt::INT
        );
    }
}
