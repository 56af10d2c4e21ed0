//! Random draws shared by the tests.

use rand::Rng;
use rand::rngs::StdRng;
use raysweep::nalgebra::SVector;

/// A random unit vector, by rejection from the cube.
pub fn unit<const D: usize>(rng: &mut StdRng) -> SVector<f64, D> {
    loop {
        let v = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}
