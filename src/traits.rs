//! The two traits every shape implements.

use nalgebra::{Point, SVector, Unit};

use crate::bounds::Aabb;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::Real;

/// A closed solid in `D` dimensions.
///
/// # Example
///
/// ```
/// use raysweep::{Shape, Sphere};
/// use raysweep::nalgebra::Point2;
///
/// let circle = Sphere::new(Point2::new(1.0, 0.0), 1.0)?;
/// assert!(circle.contains(&Point2::new(2.0, 0.0))); // the surface counts
/// assert_eq!(*circle.aabb().max(), Point2::new(2.0, 1.0));
/// # Ok::<(), raysweep::Error>(())
/// ```
pub trait Shape<T: Real, const D: usize = 3> {
    /// The smallest box of this width that contains the solid (for an oriented ellipsoid, within
    /// a few ulps of it: its extents are irrational). Where the solid reaches beyond the width's
    /// range, the box stops at the largest finite value.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Ellipsoid, Shape};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let e = Ellipsoid::new(Point2::new(1.0, 1.0), Vector2::new(2.0, 0.5))?;
    /// let b = e.aabb();
    /// assert_eq!((*b.min(), *b.max()), (Point2::new(-1.0, 0.5), Point2::new(3.0, 1.5)));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn aabb(&self) -> Aabb<T, D>;

    /// Whether `p` lies in the closed solid (the surface counts).
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Aabb, Shape};
    /// use raysweep::nalgebra::Point3;
    ///
    /// let b = Aabb::new(Point3::origin(), Point3::new(1.0f32, 1.0, 1.0))?;
    /// assert!(b.contains(&Point3::new(1.0, 0.5, 0.0)));
    /// assert!(!b.contains(&Point3::new(1.0f32.next_up(), 0.5, 0.0)));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn contains(&self, p: &Point<T, D>) -> bool;
}

/// Ray casts, sphere casts and spans against a solid.
///
/// All distances are Euclidean, along the ray's unit direction from its origin. The solid is
/// closed: a tangent ray, or one exactly along a face, hits. Casts never panic and never return
/// NaN; an answer is a well-formed [`Hit`] or `None`.
///
/// # Example
///
/// ```
/// use raysweep::{Aabb, Cast, Ray};
/// use raysweep::nalgebra::{Point3, Vector3};
///
/// let boxed = Aabb::new(Point3::new(1.0, -1.0, -1.0), Point3::new(2.0, 1.0, 1.0))?;
/// let ray = Ray::new(Point3::origin(), Vector3::x())?;
/// assert_eq!(boxed.cast_ray(&ray, 10.0).unwrap().distance, 1.0);
/// assert_eq!(boxed.cast_ray(&ray, 0.5), None);
/// assert_eq!(boxed.ray_span(&ray).unwrap().length(), 1.0);
/// # Ok::<(), raysweep::Error>(())
/// ```
pub trait Cast<T: Real, const D: usize = 3>: Shape<T, D> {
    /// The first contact of `ray` with the solid at a distance in `[0, max_distance]` (both ends
    /// included; `max_distance` may be `+∞`).
    ///
    /// If the origin lies in the closed solid the hit is at distance 0, at the origin, with normal
    /// `-dir`. A NaN or negative `max_distance` gives `None`.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Sphere};
    /// use raysweep::nalgebra::{Point3, Vector3};
    ///
    /// let ball = Sphere::new(Point3::origin(), 1.0)?;
    /// let inside = Ray::new(Point3::new(0.5, 0.0, 0.0), Vector3::y())?;
    /// let hit = ball.cast_ray(&inside, 10.0).unwrap();
    /// assert_eq!((hit.distance, hit.point), (0.0, Point3::new(0.5, 0.0, 0.0)));
    /// assert_eq!(hit.normal.into_inner(), -Vector3::y());
    /// assert_eq!(ball.cast_ray(&inside, f64::NAN), None);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<Hit<T, D>>;

    /// The first contact of a ball of `radius`, its centre moving along `ray`, with the solid,
    /// for a centre travel in `[0, max_distance]`.
    ///
    /// `distance` is the centre's travel, `point` the contact point on the solid's surface and
    /// `normal` the solid's outward normal there. A ball touching the solid at the start gives
    /// distance 0, the origin as point and `-dir` as normal. A NaN, negative or infinite `radius`,
    /// or a NaN or negative `max_distance`, gives `None`; `radius == 0` is exactly
    /// [`Cast::cast_ray`], bit for bit.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Rect};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let r = Rect::new(Point2::new(0.0, 0.0), Point2::new(2.0, 2.0))?;
    /// let ray = Ray::new(Point2::new(-5.0, 1.0), Vector2::x())?;
    /// let hit = r.cast_sphere(&ray, 0.5, 10.0).unwrap();
    /// assert_eq!((hit.distance, hit.point), (4.5, Point2::new(0.0, 1.0)));
    /// assert_eq!(r.cast_sphere(&ray, 0.0, 10.0), r.cast_ray(&ray, 10.0));
    /// assert_eq!(r.cast_sphere(&ray, -1.0, 10.0), None);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn cast_sphere(&self, ray: &Ray<T, D>, radius: T, max_distance: T) -> Option<Hit<T, D>>;

