//! Four rays side by side: the [`Four`] lanes a batch runs the cores on, and [`F64x4`], the
//! portable ones.
//!
//! Every operation applies the scalar lane's operation lane by lane, so a group of four returns
//! the same bits as four single casts. [`F64x4`] is an array whose lane loops the compiler turns
//! into SIMD instructions where it can: two lanes per SSE2 instruction on the default x86-64
//! target, NEON's on AArch64. The batches compiled for AVX2 or AVX-512 take `Avx4` instead
//! (`avx.rs`), written with the instructions themselves.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::__m128d;
use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

use crate::core::lane::{Lane, Mask, pow2_scale};
use crate::real::Real;

/// Four lanes: what a batch needs beyond [`Lane`].
pub(crate) trait Four: Lane<Mask: FourMask> {
    /// Lane `k` holds `lanes[k]`.
    fn from_array(lanes: [f64; 4]) -> Self;

    /// The lanes, lane `k` at index `k`.
    fn to_array(self) -> [f64; 4];

    /// Lanes 0 and 1 from `low`, 2 and 3 from `high`.
    #[cfg(target_arch = "x86_64")]
    fn from_halves(low: __m128d, high: __m128d) -> Self;

    /// The lanes rounded to the width `T`, as [`Real::from_wide`] rounds them.
    #[inline(always)]
    fn narrow<T: Real>(self) -> [T; 4] {
        let [a, b, c, d] = self.to_array();
        [a, b, c, d].map(T::from_wide)
    }

    /// The lanes, whole numbers within `i32`'s range, as integers.
    #[inline(always)]
    fn whole(self) -> [i32; 4] {
        self.to_array().map(|lane| lane as i32)
    }

    /// The lanes rounded to the width `T` and held as `f64` again: an operation of `T` done in
    /// `f64` lanes and then rounded so gives `T`'s own result (`f64` has more than twice an
    /// `f32`'s bits, so rounding twice is rounding once for `+`, `−`, `·`, `/`; Figueroa, "When
    /// is double rounding innocuous?", SIGNUM Newsletter 30(3), 1995).
    #[inline(always)]
    fn rounded<T: Real>(self) -> Self {
        if T::EPSILON_WIDE == f64::EPSILON {
            return self;
        }
        Self::from_array(self.narrow::<T>().map(T::to_wide))
    }
}

/// Four comparison results: what a batch needs beyond [`Mask`].
pub(crate) trait FourMask: Mask {
    /// `set` in every lane.
    fn splat(set: bool) -> Self;

    /// Bit `k` set where lane `k` is.
    fn bits(self) -> u32;
}

/// Four `f64` lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct F64x4(pub(crate) [f64; 4]);

/// Four comparison results, each all ones (set) or all zeros, as vector comparisons give them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct M64x4([u64; 4]);

impl FourMask for M64x4 {
    #[inline(always)]
    fn splat(set: bool) -> Self {
        M64x4([if set { !0 } else { 0 }; 4])
    }

    #[inline(always)]
    fn bits(self) -> u32 {
        let [a, b, c, d] = self.0.map(|lane| u32::from(lane != 0));
        a | b << 1 | c << 2 | d << 3
    }
}

impl Four for F64x4 {
    #[inline(always)]
    fn from_array(lanes: [f64; 4]) -> Self {
        F64x4(lanes)
    }

    #[inline(always)]
    fn to_array(self) -> [f64; 4] {
        self.0
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn from_halves(low: __m128d, high: __m128d) -> Self {
        // SAFETY: two `__m128d` are four `f64` in lane order, with no padding or invalid values.
        #[allow(unsafe_code)]
        F64x4(unsafe { core::mem::transmute::<[__m128d; 2], [f64; 4]>([low, high]) })
    }
}

impl F64x4 {
    /// `f` applied to each lane.
    #[inline(always)]
    fn map(self, f: impl Fn(f64) -> f64) -> Self {
        let [a, b, c, d] = self.0;
        F64x4([f(a), f(b), f(c), f(d)])
    }

