//! The proximity batches ([`Scene::nearest_batch`], [`Scene::within_batch`] and their filtered
//! and parallel forms): many points answered together, each answer exactly the single query's.
//!
//! A batch knows its points in advance. It visits them along a space-filling curve, in blocks of
//! a few points that lie close together (`src/scene/order.rs`), and for each block descends the
//! hierarchy once, with the box of the block's points ([`LowerBound::spanning`]), gathering the
//! bodies that may answer any of them ([`Candidates`]). Each point then asks only those bodies,
//! their boxes bounded four at a time as a node's children are. Neighbouring points share most
//! of their candidates, so the descent, which a single query pays per point, is paid once per
//! block. This is the single-tree form of the "dual-tree" batch queries (Gray and Moore,
//! "N-body problems in statistical learning", NIPS 2000), with the points' tree implicit in
//! their curve order.
//!
//! - `within`: the candidates are the bodies whose bound from the block is at most the distance.
//!   A body left out has a bound above the distance at every point of the block, so no point
//!   lists it; each point asks each candidate [`PointQuery::is_within`], as the single query asks
//!   the bodies it reaches. The candidates are in increasing id, so each list comes out in order.
//! - `nearest`: each point first guesses how far its answer lies, from the answers of the block
//!   before (`GUESS`); the block gathers the bodies whose bound is at most the largest guess
//!   (`reach`), and each point takes the nearest of them, the one of smallest bound first. Where
//!   that answer lies within `reach`, every body as near was a candidate, so it is the point's
//!   nearest, ties included; where it lies farther, its distance is the point's new guess and
//!   the block gathers once more for such points, which then hold; a point alone runs the single
//!   search, started from its best candidate (`src/scene/search.rs`).
//! - A block, or part of one, gathers only where its points share their candidates and are
//!   foreseen to gather few enough ([`Density`], [`crowd`]); else it is halved, down to points
//!   that answer alone, as the single queries do. Points far apart for the distance asked so
//!   cost about what the single queries cost.
//!
//! Between them the answers are the single queries', bit for bit: the same bodies measured by
//! the same functions, the same rule for ties ([`better`]). Points whose coordinates are not
//! finite in `f32` take the single query.

use alloc::vec::Vec;
use core::ops::Range;

use nalgebra::Point;

use crate::point::PointQuery;
use crate::real::Real;

use super::answer::BodyNearest;
use super::lower_bound::LowerBound;
use super::node::{Child, Node, WIDTH, body_of};
use super::plain::Scene;
use super::search::Search;
use super::traverse::better;

/// A `nearest` point's guess of its answer's distance: the distance a point answered nearby
/// found, plus this much per unit of the largest difference of their coordinates. A guess too
/// small sends points to a second gathering or their own searches, one too large gathers too
/// many candidates (a quarter took fewer instructions than none, a half or the whole, the
/// whole being the bound that distances, 1-Lipschitz, give).
const GUESS: f64 = 0.25;

/// What the gatherings of a run have found: how many bodies per unit of the volume they
/// searched (the box of a part's points grown by the distance asked and by the bodies' typical
/// size), and that size. From them a part's candidates are foreseen, and a part that would
/// gather too many is halved before it gathers any: where points lie far apart for the distance
/// asked, blocks fall apart into points that answer alone.
struct Density<const D: usize> {
    per_volume: f64,
    /// The mean largest extent of the boxes of the candidates last gathered.
    size: f64,
}

impl<const D: usize> Density<D> {
    /// For `scene`: the bodies' size first taken from those of the first node that holds some.
    fn new<T: Real, S>(scene: &Scene<T, D, S>) -> Self {
        let mut size = 0.0;
        let mut index = 0;
        while let Some(packed) = scene.hierarchy.nodes.get(index) {
            let node = scene.hierarchy.node(index);
            let (mut count, mut sizes) = (0, 0.0);
            for k in (0..WIDTH).filter(|&k| matches!(Child::of(node.child[k]), Child::Body(_))) {
                count += 1;
                let (lower, upper) = node.lane(k);
                sizes += (0..D)
                    .map(|i| f64::from(upper[i] - lower[i]))
                    .fold(0.0, f64::max);
            }
            if count > 0 {
                size = sizes / f64::from(count);
                break;
            }
            index = packed.child[0] as usize;
        }
        Density {
            per_volume: 0.0,
            size: if size.is_finite() { size } else { 0.0 },
        }
    }

