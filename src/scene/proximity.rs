//! The proximity queries of a scene: the body nearest to a point ([`Scene::nearest`]) and the
//! bodies within a distance of it ([`Scene::within`]), exactly as the loop over the bodies
//! answers them.
//!
//! Both descend the hierarchy with [`LowerBound`], a lower bound on the signed distance any body below
//! a child can report (`src/scene/lower_bound.rs` argues it). `within` visits every child whose bound
//! is at most the distance asked. `nearest` visits children nearest bound first, depth first,
//! and skips those whose bound exceeds the best signed distance found so far (strictly: a body as
//! near with a lower id must still be found) or the largest distance asked. Bounds are negative
//! inside a box (minus the point's depth in it), so a point inside several bodies still finds the
//! one it is deepest in.

use alloc::vec::Vec;
use core::ops::Range;

use nalgebra::Point;

use crate::point::PointQuery;
use crate::real::Real;

use super::answer::BodyNearest;
use super::asked::Asked;
use super::lower_bound::LowerBound;
use super::node::WIDTH;
use super::order::{FINEST, Order, PART, map_each};
use super::plain::Scene;
use super::search::Search;
use super::surface::Proximity;
use super::traverse::{Pending, better, descend};
use crate::cast::assert_lengths;
use crate::traits::Cast;

/// The blocks a thread of a parallel batch takes at a time.
#[cfg(feature = "rayon")]
const RUN: usize = 256;

impl<T: Real, const D: usize, S> Scene<T, D, S> {
    /// The best answer `ask(id, bar)` gives (a signed distance at most `bar`, the best so far or
    /// `max_distance`, and what goes with it) over the bodies, descended as
    /// [`Scene::nearest`] descends, by the lower bound at `point`: children nearest bound first,
    /// those whose bound exceeds the best so far (strictly) skipped, the lowest id kept on equal
    /// distances. For bodies that are not `S`'s own answers: an instanced scene's instances.
    pub(super) fn nearest_by<A>(
        &self,
        point: &Point<T, D>,
        max_distance: T,
        mut ask: impl FnMut(usize, T) -> Option<(T, A)>,
    ) -> Option<(usize, A)> {
        let max = max_distance.to_wide();
        if self.hierarchy.nodes.is_empty() || max.is_nan() {
            return None;
        }
        let lower = LowerBound::of(point);
        let mut best: Option<(usize, T, A)> = None;
        let mut best_at: Option<(usize, f64)> = None;
        let mut cutoff = <f32 as Real>::from_wide_up(max);
        self.with_stack((0u32, 0.0f32), |stack| {
            let mut top = 0;
            let mut next: Pending = (0, f32::NEG_INFINITY);
            while descend!(
                self, stack, top, next, cutoff, nearest_last;
                body(id) => {
                    let bar = best.as_ref().map_or(max_distance, |(_, d, _)| *d);
                    if let Some((d, answer)) = ask(id, bar) {
                        let at = d.to_wide();
                        if at <= max && better(best_at, id, at) {
                            best = Some((id, d, answer));
                            best_at = Some((id, at));
                            cutoff = <f32 as Real>::from_wide_up(at);
                        }
                    }
                }
                node(index) => {
                    let (node, used) = self.hierarchy.raw(index);
                    let (kept, bounds) = lower.within(&node, cutoff);
                    (kept & used, bounds, node.child)
                }
            ) {}
        });
        best.map(|(id, _, answer)| (id, answer))
    }
}

impl<T: Real, const D: usize, S: PointQuery<T, D>> Scene<T, D, S> {
    /// The body nearest to `point`: among the bodies whose
    /// [`signed_distance`](PointQuery::signed_distance) at `point` is at most `max_distance`, the
    /// one with the smallest (on equal distances, the lowest id), with the bits its own
    /// `signed_distance` and [`closest_point`](PointQuery::closest_point) give; `None` where there
    /// is none.
    ///
    /// Signed distances are negative inside, so a point inside several bodies gets the one it is
    /// deepest in. `max_distance` may be `+∞` (the nearest body at any distance) or negative (only
    /// bodies the point is at least that deep in); a NaN one gives `None`.
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
    pub fn nearest(&self, point: &Point<T, D>, max_distance: T) -> Option<BodyNearest<T, D>> {
        self.nearest_filtered(point, max_distance, |_| true)
    }

