//! The order in which the proximity batches (`src/scene/bulk.rs`) visit their points: along a
//! space-filling curve (Morton's Z order), cut into blocks of a few points that lie close
//! together, so that the points of a block share the bodies that can answer them and each block
//! starts next to the one before.
//!
//! A point's key interleaves the bits of its coordinates' positions on a grid of `2^(63 / D)`
//! steps per axis over the box of the batch's points (Morton, "A computer oriented geodetic data
//! base and a new technique in file sequencing", IBM, 1966). Sorted by key, the points of each
//! cell of the implicit binary space partition that halves the box axis by axis are consecutive;
//! [`Order::blocks`] cuts the sorted points at the largest such cells that hold at most
//! [`BLOCK`] of them. The order decides only which points go together, never an answer: a
//! point whose coordinates are not finite in `f32` is left out of the blocks, for its own search.

use alloc::vec::Vec;
use core::ops::Range;

use nalgebra::Point;

use crate::real::Real;

/// The most points in a block.
pub(super) const BLOCK: usize = 16;

/// The most points ordered at once (their indices are `u32`s); more are ordered in parts of
/// this many.
pub(super) const PART: usize = 1 << 31;

/// The order in which the proximity batches ([`Scene::nearest_batch`],
/// [`Scene::within_batch`] and their forms) visit `points`: their indices along a space-filling
/// curve (Morton's Z order over the points' box), those with a coordinate that is not finite in
/// `f32` last, in parts of `2^31` points.
///
/// A batch orders its points itself; a caller that splits a large batch into parts (to report
/// progress, to stop early) keeps each part's points close together, and so the batches fast,
/// by taking them in this order.
///
/// [`Scene::nearest_batch`]: crate::Scene::nearest_batch
/// [`Scene::within_batch`]: crate::Scene::within_batch
///
/// # Example
///
/// ```
/// use raysweep::batch_order;
/// use raysweep::nalgebra::Point2;
///
/// let points = [
///     Point2::new(9.0, 9.0),
///     Point2::new(0.0, 0.0),
///     Point2::new(9.0, 8.0),
///     Point2::new(0.0, 1.0),
/// ];
/// // The two points near the origin together, then the two near (9, 9).
/// assert_eq!(batch_order(&points), [1, 3, 2, 0]);
/// ```
pub fn batch_order<T: Real, const D: usize>(points: &[Point<T, D>]) -> Vec<usize> {
    let mut order = Vec::with_capacity(points.len());
    for (part, points) in points.chunks(PART).enumerate() {
        let first = part * PART;
        order.extend(Order::of(points).index.iter().map(|&i| first + i as usize));
    }
    order
}

/// A batch's points in curve order, cut into blocks.
pub(super) struct Order {
    /// The points' indices, in curve order: first those of the blocks, then those left out.
    pub(super) index: Vec<u32>,
    /// The blocks, as ranges of [`Order::index`].
    pub(super) blocks: Vec<Range<usize>>,
    /// The points left out of the blocks (a coordinate not finite in `f32`), a range of
    /// [`Order::index`].
    pub(super) apart: Range<usize>,
}

