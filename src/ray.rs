//! Rays: an origin and a unit direction.

use nalgebra::{Point, SVector, Unit};

use crate::core::lane::{Lane, dot, scale};
use crate::core::slab::without_subnormals;
use crate::core::unit::unit_and_length;
use crate::error::{Error, check_finite};
use crate::real::{Real, narrow, widen};

/// A half-line: an origin and a unit direction. Distances along a ray are Euclidean.
///
/// # Example
///
/// ```
/// use raysweep::Ray;
/// use raysweep::nalgebra::{Point3, Vector3};
///
/// let ray = Ray::new(Point3::new(1.0, 2.0, 3.0), Vector3::new(0.0, 0.0, -2.0))?;
/// assert_eq!(ray.dir().into_inner(), Vector3::new(0.0, 0.0, -1.0));
/// assert_eq!(ray.at(3.0), Point3::new(1.0, 2.0, 0.0));
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
// A fixed layout, which `batch::transpose` reads with vector loads.
#[repr(C)]
pub struct Ray<T: Real, const D: usize = 3> {
    origin: Point<T, D>,
    dir: Unit<SVector<T, D>>,
}

impl<T: Real, const D: usize> Ray<T, D> {
    /// A ray from `origin` along `dir`, which is normalised here.
    ///
    /// Any finite non-zero `dir` is accepted, including one with subnormal components or
    /// components near the largest finite value: it is scaled before its length is taken. The
    /// stored direction is the unit vector nearest to `dir / |dir|` that the rounding of each
    /// component gives, except that a component below `2^-1022` in magnitude (an `f64` subnormal;
    /// no `f32` is that small) is stored as zero. That moves the direction by less than `2^-1022`,
    /// where the normalisation's rounding may move it by up to `2^-53` relative, and it lets every
    /// cast use the components' reciprocals, which would overflow for the smallest subnormals. A
    /// zero component is stored as `+0.0`, never `−0.0`, also where it rounds to zero in `f32`.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] if a component of `origin` or `dir` is NaN or infinite;
    /// [`Error::ZeroDirection`] if `dir` is zero.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Error, Ray};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let ray = Ray::new(Point2::origin(), Vector2::new(1e-40f32, 0.0))?;
    /// assert_eq!(ray.dir().x, 1.0);
    /// assert_eq!(Ray::new(Point2::origin(), Vector2::zeros()), Err::<Ray<f32, 2>, _>(Error::ZeroDirection));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn new(origin: Point<T, D>, dir: SVector<T, D>) -> Result<Self, Error> {
        check_finite("origin", origin.iter().map(|v| v.to_wide()))?;
        check_finite("direction", dir.iter().map(|v| v.to_wide()))?;
        let (unit, _) = unit_and_length(&widen(&dir)).ok_or(Error::ZeroDirection)?;
        Ok(Ray {
            origin,
            dir: stored(&unit),
        })
    }

    /// The ray from `a` towards `b`, and the distance `|b − a|` at which it reaches `b`.
    ///
    /// A segment `A → B` as a ray: cast with `max_distance` set to the returned length to test the
    /// segment only. The length is correctly rounded; for `f64` points
    /// more than the largest finite value apart it rounds to `+∞`.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] if a component of `a` or `b` is NaN or infinite;
    /// [`Error::ZeroDirection`] if `a == b`.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Ray;
    /// use raysweep::nalgebra::Point3;
    ///
    /// let (ray, length) = Ray::between(Point3::new(0.0, 0.0, 0.0), Point3::new(3.0, 4.0, 0.0))?;
    /// assert_eq!(length, 5.0);
    /// assert_eq!(ray.at(length), Point3::new(3.0, 4.0, 0.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn between(a: Point<T, D>, b: Point<T, D>) -> Result<(Self, T), Error> {
        check_finite("point a", a.iter().map(|v| v.to_wide()))?;
        check_finite("point b", b.iter().map(|v| v.to_wide()))?;
        let (a_w, b_w) = (widen(&a.coords), widen(&b.coords));
        let diff = b_w - a_w;
        let (unit, length) = if diff.iter().all(|v| v.is_finite()) {
            unit_and_length(&diff)
        } else {
            // Only f64 endpoints can overflow here; halving both is exact.
            unit_and_length(&(b_w * 0.5 - a_w * 0.5)).map(|(u, l)| (u, l * 2.0))
        }
        .ok_or(Error::ZeroDirection)?;
        let ray = Ray {
            origin: a,
            dir: stored(&unit),
        };
        Ok((ray, T::from_wide(length)))
    }

    /// The origin.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Ray;
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let ray = Ray::new(Point2::new(1.0, 2.0), Vector2::x())?;
    /// assert_eq!(*ray.origin(), Point2::new(1.0, 2.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn origin(&self) -> &Point<T, D> {
        &self.origin
    }

    /// The unit direction.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Ray;
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let ray = Ray::new(Point2::origin(), Vector2::new(3.0, 4.0))?;
    /// assert_eq!(ray.dir().into_inner(), Vector2::new(0.6, 0.8));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn dir(&self) -> &Unit<SVector<T, D>> {
        &self.dir
    }

    /// The point at `distance` along the ray, `origin + distance · dir`, in the ray's width.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Ray;
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let ray = Ray::new(Point2::new(1.0f32, 1.0), Vector2::y())?;
    /// assert_eq!(ray.at(2.0), Point2::new(1.0, 3.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn at(&self, distance: T) -> Point<T, D> {
        self.origin + self.dir.as_ref() * distance
    }

    /// The ray from `origin` with this ray's stored direction, bit for bit.
    #[inline]
    pub(crate) fn moved_to(&self, origin: Point<T, D>) -> Self {
        Ray {
            origin,
            dir: self.dir,
        }
    }

    /// The ray from `origin` in `f64`, along this ray's stored direction: widened exactly from
    /// `f64`; from a narrower width, normalised in `f64` as [`Ray::new`] does.
    pub(crate) fn in_f64_from(&self, origin: Point<f64, D>) -> Ray<f64, D> {
        let dir = widen(self.dir.as_ref());
        let unit = if T::RENORMALISE_DIRECTION {
            unit_and_length(&dir).map_or(dir, |(u, _)| u)
        } else {
            dir
        };
        Ray {
            origin,
            dir: stored(&unit),
        }
    }

    /// The ray from the same origin the other way: the stored direction negated, exactly (a
    /// zero component stays `+0.0`, as [`Ray::new`] stores it).
    #[inline]
    pub(crate) fn reversed(&self) -> Self {
        let zero = T::zero();
        Ray {
            origin: self.origin,
            dir: Unit::new_unchecked(self.dir.map(|c| if c == zero { zero } else { -c })),
        }
    }

    /// A ray whose direction is already unit (to within the width's rounding), kept as given but
    /// for components below `2^-1022`, stored as zero as in [`Ray::new`].
    #[cfg(feature = "serde")]
    pub(crate) fn from_unit(origin: Point<T, D>, dir: Unit<SVector<T, D>>) -> Self {
        Ray {
            origin,
            dir: stored(&widen(dir.as_ref())),
        }
    }

    /// The direction in the working precision: unit to within an `f64` rounding.
    #[inline]
    pub(crate) fn working_dir(&self) -> SVector<f64, D> {
        renormalised::<T, f64, D>(widen(self.dir.as_ref()).into()).into()
    }

    /// The stored direction in the working precision, as it is: `||n|² − 1|` is at most
    /// [`UNIT_TOLERANCE`](crate::core::unit::UNIT_TOLERANCE) (its [`length`] there is `1 + δ/2`). A caller that needs no unit
    /// vector (the slab, the quadratic core, which accounts for the length) so keeps the
    /// renormalisation of [`Ray::working_dir`] off its critical path.
    #[inline]
    pub(crate) fn stored_dir(&self) -> SVector<f64, D> {
        widen(self.dir.as_ref())
    }
}

