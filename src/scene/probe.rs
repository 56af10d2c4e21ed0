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
//! A child's box (a node's or a body's) holds the bodies' boxes grown by [`slack`]` = 4τ` of
//! their bounds' magnitudes (`src/scene/wide.rs`), rounded outward. The probe grows it by
//! `4τ·|oᵢ|` more, plus the radius, and clips the line against it in `f64`, in the slab method's
//! way: per axis, `(bound − (oᵢ ± margin))·(1/nᵢ)`, the near plane's bound and the far one's chosen
//! by the sign bit of `nᵢ`. Each such parameter has four roundings, a relative error below `2^-50`
//! of `(|bound| + |oᵢ| + margin)/|nᵢ|`, which the growth beyond `τ` (at least `3τ/2` of that, in
//! the parameter) exceeds by `2^12` or more.
//!
//! Where `nᵢ` is zero, `1/nᵢ` is infinite with the sign of the zero, so the sign bit that picks
//! the near plane picks it for the reciprocal too: a plane on the origin's side of the grown slab
//! gives `−∞` for the near plane (or `+∞` for the far one) and constrains nothing, a plane beyond
//! it gives the opposite infinity and excludes the child, and a plane through the origin gives
//! `0·∞ = NaN`, which the comparisons that gather the entry and the exit ignore (the origin lies
//! in the closed slab). An unused child's box is empty (`+∞` to `−∞`), and its entry exceeds its
//! exit for every line. So:
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
//! its box grown by `τ`, hence in its child's box grown by `4τ·|pᵢ|`.

use crate::ray::Ray;
use crate::real::Real;

use super::wide::{WIDTH, Wide, slack};

/// How much below a probe's entry a body's distance may be, relative (`2^-20`): the stored
/// direction's length and the body's own rounding.
const BELOW: f64 = 1.0 - 1.0 / 1_048_576.0;

/// A query's line, prepared once for every node it meets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe<const D: usize> {
    /// Per axis, whether the stored direction's sign bit is set: the near plane is then the
    /// upper bound.
    negative: [bool; D],
    /// Per axis, the origin moved by the probe's share of the growth away from the near plane
    /// (`oᵢ + margin`, or `oᵢ − margin` where `negative`), and from the far one.
    near: [f64; D],
    far: [f64; D],
    inv: [f64; D],
}

/// The entries and exits of a line, child by child.
pub(crate) struct Stretches {
    pub(crate) enter: [f64; WIDTH],
    pub(crate) exit: [f64; WIDTH],
}

impl Stretches {
    /// The children the line meets ahead of its origin with an entry no body of theirs can report
    /// beyond `limit` ([`Probe::lower`]), as bits (bit `k` for child `k`).
    #[inline(always)]
    pub(crate) fn met<const D: usize>(&self, limit: f64) -> u32 {
        (0..WIDTH).fold(0, |bits, k| {
            let met = (self.enter[k] <= self.exit[k])
                & (self.exit[k] >= 0.0)
                & (Probe::<D>::lower(self.enter[k]) <= limit);
            bits | u32::from(met) << k
        })
    }
}

impl<const D: usize> Probe<D> {
    /// The line through `ray`, against boxes grown by `radius` (0 for rays).
    #[inline]
    pub(crate) fn of<T: Real>(ray: &Ray<T, D>, radius: f64) -> Self {
        let o: [f64; D] = core::array::from_fn(|i| ray.origin()[i].to_wide());
        let n: [f64; D] = ray.stored_dir().into();
        let margin = o.map(|c| slack::<T>() * c.abs() + radius);
        let negative = n.map(f64::is_sign_negative);
        let shifted = |i: usize, toward_lower: bool| {
            if toward_lower {
                o[i] + margin[i]
            } else {
                o[i] - margin[i]
            }
        };
        Probe {
            negative,
            near: core::array::from_fn(|i| shifted(i, !negative[i])),
            far: core::array::from_fn(|i| shifted(i, negative[i])),
            inv: n.map(|c| 1.0 / c),
        }
    }

    /// Where the line lies within each child's box of `node`, grown: the parameters along the
    /// stored direction, conservative as the module's documentation says; the line misses the
    /// children whose entry exceeds their exit.
    #[inline(always)]
    pub(crate) fn stretches(&self, node: &Wide<D>) -> Stretches {
        let mut enter = [f64::NEG_INFINITY; WIDTH];
        let mut exit = [f64::INFINITY; WIDTH];
        for i in 0..D {
            let (near, far) = if self.negative[i] {
                (&node.max[i], &node.min[i])
            } else {
                (&node.min[i], &node.max[i])
            };
            for k in 0..WIDTH {
                let to_near = (f64::from(near[k]) - self.near[i]) * self.inv[i];
                let to_far = (f64::from(far[k]) - self.far[i]) * self.inv[i];
                // A NaN (a plane through the origin of a zero component) leaves each as it was.
                enter[k] = if to_near > enter[k] {
                    to_near
                } else {
                    enter[k]
                };
                exit[k] = if to_far < exit[k] { to_far } else { exit[k] };
            }
        }
        Stretches { enter, exit }
    }

    /// A lower bound of every distance a body of a child whose stretch enters at `enter` reports.
    #[inline(always)]
    pub(crate) fn lower(enter: f64) -> f64 {
        if enter > 0.0 { enter * BELOW } else { enter }
    }
}

/// The children of `node` whose box, grown as for a probe from `p`, holds `p`, as bits (bit `k`
/// for child `k`): no body of the others contains it.
#[inline(always)]
pub(crate) fn containing<const D: usize, T: Real>(node: &Wide<D>, p: &[f64; D]) -> u32 {
    let mut inside = [true; WIDTH];
    for (i, &c) in p.iter().enumerate() {
        let grow = slack::<T>() * c.abs();
        for (k, holds) in inside.iter_mut().enumerate() {
            *holds &=
                f64::from(node.min[i][k]) - grow <= c && c <= f64::from(node.max[i][k]) + grow;
        }
    }
    (0..WIDTH).fold(0, |bits, k| bits | u32::from(inside[k]) << k)
}
