//! The spike's first hit: a wide node's eight children tested in one pass of [`Eight`] lanes
//! (AVX where the CPU has it, portable elsewhere, the same bits), the children met visited
//! nearest first with the others stacked farthest deepest, each skipped on its pop where its entry
//! lies beyond the best hit so far (strictly, for the lowest id on equal distances), as
//! `src/scene/traverse.rs`'s `descend!` does for four. Also today's four-wide traversal with the
//! same counts, for the spike's table.

use super::super::answer::BodyHit;
use super::super::node::body_of;
use super::super::packet::lanes::{Eight, F32x8};
use super::super::plain::Scene;
use super::super::prefetch::prefetch;
use super::super::probe::{F32Probe, entry_cutoff};
use super::super::traverse::better;
use super::super::traverse::stack_size;
use super::{LANES, LEAF, Visits, Wide};
use crate::batch::dispatch::{Job, Registers, with_vector_registers};
use crate::batch::lanes::Four;
use crate::core::exact::Products;
use crate::ray::Ray;
use crate::real::Real;
use crate::traits::Cast;

/// What a traversal counts: nothing when timed, [`Visits`] when counted.
pub(super) trait Tally {
    fn node(&mut self);
    fn leaf(&mut self);
    fn body(&mut self);
}

impl Tally for () {
    #[inline(always)]
    fn node(&mut self) {}
    #[inline(always)]
    fn leaf(&mut self) {}
    #[inline(always)]
    fn body(&mut self) {}
}

impl Tally for Visits {
    #[inline(always)]
    fn node(&mut self) {
        self.nodes += 1;
    }
    #[inline(always)]
    fn leaf(&mut self) {
        self.leaves += 1;
    }
    #[inline(always)]
    fn body(&mut self) {
        self.bodies += 1;
    }
}

/// How the traversal reads a store of wide nodes (whole, or in steps).
pub(super) trait Store<const D: usize> {
    /// How many nodes.
    fn count(&self) -> usize;
    /// The most nodes on a path from the root to a leaf.
    fn depth(&self) -> usize;
    /// The bytes of the nodes and what they index.
    fn bytes(&self) -> usize;
    /// The lanes of node `index` that `lines` meets with an entry of at most `cutoff`, as
    /// bits, and their entries.
    fn meets<L: Eight>(&self, index: u32, lines: &Lines<L, D>, cutoff: f32) -> (u32, L);
    /// Child `k` of node `index`: a node's index, or a leaf ([`LEAF`]).
    fn child(&self, index: u32, k: usize) -> u32;
    /// The bodies of leaf `child`: `(id, [])` for one body, else `(_, ids)`.
    fn leaf(&self, child: u32) -> (u32, &[u32]);
    /// Starts loading node `index`.
    fn prefetch_node(&self, index: u32);
    /// Where the ids of leaf `child` are, if it holds several bodies.
    fn leaf_start(&self, child: u32) -> Option<*const u32>;
}

/// A ray's line against a node's eight boxes, in lanes `L`: [`F32Probe`]'s origin moved from
/// the near and the far planes and its reciprocals, each in every lane, and which side is near.
pub(super) struct Lines<L, const D: usize> {
    side: [usize; D],
    near: [L; D],
    far: [L; D],
    to_near: [L; D],
    to_far: [L; D],
}

impl<L: Eight, const D: usize> Lines<L, D> {
    /// The lines of `probe`.
    #[inline(always)]
    fn of(probe: &F32Probe<D>) -> Self {
        let slabs = probe.slabs();
        Lines {
            side: core::array::from_fn(|i| usize::from(slabs.negative[i])),
            near: core::array::from_fn(|i| L::splat(slabs.near[i])),
            far: core::array::from_fn(|i| L::splat(slabs.far[i])),
            to_near: core::array::from_fn(|i| L::splat(slabs.to_near[i])),
            to_far: core::array::from_fn(|i| L::splat(slabs.to_far[i])),
        }
    }

    /// The lanes whose box (`planes(side, i)`: the bounds on axis `i`, the lower ones for
    /// `LOWER`) the line meets with an entry of at most `cutoff`, as bits, and the entries: the
    /// operations of [`Slabs::clip`](super::super::probe::Slabs::clip), lane by lane.
    #[inline(always)]
    pub(super) fn meets(&self, planes: impl Fn(usize, usize) -> L, cutoff: f32) -> (u32, L) {
        let mut enter = L::splat(0.0);
        let mut exit = L::splat(cutoff);
        for i in 0..D {
            let to_n = planes(self.side[i], i)
                .sub(self.near[i])
                .mul(self.to_near[i]);
            let to_f = planes(1 - self.side[i], i)
                .sub(self.far[i])
                .mul(self.to_far[i]);
            enter = to_n.above(enter);
            exit = to_f.below(exit);
        }
        (enter.at_most(exit), enter)
    }
}

