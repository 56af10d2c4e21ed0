//! Lanes: the arithmetic of the cores written once, for one `f64` or for several rays side by
//! side.
//!
//! The cores are generic over [`Lane`]. `f64` is one lane, with plain branches; the batches
//! (`crate::batch`) implement it for four lanes, applying every operation lane by lane with
//! exactly the operation the scalar lane uses, so that a batch of four returns the same bits as
//! four single casts. Vectors are arrays `[L; D]`, with the few helpers the cores need.

use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

use crate::real::sqrt;

/// A comparison result per lane.
pub(crate) trait Mask:
    Copy + Default + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    /// Whether every lane is set.
    fn all(self) -> bool;

    /// `yes` in the lanes that are set, `no` elsewhere.
    #[inline(always)]
    fn select(self, yes: Self, no: Self) -> Self {
        (self & yes) | (!self & no)
    }
}

/// One `f64` per lane, with the operations the cores use.
pub(crate) trait Lane:
    Copy
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// Per-lane comparison results.
    type Mask: Mask;

    /// `x` in every lane.
    fn splat(x: f64) -> Self;
    /// The correctly rounded square root.
    fn sqrt(self) -> Self;
    /// `|self|`.
    fn abs(self) -> Self;
    /// `|self|` with the sign of `sign`.
    fn copysign(self, sign: Self) -> Self;
    /// `self < other`.
    fn lt(self, other: Self) -> Self::Mask;
    /// `self <= other`.
    fn le(self, other: Self) -> Self::Mask;
    /// `self == other`.
    fn eq(self, other: Self) -> Self::Mask;
    /// `yes` where `mask` is set, `no` elsewhere.
    fn select(mask: Self::Mask, yes: Self, no: Self) -> Self;
    /// `(2^-e, 2^e)` for the unbiased exponent `e` of `self` (positive and finite), clamped to
    /// `[-1022, 1022]` so that both powers are normal numbers.
    fn pow2_scale(self) -> (Self, Self);
    /// `self·b + c` with one rounding: one instruction where the code is compiled with the `fma`
    /// target feature, a call to the math library's `fma` elsewhere.
    fn mul_add(self, b: Self, c: Self) -> Self;

    /// The smaller of two values (the second where they compare equal).
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        Self::select(self.lt(other), self, other)
    }

    /// The larger of two values (the second where they compare equal).
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        Self::select(other.lt(self), self, other)
    }
}

impl Mask for bool {
    #[inline(always)]
    fn all(self) -> bool {
        self
    }
}

/// The exponent scaling of [`Lane::pow2_scale`] for one value.
#[inline(always)]
pub(crate) fn pow2_scale(m: f64) -> (f64, f64) {
    let e = (((m.to_bits() >> 52) & 0x7ff) as i32 - 1023).clamp(-1022, 1022);
    let pow2 = |e: i32| f64::from_bits(((e + 1023) as u64) << 52);
    (pow2(-e), pow2(e))
}

impl Lane for f64 {
    type Mask = bool;

    #[inline(always)]
    fn splat(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        sqrt(self)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        f64::from_bits(self.to_bits() & !(1 << 63))
    }
    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        f64::from_bits((self.to_bits() & !(1 << 63)) | (sign.to_bits() & (1 << 63)))
    }
    #[inline(always)]
    fn lt(self, other: Self) -> bool {
        self < other
    }
    #[inline(always)]
    fn le(self, other: Self) -> bool {
        self <= other
    }
    #[inline(always)]
    fn eq(self, other: Self) -> bool {
        self == other
    }
    #[inline(always)]
    fn select(mask: bool, yes: Self, no: Self) -> Self {
        if mask { yes } else { no }
    }
    #[inline(always)]
    fn pow2_scale(self) -> (Self, Self) {
        pow2_scale(self)
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        num_traits::Float::mul_add(self, b, c)
    }
}

/// `[f(0), f(1), …, f(N − 1)]`, by a plain loop (which the optimiser sees through more readily
/// than `array::from_fn`).
#[inline(always)]
pub(crate) fn build<X: Copy + Default, const N: usize>(f: impl Fn(usize) -> X) -> [X; N] {
    let mut out = [X::default(); N];
    for (i, x) in out.iter_mut().enumerate() {
        *x = f(i);
    }
    out
}

/// `Σ aᵢ·bᵢ`, summed in index order.
#[inline(always)]
pub(crate) fn dot<L: Lane, const D: usize>(a: &[L; D], b: &[L; D]) -> L {
    if D == 0 {
        return L::splat(0.0);
    }
    let mut sum = a[0] * b[0];
    for i in 1..D {
        sum = sum + a[i] * b[i];
    }
    sum
}

/// `a − s·b`.
#[inline(always)]
pub(crate) fn sub_scaled<L: Lane, const D: usize>(a: &[L; D], s: L, b: &[L; D]) -> [L; D] {
    build(|i| a[i] - s * b[i])
}

/// `v·s`.
#[inline(always)]
pub(crate) fn scale<L: Lane, const D: usize>(v: &[L; D], s: L) -> [L; D] {
    build(|i| v[i] * s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pow2_scale_brings_a_value_into_one_to_two() {
        assert_eq!(3.0.pow2_scale(), (0.5, 2.0));
        assert_eq!(0.75.pow2_scale(), (2.0, 0.5));
        assert_eq!(f64::MAX.pow2_scale().1, 2f64.powi(1022));
    }
}
