//! Point queries on a [`Body`]: the solid's own.

use nalgebra::{Point, SVector, Unit};

use super::PointQuery;
use crate::real::Real;
use crate::shape::{Body, on_solid};
use crate::traits::Sealed;

impl<T: Real, const D: usize> PointQuery<T, D> for Body<T, D> {
    fn signed_distance(&self, p: &Point<T, D>) -> T {
        on_solid!(self, s => s.signed_distance(p))
    }

    fn closest_point(&self, p: &Point<T, D>) -> (Point<T, D>, Unit<SVector<T, D>>) {
        on_solid!(self, s => s.closest_point(p))
    }

    fn is_within(&self, p: &Point<T, D>, distance: T) -> bool {
        on_solid!(self, s => s.is_within(p, distance))
    }

    #[doc(hidden)]
    fn as_wide_body(&self, token: Sealed) -> Option<Body<f64, D>> {
        on_solid!(self, s => s.as_wide_body(token))
    }

    #[doc(hidden)]
    fn moved_distance(&self, token: Sealed, p: &Point<f64, D>, lo: SVector<f64, D>) -> Option<f64> {
        on_solid!(self, s => s.moved_distance(token, p, lo))
    }

    #[doc(hidden)]
    fn moved_within(
        &self,
        token: Sealed,
        p: &Point<f64, D>,
        lo: SVector<f64, D>,
        distance: T,
    ) -> Option<bool> {
        on_solid!(self, s => s.moved_within(token, p, lo, distance))
    }

    #[doc(hidden)]
    fn moved_closest(
        &self,
        token: Sealed,
        p: &Point<f64, D>,
        lo: SVector<f64, D>,
    ) -> Option<(Point<f64, D>, SVector<f64, D>)> {
        on_solid!(self, s => s.moved_closest(token, p, lo))
    }
}