    /// Whether `points` points of a part of `extent` share their candidates within `reach`
    /// enough to gather them together: whether the balls that each point's own query searches
    /// (of radius `reach` grown by the bodies' size) hold, together, [`SHARED`] times the volume
    /// the part searches. Points spread far apart for the distance asked do not.
    fn shared(&self, extent: &[f32; D], reach: f32, points: usize) -> bool {
        let side = 2.0 * f64::from(reach.max(0.0)) + self.size;
        let own: f64 = (0..D).map(|_| side).product();
        points as f64 * own >= SHARED * self.volume(extent, reach)
    }

    /// The volume a part searches: its points' box, grown by `reach` on each side and by the
    /// bodies' typical size.
    fn volume(&self, extent: &[f32; D], reach: f32) -> f64 {
        let margin = 2.0 * f64::from(reach.max(0.0)) + self.size;
        extent.iter().map(|&e| f64::from(e) + margin).product()
    }

    /// What a gathering for a part of `extent` within `reach` found: `found`, all of them
    /// (`complete`) or as many as it gathered before it stopped.
    fn learn(
        &mut self,
        found: &[(u32, [f32; D], [f32; D])],
        extent: &[f32; D],
        reach: f32,
        complete: bool,
    ) {
        if !found.is_empty() {
            let sizes: f64 = found
                .iter()
                .map(|(_, low, high)| {
                    (0..D)
                        .map(|i| f64::from(high[i] - low[i]))
                        .fold(0.0, f64::max)
                })
                .sum();
            let size = sizes / found.len() as f64;
            if size.is_finite() {
                self.size = size;
            }
        }
        let volume = self.volume(extent, reach);
        if volume > 0.0 && volume.is_finite() {
            let seen = found.len() as f64 / volume;
            self.per_volume = if complete {
                seen
            } else {
                self.per_volume.max(seen)
            };
        }
    }
}

/// The bodies that may answer a block's points: their ids, in increasing order, and their boxes
/// as a node's children are stored, [`WIDTH`] to a group.
pub(super) struct Candidates<const D: usize> {
    /// The bodies gathered, with their boxes (lower and upper corners).
    found: Vec<(u32, [f32; D], [f32; D])>,
    /// The same, in groups (a lane's child the body's id), some lanes unused.
    groups: Vec<Node<D>>,
    /// The nodes the gathering has yet to visit.
    stack: Vec<u32>,
    /// Each group's lanes within the cutoff and their bounds, from the point last bounded
    /// ([`Candidates::bound`]).
    bounds: Vec<(u32, [f32; WIDTH])>,
}

impl<const D: usize> Candidates<D> {
    pub(super) fn new() -> Self {
        Candidates {
            found: Vec::new(),
            groups: Vec::new(),
            stack: Vec::new(),
            bounds: Vec::new(),
        }
    }

    /// Gathers the candidates of a part of `points` points (bounds `lower`, extent `extent`)
    /// within `reach`, as [`Candidates::gather`] does, where the points share them
    /// ([`Density::shared`]) and `density` foresees at most `most` of them; whether they are all
    /// gathered.
    fn attempt<T: Real, S>(
        &mut self,
        scene: &Scene<T, D, S>,
        (lower, extent): &(LowerBound<D>, [f32; D]),
        reach: f32,
        (points, most): (usize, usize),
        density: &mut Density<D>,
        filter: &mut impl FnMut(usize) -> bool,
    ) -> bool {
        if most == 0
            || !density.shared(extent, reach, points)
            || density.per_volume * density.volume(extent, reach) > most as f64
        {
            return false;
        }
        let complete = self.gather(scene, lower, reach, most, filter);
        density.learn(&self.found, extent, reach, complete);
        complete
    }

