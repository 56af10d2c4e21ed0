//! The bounding volume hierarchy of a scene: a binary tree of axis-aligned boxes, built by binned
//! SAH (Wald, "On fast construction of SAH-based bounding volume hierarchies", IEEE Symposium on
//! Interactive Ray Tracing, 2007), refitted along one body's path when it moves.
//!
//! A node's box is the union of its children's, and a leaf's the union of its bodies'
//! [`Shape::aabb`](crate::Shape::aabb) boxes: minima and maxima of values of the width, so exact,
//! never tighter than what the node holds. Leaves hold up to [`MAX_LEAF`] bodies, whose ids are
//! contiguous in [`Bvh::order`].

use alloc::vec::Vec;

use crate::real::Real;

/// The most bodies a leaf holds.
pub(crate) const MAX_LEAF: usize = 8;

/// How many bins the SAH sweeps per axis.
const BINS: usize = 16;

/// The depth beyond which a node is split at its median instead: a bound on the depth (and the
/// traversal's stack), whatever the bodies' layout.
const SAH_DEPTH: usize = 40;

/// The depth of the deepest tree: [`SAH_DEPTH`] levels, then median splits of at most `2^32`
/// bodies into leaves.
pub(crate) const MAX_DEPTH: usize = SAH_DEPTH + 32;

/// A node: its box, and either its two children (`count == 0`; they are `start` and `start + 1`)
/// or its bodies (`order[start..start + count]`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<T, const D: usize> {
    pub(crate) min: [T; D],
    pub(crate) max: [T; D],
    pub(crate) start: u32,
    pub(crate) count: u32,
    parent: u32,
}

/// A hierarchy over bodies `0..n`.
#[derive(Clone, Debug)]
pub(crate) struct Bvh<T, const D: usize> {
    /// The nodes, the root first (none for no bodies).
    pub(crate) nodes: Vec<Node<T, D>>,
    /// Body ids, each leaf's contiguous.
    pub(crate) order: Vec<u32>,
    /// The leaf that holds each body.
    leaf_of: Vec<u32>,
}

/// A body's box in `f64` (exactly), and its centre.
#[derive(Clone, Copy)]
struct Item<const D: usize> {
    min: [f64; D],
    max: [f64; D],
    centre: [f64; D],
}

