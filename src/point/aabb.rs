//! Point queries on a box: outside, the nearest point is `p` clamped to the box (exact) and the
//! distance the length of the remaining offset; inside, the nearest face, `p` moved onto it
//! (exact), at the depth `min(p_i − min_i, max_i − p_i)` (one rounding each).

use nalgebra::SVector;

use super::{Nearby, Nearest, point_query};
use crate::bounds::Aabb;
use crate::cast::Origin;
use crate::core::exact::two_sum;
use crate::core::unit::unit_and_length;
use crate::real::{Real, widen};

impl<T: Real, const D: usize> Nearby<T, D> for Aabb<T, D> {
    fn nearest(&self, p: &SVector<f64, D>, at: impl Origin<D>, k: f64) -> Nearest<D> {
        let min = widen(&self.min().coords) * k;
        let max = widen(&self.max().coords) * k;
        // `p` less a bound on each axis, with the vector held apart (`(p − b) + lo` from the
        // exact difference: one rounding of the whole).
        let lo = at.beyond();
        let from = |i: usize, bound: f64| match lo {
            None => p[i] - bound,
            Some(lo) => {
                let (hi, err) = two_sum(p[i], -bound);
                hi + (err + lo[i])
            }
        };
        let below = SVector::<f64, D>::from_fn(|i, _| from(i, min[i]));
        let above = SVector::<f64, D>::from_fn(|i, _| from(i, max[i]));
        let outside = SVector::<f64, D>::from_fn(|i, _| {
            if below[i] < 0.0 {
                below[i]
            } else if above[i] > 0.0 {
                above[i]
            } else {
                0.0
            }
        });
        if outside.iter().any(|&x| x != 0.0) {
            let (normal, distance) =
                unit_and_length(&outside).unwrap_or((SVector::zeros(), f64::INFINITY));
            return Nearest {
                distance,
                point: SVector::from_fn(|i, _| {
                    if below[i] < 0.0 {
                        min[i]
                    } else if above[i] > 0.0 {
                        max[i]
                    } else {
                        p[i]
                    }
                }),
                normal,
            };
        }
        // Inside or on the surface: the shallowest face, lowest axis first, its min face first.
        let mut depth = f64::INFINITY;
        let mut face = (0, false);
        for i in 0..D {
            for (d, upper) in [(below[i], false), (0.0 - above[i], true)] {
                if d < depth {
                    (depth, face) = (d, (i, upper));
                }
            }
        }
        let (axis, upper) = face;
        let mut point = *p;
        let mut normal = SVector::zeros();
        point[axis] = if upper { max[axis] } else { min[axis] };
        normal[axis] = if upper { 1.0 } else { -1.0 };
        Nearest {
            distance: 0.0 - depth,
            point,
            normal,
        }
    }
}

point_query!(
    /// Outside, the nearest point is the point clamped to the box, with the normal along the
    /// offset (a face's normal, or between faces' at an edge or corner). Inside, it is on the
    /// nearest face; where faces tie, the one of the lowest axis, its min face before its max.
    Aabb
);