/// A unit direction in the working precision as a ray stores it: rounded to the width, with
/// components below `2^-1022` in magnitude (subnormal in `f64`) set to zero, so that every
/// component's reciprocal is finite (see [`Ray::new`]), and zeros made `+0` (`x + 0 = x` but for
/// `−0 + 0 = +0`): an `f32` component can round to `−0`, whose reciprocal `−∞` the batch's slab
/// does not expect ([`crate::core::slab::Zeros::InQuotients`]).
#[inline]
fn stored<T: Real, const D: usize>(unit: &SVector<f64, D>) -> Unit<SVector<T, D>> {
    Unit::new_unchecked(narrow::<T, D>(&without_subnormals(unit)).map(|c| c + T::zero()))
}

/// The length of a stored unit direction of width `T`, in the working precision: 1 for `f64`,
/// as [`renormalised`] takes it; for `f32`, with `|n|² = 1 + δ` and `|δ| ≤ 2^-23` ([`Ray::new`];
/// at most [`UNIT_TOLERANCE`](crate::core::unit::UNIT_TOLERANCE)), `1 + δ/2`, which is `|n|` to `O(δ²) < 2^-46` (`2^-33` at that
/// bound) and the inverse of [`renormalised`]'s factor to the same.
#[inline(always)]
pub(crate) fn length<T: Real, L: Lane, const D: usize>(n: &[L; D]) -> L {
    if T::RENORMALISE_DIRECTION {
        L::splat(0.5) + L::splat(0.5) * dot(n, n)
    } else {
        L::splat(1.0)
    }
}

/// A stored unit direction of width `T`, in the working precision: as it is for `f64`; for `f32`,
/// whose unit vectors are unit only to within `2^-24`, after one Newton step towards `1/|n|`:
/// `|n|² = 1 + δ` with `|δ| ≤ 2^-23` (at most [`UNIT_TOLERANCE`](crate::core::unit::UNIT_TOLERANCE)), so `n(3 − |n|²)/2` is unit to
/// `O(δ²) < 2^-44` (`2^-31` at that bound), with no square root or division.
#[inline(always)]
fn renormalised<T: Real, L: Lane, const D: usize>(n: [L; D]) -> [L; D] {
    if T::RENORMALISE_DIRECTION {
        scale(&n, L::splat(1.5) - L::splat(0.5) * dot(&n, &n))
    } else {
        n
    }
}
