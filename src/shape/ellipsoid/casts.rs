//! An ellipsoid's casts: the line or the ball's path in the frame where the ellipsoid is the
//! unit ball ([`LineQuery`], [`SweepQuery`]), and [`Cast`] over them.

use nalgebra::SVector;

use crate::cast::{self, Contact, Crossing, LineQuery, Origin, SweepQuery, unit};
use crate::core::exact::Products;
use crate::core::nearest::{Closest, contains, nearest_point};
use crate::core::quadratic::{
    LineBall, Shortcut, closest_approach, line_ball, line_ball_deferred, point_scale,
};
use crate::core::swept_box::grown_box;
use crate::core::swept_ellipsoid::first_touch;
use crate::core::unit::unit_and_length;
use crate::fused::with_fused_products;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::{Real, sqrt, widen};
use crate::traits::Cast;

use super::{Ellipsoid, MAX_ROUNDED_ASPECT};

impl<T: Real, const D: usize> Ellipsoid<T, D> {
    /// [`LineQuery::crossing`], its error-free products formed by `products`.
    #[inline(always)]
    fn crossing_with<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        products: Products,
    ) -> Option<Crossing<EllipsoidEntry<D>>> {
        let dir = ray.working_dir();
        let local_dir = self
            .in_local_axes(&dir)
            .component_div(&widen(&self.semi_axes));
        // In the unit-ball frame a contact point maps back to a world point with a coordinate of
        // magnitude at least max(|c|∞ − a_max, a_min/√D), in units of a_max.
        let a = widen(&self.semi_axes);
        let (a_min, a_max) = (a.min(), a.max());
        let scale = point_scale(&widen(&self.center.coords), a_max, a_min) / a_max;
        let shortcut = Shortcut::rescaled::<T>(scale).with_products(products);
        let exact = || self.in_unit_frame(ray.origin(), origin, products);
        let ball = if shortcut.exact_products || a_max > MAX_ROUNDED_ASPECT * a_min {
            line_ball(&exact(), &local_dir, 1.0, shortcut)
        } else {
            line_ball_deferred(
                &self.in_unit_frame_rounded(ray.origin(), origin),
                exact,
                &local_dir,
                1.0,
                shortcut,
            )
        }?;
        // A world step of |dir| is a local step of |local_dir|: a parameter along local_dir is one
        // along dir, and a local distance converts by |dir|/|local_dir|. The parameters are for
        // the far origins the shortcut then accepts (f64); an f32 result has the guard bits for
        // the conversion.
        let parameters = shortcut
            .far_by_parameter
            .then(|| ball.parameters())
            .flatten();
        let (enter, exit) = match parameters {
            Some((enter, exit)) => (enter * dir.norm(), exit * dir.norm()),
            None => {
                let to_world = dir.norm() / ball.dir_len;
                (ball.near * to_world, ball.far * to_world)
            }
        };
        Some(Crossing {
            enter,
            exit,
            inside: ball.inside,
            entry: EllipsoidEntry { ball, local_dir },
        })
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
    ) -> Option<Crossing<Closest<D>>> {
        let local = self.in_local_frame(ray.origin(), origin, products);
        let n = self.in_local_axes(&ray.working_dir());
        let a = widen(&self.semi_axes);
        let approach = closest_approach(&local, &n.into(), products);
        let (m, (foot, foot_lo)) = (SVector::from(approach.perp), approach.foot);
        let grown = grown_box(&m, &n, &-a, &a, radius)?;
        let (container_enter, container_exit) = swept_container(&m, &n, &a, radius)?;
        // Iterate to 2^-17 of the width's epsilon (2^-40 for f32), or to f64's last bits.
        let tolerance = (T::EPSILON_WIDE / 131072.0).max(2.0 * f64::EPSILON);
        let enter = first_touch(
            &m,
            &n,
            &a,
            radius,
            grown.enter.max(container_enter),
            tolerance,
        )?;
        let exit = if with_exit {
            first_touch(
                &m,
                &-n,
                &a,
                radius,
                (-grown.exit).max(-container_exit),
                tolerance,
            )
            .map_or(enter.t, |x| -x.t)
        } else {
            enter.t
        };
        let world_enter = foot + (foot_lo + enter.t);
        // A first touch ahead of the origin means the ball is clear of the ellipsoid there. One
        // found behind it means the ball touches it at the origin, or has passed it: it is
        // moving away there, clear of it (the distance along the line is convex). A ball found
        // clear at the origin but moving in is within rounding of the touch: a contact at 0.
        let inside = world_enter <= 0.0 && {
            let o = local.hi() + local.lo();
            contains(&o, &a) || {
                let offset = nearest_point(&o, &a, 0.0, tolerance).offset;
                unit_and_length(&offset).is_none_or(|(_, d)| d <= radius) || n.dot(&offset) < 0.0
            }
        };
        Some(Crossing {
            enter: world_enter,
            exit: foot + (foot_lo + exit.max(enter.t)),
            inside,
            entry: enter.closest,
        })
    }
}

