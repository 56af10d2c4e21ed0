//! A box's casts, through the slab core ([`LineQuery`]) and the swept box's ([`SweepQuery`]),
//! and [`Cast`] over them.

use nalgebra::SVector;

use crate::batch::cast_rays_by_four;
use crate::bounds::Aabb;
use crate::cast::{self, Contact, Crossing, LineQuery, Origin, SweepQuery, unit};
use crate::core::exact::{Products, two_sum};
use crate::core::quadratic::Shortcut;
use crate::core::slab::{LineBox, entry_normal, entry_point, line_box};
use crate::core::swept_box::{first_touch, grown_box, touches};
use crate::fused::with_fused_products;
use crate::hit::{Hit, Span};
use crate::ray::{Ray, length};
use crate::real::{Real, widen};
use crate::traits::Cast;

impl<T: Real, const D: usize> Aabb<T, D> {
    /// The line's origin and the box's bounds, in the working precision, as the slab and the sweep
    /// read them for the line from `origin`: the ray's own origin and the bounds; or, where
    /// `origin` holds a vector `lo` beyond the ray's origin `o`, the origin zero and the bounds
    /// moved by `−(o + lo)`, each `(b − o) − lo` with `b − o` carried exactly as a sum of two
    /// (two-sum; within an ulp of the exact difference, where the slab's own `b − o` is within
    /// half an ulp).
    #[inline(always)]
    fn framed<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
    ) -> (SVector<f64, D>, SVector<f64, D>, SVector<f64, D>) {
        let o = widen(&ray.origin().coords);
        let (min, max) = (widen(&self.min().coords), widen(&self.max().coords));
        match origin.beyond() {
            None => (o, min, max),
            Some(lo) => {
                let moved = |b: &SVector<f64, D>| {
                    SVector::from_fn(|i, _| {
                        let (hi, err) = two_sum(b[i], -o[i]);
                        hi + (err - lo[i])
                    })
                };
                (SVector::zeros(), moved(&min), moved(&max))
            }
        }
    }

    /// [`SweepQuery::sweep`], its error-free products formed by `products`.
    #[inline(always)]
    fn sweep_with<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        radius: f64,
        with_exit: bool,
        products: Products,
    ) -> Option<Crossing<SVector<f64, D>>> {
        let n = ray.working_dir();
        let (o, min, max, grown) = match origin.beyond() {
            None => {
                let o = widen(&ray.origin().coords);
                let (min, max) = (widen(&self.min().coords), widen(&self.max().coords));
                // The grown box reads the origin from the ray, not from `o`: the compiler copies
                // `o` to the stack in a 16- and an 8-byte piece, and the slab's 16-byte load of
                // its last two coordinates, straight after, could not be forwarded from them and
                // waited (f64 box sweep 345 → 266 cycles; docs/performance.md).
                let grown = grown_box(&widen(&ray.origin().coords), &n, &min, &max, radius)?;
                (o, min, max, grown)
            }
            Some(_) => {
                let (o, min, max) = self.framed(ray, origin);
                let grown = grown_box(&o, &n, &min, &max, radius)?;
                (o, min, max, grown)
            }
        };
        // The contact point is built from the centre, not from the core's closest approach: only
        // the core's distances matter here.
        let shortcut = Shortcut::distances_only::<T>().with_products(products);
        let enter = first_touch(&o, &n, &min, &max, radius, grown.enter, shortcut)?;
        // The last touch is the first touch of the ball moving the other way.
        let exit = if with_exit {
            first_touch(&o, &-n, &min, &max, radius, -grown.exit, shortcut).map_or(enter, |t| -t)
        } else {
            enter
        };
        Some(Crossing {
            enter,
            exit: exit.max(enter),
            inside: touches(&o, &min, &max, radius, products),
            entry: n,
        })
    }
}

/// What a box crossing keeps for its contact: the slab result, whose distances run along the
/// stored direction ([`Ray::stored_dir`]), and that direction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxEntry<const D: usize> {
    slab: LineBox<D>,
    dir: SVector<f64, D>,
}

