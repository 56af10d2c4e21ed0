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
//! [`slack`]` = 4τ` times `‖v‖ + |bᵢ|`, rounded outward: it holds every such point, and the
//! roundings of the sum with a wide margin.

use super::answer::sort_by_entry;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use nalgebra::{Point, SVector};

use super::node::slack;
use super::probe::{self, F64Probe, Line, on_line};
use super::ray_batch::{self, cast_in_order};
use super::{Body, Scene, moved};
use crate::error::{Error, check_finite};
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::Real;
use crate::traits::Cast;

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
    /// boxes moved by the offset `v`, grown by [`slack`] times `‖v‖ + |bᵢ|` and rounded outward
    /// (the module's documentation says why); a point at the offset for an empty scene.
    fn placed_box(&self) -> ([T; D], [T; D]) {
        let v: [f64; D] = core::array::from_fn(|i| self.offset[i].to_wide());
        if self.scene.hierarchy.nodes.is_empty() {
            let at = core::array::from_fn(|i| self.offset[i]);
            return (at, at);
        }
        let (lower, upper) = self.scene.hierarchy.node(0).union();
        let far = v.iter().fold(0.0f64, |m, c| m.max(c.abs()));
        let grow = |i: usize| {
            let local = f64::from(lower[i].abs().max(upper[i].abs()));
            slack::<T>() * (far + local)
        };
        (
            core::array::from_fn(|i| T::from_wide_down(f64::from(lower[i]) + v[i] - grow(i))),
            core::array::from_fn(|i| T::from_wide_up(f64::from(upper[i]) + v[i] + grow(i))),
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

    /// The first hit of `ray` at a distance in `[0, max_distance]` over every body of every
    /// instance, translated exactly; on equal distances the lowest `(instance, body)`. A NaN or
    /// negative `max_distance` gives `None`.
    pub fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<InstanceHit<T, D>> {
        self.first(ray, None, max_distance, |_| true)
    }

    /// [`InstancedScene::cast_ray`] over the instances for which `filter(instance)` is true.
    pub fn cast_ray_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<InstanceHit<T, D>> {
        self.first(ray, None, max_distance, filter)
    }

    /// The first contact of a ball of `radius` moving along `ray`, as [`Cast::cast_sphere`]
    /// gives it for each body translated exactly, the lowest `(instance, body)` on equal
    /// distances. `None` for a NaN, negative or infinite `radius`.
    pub fn cast_sphere(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
    ) -> Option<InstanceHit<T, D>> {
        self.cast_sphere_filtered(ray, radius, max_distance, |_| true)
    }

    /// [`InstancedScene::cast_sphere`] over the instances for which `filter(instance)` is true.
    pub fn cast_sphere_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<InstanceHit<T, D>> {
        let r = radius.to_wide();
        if !(r >= 0.0 && r.is_finite()) {
            return None;
        }
        self.first(ray, Some(radius), max_distance, filter)
    }

    /// Whether `ray` hits any body of any instance at a distance in `[0, max_distance]`: whether
    /// [`InstancedScene::cast_ray`] gives a hit, but it stops at the first found.
    pub fn hits_any(&self, ray: &Ray<T, D>, max_distance: T) -> bool {
        self.hits_any_filtered(ray, max_distance, |_| true)
    }

    /// [`InstancedScene::hits_any`] over the instances for which `filter(instance)` is true.
    pub fn hits_any_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> bool {
        let max = max_distance.to_wide();
        if !(max >= 0.0) {
            return false;
        }
        let within = probe::entry_limit(max);
        let mut found = false;
        on_line!(ray, 0.0, |line| self.top.walk(
            |node| line.meets(node, within).0,
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

    /// Every body of every instance the line through `ray` crosses, with its span, into `spans`
    /// (cleared first), sorted by entry, then by `(instance, body)`.
    pub fn ray_spans(&self, ray: &Ray<T, D>, spans: &mut Vec<InstanceSpan<T>>) {
        self.ray_spans_filtered(ray, spans, |_| true);
    }

    /// [`InstancedScene::ray_spans`] over the instances for which `filter(instance)` is true.
    pub fn ray_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        spans: &mut Vec<InstanceSpan<T>>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        spans.clear();
        let line = F64Probe::of(ray, 0.0);
        self.top.walk(
            |node| line.crosses(node),
            |instance| {
                if filter(instance) {
                    let placed = &self.instances()[instance];
                    let found = |body, span| {
                        spans.push(InstanceSpan {
                            instance,
                            body,
                            span,
                        })
                    };
                    moved::spans(&placed.scene, &placed.offset, ray, |_| true, found);
                }
                true
            },
        );
        sort_by_entry(spans, |s| (s.span.enter, (s.instance, s.body)));
    }

    /// The `(instance, body)` pairs whose translated body contains `point` (the surface counts),
    /// into `found` (cleared first), in increasing order.
    pub fn containing(&self, point: &Point<T, D>, found: &mut Vec<(usize, usize)>) {
        self.containing_filtered(point, found, |_| true);
    }

    /// [`InstancedScene::containing`] over the instances for which `filter(instance)` is true.
    pub fn containing_filtered(
        &self,
        point: &Point<T, D>,
        found: &mut Vec<(usize, usize)>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        found.clear();
        let p: [f64; D] = core::array::from_fn(|i| point[i].to_wide());
        self.top.walk(
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

    /// `hits[i] = self.cast_ray(&rays[i], max_distance)` for every `i`.
    ///
    /// # Panics
    ///
    /// If `rays` and `hits` differ in length.
    pub fn cast_rays(
        &self,
        rays: &[Ray<T, D>],
        max_distance: T,
        hits: &mut [Option<InstanceHit<T, D>>],
    ) {
        let footprint = self.footprint;
        cast_in_order("InstancedScene::cast_rays", rays, hits, footprint, |ray| {
            self.cast_ray(ray, max_distance)
        });
    }

    /// The order in which [`InstancedScene::cast_rays`] traces rays from `origins` (one per
    /// ray): their indices along a space-filling curve through the origins where the scene's
    /// hierarchy and bodies take more than 8 MiB and the origins do not come in order already,
    /// else `None` (rays traced as given). A caller that casts rays one at a time, with limits or
    /// filters of its own per ray, gets the batch's use of the cache by casting them in this
    /// order; the answers are the same in any order.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::Point3;
    /// use raysweep::nalgebra::Vector3;
    /// use raysweep::{Instance, InstancedScene, Scene, Sphere};
    /// use std::sync::Arc;
    ///
    /// let ball = Arc::new(Scene::new(vec![Sphere::new(Point3::origin(), 1.0)?]));
    /// let scene = InstancedScene::new(vec![Instance::new(ball, Vector3::x())?]);
    /// // A small scene fits in the cache: its rays are traced as given.
    /// assert_eq!(scene.ray_order(&[Point3::origin(); 1000]), None);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[must_use]
    pub fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
        ray_batch::ray_order(origins, self.footprint)
    }

    /// [`InstancedScene::cast_rays`] spread over rayon's thread pool: the same bits. Available
    /// with the crate feature `rayon`.
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
        hits: &mut [Option<InstanceHit<T, D>>],
    ) where
        S: Sync + Send,
    {
        let footprint = self.footprint;
        crate::scene::ray_batch::cast_in_order_par(
            "InstancedScene::cast_rays_par",
            rays,
            hits,
            footprint,
            |ray| self.cast_ray(ray, max_distance),
        );
    }

    /// The first hit (`radius` `None`) or ball contact over the instances `filter` keeps: each
    /// instance the line meets, nearest first, is asked for its first answer up to the best so
    /// far.
    fn first(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<InstanceHit<T, D>> {
        let grow = radius.map_or(0.0, Real::to_wide);
        let max = max_distance.to_wide();
        // An instance is asked up to the best distance so far, or the next value of the width
        // beyond it: an entry beyond the best (in the working precision) may round to it, and
        // then ties with it.
        let cast = |instance, placed: &Instance<T, D, S>, best: f64| {
            if !filter(instance) {
                return None;
            }
            let limit = if best < max {
                T::from_wide_up(best.next_up()).to_wide().min(max)
            } else {
                max
            };
            let limit = T::from_wide(limit);
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
}