    /// Gathers every body `filter` keeps whose bound from `lower` is at most `cutoff`; `false`
    /// (with `most` of them found, and no groups) once more than `most` are. It descends the
    /// hierarchy itself rather than through the one descent (`descend!`): it keeps its stack
    /// from block to block, and loads only nodes, since a candidate is taken with its lane's box
    /// and its body is not read here (the descent prefetches every body it meets).
    // Out of line: long, and once a block, it would crowd the per-point loops it sits in.
    #[inline(never)]
    fn gather<T: Real, S>(
        &mut self,
        scene: &Scene<T, D, S>,
        lower: &LowerBound<D>,
        cutoff: f32,
        most: usize,
        filter: &mut impl FnMut(usize) -> bool,
    ) -> bool {
        self.found.clear();
        self.groups.clear();
        self.stack.clear();
        if scene.hierarchy.nodes.is_empty() {
            return true;
        }
        self.stack.push(0);
        while let Some(index) = self.stack.pop() {
            let (node, used) = scene.hierarchy.raw(index as usize);
            let (mut kept, _) = lower.within(&node, cutoff);
            kept &= used;
            while kept != 0 {
                let k = kept.trailing_zeros() as usize;
                kept &= kept - 1;
                let child = node.child[k];
                let Some(id) = body_of(child) else {
                    scene.prefetch_child(child);
                    self.stack.push(child);
                    continue;
                };
                let id = id as u32;
                if !filter(id as usize) {
                    continue;
                }
                if self.found.len() == most {
                    self.groups.clear();
                    return false;
                }
                let (low, high) = node.lane(k);
                self.found.push((id, low, high));
            }
        }
        self.found.sort_unstable_by_key(|&(id, _, _)| id);
        for chunk in self.found.chunks(WIDTH) {
            let mut group = Node::<D>::BLANK;
            for (k, &(id, low, high)) in chunk.iter().enumerate() {
                group.child[k] = id;
                group.set_lane(k, (&low, &high));
            }
            self.groups.push(group);
        }
        true
    }

    /// Bounds every candidate from `lower` (kept for [`Candidates::each_bounded`]); the id of
    /// one of smallest bound among those at most `cutoff` (a NaN bound counts as `−∞`), or
    /// `None` where there is none.
    #[inline(always)]
    fn bound(&mut self, lower: &LowerBound<D>, cutoff: f32) -> Option<usize> {
        self.bounds.clear();
        let mut least = (f32::INFINITY, None);
        for group in &self.groups {
            let (kept, bounds) = lower.within(group, cutoff);
            let kept = kept & group.used();
            for (k, (&bound, &child)) in bounds.iter().zip(&group.child).enumerate() {
                let bound = if bound.is_nan() {
                    f32::NEG_INFINITY
                } else {
                    bound
                };
                if kept >> k & 1 != 0 && (least.1.is_none() || bound < least.0) {
                    least = (bound, Some(child as usize));
                }
            }
            self.bounds.push((kept, bounds));
        }
        least.1
    }

    /// Calls `visit` on the id of each candidate whose bound from the last point bounded is at
    /// most `cutoff`, in increasing id; `visit` may lower the cutoff for those after it.
    #[inline(always)]
    fn each_bounded(&self, mut cutoff: f32, mut visit: impl FnMut(usize, &mut f32)) {
        for (group, &(kept, bounds)) in self.groups.iter().zip(&self.bounds) {
            for (k, (&bound, &child)) in bounds.iter().zip(&group.child).enumerate() {
                if kept >> k & 1 != 0 && !(bound > cutoff) {
                    visit(child as usize, &mut cutoff);
                }
            }
        }
    }

