//! A sum of floating-point values held exactly, for the sign of a sum whose terms cancel: a
//! nonoverlapping expansion (Shewchuk, "Adaptive precision floating-point arithmetic and fast
//! robust geometric predicates", Discrete Comput. Geom. 18, 1997: Grow-Expansion with zero
//! elimination), its parts in increasing magnitude, each from Knuth's TwoSum
//! ([`two_sum`](super::exact::two_sum)). Its largest part has the sum's sign.

use core::cmp::Ordering;

use super::exact::two_sum;

/// A sum of up to `4·ROWS` values, exact but where a partial sum overflows.
pub(crate) struct Expansion<const ROWS: usize> {
    parts: [[f64; 4]; ROWS],
    len: usize,
}

impl<const ROWS: usize> Default for Expansion<ROWS> {
    fn default() -> Self {
        Expansion {
            parts: [[0.0; 4]; ROWS],
            len: 0,
        }
    }
}

impl<const ROWS: usize> Expansion<ROWS> {
    /// Adds `b`, exactly (at most `4·ROWS` times: an expansion of `m` values has at most `m`
    /// parts).
    pub(crate) fn add(&mut self, b: f64) {
        let mut carry = b;
        let mut kept = 0;
        for i in 0..self.len {
            let (sum, error) = two_sum(carry, self.parts[i / 4][i % 4]);
            if error != 0.0 {
                self.parts[kept / 4][kept % 4] = error;
                kept += 1;
            }
            carry = sum;
        }
        if carry != 0.0 {
            self.parts[kept / 4][kept % 4] = carry;
            kept += 1;
        }
        self.len = kept;
    }

    /// The sum's sign, as it compares with zero: its largest part's.
    pub(crate) fn sign(&self) -> Ordering {
        match self.len {
            0 => Ordering::Equal,
            n => self.parts[(n - 1) / 4][(n - 1) % 4].total_cmp(&0.0),
        }
    }
}
