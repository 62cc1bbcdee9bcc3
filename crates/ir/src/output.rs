//! Program output ([`crate::Instr::Output`]): text, integers and floats
//! under a conversion and strings read from memory, written to a stream. Output
//! changes nothing a program can read back, so it has no effect on any
//! verification; the concrete interpreter writes it (`wiser run`). The
//! conversions are `wiser_num::printf`'s.

use crate::builder::{RoutineBuilder, HOLE};
use crate::expr::Expr;
use crate::ir::{ArrayId, Code, Instr};
use crate::source::Span;
use crate::types::ScalarTy;
use wiser_num::printf::Spec;
use wiser_num::{FloatTy, IntTy};

/// Where output goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// A piece of an [`crate::Instr::Output`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutPart {
    /// Bytes written as they are.
    Text(Box<[u8]>),
    /// An integer of type `ty` under a conversion (`%d`, `%x`, `%c`, `%p`).
    Int {
        /// The value.
        value: Code,
        /// Its type.
        ty: IntTy,
        /// The conversion.
        spec: Spec,
    },
    /// A float of type `ty` under a floating conversion (`%f`, `%e`,
    /// `%g`).
    Float {
        /// The value.
        value: Code,
        /// Its type.
        ty: FloatTy,
        /// The conversion.
        spec: Spec,
    },
    /// The string in `array` from index `start` up to the first 0
    /// element (each element's low 8 bits are a byte), under a `%s`
    /// conversion; at most [`MAX_STRING`] elements are read.
    Str {
        /// The array of characters.
        array: ArrayId,
        /// The first index (of the array's index type).
        start: Code,
        /// The conversion.
        spec: Spec,
    },
}

/// The most elements a [`OutPart::Str`] reads when no 0 comes first.
pub const MAX_STRING: u32 = 1 << 20;

/// A piece of output under construction, with [`Expr`]s.
#[derive(Clone, Debug)]
pub enum Part {
    /// Bytes written as they are.
    Text(Vec<u8>),
    /// An integer expression under a conversion (its type is the
    /// expression's).
    Int(Expr, Spec),
    /// A float expression under a floating conversion.
    Float(Expr, Spec),
    /// The string in an array from an index (see [`OutPart::Str`]).
    Str(ArrayId, Expr, Spec),
}

impl RoutineBuilder<'_> {
    /// Writes `parts` to `stream`. The expressions' checks run before
    /// the output, as any instruction's do.
    pub fn output(&mut self, stream: Stream, parts: Vec<Part>, span: Span) {
        let mut checks = Vec::new();
        let mut out = Vec::new();
        for part in parts {
            match part {
                Part::Text(t) => match out.last_mut() {
                    Some(OutPart::Text(prev)) => {
                        let mut joined = prev.to_vec();
                        joined.extend(t);
                        *prev = joined.into_boxed_slice();
                    }
                    _ => out.push(OutPart::Text(t.into_boxed_slice())),
                },
                Part::Int(e, spec) => {
                    let Some(ty) = e.int_ty() else {
                        return self.error("an output value is not an integer".into());
                    };
                    let (value, more) = self.parts(e, span, None, "an output value");
                    checks.extend(more);
                    out.push(OutPart::Int { value, ty, spec });
                }
                Part::Float(e, spec) => {
                    let ScalarTy::Float(ty) = e.ty() else {
                        return self.error("an output value is not a float".into());
                    };
                    let (value, more) = self.parts(e, span, None, "an output value");
                    checks.extend(more);
                    out.push(OutPart::Float { value, ty, spec });
                }
                Part::Str(array, start, spec) => {
                    let Some(decl) = self.b.arrays.get(array.0 as usize) else {
                        return self.error(format!("output from undeclared array {}", array.0));
                    };
                    let index = decl.ty.index;
                    let start = match start.int_ty() {
                        Some(t) if t != index => start.cast(index),
                        _ => start,
                    };
                    let want = Some(ScalarTy::Int(index));
                    let (start, more) = self.parts(start, span, want, "a string's start");
                    checks.extend(more);
                    out.push(OutPart::Str { array, start, spec });
                }
            }
        }
        let instr = Instr::Output {
            stream,
            parts: out.into_boxed_slice(),
            next: HOLE,
        };
        self.emit_seq(instr, span, checks);
    }
}

/// The codes an output reads.
pub fn codes(parts: &[OutPart]) -> impl Iterator<Item = &Code> {
    parts.iter().filter_map(|p| match p {
        OutPart::Text(_) => None,
        OutPart::Int { value, .. } | OutPart::Float { value, .. } => Some(value),
        OutPart::Str { start, .. } => Some(start),
    })
}
