//! A query's origin (or point) moved exactly by an offset, and a scene asked from there: how
//! instances and periodic images are both answered as if every body had been translated in
//! exact arithmetic.
//!
//! A body translated by `v` meets the line `o + t·n` where the body itself meets the line
//! `(o − v) + t·n`, at the same `t`: the query is the scene's query from the moved origin
//! `o − v`, and only that subtraction can round. The offset is given on each axis as an exact
//! pair of `f64`s ([`Offset::pair`]: an instance's offset widened, a lattice vector as its
//! error-free product), and [`Moved::of`] forms `o − v` with Knuth's two-sum as the pair
//! `hi + lo` (the second sum's rounding, of the two low parts, is far below the single casts'
//! targets):
//!
//! - where `o − v` is a value of the width (`lo == 0` and `hi` a value of the width), the scene
//!   is asked with the ray moved there, and its answer (distance, span, normal, body) is the
//!   untranslated body's own, bit for bit; the hit's point is that answer's point plus `v`,
//!   rounded once ([`Offset::place`]).
//! - otherwise raysweep's shapes answer in `f64` (`Cast::moved_cast` and its kin: an `f32`
//!   shape widened exactly) from `hi`, with `lo` carried into the cores as an origin held apart
//!   (`crate::cast::Beyond`), each answer within the single casts' precision targets, rounded
//!   once to the width. A user's shape is asked from the origin rounded to its width. The scene
//!   is traversed from the rounded origin with its probe grown, as for a sphere cast, by the
//!   distance between the rounded and the exact origin on any axis: the probe of a ball of that
//!   radius around the rounded line holds the exact line.
//!
//! Point queries go the same way: `containing` through `Cast::moved_contains`, and `within` and
//! `nearest` through [`PointQuery::moved_distance`] and its kin, the scene's descent bounded at
//! the moved point as at any point (the bound's margin covers `lo`,
//! `src/scene/lower_bound.rs`).

use nalgebra::{Point, SVector, Unit};

use super::answer::BodyNearest;
use super::asked::Asked;
use super::crossing::{crossing_at, next_end};
use super::lower_bound::LowerBound;
use super::plain::Scene;
use super::probe::{self, F64Probe, on_line};
use crate::core::exact::two_sum;
use crate::hit::{Crossing, Hit, Span};
use crate::point::PointQuery;
use crate::ray::Ray;
use crate::real::{Real, narrow, widen};
use crate::traits::{Cast, Sealed};

/// A translation `v`, exact on each axis as a pair of `f64`s.
pub(crate) trait Offset<T: Real, const D: usize> {
    /// `v` on `axis` as `(hi, lo)`, `hi + lo` exactly.
    fn pair(&self, axis: usize) -> (f64, f64);

    /// `p + v`, a point of the untranslated bodies placed among the translated ones, in the
    /// width.
    fn place(&self, p: &Point<T, D>) -> Point<T, D>;

    /// `p + v` for a point found in `f64`, rounded to the width.
    fn place_wide(&self, p: &Point<f64, D>) -> Point<T, D>;
}

/// An instance's offset: exact in `f64` as it is.
impl<T: Real, const D: usize> Offset<T, D> for SVector<T, D> {
    fn pair(&self, axis: usize) -> (f64, f64) {
        (self[axis].to_wide(), 0.0)
    }

    fn place(&self, p: &Point<T, D>) -> Point<T, D> {
        p + self
    }

    fn place_wide(&self, p: &Point<f64, D>) -> Point<T, D> {
        Point::from(narrow(&(p.coords + widen(self))))
    }
}

/// A query's origin `o` moved to `o − v`.
enum Moved<T: Real, const D: usize> {
    /// `o − v` is a value of the width: the ray (or point) moved there.
    Exact(Point<T, D>),
    /// It is not: `origin`, the moved origin rounded to the width; `o − v` exactly as
    /// `wide + lo` in `f64`; and `apart`, at least the distance on any axis from `origin` to it.
    Rounded {
        origin: Point<T, D>,
        wide: Point<f64, D>,
        lo: SVector<f64, D>,
        apart: f64,
    },
}

