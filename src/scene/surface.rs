//! The query surface every kind of scene shares: [`Geometry`] (the ray queries) and
//! [`Proximity`] (the point queries, for bodies that measure distances), which [`Scene`],
//! [`InstancedScene`] and [`PeriodicScene`] implement, so that a transport or packing code can be
//! written once over "some geometry" and run on a plain scene, a pebble bed of instances or a
//! periodic box. After parry's one `RayCast` trait for single and composite shapes
//! (`query/ray/ray_composite_shape.rs`).
//!
//! Each kind implements a few required methods, the queries it really answers (the first contact
//! of a ray or a ball within a limit over what a filter keeps, any hit, the spans meeting a
//! segment, the bodies containing a point, the nearest body and those within a distance); every
//! other form (unfiltered, sphere casts, union spans, batches and their `_par` forms) is written
//! here once, as a provided method. Each kind also has every query as an inherent method of the
//! same name (`src/scene/inherent.rs`), so that code that does not name the traits calls them as
//! before.
//!
//! [`Scene`]: super::Scene
//! [`InstancedScene`]: super::InstancedScene
//! [`PeriodicScene`]: super::PeriodicScene

use alloc::vec::Vec;
use core::fmt::Debug;

use nalgebra::Point;

use super::answer::{Answer, BodyNearest};
use crate::bounds::Aabb;
use crate::cast::assert_lengths;
use crate::hit::{Crossing, Hit, Span};
use crate::ray::Ray;
use crate::real::Real;
use crate::traits::Sealed;

mod sealed {
    /// The kinds of scene: only the crate's implement [`Geometry`](super::Geometry), so that
    /// its methods can grow. What the provided methods need of a kind beyond its queries.
    pub trait Kind {
        /// The kind's name, for messages: `"Scene"`, `"InstancedScene"`, `"PeriodicScene"`.
        const NAME: &'static str;

        /// The bytes the queries read from (hierarchies and bodies), which decides whether a
        /// batch is traced in the curve order of its rays (`src/scene/ray_batch.rs`).
        fn footprint(&self) -> usize;
    }
}

pub(crate) use sealed::Kind;

/// The ray queries of a scene of any kind ([`Scene`](crate::Scene),
/// [`InstancedScene`](crate::InstancedScene), [`PeriodicScene`](crate::PeriodicScene)): each
/// answer exactly what the loop over its bodies answers (over every `(instance, body)` pair, or
/// every `(body, image)` pair, against the bodies translated exactly), bit for bit; on equal
/// distances the lowest [`Geometry::Id`].
///
/// A filter is asked about an item ([`Geometry::items`]): a body of a scene or of a periodic
/// scene (with all its images), an instance of an instanced scene (with all its bodies).
///
/// Only the crate's scenes implement it (it is sealed). Each has the same queries as inherent
/// methods, so `scene.cast_ray(..)` needs no `use`; generic code names the trait.
///
/// # Example
///
/// The share of a segment's length inside the bodies, in any kind of scene:
///
/// ```
/// use raysweep::nalgebra::{Point2, Vector2};
/// use raysweep::{Circle, Geometry, PeriodicScene, Periodicity, Ray, Scene};
///
/// fn inside<G: Geometry<f64, 2>>(geometry: &G, ray: &Ray<f64, 2>, length: f64) -> f64 {
///     let mut union = Vec::new();
///     geometry.union_spans(ray, length, &mut union);
///     union.iter().map(|s| s.exit.min(length) - s.enter.max(0.0)).sum::<f64>() / length
/// }
///
/// let disc = Circle::new(Point2::new(2.0, 2.0), 1.0)?;
/// let ray = Ray::new(Point2::new(0.0, 2.0), Vector2::x())?;
/// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(vec![disc]);
/// assert_eq!(inside(&scene, &ray, 4.0), 0.5);
/// let period = Periodicity::new(Point2::origin(), Vector2::new(4.0, 4.0))?;
/// let periodic = PeriodicScene::new(vec![disc], period);
/// assert_eq!(inside(&periodic, &ray, 400.0), 0.5);
/// # Ok::<(), raysweep::Error>(())
/// ```
pub trait Geometry<T: Real, const D: usize = 3>: Kind {
    /// A body, as the answers name it: its index (`usize`) in a scene; `(instance, body)` in an
    /// instanced scene; `(body, image)` in a periodic scene.
    type Id: Copy + Ord + Debug;
    /// A first hit: the body's [`Geometry::Id`] and its [`Hit`].
    type Hit: Answer<Id = Self::Id, Found = Hit<T, D>> + Copy + Debug + PartialEq;
    /// A span: the body's [`Geometry::Id`] and its [`Span`].
    type Span: Answer<Id = Self::Id, Found = Span<T>> + Copy + Debug + PartialEq;

