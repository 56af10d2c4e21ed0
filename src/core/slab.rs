//! A line against an axis-aligned box: the slab method with closed-set semantics.
//!
//! Kay and Kajiya's slabs ("Ray tracing complex scenes", SIGGRAPH 1986), in the form of Williams,
//! Barrus, Morley and Shirley ("An efficient and robust ray-box intersection algorithm", JGT 10(1),
//! 2005): per axis the line is inside the slab `min ≤ x ≤ max` between
//! `(min − o)/n` and `(max − o)/n`, and the box is the intersection of the slabs. As there, the
//! quotients are products with `1/n`: one division per axis rather than two, for one more
//! rounding (a relative error below `2^-52` rather than `2^-53`). `1/n` is finite for every
//! non-zero component of a ray's direction, as [`crate::Ray`] stores none below `2^-1022`.
//!
//! Where a zero direction component would give `0/0` (the origin on a plane) or `±∞` (the line
//! parallel to the slab), the axis is decided exactly instead: a parallel line lies in the closed
//! slab or misses the box, with no arithmetic at all. So a ray along a face hits, and one an ulp
//! outside it misses. The sign of `(bound − o)·(1/n)` is exact, so whether the origin is in the box
//! is decided exactly too.

use nalgebra::SVector;

use super::lane::{Lane, build};

/// Where a line crosses a closed box.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineBox<const D: usize, L: Lane = f64> {
    /// Parameter `t` of the entry (its distance for a unit direction); negative when the entry
    /// lies behind the origin.
    pub(crate) enter: L,
    /// Parameter of the exit.
    pub(crate) exit: L,
    /// Which axis's face the line enters through: set for that axis only.
    entry_axis: [L::Mask; D],
    /// Whether the origin lies in the closed box.
    pub(crate) inside: L::Mask,
}

/// The crossing of the line `o + t·n` with the closed box `[min, max]`, as parameters `t`
/// (distances for a unit `n`), in each lane: the lanes where the line meets the box (not where an
/// input is not finite), and the crossing there. No non-zero component of `n` may be below
/// `2^-1022` in magnitude (as in a ray's direction), so that its reciprocal is finite. Unless
/// `may_be_parallel`, no component of `n` may be zero either: the parallel-slab case is then
/// left out, with the same result.
///
/// The slab's entry and exit are the smaller and the larger of its two quotients (rounding keeps
/// their order), not a choice by the sign of `n`: the compiler makes such a choice a branch in
/// the single cast, which mispredicts on rays the processor has not seen before (about two
/// mispredictions per 3D cast; docs/performance.md, "Fresh rays").
#[inline(always)]
pub(crate) fn line_box_lanes<L: Lane, const D: usize>(
    o: &[L; D],
    n: &[L; D],
    min: &[L; D],
    max: &[L; D],
    may_be_parallel: bool,
) -> (L::Mask, LineBox<D, L>) {
    let zero = L::splat(0.0);
    let inv: [L; D] = build(|i| L::splat(1.0) / n[i]);
    let mut enter = L::splat(f64::NEG_INFINITY);
    let mut exit = L::splat(f64::INFINITY);
    let mut meets = zero.le(zero);
    // The axis of the latest entry so far (−1 before any), as a lane value: one select per axis
    // instead of a mask per axis to update.
    let mut axis = L::splat(-1.0);
    for i in 0..D {
        let to_min = (min[i] - o[i]) * inv[i];
        let to_max = (max[i] - o[i]) * inv[i];
        let (mut near, mut far) = (to_min.min(to_max), to_min.max(to_max));
        if may_be_parallel {
            // A line parallel to the slab lies in it or misses the box; the quotients are then
            // 0/0 or ±∞ and left out.
            let parallel = n[i].eq(zero);
            meets = meets & (!parallel | (min[i].le(o[i]) & o[i].le(max[i])));
            near = L::select(parallel, L::splat(f64::NEG_INFINITY), near);
            far = L::select(parallel, L::splat(f64::INFINITY), far);
        }
        let later = enter.lt(near);
        enter = L::select(later, near, enter);
        axis = L::select(later, L::splat(i as f64), axis);
        exit = far.min(exit);
    }
    let x = LineBox {
        enter,
        exit,
        entry_axis: build(|i| axis.eq(L::splat(i as f64))),
        inside: enter.le(zero) & zero.le(exit),
    };
    (meets & enter.le(exit), x)
}