    /// Calls `visit` on the id of each candidate whose bound from `lower` is at most `cutoff`, in
    /// increasing id; `visit` gives the cutoff for the candidates after it (it may lower it).
    #[inline(always)]
    fn each(&self, lower: &LowerBound<D>, mut cutoff: f32, mut visit: impl FnMut(usize) -> f32) {
        for group in &self.groups {
            let (mut kept, _) = lower.within(group, cutoff);
            kept &= group.used();
            while kept != 0 {
                let k = kept.trailing_zeros() as usize;
                kept &= kept - 1;
                cutoff = visit(group.child[k] as usize);
            }
        }
    }
}

/// The bounds from the box of the points `at` (rounded to `f32` as [`LowerBound::of`] rounds
/// each), and the box's extent on each axis.
fn span<'a, T: Real, const D: usize>(
    at: impl Iterator<Item = &'a Point<T, D>>,
) -> (LowerBound<D>, [f32; D]) {
    let mut low = [f32::INFINITY; D];
    let mut high = [f32::NEG_INFINITY; D];
    for p in at {
        for i in 0..D {
            let c = p[i].to_wide() as f32;
            low[i] = low[i].min(c);
            high[i] = high[i].max(c);
        }
    }
    let extent = core::array::from_fn(|i| high[i] - low[i]);
    (LowerBound::spanning::<T>(low, high), extent)
}

impl<T: Real, const D: usize, S: PointQuery<T, D>> Scene<T, D, S> {
    /// The nearest bodies of the points of `blocks` (consecutive ranges of `points`, in curve
    /// order: [`Order::arrange`](super::order::Order::arrange)), each given to `answer` in turn.
    pub(super) fn nearest_run(
        &self,
        points: &[Point<T, D>],
        blocks: &[Range<usize>],
        max_distance: T,
        filter: &mut impl FnMut(usize) -> bool,
        mut answer: impl FnMut(Option<BodyNearest<T, D>>),
    ) {
        let max = max_distance.to_wide();
        if max.is_nan() || self.hierarchy.nodes.is_empty() {
            for block in blocks {
                block.clone().for_each(|_| answer(None));
            }
            return;
        }
        let mut candidates = Candidates::new();
        // Points answered (in the block before, and in this one) and their answers' distances.
        let mut known: Vec<([f64; D], f64)> = Vec::new();
        // Each point of the block: its answer, once found, else the distance within which it
        // is expected.
        let mut slots: Vec<Result<Option<(usize, T)>, f64>> = Vec::new();
        // The best candidate of each point whose answer lies farther than guessed.
        let mut hints: Vec<Option<(usize, T)>> = Vec::new();
        // The points that answer alone, and their best candidates.
        let mut lone = Vec::new();
        let mut parts = Vec::new();
        let mut density = Density::new(self);
        let wide = |p: &Point<T, D>| -> [f64; D] { core::array::from_fn(|i| p[i].to_wide()) };
        for block in blocks {
            let points = &points[block.clone()];
            slots.clear();
            hints.clear();
            hints.resize(points.len(), None);
            for p in points {
                let w = wide(p);
                // A point `q` answered at distance `d` puts that body within `d + |p − q|` of
                // `p` (distances are 1-Lipschitz), and `p`'s own nearest is mostly much nearer:
                // the guess is `d` and a quarter of the largest difference of coordinates.
                let guess = known
                    .iter()
                    .map(|(q, d)| {
                        let gap = (0..D).map(|i| (w[i] - q[i]).abs()).fold(0.0, f64::max);
                        d + GUESS * gap
                    })
                    .fold(f64::INFINITY, f64::min);
                if guess.is_finite() {
                    slots.push(Err(guess));
                    continue;
                }
                // Nothing known near: the point's own search, whose answer guides the others.
                let found = self.search_from(p, max_distance, None, filter);
                if let Some((_, d)) = found {
                    known.push((w, d.to_wide()));
                }
                slots.push(Ok(found));
            }
            parts.push(0..points.len());
            while let Some(part) = parts.pop() {
                let open = || part.clone().filter(|&j| slots[j].is_err());
                let Some(guess) = open()
                    .map(|j| slots[j].err().unwrap_or(0.0))
                    .reduce(f64::max)
                else {
                    continue;
                };
                // Every body whose signed distance at an open point is at most `reach` is
                // gathered.
                let reach = <f32 as Real>::from_wide_up(guess.min(max));
                let count = open().count();
                if count == 1 {
                    let j = part
                        .clone()
                        .find(|&j| slots[j].is_err())
                        .unwrap_or(part.start);
                    lone.push((j, hints[j]));
                    slots[j] = Ok(None);
                    continue;
                }
                let box_ = span(open().map(|j| &points[j]));
                let most = crowd(count, NEAREST_ALONE);
                let gathered =
                    candidates.attempt(self, &box_, reach, (count, most), &mut density, filter);
                if !gathered {
                    split(part, &mut parts, |j| {
                        if slots[j].is_err() {
                            lone.push((j, hints[j]));
                            slots[j] = Ok(None);
                        }
                    });
                    continue;
                }
                // Points whose answer lies farther than guessed: their best candidates' distances
                // are the new guesses, which a second gathering meets for all of them at once;
                // a point alone searches from its best candidate.
                let mut farther = 0;
                for j in part.clone() {
                    if slots[j].is_ok() {
                        continue;
                    }
                    let p = &points[j];
                    let best = self.nearest_among(&mut candidates, p, max, max_distance, reach);
                    slots[j] = match best {
                        // Every body at most `reach` away was a candidate: none nearer.
                        Some((_, d)) if d.to_wide() <= f64::from(reach) => Ok(best),
                        // Every body within `max` was.
                        None if f64::from(reach) >= max => Ok(None),
                        Some((_, d)) => {
                            farther += 1;
                            hints[j] = best;
                            Err(d.to_wide())
                        }
                        None => Ok(self.search_from(p, max_distance, None, filter)),
                    };
                }
                if farther > 0 {
                    parts.push(part);
                }
            }
            // The points that answer alone, side by side.
            self.searches(points, &lone, max_distance, filter, |j, found| {
                slots[j] = Ok(found);
            });
            lone.clear();
            known.clear();
            for (p, slot) in points.iter().zip(&slots) {
                let found = slot.unwrap_or(None);
                if let Some((_, d)) = found {
                    known.push((wide(p), d.to_wide()));
                }
                answer(found.map(|(id, d)| self.nearest_answer(p, id, d)));
            }
        }
    }

