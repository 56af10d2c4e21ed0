//! Ellipsoids and ellipses, axis-aligned or oriented.

use nalgebra::{Point, Rotation, SMatrix, SVector};

use crate::bounds::{Aabb, bounding_box};
use crate::cast::{self, AtRay, Beyond, Contact, Crossing, LineQuery, Origin, SweepQuery, unit};
use crate::core::exact::{Dot2, Products, div_pair};
use crate::core::nearest::{Closest, contains, nearest_point};
use crate::core::quadratic::{
    LineBall, Offset, Shortcut, closest_approach, line_ball, line_ball_deferred, point_scale,
};
use crate::core::swept_box::grown_box;
use crate::core::swept_ellipsoid::first_touch;
use crate::core::unit::unit_and_length;
use crate::error::{Error, check_finite};
use crate::fused::with_fused_products;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::{Real, sqrt, widen};
use crate::shape::inside;
use crate::traits::{Cast, Shape};

/// How far from orthonormal a rotation matrix may be, in units of the width's epsilon: the
/// largest entry of `|RᵀR − I|` must not exceed `ORTHONORMAL_TOLERANCE * T::EPSILON`.
///
/// # Example
///
/// ```
/// assert_eq!(raysweep::ORTHONORMAL_TOLERANCE, 16.0);
/// ```
pub const ORTHONORMAL_TOLERANCE: f64 = 16.0;

/// A closed solid ellipsoid: the points `x` with `|diag(1/a) · Qᵀ (x − c)| ≤ 1` for centre `c`,
/// semi-axes `a` and rotation `Q` (local axis `i` is column `i` of `Q`).
///
/// `Q` is the orthonormal matrix nearest to the rotation given (its polar factor), computed in
/// `f64`: a rotation stored in `f32` is orthonormal only to about `10⁻⁷`, and using it as it is
/// would make local distances differ from world distances by that much.
///
/// Casts map the ray into the frame where the ellipsoid is the unit ball, `x' = Rᵀ(x − c) / a`,
/// and use the quadratic core there, keeping distances in world units. Normals are
/// `R · normalize(x' / a)`, never formed with squared semi-axes, so flat ellipsoids (axis ratios of
/// 10^6) keep their precision.
///
/// # Example
///
/// ```
/// use raysweep::{Cast, Ellipsoid, Ray};
/// use raysweep::nalgebra::{Point3, Vector3};
///
/// let disc = Ellipsoid::new(Point3::origin(), Vector3::new(4.0, 4.0, 0.5))?;
/// let hit = disc.cast_ray(&Ray::new(Point3::new(0.0, 0.0, 10.0), -Vector3::z())?, 100.0).unwrap();
/// assert_eq!(hit.distance, 9.5);
/// assert_eq!(hit.normal.into_inner(), Vector3::z());
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipsoid<T: Real, const D: usize = 3> {
    center: Point<T, D>,
    semi_axes: SVector<T, D>,
    rotation: Option<Rotation<T, D>>,
    /// The polar factor of `rotation` in the working precision.
    frame: Option<SMatrix<f64, D, D>>,
    /// `1/aᵢ` rounded, and the bound `γ` on the plain test's error (`src/shape/inside.rs`), for
    /// [`Shape::contains`]'s plain test.
    inverse: SVector<f64, D>,
    gamma: f64,
}

/// A closed solid ellipse in the plane.
///
/// # Example
///
/// ```
/// use raysweep::{Ellipse, Shape};
/// use raysweep::nalgebra::{Point2, Vector2};
///
/// let e: Ellipse<f32> = Ellipse::new(Point2::origin(), Vector2::new(2.0, 1.0))?;
/// assert!(e.contains(&Point2::new(2.0, 0.0)));
/// assert!(!e.contains(&Point2::new(0.0, 1.5)));
/// # Ok::<(), raysweep::Error>(())
/// ```
pub type Ellipse<T> = Ellipsoid<T, 2>;

impl<T: Real, const D: usize> Ellipsoid<T, D> {
    /// The same ellipsoid in `f64` (exact: the same polar factor).
    pub(crate) fn widened(&self) -> Ellipsoid<f64, D> {
        Ellipsoid {
            center: Point::from(widen(&self.center.coords)),
            semi_axes: widen(&self.semi_axes),
            rotation: self
                .rotation
                .map(|r| Rotation::from_matrix_unchecked(r.matrix().map(T::to_wide))),
            frame: self.frame,
            inverse: self.inverse,
            gamma: self.gamma,
        }
    }