impl<T: Real, const D: usize> Moved<T, D> {
    /// `o − v` by two-sums on each axis, in `f64`; `None` where it lies beyond the width's range
    /// (no translated body is then within it of `o`).
    fn of(o: &Point<T, D>, v: &impl Offset<T, D>) -> Option<Self> {
        let mut exact = true;
        let mut apart = 0.0f64;
        let mut origin = *o;
        let mut wide = Point::<f64, D>::origin();
        let mut lo = SVector::<f64, D>::zeros();
        for i in 0..D {
            let (h, l) = v.pair(i);
            let (mut hi, mut err) = two_sum(o[i].to_wide(), -h);
            if l != 0.0 {
                (hi, err) = two_sum(hi, err - l);
            }
            let rounded = T::from_wide(hi);
            if !rounded.to_wide().is_finite() {
                return None;
            }
            exact &= err == 0.0 && rounded.to_wide() == hi;
            apart = apart.max((rounded.to_wide() - hi).abs() + err.abs());
            origin[i] = rounded;
            wide[i] = hi;
            lo[i] = err;
        }
        Some(if exact {
            Moved::Exact(origin)
        } else {
            Moved::Rounded {
                origin,
                wide,
                lo,
                // Rounded up, with room for the roundings of the sum.
                apart: apart * (1.0 + f64::EPSILON * 4.0),
            }
        })
    }

    /// The moved origin rounded to the width, how far apart from the exact one it may be, and,
    /// where it is not exact, the exact one as `wide + lo`.
    #[allow(clippy::type_complexity)]
    fn parts(self) -> (Point<T, D>, f64, Option<(Point<f64, D>, SVector<f64, D>)>) {
        match self {
            Moved::Exact(origin) => (origin, 0.0, None),
            Moved::Rounded {
                origin,
                wide,
                lo,
                apart,
            } => (origin, apart, Some((wide, lo))),
        }
    }
}

/// `o − v` rounded to the width (once, where it is not a value of it), or `None` where it lies
/// beyond the width's range.
#[cfg(test)]
pub(crate) fn moved_point<T: Real, const D: usize>(
    o: &Point<T, D>,
    v: &impl Offset<T, D>,
) -> Option<Point<T, D>> {
    Moved::of(o, v).map(|moved| moved.parts().0)
}

/// A point `p` moved to `p − v` where that is not a value of the width ([`Moved::Rounded`]):
/// raysweep's shapes measure from `wide + lo`, exactly that point
/// ([`PointQuery::moved_distance`] and its kin), a user's shape at `rounded`; the nearest
/// points are placed back by `v`. The hierarchy's bounds are taken at `wide` (rounded to `f32`
/// as for any point, which moves it less than the bounds' margin allows: `lo` is at most half
/// an ulp of `wide`, `src/scene/lower_bound.rs`).
struct MovedPoint<'a, T: Real, const D: usize, V> {
    rounded: Point<T, D>,
    wide: Point<f64, D>,
    lo: SVector<f64, D>,
    v: &'a V,
}

impl<'a, T: Real, const D: usize, V> MovedPoint<'a, T, D, V> {
    /// The point of [`Moved::Rounded`]'s `origin`, `wide` and `lo`, placed back by `v`.
    fn new(rounded: Point<T, D>, wide: Point<f64, D>, lo: SVector<f64, D>, v: &'a V) -> Self {
        MovedPoint {
            rounded,
            wide,
            lo,
            v,
        }
    }
}

impl<T: Real, const D: usize, V> Clone for MovedPoint<'_, T, D, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Real, const D: usize, V> Copy for MovedPoint<'_, T, D, V> {}

impl<T: Real, const D: usize, V: Offset<T, D>> Asked<T, D> for MovedPoint<'_, T, D, V> {
    fn lower_bound(&self) -> LowerBound<D> {
        LowerBound::of_wide::<T>(&self.wide)
    }

    fn is_within<S: PointQuery<T, D>>(&self, body: &S, distance: T) -> bool {
        body.moved_within(Sealed(()), &self.wide, self.lo, distance)
            .unwrap_or_else(|| body.is_within(&self.rounded, distance))
    }

    fn signed_distance<S: PointQuery<T, D>>(&self, body: &S) -> T {
        body.moved_distance(Sealed(()), &self.wide, self.lo)
            .map_or_else(|| body.signed_distance(&self.rounded), T::from_wide)
    }

    fn closest_point<S: PointQuery<T, D>>(&self, body: &S) -> (Point<T, D>, Unit<SVector<T, D>>) {
        match body.moved_closest(Sealed(()), &self.wide, self.lo) {
            Some((point, normal)) => (
                self.v.place_wide(&point),
                Unit::new_normalize(narrow(&normal)),
            ),
            None => {
                let (point, normal) = body.closest_point(&self.rounded);
                (self.v.place(&point), normal)
            }
        }
    }
}

