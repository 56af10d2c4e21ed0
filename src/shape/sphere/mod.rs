//! Spheres (balls) and circles: the solid, its constructor and accessors, and `contains`. Its
//! casts are in [`casts`], its batch lanes in [`lanes`], its point queries in
//! `src/point/sphere.rs`.

use nalgebra::{Point, SVector};

use crate::bounds::{Aabb, bounding_box};
use crate::cast::{Beyond, Origin};
use crate::core::exact::Products;
use crate::core::quadratic::Offset;
use crate::error::{Error, check_finite};
use crate::real::{Real, widen};
use crate::shape::inside;
use crate::traits::Shape;

mod casts;
mod lanes;

/// A closed ball: every point within `radius` of `center`.
///
/// Ray casts solve the quadratic in the working precision, in a form that keeps far origins and
/// grazing rays precise ([the method](https://github.com/raysweep/raysweep/blob/main/docs/precision.md)).
///
/// # Example
///
/// ```
/// use raysweep::{Cast, Ray, Sphere};
/// use raysweep::nalgebra::{Point3, Vector3};
///
/// let ball = Sphere::new(Point3::new(0.0f32, 0.0, 10.0), 2.0)?;
/// let ray = Ray::new(Point3::origin(), Vector3::z())?;
/// assert_eq!(ball.cast_ray(&ray, 100.0).unwrap().distance, 8.0);
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere<T: Real, const D: usize = 3> {
    center: Point<T, D>,
    radius: T,
}

/// A closed disc in the plane.
///
/// # Example
///
/// ```
/// use raysweep::{Circle, Shape};
/// use raysweep::nalgebra::Point2;
///
/// let disc: Circle<f64> = Circle::new(Point2::new(1.0, 1.0), 0.5)?;
/// assert!(disc.contains(&Point2::new(1.5, 1.0)));
/// # Ok::<(), raysweep::Error>(())
/// ```
pub type Circle<T> = Sphere<T, 2>;

impl<T: Real, const D: usize> Sphere<T, D> {
    /// The same ball in `f64` (exact).
    pub(crate) fn widened(&self) -> Sphere<f64, D> {
        Sphere {
            center: Point::from(widen(&self.center.coords)),
            radius: self.radius.to_wide(),
        }
    }

    /// The ball of `radius` around `center`. A zero radius is accepted: the ball is a point
    /// (`-0.0` is stored as `+0.0`).
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a NaN or infinite coordinate or radius;
    /// [`Error::NegativeRadius`] for a radius below zero.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Error, Sphere};
    /// use raysweep::nalgebra::Point3;
    ///
    /// assert!(Sphere::new(Point3::origin(), 0.0f32).is_ok());
    /// let point = Sphere::new(Point3::origin(), -0.0f32)?;
    /// assert!(point.radius().is_sign_positive());
    /// assert_eq!(
    ///     Sphere::new(Point3::origin(), f32::NAN).unwrap_err().to_string(),
    ///     "radius is not finite: NaN"
    /// );
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn new(center: Point<T, D>, radius: T) -> Result<Self, Error> {
        check_finite("center", center.iter().map(|v| v.to_wide()))?;
        check_finite("radius", [radius.to_wide()])?;
        if radius < T::zero() {
            return Err(Error::NegativeRadius {
                radius: radius.to_wide(),
            });
        }
        // `-0.0 + 0.0` is `+0.0`; every other radius is unchanged.
        let radius = radius + T::zero();
        Ok(Sphere { center, radius })
    }

    /// The centre.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Sphere;
    /// use raysweep::nalgebra::Point2;
    ///
    /// assert_eq!(*Sphere::new(Point2::new(1.0, 2.0), 3.0)?.center(), Point2::new(1.0, 2.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn center(&self) -> &Point<T, D> {
        &self.center
    }

    /// The radius.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Sphere;
    /// use raysweep::nalgebra::Point2;
    ///
    /// assert_eq!(Sphere::new(Point2::new(1.0, 2.0), 3.0)?.radius(), 3.0);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn radius(&self) -> T {
        self.radius
    }

    /// [`Shape::contains`] in twice the working precision: the sign of `|p − c|² − r²`.
    #[inline(never)]
    pub(super) fn contains_exactly(&self, p: &Point<T, D>) -> bool {
        self.offset(p).power(self.radius.to_wide(), Products::Split) <= 0.0
    }

    /// [`Shape::contains`] at `p + lo` (`lo` held apart exactly, [`Beyond`]): the sign of
    /// `|p + lo − c|² − r²` in twice the working precision.
    pub(crate) fn contains_beyond(&self, p: &Point<T, D>, lo: SVector<f64, D>) -> bool {
        Beyond(lo)
            .offset(self.offset(p))
            .power(self.radius.to_wide(), Products::Split)
            <= 0.0
    }

    fn offset(&self, p: &Point<T, D>) -> Offset<D> {
        Offset::between(&widen(&p.coords), &widen(&self.center.coords))
    }
}

impl<T: Real, const D: usize> Shape<T, D> for Sphere<T, D> {
    fn aabb(&self) -> Aabb<T, D> {
        let extent = SVector::repeat(self.radius.to_wide());
        bounding_box(&widen(&self.center.coords), &extent)
    }

    /// The plain `|p − c|² ≤ r²` in `f64` where a bound on its rounding error decides it, the
    /// exact sign of `|p − c|² − r²` elsewhere: exact, at the plain test's speed.
    #[inline]
    fn contains(&self, p: &Point<T, D>) -> bool {
        let r = self.radius.to_wide();
        let f = widen(&p.coords) - widen(&self.center.coords);
        inside::ball(&f, r).unwrap_or_else(|| self.contains_exactly(p))
    }
}
