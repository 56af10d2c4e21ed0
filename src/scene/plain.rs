//! [`Scene`]: a set of bodies with a bounding volume hierarchy over them, its construction, and
//! the ray queries it answers ([`Geometry`]'s required methods, and the spans of the whole line),
//! each exactly the loop over the bodies.

use alloc::vec::Vec;

use nalgebra::{Point, SVector};

use super::answer::{BodyCrossing, BodyHit, BodySpan, sort_by_entry};
use super::crossing::{crossing_at, next_end};
use super::hierarchy::Hierarchy;
use super::node::{self, MAX_BODIES};
use super::probe::{self, F64Probe, Line, entry_cutoff, on_line};
use super::ray_batch::{self, Trace};
use super::surface::{Geometry, Kind, ball, filtered_lengths};
use crate::bounds::Aabb;
use crate::cast::assert_lengths;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::Real;
use crate::shape::Body;
use crate::traits::Cast;
use crate::traits::Sealed;

/// A set of bodies with a bounding volume hierarchy over them. Every query answers exactly what a
/// loop over the bodies answers, bit for bit, only faster: `O(log n)` per query for bodies spread
/// through space, where the loop is `O(n)`.
///
/// `S` is any [`Cast`] shape: [`Body`] (the default) for scenes that mix spheres, ellipsoids and
/// boxes, or one of them for a scene of one kind, which then pays nothing for the enum. A body's
/// id is its index in the `Vec` given to [`Scene::new`].
///
/// The hierarchy skips a node only where none of its bodies could answer. It relies on properties
/// of the bodies' answers that raysweep's shapes have and a user's `S` must have too, with `τ`
/// `2^-20` for `f32` and `2^-38` for `f64`:
///
/// - the point at a distance a cast reports (or at which `contains` holds) lies in the body's
///   [`Shape::aabb`](crate::Shape::aabb), to within `τ` of the coordinates' magnitudes (and the
///   ball's radius, for sphere casts);
/// - for [`Scene::nearest`] and [`Scene::within`], the signed distance the body reports at `p` is
///   at least the signed distance from `p` to its box (grown by `τ` of its bounds' magnitudes)
///   less `τ·D` times the largest magnitude of `p`'s and the box's coordinates: true of any solid
///   inside its box whose distances are right to within that.
///
/// The arguments, and why they hold for raysweep's shapes, are in the source's module
/// documentation: [`probe/mod.rs`](https://github.com/raysweep/raysweep/blob/main/src/scene/probe/mod.rs)
/// for the casts, [`lower_bound.rs`](https://github.com/raysweep/raysweep/blob/main/src/scene/lower_bound.rs)
/// for the proximity queries.
///
/// # Example
///
/// ```
/// use raysweep::nalgebra::{Point3, Vector3};
/// use raysweep::{Aabb, Body, Ray, Scene, Sphere};
///
/// let scene: Scene<f64> = Scene::new(vec![
///     Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?.into(),
///     Aabb::new(Point3::new(-2.0, -2.0, 8.0), Point3::new(2.0, 2.0, 9.0))?.into(),
/// ]);
/// let ray = Ray::new(Point3::origin(), Vector3::z())?;
/// let first = scene.cast_ray(&ray, f64::INFINITY).unwrap();
/// assert_eq!((first.body, first.hit.distance), (0, 4.0));
///
/// // Every body the line crosses, with its chord, sorted by entry.
/// let mut spans = Vec::new();
/// scene.ray_spans(&ray, &mut spans);
/// let chords: Vec<(usize, f64)> = spans.iter().map(|s| (s.body, s.span.length())).collect();
/// assert_eq!(chords, [(0, 2.0), (1, 1.0)]);
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Scene<T: Real, const D: usize = 3, S = Body<T, D>> {
    pub(super) bodies: Vec<S>,
    pub(super) hierarchy: Hierarchy<T, D>,
}

/// A body's box as the hierarchy takes it: a NaN bound (only a user's shape could give one)
/// becomes infinite, so that the body is never skipped.
pub(crate) fn box_of<T: Real, const D: usize, S: Cast<T, D>>(body: &S) -> ([T; D], [T; D]) {
    let b = body.aabb();
    let (min, max) = (b.min(), b.max());
    let lo = core::array::from_fn(|i| {
        let v = min[i];
        if v.to_wide().is_nan() {
            T::from_wide(f64::NEG_INFINITY)
        } else {
            v
        }
    });
    let hi = core::array::from_fn(|i| {
        let v = max[i];
        if v.to_wide().is_nan() {
            T::from_wide(f64::INFINITY)
        } else {
            v
        }
    });
    (lo, hi)
}

