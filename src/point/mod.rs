//! Point queries ([`PointQuery`]: signed distance, nearest surface point and its normal) and the
//! time of impact of a moving ball ([`Sphere::time_of_impact`](crate::Sphere::time_of_impact)).
//!
//! Each shape computes its answer in the working precision (`f64`) from exact differences and
//! rounds it once to the public width; the methods are in each shape's file and in
//! [`crate::core::nearest`] (ellipsoids).

mod aabb;
mod body;
mod ellipsoid;
mod gap;
mod impact;
mod sphere;

use nalgebra::{Point, SVector, Unit};

use crate::cast::{AtRay, Beyond, Origin};
use crate::real::{Real, narrow, widen};
use crate::shape::Body;
use crate::traits::{Sealed, Shape};

pub use impact::Impact;

/// How far a point is from a solid's surface, and which surface point is nearest.
///
/// Implemented by [`Sphere`](crate::Sphere), [`Ellipsoid`](crate::Ellipsoid) (axis-aligned and
/// oriented), [`Aabb`](crate::Aabb) and [`Body`](crate::Body), in every dimension and both widths.
///
/// - Both are computed in `f64` from exact differences and rounded once: within 1 ulp in `f32`;
///   in `f64` within a few ulps of the distance's own sensitivity to half-ulp changes of the
///   inputs ([the measured table](https://github.com/raysweep/raysweep/blob/main/docs/point-queries.md)).
/// - Where several surface points are nearest, each shape documents which one it gives.
/// - A point with a NaN coordinate gets NaN answers. A point with an infinite coordinate is
///   `+∞` away; its nearest point is that of the point with the infinite coordinates clamped to
///   the largest finite values.
///
/// # Example
///
/// ```
/// use raysweep::nalgebra::{Point3, Vector3};
/// use raysweep::{Aabb, Ellipsoid, PointQuery};
///
/// let e = Ellipsoid::new(Point3::origin(), Vector3::new(3.0, 2.0, 1.0))?;
/// assert_eq!(e.signed_distance(&Point3::new(0.0, 0.0, 5.0)), 4.0);
/// assert_eq!(e.signed_distance(&Point3::new(0.0, 0.0, 0.25)), -0.75);
/// let (point, normal) = e.closest_point(&Point3::new(0.0, 0.0, 0.25));
/// assert_eq!((point, normal.into_inner()), (Point3::new(0.0, 0.0, 1.0), Vector3::z()));
///
/// let b = Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0))?;
/// assert_eq!(b.signed_distance(&Point3::new(4.0, 5.0, 0.5)), 5.0);
/// # Ok::<(), raysweep::Error>(())
/// ```
pub trait PointQuery<T: Real, const D: usize = 3>: Shape<T, D> {
    /// The distance from `p` to the surface: positive outside, negative inside, zero on it.
    fn signed_distance(&self, p: &Point<T, D>) -> T;

    /// The surface point nearest to `p` (from inside too) and the outward unit normal there.
    fn closest_point(&self, p: &Point<T, D>) -> (Point<T, D>, Unit<SVector<T, D>>);

    /// Whether `signed_distance(p) <= distance`: exactly that answer (false for a NaN), which a
    /// shape may decide without measuring the distance where it is clearly far from `distance`.
    /// A ball does (a plain estimate and its error bound, the exact distance only within
    /// `2^-20` of the problem's size of `distance`); the other shapes measure. Scenes ask it of
    /// their bodies ([`Scene::within`](crate::Scene::within),
    /// [`Scene::nearest`](crate::Scene::nearest)); a shape of a user's that overrides it must
    /// give that exact answer.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::Point2;
    /// use raysweep::{Circle, PointQuery};
    ///
    /// let disc = Circle::new(Point2::new(0.0, 0.0), 1.0)?;
    /// assert!(disc.is_within(&Point2::new(3.0, 0.0), 2.0));
    /// assert!(!disc.is_within(&Point2::new(3.0, 0.0), 1.99));
    /// assert!(disc.is_within(&Point2::new(0.5, 0.0), -0.5));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn is_within(&self, p: &Point<T, D>, distance: T) -> bool {
        self.signed_distance(p) <= distance
    }

    /// The crate's hook, not part of the API (no code outside the crate can name [`Sealed`], so
    /// none can call or override it): raysweep's shapes give themselves as a
    /// [`Body`](crate::Body) in `f64` (an `f32` shape widened exactly), any other shape `None`.
    /// [`Sphere::time_of_impact`](crate::Sphere::time_of_impact) casts the moving ball in `f64`
    /// through it, so that an `f32` time is rounded once, and decides exactly whether a ball or a
    /// box touches the moving ball at time 0; for a shape that gives `None`, it asks the shape's
    /// own methods in its width (`src/point/impact.rs`).
    #[doc(hidden)]
    fn as_wide_body(&self, _: Sealed) -> Option<Body<f64, D>> {
        None
    }

    /// The crate's hook, as [`PointQuery::as_wide_body`]: the signed distance at `p + lo` (`lo`
    /// held apart exactly, as a periodic image's moved point is), in `f64`. raysweep's shapes
    /// answer (`Some`) with the shape widened exactly; for any other shape (`None`), a
    /// [`PeriodicScene`](crate::PeriodicScene) asks the shape at the point rounded to its width
    /// (`src/scene/moved.rs`).
    #[doc(hidden)]
    fn moved_distance(&self, _: Sealed, p: &Point<f64, D>, lo: SVector<f64, D>) -> Option<f64> {
        let _ = (p, lo);
        None
    }

    /// The crate's hook, as [`PointQuery::moved_distance`]: whether the signed distance at
    /// `p + lo`, rounded to the width, is at most `distance` ([`PointQuery::is_within`]).
    #[doc(hidden)]
    fn moved_within(
        &self,
        _: Sealed,
        p: &Point<f64, D>,
        lo: SVector<f64, D>,
        distance: T,
    ) -> Option<bool> {
        let _ = (p, lo, distance);
        None
    }

    /// The crate's hook, as [`PointQuery::moved_distance`]: the surface point nearest to
    /// `p + lo` and the outward normal there, in `f64`.
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    fn moved_closest(
        &self,
        _: Sealed,
        p: &Point<f64, D>,
        lo: SVector<f64, D>,
    ) -> Option<(Point<f64, D>, SVector<f64, D>)> {
        let _ = (p, lo);
        None
    }
}