impl Order {
    /// The order of `points` (at most `u32::MAX` of them).
    pub(super) fn of<T: Real, const D: usize>(points: &[Point<T, D>]) -> Self {
        let rounded =
            |p: &Point<T, D>| -> [f32; D] { core::array::from_fn(|i| p[i].to_wide() as f32) };
        let mut low = [f32::INFINITY; D];
        let mut high = [f32::NEG_INFINITY; D];
        let mut finite = 0;
        for p in points {
            let q = rounded(p);
            if q.iter().all(|c| c.is_finite()) {
                finite += 1;
                for i in 0..D {
                    low[i] = low[i].min(q[i]);
                    high[i] = high[i].max(q[i]);
                }
            }
        }
        let bits = (63 / D.max(1)) as u32;
        let steps = (1u64 << bits) as f64;
        // Steps per unit on each axis (in `f64`, where the differences of `f32`s are exact).
        let scale: [f64; D] = core::array::from_fn(|i| {
            let extent = f64::from(high[i]) - f64::from(low[i]);
            if extent > 0.0 {
                (steps - 1.0) / extent
            } else {
                0.0
            }
        });
        let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(finite);
        let mut apart = Vec::new();
        for (index, p) in points.iter().enumerate() {
            let q = rounded(p);
            if !q.iter().all(|c| c.is_finite()) {
                apart.push(index as u32);
                continue;
            }
            let cells: [u64; D] = core::array::from_fn(|i| {
                // Within `0..steps` by the scale's choice; the cast saturates besides.
                ((f64::from(q[i]) - f64::from(low[i])) * scale[i]) as u64
            });
            keyed.push((interleave(&cells, bits), index as u32));
        }
        sort(&mut keyed);
        let blocks = cut(&keyed, bits * D as u32);
        let mut index: Vec<u32> = keyed.into_iter().map(|(_, i)| i).collect();
        let apart_range = index.len()..index.len() + apart.len();
        index.extend(apart);
        Order {
            index,
            blocks,
            apart: apart_range,
        }
    }

    /// `items` (one per point) in this order: those of the blocks, then those left out. A
    /// batch reads its points and writes its answers so, in one pass each, rather than in
    /// scattered order while it works.
    pub(super) fn arrange<P: Copy>(&self, items: &[P]) -> Vec<P> {
        self.index.iter().map(|&i| items[i as usize]).collect()
    }
}

/// Sorts `keyed` by key (least significant digit first, [`DIGIT`] bits at a time, the digits
/// that every key shares skipped; a comparison sort below a few thousand), so that the order
/// costs a few passes over the points rather than `log n` of them.
fn sort(keyed: &mut Vec<(u64, u32)>) {
    const RADIX: usize = 1 << DIGIT;
    const PASSES: usize = 64_usize.div_ceil(DIGIT as usize);
    if keyed.len() < 4096 {
        keyed.sort_unstable();
        return;
    }
    let digit = |key: u64, pass: usize| (key >> (pass as u32 * DIGIT)) as usize & (RADIX - 1);
    let mut counts = alloc::vec![[0usize; RADIX]; PASSES];
    for &(key, _) in keyed.iter() {
        for (pass, count) in counts.iter_mut().enumerate() {
            count[digit(key, pass)] += 1;
        }
    }
    let mut other = alloc::vec![(0u64, 0u32); keyed.len()];
    for (pass, count) in counts.iter_mut().enumerate() {
        if count.contains(&keyed.len()) {
            continue;
        }
        let mut at = 0;
        for slot in count.iter_mut() {
            (at, *slot) = (at + *slot, at);
        }
        for &entry in keyed.iter() {
            let slot = &mut count[digit(entry.0, pass)];
            other[*slot] = entry;
            *slot += 1;
        }
        core::mem::swap(keyed, &mut other);
    }
}

/// The bits of a key [`sort`] places at a time.
const DIGIT: u32 = 11;

/// The key of a point in cells `cells` (each below `2^bits`): bit `b` of axis `i` at position
/// `b·D + (D − 1 − i)`, so that the highest bits of all axes come first.
fn interleave<const D: usize>(cells: &[u64; D], bits: u32) -> u64 {
    if D == 3 {
        return spread3(cells[0]) << 2 | spread3(cells[1]) << 1 | spread3(cells[2]);
    }
    if D == 2 {
        return spread2(cells[0]) << 1 | spread2(cells[1]);
    }
    let mut key = 0;
    for b in (0..bits).rev() {
        for c in cells {
            key = key << 1 | (c >> b & 1);
        }
    }
    key
}

