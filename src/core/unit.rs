//! Unit vectors in the working precision, and how far from unit a ray's stored direction may be.

use nalgebra::SVector;

use super::lane::{Lane, build, dot};

/// How far from unit a ray's stored direction may be, as `||n|² − 1|`: `2^-16`. [`Ray::new`](crate::Ray::new) stores
/// directions within `2^-23` in `f32` (each component rounded by at most `2^-24` relative, in any
/// dimension) and a few ulps in `f64`; a deserialised direction is kept as given only within
/// `4·D` ulps of the width and this bound (`serialization.rs`).
pub(crate) const UNIT_TOLERANCE: f64 = 1.0 / 65536.0;

/// `v / |v|` and `|v|` in each lane, and the lanes where `|v|²` is comfortably inside the normal
/// range, so that this plain evaluation is the one [`unit_and_length`] returns.
#[inline(always)]
pub(crate) fn unit_in_range<L: Lane, const D: usize>(v: &[L; D]) -> (L::Mask, [L; D], L) {
    let squared = dot(v, v);
    let norm = squared.sqrt();
    let in_range = L::splat(1e-290).le(squared) & squared.le(L::splat(1e290));
    (in_range, build(|i| v[i] / norm), norm)
}

/// `v / |v|` and `|v|`, without overflow or underflow; `None` if `v` is zero or not finite.
///
/// Each component is divided by the rounded length (so `(3, 4)` gives exactly `(0.6, 0.8)`).
/// Where `|v|²` is comfortably inside the normal range (the usual case) the length takes one
/// square root; otherwise `v` is first scaled by its largest component.
#[inline]
pub(crate) fn unit_and_length<const D: usize>(
    v: &SVector<f64, D>,
) -> Option<(SVector<f64, D>, f64)> {
    let (in_range, unit, norm) = unit_in_range(&(*v).into());
    if in_range {
        return Some((unit.into(), norm));
    }
    let m = v.amax();
    if !(m > 0.0) || !m.is_finite() {
        return None;
    }
    let scaled = v / m;
    let norm = scaled.norm();
    Some((scaled / norm, norm * m))
}
