//! A query's line against a node's children's boxes in `f32` lanes: the four children's
//! parameters per axis in one subtraction and one product each (Ize, "Robust BVH ray traversal",
//! Journal of Computer Graphics Techniques 2(2), 2013: parameters within a relative bound of the
//! exact ones, and the exit widened to cover it).
//!
//! # Why its skipped children hold no answer
//!
//! `src/scene/probe/mod.rs` says what a child's box holds and how far a probe moves the origin from
//! each plane. Here the origin is moved `2^-23·(|oᵢ| + margin)` further, then rounded to `f32`
//! (`o'ᵢ`; rounding to nearest takes back at most `2^-24` of the magnitude, or `2^-150` below
//! `2^-126`, which the margin's `2^-140` covers), and each parameter is `t = (bᵢ − o'ᵢ)·wᵢ` in
//! `f32`, for a bound `bᵢ` of the node and a reciprocal `wᵢ` of the stored direction's
//! component `nᵢ`:
//!
//! - near planes: `wᵢ` is `1/nᵢ` rounded to `f32`, held within `±f32::MAX` unless infinite
//!   (`|wᵢ| ≤ |1/nᵢ|·(1 + 2^-24)(1 + 2^-53)`),
//! - far planes: `wᵢ` is `(1 + 2^-20)/nᵢ` rounded to `f32` (`|wᵢ| ≥ (1 + 2^-20)/|nᵢ|·(1 −
//!   2^-24)(1 − 2^-53)`, or infinite).
//!
//! With `x = (bᵢ − o'ᵢ)/nᵢ` the exact parameter of the plane from the moved origin, the
//! subtraction and the product round once each, relative to their own results, so the computed
//! near parameter has `x`'s sign and `|t| ≤ |x|·(1 + 3.01·2^-24)`, and the far one has `x`'s sign
//! and `|t| ≥ |x|·(1 + 2^-20)·(1 − 3.01·2^-24)`. The exceptions keep these bounds in the
//! direction that matters: a difference or product beyond `f32`'s range is an infinity of `x`'s
//! sign (for a near parameter, the exact one is then beyond `f32::MAX`, and so are the exit and
//! every distance a body of the child reports, while a finite `cutoff` is at most that); a
//! result below `2^-126` has an absolute error of at most `2^-150`, which the margin's `2^-140`
//! exceeds; and where `nᵢ` is a zero, the infinities are those of `src/scene/probe/mod.rs`. (The origin must be
//! finite in `f32` once moved; for origins beyond that, [`F32Probe::of`] declines, and the scene
//! takes [`F64Probe`](super::F64Probe).)
//!
//! The entry is the largest near parameter and 0, the exit the smallest far parameter and
//! `cutoff`. If the exact entry `X` (from the moved origin, itself at most the entry into the
//! bodies' boxes grown by `τ`) is positive, the computed one is at most `X·(1 + 3.01·2^-24)`,
//! below `X·(1 + 2^-22)`; otherwise it is 0. A negative exact exit is computed negative; a
//! positive one `Y` is computed at least `Y·(1 + 2^-20)·(1 − 3.01·2^-24)`, above `Y·(1 +
//! 3.01·2^-24)`. So where the line meets the grown box ahead of the origin (`X ≤ Y`, `Y ≥ 0`),
//! the computed entry is at most the computed exit; and a child whose computed entry exceeds
//! `entry_cutoff(limit)` holds no hit within `limit` (`src/scene/probe/mod.rs`).
//!
//! Rounding to nearest, rather than outward, keeps the per-ray set-up free of branches on the
//! data: at `10^3` spheres, where a ray costs a few hundred nanoseconds, outward rounding's
//! branches cost a quarter of it.

use core::hint::select_unpredictable;

use crate::ray::Ray;
use crate::real::Real;

use super::super::node::{Sides, WIDTH, lanes};
use super::{Line, Slabs, margin};

/// How much a far parameter is widened: `1 + 2^-20`.
const WIDEN: f64 = 1.0 + 1.0 / 1_048_576.0;

/// `2^-23`: twice the largest relative error of rounding to `f32`.
const ROUNDING: f64 = 1.0 / 8_388_608.0;

/// A query's line, prepared once for every node it meets, in `f32`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F32Probe<const D: usize> {
    /// The origin moved away from the planes, in `f32`, and the reciprocals for the near and the
    /// far plane.
    slabs: Slabs<f32, D>,
}

impl<const D: usize> F32Probe<D> {
    /// The line through `ray`, against boxes grown by `radius` (0 for rays); `None` where the
    /// origin, moved, lies beyond `f32`'s range.
    #[inline]
    pub(crate) fn of<T: Real>(ray: &Ray<T, D>, radius: f64) -> Option<Self> {
        let mut line = Slabs {
            negative: [false; D],
            near: [0.0; D],
            far: [0.0; D],
            to_near: [0.0; D],
            to_far: [0.0; D],
        };
        let n: [f64; D] = ray.stored_dir().into();
        let o: [f64; D] = core::array::from_fn(|i| ray.origin()[i].to_wide());
        let by = margin::<T, D>(&o, radius);
        for i in 0..D {
            // The margin, and `2^-23` of the moved origin's magnitude: more than the rounding to
            // `f32` can take back. The one branch, on an origin beyond `f32`'s range, is taken by
            // almost no ray, so it costs no misprediction.
            let out = by + (o[i].abs() + by) * ROUNDING;
            let (above, below) = ((o[i] + out) as f32, (o[i] - out) as f32);
            if !(above.is_finite() && below.is_finite()) {
                return None;
            }
            let inv = 1.0 / n[i];
            let negative = n[i].is_sign_negative();
            line.negative[i] = negative;
            line.near[i] = select_unpredictable(negative, below, above);
            line.far[i] = select_unpredictable(negative, above, below);
            // Beyond `f32`'s range, the near reciprocal is held to it (a zero's stays infinite).
            let held = inv.clamp(-f64::from(f32::MAX), f64::from(f32::MAX));
            line.to_near[i] = select_unpredictable(inv.is_infinite(), inv, held) as f32;
            line.to_far[i] = (WIDEN / n[i]) as f32;
        }
        Some(F32Probe { slabs: line })
    }

    /// The origin moved away from the planes and the reciprocals.
    #[inline(always)]
    pub(crate) fn slabs(&self) -> &Slabs<f32, D> {
        &self.slabs
    }
}

impl<const D: usize> Line<D> for F32Probe<D> {
    #[inline(always)]
    fn meets(&self, node: &impl Sides<D>, cutoff: f32) -> (u32, [f32; WIDTH]) {
        let (enter, exit) = self.slabs.clip(node, [0.0; WIDTH], [cutoff; WIDTH]);
        (lanes(|k| enter[k] <= exit[k]), enter)
    }
}