    /// The distances, over the whole infinite line through `ray`, where the line is in the solid;
    /// `None` where the line misses. `exit - enter` is the chord length through the solid.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Sphere};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// // The line passes behind the origin too: the entry is at a negative distance.
    /// let c = Sphere::new(Point2::origin(), 5.0)?;
    /// let span = c.ray_span(&Ray::new(Point2::new(0.0, 3.0), Vector2::x())?).unwrap();
    /// assert_eq!((span.enter, span.exit, span.length()), (-4.0, 4.0, 8.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn ray_span(&self, ray: &Ray<T, D>) -> Option<Span<T>>;

    /// The distances, over the whole line, where a ball of `radius` centred on the line touches
    /// the solid; `None` where it never does, or for a NaN, negative or infinite `radius`.
    /// `exit - enter` is the length of the swept chord.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Sphere};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let c = Sphere::new(Point2::origin(), 1.0)?;
    /// let span = c.sphere_span(&Ray::new(Point2::new(-5.0, 0.0), Vector2::x())?, 1.0).unwrap();
    /// assert_eq!((span.enter, span.exit), (3.0, 7.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn sphere_span(&self, ray: &Ray<T, D>, radius: T) -> Option<Span<T>>;

    /// `hits[i] = self.cast_ray(&rays[i], max_distance)` for every `i`, bit for bit.
    ///
    /// [`Sphere`](crate::Sphere) and [`Aabb`] run their core on four rays at once
    /// (with AVX2, or for the sphere AVX-512, where the CPU has it, detected at run time; the
    /// environment variable `RAYSWEEP_MAX_REGISTERS=base|avx2|avx512` caps that); the other
    /// shapes cast the rays one by one. The bits are those of `cast_ray` either way.
    ///
    /// # Panics
    ///
    /// If `rays` and `hits` differ in length.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Aabb, Cast, Ray};
    /// use raysweep::nalgebra::{Point3, Vector3};
    ///
    /// let b = Aabb::new(Point3::new(1.0, -1.0, -1.0), Point3::new(2.0, 1.0, 1.0))?;
    /// let rays = [
    ///     Ray::new(Point3::origin(), Vector3::x())?,
    ///     Ray::new(Point3::origin(), -Vector3::x())?,
    /// ];
    /// let mut hits = [None; 2];
    /// b.cast_rays(&rays, 10.0, &mut hits);
    /// assert_eq!(hits, [b.cast_ray(&rays[0], 10.0), None]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn cast_rays(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<Hit<T, D>>]) {
        crate::cast::assert_batch_lengths("cast_rays", rays.len(), hits.len());
        for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
            *hit = self.cast_ray(ray, max_distance);
        }
    }

    /// The crate's hook, not part of the API (no code outside the crate can name [`Sealed`], so
    /// none can call or override it): the hit from `ray`'s origin plus `lo`, held apart exactly,
    /// in `f64`, as [`Cast::cast_ray`] (`radius` `None`) or [`Cast::cast_sphere`] give it.
    /// raysweep's shapes answer (`Some`) with the shape widened exactly; for any other shape
    /// (`None`), an [`Instance`](crate::Instance) asks the shape from the origin rounded to its
    /// width (`src/scene/instance/moved.rs`).
    #[doc(hidden)]
    fn moved_cast(
        &self,
        _: Sealed,
        ray: &Ray<f64, D>,
        lo: SVector<f64, D>,
        radius: Option<f64>,
        max_distance: f64,
    ) -> Option<Option<Hit<f64, D>>> {
        let _ = (ray, lo, radius, max_distance);
        None
    }

    /// The crate's hook, as [`Cast::moved_cast`]: [`Cast::ray_span`] (`radius` `None`) or
    /// [`Cast::sphere_span`] from `ray`'s origin plus `lo`.
    #[doc(hidden)]
    fn moved_span(
        &self,
        _: Sealed,
        ray: &Ray<f64, D>,
        lo: SVector<f64, D>,
        radius: Option<f64>,
    ) -> Option<Option<Span<f64>>> {
        let _ = (ray, lo, radius);
        None
    }

    /// The crate's hook, as [`Cast::moved_cast`]: [`Shape::contains`] at `p + lo`, exactly.
    #[doc(hidden)]
    fn moved_contains(&self, _: Sealed, p: &Point<f64, D>, lo: SVector<f64, D>) -> Option<bool> {
        let _ = (p, lo);
        None
    }

    /// The crate's hook, as [`Cast::moved_cast`]: the outward unit normal where the whole line
    /// through `ray`'s origin plus `lo` enters the solid (`Some(None)` where it misses or only
    /// touches it), for a scene's next crossing (asked of the reversed line for an exit).
    #[doc(hidden)]
    fn line_entry_normal(
        &self,
        _: Sealed,
        ray: &Ray<f64, D>,
        lo: SVector<f64, D>,
    ) -> Option<Option<Unit<SVector<f64, D>>>> {
        let _ = (ray, lo);
        None
    }

    /// [`Cast::cast_rays`] spread over rayon's thread pool in chunks of 1024 rays: the same bits,
    /// for batches large enough to repay the hand-off (tens of thousands of rays). Available with
    /// the crate feature `rayon` (`raysweep = { version = "…", features = ["rayon"] }`).
    ///
    /// # Panics
    ///
    /// If `rays` and `hits` differ in length.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Sphere};
    /// use raysweep::nalgebra::{Point3, Vector3};
    ///
    /// let ball = Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?;
    /// let rays: Vec<_> = (0..5000)
    ///     .map(|i| Ray::new(Point3::new(i as f64 * 1e-3, 0.0, 0.0), Vector3::z()))
    ///     .collect::<Result<_, _>>()?;
    /// let (mut serial, mut parallel) = (vec![None; rays.len()], vec![None; rays.len()]);
    /// ball.cast_rays(&rays, 100.0, &mut serial);
    /// ball.cast_rays_par(&rays, 100.0, &mut parallel);
    /// assert_eq!(serial, parallel);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    fn cast_rays_par(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<Hit<T, D>>])
    where
        Self: Sync,
    {
        use rayon::prelude::*;
        crate::cast::assert_batch_lengths("cast_rays_par", rays.len(), hits.len());
        const CHUNK: usize = 1024;
        rays.par_chunks(CHUNK)
            .zip(hits.par_chunks_mut(CHUNK))
            .for_each(|(rays, hits)| self.cast_rays(rays, max_distance, hits));
    }
}

