//! The types of IR values.

use std::fmt;
use wiser_num::{FloatTy, Int, IntTy};

/// The type of a scalar value: a boolean, an integer of some [`IntTy`],
/// or a float of some [`FloatTy`] (held as its bit pattern: see
/// [`wiser_num::FloatTy`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarTy {
    /// Booleans. The concrete semantics represents them as 0 and 1.
    Bool,
    /// Integers of a type.
    Int(IntTy),
    /// Floats of a type, whose values are their bit patterns (unsigned
    /// integers of [`FloatTy::bits_ty`]).
    Float(FloatTy),
}

impl ScalarTy {
    /// IMP's unbounded `int`.
    pub const INT: ScalarTy = ScalarTy::Int(IntTy::INT);

    /// The integer type, if this is one.
    pub fn int(self) -> Option<IntTy> {
        match self {
            ScalarTy::Int(t) => Some(t),
            ScalarTy::Bool | ScalarTy::Float(_) => None,
        }
    }

    /// The float type, if this is one.
    pub fn float(self) -> Option<FloatTy> {
        match self {
            ScalarTy::Float(t) => Some(t),
            _ => None,
        }
    }

    /// The integer type values of this type are held in: the type itself
    /// for integers, the pattern's unsigned type for floats.
    pub fn repr(self) -> Option<IntTy> {
        match self {
            ScalarTy::Int(t) => Some(t),
            ScalarTy::Float(t) => Some(t.bits_ty()),
            ScalarTy::Bool => None,
        }
    }

    /// A value of this type as people read it: a float by the shortest
    /// decimal that reads back as its pattern ([`FloatTy::display`]),
    /// anything else as the integer it is.
    pub fn show(self, v: &Int) -> String {
        match self {
            ScalarTy::Float(t) => t.display(v),
            _ => v.to_string(),
        }
    }

    /// Is `v` a value of this type (0 or 1 for booleans)?
    pub fn contains(self, v: &Int) -> bool {
        match self {
            ScalarTy::Bool => v.is_zero() || *v == Int::ONE,
            ScalarTy::Int(t) => t.contains(v),
            ScalarTy::Float(t) => t.bits_ty().contains(v),
        }
    }

    /// The value of this type nearest in meaning to `v`: wrapped for
    /// integers (and float patterns), `v != 0` for booleans.
    pub fn wrap(self, v: &Int) -> Int {
        match self {
            ScalarTy::Bool => Int::from(i64::from(!v.is_zero())),
            ScalarTy::Int(t) => t.wrap(v),
            ScalarTy::Float(t) => t.bits_ty().wrap(v),
        }
    }
}

impl fmt::Display for ScalarTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScalarTy::Bool => f.write_str("bool"),
            ScalarTy::Int(t) => write!(f, "{t}"),
            ScalarTy::Float(t) => write!(f, "{t}"),
        }
    }
}

impl fmt::Debug for ScalarTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The type of an array: a map from `index` values to `elem` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayTy {
    /// The type of subscripts.
    pub index: IntTy,
    /// The type of elements.
    pub elem: ScalarTy,
}

impl ArrayTy {
    /// IMP's arrays: unbounded integers to unbounded integers.
    pub const INT: ArrayTy = ArrayTy {
        index: IntTy::INT,
        elem: ScalarTy::INT,
    };
}

impl fmt::Display for ArrayTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.index, self.elem)
    }
}
