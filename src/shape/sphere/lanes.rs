//! A sphere's batch: its centre, radius and shortcut as lanes, and the quadratic core on four
//! rays at a time ([`FourQuery`]).

use super::Sphere;
use super::casts::radial_normal;
use crate::batch::dispatch::Registers;
use crate::batch::lanes::{Four, FourMask};
use crate::batch::{FourEntries, FourQuery, stored_lanes};
use crate::core::exact::Products;
use crate::core::lane::build;
use crate::core::quadratic::{Offset, Shortcut, line_ball_lanes, line_ball_misses};
use crate::core::unit::unit_in_range;
use crate::ray::Ray;
use crate::real::Real;

/// The centre and radius as lanes, `1/r` where the single cast's normal is the
/// [`radial_normal`] ([`Sphere::radial`]), and the sphere's [`Shortcut`] for the batch's products.
pub(crate) struct SphereLanes<V, const D: usize> {
    centre: [V; D],
    radius: V,
    inverse_radius: Option<V>,
    shortcut: Shortcut,
}

impl<T: Real, const D: usize> FourQuery<T, D> for Sphere<T, D> {
    /// Up to AVX-512, where this batch runs faster than with AVX2 (docs/performance.md).
    const WIDEST: Registers = Registers::Avx512;

    /// Most lines that miss a sphere are decided by its discriminant, a fraction of the cast.
    const FILTERS: bool = true;

    type Prepared<V: Four> = SphereLanes<V, D>;

    /// Decided once for the batch: `1/r` as a mask in the lanes, or a division in every group,
    /// cost more, and the shortcut was formed anew in every group (docs/performance.md).
    #[inline(always)]
    fn prepare<V: Four>(&self, products: Products) -> SphereLanes<V, D> {
        let r = self.radius.to_wide();
        SphereLanes {
            centre: build(|i| V::splat(self.center[i].to_wide())),
            radius: V::splat(r),
            inverse_radius: Self::radial(r).then(|| V::splat(1.0 / r)),
            shortcut: self.shortcut(products),
        }
    }

    /// The quadratic core's plain evaluation up to the discriminant ([`line_ball_misses`]).
    #[inline(always)]
    fn four_misses<V: Four>(
        &self,
        prepared: &SphereLanes<V, D>,
        rays: [&Ray<T, D>; 4],
        registers: Registers,
    ) -> V::Mask {
        let (o, n) = stored_lanes(rays, registers);
        let f = Offset::between_lanes(&o, &prepared.centre);
        line_ball_misses(&f, &n, prepared.radius, prepared.shortcut)
    }

    /// The quadratic core on four lanes: in each lane answered, the bits of the single cast.
    #[inline(always)]
    fn four_entries<V: Four>(
        &self,
        prepared: &SphereLanes<V, D>,
        rays: [&Ray<T, D>; 4],
        registers: Registers,
    ) -> FourEntries<V, D> {
        let c = &prepared.centre;
        let (o, n) = stored_lanes(rays, registers);
        // The lanes' refused lines stay inline: out of line, as for the single cast, the f64
        // batch (whose margins refuse more lines) and the far f32 one were slower.
        let f = Offset::between_lanes(&o, c);
        let (meets, x) = line_ball_lanes(&f, &n, prepared.radius, prepared.shortcut);
        let h = x.entry_offset_lanes(&n);
        let (normal_found, normal) = if let Some(inverse) = prepared.inverse_radius {
            (V::Mask::splat(true), radial_normal(&h, inverse))
        } else {
            let (in_range, normal, _) = unit_in_range(&h);
            (in_range, normal)
        };
        FourEntries {
            answered: normal_found | !meets | x.inside,
            meets,
            inside: x.inside,
            enter: x.near,
            point: build(|i| c[i] + h[i]),
            normal,
        }
    }
}
