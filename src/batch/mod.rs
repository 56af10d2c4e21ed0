//! The batch casts ([`crate::Cast::cast_rays`]): the cores run on four rays at a time, in the
//! widest vector registers the CPU offers, with the single casts' bits.
//!
//! - [`lanes`]: the [`Four`] lanes a batch runs the cores on, and [`F64x4`](lanes::F64x4), the
//!   portable ones.
//! - `avx`: [`Four`] lanes in one AVX register (x86-64), for the batches compiled for AVX2 or
//!   AVX-512.
//! - [`dispatch`]: the registers the loop is compiled for, detected at run time, and the lanes
//!   that go with them.
//! - `transpose`: four rays read as lanes by vector loads (x86-64, for AVX-512).
//! - here: [`cast_rays_by_four`], the loop that every shape's batch runs, and the reading of four
//!   rays as lanes ([`stored_lanes`]).
//!
//! A shape provides its line query on four lanes ([`FourQuery`]); the loop gives every answer the
//! edge semantics of [`cast_ray`], so the hits are the bits that single casts return.

#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx;
pub(crate) mod dispatch;
pub(crate) mod lanes;
#[cfg(target_arch = "x86_64")]
mod transpose;

use nalgebra::{Point, SVector, Unit};

use crate::cast::{
    LineQuery, ahead, assert_batch_lengths, cast_ray, finite_in_width, reach, start_inside,
};
use crate::core::exact::Products;
use crate::core::lane::build;
use crate::hit::Hit;
use crate::ray::Ray;
use crate::real::Real;
use dispatch::{Job, Registers, with_vector_registers};
use lanes::{Four, FourMask};
#[cfg(target_arch = "x86_64")]
use transpose::ray_lanes;

/// What a shape's line query gives for four rays at once, lane by lane: in each lane it
/// answers, the bits that [`LineQuery::crossing`] and [`LineQuery::contact`] give for that ray.
pub(crate) struct FourEntries<V: Four, const D: usize> {
    /// The lanes answered here; the others are cast one by one.
    pub(crate) answered: V::Mask,
    /// Where the line meets the solid.
    pub(crate) meets: V::Mask,
    /// Where the origin lies in the closed solid.
    pub(crate) inside: V::Mask,
    /// The distance to the entry.
    pub(crate) enter: V,
    /// The entry point.
    pub(crate) point: [V; D],
    /// The outward unit normal there.
    pub(crate) normal: [V; D],
}

/// A shape's line query on four rays at once, for [`cast_rays_by_four`].
pub(crate) trait FourQuery<T: Real, const D: usize>: LineQuery<T, D> {
    /// The widest registers the shape's batch runs in: a choice by what its batch measured
    /// (docs/performance.md).
    const WIDEST: Registers;

    /// Whether the batch first sorts out the rays that [`FourQuery::four_misses`] finds, and
    /// runs [`FourQuery::four_entries`] on the others only: for a shape whose miss costs a
    /// fraction of its whole query.
    const FILTERS: bool = false;

    /// What the batch computes from the shape once, in lanes `V`.
    type Prepared<V: Four>;

    /// The shape's [`FourQuery::Prepared`] lanes, for the batch's `products`.
    fn prepare<V: Four>(&self, products: Products) -> Self::Prepared<V>;

    /// [`LineQuery::crossing`] and [`LineQuery::contact`] for four rays, lane by lane (see
    /// [`FourEntries`]), from the shape's `prepared` lanes (which hold the error-free products the
    /// batch forms), in code compiled for `registers`.
    fn four_entries<V: Four>(
        &self,
        prepared: &Self::Prepared<V>,
        rays: [&Ray<T, D>; 4],
        registers: Registers,
    ) -> FourEntries<V, D>;

    /// Lanes where the single cast certainly returns `None`, decided by the first steps of its
    /// own computation, so that it is the same decision; the other lanes may hit or miss. Where
    /// [`FourQuery::FILTERS`], the batch writes `None` for these and runs
    /// [`FourQuery::four_entries`] on the others.
    #[inline(always)]
    fn four_misses<V: Four>(
        &self,
        prepared: &Self::Prepared<V>,
        rays: [&Ray<T, D>; 4],
        registers: Registers,
    ) -> V::Mask {
        let _ = (prepared, rays, registers);
        V::Mask::splat(false)
    }
}