    /// A crossing of a body's surface: the body's [`Geometry::Id`] and its [`Crossing`].
    type Crossing: Answer<Id = Self::Id, Found = Crossing<T, D>> + Copy + Debug + PartialEq;

    /// How many items a filter is asked about: bodies, or an instanced scene's instances.
    fn items(&self) -> usize;

    /// The first contact within `[0, max_distance]` of `ray` (`radius` `None`) or of a ball of
    /// `radius` moving along it, over the items `filter` keeps: the contact each body's
    /// [`Cast::cast_ray`](crate::Cast::cast_ray) (or
    /// [`Cast::cast_sphere`](crate::Cast::cast_sphere)) gives with the smallest distance, with
    /// its bits, on equal distances the lowest id. `None` where there is none, for a NaN or
    /// negative `max_distance`, and for a NaN, negative or infinite `radius`.
    fn first_contact(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<Self::Hit>;

    /// Whether [`Geometry::cast_ray_filtered`] would give a hit (it stops at the first body found
    /// hit).
    fn hits_any_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> bool;

    /// Clears `spans`, then fills it with the span of every body (of the items `filter` keeps)
    /// whose span along the line through `ray` (its [`Cast::ray_span`](crate::Cast::ray_span),
    /// or [`Cast::sphere_span`](crate::Cast::sphere_span) for a ball of `radius`), unclipped,
    /// meets the segment `[0, max_distance]`, sorted by `enter` (by value), then by id. `None`
    /// for a NaN, negative or infinite `radius`, and a NaN or negative `max_distance`, list none.
    /// Where the segment is infinite, a periodic scene lists none beyond
    /// [`REACH_BOXES`](crate::REACH_BOXES) boxes on each axis.
    fn spans_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        spans: &mut Vec<Self::Span>,
        filter: impl FnMut(usize) -> bool,
    );

