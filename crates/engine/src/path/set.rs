//! Sets of values of one variable: finite unions of disjoint intervals.
//!
//! A path condition keeps, for each variable that comparisons with
//! constants have constrained, the exact set of values those comparisons
//! allow. A union of intervals represents what the comparisons of one
//! variable produce: bounds (`x < 10`), excluded points (`x != 0`, the
//! negation of a loop exit `x == k`), and a signed bound on a bit-vector,
//! whose unsigned patterns form two intervals. The set is exact: it *is*
//! the conjunction of those comparisons, not an approximation of it.

use smallvec::SmallVec;
use wiser_num::Int;

/// An interval of integers; `None` ends are unbounded.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Interval {
    /// Least value, if bounded below.
    pub lo: Option<Int>,
    /// Greatest value, if bounded above.
    pub hi: Option<Int>,
}

impl Interval {
    /// `[lo, hi]`.
    pub fn new(lo: Option<Int>, hi: Option<Int>) -> Interval {
        Interval { lo, hi }
    }

    /// `[lo, hi]` with both ends finite.
    pub fn range(lo: Int, hi: Int) -> Interval {
        Interval {
            lo: Some(lo),
            hi: Some(hi),
        }
    }

    /// Does it contain `v`?
    pub fn contains(&self, v: &Int) -> bool {
        self.lo.as_ref().is_none_or(|lo| lo <= v) && self.hi.as_ref().is_none_or(|hi| v <= hi)
    }

    /// Is it empty?
    pub fn is_empty(&self) -> bool {
        matches!((&self.lo, &self.hi), (Some(lo), Some(hi)) if lo > hi)
    }

    fn meet(&self, other: &Interval) -> Interval {
        let lo = match (&self.lo, &other.lo) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            (a, b) => a.clone().or(b.clone()),
        };
        let hi = match (&self.hi, &other.hi) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            (a, b) => a.clone().or(b.clone()),
        };
        Interval { lo, hi }
    }

    /// The number of values, if finite.
    pub fn size(&self) -> Option<Int> {
        Some(self.hi.as_ref()?.sub(self.lo.as_ref()?).add(&Int::ONE))
    }
}

/// At most this many intervals per set: a condition that would split a
/// set further is kept as an ordinary constraint instead.
pub const MAX_PARTS: usize = 16;

/// A set of integers: sorted, disjoint, non-adjacent, non-empty intervals.
/// The empty list is the empty set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueSet {
    parts: SmallVec<[Interval; 1]>,
}

impl ValueSet {
    /// Every integer.
    pub fn all() -> ValueSet {
        ValueSet {
            parts: smallvec::smallvec![Interval::default()],
        }
    }

    /// The empty set.
    pub fn empty() -> ValueSet {
        ValueSet {
            parts: SmallVec::new(),
        }
    }

    /// One interval (empty if it is).
    pub fn interval(i: Interval) -> ValueSet {
        if i.is_empty() {
            ValueSet::empty()
        } else {
            ValueSet {
                parts: smallvec::smallvec![i],
            }
        }
    }

    /// `{v}`.
    pub fn point(v: Int) -> ValueSet {
        ValueSet::interval(Interval::range(v.clone(), v))
    }

    /// Every integer but `v`.
    pub fn all_but(v: &Int) -> ValueSet {
        ValueSet {
            parts: smallvec::smallvec![
                Interval::new(None, Some(v.sub(&Int::ONE))),
                Interval::new(Some(v.add(&Int::ONE)), None),
            ],
        }
    }

