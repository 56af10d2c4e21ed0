//! A query's line against the boxes of a scene's hierarchy, conservatively: a node is skipped only
//! where none of its bodies could answer.
//!
//! # Why a skipped node holds no answer
//!
//! A scene relies on one property of its bodies' casts (the crate's shapes have it with a wide
//! margin, `tests/suite/scene.rs` checks it, and a user's shape must have it too): **the point at a
//! reported distance lies in the body's box.** Where a body's cast reports distance `d` (or a
//! span end `d`, or `contains` holds at a point), the point `o + d·n̂` lies within the body's
//! [`Shape::aabb`](crate::Shape::aabb) grown on each axis `i` by `τ·(‖o‖ + |bᵢ|)`, for the
//! largest magnitude `‖o‖` of the origin's coordinates and the larger magnitude `|bᵢ|` of the
//! box's bounds on that axis, and, for a sphere cast, by the ball's radius; `τ` is `2^-20` for
//! `f32` and `2^-38` for `f64`. For raysweep's shapes the contact point lies in the box and the
//! distance is within the precision targets of the exact one (`docs/precision.md`): an `f32`
//! result is within an ulp, `2^-23` relative, and an `f64` one within a few ulps of `2^-52` where
//! it is well conditioned; `2^-38` leaves room for `2^14` ulps. (Where a cast is ill conditioned,
//! its error along an axis is a few ulps of `‖o − c‖·|nᵢ|` for the body's centre `c`, which
//! `‖o‖` and the distance travelled along that axis bound; hence `‖o‖`, not `|oᵢ|`.)
//!
//! A child's box (a node's or a body's) holds the bodies' boxes grown by [`slack`]` = 4τ` of
//! their bounds' magnitudes (`src/scene/node/mod.rs`), rounded outward. A probe moves the query's
//! origin away from each plane by its margin `4τ·(‖o‖ + r) + r + 2^-140` (`r` the ball's radius,
//! 0 for rays; [`margin`]), so that, seen from the origin, each plane lies beyond the bodies'
//! boxes grown by `τ` (and `r`) by at least `3τ·(|bᵢ| + ‖o‖ + r) + 2^-140`: the room for the
//! probe's own rounding. It clips the line against the planes in the slab method's way: per axis,
//! `(bound − shifted origin)·(1/nᵢ)`, the near plane's bound and the far one's chosen by the sign
//! bit of `nᵢ`. Two probes do this:
//!
//! - [`F64Probe`], here, in `f64`: each parameter has four roundings, a relative error below `2^-50`
//!   of `(|bound| + ‖o‖ + margin)/|nᵢ|`, which the room exceeds by `2^12` or more (and the
//!   `2^-140` covers underflow), so its entries and exits are those of boxes still holding the
//!   bodies' boxes grown by `τ`. Scenes use it for spans, and for first hits where [`F32Probe`]
//!   declines.
//! - [`F32Probe`] (`src/scene/probe/f32.rs`), in `f32` lanes, four children per instruction: its
//!   parameters are within a factor `1 ± 2^-22` of the exact ones, and it widens its exits to
//!   cover that (the argument is there).
//!
//! Where `nᵢ` is zero, `1/nᵢ` is infinite with the sign of the zero, so the sign bit that picks
//! the near plane picks it for the reciprocal too: a plane on the origin's side of the grown slab
//! gives `−∞` for the near plane (or `+∞` for the far one) and constrains nothing, a plane beyond
//! it gives the opposite infinity and excludes the child, and a plane through the origin gives
//! `0·∞ = NaN`, which the comparisons that gather the entry and the exit ignore (the origin lies
//! in the closed slab). An unused child's box is empty (`+∞` to `−∞`) in a node stored whole, and
//! its entry exceeds its exit for every line from a finite origin; in a node read from its steps
//! (`src/scene/node/packed.rs`) its box is finite, and the traversals drop it by its id
//! ([`Hierarchy::meets`](super::hierarchy::Hierarchy::meets),
//! [`Hierarchy::raw`](super::hierarchy::Hierarchy::raw)). So:
//!
//! - where the probe finds that the line misses the grown box, it misses each body's box grown by
//!   `τ`, and no body of the node reports a span, a hit or a contact;
//! - where the probe's exit is negative, every point of the grown box lies behind the origin, and
//!   no body of the node reports a hit ahead of it, nor one that starts inside;
//! - a body's hit distance `d` (Euclidean; the parameter along the stored direction `n`, unit
//!   within `2^-22`, is `d/|n|`) is at least `1 − 2^-20` times the parameter at which the line
//!   enters its box grown by `τ`, hence at least `(1 − 2^-20)/(1 + 2^-22)` times a probe's entry
//!   for its child: a child whose entry exceeds [`entry_cutoff`]`(limit)` holds no hit at a distance
//!   up to `limit`, the best so far (equal distances are still visited, for the lowest id).
//!
//! The probe also takes a point ([`containing`]): a body whose `contains` holds at `p` has `p` in
//! its box grown by `τ`, hence in its child's box grown by `4τ·|pᵢ|`.

use core::ops::{Mul, Sub};

use crate::real::Real;

use super::hierarchy::Hierarchy;
use super::node::packed::{Packed, QUANTISED};
use super::node::{LOWER, Node, Sides, UPPER, WIDTH, lanes, slack};

mod f32;
mod f64;

pub(crate) use self::f32::F32Probe;
pub(crate) use self::f64::F64Probe;

