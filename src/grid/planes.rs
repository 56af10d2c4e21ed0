//! One axis of a grid as a ray's line meets it: where the line crosses plane `k`, computed from
//! `k` directly, never accumulated, and how plane `k` lies against the origin, exactly.
//!
//! Plane `k` lies at `min + k·h` (real arithmetic). Its offset from the origin,
//! `k·h − (o − min)`, is held as the two exact pairs `k·h = p + e` (TwoProduct, exact for
//! `k ≤ 2^53`) and `o − min = d + f` (TwoSum), both in `f64`, which holds every `f32` and `f64`
//! input. Comparing the pairs decides exactly on which side of the origin a plane lies (a pair's
//! low part is below half an ulp of its high part, so pairs compare by high, then low part). The
//! crossing parameter along the stored direction `n` (its key) is the offset `(p − d) + (e − f)`
//! (TwoSum of the high parts, the rest added to its error: one rounding, or `2^-104` of
//! `|p| + |d|` where the high parts cancel) times `1/nᵢ`, rounded once per ray: within `2^-51` of
//! the exact crossing relative to the axis's reach (the largest `|offset|/|nᵢ|` of its planes),
//! and relative to the crossing itself where the offset does not cancel. Where the cell size has
//! at most 24 significant bits (every `f32`) and the axis fewer than `2^29` cells, `k·h` is exact
//! in `f64` and needs no TwoProduct. The same value for the same plane every time, so a
//! cell's exit and the next one's entry are the same key.
//!
//! Two crossings are ordered by their keys where these differ by more than their errors can
//! explain; otherwise exactly, by the sign of `Nᵢ·nⱼ − Nⱼ·nᵢ` (the offsets `N` as their four
//! exact terms, each product split by TwoProduct), summed as a nonoverlapping expansion
//! (Shewchuk, "Adaptive precision floating-point arithmetic and fast robust geometric
//! predicates", Discrete Comput. Geom. 18, 1997, Grow-Expansion), whose largest part has the
//! sum's sign. (Sources: Knuth's TwoSum and Dekker's TwoProduct, `src/core/exact.rs`.)

use core::cmp::Ordering;

use crate::core::exact::{Products, two_product, two_sum};
use crate::core::expansion::Expansion;
use crate::core::lane::Lane;

/// `2^-40`: keys closer than this much of their axes' reach (the largest `|offset|/|nᵢ|` of a
/// plane of the grid) are ordered exactly. A key's error is below `2^-51` of its axis's reach.
const CLOSE: f64 = 9.094947017729282e-13;

/// A grid axis against a ray's line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Axis {
    /// `o − min`, exactly, as a pair.
    from_min: (f64, f64),
    /// The cell size.
    size: f64,
    /// The stored direction's component.
    dir: f64,
    /// `1 / dir`, rounded: a key is the offset times it.
    inv: f64,
    /// How close a key must come to another to be ordered exactly: [`CLOSE`] of the reach.
    margin: f64,
    /// Whether every `k·h` of the axis is exact in `f64` (a cell size of at most 24 significant
    /// bits, as every `f32` has, and fewer than `2^29` cells), so needs no TwoProduct.
    exact_offsets: bool,
    products: Products,
}

impl Axis {
    /// The axis of `cells` cells whose planes start at `min`, `size` apart, for a line through
    /// `origin` along `dir` (its stored direction's component).
    pub(crate) fn new(
        origin: f64,
        min: f64,
        size: f64,
        cells: usize,
        dir: f64,
        products: Products,
    ) -> Self {
        let reach = origin.abs() + min.abs() + cells as f64 * size;
        let (d, f) = two_sum(origin, -min);
        /// The significand bits below the 24 of an `f32`.
        const BELOW_F32: u64 = (1 << 29) - 1;
        Axis {
            from_min: (d, f),
            size,
            dir,
            inv: 1.0 / dir,
            margin: reach / dir.abs() * CLOSE,
            exact_offsets: size.is_normal() && size.to_bits() & BELOW_F32 == 0 && cells < 1 << 29,
            products,
        }
    }

    /// The stored direction's component.
    pub(crate) fn dir(&self) -> f64 {
        self.dir
    }

    /// See [`Axis::near`].
    pub(crate) fn margin(&self) -> f64 {
        self.margin
    }

    /// `k·h` as an exact pair ([`Planes::offset`]).
    #[inline(always)]
    fn offset(&self, k: usize) -> (f64, f64) {
        self.planes().offset(plane_number(k), self.size)
    }

    /// The values [`Axis::crossing`] computes from, for a walk that computes crossings of
    /// several lines at once (`src/grid/lanes.rs`).
    #[inline(always)]
    pub(crate) fn planes(&self) -> Planes {
        Planes {
            exact_offsets: self.exact_offsets,
            products: self.products,
        }
    }

