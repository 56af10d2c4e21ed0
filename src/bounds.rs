//! The axis-aligned box as a value ([`Aabb`]): its constructors and accessors, and boxes rounded
//! outward around a centre, which every shape's [`Shape::aabb`](crate::Shape::aabb) returns.
//! Its casts are in `crate::shape`, with the other solids'.

use nalgebra::{Point, SVector};

use crate::core::exact::two_sum;
use crate::error::{Error, check_finite};
use crate::real::{Real, round_down, round_up, widen};

/// A closed axis-aligned box: the points `x` with `min ≤ x ≤ max` on every axis. Flat boxes
/// (`min == max` on some axes) are allowed.
///
/// Ray casts clip the line against the box's planes (the slab method, in the working precision):
/// exact for rays parallel to an axis, including rays along a face or starting on a face plane.
///
/// # Example
///
/// ```
/// use raysweep::{Aabb, Cast, Ray};
/// use raysweep::nalgebra::{Point3, Vector3};
///
/// let b = Aabb::new(Point3::new(-1.0f32, -1.0, -1.0), Point3::new(1.0, 1.0, 1.0))?;
/// // Along the top face: the box is closed, so this hits.
/// let ray = Ray::new(Point3::new(-5.0, 1.0, 0.0), Vector3::x())?;
/// assert_eq!(b.cast_ray(&ray, 10.0).unwrap().distance, 4.0);
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb<T: Real, const D: usize = 3> {
    min: Point<T, D>,
    max: Point<T, D>,
}

/// A closed axis-aligned rectangle in the plane.
///
/// # Example
///
/// ```
/// use raysweep::{Rect, Shape};
/// use raysweep::nalgebra::Point2;
///
/// let r: Rect<f64> = Rect::new(Point2::new(0.0, 0.0), Point2::new(2.0, 1.0))?;
/// assert!(r.contains(&Point2::new(2.0, 1.0)));
/// # Ok::<(), raysweep::Error>(())
/// ```
pub type Rect<T> = Aabb<T, 2>;

impl<T: Real, const D: usize> Aabb<T, D> {
    /// The same box in `f64` (exact).
    pub(crate) fn widened(&self) -> Aabb<f64, D> {
        Aabb {
            min: Point::from(widen(&self.min.coords)),
            max: Point::from(widen(&self.max.coords)),
        }
    }

    /// The box with corners `min` and `max`.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a NaN or infinite bound; [`Error::InvertedBounds`] where
    /// `min > max` on an axis.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Aabb, Error};
    /// use raysweep::nalgebra::Point2;
    ///
    /// assert!(Aabb::new(Point2::new(0.0, 1.0), Point2::new(0.0, 2.0)).is_ok()); // flat
    /// assert_eq!(
    ///     Aabb::new(Point2::new(0.0, 3.0), Point2::new(1.0, 2.0)),
    ///     Err(Error::InvertedBounds { axis: 1, min: 3.0, max: 2.0 })
    /// );
    /// ```
    pub fn new(min: Point<T, D>, max: Point<T, D>) -> Result<Self, Error> {
        check_finite("min", min.iter().map(|v| v.to_wide()))?;
        check_finite("max", max.iter().map(|v| v.to_wide()))?;
        for axis in 0..D {
            if min[axis] > max[axis] {
                return Err(Error::InvertedBounds {
                    axis,
                    min: min[axis].to_wide(),
                    max: max[axis].to_wide(),
                });
            }
        }
        Ok(Aabb { min, max })
    }

