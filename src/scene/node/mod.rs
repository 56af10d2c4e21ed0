//! A node of the hierarchy: [`WIDTH`] children, each a node or a body, with the children's
//! boxes stored axis by axis, so that a query tests all of a node's children in one pass over
//! its lanes (`src/scene/probe/`). This module is the node's vocabulary (the child ids, the
//! sides, the lanes, how much a box grows) and [`Node`], a node as the queries read it; the node
//! as stored, in 8-bit steps, and its encoding and decoding are in [`packed`]. It imports nothing
//! else of the scene: the builder (`build/`), the store (`hierarchy.rs`), insertion
//! (`insert.rs`) and the traversals all import it.
//!
//! A child's box holds the union of the bodies' [`Shape::aabb`](crate::Shape::aabb) boxes below
//! it, grown on each axis by [`slack`] times the larger magnitude of its bounds there, and
//! rounded outward to `f32` in both widths: never tighter than what the child holds (the probe
//! adds the query's own share). In `f64`, `f32` bounds cost a box up to `2^-24` of its
//! coordinates' magnitude, so a scene of bodies smaller than about `10^-6` of their distance from
//! the origin traverses more nodes than it would with `f64` bounds (its answers are the same).
//! A node is stored with those boxes in 8-bit steps on a grid of its own, decoded exactly where it
//! is read ([`packed`]): 64 bytes in three dimensions, in both widths, where a [`Node`] of `f32`
//! planes takes 112.

use crate::real::Real;

pub(crate) mod packed;

/// The children of a node.
pub(crate) const WIDTH: usize = 4;

/// The flag of a child that is a body (its id in the other bits).
pub(crate) const BODY: u32 = 1 << 31;

/// An unused child (its box is empty, so no query enters it).
pub(crate) const EMPTY: u32 = u32::MAX;

/// The most bodies a scene holds: ids below `BODY - 1`, so that no body's child is [`EMPTY`].
pub(crate) const MAX_BODIES: usize = (BODY - 1) as usize;

/// A child as stored (`u32`), read: a node's index, a body's id, or none. Only this module
/// knows how they are told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Child {
    Node(usize),
    Body(usize),
    Empty,
}

impl Child {
    /// The child `raw` stores.
    #[inline(always)]
    pub(crate) fn of(raw: u32) -> Self {
        if raw == EMPTY {
            Child::Empty
        } else if raw & BODY != 0 {
            Child::Body((raw & !BODY) as usize)
        } else {
            Child::Node(raw as usize)
        }
    }

    /// The child as stored.
    #[inline(always)]
    pub(crate) fn raw(self) -> u32 {
        match self {
            Child::Node(index) => index as u32,
            Child::Body(id) => BODY | id as u32,
            Child::Empty => EMPTY,
        }
    }
}

/// The body a used child (a node's or a body's, never [`EMPTY`]) stores, if it is one: the one
/// test of the traversals' inner loops.
#[inline(always)]
pub(crate) fn body_of(raw: u32) -> Option<usize> {
    (raw & BODY != 0).then_some((raw & !BODY) as usize)
}

/// How much a box grows, relative to the magnitudes of its bounds (and a probe's origin): `2^-18`
/// for `f32`, `2^-36` for `f64`. Far above either width's rounding, and above the errors of the
/// bodies' casts (`src/scene/probe/mod.rs`).
#[inline(always)]
pub(crate) fn slack<T: Real>() -> f64 {
    if T::EPSILON_WIDE > f64::EPSILON {
        1.0 / 262_144.0
    } else {
        1.0 / 68_719_476_736.0
    }
}

/// The box from `min` to `max` grown as the module's documentation says, for bodies of width
/// `T`: a child's box.
#[inline]
pub(crate) fn grown<T: Real, const D: usize>(
    (min, max): (&[f64; D], &[f64; D]),
) -> ([f32; D], [f32; D]) {
    let by: [f64; D] = core::array::from_fn(|i| slack::<T>() * min[i].abs().max(max[i].abs()));
    (
        core::array::from_fn(|i| <f32 as Real>::from_wide_down(min[i] - by[i])),
        core::array::from_fn(|i| <f32 as Real>::from_wide_up(max[i] + by[i])),
    )
}

/// The side of [`Node::planes`] that holds the children's lower bounds.
pub(crate) const LOWER: usize = 0;

/// The side of [`Node::planes`] that holds the children's upper bounds.
pub(crate) const UPPER: usize = 1;

/// A node's children's boxes: `planes[LOWER][i][k]` and `planes[UPPER][i][k]` are child `k`'s
/// bounds on axis `i`, the two sides side by side so that a query picks its near and far side by
/// index, once per ray.
pub(crate) type Planes<const D: usize> = [[[f32; WIDTH]; D]; 2];

