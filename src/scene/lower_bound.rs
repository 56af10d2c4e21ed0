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
//! a point moved exactly, `hi + lo` with `|lo|` at most half an ulp of `hi` in `f64`
//! (`src/scene/moved.rs`), is rounded from `hi`, within `(2^-24 + 2^-53)·‖p‖ + 2^-150`, which
//! the factor of 1.3 below covers;
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
//! # A box of points
//!
//! The batches (`src/scene/bulk.rs`) bound a child once for a block of points: for the box `Q`
//! of the points rounded to `f32`, [`LowerBound::spanning`] computes the same `L` with the
//! offset on each axis taken past `Q` rather than past `p'` (`lower − high` and `low − upper`)
//! and `‖p'‖` replaced by the largest magnitude of `Q`'s corners. Where some offset is positive,
//! `Q` lies outside the box on that axis and `g` is the distance between the two boxes, at most
//! `p'`'s distance for each `p'` in `Q`. Where none is, `g` is the largest of the offsets (at most
//! 0), and for each `p'` in `Q` inside the box its depth on each axis, `min(p' − lower,
//! upper − p')`, is at most `min(high − lower, upper − low)`, so its `−(smallest depth)` is at
//! least `g`; a `p'` outside the box has a positive distance. So the exact `g` of `Q` is at most
//! the exact `g` of each `p'` in `Q`. The computed one is within the same rounding of it (the
//! same operations on offsets no longer than `p'`'s), and the margin's magnitude is at least
//! `‖p'‖`, so the chain above gives `L ≤ sd_G(p) − E` for each point `p` of the block.
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
    /// The box's lower corner, the point rounded to `f32` for a point.
    low: [f32; D],
    /// The box's upper corner, `low` for a point.
    high: [f32; D],
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
        Self::spanning::<T>(p, p)
    }

    /// The bounds for `p`, given in `f64` (a moved point's `hi`, `src/scene/moved.rs`), against
    /// bodies of width `T`.
    #[inline]
    pub(crate) fn of_wide<T: Real>(p: &Point<f64, D>) -> Self {
        let p: [f32; D] = core::array::from_fn(|i| p[i] as f32);
        Self::spanning::<T>(p, p)
    }

    /// The bounds for every point whose coordinates, rounded to `f32`, lie in the box from `low`
    /// to `high` (rounded so already), against bodies of width `T`: each child's bound is no
    /// larger than the signed distance any body below it reports at any such point (module
    /// documentation, "A box of points").
    #[inline]
    pub(crate) fn spanning<T: Real>(low: [f32; D], high: [f32; D]) -> Self {
        let room = D as f32 * (slack::<T>() as f32 / 4.0 + ROUNDING);
        let finite = low.iter().chain(&high).all(|c| c.is_finite());
        let norm = if finite {
            low.iter()
                .chain(&high)
                .fold(0.0, |m: f32, c| m.max(c.abs()))
        } else {
            f32::NAN
        };
        LowerBound {
            low,
            high,
            room,
            fixed: room * norm + f32::MIN_POSITIVE,
            relative: (D + 4) as f32 * f32::EPSILON,
        }
    }

    /// The children of `node` that may hold a body whose reported signed distance is at most
    /// `cutoff` (rounded up to `f32`), as bits (bit `k` for child `k`; an unused child's bit is
    /// the caller's to clear, as `Scene::sweep` and the nearest search do), and
    /// each child's bound: no larger than the signed distance any body below it reports (module
    /// documentation). A child is left out only where its bound exceeds `cutoff`; a NaN bound
    /// leaves nothing out.
    #[inline(always)]
    pub(crate) fn within(&self, node: &Node<D>, cutoff: f32) -> (u32, [f32; WIDTH]) {
        let bounds = self.bounds(node);
        let kept = lanes(|k| !(bounds[k] > cutoff));
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
            let (low, high) = (self.low[i], self.high[i]);
            let (lower, upper) = (&node.planes[LOWER][i], &node.planes[UPPER][i]);
            for k in 0..WIDTH {
                let past = larger(lower[k] - high, low - upper[k]);
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
