//! Finite sets of integers, as sorted disjoint intervals: the values an
//! input of a specification may take.
//!
//! A fixed-width input cannot be enumerated over its whole type, and one
//! interval cannot hold both `0` and `MAX` of an `i32`; a union of a few
//! short intervals can (`-2147483648..-2147483646 -1..1 2147483647..2147483647`),
//! so a domain is a list of intervals. Values are `i128`, which holds every
//! value of every type from `i64::MIN` to `u64::MAX`.

use std::fmt;
use wiser_num::{Int, IntTy};

/// A finite set of integers: sorted, disjoint, non-adjacent, inclusive
/// intervals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Domain {
    intervals: Vec<(i128, i128)>,
}

/// The least and greatest values of a fixed-width type (`None` for `int`).
pub fn type_bounds(ty: IntTy) -> Option<(i128, i128)> {
    let w = ty.width()?;
    Some(if ty.is_signed() {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    })
}

/// Does `v` fit `ty`?
pub fn fits(v: i128, ty: IntTy) -> bool {
    type_bounds(ty).is_none_or(|(lo, hi)| lo <= v && v <= hi)
}

/// `v` as an [`Int`].
pub fn to_int(v: i128) -> Int {
    if let Ok(small) = i64::try_from(v) {
        Int::from(small)
    } else if let Ok(unsigned) = u64::try_from(v) {
        Int::from_u64(unsigned)
    } else {
        v.to_string().parse().expect("an i128 is a decimal integer")
    }
}

/// `v` as an `i128`, if it is one.
pub fn from_int(v: &Int) -> Option<i128> {
    match v.to_i64() {
        Some(small) => Some(i128::from(small)),
        None => v.to_string().parse().ok(),
    }
}

impl Domain {
    /// The empty set.
    pub fn empty() -> Domain {
        Domain::default()
    }

    /// `lo..=hi` (empty if `lo > hi`).
    pub fn range(lo: i128, hi: i128) -> Domain {
        Domain::from_intervals(vec![(lo, hi)])
    }

    /// The union of some intervals (in any order, overlapping or not; empty
    /// ones are dropped).
    pub fn from_intervals(mut v: Vec<(i128, i128)>) -> Domain {
        v.retain(|(lo, hi)| lo <= hi);
        v.sort();
        let mut out: Vec<(i128, i128)> = Vec::with_capacity(v.len());
        for (lo, hi) in v {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Domain { intervals: out }
    }

    /// The union of some values.
    pub fn from_values(values: impl IntoIterator<Item = i128>) -> Domain {
        Domain::from_intervals(values.into_iter().map(|v| (v, v)).collect())
    }

    /// The intervals, sorted.
    pub fn intervals(&self) -> &[(i128, i128)] {
        &self.intervals
    }

    /// The number of values (saturating).
    pub fn len(&self) -> u64 {
        self.intervals
            .iter()
            .map(|(lo, hi)| u64::try_from(hi - lo + 1).unwrap_or(u64::MAX))
            .fold(0u64, u64::saturating_add)
    }

    /// Is it empty?
    pub fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    /// The least value.
    pub fn min(&self) -> Option<i128> {
        self.intervals.first().map(|i| i.0)
    }

    /// The greatest value.
    pub fn max(&self) -> Option<i128> {
        self.intervals.last().map(|i| i.1)
    }

    /// Is `v` in the set?
    pub fn contains(&self, v: i128) -> bool {
        self.intervals.iter().any(|&(lo, hi)| lo <= v && v <= hi)
    }

    /// Is the integer `v` in the set?
    pub fn contains_int(&self, v: &Int) -> bool {
        from_int(v).is_some_and(|v| self.contains(v))
    }

    /// The values, in increasing order.
    pub fn values(&self) -> impl Iterator<Item = i128> + '_ {
        self.intervals.iter().flat_map(|&(lo, hi)| lo..=hi)
    }

