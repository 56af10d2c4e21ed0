//! [`Avx4`]: four `f64` lanes in one AVX register, the lane type of the batches compiled for AVX2
//! or AVX-512 (x86-64).
//!
//! Each operation is the AVX instruction that applies the scalar lane's operation to every lane,
//! with the same rounding, so a group of four returns the same bits as four single casts. Written
//! with the instructions themselves rather than left to the compiler's vectoriser, which turned
//! the portable lanes ([`F64x4`](super::lanes::F64x4)) into vector code in some builds and into
//! scalar code with shuffles in others: with thin LTO in one codegen unit, more than twice the
//! instructions per ray of the default profile in the `f64` box batch (docs/ARCHITECTURE.md,
//! "Lanes and the batch").
//!
//! The intrinsics require AVX (and FMA for [`Lane::mul_add`]), so Rust calls them `unsafe` in
//! code that does not itself enable those features, as these `#[inline(always)]` methods do not.
//! They are sound here because an `Avx4` exists only inside the functions of
//! [`with_vector_registers`](super::dispatch::with_vector_registers) that are compiled for AVX2 and
//! FMA and called only after the CPU was found to have them: `dispatch.rs` is the only module
//! that names this type, and it hands it to a batch's generic loop only there. Inlined into
//! those functions, every intrinsic becomes its one instruction.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128d, __m256d, _CMP_EQ_OQ, _CMP_LE_OQ, _CMP_LT_OQ, _mm_storeu_ps, _mm_storeu_si128,
    _mm256_add_pd, _mm256_and_pd, _mm256_andnot_pd, _mm256_blendv_pd, _mm256_castsi256_pd,
    _mm256_cmp_pd, _mm256_cvtpd_ps, _mm256_cvtps_pd, _mm256_cvttpd_epi32, _mm256_div_pd,
    _mm256_fmadd_pd, _mm256_loadu_pd, _mm256_max_pd, _mm256_min_pd, _mm256_movemask_pd,
    _mm256_mul_pd, _mm256_or_pd, _mm256_set_m128d, _mm256_set1_epi64x, _mm256_set1_pd,
    _mm256_setzero_pd, _mm256_sqrt_pd, _mm256_storeu_pd, _mm256_sub_pd, _mm256_xor_pd,
};
use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

use super::lanes::{Four, FourMask};
use crate::core::lane::{Lane, Mask, pow2_scale};
use crate::real::Real;

/// Four `f64` lanes in an AVX register. See the module's documentation for when one may exist.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx4(__m256d);

/// Four comparison results in an AVX register, each lane all ones (set) or all zeros.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AvxMask(__m256d);

/// Applies an AVX intrinsic.
macro_rules! avx {
    ($e:expr) => {
        // SAFETY: an `Avx4` or `AvxMask` exists only in code compiled for AVX2 and FMA and run on
        // a CPU that has them (see the module's documentation), which is all the intrinsics
        // require.
        unsafe { $e }
    };
}

/// The sign bit in every lane.
#[inline(always)]
fn sign() -> __m256d {
    avx!(_mm256_set1_pd(-0.0))
}

impl Default for Avx4 {
    #[inline(always)]
    fn default() -> Self {
        Avx4(avx!(_mm256_setzero_pd()))
    }
}

impl Default for AvxMask {
    #[inline(always)]
    fn default() -> Self {
        AvxMask(avx!(_mm256_setzero_pd()))
    }
}

macro_rules! lanewise {
    ($($op:ident $method:ident $intrinsic:ident),*) => {$(
        impl $op for Avx4 {
            type Output = Self;
            #[inline(always)]
            fn $method(self, other: Self) -> Self {
                Avx4(avx!($intrinsic(self.0, other.0)))
            }
        }
    )*};
}
lanewise!(Add add _mm256_add_pd, Sub sub _mm256_sub_pd, Mul mul _mm256_mul_pd, Div div _mm256_div_pd);

impl Neg for Avx4 {
    type Output = Self;
    /// The sign bit flipped, as `-x` does.
    #[inline(always)]
    fn neg(self) -> Self {
        Avx4(avx!(_mm256_xor_pd(self.0, sign())))
    }
}

impl BitAnd for AvxMask {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, other: Self) -> Self {
        AvxMask(avx!(_mm256_and_pd(self.0, other.0)))
    }
}

impl BitOr for AvxMask {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, other: Self) -> Self {
        AvxMask(avx!(_mm256_or_pd(self.0, other.0)))
    }
}

impl Not for AvxMask {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        AvxMask(avx!(_mm256_xor_pd(
            self.0,
            _mm256_castsi256_pd(_mm256_set1_epi64x(-1))
        )))
    }
}

