//! The parts of every cast that do not depend on the shape: edge semantics, and rounding from the
//! working precision to the public width.

use nalgebra::{Point, SVector, Unit};

use crate::core::exact::{Products, two_sum};
use crate::core::lane::Lane;
use crate::core::quadratic::Offset;
use crate::core::unit::unit_and_length;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::{Real, narrow};

/// Where a line crosses a solid, in the working precision.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Crossing<E> {
    /// Distance to the entry (may be negative).
    pub(crate) enter: f64,
    /// Distance to the exit.
    pub(crate) exit: f64,
    /// Whether the origin lies in the closed solid, decided as [`crate::Shape::contains`] does.
    pub(crate) inside: bool,
    /// What the shape needs to build the contact at the entry.
    pub(crate) entry: E,
}

/// Where a query's line starts, as a shape reads it: the ray's own origin ([`AtRay`]), or that
/// origin plus a small vector held apart, exactly ([`Beyond`]: an instance's origin moved by its
/// offset, `src/scene/instance/`). A shape's code takes it as a type parameter, so that for the
/// ray's own origin it compiles to what it would be without it.
pub(crate) trait Origin<const D: usize>: Copy {
    /// The vector held apart from the ray's origin, if any.
    fn beyond(self) -> Option<SVector<f64, D>>;

    /// `f`, the exact offset of the ray's origin from a point, made that of the query's origin:
    /// the vector held apart added to its low part, renormalised. (The sum of the two low parts
    /// rounds, by at most `2^-53` of the low parts: as if `o − c` were formed in three times the
    /// working precision.)
    #[inline(always)]
    fn offset(self, f: Offset<D>) -> Offset<D> {
        match self.beyond() {
            None => f,
            Some(lo) => {
                let (hi, low) = (f.hi(), f.lo() + lo);
                let mut pair = (SVector::zeros(), SVector::zeros());
                for i in 0..D {
                    (pair.0[i], pair.1[i]) = two_sum(hi[i], low[i]);
                }
                Offset::new(pair.0, pair.1)
            }
        }
    }
}

/// The ray's own origin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AtRay;

impl<const D: usize> Origin<D> for AtRay {
    #[inline(always)]
    fn beyond(self) -> Option<SVector<f64, D>> {
        None
    }
}

/// The ray's origin plus this vector, exactly (the vector at most an ulp of the origin, as the
/// low part of a two-sum is).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Beyond<const D: usize>(pub(crate) SVector<f64, D>);

impl<const D: usize> Origin<D> for Beyond<D> {
    #[inline(always)]
    fn beyond(self) -> Option<SVector<f64, D>> {
        Some(self.0)
    }
}

/// A contact point and the outward unit normal there, if defined.
pub(crate) type Contact<const D: usize> = (SVector<f64, D>, Option<SVector<f64, D>>);

/// `v / |v|`, or `None` for a zero (or non-finite) `v`.
#[inline]
pub(crate) fn unit<const D: usize>(v: &SVector<f64, D>) -> Option<SVector<f64, D>> {
    unit_and_length(v).map(|(u, _)| u)
}

/// A shape's line query: the one thing each shape provides, on top of which [`cast_ray`] and
/// [`ray_span`] give the public semantics.
pub(crate) trait LineQuery<T: Real, const D: usize> {
    /// Shape-specific data about the entry.
    type Entry;

    /// Whether every entry point at a finite distance lies between bounds that are finite in the
    /// width (as a box's does), so that it is finite rounded: the batch then leaves out its test.
    const POINT_BOUNDED: bool = false;

    /// Whether every entry point at a finite distance is finite rounded to the width, so that a
    /// batch ([`cast_rays_by_four`](crate::batch::cast_rays_by_four)) leaves out its test of each point: where
    /// [`LineQuery::POINT_BOUNDED`], and otherwise where the shape's own bound says so. Decided
    /// once per batch; the single cast keeps its test, which then always passes.
    #[inline(always)]
    fn points_finite(&self) -> bool {
        Self::POINT_BOUNDED
    }

    /// Whether [`cast_rays_by_four`](crate::batch::cast_rays_by_four) writes a group of four contacts without the tests of each
    /// lane, as a separate path: a choice by what the shape's batch measured in each width
    /// (docs/performance.md), which leaves the hits the same.
    const PLAIN_GROUPS: bool = false;

    /// Where the whole line through `ray` crosses the solid; `None` if it misses. Any error-free
    /// products are formed by `products`, which the caller's code is compiled for, or by the
    /// shape's own choice where its query outweighs a call: the ellipsoid runs its crossing in a
    /// copy compiled for FMA ([`with_fused_products`](crate::fused::with_fused_products))
    /// whatever the caller's code. The line starts at `origin` ([`Origin`]).
    fn crossing<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        products: Products,
    ) -> Option<Crossing<Self::Entry>>;

    /// The entry point, and the outward unit normal there (`None` where it is undefined: a point
    /// target), in the working precision, for the line from `origin`.
    fn contact<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        crossing: &Crossing<Self::Entry>,
    ) -> Contact<D>;
}

