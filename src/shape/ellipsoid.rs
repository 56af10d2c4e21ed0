//! Ellipsoids and ellipses, axis-aligned or oriented.

use nalgebra::{Point, Rotation, SMatrix, SVector};

use crate::cast::{self, Crossing, LineQuery};
use crate::core::exact::{Dot2, div_pair};
use crate::core::quadratic::{LineBall, Offset, line_ball};
use crate::error::{Error, check_finite};
use crate::hit::{Hit, Span};
use crate::ray::{Ray, unit_and_length};
use crate::real::{Real, widen};
use crate::shape::{Aabb, box_around};
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

/// A closed solid ellipsoid: the points `x` with `|diag(1/a) · Rᵀ (x − c)| ≤ 1` for centre `c`,
/// semi-axes `a` and rotation `R` (local axis `i` is column `i` of `R`).
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
        Ok(Ellipsoid {
            center,
            semi_axes,
            rotation: None,
        })
    }

    /// The ellipsoid whose local axis `i`, of half-length `semi_axes[i]`, is column `i` of
    /// `rotation`.
    ///
    /// The matrix is used exactly as given, so an ellipsoid built from an `f32` rotation is the
    /// one that matrix describes, not the one an exact rotation would.
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

    /// `Rᵀ v` in the working precision.
    #[inline]
    fn in_local_axes(&self, v: &SVector<f64, D>) -> SVector<f64, D> {
        match &self.rotation {
            None => *v,
            Some(r) => r.matrix().map(T::to_wide).tr_mul(v),
        }
    }

    /// `R v` in the working precision.
    #[inline]
    fn in_world_axes(&self, v: &SVector<f64, D>) -> SVector<f64, D> {
        match &self.rotation {
            None => *v,
            Some(r) => r.matrix().map(T::to_wide) * v,
        }
    }

    /// The point `p` in the frame where the ellipsoid is the unit ball, `Rᵀ(p − c) / a`, in twice
    /// the working precision (`p − c` exact, the rotation by compensated dot products, the
    /// division with its remainder).
    #[inline]
    fn in_unit_frame(&self, p: &Point<T, D>) -> Offset<D> {
        let rel = Offset::between(&widen(&p.coords), &widen(&self.center.coords));
        let (rel_hi, rel_lo) = (rel.hi(), rel.lo());
        let a = widen(&self.semi_axes);
        let m = self.rotation.map(|r| r.matrix().map(T::to_wide));
        let mut hi = SVector::zeros();
        let mut lo = SVector::zeros();
        for i in 0..D {
            let (h, l) = match &m {
                None => (rel_hi[i], rel_lo[i]),
                Some(m) => {
                    let mut acc = Dot2::new();
                    for j in 0..D {
                        acc.add(m[(j, i)], rel_hi[j]);
                        acc.add(m[(j, i)], rel_lo[j]);
                    }
                    acc.pair()
                }
            };
            (hi[i], lo[i]) = div_pair(h, l, a[i]);
        }
        Offset::new(hi, lo)
    }

    /// The world offset from the centre of the point `u` of the unit-ball frame:
    /// `(diag(1/a)·Rᵀ)⁻¹ u = R (RᵀR)⁻¹ (a ∘ u)`. The matrix as given is orthonormal only to within
    /// a few ulps, so `(RᵀR)⁻¹` is applied as `I − (RᵀR − I)`, which is exact to second order.
    #[inline]
    fn offset_from_unit_frame(&self, u: &SVector<f64, D>) -> SVector<f64, D> {
        let v = u.component_mul(&widen(&self.semi_axes));
        match &self.rotation {
            None => v,
            Some(r) => {
                let m = r.matrix().map(T::to_wide);
                let gram_error = m.tr_mul(&m) - SMatrix::<f64, D, D>::identity();
                m * (v - gram_error * v)
            }
        }
    }
}

impl<T: Real, const D: usize> Shape<T, D> for Ellipsoid<T, D> {
    fn aabb(&self) -> Aabb<T, D> {
        let a = widen(&self.semi_axes);
        let extent = match &self.rotation {
            None => a,
            Some(r) => {
                // Half extent on world axis i: |row i of R·diag(a)|. Its f64 evaluation is within
                // (D + 2) ulps, so widening by 4(D + 2) ulps keeps the box around the solid.
                let widen_by = 1.0 + 4.0 * (D as f64 + 2.0) * f64::EPSILON;
                let m = r.matrix().map(T::to_wide);
                SVector::from_fn(|i, _| {
                    let row = SVector::<f64, D>::from_fn(|j, _| m[(i, j)] * a[j]);
                    unit_and_length(&row).map_or(0.0, |(_, l)| l) * widen_by
                })
            }
        };
        box_around(&widen(&self.center.coords), &extent)
            .expect("a finite ellipsoid has finite bounds in the wider working precision")
    }

    fn contains(&self, p: &Point<T, D>) -> bool {
        self.in_unit_frame(p).power(1.0) <= 0.0
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
    fn crossing(&self, ray: &Ray<T, D>) -> Option<Crossing<Self::Entry>> {
        let dir = ray.working_dir();
        let local_dir = self
            .in_local_axes(&dir)
            .component_div(&widen(&self.semi_axes));
        let ball = line_ball(&self.in_unit_frame(ray.origin()), &local_dir, 1.0)?;
        // A world step of |dir| is a local step of |local_dir|.
        let to_world = dir.norm() / ball.dir_len;
        Some(Crossing {
            enter: ball.near * to_world,
            exit: ball.far * to_world,
            inside: ball.inside,
            entry: EllipsoidEntry { ball, local_dir },
        })
    }

    #[inline]
    fn contact(
        &self,
        _ray: &Ray<T, D>,
        crossing: &Crossing<Self::Entry>,
    ) -> (SVector<f64, D>, SVector<f64, D>) {
        let e = &crossing.entry;
        let on_unit_sphere = e.ball.entry_offset(&e.local_dir);
        let point = widen(&self.center.coords) + self.offset_from_unit_frame(&on_unit_sphere);
        let normal = self.in_world_axes(&on_unit_sphere.component_div(&widen(&self.semi_axes)));
        (point, normal)
    }
}

impl<T: Real, const D: usize> Cast<T, D> for Ellipsoid<T, D> {
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
        cast::cast_ray(self, ray, max_distance)
    }

    /// Not yet available: always `None` (sphere casts come in the next release).
    fn cast_sphere(&self, _ray: &Ray<T, D>, _radius: T, _max_distance: T) -> Option<Hit<T, D>> {
        None
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
        cast::ray_span(self, ray)
    }

    /// Not yet available: always `None` (sphere casts come in the next release).
    fn sphere_span(&self, _ray: &Ray<T, D>, _radius: T) -> Option<Span<T>> {
        None
    }
}
