//! The nearest point of an axis-aligned ellipsoid's surface `|x / a| = 1` (the local frame of any
//! ellipsoid) to a point `p` inside or outside it.
//!
//! Eberly ("Distance from a Point to an Ellipse, an Ellipsoid, or a Hyperellipsoid", Geometric
//! Tools, 2013): the nearest point is `q_i = a_i² p_i / (a_i² + s)` for the largest `s > −a_m²`
//! (`a_m` the smallest semi-axis) with `|w(s)| = 1`, `w_i = a_i p_i / (a_i² + s)`; `s > 0` outside,
//! `s ≤ 0` inside. The unknown here is `u = s + a_m²`, so that the denominators `a_i² + s` are
//! formed as `(a_i − a_m)(a_i + a_m) + u` without the cancellation that `a_m² + s` suffers close
//! to the pole (points near the centre, flat ellipsoids). `|w|` falls strictly in `u` wherever a
//! component along a smallest axis is non-zero, and the root is bracketed by
//! `max(|a∘p| − b_max, max_i (a_i |p_i| − b_i), 0) ≤ u ≤ |a∘p|` with `b_i = a_i² − a_m²` (one term
//! alone reaches 1 below the first bound; every term is at most `(a_i p_i / u)²` above the second).
//! It is found by Newton's method on `1/|w(u)| − 1` (linear for one axis, nearly so in general),
//! safeguarded by bisection of the bracket, geometric where it spans orders of magnitude.
//!
//! A point on an axis outside the ellipsoid (or on its surface) has that axis's end as its nearest
//! point, which is taken exactly, without the search.
//!
//! Where every component of `p` along the smallest axes is zero and `|w(0)| ≤ 1` (`p` on the
//! medial region, e.g. the centre), the nearest points are not unique: `u = 0`, the other
//! components as the formula gives them, and the rest of the unit length put along the first
//! smallest axis with a positive sign.
//!
//! The problem is first scaled by a power of two (exact) so that the largest semi-axis lies in
//! `[1, 2)`: `a_i²` then neither overflows nor, for any ratio of semi-axes `f64` squares,
//! underflows.

use nalgebra::SVector;

use super::exact::Products;
use super::lane::pow2_scale;
use super::quadratic::Offset;
use super::unit::unit_and_length;
use crate::real::sqrt;

/// The nearest point of the ellipsoid's surface to a point.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closest<const D: usize> {
    /// The nearest point `q`, on the surface.
    pub(crate) point: SVector<f64, D>,
    /// `p − q`: along the outward normal at `q` (outside) or against it (inside), of length the
    /// distance.
    pub(crate) offset: SVector<f64, D>,
    /// `q_i / a_i²`, half the gradient of `|x / a|²` at `q`: along the outward normal there.
    pub(crate) gradient: SVector<f64, D>,
    /// The multiplier `s` with `q_i = a_i² p_i / (a_i² + s)`: a starting point for a nearby `p`.
    pub(crate) multiplier: f64,
}

/// Whether `p` lies in the closed ellipsoid `|p / a| ≤ 1`.
#[inline]
pub(crate) fn contains<const D: usize>(p: &SVector<f64, D>, a: &SVector<f64, D>) -> bool {
    Offset::from_vector(p.component_div(a)).power(1.0, Products::Split) <= 0.0
}

/// The nearest point of the surface of the ellipsoid `|x / a| ≤ 1` to `p` (any point, as the
/// module says). The search starts at the multiplier `guess` (that of a nearby point) where it
/// lies inside the bracket, and stops when a step is below `tolerance` relative to `u`.
pub(crate) fn nearest_point<const D: usize>(
    p: &SVector<f64, D>,
    a: &SVector<f64, D>,
    guess: f64,
    tolerance: f64,
) -> Closest<D> {
    let (down, up) = pow2_scale(a.max());
    let scaled = nearest_scaled(&(p * down), &(a * down), guess * down * down, tolerance);
    Closest {
        point: scaled.point * up,
        offset: scaled.offset * up,
        gradient: scaled.gradient * down,
        multiplier: scaled.multiplier * up * up,
    }
}

/// [`nearest_point`] for semi-axes of moderate size.
fn nearest_scaled<const D: usize>(
    p: &SVector<f64, D>,
    a: &SVector<f64, D>,
    guess: f64,
    tolerance: f64,
) -> Closest<D> {
    if let Some(vertex) = vertex(p, a) {
        return vertex;
    }
    let a_m = a.min();
    let a_m2 = a_m * a_m;
    let b = a.map(|x| (x - a_m) * (x + a_m));
    let ap = p.component_mul(a);
    // w(u), with the components of a zero `p_i` zero also at u = 0 on a smallest axis.
    let w = |u: f64| {
        SVector::<f64, D>::from_fn(|i, _| if p[i] == 0.0 { 0.0 } else { ap[i] / (b[i] + u) })
    };
    let reach = unit_and_length(&ap).map_or(0.0, |(_, l)| l);
    let mut lo = (0..D).fold((reach - b.max()).max(0.0), |lo, i| {
        lo.max(ap[i].abs() - b[i])
    });
    let mut hi = reach.max(lo);
    if lo == 0.0 {
        let w0 = w(0.0);
        let w0_squared = w0.norm_squared();
        if w0_squared <= 1.0 {
            return medial(p, a, &b, &w0, w0_squared);
        }
    }
    // 1/|w(u)| − 1 and its derivative Σ w_i² / (b_i + u) / |w|³.
    let residual = |u: f64| {
        let w = w(u);
        let inv_len = 1.0 / w.norm();
        let slope = (0..D).map(|i| w[i] * w[i] / (b[i] + u)).sum::<f64>();
        (inv_len - 1.0, slope * inv_len * inv_len * inv_len)
    };
    let guess = guess + a_m2;
    let mut u = if guess > lo && guess < hi {
        guess
    } else if lo > 0.0 {
        lo
    } else {
        hi
    };
    for _ in 0..200 {
        let (h, dh) = residual(u);
        if h == 0.0 {
            break;
        }
        if h < 0.0 {
            lo = u;
        } else {
            hi = u;
        }
        let newton = u - h / dh;
        let next = if newton > lo && newton < hi {
            newton
        } else if lo == 0.0 {
            hi / 1024.0
        } else if hi > 4.0 * lo {
            sqrt(lo) * sqrt(hi)
        } else {
            0.5 * (lo + hi)
        };
        if (next - u).abs() <= tolerance * u || hi - lo <= tolerance * hi {
            u = next;
            break;
        }
        u = next;
    }
    let s = u - a_m2;
    // q_i = a_i² g_i and p_i − q_i = s g_i with g_i = p_i / (b_i + u), which neither overflows
    // nor underflows where the products a_i² p_i and s p_i would.
    let gradient = SVector::from_fn(|i, _| if p[i] == 0.0 { 0.0 } else { p[i] / (b[i] + u) });
    Closest {
        point: SVector::from_fn(|i, _| a[i] * a[i] * gradient[i]),
        offset: gradient * s,
        gradient,
        multiplier: s,
    }
}

