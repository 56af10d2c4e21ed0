//! The solids: thin wrappers that validate their input and call a core.

mod aabb;
mod ellipsoid;
mod sphere;

pub use aabb::{Aabb, Rect};
pub use ellipsoid::{Ellipse, Ellipsoid, ORTHONORMAL_TOLERANCE};
pub use sphere::{Circle, Sphere};

use nalgebra::{Point, SVector};

use crate::core::exact::two_sum;
use crate::error::Error;
use crate::real::{Real, round_down, round_up};

/// The smallest box of width `T` holding every point within `extent[i]` of `center` on axis `i`
/// (the bounds are rounded outward, exactly).
pub(crate) fn box_around<T: Real, const D: usize>(
    center: &SVector<f64, D>,
    extent: &SVector<f64, D>,
) -> Result<Aabb<T, D>, Error> {
    let mut min = Point::<T, D>::origin();
    let mut max = Point::<T, D>::origin();
    for i in 0..D {
        let (lo, lo_err) = two_sum(center[i], -extent[i]);
        let (hi, hi_err) = two_sum(center[i], extent[i]);
        min[i] = round_down(lo, lo_err);
        max[i] = round_up(hi, hi_err);
    }
    Aabb::new(min, max)
}
