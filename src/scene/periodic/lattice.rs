//! The lattice of a periodic medium: exact lattice vectors, points moved by them, and the images
//! whose bodies can reach a region.
//!
//! Image `k` holds every body translated by `v = k ∘ size` (`k[a] · size[a]` on each axis `a`).
//! A point `p` is as far from a body translated by `v` as `p − v` is from the body itself, so a
//! query of image `k` is the plain scene's query at `p − v`, and only that subtraction can round.
//! Each `k[a] · size[a]` is formed exactly as a pair of `f64`s by an error-free product (`f32`
//! and `f64` sizes alike; `|k| < 2^53` is exact in `f64`): a [`Vector`], which
//! `crate::scene::moved` takes as any offset, subtracting it by two-sums (Ogita, Rump and Oishi,
//! "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6), 2005).
//!
//! Where `p − v` is a value of the width, the moved point is that value exactly, so the answer is
//! the untranslated body's own, bit for bit. On each axis, with `v = h + l` exactly:
//! `(s, e) = two_sum(p, −h)` (so `p − h = s + e`), then `s + (e − l)`. Where the exact
//! `x = s + e − l` is a value of `f64`, this is `x`: if `p` and `h` lie within a factor of two of
//! each other, `s` is exact (Sterbenz), `e = 0` and the one rounding of `s − l` gives `x`;
//! otherwise `|x|` is at least about a quarter of `max(|p|, |h|)`, and the rounding of `e − l`
//! (at most `2^-53` of `|e| + |l|`, themselves at most half an ulp of `s` and of `h`) is far below
//! half an ulp of `x`, which the last rounding then removes. A value of `f32` is one of `f64`, so
//! the final rounding to the width gives `x` too.

use nalgebra::Point;
use num_traits::Float;

use crate::core::exact::{Products, two_product, two_sum};
use crate::real::Real;
use crate::scene::moved::Offset;

use super::Image;

/// The farthest image a periodic scene asks, in boxes from the point on each repeating axis.
pub const REACH_BOXES: i64 = 1 << 20;

/// [`REACH_BOXES`] in `f64`.
const REACH: f64 = REACH_BOXES as f64;

/// The largest `|k|` asked: beyond it `k` and its multiples are not exact in `f64`.
pub(crate) const LIMIT: f64 = (1u64 << 52) as f64;

/// Image `k`'s lattice vector `v = k ∘ size`, exact on each axis as a pair of `f64`s: an
/// error-free product of `k[a]` (exact in `f64` below `2^53`) and the size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vector<const D: usize> {
    pairs: [(f64, f64); D],
}

impl<const D: usize> Vector<D> {
    /// `k ∘ size`.
    pub(crate) fn of(k: &Image<D>, size: &[f64; D], products: Products) -> Self {
        Vector {
            pairs: core::array::from_fn(|a| two_product(k[a] as f64, size[a], products)),
        }
    }

    /// `p + v` on each axis, rounded once: with `v = h + l`, `(s, e) = two_sum(p, h)`, then
    /// `s + (e + l)`, which is `p + v` exactly wherever that is a value of `f64` (the argument
    /// of the module's documentation, with `−v` for `v`).
    fn plus(&self, p: impl Fn(usize) -> f64) -> [f64; D] {
        core::array::from_fn(|a| {
            let (h, l) = self.pairs[a];
            let (s, e) = two_sum(p(a), h);
            s + (e + l)
        })
    }
}

impl<T: Real, const D: usize> Offset<T, D> for Vector<D> {
    fn pair(&self, axis: usize) -> (f64, f64) {
        self.pairs[axis]
    }

    fn place(&self, p: &Point<T, D>) -> Point<T, D> {
        Point::from(self.plus(|a| p[a].to_wide()).map(T::from_wide))
    }

    fn place_wide(&self, p: &Point<f64, D>) -> Point<T, D> {
        Point::from(self.plus(|a| p[a]).map(T::from_wide))
    }
}

