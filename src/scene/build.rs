//! The binary tree that a scene's hierarchy is collapsed from (`src/scene/wide.rs`): binned SAH
//! over the bodies' boxes (Wald, "On fast construction of SAH-based bounding volume
//! hierarchies", IEEE Symposium on Interactive Ray Tracing, 2007), split down to one body per
//! leaf, in `O(n log n)`.
//!
//! Each split bins the centroids along their longest axis, picks the plane of least
//! `A_l·N_l + A_r·N_r`, and partitions the bodies in one pass that also gathers the two sides'
//! centroid bounds; the sides' boxes come from the bins. A node's box is the exact
//! union of its bodies' boxes, in `f64`.

use alloc::vec::Vec;

use crate::real::Real;

/// How many bins the SAH sweeps per axis.
const BINS: usize = 16;

/// Nodes of this many bodies or fewer are split at the median: the wide node that takes them
/// (`src/scene/wide.rs`) holds all of them as its children, whatever the split.
const SMALL: usize = 4;

/// The depth beyond which a node is split at its median instead: a bound on the depth (and the
/// traversal's stack), whatever the bodies' layout.
const SAH_DEPTH: usize = 40;

/// The depth of the deepest tree: [`SAH_DEPTH`] levels, then median splits of at most `2^32`
/// bodies.
pub(crate) const MAX_DEPTH: usize = SAH_DEPTH + 32;

/// An axis-aligned box in `f64`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds<const D: usize> {
    pub(crate) min: [f64; D],
    pub(crate) max: [f64; D],
}

impl<const D: usize> Bounds<D> {
    /// The empty box, which [`Bounds::grow`] replaces by whatever it meets.
    pub(crate) const EMPTY: Self = Bounds {
        min: [f64::INFINITY; D],
        max: [f64::NEG_INFINITY; D],
    };

    /// The union with `other`.
    #[inline(always)]
    pub(crate) fn grow(&mut self, other: &Self) {
        for i in 0..D {
            self.min[i] = if other.min[i] < self.min[i] {
                other.min[i]
            } else {
                self.min[i]
            };
            self.max[i] = if other.max[i] > self.max[i] {
                other.max[i]
            } else {
                self.max[i]
            };
        }
    }

    /// The SAH's estimate of the cost to enter: half the surface area (the sum of the products
    /// of the extents, two at a time), or the extent in one dimension; infinite extents count as
    /// the largest finite cost.
    pub(crate) fn area(&self) -> f64 {
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

/// A node of the binary tree: the union of its bodies' boxes, and what it holds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split<const D: usize> {
    pub(crate) bounds: Bounds<D>,
    pub(crate) part: Part,
}

/// What a node of the binary tree holds.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Part {
    /// One body, by id.
    Body(u32),
    /// Two nodes, by index.
    Pair(u32, u32),
}

/// A body's box in its width, and its id.
#[derive(Clone, Copy)]
struct Item<T, const D: usize> {
    min: [T; D],
    max: [T; D],
    id: u32,
}

impl<T: Real, const D: usize> Item<T, D> {
    /// The box, in `f64` (exactly).
    #[inline(always)]
    fn bounds(&self) -> Bounds<D> {
        Bounds {
            min: self.min.map(T::to_wide),
            max: self.max.map(T::to_wide),
        }
    }

    /// Twice the centre on axis `a` (0 where that is not finite): the key the splits order by.
    #[inline(always)]
    fn centre(&self, a: usize) -> f64 {
        let c = self.min[a].to_wide() + self.max[a].to_wide();
        if c.is_finite() { c } else { 0.0 }
    }

    /// The centre as a box of no extent.
    #[inline(always)]
    fn centre_bounds(&self) -> Bounds<D> {
        let c = core::array::from_fn(|a| self.centre(a));
        Bounds { min: c, max: c }
    }
}

/// A node's bodies (a range of the items) and what is known of them.
struct Task<const D: usize> {
    node: usize,
    first: usize,
    count: usize,
    centres: Bounds<D>,
    depth: usize,
}

/// The two sides of a split: the left one's count, and each side's box and centroid bounds.
struct Sides<const D: usize> {
    left: usize,
    bounds: [Bounds<D>; 2],
    centres: [Bounds<D>; 2],
}

