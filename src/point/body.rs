//! Point queries on a [`Body`]: the solid's own.

use nalgebra::{Point, SVector, Unit};

use super::PointQuery;
use crate::real::Real;
use crate::scene::Body;

impl<T: Real, const D: usize> PointQuery<T, D> for Body<T, D> {
    fn signed_distance(&self, p: &Point<T, D>) -> T {
        match self {
            Body::Sphere(s) => s.signed_distance(p),
            Body::Ellipsoid(e) => e.signed_distance(p),
            Body::Aabb(b) => b.signed_distance(p),
        }
    }

    fn closest_point(&self, p: &Point<T, D>) -> (Point<T, D>, Unit<SVector<T, D>>) {
        match self {
            Body::Sphere(s) => s.closest_point(p),
            Body::Ellipsoid(e) => e.closest_point(p),
            Body::Aabb(b) => b.closest_point(p),
        }
    }

    fn is_within(&self, p: &Point<T, D>, distance: T) -> bool {
        match self {
            Body::Sphere(s) => s.is_within(p, distance),
            Body::Ellipsoid(e) => e.is_within(p, distance),
            Body::Aabb(b) => b.is_within(p, distance),
        }
    }
}