/// [`crate::Cast::cast_rays`] for a shape whose line query also runs on four rays at once
/// ([`FourQuery`]). The rays go through it four at a time, the lanes it does not answer and the
/// last few rays one by one through [`cast_ray`], and every answer gets the edge semantics of
/// [`cast_ray`], so the hits are the bits that single casts return. The groups run inside
/// [`with_vector_registers`], up to the shape's [`FourQuery::WIDEST`] registers, in the lanes and
/// with the [`Products`] that go with them (those a single cast of the shape must use too).
///
/// # Panics
///
/// If `rays` and `hits` differ in length.
#[inline]
pub(crate) fn cast_rays_by_four<T, const D: usize, S>(
    shape: &S,
    rays: &[Ray<T, D>],
    max_distance: T,
    hits: &mut [Option<Hit<T, D>>],
) where
    T: Real,
    S: FourQuery<T, D>,
{
    assert_batch_lengths("cast_rays", rays.len(), hits.len());
    let Some(max) = reach(max_distance) else {
        hits.fill(None);
        return;
    };
    let batch = Batch {
        shape,
        rays,
        hits,
        max_distance,
        max,
    };
    with_vector_registers(S::WIDEST, batch);
}

/// How many rays a filtering batch ([`FourQuery::FILTERS`]) sorts before it casts the ones left:
/// enough for their groups to run back to back, few enough for their rays and hits to stay in
/// the first-level cache.
const BLOCK: usize = 256;

/// A batch's rays and hits: the [`Job`] that [`cast_rays_by_four`] runs in the registers it
/// chooses.
struct Batch<'a, T: Real, const D: usize, S> {
    shape: &'a S,
    rays: &'a [Ray<T, D>],
    hits: &'a mut [Option<Hit<T, D>>],
    max_distance: T,
    /// `max_distance` in the working precision ([`reach`]).
    max: f64,
}

impl<T: Real, const D: usize, S: FourQuery<T, D>> Job for Batch<'_, T, D, S> {
    type Output = ();

    /// The rays in groups of four: all of them in order, or, where [`FourQuery::FILTERS`], the
    /// ones [`FourQuery::four_misses`] leaves.
    #[inline(always)]
    fn run<V: Four>(self, products: Products, registers: Registers) {
        let Batch {
            shape,
            rays,
            hits,
            max_distance,
            max,
        } = self;
        let groups = Groups {
            shape,
            prepared: shape.prepare::<V>(products),
            // Decided in here, where a constant answer (a box's, an `f64` sphere's) is seen as
            // one and folds the test away.
            points_finite: shape.points_finite(),
            max_distance,
            max,
            products,
            registers,
        };
        if S::FILTERS {
            groups.filtered(rays, hits);
        } else {
            groups.in_order(rays, hits);
        }
    }
}

/// What every group of a batch shares.
struct Groups<'a, T: Real, const D: usize, S: FourQuery<T, D>, V: Four> {
    shape: &'a S,
    prepared: S::Prepared<V>,
    points_finite: bool,
    max_distance: T,
    max: f64,
    products: Products,
    registers: Registers,
}