/// The SAH's estimate of a box's cost to enter: half its surface area (the sum of the products
/// of its extents, two at a time), or its largest extent in one dimension. Infinite or NaN
/// extents count as the largest finite cost.
fn area<const D: usize>(min: &[f64; D], max: &[f64; D]) -> f64 {
    let extent: [f64; D] = core::array::from_fn(|i| (max[i] - min[i]).max(0.0));
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

/// The union of two boxes.
fn grow<const D: usize>(into: &mut ([f64; D], [f64; D]), min: &[f64; D], max: &[f64; D]) {
    for i in 0..D {
        into.0[i] = into.0[i].min(min[i]);
        into.1[i] = into.1[i].max(max[i]);
    }
}

/// The empty box, which [`grow`] replaces by whatever it meets.
fn empty<const D: usize>() -> ([f64; D], [f64; D]) {
    ([f64::INFINITY; D], [f64::NEG_INFINITY; D])
}

impl<T: Real, const D: usize> Bvh<T, D> {
    /// The hierarchy over bodies with the given boxes (as `min`, `max` in the width; none NaN).
    pub(crate) fn build(boxes: &[([T; D], [T; D])]) -> Self {
        let items: Vec<Item<D>> = boxes
            .iter()
            .map(|(min, max)| {
                let (min, max) = (min.map(T::to_wide), max.map(T::to_wide));
                let centre = core::array::from_fn(|i| {
                    let c = 0.5 * min[i] + 0.5 * max[i];
                    if c.is_finite() { c } else { 0.0 }
                });
                Item { min, max, centre }
            })
            .collect();
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        let mut nodes: Vec<Node<T, D>> = Vec::with_capacity(boxes.len());
        if !items.is_empty() {
            nodes.push(Node {
                min: [T::zero(); D],
                max: [T::zero(); D],
                start: 0,
                count: 0,
                parent: u32::MAX,
            });
            // (node, first body, body count, depth)
            let mut work = Vec::with_capacity(2 * MAX_DEPTH);
            work.push((0usize, 0usize, items.len(), 0usize));
            while let Some((node, first, count, depth)) = work.pop() {
                let range = &mut order[first..first + count];
                let mut bounds = empty::<D>();
                for &id in range.iter() {
                    let item = &items[id as usize];
                    grow(&mut bounds, &item.min, &item.max);
                }
                nodes[node].min = bounds.0.map(T::from_wide);
                nodes[node].max = bounds.1.map(T::from_wide);
                match split(&items, range, &bounds, depth) {
                    None => {
                        nodes[node].start = first as u32;
                        nodes[node].count = count as u32;
                    }
                    Some(left) => {
                        let child = nodes.len();
                        for _ in 0..2 {
                            nodes.push(Node {
                                min: [T::zero(); D],
                                max: [T::zero(); D],
                                start: 0,
                                count: 0,
                                parent: node as u32,
                            });
                        }
                        nodes[node].start = child as u32;
                        work.push((child, first, left, depth + 1));
                        work.push((child + 1, first + left, count - left, depth + 1));
                    }
                }
            }
        }
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
        Bvh {
            nodes,
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
    /// (`boxes(id)`), so that every node again holds its bodies exactly.
    pub(crate) fn refit(&mut self, id: usize, boxes: impl Fn(usize) -> ([T; D], [T; D])) {
        let mut node = self.leaf_of[id] as usize;
        loop {
            let n = self.nodes[node];
            let (mut min, mut max) = (
                [T::from_wide(f64::INFINITY); D],
                [T::from_wide(f64::NEG_INFINITY); D],
            );
            let mut take = |lo: &[T; D], hi: &[T; D]| {
                for i in 0..D {
                    min[i] = min[i].min(lo[i]);
                    max[i] = max[i].max(hi[i]);
                }
            };
            if n.count > 0 {
                for &body in self.bodies(&n) {
                    let (lo, hi) = boxes(body as usize);
                    take(&lo, &hi);
                }
            } else {
                for child in [n.start as usize, n.start as usize + 1] {
                    let c = self.nodes[child];
                    take(&c.min, &c.max);
                }
            }
            self.nodes[node].min = min;
            self.nodes[node].max = max;
            if n.parent == u32::MAX {
                return;
            }
            node = n.parent as usize;
        }
    }

    /// The memory the hierarchy holds, in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node<T, D>>()
            + self.order.capacity() * 4
            + self.leaf_of.capacity() * 4
    }
}

/// Where to split `range` (the ids of a node's bodies, whose boxes' union is `bounds`): the
/// count of the left part, after reordering `range` so that it comes first; `None` for a leaf.
///
/// Binned SAH on the centroids: each axis's centroid extent in [`BINS`] bins, the best of the
/// planes between them by `C_trav + (A_l·N_l + A_r·N_r)/A`, against a leaf's `N` (a node costs
/// about one body test to traverse). A leaf where no plane beats it and it holds at most
/// [`MAX_LEAF`] bodies; the median of the longest centroid axis beyond [`SAH_DEPTH`], or where
/// the centroids coincide, or where no plane separates them.
fn split<const D: usize>(
    items: &[Item<D>],
    range: &mut [u32],
    bounds: &([f64; D], [f64; D]),
    depth: usize,
) -> Option<usize> {
    let count = range.len();
    if count <= 1 {
        return None;
    }
    let mut centres = empty::<D>();
    for &id in range.iter() {
        let c = &items[id as usize].centre;
        grow(&mut centres, c, c);
    }
    let axis = (0..D)
        .max_by(|&a, &b| {
            let (ea, eb) = (centres.1[a] - centres.0[a], centres.1[b] - centres.0[b]);
            ea.total_cmp(&eb)
        })
        .unwrap_or(0);
    let median = |range: &mut [u32]| {
        let half = range.len() / 2;
        range.select_nth_unstable_by(half, |&a, &b| {
            items[a as usize].centre[axis].total_cmp(&items[b as usize].centre[axis])
        });
        Some(half)
    };
    if centres.1[axis] - centres.0[axis] <= 0.0 {
        // Coincident centroids: no plane separates them.
        return if count <= MAX_LEAF {
            None
        } else {
            median(range)
        };
    }
    if depth >= SAH_DEPTH {
        return if count <= MAX_LEAF {
            None
        } else {
            median(range)
        };
    }
    let parent_area = area(&bounds.0, &bounds.1);
    let mut best: Option<(f64, usize, usize)> = None; // (cost, axis, plane)
    for a in 0..D {
        let (lo, hi) = (centres.0[a], centres.1[a]);
        if !(hi > lo) {
            continue;
        }
        let scale = BINS as f64 / (hi - lo);
        let bin_of = |c: f64| (((c - lo) * scale) as usize).min(BINS - 1);
        let mut bins = [(empty::<D>(), 0usize); BINS];
        for &id in range.iter() {
            let item = &items[id as usize];
            let bin = &mut bins[bin_of(item.centre[a])];
            grow(&mut bin.0, &item.min, &item.max);
            bin.1 += 1;
        }
        // Areas and counts left of each plane, then right of it.
        let mut left = [(0.0, 0usize); BINS];
        let mut acc = (empty::<D>(), 0);
        for p in 0..BINS - 1 {
            grow(&mut acc.0, &bins[p].0.0, &bins[p].0.1);
            acc.1 += bins[p].1;
            left[p] = (area(&acc.0.0, &acc.0.1), acc.1);
        }
        let mut acc = (empty::<D>(), 0);
        for p in (0..BINS - 1).rev() {
            grow(&mut acc.0, &bins[p + 1].0.0, &bins[p + 1].0.1);
            acc.1 += bins[p + 1].1;
            let (l_area, l_count) = left[p];
            if l_count == 0 || acc.1 == 0 {
                continue;
            }
            let cost = 1.0
                + (l_area * l_count as f64 + area(&acc.0.0, &acc.0.1) * acc.1 as f64)
                    / parent_area.max(f64::MIN_POSITIVE);
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, a, p));
            }
        }
    }
    let Some((cost, a, plane)) = best else {
        return if count <= MAX_LEAF {
            None
        } else {
            median(range)
        };
    };
    if cost >= count as f64 && count <= MAX_LEAF {
        return None;
    }
    let (lo, hi) = (centres.0[a], centres.1[a]);
    let scale = BINS as f64 / (hi - lo);
    let goes_left =
        |id: u32| (((items[id as usize].centre[a] - lo) * scale) as usize).min(BINS - 1) <= plane;
    let mut left = 0;
    for i in 0..count {
        if goes_left(range[i]) {
            range.swap(i, left);
            left += 1;
        }
    }
    if left == 0 || left == count {
        return median(range);
    }
    Some(left)
}