/// The 21 low bits of `x` spread to every third bit.
fn spread3(x: u64) -> u64 {
    let mut x = x & 0x1f_ffff;
    x = (x | x << 32) & 0x001f_0000_0000_ffff;
    x = (x | x << 16) & 0x001f_0000_ff00_00ff;
    x = (x | x << 8) & 0x100f_00f0_0f00_f00f;
    x = (x | x << 4) & 0x10c3_0c30_c30c_30c3;
    (x | x << 2) & 0x1249_2492_4924_9249
}

/// The 31 low bits of `x` spread to every second bit.
fn spread2(x: u64) -> u64 {
    let mut x = x & 0x7fff_ffff;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

/// The sorted keys cut into blocks: each block the points of one cell of the binary partition
/// (keys alike above some bit), the largest cells that hold at most [`BLOCK`] points, in order.
fn cut(keyed: &[(u64, u32)], bits: u32) -> Vec<Range<usize>> {
    let mut blocks = Vec::with_capacity(keyed.len() / (BLOCK / 2) + 1);
    // Cells yet to cut, the last to be cut first: a range whose keys agree above `bit`.
    let mut cells = alloc::vec![(0..keyed.len(), bits)];
    while let Some((range, bit)) = cells.pop() {
        if range.is_empty() {
            continue;
        }
        if range.len() <= BLOCK || bit == 0 {
            blocks.push(range);
            continue;
        }
        let below = bit - 1;
        let split =
            range.start + keyed[range.clone()].partition_point(|&(key, _)| key >> below & 1 == 0);
        cells.push((split..range.end, below));
        cells.push((range.start..split, below));
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Point3;

    #[test]
    fn spreading_matches_the_bit_by_bit_interleave() {
        for cells in [
            [0u64, 0, 0],
            [1, 2, 3],
            [0x1f_ffff, 0, 0x15_5555],
            [12345, 999_999, 7],
        ] {
            let mut key = 0;
            for b in (0..21).rev() {
                for c in cells {
                    key = key << 1 | (c >> b & 1);
                }
            }
            assert_eq!(interleave(&cells, 21), key);
        }
        for cells in [[0x7fff_ffffu64, 3], [0x1234_5678, 0x7654_3210]] {
            let mut key = 0;
            for b in (0..31).rev() {
                for c in cells {
                    key = key << 1 | (c >> b & 1);
                }
            }
            assert_eq!(interleave(&cells, 31), key);
        }
    }

    #[test]
    fn the_radix_sort_sorts() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (n, mask) in [
            (5000, u64::MAX),
            (10_000, 0xff),
            (6000, 0xffff_0000_0000),
            (4096, 0),
        ] {
            let mut keyed: Vec<(u64, u32)> = (0..n).map(|i| (next() & mask, i)).collect();
            let mut expected = keyed.clone();
            expected.sort_unstable();
            sort(&mut keyed);
            // Stable by construction: equal keys keep their indices' order.
            assert_eq!(keyed, expected);
        }
    }

    #[test]
    fn every_point_once_blocks_small_and_close() {
        let mut points: Vec<Point3<f64>> = (0..1000)
            .map(|i| Point3::new((i % 10) as f64, (i / 10 % 10) as f64, (i / 100) as f64))
            .collect();
        points.push(Point3::new(f64::NAN, 0.0, 0.0));
        points.push(Point3::new(1e300, 0.0, 0.0));
        let order = Order::of(&points);
        let mut seen = order.index.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..points.len() as u32).collect::<Vec<_>>());
        assert_eq!(order.apart.len(), 2);
        assert_eq!(order.blocks.iter().map(|b| b.len()).sum::<usize>(), 1000);
        for block in &order.blocks {
            assert!(block.len() <= BLOCK);
            // The cells halve the lattice's extent of 9 on each axis: a cell of at most 8 of its
            // points spans at most 9/4 on each axis, so 3 lattice positions.
            for a in &order.index[block.clone()] {
                for b in &order.index[block.clone()] {
                    let (p, q) = (points[*a as usize], points[*b as usize]);
                    assert!((p - q).amax() <= 2.0, "{p} and {q} in one block");
                }
            }
        }
    }
}