/// A shape's swept-ball query: where a ball of positive radius, its centre on the line through a
/// ray, touches the solid, and where the contact is.
pub(crate) trait SweepQuery<T: Real, const D: usize> {
    /// Shape-specific data about the first contact.
    type Contact;

    /// Where the ball's centre, moving along the whole line through `ray`, first touches the solid
    /// and, if `with_exit`, where it last does (otherwise `exit` is `enter`); `inside` when it
    /// touches it at the origin. `None` if it never does. Any error-free products are formed as
    /// for [`LineQuery::crossing`]: the box's and the ellipsoid's sweeps choose their own. The
    /// line starts at `origin` ([`Origin`]).
    fn sweep<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        radius: f64,
        with_exit: bool,
        products: Products,
    ) -> Option<Crossing<Self::Contact>>;

    /// The contact point on the solid's surface at the first touch, and the outward unit normal
    /// there (`None` where it is undefined), in the working precision, for the line from
    /// `origin`.
    fn sweep_contact<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        radius: f64,
        crossing: &Crossing<Self::Contact>,
    ) -> Contact<D>;
}

/// The first contact within `[0, max_distance]`, with the public edge semantics: `None` for a NaN
/// or negative `max_distance`, a hit at the origin when the crossing starts inside.
#[inline(always)]
fn first_hit<T: Real, const D: usize, E>(
    ray: &Ray<T, D>,
    max_distance: T,
    point_bounded: bool,
    crossing: impl FnOnce() -> Option<Crossing<E>>,
    contact: impl FnOnce(&Crossing<E>) -> Contact<D>,
) -> Option<Hit<T, D>> {
    let max_distance = reach(max_distance)?;
    let x = crossing()?;
    let ahead = ahead(x.enter, max_distance);
    answer(
        ray,
        x.inside,
        ahead,
        x.enter,
        point_bounded,
        #[inline(always)]
        || contact(&x),
    )
}

/// `max_distance` in the working precision, at most [`finite_in_width`]; `None` for a NaN or
/// negative one, which no hit meets. So an entry within it is finite, which [`ahead`] then need
/// not test, and so is its distance rounded to the width, which [`hit`] then need not test either:
/// an entry beyond that bound, whose distance would round to infinity, is no hit, as it would be
/// for the test.
#[inline(always)]
pub(crate) fn reach<T: Real>(max_distance: T) -> Option<f64> {
    let max_distance = max_distance.to_wide();
    (max_distance >= 0.0).then_some(max_distance.min(finite_in_width::<T>()))
}

/// The largest `f64` that rounds to a finite value of the width `T`: `f64::MAX` for `f64`; for
/// `f32`, the `f64` just below the midpoint between `f32::MAX` and `2^128`, which rounds (to even)
/// to infinity.
#[inline(always)]
pub(crate) fn finite_in_width<T: Real>() -> f64 {
    if T::MAX_WIDE == f64::MAX {
        return f64::MAX;
    }
    // The largest value is `(2 − ε)·2^e`, and half its ulp `2^e·ε/2`.
    let half_ulp = T::MAX_WIDE / (2.0 - T::EPSILON_WIDE) * T::EPSILON_WIDE / 2.0;
    (T::MAX_WIDE + half_ulp).next_down()
}

/// The one precondition of the batch casts: as many hit slots as rays. `call` names the method
/// in the panic message.
#[inline]
#[track_caller]
pub(crate) fn assert_batch_lengths(call: &str, rays: usize, hits: usize) {
    assert_lengths("", call, (rays, "rays"), (hits, "hit slots"));
}

/// The one precondition of every batch (the crate's documentation, "Batches"): as many of the
/// second slice as of the first. Panics where they differ, naming the call (`kind::call`, or
/// `call` alone for an empty `kind`) and both slices: "Scene::nearest_batch: 2 points but 1
/// answer slots".
#[inline]
#[track_caller]
pub(crate) fn assert_lengths(kind: &str, call: &str, given: (usize, &str), slots: (usize, &str)) {
    if given.0 != slots.0 {
        lengths_differ(kind, call, given, slots);
    }
}

/// [`assert_lengths`]'s panic.
#[cold]
#[track_caller]
fn lengths_differ(kind: &str, call: &str, given: (usize, &str), slots: (usize, &str)) -> ! {
    let joint = if kind.is_empty() { "" } else { "::" };
    panic!(
        "{kind}{joint}{call}: {} {} but {} {}",
        given.0, given.1, slots.0, slots.1
    );
}

