//! The bounding volume hierarchy of a scene: a binary tree of axis-aligned boxes, built by binned
//! SAH (Wald, "On fast construction of SAH-based bounding volume hierarchies", IEEE Symposium on
//! Interactive Ray Tracing, 2007), refitted along one body's path when it moves.
//!
//! A node's box holds the union of its bodies' [`Shape::aabb`](crate::Shape::aabb) boxes, grown
//! on each axis by [`slack`] times the larger magnitude of its bounds there and rounded outward
//! to the width, so never tighter than what the node holds (the probe adds the query's own
//! share, `src/scene/probe.rs`). Leaves hold up to [`MAX_LEAF`] bodies, whose ids are contiguous
//! in [`Bvh::order`]; a node's two children are adjacent.

use alloc::vec::Vec;

use crate::real::Real;

/// The most bodies a leaf holds.
pub(crate) const MAX_LEAF: usize = 8;

/// A node of at most this many bodies is a leaf: a few bodies cost little more to test than a
/// node, and keep the hierarchy small.
const MIN_SPLIT: usize = 4;

/// How many bins the SAH sweeps per axis.
const BINS: usize = 16;

/// Nodes of more bodies than this bin one axis only, the longest extent of their centroids.
const ONE_AXIS: usize = 1024;

/// The depth beyond which a node is split at its median instead: a bound on the depth (and the
/// traversal's stack), whatever the bodies' layout.
const SAH_DEPTH: usize = 40;

/// The depth of the deepest tree: [`SAH_DEPTH`] levels, then median splits of at most `2^32`
/// bodies into leaves.
pub(crate) const MAX_DEPTH: usize = SAH_DEPTH + 32;

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

/// A node: its box, and either its two children (`count == 0`; they are `start` and `start + 1`)
/// or its bodies (`order[start..start + count]`). Aligned to 32 bytes, so that an `f32` node is 32
/// bytes and a pair of children (which start at an even index: an unused node follows the root)
/// one 64-byte cache line: the traversal reads both children of a node at once.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct Node<T, const D: usize> {
    pub(crate) min: [T; D],
    pub(crate) max: [T; D],
    pub(crate) start: u32,
    pub(crate) count: u32,
}

/// A hierarchy over bodies `0..n`.
#[derive(Clone, Debug)]
pub(crate) struct Bvh<T, const D: usize> {
    /// The nodes, the root first (none for no bodies).
    pub(crate) nodes: Vec<Node<T, D>>,
    /// Each node's parent (`u32::MAX` for the root), for refits.
    parents: Vec<u32>,
    /// Body ids, each leaf's contiguous.
    pub(crate) order: Vec<u32>,
    /// The leaf that holds each body.
    leaf_of: Vec<u32>,
}

/// A body's box in `f64` (exactly), its centre, and its id.
#[derive(Clone, Copy)]
struct Item<const D: usize> {
    min: [f64; D],
    max: [f64; D],
    centre: [f64; D],
    id: u32,
}

/// An axis-aligned box in `f64`.
#[derive(Clone, Copy)]
struct Bounds<const D: usize> {
    min: [f64; D],
    max: [f64; D],
}

impl<const D: usize> Bounds<D> {
    /// The empty box, which [`Bounds::grow`] replaces by whatever it meets.
    const EMPTY: Self = Bounds {
        min: [f64::INFINITY; D],
        max: [f64::NEG_INFINITY; D],
    };

    /// The union with `[min, max]`.
    #[inline(always)]
    fn grow(&mut self, min: &[f64; D], max: &[f64; D]) {
        for i in 0..D {
            self.min[i] = if min[i] < self.min[i] {
                min[i]
            } else {
                self.min[i]
            };
            self.max[i] = if max[i] > self.max[i] {
                max[i]
            } else {
                self.max[i]
            };
        }
    }

    /// The SAH's estimate of the cost to enter: half the surface area (the sum of the products
    /// of the extents, two at a time), or the extent in one dimension; infinite extents count as
    /// the largest finite cost.
    fn area(&self) -> f64 {
        let extent: [f64; D] = core::array::from_fn(|i| (self.max[i] - self.min[i]).max(0.0));
        let cost = if D == 1 {
            extent[0]
        } else {
            let mut sum = 0.0;
            for i in 0..D {
                for j in i + 1..D {
                    sum += extent[i] * extent[j];
                }
            }
            sum
        };
        if cost.is_finite() { cost } else { f64::MAX }
    }
}