impl<T: Real, const D: usize> LineQuery<T, D> for Aabb<T, D> {
    type Entry = BoxEntry<D>;

    /// The entry point is clamped into the box.
    const POINT_BOUNDED: bool = true;

    /// In both widths (docs/performance.md).
    const PLAIN_GROUPS: bool = true;

    #[inline(always)]
    fn crossing<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        _: Products,
    ) -> Option<Crossing<Self::Entry>> {
        // The slab runs along the stored direction; its distances, times the direction's length,
        // are Euclidean, and its entry point needs no length at all.
        let dir = ray.stored_dir();
        let len = length::<T, f64, D>(&dir.into());
        let (o, min, max) = self.framed(ray, origin);
        let slab = line_box(&o, &dir, &min, &max)?;
        Some(Crossing {
            enter: slab.enter * len,
            exit: slab.exit * len,
            inside: slab.inside,
            entry: BoxEntry { slab, dir },
        })
    }

    /// From the ray's origin whatever `origin` holds beyond it: the entry point's coordinates are
    /// its plane's and the others are clamped to the box, so that leaving out at most an ulp of
    /// the origin costs no more than the rounding of `o + t·n` itself.
    #[inline(always)]
    fn contact<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        _origin: O,
        crossing: &Crossing<Self::Entry>,
    ) -> Contact<D> {
        let e = &crossing.entry;
        let point = entry_point(
            &e.slab,
            &widen(&ray.origin().coords),
            &e.dir,
            &widen(&self.min().coords),
            &widen(&self.max().coords),
        );
        // A face normal: an axis vector, already unit.
        (point, Some(entry_normal(&e.slab, &e.dir)))
    }
}

impl<T: Real, const D: usize> SweepQuery<T, D> for Aabb<T, D> {
    /// The working direction.
    type Contact = SVector<f64, D>;

    #[inline]
    fn sweep<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        radius: f64,
        with_exit: bool,
        _: Products,
    ) -> Option<Crossing<Self::Contact>> {
        // In the FMA copy where the CPU has it, whatever the caller's code: the error-free products
        // of the edges and corners outweigh the call (docs/performance.md).
        with_fused_products(
            #[inline(always)]
            |products| self.sweep_with(ray, origin, radius, with_exit, products),
        )
    }

    /// The contact is the point of the box nearest to the ball's centre at the first touch (the
    /// centre from the ray's origin whatever `origin` holds beyond it, as for the crossing's
    /// contact).
    #[inline]
    fn sweep_contact<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        _origin: O,
        _radius: f64,
        crossing: &Crossing<Self::Contact>,
    ) -> Contact<D> {
        let centre = widen(&ray.origin().coords) + crossing.entry * crossing.enter;
        let (min, max) = (widen(&self.min().coords), widen(&self.max().coords));
        let point = SVector::from_fn(|i, _| centre[i].clamp(min[i], max[i]));
        (point, unit(&(centre - point)))
    }
}

impl<T: Real, const D: usize> Cast<T, D> for Aabb<T, D> {
    crate::traits::moved_queries!(crate::fused::with_split_products);

