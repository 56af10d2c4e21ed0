//! The traversals every query shares: a stack deep enough for the hierarchy, and the depth-first
//! walk of the queries that need no order (spans, any-hit, `containing`, `within`).

use super::Scene;
use super::prefetch::prefetch;
use super::wide::{BODY, WIDTH, Wide};
use crate::real::Real;

/// The stack a traversal keeps on the call stack: enough for a hierarchy of 21 levels (about
/// `4^21` bodies spread through space); deeper ones take one from the heap.
const STACK: usize = 64;

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
}
