//! Every kind of scene's queries as inherent methods, so that `scene.cast_ray(..)` needs no
//! `use` of [`Geometry`] or [`Proximity`]: one macro writes, for each kind, a method of each
//! trait method's name and signature that calls it. The queries' meaning and examples are the
//! traits' (`src/scene/surface.rs`).

use alloc::vec::Vec;

use nalgebra::Point;

use super::answer::{BodyCrossing, BodyHit, BodySpan};
use super::instance::{
    InstanceCrossing, InstanceHit, InstanceNearest, InstanceSpan, InstancedScene,
};
use super::periodic::{
    Image, PeriodicCrossing, PeriodicHit, PeriodicNearest, PeriodicScene, PeriodicSpan,
};
use super::plain::Scene;
use super::surface::{Geometry, Proximity};
use crate::hit::Span;
use crate::point::PointQuery;
use crate::ray::Ray;
use crate::real::Real;
use crate::traits::Cast;

/// The inherent ray queries of kind `$kind` (whose ids are `$id`, hits `$hit`, spans `$span`
/// and crossings `$crossing`), each calling the [`Geometry`] method of its name.
macro_rules! inherent {
    ($kind:ident, $id:ty, $hit:ty, $span:ty, $crossing:ty, shared if $($sync:tt)+) => {
        impl<T: Real, const D: usize, S: Cast<T, D>> $kind<T, D, S> {
            /// [`Geometry::cast_ray`]: the first hit within `[0, max_distance]`.
            #[inline]
            pub fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<$hit> {
                Geometry::cast_ray(self, ray, max_distance)
            }

            /// [`Geometry::cast_ray_filtered`]: the first hit over the items `filter` keeps.
            #[inline]
            pub fn cast_ray_filtered(
                &self,
                ray: &Ray<T, D>,
                max_distance: T,
                filter: impl FnMut(usize) -> bool,
            ) -> Option<$hit> {
                Geometry::cast_ray_filtered(self, ray, max_distance, filter)
            }

            /// [`Geometry::cast_sphere`]: the first contact of a ball of `radius`.
            #[inline]
            pub fn cast_sphere(&self, ray: &Ray<T, D>, radius: T, max_distance: T) -> Option<$hit> {
                Geometry::cast_sphere(self, ray, radius, max_distance)
            }

            /// [`Geometry::cast_sphere_filtered`]: the first contact of a ball over the items
            /// `filter` keeps.
            #[inline]
            pub fn cast_sphere_filtered(
                &self,
                ray: &Ray<T, D>,
                radius: T,
                max_distance: T,
                filter: impl FnMut(usize) -> bool,
            ) -> Option<$hit> {
                Geometry::cast_sphere_filtered(self, ray, radius, max_distance, filter)
            }

            /// [`Geometry::hits_any`]: whether any body is hit within `[0, max_distance]`.
            #[inline]
            pub fn hits_any(&self, ray: &Ray<T, D>, max_distance: T) -> bool {
                Geometry::hits_any(self, ray, max_distance)
            }

            /// [`Geometry::hits_any_filtered`]: whether any body of the items `filter` keeps is
            /// hit.
            #[inline]
            pub fn hits_any_filtered(
                &self,
                ray: &Ray<T, D>,
                max_distance: T,
                filter: impl FnMut(usize) -> bool,
            ) -> bool {
                Geometry::hits_any_filtered(self, ray, max_distance, filter)
            }

            /// [`Geometry::next_crossing`]: the next crossing of a body's surface beyond
            /// `after`, within `max_distance`.
            #[inline]
            pub fn next_crossing(
                &self,
                ray: &Ray<T, D>,
                after: T,
                max_distance: T,
            ) -> Option<$crossing> {
                Geometry::next_crossing(self, ray, after, max_distance)
            }

            /// [`Geometry::next_crossing_filtered`]: the next crossing over the items `filter`
            /// keeps.
            #[inline]
            pub fn next_crossing_filtered(
                &self,
                ray: &Ray<T, D>,
                after: T,
                max_distance: T,
                filter: impl FnMut(usize) -> bool,
            ) -> Option<$crossing> {
                Geometry::next_crossing_filtered(self, ray, after, max_distance, filter)
            }

            /// [`Geometry::ray_spans_to`]: the spans that meet the segment `[0, max_distance]`.
            #[inline]
            pub fn ray_spans_to(&self, ray: &Ray<T, D>, max_distance: T, spans: &mut Vec<$span>) {
                Geometry::ray_spans_to(self, ray, max_distance, spans);
            }

            /// [`Geometry::ray_spans_to_filtered`]: the spans that meet the segment, over the
            /// items `filter` keeps.
            #[inline]
            pub fn ray_spans_to_filtered(
                &self,
                ray: &Ray<T, D>,
                max_distance: T,
                spans: &mut Vec<$span>,
                filter: impl FnMut(usize) -> bool,
            ) {
                Geometry::ray_spans_to_filtered(self, ray, max_distance, spans, filter);
            }

            /// [`Geometry::sphere_spans_to`]: a ball's spans while its centre travels the
            /// segment `[0, max_distance]`.
            #[inline]
            pub fn sphere_spans_to(
                &self,
                ray: &Ray<T, D>,
                radius: T,
                max_distance: T,
                spans: &mut Vec<$span>,
            ) {
                Geometry::sphere_spans_to(self, ray, radius, max_distance, spans);
            }

            /// [`Geometry::sphere_spans_to_filtered`]: a ball's spans over the items `filter`
            /// keeps.
            #[inline]
            pub fn sphere_spans_to_filtered(
                &self,
                ray: &Ray<T, D>,
                radius: T,
                max_distance: T,
                spans: &mut Vec<$span>,
                filter: impl FnMut(usize) -> bool,
            ) {
                Geometry::sphere_spans_to_filtered(self, ray, radius, max_distance, spans, filter);
            }

            /// [`Geometry::union_spans`]: the intervals of the union of the spans that meet the
            /// segment `[0, max_distance]`.
            #[inline]
            pub fn union_spans(&self, ray: &Ray<T, D>, max_distance: T, spans: &mut Vec<Span<T>>) {
                Geometry::union_spans(self, ray, max_distance, spans);
            }

            /// [`Geometry::union_spans_filtered`]: the union over the items `filter` keeps.
            #[inline]
            pub fn union_spans_filtered(
                &self,
                ray: &Ray<T, D>,
                max_distance: T,
                spans: &mut Vec<Span<T>>,
                filter: impl FnMut(usize) -> bool,
            ) {
                Geometry::union_spans_filtered(self, ray, max_distance, spans, filter);
            }

            /// [`Geometry::union_sphere_spans`]: the intervals of the union of a ball's spans
            /// while its centre travels the segment `[0, max_distance]`.
            #[inline]
            pub fn union_sphere_spans(
                &self,
                ray: &Ray<T, D>,
                radius: T,
                max_distance: T,
                spans: &mut Vec<Span<T>>,
            ) {
                Geometry::union_sphere_spans(self, ray, radius, max_distance, spans);
            }

            /// [`Geometry::union_sphere_spans_filtered`]: the union of a ball's spans over the
            /// items `filter` keeps.
            #[inline]
            pub fn union_sphere_spans_filtered(
                &self,
                ray: &Ray<T, D>,
                radius: T,
                max_distance: T,
                spans: &mut Vec<Span<T>>,
                filter: impl FnMut(usize) -> bool,
            ) {
                Geometry::union_sphere_spans_filtered(self, ray, radius, max_distance, spans, filter);
            }

            /// [`Geometry::containing`]: the bodies that contain `point`, in increasing id.
            #[inline]
            pub fn containing(&self, point: &Point<T, D>, found: &mut Vec<$id>) {
                Geometry::containing(self, point, found);
            }

            /// [`Geometry::containing_filtered`]: the bodies of the items `filter` keeps that
            /// contain `point`.
            #[inline]
            pub fn containing_filtered(
                &self,
                point: &Point<T, D>,
                found: &mut Vec<$id>,
                filter: impl FnMut(usize) -> bool,
            ) {
                Geometry::containing_filtered(self, point, found, filter);
            }

            /// [`Geometry::cast_rays`]: each ray's first hit.
            ///
            /// # Panics
            ///
            /// If `rays` and `hits` differ in length.
            #[inline]
            pub fn cast_rays(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<$hit>]) {
                Geometry::cast_rays(self, rays, max_distance, hits);
            }

            /// [`Geometry::cast_rays_filtered`]: each ray's first hit within its own limit, over
            /// the items `filter` keeps.
            ///
            /// # Panics
            ///
            /// If `rays`, `max_distances` and `hits` differ in length.
            #[inline]
            pub fn cast_rays_filtered(
                &self,
                rays: &[Ray<T, D>],
                max_distances: &[T],
                hits: &mut [Option<$hit>],
                filter: impl Fn(usize) -> bool,
            ) {
                Geometry::cast_rays_filtered(self, rays, max_distances, hits, filter);
            }

            /// [`Geometry::ray_order`]: the order in which a batch traces rays from `origins`.
            #[inline]
            #[must_use]
            pub fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
                Geometry::ray_order(self, origins)
            }

            /// [`Geometry::cast_rays_par`]: [`Geometry::cast_rays`] on rayon's threads, the same
            /// bits. Available with the crate feature `rayon`.
            ///
            /// # Panics
            ///
            /// If `rays` and `hits` differ in length.
            #[cfg(feature = "rayon")]
            #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
            #[inline]
            pub fn cast_rays_par(
                &self,
                rays: &[Ray<T, D>],
                max_distance: T,
                hits: &mut [Option<$hit>],
            ) where
                S: $($sync)+,
            {
                Geometry::cast_rays_par(self, rays, max_distance, hits);
            }

            /// [`Geometry::cast_rays_filtered_par`]: [`Geometry::cast_rays_filtered`] on
            /// rayon's threads, the same bits. Available with the crate feature `rayon`.
            ///
            /// # Panics
            ///
            /// If `rays`, `max_distances` and `hits` differ in length.
            #[cfg(feature = "rayon")]
            #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
            #[inline]
            pub fn cast_rays_filtered_par(
                &self,
                rays: &[Ray<T, D>],
                max_distances: &[T],
                hits: &mut [Option<$hit>],
                filter: impl Fn(usize) -> bool + Sync,
            ) where
                S: $($sync)+,
            {
                Geometry::cast_rays_filtered_par(self, rays, max_distances, hits, filter);
            }
        }

    };
}