    /// The next crossing of a body's surface along `ray` beyond `after`, over the items `filter`
    /// keeps: of the ends `enter` and `exit` of every body's span along the line
    /// ([`Cast::ray_span`](crate::Cast::ray_span)) where `enter < exit` (a line that only
    /// touches a body crosses nothing), the one with the smallest distance `d` such that
    /// `after < d <= max_distance` and `d >= 0` (a crossing behind the origin is never answered:
    /// a ray that starts inside a body first leaves it), with its bits; on equal distances the
    /// lowest id. So `after = previous.distance` walks the crossings in order, each once (where
    /// several bodies are crossed at one distance, the lowest is answered and the others are
    /// passed over; the spans list them all), and a negative `after` includes a crossing at 0.
    /// `None` where there is none, and for a NaN `after` or `max_distance`.
    ///
    /// The normal is the body's outward one at the crossing, found by the body's own cast of
    /// the line (for an exit, of the line reversed). For a shape of your own it is the normal of
    /// its `cast_ray` at an entry and of a cast back from beyond the exit (right for convex
    /// solids), or the ray's direction where that cast misses.
    ///
    /// A query visits every body whose box the ray meets before the answer, from the origin:
    /// a long flight continued by `after` costs more at each step than one restarted at the
    /// crossing, which in turn rounds the origin.
    fn next_crossing_filtered(
        &self,
        ray: &Ray<T, D>,
        after: T,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<Self::Crossing>;

    /// Clears `found`, then fills it with every body (of the items `filter` keeps) that contains
    /// `point` ([`Shape::contains`](crate::Shape::contains)), in increasing id.
    fn containing_filtered(
        &self,
        point: &Point<T, D>,
        found: &mut Vec<Self::Id>,
        filter: impl FnMut(usize) -> bool,
    );

    /// The crate's hook for [`Grid::occupancy`](crate::Grid::occupancy): whether the item `id`
    /// contains `point`, as [`Geometry::containing`] decides it for that item.
    #[doc(hidden)]
    fn item_contains(&self, _: Sealed, id: Self::Id, point: &Point<T, D>) -> bool;

    /// The crate's hook for [`Grid::occupancy`](crate::Grid::occupancy): the span of the item
    /// `id` along the line through `ray`, as [`Geometry::ray_spans_to`] finds it.
    #[doc(hidden)]
    fn item_span(&self, _: Sealed, id: Self::Id, ray: &Ray<T, D>) -> Option<Span<T>>;

    /// The crate's hook for [`Grid::occupancy`](crate::Grid::occupancy): a box that holds the
    /// item `id`, where one is at hand exactly ([`Shape::aabb`](crate::Shape::aabb) of a plain
    /// scene's body); `None` elsewhere (a translated body's box would round).
    #[doc(hidden)]
    fn item_box(&self, _: Sealed, _id: Self::Id) -> Option<Aabb<T, D>> {
        None
    }

    /// The order in which [`Geometry::cast_rays`] traces rays from `origins` (one per ray): their
    /// indices along a space-filling curve through the origins where the scene's hierarchies
    /// and bodies take more than 8 MiB and the origins do not come in order already, else `None`
    /// (rays traced as given). A caller that casts rays one at a time, with limits or filters of
    /// its own, gets the batch's use of the cache by casting them in this order.
    fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>>;

    /// The first hit of `ray` within `[0, max_distance]` over every body: the hit each body's
    /// [`Cast::cast_ray`](crate::Cast::cast_ray) gives with the smallest distance, with the same
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
    #[inline]
    fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<Self::Hit> {
        self.first_contact(ray, None, max_distance, |_| true)
    }

    /// [`Geometry::cast_ray`] over the items for which `filter(item)` is true (the others are
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
    #[inline]
    fn cast_ray_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<Self::Hit> {
        self.first_contact(ray, None, max_distance, filter)
    }

    /// The first contact of a ball of `radius` moving along `ray`, within `[0, max_distance]`,
    /// over every body: as [`Geometry::cast_ray`], with each body's
    /// [`Cast::cast_sphere`](crate::Cast::cast_sphere). `None` for a NaN, negative or infinite
    /// `radius`.
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
    #[inline]
    fn cast_sphere(&self, ray: &Ray<T, D>, radius: T, max_distance: T) -> Option<Self::Hit> {
        self.first_contact(ray, Some(radius), max_distance, |_| true)
    }

    /// [`Geometry::cast_sphere`] over the items for which `filter(item)` is true.
    #[inline]
    fn cast_sphere_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<Self::Hit> {
        self.first_contact(ray, Some(radius), max_distance, filter)
    }

    /// Whether [`Geometry::cast_ray`] would return a hit: it stops at the first body it finds
    /// hit.
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
    #[inline]
    fn hits_any(&self, ray: &Ray<T, D>, max_distance: T) -> bool {
        self.hits_any_filtered(ray, max_distance, |_| true)
    }

    /// Clears `spans`, then fills it with every body whose span along the line through `ray`
    /// (its [`Cast::ray_span`](crate::Cast::ray_span), unclipped, with its bits) meets the
    /// segment `[0, max_distance]`, sorted by `enter` (by value), then by id: the bodies a
    /// segment crosses, each with its whole chord ([`Span::clipped`] gives the part on the
    /// segment). A NaN or negative `max_distance` lists none; an infinite one, every body ahead
    /// of the origin (a periodic scene's, within [`REACH_BOXES`](crate::REACH_BOXES) boxes on
    /// each axis).
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
    ///     Sphere::new(Point3::new(0.0, 0.0, -5.0), 1.0)?,
    /// ]);
    /// let ray = Ray::new(Point3::origin(), Vector3::z())?;
    /// let mut spans = Vec::new();
    /// // A segment of 6: it meets the first ball's chord [4, 6], not the second's [8, 10].
    /// scene.ray_spans_to(&ray, 6.0, &mut spans);
    /// assert_eq!(spans.iter().map(|s| s.body).collect::<Vec<_>>(), [0]);
    /// assert_eq!(spans[0].span.clipped(0.0, 5.0).map(|s| s.length()), Some(1.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    fn ray_spans_to(&self, ray: &Ray<T, D>, max_distance: T, spans: &mut Vec<Self::Span>) {
        self.spans_filtered(ray, None, max_distance, spans, |_| true);
    }