    /// `o − min` as an exact pair.
    #[inline(always)]
    pub(crate) fn origin_offset(&self) -> (f64, f64) {
        self.from_min
    }

    /// The cell size.
    #[inline(always)]
    pub(crate) fn size(&self) -> f64 {
        self.size
    }

    /// `1 / dir`, rounded.
    #[inline(always)]
    pub(crate) fn inv(&self) -> f64 {
        self.inv
    }

    /// How plane `k` lies against the origin on this axis, exactly: `Less` where it lies below.
    pub(crate) fn plane_vs_origin(&self, k: usize) -> Ordering {
        let (p, e) = self.offset(k);
        let (d, f) = self.from_min;
        by_value(p, d).then(by_value(e, f))
    }

    /// How the crossing of this axis's plane `k` (whose [`Axis::crossing`] is `key`) lies along
    /// the line against that of `other`'s plane `j` (key `other_key`), exactly: `Less` where it
    /// comes first.
    pub(crate) fn compare(
        &self,
        k: usize,
        key: f64,
        other: &Axis,
        j: usize,
        other_key: f64,
    ) -> Ordering {
        if !self.near(key, other, other_key) {
            return key.total_cmp(&other_key);
        }
        // N_k / n_self against N_j / n_other: the sign of N_k·n_other − N_j·n_self, turned where
        // the two directions' components differ in sign.
        let mut sum = Expansion::<4>::default();
        for (terms, by, sign) in [
            (self.offset_terms(k), other.dir, 1.0),
            (other.offset_terms(j), self.dir, -1.0),
        ] {
            for t in terms {
                let (p, e) = two_product(t, by, self.products);
                sum.add(sign * p);
                sum.add(sign * e);
            }
        }
        let order = sum.sign();
        if (self.dir < 0.0) != (other.dir < 0.0) {
            order.reverse()
        } else {
            order
        }
    }

    /// How the crossing of plane `k` lies along the line against the origin (parameter 0),
    /// exactly.
    pub(crate) fn compare_origin(&self, k: usize) -> Ordering {
        // The crossing is the offset over the direction: behind the origin where the plane lies
        // below it and the line runs up, or above it and the line runs down.
        let below = self.plane_vs_origin(k);
        if self.dir < 0.0 {
            below.reverse()
        } else {
            below
        }
    }

    /// The offset `k·h − (o − min)` as four exact terms.
    fn offset_terms(&self, k: usize) -> [f64; 4] {
        let (p, e) = self.offset(k);
        let (d, f) = self.from_min;
        [p, e, -d, -f]
    }

    /// The parameter along the stored direction at which the line crosses plane `k` (see the
    /// module's documentation), `+0.0` rather than `−0.0`; infinite where it overflows.
    #[inline(always)]
    pub(crate) fn crossing(&self, k: usize) -> f64 {
        let (d, f) = self.from_min;
        self.planes()
            .crossing(plane_number(k), self.size, d, f, self.inv)
    }

    /// Whether the keys of two crossings (of this axis and of `other`) are too close to order
    /// by their values (or both infinite). An infinite key stands for a crossing beyond `f64`'s
    /// range: past every finite one.
    #[inline(always)]
    pub(crate) fn near(&self, key: f64, other: &Axis, other_key: f64) -> bool {
        !((key - other_key).abs() > self.margin + other.margin)
    }
}

/// Plane `k`'s number as a float: `k` as a signed integer converts in one instruction, and every
/// plane's `k` is below 2^53 (the walk's plane past the grid's bottom, `usize::MAX`, is then −1:
/// beyond the exit either way, which the walk never passes).
#[inline(always)]
pub(crate) fn plane_number(k: usize) -> f64 {
    k as i64 as f64
}

/// How an axis's crossings are computed, in one lane or several ([`Lane`]): the same operations,
/// so the same bits, either way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Planes {
    /// Whether every `k·h` is exact in `f64` ([`Axis`]).
    exact_offsets: bool,
    products: Products,
}

impl Planes {
    /// `k·h` for plane number `k` (a whole number) and cell size `size`, as an exact pair (its
    /// low part dropped only where the product's error falls outside the range that TwoProduct
    /// handles, for cell sizes beyond `2^995`).
    #[inline(always)]
    pub(crate) fn offset<L: Lane>(self, k: L, size: L) -> (L, L) {
        if self.exact_offsets {
            return (k * size, L::splat(0.0));
        }
        let (p, e) = two_product(k, size, self.products);
        let finite = e.abs().lt(L::splat(f64::INFINITY));
        (p, L::select(finite, e, L::splat(0.0)))
    }