/// The inherent proximity methods of kind `$kind` (ids `$id`, nearest answers `$near`), each
/// calling the [`Proximity`] method of its name. (A plain [`Scene`]'s are its own, which ask of
/// the bodies only [`PointQuery`]: `src/scene/proximity.rs`.)
macro_rules! inherent_proximity {
    ($kind:ident, $id:ty, $near:ty, shared if $($sync:tt)+) => {
        impl<T: Real, const D: usize, S: Cast<T, D> + PointQuery<T, D>> $kind<T, D, S> {
            /// [`Proximity::nearest`]: the body nearest to `point` within `max_distance`.
            #[inline]
            pub fn nearest(&self, point: &Point<T, D>, max_distance: T) -> Option<$near> {
                Proximity::nearest(self, point, max_distance)
            }

            /// [`Proximity::nearest_filtered`]: the nearest body of the items `filter` keeps.
            #[inline]
            pub fn nearest_filtered(
                &self,
                point: &Point<T, D>,
                max_distance: T,
                filter: impl FnMut(usize) -> bool,
            ) -> Option<$near> {
                Proximity::nearest_filtered(self, point, max_distance, filter)
            }

            /// [`Proximity::within`]: the bodies within `distance` of `point`, in increasing id.
            #[inline]
            pub fn within(&self, point: &Point<T, D>, distance: T, found: &mut Vec<$id>) {
                Proximity::within(self, point, distance, found);
            }

            /// [`Proximity::within_filtered`]: the bodies of the items `filter` keeps within
            /// `distance` of `point`.
            #[inline]
            pub fn within_filtered(
                &self,
                point: &Point<T, D>,
                distance: T,
                found: &mut Vec<$id>,
                filter: impl FnMut(usize) -> bool,
            ) {
                Proximity::within_filtered(self, point, distance, found, filter);
            }

            /// [`Proximity::nearest_batch`]: each point's nearest body.
            ///
            /// # Panics
            ///
            /// If `points` and `found` differ in length.
            #[inline]
            pub fn nearest_batch(
                &self,
                points: &[Point<T, D>],
                max_distance: T,
                found: &mut [Option<$near>],
            ) {
                Proximity::nearest_batch(self, points, max_distance, found);
            }

            /// [`Proximity::nearest_batch_filtered`]: each point's nearest body of the items
            /// `filter` keeps.
            ///
            /// # Panics
            ///
            /// If `points` and `found` differ in length.
            #[inline]
            pub fn nearest_batch_filtered(
                &self,
                points: &[Point<T, D>],
                max_distance: T,
                found: &mut [Option<$near>],
                filter: impl FnMut(usize) -> bool,
            ) {
                Proximity::nearest_batch_filtered(self, points, max_distance, found, filter);
            }

            /// [`Proximity::within_batch`]: each point's bodies within `distance`, in CSR form.
            #[inline]
            pub fn within_batch(
                &self,
                points: &[Point<T, D>],
                distance: T,
                offsets: &mut Vec<usize>,
                found: &mut Vec<$id>,
            ) {
                Proximity::within_batch(self, points, distance, offsets, found);
            }

            /// [`Proximity::within_batch_filtered`]: each point's bodies of the items `filter`
            /// keeps within `distance`.
            #[inline]
            pub fn within_batch_filtered(
                &self,
                points: &[Point<T, D>],
                distance: T,
                offsets: &mut Vec<usize>,
                found: &mut Vec<$id>,
                filter: impl FnMut(usize) -> bool,
            ) {
                Proximity::within_batch_filtered(self, points, distance, offsets, found, filter);
            }

            /// [`Proximity::nearest_batch_par`]: [`Proximity::nearest_batch`] on rayon's
            /// threads, the same bits. Available with the crate feature `rayon`.
            ///
            /// # Panics
            ///
            /// If `points` and `found` differ in length.
            #[cfg(feature = "rayon")]
            #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
            #[inline]
            pub fn nearest_batch_par(
                &self,
                points: &[Point<T, D>],
                max_distance: T,
                found: &mut [Option<$near>],
            ) where
                S: $($sync)+,
            {
                Proximity::nearest_batch_par(self, points, max_distance, found);
            }

            /// [`Proximity::nearest_batch_filtered_par`]: [`Proximity::nearest_batch_filtered`]
            /// on rayon's threads, the same bits. Available with the crate feature `rayon`.
            ///
            /// # Panics
            ///
            /// If `points` and `found` differ in length.
            #[cfg(feature = "rayon")]
            #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
            #[inline]
            pub fn nearest_batch_filtered_par(
                &self,
                points: &[Point<T, D>],
                max_distance: T,
                found: &mut [Option<$near>],
                filter: impl Fn(usize) -> bool + Sync,
            ) where
                S: $($sync)+,
            {
                Proximity::nearest_batch_filtered_par(self, points, max_distance, found, filter);
            }

            /// [`Proximity::within_batch_par`]: [`Proximity::within_batch`] on rayon's threads,
            /// the same lists. Available with the crate feature `rayon`.
            #[cfg(feature = "rayon")]
            #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
            #[inline]
            pub fn within_batch_par(
                &self,
                points: &[Point<T, D>],
                distance: T,
                offsets: &mut Vec<usize>,
                found: &mut Vec<$id>,
            ) where
                S: $($sync)+,
            {
                Proximity::within_batch_par(self, points, distance, offsets, found);
            }

            /// [`Proximity::within_batch_filtered_par`]: [`Proximity::within_batch_filtered`]
            /// on rayon's threads, the same lists. Available with the crate feature `rayon`.
            #[cfg(feature = "rayon")]
            #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
            #[inline]
            pub fn within_batch_filtered_par(
                &self,
                points: &[Point<T, D>],
                distance: T,
                offsets: &mut Vec<usize>,
                found: &mut Vec<$id>,
                filter: impl Fn(usize) -> bool + Sync,
            ) where
                S: $($sync)+,
            {
                Proximity::within_batch_filtered_par(self, points, distance, offsets, found, filter);
            }
        }
    };
}

// Each kind is shared by threads where its bodies are: an instanced scene's scenes are held in
// `Arc`s, which asks them to be `Send` too.
inherent!(
    Scene,
    usize,
    BodyHit<T, D>,
    BodySpan<T>,
    BodyCrossing<T, D>,
    shared if Sync
);
inherent!(
    InstancedScene,
    (usize, usize),
    InstanceHit<T, D>,
    InstanceSpan<T>,
    InstanceCrossing<T, D>,
    shared if Sync + Send
);
inherent!(
    PeriodicScene,
    (usize, Image<D>),
    PeriodicHit<T, D>,
    PeriodicSpan<T, D>,
    PeriodicCrossing<T, D>,
    shared if Sync
);
inherent_proximity!(
    InstancedScene,
    (usize, usize),
    InstanceNearest<T, D>,
    shared if Sync + Send
);
inherent_proximity!(
    PeriodicScene,
    (usize, Image<D>),
    PeriodicNearest<T, D>,
    shared if Sync
);