/// A nearest surface point in the working precision.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Nearest<const D: usize> {
    /// Signed: negative inside.
    pub(crate) distance: f64,
    pub(crate) point: SVector<f64, D>,
    /// The outward normal at `point`, unit to within rounding.
    pub(crate) normal: SVector<f64, D>,
}

/// A shape's nearest point in the working precision: `nearest(p, at, k)` answers for the point
/// `p` (plus the vector `at` holds apart, [`Origin`]) and the shape with every coordinate
/// multiplied by `k`.
pub(crate) trait Nearby<T: Real, const D: usize> {
    fn nearest(&self, p: &SVector<f64, D>, at: impl Origin<D>, k: f64) -> Nearest<D>;

    /// The signed distance alone: `nearest(p, at, k).distance`, the same bits, for shapes that
    /// find it faster without the point.
    fn distance(&self, p: &SVector<f64, D>, at: impl Origin<D>, k: f64) -> f64 {
        self.nearest(p, at, k).distance
    }

    /// Whether the signed distance at `p` (plus `at`'s vector), rounded to the width, is at most
    /// `limit`, where a plain estimate decides it without measuring; `None` where it does not
    /// (every shape that has no such estimate).
    fn clearly_within(&self, p: &SVector<f64, D>, at: impl Origin<D>, limit: f64) -> Option<bool> {
        let _ = (p, at, limit);
        None
    }
}

/// An answer of [`Nearby`] ([`Nearest`], or a distance alone), and what [`measured`] does to it.
trait Measure {
    /// The answer for a point with a NaN coordinate.
    const NAN: Self;
    fn distance(&self) -> f64;
    /// The answer for the problem scaled back up by 2.
    fn doubled(self) -> Self;
    /// The answer for a point with an infinite coordinate: its distance `+∞`.
    fn infinitely_far(self) -> Self;
}

impl<const D: usize> Measure for Nearest<D> {
    const NAN: Self = Nearest {
        distance: f64::NAN,
        point: SVector::from_array_storage(nalgebra::ArrayStorage([[f64::NAN; D]; 1])),
        normal: SVector::from_array_storage(nalgebra::ArrayStorage([[f64::NAN; D]; 1])),
    };
    fn distance(&self) -> f64 {
        self.distance
    }
    fn doubled(self) -> Self {
        Nearest {
            distance: self.distance * 2.0,
            point: self.point * 2.0,
            normal: self.normal,
        }
    }
    fn infinitely_far(self) -> Self {
        Nearest {
            distance: f64::INFINITY,
            ..self
        }
    }
}

impl Measure for f64 {
    const NAN: Self = f64::NAN;
    fn distance(&self) -> f64 {
        *self
    }
    fn doubled(self) -> Self {
        self * 2.0
    }
    fn infinitely_far(self) -> Self {
        f64::INFINITY
    }
}

/// What `answer(p, k)` gives for `p`, in the working precision: with `k = 1`, or, where a
/// difference of coordinates overflows `f64` (only `f64` coordinates beyond `2^1023` apart), with
/// everything halved (exact) and the distance and point doubled back. Infinite coordinates are
/// clamped as [`PointQuery`] says.
fn measured<T: Real, const D: usize, M: Measure>(
    wide: &SVector<f64, D>,
    answer: impl Fn(&SVector<f64, D>, f64) -> M,
) -> M {
    if wide.iter().any(|x| x.is_nan()) {
        return M::NAN;
    }
    let clamped = wide.map(|x| x.clamp(-T::MAX_WIDE, T::MAX_WIDE));
    let mut found = answer(&clamped, 1.0);
    if !found.distance().is_finite() {
        found = answer(&(clamped * 0.5), 0.5).doubled();
    }
    if wide.iter().any(|x| x.is_infinite()) {
        found = found.infinitely_far();
    }
    found
}

