//! Instances: one scene placed many times, each placement traced as if every body had been
//! translated by its offset in exact arithmetic.
//!
//! - `super::moved`: a query's origin moved exactly by an offset, and a scene asked from there.
//! - here: [`Instance`], [`InstancedScene`] (a hierarchy over instances) and its queries.
//!
//! # Why the answers are those of the exactly translated bodies
//!
//! Instance `i` holds the bodies `B + v` for each body `B` of its scene and its offset `v`: a
//! query is its scene's query from the moved origin `o − v`, formed exactly as `super::moved`
//! says; where `o − v` is a value of the width the answer is the untranslated body's own, bit for
//! bit, and elsewhere within the single casts' precision targets.
//!
//! Ties are those of the loop over every (instance, body) pair: the hierarchy over instances
//! visits equal distances and keeps the lowest instance, and each scene the lowest body.
//!
//! # Why the hierarchy over instances skips no answer
//!
//! The instanced scene's hierarchy is a scene's hierarchy ([`Scene`]'s build, probes and
//! traversals), over one box per instance, and the argument of `src/scene/probe/mod.rs` holds if
//! every point an instance reports lies in its box grown by `τ·(‖o‖ + |bᵢ|)`. A body's answer
//! from the moved origin `o − v` lies in its box grown by `τ·(‖o − v‖ + |bᵢ|)` (its scene's
//! coordinates), with `‖o − v‖ ≤ ‖o‖ + ‖v‖`: beyond what the probe allows by `τ·‖v‖`, which for an
//! instance far from the origin is much more than the body. So an instance's box is the union of
//! its scene's root boxes (already grown by `4τ` of their bounds), moved by `v` and grown by
//! [`slack`]` = 4τ` times `D·‖v‖ + |bᵢ|`, rounded outward: it holds every such point, and the
//! roundings of the sum with a wide margin.
//!
//! The proximity queries descend the same hierarchy by the lower bound of
//! `src/scene/lower_bound.rs`, which asks that a body's reported signed distance at `p` be at
//! least the distance from `p` to its box less `E = τ·D·(‖p‖ + ‖B‖) + ε`, `‖B‖` the magnitude of
//! the instance's box. A body of an instance reports its distance at `p − v`, at least the
//! distance from `p − v` to its box in its scene's coordinates less `τ·D·(‖p − v‖ + ‖b‖) + ε`.
//! Since `‖p − v‖ ≤ ‖p‖ + ‖v‖`, and `‖b‖ ≤ ‖B‖ + ‖v‖` (the instance's box holds the body's box
//! moved by `v`), that is at most `E + 2τ·D·‖v‖` below the distance to the moved box; the
//! instance's box, grown beyond the moved box by at least `4τ·D·‖v‖` on every axis, is that much
//! nearer `p`, twice what is needed. So an instance whose bound exceeds the best so far holds no
//! body as near, and `nearest` and `within` skip no answer.

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use nalgebra::{Point, SVector};

use super::answer::{Answer, BodyNearest, sort_by_entry};
use super::lower_bound::LowerBound;
use super::moved;
use super::node::{Node, slack};
use super::plain::Scene;
use super::probe::{self, F64Probe, Line, on_line};
use super::ray_batch;
use super::surface::{Geometry, Kind, Proximity, ball};
use crate::error::{Error, check_finite};
use crate::hit::{Crossing, Hit, Span};
use crate::point::PointQuery;
use crate::ray::Ray;
use crate::real::Real;
use crate::shape::Body;
use crate::traits::Cast;
use crate::traits::Sealed;