    /// `f` applied to each pair of lanes.
    #[inline(always)]
    fn zip(self, other: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        let ([a, b, c, d], [e, g, h, i]) = (self.0, other.0);
        F64x4([f(a, e), f(b, g), f(c, h), f(d, i)])
    }

    /// `f` applied to each pair of lanes, giving a mask.
    #[inline(always)]
    fn test(self, other: Self, f: impl Fn(f64, f64) -> bool) -> M64x4 {
        let ([a, b, c, d], [e, g, h, i]) = (self.0, other.0);
        let m = |set: bool| if set { !0 } else { 0 };
        M64x4([m(f(a, e)), m(f(b, g)), m(f(c, h)), m(f(d, i))])
    }
}

macro_rules! lanewise {
    ($($op:ident $method:ident),*) => {$(
        impl $op for F64x4 {
            type Output = Self;
            #[inline(always)]
            fn $method(self, other: Self) -> Self {
                self.zip(other, |a, b| $op::$method(a, b))
            }
        }
    )*};
}
lanewise!(Add add, Sub sub, Mul mul, Div div);

impl Neg for F64x4 {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self.map(|a| -a)
    }
}

impl BitAnd for M64x4 {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, other: Self) -> Self {
        let ([a, b, c, d], [e, g, h, i]) = (self.0, other.0);
        M64x4([a & e, b & g, c & h, d & i])
    }
}

impl BitOr for M64x4 {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, other: Self) -> Self {
        let ([a, b, c, d], [e, g, h, i]) = (self.0, other.0);
        M64x4([a | e, b | g, c | h, d | i])
    }
}

impl Not for M64x4 {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        let [a, b, c, d] = self.0;
        M64x4([!a, !b, !c, !d])
    }
}

impl Mask for M64x4 {
    #[inline(always)]
    fn all(self) -> bool {
        // Not `==` on the arrays: compiled as a comparison of memory, it kept a mask that is the
        // same in every group (a box's answered lanes) from being folded away.
        let [a, b, c, d] = self.0;
        a & b & c & d == !0
    }
}

impl Lane for F64x4 {
    type Mask = M64x4;

    #[inline(always)]
    fn splat(x: f64) -> Self {
        F64x4([x; 4])
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        self.map(Lane::sqrt)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        self.map(Lane::abs)
    }
    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        self.zip(sign, Lane::copysign)
    }
    #[inline(always)]
    fn lt(self, other: Self) -> M64x4 {
        self.test(other, |a, b| a < b)
    }
    #[inline(always)]
    fn le(self, other: Self) -> M64x4 {
        self.test(other, |a, b| a <= b)
    }
    #[inline(always)]
    fn eq(self, other: Self) -> M64x4 {
        self.test(other, |a, b| a == b)
    }
    #[inline(always)]
    fn select(mask: M64x4, yes: Self, no: Self) -> Self {
        let pick = |k: usize| {
            f64::from_bits((mask.0[k] & yes.0[k].to_bits()) | (!mask.0[k] & no.0[k].to_bits()))
        };
        F64x4([pick(0), pick(1), pick(2), pick(3)])
    }
    #[inline(always)]
    fn pow2_scale(self) -> (Self, Self) {
        let [a, b, c, d] = self.0.map(pow2_scale);
        (F64x4([a.0, b.0, c.0, d.0]), F64x4([a.1, b.1, c.1, d.1]))
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        let f = |k: usize| Lane::mul_add(self.0[k], b.0[k], c.0[k]);
        F64x4([f(0), f(1), f(2), f(3)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_lanes_give_the_bits_of_one() {
        let a = [0.1, -3.0, 1e-300, 7.5];
        let b = [3.0, 0.7, -1e300, 7.5];
        let (x, y) = (F64x4(a), F64x4(b));
        for k in 0..4 {
            assert_eq!((x / y).0[k], a[k] / b[k]);
            assert_eq!(Lane::sqrt(x.abs()).0[k], Lane::sqrt(a[k].abs()));
            assert_eq!(x.min(y).0[k], a[k].min(b[k]));
            assert_eq!(x.copysign(y).0[k], a[k].copysign(b[k]));
            assert_eq!(x.abs().pow2_scale().0.0[k], a[k].abs().pow2_scale().0);
        }
    }
}
