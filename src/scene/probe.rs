//! A query's line against the boxes of a scene's hierarchy, conservatively: a node is skipped only
//! where none of its bodies could answer.
//!
//! # Why a skipped node holds no answer
//!
//! A scene relies on one property of its bodies' casts (the crate's shapes have it with a wide
//! margin, `tests/suite/scene.rs` checks it, and a user's shape must have it too): **the point at a
//! reported distance lies in the body's box.** Where a body's cast reports distance `d` (or a
//! span end `d`, or `contains` holds at a point), the point `o + d·n̂` lies within the body's
//! [`Shape::aabb`](crate::Shape::aabb) grown on each axis `i` by `τ·(|oᵢ| + |bᵢ|)`, for the
//! larger magnitude `|bᵢ|` of the box's bounds on that axis, and, for a sphere cast, by the ball's
//! radius; `τ` is `2^-20` for `f32` and `2^-38` for `f64`. For raysweep's shapes the contact point
//! lies in the box and the distance is within the precision targets of the exact one
//! (`docs/precision.md`): an `f32` result is within an ulp, `2^-23` relative, and an `f64` one
//! within a few ulps of `2^-52` where it is well conditioned; `2^-38` leaves room for `2^14` ulps.
//!
//! A node's box holds its bodies' boxes grown by [`slack`]` = 4τ` of their bounds' magnitudes
//! (`src/scene/bvh.rs`), rounded outward. The probe grows it by `4τ·|oᵢ|` more, plus the radius,
//! and clips the line against it in `f64`, in the slab method's way: `(bound − oᵢ)·(1/nᵢ)` per
//! axis, and for `nᵢ = 0` whether `oᵢ` lies between the grown bounds, decided by comparisons.
//! Each quotient has three roundings, a relative error below `2^-51` of
//! `(|bound| + |oᵢ|)/|nᵢ|`, which the growth beyond `τ` (at least `3τ/2` of that, in the
//! parameter) exceeds by `2^13` or more. So:
//!
//! - where the probe finds that the line misses the grown box, it misses each body's box grown by
//!   `τ`, and no body of the node reports a span, a hit or a contact;
//! - the probe's entry is at most the parameter at which the line enters any body's box grown by
//!   `τ`, so a body's hit distance `d` (Euclidean; the parameter along the stored direction `n`,
//!   unit within `2^-22`, is `d/|n|`) is at least the entry times `1 − 2^-20` ([`Probe::lower`]);
//!   a node whose lower bound exceeds the best distance so far (strictly: equal distances are
//!   still visited, for the lowest id) holds no better hit;
//! - where the probe's exit is negative, every point of the grown box lies behind the origin, and
//!   no body of the node reports a hit ahead of it, nor one that starts inside.
//!
//! The probe also takes a point ([`contains`]): a body whose `contains` holds at `p` has `p` in
//! its box grown by `τ`.

use crate::ray::Ray;
use crate::real::Real;

use super::bvh::{Node, slack};

/// How much below a probe's entry a body's distance may be, relative (`2^-20`): the stored
/// direction's length and the body's own rounding.
const BELOW: f64 = 1.0 - 1.0 / 1_048_576.0;

/// A query's line, prepared once for every node it meets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe<const D: usize> {
    o: [f64; D],
    n: [f64; D],
    inv: [f64; D],
    /// The probe's share of the growth on each axis: `slack·|oᵢ|` and the radius.
    margin: [f64; D],
}

impl<const D: usize> Probe<D> {
    /// The line through `ray`, against boxes grown by `radius` (0 for rays).
    #[inline]
    pub(crate) fn of<T: Real>(ray: &Ray<T, D>, radius: f64) -> Self {
        let o: [f64; D] = core::array::from_fn(|i| ray.origin()[i].to_wide());
        let n: [f64; D] = ray.stored_dir().into();
        Probe {
            o,
            n,
            inv: n.map(|c| 1.0 / c),
            margin: o.map(|c| slack::<T>() * c.abs() + radius),
        }
    }

    /// Where the line lies within the node's box, grown: the parameters `(enter, exit)` along the
    /// stored direction, conservative as the module's documentation says; `None` where it misses.
    #[inline(always)]
    pub(crate) fn stretch<T: Real>(&self, node: &Node<T, D>) -> Option<(f64, f64)> {
        let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
        for i in 0..D {
            let lo = node.min[i].to_wide() - self.margin[i];
            let hi = node.max[i].to_wide() + self.margin[i];
            if self.n[i] == 0.0 {
                if !(lo <= self.o[i] && self.o[i] <= hi) {
                    return None;
                }
                continue;
            }
            let to_lo = (lo - self.o[i]) * self.inv[i];
            let to_hi = (hi - self.o[i]) * self.inv[i];
            let (near, far) = if to_lo < to_hi {
                (to_lo, to_hi)
            } else {
                (to_hi, to_lo)
            };
            enter = if near > enter { near } else { enter };
            exit = if far < exit { far } else { exit };
        }
        (enter <= exit).then_some((enter, exit))
    }

    /// A lower bound of every distance a body of a node whose stretch enters at `enter` reports.
    #[inline(always)]
    pub(crate) fn lower(enter: f64) -> f64 {
        if enter > 0.0 { enter * BELOW } else { enter }
    }
}

/// Whether `p` lies in the node's box grown as for a probe from `p`: where it does not, no body
/// of the node contains it.
#[inline(always)]
pub(crate) fn contains<T: Real, const D: usize>(node: &Node<T, D>, p: &[f64; D]) -> bool {
    (0..D).all(|i| {
        let grow = slack::<T>() * p[i].abs();
        node.min[i].to_wide() - grow <= p[i] && p[i] <= node.max[i].to_wide() + grow
    })
}