/// The `cast` of [`Scene::first`] for a body's [`Hit`], over the bodies `filter` keeps.
#[inline(always)]
fn kept<T: Real, const D: usize, S>(
    mut filter: impl FnMut(usize) -> bool,
    mut cast: impl FnMut(&S, f64) -> Option<Hit<T, D>>,
) -> impl FnMut(usize, &S, f64) -> Option<(f64, Hit<T, D>)> {
    move |id, body, limit| {
        if filter(id) {
            cast(body, limit).map(|hit| (hit.distance.to_wide(), hit))
        } else {
            None
        }
    }
}

/// What a scene holds, whatever its bodies.
impl<T: Real, const D: usize, S> Scene<T, D, S> {
    /// The bodies, by id.
    #[inline]
    #[must_use]
    pub fn bodies(&self) -> &[S] {
        &self.bodies
    }

    /// How many bodies there are.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether there are none.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The memory the hierarchy takes beyond the bodies, in bytes.
    #[must_use]
    pub fn hierarchy_bytes(&self) -> usize {
        self.hierarchy.bytes()
    }

    /// The scene of `bodies` whose boxes (as `min`, `max` in the width, none NaN) `box_of`
    /// gives: [`Scene::new`], and the instanced scene's hierarchy over its instances, whose boxes
    /// are not a [`Shape::aabb`](crate::Shape::aabb).
    pub(crate) fn with_boxes(bodies: Vec<S>, box_of: impl Fn(&S) -> ([T; D], [T; D])) -> Self {
        assert!(
            bodies.len() < MAX_BODIES,
            "{} bodies; a scene holds fewer than 2^31 - 1",
            bodies.len()
        );
        Scene {
            hierarchy: Hierarchy::build(bodies.iter().map(box_of)),
            bodies,
        }
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>> Scene<T, D, S> {
    /// The scene of `bodies`, with its hierarchy built (binned SAH, `O(n log n)`; with the `rayon`
    /// feature, on rayon's threads below the top levels, for the same tree). A body's id is
    /// its index in `bodies`.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::Point2;
    /// use raysweep::{Circle, Scene};
    ///
    /// let discs = (0..100)
    ///     .map(|i| Circle::new(Point2::new(i as f64 * 3.0, 0.0), 1.0))
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(discs);
    /// assert_eq!(scene.len(), 100);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If there are `2^31 − 1` bodies or more (tens of gigabytes of them).
    pub fn new(bodies: Vec<S>) -> Self {
        Scene::with_boxes(bodies, box_of)
    }

    /// Replaces body `id` (moves it, or puts another body in its place). Every query is exact
    /// again at once: the boxes on the body's path to the root are refitted. Many moves can
    /// leave the hierarchy slower than a new one; [`Scene::rebuild`] builds it anew.
    ///
    /// # Panics
    ///
    /// If `id` is not a body's id (`id >= len()`).
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Ray, Scene, Sphere};
    ///
    /// let mut scene: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![
    ///     Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?,
    ///     Sphere::new(Point3::new(0.0, 0.0, 9.0), 1.0)?,
    /// ]);
    /// scene.set_body(0, Sphere::new(Point3::new(0.0, 0.0, 20.0), 1.0)?);
    /// let ray = Ray::new(Point3::origin(), Vector3::z())?;
    /// assert_eq!(scene.cast_ray(&ray, f64::INFINITY).unwrap().body, 1);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn set_body(&mut self, id: usize, body: S) {
        assert!(
            id < self.bodies.len(),
            "set_body: no body {id} in a scene of {}",
            self.bodies.len()
        );
        self.hierarchy.refit(id, box_of(&body));
        self.bodies[id] = body;
    }

    /// Builds the hierarchy anew over the bodies as they are now (after many [`Scene::set_body`]
    /// calls, say). The ids stay.
    pub fn rebuild(&mut self) {
        self.hierarchy = Hierarchy::build(self.bodies.iter().map(box_of));
    }