    /// The axis-aligned ellipsoid with the given centre and semi-axes.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a NaN or infinite value; [`Error::NonPositiveSemiAxis`] for a
    /// semi-axis that is zero or negative.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Ellipsoid, Error};
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let err = Ellipsoid::new(Point2::origin(), Vector2::new(1.0, 0.0)).unwrap_err();
    /// assert_eq!(err, Error::NonPositiveSemiAxis { axis: 1, value: 0.0 });
    /// ```
    pub fn new(center: Point<T, D>, semi_axes: SVector<T, D>) -> Result<Self, Error> {
        check_finite("center", center.iter().map(|v| v.to_wide()))?;
        check_finite("semi_axes", semi_axes.iter().map(|v| v.to_wide()))?;
        if let Some((axis, value)) = semi_axes.iter().enumerate().find(|(_, a)| **a <= T::zero()) {
            return Err(Error::NonPositiveSemiAxis {
                axis,
                value: value.to_wide(),
            });
        }
        let a = widen(&semi_axes);
        Ok(Ellipsoid {
            center,
            semi_axes,
            rotation: None,
            frame: None,
            inverse: a.map(|x| 1.0 / x),
            gamma: inside::ellipsoid_gamma(&a, false),
        })
    }

    /// The ellipsoid whose local axis `i`, of half-length `semi_axes[i]`, is column `i` of
    /// `rotation`.
    ///
    /// The ellipsoid's axes are the columns of the orthonormal matrix nearest to `rotation` (its
    /// polar factor), which the tolerance below keeps within a few ulps of it.
    ///
    /// # Errors
    ///
    /// As [`Ellipsoid::new`], plus [`Error::NonFinite`] for a non-finite matrix entry and
    /// [`Error::NotOrthonormal`] when an entry of `|RᵀR − I|` exceeds
    /// [`ORTHONORMAL_TOLERANCE`]` × ε`.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::{Ellipsoid, Shape};
    /// use raysweep::nalgebra::{Point2, Rotation2, Vector2};
    ///
    /// let quarter = Rotation2::new(std::f64::consts::FRAC_PI_2);
    /// let e = Ellipsoid::oriented(Point2::origin(), Vector2::new(3.0, 1.0), quarter)?;
    /// assert!(e.contains(&Point2::new(0.0, 2.9)));
    /// assert!(!e.contains(&Point2::new(2.9, 0.0)));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn oriented(
        center: Point<T, D>,
        semi_axes: SVector<T, D>,
        rotation: Rotation<T, D>,
    ) -> Result<Self, Error> {
        let axis_aligned = Self::new(center, semi_axes)?;
        let m: SMatrix<f64, D, D> = rotation.matrix().map(T::to_wide);
        check_finite("rotation", m.transpose().iter().copied())?;
        let deviation = (m.transpose() * m - SMatrix::<f64, D, D>::identity()).amax();
        if !(deviation <= ORTHONORMAL_TOLERANCE * T::EPSILON_WIDE) {
            return Err(Error::NotOrthonormal { deviation });
        }
        Ok(Ellipsoid {
            rotation: Some(rotation),
            frame: Some(polar_factor(&m)),
            gamma: inside::ellipsoid_gamma(&widen(&axis_aligned.semi_axes), true),
            ..axis_aligned
        })
    }

    /// The centre.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Ellipsoid;
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let e = Ellipsoid::new(Point2::new(1.0, 2.0), Vector2::new(3.0, 4.0))?;
    /// assert_eq!(*e.center(), Point2::new(1.0, 2.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn center(&self) -> &Point<T, D> {
        &self.center
    }

    /// The semi-axes, along the local axes.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Ellipsoid;
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// let e = Ellipsoid::new(Point2::new(1.0, 2.0), Vector2::new(3.0, 4.0))?;
    /// assert_eq!(*e.semi_axes(), Vector2::new(3.0, 4.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn semi_axes(&self) -> &SVector<T, D> {
        &self.semi_axes
    }

    /// The rotation from local to world axes (the identity for an axis-aligned ellipsoid).
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Ellipsoid;
    /// use raysweep::nalgebra::{Point2, Rotation2, Vector2};
    ///
    /// let e = Ellipsoid::new(Point2::new(1.0, 2.0), Vector2::new(3.0, 4.0))?;
    /// assert_eq!(e.rotation(), Rotation2::identity());
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn rotation(&self) -> Rotation<T, D> {
        self.rotation.unwrap_or_else(Rotation::identity)
    }

    /// Whether the local axes are the world axes.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Ellipsoid;
    /// use raysweep::nalgebra::{Point2, Vector2};
    ///
    /// assert!(Ellipsoid::new(Point2::origin(), Vector2::new(3.0, 4.0))?.is_axis_aligned());
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn is_axis_aligned(&self) -> bool {
        self.rotation.is_none()
    }

    /// [`Shape::contains`] in twice the working precision: the sign of `|Qᵀ(p − c)/a|² − 1`.
    #[inline(never)]
    pub(super) fn contains_exactly(&self, p: &Point<T, D>) -> bool {
        self.in_unit_frame(p, AtRay, Products::Split)
            .power(1.0, Products::Split)
            <= 0.0
    }

    /// [`Shape::contains`] at `p + lo` (`lo` held apart exactly, [`Beyond`]): the sign of
    /// `|Qᵀ(p + lo − c)/a|² − 1` in twice the working precision.
    pub(crate) fn contains_beyond(&self, p: &Point<T, D>, lo: SVector<f64, D>) -> bool {
        self.in_unit_frame(p, Beyond(lo), Products::Split)
            .power(1.0, Products::Split)
            <= 0.0
    }

    /// `Qᵀ v`: world axes to local axes.
    #[inline]
    fn in_local_axes(&self, v: &SVector<f64, D>) -> SVector<f64, D> {
        match &self.frame {
            None => *v,
            Some(q) => q.tr_mul(v),
        }
    }

    /// `Q v`: local axes to world axes.
    #[inline]
    pub(crate) fn in_world_axes(&self, v: &SVector<f64, D>) -> SVector<f64, D> {
        match &self.frame {
            None => *v,
            Some(q) => q * v,
        }
    }

    /// The point `p` (or `p` plus what `origin` holds beyond it) in the local frame, `Qᵀ(p − c)`,
    /// in twice the working precision (`p − c` exact, the rotation by
    /// [`Ellipsoid::rotated_to_local`]).
    #[inline(always)]
    fn in_local_frame<O: Origin<D>>(
        &self,
        p: &Point<T, D>,
        origin: O,
        products: Products,
    ) -> Offset<D> {
        let rel = origin.offset(Offset::between(
            &widen(&p.coords),
            &widen(&self.center.coords),
        ));
        self.rotated_to_local(&rel, products)
    }

    /// `Qᵀ rel` for an offset `rel` in twice the working precision, by compensated dot products
    /// whose error-free products are formed by `products` (`rel` itself where axis-aligned).
    #[inline(always)]
    pub(crate) fn rotated_to_local(&self, rel: &Offset<D>, products: Products) -> Offset<D> {
        let Some(q) = &self.frame else {
            return *rel;
        };
        let (rel_hi, rel_lo) = (rel.hi(), rel.lo());
        let mut hi = SVector::zeros();
        let mut lo = SVector::zeros();
        for i in 0..D {
            let mut acc = Dot2::new(products);
            for j in 0..D {
                acc.add(q[(j, i)], rel_hi[j]);
                acc.add(q[(j, i)], rel_lo[j]);
            }
            (hi[i], lo[i]) = acc.pair();
        }
        Offset::new(hi, lo)
    }

    /// [`Ellipsoid::in_unit_frame`] in plain `f64`: each coordinate within `(D + 2)` ulps of
    /// `|p − c| / a_min`, which for an ellipsoid of semi-axis ratio at most [`MAX_ROUNDED_ASPECT`]
    /// is within `2^-37` of the offset's length (enough for [`line_ball_deferred`] with an `f32`
    /// result's shortcut), without the 2·D² error-free products of the compensated rotation.
    #[inline]
    fn in_unit_frame_rounded<O: Origin<D>>(&self, p: &Point<T, D>, origin: O) -> Offset<D> {
        let mut rel = widen(&p.coords) - widen(&self.center.coords);
        if let Some(lo) = origin.beyond() {
            rel += lo;
        }
        Offset::from_vector(
            self.in_local_axes(&rel)
                .component_div(&widen(&self.semi_axes)),
        )
    }

    /// The point `p` in the frame where the ellipsoid is the unit ball, `Qᵀ(p − c) / a`, in twice
    /// the working precision (the division with its remainder), its error-free products formed by
    /// `products`.
    #[inline(always)]
    fn in_unit_frame<O: Origin<D>>(
        &self,
        p: &Point<T, D>,
        origin: O,
        products: Products,
    ) -> Offset<D> {
        scaled_to_unit(
            &self.in_local_frame(p, origin, products),
            &widen(&self.semi_axes),
            products,
        )
    }

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

