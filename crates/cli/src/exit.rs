//! Exit codes (documented in the README).

pub const OK: u8 = 0;
pub const BUG: u8 = 1;
pub const USAGE: u8 = 2;
pub const UNKNOWN: u8 = 3;
pub const ASSUME_FAILED: u8 = 3;
pub const OUT_OF_STEPS: u8 = 4;