    /// Clears `spans`, then fills it with one entry for every body whose
    /// [`Cast::ray_span`] is `Some`, with that span's bits, sorted by
    /// `enter` (by value: `-0.0` and `0.0` are the same), then by id: every body the whole line
    /// through `ray` crosses (behind the origin too), with its chord. [`Geometry::ray_spans_to`]
    /// gives those that meet a segment.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Ray, Scene, Sphere};
    ///
    /// let scene: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![
    ///     Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?,
    ///     Sphere::new(Point3::new(0.0, 0.0, -5.0), 2.0)?,
    /// ]);
    /// let mut spans = Vec::new();
    /// scene.ray_spans(&Ray::new(Point3::origin(), Vector3::z())?, &mut spans);
    /// // The whole line: the sphere behind the origin comes first.
    /// assert_eq!(spans.iter().map(|s| s.body).collect::<Vec<_>>(), [1, 0]);
    /// assert_eq!((spans[0].span.enter, spans[0].span.exit), (-7.0, -3.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn ray_spans(&self, ray: &Ray<T, D>, spans: &mut Vec<BodySpan<T>>) {
        self.ray_spans_filtered(ray, spans, |_| true);
    }

    /// [`Scene::ray_spans`] over the bodies for which `filter(id)` is true.
    pub fn ray_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        spans: &mut Vec<BodySpan<T>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        let probe = F64Probe::of(ray, 0.0);
        self.spans(
            |node| probe.crosses(node),
            spans,
            filter,
            |body| body.ray_span(ray),
        );
    }

    /// [`Scene::ray_spans`] for a ball of `radius` moving along the line, with each body's
    /// [`Cast::sphere_span`]: every body the ball touches, and over
    /// which travel of its centre.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, Ray, Scene};
    ///
    /// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(vec![
    ///     Circle::new(Point2::new(5.0, 1.5), 1.0)?,
    ///     Circle::new(Point2::new(9.0, 0.0), 1.0)?,
    /// ]);
    /// let ray = Ray::new(Point2::origin(), Vector2::x())?;
    /// let mut spans = Vec::new();
    /// scene.sphere_spans(&ray, 1.0, &mut spans);
    /// assert_eq!(spans.iter().map(|s| s.body).collect::<Vec<_>>(), [0, 1]);
    /// assert_eq!((spans[1].span.enter, spans[1].span.exit), (7.0, 11.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn sphere_spans(&self, ray: &Ray<T, D>, radius: T, spans: &mut Vec<BodySpan<T>>) {
        self.sphere_spans_filtered(ray, radius, spans, |_| true);
    }

    /// [`Scene::sphere_spans`] over the bodies for which `filter(id)` is true.
    pub fn sphere_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        spans: &mut Vec<BodySpan<T>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        let Some(grow) = ball(Some(radius)) else {
            spans.clear();
            return;
        };
        let probe = F64Probe::of(ray, grow);
        self.spans(
            |node| probe.crosses(node),
            spans,
            filter,
            |body| body.sphere_span(ray, radius),
        );
    }

    /// Every span `span_of` gives (kept by `keep`) over the bodies `filter` keeps whose nodes
    /// `crosses` accepts (as [`Scene::visit_depth_first`] asks), into `spans`, sorted by entry, then by id.
    fn spans(
        &self,
        crosses: impl FnMut(&node::Node<D>) -> u32,
        spans: &mut Vec<BodySpan<T>>,
        mut filter: impl FnMut(usize) -> bool,
        mut span_of: impl FnMut(&S) -> Option<Span<T>>,
    ) {
        spans.clear();
        self.visit_depth_first(crosses, |id| {
            if filter(id)
                && let Some(span) = span_of(&self.bodies[id])
            {
                spans.push(BodySpan { body: id, span });
            }
            true
        });
        sort_by_entry(spans, |s| (s.span.enter, s.body));
    }

    /// Whether `hits` holds for a body `filter` keeps whose child `line` meets with an entry of
    /// at most `cutoff`.
    fn any(
        &self,
        line: &impl Line<D>,
        cutoff: f32,
        mut filter: impl FnMut(usize) -> bool,
        mut hits: impl FnMut(&S) -> bool,
    ) -> bool {
        let mut found = false;
        self.visit_depth_first(
            |node| line.meets(node, cutoff).0,
            |id| {
                found = filter(id) && hits(&self.bodies[id]);
                !found
            },
        );
        found
    }
}

impl<T: Real, const D: usize, S> Kind for Scene<T, D, S> {
    const NAME: &'static str = "Scene";

