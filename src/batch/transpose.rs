//! Four rays as lanes on x86-64, read with vector loads and transposed with shuffles, for the
//! batches compiled for AVX2 or AVX-512 ([`stored_lanes`](super::stored_lanes)).
//!
//! Built from scalar loads (lane `k` of component `i` is `rays[k].origin[i]`), the lanes take an
//! insert per value, and where AVX-512 is enabled the compiler turns them into gather
//! instructions: `vgatherqpd`, which is microcoded on AMD's Zen 4 and 5. Here each ray is read
//! with vector loads, two (`f64`) or four (`f32`) of its values at a time, and the four rays'
//! values interleaved by shuffles, which the compiler keeps as they are. The lanes hold the same values either way: an `f32` value is converted to `f64` exactly,
//! as [`Real::to_wide`] does.
//!
//! A [`Ray`] is `#[repr(C)]`: its origin's `D` coordinates, then its direction's `D` components,
//! `2·D` values of `T` with no padding (nalgebra's `OPoint` and `Matrix` are `#[repr(C)]`, its
//! `ArrayStorage` and `Unit` `#[repr(transparent)]`; checked at compile time below). The
//! module's `unsafe` blocks are these loads, each within one ray, and SSE2 intrinsics, which
//! every x86-64 CPU has (Rust requires an `unsafe` block for them in a function that does not
//! itself enable `sse2`).
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128, _mm_castsi128_ps, _mm_cvtps_pd, _mm_loadu_pd, _mm_loadu_ps, _mm_loadu_si64,
    _mm_movehl_ps, _mm_movelh_ps, _mm_unpackhi_pd, _mm_unpackhi_ps, _mm_unpacklo_pd,
    _mm_unpacklo_ps,
};
use core::mem::size_of;

use super::lanes::Four;
use crate::ray::Ray;
use crate::real::Real;

/// The origins and stored directions of four rays as lanes: lane `k` of origin component `i` is
/// `rays[k].origin[i]` in `f64`, and likewise for the directions.
#[inline(always)]
pub(crate) fn ray_lanes<V: Four, T: Real, const D: usize>(
    rays: [&Ray<T, D>; 4],
) -> ([V; D], [V; D]) {
    const {
        assert!(size_of::<Ray<T, D>>() == 2 * D * size_of::<T>());
    }
    // Lanes of the ray's values 0 to 2·D − 1: the origin's, then the direction's.
    let mut values = [[V::default(); D]; 2];
    let mut set = |c: usize, lanes: V| values[c / D][c % D] = lanes;
    if size_of::<T>() == size_of::<f64>() {
        // `Real` is sealed: a `T` of size 8 is `f64`.
        let starts = first_values::<T, D, f64>(rays);
        for c in (0..2 * D).step_by(2) {
            let (a, b) = f64_pair(starts, c);
            set(c, a);
            set(c + 1, b);
        }
    } else {
        let starts = first_values::<T, D, f32>(rays);
        let mut c = 0;
        while c + 4 <= 2 * D {
            for (i, lanes) in f32_quad(starts, c).into_iter().enumerate() {
                set(c + i, lanes);
            }
            c += 4;
        }
        if c < 2 * D {
            let (a, b) = f32_pair(starts, c);
            set(c, a);
            set(c + 1, b);
        }
    }
    let [origins, dirs] = values;
    (origins, dirs)
}

/// Pointers to the first values of four rays, as values of type `V`. (Spelled out: the array's
/// `map` with a closure, here and for the loads, was left out of line in the batch's loop.)
#[inline(always)]
fn first_values<T: Real, const D: usize, V>(rays: [&Ray<T, D>; 4]) -> [*const V; 4] {
    let start = |k: usize| core::ptr::from_ref(rays[k]).cast::<V>();
    [start(0), start(1), start(2), start(3)]
}

/// Values `c` and `c + 1` of four `f64` rays, each given by a pointer to its first value, as lanes.
#[inline(always)]
fn f64_pair<V: Four>(starts: [*const f64; 4], c: usize) -> (V, V) {
    // SAFETY: SSE2 is part of x86-64; `starts[k]` points to a ray's `2·D > c + 1` values of
    // `f64` (`ray_lanes`), of which the load reads `c` and `c + 1`, with no alignment needed.
    unsafe {
        let load = |k: usize| _mm_loadu_pd(starts[k].add(c));
        let (p0, p1, p2, p3) = (load(0), load(1), load(2), load(3));
        (
            V::from_halves(_mm_unpacklo_pd(p0, p1), _mm_unpacklo_pd(p2, p3)),
            V::from_halves(_mm_unpackhi_pd(p0, p1), _mm_unpackhi_pd(p2, p3)),
        )
    }
}

