//! The solids: thin wrappers that validate their input and call a core.

mod aabb;
mod ellipsoid;
#[cfg(test)]
mod products_agree;
mod sphere;

pub use aabb::{Aabb, Rect};
pub use ellipsoid::{Ellipse, Ellipsoid, ORTHONORMAL_TOLERANCE};
pub use sphere::{Circle, Sphere};

use nalgebra::{Point, SVector};

use crate::core::exact::two_sum;
use crate::error::Error;
use crate::real::{Real, round_down, round_up};

/// The bounds `center ∓ extent` rounded outward to width `T` exactly: the smallest box of the
/// width holding every point within `extent[i]` of `center` on axis `i`. A bound beyond the
/// width's range is infinite.
fn bounds_around<T: Real, const D: usize>(
    center: &SVector<f64, D>,
    extent: &SVector<f64, D>,
) -> (Point<T, D>, Point<T, D>) {
    let mut min = Point::<T, D>::origin();
    let mut max = Point::<T, D>::origin();
    for i in 0..D {
        let (lo, lo_err) = two_sum(center[i], -extent[i]);
        let (hi, hi_err) = two_sum(center[i], extent[i]);
        min[i] = round_down(lo, lo_err);
        max[i] = round_up(hi, hi_err);
    }
    (min, max)
}

/// The box of [`bounds_around`]; `Err` where a bound overflows the width.
pub(crate) fn box_around<T: Real, const D: usize>(
    center: &SVector<f64, D>,
    extent: &SVector<f64, D>,
) -> Result<Aabb<T, D>, Error> {
    let (min, max) = bounds_around(center, extent);
    Aabb::new(min, max)
}

/// The box of [`bounds_around`] for [`crate::Shape::aabb`], which cannot fail: a bound beyond the
/// width's range is saturated at its largest finite value.
pub(crate) fn bounding_box<T: Real, const D: usize>(
    center: &SVector<f64, D>,
    extent: &SVector<f64, D>,
) -> Aabb<T, D> {
    let (min, max) = bounds_around::<T, D>(center, extent);
    let top = T::from_wide(T::MAX_WIDE);
    Aabb::from_ordered_bounds(min.map(|v| v.max(-top)), max.map(|v| v.min(top)))
}
