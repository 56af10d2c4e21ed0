//! Test support: a shape's queries give the same bits with either kind of error-free products,
//! so that the choice [`with_fused_products`](crate::fused::with_fused_products) makes on
//! the CPU changes the speed only. (Fused outside code compiled for FMA, as in the tests, the
//! products are the math library's `fma`.)

use core::fmt::Debug;

use nalgebra::{Point3, Vector3};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::core::exact::Products;
use crate::ray::Ray;

/// For `count` draws of a generator seeded with `seed`, `case` builds a query (or `None` to skip
/// the draw) and says what it is; asserts that the query answers alike, to its `Debug` form
/// (every bit of every float), with [`Products::Split`] and [`Products::Fused`].
pub(crate) fn assert_products_agree<Q, R>(
    seed: u64,
    count: usize,
    mut case: impl FnMut(&mut StdRng) -> Option<(String, Q)>,
) where
    Q: Fn(Products) -> R,
    R: Debug,
{
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..count {
        let Some((what, query)) = case(&mut rng) else {
            continue;
        };
        assert_eq!(
            format!("{:?}", query(Products::Split)),
            format!("{:?}", query(Products::Fused)),
            "{what}"
        );
    }
}

/// A vector of coordinates drawn uniformly from `[lo, hi)`.
pub(crate) fn uniform(rng: &mut StdRng, lo: f64, hi: f64) -> Vector3<f64> {
    Vector3::from_fn(|_, _| rng.random_range(lo..hi))
}

/// A power of ten, its exponent drawn from `exponents`.
pub(crate) fn power_of_ten(rng: &mut StdRng, exponents: core::ops::Range<i32>) -> f64 {
    10f64.powi(rng.random_range(exponents))
}

/// A shape's centre, within 4 of the origin on each axis.
pub(crate) fn centre(rng: &mut StdRng) -> Point3<f64> {
    Point3::from(uniform(rng, -4.0, 4.0))
}

/// An offset in a random direction, `size` times a power of ten from `exponents` long: where a
/// ray starts, from the shape's centre.
pub(crate) fn away(rng: &mut StdRng, size: f64, exponents: core::ops::Range<i32>) -> Vector3<f64> {
    uniform(rng, -1.0, 1.0).normalize() * size * power_of_ten(rng, exponents)
}

/// A moving ball's radius for a shape of `size`: a point-like one, a smaller one or a larger one.
pub(crate) fn ball(rng: &mut StdRng, size: f64) -> f64 {
    size * [1e-9, 0.25, 2.0][rng.random_range(0..3)]
}

/// A ray from `centre + from` towards `centre + aim`, one in ten with a direction component
/// scaled far below the others (`1e-300`); `None` where [`Ray::new`] refuses the direction.
pub(crate) fn aimed_ray(
    rng: &mut StdRng,
    centre: Point3<f64>,
    from: Vector3<f64>,
    aim: Vector3<f64>,
) -> Option<Ray<f64, 3>> {
    let mut dir = aim - from;
    if rng.random_bool(0.1) {
        dir[rng.random_range(0..3)] *= 1e-300;
    }
    Ray::new(centre + from, dir).ok()
}
