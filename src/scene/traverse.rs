//! The traversals the queries share: one descent ([`descend!`]) into which each query passes its
//! body test and its node test, and where it keeps the children it has yet to visit. First hits,
//! sphere casts and nearest searches keep them on a stack, nearest on top, and skip those beyond
//! the best answer; the depth-first visit of the queries that visit every child met (spans,
//! any-hit, `containing`) keeps them on a stack in no order; the breadth-first visit of `within`
//! in a [`Queue`], so that the loads of the children it prefetches have time to arrive (a stack
//! visits them at once). The stack lives on the call stack where the hierarchy is shallow enough
//! ([`Scene::with_stack`]).

use alloc::vec::Vec;

use super::node::{Node, WIDTH, body_of};
use super::plain::Scene;
use super::prefetch::prefetch;
use super::probe::{Line, entry_cutoff};
use crate::real::Real;

/// The stack a traversal keeps on the call stack: enough for a hierarchy of 21 levels (about
/// `4^21` bodies spread through space); deeper ones take one from the heap.
const STACK: usize = 64;

/// The entries a depth-first traversal's stack needs in a hierarchy `depth` nodes deep: each
/// level leaves at most `WIDTH - 1` children on it.
#[inline]
pub(super) fn stack_size(depth: usize) -> usize {
    (WIDTH - 1) * depth + 1
}

/// The entries of [`Scene::sweep`]'s queue kept on the call stack (a power of two); those beyond
/// wait on the heap.
const QUEUE: usize = 64;

/// A child yet to visit (a node or a body, as stored: `src/scene/node/mod.rs`) and its key: a
/// lower bound on the
/// distance of any answer it holds (0 where the traversal has no order).
pub(super) type Pending = (u32, f32);

/// The children a breadth-first sweep has yet to visit: a ring of [`QUEUE`] on the call stack,
/// and beyond it a list on the heap whose children are visited once the ring is empty.
struct Queue {
    ring: [u32; QUEUE],
    head: usize,
    tail: usize,
    overflow: Vec<u32>,
}

impl Queue {
    fn new() -> Self {
        Queue {
            ring: [0; QUEUE],
            head: 0,
            tail: 0,
            overflow: Vec::new(),
        }
    }

