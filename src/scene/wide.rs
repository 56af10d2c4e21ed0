//! The hierarchy a scene traverses: nodes of [`WIDTH`] children, each child a node or a body,
//! with the children's boxes stored axis by axis, so that a query tests all of a node's
//! children in one pass over its lanes (`src/scene/probe.rs`).
//!
//! It is collapsed from the binary tree of `src/scene/build.rs`, top down: a node takes its
//! binary node's two children, then replaces the child of largest area by that child's own two,
//! until it has [`WIDTH`] (Wald, Benthin and Boulos, "Getting rid of packets: efficient SIMD
//! single-ray traversal using multi-branching BVHs", IEEE Symposium on Interactive Ray Tracing,
//! 2008). Since every body is a child of its own, with its own box, a query tests a body's box
//! before it loads the body, and the bodies a node holds need not be stored next to each other.
//!
//! A child's box holds the union of the bodies' [`Shape::aabb`](crate::Shape::aabb) boxes below
//! it, grown on each axis by [`slack`] times the larger magnitude of its bounds there, and
//! rounded outward to `f32` in both widths: never tighter than what the child holds (the probe
//! adds the query's own share). In `f64`, `f32` bounds cost a box up to `2^-24` of its
//! coordinates' magnitude, so a scene of bodies smaller than about `10^-6` of their distance from
//! the origin traverses more nodes than it would with `f64` bounds (its answers are the same);
//! they keep a node at 112 bytes (three dimensions) in both widths.

use alloc::vec::Vec;
use core::marker::PhantomData;

use crate::real::Real;

use super::build::{Bounds, Part, Split, binary_tree};

/// The children of a node.
pub(crate) const WIDTH: usize = 4;

/// The flag of a child that is a body (its id in the other bits).
pub(crate) const BODY: u32 = 1 << 31;

/// An unused child (its box is empty, so no query enters it).
const EMPTY: u32 = u32::MAX;

/// The most bodies a scene holds: ids below `BODY - 1`, so that no body's child is [`EMPTY`].
pub(crate) const MAX_BODIES: usize = (BODY - 1) as usize;

/// How much a box grows, relative to the magnitudes of its bounds (and a probe's origin): `2^-18`
/// for `f32`, `2^-36` for `f64`. Far above either width's rounding, and above the errors of the
/// bodies' casts (`src/scene/probe.rs`).
#[inline(always)]
pub(crate) fn slack<T: Real>() -> f64 {
    if T::EPSILON_WIDE > f64::EPSILON {
        1.0 / 262_144.0
    } else {
        1.0 / 68_719_476_736.0
    }
}

/// A node: its children's boxes, lane `k` for child `k`, and the children (a node's index, a
/// body's id with [`BODY`], or [`EMPTY`]). A three-dimensional node is 112 bytes: aligned to a
/// cache line (128), the hierarchy took 71 bytes per body instead of 62 at `10^5` spheres, and
/// traversed no faster.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub(crate) struct Wide<const D: usize> {
    pub(crate) min: [[f32; WIDTH]; D],
    pub(crate) max: [[f32; WIDTH]; D],
    pub(crate) child: [u32; WIDTH],
}

impl<const D: usize> Wide<D> {
    /// A node of no children.
    const BLANK: Self = Wide {
        min: [[f32::INFINITY; WIDTH]; D],
        max: [[f32::NEG_INFINITY; WIDTH]; D],
        child: [EMPTY; WIDTH],
    };

    /// Sets child `k`'s box to `bounds`, grown as the module's documentation says.
    fn set_box<T: Real>(&mut self, k: usize, bounds: &Bounds<D>) {
        for i in 0..D {
            let by = slack::<T>() * bounds.min[i].abs().max(bounds.max[i].abs());
            self.min[i][k] = <f32 as Real>::from_wide_down(bounds.min[i] - by);
            self.max[i][k] = <f32 as Real>::from_wide_up(bounds.max[i] + by);
        }
    }

    /// The union of the children's boxes (already grown).
    fn union(&self) -> ([f32; D], [f32; D]) {
        let lowest = |lanes: &[f32; WIDTH]| lanes.iter().copied().fold(f32::INFINITY, f32::min);
        let highest =
            |lanes: &[f32; WIDTH]| lanes.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        (self.min.map(|l| lowest(&l)), self.max.map(|l| highest(&l)))
    }

    /// The lane of `child`.
    fn lane_of(&self, child: u32) -> usize {
        self.child
            .iter()
            .position(|&c| c == child)
            .expect("a node holds its child")
    }
}

