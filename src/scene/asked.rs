//! Where a scene's proximity query is asked ([`Asked`]): at a point of the width, or at a point
//! moved exactly by an offset (a periodic image's, `super::moved`), which the bodies measure
//! from the exact point where they can. The descents of `within` and `nearest`
//! (`src/scene/proximity.rs`, `src/scene/search.rs`) read the point only through it.

use nalgebra::{Point, SVector, Unit};

use super::lower_bound::LowerBound;
use crate::point::PointQuery;
use crate::real::Real;

/// A point a proximity query is asked at.
pub(crate) trait Asked<T: Real, const D: usize>: Copy {
    /// The point prepared for the bounds of the hierarchy's boxes.
    fn lower_bound(&self) -> LowerBound<D>;

    /// [`PointQuery::is_within`] of `body` at the point.
    fn is_within<S: PointQuery<T, D>>(&self, body: &S, distance: T) -> bool;

    /// [`PointQuery::signed_distance`] of `body` at the point.
    fn signed_distance<S: PointQuery<T, D>>(&self, body: &S) -> T;

    /// [`PointQuery::closest_point`] of `body` at the point, placed where the query is asked.
    fn closest_point<S: PointQuery<T, D>>(&self, body: &S) -> (Point<T, D>, Unit<SVector<T, D>>);
}

/// A point of the width: each body's own methods.
impl<T: Real, const D: usize> Asked<T, D> for Point<T, D> {
    #[inline(always)]
    fn lower_bound(&self) -> LowerBound<D> {
        LowerBound::of(self)
    }

    #[inline(always)]
    fn is_within<S: PointQuery<T, D>>(&self, body: &S, distance: T) -> bool {
        body.is_within(self, distance)
    }

    #[inline(always)]
    fn signed_distance<S: PointQuery<T, D>>(&self, body: &S) -> T {
        body.signed_distance(self)
    }

    #[inline(always)]
    fn closest_point<S: PointQuery<T, D>>(&self, body: &S) -> (Point<T, D>, Unit<SVector<T, D>>) {
        body.closest_point(self)
    }
}
