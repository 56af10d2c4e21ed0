//! A sphere's casts: the quadratic core along a ray or a ball's path ([`LineQuery`],
//! [`SweepQuery`]), and [`Cast`] over them.

use nalgebra::SVector;

use super::Sphere;
use crate::batch::cast_rays_by_four;
use crate::cast::{self, Contact, Crossing, LineQuery, Origin, SweepQuery, unit};
use crate::core::exact::Products;
use crate::core::lane::{Lane, build};
use crate::core::quadratic::{LineBall, Shortcut, line_ball_or, line_ball_refused, point_scale};
use crate::core::unit::unit_in_range;
use crate::fused::with_fused_products;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::{Real, widen};
use crate::traits::Cast;

impl<T: Real, const D: usize> Sphere<T, D> {
    /// Whether contact normals are [`radial_normal`]s: for results narrower than `f64`.
    const RADIAL_NORMAL: bool = T::EPSILON_WIDE > f64::EPSILON;

    /// Where the line through `ray` is within `reach` of the centre: the quadratic core, along the
    /// ray's stored direction (which [`Shortcut::along_ray`] allows), its error-free products
    /// formed by `products`.
    #[inline(always)]
    fn crossing_within<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        reach: f64,
        products: Products,
    ) -> Option<Crossing<(LineBall<D>, SVector<f64, D>)>> {
        let n = ray.stored_dir();
        let x = line_ball_or(
            &origin.offset(self.offset(ray.origin())),
            &n,
            reach,
            self.shortcut(products),
            || self.refused_crossing(ray, origin, reach),
        )?;
        Some(Crossing {
            enter: x.near,
            exit: x.far,
            inside: x.inside,
            entry: (x, n),
        })
    }

    /// [`line_ball_refused`] for the line through `ray` and the ball of radius `reach`, out of
    /// line: nearly every line near the ball is accepted at once, and a cast that carried this
    /// code, or stored its inputs for a call, was slower for it (docs/performance.md). The
    /// inputs are read anew from the ray and the sphere, and the products chosen anew, as the
    /// caller's were ([`Sphere::with_products`]): this function is not compiled for FMA.
    #[inline(never)]
    fn refused_crossing<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        reach: f64,
    ) -> Option<LineBall<D>> {
        Self::with_products(
            #[inline(always)]
            |products| {
                let n = ray.stored_dir().into();
                let f = origin.offset(self.offset(ray.origin()));
                let (meets, x) = line_ball_refused(&f, &n, reach, self.shortcut(products));
                meets.then_some(x)
            },
        )
    }

    /// `query` with the [`Products`] this sphere's casts use: for `f64` results, whose plain
    /// evaluation forms its closest approach with exact products, [`with_fused_products`] (on
    /// x86, outside the caller's code); for narrower ones, whose plain evaluation has none, in
    /// line with [`Products::Split`] for the rare lines [`Sphere::refused_crossing`] decides
    /// anyway.
    /// (Their batch may take [`Products::Fused`], and returns the same bits: the products of
    /// values widened from `f32`, even scaled by the powers of two of the compensated path, have
    /// rounding errors above `2^-700`, far from the subnormal range where the kinds differ.)
    #[inline(always)]
    fn with_products<R>(query: impl FnOnce(Products) -> R) -> R {
        if Self::RADIAL_NORMAL {
            query(Products::Split)
        } else {
            with_fused_products(query)
        }
    }

    /// Whether a contact on the ball of radius `reach` takes the [`radial_normal`]: where
    /// [`Sphere::RADIAL_NORMAL`], on a ball that is not a point. The batch decides by this too.
    #[inline(always)]
    pub(super) fn radial(reach: f64) -> bool {
        Self::RADIAL_NORMAL && reach > 0.0
    }

    /// The outward unit normal at a contact `h` from the centre, on the ball of radius `reach`
    /// that the crossing was found with: [`radial_normal`] where [`Sphere::radial`], `h/|h|`
    /// otherwise; `None` for a point ball.
    #[inline(always)]
    fn normal(h: &SVector<f64, D>, reach: f64) -> Option<SVector<f64, D>> {
        if Self::radial(reach) {
            Some(radial_normal(&(*h).into(), 1.0 / reach).into())
        } else if Self::RADIAL_NORMAL {
            // A point ball.
            unit(h)
        } else {
            // `unit` in two steps, so that its usual case is in line: the `f64` casts compiled for
            // FMA did not inline all of it, and were slower for it (docs/performance.md, "Single
            // casts against parry").
            let (in_range, normal, _): (bool, [f64; D], _) = unit_in_range(&(*h).into());
            if in_range {
                Some(normal.into())
            } else {
                unit(h)
            }
        }
    }

    /// When the quadratic core may return its plain evaluation, for a line along a ray: a contact
    /// point on this sphere has a coordinate of magnitude at least `max(|c|∞ − r, r/√D)`. The
    /// offset is exact, so a far origin's line may be tried with a projected closest approach
    /// ([`Shortcut::projecting_refused`]). Its error-free products are formed by `products`.
    #[inline(always)]
    pub(super) fn shortcut(&self, products: Products) -> Shortcut {
        let r = self.radius.to_wide();
        Shortcut::of::<T>(point_scale(&widen(&self.center.coords), r, r))
            .along_ray()
            .projecting_refused()
            .with_products(products)
    }
}