    /// The next crossing of a body's surface along `ray` beyond the distance `after`, entering
    /// or leaving, within `max_distance`: [`Geometry::next_crossing_filtered`] over every body.
    ///
    /// # Example
    ///
    /// The crossings of two overlapping discs, in order:
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Answer, Circle, Geometry, Ray, Scene};
    ///
    /// let discs = vec![
    ///     Circle::new(Point2::new(2.0, 0.0), 1.0)?,
    ///     Circle::new(Point2::new(3.0, 0.0), 1.0)?,
    /// ];
    /// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(discs);
    /// let ray = Ray::new(Point2::origin(), Vector2::x())?;
    /// let (mut after, mut seen) = (-1.0, Vec::new());
    /// while let Some(next) = scene.next_crossing(&ray, after, f64::INFINITY) {
    ///     seen.push((next.id(), next.crossing.distance, next.crossing.entering));
    ///     after = next.crossing.distance;
    /// }
    /// assert_eq!(seen, [(0, 1.0, true), (1, 2.0, true), (0, 3.0, false), (1, 4.0, false)]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    fn next_crossing(&self, ray: &Ray<T, D>, after: T, max_distance: T) -> Option<Self::Crossing> {
        self.next_crossing_filtered(ray, after, max_distance, |_| true)
    }

    /// [`Geometry::ray_spans_to`] over the items for which `filter(item)` is true.
    #[inline]
    fn ray_spans_to_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        spans: &mut Vec<Self::Span>,
        filter: impl FnMut(usize) -> bool,
    ) {
        self.spans_filtered(ray, None, max_distance, spans, filter);
    }

    /// [`Geometry::ray_spans_to`] for a ball of `radius` moving along the line, with each body's
    /// [`Cast::sphere_span`](crate::Cast::sphere_span): every body the ball touches while its
    /// centre travels the segment, and over which travel. A NaN, negative or infinite `radius`
    /// lists none.
    #[inline]
    fn sphere_spans_to(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
        spans: &mut Vec<Self::Span>,
    ) {
        self.spans_filtered(ray, Some(radius), max_distance, spans, |_| true);
    }

    /// [`Geometry::sphere_spans_to`] over the items for which `filter(item)` is true.
    #[inline]
    fn sphere_spans_to_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
        spans: &mut Vec<Self::Span>,
        filter: impl FnMut(usize) -> bool,
    ) {
        self.spans_filtered(ray, Some(radius), max_distance, spans, filter);
    }

    /// Clears `spans`, then fills it with the maximal intervals, in increasing order, of the
    /// union of the spans [`Geometry::ray_spans_to`] lists for the same `max_distance` (each
    /// unclipped): where the line runs inside at least one body. Two spans that touch or overlap
    /// (`next.enter <= current.exit`) are one interval. Each end is exactly an end of a body's
    /// span, so the answer is merging the loop's spans, bit for bit: the chords of the union of
    /// overlapping bodies (grains, a Boolean model).
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, Ray, Scene, Span};
    ///
    /// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(vec![
    ///     Circle::new(Point2::new(2.0, 0.0), 1.0)?,
    ///     Circle::new(Point2::new(3.0, 0.0), 1.0)?,
    ///     Circle::new(Point2::new(8.0, 0.0), 1.0)?,
    /// ]);
    /// let mut union = Vec::new();
    /// scene.union_spans(&Ray::new(Point2::origin(), Vector2::x())?, 100.0, &mut union);
    /// assert_eq!(union, [Span { enter: 1.0, exit: 4.0 }, Span { enter: 7.0, exit: 9.0 }]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    fn union_spans(&self, ray: &Ray<T, D>, max_distance: T, spans: &mut Vec<Span<T>>) {
        self.union_spans_filtered(ray, max_distance, spans, |_| true);
    }

    /// [`Geometry::union_spans`] over the items for which `filter(item)` is true.
    fn union_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        spans: &mut Vec<Span<T>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        let mut each = Vec::new();
        self.spans_filtered(ray, None, max_distance, &mut each, filter);
        Span::union_of(each.iter().map(|s| *s.found()), spans);
    }

    /// [`Geometry::union_spans`] for a ball of `radius` moving along the line: the intervals of
    /// the union of the spans [`Geometry::sphere_spans_to`] lists, where the ball overlaps at
    /// least one body while its centre travels them (so the gaps between them are where it moves
    /// freely: the chords a probe of that radius finds in a porous medium). Each end is exactly
    /// an end of a body's sphere span. A NaN, negative or infinite `radius` lists none.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, Ray, Scene, Span};
    ///
    /// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(vec![
    ///     Circle::new(Point2::new(2.0, 0.0), 1.0)?,
    ///     Circle::new(Point2::new(5.5, 0.0), 1.0)?,
    /// ]);
    /// let mut union = Vec::new();
    /// let ray = Ray::new(Point2::new(-2.0, 0.0), Vector2::x())?;
    /// // A ball of radius 1 cannot pass between the two discs, whose gap is 1.5.
    /// scene.union_sphere_spans(&ray, 1.0, 100.0, &mut union);
    /// assert_eq!(union, [Span { enter: 2.0, exit: 9.5 }]);
    /// // One of radius 0.75 touches both at once between them: touching spans are one.
    /// scene.union_sphere_spans(&ray, 0.75, 100.0, &mut union);
    /// assert_eq!(union, [Span { enter: 2.25, exit: 9.25 }]);
    /// scene.union_sphere_spans(&ray, 0.5, 100.0, &mut union);
    /// assert_eq!(union, [Span { enter: 2.5, exit: 5.5 }, Span { enter: 6.0, exit: 9.0 }]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    fn union_sphere_spans(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
        spans: &mut Vec<Span<T>>,
    ) {
        self.union_sphere_spans_filtered(ray, radius, max_distance, spans, |_| true);
    }

    /// [`Geometry::union_sphere_spans`] over the items for which `filter(item)` is true.
    fn union_sphere_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
        spans: &mut Vec<Span<T>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        let mut each = Vec::new();
        self.spans_filtered(ray, Some(radius), max_distance, &mut each, filter);
        Span::union_of(each.iter().map(|s| *s.found()), spans);
    }

    /// Clears `found`, then fills it with every body that contains `point` (its
    /// [`Shape::contains`](crate::Shape::contains)), in increasing id.
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
    #[inline]
    fn containing(&self, point: &Point<T, D>, found: &mut Vec<Self::Id>) {
        self.containing_filtered(point, found, |_| true);
    }

    /// `hits[i]` is exactly [`Geometry::cast_ray`]`(&rays[i], max_distance)`. Where the scene's
    /// hierarchies and bodies take more than 8 MiB, the rays are traced in the order of a
    /// space-filling curve through their origins ([`Geometry::ray_order`]); a plain scene
    /// traces runs of neighbouring rays that start and point close together (a camera's, a
    /// beam's) as packets. The answers are written in the input's order all the same.
    ///
    /// # Panics
    ///
    /// If `rays` and `hits` differ in length, as every batch does (the crate's documentation,
    /// "Batches").
    fn cast_rays(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<Self::Hit>]) {
        assert_lengths(
            Self::NAME,
            "cast_rays",
            (rays.len(), "rays"),
            (hits.len(), "hit slots"),
        );
        super::ray_batch::cast_in_order(rays, hits, Kind::footprint(self), |ray| {
            self.cast_ray(ray, max_distance)
        });
    }

    /// `hits[i]` is exactly [`Geometry::cast_ray_filtered`]`(&rays[i], max_distances[i],
    /// &filter)`: a batch whose rays each have a limit of their own (a transport step's free
    /// paths). The rays are traced as given (a plain scene's coherent runs in packets); in a
    /// scene larger than the cache, give them in [`Geometry::ray_order`].
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
    /// scene.cast_rays_filtered(&[ray; 3], &[100.0, 3.0, 100.0], &mut hits, |id| id != 0);
    /// let bodies: Vec<_> = hits.iter().map(|h| h.map(|h| h.body)).collect();
    /// assert_eq!(bodies, [Some(1), None, Some(1)]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    fn cast_rays_filtered(
        &self,
        rays: &[Ray<T, D>],
        max_distances: &[T],
        hits: &mut [Option<Self::Hit>],
        filter: impl Fn(usize) -> bool,
    ) {
        filtered_lengths::<Self, T, D>("cast_rays_filtered", rays, max_distances, hits.len());
        for ((ray, &max), hit) in rays.iter().zip(max_distances).zip(hits.iter_mut()) {
            *hit = self.cast_ray_filtered(ray, max, &filter);
        }
    }

    /// [`Geometry::cast_rays`] spread over rayon's thread pool: the same bits. Available with the
    /// crate feature `rayon`.
    ///
    /// # Panics
    ///
    /// If `rays` and `hits` differ in length.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    fn cast_rays_par(&self, rays: &[Ray<T, D>], max_distance: T, hits: &mut [Option<Self::Hit>])
    where
        Self: Sync,
        Self::Hit: Send,
    {
        assert_lengths(
            Self::NAME,
            "cast_rays_par",
            (rays.len(), "rays"),
            (hits.len(), "hit slots"),
        );
        super::ray_batch::cast_in_order_par(rays, hits, Kind::footprint(self), |ray| {
            self.cast_ray(ray, max_distance)
        });
    }

    /// [`Geometry::cast_rays_filtered`] spread over rayon's thread pool: the same bits.
    /// Available with the crate feature `rayon`.
    ///
    /// # Panics
    ///
    /// If `rays`, `max_distances` and `hits` differ in length.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    fn cast_rays_filtered_par(
        &self,
        rays: &[Ray<T, D>],
        max_distances: &[T],
        hits: &mut [Option<Self::Hit>],
        filter: impl Fn(usize) -> bool + Sync,
    ) where
        Self: Sync,
        Self::Hit: Send,
    {
        use rayon::prelude::*;
        filtered_lengths::<Self, T, D>("cast_rays_filtered_par", rays, max_distances, hits.len());
        rays.par_chunks(PAR_RAYS)
            .zip(max_distances.par_chunks(PAR_RAYS))
            .zip(hits.par_chunks_mut(PAR_RAYS))
            .for_each(|((rays, max), hits)| self.cast_rays_filtered(rays, max, hits, &filter));
    }
}