/// A scene placed at an offset: every body of the scene translated by `offset`, exactly.
///
/// The scene is shared: placing it again costs the offset and a reference.
///
/// # Example
///
/// ```
/// use std::sync::Arc;
/// use raysweep::nalgebra::{Point3, Vector3};
/// use raysweep::{Instance, Scene, Sphere};
///
/// let pebble: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![Sphere::new(Point3::origin(), 1.0)?]);
/// let placed = Instance::new(Arc::new(pebble), Vector3::new(5.0, 0.0, 0.0))?;
/// assert_eq!(*placed.offset(), Vector3::new(5.0, 0.0, 0.0));
/// assert!(Instance::new(placed.scene().clone(), Vector3::new(f64::NAN, 0.0, 0.0)).is_err());
/// # Ok::<(), raysweep::Error>(())
/// ```
pub struct Instance<T: Real, const D: usize = 3, S = Body<T, D>> {
    scene: Arc<Scene<T, D, S>>,
    offset: SVector<T, D>,
}

impl<T: Real, const D: usize, S> Clone for Instance<T, D, S> {
    fn clone(&self) -> Self {
        Instance {
            scene: Arc::clone(&self.scene),
            offset: self.offset,
        }
    }
}

impl<T: Real, const D: usize, S> fmt::Debug for Instance<T, D, S> {
    /// The offset and the scene's size (not its bodies, which many instances share).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Instance")
            .field("offset", &self.offset)
            .field("bodies", &self.scene.len())
            .finish()
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>> Instance<T, D, S> {
    /// `scene` placed at `offset`.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a NaN or infinite component of `offset`.
    pub fn new(scene: Arc<Scene<T, D, S>>, offset: SVector<T, D>) -> Result<Self, Error> {
        check_finite("offset", offset.iter().map(|v| v.to_wide()))?;
        Ok(Instance { scene, offset })
    }

    /// The scene placed.
    #[must_use]
    pub fn scene(&self) -> &Arc<Scene<T, D, S>> {
        &self.scene
    }

    /// The offset every body is translated by.
    #[must_use]
    pub fn offset(&self) -> &SVector<T, D> {
        &self.offset
    }

    /// The box the hierarchy over instances takes for this one: the union of its scene's root
    /// boxes moved by the offset `v`, grown by [`slack`] times `D·‖v‖ + |bᵢ|` and rounded
    /// outward (the module's documentation says why); a point at the offset for an empty scene.
    fn placed_box(&self) -> ([T; D], [T; D]) {
        let v: [f64; D] = core::array::from_fn(|i| self.offset[i].to_wide());
        if self.scene.hierarchy.nodes.is_empty() {
            let at = core::array::from_fn(|i| self.offset[i]);
            return (at, at);
        }
        let (lower, upper) = self.scene.hierarchy.node(0).union();
        let far = v.iter().fold(0.0f64, |m, c| m.max(c.abs()));
        let pad = |i: usize| {
            let local = f64::from(lower[i].abs().max(upper[i].abs()));
            slack::<T>() * (D as f64 * far + local)
        };
        (
            core::array::from_fn(|i| T::from_wide_down(f64::from(lower[i]) + v[i] - pad(i))),
            core::array::from_fn(|i| T::from_wide_up(f64::from(upper[i]) + v[i] + pad(i))),
        )
    }
}

/// A hit in an instanced scene: the instance, the body of its scene, and the hit on that body
/// translated by the instance's offset.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InstanceHit<T: Real, const D: usize = 3> {
    /// The instance's index in [`InstancedScene::instances`].
    pub instance: usize,
    /// The body's id in the instance's scene.
    pub body: usize,
    /// The hit: distance and normal are those of the translated body, the point is in the
    /// instanced scene's coordinates.
    pub hit: Hit<T, D>,
}

/// Where a line crosses one body of one instance.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InstanceSpan<T: Real> {
    /// The instance's index in [`InstancedScene::instances`].
    pub instance: usize,
    /// The body's id in the instance's scene.
    pub body: usize,
    /// The translated body's span along the line.
    pub span: Span<T>,
}

/// The next crossing along a ray in an instanced scene: the instance, the body of its scene,
/// and where the ray crosses that body translated by the instance's offset.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InstanceCrossing<T: Real, const D: usize = 3> {
    /// The instance's index in [`InstancedScene::instances`].
    pub instance: usize,
    /// The body's id in the instance's scene.
    pub body: usize,
    /// The crossing: an end of the translated body's span.
    pub crossing: Crossing<T, D>,
}