    /// [`Scene::nearest`] over the bodies for which `filter(id)` is true (the others are skipped,
    /// not measured).
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
    /// let near = scene.nearest_filtered(&Point2::new(1.0, 0.0), f64::INFINITY, |id| id != 0);
    /// assert_eq!(near.map(|n| (n.body, n.signed_distance)), Some((1, 3.0)));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn nearest_filtered(
        &self,
        point: &Point<T, D>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<BodyNearest<T, D>> {
        self.nearest_at(point, max_distance, filter)
    }

    /// [`Scene::nearest_filtered`] asked at `point` ([`Asked`]).
    pub(super) fn nearest_at(
        &self,
        point: &impl Asked<T, D>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<BodyNearest<T, D>> {
        if self.hierarchy.nodes.is_empty() {
            return None;
        }
        let mut search = Search::new(point, max_distance)?;
        self.with_stack((0u32, 0.0f32), |stack| {
            while search.step(self, stack, &mut filter) {}
        });
        search.answer(self)
    }

    /// `found[i]` is exactly [`Scene::nearest`]`(&points[i], max_distance)`: the same answers,
    /// faster for many points. The points are visited in blocks of neighbours along a
    /// space-filling curve, each block's candidates gathered in one descent and each point
    /// bounded from the start by its neighbours' answers, so a batch gains most where its
    /// points lie close together (a grid of points, a packing's particles), in any order.
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
    pub fn nearest_batch(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<BodyNearest<T, D>>],
    ) {
        self.nearest_batch_filtered(points, max_distance, found, |_| true);
    }

