//! The bodies of a mixed scene ([`Body`]), and what a scene's queries return: a hit or a span with
//! the id of the body it came from.

use nalgebra::{Point, SVector, Unit};

use crate::bounds::Aabb;
use crate::cast::{self, Beyond};
use crate::core::exact::Products;
use crate::fused::with_fused_products;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::Real;
use crate::shape::{Ellipsoid, Sphere};
use crate::traits::{Cast, Shape};

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
    fn as_wide_body(&self) -> Option<Body<f64, D>> {
        on_solid!(self, s => s.as_wide_body())
    }

    /// The solid's own batch.
    fn cast_rays(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<Hit<T, D>>]) {
        on_solid!(self, s => s.cast_rays(rays, max_distance, hits))
    }
}

/// The queries of an instance whose moved origin is not a value of the width
/// (`src/scene/instance/moved.rs`): from `ray`'s origin plus `lo`, held apart exactly
/// ([`Beyond`]), with the products each shape's own casts take in `f64`.
impl<const D: usize> Body<f64, D> {
    /// [`Cast::cast_ray`] (`radius` `None`) or [`Cast::cast_sphere`] from the origin plus `lo`.
    pub(crate) fn cast_beyond(
        &self,
        ray: &Ray<f64, D>,
        lo: SVector<f64, D>,
        radius: Option<f64>,
        max_distance: f64,
    ) -> Option<Hit<f64, D>> {
        match self {
            Body::Sphere(s) => with_fused_products(
                #[inline(always)]
                |products| cast::cast_beyond(s, ray, lo, radius, max_distance, products),
            ),
            Body::Ellipsoid(e) => {
                cast::cast_beyond(e, ray, lo, radius, max_distance, Products::Split)
            }
            Body::Aabb(b) => cast::cast_beyond(b, ray, lo, radius, max_distance, Products::Split),
        }
    }

    /// [`Cast::ray_span`] from the origin plus `lo`.
    pub(crate) fn span_beyond(&self, ray: &Ray<f64, D>, lo: SVector<f64, D>) -> Option<Span<f64>> {
        match self {
            Body::Sphere(s) => with_fused_products(
                #[inline(always)]
                |products| cast::ray_span_from(s, ray, Beyond(lo), products),
            ),
            Body::Ellipsoid(e) => cast::ray_span_from(e, ray, Beyond(lo), Products::Split),
            Body::Aabb(b) => cast::ray_span_from(b, ray, Beyond(lo), Products::Split),
        }
    }

    /// [`Shape::contains`] at `p + lo`, exactly.
    pub(crate) fn contains_beyond(&self, p: &Point<f64, D>, lo: SVector<f64, D>) -> bool {
        on_solid!(self, s => s.contains_beyond(p, lo))
    }
}

/// A hit in a scene: the body's id (its index in the scene's bodies) and its hit.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyHit<T: Real, const D: usize = 3> {
    /// The id of the body hit.
    pub body: usize,
    /// The body's hit, the bits its own cast returns.
    pub hit: Hit<T, D>,
}

/// Where a line crosses one body of a scene: the body's id and its span.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodySpan<T: Real> {
    /// The id of the body crossed.
    pub body: usize,
    /// The body's span, the bits its own `ray_span` (or `sphere_span`) returns.
    pub span: Span<T>,
}

/// The body of a scene nearest to a point ([`Scene::nearest`](crate::Scene::nearest)): its id,
/// the point's signed distance to it, and the nearest point of its surface with the outward normal
/// there, the bits its own [`PointQuery`](crate::PointQuery) gives.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyNearest<T: Real, const D: usize = 3> {
    /// The id of the nearest body.
    pub body: usize,
    /// The point's signed distance to its surface: negative inside.
    pub signed_distance: T,
    /// The nearest point of its surface.
    pub point: Point<T, D>,
    /// Its outward unit normal at `point`.
    pub normal: Unit<SVector<T, D>>,
}