/// The largest ratio of semi-axes for which a cast forms its origin's offset in plain `f64` first
/// ([`Ellipsoid::in_unit_frame_rounded`]): its error relative to the offset grows with the ratio,
/// and at `2^12` it is below `2^-37`, far inside the `2^-20` margins of an `f32` result's
/// shortcut. (`tests/suite/precision.rs` draws `f32` ellipsoids of ratios up to 4000.)
const MAX_ROUNDED_ASPECT: f64 = 4096.0;

/// The orthonormal polar factor of a matrix within a few ulps of orthonormal, by the Newton-Schulz
/// iteration `X ← X (3I − XᵀX) / 2` (Higham, Functions of Matrices, 2008, 8.3), which squares the
/// deviation `XᵀX − I` at each step: three steps take `16 ε_f32` down to the rounding of `f64`.
fn polar_factor<const D: usize>(m: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
    let three = SMatrix::<f64, D, D>::identity() * 3.0;
    (0..3).fold(*m, |x, _| x * (three - x.tr_mul(&x)) * 0.5)
}

impl<T: Real, const D: usize> Shape<T, D> for Ellipsoid<T, D> {
    fn aabb(&self) -> Aabb<T, D> {
        let a = widen(&self.semi_axes);
        let extent = match &self.frame {
            None => a,
            Some(m) => {
                // Half extent on world axis i: |row i of R·diag(a)|. Its f64 evaluation is within
                // (D + 2) ulps, so widening by 4(D + 2) ulps keeps the box around the solid.
                let widen_by = 1.0 + 4.0 * (D as f64 + 2.0) * f64::EPSILON;
                SVector::from_fn(|i, _| {
                    let row = SVector::<f64, D>::from_fn(|j, _| m[(i, j)] * a[j]);
                    // A row too long for f64 makes an unbounded extent, saturated below.
                    unit_and_length(&row).map_or(f64::INFINITY, |(_, l)| l) * widen_by
                })
            }
        };
        bounding_box(&widen(&self.center.coords), &extent)
    }

    /// The plain `|Qᵀ(p − c)/a|² ≤ 1` in `f64` where a bound on its rounding error decides it,
    /// the exact sign of `|Qᵀ(p − c)/a|² − 1` elsewhere: exact, at the plain test's speed.
    #[inline]
    fn contains(&self, p: &Point<T, D>) -> bool {
        let f = widen(&p.coords) - widen(&self.center.coords);
        let local = match &self.frame {
            None => f,
            Some(q) => q.tr_mul(&f),
        };
        let u = local.component_mul(&self.inverse);
        inside::unit_ball(&u, self.gamma).unwrap_or_else(|| self.contains_exactly(p))
    }
}

/// A local offset in the frame where the ellipsoid of semi-axes `a` is the unit ball, `local / a`,
/// in twice the working precision (each division with its remainder).
#[inline(always)]
pub(crate) fn scaled_to_unit<const D: usize>(
    local: &Offset<D>,
    a: &SVector<f64, D>,
    products: Products,
) -> Offset<D> {
    let mut hi = SVector::zeros();
    let mut lo = SVector::zeros();
    for i in 0..D {
        (hi[i], lo[i]) = div_pair(local.hi()[i], local.lo()[i], a[i], products);
    }
    Offset::new(hi, lo)
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
