//! A point's signed distance to the boxes of a scene's hierarchy, from below, in `f32` lanes: a
//! node is skipped by the proximity queries (`src/scene/proximity.rs`) only where none of its
//! bodies could answer.
//!
//! # Why a skipped node holds no answer
//!
//! A scene relies on one property of its bodies' signed distances (the crate's shapes have it with
//! a wide margin, and a user's shape must have it too): **the signed distance a body reports at
//! `p` is at least the exact signed distance from `p` to the body's box grown by `τ` of its
//! bounds' magnitudes, less `E = τ·D·(‖p‖ + ‖b‖) + ε`**, for the largest magnitudes `‖p‖` of
//! `p`'s coordinates and `‖b‖` of the box's bounds, the dimension `D`, the smallest normal `f32`
//! value `ε = 2^-126`, and `τ` as for the casts: `2^-20` for `f32`, `2^-38` for `f64`
//! (`src/scene/probe/mod.rs`). It holds wherever the solid lies in its grown box and the reported
//! distance is within `E` of the exact one:
//!
//! - The signed distance (distance outside, minus the distance to the outside inside) only grows
//!   as the set shrinks: for `K ⊆ G`, a point outside `K` is at least as far from `K` as from
//!   `G`, a point inside `K` is at most as deep in `K` as in `G`, and a point inside `G` but
//!   outside `K` has `sd_G < 0 ≤ sd_K`. So `sd_G(p) ≤ sd_K(p)` for a child's box `G`, which holds
//!   every body's box grown by `4τ` (`src/scene/node/mod.rs`), and so its solid.
//! - raysweep's shapes report within 1 ulp in `f32` (`2^-23` of a distance at most
//!   `√D·(‖p‖ + ‖b‖)`) and, in `f64`, within `4·(ulp/2 + first-order change)`, the change under
//!   half-ulp moves of `p`, the centre, the semi-axes and the rotation's entries being a few
//!   `D²·2^-53·(‖p‖ + ‖b‖)` (`docs/point-queries.md`); `τ·D` leaves a factor of `2^8` or more.
//!   Near zero, `ε` covers the subnormal rounding.
//!
//! # The bound
//!
//! [`LowerBound`] rounds the point to `f32` (`p'`, within `2^-24·‖p‖ + 2^-150` per coordinate;
//! `sd_G` moves by at most `√D` times that, being 1-Lipschitz) and computes, four children at a
//! time, each box's signed distance `g` at `p'` in `f32`: outside, the length of the offset past
//! the box, from its per-axis parts (one rounding each, exact when subnormal), their squares, sum
//! and square root, within `(D + 2)·2^-23·g` where the sum is at least `2^-126` (below that, or
//! where it overflows, the largest part, which is no longer, rounded once); inside, minus the
//! smallest depth, rounded once. It returns
//!
//! `L = g − 2·((D + 4)·2^-23·|g| + D·(τ + 2^-22)·(‖p'‖ + ‖b‖) + ε)`,
//!
//! with `‖b‖` the child's largest bound, at least that of each body below it. The margin's terms
//! exceed, each by a factor of at least 1.3, the rounding of `g`, the move to `p'` and `E` (with
//! `‖p‖ ≤ ‖p'‖·(1 + 2^-23)`); the factor 2 covers the few roundings of the margin itself and of
//! the subtraction. So `L ≤ sd_G(p) − E`: the bound never exceeds the distance any body of the
//! child reports, and a child whose bound exceeds a query's limit holds no body within it.
//!
//! Where the offset overflows `f32`, `g` is `+∞` and the bound is `−∞` instead (a body of an `f64`
//! scene may still be nearer than a limit beyond `f32`'s range). A point with a NaN coordinate or
//! one beyond `f32`'s range, or a child with an infinite bound (a user's box with a NaN, bodies
//! beyond `f32`'s range), gets `−∞` or NaN, which no limit exceeds: nothing is skipped, and the
//! query is the loop. (Nodes' boxes are `f32`, so no bound could tell such bodies apart anyway.)

use nalgebra::Point;

use crate::real::Real;

use super::node::{LOWER, Node, UPPER, WIDTH, lanes, slack};