/// What an ellipsoid crossing keeps for its contact: the unit-ball crossing and the local
/// direction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EllipsoidEntry<const D: usize> {
    ball: LineBall<D>,
    local_dir: SVector<f64, D>,
}

impl<T: Real, const D: usize> LineQuery<T, D> for Ellipsoid<T, D> {
    type Entry = EllipsoidEntry<D>;

    #[inline]
    fn crossing<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        _: Products,
    ) -> Option<Crossing<Self::Entry>> {
        // In the FMA copy where the CPU has it, whatever the caller's code: the compensated change
        // of frame and its products outweigh the call (docs/performance.md).
        with_fused_products(
            #[inline(always)]
            |products| self.crossing_with(ray, origin, products),
        )
    }

    #[inline]
    fn contact<O: Origin<D>>(
        &self,
        _ray: &Ray<T, D>,
        _origin: O,
        crossing: &Crossing<Self::Entry>,
    ) -> Contact<D> {
        let e = &crossing.entry;
        let on_unit_sphere = e.ball.entry_offset(&e.local_dir);
        let a = widen(&self.semi_axes);
        let point =
            widen(&self.center.coords) + self.in_world_axes(&on_unit_sphere.component_mul(&a));
        let normal = self.in_world_axes(&on_unit_sphere.component_div(&a));
        (point, unit(&normal))
    }
}

/// Where the line `m + t·n` (local frame) is inside an ellipsoid that contains the ellipsoid `a`
/// swept by a ball of radius `ρ`: semi-axes `b_i = √(a_i² + 2ρ·a_max + ρ²)`. Its support function
/// `√(Σ a_i² u_i² + 2ρ·a_max + ρ²)` is at least `√(Σ a_i² u_i²) + ρ`, the swept body's, because
/// `√(Σ a_i² u_i²) ≤ a_max`. The interval is widened by a rounding margin, so that it is safe to
/// start the contact search at its entry; `None` when the line misses the container (and so the
/// swept body).
#[inline]
fn swept_container<const D: usize>(
    m: &SVector<f64, D>,
    n: &SVector<f64, D>,
    a: &SVector<f64, D>,
    radius: f64,
) -> Option<(f64, f64)> {
    let grow = radius * (2.0 * a.max() + radius);
    let inv_b2 = a.map(|x| 1.0 / (x * x + grow));
    let qa = n.component_mul(n).dot(&inv_b2);
    let qb = m.component_mul(n).dot(&inv_b2);
    let qc = m.component_mul(m).dot(&inv_b2) - 1.0;
    let disc = qb * qb - qa * qc;
    if disc < 0.0 {
        return None;
    }
    let q = -(qb + sqrt(disc).copysign(qb));
    let (first, second) = (q / qa, qc / q);
    let (near, far) = (first.min(second), first.max(second));
    if near.is_nan() || far.is_nan() {
        return Some((f64::NEG_INFINITY, f64::INFINITY));
    }
    // A few thousand ulps of the container's reach: far more than the rounding above.
    let margin = 1e-12 * (near.abs().max(far.abs()) + sqrt(1.0 / inv_b2.min()) / sqrt(qa));
    Some((near - margin, far + margin))
}

impl<T: Real, const D: usize> SweepQuery<T, D> for Ellipsoid<T, D> {
    /// The closest point at the first touch, in the local frame.
    type Contact = Closest<D>;

    /// In the local frame `Qᵀ(x − c)` (an isometry), by the monotone Newton iteration of
    /// `src/core/swept_ellipsoid.rs`, started at the later of the line's entries into two bodies
    /// that contain the swept one: the box `[−(a + r), a + r]` and the ellipsoid of
    /// [`swept_container`] (a line that misses the latter misses at once). Distances are measured
    /// from the line's closest approach to the centre, formed in twice the working precision, so
    /// that a far origin costs no precision near the ellipsoid.
    #[inline]
    fn sweep<O: Origin<D>>(
        &self,
        ray: &Ray<T, D>,
        origin: O,
        radius: f64,
        with_exit: bool,
        _: Products,
    ) -> Option<Crossing<Self::Contact>> {
        // In the FMA copy where the CPU has it, as the crossing.
        with_fused_products(
            #[inline(always)]
            |products| self.sweep_with(ray, origin, radius, with_exit, products),
        )
    }