impl Mask for AvxMask {
    #[inline(always)]
    fn all(self) -> bool {
        self.bits() == 0b1111
    }
}

impl FourMask for AvxMask {
    #[inline(always)]
    fn splat(set: bool) -> Self {
        AvxMask(avx!(_mm256_castsi256_pd(_mm256_set1_epi64x(-i64::from(
            set
        )))))
    }

    #[inline(always)]
    fn bits(self) -> u32 {
        avx!(_mm256_movemask_pd(self.0)) as u32
    }
}

impl Lane for Avx4 {
    type Mask = AvxMask;

    #[inline(always)]
    fn splat(x: f64) -> Self {
        Avx4(avx!(_mm256_set1_pd(x)))
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Avx4(avx!(_mm256_sqrt_pd(self.0)))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Avx4(avx!(_mm256_andnot_pd(sign(), self.0)))
    }
    #[inline(always)]
    fn copysign(self, sign_of: Self) -> Self {
        let magnitude = avx!(_mm256_andnot_pd(sign(), self.0));
        Avx4(avx!(_mm256_or_pd(
            magnitude,
            _mm256_and_pd(sign(), sign_of.0)
        )))
    }
    /// Ordered and quiet, as `<` is: false where either is NaN.
    #[inline(always)]
    fn lt(self, other: Self) -> AvxMask {
        AvxMask(avx!(_mm256_cmp_pd::<_CMP_LT_OQ>(self.0, other.0)))
    }
    #[inline(always)]
    fn le(self, other: Self) -> AvxMask {
        AvxMask(avx!(_mm256_cmp_pd::<_CMP_LE_OQ>(self.0, other.0)))
    }
    #[inline(always)]
    fn eq(self, other: Self) -> AvxMask {
        AvxMask(avx!(_mm256_cmp_pd::<_CMP_EQ_OQ>(self.0, other.0)))
    }
    /// By each mask lane's sign bit, which is every bit of it.
    #[inline(always)]
    fn select(mask: AvxMask, yes: Self, no: Self) -> Self {
        Avx4(avx!(_mm256_blendv_pd(no.0, yes.0, mask.0)))
    }
    /// Lane by lane, as the scalar lane does: it is off the batches' usual path.
    #[inline(always)]
    fn pow2_scale(self) -> (Self, Self) {
        let [a, b, c, d] = self.to_array();
        let [a, b, c, d] = [pow2_scale(a), pow2_scale(b), pow2_scale(c), pow2_scale(d)];
        (
            Self::from_array([a.0, b.0, c.0, d.0]),
            Self::from_array([a.1, b.1, c.1, d.1]),
        )
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        Avx4(avx!(_mm256_fmadd_pd(self.0, b.0, c.0)))
    }
    /// `vminpd`: the second operand where they compare equal or either is NaN, as the default.
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        Avx4(avx!(_mm256_min_pd(self.0, other.0)))
    }
    /// `vmaxpd`: the second operand where they compare equal or either is NaN, as the default.
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        Avx4(avx!(_mm256_max_pd(self.0, other.0)))
    }
}

impl Four for Avx4 {
    #[inline(always)]
    fn from_array(lanes: [f64; 4]) -> Self {
        // SAFETY: as for every intrinsic here (`avx!`); the unaligned load reads the four `f64`
        // of `lanes`.
        Avx4(unsafe { _mm256_loadu_pd(lanes.as_ptr()) })
    }

    #[inline(always)]
    fn to_array(self) -> [f64; 4] {
        let mut lanes = [0.0; 4];
        // SAFETY: as for every intrinsic here (`avx!`); the unaligned store writes the four
        // `f64` of `lanes`.
        unsafe { _mm256_storeu_pd(lanes.as_mut_ptr(), self.0) };
        lanes
    }

    #[inline(always)]
    fn from_halves(low: __m128d, high: __m128d) -> Self {
        Avx4(avx!(_mm256_set_m128d(high, low)))
    }

    /// One `vcvttpd2dq`.
    #[inline(always)]
    fn whole(self) -> [i32; 4] {
        let mut lanes = [0i32; 4];
        // SAFETY: as for every intrinsic here (`avx!`); the unaligned store writes the four
        // `i32` of `lanes`.
        unsafe { _mm_storeu_si128(lanes.as_mut_ptr().cast(), _mm256_cvttpd_epi32(self.0)) };
        lanes
    }

    /// For `f32`, one `vcvtpd2ps` and one `vcvtps2pd`.
    #[inline(always)]
    fn rounded<T: Real>(self) -> Self {
        if T::EPSILON_WIDE == f64::EPSILON {
            return self;
        }
        Avx4(avx!(_mm256_cvtps_pd(_mm256_cvtpd_ps(self.0))))
    }

