//! Scenes: many bodies, and queries over all of them that answer exactly what a loop over every
//! body answers, through a bounding volume hierarchy.
//!
//! - [`answer`]: what the queries return, [`BodyHit`], [`BodySpan`] and [`BodyNearest`].
//! - [`node`]: a node of four children (nodes or bodies), its vocabulary, and [`node::packed`],
//!   the node as stored, each child's box in 8-bit steps (64 bytes a node), with the argument why
//!   a decoded box holds the child's.
//! - [`hierarchy`]: the store of nodes, their back links, and the refit when a body moves.
//! - [`build`]: the hierarchy built top down, by binned SAH splits (`build/split.rs`).
//! - [`insert`]: [`Scene::push`], a body added to a built hierarchy where it costs least.
//! - [`probe`]: a query's line against a node's children's boxes, conservatively, in `f64` and
//!   in `f32` lanes, with the argument why a skipped child holds no answer.
//! - [`mod@prefetch`]: loading the children a traversal meets ahead of their visit.
//! - [`traverse`]: the stack, the depth-first walk and the breadth-first sweep the queries share.
//! - [`lower_bound`]: a point's signed distance to a node's children's boxes, from below, with
//!   the argument why a skipped child holds no answer.
//! - [`proximity`]: the nearest body to a point, and the bodies within a distance of it.
//! - [`asked`]: the point a proximity query is asked at (a point, or a point moved exactly).
//! - [`search`]: one nearest search as a state advanced a node at a time, so that batches run
//!   several side by side.
//! - [`ray_batch`]: the scenes' ray batches, traced in the curve order of the rays' origins
//!   where the scene is larger than the cache.
//! - [`packet`]: coherent rays of a batch traced together, sixteen to a packet, each node's
//!   children tested against all of them in one pass of `f32` lanes.
//! - [`wide`]: the eight-wide spike, first hits through nodes of eight children, kept for its
//!   measurements (`docs/performance.md`, "The eight-wide spike").
//! - [`instance`]: [`Instance`] and [`InstancedScene`], scenes placed at offsets.
//! - here: [`Scene`] and its ray queries.

mod answer;
mod asked;
mod build;
mod bulk;
mod hierarchy;
mod insert;
mod instance;
mod lower_bound;
mod moved;
mod node;
mod order;
mod packet;
mod periodic;
mod prefetch;
mod probe;
mod proximity;
mod ray_batch;
mod search;
mod traverse;
mod wide;

pub use answer::{BodyHit, BodyNearest, BodySpan};
pub use instance::{Instance, InstanceHit, InstanceSpan, InstancedScene};
pub use order::batch_order;
pub use periodic::{
    Image, PeriodicHit, PeriodicNearest, PeriodicScene, PeriodicSpan, Periodicity, REACH_BOXES,
};
#[doc(hidden)]
pub use wide::{Planes8, Steps8, Visits, Wide};

use alloc::vec::Vec;
use answer::sort_by_entry;

use nalgebra::Point;

use crate::cast::{assert_batch_lengths, each_ray};
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::Real;
use crate::shape::Body;
use crate::traits::Cast;
use hierarchy::Hierarchy;
use node::MAX_BODIES;
use probe::{F64Probe, Line, entry_limit, on_line};
use ray_batch::Trace;

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
    bodies: Vec<S>,
    hierarchy: Hierarchy<T, D>,
}

