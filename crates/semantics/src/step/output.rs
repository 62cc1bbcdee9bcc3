//! Program output ([`wiser_ir::Instr::Output`]): a step that changes no
//! state, whose text the machine collects only when asked
//! ([`Machine::collect_output`], the concrete interpreter), with the
//! conversions of `wiser_num::printf`.

use super::Machine;
use crate::algebra::Algebra;
use crate::state::State;
use wiser_ir::output::MAX_STRING;
use wiser_ir::{OutPart, ScalarTy, Stream};
use wiser_num::printf::{format_bytes, format_float, format_int};
use wiser_num::Int;

/// The most bytes of output a run keeps (the rest is dropped and
/// [`Output::truncated`] set): a program that prints in a long loop
/// must not exhaust memory.
pub const MAX_OUTPUT: usize = 16 << 20;

/// What a run wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// Standard output's bytes.
    pub stdout: Vec<u8>,
    /// Standard error's bytes.
    pub stderr: Vec<u8>,
    /// Was output past [`MAX_OUTPUT`] dropped?
    pub truncated: bool,
}

impl Output {
    fn write(&mut self, stream: Stream, bytes: &[u8]) {
        let room = MAX_OUTPUT.saturating_sub(self.stdout.len() + self.stderr.len());
        let n = bytes.len().min(room);
        self.truncated |= n < bytes.len();
        match stream {
            Stream::Stdout => self.stdout.extend_from_slice(&bytes[..n]),
            Stream::Stderr => self.stderr.extend_from_slice(&bytes[..n]),
        }
    }
}

impl<A: Algebra> Machine<'_, A> {
    /// Collect the program's output from now on (see [`Machine::output`]).
    pub fn collect_output(&mut self) {
        self.output.get_or_insert_with(Output::default);
    }

    /// The output collected so far, when [`Machine::collect_output`]
    /// asked for it.
    pub fn output(&self) -> Option<&Output> {
        self.output.as_ref()
    }

    /// Takes the output collected so far.
    pub fn take_output(&mut self) -> Option<Output> {
        self.output.take()
    }

    /// Writes an output instruction's `parts`, when output is collected
    /// and every value is known (a symbolic value writes nothing).
    pub(super) fn write_output<P>(
        &mut self,
        alg: &mut A,
        state: &State<A, P>,
        stream: Stream,
        parts: &[OutPart],
    ) {
        if self.output.is_none() {
            return;
        }
        let mut text = Vec::new();
        for part in parts {
            match part {
                OutPart::Text(t) => text.extend_from_slice(t),
                OutPart::Int { value, spec, .. } => {
                    let v = self.eval(alg, value, state);
                    let Some(v) = alg.as_int(&v) else { return };
                    format_int(spec, &v, &mut text);
                }
                OutPart::Float { value, ty, spec } => {
                    let v = self.eval(alg, value, state);
                    let Some(v) = alg.as_int(&v) else { return };
                    format_float(spec, ty.to_f64(&v), &mut text);
                }
                OutPart::Str { array, start, spec } => {
                    let v = self.eval(alg, start, state);
                    let Some(start) = alg.as_int(&v) else { return };
                    let Some(bytes) = self.string(alg, state, *array, start, spec.precision) else {
                        return;
                    };
                    format_bytes(spec, &bytes, &mut text);
                }
            }
        }
        if let Some(out) = &mut self.output {
            out.write(stream, &text);
        }
    }

    /// The bytes of the string in `array` from `start` up to its first 0
    /// element, at most `limit` of them (and at most [`MAX_STRING`]);
    /// `None` when an element is not known.
    fn string<P>(
        &mut self,
        alg: &mut A,
        state: &State<A, P>,
        array: wiser_ir::ArrayId,
        start: Int,
        limit: Option<u32>,
    ) -> Option<Vec<u8>> {
        let ty = self.ir.arrays.get(array.0 as usize)?.ty;
        let cells = state.arrays.get(array.0 as usize)?;
        let limit = limit.map_or(MAX_STRING, |l| l.min(MAX_STRING));
        let mut bytes = Vec::new();
        let mut index = start;
        while bytes.len() < limit as usize {
            if ScalarTy::Int(ty.index).wrap(&index) != index {
                break;
            }
            let i = alg.int(ty.index, &index);
            let c = alg.select(ty, cells, i);
            let c = alg.as_int(&c)?;
            if c.is_zero() {
                break;
            }
            bytes.push(c.low_bits(8) as u8);
            index = index.add(&Int::ONE);
        }
        Some(bytes)
    }
}