    #[inline]
    fn sweep_contact<O: Origin<D>>(
        &self,
        _ray: &Ray<T, D>,
        _origin: O,
        _radius: f64,
        crossing: &Crossing<Self::Contact>,
    ) -> Contact<D> {
        let closest = &crossing.entry;
        let point = widen(&self.center.coords) + self.in_world_axes(&closest.point);
        (point, unit(&self.in_world_axes(&closest.offset)))
    }
}

impl<T: Real, const D: usize> Cast<T, D> for Ellipsoid<T, D> {
    crate::traits::moved_queries!(crate::fused::with_split_products);

    /// See [`Cast::cast_ray`].
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ellipse, Ray};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let e = Ellipse::new(Point2::origin(), Vector2::new(2.0, 1.0))?;
    /// let hit = e.cast_ray(&Ray::new(Point2::new(-5.0, 0.0), Vector2::x())?, 10.0).unwrap();
    /// assert_eq!((hit.distance, hit.point), (3.0, Point2::new(-2.0, 0.0)));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<Hit<T, D>> {
        cast::cast_ray(self, ray, max_distance, Products::Split)
    }

    /// See [`Cast::cast_sphere`].
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Cast, Ellipse, Ray};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let e = Ellipse::new(Point2::origin(), Vector2::new(4.0, 1.0))?;
    /// let hit = e.cast_sphere(&Ray::new(Point2::new(0.0, 10.0), -Vector2::y())?, 2.0, 20.0).unwrap();
    /// assert_eq!((hit.distance, hit.point), (7.0, Point2::new(0.0, 1.0)));
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
    /// use raysweep::{Cast, Ellipse, Ray};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let e = Ellipse::new(Point2::origin(), Vector2::new(2.0, 1.0))?;
    /// let span = e.ray_span(&Ray::new(Point2::new(0.0, -5.0), Vector2::y())?).unwrap();
    /// assert_eq!(span.length(), 2.0);
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
    /// use raysweep::{Cast, Ellipsoid, Ray};
    /// use raysweep::nalgebra::{Point3, Vector3};
    ///
    /// let e = Ellipsoid::new(Point3::origin(), Vector3::new(3.0, 2.0, 1.0))?;
    /// let span = e.sphere_span(&Ray::new(Point3::new(-10.0, 0.0, 0.0), Vector3::x())?, 0.5).unwrap();
    /// assert_eq!((span.enter, span.exit), (6.5, 13.5));
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
        assert_products_agree, away, ball, centre, power_of_ten, uniform,
    };
    use nalgebra::{Point2, Rotation3, Vector2};
    use rand::Rng;

    /// A ball grazing the flat top of a 1:5300 ellipse overlaps it from `t ≈ 19.875` to the far
    /// rim at `t ≈ 20.0956` (a dense search of the distance in `f64` agrees with both). The last
    /// pass of the `f32` sweep, from the far side, took the joint iteration's other root, the
    /// entry, and the span collapsed to it; found by the grazing family of `tests/suite/precision.rs`.
    #[test]
    fn a_ball_grazing_a_flat_ellipse_leaves_it_at_the_far_rim() {
        let centre = Point2::new(4.136_556_f32, 4.576_950_6);
        let e = Ellipsoid::new(centre, Vector2::new(1.501_397_3, 0.000_283_533_53)).unwrap();
        let ray = Ray::new(
            Point2::new(-14.557_576, 4.957_456),
            Vector2::new(0.999_999_94, -0.000_332_727_2),
        )
        .unwrap();
        let span = e.sphere_span(&ray, 0.373_717_46).unwrap();
        assert_eq!(span.enter, 19.875_404);
        assert_eq!(span.exit, 20.095_633);
    }

    /// [`assert_products_agree`] for the ellipsoid's crossing and sweep: oriented ellipsoids (whose
    /// change of frame is compensated), origins up to `10^8` sizes away, rays aimed within 1.5
    /// semi-axes of the centre.
    #[test]
    fn split_and_fused_products_cast_alike() {
        assert_products_agree(0xe111, 1500, |rng| {
            let scale = power_of_ten(rng, -3..4);
            let semi_axes = uniform(rng, 0.05, 2.0) * scale;
            let centre = centre(rng);
            let rotation = Rotation3::new(uniform(rng, -1.0, 1.0) * rng.random_range(0.0..3.0));
            let ellipsoid = Ellipsoid::oriented(centre, semi_axes, rotation).unwrap();
            let from = away(rng, scale, 0..9);
            let aim = uniform(rng, -1.5, 1.5).component_mul(&semi_axes);
            let ray = Ray::new(centre + from, aim - from).ok()?;
            let radius = ball(rng, scale);
            let what = format!("{ray:?} against {ellipsoid:?}, ball {radius}");
            Some((what, move |products| {
                (
                    ellipsoid.crossing_with(&ray, AtRay, products),
                    ellipsoid.sweep_with(&ray, AtRay, radius, true, products),
                )
            }))
        });
    }
}