    /// A union of intervals, normalised.
    pub fn from_parts(parts: impl IntoIterator<Item = Interval>) -> ValueSet {
        let mut parts: SmallVec<[Interval; 2]> =
            parts.into_iter().filter(|i| !i.is_empty()).collect();
        // Sort by lower end (unbounded first), then merge overlaps and
        // neighbours.
        parts.sort_by(|a, b| match (&a.lo, &b.lo) {
            (None, None) => std::cmp::Ordering::Equal,
            (None, _) => std::cmp::Ordering::Less,
            (_, None) => std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => x.cmp(y),
        });
        let mut out: SmallVec<[Interval; 1]> = SmallVec::with_capacity(parts.len());
        for p in parts {
            if let Some(last) = out.last_mut() {
                let touches = match (&last.hi, &p.lo) {
                    (None, _) | (_, None) => true,
                    (Some(h), Some(l)) => *l <= h.add(&Int::ONE),
                };
                if touches {
                    last.hi = match (&last.hi, &p.hi) {
                        (None, _) | (_, None) => None,
                        (Some(a), Some(b)) => Some(a.max(b).clone()),
                    };
                    continue;
                }
            }
            out.push(p);
        }
        ValueSet { parts: out }
    }

    /// The intervals, in increasing order.
    pub fn parts(&self) -> &[Interval] {
        &self.parts
    }

    /// Is it empty?
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Is it every integer?
    pub fn is_all(&self) -> bool {
        matches!(self.parts.as_slice(), [Interval { lo: None, hi: None }])
    }

    /// Does it contain `v`?
    pub fn contains(&self, v: &Int) -> bool {
        self.parts.iter().any(|p| p.contains(v))
    }

    /// The intersection with `other`.
    pub fn meet(&self, other: &ValueSet) -> ValueSet {
        let mut out = Vec::new();
        for a in &self.parts {
            for b in &other.parts {
                let m = a.meet(b);
                if !m.is_empty() {
                    out.push(m);
                }
            }
        }
        ValueSet::from_parts(out)
    }

    /// Keeps only the members in `[lo, hi]` (`None`: unbounded), in place.
    pub fn clip(&mut self, lo: Option<&Int>, hi: Option<&Int>) {
        self.parts.retain_mut(|p| {
            if let Some(lo) = lo {
                if p.lo.as_ref().is_none_or(|l| l < lo) {
                    p.lo = Some(lo.clone());
                }
            }
            if let Some(hi) = hi {
                if p.hi.as_ref().is_none_or(|h| h > hi) {
                    p.hi = Some(hi.clone());
                }
            }
            !p.is_empty()
        });
    }

    /// Removes `v`, in place.
    pub fn remove(&mut self, v: &Int) {
        let Some(k) = self.parts.iter().position(|p| p.contains(v)) else {
            return;
        };
        let p = self.parts.remove(k);
        let below = Interval::new(p.lo, Some(v.sub(&Int::ONE)));
        let above = Interval::new(Some(v.add(&Int::ONE)), p.hi);
        for (i, part) in [below, above].into_iter().enumerate() {
            if !part.is_empty() {
                self.parts.insert(k + i.min(self.parts.len() - k), part);
            }
        }
    }

    /// The complement.
    pub fn complement(&self) -> ValueSet {
        let mut out = Vec::new();
        let mut from: Option<Option<Int>> = Some(None);
        for p in &self.parts {
            if let Some(start) = from.take() {
                if let Some(lo) = &p.lo {
                    out.push(Interval::new(start, Some(lo.sub(&Int::ONE))));
                }
            }
            from = p.hi.as_ref().map(|h| Some(h.add(&Int::ONE)));
        }
        if let Some(start) = from {
            out.push(Interval::new(start, None));
        }
        ValueSet::from_parts(out)
    }

    /// The least and greatest members (`None` ends: unbounded).
    pub fn hull(&self) -> Interval {
        match (self.parts.first(), self.parts.last()) {
            (Some(a), Some(b)) => Interval::new(a.lo.clone(), b.hi.clone()),
            _ => Interval::range(Int::ONE, Int::ZERO),
        }
    }

    /// The number of members, if finite.
    pub fn size(&self) -> Option<Int> {
        self.parts
            .iter()
            .try_fold(Int::ZERO, |n, p| Some(n.add(&p.size()?)))
    }

