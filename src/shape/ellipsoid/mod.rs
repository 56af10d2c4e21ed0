//! Ellipsoids and ellipses, axis-aligned or oriented: the solid, its constructors and accessors,
//! its frames (world, local, unit ball), and `contains`. Its casts are in [`casts`], its point
//! queries in `src/point/ellipsoid.rs`.

use nalgebra::{Point, Rotation, SMatrix, SVector};

use crate::bounds::{Aabb, bounding_box};
use crate::cast::{AtRay, Beyond, Origin};
use crate::core::exact::{Dot2, Products, div_pair};
use crate::core::quadratic::Offset;
use crate::core::unit::unit_and_length;
use crate::error::{Error, ORTHONORMAL_TOLERANCE, check_finite};
use crate::real::{Real, widen};
use crate::shape::inside;
use crate::traits::Shape;

mod casts;

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
    /// [`ORTHONORMAL_TOLERANCE`]` × f32::EPSILON` (in either width).
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
        if !(deviation <= ORTHONORMAL_TOLERANCE * f64::from(f32::EPSILON)) {
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
