//! A query's line against a node's children's boxes in `f64`: the probe the spans take, and the
//! first hits where [`F32Probe`](super::f32::F32Probe) declines. Why its skipped children hold no
//! answer is in `src/scene/probe/mod.rs`.

use crate::ray::Ray;
use crate::real::Real;

use super::super::node::{Node, Sides, WIDTH, lanes};
use super::{Line, Slabs, margin};

/// A query's line, prepared once for every node it meets, in `f64`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F64Probe<const D: usize> {
    /// Per axis, the origin moved by its [`margin`] away from the near plane (`oᵢ + margin`, or
    /// `oᵢ − margin` where the direction is negative), and from the far one; `1/nᵢ` for both.
    slabs: Slabs<f64, D>,
}

/// The entries and exits of a line, child by child.
pub(crate) struct Stretches {
    pub(crate) enter: [f64; WIDTH],
    pub(crate) exit: [f64; WIDTH],
}

impl<const D: usize> F64Probe<D> {
    /// The line through `ray`, against boxes grown by `radius` (0 for rays).
    #[inline]
    pub(crate) fn of<T: Real>(ray: &Ray<T, D>, radius: f64) -> Self {
        let o: [f64; D] = core::array::from_fn(|i| ray.origin()[i].to_wide());
        let n: [f64; D] = ray.stored_dir().into();
        let negative = n.map(f64::is_sign_negative);
        let by = margin::<T, D>(&o, radius);
        let shifted = |i: usize, toward_lower: bool| {
            if toward_lower { o[i] + by } else { o[i] - by }
        };
        let inv = n.map(|c| 1.0 / c);
        F64Probe {
            slabs: Slabs {
                negative,
                near: core::array::from_fn(|i| shifted(i, !negative[i])),
                far: core::array::from_fn(|i| shifted(i, negative[i])),
                to_near: inv,
                to_far: inv,
            },
        }
    }

    /// Where the line lies within each child's box of `node`, grown: the parameters along the
    /// stored direction, conservative as the module's documentation says; the line misses the
    /// children whose entry exceeds their exit.
    #[inline(always)]
    pub(crate) fn stretches(&self, node: &impl Sides<D>) -> Stretches {
        let (enter, exit) =
            self.slabs
                .clip(node, [f64::NEG_INFINITY; WIDTH], [f64::INFINITY; WIDTH]);
        Stretches { enter, exit }
    }
}

impl<const D: usize> F64Probe<D> {
    /// The children of `node` the whole line meets (behind the origin too), as bits (bit `k`
    /// for child `k`): those a span query visits.
    #[inline(always)]
    pub(crate) fn crosses(&self, node: &Node<D>) -> u32 {
        let Stretches { enter, exit } = self.stretches(node);
        lanes(|k| enter[k] <= exit[k])
    }
}

impl<const D: usize> Line<D> for F64Probe<D> {
    /// The stretches, with each entry rounded down to `f32` (no higher than the exact one).
    #[inline(always)]
    fn meets(&self, node: &impl Sides<D>, cutoff: f32) -> (u32, [f32; WIDTH]) {
        let Stretches { enter, exit } = self.stretches(node);
        let from = enter.map(|e| <f32 as Real>::from_wide_down(e.max(0.0)));
        let met = lanes(|k| (enter[k] <= exit[k]) & (exit[k] >= 0.0) & (from[k] <= cutoff));
        (met, from)
    }
}
