//! The batch casts ([`crate::Cast::cast_rays`]): the cores run on four rays at a time, in the
//! widest vector registers the CPU offers, with the single casts' bits.
//!
//! - [`lanes`]: [`F64x4`](lanes::F64x4), four rays side by side, the lane type the cores run on.
//! - [`dispatch`]: the vector registers the loop is compiled for, detected at run time.
//! - `transpose`: four rays read as lanes by vector loads (x86-64, for AVX-512).
//! - here: [`cast_rays_by_four`], the loop that every shape's batch runs, and the reading of
//!   four rays as lanes ([`stored_lanes`]).
//!
//! A shape provides its line query on four lanes ([`FourEntries`]); the loop gives every answer
//! the edge semantics of [`cast_ray`], so the hits are the bits that single casts return.

pub(crate) mod dispatch;
pub(crate) mod lanes;
#[cfg(target_arch = "x86_64")]
mod transpose;

use nalgebra::{Point, SVector, Unit};

use crate::cast::{LineQuery, ahead, assert_batch_lengths, cast_ray, reach, start_inside};
use crate::core::exact::Products;
use crate::core::lane::{Lane, Mask};
use crate::hit::Hit;
use crate::ray::Ray;
use crate::real::{Real, widen};
use dispatch::{Registers, with_wide_registers};
use lanes::{F64x4, M64x4, gather};
#[cfg(target_arch = "x86_64")]
use transpose::ray_lanes;

/// What a shape's line query gives for four rays at once, lane by lane: in each lane it
/// answers, the bits that [`LineQuery::crossing`] and [`LineQuery::contact`] give for that ray.
pub(crate) struct FourEntries<const D: usize> {
    /// The lanes answered here; the others are cast one by one.
    pub(crate) answered: M64x4,
    /// Where the line meets the solid.
    pub(crate) meets: M64x4,
    /// Where the origin lies in the closed solid.
    pub(crate) inside: M64x4,
    /// The distance to the entry.
    pub(crate) enter: F64x4,
    /// The entry point.
    pub(crate) point: [F64x4; D],
    /// The outward unit normal there.
    pub(crate) normal: [F64x4; D],
}

/// [`crate::Cast::cast_rays`] for a shape whose line query also runs on four rays at once
/// (`four`, see [`FourEntries`]). The rays go through `four` four at a time, the lanes it does
/// not answer and the last few rays one by one through [`cast_ray`], and every answer gets the
/// edge semantics of [`cast_ray`], so the hits are the bits that single casts return. All of it
/// runs inside [`with_wide_registers`], up to the registers `widest` (the shape's choice, by what
/// its batch measured), whose [`Products`] `four` and [`cast_ray`] are given (those a single
/// cast of the shape must use too), and so are the [`Registers`] the loop is compiled for.
/// Where [`LineQuery::PLAIN_GROUPS`], a group of four contacts is written without testing each
/// lane for the other answers; the hits are the same either way.
///
/// Each group of four is computed before the previous group's hits are written, so that its
/// chain of dependent operations (the quadratic's square root and divisions, the slab's
/// division and selects) starts while the other's hits go out: the processor's reorder window,
/// which holds about one group of instructions, then never waits on one chain alone. With
/// sixteen vector registers, two groups' answers take more than there are, so some go to the
/// stack.
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
    widest: Registers,
    four: impl Fn(&[Ray<T, D>; 4], Products, Registers) -> FourEntries<D>,
) where
    T: Real,
    S: LineQuery<T, D>,
{
    assert_batch_lengths("cast_rays", rays.len(), hits.len());
    let Some(max) = reach(max_distance) else {
        hits.fill(None);
        return;
    };
    let (ray_fours, ray_rest) = rays.as_chunks::<4>();
    let (hit_fours, hit_rest) = hits.as_chunks_mut::<4>();
    let products = with_wide_registers(
        widest,
        #[inline(always)]
        |products, registers| {
            // Decided in here, where a constant answer (a box's, an `f64` sphere's) is seen as
            // one and folds the test away.
            let points_finite = shape.points_finite();
            let mut groups = ray_fours.iter().zip(hit_fours);
            if let Some((mut rays, mut hits)) = groups.next() {
                let mut x = four(rays, products, registers);
                for (next_rays, next_hits) in groups {
                    let next = four(next_rays, products, registers);
                    by_four(
                        shape,
                        rays,
                        max_distance,
                        max,
                        hits,
                        &x,
                        points_finite,
                        products,
                    );
                    (rays, hits, x) = (next_rays, next_hits, next);
                }
                by_four(
                    shape,
                    rays,
                    max_distance,
                    max,
                    hits,
                    &x,
                    points_finite,
                    products,
                );
            }
            products
        },
    );
    for (ray, hit) in ray_rest.iter().zip(hit_rest) {
        *hit = cast_one(shape, ray, max_distance, products);
    }
}