/// A query's line against a node's children's boxes, for the first hits and any-hit queries.
pub(crate) trait Line<const D: usize> {
    /// The children of `node` the line meets ahead of its origin with an entry of at most
    /// `cutoff`, as bits (bit `k` for child `k`; an unused child's bit is to be cleared by the
    /// caller), and each child's entry: at least 0, and at most the exact one as the module's
    /// documentation bounds it.
    fn meets(&self, node: &impl Sides<D>, cutoff: f32) -> (u32, [f32; WIDTH]);
}

/// The cutoff for hits at a distance of at most `limit` (at least 0): the entry beyond which a
/// child holds none. (Every traversal skips a child whose key exceeds its cutoff.) It is
/// `limit·(1 + 2^-19)` rounded up to `f32`, above `limit·(1 + 2^-22)/(1 − 2^-20)` (the module's
/// documentation); `+∞` beyond `f32`'s range.
#[inline(always)]
pub(crate) fn entry_cutoff(limit: f64) -> f32 {
    <f32 as Real>::from_wide_up(limit * (1.0 + 1.0 / 524_288.0))
}

/// How far a probe moves the origin `o` away from each plane, for a ball of `radius` (0 for
/// rays): `4τ·(‖o‖ + radius) + radius + 2^-140`, for the largest magnitude `‖o‖` of `o`'s
/// coordinates.
#[inline(always)]
pub(crate) fn margin<T: Real, const D: usize>(o: &[f64; D], radius: f64) -> f64 {
    const TINY: f64 = 1.0 / 1_393_796_574_908_163_946_345_982_392_040_522_594_123_776.0;
    let norm = o.iter().fold(0.0, |m: f64, c| m.max(c.abs()));
    slack::<T>() * (norm + radius) + radius + TINY
}

/// The children of `node` whose box, grown as for a probe from `p`, holds `p`, as bits (bit `k`
/// for child `k`): no body of the others contains it.
#[inline(always)]
pub(crate) fn containing<const D: usize, T: Real>(node: &Node<D>, p: &[f64; D]) -> u32 {
    let mut inside = [true; WIDTH];
    for (i, &c) in p.iter().enumerate() {
        let by = slack::<T>() * c.abs();
        for (k, holds) in inside.iter_mut().enumerate() {
            *holds &= f64::from(node.planes[LOWER][i][k]) - by <= c
                && c <= f64::from(node.planes[UPPER][i][k]) + by;
        }
    }
    lanes(|k| inside[k])
}

/// `$run` with `$line` the line of `$ray` grown by `$grow`: [`F32Probe`] where it takes the
/// origin, else [`F64Probe`]. First hits, sphere casts and any-hit choose their probe by it.
macro_rules! on_line {
    ($ray:expr, $grow:expr, |$line:ident| $run:expr) => {
        match $crate::scene::probe::F32Probe::of($ray, $grow) {
            Some($line) => $run,
            None => {
                let $line = $crate::scene::probe::F64Probe::of($ray, $grow);
                $run
            }
        }
    };
}
pub(crate) use on_line;

/// A number the slab test runs in: `f32` for [`F32Probe`], `f64` for [`F64Probe`].
pub(crate) trait Param:
    Copy + PartialOrd + Sub<Output = Self> + Mul<Output = Self> + From<f32>
{
}

impl Param for f32 {}

impl Param for f64 {}

/// A line's origin moved away from the planes and its reciprocals, in `P`: the slab method's
/// part that both probes share.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slabs<P, const D: usize> {
    /// Per axis, whether the stored direction's sign bit is set: the near plane is then the
    /// upper bound.
    pub(crate) negative: [bool; D],
    /// Per axis, the origin moved away from the near plane, and from the far one.
    pub(crate) near: [P; D],
    pub(crate) far: [P; D],
    /// Per axis, the reciprocals for the near and the far plane.
    pub(crate) to_near: [P; D],
    pub(crate) to_far: [P; D],
}

impl<P: Param, const D: usize> Slabs<P, D> {
    /// Per child of `node`, the largest near parameter and `enter`, and the smallest far
    /// parameter and `exit`: per axis `(bound − moved origin)·reciprocal`, the near plane's bound
    /// and the far one's chosen by the sign bit. A NaN (a plane through the origin of a zero
    /// component) leaves each as it was.
    #[inline(always)]
    pub(crate) fn clip(
        &self,
        node: &impl Sides<D>,
        mut enter: [P; WIDTH],
        mut exit: [P; WIDTH],
    ) -> ([P; WIDTH], [P; WIDTH]) {
        for i in 0..D {
            let near = node.side(usize::from(self.negative[i]), i);
            let far = node.side(usize::from(!self.negative[i]), i);
            for k in 0..WIDTH {
                let to_near = (P::from(near[k]) - self.near[i]) * self.to_near[i];
                let to_far = (P::from(far[k]) - self.far[i]) * self.to_far[i];
                enter[k] = if to_near > enter[k] {
                    to_near
                } else {
                    enter[k]
                };
                exit[k] = if to_far < exit[k] { to_far } else { exit[k] };
            }
        }
        (enter, exit)
    }
}

impl<T: Real, const D: usize> Hierarchy<T, D> {
    /// The children of `node` that `line` meets with an entry of at most `cutoff`, and their
    /// entries ([`Line::meets`]), read from the node in steps or whole.
    #[inline(always)]
    pub(crate) fn meets(
        &self,
        line: &impl Line<D>,
        node: &Packed<D>,
        cutoff: f32,
    ) -> (u32, [f32; WIDTH]) {
        let (met, enter) = if node.full == QUANTISED {
            line.meets(node, cutoff)
        } else {
            line.meets(&self.full[node.full as usize], cutoff)
        };
        (met & node.used(), enter)
    }
}
