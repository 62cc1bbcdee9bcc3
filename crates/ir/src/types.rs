//! The types of IR values.

use std::fmt;
use wiser_num::{Int, IntTy};

/// The type of a scalar value: a boolean or an integer of some
/// [`IntTy`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarTy {
    /// Booleans. The concrete semantics represents them as 0 and 1.
    Bool,
    /// Integers of a type.
    Int(IntTy),
}

impl ScalarTy {
    /// IMP's unbounded `int`.
    pub const INT: ScalarTy = ScalarTy::Int(IntTy::INT);

    /// The integer type, if this is one.
    pub fn int(self) -> Option<IntTy> {
        match self {
            ScalarTy::Int(t) => Some(t),
            ScalarTy::Bool => None,
        }
    }

    /// Is `v` a value of this type (0 or 1 for booleans)?
    pub fn contains(self, v: &Int) -> bool {
        match self {
            ScalarTy::Bool => v.is_zero() || *v == Int::ONE,
            ScalarTy::Int(t) => t.contains(v),
        }
    }

    /// The value of this type nearest in meaning to `v`: wrapped for
    /// integers, `v != 0` for booleans.
    pub fn wrap(self, v: &Int) -> Int {
        match self {
            ScalarTy::Bool => Int::from(i64::from(!v.is_zero())),
            ScalarTy::Int(t) => t.wrap(v),
        }
    }
}

impl fmt::Display for ScalarTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScalarTy::Bool => f.write_str("bool"),
            ScalarTy::Int(t) => write!(f, "{t}"),
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
