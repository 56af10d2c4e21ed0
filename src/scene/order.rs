//! The order in which the proximity batches (`src/scene/bulk.rs`) visit their points: along a
//! space-filling curve (Morton's Z order), cut into blocks of a few points that lie close
//! together, so that the points of a block share the bodies that can answer them and each block
//! starts next to the one before. The ray batches (`src/scene/ray_batch.rs`) trace their rays in
//! the same order of their origins, on a coarser grid.
//!
//! A point's key interleaves the bits of its coordinates' positions on a grid of `2^(63 / D)`
//! steps per axis (the proximity batches'; the ray batches' `2^(30 / D)`) over the box of the
//! batch's points (Morton, "A computer oriented geodetic data base and a new technique in file
//! sequencing", IBM, 1966). Sorted by key, the points of each
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
        order.extend(
            Order::of(points, |p| p, FINEST, false)
                .index
                .iter()
                .map(|&i| first + i as usize),
        );
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
    /// The order of `items` (at most `u32::MAX` of them) by their points `at` gives (the points
    /// themselves, or rays' origins), on a grid of `2^(key_bits / D)` steps per axis (at most
    /// [`FINEST`] bits in all), worked out on rayon's threads where `parallel` (and the feature
    /// is on): the same order either way. A coarser grid sorts in fewer passes.
    pub(super) fn of<P: Sync, T: Real, const D: usize>(
        items: &[P],
        at: impl Fn(&P) -> &Point<T, D> + Sync,
        key_bits: u32,
        parallel: bool,
    ) -> Self {
        let rounded = |p: &P| -> [f32; D] {
            let p = at(p);
            core::array::from_fn(|i| p[i].to_wide() as f32)
        };
        let chunks: Vec<&[P]> = items.chunks(CHUNK).collect();
        let boxes = map_each(chunks.clone(), parallel, |chunk| {
            let mut low = [f32::INFINITY; D];
            let mut high = [f32::NEG_INFINITY; D];
            for q in chunk.iter().map(rounded) {
                if q.iter().all(|c| c.is_finite()) {
                    for i in 0..D {
                        low[i] = low[i].min(q[i]);
                        high[i] = high[i].max(q[i]);
                    }
                }
            }
            (low, high)
        });
        let mut low = [f32::INFINITY; D];
        let mut high = [f32::NEG_INFINITY; D];
        for (l, h) in boxes {
            for i in 0..D {
                low[i] = low[i].min(l[i]);
                high[i] = high[i].max(h[i]);
            }
        }
        let bits = key_bits.min(FINEST) / D.max(1) as u32;
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
        let keys = map_each(
            chunks.into_iter().enumerate().collect(),
            parallel,
            |(number, chunk)| -> Vec<(u64, u32)> {
                let first = number * CHUNK;
                chunk
                    .iter()
                    .enumerate()
                    .map(|(k, p)| {
                        let q = rounded(p);
                        // Above every finite point's key, which has at most 63 bits.
                        let mut key = APART;
                        if q.iter().all(|c| c.is_finite()) {
                            let cells: [u64; D] = core::array::from_fn(|i| {
                                // Within `0..steps` by the scale's choice; the cast saturates
                                // besides.
                                ((f64::from(q[i]) - f64::from(low[i])) * scale[i]) as u64
                            });
                            key = interleave(&cells, bits);
                        }
                        (key, (first + k) as u32)
                    })
                    .collect()
            },
        );
        let mut keyed: Vec<(u64, u32)> = keys.concat();
        sort(&mut keyed, parallel);
        let finite = keyed.partition_point(|&(key, _)| key != APART);
        let blocks = cut(&keyed[..finite], bits * D as u32);
        let index = keyed.into_iter().map(|(_, i)| i).collect();
        Order {
            index,
            blocks,
            apart: finite..items.len(),
        }
    }

    /// `items` (one per point) in this order: those of the blocks, then those left out. A
    /// batch reads its points and writes its answers so, in one pass each, rather than in
    /// scattered order while it works.
    pub(super) fn arrange<P: Copy>(&self, items: &[P]) -> Vec<P> {
        self.index.iter().map(|&i| items[i as usize]).collect()
    }
}

/// The most bits of a key: the proximity batches' grid, `2^(63 / D)` steps per axis.
pub(super) const FINEST: u32 = 63;

/// The key of the points left out of the blocks: above every other, which has at most
/// [`FINEST`] bits.
const APART: u64 = u64::MAX;

/// The points a thread takes at a time.
const CHUNK: usize = 1 << 14;

/// `f` on each of `items`, on rayon's threads where `parallel` and the feature is on, else in
/// turn; the results in the items' order.
pub(super) fn map_each<I: Send, R: Send>(
    items: Vec<I>,
    parallel: bool,
    f: impl Fn(I) -> R + Sync + Send,
) -> Vec<R> {
    #[cfg(feature = "rayon")]
    if parallel {
        use rayon::prelude::*;
        return items.into_par_iter().map(f).collect();
    }
    let _ = parallel;
    items.into_iter().map(f).collect()
}