/// For `p` on an axis (every other component zero) and outside the ellipsoid or on its surface,
/// the end of that axis, exactly: the normal there runs along the axis, through `p`, and the
/// nearest point of a convex body to a point outside it is the one whose normal passes through
/// the point. (The search would find it to within rounding; exactly, a ball touching an
/// ellipsoid there touches it, as `Sphere::time_of_impact` needs.) `None` elsewhere.
fn vertex<const D: usize>(p: &SVector<f64, D>, a: &SVector<f64, D>) -> Option<Closest<D>> {
    let mut axes = (0..D).filter(|&i| p[i] != 0.0);
    let k = axes.next()?;
    if axes.next().is_some() || p[k].abs() < a[k] {
        return None;
    }
    let (mut point, mut offset, mut gradient) =
        (SVector::zeros(), SVector::zeros(), SVector::zeros());
    point[k] = a[k].copysign(p[k]);
    offset[k] = p[k] - point[k];
    gradient[k] = point[k] / (a[k] * a[k]);
    Some(Closest {
        point,
        offset,
        gradient,
        multiplier: a[k] * (p[k].abs() - a[k]),
    })
}

/// The nearest point where it is not unique (see the module): `u = 0`, and the rest of the unit
/// length along the first smallest axis, positive.
fn medial<const D: usize>(
    p: &SVector<f64, D>,
    a: &SVector<f64, D>,
    b: &SVector<f64, D>,
    w0: &SVector<f64, D>,
    w0_squared: f64,
) -> Closest<D> {
    let free = (0..D).find(|&i| b[i] == 0.0).unwrap_or(0);
    let mut point: SVector<f64, D> = w0.component_mul(a);
    point[free] = a[free] * sqrt((1.0 - w0_squared).max(0.0));
    let gradient = point.component_div(&a.component_mul(a));
    Closest {
        point,
        offset: p - point,
        gradient,
        multiplier: -a[free] * a[free],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Vector2, Vector3};

    /// Full f64 precision.
    const FULL: f64 = 2.0 * f64::EPSILON;

    #[test]
    fn closest_point_of_a_sphere_is_radial() {
        let a = Vector3::new(2.0, 2.0, 2.0);
        let c = nearest_point(&Vector3::new(6.0, 0.0, 0.0), &a, 0.0, FULL);
        assert_eq!(c.point, Vector3::new(2.0, 0.0, 0.0));
        assert_eq!(c.offset, Vector3::new(4.0, 0.0, 0.0));
        let inside = nearest_point(&Vector3::new(0.5, 0.0, 0.0), &a, 0.0, FULL);
        assert_eq!(inside.point, Vector3::new(2.0, 0.0, 0.0));
        assert_eq!(inside.offset, Vector3::new(-1.5, 0.0, 0.0));
    }

    #[test]
    fn closest_point_lies_on_the_surface_and_along_the_normal() {
        let a = Vector2::new(3.0, 0.5);
        for p in [
            Vector2::new(2.0, 4.0),
            Vector2::new(1.0, 0.2),
            Vector2::new(-2.5, 1e-9),
        ] {
            let c = nearest_point(&p, &a, 0.0, FULL);
            let on = (c.point[0] / 3.0).powi(2) + (c.point[1] / 0.5).powi(2);
            assert!((on - 1.0).abs() < 1e-14, "{p:?}: {on}");
            let n = c.gradient;
            assert!(
                n.perp(&c.offset).abs() < 1e-14 * n.norm() * c.offset.norm(),
                "{p:?}"
            );
        }
    }

    #[test]
    fn the_centre_is_nearest_the_ends_of_the_smallest_axis() {
        let a = Vector3::new(3.0, 2.0, 1.0);
        let c = nearest_point(&Vector3::zeros(), &a, 0.0, FULL);
        assert_eq!(c.point, Vector3::new(0.0, 0.0, 1.0));
        assert_eq!(c.offset, Vector3::new(0.0, 0.0, -1.0));
        // On the medial segment of an ellipse: p = (x, 0) with |x| < (a² − b²)/a.
        let e = Vector2::new(2.0, 1.0);
        let c = nearest_point(&Vector2::new(1.0, 0.0), &e, 0.0, FULL);
        let expected = Vector2::new(4.0 / 3.0, (1.0f64 - 4.0 / 9.0).sqrt());
        assert!((c.point - expected).norm() < 1e-15);
    }
}
