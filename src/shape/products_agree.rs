//! Test support: a shape's queries give the same bits with either kind of error-free products,
//! so that the choice [`with_fused_products`](crate::core::dispatch::with_fused_products) makes on
//! the CPU changes the speed only. (Fused outside code compiled for FMA, as in the tests, the
//! products are the math library's `fma`.)

use core::fmt::Debug;

use nalgebra::Vector3;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::core::exact::Products;

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