/// The precondition of a filtered batch of `G`'s: as many limits and hit slots as rays.
#[inline]
#[track_caller]
pub(crate) fn filtered_lengths<G: Kind + ?Sized, T: Real, const D: usize>(
    call: &str,
    rays: &[Ray<T, D>],
    max_distances: &[T],
    hits: usize,
) {
    let rays = (rays.len(), "rays");
    assert_lengths(G::NAME, call, rays, (max_distances.len(), "max_distances"));
    assert_lengths(G::NAME, call, rays, (hits, "hit slots"));
}

/// A query's ball's radius in the working precision (0 for a ray, `radius` `None`); `None` for
/// a NaN, negative or infinite one, which every body refuses: the one check every kind's
/// required methods make.
#[inline(always)]
pub(crate) fn ball<T: Real>(radius: Option<T>) -> Option<f64> {
    let r = radius.map_or(0.0, Real::to_wide);
    (r >= 0.0 && r.is_finite()).then_some(r)
}

/// The rays a thread of a parallel filtered batch takes at a time.
#[cfg(feature = "rayon")]
pub(crate) const PAR_RAYS: usize = 256;

/// The point queries of a scene of any kind whose bodies measure distances
/// ([`PointQuery`](crate::PointQuery)): the nearest body to a point, and the bodies within a
/// distance of it, each exactly what the loop over the bodies (or the `(instance, body)` or
/// `(body, image)` pairs) answers, bit for bit, the lowest id on ties.
pub trait Proximity<T: Real, const D: usize = 3>: Geometry<T, D> {
    /// The nearest body: its [`Geometry::Id`] and its [`BodyNearest`] (whose `body` is the body's
    /// index in its own scene, and whose point lies where the body does, translated).
    type Nearest: Answer<Id = Self::Id, Found = BodyNearest<T, D>> + Copy + Debug + PartialEq;