/// The token the crate passes to its hooks on [`Cast`] and [`PointQuery`](crate::PointQuery).
/// It lives in a private module and is not re-exported, so no code outside the crate can name
/// it: a user's shape can neither call the hooks nor override them, and keeps their defaults,
/// which leave every question to the shape's own methods in its own width.
#[derive(Clone, Copy, Debug)]
pub struct Sealed(pub(crate) ());

/// The hooks of [`Cast`] through which an instance asks one of the crate's shapes from an origin
/// moved exactly ([`Cast::moved_cast`], [`Cast::moved_span`], [`Cast::moved_contains`]): the
/// shape widened exactly to `f64` (`widened`), its error-free products formed by `$with`
/// (`with_fused_products` where the shape's casts detect FMA, `with_split_products`
/// otherwise).
macro_rules! moved_queries {
    ($with:path) => {
        #[doc(hidden)]
        fn moved_cast(
            &self,
            _: $crate::traits::Sealed,
            ray: &$crate::ray::Ray<f64, D>,
            lo: nalgebra::SVector<f64, D>,
            radius: Option<f64>,
            max_distance: f64,
        ) -> Option<Option<$crate::hit::Hit<f64, D>>> {
            let wide = self.widened();
            Some($with(
                #[inline(always)]
                |products| {
                    $crate::cast::cast_beyond(&wide, ray, lo, radius, max_distance, products)
                },
            ))
        }

        #[doc(hidden)]
        fn moved_span(
            &self,
            _: $crate::traits::Sealed,
            ray: &$crate::ray::Ray<f64, D>,
            lo: nalgebra::SVector<f64, D>,
            radius: Option<f64>,
        ) -> Option<Option<$crate::hit::Span<f64>>> {
            let wide = self.widened();
            let origin = $crate::cast::Beyond(lo);
            Some($with(
                #[inline(always)]
                |products| match radius {
                    None => $crate::cast::ray_span_from(&wide, ray, origin, products),
                    Some(r) => $crate::cast::sphere_span_from(&wide, ray, origin, r, products),
                },
            ))
        }

        #[doc(hidden)]
        fn moved_contains(
            &self,
            _: $crate::traits::Sealed,
            p: &nalgebra::Point<f64, D>,
            lo: nalgebra::SVector<f64, D>,
        ) -> Option<bool> {
            Some(self.widened().contains_beyond(p, lo))
        }

        #[doc(hidden)]
        fn line_entry_normal(
            &self,
            _: $crate::traits::Sealed,
            ray: &$crate::ray::Ray<f64, D>,
            lo: nalgebra::SVector<f64, D>,
        ) -> Option<Option<nalgebra::Unit<nalgebra::SVector<f64, D>>>> {
            let wide = self.widened();
            let origin = $crate::cast::Beyond(lo);
            let normal = $with(
                #[inline(always)]
                |products| $crate::cast::entry_normal_from(&wide, ray, origin, products),
            );
            Some(normal.map(nalgebra::Unit::new_unchecked))
        }
    };
}

pub(crate) use moved_queries;