/// `n` with its components below `2^-1022` in magnitude (`f64` subnormals) set to zero, as the
/// slab needs: their reciprocals could overflow. For a unit `n` this moves the line by less than
/// `|t|·2^-1022` at parameter `t`.
#[inline]
pub(crate) fn without_subnormals<const D: usize>(n: &SVector<f64, D>) -> SVector<f64, D> {
    n.map(|c| if c.abs() < f64::MIN_POSITIVE { 0.0 } else { c })
}

/// [`line_box_lanes`] for one line; `None` when it misses the box. The parallel-slab case is
/// taken only for a line with a zero direction component (one well-predicted branch).
#[inline(always)]
pub(crate) fn line_box<const D: usize>(
    o: &SVector<f64, D>,
    n: &SVector<f64, D>,
    min: &SVector<f64, D>,
    max: &SVector<f64, D>,
) -> Option<LineBox<D>> {
    debug_assert_eq!(*n, without_subnormals(n));
    let parallel = n.iter().any(|c| *c == 0.0);
    let (meets, x) = line_box_lanes::<f64, D>(
        &(*o).into(),
        &(*n).into(),
        &(*min).into(),
        &(*max).into(),
        parallel,
    );
    meets.then_some(x)
}

impl<const D: usize, L: Lane> LineBox<D, L> {
    /// The entry point of a crossing: exactly on the entry face's plane, and inside the face's
    /// closed rectangle (the other coordinates are clamped to the box, which only removes
    /// rounding).
    #[inline(always)]
    pub(crate) fn entry_point_lanes(
        &self,
        o: &[L; D],
        n: &[L; D],
        min: &[L; D],
        max: &[L; D],
    ) -> [L; D] {
        let zero = L::splat(0.0);
        build(|j| {
            let plane = L::select(zero.lt(n[j]), min[j], max[j]);
            let x = o[j] + self.enter * n[j];
            // `max` where it is below `x`, then `min` where that is above (a NaN `x` passes
            // through): for one lane, `minsd` and `maxsd` rather than masks or branches.
            let clamped = min[j].max(max[j].min(x));
            L::select(self.entry_axis[j], plane, clamped)
        })
    }

    /// The outward normal of the entry face: `∓1` on the entry axis, against the direction.
    #[inline(always)]
    pub(crate) fn entry_normal_lanes(&self, n: &[L; D]) -> [L; D] {
        let zero = L::splat(0.0);
        build(|j| {
            let against = L::select(zero.lt(n[j]), L::splat(-1.0), L::splat(1.0));
            L::select(self.entry_axis[j], against, zero)
        })
    }
}

/// [`LineBox::entry_point_lanes`] for one line.
#[inline]
pub(crate) fn entry_point<const D: usize>(
    x: &LineBox<D>,
    o: &SVector<f64, D>,
    n: &SVector<f64, D>,
    min: &SVector<f64, D>,
    max: &SVector<f64, D>,
) -> SVector<f64, D> {
    x.entry_point_lanes(&(*o).into(), &(*n).into(), &(*min).into(), &(*max).into())
        .into()
}