/// A child yet to visit and its entry.
type Pending = (u32, f32);

/// The stack kept on the call stack: 7 a level for 9 levels (`8^9` bodies spread out); deeper
/// hierarchies take one from the heap.
const STACK: usize = 64;

/// One ray's first hit through the wide nodes, as a [`Job`] so that it runs in the registers
/// [`with_vector_registers`] picks.
struct FirstHit<'a, 'w, T: Real, const D: usize, S, N, C> {
    wide: &'a Wide<'w, T, D, S, N>,
    probe: &'a F32Probe<D>,
    ray: &'a Ray<T, D>,
    max: T,
    tally: &'a mut C,
}

impl<T: Real, const D: usize, S: Cast<T, D>, N: Store<D>, C: Tally> Job
    for FirstHit<'_, '_, T, D, S, N, C>
{
    type Output = Option<BodyHit<T, D>>;

    #[inline(always)]
    fn run<V: Four>(self, _: Products, registers: Registers) -> Self::Output {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if registers >= Registers::Avx2 {
            return self.trace::<super::super::packet::lanes::Avx8>();
        }
        let _ = registers;
        self.trace::<F32x8>()
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>, N: Store<D>, C: Tally>
    FirstHit<'_, '_, T, D, S, N, C>
{
    /// The traversal in lanes `L`.
    #[inline(always)]
    fn trace<L: Eight>(self) -> Option<BodyHit<T, D>> {
        let FirstHit {
            wide,
            probe,
            ray,
            max,
            tally,
        } = self;
        let limit = max.to_wide();
        let store = &wide.store;
        if store.count() == 0 || !(limit >= 0.0) {
            return None;
        }
        let lines = Lines::<L, D>::of(probe);
        let bodies = &wide.scene.bodies;
        let mut best: Option<BodyHit<T, D>> = None;
        let mut best_at: Option<(usize, f64)> = None;
        let mut cutoff = entry_cutoff(limit);
        let mut cast = |id: usize, cutoff: &mut f32, tally: &mut C| {
            tally.body();
            if let Some(hit) = bodies[id].cast_ray(ray, max) {
                let d = hit.distance.to_wide();
                if better(best_at, id, d) {
                    best = Some(BodyHit { body: id, hit });
                    best_at = Some((id, d));
                    *cutoff = entry_cutoff(d);
                }
            }
        };
        let fetch = |child: u32| {
            if child & LEAF == 0 {
                store.prefetch_node(child);
            } else if let Some(ids) = store.leaf_start(child) {
                prefetch(ids);
            } else {
                prefetch(bodies.as_ptr().wrapping_add((child & !LEAF) as usize));
            }
        };
        let needed = (LANES - 1) * store.depth() + 1;
        let mut local = [(0u32, 0.0f32); STACK];
        let mut heap;
        let stack: &mut [Pending] = if needed <= STACK {
            &mut local
        } else {
            heap = alloc::vec![(0u32, 0.0f32); needed];
            &mut heap
        };
        let mut top = 0;
        let mut next = 0u32;
        'visit: loop {
            if next & LEAF == 0 {
                tally.node();
                let (met, enter) = store.meets(next, &lines, cutoff);
                if met != 0 {
                    if met & (met - 1) == 0 {
                        next = store.child(next, met.trailing_zeros() as usize);
                        fetch(next);
                        continue 'visit;
                    }
                    // Each entry (at least 0, so its bits order as it does) with its lane in
                    // the three low bits: an entry at most 7 ulps lower, which skips no child
                    // that the entry itself would keep.
                    let order = enter.sorted(met);
                    let count = met.count_ones() as usize;
                    for &key in order[1..count].iter().rev() {
                        let child = store.child(next, (key & 7) as usize);
                        fetch(child);
                        stack[top] = (child, f32::from_bits(key & !7));
                        top += 1;
                    }
                    next = store.child(next, (order[0] & 7) as usize);
                    fetch(next);
                    continue 'visit;
                }
            } else {
                tally.leaf();
                let (id, run) = store.leaf(next);
                if run.is_empty() {
                    cast(id as usize, &mut cutoff, tally);
                } else {
                    for &id in run {
                        cast(id as usize, &mut cutoff, tally);
                    }
                }
            }
            loop {
                if top == 0 {
                    break 'visit;
                }
                top -= 1;
                let (child, key) = stack[top];
                if !(key > cutoff) {
                    next = child;
                    continue 'visit;
                }
            }
        }
        best
    }
}

/// Batcher's odd-even merge sort of eight (nineteen comparators), then the network of five that
/// sorts four.
const NETWORKS: [(usize, usize); 24] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (1, 2),
    (5, 6),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
    (2, 4),
    (3, 5),
    (1, 2),
    (3, 4),
    (5, 6),
    (0, 1),
    (2, 3),
    (0, 2),
    (1, 3),
    (1, 2),
];

