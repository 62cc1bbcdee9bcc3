//! The C file that makes gcc replay a witness.