    /// [`Scene::nearest_batch`] over the bodies for which `filter(id)` is true: `found[i]` is
    /// exactly [`Scene::nearest_filtered`]`(&points[i], max_distance, filter)`.
    ///
    /// # Panics
    ///
    /// If `points` and `found` differ in length.
    pub fn nearest_batch_filtered(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<BodyNearest<T, D>>],
        mut filter: impl FnMut(usize) -> bool,
    ) {
        let (given, slots) = ((points.len(), "points"), (found.len(), "answer slots"));
        assert_lengths("Scene", "nearest_batch", given, slots);
        self.nearest_batch_with(points, found, false, |points, order| {
            let mut answers = Vec::with_capacity(points.len());
            self.nearest_run(points, &order.blocks, max_distance, &mut filter, |n| {
                answers.push(n);
            });
            for p in &points[order.apart.clone()] {
                answers.push(self.nearest_filtered(p, max_distance, &mut filter));
            }
            answers
        });
    }

    /// [`Scene::nearest_batch`] spread over rayon's thread pool: the same bits. Available with
    /// the crate feature `rayon`.
    ///
    /// # Panics
    ///
    /// If `points` and `found` differ in length.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn nearest_batch_par(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<BodyNearest<T, D>>],
    ) where
        S: Sync,
        T: Send + Sync,
    {
        self.nearest_batch_filtered_par(points, max_distance, found, |_| true);
    }

    /// [`Scene::nearest_batch_filtered`] spread over rayon's thread pool: the same bits.
    /// Available with the crate feature `rayon`.
    ///
    /// # Panics
    ///
    /// If `points` and `found` differ in length.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn nearest_batch_filtered_par(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<BodyNearest<T, D>>],
        filter: impl Fn(usize) -> bool + Sync,
    ) where
        S: Sync,
        T: Send + Sync,
    {
        self.nearest_blocks_par(points, max_distance, found, filter);
    }

    /// [`Scene::nearest_batch_filtered_par`]'s work, for a scene that is `Sync` (whose bodies
    /// are: the trait's form asks it so).
    #[cfg(feature = "rayon")]
    fn nearest_blocks_par(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<BodyNearest<T, D>>],
        filter: impl Fn(usize) -> bool + Sync,
    ) where
        Self: Sync,
        T: Send + Sync,
    {
        use rayon::prelude::*;
        let (given, slots) = ((points.len(), "points"), (found.len(), "answer slots"));
        assert_lengths("Scene", "nearest_batch_par", given, slots);
        self.nearest_batch_with(points, found, true, |points, order| {
            let runs: Vec<Vec<Option<BodyNearest<T, D>>>> = order
                .blocks
                .par_chunks(RUN)
                .map(|blocks| {
                    let mut answers = Vec::new();
                    self.nearest_run(points, blocks, max_distance, &mut &filter, |n| {
                        answers.push(n);
                    });
                    answers
                })
                .collect();
            let apart = points[order.apart.clone()]
                .iter()
                .map(|p| self.nearest_filtered(p, max_distance, &filter));
            runs.into_iter().flatten().chain(apart).collect()
        });
    }

    /// A nearest batch's skeleton: `points` in parts of [`PART`], each put in curve order
    /// ([`Order`], on threads where `parallel`), answered in that order by `answer` (given the
    /// arranged points), and the answers put back in the points' order.
    fn nearest_batch_with(
        &self,
        points: &[Point<T, D>],
        found: &mut [Option<BodyNearest<T, D>>],
        parallel: bool,
        mut answer: impl FnMut(&[Point<T, D>], &Order) -> Vec<Option<BodyNearest<T, D>>>,
    ) {
        for (points, found) in points.chunks(PART).zip(found.chunks_mut(PART)) {
            let order = Order::of(points, |p| p, FINEST, parallel);
            let answers = answer(&order.arrange(points), &order);
            for (&i, n) in order.index.iter().zip(answers) {
                found[i as usize] = n;
            }
        }
    }

    /// Clears `bodies`, then fills it with the id of every body whose
    /// [`signed_distance`](PointQuery::signed_distance) at `point` is at most `distance`, in
    /// increasing order: the bodies a ball of radius `distance` centred at `point` touches (with
    /// `distance` 0, the bodies that contain the point; negative, those it is at least that deep
    /// in). A NaN `distance` gives none.
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
    pub fn within(&self, point: &Point<T, D>, distance: T, bodies: &mut Vec<usize>) {
        self.within_filtered(point, distance, bodies, |_| true);
    }

    /// [`Scene::within`] over the bodies for which `filter(id)` is true.
    pub fn within_filtered(
        &self,
        point: &Point<T, D>,
        distance: T,
        bodies: &mut Vec<usize>,
        filter: impl FnMut(usize) -> bool,
    ) {
        bodies.clear();
        self.within_at(point, distance, filter, |id| bodies.push(id));
        bodies.sort_unstable();
    }

    /// `found(id)` for each body that [`Scene::within_filtered`] lists at `point` ([`Asked`]),
    /// in no particular order.
    pub(super) fn within_at(
        &self,
        point: &impl Asked<T, D>,
        distance: T,
        mut filter: impl FnMut(usize) -> bool,
        mut found: impl FnMut(usize),
    ) {
        let limit = distance.to_wide();
        if limit.is_nan() {
            return;
        }
        let lower = point.lower_bound();
        let cutoff = <f32 as Real>::from_wide_up(limit);
        self.visit_breadth_first(
            |node| lower.within(node, cutoff).0,
            |id| {
                if filter(id) && point.is_within(&self.bodies[id], distance) {
                    found(id);
                }
            },
        );
    }

    /// [`Scene::within`] for many points: clears `offsets` and `bodies`, then the bodies within
    /// `distance` of `points[i]` are `bodies[offsets[i]..offsets[i + 1]]` (`offsets` has
    /// `points.len() + 1` entries), exactly `within(&points[i], distance)`'s list. Faster than
    /// the loop where points lie close together (the blocks of [`Scene::nearest_batch`]), in any
    /// order.
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
    pub fn within_batch(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        bodies: &mut Vec<usize>,
    ) {
        self.within_batch_filtered(points, distance, offsets, bodies, |_| true);
    }

    /// [`Scene::within_batch`] over the bodies for which `filter(id)` is true: each list exactly
    /// [`Scene::within_filtered`]'s.
    pub fn within_batch_filtered(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        bodies: &mut Vec<usize>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        let mut near = Vec::new();
        self.within_batch_with(points, offsets, bodies, false, |points, order| {
            let mut run = Run::default();
            self.within_run(points, &order.blocks, distance, &mut filter, |list| {
                run.push(list);
            });
            for p in &points[order.apart.clone()] {
                self.within_filtered(p, distance, &mut near, &mut filter);
                run.push(&near);
            }
            alloc::vec![run]
        });
    }

    /// [`Scene::within_batch`] spread over rayon's thread pool: the same lists. Available with
    /// the crate feature `rayon`.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn within_batch_par(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        bodies: &mut Vec<usize>,
    ) where
        S: Sync,
        T: Send + Sync,
    {
        self.within_batch_filtered_par(points, distance, offsets, bodies, |_| true);
    }

    /// [`Scene::within_batch_filtered`] spread over rayon's thread pool: the same lists.
    /// Available with the crate feature `rayon`.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn within_batch_filtered_par(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        bodies: &mut Vec<usize>,
        filter: impl Fn(usize) -> bool + Sync,
    ) where
        S: Sync,
        T: Send + Sync,
    {
        self.within_blocks_par(points, distance, offsets, bodies, filter);
    }

    /// [`Scene::within_batch_filtered_par`]'s work, for a scene that is `Sync`.
    #[cfg(feature = "rayon")]
    fn within_blocks_par(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        bodies: &mut Vec<usize>,
        filter: impl Fn(usize) -> bool + Sync,
    ) where
        Self: Sync,
        T: Send + Sync,
    {
        use rayon::prelude::*;
        self.within_batch_with(points, offsets, bodies, true, |points, order| {
            let mut runs: Vec<Run> = order
                .blocks
                .par_chunks(RUN)
                .map(|blocks| {
                    let mut run = Run::default();
                    self.within_run(points, blocks, distance, &mut &filter, |list| {
                        run.push(list);
                    });
                    run
                })
                .collect();
            let (mut apart, mut near) = (Run::default(), Vec::new());
            for p in &points[order.apart.clone()] {
                self.within_filtered(p, distance, &mut near, &filter);
                apart.push(&near);
            }
            runs.push(apart);
            runs
        });
    }

    /// A within batch's skeleton: `points` in parts of [`PART`], each put in curve order
    /// ([`Order`], on threads where `parallel`), its lists made in that order by `answer` (given
    /// the arranged points) in runs, and all of them laid out by point in `offsets` and
    /// `bodies`.
    fn within_batch_with(
        &self,
        points: &[Point<T, D>],
        offsets: &mut Vec<usize>,
        bodies: &mut Vec<usize>,
        parallel: bool,
        mut answer: impl FnMut(&[Point<T, D>], &Order) -> Vec<Run>,
    ) {
        let mut lists = Lists::new(points.len());
        for (part, points) in points.chunks(PART).enumerate() {
            let order = Order::of(points, |p| p, FINEST, parallel);
            let runs = answer(&order.arrange(points), &order);
            lists.place(part * PART, &order.index, runs);
        }
        lists.gather(offsets, bodies, parallel);
    }
}