/// The images whose box (`low..high`, the bodies' box, moved by the image's lattice vector) may
/// lie within `reach` of `p`, on each axis a range of `k` (`0..=0` on an axis that does not
/// repeat): those whose [`axis_gap`] is at most `reach`, never fewer. A range never leaves
/// `[-2^52, 2^52]` nor reaches farther than [`REACH_BOXES`] boxes from the point; it is empty
/// (`first > last`) where no image is near enough.
pub(crate) fn ranges<const D: usize>(
    p: &[f64; D],
    reach: f64,
    (low, high): (&[f64; D], &[f64; D]),
    size: &[f64; D],
    repeats: &[bool; D],
) -> [(i64, i64); D] {
    let reach = if reach.is_nan() { 0.0 } else { reach.max(0.0) };
    core::array::from_fn(|a| {
        if !repeats[a] {
            return (0, 0);
        }
        // `p − reach ≤ high + k·size` and `low + k·size ≤ p + reach`, in boxes, each widened
        // by one box for the roundings (far below a box while `|k| < 2^52`), then narrowed to
        // the images whose gap on this axis is within reach.
        let here = p[a] / size[a];
        let first = Float::floor((p[a] - high[a] - reach) / size[a]) - 1.0;
        let last = Float::ceil((p[a] - low[a] + reach) / size[a]) + 1.0;
        let clamp = |k: f64| {
            let k = if k.is_nan() { here } else { k };
            k.clamp(here - REACH, here + REACH).clamp(-LIMIT, LIMIT) as i64
        };
        let (mut first, mut last) = (clamp(first), clamp(last));
        let far = |k: i64| axis_gap(p[a], k, low[a], high[a], size[a]) > reach;
        while first <= last && far(first) {
            first += 1;
        }
        while last >= first && far(last) {
            last -= 1;
        }
        (first, last)
    })
}

/// A lower bound on the distance along one axis from `p` to the slab `low..high` moved by
/// `k · size` (`0` where the slab may hold `p`), below the exact one by a margin for the
/// roundings.
fn axis_gap(p: f64, k: i64, low: f64, high: f64, size: f64) -> f64 {
    let v = k as f64 * size;
    let below = low + v - p;
    let above = p - high - v;
    // The roundings of the sums and of `k · size`, generously.
    let margin = 8.0 * f64::EPSILON * (low.abs() + high.abs() + v.abs() + p.abs());
    (below.max(above) - margin).max(0.0)
}

/// The image that puts `p` nearest the middle of the box `low..high` on each repeating axis (`0`
/// on the others): the integer nearest `k* = (p − middle) / size`, held to `±2^52`; and whether
/// it is within 0.75 of `k*` on every repeating axis (not where `k*` lies beyond `2^52` or is
/// not finite).
pub(crate) fn centre<const D: usize>(
    p: &[f64; D],
    (low, high): (&[f64; D], &[f64; D]),
    size: &[f64; D],
    repeats: &[bool; D],
) -> (Image<D>, bool) {
    let mut centred = true;
    let k = core::array::from_fn(|a| {
        if !repeats[a] {
            return 0;
        }
        let x = (p[a] - 0.5 * (low[a] + high[a])) / size[a];
        let k = Float::round(x);
        if !k.is_finite() {
            centred = false;
            return 0;
        }
        let held = k.clamp(-LIMIT, LIMIT);
        centred &= (x - held).abs() <= 0.75;
        held as i64
    });
    (k, centred)
}

/// Whether no image but `centre` has its box (`low..high` moved by the image's lattice vector)
/// within `reach` of `p`, for `centre` within 0.75 of `k*` on every repeating axis ([`centre`]):
/// on each, the boxes of `centre[a] ± 1` lie beyond `reach`. The gap on an axis is the larger of
/// `low + k·size − p`, growing with `k`, and `p − high − k·size`, falling, which cross at `k*`:
/// it only grows away from `k*`, so every `k[a]` beyond `centre[a] ± 1` lies farther still, and
/// an image that differs from `centre` on some axis lies beyond `reach` on that axis alone. A
/// negative `reach` counts as 0: a box that may hold `p` may hold a body deeper around it.
pub(crate) fn alone<const D: usize>(
    p: &[f64; D],
    centre: &Image<D>,
    (low, high): (&[f64; D], &[f64; D]),
    size: &[f64; D],
    repeats: &[bool; D],
    reach: f64,
) -> bool {
    let reach = reach.max(0.0);
    (0..D).all(|a| {
        let gap = |k: i64| axis_gap(p[a], k, low[a], high[a], size[a]);
        !repeats[a] || (gap(centre[a] - 1) > reach && gap(centre[a] + 1) > reach)
    })
}

