//! One nearest-body search as a state that advances a node at a time ([`Search::step`]), so that
//! [`Scene::nearest`](crate::Scene::nearest) runs one to its end and the batches
//! (`src/scene/bulk.rs`) run the searches of points that answer alone several side by side
//! ([`Scene::searches`]), each step of one leaving the loads it prefetched time to arrive while
//! the others step.
//!
//! The traversal is the proximity module's (`src/scene/proximity.rs`): children nearest bound
//! first, depth first, those whose bound exceeds the best signed distance found so far (strictly)
//! or the largest distance asked skipped; the bound is [`LowerBound`]'s.

use nalgebra::Point;

use crate::point::PointQuery;
use crate::real::Real;

use super::answer::BodyNearest;
use super::asked::Asked;
use super::lower_bound::LowerBound;
use super::node::WIDTH;
use super::plain::Scene;
use super::traverse::{Pending, better, descend, stack_size};

/// A search for the body nearest to a point (`P`, [`Asked`]), part way through.
pub(super) struct Search<T: Real, const D: usize, P = Point<T, D>> {
    point: P,
    lower: LowerBound<D>,
    max_distance: T,
    /// `max_distance` in `f64`.
    max: f64,
    /// The best body so far and its signed distance.
    best: Option<(usize, T)>,
    /// The bound a child must not exceed to hold a body that counts.
    cutoff: f32,
    /// The child to visit next.
    next: Pending,
    /// The entries on this search's stack.
    top: usize,
}

impl<T: Real, const D: usize, P: Asked<T, D>> Search<T, D, P> {
    /// A search from the root; `None` where nothing can answer (a NaN `max_distance`).
    #[inline]
    pub(super) fn new(point: &P, max_distance: T) -> Option<Self> {
        let max = max_distance.to_wide();
        if max.is_nan() {
            return None;
        }
        Some(Search {
            point: *point,
            lower: point.lower_bound(),
            max_distance,
            max,
            best: None,
            cutoff: <f32 as Real>::from_wide_up(max),
            next: (0, f32::NEG_INFINITY),
            top: 0,
        })
    }

    /// Starts from `best` (a body that `filter` keeps and its signed distance, at most the
    /// largest distance asked) as the best found so far: the search then visits only what may
    /// match or beat it, and ends with the same answer.
    #[inline]
    pub(super) fn knowing(&mut self, best: (usize, T)) {
        self.best = Some(best);
        self.cutoff = <f32 as Real>::from_wide_up(best.1.to_wide());
    }

    /// The best body found and its signed distance: once the search has run to its end, the
    /// nearest.
    pub(super) fn best(&self) -> Option<(usize, T)> {
        self.best
    }

    /// Visits the next child (a body measured where it may be as near as the best, or a node's
    /// children bounded, the nearest kept next and the others stacked), then finds the child to
    /// visit after it; `false` once none is left. `stack` is this search's own, as deep as
    /// [`Scene::with_stack`] makes one.
    #[inline(always)]
    pub(super) fn step<S: PointQuery<T, D>>(
        &mut self,
        scene: &Scene<T, D, S>,
        stack: &mut [Pending],
        filter: &mut impl FnMut(usize) -> bool,
    ) -> bool {
        descend!(
            scene, stack, self.top, self.next, self.cutoff, nearest_last;
            body(id) => {
                let body = &scene.bodies[id];
                let bar = self.best.map_or(self.max_distance, |(_, bd)| bd);
                if filter(id) && self.point.is_within(body, bar) {
                    let distance = self.point.signed_distance(body);
                    let d = distance.to_wide();
                    let best = self.best.map(|(b, bd)| (b, bd.to_wide()));
                    if d <= self.max && better(best, id, d) {
                        self.best = Some((id, distance));
                        self.cutoff = <f32 as Real>::from_wide_up(d);
                    }
                }
            }
            node(index) => {
                let (node, used) = scene.hierarchy.raw(index);
                let (kept, bounds) = self.lower.within(&node, self.cutoff);
                (kept & used, bounds, node.child)
            }
        )
    }

    /// The answer of a search that has run to its end.
    pub(super) fn answer<S: PointQuery<T, D>>(
        &self,
        scene: &Scene<T, D, S>,
    ) -> Option<BodyNearest<T, D>> {
        self.best
            .map(|(body, d)| scene.nearest_answer(&self.point, body, d))
    }
}

/// The searches [`Scene::searches`] advances side by side.
const LANES: usize = 4;

impl<T: Real, const D: usize, S: PointQuery<T, D>> Scene<T, D, S> {
    /// What [`Scene::nearest`] gives for body `id` at `p`, `d` its signed distance there.
    pub(super) fn nearest_answer(
        &self,
        p: &impl Asked<T, D>,
        id: usize,
        d: T,
    ) -> BodyNearest<T, D> {
        let (point, normal) = p.closest_point(&self.bodies[id]);
        BodyNearest {
            body: id,
            signed_distance: d,
            point,
            normal,
        }
    }

    /// The nearest body within `max_distance` to `points[j]` and its signed distance, for each
    /// `(j, best)` of `lone`, each search knowing `best` ([`Search::knowing`]) and [`LANES`] of
    /// them advancing side by side; `done(j, answer)` as each ends.
    pub(super) fn searches(
        &self,
        points: &[Point<T, D>],
        lone: &[(usize, Option<(usize, T)>)],
        max_distance: T,
        filter: &mut impl FnMut(usize) -> bool,
        mut done: impl FnMut(usize, Option<(usize, T)>),
    ) {
        let depth = stack_size(self.hierarchy.depth);
        let mut stacks = alloc::vec![(0u32, 0.0f32); LANES * depth];
        let mut lanes: [Option<(usize, Search<T, D>)>; LANES] = [const { None }; LANES];
        let mut waiting = lone.iter();
        let mut start = |done: &mut dyn FnMut(usize, Option<(usize, T)>)| {
            for &(j, best) in waiting.by_ref() {
                match Search::new(&points[j], max_distance) {
                    Some(mut search) => {
                        if let Some(best) = best {
                            search.knowing(best);
                        }
                        return Some((j, search));
                    }
                    None => done(j, None),
                }
            }
            None
        };
        for lane in &mut lanes {
            *lane = start(&mut done);
        }
        loop {
            let mut busy = false;
            for (lane, stack) in lanes.iter_mut().zip(stacks.chunks_exact_mut(depth)) {
                let Some((j, search)) = lane else {
                    continue;
                };
                busy = true;
                if !search.step(self, stack, filter) {
                    done(*j, search.best());
                    *lane = start(&mut done);
                }
            }
            if !busy {
                return;
            }
        }
    }
}
