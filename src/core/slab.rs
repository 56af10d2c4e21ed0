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
//! A zero direction component makes its quotients `±∞` (the line parallel to the slab) or NaN
//! (`0·∞`, the line in one of the slab's planes); [`Zeros`] says how each is decided, exactly
//! either way: a parallel line lies in the closed slab or misses the box. So a ray along a face
//! hits, and one an ulp outside it misses. The sign of `(bound − o)·(1/n)` is exact, so whether
//! the origin is in the box is decided exactly too.

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

/// How [`line_box_lanes`] treats a zero direction component, whose quotients are `±∞` (the line
/// parallel to the slab) or NaN (`0·∞`, the line in one of the slab's planes). Each gives the
/// same bits (`tests` below); they differ in what the compiler makes of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Zeros {
    /// There is none: the case is left out.
    Absent,
    /// The axis is decided by whether the origin lies in the closed slab, with no arithmetic,
    /// and its quotients are left out: the single cast's way, for a direction with a zero
    /// component only (one well-predicted branch picks it). Deciding it in the quotients instead,
    /// the compiler made different code of the single cast for every direction, slower on the
    /// benchmark's rays (f64 box loop 31.3 → 39.2 cycles per cast).
    Decided,
    /// The quotients decide it, as in Williams et al.: the reciprocal of a zero component is
    /// `+∞` (a ray stores no `−0`, [`without_subnormals`]), so the quotients are `∓∞` where the
    /// origin lies strictly between the planes (no constraint) and equal infinities where it lies
    /// outside (a miss). On the upper plane `to_max` is NaN, which the slab's exit (a maximum
    /// giving its second operand where either is NaN) keeps and the line's exit, a minimum with
    /// the NaN first, leaves out; on the lower plane `to_min` is NaN, which one more minimum, with
    /// `to_min` second, makes the slab's entry, and which the line's entry, updated only where a
    /// slab's entry is greater, leaves out. One minimum per axis, against a test and two selects:
    /// the batch's way, whose lanes would all pay for the case (f32 box batch 22.1 → 19.2 cycles
    /// per ray).
    InQuotients,
}

