//! How a scene's bodies are split, top down, for its hierarchy (`src/scene/build/mod.rs`): binned SAH
//! over the bodies' boxes (Wald, "On fast construction of SAH-based bounding volume
//! hierarchies", IEEE Symposium on Interactive Ray Tracing, 2007), in `O(n log n)` for bodies
//! spread through space.
//!
//! Each split bins the centroids along their longest axis, picks the plane of least
//! `A_l·N_l + A_r·N_r`, takes both sides' boxes and centroid bounds from the bins, and partitions
//! the bodies by the bins they were put in, without a branch. A subset's box is the exact union of its
//! bodies' boxes, in `f64`.

use alloc::vec::Vec;

use crate::real::Real;

/// How many bins the SAH sweeps per axis.
const BINS: usize = 16;

/// Subsets of this many bodies or fewer are split at the median: the node that takes them
/// (`src/scene/build/mod.rs`) holds all of them as its children, whatever the split.
const SMALL: usize = 4;

/// The depth beyond which a node is split at its median instead: a bound on the depth (and the
/// traversal's stack), whatever the bodies' layout.
const SAH_DEPTH: usize = 40;

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

/// A body's box in its width, and its id: 32 bytes in `f32` (three dimensions), 56 in `f64`.
/// The id is a `u64`, not the `u32` it fits in, so that an `f32` item is 32 bytes, not 28: the
/// partition swaps items, and a 28-byte item was moved as two overlapping 16-byte halves whose
/// reloads missed store forwarding (the `f32` build measured markedly slower).
#[derive(Clone, Copy)]
struct Item<T, const D: usize> {
    min: [T; D],
    max: [T; D],
    id: u64,
}

impl<T: Real, const D: usize> Item<T, D> {
    /// The box's centre on axis `a`, in `f64` (0 where that is not finite): the key the splits
    /// order by. Formed where it is read, not stored: at `10^7` bodies a stored centre took
    /// 0.24 GB (`f32`) or 0.48 GB (`f64`) more at the build's peak.
    #[inline(always)]
    fn centre(&self, a: usize) -> f64 {
        centre_of(self.min[a].to_wide(), self.max[a].to_wide())
    }

    /// The box, in `f64` (exactly), and its centre as a box of no extent, from one widening of
    /// the bounds.
    #[inline(always)]
    fn bounds_and_centre(&self) -> (Bounds<D>, Bounds<D>) {
        let bounds = Bounds {
            min: self.min.map(T::to_wide),
            max: self.max.map(T::to_wide),
        };
        let c = core::array::from_fn(|a| centre_of(bounds.min[a], bounds.max[a]));
        (bounds, Bounds { min: c, max: c })
    }
}

/// The centre of `[min, max]` (0 where that is not finite).
#[inline(always)]
fn centre_of(min: f64, max: f64) -> f64 {
    let c = 0.5 * min + 0.5 * max;
    if c.is_finite() { c } else { 0.0 }
}

/// Some of the bodies: a range of the items, with what is known of them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Subset<const D: usize> {
    /// Where their range of the items starts.
    pub(crate) first: usize,
    /// How many bodies.
    pub(crate) count: usize,
    /// The union of their boxes.
    pub(crate) bounds: Bounds<D>,
    /// The union of their centres.
    centres: Bounds<D>,
    /// How many splits led to it.
    depth: usize,
}

/// The two sides of a split: the left one's count, and each side's box and centroid bounds.
struct Sides<const D: usize> {
    left: usize,
    bounds: [Bounds<D>; 2],
    centres: [Bounds<D>; 2],
}

/// The bodies' boxes and ids, and the splits' scratch space (each body's bin).
pub(crate) struct ItemStore<T, const D: usize> {
    items: Vec<Item<T, D>>,
    bins: Vec<u8>,
}

impl<T: Real, const D: usize> ItemStore<T, D> {
    /// The bodies with the given boxes (`min`, `max` in the width; none NaN), and the subset of
    /// all of them (`None` for no bodies).
    pub(crate) fn new(boxes: impl Iterator<Item = ([T; D], [T; D])>) -> (Self, Option<Subset<D>>) {
        let items: Vec<Item<T, D>> = boxes
            .enumerate()
            .map(|(id, (min, max))| Item {
                min,
                max,
                id: id as u64,
            })
            .collect();
        let (mut bounds, mut centres) = (Bounds::EMPTY, Bounds::EMPTY);
        for item in &items {
            let (b, c) = item.bounds_and_centre();
            bounds.grow(&b);
            centres.grow(&c);
        }
        let all = Subset {
            first: 0,
            count: items.len(),
            bounds,
            centres,
            depth: 0,
        };
        let some = (!items.is_empty()).then_some(all);
        let store = ItemStore {
            bins: alloc::vec![0; items.len()],
            items,
        };
        (store, some)
    }

    /// All the items, to split.
    pub(crate) fn view(&mut self) -> Items<'_, T, D> {
        Items {
            items: &mut self.items,
            bins: &mut self.bins,
            offset: 0,
        }
    }
}