/// A hierarchy over bodies `0..n`, for bodies of width `T`.
#[derive(Clone, Debug)]
pub(crate) struct Hierarchy<T, const D: usize> {
    /// The nodes, the root first (none for no bodies).
    pub(crate) nodes: Vec<Wide<D>>,
    /// Each node's parent (`u32::MAX` for the root), for refits.
    parents: Vec<u32>,
    /// The node that holds each body.
    node_of: Vec<u32>,
    /// The most nodes on a path from the root to a body.
    pub(crate) depth: usize,
    width: PhantomData<fn() -> T>,
}

impl<T: Real, const D: usize> Hierarchy<T, D> {
    /// The hierarchy over bodies with the given boxes (as `min`, `max` in the width; none NaN;
    /// at most [`MAX_BODIES`]).
    pub(crate) fn build(boxes: &[([T; D], [T; D])]) -> Self {
        let tree = binary_tree(boxes);
        let mut hierarchy = Hierarchy {
            nodes: Vec::with_capacity(boxes.len() / 2 + 1),
            parents: Vec::with_capacity(boxes.len() / 2 + 1),
            node_of: alloc::vec![0; boxes.len()],
            depth: 0,
            width: PhantomData,
        };
        if tree.is_empty() {
            return hierarchy;
        }
        hierarchy.nodes.push(Wide::BLANK);
        hierarchy.parents.push(u32::MAX);
        // (binary node, the node it becomes, that node's depth)
        let mut work = Vec::with_capacity(3 * super::build::MAX_DEPTH);
        work.push((0usize, 0usize, 1usize));
        while let Some((from, node, depth)) = work.pop() {
            hierarchy.depth = hierarchy.depth.max(depth);
            let (picked, count) = children(&tree, from);
            for (k, &b) in picked[..count].iter().enumerate() {
                hierarchy.nodes[node].set_box::<T>(k, &tree[b].bounds);
                hierarchy.nodes[node].child[k] = match tree[b].part {
                    Part::Body(id) => {
                        hierarchy.node_of[id as usize] = node as u32;
                        BODY | id
                    }
                    Part::Pair(..) => {
                        let index = hierarchy.nodes.len();
                        hierarchy.nodes.push(Wide::BLANK);
                        hierarchy.parents.push(node as u32);
                        work.push((b, index, depth + 1));
                        index as u32
                    }
                };
            }
        }
        hierarchy.nodes.shrink_to_fit();
        hierarchy.parents.shrink_to_fit();
        hierarchy
    }

    /// Refits the boxes on the path from body `id` to the root to its box `(min, max)`, so that
    /// every node again holds its bodies, grown as at the build.
    pub(crate) fn refit(&mut self, id: usize, (min, max): ([T; D], [T; D])) {
        let mut node = self.node_of[id] as usize;
        let lane = self.nodes[node].lane_of(BODY | id as u32);
        let bounds = Bounds {
            min: min.map(T::to_wide),
            max: max.map(T::to_wide),
        };
        self.nodes[node].set_box::<T>(lane, &bounds);
        while self.parents[node] != u32::MAX {
            let parent = self.parents[node] as usize;
            let (min, max) = self.nodes[node].union();
            let lane = self.nodes[parent].lane_of(node as u32);
            for i in 0..D {
                self.nodes[parent].min[i][lane] = min[i];
                self.nodes[parent].max[i][lane] = max[i];
            }
            node = parent;
        }
    }

    /// The memory the hierarchy holds, in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Wide<D>>()
            + self.parents.capacity() * 4
            + self.node_of.capacity() * 4
    }
}

/// The binary nodes that become the children of binary node `from`'s wide node, and how many:
/// its two children, then the child of largest area replaced by its own two, until there are
/// [`WIDTH`] or only bodies; a lone body stays alone.
fn children<const D: usize>(tree: &[Split<D>], from: usize) -> ([usize; WIDTH], usize) {
    let mut picked = [from; WIDTH];
    let Part::Pair(left, right) = tree[from].part else {
        return (picked, 1);
    };
    (picked[0], picked[1]) = (left as usize, right as usize);
    let mut count = 2;
    while count < WIDTH {
        let area = |k: usize| tree[picked[k]].bounds.area();
        let widest = (0..count)
            .filter_map(|k| match tree[picked[k]].part {
                Part::Pair(left, right) => Some((k, left, right)),
                Part::Body(_) => None,
            })
            .max_by(|x, y| area(x.0).total_cmp(&area(y.0)));
        let Some((k, left, right)) = widest else {
            break;
        };
        picked[k] = left as usize;
        picked[count] = right as usize;
        count += 1;
    }
    (picked, count)
}