    /// The body of `candidates` nearest to `p` within `max` whose bound is at most `reach`, with
    /// its signed distance, or `None`. The candidate of the smallest bound first, so that its
    /// distance bounds the others.
    #[inline]
    fn nearest_among(
        &self,
        candidates: &mut Candidates<D>,
        p: &Point<T, D>,
        max: f64,
        max_distance: T,
        mut cutoff: f32,
    ) -> Option<(usize, T)> {
        let lower = LowerBound::of(p);
        let mut best: Option<(usize, T)> = None;
        let measure = |id: usize, best: &mut Option<(usize, T)>, cutoff: &mut f32| {
            let body = &self.bodies[id];
            if body.is_within(p, best.map_or(max_distance, |(_, d)| d)) {
                let d = body.signed_distance(p);
                let wide = d.to_wide();
                if wide <= max && better(best.map(|(b, bd)| (b, bd.to_wide())), id, wide) {
                    *best = Some((id, d));
                    *cutoff = <f32 as Real>::from_wide_up(wide);
                }
            }
        };
        let first = candidates.bound(&lower, cutoff)?;
        measure(first, &mut best, &mut cutoff);
        candidates.each_bounded(cutoff, |id, cutoff| {
            if id != first {
                measure(id, &mut best, cutoff);
            }
        });
        best
    }

    /// The single search for the body nearest to `p` ([`Search`]), knowing `best` already.
    fn search_from(
        &self,
        p: &Point<T, D>,
        max_distance: T,
        best: Option<(usize, T)>,
        filter: &mut impl FnMut(usize) -> bool,
    ) -> Option<(usize, T)> {
        let mut search = Search::new(p, max_distance)?;
        if let Some(best) = best {
            search.knowing(best);
        }
        self.with_stack(
            (0u32, 0.0f32),
            |stack| {
                while search.step(self, stack, filter) {}
            },
        );
        search.best()
    }