    /// The `k`-th value in increasing order.
    pub fn nth(&self, mut k: u64) -> Option<i128> {
        for &(lo, hi) in &self.intervals {
            let n = u64::try_from(hi - lo + 1).unwrap_or(u64::MAX);
            if k < n {
                return Some(lo + i128::from(k));
            }
            k -= n;
        }
        None
    }

    /// The values that fit `ty`.
    pub fn restrict(&self, ty: IntTy) -> Domain {
        match type_bounds(ty) {
            None => self.clone(),
            Some((tlo, thi)) => Domain::from_intervals(
                self.intervals
                    .iter()
                    .map(|&(lo, hi)| (lo.max(tlo), hi.min(thi)))
                    .collect(),
            ),
        }
    }

    /// The same set without interval `k`.
    pub fn without(&self, k: usize) -> Domain {
        let mut intervals = self.intervals.clone();
        intervals.remove(k);
        Domain { intervals }
    }

    /// The same set with interval `k` replaced by `lo..=hi`.
    pub fn with_interval(&self, k: usize, lo: i128, hi: i128) -> Domain {
        let mut v = self.intervals.clone();
        v[k] = (lo, hi);
        Domain::from_intervals(v)
    }

    /// Parses the words of a header line: either two integers `lo hi` (one
    /// interval, the original form) or any number of `lo..hi` and `v`.
    pub fn parse(words: &[&str]) -> Result<Domain, String> {
        let int = |s: &str| {
            s.parse::<i128>()
                .map_err(|_| format!("`{s}` is not an integer"))
        };
        if let [lo, hi] = words {
            if !lo.contains("..") && !hi.contains("..") {
                return Ok(Domain::range(int(lo)?, int(hi)?));
            }
        }
        let mut v = Vec::new();
        for w in words {
            match w.split_once("..") {
                Some((lo, hi)) => v.push((int(lo)?, int(hi)?)),
                None => {
                    let x = int(w)?;
                    v.push((x, x));
                }
            }
        }
        Ok(Domain::from_intervals(v))
    }
}

impl fmt::Display for Domain {
    /// The header form: `lo hi` for one interval, `lo..hi lo..hi ...`
    /// otherwise (`lo..hi` even for one value, so that two single values
    /// do not read as one interval).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.intervals.as_slice() {
            [] => f.write_str("1..0"),
            [(lo, hi)] => write!(f, "{lo} {hi}"),
            many => {
                for (k, (lo, hi)) in many.iter().enumerate() {
                    if k > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{lo}..{hi}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_and_counts() {
        let d = Domain::from_intervals(vec![(5, 7), (-1, 1), (2, 3), (10, 9)]);
        assert_eq!(d.intervals(), &[(-1, 3), (5, 7)]);
        assert_eq!(d.len(), 8);
        assert_eq!(d.nth(5), Some(5));
        assert_eq!(
            d.values().collect::<Vec<_>>(),
            vec![-1, 0, 1, 2, 3, 5, 6, 7]
        );
        assert_eq!(d.restrict(IntTy::U8).intervals(), &[(0, 3), (5, 7)]);
    }

    #[test]
    fn header_form_round_trips() {
        for d in [
            Domain::range(-50, 50),
            Domain::from_values([3, 7]),
            Domain::from_intervals(vec![(-128, -126), (-1, 1), (127, 127)]),
            Domain::range(0, i128::from(u64::MAX)),
        ] {
            let text = d.to_string();
            let words: Vec<&str> = text.split_whitespace().collect();
            assert_eq!(Domain::parse(&words).unwrap(), d, "{text}");
        }
        assert_eq!(type_bounds(IntTy::I8), Some((-128, 127)));
        assert_eq!(
            to_int(i128::from(u64::MAX)).to_string(),
            "18446744073709551615"
        );
        assert_eq!(from_int(&to_int(-(1i128 << 63))), Some(-(1i128 << 63)));
    }
}