/// The crossing of the line `o + t·n` with the closed box `[min, max]`, as parameters `t`
/// (distances for a unit `n`), in each lane: the lanes where the line meets the box (not where an
/// input is not finite), and the crossing there. No component of `n` may be `−0` or below
/// `2^-1022` in magnitude but not zero (as in a ray's direction, [`without_subnormals`]), so that
/// its reciprocal is finite or `+∞`; with [`Zeros::Absent`], none may be zero.
///
/// The slab's entry and exit are the smaller and the larger of its two quotients (rounding keeps
/// their order), not a choice by the sign of `n`: the compiler makes such a choice a branch in
/// the single cast, which mispredicts on rays the processor has not seen before (about two
/// mispredictions per 3D cast).
#[inline(always)]
pub(crate) fn line_box_lanes<L: Lane, const D: usize>(
    o: &[L; D],
    n: &[L; D],
    min: &[L; D],
    max: &[L; D],
    zeros: Zeros,
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
        match zeros {
            Zeros::Absent => {}
            Zeros::Decided => {
                // A line parallel to the slab lies in it or misses the box; the quotients are
                // then 0/0 or ±∞ and left out.
                let parallel = n[i].eq(zero);
                meets = meets & (!parallel | (min[i].le(o[i]) & o[i].le(max[i])));
                near = L::select(parallel, L::splat(f64::NEG_INFINITY), near);
                far = L::select(parallel, L::splat(f64::INFINITY), far);
            }
            // `min` gives its second operand where either is NaN: `to_min` if it is NaN.
            Zeros::InQuotients => near = near.min(to_min),
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

/// `n` with its components below `2^-1022` in magnitude (`f64` subnormals, and `−0`) set to `+0`,
/// as the slab needs: their reciprocals could overflow, and that of `−0` is `−∞`, with which
/// [`Zeros::InQuotients`] would not leave out a NaN quotient. For a unit `n` this moves the line
/// by less than `|t|·2^-1022` at parameter `t`.
#[inline(always)]
pub(crate) fn without_subnormals<const D: usize>(n: &SVector<f64, D>) -> SVector<f64, D> {
    let mut kept = *n;
    for c in kept.iter_mut() {
        if c.abs() < f64::MIN_POSITIVE {
            *c = 0.0;
        }
    }
    kept
}

/// [`line_box_lanes`] for one line; `None` when it misses the box. A zero direction component is
/// [`Zeros::Decided`], only for a line that has one (one well-predicted branch).
#[inline(always)]
pub(crate) fn line_box<const D: usize>(
    o: &SVector<f64, D>,
    n: &SVector<f64, D>,
    min: &SVector<f64, D>,
    max: &SVector<f64, D>,
) -> Option<LineBox<D>> {
    debug_assert!(
        n.iter()
            .zip(without_subnormals(n).iter())
            .all(|(c, kept)| c.to_bits() == kept.to_bits()),
        "a direction component is -0 or subnormal: {n:?}"
    );
    let zeros = if n.iter().any(|c| *c == 0.0) {
        Zeros::Decided
    } else {
        Zeros::Absent
    };
    let (meets, x) = line_box_lanes::<f64, D>(
        &(*o).into(),
        &(*n).into(),
        &(*min).into(),
        &(*max).into(),
        zeros,
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
    /// its direction component, a zero component deciding its axis by whether the origin lies in
    /// the closed slab (no arithmetic), the earliest axis winning a tie: `None` for a miss.
    fn by_sign(
        o: &[f64; 3],
        n: &[f64; 3],
        min: &[f64; 3],
        max: &[f64; 3],
    ) -> Option<(f64, f64, usize)> {
        let (mut enter, mut exit, mut axis) = (f64::NEG_INFINITY, f64::INFINITY, 0);
        for i in 0..3 {
            if n[i] == 0.0 {
                if o[i] < min[i] || max[i] < o[i] {
                    return None;
                }
                continue;
            }
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
        (enter <= exit).then_some((enter, exit, axis))
    }

    #[test]
    fn quotients_ordered_by_value_are_the_choice_by_sign_and_zero_components_the_closed_slab() {
        // Lines in every octant, some far from a box thinner than the spacing of their quotients
        // (whose two quotients then round to the same value), some with zero direction components
        // and origins on, between and beside the planes of those axes, including a flat box.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let (mut parallel, mut on_plane) = (0, 0);
        for k in 0..40_000 {
            let far = if k % 4 == 0 { 1e17 } else { 10.0 };
            let mut o: [f64; 3] = core::array::from_fn(|_| uniform() * far);
            let mut n: [f64; 3] = core::array::from_fn(|_| uniform());
            if n.iter().any(|c| c.abs() < 1e-3) {
                continue;
            }
            let centre: [f64; 3] = core::array::from_fn(|_| uniform());
            let half: [f64; 3] = core::array::from_fn(|i| (uniform() + 1.0) * [1.0, 1e-9, 0.0][i]);
            let min: [f64; 3] = core::array::from_fn(|i| centre[i] - half[i]);
            let max: [f64; 3] = core::array::from_fn(|i| centre[i] + half[i]);
            if k % 2 == 1 {
                // Zero components on one or two axes, the origin on a plane, between or beside.
                parallel += 1;
                for i in [k / 2 % 3, (k / 2 + 1 + k / 6 % 2) % 3] {
                    n[i] = 0.0;
                    let pick = uniform();
                    o[i] = if pick < -0.5 {
                        min[i]
                    } else if pick < 0.0 {
                        max[i]
                    } else if pick < 0.5 {
                        centre[i]
                    } else {
                        max[i] + 1e-3
                    };
                    on_plane += usize::from(pick < 0.0);
                }
            }
            let bits =
                |x: &LineBox<3>| (x.enter.to_bits(), x.exit.to_bits(), x.entry_axis, x.inside);
            let (meets, x) = line_box_lanes::<f64, 3>(&o, &n, &min, &max, Zeros::InQuotients);
            if k % 2 == 0 {
                // Without zero components the parallel case may be left out, with the same bits.
                let (fast_meets, fast) =
                    line_box_lanes::<f64, 3>(&o, &n, &min, &max, Zeros::Absent);
                assert_eq!((meets, bits(&x)), (fast_meets, bits(&fast)), "{o:?} {n:?}");
            }
            // The single cast's way with zero components, the same bits where the line meets.
            let (decided_meets, decided) =
                line_box_lanes::<f64, 3>(&o, &n, &min, &max, Zeros::Decided);
            assert_eq!(decided_meets, meets, "{o:?} {n:?} {min:?} {max:?}");
            if meets {
                assert_eq!(bits(&decided), bits(&x), "{o:?} {n:?} {min:?} {max:?}");
            }
            let expected = by_sign(&o, &n, &min, &max);
            assert_eq!(meets, expected.is_some(), "{o:?} {n:?} {min:?} {max:?}");
            let Some((enter, exit, axis)) = expected else {
                continue;
            };
            assert_eq!(
                (x.enter.to_bits(), x.exit.to_bits()),
                (enter.to_bits(), exit.to_bits()),
                "{o:?} {n:?} {min:?} {max:?}"
            );
            assert!(
                x.entry_axis[axis],
                "{o:?} {n:?}: entry axis {axis}, not {:?}",
                x.entry_axis
            );
        }
        assert!(
            parallel > 10_000 && on_plane > 5_000,
            "{parallel} {on_plane}"
        );
    }

    #[test]
    fn corner_touch_is_a_hit() {
        let (lo, hi) = unit_box();
        let n = Vector2::new(1.0, 1.0).normalize();
        let x = line_box(&Vector2::new(-2.0, 0.0), &n, &lo, &hi).unwrap();
        assert_eq!(x.enter, x.exit);
    }
}