    /// The bodies within `distance` of the points of `blocks` (consecutive ranges of `points`,
    /// in curve order), each point's list (increasing) given to `answer` in turn.
    pub(super) fn within_run(
        &self,
        points: &[Point<T, D>],
        blocks: &[Range<usize>],
        distance: T,
        filter: &mut impl FnMut(usize) -> bool,
        mut answer: impl FnMut(&[usize]),
    ) {
        let limit = distance.to_wide();
        let cutoff = <f32 as Real>::from_wide_up(limit);
        let mut candidates = Candidates::new();
        // The lists of a block's points, one after another, and where each is.
        let mut lists = Vec::new();
        let mut at: Vec<Range<usize>> = Vec::new();
        let mut near = Vec::new();
        let mut parts = Vec::new();
        let mut density = Density::new(self);
        // The longest list met: a block's candidates may well outnumber it.
        let mut longest = 0;
        for block in blocks {
            let points = &points[block.clone()];
            if limit.is_nan() {
                points.iter().for_each(|_| answer(&[]));
                continue;
            }
            lists.clear();
            at.clear();
            at.resize(points.len(), 0..0);
            parts.push(0..points.len());
            while let Some(part) = parts.pop() {
                let box_ = span(points[part.clone()].iter());
                let most = crowd(part.len(), WITHIN_ALONE) + 2 * longest;
                let gathered = candidates.attempt(
                    self,
                    &box_,
                    cutoff,
                    (part.len(), most),
                    &mut density,
                    filter,
                );
                if !gathered {
                    split(part, &mut parts, |j| {
                        self.within_filtered(&points[j], distance, &mut near, &mut *filter);
                        at[j] = lists.len()..lists.len() + near.len();
                        lists.extend_from_slice(&near);
                    });
                    continue;
                }
                for j in part {
                    let p = &points[j];
                    let start = lists.len();
                    candidates.each(&LowerBound::of(p), cutoff, |id| {
                        if self.bodies[id].is_within(p, distance) {
                            lists.push(id);
                        }
                        cutoff
                    });
                    at[j] = start..lists.len();
                }
            }
            for range in &at {
                longest = longest.max(range.len());
                answer(&lists[range.clone()]);
            }
        }
    }
}

/// A part of a block that is not answered as a whole: halved, each half to be tried in turn
/// (pushed on `parts`, the first half last), or, a single point, answered alone by `alone`.
fn split(part: Range<usize>, parts: &mut Vec<Range<usize>>, mut alone: impl FnMut(usize)) {
    if part.len() == 1 {
        alone(part.start);
    } else {
        let middle = part.start + part.len() / 2;
        parts.push(middle..part.end);
        parts.push(part.start..middle);
    }
}

/// The most candidates a part of `points` points gathers before it is halved: a gathering costs
/// about what [`DESCENTS`] points' own queries cost (`alone` each: its descents from the root
/// meet the nodes of all its points) and [`GATHER`] per candidate, and each point asks each
/// candidate for about [`ASK`]; together they must stay below what the points would cost alone.
/// 0 for parts of at most [`DESCENTS`] points, which answer alone.
fn crowd(points: usize, alone: usize) -> usize {
    points.saturating_sub(DESCENTS) * alone / (GATHER + ASK * points)
}

/// How much more than the volume a part searches its points' own searches must cover
/// together for the part to gather ([`Density::shared`]).
const SHARED: f64 = 1.5;

/// What a gathering's descent costs, in points' own queries.
const DESCENTS: usize = 3;

/// About what gathering a candidate costs (half a node's visit), in instructions.
const GATHER: usize = 150;

/// About what bounding a candidate from a point costs, in instructions.
const ASK: usize = 30;

/// About what a point's own nearest search costs among `10^5` bodies, in instructions.
const NEAREST_ALONE: usize = 6000;

/// About what a point's own `within` costs among `10^5` bodies, in instructions, besides its
/// answers.
const WITHIN_ALONE: usize = 3600;