/// Some of the items (those from `offset` on), reordered by the splits so that every subset is
/// a range.
pub(crate) struct Items<'a, T, const D: usize> {
    items: &'a mut [Item<T, D>],
    bins: &'a mut [u8],
    offset: usize,
}

impl<'a, T: Real, const D: usize> Items<'a, T, D> {
    /// The id of the first body of `subset`.
    pub(crate) fn first_id(&self, subset: &Subset<D>) -> u32 {
        self.items[subset.first - self.offset].id as u32
    }

    /// The ids of the bodies of `subset`.
    pub(crate) fn ids(&self, subset: &Subset<D>) -> impl Iterator<Item = u32> + '_ {
        let start = subset.first - self.offset;
        self.items[start..start + subset.count]
            .iter()
            .map(|item| item.id as u32)
    }

    /// `subset` (two bodies or more, among these items) split in two (see [`split`]).
    pub(crate) fn split(&mut self, subset: &Subset<D>) -> [Subset<D>; 2] {
        let start = subset.first - self.offset;
        let at = start..start + subset.count;
        let sides = split(
            &mut self.items[at.clone()],
            &mut self.bins[at],
            &subset.centres,
            subset.depth,
        );
        let side = |k: usize, first: usize, count: usize| Subset {
            first,
            count,
            bounds: sides.bounds[k],
            centres: sides.centres[k],
            depth: subset.depth + 1,
        };
        [
            side(0, subset.first, sides.left),
            side(1, subset.first + sides.left, subset.count - sides.left),
        ]
    }

    /// The items of each of `subsets` (disjoint, in increasing order, among these items).
    pub(crate) fn carve(self, subsets: &[Subset<D>]) -> Vec<Items<'a, T, D>> {
        let mut rest = self;
        let mut carved = Vec::with_capacity(subsets.len());
        for subset in subsets {
            let skip = subset.first - rest.offset;
            let (_, items) = rest.items.split_at_mut(skip);
            let (_, bins) = rest.bins.split_at_mut(skip);
            let (items, after) = items.split_at_mut(subset.count);
            let (bins, bins_after) = bins.split_at_mut(subset.count);
            carved.push(Items {
                items,
                bins,
                offset: subset.first,
            });
            rest = Items {
                items: after,
                bins: bins_after,
                offset: subset.first + subset.count,
            };
        }
        carved
    }
}

/// How to split `range` (at least two bodies, whose centres' union is `centres`), after
/// reordering it so that the left side comes first: binned SAH on the centroids along their
/// longest extent (binning every axis cost half again the build time and gained nothing
/// measurable on spheres spread through space); the median of that axis for [`SMALL`] nodes,
/// beyond [`SAH_DEPTH`], where the centroids coincide, or where no plane separates them.
fn split<T: Real, const D: usize>(
    range: &mut [Item<T, D>],
    bin_of_item: &mut [u8],
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
    // Each bin's boxes, centres and count.
    let mut bins = [(Bounds::<D>::EMPTY, Bounds::<D>::EMPTY, 0usize); BINS];
    for (item, kept) in range.iter().zip(bin_of_item.iter_mut()) {
        let (bounds, centre) = item.bounds_and_centre();
        let b = bin_of(centre.min[a]);
        *kept = b as u8;
        let bin = &mut bins[b];
        bin.0.grow(&bounds);
        bin.1.grow(&centre);
        bin.2 += 1;
    }
    // Areas and counts left of each plane, then right of it.
    let mut left = [(0.0, 0usize); BINS];
    let mut acc = (Bounds::EMPTY, 0);
    for p in 0..BINS - 1 {
        acc.0.grow(&bins[p].0);
        acc.1 += bins[p].2;
        left[p] = (acc.0.area(), acc.1);
    }
    let mut best: Option<(f64, usize)> = None; // (cost, last bin on the left)
    let mut acc = (Bounds::EMPTY, 0);
    for p in (0..BINS - 1).rev() {
        acc.0.grow(&bins[p + 1].0);
        acc.1 += bins[p + 1].2;
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
        let side = usize::from(p > plane);
        sides.bounds[side].grow(&bin.0);
        sides.centres[side].grow(&bin.1);
    }
    // In place (Lomuto's partition): the bodies before `left` are the left side's, those from
    // `left` to `i` the right side's; body `i` is swapped with the first of the right side
    // whichever side it is on (two of the right side swapped keep the order), so that nothing
    // branches on the side, which mispredicted half the time. Position `i` is untouched until
    // then, so `bin_of_item[i]` is still its body's bin.
    let mut left = 0;
    for (i, &b) in bin_of_item.iter().enumerate() {
        let on_left = usize::from(b) <= plane;
        range.swap(left, i);
        left += usize::from(on_left);
    }
    sides.left = left;
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
        let (bounds, centre) = item.bounds_and_centre();
        sides.bounds[side].grow(&bounds);
        sides.centres[side].grow(&centre);
    }
    sides
}