/// [`LineBox::entry_normal_lanes`] for one line.
#[inline]
pub(crate) fn entry_normal<const D: usize>(x: &LineBox<D>, n: &SVector<f64, D>) -> SVector<f64, D> {
    x.entry_normal_lanes(&(*n).into()).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector2;

    fn unit_box() -> (Vector2<f64>, Vector2<f64>) {
        (Vector2::new(-1.0, -1.0), Vector2::new(1.0, 1.0))
    }

    #[test]
    fn axis_parallel_on_a_face_hits_and_one_ulp_outside_misses() {
        let (lo, hi) = unit_box();
        let n = Vector2::new(1.0, 0.0);
        let x = line_box(&Vector2::new(-3.0, 1.0), &n, &lo, &hi).unwrap();
        assert_eq!((x.enter, x.exit, x.entry_axis), (2.0, 4.0, [true, false]));
        assert!(line_box(&Vector2::new(-3.0, 1f64.next_up()), &n, &lo, &hi).is_none());
    }

    #[test]
    fn origin_on_a_plane_with_zero_component_is_not_nan() {
        let (lo, hi) = unit_box();
        let x = line_box(&Vector2::new(-1.0, -1.0), &Vector2::new(0.0, 1.0), &lo, &hi).unwrap();
        assert_eq!((x.enter, x.exit, x.inside), (0.0, 2.0, true));
    }

    /// The entry and exit of the textbook slab test, each slab's quotients chosen by the sign of
    /// its direction component (no component may be zero), the earliest axis winning a tie.
    fn by_sign(o: &[f64; 3], n: &[f64; 3], min: &[f64; 3], max: &[f64; 3]) -> (f64, f64, usize) {
        let (mut enter, mut exit, mut axis) = (f64::NEG_INFINITY, f64::INFINITY, 0);
        for i in 0..3 {
            let inv = 1.0 / n[i];
            let (to_min, to_max) = ((min[i] - o[i]) * inv, (max[i] - o[i]) * inv);
            let (near, far) = if n[i] > 0.0 {
                (to_min, to_max)
            } else {
                (to_max, to_min)
            };
            if enter < near {
                (enter, axis) = (near, i);
            }
            exit = if far < exit { far } else { exit };
        }
        (enter, exit, axis)
    }

    #[test]
    fn quotients_ordered_by_value_are_the_choice_by_sign_with_or_without_the_parallel_case() {
        // Lines in every octant, some far from a box thinner than the spacing of their quotients
        // (whose two quotients then round to the same value).
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for k in 0..20_000 {
            let far = if k % 4 == 0 { 1e17 } else { 10.0 };
            let o: [f64; 3] = core::array::from_fn(|_| uniform() * far);
            let n: [f64; 3] = core::array::from_fn(|_| uniform());
            if n.iter().any(|c| c.abs() < 1e-3) {
                continue;
            }
            let centre: [f64; 3] = core::array::from_fn(|_| uniform());
            let half: [f64; 3] = core::array::from_fn(|i| (uniform() + 1.0) * [1.0, 1e-9, 0.0][i]);
            let min = core::array::from_fn(|i| centre[i] - half[i]);
            let max = core::array::from_fn(|i| centre[i] + half[i]);
            let (meets, x) = line_box_lanes::<f64, 3>(&o, &n, &min, &max, true);
            let (fast_meets, fast) = line_box_lanes::<f64, 3>(&o, &n, &min, &max, false);
            let (enter, exit, axis) = by_sign(&o, &n, &min, &max);
            let bits =
                |x: &LineBox<3>| (x.enter.to_bits(), x.exit.to_bits(), x.entry_axis, x.inside);
            assert_eq!((meets, bits(&x)), (fast_meets, bits(&fast)), "{o:?} {n:?}");
            assert_eq!(
                (x.enter.to_bits(), x.exit.to_bits()),
                (enter.to_bits(), exit.to_bits())
            );
            assert!(
                x.entry_axis[axis],
                "{o:?} {n:?}: entry axis {axis}, not {:?}",
                x.entry_axis
            );
        }
    }

    #[test]
    fn corner_touch_is_a_hit() {
        let (lo, hi) = unit_box();
        let n = Vector2::new(1.0, 1.0).normalize();
        let x = line_box(&Vector2::new(-2.0, 0.0), &n, &lo, &hi).unwrap();
        assert_eq!(x.enter, x.exit);
    }
}