/// Whether an entry at `enter` lies within `[0, max_distance]`, in each lane; with a finite
/// `max_distance` (from [`reach`]) the entry is finite too. (A separate test `enter < ∞` would
/// cost more than a comparison: LLVM merges it with `0 ≤ enter` into a floating-point class
/// test, which x86 without AVX-512 evaluates lane by lane in about twenty integer instructions.)
#[inline(always)]
pub(crate) fn ahead<L: Lane>(enter: L, max_distance: L) -> L::Mask {
    L::splat(0.0).le(enter) & enter.le(max_distance)
}

/// The answer for a line that meets the solid with its entry at `enter`: a hit at the origin if
/// it starts `inside`, else the contact if the entry is `ahead`, else none.
#[inline(always)]
fn answer<T: Real, const D: usize>(
    ray: &Ray<T, D>,
    inside: bool,
    ahead: bool,
    enter: f64,
    point_bounded: bool,
    contact: impl FnOnce() -> Contact<D>,
) -> Option<Hit<T, D>> {
    if inside {
        return Some(start_inside(ray));
    }
    // Not inside at the origin, a crossing is either wholly ahead or wholly behind it.
    if !ahead {
        return None;
    }
    let (point, normal) = contact();
    hit(enter, &point, &normal, ray, point_bounded)
}

/// [`crate::Cast::cast_ray`] for any shape, its error-free products formed by `products`.
#[inline(always)]
pub(crate) fn cast_ray<T: Real, const D: usize, S: LineQuery<T, D>>(
    shape: &S,
    ray: &Ray<T, D>,
    max_distance: T,
    products: Products,
) -> Option<Hit<T, D>> {
    cast_ray_from(shape, ray, AtRay, max_distance, products)
}

/// [`cast_ray`] for the line from `origin` ([`Origin`]); a hit at distance 0 is at the ray's
/// origin.
#[inline(always)]
pub(crate) fn cast_ray_from<T: Real, const D: usize, S: LineQuery<T, D>, O: Origin<D>>(
    shape: &S,
    ray: &Ray<T, D>,
    origin: O,
    max_distance: T,
    products: Products,
) -> Option<Hit<T, D>> {
    first_hit(
        ray,
        max_distance,
        S::POINT_BOUNDED,
        #[inline(always)]
        || shape.crossing(ray, origin, products),
        #[inline(always)]
        |x| shape.contact(ray, origin, x),
    )
}

/// [`crate::Cast::ray_span`] for any shape, its error-free products formed by `products`.
#[inline]
pub(crate) fn ray_span<T: Real, const D: usize, S: LineQuery<T, D>>(
    shape: &S,
    ray: &Ray<T, D>,
    products: Products,
) -> Option<Span<T>> {
    ray_span_from(shape, ray, AtRay, products)
}

/// [`ray_span`] for the line from `origin` ([`Origin`]).
#[inline]
pub(crate) fn ray_span_from<T: Real, const D: usize, S: LineQuery<T, D>, O: Origin<D>>(
    shape: &S,
    ray: &Ray<T, D>,
    origin: O,
    products: Products,
) -> Option<Span<T>> {
    shape.crossing(ray, origin, products).and_then(|x| span(&x))
}

/// The outward unit normal where the whole line from `origin` ([`Origin`]) enters `shape`
/// (behind the origin too); `None` where the line misses or touches it only, or the normal is
/// undefined. A scene's next crossing asks it of the line, and of the line reversed for an exit.
#[inline]
pub(crate) fn entry_normal_from<T: Real, const D: usize, S: LineQuery<T, D>, O: Origin<D>>(
    shape: &S,
    ray: &Ray<T, D>,
    origin: O,
    products: Products,
) -> Option<SVector<f64, D>> {
    let crossing = shape.crossing(ray, origin, products)?;
    (crossing.enter < crossing.exit).then_some(())?;
    shape.contact(ray, origin, &crossing).1
}

/// [`crate::Cast::cast_sphere`] for any shape, its error-free products formed by `products`:
/// exactly [`cast_ray`] for a zero radius.
#[inline]
pub(crate) fn cast_sphere<T, const D: usize, S>(
    shape: &S,
    ray: &Ray<T, D>,
    radius: T,
    max_distance: T,
    products: Products,
) -> Option<Hit<T, D>>
where
    T: Real,
    S: LineQuery<T, D> + SweepQuery<T, D>,
{
    cast_sphere_from(shape, ray, AtRay, radius, max_distance, products)
}