    /// See [`Cast::cast_ray`].
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Rect};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let r = Rect::new(Point2::new(1.0, -1.0), Point2::new(2.0, 1.0))?;
    /// let hit = r.cast_ray(&Ray::new(Point2::origin(), Vector2::x())?, 5.0).unwrap();
    /// assert_eq!((hit.distance, hit.normal.into_inner()), (1.0, -Vector2::x()));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline(always)]
    fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<Hit<T, D>> {
        cast::cast_ray(self, ray, max_distance, Products::Split)
    }

    /// See [`Cast::cast_rays`]: the rays go through the slab core four at a time, with the same
    /// operations as [`Cast::cast_ray`] lane by lane, so the hits are its bits.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Aabb, Cast, Ray};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let square = Aabb::new(Point2::new(-1.0f32, 4.0), Point2::new(1.0, 6.0))?;
    /// let rays: Vec<_> = (0..7)
    ///     .map(|i| Ray::new(Point2::new(i as f32 * 0.5, 0.0), Vector2::y()))
    ///     .collect::<Result<_, _>>()?;
    /// let mut hits = vec![None; rays.len()];
    /// square.cast_rays(&rays, 10.0, &mut hits);
    /// for (ray, hit) in rays.iter().zip(&hits) {
    ///     assert_eq!(*hit, square.cast_ray(ray, 10.0));
    /// }
    /// // x = 0, 0.5 and 1 (along the face) hit.
    /// assert_eq!(hits.iter().filter(|h| h.is_some()).count(), 3);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn cast_rays(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<Hit<T, D>>]) {
        cast_rays_by_four(self, rays, max_distance, hits);
    }

    /// See [`Cast::cast_sphere`]: the exact swept box, with rounded edges and corners.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Rect};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let r = Rect::new(Point2::new(0.0, 0.0), Point2::new(1.0, 1.0))?;
    /// // Level with the top edge: the ball meets the corner (0, 1), not the grown box's face.
    /// let ray = Ray::new(Point2::new(-5.0, 1.5), Vector2::x())?;
    /// let hit = r.cast_sphere(&ray, 1.0, 10.0).unwrap();
    /// assert_eq!(hit.point, Point2::new(0.0, 1.0));
    /// assert_eq!(hit.distance, 5.0 - 0.75f64.sqrt());
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn cast_sphere(&self, ray: &Ray<T, D>, radius: T, max_distance: T) -> Option<Hit<T, D>> {
        cast::cast_sphere(self, ray, radius, max_distance, Products::Split)
    }

    /// See [`Cast::ray_span`].
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Rect};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let r = Rect::new(Point2::new(1.0, -1.0), Point2::new(2.0, 1.0))?;
    /// let span = r.ray_span(&Ray::new(Point2::new(1.5, 0.0), Vector2::y())?).unwrap();
    /// assert_eq!((span.enter, span.exit), (-1.0, 1.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn ray_span(&self, ray: &Ray<T, D>) -> Option<Span<T>> {
        cast::ray_span(self, ray, Products::Split)
    }

    /// See [`Cast::sphere_span`].
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Aabb, Cast, Ray};
    /// use raysweep::nalgebra::{Point3, Vector3};
    ///
    /// let b = Aabb::new(Point3::new(-1.0, -1.0, -1.0), Point3::new(1.0, 1.0, 1.0))?;
    /// let span = b.sphere_span(&Ray::new(Point3::new(0.0, 0.0, -5.0), Vector3::z())?, 0.5).unwrap();
    /// assert_eq!((span.enter, span.exit), (3.5, 6.5));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn sphere_span(&self, ray: &Ray<T, D>, radius: T) -> Option<Span<T>> {
        cast::sphere_span(self, ray, radius, Products::Split)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cast::AtRay;
    use crate::shape::products_agree::{
        aimed_ray, assert_products_agree, away, ball, centre, power_of_ten, uniform,
    };
    use rand::Rng;

    /// [`assert_products_agree`] for the box's sweep: rays aimed near its edges and corners, where
    /// the sweep solves the quadratic core, from up to `10^6` sizes away, some with a direction
    /// component far below the others.
    #[test]
    fn split_and_fused_products_sweep_alike() {
        assert_products_agree(0xb0c5, 4000, |rng| {
            let scale = power_of_ten(rng, -3..4);
            let half = uniform(rng, 0.1, 2.0) * scale;
            let centre = centre(rng);
            let aabb = Aabb::from_center(centre, half).unwrap();
            let corner = half.map(|h| if rng.random_bool(0.5) { h } else { -h });
            let aim = corner + uniform(rng, -0.3, 0.3) * scale;
            let from = away(rng, scale, 0..7);
            let ray = aimed_ray(rng, centre, from, aim)?;
            let radius = ball(rng, scale);
            let what = format!("{ray:?} against {aabb:?}, ball {radius}");
            Some((what, move |products| {
                let sweep = |with_exit| aabb.sweep_with(&ray, AtRay, radius, with_exit, products);
                (sweep(false), sweep(true))
            }))
        });
    }
}