/// `found(id)` for every body of `scene` that `filter` keeps whose translation by `v` lies
/// within `distance` of `point` ([`Scene::within`]), in no particular order.
pub(crate) fn within<T: Real, const D: usize, S: PointQuery<T, D>>(
    scene: &Scene<T, D, S>,
    v: &impl Offset<T, D>,
    point: &Point<T, D>,
    distance: T,
    filter: impl FnMut(usize) -> bool,
    found: impl FnMut(usize),
) {
    match Moved::of(point, v) {
        None => {}
        Some(Moved::Exact(q)) => scene.within_at(&q, distance, filter, found),
        Some(Moved::Rounded {
            origin, wide, lo, ..
        }) => {
            scene.within_at(
                &MovedPoint::new(origin, wide, lo, v),
                distance,
                filter,
                found,
            );
        }
    }
}

/// The body of `scene` that `filter` keeps nearest to `point` within `max_distance`
/// ([`Scene::nearest`]), translated by `v`: its nearest point among the translated bodies.
pub(crate) fn nearest<T: Real, const D: usize, S: PointQuery<T, D>>(
    scene: &Scene<T, D, S>,
    v: &impl Offset<T, D>,
    point: &Point<T, D>,
    max_distance: T,
    filter: impl FnMut(usize) -> bool,
) -> Option<BodyNearest<T, D>> {
    match Moved::of(point, v)? {
        Moved::Exact(q) => {
            let found = scene.nearest_filtered(&q, max_distance, filter)?;
            Some(BodyNearest {
                point: v.place(&found.point),
                ..found
            })
        }
        Moved::Rounded {
            origin, wide, lo, ..
        } => scene.nearest_at(&MovedPoint::new(origin, wide, lo, v), max_distance, filter),
    }
}

/// `hit`, from an untranslated body, among the translated ones: its point placed.
fn placed<T: Real, const D: usize>(v: &impl Offset<T, D>, hit: Hit<T, D>) -> Hit<T, D> {
    Hit {
        point: v.place(&hit.point),
        ..hit
    }
}

/// The wide answer `hit` (in the untranslated bodies' coordinates, `f64`) among the translated
/// bodies, rounded once to the width: at distance 0 at `ray`'s origin, exactly; `None` where its
/// distance rounds beyond the width's range.
fn placed_wide<T: Real, const D: usize>(
    v: &impl Offset<T, D>,
    ray: &Ray<T, D>,
    hit: Hit<f64, D>,
) -> Option<Hit<T, D>> {
    let distance = T::from_wide(hit.distance);
    if hit.distance == 0.0 {
        return Some(Hit {
            distance,
            point: *ray.origin(),
            normal: -*ray.dir(),
        });
    }
    distance.to_wide().is_finite().then(|| Hit {
        distance,
        point: v.place_wide(&hit.point),
        normal: Unit::new_unchecked(narrow(hit.normal.as_ref())),
    })
}

