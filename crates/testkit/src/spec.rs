//! The specification of a program: every input it has and the values each
//! may take, so that enumerating them decides whether a bug is reachable;
//! and the semantic options to run it with.
//!
//! A rendered program starts with its specification as comment lines
//!
//! ```text
//! # @input x -50 50
//! # @input y -128..-126 -1..1 126..127
//! # @cell a 2 -2 2
//! # @reads -1 1
//! # @reads u8 0..1 255..255
//! # @wrap-signed
//! ```
//!
//! followed by `assume`s that restrict every input to its domain (see
//! [`crate::render`]). A domain is written `lo hi` (one interval) or as
//! intervals `lo..hi` (see [`Domain`]). `@reads` without a type gives the
//! values of reads into `int` variables; a fixed-width type without a line
//! of its own reads those of them that fit it. `@wrap-signed` runs the
//! program with `Options { wrap_signed: true }`. Files written by hand use
//! the same header.

use crate::domain::Domain;
use crate::Name;
use std::fmt::Write;
use std::sync::Arc;
use wiser_ir::ScalarTy;
use wiser_num::{Int, IntTy};
use wiser_semantics::{Input, Options};

/// The inputs of a program and their domains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Input scalars.
    pub inputs: Vec<(Name, Domain)>,
    /// Input array elements: array, index, domain.
    pub cells: Vec<(Name, i64, Domain)>,
    /// The values of a read `x = *` into an `int`.
    pub reads: Domain,
    /// The values of reads into fixed-width types that have their own.
    pub typed_reads: Vec<(IntTy, Domain)>,
    /// Run with signed arithmetic wrapping.
    pub wrap_signed: bool,
}

impl Default for Spec {
    /// No inputs; reads of `int` take -1, 0 or 1.
    fn default() -> Self {
        Spec {
            inputs: Vec::new(),
            cells: Vec::new(),
            reads: Domain::range(-1, 1),
            typed_reads: Vec::new(),
            wrap_signed: false,
        }
    }
}

impl Spec {
    /// The number of points of the scalar and cell domains (saturating).
    pub fn points(&self) -> u64 {
        let scalars = self.inputs.iter().map(|(_, d)| d.len());
        let cells = self.cells.iter().map(|(_, _, d)| d.len());
        scalars.chain(cells).fold(1u64, u64::saturating_mul)
    }

    /// The semantic options to run the program with.
    pub fn options(&self) -> Options {
        Options {
            wrap_signed: self.wrap_signed,
            ..Options::default()
        }
    }