/// The outward unit normal at a contact `h` from the centre of a ball of radius `r > 0`, as
/// `h·(1/r)`: for results narrower than `f64`, without the square root and the divisions of
/// `h/|h|` on the cast's critical path.
///
/// `|h|` is `r` up to the rounding of `h`. The plain evaluation of the quadratic core accepts a
/// line only where its discriminant is at least `2^-20·(|f|² + r²)`, and the discriminant is at
/// most `r²`, so the origin is within `2^10·r` of the centre; there the discriminant is off by
/// about `8·2^-53·(|f|² + r²) ≤ 2^-30·r²`, and `|h|² = |p|² + disc` by as much: `|h| = r·(1 ±
/// 2^-31)`. (The closest approach `p`, off by about `5·2^-53·|f|`, adds less.) The compensated
/// evaluation gives `h` to a few ulps. So `h/r` is unit to within `2^-30`, and rounds to `f32`
/// (ulp `2^-24`) as `h/|h|` does but for near-ties; an axis normal stays exact.
#[inline(always)]
pub(super) fn radial_normal<L: Lane, const D: usize>(h: &[L; D], inverse: L) -> [L; D] {
    build(|i| h[i] * inverse)
}

impl<T: Real, const D: usize> LineQuery<T, D> for Sphere<T, D> {
    type Entry = (LineBall<D>, SVector<f64, D>);

    /// In both widths: without it, the batch's lanes were spilled around its single casts
    /// (docs/performance.md).
    const PLAIN_GROUPS: bool = true;

    /// For results narrower than `f64`, where the radius and every coordinate of the centre are
    /// at most a quarter of the width's largest value. An entry point is `c + h` with `|h|`
    /// within `2^-30` of `r` relatively on the plain path (see [`radial_normal`]) and to a few
    /// ulps on the compensated one, so each of its coordinates is below about half the largest
    /// value and rounds to a finite one. Not for `f64`, whose batch was slower without the test
    /// (docs/performance.md).
    #[inline(always)]
    fn points_finite(&self) -> bool {
        let limit = T::MAX_WIDE / 4.0;
        T::EPSILON_WIDE > f64::EPSILON
            && self.radius.to_wide() <= limit
            && self.center.iter().all(|c| c.to_wide().abs() <= limit)
    }

    #[inline(always)]
    fn crossing<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        products: Products,
    ) -> Option<Crossing<Self::Entry>> {
        self.crossing_within(ray, origin, self.radius.to_wide(), products)
    }

    #[inline(always)]
    fn contact<O: Origin<D>>(
        &self,
        _ray: &Ray<T, D>,
        _origin: O,
        crossing: &Crossing<Self::Entry>,
    ) -> Contact<D> {
        let (x, n) = &crossing.entry;
        let h = x.entry_offset(n);
        (
            widen(&self.center.coords) + h,
            Self::normal(&h, self.radius.to_wide()),
        )
    }
}

impl<T: Real, const D: usize> SweepQuery<T, D> for Sphere<T, D> {
    type Contact = (LineBall<D>, SVector<f64, D>);

    /// A ball of radius `ρ` touches this one where its centre is within `r + ρ` of the centre:
    /// the line against the ball of the summed radius.
    #[inline(always)]
    fn sweep<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        radius: f64,
        _with_exit: bool,
        products: Products,
    ) -> Option<Crossing<Self::Contact>> {
        self.crossing_within(ray, origin, self.radius.to_wide() + radius, products)
    }

    /// The contact lies on the line of centres, at `r / (r + ρ)` of the way from this centre.
    #[inline(always)]
    fn sweep_contact<O: Origin<D>>(
        &self,
        _ray: &Ray<T, D>,
        _origin: O,
        radius: f64,
        crossing: &Crossing<Self::Contact>,
    ) -> Contact<D> {
        let (x, n) = &crossing.entry;
        let centres = x.entry_offset(n);
        let r = self.radius.to_wide();
        let reach = r + radius;
        (
            widen(&self.center.coords) + centres * (r / reach),
            Self::normal(&centres, reach),
        )
    }
}

impl<T: Real, const D: usize> Cast<T, D> for Sphere<T, D> {
    crate::traits::moved_queries!(crate::fused::with_fused_products);