/// Instances (scenes placed at offsets) with a hierarchy over them. Every query answers what a
/// loop over every (instance, body) pair answers against the bodies translated exactly: the
/// first hit with the lowest `(instance, body)` on equal distances, spans sorted by entry then
/// `(instance, body)`. Where `origin − offset` is exactly representable in the width, distances,
/// spans and normals are the untranslated body's own for the moved ray, bit for bit; elsewhere
/// `origin − offset` is carried as an exact pair into raysweep's shapes, whose answers stay within
/// the single casts' precision targets (the
/// [module's source](https://github.com/raysweep/raysweep/blob/main/src/scene/instance/mod.rs)
/// gives the argument).
///
/// A body is stored once per scene, however often the scene is placed; an instance costs its
/// offset, a reference to its scene and its share of the hierarchy
/// ([`InstancedScene::hierarchy_bytes`]).
///
/// # Example
///
/// ```
/// use std::sync::Arc;
/// use raysweep::nalgebra::{Point3, Vector3};
/// use raysweep::{Instance, InstancedScene, Ray, Scene, Sphere};
///
/// // A pebble: a shell and a kernel; a row of three, two units apart.
/// let pebble: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![
///     Sphere::new(Point3::origin(), 1.0)?,
///     Sphere::new(Point3::origin(), 0.25)?,
/// ]);
/// let pebble = Arc::new(pebble);
/// let row = (0..3)
///     .map(|i| Instance::new(pebble.clone(), Vector3::new(2.0 * f64::from(i), 0.0, 0.0)))
///     .collect::<Result<Vec<_>, _>>()?;
/// let core = InstancedScene::new(row);
///
/// let ray = Ray::new(Point3::new(4.0, -5.0, 0.0), Vector3::y())?;
/// let first = core.cast_ray(&ray, f64::INFINITY).unwrap();
/// assert_eq!((first.instance, first.body, first.hit.distance), (2, 0, 4.0));
/// assert_eq!(first.hit.point, Point3::new(4.0, -1.0, 0.0));
///
/// let mut spans = Vec::new();
/// core.ray_spans(&ray, &mut spans);
/// let chords: Vec<_> = spans.iter().map(|s| (s.instance, s.body, s.span.length())).collect();
/// assert_eq!(chords, [(2, 0, 2.0), (2, 1, 0.5)]);
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct InstancedScene<T: Real, const D: usize = 3, S = Body<T, D>> {
    top: Scene<T, D, Instance<T, D, S>>,
    /// The bytes the queries read from: the hierarchy over the instances, the instances, and
    /// each scene they place once ([`Scene::footprint`]).
    footprint: usize,
}

impl<T: Real, const D: usize, S: Cast<T, D>> InstancedScene<T, D, S> {
    /// The instanced scene of `instances`, with the hierarchy over them built (as a scene's is,
    /// by binned SAH over the instances' boxes). An instance's index in `instances` is its id in
    /// the answers.
    ///
    /// # Panics
    ///
    /// If there are `2^31 − 1` instances or more.
    pub fn new(instances: Vec<Instance<T, D, S>>) -> Self {
        let mut scenes: Vec<&Arc<Scene<T, D, S>>> = instances.iter().map(|i| &i.scene).collect();
        scenes.sort_unstable_by_key(|s| Arc::as_ptr(s));
        scenes.dedup_by(|a, b| Arc::ptr_eq(a, b));
        let placed: usize = scenes.iter().map(|s| s.footprint()).sum();
        let top = Scene::with_boxes(instances, Instance::placed_box);
        InstancedScene {
            footprint: top.footprint() + placed,
            top,
        }
    }

    /// The instances, in the order given to [`InstancedScene::new`].
    #[must_use]
    pub fn instances(&self) -> &[Instance<T, D, S>] {
        self.top.bodies()
    }

    /// The memory the hierarchy over the instances takes beyond the instances themselves
    /// (`size_of::<Instance>()` each), in bytes; the scenes are counted once each, by their own
    /// [`Scene::hierarchy_bytes`] and bodies.
    #[must_use]
    pub fn hierarchy_bytes(&self) -> usize {
        self.top.hierarchy_bytes()
    }