/// The binary tree over bodies with the given boxes (`min`, `max` in the width; none NaN), the
/// root first; empty for no bodies.
pub(crate) fn binary_tree<T: Real, const D: usize>(boxes: &[([T; D], [T; D])]) -> Vec<Split<D>> {
    let mut items: Vec<Item<T, D>> = boxes
        .iter()
        .enumerate()
        .map(|(id, &(min, max))| Item {
            min,
            max,
            id: id as u32,
        })
        .collect();
    let mut tree: Vec<Split<D>> = Vec::with_capacity(2 * items.len());
    if items.is_empty() {
        return tree;
    }
    let (mut bounds, mut centres) = (Bounds::EMPTY, Bounds::EMPTY);
    for item in &items {
        bounds.grow(&item.bounds());
        centres.grow(&item.centre_bounds());
    }
    tree.push(Split {
        bounds,
        part: Part::Body(0),
    });
    let mut work = Vec::with_capacity(2 * MAX_DEPTH);
    work.push(Task {
        node: 0,
        first: 0,
        count: items.len(),
        centres,
        depth: 0,
    });
    while let Some(task) = work.pop() {
        let range = &mut items[task.first..task.first + task.count];
        if task.count == 1 {
            tree[task.node].part = Part::Body(range[0].id);
            continue;
        }
        let sides = split(range, &task.centres, task.depth);
        let child = tree.len();
        tree[task.node].part = Part::Pair(child as u32, child as u32 + 1);
        let counts = [sides.left, task.count - sides.left];
        let firsts = [task.first, task.first + sides.left];
        for side in 0..2 {
            tree.push(Split {
                bounds: sides.bounds[side],
                part: Part::Body(0),
            });
            work.push(Task {
                node: child + side,
                first: firsts[side],
                count: counts[side],
                centres: sides.centres[side],
                depth: task.depth + 1,
            });
        }
    }
    tree
}

/// How to split `range` (at least two bodies, whose centres' union is `centres`), after
/// reordering it so that the left side comes first: binned SAH on the centroids along their
/// longest extent (binning every axis cost half again the build time and gained nothing
/// measurable on spheres spread through space); the median of that axis for [`SMALL`] nodes,
/// beyond [`SAH_DEPTH`], where the centroids coincide, or where no plane separates them.
fn split<T: Real, const D: usize>(
    range: &mut [Item<T, D>],
    centres: &Bounds<D>,
    depth: usize,
) -> Sides<D> {
    let extent = |a: usize| centres.max[a] - centres.min[a];
    let longest = (0..D)
        .max_by(|&a, &b| extent(a).total_cmp(&extent(b)))
        .unwrap_or(0);
    if !(extent(longest) > 0.0) || depth >= SAH_DEPTH || range.len() <= SMALL {
        return median(range, longest);
    }
    let a = longest;
    let scale = BINS as f64 / extent(a);
    let bin_of = |c: f64| (((c - centres.min[a]) * scale) as usize).min(BINS - 1);
    let mut bins = [(Bounds::<D>::EMPTY, 0usize); BINS];
    for item in range.iter() {
        let bin = &mut bins[bin_of(item.centre(a))];
        bin.0.grow(&item.bounds());
        bin.1 += 1;
    }
    // Areas and counts left of each plane, then right of it.
    let mut left = [(0.0, 0usize); BINS];
    let mut acc = (Bounds::EMPTY, 0);
    for p in 0..BINS - 1 {
        acc.0.grow(&bins[p].0);
        acc.1 += bins[p].1;
        left[p] = (acc.0.area(), acc.1);
    }
    let mut best: Option<(f64, usize)> = None; // (cost, last bin on the left)
    let mut acc = (Bounds::EMPTY, 0);
    for p in (0..BINS - 1).rev() {
        acc.0.grow(&bins[p + 1].0);
        acc.1 += bins[p + 1].1;
        let (l_area, l_count) = left[p];
        if l_count == 0 || acc.1 == 0 {
            continue;
        }
        let cost = l_area * l_count as f64 + acc.0.area() * acc.1 as f64;
        if best.is_none_or(|(c, _)| cost < c) {
            best = Some((cost, p));
        }
    }
    let Some((_, plane)) = best else {
        return median(range, longest);
    };
    let mut sides = Sides {
        left: 0,
        bounds: [Bounds::EMPTY; 2],
        centres: [Bounds::EMPTY; 2],
    };
    for (p, bin) in bins.iter().enumerate() {
        sides.bounds[usize::from(p > plane)].grow(&bin.0);
    }
    for i in 0..range.len() {
        let on_left = bin_of(range[i].centre(a)) <= plane;
        sides.centres[usize::from(!on_left)].grow(&range[i].centre_bounds());
        if on_left {
            range.swap(i, sides.left);
            sides.left += 1;
        }
    }
    if sides.left == 0 || sides.left == range.len() {
        return median(range, longest);
    }
    sides
}

/// The split of `range` (at least two bodies) at the median of the centroids along `axis`.
fn median<T: Real, const D: usize>(range: &mut [Item<T, D>], axis: usize) -> Sides<D> {
    let half = range.len() / 2;
    range.select_nth_unstable_by(half, |a, b| a.centre(axis).total_cmp(&b.centre(axis)));
    let mut sides = Sides {
        left: half,
        bounds: [Bounds::EMPTY; 2],
        centres: [Bounds::EMPTY; 2],
    };
    for (i, item) in range.iter().enumerate() {
        let side = usize::from(i >= half);
        sides.bounds[side].grow(&item.bounds());
        sides.centres[side].grow(&item.centre_bounds());
    }
    sides
}
