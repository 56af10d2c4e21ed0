//! Point queries on a ball: the distance `|p − c| − r` from the exact offset `p − c`, as
//! `(|p − c|² − r²) / (|p − c| + r)` with the numerator in twice the working precision, so that
//! it keeps its relative precision next to the surface where the plain difference cancels. Its
//! error-free products are fused where the CPU can ([`with_fused_products`]): a scene's
//! proximity queries measure many balls.

use nalgebra::SVector;

use super::{Nearby, Nearest, point_query};
use crate::cast::{Origin, unit};
use crate::core::quadratic::Offset;
use crate::fused::with_fused_products;
use crate::real::{Real, widen};
use crate::shape::Sphere;

impl<T: Real, const D: usize> Nearby<T, D> for Sphere<T, D> {
    fn nearest(&self, p: &SVector<f64, D>, at: impl Origin<D>, k: f64) -> Nearest<D> {
        let c = widen(&self.center().coords) * k;
        let r = self.radius().to_wide() * k;
        let f = at.offset(Offset::between(p, &c));
        // From the centre, where every direction is nearest: the first axis.
        let normal = unit(&(f.hi() + f.lo()))
            .unwrap_or_else(|| SVector::from_fn(|i, _| if i == 0 { 1.0 } else { 0.0 }));
        Nearest {
            distance: excess(&f, r),
            point: c + normal * r,
            normal,
        }
    }

    fn distance(&self, p: &SVector<f64, D>, at: impl Origin<D>, k: f64) -> f64 {
        let c = widen(&self.center().coords) * k;
        excess(
            &at.offset(Offset::between(p, &c)),
            self.radius().to_wide() * k,
        )
    }

    /// The plain estimate `|p − c| − r` (the offset rounded, plus the vector held apart, its
    /// length from plain squares: within `(D + 4)·2^-53·|p − c|` of the exact, or `2^-536`
    /// where the squares underflow) decides where it lies farther than
    /// `2^-20·(|p − c| + r) + 2^-500` (`2^-126` for `f32`) from `limit`: more than that
    /// estimate's error and the signed distance's own (1 ulp of `f32`, a few of `f64`)
    /// together, with room for the test's roundings. Elsewhere, and for points that are not
    /// finite or whose squares overflow, the signed distance decides.
    #[inline]
    fn clearly_within(&self, p: &SVector<f64, D>, at: impl Origin<D>, limit: f64) -> Option<bool> {
        let mut f = p - widen(&self.center().coords);
        if let Some(lo) = at.beyond() {
            f += lo;
        }
        let r = self.radius().to_wide();
        let length = f.norm();
        let estimate = length - r;
        let tiny = if T::EPSILON_WIDE > f64::EPSILON {
            f64::from(f32::MIN_POSITIVE)
        } else {
            UNDERFLOW
        };
        let room = ROOM * (length + r) + tiny;
        if estimate.is_finite() && room.is_finite() {
            if estimate + room <= limit {
                return Some(true);
            }
            if estimate - room > limit {
                return Some(false);
            }
        }
        None
    }
}

/// `|f| − r` for the exact offset `f` ([`Offset::excess`]).
#[inline]
fn excess<const D: usize>(f: &Offset<D>, r: f64) -> f64 {
    with_fused_products(|products| f.excess(r, products))
}

point_query!(
    /// The nearest point is `c + r (p − c)/|p − c|`; from the centre, where every surface point
    /// is nearest, it is `c + r e₀` (along the first axis), with normal `e₀`.
    /// [`PointQuery::is_within`](crate::PointQuery::is_within) decides from a plain estimate of
    /// the distance and its error bound where the point is clearly nearer or farther (beyond
    /// `2^-20` of `|p − c| + r`), and measures the signed distance elsewhere.
    Sphere
);

/// `2^-20`: the room [`PointQuery::is_within`](crate::PointQuery::is_within) leaves a ball's
/// plain estimate, relative to the problem's size.
const ROOM: f64 = 1.0 / 1_048_576.0;

/// `2^-500`: room for the plain estimate's squares where they underflow.
const UNDERFLOW: f64 = f64::from_bits(523 << 52);