/// The first hit (`radius` `None`) or ball contact of `ray` over the bodies of `scene` that
/// `filter` keeps, translated by `v`, up to `limit` (in the working precision, as a body's own
/// cast takes its `max_distance`), the lowest body on equal distances, and that body's id.
pub(crate) fn first<T: Real, const D: usize, S: Cast<T, D>>(
    scene: &Scene<T, D, S>,
    v: &impl Offset<T, D>,
    ray: &Ray<T, D>,
    radius: Option<T>,
    limit: T,
    mut filter: impl FnMut(usize) -> bool,
) -> Option<(usize, Hit<T, D>)> {
    match Moved::of(ray.origin(), v)? {
        Moved::Exact(origin) => {
            let moved = ray.moved_to(origin);
            let found = match radius {
                None => scene.cast_ray_filtered(&moved, limit, filter),
                Some(r) => scene.cast_sphere_filtered(&moved, r, limit, filter),
            }?;
            Some((found.body, placed(v, found.hit)))
        }
        Moved::Rounded {
            origin,
            wide,
            lo,
            apart,
        } => {
            let moved = ray.moved_to(origin);
            let wide_ray = ray.in_f64_from(wide);
            let cast = |id, body: &S, _| {
                if !filter(id) {
                    return None;
                }
                let r = radius.map(Real::to_wide);
                let hit = match body.moved_cast(Sealed(()), &wide_ray, lo, r, limit.to_wide()) {
                    Some(hit) => placed_wide(v, ray, hit?)?,
                    None => placed(
                        v,
                        match radius {
                            None => body.cast_ray(&moved, limit),
                            Some(r) => body.cast_sphere(&moved, r, limit),
                        }?,
                    ),
                };
                Some((hit.distance.to_wide(), hit))
            };
            let grow = radius.map_or(0.0, Real::to_wide) + apart;
            on_line!(&moved, grow, |line| scene.first(
                &line,
                limit.to_wide(),
                cast
            ))
        }
    }
}

/// The next crossing along `ray` beyond `after`, up to `limit`, over the bodies of `scene` that
/// `filter` keeps, translated by `v` ([`crate::Geometry::next_crossing_filtered`]): each body's span
/// found as [`spans`] finds it, its next end; the lowest body on equal distances, and that
/// body's id. A translation leaves the normals as they are.
pub(crate) fn next_crossing<T: Real, const D: usize, S: Cast<T, D>>(
    scene: &Scene<T, D, S>,
    v: &impl Offset<T, D>,
    ray: &Ray<T, D>,
    after: T,
    limit: T,
    mut filter: impl FnMut(usize) -> bool,
) -> Option<(usize, Crossing<T, D>)> {
    let (origin, apart, beyond) = Moved::of(ray.origin(), v)?.parts();
    let moved = ray.moved_to(origin);
    let Some((wide, lo)) = beyond else {
        let found = scene.next_crossing_filtered(&moved, after, limit, filter)?;
        return Some((found.body, found.crossing));
    };
    let after = after.to_wide();
    if after.is_nan() {
        return None;
    }
    let line = ray.in_f64_from(wide);
    let cast = |id, body: &S, best: f64| {
        if !filter(id) {
            return None;
        }
        let span = match body.moved_span(Sealed(()), &line, lo, None) {
            Some(span) => span.map(|s| Span {
                enter: T::from_wide(s.enter),
                exit: T::from_wide(s.exit),
            }),
            None => body.ray_span(&moved),
        }?;
        let end = next_end(&span, after, best)?;
        let crossing = crossing_at(body, &moved, &line, lo, &span, end);
        Some((end.0.to_wide(), crossing))
    };
    on_line!(&moved, apart, |probe| scene.first(
        &probe,
        limit.to_wide(),
        cast
    ))
}

/// Whether `ray` hits a body of `scene` that `filter` keeps, translated by `v`, at a distance in
/// `[0, max_distance]`.
pub(crate) fn hits_any<T: Real, const D: usize, S: Cast<T, D>>(
    scene: &Scene<T, D, S>,
    v: &impl Offset<T, D>,
    ray: &Ray<T, D>,
    max_distance: T,
    mut filter: impl FnMut(usize) -> bool,
) -> bool {
    match Moved::of(ray.origin(), v) {
        None => false,
        Some(Moved::Exact(origin)) => {
            scene.hits_any_filtered(&ray.moved_to(origin), max_distance, filter)
        }
        Some(Moved::Rounded { .. }) => {
            first(scene, v, ray, None, max_distance, &mut filter).is_some()
        }
    }
}

