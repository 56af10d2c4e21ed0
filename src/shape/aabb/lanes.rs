//! A box's batch: its bounds as lanes, and the slab core on four rays at a time
//! ([`FourQuery`]).

use nalgebra::Point;

use crate::batch::dispatch::Registers;
use crate::batch::lanes::{Four, FourMask};
use crate::batch::{FourEntries, FourQuery, stored_lanes};
use crate::bounds::Aabb;
use crate::core::exact::Products;
use crate::core::lane::build;
use crate::core::slab::{Zeros, line_box_lanes};
use crate::ray::{Ray, length};
use crate::real::Real;

impl<T: Real, const D: usize> FourQuery<T, D> for Aabb<T, D> {
    /// Up to AVX2: with AVX-512 this batch ran slower (docs/performance.md).
    const WIDEST: Registers = Registers::Avx2;

    /// The lower and upper bounds in the working precision, the same in every lane.
    type Prepared<V: Four> = ([V; D], [V; D]);

    #[inline(always)]
    fn prepare<V: Four>(&self, _: Products) -> ([V; D], [V; D]) {
        let splat = |p: &Point<T, D>| build(|i| V::splat(p[i].to_wide()));
        (splat(self.min()), splat(self.max()))
    }

    /// The slab core on four lanes: in every lane, the bits of the single cast.
    #[inline(always)]
    fn four_entries<V: Four>(
        &self,
        (min, max): &([V; D], [V; D]),
        rays: [&Ray<T, D>; 4],
        registers: Registers,
    ) -> FourEntries<V, D> {
        let (o, n) = stored_lanes(rays, registers);
        let (meets, x) = line_box_lanes(&o, &n, min, max, Zeros::InQuotients);
        FourEntries {
            answered: V::Mask::splat(true),
            meets,
            inside: x.inside,
            enter: x.enter * length::<T, _, D>(&n),
            point: x.entry_point_lanes(&o, &n, min, max),
            normal: x.entry_normal_lanes(&n),
        }
    }
}