    /// The body nearest to `point` among those (of the items `filter` keeps) whose
    /// [`signed_distance`](crate::PointQuery::signed_distance) at `point` is at most
    /// `max_distance`: the smallest signed distance (on equal ones, the lowest id), with the
    /// bits the body's own `signed_distance` and `closest_point` give; `None` where there is none
    /// or for a NaN `max_distance`. Signed distances are negative inside: a point inside
    /// several bodies gets the one it is deepest in.
    fn nearest_filtered(
        &self,
        point: &Point<T, D>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<Self::Nearest>;

    /// Clears `found`, then fills it with every body (of the items `filter` keeps) whose signed
    /// distance at `point` is at most `distance`, in increasing id: the bodies a ball of radius
    /// `distance` centred at `point` touches. A NaN `distance` gives none.
    fn within_filtered(
        &self,
        point: &Point<T, D>,
        distance: T,
        found: &mut Vec<Self::Id>,
        filter: impl FnMut(usize) -> bool,
    );

    /// [`Proximity::nearest_filtered`] over every body.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Aabb, Scene, Sphere};
    ///
    /// let scene: Scene<f64> = Scene::new(vec![
    ///     Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?.into(),
    ///     Aabb::new(Point3::new(-2.0, -2.0, 8.0), Point3::new(2.0, 2.0, 9.0))?.into(),
    /// ]);
    /// let near = scene.nearest(&Point3::new(0.0, 0.0, 7.5), f64::INFINITY).unwrap();
    /// assert_eq!((near.body, near.signed_distance), (1, 0.5));
    /// assert_eq!(near.point, Point3::new(0.0, 0.0, 8.0));
    /// assert_eq!(near.normal.into_inner(), -Vector3::z());
    /// // Nothing within 0.25 of that point.
    /// assert!(scene.nearest(&Point3::new(0.0, 0.0, 7.5), 0.25).is_none());
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    fn nearest(&self, point: &Point<T, D>, max_distance: T) -> Option<Self::Nearest> {
        self.nearest_filtered(point, max_distance, |_| true)
    }

    /// [`Proximity::within_filtered`] over every body.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::Point3;
    /// use raysweep::{Scene, Sphere};
    ///
    /// let scene: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![
    ///     Sphere::new(Point3::new(0.0, 0.0, 0.0), 1.0)?,
    ///     Sphere::new(Point3::new(3.0, 0.0, 0.0), 1.0)?,
    ///     Sphere::new(Point3::new(9.0, 0.0, 0.0), 1.0)?,
    /// ]);
    /// let mut near = Vec::new();
    /// // Touching the first (at 0.5 inside it) and the second (exactly 1.5 away).
    /// scene.within(&Point3::new(0.5, 0.0, 0.0), 1.5, &mut near);
    /// assert_eq!(near, [0, 1]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    fn within(&self, point: &Point<T, D>, distance: T, found: &mut Vec<Self::Id>) {
        self.within_filtered(point, distance, found, |_| true);
    }

