//! Any of raysweep's solids ([`Body`]), for scenes that mix them: each query is the solid's own,
//! through one dispatch ([`on_solid`]).

use nalgebra::{Point, SVector, Unit};

use super::{Ellipsoid, Sphere};
use crate::bounds::Aabb;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::Real;
use crate::traits::{Cast, Sealed, Shape};

/// Any of raysweep's solids, for scenes that mix them. Every query is the solid's own, bit for
/// bit; a scene of one kind of solid (`Scene<T, D, Sphere<T, D>>`) needs no enum.
///
/// # Example
///
/// ```
/// use raysweep::nalgebra::{Point3, Vector3};
/// use raysweep::{Aabb, Body, Cast, Ray, Sphere};
///
/// let ball: Body<f64> = Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?.into();
/// let slab: Body<f64> = Aabb::new(Point3::new(-1.0, -1.0, 9.0), Point3::new(1.0, 1.0, 10.0))?.into();
/// let ray = Ray::new(Point3::origin(), Vector3::z())?;
/// assert_eq!(ball.cast_ray(&ray, 100.0).unwrap().distance, 4.0);
/// assert_eq!(slab.cast_ray(&ray, 100.0).unwrap().distance, 9.0);
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "T: serde::Serialize",
        deserialize = "T: serde::Deserialize<'de>"
    ))
)]
pub enum Body<T: Real, const D: usize = 3> {
    /// A ball.
    Sphere(Sphere<T, D>),
    /// An ellipsoid, axis-aligned or oriented.
    Ellipsoid(Ellipsoid<T, D>),
    /// An axis-aligned box.
    Aabb(Aabb<T, D>),
}

impl<T: Real, const D: usize> From<Sphere<T, D>> for Body<T, D> {
    fn from(sphere: Sphere<T, D>) -> Self {
        Body::Sphere(sphere)
    }
}

impl<T: Real, const D: usize> From<Ellipsoid<T, D>> for Body<T, D> {
    fn from(ellipsoid: Ellipsoid<T, D>) -> Self {
        Body::Ellipsoid(ellipsoid)
    }
}

impl<T: Real, const D: usize> From<Aabb<T, D>> for Body<T, D> {
    fn from(aabb: Aabb<T, D>) -> Self {
        Body::Aabb(aabb)
    }
}

/// `$call` on the solid a body holds.
macro_rules! on_solid {
    ($body:expr, $solid:ident => $call:expr) => {
        match $body {
            Body::Sphere($solid) => $call,
            Body::Ellipsoid($solid) => $call,
            Body::Aabb($solid) => $call,
        }
    };
}

impl<T: Real, const D: usize> Shape<T, D> for Body<T, D> {
    #[inline]
    fn aabb(&self) -> Aabb<T, D> {
        on_solid!(self, s => s.aabb())
    }

    #[inline]
    fn contains(&self, p: &Point<T, D>) -> bool {
        on_solid!(self, s => s.contains(p))
    }
}

impl<T: Real, const D: usize> Cast<T, D> for Body<T, D> {
    #[inline]
    fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<Hit<T, D>> {
        on_solid!(self, s => s.cast_ray(ray, max_distance))
    }

    #[inline]
    fn cast_sphere(&self, ray: &Ray<T, D>, radius: T, max_distance: T) -> Option<Hit<T, D>> {
        on_solid!(self, s => s.cast_sphere(ray, radius, max_distance))
    }

    #[inline]
    fn ray_span(&self, ray: &Ray<T, D>) -> Option<Span<T>> {
        on_solid!(self, s => s.ray_span(ray))
    }

    #[inline]
    fn sphere_span(&self, ray: &Ray<T, D>, radius: T) -> Option<Span<T>> {
        on_solid!(self, s => s.sphere_span(ray, radius))
    }

    #[doc(hidden)]
    fn moved_cast(
        &self,
        token: Sealed,
        ray: &Ray<f64, D>,
        lo: SVector<f64, D>,
        radius: Option<f64>,
        max_distance: f64,
    ) -> Option<Option<Hit<f64, D>>> {
        on_solid!(self, s => s.moved_cast(token, ray, lo, radius, max_distance))
    }

    #[doc(hidden)]
    fn moved_span(
        &self,
        token: Sealed,
        ray: &Ray<f64, D>,
        lo: SVector<f64, D>,
        radius: Option<f64>,
    ) -> Option<Option<Span<f64>>> {
        on_solid!(self, s => s.moved_span(token, ray, lo, radius))
    }

    #[doc(hidden)]
    fn moved_contains(
        &self,
        token: Sealed,
        p: &Point<f64, D>,
        lo: SVector<f64, D>,
    ) -> Option<bool> {
        on_solid!(self, s => s.moved_contains(token, p, lo))
    }

    #[doc(hidden)]
    fn line_entry_normal(
        &self,
        token: Sealed,
        ray: &Ray<f64, D>,
        lo: SVector<f64, D>,
    ) -> Option<Option<Unit<SVector<f64, D>>>> {
        on_solid!(self, s => s.line_entry_normal(token, ray, lo))
    }

    /// The solid's own batch.
    fn cast_rays(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<Hit<T, D>>]) {
        on_solid!(self, s => s.cast_rays(rays, max_distance, hits))
    }
}

pub(crate) use on_solid;