    /// The bytes of the scene's hierarchy and bodies (not of what a body holds elsewhere).
    fn footprint(&self) -> usize {
        self.hierarchy.bytes() + self.bodies.len() * core::mem::size_of::<S>()
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>> Geometry<T, D> for Scene<T, D, S> {
    type Id = usize;
    type Hit = BodyHit<T, D>;
    type Span = BodySpan<T>;
    type Crossing = BodyCrossing<T, D>;

    #[inline]
    fn items(&self) -> usize {
        self.bodies.len()
    }

    /// The first-hit traversal, a body's answer its span's next end.
    fn next_crossing_filtered(
        &self,
        ray: &Ray<T, D>,
        after: T,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<BodyCrossing<T, D>> {
        let after = after.to_wide();
        if after.is_nan() {
            return None;
        }
        let wide = ray.in_f64_from(Point::from(ray.origin().coords.map(Real::to_wide)));
        let cast = |id, body: &S, limit: f64| {
            if !filter(id) {
                return None;
            }
            let span = body.ray_span(ray)?;
            let end = next_end(&span, after, limit)?;
            let crossing = crossing_at(body, ray, &wide, SVector::zeros(), &span, end);
            Some((end.0.to_wide(), crossing))
        };
        let max = max_distance.to_wide();
        let found = on_line!(ray, 0.0, |line| self.first(&line, max, cast));
        found.map(|(body, crossing)| BodyCrossing { body, crossing })
    }

    #[inline(always)]
    fn first_contact(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<BodyHit<T, D>> {
        let max = max_distance.to_wide();
        let first = match radius {
            None => {
                let cast = kept(filter, |body: &S, _| body.cast_ray(ray, max_distance));
                on_line!(ray, 0.0, |line| self.first(&line, max, cast))
            }
            Some(radius) => {
                let grow = ball(Some(radius))?;
                let cast = kept(filter, |body: &S, _| {
                    body.cast_sphere(ray, radius, max_distance)
                });
                on_line!(ray, grow, |line| self.first(&line, max, cast))
            }
        };
        first.map(|(body, hit)| BodyHit { body, hit })
    }

    fn hits_any_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> bool {
        let max = max_distance.to_wide();
        if !(max >= 0.0) {
            return false;
        }
        let hits = |body: &S| body.cast_ray(ray, max_distance).is_some();
        on_line!(ray, 0.0, |line| self.any(
            &line,
            entry_cutoff(max),
            filter,
            hits
        ))
    }

    fn spans_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        spans: &mut Vec<BodySpan<T>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        spans.clear();
        let max = max_distance.to_wide();
        let Some(grow) = ball(radius).filter(|_| max >= 0.0) else {
            return;
        };
        // A span meeting the segment has its points on the segment in the body's box (grown by
        // the ball's radius): the probe of the first hits keeps the child, its entry at most
        // that of the nearest of them (`src/scene/probe/mod.rs`).
        let cutoff = entry_cutoff(max);
        let meets = |span: &Span<T>| span.exit.to_wide() >= 0.0 && span.enter.to_wide() <= max;
        on_line!(ray, grow, |line| self.spans(
            |node| line.meets(node, cutoff).0,
            spans,
            filter,
            |body| match radius {
                None => body.ray_span(ray),
                Some(r) => body.sphere_span(ray, r),
            }
            .filter(meets)
        ));
    }

    fn containing_filtered(
        &self,
        point: &Point<T, D>,
        bodies: &mut Vec<usize>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        bodies.clear();
        let p: [f64; D] = core::array::from_fn(|i| point[i].to_wide());
        self.visit_depth_first(
            |node| probe::containing::<D, T>(node, &p),
            |id| {
                if filter(id) && self.bodies[id].contains(point) {
                    bodies.push(id);
                }
                true
            },
        );
        bodies.sort_unstable();
    }

    fn item_contains(&self, _: Sealed, id: usize, point: &Point<T, D>) -> bool {
        self.bodies[id].contains(point)
    }

    fn item_span(&self, _: Sealed, id: usize, ray: &Ray<T, D>) -> Option<Span<T>> {
        self.bodies[id].ray_span(ray)
    }

    fn item_box(&self, _: Sealed, id: usize) -> Option<Aabb<T, D>> {
        Some(self.bodies[id].aabb())
    }

    fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
        ray_batch::ray_order(origins, self.footprint())
    }

    /// Rays in curve order above 8 MiB (`src/scene/ray_batch.rs`), else runs of coherent rays
    /// in packets (`src/scene/packet/`), else one at a time.
    fn cast_rays(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<BodyHit<T, D>>]) {
        assert_lengths(
            "Scene",
            "cast_rays",
            (rays.len(), "rays"),
            (hits.len(), "hit slots"),
        );
        let cast = |ray: &Ray<T, D>| self.cast_ray(ray, max_distance);
        match Trace::of(rays, self.footprint()) {
            Trace::Ordered => ray_batch::cast_ordered(rays, hits, cast),
            Trace::Packets => self.cast_in_packets(rays, |_| max_distance, |_| true, hits),
            Trace::Singly => {
                for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
                    *hit = cast(ray);
                }
            }
        }
    }