    /// Every body of every instance the whole line through `ray` crosses (behind the origin
    /// too), with its span, into `spans` (cleared first), sorted by entry, then by `(instance,
    /// body)`. [`Geometry::ray_spans_to`] gives those that meet a segment.
    pub fn ray_spans(&self, ray: &Ray<T, D>, spans: &mut Vec<InstanceSpan<T>>) {
        self.ray_spans_filtered(ray, spans, |_| true);
    }

    /// [`InstancedScene::ray_spans`] over the instances for which `filter(instance)` is true.
    pub fn ray_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        spans: &mut Vec<InstanceSpan<T>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        let line = F64Probe::of(ray, 0.0);
        self.spans(
            |node| line.crosses(node),
            ray,
            None,
            spans,
            filter,
            |_| true,
        );
    }

    /// [`InstancedScene::ray_spans`] for a ball of `radius` moving along the line, with each
    /// body's [`Cast::sphere_span`]: every body the ball touches, and over which travel of its
    /// centre. A NaN, negative or infinite `radius` lists none.
    pub fn sphere_spans(&self, ray: &Ray<T, D>, radius: T, spans: &mut Vec<InstanceSpan<T>>) {
        self.sphere_spans_filtered(ray, radius, spans, |_| true);
    }

    /// [`InstancedScene::sphere_spans`] over the instances for which `filter(instance)` is true.
    pub fn sphere_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        spans: &mut Vec<InstanceSpan<T>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        let Some(grow) = ball(Some(radius)) else {
            spans.clear();
            return;
        };
        let line = F64Probe::of(ray, grow);
        let radius = Some(radius);
        self.spans(
            |node| line.crosses(node),
            ray,
            radius,
            spans,
            filter,
            |_| true,
        );
    }

    /// The spans of the bodies of the instances `filter` keeps whose boxes `crosses` accepts
    /// (as [`Scene::visit_depth_first`] asks), each kept by `keep`, into `spans` (cleared first), sorted.
    fn spans(
        &self,
        crosses: impl FnMut(&Node<D>) -> u32,
        ray: &Ray<T, D>,
        radius: Option<T>,
        spans: &mut Vec<InstanceSpan<T>>,
        mut filter: impl FnMut(usize) -> bool,
        keep: impl Fn(&Span<T>) -> bool,
    ) {
        spans.clear();
        self.top.visit_depth_first(crosses, |instance| {
            if filter(instance) {
                let placed = &self.instances()[instance];
                let found = |body, span| {
                    if keep(&span) {
                        spans.push(InstanceSpan {
                            instance,
                            body,
                            span,
                        });
                    }
                };
                moved::spans(&placed.scene, &placed.offset, ray, radius, |_| true, found);
            }
            true
        });
        sort_by_entry(spans, |s| (s.span.enter, (s.instance, s.body)));
    }
}

impl<T: Real, const D: usize, S> Kind for InstancedScene<T, D, S> {
    const NAME: &'static str = "InstancedScene";