/// `found[..count]` (two or more) sorted by entry, farthest first, the rest padded with `−∞`
/// (which stays after them): two by one exchange, up to four by five, up to eight by the
/// nineteen of Batcher's odd-even merge sort, all without branches on the keys.
#[inline(always)]
fn sort(found: &mut [(u32, f32); LANES], count: usize) {
    #[inline(always)]
    fn exchange(found: &mut [(u32, f32); LANES], a: usize, b: usize) {
        let swap = found[a].1 < found[b].1;
        (found[a], found[b]) =
            core::hint::select_unpredictable(swap, (found[b], found[a]), (found[a], found[b]));
    }
    let network: &[(usize, usize)] = if count == 2 {
        &NETWORKS[..1]
    } else if count <= 4 {
        &NETWORKS[19..]
    } else {
        &NETWORKS[..19]
    };
    for &(a, b) in network {
        exchange(found, a, b);
    }
}

/// The first hit, counted by `tally`: through the wide nodes where [`F32Probe`] takes the
/// origin, else the scene's own traversal.
pub(super) fn first_hit<T: Real, const D: usize, S: Cast<T, D>, N: Store<D>, C: Tally>(
    wide: &Wide<'_, T, D, S, N>,
    ray: &Ray<T, D>,
    max: T,
    tally: &mut C,
) -> Option<BodyHit<T, D>> {
    match F32Probe::of(ray, 0.0) {
        Some(probe) => with_vector_registers(
            Registers::Avx2,
            FirstHit {
                wide,
                probe: &probe,
                ray,
                max,
                tally,
            },
        ),
        None => wide.scene.cast_ray(ray, max),
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>> Scene<T, D, S> {
    /// How many nodes [`Scene::cast_ray`] reads for `ray` and bodies it casts (as leaves of one:
    /// `leaves` and `bodies` are equal), by the same visits as `Scene::first`, counted.
    #[doc(hidden)]
    #[must_use]
    pub fn visits(&self, ray: &Ray<T, D>, max_distance: T) -> Visits {
        let mut visits = Visits::default();
        let limit = max_distance.to_wide();
        let Some(line) = F32Probe::of(ray, 0.0) else {
            return visits;
        };
        if self.hierarchy.nodes.is_empty() || !(limit >= 0.0) {
            return visits;
        }
        let mut best_at: Option<(usize, f64)> = None;
        let mut cutoff = entry_cutoff(limit);
        let mut stack = alloc::vec![(0u32, 0.0f32); stack_size(self.hierarchy.depth)];
        let mut top = 0;
        let mut next = 0u32;
        'visit: loop {
            if let Some(id) = body_of(next) {
                visits.leaves += 1;
                visits.bodies += 1;
                if let Some(hit) = self.bodies[id].cast_ray(ray, max_distance) {
                    let d = hit.distance.to_wide();
                    if better(best_at, id, d) {
                        best_at = Some((id, d));
                        cutoff = entry_cutoff(d);
                    }
                }
            } else {
                visits.nodes += 1;
                let node = &self.hierarchy.nodes[next as usize];
                let (met, enter) = self.hierarchy.meets(&line, node, cutoff);
                let mut found: [(u32, f32); LANES] = [(0, f32::NEG_INFINITY); LANES];
                let mut count = 0;
                for (k, (&child, &key)) in node.child.iter().zip(&enter).enumerate() {
                    if met >> k & 1 != 0 {
                        found[count] = (child, key);
                        count += 1;
                    }
                }
                if count > 0 {
                    if count > 1 {
                        sort(&mut found, count);
                    }
                    for &entry in &found[..count - 1] {
                        stack[top] = entry;
                        top += 1;
                    }
                    next = found[count - 1].0;
                    continue 'visit;
                }
            }
            loop {
                if top == 0 {
                    break 'visit;
                }
                top -= 1;
                let (child, key) = stack[top];
                if !(key > cutoff) {
                    next = child;
                    continue 'visit;
                }
            }
        }
        visits
    }
}
