//! A ball against a shape at time 0, for [`Sphere::time_of_impact`](crate::Sphere::time_of_impact):
//! whether it touches or overlaps the shape, and whether the gap between them is closing.
//!
//! The gap's rate is the relative velocity `v − w` dotted with the gradient of the shape's signed
//! distance at the ball's centre `p`. For the crate's balls and boxes that gradient points along
//! an offset held exactly ([`Gap::exact`]): from a ball's centre `c`, `p − c`; from a box, outside
//! it, `p − q` with `q` the centre clamped to the box (exact), and inside it or on its surface, the
//! axis of the face [`PointQuery::closest_point`] names. The offsets are TwoSum pairs `hi + lo`,
//! and each decision below is the sign of a sum of exact products held as a nonoverlapping
//! expansion (Shewchuk, "Adaptive precision floating-point arithmetic and fast robust geometric
//! predicates", 1997; [`Expansion`]). So a rate that is zero in exact arithmetic is zero here (not
//! closing), where one formed from a rounded unit normal has a tiny sign of its own, and a ball
//! that touches a ball or a box in exact arithmetic is touching: `|p − c|² − (ρ + r)²` and
//! `|p − q|² − ρ²` are decided exactly, after a plain estimate with an error bound has settled the
//! pairs that are clearly apart or overlapping.
//!
//! Each problem is first scaled by a power of two (exact) so that no product overflows. What is
//! lost is a product's rounding error below `2^-1074` (values more than about `2^970` apart in
//! magnitude within one problem), and an offset that overflows `f64` (coordinates more than
//! `2^1024` apart) counts as apart.
//!
//! An ellipsoid's gradient is the normal at its nearest point, which no finite computation gives
//! exactly. For it, and for a user's shape, the ball touches where
//! `signed_distance(p) ≤ ρ` ([`Gap::measured`]), and the rate is formed with the unit normal
//! `closest_point` gives, its sign decided exactly for that normal.

use core::cmp::Ordering;

use nalgebra::{Point, SVector};

use crate::core::exact::two_product;
use crate::core::expansion::Expansion;
use crate::core::lane::pow2_scale;
use crate::core::quadratic::Offset;
use crate::fused::BASE_PRODUCTS;
use crate::point::PointQuery;
use crate::real::{Real, widen};
use crate::shape::Body;

/// A ball against a shape at time 0.
pub(crate) struct Gap<const D: usize> {
    /// Whether the ball touches or overlaps the shape.
    pub(crate) touching: bool,
    /// Along the gradient of the shape's signed distance at the ball's centre (up to a positive
    /// factor), exactly for [`Gap::exact`].
    direction: Offset<D>,
}

impl<const D: usize> Gap<D> {
    /// The ball of `centre` and `radius` against a ball or a box, decided exactly (an `f32` shape
    /// widened); `None` for an ellipsoid.
    pub(crate) fn exact(
        body: &Body<f64, D>,
        centre: &SVector<f64, D>,
        radius: f64,
    ) -> Option<Self> {
        let (outside, reach) = match body {
            Body::Sphere(ball) => (Some(ball.center().coords), ball.radius()),
            Body::Aabb(b) => {
                let q = centre.sup(&b.min().coords).inf(&b.max().coords);
                ((q != *centre).then_some(q), 0.0)
            }
            Body::Ellipsoid(_) => return None,
        };
        let offset = outside.map(|q| Offset::between(centre, &q));
        Some(match offset {
            Some(f) if f.hi() != SVector::<f64, D>::zeros() => Gap {
                touching: within(&f, radius, reach),
                direction: f,
            },
            // The centre inside a box or on its surface, or at a ball's centre: the normal that
            // `closest_point` gives there is an axis, exact.
            _ => Gap {
                touching: true,
                direction: Offset::from_vector(
                    body.closest_point(&Point::from(*centre)).1.into_inner(),
                ),
            },
        })
    }

    /// The ball against any shape, from its point queries: touching where
    /// `signed_distance(centre) ≤ radius`, the direction the normal `closest_point` gives.
    pub(crate) fn measured<T: Real, S: PointQuery<T, D> + ?Sized>(
        shape: &S,
        centre: &Point<T, D>,
        radius: T,
    ) -> Self {
        Gap {
            touching: shape.signed_distance(centre) <= radius,
            direction: Offset::from_vector(widen(shape.closest_point(centre).1.as_ref())),
        }
    }

    /// Whether `(v − w) · direction < 0`, decided exactly (a direction that is not finite, which
    /// only a user's shape could give, is not closing).
    pub(crate) fn closing(&self, v: &SVector<f64, D>, w: &SVector<f64, D>) -> bool {
        let (hi, lo) = (self.direction.hi(), self.direction.lo());
        if !hi.iter().chain(lo.iter()).all(|x| x.is_finite()) {
            return false;
        }
        let down = pow2_scale(v.amax().max(w.amax())).0;
        let (v, w) = (v * down, w * down);
        let down = pow2_scale(hi.amax()).0;
        let mut rate = Expansion::<D, 8>::default();
        for i in 0..D {
            for x in [v[i], -w[i]] {
                for y in [hi[i], lo[i]] {
                    add_product(&mut rate, x, y * down);
                }
            }
        }
        rate.sign() == Ordering::Less
    }
}

/// Whether `|f|² ≤ (ρ + r)²` for the offset `f = hi + lo` (not zero), exactly: a plain estimate
/// where its error bound settles it, the expansion elsewhere.
fn within<const D: usize>(f: &Offset<D>, rho: f64, r: f64) -> bool {
    let down = pow2_scale(f.hi().amax().max(rho).max(r)).0;
    let (hi, lo, rho, r) = (f.hi() * down, f.lo() * down, rho * down, r * down);
    // Every value is below 2 and the largest at least 1, so `|hi|²` is below `4·D` and `(ρ + r)²`
    // below 16; the estimate's error (the dropped `lo` terms, each below `2^-50`, the rounding
    // of `ρ + r` and of the squares, and `D + 1` roundings of sums below `4·D + 16`) is below
    // `8·(D + 2)²` ulps of 1, well inside the bound.
    let reach = rho + r;
    let estimate = hi.norm_squared() - reach * reach;
    let bound = 64.0 * ((D + 2) * (D + 2)) as f64 * f64::EPSILON;
    if estimate > bound {
        return false;
    }
    if estimate < -bound {
        return true;
    }
    let mut gap = Expansion::<D, 12>::default();
    for i in 0..D {
        add_product(&mut gap, hi[i], hi[i]);
        add_product(&mut gap, 2.0 * hi[i], lo[i]);
        add_product(&mut gap, lo[i], lo[i]);
    }
    add_product(&mut gap, -rho, rho);
    add_product(&mut gap, -2.0 * rho, r);
    add_product(&mut gap, -r, r);
    gap.sign() != Ordering::Greater
}

/// Adds `a·b` to `sum`, exactly (the product and its rounding error).
fn add_product<const ROWS: usize, const WIDTH: usize>(
    sum: &mut Expansion<ROWS, WIDTH>,
    a: f64,
    b: f64,
) {
    let (p, e) = two_product(a, b, BASE_PRODUCTS);
    sum.add(p);
    sum.add(e);
}