impl<T: Real, const D: usize, S: FourQuery<T, D>, V: Four> Groups<'_, T, D, S, V> {
    /// All of `rays` in groups of four, in order, and the last few alone.
    #[inline(always)]
    fn in_order(&self, rays: &[Ray<T, D>], hits: &mut [Option<Hit<T, D>>]) {
        let (fours, rest) = rays.as_chunks::<4>();
        let (slots, slots_rest) = hits.as_chunks_mut::<4>();
        self.run(
            fours.iter().zip(slots),
            |(four, _)| four.each_ref(),
            #[inline(always)]
            |(_, slots), four, x| self.write(four, slots.each_mut(), x),
        );
        for (ray, slot) in rest.iter().zip(slots_rest) {
            *slot = cast_one(self.shape, ray, self.max_distance, self.products);
        }
    }

    /// `None` for the rays that [`FourQuery::four_misses`] decides, and the others gathered by
    /// index, a [`BLOCK`] of rays at a time, in groups of four; the last few alone.
    #[inline(always)]
    fn filtered(&self, rays: &[Ray<T, D>], hits: &mut [Option<Hit<T, D>>]) {
        // The rays left by the filter, by index: each block's, and up to three carried over.
        let mut left = [0; BLOCK + 3];
        let mut count = 0;
        for (start, block) in rays.chunks(BLOCK).enumerate().map(|(b, r)| (b * BLOCK, r)) {
            let (fours, rest) = block.as_chunks::<4>();
            for (g, four) in fours.iter().enumerate() {
                let at = start + 4 * g;
                let misses =
                    self.shape
                        .four_misses(&self.prepared, four.each_ref(), self.registers);
                let misses = misses.bits();
                // Every index is written, and counted where the lane is left.
                for k in 0..4 {
                    hits[at + k] = None;
                    left[count] = at + k;
                    count += (misses >> k & 1 ^ 1) as usize;
                }
            }
            for k in 0..rest.len() {
                left[count] = start + 4 * fours.len() + k;
                count += 1;
            }
            let (full, carried) = left[..count].as_chunks::<4>();
            let carried = carried.len();
            self.run(
                full.iter().copied(),
                |at| at.map(|i| &rays[i]),
                #[inline(always)]
                |at, four, x| {
                    // The indices of a block's rays increase, so they are distinct.
                    let slots = hits.get_disjoint_mut(at).expect("distinct indices");
                    self.write(four, slots, x);
                },
            );
            left.copy_within(count - carried..count, 0);
            count = carried;
        }
        for &i in &left[..count] {
            hits[i] = cast_one(self.shape, &rays[i], self.max_distance, self.products);
        }
    }

    /// The hits of `groups` of four rays (`rays_of` gives a group's rays), written by `write`.
    ///
    /// Each group of four is computed before the previous group's hits are written, so that its
    /// chain of dependent operations (the quadratic's square root and divisions, the slab's
    /// division and selects) starts while the other's hits go out: the processor's reorder
    /// window, which holds about one group of instructions, then never waits on one chain alone.
    #[inline(always)]
    fn run<'r, G>(
        &self,
        mut groups: impl Iterator<Item = G>,
        rays_of: impl Fn(&G) -> [&'r Ray<T, D>; 4],
        mut write: impl FnMut(G, [&'r Ray<T, D>; 4], &FourEntries<V, D>),
    ) where
        T: 'r,
    {
        let Some(mut group) = groups.next() else {
            return;
        };
        let mut four = rays_of(&group);
        let mut x = self.entries(four);
        for next in groups {
            let next_four = rays_of(&next);
            let next_x = self.entries(next_four);
            write(group, four, &x);
            (group, four, x) = (next, next_four, next_x);
        }
        write(group, four, &x);
    }

    /// The line query of four rays on four lanes.
    #[inline(always)]
    fn entries(&self, four: [&Ray<T, D>; 4]) -> FourEntries<V, D> {
        (self.shape).four_entries(&self.prepared, four, self.registers)
    }

    /// The hits of four rays (`slots[k]` for `rays[k]`), from what their line query gave (`x`);
    /// a ray the lanes did not answer is cast alone. Where the shape's points are finite
    /// ([`LineQuery::points_finite`]), they are not tested.
    #[inline(always)]
    fn write(
        &self,
        rays: [&Ray<T, D>; 4],
        slots: [&mut Option<Hit<T, D>>; 4],
        x: &FourEntries<V, D>,
    ) {
        // Kept where the line meets the solid and starts inside, or enters ahead with a contact
        // that is finite in the width (as `answer` decides for one ray), in one mask: a point
        // whose coordinates are within `finite_in_width` rounds to a finite one. A distance
        // within reach is finite rounded ([`reach`]), so its own mask is not needed. (Plain
        // loops, not `map` or `fold`: everything on lanes must inline into the code compiled for
        // the batch's registers, `avx.rs`.)
        let mut finite = V::Mask::splat(true);
        let mut point = [[T::zero(); 4]; D];
        let mut normal = [[T::zero(); 4]; D];
        for i in 0..D {
            if !self.points_finite {
                let largest = V::splat(finite_in_width::<T>());
                finite = finite & x.point[i].abs().le(largest);
            }
            point[i] = x.point[i].narrow();
            normal[i] = x.normal[i].narrow();
        }
        let distance = x.enter.narrow::<T>();
        let contact = !x.inside & ahead(x.enter, V::splat(self.max)) & finite;
        let keep = (x.meets & (x.inside | contact)).bits();
        let (answered, inside) = (x.answered.bits(), x.inside.bits());
        let lane = |bits: u32, k: usize| bits >> k & 1 != 0;
        // Each answered lane's hit is written straight into its slot: built elsewhere and copied,
        // its copy's wide loads of narrower stores would stall store forwarding. Where
        // [`LineQuery::PLAIN_GROUPS`], a group whose lanes are all contacts skips the tests of
        // each lane: the compiler then keeps the narrowed lanes in registers on that path, and
        // spills them only on the path that calls `cast_one`.
        let plain = S::PLAIN_GROUPS && answered & !inside & 0b1111 == 0b1111;
        for k in 0..4 {
            let (ray, slot) = (rays[k], &mut *slots[k]);
            if plain || (lane(answered, k) && !lane(inside, k)) {
                let hit = Hit {
                    distance: distance[k],
                    point: Point::from(SVector::from_fn(|i, _| point[i][k])),
                    normal: Unit::new_unchecked(SVector::from_fn(|i, _| normal[i][k])),
                };
                // Whether a ray hits is as good as random, so a branch on it would mispredict
                // half the time: the hit is written, then `None` goes to the slot or to a spare,
                // whichever `select_unpredictable` picks. (The compiler may still make that a
                // conditional store; docs/performance.md has what that costs on the benchmark.)
                *slot = Some(hit);
                let mut spare = None;
                *core::hint::select_unpredictable(lane(keep, k), &mut spare, slot) = None;
            } else if !lane(answered, k) {
                *slot = cast_one(self.shape, ray, self.max_distance, self.products);
            } else {
                *slot = Some(start_inside(ray)).filter(|_| lane(keep, k));
            }
        }
    }
}

/// [`cast_ray`] for a ray of a batch that the lanes leave: out of line, so that the batch loop
/// does not carry a copy of the single cast per lane. (Compiled without the target features of
/// [`with_vector_registers`], its [`Products::Fused`] are calls to the math library's `fma`: these
/// rays are few.)
#[inline(never)]
fn cast_one<T: Real, const D: usize, S: LineQuery<T, D>>(
    shape: &S,
    ray: &Ray<T, D>,
    max_distance: T,
    products: Products,
) -> Option<Hit<T, D>> {
    cast_ray(shape, ray, max_distance, products)
}

/// The origins and stored directions ([`Ray::stored_dir`]) of four rays, as lanes, for a batch
/// loop compiled for `registers`. With AVX2 or AVX-512 the rays are read with vector loads
/// ([`ray_lanes`]): built of scalar loads, the lanes took more instructions, and with AVX-512 the
/// compiler makes gather instructions of them, which are slow on AMD's Zen 4 and 5. The base
/// registers keep the scalar loads.
#[inline(always)]
pub(crate) fn stored_lanes<V: Four, T: Real, const D: usize>(
    rays: [&Ray<T, D>; 4],
    registers: Registers,
) -> ([V; D], [V; D]) {
    #[cfg(target_arch = "x86_64")]
    if registers != Registers::Base {
        return ray_lanes(rays);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = registers;
    (
        lanes_of(rays, |ray, i| ray.origin()[i]),
        lanes_of(rays, |ray, i| ray.dir()[i]),
    )
}

/// Component `i` of `value(rays[k])` in lane `k` of vector component `i`, from scalar loads.
#[inline(always)]
fn lanes_of<V: Four, T: Real, const D: usize>(
    rays: [&Ray<T, D>; 4],
    value: impl Fn(&Ray<T, D>, usize) -> T,
) -> [V; D] {
    let lane = |k: usize, i: usize| value(rays[k], i).to_wide();
    build(|i| V::from_array([lane(0, i), lane(1, i), lane(2, i), lane(3, i)]))
}
