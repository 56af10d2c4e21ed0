//! A query's line against a node's children's boxes in `f32` lanes: the four children's
//! parameters per axis in one subtraction and one product each (Ize, "Robust BVH ray traversal",
//! Journal of Computer Graphics Techniques 2(2), 2013: parameters within a relative bound of the
//! exact ones, and the exit widened to cover it).
//!
//! # Why its skipped children hold no answer
//!
//! `src/scene/probe.rs` says what a child's box holds and how far a probe moves the origin from
//! each plane. Here the moved origin is rounded outward to `f32` (`o'ᵢ`: further from the plane,
//! as if the box were larger still), and each parameter is `t = (bᵢ − o'ᵢ)·wᵢ` in `f32`, for a
//! bound `bᵢ` of the node and a reciprocal `wᵢ` of the stored direction's component `nᵢ`:
//!
//! - near planes: `wᵢ` is `1/nᵢ` rounded toward zero to `f32` (`|wᵢ| ≤ |1/nᵢ|·(1 + 2^-53)`),
//! - far planes: `wᵢ` is `(1 + 2^-20)/nᵢ` rounded away from zero (`|wᵢ| ≥ (1 + 2^-20)/|nᵢ|·
//!   (1 − 2^-52)`).
//!
//! With `x = (bᵢ − o'ᵢ)/nᵢ` the exact parameter of the plane from the moved origin, the
//! subtraction and the product round once each, relative to their own results, so the computed
//! near parameter has `x`'s sign and `|t| ≤ |x|·(1 + 2.01·2^-24)`, and the far one has `x`'s sign
//! and `|t| ≥ |x|·(1 + 2^-20)·(1 − 2.01·2^-24)`. The exceptions keep these bounds in the
//! direction that matters: a difference or product beyond `f32`'s range is an infinity of `x`'s
//! sign (for a near parameter, the exact one is then beyond `f32::MAX`, and so are the exit and
//! every distance a body of the child reports, while a finite `reach` is at most that); a
//! result below `2^-126` has an absolute error of at most `2^-150`, which the margin's `2^-140`
//! exceeds; and where `nᵢ` is a zero, the infinities are those of `probe.rs`. (The origin must be
//! finite in `f32` once moved; for origins beyond that, [`Narrow::of`] declines, and the scene
//! takes [`Probe`](super::probe::Probe).)
//!
//! The entry is the largest near parameter and 0, the exit the smallest far parameter and
//! `reach`. If the exact entry `X` (from the moved origin, itself at most the entry into the
//! bodies' boxes grown by `τ`) is positive, the computed one is at most `X·(1 + 2.01·2^-24)`;
//! otherwise it is 0. A negative exact exit is computed negative; a positive one `Y` is computed
//! at least `Y·(1 + 2^-20)·(1 − 2.01·2^-24)`, above `Y·(1 + 2.01·2^-24)`. So where the line meets
//! the grown box ahead of the origin (`X ≤ Y`, `Y ≥ 0`), the computed entry is at most the
//! computed exit; and a child whose computed entry exceeds `reach(limit)` holds no hit within
//! `limit` (`probe.rs`).

use crate::ray::Ray;
use crate::real::Real;

use super::probe::{Line, margin};
use super::wide::{WIDTH, Wide, lanes};

/// How much a far parameter is widened: `1 + 2^-20`.
const WIDEN: f64 = 1.0 + 1.0 / 1_048_576.0;

/// A query's line, prepared once for every node it meets, in `f32`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Narrow<const D: usize> {
    /// Per axis, whether the stored direction's sign bit is set: the near plane is then the
    /// upper bound (`Wide::planes[1]`).
    negative: [bool; D],
    /// Per axis, the origin moved away from the near plane and rounded outward, and from the far
    /// one.
    near: [f32; D],
    far: [f32; D],
    /// Per axis, the reciprocals for the near and the far plane.
    to_near: [f32; D],
    to_far: [f32; D],
}

impl<const D: usize> Narrow<D> {
    /// The line through `ray`, against boxes grown by `radius` (0 for rays); `None` where the
    /// origin, moved, lies beyond `f32`'s range.
    #[inline]
    pub(crate) fn of<T: Real>(ray: &Ray<T, D>, radius: f64) -> Option<Self> {
        let mut line = Narrow {
            negative: [false; D],
            near: [0.0; D],
            far: [0.0; D],
            to_near: [0.0; D],
            to_far: [0.0; D],
        };
        let n: [f64; D] = ray.stored_dir().into();
        let o: [f64; D] = core::array::from_fn(|i| ray.origin()[i].to_wide());
        let by = margin::<T, D>(&o, radius);
        for (i, (&n, &o)) in n.iter().zip(&o).enumerate() {
            let above = <f32 as Real>::from_wide_up(o + by);
            let below = <f32 as Real>::from_wide_down(o - by);
            if !(above.is_finite() && below.is_finite()) {
                return None;
            }
            let (inv, wide) = (1.0 / n, WIDEN / n);
            line.negative[i] = n.is_sign_negative();
            (line.near[i], line.far[i], line.to_near[i], line.to_far[i]) = if line.negative[i] {
                (
                    below,
                    above,
                    <f32 as Real>::from_wide_up(inv),
                    <f32 as Real>::from_wide_down(wide),
                )
            } else {
                (
                    above,
                    below,
                    <f32 as Real>::from_wide_down(inv),
                    <f32 as Real>::from_wide_up(wide),
                )
            };
        }
        Some(line)
    }
}

impl<const D: usize> Line<D> for Narrow<D> {
    #[inline(always)]
    fn meets(&self, node: &Wide<D>, reach: f32) -> (u32, [f32; WIDTH]) {
        let mut enter = [0.0f32; WIDTH];
        let mut exit = [reach; WIDTH];
        for i in 0..D {
            let near = &node.planes[usize::from(self.negative[i])][i];
            let far = &node.planes[usize::from(!self.negative[i])][i];
            for k in 0..WIDTH {
                let to_near = (near[k] - self.near[i]) * self.to_near[i];
                let to_far = (far[k] - self.far[i]) * self.to_far[i];
                // A NaN (a plane through the origin of a zero component) leaves each as it was.
                enter[k] = if to_near > enter[k] {
                    to_near
                } else {
                    enter[k]
                };
                exit[k] = if to_far < exit[k] { to_far } else { exit[k] };
            }
        }
        (lanes(|k| enter[k] <= exit[k]), enter)
    }
}
