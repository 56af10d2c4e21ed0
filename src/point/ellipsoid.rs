//! Point queries on an ellipsoid: the point in the local frame `Qᵀ(p − c)` in twice the working
//! precision; inside or outside decided on that exact offset; the nearest point by Eberly's
//! method ([`crate::core::nearest`]).

use nalgebra::SVector;

use super::{Nearby, Nearest, point_query};
use crate::cast::{Origin, unit};
use crate::core::nearest::nearest_point;
use crate::core::quadratic::Offset;
use crate::core::unit::unit_and_length;
use crate::fused::BASE_PRODUCTS;
use crate::real::{Real, widen};
use crate::shape::{Ellipsoid, scaled_to_unit};

/// The root search's tolerance, relative: the full working precision.
const TOLERANCE: f64 = 2.0 * f64::EPSILON;

impl<T: Real, const D: usize> Nearby<T, D> for Ellipsoid<T, D> {
    fn nearest(&self, p: &SVector<f64, D>, at: impl Origin<D>, k: f64) -> Nearest<D> {
        let c = widen(&self.center().coords) * k;
        let a = widen(self.semi_axes()) * k;
        let local = self.rotated_to_local(&at.offset(Offset::between(p, &c)), BASE_PRODUCTS);
        let inside = scaled_to_unit(&local, &a, BASE_PRODUCTS).power(1.0, BASE_PRODUCTS) <= 0.0;
        let q = nearest_point(&(local.hi() + local.lo()), &a, 0.0, TOLERANCE);
        // Zero on the surface; NaN where the local point overflowed (then [`super::nearest`]
        // halves the problem).
        let length = if q.offset.iter().all(|x| *x == 0.0) {
            0.0
        } else {
            unit_and_length(&q.offset).map_or(f64::NAN, |(_, l)| l)
        };
        let normal = unit(&q.gradient).unwrap_or_else(SVector::zeros);
        Nearest {
            distance: if inside { 0.0 - length } else { length },
            point: c + self.in_world_axes(&q.point),
            normal: self.in_world_axes(&normal),
        }
    }
}

point_query!(
    /// Where several surface points are nearest (points on the medial region, such as the
    /// centre), the one whose local coordinates are as Eberly's formula gives them, with the
    /// rest of the unit length along the first smallest semi-axis, positive.
    Ellipsoid
);