/// A scene's proximity queries are its own inherent methods (above), which ask of the bodies only
/// [`PointQuery`], not [`Cast`]; the trait's are those.
impl<T: Real, const D: usize, S: Cast<T, D> + PointQuery<T, D>> Proximity<T, D> for Scene<T, D, S> {
    type Nearest = BodyNearest<T, D>;

    #[inline]
    fn nearest_filtered(
        &self,
        point: &Point<T, D>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<BodyNearest<T, D>> {
        Scene::nearest_filtered(self, point, max_distance, filter)
    }

    #[inline]
    fn within_filtered(
        &self,
        point: &Point<T, D>,
        distance: T,
        found: &mut Vec<usize>,
        filter: impl FnMut(usize) -> bool,
    ) {
        Scene::within_filtered(self, point, distance, found, filter);
    }

    #[inline]
    fn nearest_batch_filtered(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<BodyNearest<T, D>>],
        filter: impl FnMut(usize) -> bool,
    ) {
        Scene::nearest_batch_filtered(self, points, max_distance, found, filter);
    }

    #[inline]
    fn within_batch_filtered(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        found: &mut Vec<usize>,
        filter: impl FnMut(usize) -> bool,
    ) {
        Scene::within_batch_filtered(self, points, distance, offsets, found, filter);
    }