/// [`cast_sphere`] for the line from `origin` ([`Origin`]).
#[inline]
pub(crate) fn cast_sphere_from<T, const D: usize, S, O>(
    shape: &S,
    ray: &Ray<T, D>,
    origin: O,
    radius: T,
    max_distance: T,
    products: Products,
) -> Option<Hit<T, D>>
where
    T: Real,
    S: LineQuery<T, D> + SweepQuery<T, D>,
    O: Origin<D>,
{
    match ball_radius(radius)? {
        0.0 => cast_ray_from(shape, ray, origin, max_distance, products),
        radius => first_hit(
            ray,
            max_distance,
            false,
            #[inline(always)]
            || shape.sweep(ray, origin, radius, false, products),
            #[inline(always)]
            |x| shape.sweep_contact(ray, origin, radius, x),
        ),
    }
}

/// [`cast_ray_from`] (`radius` `None`) or [`cast_sphere_from`] from the ray's origin plus `lo`,
/// held apart exactly ([`Beyond`]).
#[inline]
pub(crate) fn cast_beyond<T, const D: usize, S>(
    shape: &S,
    ray: &Ray<T, D>,
    lo: SVector<f64, D>,
    radius: Option<T>,
    max_distance: T,
    products: Products,
) -> Option<Hit<T, D>>
where
    T: Real,
    S: LineQuery<T, D> + SweepQuery<T, D>,
{
    match radius {
        None => cast_ray_from(shape, ray, Beyond(lo), max_distance, products),
        Some(r) => cast_sphere_from(shape, ray, Beyond(lo), r, max_distance, products),
    }
}

/// [`crate::Cast::sphere_span`] for any shape, its error-free products formed by `products`:
/// exactly [`ray_span`] for a zero radius.
#[inline]
pub(crate) fn sphere_span<T, const D: usize, S>(
    shape: &S,
    ray: &Ray<T, D>,
    radius: T,
    products: Products,
) -> Option<Span<T>>
where
    T: Real,
    S: LineQuery<T, D> + SweepQuery<T, D>,
{
    sphere_span_from(shape, ray, AtRay, radius, products)
}

/// [`sphere_span`] for the line from `origin` ([`Origin`]).
#[inline]
pub(crate) fn sphere_span_from<T, const D: usize, S, O>(
    shape: &S,
    ray: &Ray<T, D>,
    origin: O,
    radius: T,
    products: Products,
) -> Option<Span<T>>
where
    T: Real,
    S: LineQuery<T, D> + SweepQuery<T, D>,
    O: Origin<D>,
{
    match ball_radius(radius)? {
        0.0 => ray_span_from(shape, ray, origin, products),
        radius => shape
            .sweep(ray, origin, radius, true, products)
            .and_then(|x| span(&x)),
    }
}

/// A moving ball's radius in the working precision; `None` for a NaN, negative or infinite one.
/// Zero selects the ray path.
#[inline]
fn ball_radius<T: Real>(radius: T) -> Option<f64> {
    let radius = radius.to_wide();
    (radius >= 0.0 && radius.is_finite()).then_some(radius)
}

/// A crossing's distances rounded to the public width; `None` where one is not finite (inputs
/// near the limits of the width), so that no span carries an infinity or a NaN.
#[inline]
fn span<T: Real, E>(x: &Crossing<E>) -> Option<Span<T>> {
    let span = Span {
        enter: T::from_wide(x.enter),
        exit: T::from_wide(x.exit),
    };
    (span.enter.to_wide().is_finite() && span.exit.to_wide().is_finite()).then_some(span)
}

/// The hit of a cast that starts inside (or touching): distance 0, at the origin, normal `-dir`.
#[inline]
pub(crate) fn start_inside<T: Real, const D: usize>(ray: &Ray<T, D>) -> Hit<T, D> {
    Hit {
        distance: T::zero(),
        point: *ray.origin(),
        normal: -*ray.dir(),
    }
}

/// A hit rounded to the public width, with normal `-dir` where the contact has none; `None` if
/// the contact is not finite (an input near the limits of the width overflowed), so that no hit
/// carries an infinity or a NaN (a point that is not finite in `f64` is not finite rounded).
/// Where `point_bounded` ([`LineQuery::POINT_BOUNDED`]), the point lies between bounds that are
/// finite in the width and is not tested; the distance, an entry within reach, is finite rounded
/// ([`reach`]).
#[inline(always)]
fn hit<T: Real, const D: usize>(
    distance: f64,
    point: &SVector<f64, D>,
    normal: &Option<SVector<f64, D>>,
    ray: &Ray<T, D>,
    point_bounded: bool,
) -> Option<Hit<T, D>> {
    let normal = match normal {
        Some(unit) => Unit::new_unchecked(narrow(unit)),
        None => -*ray.dir(),
    };
    let hit = Hit {
        distance: T::from_wide(distance),
        point: Point::from(narrow(point)),
        normal,
    };
    let finite = |v: T| v.to_wide().is_finite();
    (point_bounded || hit.point.iter().all(|v| finite(*v))).then_some(hit)
}