/// The box `[min, max]` grown by [`slack`] on each axis and rounded outward to the width `T`.
fn grown<T: Real, const D: usize>(min: &[f64; D], max: &[f64; D]) -> ([T; D], [T; D]) {
    let by = |i: usize| slack::<T>() * min[i].abs().max(max[i].abs());
    (
        core::array::from_fn(|i| T::from_wide_down(min[i] - by(i))),
        core::array::from_fn(|i| T::from_wide_up(max[i] + by(i))),
    )
}

impl<T: Real, const D: usize> Bvh<T, D> {
    /// The hierarchy over bodies with the given boxes (as `min`, `max` in the width; none NaN).
    pub(crate) fn build(boxes: &[([T; D], [T; D])]) -> Self {
        let mut items: Vec<Item<D>> = boxes
            .iter()
            .enumerate()
            .map(|(id, (min, max))| {
                let (min, max) = (min.map(T::to_wide), max.map(T::to_wide));
                let centre = core::array::from_fn(|i| {
                    let c = 0.5 * min[i] + 0.5 * max[i];
                    if c.is_finite() { c } else { 0.0 }
                });
                Item {
                    min,
                    max,
                    centre,
                    id: id as u32,
                }
            })
            .collect();
        let mut nodes: Vec<Node<T, D>> = Vec::with_capacity(boxes.len() / 2 + 1);
        let mut parents: Vec<u32> = Vec::with_capacity(boxes.len() / 2 + 1);
        let blank = Node {
            min: [T::zero(); D],
            max: [T::zero(); D],
            start: 0,
            count: 0,
        };
        if !items.is_empty() {
            // The root, and the unused node that puts every pair of children at an even index.
            nodes.extend([blank; 2]);
            parents.extend([u32::MAX; 2]);
            // (node, first item, item count, depth)
            let mut work = Vec::with_capacity(2 * MAX_DEPTH);
            work.push((0usize, 0usize, items.len(), 0usize));
            while let Some((node, first, count, depth)) = work.pop() {
                let range = &mut items[first..first + count];
                let (mut bounds, mut centres) = (Bounds::EMPTY, Bounds::EMPTY);
                for item in range.iter() {
                    bounds.grow(&item.min, &item.max);
                    centres.grow(&item.centre, &item.centre);
                }
                (nodes[node].min, nodes[node].max) = grown::<T, D>(&bounds.min, &bounds.max);
                match split(range, &bounds, &centres, depth) {
                    None => {
                        nodes[node].start = first as u32;
                        nodes[node].count = count as u32;
                    }
                    Some(left) => {
                        let child = nodes.len();
                        nodes.extend([blank; 2]);
                        parents.extend([node as u32; 2]);
                        nodes[node].start = child as u32;
                        work.push((child, first, left, depth + 1));
                        work.push((child + 1, first + left, count - left, depth + 1));
                    }
                }
            }
        }
        let order: Vec<u32> = items.iter().map(|item| item.id).collect();
        let mut leaf_of = alloc::vec![0; boxes.len()];
        for (index, node) in nodes.iter().enumerate() {
            if node.count > 0 {
                let ids = &order[node.start as usize..(node.start + node.count) as usize];
                for &id in ids {
                    leaf_of[id as usize] = index as u32;
                }
            }
        }
        nodes.shrink_to_fit();
        parents.shrink_to_fit();
        Bvh {
            nodes,
            parents,
            order,
            leaf_of,
        }
    }

    /// The bodies' ids of a leaf.
    #[inline]
    pub(crate) fn bodies(&self, leaf: &Node<T, D>) -> &[u32] {
        &self.order[leaf.start as usize..(leaf.start + leaf.count) as usize]
    }

    /// Refits the boxes on the path from body `id`'s leaf to the root, from the bodies' boxes
    /// (`boxes(id)`), so that every node again holds its bodies, grown as at the build.
    pub(crate) fn refit(&mut self, id: usize, boxes: impl Fn(usize) -> ([T; D], [T; D])) {
        let mut node = self.leaf_of[id] as usize;
        loop {
            let n = self.nodes[node];
            let mut bounds = Bounds::EMPTY;
            if n.count > 0 {
                for &body in self.bodies(&n) {
                    let (lo, hi) = boxes(body as usize);
                    bounds.grow(&lo.map(T::to_wide), &hi.map(T::to_wide));
                }
                (self.nodes[node].min, self.nodes[node].max) =
                    grown::<T, D>(&bounds.min, &bounds.max);
            } else {
                // The children are grown already; their union holds them.
                for child in [n.start as usize, n.start as usize + 1] {
                    let c = self.nodes[child];
                    bounds.grow(&c.min.map(T::to_wide), &c.max.map(T::to_wide));
                }
                self.nodes[node].min = bounds.min.map(T::from_wide);
                self.nodes[node].max = bounds.max.map(T::from_wide);
            }
            let parent = self.parents[node];
            if parent == u32::MAX {
                return;
            }
            node = parent as usize;
        }
    }