/// A body's box as the hierarchy takes it: a NaN bound (only a user's shape could give one)
/// becomes infinite, so that the body is never skipped.
fn box_of<T: Real, const D: usize, S: Cast<T, D>>(body: &S) -> ([T; D], [T; D]) {
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

    /// The bytes of the scene's hierarchy and bodies (not of what a body holds elsewhere): what
    /// a query reads from, which decides whether its ray batches are ordered ([`ray_batch`]).
    pub(crate) fn footprint(&self) -> usize {
        self.hierarchy.bytes() + self.bodies.len() * core::mem::size_of::<S>()
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

    /// The first hit of `ray` within `[0, max_distance]` over every body: the hit that
    /// `bodies[i].cast_ray(ray, max_distance)` gives with the smallest distance, with the same
    /// bits, and on equal distances the lowest id; `None` where every body gives `None`.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, Ray, Scene};
    ///
    /// // Two discs touching at x = 5: the ray hits both there; the lower id wins.
    /// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(vec![
    ///     Circle::new(Point2::new(6.0, 0.0), 1.0)?,
    ///     Circle::new(Point2::new(4.0, 0.0), 1.0)?,
    /// ]);
    /// let ray = Ray::new(Point2::new(5.0, -3.0), Vector2::y())?;
    /// let hit = scene.cast_ray(&ray, 10.0).unwrap();
    /// assert_eq!((hit.body, hit.hit.distance), (0, 3.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<BodyHit<T, D>> {
        self.cast_ray_filtered(ray, max_distance, |_| true)
    }

    /// [`Scene::cast_ray`] over the bodies for which `filter(id)` is true (the others are
    /// skipped, not cast).
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Ray, Scene, Sphere};
    ///
    /// let scene: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![
    ///     Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?,
    ///     Sphere::new(Point3::new(0.0, 0.0, 9.0), 1.0)?,
    /// ]);
    /// let ray = Ray::new(Point3::origin(), Vector3::z())?;
    /// let hit = scene.cast_ray_filtered(&ray, 100.0, |id| id != 0).unwrap();
    /// assert_eq!(hit.body, 1);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn cast_ray_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<BodyHit<T, D>> {
        let cast = kept(filter, |body: &S, _| body.cast_ray(ray, max_distance));
        let first = on_line!(ray, 0.0, |line| self.first(
            &line,
            max_distance.to_wide(),
            cast
        ));
        first.map(|(body, hit)| BodyHit { body, hit })
    }

    /// The first contact of a ball of `radius` moving along `ray`, within `[0, max_distance]`,
    /// over every body: as [`Scene::cast_ray`], with each body's
    /// [`Cast::cast_sphere`].
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Ray, Scene, Sphere};
    ///
    /// let scene: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![
    ///     Sphere::new(Point3::new(0.0, 1.4, 5.0), 1.0)?,
    ///     Sphere::new(Point3::new(0.0, 0.0, 9.0), 1.0)?,
    /// ]);
    /// let ray = Ray::new(Point3::origin(), Vector3::z())?;
    /// // A ray passes the first sphere; a ball of radius 0.5 touches it.
    /// assert_eq!(scene.cast_ray(&ray, 100.0).unwrap().body, 1);
    /// assert_eq!(scene.cast_sphere(&ray, 0.5, 100.0).unwrap().body, 0);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn cast_sphere(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
    ) -> Option<BodyHit<T, D>> {
        self.cast_sphere_filtered(ray, radius, max_distance, |_| true)
    }

    /// [`Scene::cast_sphere`] over the bodies for which `filter(id)` is true.
    pub fn cast_sphere_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<BodyHit<T, D>> {
        let grow = radius.to_wide();
        if !(grow >= 0.0 && grow.is_finite()) {
            // Every body refuses such a ball.
            return None;
        }
        let cast = kept(filter, |body: &S, _| {
            body.cast_sphere(ray, radius, max_distance)
        });
        let first = on_line!(ray, grow, |line| self.first(
            &line,
            max_distance.to_wide(),
            cast
        ));
        first.map(|(body, hit)| BodyHit { body, hit })
    }

    /// Whether [`Scene::cast_ray`] would return a hit: it stops at the first body it finds hit.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Ray, Scene, Sphere};
    ///
    /// let scene: Scene<f64, 3, Sphere<f64>> =
    ///     Scene::new(vec![Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?]);
    /// let ray = Ray::new(Point3::origin(), Vector3::z())?;
    /// assert!(scene.hits_any(&ray, 10.0));
    /// assert!(!scene.hits_any(&ray, 3.5));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn hits_any(&self, ray: &Ray<T, D>, max_distance: T) -> bool {
        self.hits_any_filtered(ray, max_distance, |_| true)
    }

    /// [`Scene::hits_any`] over the bodies for which `filter(id)` is true.
    pub fn hits_any_filtered(
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
            entry_limit(max),
            filter,
            hits
        ))
    }

    /// Clears `spans`, then fills it with one entry for every body whose
    /// [`Cast::ray_span`] is `Some`, with that span's bits, sorted by
    /// `enter` (by value: `-0.0` and `0.0` are the same), then by id: every body the line through
    /// `ray` crosses, with its chord.
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
        self.spans(&F64Probe::of(ray, 0.0), spans, filter, |body| {
            body.ray_span(ray)
        });
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
        let grow = radius.to_wide();
        if !(grow >= 0.0 && grow.is_finite()) {
            spans.clear();
            return;
        }
        self.spans(&F64Probe::of(ray, grow), spans, filter, |body| {
            body.sphere_span(ray, radius)
        });
    }

    /// Clears `bodies`, then fills it with the id of every body that contains `point` (its
    /// [`Shape::contains`](crate::Shape::contains)), in increasing order.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::Point3;
    /// use raysweep::{Aabb, Scene};
    ///
    /// let scene: Scene<f64, 3, Aabb<f64>> = Scene::new(vec![
    ///     Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 2.0, 2.0))?,
    ///     Aabb::new(Point3::new(1.0, 1.0, 1.0), Point3::new(3.0, 3.0, 3.0))?,
    ///     Aabb::new(Point3::new(5.0, 5.0, 5.0), Point3::new(6.0, 6.0, 6.0))?,
    /// ]);
    /// let mut inside = Vec::new();
    /// scene.containing(&Point3::new(1.5, 1.5, 2.0), &mut inside);
    /// assert_eq!(inside, [0, 1]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn containing(&self, point: &Point<T, D>, bodies: &mut Vec<usize>) {
        self.containing_filtered(point, bodies, |_| true);
    }

    /// [`Scene::containing`] over the bodies for which `filter(id)` is true.
    pub fn containing_filtered(
        &self,
        point: &Point<T, D>,
        bodies: &mut Vec<usize>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        bodies.clear();
        let p: [f64; D] = core::array::from_fn(|i| point[i].to_wide());
        self.walk(
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

    /// `hits[i]` is exactly [`Scene::cast_ray`]`(&rays[i], max_distance)`.
    ///
    /// In a scene whose hierarchy and bodies take more than 8 MiB, the rays are traced in the
    /// order of a space-filling curve through their origins, so that rays that start close
    /// together read the same nodes from cache (about twice as fast per ray at `10^6` balls;
    /// `docs/performance.md`); the answers are written in the input's order all the same. Else,
    /// runs of neighbouring rays that start and point close together (a camera's pixels, a
    /// beam's rays, given in order) are traced as packets of up to sixteen, each node tested
    /// against all of them at once (about 2.5 times as fast per ray).
    ///
    /// # Panics
    ///
    /// If `rays` and `hits` differ in length.
    pub fn cast_rays(
        &self,
        rays: &[Ray<T, D>],
        max_distance: T,
        hits: &mut [Option<BodyHit<T, D>>],
    ) {
        const CALL: &str = "Scene::cast_rays";
        let cast = |ray: &Ray<T, D>| self.cast_ray(ray, max_distance);
        match Trace::of(rays, self.footprint()) {
            Trace::Ordered => ray_batch::cast_ordered(CALL, rays, hits, cast),
            Trace::Packets => {
                assert_batch_lengths(CALL, rays.len(), hits.len());
                self.cast_in_packets(rays, |_| max_distance, |_| true, hits);
            }
            Trace::Singly => each_ray(CALL, rays, hits, cast),
        }
    }

    /// `hits[i]` is exactly [`Scene::cast_ray_filtered`]`(&rays[i], max_distances[i],
    /// &filter)`: a batch whose rays each have a limit of their own (a transport step's free
    /// paths), over the bodies `filter` keeps. The rays are traced as given, runs of
    /// neighbouring rays that start and point close together in packets as [`Scene::cast_rays`]
    /// traces them; in a scene larger than the cache, give them in [`Scene::ray_order`] for the
    /// cache's sake (the answers are the same in any order).
    ///
    /// # Panics
    ///
    /// If `rays`, `max_distances` and `hits` differ in length.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Ray, Scene, Sphere};
    ///
    /// let scene: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![
    ///     Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?,
    ///     Sphere::new(Point3::new(0.0, 0.0, 9.0), 1.0)?,
    /// ]);
    /// let ray = Ray::new(Point3::origin(), Vector3::z())?;
    /// let mut hits = vec![None; 3];
    /// scene.cast_rays_filtered(&[ray; 3], &[100.0, 3.0, 100.0], |id| id != 0, &mut hits);
    /// let bodies: Vec<_> = hits.iter().map(|h| h.map(|h| h.body)).collect();
    /// assert_eq!(bodies, [Some(1), None, Some(1)]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn cast_rays_filtered(
        &self,
        rays: &[Ray<T, D>],
        max_distances: &[T],
        filter: impl Fn(usize) -> bool,
        hits: &mut [Option<BodyHit<T, D>>],
    ) {
        const CALL: &str = "Scene::cast_rays_filtered";
        assert_batch_lengths(CALL, rays.len(), hits.len());
        assert_eq!(
            rays.len(),
            max_distances.len(),
            "{CALL}: {} rays but {} max_distances",
            rays.len(),
            max_distances.len()
        );
        if ray_batch::in_order_already(rays, Ray::origin) {
            self.cast_in_packets(rays, |i| max_distances[i], filter, hits);
        } else {
            for ((ray, &max), hit) in rays.iter().zip(max_distances).zip(hits.iter_mut()) {
                *hit = self.cast_ray_filtered(ray, max, &filter);
            }
        }
    }

    /// The order in which [`Scene::cast_rays`] traces rays from `origins` (one per ray): their
    /// indices along a space-filling curve through the origins where the scene's hierarchy
    /// and bodies take more than 8 MiB and the origins do not come in order already, else
    /// `None` (rays traced as given). A caller that casts rays one at a time, with limits or
    /// filters of its own per ray, gets the batch's use of the cache by casting them in this
    /// order; the answers are the same in any order.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::Point3;
    /// use raysweep::{Scene, Sphere};
    ///
    /// let scene: Scene<f64, 3, Sphere<f64>> =
    ///     Scene::new(vec![Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?]);
    /// // A small scene fits in the cache: its rays are traced as given.
    /// assert_eq!(scene.ray_order(&[Point3::origin(); 1000]), None);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[must_use]
    pub fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
        ray_batch::ray_order(origins, self.footprint())
    }

    /// [`Scene::cast_rays`] spread over rayon's thread pool: the same bits. Available with the
    /// crate feature `rayon`.
    ///
    /// # Panics
    ///
    /// If `rays` and `hits` differ in length.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn cast_rays_par(
        &self,
        rays: &[Ray<T, D>],
        max_distance: T,
        hits: &mut [Option<BodyHit<T, D>>],
    ) where
        S: Sync,
    {
        use rayon::prelude::*;
        const CALL: &str = "Scene::cast_rays_par";
        let cast = |ray: &Ray<T, D>| self.cast_ray(ray, max_distance);
        match Trace::of(rays, self.footprint()) {
            Trace::Ordered => ray_batch::cast_ordered_par(CALL, rays, hits, cast),
            Trace::Packets => {
                assert_batch_lengths(CALL, rays.len(), hits.len());
                rays.par_chunks(packet::TASK)
                    .zip(hits.par_chunks_mut(packet::TASK))
                    .for_each(|(rays, hits)| {
                        self.cast_in_packets(rays, |_| max_distance, |_| true, hits);
                    });
            }
            Trace::Singly => crate::cast::each_ray_par(CALL, rays, hits, cast),
        }
    }

    /// Every span `span_of` gives over the bodies `filter` keeps whose nodes the probe meets,
    /// into `spans`, sorted by entry, then by id.
    fn spans(
        &self,
        probe: &F64Probe<D>,
        spans: &mut Vec<BodySpan<T>>,
        mut filter: impl FnMut(usize) -> bool,
        mut span_of: impl FnMut(&S) -> Option<Span<T>>,
    ) {
        spans.clear();
        self.walk(
            |node| probe.crosses(node),
            |id| {
                if filter(id)
                    && let Some(span) = span_of(&self.bodies[id])
                {
                    spans.push(BodySpan { body: id, span });
                }
                true
            },
        );
        sort_by_entry(spans, |s| (s.span.enter, s.body));
    }

    /// Whether `hits` holds for a body `filter` keeps whose child `line` meets with an entry of
    /// at most `within`.
    fn any(
        &self,
        line: &impl Line<D>,
        within: f32,
        mut filter: impl FnMut(usize) -> bool,
        mut hits: impl FnMut(&S) -> bool,
    ) -> bool {
        let mut found = false;
        self.walk(
            |node| line.meets(node, within).0,
            |id| {
                found = filter(id) && hits(&self.bodies[id]);
                !found
            },
        );
        found
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