    /// Runs of coherent rays in packets where the rays come in order, else one at a time.
    fn cast_rays_filtered(
        &self,
        rays: &[Ray<T, D>],
        max_distances: &[T],
        hits: &mut [Option<BodyHit<T, D>>],
        filter: impl Fn(usize) -> bool,
    ) {
        filtered_lengths::<Self, T, D>("cast_rays_filtered", rays, max_distances, hits.len());
        if ray_batch::in_order_already(rays, Ray::origin) {
            self.cast_in_packets(rays, |i| max_distances[i], filter, hits);
        } else {
            for ((ray, &max), hit) in rays.iter().zip(max_distances).zip(hits.iter_mut()) {
                *hit = self.cast_ray_filtered(ray, max, &filter);
            }
        }
    }

    /// As [`Scene::cast_rays`]' paths, on rayon's threads.
    #[cfg(feature = "rayon")]
    fn cast_rays_par(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<BodyHit<T, D>>])
    where
        Self: Sync,
        Self::Hit: Send,
    {
        use rayon::prelude::*;
        assert_lengths(
            "Scene",
            "cast_rays_par",
            (rays.len(), "rays"),
            (hits.len(), "hit slots"),
        );
        let cast = |ray: &Ray<T, D>| self.cast_ray(ray, max_distance);
        match Trace::of(rays, self.footprint()) {
            Trace::Ordered => ray_batch::cast_ordered_par(rays, hits, cast),
            Trace::Packets => self.cast_in_packets_par(rays, max_distance, hits),
            Trace::Singly => rays
                .par_iter()
                .zip(hits.par_iter_mut())
                .with_min_len(64)
                .for_each(|(ray, hit)| *hit = cast(ray)),
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use nalgebra::{Point3, Vector3};

    use super::Scene;
    use crate::ray::Ray;
    use crate::shape::Sphere;

    /// A hierarchy too deep for the stack on the call stack traverses with one from the heap,
    /// and answers the same.
    #[test]
    fn a_deep_hierarchy_takes_its_stack_from_the_heap() {
        let spheres: Vec<Sphere<f64>> = (0..500)
            .map(|i| {
                let c = Point3::new(
                    f64::from(i % 10),
                    f64::from(i / 10 % 10),
                    f64::from(i / 100),
                );
                Sphere::new(c * 3.0, 1.0).unwrap()
            })
            .collect();
        let shallow: Scene<f64, 3, Sphere<f64>> = Scene::new(spheres);
        let mut deep = shallow.clone();
        deep.hierarchy.depth = 1000;
        let mut spans = (Vec::new(), Vec::new());
        let mut inside = (Vec::new(), Vec::new());
        let mut met = 0;
        for k in 0..200 {
            let t = f64::from(k);
            let origin = Point3::new(-5.0 + 0.1 * t, 13.0 - 0.05 * t, -4.0 + 0.07 * t);
            let dir = Vector3::new(1.0, 0.3 * (t * 0.7).sin(), 0.5 * (t * 1.3).cos());
            let ray = Ray::new(origin, dir).unwrap();
            let first = shallow.cast_ray(&ray, f64::INFINITY);
            assert_eq!(deep.cast_ray(&ray, f64::INFINITY), first);
            met += usize::from(first.is_some());
            assert_eq!(
                deep.cast_sphere(&ray, 0.5, 20.0),
                shallow.cast_sphere(&ray, 0.5, 20.0)
            );
            assert_eq!(deep.hits_any(&ray, 9.0), shallow.hits_any(&ray, 9.0));
            deep.ray_spans(&ray, &mut spans.0);
            shallow.ray_spans(&ray, &mut spans.1);
            assert_eq!(spans.0, spans.1);
            deep.containing(&ray.at(3.0 + t * 0.1), &mut inside.0);
            shallow.containing(&ray.at(3.0 + t * 0.1), &mut inside.1);
            assert_eq!(inside.0, inside.1);
        }
        // The rays met bodies: the comparisons were not of empty answers.
        assert!(met > 100, "{met} rays hit");
    }
}