    /// The parameter along the stored direction at which the line crosses plane number `k`
    /// ([`Axis::crossing`]), for the cell size `size`, `o − min = d + f` and the direction's
    /// reciprocal `inv`.
    #[inline(always)]
    pub(crate) fn crossing<L: Lane>(self, k: L, size: L, d: L, f: L, inv: L) -> L {
        let (p, e) = self.offset(k, size);
        let (s, t) = two_sum(p, -d);
        // An infinite `s` leaves the rest NaN: the offset is then `s`.
        let offset = s + (t + (e - f));
        let offset = L::select(offset.eq(offset), offset, s);
        offset * inv + L::splat(0.0)
    }
}

/// How `a` compares with `b` by value: `-0.0` and `0.0` are equal (an exact product's error can be
/// either), and a NaN (the lost error of an overflowing sum) is equal to everything.
fn by_value(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b).unwrap_or(Ordering::Equal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plane_through_the_origin_is_found_exactly() {
        // 0.1 is not a binary fraction: plane 3 of a grid at -0.2 with cells 0.1 lies at
        // 0.1 (to within rounding), and the origin at fl(0.1) is compared with it exactly.
        let axis = Axis::new(0.1, -0.2, 0.1, 5, 1.0, Products::Split);
        // -0.2 + k·0.1 with the f64 values, exactly, against 0.1, in units of 2^-60 (both are
        // whole numbers of them).
        let unit = (-60f64).exp2();
        let exact = |k: i128| {
            let plane = (-0.2f64 / unit) as i128 + k * (0.1f64 / unit) as i128;
            plane.cmp(&((0.1f64 / unit) as i128))
        };
        for k in 0..6 {
            assert_eq!(axis.plane_vs_origin(k), exact(k as i128), "plane {k}");
        }
        // fl(0.2) is 2·fl(0.1), so plane 3 lies exactly on the origin, where the rounded
        // arithmetic -0.2 + 3·0.1 puts it 2^-55 above.
        assert_eq!(axis.plane_vs_origin(3), Ordering::Equal);
        assert!(std::hint::black_box(-0.2f64) + 3.0 * 0.1 > 0.1);
    }

    /// Dekker's product gives `1·h` an error of `-0.0`, TwoSum `o − min` one of `0.0`: the plane
    /// through the origin is still on it (a comparison by `total_cmp` put it below).
    #[test]
    fn signed_zero_errors_compare_equal() {
        let (o, min, h) = (3.5872732139177237, 2.128637709010982, 1.4586355049067419);
        assert_eq!(o - min, h);
        for products in [Products::Split, Products::Fused] {
            let axis = Axis::new(o, min, h, 1, 0.0, products);
            assert_eq!(axis.plane_vs_origin(1), Ordering::Equal, "{products:?}");
        }
    }

    #[test]
    fn crossings_are_the_offsets_over_the_direction() {
        let axis = Axis::new(0.25, -1.0, 0.5, 3, -0.5, Products::Fused);
        assert_eq!(axis.crossing(0), 2.5);
        assert_eq!(axis.crossing(3), -0.5);
        // A plane through the origin is crossed at +0.0, never -0.0.
        let through = Axis::new(0.5, 0.0, 0.5, 2, -1.0, Products::Split);
        assert_eq!(through.crossing(1).to_bits(), 0.0f64.to_bits());
    }
}

#[cfg(test)]
mod order {
    use super::*;

    /// Crossings a rounding apart, decided exactly: the line from (0.1, 0.3) along (1, 1) (both
    /// components the same bits) meets x = 0.3 and y = 0.5 at parameters whose rounded keys tie
    /// or flip, while the exact offsets 0.3 − 0.1 and 0.5 − 0.3 differ in their last bits.
    #[test]
    fn near_ties_are_decided_exactly() {
        let n = core::f64::consts::FRAC_1_SQRT_2;
        for products in [Products::Split, Products::Fused] {
            let x = Axis::new(0.1, 0.0, 0.1, 10, n, products);
            let y = Axis::new(0.3, 0.0, 0.1, 10, n, products);
            // Plane 3 of x is 3·fl(0.1); plane 5 of y is 5·fl(0.1).
            let order = x.compare(3, x.crossing(3), &y, 5, y.crossing(5));
            // 3·fl(0.1) − fl(0.1) = 2·fl(0.1), exactly; 5·fl(0.1) − fl(0.3) = 2·fl(0.1) + 2^-54·k
            // for the f64 values: compare them in integers of 2^-60.
            let unit = (-60f64).exp2();
            let tenth = (0.1f64 / unit) as i128;
            let expected = (2 * tenth).cmp(&(5 * tenth - (0.3f64 / unit) as i128));
            assert_eq!(order, expected, "{products:?}");
            assert_eq!(
                y.compare(5, y.crossing(5), &x, 3, x.crossing(3)),
                expected.reverse()
            );
            assert_eq!(
                x.compare(3, x.crossing(3), &x, 3, x.crossing(3)),
                Ordering::Equal
            );
        }
    }
}