/// Sorts `keyed` by key, and equal keys by index (which they are in at first): first into
/// [`BUCKETS`] buckets by the highest bits in which the keys differ, chunk by chunk, then each
/// bucket by itself (a least-significant-digit radix sort, [`DIGIT`] bits a pass, the digits
/// every key of the bucket shares skipped), so that the buckets' passes stay in cache and
/// threads share the work.
fn sort(keyed: &mut Vec<(u64, u32)>, parallel: bool) {
    if keyed.len() < SMALL {
        keyed.sort_unstable();
        return;
    }
    let (least, most) = keyed
        .iter()
        .filter(|&&(key, _)| key != APART)
        .fold((u64::MAX, 0), |(l, m), &(key, _)| (l.min(key), m.max(key)));
    let differ = if least > most { 0 } else { least ^ most };
    // The keys agree above bit `shift + log2(BUCKETS)`; bucket by the bits below that.
    let top = u64::BITS - differ.leading_zeros();
    let shift = top.saturating_sub(BUCKETS.trailing_zeros());
    // The last bucket holds the points left out.
    let bucket = |key: u64| {
        if key == APART {
            BUCKETS
        } else {
            (key >> shift) as usize & (BUCKETS - 1)
        }
    };
    let counts = map_each(keyed.chunks(CHUNK).collect(), parallel, |chunk| {
        let mut count = [0usize; BUCKETS + 1];
        chunk.iter().for_each(|&(key, _)| count[bucket(key)] += 1);
        count
    });
    let totals: Vec<usize> = (0..=BUCKETS)
        .map(|b| counts.iter().map(|count| count[b]).sum())
        .collect();
    // Each chunk's share of each bucket, in the order of the chunks (so equal keys keep the
    // order of their indices).
    let mut sorted = alloc::vec![(0u64, 0u32); keyed.len()];
    let mut shares: Vec<Vec<&mut [(u64, u32)]>> = counts.iter().map(|_| Vec::new()).collect();
    let mut rest = &mut sorted[..];
    for (b, &total) in totals.iter().enumerate() {
        let (mut whole, tail) = core::mem::take(&mut rest).split_at_mut(total);
        rest = tail;
        for (count, share) in counts.iter().zip(&mut shares) {
            let (piece, tail) = core::mem::take(&mut whole).split_at_mut(count[b]);
            share.push(piece);
            whole = tail;
        }
    }
    let work: Vec<_> = keyed.chunks(CHUNK).zip(shares).collect();
    map_each(work, parallel, |(chunk, mut share)| {
        let mut at = [0usize; BUCKETS + 1];
        for &entry in chunk {
            let b = bucket(entry.0);
            share[b][at[b]] = entry;
            at[b] += 1;
        }
    });
    // Each bucket sorted by itself, with its part of `keyed` as scratch; the last (the points
    // left out, all of one key) is in order already.
    let mut work = Vec::with_capacity(BUCKETS);
    let (mut rest, mut spare) = (&mut sorted[..], &mut keyed[..]);
    for &total in &totals[..BUCKETS] {
        let (bucket, tail) = core::mem::take(&mut rest).split_at_mut(total);
        let (other, tail_spare) = core::mem::take(&mut spare).split_at_mut(total);
        (rest, spare) = (tail, tail_spare);
        work.push((bucket, other));
    }
    map_each(work, parallel, |(bucket, other)| {
        sort_bucket(bucket, other, shift)
    });
    *keyed = sorted;
}

/// Sorts `bucket`, whose keys agree above bit `bits`, with `other` (as long) as scratch: by key
/// and index (a comparison sort for few keys, else a radix sort of the keys' `bits` low bits,
/// which keeps equal keys in the order of their indices, in which they come).
fn sort_bucket<'a>(bucket: &'a mut [(u64, u32)], other: &'a mut [(u64, u32)], bits: u32) {
    const RADIX: usize = 1 << DIGIT;
    if bucket.len() < SMALL {
        bucket.sort_unstable();
        return;
    }
    let passes = bits.div_ceil(DIGIT) as usize;
    let digit = |key: u64, pass: usize| (key >> (pass as u32 * DIGIT)) as usize & (RADIX - 1);
    let mut counts = alloc::vec![[0usize; RADIX]; passes];
    for &(key, _) in bucket.iter() {
        for (pass, count) in counts.iter_mut().enumerate() {
            count[digit(key, pass)] += 1;
        }
    }
    let (mut from, mut to) = (bucket, other);
    let mut swapped = false;
    for (pass, count) in counts.iter_mut().enumerate() {
        if count.contains(&from.len()) {
            continue;
        }
        let mut at = 0;
        for slot in count.iter_mut() {
            (at, *slot) = (at + *slot, at);
        }
        for &entry in from.iter() {
            let slot = &mut count[digit(entry.0, pass)];
            to[*slot] = entry;
            *slot += 1;
        }
        core::mem::swap(&mut from, &mut to);
        swapped = !swapped;
    }
    // After an odd number of passes the sorted keys are in the scratch.
    if swapped {
        to.copy_from_slice(from);
    }
}

/// Buckets of [`sort`]: a power of two.
const BUCKETS: usize = 256;

/// Fewer keys than this are sorted by comparison.
const SMALL: usize = 1024;

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
            // Buckets large enough for the radix passes, chunks for several threads.
            (300_000, u64::MAX >> 1),
            (100_000, 0x7f_ffff),
            (50_000, APART),
        ] {
            // A seventh of the keys those of points left out, whatever the mask.
            let keyed: Vec<(u64, u32)> = (0..n)
                .map(|i| (if i % 7 == 3 { APART } else { next() & mask }, i))
                .collect();
            let mut expected = keyed.clone();
            expected.sort_unstable();
            for parallel in [false, true] {
                let mut sorted = keyed.clone();
                sort(&mut sorted, parallel);
                // Equal keys keep their indices' order.
                assert_eq!(sorted, expected);
            }
        }
    }

    #[test]
    fn every_point_once_blocks_small_and_close() {
        let mut points: Vec<Point3<f64>> = (0..1000)
            .map(|i| Point3::new((i % 10) as f64, (i / 10 % 10) as f64, (i / 100) as f64))
            .collect();
        points.push(Point3::new(f64::NAN, 0.0, 0.0));
        points.push(Point3::new(1e300, 0.0, 0.0));
        let order = Order::of(&points, |p| p, FINEST, false);
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
