//! The traversals the queries share: a stack deep enough for the hierarchy, the depth-first walk
//! of the queries that need no order (spans, any-hit, `containing`), and the breadth-first one of
//! `within`, whose queue gives the loads of the children it prefetches time to arrive.

use alloc::vec::Vec;

use super::Scene;
use super::prefetch::prefetch;
use super::wide::{BODY, WIDTH, Wide};
use crate::real::Real;

/// The stack a traversal keeps on the call stack: enough for a hierarchy of 21 levels (about
/// `4^21` bodies spread through space); deeper ones take one from the heap.
const STACK: usize = 64;

/// The entries of [`Scene::sweep`]'s queue kept on the call stack (a power of two); those beyond
/// wait on the heap.
const QUEUE: usize = 64;

/// The traversals every query shares, which need nothing of the bodies.
impl<T: Real, const D: usize, S> Scene<T, D, S> {
    /// `run` on a stack (filled with `blank`) deep enough for a traversal of the hierarchy:
    /// each level leaves at most `WIDTH - 1` children on it.
    #[inline(always)]
    pub(super) fn with_stack<E: Copy, R>(&self, blank: E, run: impl FnOnce(&mut [E]) -> R) -> R {
        let needed = (WIDTH - 1) * self.hierarchy.depth + 1;
        if needed <= STACK {
            run(&mut [blank; STACK])
        } else {
            run(&mut alloc::vec![blank; needed])
        }
    }

    /// Starts loading `child` (a node, or a body with [`BODY`]) ahead of its visit.
    #[inline(always)]
    pub(super) fn prefetch_child(&self, child: u32) {
        if child & BODY != 0 {
            prefetch(self.bodies.as_ptr().wrapping_add((child & !BODY) as usize));
        } else {
            prefetch(self.hierarchy.nodes.as_ptr().wrapping_add(child as usize));
        }
    }

    /// Visits, depth first, every child that `enters` accepts (it gives a node's accepted
    /// children as bits, bit `k` for child `k`), and calls `body` on the id of each body among
    /// them, until it returns `false`.
    pub(super) fn walk(
        &self,
        mut enters: impl FnMut(&Wide<D>) -> u32,
        mut body: impl FnMut(usize) -> bool,
    ) {
        if self.hierarchy.nodes.is_empty() {
            return;
        }
        self.with_stack(0u32, |stack| {
            let mut top = 1;
            while top > 0 {
                top -= 1;
                let child = stack[top];
                if child & BODY != 0 {
                    if !body((child & !BODY) as usize) {
                        return;
                    }
                    continue;
                }
                let node = &self.hierarchy.nodes[child as usize];
                let accepted = enters(node);
                for k in 0..WIDTH {
                    if accepted >> k & 1 != 0 {
                        self.prefetch_child(node.child[k]);
                        stack[top] = node.child[k];
                        top += 1;
                    }
                }
            }
        });
    }

    /// Visits every child that `enters` accepts, as [`Scene::walk`] does but breadth first: each
    /// child accepted is prefetched and queued, and is visited only after the children queued
    /// before it, so that its load has the time they take to arrive (at `10^5` balls, `within`
    /// took 0.79 of the depth-first walk's time per query). The queue holds [`QUEUE`] entries
    /// on the call stack; beyond, children wait on the heap and are visited when it is empty.
    pub(super) fn sweep(
        &self,
        mut enters: impl FnMut(&Wide<D>) -> u32,
        mut body: impl FnMut(usize),
    ) {
        if self.hierarchy.nodes.is_empty() {
            return;
        }
        let mut queue = [0u32; QUEUE];
        let (mut head, mut tail) = (0usize, 1usize);
        let mut overflow: Vec<u32> = Vec::new();
        loop {
            let child = if head != tail {
                head += 1;
                queue[(head - 1) % QUEUE]
            } else if let Some(child) = overflow.pop() {
                child
            } else {
                return;
            };
            if child & BODY != 0 {
                body((child & !BODY) as usize);
                continue;
            }
            let node = &self.hierarchy.nodes[child as usize];
            let accepted = enters(node);
            for k in 0..WIDTH {
                if accepted >> k & 1 != 0 {
                    let child = node.child[k];
                    self.prefetch_child(child);
                    if tail - head < QUEUE {
                        queue[tail % QUEUE] = child;
                        tail += 1;
                    } else {
                        overflow.push(child);
                    }
                }
            }
        }
    }
}
