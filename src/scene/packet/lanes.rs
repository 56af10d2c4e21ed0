//! Eight `f32` lanes, one ray of a packet each: the operations a packet's node test needs
//! ([`Eight`]), portable ([`F32x8`]) and in one AVX register ([`Avx8`], x86-64).
//!
//! Each operation is the one the single cast's probe applies to its ray, lane by lane, with the
//! same rounding (`src/scene/probe/f32.rs`): a difference, a product, and the comparisons that
//! keep the larger entry and the smaller exit, so the lanes give each ray the bits its own probe
//! gives. [`Avx8`] is written with the instructions themselves, as the batches' `Avx4` is
//! (`src/batch/avx.rs`): the vectoriser split the portable lanes into halves and copied them
//! around.

/// Eight `f32` lanes.
pub(crate) trait Eight: Copy {
    /// The lanes of `values`.
    fn load(values: &[f32; 8]) -> Self;
    /// `x` in every lane.
    fn splat(x: f32) -> Self;
    /// The lanes, stored.
    fn store(self, to: &mut [f32; 8]);
    /// `self − other`, lane by lane.
    fn sub(self, other: Self) -> Self;
    /// `self · other`, lane by lane.
    fn mul(self, other: Self) -> Self;
    /// `self` where it exceeds `other`, else `other` (so `other` where either is a NaN).
    fn above(self, other: Self) -> Self;
    /// `self` where it is below `other`, else `other` (so `other` where either is a NaN).
    fn below(self, other: Self) -> Self;
    /// The lanes where `self ≤ other`, as bits (bit `j` for lane `j`).
    fn at_most(self, other: Self) -> u32;
}

/// Eight portable lanes.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct F32x8([f32; 8]);

impl Eight for F32x8 {
    #[inline(always)]
    fn load(values: &[f32; 8]) -> Self {
        F32x8(*values)
    }

    #[inline(always)]
    fn splat(x: f32) -> Self {
        F32x8([x; 8])
    }

    #[inline(always)]
    fn store(self, to: &mut [f32; 8]) {
        *to = self.0;
    }

    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        F32x8(core::array::from_fn(|j| self.0[j] - other.0[j]))
    }

    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        F32x8(core::array::from_fn(|j| self.0[j] * other.0[j]))
    }

    #[inline(always)]
    fn above(self, other: Self) -> Self {
        F32x8(core::array::from_fn(|j| {
            if self.0[j] > other.0[j] {
                self.0[j]
            } else {
                other.0[j]
            }
        }))
    }

    #[inline(always)]
    fn below(self, other: Self) -> Self {
        F32x8(core::array::from_fn(|j| {
            if self.0[j] < other.0[j] {
                self.0[j]
            } else {
                other.0[j]
            }
        }))
    }

    #[inline(always)]
    fn at_most(self, other: Self) -> u32 {
        (0..8).fold(0, |bits, j| bits | u32::from(self.0[j] <= other.0[j]) << j)
    }
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) use avx::Avx8;

/// [`Avx8`], apart for its `unsafe`.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[allow(unsafe_code)]
mod avx {
    use core::arch::x86_64::{
        __m256, _CMP_LE_OQ, _mm256_cmp_ps, _mm256_loadu_ps, _mm256_max_ps, _mm256_min_ps,
        _mm256_movemask_ps, _mm256_mul_ps, _mm256_set1_ps, _mm256_storeu_ps, _mm256_sub_ps,
    };

    use super::Eight;

    /// Eight `f32` lanes in an AVX register. One exists only in code compiled for AVX2 and FMA
    /// and run on a CPU that has them: the packets' loop makes them only when
    /// [`with_vector_registers`](crate::batch::dispatch::with_vector_registers) runs it in such
    /// code and says so.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Avx8(__m256);

    /// Applies an AVX intrinsic.
    macro_rules! avx {
        ($e:expr) => {
            // SAFETY: an `Avx8` exists only in code compiled for AVX2 and FMA and run on a CPU
            // that has them (see the type's documentation), which is all the intrinsics
            // require; the loads and stores read and write the eight `f32`s of an array.
            unsafe { $e }
        };
    }

    impl Eight for Avx8 {
        #[inline(always)]
        fn load(values: &[f32; 8]) -> Self {
            Avx8(avx!(_mm256_loadu_ps(values.as_ptr())))
        }

        #[inline(always)]
        fn splat(x: f32) -> Self {
            Avx8(avx!(_mm256_set1_ps(x)))
        }

        #[inline(always)]
        fn store(self, to: &mut [f32; 8]) {
            avx!(_mm256_storeu_ps(to.as_mut_ptr(), self.0));
        }

        #[inline(always)]
        fn sub(self, other: Self) -> Self {
            Avx8(avx!(_mm256_sub_ps(self.0, other.0)))
        }

        #[inline(always)]
        fn mul(self, other: Self) -> Self {
            Avx8(avx!(_mm256_mul_ps(self.0, other.0)))
        }

        /// `maxps` gives its first operand where it is greater, else its second.
        #[inline(always)]
        fn above(self, other: Self) -> Self {
            Avx8(avx!(_mm256_max_ps(self.0, other.0)))
        }

        /// `minps` gives its first operand where it is less, else its second.
        #[inline(always)]
        fn below(self, other: Self) -> Self {
            Avx8(avx!(_mm256_min_ps(self.0, other.0)))
        }

        #[inline(always)]
        fn at_most(self, other: Self) -> u32 {
            avx!(_mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LE_OQ>(
                self.0, other.0
            ))) as u32
        }
    }
}