    /// The domain of input scalar `name`.
    pub fn input(&self, name: &str) -> Option<&Domain> {
        self.inputs
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, d)| d)
    }

    /// The values a read into a variable of type `ty` may take.
    pub fn read_domain(&self, ty: ScalarTy) -> Domain {
        match ty {
            ScalarTy::Bool => self.reads.restrict(IntTy::fixed(1, false).expect("u1")),
            ScalarTy::Int(t) => self
                .typed_reads
                .iter()
                .find(|(u, _)| *u == t)
                .map(|(_, d)| d.clone())
                .unwrap_or_else(|| self.reads.restrict(t)),
            // Float reads range over bit patterns.
            ScalarTy::Float(t) => self.reads.restrict(t.bits_ty()),
        }
    }

    /// The most values any one read may take.
    pub fn widest_read(&self) -> u64 {
        self.typed_reads
            .iter()
            .map(|(_, d)| d.len())
            .chain([self.reads.len()])
            .max()
            .unwrap_or(1)
    }

    /// The header lines.
    pub fn header(&self) -> String {
        let mut s = String::new();
        for (name, d) in &self.inputs {
            let _ = writeln!(s, "# @input {name} {d}");
        }
        for (a, i, d) in &self.cells {
            let _ = writeln!(s, "# @cell {a} {i} {d}");
        }
        let _ = writeln!(s, "# @reads {}", self.reads);
        for (ty, d) in &self.typed_reads {
            let _ = writeln!(s, "# @reads {ty} {d}");
        }
        if self.wrap_signed {
            s.push_str("# @wrap-signed\n");
        }
        s
    }

    /// Reads the header lines of a source text (other lines are ignored;
    /// without an `@reads` line, reads take only 0).
    pub fn parse(text: &str) -> Result<Spec, String> {
        let mut spec = Spec {
            reads: Domain::range(0, 0),
            ..Spec::default()
        };
        for (n, line) in text.lines().enumerate() {
            let Some(rest) = line.trim().strip_prefix("# @") else {
                continue;
            };
            let at = |e: String| format!("line {}: {e}", n + 1);
            let words: Vec<&str> = rest.split_whitespace().collect();
            match words.as_slice() {
                ["input", name, domain @ ..] if !domain.is_empty() => spec
                    .inputs
                    .push((Arc::from(*name), Domain::parse(domain).map_err(at)?)),
                ["cell", a, i, domain @ ..] if !domain.is_empty() => {
                    let i = i
                        .parse::<i64>()
                        .map_err(|_| at(format!("`{i}` is not an index")))?;
                    spec.cells
                        .push((Arc::from(*a), i, Domain::parse(domain).map_err(at)?));
                }
                ["reads", ty, domain @ ..] if IntTy::from_name(ty).is_some() => {
                    let ty = IntTy::from_name(ty).expect("a type name");
                    let d = Domain::parse(domain).map_err(at)?;
                    if ty.is_unbounded() {
                        spec.reads = d;
                    } else {
                        spec.typed_reads.push((ty, d));
                    }
                }
                ["reads", domain @ ..] if !domain.is_empty() => {
                    spec.reads = Domain::parse(domain).map_err(at)?
                }
                ["wrap-signed"] => spec.wrap_signed = true,
                _ => return Err(at(format!("bad specification line `{line}`"))),
            }
        }
        Ok(spec)
    }

    /// Is `input` inside the specification: its scalars, its cells (the
    /// entry at the cell's index, or the default), and its reads, whose
    /// types `read_types` gives (from a run of the input)?
    pub fn inside(&self, input: &Input, read_types: &[ScalarTy]) -> bool {
        let vars_ok = input
            .vars
            .iter()
            .all(|(n, v)| self.input(n).is_none_or(|d| d.contains_int(v)));
        let cells_ok = self.cells.iter().all(|(a, i, d)| {
            let Some((_, arr)) = input.arrays.iter().find(|(b, _)| b == a) else {
                // An array the input does not give is all zeros.
                return d.contains(0);
            };
            let at = Int::from(*i);
            let v = arr
                .entries
                .iter()
                .find(|(k, _)| *k == at)
                .map_or(&arr.default, |(_, v)| v);
            d.contains_int(v)
        });
        let reads_ok = input.reads.iter().enumerate().all(|(k, r)| {
            let ty = read_types.get(k).copied().unwrap_or(ScalarTy::INT);
            self.read_domain(ty).contains_int(r)
        });
        vars_ok && cells_ok && reads_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips() {
        let spec = Spec {
            inputs: vec![
                ("x".into(), Domain::range(-50, 50)),
                (
                    "y".into(),
                    Domain::from_intervals(vec![(-128, -127), (0, 1)]),
                ),
            ],
            cells: vec![("a".into(), 2, Domain::range(-2, 2))],
            reads: Domain::range(-1, 1),
            typed_reads: vec![(IntTy::U8, Domain::from_values([0, 1, 255]))],
            wrap_signed: true,
        };
        assert_eq!(Spec::parse(&spec.header()).unwrap(), spec);
        assert_eq!(spec.points(), 101 * 4 * 5);
        assert_eq!(
            spec.read_domain(ScalarTy::Int(IntTy::U8)),
            Domain::from_values([0, 1, 255])
        );
        assert_eq!(
            spec.read_domain(ScalarTy::Int(IntTy::U16)),
            Domain::range(0, 1)
        );
    }

    #[test]
    fn original_header_still_parses() {
        let spec = Spec::parse("# @input x -3 3\n# @cell a 0 -1 1\n# @reads -2 2\nx = 1").unwrap();
        assert_eq!(spec.inputs, vec![("x".into(), Domain::range(-3, 3))]);
        assert_eq!(spec.cells, vec![("a".into(), 0, Domain::range(-1, 1))]);
        assert_eq!(spec.reads, Domain::range(-2, 2));
        assert!(!spec.wrap_signed);
    }
}
