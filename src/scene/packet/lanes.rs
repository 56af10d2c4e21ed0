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
    /// Eight bytes as whole numbers in the lanes.
    fn bytes(values: &[u8; 8]) -> Self;
    /// `self · by + to`, lane by lane: where the exact value is an `f32` (a grid value of
    /// `src/scene/node/packed.rs`), that value, fused or not.
    fn exact_mul_add(self, by: Self, to: Self) -> Self;
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
    /// The lanes in `lanes` (bits), each as the bits of its value (at least `+0`, so that they
    /// order as the values do) with the lane's index in the three low bits, sorted, the smallest
    /// first, and `i32::MAX` in the places after them: by the nineteen comparators of Batcher's
    /// odd-even merge sort of eight, in six layers.
    fn sorted(self, lanes: u32) -> [u32; 8];
}

/// The six layers of Batcher's odd-even merge sort of eight: each lane's partner, and the lanes
/// that keep the smaller of the two, as bits (a lane that is its own partner keeps itself).
const LAYERS: [([u32; 8], u8); 6] = [
    ([1, 0, 3, 2, 5, 4, 7, 6], 0x55),
    ([2, 3, 0, 1, 6, 7, 4, 5], 0x33),
    ([0, 2, 1, 3, 4, 6, 5, 7], 0x22),
    ([4, 5, 6, 7, 0, 1, 2, 3], 0x0f),
    ([0, 1, 4, 5, 2, 3, 6, 7], 0x0c),
    ([0, 2, 1, 4, 3, 6, 5, 7], 0x2a),
];

/// The keys [`Eight::sorted`] sorts: lane `j`'s bits with `j` in the three low bits where bit
/// `j` of `lanes` is set, else `i32::MAX`.
#[inline(always)]
fn keys(values: &[f32; 8], lanes: u32) -> [u32; 8] {
    core::array::from_fn(|j| {
        if lanes >> j & 1 != 0 {
            values[j].to_bits() & !7 | j as u32
        } else {
            i32::MAX as u32
        }
    })
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
    fn bytes(values: &[u8; 8]) -> Self {
        F32x8(values.map(f32::from))
    }

    #[inline(always)]
    fn exact_mul_add(self, by: Self, to: Self) -> Self {
        F32x8(core::array::from_fn(|j| self.0[j] * by.0[j] + to.0[j]))
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

    #[inline(always)]
    fn sorted(self, lanes: u32) -> [u32; 8] {
        let mut keys = keys(&self.0, lanes);
        for (partner, smaller) in LAYERS {
            keys = core::array::from_fn(|j| {
                let (a, b) = (keys[j], keys[partner[j] as usize]);
                if smaller >> j & 1 != 0 {
                    a.min(b)
                } else {
                    a.max(b)
                }
            });
        }
        keys
    }
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) use avx::Avx8;

/// [`Avx8`], apart for its `unsafe`.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[allow(unsafe_code)]
mod avx {
    use core::arch::x86_64::{
        __m256, __m256i, _CMP_LE_OQ, _mm_loadl_epi64, _mm256_and_si256, _mm256_blend_epi32,
        _mm256_blendv_epi8, _mm256_castps_si256, _mm256_cmp_ps, _mm256_cmpeq_epi32,
        _mm256_cvtepi32_ps, _mm256_cvtepu8_epi32, _mm256_fmadd_ps, _mm256_loadu_ps,
        _mm256_loadu_si256, _mm256_max_epi32, _mm256_max_ps, _mm256_min_epi32, _mm256_min_ps,
        _mm256_movemask_ps, _mm256_mul_ps, _mm256_or_si256, _mm256_permutevar8x32_epi32,
        _mm256_set1_epi32, _mm256_set1_ps, _mm256_setr_epi32, _mm256_storeu_ps,
        _mm256_storeu_si256, _mm256_sub_ps,
    };

    use super::{Eight, LAYERS};

    /// One layer of the sort: each lane against its partner (`LAYERS[$layer]`), the smaller kept
    /// where the layer's bits say.
    macro_rules! layer {
        ($keys:ident, $layer:literal) => {{
            const SMALLER: i32 = LAYERS[$layer].1 as i32;
            let partner = LAYERS[$layer].0.map(|p| p as i32);
            let index = avx!(_mm256_loadu_si256(partner.as_ptr().cast()));
            let other = avx!(_mm256_permutevar8x32_epi32($keys, index));
            let (low, high) = avx!((
                _mm256_min_epi32($keys, other),
                _mm256_max_epi32($keys, other)
            ));
            avx!(_mm256_blend_epi32::<SMALLER>(high, low))
        }};
    }

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
            // require; the loads and stores read and write the eight `f32`s (or bytes) of an
            // array.
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
        fn bytes(values: &[u8; 8]) -> Self {
            Avx8(avx!(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(
                _mm_loadl_epi64(values.as_ptr().cast())
            ))))
        }

        #[inline(always)]
        fn exact_mul_add(self, by: Self, to: Self) -> Self {
            Avx8(avx!(_mm256_fmadd_ps(self.0, by.0, to.0)))
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

        /// The keys of [`super::keys`], formed and sorted in the register (the values at least
        /// `+0`, so their bits as `i32`s order as they do, below `i32::MAX`).
        #[inline(always)]
        fn sorted(self, lanes: u32) -> [u32; 8] {
            let lane = avx!(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            let bit = avx!(_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128));
            let kept = avx!(_mm256_cmpeq_epi32(
                _mm256_and_si256(_mm256_set1_epi32(lanes as i32), bit),
                bit
            ));
            let keys = avx!(_mm256_or_si256(
                _mm256_and_si256(_mm256_castps_si256(self.0), _mm256_set1_epi32(!7)),
                lane
            ));
            let keys = avx!(_mm256_blendv_epi8(_mm256_set1_epi32(i32::MAX), keys, kept));
            let keys = layer!(keys, 0);
            let keys = layer!(keys, 1);
            let keys = layer!(keys, 2);
            let keys = layer!(keys, 3);
            let keys = layer!(keys, 4);
            let keys: __m256i = layer!(keys, 5);
            let mut out = [0u32; 8];
            avx!(_mm256_storeu_si256(out.as_mut_ptr().cast(), keys));
            out
        }
    }
}