    /// See [`Cast::cast_ray`].
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Sphere};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// // A unit circle 10^4 away in f32: the textbook formula is off by 0.87 here (it rounds the
    /// // discriminant to zero); this is correctly rounded.
    /// let circle = Sphere::new(Point2::new(1e4f32, 0.5), 1.0)?;
    /// let hit = circle.cast_ray(&Ray::new(Point2::origin(), Vector2::x())?, f32::INFINITY).unwrap();
    /// assert_eq!(hit.distance, (1e4 - 0.75f64.sqrt()) as f32);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline(always)]
    fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<Hit<T, D>> {
        Self::with_products(
            #[inline(always)]
            |products| cast::cast_ray(self, ray, max_distance, products),
        )
    }

    /// See [`Cast::cast_rays`]: the rays go through the quadratic core four at a time, with the
    /// same operations as [`Cast::cast_ray`] lane by lane, so the hits are its bits.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Sphere};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let circle = Sphere::new(Point2::new(0.0, 5.0), 1.0)?;
    /// let rays: Vec<_> = (0..7)
    ///     .map(|i| Ray::new(Point2::new(i as f64 * 0.3, 0.0), Vector2::y()))
    ///     .collect::<Result<_, _>>()?;
    /// let mut hits = vec![None; rays.len()];
    /// circle.cast_rays(&rays, 10.0, &mut hits);
    /// for (ray, hit) in rays.iter().zip(&hits) {
    ///     assert_eq!(*hit, circle.cast_ray(ray, 10.0));
    /// }
    /// assert_eq!(hits.iter().filter(|h| h.is_some()).count(), 4);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn cast_rays(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<Hit<T, D>>]) {
        cast_rays_by_four(self, rays, max_distance, hits);
    }

    /// See [`Cast::cast_sphere`]: the ray against the sphere of radius `self.radius() + radius`.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Sphere};
    /// use raysweep::nalgebra::{Point3, Vector3};
    ///
    /// let target = Sphere::new(Point3::new(10.0, 0.0, 0.0), 2.0)?;
    /// let ray = Ray::new(Point3::origin(), Vector3::x())?;
    /// let hit = target.cast_sphere(&ray, 1.0, 100.0).unwrap();
    /// assert_eq!(hit.distance, 7.0); // the centres are 3 apart at contact
    /// assert_eq!(hit.point, Point3::new(8.0, 0.0, 0.0)); // on the target's surface
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline(always)]
    fn cast_sphere(&self, ray: &Ray<T, D>, radius: T, max_distance: T) -> Option<Hit<T, D>> {
        Self::with_products(
            #[inline(always)]
            |products| cast::cast_sphere(self, ray, radius, max_distance, products),
        )
    }

    /// See [`Cast::ray_span`].
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ray, Sphere};
    /// use raysweep::nalgebra::{Point3, Vector3};
    ///
    /// let ball = Sphere::new(Point3::origin(), 5.0)?;
    /// let span = ball.ray_span(&Ray::new(Point3::new(0.0, 3.0, 0.0), Vector3::x())?).unwrap();
    /// assert_eq!((span.enter, span.exit), (-4.0, 4.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn ray_span(&self, ray: &Ray<T, D>) -> Option<Span<T>> {
        Self::with_products(
            #[inline(always)]
            |products| cast::ray_span(self, ray, products),
        )
    }

    /// See [`Cast::sphere_span`].
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Circle, Ray};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let target = Circle::new(Point2::origin(), 2.0)?;
    /// let span = target.sphere_span(&Ray::new(Point2::new(-10.0, 0.0), Vector2::x())?, 1.0).unwrap();
    /// assert_eq!((span.enter, span.exit), (7.0, 13.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn sphere_span(&self, ray: &Ray<T, D>, radius: T) -> Option<Span<T>> {
        Self::with_products(
            #[inline(always)]
            |products| cast::sphere_span(self, ray, radius, products),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::products_agree::{aimed_ray, assert_products_agree, away, centre, uniform};
    use rand::Rng;

    /// [`assert_products_agree`] for the sphere's casts, whose products [`Sphere::with_products`]
    /// chooses: radius 0 to `3·10^7`, origins up to `10^8` radii away, rays aimed within 1.5
    /// radii of the centre, some exactly through the rim, some with a direction component far
    /// below the others.
    #[test]
    fn split_and_fused_products_cast_alike() {
        assert_products_agree(0xf05e, 4000, |rng| {
            let radius = [0.0, 1e-9, 0.5, 1.0, 3e7][rng.random_range(0..5)];
            let centre = centre(rng);
            let sphere = Sphere::new(centre, radius).unwrap();
            let from = away(rng, radius.max(1e-3), 0..9);
            let mut aim = uniform(rng, -1.0, 1.0) * 1.5 * radius;
            if rng.random_bool(0.2) {
                aim = aim.normalize() * radius;
            }
            let ray = aimed_ray(rng, centre, from, aim)?;
            let ball = [0.0, 0.25, 2.0][rng.random_range(0..3)];
            let what = format!("{ray:?} against {sphere:?}, ball {ball}");
            Some((what, move |products| {
                (
                    cast::cast_ray(&sphere, &ray, f64::INFINITY, products),
                    cast::cast_sphere(&sphere, &ray, ball, f64::INFINITY, products),
                    cast::ray_span(&sphere, &ray, products),
                )
            }))
        });
    }
}