/// A node's children's bounds, one side of one axis at a time: what the node tests read.
pub(crate) trait Sides<const D: usize> {
    /// The children's bounds on axis `i`, the lower ones for [`LOWER`], the upper for [`UPPER`].
    fn side(&self, side: usize, i: usize) -> [f32; WIDTH];
}

impl<const D: usize> Sides<D> for Planes<D> {
    #[inline(always)]
    fn side(&self, side: usize, i: usize) -> [f32; WIDTH] {
        self[side][i]
    }
}

impl<const D: usize> Sides<D> for Node<D> {
    #[inline(always)]
    fn side(&self, side: usize, i: usize) -> [f32; WIDTH] {
        self.planes[side][i]
    }
}

/// A node as the queries read it: its children's boxes, lane `k` for child `k`, and the children
/// (a node's index, a body's id with [`BODY`], or [`EMPTY`]). The hierarchy stores it as a
/// [`Packed`](packed::Packed) node and decodes it where it is read.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub(crate) struct Node<const D: usize> {
    pub(crate) planes: Planes<D>,
    pub(crate) child: [u32; WIDTH],
}

impl<const D: usize> Node<D> {
    /// A node of no children.
    pub(super) const BLANK: Self = Node {
        planes: [[[f32::INFINITY; WIDTH]; D], [[f32::NEG_INFINITY; WIDTH]; D]],
        child: [EMPTY; WIDTH],
    };

    /// Sets child `k`'s box to the box from `min` to `max`, grown as the module's documentation
    /// says.
    pub(super) fn set_box<T: Real>(&mut self, k: usize, bounds: (&[f64; D], &[f64; D])) {
        let (lower, upper) = grown::<T, D>(bounds);
        self.set_lane(k, (&lower, &upper));
    }

    /// The union of the used children's boxes (already grown): empty (`+∞` to `−∞`) for a node
    /// of none. Unused lanes are masked by their ids rather than branched on.
    #[inline(always)]
    pub(super) fn union(&self) -> ([f32; D], [f32; D]) {
        let used: [u32; WIDTH] =
            core::array::from_fn(|k| u32::from(self.child[k] != EMPTY).wrapping_neg());
        let fold = |lanes: &[f32; WIDTH], none: f32, pick: fn(f32, f32) -> f32| {
            (0..WIDTH).fold(none, |best, k| {
                pick(
                    best,
                    f32::from_bits(lanes[k].to_bits() & used[k] | none.to_bits() & !used[k]),
                )
            })
        };
        (
            self.planes[LOWER].map(|l| fold(&l, f32::INFINITY, f32::min)),
            self.planes[UPPER].map(|l| fold(&l, f32::NEG_INFINITY, f32::max)),
        )
    }

    /// Child `k`'s box: its lower and its upper bounds on each axis.
    #[inline(always)]
    pub(crate) fn lane(&self, k: usize) -> ([f32; D], [f32; D]) {
        (
            core::array::from_fn(|i| self.planes[LOWER][i][k]),
            core::array::from_fn(|i| self.planes[UPPER][i][k]),
        )
    }

    /// Child `k`'s box becomes the box from `lower` to `upper`.
    #[inline(always)]
    pub(crate) fn set_lane(&mut self, k: usize, (lower, upper): (&[f32; D], &[f32; D])) {
        for i in 0..D {
            self.planes[LOWER][i][k] = lower[i];
            self.planes[UPPER][i][k] = upper[i];
        }
    }

    /// Whether each used child's box holds that of the same child in `other`.
    pub(super) fn holds(&self, other: &Self) -> bool {
        (0..WIDTH).filter(|&k| other.child[k] != EMPTY).all(|k| {
            let (lower, upper) = other.lane(k);
            self.lane_holds(k, (&lower, &upper))
        })
    }

    /// Whether child `k`'s box holds the box from `lower` to `upper`.
    pub(super) fn lane_holds(&self, k: usize, (lower, upper): (&[f32; D], &[f32; D])) -> bool {
        (0..D).all(|i| self.planes[LOWER][i][k] <= lower[i] && upper[i] <= self.planes[UPPER][i][k])
    }

    /// The used children, as bits (bit `k` for child `k`).
    #[inline(always)]
    pub(crate) fn used(&self) -> u32 {
        lanes(|k| self.child[k] != EMPTY)
    }

    /// The lane of `child`.
    pub(super) fn lane_of(&self, child: u32) -> usize {
        self.child
            .iter()
            .position(|&c| c == child)
            .expect("a node holds its child")
    }
}

/// The lanes `0..WIDTH` for which `test` holds, as bits (bit `k` for lane `k`).
#[inline(always)]
pub(crate) fn lanes(test: impl Fn(usize) -> bool) -> u32 {
    (0..WIDTH).fold(0, |bits, k| bits | u32::from(test(k)) << k)
}