    /// The member nearest to `v` (the lower one on a tie); `None` when
    /// empty.
    pub fn clamp(&self, v: &Int) -> Option<Int> {
        let mut best: Option<(Int, Int)> = None;
        for p in &self.parts {
            let c = match (&p.lo, &p.hi) {
                (Some(lo), _) if v < lo => lo.clone(),
                (_, Some(hi)) if v > hi => hi.clone(),
                _ => return Some(v.clone()),
            };
            let d = c.sub(v).abs();
            if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                best = Some((d, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// The members in increasing order, if the set is finite (a lazy
    /// iterator: callers bound how many they take).
    pub fn members(&self) -> Option<impl Iterator<Item = Int> + '_> {
        if self.parts.iter().any(|p| p.lo.is_none() || p.hi.is_none()) {
            return None;
        }
        Some(self.parts.iter().flat_map(|p| {
            let (lo, hi) = (
                p.lo.clone().unwrap_or_default(),
                p.hi.clone().unwrap_or_default(),
            );
            let mut next = Some(lo);
            std::iter::from_fn(move || {
                let v = next.take()?;
                if v < hi {
                    next = Some(v.add(&Int::ONE));
                }
                (v <= hi).then_some(v)
            })
        }))
    }

    /// Up to three members on each side of each end of each interval, and
    /// the ends themselves: where a one-variable condition built from
    /// comparisons with the given constants can change its truth value.
    pub fn ends(&self) -> Vec<Int> {
        self.parts
            .iter()
            .flat_map(|p| p.lo.iter().chain(p.hi.iter()))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(lo: i64, hi: i64) -> Interval {
        Interval::range(lo.into(), hi.into())
    }

    #[test]
    fn excluded_points_merge_into_ranges() {
        // x != 0, x != 1, x != 2: two parts, however many points.
        let mut s = ValueSet::all();
        for k in 0..3 {
            s = s.meet(&ValueSet::all_but(&Int::from(k)));
        }
        assert_eq!(
            s.parts(),
            &[
                Interval::new(None, Some((-1).into())),
                Interval::new(Some(3.into()), None)
            ]
        );
        assert!(!s.contains(&Int::from(2)));
        assert_eq!(s.clamp(&Int::from(1)), Some(Int::from(-1)));
        assert_eq!(s.clamp(&Int::from(2)), Some(Int::from(3)));
        assert!(s.meet(&ValueSet::point(Int::from(2))).is_empty());
    }

    #[test]
    fn complement_and_size() {
        let s = ValueSet::from_parts([r(0, 3), r(5, 5), r(4, 4), r(10, 12)]);
        assert_eq!(s.parts(), &[r(0, 5), r(10, 12)]);
        assert_eq!(s.size(), Some(Int::from(9)));
        let c = s.complement();
        assert_eq!(c.meet(&s), ValueSet::empty());
        assert_eq!(c.parts().len(), 3);
        let members: Vec<Int> = s.members().unwrap().collect();
        assert_eq!(members.len(), 9);
        assert_eq!(ValueSet::all().complement(), ValueSet::empty());
        assert!(ValueSet::empty().complement().is_all());
    }

    #[test]
    fn narrowing_in_place() {
        let mut s = ValueSet::from_parts([r(0, 10), r(20, 30)]);
        s.clip(Some(&Int::from(5)), Some(&Int::from(25)));
        assert_eq!(s.parts(), &[r(5, 10), r(20, 25)]);
        s.remove(&Int::from(7));
        assert_eq!(s.parts(), &[r(5, 6), r(8, 10), r(20, 25)]);
        s.remove(&Int::from(5));
        s.remove(&Int::from(6));
        assert_eq!(s.parts(), &[r(8, 10), r(20, 25)]);
        s.clip(None, Some(&Int::from(7)));
        assert!(s.is_empty());
    }
}