/// [`cast_ray`] for a ray of a batch that the lanes leave: out of line, so that the batch loop
/// does not carry a copy of the single cast per lane. (Compiled without the target features of
/// [`with_wide_registers`], its [`Products::Fused`] are calls to the math library's `fma`: these
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

/// One step of [`cast_rays_by_four`]: the hits of four rays, from what their line query gave (`x`);
/// a ray the lanes did not answer is cast alone, with the batch's `products`. Where
/// `points_finite` ([`LineQuery::points_finite`]), the points are not tested.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn by_four<T, const D: usize, S>(
    shape: &S,
    rays: &[Ray<T, D>; 4],
    max_distance: T,
    max: f64,
    hits: &mut [Option<Hit<T, D>>; 4],
    x: &FourEntries<D>,
    points_finite: bool,
    products: Products,
) where
    T: Real,
    S: LineQuery<T, D>,
{
    // Kept where the line meets the solid and starts inside, or enters ahead with a contact that
    // is finite in the width (as `answer` decides for one ray), in one mask. A distance within
    // reach is finite rounded ([`reach`]), so its own mask is not needed.
    let (distance, _) = narrow_lanes::<T>(x.enter);
    let point = x.point.map(narrow_lanes::<T>);
    let normal = x.normal.map(narrow_lanes::<T>);
    let finite = if points_finite {
        M64x4::splat(true)
    } else {
        point.iter().fold(M64x4::splat(true), |all, p| all & p.1)
    };
    let contact = !x.inside & ahead(x.enter, F64x4::splat(max)) & finite;
    let keep = x.meets & (x.inside | contact);
    // Each answered lane's hit is written straight into its slot: built elsewhere and copied, its
    // copy's wide loads of narrower stores would stall store forwarding. Where
    // [`LineQuery::PLAIN_GROUPS`], a group whose lanes are all contacts skips the tests of each
    // lane: the compiler then keeps the narrowed lanes in registers on that path, and spills them
    // only on the path that calls `cast_one`.
    let plain = S::PLAIN_GROUPS && (x.answered & !x.inside).all();
    for (k, (ray, slot)) in rays.iter().zip(hits).enumerate() {
        if plain || (x.answered.lane(k) && !x.inside.lane(k)) {
            let hit = Hit {
                distance: distance[k],
                point: Point::from(SVector::from_fn(|i, _| point[i].0[k])),
                normal: Unit::new_unchecked(SVector::from_fn(|i, _| normal[i].0[k])),
            };
            // Whether a ray hits is as good as random, so a branch on it would mispredict half
            // the time: the hit is written, then `None` goes to the slot or to a spare, whichever
            // `select_unpredictable` picks. (The compiler may still make that a conditional
            // store; docs/performance.md has what that costs on the benchmark.)
            *slot = Some(hit);
            let mut spare = None;
            *core::hint::select_unpredictable(keep.lane(k), &mut spare, slot) = None;
        } else if !x.answered.lane(k) {
            *slot = cast_one(shape, ray, max_distance, products);
        } else {
            *slot = Some(start_inside(ray)).filter(|_| keep.lane(k));
        }
    }
}

/// Four lanes rounded to the width `T`, and where the rounded values are finite.
#[inline(always)]
fn narrow_lanes<T: Real>(v: F64x4) -> ([T; 4], M64x4) {
    let narrow = v.0.map(T::from_wide);
    let finite = F64x4(narrow.map(T::to_wide))
        .abs()
        .lt(F64x4::splat(f64::INFINITY));
    (narrow, finite)
}

/// The origins and stored directions ([`Ray::stored_dir`]) of four rays, as lanes, for a batch
/// loop compiled for `registers`. With AVX-512 the rays are read with vector loads
/// ([`ray_lanes`]): from lanes built of scalar loads, the compiler makes gather instructions
/// there, which are slow on AMD's Zen 4 and 5. With the other registers it keeps the scalar
/// loads, which cost the `f64` box batch less than the vector loads (docs/performance.md, "AVX-512
/// for the sphere's batch").
#[inline(always)]
pub(crate) fn stored_lanes<T: Real, const D: usize>(
    rays: &[Ray<T, D>; 4],
    registers: Registers,
) -> ([F64x4; D], [F64x4; D]) {
    #[cfg(target_arch = "x86_64")]
    if registers == Registers::Avx512 {
        return ray_lanes(rays);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = registers;
    (
        gather(&rays.each_ref().map(|ray| widen(&ray.origin().coords))),
        gather(&rays.each_ref().map(|ray| ray.stored_dir())),
    )
}
