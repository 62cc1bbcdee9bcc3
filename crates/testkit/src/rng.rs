//! A tiny seeded generator for tests that pick at random but must pick
//! the same on every machine and every run (so that a failure names the
//! case to repeat).

/// Marsaglia's xorshift (13, 7, 17) on 64 bits. Not for statistics: for
/// reproducible choices. The seed must not be 0 (0 stays 0).
#[derive(Clone, Debug)]
pub struct Xorshift(pub u64);

impl Xorshift {
    /// The next number.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// An index below `n` (0 when `n` is 0).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Xorshift;

    #[test]
    fn the_sequence_is_fixed() {
        let mut r = Xorshift(1);
        assert_eq!(r.next(), 1082269761);
        assert!(r.below(10) < 10);
        assert_eq!(r.below(0), 0);
    }
}