    /// The memory the hierarchy holds, in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node<T, D>>()
            + self.parents.capacity() * 4
            + self.order.capacity() * 4
            + self.leaf_of.capacity() * 4
    }
}

/// Where to split `range` (a node's bodies, whose boxes' union is `bounds` and centres' is
/// `centres`): the count of the left part, after reordering `range` so that it comes first;
/// `None` for a leaf.
///
/// Binned SAH on the centroids: each axis's centroid extent in [`BINS`] bins, all axes in one
/// pass (the longest only, above [`ONE_AXIS`] bodies), the best of the planes between them by `C_trav + (A_l·N_l + A_r·N_r)/A` against a leaf's
/// `N` (a node costs about one body test to traverse). A leaf where it holds at most
/// [`MIN_SPLIT`] bodies, or where no plane beats it and it holds at most [`MAX_LEAF`]; the median
/// of the longest centroid axis beyond [`SAH_DEPTH`], where the centroids coincide, or where no
/// plane separates them.
fn split<const D: usize>(
    range: &mut [Item<D>],
    bounds: &Bounds<D>,
    centres: &Bounds<D>,
    depth: usize,
) -> Option<usize> {
    let count = range.len();
    if count <= MIN_SPLIT {
        return None;
    }
    let extent = |a: usize| centres.max[a] - centres.min[a];
    let longest = (0..D)
        .max_by(|&a, &b| extent(a).total_cmp(&extent(b)))
        .unwrap_or(0);
    let median = |range: &mut [Item<D>]| {
        if range.len() <= MAX_LEAF {
            return None;
        }
        let half = range.len() / 2;
        range.select_nth_unstable_by(half, |a, b| a.centre[longest].total_cmp(&b.centre[longest]));
        Some(half)
    };
    if !(extent(longest) > 0.0) || depth >= SAH_DEPTH {
        return median(range);
    }
    // Large nodes bin their longest centroid axis only: a third of the work where most of it
    // lies, for a split the other axes seldom beat on bodies spread through space.
    let binned = |a: usize| extent(a) > 0.0 && (range.len() <= ONE_AXIS || a == longest);
    let scale: [f64; D] = core::array::from_fn(|a| {
        if binned(a) {
            BINS as f64 / extent(a)
        } else {
            0.0
        }
    });
    let bin_of = |c: f64, a: usize| (((c - centres.min[a]) * scale[a]) as usize).min(BINS - 1);
    let mut bins = [[(Bounds::<D>::EMPTY, 0usize); BINS]; D];
    for item in range.iter() {
        for (a, axis_bins) in bins.iter_mut().enumerate() {
            if binned(a) {
                let bin = &mut axis_bins[bin_of(item.centre[a], a)];
                bin.0.grow(&item.min, &item.max);
                bin.1 += 1;
            }
        }
    }
    let parent_area = bounds.area().max(f64::MIN_POSITIVE);
    let mut best: Option<(f64, usize, usize)> = None; // (cost, axis, last bin on the left)
    for (a, axis_bins) in bins.iter().enumerate() {
        if !binned(a) {
            continue;
        }
        // Areas and counts left of each plane, then right of it.
        let mut left = [(0.0, 0usize); BINS];
        let mut acc = (Bounds::EMPTY, 0);
        for p in 0..BINS - 1 {
            acc.0.grow(&axis_bins[p].0.min, &axis_bins[p].0.max);
            acc.1 += axis_bins[p].1;
            left[p] = (acc.0.area(), acc.1);
        }
        let mut acc = (Bounds::EMPTY, 0);
        for p in (0..BINS - 1).rev() {
            acc.0.grow(&axis_bins[p + 1].0.min, &axis_bins[p + 1].0.max);
            acc.1 += axis_bins[p + 1].1;
            let (l_area, l_count) = left[p];
            if l_count == 0 || acc.1 == 0 {
                continue;
            }
            let cost = 1.0 + (l_area * l_count as f64 + acc.0.area() * acc.1 as f64) / parent_area;
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, a, p));
            }
        }
    }
    let Some((cost, a, plane)) = best else {
        return median(range);
    };
    if cost >= count as f64 && count <= MAX_LEAF {
        return None;
    }
    let mut left = 0;
    for i in 0..count {
        if bin_of(range[i].centre[a], a) <= plane {
            range.swap(i, left);
            left += 1;
        }
    }
    if left == 0 || left == count {
        return median(range);
    }
    Some(left)
}