/// `found(id, span)` for each body of `scene` that `filter` keeps whose translation by `v` the
/// whole line through `ray` (a ball of `radius` moving along it) crosses, with its span.
pub(crate) fn spans<T: Real, const D: usize, S: Cast<T, D>>(
    scene: &Scene<T, D, S>,
    v: &impl Offset<T, D>,
    ray: &Ray<T, D>,
    radius: Option<T>,
    mut filter: impl FnMut(usize) -> bool,
    mut found: impl FnMut(usize, Span<T>),
) {
    let Some(moved) = Moved::of(ray.origin(), v) else {
        return;
    };
    let (origin, apart, beyond) = moved.parts();
    let beyond = beyond.map(|(wide, lo)| (ray.in_f64_from(wide), lo));
    let moved = ray.moved_to(origin);
    let line = F64Probe::of(&moved, radius.map_or(0.0, Real::to_wide) + apart);
    let bodies = scene.bodies();
    let wide_radius = radius.map(Real::to_wide);
    scene.visit_depth_first(
        |node| line.crosses(node),
        |id| {
            if !filter(id) {
                return true;
            }
            if let Some(span) = span_of(&bodies[id], &moved, beyond.as_ref(), radius, wide_radius) {
                found(id, span);
            }
            true
        },
    );
}

/// The span of `shape` translated by `v` along the line through `ray` (the translated body's
/// [`Cast::ray_span`]), as [`spans`] finds it.
pub(crate) fn span<T: Real, const D: usize, S: Cast<T, D>>(
    shape: &S,
    v: &impl Offset<T, D>,
    ray: &Ray<T, D>,
) -> Option<Span<T>> {
    let (origin, _, beyond) = Moved::of(ray.origin(), v)?.parts();
    let beyond = beyond.map(|(wide, lo)| (ray.in_f64_from(wide), lo));
    span_of(shape, &ray.moved_to(origin), beyond.as_ref(), None, None)
}

/// `shape`'s span (a ball's of `radius`, `wide_radius` in `f64`) along `moved`, the ray moved
/// and rounded: from the exact moved line `beyond` where it is not exact and the shape answers
/// there, else from `moved`.
fn span_of<T: Real, const D: usize, S: Cast<T, D>>(
    shape: &S,
    moved: &Ray<T, D>,
    beyond: Option<&(Ray<f64, D>, SVector<f64, D>)>,
    radius: Option<T>,
    wide_radius: Option<f64>,
) -> Option<Span<T>> {
    let wide = beyond.and_then(|(line, lo)| shape.moved_span(Sealed(()), line, *lo, wide_radius));
    match wide {
        Some(span) => span.map(|s| Span {
            enter: T::from_wide(s.enter),
            exit: T::from_wide(s.exit),
        }),
        None => match radius {
            None => shape.ray_span(moved),
            Some(r) => shape.sphere_span(moved, r),
        },
    }
}

/// `found(id)` for each body of `scene` that `filter` keeps whose translation by `v` contains
/// `point`.
pub(crate) fn containing<T: Real, const D: usize, S: Cast<T, D>>(
    scene: &Scene<T, D, S>,
    v: &impl Offset<T, D>,
    point: &Point<T, D>,
    mut filter: impl FnMut(usize) -> bool,
    mut found: impl FnMut(usize),
) {
    let Some(moved) = Moved::of(point, v) else {
        return;
    };
    let (rounded, _, beyond) = moved.parts();
    let at: [f64; D] = match &beyond {
        Some((w, _)) => w.coords.into(),
        None => core::array::from_fn(|i| rounded[i].to_wide()),
    };
    let bodies = scene.bodies();
    scene.visit_depth_first(
        |node| probe::containing::<D, T>(node, &at),
        |id| {
            if filter(id) && holds(&bodies[id], &rounded, beyond.as_ref()) {
                found(id);
            }
            true
        },
    );
}

/// Whether `shape` translated by `v` contains `point`, as [`containing`] decides it.
pub(crate) fn contains<T: Real, const D: usize, S: Cast<T, D>>(
    shape: &S,
    v: &impl Offset<T, D>,
    point: &Point<T, D>,
) -> bool {
    Moved::of(point, v).is_some_and(|moved| {
        let (rounded, _, beyond) = moved.parts();
        holds(shape, &rounded, beyond.as_ref())
    })
}

/// Whether `shape` contains the moved point: `rounded` where that is exact (`beyond` is
/// `None`), else the exact `wide + lo` where the shape answers it, else `rounded`.
fn holds<T: Real, const D: usize, S: Cast<T, D>>(
    shape: &S,
    rounded: &Point<T, D>,
    beyond: Option<&(Point<f64, D>, SVector<f64, D>)>,
) -> bool {
    beyond
        .and_then(|(w, lo)| shape.moved_contains(Sealed(()), w, *lo))
        .unwrap_or_else(|| shape.contains(rounded))
}