    /// The smallest box of this width that holds every point within `half_extents[i]` of
    /// `center` along each axis `i` (the bounds `center ∓ half_extents` are rounded outward).
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a NaN or infinite input, or for a bound that overflows;
    /// [`Error::NegativeHalfExtent`] for a half extent below zero.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Aabb;
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let b = Aabb::from_center(Point2::new(1.0, 1.0), Vector2::new(2.0, 0.5))?;
    /// assert_eq!((*b.min(), *b.max()), (Point2::new(-1.0, 0.5), Point2::new(3.0, 1.5)));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn from_center(center: Point<T, D>, half_extents: SVector<T, D>) -> Result<Self, Error> {
        check_finite("center", center.iter().map(|v| v.to_wide()))?;
        check_finite("half_extents", half_extents.iter().map(|v| v.to_wide()))?;
        if let Some((axis, value)) = half_extents
            .iter()
            .enumerate()
            .find(|(_, h)| **h < T::zero())
        {
            return Err(Error::NegativeHalfExtent {
                axis,
                value: value.to_wide(),
            });
        }
        box_around(&widen(&center.coords), &widen(&half_extents))
    }

    /// The box with the given bounds, known finite and ordered.
    fn from_ordered_bounds(min: Point<T, D>, max: Point<T, D>) -> Self {
        Aabb { min, max }
    }

    /// The lower corner.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Aabb;
    /// use raysweep::nalgebra::Point2;
    ///
    /// let b = Aabb::new(Point2::new(0.0, 1.0), Point2::new(2.0, 3.0))?;
    /// assert_eq!(*b.min(), Point2::new(0.0, 1.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn min(&self) -> &Point<T, D> {
        &self.min
    }

    /// The upper corner.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Aabb;
    /// use raysweep::nalgebra::Point2;
    ///
    /// let b = Aabb::new(Point2::new(0.0, 1.0), Point2::new(2.0, 3.0))?;
    /// assert_eq!(*b.max(), Point2::new(2.0, 3.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn max(&self) -> &Point<T, D> {
        &self.max
    }

    /// The centre, `(min + max) / 2`, rounded to the nearest value of the width.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Aabb;
    /// use raysweep::nalgebra::Point2;
    ///
    /// let b = Aabb::new(Point2::new(0.0, 1.0), Point2::new(2.0, 3.0))?;
    /// assert_eq!(b.center(), Point2::new(1.0, 2.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[must_use]
    pub fn center(&self) -> Point<T, D> {
        let c = (widen(&self.min.coords) + widen(&self.max.coords)) * 0.5;
        Point::from(c.map(T::from_wide))
    }

    /// The half extents, `(max − min) / 2`, rounded to the nearest value of the width.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Aabb;
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let b = Aabb::new(Point2::new(0.0, 1.0), Point2::new(2.0, 3.0))?;
    /// assert_eq!(b.half_extents(), Vector2::new(1.0, 1.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[must_use]
    pub fn half_extents(&self) -> SVector<T, D> {
        ((widen(&self.max.coords) - widen(&self.min.coords)) * 0.5).map(T::from_wide)
    }
}

/// The bounds `center ∓ extent` rounded outward to width `T` exactly: the smallest box of the
/// width holding every point within `extent[i]` of `center` on axis `i`. A bound beyond the
/// width's range is infinite.
fn bounds_around<T: Real, const D: usize>(
    center: &SVector<f64, D>,
    extent: &SVector<f64, D>,
) -> (Point<T, D>, Point<T, D>) {
    let mut min = Point::<T, D>::origin();
    let mut max = Point::<T, D>::origin();
    for i in 0..D {
        let (lo, lo_err) = two_sum(center[i], -extent[i]);
        let (hi, hi_err) = two_sum(center[i], extent[i]);
        min[i] = round_down(lo, lo_err);
        max[i] = round_up(hi, hi_err);
    }
    (min, max)
}

/// The box of [`bounds_around`]; `Err` where a bound overflows the width.
pub(crate) fn box_around<T: Real, const D: usize>(
    center: &SVector<f64, D>,
    extent: &SVector<f64, D>,
) -> Result<Aabb<T, D>, Error> {
    let (min, max) = bounds_around(center, extent);
    Aabb::new(min, max)
}

/// The box of [`bounds_around`] for [`crate::Shape::aabb`], which cannot fail: a bound beyond the
/// width's range is saturated at its largest finite value.
pub(crate) fn bounding_box<T: Real, const D: usize>(
    center: &SVector<f64, D>,
    extent: &SVector<f64, D>,
) -> Aabb<T, D> {
    let (min, max) = bounds_around::<T, D>(center, extent);
    let top = T::from_wide(T::MAX_WIDE);
    Aabb::from_ordered_bounds(min.map(|v| v.max(-top)), max.map(|v| v.min(top)))
}