    /// For `f32`, one `vcvtpd2ps` (which rounds as `as f32` does) rather than one conversion per
    /// lane: the conversions were the `f32` box batch's bottleneck. (An `f32` value widened and
    /// narrowed again is itself, which the compiler folds.)
    #[inline(always)]
    fn narrow<T: Real>(self) -> [T; 4] {
        let [a, b, c, d] = if T::EPSILON_WIDE == f64::EPSILON {
            self.to_array()
        } else {
            let mut lanes = [0.0f32; 4];
            // SAFETY: as for every intrinsic here (`avx!`); the store writes the four `f32` of
            // `lanes`.
            unsafe { _mm_storeu_ps(lanes.as_mut_ptr(), _mm256_cvtpd_ps(self.0)) };
            lanes.map(f64::from)
        };
        [
            T::from_wide(a),
            T::from_wide(b),
            T::from_wide(c),
            T::from_wide(d),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation gives, lane by lane, the bits of the scalar lane's, on values that take
    /// each comparison both ways, NaN and signed zeros among them.
    #[test]
    fn four_lanes_give_the_bits_of_one() {
        if !(std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")) {
            return;
        }
        // SAFETY: the CPU has AVX2 and FMA, detected just above.
        unsafe { check() }
    }

    #[target_feature(enable = "avx2,fma")]
    fn check() {
        let values = [
            0.1,
            -3.0,
            1e-300,
            7.5,
            -0.0,
            0.0,
            f64::NAN,
            f64::INFINITY,
            2.5e300,
        ];
        let bits = |v: Avx4| v.to_array().map(f64::to_bits);
        for (i, &a0) in values.iter().enumerate() {
            let a = [
                a0,
                values[(i + 1) % 9],
                values[(i + 4) % 9],
                values[(i + 7) % 9],
            ];
            for j in 0..values.len() {
                let b = [values[j], values[(j + 2) % 9], a[2], values[(j + 5) % 9]];
                let c = [a[3], b[0], 1.0, -b[3]];
                let (x, y, z) = (
                    Avx4::from_array(a),
                    Avx4::from_array(b),
                    Avx4::from_array(c),
                );
                let each = |f: fn(f64, f64) -> f64| [0, 1, 2, 3].map(|k| f(a[k], b[k]).to_bits());
                assert_eq!(bits(x + y), each(|p, q| p + q));
                assert_eq!(bits(x - y), each(|p, q| p - q));
                assert_eq!(bits(x * y), each(|p, q| p * q));
                assert_eq!(bits(x / y), each(|p, q| p / q));
                assert_eq!(bits(-x), each(|p, _| -p));
                assert_eq!(bits(x.min(y)), each(Lane::min));
                assert_eq!(bits(x.max(y)), each(Lane::max));
                assert_eq!(bits(x.copysign(y)), each(Lane::copysign));
                assert_eq!(bits(x.abs()), each(|p, _| Lane::abs(p)));
                assert_eq!(bits(x.abs().sqrt()), each(|p, _| Lane::sqrt(Lane::abs(p))));
                let fused = [0, 1, 2, 3].map(|k| Lane::mul_add(a[k], b[k], c[k]).to_bits());
                assert_eq!(bits(x.mul_add(y, z)), fused);
                let masks = [
                    (x.lt(y), [0, 1, 2, 3].map(|k| a[k] < b[k])),
                    (x.le(y), [0, 1, 2, 3].map(|k| a[k] <= b[k])),
                    (x.eq(y), [0, 1, 2, 3].map(|k| a[k] == b[k])),
                ];
                for (mask, expected) in masks {
                    let set = [0, 1, 2, 3].map(|k| mask.bits() >> k & 1 != 0);
                    assert_eq!(set, expected, "{a:?} {b:?}");
                    let picked = [0, 1, 2, 3].map(|k| if expected[k] { a[k] } else { b[k] });
                    assert_eq!(bits(Avx4::select(mask, x, y)), picked.map(f64::to_bits));
                    assert_eq!((!mask).bits(), !mask.bits() & 0b1111);
                }
                assert_eq!(
                    x.narrow::<f32>().map(f32::to_bits),
                    a.map(|p| (p as f32).to_bits())
                );
                assert_eq!(x.narrow::<f64>().map(f64::to_bits), a.map(f64::to_bits));
            }
        }
        assert!(AvxMask::splat(true).all() && !AvxMask::splat(false).all());
        let scaled = Avx4::from_array([3.0, 0.75, f64::MAX, 1e-300]).pow2_scale();
        let expected = [3.0, 0.75, f64::MAX, 1e-300].map(Lane::pow2_scale);
        assert_eq!(scaled.0.to_array(), expected.map(|e| e.0));
        assert_eq!(scaled.1.to_array(), expected.map(|e| e.1));
    }
}
