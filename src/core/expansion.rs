//! A sum of floating-point values held exactly, for the sign of a sum whose terms cancel: a
//! nonoverlapping expansion (Shewchuk, "Adaptive precision floating-point arithmetic and fast
//! robust geometric predicates", Discrete Comput. Geom. 18, 1997: Grow-Expansion with zero
//! elimination), its parts in increasing magnitude, each from Knuth's TwoSum
//! ([`two_sum`](super::exact::two_sum)). Its largest part has the sum's sign.

use core::cmp::Ordering;

use super::exact::two_sum;

/// A sum of up to `WIDTH·ROWS` values, exact but where a partial sum overflows. (Two factors
/// because a capacity such as `8·D` cannot be written as one constant of a generic `D`.)
pub(crate) struct Expansion<const ROWS: usize, const WIDTH: usize = 4> {
    parts: [[f64; WIDTH]; ROWS],
    len: usize,
}

impl<const ROWS: usize, const WIDTH: usize> Default for Expansion<ROWS, WIDTH> {
    fn default() -> Self {
        Expansion {
            parts: [[0.0; WIDTH]; ROWS],
            len: 0,
        }
    }
}

impl<const ROWS: usize, const WIDTH: usize> Expansion<ROWS, WIDTH> {
    /// Adds `b`, exactly (at most `WIDTH·ROWS` times: an expansion of `m` values has at most `m`
    /// parts).
    pub(crate) fn add(&mut self, b: f64) {
        let mut carry = b;
        let mut kept = 0;
        for i in 0..self.len {
            let (sum, error) = two_sum(carry, self.parts[i / WIDTH][i % WIDTH]);
            if error != 0.0 {
                self.parts[kept / WIDTH][kept % WIDTH] = error;
                kept += 1;
            }
            carry = sum;
        }
        if carry != 0.0 {
            self.parts[kept / WIDTH][kept % WIDTH] = carry;
            kept += 1;
        }
        self.len = kept;
    }

    /// The sum's sign, as it compares with zero: its largest part's.
    pub(crate) fn sign(&self) -> Ordering {
        match self.len {
            0 => Ordering::Equal,
            n => self.parts[(n - 1) / WIDTH][(n - 1) % WIDTH].total_cmp(&0.0),
        }
    }
}
