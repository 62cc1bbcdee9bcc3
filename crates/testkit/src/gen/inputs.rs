//! Domains of inputs, cells and reads, and literals: values of each type
//! at the places where its arithmetic goes wrong.

use super::{name, Gen};
use crate::domain::{type_bounds, Domain};
use crate::Name;
use wiser_num::IntTy;

/// The interesting values of a fixed-width type: 0, ±1, the ends, and
/// the halves (where `x + x` overflows or wraps).
fn edges(ty: IntTy) -> Vec<i128> {
    let (lo, hi) = type_bounds(ty).expect("a fixed-width type");
    let mut v = vec![lo, lo + 1, -1, 0, 1, hi / 2, hi / 2 + 1, hi - 1, hi];
    v.retain(|x| *x >= lo && *x <= hi);
    v.sort();
    v.dedup();
    v
}

impl Gen<'_> {
    /// Domains for `n` inputs with about `points` points in all.
    pub(super) fn boxes(&mut self, n: usize, points: u64) -> Vec<(Name, IntTy, Domain)> {
        let side = ((points as f64).powf(1.0 / n as f64).floor() as i64).max(2);
        ["x", "y", "z"][..n]
            .iter()
            .map(|v| {
                let side = self.rng.i64((side / 2).max(2)..=side);
                let ty = self.pick_ty();
                let d = if ty.is_unbounded() {
                    let below = self.rng.i64(side / 4..=(3 * side / 4).max(side / 4));
                    Domain::range(i128::from(-below), i128::from(side - 1 - below))
                } else {
                    self.edge_domain(ty, side as u64)
                };
                (name(v), ty, d)
            })
            .collect()
    }

    /// About `size` values of `ty`: all of them if there are no more, or
    /// up to three short intervals at its MIN, its MAX, around 0, around
    /// half of MAX, or anywhere.
    fn edge_domain(&mut self, ty: IntTy, size: u64) -> Domain {
        let (lo, hi) = type_bounds(ty).expect("a fixed-width type");
        if i128::from(size) > hi - lo {
            return Domain::range(lo, hi);
        }
        let mut anchors = vec![lo, hi, 0, hi / 2 + 1];
        self.rng.shuffle(&mut anchors);
        let random = lo + (self.rng.u64(..) as i128).rem_euclid(hi - lo + 1);
        anchors.push(random);
        let clusters = self.rng.usize(1..=3).min(size as usize);
        let mut intervals = Vec::new();
        let mut left = size;
        for (k, &a) in anchors.iter().take(clusters).enumerate() {
            let share = if k + 1 == clusters {
                left
            } else {
                self.rng.u64(1..=(left - (clusters - k - 1) as u64).max(1))
            };
            left -= share.min(left);
            let len = i128::from(share.max(1));
            let start = if a == lo {
                lo
            } else if a == hi {
                hi - len + 1
            } else {
                (a - len / 2).clamp(lo, hi - len + 1)
            };
            intervals.push((start, start + len - 1));
        }
        Domain::from_intervals(intervals)
    }

    /// Three interesting values of `ty` for reads.
    pub(super) fn read_domain(&mut self, ty: IntTy) -> Domain {
        let mut e = edges(ty);
        self.rng.shuffle(&mut e);
        Domain::from_values(e.into_iter().take(3))
    }

    /// The domain of an input cell of an array of `ty`s.
    pub(super) fn cell_domain(&mut self, ty: IntTy) -> Domain {
        if ty.is_unbounded() {
            return Domain::range(-2, 2);
        }
        let mut e = edges(ty);
        self.rng.shuffle(&mut e);
        Domain::from_values(e.into_iter().take(5))
    }

    pub(super) fn small_const(&mut self) -> i128 {
        if self.chance(0.8) {
            i128::from(self.rng.i64(-5..=5))
        } else {
            i128::from(self.rng.i64(-20..=20))
        }
    }

    /// A literal of type `ty`: mostly small, sometimes (fixed widths) an
    /// edge of the type.
    pub(super) fn literal(&mut self, ty: IntTy) -> i128 {
        match type_bounds(ty) {
            None => self.small_const(),
            Some((lo, hi)) => {
                if self.chance(0.25) {
                    let e = edges(ty);
                    self.pick(&e)
                } else {
                    self.small_const().clamp(lo, hi)
                }
            }
        }
    }

    /// A nonzero constant divisor for a division at `ty`: never -1 in quiet
    /// mode on a signed fixed-width type (`MIN / -1` fails).
    pub(super) fn divisor(&mut self, ty: IntTy) -> i128 {
        let k = i128::from(self.rng.i64(1..=5));
        let fixed_signed = ty.is_signed() && !ty.is_unbounded();
        if !ty.is_signed() || self.rng.bool() {
            return k;
        }
        if fixed_signed && self.quiet && k == 1 {
            return -2;
        }
        -k
    }

    /// A point of the box.
    pub(super) fn point(&mut self) -> Vec<(Name, i128)> {
        let inputs = self.inputs.clone();
        inputs
            .iter()
            .map(|(n, _, d)| {
                let k = self.rng.u64(0..d.len());
                (n.clone(), d.nth(k).expect("in range"))
            })
            .collect()
    }

    /// A value of input `i`'s type just outside its domain (inside it only
    /// if the domain is the whole type).
    pub(super) fn outside(&mut self, i: usize) -> i128 {
        let (_, ty, d) = &self.inputs[i];
        let (ty, d) = (*ty, d.clone());
        let fits = |v: i128| crate::domain::fits(v, ty);
        let mut candidates = Vec::new();
        for &(lo, hi) in d.intervals() {
            for v in [lo - 1, hi + 1] {
                if fits(v) && !d.contains(v) {
                    candidates.push(v);
                }
            }
        }
        if candidates.is_empty() {
            return d.min().unwrap_or(0);
        }
        self.pick(&candidates)
    }
}
