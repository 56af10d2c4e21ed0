//! A point's signed distance to the boxes of a scene's hierarchy, from below: a node is skipped by
//! the proximity queries (`src/scene/proximity.rs`) only where none of its bodies could answer.
//!
//! # Why a skipped node holds no answer
//!
//! A scene relies on one property of its bodies' signed distances (the crate's shapes have it with
//! a wide margin, and a user's shape must have it too): **the signed distance a body reports at
//! `p` is at least the exact signed distance from `p` to the body's box grown by `τ` of its
//! bounds' magnitudes, less `E = τ·D·(‖p‖ + ‖b‖) + ε`**, for the largest magnitudes `‖p‖` of
//! `p`'s coordinates and `‖b‖` of the box's bounds, the dimension `D`, the smallest normal value
//! `ε` of the width, and `τ` as for the casts: `2^-20` for `f32`, `2^-38` for `f64`
//! (`src/scene/probe.rs`). It holds wherever the solid lies in its grown box and the reported
//! distance is within `E` of the exact one:
//!
//! - The signed distance (distance outside, minus the distance to the outside inside) only grows
//!   as the set shrinks: for `K ⊆ G`, a point outside `K` is at least as far from `K` as from
//!   `G`, a point inside `K` is at most as deep in `K` as in `G`, and a point inside `G` but
//!   outside `K` has `sd_G < 0 ≤ sd_K`. So `sd_G(p) ≤ sd_K(p)` for a child's box `G`, which holds
//!   every body's box grown by `4τ` (`src/scene/wide.rs`), and so its solid.
//! - raysweep's shapes report within 1 ulp in `f32` (`2^-23` of a distance at most
//!   `√D·(‖p‖ + ‖b‖)`) and, in `f64`, within `4·(ulp/2 + first-order change)`, the change under
//!   half-ulp moves of `p`, the centre, the semi-axes and the rotation's entries being a few
//!   `D²·2^-53·(‖p‖ + ‖b‖)` (`docs/point-queries.md`); `τ·D` leaves a factor of `2^8` or more.
//!   Near zero, `ε` covers the subnormal rounding.
//!
//! [`Lower::within`] computes, for each child's box `G` (its `f32` bounds exactly in `f64`), the
//! box's signed distance `g` (outside, the length of the offset past the box, or where its squares
//! overflow the largest offset, no longer than it; inside, minus the smallest depth) with at most
//! `D + 3` roundings, so within `(D + 4)·2^-52·|g|` of the exact one, and returns
//! `g − 2·((D + 4)·2^-52·|g| + E)`: the factor 2 covers the roundings of that margin and of the
//! subtraction. `‖b‖` is the child's own largest bound, at least that of each body below it. So
//! the bound never exceeds the distance any body of the child reports, and a child whose bound
//! exceeds a query's limit holds no body within it.
//!
//! A point with a NaN coordinate, or an infinite one, or a child with an infinite bound, gets a
//! bound of `−∞` or NaN, which no limit exceeds: nothing is skipped, and the query is the loop.

use nalgebra::Point;

use crate::real::{Real, sqrt};

use super::wide::{EMPTY, LOWER, UPPER, WIDTH, Wide, lanes, slack};

/// A point, prepared once for every node a proximity query meets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lower<const D: usize> {
    /// The point, in `f64`.
    p: [f64; D],
    /// `τ·D` of the bodies' width.
    room: f64,
    /// `τ·D·‖p‖ + ε`, the part of the margin that does not depend on the child: NaN for a point
    /// with a NaN coordinate.
    fixed: f64,
    /// `(D + 4)·2^-52`: the relative error of a box's signed distance.
    relative: f64,
}

impl<const D: usize> Lower<D> {
    /// The bounds for `p`, against bodies of width `T`.
    #[inline]
    pub(crate) fn of<T: Real>(p: &Point<T, D>) -> Self {
        let p: [f64; D] = core::array::from_fn(|i| p[i].to_wide());
        let room = slack::<T>() / 4.0 * D as f64;
        let norm = if p.iter().any(|c| c.is_nan()) {
            f64::NAN
        } else {
            p.iter().fold(0.0, |m: f64, c| m.max(c.abs()))
        };
        Lower {
            p,
            room,
            fixed: room * norm + smallest_normal::<T>(),
            relative: (D + 4) as f64 * f64::EPSILON,
        }
    }

    /// The children of `node` that may hold a body whose reported signed distance is at most
    /// `limit`, as bits (bit `k` for child `k`; never an unused child), and each child's bound:
    /// no larger than the signed distance any body below it reports (module documentation).
    /// A child is left out only where its bound exceeds `limit`; a NaN bound leaves nothing out.
    #[inline(always)]
    pub(crate) fn within(&self, node: &Wide<D>, limit: f64) -> (u32, [f64; WIDTH]) {
        let bounds: [f64; WIDTH] = core::array::from_fn(|k| self.bound(node, k));
        let kept = lanes(|k| node.child[k] != EMPTY && !(bounds[k] > limit));
        (kept, bounds)
    }

    /// The bound of child `k` of `node`.
    #[inline(always)]
    fn bound(&self, node: &Wide<D>, k: usize) -> f64 {
        let mut squares = 0.0;
        // The largest offset past the box on any axis: where the point is inside on every axis,
        // minus its smallest depth.
        let mut farthest = f64::NEG_INFINITY;
        let mut magnitude = 0.0f64;
        for i in 0..D {
            let lo = f64::from(node.planes[LOWER][i][k]);
            let hi = f64::from(node.planes[UPPER][i][k]);
            let past = (lo - self.p[i]).max(self.p[i] - hi);
            let out = past.max(0.0);
            squares += out * out;
            farthest = farthest.max(past);
            magnitude = magnitude.max(lo.abs()).max(hi.abs());
        }
        // Outside, the offset's length; where its squares underflow or overflow, its largest
        // component, which is no longer.
        let g = if squares > 0.0 && squares.is_finite() {
            sqrt(squares)
        } else {
            farthest
        };
        g - 2.0 * (self.relative * g.abs() + self.room * magnitude + self.fixed)
    }
}

/// The smallest normal value of the width `T`, as `f64`: `2^-126` or `2^-1022`.
fn smallest_normal<T: Real>() -> f64 {
    if T::EPSILON_WIDE > f64::EPSILON {
        f64::from(f32::MIN_POSITIVE)
    } else {
        f64::MIN_POSITIVE
    }
}