    #[cfg(feature = "rayon")]
    #[inline]
    fn nearest_batch_filtered_par(
        &self,
        points: &[Point<T, D>],
        max_distance: T,
        found: &mut [Option<BodyNearest<T, D>>],
        filter: impl Fn(usize) -> bool + Sync,
    ) where
        Self: Sync,
        Self::Nearest: Send,
        T: Send + Sync,
    {
        self.nearest_blocks_par(points, max_distance, found, filter);
    }

    #[cfg(feature = "rayon")]
    #[inline]
    fn within_batch_filtered_par(
        &self,
        points: &[Point<T, D>],
        distance: T,
        offsets: &mut Vec<usize>,
        found: &mut Vec<usize>,
        filter: impl Fn(usize) -> bool + Sync,
    ) where
        Self: Sync,
        Self::Id: Send + Sync,
        T: Send + Sync,
    {
        self.within_blocks_par(points, distance, offsets, found, filter);
    }
}

/// Lists of body ids made one after another: their ids, and where each list ends.
#[derive(Default)]
struct Run {
    ids: Vec<usize>,
    ends: Vec<usize>,
}

impl Run {
    fn push(&mut self, list: &[usize]) {
        self.ids.extend_from_slice(list);
        self.ends.push(self.ids.len());
    }
}

/// Lists of body ids made in runs, in one order, and laid out by point, in CSR form.
struct Lists {
    runs: Vec<Run>,
    /// Each point's list: its run, and where it starts and ends there.
    at: Vec<(usize, Range<usize>)>,
}

impl Lists {
    fn new(points: usize) -> Self {
        Lists {
            runs: Vec::new(),
            at: alloc::vec![(0, 0..0); points],
        }
    }

    /// `runs`, whose lists, one after another, are those of points `first + index[k]`.
    fn place(&mut self, first: usize, index: &[u32], runs: Vec<Run>) {
        let mut index = index.iter();
        for run in runs {
            let mut start = 0;
            for (&end, &i) in run.ends.iter().zip(&mut index) {
                self.at[first + i as usize] = (self.runs.len(), start..end);
                start = end;
            }
            self.runs.push(run);
        }
    }

    /// The lists, point by point: `offsets` (one more than the points) and `bodies`, copied
    /// on rayon's threads where `parallel`.
    fn gather(self, offsets: &mut Vec<usize>, bodies: &mut Vec<usize>, parallel: bool) {
        offsets.clear();
        offsets.reserve_exact(self.at.len() + 1);
        offsets.push(0);
        let mut total = 0;
        for (_, range) in &self.at {
            total += range.len();
            offsets.push(total);
        }
        bodies.clear();
        bodies.resize(total, 0);
        // The points in chunks, each with its part of `bodies`.
        let mut work = Vec::new();
        let mut rest = &mut bodies[..];
        for (k, points) in self.at.chunks(CHUNK).enumerate() {
            let length = offsets[k * CHUNK + points.len()] - offsets[k * CHUNK];
            let (part, tail) = core::mem::take(&mut rest).split_at_mut(length);
            rest = tail;
            work.push((points, part));
        }
        let runs = &self.runs;
        map_each(work, parallel, |(points, part)| {
            let mut start = 0;
            for (run, range) in points {
                let end = start + range.len();
                part[start..end].copy_from_slice(&runs[*run].ids[range.clone()]);
                start = end;
            }
        });
    }
}

/// The points whose lists a thread copies at a time.
const CHUNK: usize = 1 << 14;