    fn footprint(&self) -> usize {
        self.footprint
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>> Geometry<T, D> for InstancedScene<T, D, S> {
    type Id = (usize, usize);
    type Hit = InstanceHit<T, D>;
    type Span = InstanceSpan<T>;
    type Crossing = InstanceCrossing<T, D>;

    /// The instances: a filter keeps or drops an instance with all its bodies.
    #[inline]
    fn items(&self) -> usize {
        self.instances().len()
    }

    /// Each instance the line meets, nearest first, is asked for its next crossing up to the
    /// best so far (as for the first hit).
    fn next_crossing_filtered(
        &self,
        ray: &Ray<T, D>,
        after: T,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<InstanceCrossing<T, D>> {
        if after.to_wide().is_nan() {
            return None;
        }
        let max = max_distance.to_wide();
        let cast = |instance, placed: &Instance<T, D, S>, best: f64| {
            if !filter(instance) {
                return None;
            }
            let limit = T::from_wide(up_to::<T>(best, max));
            let (body, crossing) =
                moved::next_crossing(&placed.scene, &placed.offset, ray, after, limit, |_| true)?;
            Some((crossing.distance.to_wide(), (body, crossing)))
        };
        let found = on_line!(ray, 0.0, |line| self.top.first(&line, max, cast));
        found.map(|(instance, (body, crossing))| InstanceCrossing {
            instance,
            body,
            crossing,
        })
    }

    /// Each instance the line meets, nearest first, is asked for its first answer up to the
    /// best so far.
    fn first_contact(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<InstanceHit<T, D>> {
        let grow = ball(radius)?;
        let max = max_distance.to_wide();
        // An instance is asked up to the best distance so far, or the next value of the width
        // beyond it: an entry beyond the best (in the working precision) may round to it, and
        // then ties with it.
        let cast = |instance, placed: &Instance<T, D, S>, best: f64| {
            if !filter(instance) {
                return None;
            }
            let limit = T::from_wide(up_to::<T>(best, max));
            let (body, hit) =
                moved::first(&placed.scene, &placed.offset, ray, radius, limit, |_| true)?;
            Some((hit.distance.to_wide(), (body, hit)))
        };
        let found = on_line!(ray, grow, |line| self.top.first(&line, max, cast));
        found.map(|(instance, (body, hit))| InstanceHit {
            instance,
            body,
            hit,
        })
    }

    fn hits_any_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> bool {
        let max = max_distance.to_wide();
        if !(max >= 0.0) {
            return false;
        }
        let cutoff = probe::entry_cutoff(max);
        let mut found = false;
        on_line!(ray, 0.0, |line| self.top.visit_depth_first(
            |node| line.meets(node, cutoff).0,
            |instance| {
                found = filter(instance) && {
                    let placed = &self.instances()[instance];
                    moved::hits_any(&placed.scene, &placed.offset, ray, max_distance, |_| true)
                };
                !found
            },
        ));
        found
    }

    /// The instances whose boxes the segment meets (the first hits' probe, `src/scene/probe/`),
    /// each asked for its spans.
    fn spans_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        spans: &mut Vec<InstanceSpan<T>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        spans.clear();
        let max = max_distance.to_wide();
        let Some(grow) = ball(radius).filter(|_| max >= 0.0) else {
            return;
        };
        let cutoff = probe::entry_cutoff(max);
        let meets = |span: &Span<T>| span.exit.to_wide() >= 0.0 && span.enter.to_wide() <= max;
        on_line!(ray, grow, |line| self.spans(
            |node| line.meets(node, cutoff).0,
            ray,
            radius,
            spans,
            filter,
            meets
        ));
    }

    fn containing_filtered(
        &self,
        point: &Point<T, D>,
        found: &mut Vec<(usize, usize)>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        found.clear();
        let p: [f64; D] = core::array::from_fn(|i| point[i].to_wide());
        self.top.visit_depth_first(
            |node| probe::containing::<D, T>(node, &p),
            |instance| {
                if filter(instance) {
                    let placed = &self.instances()[instance];
                    let inside = |body| found.push((instance, body));
                    moved::containing(&placed.scene, &placed.offset, point, |_| true, inside);
                }
                true
            },
        );
        found.sort_unstable();
    }

    fn item_contains(
        &self,
        _: Sealed,
        (instance, body): (usize, usize),
        point: &Point<T, D>,
    ) -> bool {
        let placed = &self.instances()[instance];
        moved::contains(&placed.scene.bodies()[body], &placed.offset, point)
    }

    fn item_span(
        &self,
        _: Sealed,
        (instance, body): (usize, usize),
        ray: &Ray<T, D>,
    ) -> Option<Span<T>> {
        let placed = &self.instances()[instance];
        moved::span(&placed.scene.bodies()[body], &placed.offset, ray)
    }

    fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
        ray_batch::ray_order(origins, self.footprint)
    }
}

/// The limit an instance (or image) is asked up to where the best so far is `best` and the
/// query's limit `max`: the next value of the width beyond the best, so that an equal distance
/// found there is still found (and kept by the tie rule), at most `max`.
pub(crate) fn up_to<T: Real>(best: f64, max: f64) -> f64 {
    if best < max {
        T::from_wide_up(best.next_up()).to_wide().min(max)
    } else {
        max
    }
}

/// The body of an instanced scene nearest to a point: the instance, the body of its scene, and
/// that body's answer translated by the instance's offset (its point among the instances).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InstanceNearest<T: Real, const D: usize = 3> {
    /// The instance's index in [`InstancedScene::instances`].
    pub instance: usize,
    /// The body's id in the instance's scene.
    pub body: usize,
    /// The body's answer: `nearest.point` is the surface point of the translated body.
    pub nearest: BodyNearest<T, D>,
}

impl<T: Real, const D: usize, S: Cast<T, D> + PointQuery<T, D>> Proximity<T, D>
    for InstancedScene<T, D, S>
{
    type Nearest = InstanceNearest<T, D>;

    /// The instances nearest bound first (the hierarchy's lower bound, `src/scene/lower_bound.rs`,
    /// which the instances' boxes keep below every body's distance: the module's
    /// documentation), each asked for its nearest body up to the best so far.
    fn nearest_filtered(
        &self,
        point: &Point<T, D>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<InstanceNearest<T, D>> {
        let ask = |instance: usize, bar: T| {
            if !filter(instance) {
                return None;
            }
            let placed = &self.instances()[instance];
            moved::nearest(&placed.scene, &placed.offset, point, bar, |_| true)
                .map(|n| (n.signed_distance, n))
        };
        let (instance, nearest) = self.top.nearest_by(point, max_distance, ask)?;
        Some(InstanceNearest {
            instance,
            body: nearest.body,
            nearest,
        })
    }

    fn within_filtered(
        &self,
        point: &Point<T, D>,
        distance: T,
        found: &mut Vec<(usize, usize)>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        found.clear();
        let limit = distance.to_wide();
        if limit.is_nan() {
            return;
        }
        let lower = LowerBound::of(point);
        let cutoff = <f32 as Real>::from_wide_up(limit);
        self.top.visit_breadth_first(
            |node| lower.within(node, cutoff).0,
            |instance| {
                if filter(instance) {
                    let placed = &self.instances()[instance];
                    let near = |body| found.push((instance, body));
                    moved::within(
                        &placed.scene,
                        &placed.offset,
                        point,
                        distance,
                        |_| true,
                        near,
                    );
                }
            },
        );
        found.sort_unstable();
    }
}

impl<T: Real, const D: usize> Answer for InstanceCrossing<T, D> {
    type Id = (usize, usize);
    type Found = Crossing<T, D>;

    #[inline]
    fn id(&self) -> (usize, usize) {
        (self.instance, self.body)
    }

    #[inline]
    fn found(&self) -> &Crossing<T, D> {
        &self.crossing
    }
}

impl<T: Real, const D: usize> Answer for InstanceHit<T, D> {
    type Id = (usize, usize);
    type Found = Hit<T, D>;

    #[inline]
    fn id(&self) -> (usize, usize) {
        (self.instance, self.body)
    }

    #[inline]
    fn found(&self) -> &Hit<T, D> {
        &self.hit
    }
}

impl<T: Real> Answer for InstanceSpan<T> {
    type Id = (usize, usize);
    type Found = Span<T>;

    #[inline]
    fn id(&self) -> (usize, usize) {
        (self.instance, self.body)
    }

    #[inline]
    fn found(&self) -> &Span<T> {
        &self.span
    }
}

impl<T: Real, const D: usize> Answer for InstanceNearest<T, D> {
    type Id = (usize, usize);
    type Found = BodyNearest<T, D>;

    #[inline]
    fn id(&self) -> (usize, usize) {
        (self.instance, self.body)
    }

    #[inline]
    fn found(&self) -> &BodyNearest<T, D> {
        &self.nearest
    }
}