    /// `found[i]` is exactly [`Proximity::nearest`]`(&points[i], max_distance)`: the same
    /// answers (a plain scene's faster for many points, visited in blocks of neighbours).
    ///
    /// # Panics
    ///
    /// If `points` and `found` differ in length.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::Point2;
    /// use raysweep::{Circle, Scene};
    ///
    /// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(vec![
    ///     Circle::new(Point2::new(0.0, 0.0), 1.0)?,
    ///     Circle::new(Point2::new(5.0, 0.0), 1.0)?,
    /// ]);
    /// let points = [Point2::new(1.5, 0.0), Point2::new(4.0, 0.0), Point2::new(9.0, 0.0)];
    /// let mut found = [None; 3];
    /// scene.nearest_batch(&points, f64::INFINITY, &mut found);
    /// let bodies: Vec<_> = found.iter().map(|n| n.map(|n| n.body)).collect();
    /// assert_eq!(bodies, [Some(0), Some(1), Some(1)]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    fn nearest_batch(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<Self::Nearest>],
    ) {
        self.nearest_batch_filtered(points, max_distance, found, |_| true);
    }

    /// [`Proximity::nearest_batch`] over the items for which `filter(item)` is true: `found[i]`
    /// is exactly [`Proximity::nearest_filtered`]`(&points[i], max_distance, filter)`.
    ///
    /// # Panics
    ///
    /// If `points` and `found` differ in length.
    fn nearest_batch_filtered(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<Self::Nearest>],
        mut filter: impl FnMut(usize) -> bool,
    ) {
        let (given, slots) = ((points.len(), "points"), (found.len(), "answer slots"));
        assert_lengths(Self::NAME, "nearest_batch", given, slots);
        for (p, n) in points.iter().zip(found.iter_mut()) {
            *n = self.nearest_filtered(p, max_distance, &mut filter);
        }
    }

    /// [`Proximity::within`] for many points: clears `offsets` and `found`, then the bodies
    /// within `distance` of `points[i]` are `found[offsets[i]..offsets[i + 1]]` (`offsets` has
    /// `points.len() + 1` entries), exactly `within(&points[i], distance)`'s list.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::Point2;
    /// use raysweep::{Circle, Scene};
    ///
    /// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(vec![
    ///     Circle::new(Point2::new(0.0, 0.0), 1.0)?,
    ///     Circle::new(Point2::new(3.0, 0.0), 1.0)?,
    /// ]);
    /// let points = [Point2::new(1.5, 0.0), Point2::new(9.0, 0.0), Point2::new(3.0, 0.5)];
    /// let (mut offsets, mut bodies) = (Vec::new(), Vec::new());
    /// scene.within_batch(&points, 0.5, &mut offsets, &mut bodies);
    /// assert_eq!(offsets, [0, 2, 2, 3]);
    /// assert_eq!(bodies, [0, 1, 1]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[inline]
    fn within_batch(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        found: &mut Vec<Self::Id>,
    ) {
        self.within_batch_filtered(points, distance, offsets, found, |_| true);
    }

    /// [`Proximity::within_batch`] over the items for which `filter(item)` is true: each list
    /// exactly [`Proximity::within_filtered`]'s.
    fn within_batch_filtered(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        found: &mut Vec<Self::Id>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        offsets.clear();
        offsets.push(0);
        found.clear();
        let mut near = Vec::new();
        for p in points {
            self.within_filtered(p, distance, &mut near, &mut filter);
            found.extend_from_slice(&near);
            offsets.push(found.len());
        }
    }

    /// [`Proximity::nearest_batch`] spread over rayon's thread pool: the same bits. Available
    /// with the crate feature `rayon`.
    ///
    /// # Panics
    ///
    /// If `points` and `found` differ in length.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    #[inline]
    fn nearest_batch_par(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<Self::Nearest>],
    ) where
        Self: Sync,
        Self::Nearest: Send,
        T: Send + Sync,
    {
        self.nearest_batch_filtered_par(points, max_distance, found, |_| true);
    }

    /// [`Proximity::nearest_batch_filtered`] spread over rayon's thread pool: the same bits.
    /// Available with the crate feature `rayon`.
    ///
    /// # Panics
    ///
    /// If `points` and `found` differ in length.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    fn nearest_batch_filtered_par(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<Self::Nearest>],
        filter: impl Fn(usize) -> bool + Sync,
    ) where
        Self: Sync,
        Self::Nearest: Send,
        T: Send + Sync,
    {
        use rayon::prelude::*;
        let (given, slots) = ((points.len(), "points"), (found.len(), "answer slots"));
        assert_lengths(Self::NAME, "nearest_batch_par", given, slots);
        points
            .par_chunks(PAR_POINTS)
            .zip(found.par_chunks_mut(PAR_POINTS))
            .for_each(|(points, found)| {
                self.nearest_batch_filtered(points, max_distance, found, &filter);
            });
    }

    /// [`Proximity::within_batch`] spread over rayon's thread pool: the same lists. Available
    /// with the crate feature `rayon`.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    #[inline]
    fn within_batch_par(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        found: &mut Vec<Self::Id>,
    ) where
        Self: Sync,
        Self::Id: Send + Sync,
        T: Send + Sync,
    {
        self.within_batch_filtered_par(points, distance, offsets, found, |_| true);
    }

    /// [`Proximity::within_batch_filtered`] spread over rayon's thread pool: the same lists.
    /// Available with the crate feature `rayon`.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    fn within_batch_filtered_par(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        found: &mut Vec<Self::Id>,
        filter: impl Fn(usize) -> bool + Sync,
    ) where
        Self: Sync,
        Self::Id: Send + Sync,
        T: Send + Sync,
    {
        use rayon::prelude::*;
        let lists: Vec<(Vec<usize>, Vec<Self::Id>)> = points
            .par_chunks(PAR_POINTS)
            .map(|points| {
                let (mut offsets, mut found) = (Vec::new(), Vec::new());
                self.within_batch_filtered(points, distance, &mut offsets, &mut found, &filter);
                (offsets, found)
            })
            .collect();
        offsets.clear();
        offsets.push(0);
        found.clear();
        for (part, ids) in lists {
            let base = found.len();
            offsets.extend(part[1..].iter().map(|&end| base + end));
            found.extend_from_slice(&ids);
        }
    }
}

/// The points a thread of a parallel proximity batch takes at a time.
#[cfg(feature = "rayon")]
const PAR_POINTS: usize = 1024;
