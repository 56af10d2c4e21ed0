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

use nalgebra::Point;

use crate::point::PointQuery;
use crate::real::Real;

use super::lower_bound::LowerBound;
use super::node::WIDTH;
use super::search::Search;
use super::{BodyNearest, Scene};
use crate::cast::assert_batch_lengths;

/// The searches [`Scene::nearest_batch`] advances side by side.
const LANES: usize = 4;

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
    /// faster for many points, since four searches advance side by side, each one's next
    /// node loading while the others work.
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
        assert_batch_lengths("Scene::nearest_batch", points.len(), found.len());
        found.fill(None);
        if self.hierarchy.nodes.is_empty() {
            return;
        }
        let depth = (WIDTH - 1) * self.hierarchy.depth + 1;
        let mut stacks = alloc::vec![(0u32, 0.0f32); LANES * depth];
        let mut lanes: [Option<(usize, Search<T, D>)>; LANES] = [const { None }; LANES];
        let mut waiting = 0..points.len();
        let start = |waiting: &mut core::ops::Range<usize>| {
            waiting.find_map(|i| Search::new(&points[i], max_distance).map(|s| (i, s)))
        };
        for lane in &mut lanes {
            *lane = start(&mut waiting);
        }
        loop {
            let mut busy = false;
            for (lane, stack) in lanes.iter_mut().zip(stacks.chunks_exact_mut(depth)) {
                let Some((i, search)) = lane else {
                    continue;
                };
                busy = true;
                if !search.step(self, stack, &mut filter) {
                    found[*i] = search.answer(self);
                    *lane = start(&mut waiting);
                }
            }
            if !busy {
                return;
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
        mut filter: impl FnMut(usize) -> bool,
    ) {
        bodies.clear();
        let limit = distance.to_wide();
        if limit.is_nan() {
            return;
        }
        let lower = LowerBound::of(point);
        let reach = <f32 as Real>::from_wide_up(limit);
        self.sweep(
            |node| lower.within(node, reach).0,
            |id| {
                if filter(id) && self.bodies[id].is_within(point, distance) {
                    bodies.push(id);
                }
            },
        );
        bodies.sort_unstable();
    }
}