/// A lower bound on the distance from `p` to the box `low..high` moved by image `k`'s lattice
/// vector (`0` where it may hold the point), below the exact one by a margin for the roundings.
pub(crate) fn gap<const D: usize>(
    p: &[f64; D],
    k: &Image<D>,
    (low, high): (&[f64; D], &[f64; D]),
    size: &[f64; D],
) -> f64 {
    let squares: f64 = (0..D)
        .map(|a| {
            let g = axis_gap(p[a], k[a], low[a], high[a], size[a]);
            g * g
        })
        .sum();
    Float::sqrt(squares) * (1.0 - 4.0 * f64::EPSILON)
}

/// Every image of `ranges`, in increasing lexicographic order, given to `visit`.
pub(crate) fn each_image<const D: usize>(
    ranges: &[(i64, i64); D],
    mut visit: impl FnMut(&Image<D>),
) {
    if ranges.iter().any(|&(first, last)| first > last) {
        return;
    }
    let mut k: Image<D> = core::array::from_fn(|a| ranges[a].0);
    loop {
        visit(&k);
        // The next image: the last axis fastest.
        let mut a = D;
        loop {
            if a == 0 {
                return;
            }
            a -= 1;
            if k[a] < ranges[a].1 {
                k[a] += 1;
                break;
            }
            k[a] = ranges[a].0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fused::detected_products;
    use crate::scene::moved::moved_point;
    use nalgebra::Point2;

    #[test]
    fn a_moved_point_is_the_exact_difference_where_that_is_a_value() {
        let products = detected_products();
        let moved = |p: &Point2<f64>, k: &Image<2>, size: &[f64; 2], products| {
            moved_point(p, &Vector::of(k, size, products))
        };
        // 0.1 is no dyadic: 0.1 − 3 · 0.7 rounds; 0.5 − 3 · 0.25 does not.
        let p = Point2::new(0.5f64, 0.1);
        let q = moved(&p, &[3, 0], &[0.25, 0.7], products).unwrap();
        assert_eq!(q, Point2::new(-0.25, 0.1));
        // A size whose multiple needs more than 53 bits: 3 · (1 + 2^-52) = 3 + 3·2^-52, not a
        // value of f64; from 3 + 2·2^-52 it leaves exactly −2^-52.
        let size = 1.0 + f64::EPSILON;
        let p = Point2::new(3.0 + 2.0 * f64::EPSILON, 0.0);
        let q = moved(&p, &[3, 0], &[size, 1.0], products).unwrap();
        assert_eq!(q.x, -f64::EPSILON);
        // In f32: the difference is formed in f64, then rounded once.
        let p = Point2::new(1.0f32 + f32::EPSILON, 0.0);
        let back = Vector::of(&[-1, 0], &[0.75, 1.0], products);
        let q = moved_point(&p, &back).unwrap();
        assert_eq!(q.x, 1.75 + f32::EPSILON);
        assert_eq!(Offset::place(&back, &q), p);
    }

    #[test]
    fn images_come_in_lexicographic_order() {
        let mut seen = alloc::vec::Vec::new();
        each_image(&[(-1, 0), (2, 4)], |k| seen.push(*k));
        assert_eq!(seen, [[-1, 2], [-1, 3], [-1, 4], [0, 2], [0, 3], [0, 4]]);
        seen.clear();
        each_image(&[(1, 0), (0, 0)], |k| seen.push(*k));
        assert!(seen.is_empty());
    }

    #[test]
    fn ranges_hold_every_image_within_reach() {
        // Bodies in [0, 1] on an axis of period 1: from 5.5 within 2, the images 3..=7.
        let r = ranges(
            &[5.5, 0.0],
            2.0,
            (&[0.0, 0.0], &[1.0, 1.0]),
            &[1.0, 1.0],
            &[true, false],
        );
        assert_eq!(r[0], (3, 7));
        assert_eq!(r[1], (0, 0));
        // Bodies in [0, 0.125]: none within 0.25 of 0.5.
        let r = ranges(&[0.5], 0.25, (&[0.0], &[0.125]), &[1.0], &[true]);
        assert!(r[0].0 > r[0].1);
        // An infinite reach stops at 2^20 boxes.
        let r = ranges(&[0.0], f64::INFINITY, (&[0.0], &[1.0]), &[1.0], &[true]);
        assert_eq!(r[0], (-(1 << 20), 1 << 20));
    }
}