/// `2^-22`: room for rounding the point to `f32`, per unit of its magnitude and dimension.
const ROUNDING: f32 = 1.0 / 4_194_304.0;

/// A point, prepared once for every node a proximity query meets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LowerBound<const D: usize> {
    /// The point rounded to `f32`.
    p: [f32; D],
    /// `D·(τ + 2^-22)` of the bodies' width.
    room: f32,
    /// `D·(τ + 2^-22)·‖p'‖ + ε`: the part of the margin that does not depend on the child; NaN
    /// for a point with a NaN coordinate or one beyond `f32`'s range.
    fixed: f32,
    /// `(D + 4)·2^-23`: the relative error of a box's signed distance.
    relative: f32,
}

impl<const D: usize> LowerBound<D> {
    /// The bounds for `p`, against bodies of width `T`.
    #[inline]
    pub(crate) fn of<T: Real>(p: &Point<T, D>) -> Self {
        let p: [f32; D] = core::array::from_fn(|i| p[i].to_wide() as f32);
        let room = D as f32 * (slack::<T>() as f32 / 4.0 + ROUNDING);
        let norm = if p.iter().all(|c| c.is_finite()) {
            p.iter().fold(0.0, |m: f32, c| m.max(c.abs()))
        } else {
            f32::NAN
        };
        LowerBound {
            p,
            room,
            fixed: room * norm + f32::MIN_POSITIVE,
            relative: (D + 4) as f32 * f32::EPSILON,
        }
    }

    /// The children of `node` that may hold a body whose reported signed distance is at most
    /// `limit` (rounded up to `f32`), as bits (bit `k` for child `k`; an unused child's bit is
    /// the caller's to clear, as `Scene::sweep` and the nearest search do), and
    /// each child's bound: no larger than the signed distance any body below it reports (module
    /// documentation). A child is left out only where its bound exceeds `limit`; a NaN bound
    /// leaves nothing out.
    #[inline(always)]
    pub(crate) fn within(&self, node: &Node<D>, limit: f32) -> (u32, [f32; WIDTH]) {
        let bounds = self.bounds(node);
        let kept = lanes(|k| !(bounds[k] > limit));
        (kept, bounds)
    }

    /// The bounds of `node`'s children, lane by lane, without branches.
    #[inline(always)]
    fn bounds(&self, node: &Node<D>) -> [f32; WIDTH] {
        let mut squares = [0.0; WIDTH];
        // The largest offset past the box on any axis: where the point is inside on every axis,
        // minus its smallest depth.
        let mut farthest = [f32::NEG_INFINITY; WIDTH];
        let mut magnitude = [0.0; WIDTH];
        for i in 0..D {
            let p = self.p[i];
            let (lower, upper) = (&node.planes[LOWER][i], &node.planes[UPPER][i]);
            for k in 0..WIDTH {
                let past = larger(lower[k] - p, p - upper[k]);
                let out = larger(past, 0.0);
                squares[k] += out * out;
                farthest[k] = larger(farthest[k], past);
                magnitude[k] = larger(magnitude[k], larger(lower[k].abs(), upper[k].abs()));
            }
        }
        let mut bounds = [0.0; WIDTH];
        for k in 0..WIDTH {
            // Outside, the offset's length; where its squares underflow or overflow, its largest
            // part, which is no longer. (`&`, not `&&`, and selects: the lanes stay in one
            // register, without a branch.)
            let length = num_traits::Float::sqrt(squares[k]);
            let normal = (squares[k] >= f32::MIN_POSITIVE) & (length < f32::INFINITY);
            let g = if normal { length } else { farthest[k] };
            let margin = self.relative * g.abs() + self.room * magnitude[k] + self.fixed;
            let bound = g - 2.0 * margin;
            bounds[k] = if g < f32::INFINITY {
                bound
            } else {
                f32::NEG_INFINITY
            };
        }
        bounds
    }
}

/// The larger of `a` and `b`, `b` where they are unordered: one instruction, where `f32::max`
/// needs more to ignore a NaN (a point that is not finite in `f32` makes every bound NaN or `−∞`
/// through [`LowerBound::fixed`]).
#[inline(always)]
fn larger(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}
