//! A line against an axis-aligned box: the slab method with closed-set semantics.
//!
//! Kay and Kajiya's slabs ("Ray tracing complex scenes", SIGGRAPH 1986), in the form of Williams,
//! Barrus, Morley and Shirley ("An efficient and robust ray-box intersection algorithm", JGT 10(1),
//! 2005): per axis the line is inside the slab `min ≤ x ≤ max` between
//! `(min − o)/n` and `(max − o)/n`, and the box is the intersection of the slabs.
//!
//! Where the division by a zero direction component would give `0/0` (the origin on a plane) or
//! `±∞` (the line parallel to the slab), the axis is decided exactly instead: a parallel line lies
//! in the closed slab or misses the box, with no arithmetic at all. So a ray along a face hits, and
//! one an ulp outside it misses. The sign of `(bound − o)/n` is exact, so whether the origin is in
//! the box is decided exactly too.

use nalgebra::SVector;

/// Where a line crosses a closed box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LineBox {
    /// Distance to the entry; negative when the entry lies behind the origin.
    pub(crate) enter: f64,
    /// Distance to the exit.
    pub(crate) exit: f64,
    /// The axis whose face the line enters through.
    pub(crate) axis: usize,
    /// Whether the origin lies in the closed box.
    pub(crate) inside: bool,
}

/// The crossing of the line `o + t·n` (`n` unit, distances along it) with the closed box
/// `[min, max]`; `None` when the line misses the box (or an input is not finite).
#[inline]
pub(crate) fn line_box<const D: usize>(
    o: &SVector<f64, D>,
    n: &SVector<f64, D>,
    min: &SVector<f64, D>,
    max: &SVector<f64, D>,
) -> Option<LineBox> {
    let mut enter = f64::NEG_INFINITY;
    let mut exit = f64::INFINITY;
    let mut axis = 0;
    for i in 0..D {
        if n[i] == 0.0 {
            if !(o[i] >= min[i] && o[i] <= max[i]) {
                return None;
            }
            continue;
        }
        let to_min = (min[i] - o[i]) / n[i];
        let to_max = (max[i] - o[i]) / n[i];
        let (near, far) = if n[i] > 0.0 {
            (to_min, to_max)
        } else {
            (to_max, to_min)
        };
        if near > enter {
            enter = near;
            axis = i;
        }
        exit = exit.min(far);
    }
    if !(enter <= exit) {
        return None;
    }
    Some(LineBox {
        enter,
        exit,
        axis,
        inside: enter <= 0.0 && exit >= 0.0,
    })
}

/// The entry point of a crossing: exactly on the entry face's plane, and inside the face's closed
/// rectangle (the other coordinates are clamped to the box, which only removes rounding).
#[inline]
pub(crate) fn entry_point<const D: usize>(
    x: &LineBox,
    o: &SVector<f64, D>,
    n: &SVector<f64, D>,
    min: &SVector<f64, D>,
    max: &SVector<f64, D>,
) -> SVector<f64, D> {
    let mut p = SVector::zeros();
    for j in 0..D {
        p[j] = if j == x.axis {
            if n[j] > 0.0 { min[j] } else { max[j] }
        } else {
            (o[j] + x.enter * n[j]).clamp(min[j], max[j])
        };
    }
    p
}

/// The outward normal of the entry face.
#[inline]
pub(crate) fn entry_normal<const D: usize>(x: &LineBox, n: &SVector<f64, D>) -> SVector<f64, D> {
    let mut v = SVector::zeros();
    v[x.axis] = -n[x.axis].signum();
    v
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
        assert_eq!((x.enter, x.exit, x.axis), (2.0, 4.0, 0));
        assert!(line_box(&Vector2::new(-3.0, 1f64.next_up()), &n, &lo, &hi).is_none());
    }

    #[test]
    fn origin_on_a_plane_with_zero_component_is_not_nan() {
        let (lo, hi) = unit_box();
        let x = line_box(&Vector2::new(-1.0, -1.0), &Vector2::new(0.0, 1.0), &lo, &hi).unwrap();
        assert_eq!((x.enter, x.exit, x.inside), (0.0, 2.0, true));
    }

    #[test]
    fn corner_touch_is_a_hit() {
        let (lo, hi) = unit_box();
        let n = Vector2::new(1.0, 1.0).normalize();
        let x = line_box(&Vector2::new(-2.0, 0.0), &n, &lo, &hi).unwrap();
        assert_eq!(x.enter, x.exit);
    }
}