    #[inline(always)]
    fn push(&mut self, child: u32) {
        if self.tail - self.head < QUEUE {
            self.ring[self.tail % QUEUE] = child;
            self.tail += 1;
        } else {
            self.overflow.push(child);
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        if self.head != self.tail {
            self.head += 1;
            Some(self.ring[(self.head - 1) % QUEUE])
        } else {
            self.overflow.pop()
        }
    }
}

/// Whether an answer at distance `d` from body `id` beats the best so far, `(id, d)`: nearer, or
/// as near with a lower id, as the loop over the bodies in order keeps it. Every query that keeps
/// one best answer (first hits, sphere casts, nearest) decides by it.
#[inline(always)]
pub(super) fn better(best: Option<(usize, f64)>, id: usize, d: f64) -> bool {
    best.is_none_or(|(b, bd)| d < bd || (d == bd && id < b))
}

/// One step of the descent every traversal runs (first hits and sphere casts, nearest searches,
/// the unordered visits of any-hit, spans and `containing`, and the breadth-first visit of `within`): visits the child
/// `$next` (a `(child, key)` pair), then finds the one to visit after it; `false` once none is
/// left.
///
/// - A body: `$body` runs with `$id` its id (it may lower `$cutoff`).
/// - A node: `$node` runs with `$index` its index and gives the children that may hold an
///   answer as bits (bit `k` for child `k`, unused children cleared), each child's key (a lower
///   bound on what it can answer) and the node's children. Each kept child is prefetched; the
///   nearest becomes `$next` and the others go on `$stack` above `$top`, the farthest deepest
///   (`sorted`), or in lane order with only the nearest picked out (`nearest_last`: for nearest
///   searches, where sorting measured slower than it saved); or, for the unordered visits of every
///   child accepted, all pushed in lane order (children only, `$stack` holding no keys) and the
///   last popped next, with no gathering (`unordered`), or all queued, `$stack` a [`Queue`] (`queued`, with `$top` unused).
/// - Where the step kept no child, `$next` is the child on top of the stack whose key does not
///   exceed `$cutoff` (strictly greater ones hold nothing that counts; equal keys are still
///   visited, for the lowest id), those above it dropped; or the queue's head.
///
/// A macro rather than a function taking closures: a shared helper measured slower for
/// `nearest_batch`, whose searches interleave; here each query's tests are written into the loop.
macro_rules! descend {
    (
        $scene:expr, $stack:expr, $top:expr, $next:expr, $cutoff:expr, $order:ident;
        body($id:ident) => $body:block
        node($index:ident) => $node:block
    ) => {{
        let (child, _) = $next;
        let mut kept = false;
        if let Some($id) = $crate::scene::node::body_of(child) {
            $body
        } else {
            let $index = child as usize;
            let (bits, keys, children): (u32, [f32; WIDTH], [u32; WIDTH]) = $node;
            kept = descend!(@place $order, $scene, $stack, $top, $next, bits, keys, children);
        }
        kept || descend!(@pop $order, $stack, $top, $next, $cutoff)
    }};
    // The next child: from the queue's head, in the order queued.
    (@pop queued, $queue:expr, $top:expr, $next:expr, $cutoff:expr) => {
        match $queue.pop() {
            Some(child) => {
                $next = (child, 0.0);
                true
            }
            None => false,
        }
    };
    // The next child: from the stack's top, which holds children without keys (every child
    // kept counts).
    (@pop unordered, $stack:expr, $top:expr, $next:expr, $cutoff:expr) => {
        if $top == 0 {
            false
        } else {
            $top -= 1;
            $next = ($stack[$top], 0.0);
            true
        }
    };
    // The next child: from the stack's top, skipping those whose key exceeds the cutoff.
    (@pop $order:ident, $stack:expr, $top:expr, $next:expr, $cutoff:expr) => {
        loop {
            if $top == 0 {
                break false;
            }
            $top -= 1;
            $next = $stack[$top];
            if !($next.1 > $cutoff) {
                break true;
            }
        }
    };
    // The children kept: queued as they come, the step keeping none.
    (@place queued, $scene:expr, $queue:expr, $top:expr, $next:expr, $bits:ident, $keys:ident, $children:ident) => {{
        let _ = $keys;
        for k in 0..WIDTH {
            if $bits >> k & 1 != 0 {
                $scene.prefetch_child($children[k]);
                $queue.push($children[k]);
            }
        }
        false
    }};
    // The children kept: pushed as they come (the last visited first), without their keys, the
    // step keeping none.
    (@place unordered, $scene:expr, $stack:expr, $top:expr, $next:expr, $bits:ident, $keys:ident, $children:ident) => {{
        let _ = $keys;
        for k in 0..WIDTH {
            if $bits >> k & 1 != 0 {
                $scene.prefetch_child($children[k]);
                $stack[$top] = $children[k];
                $top += 1;
            }
        }
        false
    }};
    // The children kept, gathered and ordered: the nearest next, the others stacked.
    (@place $order:ident, $scene:expr, $stack:expr, $top:expr, $next:expr, $bits:ident, $keys:ident, $children:ident) => {{
        if $bits != 0 {
            let mut found = [(0u32, 0.0f32); WIDTH];
            let mut count = 0;
            let mut rest = $bits;
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                $scene.prefetch_child($children[k]);
                found[count] = ($children[k], $keys[k]);
                count += 1;
            }
            descend!(@order $order, found, count);
            for &entry in &found[..count - 1] {
                $stack[$top] = entry;
                $top += 1;
            }
            $next = found[count - 1];
            true
        } else {
            false
        }
    }};
    (@order $order:ident, $found:ident, $count:ident) => {
        if $count == 2 {
            let swap = $found[0].1 < $found[1].1;
            ($found[0], $found[1]) = core::hint::select_unpredictable(
                swap,
                ($found[1], $found[0]),
                ($found[0], $found[1]),
            );
        } else if $count > 2 {
            descend!(@more $order, $found, $count);
        }
    };
    // More than two children: the nearest last.
    // Three or four children: a sorting network of five exchanges, without branches (a library
    // sort's branches on the keys measured slower), a third child padded with the lowest key.
    (@more sorted, $found:ident, $count:ident) => {{
        const _: () = assert!(WIDTH == 4, "the network sorts four children");
        if $count == 3 {
            $found[3] = (0, f32::NEG_INFINITY);
        }
        for (a, b) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
            let swap = $found[a].1 < $found[b].1;
            ($found[a], $found[b]) = core::hint::select_unpredictable(
                swap,
                ($found[b], $found[a]),
                ($found[a], $found[b]),
            );
        }
    }};
    (@more nearest_last, $found:ident, $count:ident) => {{
        let mut m = $count - 1;
        for k in 0..$count - 1 {
            if $found[k].1 < $found[m].1 {
                m = k;
            }
        }
        $found.swap(m, $count - 1);
    }};
}
pub(super) use descend;