/// [`PointQuery::signed_distance`] from a shape's [`Nearby`].
pub(crate) fn signed_distance<T: Real, const D: usize>(
    shape: &impl Nearby<T, D>,
    p: &Point<T, D>,
) -> T {
    T::from_wide(measured::<T, D, _>(&widen(&p.coords), |q, k| {
        shape.distance(q, AtRay, k)
    }))
}

/// [`PointQuery::closest_point`] from a shape's [`Nearby`].
pub(crate) fn closest_point<T: Real, const D: usize>(
    shape: &impl Nearby<T, D>,
    p: &Point<T, D>,
) -> (Point<T, D>, Unit<SVector<T, D>>) {
    let n: Nearest<D> = measured::<T, D, _>(&widen(&p.coords), |q, k| shape.nearest(q, AtRay, k));
    (
        Point::from(narrow::<T, D>(&n.point)),
        Unit::new_normalize(narrow(&n.normal)),
    )
}

/// [`PointQuery::is_within`] from a shape's [`Nearby`]: its estimate where that decides, its
/// signed distance elsewhere.
pub(crate) fn is_within<T: Real, const D: usize>(
    shape: &impl Nearby<T, D>,
    p: &Point<T, D>,
    distance: T,
) -> bool {
    shape
        .clearly_within(&widen(&p.coords), AtRay, distance.to_wide())
        .unwrap_or_else(|| signed_distance(shape, p) <= distance)
}

/// [`PointQuery::moved_distance`] from a shape's [`Nearby`].
pub(crate) fn moved_distance<T: Real, const D: usize>(
    shape: &impl Nearby<T, D>,
    p: &Point<f64, D>,
    lo: SVector<f64, D>,
) -> f64 {
    measured::<T, D, _>(&p.coords, |q, k| shape.distance(q, Beyond(lo * k), k))
}

/// [`PointQuery::moved_within`] from a shape's [`Nearby`].
pub(crate) fn moved_within<T: Real, const D: usize>(
    shape: &impl Nearby<T, D>,
    p: &Point<f64, D>,
    lo: SVector<f64, D>,
    distance: T,
) -> bool {
    shape
        .clearly_within(&p.coords, Beyond(lo), distance.to_wide())
        .unwrap_or_else(|| T::from_wide(moved_distance(shape, p, lo)) <= distance)
}

/// [`PointQuery::moved_closest`] from a shape's [`Nearby`].
pub(crate) fn moved_closest<T: Real, const D: usize>(
    shape: &impl Nearby<T, D>,
    p: &Point<f64, D>,
    lo: SVector<f64, D>,
) -> (Point<f64, D>, SVector<f64, D>) {
    let n: Nearest<D> = measured::<T, D, _>(&p.coords, |q, k| shape.nearest(q, Beyond(lo * k), k));
    (Point::from(n.point), n.normal)
}

/// `PointQuery` for a shape with [`Nearby`].
macro_rules! point_query {
    ($(#[$doc:meta])* $shape:ident) => {
        $(#[$doc])*
        impl<T: Real, const D: usize> crate::point::PointQuery<T, D> for $shape<T, D> {
            fn signed_distance(&self, p: &nalgebra::Point<T, D>) -> T {
                crate::point::signed_distance(self, p)
            }

            fn closest_point(
                &self,
                p: &nalgebra::Point<T, D>,
            ) -> (nalgebra::Point<T, D>, nalgebra::Unit<nalgebra::SVector<T, D>>) {
                crate::point::closest_point(self, p)
            }

            fn is_within(&self, p: &nalgebra::Point<T, D>, distance: T) -> bool {
                crate::point::is_within(self, p, distance)
            }

            #[doc(hidden)]
            fn as_wide_body(
                &self,
                _: crate::traits::Sealed,
            ) -> Option<crate::shape::Body<f64, D>> {
                Some(crate::shape::Body::$shape(self.widened()))
            }

            #[doc(hidden)]
            fn moved_distance(
                &self,
                _: crate::traits::Sealed,
                p: &nalgebra::Point<f64, D>,
                lo: nalgebra::SVector<f64, D>,
            ) -> Option<f64> {
                Some(crate::point::moved_distance(self, p, lo))
            }

            #[doc(hidden)]
            fn moved_within(
                &self,
                _: crate::traits::Sealed,
                p: &nalgebra::Point<f64, D>,
                lo: nalgebra::SVector<f64, D>,
                distance: T,
            ) -> Option<bool> {
                Some(crate::point::moved_within(self, p, lo, distance))
            }

            #[doc(hidden)]
            fn moved_closest(
                &self,
                _: crate::traits::Sealed,
                p: &nalgebra::Point<f64, D>,
                lo: nalgebra::SVector<f64, D>,
            ) -> Option<(nalgebra::Point<f64, D>, nalgebra::SVector<f64, D>)> {
                Some(crate::point::moved_closest(self, p, lo))
            }
        }
    };
}
pub(crate) use point_query;