/// Values `c` to `c + 3` of four `f32` rays (`T` of size 4), converted to `f64` exactly: a 4×4
/// transpose.
#[inline(always)]
fn f32_quad<V: Four>(starts: [*const f32; 4], c: usize) -> [V; 4] {
    // SAFETY: as in `f64_pair`; `c + 3 < 2·D`.
    unsafe {
        let load = |k: usize| _mm_loadu_ps(starts[k].add(c));
        let (p0, p1, p2, p3) = (load(0), load(1), load(2), load(3));
        // (p0₀, p1₀, p0₁, p1₁), (p2₀, p3₀, p2₁, p3₁), and the same for values 2 and 3.
        let (low01, low23) = (_mm_unpacklo_ps(p0, p1), _mm_unpacklo_ps(p2, p3));
        let (high01, high23) = (_mm_unpackhi_ps(p0, p1), _mm_unpackhi_ps(p2, p3));
        [
            widened(_mm_movelh_ps(low01, low23)),
            widened(_mm_movehl_ps(low23, low01)),
            widened(_mm_movelh_ps(high01, high23)),
            widened(_mm_movehl_ps(high23, high01)),
        ]
    }
}

/// Values `c` and `c + 1` of four `f32` rays, converted to `f64` exactly.
#[inline(always)]
fn f32_pair<V: Four>(starts: [*const f32; 4], c: usize) -> (V, V) {
    // SAFETY: as in `f64_pair`: the 64-bit load reads the two `f32` values `c` and `c + 1`.
    unsafe {
        let load = |k: usize| _mm_castsi128_ps(_mm_loadu_si64(starts[k].add(c).cast::<u8>()));
        let (p0, p1, p2, p3) = (load(0), load(1), load(2), load(3));
        let (low, high) = (_mm_unpacklo_ps(p0, p1), _mm_unpacklo_ps(p2, p3));
        (
            widened(_mm_movelh_ps(low, high)),
            widened(_mm_movehl_ps(high, low)),
        )
    }
}

/// Four `f32` lanes as `f64` lanes.
#[inline(always)]
fn widened<V: Four>(v: __m128) -> V {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { V::from_halves(_mm_cvtps_pd(v), _mm_cvtps_pd(_mm_movehl_ps(v, v))) }
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point, SVector};

    use super::*;
    use crate::batch::lanes::F64x4;

    /// The loads give what indexing gives, in both widths and for odd and even dimensions.
    #[test]
    fn ray_lanes_are_the_components() {
        fn check<T: Real, const D: usize>(value: impl Fn(usize, usize) -> f64) {
            let rays: [Ray<T, D>; 4] = core::array::from_fn(|k| {
                let origin = SVector::from_fn(|i, _| T::from_wide(value(k, i)));
                let dir = SVector::from_fn(|i, _| T::from_wide(value(k, i + D) - 0.5));
                Ray::new(Point::from(origin), dir).unwrap()
            });
            let (origins, dirs) = ray_lanes::<F64x4, T, D>(rays.each_ref());
            for (k, ray) in rays.iter().enumerate() {
                for i in 0..D {
                    let (o, n) = (ray.origin()[i].to_wide(), ray.dir()[i].to_wide());
                    assert_eq!(origins[i].0[k].to_bits(), o.to_bits(), "D={D} k={k} i={i}");
                    assert_eq!(dirs[i].0[k].to_bits(), n.to_bits(), "D={D} k={k} i={i}");
                }
            }
        }
        let f = |k: usize, i: usize| (k * 10 + i) as f64 * 0.37 + 0.1 * (i as f64 - k as f64);
        check::<f64, 1>(f);
        check::<f64, 2>(f);
        check::<f64, 3>(f);
        check::<f64, 4>(f);
        check::<f64, 5>(f);
        check::<f32, 1>(f);
        check::<f32, 2>(f);
        check::<f32, 3>(f);
        check::<f32, 4>(f);
        check::<f32, 5>(|k, i| -f(k, i) * 1e-30);
    }
}