/// The traversals every query shares, which need nothing of the bodies.
impl<T: Real, const D: usize, S> Scene<T, D, S> {
    /// `run` on a stack (filled with `blank`) deep enough for a traversal of the hierarchy:
    /// each level leaves at most `WIDTH - 1` children on it.
    #[inline(always)]
    pub(super) fn with_stack<E: Copy, R>(&self, blank: E, run: impl FnOnce(&mut [E]) -> R) -> R {
        let needed = stack_size(self.hierarchy.depth);
        if needed <= STACK {
            run(&mut [blank; STACK])
        } else {
            run(&mut alloc::vec![blank; needed])
        }
    }

    /// Starts loading `child` (a node or a body, as stored) ahead of its visit.
    #[inline(always)]
    pub(super) fn prefetch_child(&self, child: u32) {
        if let Some(id) = body_of(child) {
            prefetch(self.bodies.as_ptr().wrapping_add(id));
        } else {
            prefetch(self.hierarchy.nodes.as_ptr().wrapping_add(child as usize));
        }
    }

    /// Visits, depth first ([`descend!`], in no order), every child that `enters` accepts (it
    /// gives a node's accepted children as bits, bit `k` for child `k`; it sees an unused
    /// child's box finite, and the visit drops that child), and calls `body` on the id of each
    /// body among them, until it returns `false`.
    pub(super) fn visit_depth_first(
        &self,
        mut enters: impl FnMut(&Node<D>) -> u32,
        mut body: impl FnMut(usize) -> bool,
    ) {
        if self.hierarchy.nodes.is_empty() {
            return;
        }
        self.with_stack(0u32, |stack| {
            let mut top = 0;
            let mut next = (0u32, 0.0f32);
            while descend!(
                self, stack, top, next, f32::INFINITY, unordered;
                body(id) => {
                    if !body(id) {
                        return;
                    }
                }
                node(index) => {
                    let (node, used) = self.hierarchy.raw(index);
                    (enters(&node) & used, [0.0; WIDTH], node.child)
                }
            ) {}
        });
    }

    /// Visits every child that `enters` accepts, as [`Scene::visit_depth_first`] does but breadth first
    /// ([`descend!`], `queued`): each child accepted is prefetched and queued, and is visited
    /// only after the children queued before it, so that its load has the time they take to
    /// arrive (`within` runs faster so than depth first, `docs/performance.md`, "Scene
    /// proximity").
    pub(super) fn visit_breadth_first(
        &self,
        mut enters: impl FnMut(&Node<D>) -> u32,
        mut body: impl FnMut(usize),
    ) {
        if self.hierarchy.nodes.is_empty() {
            return;
        }
        let mut queue = Queue::new();
        let mut next = (0u32, 0.0f32);
        while descend!(
            self, queue, (), next, f32::INFINITY, queued;
            body(id) => {
                body(id);
            }
            node(index) => {
                let (node, used) = self.hierarchy.raw(index);
                (enters(&node) & used, [0.0; WIDTH], node.child)
            }
        ) {}
    }

    /// The first answer that `cast` gives, and its body's id: `cast(id, body, limit)` gives an
    /// answer and its distance, or `None`; `limit` is the distance of the best answer so far (or
    /// `max`), which an answer must not exceed to count. The children the line meets are visited
    /// nearest first ([`descend!`], sorted), and those whose entry lies beyond the best answer so
    /// far (strictly: equal distances are still visited, for the lowest id) are skipped.
    pub(super) fn first<A>(
        &self,
        line: &impl Line<D>,
        max: f64,
        mut cast: impl FnMut(usize, &S, f64) -> Option<(f64, A)>,
    ) -> Option<(usize, A)> {
        if self.hierarchy.nodes.is_empty() || !(max >= 0.0) {
            return None;
        }
        let mut best: Option<(usize, A)> = None;
        let mut best_at: Option<(usize, f64)> = None;
        // The entry a child must not exceed to hold a hit that counts.
        let mut cutoff = entry_cutoff(max);
        self.with_stack((0, 0.0f32), |stack| {
            let mut top = 0;
            let mut next = (0u32, 0.0f32);
            while descend!(
                self, stack, top, next, cutoff, sorted;
                body(id) => {
                    let limit = best_at.map_or(max, |(_, d)| d);
                    if let Some((d, answer)) = cast(id, &self.bodies[id], limit)
                        && better(best_at, id, d)
                    {
                        best = Some((id, answer));
                        best_at = Some((id, d));
                        cutoff = entry_cutoff(d);
                    }
                }
                node(index) => {
                    let node = &self.hierarchy.nodes[index];
                    let (met, enter) = self.hierarchy.meets(line, node, cutoff);
                    (met, enter, node.child)
                }
            ) {}
            best
        })
    }
}
